//! Conversion between printed hex ids ([`HexId`]) and axial coordinates ([`Hex`]).

use serde::{Deserialize, Serialize};

use crate::{Hex, HexId};

/// Which printed columns sit half a hex lower (further south) than their neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColumnShove {
    /// Odd-numbered columns (01, 03, ...) are shifted half a hex down. Serde: `"odd_columns_down"`.
    OddColumnsDown,
    /// Even-numbered columns (00, 02, ...) are shifted half a hex down. Serde: `"even_columns_down"`.
    EvenColumnsDown,
}

/// How a printed map's four-digit ids map onto axial coordinates.
///
/// Column `c` is axial `q = c`; row numbers increase to the south within a column, and
/// [`HexId`] `(col 0, row 0)` is always [`Hex::ORIGIN`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Layout {
    /// Which columns are shifted half a hex down.
    pub shove: ColumnShove,
}

impl Layout {
    /// A layout with the given column shove.
    #[inline]
    pub const fn new(shove: ColumnShove) -> Layout {
        Layout { shove }
    }

    /// Amount subtracted from the row to get `r` in column `q`: `floor(q/2)` when odd
    /// columns are down, `ceil(q/2)` when even columns are down.
    #[inline]
    const fn row_shift(self, q: i64) -> i64 {
        match self.shove {
            ColumnShove::OddColumnsDown => q.div_euclid(2),
            ColumnShove::EvenColumnsDown => (q + 1).div_euclid(2),
        }
    }

    /// The axial hex printed with `id`.
    #[inline]
    pub const fn to_hex(self, id: HexId) -> Hex {
        let q = id.col as i64;
        let r = id.row as i64 - self.row_shift(q);
        Hex::new(q as i32, r as i32)
    }

    /// The printed id of `hex`, or `None` if its column or row would fall outside 0..=99.
    #[inline]
    pub const fn to_id(self, hex: Hex) -> Option<HexId> {
        let q = hex.q as i64;
        let row = hex.r as i64 + self.row_shift(q);
        if q < 0 || q > HexId::MAX as i64 || row < 0 || row > HexId::MAX as i64 {
            None
        } else {
            Some(HexId {
                col: q as u8,
                row: row as u8,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Direction;

    const ODD: Layout = Layout::new(ColumnShove::OddColumnsDown);
    const EVEN: Layout = Layout::new(ColumnShove::EvenColumnsDown);

    fn id(s: &str) -> HexId {
        s.parse().unwrap()
    }

    #[test]
    fn same_column_is_north_south() {
        for l in [ODD, EVEN] {
            let a = l.to_hex(id("1110"));
            assert_eq!(a.neighbour(Direction::S), l.to_hex(id("1111")));
            assert_eq!(a.neighbour(Direction::N), l.to_hex(id("1109")));
        }
    }

    #[test]
    fn odd_columns_down_neighbours() {
        // Column 11 is odd, so it is lower: 1110's NE neighbour is 1210, its SE 1211.
        let a = ODD.to_hex(id("1110"));
        let n = |d| ODD.to_id(a.neighbour(d)).unwrap().to_string();
        assert_eq!(n(Direction::NE), "1210");
        assert_eq!(n(Direction::SE), "1211");
        assert_eq!(n(Direction::SW), "1011");
        assert_eq!(n(Direction::NW), "1010");
        // Column 12 is even, so it is higher: 1210's NE is 1309, SE is 1310.
        let b = ODD.to_hex(id("1210"));
        let n = |d| ODD.to_id(b.neighbour(d)).unwrap().to_string();
        assert_eq!(n(Direction::NE), "1309");
        assert_eq!(n(Direction::SE), "1310");
        assert_eq!(n(Direction::SW), "1110");
        assert_eq!(n(Direction::NW), "1109");
    }

    #[test]
    fn even_columns_down_neighbours() {
        // Column 12 is even, so it is lower: 1210's NE neighbour is 1310, its SE 1311.
        let a = EVEN.to_hex(id("1210"));
        let n = |d| EVEN.to_id(a.neighbour(d)).unwrap().to_string();
        assert_eq!(n(Direction::NE), "1310");
        assert_eq!(n(Direction::SE), "1311");
        assert_eq!(n(Direction::SW), "1111");
        assert_eq!(n(Direction::NW), "1110");
        let b = EVEN.to_hex(id("1110"));
        let n = |d| EVEN.to_id(b.neighbour(d)).unwrap().to_string();
        assert_eq!(n(Direction::NE), "1209");
        assert_eq!(n(Direction::SE), "1210");
    }

    #[test]
    fn round_trip_every_id() {
        for l in [ODD, EVEN] {
            for col in 0..=99 {
                for row in 0..=99 {
                    let i = HexId::new(col, row);
                    assert_eq!(l.to_id(l.to_hex(i)), Some(i));
                }
            }
            assert_eq!(l.to_hex(HexId::new(0, 0)), Hex::ORIGIN);
        }
    }

    #[test]
    fn out_of_range() {
        for l in [ODD, EVEN] {
            assert_eq!(l.to_id(Hex::new(-1, 0)), None);
            assert_eq!(l.to_id(Hex::new(100, -50)), None);
            assert_eq!(l.to_id(Hex::new(0, -1)), None);
            assert_eq!(l.to_id(Hex::new(0, 100)), None);
            assert_eq!(l.to_id(Hex::new(i32::MIN, i32::MIN)), None);
            assert_eq!(l.to_id(Hex::new(i32::MAX, i32::MAX)), None);
        }
        assert_eq!(
            ODD.to_id(ODD.to_hex(id("9999")).neighbour(Direction::SE)),
            None
        );
    }

    #[test]
    fn distances_between_printed_ids() {
        let d = |l: Layout, a: &str, b: &str| l.to_hex(id(a)).distance(l.to_hex(id(b)));
        assert_eq!(d(ODD, "1110", "1110"), 0);
        assert_eq!(d(ODD, "1110", "1310"), 2);
        assert_eq!(d(ODD, "1110", "1410"), 3);
        assert_eq!(d(ODD, "0101", "0105"), 4);
        assert_eq!(d(EVEN, "0000", "0400"), 4);
    }

    #[test]
    fn serde_names() {
        assert_eq!(
            serde_json::to_string(&ODD).unwrap(),
            r#"{"shove":"odd_columns_down"}"#
        );
        assert_eq!(
            serde_json::from_str::<Layout>(r#"{"shove":"even_columns_down"}"#).unwrap(),
            EVEN
        );
    }
}
