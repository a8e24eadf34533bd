//! Where everything stands: units, leaders and siege units with their state, wall damage,
//! filled foss hexes and the armies' morale levels. A plain, serialisable value the rules of
//! each chapter read and change.

use std::collections::{BTreeMap, BTreeSet};

use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::map::{Class, Map, Nationality};
use crate::rules::{Rules, Side, SiegeKind};

/// Where a counter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// On the map.
    Map(Hex),
    /// Off the map: Moslem army units waiting to intervene (7.2), damaged engines (12.17,
    /// 12.24), wounded leaders (14.41).
    OffMap,
    /// In the Regrouping Box (9.27, 11.0).
    Regrouping,
    /// Permanently out of the game.
    Destroyed,
}

impl Location {
    /// The hex, if on the map.
    pub fn hex(self) -> Option<Hex> {
        match self {
            Location::Map(h) => Some(h),
            _ => None,
        }
    }
}

/// A combat unit's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    /// Where it is.
    pub at: Location,
    /// Disrupted (9.23).
    pub disrupted: bool,
    /// A garrison unit that has lost its first step (9.27).
    pub reduced: bool,
}

/// A leader's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderState {
    /// Where he is.
    pub at: Location,
    /// Wounded and out of play until the end of this Game-Turn (14.41).
    pub wounded_until: Option<u8>,
    /// Killed (14.41).
    pub dead: bool,
}

/// A siege unit's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiegeState {
    /// Where it is.
    pub at: Location,
    /// Damaged and back in play from the Allocation Segment of this Game-Turn (12.17, 12.24).
    pub returns_on: Option<u8>,
}

/// Army Morale Levels (10.5).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyMorale {
    /// The Moslem army and garrison (10.51, 10.52, 10.56).
    pub moslem: i32,
    /// Each Crusader nationality (10.53-10.56).
    pub crusader: BTreeMap<Nationality, i32>,
    /// An off-map Moslem army unit has entered Acre (10.51 counts only the first time).
    pub army_entered_acre: bool,
    /// Moslem army units placed in the Regrouping Box since the start (10.52).
    pub army_losses: u32,
}

/// Where everything stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// Combat units, indexed as [`Rules::units`].
    pub units: Vec<UnitState>,
    /// Leaders, indexed as [`Rules::leaders`].
    pub leaders: Vec<LeaderState>,
    /// Siege units, indexed as [`Rules::siege`].
    pub siege: Vec<SiegeState>,
    /// Breach Damage Levels of Wall and Tower hexes (8.14).
    pub damage: BTreeMap<Hex, u8>,
    /// Walls caved in by a tunnel: breached for the rest of the game (13.28).
    pub caved_in: BTreeSet<Hex>,
    /// Filled foss hexes (13.1).
    pub filled: BTreeSet<Hex>,
    /// Army Morale Levels.
    pub morale: ArmyMorale,
}

impl Position {
    /// Every counter off the map, nothing damaged.
    pub fn empty(rules: &Rules) -> Position {
        Position {
            units: vec![
                UnitState {
                    at: Location::OffMap,
                    disrupted: false,
                    reduced: false,
                };
                rules.units.len()
            ],
            leaders: vec![
                LeaderState {
                    at: Location::OffMap,
                    wounded_until: None,
                    dead: false,
                };
                rules.leaders.len()
            ],
            siege: vec![
                SiegeState {
                    at: Location::OffMap,
                    returns_on: None,
                };
                rules.siege.len()
            ],
            damage: BTreeMap::new(),
            caved_in: BTreeSet::new(),
            filled: BTreeSet::new(),
            morale: ArmyMorale::default(),
        }
    }

    /// The combat unit in a hex (5.51: at most one).
    pub fn unit_at(&self, hex: Hex) -> Option<usize> {
        self.units.iter().position(|u| u.at == Location::Map(hex))
    }

    /// The leader in a hex (5.52: at most one).
    pub fn leader_at(&self, hex: Hex) -> Option<usize> {
        self.leaders.iter().position(|l| l.at == Location::Map(hex))
    }

    /// The siege unit in a hex (5.53: at most one).
    pub fn siege_at(&self, hex: Hex) -> Option<usize> {
        self.siege.iter().position(|s| s.at == Location::Map(hex))
    }

    /// Whether a friendly siege tower of `side` stands in the hex (6.11, 10.3, 12.1).
    pub fn siege_tower_at(&self, rules: &Rules, hex: Hex, side: Side) -> bool {
        <Self as Pieces>::siege_tower_at(self, rules, hex, side)
    }

    /// A unit's hex.
    pub fn hex_of(&self, unit: usize) -> Option<Hex> {
        self.units[unit].at.hex()
    }

    /// Whether a Wall or Tower hex is breached (8.14, 13.28).
    pub fn breached(&self, rules: &Rules, hex: Hex) -> bool {
        self.caved_in.contains(&hex)
            || self.damage.get(&hex).copied().unwrap_or(0) >= rules.tables.breach_level
    }

    /// An unbreached Wall or Tower hex.
    pub fn unbreached_wall(&self, rules: &Rules, hex: Hex) -> bool {
        rules.map.is_wall_or_tower(hex) && !self.breached(rules, hex)
    }

    /// An unfilled foss hex.
    pub fn unfilled_foss(&self, rules: &Rules, hex: Hex) -> bool {
        rules.map.class(hex) == Class::Foss && !self.filled.contains(&hex)
    }

    /// The terrain effects of a hex now (a filled foss has its filled effects, 13.1).
    pub fn effects(&self, rules: &Rules, hex: Hex) -> crate::map::Effects {
        let t = rules.map.terrain(hex);
        match t.filled {
            Some(f) if self.filled.contains(&hex) => f,
            _ => t.effects,
        }
    }

    /// The side of the combat unit in a hex.
    pub fn side_at(&self, rules: &Rules, hex: Hex) -> Option<Side> {
        <Self as Pieces>::side_at(self, rules, hex)
    }

    /// The Melee Strength of a unit now (9.27: a reduced garrison unit uses its back).
    pub fn melee_strength(&self, rules: &Rules, unit: usize) -> u32 {
        let u = &rules.units[unit];
        match (self.units[unit].reduced, u.reduced) {
            (true, Some(r)) => r as u32,
            _ => u.melee as u32,
        }
    }
}

/// The pieces in a hex, as the rules ask it (5.5: at most one combat unit, one leader and one
/// siege unit a hex). A [`Position`] answers by looking through its counters; a [`Board`]
/// from a table of the hexes made once, for the searches that ask it thousands of times.
/// Either gives the same answers for the same position.
pub trait Pieces {
    /// Where everything stands.
    fn position(&self) -> &Position;

    /// The combat unit in a hex (the first by index, were there ever two).
    fn unit_at(&self, hex: Hex) -> Option<usize>;

    /// The leader in a hex (the first by index).
    fn leader_at(&self, hex: Hex) -> Option<usize>;

    /// The siege unit in a hex (the first by index).
    fn siege_at(&self, hex: Hex) -> Option<usize>;

    /// The side of the combat unit in a hex.
    fn side_at(&self, rules: &Rules, hex: Hex) -> Option<Side> {
        self.unit_at(hex).map(|u| rules.side_of(u))
    }

    /// Whether a friendly siege tower of `side` stands in the hex (6.11, 10.3, 12.1).
    fn siege_tower_at(&self, rules: &Rules, hex: Hex, side: Side) -> bool {
        self.siege_at(hex).is_some_and(|s| {
            rules.siege[s].kind == SiegeKind::SiegeTower && rules.siege[s].side == side
        })
    }
}

impl Pieces for Position {
    fn position(&self) -> &Position {
        self
    }

    fn unit_at(&self, hex: Hex) -> Option<usize> {
        Position::unit_at(self, hex)
    }

    fn leader_at(&self, hex: Hex) -> Option<usize> {
        Position::leader_at(self, hex)
    }

    fn siege_at(&self, hex: Hex) -> Option<usize> {
        Position::siege_at(self, hex)
    }
}

/// No piece of a kind in a hex of a [`Board`].
const NONE: u16 = u16::MAX;

/// A position with a table of the pieces in each hex of the map, for the searches that ask
/// what stands in a hex thousands of times (movement, zones of control, command radius):
/// made once for a position that does not change while it is asked.
#[derive(Clone, Debug)]
pub struct Board<'a> {
    pos: &'a Position,
    /// The map, whose grid indices the table is by.
    map: &'a Map,
    /// By the hex's dense index: the combat unit, leader and siege unit there (`NONE`: none).
    cells: Vec<[u16; 3]>,
    /// The dense indices of the hexes written in `cells` (the others are empty).
    marked: Vec<u16>,
    /// The piece of each kind taken off the board ([`Board::take_off`]), if any.
    taken: [Option<usize>; 3],
}

/// How many emptied tables [`SPARE`] keeps.
const SPARE_KEPT: usize = 4;

/// A board's table of cells and its list of marked hexes ([`Board`]), kept empty.
type Table = (Vec<[u16; 3]>, Vec<u16>);

thread_local! {
    /// Tables of boards dropped, emptied (every cell `NONE`), with their lists of marked
    /// hexes: a new board takes one rather than allocating and filling a table.
    static SPARE: std::cell::RefCell<Vec<Table>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for Board<'_> {
    fn drop(&mut self) {
        for &k in &self.marked {
            self.cells[usize::from(k)] = [NONE; 3];
        }
        self.marked.clear();
        let cells = std::mem::take(&mut self.cells);
        let marked = std::mem::take(&mut self.marked);
        // On a thread being torn down the table is simply freed.
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < SPARE_KEPT {
                spare.push((cells, marked));
            }
        });
    }
}

impl<'a> Board<'a> {
    /// The table of `pos` on the rules' map.
    pub fn new(rules: &'a Rules, pos: &'a Position) -> Board<'a> {
        let grid = rules.map.grid;
        let spare = SPARE
            .try_with(|spare| {
                let mut spare = spare.borrow_mut();
                let i = spare.iter().position(|(c, _)| c.len() == grid.len())?;
                Some(spare.swap_remove(i))
            })
            .ok()
            .flatten();
        let (mut cells, mut marked) =
            spare.unwrap_or_else(|| (vec![[NONE; 3]; grid.len()], Vec::new()));
        mark(
            &mut cells,
            &mut marked,
            &rules.map,
            0,
            pos.units.iter().map(|u| u.at),
        );
        mark(
            &mut cells,
            &mut marked,
            &rules.map,
            1,
            pos.leaders.iter().map(|l| l.at),
        );
        mark(
            &mut cells,
            &mut marked,
            &rules.map,
            2,
            pos.siege.iter().map(|s| s.at),
        );
        Board {
            pos,
            map: &rules.map,
            cells,
            marked,
            taken: [None; 3],
        }
    }

    /// Takes a piece off the board (the position keeps it): from now on the board answers
    /// where pieces stand as a board of the position without it would, while
    /// [`Pieces::position`] is still the whole position (whose terrain, damage and filled
    /// foss are the same). For the searches of the piece's own move.
    pub fn take_off(&mut self, piece: crate::setup::Piece) {
        use crate::setup::Piece;
        let (kind, i) = match piece {
            Piece::Unit(u) => (0, u),
            Piece::Leader(l) => (1, l),
            Piece::Siege(e) => (2, e),
        };
        self.taken[kind] = Some(i);
        let Some(k) = self.location(kind, i).hex().and_then(|h| self.map.index(h)) else {
            return;
        };
        if self.cells[k][kind] as usize == i {
            // The piece was the first of its kind there: the next one there by index, if
            // any, is first now.
            let hex = self.map.grid.hex_at(k);
            self.cells[k][kind] = hex
                .and_then(|h| self.off_table(h, kind, i + 1))
                .map_or(NONE, |j| j as u16);
        }
    }

    /// The combat unit, leader and siege unit in the hex of grid index `k` (the first of
    /// each by index), as [`Pieces::unit_at`], [`Pieces::leader_at`] and
    /// [`Pieces::siege_at`] answer for that hex.
    #[inline]
    pub fn cell(&self, k: usize) -> [Option<usize>; 3] {
        self.cells[k].map(|i| (i != NONE).then_some(i as usize))
    }

    /// Where the piece of a kind with index `i` stands in the position.
    fn location(&self, kind: usize, i: usize) -> Location {
        match kind {
            0 => self.pos.units[i].at,
            1 => self.pos.leaders[i].at,
            _ => self.pos.siege[i].at,
        }
    }

    /// The first piece of a kind in a hex by looking through the position from index
    /// `from` on, leaving out the one taken off.
    fn off_table(&self, hex: Hex, kind: usize, from: usize) -> Option<usize> {
        let count = match kind {
            0 => self.pos.units.len(),
            1 => self.pos.leaders.len(),
            _ => self.pos.siege.len(),
        };
        (from..count)
            .find(|&i| Some(i) != self.taken[kind] && self.location(kind, i) == Location::Map(hex))
    }

    /// The piece of a kind in a hex: from the table on the map, by looking off it.
    #[inline]
    fn at(&self, hex: Hex, kind: usize) -> Option<usize> {
        match self.map.index(hex) {
            Some(k) => {
                let i = self.cells[k][kind];
                (i != NONE).then_some(i as usize)
            }
            None => self.off_table(hex, kind, 0),
        }
    }
}

/// Writes the pieces of a kind into the table, in reverse so that the first by index is the
/// one kept, and the hexes written into `marked`.
fn mark(
    cells: &mut [[u16; 3]],
    marked: &mut Vec<u16>,
    map: &Map,
    kind: usize,
    at: impl DoubleEndedIterator<Item = Location> + ExactSizeIterator,
) {
    for (i, at) in at.enumerate().rev() {
        if let Some(k) = at.hex().and_then(|h| map.index(h)) {
            cells[k][kind] = i as u16;
            marked.push(k as u16);
        }
    }
}

impl Pieces for Board<'_> {
    #[inline]
    fn position(&self) -> &Position {
        self.pos
    }

    #[inline]
    fn unit_at(&self, hex: Hex) -> Option<usize> {
        self.at(hex, 0)
    }

    #[inline]
    fn leader_at(&self, hex: Hex) -> Option<usize> {
        self.at(hex, 1)
    }

    #[inline]
    fn siege_at(&self, hex: Hex) -> Option<usize> {
        self.at(hex, 2)
    }
}
