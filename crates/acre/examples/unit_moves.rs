//! One combat unit's moves against a bare Dijkstra over the same allowance on the same map
//! (issue 5's target: at most 2x its cost). The position: a random game of the siege, seed
//! one, played until two combat units of one side each have somewhere to go. The two units'
//! moves are listed in turn by [`acre::moves::destination_hexes`], the search the legal
//! actions use; it keeps its last search, so taking the two units in turn makes every listing
//! a new search. The bare Dijkstra ([`hexgrid::field_of_movement`]) runs from the same hexes
//! with the same allowances over the same entry costs ([`acre::movement::entry`] for each
//! unit, worked out beforehand into a table by grid index and direction, so that only the
//! search is measured), with no zone of control, end-of-move rule or path kept.
//!
//! ```text
//! cargo run --release -p acre --example unit_moves             # times both: one JSON line
//! valgrind --tool=callgrind target/release/examples/unit_moves unit 200   # or: bare 200, unit 0
//! ```
//! With `unit N` or `bare N` it does N listings or N searches (half for each unit) and prints
//! nothing, so that callgrind's counts of N and of 0 give the instructions of one.

use std::hint::black_box;

use acre::movement::{allowance, entry, Mover};
use acre::moves::destination_hexes;
use acre::setup::Piece;
use acre::State;
use engine::{least_ns_per_call, Game, Pending, Setup, Startable};
use hexgrid::{field_of_movement, Direction, Hex};

/// A unit to move: its index, hex and allowance in half Movement Points.
#[derive(Clone, Copy)]
struct Mobile {
    unit: usize,
    start: Hex,
    budget: u32,
}

/// The two units and, for each, the cost of every step on the map: by the grid index of the
/// hex left, six entries in [`Direction::ALL`] order (`None`: prohibited).
struct Fixture {
    two: [Mobile; 2],
    costs: [Vec<Option<u32>>; 2],
}

/// Plays random actions from the start of the siege until two combat units of one side can
/// move, at least `plies` actions in; the state and the two units.
fn position(plies: u64) -> (State, [Mobile; 2]) {
    let setup = Setup::seeded("siege", 1);
    let mut s = State::start(&setup, &acre::builtin_data()).unwrap_or_else(|e| panic!("{e}"));
    let mut rng = 0x9E37_79B9_7F4A_7C15_u64;
    let mut played = 0;
    while let Pending::Seats(seats) = s.pending() {
        if played >= plies {
            if let Some(two) = two_mobile(&s) {
                return (s, two);
            }
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let legal = s.legal_actions(seats[0]);
        let a = legal[(rng % legal.len() as u64) as usize].clone();
        s.apply(seats[0], &a, &mut engine::Log::discarding())
            .unwrap_or_else(|e| panic!("{e}"));
        played += 1;
    }
    panic!("the game ended before two units could move");
}

/// The two combat units of one side with the most places to go, if two have any.
fn two_mobile(s: &State) -> Option<[Mobile; 2]> {
    let mut best: Vec<(usize, Mobile, acre::rules::Side)> = (0..s.rules.units.len())
        .filter_map(|u| {
            let start = s.pos.hex_of(u)?;
            let n = destination_hexes(s, Piece::Unit(u), false).len();
            let budget = allowance(&s.rules, &s.pos, u, false, s.conrad);
            let side = Mover::unit(&s.rules, u).side;
            (n > 0).then_some((
                n,
                Mobile {
                    unit: u,
                    start,
                    budget,
                },
                side,
            ))
        })
        .collect();
    best.sort_by_key(|(n, m, _)| (std::cmp::Reverse(*n), m.unit));
    let (_, first, side) = *best.first()?;
    let second = best.iter().skip(1).find(|(_, _, s)| *s == side)?.1;
    Some([first, second])
}

/// Every step's cost on the map for `m`, by [`acre::movement::entry`] ([`Fixture::costs`]).
fn step_costs(s: &State, m: Mobile) -> Vec<Option<u32>> {
    let mover = Mover::unit(&s.rules, m.unit);
    let grid = &s.rules.map.grid;
    let mut costs = vec![None; grid.hexes().len() * 6];
    for from in grid.hexes() {
        let k = grid.index(from).expect("a hex of the grid has an index");
        for d in Direction::ALL {
            costs[k * 6 + usize::from(d.index())] =
                entry(&s.rules, &s.pos, mover, from, from.neighbour(d)).ok();
        }
    }
    costs
}

/// The bare Dijkstra from the `k`th unit's hex over its allowance, reading the step costs.
fn bare(s: &State, f: &Fixture, k: usize) -> usize {
    let grid = &s.rules.map.grid;
    let costs = &f.costs[k];
    field_of_movement(f.two[k].start, f.two[k].budget, |from, to| {
        let d = from.direction_to(to)?;
        costs[grid.index(from)? * 6 + usize::from(d.index())]
    })
    .len()
}

/// The `k`th unit's moves as the legal actions list them.
fn listed(s: &State, f: &Fixture, k: usize) -> usize {
    destination_hexes(s, Piece::Unit(f.two[k].unit), false).len()
}

/// Nanoseconds a call of `f`, alternating the two units: the least of five runs of `reps`.
fn time(s: &State, fx: &Fixture, reps: u32, f: fn(&State, &Fixture, usize) -> usize) -> f64 {
    least_ns_per_call(5, reps, |i| {
        black_box(f(black_box(s), fx, (i % 2) as usize));
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (s, two) = position(300);
    let fx = Fixture {
        two,
        costs: two.map(|m| step_costs(&s, m)),
    };
    match args.first().map(String::as_str) {
        Some(op @ ("unit" | "bare")) => {
            let n: u32 = args
                .get(1)
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("usage: unit_moves unit|bare N"));
            let f = if op == "unit" { listed } else { bare };
            for i in 0..n {
                black_box(f(black_box(&s), &fx, (i % 2) as usize));
            }
        }
        Some(other) => panic!("unknown operation `{other}`: unit, bare or nothing"),
        None => {
            let unit_ns = time(&s, &fx, 2000, listed);
            let bare_ns = time(&s, &fx, 2000, bare);
            println!(
                "{{\"scenario\":\"acre/siege\",\"units\":[{},{}],\"destinations\":[{},{}],\"reached_bare\":[{},{}],\"unit_ns\":{unit_ns:.0},\"bare_ns\":{bare_ns:.0},\"ratio\":{:.2}}}",
                two[0].unit,
                two[1].unit,
                listed(&s, &fx, 0),
                listed(&s, &fx, 1),
                bare(&s, &fx, 0),
                bare(&s, &fx, 1),
                unit_ns / bare_ns
            );
        }
    }
}
