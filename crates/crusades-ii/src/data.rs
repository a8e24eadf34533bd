//! The data files of Crusades II as plain serde structs, exactly as written in
//! `data/crusades-ii/`: the rules' tables (`tables.toml`), and for each battle its map
//! (`map.toml`), counters (`counters.toml`) and scenario (`scenario.toml`). Unknown fields are
//! errors. `rules.rs`-level checking into typed values happens in [`crate::scenario`].
//!
//! The format is documented in `docs/data-format.md`.

use std::collections::BTreeMap;

use engine::Provenance;
use serde::{Deserialize, Serialize};

/// `tables.toml`: every chart of the rulebook that is not specific to one battle.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TablesFile {
    /// Unit types: how each moves, fires and fights.
    pub unit_type: Vec<UnitTypeRow>,
    /// The Terrain Effects Chart (8.2), a row per terrain.
    pub terrain: Vec<TerrainRow>,
    /// Hexside features of the Terrain Effects Chart (8.2).
    pub hexside: Vec<HexsideRow>,
    /// Roads and tracks (8.2): the cost of entering a hex along the road.
    pub road: Vec<RoadRow>,
    /// Effects of elevation on combat (9.2, 8.2).
    pub elevation: ElevationRules,
    /// The Fire Table (9.1).
    pub fire: FireTable,
    /// The Range Table (9.11).
    pub range: RangeTable,
    /// The Melee Table (9.4).
    pub melee: MeleeTable,
    /// The Unit Type Modifier Table (9.4, 16.6).
    pub unit_type_modifier: UnitTypeModifierTable,
}

/// How a unit type moves, fires and fights.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnitTypeRow {
    /// The key counters use (`heavy_cavalry`).
    pub key: String,
    /// The name as printed (`Heavy Cavalry`).
    pub name: String,
    /// The Terrain Effects Chart column it moves by: `infantry`, `cavalry`,
    /// `heavy_cavalry` or `skirmishers` (leaders always use `leaders`).
    pub movement_class: String,
    /// Mounted (cavalry in 5.4 and 9.32).
    pub mounted: bool,
    /// A skirmish unit (5.4, 6.14): no facing, no ZOC, moves independently.
    pub skirmisher: bool,
    /// Crusader heavy cavalry (5.6, 9.43): charging side and three steps.
    #[serde(default)]
    pub crusader_heavy_cavalry: bool,
    /// Artillery: fires but never melees offensively (9.4 note 1).
    #[serde(default)]
    pub artillery: bool,
    /// The Fire Table column it fires on, if its counters may have fire capability.
    #[serde(default)]
    pub fire_column: Option<String>,
    /// The Unit Type Modifier Table row and column it counts as.
    pub melee_class: String,
    /// Modifier to fire aimed at this type (9.1 Fire Table modifiers).
    #[serde(default)]
    pub fire_target_modifier: i32,
    /// Where the row comes from.
    pub provenance: Provenance,
}

/// A movement cost: a number of movement points, or not allowed.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Cost {
    /// Movement points (halves allowed: 0.5).
    Points(f64),
    /// `"NA"`: not allowed.
    NotAllowed(NotAllowed),
}

/// The text `NA`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
pub enum NotAllowed {
    /// Not allowed.
    NA,
}

/// Movement costs by Terrain Effects Chart column.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CostsByClass {
    /// Infantry (and men-at-arms).
    pub infantry: Cost,
    /// Cavalry.
    pub cavalry: Cost,
    /// Leaders (8 MP).
    pub leaders: Cost,
    /// Heavy cavalry.
    pub heavy_cavalry: Cost,
    /// Skirmishers.
    pub skirmishers: Cost,
}

/// A row of the Terrain Effects Chart.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRow {
    /// The key maps use (`clear`, `woods`, `town`).
    pub key: String,
    /// The name as printed.
    pub name: String,
    /// Cost to enter, by column.
    pub cost: CostsByClass,
    /// Defensive modifier to fire into the hex (added to the firer's roll).
    pub fire: i32,
    /// Defensive modifier to melee into the hex (added to the attacker's roll).
    pub melee: i32,
    /// Whether the hex blocks line of sight (9.21, 9.22: woods and towns).
    pub blocks_los: bool,
    /// A CSS colour for renderers.
    pub colour: String,
    /// Where the row comes from.
    pub provenance: Provenance,
}

/// A hexside feature of the Terrain Effects Chart.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideRow {
    /// The key maps use (`stream`, `river`, `slope`).
    pub key: String,
    /// The name as printed.
    pub name: String,
    /// Cost added to crossing the hexside, by column (`NA`: may not cross).
    pub cost: CostsByClass,
    /// Defensive modifier to fire through the hexside.
    pub fire: i32,
    /// Defensive modifier to melee through the hexside.
    pub melee: i32,
    /// A CSS colour for renderers.
    pub colour: String,
    /// Where the row comes from.
    pub provenance: Provenance,
}

/// A road or track: the cost of entering a hex along it, instead of the terrain's.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoadRow {
    /// The key maps use (`road`).
    pub key: String,
    /// The name as printed.
    pub name: String,
    /// Cost to enter a hex along the road, by column.
    pub cost: CostsByClass,
    /// A CSS colour for renderers.
    pub colour: String,
    /// Where the row comes from.
    pub provenance: Provenance,
}

/// Effects of elevation.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ElevationRules {
    /// Added to the melee roll of units attacking a hex higher than every attacker's hex.
    pub melee_uphill: i32,
    /// Added to the fire roll of units firing at a higher hex.
    pub fire_uphill: i32,
    /// Where the rows come from.
    pub provenance: Provenance,
}

/// The Fire Table: rows by modified die roll, columns by type of unit firing.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FireTable {
    /// Column names, in the order of each row's results (`bow`, `mounted_bow`...).
    pub columns: Vec<String>,
    /// Rows, lowest modified roll first; rolls below the first row use it, rolls above the
    /// last use the last.
    pub row: Vec<TableRow>,
}

/// A table row: a modified die roll and its results by column.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TableRow {
    /// The modified die roll.
    pub roll: i32,
    /// Results by column: `-` no effect, `M` morale check, a number of step losses.
    pub results: Vec<String>,
    /// Where the row comes from.
    pub provenance: Provenance,
    /// For a row printed only in part: how many leading cells are printed (the rest are
    /// reconstructed, for the reason in `provenance`).
    #[serde(default)]
    pub printed_cells: Option<usize>,
}

/// The Range Table (9.11): die-roll modifiers by firing type and range.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RangeTable {
    /// Range brackets, e.g. `["1","2","3","4","5-6"]`.
    pub columns: Vec<String>,
    /// One row per Fire Table column.
    pub row: Vec<RangeRow>,
}

/// A Range Table row.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RangeRow {
    /// The Fire Table column (`bow`).
    pub fire_column: String,
    /// Per range bracket: a modifier (`"+1"`, `"-"`, `"-1"`) or `"X"` (out of range).
    pub results: Vec<String>,
    /// Where the row comes from.
    pub provenance: Provenance,
}

/// The Melee Table (9.4).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeTable {
    /// Strength brackets as printed (`"1-3"`, ..., `"46+"`).
    pub columns: Vec<String>,
    /// Rows by modified roll, 0 to 12 (below 0 reads row 0, above 12 reads row 12).
    pub row: Vec<TableRow>,
}

/// The Unit Type Modifier Table (9.4, 16.6): attacker down the side, defender across.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnitTypeModifierTable {
    /// Defender classes across the top, in order.
    pub columns: Vec<String>,
    /// Rows by attacker class.
    pub row: Vec<ModifierRow>,
}

/// A Unit Type Modifier Table row.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ModifierRow {
    /// The attacker's class.
    pub attacker: String,
    /// Modifiers by defender class (`"-"` is 0).
    pub results: Vec<String>,
    /// Where the row comes from.
    pub provenance: Provenance,
    /// How many leading cells are printed, for a row printed in part.
    #[serde(default)]
    pub printed_cells: Option<usize>,
}

/// `map.toml` of one battle.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    /// The map's title.
    pub title: String,
    /// Which columns sit half a hex lower on the printed map.
    pub layout: hexgrid::ColumnShove,
    /// The north-west corner hex id.
    pub first: String,
    /// The south-east corner hex id.
    pub last: String,
    /// Terrain of every hex not listed in `terrain`.
    pub default_terrain: String,
    /// Elevation of every hex not listed in `elevation` (levels 1-3).
    pub default_elevation: i8,
    /// Where the map comes from.
    pub provenance: Provenance,
    /// Terrain by hex.
    #[serde(default)]
    pub terrain: Vec<HexGroup>,
    /// Elevation by hex.
    #[serde(default)]
    pub elevation: Vec<ElevationGroup>,
    /// Hexside features.
    #[serde(default)]
    pub hexside: Vec<HexsideGroup>,
    /// Roads, each a chain of adjacent hexes.
    #[serde(default)]
    pub road: Vec<RoadChain>,
    /// Names printed on the map.
    #[serde(default)]
    pub label: Vec<Label>,
    /// Named hexes and areas: set-up hexes (`A`, `E`), entry areas.
    #[serde(default)]
    pub area: BTreeMap<String, Area>,
}

/// Hexes of one terrain. A hex list holds ids (`"1203"`) and column runs (`"1203..1208"`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HexGroup {
    /// A terrain key of `tables.toml`.
    pub terrain: String,
    /// The hexes.
    pub hexes: Vec<String>,
}

/// Hexes at one elevation level.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ElevationGroup {
    /// The level (1-3).
    pub level: i8,
    /// The hexes.
    pub hexes: Vec<String>,
}

/// Hexsides with one feature, each written `"1203/1204"` (two adjacent hexes).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideGroup {
    /// A hexside key of `tables.toml`.
    pub feature: String,
    /// The hexsides.
    pub sides: Vec<String>,
}

/// A road: a chain of adjacent hexes, in order.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoadChain {
    /// A road key of `tables.toml`.
    pub kind: String,
    /// The hexes, each adjacent to the next.
    pub hexes: Vec<String>,
}

/// A name printed on the map.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Label {
    /// The hex.
    pub hex: String,
    /// The text.
    pub text: String,
}

/// A named hex or group of hexes.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// The hexes.
    pub hexes: Vec<String>,
    /// Where it comes from (the rule case naming it, or the reconstruction).
    pub provenance: Provenance,
}

/// `counters.toml` of one battle.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CountersFile {
    /// Where the counter values come from.
    pub provenance: Provenance,
    /// Leaders and Overall Leaders.
    pub leader: Vec<LeaderRow>,
    /// Combat units.
    pub unit: Vec<UnitRow>,
}

/// A leader counter.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderRow {
    /// The name as printed (`Raymond`).
    pub name: String,
    /// The seat it belongs to.
    pub side: String,
    /// An Overall Leader (4.3).
    #[serde(default)]
    pub overall: bool,
    /// Command rating (4.11); Overall Leaders have none.
    #[serde(default)]
    pub command: Option<u8>,
    /// Command span (4.12).
    pub span: u8,
    /// Combat bonus (4.13).
    pub bonus: i32,
    /// The replacement side (4.2), if printed with one.
    #[serde(default)]
    pub replacement: Option<ReplacementRow>,
    /// Set-up code.
    #[serde(default)]
    pub setup: Option<String>,
    /// The colour band of its command, as a CSS colour.
    pub band: String,
    /// The historical hex and facing for the ready-made deployment, if set up on the map.
    #[serde(default)]
    pub deploy: Option<String>,
}

/// A leader's replacement side.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReplacementRow {
    /// Name on the replacement side.
    pub name: String,
    /// Command rating.
    #[serde(default)]
    pub command: Option<u8>,
    /// Command span.
    pub span: u8,
    /// Combat bonus.
    pub bonus: i32,
}

/// A combat unit counter.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnitRow {
    /// The name as printed (`Ray a`).
    pub name: String,
    /// The seat it belongs to.
    pub side: String,
    /// A unit type key of `tables.toml`.
    pub r#type: String,
    /// The leader it is assigned to.
    pub leader: String,
    /// Set-up code (`A`, `E`...), if any.
    #[serde(default)]
    pub setup: Option<String>,
    /// The front side: full strength (or, for Crusader heavy cavalry, non-charging).
    pub front: SideRow,
    /// The back side: reduced (or, for Crusader heavy cavalry, charging); absent for
    /// one-step units.
    #[serde(default)]
    pub back: Option<SideRow>,
    /// The name of a unit it begins the game stacked with (7.1), written on the upper unit.
    #[serde(default)]
    pub stacked_over: Option<String>,
    /// Ready-made deployment: `"HEX FACING"`, the facing a vertex name (e.g. `"1110 NNE"`).
    #[serde(default)]
    pub deploy: Option<String>,
}

/// One side of a counter.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SideRow {
    /// Combat strength.
    pub strength: u8,
    /// Fire capability (the asterisk after the strength).
    #[serde(default)]
    pub fire: bool,
    /// Morale rating.
    pub morale: u8,
    /// Movement allowance.
    pub movement: u8,
}

/// `scenario.toml` of one battle.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// The scenario id (`hattin`).
    pub id: String,
    /// The title.
    pub title: String,
    /// The rule case of the scenario (`12.1`).
    pub case: String,
    /// Seat names, the Crusader-side seat first (it draws the first action chit, 16.1).
    pub seats: Vec<String>,
    /// The seat that moves first (the first player).
    pub first_player: String,
    /// Game turns in order.
    pub turn: Vec<TurnRow>,
    /// Set-up rules: where each set-up code's units may be placed.
    #[serde(default)]
    pub setup: Vec<SetupRule>,
    /// Reinforcements.
    #[serde(default)]
    pub reinforcement: Vec<ReinforcementRow>,
    /// Die numbers for going berserk, by seat (16.4): `[low, high]`.
    pub berserk: BTreeMap<String, [u8; 2]>,
    /// Historical command chits by leader.
    pub historical_commands: BTreeMap<String, String>,
    /// Victory tables by the seat that rolls on them.
    pub victory: Vec<VictoryTable>,
    /// Who wins when no victory roll succeeds by the end: a seat name, `draw`, or a named
    /// special test (`nicopolis_road_block`).
    pub at_end: String,
    /// The level of victory `at_end` gives (`marginal`), if any.
    #[serde(default)]
    pub at_end_level: Option<String>,
    /// Special rules of the scenario in force (`night_turns`, `holy_cross`, `charge_berserk`,
    /// `entry_costs`, `withhold_reinforcements`, `mounted_bow_skirmishers`, `early_action_chits`).
    #[serde(default)]
    pub special: Vec<String>,
    /// Loss points of special counters (the Holy Cross: 30).
    #[serde(default)]
    pub special_losses: BTreeMap<String, u32>,
}

/// A game turn.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TurnRow {
    /// The label on the turn record track (`1900`, `Night 1`).
    pub label: String,
    /// A night turn (12.21).
    #[serde(default)]
    pub night: bool,
}

/// Where units of one set-up code may be placed.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SetupRule {
    /// The seat.
    pub side: String,
    /// Set-up codes this rule covers (units of the side with one of these codes).
    #[serde(default)]
    pub codes: Vec<String>,
    /// Units named explicitly (`Mat a`), instead of codes.
    #[serde(default)]
    pub units: Vec<String>,
    /// The area holding the centre hex(es). With `one_per_hex`, units go one to a hex of the
    /// area; otherwise within `within` hexes of one of its hexes.
    pub area: String,
    /// Distance from the area's hexes.
    #[serde(default)]
    pub within: u32,
    /// Exactly one unit in each hex of the area (Hab's E set-up hexes).
    #[serde(default)]
    pub one_per_hex: bool,
    /// The rule case.
    pub case: String,
}

/// A reinforcement: units entering on a turn at an entry area.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReinforcementRow {
    /// The seat.
    pub side: String,
    /// The turn label on which they may first enter.
    pub turn: String,
    /// Leaders entering (their units with them: all units assigned to them that are not
    /// listed elsewhere).
    pub leaders: Vec<String>,
    /// Extra counters entering (`Holy Cross`, or units of another leader).
    #[serde(default)]
    pub units: Vec<String>,
    /// Entry areas: any one of them.
    pub areas: Vec<String>,
    /// The rule case.
    pub case: String,
}

/// A victory table (11.0): the seat rolls on it when the opponent's losses reach a row.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryTable {
    /// The seat that rolls.
    pub side: String,
    /// Rows: `[lowest losses, highest losses or 9999, lowest winning roll]`.
    pub rows: Vec<[u32; 3]>,
    /// Where it comes from.
    pub provenance: Provenance,
}
