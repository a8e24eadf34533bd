//! The JSON documents of `--json` (documented in docs/json.md). Every document is an object
//! with `"version": 1`; adding fields keeps the version, changing or removing one bumps it.

use engine::{Event, Outcome, Pending, Seat, Visibility};
use registry::AnyGame;
use serde_json::{json, Value};

/// The version of every JSON document this program prints.
pub const VERSION: u32 = 1;

/// Seat names of the seats that must decide now (empty when the game is over).
pub fn pending_names(game: &dyn AnyGame, pending: &Pending) -> Vec<String> {
    pending.seats().iter().map(|&s| game.seat_name(s)).collect()
}

/// An outcome: `{"winner": name or null, "level": text or null, "reason": text}`.
pub fn outcome(game: &dyn AnyGame, outcome: Option<&Outcome>) -> Value {
    match outcome {
        None => Value::Null,
        Some(o) => json!({
            "winner": o.winner.map(|s| game.seat_name(s)),
            "level": o.level,
            "reason": o.reason,
        }),
    }
}

/// An event: rule case, text, rolls (dice, modifiers, total, table cell, result) and who may
/// see it.
pub fn event(seat_names: &[String], e: &Event) -> Value {
    let (public, seats) = match &e.visibility {
        Visibility::All => (true, Vec::new()),
        Visibility::Seats(s) => (false, s.iter().map(|&s| name(seat_names, s)).collect()),
    };
    json!({
        "case": e.case,
        "text": e.text,
        "rolls": e.rolls,
        "public": public,
        "seats": seats,
    })
}

/// A list of events.
pub fn events(seat_names: &[String], events: &[Event]) -> Value {
    Value::Array(events.iter().map(|e| event(seat_names, e)).collect())
}

/// A list of actions: `[{"notation": text}, ...]`.
pub fn actions(notations: &[String]) -> Value {
    Value::Array(notations.iter().map(|n| json!({ "notation": n })).collect())
}

fn name(seat_names: &[String], seat: Seat) -> String {
    seat_names
        .get(seat.index())
        .cloned()
        .unwrap_or_else(|| "?".into())
}

/// Prints a JSON document (pretty, keys in alphabetical order, a final newline) with its
/// `"version"`.
pub fn print(mut body: Value) {
    let mut doc = serde_json::Map::new();
    doc.insert("version".into(), json!(VERSION));
    if let Value::Object(fields) = &mut body {
        doc.append(fields);
    }
    say!(
        "{}",
        serde_json::to_string_pretty(&Value::Object(doc)).expect("JSON values print")
    );
}
