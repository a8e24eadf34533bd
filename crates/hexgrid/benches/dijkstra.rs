//! Compares `field_of_movement` with a bare textbook Dijkstra over the same costs.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use criterion::{criterion_group, criterion_main, Criterion};
use hexgrid::{field_of_movement, Hex};

/// Deterministic pseudo-terrain: cost 1..=4 to enter, about 1 hex in 10 impassable.
fn terrain(to: Hex) -> Option<u32> {
    let mut x = (to.q as u32).wrapping_mul(0x9E37_79B9) ^ (to.r as u32).wrapping_mul(0x85EB_CA6B);
    x ^= x >> 15;
    x = x.wrapping_mul(0x2C1B_3C6D);
    x ^= x >> 12;
    if x % 10 == 0 {
        None
    } else {
        Some(1 + x % 4)
    }
}

fn bare_dijkstra(start: Hex, budget: u32) -> HashMap<Hex, u32> {
    let mut best = HashMap::new();
    let mut heap = BinaryHeap::new();
    best.insert(start, 0);
    heap.push(Reverse((0u32, start)));
    while let Some(Reverse((c, h))) = heap.pop() {
        if best.get(&h).is_some_and(|&b| b < c) {
            continue;
        }
        for n in h.neighbours() {
            if let Some(step) = terrain(n) {
                let nc = c + step;
                if nc <= budget && best.get(&n).is_none_or(|&b| nc < b) {
                    best.insert(n, nc);
                    heap.push(Reverse((nc, n)));
                }
            }
        }
    }
    best
}

fn bench(c: &mut Criterion) {
    let start = Hex::new(0, 0);
    let budget = 24;
    let a = field_of_movement(start, budget, |_, to| terrain(to));
    let b = bare_dijkstra(start, budget);
    assert_eq!(a.len(), b.len());
    let mut g = c.benchmark_group("movement");
    g.bench_function("field_of_movement", |bch| {
        bch.iter(|| field_of_movement(start, budget, |_, to| terrain(to)).len())
    });
    g.bench_function("bare_dijkstra_std_hashmap", |bch| {
        bch.iter(|| bare_dijkstra(start, budget).len())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
