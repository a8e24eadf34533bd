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
    /// IV/VII. Rally Phase of the active player (10.2, 11.0).
    Rally,
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
    /// Consecutive passes in the action phase, and the like: victory rolls made.
    pub victory_checking: [bool; 2],
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

    /// The other unit of a unit's stack, if still stacked.
    pub fn stack_mate(&self, u: UnitId) -> Option<UnitId> {
        let h = self.hex(u)?;
        self.unit_ids().find(|&v| v != u && self.hex(v) == Some(h))
    }

    /// The owner of the combat units in a hex, if any.
    pub fn occupant(&self, hex: Hex) -> Option<Seat> {
        self.unit_ids()
            .find(|&u| self.hex(u) == Some(hex))
            .map(|u| self.side(u))
    }

    /// Leaders in a hex.
    pub fn leaders_at(&self, hex: Hex) -> Vec<LeaderId> {
        self.leader_ids()
            .filter(|&l| self.leaders[l as usize].loc == Loc::Map(hex))
            .collect()
    }

    /// The chit governing a unit: its leader's (5.0).
    pub fn chit(&self, u: UnitId) -> Option<Chit> {
        self.leaders[self.def(u).leader as usize].chit
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
