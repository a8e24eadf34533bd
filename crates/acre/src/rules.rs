//! Every data file of Acre, checked into typed values: the tables (5.27, 8.4-8.6, 9.4, 9.5,
//! 10.8, 13.4), the counters and the scenario. [`Rules::load`] reports every problem at once;
//! [`audit`] lists where each value comes from.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use engine::{AuditEntry, DataErrors, DataSet};
use serde::{Deserialize, Serialize};

use crate::data::{CountersFile, MapFile, ResultTable, ScenarioFile, TablesFile};
use crate::map::{load_terrains, Map, Nationality};

/// Path of the tables file.
pub const TABLES: &str = "acre/tables.toml";
/// Path of the map file.
pub const MAP: &str = "acre/map.toml";
/// Path of the counters file.
pub const COUNTERS: &str = "acre/counters.toml";
/// Path of the scenario file.
pub const SCENARIO: &str = "acre/scenario.toml";

/// The two sides (seat 0 and seat 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The besieging Crusader army.
    Crusader,
    /// Saladin's army and the garrison of Acre.
    Moslem,
}

impl Side {
    /// The other side.
    pub fn enemy(self) -> Side {
        match self {
            Side::Crusader => Side::Moslem,
            Side::Moslem => Side::Crusader,
        }
    }

    fn parse(s: &str) -> Option<Side> {
        match s {
            "crusader" => Some(Side::Crusader),
            "moslem" => Some(Side::Moslem),
            _ => None,
        }
    }
}

/// A Moslem army (7.0, 17.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Army {
    /// The garrison of Acre.
    Garrison,
    /// The Army of Sinjan (Saladin's own, with the Guard).
    Sinjan,
    /// The Army of Egypt.
    Egypt,
    /// The Army of Mosul.
    Mosul,
}

impl Army {
    /// Reads an army key.
    pub fn parse(s: &str) -> Option<Army> {
        Some(match s {
            "garrison" => Army::Garrison,
            "sinjan" => Army::Sinjan,
            "egypt" => Army::Egypt,
            "mosul" => Army::Mosul,
            _ => return None,
        })
    }
}

/// A combat result (10.8 legend), in increasing order of severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CombatResult {
    /// "-": no effect.
    NoEffect,
    /// "D": disrupted.
    Disrupted,
    /// "R": retreat.
    Retreat,
    /// "E": eliminated.
    Eliminated,
}

impl CombatResult {
    fn parse(s: &str) -> Option<CombatResult> {
        Some(match s {
            "-" => CombatResult::NoEffect,
            "D" => CombatResult::Disrupted,
            "R" => CombatResult::Retreat,
            "E" => CombatResult::Eliminated,
            _ => return None,
        })
    }

    /// The printed letter.
    pub fn letter(self) -> &'static str {
        match self {
            CombatResult::NoEffect => "-",
            CombatResult::Disrupted => "D",
            CombatResult::Retreat => "R",
            CombatResult::Eliminated => "E",
        }
    }
}

/// A results table read by die roll and column (9.5, 10.8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultGrid {
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows for rolls 1..=6.
    pub rows: Vec<Vec<CombatResult>>,
}

impl ResultGrid {
    /// The result at `roll` (clamped to 1-6: the 10.8 note) in column `col`.
    pub fn get(&self, roll: i32, col: usize) -> CombatResult {
        let r = roll.clamp(1, self.rows.len() as i32) as usize - 1;
        self.rows[r][col]
    }

    fn load(t: &ResultTable, what: &str, errors: &mut DataErrors) -> ResultGrid {
        let mut rows = Vec::new();
        for (i, row) in t.row.iter().enumerate() {
            row.provenance
                .check(TABLES, &format!("{what} row {}", row.roll), errors);
            if row.roll as usize != i + 1 {
                errors.push(
                    TABLES,
                    None,
                    format!(
                        "{what}: rows must run 1 to 6 in order, found roll `{}`",
                        row.roll
                    ),
                );
            }
            if row.results.len() != t.columns.len() {
                errors.push(
                    TABLES,
                    None,
                    format!(
                        "{what} row {}: {} results for {} columns",
                        row.roll,
                        row.results.len(),
                        t.columns.len()
                    ),
                );
            }
            let cells: Vec<CombatResult> = row
                .results
                .iter()
                .map(|c| {
                    CombatResult::parse(c).unwrap_or_else(|| {
                        errors.push(
                            TABLES,
                            None,
                            format!(
                                "{what} row {}: cell `{c}` is not one of -, D, R, E",
                                row.roll
                            ),
                        );
                        CombatResult::NoEffect
                    })
                })
                .collect();
            rows.push(cells);
        }
        if rows.len() != 6 {
            errors.push(
                TABLES,
                None,
                format!("{what}: needs six rows, one per die face"),
            );
        }
        let grid = ResultGrid {
            columns: t.columns.clone(),
            rows,
        };
        grid.check_monotone(what, errors);
        grid
    }

    /// GAPS.md: better odds or a better roll never give a worse result.
    fn check_monotone(&self, what: &str, errors: &mut DataErrors) {
        for (r, row) in self.rows.iter().enumerate() {
            for c in 0..row.len() {
                if c > 0 && row[c] < row[c - 1] {
                    errors.push(
                        TABLES,
                        None,
                        format!(
                            "{what} row {}: column `{}` is weaker than the column before it",
                            r + 1,
                            self.columns[c]
                        ),
                    );
                }
                if r > 0 && self.rows[r - 1].get(c).is_some_and(|below| row[c] < *below) {
                    errors.push(
                        TABLES,
                        None,
                        format!(
                            "{what} row {}: column `{}` is weaker than the row before it",
                            r + 1,
                            self.columns[c]
                        ),
                    );
                }
            }
        }
    }
}

/// The charts, typed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tables {
    /// 5.22: half Movement Points into a breached Wall or Tower hex.
    pub breached_cost: u8,
    /// 5.23: half Movement Points from a Wall or Tower hex into an unbreached one.
    pub from_wall_cost: u8,
    /// 5.23: half Movement Points from other terrain into an unbreached one.
    pub from_other_cost: u8,
    /// 9.5: added when the target is a German knights unit.
    pub german_knights_fire: i32,
    /// 8.4: Breach Points by die.
    pub bombardment: [u8; 6],
    /// 8.14.
    pub breach_level: u8,
    /// 8.13.
    pub bombardment_range: u32,
    /// 8.5: rolls that damage a giant catapult.
    pub counter_bombardment: Vec<u8>,
    /// 8.22.
    pub counter_bombardment_range: u32,
    /// 8.6 column for damage 1-4, by die.
    pub repair_low: [u8; 6],
    /// 8.6 column for damage 5-6, by die.
    pub repair_high: [u8; 6],
    /// 8.6: the first damage level of the second column.
    pub repair_high_from: u8,
    /// 9.4: Range Attenuation Ratings at ranges 1-4 by fire class (`None`: no effect).
    pub range: BTreeMap<String, [Option<u8>; 4]>,
    /// 9.5.
    pub fire: ResultGrid,
    /// 10.8.
    pub melee: ResultGrid,
    /// 13.4: Moslem Engineer Points lost by die.
    pub sub_moslem_lost: [u8; 6],
    /// 13.4: Crusader Tunnel Points lost by die.
    pub sub_crusader_lost: [u8; 6],
    /// 13.4: hexes closed by die.
    pub sub_closed: [u8; 6],
}

fn six(v: &[u8], what: &str, errors: &mut DataErrors) -> [u8; 6] {
    match <[u8; 6]>::try_from(v) {
        Ok(a) => a,
        Err(_) => {
            errors.push(
                TABLES,
                None,
                format!("{what}: needs six values, one per die face"),
            );
            [0; 6]
        }
    }
}

fn half_points(p: f64) -> u8 {
    (p * 2.0).round().max(0.0) as u8
}

impl Tables {
    fn load(t: &TablesFile, errors: &mut DataErrors) -> Tables {
        for (p, what) in [
            (&t.wall_costs.provenance, "wall_costs"),
            (&t.fire_target.provenance, "fire_target"),
            (&t.bombardment.provenance, "bombardment"),
            (&t.counter_bombardment.provenance, "counter_bombardment"),
            (&t.repair.provenance, "repair"),
            (&t.subterranean.provenance, "subterranean"),
        ] {
            p.check(TABLES, what, errors);
        }
        let mut range = BTreeMap::new();
        for r in &t.range {
            r.provenance
                .check(TABLES, &format!("range `{}`", r.fire_class), errors);
            let mut cells = [None; 4];
            if r.ratings.len() != 4 {
                errors.push(
                    TABLES,
                    None,
                    format!(
                        "range `{}`: needs four ratings, for ranges 1-4",
                        r.fire_class
                    ),
                );
            }
            for (i, c) in r.ratings.iter().take(4).enumerate() {
                cells[i] = match c.as_str() {
                    "-" => None,
                    s => match s.parse::<u8>() {
                        Ok(v @ 1..=4) => Some(v),
                        _ => {
                            errors.push(
                                TABLES,
                                None,
                                format!("range `{}`: rating `{s}` is not 1-4 or -", r.fire_class),
                            );
                            None
                        }
                    },
                };
            }
            range.insert(r.fire_class.clone(), cells);
        }
        let fire = ResultGrid::load(&t.fire, "fire", errors);
        let melee = ResultGrid::load(&t.melee, "melee", errors);
        if fire.columns.len() != 4 {
            errors.push(TABLES, None, "fire: needs four columns, ratings 1-4");
        }
        if melee.columns.len() != 8 {
            errors.push(TABLES, None, "melee: needs eight columns, 1-2 to 7-1");
        }
        Tables {
            breached_cost: half_points(t.wall_costs.breached),
            from_wall_cost: half_points(t.wall_costs.from_wall),
            from_other_cost: half_points(t.wall_costs.from_other),
            german_knights_fire: t.fire_target.german_knights,
            bombardment: six(&t.bombardment.points, "bombardment", errors),
            breach_level: t.bombardment.breach_level,
            bombardment_range: t.bombardment.range,
            counter_bombardment: t.counter_bombardment.damaged_on.clone(),
            counter_bombardment_range: t.counter_bombardment.range,
            repair_low: six(&t.repair.low, "repair low", errors),
            repair_high: six(&t.repair.high, "repair high", errors),
            repair_high_from: t.repair.high_from,
            range,
            fire,
            melee,
            sub_moslem_lost: six(&t.subterranean.moslem_lost, "subterranean", errors),
            sub_crusader_lost: six(&t.subterranean.crusader_lost, "subterranean", errors),
            sub_closed: six(&t.subterranean.closed, "subterranean", errors),
        }
    }
}

/// Melee or fire unit (3.31).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A melee unit.
    Melee,
    /// A fire unit.
    Fire,
}

/// A unit type (3.32).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitType {
    /// Key.
    pub key: String,
    /// Printed name.
    pub name: String,
    /// Melee or fire.
    pub kind: Kind,
    /// 9.4 row.
    pub fire_class: Option<String>,
    /// Cavalry (15.1).
    pub cavalry: bool,
    /// Knights (10.74).
    pub knight: bool,
    /// German knights (9.5, 10.33).
    pub german_knight: bool,
    /// May retreat before combat (10.2).
    pub retreat_before_combat: bool,
    /// Horse archers (10.23).
    pub horse_archer: bool,
    /// Naphtha grenadiers (15.3).
    pub grenadier: bool,
}

/// A contingent or faylag (14.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contingent {
    /// Name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Crusader nationality.
    pub nationality: Option<Nationality>,
    /// Moslem army.
    pub army: Option<Army>,
    /// Saladin's Guard (9.26).
    pub guard: bool,
    /// Its leader (index into [`Rules::leaders`]).
    pub leader: usize,
}

/// A leader (14.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leader {
    /// Printed name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// A king (10.8 Crusader Army Morale).
    pub king: bool,
    /// Only with the 16.0 option.
    pub optional: bool,
    /// Morale Rating (14.2).
    pub morale: u8,
    /// Combat Bonus (14.3).
    pub bonus: u8,
    /// Command Radius (14.1).
    pub radius: u8,
    /// Movement Allowance.
    pub movement: u8,
}

/// A combat unit counter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Name.
    pub name: String,
    /// Its contingent or faylag.
    pub contingent: usize,
    /// Its type.
    pub unit_type: usize,
    /// Melee Strength.
    pub melee: u8,
    /// Movement Allowance.
    pub movement: u8,
    /// Reduced strength of a two-step garrison unit (9.27).
    pub reduced: Option<u8>,
}

/// A siege unit's kind (12.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SiegeKind {
    /// Giant catapult (12.2).
    GiantCatapult,
    /// Siege tower (12.1).
    SiegeTower,
    /// Small catapult (12.3).
    SmallCatapult,
    /// Ballista (12.3).
    Ballista,
}

/// A siege unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Siege {
    /// Name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Kind.
    pub kind: SiegeKind,
    /// A siege tower's Movement Allowance (12.11); 0 for the others.
    pub movement: u8,
}

/// Everything the rules read from data.
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    /// The map.
    pub map: Map,
    /// The charts.
    pub tables: Tables,
    /// Unit types.
    pub unit_types: Vec<UnitType>,
    /// Contingents and faylags.
    pub contingents: Vec<Contingent>,
    /// Leaders.
    pub leaders: Vec<Leader>,
    /// Combat units.
    pub units: Vec<Unit>,
    /// Siege units.
    pub siege: Vec<Siege>,
    /// Under 16.0, the contingent each of these leaders commands instead.
    pub conrad_commands: Vec<(usize, usize)>,
    /// The scenario's numbers.
    pub scenario: ScenarioFile,
}

/// Rules loaded once with the texts of the files they were loaded from ([`Rules::shared`]).
struct Loaded {
    /// The text of each file [`Rules::load`] reads, in the order of [`FILES`].
    texts: Vec<String>,
    rules: Arc<Rules>,
}

/// The files [`Rules::load`] reads: the rules are a function of their texts.
const FILES: [&str; 4] = [TABLES, MAP, COUNTERS, SCENARIO];

/// Rules already loaded in this process, newest last ([`Rules::shared`]).
static LOADED: Mutex<Vec<Loaded>> = Mutex::new(Vec::new());

/// How many differently loaded rules [`LOADED`] keeps.
const LOADED_KEPT: usize = 4;

impl Rules {
    /// [`Rules::load`] once per process for the same file texts, then shared (behind the
    /// `Arc`) by every game started from them, on any thread: a game's start does not parse
    /// the data again. Data that differs in any file read (an override folder) is loaded on
    /// its own; errors are never kept.
    pub fn shared(data: &DataSet) -> Result<Arc<Rules>, DataErrors> {
        let texts: Option<Vec<&str>> = FILES.iter().map(|f| data.text(f).ok()).collect();
        let Some(texts) = texts else {
            // A file is missing: the load names it.
            return Rules::load(data).map(Arc::new);
        };
        let same = |l: &Loaded| l.texts.iter().map(String::as_str).eq(texts.iter().copied());
        {
            let loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(l) = loaded.iter().find(|l| same(l)) {
                return Ok(Arc::clone(&l.rules));
            }
        }
        // Loaded outside the lock; two threads loading the same texts at once get equal
        // rules, and the first kept is shared from then on.
        let rules = Arc::new(Rules::load(data)?);
        let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(l) = loaded.iter().find(|l| same(l)) {
            return Ok(Arc::clone(&l.rules));
        }
        if loaded.len() >= LOADED_KEPT {
            loaded.remove(0);
        }
        loaded.push(Loaded {
            texts: texts.iter().map(|t| t.to_string()).collect(),
            rules: Arc::clone(&rules),
        });
        Ok(rules)
    }

    /// Loads and checks every Acre data file, reporting every problem at once.
    pub fn load(data: &DataSet) -> Result<Rules, DataErrors> {
        let mut errors = DataErrors::default();
        let tables_file: Option<TablesFile> = data.parse(TABLES).map_err(|e| errors.0.push(e)).ok();
        let map_file: Option<MapFile> = data.parse(MAP).map_err(|e| errors.0.push(e)).ok();
        let counters: Option<CountersFile> =
            data.parse(COUNTERS).map_err(|e| errors.0.push(e)).ok();
        let scenario: Option<ScenarioFile> =
            data.parse(SCENARIO).map_err(|e| errors.0.push(e)).ok();
        let (Some(tf), Some(mf), Some(cf), Some(sf)) = (tables_file, map_file, counters, scenario)
        else {
            return Err(errors);
        };
        let terrains = load_terrains(&tf, TABLES, &mut errors);
        let tables = Tables::load(&tf, &mut errors);
        let map = match Map::load(MAP, &mf, terrains) {
            Ok(m) => Some(m),
            Err(e) => {
                errors.0.extend(e.0);
                None
            }
        };
        let (unit_types, contingents, leaders, units, siege, conrad_commands) =
            load_counters(&cf, &tables, &mut errors);
        check_scenario(&sf, &mut errors);
        errors.locate(data);
        let Some(map) = map else {
            return Err(errors);
        };
        errors.into_result(Rules {
            map,
            tables,
            unit_types,
            contingents,
            leaders,
            units,
            siege,
            conrad_commands,
            scenario: sf,
        })
    }

    /// A leader's index by name.
    pub fn leader(&self, name: &str) -> Option<usize> {
        self.leaders.iter().position(|l| l.name == name)
    }

    /// A unit's index by name.
    pub fn unit(&self, name: &str) -> Option<usize> {
        self.units.iter().position(|u| u.name == name)
    }

    /// A unit's type.
    pub fn unit_type(&self, unit: usize) -> &UnitType {
        &self.unit_types[self.units[unit].unit_type]
    }

    /// A unit's contingent.
    pub fn contingent_of(&self, unit: usize) -> &Contingent {
        &self.contingents[self.units[unit].contingent]
    }

    /// A unit's side.
    pub fn side_of(&self, unit: usize) -> Side {
        self.contingent_of(unit).side
    }
}

type Counters = (
    Vec<UnitType>,
    Vec<Contingent>,
    Vec<Leader>,
    Vec<Unit>,
    Vec<Siege>,
    Vec<(usize, usize)>,
);

fn load_counters(cf: &CountersFile, tables: &Tables, errors: &mut DataErrors) -> Counters {
    let f = COUNTERS;
    cf.provenance.check(f, "counters", errors);
    let mut unit_types = Vec::new();
    for t in &cf.unit_type {
        let kind = match t.kind.as_str() {
            "melee" => Kind::Melee,
            "fire" => Kind::Fire,
            k => {
                errors.push(
                    f,
                    None,
                    format!("unit type `{}`: kind `{k}` is not melee or fire", t.key),
                );
                Kind::Melee
            }
        };
        if kind == Kind::Fire {
            match &t.fire_class {
                Some(c) if tables.range.contains_key(c) => {}
                Some(c) => errors.push(
                    f,
                    None,
                    format!(
                        "unit type `{}`: fire_class `{c}` has no 9.4 row in tables.toml",
                        t.key
                    ),
                ),
                None => errors.push(
                    f,
                    None,
                    format!("unit type `{}`: a fire unit needs a fire_class", t.key),
                ),
            }
        }
        unit_types.push(UnitType {
            key: t.key.clone(),
            name: t.name.clone(),
            kind,
            fire_class: t.fire_class.clone(),
            cavalry: t.cavalry,
            knight: t.knight,
            german_knight: t.german_knight,
            retreat_before_combat: t.retreat_before_combat,
            horse_archer: t.horse_archer,
            grenadier: t.grenadier,
        });
    }
    let leader_index = |name: &str| cf.leader.iter().position(|l| l.name == name);
    let mut contingents = Vec::new();
    let mut leader_side: BTreeMap<usize, Side> = BTreeMap::new();
    for c in &cf.contingent {
        let side = Side::parse(&c.side).unwrap_or_else(|| {
            errors.push(
                f,
                None,
                format!(
                    "contingent `{}`: side `{}` is not crusader or moslem",
                    c.name, c.side
                ),
            );
            Side::Crusader
        });
        let nationality = c.nationality.as_deref().and_then(|n| {
            let v = Nationality::parse(n);
            if v.is_none() {
                errors.push(f, None, format!("contingent `{}`: nationality `{n}` is not one of french, english, jerusalem, german", c.name));
            }
            v
        });
        let army = c.army.as_deref().and_then(|a| {
            let v = Army::parse(a);
            if v.is_none() {
                errors.push(
                    f,
                    None,
                    format!(
                        "contingent `{}`: army `{a}` is not one of garrison, sinjan, egypt, mosul",
                        c.name
                    ),
                );
            }
            v
        });
        match side {
            Side::Crusader if nationality.is_none() => errors.push(
                f,
                None,
                format!(
                    "contingent `{}`: a Crusader contingent needs a nationality",
                    c.name
                ),
            ),
            Side::Moslem if army.is_none() => errors.push(
                f,
                None,
                format!("contingent `{}`: a faylag needs an army", c.name),
            ),
            _ => {}
        }
        let leader = leader_index(&c.leader).unwrap_or_else(|| {
            errors.push(
                f,
                None,
                format!("contingent `{}`: unknown leader `{}`", c.name, c.leader),
            );
            0
        });
        leader_side.insert(leader, side);
        contingents.push(Contingent {
            name: c.name.clone(),
            side,
            nationality,
            army,
            guard: c.guard,
            leader,
        });
    }
    // 16.0: Conrad (on Guy's counter) commands Guy's division; Jacques the Bretons.
    let mut conrad_commands = Vec::new();
    if let (Some(conrad), Some(guy), Some(jacques)) = (
        leader_index("Conrad"),
        leader_index("Guy"),
        leader_index("Jacques"),
    ) {
        for (i, c) in contingents.iter().enumerate() {
            if c.leader == guy {
                conrad_commands.push((conrad, i));
            } else if c.leader == conrad {
                conrad_commands.push((jacques, i));
            }
        }
        leader_side.insert(jacques, Side::Crusader);
    }
    let mut leaders = Vec::new();
    for (i, l) in cf.leader.iter().enumerate() {
        l.provenance
            .check(f, &format!("leader `{}`", l.name), errors);
        let side = leader_side.get(&i).copied().unwrap_or_else(|| {
            errors.push(
                f,
                None,
                format!("leader `{}` commands no contingent", l.name),
            );
            Side::Crusader
        });
        let [morale, bonus, radius, movement] = l.rating;
        leaders.push(Leader {
            name: l.name.clone(),
            side,
            king: l.king,
            optional: l.optional,
            morale,
            bonus,
            radius,
            movement,
        });
    }
    let mut units = Vec::new();
    for u in &cf.unit {
        let contingent = cf.contingent.iter().position(|c| c.name == u.contingent);
        let unit_type = cf.unit_type.iter().position(|t| t.key == u.unit_type);
        if contingent.is_none() {
            errors.push(
                f,
                None,
                format!("unit `{}`: unknown contingent `{}`", u.name, u.contingent),
            );
        }
        if unit_type.is_none() {
            let keys: Vec<_> = cf.unit_type.iter().map(|t| t.key.as_str()).collect();
            errors.push(
                f,
                None,
                format!(
                    "unit `{}`: type `{}` is not one of {}",
                    u.name,
                    u.unit_type,
                    keys.join(", ")
                ),
            );
        }
        if u.count == 0 {
            errors.push(
                f,
                None,
                format!("unit `{}`: count must be at least 1", u.name),
            );
        }
        for n in 1..=u.count {
            let name = if u.count == 1 {
                u.name.clone()
            } else {
                format!("{} {n}", u.name)
            };
            units.push(Unit {
                name,
                contingent: contingent.unwrap_or(0),
                unit_type: unit_type.unwrap_or(0),
                melee: u.melee,
                movement: u.movement,
                reduced: u.reduced,
            });
        }
    }
    let mut names = std::collections::BTreeSet::new();
    for n in units
        .iter()
        .map(|u| &u.name)
        .chain(leaders.iter().map(|l| &l.name))
    {
        if !names.insert(n.to_lowercase()) {
            errors.push(f, None, format!("name `{n}` is used twice"));
        }
    }
    let mut siege = Vec::new();
    for s in &cf.siege {
        let kind = match s.kind.as_str() {
            "giant_catapult" => SiegeKind::GiantCatapult,
            "siege_tower" => SiegeKind::SiegeTower,
            "small_catapult" => SiegeKind::SmallCatapult,
            "ballista" => SiegeKind::Ballista,
            k => {
                errors.push(f, None, format!("siege `{}`: kind `{k}` is not one of giant_catapult, siege_tower, small_catapult, ballista", s.name));
                SiegeKind::SmallCatapult
            }
        };
        let side = Side::parse(&s.side).unwrap_or_else(|| {
            errors.push(
                f,
                None,
                format!(
                    "siege `{}`: side `{}` is not crusader or moslem",
                    s.name, s.side
                ),
            );
            Side::Crusader
        });
        let movement = match (kind, s.movement) {
            (SiegeKind::SiegeTower, Some(m)) if m > 0 => m,
            (SiegeKind::SiegeTower, _) => {
                errors.push(
                    f,
                    None,
                    format!(
                        "siege `{}`: a siege tower needs a `movement` of at least 1 (12.11)",
                        s.name
                    ),
                );
                0
            }
            (_, None) => 0,
            (_, Some(_)) => {
                errors.push(
                    f,
                    None,
                    format!(
                        "siege `{}`: only siege towers have a `movement` (12.11, 12.23, 12.34)",
                        s.name
                    ),
                );
                0
            }
        };
        siege.push(Siege {
            name: s.name.clone(),
            side,
            kind,
            movement,
        });
    }
    (
        unit_types,
        contingents,
        leaders,
        units,
        siege,
        conrad_commands,
    )
}

fn check_scenario(s: &ScenarioFile, errors: &mut DataErrors) {
    s.provenance.check(SCENARIO, "scenario", errors);
    if s.seats != ["crusader", "moslem"] {
        errors.push(SCENARIO, None, "seats must be [\"crusader\", \"moslem\"]");
    }
    let armies = &s.intervention_armies;
    for a in armies
        .saladin_attacks
        .iter()
        .chain(&armies.army_of_egypt)
        .chain(&armies.army_of_mosul)
    {
        if !matches!(
            Army::parse(a),
            Some(Army::Sinjan | Army::Egypt | Army::Mosul)
        ) {
            errors.push(
                SCENARIO,
                None,
                format!("intervention army `{a}` is not one of sinjan, egypt, mosul"),
            );
        }
    }
}

/// Every provenance entry of the Acre data, for `crusades data audit`.
pub fn audit(data: &DataSet) -> Result<Vec<AuditEntry>, DataErrors> {
    Rules::load(data)?;
    let mut out = Vec::new();
    let entry = |file: &str, item: String, p: &engine::Provenance| AuditEntry {
        file: file.to_string(),
        item,
        source: p.source,
        reason: p.reason.clone(),
    };
    let tf: TablesFile = data.parse(TABLES)?;
    for t in &tf.terrain {
        out.push(entry(
            TABLES,
            format!("5.27 terrain {}", t.name),
            &t.provenance,
        ));
    }
    out.push(entry(
        TABLES,
        "5.22-5.24 wall costs".into(),
        &tf.wall_costs.provenance,
    ));
    out.push(entry(
        TABLES,
        "9.5 German knights modifier".into(),
        &tf.fire_target.provenance,
    ));
    out.push(entry(
        TABLES,
        "8.4 Bombardment Table".into(),
        &tf.bombardment.provenance,
    ));
    out.push(entry(
        TABLES,
        "8.5 Counter-Bombardment Table".into(),
        &tf.counter_bombardment.provenance,
    ));
    out.push(entry(
        TABLES,
        "8.6 Wall Repair Table".into(),
        &tf.repair.provenance,
    ));
    for r in &tf.range {
        out.push(entry(TABLES, format!("9.4 {} row", r.name), &r.provenance));
    }
    for r in &tf.fire.row {
        let part = r
            .printed_cells
            .map(|n| format!(" (first {n} cells printed)"))
            .unwrap_or_default();
        out.push(entry(
            TABLES,
            format!("9.5 row {}{part}", r.roll),
            &r.provenance,
        ));
    }
    for r in &tf.melee.row {
        let part = r
            .printed_cells
            .map(|n| format!(" (first {n} cells printed)"))
            .unwrap_or_default();
        out.push(entry(
            TABLES,
            format!("10.8 row {}{part}", r.roll),
            &r.provenance,
        ));
    }
    out.push(entry(
        TABLES,
        "13.4 Subterranean Combat Table".into(),
        &tf.subterranean.provenance,
    ));
    let mf: MapFile = data.parse(MAP)?;
    out.push(entry(MAP, format!("map of {}", mf.title), &mf.provenance));
    out.push(entry(
        MAP,
        "all-sea hexsides".into(),
        &mf.all_sea.provenance,
    ));
    for (name, a) in &mf.area {
        out.push(entry(MAP, format!("area {name}"), &a.provenance));
    }
    let cf: CountersFile = data.parse(COUNTERS)?;
    out.push(entry(COUNTERS, "counter mix".into(), &cf.provenance));
    for l in &cf.leader {
        out.push(entry(COUNTERS, format!("leader {}", l.name), &l.provenance));
    }
    let sf: ScenarioFile = data.parse(SCENARIO)?;
    out.push(entry(
        SCENARIO,
        format!("scenario {}", sf.title),
        &sf.provenance,
    ));
    Ok(out)
}
