//! The Sequence of Play driven by actions (4.0): who must decide at each step, the legal
//! actions there, and applying them. Each step calls the chapter's rules; what happens
//! without a decision (resolving simultaneous fire, removing disruption, isolation, pairing,
//! clearing the foss, the end of a Game-Turn) is done by [`State::settle`] as soon as the
//! decisions before it are in.

use std::collections::BTreeMap;

use engine::{Applied, Event, Log, Outcome, Rejection, RollRecord, Seat};
use hexgrid::Hex;

use crate::action::Action;
use crate::fire::{self, Firer};
use crate::leaders::{self, LeaderFate};
use crate::map::Class;
use crate::melee;
use crate::planning::{self, Allocation, Phases, Plan};
use crate::position::{Board, Location, Pieces};
use crate::retreat::{self, Step as RetreatStep};
use crate::rules::{CombatResult, Kind, Side, SiegeKind};
use crate::sequence::{self, Segment, Step, Turn};
use crate::setup::{self, Piece};
use crate::state::{ix, side_of_seat, Advance, Melee, Stage, State, Work};
use crate::victory::{self, Verdict};
use crate::{bombardment, engineering, intervention, moves, regroup};

/// The terrain key of the harbour tower (17.0 with the Addenda: its garrison need not be in
/// command at set-up).
const HARBOUR_TOWER: &str = "harbour_tower";

/// The roll a repair, a bombardment and a search read (8.4, 8.6, 13.4).
fn roll_record(purpose: String, dice: Vec<u8>, cell: &str, result: String) -> RollRecord {
    let total = dice.iter().map(|&d| i32::from(d)).sum();
    RollRecord {
        purpose,
        dice,
        modifiers: Vec::new(),
        total,
        cell: Some(cell.into()),
        result,
    }
}

/// Puts a piece somewhere.
fn set_at(pos: &mut crate::Position, piece: Piece, at: Location) {
    match piece {
        Piece::Unit(u) => pos.units[u].at = at,
        Piece::Leader(l) => pos.leaders[l].at = at,
        Piece::Siege(e) => pos.siege[e].at = at,
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Crusader => "the Crusader",
        Side::Moslem => "the Moslem",
    }
}

impl State {
    /// The sides that must decide now.
    pub fn pending_sides(&self) -> Vec<Side> {
        match self.stage {
            Stage::Over => Vec::new(),
            Stage::SetUp(side) => vec![side],
            Stage::Play => {
                if let Some(&l) = self.placing.first() {
                    return vec![self.rules.leaders[l].side];
                }
                if let Some(&(l, _)) = self.following.first() {
                    return vec![self.rules.leaders[l].side];
                }
                if let Some(i) = self.next_retreater() {
                    return vec![self.rules.side_of(self.retreats.units[i].unit)];
                }
                if let Some(a) = &self.work.advance {
                    return vec![a.side];
                }
                let both = |done: [bool; 2]| {
                    [Side::Crusader, Side::Moslem]
                        .into_iter()
                        .filter(|s| !done[ix(*s)])
                        .collect()
                };
                match self.turn.step {
                    Step::Allocation => both([
                        self.allocation.crusader.is_some(),
                        self.allocation.moslem.is_some(),
                    ]),
                    Step::CrusaderStrategic | Step::Tunnel | Step::Bombardment => {
                        vec![Side::Crusader]
                    }
                    Step::MoslemStrategic | Step::CounterBombardment | Step::Repair => {
                        vec![Side::Moslem]
                    }
                    Step::Discovery if self.work.caving => vec![Side::Crusader],
                    Step::Discovery => vec![Side::Moslem],
                    Step::Impulse { segment, .. } => match segment {
                        Segment::CrusaderMelee
                            if self.work.melee.as_ref().is_some_and(|m| m.awaiting_evade) =>
                        {
                            vec![Side::Moslem]
                        }
                        Segment::CrusaderMovement
                        | Segment::FossFilling
                        | Segment::CrusaderMelee => vec![Side::Crusader],
                        Segment::MoslemMovement | Segment::GarrisonMelee | Segment::ArmyMelee => {
                            vec![Side::Moslem]
                        }
                        Segment::Fire => both(self.work.fire_ended),
                        Segment::DisruptionRemoval => {
                            both([self.work.agree[0].is_some(), self.work.agree[1].is_some()])
                        }
                    },
                    Step::Regrouping => self.work.redeploying.into_iter().collect(),
                }
            }
        }
    }

    /// The seats that must decide now.
    pub fn pending_seats(&self) -> Vec<Seat> {
        self.pending_sides()
            .into_iter()
            .map(planning::seat)
            .collect()
    }

    /// The retreating unit whose step is to be chosen next: the first without a choice this
    /// round that has one to make.
    fn next_retreater(&self) -> Option<usize> {
        self.retreats.chosen.iter().position(|c| c.is_none())
    }

    /// Every legal action of `seat` now.
    pub fn legal(&self, seat: Seat) -> Vec<Action> {
        let Some(side) = side_of_seat(seat) else {
            return Vec::new();
        };
        if !self.pending_sides().contains(&side) {
            return Vec::new();
        }
        match self.stage {
            Stage::Over => Vec::new(),
            Stage::SetUp(side) => self.setup_actions(side),
            Stage::Play => self.play_actions(side),
        }
    }

    // ---------------------------------------------------------------------------------------
    // 17.0 Set-up
    // ---------------------------------------------------------------------------------------

    /// The side's set-up pieces in the order they are placed: leaders, units, siege units.
    fn setup_pieces(&self, side: Side) -> Vec<Piece> {
        let mut pieces = setup::pieces(&self.rules, side, self.conrad);
        pieces.sort_by_key(|p| match p {
            Piece::Leader(_) => 0,
            Piece::Unit(_) => 1,
            Piece::Siege(_) => 2,
        });
        pieces
    }

    /// Acre 17.0: the historical quick start, or the next piece placed in a hex of the side's
    /// ground where the set-up can still be completed (a unit within twice its leader's
    /// Command Radius, the harbour tower excepted).
    fn setup_actions(&self, side: Side) -> Vec<Action> {
        let mut out = vec![Action::DeployHistorical];
        let Some(piece) = self.next_to_set_up(side) else {
            return out;
        };
        let commanded = self.commanded_at_setup(side, piece);
        // What stands in each hex of the ground, asked of a table made once.
        let board = Board::new(&self.rules, &self.pos);
        for &h in self.setup_ground(side) {
            if self.may_set_up_in(&board, piece, h, &commanded) {
                out.push(Action::Place(piece, h));
            }
        }
        out
    }

    /// Acre 17.0: the next piece of `side` to place, if any is left off the map.
    fn next_to_set_up(&self, side: Side) -> Option<Piece> {
        self.setup_pieces(side)
            .into_iter()
            .find(|p| p.at(&self.pos) == Location::OffMap)
    }

    /// Acre 17.0: the side's set-up ground.
    fn setup_ground(&self, side: Side) -> &std::collections::BTreeSet<Hex> {
        match side {
            Side::Crusader => &self.derived.crusader_ground,
            Side::Moslem => &self.derived.moslem_ground,
        }
    }

    /// Acre 14.12, 17.0: by grid index, where a unit `piece` placed is within twice a
    /// commanding leader's Command Radius ([`leaders::within_twice_radius`]), from each
    /// leader's reach (all false for a piece that is not a combat unit).
    fn commanded_at_setup(&self, side: Side, piece: Piece) -> Vec<bool> {
        let r = &self.rules;
        let mut commanded = vec![false; r.map.grid.len()];
        if let Piece::Unit(u) = piece {
            let board = Board::new(r, &self.pos);
            // The enemy's zones of control, worked out once for every leader's reach.
            let enemy_control = crate::zoc::control(r, &board, side.enemy());
            for l in 0..r.leaders.len() {
                if !leaders::commands(r, l, self.conrad, r.units[u].contingent) {
                    continue;
                }
                let Some(at) = leaders::leader_hex(&self.pos, l) else {
                    continue;
                };
                let radius = 2 * u32::from(r.leaders[l].radius);
                let reach = leaders::command_reach_in(r, &board, side, at, radius, &enemy_control);
                for (c, reached) in commanded.iter_mut().zip(reach) {
                    *c |= reached;
                }
            }
        }
        commanded
    }

    /// Acre 17.0: whether `piece` may be placed in the hex `h` of its side's ground, a unit
    /// within twice its leader's Command Radius (`commanded`, by grid index,
    /// [`Self::commanded_at_setup`]) or in the harbour tower, asking `board` (of the position)
    /// what stands in the hex.
    fn may_set_up_in(&self, board: &Board, piece: Piece, h: Hex, commanded: &[bool]) -> bool {
        let r = &self.rules;
        if !self.may_set_up(board, piece, h) {
            return false;
        }
        let harbour = r.map.terrain(h).key == HARBOUR_TOWER;
        let near = r.map.index(h).is_some_and(|k| commanded[k]);
        !matches!(piece, Piece::Unit(_)) || harbour || near
    }

    /// A shortcut of [`Self::legal`] for placing a piece in the set-up (17.0,
    /// [`Self::setup_actions`]): the next piece to place, in a hex of the side's ground where
    /// it may stand, the command radius asked only of a unit placed outside the harbour
    /// tower. `Some` holding whether `action` is listed; `None` outside the set-up or for
    /// another action.
    fn setup_listed(&self, action: &Action) -> Option<bool> {
        let (Stage::SetUp(side), &Action::Place(piece, h)) = (self.stage, action) else {
            return None;
        };
        let listed = self.next_to_set_up(side) == Some(piece)
            && self.setup_ground(side).contains(&h)
            && self.may_set_up(&self.pos, piece, h)
            && (!matches!(piece, Piece::Unit(_))
                || self.rules.map.terrain(h).key == HARBOUR_TOWER
                || self.commanded_in(side, piece, h));
        Some(listed)
    }

    /// Acre 14.12, 17.0: [`Self::commanded_at_setup`] asked of the one hex `h`: whether a
    /// unit `piece` placed there is within twice a commanding leader's Command Radius, from
    /// each leader's trace to that hex ([`leaders::command_reaches`]).
    fn commanded_in(&self, side: Side, piece: Piece, h: Hex) -> bool {
        let r = &self.rules;
        let Piece::Unit(u) = piece else {
            return false;
        };
        // What stands in each hex, asked of a table made once for every leader's trace.
        let board = Board::new(r, &self.pos);
        (0..r.leaders.len())
            .filter(|&l| leaders::commands(r, l, self.conrad, r.units[u].contingent))
            .filter_map(|l| leaders::leader_hex(&self.pos, l).map(|at| (l, at)))
            .any(|(l, at)| {
                let radius = 2 * u32::from(r.leaders[l].radius);
                leaders::command_reaches(r, &board, side, at, radius, h)
            })
    }

    /// Acre 17.0, 5.51-5.53, 12.23: the checks of [`setup::check_place`] for a hex already
    /// known to be on the side's ground: no second combat unit, leader or siege unit, no giant
    /// catapult on the outerworks. What stands in the hex is asked of `pieces` (the
    /// position or a [`Board`] of it).
    fn may_set_up<P: Pieces + ?Sized>(&self, pieces: &P, piece: Piece, h: Hex) -> bool {
        let r = &self.rules;
        match piece {
            Piece::Unit(_) => pieces.unit_at(h).is_none(),
            Piece::Leader(_) => pieces.leader_at(h).is_none(),
            Piece::Siege(e) => {
                pieces.siege_at(h).is_none()
                    && !(r.siege[e].kind == SiegeKind::GiantCatapult
                        && r.map.class(h) == Class::Outerworks)
            }
        }
    }

    /// Acre 5.17, 12.23, 12.34: [`crate::movement::may_deploy_siege`] with the ground between
    /// the outerworks and the foss worked out once: Crusader engines there (giant catapults
    /// and towers not in an unfilled foss or the outerworks), Moslem small catapults anywhere
    /// in Acre, one siege unit a hex.
    pub fn may_deploy_siege(&self, e: usize, h: Hex) -> bool {
        let r = &self.rules;
        if self.pos.siege_at(h).is_some_and(|x| x != e) {
            return false;
        }
        match r.siege[e].side {
            Side::Moslem => r.map.in_acre(h),
            Side::Crusader => {
                let ditch = self.pos.unfilled_foss(r, h) || r.map.class(h) == Class::Outerworks;
                let big = matches!(
                    r.siege[e].kind,
                    SiegeKind::GiantCatapult | SiegeKind::SiegeTower
                );
                self.derived.between.contains(&h) && !(big && ditch)
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Legal actions of play
    // ---------------------------------------------------------------------------------------

    fn play_actions(&self, side: Side) -> Vec<Action> {
        if let Some(&l) = self.placing.first() {
            return self
                .leader_places(l)
                .into_iter()
                .map(|h| Action::Place(Piece::Leader(l), h))
                .collect();
        }
        if let Some(&(l, _)) = self.following.first() {
            return vec![Action::Follow(l), Action::Stay(l)];
        }
        if let Some(i) = self.next_retreater() {
            return self.retreat_actions(i);
        }
        if self.work.advance.is_some() {
            return self.advance_actions();
        }
        match self.turn.step {
            Step::Allocation => self.allocation_actions(side),
            Step::CrusaderStrategic | Step::MoslemStrategic => self.movement_actions(side, true),
            Step::Tunnel => self.tunnel_actions(),
            Step::Discovery if self.work.caving => self.cave_in_actions(),
            Step::Discovery => self.search_actions(),
            Step::Bombardment => self.bombard_actions(),
            Step::CounterBombardment => self.counter_actions(),
            Step::Repair => self.repair_actions(),
            Step::Impulse { segment, .. } => match segment {
                Segment::CrusaderMovement | Segment::MoslemMovement => {
                    self.movement_actions(side, false)
                }
                Segment::Fire => self.fire_actions(side),
                Segment::FossFilling => self.fill_actions(),
                Segment::GarrisonMelee | Segment::CrusaderMelee | Segment::ArmyMelee => {
                    self.melee_actions(segment)
                }
                Segment::DisruptionRemoval => vec![Action::EndAssault, Action::Continue],
            },
            Step::Regrouping => self.redeploy_actions(side),
        }
    }

    /// Acre 14.41: where an unharmed leader may be placed: with a friendly combat unit.
    fn leader_places(&self, leader: usize) -> Vec<Hex> {
        let side = self.rules.leaders[leader].side;
        (0..self.rules.units.len())
            .filter(|&u| self.rules.side_of(u) == side)
            .filter_map(|u| self.pos.hex_of(u))
            .filter(|&h| self.pos.leader_at(h).is_none())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    }

    /// Acre 4.0 1.A, 14.42, 12.17, 12.24: the plans, and before them the wounded leaders and
    /// repaired engines returned to play (one at a time).
    fn allocation_actions(&self, side: Side) -> Vec<Action> {
        let r = &self.rules;
        let mut out = Vec::new();
        let (leaders, siege) = planning::returning(r, &self.pos, side, self.turn.turn);
        if let Some(&l) = leaders.first() {
            for h in self.leader_return_hexes(l) {
                out.push(Action::Place(Piece::Leader(l), h));
            }
        } else if let Some(&e) = siege.first() {
            // 12.17, 12.24: a repaired engine re-deployed ([`bombardment::check_return`]).
            for &h in &self.derived.between {
                let ok = bombardment::check_return_on(
                    r,
                    &self.pos,
                    e,
                    h,
                    self.turn.turn,
                    &self.derived.between,
                )
                .is_ok();
                if ok {
                    out.push(Action::Place(Piece::Siege(e), h));
                }
            }
        }
        out.extend(
            self.allocation
                .legal(r, side, self.engineer_points, &self.used)
                .into_iter()
                .map(Action::Plan),
        );
        out
    }

    /// Acre 14.42: a returning Crusader leader goes to a Camp hex, a garrison leader anywhere
    /// in Acre (Moslem army leaders return off the map by themselves).
    fn leader_return_hexes(&self, leader: usize) -> Vec<Hex> {
        let r = &self.rules;
        let hexes: Vec<Hex> = match r.leaders[leader].side {
            Side::Crusader => r.map.camps().map(|(h, _)| h).collect(),
            Side::Moslem => self.derived.acre.iter().copied().collect(),
        };
        hexes
            .into_iter()
            .filter(|&h| self.pos.leader_at(h).is_none())
            .filter(|&h| r.map.camp(h).is_none() || self.pos.side_at(r, h) != Some(Side::Moslem))
            .collect()
    }

    /// The pieces of `side` that may move in this Movement Segment.
    fn movers(&self, side: Side, strategic: bool) -> Vec<Piece> {
        let r = &self.rules;
        // Room for every piece, so that the list never grows.
        let mut out = Vec::with_capacity(r.units.len() + r.leaders.len() + r.siege.len());
        let allowed = self.armies_allowed();
        // The side's own combat units only: [`Self::may_move`] turns down the others.
        let pieces = self.derived.units_of[ix(side)]
            .iter()
            .map(|&u| Piece::Unit(u))
            .chain((0..r.leaders.len()).map(Piece::Leader))
            .chain((0..r.siege.len()).map(Piece::Siege));
        // Those not done yet: the pieces come in the order of [`Piece`] (units, leaders,
        // siege units, each by index), as the set of pieces done is, so one walk through both
        // passes over the done ones.
        let mut done = self.work.done.iter().peekable();
        for p in pieces {
            while done.next_if(|d| **d < p).is_some() {}
            if done.peek() == Some(&&p) {
                continue;
            }
            if self.may_move(side, strategic, &allowed, p) {
                out.push(p);
            }
        }
        out
    }

    /// Whether `piece` of `side` may move in this Movement Segment, done or not
    /// ([`Self::movers`]), with the armies `allowed` to enter ([`Self::armies_allowed`]).
    /// False for a piece the rules do not have.
    fn may_move(
        &self,
        side: Side,
        strategic: bool,
        allowed: &[crate::rules::Army],
        piece: Piece,
    ) -> bool {
        let r = &self.rules;
        let garrison_only = strategic && side == Side::Moslem;
        match piece {
            Piece::Unit(u) => {
                if u >= r.units.len() || r.side_of(u) != side {
                    return false;
                }
                let on_map = self.pos.units[u].at.hex().is_some();
                if garrison_only && self.army_unit(u) {
                    return false;
                }
                on_map || (!strategic && self.may_enter_with(u, allowed))
            }
            Piece::Leader(l) => {
                if l >= r.leaders.len() || r.leaders[l].side != side || self.pos.leaders[l].dead {
                    return false;
                }
                let army = self.leader_army(l);
                if garrison_only && army != Some(crate::rules::Army::Garrison) {
                    return false;
                }
                let on_map = self.pos.leaders[l].at.hex().is_some();
                let entering = !strategic
                    && side == Side::Moslem
                    && self.pos.leaders[l].at == Location::OffMap
                    && self.pos.leaders[l].wounded_until.is_none()
                    && army.is_some_and(|a| allowed.contains(&a));
                on_map || entering
            }
            Piece::Siege(e) => {
                if e >= r.siege.len() || self.pos.siege[e].at.hex().is_none() {
                    return false;
                }
                let s = &r.siege[e];
                if strategic {
                    // 5.17: the Crusader's siege units and the Moslem's small catapults.
                    s.side == side && (side == Side::Crusader || s.kind == SiegeKind::SmallCatapult)
                } else {
                    // 12.11: siege towers move by themselves in the Crusader Movement
                    // Segments.
                    side == Side::Crusader && s.kind == SiegeKind::SiegeTower
                }
            }
        }
    }

    /// Acre 7.11-7.13, 7.23: the armies that may enter this Assault Phase.
    fn armies_allowed(&self) -> Vec<crate::rules::Army> {
        match (self.phases, self.allocation.moslem) {
            (Some(p), Some(m)) if p.assault => {
                intervention::armies(&self.rules, m.intervention, self.outerworks_entered)
            }
            _ => Vec::new(),
        }
    }

    /// The Impulse being played (0 outside the Assault Phase).
    pub fn impulse(&self) -> u8 {
        match self.turn.step {
            Step::Impulse { impulse, .. } => impulse,
            _ => 0,
        }
    }

    /// Acre 7.21, 9.26: whether an off-map army unit may enter the map now
    /// ([`intervention::may_deploy`]) of the armies `allowed` ([`Self::armies_allowed`]):
    /// not after retreating off the map this Assault Phase, except Saladin's Guard from the
    /// next Impulse on.
    fn may_enter_with(&self, unit: usize, allowed: &[crate::rules::Army]) -> bool {
        intervention::may_deploy(
            &self.rules,
            &self.pos,
            unit,
            allowed,
            &self.retreated_off,
            self.impulse(),
        )
    }

    /// Acre 5.0: select a piece, then one of its destinations or let it go.
    fn movement_actions(&self, side: Side, strategic: bool) -> Vec<Action> {
        if let Some(p) = self.work.selected {
            let hexes = moves::destination_hexes(self, p, strategic);
            // Room for the moves and the let-go, so that the list grows only for charges.
            let mut out: Vec<Action> = Vec::with_capacity(hexes.len() + 1);
            out.extend(hexes.into_iter().map(Action::Move));
            // 15.21: a charge is made in a Crusader Movement Segment of the Assault Phase.
            if let (Piece::Unit(u), false, Side::Crusader) = (p, strategic, side) {
                out.extend(
                    moves::charges(self, u)
                        .into_keys()
                        .map(|(to, target)| Action::Charge(to, target)),
                );
            }
            out.push(Action::Deselect);
            return out;
        }
        let movers = self.movers(side, strategic);
        // Room for the selections and the end, so that the list never grows.
        let mut out: Vec<Action> = Vec::with_capacity(movers.len() + 1);
        out.extend(movers.into_iter().map(Action::Select));
        out.push(Action::End);
        out
    }

    /// The tunnels with the hexes allocated this segment added, to check the next one.
    fn planned_tunnels(&self) -> engineering::Tunnels {
        let mut t = self.tunnels.clone();
        for &(b, h) in &self.work.digs {
            t.shafts[b].push(h);
        }
        t
    }

    /// Acre 13.21, 13.22, 13.25: build bases, then allocate Tunnel Points to tunnel hexes.
    fn tunnel_actions(&self) -> Vec<Action> {
        let r = &self.rules;
        let left = self.tunnels.points.saturating_sub(self.work.spent);
        let mut out = Vec::new();
        if !self.tunnels.bases_complete(r) {
            if left >= r.scenario.engineering.tunnel_base_cost {
                out.extend(
                    self.derived
                        .base_sites
                        .iter()
                        .filter(|h| !self.tunnels.bases.contains(h))
                        .map(|&h| Action::Base(h)),
                );
            }
        } else if left > 0 {
            let t = self.planned_tunnels();
            for b in 0..t.bases.len() {
                if t.spent[b] {
                    continue;
                }
                for h in r.map.neighbours(t.end(b)) {
                    if t.may_extend(r, b, h) {
                        out.push(Action::Dig(b, h));
                    }
                }
            }
        }
        out.push(Action::End);
        out
    }

    /// The hexes the Moslem may search now (13.31).
    fn search_hexes(&self) -> Vec<Hex> {
        let r = &self.rules;
        let grid = r.map.grid;
        let range = r.scenario.engineering.discovery_range;
        let board = Board::new(r, &self.pos);
        // By grid index: within range of a Wall/Tower hex the Crusader does not hold.
        let mut near_held = vec![false; grid.len()];
        for &w in &self.derived.walls {
            if board.side_at(r, w) == Some(Side::Crusader) {
                continue;
            }
            for h in w.within(range) {
                if let Some(k) = grid.index(h) {
                    near_held[k] = true;
                }
            }
        }
        grid.hexes()
            .zip(near_held)
            .filter(|&(h, near)| near && engineering::tunnellable(r, h))
            .map(|(h, _)| h)
            .filter(|h| !self.work.searches.contains(h))
            .collect()
    }

    /// Acre 13.31: one search per Engineer Point allocated to discovery.
    fn search_actions(&self) -> Vec<Action> {
        let points = self.allocation.moslem.map_or(0, |m| m.discovery);
        let mut out = Vec::new();
        if self.work.spent < points {
            out.extend(self.search_hexes().into_iter().map(Action::Search));
        }
        out.push(Action::End);
        out
    }

    /// Acre 13.28: the tunnels dug into a Wall or Tower hex this Game-Turn and undiscovered.
    fn cave_in_actions(&self) -> Vec<Action> {
        let mut out: Vec<Action> = self
            .tunnels
            .new_wall_hexes
            .iter()
            .filter(|(_, h)| self.tunnels.check_cave_in(&self.rules, *h).is_ok())
            .map(|&(_, h)| Action::CaveIn(h))
            .collect();
        out.dedup();
        out.push(Action::End);
        out
    }

    /// Acre 8.11-8.13: each giant catapult on the map allocated to a Wall/Tower hex in range.
    fn bombard_actions(&self) -> Vec<Action> {
        let (r, pos) = (&self.rules, &self.pos);
        engine_allocations(
            r.siege.len(),
            &self.work.shots,
            &self.derived.walls,
            |shots| bombardment::bombardment_allowed(r, pos, shots),
            Action::Bombard,
        )
    }

    /// Acre 8.21, 8.22: each small catapult on a Wall/Tower hex allocated to a giant catapult
    /// in range.
    fn counter_actions(&self) -> Vec<Action> {
        let (r, pos) = (&self.rules, &self.pos);
        let targets: Vec<usize> = (0..r.siege.len()).collect();
        engine_allocations(
            r.siege.len(),
            &self.work.counter,
            &targets,
            |shots| bombardment::counter_bombardment_allowed(r, pos, shots),
            Action::Counter,
        )
    }

    /// Acre 8.31, 13.33: Engineer Points allocated to damaged Wall/Tower hexes.
    fn repair_actions(&self) -> Vec<Action> {
        let r = &self.rules;
        let mut out = Vec::new();
        if self.work.repairs.len() < usize::from(self.allocation.repair_points()) {
            for (&h, &d) in &self.pos.damage {
                let mut next = self.work.repairs.clone();
                next.push(h);
                let points = self.allocation.repair_points();
                if d > 0 && bombardment::check_repair(r, &self.pos, &next, points).is_ok() {
                    out.push(Action::Repair(h));
                }
            }
        }
        out.push(Action::End);
        out
    }

    /// Whatever of `side` may fire this segment, not yet declared.
    fn firers(&self, side: Side) -> Vec<Firer> {
        let r = &self.rules;
        let declared = &self.work.fire[ix(side)];
        let units = (0..r.units.len())
            .filter(|&u| r.side_of(u) == side && r.unit_type(u).kind == Kind::Fire)
            .filter(|&u| self.pos.hex_of(u).is_some())
            .map(Firer::Unit);
        let engines = (0..r.siege.len())
            .filter(|&e| r.siege[e].side == side && self.pos.siege[e].at.hex().is_some())
            .filter(|&e| {
                matches!(
                    r.siege[e].kind,
                    SiegeKind::SmallCatapult | SiegeKind::Ballista
                )
            })
            .map(Firer::Siege);
        units
            .chain(engines)
            .filter(|f| !declared.iter().any(|(d, _)| d == f))
            .collect()
    }

    /// Acre 9.0, 9.13: each firer at one enemy unit it may fire at.
    fn fire_actions(&self, side: Side) -> Vec<Action> {
        let r = &self.rules;
        let mut out = Vec::new();
        if !self.work.fire_ended[ix(side)] {
            // Only a hex with an enemy combat unit is a target (9.21, 12.31): the others are
            // not asked of [`fire::check_fire`], which would refuse them.
            let grid = r.map.grid;
            // By grid index: holds an enemy combat unit (the first by index in the hex, as
            // [`Pieces::side_at`] answers, written last).
            let mut enemy_in = vec![false; grid.len()];
            for (u, unit) in self.pos.units.iter().enumerate().rev() {
                if let Some(k) = unit.at.hex().and_then(|h| grid.index(h)) {
                    enemy_in[k] = r.side_of(u) != side;
                }
            }
            let chargers = self.chargers_now();
            for f in self.firers(side) {
                let at = match f {
                    Firer::Unit(u) => self.pos.hex_of(u),
                    Firer::Siege(e) => self.pos.siege[e].at.hex(),
                };
                let Some(at) = at else { continue };
                // The hexes of `at.within(4)`, in its order.
                for &(dq, dr) in self.derived.within_sight() {
                    let t = Hex::new(at.q + dq, at.r + dr);
                    let enemy = grid.index(t).is_some_and(|k| enemy_in[k]);
                    if enemy && self.may_fire(f, t, &chargers) {
                        out.push(Action::Fire(f, t));
                    }
                }
            }
            out.push(Action::End);
        }
        out
    }

    /// Acre 9.0, 9.11-9.13, 9.4: [`fire::check_fire`] of a fire, with the lines of sight
    /// kept for the data ([`crate::state::Derived::line_of_sight`]).
    fn may_fire(&self, f: Firer, t: Hex, chargers: &[usize]) -> bool {
        let r = &self.rules;
        fire::check_fire_seen(r, &self.pos, f, t, chargers, |a, b| {
            self.derived.line_of_sight(r, a, b)
        })
        .is_ok()
    }

    /// A shortcut of [`Self::legal`] for a fire (9.0): `Some` when `action` is a fire and the
    /// legal actions are those of the Fire Segment ([`Self::fire_actions`]), holding whether
    /// the fire is listed: a firer not yet declared at a hex on the map within four hexes
    /// that holds an enemy combat unit, which [`fire::check_fire`] accepts.
    fn fire_listed(&self, side: Side, action: &Action) -> Option<bool> {
        let Action::Fire(f, t) = action else {
            return None;
        };
        let fire_segment = matches!(
            self.turn.step,
            Step::Impulse {
                segment: Segment::Fire,
                ..
            }
        );
        if !fire_segment || !self.free_to_act(side) {
            return None;
        }
        if self.work.fire_ended[ix(side)] || !self.firers(side).contains(f) {
            return Some(false);
        }
        let at = match *f {
            Firer::Unit(u) => self.pos.hex_of(u),
            Firer::Siege(e) => self.pos.siege[e].at.hex(),
        };
        let r = &self.rules;
        let listed = at.is_some_and(|at| at.distance(*t) <= 4)
            && r.map.on_map(*t)
            && self.pos.side_at(r, *t).is_some_and(|s| s != side)
            && self.may_fire(*f, *t, &self.chargers_now());
        Some(listed)
    }

    /// Acre 15.23: the units charging this Impulse (they may not be fired upon).
    fn chargers_now(&self) -> Vec<usize> {
        self.charging.iter().map(|(c, _)| *c).collect()
    }

    /// Acre 15.21: the charges still owed this Melee Segment: each charging unit that may
    /// still attack the Moslem unit it charged. The Crusader may not end the segment, nor
    /// resolve a melee on that hex without it, while one is owed.
    fn owed_charges(&self) -> Vec<(usize, Hex)> {
        let r = &self.rules;
        let Step::Impulse {
            segment: Segment::CrusaderMelee,
            ..
        } = self.turn.step
        else {
            return Vec::new();
        };
        self.charging
            .iter()
            .filter_map(|&(u, target)| Some((u, self.pos.hex_of(target)?)))
            .filter(|&(u, t)| {
                self.may_attack(Segment::CrusaderMelee, u)
                    && self.attackable(Side::Crusader, t)
                    && self.pos.side_at(r, t) == Some(Side::Moslem)
                    && self.may_attack_hex(u, t)
            })
            .collect()
    }

    /// Acre 13.11: units that did not move this Impulse fill an adjacent foss hex.
    fn fill_actions(&self) -> Vec<Action> {
        let r = &self.rules;
        let mut out = Vec::new();
        for u in 0..r.units.len() {
            if r.side_of(u) != Side::Crusader || self.work.done.contains(&Piece::Unit(u)) {
                continue;
            }
            let Some(at) = self.pos.hex_of(u) else {
                continue;
            };
            let moved = self.moved.contains(&u);
            for h in r.map.neighbours(at) {
                if engineering::fill_allowed(r, &self.pos, u, moved, h) {
                    out.push(Action::Fill(u, h));
                }
            }
        }
        out.push(Action::End);
        out
    }

    /// Acre 10.11, 10.15: whether a unit may attack in this Melee Segment.
    fn may_attack(&self, segment: Segment, u: usize) -> bool {
        let r = &self.rules;
        let garrison = r.contingent_of(u).army == Some(crate::rules::Army::Garrison);
        let in_segment = match segment {
            Segment::GarrisonMelee => r.side_of(u) == Side::Moslem && garrison,
            Segment::CrusaderMelee => r.side_of(u) == Side::Crusader,
            Segment::ArmyMelee => r.side_of(u) == Side::Moslem && !garrison,
            _ => false,
        };
        in_segment
            && r.unit_type(u).kind == Kind::Melee
            && !self.pos.units[u].disrupted
            && self.pos.hex_of(u).is_some()
            && !self.work.attacked_with.contains(&u)
    }

    /// Acre 10.13, 10.3: whether `u` may attack the hex.
    fn may_attack_hex(&self, u: usize, target: Hex) -> bool {
        melee::ladder_needed(&self.rules, &self.pos, u, target).is_ok()
    }

    /// Acre 10.13: whether a hex may be attacked by `side`: an enemy combat unit, or an enemy
    /// leader or siege unit alone, not attacked yet this segment.
    fn attackable(&self, side: Side, hex: Hex) -> bool {
        self.attackable_on(&self.pos, side, hex)
    }

    /// [`Self::attackable`] asking `pieces` (the position or a [`Board`] of it) what stands
    /// in the hex.
    fn attackable_on<P: Pieces + ?Sized>(&self, pieces: &P, side: Side, hex: Hex) -> bool {
        let r = &self.rules;
        if self.work.attacked.contains(&hex) {
            return false;
        }
        match pieces.unit_at(hex) {
            Some(u) => r.side_of(u) != side && !self.work.evaded.iter().any(|(e, _)| *e == u),
            None => {
                pieces
                    .leader_at(hex)
                    .is_some_and(|l| r.leaders[l].side != side)
                    || pieces
                        .siege_at(hex)
                        .is_some_and(|e| r.siege[e].side != side)
            }
        }
    }

    /// Acre 10.1, 10.12, 10.14: announce melees, add attackers, resolve; attacks are voluntary
    /// (10.12): `end` is always offered beside them, save for a charge that must be made.
    fn melee_actions(&self, segment: Segment) -> Vec<Action> {
        let r = &self.rules;
        let attackers: Vec<usize> = (0..r.units.len())
            .filter(|&u| self.may_attack(segment, u))
            .collect();
        if let Some(m) = &self.work.melee {
            if m.awaiting_evade {
                return vec![Action::Evade, Action::Stand];
            }
            let mut out: Vec<Action> = attackers
                .iter()
                .filter(|u| !m.attackers.contains(u))
                .filter(|&&u| self.may_attack_hex(u, m.target))
                .map(|&u| Action::Join(u))
                .collect();
            let charger_missing = self
                .owed_charges()
                .iter()
                .any(|(u, t)| *t == m.target && !m.attackers.contains(u));
            if !m.attackers.is_empty() && !charger_missing {
                out.push(Action::Resolve);
            }
            return out;
        }
        let side = match segment {
            Segment::CrusaderMelee => Side::Crusader,
            _ => Side::Moslem,
        };
        let mut targets = std::collections::BTreeSet::new();
        let board = Board::new(r, &self.pos);
        for &u in &attackers {
            let Some(at) = self.pos.hex_of(u) else {
                continue;
            };
            for h in r.map.neighbours(at) {
                if self.attackable_on(&board, side, h) && self.may_attack_hex(u, h) {
                    targets.insert(h);
                }
            }
        }
        let mut out: Vec<Action> = targets.into_iter().map(Action::Attack).collect();
        out.extend(self.grenade_actions(segment));
        if self.owed_charges().is_empty() {
            out.push(Action::End);
        }
        out
    }

    /// Acre 15.3: the grenade attacks the Naphtha Grenadiers may make now: at each adjacent
    /// Crusader combat unit not attacked yet this segment ([`crate::cavalry::check_grenade_attack`]).
    fn grenade_actions(&self, segment: Segment) -> Vec<Action> {
        let r = &self.rules;
        let mut out = Vec::new();
        for g in (0..r.units.len()).filter(|&g| r.unit_type(g).grenadier) {
            if !self.may_attack(segment, g) {
                continue;
            }
            let Some(at) = self.pos.hex_of(g) else {
                continue;
            };
            for h in r.map.neighbours(at) {
                let ok = self.attackable(Side::Moslem, h)
                    && self.pos.unit_at(h).is_some()
                    && crate::cavalry::check_grenade_attack(r, &self.pos, g, h, self.grenades)
                        .is_ok();
                if ok {
                    out.push(Action::Grenade(h));
                }
            }
        }
        out
    }

    /// Acre 15.3, 10.3: a grenade attack: the grenadiers mount the wall first if they must
    /// (10.31; a failed roll throws no grenade: rules-notes), then the defender retreats, no
    /// die rolled; the grenadiers may advance after it (10.72).
    fn grenade(&mut self, target: Hex, log: &mut Log) {
        let r = self.rules.clone();
        let Some(g) = (0..r.units.len()).find(|&g| {
            r.unit_type(g).grenadier && self.pos.hex_of(g).is_some_and(|at| at.is_adjacent(target))
        }) else {
            return;
        };
        let Some(defender) = self.pos.unit_at(target) else {
            return;
        };
        let Ok(ladder) =
            crate::cavalry::check_grenade_attack(&r, &self.pos, g, target, self.grenades)
        else {
            return;
        };
        self.work.attacked.insert(target);
        self.work.attacked_with.insert(g);
        if ladder {
            let up = self.ladder_roll(
                &r.units[g].name,
                false,
                ("Acre 10.31", "mounts the wall", "fails to mount the wall"),
                log,
            );
            if !up {
                return;
            }
        }
        self.grenades += 1;
        log.push_with(|| {
            Event::public(
                "Acre 15.3",
                format!(
                    "{} throw naphtha grenades at {} in {} ({} of {})",
                    r.units[g].name,
                    r.units[defender].name,
                    r.map.id(target),
                    self.grenades,
                    r.scenario.engineering.naphtha_grenades
                ),
            )
        });
        self.apply_result(defender, crate::cavalry::grenade_result(), "Acre 15.3", log);
        self.after_melee(Side::Moslem, vec![g], defender, target, Vec::new(), log);
    }

    /// Acre 9.27: whether a retreating garrison unit may take a step loss and stay instead.
    fn may_hold(&self, i: usize) -> bool {
        let rt = &self.retreats.units[i];
        rt.moved == 0 && melee::may_take_step_instead(&self.rules, &self.pos, rt.unit)
    }

    /// The steps the retreating unit `i` may take now: its options (9.3) less hexes its own
    /// side has already chosen this round (5.51).
    fn retreat_options(&self, i: usize) -> Vec<RetreatStep> {
        let r = &self.rules;
        let options = retreat::step_options(r, &self.pos, &self.retreats.units);
        let side = r.side_of(self.retreats.units[i].unit);
        let taken: Vec<Hex> = self
            .retreats
            .units
            .iter()
            .zip(&self.retreats.chosen)
            .filter(|(rt, _)| r.side_of(rt.unit) == side)
            .filter_map(|(_, c)| match c {
                Some(Some(RetreatStep::To(h))) => Some(*h),
                _ => None,
            })
            .collect();
        options[i]
            .iter()
            .copied()
            .filter(|s| !matches!(s, RetreatStep::To(h) if taken.contains(h)))
            .collect()
    }

    fn retreat_actions(&self, i: usize) -> Vec<Action> {
        let u = self.retreats.units[i].unit;
        let mut out: Vec<Action> = self
            .retreat_options(i)
            .into_iter()
            .map(|s| Action::Retreat(u, s))
            .collect();
        if self.may_hold(i) {
            out.push(Action::Hold(u));
        }
        if let Some(&(_, forced)) = self.work.evaded.iter().find(|(e, _)| *e == u) {
            if retreat::may_stop_before_combat(&self.rules, &self.retreats.units[i], forced) {
                out.push(Action::Stop(u));
            }
        }
        out
    }

    /// Acre 11.3: the pieces of `side` that must be redeployed: on the map outside the
    /// side's area, or returned from the Regrouping Box.
    fn to_redeploy(&self, side: Side) -> Vec<Piece> {
        let r = &self.rules;
        let area = self.redeploy_area(side);
        let mut out = Vec::new();
        for u in 0..r.units.len() {
            if r.side_of(u) != side {
                continue;
            }
            let outside = self.pos.hex_of(u).is_some_and(|h| !area.contains(&h));
            if outside || self.work.returned.contains(&u) {
                out.push(Piece::Unit(u));
            }
        }
        for l in 0..r.leaders.len() {
            if r.leaders[l].side == side
                && self.pos.leaders[l]
                    .at
                    .hex()
                    .is_some_and(|h| !area.contains(&h))
            {
                out.push(Piece::Leader(l));
            }
        }
        out
    }

    fn redeploy_area(&self, side: Side) -> &std::collections::BTreeSet<Hex> {
        match side {
            Side::Crusader => &self.derived.crusader_redeploy,
            Side::Moslem => &self.derived.moslem_redeploy,
        }
    }

    /// Acre 11.31, 11.32: place the next piece to redeploy.
    fn redeploy_actions(&self, side: Side) -> Vec<Action> {
        let r = &self.rules;
        let Some(piece) = self.to_redeploy(side).into_iter().next() else {
            return Vec::new();
        };
        let ground = self.redeploy_area(side);
        let board = Board::new(r, &self.pos);
        ground
            .iter()
            .copied()
            .filter(|&h| regroup::redeploy_allowed_on_ground(r, &board, piece, h))
            .map(|h| Action::Place(piece, h))
            .collect()
    }

    // ---------------------------------------------------------------------------------------
    // Applying actions
    // ---------------------------------------------------------------------------------------

    /// Applies a legal action; anything else is refused with the reason.
    pub fn play(
        &mut self,
        seat: Seat,
        action: &Action,
        log: &mut Log,
    ) -> Result<Applied, Rejection> {
        let Some(side) = side_of_seat(seat) else {
            return Err(Rejection::new("Acre has two seats: crusader and moslem"));
        };
        if !self.pending_sides().contains(&side) {
            return Err(Rejection::new(format!(
                "{} has no decision to make now",
                side_name(side)
            )));
        }
        // The path of a move of the selected piece, found while checking it.
        let (legal, path) = match self.selected_move(side, action) {
            Some(path) => (path.is_some(), path),
            None => {
                let listed = self
                    .fire_listed(side, action)
                    .or_else(|| self.choice_listed(side, action))
                    .or_else(|| self.step_listed(side, action))
                    .or_else(|| self.placing_listed(action))
                    .or_else(|| self.setup_listed(action));
                let legal = match listed {
                    Some(listed) => listed,
                    None => self.deselect_listed(side, action) || self.legal(seat).contains(action),
                };
                (legal, None)
            }
        };
        if !legal {
            return Err(Rejection::new(format!(
                "`{}` is not legal now ({})",
                action.text(self),
                self.step_name()
            )));
        }
        let mut applied = Applied::default();
        match self.stage {
            Stage::SetUp(side) => self.apply_setup(side, action, log),
            Stage::Play => self.apply_play(side, action, path, log, &mut applied),
            Stage::Over => {}
        }
        self.settle(log, &mut applied);
        Ok(applied)
    }

    /// Whether the legal actions of `side` now are its step's own ([`Self::play_actions`]):
    /// in play, its decision to make, no leader to place or follow, no retreat or advance
    /// before them.
    fn free_to_act(&self, side: Side) -> bool {
        let busy = !self.placing.is_empty()
            || !self.following.is_empty()
            || self.next_retreater().is_some()
            || self.work.advance.is_some();
        self.stage == Stage::Play && !busy && self.pending_sides().contains(&side)
    }

    /// Whether the legal actions of `side` now are those of a Movement Segment (5.0,
    /// [`Self::movement_actions`]), and if so whether it is the Strategic Movement Segment.
    fn moving(&self, side: Side) -> Option<bool> {
        let strategic = match self.turn.step {
            Step::CrusaderStrategic | Step::MoslemStrategic => true,
            Step::Impulse {
                segment: Segment::CrusaderMovement | Segment::MoslemMovement,
                ..
            } => false,
            _ => return None,
        };
        self.free_to_act(side).then_some(strategic)
    }

    /// Whether the legal actions of `side` now are those of a selected piece in a Movement
    /// Segment (5.0, [`Self::movement_actions`]), and if so whether the piece is strategic.
    fn selected_piece_moving(&self, side: Side) -> Option<(Piece, bool)> {
        let strategic = self.moving(side)?;
        Some((self.work.selected?, strategic))
    }

    /// A shortcut of [`Self::legal`] for selecting a piece or ending the segment while no
    /// piece is selected in a Movement Segment (5.0, [`Self::movement_actions`]): `Some`
    /// holding whether it is listed (a piece that may move; the end always).
    fn choice_listed(&self, side: Side, action: &Action) -> Option<bool> {
        let strategic = self.moving(side)?;
        if self.work.selected.is_some() {
            return None;
        }
        match action {
            Action::Select(p) => Some(
                !self.work.done.contains(p)
                    && self.may_move(side, strategic, &self.armies_allowed(), *p),
            ),
            Action::End => Some(true),
            _ => None,
        }
    }

    /// A shortcut of [`Self::legal`] for a move of the selected piece (5.0), the most
    /// frequent action: `Some` when `action` is a move and the legal actions are those of
    /// the selected piece ([`Self::movement_actions`]), holding the path of the move when it
    /// is one of them; `None` when the whole list must be asked.
    fn selected_move(&self, side: Side, action: &Action) -> Option<Option<Vec<Hex>>> {
        let Action::Move(hex) = action else {
            return None;
        };
        let (p, strategic) = self.selected_piece_moving(side)?;
        Some(moves::path_to(self, p, strategic, *hex))
    }

    /// A shortcut of [`Self::legal`] while a leader unharmed by the leader loss procedure
    /// waits to be placed (14.41): then the only actions listed are his placements with a
    /// friendly combat unit in a hex without a leader ([`Self::leader_places`]). `Some`
    /// holding whether `action` is listed; `None` when no leader waits.
    fn placing_listed(&self, action: &Action) -> Option<bool> {
        if self.stage != Stage::Play {
            return None;
        }
        let &l = self.placing.first()?;
        let listed = match *action {
            Action::Place(Piece::Leader(x), h) => {
                let r = &self.rules;
                let side = r.leaders[l].side;
                x == l
                    && self.pos.leader_at(h).is_none()
                    && (0..r.units.len())
                        .any(|u| r.side_of(u) == side && self.pos.hex_of(u) == Some(h))
            }
            _ => false,
        };
        Some(listed)
    }

    /// A shortcut of [`Self::legal`] for the actions of a step that are checked one at a time
    /// rather than by listing them all: ending the Fire Segment (listed until the side has
    /// ended its fire, [`Self::fire_actions`]) and the steps that always offer their end
    /// (tunnels, discovery, repair, foss filling), a tunnel hex dug
    /// ([`Self::tunnel_actions`]) and a piece redeployed ([`Self::redeploy_actions`]).
    /// `Some` holding whether `action` is listed; `None` when the whole list must be asked.
    fn step_listed(&self, side: Side, action: &Action) -> Option<bool> {
        if !self.free_to_act(side) {
            return None;
        }
        let r = &self.rules;
        match (self.turn.step, action) {
            (
                Step::Impulse {
                    segment: Segment::Fire,
                    ..
                },
                Action::End,
            ) => Some(!self.work.fire_ended[ix(side)]),
            (
                Step::Tunnel
                | Step::Discovery
                | Step::Repair
                | Step::Impulse {
                    segment: Segment::FossFilling,
                    ..
                },
                Action::End,
            ) => Some(true),
            (Step::Tunnel, &Action::Dig(b, h)) => {
                let left = self.tunnels.points.saturating_sub(self.work.spent);
                if !self.tunnels.bases_complete(r) || left == 0 || b >= self.tunnels.bases.len() {
                    return Some(false);
                }
                let t = self.planned_tunnels();
                let listed = !t.spent.get(b).copied().unwrap_or(true)
                    && r.map.neighbours(t.end(b)).any(|n| n == h)
                    && t.may_extend(r, b, h);
                Some(listed)
            }
            (Step::Regrouping, &Action::Place(piece, h)) => {
                let ground = self.redeploy_area(side);
                let listed = self.to_redeploy(side).first() == Some(&piece)
                    && ground.contains(&h)
                    && regroup::check_redeploy_on(r, &self.pos, piece, h, ground).is_ok();
                Some(listed)
            }
            _ => None,
        }
    }

    /// A shortcut of [`Self::legal`]: letting the selected piece go is always listed while
    /// a piece is selected in a Movement Segment ([`Self::movement_actions`]).
    fn deselect_listed(&self, side: Side, action: &Action) -> bool {
        *action == Action::Deselect && self.selected_piece_moving(side).is_some()
    }

    /// What the game is waiting for, in words.
    pub fn step_name(&self) -> String {
        match self.stage {
            Stage::SetUp(side) => format!("set-up of {} (17.0)", side_name(side)),
            Stage::Over => "the game is over".into(),
            Stage::Play => {
                let step = match self.turn.step {
                    Step::Allocation => "Allocation Segment".to_string(),
                    Step::CrusaderStrategic => "Crusader Strategic Movement".into(),
                    Step::MoslemStrategic => "Moslem Strategic Movement".into(),
                    Step::Tunnel => "Crusader Tunnel Segment".into(),
                    Step::Discovery if self.work.caving => "cave-ins (13.28)".into(),
                    Step::Discovery => "Moslem Tunnel Discovery Segment".into(),
                    Step::Bombardment => "Crusader Bombardment Segment".into(),
                    Step::CounterBombardment => "Moslem Counter-Bombardment Segment".into(),
                    Step::Repair => "Moslem Damage Repair Segment".into(),
                    Step::Impulse { impulse, segment } => {
                        let s = match segment {
                            Segment::CrusaderMovement => "A. Crusader Movement",
                            Segment::MoslemMovement => "B. Moslem Movement",
                            Segment::Fire => "C. Simultaneous Fire Combat",
                            Segment::FossFilling => "D. Crusader Foss Filling",
                            Segment::GarrisonMelee => "E. Moslem Garrison Melee",
                            Segment::CrusaderMelee => "F. Crusader Melee",
                            Segment::ArmyMelee => "G. Moslem Army Melee",
                            Segment::DisruptionRemoval => "H. Disruption Removal",
                        };
                        format!("Impulse {impulse}, {s}")
                    }
                    Step::Regrouping => "I. Regrouping Segment".into(),
                };
                let extra = if !self.placing.is_empty() {
                    ", placing a leader (14.41)"
                } else if self.next_retreater().is_some() {
                    ", retreats (9.3)"
                } else {
                    ""
                };
                format!("Game-Turn {}, {step}{extra}", self.turn.turn)
            }
        }
    }

    fn apply_setup(&mut self, side: Side, action: &Action, log: &mut Log) {
        let r = self.rules.clone();
        match action {
            Action::DeployHistorical => {
                if let Ok(hist) = setup::historical_kept(&r, self.conrad) {
                    for p in setup::pieces(&r, side, self.conrad) {
                        set_at(&mut self.pos, p, p.at(&hist));
                    }
                }
                log.push_with(|| {
                    Event::public(
                        "Acre 17.0",
                        format!(
                            "{} sets up as in the historical quick start",
                            side_name(side)
                        ),
                    )
                });
            }
            Action::Place(piece, hex) => {
                set_at(&mut self.pos, *piece, Location::Map(*hex));
                log.push_with(|| {
                    Event::public(
                        "Acre 17.0",
                        format!("{} sets up in {}", piece.name(&r), r.map.id(*hex)),
                    )
                });
            }
            _ => {}
        }
        let all_placed = setup::pieces(&r, side, self.conrad)
            .iter()
            .all(|p| p.at(&self.pos) != Location::OffMap);
        if all_placed && setup::check_complete(&r, &self.pos, side, self.conrad).is_ok() {
            self.stage = match side {
                Side::Crusader => Stage::SetUp(Side::Moslem),
                Side::Moslem => {
                    log.push_with(|| Event::public("Acre 4.0", "Game-Turn 1 begins"));
                    self.enter(log);
                    Stage::Play
                }
            };
        }
    }

    fn apply_play(
        &mut self,
        side: Side,
        action: &Action,
        path: Option<Vec<Hex>>,
        log: &mut Log,
        applied: &mut Applied,
    ) {
        let r = self.rules.clone();
        match action {
            Action::Place(Piece::Leader(l), hex) if self.placing.first() == Some(l) => {
                self.placing.remove(0);
                self.pos.leaders[*l].at = Location::Map(*hex);
                log.push_with(|| {
                    Event::public(
                        "Acre 14.41",
                        format!(
                            "{} rejoins his men in {}",
                            r.leaders[*l].name,
                            r.map.id(*hex)
                        ),
                    )
                });
            }
            Action::Follow(l) | Action::Stay(l)
                if self.following.first().map(|f| f.0) == Some(*l) =>
            {
                let (_, u) = self.following.remove(0);
                if matches!(action, Action::Follow(_))
                    && leaders::go_with(&r, &mut self.pos, *l, u).is_ok()
                {
                    let text =
                        format!("{} goes along with {}", r.leaders[*l].name, r.units[u].name);
                    log.push_with(|| Event::public("Acre 9.22", text));
                }
            }
            Action::Retreat(u, step) => {
                if let Some(i) = self.retreats.units.iter().position(|x| x.unit == *u) {
                    self.retreats.chosen[i] = Some(Some(*step));
                }
            }
            Action::Hold(u) => {
                if let Some(i) = self.retreats.units.iter().position(|x| x.unit == *u) {
                    self.retreats.units.remove(i);
                    self.retreats.chosen.remove(i);
                    // 10.7: the defender holds its hex; nothing is vacated.
                    if self.work.advance.as_ref().is_some_and(|a| a.defender == *u) {
                        if let Some(a) = self.work.advance.take() {
                            self.disrupt_chargers(&a.chargers, log);
                        }
                    }
                    let _ = melee::take_step_instead(&r, &mut self.pos, *u);
                    log.push_with(|| {
                        Event::public(
                            "Acre 9.27",
                            format!(
                                "{} takes a step loss and holds the wall in {}",
                                r.units[*u].name,
                                self.pos.hex_of(*u).map(|h| r.map.id(h)).unwrap_or_default()
                            ),
                        )
                    });
                }
            }
            Action::Place(piece, hex) if self.turn.step == Step::Allocation => {
                match piece {
                    Piece::Leader(l) => {
                        self.pos.leaders[*l].at = Location::Map(*hex);
                        self.pos.leaders[*l].wounded_until = None;
                    }
                    Piece::Siege(e) => {
                        let _ =
                            bombardment::return_engine(&r, &mut self.pos, *e, *hex, self.turn.turn);
                    }
                    Piece::Unit(_) => {}
                }
                log.push_with(|| {
                    Event::public(
                        "Acre 14.42, 12.17, 12.24",
                        format!("{} returns to play in {}", piece.name(&r), r.map.id(*hex)),
                    )
                });
            }
            Action::Place(piece, hex) => {
                // 11.31, 11.32: redeployment ([`regroup::redeploy`], checked as legal).
                let ground = self.derived.clone();
                let ground = match piece.side(&r) {
                    Side::Crusader => &ground.crusader_redeploy,
                    Side::Moslem => &ground.moslem_redeploy,
                };
                let _ = regroup::redeploy_on(&r, &mut self.pos, *piece, *hex, ground);
                if let Piece::Unit(u) = piece {
                    self.work.returned.remove(u);
                }
                log.push_with(|| {
                    Event::public(
                        "Acre 11.3",
                        format!("{} redeploys in {}", piece.name(&r), r.map.id(*hex)),
                    )
                });
            }
            Action::Plan(plan) => self.commit_plan(*plan, log, applied),
            Action::Select(p) => self.work.selected = Some(*p),
            Action::Deselect => {
                if let Some(p) = self.work.selected.take() {
                    self.work.done.insert(p);
                    self.work.deselected.insert(p);
                }
            }
            Action::Move(hex) => self.apply_move(*hex, path, log),
            Action::Charge(to, target) => self.apply_charge(*to, *target, log),
            Action::Grenade(hex) => self.grenade(*hex, log),
            Action::Base(hex) => {
                self.tunnels.build_base(*hex);
                self.work.spent += r.scenario.engineering.tunnel_base_cost;
                log.push_with(|| {
                    Event::public(
                        "Acre 13.22",
                        format!("the Crusader builds a Tunnel Base in {}", r.map.id(*hex)),
                    )
                });
            }
            Action::Dig(b, hex) => {
                self.work.digs.push((*b, *hex));
                self.work.spent += 1;
                let text = format!(
                    "Tunnel Point allocated: base {} to {}",
                    b + 1,
                    r.map.id(*hex)
                );
                log.push_with(|| Event::private("Acre 13.25", text, vec![Seat(0)]));
            }
            Action::Search(hex) => self.search(*hex, log),
            Action::CaveIn(hex) => {
                if let Ok(b) = self.tunnels.check_cave_in(&r, *hex) {
                    self.tunnels.cave_in(&mut self.pos, b, *hex);
                    applied.revealed = true;
                    log.push_with(|| {
                        Event::public(
                            "Acre 13.28",
                            format!(
                                "the Crusader caves in the tunnel under {}: a permanent breach",
                                r.map.id(*hex)
                            ),
                        )
                    });
                }
            }
            Action::Bombard(e, hex) => {
                self.work.shots.push((*e, *hex));
                let text = format!("{} is laid on {}", r.siege[*e].name, r.map.id(*hex));
                log.push_with(|| Event::private("Acre 8.11", text, vec![Seat(0)]));
            }
            Action::Counter(c, t) => {
                self.work.counter.push((*c, *t));
                let text = format!("{} is laid on {}", r.siege[*c].name, r.siege[*t].name);
                log.push_with(|| Event::private("Acre 8.21", text, vec![Seat(1)]));
            }
            Action::Repair(hex) => {
                self.work.repairs.push(*hex);
                let text = format!("an Engineer Point is allocated to {}", r.map.id(*hex));
                log.push_with(|| Event::private("Acre 8.31", text, vec![Seat(1)]));
            }
            Action::Fire(f, hex) => {
                self.work.fire[ix(side)].push((*f, *hex));
                let who = match f {
                    Firer::Unit(u) => r.units[*u].name.clone(),
                    Firer::Siege(e) => r.siege[*e].name.clone(),
                };
                let text = format!("{who} will fire at {}", r.map.id(*hex));
                log.push_with(|| Event::private("Acre 9.0", text, vec![planning::seat(side)]));
            }
            Action::Fill(u, hex) => {
                self.pos.filled.insert(*hex);
                self.work.done.insert(Piece::Unit(*u));
                log.push_with(|| {
                    Event::public(
                        "Acre 13.11",
                        format!("{} fills the foss in {}", r.units[*u].name, r.map.id(*hex)),
                    )
                });
            }
            Action::Attack(hex) => {
                self.work.melee = Some(Melee {
                    target: *hex,
                    attackers: Vec::new(),
                    awaiting_evade: false,
                });
                log.push_with(|| {
                    Event::public(
                        "Acre 10.1",
                        format!(
                            "{} announces a melee attack on {}",
                            side_name(side),
                            r.map.id(*hex)
                        ),
                    )
                });
            }
            Action::Join(u) => {
                if let Some(m) = &mut self.work.melee {
                    m.attackers.push(*u);
                }
            }
            Action::Resolve => self.announce_resolve(side, log),
            Action::Stand => {
                if let Some(m) = &mut self.work.melee {
                    m.awaiting_evade = false;
                }
                log.push_with(|| Event::public("Acre 10.21", "the defender stands"));
                self.resolve_melee(Side::Crusader, log);
            }
            Action::Evade => self.evade(false, log),
            Action::Stop(u) => {
                let forced = self
                    .work
                    .evaded
                    .iter()
                    .find(|(e, _)| e == u)
                    .is_some_and(|(_, f)| *f);
                if let Some(i) = self.retreats.units.iter().position(|x| x.unit == *u) {
                    let origin = self.retreats.units[i].origin;
                    let mut all = self.retreats.units.clone();
                    if retreat::stop_before_combat(&r, &mut self.pos, &mut all, *u, forced).is_ok()
                    {
                        self.retreats.units = all;
                        self.retreats.chosen.remove(i);
                        let at = self.pos.hex_of(*u).map(|h| r.map.id(h)).unwrap_or_default();
                        log.push_with(|| {
                            Event::public(
                                "Acre 10.21",
                                format!(
                                    "{} stops its retreat before combat in {at}, disrupted",
                                    r.units[*u].name
                                ),
                            )
                        });
                        self.leader_left_behind(*u, origin);
                    }
                }
            }
            Action::Advance(piece, hex) => {
                if let Some(a) = &mut self.work.advance {
                    let who = match piece {
                        Piece::Unit(u) => Some(melee::Advancer::Unit(*u)),
                        Piece::Leader(l) => Some(melee::Advancer::Leader(*l)),
                        Piece::Siege(_) => None,
                    };
                    if let (Some(who), Some(n)) = (who, a.path.iter().position(|h| h == hex)) {
                        a.moves.push((who, n + 1));
                    }
                }
            }
            Action::End if self.work.advance.is_some() => self.finish_advance(log),
            Action::End => self.end_step(side, log, applied),
            Action::EndAssault => self.work.agree[ix(side)] = Some(true),
            Action::Continue => self.work.agree[ix(side)] = Some(false),
            Action::DeployHistorical | Action::Follow(_) | Action::Stay(_) => {}
        }
    }

    /// Acre 4.0 1.A: a secret plan committed; once both are, 7.0's reveal.
    fn commit_plan(&mut self, plan: Plan, log: &mut Log, applied: &mut Applied) {
        let r = self.rules.clone();
        if self
            .allocation
            .commit(&r, plan, self.engineer_points, &self.used)
            .is_err()
        {
            return;
        }
        for e in Allocation::commit_events(plan) {
            log.push_with(|| e);
        }
        if let Some(phases) = self.allocation.resolve() {
            self.phases = Some(phases);
            applied.revealed = true;
            for e in self.allocation.reveal_events() {
                log.push_with(|| e);
            }
            self.next(false, log);
        }
    }

    /// Moves the selected piece along its path (found by [`moves::destinations`] unless
    /// given), with what it passes through (5.12, 12.13, 12.23, 12.34, 7.23, 10.51).
    fn apply_move(&mut self, hex: Hex, path: Option<Vec<Hex>>, log: &mut Log) {
        let Some(piece) = self.work.selected.take() else {
            return;
        };
        let strategic = matches!(
            self.turn.step,
            Step::CrusaderStrategic | Step::MoslemStrategic
        );
        let path = path.unwrap_or_else(|| {
            moves::destinations(self, piece, strategic)
                .remove(&hex)
                .unwrap_or_else(|| vec![hex])
        });
        self.move_along(piece, hex, &path, log);
    }

    /// Acre 15.21, 15.22: the selected knights charge: they move along the charge's path and
    /// the charge at the unit in `target` is announced, for all to hear.
    fn apply_charge(&mut self, to: Hex, target: Hex, log: &mut Log) {
        let r = self.rules.clone();
        let Some(Piece::Unit(u)) = self.work.selected.take() else {
            return;
        };
        let Some(path) = moves::charges(self, u).remove(&(to, target)) else {
            return;
        };
        log.push_with(|| {
            Event::public(
                "Acre 15.22",
                format!(
                    "{} charges at {} in {}",
                    r.units[u].name,
                    self.pos
                        .unit_at(target)
                        .map(|t| r.units[t].name.clone())
                        .unwrap_or_default(),
                    r.map.id(target)
                ),
            )
        });
        let object = self.pos.unit_at(target);
        self.move_along(Piece::Unit(u), to, &path, log);
        if let Some(t) = object {
            self.charging.push((u, t));
        }
    }

    /// Moves a piece to `hex` along `path` (the hexes entered, `hex` last), with what it
    /// passes through (5.12, 12.13, 12.23, 12.34, 7.23, 10.51).
    fn move_along(&mut self, piece: Piece, hex: Hex, path: &[Hex], log: &mut Log) {
        let r = self.rules.clone();
        self.work.done.insert(piece);
        let side = self.side_of_piece(piece);
        match piece {
            Piece::Unit(u) => {
                let entering = self.pos.units[u].at == Location::OffMap;
                for &h in path {
                    self.overrun(side, h, log);
                    if side == Side::Crusader && r.map.class(h) == Class::Outerworks {
                        self.outerworks_entered = true;
                    }
                    if self.army_unit(u)
                        && r.map.in_acre(h)
                        && melee::army_unit_entered_acre(&mut self.pos)
                    {
                        log.push_with(|| Event::public("Acre 10.51", "an army unit enters Acre for the first time: Moslem Army Morale +1"));
                    }
                }
                self.pos.units[u].at = Location::Map(hex);
                self.moved.insert(u);
                let text = if entering {
                    format!(
                        "{} enters the map and moves to {}",
                        r.units[u].name,
                        r.map.id(hex)
                    )
                } else {
                    format!("{} moves to {}", r.units[u].name, r.map.id(hex))
                };
                log.push_with(|| Event::public("Acre 5.0", text));
            }
            Piece::Leader(l) => {
                self.pos.leaders[l].at = Location::Map(hex);
                log.push_with(|| {
                    Event::public(
                        "Acre 5.0",
                        format!("{} moves to {}", r.leaders[l].name, r.map.id(hex)),
                    )
                });
            }
            Piece::Siege(e) => {
                self.pos.siege[e].at = Location::Map(hex);
                let strategic = matches!(
                    self.turn.step,
                    Step::CrusaderStrategic | Step::MoslemStrategic
                );
                let (case, text) = if strategic {
                    (
                        "Acre 5.17",
                        format!("{} is relocated to {}", r.siege[e].name, r.map.id(hex)),
                    )
                } else {
                    (
                        "Acre 12.11",
                        format!("{} is moved to {}", r.siege[e].name, r.map.id(hex)),
                    )
                };
                log.push_with(|| Event::public(case, text));
            }
        }
    }

    /// Acre 5.12, 9.24, 10.61, 12.13, 12.23, 12.34, 14.33: a combat unit of `side` enters
    /// `hex` (or attacks it in melee): an enemy leader alone there is killed, an enemy siege
    /// unit with no combat unit to guard it damaged or destroyed ([`melee::overrun`]).
    fn overrun(&mut self, side: Side, hex: Hex, log: &mut Log) {
        let r = self.rules.clone();
        let overruns = melee::overrun(&r, &mut self.pos, hex, side, self.turn.turn, self.conrad);
        self.log_overruns(&overruns, log);
    }

    /// The events of leaders and engines overrun ([`melee::Overrun`]).
    fn log_overruns(&mut self, overruns: &[melee::Overrun], log: &mut Log) {
        let r = self.rules.clone();
        for o in overruns {
            match *o {
                melee::Overrun::LeaderKilled { leader, morale } => {
                    log.push_with(|| {
                        Event::public(
                            "Acre 5.12, 14.33",
                            format!("{} is caught alone and killed", r.leaders[leader].name),
                        )
                    });
                    if let Some(n) = morale {
                        log.push_with(|| {
                            Event::public(
                                "Acre 10.5",
                                format!("the {n:?} Army Morale Level falls by one"),
                            )
                        });
                    }
                }
                melee::Overrun::Engine { siege, loss } => {
                    let text = match loss {
                        bombardment::SiegeLoss::Damaged { returns_on } => format!(
                            "{} is damaged and out of play until Game-Turn {returns_on}",
                            r.siege[siege].name
                        ),
                        bombardment::SiegeLoss::Destroyed => {
                            format!("{} is destroyed", r.siege[siege].name)
                        }
                    };
                    log.push_with(|| Event::public("Acre 12.17, 12.24, 12.34", text));
                }
            }
        }
    }

    /// Acre 14.33, 14.41, 10.53-10.55: a leader is killed.
    fn kill_leader(&mut self, l: usize, case: &str, log: &mut Log) {
        let r = self.rules.clone();
        self.pos.leaders[l].dead = true;
        self.pos.leaders[l].at = Location::Destroyed;
        let text = format!("{} is killed", r.leaders[l].name);
        let case = case.to_string();
        log.push_with(|| Event::public(case, text));
        if let Some(n) = melee::leader_killed(&r, &mut self.pos, l, self.conrad) {
            log.push_with(|| {
                Event::public(
                    "Acre 10.5",
                    format!("the {n:?} Army Morale Level falls by one"),
                )
            });
        }
    }

    /// Acre 13.31, 13.32, 13.4: one search.
    fn search(&mut self, hex: Hex, log: &mut Log) {
        let r = self.rules.clone();
        self.work.spent += 1;
        self.work.searches.push(hex);
        let id = r.map.id(hex);
        if self.tunnels.operative(hex).is_some() {
            let roll = self.dice.d6();
            let (m, c, closed) = self.tunnels.subterranean_combat(&r, hex, roll);
            self.engineer_points = engineering::engineer_points_after(self.engineer_points, m);
            let closed: Vec<String> = closed.iter().map(|h| r.map.id(*h)).collect();
            let text = format!(
                "the Moslem engineers find a tunnel in {id}: subterranean combat; the Moslem \
                 loses {m} Engineer Points, the Crusader {c} Tunnel Points; closed: {}",
                closed.join(", ")
            );
            log.push_with(|| {
                Event::public("Acre 13.31, 13.32", text).with_roll(roll_record(
                    format!("subterranean combat in {id}"),
                    vec![roll],
                    "13.4 Subterranean Combat Table",
                    format!("Moslem -{m}, Crusader -{c}"),
                ))
            });
        } else {
            self.searched.insert(hex);
            log.push_with(|| {
                Event::public(
                    "Acre 13.31",
                    format!("the Moslem engineers search {id} and find no tunnel"),
                )
            });
        }
    }

    /// `end`: the segment's work done (rolling the dice of its allocations).
    fn end_step(&mut self, side: Side, log: &mut Log, applied: &mut Applied) {
        let r = self.rules.clone();
        match self.turn.step {
            Step::Tunnel => {
                self.roll_tunnels(log);
                self.next(false, log);
            }
            Step::Discovery if !self.work.caving => {
                self.work.caving = true;
                log.push_with(|| Event::public("Acre 13.31", "the Moslem searches are over"));
            }
            Step::Bombardment => {
                for (e, hex) in std::mem::take(&mut self.work.shots) {
                    let roll = self.dice.d6();
                    let points = bombardment::bombard(&r, &mut self.pos, hex, roll);
                    let level = self.pos.damage.get(&hex).copied().unwrap_or(0);
                    let text = format!(
                        "{} bombards {}: {points} Breach Points, damage level {level}",
                        r.siege[e].name,
                        r.map.id(hex)
                    );
                    log.push_with(|| {
                        Event::public("Acre 8.1", text).with_roll(roll_record(
                            format!("bombardment of {}", r.map.id(hex)),
                            vec![roll],
                            "8.4 Bombardment Table",
                            format!("{points} Breach Points"),
                        ))
                    });
                }
                self.next(false, log);
            }
            Step::CounterBombardment => {
                for (c, t) in std::mem::take(&mut self.work.counter) {
                    if self.pos.siege[t].at.hex().is_none() {
                        continue;
                    }
                    let roll = self.dice.d6();
                    let damaged =
                        bombardment::counter_bombard(&r, &mut self.pos, t, roll, self.turn.turn);
                    let result = if damaged { "damaged" } else { "no effect" };
                    let text = format!(
                        "{} counter-bombards {}: {result}",
                        r.siege[c].name, r.siege[t].name
                    );
                    log.push_with(|| {
                        Event::public("Acre 8.2", text).with_roll(roll_record(
                            format!("counter-bombardment of {}", r.siege[t].name),
                            vec![roll],
                            "8.5 Counter-Bombardment Table",
                            result.into(),
                        ))
                    });
                }
                self.next(false, log);
            }
            Step::Repair => {
                let mut by_hex: BTreeMap<Hex, usize> = BTreeMap::new();
                for h in std::mem::take(&mut self.work.repairs) {
                    *by_hex.entry(h).or_insert(0) += 1;
                }
                for (h, n) in by_hex {
                    let rolls: Vec<u8> = (0..n).map(|_| self.dice.d6()).collect();
                    let steps = bombardment::repair(&r, &mut self.pos, h, &rolls);
                    let repaired: u8 = steps.iter().map(|s| s.repaired).sum();
                    let level = self.pos.damage.get(&h).copied().unwrap_or(0);
                    let text = format!(
                        "{n} Engineer Points repair {}: {repaired} Breach Points, damage level {level}",
                        r.map.id(h)
                    );
                    log.push_with(|| {
                        Event::public("Acre 8.3", text).with_roll(roll_record(
                            format!("repair of {}", r.map.id(h)),
                            rolls.clone(),
                            "8.6 Wall Repair Table",
                            format!("{repaired} repaired"),
                        ))
                    });
                }
                self.next(false, log);
            }
            Step::Impulse {
                segment: Segment::Fire,
                ..
            } => {
                self.work.fire_ended[ix(side)] = true;
                if self.work.fire_ended == [true, true] {
                    applied.revealed = true;
                    self.resolve_fire(log);
                }
            }
            _ => self.next(false, log),
        }
    }

    /// Acre 13.24, 13.25: the Tunnel Points' rolls, in the order allocated; a 6 strikes rock
    /// and the rest allocated to that tunnel are lost. Seen by the Crusader only (13.23).
    fn roll_tunnels(&mut self, log: &mut Log) {
        let r = self.rules.clone();
        let mut struck: Vec<usize> = Vec::new();
        for (b, h) in std::mem::take(&mut self.work.digs) {
            if struck.contains(&b) {
                continue;
            }
            let roll = self.dice.d6();
            let ok = self.tunnels.may_extend(&r, b, h) && self.tunnels.dig(&r, b, h, roll);
            if !ok {
                struck.push(b);
            }
            let result = if ok {
                "dug"
            } else {
                "rock or collapse: inoperative"
            };
            let text = format!("tunnel {} into {}: {result}", b + 1, r.map.id(h));
            log.push_with(|| {
                let mut e = Event::private("Acre 13.24", text, vec![Seat(0)]);
                e.rolls.push(roll_record(
                    format!("tunnelling {}", r.map.id(h)),
                    vec![roll],
                    "13.24: 6 strikes rock",
                    result.into(),
                ));
                e
            });
        }
    }

    /// Acre 9.2, 9.23, 9.5: every fire declared is resolved, then all results applied together.
    fn resolve_fire(&mut self, log: &mut Log) {
        let r = self.rules.clone();
        let mut hits: BTreeMap<usize, Vec<CombatResult>> = BTreeMap::new();
        let declared: Vec<(Firer, Hex)> = self.work.fire.iter().flatten().copied().collect();
        for (f, hex) in declared {
            let Some(target) = self.pos.unit_at(hex) else {
                continue;
            };
            let seen = |a, b| self.derived.line_of_sight(&r, a, b);
            let Ok(rating) =
                fire::check_fire_seen(&r, &self.pos, f, hex, &self.chargers_now(), seen)
            else {
                continue;
            };
            let at = match f {
                Firer::Unit(u) => self.pos.hex_of(u),
                Firer::Siege(e) => self.pos.siege[e].at.hex(),
            }
            .unwrap_or(hex);
            let modifier = fire::target_modifier(&r, &self.pos, target, at);
            let roll = self.dice.d6();
            let result = fire::result(&r, rating, roll, modifier);
            hits.entry(target).or_default().push(result);
            let who = match f {
                Firer::Unit(u) => r.units[u].name.clone(),
                Firer::Siege(e) => r.siege[e].name.clone(),
            };
            let text = format!(
                "{who} fires at {} in {}: {}",
                r.units[target].name,
                r.map.id(hex),
                result.letter()
            );
            log.push_with(|| {
                Event::public("Acre 9.0", text).with_roll(RollRecord {
                    purpose: format!("fire at {}", r.units[target].name),
                    dice: vec![roll],
                    modifiers: if modifier != 0 {
                        vec![engine::Modifier {
                            reason: "terrain and target (9.5)".into(),
                            value: modifier,
                        }]
                    } else {
                        Vec::new()
                    },
                    total: i32::from(roll) + modifier,
                    cell: Some(format!("9.5 Fire Combat Results Table, rating {rating}")),
                    result: result.letter().into(),
                })
            });
        }
        for (u, results) in hits {
            let disruptions = results
                .iter()
                .filter(|x| **x == CombatResult::Disrupted)
                .count();
            let worst = results
                .iter()
                .copied()
                .max()
                .unwrap_or(CombatResult::NoEffect);
            let result = if worst == CombatResult::Disrupted && disruptions >= 2 {
                CombatResult::Retreat
            } else {
                worst
            };
            self.apply_result(u, result, "Acre 9.2", log);
        }
        self.work.fire = [Vec::new(), Vec::new()];
        self.work.resolved = true;
    }

    /// Acre 9.23, 9.24, 9.27, 10.6: a combat result on a unit ([`melee::apply_result`]),
    /// with the retreat it starts and the leader loss procedure it calls for.
    fn apply_result(&mut self, u: usize, result: CombatResult, case: &str, log: &mut Log) {
        let r = self.rules.clone();
        let name = r.units[u].name.clone();
        let case = case.to_string();
        let start = retreat::start(&r, &self.pos, u);
        match melee::apply_result(&r, &mut self.pos, u, result) {
            melee::Applied::NoEffect => {}
            melee::Applied::Disrupted => {
                log.push_with(|| Event::public(case, format!("{name} is disrupted")));
            }
            melee::Applied::Retreat { .. } => {
                // 9.24: no road rates next Game-Turn.
                self.retreated_on.insert(u, self.turn.turn);
                if let Some(rt) = start {
                    if !self.retreats.units.iter().any(|x| x.unit == u) {
                        self.retreats.units.push(rt);
                        self.retreats.chosen.push(None);
                        log.push_with(|| {
                            Event::public(
                                "Acre 9.24",
                                format!("{name} must retreat {} hexes", rt.hexes),
                            )
                        });
                    }
                }
            }
            melee::Applied::Reduced => {
                log.push_with(|| Event::public("Acre 9.27", format!("{name} loses a step")));
            }
            melee::Applied::Eliminated { leader } => {
                if let Some(i) = self.retreats.units.iter().position(|x| x.unit == u) {
                    self.retreats.units.remove(i);
                    self.retreats.chosen.remove(i);
                }
                log.push_with(|| {
                    Event::public(
                        "Acre 9.27",
                        format!("{name} is eliminated to the Regrouping Box"),
                    )
                });
                if let Some(l) = leader {
                    self.leader_loss(l, log);
                }
            }
        }
    }

    /// Acre 14.41: the leader loss procedure.
    fn leader_loss(&mut self, l: usize, log: &mut Log) {
        let r = self.rules.clone();
        let side = r.leaders[l].side;
        let (fate, dice) = leaders::roll_leader_loss(&mut self.dice, side, self.turn.turn);
        let result = match fate {
            LeaderFate::Unharmed => "unharmed".to_string(),
            LeaderFate::Wounded { until } => format!("wounded until Game-Turn {until}"),
            LeaderFate::Killed => "killed".to_string(),
        };
        let text = format!("leader loss of {}: {result}", r.leaders[l].name);
        log.push_with(|| {
            Event::public("Acre 14.41", text).with_roll(roll_record(
                format!("leader loss of {}", r.leaders[l].name),
                dice.clone(),
                "14.41",
                result.clone(),
            ))
        });
        match fate {
            LeaderFate::Unharmed => {
                self.pos.leaders[l].at = Location::OffMap;
                if self.leader_places(l).is_empty() {
                    // No friendly combat unit to join: he waits off the map for the next
                    // Allocation Segment, as a wounded leader (rules-notes).
                    self.pos.leaders[l].wounded_until = Some(self.turn.turn);
                } else {
                    self.placing.push(l);
                }
            }
            LeaderFate::Wounded { until } => {
                self.pos.leaders[l].at = Location::OffMap;
                self.pos.leaders[l].wounded_until = Some(until);
            }
            LeaderFate::Killed => self.kill_leader(l, "Acre 14.41", log),
        }
    }

    /// Acre 10.2: before a Crusader melee is rolled, the Moslem may retreat the defender
    /// before combat (10.21, 10.22), and a horse archer out of command must (10.23).
    fn announce_resolve(&mut self, side: Side, log: &mut Log) {
        let r = self.rules.clone();
        let defender = self
            .work
            .melee
            .as_ref()
            .and_then(|m| self.pos.unit_at(m.target));
        if let (Side::Crusader, Some(d), Some(m)) = (side, defender, self.work.melee.as_ref()) {
            let attackers = m.attackers.clone();
            if crate::cavalry::must_retreat_before_combat(&r, &self.pos, d, self.conrad) {
                self.evade(true, log);
                return;
            }
            if crate::cavalry::may_retreat_before_combat(&r, d, &attackers) {
                if let Some(m) = &mut self.work.melee {
                    m.awaiting_evade = true;
                }
                return;
            }
        }
        self.resolve_melee(side, log);
    }

    /// Acre 10.21, 10.23, 10.25: the defender retreats before combat; the melee is not
    /// rolled and the unit may not be attacked again this segment.
    fn evade(&mut self, forced: bool, log: &mut Log) {
        let r = self.rules.clone();
        let Some(m) = self.work.melee.take() else {
            return;
        };
        self.work.attacked.insert(m.target);
        self.work.attacked_with.extend(m.attackers.iter().copied());
        let Some(d) = self.pos.unit_at(m.target) else {
            return;
        };
        self.work.evaded.push((d, forced));
        if let Some(rt) = retreat::start_before_combat(&r, &self.pos, d, forced) {
            self.retreats.units.push(rt);
            self.retreats.chosen.push(None);
        }
        let how = if forced { "must retreat" } else { "retreats" };
        log.push_with(|| {
            Event::public(
                "Acre 10.2",
                format!("{} {how} before combat", r.units[d].name),
            )
        });
        // 10.24: the attackers may advance along its Path of Retreat.
        let chargers = self.chargers(&m.attackers, m.target);
        self.after_melee(Side::Crusader, m.attackers, d, m.target, chargers, log);
    }

    /// Acre 10.0, 10.3, 10.4, 10.5, 10.61, 14.33: resolves the melee announced.
    /// Acre 10.31-10.33: `who` rolls to mount a wall by ladder (4-6 for German knights and
    /// leaders, `heavy`; 3-6 for the others); the roll is logged under `case` with the words
    /// for success and failure. True when he mounts it.
    fn ladder_roll(
        &mut self,
        who: &str,
        heavy: bool,
        (case, success, failure): (&'static str, &str, &str),
        log: &mut Log,
    ) -> bool {
        let roll = self.dice.d6();
        let up = melee::mounts_the_wall(roll, heavy);
        let result = if up { success } else { failure };
        log.push_with(|| {
            Event::public(case, format!("{who} {result}")).with_roll(roll_record(
                format!("ladder assault of {who}"),
                vec![roll],
                if heavy {
                    "10.33: 4-6 succeeds"
                } else {
                    "10.31: 3-6 succeeds"
                },
                result.into(),
            ))
        });
        up
    }

    fn resolve_melee(&mut self, side: Side, log: &mut Log) {
        let r = self.rules.clone();
        let Some(m) = self.work.melee.take() else {
            return;
        };
        self.work.attacked.insert(m.target);
        self.work.attacked_with.extend(m.attackers.iter().copied());
        let mut attackers = Vec::new();
        for &a in &m.attackers {
            if melee::ladder_needed(&r, &self.pos, a, m.target) == Ok(true) {
                let up = self.ladder_roll(
                    &r.units[a].name,
                    r.unit_type(a).german_knight,
                    ("Acre 10.31", "mounts the wall", "fails to mount the wall"),
                    log,
                );
                if up {
                    attackers.push(a);
                }
            } else {
                attackers.push(a);
            }
        }
        if attackers.is_empty() {
            log.push_with(|| Event::public("Acre 10.31", "no attacker mounts the wall: no melee"));
            return;
        }
        let chargers = self.chargers(&attackers, m.target);
        let Some(defender) = self.pos.unit_at(m.target) else {
            // 10.61, 14.33: a leader or siege unit alone is eliminated.
            self.overrun(side, m.target, log);
            self.disrupt_chargers(&chargers, log);
            return;
        };
        let lent = self.leaders_on_the_wall(&attackers, m.target, log);
        let (a, d) = melee::strengths(&r, &lent, &attackers, &chargers, defender, self.conrad);
        let column = melee::odds_column(a, d);
        let al = leaders::attack_morale_leader(&r, &lent, &attackers, self.conrad);
        let dl = leaders::defence_morale_leader(&r, &self.pos, defender, self.conrad);
        let am = melee::army_morale(&r, &self.pos, side, &attackers);
        let dm = melee::army_morale(&r, &self.pos, side.enemy(), &[defender]);
        let modifier = melee::die_modifier(
            al.map(|l| r.leaders[l].morale),
            dl.map(|l| r.leaders[l].morale),
            am,
            dm,
        );
        let roll = self.dice.d6();
        let result = melee::result(&r, column, i32::from(roll) + modifier);
        let odds = column.map_or("under 1-2".to_string(), |c| {
            r.tables.melee.columns.get(c).cloned().unwrap_or_default()
        });
        let text = format!(
            "melee on {} in {}: attack {} against defence {} ({odds}): {}",
            r.units[defender].name,
            r.map.id(m.target),
            f64::from(a) / 2.0,
            f64::from(d) / 2.0,
            result.letter()
        );
        log.push_with(|| {
            let mut mods = Vec::new();
            if let Some(l) = al {
                mods.push(engine::Modifier {
                    reason: format!("attacking leader {} (14.23)", r.leaders[l].name),
                    value: i32::from(r.leaders[l].morale),
                });
            }
            if let Some(l) = dl {
                mods.push(engine::Modifier {
                    reason: format!("defending leader {} (14.23)", r.leaders[l].name),
                    value: -i32::from(r.leaders[l].morale),
                });
            }
            if am != 0 || dm != 0 {
                mods.push(engine::Modifier {
                    reason: "army morale (10.5)".into(),
                    value: am - dm,
                });
            }
            Event::public("Acre 10.0", text).with_roll(RollRecord {
                purpose: format!("melee on {}", r.units[defender].name),
                dice: vec![roll],
                modifiers: mods,
                total: i32::from(roll) + modifier,
                cell: Some(format!("10.8 Melee Combat Results Table, {odds}")),
                result: result.letter().into(),
            })
        });
        self.apply_result(defender, result, "Acre 10.6", log);
        self.after_melee(side, attackers, defender, m.target, chargers, log);
    }

    /// The attacking leaders whose Combat Bonus or Morale Rating a melee by `attackers`
    /// could use (10.41, 10.42): those stacked with an attacker, and the morale leader.
    pub(crate) fn lending_leaders(&self, attackers: &[usize]) -> Vec<usize> {
        let r = &self.rules;
        let mut out: Vec<usize> = attackers
            .iter()
            .filter_map(|&a| self.pos.hex_of(a).and_then(|h| self.pos.leader_at(h)))
            .filter(|&l| {
                attackers
                    .first()
                    .is_some_and(|&a| r.leaders[l].side == r.side_of(a))
            })
            .collect();
        out.extend(leaders::attack_morale_leader(
            r,
            &self.pos,
            attackers,
            self.conrad,
        ));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Acre 10.32, 10.33: against a unit on an unbreached wall, each attacking leader whose
    /// ratings the melee could use lends them only from the walls, with a friendly siege
    /// unit, or after climbing by ladder (rolled as his units roll, German leaders failing on
    /// 1-3). Returns the position the melee reads: leaders who may not lend their ratings
    /// taken off it.
    fn leaders_on_the_wall(
        &mut self,
        attackers: &[usize],
        target: Hex,
        log: &mut Log,
    ) -> crate::Position {
        let r = self.rules.clone();
        let mut lent = self.pos.clone();
        for l in self.lending_leaders(attackers) {
            let name = r.leaders[l].name.clone();
            match melee::leader_ladder_needed(&r, &self.pos, l, target) {
                Ok(false) => {}
                Ok(true) => {
                    let up = self.ladder_roll(
                        &name,
                        melee::german_leader(&r, l),
                        (
                            "Acre 10.32",
                            "mounts the wall and leads the assault",
                            "fails to mount the wall: his ratings do not count",
                        ),
                        log,
                    );
                    if !up {
                        lent.leaders[l].at = Location::OffMap;
                    }
                }
                Err(_) => {
                    lent.leaders[l].at = Location::OffMap;
                    log.push_with(|| {
                        Event::public(
                            "Acre 10.32",
                            format!(
                        "{name} cannot reach the wall: his ratings do not count in this melee"
                    ),
                        )
                    });
                }
            }
        }
        lent
    }

    /// Acre 15.21, 15.22: the attackers of a melee on `target` that charged it this Impulse.
    pub(crate) fn chargers(&self, attackers: &[usize], target: Hex) -> Vec<usize> {
        attackers
            .iter()
            .copied()
            .filter(|u| {
                self.charging
                    .iter()
                    .any(|&(c, t)| c == *u && self.pos.hex_of(t) == Some(target))
            })
            .collect()
    }

    /// Acre 15.21: "After the melee attack has been resolved, the Crusader unit is
    /// automatically disrupted" ([`crate::cavalry::disrupt_after_charge`]).
    fn disrupt_chargers(&mut self, chargers: &[usize], log: &mut Log) {
        for &u in chargers {
            if self.pos.hex_of(u).is_some() {
                crate::cavalry::disrupt_after_charge(&mut self.pos, u);
                log.push_with(|| {
                    Event::public(
                        "Acre 15.21",
                        format!("{} is disrupted after its charge", self.rules.units[u].name),
                    )
                });
            }
        }
    }

    /// Acre 10.71, 10.72, 10.24: after a melee on `defender` in `target`, an advance is owed
    /// to the attackers if the defender left its hex, eliminated or retreating (its Path of
    /// Retreat grows as it goes: [`State::settle_retreats`]); charging knights are disrupted
    /// once the advance is over, or at once if there is none (15.21).
    fn after_melee(
        &mut self,
        side: Side,
        attackers: Vec<usize>,
        defender: usize,
        target: Hex,
        chargers: Vec<usize>,
        log: &mut Log,
    ) {
        let eliminated = matches!(
            self.pos.units[defender].at,
            Location::Regrouping | Location::Destroyed
        );
        let retreating = self.retreats.units.iter().any(|x| x.unit == defender);
        if eliminated || retreating {
            self.work.advance = Some(Advance {
                side,
                attackers,
                defender,
                eliminated,
                path: vec![target],
                moves: Vec::new(),
                chargers,
            });
        } else {
            self.disrupt_chargers(&chargers, log);
        }
    }

    /// The pieces that may advance after combat (10.71, 10.72, Addenda to 10.72): the
    /// attacking units, and the leaders stacked with them.
    fn advancers(&self, a: &Advance) -> Vec<melee::Advancer> {
        let r = &self.rules;
        let mut out: Vec<melee::Advancer> = Vec::new();
        for &u in &a.attackers {
            let Some(h) = self.pos.hex_of(u) else {
                continue;
            };
            out.push(melee::Advancer::Unit(u));
            if let Some(l) = self.pos.leader_at(h) {
                if r.leaders[l].side == a.side && !out.contains(&melee::Advancer::Leader(l)) {
                    out.push(melee::Advancer::Leader(l));
                }
            }
        }
        out.retain(|w| !a.moves.iter().any(|(x, _)| x == w));
        out
    }

    /// Acre 10.7, 10.71-10.74: each piece that may still advance, to each hex of the Path of
    /// Retreat it may reach ([`melee::check_advance_so_far`]); `end` once the advance chosen
    /// is complete (10.74's knights as far as they can go: [`melee::advance`]).
    fn advance_actions(&self) -> Vec<Action> {
        let Some(a) = &self.work.advance else {
            return Vec::new();
        };
        let r = &self.rules;
        let vacated = melee::Vacated {
            eliminated: a.eliminated,
            path: a.path.clone(),
        };
        let turn = self.turn.turn;
        let mut out = Vec::new();
        for who in self.advancers(a) {
            for n in 1..=a.path.len() {
                let mut moves = a.moves.clone();
                moves.push((who, n));
                let ok = melee::check_advance_so_far(
                    r,
                    &self.pos,
                    &a.attackers,
                    &vacated,
                    &moves,
                    turn,
                    self.conrad,
                )
                .is_ok();
                if ok {
                    let piece = match who {
                        melee::Advancer::Unit(u) => Piece::Unit(u),
                        melee::Advancer::Leader(l) => Piece::Leader(l),
                    };
                    out.push(Action::Advance(piece, a.path[n - 1]));
                }
            }
        }
        let mut trial = self.pos.clone();
        let complete = melee::advance(
            r,
            &mut trial,
            &a.attackers,
            &vacated,
            &a.moves,
            turn,
            self.conrad,
        )
        .is_ok();
        if complete || out.is_empty() {
            out.push(Action::End);
        }
        out
    }

    /// Acre 10.7: the advance chosen is made ([`melee::advance`]): the pieces enter the Path
    /// of Retreat, overrunning enemy leaders and engines on the way (5.12, 12.13); then the
    /// charging knights are disrupted (15.21).
    fn finish_advance(&mut self, log: &mut Log) {
        let r = self.rules.clone();
        let Some(a) = self.work.advance.take() else {
            return;
        };
        let vacated = melee::Vacated {
            eliminated: a.eliminated,
            path: a.path.clone(),
        };
        let entered = self.pos.morale.army_entered_acre;
        if let Ok(overruns) = melee::advance(
            &r,
            &mut self.pos,
            &a.attackers,
            &vacated,
            &a.moves,
            self.turn.turn,
            self.conrad,
        ) {
            for &(who, n) in &a.moves {
                let name = match who {
                    melee::Advancer::Unit(u) => r.units[u].name.clone(),
                    melee::Advancer::Leader(l) => r.leaders[l].name.clone(),
                };
                log.push_with(|| {
                    Event::public(
                        "Acre 10.7",
                        format!(
                            "{name} advances after combat to {}",
                            r.map.id(a.path[n - 1])
                        ),
                    )
                });
            }
            self.log_overruns(&overruns, log);
            if !entered && self.pos.morale.army_entered_acre {
                log.push_with(|| {
                    Event::public(
                        "Acre 10.51",
                        "an army unit enters Acre for the first time: Moslem Army Morale +1",
                    )
                });
            }
        }
        self.disrupt_chargers(&a.chargers, log);
    }

    /// Decisions made; does what follows without one, until a decision is needed again.
    fn settle(&mut self, log: &mut Log, applied: &mut Applied) {
        for _ in 0..10_000 {
            if self.outcome.is_some() {
                self.stage = Stage::Over;
                return;
            }
            if self.stage != Stage::Play || !self.placing.is_empty() || !self.following.is_empty() {
                return;
            }
            if !self.retreats.units.is_empty() {
                if self.settle_retreats(log) {
                    continue;
                }
                return;
            }
            if self.work.advance.is_some() {
                // 10.7: with no piece able to advance, the advance ends by itself.
                let options = self.advance_actions();
                if options.iter().all(|a| *a == Action::End) {
                    self.finish_advance(log);
                    continue;
                }
                return;
            }
            match self.turn.step {
                Step::Impulse {
                    segment: Segment::Fire,
                    ..
                } if self.work.resolved => self.next(false, log),
                Step::Impulse {
                    segment: Segment::DisruptionRemoval,
                    ..
                } => match self.work.agree {
                    [Some(a), Some(b)] => {
                        if a && b {
                            log.push_with(|| {
                                Event::public(
                                    "Acre 4.0",
                                    "both players agree to end the Assault Phase",
                                )
                            });
                        }
                        self.next(a && b, log);
                    }
                    _ => return,
                },
                Step::Regrouping => {
                    let side = self.work.redeploying;
                    match side {
                        Some(s) if !self.to_redeploy(s).is_empty() => return,
                        Some(Side::Crusader) => self.work.redeploying = Some(Side::Moslem),
                        _ => {
                            applied.revealed = true;
                            self.finish_turn(log);
                        }
                    }
                }
                _ => return,
            }
        }
    }

    /// Fills in the retreat steps no one need choose, and moves every retreating unit once all
    /// are chosen. Returns whether something changed.
    fn settle_retreats(&mut self, log: &mut Log) -> bool {
        let r = self.rules.clone();
        let mut changed = false;
        for i in 0..self.retreats.units.len() {
            if self.retreats.chosen[i].is_none() && self.retreat_actions(i).is_empty() {
                self.retreats.chosen[i] = Some(None);
                changed = true;
            }
            if self.retreats.chosen[i].is_none() {
                return changed;
            }
        }
        let choices: Vec<Option<RetreatStep>> =
            self.retreats.chosen.iter().map(|c| c.flatten()).collect();
        let mut units = self.retreats.units.clone();
        for (rt, c) in units.iter().zip(&choices) {
            if let Some(RetreatStep::To(h)) = c {
                self.overrun(r.side_of(rt.unit), *h, log);
                // 10.72: the hexes the defender retreats through are its Path of Retreat.
                if let Some(a) = &mut self.work.advance {
                    if a.defender == rt.unit {
                        a.path.push(*h);
                    }
                }
            }
        }
        let origins: Vec<(usize, Hex)> = units.iter().map(|x| (x.unit, x.origin)).collect();
        match retreat::apply_step(&r, &mut self.pos, &mut units, &choices) {
            Ok(results) => {
                for (u, outcome) in results {
                    // 9.22: a leader left in the hex the unit retreated from may go along.
                    if matches!(
                        outcome,
                        retreat::Outcome::Finished | retreat::Outcome::OffMap
                    ) {
                        let origin = origins.iter().find(|(x, _)| *x == u).map(|(_, h)| *h);
                        let leader = origin.and_then(|h| self.pos.leader_at(h)).filter(|&l| {
                            r.leaders[l].side == r.side_of(u) && !self.pos.leaders[l].dead
                        });
                        let room = match self.pos.units[u].at {
                            Location::Map(h) => self.pos.leader_at(h).is_none(),
                            _ => true,
                        };
                        if let (Some(l), true) = (leader, room) {
                            self.following.push((l, u));
                        }
                    }
                    let name = r.units[u].name.clone();
                    match outcome {
                        retreat::Outcome::Retreating => {}
                        retreat::Outcome::Finished => {
                            let at = self.pos.hex_of(u).map(|h| r.map.id(h)).unwrap_or_default();
                            log.push_with(|| {
                                Event::public(
                                    "Acre 9.24",
                                    format!("{name} retreats to {at} and is disrupted"),
                                )
                            });
                        }
                        retreat::Outcome::OffMap => {
                            let impulse = self.impulse();
                            self.retreated_off.record(u, impulse);
                            log.push_with(|| {
                                Event::public("Acre 9.26", format!("{name} retreats off the map"))
                            });
                        }
                        retreat::Outcome::Eliminated => {
                            // 10.71: a defender eliminated where it stood leaves only its hex.
                            if let Some(a) = &mut self.work.advance {
                                if a.defender == u && a.path.len() == 1 {
                                    a.eliminated = true;
                                }
                            }
                            log.push_with(|| {
                                Event::public(
                                    "Acre 9.24",
                                    format!("{name} cannot retreat and is eliminated"),
                                )
                            });
                            if self.army_unit(u) && melee::army_unit_eliminated(&mut self.pos) {
                                log.push_with(|| {
                                    Event::public(
                                        "Acre 10.52",
                                        "thirty army units lost: Moslem Army Morale -1",
                                    )
                                });
                            }
                        }
                    }
                    if self.army_unit(u)
                        && self.pos.hex_of(u).is_some_and(|h| r.map.in_acre(h))
                        && melee::army_unit_entered_acre(&mut self.pos)
                    {
                        log.push_with(|| Event::public("Acre 10.51", "an army unit enters Acre for the first time: Moslem Army Morale +1"));
                    }
                }
                self.retreats.units = units;
                self.retreats.chosen = vec![None; self.retreats.units.len()];
            }
            Err(_) => {
                // Cannot happen with options offered as legal; drop the retreats rather than
                // loop (each unit stays where it is, disrupted).
                for rt in &self.retreats.units {
                    self.pos.units[rt.unit].disrupted = true;
                }
                self.retreats = Default::default();
            }
        }
        true
    }

    /// Acre 9.22: a friendly leader left in the hex `unit` retreated from may go along with
    /// it, if there is room for him where it ended (5.52).
    fn leader_left_behind(&mut self, unit: usize, origin: Hex) {
        let r = &self.rules;
        let leader = self
            .pos
            .leader_at(origin)
            .filter(|&l| r.leaders[l].side == r.side_of(unit) && !self.pos.leaders[l].dead);
        let room = match self.pos.units[unit].at {
            Location::Map(h) => self.pos.leader_at(h).is_none(),
            _ => true,
        };
        if let (Some(l), true) = (leader, room) {
            self.following.push((l, unit));
        }
    }

    /// Leaves the current step for the next (4.0), checking victory at the end of an Assault
    /// Phase (18.0).
    fn next(&mut self, agreed: bool, log: &mut Log) {
        let r = self.rules.clone();
        if self.turn.step == Step::Regrouping {
            return;
        }
        let phases = self.phases.unwrap_or(Phases {
            bombardment: false,
            assault: false,
        });
        let Some(t) = sequence::advance(
            self.turn,
            phases,
            r.scenario.impulses,
            agreed,
            r.scenario.turns,
        ) else {
            return;
        };
        let was_impulse = matches!(self.turn.step, Step::Impulse { .. });
        self.turn = t;
        if was_impulse && t.step == Step::Regrouping {
            if let Some(v) = victory::at_end_of_assault(&r, &self.pos) {
                self.set_outcome(v, log);
                return;
            }
        }
        self.enter(log);
    }

    fn set_outcome(&mut self, v: Verdict, log: &mut Log) {
        let (winner, reasons) = match v {
            Verdict::Win(side, reasons) => (Some(planning::seat(side)), reasons),
            Verdict::Draw(reasons) => (None, reasons),
        };
        let reason = reasons.join("; ");
        let text = match winner {
            Some(Seat(0)) => format!("the Crusader wins: {reason}"),
            Some(_) => format!("the Moslem wins: {reason}"),
            None => format!("a draw: {reason}"),
        };
        log.push_with(|| Event::public("Acre 18.0", text));
        self.outcome = Some(Outcome {
            winner,
            level: None,
            reason,
        });
        self.stage = Stage::Over;
    }

    /// Begins the step the game has come to.
    fn enter(&mut self, log: &mut Log) {
        let r = self.rules.clone();
        self.work = Work::default();
        match self.turn.step {
            Step::Allocation => {
                self.allocation = Allocation::default();
                self.phases = None;
                // 14.42: Moslem army leaders return off the map, with their army.
                for l in 0..r.leaders.len() {
                    let ls = &self.pos.leaders[l];
                    let back = ls
                        .wounded_until
                        .is_some_and(|u| leaders::returns_in(u) <= self.turn.turn);
                    let army = self
                        .leader_army(l)
                        .is_some_and(|a| a != crate::rules::Army::Garrison);
                    if back && army && !ls.dead {
                        self.pos.leaders[l].wounded_until = None;
                    }
                }
                let turn = self.turn.turn;
                log.push_with(|| {
                    Event::public(
                        "Acre 4.0",
                        format!("Game-Turn {turn}: the Allocation Segment"),
                    )
                });
            }
            Step::Tunnel => {
                self.tunnels.new_wall_hexes.clear();
                self.searched.clear();
            }
            Step::Impulse {
                impulse,
                segment: Segment::CrusaderMovement,
            } => {
                self.moved.clear();
                self.charging.clear();
                if impulse == 1 {
                    self.retreated_off.clear();
                    self.outerworks_entered = false;
                }
            }
            Step::Impulse {
                impulse,
                segment: Segment::DisruptionRemoval,
            } => {
                for u in &mut self.pos.units {
                    u.disrupted = false;
                }
                log.push_with(|| Event::public("Acre 9.23", "every disrupted unit is undisrupted"));
                if impulse >= r.scenario.impulses {
                    self.next(false, log);
                }
            }
            Step::Regrouping => self.begin_regrouping(log),
            _ => {}
        }
    }

    /// Acre 4.0 3.I, 11.1, 11.2, 11.33 and the Addenda to 13.12: isolation
    /// ([`regroup::eliminate_isolated`]), army units off the map
    /// ([`regroup::army_leaves_map`]), pairing ([`regroup::regroup`]); then each side
    /// redeploys (after an Assault Phase only).
    fn begin_regrouping(&mut self, log: &mut Log) {
        let r = self.rules.clone();
        let full = self.phases.is_some_and(sequence::full_regrouping);
        if !full {
            self.finish_turn(log);
            return;
        }
        let losses = self.pos.morale.army_losses;
        for u in regroup::eliminate_isolated(&r, &mut self.pos) {
            log.push_with(|| {
                Event::public("Acre 11.1", format!("{} is isolated", r.units[u].name))
            });
        }
        /// Acre 10.52: army losses that lower Moslem morale.
        const LOSSES: u32 = 30;
        if losses < LOSSES && self.pos.morale.army_losses >= LOSSES {
            log.push_with(|| {
                Event::public(
                    "Acre 10.52",
                    "thirty army units lost: Moslem Army Morale -1",
                )
            });
        }
        // 11.33: the Moslem army leaves the map.
        regroup::army_leaves_map(&r, &mut self.pos);
        log.push_with(|| Event::public("Acre 11.33", "the Moslem army units leave the map"));
        for (keep, lose) in regroup::regroup(&r, &mut self.pos) {
            self.destroyed[ix(r.side_of(lose))] += 1;
            if !self.army_unit(keep) {
                self.work.returned.insert(keep);
            }
            log.push_with(|| {
                Event::public(
                    "Acre 11.2",
                    format!(
                        "{} and {} pair: the first returns, the second is destroyed",
                        r.units[keep].name, r.units[lose].name
                    ),
                )
            });
        }
        self.work.redeploying = Some(Side::Crusader);
    }

    /// Acre 13.12, 7.0, 7.22, 18.2: the end of the Game-Turn: the foss cleared, the Moslem's
    /// plan revealed and counted, the Moslem's victory after the last Game-Turn, or the next.
    fn finish_turn(&mut self, log: &mut Log) {
        let r = self.rules.clone();
        for e in engineering::unfill_foss(&r, &mut self.pos, &mut self.dice) {
            log.push_with(|| e);
        }
        let _ = self.allocation.end_of_turn(&r, &mut self.used);
        for e in self.allocation.end_of_turn_events() {
            log.push_with(|| e);
        }
        if let Some(v) = victory::at_end_of_turn(&r, self.turn.turn) {
            self.set_outcome(v, log);
            return;
        }
        self.turn = Turn {
            turn: self.turn.turn + 1,
            step: Step::Allocation,
        };
        self.enter(log);
    }
}

/// Acre 8.1, 8.2: every allocation of one more siege engine (of `engines`, not yet in `made`)
/// to a target that `check` accepts together with the allocations already made, then `end`:
/// the bombardment and the counter-bombardment are allocated alike, before any roll.
fn engine_allocations<T: Copy>(
    engines: usize,
    made: &[(usize, T)],
    targets: &[T],
    check: impl Fn(&[(usize, T)]) -> bool,
    action: impl Fn(usize, T) -> Action,
) -> Vec<Action> {
    let mut out = Vec::new();
    let mut trial = made.to_vec();
    for e in (0..engines).filter(|e| made.iter().all(|(x, _)| x != e)) {
        for &t in targets {
            trial.push((e, t));
            if check(&trial) {
                out.push(action(e, t));
            }
            trial.pop();
        }
    }
    out.push(Action::End);
    out
}
