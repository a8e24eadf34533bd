//! The rectangular extent of a printed map ([`Grid`]) and dense indexing of its hexes.

use serde::{Deserialize, Serialize};

use crate::{Hex, HexId, Layout};

/// A rectangular printed map: every hex whose id has a column in `min_col..=max_col` and a
/// row in `min_row..=max_row`, under a [`Layout`].
///
/// Gives each hex a dense index `0..len()` for `Vec` storage (see [`HexMap`](crate::HexMap)).
/// Index order is the order of [`HexId`]s: column by column, north to south within a column.
/// Serializes as `{ "layout": .., "first": "0101", "last": "3422" }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "GridRepr", from = "GridRepr")]
pub struct Grid {
    layout: Layout,
    min_col: u8,
    max_col: u8,
    min_row: u8,
    max_row: u8,
}

#[derive(Serialize, Deserialize)]
struct GridRepr {
    layout: Layout,
    first: HexId,
    last: HexId,
}

impl From<Grid> for GridRepr {
    fn from(g: Grid) -> GridRepr {
        GridRepr {
            layout: g.layout,
            first: g.first(),
            last: g.last(),
        }
    }
}

impl From<GridRepr> for Grid {
    fn from(r: GridRepr) -> Grid {
        Grid::new(r.layout, r.first, r.last)
    }
}

impl Grid {
    /// The map spanning from id `first` to id `last` inclusive (opposite corners; they are
    /// put in order, so either corner may come first).
    pub const fn new(layout: Layout, first: HexId, last: HexId) -> Grid {
        let (min_col, max_col) = if first.col <= last.col {
            (first.col, last.col)
        } else {
            (last.col, first.col)
        };
        let (min_row, max_row) = if first.row <= last.row {
            (first.row, last.row)
        } else {
            (last.row, first.row)
        };
        Grid {
            layout,
            min_col,
            max_col,
            min_row,
            max_row,
        }
    }

    /// The layout used to map ids to hexes.
    #[inline]
    pub const fn layout(&self) -> Layout {
        self.layout
    }

    /// Westmost printed column.
    #[inline]
    pub const fn min_col(&self) -> u8 {
        self.min_col
    }

    /// Eastmost printed column.
    #[inline]
    pub const fn max_col(&self) -> u8 {
        self.max_col
    }

    /// Northmost printed row.
    #[inline]
    pub const fn min_row(&self) -> u8 {
        self.min_row
    }

    /// Southmost printed row.
    #[inline]
    pub const fn max_row(&self) -> u8 {
        self.max_row
    }

    /// The north-west corner id (smallest column and row).
    #[inline]
    pub const fn first(&self) -> HexId {
        HexId {
            col: self.min_col,
            row: self.min_row,
        }
    }

    /// The south-east corner id (largest column and row).
    #[inline]
    pub const fn last(&self) -> HexId {
        HexId {
            col: self.max_col,
            row: self.max_row,
        }
    }

    /// Number of columns.
    #[inline]
    pub const fn width(&self) -> usize {
        (self.max_col - self.min_col) as usize + 1
    }

    /// Number of rows.
    #[inline]
    pub const fn height(&self) -> usize {
        (self.max_row - self.min_row) as usize + 1
    }

    /// Number of hexes in the map.
    #[inline]
    pub const fn len(&self) -> usize {
        self.width() * self.height()
    }

    /// Always false: a grid has at least one hex.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// True if the id lies within the map.
    #[inline]
    pub const fn contains_id(&self, id: HexId) -> bool {
        id.col >= self.min_col
            && id.col <= self.max_col
            && id.row >= self.min_row
            && id.row <= self.max_row
    }

    /// True if the hex lies within the map.
    #[inline]
    pub const fn contains(&self, hex: Hex) -> bool {
        self.index(hex).is_some()
    }

    /// Dense index of an id, or `None` if it is off the map.
    #[inline]
    pub const fn index_of_id(&self, id: HexId) -> Option<usize> {
        if self.contains_id(id) {
            Some(
                (id.col - self.min_col) as usize * self.height() + (id.row - self.min_row) as usize,
            )
        } else {
            None
        }
    }

    /// Dense index `0..len()` of a hex, or `None` if it is off the map. Indices are in the
    /// order of the hexes (column by column, [`Hex`]'s own order), so that sorting indices
    /// sorts their hexes.
    #[inline]
    pub const fn index(&self, hex: Hex) -> Option<usize> {
        match self.layout.to_id(hex) {
            Some(id) => self.index_of_id(id),
            None => None,
        }
    }

    /// The id at a dense index, or `None` if `index >= len()`.
    #[inline]
    pub const fn id_at(&self, index: usize) -> Option<HexId> {
        if index >= self.len() {
            return None;
        }
        let h = self.height();
        Some(HexId {
            col: self.min_col + (index / h) as u8,
            row: self.min_row + (index % h) as u8,
        })
    }

    /// The hex at a dense index, or `None` if `index >= len()`.
    #[inline]
    pub const fn hex_at(&self, index: usize) -> Option<Hex> {
        match self.id_at(index) {
            Some(id) => Some(self.layout.to_hex(id)),
            None => None,
        }
    }

    /// The printed id of a hex on this map, or `None` if it is off the map.
    #[inline]
    pub const fn id_of(&self, hex: Hex) -> Option<HexId> {
        match self.layout.to_id(hex) {
            Some(id) if self.contains_id(id) => Some(id),
            _ => None,
        }
    }

    /// The hex printed with `id` if it is on this map.
    #[inline]
    pub const fn hex_of(&self, id: HexId) -> Option<Hex> {
        if self.contains_id(id) {
            Some(self.layout.to_hex(id))
        } else {
            None
        }
    }

    /// All hexes in index order.
    pub fn hexes(&self) -> impl ExactSizeIterator<Item = Hex> + DoubleEndedIterator + Clone {
        let g = *self;
        (0..self.len()).map(move |i| match g.hex_at(i) {
            Some(h) => h,
            None => unreachable!("index below len"),
        })
    }

    /// All ids in index order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = HexId> + DoubleEndedIterator + Clone {
        let g = *self;
        (0..self.len()).map(move |i| match g.id_at(i) {
            Some(id) => id,
            None => unreachable!("index below len"),
        })
    }

    /// The neighbours of `hex` that are on the map, in [`Direction::ALL`](crate::Direction::ALL) order.
    pub fn neighbours(&self, hex: Hex) -> impl Iterator<Item = Hex> {
        let g = *self;
        hex.neighbours().into_iter().filter(move |&n| g.contains(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ColumnShove;

    fn grid() -> Grid {
        Grid::new(
            Layout::new(ColumnShove::OddColumnsDown),
            "0101".parse().unwrap(),
            "3422".parse().unwrap(),
        )
    }

    #[test]
    fn size_and_bounds() {
        let g = grid();
        assert_eq!(g.width(), 34);
        assert_eq!(g.height(), 22);
        assert_eq!(g.len(), 34 * 22);
        assert!(g.contains_id("0101".parse().unwrap()));
        assert!(g.contains_id("3422".parse().unwrap()));
        assert!(!g.contains_id("0100".parse().unwrap()));
        assert!(!g.contains_id("3501".parse().unwrap()));
        assert!(!g.contains(Hex::ORIGIN));
        assert!(!g.contains(Hex::new(-5, 3)));
    }

    #[test]
    fn indices_in_hex_order() {
        for shove in [ColumnShove::OddColumnsDown, ColumnShove::EvenColumnsDown] {
            let g = Grid::new(
                Layout::new(shove),
                "0203".parse().unwrap(),
                "1109".parse().unwrap(),
            );
            let hexes: Vec<Hex> = (0..g.len()).filter_map(|i| g.hex_at(i)).collect();
            assert_eq!(hexes.len(), g.len());
            assert!(hexes.windows(2).all(|w| w[0] < w[1]), "{shove:?}");
        }
    }

    #[test]
    fn index_round_trip() {
        let g = grid();
        let hexes: Vec<Hex> = g.hexes().collect();
        assert_eq!(hexes.len(), g.len());
        for (i, h) in hexes.iter().enumerate() {
            assert_eq!(g.index(*h), Some(i));
            assert_eq!(g.hex_at(i), Some(*h));
            assert!(g.contains(*h));
        }
        assert_eq!(g.hex_at(g.len()), None);
        let ids: Vec<HexId> = g.ids().collect();
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted, "index order is id order");
        assert_eq!(ids[0], g.first());
        assert_eq!(*ids.last().unwrap(), g.last());
    }

    #[test]
    fn corners_in_any_order() {
        let a: HexId = "0522".parse().unwrap();
        let b: HexId = "3001".parse().unwrap();
        let l = Layout::new(ColumnShove::EvenColumnsDown);
        assert_eq!(Grid::new(l, a, b), Grid::new(l, b, a));
        assert_eq!(Grid::new(l, a, b).first().to_string(), "0501");
    }

    #[test]
    fn neighbours_on_map() {
        let g = grid();
        let corner = g.hex_of("0101".parse().unwrap()).unwrap();
        // Column 01 is shoved down: 0101 touches 0102 (S), 0201 (NE), 0202 (SE).
        let ids: Vec<String> = g
            .neighbours(corner)
            .map(|h| g.id_of(h).unwrap().to_string())
            .collect();
        assert_eq!(ids, ["0201", "0202", "0102"]);
    }

    #[test]
    fn serde_as_corners() {
        let g = grid();
        let json = serde_json::to_string(&g).unwrap();
        assert_eq!(
            json,
            r#"{"layout":{"shove":"odd_columns_down"},"first":"0101","last":"3422"}"#
        );
        assert_eq!(serde_json::from_str::<Grid>(&json).unwrap(), g);
    }
}
