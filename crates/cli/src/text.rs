//! Text for humans: events with their rule case, dice, modifiers and table cell; outcomes;
//! who must decide; and any JSON value (a game's view) as indented lines.

use engine::{Event, Outcome, Pending, RollRecord, Visibility};
use registry::AnyGame;
use serde_json::Value;

/// An event as lines: `[case] text`, then one line per roll.
pub fn event_lines(seat_names: &[String], e: &Event) -> Vec<String> {
    let secret = match &e.visibility {
        Visibility::All => String::new(),
        Visibility::Seats(seats) => format!(
            "  (seen only by {})",
            seats
                .iter()
                .map(|s| seat_names.get(s.index()).map_or("?", String::as_str))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
    };
    let mut lines = vec![format!("[{}] {}{}", e.case, e.text, secret)];
    lines.extend(e.rolls.iter().map(|r| format!("    {}", roll_line(r))));
    lines
}

/// A roll on one line: `purpose: dice 4 2, modifier +1, total 7, Table cell: result`.
pub fn roll_line(r: &RollRecord) -> String {
    let dice = r
        .dice
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    let mut parts = vec![format!("{}: dice {dice}", r.purpose)];
    parts.extend(
        r.modifiers
            .iter()
            .map(|m| format!("{} {:+}", m.reason, m.value)),
    );
    parts.push(format!("total {}", r.total));
    let result = match &r.cell {
        Some(cell) => format!("{cell}: {}", r.result),
        None => format!("result: {}", r.result),
    };
    parts.push(result);
    parts.join(", ")
}

/// Prints events, one block each.
pub fn print_events(seat_names: &[String], events: &[Event]) {
    for e in events {
        for line in event_lines(seat_names, e) {
            say!("{line}");
        }
    }
}

/// `East wins (decisive): reason` or `A draw: reason`.
pub fn outcome_line(game: &dyn AnyGame, o: &Outcome) -> String {
    let who = match o.winner {
        Some(s) => format!("{} wins", game.seat_name(s)),
        None => "A draw".to_string(),
    };
    match &o.level {
        Some(level) => format!("{who} ({level}): {}", o.reason),
        None => format!("{who}: {}", o.reason),
    }
}

/// `To decide: East, West` or `Game over: …`.
pub fn pending_line(game: &dyn AnyGame) -> String {
    match game.pending() {
        Pending::Over => match game.outcome() {
            Some(o) => format!("Game over. {}", outcome_line(game, &o)),
            None => "Game over.".to_string(),
        },
        Pending::Seats(seats) if seats.is_empty() => "No seat has a decision to make.".into(),
        Pending::Seats(seats) => format!(
            "To decide: {}",
            seats
                .iter()
                .map(|&s| game.seat_name(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A JSON value as indented `key: value` lines (for a game's view in text).
pub fn json_lines(value: &Value, indent: usize, out: &mut Vec<String>) {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match inline(v) {
                    Some(text) => out.push(format!("{pad}{k}: {text}")),
                    None => {
                        out.push(format!("{pad}{k}:"));
                        json_lines(v, indent + 2, out);
                    }
                }
            }
        }
        Value::Array(items) => {
            for v in items {
                match inline(v).or_else(|| flat_object(v)) {
                    Some(text) => out.push(format!("{pad}- {text}")),
                    None => {
                        out.push(format!("{pad}-"));
                        json_lines(v, indent + 2, out);
                    }
                }
            }
        }
        v => out.push(format!("{pad}{}", inline(v).unwrap_or_default())),
    }
}

/// A scalar, or an array of scalars, on one line.
fn inline(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("-".into()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        Value::Array(items) if items.is_empty() => Some("(none)".into()),
        Value::Object(map) if map.is_empty() => Some("(none)".into()),
        Value::Array(items) if items.iter().all(is_scalar) => Some(
            items
                .iter()
                .map(|i| inline(i).unwrap_or_default())
                .collect::<Vec<_>>()
                .join(", "),
        ),
        _ => None,
    }
}

/// An object whose values all fit inline, as `k: v; k: v`.
fn flat_object(v: &Value) -> Option<String> {
    let Value::Object(map) = v else { return None };
    let parts: Option<Vec<String>> = map
        .iter()
        .map(|(k, v)| inline(v).map(|t| format!("{k}: {t}")))
        .collect();
    parts.map(|p| p.join("; "))
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_reads_as_indented_lines() {
        let mut out = Vec::new();
        json_lines(
            &json!({"round": 1, "points": [0, 2], "bids": [{"shown": 2}, "committed"],
                    "units": [{"name": "Ray", "hex": "1619", "markers": {"rout": [true]}}],
                    "runner": null}),
            0,
            &mut out,
        );
        assert_eq!(
            out,
            [
                "bids:",
                "  - shown: 2",
                "  - committed",
                "points: 0, 2",
                "round: 1",
                "runner: -",
                "units:",
                "  -",
                "    hex: 1619",
                "    markers:",
                "      rout: true",
                "    name: Ray",
            ]
        );
    }

    #[test]
    fn rolls_read_in_one_line() {
        let r = RollRecord {
            purpose: "melee of Ray".into(),
            dice: vec![4, 2],
            modifiers: vec![engine::Modifier {
                reason: "Stand".into(),
                value: -1,
            }],
            total: 5,
            cell: Some("Melee Table, 1-2, row 5".into()),
            result: "D".into(),
        };
        assert_eq!(
            roll_line(&r),
            "melee of Ray: dice 4 2, Stand -1, total 5, Melee Table, 1-2, row 5: D"
        );
    }
}
