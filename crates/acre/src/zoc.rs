//! Zones of Control (6.0): which hexes a combat unit controls, with the all-sea hexside,
//! foss and outerworks, wall and siege-tower limits.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::{Arc, Weak};

use hexgrid::Hex;

use crate::map::Class;
use crate::position::{Board, Pieces};
use crate::rules::{Rules, Side, SiegeKind};

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

/// Acre 6.0, 6.26: by each hex's grid index, whether a combat unit of `by` controls it: the
/// answers of [`controlled`] for the whole map at once, worked out from the units of `by`
/// (the first by index in a hex, as [`Pieces::unit_at`] answers) rather than hex by hex.
pub fn control<P: Pieces + ?Sized>(rules: &Rules, pos: &P, by: Side) -> Vec<bool> {
    let grid = rules.map.grid;
    let p = pos.position();
    let mut out = vec![false; grid.len()];
    for (u, unit) in p.units.iter().enumerate() {
        let Some(from) = unit.at.hex() else { continue };
        if rules.side_of(u) != by || rules.map.index(from).is_none() || pos.unit_at(from) != Some(u)
        {
            continue;
        }
        // The checks of [`exerts_into`] that ask only of the unit's own hex, once.
        // 6.11: not while stacked with a siege tower.
        if pos.siege_tower_at(rules, from, by) {
            continue;
        }
        let from_ditch = p.unfilled_foss(rules, from) || rules.map.class(from) == Class::Outerworks;
        let from_wall = p.unbreached_wall(rules, from);
        for into in rules.map.neighbours(from) {
            let Some(k) = rules.map.index(into) else {
                continue;
            };
            if out[k] || rules.map.all_sea_between(from, into) {
                continue;
            }
            if from_ditch && !matches!(rules.map.class(into), Class::Foss | Class::Outerworks) {
                continue;
            }
            if !from_wall && p.unbreached_wall(rules, into) {
                continue;
            }
            out[k] = true;
        }
    }
    out
}

/// A [`control`] table kept with everything it depends on: the rules, the side, and for
/// each of its units where it stands, whether it is the first unit there and whether a
/// friendly siege tower stands with it, and the filled foss and wall damage.
struct Kept {
    rules: Weak<Rules>,
    by: Side,
    /// How many units the position had.
    count: usize,
    /// The units of `by`, in index order (they depend on the rules alone).
    of: Vec<usize>,
    /// The [`standing`] of each unit of `of`, in the same order.
    units: Vec<u32>,
    filled: BTreeSet<Hex>,
    damage: BTreeMap<Hex, u8>,
    caved_in: BTreeSet<Hex>,
    table: Rc<Vec<bool>>,
}

thread_local! {
    /// The last [`control`] tables worked out on this thread, one a side: a side's zones
    /// stay as they are while the other side moves.
    static KEPT: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
}

/// Everything of a unit of `by` that [`control`] asks, from the board's table: its hex's
/// grid index (plus one; 0 off the map), whether it is the first unit there and whether a
/// siege tower of `by` stands with it.
#[inline]
fn standing(rules: &Rules, pos: &Board, by: Side, unit: usize) -> u32 {
    let p = pos.position();
    let Some(k) = p.units[unit].at.hex().and_then(|h| rules.map.index(h)) else {
        return 0;
    };
    let [first, _, siege] = pos.cell(k);
    let tower = siege
        .is_some_and(|e| rules.siege[e].kind == SiegeKind::SiegeTower && rules.siege[e].side == by);
    (k as u32 + 1) << 2 | u32::from(first == Some(unit)) << 1 | u32::from(tower)
}

/// [`control`], kept on this thread for the next ask with the same units of `by` standing
/// as they do (the other side's moves change nothing here). A kept table is checked
/// against the units of `by` it lists, unit by unit, without listing them again.
pub fn control_kept(rules: &Arc<Rules>, pos: &Board, by: Side) -> Rc<Vec<bool>> {
    let p = pos.position();
    let same = |k: &Kept| {
        k.by == by
            && k.rules.as_ptr() == Arc::as_ptr(rules)
            && k.rules.strong_count() > 0
            && k.count == p.units.len()
            && k.filled == p.filled
            && k.damage == p.damage
            && k.caved_in == p.caved_in
            && k.of
                .iter()
                .zip(&k.units)
                .all(|(&u, &was)| standing(rules, pos, by, u) == was)
    };
    if let Some(table) = KEPT.with(|kept| {
        kept.borrow()
            .iter()
            .find(|k| same(k))
            .map(|k| Rc::clone(&k.table))
    }) {
        return table;
    }
    let of: Vec<usize> = (0..p.units.len())
        .filter(|&u| rules.side_of(u) == by)
        .collect();
    let units = of.iter().map(|&u| standing(rules, pos, by, u)).collect();
    let table = Rc::new(control(rules, pos, by));
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        kept.retain(|k| k.by != by);
        kept.push(Kept {
            rules: Arc::downgrade(rules),
            by,
            count: p.units.len(),
            of,
            units,
            filled: p.filled.clone(),
            damage: p.damage.clone(),
            caved_in: p.caved_in.clone(),
            table: Rc::clone(&table),
        });
    });
    table
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
