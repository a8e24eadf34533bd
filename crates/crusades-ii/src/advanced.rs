//! 16.0 Advanced Rules: the Advanced Crusades Sequence of Play and its action chits (16.1,
//! 16.11), the "Turn Ends" chit (16.13), split commands (16.3) and the optional victory
//! conditions (16.5). The off-map leader boxes (16.12) are in [`crate::view`]; berserk units
//! (16.4-16.43) in [`crate::melee`] and [`crate::morale`]; 16.2 and 16.6 in [`crate::melee`].
//!
//! The readings chosen where the text is ambiguous are written next to the code and in
//! `docs/crusades-ii/rules-notes.md`.

use engine::{DiceMode, Event, Log, Seat};
use hexgrid::Hex;

use crate::action::Action;
use crate::morale::CheckKind;
use crate::scenario::{Chit, LeaderId, UnitId};
use crate::state::{ActionKind, ActionPhase, Activation, Loc, Phase, State, Task};

impl State {
    // ------------------------------------------------------------------------------------
    // 16.1, 16.11: the cup of action chits
    // ------------------------------------------------------------------------------------

    /// Whether any combat unit of a leader's command is on the map.
    pub fn command_on_map(&self, l: LeaderId) -> bool {
        self.unit_ids()
            .any(|u| self.def(u).leader == l && self.hex(u).is_some())
    }

    /// Whether units of a leader's command may enter the map this turn as reinforcements
    /// (12.1: due this turn or, withheld, earlier, and still off the map).
    pub fn command_entering(&self, l: LeaderId) -> bool {
        self.battle.reinforcements.iter().any(|r| {
            r.turn <= self.turn
                && r.units
                    .iter()
                    .any(|&u| self.def(u).leader == l && self.unit(u).loc == Loc::Waiting)
        })
    }

    /// The leaders of `side` whose commands can act this turn: with a combat unit on the map,
    /// or entering it (16.11: "each leader's command may move once and engage in combat
    /// once").
    pub fn commands(&self, side: Seat) -> Vec<LeaderId> {
        self.leader_ids()
            .filter(|&l| self.battle.leaders[l as usize].side == side)
            .filter(|&l| self.command_on_map(l) || self.command_entering(l))
            .collect()
    }

    /// Crusades II 16.1 I, 16.11, 12.1, 12.21: the action chits `side` puts in the cup this
    /// turn.
    ///
    /// Reading (rules notes, 16.11): two chits per leader whose command is on the map or
    /// entering it, one for each action his command may take ("each leader's command may move
    /// once and engage in combat once"); chits are not tied to a leader, the owner chooses
    /// which leader acts. 12.21 night turns put in "only one chit per leader", and Hattin's
    /// first three turns "one action chit per leader on the map or entering the map as a
    /// reinforcement" (12.1): both only make sense as a cut from a larger usual count.
    pub fn action_chits(&self, side: Seat) -> u8 {
        let n = if self.battle.special.early_action_chits && self.turn < 3 {
            // 12.1: the leader himself on the map, or his command entering this turn.
            self.commands(side)
                .into_iter()
                .filter(|&l| {
                    self.leaders[l as usize].loc.hex().is_some() && self.command_on_map(l)
                        || self.command_entering(l)
                })
                .count()
        } else if self.night() {
            self.commands(side).len()
        } else {
            2 * self.commands(side).len()
        };
        n.min(u8::MAX as usize) as u8
    }

    /// Crusades II 16.1 II: the Action Phase begins. Each seat's chits go into the cup; every
    /// counter's Moved and Fired marks of the last turn are cleared; the Crusader (first seat)
    /// draws first.
    pub fn start_action_phase(&mut self, log: &mut Log) {
        for u in self.unit_ids().collect::<Vec<_>>() {
            let st = self.unit_mut(u);
            st.moved = false;
            st.fought = false;
            st.fired_defending = false;
        }
        for l in self.leader_ids().collect::<Vec<_>>() {
            let st = &mut self.leaders[l as usize];
            st.moved = false;
            st.chit_moved = false;
            st.chit_fought = false;
        }
        let cup = [self.action_chits(Seat(0)), self.action_chits(Seat(1))];
        let draws = self.action.as_ref().map_or(0, |a| a.draws);
        self.action = Some(ActionPhase {
            cup,
            put_in: cup,
            turn_ends: false,
            drawn: 0,
            passes: 0,
            drawer: Seat(0),
            chit: None,
            current: None,
            draws,
        });
        self.phase = Phase::Draw;
        let seats = self.battle.seats.clone();
        log.push_with(|| {
            Event::public(
                "Crusades II 16.1",
                format!(
                    "action phase: {} {} and {} {} action chits go into the cup",
                    cup[0], seats[0], cup[1], seats[1]
                ),
            )
        });
        if cup == [0, 0] {
            self.end_action_phase(log);
        }
    }

    /// Crusades II 16.1, 16.13: the chits that may be drawn now, as `draw` actions: a seat's colour
    /// while it has chits in the cup, and the Turn Ends chit once it is in (16.13).
    pub fn draw_actions(&self, out: &mut Vec<Action>) {
        let Some(a) = &self.action else { return };
        for s in [Seat(0), Seat(1)] {
            if a.cup[s.index()] > 0 {
                out.push(Action::Draw { seat: Some(s) });
            }
        }
        if a.turn_ends {
            out.push(Action::Draw { seat: None });
        }
    }

    /// Crusades II 16.1 II: draws the next chit: the one entered at the table (`entered`, manual
    /// dice) or one taken at random from the cup with the game's generator. A seat's chit goes to
    /// its owner's choice; the Turn Ends chit ends the Action Phase (16.13).
    pub fn draw_chit(&mut self, entered: Option<Option<Seat>>, log: &mut Log) {
        let Some(a) = self.action.clone() else { return };
        let drawn = match entered {
            Some(x) => x,
            None => {
                let (n0, n1) = (a.cup[0] as usize, a.cup[1] as usize);
                let k = self.dice.choose(n0 + n1 + usize::from(a.turn_ends));
                if k < n0 {
                    Some(Seat(0))
                } else if k < n0 + n1 {
                    Some(Seat(1))
                } else {
                    None
                }
            }
        };
        let drawer = self.battle.seats[a.drawer.index()].clone();
        let ends_chit = self.options.turn_ends_chit;
        let seats = self.battle.seats.clone();
        let Some(st) = self.action.as_mut() else {
            return;
        };
        st.draws += 1;
        st.drawn = st.drawn.saturating_add(1);
        st.drawer = Seat(1 - st.drawer.0);
        match drawn {
            None => {
                st.turn_ends = false;
                log.push_with(|| {
                    Event::public(
                        "Crusades II 16.13",
                        format!("{drawer} draws the Turn Ends chit: the action phase ends"),
                    )
                });
                self.end_action_phase(log);
            }
            Some(s) => {
                st.cup[s.index()] = st.cup[s.index()].saturating_sub(1);
                st.chit = Some(s);
                let (left0, left1, n) = (st.cup[0], st.cup[1], st.drawn);
                // 16.13: "After 5 action chits have been drawn, the Turn Ends chit is placed in
                // the opaque container with the remaining action chits."
                let add_turn_ends = ends_chit && n == 5 && left0 + left1 > 0;
                if add_turn_ends {
                    st.turn_ends = true;
                }
                self.phase = Phase::Activation(s);
                let owner = seats[s.index()].clone();
                log.push_with(|| {
                    Event::public(
                        "Crusades II 16.1",
                        format!(
                            "{drawer} draws a {owner} action chit ({left0} {} and {left1} {} left in the cup)",
                            seats[0], seats[1]
                        ),
                    )
                });
                if add_turn_ends {
                    log.push_with(|| {
                        Event::public(
                            "Crusades II 16.13",
                            "five chits drawn: the Turn Ends chit goes into the cup",
                        )
                    });
                }
            }
        }
    }

    /// Crusades II 16.11: whether a leader's command may take an action now: move once a turn while
    /// it has units on the map or entering; fight once a turn while it has units on the map, and
    /// never at night (12.21: "only the move or pass options may be used").
    pub fn may_activate(&self, l: LeaderId, kind: ActionKind) -> bool {
        let st = &self.leaders[l as usize];
        match kind {
            ActionKind::Move => {
                !st.chit_moved && (self.command_on_map(l) || self.command_entering(l))
            }
            ActionKind::Combat => !st.chit_fought && !self.night() && self.command_on_map(l),
        }
    }

    /// Crusades II 16.11: the choices of the owner of the chit just drawn: pass, or move or fight
    /// with one leader's command. A command whose reinforcements are due and may not be withheld
    /// (12.1: "The Muslim player (only) may withhold reinforcements") must move with it.
    pub fn activation_actions(&self, side: Seat, out: &mut Vec<Action>) {
        let withhold = self.battle.special.withhold_reinforcements && side != Seat(0);
        if !withhold {
            let due: Vec<LeaderId> = self
                .commands(side)
                .into_iter()
                .filter(|&l| self.command_entering(l) && self.may_activate(l, ActionKind::Move))
                .collect();
            if !due.is_empty() {
                for l in due {
                    out.push(Action::Activate {
                        leader: l,
                        action: ActionKind::Move,
                    });
                }
                return;
            }
        }
        out.push(Action::Pass);
        for l in self.commands(side) {
            for kind in [ActionKind::Move, ActionKind::Combat] {
                if self.may_activate(l, kind) {
                    out.push(Action::Activate {
                        leader: l,
                        action: kind,
                    });
                }
            }
        }
    }

    /// Crusades II 16.11 Pass Option: the chit is put aside; two passes in succession, by either
    /// player, end the Action Phase.
    pub fn pass(&mut self, side: Seat, forced: bool, log: &mut Log) {
        let who = self.battle.seats[side.index()].clone();
        let Some(a) = self.action.as_mut() else {
            return;
        };
        a.chit = None;
        a.passes += 1;
        let passes = a.passes;
        log.push_with(|| {
            Event::public(
                "Crusades II 16.11",
                if forced {
                    format!("{who} has no command left to act and passes")
                } else {
                    format!("{who} passes")
                },
            )
        });
        if passes >= 2 {
            log.push_with(|| {
                Event::public(
                    "Crusades II 16.1",
                    "two passes in succession: the action phase ends",
                )
            });
            self.end_action_phase(log);
        } else {
            self.next_draw(log);
        }
    }

    /// After a chit's action: the next draw, or the end of the Action Phase once every chit
    /// has been drawn (16.1 II).
    fn next_draw(&mut self, log: &mut Log) {
        let empty = self.action.as_ref().is_none_or(|a| a.cup == [0, 0]);
        if empty {
            log.push_with(|| {
                Event::public(
                    "Crusades II 16.1",
                    "every action chit has been drawn: the action phase ends",
                )
            });
            self.end_action_phase(log);
        } else {
            self.phase = Phase::Draw;
        }
    }

    /// Crusades II 16.11: the owner of the chit activates one leader's command to move or to fight.
    pub fn activate(&mut self, leader: LeaderId, kind: ActionKind, log: &mut Log) {
        let side = self.battle.leaders[leader as usize].side;
        if let Some(a) = self.action.as_mut() {
            a.chit = None;
            a.passes = 0;
            a.current = Some(Activation { side, leader, kind });
        }
        self.active = side;
        let (who, name) = (
            self.battle.seats[side.index()].clone(),
            self.leader_name(leader).to_string(),
        );
        log.push_with(|| {
            Event::public(
                "Crusades II 16.11",
                format!(
                    "{who} uses the chit: {name}'s command {}",
                    match kind {
                        ActionKind::Move => "moves",
                        ActionKind::Combat => "fights",
                    }
                ),
            )
        });
        match kind {
            ActionKind::Move => self.start_move_activation(leader, log),
            ActionKind::Combat => self.start_combat_activation(leader, log),
        }
    }

    /// Crusades II 16.11 Movement Option: the Movement Phase of one leader's command, plus skirmish
    /// and artillery units that have not moved this turn. As at the start of any Movement Phase,
    /// the units that are to move check command (5.3) and exhausted units of the command in an
    /// enemy ZOC retreat one hex (16.42).
    fn start_move_activation(&mut self, leader: LeaderId, log: &mut Log) {
        self.phase = Phase::Movement;
        self.entries.clear();
        let side = self.active;
        self.check_command_where(log, |s, u| {
            s.def(u).leader == leader || (s.battle.utype(u).artillery && !s.unit(u).moved)
        });
        for u in self.on_map(side).collect::<Vec<_>>() {
            if self.def(u).leader == leader {
                self.exhausted_retreat(u);
            }
        }
    }

    /// Crusades II 16.11 Combat Command: a combat phase for one leader's command (fire, then
    /// melee), plus skirmish and artillery units that have not yet fought this turn. Skirmishers
    /// may first withdraw (5.4) and the enemy fires defensively (rules notes, 16.11). A command
    /// that has not moved this turn checks command now, as its units act for the first time.
    fn start_combat_activation(&mut self, leader: LeaderId, log: &mut Log) {
        if !self.leaders[leader as usize].chit_moved {
            self.check_command_where(log, |s, u| s.def(u).leader == leader);
        }
        for u in self.unit_ids().collect::<Vec<_>>() {
            self.unit_mut(u).withdrew = false;
        }
        self.phase = Phase::Withdrawal(self.battle.enemy(self.active));
    }

    /// Crusades II 16.11: the end of an activation: the chit goes on the leader's Moved or Fired
    /// box (16.11, Crusades II 16.12), and the next chit is drawn.
    pub fn finish_activation(&mut self, log: &mut Log) {
        let Some(act) = self.action.as_mut().and_then(|a| a.current.take()) else {
            return;
        };
        let st = &mut self.leaders[act.leader as usize];
        match act.kind {
            ActionKind::Move => st.chit_moved = true,
            ActionKind::Combat => st.chit_fought = true,
        }
        self.next_draw(log);
    }

    /// Crusades II 16.1 III: the Rally Phase: both players rally their routed units (10.2), first
    /// player first, and (with the berserk option) remove exhaustion (16.43).
    pub fn end_action_phase(&mut self, log: &mut Log) {
        if let Some(a) = self.action.as_mut() {
            a.chit = None;
            a.current = None;
            a.turn_ends = false;
        }
        self.phase = Phase::Rally;
        let first = self.battle.first_player;
        for side in [first, self.battle.enemy(first)] {
            self.recovery(side, log);
            if self.berserk_effects() {
                self.exhaustion_removal(side, log);
            }
        }
    }

    /// Crusades II 16.1 IV: the End Phase. Both players check for victory (11.0); a single success
    /// wins, two or none and play goes on.
    pub fn end_phase(&mut self, log: &mut Log) {
        let first = self.battle.first_player;
        let order = [first, self.battle.enemy(first)];
        let mut won = Vec::new();
        for roller in order {
            if let Some(w) = self.victory_die(roller, log) {
                if w.won {
                    won.push(w);
                }
            }
        }
        match won.len() {
            1 => {
                let w = won.remove(0);
                self.claim_victory(w, log);
            }
            2 => {
                log.push_with(|| {
                    Event::public(
                        "Crusades II 16.1",
                        "both players roll a victory: play continues",
                    )
                });
                self.next_turn(log);
            }
            _ => self.next_turn(log),
        }
    }

    /// The next game turn, or the end of the game after the last (11.0).
    pub fn next_turn(&mut self, log: &mut Log) {
        self.turn += 1;
        if self.turn >= self.battle.turns.len() {
            self.turn = self.battle.turns.len() - 1;
            self.end_of_game(log);
        } else {
            self.start_turn(log);
        }
    }

    /// What follows a Rally Phase once any victory question is settled: the second player's
    /// Movement Phase or the next turn (3.0), or with the advanced sequence the next turn.
    pub fn after_rally(&mut self, log: &mut Log) {
        if self.options.advanced_sequence {
            self.next_turn(log);
            return;
        }
        let first = self.battle.first_player;
        if self.active == first {
            self.active = self.battle.enemy(first);
            self.start_movement(log);
        } else {
            self.next_turn(log);
        }
    }

    // ------------------------------------------------------------------------------------
    // 16.3 Split Commands
    // ------------------------------------------------------------------------------------

    /// Crusades II 16.3: infantry, a combat unit on foot that follows chits (not a skirmisher).
    fn split_infantry(&self, u: UnitId) -> bool {
        !self.mounted(u) && !self.skirmisher(u) && !self.battle.utype(u).artillery
    }

    /// Crusades II 16.3: cavalry, a mounted combat unit that follows chits (not a skirmisher).
    pub fn split_cavalry(&self, u: UnitId) -> bool {
        self.mounted(u) && !self.skirmisher(u)
    }

    /// Crusades II 16.3: a leader on the map "subject to an attack command chit" who
    /// controls both infantry and cavalry on the map may announce a split at the beginning
    /// of a turn (the Order Phase).
    pub fn may_split(&self, l: LeaderId) -> bool {
        let st = &self.leaders[l as usize];
        if !(self.options.split_commands
            && !st.split
            && st.chit == Some(Chit::Attack)
            && st.loc.hex().is_some())
        {
            return false;
        }
        let mine: Vec<UnitId> = self
            .unit_ids()
            .filter(|&u| self.def(u).leader == l && self.hex(u).is_some())
            .collect();
        mine.iter().any(|&u| self.split_cavalry(u)) && mine.iter().any(|&u| self.split_infantry(u))
    }

    /// Crusades II 16.3: "At the beginning of any turn in which the leader is in command span
    /// of the infantry or cavalry that did not move, the player may announce that the rest of
    /// his force now has the Attack command as well." Reading: every infantry unit of his on
    /// the map and not routed is within his command span, traced as for command (5.31).
    pub fn may_rejoin(&self, l: LeaderId) -> bool {
        let st = &self.leaders[l as usize];
        let Some(lh) = st.loc.hex() else { return false };
        if !(self.options.split_commands && st.split && st.chit == Some(Chit::Attack)) {
            return false;
        }
        let side = self.battle.leaders[l as usize].side;
        let area = self.span_area(side, lh, self.span(l));
        self.unit_ids()
            .filter(|&u| self.def(u).leader == l && self.split_infantry(u))
            .filter(|&u| !self.unit(u).routed)
            .filter_map(|u| self.hex(u))
            .all(|h| area.contains(&h))
    }

    /// Crusades II 16.3: "the leader must be moved with the cavalry": a split leader may move
    /// only into a hex holding one of his cavalry units.
    pub fn split_leader_may_enter(&self, l: LeaderId, h: Hex) -> bool {
        !self.leaders[l as usize].split
            || self
                .stack_at(h)
                .into_iter()
                .any(|u| self.def(u).leader == l && self.split_cavalry(u))
    }

    /// Split leaders of the active side, free to move now, who are not with any of their
    /// cavalry but could join some: the Movement Phase may not end until they do (16.3).
    pub fn split_leader_obligations(&self) -> Vec<LeaderId> {
        self.leader_ids()
            .filter(|&l| {
                let st = &self.leaders[l as usize];
                st.split
                    && self.battle.leaders[l as usize].side == self.active
                    && self.activation().is_none_or(|a| a.leader == l)
                    && st.loc.hex().is_some_and(|h| {
                        !self
                            .stack_at(h)
                            .into_iter()
                            .any(|u| self.def(u).leader == l && self.split_cavalry(u))
                    })
                    && !self.leader_destinations(l).is_empty()
            })
            .collect()
    }

    /// Crusades II 16.3: a split ends when the leader's command is no longer Attack.
    pub fn end_splits(&mut self) {
        for l in self.leader_ids().collect::<Vec<_>>() {
            let st = &mut self.leaders[l as usize];
            if st.split && st.chit != Some(Chit::Attack) {
                st.split = false;
            }
        }
    }

    // ------------------------------------------------------------------------------------
    // 16.5 Optional Victory Conditions
    // ------------------------------------------------------------------------------------

    /// Whether `side` still has combat units, on the map or to come as reinforcements (16.5
    /// "runs out of units").
    pub fn has_units(&self, side: Seat) -> bool {
        self.on_map(side).next().is_some()
            || self.battle.reinforcements.iter().any(|r| {
                r.side == side && r.units.iter().any(|&u| self.unit(u).loc == Loc::Waiting)
            })
    }

    /// Crusades II 16.5: the choices of a player whose opponent has rolled a victory: concede;
    /// check morale for every unit on the map; or put one leader's command on Retreat and rout it.
    pub fn concession_actions(&self, side: Seat, out: &mut Vec<Action>) {
        out.push(Action::Concede);
        if self.on_map(side).next().is_some() {
            out.push(Action::CheckMorale);
        }
        for l in self.chit_leaders(side) {
            if self.command_on_map(l) {
                out.push(Action::RetreatCommand { leader: l });
            }
        }
    }

    /// Crusades II 16.5: the chosen price of fighting on after the opponent's victory roll.
    pub fn concession(&mut self, side: Seat, action: &Action, log: &mut Log) {
        let roller = self.battle.enemy(side);
        let (who, winner) = (
            self.battle.seats[side.index()].clone(),
            self.battle.seats[roller.index()].clone(),
        );
        match *action {
            Action::Concede => {
                log.push_with(|| {
                    Event::public("Crusades II 16.5", format!("{who} concedes: {winner} wins"))
                });
                self.finish(
                    Some(roller),
                    None,
                    format!("{who} conceded after {winner}'s victory roll (16.5)"),
                );
            }
            Action::CheckMorale => {
                self.phase = Phase::Penalty(side);
                log.push_with(|| {
                    Event::public(
                        "Crusades II 16.5",
                        format!("{who} fights on: every {who} unit on the map checks morale"),
                    )
                });
                let units: Vec<UnitId> = self.on_map(side).collect();
                let routed: Vec<UnitId> = units
                    .iter()
                    .copied()
                    .filter(|&u| self.unit(u).routed)
                    .collect();
                for u in units {
                    if routed.contains(&u) {
                        // Already routed: retreat three hexes or lose a step, then check.
                        self.tasks.push(Task::RoutedPenalty {
                            unit: u,
                            check: true,
                        });
                    } else if self.hex(u).is_some()
                        && !self.morale_check(u, CheckKind::Victory, log)
                    {
                        self.rout(u, 1, 3, log);
                    }
                }
            }
            Action::RetreatCommand { leader } => {
                self.phase = Phase::Penalty(side);
                let st = &mut self.leaders[leader as usize];
                st.chit = Some(Chit::Retreat);
                st.split = false;
                let name = self.leader_name(leader).to_string();
                log.push_with(|| {
                    Event::public(
                        "Crusades II 16.5",
                        format!(
                            "{who} fights on: {name}'s command becomes Retreat and his units rout"
                        ),
                    )
                });
                for u in self.on_map(side).collect::<Vec<_>>() {
                    if self.def(u).leader != leader {
                        continue;
                    }
                    if self.unit(u).routed {
                        self.tasks.push(Task::RoutedPenalty {
                            unit: u,
                            check: false,
                        });
                    } else {
                        // A rout marker is placed: no retreat is named (rules notes, 16.5).
                        self.unit_mut(u).routed = true;
                        let n = self.name(u).to_string();
                        log.push_with(|| Event::public("Crusades II 16.5", format!("{n} routs")));
                    }
                }
            }
            _ => {}
        }
    }

    /// Crusades II 16.5: a routed unit pays: it has retreated three hexes (`to`) or loses a step
    /// (`None`); then, after the "check morale" choice, it checks morale and loses another step if
    /// it fails.
    pub fn routed_penalty(&mut self, u: UnitId, to: Option<Hex>, check: bool, log: &mut Log) {
        match to {
            Some(h) => self.retreat_to(u, h, log),
            None => self.lose_step(u, false, log),
        }
        if check && self.hex(u).is_some() && !self.morale_check(u, CheckKind::Victory, log) {
            self.lose_step(u, false, log);
        }
    }

    /// Crusades II 16.5: the end of a penalty: a side left without units has lost (16.5 "until one
    /// player runs out of units"); otherwise play goes on.
    pub fn penalty_paid(&mut self, side: Seat, log: &mut Log) {
        if !self.has_units(side) {
            let roller = self.battle.enemy(side);
            let (who, winner) = (
                self.battle.seats[side.index()].clone(),
                self.battle.seats[roller.index()].clone(),
            );
            log.push_with(|| {
                Event::public(
                    "Crusades II 16.5",
                    format!("{who} has run out of units: {winner} wins"),
                )
            });
            self.finish(
                Some(roller),
                None,
                format!("{who} ran out of units fighting on after {winner}'s victory roll (16.5)"),
            );
            return;
        }
        self.after_rally(log);
    }

    /// Whether the seat that draws chits is entering them at the table (manual dice).
    pub fn manual_draws(&self) -> bool {
        self.dice.mode() == DiceMode::Manual
    }
}
