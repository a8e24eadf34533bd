//! Fixed amounts of the work `rules.rs` times, for instruction counts under callgrind (which
//! do not depend on how busy the machine is): `bench/instructions` runs each operation with
//! 0 and N repetitions and reports the difference divided by N.
//!
//! `target/release/deps/instructions-* OPERATION SCENARIO N`, OPERATION one of `legal` (all
//! legal actions at the first movement), `unit` (one unit's moves), `bare` (a bare Dijkstra
//! over the same allowance and costs), `apply` (a counter selected and its first move applied,
//! to a clone), `game` (N whole random games: prints the plies), `playout` (N random playouts
//! to the end from the first movement: prints the plies), `mcts` (one search of N iterations
//! from there, each with a random playout to the end), `guided` (one search of N iterations
//! from there guided by the doctrine, as the `mcts:N` player makes it).

mod common;

use std::hint::black_box;

use crusades_ii::State;
use engine::{DiceMode, Game, Log, Setup, Startable};
use hexgrid::{field_of_movement, Direction};

fn start(scenario: &str, seed: u64, options: &[&str]) -> State {
    let setup = Setup {
        scenario: scenario.into(),
        options: options.iter().map(|o| o.to_string()).collect(),
        seed,
        dice: DiceMode::Seeded,
        position: None,
    };
    State::start(&setup, &crusades_ii::builtin_data()).expect("starts")
}

/// The game at the first player's first movement (as in `rules.rs`).
fn at_first_movement(scenario: &str) -> State {
    common::advance_to_first_movement(start(scenario, 1, &["historical-commands"]))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` runs every bench target with `--bench`: nothing to do then.
    let [op, scenario, n] = &args[..] else {
        return;
    };
    let n: u64 = n.parse().expect("a count");
    if op == "game" {
        let mut plies = 0u64;
        for seed in 1..=n {
            let mut s = start(scenario, seed, &[]);
            let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            plies += common::random_playout(&mut s, &mut rng);
        }
        println!("{plies}");
        return;
    }
    if op == "guided" {
        // The `mcts:N` player of Crusades II: guided by its doctrine, playouts cut off as
        // for any guided search.
        let s = at_first_movement(scenario);
        if n > 0 {
            let spec: ai::PlayerSpec = format!("mcts:{n}").parse().expect("a player");
            let mut player = spec
                .build::<State, crusades_ii::Doctrine>("crusades-ii", 1)
                .expect("a guided search");
            black_box(player.choose(&s, s.active));
        }
        return;
    }
    if op == "playout" || op == "mcts" {
        // Random playouts to the end from the first movement, or one search of as many
        // iterations (each with one such playout): the same seeds give the same playouts.
        let s = at_first_movement(scenario);
        if op == "playout" {
            let mut plies = 0u64;
            for k in 0..n {
                let mut t = s.clone();
                let mut rng = (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                plies += common::random_playout(&mut t, &mut rng);
            }
            println!("{plies}");
        } else {
            let mut m = common::full_playout_search(n as u32, 1);
            black_box(m.search(&s, s.active));
        }
        return;
    }
    let s = at_first_movement(scenario);
    let seat = s.active;
    // The unit of `rules.rs`'s one-unit benchmark (asked for only on Hab).
    let unit = || {
        s.on_map(seat)
            .find(|&u| !s.skirmisher(u) && !s.destinations(u, false).is_empty())
            .expect("a unit that can move")
    };
    let unit = if matches!(op.as_str(), "unit" | "bare") {
        unit()
    } else {
        0
    };
    let start_hex = s.hex(unit).unwrap_or(hexgrid::Hex { q: 0, r: 0 });
    let class = s.move_class(unit);
    let budget = 2 * s.values(unit).movement as u32;
    let legal = s.legal_actions(seat);
    eprintln!(
        "{scenario}: {:?}, {} legal actions for seat {}",
        s.phase,
        legal.len(),
        seat.0
    );
    let first = legal[0].clone();
    for _ in 0..n {
        match op.as_str() {
            "legal" => {
                black_box(s.legal_actions(black_box(seat)));
            }
            "unit" => {
                black_box(s.destinations(black_box(unit), false));
            }
            "bare" => {
                black_box(field_of_movement(start_hex, budget, |from, to| {
                    let d: Direction = from.direction_to(to)?;
                    s.entry_cost(class, from, d).map(u32::from)
                }));
            }
            "apply" => {
                let mut t = s.clone();
                t.apply(seat, black_box(&first), &mut Log::discarding())
                    .expect("legal");
                let mv = t.legal_actions(seat)[0].clone();
                t.apply(seat, black_box(&mv), &mut Log::discarding())
                    .expect("legal");
                black_box(t);
            }
            other => panic!("unknown operation {other}"),
        }
    }
}
