//! The state of a game of Crusades II: plain data (the battle's static data shared behind an
//! `Arc`), and the small queries every chapter of the rules asks of it.

use std::sync::Arc;

use engine::{Dice, Seat};
use hexgrid::{Hex, Vertex};
use serde::Serialize;

use crate::options::Options;
use crate::scenario::{Battle, Chit, LeaderId, SideValues, UnitId};

/// Where a counter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Loc {
    /// Not yet on the map: to be set up, or a reinforcement.
    Waiting,
    /// On the map.
    Map(Hex),
    /// Removed from play.
    Eliminated,
}

impl Loc {
    /// The hex, when on the map.
    pub fn hex(self) -> Option<Hex> {
        match self {
            Loc::Map(h) => Some(h),
            _ => None,
        }
    }
}

/// Berserk state (16.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Fury {
    /// Neither.
    Calm,
    /// Berserk (16.41).
    Berserk,
    /// Exhausted (16.42).
    Exhausted,
}

/// A combat unit's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unit {
    /// Where it is.
    pub loc: Loc,
    /// The vertex it faces (6.1).
    pub facing: Vertex,
    /// Steps lost (9.42, 9.43).
    pub steps: u8,
    /// Crusader heavy cavalry on its charging side (5.6).
    pub charging: bool,
    /// Routed (10.1).
    pub routed: bool,
    /// Out of command this movement phase (5.3).
    pub out_of_command: bool,
    /// Berserk or exhausted (16.4).
    pub fury: Fury,
    /// Has moved this movement phase.
    pub moved: bool,
    /// Has fired this fire segment.
    pub fired: bool,
    /// The hex it fired at in offensive fire (9.31).
    pub fired_at: Option<Hex>,
    /// Has attacked in melee this phase.
    pub meleed: bool,
    /// Took part in melee this phase (attacking or defending), for 6.12 facing changes.
    pub in_melee: bool,
    /// Has made its one morale check of this combat phase (10.0).
    pub morale_checked: bool,
    /// Left its starting stack (7.1: no restacking).
    pub unstacked: bool,
    /// Has tried to flip to its charging side this Order Phase (5.6).
    pub charge_tried: bool,
    /// Has withdrawn (or tried to) before this combat phase (5.4).
    pub withdrew: bool,
    /// Has engaged in combat this turn with an action chit: a skirmish or artillery unit
    /// fights once a turn, with whichever leader's activation (Crusades II 16.11).
    #[serde(default, skip_serializing_if = "is_false")]
    pub fought: bool,
    /// Has fired defensively this turn under the advanced sequence (rules notes, 16.11).
    #[serde(default, skip_serializing_if = "is_false")]
    pub fired_defending: bool,
}

/// For `skip_serializing_if`: fields of the advanced rules are left out of the state while
/// unused, so that a game without them keeps the state (and state hash) it always had.
fn is_false(b: &bool) -> bool {
    !*b
}

/// A leader's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Leader {
    /// Where he is.
    pub loc: Loc,
    /// His command chit (secret from the other seat, 5.0).
    pub chit: Option<Chit>,
    /// On his replacement side (4.2).
    pub replaced: bool,
    /// Has moved this movement phase.
    pub moved: bool,
    /// Already counted as a casualty for losses (4.2: once per counter).
    pub casualty_counted: bool,
    /// Tried to change his chit this command phase.
    pub change_tried: bool,
    /// His command has moved with an action chit this turn: the Moved box (16.11, 16.12).
    #[serde(default, skip_serializing_if = "is_false")]
    pub chit_moved: bool,
    /// His command has fought with an action chit this turn: the Fired box (16.11, 16.12).
    #[serde(default, skip_serializing_if = "is_false")]
    pub chit_fought: bool,
    /// His command is split: the cavalry on Attack, the infantry as if on Stand (16.3).
    #[serde(default, skip_serializing_if = "is_false")]
    pub split: bool,
    /// The chits he has held this Order Phase, one bit per chit ([`Chit::bit`]): a free change
    /// back to one of them would only undo changes (5.2, rules notes). Left out of the
    /// serialised state, so that games saved before it keep their state hash; it is rebuilt
    /// by replaying the phase's actions.
    #[serde(skip)]
    pub chits_held: u8,
}

impl Leader {
    /// Whether `other` is this leader but for his command chit and the chits he has held
    /// this Order Phase: what the other seat cannot see of him (5.0).
    pub fn alike_but_chit(&self, other: &Leader) -> bool {
        let Leader {
            loc,
            chit: _,
            replaced,
            moved,
            casualty_counted,
            change_tried,
            chit_moved,
            chit_fought,
            split,
            chits_held: _,
        } = self;
        *loc == other.loc
            && *replaced == other.replaced
            && *moved == other.moved
            && *casualty_counted == other.casualty_counted
            && *change_tried == other.change_tried
            && *chit_moved == other.chit_moved
            && *chit_fought == other.chit_fought
            && *split == other.split
    }
}

/// Phases and segments of the sequence of play (3.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Phase {
    /// Scenario set-up by one seat (12.1-15.1 set-up rules).
    Setup(Seat),
    /// I. Order Phase: both seats at once, in secret (3.0 I, 5.2).
    Orders,
    /// II/V. Movement Phase of the active player (8.0).
    Movement,
    /// Skirmishers may withdraw from enemy ZOCs before combat (5.4).
    Withdrawal(Seat),
    /// III/VI A. Defensive fire (9.12).
    DefensiveFire,
    /// III/VI A. Offensive fire (9.13).
    OffensiveFire,
    /// III/VI B. Melee (9.3).
    Melee,
    /// End of the combat phase: this seat's units that took part in melee may change facing
    /// (6.12, 6.16).
    MeleeFacing(Seat),
    /// IV/VII. Rally Phase of the active player (10.2, 11.0); with the advanced sequence,
    /// III. Rally Phase of both players and then IV. End Phase (16.1).
    Rally,
    /// 16.1 II. Action Phase: the next action chit is drawn from the cup (by the drawing
    /// seat at a real table, with manual dice; by the program otherwise).
    Draw,
    /// 16.11: the owner of the chit just drawn passes or activates one leader's command.
    Activation(Seat),
    /// 16.5: this seat's opponent has rolled a victory; this seat concedes or pays.
    Concession(Seat),
    /// 16.5: the price this seat chose is being paid (retreats); then play goes on.
    Penalty(Seat),
    /// The game is over.
    Over,
}

/// A decision that interrupts the phase (retreats, advances, withdrawals, the charge).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Task {
    /// The unit retreats `min..=max` hexes (9.5, 10.0); the owner chooses where.
    Retreat {
        /// The unit.
        unit: UnitId,
        /// Fewest hexes.
        min: u8,
        /// Most hexes.
        max: u8,
    },
    /// A defender may withdraw before melee (9.32 step 3).
    Withdraw {
        /// The defending unit.
        unit: UnitId,
        /// A skirmisher needs an 8-10 to go (5.4, 9.32).
        needs_roll: bool,
    },
    /// An attacking unit must advance into the vacated hex (9.5, 9.32 step 6).
    Advance {
        /// The vacated hex.
        hex: Hex,
        /// Units that may advance.
        candidates: Vec<UnitId>,
    },
    /// A charging heavy cavalry unit that advanced may move 4 MP (9.32 step 7).
    Pursue {
        /// The unit.
        unit: UnitId,
    },
    /// ...and then attack an enemy in its frontal ZOC.
    SecondMelee {
        /// The unit.
        unit: UnitId,
    },
    /// 16.4: a unit that has just gone berserk fights a second combat against an adjacent
    /// enemy, as the attacker, whoever's turn it is.
    BerserkCombat {
        /// The berserk unit.
        unit: UnitId,
        /// When units of both sides went berserk, the second combat is between them, the
        /// first attacker attacking: the hex it must attack.
        only: Option<Hex>,
    },
    /// 16.5: a unit already routed when its owner chose to pay for the enemy's victory roll
    /// retreats three hexes or loses a step; then, if `check`, checks morale and loses another
    /// step on a failure.
    RoutedPenalty {
        /// The routed unit.
        unit: UnitId,
        /// Whether a morale check follows (the "check morale" choice).
        check: bool,
    },
}

/// Where a melee stands (9.32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MeleeStage {
    /// Defenders may withdraw.
    Withdrawal,
    /// Defenders check morale.
    DefenderMorale,
    /// Both roll.
    Roll,
    /// The attacker advances into a vacated hex.
    Advance,
    /// Heavy cavalry that advanced may charge on.
    Pursuit,
}

/// A melee being resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MeleeState {
    /// The defending hex.
    pub target: Hex,
    /// The attackers, in the order they take losses.
    pub attackers: Vec<UnitId>,
    /// The defenders.
    pub defenders: Vec<UnitId>,
    /// The stage.
    pub stage: MeleeStage,
    /// A second melee of 9.32 step 7 (no further pursuit).
    pub second: bool,
    /// Units that advanced into the target hex.
    pub advanced: Vec<UnitId>,
    /// Attacking units that went berserk in this combat (16.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub berserk_attackers: Vec<UnitId>,
    /// Defending units that went berserk in this combat (16.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub berserk_defenders: Vec<UnitId>,
}

/// What an action chit is used for (16.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    /// Move all the units of one leader's command, plus skirmish and artillery units.
    Move,
    /// Fire and melee with all the units of one leader's command, plus skirmish and artillery
    /// units.
    Combat,
}

impl ActionKind {
    /// The word in notation.
    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Move => "move",
            ActionKind::Combat => "combat",
        }
    }
}

/// One leader's command acting on a drawn chit (16.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Activation {
    /// The owner of the chit.
    pub side: Seat,
    /// The leader whose command acts.
    pub leader: LeaderId,
    /// Move or combat.
    pub kind: ActionKind,
}

/// The Action Phase of the advanced sequence of play (16.1 II, 16.11, 16.13).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ActionPhase {
    /// Action chits of each seat still in the cup.
    pub cup: [u8; 2],
    /// Action chits of each seat put in the cup this turn.
    pub put_in: [u8; 2],
    /// Whether the Turn Ends chit is in the cup (16.13).
    pub turn_ends: bool,
    /// Chits drawn this turn.
    pub drawn: u8,
    /// Passes chosen in succession, by either player.
    pub passes: u8,
    /// The seat whose turn it is to draw (the players alternate, the Crusader first).
    pub drawer: Seat,
    /// The owner of the chit just drawn, while he decides.
    pub chit: Option<Seat>,
    /// The activation under way.
    pub current: Option<Activation>,
    /// Chits drawn in the whole game: an action that draws one cannot be undone.
    pub draws: u32,
}

/// A counter chosen to act next in the Movement Phase (`select`, notation.md): a combat unit
/// (with its stack or alone) or a leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Pick {
    /// A combat unit.
    Unit(UnitId),
    /// A leader.
    Leader(LeaderId),
}

/// The whole state of a game.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    /// The battle's static data.
    #[serde(skip)]
    pub battle: Arc<Battle>,
    /// Optional and advanced rules in force.
    pub options: Options,
    /// The dice.
    pub dice: Dice,
    /// Turn index into the battle's turns.
    pub turn: usize,
    /// The phase.
    pub phase: Phase,
    /// The phasing player.
    pub active: Seat,
    /// Combat units, indexed like the battle's.
    pub units: Vec<Unit>,
    /// Leaders, indexed like the battle's.
    pub leaders: Vec<Leader>,
    /// Which seats have finished their orders this Order Phase.
    pub orders_done: [bool; 2],
    /// Decisions interrupting the phase, first first.
    pub tasks: Vec<Task>,
    /// Melees being resolved (a second melee sits on top of its first).
    pub melees: Vec<MeleeState>,
    /// Hexes already attacked this melee phase.
    pub attacked: Vec<Hex>,
    /// The hex being fired at, and hexes whose fire is finished this segment (9.1).
    pub fire_target: Option<Hex>,
    /// Hexes whose fire is finished this segment.
    pub fire_closed: Vec<Hex>,
    /// Units that entered each entry hex this movement phase (12.1 entry costs).
    pub entries: Vec<(Hex, u8)>,
    /// The unit carrying the Holy Cross (12.22), if in play.
    pub holy_cross: Option<UnitId>,
    /// Whether the Holy Cross is yet to enter, has been captured...
    pub holy_cross_state: CrossState,
    /// Whether each seat has begun rolling for victory (11.0).
    pub victory_checking: [bool; 2],
    /// The Action Phase of the advanced sequence of play (16.1), once begun.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<ActionPhase>,
    /// The counter selected to move next (`select`), in the Movement Phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<Pick>,
    /// Counters deselected since the last move: not offered for selection again until a
    /// counter moves, so that choosing and putting back cannot go on forever.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deselected: Vec<Pick>,
    /// The moves of the selected counter, worked out when first asked for
    /// ([`State::selected_moves()`]) and kept: nothing can change them before it moves or is
    /// put back. A search whose tree ends at a `select` scores the position without ever
    /// asking. Not part of the serialised state (it follows from the rest); a re-sampled
    /// state drops it ([`engine::Game::determinize`]), and takes it over again from a state
    /// in the same position ([`State::reuse_selected_moves`]).
    #[serde(skip)]
    pub selected_moves: std::sync::OnceLock<Arc<SelectedMoves>>,
    /// The result, once over.
    pub outcome: Option<engine::Outcome>,
}

/// Where the Holy Cross is (12.22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum CrossState {
    /// Not in this scenario.
    Absent,
    /// Yet to enter with its reinforcement.
    Waiting,
    /// Carried by a unit.
    Carried,
    /// Captured by the Muslims.
    Captured,
}

/// The moves of the selected counter ([`State::selected_moves()`]), in the order its `move`
/// actions are listed, kept as short as they can be: a search's copies of the state share
/// them, and the legal actions are made from them afresh each time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelectedMoves {
    /// A unit's moves: whether it leaves its stack (7.1), the destination and the facing.
    Unit {
        /// The unit.
        unit: UnitId,
        /// (alone, destination, facing) of each move.
        moves: Vec<(bool, Hex, Vertex)>,
        /// For a reinforcement, the entry hex of each move's path (12.1), as its move will
        /// look it up; empty when no move has one (a unit on the map).
        entries: Vec<Option<Hex>>,
    },
    /// A leader's destinations.
    Leader {
        /// The leader.
        leader: LeaderId,
        /// The destination of each move.
        to: Vec<Hex>,
    },
}

impl SelectedMoves {
    /// How many moves.
    pub fn len(&self) -> usize {
        match self {
            SelectedMoves::Unit { moves, .. } => moves.len(),
            SelectedMoves::Leader { to, .. } => to.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The moves as actions, in order.
    pub fn actions(&self) -> impl Iterator<Item = crate::action::Action> + '_ {
        use crate::action::Action;
        let (unit, moves, leader, to) = match self {
            SelectedMoves::Unit { unit, moves, .. } => (*unit, &moves[..], 0, &[][..]),
            SelectedMoves::Leader { leader, to } => (0, &[][..], *leader, &to[..]),
        };
        let units = moves.iter().map(move |&(alone, to, facing)| Action::Move {
            unit,
            alone,
            to,
            facing,
            via: Vec::new(),
        });
        let leaders = to.iter().map(move |&to| Action::MoveLeader { leader, to });
        units.chain(leaders)
    }

    /// The entry hex (12.1) of unit `u`'s move (`alone`, to `to` facing `facing`) by its
    /// cheapest path, if it is one of the moves: `Some(None)` for a move without one.
    pub fn entry_of(&self, u: UnitId, alone: bool, to: Hex, facing: Vertex) -> Option<Option<Hex>> {
        match self {
            SelectedMoves::Unit {
                unit,
                moves,
                entries,
            } if *unit == u => {
                let k = moves.iter().position(|&m| m == (alone, to, facing))?;
                Some(entries.get(k).copied().flatten())
            }
            _ => None,
        }
    }

    /// Whether `action` is one of the moves.
    pub fn contains(&self, action: &crate::action::Action) -> bool {
        use crate::action::Action;
        match (self, action) {
            (
                SelectedMoves::Unit { unit, moves, .. },
                Action::Move {
                    unit: u,
                    alone,
                    to,
                    facing,
                    via,
                },
            ) => unit == u && via.is_empty() && moves.contains(&(*alone, *to, *facing)),
            (SelectedMoves::Leader { leader, to }, Action::MoveLeader { leader: l, to: h }) => {
                leader == l && to.contains(h)
            }
            _ => false,
        }
    }
}

impl State {
    /// The static data of a unit.
    pub fn def(&self, u: UnitId) -> &crate::scenario::UnitDef {
        &self.battle.units[u as usize]
    }

    /// The state of a unit.
    pub fn unit(&self, u: UnitId) -> &Unit {
        &self.units[u as usize]
    }

    /// Mutable state of a unit.
    pub fn unit_mut(&mut self, u: UnitId) -> &mut Unit {
        &mut self.units[u as usize]
    }

    /// All unit ids.
    pub fn unit_ids(&self) -> impl Iterator<Item = UnitId> {
        0..self.units.len() as UnitId
    }

    /// All leader ids.
    pub fn leader_ids(&self) -> impl Iterator<Item = LeaderId> {
        0..self.leaders.len() as LeaderId
    }

    /// The owner of a unit.
    pub fn side(&self, u: UnitId) -> Seat {
        self.def(u).side
    }

    /// The hex of a unit on the map.
    pub fn hex(&self, u: UnitId) -> Option<Hex> {
        self.unit(u).loc.hex()
    }

    /// Whether the unit is a skirmisher (5.4; 14.1 for Nicopolis mounted bowmen).
    pub fn skirmisher(&self, u: UnitId) -> bool {
        let t = self.battle.utype(u);
        // Nicopolis 14.1: "In the Turkish army in this scenario (only), mounted bowmen are
        // regarded as skirmishers" (the Turks are the second seat).
        t.skirmisher
            || (self.battle.special.mounted_bow_skirmishers
                && t.fire_column.is_some()
                && t.mounted
                && t.key == "bow_cavalry"
                && self.side(u) == Seat(1))
    }

    /// Whether the unit is Crusader heavy cavalry (5.6).
    pub fn heavy(&self, u: UnitId) -> bool {
        self.battle.utype(u).crusader_heavy_cavalry
    }

    /// Whether the unit is mounted.
    pub fn mounted(&self, u: UnitId) -> bool {
        self.battle.utype(u).mounted
    }

    /// The values the unit now shows: its current side, less heavy cavalry step losses (9.43).
    pub fn values(&self, u: UnitId) -> SideValues {
        let d = self.def(u);
        let s = self.unit(u);
        if self.heavy(u) {
            let base = if s.charging {
                d.back.unwrap_or(d.front)
            } else {
                d.front
            };
            SideValues {
                strength: base.strength.saturating_sub(s.steps),
                fire: base.fire,
                morale: base.morale.saturating_sub(s.steps),
                movement: base.movement.saturating_sub(s.steps),
            }
        } else if s.steps > 0 {
            d.back.unwrap_or(d.front)
        } else {
            d.front
        }
    }

    /// How many steps the unit has in all (9.42, 9.43).
    pub fn total_steps(&self, u: UnitId) -> u8 {
        if self.heavy(u) {
            3
        } else if self.def(u).back.is_some() {
            2
        } else {
            1
        }
    }

    /// Combat units of `side` on the map.
    pub fn on_map(&self, side: Seat) -> impl Iterator<Item = UnitId> + '_ {
        self.unit_ids()
            .filter(move |&u| self.side(u) == side && self.hex(u).is_some())
    }

    /// Combat units in a hex, top first (7.11).
    pub fn stack_at(&self, hex: Hex) -> Vec<UnitId> {
        let mut here: Vec<UnitId> = self
            .unit_ids()
            .filter(|&u| self.hex(u) == Some(hex))
            .collect();
        if here.len() > 1 {
            // The upper unit is the one written as stacked over the other.
            let all = here.clone();
            here.sort_by_key(|&u| {
                let over = self.def(u).stacked_over;
                if over.is_some_and(|o| all.contains(&o)) {
                    0
                } else {
                    1
                }
            });
        }
        here
    }

    /// Whether unit `u`, on the map, is the top unit of its hex: first in
    /// [`State::stack_at`], without listing the stack.
    pub fn tops_stack(&self, u: UnitId) -> bool {
        let Some(h) = self.hex(u) else {
            return false;
        };
        // `stack_at` puts first the units written as stacked over another unit there, in id
        // order, then the rest in id order.
        let at = Loc::Map(h);
        let mut first = None;
        let mut first_over = None;
        // One pass over the units' places (no unit looked up by id but the one under).
        for (v, st) in self.units.iter().enumerate() {
            if st.loc != at {
                continue;
            }
            first.get_or_insert(v);
            let over = self.battle.units[v].stacked_over;
            if first_over.is_none() && over.is_some_and(|o| self.units[o as usize].loc == at) {
                first_over = Some(v);
            }
        }
        first_over.or(first) == Some(u as usize)
    }

    /// The other unit of a unit's stack, if still stacked.
    pub fn stack_mate(&self, u: UnitId) -> Option<UnitId> {
        let at = Loc::Map(self.hex(u)?);
        // One pass over the units' places (no unit looked up by id).
        self.units
            .iter()
            .enumerate()
            .find(|&(v, st)| st.loc == at && v != u as usize)
            .map(|(v, _)| v as UnitId)
    }

    /// The owner of the combat units in a hex, if any.
    pub fn occupant(&self, hex: Hex) -> Option<Seat> {
        let at = Loc::Map(hex);
        self.units
            .iter()
            .position(|st| st.loc == at)
            .map(|u| self.side(u as UnitId))
    }

    /// Leaders in a hex.
    pub fn leaders_at(&self, hex: Hex) -> Vec<LeaderId> {
        self.leader_ids()
            .filter(|&l| self.leaders[l as usize].loc == Loc::Map(hex))
            .collect()
    }

    /// The chit governing a unit: its leader's (5.0); the infantry of a split command act as
    /// if on Stand (Crusades II 16.3).
    pub fn chit(&self, u: UnitId) -> Option<Chit> {
        let l = &self.leaders[self.def(u).leader as usize];
        match l.chit {
            Some(Chit::Attack) if l.split && !self.mounted(u) => Some(Chit::Stand),
            c => c,
        }
    }

    /// The activation under way in the Action Phase (16.11), if any.
    pub fn activation(&self) -> Option<Activation> {
        self.action.as_ref().and_then(|a| a.current)
    }

    /// A skirmish or artillery unit: with action chits it may move and fight with any
    /// leader's activation, once each a turn (16.11).
    pub fn free_agent(&self, u: UnitId) -> bool {
        self.skirmisher(u) || self.battle.utype(u).artillery
    }

    /// Whether a unit may act in the activation under way (16.11): a unit of the activated
    /// leader's command, or a skirmish or artillery unit of his side. Any unit when no
    /// activation is under way (the basic sequence of play).
    pub fn activated(&self, u: UnitId) -> bool {
        match self.activation() {
            None => true,
            Some(a) => {
                self.side(u) == a.side && (self.def(u).leader == a.leader || self.free_agent(u))
            }
        }
    }

    /// A leader's current ratings: (command, span, bonus), replacement side if flipped (4.2).
    pub fn ratings(&self, l: LeaderId) -> (Option<u8>, u8, i32) {
        let d = &self.battle.leaders[l as usize];
        match (&d.replacement, self.leaders[l as usize].replaced) {
            (Some((_, c, s, b)), true) => (*c, *s, *b),
            _ => (d.command, d.span, d.bonus),
        }
    }

    /// The name a leader now shows.
    pub fn leader_name(&self, l: LeaderId) -> &str {
        let d = &self.battle.leaders[l as usize];
        match (&d.replacement, self.leaders[l as usize].replaced) {
            (Some((n, ..)), true) => n,
            _ => &d.name,
        }
    }

    /// The printed id of a hex.
    pub fn id(&self, hex: Hex) -> String {
        self.battle.map.id(hex).to_string()
    }

    /// The name of a unit.
    pub fn name(&self, u: UnitId) -> &str {
        &self.def(u).name
    }

    /// Distance from a hex to the nearest enemy combat unit of `side`'s enemy.
    pub fn enemy_distance(&self, side: Seat, hex: Hex) -> u32 {
        let enemy = self.battle.enemy(side);
        self.on_map(enemy)
            .filter_map(|u| self.hex(u))
            .map(|h| h.distance(hex))
            .min()
            .unwrap_or(u32::MAX)
    }

    /// Whether units can go berserk in this game, so that all of 16.41-16.43 applies: with the
    /// `berserk` option (16.4), or in Hattin, whose charging heavy cavalry may go berserk
    /// (12.23) even in the basic game. Only the 16.4 check after two step losses needs the
    /// option itself.
    pub fn berserk_effects(&self) -> bool {
        self.options.berserk || self.battle.special.charge_berserk
    }

    /// Whether this is a night turn (12.21).
    pub fn night(&self) -> bool {
        self.battle.special.night_turns && self.battle.turns[self.turn].night
    }

    /// The Overall Leader of a side, if on the map.
    pub fn overall_leader(&self, side: Seat) -> Option<LeaderId> {
        self.leader_ids().find(|&l| {
            let d = &self.battle.leaders[l as usize];
            d.overall && d.side == side && self.leaders[l as usize].loc.hex().is_some()
        })
    }
}
