//! Fits each battle's evaluation weights ([`crusades_ii::evaluation`]) to games the doctrine
//! plays on both sides, and writes them to `DIR/BATTLE/evaluation.toml`.
//!
//! Every K decisions of each game, the position's features are read from the first seat's
//! side; when the game ends, each is paired with the first seat's result; a logistic model
//! ([`ai::fit::logistic`]) is fitted to them. Prints one JSON line per battle: positions, the
//! Brier score of the reckoning alone, of the fitted model and of the base rate on the
//! fitting games (the `calibration` example of the registry measures on other games).
//!
//! ```text
//! cargo run --release -p crusades-ii --example fit_evaluation -- [--games 200] [--every 10]
//!     [--seed 1000] [--battle hab]... [--out data/crusades-ii]
//! ```

use std::path::PathBuf;

use ai::fit::{self, Sample};
use ai::Doctrine as _;
use crusades_ii::evaluation::{Features, Weights};
use engine::{DataSet, Game, Seat, Setup, Startable};

const HELP: &str = "\
fit_evaluation [--games N] [--every K] [--seed S] [--battle ID]... [--out DIR]
  --games N     doctrine games per battle (default 200)
  --every K     read a position every K decisions (default 10)
  --seed S      the seed of the first game; game i uses S + i (default 1000)
  --battle ID   a battle (hab); repeat it; default: all four
  --out DIR     where BATTLE/evaluation.toml is written (default data/crusades-ii)";

/// The positions of one doctrine game of `battle`, with the first seat's result.
fn positions(battle: &str, seed: u64, every: u32, data: &DataSet) -> Result<Vec<Sample>, String> {
    let mut state =
        crusades_ii::State::start(&Setup::seeded(battle, seed), data).map_err(|e| e.to_string())?;
    let mut doctrine = crusades_ii::Doctrine::heuristic(seed).ok_or("no doctrine")?;
    let mut read: Vec<Features> = Vec::new();
    ai::play_out(&mut state, doctrine.as_mut(), |state, decisions| {
        if decisions % every == 0 {
            read.push(state.features());
        }
    })?;
    let result = state
        .outcome()
        .ok_or("a game ended without an outcome")?
        .score(Seat(0));
    Ok(read
        .into_iter()
        .map(|f| Sample {
            features: f.as_list().to_vec(),
            result,
        })
        .collect())
}

/// Writes `text` to `path` atomically (a temporary file beside it, then renamed).
fn write_atomically(path: &PathBuf, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let temporary = path.with_extension("toml.tmp");
    std::fs::write(&temporary, text)?;
    std::fs::rename(&temporary, path)
}

fn main() {
    let (mut games, mut every, mut seed) = (200u64, 10u32, 1000u64);
    let mut battles: Vec<String> = Vec::new();
    let mut out = PathBuf::from("data/crusades-ii");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next().unwrap_or_else(|| {
                eprintln!("{name} needs a value\n{HELP}");
                std::process::exit(2)
            })
        };
        let number = |name: &str, text: String| -> u64 {
            match text.parse() {
                Ok(n) if n > 0 => n,
                _ => {
                    eprintln!("{name} needs a number above 0, not `{text}`\n{HELP}");
                    std::process::exit(2)
                }
            }
        };
        match a.as_str() {
            "--games" => games = number("--games", value("--games")),
            "--every" => every = number("--every", value("--every")) as u32,
            "--seed" => seed = number("--seed", value("--seed")),
            "--battle" => battles.push(value("--battle")),
            "--out" => out = PathBuf::from(value("--out")),
            "-h" | "--help" => {
                println!("{HELP}");
                return;
            }
            other => {
                eprintln!("unknown argument `{other}`\n{HELP}");
                std::process::exit(2)
            }
        }
    }
    if battles.is_empty() {
        battles = crusades_ii::scenario::BATTLES
            .iter()
            .map(|b| b.to_string())
            .collect();
    }
    let data = crusades_ii::builtin_data();
    for battle in battles {
        let mut samples = Vec::new();
        for i in 0..games {
            match positions(&battle, seed + i, every, &data) {
                Ok(s) => samples.extend(s),
                Err(e) => {
                    eprintln!("{battle}: {e}");
                    std::process::exit(2)
                }
            }
        }
        let Some(w) = fit::logistic(&samples, fit::DEFAULT_RIDGE) else {
            eprintln!("{battle}: the positions cannot be fitted");
            std::process::exit(1)
        };
        let source = format!(
            "fitted by `cargo run --release -p crusades-ii --example fit_evaluation -- --games {games} --every {every} --seed {seed} --battle {battle}`: {} positions of {games} games the doctrine played on both sides",
            samples.len()
        );
        let weights = Weights::from_list(source, [w[0], w[1], w[2], w[3], w[4], w[5]]);
        let base = samples.iter().map(|s| s.result).sum::<f64>() / samples.len() as f64;
        let as_features = |x: &[f64]| Features::from_list([x[0], x[1], x[2], x[3], x[4]]);
        let summary = serde_json::json!({
            "battle": battle,
            "positions": samples.len(),
            "first_seat_result": base,
            "brier_reckoning": fit::brier(&samples, |x| fit::sigmoid(x[0])),
            "brier_fitted": fit::brier(&samples, |x| weights.chance(&as_features(x))),
            "brier_base_rate": fit::brier(&samples, |_| base),
            "weights": weights.as_list(),
        });
        let path = out.join(&battle).join("evaluation.toml");
        if let Err(e) = write_atomically(&path, &weights.to_toml()) {
            eprintln!("{}: {e}", path.display());
            std::process::exit(1)
        }
        println!("{summary}");
    }
}
