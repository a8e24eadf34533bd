//! How well each game's evaluation ([`engine::Game::evaluate`], what a search reads at the
//! leaves of its tree) foretells the end of a game (not a test: a measurement). For each
//! scenario with a doctrine, games are played by the doctrine on every seat; every few
//! decisions the first seat's evaluation is read, and when the game ends each reading is
//! scored against the first seat's result (1 a win, 0.5 a draw, 0 a loss) by the Brier score
//! (the mean squared error). The same is done for the base rate, the first seat's mean result
//! over the same games: an evaluation that does no better than the base rate tells a search
//! nothing about the positions it compares. Readings are grouped by the third of the game
//! they were taken in.
//!
//! ```text
//! cargo run --release -p registry --example calibration -- [--games 40] [--every 10]
//!     [--seed 1] [--scenario ID]...
//! ```
//! Prints one JSON line per scenario. A scenario it cannot measure (unknown, or of a game
//! without a doctrine) is named on stderr and the run ends with status 2.

mod common;

use ai::Doctrine;
use common::{each_scenario, scenario_id, Args, Measure};
use engine::{DataSet, Seat, Setup, Startable};

const HELP: &str = "\
calibration [--games N] [--every K] [--seed S] [--scenario ID]...
  --games N       doctrine games per scenario (default 40)
  --every K       read the evaluation every K decisions (default 10)
  --seed S        the seed of the first game; game i uses S + i (default 1)
  --scenario ID   a scenario (crusades-ii/hab); repeat it; default: every one with a doctrine";

/// One game's readings: (the share of the game played, the first seat's evaluation), and
/// the first seat's result.
struct Played {
    readings: Vec<(f64, f64)>,
    result: f64,
}

/// Plays one game of `scenario` by the doctrine on every seat, reading the evaluation every
/// `every` decisions.
fn play<G: Startable, D: Doctrine<G>>(
    id: &str,
    seed: u64,
    every: u32,
    data: &DataSet,
) -> Result<Played, String> {
    let mut state = G::start(&Setup::seeded(id, seed), data).map_err(|e| e.to_string())?;
    let mut doctrine = D::heuristic(seed).ok_or("no doctrine")?;
    let first = Seat(0);
    let mut raw: Vec<(u32, f64)> = Vec::new();
    let decisions = ai::play_out(&mut state, doctrine.as_mut(), |state, decisions| {
        if decisions % every == 0 {
            raw.push((decisions, state.evaluate(first)));
        }
    })?;
    let result = state
        .outcome()
        .ok_or("a game ended without an outcome")?
        .score(first);
    let length = f64::from(decisions.max(1));
    Ok(Played {
        readings: raw
            .into_iter()
            .map(|(d, e)| (f64::from(d) / length, e))
            .collect(),
        result,
    })
}

/// The calibration's settings.
struct Calibration {
    games: u32,
    every: u32,
    seed: u64,
}

impl Measure for Calibration {
    /// Plays the games of `scenario` and scores the evaluation's readings against them.
    fn measure<G: Startable, D: Doctrine<G>>(
        &self,
        game: &str,
        scenario: &str,
        data: &DataSet,
    ) -> Result<serde_json::Value, String> {
        let Calibration { games, every, seed } = *self;
        let id = scenario_id(game, scenario)?;
        let played = (0..u64::from(games))
            .map(|i| play::<G, D>(id, seed + i, every, data))
            .collect::<Result<Vec<_>, _>>()?;
        let base = played.iter().map(|p| p.result).sum::<f64>() / played.len().max(1) as f64;
        // Per third of the game: readings, squared error of the evaluation, of the base rate.
        let mut thirds = [(0u32, 0.0f64, 0.0f64); 3];
        for p in &played {
            for &(at, e) in &p.readings {
                let t = &mut thirds[((at * 3.0) as usize).min(2)];
                t.0 += 1;
                t.1 += (e - p.result).powi(2);
                t.2 += (base - p.result).powi(2);
            }
        }
        let brier = |n: u32, sum: f64| if n > 0 { sum / f64::from(n) } else { 0.0 };
        let (n, e, b) = thirds
            .iter()
            .fold((0, 0.0, 0.0), |(n, e, b), t| (n + t.0, e + t.1, b + t.2));
        Ok(serde_json::json!({
            "scenario": scenario,
            "games": games,
            "every": every,
            "first_seat_result": base,
            "readings": n,
            "brier": brier(n, e),
            "brier_base_rate": brier(n, b),
            "thirds": thirds.iter().map(|t| serde_json::json!({
                "readings": t.0,
                "brier": brier(t.0, t.1),
                "brier_base_rate": brier(t.0, t.2),
            })).collect::<Vec<_>>(),
        }))
    }
}

fn main() {
    let mut args = Args::new(HELP);
    let mut calibration = Calibration {
        games: 40,
        every: 10,
        seed: 1,
    };
    let mut scenarios = Vec::new();
    while let Some(flag) = args.flag() {
        match flag.as_str() {
            "--games" => calibration.games = args.number("--games", 1) as u32,
            "--every" => calibration.every = args.number("--every", 1) as u32,
            "--seed" => calibration.seed = args.number("--seed", 0),
            "--scenario" => scenarios.push(args.value("--scenario")),
            other => args.fail(&format!("unknown argument `{other}`")),
        }
    }
    each_scenario(scenarios, &calibration);
}
