//! How often the guided search chooses otherwise than its doctrine (not a test: a
//! measurement). For each scenario, a game is played by the doctrine on every seat; at each
//! decision with more than one legal action, a `mcts:N` player of the deciding seat is asked
//! too, and the decisions where it chooses otherwise are counted, by the kind of action (the
//! first word of the doctrine's choice). A search that always agrees is its doctrine at a
//! thousand times the cost; one that never does has stopped listening to it.
//!
//! ```text
//! cargo run --release -p registry --example agreement -- [--mcts mcts:300] [--decisions 200]
//!     [--seed 1] [--scenario ID]...
//! ```
//! Prints one JSON line per scenario: decisions asked, how many differ, and per kind. A
//! scenario it cannot measure (unknown, or of a game without a doctrine) is named on stderr
//! and the run ends with status 2.

use std::collections::BTreeMap;

use ai::{Doctrine, PlayerSpec};
use engine::{DataSet, Log, Pending, Setup, Startable};

const HELP: &str = "\
agreement [--mcts SPEC] [--decisions N] [--seed S] [--scenario ID]...
  --mcts SPEC     the search to compare with its doctrine (default mcts:300)
  --decisions N   decisions asked per scenario at most (default 200)
  --seed S        the game's seed and the search's (default 1)
  --scenario ID   a scenario (crusades-ii/hab); repeat it; default: every one with a doctrine";

/// Plays `scenario` of game `G` by its doctrine and asks `spec` at each decision.
fn measure<G: Startable, D: Doctrine<G>>(
    game: &str,
    scenario: &str,
    spec: &PlayerSpec,
    decisions: u32,
    seed: u64,
    data: &DataSet,
) -> Result<serde_json::Value, String> {
    let id = scenario
        .strip_prefix(&format!("{game}/"))
        .ok_or_else(|| format!("`{scenario}` is not a scenario of {game}"))?;
    let mut state = G::start(&Setup::seeded(id, seed), data).map_err(|e| e.to_string())?;
    let policy = D::policy().ok_or_else(|| format!("{game} has no doctrine"))?;
    let mut search = spec.build::<G, D>(game, seed).map_err(|e| e.to_string())?;
    let (mut asked, mut differ) = (0u32, 0u32);
    let mut kinds: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    while let Pending::Seats(seats) = state.pending() {
        let Some(&seat) = seats.first() else { break };
        if asked == decisions {
            break;
        }
        let legal = state.legal_actions(seat);
        let scores = policy.scores(&state, seat, &legal);
        let best = (0..legal.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b });
        if legal.len() > 1 {
            asked += 1;
            let text = state.action_text(&legal[best]);
            let kind = text.split_whitespace().next().unwrap_or("").to_string();
            let k = kinds.entry(kind).or_default();
            k.0 += 1;
            if search.choose(&state, seat) != legal[best] {
                differ += 1;
                k.1 += 1;
            }
        }
        state
            .apply(seat, &legal[best], &mut Log::discarding())
            .map_err(|e| e.to_string())?;
    }
    Ok(serde_json::json!({
        "scenario": scenario,
        "search": spec.to_string(),
        "decisions": asked,
        "differ": differ,
        "share": if asked > 0 { f64::from(differ) / f64::from(asked) } else { 0.0 },
        "kinds": kinds.into_iter().map(|(k, (n, d))| serde_json::json!({"kind": k, "decisions": n, "differ": d})).collect::<Vec<_>>(),
    }))
}

fn main() {
    let mut spec = "mcts:300".to_string();
    let (mut decisions, mut seed) = (200u32, 1u64);
    let mut scenarios: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next().unwrap_or_else(|| {
                eprintln!("{name} needs a value\n{HELP}");
                std::process::exit(2)
            })
        };
        let number = |name: &str, text: String| -> u64 {
            text.parse().unwrap_or_else(|_| {
                eprintln!("{name} needs a number, not `{text}`\n{HELP}");
                std::process::exit(2)
            })
        };
        match a.as_str() {
            "--mcts" => spec = value("--mcts"),
            "--decisions" => decisions = number("--decisions", value("--decisions")) as u32,
            "--seed" => seed = number("--seed", value("--seed")),
            "--scenario" => scenarios.push(value("--scenario")),
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
    let spec: PlayerSpec = spec.parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let data = registry::all_data(None).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    if scenarios.is_empty() {
        scenarios = registry::scenarios(&data)
            .unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            })
            .into_iter()
            .map(|s| s.id)
            .collect();
    }
    let mut failed = false;
    for scenario in scenarios {
        let game = scenario.split('/').next().unwrap_or("");
        let result = match game {
            "crusades-ii" => measure::<crusades_ii::State, crusades_ii::Doctrine>(
                game, &scenario, &spec, decisions, seed, &data,
            ),
            "the-crusades" => measure::<the_crusades::State, the_crusades::Doctrine>(
                game, &scenario, &spec, decisions, seed, &data,
            ),
            "acre" => measure::<acre::State, acre::Doctrine>(
                game, &scenario, &spec, decisions, seed, &data,
            ),
            _ => Err(format!("no doctrine for `{scenario}`")),
        };
        match result {
            Ok(v) => println!("{v}"),
            Err(e) => {
                eprintln!("{scenario}: {e}");
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(2);
    }
}
