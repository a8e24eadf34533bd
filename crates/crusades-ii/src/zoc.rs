//! 6.0 Facing and Zones of Control, and the terrain questions they share with movement:
//! which hexsides are a unit's front, flank and rear, and which hexes an enemy controls.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use engine::Seat;
use hexgrid::{facing_arc, Arc as FacingArc, Direction, Hex};

use crate::scenario::{BattleIdentity, HalfPoints, MoveClass, UnitId, OFF_GRID};
use crate::state::State;

impl State {
    /// The movement class of a unit (8.2): its type's column.
    pub fn move_class(&self, u: UnitId) -> MoveClass {
        self.battle.utype(u).move_class
    }

    /// The cost in half points of entering `to` from `from` (adjacent, in direction `dir`) for a
    /// movement class, or `None` if not allowed (8.2). Entering along a road uses the road's
    /// cost and ignores the hexside ("it must move along the road", 8.2).
    pub fn entry_cost(&self, class: MoveClass, from: Hex, dir: Direction) -> Option<HalfPoints> {
        self.battle.map.step(class, from, dir)
    }

    /// The cost in half points of entering a hex for a class, by its terrain alone.
    pub fn terrain_cost(&self, class: MoveClass, hex: Hex) -> Option<HalfPoints> {
        let info = self.battle.map.info(hex);
        self.battle.tables.terrains[info.terrain as usize]
            .cost
            .of(class)
    }

    /// Whether a hexside and the hex beyond it can be crossed by a class at all (6.22, 9.5).
    pub fn passable(&self, class: MoveClass, from: Hex, dir: Direction) -> bool {
        self.entry_cost(class, from, dir).is_some()
    }

    /// Whether a unit has facing and a zone of control: not skirmishers (6.14), not routed
    /// (6.21).
    pub fn has_zoc(&self, u: UnitId) -> bool {
        !self.skirmisher(u) && !self.unit(u).routed && self.hex(u).is_some()
    }

    /// The arc (front, flank, rear) of a unit's hexside in direction `dir` (6.11); skirmishers
    /// have every hexside as front (6.14).
    pub fn arc(&self, u: UnitId, dir: Direction) -> FacingArc {
        if self.skirmisher(u) {
            FacingArc::Front
        } else {
            facing_arc(self.unit(u).facing, dir)
        }
    }

    /// Whether unit `u` exerts its ZOC into the neighbouring hex in direction `dir` (6.2):
    /// facing decides it (6.13), through front and flank hexsides (6.21), not where it could
    /// not move (6.22).
    pub fn exerts_zoc(&self, u: UnitId, dir: Direction) -> bool {
        let Some(h) = self.hex(u) else { return false };
        self.has_zoc(u)
            && self.arc(u, dir) != FacingArc::Rear
            && self.passable(self.move_class(u), h, dir)
    }

    /// The hexes in the ZOC of `side`'s combat units, as a dense flag per map hex.
    pub fn zoc_of(&self, side: Seat) -> Vec<bool> {
        let map = &self.battle.map;
        let mut zoc = vec![false; map.grid.len()];
        for u in self.on_map(side) {
            // [`State::exerts_zoc`] in each direction, with the map's tables.
            let Some(i) = self.hex(u).and_then(|h| map.index_of(h)) else {
                continue;
            };
            if !self.has_zoc(u) {
                continue;
            }
            let steps = &map.step_cost[self.move_class(u).index()][i];
            for (k, &d) in Direction::ALL.iter().enumerate() {
                let to = map.neighbour[i][k];
                if to != OFF_GRID && steps[k].is_some() && self.arc(u, d) != FacingArc::Rear {
                    zoc[to as usize] = true;
                }
            }
        }
        zoc
    }

    /// The side of each hex's first combat unit in id order (as [`State::occupant`] finds
    /// it), by grid index.
    pub(crate) fn first_occupants(&self) -> Vec<Option<Seat>> {
        let map = &self.battle.map;
        let mut occupant: Vec<Option<Seat>> = vec![None; map.grid.len()];
        for u in self.unit_ids() {
            if let Some(i) = self.hex(u).and_then(|h| map.index_of(h)) {
                occupant[i].get_or_insert(self.side(u));
            }
        }
        occupant
    }

    /// Whether a hex is in a ZOC of the enemies of `side`.
    pub fn in_enemy_zoc(&self, side: Seat, hex: Hex) -> bool {
        let enemy = self.battle.enemy(side);
        // Some enemy unit next to the hex exerts its ZOC across the hexside between (one pass
        // over the units, no stack listed).
        self.units.iter().enumerate().any(|(e, st)| {
            let crate::state::Loc::Map(at) = st.loc else {
                return false;
            };
            // The side across which `at` lies, if next to the hex.
            self.battle.units[e].side == enemy
                && hex
                    .direction_to(at)
                    .is_some_and(|d| self.exerts_zoc(e as UnitId, d.opposite()))
        })
    }

    /// Enemy units adjacent to a hex.
    pub fn adjacent_enemies(&self, side: Seat, hex: Hex) -> Vec<UnitId> {
        let enemy = self.battle.enemy(side);
        self.on_map(enemy)
            .filter(|&e| self.hex(e).is_some_and(|h| h.distance(hex) == 1))
            .collect()
    }

    /// Whether the flag map `zoc` marks `hex`.
    pub fn zoc_at(&self, zoc: &[bool], hex: Hex) -> bool {
        self.battle.map.index_of(hex).is_some_and(|i| zoc[i])
    }
}

/// What every decision of a phase asks about the map, worked out once per question and never
/// stored: who occupies each hex, each side's zones of control, and each hex's distance to
/// each side's nearest combat unit. Indexed by the map grid's dense index. The zones and
/// distances of a side are worked out when first asked for (a Movement Phase asks only
/// about the enemy's), from any state whose units stand as the situation's did.
pub struct Situation {
    /// The owner of the combat units in each hex.
    pub occupant: Vec<Option<Seat>>,
    /// The zones and distances of each seat's units (`sides[s]`), shared with every
    /// situation whose units of that seat stand the same ([`Recent`]).
    sides: [OnceCell<Rc<SideAnalysis>>; 2],
    /// Each unit's standing, as [`State::situation_key`] writes it: all the situation
    /// depends on.
    key: Vec<u32>,
}

/// What the map analysis asks about one side's units alone: they depend only on where that
/// side's units stand, their facings and routs, so that they outlive moves of the other
/// side (in a Movement Phase the enemy's stay put while the phasing player's move).
#[derive(Default)]
struct SideAnalysis {
    /// `zoc[i]`: hex `i` lies in a ZOC of the side's units.
    zoc: OnceCell<Vec<bool>>,
    /// `near[i]`: distance from hex `i` to the nearest combat unit of the side on the map.
    near: OnceCell<Vec<u32>>,
}

impl Situation {
    /// Each unit's standing (three words each, in id order) that the situation is of.
    pub(crate) fn key(&self) -> &[u32] {
        &self.key
    }

    fn index(state: &State, h: Hex) -> Option<usize> {
        state.battle.map.index_of(h)
    }

    /// The owner of the combat units in a hex.
    pub fn occupant(&self, state: &State, h: Hex) -> Option<Seat> {
        Self::index(state, h).and_then(|i| self.occupant[i])
    }

    /// The analysis of `side`'s units (from the thread's cache when they stand as before).
    fn side(&self, state: &State, side: Seat) -> &SideAnalysis {
        self.sides[side.index()].get_or_init(|| state.side_analysis(side))
    }

    /// Whether each hex (by grid index) lies in a ZOC of `side`'s units.
    pub fn zoc(&self, state: &State, side: Seat) -> &[bool] {
        self.side(state, side)
            .zoc
            .get_or_init(|| state.zoc_of(side))
    }

    /// Each hex's distance (by grid index) to the nearest combat unit of `side` on the map.
    pub fn near(&self, state: &State, side: Seat) -> &[u32] {
        self.side(state, side)
            .near
            .get_or_init(|| state.distances_to(side))
    }

    /// Whether a hex lies in a ZOC of `side`'s units.
    pub fn zoc_of(&self, state: &State, side: Seat, h: Hex) -> bool {
        Self::index(state, h).is_some_and(|i| self.zoc(state, side)[i])
    }

    /// Distance from a hex to the nearest combat unit of `side`.
    pub fn distance_to(&self, state: &State, side: Seat, h: Hex) -> u32 {
        Self::index(state, h)
            .map(|i| self.near(state, side)[i])
            .unwrap_or(u32::MAX)
    }
}

/// Values worked out lately on this thread, by the battle and a key holding all they depend
/// on, the newest last: one decision asks for the same one several times (the phase's
/// actions, then the action's check), and a search comes back to the same positions.
struct Recent<V> {
    /// (battle, key, value), the battle by its [`BattleIdentity`] number: an entry of another
    /// battle never matches, even one at the same address.
    entries: Vec<(u64, Vec<u32>, Rc<V>)>,
    /// The key asked about, written here (no allocation unless it is new).
    asked: Vec<u32>,
}

/// How many values of each kind a thread keeps.
const RECENT: usize = 4;

impl<V> Recent<V> {
    const fn new() -> Self {
        Recent {
            entries: Vec::new(),
            asked: Vec::new(),
        }
    }

    /// The value kept for `battle` and the key `key` writes, or `work_out`'s, kept from now on.
    fn get_or_work_out(
        &mut self,
        battle: &BattleIdentity,
        key: impl FnOnce(&mut Vec<u32>),
        work_out: impl FnOnce() -> V,
    ) -> Rc<V> {
        self.get_or_derive(battle, key, |_, _| work_out())
    }

    /// [`Recent::get_or_work_out`], `work_out` handed the key asked about and the newest value
    /// kept for `battle` with its key, if any (to derive the new value from).
    fn get_or_derive(
        &mut self,
        battle: &BattleIdentity,
        key: impl FnOnce(&mut Vec<u32>),
        work_out: impl FnOnce(&[u32], Option<(&[u32], &V)>) -> V,
    ) -> Rc<V> {
        let battle = battle.get();
        self.asked.clear();
        key(&mut self.asked);
        // Newest first: a decision asks again for what it asked last. (Keys of a battle are
        // unique: the one found is the one found oldest first.)
        if let Some(k) = self
            .entries
            .iter()
            .rposition(|(b, k, _)| *b == battle && *k == self.asked)
        {
            let value = Rc::clone(&self.entries[k].2);
            if k + 1 != self.entries.len() {
                let entry = self.entries.remove(k);
                self.entries.push(entry);
            }
            return value;
        }
        let newest = self
            .entries
            .iter()
            .rev()
            .find(|(b, ..)| *b == battle)
            .map(|(_, k, v)| (&k[..], &**v));
        let value = Rc::new(work_out(&self.asked, newest));
        if self.entries.len() >= RECENT {
            self.entries.remove(0);
        }
        self.entries
            .push((battle, self.asked.clone(), Rc::clone(&value)));
        value
    }
}

thread_local! {
    /// Situations, by the units' places, facings and routs (all a [`Situation`] depends on).
    static SITUATIONS: RefCell<Recent<Situation>> = const { RefCell::new(Recent::new()) };
    /// One side's analyses, by the side and its units' places, facings and routs (all a
    /// [`SideAnalysis`] depends on): a move of one side leaves the other's as it was.
    static SIDES: RefCell<Recent<SideAnalysis>> = const { RefCell::new(Recent::new()) };
}

impl State {
    /// How a unit stands, for the caches' keys: its place (the hex's coordinates, not looked
    /// up on the map), facing and rout, as three words.
    fn standing(u: &crate::state::Unit) -> [u32; 3] {
        let (place, q, r) = match u.loc {
            crate::state::Loc::Waiting => (0, 0, 0),
            crate::state::Loc::Eliminated => (1, 0, 0),
            crate::state::Loc::Map(h) => (2, h.q, h.r),
        };
        [
            q as u32,
            r as u32,
            place << 4 | u32::from(u.facing.index()) << 1 | u32::from(u.routed),
        ]
    }

    /// What a [`Situation`] depends on, exactly: each unit's place, facing and rout, written
    /// to `key`.
    fn situation_key(&self, key: &mut Vec<u32>) {
        key.resize(3 * self.units.len(), 0);
        for (k, u) in key.chunks_exact_mut(3).zip(&self.units) {
            k.copy_from_slice(&Self::standing(u));
        }
    }

    /// What a [`SideAnalysis`] of `side` depends on, exactly: the side, then the place,
    /// facing and rout of each of its units, written to `key`.
    fn side_key(&self, side: Seat, key: &mut Vec<u32>) {
        key.push(side.index() as u32);
        for (u, _) in self
            .units
            .iter()
            .zip(&self.battle.units)
            .filter(|(_, d)| d.side == side)
        {
            key.extend(Self::standing(u));
        }
    }

    /// The analysis of `side`'s units now, shared ([`Recent`]).
    fn side_analysis(&self, side: Seat) -> Rc<SideAnalysis> {
        SIDES.with(|cache| {
            cache.borrow_mut().get_or_work_out(
                &self.battle.identity,
                |key| self.side_key(side, key),
                SideAnalysis::default,
            )
        })
    }

    /// `f` of the hexes in the ZOC of `side`'s combat units ([`State::zoc_of`]), kept from
    /// earlier questions while those units stand as they did ([`Recent`]).
    pub fn with_zoc<R>(&self, side: Seat, f: impl FnOnce(&[bool]) -> R) -> R {
        let analysis = self.side_analysis(side);
        f(analysis.zoc.get_or_init(|| self.zoc_of(side)))
    }

    /// The [`Situation`] now (shared: recently worked out ones are kept, see
    /// [`Recent`]).
    pub fn situation(&self) -> Rc<Situation> {
        SITUATIONS.with(|cache| {
            cache.borrow_mut().get_or_derive(
                &self.battle.identity,
                |key| self.situation_key(key),
                |key, newest| match newest {
                    Some((old_key, old)) => self.derived_situation(key, old_key, old),
                    None => self.work_out_situation(key),
                },
            )
        })
    }

    /// The [`Situation`] of the units standing as `key` says ([`State::situation_key`]),
    /// derived from `old`, the one of the units standing as `old_key` says: only the hexes
    /// that a unit standing otherwise left or entered are looked at again, and each side's
    /// analysis is shared when all its units stand as they did. Worked out afresh when many
    /// units stand otherwise.
    fn derived_situation(&self, key: &[u32], old_key: &[u32], old: &Situation) -> Situation {
        /// The most hexes looked at again; more, and the situation is worked out afresh.
        const MOST: usize = 8;
        let map = &self.battle.map;
        if key.len() != old_key.len() || old.occupant.len() != map.grid.len() {
            return self.work_out_situation(key);
        }
        // The place of a unit on the map, from its key ([`State::standing`]): its hex's
        // coordinates.
        let place = |k: &[u32]| (k[2] >> 4 == 2).then_some([k[0], k[1]]);
        let mut changed = [false; 2];
        let mut places = [[0; 2]; MOST];
        let mut n = 0;
        // Eight units at a time: most stand as they did.
        const BLOCK: usize = 3 * 8;
        for (b, (new, was)) in key.chunks(BLOCK).zip(old_key.chunks(BLOCK)).enumerate() {
            if new == was {
                continue;
            }
            for (k, (new, was)) in new.chunks_exact(3).zip(was.chunks_exact(3)).enumerate() {
                if new == was {
                    continue;
                }
                let side = self.battle.units[b * BLOCK / 3 + k].side;
                if let Some(c) = changed.get_mut(side.index()) {
                    *c = true;
                }
                for p in [place(was), place(new)].into_iter().flatten() {
                    if !places[..n].contains(&p) {
                        if n == MOST {
                            return self.work_out_situation(key);
                        }
                        places[n] = p;
                        n += 1;
                    }
                }
            }
        }
        let places = &places[..n];
        let mut occupant = old.occupant.clone();
        // Each hex looked at again: as `work_out_situation` finds it, the side of its last
        // unit in id order.
        let index = |p: [u32; 2]| map.index_of(Hex::new(p[0] as i32, p[1] as i32));
        for &p in places {
            if let Some(i) = index(p) {
                occupant[i] = None;
            }
        }
        if n > 0 {
            for (k, def) in key.chunks_exact(3).zip(&self.battle.units) {
                // The cheap test first: most units stand elsewhere.
                if !places.iter().any(|p| p[0] == k[0] && p[1] == k[1]) || k[2] >> 4 != 2 {
                    continue;
                }
                if let Some(i) = index([k[0], k[1]]) {
                    occupant[i] = Some(def.side);
                }
            }
        }
        let sides: [OnceCell<Rc<SideAnalysis>>; 2] = Default::default();
        for (s, side) in sides.iter().enumerate() {
            if let Some(analysis) = old.sides[s].get().filter(|_| !changed[s]) {
                let _ = side.set(Rc::clone(analysis));
            }
        }
        Situation {
            occupant,
            sides,
            key: key.to_vec(),
        }
    }

    /// The [`Situation`] now worked out afresh, its zones and distances too, none of it
    /// taken from the thread's caches: the plain computation that the caches stand for
    /// (tests compare the two).
    pub fn fresh_situation(&self) -> Situation {
        let mut key = Vec::new();
        self.situation_key(&mut key);
        let sit = self.work_out_situation(&key);
        for side in &sit.sides {
            side.get_or_init(Rc::default);
        }
        sit
    }

    /// Works the [`Situation`] out from the units (its zones and distances when asked).
    fn work_out_situation(&self, key: &[u32]) -> Situation {
        let map = &self.battle.map;
        let mut occupant = vec![None; map.grid.len()];
        // Each unit with its definition (one pass, no unit looked up by id).
        for (st, def) in self.units.iter().zip(&self.battle.units) {
            if let Some(i) = st.loc.hex().and_then(|h| map.index_of(h)) {
                occupant[i] = Some(def.side);
            }
        }
        Situation {
            occupant,
            sides: Default::default(),
            key: key.to_vec(),
        }
    }

    /// Each hex's distance (by grid index) to the nearest combat unit of `side` on the map.
    fn distances_to(&self, side: Seat) -> Vec<u32> {
        let map = &self.battle.map;
        // Multi-source breadth-first search within the map: on a rectangular printed map a
        // shortest path between two of its hexes never needs to leave it (tested).
        let mut dist = vec![u32::MAX; map.grid.len()];
        let mut queue: Vec<u32> = Vec::with_capacity(map.grid.len());
        for u in self.unit_ids().filter(|&u| self.side(u) == side) {
            if let Some(i) = self.hex(u).and_then(|h| map.index_of(h)) {
                if dist[i] != 0 {
                    dist[i] = 0;
                    queue.push(i as u32);
                }
            }
        }
        let mut next = 0;
        while let Some(&i) = queue.get(next) {
            next += 1;
            let d = dist[i as usize];
            for &j in &self.battle.map.neighbour[i as usize] {
                // (`OFF_GRID` is beyond every map: `get_mut` skips it.)
                if let Some(dj) = dist.get_mut(j as usize).filter(|dj| **dj == u32::MAX) {
                    *dj = d + 1;
                    queue.push(j);
                }
            }
        }
        dist
    }
}
