//! Fire combat (9.0, 9.1): line of sight blocked by camps, walls and towers and along their
//! hexsides (9.11, 9.12), the Range Attenuation Table (9.4), the Fire Combat Results Table
//! with its die-roll modifiers (9.5), and who may fire at what (9.13, 12.14, 12.16, 12.31,
//! 12.32, 15.23). Results are applied together after every fire is resolved (9.2): the
//! retreats by [`crate::retreat`].

use hexgrid::{line_between, Hex, LosCell};
use serde::{Deserialize, Serialize};

use crate::map::Class;
use crate::rules::{CombatResult, Kind, Rules, Side, SiegeKind};
use crate::Position;

/// Something that fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Firer {
    /// A fire unit (index into [`Rules::units`]).
    Unit(usize),
    /// A small catapult or ballista (index into [`Rules::siege`], 12.31).
    Siege(usize),
}

/// Acre 9.11, 9.12: whether a line of sight runs between two hex centres: it may not pass
/// through a Camp, Wall or Tower hex (breached or not), nor along a hexside of one. Units in
/// the way do not block.
pub fn line_of_sight(rules: &Rules, from: Hex, to: Hex) -> bool {
    let blocks = |h: Hex| rules.map.terrain(h).blocks_los;
    line_between(from, to).into_iter().all(|cell| match cell {
        LosCell::Hex(h) => !blocks(h),
        LosCell::Hexside(a, b) => !blocks(a) && !blocks(b),
    })
}

/// Acre 9.4: the Range Attenuation Rating of a fire class at a range (`None`: no effect or
/// out of range).
pub fn rating(rules: &Rules, fire_class: &str, range: u32) -> Option<u8> {
    let row = rules.tables.range.get(fire_class)?;
    match range {
        1..=4 => row[range as usize - 1],
        _ => None,
    }
}

/// Acre 9.5, 12.14: the die-roll modifier for fire at a unit: its hex's terrain (marsh,
/// ravine, unfilled foss and outerworks +1; wall and tower -1, the Accursed and Prison
/// Towers -2, the Castle -3; a breach changes nothing), +1 at German knights; a Wall hex
/// (not a Tower) gives no benefit against fire from a hex with a siege tower.
pub fn target_modifier(rules: &Rules, pos: &Position, target: usize, firer_at: Hex) -> i32 {
    let Some(at) = pos.hex_of(target) else {
        return 0;
    };
    let mut m = pos.effects(rules, at).fire;
    if rules.map.class(at) == Class::Wall
        && pos.siege_tower_at(rules, firer_at, rules.side_of(target).enemy())
    {
        m = 0;
    }
    if rules.unit_type(target).german_knight {
        m += rules.tables.german_knights_fire;
    }
    m
}

/// Acre 9.5: the result of one fire at a rating with the roll and modifier (a modified roll
/// outside 1-6 reads the nearest row, as 10.8's note says for melee).
pub fn result(rules: &Rules, rating: u8, roll: u8, modifier: i32) -> CombatResult {
    rules
        .tables
        .fire
        .get(roll as i32 + modifier, rating as usize - 1)
}

/// Where a firer stands, its side and fire class.
fn firer_facts<'a>(
    rules: &'a Rules,
    pos: &Position,
    firer: Firer,
) -> Result<(Hex, Side, &'a str, bool), String> {
    match firer {
        Firer::Unit(u) => {
            let ty = rules.unit_type(u);
            if ty.kind != Kind::Fire {
                return Err(format!(
                    "{} is a melee unit: only fire units fire (9.0)",
                    rules.units[u].name
                ));
            }
            let at = pos.hex_of(u).ok_or("the unit is not on the map")?;
            Ok((
                at,
                rules.side_of(u),
                ty.fire_class.as_deref().unwrap_or_default(),
                false,
            ))
        }
        Firer::Siege(s) => {
            let siege = &rules.siege[s];
            let class = match siege.kind {
                SiegeKind::SmallCatapult => "small_catapult",
                SiegeKind::Ballista => "ballista",
                _ => {
                    return Err(format!(
                        "{} does not fire in the Assault Phase (9.0, 12.21)",
                        siege.name
                    ))
                }
            };
            let at = pos.siege[s]
                .at
                .hex()
                .ok_or("the engine is not on the map")?;
            Ok((at, siege.side, class, true))
        }
    }
}

/// Acre 9.0, 9.11, 9.13, 9.4, 12.16, 12.31, 12.32, 15.23: checks a fire at the enemy combat
/// unit in `target` and returns the Range Attenuation Rating it fires at. Disrupted units
/// may fire (Addenda to 9.23). `charging` lists the cavalry charging this Impulse.
pub fn check_fire(
    rules: &Rules,
    pos: &Position,
    firer: Firer,
    target: Hex,
    charging: &[usize],
) -> Result<u8, String> {
    check_fire_seen(rules, pos, firer, target, charging, |from, to| {
        line_of_sight(rules, from, to)
    })
}

/// [`check_fire`] with the lines of sight of [`line_of_sight`] asked of `sight` (from the
/// firer's hex to the target's), which may keep them.
pub fn check_fire_seen(
    rules: &Rules,
    pos: &Position,
    firer: Firer,
    target: Hex,
    charging: &[usize],
    sight: impl FnOnce(Hex, Hex) -> bool,
) -> Result<u8, String> {
    let (at, side, class, engine) = firer_facts(rules, pos, firer)?;
    let id = || rules.map.id(target);
    let unit = pos
        .unit_at(target)
        .filter(|&u| rules.side_of(u) != side)
        .ok_or_else(|| format!("no enemy combat unit in {} (9.21, 12.31)", id()))?;
    if charging.contains(&unit) {
        return Err(format!(
            "{} is charging and may not be fired at (15.23)",
            rules.units[unit].name
        ));
    }
    let small_catapult = class == "small_catapult";
    if engine && side == Side::Crusader && rules.map.is_wall_or_tower(target) {
        return Err(format!("Crusader catapults and ballistae may not fire at units in Wall/Tower hexes ({}, 12.32)", id()));
    }
    if side == Side::Moslem && !small_catapult && pos.siege_tower_at(rules, target, Side::Crusader)
    {
        return Err(format!(
            "the unit in {} is with a siege tower: only small catapults may fire at it (12.16)",
            id()
        ));
    }
    let range = at.distance(target);
    let r = rating(rules, class, range).ok_or_else(|| {
        format!(
            "{} is {range} hexes away: no effect at that range (9.4)",
            id()
        )
    })?;
    if !sight(at, target) {
        return Err(format!("no line of sight to {} (9.11, 9.12)", id()));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Location;
    use crate::test_support::{put, setup};

    #[test]
    fn camps_and_walls_block_sight_but_units_do_not() {
        let (r, mut p) = setup();
        let h = |s: &str| r.map.hex(s).unwrap();
        // Through the English camp at 1118-1120.
        assert!(!line_of_sight(&r, h("1019"), h("1219")));
        // Open ground, with a unit in the way.
        put(&r, &mut p, "Taqi Spearmen 1", "0320");
        assert!(line_of_sight(&r, h("0220"), h("0420")));
        // From the wall out: the firer's own wall hex does not block.
        assert!(line_of_sight(&r, h("1810"), h("1610")));
    }

    #[test]
    fn fire_reads_range_terrain_and_targets() {
        let (r, mut p) = setup();
        let bow = put(&r, &mut p, "Mashtub Bowmen 1", "1810");
        put(&r, &mut p, "English Men-at-Arms 1", "1610");
        let knights = put(&r, &mut p, "German Knights 1", "1710");
        // Bowmen at 1 hex: rating 3; at 2: rating 2 (9.4).
        assert_eq!(
            check_fire(&r, &p, Firer::Unit(bow), r.map.hex("1710").unwrap(), &[]),
            Ok(3)
        );
        assert_eq!(
            check_fire(&r, &p, Firer::Unit(bow), r.map.hex("1610").unwrap(), &[]),
            Ok(2)
        );
        // German knights in the unfilled foss: +1 +1 (9.5).
        assert_eq!(
            target_modifier(&r, &p, knights, r.map.hex("1810").unwrap()),
            2
        );
        p.filled.insert(r.map.hex("1710").unwrap());
        assert_eq!(
            target_modifier(&r, &p, knights, r.map.hex("1810").unwrap()),
            1
        );
        // A charging unit may not be fired at (15.23); melee units do not fire.
        assert!(check_fire(
            &r,
            &p,
            Firer::Unit(bow),
            r.map.hex("1710").unwrap(),
            &[knights]
        )
        .is_err());
        assert!(check_fire(
            &r,
            &p,
            Firer::Unit(knights),
            r.map.hex("1810").unwrap(),
            &[]
        )
        .is_err());
        // 9.5 row 4 at rating 4 is R; the Castle's -3 turns a 6 at rating 1 into no effect.
        assert_eq!(result(&r, 4, 4, 0), CombatResult::Retreat);
        assert_eq!(result(&r, 1, 6, -3), CombatResult::NoEffect);
    }

    #[test]
    fn a_siege_tower_strips_a_wall_but_not_a_tower() {
        let (r, mut p) = setup();
        let wall = put(&r, &mut p, "Mashtub Spearmen 1", "1811");
        let tower = put(&r, &mut p, "Mashtub Spearmen 2", "1812");
        let from = r.map.hex("1711").unwrap();
        assert_eq!(target_modifier(&r, &p, wall, from), -1);
        let st = r
            .siege
            .iter()
            .position(|s| s.name == "Siege Tower 1")
            .unwrap();
        p.siege[st].at = Location::Map(from);
        assert_eq!(target_modifier(&r, &p, wall, from), 0);
        assert_eq!(target_modifier(&r, &p, tower, from), -1);
    }

    #[test]
    fn crusader_engines_never_fire_at_the_walls() {
        let (r, mut p) = setup();
        put(&r, &mut p, "Mashtub Spearmen 1", "1811");
        let b = r.siege.iter().position(|s| s.name == "Ballista 1").unwrap();
        p.siege[b].at = Location::Map(r.map.hex("1511").unwrap());
        assert!(check_fire(&r, &p, Firer::Siege(b), r.map.hex("1811").unwrap(), &[]).is_err());
        put(&r, &mut p, "Taqi Spearmen 1", "1311");
        assert_eq!(
            check_fire(&r, &p, Firer::Siege(b), r.map.hex("1311").unwrap(), &[]),
            Ok(1)
        );
    }
}
