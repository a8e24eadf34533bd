//! The six corners of a flat-topped hex, clockwise; a unit facing a corner uses these.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{Direction, ParseError};

/// One of the six corners of a flat-topped hex, in clockwise order.
///
/// Vertex `k` lies between side `k` and side `k + 1` (see [`Direction::index`]), so
/// [`Vertex::NNE`] is between the N and NE sides and [`Vertex::E`] is the pointed east
/// corner. Text form (Display, FromStr, serde) is the variant name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Vertex {
    /// Between the N and NE sides (upper right end of the top side).
    NNE,
    /// Between the NE and SE sides (the east point).
    E,
    /// Between the SE and S sides (right end of the bottom side).
    SSE,
    /// Between the S and SW sides (left end of the bottom side).
    SSW,
    /// Between the SW and NW sides (the west point).
    W,
    /// Between the NW and N sides (upper left end of the top side).
    NNW,
}

impl Vertex {
    /// All six vertices in clockwise order, starting at [`Vertex::NNE`].
    pub const ALL: [Vertex; 6] = [
        Vertex::NNE,
        Vertex::E,
        Vertex::SSE,
        Vertex::SSW,
        Vertex::W,
        Vertex::NNW,
    ];

    /// Position in clockwise order, 0..6 (`NNE` is 0).
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The vertex with the given [`index`](Self::index), or `None` if `index >= 6`.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Vertex> {
        if index < 6 {
            Some(Self::ALL[index as usize])
        } else {
            None
        }
    }

    /// The vertex `steps` 60° turns away; positive is clockwise, any integer allowed.
    #[inline]
    pub const fn rotate(self, steps: i32) -> Vertex {
        let i = (self.index() as i32 + steps.rem_euclid(6)) % 6;
        Self::ALL[i as usize]
    }

    /// The opposite vertex (three turns away).
    #[inline]
    pub const fn opposite(self) -> Vertex {
        self.rotate(3)
    }

    /// The two sides meeting at this vertex, in clockwise order: `[side k, side k+1]`.
    #[inline]
    pub const fn sides(self) -> [Direction; 2] {
        let d = Direction::ALL[self.index() as usize];
        [d, d.rotate(1)]
    }

    /// The vertex where two adjacent sides meet, or `None` if the sides are not adjacent.
    pub const fn between(a: Direction, b: Direction) -> Option<Vertex> {
        let (a, b) = (a.index(), b.index());
        if (a + 1) % 6 == b {
            Vertex::from_index(a)
        } else if (b + 1) % 6 == a {
            Vertex::from_index(b)
        } else {
            None
        }
    }

    /// The minimum number of 60° turns (either way) to go from `self` to `other`, 0..=3.
    #[inline]
    pub const fn turns_to(self, other: Vertex) -> u8 {
        let d = (other.index() + 6 - self.index()) % 6;
        if d > 3 {
            6 - d
        } else {
            d
        }
    }

    /// The text name, e.g. `"SSE"`.
    pub const fn name(self) -> &'static str {
        match self {
            Vertex::NNE => "NNE",
            Vertex::E => "E",
            Vertex::SSE => "SSE",
            Vertex::SSW => "SSW",
            Vertex::W => "W",
            Vertex::NNW => "NNW",
        }
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Vertex {
    type Err = ParseError;

    /// Parses a vertex name (`"NNE"`, `"E"`, ...); ASCII case is ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Vertex::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseError::Vertex(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_are_clockwise_pairs() {
        assert_eq!(Vertex::NNE.sides(), [Direction::N, Direction::NE]);
        assert_eq!(Vertex::E.sides(), [Direction::NE, Direction::SE]);
        assert_eq!(Vertex::SSE.sides(), [Direction::SE, Direction::S]);
        assert_eq!(Vertex::SSW.sides(), [Direction::S, Direction::SW]);
        assert_eq!(Vertex::W.sides(), [Direction::SW, Direction::NW]);
        assert_eq!(Vertex::NNW.sides(), [Direction::NW, Direction::N]);
        for v in Vertex::ALL {
            let [a, b] = v.sides();
            assert_eq!(Vertex::between(a, b), Some(v));
            assert_eq!(Vertex::between(b, a), Some(v));
        }
        assert_eq!(Vertex::between(Direction::N, Direction::S), None);
        assert_eq!(Vertex::between(Direction::N, Direction::N), None);
    }

    #[test]
    fn turns() {
        assert_eq!(Vertex::NNE.turns_to(Vertex::NNE), 0);
        assert_eq!(Vertex::NNE.turns_to(Vertex::E), 1);
        assert_eq!(Vertex::NNE.turns_to(Vertex::NNW), 1);
        assert_eq!(Vertex::NNE.turns_to(Vertex::SSW), 3);
        assert_eq!(Vertex::W.turns_to(Vertex::E), 3);
        assert_eq!(Vertex::W.turns_to(Vertex::NNE), 2);
        for a in Vertex::ALL {
            for b in Vertex::ALL {
                assert_eq!(a.turns_to(b), b.turns_to(a));
                let t = a.turns_to(b) as i32;
                assert!(a.rotate(t) == b || a.rotate(-t) == b);
            }
            assert_eq!(a.opposite().opposite(), a);
            assert_eq!(a.rotate(-7), a.rotate(5));
        }
    }

    #[test]
    fn text() {
        for v in Vertex::ALL {
            assert_eq!(v.to_string().parse::<Vertex>(), Ok(v));
        }
        assert_eq!("ssw".parse::<Vertex>(), Ok(Vertex::SSW));
        let err = "NE".parse::<Vertex>().unwrap_err();
        assert!(err.to_string().contains("\"NE\""), "{err}");
        assert_eq!(serde_json::to_string(&Vertex::SSE).unwrap(), "\"SSE\"");
    }
}
