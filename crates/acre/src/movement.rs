//! Movement (5.0): the Terrain Effects Chart's costs in half Movement Points with the wall
//! rules (5.22-5.24, 6.23), stacking (5.5), zones of control (6.21, 6.22), the command
//! radius limit (5.4, 14.12, 15.15), strategic movement (5.16) and cavalry's limits (15.11,
//! 15.14).

use std::collections::BTreeMap;

use hexgrid::{search, Hex};

use crate::map::Class;
use crate::position::Pieces;
use crate::rules::{Rules, Side, SiegeKind};
use crate::{leaders, zoc, Position};

/// What moves: the facts of the mover that the costs depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mover {
    /// Its side.
    pub side: Side,
    /// A combat unit (a leader otherwise, 5.12).
    pub combat: bool,
    /// Cavalry (15.1).
    pub cavalry: bool,
}

impl Mover {
    /// The mover for a combat unit.
    pub fn unit(rules: &Rules, unit: usize) -> Mover {
        Mover {
            side: rules.side_of(unit),
            combat: true,
            cavalry: rules.unit_type(unit).cavalry,
        }
    }

    /// The mover for a piece of `side` that is not a combat unit (a leader, a siege tower).
    pub fn piece(side: Side) -> Mover {
        Mover {
            side,
            combat: false,
            cavalry: false,
        }
    }
}

/// Why a move into a hex is prohibited ([`entry`]); [`Barrier::text`] says it in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Barrier {
    /// Not an adjacent hex on the map.
    NotNext,
    /// 6.12: an all-sea hexside.
    AllSea,
    /// 5.12: an enemy combat unit.
    EnemyUnit,
    /// 5.12: a leader into an enemy leader or siege unit.
    EnemyLeaderOrSiege,
    /// 15.14: cavalry into marsh.
    CavalryMarsh,
    /// 15.11: cavalry into a Wall/Tower hex not friendly-controlled.
    CavalryWall,
    /// 5.24, 6.23, 10.35: an enemy-controlled unbreached Wall/Tower hex.
    HeldWall,
    /// Prohibited terrain.
    Terrain,
}

impl Barrier {
    /// The reason in words, for the hex printed `id`.
    pub fn text(self, id: &str) -> String {
        match self {
            Barrier::NotNext => format!("{id} is not next to the unit on the map"),
            Barrier::AllSea => format!("the hexside into {id} is all sea (6.12)"),
            Barrier::EnemyUnit => format!("{id} holds an enemy combat unit (5.12)"),
            Barrier::EnemyLeaderOrSiege => format!(
                "a leader may not enter {id}, which holds an enemy leader or siege unit (5.12)"
            ),
            Barrier::CavalryMarsh => format!("cavalry may not enter the marsh at {id} (15.14)"),
            Barrier::CavalryWall => format!(
                "cavalry may pass only through friendly-controlled Wall/Tower hexes ({id}, 15.11)"
            ),
            Barrier::HeldWall => format!("{id} is an enemy-controlled unbreached Wall/Tower hex: only a ladder assault takes it (5.24, 6.23, 10.35)"),
            Barrier::Terrain => format!("{id} is prohibited terrain"),
        }
    }
}

/// Acre 5.2, 5.21, 5.26, 5.27, 5.3, 5.6, 5.12, 5.22-5.24, 6.23, 15.11, 15.14: the cost in half
/// Movement Points of moving from `from` into the adjacent `to`, or why it is prohibited in
/// words ([`entry`]).
pub fn entry_cost<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    mover: Mover,
    from: Hex,
    to: Hex,
) -> Result<u32, String> {
    entry(rules, pos, mover, from, to).map_err(|b| b.text(&rules.map.id(to)))
}

/// Acre 5.2, 5.21, 5.26, 5.27, 5.3, 5.6, 5.12, 5.22-5.24, 6.23, 15.11, 15.14: the cost in half
/// Movement Points of moving from `from` into the adjacent `to`, or the [`Barrier`] that
/// prohibits it (for the searches, which need no words).
pub fn entry<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    mover: Mover,
    from: Hex,
    to: Hex,
) -> Result<u32, Barrier> {
    if !rules.map.on_map(to) || !from.is_adjacent(to) {
        return Err(Barrier::NotNext);
    }
    if rules.map.all_sea_between(from, to) {
        return Err(Barrier::AllSea);
    }
    // 5.12: never into enemy combat units; leaders never into enemy leaders or siege units.
    let side_there = pos.side_at(rules, to);
    if side_there == Some(mover.side.enemy()) {
        return Err(Barrier::EnemyUnit);
    }
    if !mover.combat {
        let enemy_leader = pos
            .leader_at(to)
            .is_some_and(|l| rules.leaders[l].side != mover.side);
        let enemy_siege = pos
            .siege_at(to)
            .is_some_and(|s| rules.siege[s].side != mover.side);
        if enemy_leader || enemy_siege {
            return Err(Barrier::EnemyLeaderOrSiege);
        }
    }
    let class = rules.map.class(to);
    if mover.cavalry && class == Class::Marsh {
        return Err(Barrier::CavalryMarsh);
    }
    let p = pos.position();
    if class.is_wall_or_tower() {
        let t = &rules.tables;
        // 15.11: cavalry only through friendly-controlled walls.
        if mover.cavalry
            && side_there != Some(mover.side)
            && !zoc::controlled(rules, pos, to, mover.side)
        {
            return Err(Barrier::CavalryWall);
        }
        if p.breached(rules, to) {
            return Ok(t.breached_cost as u32);
        }
        if rules.map.is_wall_or_tower(from) {
            return Ok(t.from_wall_cost as u32);
        }
        if zoc::controlled(rules, pos, to, mover.side.enemy()) {
            return Err(Barrier::HeldWall);
        }
        return Ok(t.from_other_cost as u32);
    }
    p.effects(rules, to)
        .cost
        .map(u32::from)
        .ok_or(Barrier::Terrain)
}

/// Acre 9.24: "A unit that has suffered a Retreat result may not use road movement rates
/// during the next Game-Turn": the cost of entering `to` for such a unit, which pays for a
/// road hex what a Clear hex costs (roads are hex terrain on this map: rules-notes). Other
/// costs are unchanged.
pub fn without_road_rates(rules: &Rules, to: Hex, cost: u32) -> u32 {
    if rules.map.class(to) != Class::Road {
        return cost;
    }
    rules
        .map
        .terrains
        .iter()
        .find(|t| t.class == Class::Clear)
        .and_then(|t| t.effects.cost)
        .map_or(cost, |c| cost.max(u32::from(c)))
}

/// Acre 5.15, 5.4, 14.12, 15.15, 5.16: a combat unit's allowance in half Movement Points this
/// Segment: full within twice its leader's Command Radius (cavalry always, unless its leader
/// is dead), otherwise half with fractions dropped; doubled in the Strategic Movement
/// Segment, which ignores the Command Radius.
pub fn allowance<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    unit: usize,
    strategic: bool,
    conrad: bool,
) -> u32 {
    allowance_by(rules, pos, unit, strategic, conrad, None)
}

/// [`allowance`] with the enemy's zones of control by each hex's grid index (as
/// [`zoc::control`] gives them for the enemy of the unit's side), for the command radius.
pub fn allowance_in<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    unit: usize,
    strategic: bool,
    conrad: bool,
    enemy_control: &[bool],
) -> u32 {
    allowance_by(rules, pos, unit, strategic, conrad, Some(enemy_control))
}

/// [`allowance`], with the enemy's zones of control given or asked hex by hex.
fn allowance_by<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    unit: usize,
    strategic: bool,
    conrad: bool,
    enemy_control: Option<&[bool]>,
) -> u32 {
    let ma = rules.units[unit].movement as u32;
    if strategic {
        return 2 * ma * 2;
    }
    let leader_dead = (0..rules.leaders.len())
        .filter(|&l| leaders::commands(rules, l, conrad, rules.units[unit].contingent))
        .all(|l| pos.position().leaders[l].dead);
    let full = if rules.unit_type(unit).cavalry {
        !leader_dead
    } else if let Some(control) = enemy_control {
        leaders::within_twice_radius_in(rules, pos, unit, conrad, control)
    } else {
        leaders::within_twice_radius(rules, pos, unit, conrad)
    };
    if full {
        ma * 2
    } else {
        (ma / 2) * 2
    }
}

/// Acre 5.13, 5.51, 5.54, 15.11, 15.14, 12.12: whether a unit may end its movement in `hex`: one
/// combat unit a hex, beside one siege unit and one leader (5.52, checked where leaders move);
/// markers never count (5.55: they are not pieces of the position at all).
pub fn may_end_in<P: Pieces + ?Sized>(rules: &Rules, pos: &P, unit: usize, hex: Hex) -> bool {
    let side = rules.side_of(unit);
    if pos.unit_at(hex).is_some_and(|u| u != unit) {
        return false;
    }
    let cavalry = rules.unit_type(unit).cavalry;
    if cavalry && rules.map.is_wall_or_tower(hex) {
        return false;
    }
    let friendly_siege = pos
        .siege_at(hex)
        .is_some_and(|s| rules.siege[s].side == side);
    !(cavalry && friendly_siege)
}

/// Acre 5.0, 5.1, 5.11, 5.25, 6.2, 6.21, 6.22, 5.14: every hex a combat unit may end its move in,
/// with the cost in half Movement Points of its cheapest path (never a hex it lacks the points to
/// enter). A unit entering an enemy-controlled hex stops; a unit starting in one must first step to
/// a hex that is not.
pub fn destinations(
    rules: &Rules,
    pos: &Position,
    unit: usize,
    strategic: bool,
    conrad: bool,
) -> BTreeMap<Hex, u32> {
    let Some(start) = pos.hex_of(unit) else {
        return BTreeMap::new();
    };
    let mover = Mover::unit(rules, unit);
    let enemy = mover.side.enemy();
    let mut moved = pos.clone();
    moved.units[unit].at = crate::position::Location::OffMap;
    let budget = allowance(rules, pos, unit, strategic, conrad);
    let starts_controlled = zoc::controlled(rules, &moved, start, enemy);
    let reached = search(
        start,
        budget,
        |&h, out| {
            for n in rules.map.neighbours(h) {
                if h == start && starts_controlled && zoc::controlled(rules, &moved, n, enemy) {
                    continue;
                }
                if let Ok(c) = entry_cost(rules, &moved, mover, h, n) {
                    out.push((n, c));
                }
            }
        },
        |&h| !zoc::controlled(rules, &moved, h, enemy),
    );
    reached
        .iter()
        .filter(|(h, _)| *h != start && may_end_in(rules, &moved, unit, *h))
        .collect()
}

/// Acre 5.17, 12.23, 12.34: where a siege unit may be deployed in the Strategic Movement
/// Segment: Crusader engines between the outerworks and the foss (giant catapults and towers
/// not in an unfilled foss or the outerworks), Moslem small catapults anywhere in Acre.
pub fn may_deploy_siege(rules: &Rules, pos: &Position, siege: usize, hex: Hex) -> bool {
    if pos.siege_at(hex).is_some_and(|s| s != siege) {
        return false;
    }
    let s = &rules.siege[siege];
    match s.side {
        Side::Moslem => rules.map.in_acre(hex),
        Side::Crusader => {
            let between = rules.map.is_between(hex);
            let ditch = pos.unfilled_foss(rules, hex) || rules.map.class(hex) == Class::Outerworks;
            let big = matches!(s.kind, SiegeKind::GiantCatapult | SiegeKind::SiegeTower);
            between && !(big && ditch)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Location;
    use crate::test_support::{put, setup};

    #[test]
    fn wall_costs_half_a_point_along_the_wall() {
        let (r, mut p) = setup();
        let h = |s: &str| r.map.hex(s).unwrap();
        let m = Mover {
            side: Side::Moslem,
            combat: true,
            cavalry: false,
        };
        assert_eq!(entry_cost(&r, &p, m, h("1810"), h("1811")), Ok(1));
        assert_eq!(entry_cost(&r, &p, m, h("1910"), h("1810")), Ok(2));
        // A Crusader may not climb an enemy-controlled wall without ladders (5.24).
        put(&r, &mut p, "Mashtub Spearmen 1", "1812");
        let c = Mover {
            side: Side::Crusader,
            combat: true,
            cavalry: false,
        };
        assert!(entry_cost(&r, &p, c, h("1711"), h("1811")).is_err());
        // Breached: 2 points and open (5.22).
        p.damage.insert(h("1811"), 6);
        assert_eq!(entry_cost(&r, &p, c, h("1711"), h("1811")), Ok(4));
        // The unfilled foss costs 4, filled 2 (5.27).
        assert_eq!(entry_cost(&r, &p, c, h("1611"), h("1711")), Ok(8));
        p.filled.insert(h("1711"));
        assert_eq!(entry_cost(&r, &p, c, h("1611"), h("1711")), Ok(4));
        // Cavalry never into marsh (15.14).
        let cav = Mover {
            side: Side::Crusader,
            combat: true,
            cavalry: true,
        };
        assert!(entry_cost(&r, &p, cav, h("1005"), h("1004")).is_err());
    }

    #[test]
    fn far_from_the_leader_a_unit_moves_at_half() {
        let (r, mut p) = setup();
        let u = put(&r, &mut p, "English Men-at-Arms 1", "1420");
        let richard = r.leader("Richard").unwrap();
        p.leaders[richard].at = Location::Map(r.map.hex("1421").unwrap());
        assert_eq!(allowance(&r, &p, u, false, false), 8);
        p.leaders[richard].at = Location::Map(r.map.hex("2723").unwrap());
        assert_eq!(allowance(&r, &p, u, false, false), 4);
        assert_eq!(
            allowance(&r, &p, u, true, false),
            16,
            "5.16 strategic: double"
        );
        // Cavalry ignore the radius (14.12) until their leader dies (15.15): 7 becomes 3.
        let k = put(&r, &mut p, "English Knight Cavalry 1", "1422");
        assert_eq!(allowance(&r, &p, k, false, false), 14);
        p.leaders[richard].dead = true;
        assert_eq!(allowance(&r, &p, k, false, false), 6);
    }

    #[test]
    fn zones_of_control_stop_movement() {
        let (r, mut p) = setup();
        let u = put(&r, &mut p, "Taqi Spearmen 1", "0420");
        let richard = r.leader("Taqi").unwrap();
        p.leaders[richard].at = Location::Map(r.map.hex("0420").unwrap());
        put(&r, &mut p, "English Men-at-Arms 1", "0620");
        let d = destinations(&r, &p, u, false, false);
        // 0520 is next to the English: the spearmen may enter it but not go through it.
        let zoc_hex = r.map.hex("0520").unwrap();
        assert!(d.contains_key(&zoc_hex));
        // 0820 lies straight beyond: 4 hexes through the zone, 6 around it: out of reach.
        assert!(!d.contains_key(&r.map.hex("0820").unwrap()));
        assert!(d.len() > 20);
        // No destination holds another combat unit (5.51).
        assert!(!d.contains_key(&r.map.hex("0620").unwrap()));
    }
}
