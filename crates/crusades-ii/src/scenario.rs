//! A battle checked into typed, indexed form: the rules' tables, the map, the counters and the
//! scenario's own rules. Built once from the data files (see [`crate::data`]), every problem
//! reported at once with file and line, then shared by every game of that battle.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use engine::{AuditEntry, DataErrors, DataSet, Provenance, Seat};
use hexgrid::{Direction, Grid, Hex, HexId, HexMap, Hexside, Layout, Vertex};

use crate::data::{self, Cost, CountersFile, MapFile, ScenarioFile, TablesFile};

/// The battles, in the rulebook's order: (scenario id, folder).
pub const BATTLES: [&str; 4] = ["hattin", "hab", "nicopolis", "tannenburg"];

/// Movement costs are kept in half movement points, so that a road's 1/2 MP is exact.
pub type HalfPoints = u16;

/// The Terrain Effects Chart column a counter moves by (8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveClass {
    /// Infantry and men-at-arms.
    Infantry,
    /// Cavalry other than heavy.
    Cavalry,
    /// Leaders (8 MP, 8.1).
    Leaders,
    /// Heavy cavalry.
    HeavyCavalry,
    /// Skirmishers.
    Skirmishers,
}

impl MoveClass {
    /// The class's position in per-class tables.
    pub fn index(self) -> usize {
        self as usize
    }

    fn parse(text: &str) -> Option<MoveClass> {
        Some(match text {
            "infantry" => MoveClass::Infantry,
            "cavalry" => MoveClass::Cavalry,
            "leaders" => MoveClass::Leaders,
            "heavy_cavalry" => MoveClass::HeavyCavalry,
            "skirmishers" => MoveClass::Skirmishers,
            _ => return None,
        })
    }
}

/// Costs by movement class, in half points; `None` is not allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Costs([Option<HalfPoints>; 5]);

impl Costs {
    /// The cost for a class.
    pub fn of(&self, class: MoveClass) -> Option<HalfPoints> {
        self.0[class.index()]
    }
}

/// A unit type (`tables.toml`).
#[derive(Clone, Debug)]
pub struct UnitType {
    /// Key.
    pub key: String,
    /// Printed name.
    pub name: String,
    /// How it moves.
    pub move_class: MoveClass,
    /// Mounted (5.4, 9.32).
    pub mounted: bool,
    /// A skirmish unit (5.4).
    pub skirmisher: bool,
    /// Crusader heavy cavalry (5.6, 9.43).
    pub crusader_heavy_cavalry: bool,
    /// Artillery (9.4 note 1).
    pub artillery: bool,
    /// Fire Table column index.
    pub fire_column: Option<usize>,
    /// Unit Type Modifier Table class index.
    pub melee_class: usize,
    /// Modifier to fire aimed at it (9.1).
    pub fire_target_modifier: i32,
}

/// A terrain of the Terrain Effects Chart.
#[derive(Clone, Debug)]
pub struct Terrain {
    /// Key.
    pub key: String,
    /// Printed name.
    pub name: String,
    /// Cost to enter.
    pub cost: Costs,
    /// Defensive fire modifier.
    pub fire: i32,
    /// Defensive melee modifier.
    pub melee: i32,
    /// Blocks line of sight (9.21, 9.22).
    pub blocks_los: bool,
    /// Colour for renderers.
    pub colour: String,
}

/// A hexside feature.
#[derive(Clone, Debug)]
pub struct Feature {
    /// Key.
    pub key: String,
    /// Printed name.
    pub name: String,
    /// Extra cost to cross.
    pub cost: Costs,
    /// Defensive fire modifier.
    pub fire: i32,
    /// Defensive melee modifier.
    pub melee: i32,
    /// Colour for renderers.
    pub colour: String,
}

/// A road or track.
#[derive(Clone, Debug)]
pub struct Road {
    /// Key.
    pub key: String,
    /// Printed name.
    pub name: String,
    /// Cost of entering a hex along it.
    pub cost: Costs,
    /// Colour for renderers.
    pub colour: String,
}

/// A result of the Fire or Melee Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CombatResult {
    /// `-`: no effect.
    NoEffect,
    /// `M`: morale check.
    Morale,
    /// A number of step losses.
    Steps(u8),
}

impl CombatResult {
    fn parse(text: &str) -> Option<CombatResult> {
        Some(match text.trim() {
            "-" => CombatResult::NoEffect,
            "M" => CombatResult::Morale,
            n => CombatResult::Steps(n.parse().ok().filter(|n| (1..=3).contains(n))?),
        })
    }
}

impl std::fmt::Display for CombatResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CombatResult::NoEffect => write!(f, "-"),
            CombatResult::Morale => write!(f, "M"),
            CombatResult::Steps(n) => write!(f, "{n}"),
        }
    }
}

/// A table read by modified die roll and column.
#[derive(Clone, Debug)]
pub struct RollTable {
    /// Column names.
    pub columns: Vec<String>,
    /// The lowest row's roll.
    pub first_roll: i32,
    /// Rows of results by column.
    pub rows: Vec<Vec<CombatResult>>,
}

impl RollTable {
    /// The result for a modified roll (clamped to the first and last rows) in a column.
    pub fn read(&self, roll: i32, column: usize) -> (i32, CombatResult) {
        let last = self.first_roll + self.rows.len() as i32 - 1;
        let row = roll.clamp(self.first_roll, last);
        (row, self.rows[(row - self.first_roll) as usize][column])
    }
}

/// The rules' tables of `tables.toml`.
#[derive(Clone, Debug)]
pub struct Tables {
    /// Unit types.
    pub unit_types: Vec<UnitType>,
    /// Terrains.
    pub terrains: Vec<Terrain>,
    /// Hexside features.
    pub features: Vec<Feature>,
    /// Roads.
    pub roads: Vec<Road>,
    /// Melee modifier for attacking uphill.
    pub melee_uphill: i32,
    /// Fire modifier for firing uphill.
    pub fire_uphill: i32,
    /// The Fire Table.
    pub fire: RollTable,
    /// The Range Table: per Fire Table column, per range 1..=6, the modifier or `None` (X).
    pub range: Vec<[Option<i32>; 6]>,
    /// The Melee Table.
    pub melee: RollTable,
    /// Lowest strength of each Melee Table column.
    pub melee_columns_from: Vec<u32>,
    /// The Unit Type Modifier Table: `[attacker class][defender class]`.
    pub unit_type_modifier: Vec<Vec<i32>>,
    /// Unit Type Modifier Table class names.
    pub melee_classes: Vec<String>,
}

impl Tables {
    /// The Melee Table column for a strength total.
    pub fn melee_column(&self, strength: u32) -> usize {
        self.melee_columns_from
            .iter()
            .rposition(|&from| strength >= from)
            .unwrap_or(0)
    }
}

/// What a hex of the map is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexInfo {
    /// Terrain index.
    pub terrain: u8,
    /// Elevation level.
    pub elevation: i8,
}

/// A battle's map.
#[derive(Clone, Debug)]
pub struct Map {
    /// The printed extent and layout.
    pub grid: Grid,
    /// Terrain and elevation of every hex.
    pub hexes: HexMap<HexInfo>,
    /// Hexside features, for renderers (sorted).
    pub features: Vec<(Hexside, u8)>,
    /// Per hex (dense grid index) and direction: the hexside feature there, if any.
    pub side_feature: Vec<[Option<u8>; 6]>,
    /// Per hex and direction: the road joining the neighbour, if any.
    pub side_road: Vec<[Option<u8>; 6]>,
    /// Per movement class, hex and direction: the cost of stepping into the neighbour, worked
    /// out once from terrain, hexside features and roads (8.2).
    pub step_cost: Vec<Vec<[Option<HalfPoints>; 6]>>,
    /// Per hex (dense grid index) and direction: the dense index of the neighbour, or
    /// [`OFF_GRID`] beyond the map's edge; so that searches never convert coordinates.
    pub neighbour: Vec<[u32; 6]>,
    /// Per dense grid index: the hex ([`hexgrid::Grid::hex_at`] without working it out).
    pub hex_of: Vec<Hex>,
    /// The dense grid index of each hex of the map's box of axial coordinates
    /// ([`Map::index_of`]).
    index_box: IndexBox,
    /// Per movement class, hex and direction: [`Map::step_cost`] and [`Map::neighbour`] in
    /// one word ([`hop`]), for the movement sweep's inner loop.
    pub hops: Vec<Vec<[u32; 6]>>,
    /// Road chains as written, for renderers.
    pub road_chains: Vec<(u8, Vec<Hex>)>,
    /// Place names.
    pub labels: Vec<(Hex, String)>,
    /// Named areas.
    pub areas: BTreeMap<String, Vec<Hex>>,
}

/// Marks a neighbour beyond the map's edge in [`Map::neighbour`].
pub const OFF_GRID: u32 = u32::MAX;

/// The dense grid indices of the hexes of a box of axial coordinates holding the map.
#[derive(Clone, Debug, Default)]
struct IndexBox {
    /// The box's corner.
    q0: i32,
    r0: i32,
    /// Its extent in `q` and in `r`.
    width: u32,
    height: u32,
    /// Per hex of the box (`q` major): its grid index, or [`NO_INDEX`] off the map.
    index: Vec<u32>,
}

/// A hex of an [`IndexBox`] off the map.
const NO_INDEX: u32 = u32::MAX;

impl IndexBox {
    /// The box of `hexes` (each with its grid index, its position in the list).
    fn of(hexes: &[Hex]) -> Self {
        let (Some(q0), Some(r0)) = (
            hexes.iter().map(|h| h.q).min(),
            hexes.iter().map(|h| h.r).min(),
        ) else {
            return IndexBox::default();
        };
        let q1 = hexes.iter().map(|h| h.q).max().unwrap_or(q0);
        let r1 = hexes.iter().map(|h| h.r).max().unwrap_or(r0);
        let (width, height) = ((q1 - q0 + 1) as u32, (r1 - r0 + 1) as u32);
        let mut index = vec![NO_INDEX; (width * height) as usize];
        for (i, h) in hexes.iter().enumerate() {
            index[((h.q - q0) as u32 * height + (h.r - r0) as u32) as usize] = i as u32;
        }
        IndexBox {
            q0,
            r0,
            width,
            height,
            index,
        }
    }
}

impl Map {
    /// The printed id of a hex (hexes of the map always have one).
    pub fn id(&self, hex: Hex) -> HexId {
        self.grid
            .layout()
            .to_id(hex)
            .unwrap_or(HexId { col: 0, row: 0 })
    }

    /// The hex of a printed id, if on the map.
    pub fn hex(&self, id: HexId) -> Option<Hex> {
        let h = self.grid.layout().to_hex(id);
        self.grid.contains(h).then_some(h)
    }

    /// The hex at a dense grid index, or `None` beyond the grid (as [`hexgrid::Grid::hex_at`]).
    pub fn hex_at(&self, index: usize) -> Option<Hex> {
        self.hex_of.get(index).copied()
    }

    /// The dense grid index of a hex, or `None` off the map: [`hexgrid::Grid::index`], looked
    /// up in a table instead of worked out.
    #[inline]
    pub fn index_of(&self, hex: Hex) -> Option<usize> {
        let b = &self.index_box;
        // Below the box's corner wraps around to beyond its far side.
        let (dq, dr) = (
            hex.q.wrapping_sub(b.q0) as u32,
            hex.r.wrapping_sub(b.r0) as u32,
        );
        if dq >= b.width || dr >= b.height {
            return None;
        }
        match b.index[(dq * b.height + dr) as usize] {
            NO_INDEX => None,
            i => Some(i as usize),
        }
    }

    /// Whether a hex is on the map.
    pub fn contains(&self, hex: Hex) -> bool {
        self.grid.contains(hex)
    }

    /// Terrain and elevation of a hex on the map.
    pub fn info(&self, hex: Hex) -> HexInfo {
        self.hexes.get(hex).copied().unwrap_or(HexInfo {
            terrain: 0,
            elevation: 1,
        })
    }

    /// The feature on the hexside from `hex` in direction `dir`, if any.
    pub fn feature(&self, hex: Hex, dir: Direction) -> Option<u8> {
        self.grid
            .index(hex)
            .and_then(|i| self.side_feature[i][dir.index() as usize])
    }

    /// The road connecting `hex` to its neighbour in `dir`, if any.
    pub fn road(&self, hex: Hex, dir: Direction) -> Option<u8> {
        self.grid
            .index(hex)
            .and_then(|i| self.side_road[i][dir.index() as usize])
    }

    /// The kind of a road through a hex, if any.
    pub fn road_kind_at(&self, hex: Hex) -> Option<u8> {
        Direction::ALL.iter().find_map(|&d| self.road(hex, d))
    }

    /// The cost of stepping from `from` into its neighbour in `dir` for a class, or `None` if
    /// not allowed (8.2): along a road the road's cost, ignoring the hexside ("it must move
    /// along the road"); otherwise the terrain's cost plus the hexside feature's.
    fn compute_step(
        &self,
        tables: &Tables,
        class: MoveClass,
        from: Hex,
        dir: Direction,
    ) -> Option<HalfPoints> {
        let to = from.neighbour(dir);
        if !self.contains(to) {
            return None;
        }
        if let Some(r) = self.road(from, dir) {
            return tables.roads[r as usize].cost.of(class);
        }
        let info = self.info(to);
        let base = tables.terrains[info.terrain as usize].cost.of(class)?;
        match self.feature(from, dir) {
            Some(f) => tables.features[f as usize].cost.of(class).map(|x| base + x),
            None => Some(base),
        }
    }

    /// The cost of stepping from `from` into its neighbour in `dir` for a class (8.2).
    pub fn step(&self, class: MoveClass, from: Hex, dir: Direction) -> Option<HalfPoints> {
        let i = self.index_of(from)?;
        self.step_cost[class.index()][i][dir.index() as usize]
    }

    /// Whether a hex lies on a road.
    pub fn on_road(&self, hex: Hex) -> bool {
        Direction::ALL.iter().any(|&d| self.road(hex, d).is_some())
    }
}

/// A side of a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideValues {
    /// Combat strength.
    pub strength: u8,
    /// Fire capability.
    pub fire: bool,
    /// Morale rating.
    pub morale: u8,
    /// Movement allowance.
    pub movement: u8,
}

/// Index of a combat unit in [`Battle::units`].
pub type UnitId = u16;
/// Index of a leader in [`Battle::leaders`].
pub type LeaderId = u8;

/// A combat unit counter.
#[derive(Clone, Debug)]
pub struct UnitDef {
    /// The name as printed (`Ray a`).
    pub name: String,
    /// The name in action notation (`Ray-a`).
    pub token: String,
    /// Owner.
    pub side: Seat,
    /// Unit type index.
    pub utype: usize,
    /// Assigned leader.
    pub leader: LeaderId,
    /// Set-up code.
    pub setup: Option<String>,
    /// Front side (full strength; non-charging for Crusader heavy cavalry).
    pub front: SideValues,
    /// Back side (reduced; charging for Crusader heavy cavalry).
    pub back: Option<SideValues>,
    /// The unit it begins stacked over (7.1).
    pub stacked_over: Option<UnitId>,
    /// Ready-made deployment.
    pub deploy: Option<(Hex, Vertex)>,
}

/// A leader counter.
#[derive(Clone, Debug)]
pub struct LeaderDef {
    /// The name as printed.
    pub name: String,
    /// The name in action notation (`King-Guy`).
    pub token: String,
    /// Owner.
    pub side: Seat,
    /// Overall Leader (4.3).
    pub overall: bool,
    /// Command rating; Overall Leaders have none.
    pub command: Option<u8>,
    /// Command span.
    pub span: u8,
    /// Combat bonus.
    pub bonus: i32,
    /// Replacement side.
    pub replacement: Option<(String, Option<u8>, u8, i32)>,
    /// Band colour.
    pub band: String,
    /// Ready-made deployment.
    pub deploy: Option<Hex>,
}

/// Where units of some set-up codes may be placed.
#[derive(Clone, Debug)]
pub struct SetupRule {
    /// Owner.
    pub side: Seat,
    /// The units it covers.
    pub units: Vec<UnitId>,
    /// The centre hexes.
    pub area: Vec<Hex>,
    /// Distance from the centre hexes.
    pub within: u32,
    /// One unit per hex of the area.
    pub one_per_hex: bool,
    /// The rule case.
    pub case: String,
}

/// A reinforcement group.
#[derive(Clone, Debug)]
pub struct Reinforcement {
    /// Owner.
    pub side: Seat,
    /// First turn index it may enter.
    pub turn: usize,
    /// Leaders entering.
    pub leaders: Vec<LeaderId>,
    /// Units entering.
    pub units: Vec<UnitId>,
    /// Whether the Holy Cross enters with them.
    pub holy_cross: bool,
    /// Entry hexes.
    pub entry: Vec<Hex>,
    /// The rule case.
    pub case: String,
}

/// A game turn.
#[derive(Clone, Debug)]
pub struct Turn {
    /// Its label on the turn record track.
    pub label: String,
    /// A night turn (12.21).
    pub night: bool,
}

/// What decides the game if no victory roll succeeds by the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AtEnd {
    /// This seat wins.
    Winner(Seat),
    /// A draw.
    Draw,
    /// Nicopolis 14.1: the Turk wins if his units block the road.
    NicopolisRoadBlock,
}

/// Special rules of a scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Special {
    /// Hattin 12.21.
    pub night_turns: bool,
    /// Hattin 12.22.
    pub holy_cross: bool,
    /// Hattin 12.23.
    pub charge_berserk: bool,
    /// Hattin 12.1 reinforcement entry costs.
    pub entry_costs: bool,
    /// Hattin 12.1: the Muslim player may withhold reinforcements.
    pub withhold_reinforcements: bool,
    /// Nicopolis 14.1: mounted bowmen are skirmishers.
    pub mounted_bow_skirmishers: bool,
    /// Hattin 12.1: with the advanced sequence, the first three turns have one action chit
    /// per leader on the map or entering it (16.1).
    pub early_action_chits: bool,
}

/// Command chits (5.1).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Chit {
    /// 5.11.
    Attack,
    /// 5.12.
    Advance,
    /// 5.13.
    Stand,
    /// 5.14.
    Retreat,
    /// 5.15.
    Reserve,
    /// 5.16.
    Muster,
}

impl Chit {
    /// Every chit.
    pub const ALL: [Chit; 6] = [
        Chit::Attack,
        Chit::Advance,
        Chit::Stand,
        Chit::Retreat,
        Chit::Reserve,
        Chit::Muster,
    ];

    /// The chit's name in notation.
    pub fn name(self) -> &'static str {
        match self {
            Chit::Attack => "attack",
            Chit::Advance => "advance",
            Chit::Stand => "stand",
            Chit::Retreat => "retreat",
            Chit::Reserve => "reserve",
            Chit::Muster => "muster",
        }
    }

    /// The chit's bit in a set of chits (`Leader::chits_held`).
    pub fn bit(self) -> u8 {
        1 << self as u8
    }

    /// Parses a chit name.
    pub fn parse(text: &str) -> Option<Chit> {
        Chit::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(text))
    }
}

/// A battle, checked: everything static a game of it needs.
#[derive(Clone, Debug)]
pub struct Battle {
    /// Scenario id (`hattin`).
    pub id: String,
    /// Title.
    pub title: String,
    /// Rule case of the scenario.
    pub case: String,
    /// Seat names.
    pub seats: Vec<String>,
    /// The first player.
    pub first_player: Seat,
    /// Turns.
    pub turns: Vec<Turn>,
    /// The rules' tables.
    pub tables: Tables,
    /// The map.
    pub map: Map,
    /// Combat units.
    pub units: Vec<UnitDef>,
    /// Leaders.
    pub leaders: Vec<LeaderDef>,
    /// Set-up rules.
    pub setup: Vec<SetupRule>,
    /// Reinforcements.
    pub reinforcements: Vec<Reinforcement>,
    /// Berserk die numbers by seat (16.4).
    pub berserk: Vec<(u8, u8)>,
    /// Historical command chits by leader.
    pub historical: Vec<(LeaderId, Chit)>,
    /// Victory tables by the seat that rolls: rows (low, high, lowest winning roll).
    pub victory: Vec<Vec<(u32, u32, u8)>>,
    /// What happens at the end.
    pub at_end: AtEnd,
    /// Level of the end-of-game result.
    pub at_end_level: Option<String>,
    /// Special rules.
    pub special: Special,
    /// Losses for the Holy Cross (12.22).
    pub holy_cross_losses: u32,
    /// The evaluation's weights for this battle (the AI's, not the rules').
    pub evaluation: crate::evaluation::Weights,
    /// Every value with its provenance, for `data audit`.
    pub audit: Vec<AuditEntry>,
    /// Which battle this is, for the caches of map analyses ([`crate::zoc::Situation`]).
    pub identity: BattleIdentity,
}

/// A battle's identity: a number no other battle of the process shares, a clone included
/// (a clone may be changed), so that values worked out for one battle are never taken for
/// another's. Comparing two needs no access to shared memory (unlike an `Arc`'s counts, which
/// threads playing the same battle would contend for).
#[derive(Debug, PartialEq, Eq)]
pub struct BattleIdentity(u64);

impl BattleIdentity {
    /// A new identity.
    pub fn new() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        BattleIdentity(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }

    /// The number.
    pub fn get(&self) -> u64 {
        self.0
    }
}

impl Default for BattleIdentity {
    fn default() -> Self {
        Self::new()
    }
}

impl Clone for BattleIdentity {
    /// A clone is another battle: a new identity.
    fn clone(&self) -> Self {
        Self::new()
    }
}

impl Battle {
    /// The unit type of a unit.
    pub fn utype(&self, unit: UnitId) -> &UnitType {
        &self.tables.unit_types[self.units[unit as usize].utype]
    }

    /// Finds a unit by its printed name or notation token.
    pub fn unit_by_name(&self, name: &str) -> Option<UnitId> {
        self.units
            .iter()
            .position(|u| u.token.eq_ignore_ascii_case(name) || u.name.eq_ignore_ascii_case(name))
            .map(|i| i as UnitId)
    }

    /// Finds a leader by its printed name or notation token.
    pub fn leader_by_name(&self, name: &str) -> Option<LeaderId> {
        self.leaders
            .iter()
            .position(|l| l.token.eq_ignore_ascii_case(name) || l.name.eq_ignore_ascii_case(name))
            .map(|i| i as LeaderId)
    }

    /// The seat named `name`.
    pub fn seat(&self, name: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s == name)
            .map(|i| Seat(i as u8))
    }

    /// The other seat.
    pub fn enemy(&self, seat: Seat) -> Seat {
        Seat(1 - seat.0)
    }
}

/// The notation token of a printed name: spaces become hyphens, apostrophes are kept.
pub fn token(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join("-")
}

/// How many differently loaded battles [`shared`] keeps.
const SHARED_KEPT: usize = 8;

/// A battle loaded once, with the texts it was loaded from.
struct Loaded {
    /// The battle id.
    id: String,
    /// The text of each file [`load`] reads.
    texts: Vec<String>,
    /// The text of the battle's evaluation weights, which [`load`] reads if there are any.
    evaluation: Option<String>,
    /// The battle, shared by every game started from the same texts.
    battle: Arc<Battle>,
}

/// Battles already loaded in this process, newest last ([`shared`]).
static LOADED: std::sync::Mutex<Vec<Loaded>> = std::sync::Mutex::new(Vec::new());

/// The files [`load`] reads for battle `id`: the battle is a function of their texts.
fn files_of(id: &str) -> [String; 4] {
    [
        "crusades-ii/tables.toml".to_string(),
        format!("crusades-ii/{id}/map.toml"),
        format!("crusades-ii/{id}/counters.toml"),
        format!("crusades-ii/{id}/scenario.toml"),
    ]
}

/// Battle `id` of `data`, loaded and checked once per process for the same file texts and
/// then shared (behind the `Arc`) by every game started from them, on any thread: a game's
/// start does not parse the data again. Data that differs in any file read (an override
/// folder), the evaluation weights included, is loaded on its own; errors are never kept.
pub fn shared(data: &DataSet, id: &str) -> Result<Arc<Battle>, DataErrors> {
    let files = files_of(id);
    let texts: Option<Vec<&str>> = files.iter().map(|f| data.text(f).ok()).collect();
    let Some(texts) = texts else {
        // A file is missing: the load names it.
        return load(data, id);
    };
    let evaluation = data.text(&crate::evaluation::weights_path(id)).ok();
    let same = |l: &Loaded| {
        l.id == id
            && l.texts.iter().map(String::as_str).eq(texts.iter().copied())
            && l.evaluation.as_deref() == evaluation
    };
    {
        let loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = loaded.iter().find(|l| same(l)) {
            return Ok(Arc::clone(&l.battle));
        }
    }
    // Loaded outside the lock; two threads loading the same texts at once get equal battles,
    // and the first one kept is shared from then on.
    let battle = load(data, id)?;
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = loaded.iter().find(|l| same(l)) {
        return Ok(Arc::clone(&l.battle));
    }
    if loaded.len() == SHARED_KEPT {
        loaded.remove(0);
    }
    loaded.push(Loaded {
        id: id.to_string(),
        texts: texts.iter().map(|t| t.to_string()).collect(),
        evaluation: evaluation.map(str::to_string),
        battle: Arc::clone(&battle),
    });
    Ok(battle)
}

/// Loads and checks a battle from the data set: the game map (2.1) and the counters (2.2)
/// of the battle, and the charts and tables (2.3) shared by all four.
pub fn load(data: &DataSet, battle: &str) -> Result<Arc<Battle>, DataErrors> {
    let mut errors = DataErrors::default();
    let [tables_path, map_path, counters_path, scenario_path] = files_of(battle);
    let tables_path = tables_path.as_str();
    let tf: Option<TablesFile> = collect(data.parse(tables_path), &mut errors);
    let mf: Option<MapFile> = collect(data.parse(&map_path), &mut errors);
    let cf: Option<CountersFile> = collect(data.parse(&counters_path), &mut errors);
    let sf: Option<ScenarioFile> = collect(data.parse(&scenario_path), &mut errors);
    let (Some(tf), Some(mf), Some(cf), Some(sf)) = (tf, mf, cf, sf) else {
        return Err(errors);
    };
    let mut audit = Vec::new();
    let tables = check_tables(&tf, tables_path, &mut errors, &mut audit);
    let map = check_map(data, &mf, &map_path, &tables, &mut errors, &mut audit);
    let seats = sf.seats.clone();
    if seats.len() != 2 {
        errors.push(&scenario_path, None, "`seats` must name exactly two seats");
        errors.locate(data);
        return Err(errors);
    }
    let seat_of = |name: &str, file: &str, errors: &mut DataErrors| -> Seat {
        match seats.iter().position(|s| s == name) {
            Some(i) => Seat(i as u8),
            None => {
                errors.push(
                    file,
                    None,
                    format!("unknown side `{name}`; valid: {}", seats.join(", ")),
                );
                Seat(0)
            }
        }
    };
    let hex_of = |text: &str, file: &str, errors: &mut DataErrors| -> Option<Hex> {
        match text.parse::<HexId>() {
            Ok(id) => match map.hex(id) {
                Some(h) => Some(h),
                None => {
                    errors.push(file, None, format!("hex {id} is not on the map"));
                    None
                }
            },
            Err(e) => {
                errors.push(file, None, format!("`{text}`: {e}"));
                None
            }
        }
    };

    // Counters.
    let cp = counters_path.as_str();
    cf.provenance.check(cp, "counters", &mut errors);
    audit.push(AuditEntry {
        file: counters_path.clone(),
        item: format!(
            "{} leaders and {} combat units",
            cf.leader.len(),
            cf.unit.len()
        ),
        source: cf.provenance.source,
        reason: cf.provenance.reason.clone(),
    });
    let mut leaders = Vec::new();
    for l in &cf.leader {
        let side = seat_of(&l.side, cp, &mut errors);
        if !l.overall && l.command.is_none() {
            errors.push(
                cp,
                None,
                format!(
                    "leader {}: a leader needs a `command` rating (4.11)",
                    l.name
                ),
            );
        }
        let deploy = l.deploy.as_deref().and_then(|d| hex_of(d, cp, &mut errors));
        leaders.push(LeaderDef {
            name: l.name.clone(),
            token: token(&l.name),
            side,
            overall: l.overall,
            command: l.command,
            span: l.span,
            bonus: l.bonus,
            replacement: l
                .replacement
                .as_ref()
                .map(|r| (r.name.clone(), r.command, r.span, r.bonus)),
            band: l.band.clone(),
            deploy,
        });
    }
    let leader_names: Vec<&str> = leaders.iter().map(|l| l.name.as_str()).collect();
    let mut units = Vec::new();
    for u in &cf.unit {
        let side = seat_of(&u.side, cp, &mut errors);
        let utype = match tables.unit_types.iter().position(|t| t.key == u.r#type) {
            Some(i) => i,
            None => {
                errors.push(
                    cp,
                    None,
                    format!(
                        "unit {}: unknown type `{}`; valid: {}",
                        u.name,
                        u.r#type,
                        tables
                            .unit_types
                            .iter()
                            .map(|t| t.key.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                0
            }
        };
        let leader = match leader_names.iter().position(|n| *n == u.leader) {
            Some(i) => i as LeaderId,
            None => {
                errors.push(
                    cp,
                    None,
                    format!(
                        "unit {}: unknown leader `{}`; valid: {}",
                        u.name,
                        u.leader,
                        leader_names.join(", ")
                    ),
                );
                0
            }
        };
        let deploy = u.deploy.as_deref().and_then(|d| {
            let mut parts = d.split_whitespace();
            let hex = hex_of(parts.next().unwrap_or(""), cp, &mut errors)?;
            let facing = match parts.next().map(str::parse::<Vertex>) {
                Some(Ok(v)) => v,
                _ => {
                    errors.push(cp, None, format!("unit {}: deploy `{d}` needs `HEX FACING` with a facing of NNE, E, SSE, SSW, W, NNW", u.name));
                    return None;
                }
            };
            Some((hex, facing))
        });
        let side_values = |s: &data::SideRow| SideValues {
            strength: s.strength,
            fire: s.fire,
            morale: s.morale,
            movement: s.movement,
        };
        units.push(UnitDef {
            name: u.name.clone(),
            token: token(&u.name),
            side,
            utype,
            leader,
            setup: u.setup.clone(),
            front: side_values(&u.front),
            back: u.back.as_ref().map(side_values),
            stacked_over: None,
            deploy,
        });
    }
    for (i, u) in cf.unit.iter().enumerate() {
        if let Some(below) = &u.stacked_over {
            match cf.unit.iter().position(|v| &v.name == below) {
                Some(j) if cf.unit[j].r#type == u.r#type && j != i => {
                    units[i].stacked_over = Some(j as UnitId)
                }
                Some(_) => errors.push(
                    cp,
                    None,
                    format!(
                        "unit {}: only two units of the same type may begin stacked (7.1)",
                        u.name
                    ),
                ),
                None => errors.push(
                    cp,
                    None,
                    format!("unit {}: stacked over unknown unit `{below}`", u.name),
                ),
            }
        }
        if tables
            .unit_types
            .get(units[i].utype)
            .is_some_and(|t| t.crusader_heavy_cavalry)
            && u.back.is_none()
        {
            errors.push(
                cp,
                None,
                format!(
                    "unit {}: Crusader heavy cavalry needs its charging side as `back` (5.6)",
                    u.name
                ),
            );
        }
    }
    let mut seen = std::collections::HashSet::new();
    for u in &units {
        if !seen.insert(u.token.to_lowercase()) {
            errors.push(cp, None, format!("unit name `{}` is used twice", u.name));
        }
    }
    for l in &leaders {
        if !seen.insert(l.token.to_lowercase()) {
            errors.push(
                cp,
                None,
                format!("leader name `{}` is used twice or as a unit name", l.name),
            );
        }
    }

    // Scenario.
    let sp = scenario_path.as_str();
    let first_player = seat_of(&sf.first_player, sp, &mut errors);
    if sf.turn.is_empty() {
        errors.push(sp, None, "a scenario needs at least one turn");
    }
    let turns: Vec<Turn> = sf
        .turn
        .iter()
        .map(|t| Turn {
            label: t.label.clone(),
            night: t.night,
        })
        .collect();
    let area = |name: &str, errors: &mut DataErrors| -> Vec<Hex> {
        match map.areas.get(name) {
            Some(h) => h.clone(),
            None => {
                errors.push(
                    sp,
                    None,
                    format!(
                        "unknown area `{name}`; valid: {}",
                        map.areas.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                );
                Vec::new()
            }
        }
    };
    let mut setup = Vec::new();
    for r in &sf.setup {
        let side = seat_of(&r.side, sp, &mut errors);
        let mut covered = Vec::new();
        for name in &r.units {
            match units.iter().position(|u| &u.name == name) {
                Some(i) => covered.push(i as UnitId),
                None => errors.push(sp, None, format!("set-up rule names unknown unit `{name}`")),
            }
        }
        for (i, u) in units.iter().enumerate() {
            if u.side == side
                && u.setup.as_ref().is_some_and(|c| r.codes.contains(c))
                && !covered.contains(&(i as UnitId))
            {
                covered.push(i as UnitId);
            }
        }
        setup.push(SetupRule {
            side,
            units: covered,
            area: area(&r.area, &mut errors),
            within: r.within,
            one_per_hex: r.one_per_hex,
            case: r.case.clone(),
        });
    }
    let turn_index = |label: &str, errors: &mut DataErrors| -> usize {
        turns
            .iter()
            .position(|t| t.label == label)
            .unwrap_or_else(|| {
                errors.push(sp, None, format!("unknown turn `{label}`"));
                0
            })
    };
    let mut reinforcements = Vec::new();
    let mut entering: Vec<UnitId> = Vec::new();
    for r in &sf.reinforcement {
        let side = seat_of(&r.side, sp, &mut errors);
        let turn = turn_index(&r.turn, &mut errors);
        let mut ls = Vec::new();
        for name in &r.leaders {
            match leaders.iter().position(|l| &l.name == name) {
                Some(i) => ls.push(i as LeaderId),
                None => errors.push(
                    sp,
                    None,
                    format!("reinforcement names unknown leader `{name}`"),
                ),
            }
        }
        let mut us = Vec::new();
        let mut holy_cross = false;
        for name in &r.units {
            if name == "Holy Cross" {
                holy_cross = true;
                continue;
            }
            match units.iter().position(|u| &u.name == name) {
                Some(i) => us.push(i as UnitId),
                None => errors.push(
                    sp,
                    None,
                    format!("reinforcement names unknown unit `{name}`"),
                ),
            }
        }
        let mut entry = Vec::new();
        for a in &r.areas {
            entry.extend(area(a, &mut errors));
        }
        entering.extend(us.iter().copied());
        reinforcements.push(Reinforcement {
            side,
            turn,
            leaders: ls,
            units: us,
            holy_cross,
            entry,
            case: r.case.clone(),
        });
    }
    // A reinforcing leader brings every unit assigned to him that is not named elsewhere and
    // not set up on the map.
    let set_up: Vec<UnitId> = setup.iter().flat_map(|r| r.units.iter().copied()).collect();
    for r in &mut reinforcements {
        for (i, u) in units.iter().enumerate() {
            let i = i as UnitId;
            if r.leaders.contains(&u.leader) && !entering.contains(&i) && !set_up.contains(&i) {
                r.units.push(i);
            }
        }
    }
    // Remaining units with no set-up rule and no reinforcement: a data error.
    let placed: Vec<UnitId> = reinforcements
        .iter()
        .flat_map(|r| r.units.iter().copied())
        .chain(set_up.iter().copied())
        .collect();
    for (i, u) in units.iter().enumerate() {
        let n = placed.iter().filter(|&&p| p == i as UnitId).count();
        if n == 0 {
            errors.push(
                sp,
                None,
                format!("unit {} is neither set up nor a reinforcement", u.name),
            );
        } else if n > 1 {
            errors.push(
                sp,
                None,
                format!(
                    "unit {} is covered by {n} set-up or reinforcement rules",
                    u.name
                ),
            );
        }
    }
    let mut berserk = vec![(11, 11); 2];
    for (side, [lo, hi]) in &sf.berserk {
        let s = seat_of(side, sp, &mut errors);
        berserk[s.index()] = (*lo, *hi);
    }
    let mut historical = Vec::new();
    for (name, chit) in &sf.historical_commands {
        let l = leaders.iter().position(|l| &l.name == name);
        let c = Chit::parse(chit);
        match (l, c) {
            (Some(l), Some(c)) => historical.push((l as LeaderId, c)),
            _ => errors.push(sp, None, format!("historical command `{name} = {chit}`: unknown leader or chit (chits: attack, advance, stand, retreat, reserve, muster)")),
        }
    }
    let mut victory = vec![Vec::new(), Vec::new()];
    for v in &sf.victory {
        let s = seat_of(&v.side, sp, &mut errors);
        v.provenance.check(sp, "victory table", &mut errors);
        audit.push(AuditEntry {
            file: scenario_path.clone(),
            item: format!("victory table of {}", v.side),
            source: v.provenance.source,
            reason: v.provenance.reason.clone(),
        });
        let mut rows: Vec<(u32, u32, u8)> =
            v.rows.iter().map(|r| (r[0], r[1], r[2] as u8)).collect();
        rows.sort();
        for w in rows.windows(2) {
            if w[0].1 >= w[1].0 {
                errors.push(
                    sp,
                    None,
                    format!("victory table of {}: rows overlap", v.side),
                );
            }
        }
        victory[s.index()] = rows;
    }
    let at_end = match sf.at_end.as_str() {
        "draw" => AtEnd::Draw,
        "nicopolis_road_block" => AtEnd::NicopolisRoadBlock,
        s => match seats.iter().position(|n| n == s) {
            Some(i) => AtEnd::Winner(Seat(i as u8)),
            None => {
                errors.push(
                    sp,
                    None,
                    format!(
                        "`at_end = \"{s}\"`: valid: draw, nicopolis_road_block, {}",
                        seats.join(", ")
                    ),
                );
                AtEnd::Draw
            }
        },
    };
    let mut special = Special::default();
    for s in &sf.special {
        match s.as_str() {
            "night_turns" => special.night_turns = true,
            "holy_cross" => special.holy_cross = true,
            "charge_berserk" => special.charge_berserk = true,
            "entry_costs" => special.entry_costs = true,
            "withhold_reinforcements" => special.withhold_reinforcements = true,
            "mounted_bow_skirmishers" => special.mounted_bow_skirmishers = true,
            "early_action_chits" => special.early_action_chits = true,
            other => errors.push(sp, None, format!("unknown special rule `{other}`; valid: night_turns, holy_cross, charge_berserk, entry_costs, withhold_reinforcements, mounted_bow_skirmishers, early_action_chits")),
        }
    }
    if at_end == AtEnd::NicopolisRoadBlock {
        for a in ["road_goal_town", "north_edge", "crusader_road_start"] {
            if !map.areas.contains_key(a) {
                errors.push(
                    &map_path,
                    None,
                    format!("the Nicopolis road-block test (14.1) needs the area `{a}`"),
                );
            }
        }
    }
    let holy_cross_losses = sf.special_losses.get("Holy Cross").copied().unwrap_or(0);
    let evaluation = match crate::evaluation::load_weights(data, battle) {
        Ok(w) => w,
        Err(e) => {
            errors.0.extend(e.0);
            crate::evaluation::Weights::default()
        }
    };
    let battle = Battle {
        id: sf.id.clone(),
        title: sf.title.clone(),
        case: sf.case.clone(),
        seats,
        first_player,
        turns,
        tables,
        map,
        units,
        leaders,
        setup,
        reinforcements,
        berserk,
        historical,
        victory,
        at_end,
        at_end_level: sf.at_end_level.clone(),
        special,
        holy_cross_losses,
        evaluation,
        audit,
        identity: BattleIdentity::new(),
    };
    errors.locate(data);
    errors.into_result(Arc::new(battle))
}

fn collect<T>(r: Result<T, engine::DataError>, errors: &mut DataErrors) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            errors.0.push(e);
            None
        }
    }
}

fn costs(c: &data::CostsByClass) -> Costs {
    let half = |c: Cost| match c {
        Cost::Points(p) if p >= 0.0 => Some((p * 2.0).round() as HalfPoints),
        _ => None,
    };
    Costs([
        half(c.infantry),
        half(c.cavalry),
        half(c.leaders),
        half(c.heavy_cavalry),
        half(c.skirmishers),
    ])
}

fn audit_row(audit: &mut Vec<AuditEntry>, file: &str, item: String, p: &Provenance) {
    audit.push(AuditEntry {
        file: file.to_string(),
        item,
        source: p.source,
        reason: p.reason.clone(),
    });
}

fn modifier(text: &str) -> Option<i32> {
    match text.trim() {
        "-" | "0" => Some(0),
        t => t.trim_start_matches('+').parse().ok(),
    }
}

fn check_tables(
    tf: &TablesFile,
    file: &str,
    errors: &mut DataErrors,
    audit: &mut Vec<AuditEntry>,
) -> Tables {
    let melee_classes: Vec<String> = tf.unit_type_modifier.columns.clone();
    let fire_columns = tf.fire.columns.clone();
    let mut unit_types = Vec::new();
    for t in &tf.unit_type {
        t.provenance
            .check(file, &format!("unit type {}", t.key), errors);
        audit_row(audit, file, format!("unit type {}", t.key), &t.provenance);
        let move_class = MoveClass::parse(&t.movement_class).unwrap_or_else(|| {
            errors.push(file, None, format!("unit type {}: movement_class `{}`; valid: infantry, cavalry, heavy_cavalry, skirmishers", t.key, t.movement_class));
            MoveClass::Infantry
        });
        let fire_column = t.fire_column.as_ref().and_then(|c| {
            let i = fire_columns.iter().position(|f| f == c);
            if i.is_none() {
                errors.push(
                    file,
                    None,
                    format!(
                        "unit type {}: fire_column `{c}`; valid: {}",
                        t.key,
                        fire_columns.join(", ")
                    ),
                );
            }
            i
        });
        let melee_class = melee_classes
            .iter()
            .position(|m| *m == t.melee_class)
            .unwrap_or_else(|| {
                errors.push(
                    file,
                    None,
                    format!(
                        "unit type {}: melee_class `{}`; valid: {}",
                        t.key,
                        t.melee_class,
                        melee_classes.join(", ")
                    ),
                );
                0
            });
        unit_types.push(UnitType {
            key: t.key.clone(),
            name: t.name.clone(),
            move_class,
            mounted: t.mounted,
            skirmisher: t.skirmisher,
            crusader_heavy_cavalry: t.crusader_heavy_cavalry,
            artillery: t.artillery,
            fire_column,
            melee_class,
            fire_target_modifier: t.fire_target_modifier,
        });
    }
    let terrains: Vec<Terrain> = tf
        .terrain
        .iter()
        .map(|t| {
            t.provenance
                .check(file, &format!("terrain {}", t.key), errors);
            audit_row(
                audit,
                file,
                format!("Terrain Effects Chart: {}", t.name),
                &t.provenance,
            );
            Terrain {
                key: t.key.clone(),
                name: t.name.clone(),
                cost: costs(&t.cost),
                fire: t.fire,
                melee: t.melee,
                blocks_los: t.blocks_los,
                colour: t.colour.clone(),
            }
        })
        .collect();
    let features = tf
        .hexside
        .iter()
        .map(|t| {
            t.provenance
                .check(file, &format!("hexside {}", t.key), errors);
            audit_row(
                audit,
                file,
                format!("Terrain Effects Chart: {}", t.name),
                &t.provenance,
            );
            Feature {
                key: t.key.clone(),
                name: t.name.clone(),
                cost: costs(&t.cost),
                fire: t.fire,
                melee: t.melee,
                colour: t.colour.clone(),
            }
        })
        .collect();
    let roads = tf
        .road
        .iter()
        .map(|t| {
            t.provenance.check(file, &format!("road {}", t.key), errors);
            audit_row(
                audit,
                file,
                format!("Terrain Effects Chart: {}", t.name),
                &t.provenance,
            );
            Road {
                key: t.key.clone(),
                name: t.name.clone(),
                cost: costs(&t.cost),
                colour: t.colour.clone(),
            }
        })
        .collect();
    tf.elevation.provenance.check(file, "elevation", errors);
    audit_row(
        audit,
        file,
        "elevation modifiers".into(),
        &tf.elevation.provenance,
    );
    let fire = roll_table(
        "Fire Table",
        &tf.fire.columns,
        &tf.fire.row,
        file,
        errors,
        audit,
    );
    let melee = roll_table(
        "Melee Table",
        &tf.melee.columns,
        &tf.melee.row,
        file,
        errors,
        audit,
    );
    let melee_columns_from = tf
        .melee
        .columns
        .iter()
        .map(|c| {
            c.trim_end_matches('+')
                .split('-')
                .next()
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or_else(|| {
                    errors.push(file, None, format!("Melee Table column `{c}` is not a strength bracket like `4-6` or `46+`"));
                    0
                })
        })
        .collect();
    let mut range = vec![[None; 6]; fire_columns.len()];
    let brackets: Vec<Vec<u32>> = tf
        .range
        .columns
        .iter()
        .map(|c| {
            let mut parts = c.split('-').filter_map(|n| n.trim().parse::<u32>().ok());
            let lo = parts.next().unwrap_or(0);
            let hi = parts.next().unwrap_or(lo);
            (lo..=hi).collect()
        })
        .collect();
    for r in &tf.range.row {
        r.provenance
            .check(file, &format!("Range Table {}", r.fire_column), errors);
        audit_row(
            audit,
            file,
            format!("Range Table: {}", r.fire_column),
            &r.provenance,
        );
        let Some(col) = fire_columns.iter().position(|f| *f == r.fire_column) else {
            errors.push(
                file,
                None,
                format!(
                    "Range Table row `{}`: not a Fire Table column; valid: {}",
                    r.fire_column,
                    fire_columns.join(", ")
                ),
            );
            continue;
        };
        if r.results.len() != brackets.len() {
            errors.push(
                file,
                None,
                format!(
                    "Range Table row `{}`: {} results for {} columns",
                    r.fire_column,
                    r.results.len(),
                    brackets.len()
                ),
            );
            continue;
        }
        for (cell, ranges) in r.results.iter().zip(&brackets) {
            let value = if cell.trim() == "X" {
                None
            } else {
                match modifier(cell) {
                    Some(m) => Some(m),
                    None => {
                        errors.push(
                            file,
                            None,
                            format!(
                                "Range Table row `{}`: `{cell}` is not +N, -N, - or X",
                                r.fire_column
                            ),
                        );
                        None
                    }
                }
            };
            for &d in ranges {
                if (1..=6).contains(&d) {
                    range[col][d as usize - 1] = value;
                }
            }
        }
    }
    let mut unit_type_modifier = vec![vec![0; melee_classes.len()]; melee_classes.len()];
    for r in &tf.unit_type_modifier.row {
        r.provenance.check(
            file,
            &format!("Unit Type Modifier Table {}", r.attacker),
            errors,
        );
        audit_row(
            audit,
            file,
            format!("Unit Type Modifier Table: {}", r.attacker),
            &r.provenance,
        );
        let Some(row) = melee_classes.iter().position(|m| *m == r.attacker) else {
            errors.push(
                file,
                None,
                format!(
                    "Unit Type Modifier Table row `{}`: valid: {}",
                    r.attacker,
                    melee_classes.join(", ")
                ),
            );
            continue;
        };
        if r.results.len() != melee_classes.len() {
            errors.push(
                file,
                None,
                format!(
                    "Unit Type Modifier Table row `{}`: {} results for {} columns",
                    r.attacker,
                    r.results.len(),
                    melee_classes.len()
                ),
            );
            continue;
        }
        for (j, cell) in r.results.iter().enumerate() {
            match modifier(cell) {
                Some(m) => unit_type_modifier[row][j] = m,
                None => errors.push(
                    file,
                    None,
                    format!(
                        "Unit Type Modifier Table row `{}`: `{cell}` is not a modifier",
                        r.attacker
                    ),
                ),
            }
        }
    }
    Tables {
        unit_types,
        terrains,
        features,
        roads,
        melee_uphill: tf.elevation.melee_uphill,
        fire_uphill: tf.elevation.fire_uphill,
        fire,
        range,
        melee,
        melee_columns_from,
        unit_type_modifier,
        melee_classes,
    }
}

fn roll_table(
    name: &str,
    columns: &[String],
    rows: &[data::TableRow],
    file: &str,
    errors: &mut DataErrors,
    audit: &mut Vec<AuditEntry>,
) -> RollTable {
    let mut out = Vec::new();
    let first_roll = rows.first().map(|r| r.roll).unwrap_or(0);
    for (i, r) in rows.iter().enumerate() {
        r.provenance
            .check(file, &format!("{name} row {}", r.roll), errors);
        let item = match r.printed_cells {
            Some(n) => format!("{name} row {} (first {n} cells printed)", r.roll),
            None => format!("{name} row {}", r.roll),
        };
        audit_row(audit, file, item, &r.provenance);
        if r.roll != first_roll + i as i32 {
            errors.push(file, None, format!("{name}: rows must run from {first_roll} upwards without gaps; found row {} at position {}", r.roll, i + 1));
        }
        if r.results.len() != columns.len() {
            errors.push(
                file,
                None,
                format!(
                    "{name} row {}: {} results for {} columns",
                    r.roll,
                    r.results.len(),
                    columns.len()
                ),
            );
            out.push(vec![CombatResult::NoEffect; columns.len()]);
            continue;
        }
        let mut row = Vec::new();
        for cell in &r.results {
            row.push(CombatResult::parse(cell).unwrap_or_else(|| {
                errors.push(
                    file,
                    None,
                    format!("{name} row {}: `{cell}`; valid: -, M, 1, 2, 3", r.roll),
                );
                CombatResult::NoEffect
            }));
        }
        out.push(row);
    }
    if out.is_empty() {
        errors.push(file, None, format!("{name} has no rows"));
        out.push(vec![CombatResult::NoEffect; columns.len().max(1)]);
    }
    // Better rolls never give a worse result (GAPS.md: keep tables monotone).
    for (c, column) in columns.iter().enumerate() {
        for w in out.windows(2) {
            if w[1].get(c) < w[0].get(c) {
                errors.push(
                    file,
                    None,
                    format!("{name}: column {} gets weaker as the roll rises", column),
                );
                break;
            }
        }
    }
    RollTable {
        columns: columns.to_vec(),
        first_roll,
        rows: out,
    }
}

/// Reads a hex list ([`engine::hex_list`]) into the grid's hexes.
fn expand_hexes(
    list: &[String],
    grid: &Grid,
    file: &str,
    what: &str,
    errors: &mut DataErrors,
) -> Vec<Hex> {
    engine::hex_list(grid, list, file, what, errors)
        .into_iter()
        .filter_map(|id| grid.hex_of(id))
        .collect()
}

fn check_map(
    data: &DataSet,
    mf: &MapFile,
    file: &str,
    tables: &Tables,
    errors: &mut DataErrors,
    audit: &mut Vec<AuditEntry>,
) -> Map {
    let _ = data;
    mf.provenance.check(file, "map", errors);
    audit_row(audit, file, format!("map of {}", mf.title), &mf.provenance);
    let layout = Layout::new(mf.layout);
    let parse_id = |t: &str, errors: &mut DataErrors| {
        t.parse::<HexId>().unwrap_or_else(|e| {
            errors.push(file, None, format!("`{t}`: {e}"));
            HexId { col: 0, row: 0 }
        })
    };
    let grid = Grid::new(
        layout,
        parse_id(&mf.first, errors),
        parse_id(&mf.last, errors),
    );
    let terrain_index = |key: &str, errors: &mut DataErrors| -> u8 {
        tables
            .terrains
            .iter()
            .position(|t| t.key == key)
            .unwrap_or_else(|| {
                errors.push(
                    file,
                    None,
                    format!(
                        "unknown terrain `{key}`; valid: {}",
                        tables
                            .terrains
                            .iter()
                            .map(|t| t.key.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                0
            }) as u8
    };
    let default = HexInfo {
        terrain: terrain_index(&mf.default_terrain, errors),
        elevation: mf.default_elevation,
    };
    let mut hexes = HexMap::filled(grid, default);
    for g in &mf.terrain {
        let t = terrain_index(&g.terrain, errors);
        for h in expand_hexes(
            &g.hexes,
            &grid,
            file,
            &format!("terrain {}", g.terrain),
            errors,
        ) {
            if let Some(info) = hexes.get_mut(h) {
                info.terrain = t;
            }
        }
    }
    for g in &mf.elevation {
        if !(1..=3).contains(&g.level) {
            errors.push(
                file,
                None,
                format!("elevation level {} (valid: 1, 2, 3)", g.level),
            );
        }
        for h in expand_hexes(
            &g.hexes,
            &grid,
            file,
            &format!("elevation {}", g.level),
            errors,
        ) {
            if let Some(info) = hexes.get_mut(h) {
                info.elevation = g.level;
            }
        }
    }
    let side_of = |text: &str, errors: &mut DataErrors| -> Option<Hexside> {
        engine::hexside(&grid, text, file, "hexside", errors)
    };
    let mut features = HashMap::new();
    for g in &mf.hexside {
        let Some(f) = tables.features.iter().position(|t| t.key == g.feature) else {
            errors.push(
                file,
                None,
                format!(
                    "unknown hexside feature `{}`; valid: {}",
                    g.feature,
                    tables
                        .features
                        .iter()
                        .map(|t| t.key.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            continue;
        };
        for s in &g.sides {
            match side_of(s, errors) {
                Some(side) => {
                    features.insert(side, f as u8);
                }
                None if !s.contains('/') => errors.push(
                    file,
                    None,
                    format!("hexside `{s}` must be written like 1203/1204"),
                ),
                None => {}
            }
        }
    }
    let mut roads = HashMap::new();
    let mut road_chains = Vec::new();
    for r in &mf.road {
        let Some(k) = tables.roads.iter().position(|t| t.key == r.kind) else {
            errors.push(
                file,
                None,
                format!(
                    "unknown road kind `{}`; valid: {}",
                    r.kind,
                    tables
                        .roads
                        .iter()
                        .map(|t| t.key.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            continue;
        };
        let chain = expand_hexes(&r.hexes, &grid, file, "road", errors);
        for w in chain.windows(2) {
            match Hexside::between(w[0], w[1]) {
                Some(s) => {
                    roads.insert(s, k as u8);
                }
                None => errors.push(
                    file,
                    None,
                    format!(
                        "road: {} and {} are not adjacent",
                        layout
                            .to_id(w[0])
                            .map(|i| i.to_string())
                            .unwrap_or_default(),
                        layout
                            .to_id(w[1])
                            .map(|i| i.to_string())
                            .unwrap_or_default()
                    ),
                ),
            }
        }
        road_chains.push((k as u8, chain));
    }
    let labels = mf
        .label
        .iter()
        .filter_map(|l| {
            let h = expand_hexes(std::slice::from_ref(&l.hex), &grid, file, "label", errors);
            h.first().map(|h| (*h, l.text.clone()))
        })
        .collect();
    let mut areas = BTreeMap::new();
    for (name, a) in &mf.area {
        a.provenance.check(file, &format!("area {name}"), errors);
        audit_row(audit, file, format!("area {name}"), &a.provenance);
        areas.insert(
            name.clone(),
            expand_hexes(&a.hexes, &grid, file, &format!("area {name}"), errors),
        );
    }
    let mut side_feature = vec![[None; 6]; grid.len()];
    let mut side_road = vec![[None; 6]; grid.len()];
    for (table, out) in [(&features, &mut side_feature), (&roads, &mut side_road)] {
        for (side, k) in table.iter() {
            let (a, b) = side.hexes();
            for (h, other) in [(a, b), (b, a)] {
                if let (Some(i), Some(d)) = (grid.index(h), h.direction_to(other)) {
                    out[i][d.index() as usize] = Some(*k);
                }
            }
        }
    }
    let mut features: Vec<(Hexside, u8)> = features.into_iter().collect();
    features.sort_by_key(|(s, _)| {
        let (a, b) = s.hexes();
        (a.q, a.r, b.q, b.r)
    });
    let mut map = Map {
        grid,
        hexes,
        features,
        side_feature,
        side_road,
        step_cost: Vec::new(),
        hops: Vec::new(),
        hex_of: grid.hexes().collect(),
        index_box: IndexBox::default(),
        neighbour: grid
            .hexes()
            .map(|h| {
                Direction::ALL.map(|d| grid.index(h.neighbour(d)).map_or(OFF_GRID, |i| i as u32))
            })
            .collect(),
        road_chains,
        labels,
        areas,
    };
    map.step_cost = [
        MoveClass::Infantry,
        MoveClass::Cavalry,
        MoveClass::Leaders,
        MoveClass::HeavyCavalry,
        MoveClass::Skirmishers,
    ]
    .iter()
    .map(|&class| {
        map.grid
            .hexes()
            .map(|h| Direction::ALL.map(|d| map.compute_step(tables, class, h, d)))
            .collect()
    })
    .collect();
    map.index_box = IndexBox::of(&map.hex_of);
    map.hops = map
        .step_cost
        .iter()
        .map(|steps| {
            steps
                .iter()
                .zip(&map.neighbour)
                .map(|(s, n)| std::array::from_fn(|d| hop(n[d], s[d])))
                .collect()
        })
        .collect();
    map
}

/// A step into a neighbour as one word of [`Map::hops`]: the neighbour's dense index above
/// the step's cost in half points (the low byte); [`NO_HOP`] where no step is allowed (8.2,
/// or off the map). A cost above [`HOP_COST_MAX`] is written as that (no budget searched by
/// hops reaches it).
fn hop(neighbour: u32, cost: Option<HalfPoints>) -> u32 {
    match cost {
        Some(c) if neighbour != OFF_GRID => neighbour << 8 | u32::from(c.min(HOP_COST_MAX)),
        _ => NO_HOP,
    }
}

/// The largest cost a hop holds ([`hop`]): more than any budget searched by hops.
pub const HOP_COST_MAX: HalfPoints = 0xFE;
/// A hop that is no step: its cost (the low byte, 255) is beyond every budget searched by
/// hops.
pub const NO_HOP: u32 = u32::MAX;
