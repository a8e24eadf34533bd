//! Axial hex coordinates ([`Hex`]) and the arithmetic on them: distance, neighbours, rings.

use std::fmt;
use std::ops::{Add, Neg, Sub};

use serde::{Deserialize, Serialize};

use crate::Direction;

/// A hex in axial coordinates for a flat-topped grid.
///
/// `q` is the column and increases to the east; `r` increases to the south within a
/// column. So the neighbour to the south is `(q, r + 1)` and to the south-east `(q + 1, r)`.
/// The implied cube coordinate is `s = -q - r`. Also usable as a vector (difference of two
/// hexes) via `+` and `-`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub struct Hex {
    /// Axial column coordinate (east is positive).
    pub q: i32,
    /// Axial row coordinate (south is positive within a column).
    pub r: i32,
}

impl Hex {
    /// The hex at axial `(0, 0)`.
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    /// Builds a hex from axial coordinates.
    #[inline]
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate, `s = -q - r`.
    #[inline]
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// Number of steps between two hexes.
    #[inline]
    pub const fn distance(self, other: Hex) -> u32 {
        let dq = (self.q as i64 - other.q as i64).unsigned_abs();
        let dr = (self.r as i64 - other.r as i64).unsigned_abs();
        let ds = (self.s() as i64 - other.s() as i64).unsigned_abs();
        let m = if dq > dr { dq } else { dr };
        (if m > ds { m } else { ds }) as u32
    }

    /// The adjacent hex across side `dir`.
    #[inline]
    pub const fn neighbour(self, dir: Direction) -> Hex {
        let (dq, dr) = dir.offset();
        Hex::new(self.q + dq, self.r + dr)
    }

    /// The hex `n` steps away in a straight line through side `dir`.
    #[inline]
    pub const fn step(self, dir: Direction, n: i32) -> Hex {
        let (dq, dr) = dir.offset();
        Hex::new(self.q + dq * n, self.r + dr * n)
    }

    /// All six neighbours, in [`Direction::ALL`] order.
    #[inline]
    pub const fn neighbours(self) -> [Hex; 6] {
        [
            self.neighbour(Direction::N),
            self.neighbour(Direction::NE),
            self.neighbour(Direction::SE),
            self.neighbour(Direction::S),
            self.neighbour(Direction::SW),
            self.neighbour(Direction::NW),
        ]
    }

    /// The side of `self` that `other` lies across, or `None` unless they are adjacent.
    #[inline]
    pub const fn direction_to(self, other: Hex) -> Option<Direction> {
        let dq = other.q as i64 - self.q as i64;
        let dr = other.r as i64 - self.r as i64;
        match (dq, dr) {
            (0, -1) => Some(Direction::N),
            (1, -1) => Some(Direction::NE),
            (1, 0) => Some(Direction::SE),
            (0, 1) => Some(Direction::S),
            (-1, 1) => Some(Direction::SW),
            (-1, 0) => Some(Direction::NW),
            _ => None,
        }
    }

    /// True if `other` is one of the six neighbours.
    #[inline]
    pub const fn is_adjacent(self, other: Hex) -> bool {
        self.direction_to(other).is_some()
    }

    /// The hexes exactly `radius` steps away, clockwise starting with the one due north
    /// (a ring of radius 0 is just `self`).
    pub fn ring(self, radius: u32) -> impl Iterator<Item = Hex> {
        let n = radius as i32;
        let start = self.step(Direction::N, n);
        let count = if radius == 0 { 1 } else { 6 * radius as usize };
        (0..count).map(move |i| {
            if n == 0 {
                return start;
            }
            let side = i as i32 / n;
            let along = i as i32 % n;
            // Walk each of the six edges of the ring: from the corner reached by going
            // `n` steps in direction `side`, move along direction `side + 2`.
            let d = Direction::ALL[side as usize];
            self.step(d, n).step(d.rotate(2), along)
        })
    }

    /// All hexes within `radius` steps (including `self`), ring by ring outward.
    pub fn within(self, radius: u32) -> impl Iterator<Item = Hex> {
        (0..=radius).flat_map(move |k| self.ring(k))
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.q, self.r)
    }
}

impl Add for Hex {
    type Output = Hex;
    #[inline]
    fn add(self, rhs: Hex) -> Hex {
        Hex::new(self.q + rhs.q, self.r + rhs.r)
    }
}

impl Sub for Hex {
    type Output = Hex;
    #[inline]
    fn sub(self, rhs: Hex) -> Hex {
        Hex::new(self.q - rhs.q, self.r - rhs.r)
    }
}

impl Neg for Hex {
    type Output = Hex;
    #[inline]
    fn neg(self) -> Hex {
        Hex::new(-self.q, -self.r)
    }
}

impl Add<Direction> for Hex {
    type Output = Hex;
    #[inline]
    fn add(self, rhs: Direction) -> Hex {
        self.neighbour(rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_at_distance_one() {
        let h = Hex::new(3, -7);
        for (i, n) in h.neighbours().into_iter().enumerate() {
            assert_eq!(h.distance(n), 1);
            assert_eq!(h.direction_to(n), Direction::from_index(i as u8));
            assert_eq!(n.direction_to(h), Some(Direction::ALL[i].opposite()));
            assert_eq!(h + Direction::ALL[i], n);
        }
        assert_eq!(h.direction_to(h), None);
        assert_eq!(h.direction_to(Hex::new(5, -7)), None);
    }

    #[test]
    fn distance_examples() {
        let o = Hex::ORIGIN;
        assert_eq!(o.distance(o), 0);
        assert_eq!(o.distance(Hex::new(2, -1)), 2);
        assert_eq!(o.distance(Hex::new(3, 0)), 3);
        assert_eq!(o.distance(Hex::new(-2, 5)), 5);
        assert_eq!(
            Hex::new(i32::MAX, 0).distance(Hex::new(i32::MIN + 1, 0)),
            u32::MAX - 1
        );
    }

    #[test]
    fn rings_and_ranges() {
        let c = Hex::new(-2, 4);
        assert_eq!(c.ring(0).collect::<Vec<_>>(), vec![c]);
        for radius in 1..5u32 {
            let ring: Vec<Hex> = c.ring(radius).collect();
            assert_eq!(ring.len(), 6 * radius as usize);
            assert_eq!(ring[0], c.step(Direction::N, radius as i32));
            let mut sorted = ring.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), ring.len());
            for (i, h) in ring.iter().enumerate() {
                assert_eq!(c.distance(*h), radius);
                // consecutive ring hexes are adjacent, and the ring closes
                assert!(h.is_adjacent(ring[(i + 1) % ring.len()]));
            }
        }
        let area: Vec<Hex> = c.within(3).collect();
        assert_eq!(area.len(), 1 + 6 + 12 + 18);
    }

    #[test]
    fn serde_is_a_struct() {
        let json = serde_json::to_string(&Hex::new(1, -2)).unwrap();
        assert_eq!(json, r#"{"q":1,"r":-2}"#);
        assert_eq!(serde_json::from_str::<Hex>(&json).unwrap(), Hex::new(1, -2));
    }
}
