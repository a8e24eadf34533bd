//! Printed four-digit hex ids ("1110" = column 11, row 10) and their text/serde forms.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::ParseError;

/// The id printed in a hex of a map: two digits of column, then two digits of row.
///
/// `col` and `row` are each in `0..=99` (construct through [`HexId::new`] or
/// [`HexId::try_new`] to keep that invariant). Ordering is column first, then row.
/// Display, FromStr and serde all use the four-digit string, e.g. `"0907"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexId {
    /// Printed column number, 0..=99, increasing to the east.
    pub col: u8,
    /// Printed row number, 0..=99, increasing to the south.
    pub row: u8,
}

impl HexId {
    /// The largest column or row number a four-digit id can hold.
    pub const MAX: u8 = 99;

    /// Builds an id; panics if `col` or `row` is above 99.
    #[inline]
    pub const fn new(col: u8, row: u8) -> HexId {
        match HexId::try_new(col, row) {
            Some(id) => id,
            None => panic!("hex id column and row must be at most 99"),
        }
    }

    /// Builds an id, or `None` if `col` or `row` is above 99.
    #[inline]
    pub const fn try_new(col: u8, row: u8) -> Option<HexId> {
        if col <= Self::MAX && row <= Self::MAX {
            Some(HexId { col, row })
        } else {
            None
        }
    }
}

impl fmt::Display for HexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.col, self.row)
    }
}

impl FromStr for HexId {
    type Err = ParseError;

    /// Parses exactly four ASCII digits, column then row (e.g. `"1400"`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let b = s.as_bytes();
        if b.len() != 4 || !b.iter().all(u8::is_ascii_digit) {
            return Err(ParseError::HexId(s.to_owned()));
        }
        let d = |i: usize| b[i] - b'0';
        Ok(HexId {
            col: d(0) * 10 + d(1),
            row: d(2) * 10 + d(3),
        })
    }
}

impl Serialize for HexId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for HexId {
    /// Accepts the four-digit string; in human-readable formats (JSON, TOML) also an
    /// integer 0..=9999, read as if zero-padded to four digits (so `110` is `"0110"`).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;

        impl Visitor<'_> for IdVisitor {
            type Value = HexId;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a four-digit hex id string such as \"1110\"")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<HexId, E> {
                v.parse().map_err(E::custom)
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<HexId, E> {
                if v > 9999 {
                    return Err(E::custom(ParseError::HexId(v.to_string())));
                }
                Ok(HexId {
                    col: (v / 100) as u8,
                    row: (v % 100) as u8,
                })
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<HexId, E> {
                match u64::try_from(v) {
                    Ok(v) => self.visit_u64(v),
                    Err(_) => Err(E::custom(ParseError::HexId(v.to_string()))),
                }
            }
        }

        if deserializer.is_human_readable() {
            deserializer.deserialize_any(IdVisitor)
        } else {
            deserializer.deserialize_str(IdVisitor)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_zero_padded() {
        assert_eq!(HexId::new(11, 10).to_string(), "1110");
        assert_eq!(HexId::new(14, 0).to_string(), "1400");
        assert_eq!(HexId::new(0, 7).to_string(), "0007");
        assert_eq!(HexId::new(99, 99).to_string(), "9999");
    }

    #[test]
    fn parse() {
        assert_eq!("2228".parse(), Ok(HexId::new(22, 28)));
        assert_eq!("0000".parse(), Ok(HexId::new(0, 0)));
        for bad in ["", "111", "11100", "11a0", " 111", "+111", "١١١٠", "-110"] {
            let err = bad.parse::<HexId>().unwrap_err();
            assert_eq!(err, ParseError::HexId(bad.to_owned()));
            assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
        }
    }

    #[test]
    fn try_new_bounds() {
        assert_eq!(HexId::try_new(99, 0), Some(HexId { col: 99, row: 0 }));
        assert_eq!(HexId::try_new(100, 0), None);
        assert_eq!(HexId::try_new(0, 100), None);
    }

    #[test]
    #[should_panic]
    fn new_panics_out_of_range() {
        let _ = HexId::new(100, 1);
    }

    #[test]
    fn serde_string() {
        let id = HexId::new(9, 7);
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"0907\"");
        assert_eq!(serde_json::from_str::<HexId>("\"0907\"").unwrap(), id);
        assert_eq!(serde_json::from_str::<HexId>("907").unwrap(), id);
        assert!(serde_json::from_str::<HexId>("\"907\"").is_err());
        assert!(serde_json::from_str::<HexId>("10000").is_err());
        assert!(serde_json::from_str::<HexId>("-1").is_err());
    }

    #[test]
    fn ordering_is_column_then_row() {
        assert!(HexId::new(1, 50) < HexId::new(2, 0));
        assert!(HexId::new(2, 0) < HexId::new(2, 1));
    }

    #[test]
    fn round_trip_all() {
        for col in 0..=99 {
            for row in 0..=99 {
                let id = HexId::new(col, row);
                assert_eq!(id.to_string().parse::<HexId>(), Ok(id));
            }
        }
    }
}
