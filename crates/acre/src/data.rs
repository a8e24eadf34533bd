//! The data files of Acre as plain serde structs, exactly as written in `data/acre/`:
//! `map.toml` (the game map, Acre 3.1), `counters.toml` (the playing pieces, 3.3, 3.31, 3.32),
//! `tables.toml` (the charts and tables, 3.2) and `scenario.toml`. Unknown fields are errors.
//! Checking into typed values happens in [`crate::map`] and [`crate::rules`]; the format is
//! documented in `docs/acre/data.md`.

use std::collections::BTreeMap;

use engine::Provenance;
use serde::{Deserialize, Serialize};

/// `map.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    /// The map's title.
    pub title: String,
    /// `odd_columns_down` or `even_columns_down`.
    pub layout: hexgrid::ColumnShove,
    /// North-west corner on the sheet.
    pub first: String,
    /// South-east corner on the sheet.
    pub last: String,
    /// Terrain key of every hex not listed.
    pub default_terrain: String,
    /// Where the map comes from.
    pub provenance: Provenance,
    /// Terrain groups; later groups overwrite earlier ones.
    #[serde(default)]
    pub terrain: Vec<TerrainGroup>,
    /// Camps by nationality (5.33).
    #[serde(default)]
    pub camp: Vec<CampGroup>,
    /// All-sea hexsides (6.12).
    pub all_sea: AllSea,
    /// Names printed on the map.
    #[serde(default)]
    pub label: Vec<Label>,
    /// Named hex groups: map edges and entry areas.
    #[serde(default)]
    pub area: BTreeMap<String, Area>,
}

/// Hexes of one terrain.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainGroup {
    /// A `tables.toml` terrain key.
    pub terrain: String,
    /// Hex list: ids and column runs (`"1806..1815"`).
    pub hexes: Vec<String>,
}

/// Camp hexes of one nationality.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CampGroup {
    /// `french`, `english`, `jerusalem` or `german`.
    pub nationality: String,
    /// Hex list.
    pub hexes: Vec<String>,
}

/// The all-sea hexsides.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AllSea {
    /// Hexsides as `"A/B"`.
    pub sides: Vec<String>,
    /// Where they come from.
    pub provenance: Provenance,
}

/// A name printed on the map.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Label {
    /// The hex.
    pub hex: String,
    /// The text.
    pub text: String,
}

/// A named hex group.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// Hex list.
    pub hexes: Vec<String>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// `tables.toml`: the charts of the mapsheet.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TablesFile {
    /// 5.27 Terrain Effects Chart with the 9.5 terrain modifiers.
    pub terrain: Vec<TerrainRow>,
    /// 5.22-5.24 wall and tower costs.
    pub wall_costs: WallCosts,
    /// 9.5 modifier for the target's unit type.
    pub fire_target: FireTarget,
    /// 8.4.
    pub bombardment: Bombardment,
    /// 8.5.
    pub counter_bombardment: CounterBombardment,
    /// 8.6.
    pub repair: Repair,
    /// 9.4.
    pub range: Vec<RangeRow>,
    /// 9.5.
    pub fire: ResultTable,
    /// 10.8.
    pub melee: ResultTable,
    /// 13.4.
    pub subterranean: Subterranean,
}

/// A movement cost: points (halves allowed) or `"P"`, prohibited.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Cost {
    /// Movement Points.
    Points(f64),
    /// `"P"`.
    Prohibited(Prohibited),
}

/// The text `P`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
pub enum Prohibited {
    /// Prohibited.
    P,
}

/// A row of the Terrain Effects Chart.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRow {
    /// The key maps use.
    pub key: String,
    /// The printed name.
    pub name: String,
    /// What the rules know it as.
    pub class: String,
    /// Cost to enter.
    pub cost: Cost,
    /// Effect on melee.
    pub melee: String,
    /// 9.5 modifier when the target is in the hex.
    pub fire: i32,
    /// 9.11.
    pub blocks_los: bool,
    /// For the foss: the same once filled (13.1).
    #[serde(default)]
    pub filled: Option<FilledRow>,
    /// CSS colour for pictures.
    pub colour: String,
    /// Where the row comes from.
    pub provenance: Provenance,
}

/// A filled foss's effects.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FilledRow {
    /// Cost to enter.
    pub cost: Cost,
    /// Effect on melee.
    pub melee: String,
    /// 9.5 modifier.
    pub fire: i32,
}

/// Wall and tower costs.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WallCosts {
    /// Into a breached hex (5.22).
    pub breached: f64,
    /// From a wall or tower hex into an unbreached one (5.23).
    pub from_wall: f64,
    /// From other terrain into an unbreached, not enemy-controlled one (5.23).
    pub from_other: f64,
    /// Where they come from.
    pub provenance: Provenance,
}

/// The 9.5 target-type modifier.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FireTarget {
    /// Added when the target is a German knights unit.
    pub german_knights: i32,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// 8.4.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Bombardment {
    /// Breach Points by die 1-6.
    pub points: Vec<u8>,
    /// Damage level of a breach (8.14).
    pub breach_level: u8,
    /// Range in hexes (8.13).
    pub range: u32,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// 8.5.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CounterBombardment {
    /// Rolls that damage.
    pub damaged_on: Vec<u8>,
    /// Range in hexes (8.22).
    pub range: u32,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// 8.6.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Repair {
    /// Points repaired by die at damage below `high_from`.
    pub low: Vec<u8>,
    /// Points repaired by die at damage `high_from` or more.
    pub high: Vec<u8>,
    /// The first damage level of the second column.
    pub high_from: u8,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// A row of 9.4.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RangeRow {
    /// The fire class unit types name.
    pub fire_class: String,
    /// Printed name.
    pub name: String,
    /// Ratings at ranges 1, 2, 3, 4: a number 1-4 or `"-"`.
    pub ratings: Vec<String>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// A results table read by die roll and column (9.5, 10.8).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ResultTable {
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows by roll.
    pub row: Vec<ResultRow>,
}

/// A row of a results table.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ResultRow {
    /// The die roll.
    pub roll: u8,
    /// One cell per column: `-`, `D`, `R`, `E`.
    pub results: Vec<String>,
    /// How many leading cells are printed, for a part-printed row.
    #[serde(default)]
    pub printed_cells: Option<usize>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// 13.4.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Subterranean {
    /// Moslem Engineer Points lost by die.
    pub moslem_lost: Vec<u8>,
    /// Crusader Tunnel Points lost by die.
    pub crusader_lost: Vec<u8>,
    /// Hexes closed by die (1 or 3).
    pub closed: Vec<u8>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// `counters.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CountersFile {
    /// For the whole file.
    pub provenance: Provenance,
    /// Unit types (3.32).
    pub unit_type: Vec<UnitTypeRow>,
    /// Contingents and faylags (17.0).
    pub contingent: Vec<ContingentRow>,
    /// Leaders (14.0).
    pub leader: Vec<LeaderRow>,
    /// Combat units.
    pub unit: Vec<UnitRow>,
    /// Siege units (12.0).
    pub siege: Vec<SiegeRow>,
}

/// A unit type.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnitTypeRow {
    /// Key units use.
    pub key: String,
    /// Printed name.
    pub name: String,
    /// `melee` or `fire`.
    pub kind: String,
    /// 9.4 row for fire units.
    #[serde(default)]
    pub fire_class: Option<String>,
    /// Cavalry (15.1).
    #[serde(default)]
    pub cavalry: bool,
    /// Knights (10.74).
    #[serde(default)]
    pub knight: bool,
    /// German knights (9.5, 10.33).
    #[serde(default)]
    pub german_knight: bool,
    /// May retreat before combat (10.2).
    #[serde(default)]
    pub retreat_before_combat: bool,
    /// Horse archers (10.23).
    #[serde(default)]
    pub horse_archer: bool,
    /// Naphtha grenadiers (15.3).
    #[serde(default)]
    pub grenadier: bool,
}

/// A contingent or faylag.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ContingentRow {
    /// Its name.
    pub name: String,
    /// `crusader` or `moslem`.
    pub side: String,
    /// Crusader nationality.
    #[serde(default)]
    pub nationality: Option<String>,
    /// Moslem army: `garrison`, `sinjan`, `egypt`, `mosul`.
    #[serde(default)]
    pub army: Option<String>,
    /// Saladin's Guard (9.26).
    #[serde(default)]
    pub guard: bool,
    /// Its leader.
    pub leader: String,
}

/// A leader.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderRow {
    /// Printed name.
    pub name: String,
    /// A king (10.8 Crusader Army Morale).
    #[serde(default)]
    pub king: bool,
    /// Only with the 16.0 option.
    #[serde(default)]
    pub optional: bool,
    /// Morale, Combat Bonus, Command Radius, Movement.
    pub rating: [u8; 4],
    /// Where it comes from.
    pub provenance: Provenance,
}

/// A line of combat units.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnitRow {
    /// Name (numbered when `count` > 1).
    pub name: String,
    /// Contingent or faylag.
    pub contingent: String,
    /// Unit type key.
    #[serde(rename = "type")]
    pub unit_type: String,
    /// Melee strength.
    pub melee: u8,
    /// Movement Allowance.
    pub movement: u8,
    /// Reduced melee strength of a two-step unit (9.27).
    #[serde(default)]
    pub reduced: Option<u8>,
    /// How many counters.
    #[serde(default = "one")]
    pub count: u8,
}

fn one() -> u8 {
    1
}

/// A siege unit.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SiegeRow {
    /// Name.
    pub name: String,
    /// Side.
    pub side: String,
    /// `giant_catapult`, `siege_tower`, `small_catapult`, `ballista`.
    pub kind: String,
    /// A siege tower's Movement Allowance when it moves by itself (12.11); none for the
    /// others, which move only in the Strategic Movement Segment (12.23, 12.34).
    #[serde(default)]
    pub movement: Option<u8>,
}

/// `scenario.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Scenario id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Seat names, Crusader first.
    pub seats: Vec<String>,
    /// Where the numbers come from.
    pub provenance: Provenance,
    /// Game-Turns (4.0).
    pub turns: u8,
    /// Impulses per Assault Phase (4.0).
    pub impulses: u8,
    /// Intervention counter limits (7.1).
    pub intervention: InterventionLimits,
    /// Armies each counter brings (7.1).
    pub intervention_armies: InterventionArmies,
    /// Engineering numbers (13.0, 15.3).
    pub engineering: Engineering,
    /// Set-up distance from the foss (5.16, 17.0).
    pub setup_distance: u32,
    /// Victory thresholds (18.0).
    pub victory: Victory,
}

/// 7.11-7.13 limits.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct InterventionLimits {
    /// Saladin Attacks.
    pub saladin_attacks: u8,
    /// Army of Egypt.
    pub army_of_egypt: u8,
    /// Army of Mosul.
    pub army_of_mosul: u8,
}

/// 7.11-7.13 armies.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct InterventionArmies {
    /// Saladin Attacks.
    pub saladin_attacks: Vec<String>,
    /// Army of Egypt.
    pub army_of_egypt: Vec<String>,
    /// Army of Mosul.
    pub army_of_mosul: Vec<String>,
}

/// Engineering numbers.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Engineering {
    /// 13.21.
    pub tunnel_points: u8,
    /// 13.22.
    pub tunnel_bases: u8,
    /// 13.21.
    pub tunnel_base_cost: u8,
    /// 13.22.
    pub tunnel_base_distance: u32,
    /// 13.3.
    pub engineer_points: u8,
    /// 13.31.
    pub discovery_range: u32,
    /// 15.3.
    pub naphtha_grenades: u8,
}

/// 18.0 thresholds.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// 18.1 combat units in Acre.
    pub crusader_units_in_acre: u32,
    /// 18.1 leaders in Acre.
    pub crusader_leaders_in_acre: u32,
    /// 18.2 camp hexes.
    pub moslem_camp_hexes: u32,
}
