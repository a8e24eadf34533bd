//! Property tests: line of sight against an independent floating-point sampler, and the
//! movement search against a textbook Dijkstra.

use std::collections::{BinaryHeap, HashMap};

use hexgrid::{
    field_of_movement, line_between, search, ColumnShove, Direction, Hex, HexId, Hexside, Layout,
    LosCell,
};
use proptest::prelude::*;

fn hex_strategy() -> impl Strategy<Value = Hex> {
    (-20i32..20, -20i32..20).prop_map(|(q, r)| Hex::new(q, r))
}

/// Two hexes at most 12 apart.
fn pair_strategy() -> impl Strategy<Value = (Hex, Hex)> {
    (hex_strategy(), -12i32..=12, -12i32..=12).prop_filter_map("too far", |(a, dq, dr)| {
        let b = Hex::new(a.q + dq, a.r + dr);
        (a.distance(b) <= 12).then_some((a, b))
    })
}

/// Squared Euclidean distance (up to a constant factor) between axial points.
fn dist2(q: f64, r: f64, h: Hex) -> f64 {
    let dq = q - f64::from(h.q);
    let dr = r - f64::from(h.r);
    dq * dq + dq * dr + dr * dr
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Token {
    Hex(Hex),
    Pair(Hex, Hex),
    Other,
}

/// Independent reference: sample the segment densely in floating point and classify each
/// sample by its nearest hex centres.
fn sampled_line(a: Hex, b: Hex) -> Vec<LosCell> {
    const M: usize = 4096;
    const EPS: f64 = 1e-7;
    let mut runs: Vec<(Token, usize)> = Vec::new();
    for k in 0..M {
        let t = (k as f64 + 0.5) / M as f64;
        let q = f64::from(a.q) + t * f64::from(b.q - a.q);
        let r = f64::from(a.r) + t * f64::from(b.r - a.r);
        let centre = Hex::new(q.round() as i32, r.round() as i32);
        let mut near: Vec<(f64, Hex)> = centre.within(2).map(|h| (dist2(q, r, h), h)).collect();
        near.sort_by(|x, y| x.0.partial_cmp(&y.0).unwrap());
        let tok = if near[1].0 - near[0].0 > EPS {
            Token::Hex(near[0].1)
        } else if near[2].0 - near[1].0 > EPS {
            let (x, y) = (near[0].1, near[1].1);
            Token::Pair(x.min(y), x.max(y))
        } else {
            Token::Other
        };
        match runs.last_mut() {
            Some((last, n)) if *last == tok => *n += 1,
            _ => runs.push((tok, 1)),
        }
    }
    let mut out: Vec<LosCell> = Vec::new();
    for (tok, n) in runs {
        let cell = match tok {
            Token::Hex(h) if h != a && h != b => LosCell::Hex(h),
            Token::Pair(x, y) if n >= 2 => LosCell::Hexside(x, y),
            _ => continue,
        };
        if out.last() != Some(&cell) {
            out.push(cell);
        }
    }
    out
}

fn cell_hexes(c: LosCell) -> Vec<Hex> {
    match c {
        LosCell::Hex(h) => vec![h],
        LosCell::Hexside(x, y) => vec![x, y],
    }
}

/// 60° clockwise rotation about the origin: cube (q, r, s) -> (-r, -s, -q).
fn rot(h: Hex) -> Hex {
    Hex::new(-h.r, -h.s())
}

fn rot_cell(c: LosCell) -> LosCell {
    match c {
        LosCell::Hex(h) => LosCell::Hex(rot(h)),
        LosCell::Hexside(x, y) => {
            let (x, y) = (rot(x), rot(y));
            LosCell::Hexside(x.min(y), x.max(y))
        }
    }
}

/// Every line from one hex to all hexes within 9 steps, against the sampler. Intervals
/// have rational ends with denominators at most 2 * 9, so each cell spans far more than
/// one sample.
#[test]
fn los_matches_dense_sampling_exhaustively() {
    let a = Hex::new(4, -7);
    let mut hexside_lines = 0;
    for b in a.within(9) {
        let exact = line_between(a, b);
        assert_eq!(exact, sampled_line(a, b), "{a} -> {b}");
        if exact.iter().any(|c| matches!(c, LosCell::Hexside(..))) {
            hexside_lines += 1;
        }
    }
    // Lines in the six vertex directions at distances 2, 4, 6, 8 run along hexsides.
    assert_eq!(hexside_lines, 6 * 4);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn los_matches_dense_sampling((a, b) in pair_strategy()) {
        prop_assert_eq!(line_between(a, b), sampled_line(a, b));
    }

    #[test]
    fn los_is_symmetric((a, b) in pair_strategy()) {
        let mut back = line_between(b, a);
        back.reverse();
        prop_assert_eq!(line_between(a, b), back);
    }

    #[test]
    fn los_is_translation_and_rotation_invariant((a, b) in pair_strategy(), d in hex_strategy()) {
        let base = line_between(a, b);
        let shifted: Vec<LosCell> = base
            .iter()
            .map(|c| match *c {
                LosCell::Hex(h) => LosCell::Hex(h + d),
                LosCell::Hexside(x, y) => LosCell::Hexside(x + d, y + d),
            })
            .collect();
        prop_assert_eq!(line_between(a + d, b + d), shifted);
        let rotated: Vec<LosCell> = base.iter().map(|&c| rot_cell(c)).collect();
        prop_assert_eq!(line_between(rot(a), rot(b)), rotated);
    }

    #[test]
    fn los_forms_an_adjacent_chain((a, b) in pair_strategy()) {
        prop_assume!(a != b);
        let cells = line_between(a, b);
        let mut seen = std::collections::HashSet::new();
        let mut chain: Vec<Vec<Hex>> = vec![vec![a]];
        for c in &cells {
            if let LosCell::Hexside(x, y) = *c {
                prop_assert!(x < y);
                prop_assert!(x.is_adjacent(y));
            }
            for h in cell_hexes(*c) {
                prop_assert!(h != a && h != b);
                prop_assert!(seen.insert(h), "hex {} listed twice", h);
            }
            chain.push(cell_hexes(*c));
        }
        chain.push(vec![b]);
        for w in chain.windows(2) {
            // Two hexside cells never follow each other (sides meet at 120 degrees).
            prop_assert!(w[0].len() == 1 || w[1].len() == 1);
            for x in &w[0] {
                for y in &w[1] {
                    prop_assert!(x.is_adjacent(*y), "{} and {} not adjacent in {:?}", x, y, cells);
                }
            }
        }
        // Every cell is no further from the line's ends than the ends are from each other.
        let n = a.distance(b);
        for c in &cells {
            for h in cell_hexes(*c) {
                prop_assert!(a.distance(h) < n && b.distance(h) < n);
            }
        }
    }

    #[test]
    fn hexside_constructions_agree(a in hex_strategy(), i in 0u8..6) {
        let d = Direction::from_index(i).unwrap();
        let b = a.neighbour(d);
        let s = Hexside::of(a, d);
        prop_assert_eq!(Some(s), Hexside::between(b, a));
        prop_assert_eq!(s, Hexside::of(b, d.opposite()));
        let (x, y) = s.hexes();
        prop_assert_eq!(Hexside::between(x, y), Some(s));
    }

    #[test]
    fn layout_round_trips(col in 0u8..=99, row in 0u8..=99, odd in any::<bool>()) {
        let shove = if odd { ColumnShove::OddColumnsDown } else { ColumnShove::EvenColumnsDown };
        let l = Layout::new(shove);
        let id = HexId::new(col, row);
        let h = l.to_hex(id);
        prop_assert_eq!(l.to_id(h), Some(id));
        // Same column, next row is always the south neighbour.
        if row < 99 {
            prop_assert_eq!(l.to_hex(HexId::new(col, row + 1)), h.neighbour(Direction::S));
        }
        // A shoved-down column's same-row neighbours are to the north-east/north-west.
        if col > 0 && col < 99 {
            let down = (col % 2 == 1) == odd;
            let east = l.to_hex(HexId::new(col + 1, row));
            let expected = if down { Direction::NE } else { Direction::SE };
            prop_assert_eq!(h.direction_to(east), Some(expected));
        }
    }
}

/// Deterministic pseudo-terrain from a seed: `None` is impassable.
fn terrain(seed: u64, h: Hex) -> Option<u32> {
    let mut x = seed
        ^ (h.q as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (h.r as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 29;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 32;
    if x % 7 == 0 {
        None
    } else {
        Some((1 + x % 5) as u32)
    }
}

fn reference_dijkstra(start: Hex, budget: u32, seed: u64) -> HashMap<Hex, u32> {
    let mut best = HashMap::new();
    let mut heap = BinaryHeap::new();
    best.insert(start, 0u32);
    heap.push(std::cmp::Reverse((0u32, start)));
    while let Some(std::cmp::Reverse((c, h))) = heap.pop() {
        if best[&h] < c {
            continue;
        }
        for n in h.neighbours() {
            if let Some(step) = terrain(seed, n) {
                let nc = c + step;
                if nc <= budget && best.get(&n).is_none_or(|&b| nc < b) {
                    best.insert(n, nc);
                    heap.push(std::cmp::Reverse((nc, n)));
                }
            }
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn field_matches_reference(seed in any::<u64>(), budget in 0u32..25) {
        let start = Hex::new(3, -2);
        let field = field_of_movement(start, budget, |_, to| terrain(seed, to));
        let reference = reference_dijkstra(start, budget, seed);
        prop_assert_eq!(field.len(), reference.len());
        let mut last = 0;
        for (h, c) in field.iter() {
            prop_assert_eq!(reference.get(&h), Some(&c));
            prop_assert!(c >= last, "iteration is in non-decreasing cost order");
            last = c;
            // The canonical path is adjacent steps whose costs add up.
            let path = field.path_to(&h);
            prop_assert_eq!(path[0], start);
            prop_assert_eq!(*path.last().unwrap(), h);
            let total: u32 = path.windows(2).map(|w| {
                assert!(w[0].is_adjacent(w[1]));
                terrain(seed, w[1]).unwrap()
            }).sum();
            prop_assert_eq!(total, c);
        }
        // Deterministic: a second run gives the same sequence and the same paths.
        let again = field_of_movement(start, budget, |_, to| terrain(seed, to));
        prop_assert!(field.iter().eq(again.iter()));
        for (h, _) in field.iter() {
            prop_assert_eq!(field.path_to(&h), again.path_to(&h));
        }
    }

    #[test]
    fn stop_rule_cuts_expansion(seed in any::<u64>(), budget in 0u32..20) {
        // Hexes with odd q are "zones of control": enterable, never left.
        let start = Hex::new(0, 0);
        let r = search(
            start,
            budget,
            |&h, out| {
                for n in h.neighbours() {
                    if let Some(c) = terrain(seed, n) {
                        out.push((n, c));
                    }
                }
            },
            |h| h.q % 2 == 0,
        );
        for (h, _) in r.iter() {
            let path = r.path_to(&h);
            // Only the last hex of a path (or the start) may be a zone of control.
            for p in path.iter().skip(1).take(path.len().saturating_sub(2)) {
                prop_assert!(p.q % 2 == 0);
            }
        }
    }
}
