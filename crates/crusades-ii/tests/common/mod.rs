//! Helpers for the Crusades II tests: starting games and positions, and taking actions by
//! their notation.

#![allow(dead_code)]

use crusades_ii::State;
use engine::{DiceMode, Game, Log, Seat, Setup, Startable};

/// A new game of `scenario` with seeded dice.
pub fn start(scenario: &str, options: &[&str], seed: u64) -> State {
    start_with(scenario, options, seed, DiceMode::Seeded, None)
}

/// A game of `scenario` from a position file's text.
pub fn position(scenario: &str, text: &str) -> State {
    start_with(scenario, &[], 1, DiceMode::Manual, Some(text))
}

/// A new game, as `crusades new` makes it.
pub fn start_with(
    scenario: &str,
    options: &[&str],
    seed: u64,
    dice: DiceMode,
    position: Option<&str>,
) -> State {
    let setup = Setup {
        scenario: scenario.into(),
        options: options.iter().map(|s| s.to_string()).collect(),
        seed,
        dice,
        position: position.map(str::to_string),
    };
    State::start(&setup, &crusades_ii::builtin_data()).unwrap_or_else(|e| panic!("{e}"))
}

/// The seat called `name`.
pub fn seat(s: &State, name: &str) -> Seat {
    s.battle
        .seat(name)
        .unwrap_or_else(|| panic!("no seat {name}"))
}

/// Takes an action by notation with the dice given (manual mode) and returns the events'
/// texts; panics with the reason if it is refused.
pub fn act(s: &mut State, seat_name: &str, text: &str, dice: &[u8]) -> Vec<String> {
    try_act(s, seat_name, text, dice).unwrap_or_else(|e| panic!("`{text}` by {seat_name}: {e}"))
}

/// Takes an action by notation, as a session does: on a copy, committed only on success.
pub fn try_act(
    s: &mut State,
    seat_name: &str,
    text: &str,
    dice: &[u8],
) -> Result<Vec<String>, String> {
    let who = seat(s, seat_name);
    let action = s.parse_action(text)?;
    let mut next = s.clone();
    if next.dice.mode() == DiceMode::Manual {
        next.dice.begin_action(dice).map_err(|e| e.to_string())?;
    } else {
        next.dice.begin_action(&[]).map_err(|e| e.to_string())?;
    }
    let mut log = Log::recording();
    next.apply(who, &action, &mut log).map_err(|e| e.reason)?;
    next.dice.end_action().map_err(|e| e.to_string())?;
    *s = next;
    Ok(log.take().into_iter().map(|e| e.text).collect())
}

/// The legal actions of a seat, as notation.
pub fn legal(s: &State, seat_name: &str) -> Vec<String> {
    let who = seat(s, seat_name);
    s.legal_actions(who)
        .iter()
        .map(|a| s.action_text(a))
        .collect()
}

/// The legal actions with each `select COUNTER` replaced by that counter's moves (the
/// actions listed once it is selected, but `deselect`): everything the seat could do now,
/// one counter at a time.
pub fn legal_moves(s: &State, seat_name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for a in legal(s, seat_name) {
        if a.starts_with("select ") {
            let mut t = s.clone();
            act(&mut t, seat_name, &a, &[]);
            out.extend(legal(&t, seat_name).into_iter().filter(|b| b != "deselect"));
        } else {
            out.push(a);
        }
    }
    out
}

/// The id of a unit by printed name.
pub fn unit(s: &State, name: &str) -> u16 {
    s.battle
        .unit_by_name(name)
        .unwrap_or_else(|| panic!("no unit {name}"))
}

/// The hex of a printed id.
pub fn hex(s: &State, id: &str) -> hexgrid::Hex {
    s.battle
        .map
        .hex(id.parse().unwrap())
        .unwrap_or_else(|| panic!("{id} is not on the map"))
}

/// The printed id of a unit's hex.
pub fn where_is(s: &State, name: &str) -> Option<String> {
    s.hex(unit(s, name)).map(|h| s.id(h))
}

/// The head of a Hab position in the Crusader's Melee Phase, every leader with a chit.
pub fn hab_melee() -> String {
    format!(
        r#"
turn = "0800"
phase = "melee"
active = "crusader"
{HAB_CHITS}
[[leader]]
name = "Toktagin"
chit = "stand""#
    )
}

/// Chits for every Hab leader, as position files after the Order Phase need them.
pub const HAB_CHITS: &str = r#"
[[leader]]
name = "Baldwin"
chit = "attack"
[[leader]]
name = "Antiochene"
chit = "attack"
[[leader]]
name = "Fulcoy"
chit = "attack"
[[leader]]
name = "Pons of Tripoli"
chit = "attack"
[[leader]]
name = "Il-Ghazi"
chit = "stand"
"#;

/// Every advanced and optional rule of 16.0 at once.
pub const EVERY_ADVANCED_RULE: &[&str] = &[
    "advanced-sequence",
    "turn-ends-chit",
    "split-commands",
    "berserk",
    "optional-victory",
    "off-map-leader-boxes",
    "melee-odds",
    "unit-type-modifiers",
];
