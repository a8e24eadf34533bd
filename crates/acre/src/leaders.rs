//! Leaders (14.0): command radius traced clear of enemy units and zones of control (14.1,
//! 14.11), its effect on movement (14.12, 5.4), which leader's morale and bonus apply to a
//! melee (14.2, 14.3), the leader loss procedure with wounds and death (14.4) and its
//! outcome placed on the map, leaders going with retreating units (9.22), leaders killed
//! when enemy combat units reach them alone (5.12, 9.24, 10.61, 14.33) with the morale their
//! death costs (10.53-10.55, 16.0), and where a wounded leader returns (14.42).

use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::map::Nationality;
use crate::position::{Location, Pieces};
use crate::rules::{Army, Rules, Side};
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
pub fn traces_to<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    side: Side,
    from: Hex,
    target: Hex,
    radius: u32,
) -> bool {
    let enemy_controls = |h: Hex| zoc::controlled(rules, pos, h, side.enemy());
    trace(rules, pos, side, from, target, radius, enemy_controls)
}

/// [`traces_to`] with the enemy's zones of control asked of `enemy_controls` (which answers
/// as [`zoc::controlled`] does for the enemy of `side`).
fn trace<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    side: Side,
    from: Hex,
    target: Hex,
    radius: u32,
    enemy_controls: impl Fn(Hex) -> bool,
) -> bool {
    if from == target {
        return true;
    }
    let passable = |h: Hex| -> bool {
        match pos.side_at(rules, h) {
            Some(s) if s != side => false,
            Some(_) => true,
            None => !enemy_controls(h),
        }
    };
    // A trace of `radius` steps reaches no hex further away than that, and a hex met with
    // fewer steps left than its distance to the target leads to it no more: the trace
    // passes only those that may still lead there, which answers the same.
    if from.distance(target) > radius {
        return false;
    }
    flood(rules, from, radius, Some(target), passable, |n, _, pass| {
        pass && n == target
    })
}

/// Acre 14.1: a breadth-first trace from `from` for up to `radius` steps through the hexes
/// `passable` lets it pass. `meet` is told of each hex met that the trace has not passed
/// (with its grid index and whether it may be passed) and ends the trace by answering true;
/// the result says whether it did. With an `aim`, the hexes further from it than the steps
/// left are not met.
fn flood(
    rules: &Rules,
    from: Hex,
    radius: u32,
    aim: Option<Hex>,
    passable: impl Fn(Hex) -> bool,
    mut meet: impl FnMut(Hex, usize, bool) -> bool,
) -> bool {
    // By the map's dense index (every neighbour is on the map).
    let grid = rules.map.grid;
    let mut seen = vec![false; grid.len()];
    if let Some(k) = grid.index(from) {
        seen[k] = true;
    }
    let mut frontier = vec![from];
    for step in 1..=radius {
        let left = radius - step;
        let mut next = Vec::new();
        for h in frontier {
            for n in rules.map.neighbours(h) {
                if aim.is_some_and(|t| n.distance(t) > left) {
                    continue;
                }
                let Some(k) = grid.index(n) else { continue };
                if seen[k] {
                    continue;
                }
                let pass = passable(n);
                if meet(n, k, pass) {
                    return true;
                }
                if pass {
                    seen[k] = true;
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    false
}

/// Acre 14.1, 14.11: by each hex's grid index, whether [`traces_to`] from the leader's hex
/// `from` within `radius` would reach a friendly combat unit of `side` placed in that hex
/// (the hex empty in `pos`): the answers for every hex at once, for the set-up that tries a
/// unit in each. A unit placed in a hex changes only whether that hex may be passed, and
/// the trace ends as soon as it meets the target: so the target is reached when it lies
/// next to a hex the trace reaches in fewer than `radius` steps (or is the leader's own).
pub fn command_reach<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    side: Side,
    from: Hex,
    radius: u32,
) -> Vec<bool> {
    let enemy_controls = |h: Hex| zoc::controlled(rules, pos, h, side.enemy());
    command_reach_by(rules, pos, side, from, radius, enemy_controls)
}

/// [`command_reach`] with the enemy's zones of control by each hex's grid index (as
/// [`zoc::control`] gives them for the enemy of `side`).
pub fn command_reach_in<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    side: Side,
    from: Hex,
    radius: u32,
    enemy_control: &[bool],
) -> Vec<bool> {
    let grid = rules.map.grid;
    let enemy_controls = |h: Hex| grid.index(h).is_some_and(|k| enemy_control[k]);
    command_reach_by(rules, pos, side, from, radius, enemy_controls)
}

/// [`command_reach`] with the enemy's zones of control asked of `enemy_controls`.
fn command_reach_by<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    side: Side,
    from: Hex,
    radius: u32,
    enemy_controls: impl Fn(Hex) -> bool,
) -> Vec<bool> {
    let passable = |h: Hex| -> bool {
        match pos.side_at(rules, h) {
            Some(s) if s != side => false,
            Some(_) => true,
            None => !enemy_controls(h),
        }
    };
    let mut reached = vec![false; rules.map.grid.len()];
    let Some(k) = rules.map.grid.index(from) else {
        return reached;
    };
    reached[k] = true;
    flood(rules, from, radius, None, passable, |_, k, _| {
        reached[k] = true;
        false
    });
    reached
}

/// Acre 14.1, 14.11: [`command_reach`] asked of the one hex `target`: the trace ends as soon
/// as it meets the target, passing only the hexes that may still lead there (none further
/// from it than the steps left), which answers the same.
pub fn command_reaches<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    side: Side,
    from: Hex,
    radius: u32,
    target: Hex,
) -> bool {
    let grid = rules.map.grid;
    if grid.index(from).is_none() || grid.index(target).is_none() {
        return false;
    }
    if from == target {
        return true;
    }
    if from.distance(target) > radius {
        return false;
    }
    let passable = |h: Hex| -> bool {
        match pos.side_at(rules, h) {
            Some(s) if s != side => false,
            Some(_) => true,
            None => !zoc::controlled(rules, pos, h, side.enemy()),
        }
    };
    flood(rules, from, radius, Some(target), passable, |n, _, _| {
        n == target
    })
}

/// The hex of a leader in play.
pub fn leader_hex(pos: &Position, leader: usize) -> Option<Hex> {
    match pos.leaders[leader].at {
        Location::Map(h) if !pos.leaders[leader].dead => Some(h),
        _ => None,
    }
}

/// Acre 14.1, 14.13: whether a combat unit is within its leader's Command Radius.
pub fn in_command<P: Pieces + ?Sized>(rules: &Rules, pos: &P, unit: usize, conrad: bool) -> bool {
    within(rules, pos, unit, conrad, 1)
}

/// Acre 14.12, 5.4: whether a combat unit is within twice its leader's Command Radius, so
/// that it may use its full Movement Allowance.
pub fn within_twice_radius<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    unit: usize,
    conrad: bool,
) -> bool {
    within(rules, pos, unit, conrad, 2)
}

/// [`within_twice_radius`] with the enemy's zones of control by each hex's grid index (as
/// [`zoc::control`] gives them for the enemy of the unit's side).
pub fn within_twice_radius_in<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    unit: usize,
    conrad: bool,
    enemy_control: &[bool],
) -> bool {
    let grid = rules.map.grid;
    let enemy_controls = |h: Hex| grid.index(h).is_some_and(|k| enemy_control[k]);
    within_by(rules, pos, unit, conrad, 2, enemy_controls)
}

fn within<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    unit: usize,
    conrad: bool,
    times: u32,
) -> bool {
    let enemy = rules.side_of(unit).enemy();
    let enemy_controls = |h: Hex| zoc::controlled(rules, pos, h, enemy);
    within_by(rules, pos, unit, conrad, times, enemy_controls)
}

/// [`within`] with the enemy's zones of control asked of `enemy_controls`.
fn within_by<P: Pieces + ?Sized>(
    rules: &Rules,
    pos: &P,
    unit: usize,
    conrad: bool,
    times: u32,
    enemy_controls: impl Fn(Hex) -> bool,
) -> bool {
    let Some(at) = pos.position().hex_of(unit) else {
        return false;
    };
    let contingent = rules.units[unit].contingent;
    let side = rules.side_of(unit);
    (0..rules.leaders.len())
        .filter(|&l| commands(rules, l, conrad, contingent))
        .filter_map(|l| leader_hex(pos.position(), l).map(|h| (l, h)))
        .any(|(l, h)| {
            let radius = rules.leaders[l].radius as u32 * times;
            trace(rules, pos, side, h, at, radius, &enemy_controls)
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

/// Acre 14.3, 14.31, 10.41: the Combat Bonus a unit gets from a leader of its own contingent in its
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

/// Acre 16.0: whether a leader is in the game: Jacques only with the option; Guy only
/// without it ("Guy is removed from the game").
pub fn in_game(rules: &Rules, leader: usize, conrad: bool) -> bool {
    let l = &rules.leaders[leader];
    if conrad {
        // 16.0: the king whose contingents another leader takes over leaves the game.
        let replaced = l.king
            && rules
                .conrad_commands
                .iter()
                .any(|&(by, c)| by != leader && rules.contingents[c].leader == leader);
        !replaced
    } else {
        !l.optional
    }
}

/// Acre 10.53-10.55, the 10.8 morale note ("Subtract 1 if a King or a German Leader is
/// killed (affects individual nationality only)") and 16.0: the nationality whose Army
/// Morale Level falls when this leader is killed: a king's own (Richard the English,
/// Philippe the French, Guy Jerusalem's), Leopold's the Germans'. With the 16.0 option
/// Conrad "is considered king of Jerusalem for all purposes": his death lowers the
/// Jerusalem army's morale (the contingents he commands), not the French; Guy is out of the
/// game and costs nothing.
pub fn morale_lost_on_death(rules: &Rules, leader: usize, conrad: bool) -> Option<Nationality> {
    if !in_game(rules, leader, conrad) {
        return None;
    }
    let l = &rules.leaders[leader];
    let king = l.king
        || (conrad
            && rules
                .conrad_commands
                .iter()
                .any(|&(by, c)| by == leader && rules.leaders[rules.contingents[c].leader].king));
    let nation = (0..rules.contingents.len())
        .find(|&c| commands(rules, leader, conrad, c))
        .and_then(|c| rules.contingents[c].nationality)?;
    (king || nation == Nationality::German).then_some(nation)
}

/// Acre 5.12, 9.24, 10.61, 14.33: a leader caught alone by an enemy combat unit (moved or
/// retreated into his hex, or his hex attacked in melee) is eliminated: killed, with the
/// morale it costs (10.53-10.55, 16.0). Returns the nationality whose morale fell.
pub fn kill(rules: &Rules, pos: &mut Position, leader: usize, conrad: bool) -> Option<Nationality> {
    let state = &mut pos.leaders[leader];
    if state.dead {
        return None;
    }
    state.dead = true;
    state.at = Location::Destroyed;
    state.wounded_until = None;
    let nation = morale_lost_on_death(rules, leader, conrad)?;
    *pos.morale.crusader.entry(nation).or_insert(0) -= 1;
    Some(nation)
}

/// Acre 9.22, 14.4: the friendly leader in the hex of a combat unit, who may go with it if
/// it retreats and must undergo the leader loss procedure if it is eliminated.
pub fn leader_with(rules: &Rules, pos: &Position, unit: usize) -> Option<usize> {
    let at = pos.hex_of(unit)?;
    pos.leader_at(at)
        .filter(|&l| rules.leaders[l].side == rules.side_of(unit) && !pos.leaders[l].dead)
}

/// Acre 9.22, 14.4: the owning player takes a leader along with the unit that retreated from
/// his hex: he ends where the unit ended its retreat (off the map with a Moslem army unit,
/// 9.26). Call it when the unit's retreat is over; a unit eliminated on the way leaves him
/// to the leader loss procedure instead. Refused if another friendly leader is already there
/// (5.52).
pub fn go_with(
    rules: &Rules,
    pos: &mut Position,
    leader: usize,
    unit: usize,
) -> Result<(), String> {
    let name = &rules.leaders[leader].name;
    match pos.units[unit].at {
        Location::Map(h) => {
            if pos.leader_at(h).is_some_and(|o| o != leader) {
                return Err(format!(
                    "{name} cannot end in {}: one leader in a hex (5.52)",
                    rules.map.id(h)
                ));
            }
            pos.leaders[leader].at = Location::Map(h);
            Ok(())
        }
        Location::OffMap if rules.side_of(unit) == Side::Moslem => {
            pos.leaders[leader].at = Location::OffMap;
            Ok(())
        }
        _ => Err(format!(
            "{name} can only go with a unit still on the map (9.22)"
        )),
    }
}

/// Acre 14.41, 5.52: where an unharmed leader may be placed after the loss procedure: any
/// hex holding a friendly combat unit and no other leader.
pub fn loss_places(rules: &Rules, pos: &Position, leader: usize) -> Vec<Hex> {
    let side = rules.leaders[leader].side;
    let mut out: Vec<Hex> = (0..rules.units.len())
        .filter(|&u| rules.side_of(u) == side)
        .filter_map(|u| pos.hex_of(u))
        .filter(|&h| pos.leader_at(h).is_none_or(|l| l == leader))
        .collect();
    out.sort();
    out
}

/// Acre 14.41, 14.42, 10.53-10.55: applies the leader loss procedure's outcome. Unharmed:
/// placed at `place`, one of [`loss_places`] (with no place to go, 14.41 offers none and he
/// stays where he is: rules-notes). Wounded: off the map until his return (14.42). Killed:
/// out of the game, with the morale it costs. Returns the nationality whose morale fell.
pub fn apply_fate(
    rules: &Rules,
    pos: &mut Position,
    leader: usize,
    fate: LeaderFate,
    place: Option<Hex>,
    conrad: bool,
) -> Result<Option<Nationality>, String> {
    match fate {
        LeaderFate::Unharmed => {
            let places = loss_places(rules, pos, leader);
            match place {
                Some(h) if places.contains(&h) => pos.leaders[leader].at = Location::Map(h),
                Some(h) => {
                    return Err(format!(
                        "{} may be placed only with a friendly combat unit, alone of leaders (14.41): not {}",
                        rules.leaders[leader].name,
                        rules.map.id(h)
                    ))
                }
                None if places.is_empty() => {}
                None => {
                    return Err(format!(
                        "{} must be placed with a friendly combat unit (14.41)",
                        rules.leaders[leader].name
                    ))
                }
            }
            Ok(None)
        }
        LeaderFate::Wounded { until } => {
            let state = &mut pos.leaders[leader];
            state.at = Location::OffMap;
            state.wounded_until = Some(until);
            Ok(None)
        }
        LeaderFate::Killed => Ok(kill(rules, pos, leader, conrad)),
    }
}

/// Whether a leader commands a contingent of the garrison (17.0).
fn garrison_leader(rules: &Rules, leader: usize) -> bool {
    rules
        .contingents
        .iter()
        .any(|c| c.army == Some(Army::Garrison) && c.leader == leader)
}

/// Acre 14.42: where a wounded leader may be put back when he returns in the Allocation
/// Segment: a Crusader leader in a Camp hex, a garrison leader anywhere in Acre (its Wall
/// and Tower hexes included), a Moslem army leader off the map with the army. Never in a
/// hex with another leader (5.52) or an enemy combat unit (5.12). `turn` is the Game-Turn
/// whose Allocation Segment it is.
pub fn check_return(
    rules: &Rules,
    pos: &Position,
    leader: usize,
    at: Location,
    turn: u8,
) -> Result<(), String> {
    let l = &rules.leaders[leader];
    let s = &pos.leaders[leader];
    let due = s.wounded_until.is_some_and(|u| returns_in(u) <= turn);
    if s.dead || s.at != Location::OffMap || !due {
        return Err(format!(
            "{} is not a wounded leader due back this Game-Turn (14.41, 14.42)",
            l.name
        ));
    }
    let army_leader = l.side == Side::Moslem && !garrison_leader(rules, leader);
    match at {
        Location::OffMap if army_leader => Ok(()),
        Location::Map(h) if !army_leader => {
            let id = rules.map.id(h);
            let ground = match l.side {
                Side::Crusader => rules.map.camp(h).is_some(),
                Side::Moslem => rules.map.in_acre(h),
            };
            if !ground {
                return Err(format!(
                    "{} returns in {} (14.42), not in {id}",
                    l.name,
                    match l.side {
                        Side::Crusader => "a Camp hex",
                        Side::Moslem => "Acre",
                    }
                ));
            }
            if pos.leader_at(h).is_some() {
                return Err(format!("{id} already holds a leader (5.52)"));
            }
            if pos.side_at(rules, h).is_some_and(|x| x != l.side) {
                return Err(format!("{id} holds an enemy combat unit (5.12)"));
            }
            Ok(())
        }
        _ => Err(format!(
            "{} returns {} (14.42)",
            l.name,
            if army_leader {
                "off the map with the army"
            } else {
                "on the map"
            }
        )),
    }
}

/// Acre 14.42: returns a wounded leader to play at a checked place ([`check_return`]).
pub fn return_leader(
    rules: &Rules,
    pos: &mut Position,
    leader: usize,
    at: Location,
    turn: u8,
) -> Result<(), String> {
    check_return(rules, pos, leader, at, turn)?;
    let s = &mut pos.leaders[leader];
    s.at = at;
    s.wounded_until = None;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{put, setup};

    #[test]
    fn kings_and_the_german_leader_cost_their_own_nation_morale() {
        let (r, _) = setup();
        let l = |n: &str| r.leader(n).unwrap();
        assert_eq!(
            morale_lost_on_death(&r, l("Guy"), false),
            Some(Nationality::Jerusalem)
        );
        assert_eq!(
            morale_lost_on_death(&r, l("Philippe"), false),
            Some(Nationality::French)
        );
        assert_eq!(
            morale_lost_on_death(&r, l("Leopold"), true),
            Some(Nationality::German)
        );
        assert_eq!(morale_lost_on_death(&r, l("Henri"), false), None);
        // 16.0: Conrad is king of Jerusalem; Guy is out of the game; Jacques is in it.
        assert_eq!(morale_lost_on_death(&r, l("Conrad"), false), None);
        assert_eq!(
            morale_lost_on_death(&r, l("Conrad"), true),
            Some(Nationality::Jerusalem)
        );
        assert_eq!(morale_lost_on_death(&r, l("Guy"), true), None);
        assert!(!in_game(&r, l("Guy"), true) && in_game(&r, l("Guy"), false));
        assert!(in_game(&r, l("Jacques"), true) && !in_game(&r, l("Jacques"), false));
        assert_eq!(morale_lost_on_death(&r, l("Jacques"), true), None);
    }

    #[test]
    fn the_leader_loss_procedure_places_wounds_or_kills() {
        let (r, mut p) = setup();
        let richard = r.leader("Richard").unwrap();
        let u = put(&r, &mut p, "English Men-at-Arms 1", "1414");
        put(&r, &mut p, "Anjou Men-at-Arms 1", "1314");
        let philippe = r.leader("Philippe").unwrap();
        p.leaders[philippe].at = Location::Map(r.map.hex("1314").unwrap());
        // 14.41: only with a friendly combat unit, one leader to a hex.
        assert_eq!(
            loss_places(&r, &p, richard),
            vec![r.map.hex("1414").unwrap()]
        );
        assert!(apply_fate(
            &r,
            &mut p,
            richard,
            LeaderFate::Unharmed,
            r.map.hex("1314"),
            false
        )
        .is_err());
        assert!(apply_fate(&r, &mut p, richard, LeaderFate::Unharmed, None, false).is_err());
        apply_fate(
            &r,
            &mut p,
            richard,
            LeaderFate::Unharmed,
            r.map.hex("1414"),
            false,
        )
        .unwrap();
        assert_eq!(leader_with(&r, &p, u), Some(richard));
        // Wounded: off the map until his return (14.42).
        apply_fate(
            &r,
            &mut p,
            richard,
            LeaderFate::Wounded { until: 6 },
            None,
            false,
        )
        .unwrap();
        assert_eq!(p.leaders[richard].at, Location::OffMap);
        assert_eq!(p.leaders[richard].wounded_until, Some(6));
        // Killed: the French lose heart (10.54).
        let out = apply_fate(&r, &mut p, philippe, LeaderFate::Killed, None, false).unwrap();
        assert_eq!(out, Some(Nationality::French));
        assert!(p.leaders[philippe].dead);
        assert_eq!(p.morale.crusader[&Nationality::French], -1);
        assert_eq!(kill(&r, &mut p, philippe, false), None, "killed once");
    }

    #[test]
    fn a_leader_goes_with_his_retreating_unit() {
        let (r, mut p) = setup();
        let u = put(&r, &mut p, "Taqi Spearmen 1", "1415");
        let taqi = r.leader("Taqi").unwrap();
        p.leaders[taqi].at = Location::Map(r.map.hex("1415").unwrap());
        assert_eq!(leader_with(&r, &p, u), Some(taqi));
        p.units[u].at = Location::Map(r.map.hex("1418").unwrap());
        go_with(&r, &mut p, taqi, u).unwrap();
        assert_eq!(leader_hex(&p, taqi), r.map.hex("1418"));
        // Off the map with an army unit (9.26).
        p.units[u].at = Location::OffMap;
        go_with(&r, &mut p, taqi, u).unwrap();
        assert_eq!(p.leaders[taqi].at, Location::OffMap);
        // Not onto another friendly leader (5.52).
        let v = put(&r, &mut p, "Taqi Spearmen 2", "1419");
        let zain = r.leader("Zain").unwrap();
        p.leaders[zain].at = Location::Map(r.map.hex("1419").unwrap());
        assert!(go_with(&r, &mut p, taqi, v).is_err());
    }

    #[test]
    fn wounded_leaders_return_to_camp_acre_or_the_army() {
        let (r, mut p) = setup();
        let richard = r.leader("Richard").unwrap();
        let mashtub = r.leader("Mashtub").unwrap();
        let saladin = r.leader("Saladin").unwrap();
        for l in [richard, mashtub, saladin] {
            p.leaders[l].wounded_until = Some(4);
        }
        let camp = Location::Map(r.map.hex("1119").unwrap());
        let street = Location::Map(r.map.hex("2010").unwrap());
        assert!(
            check_return(&r, &p, richard, camp, 4).is_err(),
            "not before Turn 5"
        );
        assert!(check_return(&r, &p, richard, street, 5).is_err());
        return_leader(&r, &mut p, richard, camp, 5).unwrap();
        assert_eq!(p.leaders[richard].wounded_until, None);
        assert!(check_return(&r, &p, mashtub, camp, 5).is_err());
        assert!(check_return(&r, &p, mashtub, street, 5).is_ok());
        assert!(check_return(&r, &p, saladin, street, 5).is_err());
        assert!(check_return(&r, &p, saladin, Location::OffMap, 5).is_ok());
    }
}
