//! Intervention (7.0): the Moslem player's secret choice each Game-Turn of which off-map
//! army may join the Assault Phase, its limits, what is revealed when, where the armies
//! enter, and the free entry of every army when the Crusaders cross the outerworks (7.23),
//! with the army units retreated off the map that may not come back this Assault Phase
//! unless they are Saladin's Guard (9.26).

use std::collections::BTreeMap;

use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::position::Location;
use crate::rules::{Army, Rules, Side};
use crate::Position;

/// The three Intervention counters (7.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Intervention {
    /// "Saladin Attacks": every army, and an Assault Phase whatever the Crusader chose.
    SaladinAttacks,
    /// "Army of Egypt".
    ArmyOfEgypt,
    /// "Army of Mosul".
    ArmyOfMosul,
}

impl Intervention {
    /// All three, in the order of 7.11.
    pub const ALL: [Intervention; 3] = [
        Intervention::SaladinAttacks,
        Intervention::ArmyOfEgypt,
        Intervention::ArmyOfMosul,
    ];

    /// The counter's printed name.
    pub fn name(self) -> &'static str {
        match self {
            Intervention::SaladinAttacks => "Saladin Attacks",
            Intervention::ArmyOfEgypt => "Army of Egypt",
            Intervention::ArmyOfMosul => "Army of Mosul",
        }
    }
}

/// How many times each counter has been chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Used {
    /// "Saladin Attacks".
    pub saladin_attacks: u8,
    /// "Army of Egypt".
    pub army_of_egypt: u8,
    /// "Army of Mosul".
    pub army_of_mosul: u8,
}

impl Used {
    fn count(&mut self, c: Intervention) -> &mut u8 {
        match c {
            Intervention::SaladinAttacks => &mut self.saladin_attacks,
            Intervention::ArmyOfEgypt => &mut self.army_of_egypt,
            Intervention::ArmyOfMosul => &mut self.army_of_mosul,
        }
    }
}

/// Acre 7.11, 7.12, 7.13: the most times a counter may be chosen in a game.
pub fn limit(rules: &Rules, c: Intervention) -> u8 {
    let l = &rules.scenario.intervention;
    match c {
        Intervention::SaladinAttacks => l.saladin_attacks,
        Intervention::ArmyOfEgypt => l.army_of_egypt,
        Intervention::ArmyOfMosul => l.army_of_mosul,
    }
}

/// Acre 7.22, 7.11-7.13: the counters the Moslem player may choose now (he must choose one).
pub fn choices(rules: &Rules, used: &Used) -> Vec<Intervention> {
    let mut u = *used;
    Intervention::ALL
        .into_iter()
        .filter(|&c| *u.count(c) < limit(rules, c))
        .collect()
}

/// Acre 7.22: records a choice (it counts whether or not the army is used), refusing one
/// past its limit.
pub fn choose(rules: &Rules, used: &mut Used, c: Intervention) -> Result<(), String> {
    if !choices(rules, used).contains(&c) {
        return Err(format!(
            "\"{}\" may be chosen only {} times a game (7.1)",
            c.name(),
            limit(rules, c)
        ));
    }
    *used.count(c) += 1;
    Ok(())
}

/// Acre 4.0 and 7.0: whether there is an Assault Phase: the Crusader chose to assault, or
/// the Moslem chose "Saladin Attacks".
pub fn assault_phase(crusader_assaults: bool, c: Intervention) -> bool {
    crusader_assaults || c == Intervention::SaladinAttacks
}

/// What the Moslem player must reveal of his counter in the Planning Phase (7.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reveal {
    /// Nothing until the end of the Game-Turn (the Crusader assaults).
    Nothing,
    /// Only whether it is "Saladin Attacks" (the Crusader bombards).
    WhetherSaladinAttacks(bool),
}

/// Acre 7.0: if the Crusader bombards, the Moslem reveals whether he chose "Saladin
/// Attacks"; if he assaults, nothing is revealed until the end of the Game-Turn.
pub fn reveal_at_planning(crusader_assaults: bool, c: Intervention) -> Reveal {
    if crusader_assaults {
        Reveal::Nothing
    } else {
        Reveal::WhetherSaladinAttacks(c == Intervention::SaladinAttacks)
    }
}

/// Acre 7.11-7.13, 7.23: the armies that may enter this Assault Phase: those of the counter,
/// or every army once a Crusader unit has entered an outerworks hex under "Army of Egypt" or
/// "Army of Mosul".
pub fn armies(rules: &Rules, c: Intervention, crusaders_in_outerworks: bool) -> Vec<Army> {
    let a = &rules.scenario.intervention_armies;
    let names = match c {
        _ if crusaders_in_outerworks => &a.saladin_attacks,
        Intervention::SaladinAttacks => &a.saladin_attacks,
        Intervention::ArmyOfEgypt => &a.army_of_egypt,
        Intervention::ArmyOfMosul => &a.army_of_mosul,
    };
    names.iter().filter_map(|n| Army::parse(n)).collect()
}

/// Acre 7.21: whether an army unit may enter the map at this hex: the north or east edge,
/// or the south edge from 0101 to 0701.
pub fn entry_hex(rules: &Rules, hex: Hex) -> bool {
    ["north_edge", "east_edge", "south_entry"]
        .iter()
        .any(|a| rules.map.area(a).contains(&hex))
}

/// Acre 7.21: entering the map costs one Movement Point (in half points).
pub const ENTRY_COST: u32 = 2;

/// The Moslem army units retreated off the map in this Assault Phase, each with the Impulse
/// of its retreat (9.26). Kept by the game for the Assault Phase and cleared at its end.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetreatedOff {
    /// Unit index to the Impulse (1-10) in which it left the map.
    pub units: BTreeMap<usize, u8>,
}

impl RetreatedOff {
    /// Acre 9.26: records a unit retreated off the map in Impulse `impulse`.
    pub fn record(&mut self, unit: usize, impulse: u8) {
        self.units.insert(unit, impulse);
    }

    /// Acre 9.26: whether a unit may be brought back onto the map in the Movement Segment
    /// of Impulse `impulse`: a unit not retreated off may; one retreated off may not during
    /// this Assault Phase, except a unit of Saladin's Guard from the next Impulse's
    /// Movement Segment on ("in the next Movement Phase": rules-notes).
    pub fn may_return(&self, rules: &Rules, unit: usize, impulse: u8) -> bool {
        match self.units.get(&unit) {
            None => true,
            Some(&left) => rules.contingent_of(unit).guard && impulse > left,
        }
    }

    /// Acre 9.26: the Assault Phase is over; every army unit off the map is again one
    /// waiting to intervene.
    pub fn clear(&mut self) {
        self.units.clear();
    }
}

/// Acre 7.11-7.13, 7.21, 7.23, 9.26: whether a Moslem army unit off the map may be deployed
/// onto an entry hex in the Moslem Movement Segment of Impulse `impulse`: its army is among
/// `armies` (from [`armies`]) and it is not barred by a retreat off the map (9.26).
pub fn may_deploy(
    rules: &Rules,
    pos: &Position,
    unit: usize,
    armies: &[Army],
    off: &RetreatedOff,
    impulse: u8,
) -> bool {
    rules.side_of(unit) == Side::Moslem
        && pos.units[unit].at == Location::OffMap
        && rules
            .contingent_of(unit)
            .army
            .is_some_and(|a| a != Army::Garrison && armies.contains(&a))
        && off.may_return(rules, unit, impulse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_guard_comes_back_after_retreating_off_the_map() {
        let r = Rules::load(&crate::builtin_data()).unwrap();
        let p = Position::empty(&r);
        let guard = r.unit("Guard Elite Spearmen").unwrap();
        let taqi = r.unit("Taqi Spearmen 1").unwrap();
        let mut off = RetreatedOff::default();
        off.record(guard, 3);
        off.record(taqi, 3);
        let all = armies(&r, Intervention::SaladinAttacks, false);
        // 9.26: not in the Impulse of the retreat; the Guard from the next one on.
        assert!(!may_deploy(&r, &p, guard, &all, &off, 3));
        assert!(may_deploy(&r, &p, guard, &all, &off, 4));
        assert!(!may_deploy(&r, &p, taqi, &all, &off, 4));
        assert!(!may_deploy(&r, &p, taqi, &all, &off, 10));
        // Only under a counter that brings the army.
        let mosul = armies(&r, Intervention::ArmyOfMosul, false);
        assert!(!may_deploy(&r, &p, guard, &mosul, &off, 4));
        // The next Assault Phase, all may come.
        off.clear();
        assert!(may_deploy(&r, &p, taqi, &all, &off, 1));
        let garrison = r.unit("Mashtub Spearmen 1").unwrap();
        assert!(!may_deploy(&r, &p, garrison, &all, &off, 1));
    }

    #[test]
    fn limits_two_six_and_eight() {
        let r = Rules::load(&crate::builtin_data()).unwrap();
        let mut used = Used::default();
        choose(&r, &mut used, Intervention::SaladinAttacks).unwrap();
        choose(&r, &mut used, Intervention::SaladinAttacks).unwrap();
        assert!(choose(&r, &mut used, Intervention::SaladinAttacks).is_err());
        for _ in 0..6 {
            choose(&r, &mut used, Intervention::ArmyOfEgypt).unwrap();
        }
        assert_eq!(choices(&r, &used), vec![Intervention::ArmyOfMosul]);
        for _ in 0..8 {
            choose(&r, &mut used, Intervention::ArmyOfMosul).unwrap();
        }
        assert!(choices(&r, &used).is_empty(), "16 Game-Turns, 16 counters");
    }

    #[test]
    fn what_is_revealed_and_who_comes() {
        let r = Rules::load(&crate::builtin_data()).unwrap();
        assert!(assault_phase(false, Intervention::SaladinAttacks));
        assert!(!assault_phase(false, Intervention::ArmyOfEgypt));
        assert_eq!(
            reveal_at_planning(true, Intervention::SaladinAttacks),
            Reveal::Nothing
        );
        assert_eq!(
            reveal_at_planning(false, Intervention::ArmyOfMosul),
            Reveal::WhetherSaladinAttacks(false)
        );
        assert_eq!(
            armies(&r, Intervention::ArmyOfEgypt, false),
            vec![Army::Egypt]
        );
        assert_eq!(
            armies(&r, Intervention::ArmyOfMosul, true),
            vec![Army::Sinjan, Army::Egypt, Army::Mosul]
        );
        assert!(entry_hex(&r, r.map.hex("0701").unwrap()));
        assert!(!entry_hex(&r, r.map.hex("0802").unwrap()));
        assert!(entry_hex(&r, r.map.hex("1530").unwrap()));
    }
}
