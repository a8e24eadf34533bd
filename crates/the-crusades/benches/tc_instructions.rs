//! Fixed amounts of work for instruction counts under callgrind (which do not depend on how
//! busy the machine is): run each operation with 0 and N repetitions and divide the
//! difference by N.
//!
//! `target/release/deps/tc_instructions-* OPERATION N` (built by
//! `cargo bench -p the-crusades --bench tc_instructions --no-run`), OPERATION one of
//! - `game`: N seeded random games of the Third Crusade from the set-up (seeds 1..=N, the
//!   first pending seat deciding, as the registry's bench plays them); prints the decisions;
//! - `legal`: the random game of seed 1, listing the legal actions N more times at each of
//!   its decisions; prints the decisions.

use std::hint::black_box;

/// The allocator of the `crusades` binary, so that the counts are those of its games.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use engine::{Game, Log, Pending, Setup, Startable};
use the_crusades::State;

fn start(seed: u64) -> State {
    let setup = Setup::seeded("third-crusade", seed);
    State::start(&setup, &the_crusades::builtin_data()).expect("starts")
}

/// Plays the random game of `seed` to its end, listing the legal actions `1 + extra` times
/// at each decision; returns the decisions.
fn random_game(seed: u64, extra: u64) -> u64 {
    let mut s = start(seed);
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut decisions = 0;
    while let Pending::Seats(seats) = s.pending() {
        let seat = seats[0];
        for _ in 0..extra {
            black_box(s.legal_actions(seat));
        }
        let legal = s.legal_actions(seat);
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let a = legal[(rng % legal.len() as u64) as usize].clone();
        s.apply(seat, &a, &mut Log::discarding())
            .expect("a legal action applies");
        decisions += 1;
    }
    decisions
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` runs every bench target with `--bench`: nothing to do then.
    let [op, n] = &args[..] else {
        return;
    };
    let n: u64 = n.parse().expect("a count");
    let decisions = match op.as_str() {
        "game" => (1..=n).map(|seed| random_game(seed, 0)).sum::<u64>(),
        "legal" => random_game(1, n),
        other => panic!("unknown operation {other}: game or legal"),
    };
    println!("{decisions}");
}
