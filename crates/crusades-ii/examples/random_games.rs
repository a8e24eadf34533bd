//! Plays seeded random games of a Crusades II scenario to the end and prints one JSON line:
//! games, plies, seconds and plies per second. Used by `bench/run` (also under callgrind, for
//! instruction counts) and handy for profiling.
//!
//! `cargo run --release -p crusades-ii --example random_games -- hab 3`

use std::time::Instant;

use engine::{Game, Log, Pending, Setup, Startable};

fn main() {
    let mut args = std::env::args().skip(1);
    let scenario = args.next().unwrap_or_else(|| "hab".into());
    let games: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let data = crusades_ii::builtin_data();
    let t0 = Instant::now();
    let mut plies = 0u64;
    for seed in 1..=games {
        let mut s = match crusades_ii::State::start(&Setup::seeded(&scenario, seed), &data) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut log = Log::discarding();
        while let Pending::Seats(seats) = s.pending() {
            let seat = seats[(next() % seats.len() as u64) as usize];
            let legal = s.legal_actions(seat);
            let a = &legal[(next() % legal.len() as u64) as usize];
            if let Err(e) = s.apply(seat, a, &mut log) {
                eprintln!("seed {seed}: legal action refused: {e}");
                std::process::exit(1);
            }
            plies += 1;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "{{\"scenario\":\"{scenario}\",\"games\":{games},\"plies\":{plies},\"seconds\":{secs:.3},\"plies_per_s\":{:.1}}}",
        plies as f64 / secs
    );
}
