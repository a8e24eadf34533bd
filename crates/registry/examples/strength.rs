//! The strength of the AI players of every game, measured (not a test: it takes hours).
//!
//! Paired games ([`registry::Duel`]): each pair plays one dice seed twice, the two players
//! swapping seats, so luck and the scenario's balance cancel out. Games are played to the
//! end by default; with `--turns T` a game still going after T turns is judged by the
//! game's evaluation from each side, a draw when within 0.02 of even. Judging early is
//! cheaper but can hide skill: after 6 turns of Hattin the evaluation (the victory tables at
//! the losses so far) says nearly the same whoever plays, so a pair splits whatever the
//! players' strength.
//!
//! Results are appended to a file of JSON lines, one game a line, as each game ends; a run
//! finds the games already in the file and plays only the missing ones, so a measurement can
//! be taken in pieces, over several runs, and a run cut short loses at most the games in
//! play. The summary (per scenario and match: wins, draws, losses, the 95% Wilson intervals
//! of the win rate and of the score, decisions and time per decision) is read from the file;
//! `bench/report.py` puts it into BENCHMARKS.md.
//!
//! ```text
//! cargo run --release -p registry --example strength -- --pairs 200 --mcts mcts:1000 \
//!     --matches mcts-random,mcts-heuristic --results bench/strength/results.jsonl
//! ```

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ai::PlayerSpec;
use engine::{Seat, Setup};
use registry::{game_seed, Duel, DuelResult, Proportion};
use serde::{Deserialize, Serialize};

const HELP: &str = "\
strength [--scenario ID]... [--pairs N] [--mcts SPEC] [--matches A-B,...] [--turns T]
         [--threads T] [--seed S] [--results FILE] [--commit TEXT]

Paired games between AI players (see the example's documentation).
  --scenario ID   a two-seat scenario (crusades-ii/hab); repeat it; default: every one
  --pairs N       pairs of games per scenario and match (default 2; 200 is 400 games)
  --mcts SPEC     what `mcts` means in --matches (default mcts:1000)
  --matches L     matches as FIRST-SECOND, comma-separated (default mcts-random,mcts-heuristic)
  --turns T       judge a game after T turns; 0 plays to the end (default 0)
  --threads T     games played at once (default 2)
  --seed S        the seed of the pairs' dice seeds (default 1)
  --results FILE  JSON lines of the games played: read, then appended to
                  (default bench/strength/results.jsonl)
  --commit TEXT   written with each game, to tell which code played it (default: none)
With --pairs 0 it plays nothing and prints the summary of the file.";

/// One game of the measurement, as a line of the results file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Line {
    scenario: String,
    first: String,
    second: String,
    /// The turn limit (0: to the end).
    judged_after: u32,
    /// The pair's index and dice seed.
    pair: u64,
    dice: u64,
    first_seat: u8,
    #[serde(default)]
    commit: String,
    #[serde(flatten)]
    result: DuelResult,
}

impl Line {
    fn key(&self) -> (String, String, String, u32, u64, u8) {
        (
            self.scenario.clone(),
            self.first.clone(),
            self.second.clone(),
            self.judged_after,
            self.dice,
            self.first_seat,
        )
    }
}

struct Options {
    scenarios: Vec<String>,
    pairs: u64,
    matches: Vec<(String, String)>,
    turns: u32,
    threads: usize,
    seed: u64,
    results: PathBuf,
    commit: String,
}

fn fail(message: String) -> ! {
    eprintln!("strength: {message}");
    std::process::exit(2)
}

fn number<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> T {
    value
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| fail(format!("{flag} needs a number (--help lists the options)")))
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut o = Options {
        scenarios: Vec::new(),
        pairs: 2,
        matches: Vec::new(),
        turns: 0,
        threads: 2,
        seed: 1,
        results: PathBuf::from("bench/strength/results.jsonl"),
        commit: String::new(),
    };
    let mut mcts = "mcts:1000".to_string();
    let mut matches = "mcts-random,mcts-heuristic".to_string();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1);
        let text = |flag: &str| {
            value
                .cloned()
                .unwrap_or_else(|| fail(format!("{flag} needs a value (--help lists the options)")))
        };
        match args[i].as_str() {
            "--scenario" => o.scenarios.push(text("--scenario")),
            "--pairs" => o.pairs = number("--pairs", value),
            "--mcts" => mcts = text("--mcts"),
            "--matches" => matches = text("--matches"),
            "--turns" => o.turns = number("--turns", value),
            "--threads" => o.threads = number("--threads", value),
            "--seed" => o.seed = number("--seed", value),
            "--results" => o.results = PathBuf::from(text("--results")),
            "--commit" => o.commit = text("--commit"),
            "--help" | "-h" => {
                println!("{HELP}");
                std::process::exit(0);
            }
            other => fail(format!("unknown argument `{other}` (--help lists them)")),
        }
        i += 2;
    }
    let name = |s: &str| {
        let s = if s == "mcts" { mcts.as_str() } else { s };
        s.parse::<PlayerSpec>()
            .unwrap_or_else(|e| fail(e.to_string()));
        s.to_string()
    };
    o.matches = matches
        .split(',')
        .map(|m| match m.split_once('-') {
            Some((a, b)) => (name(a), name(b)),
            None => fail(format!("a match is FIRST-SECOND, not `{m}`")),
        })
        .collect();
    o
}

/// Every line of the results file (none if it does not exist yet).
fn read_results(path: &PathBuf) -> Vec<Line> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => fail(format!("cannot read {}: {e}", path.display())),
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| {
                fail(format!(
                    "{} line {}: not a game's result: {e}",
                    path.display(),
                    n + 1
                ))
            })
        })
        .collect()
}

/// The 95% Wilson interval of a score of `points` out of `n` games, draws counting half.
fn score_interval(points: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = n as f64;
    let p = points / n;
    let d = 1.0 + Z * Z / n;
    let c = (p + Z * Z / (2.0 * n)) / d;
    let h = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt() / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

fn summary(lines: &[Line]) {
    let mut groups: BTreeMap<(String, String, String, u32), Vec<&Line>> = BTreeMap::new();
    for l in lines {
        groups
            .entry((
                l.scenario.clone(),
                l.first.clone(),
                l.second.clone(),
                l.judged_after,
            ))
            .or_default()
            .push(l);
    }
    for ((scenario, first, second, turns), games) in groups {
        let n = games.len() as u64;
        let wins = games.iter().filter(|g| g.result.points == 1.0).count() as u64;
        let draws = games.iter().filter(|g| g.result.points == 0.5).count() as u64;
        let points: f64 = games.iter().map(|g| g.result.points).sum();
        let finished = games.iter().filter(|g| g.result.finished).count();
        let w = Proportion::wilson(wins, n);
        let (sl, sh) = score_interval(points, n);
        let decisions: u64 = games.iter().map(|g| g.result.decisions[0]).sum();
        let secs: f64 = games.iter().map(|g| g.result.seconds[0]).sum();
        let actions: u64 = games.iter().map(|g| g.result.actions).sum();
        let pairs: HashSet<u64> = games.iter().map(|g| g.dice).collect();
        let mut commits: Vec<&str> = games.iter().map(|g| g.commit.as_str()).collect();
        commits.sort_unstable();
        commits.dedup();
        let summary = serde_json::json!({
            "scenario": scenario,
            "first": first,
            "second": second,
            "judged_after": turns,
            "games": n,
            "pairs": pairs.len(),
            "wins": wins,
            "draws": draws,
            "losses": n - wins - draws,
            "win_rate": [w.rate, w.low, w.high],
            "score": [points / n as f64, sl, sh],
            "finished": finished,
            "actions_per_game": actions as f64 / n as f64,
            "first_decisions_per_game": decisions as f64 / n as f64,
            "first_seconds_per_decision": secs / decisions.max(1) as f64,
            "commits": commits,
        });
        println!("{summary}");
    }
}

fn main() {
    let o = options();
    let data = registry::all_data(None).unwrap_or_else(|e| fail(e.to_string()));
    let all = registry::scenarios(&data).unwrap_or_else(|e| fail(e.to_string()));
    let scenarios: Vec<String> = if o.scenarios.is_empty() {
        all.iter()
            .filter(|s| s.seats.len() == 2)
            .map(|s| s.id.clone())
            .collect()
    } else {
        for s in &o.scenarios {
            match all.iter().find(|x| &x.id == s) {
                Some(x) if x.seats.len() == 2 => {}
                Some(_) => fail(format!("{s} is not a two-seat scenario")),
                None => fail(format!("no scenario {s} (`crusades scenarios` lists them)")),
            }
        }
        o.scenarios.clone()
    };
    let done_before = read_results(&o.results);
    let done: HashSet<_> = done_before.iter().map(Line::key).collect();
    // Pairs outermost, then matches, then scenarios, so that a run cut short has a like
    // sample of every scenario and match, in whole pairs.
    let mut jobs = Vec::new();
    for pair in 0..o.pairs {
        let dice = game_seed(o.seed, pair);
        for (a, b) in &o.matches {
            for s in &scenarios {
                for seat in [0u8, 1] {
                    let line = (s.clone(), a.clone(), b.clone(), o.turns, dice, seat);
                    if !done.contains(&line) {
                        jobs.push((pair, line));
                    }
                }
            }
        }
    }
    if !jobs.is_empty() {
        if let Some(dir) = o.results.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .unwrap_or_else(|e| fail(format!("cannot create {}: {e}", dir.display())));
        }
    }
    let file = Mutex::new(
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&o.results)
            .unwrap_or_else(|e| fail(format!("cannot open {}: {e}", o.results.display()))),
    );
    let next = AtomicUsize::new(0);
    let played = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..o.threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((pair, (scenario, first, second, turns, dice, seat))) = jobs.get(i) else {
                    break;
                };
                let (entry, id) = registry::find_scenario(scenario, &data)
                    .map(|(g, s)| (g, s.id))
                    .unwrap_or_else(|e| fail(e.to_string()));
                let local = id.split_once('/').map_or(id.as_str(), |(_, l)| l);
                let duel = Duel {
                    setup: Setup::seeded(local, *dice),
                    first: first.parse().expect("checked above"),
                    second: second.parse().expect("checked above"),
                    first_seat: Seat(*seat),
                    turns: *turns,
                    max_actions: 20_000,
                };
                let result = (entry.duel)(entry.id, &duel, &data, *dice).unwrap_or_else(|e| {
                    fail(format!(
                        "{scenario}, {first} against {second}, dice {dice}: {e}"
                    ))
                });
                let line = Line {
                    scenario: scenario.clone(),
                    first: first.clone(),
                    second: second.clone(),
                    judged_after: *turns,
                    pair: *pair,
                    dice: *dice,
                    first_seat: *seat,
                    commit: o.commit.clone(),
                    result,
                };
                let text = serde_json::to_string(&line).expect("a result is JSON");
                {
                    let mut f = file.lock().unwrap_or_else(|e| e.into_inner());
                    writeln!(f, "{text}")
                        .and_then(|()| f.flush())
                        .unwrap_or_else(|e| fail(format!("cannot write the results: {e}")));
                }
                eprintln!(
                    "{scenario}: {first} against {second}, pair {pair}, {first} as seat {seat}: \
                     {} ({}, {} actions, {:.2} s a decision)",
                    line.result.points,
                    if line.result.finished {
                        "finished"
                    } else {
                        "judged"
                    },
                    line.result.actions,
                    line.result.seconds[0] / line.result.decisions[0].max(1) as f64,
                );
                played.lock().unwrap_or_else(|e| e.into_inner()).push(line);
            });
        }
    });
    let mut lines = done_before;
    lines.extend(played.into_inner().unwrap_or_else(|e| e.into_inner()));
    summary(&lines);
}
