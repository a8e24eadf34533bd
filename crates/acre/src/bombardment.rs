//! Bombardment, counter-bombardment and wall repair (8.0): allocations checked before any
//! die is rolled, the Bombardment, Counter-Bombardment and Wall Repair Tables, and the
//! addenda rule that each later engineer point reads the repaired column.

use std::collections::BTreeSet;

use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::position::Location;
use crate::rules::{Rules, Side, SiegeKind};
use crate::Position;

/// Acre 8.11, 8.12, 8.13, 12.22: checks a complete allocation of giant catapults to Wall or
/// Tower hexes: each catapult on the map fires at most once, at a Wall/Tower hex within
/// range. Returns the reason for the first fault.
pub fn check_bombardment(
    rules: &Rules,
    pos: &Position,
    shots: &[(usize, Hex)],
) -> Result<(), String> {
    let mut used = BTreeSet::new();
    for &(engine, target) in shots {
        let s = rules.siege.get(engine).ok_or("no such siege unit")?;
        if s.kind != SiegeKind::GiantCatapult || s.side != Side::Crusader {
            return Err(format!("{} is not a giant catapult (8.11)", s.name));
        }
        let Location::Map(at) = pos.siege[engine].at else {
            return Err(format!("{} is not on the map (8.23)", s.name));
        };
        if !used.insert(engine) {
            return Err(format!(
                "{} may fire at only one hex a Game-Turn (8.12)",
                s.name
            ));
        }
        if !rules.map.is_wall_or_tower(target) {
            return Err(format!(
                "{} is not a Wall or Tower hex (8.17)",
                rules.map.id(target)
            ));
        }
        if at.distance(target) > rules.tables.bombardment_range {
            return Err(format!(
                "{} is beyond the giant catapult's range of {} hexes (8.13)",
                rules.map.id(target),
                rules.tables.bombardment_range
            ));
        }
    }
    Ok(())
}

/// Acre 8.4, 8.14: one giant catapult's bombardment: the Breach Points of the roll added to
/// the hex, never above the breach level. Returns the points inflicted.
pub fn bombard(rules: &Rules, pos: &mut Position, target: Hex, roll: u8) -> u8 {
    let points = rules.tables.bombardment[(roll.clamp(1, 6) - 1) as usize];
    let level = pos.damage.entry(target).or_insert(0);
    *level = (*level + points).min(rules.tables.breach_level);
    points
}

/// Acre 8.21, 8.22, 12.33: checks a complete allocation of small catapults to giant
/// catapults: each Moslem small catapult on a Wall/Tower hex fires at most once, at a giant
/// catapult on the map within range.
pub fn check_counter_bombardment(
    rules: &Rules,
    pos: &Position,
    shots: &[(usize, usize)],
) -> Result<(), String> {
    let mut used = BTreeSet::new();
    for &(catapult, target) in shots {
        let (Some(c), Some(t)) = (rules.siege.get(catapult), rules.siege.get(target)) else {
            return Err("no such siege unit".into());
        };
        if c.kind != SiegeKind::SmallCatapult || c.side != Side::Moslem {
            return Err(format!("{} is not a Moslem small catapult (8.21)", c.name));
        }
        if t.kind != SiegeKind::GiantCatapult {
            return Err(format!("{} is not a giant catapult (8.24)", t.name));
        }
        let (Location::Map(from), Location::Map(to)) =
            (pos.siege[catapult].at, pos.siege[target].at)
        else {
            return Err("both catapults must be on the map".into());
        };
        if !rules.map.is_wall_or_tower(from) {
            return Err(format!("{} is not on a Wall or Tower hex (8.22)", c.name));
        }
        if !used.insert(catapult) {
            return Err(format!("{} fires once (8.21)", c.name));
        }
        if from.distance(to) > rules.tables.counter_bombardment_range {
            return Err(format!("{} is out of range (8.22)", t.name));
        }
    }
    Ok(())
}

/// Acre 8.5, 8.23, 12.24: one counter-bombardment: on a damaging roll the giant catapult
/// leaves the map and returns in the Strategic Movement Segment two Game-Turns later.
/// Returns whether it was damaged.
pub fn counter_bombard(
    rules: &Rules,
    pos: &mut Position,
    target: usize,
    roll: u8,
    turn: u8,
) -> bool {
    /// Acre 8.23: damaged giant catapults return after two Game-Turns.
    const OUT_FOR: u8 = 2;
    let damaged = rules.tables.counter_bombardment.contains(&roll);
    if damaged {
        pos.siege[target].at = Location::OffMap;
        pos.siege[target].returns_on = Some(turn + OUT_FOR);
    }
    damaged
}

/// One engineer point's repair roll and what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairStep {
    /// The die.
    pub roll: u8,
    /// The damage level before it.
    pub before: u8,
    /// Points repaired.
    pub repaired: u8,
}

/// Acre 8.31: checks that repair points go to damaged Wall/Tower hexes that may be repaired
/// (not a wall caved in by a tunnel, 13.28) and that no more are used than were allocated.
pub fn check_repair(
    rules: &Rules,
    pos: &Position,
    allocation: &[Hex],
    allocated: u8,
) -> Result<(), String> {
    if allocation.len() > allocated as usize {
        return Err(format!(
            "only {allocated} Engineer Points were allocated to wall repair (8.31)"
        ));
    }
    for &h in allocation {
        if !rules.map.is_wall_or_tower(h) {
            return Err(format!(
                "{} is not a Wall or Tower hex (8.31)",
                rules.map.id(h)
            ));
        }
        if pos.caved_in.contains(&h) {
            return Err(format!(
                "{} was caved in by a tunnel and cannot be repaired (13.28)",
                rules.map.id(h)
            ));
        }
    }
    Ok(())
}

/// Acre 8.32, 8.6, Addenda to 8.3 and 12.2: repairs a hex with one roll per engineer point,
/// in order; each roll reads the column of the damage level as it then stands, so a point
/// after a successful one may read the 1-4 column; a breach (level 6) may be repaired; the
/// level never goes below zero.
pub fn repair(rules: &Rules, pos: &mut Position, hex: Hex, rolls: &[u8]) -> Vec<RepairStep> {
    let t = &rules.tables;
    let mut steps = Vec::new();
    for &roll in rolls {
        let before = pos.damage.get(&hex).copied().unwrap_or(0);
        let i = (roll.clamp(1, 6) - 1) as usize;
        let repaired = if before >= t.repair_high_from {
            t.repair_high[i]
        } else {
            t.repair_low[i]
        }
        .min(before);
        pos.damage.insert(hex, before - repaired);
        steps.push(RepairStep {
            roll,
            before,
            repaired,
        });
    }
    steps
}
