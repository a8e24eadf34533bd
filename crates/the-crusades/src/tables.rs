//! The charts of the rulebook (3.3), checked into typed lookups: attrition values (6.4.1),
//! the Movement Attrition Table (6.4.3), the Combat Formation and Formation Adjustment Tables
//! (9.3), the Combat Results Table (9.5), the Leader Casualty Table (9.7), the Siege Assault
//! and Siege Attrition Tables (10.4, 10.5), the Naval Combat Results Table (12.4), city
//! capacities (6.3.2) and the random events (14.1). Loaded from `tables.toml`.

use engine::{AuditEntry, DataErrors, DataSet, Provenance};
use serde::{Deserialize, Serialize};

use crate::data::{CombatResultsRow, TablesFile};
use crate::map::Terrain;

/// Which line of a two-line table (6.4.4): the Crusaders' or the Muslims'/Saracens'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Line {
    /// The Crusader line (Cypriots and Armenians use it too).
    Crusader,
    /// The Muslim/Saracen line.
    Saracen,
}

/// The loss half of one side's combat result (9.5, 12.4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Loss {
    /// No loss.
    None,
    /// A percentage of the force, rounded up (9.5 C).
    Percent(u8),
    /// One more die, never more than 5% of the force (9.5 E).
    Die,
}

/// One side's result: a loss and a retreat of 0-3 hexes (9.5 F).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideResult {
    /// The loss.
    pub loss: Loss,
    /// Hexes to retreat.
    pub retreat: u8,
}

impl SideResult {
    /// Reads `20R`, `*`, `R2`, `-`, `30`.
    pub fn parse(s: &str) -> Option<SideResult> {
        let (loss, rest) = if s == "-" {
            (Loss::None, "")
        } else if let Some(r) = s.strip_prefix('*') {
            (Loss::Die, r)
        } else {
            let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
            let rest = &s[digits.len()..];
            if digits.is_empty() {
                (Loss::None, rest)
            } else {
                (
                    Loss::Percent(digits.parse().ok().filter(|p| *p <= 100)?),
                    rest,
                )
            }
        };
        let retreat = match rest {
            "" => 0,
            "R" => 1,
            "R2" => 2,
            "R3" => 3,
            _ => return None,
        };
        Some(SideResult { loss, retreat })
    }

    /// The notation.
    pub fn text(self) -> String {
        let l = match self.loss {
            Loss::None => String::new(),
            Loss::Percent(p) => p.to_string(),
            Loss::Die => "*".into(),
        };
        let r = match self.retreat {
            0 => "",
            1 => "R",
            2 => "R2",
            _ => "R3",
        };
        if l.is_empty() && r.is_empty() {
            "-".into()
        } else {
            format!("{l}{r}")
        }
    }
}

/// A Formation Adjustment Table result (9.3.3, 9.3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Adjustment {
    /// Columns shifted in the Crusaders' favour.
    Shift(i8),
    /// No combat (9.3.4).
    NoCombat,
}

/// A Leader Casualty Table result (9.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Casualty {
    /// Unharmed.
    None,
    /// Killed.
    Killed,
    /// Captured (9.7.6).
    Captured,
}

/// A Third Crusade random event (14.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RandomEvent {
    /// Assassination (14.2).
    Assassination,
    /// Nothing happens.
    None,
}

/// A CRT column: the ratio attacker:defender it stands for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatioColumn {
    /// The heading (`"1.75-1"`).
    pub name: String,
    /// Attacker part.
    pub attacker: f64,
    /// Defender part.
    pub defender: f64,
}

/// Every chart, checked.
#[derive(Clone, Debug)]
pub struct Tables {
    attrition_value: [u16; 3],
    sizes: Vec<u16>,
    attrition_rows: Vec<(Line, u16, Option<u16>, Vec<u16>)>,
    /// Crusader formations, best first.
    pub crusader_formations: Vec<String>,
    /// Saracen formations, best first.
    pub saracen_formations: Vec<String>,
    crusader_table: Vec<Vec<usize>>,
    saracen_table: Vec<Vec<usize>>,
    adjustment: Vec<Vec<Adjustment>>,
    /// CRT columns, worst for the attacker first.
    pub ratios: Vec<RatioColumn>,
    crt: Vec<Vec<(SideResult, SideResult)>>,
    casualties: Vec<(Casualty, Casualty)>,
    assault: Vec<(u16, u8)>,
    siege_attrition: Vec<Vec<(u16, bool)>>,
    naval: Vec<Vec<(SideResult, SideResult)>>,
    /// ASPs a castle holds (10.2.2).
    pub castle_capacity: u16,
    city_capacity: Vec<u16>,
    events: Vec<RandomEvent>,
}

impl Tables {
    /// Loads and checks `the-crusades/tables.toml`, adding its provenance to `audit`.
    pub fn load(data: &DataSet, audit: &mut Vec<AuditEntry>) -> Result<Tables, DataErrors> {
        let file = "the-crusades/tables.toml";
        let raw: TablesFile = data.parse(file)?;
        let mut e = DataErrors::default();
        let mut note = |item: &str, p: &Provenance, e: &mut DataErrors| {
            p.check(file, item, e);
            audit.push(AuditEntry {
                file: file.into(),
                item: item.into(),
                source: p.source,
                reason: p.reason.clone(),
            });
        };
        note("attrition values", &raw.attrition_value.provenance, &mut e);
        let ma = &raw.movement_attrition;
        note("Movement Attrition Table", &ma.provenance, &mut e);
        let columns = ma.sizes.len() + 1;
        let mut attrition_rows = Vec::new();
        for (i, r) in ma.row.iter().enumerate() {
            let line = match r.line.as_str() {
                "crusader" => Line::Crusader,
                "saracen" => Line::Saracen,
                l => {
                    e.push(
                        file,
                        None,
                        format!(
                            "movement attrition row {}: line `{l}` is not crusader or saracen",
                            i + 1
                        ),
                    );
                    continue;
                }
            };
            if r.loss.len() != columns {
                e.push(
                    file,
                    None,
                    format!(
                        "movement attrition row {}: {} losses for {columns} size columns",
                        i + 1,
                        r.loss.len()
                    ),
                );
            }
            attrition_rows.push((line, r.min_aps, r.max_aps, r.loss.clone()));
        }
        let f = &raw.formations;
        note("Combat Formation Tables", &f.provenance, &mut e);
        let formation_table = |names: &[String],
                               rows: &[crate::data::FormationRow],
                               which: &str,
                               e: &mut DataErrors| {
            let mut out = Vec::new();
            for d in 1..=6u8 {
                let Some(row) = rows.iter().find(|r| r.die == d) else {
                    e.push(
                        file,
                        None,
                        format!("{which} formation table: no row for die {d}"),
                    );
                    continue;
                };
                let mut cells = Vec::new();
                for name in &row.by_rating {
                    match names.iter().position(|n| n == name) {
                        Some(i) => cells.push(i),
                        None => e.push(
                            file,
                            None,
                            format!(
                                "{which} formation table, die {d}: `{name}` is not one of {}",
                                names.join(", ")
                            ),
                        ),
                    }
                }
                if cells.is_empty() {
                    e.push(
                        file,
                        None,
                        format!("{which} formation table, die {d}: no ratings"),
                    );
                    cells.push(names.len().saturating_sub(1));
                }
                out.push(cells);
            }
            out
        };
        let crusader_table = formation_table(&f.crusader, &f.crusader_table, "crusader", &mut e);
        let saracen_table = formation_table(&f.saracen, &f.saracen_table, "saracen", &mut e);
        note(
            "Formation Adjustment Table",
            &raw.formation_adjustment.provenance,
            &mut e,
        );
        let mut adjustment = Vec::new();
        for name in &f.crusader {
            let Some(row) = raw
                .formation_adjustment
                .row
                .iter()
                .find(|r| &r.crusader == name)
            else {
                e.push(
                    file,
                    None,
                    format!("formation adjustment: no row for `{name}`"),
                );
                adjustment.push(vec![Adjustment::Shift(0); f.saracen.len()]);
                continue;
            };
            if row.against.len() != f.saracen.len() {
                e.push(
                    file,
                    None,
                    format!(
                        "formation adjustment `{name}`: {} cells for {} Saracen formations",
                        row.against.len(),
                        f.saracen.len()
                    ),
                );
            }
            adjustment.push(
                row.against
                    .iter()
                    .map(|c| {
                        if c == "no combat" {
                            Adjustment::NoCombat
                        } else {
                            c.trim_start_matches('+').parse().map(Adjustment::Shift).unwrap_or_else(|_| {
                                e.push(file, None, format!("formation adjustment `{c}` is not a shift like +2 or `no combat`"));
                                Adjustment::Shift(0)
                            })
                        }
                    })
                    .collect(),
            );
        }
        let cr = &raw.combat_results;
        note("Combat Results Table", &cr.provenance, &mut e);
        let mut ratios = Vec::new();
        for r in &cr.ratios {
            let parsed = r
                .split_once('-')
                .and_then(|(a, d)| Some((a.parse::<f64>().ok()?, d.parse::<f64>().ok()?)));
            match parsed {
                Some((a, d)) if a > 0.0 && d > 0.0 => ratios.push(RatioColumn {
                    name: r.clone(),
                    attacker: a,
                    defender: d,
                }),
                _ => e.push(
                    file,
                    None,
                    format!("CRT column `{r}` is not a ratio like 1.75-1"),
                ),
            }
        }
        if ratios
            .windows(2)
            .any(|w| w[0].attacker / w[0].defender >= w[1].attacker / w[1].defender)
        {
            e.push(
                file,
                None,
                "CRT columns must rise from the worst odds to the best",
            );
        }
        let crt = pair_rows(&cr.row, ratios.len(), "CRT", file, &mut e);
        note(
            "Leader Casualty Table",
            &raw.leader_casualties.provenance,
            &mut e,
        );
        let mut casualties = Vec::new();
        let cas = |s: &str, e: &mut DataErrors| match s {
            "-" => Casualty::None,
            "killed" => Casualty::Killed,
            "captured" => Casualty::Captured,
            _ => {
                e.push(
                    file,
                    None,
                    format!("leader casualty `{s}` is not killed, captured or -"),
                );
                Casualty::None
            }
        };
        for d in 2..=12u8 {
            match raw.leader_casualties.row.iter().find(|r| r.dice == d) {
                Some(r) => casualties.push((cas(&r.victor, &mut e), cas(&r.loser, &mut e))),
                None => {
                    e.push(file, None, format!("leader casualty table: no row for {d}"));
                    casualties.push((Casualty::None, Casualty::None));
                }
            }
        }
        note("Siege Assault Table", &raw.siege_assault.provenance, &mut e);
        let assault: Vec<(u16, u8)> = raw
            .siege_assault
            .column
            .iter()
            .map(|c| (c.ratio, c.success_from))
            .collect();
        if assault.first().map(|c| c.0) != Some(3)
            || assault
                .windows(2)
                .any(|w| w[0].0 >= w[1].0 || w[0].1 < w[1].1)
        {
            e.push(file, None, "siege assault columns must start at 3-1 (10.4.3) and never need a higher roll at better odds");
        }
        note(
            "Siege Attrition Table",
            &raw.siege_attrition.provenance,
            &mut e,
        );
        let mut siege_attrition = Vec::new();
        for t in ["city", "fertile", "variable", "barren"] {
            let Some(col) = raw.siege_attrition.column.iter().find(|c| c.terrain == t) else {
                e.push(file, None, format!("siege attrition: no `{t}` column"));
                siege_attrition.push(vec![(0, false); 6]);
                continue;
            };
            if col.loss.len() != 6 {
                e.push(
                    file,
                    None,
                    format!(
                        "siege attrition `{t}`: {} results for six die faces",
                        col.loss.len()
                    ),
                );
            }
            siege_attrition.push(
                col.loss
                    .iter()
                    .map(|c| {
                        let star = c.ends_with('*');
                        let n = c.trim_end_matches('*').parse().unwrap_or_else(|_| {
                            e.push(
                                file,
                                None,
                                format!("siege attrition `{c}` is not a number with an optional *"),
                            );
                            0
                        });
                        (n, star)
                    })
                    .collect(),
            );
        }
        note(
            "Naval Combat Results Table",
            &raw.naval_results.provenance,
            &mut e,
        );
        let naval_columns = raw.naval_results.row.first().map_or(0, |r| r.cells.len());
        let naval = pair_rows(
            &raw.naval_results.row,
            naval_columns,
            "naval CRT",
            file,
            &mut e,
        );
        note("city and castle capacity", &raw.capacity.provenance, &mut e);
        if raw.capacity.by_level.len() != 4 {
            e.push(file, None, "capacity by_level needs four levels");
        }
        note(
            "Third Crusade random events",
            &raw.random_events.provenance,
            &mut e,
        );
        let events = raw
            .random_events
            .events
            .iter()
            .map(|s| match s.as_str() {
                "assassination" => RandomEvent::Assassination,
                "none" => RandomEvent::None,
                _ => {
                    e.push(
                        file,
                        None,
                        format!("random event `{s}` is not assassination or none"),
                    );
                    RandomEvent::None
                }
            })
            .collect::<Vec<_>>();
        if events.len() != 6 {
            e.push(file, None, "random events need one per die face");
        }
        let av = &raw.attrition_value;
        let tables = Tables {
            attrition_value: [av.fertile, av.variable, av.barren],
            sizes: ma.sizes.clone(),
            attrition_rows,
            crusader_formations: f.crusader.clone(),
            saracen_formations: f.saracen.clone(),
            crusader_table,
            saracen_table,
            adjustment,
            ratios,
            crt,
            casualties,
            assault,
            siege_attrition,
            naval,
            castle_capacity: raw.capacity.castle,
            city_capacity: raw.capacity.by_level.clone(),
            events,
        };
        e.locate(data);
        e.into_result(tables)
    }

    /// The Attrition Value of a hex's terrain (6.4.1); all-sea hexes have none.
    pub fn attrition_value(&self, t: Terrain) -> u16 {
        match t {
            Terrain::Sea => 0,
            Terrain::Fertile => self.attrition_value[0],
            Terrain::Variable => self.attrition_value[1],
            Terrain::Barren => self.attrition_value[2],
        }
    }

    /// The Movement Attrition Table (6.4.3): ASPs lost by a force of `asps` with `aps`
    /// Attrition Points, on `line` (6.4.4).
    pub fn movement_attrition(&self, line: Line, aps: u16, asps: u16) -> u16 {
        let column = self
            .sizes
            .iter()
            .position(|&s| asps <= s)
            .unwrap_or(self.sizes.len());
        self.attrition_rows
            .iter()
            .find(|(l, lo, hi, _)| *l == line && aps >= *lo && hi.is_none_or(|h| aps <= h))
            .and_then(|r| r.3.get(column).copied())
            .unwrap_or(0)
    }

    /// The fewest APs of the last row (the 19+ line of 6.4.6 B and 11.2.1).
    pub fn worst_attrition_row(&self, line: Line) -> u16 {
        self.attrition_rows
            .iter()
            .filter(|r| r.0 == line)
            .map(|r| r.1)
            .max()
            .unwrap_or(0)
    }

    /// The Combat Formation Table (9.3.2): the formation index (0 = best) for a die and a
    /// Combat Rating; ratings past the table read its last column.
    pub fn formation(&self, line: Line, die: u8, rating: u8) -> usize {
        let table = match line {
            Line::Crusader => &self.crusader_table,
            Line::Saracen => &self.saracen_table,
        };
        let row = &table[(die.clamp(1, 6) - 1) as usize];
        row[(rating.max(1) as usize - 1).min(row.len() - 1)]
    }

    /// The worst formation of a line (8.0 I: ASPs without a leader).
    pub fn worst_formation(&self, line: Line) -> usize {
        match line {
            Line::Crusader => self.crusader_formations.len() - 1,
            Line::Saracen => self.saracen_formations.len() - 1,
        }
    }

    /// A formation's name.
    pub fn formation_name(&self, line: Line, i: usize) -> &str {
        match line {
            Line::Crusader => &self.crusader_formations[i],
            Line::Saracen => &self.saracen_formations[i],
        }
    }

    /// The Formation Adjustment Table (9.3.3).
    pub fn adjustment(&self, crusader: usize, saracen: usize) -> Adjustment {
        self.adjustment[crusader][saracen]
    }

    /// The CRT column for a ratio, odds rounded off in favour of the defender (9.0 J): the
    /// best column whose odds do not exceed the ratio, or the worst column.
    pub fn ratio_column(&self, attacker: u32, defender: u32) -> usize {
        let mut best = 0;
        for (i, c) in self.ratios.iter().enumerate() {
            // attacker / defender >= c.attacker / c.defender, in exact arithmetic on f64
            // values that are small integers or quarters.
            if attacker as f64 * c.defender >= defender as f64 * c.attacker {
                best = i;
            }
        }
        best
    }

    /// The Combat Results Table (9.5): (attacker, defender) for a die and a column.
    pub fn combat_result(&self, die: u8, column: usize) -> (SideResult, SideResult) {
        self.crt[(die.clamp(1, 6) - 1) as usize][column.min(self.ratios.len() - 1)]
    }

    /// The Leader Casualty Table (9.7.2): (victor, loser) for two dice.
    pub fn casualty(&self, dice: u8) -> (Casualty, Casualty) {
        self.casualties[(dice.clamp(2, 12) - 2) as usize]
    }

    /// The Siege Assault Table (10.4.3-10.4.4): the lowest modified roll that carries the
    /// city at `ratio` (whole odds, rounded down), or `None` below 3-1 (automatic failure).
    pub fn assault_success_from(&self, ratio: u32) -> Option<u8> {
        self.assault
            .iter()
            .rev()
            .find(|(r, _)| ratio >= u32::from(*r))
            .map(|c| c.1)
    }

    /// The Siege Attrition Table (10.5.2): ASPs lost and whether an asterisk, by column
    /// (`None` = City) and die.
    pub fn siege_attrition(&self, column: Option<Terrain>, die: u8) -> (u16, bool) {
        let c = match column {
            None => 0,
            Some(Terrain::Fertile) => 1,
            Some(Terrain::Variable) => 2,
            Some(Terrain::Barren | Terrain::Sea) => 3,
        };
        self.siege_attrition[c][(die.clamp(1, 6) - 1) as usize]
    }

    /// The Naval CRT (12.4.4): (attacker, defender) for a die and a differential.
    pub fn naval_result(&self, die: u8, differential: u32) -> (SideResult, SideResult) {
        let row = &self.naval[(die.clamp(1, 6) - 1) as usize];
        row[(differential as usize).min(row.len() - 1)]
    }

    /// How many ASPs fit inside a city of `level` or a castle (6.3.2, 10.2.2).
    pub fn capacity(&self, castle: bool, level: u8) -> u16 {
        if castle {
            self.castle_capacity
        } else {
            self.city_capacity[(level.clamp(1, 4) - 1) as usize]
        }
    }

    /// The random event for a die (14.1 B).
    pub fn random_event(&self, die: u8) -> RandomEvent {
        self.events[(die.clamp(1, 6) - 1) as usize]
    }
}

/// Reads rows of "attacker/defender" cells by die 1-6.
fn pair_rows(
    rows: &[CombatResultsRow],
    columns: usize,
    what: &str,
    file: &str,
    e: &mut DataErrors,
) -> Vec<Vec<(SideResult, SideResult)>> {
    let none = SideResult {
        loss: Loss::None,
        retreat: 0,
    };
    let mut out = Vec::new();
    for d in 1..=6u8 {
        let Some(row) = rows.iter().find(|r| r.die == d) else {
            e.push(file, None, format!("{what}: no row for die {d}"));
            out.push(vec![(none, none); columns.max(1)]);
            continue;
        };
        if row.cells.len() != columns || columns == 0 {
            e.push(
                file,
                None,
                format!(
                    "{what} die {d}: {} cells for {columns} columns",
                    row.cells.len()
                ),
            );
        }
        out.push(
            row.cells
                .iter()
                .map(|c| {
                    let parsed = c
                        .split_once('/')
                        .and_then(|(a, b)| Some((SideResult::parse(a)?, SideResult::parse(b)?)));
                    parsed.unwrap_or_else(|| {
                        e.push(
                            file,
                            None,
                            format!("{what} cell `{c}` is not attacker/defender like 20/30R"),
                        );
                        (none, none)
                    })
                })
                .collect(),
        );
        if out.last().is_some_and(Vec::is_empty) {
            out.last_mut().expect("pushed").push((none, none));
        }
    }
    out
}

/// A roll as the log records it: the dice read, a modifier if any (its reason and value, left
/// out when 0), the total, the table cell consulted and the result.
pub(crate) fn roll_record(
    purpose: String,
    dice: Vec<u8>,
    modifier: (&str, i32),
    cell: Option<String>,
    result: String,
) -> engine::RollRecord {
    let (reason, value) = modifier;
    engine::RollRecord {
        purpose,
        total: dice.iter().map(|&d| i32::from(d)).sum::<i32>() + value,
        dice,
        modifiers: if value != 0 {
            vec![engine::Modifier {
                reason: reason.into(),
                value,
            }]
        } else {
            Vec::new()
        },
        cell,
        result,
    }
}
