//! Golden playthroughs: scripted games with fixed seeds (the game's dice and a seeded chooser
//! picking among the legal actions) whose logs are snapshots in `tests/golden/`. Any change
//! in the rules' behaviour shows as a difference; when a change is intended, regenerate them
//! with `UPDATE_GOLDEN=1 cargo test --release -p crusades-ii --test golden` and review the
//! diff.

mod common;

use std::fmt::Write;
use std::path::PathBuf;

use engine::{state_hash, Game, Log, Pending, Viewer};

/// How many actions of each game are written out in full.
const SHOWN: usize = 400;

/// A small deterministic chooser, independent of the game's dice.
struct Chooser(u64);

impl Chooser {
    fn pick(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays a whole game and writes its first actions, with the public events and the rolls'
/// dice, modifiers and table cells, then the outcome and the final state's hash.
fn playthrough(scenario: &str, options: &[&str], seed: u64) -> String {
    let mut s = common::start(scenario, options, seed);
    let mut chooser = Chooser(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = String::new();
    let _ = writeln!(out, "# {scenario} {options:?} seed {seed}");
    let mut n = 0;
    while let Pending::Seats(seats) = s.pending() {
        let seat = seats[chooser.pick(seats.len())];
        let legal = s.legal_actions(seat);
        // Set-up by the historical deployment, so that the snapshot shows the battle.
        let action = match legal
            .iter()
            .find(|a| **a == crusades_ii::Action::DeployHistorical)
        {
            Some(a) => a.clone(),
            None => legal[chooser.pick(legal.len())].clone(),
        };
        let text = s.action_text(&action);
        let mut log = Log::recording();
        s.dice.begin_action(&[]).unwrap();
        s.apply(seat, &action, &mut log)
            .unwrap_or_else(|e| panic!("{scenario} seed {seed}: `{text}` refused: {e}"));
        n += 1;
        if n <= SHOWN {
            let _ = writeln!(out, "{n} {}: {text}", s.battle.seats[seat.index()]);
            for e in log
                .events()
                .iter()
                .filter(|e| Viewer::Spectator.sees(&e.visibility))
            {
                let _ = writeln!(out, "    [{}] {}", e.case, e.text);
                for r in &e.rolls {
                    let mods: Vec<String> = r
                        .modifiers
                        .iter()
                        .map(|m| format!("{:+} {}", m.value, m.reason))
                        .collect();
                    let mods = if mods.is_empty() {
                        String::new()
                    } else {
                        format!(" {}", mods.join(", "))
                    };
                    let _ = writeln!(
                        out,
                        "      roll {:?}{} = {} on {} -> {}",
                        r.dice,
                        mods,
                        r.total,
                        r.cell.as_deref().unwrap_or("-"),
                        r.result
                    );
                }
            }
        }
        assert!(n < 50_000, "{scenario} seed {seed} does not end");
    }
    let _ = writeln!(out, "... {n} actions in all");
    let _ = writeln!(out, "outcome: {:?}", s.outcome());
    let _ = writeln!(out, "final state hash: {}", state_hash(&s));
    out
}

fn check(name: &str, scenario: &str, options: &[&str], seed: u64) {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "golden",
        &format!("{name}.txt"),
    ]
    .iter()
    .collect();
    let now = playthrough(scenario, options, seed);
    assert_eq!(
        now,
        playthrough(scenario, options, seed),
        "{name}: the same seed plays the same game"
    );
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (make it with UPDATE_GOLDEN=1)", path.display()));
    if golden != now {
        let line = golden
            .lines()
            .zip(now.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(golden.lines().count().min(now.lines().count()));
        panic!(
            "{name} differs from its golden playthrough at line {}:\n  golden: {}\n  now:    {}\n(if intended: UPDATE_GOLDEN=1)",
            line + 1,
            golden.lines().nth(line).unwrap_or("<end>"),
            now.lines().nth(line).unwrap_or("<end>")
        );
    }
}

#[test]
fn hattin_seed_1() {
    check("hattin-1", "hattin", &[], 1);
}

#[test]
fn hab_seed_2() {
    check("hab-2", "hab", &[], 2);
}

#[test]
fn nicopolis_seed_3_with_optional_melee_rules() {
    check(
        "nicopolis-3",
        "nicopolis",
        &["melee-odds", "unit-type-modifiers"],
        3,
    );
}

#[test]
fn tannenburg_seed_4_historical_commands() {
    check("tannenburg-4", "tannenburg", &["historical-commands"], 4);
}
