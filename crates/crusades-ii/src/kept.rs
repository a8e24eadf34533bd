//! Moves kept for a player's imagined worlds: the moves of a unit worked out lately on this
//! thread, kept by everything they depend on, and handed out again in the order found.
//!
//! A search re-plays its tree's path from the root in every iteration, in a world re-sampled
//! from what its seat can see ([`engine::Game::determinize`]): each `select` on that path
//! works the selected unit's moves out again (8.0), from a position the search has seen many
//! times, and the doctrine has worked out the same moves to weigh the `select` in the first
//! place. Kept here, each is searched once. Only a world a player imagines keeps moves
//! ([`State::imagined`]); a real game, and a random player's, works every one out, as it would
//! never come back to the position.
//!
//! Exact: the moves are kept with the whole position they can depend on (the unit, the
//! phase, turn and activation, the rules in force, every unit and leader as they stand, the
//! entries made this phase, the Holy Cross), found by a hash of part of it and compared
//! whole, and handed out as the search found them. Left out are the enemy leaders' command
//! chits, which a re-sampled world draws afresh (a unit's moves read only the chits of its
//! own side's leaders, 5.1, 5.33), and what each leader tried in the Order Phase (read only
//! there, 5.2): worlds differing only there share their moves. A position's moves are kept
//! as they are first searched, so a random playout pays for keeping moves it never asks for
//! again (a few per cent of its time, measured with callgrind); a search's tree pays that
//! once and searches no more. `tests/shortcuts.rs` checks kept moves against moves worked
//! out afresh.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use engine::Seat;
use hexgrid::{Hex, Vertex};
use rustc_hash::FxHasher;

use crate::movement::MoveSink;
use crate::options::Options;
use crate::scenario::UnitId;
use crate::state::{Activation, CrossState, Leader, Loc, Phase, State, Unit};

/// Everything a unit's moves depend on (see the module's documentation), as kept with them.
struct Position {
    battle: u64,
    unit: UnitId,
    phase: Phase,
    turn: usize,
    active: Seat,
    activation: Option<Activation>,
    options: Options,
    tasks: usize,
    entries: Vec<(Hex, u8)>,
    holy_cross: Option<UnitId>,
    holy_cross_state: CrossState,
    units: Vec<Unit>,
    /// The leaders as the unit sees them ([`seen`]).
    leaders: Vec<Leader>,
}

/// Leader `l` as a unit of `side` sees him for its moves: without what he tried in the Order
/// Phase (which chit changes he may still make, 5.2, read by the Order Phase alone), and
/// without his chit if he leads the other side's units.
fn seen(s: &State, l: usize, side: Seat) -> Leader {
    let mut leader = s.leaders[l].clone();
    leader.change_tried = false;
    leader.chits_held = 0;
    if s.battle.leaders[l].side != side {
        leader.chit = None;
    }
    leader
}

impl Position {
    fn of(s: &State, u: UnitId) -> Self {
        let side = s.side(u);
        Position {
            battle: s.battle.identity.get(),
            unit: u,
            phase: s.phase,
            turn: s.turn,
            active: s.active,
            activation: s.activation(),
            options: s.options,
            tasks: s.tasks.len(),
            entries: s.entries.clone(),
            holy_cross: s.holy_cross,
            holy_cross_state: s.holy_cross_state,
            units: s.units.clone(),
            leaders: (0..s.leaders.len()).map(|l| seen(s, l, side)).collect(),
        }
    }

    /// Whether this is the position of unit `u` in `s`: compared where it stands, nothing
    /// copied.
    fn is(&self, s: &State, u: UnitId) -> bool {
        let side = s.side(u);
        self.unit == u
            && self.battle == s.battle.identity.get()
            && self.phase == s.phase
            && self.turn == s.turn
            && self.active == s.active
            && self.activation == s.activation()
            && self.options == s.options
            && self.tasks == s.tasks.len()
            && self.entries == s.entries
            && self.holy_cross == s.holy_cross
            && self.holy_cross_state == s.holy_cross_state
            && self.units == s.units
            && self.leaders.len() == s.leaders.len()
            && (0..s.leaders.len()).all(|l| self.leaders[l] == seen(s, l, side))
    }
}

/// The table's key for unit `u` in `s`: a hash of where the units stand, which have moved,
/// the chits of the unit's side and the unit asked about, worked out where they stand. Two positions of one
/// key are told apart by [`Position::is`].
fn key(s: &State, u: UnitId) -> u64 {
    let mut h = FxHasher::default();
    h.write_u64(s.battle.identity.get());
    h.write_u32(u32::from(u));
    h.write_usize(s.turn);
    for unit in &s.units {
        let (place, q, r) = match unit.loc {
            Loc::Waiting => (0, 0, 0),
            Loc::Eliminated => (1, 0, 0),
            Loc::Map(hex) => (2, hex.q, hex.r),
        };
        h.write_u64(
            (q as u32 as u64) << 32
                | (r as u16 as u64) << 16
                | place << 8
                | u64::from(unit.facing.index()) << 4
                | u64::from(unit.routed) << 1
                | u64::from(unit.moved),
        );
    }
    // The chits of the unit's own side's leaders: re-sampled in a world the other seat
    // imagines, where they make the moves differ.
    let side = s.side(u);
    for (l, def) in s.leaders.iter().zip(&s.battle.leaders) {
        if def.side == side {
            h.write_u8(l.chit.map_or(0, |c| c as u8 + 1));
        }
    }
    h.finish()
}

/// One call a search made to its [`MoveSink`], recorded to be made again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Step {
    Room(usize),
    Take(bool, Hex, Vertex),
    Entered(Option<Hex>),
}

/// A sink that hands each move on to another and records it, to be kept.
pub(crate) struct Tee<'a, S> {
    sink: &'a mut S,
    tape: Vec<Step>,
}

impl<'a, S: MoveSink> Tee<'a, S> {
    /// Hands moves on to `sink`, recording them.
    pub(crate) fn new(sink: &'a mut S) -> Self {
        Tee {
            sink,
            tape: Vec::new(),
        }
    }
}

impl<S: MoveSink> MoveSink for Tee<'_, S> {
    fn room(&mut self, n: usize) {
        // A move may be followed by its entry hex: room for both.
        self.tape.reserve(2 * n + 1);
        self.tape.push(Step::Room(n));
        self.sink.room(n);
    }

    fn take(&mut self, alone: bool, to: Hex, facing: Vertex) {
        self.tape.push(Step::Take(alone, to, facing));
        self.sink.take(alone, to, facing);
    }

    fn entered(&mut self, entry: Option<Hex>) {
        self.tape.push(Step::Entered(entry));
        self.sink.entered(entry);
    }
}

/// How many positions' moves a thread keeps in each of its two generations.
const KEPT: usize = 256;

/// Kept moves by [`key`], each with its whole position. (One position of a key is kept: one
/// that shares the key of another replaces it.)
type Table = HashMap<u64, (Position, Rc<Vec<Step>>), BuildHasherDefault<FxHasher>>;

/// The moves kept on a thread, in two generations: when the newer is full it becomes the
/// older, and the older is dropped; a move found in the older is kept in the newer again.
#[derive(Default)]
struct Kept {
    newer: Table,
    older: Table,
}

thread_local! {
    static KEPT_MOVES: RefCell<Kept> = RefCell::new(Kept::default());
}

/// The moves of unit `u` in `s` if kept ([`replay`] hands them out), or else the key to
/// [`keep`] them under once searched.
pub(crate) fn kept(s: &State, u: UnitId) -> Result<Rc<Vec<Step>>, u64> {
    let key = key(s, u);
    KEPT_MOVES.with(|kept| kept.borrow_mut().find(key, s, u))
}

/// Keeps the moves of unit `u` in `s`, searched into `tee`, under the key [`kept`] gave.
pub(crate) fn keep<S>(s: &State, u: UnitId, key: u64, tee: Tee<'_, S>) {
    let position = Position::of(s, u);
    KEPT_MOVES.with(|kept| kept.borrow_mut().keep(key, position, Rc::new(tee.tape)));
}

/// Hands the moves of `tape` to `sink`, as the search handed them to the tape.
pub(crate) fn replay(tape: &[Step], sink: &mut impl MoveSink) {
    for step in tape {
        match *step {
            Step::Room(n) => sink.room(n),
            Step::Take(alone, to, facing) => sink.take(alone, to, facing),
            Step::Entered(entry) => sink.entered(entry),
        }
    }
}

impl Kept {
    /// The moves kept for unit `u` in `s`, of key `key`, or the key.
    fn find(&mut self, key: u64, s: &State, u: UnitId) -> Result<Rc<Vec<Step>>, u64> {
        if let Some((position, tape)) = self.newer.get(&key) {
            return if position.is(s, u) {
                Ok(Rc::clone(tape))
            } else {
                Err(key)
            };
        }
        let (position, tape) = self.older.remove(&key).ok_or(key)?;
        let found = position.is(s, u).then(|| Rc::clone(&tape));
        self.keep(key, position, tape);
        found.ok_or(key)
    }

    fn keep(&mut self, key: u64, position: Position, tape: Rc<Vec<Step>>) {
        if self.newer.len() >= KEPT {
            self.older = std::mem::take(&mut self.newer);
        }
        self.newer.insert(key, (position, tape));
    }
}
