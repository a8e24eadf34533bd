//! Zones of Control (6.0): which hexes a combat unit controls, with the all-sea hexside,
//! foss and outerworks, wall and siege-tower limits.

use hexgrid::Hex;

use crate::map::Class;
use crate::position::Pieces;
use crate::rules::{Rules, Side};

/// Acre 6.1: whether the combat unit in `from` exerts a Zone of Control into the adjacent
/// hex `into`.
pub fn exerts_into<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    unit: usize,
    from: Hex,
    into: Hex,
) -> bool {
    if !from.is_adjacent(into) || !rules.map.on_map(into) {
        return false;
    }
    let side = rules.side_of(unit);
    // 6.11: not while stacked with a siege tower.
    if pos.siege_tower_at(rules, from, side) {
        return false;
    }
    // 6.12: never through an all-sea hexside.
    if rules.map.all_sea_between(from, into) {
        return false;
    }
    // 6.13: from an unfilled foss or outerworks hex only into foss or outerworks hexes.
    let p = pos.position();
    let from_ditch = p.unfilled_foss(rules, from) || rules.map.class(from) == Class::Outerworks;
    if from_ditch && !matches!(rules.map.class(into), Class::Foss | Class::Outerworks) {
        return false;
    }
    // 6.14: only a unit in an unbreached Wall or Tower hex controls unbreached Wall or Tower
    // hexes.
    if p.unbreached_wall(rules, into) && !p.unbreached_wall(rules, from) {
        return false;
    }
    true
}

/// Acre 6.0, 6.26: whether a combat unit of `by` controls the hex (one is enough).
pub fn controlled<P: Pieces + ?Sized>(rules: &Rules, pos: &P, hex: Hex, by: Side) -> bool {
    rules.map.neighbours(hex).any(|n| {
        pos.unit_at(n)
            .is_some_and(|u| rules.side_of(u) == by && exerts_into(rules, pos, u, n, hex))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Location;
    use crate::test_support::{put, setup};

    #[test]
    fn walls_shut_out_zones_of_control_from_below() {
        let (r, mut p) = setup();
        // A Crusader in the foss at 1710 does not control the Prison Tower 1810 (6.13, 6.14),
        // and the garrison on the tower controls the foss below it.
        put(&r, &mut p, "English Men-at-Arms 1", "1710");
        put(&r, &mut p, "Mashtub Spearmen 1", "1810");
        let prison = r.map.hex("1810").unwrap();
        let foss = r.map.hex("1710").unwrap();
        assert!(!controlled(&r, &p, prison, Side::Crusader));
        assert!(controlled(&r, &p, foss, Side::Moslem));
        // From the foss, a unit controls only foss and outerworks hexes (6.13): not the clear
        // hex 1610 behind it.
        let clear = r.map.hex("1610").unwrap();
        p.units[r.unit("Mashtub Spearmen 1").unwrap()].at = Location::OffMap;
        put(&r, &mut p, "Taqi Spearmen 1", "1709");
        assert!(!controlled(&r, &p, clear, Side::Moslem));
        assert!(controlled(&r, &p, foss, Side::Moslem));
    }

    #[test]
    fn a_breach_lets_zones_of_control_in() {
        let (r, mut p) = setup();
        put(&r, &mut p, "English Men-at-Arms 1", "1611");
        p.filled.insert(r.map.hex("1710").unwrap());
        put(&r, &mut p, "Anjou Men-at-Arms 1", "1710");
        let wall = r.map.hex("1811").unwrap();
        assert!(!controlled(&r, &p, wall, Side::Crusader));
        p.damage.insert(wall, 6);
        assert!(controlled(&r, &p, wall, Side::Crusader));
    }

    #[test]
    fn no_zone_of_control_across_the_harbour_mouth_or_from_a_siege_tower() {
        let (r, mut p) = setup();
        put(&r, &mut p, "Mashtub Bowmen 1", "2104");
        assert!(!controlled(
            &r,
            &p,
            r.map.hex("2105").unwrap(),
            Side::Moslem
        ));
        let u = put(&r, &mut p, "English Men-at-Arms 1", "1420");
        let at = r.map.hex("1420").unwrap();
        let n = r.map.hex("1421").unwrap();
        assert!(exerts_into(&r, &p, u, at, n));
        let tower = r
            .siege
            .iter()
            .position(|s| s.name == "Siege Tower 1")
            .unwrap();
        p.siege[tower].at = Location::Map(at);
        assert!(!exerts_into(&r, &p, u, at, n));
    }
}
