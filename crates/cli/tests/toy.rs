//! The `crusades` binary on the toy race (`toy-race/race`, registered for tests): the full
//! flow, secrecy, bad input with exit status 2 and untouched saves, manual dice, data
//! overrides and the hot-seat `play`.

mod common;

use common::{notations, Dir};

const RACE: &str = "toy-race/race";

fn new_race(dir: &Dir, seed: &str) {
    dir.run(&["new", RACE, "--seed", seed, "--out", "g.json"])
        .ok();
}

#[test]
fn scenarios_are_listed_with_id_title_and_seats() {
    let dir = Dir::new();
    let v = dir.run(&["scenarios", "--json"]).json();
    let race = v["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == RACE)
        .expect("the toy is listed");
    assert_eq!(race["title"], "Race to Twenty");
    assert_eq!(race["seats"], serde_json::json!(["East", "West"]));
    assert_eq!(race["options"][0]["name"], "short");
    let text = dir.run(&["scenarios"]).ok();
    assert!(text.contains("toy-race/race  Race to Twenty"), "{text}");
}

#[test]
fn the_full_flow_new_actions_act_status_undo_view_log_render_replay() {
    let dir = Dir::new();
    let out = dir
        .run(&["new", RACE, "--seed", "5", "--out", "g.json"])
        .ok();
    assert!(out.contains("seed 5"), "{out}");
    assert!(out.contains("To decide: East, West"), "{out}");

    assert_eq!(
        notations(&dir, "g.json", "East"),
        ["bid 0", "bid 1", "bid 2", "bid 3"]
    );
    let plain = dir.run(&["actions", "g.json", "--seat", "west"]).ok();
    assert_eq!(plain, "bid 0\nbid 1\nbid 2\nbid 3\n");

    let out = dir
        .run(&["act", "g.json", "--seat", "East", "bid", "2"])
        .ok();
    assert!(out.contains("[Race 2.1] East bids 2 in secret"), "{out}");
    assert!(out.contains("To decide: West"), "{out}");
    let v = dir
        .run(&["act", "g.json", "--seat", "West", "bid 1", "--json"])
        .json();
    assert_eq!(v["action"], "bid 1");
    assert_eq!(v["pending"], serde_json::json!(["East"]));
    assert_eq!(v["events"][2]["text"], "Bids revealed: East 2, West 1");
    assert_eq!(v["events"][0]["public"], false);
    assert_eq!(v["events"][0]["seats"], serde_json::json!(["West"]));

    let status = dir.run(&["status", "g.json", "--json"]).json();
    assert_eq!(status["pending"], serde_json::json!(["East"]));
    assert_eq!(status["outcome"], serde_json::Value::Null);
    assert_eq!(status["status"][0], "Round 1, East runs");
    let text = dir.run(&["status", "g.json"]).ok();
    assert!(text.contains("Round 1, East runs"), "{text}");

    // Boost, take it back, boost again, roll.
    dir.run(&["act", "g.json", "--seat", "East", "boost"]).ok();
    let before_undo = dir.bytes("g.json");
    let out = dir.run(&["undo", "g.json", "--seat", "East"]).ok();
    assert!(out.contains("Took back `boost` by East"), "{out}");
    assert_ne!(dir.bytes("g.json"), before_undo);
    dir.run(&["act", "g.json", "--seat", "East", "boost"]).ok();
    assert_eq!(dir.bytes("g.json"), before_undo, "same game, same save");
    let out = dir.run(&["act", "g.json", "--seat", "East", "roll"]).ok();
    assert!(out.contains("[Race 3.2] East runs"), "{out}");
    assert!(out.contains("run of East: dice "), "{out}");
    assert!(out.contains("boost +1"), "{out}");
    assert!(out.contains("Run Table"), "{out}");
    // A roll cannot be taken back.
    dir.run(&["undo", "g.json", "--seat", "East"])
        .bad("cannot undo `roll`: it rolled dice");

    let view = dir
        .run(&["view", "g.json", "--seat", "East", "--json"])
        .json();
    assert_eq!(view["viewer"], "East");
    assert_eq!(view["state"]["round"], 2);
    assert_eq!(view["actions"][0]["notation"], "bid 0");
    let spectator = dir.run(&["view", "g.json", "--json"]).json();
    assert_eq!(spectator["viewer"], serde_json::Value::Null);
    assert_eq!(spectator["actions"], serde_json::json!([]));
    let text = dir.run(&["view", "g.json", "--seat", "East"]).ok();
    assert!(text.contains("as seen by East"), "{text}");
    assert!(text.contains("Your actions: bid 0"), "{text}");
    assert!(text.contains("round: 2"), "{text}");

    let log = dir.run(&["log", "g.json", "--seat", "East"]).ok();
    assert!(log.contains("1. [Race 2.1] East bids 2 in secret"), "{log}");
    let log = dir.run(&["log", "g.json", "--json"]).json();
    assert!(log["events"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["public"] == true));

    dir.run(&["render", "g.json", "--seat", "West", "--svg", "g.svg"])
        .ok();
    let svg = String::from_utf8(dir.bytes("g.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("Race to Twenty"));

    let out = dir.run(&["replay", "g.json"]).ok();
    assert!(out.contains("replayed 4 actions"), "{out}");
    assert!(out.contains("matches the record"), "{out}");
    let v = dir.run(&["replay", "g.json", "--json"]).json();
    assert_eq!(v["matches"], true);
    assert_eq!(v["actions"], 4);
    assert_eq!(v["state_hash"], v["expected"]);
    assert_eq!(dir.files(), ["g.json", "g.svg"], "no temporary files left");
}

#[test]
fn a_game_plays_to_its_outcome() {
    let dir = Dir::new();
    dir.write("pos.toml", "points = [19, 0]\ntokens = [3, 0]\nround = 9\n");
    dir.run(&[
        "new",
        RACE,
        "--seed",
        "1",
        "--position",
        "pos.toml",
        "--out",
        "g.json",
    ])
    .ok();
    dir.run(&["act", "g.json", "--seat", "East", "bid", "1"])
        .ok();
    dir.run(&["act", "g.json", "--seat", "West", "bid", "0"])
        .ok();
    let out = dir.run(&["act", "g.json", "--seat", "East", "roll"]).ok();
    assert!(
        out.contains("Game over. East wins: the race reached"),
        "{out}"
    );
    let v = dir.run(&["status", "g.json", "--json"]).json();
    assert_eq!(v["pending"], serde_json::json!([]));
    assert_eq!(v["over"], true);
    assert_eq!(v["outcome"]["winner"], "East");
    assert_eq!(notations(&dir, "g.json", "West"), Vec::<String>::new());
    let before = dir.bytes("g.json");
    dir.run(&["act", "g.json", "--seat", "West", "bid", "0"])
        .bad("the game is over");
    assert_eq!(dir.bytes("g.json"), before);
}

#[test]
fn a_seat_never_sees_what_it_must_not() {
    let dir = Dir::new();
    new_race(&dir, "11");
    dir.run(&["act", "g.json", "--seat", "East", "bid", "3"])
        .ok();
    // East sees its own bid: the checks below look for strings that do exist.
    let east = dir
        .run(&["view", "g.json", "--seat", "East", "--json"])
        .ok();
    assert!(east.contains("East bids 3 in secret"), "{east}");
    assert!(east.contains("\"shown\": 3"), "{east}");
    for args in [
        vec!["view", "g.json", "--seat", "West", "--json"],
        vec!["view", "g.json", "--seat", "West"],
        vec!["view", "g.json", "--json"],
        vec!["view", "g.json"],
        vec!["log", "g.json", "--seat", "West", "--json"],
        vec!["log", "g.json", "--seat", "West"],
        vec!["log", "g.json"],
        vec!["status", "g.json", "--json"],
        vec!["status", "g.json"],
        vec!["actions", "g.json", "--seat", "West", "--json"],
    ] {
        let out = dir.run(&args).ok();
        for secret in ["bids 3", "\"shown\"", "shown: 3"] {
            assert!(!out.contains(secret), "{args:?} shows `{secret}`: {out}");
        }
        assert!(
            !args.contains(&"log") || out.contains("East has bid"),
            "{args:?}: {out}"
        );
    }
    dir.run(&["render", "g.json", "--seat", "West", "--svg", "w.svg"])
        .ok();
    let svg = String::from_utf8(dir.bytes("w.svg")).unwrap();
    assert!(!svg.contains("bids 3"));
}

/// Runs `args`, expects exit 2 with `needle`, and checks `g.json` is byte-for-byte unchanged.
fn refused(dir: &Dir, args: &[&str], needle: &str) -> String {
    let before = dir.bytes("g.json");
    let err = dir.run(args).bad(needle);
    assert_eq!(dir.bytes("g.json"), before, "{args:?} changed the save");
    err
}

#[test]
fn bad_actions_exit_2_and_leave_the_save_unchanged() {
    let dir = Dir::new();
    new_race(&dir, "2");
    dir.run(&["act", "g.json", "--seat", "East", "bid", "1"])
        .ok();
    refused(
        &dir,
        &["act", "g.json", "--seat", "North", "bid", "1"],
        "no seat `North` in toy-race/race (seats: East, West)",
    );
    refused(
        &dir,
        &["act", "g.json", "--seat", "East", "bid", "1"],
        "not your decision: waiting for West",
    );
    refused(
        &dir,
        &["act", "g.json", "--seat", "West", "bid", "9"],
        "illegal action `bid 9`: a bid is at most 3",
    );
    refused(
        &dir,
        &["act", "g.json", "--seat", "West", "fly", "away"],
        "`fly away` is not an action: expected",
    );
    refused(
        &dir,
        &["act", "g.json", "--seat", "West", "bid", "1", "--dice", "4"],
        "this game rolls its own dice",
    );
    refused(
        &dir,
        &["act", "g.json", "--seat", "West", "bid", "1", "--dice", "x"],
        "--dice: `x` is not a die face",
    );
    refused(
        &dir,
        &["undo", "g.json", "--seat", "West"],
        "cannot undo: the last action (`bid 1`) was taken by East, not by West",
    );
    refused(
        &dir,
        &["undo", "g.json", "--seat", "East"],
        "cannot undo `bid 1`",
    );
    refused(&dir, &["actions", "g.json", "--seat", "Nobody"], "no seat");
    refused(&dir, &["view", "g.json", "--seat", "Nobody"], "no seat");
    // Usage errors (clap) exit 2 too.
    refused(&dir, &["act", "g.json", "--seat", "West"], "ACTION");
}

#[test]
fn damaged_saves_are_refused_with_the_reason() {
    let dir = Dir::new();
    new_race(&dir, "4");
    dir.run(&["act", "g.json", "--seat", "East", "bid", "2"])
        .ok();
    dir.run(&["act", "g.json", "--seat", "West", "bid", "1"])
        .ok();
    let good = String::from_utf8(dir.bytes("g.json")).unwrap();
    let act = ["act", "g.json", "--seat", "East", "roll"];

    dir.write("g.json", "{ this is not json");
    let e = refused(&dir, &act, "not a game record: not JSON");
    assert!(e.contains("g.json"), "names the file: {e}");
    for args in [
        vec!["status", "g.json"],
        vec!["view", "g.json"],
        vec!["replay", "g.json"],
    ] {
        refused(&dir, &args, "not JSON");
    }

    dir.write("g.json", &good[..good.len() / 2]);
    refused(&dir, &act, "truncated file?");

    // An edited action still replays, but to another state.
    dir.write("g.json", &good.replace("\"bid 2\"", "\"bid 3\""));
    refused(&dir, &act, "differs from the saved one");
    let run = dir.run(&["replay", "g.json", "--json"]);
    assert_eq!(run.code, 2, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["matches"], false);
    assert!(run.stderr.contains("edited or damaged save?"), "{run:?}");

    // An edited action that is not legal names the action.
    dir.write("g.json", &good.replace("\"bid 2\"", "\"bid 7\""));
    refused(&dir, &act, "action 1 of the record (`bid 7` by East)");

    dir.write("g.json", &good.replace("\"format\": 1", "\"format\": 9"));
    refused(&dir, &act, "format 9 is not supported");

    dir.write("g.json", &good.replace("toy-race", "chess"));
    refused(&dir, &act, "unknown game `chess`");

    dir.write("g.json", &good);
    dir.run(&act).ok();

    // A missing save is an input/output error: exit 1.
    let run = dir.run(&["status", "missing.json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("missing.json"), "{run:?}");
}

#[test]
fn new_refuses_unknown_names_and_existing_files() {
    let dir = Dir::new();
    dir.run(&["new", "toy-race/marathon", "--out", "g.json"])
        .bad("unknown scenario `toy-race/marathon` (scenarios: ");
    dir.run(&["new", "hattin", "--out", "g.json"])
        .bad("unknown scenario `hattin`");
    dir.run(&["new", RACE, "--option", "fast", "--out", "g.json"])
        .bad("scenario toy-race/race has no option `fast` (options: short)");
    dir.write("pos.toml", "points = 3\n");
    dir.run(&["new", RACE, "--position", "pos.toml", "--out", "g.json"])
        .bad("position");
    assert_eq!(dir.files(), ["pos.toml"], "nothing written");

    dir.run(&["new", RACE, "--option", "short", "--out", "g.json"])
        .ok();
    refused(
        &dir,
        &["new", RACE, "--seed", "3", "--out", "g.json"],
        "g.json exists",
    );
    dir.run(&["new", RACE, "--seed", "3", "--out", "g.json", "--force"])
        .ok();
    let v = dir.run(&["status", "g.json", "--json"]).json();
    assert_eq!(v["status"][1], "Points: East 0, West 0 (target 20)");
}

#[test]
fn manual_dice_are_entered_with_the_action() {
    let dir = Dir::new();
    let v = dir
        .run(&[
            "new",
            RACE,
            "--manual-dice",
            "--out",
            "g.json",
            "--json",
            "--seed",
            "8",
        ])
        .json();
    assert_eq!(v["dice"], "manual");
    assert_eq!(v["seed"], 8);
    dir.run(&["act", "g.json", "--seat", "East", "bid", "2"])
        .ok();
    dir.run(&["act", "g.json", "--seat", "West", "bid", "0"])
        .ok();
    refused(
        &dir,
        &["act", "g.json", "--seat", "East", "roll"],
        "needs more dice",
    );
    refused(
        &dir,
        &["act", "g.json", "--seat", "East", "roll", "--dice", "7"],
        "entered die 7 is not a face of a D6",
    );
    refused(
        &dir,
        &["act", "g.json", "--seat", "East", "roll", "--dice", "4,2"],
        "were not used",
    );
    let out = dir
        .run(&["act", "g.json", "--seat", "East", "roll", "--dice", "4"])
        .ok();
    assert!(out.contains("East runs 4"), "{out}");
    assert!(out.contains("dice 4"), "{out}");
    dir.run(&["replay", "g.json"]).ok();
}

#[test]
fn data_overrides_replace_files_and_bad_ones_exit_2() {
    let dir = Dir::new();
    new_race(&dir, "6");
    // A good override: another title.
    dir.write(
        "mydata/toy-race/race.toml",
        "title = \"My Race\"\ntarget = 20\ntokens = 4\n",
    );
    let out = dir.run(&["--data", "mydata", "scenarios"]).ok();
    assert!(out.contains("My Race"), "{out}");
    // A changed data file changes the game: the saved game no longer matches it.
    refused(
        &dir,
        &[
            "act", "g.json", "--data", "mydata", "--seat", "East", "bid", "1",
        ],
        "the game's data files have changed since it was saved",
    );

    // A wrong field.
    dir.write(
        "bad/toy-race/race.toml",
        "title = \"x\"\ntarget = 20\ntokens = 4\nspeed = 9\n",
    );
    let e = refused(
        &dir,
        &[
            "--data", "bad", "act", "g.json", "--seat", "East", "bid", "1",
        ],
        "toy-race/race.toml:4",
    );
    assert!(e.contains("speed"), "{e}");
    dir.run(&["--data", "bad", "scenarios"])
        .bad("unknown field `speed`");
    dir.run(&["--data", "bad", "new", RACE, "--out", "h.json"])
        .bad("speed");
    dir.run(&["--data", "nowhere", "scenarios"])
        .bad("not a folder");
    // The same through the environment.
    let run = dir.run_with(
        &["act", "g.json", "--seat", "East", "bid", "1"],
        None,
        &[("CRUSADES_DATA", &dir.path("bad"))],
    );
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("speed"), "{run:?}");
    assert!(!dir.path("h.json").exists());
    dir.run(&["act", "g.json", "--seat", "East", "bid", "1"])
        .ok();
}

#[test]
fn the_audit_groups_values_by_file() {
    let dir = Dir::new();
    let out = dir.run(&["data", "audit"]).ok();
    assert!(
        out.contains("toy-race/race.toml: 2 printed, 1 reconstructed"),
        "{out}"
    );
    assert!(
        out.contains("reconstructed: tokens = 4: the counter sheet is lost"),
        "{out}"
    );
    let v = dir.run(&["data", "audit", "--json"]).json();
    let toy: Vec<_> = v["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["file"] == "toy-race/race.toml")
        .collect();
    assert_eq!(toy.len(), 3);
    assert!(toy.iter().any(|e| e["source"] == "reconstructed"));
    let file = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == "toy-race/race.toml")
        .unwrap()
        .clone();
    assert_eq!(file["printed"], 2);
    assert_eq!(file["reconstructed"], 1);
    dir.write(
        "d/toy-race/race.toml",
        "title = \"x\"\ntarget = 20\ntokens = 4\n",
    );
    dir.run(&["--data", "d", "data", "audit"])
        .bad("`target` has no provenance");
}

#[test]
fn play_hands_over_between_seats_and_keeps_secrets() {
    let dir = Dir::new();
    // East: Enter at the hand-over, bid 2 by number (3); West: Enter, `help`, a wrong number,
    // bid 1 typed; East runs: Enter, roll; then leave.
    let input = "\n3\n\nhelp\n9\nbid 1\n\nroll\n\nquit\n";
    let run = dir.run_with(
        &["play", RACE, "--seed", "5", "--save", "p.json"],
        Some(input),
        &[],
    );
    let out = run.ok();
    assert!(
        out.contains("Hand over to East. East, press Enter"),
        "{out}"
    );
    assert!(out.contains("Hand over to West."), "{out}");
    assert!(out.contains("\x1b[2J"), "the screen is cleared: {out}");
    assert!(out.contains("   3. bid 2"), "{out}");
    assert!(out.contains("There is no action 9"), "{out}");
    assert!(out.contains("Type the number of an action"), "{out}");
    assert!(out.contains("Bids revealed: East 2, West 1"), "{out}");
    assert!(out.contains("East runs"), "{out}");
    assert!(out.contains("the game is saved in p.json"), "{out}");
    // What West's screens show (between the clear after its hand-over and the next clear)
    // never holds East's bid.
    let west = out
        .split("Hand over to West.")
        .nth(1)
        .unwrap()
        .split("Hand over to")
        .next()
        .unwrap();
    assert!(west.contains("West to decide"), "{west}");
    assert!(west.contains("East has bid"), "{west}");
    assert!(!west.contains("bids 2"), "{west}");
    // The save holds the game.
    let v = dir.run(&["status", "p.json", "--json"]).json();
    assert_eq!(v["status"][0], "Round 2, bidding");
    dir.run(&["replay", "p.json"]).ok();
}

#[test]
fn play_with_one_seat_at_the_keyboard_and_a_random_opponent() {
    let dir = Dir::new();
    let input = "1\n".repeat(400);
    let out = dir
        .run_with(
            &[
                "play", RACE, "--seat", "west", "--seed", "2", "--option", "short",
            ],
            Some(&input),
            &[],
        )
        .ok();
    assert!(
        !out.contains("Hand over"),
        "one seat needs no hand-over: {out}"
    );
    assert!(out.contains("(East has played.)"), "{out}");
    assert!(out.contains("Game over."), "{out}");
    assert!(!out.contains("East bids"), "East's bids stay secret: {out}");
    dir.run(&["play", RACE, "--seat", "North"])
        .bad("no seat `North`");
    dir.write("g.json", "{}");
    refused(&dir, &["play", RACE, "--save", "g.json"], "g.json exists");
}
