//! The doctrine of play for Acre: the `heuristic` AI player's score for each legal action,
//! read only from what its seat may see (the map, the damage, the public Tunnel Bases, its
//! own plan and allocations). The Heuristic player hands it a state whose other side's secrets
//! are re-drawn ([`engine::Game::determinize`]); the doctrine still never reads them: not the
//! other side's plan, tunnels (for the Moslem) or allocations not yet rolled.
//!
//! Everything turns on a **focus**: the breached Wall/Tower hexes if there are any, otherwise
//! the one unbreached Wall/Tower hex the Crusader's giant catapults can best bring down (the
//! most damaged, then the nearest to the catapults). Both sides read it from the map.
//!
//! - **Plans** (4.0 1.A). The Crusader bombards until a wall is breached or a siege tower
//!   stands at a wall, or the game is nearly over, then assaults. The Moslem gives no
//!   Engineer Point to discovery until Tunnel Bases stand, then a point per base and one per
//!   two Game-Turns (at most half), the rest to repair; he keeps "Saladin Attacks" for walls
//!   near breaking, otherwise takes the larger army with uses left.
//! - **Engineering** (8.0, 13.0). Giant catapults all bombard the focus or its neighbours;
//!   Tunnel Bases go near the focus and tunnels dig toward the nearest unbreached wall; a
//!   tunnel under a wall is always caved in. Small catapults counter-bombard the catapults
//!   nearest the focus, two at most on one; repairs go to the most damaged hexes; searches
//!   follow the line from each Tunnel Base to the walls.
//! - **Movement** (5.0). Each piece has a worth in each hex; a move is scored by the worth it
//!   gains, and a piece that gains nothing is let go. Crusader melee units close on the
//!   focus and go through breaches into the streets; fire units stand two hexes off it; the
//!   siege towers go beside it, the catapults within six hexes. Moslem garrison units hold the
//!   walls, most of all the focus and walls with Crusaders beside them; army units march on
//!   the Crusader camps (18.2); leaders stay stacked with units they command, the Kings out
//!   of the front line (18.2). During an Assault Phase eleven Crusader units or more, cavalry
//!   first, hold the camps against the army (18.2).
//! - **Combat** (9.0, 10.0). Every fire unit fires, at the target of the best expected result,
//!   weighted to the units that matter (Crusaders at the walls or in the streets for the
//!   Moslem; defenders beside Crusader melee units for the Crusader), concentrating on a
//!   target already fired at. A melee is announced only when the expected result with every
//!   unit that can join reaches a disruption and a half (ladder climbers counted at the
//!   chance they mount, 10.31); then everyone who can joins. The Moslem retreats before
//!   combat at 3-1 or worse, holds a wall by a step loss when Crusaders stand beside it, and
//!   retreats away from enemy units.
//! - The Crusader plays every Impulse of an assault he planned; the Moslem ends the Assault
//!   Phase early unless his army holds a camp.
//!
//! Any action this doctrine does not know scores zero, as `end` does.

use std::sync::Arc;

use ai::Policy;
use engine::Seat;
use hexgrid::Hex;

use crate::action::Action;
use crate::fire::{self, Firer};
use crate::intervention::{self, Intervention};
use crate::map::Class;
use crate::melee;
use crate::planning::{Attack, Plan};
use crate::position::Location;
use crate::retreat::Step as RetreatStep;
use crate::rules::{Army, CombatResult, Kind, Side, SiegeKind};
use crate::sequence::Step;
use crate::setup::Piece;
use crate::state::{ix, side_of_seat, State};

/// Acre's doctrine, for `registry::register_with`.
#[derive(Clone, Copy, Debug)]
pub struct Doctrine;

impl ai::Doctrine<State> for Doctrine {
    fn policy() -> Option<Arc<dyn Policy<State>>> {
        Some(Arc::new(Strategy))
    }
}

/// The doctrine's scoring of actions (see the module's documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct Strategy;

impl Policy<State> for Strategy {
    fn scores(&self, state: &State, seat: Seat, legal: &[Action]) -> Vec<f64> {
        let Some(side) = side_of_seat(seat) else {
            return vec![0.0; legal.len()];
        };
        let sight = Sight::new(state, side);
        legal.iter().map(|a| sight.score(a)).collect()
    }
}

/// The Game-Turn from which the Crusader assaults whatever the walls.
const LATE_TURN: u8 = 13;
/// The expected melee result (in [`result_worth`] units) below which no melee is announced.
const GOOD_ODDS: f64 = 1.5;
/// The worth of a hex the piece may not use (off the map and not entering).
const NOWHERE: f64 = -1000.0;

/// What a combat result is worth to the side inflicting it; a second disruption retreats
/// (9.23).
fn result_worth(r: CombatResult, already_disrupted: bool) -> f64 {
    match r {
        CombatResult::NoEffect => 0.0,
        CombatResult::Disrupted if already_disrupted => 2.5,
        CombatResult::Disrupted => 1.0,
        CombatResult::Retreat => 2.5,
        CombatResult::Eliminated => 4.0,
    }
}

/// The distance from `h` to the nearest hex of `set` (`far` when it is empty).
fn nearest(h: Hex, set: &[Hex], far: u32) -> u32 {
    set.iter().map(|x| x.distance(h)).min().unwrap_or(far)
}

/// The situation as one side sees it.
struct Sight<'a> {
    s: &'a State,
    side: Side,
    /// The breached walls, or the one wall to bring down.
    focus: Vec<Hex>,
    /// Whether the focus is a breach.
    breach: bool,
    /// Hexes of the enemy's combat units on the map.
    enemies: Vec<Hex>,
    /// Hexes of the side's own combat units on the map.
    friends: Vec<Hex>,
    /// Crusader camp hexes not held by a Crusader combat unit (the Moslem army's goals).
    open_camps: Vec<Hex>,
    /// Crusader giant catapults on the map.
    catapults: Vec<Hex>,
    /// Unbreached Wall and Tower hexes.
    unbreached: Vec<Hex>,
    /// Crusader units kept back to hold the camps against the Moslem army (18.2).
    guards: Vec<usize>,
    /// Per grid index: how many of the side's own and of the enemy's combat units stand
    /// there (worked out when first asked for).
    stacks: std::cell::OnceCell<[Vec<u16>; 2]>,
}

impl<'a> Sight<'a> {
    fn new(s: &'a State, side: Side) -> Sight<'a> {
        let r = &s.rules;
        let pos = &s.pos;
        let mut enemies = Vec::new();
        let mut friends = Vec::new();
        for u in 0..r.units.len() {
            if let Some(h) = pos.hex_of(u) {
                if r.side_of(u) == side {
                    friends.push(h);
                } else {
                    enemies.push(h);
                }
            }
        }
        let catapults: Vec<Hex> = (0..r.siege.len())
            .filter(|&e| r.siege[e].kind == SiegeKind::GiantCatapult)
            .filter_map(|e| pos.siege[e].at.hex())
            .collect();
        let walls = &s.derived.walls;
        let breaches: Vec<Hex> = walls
            .iter()
            .copied()
            .filter(|&w| pos.breached(r, w))
            .collect();
        let unbreached: Vec<Hex> = walls
            .iter()
            .copied()
            .filter(|&w| !pos.breached(r, w))
            .collect();
        let breach = !breaches.is_empty();
        let focus = if breach {
            breaches
        } else {
            target_wall(s, &unbreached, &catapults)
                .into_iter()
                .collect()
        };
        let open_camps = r
            .map
            .camps()
            .map(|(h, _)| h)
            .filter(|&h| pos.side_at(r, h) != Some(Side::Crusader))
            .collect();
        let guards = camp_guards(s);
        Sight {
            s,
            side,
            focus,
            breach,
            enemies,
            friends,
            open_camps,
            catapults,
            unbreached,
            guards,
            stacks: std::cell::OnceCell::new(),
        }
    }

    fn score(&self, a: &Action) -> f64 {
        let s = self.s;
        match a {
            Action::DeployHistorical => 100.0,
            Action::Place(piece, h) => self.place(*piece, *h),
            Action::Plan(plan) => 10.0 + self.plan(*plan),
            Action::Select(piece) => self.select(*piece),
            Action::Move(h) => match s.work.selected {
                Some(p) => self.worth(p, Location::Map(*h)) - self.worth(p, p.at(&s.pos)),
                None => 0.0,
            },
            // 15.21: a charge is a move that ends in a melee at doubled strength.
            Action::Charge(to, target) => match s.work.selected {
                Some(p) => {
                    self.worth(p, Location::Map(*to)) - self.worth(p, p.at(&s.pos))
                        + if s.pos.unit_at(*target).is_some() {
                            2.0
                        } else {
                            0.0
                        }
                }
                None => 0.0,
            },
            // 15.3: the few grenades are kept for Crusaders on the walls or in the streets.
            Action::Grenade(h) => 2.0 * (self.target_weight(*h) - 1.6),
            // 10.7: advance where the piece is worth more.
            Action::Advance(p, h) => {
                self.worth(*p, Location::Map(*h)) - self.worth(*p, p.at(&s.pos))
            }
            Action::Base(h) => 20.0 - f64::from(nearest(*h, &self.focus, 20)),
            Action::Dig(_, h) => self.dig(*h),
            Action::Search(h) => self.search(*h),
            Action::CaveIn(_) => 100.0,
            Action::Bombard(_, h) => self.bombard(*h),
            Action::Counter(_, t) => self.counter(*t),
            Action::Repair(h) => self.repair(*h),
            Action::Fire(f, h) => self.fire(*f, *h),
            Action::Fill(_, h) => 5.0 + 5.0 / (1.0 + f64::from(nearest(*h, &self.focus, 20))),
            Action::Attack(h) => self.attack(*h) - GOOD_ODDS,
            Action::Join(_) => 10.0,
            Action::Resolve => 1.0,
            Action::Evade => self.evade(),
            Action::Stand => 0.0,
            Action::Retreat(u, step) => self.retreat(*u, *step),
            Action::Hold(u) => self.hold(*u),
            Action::Stop(_) => 0.5,
            Action::Follow(_) => 1.0,
            Action::Stay(_) => 0.0,
            Action::EndAssault => self.end_assault(),
            Action::Continue => 0.5,
            _ => 0.0,
        }
    }

    // -----------------------------------------------------------------------------------
    // Plans (4.0 1.A, 7.0, 13.3)
    // -----------------------------------------------------------------------------------

    fn plan(&self, plan: Plan) -> f64 {
        let s = self.s;
        let r = &s.rules;
        match plan {
            Plan::Crusader(attack) => {
                let tower_at_wall = (0..r.siege.len())
                    .filter(|&e| {
                        r.siege[e].side == Side::Crusader
                            && r.siege[e].kind == SiegeKind::SiegeTower
                    })
                    .filter_map(|e| s.pos.siege[e].at.hex())
                    .any(|h| self.unbreached.iter().any(|w| w.is_adjacent(h)));
                let assault = self.breach || tower_at_wall || s.turn.turn >= LATE_TURN;
                match (attack, assault) {
                    (Attack::Assault, true) | (Attack::Bombard, false) => 10.0,
                    _ => 0.0,
                }
            }
            Plan::Moslem(m) => {
                // 13.31: searching is worth it only once Tunnel Bases stand (they are public):
                // a point per base, and one more per two Game-Turns of digging, at most half.
                let points = i32::from(s.engineer_points);
                let bases = s.tunnels.bases.len() as i32;
                let discovery = if bases == 0 {
                    0
                } else {
                    (bases + i32::from(s.turn.turn) / 2).min(points / 2)
                };
                let wanted_repair = points - discovery;
                let off = (i32::from(m.repair) - wanted_repair).abs();
                10.0 - f64::from(off) + self.intervention(m.intervention)
            }
        }
    }

    /// The Moslem's Intervention counter (7.1): "Saladin Attacks" when a wall is close to
    /// breaking or breached (it stops the Bombardment Phase), or in the last Game-Turns;
    /// otherwise the army with more units, while it has uses left.
    fn intervention(&self, c: Intervention) -> f64 {
        let s = self.s;
        let r = &s.rules;
        let worst = s.pos.damage.values().copied().max().unwrap_or(0);
        let left = |c: Intervention| {
            let used = match c {
                Intervention::SaladinAttacks => s.used.saladin_attacks,
                Intervention::ArmyOfEgypt => s.used.army_of_egypt,
                Intervention::ArmyOfMosul => s.used.army_of_mosul,
            };
            intervention::limit(r, c).saturating_sub(used)
        };
        let army_size = |a: Army| {
            (0..r.units.len())
                .filter(|&u| r.contingent_of(u).army == Some(a))
                .count() as f64
        };
        match c {
            Intervention::SaladinAttacks => {
                let pressing = self.breach
                    || worst + 2 >= r.tables.breach_level
                    || s.turn.turn + left(c) > r.scenario.turns;
                if pressing {
                    8.0
                } else {
                    -8.0
                }
            }
            Intervention::ArmyOfEgypt => army_size(Army::Egypt) / 10.0 + f64::from(left(c)) / 4.0,
            Intervention::ArmyOfMosul => army_size(Army::Mosul) / 10.0 + f64::from(left(c)) / 4.0,
        }
    }

    // -----------------------------------------------------------------------------------
    // Placing and moving (5.0, 11.3, 14.41, 17.0)
    // -----------------------------------------------------------------------------------

    fn place(&self, piece: Piece, h: Hex) -> f64 {
        let s = self.s;
        let worth = self.worth(piece, Location::Map(h));
        if s.turn.step == Step::Allocation && matches!(s.stage, crate::state::Stage::Play) {
            // 14.42, 12.17, 12.24: return a piece before committing the plan.
            50.0 + worth / 100.0
        } else {
            worth
        }
    }

    fn select(&self, piece: Piece) -> f64 {
        let r = &self.s.rules;
        match piece {
            Piece::Unit(u) if r.unit_type(u).kind == Kind::Melee => 12.0,
            Piece::Unit(_) => 11.0,
            Piece::Siege(_) => 10.0,
            // Leaders last, to join the units where they end.
            Piece::Leader(_) => 9.0,
        }
    }

    /// What a piece is worth in a place, to its side.
    fn worth(&self, piece: Piece, at: Location) -> f64 {
        let Location::Map(h) = at else {
            return NOWHERE;
        };
        match piece {
            Piece::Unit(u) => match self.s.rules.side_of(u) {
                Side::Crusader => self.crusader_unit(u, h),
                Side::Moslem => self.moslem_unit(u, h),
            },
            Piece::Leader(l) => self.leader(l, h),
            Piece::Siege(e) => self.siege(e, h),
        }
    }

    fn crusader_unit(&self, u: usize, h: Hex) -> f64 {
        let s = self.s;
        let r = &s.rules;
        let pos = &s.pos;
        let ty = r.unit_type(u);
        let class = r.map.class(h);
        let to_focus = f64::from(nearest(h, &self.focus, 30));
        let moslem_beside = self.units_of_side_beside(h, Side::Moslem);
        if self.guards.contains(&u) {
            // 18.2: hold a camp hex no other Crusader holds.
            if let Some(nation) = r.map.camp(h) {
                // Spread over the four camps: fewer guards already in this one is better.
                let others = r
                    .map
                    .camps()
                    .filter(|&(c, n)| n == nation && c != h)
                    .filter(|&(c, _)| pos.side_at(r, c) == Some(Side::Crusader))
                    .filter(|&(c, _)| pos.unit_at(c) != Some(u))
                    .count();
                return 60.0 - 3.0 * others as f64;
            }
            let held_by_others: Vec<Hex> = r
                .map
                .camps()
                .map(|(c, _)| c)
                .filter(|&c| pos.unit_at(c).is_none_or(|x| x == u))
                .collect();
            return 55.0 - 4.0 * f64::from(nearest(h, &held_by_others, 30));
        }
        if ty.kind == Kind::Fire {
            // Two hexes off the focus, not beside an enemy that would melee it.
            return 30.0 - 3.0 * (to_focus - 2.0).abs() - 4.0 * moslem_beside as f64;
        }
        match class {
            Class::Street => 100.0,
            Class::Wall | Class::Tower => 70.0,
            _ => {
                let mut v = 40.0 - 5.0 * to_focus;
                if ty.cavalry {
                    // Cavalry neither climbs ladders nor fills the foss: it meets the army.
                    let army = self.army_hexes();
                    if !army.is_empty() {
                        v = 40.0 - 4.0 * f64::from(nearest(h, &army, 30));
                    }
                    return v;
                }
                let ladder_ground = matches!(class, Class::Clear | Class::Road)
                    || (class == Class::Foss && !pos.unfilled_foss(r, h));
                if ladder_ground && self.unbreached.iter().any(|w| w.is_adjacent(h)) {
                    v += 4.0;
                }
                if pos.unfilled_foss(r, h) {
                    v -= 2.0;
                }
                v
            }
        }
    }

    fn moslem_unit(&self, u: usize, h: Hex) -> f64 {
        let s = self.s;
        let r = &s.rules;
        let ty = r.unit_type(u);
        let class = r.map.class(h);
        let crusaders_beside = self.units_of_side_beside(h, Side::Crusader) as f64;
        let garrison = r.contingent_of(u).army == Some(Army::Garrison);
        let crusaders = self.side_hexes(Side::Crusader);
        if garrison {
            let to_focus = f64::from(nearest(h, &self.focus, 30));
            let on_wall = class.is_wall_or_tower();
            let mut v = if on_wall { 40.0 } else { 20.0 };
            v -= to_focus;
            if on_wall {
                v += 3.0 * crusaders_beside;
                if class == Class::Tower && ty.kind == Kind::Fire {
                    v += 3.0;
                }
            } else if class == Class::Street {
                // In the streets only to meet Crusaders who came through.
                v += 6.0 * crusaders_beside;
            }
            return v;
        }
        if ty.kind == Kind::Fire {
            // Horse archers and bowmen: two hexes from the nearest Crusader.
            let d = f64::from(nearest(h, &crusaders, 30));
            return 20.0 - 3.0 * (d - 2.0).abs() + self.camp_worth(h) / 2.0;
        }
        20.0 + self.camp_worth(h) + 2.0 * crusaders_beside.min(2.0)
    }

    /// 18.2: what a hex is worth to a Moslem army unit for the camps: a camp not held by a
    /// Crusader most, then nearness to one.
    fn camp_worth(&self, h: Hex) -> f64 {
        let r = &self.s.rules;
        if r.map.camp(h).is_some() {
            return 30.0;
        }
        -3.0 * f64::from(nearest(h, &self.open_camps, 30))
    }

    /// How many of `side`'s combat units stand next to `h`.
    fn units_of_side_beside(&self, h: Hex, side: Side) -> usize {
        let map = &self.s.rules.map;
        let stacks = self.stacks.get_or_init(|| {
            [&self.friends, &self.enemies].map(|hexes| {
                let mut stack = vec![0u16; map.grid.len()];
                for i in hexes.iter().filter_map(|&x| map.index(x)) {
                    stack[i] += 1;
                }
                stack
            })
        });
        let stack = &stacks[usize::from(side != self.side)];
        map.neighbours(h)
            .filter_map(|n| map.index(n))
            .map(|i| usize::from(stack[i]))
            .sum()
    }

    fn side_hexes(&self, side: Side) -> Vec<Hex> {
        if side == self.side {
            self.friends.clone()
        } else {
            self.enemies.clone()
        }
    }

    /// Hexes of Moslem army (not garrison) units on the map.
    fn army_hexes(&self) -> Vec<Hex> {
        let r = &self.s.rules;
        (0..r.units.len())
            .filter(|&u| r.side_of(u) == Side::Moslem && self.s.army_unit(u))
            .filter_map(|u| self.s.pos.hex_of(u))
            .collect()
    }

    /// 14.0: a leader is worth most stacked with a unit he commands, the further forward the
    /// better, and never alone beside the enemy (10.61).
    fn leader(&self, l: usize, h: Hex) -> f64 {
        let s = self.s;
        let r = &s.rules;
        let pos = &s.pos;
        let side = r.leaders[l].side;
        let commanded: Vec<Hex> = (0..r.units.len())
            .filter(|&u| crate::leaders::commands(r, l, s.conrad, r.units[u].contingent))
            .filter_map(|u| pos.hex_of(u))
            .collect();
        let enemy_side = side.enemy();
        let threats = self.units_of_side_beside(h, enemy_side) as f64;
        match pos.unit_at(h) {
            Some(u) if r.side_of(u) == side => {
                let mut v = 50.0 + self.worth(Piece::Unit(u), Location::Map(h)) / 10.0;
                if !crate::leaders::commands(r, l, s.conrad, r.units[u].contingent) {
                    v -= 15.0;
                }
                if r.leaders[l].king {
                    // 18.2: the Moslem wins if both Kings die; they lead from the second line.
                    v -= 15.0 * threats;
                }
                v
            }
            _ => 20.0 - 2.0 * f64::from(nearest(h, &commanded, 30)) - 20.0 * threats,
        }
    }

    fn siege(&self, e: usize, h: Hex) -> f64 {
        let r = &self.s.rules;
        let to_focus = f64::from(nearest(h, &self.focus, 30));
        match (r.siege[e].side, r.siege[e].kind) {
            (Side::Crusader, SiegeKind::GiantCatapult) => {
                // 8.13: within six hexes of the focus, not so near that the garrison reaches it.
                20.0 - 3.0 * (to_focus - 6.0).max(0.0)
                    - if to_focus <= 3.0 { 5.0 } else { 0.0 }
                    - 10.0 * self.units_of_side_beside(h, Side::Moslem) as f64
            }
            (Side::Crusader, SiegeKind::SiegeTower) => 30.0 - 4.0 * to_focus,
            (Side::Crusader, _) => 0.0,
            (Side::Moslem, _) => {
                // 8.22: small catapults on the walls within range of the giant catapults.
                if r.map.is_wall_or_tower(h) {
                    30.0 - 5.0 * (f64::from(nearest(h, &self.catapults, 30)) - 6.0).max(0.0)
                } else {
                    0.0
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Engineering and bombardment (8.0, 13.0)
    // -----------------------------------------------------------------------------------

    fn dig(&self, h: Hex) -> f64 {
        let r = &self.s.rules;
        if self.unbreached.contains(&h) && r.map.is_wall_or_tower(h) {
            return 60.0;
        }
        30.0 - 2.0 * f64::from(nearest(h, &self.unbreached, 30))
            - 0.5 * f64::from(nearest(h, &self.focus, 30))
    }

    /// 13.31: searches along the line from a Tunnel Base (public) to the walls.
    fn search(&self, h: Hex) -> f64 {
        let s = self.s;
        if s.tunnels.bases.is_empty() || s.searched.contains(&h) {
            return -1.0;
        }
        let walls = &s.derived.walls;
        let best = s
            .tunnels
            .bases
            .iter()
            .map(|&b| {
                let straight = nearest(b, walls, 30);
                let detour = b.distance(h) + nearest(h, walls, 30) - straight;
                10.0 - 3.0 * f64::from(detour) - 0.3 * f64::from(nearest(h, walls, 30))
            })
            .fold(f64::NEG_INFINITY, f64::max);
        best.max(0.1)
    }

    fn bombard(&self, w: Hex) -> f64 {
        let s = self.s;
        let r = &s.rules;
        if s.pos.breached(r, w) {
            return 0.5;
        }
        let damage = f64::from(s.pos.damage.get(&w).copied().unwrap_or(0));
        let aim = if self.breach {
            // Widen the breach.
            f64::from(nearest(w, &self.focus, 30)).max(1.0) - 1.0
        } else {
            f64::from(nearest(w, &self.focus, 30))
        };
        50.0 - 6.0 * aim + damage
    }

    /// 8.21: small catapults on the giant catapults nearest the focus, two at most on one.
    fn counter(&self, t: usize) -> f64 {
        let s = self.s;
        let Some(at) = s.pos.siege[t].at.hex() else {
            return 0.0;
        };
        let on_it = s.work.counter.iter().filter(|(_, x)| *x == t).count() as f64;
        20.0 - f64::from(nearest(at, &self.focus, 30)) - 8.0 * on_it
    }

    fn repair(&self, h: Hex) -> f64 {
        let s = self.s;
        let damage = f64::from(s.pos.damage.get(&h).copied().unwrap_or(0));
        let already = s.work.repairs.iter().filter(|&&x| x == h).count() as f64;
        10.0 + 2.0 * damage - 3.0 * already
            + 2.0 * self.units_of_side_beside(h, Side::Crusader) as f64
    }

    // -----------------------------------------------------------------------------------
    // Combat (9.0, 10.0)
    // -----------------------------------------------------------------------------------

    /// How much a hit on the enemy unit in `h` matters.
    fn target_weight(&self, h: Hex) -> f64 {
        let s = self.s;
        let r = &s.rules;
        let class = r.map.class(h);
        match self.side {
            Side::Moslem => {
                let mut w = 1.0;
                if class == Class::Street || class.is_wall_or_tower() {
                    w += 1.5;
                }
                if self.unbreached.iter().any(|x| x.is_adjacent(h))
                    || self.focus.iter().any(|x| x.is_adjacent(h))
                {
                    w += 0.5;
                }
                if r.map.camp(h).is_some() {
                    w += 0.3;
                }
                w
            }
            Side::Crusader => {
                let mut w = 1.0;
                if self.friends.iter().any(|x| x.is_adjacent(h)) {
                    w += 0.5;
                }
                if self.focus.iter().any(|x| *x == h || x.is_adjacent(h)) {
                    w += 0.5;
                }
                if r.map.camp(h).is_some() {
                    w += 0.5;
                }
                w
            }
        }
    }

    /// 9.0-9.5: fire is free, so every firer fires; at the best expected result, weighted,
    /// and a little more at a hex its side already fires at (9.23: two D make an R).
    fn fire(&self, f: Firer, h: Hex) -> f64 {
        let s = self.s;
        let r = &s.rules;
        let Some(target) = s.pos.unit_at(h) else {
            return 0.5;
        };
        let Ok(rating) = fire::check_fire(r, &s.pos, f, h, &[]) else {
            return 0.5;
        };
        let from = match f {
            Firer::Unit(u) => s.pos.hex_of(u),
            Firer::Siege(e) => s.pos.siege[e].at.hex(),
        }
        .unwrap_or(h);
        let modifier = fire::target_modifier(r, &s.pos, target, from);
        let disrupted = s.pos.units[target].disrupted;
        let expected: f64 = (1..=6u8)
            .map(|roll| result_worth(fire::result(r, rating, roll, modifier), disrupted))
            .sum::<f64>()
            / 6.0;
        let already = s.work.fire[ix(self.side)]
            .iter()
            .filter(|(_, x)| *x == h)
            .count() as f64;
        1.0 + expected * self.target_weight(h) + 0.4 * already.min(2.0)
    }

    /// The melee units of the side that could join an attack on `target` now, and whether
    /// each needs a ladder.
    fn possible_attackers(&self, target: Hex) -> Vec<(usize, bool)> {
        let s = self.s;
        let r = &s.rules;
        (0..r.units.len())
            .filter(|&u| r.side_of(u) == self.side && r.unit_type(u).kind == Kind::Melee)
            .filter(|&u| !s.pos.units[u].disrupted && !s.work.attacked_with.contains(&u))
            .filter(|&u| match s.turn.step {
                Step::Impulse { segment, .. } => {
                    let garrison = r.contingent_of(u).army == Some(Army::Garrison);
                    match segment {
                        crate::sequence::Segment::GarrisonMelee => garrison,
                        crate::sequence::Segment::ArmyMelee => !garrison,
                        _ => true,
                    }
                }
                _ => true,
            })
            .filter_map(|u| {
                melee::ladder_needed(r, &s.pos, u, target)
                    .ok()
                    .map(|l| (u, l))
            })
            .collect()
    }

    /// The expected worth of a melee on `target` with `attackers` (10.8), ladder climbers
    /// counted at the chance they mount (10.31, 10.33).
    fn melee_worth(&self, target: Hex, attackers: &[(usize, bool)]) -> f64 {
        let s = self.s;
        let r = &s.rules;
        let Some(d) = s.pos.unit_at(target) else {
            // 10.61: a leader or siege unit alone is eliminated.
            return if attackers.is_empty() { 0.0 } else { 6.0 };
        };
        if attackers.is_empty() {
            return 0.0;
        }
        let all: Vec<usize> = attackers.iter().map(|(u, _)| *u).collect();
        let sure: Vec<usize> = attackers
            .iter()
            .filter(|(_, l)| !*l)
            .map(|(u, _)| *u)
            .collect();
        let (a_all, def) = melee::strengths(r, &s.pos, &all, &[], d, s.conrad);
        let (a_sure, _) = if sure.is_empty() {
            (0, def)
        } else {
            melee::strengths(r, &s.pos, &sure, &[], d, s.conrad)
        };
        let mount = 2.0 / 3.0;
        let attack = f64::from(a_sure) + f64::from(a_all - a_sure) * mount;
        let column = melee::odds_column(attack.round() as u32, def);
        let leader_morale = |l: Option<usize>| l.map(|l| r.leaders[l].morale);
        let modifier = melee::die_modifier(
            leader_morale(crate::leaders::attack_morale_leader(
                r, &s.pos, &all, s.conrad,
            )),
            leader_morale(crate::leaders::defence_morale_leader(
                r, &s.pos, d, s.conrad,
            )),
            melee::army_morale(r, &s.pos, self.side, &all),
            melee::army_morale(r, &s.pos, self.side.enemy(), &[d]),
        );
        let disrupted = s.pos.units[d].disrupted;
        let expected: f64 = (1..=6i32)
            .map(|roll| result_worth(melee::result(r, column, roll + modifier), disrupted))
            .sum::<f64>()
            / 6.0;
        expected * self.target_weight(target)
    }

    fn attack(&self, target: Hex) -> f64 {
        self.melee_worth(target, &self.possible_attackers(target))
    }

    /// 10.21: the Moslem retreats before combat when the melee announced would go badly.
    fn evade(&self) -> f64 {
        let s = self.s;
        let r = &s.rules;
        let Some(m) = &s.work.melee else { return 0.0 };
        let Some(d) = s.pos.unit_at(m.target) else {
            return 0.0;
        };
        let (a, def) = melee::strengths(r, &s.pos, &m.attackers, &[], d, s.conrad);
        match melee::odds_column(a, def) {
            Some(c) if c >= 3 => 1.0,
            _ => -1.0,
        }
    }

    /// 9.24-9.3: retreat away from the enemy, the Crusader toward his camps, the garrison
    /// into the city.
    fn retreat(&self, u: usize, step: RetreatStep) -> f64 {
        let s = self.s;
        let r = &s.rules;
        let RetreatStep::To(h) = step else {
            return -2.0;
        };
        let enemy = r.side_of(u).enemy();
        let mut v = -3.0 * self.units_of_side_beside(h, enemy) as f64;
        match r.side_of(u) {
            Side::Crusader => {
                let camps: Vec<Hex> = r.map.camps().map(|(c, _)| c).collect();
                v -= 0.2 * f64::from(nearest(h, &camps, 30));
                v -= 0.1 * f64::from(nearest(h, &self.focus, 30));
            }
            Side::Moslem => {
                if r.map.in_acre(h) {
                    v += 2.0;
                }
            }
        }
        v
    }

    /// 9.27: a garrison unit takes a step loss to keep a wall the Crusaders stand beside.
    fn hold(&self, u: usize) -> f64 {
        let s = self.s;
        let Some(h) = s.pos.hex_of(u) else {
            return -1.0;
        };
        if self.units_of_side_beside(h, Side::Crusader) >= 1 || self.focus.contains(&h) {
            1.0
        } else {
            -1.0
        }
    }

    /// 4.0 note: the Crusader plays out an assault he planned; the Moslem ends the Assault
    /// Phase unless his army holds a camp.
    fn end_assault(&self) -> f64 {
        let s = self.s;
        let r = &s.rules;
        match self.side {
            Side::Crusader => match s.allocation.crusader {
                Some(Attack::Assault) => 0.0,
                _ => 1.0,
            },
            Side::Moslem => {
                let camp_held = r
                    .map
                    .camps()
                    .any(|(h, _)| s.pos.side_at(r, h) == Some(Side::Moslem));
                if camp_held {
                    0.0
                } else {
                    1.0
                }
            }
        }
    }
}

/// The least number of Crusader units held back in the camps during an Assault Phase (18.2:
/// the Moslem wins holding twelve of the twenty-two, so eleven held keep him from it), and
/// the most.
const GUARDS: (usize, usize) = (11, 16);

/// 18.2: the Crusader units that hold the camps during an Assault Phase: eleven, or one for
/// each Moslem army unit on the map up to sixteen; cavalry first (it climbs no ladder), then
/// the units nearest the camps.
fn camp_guards(s: &State) -> Vec<usize> {
    let r = &s.rules;
    let assault = matches!(s.turn.step, Step::Impulse { .. } | Step::Regrouping)
        || s.phases.is_some_and(|p| p.assault);
    if !assault {
        return Vec::new();
    }
    let army = (0..r.units.len())
        .filter(|&u| s.army_unit(u) && s.pos.hex_of(u).is_some())
        .count();
    let wanted = GUARDS.0.max(army).min(GUARDS.1);
    let camps: Vec<Hex> = r.map.camps().map(|(h, _)| h).collect();
    let mut candidates: Vec<(u32, usize)> = (0..r.units.len())
        .filter(|&u| r.side_of(u) == Side::Crusader)
        .filter_map(|u| {
            let h = s.pos.hex_of(u)?;
            if r.map.in_acre(h) {
                return None;
            }
            let d = nearest(h, &camps, 30) * 2;
            let d = if r.unit_type(u).cavalry { d / 4 } else { d + 1 };
            Some((d, u))
        })
        .collect();
    candidates.sort_unstable();
    candidates
        .into_iter()
        .take(wanted)
        .map(|(_, u)| u)
        .collect()
}

/// The wall the Crusader's catapults should bring down when none is breached: the most
/// damaged unbreached Wall/Tower hex, then the nearest to the giant catapults on the map.
fn target_wall(s: &State, unbreached: &[Hex], catapults: &[Hex]) -> Option<Hex> {
    let pos = &s.pos;
    let key = |w: Hex| {
        let damage = u32::from(pos.damage.get(&w).copied().unwrap_or(0));
        let reach: u32 = catapults.iter().map(|c| c.distance(w)).sum();
        (std::cmp::Reverse(damage), reach)
    };
    unbreached.iter().copied().min_by_key(|&w| key(w))
}
