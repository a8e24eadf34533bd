//! Every worked example printed in the Crusades II rulebook, as a test: 5.32 (command span
//! extension), 9.32 (the heavy cavalry's charge and second melee), 12.1 (reinforcement entry
//! costs), 16.2 (melee odds), and the 10.0 example of one morale check per combat phase.

mod common;

use common::*;
use crusades_ii::melee::odds_modifiers;
use crusades_ii::state::Phase;
use engine::Seat;

/// Finds the two melee dice (attacker's, defender's) that make `action` give events
/// satisfying `wanted` on our tables, with the other dice as `dice(a, d)` lays them out.
fn find_dice(
    state: &crusades_ii::State,
    seat_name: &str,
    action: &str,
    dice: impl Fn(u8, u8) -> Vec<u8>,
    wanted: impl Fn(&[String]) -> bool,
) -> Option<(crusades_ii::State, Vec<String>)> {
    for a in 1..=10u8 {
        for d in 1..=10u8 {
            let mut s = state.clone();
            if let Ok(ev) = try_act(&mut s, seat_name, action, &dice(a, d)) {
                if wanted(&ev) {
                    return Some((s, ev));
                }
            }
        }
    }
    None
}

/// 5.32: the printed diagram shows Toktagin (command 4, span 6, +1) on a row of hexes with
/// units in command within his span, a unit in command by extension through an adjacent
/// in-command unit of his, and a unit beyond the chain out of command.
#[test]
fn example_5_32_command_span_extension() {
    let text = format!(
        r#"
turn = "0800"
phase = "movement"
active = "turk"
{HAB_CHITS}
[[leader]]
name = "Toktagin"
hex = "0510"
chit = "advance"
[[unit]]
name = "Toktagin a"
hex = "0516"
facing = "SSE"
[[unit]]
name = "Toktagin b"
hex = "0517"
facing = "SSE"
[[unit]]
name = "Toktagin c"
hex = "0519"
facing = "SSE"
"#
    );
    let s = position("hab", &text);
    let turk = seat(&s, "turk");
    let status = s.command_status(turk);
    let of = |name: &str| {
        status
            .iter()
            .find(|(u, _)| *u == unit(&s, name))
            .map(|(_, ok)| *ok)
    };
    assert_eq!(
        of("Toktagin a"),
        Some(true),
        "six hexes away: within span 6"
    );
    assert_eq!(
        of("Toktagin b"),
        Some(true),
        "seven away but adjacent to an in-command unit: extension"
    );
    assert_eq!(
        of("Toktagin c"),
        Some(false),
        "beyond the chain: out of command"
    );
    // Take the chain's link away and the extended unit falls out of command too.
    let text2 = text.replace("hex = \"0516\"", "hex = \"0515\"");
    let s2 = position("hab", &text2);
    let status2 = s2.command_status(turk);
    let b = unit(&s2, "Toktagin b");
    assert_eq!(
        status2.iter().find(|(u, _)| *u == b).map(|(_, ok)| *ok),
        Some(false)
    );
}

/// 12.1: "Raymond and his force are entering the map. His first two units, Ray a and b are
/// stacked together. They enter hex 2828 and expend 1/2 a movement point. Ray c enters 2828
/// next and pays 1 and a half movement points ... If Ray d and e were stacked together and
/// entered the hex 2828 next, they would pay 2 and a half movement points."
#[test]
fn example_12_1_reinforcement_entry_costs() {
    let mut s = start("hattin", &["historical-commands"], 7);
    act(&mut s, "muslim", "deploy-historical", &[]);
    assert_eq!(s.phase, Phase::Orders);
    for side in ["crusader", "muslim"] {
        act(&mut s, side, "orders-done", &[]);
    }
    assert_eq!(s.phase, Phase::Movement);
    assert_eq!(s.active, seat(&s, "crusader"));
    let h2828 = hex(&s, "2828");
    // The cost of entering the map at 2828 (a path of that one hex).
    let cost_into_2828 = |s: &crusades_ii::State, name: &str| {
        s.route_destinations(unit(s, name), false, &[h2828], &s.situation())
            .iter()
            .filter(|d| d.hex == h2828)
            .map(|d| d.cost)
            .min()
    };
    // Costs are in half movement points: 1/2 MP is 1.
    assert_eq!(
        cost_into_2828(&s, "Ray a"),
        Some(1),
        "Ray a and b stacked: 1/2 MP along the road"
    );
    act(&mut s, "crusader", "move Ray-a 2724 NNW", &[]);
    assert_eq!(
        where_is(&s, "Ray b").as_deref(),
        Some("2724"),
        "Ray b enters with Ray a"
    );
    assert_eq!(
        cost_into_2828(&s, "Ray c"),
        Some(3),
        "Ray c: 1/2 MP plus 1 for the second to enter"
    );
    // Ray c moves on through 2828 along the road: an explicit path (the cheapest path might
    // enter elsewhere at the same cost).
    act(&mut s, "crusader", "move Ray-c 2826 NNE via 2828 2827", &[]);
    assert_eq!(where_is(&s, "Ray c").as_deref(), Some("2826"));
    // A path that is not a path is refused.
    let r = try_act(
        &mut s.clone(),
        "crusader",
        "move Ray-d 2825 NNE via 2828 2826",
        &[],
    );
    assert!(r.is_err(), "{r:?}");
    assert_eq!(
        cost_into_2828(&s, "Ray d"),
        Some(5),
        "Ray d and e stacked, the third to enter: 2 1/2 MP"
    );
    // Other entry hexes are not affected.
    let other = hex(&s, "2628");
    let plain = s
        .destinations(unit(&s, "Ray d"), false)
        .iter()
        .filter(|d| d.hex == other)
        .map(|d| d.cost)
        .min();
    assert!(
        plain.is_some_and(|c| c < 5),
        "2628 costs its terrain only: {plain:?}"
    );
}

/// 16.2: "if an attacker with 5 strength points is attacking a defender with 2 strength
/// points, the ratio would be 2 to 1", worth +1; 3-1 +2; 4-1 or more +3; 1-2 or less gives the
/// defender +1.
#[test]
fn example_16_2_melee_odds() {
    assert_eq!(odds_modifiers(5, 2), (1, 0));
    assert_eq!(odds_modifiers(9, 3), (2, 0));
    assert_eq!(
        odds_modifiers(8, 3),
        (1, 0),
        "2.67 rounds down to 2-1, in the defender's favour"
    );
    assert_eq!(odds_modifiers(20, 4), (3, 0));
    assert_eq!(odds_modifiers(4, 4), (0, 0));
    assert_eq!(odds_modifiers(3, 6), (0, 1));
    assert_eq!(odds_modifiers(3, 5), (0, 0), "1 to 1.67 is not yet 1 to 2");
}

/// The 9.32 example, step by step. A charging Crusader heavy cavalry unit attacks a Turkish
/// cavalry unit; both pass morale; the Crusader rolls a Morale Check, the Turk no effect; the
/// Turk fails, retreats 3 hexes; the Crusader advances, moves on (4 MP), finds a Turk in its
/// frontal ZOC, both pass morale, the Crusader inflicts a step loss and takes a Morale Check;
/// the Turk is reduced, fails morale and retreats two hexes; the Crusader passes and
/// advances; combat has concluded.
#[test]
fn example_9_32_heavy_cavalry_charge() {
    let text = format!(
        r#"{}
[[unit]]
name = "Baldwin c"
hex = "1020"
facing = "NNE"
charging = true
[[unit]]
name = "Toktagin a"
hex = "1019"
facing = "SSE"
[[unit]]
name = "Toktagin b"
hex = "1017"
facing = "SSW"
"#,
        hab_melee()
    );
    let start_state = position("hab", &text);
    // Find the dice that give the printed results on our tables: the Crusader rolls "M",
    // the Turk "-"; then the Turk fails morale with a 10.
    let first = find_dice(
        &start_state,
        "crusader",
        "melee 1019 Baldwin-c",
        |a, d| vec![1, 1, a, d, 10],
        |ev| {
            ev.iter()
                .any(|e| e.contains("rolls M; defender") && e.ends_with("rolls -"))
        },
    );
    let (mut s, events) = first.expect("dice giving the printed first melee exist");
    assert!(
        events
            .iter()
            .any(|e| e == "Baldwin c passes its morale check"),
        "{events:?}"
    );
    assert!(events
        .iter()
        .any(|e| e == "Toktagin a passes its morale check"));
    assert!(events
        .iter()
        .any(|e| e == "Toktagin a fails its morale check"));
    assert!(events.iter().any(|e| e == "Toktagin a routs"));
    // The Turk retreats 3 hexes, away from the road the charge will take.
    let retreats = legal(&s, "turk");
    let h1019 = hex(&s, "1019");
    let pick = retreats
        .iter()
        .find(|a| {
            let to = hex(&s, a.split_whitespace().last().unwrap());
            to.distance(h1019) == 3 && to.q != h1019.q
        })
        .expect("a three-hex retreat")
        .clone();
    act(&mut s, "turk", &pick, &[]);
    // The attacker must advance into the vacated hex.
    assert_eq!(legal(&s, "crusader"), vec!["advance Baldwin-c".to_string()]);
    act(&mut s, "crusader", "advance Baldwin-c", &[]);
    assert_eq!(where_is(&s, "Baldwin c").as_deref(), Some("1019"));
    // Having advanced, it may move 4 more movement points.
    let moves = legal(&s, "crusader");
    assert!(moves.contains(&"halt".to_string()));
    assert!(
        moves.contains(&"pursue Baldwin-c 1018 NNE".to_string()),
        "{moves:?}"
    );
    act(&mut s, "crusader", "pursue Baldwin-c 1018 NNE", &[]);
    // A Turkish unit is now in its frontal ZOC: the second melee.
    assert!(legal(&s, "crusader").contains(&"melee 1017 Baldwin-c".to_string()));
    // Morale of both, both rolls, then the Turk's check (fails) and the Crusader's (passes).
    let second = find_dice(
        &s,
        "crusader",
        "melee 1017 Baldwin-c",
        |a, d| vec![1, 1, a, d, 10, 1],
        |ev| {
            ev.iter()
                .any(|e| e.contains("rolls 1; defender") && e.ends_with("rolls M"))
        },
    );
    let (mut s, events) = second.expect("dice giving the printed second melee exist");
    assert!(
        events.iter().any(|e| e == "Toktagin b loses a step"),
        "{events:?}"
    );
    assert!(events
        .iter()
        .any(|e| e == "Toktagin b fails its morale check"));
    assert!(events
        .iter()
        .any(|e| e == "Baldwin c passes its morale check"));
    let b = unit(&s, "Toktagin b");
    assert_eq!(s.unit(b).steps, 1, "flipped to its reduced side");
    let h1017 = hex(&s, "1017");
    let pick = legal(&s, "turk")
        .into_iter()
        .find(|a| hex(&s, a.split_whitespace().last().unwrap()).distance(h1017) == 2)
        .expect("a two-hex retreat");
    act(&mut s, "turk", &pick, &[]);
    act(&mut s, "crusader", "advance Baldwin-c", &[]);
    assert_eq!(where_is(&s, "Baldwin c").as_deref(), Some("1017"));
    // Combat has concluded: no third movement after the second melee.
    assert!(!legal(&s, "crusader")
        .iter()
        .any(|a| a.starts_with("pursue")));
    assert!(s.tasks.is_empty());
    assert_eq!(s.active, Seat(0));
}

/// 10.0: "if a unit, in the course of a single Fire Combat Phase, were required to make three
/// checks, it would in fact only have to make one".
#[test]
fn example_10_0_one_morale_check_per_combat_phase() {
    let text = format!(
        r#"{}
[[unit]]
name = "Toktagin a"
hex = "1019"
facing = "SSE"
"#,
        hab_melee()
    );
    let mut s = position("hab", &text);
    let u = unit(&s, "Toktagin a");
    s.dice.begin_action(&[3]).unwrap();
    let mut log = engine::Log::recording();
    use crusades_ii::morale::CheckKind;
    assert!(s.morale_check(u, CheckKind::Result, &mut log));
    assert!(
        s.morale_check(u, CheckKind::Result, &mut log),
        "the second check is not made"
    );
    assert!(
        s.morale_check(u, CheckKind::Result, &mut log),
        "nor the third"
    );
    s.dice
        .end_action()
        .expect("one die was enough for three required checks");
    assert_eq!(log.events().len(), 1);
}
