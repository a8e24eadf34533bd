//! 4.0 Leaders and 5.0 Command: command chits and changing them, Overall Leaders, command
//! span and its extension, out-of-command units, and Crusader heavy cavalry's charge.

use engine::{Event, Log, Modifier, Rejection, RollRecord, Seat};
use hexgrid::Hex;

use crate::action::Action;
use crate::scenario::{Chit, LeaderId, UnitId};
use crate::state::{Loc, State};

impl State {
    /// Hexes within `span` of `leader`'s hex along a path free of enemy combat units and of
    /// enemy ZOCs not occupied by a friendly combat unit (5.31, 6.24). Counting excludes the
    /// leader's hex and includes the unit's.
    pub fn span_area(&self, side: Seat, from: Hex, span: u32) -> Vec<Hex> {
        let ez = self.zoc_of(self.battle.enemy(side));
        self.span_area_in(side, from, span, &ez, &self.first_occupants())
    }

    /// [`State::span_area`], given the enemy's ZOCs ([`State::zoc_of`]) and each hex's
    /// occupant ([`State::first_occupants`]).
    fn span_area_in(
        &self,
        side: Seat,
        from: Hex,
        span: u32,
        ez: &[bool],
        occupants: &[Option<Seat>],
    ) -> Vec<Hex> {
        let grid = &self.battle.map.grid;
        let mut dist = vec![u32::MAX; grid.len()];
        self.span_reach(side, from, span, ez, occupants, &mut dist)
            .into_iter()
            .filter_map(|i| grid.hex_at(i))
            .collect()
    }

    /// [`State::span_area_in`], as grid indices; `dist` is working space, one entry per hex
    /// (grid index), `u32::MAX` everywhere before and after.
    fn span_reach(
        &self,
        side: Seat,
        from: Hex,
        span: u32,
        ez: &[bool],
        occupants: &[Option<Seat>],
        dist: &mut [u32],
    ) -> Vec<usize> {
        let enemy = self.battle.enemy(side);
        let map = &self.battle.map;
        let grid = &map.grid;
        // Breadth-first over grid indices (neighbours in `Direction::ALL` order), the hexes
        // listed in the order first reached.
        let mut reached: Vec<usize> = Vec::new();
        if let Some(i) = grid.index(from) {
            dist[i] = 0;
            reached.push(i);
        }
        let mut next = 0;
        while let Some(&i) = reached.get(next) {
            next += 1;
            let di = dist[i];
            if di >= span {
                continue;
            }
            for &n in &map.neighbour[i] {
                let Some(d) = dist.get(n as usize) else {
                    continue; // off the map
                };
                if *d != u32::MAX {
                    continue;
                }
                let n = n as usize;
                let occ = occupants[n];
                if occ == Some(enemy) {
                    continue;
                }
                if ez[n] && occ != Some(side) {
                    continue;
                }
                dist[n] = di + 1;
                reached.push(n);
            }
        }
        for &i in &reached {
            dist[i] = u32::MAX;
        }
        reached
    }

    /// Which units of `side` are in command now (5.3, 5.31, 5.32, 5.34, 4.3). Skirmishers are
    /// never checked (5.3) and count as in command.
    pub fn command_status(&self, side: Seat) -> Vec<(UnitId, bool)> {
        let grid = &self.battle.map.grid;
        // Each leader's span area (5.31), one flag per hex (grid index).
        let mut areas: Vec<Option<Vec<bool>>> = vec![None; self.leaders.len()];
        let occupants = self.first_occupants();
        let mut dist = vec![u32::MAX; grid.len()];
        self.with_zoc(self.battle.enemy(side), |ez| {
            for l in self.leader_ids() {
                let d = &self.battle.leaders[l as usize];
                if d.side != side {
                    continue;
                }
                if let Some(h) = self.leaders[l as usize].loc.hex() {
                    let mut area = vec![false; grid.len()];
                    for i in self.span_reach(side, h, self.span(l), ez, &occupants, &mut dist) {
                        area[i] = true;
                    }
                    areas[l as usize] = Some(area);
                }
            }
        });
        let overall = self.overall_leader(side);
        let units: Vec<UnitId> = self.on_map(side).collect();
        // Per unit: its hex, leader and whether it is a skirmisher (5.3, 5.4).
        let hexes: Vec<Option<Hex>> = units.iter().map(|&u| self.hex(u)).collect();
        let leaders: Vec<LeaderId> = units.iter().map(|&u| self.def(u).leader).collect();
        let skirmishers: Vec<bool> = units.iter().map(|&u| self.skirmisher(u)).collect();
        let mut status: Vec<(UnitId, bool)> = units
            .iter()
            .enumerate()
            .map(|(k, &u)| {
                if skirmishers[k] {
                    return (u, true);
                }
                let at = grid.index(hexes[k].unwrap_or(Hex { q: 0, r: 0 }));
                let near = |l: LeaderId| {
                    areas[l as usize]
                        .as_ref()
                        .is_some_and(|a| at.is_some_and(|i| a[i]))
                };
                (u, near(leaders[k]) || overall.is_some_and(near))
            })
            .collect();
        // 5.32: extension through chains of adjacent in-command units of the same leader.
        loop {
            let mut changed = false;
            for i in 0..status.len() {
                if status[i].1 {
                    continue;
                }
                let linked = (0..status.len()).any(|j| {
                    status[j].1
                        && j != i
                        && !skirmishers[j]
                        && leaders[j] == leaders[i]
                        && hexes[j]
                            .zip(hexes[i])
                            .is_some_and(|(a, b)| a.distance(b) == 1)
                });
                if linked {
                    status[i].1 = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        status
    }

    /// 3.0 II A, 5.3: at the start of a Movement Phase, mark the active side's units out of
    /// command. 5.33: charging heavy cavalry out of command and not in an enemy ZOC flips.
    pub fn check_command(&mut self, log: &mut Log) {
        self.check_command_where(log, |_, _| true);
    }

    /// [`State::check_command`] for the active side's units that `which` selects: with action
    /// chits, those about to act (16.11).
    pub fn check_command_where(&mut self, log: &mut Log, which: impl Fn(&State, UnitId) -> bool) {
        let side = self.active;
        let status = self.command_status(side);
        for (u, ok) in status {
            if !which(self, u) {
                continue;
            }
            let was = self.unit(u).out_of_command;
            self.unit_mut(u).out_of_command = !ok;
            if !ok && !was {
                let name = self.name(u).to_string();
                log.push_with(|| {
                    Event::public("Crusades II 5.3", format!("{name} is out of command"))
                });
            }
            if !ok && self.heavy(u) && self.unit(u).charging {
                let h = self.hex(u).unwrap_or(Hex { q: 0, r: 0 });
                if !self.in_enemy_zoc(side, h) {
                    self.unit_mut(u).charging = false;
                    let name = self.name(u).to_string();
                    log.push_with(|| {
                        Event::public(
                            "Crusades II 5.33",
                            format!("{name}, out of command, stops charging"),
                        )
                    });
                }
            }
        }
    }

    /// Leaders of `side` that take command chits: those commanding combat units (5.0) that
    /// are on the map or may still enter.
    pub fn chit_leaders(&self, side: Seat) -> Vec<LeaderId> {
        self.leader_ids()
            .filter(|&l| {
                let d = &self.battle.leaders[l as usize];
                d.side == side
                    && self.leaders[l as usize].loc != Loc::Eliminated
                    && self
                        .battle
                        .units
                        .iter()
                        .enumerate()
                        .any(|(i, u)| u.leader == l && self.units[i].loc != Loc::Eliminated)
            })
            .collect()
    }

    /// Chits a leader may hold now: at night Reserve or Muster only (12.21); a reinforcement
    /// leader enters with Advance or Reserve (12.1); Muster only after two of his units are
    /// routed or destroyed (5.16).
    pub fn allowed_chits(&self, l: LeaderId) -> Vec<Chit> {
        self.chits_allowed(l, self.muster_allowed(l)).collect()
    }

    /// [`State::allowed_chits`], in [`Chit::ALL`]'s order, with whether Muster is allowed
    /// (5.16, [`State::muster_allowed`]) given.
    pub(crate) fn chits_allowed(
        &self,
        l: LeaderId,
        muster_ok: bool,
    ) -> impl Iterator<Item = Chit> + Clone {
        let waiting = self.leaders[l as usize].loc == Loc::Waiting;
        let night = self.night();
        Chit::ALL
            .into_iter()
            .filter(move |&c| c != Chit::Muster || muster_ok)
            .filter(move |&c| !night || matches!(c, Chit::Reserve | Chit::Muster))
            .filter(move |&c| !waiting || matches!(c, Chit::Advance | Chit::Reserve))
    }

    /// 5.16: at least two combat units of the leader's force routed or destroyed.
    pub fn muster_allowed(&self, l: LeaderId) -> bool {
        self.unit_ids()
            .filter(|&u| self.def(u).leader == l)
            .filter(|&u| self.unit(u).routed || self.unit(u).loc == Loc::Eliminated)
            .count()
            >= 2
    }

    /// Whether a leader may change his chit without a roll: the first placement (3.0 I A), an
    /// Overall Leader's own (4.3, 5.2), a leader stacked with his Overall Leader (5.21), the
    /// morning after the night (12.21).
    fn free_change(&self, l: LeaderId) -> bool {
        let st = &self.leaders[l as usize];
        let d = &self.battle.leaders[l as usize];
        if st.chit.is_none() || d.overall {
            return true;
        }
        if self.battle.special.night_turns
            && self.turn > 0
            && self.battle.turns[self.turn - 1].night
            && !self.night()
        {
            return true;
        }
        let Some(h) = st.loc.hex() else { return false };
        self.leader_ids().any(|o| {
            o != l
                && self.battle.leaders[o as usize].overall
                && self.battle.leaders[o as usize].side == d.side
                && self.leaders[o as usize].loc == Loc::Map(h)
        })
    }

    /// Whether a leader is within his Overall Leader's command span (5.21).
    fn near_overall(&self, l: LeaderId) -> bool {
        let d = &self.battle.leaders[l as usize];
        let Some(h) = self.leaders[l as usize].loc.hex() else {
            return false;
        };
        self.leader_ids().any(|o| {
            o != l
                && self.battle.leaders[o as usize].overall
                && self.battle.leaders[o as usize].side == d.side
                && self.leaders[o as usize]
                    .loc
                    .hex()
                    .is_some_and(|oh| oh.distance(h) <= self.span(o))
        })
    }

    /// Legal Order Phase actions of a seat.
    pub fn order_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.orders_done[seat.index()] {
            return;
        }
        let mut missing = false;
        for l in self.chit_leaders(seat) {
            let st = &self.leaders[l as usize];
            let allowed = self.allowed_chits(l);
            if st.chit.is_none() {
                missing = true;
                for c in allowed {
                    out.push(Action::Chit { leader: l, chit: c });
                }
                continue;
            }
            if st.change_tried {
                continue;
            }
            let forced = self.night() && !matches!(st.chit, Some(Chit::Reserve | Chit::Muster));
            for c in allowed {
                // A free change back to a chit held earlier this phase is forbidden as a
                // no-op (5.2, rules notes): it would only undo changes.
                if Some(c) == st.chit || st.chits_held & c.bit() != 0 {
                    continue;
                }
                if self.free_change(l) || forced || (c == Chit::Muster && self.muster_allowed(l)) {
                    out.push(Action::Chit { leader: l, chit: c });
                } else if self.ratings(l).0.is_some() {
                    out.push(Action::Change { leader: l, chit: c });
                }
            }
        }
        // 16.3: split commands are announced at the beginning of a turn.
        for l in self.chit_leaders(seat) {
            if self.may_split(l) {
                out.push(Action::Split { leader: l });
            }
            if self.may_rejoin(l) {
                out.push(Action::Rejoin { leader: l });
            }
        }
        // 5.6: heavy cavalry under an Attack command may try to charge.
        for u in self.on_map(seat) {
            if self.charge_possible(u) {
                out.push(Action::Charge { unit: u });
            }
        }
        if !missing {
            out.push(Action::OrdersDone);
        }
    }

    fn charge_possible(&self, u: UnitId) -> bool {
        let s = self.unit(u);
        self.heavy(u)
            && !s.charging
            && !s.routed
            && !s.charge_tried
            && self.chit(u) == Some(Chit::Attack)
            && self
                .hex(u)
                .is_some_and(|h| !self.in_enemy_zoc(self.side(u), h))
    }

    /// Applies an Order Phase action.
    pub fn apply_order(
        &mut self,
        seat: Seat,
        action: &Action,
        log: &mut Log,
    ) -> Result<(), Rejection> {
        let mut legal = Vec::new();
        self.order_actions(seat, &mut legal);
        if !legal.contains(action) {
            return Err(self.order_refusal(seat, action));
        }
        match *action {
            Action::Chit { leader, chit } => {
                let st = &mut self.leaders[leader as usize];
                if let Some(old) = st.chit {
                    st.chits_held |= old.bit();
                }
                st.chit = Some(chit);
                let name = self.leader_name(leader).to_string();
                log.push_with(|| {
                    Event::private(
                        "Crusades II 5.0",
                        format!("{name} takes a {} command", chit.name()),
                        vec![seat],
                    )
                });
            }
            Action::Change { leader, chit } => {
                let roll = self.dice.d10();
                let (command, ..) = self.ratings(leader);
                let command = command.unwrap_or(0);
                let mut mods = Vec::new();
                if self.near_overall(leader) {
                    mods.push(Modifier {
                        reason: "within the Overall Leader's command span (5.21)".into(),
                        value: -1,
                    });
                }
                let total = roll as i32 + mods.iter().map(|m| m.value).sum::<i32>();
                let ok = total <= command as i32;
                self.leaders[leader as usize].change_tried = true;
                if ok {
                    self.leaders[leader as usize].chit = Some(chit);
                }
                let name = self.leader_name(leader).to_string();
                log.push_with(|| {
                    Event::public(
                        "Crusades II 5.2",
                        format!(
                            "{name} tries to change his command: {}",
                            if ok { "changed" } else { "unchanged" }
                        ),
                    )
                    .with_roll(RollRecord {
                        purpose: format!("command change of {name}"),
                        dice: vec![roll],
                        modifiers: mods,
                        total,
                        cell: Some(format!("command rating {command}")),
                        result: if ok {
                            "changed".into()
                        } else {
                            "unchanged".into()
                        },
                    })
                });
                if ok {
                    log.push_with(|| {
                        Event::private(
                            "Crusades II 5.2",
                            format!("{name} now has a {} command", chit.name()),
                            vec![seat],
                        )
                    });
                }
            }
            Action::Charge { unit } => {
                let roll = self.dice.d10();
                let morale = self.values(unit).morale;
                let ok = roll <= morale;
                self.unit_mut(unit).charge_tried = true;
                let name = self.name(unit).to_string();
                log.push_with(|| {
                    Event::public(
                        "Crusades II 5.6",
                        format!(
                            "{name} {}",
                            if ok {
                                "flips to its charging side"
                            } else {
                                "fails to charge"
                            }
                        ),
                    )
                    .with_roll(RollRecord {
                        purpose: format!("morale of {name} to charge"),
                        dice: vec![roll],
                        modifiers: vec![],
                        total: roll as i32,
                        cell: Some(format!("morale {morale}")),
                        result: if ok { "pass".into() } else { "fail".into() },
                    })
                });
                if ok {
                    self.unit_mut(unit).charging = true;
                    if self.battle.special.charge_berserk {
                        self.berserk_check(unit, "Crusades II 12.23", log);
                    }
                }
            }
            Action::Split { leader } => {
                self.leaders[leader as usize].split = true;
                let name = self.leader_name(leader).to_string();
                // 16.3: "The choice of this option must be announced": public.
                log.push_with(|| {
                    Event::public(
                        "Crusades II 16.3",
                        format!(
                            "{name} splits his command: his cavalry attack, his infantry stand"
                        ),
                    )
                });
            }
            Action::Rejoin { leader } => {
                self.leaders[leader as usize].split = false;
                let name = self.leader_name(leader).to_string();
                log.push_with(|| {
                    Event::public(
                        "Crusades II 16.3",
                        format!("{name}'s whole command now attacks"),
                    )
                });
            }
            Action::OrdersDone => {
                self.orders_done[seat.index()] = true;
                log.push_with(|| {
                    Event::public(
                        "Crusades II 3.0",
                        format!(
                            "{} has finished the Order Phase",
                            self.battle.seats[seat.index()]
                        ),
                    )
                });
            }
            _ => return Err(Rejection::new("not an Order Phase action")),
        }
        Ok(())
    }

    fn order_refusal(&self, seat: Seat, action: &Action) -> Rejection {
        if self.orders_done[seat.index()] {
            return Rejection::new("your orders are already complete this turn");
        }
        match action {
            Action::Chit { leader, chit } | Action::Change { leader, chit } => {
                let d = &self.battle.leaders[*leader as usize];
                if d.side != seat {
                    return Rejection::new(format!("{} is not your leader", d.name));
                }
                if !self.allowed_chits(*leader).contains(chit) {
                    return Rejection::new(format!(
                        "{} may not take a {} command now (5.16 Muster needs two units routed or destroyed; 12.21 night: reserve or muster; 12.1 reinforcements: advance or reserve)",
                        d.name,
                        chit.name()
                    ));
                }
                if self.leaders[*leader as usize].change_tried {
                    return Rejection::new(format!("{} has already tried to change his command this turn (5.2)", d.name));
                }
                if self.leaders[*leader as usize].chits_held & chit.bit() != 0 {
                    return Rejection::new(format!("{} has already held the {} chit this Order Phase: changing back only undoes changes (5.2, rules notes)", d.name, chit.name()));
                }
                if matches!(action, Action::Chit { .. }) {
                    return Rejection::new(format!("{} must roll to change his command: use `change` (5.2)", d.name));
                }
                Rejection::new(format!("{} cannot change his command now", d.name))
            }
            Action::Charge { .. } => Rejection::new("only Crusader heavy cavalry under an Attack command, not charging, not routed and not in an enemy ZOC may try to charge (5.6)"),
            Action::Split { .. } => Rejection::new("only a leader on the map with an Attack command and both infantry and cavalry on the map may split his command, with the split-commands option (16.3)"),
            Action::Rejoin { .. } => Rejection::new("a split command rejoins when its leader, still on Attack, is within command span of all his infantry (16.3)"),
            Action::OrdersDone => Rejection::new("every leader commanding units needs a command chit first (5.0)"),
            _ => Rejection::new("the Order Phase takes chit, change, charge, split, rejoin and orders-done"),
        }
    }

    /// 5.6: at the end of the Order Phase, charging heavy cavalry whose leader no longer has an
    /// Attack command flips back, unless in an enemy ZOC.
    pub fn uncharge(&mut self, log: &mut Log) {
        for u in self.unit_ids().collect::<Vec<_>>() {
            if self.heavy(u) && self.unit(u).charging && self.chit(u) != Some(Chit::Attack) {
                let Some(h) = self.hex(u) else { continue };
                if !self.in_enemy_zoc(self.side(u), h) {
                    self.unit_mut(u).charging = false;
                    let name = self.name(u).to_string();
                    log.push_with(|| {
                        Event::public(
                            "Crusades II 5.6",
                            format!("{name} flips to its non-charging side"),
                        )
                    });
                }
            }
        }
    }

    /// 12.21: at the start of a night turn every leader's command becomes Reserve unless it is
    /// Reserve or Muster.
    pub fn nightfall(&mut self, log: &mut Log) {
        if !self.night() {
            return;
        }
        for l in self.leader_ids().collect::<Vec<_>>() {
            let st = &mut self.leaders[l as usize];
            if st.chit.is_some() && !matches!(st.chit, Some(Chit::Reserve | Chit::Muster)) {
                st.chit = Some(Chit::Reserve);
                let name = self.leader_name(l).to_string();
                let side = self.battle.leaders[l as usize].side;
                log.push_with(|| {
                    Event::private(
                        "Crusades II 12.21",
                        format!("night: {name} takes a reserve command"),
                        vec![side],
                    )
                });
            }
        }
    }
}
