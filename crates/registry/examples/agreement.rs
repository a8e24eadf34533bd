//! How often the guided search chooses otherwise than its doctrine (not a test: a
//! measurement). For each scenario, a game is played by the doctrine on every seat; at each
//! decision with more than one legal action, a `mcts:N` player of the deciding seat is asked
//! too, and the decisions where it chooses otherwise are counted, by the kind of action (the
//! first word of the doctrine's choice). A search that always agrees is its doctrine at a
//! thousand times the cost; one that never does has stopped listening to it. A planned
//! search (`mcts:100:d150:planned`) is asked only at the decisions its doctrine deliberates
//! (the others it takes as the doctrine does). A choice the doctrine scores as high as its
//! own is a tie, not an overrule.
//!
//! With `--judge R`, each decision where the search chooses otherwise is judged: both moves
//! are played from the same position R times, the rest of the game by the doctrine on every
//! seat, each pair of games on the same freshly seeded dice; the *gain* is the deciding
//! seat's mean score after the search's move less that after the doctrine's (1 a win, 0.5 a
//! draw). This is one step of policy improvement (Tesauro and Galperin, 1996): a search whose
//! overrules gain on average plays better than its doctrine, at least against it.
//!
//! With `--room R`, each decision asked is also searched by brute force, to tell how much
//! room the doctrine leaves a search there: each of the doctrine's 6 best-scored actions is
//! played on R times on the same dice (the rest of the game by the doctrine), the best of
//! them is taken, and, if it is not the doctrine's own, judged against it on R fresh games;
//! the *room* is the mean gain over the decisions asked (0 where the doctrine's own is
//! best). Played on fresh dice, a best picked on noise gains nothing on average.
//!
//! ```text
//! cargo run --release -p registry --example agreement -- [--mcts mcts:300] [--decisions 200]
//!     [--seed 1] [--judge R] [--room R] [--scenario ID]...
//! ```
//! Prints one JSON line per scenario: decisions asked, how many differ, and per kind; judged,
//! the mean gain with its 95% interval (normal, over the judged decisions) and each judged
//! decision. A scenario it cannot measure (unknown, or of a game without a doctrine) is
//! named on stderr and the run ends with status 2.

use std::collections::BTreeMap;

mod common;

use ai::{Doctrine, PlayerSpec};
use common::{each_scenario, scenario_id, Args, Measure};
use engine::{DataSet, Game, Log, Pending, Seat, Setup, Startable};

const HELP: &str = "\
agreement [--mcts SPEC] [--decisions N] [--seed S] [--judge R] [--scenario ID]...
  --mcts SPEC     the search to compare with its doctrine (default mcts:300)
  --decisions N   decisions asked per scenario at most (default 200)
  --seed S        the game's seed and the search's (default 1)
  --judge R       judge each overrule by R pairs of games played on by the doctrine (default 0)
  --room R        pick the best of the doctrine's 6 best actions by R games played on each,
                  and judge it against the doctrine's on R fresh games (default 0)
  --scenario ID   a scenario (crusades-ii/hab); repeat it; default: every one with a doctrine";

/// `seat`'s mean score over `rounds` games from `state` that begin with `action`, each on
/// dice seeded from `seed` and its round, played on by the doctrine on every seat: a
/// win 1, a draw 0.5.
fn played_on<G: Game, D: Doctrine<G>>(
    state: &G,
    seat: Seat,
    action: &G::Action,
    rounds: u32,
    seed: u64,
) -> Result<f64, String> {
    let mut total = 0.0;
    for round in 0..rounds {
        let round_seed = seed ^ (u64::from(round) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut game = state.clone();
        game.dice_mut().reseed(round_seed);
        let mut doctrine = D::heuristic(round_seed).ok_or("no doctrine")?;
        game.dice_mut()
            .begin_action(&[])
            .map_err(|e| e.to_string())?;
        game.apply(seat, action, &mut Log::discarding())
            .map_err(|e| e.to_string())?;
        ai::play_out(&mut game, doctrine.as_mut(), |_, _| {})?;
        total += game
            .outcome()
            .ok_or("a game played on ended without an outcome")?
            .score(seat);
    }
    Ok(total / f64::from(rounds.max(1)))
}

/// The measurement's settings.
struct Agreement {
    spec: PlayerSpec,
    decisions: u32,
    seed: u64,
    judge: u32,
    room: u32,
}

impl Measure for Agreement {
    /// Plays `scenario` by its doctrine and asks the search at each decision; with `judge`
    /// above 0, judges each overrule by that many pairs of games played on.
    fn measure<G: Startable, D: Doctrine<G>>(
        &self,
        game: &str,
        scenario: &str,
        data: &DataSet,
    ) -> Result<serde_json::Value, String> {
        let Agreement {
            ref spec,
            decisions,
            seed,
            judge,
            room,
        } = *self;
        let id = scenario_id(game, scenario)?;
        let mut state = G::start(&Setup::seeded(id, seed), data).map_err(|e| e.to_string())?;
        let policy = D::policy().ok_or_else(|| format!("{game} has no doctrine"))?;
        let mut search = spec.build::<G, D>(game, seed).map_err(|e| e.to_string())?;
        let planned = matches!(spec, PlayerSpec::Mcts { planned: true, .. });
        let (mut asked, mut differ) = (0u32, 0u32);
        let mut kinds: BTreeMap<String, (u32, u32)> = BTreeMap::new();
        let mut judged: Vec<serde_json::Value> = Vec::new();
        let mut gains: Vec<f64> = Vec::new();
        let (mut room_gains, mut room_picks) = (Vec::new(), Vec::new());
        while let Pending::Seats(seats) = state.pending() {
            let Some(&seat) = seats.first() else { break };
            if asked == decisions {
                break;
            }
            let legal = state.legal_actions(seat);
            let scores = policy.scores(&state, seat, &legal);
            let best = (0..legal.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b });
            if legal.len() > 1 && (!planned || policy.deliberates(&state, seat)) {
                asked += 1;
                let text = state.action_text(&legal[best]);
                let kind = text.split_whitespace().next().unwrap_or("").to_string();
                let k = kinds.entry(kind).or_default();
                k.0 += 1;
                let chosen = search.choose(&state, seat);
                if room > 0 {
                    let position_seed = seed ^ u64::from(asked).wrapping_mul(0x9FB2_1C65_1E98_DF25);
                    let mut order: Vec<usize> = (0..legal.len()).collect();
                    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
                    order.truncate(6);
                    let mut top = (best, f64::NEG_INFINITY);
                    for &i in &order {
                        let v = played_on::<G, D>(&state, seat, &legal[i], room, position_seed)?;
                        if v > top.1 || (v == top.1 && i == best) {
                            top = (i, v);
                        }
                    }
                    let gain = if top.0 == best {
                        0.0
                    } else {
                        let fresh = position_seed.rotate_left(17) ^ 0x5851_F42D_4C95_7F2D;
                        let by_best = played_on::<G, D>(&state, seat, &legal[top.0], room, fresh)?;
                        let by_doctrine =
                            played_on::<G, D>(&state, seat, &legal[best], room, fresh)?;
                        room_picks.push(serde_json::json!({
                            "decision": asked,
                            "doctrine": state.action_text(&legal[best]),
                            "best": state.action_text(&legal[top.0]),
                            "gain": by_best - by_doctrine,
                        }));
                        by_best - by_doctrine
                    };
                    room_gains.push(gain);
                }
                let tie = legal
                    .iter()
                    .position(|a| *a == chosen)
                    .is_some_and(|i| scores[i] >= scores[best]);
                if !tie {
                    differ += 1;
                    k.1 += 1;
                    if judge > 0 {
                        let position_seed =
                            seed ^ u64::from(asked).wrapping_mul(0xD1B5_4A32_D192_ED03);
                        let by_search =
                            played_on::<G, D>(&state, seat, &chosen, judge, position_seed)?;
                        let by_doctrine =
                            played_on::<G, D>(&state, seat, &legal[best], judge, position_seed)?;
                        gains.push(by_search - by_doctrine);
                        judged.push(serde_json::json!({
                            "decision": asked,
                            "doctrine": text,
                            "search": state.action_text(&chosen),
                            "by_doctrine": by_doctrine,
                            "by_search": by_search,
                        }));
                    }
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
            "judge": judge,
            "judged": gains.len(),
            "gain": mean_interval(&gains),
            "overrules": judged,
            "room": room,
            "room_gain": mean_interval(&room_gains),
            "room_picks": room_picks,
            "kinds": kinds.into_iter().map(|(k, (n, d))| serde_json::json!({"kind": k, "decisions": n, "differ": d})).collect::<Vec<_>>(),
        }))
    }
}

/// The mean of `xs` with its 95% interval (normal approximation), `null` when empty.
fn mean_interval(xs: &[f64]) -> serde_json::Value {
    if xs.is_empty() {
        return serde_json::Value::Null;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    serde_json::json!({"mean": mean, "low": mean - half, "high": mean + half})
}

fn main() {
    let mut args = Args::new(HELP);
    let (mut spec, mut decisions, mut seed, mut judge, mut room) =
        ("mcts:300".to_string(), 200, 1, 0, 0);
    let mut scenarios = Vec::new();
    while let Some(flag) = args.flag() {
        match flag.as_str() {
            "--mcts" => spec = args.value("--mcts"),
            "--decisions" => decisions = args.number("--decisions", 1) as u32,
            "--seed" => seed = args.number("--seed", 0),
            "--judge" => judge = args.number("--judge", 0) as u32,
            "--room" => room = args.number("--room", 0) as u32,
            "--scenario" => scenarios.push(args.value("--scenario")),
            other => args.fail(&format!("unknown argument `{other}`")),
        }
    }
    let spec: PlayerSpec = spec.parse().unwrap_or_else(|e| args.fail(&format!("{e}")));
    each_scenario(
        scenarios,
        &Agreement {
            spec,
            decisions,
            seed,
            judge,
            room,
        },
    );
}
