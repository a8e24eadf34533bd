//! The game state: plain, serialisable data (the checked rules behind an `Arc`, skipped when
//! serialised) holding where everything stands, the secret plans and tunnels, where the game
//! is in its Sequence of Play and the work in hand within the current step (units moved,
//! allocations made before their dice are rolled, an open melee, retreats under way).

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use engine::{Dice, Outcome};
use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::engineering::Tunnels;
use crate::fire::Firer;
use crate::intervention::{RetreatedOff, Used};
use crate::melee::Advancer;
use crate::planning::{Allocation, Phases};
use crate::retreat::{Retreater, Step as RetreatStep};
use crate::rules::{Army, Rules, Side};
use crate::sequence::{Step, Turn};
use crate::setup::Piece;
use crate::Position;

/// Where the game is: the set-up, play, or over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// 17.0: this side is setting up (the Crusader first, then the Moslem).
    SetUp(Side),
    /// The Sequence of Play, at [`State::turn`].
    Play,
    /// The game is over.
    Over,
}

/// A melee announced and not yet resolved (10.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Melee {
    /// The hex attacked.
    pub target: Hex,
    /// The attacking units joined so far.
    pub attackers: Vec<usize>,
    /// The Moslem is choosing whether the defender retreats before combat (10.21).
    #[serde(default)]
    pub awaiting_evade: bool,
}

/// An advance after combat (10.7) owed to the attacker of a melee whose defender left its
/// hex: open while the defender retreats (its Path of Retreat growing hex by hex), then the
/// attacker's to choose, piece by piece, until he ends it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Advance {
    /// The attacking side.
    pub side: Side,
    /// The combat units that took part in the attack (10.71, 10.72).
    pub attackers: Vec<usize>,
    /// The defending unit.
    pub defender: usize,
    /// The defender was eliminated where it stood (10.71): the path is the vacated hex alone.
    pub eliminated: bool,
    /// The Path of Retreat (10.72): the vacated hex, then each hex the defender retreated
    /// through.
    pub path: Vec<Hex>,
    /// The advances chosen so far: each piece and how many hexes of the path it enters.
    pub moves: Vec<(Advancer, usize)>,
    /// Charging knights of this melee, disrupted once the advance is over (15.21).
    pub chargers: Vec<usize>,
}

/// A retreat under way (9.3): the units retreating and the step chosen this round for each.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retreats {
    /// The units retreating.
    pub units: Vec<Retreater>,
    /// The step chosen for each this round (`Some(None)`: it has none and is eliminated).
    pub chosen: Vec<Option<Option<RetreatStep>>>,
}

/// The work in hand within the current step, cleared when a step begins.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Work {
    /// Pieces that have moved or been let go this Movement Segment (5.0).
    pub done: BTreeSet<Piece>,
    /// The piece selected to move.
    pub selected: Option<Piece>,
    /// Pieces let go without moving after being selected (once each: 5.0).
    pub deselected: BTreeSet<Piece>,
    /// Points spent this step (Tunnel Points, searches).
    pub spent: u8,
    /// Tunnel hexes allocated before their rolls (13.25): base and hex. Secret.
    pub digs: Vec<(usize, Hex)>,
    /// Giant catapults allocated to Wall/Tower hexes (8.11).
    pub shots: Vec<(usize, Hex)>,
    /// Small catapults allocated to giant catapults (8.21).
    pub counter: Vec<(usize, usize)>,
    /// Engineer Points allocated to Wall/Tower hexes (8.31).
    pub repairs: Vec<Hex>,
    /// Fire declared by each side, secret until both have ended (9.0, 4.0 3.C).
    pub fire: [Vec<(Firer, Hex)>; 2],
    /// Whether each side has ended its fire.
    pub fire_ended: [bool; 2],
    /// The Crusader's cave-ins follow the Moslem's searches (4.0 1.D).
    pub caving: bool,
    /// The melee announced and not yet resolved.
    pub melee: Option<Melee>,
    /// Units that have attacked this Melee Segment (10.13).
    pub attacked_with: BTreeSet<usize>,
    /// Hexes attacked this Melee Segment (10.13).
    pub attacked: BTreeSet<Hex>,
    /// Each side's answer to ending the Assault Phase after this Impulse (4.0 note).
    pub agree: [Option<bool>; 2],
    /// The side redeploying in the Regrouping Segment (11.3).
    pub redeploying: Option<Side>,
    /// Units returned from the Regrouping Box, to be redeployed (11.2).
    pub returned: BTreeSet<usize>,
    /// Hexes searched this Discovery Segment (13.31).
    pub searches: Vec<Hex>,
    /// The simultaneous fire has been resolved (9.2).
    pub resolved: bool,
    /// Units that retreated before combat this Melee Segment (10.25), and whether each was
    /// forced to (10.23).
    pub evaded: Vec<(usize, bool)>,
    /// The advance after combat owed or being chosen (10.7).
    #[serde(default)]
    pub advance: Option<Advance>,
}

/// Areas of the map the rules name, worked out once from the data.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Derived {
    /// Between the outerworks and the foss (5.17, 12.23).
    pub between: BTreeSet<Hex>,
    /// 5.16, 17.0: the Crusader set-up and strategic ground.
    pub crusader_ground: BTreeSet<Hex>,
    /// 17.0: the Moslem set-up ground.
    pub moslem_ground: BTreeSet<Hex>,
    /// 11.32: where the Crusader redeploys ([`crate::regroup::redeploy_ground`]): between
    /// the outerworks and the foss, not within four hexes of a Wall/Tower hex.
    pub crusader_redeploy: BTreeSet<Hex>,
    /// 10.51, 14.42: within Acre, walls included.
    pub acre: BTreeSet<Hex>,
    /// 11.31: where the garrison redeploys ([`crate::regroup::redeploy_ground`]).
    pub moslem_redeploy: BTreeSet<Hex>,
    /// 13.22: the hexes where a Tunnel Base may stand.
    pub base_sites: Vec<Hex>,
    /// Wall and Tower hexes.
    pub walls: Vec<Hex>,
    /// 7.21: where army units enter.
    pub entry: Vec<Hex>,
    /// The combat units of each side (by [`ix`]), in index order.
    pub units_of: [Vec<usize>; 2],
    /// By each hex's grid index, the hex ([`hexgrid::Grid::hex_at`]).
    pub hexes: Vec<Hex>,
    /// By each hex's grid index, the grid index of its neighbour in each direction (in
    /// [`hexgrid::Direction::ALL`] order), [`OFF_MAP`] where that is off the map: the
    /// neighbours of [`crate::map::Map::neighbours`] without working the indices out again
    /// (a map of four-digit hex ids has fewer hexes than [`OFF_MAP`]).
    pub adjacent: Vec<[u16; 6]>,
    /// By each hex's grid index, its all-sea hexsides (6.12), a bit for each direction of
    /// [`Derived::adjacent`], as [`crate::map::Map::all_sea_between`] answers.
    pub sea_sides: Vec<u8>,
    /// By each hex's grid index, a bit for each direction of [`Derived::adjacent`] whose
    /// neighbour is on the map across a hexside that is not all sea (6.12).
    pub open_sides: Vec<u8>,
    /// By each hex's grid index, its terrain class ([`crate::map::Map::class`]).
    pub classes: Vec<crate::map::Class>,
    /// By each hex's grid index, whether it is of [`Derived::crusader_ground`].
    pub crusader_ground_at: Vec<bool>,
    /// By each hex's grid index, its terrain's effects and its effects once filled (13.1),
    /// as [`crate::map::Map::terrain`] gives them.
    effects_at: Vec<(crate::map::Effects, Option<crate::map::Effects>)>,
    /// 9.11, 9.12: by each hex's grid index, whether a line of sight runs from it to each hex
    /// within four hexes (a bit each, in the order of [`Hex::within`]), worked out the first
    /// time it is asked ([`Derived::line_of_sight`]).
    sight: Vec<OnceLock<u64>>,
    /// The offsets `(dq, dr)` of the hexes within four hexes of a hex, in the order of
    /// [`Hex::within`].
    within_sight: Vec<(i32, i32)>,
    /// The cells of [`hexgrid::line_between`] the hex `(0, 0)` and each hex of
    /// [`Derived::within_sight`], in that order: a line depends only on where its end lies
    /// from its start (the arithmetic is on differences), so the cells of a line from any
    /// hex are these moved by it.
    sight_lines: Vec<Vec<hexgrid::LosCell>>,
    /// The bit of [`Derived::sight`] for each offset `(dq, dr)` within four hexes, at
    /// `(dq + 4) * 9 + dr + 4` (`u8::MAX`: further away).
    sight_bit: Vec<u8>,
}

/// How far [`Derived::line_of_sight`] keeps the lines of sight: the longest range of fire
/// (9.4).
const SIGHT: u32 = 4;

/// The offsets of [`Derived::sight_bit`] on a side.
const SIGHT_SIDE: usize = 2 * SIGHT as usize + 1;

/// The place of `to`'s offset from `from` in [`Derived::sight_bit`], if both coordinates are
/// within four.
fn sight_offset(from: Hex, to: Hex) -> Option<usize> {
    let reach = SIGHT as i64;
    let dq = i64::from(to.q) - i64::from(from.q) + reach;
    let dr = i64::from(to.r) - i64::from(from.r) + reach;
    let side = SIGHT_SIDE as i64;
    ((0..side).contains(&dq) && (0..side).contains(&dr)).then(|| (dq * side + dr) as usize)
}

/// The mark of [`Derived::adjacent`] for a neighbour off the map.
pub const OFF_MAP: u16 = u16::MAX;

/// The rules of the data sets loaded lately and their [`Derived`] areas, the newest last:
/// every game of the same data shares them, on any thread.
static SHARED: Mutex<Vec<(Arc<Rules>, Arc<Derived>)>> = Mutex::new(Vec::new());

/// How many data sets' areas [`SHARED`] keeps.
const SHARED_KEPT: usize = 4;

/// By each hex's grid index, a bit for each direction (in [`Hex::neighbours`] order) whose
/// hexside `side(hex, neighbour)` holds.
fn side_bits(rules: &Rules, side: impl Fn(Hex, Hex) -> bool) -> Vec<u8> {
    rules
        .map
        .grid
        .hexes()
        .map(|h| {
            h.neighbours()
                .iter()
                .enumerate()
                .filter(|(_, &n)| side(h, n))
                .fold(0u8, |bits, (d, _)| bits | 1 << d)
        })
        .collect()
}

impl Derived {
    /// Works the areas out.
    pub fn new(rules: &Rules) -> Derived {
        use crate::map::Class;
        let between = rules.map.between_outerworks_and_foss();
        let walls = rules.map.hexes_of(&[Class::Wall, Class::Tower]);
        let crusader_redeploy = crate::regroup::redeploy_ground(rules, Side::Crusader);
        let empty = Tunnels::new(rules);
        let base_sites = between
            .iter()
            .copied()
            .filter(|&h| empty.check_base(rules, h).is_ok())
            .collect();
        let entry = rules
            .map
            .grid
            .hexes()
            .filter(|&h| crate::intervention::entry_hex(rules, h))
            .collect();
        let crusader_ground = crate::setup::crusader_ground(rules);
        Derived {
            classes: rules.map.grid.hexes().map(|h| rules.map.class(h)).collect(),
            crusader_ground_at: rules
                .map
                .grid
                .hexes()
                .map(|h| crusader_ground.contains(&h))
                .collect(),
            crusader_ground,
            effects_at: rules
                .map
                .grid
                .hexes()
                .map(|h| {
                    let t = rules.map.terrain(h);
                    (t.effects, t.filled)
                })
                .collect(),
            moslem_ground: crate::setup::moslem_ground(rules),
            acre: rules
                .map
                .grid
                .hexes()
                .filter(|&h| rules.map.in_acre(h))
                .collect(),
            moslem_redeploy: crate::regroup::redeploy_ground(rules, Side::Moslem),
            between,
            crusader_redeploy,
            base_sites,
            walls,
            entry,
            hexes: rules.map.grid.hexes().collect(),
            units_of: [Side::Crusader, Side::Moslem].map(|side| {
                (0..rules.units.len())
                    .filter(|&u| rules.side_of(u) == side)
                    .collect()
            }),
            adjacent: rules
                .map
                .grid
                .hexes()
                .map(|h| {
                    h.neighbours()
                        .map(|n| rules.map.grid.index(n).map_or(OFF_MAP, |k| k as u16))
                })
                .collect(),
            open_sides: side_bits(rules, |h, n| {
                rules.map.grid.index(n).is_some() && !rules.map.all_sea_between(h, n)
            }),
            sea_sides: side_bits(rules, |h, n| rules.map.all_sea_between(h, n)),
            sight: (0..rules.map.grid.len()).map(|_| OnceLock::new()).collect(),
            within_sight: Hex::new(0, 0).within(SIGHT).map(|h| (h.q, h.r)).collect(),
            sight_lines: {
                let centre = Hex::new(0, 0);
                centre
                    .within(SIGHT)
                    .map(|t| hexgrid::line_between(centre, t))
                    .collect()
            },
            sight_bit: {
                let centre = Hex::new(0, 0);
                let mut bits = vec![u8::MAX; SIGHT_SIDE * SIGHT_SIDE];
                for (i, t) in centre.within(SIGHT).enumerate() {
                    bits[sight_offset(centre, t).expect("within four")] = i as u8;
                }
                bits
            },
        }
    }

    /// The offsets `(dq, dr)` from a hex of the hexes within four hexes of it (the longest
    /// range of fire, 9.4), in the order of [`Hex::within`].
    pub fn within_sight(&self) -> &[(i32, i32)] {
        &self.within_sight
    }

    /// [`Position::effects`] of `hex`, of grid index `k`, by the table of the map's terrain.
    #[inline]
    pub fn effects(&self, pos: &Position, k: usize, hex: Hex) -> crate::map::Effects {
        match self.effects_at[k] {
            (_, Some(f)) if pos.filled.contains(&hex) => f,
            (e, _) => e,
        }
    }

    /// Acre 9.11, 9.12: [`crate::fire::line_of_sight`] from `from` to `to` on the map of
    /// `rules` (those the areas were worked out from), kept for every hex within four of a
    /// hex once one of them is asked.
    pub fn line_of_sight(&self, rules: &Rules, from: Hex, to: Hex) -> bool {
        let k = rules.map.grid.index(from);
        let i = sight_offset(from, to)
            .map(|o| self.sight_bit[o])
            .filter(|&i| i != u8::MAX);
        let (Some(k), Some(i)) = (k, i) else {
            return crate::fire::line_of_sight(rules, from, to);
        };
        let bits = self.sight[k].get_or_init(|| {
            // [`crate::fire::line_of_sight`] on the lines of [`Derived::sight_lines`] moved
            // to `from`.
            let blocks = |h: Hex| rules.map.terrain(h + from).blocks_los;
            self.sight_lines
                .iter()
                .enumerate()
                .filter(|(_, line)| {
                    line.iter().all(|&cell| match cell {
                        hexgrid::LosCell::Hex(h) => !blocks(h),
                        hexgrid::LosCell::Hexside(a, b) => !blocks(a) && !blocks(b),
                    })
                })
                .fold(0u64, |bits, (i, _)| bits | 1 << i)
        });
        bits & 1 << i != 0
    }

    /// The areas of `rules` worked out once for every game of the same data (the data sets
    /// loaded lately are kept, whatever the thread), with the rules to play by: the kept
    /// copy when equal rules were loaded before, so that the games share one.
    pub fn shared(rules: Arc<Rules>) -> (Arc<Rules>, Arc<Derived>) {
        let mut kept = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = kept
            .iter()
            .position(|(r, _)| Arc::ptr_eq(r, &rules) || **r == *rules)
        {
            let entry = kept.remove(i);
            kept.push(entry.clone());
            return entry;
        }
        let derived = Arc::new(Derived::new(&rules));
        if kept.len() >= SHARED_KEPT {
            kept.remove(0);
        }
        kept.push((Arc::clone(&rules), Arc::clone(&derived)));
        (rules, derived)
    }
}

/// The whole game.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    /// The checked data (not serialised: it is the data set's).
    #[serde(skip)]
    pub rules: Arc<Rules>,
    /// Areas of the map worked out once from the rules (not serialised).
    #[serde(skip)]
    pub derived: Arc<Derived>,
    /// 16.0, Conrad of Montferrat, is in play.
    pub conrad: bool,
    /// The game's dice.
    pub dice: Dice,
    /// Where everything stands.
    #[serde(serialize_with = "serialize_position")]
    pub pos: Position,
    /// The Crusader tunnels (secret: 13.23).
    pub tunnels: Tunnels,
    /// Intervention counters chosen so far (7.22).
    pub used: Used,
    /// This Game-Turn's secret plans (4.0 1.A).
    pub allocation: Allocation,
    /// The phases this Game-Turn's plans opened, once both are known.
    pub phases: Option<Phases>,
    /// Where the game is in its Sequence of Play.
    pub turn: Turn,
    /// Set-up, play or over.
    pub stage: Stage,
    /// The Moslem Engineer Points per Game-Turn (13.3, 13.32).
    pub engineer_points: u8,
    /// The work in hand within the step.
    pub work: Work,
    /// Retreats under way.
    pub retreats: Retreats,
    /// Leaders unharmed by the leader loss procedure, waiting to be placed (14.41).
    pub placing: Vec<usize>,
    /// Leaders whose unit has retreated from their hex, waiting for their player to take them
    /// along or leave them (9.22): leader and unit.
    pub following: Vec<(usize, usize)>,
    /// Units that moved in this Impulse's Crusader Movement Segment (13.11).
    pub moved: BTreeSet<usize>,
    /// Moslem army units retreated off the map this Assault Phase, with the Impulse of each
    /// (9.26).
    pub retreated_off: RetreatedOff,
    /// Cavalry charges announced this Impulse (15.22): the charging unit and the Moslem unit
    /// that is the object of the charge.
    pub charging: Vec<(usize, usize)>,
    /// Grenade attacks the Naphtha Grenadiers have made this game (15.3).
    pub grenades: u8,
    /// The Game-Turn of each unit's last Retreat result (9.24: no road rates the next).
    pub retreated_on: std::collections::BTreeMap<usize, u8>,
    /// A Crusader unit has entered an outerworks hex this Assault Phase (7.23).
    pub outerworks_entered: bool,
    /// Hexes the Moslem searched and found empty since the last Tunnel Segment (13.31).
    pub searched: BTreeSet<Hex>,
    /// Combat units permanently destroyed per side (11.2), for statistics.
    pub destroyed: [u32; 2],
    /// How the game ended.
    pub outcome: Option<Outcome>,
}

/// The index of a side in per-side arrays.
pub fn ix(side: Side) -> usize {
    match side {
        Side::Crusader => 0,
        Side::Moslem => 1,
    }
}

/// The side of a seat.
pub fn side_of_seat(seat: engine::Seat) -> Option<Side> {
    match seat.0 {
        0 => Some(Side::Crusader),
        1 => Some(Side::Moslem),
        _ => None,
    }
}

impl State {
    /// A new game at the set-up (17.0), the Crusader to place first.
    pub fn new(rules: Arc<Rules>, conrad: bool, dice: Dice) -> State {
        let pos = Position::empty(&rules);
        let tunnels = Tunnels::new(&rules);
        let engineer_points = rules.scenario.engineering.engineer_points;
        let (rules, derived) = Derived::shared(rules);
        State {
            derived,
            rules,
            conrad,
            dice,
            pos,
            tunnels,
            used: Used::default(),
            allocation: Allocation::default(),
            phases: None,
            turn: Turn {
                turn: 1,
                step: Step::Allocation,
            },
            stage: Stage::SetUp(Side::Crusader),
            engineer_points,
            work: Work::default(),
            retreats: Retreats::default(),
            placing: Vec::new(),
            following: Vec::new(),
            moved: BTreeSet::new(),
            retreated_off: RetreatedOff::default(),
            charging: Vec::new(),
            grenades: 0,
            retreated_on: std::collections::BTreeMap::new(),
            outerworks_entered: false,
            searched: BTreeSet::new(),
            destroyed: [0, 0],
            outcome: None,
        }
    }

    /// A piece's side.
    pub fn side_of_piece(&self, piece: Piece) -> Side {
        piece.side(&self.rules)
    }

    /// The army of a Moslem leader's contingent, if he leads one.
    pub fn leader_army(&self, leader: usize) -> Option<Army> {
        self.rules
            .contingents
            .iter()
            .find(|c| c.leader == leader)
            .and_then(|c| c.army)
    }

    /// Whether a unit belongs to a Moslem off-map army (not the garrison).
    pub fn army_unit(&self, unit: usize) -> bool {
        self.rules
            .contingent_of(unit)
            .army
            .is_some_and(|a| a != Army::Garrison)
    }

    /// The notation name of a piece: its printed name in lower case with hyphens.
    pub fn slug(&self, piece: Piece) -> String {
        slug(piece.name(&self.rules))
    }

    /// A hex's printed id.
    pub fn id(&self, hex: Hex) -> String {
        self.rules.map.id(hex)
    }
}

/// A printed name as a notation word: lower case, spaces as hyphens.
pub fn slug(name: &str) -> String {
    name.to_lowercase().replace([' ', '\''], "-")
}

/// The position serialised with its wall damage as a list of pairs (JSON keys must be text).
fn serialize_position<S: serde::Serializer>(pos: &Position, s: S) -> Result<S::Ok, S::Error> {
    use crate::position::{ArmyMorale, LeaderState, SiegeState, UnitState};
    #[derive(Serialize)]
    struct Flat<'a> {
        units: &'a [UnitState],
        leaders: &'a [LeaderState],
        siege: &'a [SiegeState],
        damage: Vec<(Hex, u8)>,
        caved_in: &'a BTreeSet<Hex>,
        filled: &'a BTreeSet<Hex>,
        morale: &'a ArmyMorale,
    }
    Flat {
        units: &pos.units,
        leaders: &pos.leaders,
        siege: &pos.siege,
        damage: pos.damage.iter().map(|(h, d)| (*h, *d)).collect(),
        caved_in: &pos.caved_in,
        filled: &pos.filled,
        morale: &pos.morale,
    }
    .serialize(s)
}
