//! Melee combat (10.0): attack and defence strengths with terrain (5.27), leaders' combat
//! bonus (14.3), odds rounded for the defender, the die-roll modifier from leaders' morale
//! (14.2) and army morale (10.5), and the Melee Combat Results Table (10.8).

use serde::{Deserialize, Serialize};

use crate::map::{MeleeEffect, Nationality};
use crate::rules::{CombatResult, Rules, Side};

/// One side's strength in a melee, counted in halves so that halving (5.27) is exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strength {
    /// Twice the strength.
    pub halves: u32,
}

/// Acre 14.32: a unit's Melee Strength with a leader's Combat Bonus, never more than doubled.
pub fn with_bonus(melee: u32, bonus: u32) -> u32 {
    melee + bonus.min(melee)
}

/// Acre 5.27: an attacking unit's strength in halves, halved if it attacks out of marsh or
/// the Belus ravine ("Attacker in hex halved").
pub fn attacker_halves(strength: u32, attacker_terrain: MeleeEffect) -> u32 {
    match attacker_terrain {
        MeleeEffect::AttackerHalved => strength,
        _ => strength * 2,
    }
}

/// Acre 5.27: the defender's strength in halves: halved in outerworks and unfilled foss, a
/// Moslem halved in a camp, doubled in a Wall or Tower hex.
pub fn defender_halves(strength: u32, terrain: MeleeEffect, defender: Side) -> u32 {
    match terrain {
        MeleeEffect::DefenderHalved => strength,
        MeleeEffect::MoslemDefenderHalved if defender == Side::Moslem => strength,
        MeleeEffect::DefenderDoubled => strength * 4,
        _ => strength * 2,
    }
}

/// Acre 10.0 procedure and 10.8: the odds column for attack and defence strengths (both in
/// halves), rounded down in favour of the defender; `None` below 1-2 ("no effect"), and
/// above 7-1 read as 7-1. Columns: 0 = 1-2, 1 = 1-1, ..., 7 = 7-1.
pub fn odds_column(attack_halves: u32, defence_halves: u32) -> Option<usize> {
    if defence_halves == 0 {
        return Some(7);
    }
    if attack_halves * 2 < defence_halves {
        return None;
    }
    if attack_halves < defence_halves {
        return Some(0);
    }
    let ratio = attack_halves / defence_halves;
    Some(ratio.min(7) as usize)
}

/// Acre 14.23, 14.24, 10.42 and 10.5: the melee die-roll modifier: the attacker's leader
/// Morale Rating added, the defender's subtracted (at most one leader each), plus the
/// attacker's army morale and minus the defender's, each army counted once (10.57).
pub fn die_modifier(
    attacker_leader_morale: Option<u8>,
    defender_leader_morale: Option<u8>,
    attacker_army_morale: i32,
    defender_army_morale: i32,
) -> i32 {
    attacker_leader_morale.map_or(0, i32::from) - defender_leader_morale.map_or(0, i32::from)
        + attacker_army_morale
        - defender_army_morale
}

/// Acre 10.56, 10.57 and the 10.8 note ("An army's Morale Rating is applied only once for
/// each melee"): the army morale one side brings to a melee. For the Moslems, their single
/// level. For the Crusaders, the lowest level among the nationalities involved: a nationality
/// whose morale has fallen affects every melee it takes part in (10.56), but the Crusader
/// army's morale counts once, so English and French units both at -1 give -1 (10.57).
pub fn army_morale(rules: &Rules, pos: &crate::Position, side: Side, units: &[usize]) -> i32 {
    match side {
        Side::Moslem => pos.morale.moslem,
        Side::Crusader => units
            .iter()
            .filter_map(|&u| rules.contingent_of(u).nationality)
            .map(|n: Nationality| pos.morale.crusader.get(&n).copied().unwrap_or(0))
            .min()
            .unwrap_or(0)
            .min(0),
    }
}

/// Acre 10.8: the result of a melee at `column` with the modified roll (read as 1-6).
pub fn result(rules: &Rules, column: Option<usize>, modified_roll: i32) -> CombatResult {
    match column {
        None => CombatResult::NoEffect,
        Some(c) => rules.tables.melee.get(modified_roll, c),
    }
}

/// Acre 10.31, 10.33: a ladder assault roll succeeds on 3-6, or 4-6 for German knights and
/// leaders.
pub fn mounts_the_wall(roll: u8, german_knight_or_leader: bool) -> bool {
    if german_knight_or_leader {
        roll >= 4
    } else {
        roll >= 3
    }
}

/// Acre 10.3, 10.34, 10.36, 12.15, 8.16 and the Addenda to 10.34: whether a unit attacking
/// the unit in `target` must first mount the wall by ladder (`Ok(true)`), may attack without
/// (`Ok(false)`), or may not attack at all (`Err`). Ladders are needed against an unbreached
/// Wall or Tower hex, except from a Wall or Tower hex or with a friendly siege tower; they
/// are climbed only from Clear, filled foss or Acre street hexes, and never by cavalry.
pub fn ladder_needed(
    rules: &Rules,
    pos: &crate::Position,
    attacker: usize,
    target: hexgrid::Hex,
) -> Result<bool, String> {
    use crate::map::Class;
    let at = pos
        .hex_of(attacker)
        .ok_or("the attacker is not on the map")?;
    if !at.is_adjacent(target) {
        return Err("melee attacks an adjacent hex (10.13)".into());
    }
    let side = rules.side_of(attacker);
    if !pos.unbreached_wall(rules, target)
        || rules.map.is_wall_or_tower(at)
        || pos.siege_tower_at(rules, at, side)
    {
        return Ok(false);
    }
    if rules.unit_type(attacker).cavalry {
        return Err("cavalry may not make ladder assaults (10.36, 15.13)".into());
    }
    let from = rules.map.class(at);
    let filled = from == Class::Foss && !pos.unfilled_foss(rules, at);
    if matches!(from, Class::Clear | Class::Street) || filled {
        Ok(true)
    } else {
        Err(format!(
            "ladder assaults are made only from Clear, filled foss or street hexes, not from {} (10.34)",
            rules.map.terrain(at).name
        ))
    }
}

/// Acre 10.0, 10.14, 10.41, 14.32, 5.27: the attack and defence strengths of a melee, in
/// halves: each attacker's Melee Strength with its own leader's Combat Bonus (never more than
/// doubled), halved if it stands in marsh or the ravine, doubled if charging (15.21); the
/// defender's likewise with the effect of its hex. Disrupted units defend with their
/// strength (3.31).
pub fn strengths(
    rules: &Rules,
    pos: &crate::Position,
    attackers: &[usize],
    charging: &[usize],
    defender: usize,
    conrad: bool,
) -> (u32, u32) {
    let attack: u32 = attackers
        .iter()
        .map(|&u| {
            let base = with_bonus(
                pos.melee_strength(rules, u),
                crate::leaders::combat_bonus(rules, pos, u, conrad),
            );
            let base = if charging.contains(&u) {
                crate::cavalry::charge_strength(base)
            } else {
                base
            };
            let terrain = pos
                .hex_of(u)
                .map_or(MeleeEffect::None, |h| pos.effects(rules, h).melee);
            attacker_halves(base, terrain)
        })
        .sum();
    let d = with_bonus(
        pos.melee_strength(rules, defender),
        crate::leaders::combat_bonus(rules, pos, defender, conrad),
    );
    let terrain = pos
        .hex_of(defender)
        .map_or(MeleeEffect::None, |h| pos.effects(rules, h).melee);
    (attack, defender_halves(d, terrain, rules.side_of(defender)))
}

/// Acre 10.51: the first time an off-map army unit moves or retreats into Acre (its walls
/// included), the Moslem Army Morale Level rises by one.
pub fn army_unit_entered_acre(pos: &mut crate::Position) -> bool {
    let first = !pos.morale.army_entered_acre;
    if first {
        pos.morale.army_entered_acre = true;
        pos.morale.moslem += 1;
    }
    first
}

/// Acre 10.52: when the thirtieth Moslem army unit (not garrison) goes to the Regrouping
/// Box, the Moslem Army Morale Level falls by one.
pub fn army_unit_eliminated(pos: &mut crate::Position) -> bool {
    /// Acre 10.52: army losses that lower Moslem morale.
    const LOSSES: u32 = 30;
    pos.morale.army_losses += 1;
    let falls = pos.morale.army_losses == LOSSES;
    if falls {
        pos.morale.moslem -= 1;
    }
    falls
}

/// Acre 10.53-10.55, 10.58 and the 10.8 morale note: a King or the German leader killed
/// lowers his own nationality's Army Morale Level by one, for good. With the 16.0 option
/// Conrad is King of Jerusalem. Returns the nationality affected.
pub fn leader_killed(
    rules: &Rules,
    pos: &mut crate::Position,
    leader: usize,
    conrad: bool,
) -> Option<Nationality> {
    let l = &rules.leaders[leader];
    // 16.0: the leader who takes over a king's contingent is king in his place.
    let king = l.king
        || (conrad
            && rules
                .conrad_commands
                .iter()
                .any(|&(by, c)| by == leader && rules.leaders[rules.contingents[c].leader].king));
    let nation = (0..rules.contingents.len())
        .find(|&c| crate::leaders::commands(rules, leader, conrad, c))
        .and_then(|c| rules.contingents[c].nationality)?;
    if king || nation == Nationality::German {
        *pos.morale.crusader.entry(nation).or_insert(0) -= 1;
        Some(nation)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odds_round_down_for_the_defender() {
        // 10.0: the ratio is simplified, rounding down in favour of the defender.
        assert_eq!(odds_column(2 * 11, 2 * 4), Some(2)); // 11-4 is 2-1
        assert_eq!(odds_column(2 * 8, 2 * 8), Some(1)); // 1-1
        assert_eq!(odds_column(2 * 7, 2 * 8), Some(0)); // 7-8 is 1-2
        assert_eq!(odds_column(2 * 4, 2 * 8), Some(0)); // exactly 1-2
        assert_eq!(odds_column(2 * 3, 2 * 8), None); // under 1-2: no effect
        assert_eq!(odds_column(2 * 40, 2 * 4), Some(7)); // 10-1 read as 7-1
    }

    #[test]
    fn a_bonus_never_more_than_doubles() {
        // 14.32.
        assert_eq!(with_bonus(6, 4), 10);
        assert_eq!(with_bonus(2, 4), 4);
        assert_eq!(with_bonus(1, 3), 2);
    }

    #[test]
    fn terrain_halves_and_doubles() {
        assert_eq!(
            defender_halves(6, MeleeEffect::DefenderDoubled, Side::Moslem),
            24
        );
        assert_eq!(
            defender_halves(6, MeleeEffect::MoslemDefenderHalved, Side::Moslem),
            6
        );
        assert_eq!(
            defender_halves(6, MeleeEffect::MoslemDefenderHalved, Side::Crusader),
            12
        );
        assert_eq!(
            defender_halves(5, MeleeEffect::DefenderHalved, Side::Crusader),
            5
        );
        assert_eq!(attacker_halves(5, MeleeEffect::AttackerHalved), 5);
        // 5 halved against 5 halved is 1-1, exactly.
        assert_eq!(odds_column(5, 5), Some(1));
    }

    #[test]
    fn ladders_fail_on_one_or_two_and_german_knights_also_on_three() {
        assert!(!mounts_the_wall(2, false));
        assert!(mounts_the_wall(3, false));
        assert!(!mounts_the_wall(3, true));
        assert!(mounts_the_wall(4, true));
    }
}
