//! The `crusades` binary on Crusades II, Hattin: actions are picked from `actions --json`,
//! never hard-coded beyond preferring `deploy-historical` where it is offered.

mod common;

use common::{notations, Dir};
use serde_json::Value;

const HATTIN: &str = "crusades-ii/hattin";

/// The seats that must decide now.
fn pending(dir: &Dir) -> Vec<String> {
    let v = dir.run(&["status", "g.json", "--json"]).json();
    v["pending"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// The action to take from a list: the historical deployment where offered, else the first.
fn choose(list: &[String]) -> String {
    list.iter()
        .find(|a| a.as_str() == "deploy-historical")
        .unwrap_or(&list[0])
        .clone()
}

/// Plays until the pending seats are several at once (secret orders), at most `steps`.
fn play_until_simultaneous(dir: &Dir, steps: usize) -> Vec<String> {
    for _ in 0..steps {
        let seats = pending(dir);
        if seats.len() > 1 {
            return seats;
        }
        assert_eq!(seats.len(), 1, "the game goes on: {seats:?}");
        let list = notations(dir, "g.json", &seats[0]);
        dir.run(&["act", "g.json", "--seat", &seats[0], &choose(&list)])
            .ok();
    }
    panic!("no simultaneous decision within {steps} actions");
}

#[test]
fn hattin_is_listed_and_plays_through_the_command_line() {
    let dir = Dir::new();
    let v = dir.run(&["scenarios", "--json"]).json();
    let ids: Vec<&str> = v["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    for id in [
        "crusades-ii/hattin",
        "crusades-ii/hab",
        "crusades-ii/nicopolis",
        "crusades-ii/tannenburg",
    ] {
        assert!(ids.contains(&id), "{id} in {ids:?}");
    }

    dir.run(&["new", HATTIN, "--seed", "1", "--out", "g.json"])
        .ok();
    let status = dir.run(&["status", "g.json", "--json"]).json();
    assert_eq!(status["game"], "crusades-ii");
    assert!(!status["status"].as_array().unwrap().is_empty());
    let seats = play_until_simultaneous(&dir, 20);

    // Each seat takes a few actions from its list.
    for seat in &seats {
        let list = notations(&dir, "g.json", seat);
        assert!(!list.is_empty(), "{seat} must decide");
        let v = dir
            .run(&["act", "g.json", "--seat", seat, &list[0], "--json"])
            .json();
        assert_eq!(v["action"].as_str(), Some(list[0].as_str()));
    }
    let text = dir.run(&["view", "g.json", "--seat", &seats[0]]).ok();
    assert!(text.contains("as seen by"), "{text}");
    let spectator = dir.run(&["view", "g.json", "--json"]).json();
    assert!(spectator["state"].is_object());
    dir.run(&["log", "g.json", "--seat", &seats[1]]).ok();
    dir.run(&["render", "g.json", "--seat", &seats[0], "--svg", "h.svg"])
        .ok();
    assert!(String::from_utf8(dir.bytes("h.svg"))
        .unwrap()
        .starts_with("<svg"));
    let v = dir.run(&["replay", "g.json", "--json"]).json();
    assert_eq!(v["matches"], true);
    assert_eq!(v["scenario"], HATTIN);
    dir.run(&["data", "audit"]).ok();
}

#[test]
fn hattin_secret_orders_stay_secret() {
    let dir = Dir::new();
    dir.run(&["new", HATTIN, "--seed", "2", "--out", "g.json"])
        .ok();
    let seats = play_until_simultaneous(&dir, 20);
    let (me, other) = (&seats[0], &seats[1]);
    let list = notations(&dir, "g.json", me);
    let v = dir
        .run(&["act", "g.json", "--seat", me, &list[0], "--json"])
        .json();
    let secrets: Vec<String> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["public"] == false)
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect();
    assert!(
        !secrets.is_empty(),
        "a secret order gives the deciding seat a private event: {v}"
    );
    let mine = dir.run(&["log", "g.json", "--seat", me]).ok();
    assert!(mine.contains(&secrets[0]), "{mine}");
    for args in [
        vec!["view", "g.json", "--seat", other.as_str(), "--json"],
        vec!["view", "g.json", "--seat", other.as_str()],
        vec!["view", "g.json", "--json"],
        vec!["log", "g.json", "--seat", other.as_str(), "--json"],
        vec!["log", "g.json"],
        vec!["status", "g.json", "--json"],
    ] {
        let out = dir.run(&args).ok();
        for s in &secrets {
            assert!(!out.contains(s.as_str()), "{args:?} shows `{s}`");
        }
    }
}

#[test]
fn hattin_bad_input_exits_2_and_leaves_the_save_unchanged() {
    let dir = Dir::new();
    dir.run(&["new", HATTIN, "--seed", "3", "--out", "g.json"])
        .ok();
    let seats = pending(&dir);
    let status = dir.run(&["status", "g.json", "--json"]).json();
    let all: Vec<String> = status["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    let before = dir.bytes("g.json");
    let check = |args: &[&str], needle: &str| {
        dir.run(args).bad(needle);
        assert_eq!(dir.bytes("g.json"), before, "{args:?} changed the save");
    };
    check(
        &["act", "g.json", "--seat", "saracens", "deploy-historical"],
        "no seat `saracens`",
    );
    if let Some(idle) = all.iter().find(|s| !seats.contains(s)) {
        let list = notations(&dir, "g.json", &seats[0]);
        check(
            &["act", "g.json", "--seat", idle, &choose(&list)],
            "not your decision",
        );
    }
    check(
        &["act", "g.json", "--seat", &seats[0], "fly to jerusalem"],
        "is not an action",
    );
    check(
        &[
            "new",
            HATTIN,
            "--option",
            "gunpowder",
            "--out",
            "g.json",
            "--force",
        ],
        "no option `gunpowder`",
    );
    check(
        &["new", "crusades-ii/acre", "--out", "g.json", "--force"],
        "unknown scenario",
    );
    // An action that was legal for one seat is illegal (or out of turn) after it is taken.
    let list = notations(&dir, "g.json", &seats[0]);
    let action = choose(&list);
    dir.run(&["act", "g.json", "--seat", &seats[0], &action])
        .ok();
    let now = notations(&dir, "g.json", &seats[0]);
    if !now.contains(&action) {
        let saved = dir.bytes("g.json");
        let run = dir.run(&["act", "g.json", "--seat", &seats[0], &action]);
        assert_eq!(run.code, 2, "{run:?}");
        assert_eq!(dir.bytes("g.json"), saved);
    }
    // An edited save is refused.
    let text = String::from_utf8(dir.bytes("g.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let edited = text.replace(
        &format!("\"seed\": {}", v["seed"]),
        &format!("\"seed\": {}", v["seed"].as_u64().unwrap() + 1),
    );
    assert_ne!(edited, text);
    dir.write("g.json", &edited);
    let run = dir.run(&["status", "g.json"]);
    assert_eq!(run.code, 2, "{run:?}");
    // A wrong field in an override of the game's data.
    dir.write("g.json", &text);
    let file = "crusades-ii/hattin/scenario.toml";
    let original = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/".to_string() + file),
    )
    .unwrap();
    dir.write(
        &format!("bad/{file}"),
        &format!("not_a_field = 1\n{original}"),
    );
    let saved = dir.bytes("g.json");
    let run = dir.run(&["--data", "bad", "status", "g.json"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("not_a_field"), "{run:?}");
    let run = dir.run(&["--data", "bad", "act", "g.json", "--seat", &seats[0], "x"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(dir.bytes("g.json"), saved);
}

#[test]
fn hattin_plays_at_the_keyboard() {
    let dir = Dir::new();
    // Hand over, deploy (or the first action), then one more action for whoever decides next.
    let input = "\ndeploy-historical\n\n1\nquit\n";
    let out = dir
        .run_with(
            &["play", HATTIN, "--seed", "4", "--save", "p.json"],
            Some(input),
            &[],
        )
        .ok();
    assert!(out.contains("Hand over to"), "{out}");
    assert!(out.contains("the game is saved in p.json"), "{out}");
    let v = dir.run(&["replay", "p.json", "--json"]).json();
    assert_eq!(v["matches"], true);
    assert!(v["actions"].as_u64().unwrap() >= 1, "{v}");
}

#[test]
fn hab_simulates_between_random_players() {
    let dir = Dir::new();
    let args = [
        "simulate",
        "crusades-ii/hab",
        "--games",
        "2",
        "--ai",
        "crusader=random",
        "--ai",
        "turk=random",
        "--seed",
        "1",
    ];
    let v = {
        let mut a = args.to_vec();
        a.push("--json");
        dir.run(&a).json()
    };
    assert_eq!(v["games"], 2);
    assert_eq!(v["scenario"], "crusades-ii/hab");
    let seats: Vec<&str> = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_str().unwrap())
        .collect();
    assert_eq!(seats, ["crusader", "turk"]);
    let ended: u64 = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"]["count"].as_u64().unwrap())
        .sum::<u64>()
        + v["draws"]["count"].as_u64().unwrap();
    assert_eq!(ended, 2, "both games end: {v}");
    assert!(v["length"]["min"].as_u64().unwrap() > 50, "{v}");
    let out = dir.run(&args).ok();
    assert!(out.contains("crusader wins"), "{out}");
    assert!(out.contains("Game length (actions)"), "{out}");
}

#[test]
fn serve_refuses_to_open_an_unknown_scenario() {
    let dir = Dir::new();
    let db = dir.path("games.db");
    let url = format!("sqlite:{}", db.display());
    dir.run(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--db",
        &url,
        "--open",
        "crusades-ii/acre",
    ])
    .bad("--open");
    assert!(!db.exists(), "a refused start creates no database");
}
