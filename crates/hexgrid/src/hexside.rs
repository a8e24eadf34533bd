//! Canonical identifiers for the edge shared by two adjacent hexes.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Direction, Hex};

/// The edge (hexside) shared by two adjacent hexes, in a canonical form.
///
/// Internally stored as a hex plus one of its N, NE or SE sides, so every edge has exactly
/// one representation: constructing the same edge from either hex, in either order, gives
/// values that compare and hash equal. Serializes as a struct `{ "hex": .., "side": .. }`;
/// deserializing accepts any side name and canonicalises it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(from = "RawHexside")]
pub struct Hexside {
    hex: Hex,
    side: Direction,
}

#[derive(Deserialize)]
struct RawHexside {
    hex: Hex,
    side: Direction,
}

impl From<RawHexside> for Hexside {
    fn from(raw: RawHexside) -> Hexside {
        Hexside::of(raw.hex, raw.side)
    }
}

impl Hexside {
    /// The side `dir` of `hex`.
    #[inline]
    pub const fn of(hex: Hex, dir: Direction) -> Hexside {
        if dir.index() < 3 {
            Hexside { hex, side: dir }
        } else {
            Hexside {
                hex: hex.neighbour(dir),
                side: dir.opposite(),
            }
        }
    }

    /// The edge shared by `a` and `b`, or `None` unless they are adjacent.
    #[inline]
    pub const fn between(a: Hex, b: Hex) -> Option<Hexside> {
        match a.direction_to(b) {
            Some(d) => Some(Hexside::of(a, d)),
            None => None,
        }
    }

    /// The six sides of `hex`, in [`Direction::ALL`] order.
    pub const fn all_of(hex: Hex) -> [Hexside; 6] {
        [
            Hexside::of(hex, Direction::N),
            Hexside::of(hex, Direction::NE),
            Hexside::of(hex, Direction::SE),
            Hexside::of(hex, Direction::S),
            Hexside::of(hex, Direction::SW),
            Hexside::of(hex, Direction::NW),
        ]
    }

    /// The two hexes sharing this edge: the canonical hex first, then its neighbour across
    /// the canonical side (which is N, NE or SE of the first).
    #[inline]
    pub const fn hexes(self) -> (Hex, Hex) {
        (self.hex, self.hex.neighbour(self.side))
    }

    /// The canonical hex (first of [`hexes`](Self::hexes)).
    #[inline]
    pub const fn hex(self) -> Hex {
        self.hex
    }

    /// The canonical side of [`hex`](Self::hex): always N, NE or SE.
    #[inline]
    pub const fn side(self) -> Direction {
        self.side
    }

    /// True if `hex` is one of the two hexes sharing this edge.
    #[inline]
    pub fn touches(self, hex: Hex) -> bool {
        let (a, b) = self.hexes();
        hex == a || hex == b
    }

    /// The hex across this edge from `hex`, or `None` if `hex` is not on this edge.
    #[inline]
    pub fn other(self, hex: Hex) -> Option<Hex> {
        let (a, b) = self.hexes();
        if hex == a {
            Some(b)
        } else if hex == b {
            Some(a)
        } else {
            None
        }
    }

    /// Which side of `hex` this edge is, or `None` if `hex` is not on this edge.
    #[inline]
    pub fn side_of(self, hex: Hex) -> Option<Direction> {
        if hex == self.hex {
            Some(self.side)
        } else if hex == self.hex.neighbour(self.side) {
            Some(self.side.opposite())
        } else {
            None
        }
    }
}

impl fmt::Display for Hexside {
    /// Formats as `"(q, r) SIDE"`, e.g. `"(1, 2) NE"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.hex, self.side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn both_constructions_are_equal() {
        let a = Hex::new(2, -3);
        for d in Direction::ALL {
            let b = a.neighbour(d);
            let x = Hexside::of(a, d);
            let y = Hexside::of(b, d.opposite());
            assert_eq!(x, y);
            assert_eq!(Hexside::between(a, b), Some(x));
            assert_eq!(Hexside::between(b, a), Some(x));
            let mut set = HashSet::new();
            set.insert(x);
            assert!(set.contains(&y));
            let (h1, h2) = x.hexes();
            assert!((h1, h2) == (a, b) || (h1, h2) == (b, a));
            assert_eq!(x.other(a), Some(b));
            assert_eq!(x.other(b), Some(a));
            assert_eq!(x.side_of(a), Some(d));
            assert_eq!(x.side_of(b), Some(d.opposite()));
            assert!(x.touches(a) && x.touches(b));
            assert!(x.side().index() < 3);
        }
        assert_eq!(Hexside::between(a, a), None);
        assert_eq!(Hexside::between(a, Hex::new(4, -3)), None);
        assert_eq!(Hexside::of(a, Direction::N).other(Hex::ORIGIN), None);
    }

    #[test]
    fn a_hex_has_six_distinct_sides_shared_correctly() {
        let sides: HashSet<Hexside> = Hex::ORIGIN.within(3).flat_map(Hexside::all_of).collect();
        // 37 hexes: each contributes 6 sides, interior edges are shared by two.
        // Edges = (6 * 37 + boundary edges) / 2 where boundary edges = 6 * (2*3 + 1) = 42.
        assert_eq!(sides.len(), (6 * 37 + 42) / 2);
    }

    #[test]
    fn serde_struct_and_canonicalisation() {
        let x = Hexside::of(Hex::new(0, 0), Direction::S);
        let json = serde_json::to_string(&x).unwrap();
        assert_eq!(json, r#"{"hex":{"q":0,"r":1},"side":"N"}"#);
        let y: Hexside = serde_json::from_str(r#"{"hex":{"q":0,"r":0},"side":"S"}"#).unwrap();
        assert_eq!(x, y);
        assert_eq!(serde_json::from_str::<Hexside>(&json).unwrap(), x);
    }
}
