//! 8.0 Movement, with the limits that command chits (5.1), command (5.33), routs (5.5),
//! skirmishers (5.4), facing (6.15), zones of control (6.24, 6.25), stacking (7.0), night
//! (12.21) and exhaustion (16.42) put on it. A unit's legal moves are its destinations with
//! their facings; the engine moves it along the cheapest path.

use engine::Seat;
use hexgrid::{Direction, Hex, Vertex};

use crate::scenario::{Chit, HalfPoints, MoveClass, UnitId};
use crate::state::{Fury, Loc, State};
use crate::zoc::Situation;

/// Off the map: the start of a reinforcement's entry.
const OFF_MAP: Hex = Hex {
    q: i32::MIN / 2,
    r: 0,
};

/// A legal destination of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Destination {
    /// The hex.
    pub hex: Hex,
    /// The facing at the end.
    pub facing: Vertex,
    /// Half movement points spent.
    pub cost: HalfPoints,
    /// For a reinforcement, the entry hex of its path (12.1).
    pub entry: Option<Hex>,
}

/// What limits a move, worked out once per unit.
struct Limits {
    side: Seat,
    class: MoveClass,
    budget: u32,
    start: Hex,
    start_facing: Vertex,
    /// Turning is allowed (not skirmishers or leaders: they have no facing; not charging
    /// heavy cavalry, 6.12).
    has_facing: bool,
    can_turn: bool,
    /// May pass through friendly combat units (7.0: skirmishers).
    pass_friends: bool,
    /// May not enter an enemy ZOC at all (5.4, 10.1, 12.21, 16.42).
    avoid_zoc: bool,
    /// May not move adjacent to an enemy combat unit (5.33).
    avoid_adjacent: bool,
    /// May not enter a hex within 4 hexes of an enemy (5.15, 5.16).
    keep_five: bool,
    /// May leave the enemy ZOC it starts in (6.25).
    may_leave_zoc: bool,
    /// Only one hex (5.13, 16.42).
    one_hex: bool,
    /// Units moving together (ignored as obstacles).
    moving: Vec<UnitId>,
    /// Extra cost of each entry hex (12.1).
    entry: Vec<(Hex, HalfPoints)>,
    /// An explicit path to follow (every hex entered, the destination last), or empty.
    route: Vec<Hex>,
}

impl State {
    /// The units that move with `u`: its stack unless it moves alone (7.1).
    pub fn moving_group(&self, u: UnitId, alone: bool) -> Vec<UnitId> {
        let mate = if self.unit(u).loc == Loc::Waiting {
            self.waiting_mate(u)
        } else {
            self.stack_mate(u)
        };
        match (alone, mate) {
            (false, Some(m)) => vec![u, m],
            _ => vec![u],
        }
    }

    /// The unit a waiting reinforcement is stacked with (7.1), if it too is waiting.
    pub fn waiting_mate(&self, u: UnitId) -> Option<UnitId> {
        if self.unit(u).unstacked {
            return None;
        }
        let d = self.def(u);
        d.stacked_over
            .or_else(|| {
                self.battle
                    .units
                    .iter()
                    .position(|o| o.stacked_over == Some(u))
                    .map(|i| i as UnitId)
            })
            .filter(|&m| self.unit(m).loc == Loc::Waiting && !self.unit(m).unstacked)
    }

    /// Legal destinations of a charge's 4 MP (9.32 step 7): normal movement, stopping in an
    /// enemy ZOC, but free of command chit limits and free to leave the ZOC it advanced into.
    pub fn pursuit_destinations(&self, u: UnitId) -> Vec<Destination> {
        let group = self.moving_group(u, false);
        let sit = self.situation();
        let Some(mut lim) = self.limits(&group, &sit) else {
            return Vec::new();
        };
        lim.budget = 8;
        lim.one_hex = false;
        lim.keep_five = false;
        lim.may_leave_zoc = true;
        let start = lim.start;
        self.reach(&lim, &sit)
            .into_iter()
            .filter(|d| d.hex != start)
            .collect()
    }

    /// Whether a unit is in command for movement and combat purposes (5.3): skirmishers follow
    /// no commands and are never marked out of command.
    pub fn in_command(&self, u: UnitId) -> bool {
        !self.unit(u).out_of_command
    }

    /// Whether the unit follows its command chit now: in command, not routed (5.5), not a
    /// skirmisher (5.4), not berserk or exhausted (16.41, 16.42).
    pub fn follows_chit(&self, u: UnitId) -> bool {
        self.in_command(u)
            && !self.unit(u).routed
            && !self.skirmisher(u)
            && self.unit(u).fury == Fury::Calm
    }

    /// Whether a reinforcement unit may enter this turn (12.1).
    pub fn may_enter(&self, u: UnitId) -> bool {
        self.unit(u).loc == Loc::Waiting
            && self
                .battle
                .reinforcements
                .iter()
                .any(|r| r.units.contains(&u) && r.turn <= self.turn && r.side == self.active)
            && !matches!(self.phase, crate::state::Phase::Setup(_))
    }

    fn limits(&self, group: &[UnitId], sit: &Situation) -> Option<Limits> {
        let u = group[0];
        let side = self.side(u);
        let unit = self.unit(u);
        let start = match unit.loc {
            Loc::Map(h) => h,
            Loc::Waiting if self.may_enter(u) => OFF_MAP,
            _ => return None,
        };
        let class = self.move_class(u);
        let ma = group
            .iter()
            .map(|&g| self.values(g).movement)
            .min()
            .unwrap_or(0) as u32;
        let routed = unit.routed;
        let skirmisher = self.skirmisher(u);
        let chit = if self.follows_chit(u) {
            self.chit(u)
        } else {
            None
        };
        let out_of_command = !skirmisher && unit.out_of_command;
        let exhausted = unit.fury == Fury::Exhausted;
        // 5.5: routed units move up to half their movement allowance, rounded down.
        let allowance = if routed { ma / 2 } else { ma };
        let mut entry = Vec::new();
        if start == OFF_MAP {
            let r = self
                .battle
                .reinforcements
                .iter()
                .find(|r| r.units.contains(&u))?;
            for &h in &r.entry {
                let n = self
                    .entries
                    .iter()
                    .find(|(e, _)| *e == h)
                    .map(|(_, n)| *n)
                    .unwrap_or(0);
                // 12.1: each later unit (a stack counts as one) pays one more MP.
                let extra = if self.battle.special.entry_costs {
                    2 * n as HalfPoints
                } else {
                    0
                };
                entry.push((h, extra));
            }
        }
        let in_zoc = start != OFF_MAP && sit.zoc_of(self, self.battle.enemy(side), start);
        let may_leave_zoc = routed
            || skirmisher
            || (!out_of_command
                && matches!(
                    chit,
                    Some(Chit::Retreat | Chit::Stand | Chit::Muster | Chit::Reserve)
                ));
        if in_zoc && out_of_command {
            // 5.33, 6.23: out of command units in an enemy ZOC may not move.
            return None;
        }
        let charging = self.heavy(u) && unit.charging;
        Some(Limits {
            side,
            class,
            budget: 2 * allowance,
            start,
            start_facing: unit.facing,
            has_facing: !skirmisher,
            can_turn: !skirmisher && !charging,
            pass_friends: skirmisher,
            avoid_zoc: skirmisher || routed || self.night() || exhausted,
            avoid_adjacent: out_of_command,
            keep_five: matches!(chit, Some(Chit::Reserve | Chit::Muster)),
            may_leave_zoc,
            one_hex: matches!(chit, Some(Chit::Stand)) || exhausted,
            moving: group.to_vec(),
            entry,
            route: Vec::new(),
        })
    }

    /// Every hex and facing the group can reach (before the end-of-move limits of the command
    /// chits), with the cheapest cost.
    fn reach(&self, lim: &Limits, sit: &Situation) -> Vec<Destination> {
        let side = lim.side;
        let enemy = self.battle.enemy(side);
        // The start hex is free when the whole stack there moves.
        let start_free = lim.start == OFF_MAP
            || self
                .stack_at(lim.start)
                .iter()
                .all(|u| lim.moving.contains(u));
        let occ = |h: Hex| {
            if h == lim.start && start_free {
                None
            } else {
                sit.occupant(self, h)
            }
        };
        let zoc = |h: Hex| sit.zoc_of(self, enemy, h);
        let start_in_zoc = lim.start != OFF_MAP && zoc(lim.start);
        let near_enemy = |h: Hex, d: u32| sit.distance_to(self, enemy, h) < d;
        let enters = |from: Hex, to: Hex| -> bool {
            if occ(to) == Some(enemy) {
                return false; // 8.3
            }
            if occ(to) == Some(side) && !lim.pass_friends {
                return false; // 7.0: only skirmishers move through combat units
            }
            let to_zoc = zoc(to);
            if to_zoc && lim.avoid_zoc {
                return false;
            }
            if from != OFF_MAP && zoc(from) && to_zoc {
                return false; // 6.24: never from one enemy ZOC directly into another
            }
            if lim.avoid_adjacent && near_enemy(to, 2) {
                return false; // 5.33
            }
            if lim.keep_five && near_enemy(to, 5) {
                return false; // 5.15, 5.16
            }
            true
        };
        // Dial's algorithm over (hex, facing, free turn used), in half points: costs are
        // small integers, so buckets replace a heap and the order is deterministic.
        let grid = &self.battle.map.grid;
        let n = grid.len() * 12;
        let idx = |h: Hex, f: Vertex, turned: bool| {
            grid.index(h)
                .map(|i| i * 12 + f.index() as usize * 2 + usize::from(turned))
        };
        let mut cost = vec![u32::MAX; n];
        let mut entry_of = vec![u16::MAX; n];
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); lim.budget as usize + 1];
        let relax = |s: usize,
                     c: u32,
                     e: u16,
                     cost: &mut Vec<u32>,
                     entry_of: &mut Vec<u16>,
                     buckets: &mut Vec<Vec<u32>>| {
            if c <= lim.budget && c < cost[s] {
                cost[s] = c;
                entry_of[s] = e;
                buckets[c as usize].push(s as u32);
            }
        };
        if lim.start == OFF_MAP {
            for (k, &(e, extra)) in lim.entry.iter().enumerate() {
                if !enters(OFF_MAP, e) || lim.route.first().is_some_and(|&r| r != e) {
                    continue;
                }
                // Entering along a road (12.1 example: 2828 costs 1/2).
                let road = self.battle.map.on_road(e) && self.is_edge(e);
                let base = if road {
                    self.battle
                        .map
                        .road_kind_at(e)
                        .and_then(|r| self.battle.tables.roads[r as usize].cost.of(lim.class))
                } else {
                    self.terrain_cost(lim.class, e)
                };
                if let Some(c) = base {
                    let facings: &[Vertex] = if lim.has_facing {
                        &Vertex::ALL
                    } else {
                        &[Vertex::NNE]
                    };
                    for &v in facings {
                        if let Some(s) = idx(e, v, false) {
                            relax(
                                s,
                                (c + extra) as u32,
                                k as u16,
                                &mut cost,
                                &mut entry_of,
                                &mut buckets,
                            );
                        }
                    }
                }
            }
        } else {
            let f0 = if lim.has_facing {
                lim.start_facing
            } else {
                Vertex::NNE
            };
            if let Some(s) = idx(lim.start, f0, false) {
                relax(s, 0, u16::MAX, &mut cost, &mut entry_of, &mut buckets);
            }
        }
        let mut c = 0;
        while c < buckets.len() {
            let here = std::mem::take(&mut buckets[c]);
            for &s in &here {
                let s = s as usize;
                if cost[s] != c as u32 {
                    continue; // reached more cheaply since
                }
                let e = entry_of[s];
                let h = grid.hex_at(s / 12).unwrap_or(lim.start);
                let f = Vertex::from_index(((s % 12) / 2) as u8).unwrap_or(Vertex::NNE);
                let turned = s % 2 == 1;
                if lim.can_turn {
                    for v in Vertex::ALL {
                        if v != f {
                            if let Some(t) = idx(h, v, true) {
                                relax(
                                    t,
                                    c as u32 + if turned { 2 } else { 0 },
                                    e,
                                    &mut cost,
                                    &mut entry_of,
                                    &mut buckets,
                                );
                            }
                        }
                    }
                }
                let moved_off = lim.start == OFF_MAP || h != lim.start;
                if moved_off && (zoc(h) || lim.one_hex) {
                    continue; // 6.24: stop on entering an enemy ZOC; 5.13 one hex
                }
                if !moved_off && start_in_zoc && !lim.may_leave_zoc {
                    continue; // 6.25
                }
                let dirs: &[Direction] = if lim.has_facing {
                    &f.sides()
                } else {
                    &Direction::ALL
                };
                // On an explicit path only the next hex of the path may be entered.
                let next_on_route = if lim.route.is_empty() {
                    None
                } else if !moved_off {
                    lim.route.first().copied()
                } else {
                    let at = lim.route.iter().position(|&r| r == h);
                    Some(
                        at.and_then(|i| lim.route.get(i + 1).copied())
                            .unwrap_or(OFF_MAP),
                    )
                };
                for &d in dirs {
                    let to = h.neighbour(d);
                    if next_on_route.is_some_and(|n| n != to) || !enters(h, to) {
                        continue;
                    }
                    if let (Some(step), Some(t)) =
                        (self.entry_cost(lim.class, h, d), idx(to, f, turned))
                    {
                        relax(
                            t,
                            c as u32 + step as u32,
                            e,
                            &mut cost,
                            &mut entry_of,
                            &mut buckets,
                        );
                    }
                }
            }
            if buckets[c].is_empty() {
                c += 1;
            }
        }
        let mut best: Vec<Destination> = Vec::new();
        for i in 0..grid.len() {
            let Some(h) = grid.hex_at(i) else { continue };
            if occ(h) == Some(side) {
                continue; // 7.0: no stacking at the end of a move
            }
            for f in 0..6 {
                let (a, b) = (cost[i * 12 + f * 2], cost[i * 12 + f * 2 + 1]);
                let (c, s) = if a <= b {
                    (a, i * 12 + f * 2)
                } else {
                    (b, i * 12 + f * 2 + 1)
                };
                if c == u32::MAX {
                    continue;
                }
                let e = entry_of[s];
                best.push(Destination {
                    hex: h,
                    facing: Vertex::from_index(f as u8).unwrap_or(Vertex::NNE),
                    cost: c as HalfPoints,
                    entry: lim.entry.get(e as usize).map(|x| x.0),
                });
            }
        }
        best
    }

    /// Whether a hex is on the map's edge.
    pub fn is_edge(&self, h: Hex) -> bool {
        Direction::ALL
            .iter()
            .any(|&d| !self.battle.map.contains(h.neighbour(d)))
    }

    /// The legal destinations of unit `u` (with its stack unless `alone`) in the Movement
    /// Phase, the end-of-move limits of 5.1, 5.33 and 5.5 applied. Staying put with a new
    /// facing is a destination. Empty when the unit may not move.
    pub fn destinations(&self, u: UnitId, alone: bool) -> Vec<Destination> {
        self.destinations_in(u, alone, &self.situation())
    }

    /// [`State::destinations`] in a given situation.
    pub fn destinations_in(&self, u: UnitId, alone: bool, sit: &Situation) -> Vec<Destination> {
        self.route_destinations(u, alone, &[], sit)
    }

    /// The legal destinations of a move along an explicit path: `route` lists every hex
    /// entered, the destination last (empty: any path).
    pub fn route_destinations(
        &self,
        u: UnitId,
        alone: bool,
        route: &[Hex],
        sit: &Situation,
    ) -> Vec<Destination> {
        let group = self.moving_group(u, alone);
        if group.iter().any(|&g| self.unit(g).moved) {
            return Vec::new();
        }
        let Some(mut lim) = self.limits(&group, sit) else {
            return Vec::new();
        };
        lim.route = route.to_vec();
        let all = self.reach(&lim, sit);
        self.end_limits(u, &lim, all, sit)
    }

    fn end_limits(
        &self,
        u: UnitId,
        lim: &Limits,
        all: Vec<Destination>,
        sit: &Situation,
    ) -> Vec<Destination> {
        let side = lim.side;
        let enemy = self.battle.enemy(side);
        let unit = self.unit(u);
        let from_map = lim.start != OFF_MAP;
        let dist = |h: Hex| sit.distance_to(self, enemy, h);
        let d0 = if from_map { dist(lim.start) } else { u32::MAX };
        let moved = |d: &Destination| d.hex != lim.start;
        if unit.routed {
            // 5.5: away from the closest enemy combat units.
            return all
                .into_iter()
                .filter(|d| !moved(d) || dist(d.hex) > d0)
                .collect();
        }
        if !self.skirmisher(u) && unit.out_of_command {
            // 5.33: if they move, within command span of their leader or as close as possible.
            let leader = self.def(u).leader;
            let Some(lh) = self.leaders[leader as usize].loc.hex() else {
                return all;
            };
            let span = self.span(leader);
            let gap = |h: Hex| h.distance(lh).saturating_sub(span);
            let best = all.iter().filter(|d| moved(d)).map(|d| gap(d.hex)).min();
            return all
                .into_iter()
                .filter(|d| !moved(d) || Some(gap(d.hex)) == best)
                .collect();
        }
        if !self.follows_chit(u) {
            return all;
        }
        let ma = self.values(u).movement as u32;
        let ok = |d: &Destination| -> bool {
            match self.chit(u) {
                // 5.11: at least half the allowance (rounded up), ending closer; from
                // adjacent, remain adjacent.
                Some(Chit::Attack) => {
                    if d0 == 1 {
                        dist(d.hex) == 1
                    } else {
                        d.cost as u32 >= ma.div_ceil(2) * 2 && (!from_map || dist(d.hex) < d0)
                    }
                }
                // 5.12: one hex closer, or remain adjacent.
                Some(Chit::Advance) => {
                    if d0 == 1 {
                        dist(d.hex) == 1
                    } else {
                        !from_map || dist(d.hex) < d0
                    }
                }
                // 5.14: at least one hex further away.
                Some(Chit::Retreat) => dist(d.hex) > d0 || !from_map,
                // 5.15, 5.16: five or more hexes away at the end, if they began closer.
                Some(Chit::Reserve | Chit::Muster) => d0 >= 5 || dist(d.hex) >= 5,
                Some(Chit::Stand) | None => true,
            }
        };
        let compliant: Vec<Destination> = all.iter().copied().filter(|d| ok(d)).collect();
        if compliant.iter().any(&moved) || !from_map {
            // Turning in place is always allowed when the chit permits staying.
            let stay_ok = !self.must_move_in(u, sit);
            return all
                .into_iter()
                .filter(|d| ok(d) || (!moved(d) && stay_ok))
                .collect();
        }
        if self.chit(u) == Some(Chit::Muster) && d0 < 5 {
            // 5.16: as nearly as they can.
            let best = all.iter().map(|d| dist(d.hex)).max().unwrap_or(d0);
            if best > d0 {
                return all.into_iter().filter(|d| dist(d.hex) == best).collect();
            }
        }
        // Note to 5.1: a unit that cannot comply stays where it is (it may turn in place).
        all.into_iter().filter(|d| !moved(d)).collect()
    }

    /// Whether a unit's chit obliges it to move this phase (5.11, 5.12, 5.14, 5.16), before
    /// asking whether it can.
    pub fn must_move_in(&self, u: UnitId, sit: &Situation) -> bool {
        if !self.follows_chit(u) {
            return false;
        }
        let Some(h) = self.hex(u) else { return false };
        let d0 = sit.distance_to(self, self.battle.enemy(self.side(u)), h);
        match self.chit(u) {
            Some(Chit::Attack | Chit::Advance) => d0 > 1,
            Some(Chit::Retreat) => true,
            Some(Chit::Muster) => d0 < 5,
            _ => false,
        }
    }

    /// Units of the active side that must still move and can (the note to 5.1 excuses the
    /// rest), blocking the end of the Movement Phase; and Crusader reinforcements due now
    /// (only the Muslim player may withhold reinforcements, 12.1). `dests` gives each unit's
    /// destinations moving with its stack.
    pub fn obligations_given(
        &self,
        sit: &Situation,
        dests: impl Fn(UnitId) -> Vec<Destination>,
    ) -> Vec<UnitId> {
        let side = self.active;
        // 16.11: with action chits, only the activated leader's units are obliged to move.
        let leader = self.activation().map(|a| a.leader);
        self.unit_ids()
            .filter(|&u| self.side(u) == side && !self.unit(u).moved)
            .filter(|&u| leader.is_none_or(|l| self.def(u).leader == l))
            .filter(|&u| {
                if self.unit(u).loc == Loc::Waiting {
                    let withhold = self.battle.special.withhold_reinforcements && side != Seat(0);
                    return self.may_enter(u)
                        && !withhold
                        && self.top_of_waiting_stack(u)
                        && !dests(u).is_empty();
                }
                self.must_move_in(u, sit) && dests(u).iter().any(|d| Some(d.hex) != self.hex(u))
            })
            .collect()
    }

    /// [`State::obligations_given`], searching each unit's moves.
    pub fn unmoved_obligations(&self) -> Vec<UnitId> {
        let sit = self.situation();
        self.obligations_given(&sit, |u| self.destinations_in(u, false, &sit))
    }

    fn top_of_waiting_stack(&self, u: UnitId) -> bool {
        // A waiting unit stacked under another enters with it.
        !self.battle.units.iter().enumerate().any(|(i, d)| {
            d.stacked_over == Some(u) && self.units[i].loc == Loc::Waiting && i as UnitId != u
        })
    }

    /// The command span of a leader now: +1 with a Muster command (5.16).
    pub fn span(&self, l: crate::scenario::LeaderId) -> u32 {
        let (_, span, _) = self.ratings(l);
        span as u32 + u32::from(self.leaders[l as usize].chit == Some(Chit::Muster))
    }

    /// Legal destinations of a leader: 8 MP (8.1), never into a hex with enemy combat units
    /// (8.3); a split leader only into a hex with his cavalry (16.3).
    pub fn leader_destinations(&self, l: crate::scenario::LeaderId) -> Vec<(Hex, HalfPoints)> {
        let st = &self.leaders[l as usize];
        let Some(start) = st.loc.hex() else {
            return Vec::new();
        };
        if st.moved {
            return Vec::new();
        }
        let side = self.battle.leaders[l as usize].side;
        let enemy = self.battle.enemy(side);
        let reached = hexgrid::field_of_movement(start, 16, |from, to| {
            let d = from.direction_to(to)?;
            if self.occupant(to) == Some(enemy) {
                return None;
            }
            self.entry_cost(MoveClass::Leaders, from, d).map(u32::from)
        });
        reached
            .iter()
            .filter(|(h, _)| *h != start && self.split_leader_may_enter(l, *h))
            .map(|(h, c)| (h, c as HalfPoints))
            .collect()
    }
}
