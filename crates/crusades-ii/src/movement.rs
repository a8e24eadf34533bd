//! 8.0 Movement, with the limits that command chits (5.1), command (5.33), routs (5.5),
//! skirmishers (5.4), facing (6.15), zones of control (6.24, 6.25), stacking (7.0), night
//! (12.21) and exhaustion (16.42) put on it. A unit's legal moves are its destinations with
//! their facings; the engine moves it along the cheapest path.

use engine::Seat;
use hexgrid::{Direction, Hex, Vertex};

use crate::scenario::{Chit, HalfPoints, MoveClass, UnitId, OFF_GRID};
use crate::state::{Fury, Loc, State};
use crate::zoc::Situation;

/// Off the map: the start of a reinforcement's entry.
const OFF_MAP: Hex = Hex {
    q: i32::MIN / 2,
    r: 0,
};

/// A legal destination of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Destination {
    /// The hex.
    pub hex: Hex,
    /// The facing at the end.
    pub facing: Vertex,
    /// Half movement points spent.
    pub cost: HalfPoints,
    /// For a reinforcement, the entry hex of its path (12.1).
    pub entry: Option<Hex>,
}

/// What limits a move, worked out once per unit.
#[derive(Clone)]
struct Limits {
    side: Seat,
    class: MoveClass,
    budget: u32,
    start: Hex,
    start_facing: Vertex,
    /// Turning is allowed (not skirmishers or leaders: they have no facing; not charging
    /// heavy cavalry, 6.12).
    has_facing: bool,
    can_turn: bool,
    /// May pass through friendly combat units (7.0: skirmishers).
    pass_friends: bool,
    /// May not enter an enemy ZOC at all (5.4, 10.1, 12.21, 16.42).
    avoid_zoc: bool,
    /// May not move adjacent to an enemy combat unit (5.33).
    avoid_adjacent: bool,
    /// May not enter a hex within 4 hexes of an enemy (5.15, 5.16).
    keep_five: bool,
    /// May leave the enemy ZOC it starts in (6.25).
    may_leave_zoc: bool,
    /// Only one hex (5.13, 16.42).
    one_hex: bool,
    /// Units moving together (ignored as obstacles).
    moving: Group,
    /// Extra cost of each entry hex (12.1).
    entry: Vec<(Hex, HalfPoints)>,
    /// An explicit path to follow (every hex entered, the destination last), or empty.
    route: Vec<Hex>,
}

/// The units that move together (7.1): one, or a stack of two.
#[derive(Clone, Copy, Debug)]
struct Group {
    /// The units, the first `len` of them.
    units: [UnitId; 2],
    len: u8,
}

impl std::ops::Deref for Group {
    type Target = [UnitId];

    fn deref(&self) -> &[UnitId] {
        &self.units[..usize::from(self.len)]
    }
}

/// Search states per hex: six facings, each with the free turn (6.15) unused or used.
const STATES_PER_HEX: usize = 12;
/// The cost of a state not reached.
const UNREACHED: u16 = u16::MAX;
/// The entry hex of a state reached from the map, not from a reinforcement's entry.
const NO_ENTRY: u16 = u16::MAX;

/// The search state of a hex (dense grid index), facing and whether the free turn is used.
fn state(hex: usize, facing: Vertex, turned: bool) -> usize {
    hex * STATES_PER_HEX + facing.index() as usize * 2 + usize::from(turned)
}

/// The hex, facing and free turn of a search state.
fn unpack(s: usize) -> (usize, Vertex, bool) {
    let f = Vertex::ALL[(s % STATES_PER_HEX) / 2];
    (s / STATES_PER_HEX, f, s % 2 == 1)
}

/// The buffers of the movement search, kept between searches (one set per thread) so that a
/// search touches only the states it reaches: nothing is allocated or cleared map-wide.
#[derive(Default)]
struct Search {
    /// Cheapest cost of each state so far, or [`UNREACHED`].
    cost: Vec<u16>,
    /// The reinforcement entry (index into the limits' entries) of each state's path.
    entry_of: Vec<u16>,
    /// States by cost: Dial's buckets.
    buckets: Vec<Vec<u32>>,
    /// One bit per hex: some state of the hex was reached (to report and reset it).
    reached: Vec<u64>,
    /// One bit per hex: a turned state of the hex has had its paid turns (6.15) relaxed.
    turns_done: Vec<u64>,
    /// Per hex: the facing ([`Vertex::index`]) of the first unturned state of the hex whose
    /// free turns (6.15) were relaxed, or [`NO_FREE_TURN`].
    free_turn: Vec<u8>,
    /// The largest cost searched.
    budget: u32,
}

/// No unturned state of the hex has had its free turns relaxed ([`Search::free_turn`]).
const NO_FREE_TURN: u8 = u8::MAX;

impl Search {
    /// Prepares for a search of `hexes` hexes up to `budget` (clean even if an earlier
    /// search was cut short).
    fn begin(&mut self, hexes: usize, budget: u32) {
        self.finish();
        self.buckets.iter_mut().for_each(Vec::clear);
        let states = hexes * STATES_PER_HEX;
        if self.cost.len() < states {
            self.cost.resize(states, UNREACHED);
            self.entry_of.resize(states, NO_ENTRY);
            self.reached.resize(hexes.div_ceil(64), 0);
            self.turns_done.resize(hexes.div_ceil(64), 0);
            self.free_turn.resize(hexes, NO_FREE_TURN);
        }
        if self.buckets.len() < budget as usize + 1 {
            self.buckets.resize_with(budget as usize + 1, Vec::new);
        }
        self.budget = budget;
    }

    /// Records a way into state `s` at cost `c` from entry `e`, if within the budget and
    /// cheaper than any found before (ties keep the first found).
    #[inline(always)]
    fn relax(&mut self, s: usize, c: u32, e: u16) {
        if c <= self.budget && c < u32::from(self.cost[s]) {
            let hex = s / STATES_PER_HEX;
            self.reached[hex / 64] |= 1 << (hex % 64);
            self.cost[s] = c as u16;
            self.entry_of[s] = e;
            self.buckets[c as usize].push(s as u32);
        }
    }

    /// The hexes with a reached state, in grid index order.
    fn reached_hexes(&self) -> impl Iterator<Item = usize> + '_ {
        bits(&self.reached)
    }

    /// Resets the states this search reached.
    fn finish(&mut self) {
        for w in 0..self.reached.len() {
            let mut bits = self.reached[w];
            while bits != 0 {
                let hex = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let states = hex * STATES_PER_HEX..(hex + 1) * STATES_PER_HEX;
                self.cost[states.clone()].fill(UNREACHED);
                self.entry_of[states].fill(NO_ENTRY);
                self.free_turn[hex] = NO_FREE_TURN;
            }
            self.reached[w] = 0;
            self.turns_done[w] = 0;
        }
    }
}

/// The buffers of a [`Search`] under way, borrowed as slices so that the search's inner loop
/// keeps them at hand (no reloading through the buffers' owner at each step).
struct Frontier<'s> {
    cost: &'s mut [u16],
    entry_of: &'s mut [u16],
    reached: &'s mut [u64],
    turns_done: &'s mut [u64],
    free_turn: &'s mut [u8],
    buckets: &'s mut [Vec<u32>],
    budget: u32,
}

impl Frontier<'_> {
    /// [`Search::relax`] of state `s` of hex `hex` (the hex told, not worked out from the
    /// state).
    #[inline(always)]
    fn relax(&mut self, hex: usize, s: usize, c: u32, e: u16) {
        debug_assert_eq!(hex, s / STATES_PER_HEX);
        if c <= self.budget && c < u32::from(self.cost[s]) {
            self.reached[hex / 64] |= 1 << (hex % 64);
            self.cost[s] = c as u16;
            // A search from the map has no entries: every state's stays `NO_ENTRY`.
            if e != NO_ENTRY {
                self.entry_of[s] = e;
            }
            self.buckets[c as usize].push(s as u32);
        }
    }

    /// [`Frontier::relax`] of state `s` of a hex already reached (a turn in place): its
    /// hex is marked reached already.
    #[inline(always)]
    fn turn(&mut self, s: usize, c: u32, e: u16) {
        debug_assert!(self.reached[s / STATES_PER_HEX / 64] >> (s / STATES_PER_HEX % 64) & 1 == 1);
        if c <= self.budget && c < u32::from(self.cost[s]) {
            self.cost[s] = c as u16;
            if e != NO_ENTRY {
                self.entry_of[s] = e;
            }
            self.buckets[c as usize].push(s as u32);
        }
    }

    /// Whether the paid turns out of `hex` are still to be relaxed, marking them done: the
    /// first turned state settled there gives every facing of the hex a cost at most 1 MP
    /// above its own, which no later (dearer) turned state of the hex can improve on.
    #[inline(always)]
    fn first_paid_turns(&mut self, hex: usize) -> bool {
        let (w, bit) = (hex / 64, 1u64 << (hex % 64));
        let first = self.turns_done[w] & bit == 0;
        self.turns_done[w] |= bit;
        first
    }

    /// The facing of the first unturned state of `hex` whose free turns were relaxed, if
    /// any; if none, `facing`'s are (the caller relaxes them), and it is marked the first.
    /// That first state's free turns gave every other facing of the hex, turned, a cost at
    /// most its own, which no later (no cheaper) unturned state of the hex can improve on:
    /// of its free turns, only the one to that first facing is left to relax.
    #[inline(always)]
    fn first_free_turn(&mut self, hex: usize, facing: Vertex) -> Option<Vertex> {
        let first = self.free_turn[hex];
        if first == NO_FREE_TURN {
            self.free_turn[hex] = facing.index();
            None
        } else {
            Some(Vertex::ALL[first as usize])
        }
    }
}

impl Search {
    /// The buffers of the search under way ([`Frontier`]).
    fn frontier(&mut self) -> Frontier<'_> {
        Frontier {
            cost: &mut self.cost,
            entry_of: &mut self.entry_of,
            reached: &mut self.reached,
            turns_done: &mut self.turns_done,
            free_turn: &mut self.free_turn,
            buckets: &mut self.buckets,
            budget: self.budget,
        }
    }
}

/// Which search finds a counter's destinations ([`State::reach_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    /// The plain search over (hex, facing, free turn used): [`State::search_states`].
    States,
    /// The search hex by hex, every facing of a hex at once: [`State::sweep`].
    Sweep,
}

/// The costs a [`Sweep`] has found for one hex, one byte (lane) each, in half points: lanes
/// 0 to 5 the facings ([`Vertex::index`]) with the free turn (6.15) used, lane 6 the first
/// facing with it unused; lane 7 unused. Every lane holds at most [`UNSWEPT`], so that a
/// lane never carries into the next in the sums below, and a step compares and lowers the
/// costs of every facing that moves at once.
type Lanes = u64;

/// The cost of a lane not reached; budgets over [`SWEPT_BUDGET`] are searched by states.
const UNSWEPT: u8 = 0x7F;
/// The largest budget a [`Sweep`] searches (one bit per cost in [`Sweep::queued`]).
const SWEPT_BUDGET: u32 = 63;
// A sweep's steps are hops ([`crate::scenario::Map::hops`]): no budget reaches their cap.
const _: () = assert!(SWEPT_BUDGET < crate::scenario::HOP_COST_MAX as u32);
/// A hex a [`Sweep`] has not reached.
const UNSWEPT_LANES: Lanes = lanes(UNSWEPT);
/// The top bit of each lane: a set of lanes.
const LANE_TOPS: Lanes = lanes(0x80);
/// The lanes of the facings with the free turn used.
const TURNED_LANES: Lanes = 0x0000_8080_8080_8080;
/// The lanes of the facings (0 to 5), as listed by [`Swept::ends`].
const FACING_LANES: Lanes = TURNED_LANES;
/// The lane of the first facing with the free turn unused.
const UNTURNED_LANE: Lanes = 0x80 << 48;

/// `c` in every lane.
const fn lanes(c: u8) -> Lanes {
    c as Lanes * 0x0101_0101_0101_0101
}

/// The lane of facing `v` ([`Vertex::index`]) with the free turn used.
const fn facing_lane(v: usize) -> Lanes {
    0x80 << (8 * v)
}

/// The cost in lane `k`.
fn lane(costs: Lanes, k: usize) -> u8 {
    (costs >> (8 * k)) as u8
}

/// The lanes holding `c`.
fn lanes_at(costs: Lanes, c: u8) -> Lanes {
    !((costs ^ lanes(c)) + lanes(0x7F)) & LANE_TOPS
}

/// The lanes holding more than `c`.
fn lanes_above(costs: Lanes, c: u8) -> Lanes {
    ((costs | LANE_TOPS) - lanes(c + 1)) & LANE_TOPS
}

/// The facing lanes of `costs` reached.
fn reached_facings(costs: Lanes) -> Lanes {
    !lanes_at(costs, UNSWEPT) & FACING_LANES
}

/// Every facing lane if `yes`, else none.
fn all_if(yes: bool) -> Lanes {
    if yes {
        FACING_LANES
    } else {
        0
    }
}

/// `costs` with the lanes of `set` lowered to `c`.
fn lowered(costs: Lanes, c: u8, set: Lanes) -> Lanes {
    let whole = (set >> 7) * 0xFF;
    costs & !whole | lanes(c) & whole
}

/// Per direction: the lanes of the facings with a front hexside (6.11) that way.
const FRONTING_LANES: [Lanes; 6] = {
    let mut t = [0; 6];
    let mut v = 0;
    while v < 6 {
        let [a, b] = Vertex::ALL[v].sides();
        t[a.index() as usize] |= facing_lane(v);
        t[b.index() as usize] |= facing_lane(v);
        v += 1;
    }
    t
};

/// The buffers of [`State::sweep`], kept between searches like [`Search`]'s.
#[derive(Default)]
struct Sweep {
    /// Per hex (dense grid index): its costs.
    cells: Vec<Lanes>,
    /// Per hex: the costs (one bit each) whose bucket holds it.
    queued: Vec<u64>,
    /// One bit per hex: reached (to report and reset it).
    reached: Vec<u64>,
    /// Hexes by cost: Dial's buckets (a hex is in a bucket when some lane of it got that
    /// cost).
    buckets: Vec<Vec<u32>>,
    /// `reached` of the last sweep that stopped ([`State::has_move_off`] remembers it).
    stopped_reached: Vec<u64>,
}

impl Sweep {
    /// Prepares for a search of `hexes` hexes up to `budget` (clean even if an earlier
    /// search was cut short).
    fn begin(&mut self, hexes: usize, budget: usize) {
        self.finish();
        self.buckets.iter_mut().for_each(Vec::clear);
        if self.cells.len() < hexes {
            self.cells.resize(hexes, UNSWEPT_LANES);
            self.queued.resize(hexes, 0);
            self.reached.resize(hexes.div_ceil(64), 0);
        }
        if self.buckets.len() < budget + 1 {
            self.buckets.resize_with(budget + 1, Vec::new);
        }
    }

    /// Marks hex `i` reached for cost `c`: in its bucket, unless there already.
    #[inline(always)]
    fn queue(
        queued: &mut [u64],
        reached: &mut [u64],
        buckets: &mut [Vec<u32>],
        i: usize,
        c: usize,
    ) {
        reached[i / 64] |= 1 << (i % 64);
        if queued[i] & 1 << c == 0 {
            queued[i] |= 1 << c;
            buckets[c].push(i as u32);
        }
    }

    /// Resets the hexes this search reached.
    fn finish(&mut self) {
        for w in 0..self.reached.len() {
            let mut b = self.reached[w];
            while b != 0 {
                let i = w * 64 + b.trailing_zeros() as usize;
                self.cells[i] = UNSWEPT_LANES;
                self.queued[i] = 0;
                b &= b - 1;
            }
            self.reached[w] = 0;
        }
    }
}

/// The indices of the bits set in `words`, in order.
fn bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut b = word;
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let i = b.trailing_zeros() as usize;
                b &= b - 1;
                w * 64 + i
            })
        })
    })
}

/// What a move may enter and leave, worked out once per search: the tests both searches ask
/// of hexes (dense grid indices).
struct Ground<'a> {
    lim: &'a Limits,
    /// The side of the combat units in each hex.
    occupant: &'a [Option<Seat>],
    /// Each hex lies in an enemy ZOC.
    zoc: &'a [bool],
    /// Each hex's distance to the nearest enemy (empty unless the limits ask about it).
    near: &'a [u32],
    /// The start (`None` for a reinforcement).
    start: Option<usize>,
    /// The start is left empty: its whole stack moves.
    start_free: bool,
    /// The start lies in an enemy ZOC.
    start_in_zoc: bool,
    /// An explicit path, as grid indices (`None`: a hex off the map, never entered).
    route: Vec<Option<usize>>,
}

impl Ground<'_> {
    /// The side of the combat units in a hex, as the move finds it.
    #[inline(always)]
    fn occ(&self, i: usize) -> Option<Seat> {
        if Some(i) == self.start && self.start_free {
            None
        } else {
            self.occupant[i]
        }
    }

    /// Whether the group may enter hex `to` (from hex `from`, or from off the map).
    #[inline(always)]
    fn enters(&self, from: Option<usize>, to: usize) -> bool {
        let lim = self.lim;
        match self.occ(to) {
            // 8.3: never into a hex with enemy units.
            Some(s) if s != lim.side => return false,
            // 7.0: only skirmishers move through combat units.
            Some(_) if !lim.pass_friends => return false,
            _ => {}
        }
        // Units kept out of enemy ZOCs (5.4, 10.1, 12.21, 16.42); and 6.24: never from
        // one enemy ZOC directly into another.
        if self.zoc[to] && (lim.avoid_zoc || from.is_some_and(|f| self.zoc[f])) {
            return false;
        }
        if lim.avoid_adjacent && self.near[to] < 2 {
            return false; // 5.33
        }
        if lim.keep_five && self.near[to] < 5 {
            return false; // 5.15, 5.16
        }
        true
    }

    /// Whether the group, having reached hex `i`, may move on from it.
    #[inline(always)]
    fn moves_on(&self, i: usize) -> bool {
        if Some(i) != self.start {
            // 6.24: stop on entering an enemy ZOC; 5.13 one hex.
            !(self.zoc[i] || self.lim.one_hex)
        } else {
            !self.start_in_zoc || self.lim.may_leave_zoc // 6.25
        }
    }

    /// On an explicit path, the only hex that may be entered from hex `i` (`Some(None)`:
    /// none); `None` without a path.
    #[inline(always)]
    fn next_on_route(&self, i: usize) -> Option<Option<usize>> {
        let route = &self.route;
        if route.is_empty() {
            None
        } else if Some(i) == self.start {
            route.first().copied()
        } else {
            let at = route.iter().position(|&r| r == Some(i));
            Some(at.and_then(|k| route.get(k + 1).copied()).flatten())
        }
    }
}

/// What a finished [`Sweep`] found, to list destinations from.
struct Swept<'a> {
    ground: &'a Ground<'a>,
    map: &'a crate::scenario::Map,
    cells: &'a [Lanes],
    reached: &'a [u64],
    /// The first facing ([`Vertex::index`]).
    f0: usize,
}

impl Swept<'_> {
    /// The hexes a move may end in (reached, not stacked on a friend, 7.0), in grid order:
    /// each with its grid index and the cheapest cost of each facing (lanes 0 to 5 of
    /// [`Lanes`], [`UNSWEPT`] where not reached).
    fn ends(&self) -> Ends<'_> {
        Ends {
            swept: self,
            side: self.ground.lim.side,
            f0_lane: facing_lane(self.f0),
            w: 0,
            word: self.reached.first().copied().unwrap_or(0),
        }
    }

    /// Hands `emit` (hex, facing, cost) the destinations of the hexes `ends` lists that
    /// `keep(hex index, costs)` keeps (the set of facing lanes it gives, [`FACING_LANES`] for
    /// all), in the order of the plain search's: by hex, then by facing.
    fn each(
        &self,
        ends: impl Iterator<Item = (usize, Lanes)>,
        mut keep: impl FnMut(usize, Lanes) -> Lanes,
        emit: &mut impl FnMut(Hex, Vertex, u8),
    ) {
        for (i, costs) in ends {
            let mut kept = keep(i, costs) & reached_facings(costs);
            if kept == 0 {
                continue;
            }
            let Some(h) = self.map.hex_at(i) else {
                continue;
            };
            while kept != 0 {
                let v = kept.trailing_zeros() as usize / 8;
                kept &= kept - 1;
                emit(h, Vertex::ALL[v], lane(costs, v));
            }
        }
    }

    /// Every destination found ([`Swept::each`] of every end).
    fn each_end(&self, emit: &mut impl FnMut(Hex, Vertex, u8)) {
        self.each(self.ends(), |_, _| FACING_LANES, emit);
    }

    /// Room for every destination found: six facings of each hex reached.
    fn room(&self) -> usize {
        6 * self
            .reached
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum::<usize>()
    }

    /// Every destination found.
    fn all(&self) -> Vec<Destination> {
        let mut out = Vec::with_capacity(self.room());
        self.each_end(&mut |hex, facing, c| out.push(Destination::swept(hex, facing, c)));
        out
    }
}

/// The iterator of [`Swept::ends`]: the reached bits word by word.
struct Ends<'a> {
    swept: &'a Swept<'a>,
    side: Seat,
    /// The lane of the first facing.
    f0_lane: Lanes,
    /// The word of `reached` under way, and what is left of it.
    w: usize,
    word: u64,
}

impl Iterator for Ends<'_> {
    type Item = (usize, Lanes);

    #[inline]
    fn next(&mut self) -> Option<(usize, Lanes)> {
        let reached = self.swept.reached;
        loop {
            while self.word == 0 {
                self.w += 1;
                self.word = *reached.get(self.w)?;
            }
            let i = self.w * 64 + self.word.trailing_zeros() as usize;
            self.word &= self.word - 1;
            if self.swept.ground.occ(i) == Some(self.side) {
                continue;
            }
            let costs = self.swept.cells[i];
            let unturned = lane(costs, 6);
            return Some((
                i,
                lowered(costs, unturned, lanes_above(costs, unturned) & self.f0_lane),
            ));
        }
    }
}

impl Destination {
    /// A destination a sweep found (from the map: no entry hex).
    fn swept(hex: Hex, facing: Vertex, cost: u8) -> Self {
        Destination {
            hex,
            facing,
            cost: HalfPoints::from(cost),
            entry: None,
        }
    }
}

/// What a unit's moves are handed to, one by one and in order, by
/// [`State::each_destination`].
pub(crate) trait MoveSink {
    /// At most `n` more moves are coming.
    fn room(&mut self, n: usize);
    /// A move: whether the unit leaves its stack (7.1), the destination and the facing.
    fn take(&mut self, alone: bool, to: Hex, facing: Vertex);
    /// The entry hex of the path of the move just taken (12.1), for a reinforcement.
    fn entered(&mut self, entry: Option<Hex>);
    /// The hexes the search for the moves reached (one bit per grid index), or `None` when
    /// the search does not tell (a reinforcement's, searched by states).
    fn reached(&mut self, _hexes: Option<&[u64]>) {}
    /// Whether a reinforcement's search is kept for the next waiting unit that moves alike
    /// ([`KeptEntry`]): worth it for those that ask for many units' moves in one position.
    /// Those that do not still use a search kept.
    fn keeps_entry_searches(&self) -> bool {
        false
    }
}

/// A list of moves, with their entry hexes ([`crate::state::SelectedMoves::Unit`]: none
/// listed unless a move has one).
impl MoveSink for (Vec<(bool, Hex, Vertex)>, Vec<Option<Hex>>) {
    fn room(&mut self, n: usize) {
        self.0.reserve(n);
    }

    fn take(&mut self, alone: bool, to: Hex, facing: Vertex) {
        self.0.push((alone, to, facing));
    }

    fn entered(&mut self, entry: Option<Hex>) {
        let (moves, entries) = self;
        if entry.is_some() || !entries.is_empty() {
            entries.resize(moves.len() - 1, None);
            entries.push(entry);
        }
    }
}

/// A unit on the map that [`State::has_move_off`] found able to move by a sweep that stopped,
/// and all the answer depended on: the unit, its stack-mate and its leader as they were, the
/// phase, every unit's standing ([`Situation::key`]) and the hexes the sweep reached.
struct MoveOffMemo {
    battle: u64,
    unit: UnitId,
    state: crate::state::Unit,
    mate: Option<(UnitId, crate::state::Unit)>,
    leader: crate::state::Leader,
    phase: crate::state::Phase,
    turn: usize,
    active: Seat,
    activation: Option<crate::state::Activation>,
    options: crate::options::Options,
    /// Each unit's standing, three words each, in id order.
    standing: Vec<u32>,
    /// One bit per hex (grid index): reached by the sweep.
    reached: Vec<u64>,
}

impl MoveOffMemo {
    /// Unit `u` of `s` (in the situation `sit`), found able to move by a sweep that reached
    /// `reached`.
    fn new(s: &State, u: UnitId, sit: &Situation, reached: &[u64]) -> Self {
        MoveOffMemo {
            battle: s.battle.identity.get(),
            unit: u,
            state: s.unit(u).clone(),
            mate: s.stack_mate(u).map(|m| (m, s.unit(m).clone())),
            leader: s.leaders[s.def(u).leader as usize].clone(),
            phase: s.phase,
            turn: s.turn,
            active: s.active,
            activation: s.activation(),
            options: s.options,
            standing: sit.key().to_vec(),
            reached: reached.to_vec(),
        }
    }

    /// Whether unit `u` of `s` is able to move for the reason remembered: `s` differs from
    /// the position remembered only in the standing of other units of `u`'s side, each of
    /// which neither left nor entered a hex the sweep reached or one next to those.
    fn holds(&self, s: &State, u: UnitId, sit: &Situation) -> bool {
        if self.unit != u
            || self.battle != s.battle.identity.get()
            || self.standing.len() != 3 * s.units.len()
            || sit.key().len() != self.standing.len()
            || self.phase != s.phase
            || self.turn != s.turn
            || self.active != s.active
            || self.activation != s.activation()
            || self.options != s.options
            || *s.unit(u) != self.state
            || s.leaders[s.def(u).leader as usize] != self.leader
        {
            return false;
        }
        // The stack-mate is the one remembered (no unit left or entered the unit's hex, where
        // the sweep began: see below); it stands as it did.
        if self.mate.as_ref().is_some_and(|(m, st)| s.unit(*m) != st) {
            return false;
        }
        let map = &s.battle.map;
        let side = s.side(u);
        let bit = |i: usize| {
            self.reached
                .get(i / 64)
                .is_some_and(|w| w >> (i % 64) & 1 == 1)
        };
        // A hex the sweep looked at: reached, or next to a hex reached.
        let looked_at = |k: &[u32]| {
            if k[2] >> 4 != 2 {
                return false;
            }
            map.index_of(Hex::new(k[0] as i32, k[1] as i32))
                .is_some_and(|i| {
                    bit(i)
                        || map.neighbour[i]
                            .iter()
                            .any(|&n| n != OFF_GRID && bit(n as usize))
                })
        };
        // Eight units at a time: most stand as they did.
        const BLOCK: usize = 3 * 8;
        let blocks = sit.key().chunks(BLOCK).zip(self.standing.chunks(BLOCK));
        for (b, (now, was)) in blocks.enumerate() {
            if now == was {
                continue;
            }
            for (k, (now, was)) in now.chunks_exact(3).zip(was.chunks_exact(3)).enumerate() {
                if now != was
                    && (s.battle.units[b * BLOCK / 3 + k].side != side
                        || looked_at(now)
                        || looked_at(was))
                {
                    return false;
                }
            }
        }
        true
    }
}

/// The buffers of [`State::leader_destinations`], kept between searches like [`Search`]'s:
/// each search unsets only what the one before set (even if it was cut short).
#[derive(Default)]
struct LeaderSearch {
    /// Per grid index: the cheapest cost found, or `u32::MAX`.
    cost: Vec<u32>,
    /// Per grid index: the order it was first reached, or `u32::MAX`.
    number: Vec<u32>,
    /// Per grid index: enemy combat units there (8.3).
    enemy_held: Vec<bool>,
    /// The grid indices reached, in the order first reached.
    hexes: Vec<usize>,
    /// The grid indices marked in `enemy_held`.
    held: Vec<usize>,
    /// Grid indices by cost: Dial's buckets.
    buckets: Vec<Vec<usize>>,
}

thread_local! {
    /// The movement search's buffers on this thread.
    static SEARCH: std::cell::RefCell<Search> = std::cell::RefCell::new(Search::default());
    /// The movement sweep's buffers on this thread.
    static SWEEP: std::cell::RefCell<Sweep> = std::cell::RefCell::new(Sweep::default());
    /// The unit last found obliged to move and able to ([`State::any_unmoved_obligation_in`]).
    static LAST_OBLIGED: std::cell::Cell<Option<UnitId>> = const { std::cell::Cell::new(None) };
    /// The unit last found able to move by [`State::has_move_off`].
    static MOVE_OFF: std::cell::RefCell<Option<MoveOffMemo>> = const { std::cell::RefCell::new(None) };
    /// The leaders' movement search's buffers on this thread.
    static LEADER_SEARCH: std::cell::RefCell<LeaderSearch> =
        std::cell::RefCell::new(LeaderSearch::default());
    /// The reinforcements' searches kept ([`KeptEntry`]), the last first.
    static KEPT_ENTRIES: std::cell::RefCell<Vec<KeptEntry>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// How many reinforcements' searches [`KEPT_ENTRIES`] keeps.
const KEPT_ENTRY_SEARCHES: usize = 4;

/// A reinforcement's search from its entry hexes (12.1), kept: the waiting units of a
/// reinforcement that move alike (the same class, allowance and limits) and enter by the
/// same hexes at the same costs reach the same destinations by the same entries while every
/// unit stands as before, and the doctrine asks for each of them at every selection.
struct KeptEntry {
    battle: u64,
    /// Every unit's standing ([`Situation::key`]): all the search reads of the units.
    standing: Vec<u32>,
    /// The limits searched by.
    limits: Limits,
    /// What the search found.
    reach: Vec<Destination>,
}

impl KeptEntry {
    /// Whether this search is the one from the map's edge by `lim` in the situation `sit` of
    /// battle `battle`: the limits alike but for which units move (a reinforcement leaves
    /// no hex, [`State::reach_with`]) and the facing they start with (each entry is entered
    /// in every facing).
    fn is(&self, battle: u64, lim: &Limits, sit: &Situation) -> bool {
        let kept = &self.limits;
        self.battle == battle
            && kept.side == lim.side
            && kept.class == lim.class
            && kept.budget == lim.budget
            && kept.start == lim.start
            && kept.has_facing == lim.has_facing
            && kept.can_turn == lim.can_turn
            && kept.pass_friends == lim.pass_friends
            && kept.avoid_zoc == lim.avoid_zoc
            && kept.avoid_adjacent == lim.avoid_adjacent
            && kept.keep_five == lim.keep_five
            && kept.may_leave_zoc == lim.may_leave_zoc
            && kept.one_hex == lim.one_hex
            && kept.entry == lim.entry
            && kept.route == lim.route
            && self.standing == sit.key()
    }
}

impl State {
    /// The units that move with `u`: its stack unless it moves alone (7.1).
    pub fn moving_group(&self, u: UnitId, alone: bool) -> Vec<UnitId> {
        self.group_of(u, alone).to_vec()
    }

    /// [`State::moving_group`], kept in place (nothing allocated).
    fn group_of(&self, u: UnitId, alone: bool) -> Group {
        let mate = if self.unit(u).loc == Loc::Waiting {
            self.waiting_mate(u)
        } else {
            self.stack_mate(u)
        };
        match (alone, mate) {
            (false, Some(m)) => Group {
                units: [u, m],
                len: 2,
            },
            _ => Group {
                units: [u, u],
                len: 1,
            },
        }
    }

    /// The unit a waiting reinforcement is stacked with (7.1), if it too is waiting.
    pub fn waiting_mate(&self, u: UnitId) -> Option<UnitId> {
        if self.unit(u).unstacked {
            return None;
        }
        let d = self.def(u);
        d.stacked_over
            .or_else(|| {
                self.battle
                    .units
                    .iter()
                    .position(|o| o.stacked_over == Some(u))
                    .map(|i| i as UnitId)
            })
            .filter(|&m| self.unit(m).loc == Loc::Waiting && !self.unit(m).unstacked)
    }

    /// Legal destinations of a charge's 4 MP (9.32 step 7): normal movement, stopping in an
    /// enemy ZOC, but free of command chit limits and free to leave the ZOC it advanced into.
    pub fn pursuit_destinations(&self, u: UnitId) -> Vec<Destination> {
        self.pursuit_destinations_by(u, Method::Sweep)
    }

    /// [`State::pursuit_destinations`] found by the plain search over states (to test the
    /// sweep against).
    pub fn plain_pursuit_destinations(&self, u: UnitId) -> Vec<Destination> {
        self.pursuit_destinations_by(u, Method::States)
    }

    fn pursuit_destinations_by(&self, u: UnitId, method: Method) -> Vec<Destination> {
        let group = self.group_of(u, false);
        let sit = self.situation();
        let Some(mut lim) = self.limits(&group, &sit) else {
            return Vec::new();
        };
        lim.budget = 8;
        lim.one_hex = false;
        lim.keep_five = false;
        lim.may_leave_zoc = true;
        let start = lim.start;
        self.reach(&lim, &sit, method)
            .into_iter()
            .filter(|d| d.hex != start)
            .collect()
    }

    /// Whether a unit is in command for movement and combat purposes (5.3): skirmishers follow
    /// no commands and are never marked out of command.
    pub fn in_command(&self, u: UnitId) -> bool {
        !self.unit(u).out_of_command
    }

    /// Whether the unit follows its command chit now: in command, not routed (5.5), not a
    /// skirmisher (5.4), not berserk or exhausted (16.41, 16.42).
    pub fn follows_chit(&self, u: UnitId) -> bool {
        self.in_command(u)
            && !self.unit(u).routed
            && !self.skirmisher(u)
            && self.unit(u).fury == Fury::Calm
    }

    /// Whether a reinforcement unit may enter this turn (12.1).
    pub fn may_enter(&self, u: UnitId) -> bool {
        // The cheap tests first: the phase, then each reinforcement's side and turn before
        // its list of units.
        self.unit(u).loc == Loc::Waiting
            && !matches!(self.phase, crate::state::Phase::Setup(_))
            && self
                .battle
                .reinforcements
                .iter()
                .any(|r| r.side == self.active && r.turn <= self.turn && r.units.contains(&u))
    }

    fn limits(&self, group: &Group, sit: &Situation) -> Option<Limits> {
        let u = group[0];
        let side = self.side(u);
        let unit = self.unit(u);
        let start = match unit.loc {
            Loc::Map(h) => h,
            Loc::Waiting if self.may_enter(u) => OFF_MAP,
            _ => return None,
        };
        let class = self.move_class(u);
        let ma = group
            .iter()
            .map(|&g| self.values(g).movement)
            .min()
            .unwrap_or(0) as u32;
        let routed = unit.routed;
        let skirmisher = self.skirmisher(u);
        let chit = if self.follows_chit(u) {
            self.chit(u)
        } else {
            None
        };
        let out_of_command = !skirmisher && unit.out_of_command;
        let exhausted = unit.fury == Fury::Exhausted;
        // 5.5: routed units move up to half their movement allowance, rounded down.
        let allowance = if routed { ma / 2 } else { ma };
        let mut entry = Vec::new();
        if start == OFF_MAP {
            let r = self
                .battle
                .reinforcements
                .iter()
                .find(|r| r.units.contains(&u))?;
            for &h in &r.entry {
                let n = self
                    .entries
                    .iter()
                    .find(|(e, _)| *e == h)
                    .map(|(_, n)| *n)
                    .unwrap_or(0);
                // 12.1: each later unit (a stack counts as one) pays one more MP.
                let extra = if self.battle.special.entry_costs {
                    2 * n as HalfPoints
                } else {
                    0
                };
                entry.push((h, extra));
            }
        }
        let in_zoc = start != OFF_MAP && sit.zoc_of(self, self.battle.enemy(side), start);
        let may_leave_zoc = routed
            || skirmisher
            || (!out_of_command
                && matches!(
                    chit,
                    Some(Chit::Retreat | Chit::Stand | Chit::Muster | Chit::Reserve)
                ));
        if in_zoc && out_of_command {
            // 5.33, 6.23: out of command units in an enemy ZOC may not move.
            return None;
        }
        let charging = self.heavy(u) && unit.charging;
        Some(Limits {
            side,
            class,
            budget: 2 * allowance,
            start,
            start_facing: unit.facing,
            has_facing: !skirmisher,
            can_turn: !skirmisher && !charging,
            pass_friends: skirmisher,
            avoid_zoc: skirmisher || routed || self.night() || exhausted,
            avoid_adjacent: out_of_command,
            keep_five: matches!(chit, Some(Chit::Reserve | Chit::Muster)),
            may_leave_zoc,
            one_hex: matches!(chit, Some(Chit::Stand)) || exhausted,
            moving: *group,
            entry,
            route: Vec::new(),
        })
    }

    /// Every hex and facing the group can reach (before the end-of-move limits of the command
    /// chits), with the cheapest cost.
    fn reach(&self, lim: &Limits, sit: &Situation, method: Method) -> Vec<Destination> {
        let never = None::<fn(usize, u32) -> bool>;
        self.reach_with(lim, sit, method, never, |swept| swept.all())
            .unwrap_or_default()
    }

    /// [`State::reach`] of a reinforcement (from off the map, by the sweep's method): the
    /// one kept if it is ([`KeptEntry`]), else searched, and kept if `keep`.
    fn kept_entry_reach(&self, lim: &Limits, sit: &Situation, keep: bool) -> Vec<Destination> {
        let battle = self.battle.identity.get();
        let kept = KEPT_ENTRIES.with(|kept| {
            let mut kept = kept.borrow_mut();
            let k = kept.iter().position(|k| k.is(battle, lim, sit))?;
            let found = kept.remove(k);
            let reach = found.reach.clone();
            kept.insert(0, found);
            Some(reach)
        });
        if let Some(reach) = kept {
            return reach;
        }
        let reach = self.reach(lim, sit, Method::Sweep);
        if !keep {
            return reach;
        }
        KEPT_ENTRIES.with(|kept| {
            let mut kept = kept.borrow_mut();
            kept.truncate(KEPT_ENTRY_SEARCHES - 1);
            kept.insert(
                0,
                KeptEntry {
                    battle,
                    standing: sit.key().to_vec(),
                    limits: lim.clone(),
                    reach: reach.clone(),
                },
            );
        });
        reach
    }

    /// Whether [`State::reach_with`] sweeps for these limits by `method` (rather than
    /// searching by states).
    fn sweeps(lim: &Limits, method: Method) -> bool {
        method == Method::Sweep && lim.start != OFF_MAP && lim.budget <= SWEPT_BUDGET
    }

    /// [`State::reach`], by `method` (the sweep only from the map: a reinforcement's entries
    /// are searched by states). Hexes are dense grid indices throughout (the map's neighbour
    /// and step cost tables, the situation's flags), never coordinates.
    ///
    /// `stop(hex, cost)`, if given, is asked about each destination (a grid index whose end is
    /// not stacked on a friend, 7.0) as soon as its cheapest cost is known, cheapest first;
    /// the search ends, returning `None`, at the first it says yes to.
    ///
    /// A sweep ([`State::sweeps`]) lists its destinations by `list`.
    fn reach_with(
        &self,
        lim: &Limits,
        sit: &Situation,
        method: Method,
        stop: Option<impl FnMut(usize, u32) -> bool>,
        list: impl FnOnce(&Swept) -> Vec<Destination>,
    ) -> Option<Vec<Destination>> {
        let enemy = self.battle.enemy(lim.side);
        let grid = &self.battle.map.grid;
        let from_map = lim.start != OFF_MAP;
        let start = if from_map {
            match grid.index(lim.start) {
                Some(i) => Some(i),
                None => return Some(Vec::new()),
            }
        } else {
            None
        };
        // The start hex is free when the whole stack there moves.
        let start_free = !from_map
            || self
                .unit_ids()
                .all(|u| self.hex(u) != Some(lim.start) || lim.moving.contains(&u));
        let zoc = sit.zoc(self, enemy);
        let ground = Ground {
            lim,
            occupant: &sit.occupant,
            zoc,
            // Distances to the enemy, worked out only for a search that needs them.
            near: if lim.avoid_adjacent || lim.keep_five {
                sit.near(self, enemy)
            } else {
                &[]
            },
            start,
            start_free,
            start_in_zoc: start.is_some_and(|i| zoc[i]),
            // An explicit path, as grid indices (`None`: a hex off the map, never entered).
            route: lim.route.iter().map(|&h| grid.index(h)).collect(),
        };
        match start {
            Some(si) if Self::sweeps(lim, method) => {
                SWEEP.with(|sweep| self.sweep(&ground, si, &mut sweep.borrow_mut(), stop, list))
            }
            _ => SEARCH.with(|search| {
                let pruned = method == Method::Sweep;
                self.search_states(&ground, &mut search.borrow_mut(), stop, pruned)
            }),
        }
    }

    /// [`State::reach_with`] by Dial's algorithm over (hex, facing, free turn used), in half
    /// points: costs are small integers, so buckets replace a heap and the order is
    /// deterministic. The plain search, and the one that tells which entry a reinforcement's
    /// destinations are reached from.
    ///
    /// `pruned`: a turned state no cheaper than its unturned sibling is not followed, even
    /// with several entries, where the plain search follows every state. The same
    /// destinations, costs and entries: unturned states are reached only from unturned
    /// states, so theirs are the plain search's; a turned state no cheaper than its sibling
    /// (dominated) leads by moves only to dominated states of its facing, and its paid
    /// turns give no facing of its hex a cost that the sibling's free turn does not beat; a
    /// destination's cost and entry are its unturned state's whenever that is no dearer.
    /// `pruned` also relaxes, of the free turns of a hex's later unturned states, only the
    /// one to the facing of its first ([`Frontier::first_free_turn`]): the others find
    /// nothing cheaper, so that the same states are queued in the same order.
    fn search_states(
        &self,
        g: &Ground,
        search: &mut Search,
        mut stop: Option<impl FnMut(usize, u32) -> bool>,
        pruned: bool,
    ) -> Option<Vec<Destination>> {
        let lim = g.lim;
        let side = lim.side;
        let map = &self.battle.map;
        let grid = &map.grid;
        let steps = &map.step_cost[lim.class.index()];
        let hops = &map.hops[lim.class.index()];
        // A hop's cost is capped at `HOP_COST_MAX`: exact for every budget below it.
        let hops_exact = lim.budget < u32::from(crate::scenario::HOP_COST_MAX);
        let route = &g.route;
        search.begin(grid.len(), lim.budget);
        if let Some(si) = g.start {
            let f0 = if lim.has_facing {
                lim.start_facing
            } else {
                Vertex::NNE
            };
            search.relax(state(si, f0, false), 0, NO_ENTRY);
        } else {
            for (k, &(e, extra)) in lim.entry.iter().enumerate() {
                let Some(ei) = grid.index(e) else { continue };
                if !g.enters(None, ei) || route.first().is_some_and(|&r| r != Some(ei)) {
                    continue;
                }
                // Entering along a road (12.1 example: 2828 costs 1/2).
                let road = map.on_road(e) && self.is_edge(e);
                let base = if road {
                    map.road_kind_at(e)
                        .and_then(|r| self.battle.tables.roads[r as usize].cost.of(lim.class))
                } else {
                    self.terrain_cost(lim.class, e)
                };
                if let Some(c) = base {
                    let facings: &[Vertex] = if lim.has_facing {
                        &Vertex::ALL
                    } else {
                        &[Vertex::NNE]
                    };
                    for &v in facings {
                        search.relax(state(ei, v, false), (c + extra) as u32, k as u16);
                    }
                }
            }
        }
        let budget = lim.budget as usize;
        let single_entry = lim.entry.len() <= 1;
        let mut fr = search.frontier();
        let mut c = 0;
        while c <= budget {
            // Bucket `c` grows while it is walked (free turns cost nothing).
            let mut k = 0;
            while let Some(&s) = fr.buckets[c].get(k) {
                k += 1;
                let s = s as usize;
                if fr.cost[s] as usize != c {
                    continue; // reached more cheaply since
                }
                let e = fr.entry_of[s];
                let (i, f, turned) = unpack(s);
                // The cheapest way to this hex and facing is this state's (its sibling with
                // the other free-turn flag, if cheaper, was asked about already).
                if let Some(stop) = stop.as_mut() {
                    if g.occ(i) != Some(side) && fr.cost[s ^ 1] as usize >= c && stop(i, c as u32) {
                        search.finish();
                        return None;
                    }
                }
                // A turned state no cheaper than its unturned sibling leads nowhere the
                // sibling (same hex and facing, the free turn still to use) does not reach as
                // cheaply: not followed. With several entries the plain search follows every
                // state (which entry a tie keeps depends on the order ways are found, see
                // `relax`); `pruned`, it does not (see above).
                if turned && (single_entry || pruned) && fr.cost[s ^ 1] as usize <= c {
                    continue;
                }
                // 6.15: one free change of facing; every further one costs 1 MP (a paid turn
                // beyond the budget marks nothing: the hex's later states cost no less).
                if lim.can_turn && (!turned || (c + 2 <= budget && fr.first_paid_turns(i))) {
                    let cost = c as u32 + if turned { 2 } else { 0 };
                    // `pruned`: after the hex's first unturned state, the free turn to its
                    // facing alone (see `Frontier::first_free_turn`).
                    let first = if !turned && pruned {
                        fr.first_free_turn(i, f)
                    } else {
                        None
                    };
                    match first {
                        Some(first) => fr.turn(state(i, first, true), cost, e),
                        None => {
                            for v in Vertex::ALL.into_iter().filter(|&v| v != f) {
                                fr.turn(state(i, v, true), cost, e);
                            }
                        }
                    }
                }
                if !g.moves_on(i) {
                    continue;
                }
                let dirs: &[Direction] = if lim.has_facing {
                    &f.sides()
                } else {
                    &Direction::ALL
                };
                let next_on_route = g.next_on_route(i);
                for &d in dirs {
                    let k = d.index() as usize;
                    // The neighbour and the step's cost: from the map's hops when no capped
                    // cost is within the budget (`NO_HOP`: no step, 8.2), else the tables.
                    let (to, step) = if hops_exact {
                        let hop = hops[i][k];
                        if hop == crate::scenario::NO_HOP {
                            continue;
                        }
                        ((hop >> 8) as usize, (hop & 0xFF) as usize)
                    } else {
                        let to = map.neighbour[i][k];
                        if to == OFF_GRID {
                            continue; // no step off the map (8.2)
                        }
                        let Some(step) = steps[i][k] else {
                            continue;
                        };
                        (to as usize, step as usize)
                    };
                    // The budget first: the dearest states, the most numerous, go no further.
                    let next = c + step;
                    if next > budget
                        || next_on_route.is_some_and(|n| n != Some(to))
                        || !g.enters(Some(i), to)
                    {
                        continue;
                    }
                    fr.relax(to, state(to, f, turned), next as u32, e);
                }
            }
            fr.buckets[c].clear();
            c += 1;
        }
        let hexes: Vec<usize> = search.reached_hexes().collect();
        let mut best: Vec<Destination> = Vec::with_capacity(hexes.len() * 6);
        for i in hexes {
            if g.occ(i) == Some(side) {
                continue; // 7.0: no stacking at the end of a move
            }
            let Some(h) = map.hex_at(i) else { continue };
            let states = i * STATES_PER_HEX..(i + 1) * STATES_PER_HEX;
            let (costs, entries) = (&search.cost[states.clone()], &search.entry_of[states]);
            for (f, facing) in Vertex::ALL.into_iter().enumerate() {
                let s = f * 2;
                let (a, b) = (costs[s], costs[s + 1]);
                let (c, s) = if a <= b { (a, s) } else { (b, s + 1) };
                if c == UNREACHED {
                    continue;
                }
                best.push(Destination {
                    hex: h,
                    facing,
                    cost: c as HalfPoints,
                    entry: lim.entry.get(entries[s] as usize).map(|x| x.0),
                });
            }
        }
        search.finish();
        Some(best)
    }

    /// [`State::search_states`] from the map hex `si`, hex by hex: a hex's costs are kept
    /// side by side ([`Lanes`]), and one step moves every facing whose front (6.11) faces
    /// that way at once. It finds the same cheapest costs: the states differ only in which
    /// facing is held and whether the free turn is used, and
    ///
    /// - with the free turn unused, a counter still has its first facing (6.15), so that a
    ///   hex's unturned cost is that of the first facing alone;
    /// - a turned facing settled in a hex gives every facing there a cost at most 1 MP above
    ///   its own (6.15);
    /// - a turned facing no cheaper than the same facing unturned leads nowhere the unturned
    ///   one does not reach as cheaply.
    fn sweep(
        &self,
        g: &Ground,
        si: usize,
        sweep: &mut Sweep,
        mut stop: Option<impl FnMut(usize, u32) -> bool>,
        list: impl FnOnce(&Swept) -> Vec<Destination>,
    ) -> Option<Vec<Destination>> {
        let lim = g.lim;
        let side = lim.side;
        let map = &self.battle.map;
        let grid = &map.grid;
        // Budgets are at most `SWEPT_BUDGET`, below every hop's `HOP_COST_MAX`.
        let hops = &map.hops[lim.class.index()];
        let budget = lim.budget as usize;
        // The first facing, and the directions a counter holding it moves in (6.11: through
        // its front hexsides; every way for a counter without facing, 6.14).
        let (f0, first_fronts) = if lim.has_facing {
            let f0 = lim.start_facing.index() as usize;
            (f0, lim.start_facing.sides().map(|d| d.index() as usize))
        } else {
            (Vertex::NNE.index() as usize, [6, 6])
        };
        let f0_lane = facing_lane(f0);
        // Per direction: the lanes that move that way.
        let moving_lanes: [Lanes; 6] = std::array::from_fn(|d| {
            let unturned = !lim.has_facing || first_fronts.contains(&d);
            FRONTING_LANES[d] | if unturned { UNTURNED_LANE } else { 0 }
        });
        // 6.15: the free change of facing, and every further one at 1 MP.
        let (free_turns, paid_turns) = if lim.can_turn {
            (TURNED_LANES & !f0_lane, TURNED_LANES)
        } else {
            (0, 0)
        };
        sweep.begin(grid.len(), budget);
        let Sweep {
            cells,
            queued,
            reached,
            buckets,
            ..
        } = &mut *sweep;
        cells[si] = lowered(cells[si], 0, UNTURNED_LANE);
        Sweep::queue(queued, reached, buckets, si, 0);
        let mut stopped = false;
        'levels: for c in 0..=budget {
            let c8 = c as u8;
            // Bucket `c` grows while it is walked (a step may cost nothing).
            let mut k = 0;
            while let Some(&i) = buckets[c].get(k) {
                k += 1;
                let i = i as usize;
                queued[i] &= !(1 << c);
                let mut costs = cells[i];
                let unturned = lane(costs, 6);
                if unturned == c8 {
                    costs = lowered(costs, c8, lanes_above(costs, c8) & free_turns);
                }
                // The lanes to move on from here: those that cost `c`, but the first facing
                // turned if no cheaper than unturned.
                let mut now = lanes_at(costs, c8) & (TURNED_LANES | UNTURNED_LANE);
                if unturned <= c8 {
                    now &= !f0_lane;
                }
                if now == 0 {
                    continue;
                }
                if let Some(stop) = stop.as_mut() {
                    // Some facing's cheapest cost is `c`.
                    let settled = now & TURNED_LANES != 0
                        || (now & UNTURNED_LANE != 0 && lane(costs, f0) >= c8);
                    if settled && g.occ(i) != Some(side) && stop(i, c as u32) {
                        stopped = true;
                        break 'levels;
                    }
                }
                if now & TURNED_LANES != 0 && c + 2 <= budget {
                    let dearer = lanes_above(costs, c8 + 2) & paid_turns;
                    if dearer != 0 {
                        costs = lowered(costs, c8 + 2, dearer);
                        Sweep::queue(queued, reached, buckets, i, c + 2);
                    }
                }
                cells[i] = costs;
                if !g.moves_on(i) {
                    continue;
                }
                let next_on_route = g.next_on_route(i);
                let hops = &hops[i];
                for d in 0..6 {
                    let moving = now & moving_lanes[d];
                    if moving == 0 {
                        continue;
                    }
                    // No step off the map or where not allowed (8.2): `NO_HOP` costs more
                    // than any budget.
                    let hop = hops[d];
                    let next = c + (hop & 0xFF) as usize;
                    if next > budget {
                        continue;
                    }
                    let to = (hop >> 8) as usize;
                    // The cheap test first: most steps find nothing cheaper.
                    let n8 = next as u8;
                    let cheaper = lanes_above(cells[to], n8) & moving;
                    if cheaper == 0
                        || next_on_route.is_some_and(|n| n != Some(to))
                        || !g.enters(Some(i), to)
                    {
                        continue;
                    }
                    cells[to] = lowered(cells[to], n8, cheaper);
                    Sweep::queue(queued, reached, buckets, to, next);
                }
            }
            buckets[c].clear();
        }
        if stopped {
            sweep.stopped_reached.clone_from(&sweep.reached);
            sweep.finish();
            return None;
        }
        let best = list(&Swept {
            ground: g,
            map,
            cells: &sweep.cells,
            reached: &sweep.reached,
            f0,
        });
        sweep.finish();
        Some(best)
    }

    /// Whether a hex is on the map's edge.
    pub fn is_edge(&self, h: Hex) -> bool {
        Direction::ALL
            .iter()
            .any(|&d| !self.battle.map.contains(h.neighbour(d)))
    }

    /// The legal destinations of unit `u` (with its stack unless `alone`) in the Movement
    /// Phase, the end-of-move limits of 5.1, 5.33 and 5.5 applied. Staying put with a new
    /// facing is a destination. Empty when the unit may not move.
    pub fn destinations(&self, u: UnitId, alone: bool) -> Vec<Destination> {
        self.destinations_in(u, alone, &self.situation())
    }

    /// [`State::destinations`] in a given situation.
    pub fn destinations_in(&self, u: UnitId, alone: bool, sit: &Situation) -> Vec<Destination> {
        self.route_destinations(u, alone, &[], sit)
    }

    /// The legal destinations of a move along an explicit path: `route` lists every hex
    /// entered, the destination last (empty: any path).
    pub fn route_destinations(
        &self,
        u: UnitId,
        alone: bool,
        route: &[Hex],
        sit: &Situation,
    ) -> Vec<Destination> {
        self.route_destinations_by(u, alone, route, sit, Method::Sweep)
    }

    /// [`State::route_destinations`] found by the plain search over states (to test the
    /// sweep against).
    pub fn plain_route_destinations(
        &self,
        u: UnitId,
        alone: bool,
        route: &[Hex],
        sit: &Situation,
    ) -> Vec<Destination> {
        self.route_destinations_by(u, alone, route, sit, Method::States)
    }

    fn route_destinations_by(
        &self,
        u: UnitId,
        alone: bool,
        route: &[Hex],
        sit: &Situation,
        method: Method,
    ) -> Vec<Destination> {
        let group = self.group_of(u, alone);
        if group.iter().any(|&g| self.unit(g).moved) {
            return Vec::new();
        }
        let Some(mut lim) = self.limits(&group, sit) else {
            return Vec::new();
        };
        lim.route = route.to_vec();
        if Self::sweeps(&lim, method) {
            let never = None::<fn(usize, u32) -> bool>;
            return self
                .reach_with(&lim, sit, method, never, |swept| {
                    let mut out = Vec::with_capacity(swept.room());
                    self.swept_end_limits(u, sit, swept, &mut |h, f, c| {
                        out.push(Destination::swept(h, f, c))
                    });
                    out
                })
                .unwrap_or_default();
        }
        let all = self.reach(&lim, sit, method);
        self.end_limits(u, &lim, all, sit)
    }

    /// The hex and facing of each of [`State::destinations_in`] of unit `u` (moving `alone`
    /// or not), handed to `sink` in the same order as found, never listed: what a selection's
    /// moves and the doctrine ask for.
    pub(crate) fn each_destination(
        &self,
        u: UnitId,
        alone: bool,
        sit: &Situation,
        sink: &mut impl MoveSink,
    ) {
        let group = self.group_of(u, alone);
        if group.iter().any(|&g| self.unit(g).moved) {
            return;
        }
        let Some(lim) = self.limits(&group, sit) else {
            return;
        };
        if Self::sweeps(&lim, Method::Sweep) {
            let never = None::<fn(usize, u32) -> bool>;
            // The sweep's end-of-move limits hand the destinations out: nothing is listed.
            self.reach_with(&lim, sit, Method::Sweep, never, |swept| {
                sink.room(swept.room());
                self.swept_end_limits(u, sit, swept, &mut |h, f, _| sink.take(alone, h, f));
                sink.reached(Some(swept.reached));
                Vec::new()
            });
            return;
        }
        sink.reached(None);
        let all = if lim.start == OFF_MAP {
            self.kept_entry_reach(&lim, sit, sink.keeps_entry_searches())
        } else {
            self.reach(&lim, sit, Method::Sweep)
        };
        if let Some(allows) = self.entering_limits(u, &lim) {
            // A reinforcement's destinations kept one by one, none listed again.
            sink.room(all.len());
            for d in all
                .into_iter()
                .filter(|d| allows(d.cost as u32) || d.hex == lim.start)
            {
                sink.take(alone, d.hex, d.facing);
                sink.entered(d.entry);
            }
            return;
        }
        let kept = self.end_limits(u, &lim, all, sit);
        sink.room(kept.len());
        for d in kept {
            sink.take(alone, d.hex, d.facing);
            sink.entered(d.entry);
        }
    }

    /// [`State::end_limits`] of reinforcement `u` entering the map, neither routed nor out of
    /// command, as a test of each destination's cost alone: from off the map no chit asks how
    /// far the enemy is (5.1, `chit_allows`), every destination is a move, and a waiting unit
    /// is never obliged to move by its chit, so that `end_limits` keeps exactly the
    /// destinations reached for a cost the chit allows (every one if the unit follows none),
    /// and any where it stands. `None` for any other unit, left to `end_limits`.
    fn entering_limits(&self, u: UnitId, lim: &Limits) -> Option<impl Fn(u32) -> bool> {
        let unit = self.unit(u);
        if lim.start != OFF_MAP
            || unit.routed
            || (!self.skirmisher(u) && unit.out_of_command)
            || self.hex(u).is_some()
        {
            return None;
        }
        let follows = self.follows_chit(u);
        let ma = self.values(u).movement as u32;
        let chit = self.chit(u);
        Some(move |cost| !follows || chit_allows(chit, ma, false, u32::MAX, u32::MAX, cost))
    }

    /// [`State::end_limits`] of unit `u`'s destinations in a finished sweep from the map:
    /// the same limits, asked hex by hex of the sweep's costs, without listing first the
    /// destinations they drop. Each destination kept is handed to `emit` (hex, facing, cost),
    /// in the order of the plain search's.
    fn swept_end_limits(
        &self,
        u: UnitId,
        sit: &Situation,
        swept: &Swept,
        emit: &mut impl FnMut(Hex, Vertex, u8),
    ) {
        let lim = swept.ground.lim;
        let unit = self.unit(u);
        let enemy = self.battle.enemy(lim.side);
        let near = sit.near(self, enemy);
        let Some(si) = swept.ground.start else {
            return;
        };
        let d0 = near[si];
        let moved = |i: usize| i != si;
        if unit.routed {
            // 5.5: away from the closest enemy combat units.
            return swept.each(swept.ends(), |i, _| all_if(!moved(i) || near[i] > d0), emit);
        }
        if !self.skirmisher(u) && unit.out_of_command {
            // 5.33: if they move, within command span of their leader or as close as possible.
            let leader = self.def(u).leader;
            let Some(lh) = self.leaders[leader as usize].loc.hex() else {
                return swept.each_end(emit);
            };
            let span = self.span(leader);
            let map = swept.map;
            let gap = |i: usize| map.hex_at(i).map(|h| h.distance(lh).saturating_sub(span));
            let best = swept
                .ends()
                .filter(|&(i, _)| moved(i))
                .filter_map(|(i, _)| gap(i))
                .min();
            let ends = swept.ends().filter(|&(i, _)| !moved(i) || gap(i) == best);
            return swept.each(ends, |_, _| FACING_LANES, emit);
        }
        if !self.follows_chit(u) {
            return swept.each_end(emit);
        }
        let ma = self.values(u).movement as u32;
        let chit = self.chit(u);
        // The facings of hex `i` reached at `costs` that comply.
        let ok = |i: usize, costs: Lanes| chit_allows_lanes(chit, ma, d0, near[i], costs);
        let moved_ok = swept
            .ends()
            .any(|(i, c)| moved(i) && ok(i, c) & reached_facings(c) != 0);
        if moved_ok {
            // Turning in place is always allowed when the chit permits staying.
            let stay_ok = !self.must_move_in(u, sit);
            return swept.each(
                swept.ends(),
                |i, c| ok(i, c) | all_if(!moved(i) && stay_ok),
                emit,
            );
        }
        if chit == Some(Chit::Muster) && d0 < 5 {
            // 5.16: as nearly as they can.
            let best = swept.ends().map(|(i, _)| near[i]).max().unwrap_or(d0);
            if best > d0 {
                return swept.each(swept.ends(), |i, _| all_if(near[i] == best), emit);
            }
        }
        // Note to 5.1: a unit that cannot comply stays where it is (it may turn in place).
        swept.each(swept.ends(), |i, _| all_if(!moved(i)), emit)
    }

    fn end_limits(
        &self,
        u: UnitId,
        lim: &Limits,
        all: Vec<Destination>,
        sit: &Situation,
    ) -> Vec<Destination> {
        let side = lim.side;
        let enemy = self.battle.enemy(side);
        let unit = self.unit(u);
        let from_map = lim.start != OFF_MAP;
        // Destinations come hex by hex, a facing each: a hex's distance is looked up once
        // (`OFF_MAP`'s is `u32::MAX`, as the situation says of any hex off the map).
        let last = std::cell::Cell::new((OFF_MAP, u32::MAX));
        let dist = |h: Hex| {
            let (at, d) = last.get();
            if at == h {
                return d;
            }
            let d = sit.distance_to(self, enemy, h);
            last.set((h, d));
            d
        };
        let d0 = if from_map { dist(lim.start) } else { u32::MAX };
        let moved = |d: &Destination| d.hex != lim.start;
        if unit.routed {
            // 5.5: away from the closest enemy combat units.
            return all
                .into_iter()
                .filter(|d| !moved(d) || dist(d.hex) > d0)
                .collect();
        }
        if !self.skirmisher(u) && unit.out_of_command {
            // 5.33: if they move, within command span of their leader or as close as possible.
            let leader = self.def(u).leader;
            let Some(lh) = self.leaders[leader as usize].loc.hex() else {
                return all;
            };
            let span = self.span(leader);
            let gap = |h: Hex| h.distance(lh).saturating_sub(span);
            let best = all.iter().filter(|d| moved(d)).map(|d| gap(d.hex)).min();
            return all
                .into_iter()
                .filter(|d| !moved(d) || Some(gap(d.hex)) == best)
                .collect();
        }
        if !self.follows_chit(u) {
            return all;
        }
        let ma = self.values(u).movement as u32;
        let chit = self.chit(u);
        // From off the map no chit asks how far the enemy is (`chit_allows`): not looked up.
        let ok = |d: &Destination| {
            let far = if from_map { dist(d.hex) } else { u32::MAX };
            chit_allows(chit, ma, from_map, d0, far, d.cost as u32)
        };
        // Which destinations comply, and whether one of them is a move off the hex.
        let mut moved_ok = false;
        let compliant: Vec<bool> = all
            .iter()
            .map(|d| {
                let ok = ok(d);
                moved_ok |= ok && moved(d);
                ok
            })
            .collect();
        if moved_ok || !from_map {
            // Turning in place is always allowed when the chit permits staying.
            let stay_ok = !self.must_move_in(u, sit);
            return all
                .into_iter()
                .zip(compliant)
                .filter(|(d, ok)| *ok || (!moved(d) && stay_ok))
                .map(|(d, _)| d)
                .collect();
        }
        if chit == Some(Chit::Muster) && d0 < 5 {
            // 5.16: as nearly as they can.
            let best = all.iter().map(|d| dist(d.hex)).max().unwrap_or(d0);
            if best > d0 {
                return all.into_iter().filter(|d| dist(d.hex) == best).collect();
            }
        }
        // Note to 5.1: a unit that cannot comply stays where it is (it may turn in place).
        all.into_iter().filter(|d| !moved(d)).collect()
    }

    /// Whether `u` (with its stack) has a legal move out of its hex, or for a reinforcement
    /// onto the map: whether [`State::destinations_in`] lists a destination other than where
    /// it stands. The same test as the end-of-move limits of [`State::end_limits`], asked of
    /// each destination as the search finds it, so that the search stops at the first.
    ///
    /// A unit found able to move is remembered (on this thread, [`MoveOffMemo`]) with the
    /// hexes its search reached: asked again about a position that differs only in its own
    /// side's other units, none of them leaving or entering a hex the search reached or one
    /// next to those, it is able still (every hex the search looked at holds what it held).
    fn has_move_off(&self, u: UnitId, sit: &Situation) -> bool {
        if MOVE_OFF.with_borrow(|memo| memo.as_ref().is_some_and(|m| m.holds(self, u, sit))) {
            return true;
        }
        let found = self.search_move_off(u, sit);
        if found == Some(true) {
            let memo =
                SWEEP.with_borrow(|sweep| MoveOffMemo::new(self, u, sit, &sweep.stopped_reached));
            MOVE_OFF.set(Some(memo));
        }
        found != Some(false)
    }

    /// [`State::has_move_off`] searched: `Some(true)` when found by a sweep from the map that
    /// stopped at the first move off (its reached hexes kept in [`Sweep::stopped_reached`]),
    /// `None` when found otherwise.
    fn search_move_off(&self, u: UnitId, sit: &Situation) -> Option<bool> {
        let group = self.group_of(u, false);
        if group.iter().any(|&g| self.unit(g).moved) {
            return Some(false);
        }
        let Some(lim) = self.limits(&group, sit) else {
            return Some(false);
        };
        let enemy = self.battle.enemy(lim.side);
        let unit = self.unit(u);
        let from_map = lim.start != OFF_MAP;
        // Distances by grid index (a hex off the map is `u32::MAX` from the enemy, as
        // `Situation::distance_to` says).
        let near = sit.near(self, enemy);
        let map = &self.battle.map;
        let si = map.grid.index(lim.start);
        let d0 = match si {
            Some(i) if from_map => near[i],
            _ => u32::MAX,
        };
        // The cheap test first: a unit kept five hexes from the enemy (5.15, 5.16) that
        // starts within three may enter no hex at all (each next to it is within four), and
        // so has no move off its hex.
        if lim.keep_five && from_map && d0 < 4 {
            return Some(false);
        }
        let ma = self.values(u).movement as u32;
        let chit = self.chit(u);
        // Which moved destinations `end_limits` keeps (see there), by grid index.
        let free = (!self.skirmisher(u) && unit.out_of_command) || !self.follows_chit(u);
        let kept = |i: usize, cost: u32| -> bool {
            let dist = near[i];
            if unit.routed {
                dist > d0
            } else if free {
                true
            } else {
                chit_allows(chit, ma, from_map, d0, dist, cost)
                    || (chit == Some(Chit::Muster) && d0 < 5 && dist > d0)
            }
        };
        let found = self
            .reach_with(
                &lim,
                sit,
                Method::Sweep,
                Some(|i, cost| map.hex_at(i).is_some() && Some(i) != si && kept(i, cost)),
                |_| Vec::new(),
            )
            .is_none();
        match (found, Self::sweeps(&lim, Method::Sweep) && from_map) {
            (true, true) => Some(true),
            (true, false) => None,
            (false, _) => Some(false),
        }
    }

    /// Whether a unit's chit obliges it to move this phase (5.11, 5.12, 5.14, 5.16), before
    /// asking whether it can.
    pub fn must_move_in(&self, u: UnitId, sit: &Situation) -> bool {
        if !self.follows_chit(u) {
            return false;
        }
        let Some(h) = self.hex(u) else { return false };
        let d0 = sit.distance_to(self, self.battle.enemy(self.side(u)), h);
        match self.chit(u) {
            Some(Chit::Attack | Chit::Advance) => d0 > 1,
            Some(Chit::Retreat) => true,
            Some(Chit::Muster) => d0 < 5,
            _ => false,
        }
    }

    /// Units of the active side that must still move and can (the note to 5.1 excuses the
    /// rest), blocking the end of the Movement Phase; and Crusader reinforcements due now
    /// (only the Muslim player may withhold reinforcements, 12.1). Lazy: each unit's moves
    /// are searched only when asked for.
    /// `moves_off(unit)` says whether the unit has a legal move off its hex (or onto the
    /// map), as [`State::has_move_off`] does.
    fn obligations<'a>(
        &'a self,
        sit: &'a Situation,
        moves_off: impl Fn(UnitId) -> bool + 'a,
    ) -> impl Iterator<Item = UnitId> + 'a {
        self.unit_ids()
            .filter(move |&u| self.is_obligation(u, sit, &moves_off))
    }

    /// Whether unit `u` is one of [`State::obligations`].
    fn is_obligation(
        &self,
        u: UnitId,
        sit: &Situation,
        moves_off: &impl Fn(UnitId) -> bool,
    ) -> bool {
        let side = self.active;
        // 16.11: with action chits, only the activated leader's units are obliged to move.
        let leader = self.activation().map(|a| a.leader);
        if self.side(u) != side
            || self.unit(u).moved
            || leader.is_some_and(|l| self.def(u).leader != l)
        {
            return false;
        }
        if self.unit(u).loc == Loc::Waiting {
            let withhold = self.battle.special.withhold_reinforcements && side != Seat(0);
            return self.may_enter(u) && !withhold && self.top_of_waiting_stack(u) && moves_off(u);
        }
        self.must_move_in(u, sit) && moves_off(u)
    }

    /// [`State::obligations`], all of them (each unit's destinations searched in full, by the
    /// plain search over states).
    pub fn unmoved_obligations(&self) -> Vec<UnitId> {
        let sit = self.situation();
        let moves_off = |u: UnitId| {
            let here = self.hex(u);
            self.plain_route_destinations(u, false, &[], &sit)
                .iter()
                .any(|d| Some(d.hex) != here)
        };
        self.obligations(&sit, moves_off).collect()
    }

    /// Whether some unit must still move ([`State::unmoved_obligations`] is not empty),
    /// searching only until the first is found, and each unit's moves only until its first
    /// move off its hex.
    pub fn any_unmoved_obligation(&self) -> bool {
        self.any_unmoved_obligation_in(&self.situation())
    }

    /// [`State::any_unmoved_obligation`] in the situation now, `sit`.
    ///
    /// Whether there is one does not depend on the order the units are asked in: the unit
    /// found last on this thread is asked first (in a Movement Phase the same unit is found
    /// decision after decision, while the units before it in id order that cannot comply
    /// would each be searched in full).
    pub(crate) fn any_unmoved_obligation_in(&self, sit: &Situation) -> bool {
        let moves_off = |u: UnitId| self.has_move_off(u, sit);
        let guess = LAST_OBLIGED
            .get()
            .filter(|&g| usize::from(g) < self.units.len());
        if guess.is_some_and(|g| self.is_obligation(g, sit, &moves_off)) {
            return true;
        }
        let found = self
            .unit_ids()
            .filter(|&u| Some(u) != guess)
            .find(|&u| self.is_obligation(u, sit, &moves_off));
        if found.is_some() {
            LAST_OBLIGED.set(found);
        }
        found.is_some()
    }

    fn top_of_waiting_stack(&self, u: UnitId) -> bool {
        // A waiting unit stacked under another enters with it.
        !self.battle.units.iter().enumerate().any(|(i, d)| {
            d.stacked_over == Some(u) && self.units[i].loc == Loc::Waiting && i as UnitId != u
        })
    }

    /// The command span of a leader now: +1 with a Muster command (5.16).
    pub fn span(&self, l: crate::scenario::LeaderId) -> u32 {
        let (_, span, _) = self.ratings(l);
        span as u32 + u32::from(self.leaders[l as usize].chit == Some(Chit::Muster))
    }

    /// Legal destinations of a leader: 8 MP (8.1), never into a hex with enemy combat units
    /// (8.3); a split leader only into a hex with his cavalry (16.3). In the order a
    /// cheapest-first search settles them: by cost, ties in the order first reached (as
    /// [`hexgrid::field_of_movement`] gives them, trying neighbours in
    /// [`Direction::ALL`] order).
    pub fn leader_destinations(&self, l: crate::scenario::LeaderId) -> Vec<(Hex, HalfPoints)> {
        let st = &self.leaders[l as usize];
        let Some(start) = st.loc.hex() else {
            return Vec::new();
        };
        if st.moved {
            return Vec::new();
        }
        let map = &self.battle.map;
        let grid = &map.grid;
        let Some(si) = grid.index(start) else {
            return Vec::new();
        };
        let side = self.battle.leaders[l as usize].side;
        let enemy = self.battle.enemy(side);
        LEADER_SEARCH.with(|search| {
            let mut search = search.borrow_mut();
            let LeaderSearch {
                cost,
                number,
                enemy_held,
                hexes,
                held,
                buckets,
            } = &mut *search;
            // Unset what the search before set.
            for &i in hexes.iter() {
                cost[i] = u32::MAX;
                number[i] = u32::MAX;
            }
            for &i in held.iter() {
                enemy_held[i] = false;
            }
            hexes.clear();
            held.clear();
            buckets.iter_mut().for_each(Vec::clear);
            if cost.len() < grid.len() {
                cost.resize(grid.len(), u32::MAX);
                number.resize(grid.len(), u32::MAX);
                enemy_held.resize(grid.len(), false);
            }
            // 8.3: never into a hex with enemy combat units.
            held.extend(
                self.on_map(enemy)
                    .filter_map(|u| map.index_of(self.hex(u)?)),
            );
            for &i in held.iter() {
                enemy_held[i] = true;
            }
            self.leader_search(l, si, cost, number, enemy_held, hexes, buckets)
        })
    }

    /// The search of [`State::leader_destinations`] from grid index `si`, in the buffers
    /// given (`cost` and `number` unset, `u32::MAX`, everywhere; `hexes` and `buckets`
    /// empty).
    #[allow(clippy::too_many_arguments)]
    fn leader_search(
        &self,
        l: crate::scenario::LeaderId,
        si: usize,
        cost: &mut [u32],
        number: &mut [u32],
        enemy_held: &[bool],
        hexes: &mut Vec<usize>,
        buckets: &mut Vec<Vec<usize>>,
    ) -> Vec<(Hex, HalfPoints)> {
        let map = &self.battle.map;
        let steps = &map.step_cost[MoveClass::Leaders.index()];
        const BUDGET: u32 = 16;
        if buckets.len() <= BUDGET as usize {
            buckets.resize_with(BUDGET as usize + 1, Vec::new);
        }
        // Dijkstra over grid indices by Dial's buckets, settling the hexes of a cost in the
        // order first reached (a hex's number): cheapest first, ties to the first reached.
        hexes.push(si);
        cost[si] = 0;
        number[si] = 0;
        buckets[0].push(si);
        let mut out = Vec::new();
        for c in 0..=BUDGET {
            // This cost's hexes, the first reached first (a bucket holds a hex at most once,
            // and hexes first reached later come later: often already in order).
            let mut now = std::mem::take(&mut buckets[c as usize]);
            if !now.is_sorted_by_key(|&i| number[i]) {
                now.sort_unstable_by_key(|&i| number[i]);
            }
            let mut k = 0;
            while let Some(&i) = now.get(k) {
                k += 1;
                if cost[i] != c {
                    continue; // reached more cheaply since
                }
                if i != si {
                    if let Some(h) = map.hex_at(i) {
                        if self.split_leader_may_enter(l, h) {
                            out.push((h, c as HalfPoints));
                        }
                    }
                }
                for (&to, &step) in map.neighbour[i].iter().zip(&steps[i]) {
                    if to == OFF_GRID {
                        continue;
                    }
                    let to = to as usize;
                    if enemy_held[to] {
                        continue;
                    }
                    let Some(step) = step else { continue };
                    let next = c + u32::from(step);
                    if next > BUDGET {
                        continue;
                    }
                    if number[to] == u32::MAX {
                        number[to] = hexes.len() as u32;
                        hexes.push(to);
                    } else if next >= cost[to] {
                        continue;
                    }
                    cost[to] = next;
                    if next == c {
                        // A step costing nothing: settled with this cost's hexes, in its turn.
                        let key = number[to];
                        let at = k + now[k..].partition_point(|&j| number[j] < key);
                        now.insert(at, to);
                    } else {
                        buckets[next as usize].push(to);
                    }
                }
            }
            // Keep the room for the next search.
            now.clear();
            buckets[c as usize] = now;
        }
        out
    }
}

/// [`chit_allows`] of a move from the map (`d0` hexes from the nearest enemy) to a hex `dist`
/// hexes from it, for each facing lane of `costs` (the half points each facing is reached
/// for): the lanes that comply. Only the Attack chit asks about the cost (5.11).
fn chit_allows_lanes(chit: Option<Chit>, ma: u32, d0: u32, dist: u32, costs: Lanes) -> Lanes {
    match chit {
        Some(Chit::Attack) if d0 != 1 => {
            // 5.11: at least half the allowance (rounded up), ending closer.
            let least = ma.div_ceil(2) * 2;
            if dist >= d0 {
                0
            } else if least == 0 {
                FACING_LANES
            } else if least > u32::from(UNSWEPT) {
                0
            } else {
                lanes_above(costs, (least - 1) as u8) & FACING_LANES
            }
        }
        _ => all_if(chit_allows(chit, ma, true, d0, dist, 0)),
    }
}

/// Whether a destination `dist` hexes from the nearest enemy, reached for `cost` half points,
/// complies with the unit's command chit (5.1), for a unit of movement allowance `ma` that
/// began `d0` hexes from the nearest enemy (on the map if `from_map`).
fn chit_allows(chit: Option<Chit>, ma: u32, from_map: bool, d0: u32, dist: u32, cost: u32) -> bool {
    match chit {
        // 5.11: at least half the allowance (rounded up), ending closer; from adjacent,
        // remain adjacent.
        Some(Chit::Attack) => {
            if d0 == 1 {
                dist == 1
            } else {
                cost >= ma.div_ceil(2) * 2 && (!from_map || dist < d0)
            }
        }
        // 5.12: one hex closer, or remain adjacent.
        Some(Chit::Advance) => {
            if d0 == 1 {
                dist == 1
            } else {
                !from_map || dist < d0
            }
        }
        // 5.14: at least one hex further away.
        Some(Chit::Retreat) => dist > d0 || !from_map,
        // 5.15, 5.16: five or more hexes away at the end, if they began closer.
        Some(Chit::Reserve | Chit::Muster) => d0 >= 5 || dist >= 5,
        Some(Chit::Stand) | None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `end_limits` does not look up how far from the enemy a reinforcement's destination is:
    /// from off the map (`d0` unknown, `u32::MAX`) no chit's test depends on it.
    #[test]
    fn from_off_the_map_no_chit_asks_how_far_the_enemy_is() {
        let chits = [
            None,
            Some(Chit::Attack),
            Some(Chit::Advance),
            Some(Chit::Stand),
            Some(Chit::Retreat),
            Some(Chit::Reserve),
            Some(Chit::Muster),
        ];
        for chit in chits {
            for ma in 0..=12 {
                for cost in 0..=30 {
                    let far = chit_allows(chit, ma, false, u32::MAX, u32::MAX, cost);
                    for dist in (0..=12).chain([u32::MAX - 1]) {
                        assert_eq!(
                            chit_allows(chit, ma, false, u32::MAX, dist, cost),
                            far,
                            "{chit:?}, allowance {ma}, cost {cost}, {dist} hexes away"
                        );
                    }
                }
            }
        }
    }
}
