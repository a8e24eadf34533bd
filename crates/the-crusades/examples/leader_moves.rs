//! One leader's moves against a bare Dijkstra over the same allowance on the same map
//! (issue 5's target: at most 2x its cost). The position: the Third Crusade's set-up, seed
//! one; the two leaders of one side with the most places to go. A leader's land routes
//! depend only on the map, the weather, where it starts and its allowance (6.1.1, 13.1), so
//! the legal actions read them from routes searched once per scenario and kept
//! ([`the_crusades::movement::reachable`]); this measures both that reading (`kept`) and the
//! search that fills it the first time ([`the_crusades::movement::dense_search`], `first`:
//! every place reached, city mini-hexes too, each with its path). The bare Dijkstra
//! ([`hexgrid::field_of_movement`]) runs from the same hexes with the same allowance over the
//! same step costs (1 MP, 2 across a river, none across mountains or blocked hexsides, from
//! the map's own table of land crossings, worked out beforehand into a table by grid index
//! and direction, so that only the search is measured), with no mini-hex and no path kept.
//!
//! ```text
//! cargo run --release -p the-crusades --example leader_moves      # times all three: one JSON line
//! valgrind --tool=callgrind target/release/examples/leader_moves first 200   # or: bare, kept; N = 0
//! ```
//! With `first N`, `kept N` or `bare N` it does N listings or searches (half for each leader)
//! and prints nothing, so that callgrind's counts of N and of 0 give the instructions of one.

use std::hint::black_box;

use engine::{least_ns_per_call, Setup, Startable};
use hexgrid::{field_of_movement, Direction};
use the_crusades::map::Place;
use the_crusades::movement::{allowance, dense_search, reachable};
use the_crusades::state::Status;
use the_crusades::State;

/// A leader to move: its index, place and allowance in Movement Points.
#[derive(Clone, Copy)]
struct Mobile {
    leader: usize,
    start: Place,
    budget: u32,
}

/// The two leaders and the cost of every step on the map: by the grid index of the hex left,
/// six entries in [`Direction::ALL`] order (`None`: no land crossing).
struct Fixture {
    two: [Mobile; 2],
    rain: bool,
    costs: Vec<Option<u32>>,
}

/// The two active leaders of one side, at two different places, with the most places to go
/// (the side of the leader with the most).
fn two_mobile(s: &State) -> [Mobile; 2] {
    let mut best: Vec<(usize, Mobile, the_crusades::scenario::Side)> = s
        .leaders
        .iter()
        .enumerate()
        .filter(|(_, l)| l.status == Status::Active)
        .filter_map(|(i, l)| {
            let start = l.place?;
            let side = s.side_of(i);
            let budget = allowance(s, side);
            let n = reachable(s, start, budget).len();
            (n > 0).then_some((
                n,
                Mobile {
                    leader: i,
                    start,
                    budget,
                },
                side,
            ))
        })
        .collect();
    best.sort_by_key(|(n, m, _)| (std::cmp::Reverse(*n), m.leader));
    let (_, first, side) = *best.first().expect("a leader can move at the start");
    let second = best
        .iter()
        .skip(1)
        .find(|(_, m, s)| *s == side && m.start != first.start)
        .expect("two leaders of one side can move from two places")
        .1;
    [first, second]
}

/// Every step's cost on the map in this turn's weather ([`Fixture::costs`]), from the map's
/// table of land crossings.
fn step_costs(s: &State, rain: bool) -> Vec<Option<u32>> {
    let map = &s.scenario.map;
    let grid = &map.grid;
    let mut costs = vec![None; grid.len() * 6];
    for (k, from) in grid.hexes().enumerate() {
        for d in Direction::ALL {
            let to = grid.id_of(from.neighbour(d));
            costs[k * 6 + usize::from(d.index())] = map
                .land_near_at(k, rain)
                .iter()
                .find(|&&(_, id, _)| Some(id) == to)
                .map(|&(_, _, river)| 1 + u32::from(river));
        }
    }
    costs
}

/// The bare Dijkstra from the `k`th leader's hex over its allowance, reading the step costs.
fn bare(s: &State, f: &Fixture, k: usize) -> usize {
    let grid = &s.scenario.map.grid;
    let start = grid
        .hex_of(f.two[k].start.hex)
        .expect("a leader stands on the map");
    field_of_movement(start, f.two[k].budget, |from, to| {
        let d = from.direction_to(to)?;
        f.costs[grid.index(from)? * 6 + usize::from(d.index())]
    })
    .len()
}

/// The `k`th leader's routes searched afresh, as the first listing of them does.
fn first(s: &State, f: &Fixture, k: usize) -> usize {
    let m = f.two[k];
    dense_search(&s.scenario.map, f.rain, m.start, m.budget).len()
}

/// The `k`th leader's routes as the legal actions read them, once searched and kept.
fn kept(s: &State, f: &Fixture, k: usize) -> usize {
    let m = f.two[k];
    reachable(s, m.start, m.budget).len()
}

/// Nanoseconds a call of `f`, alternating the two leaders: the least of five runs of `reps`.
fn time(s: &State, fx: &Fixture, reps: u32, f: fn(&State, &Fixture, usize) -> usize) -> f64 {
    least_ns_per_call(5, reps, |i| {
        black_box(f(black_box(s), fx, (i % 2) as usize));
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let setup = Setup::seeded("third-crusade", 1);
    let s = State::start(&setup, &the_crusades::builtin_data()).unwrap_or_else(|e| panic!("{e}"));
    let rain = s.turn_info().rain;
    let fx = Fixture {
        two: two_mobile(&s),
        rain,
        costs: step_costs(&s, rain),
    };
    match args.first().map(String::as_str) {
        Some(op @ ("first" | "kept" | "bare")) => {
            let n: u32 = args
                .get(1)
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("usage: leader_moves first|kept|bare N"));
            let f = match op {
                "first" => first,
                "kept" => kept,
                _ => bare,
            };
            for i in 0..n {
                black_box(f(black_box(&s), &fx, (i % 2) as usize));
            }
        }
        Some(other) => panic!("unknown operation `{other}`: first, kept, bare or nothing"),
        None => {
            let first_ns = time(&s, &fx, 2000, first);
            let kept_ns = time(&s, &fx, 2000, kept);
            let bare_ns = time(&s, &fx, 2000, bare);
            println!(
                "{{\"scenario\":\"the-crusades/third-crusade\",\"leaders\":[{},{}],\"destinations\":[{},{}],\"reached_bare\":[{},{}],\"unit_ns\":{first_ns:.0},\"kept_ns\":{kept_ns:.0},\"bare_ns\":{bare_ns:.0},\"ratio\":{:.2},\"kept_ratio\":{:.3}}}",
                fx.two[0].leader,
                fx.two[1].leader,
                first(&s, &fx, 0),
                first(&s, &fx, 1),
                bare(&s, &fx, 0),
                bare(&s, &fx, 1),
                first_ns / bare_ns,
                kept_ns / bare_ns
            );
        }
    }
}
