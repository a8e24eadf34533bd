//! Leaders (14.0): command radius traced clear of enemy units and zones of control (14.1,
//! 14.11), its effect on movement (14.12, 5.4), which leader's morale and bonus apply to a
//! melee (14.2, 14.3), and the leader loss procedure with wounds and death (14.4).

use std::collections::BTreeSet;

use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::position::Location;
use crate::rules::{Rules, Side};
use crate::zoc;
use crate::Position;

/// Acre 14.0, 16.0: the contingents a leader commands (with the Conrad option, Conrad takes
/// Guy's division and Jacques the Bretons).
pub fn commands(rules: &Rules, leader: usize, conrad: bool, contingent: usize) -> bool {
    if conrad {
        if let Some((l, _)) = rules.conrad_commands.iter().find(|(_, c)| *c == contingent) {
            return *l == leader;
        }
    }
    rules.contingents[contingent].leader == leader
}

/// Acre 14.1, 14.11, 6.15, 6.24: whether `leader` at his hex reaches `target` within
/// `radius` hexes along a path free of enemy combat units and of enemy-controlled hexes,
/// where a friendly combat unit negates enemy control of its own hex. The leader's hex is not
/// counted and the target's hex is.
pub fn traces_to(
    rules: &Rules,
    pos: &Position,
    side: Side,
    from: Hex,
    target: Hex,
    radius: u32,
) -> bool {
    if from == target {
        return true;
    }
    let passable = |h: Hex| -> bool {
        match pos.side_at(rules, h) {
            Some(s) if s != side => false,
            Some(_) => true,
            None => !zoc::controlled(rules, pos, h, side.enemy()),
        }
    };
    let mut frontier = vec![from];
    let mut seen = BTreeSet::from([from]);
    for _ in 0..radius {
        let mut next = Vec::new();
        for h in frontier {
            for n in rules.map.neighbours(h) {
                if seen.contains(&n) || !passable(n) {
                    continue;
                }
                if n == target {
                    return true;
                }
                seen.insert(n);
                next.push(n);
            }
        }
        frontier = next;
    }
    false
}

/// The hex of a leader in play.
pub fn leader_hex(pos: &Position, leader: usize) -> Option<Hex> {
    match pos.leaders[leader].at {
        Location::Map(h) if !pos.leaders[leader].dead => Some(h),
        _ => None,
    }
}

/// Acre 14.1, 14.13: whether a combat unit is within its leader's Command Radius.
pub fn in_command(rules: &Rules, pos: &Position, unit: usize, conrad: bool) -> bool {
    within(rules, pos, unit, conrad, 1)
}

/// Acre 14.12, 5.4: whether a combat unit is within twice its leader's Command Radius, so
/// that it may use its full Movement Allowance.
pub fn within_twice_radius(rules: &Rules, pos: &Position, unit: usize, conrad: bool) -> bool {
    within(rules, pos, unit, conrad, 2)
}

fn within(rules: &Rules, pos: &Position, unit: usize, conrad: bool, times: u32) -> bool {
    let Some(at) = pos.hex_of(unit) else {
        return false;
    };
    let contingent = rules.units[unit].contingent;
    let side = rules.side_of(unit);
    (0..rules.leaders.len())
        .filter(|&l| commands(rules, l, conrad, contingent))
        .filter_map(|l| leader_hex(pos, l).map(|h| (l, h)))
        .any(|(l, h)| {
            traces_to(
                rules,
                pos,
                side,
                h,
                at,
                rules.leaders[l].radius as u32 * times,
            )
        })
}

/// Acre 14.21, 14.22, 14.24, 14.34: the leader whose Morale Rating an attack may use: the one
/// leader of the contingent to which every attacking unit belongs, with at least one of them
/// in his Command Radius (14.13). More than one contingent: none.
pub fn attack_morale_leader(
    rules: &Rules,
    pos: &Position,
    attackers: &[usize],
    conrad: bool,
) -> Option<usize> {
    let first = *attackers.first()?;
    let contingent = rules.units[first].contingent;
    if attackers
        .iter()
        .any(|&u| rules.units[u].contingent != contingent)
    {
        return None;
    }
    let leader = (0..rules.leaders.len()).find(|&l| commands(rules, l, conrad, contingent))?;
    leader_hex(pos, leader)?;
    attackers
        .iter()
        .any(|&u| in_command(rules, pos, u, conrad))
        .then_some(leader)
}

/// Acre 14.22: the leader whose Morale Rating the defender may use: the defending unit's own
/// leader, if the unit is within his Command Radius.
pub fn defence_morale_leader(
    rules: &Rules,
    pos: &Position,
    defender: usize,
    conrad: bool,
) -> Option<usize> {
    let contingent = rules.units[defender].contingent;
    let leader = (0..rules.leaders.len()).find(|&l| commands(rules, l, conrad, contingent))?;
    in_command(rules, pos, defender, conrad).then_some(leader)
}

/// Acre 14.3, 10.41: the Combat Bonus a unit gets from a leader of its own contingent in its
/// hex (capped by 14.32 in [`crate::melee::with_bonus`]).
pub fn combat_bonus(rules: &Rules, pos: &Position, unit: usize, conrad: bool) -> u32 {
    let Some(at) = pos.hex_of(unit) else {
        return 0;
    };
    match pos.leader_at(at) {
        Some(l) if commands(rules, l, conrad, rules.units[unit].contingent) => {
            rules.leaders[l].bonus as u32
        }
        _ => 0,
    }
}

/// What the leader loss procedure decided (14.41).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeaderFate {
    /// Unharmed: placed with any friendly combat unit.
    Unharmed,
    /// Wounded: out of play until the end of this Game-Turn.
    Wounded {
        /// The last Game-Turn he misses.
        until: u8,
    },
    /// Killed.
    Killed,
}

/// Acre 14.41: the leader loss procedure for the rolls made: 1-5 unharmed; 6 then a second
/// roll: 5-6 killed, 1-4 wounded for that many Game-Turns (Moslem) or twice that many
/// (Crusader), counted from the current Game-Turn.
pub fn leader_loss(side: Side, turn: u8, first: u8, second: Option<u8>) -> LeaderFate {
    /// Acre 14.41: the first roll that wounds, and the second rolls that kill.
    const WOUND: u8 = 6;
    const KILL_FROM: u8 = 5;
    if first < WOUND {
        return LeaderFate::Unharmed;
    }
    match second {
        Some(r) if r >= KILL_FROM => LeaderFate::Killed,
        Some(r) => {
            let turns = match side {
                Side::Moslem => r,
                Side::Crusader => 2 * r,
            };
            LeaderFate::Wounded {
                until: turn + turns,
            }
        }
        None => LeaderFate::Killed,
    }
}

/// Acre 14.41: rolls the leader loss procedure with the game's dice.
pub fn roll_leader_loss(dice: &mut engine::Dice, side: Side, turn: u8) -> (LeaderFate, Vec<u8>) {
    let first = dice.d6();
    if first < 6 {
        return (leader_loss(side, turn, first, None), vec![first]);
    }
    let second = dice.d6();
    (
        leader_loss(side, turn, first, Some(second)),
        vec![first, second],
    )
}

/// Acre 14.42: a wounded leader returns in the Allocation Segment of the Game-Turn after the
/// last one he misses.
pub fn returns_in(until: u8) -> u8 {
    until + 1
}
