//! 10.0 Morale, rout and recovery, with what follows a failed check: step losses (9.42,
//! 9.43), retreats (9.5), leader casualties (4.2), the Holy Cross (12.22) and going berserk
//! (16.4, 12.23).

use engine::{Event, Log, Modifier, RollRecord, Seat};
use hexgrid::{Direction, Hex};

use crate::scenario::UnitId;
use crate::state::{CrossState, Fury, Loc, State, Task};

/// Why a morale check is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// Caused by a fire or melee result: one per unit per combat phase (10.0).
    Result,
    /// Before melee (9.32 steps 2 and 4): always made.
    PreMelee,
    /// Recovery in the Rally Phase (10.2).
    Recovery,
    /// Demanded by the optional victory conditions (16.5): always made.
    Victory,
}

impl State {
    /// Rolls a morale check for a unit (10.0) and returns whether it passed. A second check
    /// caused by results in the same combat phase is not made (10.0), and counts as passed.
    pub fn morale_check(&mut self, u: UnitId, kind: CheckKind, log: &mut Log) -> bool {
        if kind == CheckKind::Result {
            if self.unit(u).morale_checked {
                return true;
            }
            self.unit_mut(u).morale_checked = true;
        }
        let roll = self.dice.d10();
        let mut mods = Vec::new();
        let hex = self.hex(u);
        if hex.is_some_and(|h| !self.leaders_at(h).is_empty()) {
            // 10.0, 10.2: a leader with the unit.
            mods.push(Modifier {
                reason: "leader with the unit (10.0)".into(),
                value: -1,
            });
        }
        if self.unit(u).routed && kind != CheckKind::Recovery {
            mods.push(Modifier {
                reason: "routed (10.1)".into(),
                value: 1,
            });
        }
        match self.unit(u).fury {
            Fury::Berserk => mods.push(Modifier {
                reason: "berserk (16.41)".into(),
                value: -1,
            }),
            Fury::Exhausted => mods.push(Modifier {
                reason: "exhausted (16.42)".into(),
                value: 1,
            }),
            Fury::Calm => {}
        }
        let mut morale = self.values(u).morale as i32;
        if self.carries_cross(u) {
            morale += 1; // 12.22
        }
        let total = roll as i32 + mods.iter().map(|m| m.value).sum::<i32>();
        let pass = total <= morale;
        let name = self.name(u).to_string();
        log.push_with(|| {
            Event::public(
                "Crusades II 10.0",
                format!(
                    "{name} {} its morale check",
                    if pass { "passes" } else { "fails" }
                ),
            )
            .with_roll(RollRecord {
                purpose: format!("morale of {name}"),
                dice: vec![roll],
                modifiers: mods,
                total,
                cell: Some(format!("morale {morale}")),
                result: if pass { "pass".into() } else { "fail".into() },
            })
        });
        if !pass && self.heavy(u) && self.unit(u).charging {
            // 5.6, 10.1: charging heavy cavalry that fails morale flips.
            self.unit_mut(u).charging = false;
        }
        if !pass && self.unit(u).fury == Fury::Berserk {
            self.exhaust(u, log);
        }
        pass
    }

    /// Whether a unit is stacked with the Holy Cross (12.22).
    pub fn carries_cross(&self, u: UnitId) -> bool {
        self.holy_cross_state == CrossState::Carried
            && self
                .holy_cross
                .is_some_and(|c| c == u || self.stack_mate(c) == Some(u))
    }

    /// A failed check from a combat result: the unit routs and retreats 1-3 hexes, the owner
    /// choosing (10.0).
    pub fn rout(&mut self, u: UnitId, min: u8, max: u8, log: &mut Log) {
        self.unit_mut(u).routed = true;
        let name = self.name(u).to_string();
        log.push_with(|| Event::public("Crusades II 10.0", format!("{name} routs")));
        self.tasks.push(Task::Retreat { unit: u, min, max });
    }

    /// Removes one step from a unit (9.42, 9.43), eliminating it after its last. `melee` says
    /// whether the loss comes from melee (for 4.2 and 12.22).
    pub fn lose_step(&mut self, u: UnitId, melee: bool, log: &mut Log) {
        let total = self.total_steps(u);
        self.unit_mut(u).steps += 1;
        let name = self.name(u).to_string();
        if self.unit(u).steps >= total {
            let hex = self.hex(u);
            self.unit_mut(u).loc = Loc::Eliminated;
            self.tasks
                .retain(|t| !matches!(t, Task::Retreat { unit, .. } if *unit == u));
            log.push_with(|| Event::public("Crusades II 9.42", format!("{name} is eliminated")));
            if let Some(h) = hex {
                self.after_elimination(u, h, melee, log);
            }
        } else {
            let case = if self.heavy(u) {
                "Crusades II 9.43"
            } else {
                "Crusades II 9.42"
            };
            log.push_with(|| Event::public(case, format!("{name} loses a step")));
        }
    }

    fn after_elimination(&mut self, u: UnitId, h: Hex, melee: bool, log: &mut Log) {
        let side = self.side(u);
        let friends_left = self.stack_at(h).into_iter().any(|v| self.side(v) == side);
        if self.holy_cross_state == CrossState::Carried && self.holy_cross == Some(u) {
            match self.stack_at(h).into_iter().find(|&v| self.side(v) == side) {
                Some(v) => self.holy_cross = Some(v),
                None if melee => {
                    // 12.22: captured when all units with it are eliminated in melee.
                    self.holy_cross_state = CrossState::Captured;
                    self.holy_cross = None;
                    log.push_with(|| {
                        Event::public("Crusades II 12.22", "the Holy Cross is captured")
                    });
                }
                None => {
                    // Fire alone cannot capture it (12.22 names melee): it passes to the nearest
                    // friendly combat unit, as a leader does (4.2).
                    let nearest = self
                        .on_map(side)
                        .min_by_key(|&v| self.hex(v).map(|x| x.distance(h)).unwrap_or(u32::MAX));
                    self.holy_cross = nearest;
                    if nearest.is_none() {
                        self.holy_cross_state = CrossState::Captured;
                    }
                }
            }
        }
        if melee && !friends_left {
            for l in self.leaders_at(h) {
                if self.battle.leaders[l as usize].side == side {
                    self.leader_casualty(l, false, log);
                }
            }
        }
    }

    /// 4.2: a leader becomes a casualty: flipped to his replacement side and moved to the
    /// nearest friendly combat unit of his command, or removed when he has no replacement
    /// side (or is already on it) or no unit of his command remains. A replacement leader
    /// alone in a hex an enemy enters (`overrun`) is only moved.
    pub fn leader_casualty(&mut self, l: crate::scenario::LeaderId, overrun: bool, log: &mut Log) {
        let has_replacement = self.battle.leaders[l as usize].replacement.is_some();
        let at = self.leaders[l as usize].loc.hex();
        let nearest = self
            .unit_ids()
            .filter(|&u| self.def(u).leader == l && self.hex(u).is_some())
            .min_by_key(|&u| {
                at.zip(self.hex(u))
                    .map(|(a, b)| a.distance(b))
                    .unwrap_or(u32::MAX)
            });
        let already = self.leaders[l as usize].replaced;
        let name = self.leader_name(l).to_string();
        match nearest.and_then(|u| self.hex(u)) {
            Some(h) if overrun && already => {
                self.leaders[l as usize].loc = Loc::Map(h);
                log.push_with(|| {
                    Event::public("Crusades II 4.2", format!("{name} escapes to his troops"))
                });
            }
            Some(h) if has_replacement && !already => {
                self.leaders[l as usize].replaced = true;
                self.leaders[l as usize].loc = Loc::Map(h);
                log.push_with(|| {
                    Event::public(
                        "Crusades II 4.2",
                        format!("{name} falls; his replacement takes command"),
                    )
                });
            }
            _ => {
                self.leaders[l as usize].loc = Loc::Eliminated;
                log.push_with(|| {
                    Event::public("Crusades II 4.2", format!("{name} is removed from play"))
                });
            }
        }
    }

    /// A leader alone in a hex entered by an enemy combat unit (4.2).
    pub fn overrun_leaders(&mut self, h: Hex, entering_side: Seat, log: &mut Log) {
        for l in self.leaders_at(h) {
            if self.battle.leaders[l as usize].side != entering_side {
                self.leader_casualty(l, true, log);
            }
        }
    }

    /// Hexes a unit may retreat to, with exactly `min..=max` hexes (9.5): never into or across
    /// what it could not move through, an enemy-occupied hex, an enemy ZOC (even with friends
    /// in it), off the map, or a hex with friendly combat units (a leader alone is fine).
    pub fn retreat_destinations(&self, u: UnitId, min: u8, max: u8) -> Vec<Hex> {
        let Some(start) = self.hex(u) else {
            return Vec::new();
        };
        let side = self.side(u);
        let class = self.move_class(u);
        let enemy = self.battle.enemy(side);
        let mate = self.stack_mate(u);
        let grid = &self.battle.map.grid;
        // Hexes (by grid index) holding combat units but the unit and its stack-mate: enemy
        // units, or friendly ones.
        let mut held = vec![false; grid.len()];
        for v in self.unit_ids().filter(|&v| Some(v) != mate && v != u) {
            if let Some(i) = self.hex(v).and_then(|h| self.battle.map.index_of(h)) {
                held[i] = true;
            }
        }
        self.with_zoc(enemy, |ez| {
            let mut frontier = vec![start];
            let mut seen = vec![start];
            let mut out = Vec::new();
            for step in 1..=max {
                let mut next = Vec::new();
                for &h in &frontier {
                    for d in Direction::ALL {
                        let n = h.neighbour(d);
                        if seen.contains(&n) || !self.battle.map.contains(n) {
                            continue;
                        }
                        if !self.passable(class, h, d) || self.zoc_at(ez, n) {
                            continue;
                        }
                        if self.battle.map.index_of(n).is_some_and(|i| held[i]) {
                            continue; // enemy-occupied, or friendly combat units
                        }
                        seen.push(n);
                        next.push(n);
                        if step >= min {
                            out.push(n);
                        }
                    }
                }
                frontier = next;
            }
            out
        })
    }

    /// Moves a unit (with its stack-mate if that too must retreat, and leaders left alone)
    /// to `to` (9.5, 4.2: leaders retreat with their units).
    pub fn retreat_to(&mut self, u: UnitId, to: Hex, log: &mut Log) {
        let Some(from) = self.hex(u) else { return };
        let side = self.side(u);
        let mut group = vec![u];
        if let Some(m) = self.stack_mate(u) {
            if let Some(i) = self
                .tasks
                .iter()
                .position(|t| matches!(t, Task::Retreat { unit, .. } if *unit == m))
            {
                self.tasks.remove(i);
                group.push(m);
            } else {
                self.unit_mut(u).unstacked = true;
                self.unit_mut(m).unstacked = true;
            }
        }
        for &g in &group {
            self.unit_mut(g).loc = Loc::Map(to);
        }
        if self
            .stack_at(from)
            .into_iter()
            .all(|v| self.side(v) != side)
        {
            for l in self.leaders_at(from) {
                if self.battle.leaders[l as usize].side == side {
                    self.leaders[l as usize].loc = Loc::Map(to);
                }
            }
        }
        let names = group
            .iter()
            .map(|&g| self.name(g).to_string())
            .collect::<Vec<_>>()
            .join(" and ");
        let (a, b) = (self.id(from), self.id(to));
        log.push_with(|| {
            Event::public(
                "Crusades II 9.5",
                format!(
                    "{names} {} from {a} to {b}",
                    if group.len() > 1 {
                        "retreat"
                    } else {
                        "retreats"
                    }
                ),
            )
        });
        for g in group {
            if self.unit(g).fury == Fury::Berserk {
                self.exhaust(g, log); // 16.41
            }
        }
    }

    /// A unit that must retreat but cannot loses a step instead, without a rout marker (9.5).
    pub fn cannot_retreat(&mut self, u: UnitId, log: &mut Log) {
        let name = self.name(u).to_string();
        log.push_with(|| {
            Event::public(
                "Crusades II 9.5",
                format!("{name} cannot retreat and loses a step"),
            )
        });
        self.unit_mut(u).routed = false;
        self.lose_step(u, true, log);
    }

    /// 16.4, 12.23: a unit goes berserk on a roll within its side's berserk levels.
    pub fn berserk_check(&mut self, u: UnitId, case: &str, log: &mut Log) -> bool {
        let (lo, hi) = self.battle.berserk[self.side(u).index()];
        let roll = self.dice.d10();
        let berserk = (lo..=hi).contains(&roll);
        if berserk {
            self.unit_mut(u).fury = Fury::Berserk;
        }
        let name = self.name(u).to_string();
        let case = case.to_string();
        log.push_with(|| {
            Event::public(
                case,
                format!(
                    "{name} {}",
                    if berserk {
                        "goes berserk"
                    } else {
                        "keeps its head"
                    }
                ),
            )
            .with_roll(RollRecord {
                purpose: format!("berserk check of {name}"),
                dice: vec![roll],
                modifiers: vec![],
                total: roll as i32,
                cell: Some(format!("berserk on {lo}-{hi}")),
                result: if berserk {
                    "berserk".into()
                } else {
                    "-".into()
                },
            })
        });
        berserk
    }

    /// Crusades II 16.42: "If at the beginning of movement an exhausted unit is in an enemy
    /// ZOC, it must retreat one hex, unless by doing so it would move into an enemy ZOC."
    pub fn exhausted_retreat(&mut self, u: UnitId) {
        let side = self.side(u);
        if self.unit(u).fury == Fury::Exhausted
            && self.hex(u).is_some_and(|h| self.in_enemy_zoc(side, h))
            && !self.retreat_destinations(u, 1, 1).is_empty()
        {
            self.tasks.push(Task::Retreat {
                unit: u,
                min: 1,
                max: 1,
            });
        }
    }

    /// Crusades II 16.43 Exhaustion Removal: in the Rally Phase each exhausted unit of `side`
    /// not in an enemy ZOC rolls a die and adds its current morale; 14 or more and it is no
    /// longer exhausted. The rule says the owner "may" check: as failing costs nothing, every
    /// such unit checks. Part of the `berserk` option (rules notes, 16.4).
    pub fn exhaustion_removal(&mut self, side: Seat, log: &mut Log) {
        for u in self.on_map(side).collect::<Vec<_>>() {
            if self.unit(u).fury != Fury::Exhausted {
                continue;
            }
            let Some(h) = self.hex(u) else { continue };
            if self.in_enemy_zoc(side, h) {
                continue;
            }
            let roll = self.dice.d10();
            let morale = self.values(u).morale;
            let total = roll as i32 + morale as i32;
            let ok = total >= 14;
            if ok {
                self.unit_mut(u).fury = Fury::Calm;
            }
            let name = self.name(u).to_string();
            log.push_with(|| {
                Event::public(
                    "Crusades II 16.43",
                    format!(
                        "{name} {}",
                        if ok {
                            "is no longer exhausted"
                        } else {
                            "remains exhausted"
                        }
                    ),
                )
                .with_roll(RollRecord {
                    purpose: format!("exhaustion removal of {name}"),
                    dice: vec![roll],
                    modifiers: vec![Modifier {
                        reason: "current morale (16.43)".into(),
                        value: morale as i32,
                    }],
                    total,
                    cell: Some("14 or more removes exhaustion".into()),
                    result: if ok { "recovers".into() } else { "-".into() },
                })
            });
        }
    }

    /// 16.41: a berserk unit that fails morale or must retreat becomes exhausted.
    pub fn exhaust(&mut self, u: UnitId, log: &mut Log) {
        self.unit_mut(u).fury = Fury::Exhausted;
        let name = self.name(u).to_string();
        log.push_with(|| Event::public("Crusades II 16.41", format!("{name} is exhausted")));
    }

    /// 10.2 Recovery: routed units of `side` within command span of their leader or Overall
    /// Leader and not in an enemy ZOC check morale; passing removes the rout marker, failing
    /// retreats them three hexes.
    pub fn recovery(&mut self, side: Seat, log: &mut Log) {
        let status = self.command_status(side);
        for (u, in_command) in status {
            if !self.unit(u).routed || !in_command {
                continue;
            }
            let Some(h) = self.hex(u) else { continue };
            if self.in_enemy_zoc(side, h) {
                continue;
            }
            if self.morale_check(u, CheckKind::Recovery, log) {
                self.unit_mut(u).routed = false;
                let name = self.name(u).to_string();
                log.push_with(|| Event::public("Crusades II 10.2", format!("{name} rallies")));
            } else {
                self.tasks.push(Task::Retreat {
                    unit: u,
                    min: 3,
                    max: 3,
                });
            }
        }
    }
}
