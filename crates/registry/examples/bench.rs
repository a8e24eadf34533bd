//! Speed of every scenario of every registered game (issue 5's benchmarks), through the
//! registry's table: one JSON line per scenario on standard output, for `bench/run` and
//! `bench/report.py`, and a readable line per scenario on standard error.
//!
//! For each scenario:
//! - **random games**: seeded random games from the set-up (every pending seat's first
//!   decision taken by a uniform random choice), plies per second, and in them the time of
//!   each decision's legal-action generation (mean, 99th percentile, worst, and the worst
//!   again without the machine's interruptions: the [`RETIMED`] slowest decisions each timed
//!   five more times from their positions, the least kept) and of applying the chosen action
//!   (mean);
//! - **a typical position**: the game a third of the way through the first random game:
//!   its legal actions and one action applied to a copy, timed over many repetitions; the
//!   state's size (serialised as JSON, and `size_of` the state itself);
//! - **search**: from that position, MCTS iterations per second (one uniform random playout
//!   to the end per iteration, as the OpenSpiel anchor) against raw random playouts per second
//!   (copy, re-seed the dice, play uniformly at random to the end);
//! - **`simulate`**: the same batch of random-player games on 1 and on 2 threads, through
//!   [`registry::simulate`] as `crusades simulate` runs it (with mimalloc, the allocator the
//!   `crusades` binary has through the server). The batch is as many games as one thread
//!   plays in about [`SIMULATE_BATCH_SECONDS`] times `--seconds` (timed after a first
//!   batch has filled what a scenario keeps once loaded), and at least
//!   [`SIMULATE_MIN_GAMES`]; it is played in
//!   [`SIMULATE_ROUNDS`] rounds of 1, 2 and again 1 thread, each round's 2-thread batch
//!   compared with the mean of the 1-thread batches around it (a steady drift of the
//!   machine's speed cancels out), and the median round reported. Two figures are given:
//!   - the *batch* speed-up, the ratio of the two batches' wall-clock times; it includes the
//!     batch's tail, in which the threads' last games finish one by one and a thread is idle,
//!     which weighs more the fewer and longer the games are;
//!   - the *steady* speed-up, the ratio of the throughputs while every thread is busy: on
//!     `k` threads, the games finished by the time the `(N - k + 1)`-th game of `N` finishes
//!     (when the first thread finds no game left), over that time. Games still in progress
//!     then are not counted, so this undercounts the 2-thread throughput a little; on 1
//!     thread it is the batch's throughput. This is the throughput a long batch reaches,
//!     which issue 5's target (2 threads ≥ 1.8x one) is about.
//!
//! Reading the typed state of a game needs its type: [`measure_game`] names each game's
//! state once. A game registered later without a line there still gets its `simulate`
//! figures, and its line says what was not measured.
//!
//! ```text
//! cargo run --release -p registry --example bench -- [--seconds S] [--only SCENARIO,...]
//! ```
//! `--seconds` (default 3) is the time given to each timed loop; a scenario takes about
//! 8 of them plus its `simulate` batches (about 15 more, or the time of 240 games for games of
//! more than a tenth of a second), longer for games whose single random game or playout takes
//! longer (about 13 minutes for every scenario in all).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use ai::{Budget, Mcts, Player, RandomPlayer};
use engine::{DataSet, Game, Log, Pending, Seat, Setup, Startable};
use registry::Batch;
use serde_json::{json, Value};

/// The allocator of the `crusades` binary (it has mimalloc through the server), so that
/// `simulate` is measured as it runs there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The fewest games of a `simulate` batch, so that its tail (the last game of each thread)
/// is a small part of the batch.
const SIMULATE_MIN_GAMES: u64 = 32;

/// What the command line asked.
struct Args {
    /// Time given to each timed loop.
    seconds: f64,
    /// Scenario ids to measure (all when empty).
    only: Vec<String>,
}

fn args() -> Args {
    let mut a = Args {
        seconds: 3.0,
        only: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let value = it.next().unwrap_or_default();
        match arg.as_str() {
            "--seconds" => a.seconds = value.parse().expect("--seconds S"),
            "--only" => a.only = value.split(',').map(String::from).collect(),
            other => {
                eprintln!("unknown argument {other} (use --seconds S, --only SCENARIO,...)");
                std::process::exit(2);
            }
        }
    }
    a
}

/// A cap on the plies of one random game (as `simulate`'s).
const MAX_PLIES: u64 = Batch::MAX_ACTIONS;

fn start<G: Startable>(scenario: &str, seed: u64, data: &DataSet) -> G {
    let setup = Setup::seeded(scenario, seed);
    G::start(&setup, data).unwrap_or_else(|e| panic!("{scenario} starts: {e}"))
}

/// The seat whose decision a random game takes next, if the game goes on.
fn next_seat<G: Game>(g: &G) -> Option<Seat> {
    match g.pending() {
        Pending::Seats(s) => s.first().copied(),
        Pending::Over => None,
    }
}

/// The random games' choices: a xorshift generator, apart from the games' dice.
struct Choices(u64);

impl Choices {
    fn new(seed: u64) -> Self {
        Choices(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number in `0..n` (n > 0; the slight bias does not matter for timing).
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Seconds per call of `f`, repeated until `seconds` have passed (at least `min` calls).
fn time_per_call(seconds: f64, min: u32, mut f: impl FnMut()) -> (f64, u32) {
    let t = Instant::now();
    let mut n = 0u32;
    while n < min || t.elapsed().as_secs_f64() < seconds {
        f();
        n += 1;
    }
    (t.elapsed().as_secs_f64() / f64::from(n), n)
}

/// How many of the slowest decisions of the random games are timed again, each the least of
/// five runs, for the dearest decision's cost without the machine's interruptions.
const RETIMED: usize = 16;

/// The measurements of a game whose state type is known (see the module's documentation).
fn measure_typed<G: Startable>(a: &Args, scenario: &str, data: &DataSet) -> Value {
    // Random games, timing each decision's legal actions and each apply.
    let mut legal_ns: Vec<f64> = Vec::new();
    // The slowest decisions timed, slowest first, each with its position, to be timed again.
    let mut slowest: Vec<(f64, G, Seat)> = Vec::with_capacity(RETIMED + 1);
    let mut apply_total = 0.0;
    let (mut plies, mut games, mut unfinished) = (0u64, 0u64, 0u64);
    let mut first_game_plies = 0;
    let wall = Instant::now();
    while games == 0 || wall.elapsed().as_secs_f64() < a.seconds {
        let mut g: G = start(scenario, games + 1, data);
        let mut rng = Choices::new(games + 1);
        let mut n = 0u64;
        while let Some(seat) = next_seat(&g) {
            if n >= MAX_PLIES {
                unfinished += 1;
                break;
            }
            let t = Instant::now();
            let legal = g.legal_actions(seat);
            let ns = t.elapsed().as_secs_f64() * 1e9;
            legal_ns.push(ns);
            if slowest.len() < RETIMED || slowest.last().is_some_and(|w| ns > w.0) {
                let at = slowest.partition_point(|w| w.0 >= ns);
                slowest.insert(at, (ns, g.clone(), seat));
                slowest.truncate(RETIMED);
            }
            assert!(
                !legal.is_empty(),
                "{scenario}: a pending seat has no action"
            );
            let action = &legal[rng.below(legal.len())];
            let t = Instant::now();
            g.apply(seat, action, &mut Log::discarding())
                .expect("a legal action applies");
            apply_total += t.elapsed().as_secs_f64();
            n += 1;
        }
        if games == 0 {
            first_game_plies = n;
        }
        plies += n;
        games += 1;
    }
    let secs = wall.elapsed().as_secs_f64();
    // Plies per second of random games without the timing around each call.
    let wall = Instant::now();
    let mut bare_plies = 0u64;
    let mut bare_games = 0u64;
    while bare_games == 0 || wall.elapsed().as_secs_f64() < a.seconds {
        let mut g: G = start(scenario, bare_games + 1, data);
        let mut rng = Choices::new(bare_games + 1);
        let mut n = 0;
        while let Some(seat) = next_seat(&g) {
            if n >= MAX_PLIES {
                break;
            }
            let legal = g.legal_actions(seat);
            let action = &legal[rng.below(legal.len())];
            g.apply(seat, action, &mut Log::discarding())
                .expect("a legal action applies");
            n += 1;
        }
        bare_plies += n;
        bare_games += 1;
    }
    let bare_secs = wall.elapsed().as_secs_f64();
    let mut sorted = legal_ns.clone();
    sorted.sort_by(f64::total_cmp);
    let pct = |p: f64| sorted[((sorted.len() - 1) as f64 * p) as usize];
    // The slowest decisions timed again, the least of five runs each: what the dearest
    // decision costs without whatever interrupted the process the first time.
    let retimed_max = slowest
        .iter()
        .map(|(_, g, seat)| {
            (0..5)
                .map(|_| {
                    let t = Instant::now();
                    std::hint::black_box(g.legal_actions(*seat));
                    t.elapsed().as_secs_f64() * 1e9
                })
                .fold(f64::INFINITY, f64::min)
        })
        .fold(0.0, f64::max);

    // The typical position: a third of the way through the first game, at a decision with a
    // choice (so that a search has something to search).
    let mut pos: G = start(scenario, 1, data);
    let mut rng = Choices::new(1);
    let mut n = 0;
    while let Some(seat) = next_seat(&pos) {
        let legal = pos.legal_actions(seat);
        if n >= first_game_plies / 3 && legal.len() > 1 {
            break;
        }
        let action = &legal[rng.below(legal.len())];
        pos.apply(seat, action, &mut Log::discarding())
            .expect("a legal action applies");
        n += 1;
    }
    let Some(seat) = next_seat(&pos) else {
        return json!({"error": "no decision with a choice in the first random game"});
    };
    let legal = pos.legal_actions(seat);
    let (legal_at, _) = time_per_call(a.seconds / 2.0, 10, || {
        std::hint::black_box(pos.legal_actions(seat));
    });
    let action = legal[legal.len() / 2].clone();
    let (clone_at, _) = time_per_call(a.seconds / 2.0, 10, || {
        std::hint::black_box(pos.clone());
    });
    let (apply_at, _) = time_per_call(a.seconds / 2.0, 10, || {
        let mut t = pos.clone();
        t.apply(seat, &action, &mut Log::discarding())
            .expect("a legal action applies");
        std::hint::black_box(t);
    });
    let json_bytes = serde_json::to_vec(&pos).map_or(0, |v| v.len());

    // Raw random playouts to the end from the position, against MCTS iterations each with
    // one such playout.
    let mut k = 0u64;
    let mut playout_plies = 0u64;
    let (playout, playouts) = time_per_call(a.seconds, 2, || {
        k += 1;
        let mut w = pos.clone();
        w.dice_mut().reseed(k + 100);
        let mut r = RandomPlayer::new(k);
        let mut n = 0;
        while let Some(s) = next_seat(&w) {
            if n >= MAX_PLIES {
                break;
            }
            let act = r.choose(&w, s);
            w.apply(s, &act, &mut Log::discarding())
                .expect("a legal action applies");
            n += 1;
        }
        playout_plies += n;
    });
    let mut m = Mcts::new(
        Budget::Time(Duration::from_secs_f64(a.seconds.max(playout * 2.0))),
        5,
    );
    m.playout_depth = None;
    let t = Instant::now();
    let search = m.search(&pos, seat);
    let iteration = t.elapsed().as_secs_f64() / f64::from(search.iterations.max(1));

    json!({
        "random_games": {
            "games": games, "plies": plies, "unfinished": unfinished,
            "plies_per_s": bare_plies as f64 / bare_secs,
            "timed_plies_per_s": plies as f64 / secs,
            "legal_mean_ns": legal_ns.iter().sum::<f64>() / legal_ns.len() as f64,
            "legal_p99_ns": pct(0.99),
            "legal_max_ns": pct(1.0),
            "legal_max_retimed_ns": retimed_max,
            "apply_mean_ns": apply_total * 1e9 / plies.max(1) as f64,
        },
        "position": {
            "ply": n,
            "seat": seat.0,
            "legal_actions": legal.len(),
            "legal_ns": legal_at * 1e9,
            "clone_ns": clone_at * 1e9,
            "clone_apply_ns": apply_at * 1e9,
            "state_json_bytes": json_bytes,
            "state_size_of": std::mem::size_of::<G>(),
        },
        "search": {
            "playouts": playouts,
            "playout_plies": playout_plies as f64 / f64::from(playouts),
            "playouts_per_s": 1.0 / playout,
            "mcts_iterations": search.iterations,
            "mcts_iterations_per_s": 1.0 / iteration,
            "ratio": playout / iteration,
        },
    })
}

/// The measurements of a game through its state's type, where this file knows it.
fn measure_game(id: &str, a: &Args, scenario: &str, data: &DataSet) -> Option<Value> {
    Some(match id {
        "crusades-ii" => measure_typed::<crusades_ii::State>(a, scenario, data),
        "the-crusades" => measure_typed::<the_crusades::State>(a, scenario, data),
        "acre" => measure_typed::<acre::State>(a, scenario, data),
        _ => return None,
    })
}

/// One `simulate` batch: its wall-clock time, and the time when its first thread was left
/// without a game (the `(games - threads + 1)`-th game finished) with the games finished by
/// then.
struct Timed {
    seconds: f64,
    busy_seconds: f64,
    busy_games: u64,
}

/// Plays a batch of `games` random-player games of `id` on `threads` threads, timing it.
fn time_batch(id: &str, data: &DataSet, games: u64, threads: usize) -> Result<Timed, String> {
    let batch = Batch {
        games,
        seed: 1,
        threads,
        max_actions: Batch::MAX_ACTIONS,
    };
    let finished = Mutex::new(Vec::with_capacity(games as usize));
    let t = Instant::now();
    registry::simulate(id, &[], &[], batch, data, &|| {
        let at = t.elapsed().as_secs_f64();
        finished.lock().unwrap_or_else(|e| e.into_inner()).push(at);
    })
    .map_err(|e| e.to_string())?;
    let seconds = t.elapsed().as_secs_f64();
    let mut finished = finished.into_inner().unwrap_or_else(|e| e.into_inner());
    finished.sort_by(f64::total_cmp);
    let busy_games = games.saturating_sub(threads as u64 - 1).max(1);
    Ok(Timed {
        seconds,
        busy_seconds: finished[busy_games as usize - 1],
        busy_games,
    })
}

/// Rounds of `simulate` batches whose speed-ups are taken, the median reported: this
/// machine's speed drifts by tens of percent from minute to minute, and one pair of batches
/// measured that drift as often as the threads.
const SIMULATE_ROUNDS: usize = 3;

/// A `simulate` batch lasts about this many times `--seconds` on one thread: batches of The
/// Crusades' short games lasting 3 s measured the machine's drift as much as the threads.
const SIMULATE_BATCH_SECONDS: f64 = 2.0;

/// The median of some numbers (the upper middle one of an even count).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// One round of [`measure_simulate`]: a batch on 1 thread, on 2, and on 1 again.
fn time_round(id: &str, data: &DataSet, games: u64) -> Result<(Timed, Timed, Timed), String> {
    Ok((
        time_batch(id, data, games, 1)?,
        time_batch(id, data, games, 2)?,
        time_batch(id, data, games, 1)?,
    ))
}

/// `simulate`'s throughput on 1 and 2 threads, over the batch and while both threads are busy
/// (see the module's documentation). Each of [`SIMULATE_ROUNDS`] rounds times a 1-thread
/// batch, a 2-thread batch and a 1-thread batch again, and compares the 2-thread batch with
/// the mean of the two around it, so that a steady change of the machine's speed cancels
/// out; the median round is reported.
fn measure_simulate(a: &Args, id: &str, data: &DataSet) -> Value {
    // The second of two probes: the first may fill what a game's scenario keeps once loaded.
    let probe = match time_batch(id, data, 2, 1).and_then(|_| time_batch(id, data, 2, 1)) {
        Ok(t) => t.seconds / 2.0,
        Err(e) => return json!({ "error": e }),
    };
    let games = ((SIMULATE_BATCH_SECONDS * a.seconds / probe.max(1e-6)).ceil() as u64)
        .clamp(SIMULATE_MIN_GAMES, 10_000)
        & !1;
    let mut rounds = Vec::with_capacity(SIMULATE_ROUNDS);
    for _ in 0..SIMULATE_ROUNDS {
        match time_round(id, data, games) {
            Ok(t) => rounds.push(t),
            Err(e) => return json!({ "error": e }),
        }
    }
    let steady = |t: &Timed| t.busy_games as f64 / t.busy_seconds;
    let batch = |t: &Timed| games as f64 / t.seconds;
    let speedups: Vec<f64> = rounds
        .iter()
        .map(|(b, two, a)| 2.0 * batch(two) / (batch(b) + batch(a)))
        .collect();
    let steady_speedups: Vec<f64> = rounds
        .iter()
        .map(|(b, two, a)| 2.0 * steady(two) / (steady(b) + steady(a)))
        .collect();
    let ones: Vec<f64> = rounds
        .iter()
        .flat_map(|(b, _, a)| [batch(b), batch(a)])
        .collect();
    let twos: Vec<f64> = rounds.iter().map(|(_, two, _)| batch(two)).collect();
    let steady_ones: Vec<f64> = rounds
        .iter()
        .flat_map(|(b, _, a)| [steady(b), steady(a)])
        .collect();
    let steady_twos: Vec<f64> = rounds.iter().map(|(_, two, _)| steady(two)).collect();
    json!({
        "games": games,
        "rounds": SIMULATE_ROUNDS,
        "games_per_s_one": median(ones),
        "games_per_s_two": median(twos),
        "speedup": median(speedups.clone()),
        "speedups": speedups,
        "steady_games_per_s_one": median(steady_ones),
        "steady_games_per_s_two": median(steady_twos),
        "steady_games_two": rounds[0].1.busy_games,
        "steady_speedup": median(steady_speedups.clone()),
        "steady_speedups": steady_speedups,
    })
}

fn main() {
    let a = args();
    let data = registry::all_data(None).expect("the built-in data loads");
    let scenarios = registry::scenarios(&data).expect("the scenarios list");
    for s in scenarios {
        if !a.only.is_empty() && !a.only.contains(&s.id) {
            continue;
        }
        let local = s.id.split_once('/').map_or(s.id.as_str(), |(_, l)| l);
        let t = Instant::now();
        let typed = measure_game(&s.game, &a, local, &data).unwrap_or_else(|| {
            json!({"error": "no typed measurements: name the game's state in examples/bench.rs"})
        });
        let simulate = measure_simulate(&a, &s.id, &data);
        let line = json!({
            "scenario": s.id,
            "game": s.game,
            "typed": typed,
            "simulate": simulate,
            "seconds": t.elapsed().as_secs_f64(),
        });
        eprintln!(
            "{}: {:.0} random-game plies/s, legal actions {:.1} µs a decision, MCTS/playouts \
             {:.2}, simulate 2 threads/1 {:.2} (steady {:.2}) ({:.0} s)",
            s.id,
            line["typed"]["random_games"]["plies_per_s"]
                .as_f64()
                .unwrap_or(f64::NAN),
            line["typed"]["random_games"]["legal_mean_ns"]
                .as_f64()
                .unwrap_or(f64::NAN)
                / 1e3,
            line["typed"]["search"]["ratio"]
                .as_f64()
                .unwrap_or(f64::NAN),
            line["simulate"]["speedup"].as_f64().unwrap_or(f64::NAN),
            line["simulate"]["steady_speedup"]
                .as_f64()
                .unwrap_or(f64::NAN),
            t.elapsed().as_secs_f64()
        );
        println!("{line}");
    }
}
