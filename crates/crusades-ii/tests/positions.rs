//! Position files are checked as strictly as scenario data: every problem is reported at once,
//! naming what is wrong and the valid values.

mod common;

use common::*;
use engine::{DiceMode, Setup, Startable};

fn errors(scenario: &str, text: &str) -> String {
    let setup = Setup {
        scenario: scenario.into(),
        options: vec![],
        seed: 1,
        dice: DiceMode::Seeded,
        position: Some(text.into()),
    };
    match crusades_ii::State::start(&setup, &crusades_ii::builtin_data()) {
        Ok(_) => panic!("position accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

const CHITS: &str = r#"
[[leader]]
name = "Baldwin"
chit = "stand"
[[leader]]
name = "Antiochene"
chit = "stand"
[[leader]]
name = "Fulcoy"
chit = "stand"
[[leader]]
name = "Pons of Tripoli"
chit = "stand"
[[leader]]
name = "Il-Ghazi"
chit = "attack"
[[leader]]
name = "Toktagin"
chit = "attack"
"#;

#[test]
fn a_good_position_starts_where_it_says() {
    let text = format!(
        "turn = \"1000\"\nphase = \"movement\"\nactive = \"turk\"\n{CHITS}\n[[unit]]\nname = \"Toktagin a\"\nhex = \"1019\"\nfacing = \"SSE\"\nsteps = 1\nrouted = true\n[[unit]]\nname = \"Baldwin a\"\nhex = \"1021\"\nfacing = \"NNE\"\ncharging = true\n"
    );
    let s = position("hab", &text);
    assert_eq!(s.battle.turns[s.turn].label, "1000");
    assert_eq!(s.active, seat(&s, "turk"));
    let t = unit(&s, "Toktagin a");
    assert_eq!(where_is(&s, "Toktagin a").as_deref(), Some("1019"));
    assert_eq!(s.unit(t).steps, 1);
    assert!(s.unit(t).routed);
    assert!(s.unit(unit(&s, "Baldwin a")).charging);
    assert!(!legal(&s, "turk").is_empty(), "the Turk moves");
}

#[test]
fn every_problem_is_named_at_once() {
    let text = format!(
        "turn = \"2500\"\nphase = \"lunch\"\nactive = \"franks\"\n{CHITS}\n[[unit]]\nname = \"Nobody\"\nhex = \"1019\"\n[[unit]]\nname = \"Toktagin a\"\nhex = \"9999\"\nfacing = \"UP\"\nsteps = 5\n[[unit]]\nname = \"Toktagin b\"\nhex = \"1019\"\ncharging = true\n"
    );
    let e = errors("hab", &text);
    for needle in [
        "turn `2500`; valid: 0800",
        "active `franks`; valid: crusader, turk",
        "phase `lunch`; valid: orders, movement",
        "no combat unit is named `Nobody`",
        "9999 is not on the map",
        "facing `UP`; valid: NNE",
        "5 steps lost, but it has only 2",
        "only Crusader heavy cavalry charges",
    ] {
        assert!(e.contains(needle), "missing `{needle}` in:\n{e}");
    }
}

#[test]
fn stacking_and_chits_are_checked() {
    let text = "turn = \"0800\"\nphase = \"melee\"\nactive = \"turk\"\n[[unit]]\nname = \"Toktagin a\"\nhex = \"1019\"\n[[unit]]\nname = \"Toktagin b\"\nhex = \"1019\"\n";
    let e = errors("hab", text);
    assert!(e.contains("share hex 1019"), "{e}");
    assert!(e.contains("needs a `chit` after the Order Phase"), "{e}");
}

#[test]
fn unknown_fields_and_malformed_toml_are_refused_with_a_line() {
    let e = errors(
        "hab",
        "turn = \"0800\"\nphase = \"orders\"\nactive = \"turk\"\nweather = \"rain\"\n",
    );
    assert!(e.contains("weather"), "{e}");
    assert!(e.contains("(position):"), "{e}");
    let e = errors("hab", "turn = \"0800\"\nphase = \n");
    assert!(e.contains("(position):2"), "names the line: {e}");
}
