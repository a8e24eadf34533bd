//! 3.0 Sequence of Play: whose decision it is, the legal actions of each phase and
//! interruption, applying an action, and the automatic steps between decisions.

use engine::{Applied, Event, Log, Rejection, Seat};
use hexgrid::{Arc, Direction, Hex, Vertex};

use crate::action::Action;
use crate::scenario::{Chit, UnitId};
use crate::state::{ActionKind, Fury, Loc, Phase, Pick, SelectedMoves, State, Task};
use crate::zoc::Situation;

impl State {
    /// The seat that decides a task.
    fn task_owner(&self, t: &Task) -> Seat {
        match t {
            Task::Retreat { unit, .. }
            | Task::Withdraw { unit, .. }
            | Task::Pursue { unit }
            | Task::SecondMelee { unit }
            | Task::BerserkCombat { unit, .. }
            | Task::RoutedPenalty { unit, .. } => self.side(*unit),
            // The attacker advances; after a berserk unit's second combat (16.4) that may be
            // the non-phasing player.
            Task::Advance { candidates, .. } => candidates
                .first()
                .map(|&c| self.side(c))
                .unwrap_or(self.active),
        }
    }

    /// The seats that must decide now.
    pub fn pending_seats(&self) -> Vec<Seat> {
        if self.phase == Phase::Over {
            return Vec::new();
        }
        if let Some(t) = self.tasks.first() {
            return vec![self.task_owner(t)];
        }
        match self.phase {
            Phase::Setup(s) | Phase::Withdrawal(s) | Phase::MeleeFacing(s) => vec![s],
            Phase::Orders => [Seat(0), Seat(1)]
                .into_iter()
                .filter(|s| !self.orders_done[s.index()])
                .collect(),
            Phase::DefensiveFire => vec![self.battle.enemy(self.active)],
            Phase::Movement | Phase::OffensiveFire | Phase::Melee | Phase::Rally => {
                vec![self.active]
            }
            // 16.1 II: at a real table (manual dice) the drawing seat says what it drew.
            Phase::Draw => match &self.action {
                Some(a) if self.manual_draws() => vec![a.drawer],
                _ => Vec::new(),
            },
            Phase::Activation(s) | Phase::Concession(s) => vec![s],
            Phase::Penalty(_) | Phase::Over => Vec::new(),
        }
    }

    /// Whether `seat` must decide now ([`State::pending_seats`] lists it), asked without
    /// listing them.
    pub fn is_pending(&self, seat: Seat) -> bool {
        if self.phase == Phase::Over {
            return false;
        }
        if let Some(t) = self.tasks.first() {
            return self.task_owner(t) == seat;
        }
        match self.phase {
            Phase::Setup(s) | Phase::Withdrawal(s) | Phase::MeleeFacing(s) => s == seat,
            Phase::Orders => seat.index() < 2 && !self.orders_done[seat.index()],
            Phase::DefensiveFire => self.battle.enemy(self.active) == seat,
            Phase::Movement | Phase::OffensiveFire | Phase::Melee | Phase::Rally => {
                self.active == seat
            }
            Phase::Draw => match &self.action {
                Some(a) if self.manual_draws() => a.drawer == seat,
                _ => false,
            },
            Phase::Activation(s) | Phase::Concession(s) => s == seat,
            Phase::Penalty(_) | Phase::Over => false,
        }
    }

    /// Every legal action of `seat` now.
    pub fn legal(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        if !self.is_pending(seat) {
            return out;
        }
        if let Some(t) = self.tasks.first() {
            self.task_actions(t, &mut out);
            return out;
        }
        match self.phase {
            Phase::Setup(_) => self.setup_actions(seat, &mut out),
            Phase::Orders => self.order_actions(seat, &mut out),
            Phase::Movement => self.movement_actions(&mut out),
            Phase::Withdrawal(s) => {
                for u in self.withdrawers(s) {
                    for h in self.retreat_destinations(u, 1, 3) {
                        out.push(Action::Withdraw { unit: u, to: h });
                    }
                }
                out.push(Action::EndWithdrawal);
            }
            Phase::DefensiveFire | Phase::OffensiveFire => {
                let enemies = self.unit_hexes(self.battle.enemy(seat));
                for u in self.on_map(seat).collect::<Vec<_>>() {
                    for t in self.fire_targets_among(u, &enemies) {
                        out.push(Action::Fire { unit: u, target: t });
                    }
                }
                out.push(Action::EndFire);
            }
            Phase::Melee => {
                let declarations = self.melee_declarations();
                let may_end = self.melee_obligations_given(&declarations).is_empty();
                for (target, attackers) in declarations {
                    out.push(Action::Melee { target, attackers });
                }
                if may_end {
                    out.push(Action::EndMelee);
                }
            }
            Phase::MeleeFacing(s) => {
                for u in self.facing_changers(s) {
                    let now = self.unit(u).facing;
                    for v in Vertex::ALL.into_iter().filter(|&v| v != now) {
                        out.push(Action::Face { unit: u, facing: v });
                    }
                }
                out.push(Action::EndCombat);
            }
            Phase::Draw => self.draw_actions(&mut out),
            Phase::Activation(s) => self.activation_actions(s, &mut out),
            Phase::Concession(s) => self.concession_actions(s, &mut out),
            Phase::Rally | Phase::Penalty(_) | Phase::Over => {}
        }
        out
    }

    fn task_actions(&self, t: &Task, out: &mut Vec<Action>) {
        match t {
            Task::Retreat { unit, min, max } => {
                for h in self.retreat_destinations(*unit, *min, *max) {
                    out.push(Action::Retreat { unit: *unit, to: h });
                }
            }
            Task::Withdraw { unit, .. } => {
                for h in self.retreat_destinations(*unit, 1, 3) {
                    out.push(Action::Withdraw { unit: *unit, to: h });
                }
                out.push(Action::StandFast);
            }
            Task::Advance { candidates, .. } => {
                for &c in candidates {
                    out.push(Action::Advance { unit: c });
                }
            }
            Task::Pursue { unit } => {
                for d in self.pursuit_destinations(*unit) {
                    out.push(Action::Pursue {
                        unit: *unit,
                        to: d.hex,
                        facing: d.facing,
                    });
                }
                out.push(Action::Halt);
            }
            Task::SecondMelee { unit } => {
                for target in self.second_melee_targets(*unit) {
                    out.push(Action::Melee {
                        target,
                        attackers: vec![*unit],
                    });
                }
                out.push(Action::Halt);
            }
            // 16.4: the berserk unit's second combat is not optional: no `halt`.
            Task::BerserkCombat { unit, only } => {
                for target in self.berserk_targets(*unit, *only) {
                    out.push(Action::Melee {
                        target,
                        attackers: vec![*unit],
                    });
                }
            }
            Task::RoutedPenalty { unit, .. } => {
                for h in self.retreat_destinations(*unit, 3, 3) {
                    out.push(Action::Retreat { unit: *unit, to: h });
                }
                out.push(Action::LoseStep { unit: *unit });
            }
        }
    }

    /// The Movement Phase's decisions, one counter at a time (notation.md): with nothing
    /// selected, `select` for each counter that may move (not those deselected since the last
    /// move, unless nothing else could be done) and `end-movement` once no unit must still
    /// move; with a counter selected, its moves and `deselect`. Every sequence of moves of
    /// 8.0 is still legal: each move is its `select` and then the move.
    fn movement_actions(&self, out: &mut Vec<Action>) {
        if let Some(moves) = self.selected_moves() {
            out.reserve_exact(moves.len() + 1);
            out.extend(moves.actions());
            out.push(Action::Deselect);
            return;
        }
        // One map analysis for both questions.
        let sit = std::cell::OnceCell::new();
        let picks = self.selectable_in(&sit);
        let may_end = self.movement_may_end_in(&sit);
        let fresh = picks.iter().any(|p| !self.deselected.contains(p));
        out.reserve(picks.len() + 1);
        for p in picks {
            if (fresh || may_end) && self.deselected.contains(&p) {
                continue;
            }
            out.push(match p {
                Pick::Unit(unit) => Action::Select { unit },
                Pick::Leader(leader) => Action::SelectLeader { leader },
            });
        }
        if may_end {
            out.push(Action::EndMovement);
        }
    }

    /// Whether `select` of `p` is listed now ([`State::movement_actions`]): the counter may
    /// move, and, if deselected since the last move, every counter that may move has been
    /// deselected and the phase may not end.
    fn may_select(&self, p: Pick) -> bool {
        if self.selected.is_some() || !self.is_selectable(p, &std::cell::OnceCell::new()) {
            return false;
        }
        !self.deselected.contains(&p)
            || self
                .selectable()
                .iter()
                .all(|q| self.deselected.contains(q))
                && !self.movement_may_end()
    }

    /// The counters of the phasing side that may still move this Movement Phase (8.0, 8.1,
    /// 12.1, 16.11), units first, in id order: those whose moves are worth listing
    /// ([`State::is_selectable`]).
    fn selectable(&self) -> Vec<Pick> {
        self.selectable_in(&std::cell::OnceCell::new())
    }

    /// [`State::selectable`], with the map analysis in `sit` (worked out there once, only
    /// for a unit out of command).
    fn selectable_in(&self, sit: &std::cell::OnceCell<std::rc::Rc<Situation>>) -> Vec<Pick> {
        // The cheap tests of `is_selectable` first, over the units with their definitions:
        // the other side's units and those moved are passed over at once.
        let side = self.active;
        let units = (self.units.iter().zip(&self.battle.units))
            .zip(self.unit_ids())
            .filter(move |((st, def), _)| def.side == side && !st.moved)
            .map(|(_, u)| Pick::Unit(u));
        let leaders = self.leader_ids().map(Pick::Leader);
        let mut out = Vec::with_capacity(self.units.len() + self.leaders.len());
        out.extend(units.chain(leaders).filter(|&p| self.is_selectable(p, sit)));
        out
    }

    /// Whether a counter of the phasing side may still move this Movement Phase (8.0, 8.1,
    /// 12.1, 16.11). A unit out of command in an enemy ZOC may not move at all (5.33). `sit`
    /// holds the map analysis once worked out (only a unit out of command needs it).
    fn is_selectable(&self, p: Pick, sit: &std::cell::OnceCell<std::rc::Rc<Situation>>) -> bool {
        let side = self.active;
        match p {
            Pick::Unit(u) => {
                let Some(st) = self.units.get(u as usize) else {
                    return false;
                };
                if self.side(u) != side || st.moved || !self.may_move_now(u) {
                    return false;
                }
                match st.loc {
                    Loc::Map(h) => {
                        !(st.out_of_command
                            && !self.skirmisher(u)
                            && sit.get_or_init(|| self.situation()).zoc_of(
                                self,
                                self.battle.enemy(side),
                                h,
                            ))
                    }
                    Loc::Waiting => self.may_enter(u),
                    Loc::Eliminated => false,
                }
            }
            Pick::Leader(l) => {
                let Some(st) = self.leaders.get(l as usize) else {
                    return false;
                };
                self.battle.leaders[l as usize].side == side
                    && !st.moved
                    && st.loc.hex().is_some()
                    && self.activation().is_none_or(|a| a.leader == l)
            }
        }
    }

    /// The moves a counter would have once selected (its listed actions but `deselect`).
    pub fn moves_of(&self, p: Pick) -> Vec<Action> {
        self.selected_moves_of(p).actions().collect()
    }

    /// [`State::moves_of`], kept short ([`SelectedMoves`]). A unit's: with its stack if it
    /// is the upper unit (or alone in its hex), then alone if it has a stack-mate (7.1).
    fn selected_moves_of(&self, p: Pick) -> SelectedMoves {
        match p {
            Pick::Unit(unit) => {
                let mut listed = (Vec::new(), Vec::new());
                self.unit_moves(unit, &self.situation(), &mut listed);
                let (mut moves, entries) = listed;
                // Kept while the counter is selected: no more room than the moves take.
                moves.shrink_to_fit();
                SelectedMoves::Unit {
                    unit,
                    moves,
                    entries,
                }
            }
            Pick::Leader(leader) => SelectedMoves::Leader {
                leader,
                to: self
                    .leader_destinations(leader)
                    .into_iter()
                    .map(|(h, _)| h)
                    .collect(),
            },
        }
    }

    /// The moves of unit `u` (those of [`State::moves_of`]), handed to `sink` in order as
    /// (alone, destination, facing): with its stack first if it is the upper unit or alone in
    /// its hex, then alone if it has a stack-mate (7.1).
    pub(crate) fn unit_moves(
        &self,
        u: UnitId,
        sit: &crate::zoc::Situation,
        sink: &mut impl crate::movement::MoveSink,
    ) {
        let st = self.unit(u);
        if st.moved || !self.may_move_now(u) {
            return;
        }
        let on_map = st.loc.hex().is_some();
        if !on_map && !self.may_enter(u) {
            return;
        }
        let mate = if on_map {
            self.stack_mate(u)
        } else {
            self.waiting_mate(u)
        };
        let top = mate.is_none_or(|m| self.def(u).stacked_over == Some(m));
        if top {
            self.each_destination(u, false, sit, sink);
        }
        if mate.is_some() {
            self.each_destination(u, true, sit, sink);
        }
    }

    /// Whether the Movement Phase may end: no unit must still move (5.1, 12.1) and no split
    /// leader must still join his cavalry (16.3).
    fn movement_may_end(&self) -> bool {
        self.movement_may_end_in(&std::cell::OnceCell::new())
    }

    /// [`State::movement_may_end`], with the map analysis in `sit` (worked out there if not
    /// yet).
    fn movement_may_end_in(&self, sit: &std::cell::OnceCell<std::rc::Rc<Situation>>) -> bool {
        !self.any_unmoved_obligation_in(sit.get_or_init(|| self.situation()))
            && self.split_leader_obligations().is_empty()
    }

    /// Crusades II 16.11: whether a unit may move in this Movement Phase as far as action chits go:
    /// in a move activation, the units of the leader's command and the skirmish and artillery units
    /// of his side on the map (each moves once a turn: `moved` lasts the turn).
    pub fn may_move_now(&self, u: UnitId) -> bool {
        match self.activation() {
            None => true,
            Some(a) => {
                a.kind == ActionKind::Move
                    && self.activated(u)
                    && (self.def(u).leader == a.leader || self.hex(u).is_some())
            }
        }
    }

    /// 5.4: skirmishers of `seat` in an enemy ZOC that may withdraw before combat.
    fn withdrawers(&self, seat: Seat) -> Vec<UnitId> {
        self.on_map(seat)
            .filter(|&u| self.skirmisher(u) && !self.unit(u).withdrew && !self.unit(u).routed)
            .filter(|&u| self.hex(u).is_some_and(|h| self.in_enemy_zoc(seat, h)))
            .filter(|&u| !self.retreat_destinations(u, 1, 3).is_empty())
            .collect()
    }

    /// 5.4: a skirmisher needs an 8-10 unless an enemy infantry unit's ZOC holds it.
    fn withdrawal_needs_roll(&self, u: UnitId) -> bool {
        let Some(h) = self.hex(u) else { return false };
        let enemy = self.battle.enemy(self.side(u));
        !Direction::ALL.iter().any(|&d| {
            self.stack_at(h.neighbour(d)).into_iter().any(|e| {
                self.side(e) == enemy && !self.mounted(e) && self.exerts_zoc(e, d.opposite())
            })
        })
    }

    /// Units of the phasing player that must still melee: those that fired at an adjacent hex
    /// in offensive fire (9.31) and Attack units in an enemy ZOC that have not fought (5.11).
    pub fn melee_obligations(&self) -> Vec<UnitId> {
        self.melee_obligations_given(&self.melee_declarations())
    }

    /// [`State::melee_obligations`], given the melee declarations now
    /// ([`State::melee_declarations`]).
    fn melee_obligations_given(&self, decl: &[(Hex, Vec<UnitId>)]) -> Vec<UnitId> {
        self.attack_representatives()
            .into_iter()
            .filter(|&u| {
                let s = self.unit(u);
                let possible: Vec<Hex> = decl
                    .iter()
                    .filter(|(_, a)| a.contains(&u))
                    .map(|(t, _)| *t)
                    .collect();
                if let Some(h) = s.fired_at {
                    return possible.contains(&h);
                }
                self.follows_chit(u)
                    && self.chit(u) == Some(Chit::Attack)
                    && !s.fired
                    && !possible.is_empty()
                    && self
                        .hex(u)
                        .is_some_and(|h| self.in_enemy_zoc(self.side(u), h))
            })
            .collect()
    }

    fn facing_changers(&self, seat: Seat) -> Vec<UnitId> {
        self.on_map(seat)
            .filter(|&u| self.unit(u).in_melee && !self.skirmisher(u))
            .collect()
    }

    /// Whether an action is legal for `seat`: it is among the legal actions (a melee's units
    /// in any order: the order says which take losses first).
    pub fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        if let (
            Action::Move {
                unit,
                alone,
                to,
                facing,
                via,
            },
            true,
            Phase::Movement,
        ) = (action, self.tasks.is_empty(), self.phase)
        {
            if let (Some(Pick::Unit(u)), true) = (self.selected, via.is_empty()) {
                return u == *unit
                    && self.is_pending(seat)
                    && self.selected_moves().is_some_and(|m| m.contains(action));
            }
            let mut route = via.clone();
            if !route.is_empty() {
                route.push(*to);
            }
            // Only this unit's moves need searching.
            let on_map = self.hex(*unit).is_some();
            let mate = if on_map {
                self.stack_mate(*unit)
            } else {
                self.waiting_mate(*unit)
            };
            let top = mate.is_none_or(|m| self.def(*unit).stacked_over == Some(m));
            // The move of the selected unit, or (a shorthand: `select` and the move in one)
            // of a unit whose `select` is listed, with nothing selected.
            return match self.selected {
                Some(p) => p == Pick::Unit(*unit),
                None => self.may_select(Pick::Unit(*unit)),
            } && self.side(*unit) == seat
                && self.may_move_now(*unit)
                && (*alone && mate.is_some() || !*alone && top)
                && self
                    .route_destinations(*unit, *alone, &route, &self.situation())
                    .iter()
                    .any(|d| d.hex == *to && d.facing == *facing);
        }
        if self.tasks.is_empty() && self.phase == Phase::Movement && self.is_pending(seat) {
            // The same tests as `movement_actions`, without searching every unit's moves.
            match action {
                Action::Select { unit } => return self.may_select(Pick::Unit(*unit)),
                Action::SelectLeader { leader } => return self.may_select(Pick::Leader(*leader)),
                Action::Deselect => return self.selected.is_some(),
                Action::EndMovement => {
                    return self.selected.is_none() && self.movement_may_end();
                }
                Action::MoveLeader { leader, .. } if self.selected.is_some() => {
                    return self.selected == Some(Pick::Leader(*leader))
                        && self.selected_moves().is_some_and(|m| m.contains(action));
                }
                Action::MoveLeader { leader, to } => {
                    // With nothing selected, a shorthand for its `select` and the move.
                    return match self.selected {
                        Some(p) => p == Pick::Leader(*leader),
                        None => self.may_select(Pick::Leader(*leader)),
                    } && self
                        .battle
                        .leaders
                        .get(*leader as usize)
                        .is_some_and(|d| d.side == self.active)
                        && self.activation().is_none_or(|a| a.leader == *leader)
                        && self
                            .leader_destinations(*leader)
                            .iter()
                            .any(|(h, _)| h == to);
                }
                _ => {}
            }
        }
        if let Action::Fire { unit, target } = action {
            // The same test as `legal` lists fire with (9.1), for this unit alone.
            return self.tasks.is_empty()
                && matches!(self.phase, Phase::DefensiveFire | Phase::OffensiveFire)
                && self.is_pending(seat)
                && self.battle.units.get(*unit as usize).is_some()
                && self.side(*unit) == seat
                && self.hex(*unit).is_some()
                && self.fire_targets(*unit).contains(target);
        }
        let legal = self.legal(seat);
        match action {
            Action::Melee { target, attackers } => legal.iter().any(|a| match a {
                Action::Melee {
                    target: t,
                    attackers: b,
                } => {
                    t == target && {
                        let mut x = attackers.clone();
                        x.sort_unstable();
                        x.dedup();
                        x.len() == attackers.len() && x == *b
                    }
                }
                _ => false,
            }),
            _ => legal.contains(action),
        }
    }

    /// Applies an action of `seat`: checks it, carries it out, then runs the automatic steps
    /// to the next decision.
    pub fn play(
        &mut self,
        seat: Seat,
        action: &Action,
        log: &mut Log,
    ) -> Result<Applied, Rejection> {
        let draws = self.action.as_ref().map_or(0, |a| a.draws);
        if !self.is_pending(seat) {
            return Err(Rejection::new(match self.phase {
                Phase::Over => "the game is over".to_string(),
                _ => format!(
                    "it is not {}'s decision now",
                    self.battle.seats[seat.index()]
                ),
            }));
        }
        if self.tasks.is_empty() && self.phase == Phase::Orders {
            self.apply_order(seat, action, log)?;
        } else if self.tasks.is_empty() && matches!(self.phase, Phase::Setup(_)) {
            self.apply_setup(seat, action, log)?;
        } else {
            if !self.is_legal(seat, action) {
                return Err(self.refusal(seat, action));
            }
            self.carry_out(action, log);
        }
        self.progress(log);
        // A chit drawn from the cup (16.1) is chance revealed, like a die: no undo past it.
        // So is a split announced (16.3): it tells the other side of an Attack chit.
        let revealed = self.action.as_ref().map_or(0, |a| a.draws) != draws
            || matches!(action, Action::Split { .. } | Action::Rejoin { .. });
        Ok(Applied { revealed })
    }

    fn refusal(&self, seat: Seat, action: &Action) -> Rejection {
        let b = &self.battle;
        let phase = format!("{:?}", self.phase);
        let what = action.text(b);
        let why = match action {
            Action::Move { unit, .. } if self.selected.is_some_and(|p| p != Pick::Unit(*unit)) => format!("another counter is selected: move it or `deselect` it before moving {}", self.name(*unit)),
            Action::MoveLeader { leader, .. } if self.selected.is_some_and(|p| p != Pick::Leader(*leader)) => format!("another counter is selected: move it or `deselect` it before moving {}", self.leader_name(*leader)),
            Action::EndMovement if self.selected.is_some() => "a counter is selected: move it or `deselect` it first".into(),
            Action::Select { .. } | Action::SelectLeader { .. } if self.selected.is_some() => "a counter is already selected: move it or `deselect` it first".into(),
            Action::Select { .. } | Action::SelectLeader { .. } => "that counter cannot move now: not the phasing side's, already moved, not of the activated command (16.11), out of command in an enemy ZOC (5.33), or deselected since the last move".into(),
            Action::Deselect => "nothing is selected".into(),
            Action::Move { unit, .. } if self.side(*unit) != seat => format!("{} is not yours", self.name(*unit)),
            Action::Move { unit, .. } if !self.may_move_now(*unit) => format!("{} is not part of the activated command, nor a skirmish or artillery unit (16.11)", self.name(*unit)),
            Action::Move { unit, .. } if self.unit(*unit).moved => format!("{} has already moved this phase (8.0)", self.name(*unit)),
            Action::Move { .. } | Action::MoveLeader { .. } if self.activation().is_some() => "with action chits only the activated leader's command, and skirmish and artillery units that have not moved this turn, move (16.11)".into(),
            Action::Move { .. } => "that unit cannot reach that hex with that facing under its command chit, zones of control and terrain (5.1, 6.0, 8.0)".into(),
            Action::EndMovement => {
                let mut names: Vec<String> = self.unmoved_obligations().iter().map(|&u| self.name(u).to_string()).collect();
                names.extend(self.split_leader_obligations().iter().map(|&l| format!("{} (must move with his cavalry, 16.3)", self.leader_name(l))));
                format!("these must still move under their command chits or enter as reinforcements (5.1, 12.1, 16.3): {}", names.join(", "))
            }
            Action::Fire { .. } => "that unit cannot fire at that hex: range, line of sight, facing or it has fired (9.1, 9.2)".into(),
            Action::Melee { .. } => "that melee is not allowed: attackers must have the hex in a front hexside, be in command with Attack, Advance or Stand, not routed, not skirmishers, and each hex is attacked once (9.3, 9.31)".into(),
            Action::EndMelee => {
                let names: Vec<String> = self.melee_obligations().iter().map(|&u| self.name(u).to_string()).collect();
                format!("these units must still melee (9.31, 5.11): {}", names.join(", "))
            }
            Action::Retreat { .. } => "not a legal retreat hex (9.5)".into(),
            Action::Draw { .. } => "that chit is not in the cup, or the program draws (with seeded dice) (16.1, 16.13)".into(),
            Action::Activate { .. } => "that leader's command has already taken that action this turn, has no units to act, or it is night: move or pass only (16.11, 12.21)".into(),
            Action::RetreatCommand { .. } => "that leader has no command on the map (16.5)".into(),
            _ => "not a legal action now".into(),
        };
        Rejection::new(format!("`{what}` refused in {phase}: {why}"))
    }

    fn carry_out(&mut self, action: &Action, log: &mut Log) {
        match action.clone() {
            Action::Move {
                unit,
                alone,
                to,
                facing,
                via,
            } => {
                // A reinforcement's entry hex, found when it was selected (with its moves).
                let entry = match (self.selected_moves.get(), via.is_empty()) {
                    (Some(moves), true) if self.unit(unit).loc == Loc::Waiting => {
                        moves.entry_of(unit, alone, to, facing)
                    }
                    _ => None,
                };
                self.move_unit(unit, alone, to, facing, &via, entry, log);
                self.selected = None;
                self.selected_moves = std::sync::OnceLock::new();
                self.deselected.clear();
            }
            Action::Select { unit } => self.select(Pick::Unit(unit)),
            Action::SelectLeader { leader } => self.select(Pick::Leader(leader)),
            Action::Deselect => {
                self.selected_moves = std::sync::OnceLock::new();
                if let Some(p) = self.selected.take() {
                    self.deselected.push(p);
                }
            }
            Action::MoveLeader { leader, to } => {
                self.selected = None;
                self.selected_moves = std::sync::OnceLock::new();
                self.deselected.clear();
                self.leaders[leader as usize].loc = Loc::Map(to);
                self.leaders[leader as usize].moved = true;
                log.push_with(|| {
                    let (n, at) = (self.leader_name(leader), self.id(to));
                    Event::public("Crusades II 8.1", format!("{n} moves to {at}"))
                });
            }
            Action::EndMovement => self.end_movement(log),
            Action::Withdraw { unit, to } => {
                let from_task = matches!(self.tasks.first(), Some(Task::Withdraw { .. }));
                let needs_roll = match self.tasks.first() {
                    Some(Task::Withdraw { needs_roll, .. }) => *needs_roll,
                    _ => self.withdrawal_needs_roll(unit),
                };
                if from_task {
                    self.tasks.remove(0);
                }
                self.unit_mut(unit).withdrew = true;
                let go = if needs_roll {
                    let roll = self.dice.d10();
                    let ok = roll >= 8;
                    let name = self.name(unit).to_string();
                    log.push_with(|| {
                        Event::public(
                            "Crusades II 5.4",
                            format!(
                                "{name} tries to withdraw: {}",
                                if ok { "goes" } else { "stays" }
                            ),
                        )
                        .with_roll(engine::RollRecord {
                            purpose: format!("withdrawal of {name}"),
                            dice: vec![roll],
                            modifiers: vec![],
                            total: roll as i32,
                            cell: Some("8-10 withdraws".into()),
                            result: if ok {
                                "withdraws".into()
                            } else {
                                "stays".into()
                            },
                        })
                    });
                    ok
                } else {
                    true
                };
                if go {
                    if let Some(m) = self.stack_mate(unit) {
                        // A stack withdraws together (7.11).
                        self.tasks.push(Task::Retreat {
                            unit: m,
                            min: 1,
                            max: 3,
                        });
                    }
                    self.retreat_to(unit, to, log);
                }
            }
            Action::StandFast => {
                self.tasks.remove(0);
            }
            Action::EndWithdrawal => self.next_phase(log),
            Action::Fire { unit, target } => self.fire(unit, target, log),
            Action::EndFire => self.next_phase(log),
            Action::Melee { target, attackers } => {
                if matches!(self.tasks.first(), Some(Task::SecondMelee { .. })) {
                    self.tasks.remove(0);
                    self.declare_melee(target, &attackers, true, log);
                } else if let Some(Task::BerserkCombat { unit, .. }) = self.tasks.first().cloned() {
                    // 16.4: the berserk unit's second combat; its stack-mate fights with it.
                    self.tasks.remove(0);
                    let mate = self.stack_mate(unit);
                    self.tasks.retain(
                        |t| !matches!(t, Task::BerserkCombat { unit: v, .. } if Some(*v) == mate),
                    );
                    let name = self.name(unit).to_string();
                    log.push_with(|| {
                        Event::public(
                            "Crusades II 16.4",
                            format!("{name}, berserk, fights a second combat"),
                        )
                    });
                    self.declare_melee(target, &attackers, true, log);
                } else {
                    self.declare_melee(target, &attackers, false, log);
                }
            }
            Action::EndMelee => self.next_phase(log),
            Action::Retreat { unit, to } => match self.tasks.remove(0) {
                Task::RoutedPenalty { check, .. } => {
                    self.routed_penalty(unit, Some(to), check, log)
                }
                _ => self.retreat_to(unit, to, log),
            },
            Action::LoseStep { unit } => {
                if let Task::RoutedPenalty { check, .. } = self.tasks.remove(0) {
                    self.routed_penalty(unit, None, check, log);
                }
            }
            Action::Draw { seat } => self.draw_chit(Some(seat), log),
            Action::Pass => {
                if let Phase::Activation(s) = self.phase {
                    self.pass(s, false, log);
                }
            }
            Action::Activate { leader, action } => self.activate(leader, action, log),
            Action::Concede | Action::CheckMorale | Action::RetreatCommand { .. } => {
                if let Phase::Concession(s) = self.phase {
                    self.concession(s, action, log);
                }
            }
            Action::Advance { unit } => {
                if let Some(Task::Advance { hex, .. }) = self.tasks.first().cloned() {
                    self.tasks.remove(0);
                    self.advance_into(unit, hex, log);
                }
            }
            Action::Pursue { unit, to, facing } => {
                self.tasks.remove(0);
                for g in self.moving_group(unit, false) {
                    self.unit_mut(g).loc = Loc::Map(to);
                    self.unit_mut(g).facing = facing;
                }
                self.overrun_leaders(to, self.side(unit), log);
                let (n, at) = (self.name(unit).to_string(), self.id(to));
                log.push_with(|| {
                    Event::public("Crusades II 9.32", format!("{n} charges on to {at}"))
                });
                self.tasks.insert(0, Task::SecondMelee { unit });
            }
            Action::Halt => {
                if let Task::Pursue { unit } = self.tasks.remove(0) {
                    self.tasks.insert(0, Task::SecondMelee { unit });
                }
            }
            Action::Face { unit, facing } => {
                self.unit_mut(unit).facing = facing;
                self.unit_mut(unit).in_melee = false;
                if let Some(m) = self.stack_mate(unit) {
                    self.unit_mut(m).facing = facing; // 6.1: one facing per hex
                    self.unit_mut(m).in_melee = false;
                }
            }
            Action::EndCombat => self.next_phase(log),
            Action::Place { .. }
            | Action::PlaceLeader { .. }
            | Action::DeployHistorical
            | Action::Chit { .. }
            | Action::Change { .. }
            | Action::Charge { .. }
            | Action::Split { .. }
            | Action::Rejoin { .. }
            | Action::OrdersDone => {}
        }
    }

    /// Selects a counter to move next; its moves are worked out when first asked for
    /// ([`State::selected_moves()`]).
    fn select(&mut self, p: Pick) {
        self.selected_moves = std::sync::OnceLock::new();
        self.selected = Some(p);
    }

    /// The moves of the selected counter, if one is selected: worked out the first time
    /// they are asked for (its legal actions, or whether a move is one of them), then kept
    /// (in the field of that name).
    pub fn selected_moves(&self) -> Option<&SelectedMoves> {
        let p = self.selected?;
        Some(
            self.selected_moves
                .get_or_init(|| std::sync::Arc::new(self.selected_moves_of(p))),
        )
    }

    /// Takes over `earlier`'s moves of the selected counter ([`State::selected_moves()`]) if
    /// it has worked them out for the same counter and nothing they follow from differs here
    /// ([`State::moves_follow_alike`]): a search checks the move of each `move` decision of
    /// its tree in every re-sampled world that replays it ([`engine::Game::reuse_work`]).
    pub fn reuse_selected_moves(&mut self, earlier: &State) {
        let Some(p) = self.selected else {
            return;
        };
        if self.selected_moves.get().is_some() || earlier.selected != Some(p) {
            return;
        }
        let Some(kept) = earlier.selected_moves.get() else {
            return;
        };
        let mover = match p {
            Pick::Unit(u) => self.side(u),
            Pick::Leader(l) => self.battle.leaders[l as usize].side,
        };
        if self.moves_follow_alike(earlier, mover) {
            let _ = self.selected_moves.set(std::sync::Arc::clone(kept));
        }
    }

    /// Whether `other` is this state but for its dice and the command chits of the enemy of
    /// `mover` (the secrets a search re-samples, [`engine::Game::determinize`]), so that a
    /// counter of `mover`'s has the same moves in both: no move of a counter reads the
    /// enemy's chits, which limit only their own leader's units (5.1). Every other field is
    /// compared, so that a field added later is too; tests/shortcuts.rs checks moves taken
    /// over against moves worked out afresh.
    pub fn moves_follow_alike(&self, other: &State, mover: Seat) -> bool {
        let State {
            battle,
            options,
            dice: _,
            turn,
            phase,
            active,
            units,
            leaders,
            orders_done,
            tasks,
            melees,
            attacked,
            fire_target,
            fire_closed,
            entries,
            holy_cross,
            holy_cross_state,
            victory_checking,
            action,
            selected,
            deselected,
            selected_moves: _,
            outcome,
        } = self;
        std::sync::Arc::ptr_eq(battle, &other.battle)
            && *turn == other.turn
            && *phase == other.phase
            && *active == other.active
            && *selected == other.selected
            && *options == other.options
            && *units == other.units
            && leaders.len() == other.leaders.len()
            && leaders
                .iter()
                .zip(&other.leaders)
                .enumerate()
                .all(|(l, (a, b))| {
                    if battle.leaders[l].side == mover {
                        a == b
                    } else {
                        a.alike_but_chit(b)
                    }
                })
            && *orders_done == other.orders_done
            && *tasks == other.tasks
            && *melees == other.melees
            && *attacked == other.attacked
            && *fire_target == other.fire_target
            && *fire_closed == other.fire_closed
            && *entries == other.entries
            && *holy_cross == other.holy_cross
            && *holy_cross_state == other.holy_cross_state
            && *victory_checking == other.victory_checking
            && *action == other.action
            && *deselected == other.deselected
            && *outcome == other.outcome
    }

    /// Moves `unit` (with its stack unless `alone`) to `to` facing `facing`, by the path
    /// `via` (or the cheapest); `known_entry` is a reinforcement's entry hex if already known
    /// (the one the search below finds).
    #[allow(clippy::too_many_arguments)]
    fn move_unit(
        &mut self,
        unit: UnitId,
        alone: bool,
        to: Hex,
        facing: Vertex,
        via: &[Hex],
        known_entry: Option<Option<Hex>>,
        log: &mut Log,
    ) {
        let from = self.unit(unit).loc;
        // A reinforcement's path tells its entry hex (12.1).
        let entry = if let (Loc::Waiting, Some(known)) = (from, known_entry) {
            known
        } else if from == Loc::Waiting {
            let mut route = via.to_vec();
            if !route.is_empty() {
                route.push(to);
            }
            self.route_destinations(unit, alone, &route, &self.situation())
                .into_iter()
                .find(|d| d.hex == to && d.facing == facing)
                .and_then(|d| d.entry)
        } else {
            None
        };
        let group = self.moving_group(unit, alone);
        let side = self.side(unit);
        if alone {
            if let Some(m) = if from == Loc::Waiting {
                self.waiting_mate(unit)
            } else {
                self.stack_mate(unit)
            } {
                self.unit_mut(m).unstacked = true;
                self.unit_mut(unit).unstacked = true;
            }
        }
        for &g in &group {
            let s = self.unit_mut(g);
            s.loc = Loc::Map(to);
            s.facing = facing;
            s.moved = true;
        }
        if from == Loc::Waiting {
            if let Some(e) = entry {
                match self.entries.iter_mut().find(|(h, _)| *h == e) {
                    Some((_, n)) => *n += 1,
                    None => self.entries.push((e, 1)),
                }
            }
            self.reinforcement_arrives(unit, to);
        }
        self.overrun_leaders(to, side, log);
        log.push_with(|| {
            let names = group
                .iter()
                .map(|&g| self.name(g))
                .collect::<Vec<_>>()
                .join(" and ");
            Event::public(
                "Crusades II 8.0",
                format!(
                    "{names} {} to {} facing {facing}",
                    if group.len() > 1 { "move" } else { "moves" },
                    self.id(to)
                ),
            )
        });
    }

    /// 12.1: the leader and the Holy Cross of a reinforcement enter with its first unit.
    fn reinforcement_arrives(&mut self, unit: UnitId, at: Hex) {
        let Some(r) = self
            .battle
            .reinforcements
            .iter()
            .find(|r| r.units.contains(&unit))
            .cloned()
        else {
            return;
        };
        for l in r.leaders {
            if self.leaders[l as usize].loc == Loc::Waiting {
                self.leaders[l as usize].loc = Loc::Map(at);
            }
        }
        if r.holy_cross && self.holy_cross_state == crate::state::CrossState::Waiting {
            self.holy_cross_state = crate::state::CrossState::Carried;
            self.holy_cross = Some(unit);
        }
    }

    fn end_movement(&mut self, log: &mut Log) {
        self.selected = None;
        self.selected_moves = std::sync::OnceLock::new();
        self.deselected.clear();
        if self.night() {
            // 12.21: units in enemy ZOCs at the end of a night movement lose a step.
            let side = self.active;
            // With action chits, the units of the command that moved (16.11).
            let leader = self.activation().map(|a| a.leader);
            for u in self.on_map(side).collect::<Vec<_>>() {
                if leader.is_some_and(|l| self.def(u).leader != l) {
                    continue;
                }
                if self.hex(u).is_some_and(|h| self.in_enemy_zoc(side, h)) {
                    let name = self.name(u).to_string();
                    log.push_with(|| {
                        Event::public(
                            "Crusades II 12.21",
                            format!("{name} stayed in an enemy ZOC at night"),
                        )
                    });
                    self.lose_step(u, false, log);
                }
            }
        }
        self.next_phase(log);
    }

    /// Moves to the next phase of the sequence of play (3.0).
    fn next_phase(&mut self, log: &mut Log) {
        let first = self.battle.first_player;
        let enemy = self.battle.enemy(self.active);
        match self.phase {
            Phase::Setup(s) => {
                if s == first {
                    self.phase = Phase::Setup(self.battle.enemy(first));
                } else {
                    self.start_turn(log);
                }
            }
            Phase::Orders => {
                self.uncharge(log);
                self.end_splits();
                if self.options.advanced_sequence {
                    self.start_action_phase(log);
                } else {
                    self.active = first;
                    self.start_movement(log);
                }
            }
            Phase::Movement if self.activation().is_some() => self.finish_activation(log),
            Phase::Movement => {
                for u in self.unit_ids().collect::<Vec<_>>() {
                    self.unit_mut(u).withdrew = false;
                }
                self.phase = Phase::Withdrawal(enemy);
            }
            Phase::Withdrawal(s) if s != self.active => self.phase = Phase::Withdrawal(self.active),
            Phase::Withdrawal(_) => {
                for u in self.unit_ids().collect::<Vec<_>>() {
                    let st = self.unit_mut(u);
                    st.fired = false;
                    st.fired_at = None;
                    st.morale_checked = false;
                }
                self.fire_target = None;
                self.fire_closed.clear();
                if self.night() {
                    self.start_melee();
                } else {
                    self.phase = Phase::DefensiveFire;
                }
            }
            Phase::DefensiveFire => {
                for u in self.unit_ids().collect::<Vec<_>>() {
                    self.unit_mut(u).fired = false;
                }
                self.fire_target = None;
                self.fire_closed.clear();
                self.phase = Phase::OffensiveFire;
            }
            Phase::OffensiveFire => self.start_melee(),
            Phase::Melee => self.phase = Phase::MeleeFacing(self.active),
            Phase::MeleeFacing(s) if s == self.active => self.phase = Phase::MeleeFacing(enemy),
            Phase::MeleeFacing(_) => {
                for u in self.unit_ids().collect::<Vec<_>>() {
                    self.unit_mut(u).in_melee = false;
                }
                if self.activation().is_some() {
                    self.finish_activation(log);
                    return;
                }
                self.phase = Phase::Rally;
                let side = self.active;
                self.recovery(side, log);
                if self.berserk_effects() {
                    self.exhaustion_removal(side, log);
                }
            }
            Phase::Rally if self.options.advanced_sequence => self.end_phase(log),
            Phase::Rally => {
                let side = self.active;
                if self.victory_roll(side, log) {
                    return;
                }
                self.after_rally(log);
            }
            Phase::Penalty(s) => self.penalty_paid(s, log),
            Phase::Draw => self.draw_chit(None, log),
            Phase::Activation(s) => self.pass(s, true, log),
            Phase::Concession(_) | Phase::Over => {}
        }
    }

    pub(crate) fn start_turn(&mut self, log: &mut Log) {
        self.phase = Phase::Orders;
        let label = self.battle.turns[self.turn].label.clone();
        log.push_with(|| Event::public("Crusades II 3.0", format!("turn {label} begins")));
        for l in self.leader_ids().collect::<Vec<_>>() {
            self.leaders[l as usize].change_tried = false;
            self.leaders[l as usize].chits_held = 0;
        }
        for u in self.unit_ids().collect::<Vec<_>>() {
            self.unit_mut(u).charge_tried = false;
        }
        self.nightfall(log);
        for s in [Seat(0), Seat(1)] {
            let mut acts = Vec::new();
            self.orders_done[s.index()] = false;
            self.order_actions(s, &mut acts);
            // A seat with nothing to decide is done at once.
            self.orders_done[s.index()] = acts.iter().all(|a| *a == Action::OrdersDone);
        }
    }

    pub(crate) fn start_movement(&mut self, log: &mut Log) {
        self.phase = Phase::Movement;
        self.entries.clear();
        self.selected = None;
        self.selected_moves = std::sync::OnceLock::new();
        self.deselected.clear();
        let side = self.active;
        for u in self.unit_ids().collect::<Vec<_>>() {
            self.unit_mut(u).moved = false;
        }
        for l in self.leader_ids().collect::<Vec<_>>() {
            self.leaders[l as usize].moved = false;
        }
        self.check_command(log);
        // 16.42: an exhausted unit in an enemy ZOC retreats one hex if it can.
        for u in self.on_map(side).collect::<Vec<_>>() {
            self.exhausted_retreat(u);
        }
    }

    fn start_melee(&mut self) {
        self.phase = Phase::Melee;
        self.attacked.clear();
        for u in self.unit_ids().collect::<Vec<_>>() {
            let st = self.unit_mut(u);
            st.meleed = false;
            st.in_melee = false;
            st.morale_checked = false;
        }
    }

    /// Runs automatic steps until a seat must decide: trivial interruptions resolve
    /// themselves, melees continue, and phases with nothing to decide pass.
    pub fn progress(&mut self, log: &mut Log) {
        for _ in 0..10_000 {
            if self.phase == Phase::Over {
                return;
            }
            if let Some(t) = self.tasks.first().cloned() {
                match t {
                    Task::Retreat { unit, min, max } => {
                        if self.hex(unit).is_none() {
                            self.tasks.remove(0);
                        } else if self.retreat_destinations(unit, min, max).is_empty() {
                            self.tasks.remove(0);
                            self.cannot_retreat(unit, log);
                        } else {
                            return;
                        }
                    }
                    Task::Withdraw { unit, .. } => {
                        if self.hex(unit).is_none()
                            || self.retreat_destinations(unit, 1, 3).is_empty()
                        {
                            self.tasks.remove(0);
                        } else {
                            return;
                        }
                    }
                    Task::Advance { hex, candidates } => {
                        let ok: Vec<UnitId> = candidates
                            .into_iter()
                            .filter(|&c| {
                                !self.unit(c).routed
                                    && self.hex(c).is_some_and(|h| h.distance(hex) == 1)
                            })
                            .collect();
                        if ok.is_empty() || !self.stack_at(hex).is_empty() {
                            self.tasks.remove(0);
                        } else {
                            self.tasks[0] = Task::Advance {
                                hex,
                                candidates: ok,
                            };
                            return;
                        }
                    }
                    Task::Pursue { unit } => {
                        if self.hex(unit).is_none()
                            || !self.unit(unit).charging && self.unit(unit).fury != Fury::Berserk
                        {
                            self.tasks.remove(0);
                        } else {
                            return;
                        }
                    }
                    Task::SecondMelee { unit } => {
                        if self.hex(unit).is_none() || self.second_melee_targets(unit).is_empty() {
                            self.tasks.remove(0);
                        } else {
                            return;
                        }
                    }
                    Task::BerserkCombat { unit, only } => {
                        if self.hex(unit).is_none()
                            || self.unit(unit).fury != Fury::Berserk
                            || self.berserk_targets(unit, only).is_empty()
                        {
                            self.tasks.remove(0);
                        } else {
                            return;
                        }
                    }
                    Task::RoutedPenalty { unit, check } => {
                        if self.hex(unit).is_none() {
                            self.tasks.remove(0);
                        } else if self.retreat_destinations(unit, 3, 3).is_empty() {
                            // No three-hex retreat: the step loss it is.
                            self.tasks.remove(0);
                            self.routed_penalty(unit, None, check, log);
                        } else {
                            return;
                        }
                    }
                }
                continue;
            }
            if !self.melees.is_empty() {
                self.continue_melee(log);
                continue;
            }
            let idle = match self.phase {
                Phase::Setup(s) => self.setup_complete(s),
                Phase::Orders => self.orders_done == [true, true],
                Phase::Movement => false,
                Phase::Withdrawal(s) => self.withdrawers(s).is_empty(),
                Phase::DefensiveFire | Phase::OffensiveFire => {
                    let seat = self.firing_seat();
                    let enemies = self.unit_hexes(self.battle.enemy(seat));
                    !self
                        .on_map(seat)
                        .any(|u| !self.fire_targets_among(u, &enemies).is_empty())
                }
                Phase::Melee => self.melee_declarations().is_empty(),
                Phase::MeleeFacing(s) => self.facing_changers(s).is_empty(),
                Phase::Rally | Phase::Penalty(_) => true,
                // Seeded dice: the program draws; manual dice: the drawing seat enters it.
                Phase::Draw => !self.manual_draws(),
                // A seat with no command able to act can only pass (16.11).
                Phase::Activation(s) => {
                    let mut acts = Vec::new();
                    self.activation_actions(s, &mut acts);
                    acts == [Action::Pass]
                }
                Phase::Concession(_) => false,
                Phase::Over => return,
            };
            if !idle {
                return;
            }
            self.next_phase(log);
        }
    }

    /// The arc of `dir` for a unit, for views: front, flank or rear.
    pub fn arc_name(&self, u: UnitId, dir: Direction) -> &'static str {
        match self.arc(u, dir) {
            Arc::Front => "front",
            Arc::Flank => "flank",
            Arc::Rear => "rear",
        }
    }
}
