//! The strength of the Crusades II players, measured (not a test: it takes minutes).
//!
//! Paired games: each pair plays one dice seed twice, the two players swapping sides, so
//! luck and the battle's balance cancel out. A game still going after `--turns` turns (0:
//! play to the end) is judged by the game's evaluation from each side (11.0 losses and
//! victory tables), a draw when within 0.02 of even. Prints each match's wins, draws and
//! losses with the 95% Wilson interval of the win rate and of the score, the time per
//! decision, and the search speed: MCTS iterations per second against raw random playouts
//! per second from the same position. Each game's result is also written to standard error
//! as it ends, so that a run cut short still gives a sample.
//!
//! ```text
//! cargo run --release -p registry --example strength -- --battle hab --pairs 6 \
//!     --mcts mcts:16 --turns 6 --threads 2
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ai::{Budget, Doctrine, Mcts, Player, PlayerSpec, RandomPlayer};
use crusades_ii::State;
use engine::{DiceMode, Game, Log, Pending, Seat, Setup, Startable};
use registry::{game_seed, player_seed};

/// Actions after which a game is stopped and judged by the evaluation.
const MAX_PLIES: u64 = 20_000;

struct Options {
    battle: String,
    pairs: u64,
    mcts: String,
    turns: usize,
    threads: usize,
    seed: u64,
    matches: Vec<(String, String)>,
    speed: bool,
}

fn options() -> Options {
    let mut o = Options {
        battle: "hab".into(),
        pairs: 6,
        mcts: "mcts:16".into(),
        turns: 6,
        threads: 2,
        seed: 1,
        matches: Vec::new(),
        speed: true,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let mut matches = None;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--battle" => o.battle = value,
            "--pairs" => o.pairs = value.parse().expect("--pairs N"),
            "--mcts" => o.mcts = value,
            "--turns" => o.turns = value.parse().expect("--turns N"),
            "--threads" => o.threads = value.parse().expect("--threads N"),
            "--seed" => o.seed = value.parse().expect("--seed N"),
            "--matches" => matches = Some(value),
            "--no-speed" => {
                o.speed = false;
                i += 1;
                continue;
            }
            "--help" | "-h" => {
                println!(
                    "strength [--battle B] [--pairs N] [--mcts SPEC] [--turns T] [--threads T] \
                     [--seed S] [--matches A-B,...|none] [--no-speed]\n\
                     Paired games between AI players of Crusades II (see the example's \
                     documentation); defaults: hab, 6 pairs, mcts:16, 6 turns, 2 threads, \
                     heuristic-random,mcts-random,mcts-heuristic."
                );
                std::process::exit(0);
            }
            other => panic!("unknown argument {other} (--help lists them)"),
        }
        i += 2;
    }
    let m = matches.unwrap_or_else(|| "heuristic-random,mcts-random,mcts-heuristic".into());
    o.matches = m
        .split(',')
        .filter(|pair| *pair != "none")
        .map(|pair| {
            let (a, b) = pair.split_once('-').expect("a match is A-B");
            let spec = |s: &str| {
                if s == "mcts" {
                    o.mcts.clone()
                } else {
                    s.to_string()
                }
            };
            (spec(a), spec(b))
        })
        .collect();
    o
}

fn start(battle: &str, seed: u64) -> State {
    let setup = Setup {
        scenario: battle.into(),
        options: Vec::new(),
        seed,
        dice: DiceMode::Seeded,
        position: None,
    };
    State::start(&setup, &crusades_ii::builtin_data()).expect("the battle starts")
}

fn build(spec: &str, seed: u64) -> Box<dyn Player<State>> {
    let spec: PlayerSpec = spec.parse().expect("a player");
    spec.build::<State, crusades_ii::Doctrine>("crusades-ii", seed)
        .expect("the player builds")
}

/// One game's result for the first-named player: 1, 0.5 or 0, how it ended, and the time
/// and decisions of each player.
struct Played {
    points: f64,
    finished: bool,
    plies: u64,
    time: [Duration; 2],
    decisions: [u64; 2],
}

fn play_one(o: &Options, a: &str, b: &str, dice: u64, a_seat: Seat) -> Played {
    let mut g = start(&o.battle, dice);
    let specs = if a_seat == Seat(0) { [a, b] } else { [b, a] };
    let mut players = [
        build(specs[0], player_seed(dice, Seat(0))),
        build(specs[1], player_seed(dice, Seat(1))),
    ];
    let mut time = [Duration::ZERO; 2];
    let mut decisions = [0u64; 2];
    let mut plies = 0;
    while let Pending::Seats(seats) = g.pending() {
        // A game still going after this many actions is judged like one cut short (a
        // player that could stall forever must not hang the measurement).
        if (o.turns > 0 && g.turn >= o.turns) || plies >= MAX_PLIES {
            break;
        }
        let seat = seats[0];
        let t = Instant::now();
        let action = players[seat.index()].choose(&g, seat);
        time[seat.index()] += t.elapsed();
        decisions[seat.index()] += 1;
        g.apply(seat, &action, &mut Log::discarding())
            .expect("a legal action applies");
        plies += 1;
    }
    let (points, finished) = match g.outcome() {
        Some(out) => (
            match out.winner {
                Some(w) if w == a_seat => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            true,
        ),
        None => {
            let v = g.evaluate(a_seat);
            (
                if v > 0.52 {
                    1.0
                } else if v < 0.48 {
                    0.0
                } else {
                    0.5
                },
                false,
            )
        }
    };
    // Time and decisions of the first-named player first.
    let (ia, ib) = (a_seat.index(), 1 - a_seat.index());
    Played {
        points,
        finished,
        plies,
        time: [time[ia], time[ib]],
        decisions: [decisions[ia], decisions[ib]],
    }
}

/// The 95% Wilson score interval of `k` successes in `n`.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}

fn run_match(o: &Options, a: &str, b: &str) {
    let games: Vec<(u64, Seat)> = (0..o.pairs)
        .flat_map(|i| {
            let dice = game_seed(o.seed, i);
            [(dice, Seat(0)), (dice, Seat(1))]
        })
        .collect();
    let results: Mutex<Vec<Option<Played>>> = Mutex::new((0..games.len()).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let wall = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..o.threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= games.len() {
                    break;
                }
                let (dice, seat) = games[i];
                let r = play_one(o, a, b, dice, seat);
                // Each game as it ends, so a run cut short still tells something.
                eprintln!(
                    "{a} vs {b} ({}), game {} (dice {dice}, {a} as seat {}): {a} scores {} \
                     ({}, {} plies)",
                    o.battle,
                    i + 1,
                    seat.index(),
                    r.points,
                    if r.finished { "finished" } else { "judged" },
                    r.plies,
                );
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });
    let results: Vec<Played> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every game played"))
        .collect();
    let n = results.len() as f64;
    let wins = results.iter().filter(|r| r.points == 1.0).count() as f64;
    let draws = results.iter().filter(|r| r.points == 0.5).count() as f64;
    let points: f64 = results.iter().map(|r| r.points).sum();
    let finished = results.iter().filter(|r| r.finished).count();
    let plies: u64 = results.iter().map(|r| r.plies).sum();
    let per = |k: usize| {
        let t: Duration = results.iter().map(|r| r.time[k]).sum();
        let d: u64 = results.iter().map(|r| r.decisions[k]).sum();
        t.as_secs_f64() * 1000.0 / d.max(1) as f64
    };
    let (wl, wh) = wilson(wins, n);
    let (sl, sh) = wilson(points, n);
    println!(
        "{a} vs {b} ({}, {} games in pairs, {}): {a} wins {wins} draws {draws} losses {}; \
         win rate {:.2} [{wl:.2}, {wh:.2}], score {:.2} [{sl:.2}, {sh:.2}]; \
         {finished} finished; {plies} plies; ms per decision {a} {:.1}, {b} {:.1}; {:.0} s",
        o.battle,
        results.len(),
        if o.turns == 0 {
            "to the end".to_string()
        } else {
            format!("judged after {} turns", o.turns)
        },
        n - wins - draws,
        wins / n,
        points / n,
        per(0),
        per(1),
        wall.elapsed().as_secs_f64(),
    );
}

/// MCTS iterations per second against raw random playouts per second, from a position of
/// the battle after two turns of doctrine against doctrine.
fn speed(o: &Options) {
    let mut g = start(&o.battle, 3);
    let mut players = [build("heuristic", 1), build("heuristic", 2)];
    let mut seat = Seat(0);
    while let Pending::Seats(seats) = g.pending() {
        seat = seats[0];
        if g.turn >= 2 && g.legal_actions(seat).len() > 100 {
            break;
        }
        let a = players[seat.index()].choose(&g, seat);
        g.apply(seat, &a, &mut Log::discarding()).unwrap();
    }
    let legal = g.legal_actions(seat).len();
    let t = Instant::now();
    let actions = g.legal_actions(seat);
    let listing = t.elapsed();
    let t = Instant::now();
    let policy = crusades_ii::Doctrine::policy();
    let scores = policy
        .as_ref()
        .expect("a doctrine")
        .scores(&g, seat, &actions);
    println!(
        "speed: listing {legal} legal actions {:.2} ms, the doctrine's scores {:.2} ms (best {:.2})",
        listing.as_secs_f64() * 1000.0,
        t.elapsed().as_secs_f64() * 1000.0,
        scores.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    );
    // Raw random playouts to the end.
    let t = Instant::now();
    let mut playouts = 0u32;
    let mut plies = 0u64;
    while t.elapsed() < Duration::from_secs(10) || playouts == 0 {
        let mut w = g.clone();
        w.dice_mut().reseed(u64::from(playouts) + 100);
        let mut r = RandomPlayer::new(u64::from(playouts));
        while let Pending::Seats(seats) = w.pending() {
            let a = r.choose(&w, seats[0]);
            w.apply(seats[0], &a, &mut Log::discarding()).unwrap();
            plies += 1;
        }
        playouts += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "speed ({}, turn {}, {legal} legal actions): raw random playouts to the end {:.3}/s ({:.0} plies/s)",
        o.battle,
        g.turn + 1,
        f64::from(playouts) / secs,
        plies as f64 / secs
    );
    for (name, guided, depth, iterations) in [
        ("unguided, playouts to the end", false, None, 2u32),
        ("unguided, cutoff 4", false, Some(4), 40),
        ("guided, cutoff 0", true, Some(0), 40),
        ("guided, cutoff 4 (default)", true, Some(4), 40),
        ("guided, cutoff 16", true, Some(16), 20),
    ] {
        let mut m = Mcts::new(Budget::Iterations(iterations), 5);
        m.playout_depth = depth;
        let t = Instant::now();
        let s = m.search_guided(&g, seat, if guided { policy.as_deref() } else { None });
        let secs = t.elapsed().as_secs_f64();
        println!(
            "speed: MCTS {name}: {:.1} iterations/s ({} iterations in {secs:.2} s)",
            f64::from(s.iterations) / secs,
            s.iterations
        );
    }
}

fn main() {
    let o = options();
    if o.speed {
        speed(&o);
    }
    for (a, b) in &o.matches {
        run_match(&o, a, b);
    }
}
