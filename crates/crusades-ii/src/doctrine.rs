//! The doctrine of play for Crusades II: the `heuristic` player, and the guide of its
//! searches ([`ai::GuidedMcts`]). It scores each legal action of the seat to move from what
//! that seat may see: the map, every counter's position, facing, side shown and rout marker,
//! and its own command chits, never the enemy's (5.0: they are secret).
//!
//! What it does, with the rules it leans on:
//!
//! - **Set-up**: the historical deployment where offered (12.1-15.1), else each counter
//!   facing the enemy next to friends.
//! - **Orders** (5.1, 5.2): each leader's chit fits his command's situation: Advance while
//!   far from the enemy (5.12: full movement, must close), Attack when close at good odds
//!   (5.11: +1 attacking), Stand when close at poor odds (5.13: +1 defending, may still
//!   melee), Muster once his force is broken (5.16: span +1 helps rallying, 10.2); changes
//!   are tried once a phase where they differ; Crusader heavy cavalry under Attack tries to
//!   charge near the enemy (5.6); commands are never split (16.3).
//! - **Movement** (8.0): one counter at a time, the move that most improves its place:
//!   closer to the enemy for Attack and Advance, the enemy in the front arc (6.11, 6.21; a
//!   flank or rear attack gains +1, 9.4), next to friends, within the leader's command span
//!   (5.31, out of command units are crippled, 5.33), on defensive terrain (8.2), not next to
//!   a much stronger enemy; bowmen keep their range (9.11); routed units run from the enemy
//!   towards their leader to rally (5.5, 10.2). A move must gain something to be made, so
//!   counters do not wander; leaders stay with their commands and in a stack (4.2). The
//!   phase is ended once no counter has a move worth making, and not before, and a counter
//!   with none is not moved, so that a search the doctrine guides neither ends the phase
//!   early nor moves a counter for nothing.
//! - **Fire before melee** (9.1, 9.12, 9.13): every unit fires at its best target, except an
//!   offensive shot at an adjacent hex that would commit it to a bad melee (9.31).
//! - **Melee** (9.3-9.41): an attack is declared when the expected step losses it inflicts,
//!   with morale failures (10.0; a rout counts as full losses, 11.0), outweigh those it
//!   takes, by the Melee Table and every modifier the seat can see (command, leaders, flank,
//!   terrain, uphill, 16.2, 16.6); the defender's chit is unknown and counted as an average.
//!   Charging heavy cavalry pursues and attacks again at good odds (9.32 step 7).
//! - **The clock** (11.0; Hattin 12.1): a side that loses when the last turn ends with no
//!   victory roll won (Hattin's Crusaders: a marginal Muslim victory) must make the enemy's
//!   losses itself, so as the turns run out its attacking counters close in harder and its
//!   melees weigh the steps it takes less (at Hattin this lifted the doctrine's Crusaders
//!   from 32% to 58% of 300 games against random Muslims, and from 64% to 69% of 200 games
//!   against the doctrine's). Against an enemy that lets his army scatter (units marked
//!   out of command, 5.3, which may not close with ours nor leave our zones of control,
//!   5.33) it closes in harder still, in proportion (Hattin's Crusaders against random
//!   Muslims: 54% to 67% of 1,200 games; against the doctrine's, whose units keep in
//!   command, 64% either way), and its leaders go with the hunt, to two hexes of the enemy,
//!   so that the hunters stay in their command spans (5.31; 66% to 70% of 2,400 games
//!   against random Muslims, 61% to 62% against the doctrine's).
//! - **The roads at Nicopolis** (14.1): the Turk wins at the end only if his units in command
//!   cut every road from the Crusaders' camp to the town and to the north edge, so his
//!   units are drawn to the road hexes of the paths still open (and stay on those they
//!   cut), more as the turns run out (against random Crusaders 71% -> 80% of 200 games).
//! - **Retreats and withdrawals** (9.5, 10.0, 5.4, 9.32 step 3): away from the enemy,
//!   towards friends and the leader; skirmishers withdraw from the ZOC of formed troops,
//!   cavalry withdraws from a melee at poor odds.
//! - **Facing after melee** (6.12, 6.16): turn to face the enemy.
//! - **Action chits** (16.11): move the command that wants to close, fight with the command
//!   in contact; **optional victory** (16.5): fight on at the smallest price.

use std::cell::{Cell, OnceCell, RefCell};
use std::sync::Arc as Shared;

use ai::Policy;
use engine::Seat;
use hexgrid::{Arc, Direction, Hex, Vertex};

use crate::action::Action;
use crate::melee::odds_modifiers;
use crate::scenario::{Chit, CombatResult, LeaderId, UnitId, OFF_GRID};
use crate::state::{ActionKind, Loc, Phase, Pick, State};

/// The Crusades II doctrine, for `registry::register_with`.
#[derive(Clone, Copy, Debug)]
pub struct Doctrine;

impl ai::Doctrine<State> for Doctrine {
    fn policy() -> Option<Shared<dyn Policy<State>>> {
        Some(Shared::new(Tactics))
    }
}

/// The doctrine's scoring of actions (see the module's documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct Tactics;

impl Tactics {
    /// [`Policy::scores`] worked out afresh, keeping nothing from one selection to the next
    /// (tests/shortcuts.rs checks the kept best moves, [`KeptMoves`], against it).
    pub fn plain_scores(&self, state: &State, seat: Seat, legal: &[Action]) -> Vec<f64> {
        let view = Sight::new(state, seat);
        let mut scores: Vec<f64> = legal.iter().map(|a| view.score(a)).collect();
        only_moves_worth_making(legal, &mut scores);
        scores
    }
}

/// Movement (8.0): while the Movement Phase may be ended, the doctrine moves only counters
/// whose best move gains something (a selection scored above nothing) and ends the phase only
/// once none has. The end while a counter has a move worth making, and the selection of a
/// counter with none, are scored `f64::NEG_INFINITY`: the heuristic player, taking the best
/// score, never chose either, and a guided search then does not consider them. A search a few
/// decisions deep reads the evaluation at its leaves, before the moves left undone or the
/// move made for nothing would have told: it ended Hattin's Movement Phases early, leaving its
/// hunters short of contact, and moved every counter in the night turns where the doctrine
/// stands. Against the heuristic at Hattin, on the same 20 pairs of dice, the search won 14 of
/// 40 games barring only the early end (11 of 20 as the Crusaders, 3 of 20 as the Muslims),
/// 19 of 40 barring both (12 and 7); before either, 9 of 33 on the first 17 pairs.
fn only_moves_worth_making(legal: &[Action], scores: &mut [f64]) {
    let Some(end) = legal.iter().position(|a| matches!(a, Action::EndMovement)) else {
        return;
    };
    let valued = legal
        .iter()
        .zip(scores.iter())
        .any(|(a, &s)| !matches!(a, Action::EndMovement) && s > 0.0);
    if valued {
        scores[end] = f64::NEG_INFINITY;
    }
    for (a, s) in legal.iter().zip(scores.iter_mut()) {
        if matches!(a, Action::Select { .. } | Action::SelectLeader { .. }) && *s < 0.0 {
            *s = f64::NEG_INFINITY;
        }
    }
}

impl Policy<State> for Tactics {
    /// Each action scored as the module's documentation says. At a selection in the
    /// Movement Phase (8.0) a counter is worth its best move, and the best moves worked out at
    /// the seat's last selection are kept for those counters that the one move since cannot
    /// have changed ([`KeptMoves`]); the scores are those of [`Tactics::plain_scores`].
    fn scores(&self, state: &State, seat: Seat, legal: &[Action]) -> Vec<f64> {
        let view = Sight::new(state, seat);
        let selecting = state.phase == Phase::Movement
            && seat.index() < 2
            && legal.iter().any(|a| matches!(a, Action::Select { .. }));
        let mut scores: Vec<f64> = if !selecting {
            legal.iter().map(|a| view.score(a)).collect()
        } else {
            KEPT_MOVES.with(|kept| {
                let slots = &mut kept.borrow_mut()[seat.index()];
                // The kept position fewest units away (the latest of equals).
                let mut nearest: Option<(usize, usize)> = None;
                for (k, m) in slots.iter().enumerate() {
                    let fewer = nearest.map_or(usize::MAX, |(n, _)| n);
                    if let Some(n) = m.units_moved(&view, fewer) {
                        nearest = Some((n, k));
                        if n == 0 {
                            break;
                        }
                    }
                }
                let mut memo = match nearest {
                    Some((_, k)) => slots.remove(k),
                    None => {
                        if slots.len() >= KEPT_POSITIONS {
                            slots.pop();
                        }
                        KeptMoves::new(&view)
                    }
                };
                if !memo.refresh(&view) {
                    memo = KeptMoves::new(&view);
                }
                let scores = legal
                    .iter()
                    .map(|a| match a {
                        Action::Select { unit } => memo.best_move(&view, *unit),
                        Action::SelectLeader { leader } => memo.best_leader_move(&view, *leader),
                        _ => view.score(a),
                    })
                    .collect();
                slots.insert(0, memo);
                scores
            })
        };
        only_moves_worth_making(legal, &mut scores);
        scores
    }

    /// A planned search ([`ai::Mcts::planned`]) weighs the orders (5.1, 5.2: the chits that
    /// decide how every counter of a command may move and fight for the turn), the melees
    /// (9.3: which attacks to make, with the withdrawals, retreats and pursuits they bring),
    /// the action chits' activations (16.11) and a concession (16.5); the doctrine sets up,
    /// moves and fires.
    fn deliberates(&self, state: &State, _seat: Seat) -> bool {
        matches!(
            state.phase,
            Phase::Orders | Phase::Melee | Phase::Activation(_) | Phase::Concession(_)
        )
    }
}

thread_local! {
    /// Per seat: the best moves kept from the seat's last selection on this thread.
    static KEPT_MOVES: RefCell<[Vec<KeptMoves>; 2]> = const { RefCell::new([Vec::new(), Vec::new()]) };
}

/// The score of each counter's best move at a selection in the Movement Phase (8.0), kept for
/// the seat's next selection. Between two selections the side moves one counter (or puts it
/// back), and a counter's best move depends only on its own standing, every leader's, the
/// enemy's units, the phase, and the hexes its search reached and those next to them: its
/// destinations and the steps to them (8.0, 8.2; friends block a step, 7.0), and what the
/// doctrine weighs at each (the friends and enemies beside it, its distance from the enemy).
/// So a kept score holds while the units that moved since, leaving or entering a hex, left
/// and entered none of those hexes; anything else that changed (a leader, an enemy unit, the
/// turn, a reinforcement's entry costs, the road hexes the Turks hold or must take at
/// Nicopolis, 14.1) forgets them all. A reinforcement's moves (searched by states, which do
/// not tell the hexes reached) are not kept. Leaders' moves are kept as [`KeptLeader`].
struct KeptMoves {
    battle: u64,
    turn: usize,
    active: Seat,
    activation: Option<crate::state::Activation>,
    options: crate::options::Options,
    entries: Vec<(Hex, u8)>,
    holy_cross: Option<UnitId>,
    cross: crate::state::CrossState,
    /// Nicopolis 14.1, for the Turks: the road hexes as they were weighed.
    road_block: Option<RoadBlock>,
    /// Every unit and leader as they stood when the scores were kept.
    units: Vec<crate::state::Unit>,
    leaders: Vec<crate::state::Leader>,
    /// Per unit id: its best move's score, with the hexes its search reached (one bit per
    /// grid index, its own hex included), if kept.
    best: Vec<Option<(f64, Vec<u64>)>>,
    /// Per leader id: his moves, kept up to date as his command's units move.
    leader_best: Vec<Option<KeptLeader>>,
}

/// A leader's destinations, which depend on the enemy's units alone (8.3; a split leader's
/// are not kept, 16.3), each with the part of its worth his command's units make
/// ([`command_halves`]), brought up to date unit by unit as they move (whole numbers: the
/// same sums in any order). The rest of its worth (whether combat units stand there, the
/// enemy's distance) is read afresh each time.
#[derive(Clone)]
struct KeptLeader {
    destinations: Vec<Hex>,
    halves: Vec<i64>,
}

/// What one unit of a leader's command at `at` (routed or not) makes of his standing in
/// hex `h`, in half points (see [`Sight::leader_place_in`]): in span (5.31) +1, out of it
/// -1/2 a hex beyond; a routed unit in span +1/2 more, +1 if stacked with him (10.2: a
/// leader in span lets routed units rally; stacked with one, -1 to the roll).
fn command_halves(at: Hex, routed: bool, span: u32, h: Hex) -> i64 {
    let d = at.distance(h);
    if d > span {
        return -i64::from(d - span);
    }
    2 + match (routed, d) {
        (false, _) => 0,
        (true, 0) => 2,
        (true, _) => 1,
    }
}

impl KeptMoves {
    /// Nothing kept yet, for the Movement Phase seen by `view`.
    fn new(view: &Sight) -> Self {
        let s = view.s;
        KeptMoves {
            road_block: view.road_block().cloned(),
            battle: s.battle.identity.get(),
            turn: s.turn,
            active: s.active,
            activation: s.activation(),
            options: s.options,
            entries: s.entries.clone(),
            holy_cross: s.holy_cross,
            cross: s.holy_cross_state,
            units: s.units.clone(),
            leaders: s.leaders.clone(),
            best: vec![None; s.units.len()],
            leader_best: vec![None; s.leaders.len()],
        }
    }

    /// How many units stand otherwise than kept, if fewer than `fewer` and only the side's
    /// own units moved since (`None` otherwise, and if [`KeptMoves::refresh`] would forget
    /// everything).
    fn units_moved(&self, view: &Sight, fewer: usize) -> Option<usize> {
        let s = view.s;
        if !self.same_setting(view) {
            return None;
        }
        let mut moved = 0;
        for (u, (was, now)) in self.units.iter().zip(&s.units).enumerate() {
            if was != now {
                if s.battle.units[u].side != self.active {
                    return None;
                }
                moved += 1;
                if moved >= fewer {
                    return None;
                }
            }
        }
        Some(moved)
    }

    /// Whether everything but the units stands as kept.
    fn same_setting(&self, view: &Sight) -> bool {
        let s = view.s;
        self.battle == s.battle.identity.get()
            && self.road_block.as_ref() == view.road_block()
            && s.phase == Phase::Movement
            && self.turn == s.turn
            && self.active == s.active
            && self.activation == s.activation()
            && self.options == s.options
            && self.entries == s.entries
            && self.holy_cross == s.holy_cross
            && self.cross == s.holy_cross_state
            && self.units.len() == s.units.len()
            && self.same_leaders(s)
    }

    /// Brings what is kept up to the position `view` sees: forgets the best moves that what
    /// changed since may have changed, and brings the leaders' up to date. `false` if all
    /// must be forgotten.
    fn refresh(&mut self, view: &Sight) -> bool {
        let s = view.s;
        if !self.same_setting(view) {
            return false;
        }
        let grid = &s.battle.map.grid;
        // The hexes (grid indices) that a unit left or entered, or stands in changed.
        let mut changed: Vec<usize> = Vec::new();
        for (u, (was, now)) in self.units.iter_mut().zip(&s.units).enumerate() {
            if was == now {
                continue;
            }
            if s.battle.units[u].side != self.active {
                return false;
            }
            for h in [was.loc.hex(), now.loc.hex()].into_iter().flatten() {
                changed.extend(grid.index(h));
            }
            self.best[u] = None;
            let l = s.battle.units[u].leader;
            if let Some(kept) = self
                .leader_best
                .get_mut(l as usize)
                .and_then(Option::as_mut)
            {
                let span = s.span(l);
                for (&h, halves) in kept.destinations.iter().zip(&mut kept.halves) {
                    for (unit, sign) in [(&*was, -1), (now, 1)] {
                        if let Some(at) = unit.loc.hex() {
                            *halves += sign * command_halves(at, unit.routed, span, h);
                        }
                    }
                }
            }
            *was = now.clone();
        }
        if changed.is_empty() {
            return true;
        }
        let neighbours = &s.battle.map.neighbour;
        for kept in &mut self.best {
            let Some((_, reached)) = kept else { continue };
            let bit = |i: usize| reached.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1);
            let touched = changed.iter().any(|&i| {
                bit(i)
                    || neighbours[i]
                        .iter()
                        .any(|&n| n != OFF_GRID && bit(n as usize))
            });
            if touched {
                *kept = None;
            }
        }
        true
    }

    /// The score of leader `l`'s best move ([`Sight::best_move`]), from his destinations
    /// kept (worked out and kept if they were not).
    fn best_leader_move(&mut self, view: &Sight, l: LeaderId) -> f64 {
        let s = view.s;
        // 16.3: a split leader may go only where his cavalry stands, which moves: his
        // destinations are not kept.
        let split = s.leaders.get(l as usize).is_some_and(|st| st.split);
        let Some(slot) = self.leader_best.get_mut(l as usize).filter(|_| !split) else {
            return view.best_move(Pick::Leader(l));
        };
        let kept = slot.get_or_insert_with(|| {
            let destinations: Vec<Hex> =
                s.leader_destinations(l).into_iter().map(|d| d.0).collect();
            let halves = view.with_command(l, |c| {
                destinations
                    .iter()
                    .map(|&h| {
                        c.units
                            .iter()
                            .map(|&(at, routed)| command_halves(at, routed, c.span, h))
                            .sum()
                    })
                    .collect()
            });
            KeptLeader {
                destinations,
                halves,
            }
        });
        let (now, any) = view.with_command(l, |c| (c.now, !c.units.is_empty()));
        let mut best = NO_MOVE;
        for (&h, &halves) in kept.destinations.iter().zip(&kept.halves) {
            let place = view.leader_place_from(0.5 * halves as f64, h, any);
            best = f64::max(best, place - now - WANDER);
        }
        best
    }

    /// Whether every leader stands as kept, the enemy's chits aside: the doctrine never
    /// reads them (5.0), and a search or heuristic player re-samples them at each decision.
    fn same_leaders(&self, s: &State) -> bool {
        self.leaders.len() == s.leaders.len()
            && self
                .leaders
                .iter()
                .zip(&s.leaders)
                .enumerate()
                .all(|(l, (was, now))| {
                    if s.battle.leaders[l].side == self.active {
                        was == now
                    } else {
                        was.alike_but_chit(now)
                    }
                })
    }

    /// The score of unit `u`'s best move ([`Sight::best_move`]), kept if it was, else worked
    /// out (and kept if its search tells the hexes it reached).
    fn best_move(&mut self, view: &Sight, u: UnitId) -> f64 {
        if let Some((score, _)) = self.best.get(u as usize).and_then(Option::as_ref) {
            return *score;
        }
        let (score, reached) = view.best_unit_move(u);
        if let (Some(mut reached), Some(h)) = (reached, view.s.hex(u)) {
            if let Some(i) = view.s.battle.map.grid.index(h) {
                if reached.len() <= i / 64 {
                    reached.resize(i / 64 + 1, 0);
                }
                reached[i / 64] |= 1 << (i % 64);
                if let Some(slot) = self.best.get_mut(u as usize) {
                    *slot = Some((score, reached));
                }
            }
        }
        score
    }
}

/// The best of a unit's moves ([`Sight::movement`]) as they come, with the hexes their
/// searches reached.
///
/// Of the facings a move may end with in one hex, only the one the doctrine likes best
/// ([`Sight::facing_in`]) is scored: a move's score depends on its facing only through that
/// term, which [`Sight::place_value`] adds before any other that follows, the same for each
/// unit that moves, and a floating-point sum never falls when one of its terms rises. So
/// the best is the very number that scoring every facing finds.
struct BestOfMoves<'v, 'a> {
    view: &'v Sight<'a>,
    unit: UnitId,
    best: f64,
    /// The hexes reached, or `None` once a search did not tell.
    reached: Option<Vec<u64>>,
    /// The move being gathered (alone, the destination's terms), with its best facing so
    /// far and that facing's [`Sight::facing_in`].
    pending: Option<(bool, HexTerms, Vertex, f64)>,
}

impl BestOfMoves<'_, '_> {
    /// Scores the move gathered, if any.
    fn settle(&mut self) {
        if let Some((alone, t, facing, _)) = self.pending.take() {
            let score = self.view.movement_in(self.unit, alone, &t, facing);
            self.best = f64::max(self.best, score);
        }
    }
}

impl crate::movement::MoveSink for BestOfMoves<'_, '_> {
    fn room(&mut self, _: usize) {}

    fn take(&mut self, alone: bool, to: Hex, facing: Vertex) {
        match &mut self.pending {
            Some((a, t, f, v)) if *a == alone && t.hex == to => {
                let value = self.view.facing_in(t, facing);
                if value > *v {
                    (*f, *v) = (facing, value);
                }
            }
            _ => {
                self.settle();
                let t = self.view.terms(to);
                let value = self.view.facing_in(&t, facing);
                self.pending = Some((alone, t, facing, value));
            }
        }
    }

    fn entered(&mut self, _: Option<Hex>) {}

    /// A selection scores every waiting reinforcement's moves.
    fn keeps_entry_searches(&self) -> bool {
        true
    }

    fn reached(&mut self, hexes: Option<&[u64]>) {
        match (hexes, &mut self.reached) {
            (Some(h), Some(r)) => {
                if r.len() < h.len() {
                    r.resize(h.len(), 0);
                }
                for (r, h) in r.iter_mut().zip(h) {
                    *r |= h;
                }
            }
            _ => self.reached = None,
        }
    }
}

/// What a move must gain to be made: counters do not wander.
const WANDER: f64 = 0.35;

/// How many positions' best moves a thread keeps per seat ([`KeptMoves`]).
const KEPT_POSITIONS: usize = 32;

/// Hex distance to the nearest enemy, beyond which it no longer matters.
const FAR: u32 = 12;

/// The score of selecting a counter with no move, and of putting a selected counter back.
const NO_MOVE: f64 = -50.0;

/// The score of a counter still off the map: entering is always worth it.
const OFF_MAP_VALUE: f64 = -60.0;

/// How much harder a side pressed for time closes in on an enemy whose army is loose, a hex
/// at the end, for all his formed units out of command ([`Sight::looseness`]). At Hattin the
/// doctrine's Crusaders won 54% of 1,200 games against random Muslims (a third of whose units
/// are out of command in the morning) without it and 67% with it; against the doctrine's
/// Muslims (nearly none), 64% either way (seeds 21-26, 200 games each).
/// Its leaders are drawn to the enemy as hard, to two hexes of him ([`Sight::hunt`]).
const HUNT: f64 = 50.0;

/// The share of an enemy's formed units that may be out of command before his army counts
/// as loose ([`Sight::looseness`]): a few stragglers do not make it so.
const STRAGGLERS: f64 = 0.1;

/// Nicopolis 14.1: the side whose units must block the Crusaders' roads at the end (the
/// Turk, second seat, as [`State::end_of_game`] reads it).
const ROAD_BLOCKER: Seat = Seat(1);

/// Nicopolis 14.1: the worth of a road hex that helps block the Crusaders' roads, on the
/// last turn (less before, in proportion to the turns gone).
const ROAD_BLOCK: f64 = 6.0;

/// Nicopolis 14.1: how many hexes away a Turkish unit feels the pull of an open road.
const ROAD_PULL: u32 = 8;

/// Nicopolis 14.1: how many road steps longer than the shortest a path from the Crusaders'
/// camp to a goal may be for the Turks to block it too.
const ROAD_DETOUR: u32 = 12;

/// The situation as one seat sees it, worked out once per decision.
struct Sight<'a> {
    s: &'a State,
    me: Seat,
    foe: Seat,
    /// Per map hex (dense index): whether it holds or borders an enemy that is not routed
    /// nor a skirmisher (worked out when first asked for).
    formed_beside: OnceCell<Vec<bool>>,
    /// Who stands where (worked out when first asked for: weighing a melee, as the
    /// evaluation does at every leaf of a search, never asks).
    board: OnceCell<Board>,
    /// The rules' map analysis ([`State::situation`]), for the moves of counters.
    situation: OnceCell<std::rc::Rc<crate::zoc::Situation>>,
    /// Per facing ([`Vertex::index`]): the directions in its front and in its flank arcs
    /// (6.11), one bit per [`Direction::index`].
    arcs: &'static [(u8, u8); 6],
    /// Per map hex: its terms, once looked at (the moves of the counters of a side share
    /// their hexes: a counter's come hex by hex, a facing each).
    hex_terms: RefCell<Vec<Option<HexTerms>>>,
    /// The counter (unit and whether alone) whose moves were last scored, with what is
    /// worked out once for all its moves.
    last_mover: RefCell<Option<Moving>>,
    /// The leader whose moves were last scored, with his command's counters.
    last_leader: RefCell<Option<Command>>,
    /// The leader whose chits were last scored, with the chit he wants.
    last_wanted: Cell<Option<(LeaderId, Chit)>>,
    /// Nicopolis 14.1, for the Turks: per map hex, whether a Turkish unit in command there
    /// helps block the Crusaders' roads, with the weight of it now (worked out when first
    /// asked for; `None` for every other side and battle).
    road_block: OnceCell<Option<RoadBlock>>,
    /// [`Sight::looseness`], worked out when first asked for.
    loose: OnceCell<f64>,
}

/// Who stands where, per map hex (dense index), as the doctrine's side sees it.
struct Board {
    /// The side of the combat units there.
    occupant: Vec<Option<Seat>>,
    /// The strength of the enemy units there that are not routed.
    enemy_strength: Vec<f64>,
}

/// Per facing ([`Vertex::index`]): the directions in its front and in its flank arcs (6.11),
/// one bit per [`Direction::index`].
fn arcs() -> &'static [(u8, u8); 6] {
    static ARCS: std::sync::OnceLock<[(u8, u8); 6]> = std::sync::OnceLock::new();
    ARCS.get_or_init(|| {
        let mut arcs = [(0, 0); 6];
        for f in Vertex::ALL {
            for d in Direction::ALL {
                match f.arc_of(d) {
                    Arc::Front => arcs[f.index() as usize].0 |= 1 << d.index(),
                    Arc::Flank => arcs[f.index() as usize].1 |= 1 << d.index(),
                    _ => {}
                }
            }
        }
        arcs
    })
}

/// Nicopolis 14.1, for the Turks: the road hexes that would block the Crusaders' roads.
#[derive(Clone, PartialEq)]
struct RoadBlock {
    /// Per map hex: on a road path from the camp to a goal still open.
    open: Vec<bool>,
    /// Per map hex: held by a Turkish unit in command, on a road path from the camp to a goal.
    held: Vec<bool>,
    /// Per map hex: hexes to the nearest open one.
    to_open: Vec<u32>,
    /// The worth of holding such a hex now.
    weight: f64,
}

/// What the doctrine reads of one map hex, the same for every unit and facing there.
#[derive(Clone, Copy)]
struct HexTerms {
    hex: Hex,
    /// Distance to the nearest enemy combat unit (capped at [`FAR`]).
    enemy: u32,
    /// Directions (bits by [`Direction::index`]) whose neighbour is nearer the enemy (all six
    /// in an enemy's hex).
    towards: u8,
    /// Directions whose neighbour holds enemy combat units.
    foes: u8,
    /// Directions whose neighbour holds friendly combat units.
    friends: u8,
    /// [`Sight::terrain_value`] of the hex.
    terrain: f64,
    /// The strongest stack of enemies not routed next to the hex.
    theirs: f64,
}

/// A counter being moved (a unit, with its stack unless alone, 7.1), as its moves weigh it.
struct Moving {
    unit: UnitId,
    alone: bool,
    /// The hex a whole stack leaves empty.
    leaving: Option<Hex>,
    /// The units that move.
    members: Vec<Mover>,
}

/// One unit that moves: what [`Sight::place_value`] weighs of it wherever it goes.
struct Mover {
    /// Its hex, if on the map.
    at: Option<Hex>,
    routed: bool,
    skirmisher: bool,
    /// Its leader's hex and command span (5.31).
    leader_hex: Option<Hex>,
    span: u32,
    /// The range it keeps from the enemy (5.4, 9.11), or `None` if it closes in.
    ideal: Option<u32>,
    /// What each hex from the enemy costs when it closes in.
    closing: f64,
    /// The strength that moves with it (for the odds next to the enemy).
    mine: f64,
    /// The value of where it stands now.
    now: f64,
}

/// A leader being moved: his command's counters on the map.
struct Command {
    leader: LeaderId,
    span: u32,
    /// The hexes of his command's units on the map and whether each is routed, in id order.
    units: Vec<(Hex, bool)>,
    /// The value of where he stands now.
    now: f64,
}

/// Multi-source distances over the map grid (dense indices), by breadth-first search along
/// the map's neighbour table.
fn distance_field(s: &State, sources: impl Iterator<Item = Hex>) -> Vec<u32> {
    let map = &s.battle.map;
    let grid = &map.grid;
    let mut dist = vec![u32::MAX; grid.len()];
    let mut queue: Vec<u32> = Vec::with_capacity(grid.len());
    for h in sources {
        if let Some(i) = grid.index(h) {
            if dist[i] != 0 {
                dist[i] = 0;
                queue.push(i as u32);
            }
        }
    }
    let mut k = 0;
    while let Some(&i) = queue.get(k) {
        k += 1;
        let d = dist[i as usize] + 1;
        for &n in &map.neighbour[i as usize] {
            if n != OFF_GRID && dist[n as usize] == u32::MAX {
                dist[n as usize] = d;
                queue.push(n);
            }
        }
    }
    dist
}

/// Probability that a unit of this morale fails a check on a d10 (10.0: pass on a roll at
/// most the rating).
fn fails(morale: u8) -> f64 {
    f64::from(10u8.saturating_sub(morale.min(10))) / 10.0
}

impl<'a> Sight<'a> {
    fn new(s: &'a State, me: Seat) -> Self {
        Sight {
            s,
            me,
            foe: s.battle.enemy(me),
            formed_beside: OnceCell::new(),
            board: OnceCell::new(),
            situation: OnceCell::new(),
            arcs: arcs(),
            hex_terms: RefCell::new(Vec::new()),
            last_mover: RefCell::new(None),
            last_leader: RefCell::new(None),
            last_wanted: Cell::new(None),
            road_block: OnceCell::new(),
            loose: OnceCell::new(),
        }
    }

    /// [`Board`]: who stands where.
    fn board(&self) -> &Board {
        self.board.get_or_init(|| {
            let s = self.s;
            let grid = &s.battle.map.grid;
            let mut occupant = vec![None; grid.len()];
            let mut enemy_strength = vec![0.0; grid.len()];
            for u in s.unit_ids() {
                let Some(i) = s.hex(u).and_then(|h| grid.index(h)) else {
                    continue;
                };
                occupant[i] = Some(s.side(u));
                if s.side(u) == self.foe && !s.unit(u).routed {
                    enemy_strength[i] += f64::from(s.values(u).strength);
                }
            }
            Board {
                occupant,
                enemy_strength,
            }
        })
    }

    /// Nicopolis 14.1: the Turk wins at the end if his non-routed units in command occupy
    /// road hexes that cut every road path from the Crusaders' camp to the town and to the
    /// north edge. For the Turks, the road hexes worth holding: those on a path still open,
    /// and those on a path his units already cut; weighed more as the turns run out. Taken
    /// one counter at a time, the open paths' hexes draw his units until every path is cut.
    fn road_block(&self) -> Option<&RoadBlock> {
        self.road_block
            .get_or_init(|| {
                let s = self.s;
                if s.battle.at_end != crate::scenario::AtEnd::NicopolisRoadBlock
                    || self.me != ROAD_BLOCKER
                {
                    return None;
                }
                let map = &s.battle.map;
                let grid = &map.grid;
                let mut held = vec![false; grid.len()];
                for (u, in_command) in s.command_status(self.me) {
                    if let Some(i) = s.hex(u).filter(|_| in_command && !s.unit(u).routed) {
                        if let Some(i) = grid.index(i) {
                            held[i] = true;
                        }
                    }
                }
                let area = |n: &str| map.areas.get(n).cloned().unwrap_or_default();
                let starts = area("crusader_road_start");
                // Road steps from `from` to every hex, along roads, through hexes not `held`
                // (or through any, with `through_held`); `u32::MAX` where unreached.
                let steps = |from: &[Hex], through_held: bool| {
                    let mut dist = vec![u32::MAX; grid.len()];
                    let mut queue: std::collections::VecDeque<Hex> = Default::default();
                    for &h in from {
                        if let Some(i) = grid.index(h) {
                            if through_held || !held[i] {
                                dist[i] = 0;
                                queue.push_back(h);
                            }
                        }
                    }
                    while let Some(h) = queue.pop_front() {
                        let next = dist[grid.index(h).expect("queued on the map")] + 1;
                        for d in Direction::ALL {
                            let n = h.neighbour(d);
                            let Some(i) = grid.index(n) else { continue };
                            if map.road(h, d).is_some()
                                && dist[i] == u32::MAX
                                && (through_held || !held[i])
                            {
                                dist[i] = next;
                                queue.push_back(n);
                            }
                        }
                    }
                    dist
                };
                // On a road path from the camp to a goal no more than ROAD_DETOUR steps
                // longer than the shortest (dead ends and loops away from the goal are not).
                let on_path = |through_held: bool| {
                    let out = steps(&starts, through_held);
                    let mut on = vec![false; grid.len()];
                    for goal in ["road_goal_town", "north_edge"] {
                        let back = steps(&area(goal), through_held);
                        let length = |i: usize| out[i].saturating_add(back[i]);
                        let shortest = (0..grid.len()).map(length).min().unwrap_or(u32::MAX);
                        for (i, on) in on.iter_mut().enumerate() {
                            *on |= shortest != u32::MAX
                                && length(i) <= shortest.saturating_add(ROAD_DETOUR);
                        }
                    }
                    on
                };
                let open = on_path(false);
                let held: Vec<bool> = on_path(true)
                    .into_iter()
                    .zip(&held)
                    .map(|(on, &held)| on && held)
                    .collect();
                let to_open = distance_field(
                    s,
                    grid.hexes()
                        .enumerate()
                        .filter(|&(i, _)| open[i])
                        .map(|(_, h)| h),
                );
                let elapsed = (s.turn as f64 / s.battle.turns.len().max(1) as f64).min(1.0);
                Some(RoadBlock {
                    open,
                    held,
                    to_open,
                    weight: ROAD_BLOCK * elapsed,
                })
            })
            .as_ref()
    }

    /// The rules' map analysis ([`State::situation`], shared with the rules' own questions).
    /// How loose the enemy's army is, for a side pressed for time ([`Sight::urgency`]; 0
    /// for any other): the share of his formed units on the map (not routed, not
    /// skirmishers) marked out of command (5.3), less [`STRAGGLERS`], never below 0. Such
    /// units may not move next to ours nor leave our zones of control (5.33): an enemy that
    /// lets his army scatter can be caught piecemeal, and one that keeps it in hand cannot.
    fn looseness(&self) -> f64 {
        *self.loose.get_or_init(|| {
            if self.urgency() == 0.0 {
                return 0.0;
            }
            let s = self.s;
            let (mut formed, mut out) = (0u32, 0u32);
            for u in s.on_map(self.foe) {
                if !s.unit(u).routed && !s.skirmisher(u) {
                    formed += 1;
                    out += u32::from(s.unit(u).out_of_command);
                }
            }
            (f64::from(out) / f64::from(formed.max(1)) - STRAGGLERS).max(0.0)
        })
    }

    fn situation(&self) -> &crate::zoc::Situation {
        self.situation.get_or_init(|| self.s.situation())
    }

    /// Per map hex (dense index): distance to the nearest enemy combat unit, as the rules'
    /// map analysis has it (the same breadth-first search over the map's hexes).
    fn enemy_near(&self) -> &[u32] {
        self.situation().near(self.s, self.foe)
    }

    /// Whether hex `h` holds or borders a formed enemy: one not routed nor a skirmisher
    /// ([`Sight::formed_beside`]).
    fn beside_formed(&self, h: Hex) -> bool {
        let s = self.s;
        let map = &s.battle.map;
        let beside = self.formed_beside.get_or_init(|| {
            let mut beside = vec![false; map.grid.len()];
            for u in s.on_map(self.foe) {
                if s.unit(u).routed || s.skirmisher(u) {
                    continue;
                }
                let Some(i) = s.hex(u).and_then(|h| map.grid.index(h)) else {
                    continue;
                };
                beside[i] = true;
                for &n in &map.neighbour[i] {
                    if n != OFF_GRID {
                        beside[n as usize] = true;
                    }
                }
            }
            beside
        });
        map.grid.index(h).is_some_and(|i| beside[i])
    }

    /// The terms of hex `h` ([`HexTerms`]).
    fn terms(&self, h: Hex) -> HexTerms {
        let grid = &self.s.battle.map.grid;
        let Some(i) = grid.index(h) else {
            return self.work_out_terms(h, None);
        };
        let mut cache = self.hex_terms.borrow_mut();
        if cache.is_empty() {
            cache.resize(grid.len(), None);
        }
        *cache[i].get_or_insert_with(|| self.work_out_terms(h, Some(i)))
    }

    /// The terms of hex `h`, at grid index `at` if on the map.
    fn work_out_terms(&self, h: Hex, at: Option<usize>) -> HexTerms {
        let map = &self.s.battle.map;
        let enemy = self.enemy_distance(h);
        let enemy_near = self.enemy_near();
        let board = self.board();
        let mut t = HexTerms {
            hex: h,
            enemy,
            towards: 0,
            foes: 0,
            friends: 0,
            terrain: self.terrain_value(h),
            theirs: 0.0,
        };
        for d in Direction::ALL {
            let n = match at {
                Some(i) => Some(map.neighbour[i][d.index() as usize])
                    .filter(|&n| n != OFF_GRID)
                    .map(|n| n as usize),
                None => map.grid.index(h.neighbour(d)),
            };
            let bit = 1 << d.index();
            if n.map_or(FAR, |n| enemy_near[n].min(FAR)) < enemy || enemy == 0 {
                t.towards |= bit;
            }
            let Some(n) = n else { continue };
            match board.occupant[n] {
                Some(x) if x == self.foe => t.foes |= bit,
                Some(x) if x == self.me => t.friends |= bit,
                _ => {}
            }
            t.theirs = f64::max(t.theirs, board.enemy_strength[n]);
        }
        t
    }

    /// The side of the combat units in a hex, if any.
    fn occupant(&self, h: Hex) -> Option<Seat> {
        self.s
            .battle
            .map
            .grid
            .index(h)
            .and_then(|i| self.board().occupant[i])
    }

    /// Friendly stacks next to `h`, not counting the hex `leaving` (a stack moving away).
    fn friends_beside(&self, h: Hex, leaving: Option<Hex>) -> usize {
        self.friends_in(&self.terms(h), leaving)
    }

    /// [`Sight::friends_beside`] the hex of `t`.
    fn friends_in(&self, t: &HexTerms, leaving: Option<Hex>) -> usize {
        let mut friends = t.friends;
        if let Some(l) = leaving {
            for d in Direction::ALL {
                if friends & 1 << d.index() != 0 && t.hex.neighbour(d) == l {
                    friends &= !(1 << d.index());
                }
            }
        }
        friends.count_ones() as usize
    }

    fn near(&self, field: &[u32], h: Hex) -> u32 {
        self.s
            .battle
            .map
            .grid
            .index(h)
            .map_or(FAR, |i| field[i].min(FAR))
    }

    /// Distance from a hex to the nearest enemy combat unit (capped at [`FAR`]).
    fn enemy_distance(&self, h: Hex) -> u32 {
        self.near(self.enemy_near(), h)
    }

    /// The score of one legal action.
    fn score(&self, a: &Action) -> f64 {
        let s = self.s;
        match a {
            Action::DeployHistorical => 100.0,
            Action::Place { unit, hex, facing } => self.place(*unit, *hex, *facing),
            Action::PlaceLeader { leader, hex } => self.leader_place(*leader, *hex),
            Action::Chit { leader, chit } => self.chit_choice(*leader, *chit, 10.0),
            Action::Change { leader, chit } => self.chit_choice(*leader, *chit, 8.0),
            Action::Charge { unit } => self.charge(*unit),
            Action::Split { .. } => -5.0,
            Action::Rejoin { .. } => 3.0,
            Action::OrdersDone
            | Action::EndMovement
            | Action::EndWithdrawal
            | Action::EndFire
            | Action::EndMelee
            | Action::EndCombat
            | Action::Halt => 0.0,
            Action::Move {
                unit,
                alone,
                to,
                facing,
                ..
            } => self.movement(*unit, *alone, *to, *facing),
            Action::MoveLeader { leader, to } => self.leader_move(*leader, *to),
            // A counter is worth choosing for its best move (8.0: one counter at a time).
            Action::Select { unit } => self.best_move(Pick::Unit(*unit)),
            Action::SelectLeader { leader } => self.best_move(Pick::Leader(*leader)),
            // A counter is chosen for its best move, which is then made.
            Action::Deselect => NO_MOVE,
            Action::Withdraw { unit, to } => self.withdraw(*unit, *to),
            Action::StandFast => 0.0,
            Action::Fire { unit, target } => self.fire(*unit, *target),
            Action::Melee { target, attackers } => {
                let units: Vec<(UnitId, Hex)> = attackers
                    .iter()
                    .flat_map(|&r| std::iter::once(r).chain(s.stack_mate(r)))
                    .filter_map(|u| Some((u, s.hex(u)?)))
                    .collect();
                self.melee(&units, *target)
            }
            Action::Retreat { unit, to } => self.refuge(*unit, *to),
            Action::LoseStep { .. } => -1.0,
            Action::Advance { unit } => f64::from(s.values(*unit).strength) / 10.0,
            Action::Pursue { unit, to, facing } => self.pursuit(*unit, *to, *facing),
            Action::Face { unit, facing } => match s.hex(*unit) {
                Some(h) => {
                    self.facing_value(*unit, h, *facing)
                        - self.facing_value(*unit, h, s.unit(*unit).facing)
                        - 0.05
                }
                None => -1.0,
            },
            Action::Draw { .. } => 0.0,
            Action::Pass => 0.2,
            Action::Activate { leader, action } => self.activation(*leader, *action),
            Action::Concede => -100.0,
            Action::CheckMorale => -self
                .s
                .on_map(self.me)
                .map(|u| fails(s.values(u).morale) * f64::from(s.values(u).strength))
                .sum::<f64>(),
            Action::RetreatCommand { leader } => -self
                .command(*leader)
                .filter(|&u| s.hex(u).is_some())
                .map(|u| f64::from(s.values(u).strength))
                .sum::<f64>(),
        }
    }

    /// The combat units of a leader's command not eliminated.
    fn command(&self, l: LeaderId) -> impl Iterator<Item = UnitId> + '_ {
        self.s
            .unit_ids()
            .filter(move |&u| self.s.def(u).leader == l && self.s.unit(u).loc != Loc::Eliminated)
    }

    // ---- Set-up (12.1-15.1) ----

    fn place(&self, u: UnitId, h: Hex, f: Vertex) -> f64 {
        let friends = self.friends_beside(h, None).min(2) as f64;
        let enemy = if self.board().occupant.contains(&Some(self.foe)) {
            self.facing_value(u, h, f) - 0.1 * f64::from(self.enemy_distance(h))
        } else {
            0.0
        };
        friends + enemy + self.terrain_value(h)
    }

    fn leader_place(&self, l: LeaderId, h: Hex) -> f64 {
        self.with_command(l, |c| self.leader_place_in(c, h))
    }

    /// Runs `f` on leader `l`'s [`Command`], worked out once for all his placements and moves.
    fn with_command<T>(&self, l: LeaderId, f: impl FnOnce(&Command) -> T) -> T {
        let mut memo = self.last_leader.borrow_mut();
        match &*memo {
            Some(c) if c.leader == l => f(c),
            _ => {
                let s = self.s;
                let mut c = Command {
                    leader: l,
                    span: s.span(l),
                    units: self
                        .command(l)
                        .filter_map(|u| Some((s.hex(u)?, s.unit(u).routed)))
                        .collect(),
                    now: OFF_MAP_VALUE,
                };
                if let Some(h) = s.leaders[l as usize].loc.hex() {
                    c.now = self.leader_place_in(&c, h);
                }
                f(memo.insert(c))
            }
        }
    }

    /// How good hex `h` is for the leader of command `c`: his command's units' part
    /// ([`command_halves`], summed in half points: every term a whole number of halves, so
    /// the sum is exact), then the hex's own.
    fn leader_place_in(&self, c: &Command, h: Hex) -> f64 {
        let halves: i64 = c
            .units
            .iter()
            .map(|&(at, routed)| command_halves(at, routed, c.span, h))
            .sum();
        self.leader_place_from(0.5 * halves as f64, h, !c.units.is_empty())
    }

    /// [`Sight::leader_place_in`] of hex `h`, from his command's units' part `v` (`any`: the
    /// command has units on the map).
    fn leader_place_from(&self, mut v: f64, h: Hex, any: bool) -> f64 {
        let stacked = self.occupant(h) == Some(self.me);
        if stacked {
            v += 1.0;
        }
        // 4.2: a leader alone next to the enemy risks capture.
        if !stacked && self.enemy_distance(h) <= 1 {
            v -= 3.0;
        }
        if !any {
            v -= 0.2 * f64::from(self.enemy_distance(h));
        }
        // A side hunting a loose enemy: the leader goes with the hunt, so that the hunters
        // stay in his command span (5.31, 5.33); to two hexes of the enemy, no nearer (4.2).
        let hunt = self.hunt();
        if hunt > 0.0 {
            v -= hunt * f64::from(self.enemy_distance(h).max(2));
        }
        v
    }

    // ---- Orders (5.1, 5.2, 5.6) ----

    /// The chit that fits a leader's command now (see the module's documentation), worked out
    /// once for the chits offered him.
    fn wanted_chit(&self, l: LeaderId) -> Chit {
        if let Some((_, c)) = self.last_wanted.get().filter(|&(at, _)| at == l) {
            return c;
        }
        let c = self.work_out_wanted_chit(l);
        self.last_wanted.set(Some((l, c)));
        c
    }

    /// [`Sight::wanted_chit`], worked out.
    fn work_out_wanted_chit(&self, l: LeaderId) -> Chit {
        let s = self.s;
        let allowed = s.allowed_chits(l);
        let pick = |order: &[Chit]| {
            order
                .iter()
                .copied()
                .find(|c| allowed.contains(c))
                .unwrap_or(allowed.first().copied().unwrap_or(Chit::Advance))
        };
        // 12.21: at night only Reserve or Muster; 12.1: a reinforcement leader enters with
        // Advance or Reserve.
        if s.night() {
            return pick(&[Chit::Muster, Chit::Reserve]);
        }
        let on_map: Vec<UnitId> = self.command(l).filter(|&u| s.hex(u).is_some()).collect();
        if on_map.is_empty() {
            return pick(&[Chit::Advance, Chit::Reserve]);
        }
        let routed = on_map.iter().filter(|&&u| s.unit(u).routed).count();
        // 5.16: a broken force musters (span +1 to rally, 10.2).
        if s.muster_allowed(l) && routed * 2 >= on_map.len() {
            return pick(&[Chit::Muster, Chit::Stand]);
        }
        let hexes: Vec<Hex> = on_map.iter().filter_map(|&u| s.hex(u)).collect();
        let distance = hexes
            .iter()
            .map(|&h| self.enemy_distance(h))
            .min()
            .unwrap_or(FAR);
        if distance >= 5 {
            return pick(&[Chit::Advance, Chit::Attack, Chit::Stand]);
        }
        let (mine, theirs) = self.local_strengths(&hexes, 3);
        let ratio = mine / theirs.max(1.0);
        if ratio >= 1.3 {
            pick(&[Chit::Attack, Chit::Advance, Chit::Stand])
        } else if ratio >= 0.8 && distance >= 2 {
            pick(&[Chit::Advance, Chit::Stand])
        } else {
            pick(&[Chit::Stand, Chit::Advance])
        }
    }

    /// Strength of formed (not routed) friends and enemies within `reach` hexes of `hexes`.
    fn local_strengths(&self, hexes: &[Hex], reach: u32) -> (f64, f64) {
        let s = self.s;
        let mut out = (0.0, 0.0);
        for u in s.unit_ids() {
            let Some(h) = s.hex(u) else { continue };
            if s.unit(u).routed || !hexes.iter().any(|&x| x.distance(h) <= reach) {
                continue;
            }
            let v = f64::from(s.values(u).strength);
            if s.side(u) == self.me {
                out.0 += v;
            } else {
                out.1 += v;
            }
        }
        out
    }

    fn chit_choice(&self, l: LeaderId, c: Chit, worth: f64) -> f64 {
        let want = self.wanted_chit(l);
        let now = self.s.leaders[l as usize].chit;
        if now == Some(want) {
            return -5.0;
        }
        if c == want {
            worth
        } else if now.is_none() {
            // The first placement must name some chit: anything but the wanted one is a
            // fallback, all below it.
            -1.0
        } else {
            -5.0
        }
    }

    /// 5.6: a charge doubles as a morale check; worth it with the enemy near enough to reach.
    fn charge(&self, u: UnitId) -> f64 {
        match self.s.hex(u) {
            Some(h) if self.enemy_distance(h) <= 8 => 6.0,
            _ => -1.0,
        }
    }

    // ---- Movement (5.3, 5.5, 6.1, 8.0) ----

    /// The score of a counter's best move, or [`NO_MOVE`] if it has none: the best score of
    /// its moves ([`State::moves_of`], scored as [`Sight::score`] does, in the same order),
    /// without listing them.
    fn best_move(&self, p: Pick) -> f64 {
        let s = self.s;
        match p {
            Pick::Unit(u) => self.best_unit_move(u).0,
            Pick::Leader(l) => {
                let mut best = NO_MOVE;
                for (h, _) in s.leader_destinations(l) {
                    best = f64::max(best, self.leader_move(l, h));
                }
                best
            }
        }
    }

    /// [`Sight::best_move`] of unit `u`, with the hexes its searches reached (one bit per grid
    /// index; `None` if a search did not tell).
    fn best_unit_move(&self, u: UnitId) -> (f64, Option<Vec<u64>>) {
        let mut scoring = BestOfMoves {
            view: self,
            unit: u,
            best: NO_MOVE,
            reached: Some(Vec::new()),
            pending: None,
        };
        self.s.unit_moves(u, self.situation(), &mut scoring);
        scoring.settle();
        (scoring.best, scoring.reached)
    }

    fn leader_move(&self, l: LeaderId, to: Hex) -> f64 {
        self.with_command(l, |c| self.leader_place_in(c, to) - c.now - WANDER)
    }

    fn movement(&self, u: UnitId, alone: bool, to: Hex, f: Vertex) -> f64 {
        self.movement_in(u, alone, &self.terms(to), f)
    }

    /// [`Sight::movement`] to the hex of `t`.
    fn movement_in(&self, u: UnitId, alone: bool, t: &HexTerms, f: Vertex) -> f64 {
        let mut memo = self.last_mover.borrow_mut();
        let m = match &*memo {
            Some(m) if m.unit == u && m.alone == alone => m,
            _ => memo.insert(self.moving(u, alone)),
        };
        let mut gain = 0.0;
        for v in &m.members {
            gain += self.place_value(v, t, f, m.leaving) - v.now;
        }
        gain - WANDER - if alone { 0.5 } else { 0.0 }
    }

    /// Unit `u` (with its stack unless `alone`) about to move: what its moves are weighed by.
    fn moving(&self, u: UnitId, alone: bool) -> Moving {
        let s = self.s;
        let group = s.moving_group(u, alone);
        let members = group
            .iter()
            .map(|&v| {
                let leader = s.def(v).leader;
                let skirmisher = s.skirmisher(v);
                let fire_range = self.best_range(v);
                let aggressive = !s.follows_chit(v)
                    || matches!(s.chit(v), Some(Chit::Attack | Chit::Advance) | None);
                let mut m = Mover {
                    at: s.hex(v),
                    routed: s.unit(v).routed,
                    skirmisher,
                    leader_hex: s.leaders[leader as usize].loc.hex(),
                    span: s.span(leader),
                    // 5.4, 9.11: keep the enemy in range but out of reach of melee.
                    ideal: (skirmisher || (fire_range.is_some() && s.mounted(v)))
                        .then(|| fire_range.unwrap_or(2).clamp(2, 3)),
                    closing: if aggressive {
                        1.0 + 2.0 * self.urgency() + self.hunt()
                    } else {
                        0.2
                    },
                    mine: group
                        .iter()
                        .map(|&g| f64::from(s.values(g).strength))
                        .sum::<f64>()
                        .max(f64::from(s.values(v).strength)),
                    now: OFF_MAP_VALUE,
                };
                if let Some(h) = s.hex(v) {
                    m.now = self.place_value(&m, &self.terms(h), s.unit(v).facing, None);
                }
                m
            })
            .collect();
        Moving {
            unit: u,
            alone,
            leaving: if alone { None } else { s.hex(u) },
            members,
        }
    }

    /// How good the hex of `t` with facing `f` is for the moving unit `m` (leaving the hex
    /// `leaving` empty).
    fn place_value(&self, m: &Mover, t: &HexTerms, f: Vertex, leaving: Option<Hex>) -> f64 {
        let (h, e) = (t.hex, t.enemy);
        if m.routed {
            // 5.5, 10.2: away from the enemy, back to the leader, out of enemy ZOCs.
            let mut v = 1.5 * f64::from(e.min(6));
            if let Some(lh) = m.leader_hex {
                if lh.distance(h) <= m.span {
                    v += 3.0;
                }
            }
            return v;
        }
        let mut v = 0.0;
        if let Some(ideal) = m.ideal {
            // 5.4, 9.11: keep the enemy in range but out of reach of melee.
            v -= 1.5 * f64::from(e.abs_diff(ideal));
            if self.beside_formed(h) {
                v -= 2.0;
            }
        } else {
            v -= m.closing * f64::from(e);
        }
        if !m.skirmisher {
            v += self.facing_in(t, f);
        }
        // Friends alongside (7.0: a line holds; no one is left alone). A whole stack moving
        // leaves its hex empty.
        let friends = self.friends_in(t, leaving).min(2) as f64;
        v += friends;
        if friends == 0.0 && e <= 3 {
            v -= 1.0;
        }
        // 5.31, 5.33: within the leader's command span.
        if let Some(lh) = m.leader_hex {
            let d = lh.distance(h);
            if d <= m.span {
                v += 1.5;
            } else {
                v -= 0.7 * f64::from(d - m.span);
            }
        }
        v += t.terrain;
        // Nicopolis 14.1: a Turkish unit in command on a road hex of a path still open, or
        // staying on one it cuts; drawn towards the open paths from up to ROAD_PULL hexes.
        if let (Some(r), Some(lh)) = (self.road_block(), m.leader_hex) {
            if let Some(i) = self.s.battle.map.grid.index(h) {
                if lh.distance(h) <= m.span {
                    if r.open[i] || (r.held[i] && m.at == Some(h)) {
                        v += r.weight;
                    } else if r.to_open[i] < ROAD_PULL {
                        v +=
                            0.5 * r.weight * (1.0 - f64::from(r.to_open[i]) / f64::from(ROAD_PULL));
                    }
                }
            }
        }
        // Next to the enemy: the odds of the fight that follows.
        if e == 1 && !m.skirmisher {
            if m.mine >= 1.5 * t.theirs {
                v += 1.5;
            } else if 2.0 * m.mine < t.theirs {
                v -= 2.5;
            }
        }
        v
    }

    /// The longest range at which a unit may fire (9.11), if it fires.
    fn best_range(&self, u: UnitId) -> Option<u32> {
        let s = self.s;
        if !s.values(u).fire {
            return None;
        }
        (1..=6).rev().find(|&d| s.range_modifier(u, d).is_some())
    }

    /// 8.2: defensive terrain and hexsides are worth holding; higher ground too.
    fn terrain_value(&self, h: Hex) -> f64 {
        let s = self.s;
        let info = s.battle.map.info(h);
        let t = &s.battle.tables.terrains[info.terrain as usize];
        -0.5 * f64::from(t.melee) + 0.1 * f64::from(info.elevation)
    }

    /// 6.11, 6.21, 9.4: the nearest enemy in front; adjacent enemies not on flank or rear.
    fn facing_value(&self, u: UnitId, h: Hex, f: Vertex) -> f64 {
        if self.s.skirmisher(u) {
            return 0.0;
        }
        self.facing_in(&self.terms(h), f)
    }

    /// [`Sight::facing_value`] in the hex of `t`, for a unit with a facing.
    fn facing_in(&self, t: &HexTerms, f: Vertex) -> f64 {
        if t.enemy > 5 {
            return 0.0;
        }
        let (front, flank) = self.arcs[f.index() as usize];
        let mut v = 0.0;
        if t.towards & front != 0 {
            v += 2.0;
        } else if t.towards & flank != 0 {
            v += 0.5;
        } else {
            v -= 1.0;
        }
        for _ in 0..(t.foes & !front).count_ones() {
            v -= 1.5;
        }
        v
    }

    // ---- Withdrawals and retreats (5.4, 9.32, 9.5, 10.0) ----

    fn withdraw(&self, u: UnitId, to: Hex) -> f64 {
        let s = self.s;
        let place = 0.1 * self.refuge(u, to);
        if s.phase == Phase::Withdrawal(self.me) {
            // 5.4: skirmishers leave the ZOC of formed troops before combat.
            let h = s.hex(u).unwrap_or(to);
            return if self.beside_formed(h) {
                2.0 + place
            } else {
                -1.0
            };
        }
        // 9.32 step 3: withdraw from a melee at poor odds.
        let Some(m) = s.melees.last() else {
            return -1.0;
        };
        let attack: f64 = m
            .attackers
            .iter()
            .map(|&a| f64::from(s.values(a).strength))
            .sum();
        let defence: f64 = m
            .defenders
            .iter()
            .map(|&d| f64::from(s.values(d).strength))
            .sum();
        if attack > 1.5 * defence {
            1.0 + place
        } else {
            -1.0
        }
    }

    /// A place to retreat to: away from the enemy, near friends and the leader (10.2).
    fn refuge(&self, u: UnitId, to: Hex) -> f64 {
        let s = self.s;
        let mut v = f64::from(self.enemy_distance(to).min(6));
        let leader = s.def(u).leader;
        if let Some(lh) = s.leaders[leader as usize].loc.hex() {
            if lh.distance(to) <= s.span(leader) {
                v += 2.0;
            }
        }
        v += 0.5 * self.friends_beside(to, s.hex(u)).min(2) as f64;
        v
    }

    // ---- Fire (9.1) ----

    /// Expected effect of a unit's shot at a hex, in steps (9.1 Fire Table, 9.11 range).
    fn shot(&self, u: UnitId, target: Hex) -> f64 {
        let s = self.s;
        let Some(from) = s.hex(u) else { return 0.0 };
        let Some(col) = s.battle.utype(u).fire_column else {
            return 0.0;
        };
        let Some(range) = s.range_modifier(u, from.distance(target)) else {
            return 0.0;
        };
        let stack = s.stack_at(target);
        let Some(&top) = stack.first() else {
            return 0.0;
        };
        let terrain = s.battle.tables.terrains[s.battle.map.info(target).terrain as usize].fire;
        let modifier = range + s.battle.utype(top).fire_target_modifier + terrain;
        let morale = stack
            .iter()
            .map(|&t| fails(s.values(t).morale))
            .sum::<f64>();
        let table = &s.battle.tables.fire;
        let mut total = 0.0;
        for roll in 1..=10 {
            total += match table.read(roll + modifier, col).1 {
                CombatResult::NoEffect => 0.0,
                CombatResult::Morale => morale,
                CombatResult::Steps(n) => f64::from(n) + morale,
            };
        }
        total / 10.0
    }

    fn fire(&self, u: UnitId, target: Hex) -> f64 {
        let s = self.s;
        let gain = 0.5 + 3.0 * self.shot(u, target);
        // 9.31: an offensive shot at a hex the unit could melee commits it to that melee.
        let adjacent = s.hex(u).is_some_and(|h| h.distance(target) == 1);
        if s.phase == Phase::OffensiveFire
            && adjacent
            && s.may_attack(u)
            && s.melee_targets(u).contains(&target)
        {
            let units: Vec<(UnitId, Hex)> = std::iter::once(u)
                .chain(s.stack_mate(u))
                .filter_map(|x| Some((x, s.hex(x)?)))
                .collect();
            let melee = self.melee(&units, target);
            if melee < 0.0 {
                return melee;
            }
        }
        gain
    }

    // ---- Melee (9.3, 9.4, 16.2, 16.6) ----

    /// How much a step taken in melee weighs against a step inflicted: 1.1, except for a
    /// side that loses when the last turn ends with no victory roll won (11.0; Hattin 12.1:
    /// a marginal Muslim victory), whose losses matter less and less as the turns run out.
    fn caution(&self) -> f64 {
        1.1 - 0.6 * self.urgency()
    }

    /// How pressed for time this seat is: for a side that loses when the last turn ends with
    /// no victory roll won (11.0; Hattin 12.1), the share of the battle's turns gone; else 0.
    fn urgency(&self) -> f64 {
        let s = self.s;
        match s.battle.at_end {
            crate::scenario::AtEnd::Winner(w) if w == self.foe => {
                (s.turn as f64 / s.battle.turns.len().max(1) as f64).min(1.0)
            }
            _ => 0.0,
        }
    }

    /// What each hex from the enemy costs a side pressed for time hunting a loose enemy, on
    /// top of its closing in ([`HUNT`] by [`Sight::urgency`] and [`Sight::looseness`]).
    fn hunt(&self) -> f64 {
        HUNT * self.urgency() * self.looseness()
    }

    /// Expected steps inflicted less those taken (with morale failures as losses) if `units`
    /// (at the hexes given) attack `target`, by what this seat can see.
    fn melee(&self, units: &[(UnitId, Hex)], target: Hex) -> f64 {
        let s = self.s;
        let t = &s.battle.tables;
        let defenders = s.stack_at(target);
        let Some(&top) = defenders.first() else {
            return -1.0;
        };
        if units.is_empty() {
            return -1.0;
        }
        let attack: u32 = units
            .iter()
            .map(|&(u, _)| u32::from(s.values(u).strength))
            .sum();
        let defence: u32 = defenders
            .iter()
            .map(|&d| u32::from(s.values(d).strength))
            .sum();
        let mut am = 0;
        if units
            .iter()
            .all(|&(u, _)| s.follows_chit(u) && s.chit(u) == Some(Chit::Attack))
        {
            am += 1; // 5.11
        }
        am += self.leader_bonus(self.me, units.iter().map(|&(_, h)| h));
        if !s.skirmisher(top)
            && units.iter().any(|&(_, h)| {
                target
                    .direction_to(h)
                    .is_some_and(|d| s.arc(top, d) != Arc::Front)
            })
        {
            am += 1; // 9.4 flank or rear
        }
        am += t.terrains[s.battle.map.info(target).terrain as usize].melee;
        am += units
            .iter()
            .filter_map(|&(_, h)| {
                let f = s.battle.map.feature(h, h.direction_to(target)?)?;
                Some(t.features[f as usize].melee)
            })
            .min()
            .unwrap_or(0)
            .min(0);
        let high = units
            .iter()
            .map(|&(_, h)| s.battle.map.info(h).elevation)
            .max()
            .unwrap_or(0);
        if s.battle.map.info(target).elevation > high {
            am += t.melee_uphill;
        }
        if s.options.unit_type_modifiers && !s.battle.utype(top).artillery {
            am += t.unit_type_modifier[s.battle.utype(units[0].0).melee_class]
                [s.battle.utype(top).melee_class];
        }
        // The defender: leaders and routs are seen; his chit is secret (5.0), so a Stand
        // command's +1 (5.13) counts as an even chance.
        let mut dm = 0.5 + f64::from(self.leader_bonus(self.foe, std::iter::once(target)));
        if defenders.iter().any(|&d| s.unit(d).routed) {
            dm -= 1.0;
        }
        if s.options.melee_odds {
            let (a, d) = odds_modifiers(attack, defence);
            am += a;
            dm += f64::from(d);
        }
        let their_morale = defenders
            .iter()
            .map(|&d| fails(s.values(d).morale))
            .sum::<f64>();
        let our_morale = units
            .iter()
            .map(|&(u, _)| fails(s.values(u).morale))
            .sum::<f64>();
        let table = &t.melee;
        let expect = |column: usize, modifier: f64, morale: f64| {
            let mut total = 0.0;
            for roll in 1..=10 {
                // Half a modifier is an even chance of a whole one.
                let (lo, hi) = (modifier.floor() as i32, modifier.ceil() as i32);
                for (m, w) in [(lo, 0.5), (hi, 0.5)] {
                    total += w * match table.read(roll + m, column).1 {
                        CombatResult::NoEffect => 0.0,
                        CombatResult::Morale => 1.5 * morale,
                        CombatResult::Steps(n) => f64::from(n) + morale,
                    };
                }
            }
            total / 10.0
        };
        // 9.32 step 2: defenders that fail their morale check before melee rout.
        let inflicted = their_morale + expect(t.melee_column(attack), f64::from(am), their_morale);
        let taken = expect(t.melee_column(defence), dm, our_morale);
        // Attackers that fail their check do not attack (9.32 step 1).
        let attacking = 1.0 - our_morale / units.len() as f64;
        attacking * (inflicted - self.caution() * taken)
    }

    /// 4.13: the best combat bonus of `side`'s leaders in these hexes.
    fn leader_bonus(&self, side: Seat, hexes: impl Iterator<Item = Hex>) -> i32 {
        let s = self.s;
        hexes
            .flat_map(|h| s.leaders_at(h))
            .filter(|&l| s.battle.leaders[l as usize].side == side)
            .map(|l| s.ratings(l).2)
            .max()
            .unwrap_or(0)
            .max(0)
    }

    /// 9.32 step 7: pursue to a hex from which a good second melee is in front.
    fn pursuit(&self, u: UnitId, to: Hex, f: Vertex) -> f64 {
        let s = self.s;
        let units: Vec<(UnitId, Hex)> = s
            .moving_group(u, false)
            .into_iter()
            .map(|x| (x, to))
            .collect();
        let best = Direction::ALL
            .into_iter()
            .filter(|&d| f.arc_of(d) == Arc::Front)
            .map(|d| to.neighbour(d))
            .filter(|&n| self.occupant(n) == Some(self.foe))
            .map(|n| self.melee(&units, n))
            .fold(f64::NEG_INFINITY, f64::max);
        if best.is_finite() {
            best - 0.3
        } else {
            -0.5
        }
    }

    // ---- Action chits (16.11) ----

    fn activation(&self, l: LeaderId, kind: ActionKind) -> f64 {
        let s = self.s;
        let mut v = 0.0;
        for u in self.command(l) {
            let Some(h) = s.hex(u) else {
                if kind == ActionKind::Move {
                    v += 0.5; // reinforcements to bring on
                }
                continue;
            };
            let e = self.enemy_distance(h);
            v += match kind {
                ActionKind::Move if s.unit(u).routed => 0.3,
                ActionKind::Move if e > 1 => 0.5,
                ActionKind::Move => 0.0,
                ActionKind::Combat if e == 1 && !s.unit(u).routed => 1.0,
                ActionKind::Combat if self.best_range(u).is_some_and(|r| e <= r) => 0.7,
                ActionKind::Combat => 0.0,
            };
        }
        v
    }
}

/// What the melees `side` could fight from where its counters stand are worth to it, in
/// expected steps inflicted less those taken (morale failures counted as steps, 10.0), summed
/// over the enemy stacks it touches: for each, every formed counter of `side` with that stack
/// in its front hexes (9.3) and able to attack under its chit (5.1, 5.33, 16.42) attacks it,
/// by [`Sight::melee`]'s reckoning; stacks it would attack at a loss count nothing (it need
/// not attack). A counter next to two stacks counts towards both: the measure is of the
/// threat, not of a plan. The evaluation ([`engine::Game::evaluate`]) reads it for both
/// sides, so that a search sees a flank exposed or a melee set up before the dice fall.
pub fn melee_threat(s: &State, side: Seat) -> f64 {
    let sight = Sight::new(s, side);
    let mut fronts: Vec<(Hex, Vec<(UnitId, Hex)>)> = Vec::new();
    for u in s.on_map(side) {
        if !s.could_attack(u) {
            continue;
        }
        let Some(h) = s.hex(u) else { continue };
        for t in s.melee_targets(u) {
            match fronts.iter_mut().find(|(x, _)| *x == t) {
                Some((_, units)) => units.push((u, h)),
                None => fronts.push((t, vec![(u, h)])),
            }
        }
    }
    fronts
        .iter()
        .map(|(t, units)| sight.melee(units, *t).max(0.0))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai::{Doctrine as _, Player, RandomPlayer};
    use engine::{DiceMode, Game, Log, Pending, Setup, Startable};

    fn start(battle: &str, seed: u64, options: &[&str]) -> State {
        let setup = Setup {
            scenario: battle.into(),
            options: options.iter().map(|o| o.to_string()).collect(),
            seed,
            dice: DiceMode::Seeded,
            position: None,
        };
        State::start(&setup, &crate::builtin_data()).expect("the battle starts")
    }

    /// Every advanced and optional rule (16.0) with historical commands.
    const ADVANCED: &[&str] = &[
        "melee-odds",
        "unit-type-modifiers",
        "historical-commands",
        "advanced-sequence",
        "turn-ends-chit",
        "split-commands",
        "berserk",
        "optional-victory",
    ];

    fn heuristic(seed: u64) -> Box<dyn Player<State>> {
        Doctrine::heuristic(seed).expect("Crusades II has a doctrine")
    }

    /// Plays until the game ends or `turns` turns are done; checks every heuristic choice is
    /// legal. Returns the state.
    fn play(mut g: State, players: &mut [Box<dyn Player<State>>; 2], turns: usize) -> State {
        while let Pending::Seats(seats) = g.pending() {
            if g.turn >= turns {
                break;
            }
            let seat = seats[0];
            let a = players[seat.index()].choose(&g, seat);
            assert!(
                g.legal_actions(seat).contains(&a),
                "illegal choice {} in {}",
                g.action_text(&a),
                g.battle.id
            );
            g.apply(seat, &a, &mut Log::discarding())
                .expect("a legal action applies");
        }
        g
    }

    #[test]
    fn the_doctrine_chooses_legal_actions_in_every_battle() {
        for battle in crate::scenario::BATTLES {
            for (seed, options) in [(1u64, &[][..]), (2, ADVANCED)] {
                // Against itself, and against random play (routs, odd positions).
                let g = start(battle, seed, options);
                let mut players: [Box<dyn Player<State>>; 2] =
                    [heuristic(seed), heuristic(seed + 7)];
                let g = play(g, &mut players, 3);
                assert!(g.turn >= 1 || g.outcome.is_some(), "{battle} got going");
                let g = start(battle, seed + 10, options);
                let mut players: [Box<dyn Player<State>>; 2] =
                    [Box::new(RandomPlayer::new(seed)), heuristic(seed)];
                let g = play(g, &mut players, 3);
                assert!(g.turn >= 1 || g.outcome.is_some(), "{battle} got going");
            }
        }
    }

    #[test]
    fn the_doctrine_repeats_for_a_seed() {
        let run = |seed| {
            let g = start("hab", 5, &[]);
            let mut players: [Box<dyn Player<State>>; 2] = [heuristic(seed), heuristic(seed + 1)];
            let g = play(g, &mut players, 2);
            serde_json::to_string(&g).unwrap()
        };
        assert_eq!(run(3), run(3));
    }

    #[test]
    fn the_doctrine_does_not_read_the_enemys_chits() {
        // Play into a game, then at each of several decisions of one seat, give the other
        // seat's leaders other chits: the choice must not change.
        let mut g = start("hab", 9, &[]);
        let mut players: [Box<dyn Player<State>>; 2] = [heuristic(1), heuristic(2)];
        let mut checked = 0;
        let mut rng = <rand_pcg::Pcg64Mcg as rand_core::SeedableRng>::seed_from_u64(77);
        while let Pending::Seats(seats) = g.pending() {
            if g.turn >= 3 {
                break;
            }
            let seat = seats[0];
            let other = g.battle.enemy(seat);
            let mut twin = g.determinize(seat, &mut rng);
            for l in g.chit_leaders(other) {
                let allowed = g.allowed_chits(l);
                let now = g.leaders[l as usize].chit;
                if let Some(c) = allowed.into_iter().find(|&c| Some(c) != now) {
                    twin.leaders[l as usize].chit = Some(c);
                }
            }
            let differs = (0..g.leaders.len()).any(|l| g.leaders[l].chit != twin.leaders[l].chit);
            let a = heuristic(40).choose(&g, seat);
            let b = heuristic(40).choose(&twin, seat);
            assert_eq!(a, b, "the choice changed with the enemy's chits");
            // The doctrine itself, without the player's re-sampling, reads no enemy chit.
            let legal = g.legal_actions(seat);
            assert_eq!(legal, twin.legal_actions(seat));
            assert_eq!(
                Tactics.scores(&g, seat, &legal),
                Tactics.scores(&twin, seat, &legal),
                "the doctrine's scores changed with the enemy's chits"
            );
            if differs && g.legal_actions(seat).len() > 1 {
                checked += 1;
            }
            let a = players[seat.index()].choose(&g, seat);
            g.apply(seat, &a, &mut Log::discarding()).unwrap();
        }
        assert!(
            checked > 20,
            "only {checked} decisions with secrets that differ"
        );
    }

    #[test]
    fn a_search_guided_by_the_doctrine_chooses_legal_actions_and_repeats() {
        let spec: ai::PlayerSpec = "mcts:3".parse().unwrap();
        let run = || {
            let mut g = start("hab", 4, &[]);
            let mut players: [Box<dyn Player<State>>; 2] = [
                spec.build::<State, Doctrine>("crusades-ii", 1).unwrap(),
                spec.build::<State, Doctrine>("crusades-ii", 2).unwrap(),
            ];
            let mut chosen = Vec::new();
            while let Pending::Seats(seats) = g.pending() {
                if chosen.len() >= 60 {
                    break;
                }
                let a = players[seats[0].index()].choose(&g, seats[0]);
                assert!(g.legal_actions(seats[0]).contains(&a));
                g.apply(seats[0], &a, &mut Log::discarding()).unwrap();
                chosen.push(a);
            }
            chosen
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn the_movement_phase_runs_its_course_and_no_further() {
        // Hattin played by the doctrine: at each selection of the Movement Phase (8.0) the
        // end is never taken while some counter's best move gains something, and is an
        // ordinary choice (0) when none does; a counter with nothing to gain is never chosen.
        let mut g = start("hattin", 3, &[]);
        let mut players: [Box<dyn Player<State>>; 2] = [heuristic(3), heuristic(4)];
        let (mut barred, mut open) = (0, 0);
        let (mut searched_barred, mut searched_open) = (false, false);
        while let Pending::Seats(seats) = g.pending() {
            let seat = seats[0];
            let legal = g.legal_actions(seat);
            if let Some(end) = legal.iter().position(|a| *a == Action::EndMovement) {
                let scores = Tactics.scores(&g, seat, &legal);
                assert_eq!(scores, Tactics.plain_scores(&g, seat, &legal));
                let selection =
                    |a: &Action| matches!(a, Action::Select { .. } | Action::SelectLeader { .. });
                for (a, &s) in legal.iter().zip(&scores) {
                    if selection(a) {
                        assert!(s >= 0.0 || s == f64::NEG_INFINITY, "{a:?} scored {s}");
                    }
                }
                let valued = (0..legal.len()).any(|i| i != end && scores[i] > 0.0);
                let unworthy = legal
                    .iter()
                    .zip(&scores)
                    .any(|(a, &s)| selection(a) && s == f64::NEG_INFINITY);
                if valued {
                    assert_eq!(scores[end], f64::NEG_INFINITY);
                    barred += 1;
                } else {
                    assert_eq!(scores[end], 0.0);
                    open += 1;
                }
                // A search guided by the doctrine does not even try what it bars.
                let searching = if valued {
                    !std::mem::replace(&mut searched_barred, true)
                } else {
                    unworthy && !std::mem::replace(&mut searched_open, true)
                };
                if searching {
                    let mut m = ai::Mcts::new(ai::Budget::Iterations(60), 9);
                    m.playout_depth = Some(0);
                    let search = m.search_guided(&g, seat, Some(&Tactics));
                    for (c, &s) in search.choices.iter().zip(&scores) {
                        if s == f64::NEG_INFINITY {
                            assert_eq!(c.visits, 0, "{:?} was tried", c.action);
                        }
                    }
                    assert!(scores[search.best] > f64::NEG_INFINITY);
                }
            }
            let a = players[seat.index()].choose(&g, seat);
            g.apply(seat, &a, &mut Log::discarding()).unwrap();
        }
        assert!(barred > 10 && open > 10, "{barred} barred, {open} open");
        assert!(searched_barred && searched_open);
    }

    #[test]
    fn a_guided_search_that_stops_once_settled_plays_what_the_whole_budget_plays() {
        let mut g = start("hab", 6, &[]);
        let mut players: [Box<dyn Player<State>>; 2] = [heuristic(1), heuristic(2)];
        let (mut searched, mut stopped_early) = (0, 0);
        while let Pending::Seats(seats) = g.pending() {
            if searched >= 40 {
                break;
            }
            let seat = seats[0];
            if g.legal_actions(seat).len() > 1 {
                let search = |stops| {
                    let mut m = ai::Mcts::new(ai::Budget::Iterations(120), searched);
                    m.playout_depth = Some(0);
                    m.stops_when_settled = stops;
                    m.search_guided(&g, seat, Some(&Tactics))
                };
                let (settled, whole) = (search(true), search(false));
                assert_eq!(whole.iterations, 120);
                assert_eq!(
                    settled.choices[settled.best].action,
                    whole.choices[whole.best].action
                );
                searched += 1;
                stopped_early += usize::from(settled.iterations < 120);
            }
            let a = players[seat.index()].choose(&g, seat);
            g.apply(seat, &a, &mut Log::discarding()).unwrap();
        }
        assert!(
            stopped_early > 10,
            "{stopped_early} of {searched} settled early"
        );
    }

    #[test]
    fn the_doctrine_beats_random_at_hab() {
        // Paired short games: each seed twice, the doctrine on each side, the same dice.
        // Judged after eight turns by the reckoning (losses and victory tables, 11.0), or
        // by the result if the game ended.
        let mut wins = 0;
        let mut games = 0;
        for seed in [11u64, 12] {
            for side in [Seat(0), Seat(1)] {
                let mut players: [Box<dyn Player<State>>; 2] = if side == Seat(0) {
                    [heuristic(seed), Box::new(RandomPlayer::new(seed))]
                } else {
                    [Box::new(RandomPlayer::new(seed)), heuristic(seed)]
                };
                let g = play(start("hab", seed, &[]), &mut players, 8);
                games += 1;
                let threat = [melee_threat(&g, Seat(0)), melee_threat(&g, Seat(1))];
                let judged = match &g.outcome {
                    Some(o) => o.score(side),
                    None => g.reckoning(side, threat),
                };
                if judged > 0.5 {
                    wins += 1;
                }
            }
        }
        assert!(wins >= 3, "the doctrine won {wins} of {games}");
    }

    #[test]
    fn the_side_losing_at_the_end_grows_bolder_as_the_turns_run_out() {
        // Hattin 12.1: the Muslims win when the last turn ends with no victory roll won.
        let mut g = start("hattin", 1, &[]);
        let crusader = |g: &State| {
            let v = Sight::new(g, Seat(0));
            (v.urgency(), v.caution())
        };
        let muslim = |g: &State| Sight::new(g, Seat(1)).caution();
        assert_eq!(crusader(&g), (0.0, 1.1));
        g.turn = g.battle.turns.len() - 1;
        let (urgency, caution) = crusader(&g);
        assert!(urgency > 0.9 && caution < 0.6, "{urgency} {caution}");
        assert_eq!(
            muslim(&g),
            1.1,
            "the side winning by default keeps its caution"
        );
        // Hab ends in a draw (13.1): neither side is pressed.
        let mut g = start("hab", 1, &[]);
        g.turn = g.battle.turns.len() - 1;
        assert_eq!(Sight::new(&g, Seat(0)).urgency(), 0.0);
    }

    #[test]
    fn a_side_pressed_for_time_hunts_a_loose_enemy() {
        // Hattin, a morning turn (12.1), the Crusaders moving (8.0).
        let players: &mut [Box<dyn Player<State>>; 2] =
            &mut [heuristic(5), Box::new(RandomPlayer::new(6))];
        let mut g = play(start("hattin", 5, &[]), players, 10);
        while !(g.phase == Phase::Movement && g.active == Seat(0)) {
            let seat = match g.pending() {
                Pending::Seats(seats) => seats[0],
                _ => panic!("the battle ended before turn 10's Crusader movement"),
            };
            let a = players[seat.index()].choose(&g, seat);
            g.apply(seat, &a, &mut Log::discarding()).expect("legal");
        }
        let formed: Vec<UnitId> = g
            .on_map(Seat(1))
            .filter(|&u| !g.unit(u).routed && !g.skirmisher(u))
            .collect();
        assert!(formed.len() >= 10, "{} formed Muslim units", formed.len());
        let mover = g
            .on_map(Seat(0))
            .find(|&u| {
                !g.unit(u).routed
                    && g.follows_chit(u)
                    && matches!(g.chit(u), Some(Chit::Attack | Chit::Advance))
            })
            .expect("a Crusader unit closing in");
        let with_out = |out: usize| {
            let mut g = g.clone();
            for (k, &u) in formed.iter().enumerate() {
                g.unit_mut(u).out_of_command = k < out;
            }
            g
        };
        let closing = |g: &State, seat: Seat| {
            let v = Sight::new(g, seat);
            (v.looseness(), v.moving(mover, false).members[0].closing)
        };
        let (kept, in_hand) = closing(&with_out(0), Seat(0));
        assert_eq!(kept, 0.0);
        // A straggler or two does not make an army loose (STRAGGLERS).
        assert_eq!(closing(&with_out(1), Seat(0)), (0.0, in_hand));
        let (loose, hunting) = closing(&with_out(formed.len()), Seat(0));
        assert!((loose - (1.0 - STRAGGLERS)).abs() < 1e-9, "{loose}");
        assert!(hunting > in_hand + 20.0, "{hunting} against {in_hand}");
        // The leaders go with the hunt, to two hexes of the enemy: a hex nearer him is worth
        // more to a leader only when the enemy is loose, and none nearer than two.
        let (calm, loose) = (with_out(0), with_out(formed.len()));
        let (calm, loose) = (Sight::new(&calm, Seat(0)), Sight::new(&loose, Seat(0)));
        let empty_at = |d: u32| {
            g.battle
                .map
                .grid
                .hexes()
                .find(|&h| loose.occupant(h).is_none() && loose.enemy_distance(h) == d)
                .expect("an empty hex at that distance from the Muslims")
        };
        let pull =
            |h: Hex| loose.leader_place_from(0.0, h, true) - calm.leader_place_from(0.0, h, true);
        let [far, near, next] = [3, 2, 1].map(|d| pull(empty_at(d)));
        assert_eq!(far, -3.0 * loose.hunt());
        assert!(near - far > 20.0, "{far} {near}");
        assert_eq!(near, next);
        // The Muslims win by default (12.1): they are in no hurry, however loose the enemy.
        let mut g = with_out(0);
        for u in g.on_map(Seat(0)).collect::<Vec<_>>() {
            g.unit_mut(u).out_of_command = true;
        }
        assert_eq!(Sight::new(&g, Seat(1)).looseness(), 0.0);
    }

    #[test]
    fn the_turks_hold_the_roads_that_would_stay_open_at_nicopolis() {
        let mut g = start("nicopolis", 1, &[]);
        let map = &g.battle.map;
        let index = |id: &str| {
            let h = map
                .grid
                .hex_of(id.parse().expect("a hex id"))
                .expect("on the map");
            map.grid.index(h).expect("on the map")
        };
        let (camp, river, dead_end) = (index("0804"), index("0703"), index("1230"));
        assert!(
            Sight::new(&g, Seat(0)).road_block().is_none(),
            "not the Crusaders'"
        );
        let turk = Sight::new(&g, Seat(1));
        let r = turk
            .road_block()
            .expect("the Turks block roads at Nicopolis");
        assert!(
            r.open[camp] && r.open[river],
            "the camp's road to the north edge is open"
        );
        assert!(
            !r.open[dead_end],
            "the road south to Tarnovo leads to no goal"
        );
        assert_eq!(r.to_open[camp], 0);
        assert!(
            r.weight < ROAD_BLOCK / 10.0,
            "little worth on the first turn"
        );
        g.turn = g.battle.turns.len() - 1;
        let w = Sight::new(&g, Seat(1))
            .road_block()
            .expect("the Turks'")
            .weight;
        assert!(w > 0.9 * ROAD_BLOCK, "{w}");
        assert!(Sight::new(&start("hab", 1, &[]), Seat(1))
            .road_block()
            .is_none());
    }
}
