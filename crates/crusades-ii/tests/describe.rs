//! Legal actions described for a client (engine::ActionInfo): the counters, hexes and
//! targets they are about, and for melee every modifier of 9.32, without the defender's
//! hidden command chit (5.0).

mod common;

use common::*;
use engine::Game;

/// The 9.32 position: Baldwin c (Attack chit) may attack Toktagin a in 1019.
fn charge_position(toktagin_chit: &str) -> crusades_ii::State {
    let head = hab_melee();
    let (before, _) = head
        .rsplit_once("chit = \"stand\"")
        .expect("Toktagin's chit ends the head");
    let text = format!(
        r#"{before}chit = "{toktagin_chit}"
[[unit]]
name = "Baldwin c"
hex = "1020"
facing = "NNE"
[[unit]]
name = "Toktagin a"
hex = "1019"
facing = "SSE"
"#
    );
    position("hab", &text)
}

fn described(s: &crusades_ii::State, seat_name: &str, notation: &str) -> engine::ActionInfo {
    let who = seat(s, seat_name);
    let action = s
        .legal_actions(who)
        .into_iter()
        .find(|a| s.action_text(a) == notation)
        .unwrap_or_else(|| panic!("`{notation}` is not legal"));
    s.describe_action(who, &action)
}

#[test]
fn a_melee_shows_both_sides_and_the_attackers_modifiers() {
    let s = charge_position("stand");
    let info = described(&s, "crusader", "melee 1019 Baldwin-c");
    assert_eq!(info.kind, "melee");
    assert_eq!(info.counters, ["Baldwin-c"]);
    assert_eq!(info.targets, ["Toktagin-a"]);
    assert_eq!(info.hex.map(|h| h.to_string()).as_deref(), Some("1019"));
    assert!(
        info.details
            .iter()
            .any(|d| d == "attacker +1 Attack command (5.11)"),
        "{:?}",
        info.details
    );
    assert!(info
        .details
        .iter()
        .any(|d| d.starts_with("attacker: strength")));
    assert!(info
        .details
        .iter()
        .any(|d| d.starts_with("defender: strength")));
    assert!(
        !info
            .details
            .iter()
            .any(|d| d.contains("Stand command (5.13)")),
        "the Turk's Stand chit is hidden from the Crusader: {:?}",
        info.details
    );
}

#[test]
fn a_melee_description_does_not_depend_on_the_defenders_chit() {
    let stand = described(
        &charge_position("stand"),
        "crusader",
        "melee 1019 Baldwin-c",
    );
    let attack = described(
        &charge_position("attack"),
        "crusader",
        "melee 1019 Baldwin-c",
    );
    assert_eq!(stand, attack);
}

#[test]
fn every_described_action_carries_its_notation_and_what_it_is_about() {
    let mut s = start("hab", &[], 5);
    let mut fire_seen = 0;
    let mut moves_seen = 0;
    let mut pick_state: u64 = 7;
    for _ in 0..4000 {
        if fire_seen > 0 && moves_seen > 0 {
            break;
        }
        let pending = s.pending();
        let Some(&who) = pending.seats().first() else {
            break;
        };
        let legal = s.legal_actions(who);
        for a in &legal {
            let info = s.describe_action(who, a);
            let text = s.action_text(a);
            assert_eq!(info.notation, text);
            assert_eq!(Some(info.kind.as_str()), text.split_whitespace().next());
            assert!(!info.label.is_empty());
            match info.kind.as_str() {
                "fire" | "melee" => {
                    fire_seen += 1;
                    assert!(info.hex.is_some() && !info.targets.is_empty(), "{info:?}");
                    assert!(!info.details.is_empty(), "{info:?}");
                }
                "move" | "place" | "retreat" | "withdraw" | "pursue" => {
                    moves_seen += 1;
                    assert!(info.hex.is_some() && !info.counters.is_empty(), "{info:?}");
                }
                _ => {}
            }
        }
        // Prefer combat so the game shows it; otherwise a seeded pseudo-random action.
        let pick = legal
            .iter()
            .position(|a| s.action_text(a).starts_with("melee"))
            .or_else(|| {
                legal
                    .iter()
                    .position(|a| s.action_text(a).starts_with("fire"))
            })
            .unwrap_or_else(|| {
                pick_state = pick_state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (pick_state >> 33) as usize % legal.len()
            });
        let mut log = engine::Log::discarding();
        let mut next = s.clone();
        next.apply(who, &legal[pick], &mut log).expect("legal");
        s = next;
    }
    assert!(moves_seen > 0, "no move was described");
    assert!(fire_seen > 0, "no fire or melee was described");
}
