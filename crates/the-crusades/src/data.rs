//! The data files of The Crusades as plain serde structs, exactly as written in
//! `data/the-crusades/`: the map (`map.toml`), the charts (`tables.toml`) and the scenario
//! (`third-crusade.toml`). Unknown fields are errors. Checking into typed values happens in
//! [`crate::map`], [`crate::tables`] and [`crate::scenario`].

use engine::Provenance;
use serde::{Deserialize, Serialize};

/// `map.toml`: the strategic map (3.1).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    /// The map's title.
    pub title: String,
    /// Which columns sit half a hex lower.
    pub layout: hexgrid::ColumnShove,
    /// The first hex id (north-west corner).
    pub first: String,
    /// The last hex id (south-east corner).
    pub last: String,
    /// The terrain of hexes not listed: `fertile`, `variable`, `barren` or `sea`.
    pub default_terrain: String,
    /// Where the map comes from.
    pub provenance: Provenance,
    /// Hexes of one terrain.
    #[serde(default)]
    pub terrain: Vec<TerrainRow>,
    /// Cities and castles.
    #[serde(default)]
    pub site: Vec<SiteRow>,
    /// Hexsides with a feature.
    #[serde(default)]
    pub hexside: Vec<HexsideRow>,
    /// The hexes of Egypt (13.2.7).
    pub egypt: HexList,
}

/// Hexes of one terrain.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRow {
    /// `fertile`, `variable`, `barren` or `sea`.
    pub terrain: String,
    /// Ids and column runs (`"0107..0124"`).
    pub hexes: Vec<String>,
}

/// A list of hexes with its provenance.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HexList {
    /// Ids and column runs.
    pub hexes: Vec<String>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// A city or castle (10.1, 10.2).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SiteRow {
    /// Its name as printed.
    pub name: String,
    /// Its hex.
    pub hex: String,
    /// `city` or `castle`.
    pub kind: String,
    /// The level, which is the Siege Defense Factor (10.1.2).
    pub level: u8,
    /// Whether it is a port (11.1.4, 12.2.3).
    pub port: bool,
    /// A port immune from debarkation losses and winter limits (12.5.5 E).
    #[serde(default)]
    pub sheltered: bool,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// Hexsides with a feature.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideRow {
    /// `river`, `mountain` or `blocked`.
    pub feature: String,
    /// Each as `"1820/1920"`.
    pub sides: Vec<String>,
    /// Where they come from.
    pub provenance: Provenance,
}

/// `tables.toml`: the charts of the rulebook.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TablesFile {
    /// The attrition value of each terrain (6.4.1).
    pub attrition_value: AttritionValueFile,
    /// The Movement Attrition Table (6.4.3).
    pub movement_attrition: MovementAttritionFile,
    /// The Combat Formation Tables (9.3.2).
    pub formations: FormationsFile,
    /// The Formation Adjustment Table (9.3.3).
    pub formation_adjustment: FormationAdjustmentFile,
    /// The Combat Results Table (9.5).
    pub combat_results: CombatResultsFile,
    /// The Leader Casualty Table (9.7.2).
    pub leader_casualties: LeaderCasualtiesFile,
    /// The Siege Assault Table (10.4.4).
    pub siege_assault: SiegeAssaultFile,
    /// The Siege Attrition Table (10.5.2).
    pub siege_attrition: SiegeAttritionFile,
    /// The Naval Combat Results Table (12.4.4).
    pub naval_results: NavalResultsFile,
    /// City and castle capacities (6.3.2, 10.2.2).
    pub capacity: CapacityFile,
    /// The Third Crusade's random events (14.1).
    pub random_events: RandomEventsFile,
}

/// Attrition values by terrain.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AttritionValueFile {
    /// A fertile hex.
    pub fertile: u16,
    /// A variable hex.
    pub variable: u16,
    /// A barren hex.
    pub barren: u16,
    /// Where they come from.
    pub provenance: Provenance,
}

/// The Movement Attrition Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MovementAttritionFile {
    /// Upper bounds of the size columns; one more column holds every larger force.
    pub sizes: Vec<u16>,
    /// Where it comes from.
    pub provenance: Provenance,
    /// Rows by line and AP range.
    pub row: Vec<MovementAttritionRow>,
}

/// One row of one line of the Movement Attrition Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MovementAttritionRow {
    /// `crusader` or `saracen`.
    pub line: String,
    /// The fewest APs of the row.
    pub min_aps: u16,
    /// The most APs of the row; none for the last (19+).
    #[serde(default)]
    pub max_aps: Option<u16>,
    /// ASPs lost, by size column.
    pub loss: Vec<u16>,
}

/// The Combat Formation Tables.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FormationsFile {
    /// Where they come from.
    pub provenance: Provenance,
    /// Crusader formations, best first.
    pub crusader: Vec<String>,
    /// Saracen formations, best first.
    pub saracen: Vec<String>,
    /// The Crusader table by die.
    pub crusader_table: Vec<FormationRow>,
    /// The Saracen table by die.
    pub saracen_table: Vec<FormationRow>,
}

/// One die row of a formation table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FormationRow {
    /// The die.
    pub die: u8,
    /// The formation by Combat Rating 1, 2, ...
    pub by_rating: Vec<String>,
}

/// The Formation Adjustment Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FormationAdjustmentFile {
    /// Where it comes from.
    pub provenance: Provenance,
    /// A row per Crusader formation.
    pub row: Vec<FormationAdjustmentRow>,
}

/// One Crusader formation's row.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FormationAdjustmentRow {
    /// The Crusader formation.
    pub crusader: String,
    /// Against each Saracen formation: `"+2"`, `"-1"`, `"0"` or `"no combat"`.
    pub against: Vec<String>,
}

/// The Combat Results Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CombatResultsFile {
    /// Column headings (`"1-2"`, `"1.75-1"`).
    pub ratios: Vec<String>,
    /// Where it comes from.
    pub provenance: Provenance,
    /// A row per die.
    pub row: Vec<CombatResultsRow>,
}

/// One die row of the CRT.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CombatResultsRow {
    /// The die.
    pub die: u8,
    /// `"attacker/defender"` by column.
    pub cells: Vec<String>,
}

/// The Leader Casualty Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderCasualtiesFile {
    /// Where it comes from.
    pub provenance: Provenance,
    /// A row per two-dice total.
    pub row: Vec<LeaderCasualtyRow>,
}

/// One row of the Leader Casualty Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderCasualtyRow {
    /// The two-dice total.
    pub dice: u8,
    /// The victor's result.
    pub victor: String,
    /// The loser's result.
    pub loser: String,
}

/// The Siege Assault Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SiegeAssaultFile {
    /// Where it comes from.
    pub provenance: Provenance,
    /// A column per ratio.
    pub column: Vec<SiegeAssaultColumn>,
}

/// One column of the Siege Assault Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SiegeAssaultColumn {
    /// The ratio (3 for 3-1); the last column holds every larger ratio.
    pub ratio: u16,
    /// The lowest modified roll that is an S.
    pub success_from: u8,
}

/// The Siege Attrition Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SiegeAttritionFile {
    /// Where it comes from.
    pub provenance: Provenance,
    /// A column per terrain.
    pub column: Vec<SiegeAttritionColumn>,
}

/// One column of the Siege Attrition Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SiegeAttritionColumn {
    /// `city`, `fertile`, `variable` or `barren`.
    pub terrain: String,
    /// Results by die 1-6 (`"2"`, `"0*"`).
    pub loss: Vec<String>,
}

/// The Naval Combat Results Table.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NavalResultsFile {
    /// Where it comes from.
    pub provenance: Provenance,
    /// A row per die.
    pub row: Vec<CombatResultsRow>,
}

/// City and castle capacities.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CapacityFile {
    /// ASPs a castle holds.
    pub castle: u16,
    /// ASPs a city of level 1-4 holds.
    pub by_level: Vec<u16>,
    /// Where they come from.
    pub provenance: Provenance,
}

/// The random events of the Third Crusade.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RandomEventsFile {
    /// Where it comes from.
    pub provenance: Provenance,
    /// The event by die 1-6: `assassination` or `none`.
    pub events: Vec<String>,
}

/// `third-crusade.toml`: the scenario (16.0).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// The scenario id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Seat names.
    pub seats: Vec<String>,
    /// Turns and weather.
    pub calendar: CalendarFile,
    /// Every leader.
    pub leader: Vec<LeaderRow>,
    /// Where leaders start.
    pub deploy: Vec<DeployRow>,
    /// ASPs without leaders.
    #[serde(default)]
    pub garrison: Vec<GarrisonRow>,
    /// Fleets at the start.
    #[serde(default)]
    pub fleet: Vec<FleetRow>,
    /// Crusader fleets in winter (12.6).
    pub fleet_winter: FleetWinterFile,
    /// Control of cities at the start.
    pub control: ControlFile,
    /// Neutral groups (15.0).
    #[serde(default)]
    pub neutral_group: Vec<NeutralGroupRow>,
    /// Reinforcements (16.4).
    #[serde(default)]
    pub reinforcement: Vec<ReinforcementRow>,
    /// Fleets that arrive as reinforcements.
    #[serde(default)]
    pub reinforcement_fleet: Vec<ReinforcementFleetRow>,
    /// The Victory Point Schedule (16.5.1).
    pub victory: Vec<VictoryRow>,
    /// The Jerusalem draw rule (16.5.2).
    pub jerusalem_rule: JerusalemRuleFile,
}

/// The calendar.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CalendarFile {
    /// The first turn (`"April II 1191"`).
    pub first: String,
    /// The last turn.
    pub last: String,
    /// Rain turns (`"November I"`).
    pub rain: Vec<String>,
    /// Winter months.
    pub winter: Vec<String>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// A leader.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderRow {
    /// The id used in orders (`richard`).
    pub id: String,
    /// Full name and title.
    pub name: String,
    /// `crusaders`, `saracens` or `cypriots`.
    pub side: String,
    /// Contingent (14.3.3).
    pub contingent: String,
    /// `primary`, `secondary` or `tertiary` (8.0 B).
    pub rank: String,
    /// Combat Rating (3.5.4 C).
    pub combat: u8,
    /// His retinue (Crusaders, 27.0) or the ASPs attached to him (Saracens).
    pub asps: u16,
    /// Where the values come from.
    pub provenance: Provenance,
}

/// Leaders placed together.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DeployRow {
    /// Leader ids.
    pub leaders: Vec<String>,
    /// A hex, or a hex with `c` for inside its city or castle.
    pub place: String,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// ASPs without a leader.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GarrisonRow {
    /// Their side.
    pub side: String,
    /// Where.
    pub place: String,
    /// How many.
    pub asps: u16,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// A fleet at the start.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FleetRow {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: String,
    /// Its hex.
    pub place: String,
    /// Naval strength points (12.1.1).
    pub strength: u8,
    /// Whether it starts on blockade.
    pub blockade: bool,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// Crusader fleets in winter (12.6).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FleetWinterFile {
    /// Months whose Random Events Phase rolls for each Crusader fleet.
    pub from_months: Vec<String>,
    /// The turn removed fleets return.
    pub return_turn: String,
    /// Where they return, the first Crusader-controlled one (else the last).
    pub ports: Vec<String>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// Control at the start.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ControlFile {
    /// Sites the Crusaders control.
    pub crusaders: Vec<String>,
    /// Sites neutrals control.
    pub neutral: Vec<String>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// Neutral leaders who wake together.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NeutralGroupRow {
    /// Its name.
    pub name: String,
    /// Its leaders.
    pub leaders: Vec<String>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// A reinforcement.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReinforcementRow {
    /// The turn of arrival.
    pub turn: String,
    /// The side.
    pub side: String,
    /// Leaders.
    pub leaders: Vec<String>,
    /// Fleets (carrying the leaders when `place` is at sea).
    #[serde(default)]
    pub fleets: Vec<String>,
    /// Where they arrive.
    pub place: String,
    /// Other hexes the owner may choose instead of `place` (16.4.1).
    #[serde(default)]
    pub choices: Vec<String>,
    /// Where they arrive instead if the Crusaders hold `place` (16.4.2).
    #[serde(default)]
    pub fallback: Vec<String>,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// A fleet that arrives as a reinforcement.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReinforcementFleetRow {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: String,
    /// Its strength.
    pub strength: u8,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// One row of the Victory Point Schedule.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryRow {
    /// The city or castle.
    pub site: String,
    /// Crusader VPs.
    pub crusaders: u16,
    /// Saracen VPs.
    pub saracens: u16,
    /// Where it comes from.
    pub provenance: Provenance,
}

/// The Jerusalem rule (16.5.2).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct JerusalemRuleFile {
    /// The margin below which a Crusader lead without Jerusalem is a draw.
    pub margin: u16,
    /// Where it comes from.
    pub provenance: Provenance,
}
