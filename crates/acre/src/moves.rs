//! Where a selected counter may go (5.0, 5.16, 5.17, 7.21, 12.11): the cheapest-path search
//! of combat units, leaders and siege towers with the costs of [`crate::movement::entry_cost`] and the zones
//! of control of [`crate::zoc`], off-map army units entering from the map edges, and the
//! relocation of siege units in the Strategic Movement Segment. The path found is the one the
//! move takes, so that what it passes through is known (5.12, 12.23, 12.34).
//!
//! The search runs on the map's dense hex indices with each hex's entry cost worked out once
//! a search and the enemy's zones of control kept while the enemy stands still
//! ([`zoc::control_kept`]); the last searches are kept on the thread (`KEPT_MOVES` of them), so that
//! the move chosen from the legal actions is checked and its path taken without searching
//! again, and so are the moves a game-tree search replays in each of its iterations. [`plain`]
//! is the same search asked of the rules hex by hex, which the tests hold it to.

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;
use std::sync::{Arc, Weak};

use hexgrid::Hex;

use crate::intervention::ENTRY_COST;
use crate::map::Class;
use crate::movement::{self, Mover};
use crate::position::{Board, Location, Pieces};
use crate::retreat;
use crate::rules::{Rules, Side, SiegeKind};
use crate::setup::Piece;
use crate::state::{Derived, State, OFF_MAP};
use crate::zoc;
use crate::Position;

/// No position in [`Reach`]: a node not reached, or the start's parent.
const NONE: u32 = u32::MAX;

/// A node reached by [`Reach::run`]: its number, its cheapest cost and the position of the
/// node before it on its cheapest path.
#[derive(Clone, Copy, Debug)]
struct Reached {
    node: u32,
    cost: u32,
    parent: u32,
}

/// The cheapest-cost search of [`hexgrid::search`] over nodes numbered densely (the map's
/// hexes by grid index, and off the map after them), giving the same costs, paths and
/// order: ties are broken by the order in which nodes were first generated.
struct Reach {
    /// The nodes reached, in the order first generated; the start first.
    nodes: Vec<Reached>,
    /// Positions in `nodes`, in the order settled (non-decreasing cost).
    order: Vec<u32>,
}

/// What [`Reach::run`] works in, kept on the thread between searches so that it is neither
/// allocated nor filled again for each: by node number, its position in the nodes reached
/// ([`NONE`] again after every search) and the queue of positions to settle.
#[derive(Default)]
struct Scratch {
    index: Vec<u32>,
    queue: Buckets,
}

/// The nodes of a search by [`Reach::run`]: the steps out of each and where a search stops.
trait Steps {
    /// Calls [`Frontier::step`] for each node a step from `node`, with the cost of the step,
    /// in the order the search takes them.
    fn each(&mut self, node: u32, frontier: &mut Frontier);

    /// Whether a node reached (other than the start) is expanded further, as in
    /// [`hexgrid::search`].
    fn may_continue(&self, node: u32) -> bool;
}

/// The queue of [`Reach::run`]: by cost, the positions in [`Reach::nodes`] pushed at that
/// cost, each with whether they were pushed out of ascending order. Costs are small
/// integers (half Movement Points within an allowance), so a bucket a cost takes the place
/// of a binary heap; every bucket is empty again after a search.
#[derive(Default)]
struct Buckets {
    at: Vec<(Vec<u32>, bool)>,
}

impl Buckets {
    /// Pushes the position `pos` at `cost`.
    #[inline]
    fn push(&mut self, cost: u32, pos: u32) {
        let c = cost as usize;
        if c >= self.at.len() {
            self.at.resize_with(c + 1, Default::default);
        }
        let (bucket, unsorted) = &mut self.at[c];
        if bucket.last().is_some_and(|&last| last > pos) {
            *unsorted = true;
        }
        bucket.push(pos);
    }
}

thread_local! {
    /// The working space of [`Reach::run`] ([`Scratch`]) between searches.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// A search of [`Reach::run_in`] under way, settling the node at position `from` of
/// `nodes`, reached at `cost`, from the bucket of that cost (`next_in_bucket`: the place
/// of the next position to settle in it).
struct Frontier<'s> {
    nodes: Vec<Reached>,
    index: &'s mut [u32],
    queue: &'s mut Buckets,
    bucket: Vec<u32>,
    next_in_bucket: usize,
    from: u32,
    cost: u32,
    budget: u32,
}

impl Frontier<'_> {
    /// A step of `step` from the node being settled to the node `next`: reached, or reached
    /// more cheaply, within the allowance, it is queued at its new cost.
    #[inline(always)]
    fn step(&mut self, next: u32, step: u32) {
        let Some(next_cost) = self.cost.checked_add(step) else {
            return;
        };
        if next_cost > self.budget {
            return;
        }
        let j = self.index[next as usize];
        let pos = if j == NONE {
            let j = self.nodes.len() as u32;
            self.index[next as usize] = j;
            self.nodes.push(Reached {
                node: next,
                cost: next_cost,
                parent: self.from,
            });
            j
        } else {
            let reached = &mut self.nodes[j as usize];
            if next_cost >= reached.cost {
                return;
            }
            reached.cost = next_cost;
            reached.parent = self.from;
            j
        };
        if next_cost == self.cost {
            // A step of no cost: settled in this bucket, in its place.
            let at = self.next_in_bucket;
            let place = at + self.bucket[at..].partition_point(|&x| x < pos);
            self.bucket.insert(place, pos);
        } else {
            self.queue.push(next_cost, pos);
        }
    }
}

impl Reach {
    /// Searches from `start` within `budget` among `count` nodes, the steps between them
    /// given by `steps`, as [`hexgrid::search`] does.
    fn run(count: usize, start: u32, budget: u32, steps: &mut impl Steps) -> Reach {
        // Taken out while the search runs: a search that stopped half-way leaves none behind.
        let mut scratch = SCRATCH.with(RefCell::take);
        let reach = Reach::run_in(&mut scratch, count, start, budget, steps);
        SCRATCH.with(|s| s.replace(scratch));
        reach
    }

    /// [`Reach::run`] in the working space `scratch`, which it leaves as it found it.
    ///
    /// Nodes are settled in the order of a binary heap keyed by (cost, position in
    /// [`Reach::nodes`]), as [`hexgrid::search`] settles them: cost by cost, each cost's
    /// bucket in ascending position (sorted only when pushed out of order; a step of no cost
    /// is put in its place among the bucket's positions still to settle). A position whose
    /// node was reached more cheaply since it was pushed is passed over.
    fn run_in(
        scratch: &mut Scratch,
        count: usize,
        start: u32,
        budget: u32,
        steps: &mut impl Steps,
    ) -> Reach {
        let Scratch { index, queue } = scratch;
        if index.len() < count {
            index.resize(count, NONE);
        }
        // Room for a move's usual reach, so that the lists seldom grow.
        let room = count.min(512);
        let mut nodes = Vec::with_capacity(room);
        nodes.push(Reached {
            node: start,
            cost: 0,
            parent: NONE,
        });
        let mut order = Vec::with_capacity(room);
        index[start as usize] = 0;
        queue.push(0, 0);
        let mut f = Frontier {
            nodes,
            index: index.as_mut_slice(),
            queue,
            bucket: Vec::new(),
            next_in_bucket: 0,
            from: 0,
            cost: 0,
            budget,
        };
        while f.cost <= budget && (f.cost as usize) < f.queue.at.len() {
            let unsorted;
            (f.bucket, unsorted) = std::mem::take(&mut f.queue.at[f.cost as usize]);
            if unsorted {
                f.bucket.sort_unstable();
            }
            f.next_in_bucket = 0;
            while let Some(&i) = f.bucket.get(f.next_in_bucket) {
                f.next_in_bucket += 1;
                let Reached { node, cost, .. } = f.nodes[i as usize];
                if cost != f.cost {
                    continue;
                }
                order.push(i);
                if i != 0 && !steps.may_continue(node) {
                    continue;
                }
                f.from = i;
                steps.each(node, &mut f);
            }
            let mut bucket = std::mem::take(&mut f.bucket);
            bucket.clear();
            f.queue.at[f.cost as usize] = (bucket, false);
            f.cost += 1;
        }
        let Frontier { nodes, index, .. } = f;
        for n in &nodes {
            index[n.node as usize] = NONE;
        }
        Reach { nodes, order }
    }

    /// The positions of the nodes reached (in [`Reach::nodes`]), their nodes and cheapest
    /// costs, in the order settled.
    fn settled(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        self.order.iter().map(|&i| {
            let n = self.nodes[i as usize];
            (i, n.node, n.cost)
        })
    }

    /// The nodes of the cheapest path to the node at position `i` of [`Reach::nodes`], the
    /// start first.
    fn path_to(&self, mut i: u32) -> Vec<u32> {
        let mut path = Vec::new();
        while i != NONE {
            let n = self.nodes[i as usize];
            path.push(n.node);
            i = n.parent;
        }
        path.reverse();
        path
    }
}

/// What entering a hex costs a mover in a search, whatever hex it comes from, but for
/// the wall rules that ask where it comes from ([`movement::entry`], 5.22-5.24, 6.23).
#[derive(Clone, Copy, Debug)]
enum Entry {
    /// Prohibited.
    Closed,
    /// This many half Movement Points.
    Open(u32),
    /// An unbreached Wall/Tower hex: the cost from another Wall/Tower hex, and from any
    /// other (`None`: prohibited, the hex being enemy-controlled).
    Wall(u32, Option<u32>),
}

/// The piece's move worked out: from where, with what allowance, the position without it
/// and every node it reached.
struct Search<'a> {
    rules: &'a Rules,
    /// The position without the moving piece.
    board: Board<'a>,
    /// The start's node.
    start: u32,
    /// The node off the map (an army unit about to enter).
    off: u32,
    mover: Mover,
    budget: u32,
    reach: Reach,
    /// By grid index: controlled by the enemy (6.0) in the position without the piece.
    enemy_zoc: Rc<Vec<bool>>,
}

/// What entering `to` costs the mover ([`Entry`]), as [`movement::entry`] answers for each
/// hex it may come from, with 9.24's road rates taken away when `no_road`.
#[inline(always)]
fn entry_into(
    r: &Rules,
    d: &Derived,
    board: &Board,
    mover: Mover,
    (k, to): (usize, Hex),
    enemy_controls: bool,
    no_road: bool,
) -> Entry {
    let [unit, leader, siege] = board.cell(k);
    let side_there = unit.map(|u| r.side_of(u));
    if side_there == Some(mover.side.enemy()) {
        return Entry::Closed;
    }
    if !mover.combat {
        let enemy_leader = leader.is_some_and(|l| r.leaders[l].side != mover.side);
        let enemy_siege = siege.is_some_and(|e| r.siege[e].side != mover.side);
        if enemy_leader || enemy_siege {
            return Entry::Closed;
        }
    }
    let class = d.classes[k];
    if mover.cavalry && class == Class::Marsh {
        return Entry::Closed;
    }
    let road = |c: u32| {
        if no_road {
            movement::without_road_rates(r, to, c)
        } else {
            c
        }
    };
    let p = board.position();
    if class.is_wall_or_tower() {
        let t = &r.tables;
        if mover.cavalry
            && side_there != Some(mover.side)
            && !zoc::controlled(r, board, to, mover.side)
        {
            return Entry::Closed;
        }
        if p.breached(r, to) {
            return Entry::Open(road(t.breached_cost as u32));
        }
        let other = (!enemy_controls).then(|| road(t.from_other_cost as u32));
        return Entry::Wall(road(t.from_wall_cost as u32), other);
    }
    match d.effects(p, k, to).cost {
        Some(c) => Entry::Open(road(u32::from(c))),
        None => Entry::Closed,
    }
}

/// A packed [`Entry`] in [`Entries`] not yet worked out.
const UNWORKED: u32 = u32::MAX;

/// A step prohibited in a packed [`Entry`].
const SHUT: u32 = 0xFFFE;

impl Entry {
    /// Packed in a word: the cost of a step from a Wall/Tower hex in the low half, from any
    /// other hex in the high half, [`SHUT`] where prohibited. A cost of [`SHUT`] or more is
    /// beyond any Movement Allowance, so it is as good as prohibited.
    #[inline(always)]
    fn packed(self) -> u32 {
        let half = |c: u32| c.min(SHUT);
        let (wall, other) = match self {
            Entry::Closed => (SHUT, SHUT),
            Entry::Open(c) => (half(c), half(c)),
            Entry::Wall(c, other) => (half(c), other.map_or(SHUT, half)),
        };
        wall | other << 16
    }
}

/// The entry costs of a search's hexes by grid index (each [`Entry::packed`], [`UNWORKED`]:
/// not yet worked out), kept on the thread between searches with every one worked out set
/// back to [`UNWORKED`], so that the table is neither allocated nor filled again for each.
#[derive(Default)]
struct Entries {
    cost: Vec<u32>,
    /// The grid indices worked out in this search.
    worked: Vec<u32>,
}

thread_local! {
    /// The table of [`Entries`] between searches.
    static ENTRIES: RefCell<Entries> = RefCell::new(Entries::default());
}

/// The steps of a piece's move between the map's hexes by grid index (and from off the map
/// for an army unit entering, 7.21) for [`Reach::run`], with the entry costs of the hexes
/// worked out the first time they are entered.
struct HexSteps<'a> {
    s: &'a State,
    /// The position without the moving piece.
    board: &'a Board<'a>,
    /// The start's node.
    start: u32,
    /// The node off the map.
    off: u32,
    /// The start is controlled by the enemy (6.22).
    starts_controlled: bool,
    /// By grid index: controlled by the enemy (6.0) in the position without the piece.
    enemy_zoc: &'a [bool],
    /// The piece is a siege tower (12.11, 12.12).
    tower: bool,
    mover: Mover,
    /// 9.24: no road rates.
    no_road: bool,
    /// [`Entries::cost`].
    entries: &'a mut [u32],
    /// [`Entries::worked`].
    worked: &'a mut Vec<u32>,
}

impl Steps for HexSteps<'_> {
    #[inline(always)]
    fn each(&mut self, node: u32, frontier: &mut Frontier) {
        let s = self.s;
        let r = &s.rules;
        let d = &s.derived;
        if node == self.off {
            for &h in &d.entry {
                if self.board.side_at(r, h).is_none() && s.pos.effects(r, h).cost.is_some() {
                    if let Some(k) = r.map.index(h) {
                        frontier.step(k as u32, ENTRY_COST);
                    }
                }
            }
            return;
        }
        let n = node as usize;
        // Settled: no step into this hex can be cheaper now (no step costs less than
        // nothing), so its entry is shut for the rest of the search, passed over before
        // [`Frontier::step`] would turn it down.
        if let Some(e) = self.entries.get_mut(n) {
            if *e == UNWORKED {
                self.worked.push(node);
            }
            *e = SHUT | SHUT << 16;
        }
        // The half of a packed entry for a step from this hex.
        let shift = if d.classes[n].is_wall_or_tower() {
            0
        } else {
            16
        };
        // On the map, not across an all-sea hexside (6.12).
        let mut open = d.open_sides[n];
        let adjacent = &d.adjacent[n];
        // A unit starting in an enemy-controlled hex first steps to one that is not.
        if node == self.start && self.starts_controlled {
            for (dir, &k) in adjacent.iter().enumerate() {
                if k != OFF_MAP && self.enemy_zoc[usize::from(k)] {
                    open &= !(1 << dir);
                }
            }
        }
        while open != 0 {
            let dir = open.trailing_zeros() as usize;
            open &= open - 1;
            let Some(&k) = adjacent.get(dir) else { break };
            let k = usize::from(k);
            // 12.11, 12.12: a tower keeps to the ground between the outerworks and the
            // foss, never into an unfilled foss hex.
            if self.tower {
                let Some(&next) = d.hexes.get(k) else {
                    continue;
                };
                if !d.between.contains(&next) || s.pos.unfilled_foss(r, next) {
                    continue;
                }
            }
            let Some(&known) = self.entries.get(k) else {
                continue;
            };
            let mut entry = known;
            if entry == UNWORKED {
                let Some(&next) = d.hexes.get(k) else {
                    continue;
                };
                self.worked.push(k as u32);
                let enemy_controls = self.enemy_zoc[k];
                entry = entry_into(
                    r,
                    d,
                    self.board,
                    self.mover,
                    (k, next),
                    enemy_controls,
                    self.no_road,
                )
                .packed();
                self.entries[k] = entry;
            }
            let cost = entry >> shift & 0xFFFF;
            if cost != SHUT {
                frontier.step(k as u32, cost);
            }
        }
    }

    #[inline]
    fn may_continue(&self, node: u32) -> bool {
        node == self.off || !self.enemy_zoc[node as usize]
    }
}

/// The movement search of a combat unit or leader (not a siege unit), handed to `then`.
fn search_moves<T>(
    s: &State,
    piece: Piece,
    strategic: bool,
    then: impl FnOnce(Search) -> T,
) -> Option<T> {
    let r = &s.rules;
    let side = s.side_of_piece(piece);
    let enemy = side.enemy();
    // The board of the position, then without the moving piece.
    let mut board = Board::new(r, &s.pos);
    // The enemy's zones of control with the piece still on the board.
    let mut control = None;
    let (start, mover, budget) = match piece {
        Piece::Unit(u) => {
            let at = s.pos.units[u].at;
            let budget = if at == Location::OffMap {
                2 * u32::from(r.units[u].movement)
            } else {
                let c = control.insert(zoc::control_kept(r, &board, enemy));
                movement::allowance_in(r, &board, u, strategic, s.conrad, c)
            };
            (at, Mover::unit(r, u), budget)
        }
        Piece::Leader(l) => {
            let ma = 2 * u32::from(r.leaders[l].movement);
            let mover = Mover::piece(side);
            (
                s.pos.leaders[l].at,
                mover,
                if strategic { 2 * ma } else { ma },
            )
        }
        Piece::Siege(e) => {
            // 12.11: a siege tower moves by itself in the Assault Phase.
            if strategic || r.siege[e].kind != SiegeKind::SiegeTower {
                return None;
            }
            let mover = Mover::piece(side);
            (s.pos.siege[e].at, mover, 2 * u32::from(r.siege[e].movement))
        }
    };
    board.take_off(piece);
    let tower = matches!(piece, Piece::Siege(_));
    let grid = r.map.grid;
    let off = grid.len() as u32;
    let start = match start {
        Location::Map(h) => grid.index(h)? as u32,
        Location::OffMap => off,
        _ => return None,
    };
    // The enemy's zones of control are those of the board before the piece was taken off
    // unless an enemy combat unit is left first in its hex ([`zoc::control`] reads only the
    // enemy's units, the hexes they stand in first and the enemy's siege towers).
    let enemy_zoc = match control {
        Some(c)
            if start != off
                && board.cell(start as usize)[0].is_none_or(|u| r.side_of(u) != enemy) =>
        {
            c
        }
        _ => zoc::control_kept(r, &board, enemy),
    };
    let starts_controlled = start != off && enemy_zoc[start as usize];
    let no_road = no_road(s, piece);
    // Taken out while the search runs, as [`Reach::run`] does its working space.
    let mut kept_entries = ENTRIES.with(RefCell::take);
    let Entries {
        cost: entries,
        worked,
    } = &mut kept_entries;
    if entries.len() < grid.len() {
        entries.resize(grid.len(), UNWORKED);
    }
    let mut steps = HexSteps {
        s,
        board: &board,
        start,
        off,
        starts_controlled,
        enemy_zoc: &enemy_zoc,
        tower,
        mover,
        no_road,
        entries,
        worked,
    };
    let reach = Reach::run(grid.len() + 1, start, budget, &mut steps);
    for &k in worked.iter() {
        entries[k as usize] = UNWORKED;
    }
    worked.clear();
    ENTRIES.with(|e| e.replace(kept_entries));
    Some(then(Search {
        rules: r,
        board,
        start,
        off,
        mover,
        budget,
        reach,
        enemy_zoc,
    }))
}

/// Acre 5.17, 12.23, 12.34: where a siege unit is relocated in the Strategic Movement
/// Segment (it is not moved), in the order of the ground it may go to (in Acre for the
/// Moslem, between the outerworks and the foss for the Crusader: nowhere else passes
/// [`State::may_deploy_siege`]). The rest of [`State::may_deploy_siege`] is asked of the
/// hexes by grid index: the Crusader's giant catapults and towers stay out of an unfilled
/// foss or the outerworks ([`Derived::classes`]), one siege unit a hex. Away from the
/// relocated unit's own hex, a hex is held by another siege unit exactly when a siege unit
/// stands in it, so the hexes held are marked once, by grid index.
fn relocations(s: &State, e: usize) -> impl Iterator<Item = Hex> + '_ {
    let r = &s.rules;
    let d = &s.derived;
    let ground = match r.siege[e].side {
        Side::Moslem => &d.acre,
        Side::Crusader => &d.between,
    };
    let big = r.siege[e].side == Side::Crusader
        && matches!(
            r.siege[e].kind,
            SiegeKind::GiantCatapult | SiegeKind::SiegeTower
        );
    // By grid index: a siege unit stands there.
    let mut held = vec![false; d.classes.len()];
    for x in &s.pos.siege {
        if let Some(k) = x.at.hex().and_then(|h| r.map.index(h)) {
            if let Some(m) = held.get_mut(k) {
                *m = true;
            }
        }
    }
    let at = s.pos.siege[e].at;
    ground.iter().copied().filter(move |&h| {
        if Location::Map(h) == at {
            return false;
        }
        let (held, class) = match r
            .map
            .index(h)
            .and_then(|k| Some((held.get(k)?, d.classes.get(k)?)))
        {
            Some((&held, &class)) => (held, class),
            // Off the table: asked of the position.
            None => (
                s.pos.siege.iter().any(|x| x.at == Location::Map(h)),
                r.map.class(h),
            ),
        };
        let ditch =
            || (class == Class::Foss && !s.pos.filled.contains(&h)) || class == Class::Outerworks;
        !(held || (big && ditch()))
    })
}

/// The hexes a searched piece may end its move in, in the order the search settled them
/// (5.13, 5.5, 15.11, 15.14, 5.16): their positions in [`Reach::nodes`] and grid indices.
fn ends(s: &State, found: &Search, piece: Piece, strategic: bool) -> Vec<(u32, u32)> {
    let hexes = found.rules.map.grid.len() as u32;
    let ender = Ender::new(s, piece, strategic);
    // Room for every hex settled, so that the list never grows.
    let mut out = Vec::with_capacity(found.reach.order.len());
    for &i in &found.reach.order {
        let n = found.reach.nodes[i as usize].node;
        if n != found.start
            && n != found.off
            && n < hexes
            && ender.may_end_at(&found.board, n as usize)
        {
            out.push((i, n));
        }
    }
    out
}

/// What [`Ender::may_end_at`] asks of the moving piece, worked out once a search.
struct Ender<'a> {
    rules: &'a Rules,
    derived: &'a Derived,
    piece: Piece,
    side: Side,
    /// A cavalry combat unit (15.11, 15.14).
    cavalry: bool,
    strategic: bool,
}

impl<'a> Ender<'a> {
    /// The facts of `piece` moving in `s`.
    fn new(s: &'a State, piece: Piece, strategic: bool) -> Ender<'a> {
        let r = &s.rules;
        Ender {
            rules: r,
            derived: &s.derived,
            piece,
            side: s.side_of_piece(piece),
            cavalry: matches!(piece, Piece::Unit(u) if r.unit_type(u).cavalry),
            strategic,
        }
    }

    /// [`may_end`] for this piece in the hex of grid index `k`, asked of the board's table
    /// and the areas by index.
    #[inline(always)]
    fn may_end_at(&self, board: &Board, k: usize) -> bool {
        let r = self.rules;
        let d = self.derived;
        let [unit, leader, siege] = board.cell(k);
        let class = d.classes[k];
        let side = self.side;
        let ok = match self.piece {
            // [`movement::may_end_in`].
            Piece::Unit(u) => {
                let cavalry = self.cavalry;
                unit.is_none_or(|x| x == u)
                    && !(cavalry && class.is_wall_or_tower())
                    && !(cavalry && siege.is_some_and(|e| r.siege[e].side == side))
            }
            Piece::Leader(_) => leader.is_none(),
            Piece::Siege(_) => siege.is_none() && unit.is_none_or(|u| !r.unit_type(u).cavalry),
        };
        if !ok || !self.strategic {
            return ok;
        }
        match side {
            Side::Crusader => d.crusader_ground_at[k],
            // [`crate::map::Map::in_acre`]: a street or a Wall/Tower hex.
            Side::Moslem => {
                (class == Class::Street || class.is_wall_or_tower()) && class != Class::Foss
            }
        }
    }
}

/// A piece's move searched: the search and the hexes the piece may end in.
struct Moves {
    /// The start's node.
    start: u32,
    /// The node off the map.
    off: u32,
    mover: Mover,
    budget: u32,
    reach: Reach,
    /// The hexes the piece may end in, in the order settled: their positions in
    /// [`Reach::nodes`] and grid indices.
    ends: Vec<(u32, u32)>,
    /// By grid index: controlled by the enemy of the moving piece (6.0), in the position
    /// without it.
    enemy_zoc: Rc<Vec<bool>>,
}

impl Moves {
    /// The hexes entered on the cheapest way to the node at position `i` of
    /// [`Reach::nodes`], in order, the start left out.
    fn path(&self, rules: &Rules, i: u32) -> Vec<Hex> {
        self.reach
            .path_to(i)
            .into_iter()
            .filter(|&n| n != self.off && n != self.start)
            .filter_map(|n| rules.map.grid.hex_at(n as usize))
            .collect()
    }
}

/// A move searched on this thread, with all it depends on: the legal actions list a selected
/// piece's destinations, then the move chosen among them is checked and its path taken, from
/// the same search.
struct Kept {
    rules: Weak<Rules>,
    derived: Weak<Derived>,
    piece: Piece,
    strategic: bool,
    conrad: bool,
    /// 9.24: the unit may not use road rates.
    no_road: bool,
    pos: Position,
    moves: Rc<Moves>,
}

/// How many of the last moves searched are kept on a thread ([`Kept`]): a game-tree search's
/// iterations replay the moves of its tree's path, and check each, between the doctrine's
/// searches of other pieces (at 128, 30-40% fewer instructions a search's decision than
/// keeping one, for some 2% more in random play, where every listing is a new position that
/// goes over them all; a few hundred kilobytes a thread). The piece and its place are
/// compared before the whole position.
const KEPT_MOVES: usize = 128;

thread_local! {
    /// The last moves searched ([`Kept`]), the latest asked for first.
    static KEPT: RefCell<VecDeque<Kept>> = const { RefCell::new(VecDeque::new()) };
}

/// 9.24: whether the piece may not use road rates this Game-Turn (after a Retreat result).
fn no_road(s: &State, piece: Piece) -> bool {
    match piece {
        Piece::Unit(u) => {
            !retreat::may_use_road_rates(s.retreated_on.get(&u).copied(), s.turn.turn)
        }
        _ => false,
    }
}

/// The search of a piece's move and where it may end (a combat unit, leader or siege tower
/// moving, not a siege unit relocated), kept for the next ask of the same move in the same
/// position.
fn moves_of(s: &State, piece: Piece, strategic: bool) -> Option<Rc<Moves>> {
    let no_road = no_road(s, piece);
    let at = |pos: &Position| match piece {
        Piece::Unit(u) => pos.units.get(u).map(|x| x.at),
        Piece::Leader(l) => pos.leaders.get(l).map(|x| x.at),
        Piece::Siege(e) => pos.siege.get(e).map(|x| x.at),
    };
    let here = at(&s.pos);
    // The piece's own place first: a kept search of it elsewhere is passed over without
    // comparing the whole position.
    let same = |k: &Kept| {
        k.piece == piece
            && at(&k.pos) == here
            && k.strategic == strategic
            && k.conrad == s.conrad
            && k.no_road == no_road
            && k.rules.as_ptr() == Arc::as_ptr(&s.rules)
            && k.rules.strong_count() > 0
            && k.derived.as_ptr() == Arc::as_ptr(&s.derived)
            && k.derived.strong_count() > 0
            && k.pos == s.pos
    };
    let kept = KEPT.with(|k| {
        let mut k = k.borrow_mut();
        let i = k.iter().position(same)?;
        if i > 0 {
            let hit = k.remove(i)?;
            k.push_front(hit);
        }
        k.front().map(|hit| Rc::clone(&hit.moves))
    });
    if kept.is_some() {
        return kept;
    }
    let moves = Rc::new(search_moves(s, piece, strategic, |found| Moves {
        ends: ends(s, &found, piece, strategic),
        start: found.start,
        off: found.off,
        mover: found.mover,
        budget: found.budget,
        reach: found.reach,
        enemy_zoc: found.enemy_zoc,
    })?);
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        let oldest = if k.len() >= KEPT_MOVES {
            k.pop_back()
        } else {
            None
        };
        let pos = match oldest {
            // The position kept longest, its lists written over rather than allocated again.
            Some(old) => {
                let mut pos = old.pos;
                copy_position(&mut pos, &s.pos);
                pos
            }
            None => s.pos.clone(),
        };
        k.insert(
            0,
            Kept {
                rules: Arc::downgrade(&s.rules),
                derived: Arc::downgrade(&s.derived),
                piece,
                strategic,
                conrad: s.conrad,
                no_road,
                pos,
                moves: Rc::clone(&moves),
            },
        );
    });
    Some(moves)
}

/// Makes `into` a copy of `from`, reusing its lists (every part of a [`Position`] named,
/// so that a part added to it is not forgotten here).
fn copy_position(into: &mut Position, from: &Position) {
    let Position {
        units,
        leaders,
        siege,
        damage,
        caved_in,
        filled,
        morale,
    } = from;
    into.units.clone_from(units);
    into.leaders.clone_from(leaders);
    into.siege.clone_from(siege);
    into.damage.clone_from(damage);
    into.caved_in.clone_from(caved_in);
    into.filled.clone_from(filled);
    into.morale.clone_from(morale);
}

/// Every hex the piece may end its move in, with the hexes entered on the way (the
/// destination last). `strategic` is the Strategic Movement Segment (5.16, 5.17).
pub fn destinations(s: &State, piece: Piece, strategic: bool) -> BTreeMap<Hex, Vec<Hex>> {
    if let (Piece::Siege(e), true) = (piece, strategic) {
        return relocations(s, e).map(|h| (h, vec![h])).collect();
    }
    let grid = s.rules.map.grid;
    moves_of(s, piece, strategic).map_or_else(BTreeMap::new, |m| {
        m.ends
            .iter()
            .filter_map(|&(i, n)| Some((grid.hex_at(n as usize)?, m.path(&s.rules, i))))
            .collect()
    })
}

/// The hexes of [`destinations`] without the paths to them (which only the move made needs),
/// in the same order.
pub fn destination_hexes(s: &State, piece: Piece, strategic: bool) -> Vec<Hex> {
    if let (Piece::Siege(e), true) = (piece, strategic) {
        let mut out: Vec<Hex> = relocations(s, e).collect();
        out.sort_unstable();
        return out;
    }
    let Some(m) = moves_of(s, piece, strategic) else {
        return Vec::new();
    };
    // Grid indices are in the order of the hexes ([`hexgrid::Grid::index`]): the ends
    // (each hex once) marked in a set of bits by grid index come out of it in order.
    let hexes = &s.derived.hexes;
    let mut marked = vec![0u64; hexes.len().div_ceil(64)];
    for &(_, n) in &m.ends {
        marked[n as usize / 64] |= 1 << (n % 64);
    }
    let mut out = Vec::with_capacity(m.ends.len());
    for (w, &bits) in marked.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            let n = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out.extend(hexes.get(n).copied());
        }
    }
    out
}

/// The path of [`destinations`] to `hex` (`None`: not a destination), without working out
/// the others.
pub fn path_to(s: &State, piece: Piece, strategic: bool, hex: Hex) -> Option<Vec<Hex>> {
    if let (Piece::Siege(e), true) = (piece, strategic) {
        let ok = s.rules.map.on_map(hex)
            && Location::Map(hex) != s.pos.siege[e].at
            && s.may_deploy_siege(e, hex);
        return ok.then(|| vec![hex]);
    }
    let k = s.rules.map.grid.index(hex)? as u32;
    let m = moves_of(s, piece, strategic)?;
    m.ends
        .iter()
        .find(|&&(_, n)| n == k)
        .map(|&(i, _)| m.path(&s.rules, i))
}

/// Acre 15.21, 15.22, 15.24: the charges a Crusader knight cavalry unit may make in a
/// Crusader Movement Segment of the Assault Phase: each hex it may end in next to a Moslem
/// combat unit, reached by a legal move whose last four hexes are Clear and in one straight
/// line ([`crate::cavalry::is_charge`]), with the target's hex and the path of the move. The
/// line may begin wherever the unit can stand (its start included); it does not stop in an
/// enemy zone of control before its last hex (6.21).
pub fn charges(s: &State, unit: usize) -> BTreeMap<(Hex, Hex), Vec<Hex>> {
    let r = &s.rules;
    let ty = r.unit_type(unit);
    let mut out = BTreeMap::new();
    if r.side_of(unit) != Side::Crusader || !ty.cavalry || !ty.knight {
        return out;
    }
    let Some(moves) = moves_of(s, Piece::Unit(unit), false) else {
        return out;
    };
    // The position without the unit, and the Moslem zones of control in it, as its move's
    // search had them.
    let mut board = Board::new(r, &s.pos);
    board.take_off(Piece::Unit(unit));
    let ground = Ground {
        enemy_zoc: Rc::clone(&moves.enemy_zoc),
        board,
        ender: Ender::new(s, Piece::Unit(unit), false),
        mover: moves.mover,
        budget: moves.budget,
        into_clear: vec![std::cell::Cell::new(UNKNOWN); r.map.grid.len()],
        beside: vec![std::cell::Cell::new(UNKNOWN); r.map.grid.len()],
    };
    for (i, node, cost) in moves.reach.settled() {
        if node == moves.off {
            continue;
        }
        let Some(first) = r.map.grid.hex_at(node as usize) else {
            continue;
        };
        let held = ground.enemy_zoc[node as usize];
        // The line runs on from here only if the unit could move on from here.
        if node != moves.start && held {
            continue;
        }
        let from_start = node == moves.start;
        charge_lines(
            s,
            &ground,
            (first, node as usize, cost),
            held && from_start,
            |(at, k), line| {
                let mut path = moves.path(r, i);
                if path.iter().any(|h| line.contains(h)) {
                    return;
                }
                path.extend(line.iter().copied());
                // The neighbours of [`crate::map::Map::neighbours`], by grid index.
                for &t in &s.derived.adjacent[k] {
                    if t == OFF_MAP {
                        continue;
                    }
                    // Only a Moslem unit is charged ([`crate::cavalry::is_charge`]); the
                    // board without the charging unit says so of every hex but its own,
                    // which holds no Moslem unit either.
                    let [first, _, _] = ground.board.cell(usize::from(t));
                    if first.map(|u| r.side_of(u)) != Some(Side::Moslem) {
                        continue;
                    }
                    let Some(target) = r.map.grid.hex_at(usize::from(t)) else {
                        continue;
                    };
                    let charge = crate::cavalry::is_charge(r, &s.pos, unit, &path, target).is_ok();
                    let unit_there = s.pos.unit_at(target).is_some();
                    if charge && unit_there {
                        out.entry((at, target)).or_insert_with(|| path.clone());
                    }
                }
            },
        );
    }
    out
}

/// What a charge's lines are checked against: the position without the charging unit, the
/// Moslem zones of control in it, and the unit's move.
struct Ground<'a> {
    board: Board<'a>,
    /// Where the charging unit may end its move ([`may_end`]).
    ender: Ender<'a>,
    /// By grid index: controlled by the Moslem (6.0).
    enemy_zoc: Rc<Vec<bool>>,
    mover: Mover,
    budget: u32,
    /// By grid index: the cost of a step into the hex where [`Ground::step_into_clear`]
    /// has asked it ([`UNKNOWN`], [`PROHIBITED`], or the cost plus [`COST`]).
    into_clear: Vec<std::cell::Cell<u32>>,
    /// By grid index: whether a Moslem combat unit stands beside the hex, where
    /// [`Ground::beside_moslem`] has asked it ([`UNKNOWN`], [`NOT_BESIDE`] or [`BESIDE`]).
    beside: Vec<std::cell::Cell<u32>>,
}

impl Ground<'_> {
    /// Whether a Moslem combat unit stands first in a hex beside the hex of grid index `k`
    /// (the only units a charge is made at, [`crate::cavalry::is_charge`]).
    /// Asked once a hex, then read from [`Ground::beside`].
    fn beside_moslem(&self, s: &State, k: usize) -> bool {
        let Some(known) = self.beside.get(k) else {
            return false;
        };
        match known.get() {
            UNKNOWN => {
                let beside = s.derived.adjacent[k].iter().any(|&t| {
                    t != OFF_MAP
                        && self.board.cell(usize::from(t))[0]
                            .is_some_and(|u| s.rules.side_of(u) == Side::Moslem)
                });
                known.set(if beside { BESIDE } else { NOT_BESIDE });
                beside
            }
            c => c == BESIDE,
        }
    }

    /// What [`movement::entry`] answers for the unit's step from `at` into the Clear hex
    /// `next` (of grid index `k`) beside it (`None`: prohibited), `sea` saying whether the
    /// hexside between them is all sea. Into a hex that is not a Wall/Tower hex, the only
    /// part of it that asks where the step comes from is the all-sea hexside (6.12), so the
    /// rest is asked once a hex, of [`entry_into`] (which answers as [`movement::entry`]
    /// from any hex but for the wall rules).
    fn step_into_clear(
        &self,
        s: &State,
        (at, k, next): (Hex, usize, Hex),
        sea: bool,
    ) -> Option<u32> {
        if sea {
            return None;
        }
        let known = self.into_clear.get(k)?;
        match known.get() {
            UNKNOWN => {
                let (r, d) = (&s.rules, &s.derived);
                let cost = match entry_into(r, d, &self.board, self.mover, (k, next), false, false)
                {
                    Entry::Open(c) => Some(c),
                    Entry::Closed => None,
                    // A Wall/Tower hex: asked of the plain rule.
                    Entry::Wall(..) => movement::entry(r, &self.board, self.mover, at, next).ok(),
                };
                known.set(cost.map_or(PROHIBITED, |c| c + COST));
                cost
            }
            PROHIBITED => None,
            c => Some(c - COST),
        }
    }
}

/// [`Ground::into_clear`]: not yet asked.
const UNKNOWN: u32 = 0;
/// [`Ground::into_clear`]: prohibited.
const PROHIBITED: u32 = 1;
/// [`Ground::into_clear`]: a cost, stored plus this.
const COST: u32 = 2;
/// [`Ground::beside`]: no Moslem combat unit stands beside the hex.
const NOT_BESIDE: u32 = 1;
/// [`Ground::beside`]: a Moslem combat unit stands beside the hex.
const BESIDE: u32 = 2;

/// Acre 15.21: the straight lines of four Clear hexes a charge may end with, from `first`
/// (of grid index `k`, reached at `cost`; `held`: the unit starts there in an enemy zone of
/// control, so its first step may not be into another, 6.22): `found_line` each line's last
/// hex with its grid index, and its hexes, where the unit may end its move beside a Moslem
/// combat unit (a line ending beside none charges no one). The lines run on
/// the map's grid indices ([`Derived::adjacent`], [`Derived::classes`],
/// [`Derived::sea_sides`]), in the order of [`crate::map::Map::neighbours`].
fn charge_lines(
    s: &State,
    ground: &Ground,
    (first, k, cost): (Hex, usize, u32),
    held: bool,
    mut found_line: impl FnMut((Hex, usize), &[Hex]),
) {
    /// Acre 15.21: Clear hexes in a straight line.
    const RUN: usize = 4;
    let d = &s.derived;
    for (way, dir) in hexgrid::Direction::ALL.into_iter().enumerate() {
        // The line's last hex: with no Moslem unit beside it the line charges no one
        // (15.21), so the line is not walked at all.
        let last = (0..RUN).try_fold(k, |at, _| match d.adjacent[at][way] {
            OFF_MAP => None,
            there => Some(usize::from(there)),
        });
        if !last.is_some_and(|end| ground.beside_moslem(s, end)) {
            continue;
        }
        let mut line = [first; RUN];
        let (mut at, mut here) = (first, k);
        let mut spent = cost;
        let mut ok = true;
        for (i, step) in line.iter_mut().enumerate() {
            let there = d.adjacent[here][way];
            if there == OFF_MAP {
                ok = false;
                break;
            }
            let there = usize::from(there);
            let next = at + dir;
            // Clear, not stopped short by a zone of control, then the cost (the cheap
            // questions first).
            let stops = i + 1 < RUN && ground.enemy_zoc[there];
            let starts_held = i == 0 && held && ground.enemy_zoc[there];
            if d.classes[there] != Class::Clear || stops || starts_held {
                ok = false;
                break;
            }
            // 6.12: never across an all-sea hexside.
            let sea = d.sea_sides[here] & 1 << way != 0;
            let Some(c) = ground.step_into_clear(s, (at, there, next), sea) else {
                ok = false;
                break;
            };
            spent += c;
            *step = next;
            (at, here) = (next, there);
        }
        let ends = ok && ground.ender.may_end_at(&ground.board, here);
        if ends && spent <= ground.budget {
            found_line((at, here), &line);
        }
    }
}

/// Whether the piece may end its move in `hex` (5.13, 5.5, 15.11, 15.14, 5.16).
fn may_end(s: &State, moved: &Board, piece: Piece, hex: Hex, strategic: bool) -> bool {
    let r = &s.rules;
    let side = s.side_of_piece(piece);
    let ok = match piece {
        Piece::Unit(u) => movement::may_end_in(r, moved, u, hex),
        Piece::Leader(_) => moved.leader_at(hex).is_none(),
        // 5.13, 15.14: one siege unit a hex, never with friendly cavalry.
        Piece::Siege(_) => {
            moved.siege_at(hex).is_none()
                && moved.unit_at(hex).is_none_or(|u| !r.unit_type(u).cavalry)
        }
    };
    if !ok {
        return false;
    }
    if !strategic {
        return true;
    }
    match side {
        // 5.16: between the outerworks and the foss, not within four hexes of the foss.
        Side::Crusader => s.derived.crusader_ground.contains(&hex),
        // 5.16, 4.0 1.B: on or within the walls; never into the foss.
        Side::Moslem => r.map.in_acre(hex) && r.map.class(hex) != Class::Foss,
    }
}

/// The movement search asked of the rules hex by hex with [`hexgrid::search`]: the plain
/// rules that the searches above stand for, kept for the tests to hold them to.
pub mod plain {
    use std::collections::BTreeMap;

    use hexgrid::{search, Hex};

    use super::may_end;
    use crate::intervention::ENTRY_COST;
    use crate::map::Class;
    use crate::movement::{self, Mover};
    use crate::position::{Board, Location, Pieces};
    use crate::retreat;
    use crate::rules::{Side, SiegeKind};
    use crate::setup::Piece;
    use crate::state::State;
    use crate::zoc;

    /// A node of the movement search: off the map (an army unit about to enter) or a hex.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum Node {
        Off,
        At(Hex),
    }

    /// A movement search made: what moved, from where, with what allowance, and every node it
    /// reached with its cheapest cost.
    struct Searched {
        /// The position without the moving piece.
        moved: crate::Position,
        start: Node,
        mover: Mover,
        budget: u32,
        reached: hexgrid::Reached<Node>,
    }

    /// The movement search of a combat unit or leader (not a siege unit).
    fn search_moves(s: &State, piece: Piece, strategic: bool) -> Option<Searched> {
        let r = &s.rules;
        let side = s.side_of_piece(piece);
        let enemy = side.enemy();
        let mut moved = s.pos.clone();
        let (start, mover, budget) = match piece {
            Piece::Unit(u) => {
                moved.units[u].at = Location::OffMap;
                let at = s.pos.units[u].at;
                let budget = if at == Location::OffMap {
                    2 * u32::from(r.units[u].movement)
                } else {
                    movement::allowance(r, &Board::new(r, &s.pos), u, strategic, s.conrad)
                };
                (at, Mover::unit(r, u), budget)
            }
            Piece::Leader(l) => {
                moved.leaders[l].at = Location::OffMap;
                let ma = 2 * u32::from(r.leaders[l].movement);
                let mover = Mover::piece(side);
                (
                    s.pos.leaders[l].at,
                    mover,
                    if strategic { 2 * ma } else { ma },
                )
            }
            Piece::Siege(e) => {
                // 12.11: a siege tower moves by itself in the Assault Phase.
                if strategic || r.siege[e].kind != SiegeKind::SiegeTower {
                    return None;
                }
                moved.siege[e].at = Location::OffMap;
                let mover = Mover::piece(side);
                (s.pos.siege[e].at, mover, 2 * u32::from(r.siege[e].movement))
            }
        };
        let tower = matches!(piece, Piece::Siege(_));
        let start = match start {
            Location::Map(h) => Node::At(h),
            Location::OffMap => Node::Off,
            _ => return None,
        };
        let board = Board::new(r, &moved);
        let starts_controlled = match start {
            Node::At(h) => zoc::controlled(r, &board, h, enemy),
            Node::Off => false,
        };
        // 9.24: no road rates the Game-Turn after a Retreat result.
        let no_road = match piece {
            Piece::Unit(u) => {
                !retreat::may_use_road_rates(s.retreated_on.get(&u).copied(), s.turn.turn)
            }
            _ => false,
        };
        let reached = search(
            start,
            budget,
            |&n, out| match n {
                Node::Off => {
                    for &h in &s.derived.entry {
                        if board.side_at(r, h).is_none() && moved.effects(r, h).cost.is_some() {
                            out.push((Node::At(h), ENTRY_COST));
                        }
                    }
                }
                Node::At(h) => {
                    for next in r.map.neighbours(h) {
                        if Node::At(h) == start
                            && starts_controlled
                            && zoc::controlled(r, &board, next, enemy)
                        {
                            continue;
                        }
                        // 12.11, 12.12: a tower keeps to the ground between the outerworks and
                        // the foss, never into an unfilled foss hex.
                        if tower
                            && (!s.derived.between.contains(&next) || moved.unfilled_foss(r, next))
                        {
                            continue;
                        }
                        if let Ok(c) = movement::entry(r, &board, mover, h, next) {
                            let c = if no_road {
                                movement::without_road_rates(r, next, c)
                            } else {
                                c
                            };
                            out.push((Node::At(next), c));
                        }
                    }
                }
            },
            |&n| match n {
                Node::At(h) => !zoc::controlled(r, &board, h, enemy),
                Node::Off => true,
            },
        );
        drop(board);
        Some(Searched {
            moved,
            start,
            mover,
            budget,
            reached,
        })
    }

    impl Searched {
        /// The hexes entered on the cheapest way to `node`, in order, the start left out.
        fn path(&self, node: Node) -> Vec<Hex> {
            self.reached
                .path_to(&node)
                .into_iter()
                .filter_map(|n| match n {
                    Node::At(x) if Node::At(x) != self.start => Some(x),
                    _ => None,
                })
                .collect()
        }
    }

    /// Acre 5.17, 12.23, 12.34: where a siege unit is relocated in the Strategic Movement
    /// Segment (it is not moved), in the map's order.
    fn relocations(s: &State, e: usize) -> impl Iterator<Item = Hex> + '_ {
        s.rules
            .map
            .grid
            .hexes()
            .filter(move |&h| Location::Map(h) != s.pos.siege[e].at)
            .filter(move |&h| s.may_deploy_siege(e, h))
    }

    /// The search of a piece's move and the hexes it may end in, in the order the search
    /// settled them (5.13, 5.5, 15.11, 15.14, 5.16).
    fn ends(s: &State, piece: Piece, strategic: bool) -> Option<(Searched, Vec<Hex>)> {
        let found = search_moves(s, piece, strategic)?;
        let board = Board::new(&s.rules, &found.moved);
        let ends = found
            .reached
            .iter()
            .filter_map(|(node, _)| match node {
                Node::At(h) if node != found.start && may_end(s, &board, piece, h, strategic) => {
                    Some(h)
                }
                _ => None,
            })
            .collect();
        drop(board);
        Some((found, ends))
    }

    /// Every hex the piece may end its move in, with the hexes entered on the way (the
    /// destination last). `strategic` is the Strategic Movement Segment (5.16, 5.17).
    pub fn destinations(s: &State, piece: Piece, strategic: bool) -> BTreeMap<Hex, Vec<Hex>> {
        if let (Piece::Siege(e), true) = (piece, strategic) {
            return relocations(s, e).map(|h| (h, vec![h])).collect();
        }
        let Some((found, ends)) = ends(s, piece, strategic) else {
            return BTreeMap::new();
        };
        ends.into_iter()
            .map(|h| (h, found.path(Node::At(h))))
            .collect()
    }

    /// Acre 15.21, 15.22, 15.24: the charges a Crusader knight cavalry unit may make in a
    /// Crusader Movement Segment of the Assault Phase: each hex it may end in next to a Moslem
    /// combat unit, reached by a legal move whose last four hexes are Clear and in one straight
    /// line ([`crate::cavalry::is_charge`]), with the target's hex and the path of the move. The
    /// line may begin wherever the unit can stand (its start included); it does not stop in an
    /// enemy zone of control before its last hex (6.21).
    pub fn charges(s: &State, unit: usize) -> BTreeMap<(Hex, Hex), Vec<Hex>> {
        /// Acre 15.21: Clear hexes in a straight line.
        const RUN: usize = 4;
        let r = &s.rules;
        let mut out = BTreeMap::new();
        let ty = r.unit_type(unit);
        if r.side_of(unit) != Side::Crusader || !ty.cavalry || !ty.knight {
            return out;
        }
        let Some(found) = search_moves(s, Piece::Unit(unit), false) else {
            return out;
        };
        let enemy = Side::Moslem;
        let board = Board::new(r, &found.moved);
        for (node, cost) in found.reached.iter() {
            let Node::At(first) = node else { continue };
            // The line runs on from here only if the unit could move on from here.
            if node != found.start && zoc::controlled(r, &board, first, enemy) {
                continue;
            }
            for dir in r
                .map
                .neighbours(first)
                .filter_map(|n| first.direction_to(n))
            {
                let mut line = Vec::with_capacity(RUN);
                let mut at = first;
                let mut spent = cost;
                let mut ok = true;
                for i in 0..RUN {
                    let next = at + dir;
                    let step = movement::entry(r, &board, found.mover, at, next);
                    let stops = i + 1 < RUN && zoc::controlled(r, &board, next, enemy);
                    let starts_held = i == 0
                        && node == found.start
                        && zoc::controlled(r, &board, first, enemy)
                        && zoc::controlled(r, &board, next, enemy);
                    match step {
                        Ok(c) if !stops && !starts_held && r.map.class(next) == Class::Clear => {
                            spent += c;
                            line.push(next);
                            at = next;
                        }
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok || spent > found.budget || !may_end(s, &board, Piece::Unit(unit), at, false)
                {
                    continue;
                }
                let mut path = found.path(node);
                if path.iter().any(|h| line.contains(h)) {
                    continue;
                }
                path.extend(line.iter().copied());
                for target in r.map.neighbours(at) {
                    let charge = crate::cavalry::is_charge(r, &s.pos, unit, &path, target).is_ok();
                    let unit_there = s.pos.unit_at(target).is_some();
                    if charge && unit_there {
                        out.entry((at, target)).or_insert_with(|| path.clone());
                    }
                }
            }
        }
        out
    }
}
