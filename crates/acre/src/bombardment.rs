//! Bombardment, counter-bombardment and wall repair (8.0): allocations checked before any
//! die is rolled, the Bombardment, Counter-Bombardment and Wall Repair Tables, and the
//! addenda rule that each later engineer point reads the repaired column. With them the
//! siege engines' losses (12.13, 12.17, 12.23, 12.24, 12.34): what an enemy combat unit
//! does to an engine it attacks or passes through, when a damaged engine returns and where
//! it may be placed then.

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
    match bombardment_fault(rules, pos, shots) {
        None => Ok(()),
        Some(fault) => Err(fault.text(rules)),
    }
}

/// Acre 8.11, 8.12, 8.13, 12.22: whether [`check_bombardment`] accepts the allocation, without
/// its reason in words.
pub fn bombardment_allowed(rules: &Rules, pos: &Position, shots: &[(usize, Hex)]) -> bool {
    bombardment_fault(rules, pos, shots).is_none()
}

/// The first fault [`check_bombardment`] finds in an allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BombardmentFault {
    /// No siege unit of that index.
    NoSuchUnit,
    /// 8.11: the siege unit is not a giant catapult.
    NotGiantCatapult(usize),
    /// 8.23: the catapult is not on the map.
    NotOnMap(usize),
    /// 8.12: the catapult fires twice.
    Twice(usize),
    /// 8.17: the target is not a Wall or Tower hex.
    NotWall(Hex),
    /// 8.13: the target is out of range.
    OutOfRange(Hex),
}

impl BombardmentFault {
    /// The fault in words.
    fn text(self, rules: &Rules) -> String {
        let name = |e: usize| &rules.siege[e].name;
        match self {
            BombardmentFault::NoSuchUnit => "no such siege unit".to_string(),
            BombardmentFault::NotGiantCatapult(e) => {
                format!("{} is not a giant catapult (8.11)", name(e))
            }
            BombardmentFault::NotOnMap(e) => format!("{} is not on the map (8.23)", name(e)),
            BombardmentFault::Twice(e) => {
                format!("{} may fire at only one hex a Game-Turn (8.12)", name(e))
            }
            BombardmentFault::NotWall(target) => {
                format!("{} is not a Wall or Tower hex (8.17)", rules.map.id(target))
            }
            BombardmentFault::OutOfRange(target) => format!(
                "{} is beyond the giant catapult's range of {} hexes (8.13)",
                rules.map.id(target),
                rules.tables.bombardment_range
            ),
        }
    }
}

/// Acre 8.11, 8.12, 8.13, 12.22: the first fault of [`check_bombardment`], if any.
fn bombardment_fault(
    rules: &Rules,
    pos: &Position,
    shots: &[(usize, Hex)],
) -> Option<BombardmentFault> {
    let mut used = BTreeSet::new();
    for &(engine, target) in shots {
        let Some(s) = rules.siege.get(engine) else {
            return Some(BombardmentFault::NoSuchUnit);
        };
        if s.kind != SiegeKind::GiantCatapult || s.side != Side::Crusader {
            return Some(BombardmentFault::NotGiantCatapult(engine));
        }
        let Location::Map(at) = pos.siege[engine].at else {
            return Some(BombardmentFault::NotOnMap(engine));
        };
        if !used.insert(engine) {
            return Some(BombardmentFault::Twice(engine));
        }
        if !rules.map.is_wall_or_tower(target) {
            return Some(BombardmentFault::NotWall(target));
        }
        if at.distance(target) > rules.tables.bombardment_range {
            return Some(BombardmentFault::OutOfRange(target));
        }
    }
    None
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
    match counter_fault(rules, pos, shots) {
        None => Ok(()),
        Some(fault) => Err(fault.text(rules)),
    }
}

/// Acre 8.21, 8.22, 8.24, 12.33: whether [`check_counter_bombardment`] accepts the
/// allocation, without wording a refusal (the legal actions ask it of every small catapult
/// and siege unit).
pub fn counter_bombardment_allowed(
    rules: &Rules,
    pos: &Position,
    shots: &[(usize, usize)],
) -> bool {
    counter_fault(rules, pos, shots).is_none()
}

/// Why [`check_counter_bombardment`] refuses an allocation, worded by
/// [`CounterFault::text`]: the siege units named are indices of [`Rules::siege`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CounterFault {
    /// No such siege unit.
    NoSuchUnit,
    /// 8.21: the firer is not a Moslem small catapult.
    NotSmallCatapult(usize),
    /// 8.24: the target is not a giant catapult.
    NotGiantCatapult(usize),
    /// A catapult off the map.
    OffMap,
    /// 8.22: the firer is not on a Wall or Tower hex.
    NotOnWall(usize),
    /// 8.21: the firer fires twice.
    Twice(usize),
    /// 8.22: the target is out of range.
    OutOfRange(usize),
}

impl CounterFault {
    /// The refusal in words.
    fn text(self, rules: &Rules) -> String {
        let name = |e: usize| &rules.siege[e].name;
        match self {
            CounterFault::NoSuchUnit => "no such siege unit".into(),
            CounterFault::NotSmallCatapult(c) => {
                format!("{} is not a Moslem small catapult (8.21)", name(c))
            }
            CounterFault::NotGiantCatapult(t) => {
                format!("{} is not a giant catapult (8.24)", name(t))
            }
            CounterFault::OffMap => "both catapults must be on the map".into(),
            CounterFault::NotOnWall(c) => {
                format!("{} is not on a Wall or Tower hex (8.22)", name(c))
            }
            CounterFault::Twice(c) => format!("{} fires once (8.21)", name(c)),
            CounterFault::OutOfRange(t) => format!("{} is out of range (8.22)", name(t)),
        }
    }
}

/// Acre 8.21, 8.22, 8.24, 12.33: the first reason [`check_counter_bombardment`] refuses the
/// allocation, if any.
fn counter_fault(rules: &Rules, pos: &Position, shots: &[(usize, usize)]) -> Option<CounterFault> {
    let mut used = BTreeSet::new();
    for &(catapult, target) in shots {
        let (Some(c), Some(t)) = (rules.siege.get(catapult), rules.siege.get(target)) else {
            return Some(CounterFault::NoSuchUnit);
        };
        if c.kind != SiegeKind::SmallCatapult || c.side != Side::Moslem {
            return Some(CounterFault::NotSmallCatapult(catapult));
        }
        if t.kind != SiegeKind::GiantCatapult {
            return Some(CounterFault::NotGiantCatapult(target));
        }
        let (Location::Map(from), Location::Map(to)) =
            (pos.siege[catapult].at, pos.siege[target].at)
        else {
            return Some(CounterFault::OffMap);
        };
        if !rules.map.is_wall_or_tower(from) {
            return Some(CounterFault::NotOnWall(catapult));
        }
        if !used.insert(catapult) {
            return Some(CounterFault::Twice(catapult));
        }
        if from.distance(to) > rules.tables.counter_bombardment_range {
            return Some(CounterFault::OutOfRange(target));
        }
    }
    None
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

/// What befell a siege engine overrun by the enemy (12.13, 12.23, 12.34).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SiegeLoss {
    /// Damaged: off the map until the Allocation Segment of this Game-Turn (12.17, 12.24).
    Damaged {
        /// The Game-Turn it may return.
        returns_on: u8,
    },
    /// Destroyed: out of the game (12.34).
    Destroyed,
}

/// Acre 12.17, 12.24: how many Game-Turns a damaged siege tower (three) or giant catapult
/// (two) is lost; small catapults and ballistae are destroyed instead (12.34: `None`).
pub fn turns_lost(kind: SiegeKind) -> Option<u8> {
    /// Acre 12.17: a damaged siege tower is lost for three Game-Turns.
    const SIEGE_TOWER: u8 = 3;
    /// Acre 12.24: a damaged giant catapult is lost for two Game-Turns.
    const GIANT_CATAPULT: u8 = 2;
    match kind {
        SiegeKind::SiegeTower => Some(SIEGE_TOWER),
        SiegeKind::GiantCatapult => Some(GIANT_CATAPULT),
        SiegeKind::SmallCatapult | SiegeKind::Ballista => None,
    }
}

/// Acre 12.13, 12.23, 12.34: whether a siege engine on the map is exposed to the enemy: no
/// friendly combat unit shares its hex (a leader does not protect it).
pub fn exposed(rules: &Rules, pos: &Position, siege: usize) -> bool {
    match pos.siege[siege].at {
        Location::Map(h) => pos.side_at(rules, h) != Some(rules.siege[siege].side),
        _ => false,
    }
}

/// Acre 12.13, 12.17, 12.23, 12.24, 12.34: an exposed siege engine attacked in melee, or
/// entered by an enemy combat unit moving, retreating (9.24) or advancing through its hex, on
/// Game-Turn `turn`: a siege tower or giant catapult is damaged and leaves the map until the
/// Allocation Segment of the third or second Game-Turn after; a small catapult or ballista
/// is destroyed. `None` if the engine is not exposed (a friendly combat unit guards it).
pub fn damage_engine(
    rules: &Rules,
    pos: &mut Position,
    siege: usize,
    turn: u8,
) -> Option<SiegeLoss> {
    if !exposed(rules, pos, siege) {
        return None;
    }
    let state = &mut pos.siege[siege];
    Some(match turns_lost(rules.siege[siege].kind) {
        Some(n) => {
            state.at = Location::OffMap;
            state.returns_on = Some(turn + n);
            SiegeLoss::Damaged {
                returns_on: turn + n,
            }
        }
        None => {
            state.at = Location::Destroyed;
            state.returns_on = None;
            SiegeLoss::Destroyed
        }
    })
}

/// Acre 12.17, 12.24, 12.23, 12.12, 5.53: whether a repaired Crusader engine may be
/// re-deployed in `hex` when it returns: on the ground between the outerworks and the foss
/// where 12.23 deploys giant catapults (never an unfilled foss or outerworks hex for a
/// giant catapult, never an unfilled foss for a siege tower), in a hex without another
/// siege unit or an enemy unit. Moslem engines are never damaged, only destroyed (12.34).
/// `turn` is the Game-Turn whose Allocation Segment it is.
pub fn check_return(
    rules: &Rules,
    pos: &Position,
    siege: usize,
    hex: Hex,
    turn: u8,
) -> Result<(), String> {
    let between = rules.map.between_outerworks_and_foss();
    check_return_on(rules, pos, siege, hex, turn, &between)
}

/// [`check_return`] with the hexes between the outerworks and the foss worked out once by
/// the caller.
pub fn check_return_on(
    rules: &Rules,
    pos: &Position,
    siege: usize,
    hex: Hex,
    turn: u8,
    between: &std::collections::BTreeSet<Hex>,
) -> Result<(), String> {
    use crate::map::Class;
    let s = &rules.siege[siege];
    let id = || rules.map.id(hex);
    let due = pos.siege[siege].returns_on.is_some_and(|t| t <= turn);
    if !due || pos.siege[siege].at != Location::OffMap {
        return Err(format!(
            "{} is not a damaged engine due back this Game-Turn (12.17, 12.24)",
            s.name
        ));
    }
    if !between.contains(&hex) {
        return Err(format!(
            "{} returns between the outerworks and the foss, not in {id} (12.23)",
            s.name,
            id = id()
        ));
    }
    let class = rules.map.class(hex);
    let unfilled = pos.unfilled_foss(rules, hex);
    let barred = match s.kind {
        SiegeKind::GiantCatapult => unfilled || class == Class::Outerworks,
        SiegeKind::SiegeTower => unfilled,
        _ => false,
    };
    if barred {
        return Err(format!(
            "{} may not be deployed in {id} (12.12, 12.23)",
            s.name,
            id = id()
        ));
    }
    if pos.siege_at(hex).is_some() {
        return Err(format!("{id} already holds a siege unit (5.53)", id = id()));
    }
    if pos.side_at(rules, hex).is_some_and(|x| x != s.side)
        || pos
            .leader_at(hex)
            .is_some_and(|l| rules.leaders[l].side != s.side)
    {
        return Err(format!("{id} holds an enemy unit (5.12)", id = id()));
    }
    Ok(())
}

/// Acre 12.17, 12.24: re-deploys a repaired engine at a checked hex ([`check_return`]).
pub fn return_engine(
    rules: &Rules,
    pos: &mut Position,
    siege: usize,
    hex: Hex,
    turn: u8,
) -> Result<(), String> {
    check_return(rules, pos, siege, hex, turn)?;
    let s = &mut pos.siege[siege];
    s.at = Location::Map(hex);
    s.returns_on = None;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{put, setup};

    fn engine(rules: &Rules, name: &str) -> usize {
        rules.siege.iter().position(|s| s.name == name).unwrap()
    }

    #[test]
    fn engines_overrun_are_damaged_or_destroyed() {
        let (r, mut p) = setup();
        let h = r.map.hex("1414").unwrap();
        let tower = engine(&r, "Siege Tower 1");
        let giant = engine(&r, "The Victorious");
        let ballista = engine(&r, "Ballista 1");
        p.siege[tower].at = Location::Map(h);
        // 12.13: guarded by a combat unit, not exposed.
        let u = put(&r, &mut p, "English Men-at-Arms 1", "1414");
        assert_eq!(damage_engine(&r, &mut p, tower, 5), None);
        p.units[u].at = Location::OffMap;
        // 12.17: a siege tower is lost for three Game-Turns.
        assert_eq!(
            damage_engine(&r, &mut p, tower, 5),
            Some(SiegeLoss::Damaged { returns_on: 8 })
        );
        assert_eq!(p.siege[tower].at, Location::OffMap);
        // 12.24: a giant catapult for two.
        p.siege[giant].at = Location::Map(h);
        assert_eq!(
            damage_engine(&r, &mut p, giant, 5),
            Some(SiegeLoss::Damaged { returns_on: 7 })
        );
        // 12.34: small catapults and ballistae are destroyed.
        p.siege[ballista].at = Location::Map(h);
        assert_eq!(
            damage_engine(&r, &mut p, ballista, 5),
            Some(SiegeLoss::Destroyed)
        );
        assert_eq!(p.siege[ballista].at, Location::Destroyed);
        // The return: in the Allocation Segment of Turn 7, between outerworks and foss.
        let crusader_ground = r.map.hex("1414").unwrap();
        assert!(check_return(&r, &p, giant, crusader_ground, 6).is_err());
        assert!(check_return(&r, &p, giant, r.map.hex("2010").unwrap(), 7).is_err());
        assert!(
            check_return(&r, &p, giant, r.map.hex("1712").unwrap(), 7).is_err(),
            "unfilled foss"
        );
        assert!(
            check_return(&r, &p, giant, r.map.hex("0815").unwrap(), 7).is_err(),
            "outerworks"
        );
        return_engine(&r, &mut p, giant, crusader_ground, 7).unwrap();
        assert_eq!(p.siege[giant].returns_on, None);
        assert!(
            check_return(&r, &p, tower, crusader_ground, 8).is_err(),
            "5.53"
        );
        p.filled.insert(r.map.hex("1712").unwrap());
        assert!(check_return(&r, &p, tower, r.map.hex("1712").unwrap(), 8).is_ok());
    }

    #[test]
    fn counter_bombardment_loses_a_giant_catapult_two_game_turns() {
        // 8.23's example: damaged on Game-Turn Three, back on Game-Turn Five.
        let (r, mut p) = setup();
        let giant = engine(&r, "The Furious");
        p.siege[giant].at = Location::Map(r.map.hex("1414").unwrap());
        assert!(counter_bombard(&r, &mut p, giant, 6, 3));
        assert!(check_return(&r, &p, giant, r.map.hex("1413").unwrap(), 4).is_err());
        assert!(check_return(&r, &p, giant, r.map.hex("1413").unwrap(), 5).is_ok());
    }
}
