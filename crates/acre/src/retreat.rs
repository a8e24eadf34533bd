//! Retreats (9.24-9.27, 9.3): how far a unit retreats, and the simultaneous hex-by-hex
//! procedure in which every retreating unit steps one hex at a time, retreating units exert
//! a Zone of Control only into the hex they are leaving (9.31), and a hex that units of both
//! sides could enter is closed to both (9.32). [`retreat_step`] adds what a step does besides
//! moving: enemy leaders and siege engines caught alone (9.24) and the army morale changes
//! (10.51, 10.52). Retreats before melee (10.2) use the same procedure with their own length.

use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::map::Class;
use crate::position::{Board, Location, Pieces};
use crate::rules::{Army, Rules, Side};
use crate::zoc;
use crate::Position;

/// A unit in the middle of a retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retreater {
    /// The unit.
    pub unit: usize,
    /// The hex it occupied when the combat was resolved (9.24).
    pub origin: Hex,
    /// Where it stands now.
    pub at: Hex,
    /// How many hexes it must retreat.
    pub hexes: u32,
    /// How many it has retreated.
    pub moved: u32,
}

/// One hex of a retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Step {
    /// Into this hex.
    To(Hex),
    /// Off the map (9.26, Moslem army units only).
    OffMap,
}

/// Acre 9.24, 9.25: how many hexes a unit retreats: its Movement Allowance plus three, or
/// only two from a Wall or Tower hex.
pub fn retreat_hexes(rules: &Rules, unit: usize, from: Hex) -> u32 {
    /// Acre 9.24: hexes added to the Movement Allowance.
    const BEYOND_ALLOWANCE: u32 = 3;
    /// Acre 9.25: hexes retreated from a Wall or Tower hex.
    const FROM_THE_WALL: u32 = 2;
    if rules.map.is_wall_or_tower(from) {
        FROM_THE_WALL
    } else {
        rules.units[unit].movement as u32 + BEYOND_ALLOWANCE
    }
}

/// Starts a retreat from where the unit stands.
pub fn start(rules: &Rules, pos: &Position, unit: usize) -> Option<Retreater> {
    let at = pos.hex_of(unit)?;
    Some(Retreater {
        unit,
        origin: at,
        at,
        hexes: retreat_hexes(rules, unit, at),
        moved: 0,
    })
}

fn on_edge(rules: &Rules, hex: Hex) -> bool {
    ["north_edge", "east_edge", "south_entry"]
        .iter()
        .any(|a| rules.map.area(a).contains(&hex))
}

/// Acre 9.24-9.26, 9.31: the steps one retreating unit could take next, before 9.32 closes
/// the hexes both sides could enter.
/// Where pieces stand is asked of `board`, the position's table.
fn raw_options(rules: &Rules, board: &Board, all: &[Retreater], r: &Retreater) -> Vec<Step> {
    let pos = board.position();
    let side = rules.side_of(r.unit);
    let ty = rules.unit_type(r.unit);
    let last = r.moved + 1 == r.hexes;
    let retreating = |u: usize| all.iter().any(|o| o.unit == u);
    let mut out = Vec::new();
    // 9.26: a Moslem army unit may be retreated off the map.
    let army = rules.contingent_of(r.unit).army;
    if side == Side::Moslem && army.is_some_and(|a| a != Army::Garrison) && on_edge(rules, r.at) {
        out.push(Step::OffMap);
    }
    let from_wall = rules.map.is_wall_or_tower(r.origin);
    for n in rules.map.neighbours(r.at) {
        // 9.24: as far away from the hex of the combat as the retreat has gone.
        if n.distance(r.origin) != r.moved + 1 {
            continue;
        }
        // 9.24: no prohibited terrain (sea, an all-sea hexside, marsh for cavalry: 15.14).
        if pos.effects(rules, n).cost.is_none() || rules.map.all_sea_between(r.at, n) {
            continue;
        }
        if ty.cavalry && rules.map.class(n) == Class::Marsh {
            continue;
        }
        // 9.25: off the wall: a Moslem into Acre's streets.
        if from_wall && side == Side::Moslem && rules.map.class(n) != Class::Street {
            continue;
        }
        if from_wall && side == Side::Crusader && rules.map.is_wall_or_tower(n) {
            continue;
        }
        // 9.31: a retreating enemy controls only the hex it is leaving.
        if all
            .iter()
            .any(|o| o.at == n && rules.side_of(o.unit) != side)
        {
            continue;
        }
        // Stationary units: enemies occupy and control; friends block, but fire units may be
        // passed through (9.24).
        if let Some(u) = board.unit_at(n) {
            if !retreating(u) {
                let friend = rules.side_of(u) == side;
                let passable =
                    friend && !last && rules.unit_type(u).kind == crate::rules::Kind::Fire;
                if !passable {
                    continue;
                }
            }
        }
        let controlled = rules.map.neighbours(n).any(|k| {
            board.unit_at(k).is_some_and(|u| {
                !retreating(u)
                    && rules.side_of(u) != side
                    && zoc::exerts_into(rules, board, u, k, n)
            })
        });
        if controlled {
            continue;
        }
        out.push(Step::To(n));
    }
    // 9.25: a Crusader comes off the wall toward a camp of his nationality.
    if from_wall && side == Side::Crusader {
        if let Some(nat) = rules.contingent_of(r.unit).nationality {
            let to_camp = |h: Hex| {
                rules
                    .map
                    .camps()
                    .filter(|(_, n)| *n == nat)
                    .map(|(c, _)| c.distance(h))
                    .min()
                    .unwrap_or(0)
            };
            let best = out
                .iter()
                .filter_map(|s| match s {
                    Step::To(h) => Some(to_camp(*h)),
                    Step::OffMap => None,
                })
                .min();
            out.retain(|s| matches!(s, Step::To(h) if Some(to_camp(*h)) == best));
        }
    }
    out
}

/// Acre 9.3, 9.31, 9.32, 6.25 (never into an enemy-controlled hex): every retreating unit's choices
/// for the next hex, all at once: a hex that units of both sides could enter is closed to both. A
/// unit left with no choice is eliminated ([`apply_step`]).
pub fn step_options(rules: &Rules, pos: &Position, all: &[Retreater]) -> Vec<Vec<Step>> {
    if all.is_empty() {
        return Vec::new();
    }
    let board = Board::new(rules, pos);
    let raw: Vec<Vec<Step>> = all
        .iter()
        .map(|r| raw_options(rules, &board, all, r))
        .collect();
    let hexes_of = |side: Side| -> Vec<Hex> {
        all.iter()
            .zip(&raw)
            .filter(|(r, _)| rules.side_of(r.unit) == side)
            .flat_map(|(_, o)| {
                o.iter().filter_map(|s| match s {
                    Step::To(h) => Some(*h),
                    Step::OffMap => None,
                })
            })
            .collect()
    };
    let crusader = hexes_of(Side::Crusader);
    let moslem = hexes_of(Side::Moslem);
    raw.into_iter()
        .map(|o| {
            o.into_iter()
                .filter(|s| match s {
                    Step::To(h) => !(crusader.contains(h) && moslem.contains(h)),
                    Step::OffMap => true,
                })
                .collect()
        })
        .collect()
}

/// What became of a retreating unit after one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Still retreating.
    Retreating,
    /// Finished, and disrupted (Addenda to 9.24).
    Finished,
    /// Retreated off the map (9.26).
    OffMap,
    /// Could not retreat: eliminated (9.24, 9.3).
    Eliminated,
}

/// Acre 9.3: moves every retreating unit one hex at once: `choices[i]` is the step chosen
/// for `all[i]` (`None` if it has none). A choice not among the unit's options, or two units
/// choosing the same hex, is refused and nothing changes. Units without a choice go to the
/// Regrouping Box (9.27); finished units are disrupted (Addenda to 9.24). Finished,
/// eliminated and departed units leave `all`.
pub fn apply_step(
    rules: &Rules,
    pos: &mut Position,
    all: &mut Vec<Retreater>,
    choices: &[Option<Step>],
) -> Result<Vec<(usize, Outcome)>, String> {
    let options = step_options(rules, pos, all);
    if choices.len() != all.len() {
        return Err("one choice is needed for each retreating unit".into());
    }
    let mut taken = Vec::new();
    for (i, c) in choices.iter().enumerate() {
        match c {
            Some(s) if !options[i].contains(s) => {
                return Err(format!(
                    "{} cannot retreat there (9.24, 9.3)",
                    rules.units[all[i].unit].name
                ))
            }
            None if !options[i].is_empty() => {
                return Err(format!(
                    "{} can retreat and must (9.24)",
                    rules.units[all[i].unit].name
                ))
            }
            Some(Step::To(h)) => {
                if taken.contains(h) {
                    return Err(format!(
                        "two units cannot retreat into {} (5.51)",
                        rules.map.id(*h)
                    ));
                }
                taken.push(*h);
            }
            _ => {}
        }
    }
    let mut results = Vec::new();
    for (r, c) in all.iter_mut().zip(choices) {
        let state = &mut pos.units[r.unit];
        let outcome = match c {
            None => {
                state.at = Location::Regrouping;
                state.disrupted = false;
                Outcome::Eliminated
            }
            Some(Step::OffMap) => {
                state.at = Location::OffMap;
                Outcome::OffMap
            }
            Some(Step::To(h)) => {
                state.at = Location::Map(*h);
                r.at = *h;
                r.moved += 1;
                if r.moved >= r.hexes {
                    state.disrupted = true;
                    Outcome::Finished
                } else {
                    Outcome::Retreating
                }
            }
        };
        results.push((r.unit, outcome));
    }
    let going: Vec<usize> = results
        .iter()
        .filter(|(_, o)| *o != Outcome::Retreating)
        .map(|(u, _)| *u)
        .collect();
    all.retain(|r| !going.contains(&r.unit));
    Ok(results)
}

/// What one step of a retreat did ([`retreat_step`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepReport {
    /// Each retreating unit and what became of it, as [`apply_step`] returns them.
    pub outcomes: Vec<(usize, Outcome)>,
    /// Enemy leaders and siege engines eliminated by the units' entering their hexes.
    pub overruns: Vec<crate::melee::Overrun>,
}

/// Acre 9.3, 9.24, 10.51, 10.52: [`apply_step`] with everything else a step does on
/// Game-Turn `turn`: a unit retreating into a hex with only an enemy leader or siege engine
/// eliminates them (9.24, with 12.13, 12.23 and 12.34 for what that does to each engine:
/// [`crate::melee::overrun`]); a Moslem army unit retreating into Acre raises Moslem morale the
/// first time (10.51); a Moslem army unit eliminated for want of a retreat counts toward the
/// thirty of 10.52. Leaders who went with an eliminated unit are the caller's to put through
/// the loss procedure (9.22, 14.4).
pub fn retreat_step(
    rules: &Rules,
    pos: &mut Position,
    all: &mut Vec<Retreater>,
    choices: &[Option<Step>],
    turn: u8,
    conrad: bool,
) -> Result<StepReport, String> {
    let results = apply_step(rules, pos, all, choices)?;
    let mut overruns = Vec::new();
    for &(u, outcome) in &results {
        let side = rules.side_of(u);
        let army = side == Side::Moslem
            && rules
                .contingent_of(u)
                .army
                .is_some_and(|a| a != Army::Garrison);
        match outcome {
            Outcome::Retreating | Outcome::Finished => {
                let Some(h) = pos.hex_of(u) else { continue };
                overruns.extend(crate::melee::overrun(rules, pos, h, side, turn, conrad));
                if army && rules.map.in_acre(h) {
                    crate::melee::army_unit_entered_acre(pos);
                }
            }
            Outcome::Eliminated if army => {
                crate::melee::army_unit_eliminated(pos);
            }
            _ => {}
        }
    }
    Ok(StepReport {
        outcomes: results,
        overruns,
    })
}

/// Acre 10.21, 10.23: starts a retreat before melee: a voluntary one may run up to the
/// unit's full Movement Allowance (the Moslem may stop after three hexes:
/// [`stop_before_combat`]); a horse archer out of command must run its allowance plus three
/// hexes, even to its elimination. It then proceeds hex by hex as any retreat
/// ([`step_options`], [`retreat_step`]) and ends disrupted (10.21). `None` if the unit may not
/// retreat before combat (checked by [`crate::cavalry::may_retreat_before_combat`] and
/// [`crate::cavalry::must_retreat_before_combat`]) or is off the map.
pub fn start_before_combat(
    rules: &Rules,
    pos: &Position,
    unit: usize,
    forced: bool,
) -> Option<Retreater> {
    let at = pos.hex_of(unit)?;
    let (_, most) = crate::cavalry::retreat_before_combat_hexes(rules, unit, forced);
    Some(Retreater {
        unit,
        origin: at,
        at,
        hexes: most,
        moved: 0,
    })
}

/// Acre 10.21: whether the Moslem may stop a voluntary retreat before combat now: it has
/// gone at least three hexes. A forced one (10.23) never stops early.
pub fn may_stop_before_combat(rules: &Rules, r: &Retreater, forced: bool) -> bool {
    let (least, _) = crate::cavalry::retreat_before_combat_hexes(rules, r.unit, forced);
    !forced && r.moved >= least
}

/// Acre 10.21: the Moslem stops a voluntary retreat before combat where the unit stands,
/// three hexes or more from where it began: it is disrupted and leaves `all`.
pub fn stop_before_combat(
    rules: &Rules,
    pos: &mut Position,
    all: &mut Vec<Retreater>,
    unit: usize,
    forced: bool,
) -> Result<(), String> {
    let i = all
        .iter()
        .position(|r| r.unit == unit)
        .ok_or("that unit is not retreating")?;
    if !may_stop_before_combat(rules, &all[i], forced) {
        return Err(format!(
            "{} must retreat before combat at least three hexes, and a forced retreat its full length (10.21, 10.23)",
            rules.units[unit].name
        ));
    }
    pos.units[unit].disrupted = true;
    all.remove(i);
    Ok(())
}

/// Acre 10.72, 10.24: the Path of Retreat of a unit that retreated from `origin` through
/// `steps` (the hexes it entered, in order): the vacated hex, then those hexes.
pub fn path_of_retreat(origin: Hex, steps: &[Hex]) -> Vec<Hex> {
    std::iter::once(origin)
        .chain(steps.iter().copied())
        .collect()
}

/// Acre 9.24: "A unit that has suffered a Retreat result may not use road movement rates
/// during the next Game-Turn": whether a unit whose last Retreat result came on Game-Turn
/// `retreated_on` may use road rates on Game-Turn `turn` (read as printed: the next
/// Game-Turn only, rules-notes). The game records the Game-Turn of each unit's last retreat.
pub fn may_use_road_rates(retreated_on: Option<u8>, turn: u8) -> bool {
    retreated_on.is_none_or(|t| turn != t + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::melee::Overrun;
    use crate::test_support::{put, setup};

    /// Runs a lone retreat, each step to the first hex offered, and returns its path.
    fn run(rules: &Rules, pos: &mut Position, all: &mut Vec<Retreater>) -> Vec<Hex> {
        let mut steps = Vec::new();
        while !all.is_empty() {
            let opts = step_options(rules, pos, all);
            let choice = opts[0].iter().find(|s| matches!(s, Step::To(_))).copied();
            retreat_step(rules, pos, all, &[choice], 1, false).unwrap();
            if let Some(Step::To(h)) = choice {
                steps.push(h);
            }
        }
        steps
    }

    #[test]
    fn a_retreat_into_a_lone_enemy_leader_kills_him() {
        let (r, mut p) = setup();
        let u = put(&r, &mut p, "Taqi Spearmen 1", "1415");
        let mut all = vec![start(&r, &p, u).unwrap()];
        let Step::To(first) = step_options(&r, &p, &all)[0][0] else {
            panic!("a hex to retreat into")
        };
        let guy = r.leader("Guy").unwrap();
        p.leaders[guy].at = Location::Map(first);
        let report =
            retreat_step(&r, &mut p, &mut all, &[Some(Step::To(first))], 4, false).unwrap();
        assert_eq!(report.outcomes, vec![(u, Outcome::Retreating)]);
        assert_eq!(
            report.overruns,
            vec![Overrun::LeaderKilled {
                leader: guy,
                morale: Some(crate::map::Nationality::Jerusalem)
            }]
        );
        assert!(p.leaders[guy].dead);
    }

    #[test]
    fn an_army_unit_with_nowhere_to_go_counts_toward_10_52() {
        let (r, mut p) = setup();
        let u = put(&r, &mut p, "Taqi Spearmen 1", "1415");
        let ring: Vec<Hex> = r.map.neighbours(r.map.hex("1415").unwrap()).collect();
        let crusaders = (0..r.units.len()).filter(|&c| r.side_of(c) == Side::Crusader);
        for (c, h) in crusaders.zip(&ring) {
            p.units[c].at = Location::Map(*h);
        }
        let mut all = vec![start(&r, &p, u).unwrap()];
        assert!(step_options(&r, &p, &all)[0].is_empty());
        let report = retreat_step(&r, &mut p, &mut all, &[None], 1, false).unwrap();
        assert_eq!(report.outcomes, vec![(u, Outcome::Eliminated)]);
        assert_eq!(p.units[u].at, Location::Regrouping);
        assert_eq!(p.morale.army_losses, 1);
    }

    #[test]
    fn no_road_rates_the_game_turn_after_a_retreat() {
        assert!(may_use_road_rates(None, 3));
        assert!(may_use_road_rates(Some(2), 2));
        assert!(!may_use_road_rates(Some(2), 3));
        assert!(may_use_road_rates(Some(2), 4));
    }

    #[test]
    fn retreat_before_combat_runs_three_to_the_full_allowance() {
        let (r, mut p) = setup();
        let u = put(&r, &mut p, "Isa Horse Archers 1", "1415");
        let mut all = vec![start_before_combat(&r, &p, u, false).unwrap()];
        assert_eq!(all[0].hexes, 9);
        for n in 0..3 {
            assert!(
                stop_before_combat(&r, &mut p, &mut all, u, false).is_err(),
                "after {n}"
            );
            let opts = step_options(&r, &p, &all);
            let choice = opts[0].iter().find(|s| matches!(s, Step::To(_))).copied();
            retreat_step(&r, &mut p, &mut all, &[choice], 1, false).unwrap();
        }
        stop_before_combat(&r, &mut p, &mut all, u, false).unwrap();
        assert!(all.is_empty());
        assert!(p.units[u].disrupted, "10.21");
        assert_eq!(p.hex_of(u).unwrap().distance(r.map.hex("1415").unwrap()), 3);
    }

    #[test]
    fn forced_retreat_before_combat_runs_its_allowance_plus_three() {
        let (r, mut p) = setup();
        let u = put(&r, &mut p, "Isa Horse Archers 1", "0615");
        let mut all = vec![start_before_combat(&r, &p, u, true).unwrap()];
        assert_eq!(all[0].hexes, 12);
        let steps = run(&r, &mut p, &mut all);
        assert_eq!(steps.len(), 12);
        assert!(p.units[u].disrupted);
        assert_eq!(
            path_of_retreat(r.map.hex("0615").unwrap(), &steps).len(),
            13
        );
    }
}
