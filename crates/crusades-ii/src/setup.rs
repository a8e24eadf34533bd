//! Set-up (12.1, 13.1, 14.1, 15.1 "Set Up"): the new game, players placing their counters in
//! the legal areas, and the ready-made historical deployment for a quick start.

use std::sync::Arc;

use engine::{Dice, Event, Log, Rejection, Seat};
use hexgrid::{Hex, Vertex};

use crate::action::Action;
use crate::options::Options;
use crate::scenario::{Battle, LeaderId, UnitId};
use crate::state::{CrossState, Fury, Leader, Loc, Phase, State, Unit};

impl State {
    /// A new game of `battle` before set-up: every counter waiting.
    pub fn new(battle: Arc<Battle>, options: Options, dice: Dice) -> State {
        let units = battle
            .units
            .iter()
            .map(|u| Unit {
                loc: Loc::Waiting,
                facing: u.deploy.map(|d| d.1).unwrap_or(Vertex::NNE),
                steps: 0,
                charging: false,
                routed: false,
                out_of_command: false,
                fury: Fury::Calm,
                moved: false,
                fired: false,
                fired_at: None,
                meleed: false,
                in_melee: false,
                morale_checked: false,
                unstacked: false,
                charge_tried: false,
                withdrew: false,
                fought: false,
                fired_defending: false,
            })
            .collect();
        let leaders = battle
            .leaders
            .iter()
            .map(|_| Leader {
                loc: Loc::Waiting,
                chit: None,
                replaced: false,
                moved: false,
                casualty_counted: false,
                change_tried: false,
                chit_moved: false,
                chit_fought: false,
                split: false,
                chits_held: 0,
            })
            .collect();
        let holy_cross_state = if battle.special.holy_cross {
            CrossState::Waiting
        } else {
            CrossState::Absent
        };
        let first = battle.first_player;
        let mut s = State {
            battle,
            options,
            dice,
            turn: 0,
            phase: Phase::Setup(first),
            active: first,
            units,
            leaders,
            orders_done: [false; 2],
            tasks: Vec::new(),
            melees: Vec::new(),
            attacked: Vec::new(),
            fire_target: None,
            fire_closed: Vec::new(),
            entries: Vec::new(),
            holy_cross: None,
            holy_cross_state,
            victory_checking: [false; 2],
            action: None,
            selected: None,
            deselected: Vec::new(),
            selected_moves: std::sync::OnceLock::new(),
            outcome: None,
        };
        if options.historical_commands {
            for &(l, c) in &s.battle.historical.clone() {
                s.leaders[l as usize].chit = Some(c);
            }
        }
        s
    }

    /// The set-up rule covering a unit, if it sets up on the map.
    fn setup_rule(&self, u: UnitId) -> Option<&crate::scenario::SetupRule> {
        self.battle.setup.iter().find(|r| r.units.contains(&u))
    }

    /// Units of `seat` still to set up.
    pub fn to_set_up(&self, seat: Seat) -> Vec<UnitId> {
        self.to_set_up_by(seat, &self.setup_rules())
    }

    /// The set-up rule covering each unit ([`State::setup_rule`], by index), worked out for
    /// every unit at once.
    fn setup_rules(&self) -> Vec<Option<usize>> {
        let mut rule_of = vec![None; self.units.len()];
        for (k, r) in self.battle.setup.iter().enumerate() {
            for &u in &r.units {
                if let Some(slot) = rule_of.get_mut(u as usize) {
                    // The first rule naming the unit, as `setup_rule` finds it.
                    slot.get_or_insert(k);
                }
            }
        }
        rule_of
    }

    /// [`State::to_set_up`], given [`State::setup_rules`].
    fn to_set_up_by(&self, seat: Seat, rule_of: &[Option<usize>]) -> Vec<UnitId> {
        self.unit_ids()
            .filter(|&u| self.side(u) == seat && self.unit(u).loc == Loc::Waiting)
            .filter(|&u| rule_of[u as usize].is_some())
            .collect()
    }

    /// Leaders of `seat` still to set up: those whose units set up on the map and who do not
    /// arrive as reinforcements.
    pub fn leaders_to_set_up(&self, seat: Seat) -> Vec<LeaderId> {
        self.leader_ids()
            .filter(|&l| {
                let d = &self.battle.leaders[l as usize];
                d.side == seat
                    && self.leaders[l as usize].loc == Loc::Waiting
                    && !self
                        .battle
                        .reinforcements
                        .iter()
                        .any(|r| r.leaders.contains(&l))
                    && self.battle.setup.iter().any(|r| {
                        r.side == seat
                            && r.units
                                .iter()
                                .any(|&u| d.overall || self.def(u).leader == l)
                    })
            })
            .collect()
    }

    /// Hexes where a unit may be set up now.
    pub fn setup_hexes(&self, u: UnitId) -> Vec<Hex> {
        self.setup_hexes_in(u, &self.occupied())
    }

    /// Whether each hex of the map (by grid index) holds a combat unit.
    fn occupied(&self) -> Vec<bool> {
        let grid = &self.battle.map.grid;
        let mut occupied = vec![false; grid.len()];
        for u in self.unit_ids() {
            if let Some(i) = self.hex(u).and_then(|h| grid.index(h)) {
                occupied[i] = true;
            }
        }
        occupied
    }

    /// [`State::setup_hexes`], given which hexes are occupied ([`State::occupied`]).
    fn setup_hexes_in(&self, u: UnitId, occupied: &[bool]) -> Vec<Hex> {
        let Some(rule) = self.setup_rule(u) else {
            return Vec::new();
        };
        self.rule_hexes(rule, self.move_class(u), occupied)
    }

    /// The hexes where a unit of movement class `class` may set up under `rule` (what
    /// [`State::setup_hexes_in`] depends on).
    fn rule_hexes(
        &self,
        rule: &crate::scenario::SetupRule,
        class: crate::scenario::MoveClass,
        occupied: &[bool],
    ) -> Vec<Hex> {
        let grid = &self.battle.map.grid;
        // Each hex is considered once, where first met.
        let mut seen = vec![false; grid.len()];
        let mut free = |h: Hex| {
            grid.index(h).is_some_and(|i| {
                !std::mem::replace(&mut seen[i], true)
                    && !occupied[i]
                    && self.terrain_cost(class, h).is_some()
            })
        };
        let mut out: Vec<Hex> = Vec::new();
        for &c in &rule.area {
            if rule.one_per_hex {
                if free(c) {
                    out.push(c);
                }
            } else {
                out.extend(c.within(rule.within).filter(|&h| free(h)));
            }
        }
        // When earlier placements have filled the area (overlapping areas, or a player's
        // unlucky arrangement), the unit sets up in the nearest free hexes to it rather than
        // leaving the game stuck (rules notes, set-up).
        let mut radius = rule.within + 1;
        while out.is_empty() && radius < 100 {
            for &c in &rule.area {
                out.extend(c.ring(radius).filter(|&h| free(h)));
            }
            radius += 1;
        }
        out
    }

    /// Legal set-up actions of `seat`.
    pub fn setup_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let rule_of = self.setup_rules();
        let units = self.to_set_up_by(seat, &rule_of);
        let occupied = self.occupied();
        // 7.1: the units a unit is written as stacked over (placed with it).
        let mut under = vec![false; self.units.len()];
        for d in &self.battle.units {
            if let Some(slot) = d.stacked_over.and_then(|o| under.get_mut(o as usize)) {
                *slot = true;
            }
        }
        // The hexes of each set-up rule and movement class, all a unit's hexes depend on
        // ([`State::rule_hexes`]), worked out once.
        let mut areas: Vec<(usize, crate::scenario::MoveClass, Vec<Hex>)> = Vec::new();
        // Each unit placed by itself, with the hexes and facings of its placements.
        let mut placing: Vec<(UnitId, usize, &[Vertex])> = Vec::with_capacity(units.len());
        for &u in &units {
            if under[u as usize] {
                continue; // placed with another (`placed_with_another`)
            }
            let Some(rule) = rule_of[u as usize] else {
                continue;
            };
            let class = self.move_class(u);
            let k = match areas.iter().position(|a| a.0 == rule && a.1 == class) {
                Some(k) => k,
                None => {
                    let hexes = self.rule_hexes(&self.battle.setup[rule], class, &occupied);
                    areas.push((rule, class, hexes));
                    areas.len() - 1
                }
            };
            // Skirmishers have no facing (6.14): NNE stands for none.
            let facings: &[Vertex] = if self.skirmisher(u) {
                &[Vertex::NNE]
            } else {
                &Vertex::ALL
            };
            placing.push((u, k, facings));
        }
        out.reserve(
            placing
                .iter()
                .map(|&(_, k, f)| areas[k].2.len() * f.len())
                .sum(),
        );
        for &(u, k, facings) in &placing {
            for &h in &areas[k].2 {
                for &facing in facings {
                    out.push(Action::Place {
                        unit: u,
                        hex: h,
                        facing,
                    });
                }
            }
        }
        if units.is_empty() {
            for l in self.leaders_to_set_up(seat) {
                for h in self.leader_setup_hexes(l) {
                    out.push(Action::PlaceLeader { leader: l, hex: h });
                }
            }
        }
        if self.historical_ready_given(seat, &units, &occupied) {
            out.push(Action::DeployHistorical);
        }
    }

    /// 7.1: the lower unit of a stack is placed with the upper one.
    fn placed_with_another(&self, u: UnitId) -> bool {
        self.battle.units.iter().any(|d| d.stacked_over == Some(u))
    }

    /// Whether a set-up action is among [`State::setup_actions`], asking only about its
    /// counter.
    fn setup_legal(&self, seat: Seat, action: &Action) -> bool {
        match *action {
            Action::Place { unit, hex, facing } => {
                self.to_set_up(seat).contains(&unit)
                    && !self.placed_with_another(unit)
                    && (!self.skirmisher(unit) || facing == Vertex::NNE)
                    && self.setup_hexes(unit).contains(&hex)
            }
            Action::PlaceLeader { leader, hex } => {
                self.to_set_up(seat).is_empty()
                    && self.leaders_to_set_up(seat).contains(&leader)
                    && self.leader_setup_hexes(leader).contains(&hex)
            }
            Action::DeployHistorical => self.historical_ready(seat),
            _ => false,
        }
    }

    /// A leader sets up with a unit of his command, or an Overall Leader with any of his
    /// side's units.
    fn leader_setup_hexes(&self, l: LeaderId) -> Vec<Hex> {
        let d = &self.battle.leaders[l as usize];
        let mut out: Vec<Hex> = self
            .on_map(d.side)
            .filter(|&u| d.overall || self.def(u).leader == l)
            .filter_map(|u| self.hex(u))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Whether every remaining counter of `seat` has a historical position still free.
    fn historical_ready(&self, seat: Seat) -> bool {
        self.historical_ready_given(seat, &self.to_set_up(seat), &self.occupied())
    }

    /// [`State::historical_ready`], given the units of `seat` still to set up
    /// ([`State::to_set_up`]) and which hexes are occupied ([`State::occupied`]).
    fn historical_ready_given(&self, seat: Seat, units: &[UnitId], occupied: &[bool]) -> bool {
        let grid = &self.battle.map.grid;
        let leaders = self.leaders_to_set_up(seat);
        (!units.is_empty() || !leaders.is_empty())
            && units.iter().all(|&u| {
                self.def(u).deploy.is_some_and(|(h, _)| {
                    !grid.index(h).is_some_and(|i| occupied[i]) || self.stack_partner_waiting(u)
                })
            })
            && leaders
                .iter()
                .all(|&l| self.battle.leaders[l as usize].deploy.is_some())
    }

    fn stack_partner_waiting(&self, u: UnitId) -> bool {
        let d = self.def(u);
        d.stacked_over.is_some() || self.battle.units.iter().any(|o| o.stacked_over == Some(u))
    }

    /// Applies a set-up action.
    pub fn apply_setup(
        &mut self,
        seat: Seat,
        action: &Action,
        log: &mut Log,
    ) -> Result<(), Rejection> {
        if !self.setup_legal(seat, action) {
            return Err(Rejection::new(match action {
                Action::Place { unit, .. } if self.side(*unit) != seat => format!("{} is not yours", self.name(*unit)),
                Action::Place { unit, .. } if self.unit(*unit).loc != Loc::Waiting => format!("{} is already set up", self.name(*unit)),
                Action::Place { .. } => "not a legal set-up hex and facing for that unit (see the scenario's Set Up rules)".to_string(),
                Action::PlaceLeader { .. } => "a leader sets up with a unit of his command, after every combat unit is placed".to_string(),
                Action::DeployHistorical => "the historical deployment is not available (a counter lacks one, or its hex is taken)".to_string(),
                _ => "set-up takes place, deploy-historical".to_string(),
            }));
        }
        match *action {
            Action::Place { unit, hex, facing } => self.place(unit, hex, facing, log),
            Action::PlaceLeader { leader, hex } => {
                self.leaders[leader as usize].loc = Loc::Map(hex);
                let (name, at) = (self.leader_name(leader).to_string(), self.id(hex));
                log.push_with(|| {
                    Event::public(
                        format!("Crusades II {}", self.battle.case),
                        format!("{name} sets up in {at}"),
                    )
                });
            }
            Action::DeployHistorical => {
                for u in self.to_set_up(seat) {
                    if self.unit(u).loc == Loc::Waiting {
                        if let Some((h, f)) = self.def(u).deploy {
                            self.unit_mut(u).loc = Loc::Map(h);
                            self.unit_mut(u).facing = f;
                        }
                    }
                }
                for l in self.leaders_to_set_up(seat) {
                    if let Some(h) = self.battle.leaders[l as usize].deploy {
                        self.leaders[l as usize].loc = Loc::Map(h);
                    }
                }
                let who = self.battle.seats[seat.index()].clone();
                log.push_with(|| {
                    Event::public(
                        format!("Crusades II {}", self.battle.case),
                        format!("{who} deploys as in history"),
                    )
                });
            }
            _ => return Err(Rejection::new("not a set-up action")),
        }
        Ok(())
    }

    fn place(&mut self, u: UnitId, hex: Hex, facing: Vertex, log: &mut Log) {
        self.unit_mut(u).loc = Loc::Map(hex);
        self.unit_mut(u).facing = facing;
        if let Some(below) = self.def(u).stacked_over {
            if self.unit(below).loc == Loc::Waiting {
                self.unit_mut(below).loc = Loc::Map(hex);
                self.unit_mut(below).facing = facing;
            }
        }
        let (name, at) = (self.name(u).to_string(), self.id(hex));
        log.push_with(|| {
            Event::public(
                format!("Crusades II {}", self.battle.case),
                format!("{name} sets up in {at} facing {facing}"),
            )
        });
    }

    /// Whether `seat` has finished setting up.
    pub fn setup_complete(&self, seat: Seat) -> bool {
        self.to_set_up(seat).is_empty() && self.leaders_to_set_up(seat).is_empty()
    }
}
