//! Exact line of sight: the hexes (or hexsides) crossed by the segment between two hex
//! centres, computed with integer arithmetic only.
//!
//! In cube coordinates `(q, r, s)` the closed cell of the hex `H` is the set of points `P`
//! with `|d.q - d.r| <= 1`, `|d.r - d.s| <= 1` and `|d.s - d.q| <= 1` where `d = P - H`.
//! Along the segment `P(t) = A + t (B - A)` each bound is linear in `t`, so the part of the
//! segment inside a cell is an interval with rational ends, compared exactly by
//! cross-multiplication.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::Hex;

/// One step of a line of sight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LosCell {
    /// The segment passes through the interior of this hex.
    Hex(Hex),
    /// The segment runs along the hexside shared by these two adjacent hexes (smaller
    /// hex first, by `Ord`). Whether that blocks is for the caller to decide.
    Hexside(Hex, Hex),
}

/// A non-negative rational `num / den` with `den > 0`.
#[derive(Debug, Clone, Copy)]
struct Frac {
    num: i64,
    den: i64,
}

impl Frac {
    const ZERO: Frac = Frac { num: 0, den: 1 };
    const ONE: Frac = Frac { num: 1, den: 1 };

    fn cmp(self, other: Frac) -> Ordering {
        (i128::from(self.num) * i128::from(other.den))
            .cmp(&(i128::from(other.num) * i128::from(self.den)))
    }

    fn max(self, other: Frac) -> Frac {
        if self.cmp(other) == Ordering::Less {
            other
        } else {
            self
        }
    }

    fn min(self, other: Frac) -> Frac {
        if self.cmp(other) == Ordering::Greater {
            other
        } else {
            self
        }
    }
}

/// Cube coordinates widened to `i64`.
fn cube(h: Hex) -> [i64; 3] {
    let (q, r) = (i64::from(h.q), i64::from(h.r));
    [q, r, -q - r]
}

/// Axial offsets to the neighbour across the boundary of constraint `k` (0: q-r, 1: r-s,
/// 2: s-q) when the constraint value is `+1` (index 0) or `-1` (index 1).
const ACROSS: [[(i32, i32); 2]; 3] = [[(1, -1), (-1, 1)], [(0, 1), (0, -1)], [(-1, 0), (1, 0)]];

/// Where the segment `a`→`b` meets the closed cell of `h`: the parameter interval (clipped
/// to `[0, 1]`) if it has positive length, plus the neighbour across the boundary when the
/// segment runs along a side of `h` rather than through its interior.
fn crossing(a: [i64; 3], e: [i64; 3], h: Hex) -> Option<(Frac, Frac, Option<Hex>)> {
    let c = cube(h);
    let d = [a[0] - c[0], a[1] - c[1], a[2] - c[2]];
    let mut lo = Frac::ZERO;
    let mut hi = Frac::ONE;
    let mut along = None;
    for (i, across) in ACROSS.iter().enumerate() {
        let j = (i + 1) % 3;
        let u = d[i] - d[j];
        let v = e[i] - e[j];
        match v.cmp(&0) {
            Ordering::Equal => match u {
                -1 | 1 => {
                    let (dq, dr) = across[usize::from(u < 0)];
                    along = Some(Hex::new(h.q + dq, h.r + dr));
                }
                0 => {}
                _ => return None,
            },
            Ordering::Greater => {
                lo = lo.max(Frac {
                    num: -1 - u,
                    den: v,
                });
                hi = hi.min(Frac { num: 1 - u, den: v });
            }
            Ordering::Less => {
                lo = lo.max(Frac {
                    num: u - 1,
                    den: -v,
                });
                hi = hi.min(Frac {
                    num: u + 1,
                    den: -v,
                });
            }
        }
    }
    (lo.cmp(hi) == Ordering::Less).then_some((lo, hi, along))
}

/// Rounds the cube point `x / n` (components summing to zero) to the nearest hex.
fn round_cube(x: [i64; 3], n: i64) -> Hex {
    let mut rounded = [0i64; 3];
    let mut err = [0i64; 3];
    for k in 0..3 {
        rounded[k] = (2 * x[k] + n).div_euclid(2 * n);
        err[k] = (x[k] - rounded[k] * n).abs();
    }
    if err[0] > err[1] && err[0] > err[2] {
        rounded[0] = -rounded[1] - rounded[2];
    } else if err[1] > err[2] {
        rounded[1] = -rounded[0] - rounded[2];
    }
    Hex::new(rounded[0] as i32, rounded[1] as i32)
}

/// The cells crossed by the straight segment from the centre of `a` to the centre of `b`,
/// in order from `a` to `b`, excluding `a` and `b` themselves.
///
/// A hex whose interior the segment passes through is a [`LosCell::Hex`]; where the segment
/// runs exactly along the side shared by two hexes it is one [`LosCell::Hexside`] for the
/// pair. Merely touching a corner point is not a cell. The result for `b`→`a` is the exact
/// reverse of the result for `a`→`b`. Empty when `a == b` or they are adjacent.
pub fn line_between(a: Hex, b: Hex) -> Vec<LosCell> {
    let n = i64::from(a.distance(b));
    if n <= 1 {
        return Vec::new();
    }
    let ac = cube(a);
    let bc = cube(b);
    let e = [bc[0] - ac[0], bc[1] - ac[1], bc[2] - ac[2]];

    // Candidates: every hex within distance 1 of the hex nearest to each of the points at
    // t = i / n. Consecutive points are at most one hex apart, and two closed cells of hexes
    // two or more apart are further apart than half that, so this covers the segment.
    let mut candidates: Vec<Hex> = Vec::with_capacity(7 * (n as usize + 1));
    for i in 0..=n {
        let x = [
            ac[0] * n + e[0] * i,
            ac[1] * n + e[1] * i,
            ac[2] * n + e[2] * i,
        ];
        let h = round_cube(x, n);
        candidates.push(h);
        candidates.extend(h.neighbours());
    }
    candidates.sort_unstable();
    candidates.dedup();

    let mut cells: Vec<(Frac, LosCell)> = Vec::with_capacity(2 * n as usize);
    for h in candidates {
        if h == a || h == b {
            continue;
        }
        if let Some((lo, _hi, along)) = crossing(ac, e, h) {
            let cell = match along {
                None => LosCell::Hex(h),
                Some(o) => LosCell::Hexside(h.min(o), h.max(o)),
            };
            cells.push((lo, cell));
        }
    }
    cells.sort_by(|x, y| x.0.cmp(y.0));
    cells.dedup_by(|x, y| x.1 == y.1);
    cells.into_iter().map(|(_, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Direction;

    fn h(q: i32, r: i32) -> Hex {
        Hex::new(q, r)
    }

    #[test]
    fn trivial_lines_are_empty() {
        assert!(line_between(h(3, 3), h(3, 3)).is_empty());
        for n in h(3, 3).neighbours() {
            assert!(line_between(h(3, 3), n).is_empty());
        }
    }

    #[test]
    fn straight_lines_through_sides() {
        for d in Direction::ALL {
            let a = h(-2, 5);
            let b = a.step(d, 5);
            let expected: Vec<LosCell> = (1..5).map(|k| LosCell::Hex(a.step(d, k))).collect();
            assert_eq!(line_between(a, b), expected, "{d}");
        }
    }

    #[test]
    fn along_a_hexside() {
        // (0,0) -> (2,-1): the cube direction (2,-1,-1) points at the E vertex, and the
        // segment runs along the side between (1,-1) and (1,0).
        assert_eq!(
            line_between(h(0, 0), h(2, -1)),
            vec![LosCell::Hexside(h(1, -1), h(1, 0))]
        );
        // Twice as long: side, the hex (2,-1), side again.
        assert_eq!(
            line_between(h(0, 0), h(4, -2)),
            vec![
                LosCell::Hexside(h(1, -1), h(1, 0)),
                LosCell::Hex(h(2, -1)),
                LosCell::Hexside(h(3, -2), h(3, -1)),
            ]
        );
        // Straight north-south along a column never runs along sides.
        assert_eq!(
            line_between(h(0, 0), h(0, 3)),
            vec![LosCell::Hex(h(0, 1)), LosCell::Hex(h(0, 2))]
        );
        // Every "vertex direction" gives a single hexside between two neighbours of a.
        for d in Direction::ALL {
            let b = h(0, 0).neighbour(d).neighbour(d.rotate(1));
            let cells = line_between(h(0, 0), b);
            let (x, y) = {
                let (p, q) = (h(0, 0).neighbour(d), h(0, 0).neighbour(d.rotate(1)));
                (p.min(q), p.max(q))
            };
            assert_eq!(cells, vec![LosCell::Hexside(x, y)], "{d}");
        }
    }

    #[test]
    fn knight_move_line() {
        // (0,0) -> (3,-1), P(t) = t * (3,-1,-2): inside (1,0) for t in (1/5, 1/2), then
        // inside (2,-1) for t in (1/2, 4/5); (1,-1) is never entered.
        let cells = line_between(h(0, 0), h(3, -1));
        assert_eq!(
            cells,
            vec![LosCell::Hex(h(1, 0)), LosCell::Hex(h(2, -1))],
            "{cells:?}"
        );
    }

    #[test]
    fn big_coordinates_do_not_overflow() {
        let a = h(1_000_000_000, -1_000_000_000);
        let b = a.step(Direction::SE, 6).step(Direction::S, 2);
        let cells = line_between(a, b);
        assert!(!cells.is_empty());
        let rev: Vec<LosCell> = line_between(b, a).into_iter().rev().collect();
        assert_eq!(cells, rev);
    }
}
