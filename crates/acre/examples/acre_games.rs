//! Seeded random games of a scenario, for profiling the rules under callgrind (whose
//! instruction counts do not depend on how busy the machine is): plays GAMES games with uniform
//! random choices (seeds 1..=GAMES) and prints the plies played; with `--times`, also the
//! wall-clock time of each decision's legal actions (the least of three timings: mean, 99th
//! percentile, worst) and of
//! applying the action chosen (mean), as the registry's benchmark reports them.
//!
//! ```text
//! cargo run --release -p acre --example acre_games -- [SCENARIO] [GAMES] [--times]
//! valgrind --tool=callgrind target/release/examples/acre_games siege 1
//! ```
//! Under callgrind, the inclusive costs of `State::legal` and `State::play` are the legal
//! actions and the apply of every decision.

use std::time::Instant;

use engine::{DiceMode, Game, Log, Pending, Setup, Startable};

fn main() {
    let mut args = std::env::args().skip(1);
    let scenario = args.next().unwrap_or_else(|| "siege".into());
    let games: u64 = args
        .next()
        .map_or(1, |n| n.parse().expect("GAMES: a number"));
    let times = args.next().as_deref() == Some("--times");
    let (mut legal_ns, mut apply_ns) = (Vec::new(), 0u128);
    let mut worst = (0u128, String::new());
    let data = acre::builtin_data();
    let mut plies = 0u64;
    for seed in 1..=games {
        let setup = Setup {
            scenario: scenario.clone(),
            options: Vec::new(),
            seed,
            dice: DiceMode::Seeded,
            position: None,
        };
        let mut s = acre::State::start(&setup, &data).unwrap_or_else(|e| panic!("{e}"));
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while let Pending::Seats(seats) = s.pending() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let seat = seats[0];
            let t = Instant::now();
            let legal = s.legal_actions(seat);
            let mut ns = t.elapsed().as_nanos();
            if times {
                // The least of three timings, against a busy machine's interruptions.
                for _ in 0..2 {
                    let t = Instant::now();
                    std::hint::black_box(s.legal_actions(seat));
                    ns = ns.min(t.elapsed().as_nanos());
                }
            }
            legal_ns.push(ns);
            if ns > worst.0 {
                worst = (ns, format!("{} ({} actions)", s.step_name(), legal.len()));
            }
            let a = &legal[(rng % legal.len() as u64) as usize];
            let t = Instant::now();
            s.apply(seat, a, &mut Log::discarding())
                .expect("a legal action applies");
            apply_ns += t.elapsed().as_nanos();
            plies += 1;
        }
    }
    println!("{plies}");
    if times {
        legal_ns.sort_unstable();
        let n = legal_ns.len() as u128;
        let us = |ns: u128| ns as f64 / 1000.0;
        println!(
            "legal: mean {:.1} us, 99% {:.1} us, worst {:.1} us in {}; apply: mean {:.1} us",
            us(legal_ns.iter().sum::<u128>() / n),
            us(legal_ns[legal_ns.len() * 99 / 100]),
            us(worst.0),
            worst.1,
            us(apply_ns / n)
        );
    }
}
