//! Regrouping (11.0): isolation by lines of communication to a friendly base (11.1), and the
//! pairing of identical units in the Regrouping Box (11.2).

use std::collections::BTreeSet;

use hexgrid::Hex;

use crate::position::Location;
use crate::rules::{Army, Rules, Side};
use crate::{zoc, Position};

/// Acre 11.13: whether a hex is a friendly base for a unit of `side`: any camp hex for the
/// Crusaders; any north or east edge hex for the Moslem army.
pub fn is_base(rules: &Rules, side: Side, hex: Hex) -> bool {
    match side {
        Side::Crusader => rules.map.camp(hex).is_some(),
        Side::Moslem => {
            rules.map.area("north_edge").contains(&hex)
                || rules.map.area("east_edge").contains(&hex)
        }
    }
}

/// Acre 11.11, 11.12, 11.14: whether a unit on the map is isolated: no path of contiguous
/// hexes to a friendly base free of impassable terrain, enemy units and enemy zones of
/// control. Garrison units are never isolated.
pub fn isolated(rules: &Rules, pos: &Position, unit: usize) -> bool {
    let Some(start) = pos.hex_of(unit) else {
        return false;
    };
    let side = rules.side_of(unit);
    if rules.contingent_of(unit).army == Some(Army::Garrison) {
        return false;
    }
    let open = |h: Hex| {
        pos.effects(rules, h).cost.is_some()
            && pos.side_at(rules, h) != Some(side.enemy())
            && !zoc::controlled(rules, pos, h, side.enemy())
    };
    if is_base(rules, side, start) {
        return false;
    }
    let mut seen = BTreeSet::from([start]);
    let mut stack = vec![start];
    while let Some(h) = stack.pop() {
        for n in rules.map.neighbours(h) {
            if seen.contains(&n) || rules.map.all_sea_between(h, n) || !open(n) {
                continue;
            }
            if is_base(rules, side, n) {
                return false;
            }
            seen.insert(n);
            stack.push(n);
        }
    }
    true
}

/// Acre 11.2: whether two units in the Regrouping Box make a pair: the same type, strength
/// and nationality (for the Moslems, the same army).
pub fn pairable(rules: &Rules, a: usize, b: usize) -> bool {
    let (ua, ub) = (&rules.units[a], &rules.units[b]);
    let (ca, cb) = (rules.contingent_of(a), rules.contingent_of(b));
    a != b
        && ca.side == cb.side
        && ua.unit_type == ub.unit_type
        && ua.melee == ub.melee
        && ua.movement == ub.movement
        && ca.nationality == cb.nationality
        && ca.army == cb.army
}

/// Acre 11.2: every pair the Box holds, matched in counter order: the first of each pair
/// returns to play (a garrison unit at full strength), the second is destroyed. A player may
/// not refuse to regroup a pair.
pub fn pairs(rules: &Rules, pos: &Position) -> Vec<(usize, usize)> {
    let mut waiting: Vec<usize> = (0..rules.units.len())
        .filter(|&u| pos.units[u].at == Location::Regrouping)
        .collect();
    let mut out = Vec::new();
    while let Some(a) = waiting.first().copied() {
        waiting.remove(0);
        if let Some(i) = waiting.iter().position(|&b| pairable(rules, a, b)) {
            out.push((a, waiting.remove(i)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{put, setup};

    #[test]
    fn cut_off_from_the_camps_is_isolated() {
        let (r, mut p) = setup();
        let u = put(&r, &mut p, "English Men-at-Arms 1", "0420");
        assert!(!isolated(&r, &p, u));
        // Two Moslem units two hexes away leave a way round; surrounding it does not.
        let at = r.map.hex("0420").unwrap();
        let ring: Vec<_> = r.map.neighbours(at).collect();
        let moslems: Vec<usize> = (0..r.units.len())
            .filter(|&m| r.contingent_of(m).army == Some(Army::Sinjan))
            .take(ring.len())
            .collect();
        p.units[moslems[0]].at = Location::Map(r.map.hex("0618").unwrap());
        p.units[moslems[1]].at = Location::Map(r.map.hex("0222").unwrap());
        assert!(!isolated(&r, &p, u));
        for (m, h) in moslems.iter().zip(&ring) {
            p.units[*m].at = Location::Map(*h);
        }
        assert!(isolated(&r, &p, u));
        // Garrison units never are (11.14).
        let g = put(&r, &mut p, "Mashtub Spearmen 1", "0520");
        assert!(!isolated(&r, &p, g));
    }

    #[test]
    fn only_identical_units_pair() {
        let (r, mut p) = setup();
        for n in [
            "English Men-at-Arms 1",
            "Norman Men-at-Arms 1",
            "Anjou Men-at-Arms 1",
            "German Knights 1",
        ] {
            p.units[r.unit(n).unwrap()].at = Location::Regrouping;
        }
        let pairs = pairs(&r, &p);
        assert_eq!(
            pairs.len(),
            1,
            "English and Norman men-at-arms: both English"
        );
        assert!(!pairable(
            &r,
            r.unit("English Men-at-Arms 1").unwrap(),
            r.unit("Anjou Men-at-Arms 1").unwrap()
        ));
    }
}
