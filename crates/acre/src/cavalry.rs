//! Cavalry and the naphtha grenadiers (15.0), with retreat before melee (10.2): the
//! announced charge along at least four clear hexes in a straight line (15.21), who may and
//! who must retreat before combat (the retreat itself: [`crate::retreat::start_before_combat`]),
//! the charger disrupted once its melee is resolved (15.21), and the grenadiers' four grenade
//! attacks that make the defender retreat (15.3).

use hexgrid::Hex;

use crate::map::Class;
use crate::rules::{Rules, Side};
use crate::{leaders, Position};

/// Acre 15.21, 15.24: whether a Crusader cavalry unit's move is a charge at the Moslem unit
/// in `target`: its path (the hexes entered, in order) ends with at least four Clear hexes
/// in one straight line, and it ends next to the target.
pub fn is_charge(
    rules: &Rules,
    pos: &Position,
    unit: usize,
    path: &[Hex],
    target: Hex,
) -> Result<(), String> {
    /// Acre 15.21: clear hexes in a straight line.
    const RUN: usize = 4;
    if rules.side_of(unit) != Side::Crusader || !rules.unit_type(unit).cavalry {
        return Err("only Crusader cavalry charge (15.2, 15.24)".into());
    }
    if pos.side_at(rules, target) != Some(Side::Moslem) {
        return Err("a charge is made at a Moslem unit (15.21)".into());
    }
    let start = pos.hex_of(unit).ok_or("the unit is not on the map")?;
    let mut hexes = vec![start];
    hexes.extend_from_slice(path);
    if path.len() < RUN {
        return Err(
            "a charge moves through at least four Clear hexes in a straight line (15.21)".into(),
        );
    }
    let tail = &hexes[hexes.len() - RUN - 1..];
    let dir = tail[0].direction_to(tail[1]);
    let straight = dir.is_some() && tail.windows(2).all(|w| w[0].direction_to(w[1]) == dir);
    let clear = tail[1..]
        .iter()
        .all(|h| rules.map.class(*h) == Class::Clear);
    if !straight || !clear {
        return Err(
            "the last four hexes of a charge must be Clear and in a straight line (15.21)".into(),
        );
    }
    if !hexes[hexes.len() - 1].is_adjacent(target) {
        return Err("a charge ends next to its target (15.21)".into());
    }
    Ok(())
}

/// Acre 15.21: a charging unit attacks at double its Melee Strength.
pub fn charge_strength(melee: u32) -> u32 {
    2 * melee
}

/// Acre 10.2, 10.22: whether a Moslem unit attacked in melee may retreat before combat:
/// units of nine Movement Points, the Naphtha Grenadiers and the Archers of the Eyes (these
/// two not against cavalry).
pub fn may_retreat_before_combat(rules: &Rules, defender: usize, attackers: &[usize]) -> bool {
    /// Acre 10.2: the Movement Allowance that may always retreat before combat.
    const FAST: u8 = 9;
    if rules.side_of(defender) != Side::Moslem {
        return false;
    }
    let ty = rules.unit_type(defender);
    if rules.units[defender].movement == FAST {
        return true;
    }
    let guard_specialist = ty.retreat_before_combat && !ty.cavalry;
    guard_specialist && !attackers.iter().any(|&a| rules.unit_type(a).cavalry)
}

/// Acre 10.23: horse archers outside their leader's Command Radius must retreat before
/// combat when threatened with melee.
pub fn must_retreat_before_combat(
    rules: &Rules,
    pos: &Position,
    defender: usize,
    conrad: bool,
) -> bool {
    rules.unit_type(defender).horse_archer && !leaders::in_command(rules, pos, defender, conrad)
}

/// Acre 10.21, 10.23: the least and most hexes of a retreat before combat: three to the full
/// Movement Allowance, or exactly the allowance plus three when forced.
pub fn retreat_before_combat_hexes(rules: &Rules, defender: usize, forced: bool) -> (u32, u32) {
    let ma = rules.units[defender].movement as u32;
    if forced {
        (ma + 3, ma + 3)
    } else {
        (3.min(ma), ma)
    }
}

/// Acre 15.3: whether the Naphtha Grenadiers have a grenade attack left.
pub fn grenade_left(rules: &Rules, used: u8) -> bool {
    used < rules.scenario.engineering.naphtha_grenades
}

/// Acre 15.21: "After the melee attack has been resolved, the Crusader unit is automatically
/// disrupted": call it once the charging unit's melee (and any advance after it) is over,
/// also when the target retreated before combat (the charge is spent: rules-notes).
pub fn disrupt_after_charge(pos: &mut Position, unit: usize) {
    pos.units[unit].disrupted = true;
}

/// Acre 15.3, 10.11, 10.13, 10.15, 10.3: checks a grenade attack by the Naphtha Grenadiers
/// on the Crusader combat unit in `target`, with `used` grenade attacks already made this
/// game: only the grenadiers make them, alone (15.3: "No other unit may make grenade
/// attacks"; no odds are reckoned, rules-notes), undisrupted (10.15), at an adjacent enemy,
/// four times a game. Returns whether the grenadiers must first mount the wall by ladder
/// ([`crate::melee::ladder_needed`]).
pub fn check_grenade_attack(
    rules: &Rules,
    pos: &Position,
    grenadier: usize,
    target: Hex,
    used: u8,
) -> Result<bool, String> {
    if !rules.unit_type(grenadier).grenadier {
        return Err(format!(
            "only the Naphtha Grenadiers make grenade attacks, not {} (15.3)",
            rules.units[grenadier].name
        ));
    }
    if pos.units[grenadier].disrupted {
        return Err("disrupted units may not attack (10.15)".into());
    }
    if !grenade_left(rules, used) {
        return Err(format!(
            "the Naphtha Grenadiers have made their {} grenade attacks (15.3)",
            rules.scenario.engineering.naphtha_grenades
        ));
    }
    if pos.side_at(rules, target) != Some(Side::Crusader) {
        return Err(format!(
            "a grenade attack is made at a Crusader combat unit, and {} holds none (10.13)",
            rules.map.id(target)
        ));
    }
    crate::melee::ladder_needed(rules, pos, grenadier, target)
}

/// Acre 15.3: the result of a grenade attack: the defending unit retreats, with no die
/// rolled. Apply it with [`crate::melee::apply_result`].
pub fn grenade_result() -> crate::rules::CombatResult {
    crate::rules::CombatResult::Retreat
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Location;
    use crate::test_support::setup;

    #[test]
    fn a_charge_needs_four_clear_hexes_in_line() {
        let (r, mut p) = setup();
        let h = |s: &str| r.map.hex(s).unwrap();
        let k = r.unit("English Knight Cavalry 1").unwrap();
        p.units[k].at = Location::Map(h("1420"));
        let t = r.unit("Taqi Spearmen 1").unwrap();
        p.units[t].at = Location::Map(h("1415"));
        let line = [h("1419"), h("1418"), h("1417"), h("1416")];
        assert_eq!(is_charge(&r, &p, k, &line, h("1415")), Ok(()));
        assert!(
            is_charge(&r, &p, k, &line[1..], h("1415")).is_err(),
            "three hexes"
        );
        let bent = [h("1419"), h("1418"), h("1417"), h("1517")];
        assert!(is_charge(&r, &p, k, &bent, h("1415")).is_err());
        assert_eq!(charge_strength(6), 12);
        // Men-at-arms never charge.
        let m = r.unit("English Men-at-Arms 1").unwrap();
        p.units[m].at = Location::Map(h("1420"));
        p.units[k].at = Location::OffMap;
        assert!(is_charge(&r, &p, m, &line, h("1415")).is_err());
    }

    #[test]
    fn who_may_retreat_before_combat() {
        let (r, _) = setup();
        let u = |n: &str| r.unit(n).unwrap();
        let knights = u("English Knight Cavalry 1");
        let foot = u("English Men-at-Arms 1");
        assert!(may_retreat_before_combat(
            &r,
            u("Isa Cavalry 1"),
            &[knights]
        ));
        assert!(may_retreat_before_combat(
            &r,
            u("Naphtha Grenadiers"),
            &[foot]
        ));
        assert!(!may_retreat_before_combat(
            &r,
            u("Naphtha Grenadiers"),
            &[foot, knights]
        ));
        assert!(!may_retreat_before_combat(
            &r,
            u("Taqi Spearmen 1"),
            &[foot]
        ));
        assert_eq!(
            retreat_before_combat_hexes(&r, u("Isa Horse Archers 1"), true),
            (12, 12)
        );
        assert!(grenade_left(&r, 3) && !grenade_left(&r, 4));
    }

    #[test]
    fn four_grenade_attacks_each_make_the_defender_retreat() {
        let (r, mut p) = setup();
        let g = crate::test_support::put(&r, &mut p, "Naphtha Grenadiers", "1415");
        let e = crate::test_support::put(&r, &mut p, "English Men-at-Arms 1", "1416");
        let target = r.map.hex("1416").unwrap();
        assert_eq!(check_grenade_attack(&r, &p, g, target, 3), Ok(false));
        assert!(
            check_grenade_attack(&r, &p, g, target, 4).is_err(),
            "four a game"
        );
        let spear = crate::test_support::put(&r, &mut p, "Taqi Spearmen 1", "1417");
        assert!(
            check_grenade_attack(&r, &p, spear, target, 0).is_err(),
            "grenadiers only"
        );
        assert!(check_grenade_attack(&r, &p, g, r.map.hex("1418").unwrap(), 0).is_err());
        p.units[g].disrupted = true;
        assert!(check_grenade_attack(&r, &p, g, target, 0).is_err(), "10.15");
        p.units[g].disrupted = false;
        assert_eq!(
            crate::melee::apply_result(&r, &mut p, e, grenade_result()),
            crate::melee::Applied::Retreat {
                step_loss_allowed: false
            }
        );
        // A Crusader on the wall is reached by ladder from the street.
        let w = crate::test_support::put(&r, &mut p, "English Men-at-Arms 2", "1811");
        p.units[g].at = Location::Map(r.map.hex("1911").unwrap());
        assert_eq!(
            check_grenade_attack(&r, &p, g, r.map.hex("1811").unwrap(), 0),
            Ok(true)
        );
        assert!(p.hex_of(w).is_some());
    }

    #[test]
    fn a_charger_is_disrupted_after_its_melee() {
        let (r, mut p) = setup();
        let k = crate::test_support::put(&r, &mut p, "English Knight Cavalry 1", "1416");
        disrupt_after_charge(&mut p, k);
        assert!(p.units[k].disrupted);
    }
}
