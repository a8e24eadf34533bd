//! Retreats (9.24-9.27, 9.3): how far a unit retreats, and the simultaneous hex-by-hex
//! procedure in which every retreating unit steps one hex at a time, retreating units exert
//! a Zone of Control only into the hex they are leaving (9.31), and a hex that units of both
//! sides could enter is closed to both (9.32).

use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::map::Class;
use crate::position::Location;
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
fn raw_options(rules: &Rules, pos: &Position, all: &[Retreater], r: &Retreater) -> Vec<Step> {
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
        if let Some(u) = pos.unit_at(n) {
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
            pos.unit_at(k).is_some_and(|u| {
                !retreating(u) && rules.side_of(u) != side && zoc::exerts_into(rules, pos, u, k, n)
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

/// Acre 9.3, 9.31, 9.32: every retreating unit's choices for the next hex, all at once: a
/// hex that units of both sides could enter is closed to both. A unit left with no choice is
/// eliminated ([`apply_step`]).
pub fn step_options(rules: &Rules, pos: &Position, all: &[Retreater]) -> Vec<Vec<Step>> {
    let raw: Vec<Vec<Step>> = all
        .iter()
        .map(|r| raw_options(rules, pos, all, r))
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
