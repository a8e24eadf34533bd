//! Benchmarks of the Crusades II rules: legal-action generation for the side to move, one
//! unit's moves against a bare Dijkstra over the same allowance, applying an action, and whole
//! random games (plies per second). Run with `cargo bench -p crusades-ii`; `bench/run`
//! writes the figures into BENCHMARKS.md.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use crusades_ii::State;
use engine::{DiceMode, Game, Log, Setup, Startable};
use hexgrid::{field_of_movement, Direction};

fn start(scenario: &str, seed: u64) -> State {
    let setup = Setup {
        scenario: scenario.into(),
        options: vec!["historical-commands".into()],
        seed,
        dice: DiceMode::Seeded,
        position: None,
    };
    State::start(&setup, &crusades_ii::builtin_data()).expect("starts")
}

/// Plays the first decisions so that the game stands at the first player's first movement.
fn at_first_movement(scenario: &str) -> State {
    common::advance_to_first_movement(start(scenario, 1))
}

/// One random game to the end; returns its number of plies.
fn random_game(scenario: &str, seed: u64) -> u64 {
    let mut s = start(scenario, seed);
    let mut rng = seed | 1;
    common::random_playout(&mut s, &mut rng)
}

fn benches(c: &mut Criterion) {
    for scenario in ["hattin", "hab", "nicopolis", "tannenburg"] {
        let s = at_first_movement(scenario);
        let seat = s.active;
        c.bench_function(&format!("{scenario}/legal_actions_first_movement"), |b| {
            b.iter(|| black_box(s.legal_actions(black_box(seat))))
        });
        // A move is two decisions: the counter (its moves worked out), then its move.
        let select = s.legal_actions(seat)[0].clone();
        let mut selected = s.clone();
        selected
            .apply(seat, &select, &mut Log::discarding())
            .expect("legal");
        let first = selected.legal_actions(seat)[0].clone();
        c.bench_function(&format!("{scenario}/apply_one_move"), |b| {
            b.iter(|| {
                let mut t = s.clone();
                t.apply(seat, black_box(&select), &mut Log::discarding())
                    .expect("legal");
                t.apply(seat, black_box(&first), &mut Log::discarding())
                    .expect("legal");
                black_box(t)
            })
        });
        c.bench_function(&format!("{scenario}/clone_state"), |b| {
            b.iter(|| black_box(s.clone()))
        });
    }

    // MCTS iterations against raw random playouts from the same position, each playout to
    // the end of the game (one rollout per iteration, as the OpenSpiel anchor).
    let mut group = c.benchmark_group("mcts");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    let scenario = "hab";
    let s = at_first_movement(scenario);
    let seat = s.active;
    group.bench_function(format!("{scenario}/random_playout"), |b| {
        let mut rng = 7u64;
        b.iter(|| {
            let mut t = s.clone();
            black_box(common::random_playout(&mut t, &mut rng))
        })
    });
    group.bench_function(format!("{scenario}/mcts_iteration"), |b| {
        b.iter_custom(|iters| {
            let t0 = Instant::now();
            let mut m = common::full_playout_search(iters as u32, iters);
            black_box(m.search(&s, seat));
            t0.elapsed()
        })
    });
    group.finish();

    // One unit's moves against a bare Dijkstra over the same allowance and map costs.
    let s = at_first_movement("hab");
    let unit = s
        .on_map(s.active)
        .find(|&u| !s.skirmisher(u) && !s.destinations(u, false).is_empty())
        .expect("a unit that can move");
    let start_hex = s.hex(unit).expect("on the map");
    let class = s.move_class(unit);
    let budget = 2 * s.values(unit).movement as u32;
    c.bench_function("hab/one_unit_moves", |b| {
        b.iter(|| black_box(s.destinations(black_box(unit), false)))
    });
    c.bench_function("hab/bare_dijkstra_same_allowance", |b| {
        b.iter(|| {
            black_box(field_of_movement(start_hex, budget, |from, to| {
                let d: Direction = from.direction_to(to)?;
                s.entry_cost(class, from, d).map(u32::from)
            }))
        })
    });

    let mut group = c.benchmark_group("random_game");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for scenario in ["hattin", "hab", "nicopolis", "tannenburg"] {
        group.bench_function(format!("{scenario}/plies"), |b| {
            b.iter_custom(|iters| {
                // Time per ply: whole games, divided by their plies.
                let t0 = Instant::now();
                let mut plies = 0;
                let mut seed = 0;
                while plies < iters {
                    seed += 1;
                    plies += random_game(scenario, seed);
                }
                t0.elapsed().mul_f64(iters as f64 / plies as f64)
            })
        });
    }
    group.finish();
}

criterion_group!(rules, benches);
criterion_main!(rules);
