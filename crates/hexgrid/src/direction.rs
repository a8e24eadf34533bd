//! The six sides of a flat-topped hex, as compass directions, clockwise from north.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::ParseError;

/// One of the six sides of a flat-topped hex (and the direction to the neighbour across it).
///
/// Variants are in clockwise order starting at north; [`Direction::index`] gives 0..6 in
/// that order. Text form (Display, FromStr, serde) is the variant name: `"N"`, `"NE"`, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// North: the top flat side; neighbour is in the same column, one row up.
    N,
    /// North-east: upper right side.
    NE,
    /// South-east: lower right side.
    SE,
    /// South: the bottom flat side; neighbour is in the same column, one row down.
    S,
    /// South-west: lower left side.
    SW,
    /// North-west: upper left side.
    NW,
}

impl Direction {
    /// All six directions in clockwise order from north.
    pub const ALL: [Direction; 6] = [
        Direction::N,
        Direction::NE,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::NW,
    ];

    /// Position in clockwise order from north, 0..6.
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The direction with the given [`index`](Self::index), or `None` if `index >= 6`.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Direction> {
        if index < 6 {
            Some(Self::ALL[index as usize])
        } else {
            None
        }
    }

    /// The direction `steps` 60° turns away; positive is clockwise, any integer allowed.
    #[inline]
    pub const fn rotate(self, steps: i32) -> Direction {
        let i = (self.index() as i32 + steps.rem_euclid(6)) % 6;
        Self::ALL[i as usize]
    }

    /// The opposite side (three turns away).
    #[inline]
    pub const fn opposite(self) -> Direction {
        self.rotate(3)
    }

    /// Axial offset `(dq, dr)` to the neighbour across this side.
    #[inline]
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Direction::N => (0, -1),
            Direction::NE => (1, -1),
            Direction::SE => (1, 0),
            Direction::S => (0, 1),
            Direction::SW => (-1, 1),
            Direction::NW => (-1, 0),
        }
    }

    /// The text name, e.g. `"NE"`.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::N => "N",
            Direction::NE => "NE",
            Direction::SE => "SE",
            Direction::S => "S",
            Direction::SW => "SW",
            Direction::NW => "NW",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Direction {
    type Err = ParseError;

    /// Parses a side name (`"N"`, `"NE"`, ...); ASCII case is ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Direction::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseError::Direction(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip() {
        for (i, d) in Direction::ALL.into_iter().enumerate() {
            assert_eq!(d.index() as usize, i);
            assert_eq!(Direction::from_index(i as u8), Some(d));
        }
        assert_eq!(Direction::from_index(6), None);
    }

    #[test]
    fn rotation() {
        assert_eq!(Direction::N.rotate(1), Direction::NE);
        assert_eq!(Direction::N.rotate(-1), Direction::NW);
        assert_eq!(Direction::SW.rotate(3), Direction::NE);
        assert_eq!(Direction::SE.rotate(6), Direction::SE);
        assert_eq!(Direction::SE.rotate(-13), Direction::NE);
        assert_eq!(
            Direction::N.rotate(i32::MIN),
            Direction::N.rotate(i32::MIN % 6)
        );
        for d in Direction::ALL {
            assert_eq!(d.opposite().opposite(), d);
            let (dq, dr) = d.offset();
            assert_eq!(d.opposite().offset(), (-dq, -dr));
        }
        assert_eq!(Direction::N.opposite(), Direction::S);
        assert_eq!(Direction::NE.opposite(), Direction::SW);
        assert_eq!(Direction::SE.opposite(), Direction::NW);
    }

    #[test]
    fn text() {
        for d in Direction::ALL {
            assert_eq!(d.to_string().parse::<Direction>(), Ok(d));
        }
        assert_eq!("ne".parse::<Direction>(), Ok(Direction::NE));
        let err = "E".parse::<Direction>().unwrap_err();
        assert!(err.to_string().contains("\"E\""), "{err}");
        assert_eq!(serde_json::to_string(&Direction::SW).unwrap(), "\"SW\"");
        assert_eq!(
            serde_json::from_str::<Direction>("\"NW\"").unwrap(),
            Direction::NW
        );
    }
}
