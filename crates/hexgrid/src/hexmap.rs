//! [`HexMap`]: `Vec`-backed storage of one optional value per hex of a [`Grid`].

use std::ops::{Index, IndexMut};

use crate::{Grid, Hex};

/// A map from the hexes of a [`Grid`] to values, stored densely in a `Vec`.
///
/// Behaves like a `HashMap<Hex, T>` restricted to the grid's hexes: lookups of off-map hexes
/// return `None`. Iteration is in grid index order (deterministic).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HexMap<T> {
    grid: Grid,
    cells: Vec<Option<T>>,
    count: usize,
}

impl<T> HexMap<T> {
    /// An empty map over `grid`.
    pub fn new(grid: Grid) -> HexMap<T> {
        let mut cells = Vec::with_capacity(grid.len());
        cells.resize_with(grid.len(), || None);
        HexMap {
            grid,
            cells,
            count: 0,
        }
    }

    /// A map with `value` at every hex of `grid`.
    pub fn filled(grid: Grid, value: T) -> HexMap<T>
    where
        T: Clone,
    {
        HexMap {
            grid,
            cells: vec![Some(value); grid.len()],
            count: grid.len(),
        }
    }

    /// A map with `f(hex)` at every hex of `grid`, called in index order.
    pub fn from_fn(grid: Grid, mut f: impl FnMut(Hex) -> T) -> HexMap<T> {
        let cells: Vec<Option<T>> = grid.hexes().map(|h| Some(f(h))).collect();
        HexMap {
            grid,
            cells,
            count: grid.len(),
        }
    }

    /// The grid this map covers.
    #[inline]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Number of hexes holding a value.
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    /// True if no hex holds a value.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The value at `hex`, if any (`None` also for off-map hexes).
    #[inline]
    pub fn get(&self, hex: Hex) -> Option<&T> {
        self.grid.index(hex).and_then(|i| self.cells[i].as_ref())
    }

    /// The value at `hex`, mutably, if any.
    #[inline]
    pub fn get_mut(&mut self, hex: Hex) -> Option<&mut T> {
        self.grid.index(hex).and_then(|i| self.cells[i].as_mut())
    }

    /// True if `hex` holds a value.
    #[inline]
    pub fn contains_key(&self, hex: Hex) -> bool {
        self.get(hex).is_some()
    }

    /// Stores `value` at `hex`, returning the previous value.
    ///
    /// # Panics
    /// If `hex` is not on the grid (check with [`Grid::contains`] first, or use
    /// [`try_insert`](Self::try_insert)).
    #[inline]
    pub fn insert(&mut self, hex: Hex, value: T) -> Option<T> {
        match self.try_insert(hex, value) {
            Ok(old) => old,
            Err(_) => panic!("HexMap::insert: hex {hex} is not on the grid"),
        }
    }

    /// Stores `value` at `hex` and returns the previous value, or gives `value` back as
    /// `Err` if `hex` is not on the grid.
    #[inline]
    pub fn try_insert(&mut self, hex: Hex, value: T) -> Result<Option<T>, T> {
        let Some(i) = self.grid.index(hex) else {
            return Err(value);
        };
        let old = self.cells[i].replace(value);
        if old.is_none() {
            self.count += 1;
        }
        Ok(old)
    }

    /// Removes and returns the value at `hex`.
    #[inline]
    pub fn remove(&mut self, hex: Hex) -> Option<T> {
        let i = self.grid.index(hex)?;
        let old = self.cells[i].take();
        if old.is_some() {
            self.count -= 1;
        }
        old
    }

    /// The value at `hex`, inserting `f()` first if there is none.
    ///
    /// # Panics
    /// If `hex` is not on the grid.
    pub fn get_or_insert_with(&mut self, hex: Hex, f: impl FnOnce() -> T) -> &mut T {
        let Some(i) = self.grid.index(hex) else {
            panic!("HexMap::get_or_insert_with: hex {hex} is not on the grid");
        };
        let cell = &mut self.cells[i];
        if cell.is_none() {
            self.count += 1;
        }
        cell.get_or_insert_with(f)
    }

    /// Removes every value.
    pub fn clear(&mut self) {
        self.cells.iter_mut().for_each(|c| *c = None);
        self.count = 0;
    }

    /// `(hex, value)` pairs in grid index order.
    pub fn iter(&self) -> impl Iterator<Item = (Hex, &T)> + '_ {
        let grid = self.grid;
        self.cells.iter().enumerate().filter_map(move |(i, c)| {
            let v = c.as_ref()?;
            Some((grid.hex_at(i)?, v))
        })
    }

    /// `(hex, value)` pairs in grid index order, values mutable.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Hex, &mut T)> + '_ {
        let grid = self.grid;
        self.cells.iter_mut().enumerate().filter_map(move |(i, c)| {
            let v = c.as_mut()?;
            Some((grid.hex_at(i)?, v))
        })
    }

    /// Hexes holding a value, in grid index order.
    pub fn keys(&self) -> impl Iterator<Item = Hex> + '_ {
        self.iter().map(|(h, _)| h)
    }

    /// Values in grid index order.
    pub fn values(&self) -> impl Iterator<Item = &T> + '_ {
        self.cells.iter().filter_map(Option::as_ref)
    }
}

impl<T> Index<Hex> for HexMap<T> {
    type Output = T;

    /// # Panics
    /// If `hex` holds no value.
    fn index(&self, hex: Hex) -> &T {
        match self.get(hex) {
            Some(v) => v,
            None => panic!("HexMap: no value at hex {hex}"),
        }
    }
}

impl<T> IndexMut<Hex> for HexMap<T> {
    /// # Panics
    /// If `hex` holds no value.
    fn index_mut(&mut self, hex: Hex) -> &mut T {
        match self.get_mut(hex) {
            Some(v) => v,
            None => panic!("HexMap: no value at hex {hex}"),
        }
    }
}

impl<T> Extend<(Hex, T)> for HexMap<T> {
    /// Inserts every pair; panics on an off-map hex, like [`HexMap::insert`].
    fn extend<I: IntoIterator<Item = (Hex, T)>>(&mut self, iter: I) {
        for (h, v) in iter {
            self.insert(h, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ColumnShove, Layout};

    fn grid() -> Grid {
        Grid::new(
            Layout::new(ColumnShove::EvenColumnsDown),
            "0000".parse().unwrap(),
            "0904".parse().unwrap(),
        )
    }

    #[test]
    fn insert_get_remove() {
        let g = grid();
        let mut m: HexMap<&str> = HexMap::new(g);
        assert!(m.is_empty());
        let h = g.hex_at(7).unwrap();
        assert_eq!(m.insert(h, "a"), None);
        assert_eq!(m.insert(h, "b"), Some("a"));
        assert_eq!(m.len(), 1);
        assert_eq!(m.get(h), Some(&"b"));
        assert_eq!(m[h], "b");
        *m.get_mut(h).unwrap() = "c";
        assert_eq!(m.get(h), Some(&"c"));
        assert_eq!(m.get(Hex::new(-1, 0)), None);
        assert_eq!(m.try_insert(Hex::new(-1, 0), "x"), Err("x"));
        assert_eq!(m.remove(h), Some("c"));
        assert_eq!(m.remove(h), None);
        assert!(m.is_empty());
        assert_eq!(*m.get_or_insert_with(h, || "d"), "d");
        assert_eq!(*m.get_or_insert_with(h, || "e"), "d");
        assert_eq!(m.len(), 1);
        m.clear();
        assert!(m.is_empty() && m.get(h).is_none());
    }

    #[test]
    #[should_panic(expected = "not on the grid")]
    fn insert_off_grid_panics() {
        let mut m = HexMap::new(grid());
        m.insert(Hex::new(50, 50), 1);
    }

    #[test]
    fn iteration_in_index_order() {
        let g = grid();
        let m = HexMap::from_fn(g, |h| g.index(h).unwrap());
        assert_eq!(m.len(), g.len());
        let v: Vec<usize> = m.values().copied().collect();
        assert_eq!(v, (0..g.len()).collect::<Vec<_>>());
        for (h, &i) in m.iter() {
            assert_eq!(g.hex_at(i), Some(h));
        }
        let mut m2: HexMap<u32> = HexMap::filled(g, 1);
        m2.iter_mut().for_each(|(_, v)| *v += 1);
        assert!(m2.values().all(|&v| v == 2));
        let mut m3 = HexMap::new(g);
        m3.extend(g.hexes().rev().take(3).map(|h| (h, ())));
        let keys: Vec<Hex> = m3.keys().collect();
        let expected: Vec<Hex> = g.hexes().skip(g.len() - 3).collect();
        assert_eq!(keys, expected);
    }
}
