//! `crusades simulate` and `crusades play --ai` on the toy race (`toy-race/race`): the
//! summary in text and JSON, the same results at any thread count, the plot, a search
//! beating a random player, bad arguments refused with exit status 2, and AI seats in `play`.

mod common;

use common::Dir;
use serde_json::Value;

const RACE: &str = "toy-race/race";

fn simulate_json(dir: &Dir, extra: &[&str]) -> Value {
    let mut args = vec!["simulate", RACE, "--json"];
    args.extend_from_slice(extra);
    dir.run(&args).json()
}

fn count(v: &Value) -> u64 {
    v["count"].as_u64().unwrap()
}

#[test]
fn a_summary_is_the_same_at_any_thread_count() {
    let dir = Dir::new();
    let args = |threads: &'static str| {
        vec![
            "simulate",
            RACE,
            "--games",
            "300",
            "--seed",
            "4",
            "--ai",
            "west=mcts:10",
            "--threads",
            threads,
            "--json",
        ]
    };
    let one = dir.run(&args("1")).ok();
    let three = dir.run(&args("3")).ok();
    assert_eq!(one, three, "bit for bit at any thread count");
    let v: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["version"], 1);
    assert_eq!(v["scenario"], RACE);
    assert_eq!(v["games"], 300);
    assert_eq!(v["seed"], 4);
    assert_eq!(v["deterministic"], true);
    assert_eq!(v["seats"][0]["seat"], "East");
    assert_eq!(v["seats"][0]["player"], "random");
    assert_eq!(v["seats"][1]["player"], "mcts:10");
    let wins: u64 = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| count(&s["wins"]))
        .sum();
    assert_eq!(
        wins + count(&v["draws"]) + v["unfinished"].as_u64().unwrap(),
        300
    );
    let east = &v["seats"][0]["wins"];
    assert!(east["low"].as_f64() <= east["rate"].as_f64());
    assert!(east["rate"].as_f64() <= east["high"].as_f64());
    let bins: u64 = v["length"]["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["games"].as_u64().unwrap())
        .sum();
    assert_eq!(bins, 300);
    assert_eq!(v["stats"][0]["name"], "points");
    assert_eq!(v["stats"][0]["seat"], "East");
    // Another seed, other games.
    let other = dir
        .run(&[
            "simulate",
            RACE,
            "--games",
            "300",
            "--seed",
            "5",
            "--ai",
            "west=mcts:10",
            "--json",
        ])
        .ok();
    assert_ne!(one, other);
}

#[test]
fn a_search_beats_a_random_player() {
    let dir = Dir::new();
    let v = simulate_json(
        &dir,
        &["--games", "100", "--seed", "1", "--ai", "East=mcts:40"],
    );
    let (east, west) = (count(&v["seats"][0]["wins"]), count(&v["seats"][1]["wins"]));
    assert!(east > 2 * west, "mcts {east} against random {west}");
    // With the seats swapped too.
    let v = simulate_json(
        &dir,
        &["--games", "100", "--seed", "1", "--ai", "west=mcts:40"],
    );
    let (east, west) = (count(&v["seats"][0]["wins"]), count(&v["seats"][1]["wins"]));
    assert!(west > 2 * east, "random {east} against mcts {west}");
}

#[test]
fn the_text_summary_and_the_plot() {
    let dir = Dir::new();
    let out = dir
        .run(&[
            "simulate", RACE, "--games", "40", "--seed", "2", "--option", "short", "--plot",
            "p.svg",
        ])
        .ok();
    assert!(
        out.starts_with("toy-race/race with short: 40 games (seed 2, "),
        "{out}"
    );
    assert!(out.contains("Players: East random, West random"), "{out}");
    assert!(out.contains("East wins"), "{out}");
    assert!(out.contains("95% CI"), "{out}");
    assert!(out.contains("draws"), "{out}");
    assert!(out.contains("Game length (actions): mean "), "{out}");
    assert!(out.contains("Stats (mean, min-max):"), "{out}");
    assert!(out.contains("  points West: "), "{out}");
    assert!(out.contains("Wrote p.svg."), "{out}");
    let svg = String::from_utf8(dir.bytes("p.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("toy-race/race (short): 40 games, seed 2"));
    assert!(svg.contains("Game length (actions)"));
    assert!(svg.trim_end().ends_with("</svg>"));
    // Without a seed one is drawn and printed, and no progress bar is drawn off a terminal.
    let run = dir.run(&["simulate", RACE, "--games", "3"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("3 games (seed "), "{run:?}");
    assert_eq!(run.stderr, "", "no progress bar on a pipe");
    // Games stopped at the cap are counted unfinished.
    let v = simulate_json(&dir, &["--games", "4", "--max-actions", "5"]);
    assert_eq!(v["unfinished"], 4);
    assert_eq!(v["max_actions"], 5);
    let out = dir
        .run(&["simulate", RACE, "--games", "4", "--max-actions", "5"])
        .ok();
    assert!(
        out.contains("4 games were stopped unfinished at 5 actions"),
        "{out}"
    );
}

/// A plot named `.png` is a PNG of the same picture, its text drawn in the built-in font.
#[test]
fn the_plot_as_png() {
    let dir = Dir::new();
    let out = dir
        .run(&[
            "simulate", RACE, "--games", "10", "--seed", "2", "--plot", "p.PNG",
        ])
        .ok();
    assert!(out.contains("Wrote p.PNG."), "{out}");
    let bytes = dir.bytes("p.PNG");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG signature");
    let picture = resvg::tiny_skia::Pixmap::decode_png(&bytes).expect("a PNG that decodes");
    assert_eq!((picture.width(), picture.height()), (960, 440));
    // The title's text (top left) is drawn: dark pixels on the light ground.
    let dark = |x0: u32, x1: u32, y0: u32, y1: u32| {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| picture.pixel(x, y).is_some_and(|p| p.red() < 100))
            .count()
    };
    assert!(dark(20, 400, 10, 35) > 200, "the title is drawn");
    assert!(dark(900, 960, 0, 60) < 5, "the top right corner is empty");
}

#[test]
fn bad_arguments_exit_2_and_write_nothing() {
    let dir = Dir::new();
    for (args, needle) in [
        (
            vec!["--ai", "north=random"],
            "no seat `north` in toy-race/race",
        ),
        (vec!["--ai", "east=alphago"], "`alphago` is not a player"),
        (vec!["--ai", "east"], "expected SEAT=PLAYER"),
        (vec!["--ai", "east=mcts:0"], "number of iterations"),
        (
            vec!["--ai", "east=heuristic"],
            "no heuristic doctrine for toy-race yet",
        ),
        (
            vec!["--ai", "east=random", "--ai", "East=mcts:5"],
            "seat East is given two players",
        ),
        (vec!["--option", "fast"], "no option `fast`"),
        (vec!["--threads", "0"], "--threads must be at least 1"),
    ] {
        let mut all = vec!["simulate", RACE, "--games", "2", "--plot", "p.svg"];
        all.extend(args);
        dir.run(&all).bad(needle);
    }
    dir.run(&["simulate", RACE, "--games", "0"])
        .bad("--games must be at least 1");
    dir.run(&["simulate", RACE, "--games", "2", "--plot", "p.jpg"])
        .bad("--plot p.jpg: the file's name must end in .svg or .png");
    dir.run(&["simulate", RACE, "--games", "2", "--plot", "plot"])
        .bad("must end in .svg or .png");
    dir.run(&["simulate", RACE]).bad("--games");
    dir.run(&["simulate", "toy-race/marathon", "--games", "1"])
        .bad("unknown scenario");
    assert_eq!(dir.files(), Vec::<String>::new(), "no plot was written");
}

#[test]
fn play_against_a_search_keeps_its_secrets() {
    let dir = Dir::new();
    let input = "1\n".repeat(400);
    let out = dir
        .run_with(
            &[
                "play",
                RACE,
                "--seat",
                "west",
                "--ai",
                "east=mcts:20",
                "--seed",
                "2",
                "--option",
                "short",
                "--save",
                "p.json",
            ],
            Some(&input),
            &[],
        )
        .ok();
    assert!(out.contains("(East has played"), "{out}");
    assert!(out.contains("Game over."), "{out}");
    assert!(!out.contains("East bids"), "East's bids stay secret: {out}");
    assert!(!out.contains("Hand over"), "{out}");
    dir.run(&["replay", "p.json"]).ok();
    let record: Value =
        serde_json::from_str(&String::from_utf8(dir.bytes("p.json")).unwrap()).unwrap();
    let actions = record["actions"].as_array().unwrap();
    assert!(actions.iter().any(|a| a["seat"] == "East"));
    // Each round East (the AI) bids before West is asked.
    assert_eq!(actions[0]["seat"], "East");
}

#[test]
fn play_with_every_seat_an_ai_plays_to_the_end_and_bad_players_are_refused() {
    let dir = Dir::new();
    let out = dir
        .run(&[
            "play",
            RACE,
            "--ai",
            "east=random",
            "--ai",
            "west=mcts:10",
            "--seed",
            "6",
            "--option",
            "short",
            "--save",
            "p.json",
        ])
        .ok();
    assert!(out.contains("Game over."), "{out}");
    dir.run(&["replay", "p.json"]).ok();
    // Without --seat, the seats without --ai are at the keyboard.
    let out = dir
        .run_with(
            &["play", RACE, "--ai", "east=mcts:5", "--seed", "1"],
            Some("quit\n"),
            &[],
        )
        .ok();
    assert!(out.contains("West to decide"), "{out}");
    dir.run(&["play", RACE, "--ai", "east=heuristic"])
        .bad("no heuristic doctrine for toy-race yet");
    dir.run(&["play", RACE, "--seat", "east", "--ai", "east=random"])
        .bad("East is given both --seat and --ai");
    dir.run(&["play", RACE, "--ai", "south=random"])
        .bad("no seat `south`");
    dir.run(&["play", RACE, "--ai", "east=mcts:fast"])
        .bad("is not a player");
}
