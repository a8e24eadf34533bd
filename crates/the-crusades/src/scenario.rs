//! The Third Crusade scenario (16.0): leaders with rank and Combat Rating (8.0), the
//! Crusader Order of Battle (27.0, reconstructed), deployment (16.2, 16.3), reinforcements
//! (16.4), the calendar and its weather (16.1, 13.0), neutrals (15.0) and the Victory Point
//! Schedule (16.5). Loaded from `third-crusade.toml` with the map and tables.

use std::sync::{Arc, Mutex};

use engine::{AuditEntry, DataErrors, DataSet, Provenance};
use hexgrid::HexId;
use serde::{Deserialize, Serialize};

use crate::data::ScenarioFile;
use crate::map::{Map, Place};
use crate::tables::{Line, Tables};

/// The scenarios of the game.
pub const SCENARIOS: [&str; 1] = ["third-crusade"];

/// A side. The two seats are the Crusaders and the Saracens; the Cypriots of Isaac Comnenus
/// are beholden to no one (15.0 E) and never order anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The Crusaders (seat 0), with the neutral Franks and Armenians (15.0 B).
    Crusaders,
    /// The Saracens (seat 1).
    Saracens,
    /// Isaac Comnenus's Cypriots (15.0 E).
    Cypriots,
}

impl Side {
    /// Reads a side name.
    pub fn parse(s: &str) -> Option<Side> {
        Some(match s {
            "crusaders" => Side::Crusaders,
            "saracens" => Side::Saracens,
            "cypriots" => Side::Cypriots,
            _ => return None,
        })
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Side::Crusaders => "crusaders",
            Side::Saracens => "saracens",
            Side::Cypriots => "cypriots",
        }
    }

    /// The seat that orders it.
    pub fn seat(self) -> Option<engine::Seat> {
        match self {
            Side::Crusaders => Some(engine::Seat(0)),
            Side::Saracens => Some(engine::Seat(1)),
            Side::Cypriots => None,
        }
    }

    /// The side a seat orders.
    pub fn of_seat(seat: engine::Seat) -> Option<Side> {
        match seat.0 {
            0 => Some(Side::Crusaders),
            1 => Some(Side::Saracens),
            _ => None,
        }
    }

    /// The line of two-line tables it reads (6.4.4, 9.3.2).
    pub fn line(self) -> Line {
        match self {
            Side::Saracens => Line::Saracen,
            _ => Line::Crusader,
        }
    }

    /// Whether the two sides fight each other (everyone fights the Cypriots if attacked).
    pub fn enemy_of(self, other: Side) -> bool {
        self != other
    }
}

/// A leader's rank (8.0 B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rank {
    /// The highest rank.
    Primary,
    /// One break in the stripe.
    Secondary,
    /// Two breaks.
    Tertiary,
}

/// A leader as printed (or reconstructed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderInfo {
    /// The id used in orders.
    pub id: String,
    /// Full name and title.
    pub name: String,
    /// His side.
    pub side: Side,
    /// His contingent (14.3.3).
    pub contingent: String,
    /// His rank (8.0).
    pub rank: Rank,
    /// His Combat Rating.
    pub combat: u8,
    /// His ASPs at the start or on arrival.
    pub asps: u16,
}

/// A turn of the calendar.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnInfo {
    /// As printed on the Turn Record Track (`"May I 1191"`).
    pub name: String,
    /// The month, 1-12.
    pub month: u8,
    /// A rain turn (13.1).
    pub rain: bool,
    /// A winter turn (13.2).
    pub winter: bool,
}

/// A fleet of the scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FleetInfo {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: Side,
    /// Its starting strength.
    pub strength: u8,
    /// Where it starts and whether on blockade; `None` for a reinforcement.
    pub start: Option<(HexId, bool)>,
}

/// Reinforcements (16.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reinforcement {
    /// The turn index of arrival.
    pub turn: usize,
    /// The side.
    pub side: Side,
    /// Leader indices.
    pub leaders: Vec<usize>,
    /// Fleet indices.
    pub fleets: Vec<usize>,
    /// Where they arrive.
    pub place: Place,
    /// Other hexes the owner may choose instead of `place` (16.4.1).
    pub choices: Vec<HexId>,
    /// Where instead if the Crusaders occupy `place` (16.4.2): the owner chooses one.
    pub fallback: Vec<HexId>,
}

/// The whole scenario: map, tables and set-up.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The id (`third-crusade`).
    pub id: String,
    /// The title.
    pub title: String,
    /// Seat names.
    pub seats: Vec<String>,
    /// The map.
    pub map: Map,
    /// The charts.
    pub tables: Tables,
    /// Every leader.
    pub leaders: Vec<LeaderInfo>,
    /// Every fleet.
    pub fleets: Vec<FleetInfo>,
    /// The turns, first to last.
    pub turns: Vec<TurnInfo>,
    /// Leaders on the map at the start, and where.
    pub deploy: Vec<(usize, Place)>,
    /// ASPs without leaders at the start.
    pub garrisons: Vec<(Side, Place, u16)>,
    /// Control of each site at the start (`None`: neutral).
    pub control: Vec<Option<Side>>,
    /// Groups of neutral leaders who wake together (15.0 D).
    pub neutral_groups: Vec<Vec<usize>>,
    /// Reinforcements.
    pub reinforcements: Vec<Reinforcement>,
    /// Months whose Random Events Phase rolls for Crusader fleets (12.6.1).
    pub fleet_winter_months: Vec<u8>,
    /// The turn index removed fleets return (12.6.2).
    pub fleet_return_turn: Option<usize>,
    /// Ports they return to, in preference order (12.6.2).
    pub fleet_return_ports: Vec<usize>,
    /// The Victory Point Schedule: site, Crusader VPs, Saracen VPs.
    pub victory: Vec<(usize, u16, u16)>,
    /// The Jerusalem draw margin (16.5.2 A).
    pub jerusalem_margin: u16,
    /// Every value's provenance.
    pub audit: Vec<AuditEntry>,
    /// The indices of each side's leaders, then of its fleets, in order, by side
    /// ([`Scenario::leaders_of`], [`Scenario::fleets_of`]).
    by_side: [(Vec<usize>, Vec<usize>); 3],
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Reads `"April II 1191"` as (month 1-12, half 1-2, year).
fn parse_turn(s: &str) -> Option<(u8, u8, u16)> {
    let mut w = s.split_whitespace();
    let name = w.next()?;
    let month = MONTHS.iter().position(|m| *m == name)? as u8 + 1;
    let half = match w.next()? {
        "I" => 1,
        "II" => 2,
        _ => return None,
    };
    let year = w.next()?.parse().ok()?;
    w.next().is_none().then_some((month, half, year))
}

/// The files a scenario is loaded from (besides `the-crusades/{id}.toml`): the scenario is
/// a function of their text and nothing else.
const SHARED_FILES: [&str; 2] = ["the-crusades/map.toml", "the-crusades/tables.toml"];

/// How many differently loaded scenarios [`Scenario::shared`] keeps.
const SHARED_KEPT: usize = 8;

/// A scenario loaded once, with the texts it was loaded from.
struct Loaded {
    /// The scenario id.
    id: String,
    /// The text of each of [`SHARED_FILES`] and then of the scenario file.
    texts: Vec<String>,
    /// The scenario, shared by every game started from the same texts.
    scenario: Arc<Scenario>,
}

/// Scenarios already loaded in this process, newest last ([`Scenario::shared`]).
static LOADED: Mutex<Vec<Loaded>> = Mutex::new(Vec::new());

impl Scenario {
    /// The scenario `id` of `data`, loaded and checked once per process for the same file
    /// texts and then shared (behind the `Arc`) by every game started from them, on any
    /// thread: with it the routes its map remembers ([`Map::land_routes`],
    /// [`Map::sea_routes`]), which the map alone decides. Data that differs in any of the
    /// files read (an override folder) is loaded on its own; errors are never kept.
    pub fn shared(data: &DataSet, id: &str) -> Result<Arc<Scenario>, DataErrors> {
        let file = format!("the-crusades/{id}.toml");
        let texts: Option<Vec<&str>> = SHARED_FILES
            .iter()
            .chain([&file.as_str()])
            .map(|f| data.text(f).ok())
            .collect();
        let Some(texts) = texts else {
            // A file is missing: the load names it.
            return Scenario::load(data, id).map(Arc::new);
        };
        let same =
            |l: &Loaded| l.id == id && l.texts.iter().map(String::as_str).eq(texts.iter().copied());
        {
            let loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(l) = loaded.iter().find(|l| same(l)) {
                return Ok(Arc::clone(&l.scenario));
            }
        }
        // Loaded outside the lock; two threads loading the same texts at once get equal
        // scenarios, and the first one kept is shared from then on.
        let scenario = Arc::new(Scenario::load(data, id)?);
        let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = loaded.iter().find(|l| same(l)) {
            return Ok(Arc::clone(&l.scenario));
        }
        if loaded.len() == SHARED_KEPT {
            loaded.remove(0);
        }
        loaded.push(Loaded {
            id: id.to_string(),
            texts: texts.iter().map(|t| t.to_string()).collect(),
            scenario: Arc::clone(&scenario),
        });
        Ok(scenario)
    }

    /// Loads and checks a scenario with the map and tables.
    pub fn load(data: &DataSet, id: &str) -> Result<Scenario, DataErrors> {
        let mut audit = Vec::new();
        let map = Map::load(data, &mut audit);
        let tables = Tables::load(data, &mut audit);
        let file = format!("the-crusades/{id}.toml");
        let raw: Result<ScenarioFile, _> = data.parse(&file);
        let (map, tables, raw) = match (map, tables, raw) {
            (Ok(m), Ok(t), Ok(r)) => (m, t, r),
            (m, t, r) => {
                let mut all = DataErrors::default();
                if let Err(e) = m {
                    all.0.extend(e.0);
                }
                if let Err(e) = t {
                    all.0.extend(e.0);
                }
                if let Err(e) = r {
                    all.0.push(e);
                }
                return Err(all);
            }
        };
        let f = file.as_str();
        let mut e = DataErrors::default();
        let mut note = |item: String, p: &Provenance, e: &mut DataErrors| {
            p.check(f, &item, e);
            audit.push(AuditEntry {
                file: f.into(),
                item,
                source: p.source,
                reason: p.reason.clone(),
            });
        };
        if raw.seats != ["crusaders", "saracens"] {
            e.push(
                f,
                None,
                "seats must be `crusaders` and `saracens`, in that order",
            );
        }
        note("calendar".into(), &raw.calendar.provenance, &mut e);
        let mut turns = Vec::new();
        let first = parse_turn(&raw.calendar.first);
        let last = parse_turn(&raw.calendar.last);
        let rain: Vec<(u8, u8)> = raw
            .calendar
            .rain
            .iter()
            .filter_map(|r| {
                let got = parse_turn(&format!("{r} 1"));
                if got.is_none() {
                    e.push(
                        f,
                        None,
                        format!("rain turn `{r}` is not a month and I or II"),
                    );
                }
                got.map(|(m, h, _)| (m, h))
            })
            .collect();
        let winter: Vec<u8> = raw
            .calendar
            .winter
            .iter()
            .filter_map(|w| {
                let got = MONTHS.iter().position(|m| m == w);
                if got.is_none() {
                    e.push(f, None, format!("winter month `{w}` is not a month"));
                }
                got.map(|m| m as u8 + 1)
            })
            .collect();
        match (first, last) {
            (Some(mut t), Some(end)) if (t.2, t.0, t.1) <= (end.2, end.0, end.1) => loop {
                turns.push(TurnInfo {
                    name: format!(
                        "{} {} {}",
                        MONTHS[t.0 as usize - 1],
                        if t.1 == 1 { "I" } else { "II" },
                        t.2
                    ),
                    month: t.0,
                    rain: rain.contains(&(t.0, t.1)),
                    winter: winter.contains(&t.0),
                });
                if t == end {
                    break;
                }
                t = if t.1 == 1 {
                    (t.0, 2, t.2)
                } else if t.0 == 12 {
                    (1, 1, t.2 + 1)
                } else {
                    (t.0 + 1, 1, t.2)
                };
            },
            _ => e.push(
                f,
                None,
                format!(
                    "calendar `{}` to `{}`: turns are written like `April II 1191`, first before last",
                    raw.calendar.first, raw.calendar.last
                ),
            ),
        }
        let mut leaders = Vec::new();
        for l in &raw.leader {
            note(format!("leader {}", l.id), &l.provenance, &mut e);
            let side = Side::parse(&l.side).unwrap_or_else(|| {
                e.push(
                    f,
                    None,
                    format!(
                        "leader {}: side `{}` is not crusaders, saracens or cypriots",
                        l.id, l.side
                    ),
                );
                Side::Crusaders
            });
            let rank = match l.rank.as_str() {
                "primary" => Rank::Primary,
                "secondary" => Rank::Secondary,
                "tertiary" => Rank::Tertiary,
                r => {
                    e.push(
                        f,
                        None,
                        format!(
                            "leader {}: rank `{r}` is not primary, secondary or tertiary",
                            l.id
                        ),
                    );
                    Rank::Tertiary
                }
            };
            if l.id.is_empty()
                || !l
                    .id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit())
            {
                e.push(
                    f,
                    None,
                    format!(
                        "leader id `{}` must be lower-case letters, digits and hyphens",
                        l.id
                    ),
                );
            }
            if leaders.iter().any(|x: &LeaderInfo| x.id == l.id) {
                e.push(f, None, format!("leader id `{}` is used twice", l.id));
            }
            leaders.push(LeaderInfo {
                id: l.id.clone(),
                name: l.name.clone(),
                side,
                contingent: l.contingent.clone(),
                rank,
                combat: l.combat,
                asps: l.asps,
            });
        }
        let leader_index = |id: &str, e: &mut DataErrors| {
            let got = leaders.iter().position(|l| l.id == id);
            if got.is_none() {
                e.push(f, None, format!("`{id}` is not a leader of the scenario"));
            }
            got
        };
        let place = |s: &str, e: &mut DataErrors| match Place::parse(s) {
            Ok(p)
                if map.contains(p.hex)
                    && map.is_land(p.hex)
                    && (!p.inside || map.site_at(p.hex).is_some()) =>
            {
                Some(p)
            }
            _ => {
                e.push(f, None, format!("`{s}` is not a land hex of the map (with `c` only where a city or castle stands)"));
                None
            }
        };
        let mut deploy = Vec::new();
        for d in &raw.deploy {
            note(format!("deployment at {}", d.place), &d.provenance, &mut e);
            let Some(p) = place(&d.place, &mut e) else {
                continue;
            };
            for l in &d.leaders {
                if let Some(i) = leader_index(l, &mut e) {
                    if deploy.iter().any(|(j, _)| *j == i) {
                        e.push(f, None, format!("leader `{l}` is deployed twice"));
                    }
                    deploy.push((i, p));
                }
            }
        }
        let mut garrisons = Vec::new();
        for g in &raw.garrison {
            note(format!("garrison at {}", g.place), &g.provenance, &mut e);
            let side = Side::parse(&g.side);
            match (side, place(&g.place, &mut e)) {
                (Some(s), Some(p)) => garrisons.push((s, p, g.asps)),
                (None, _) => e.push(f, None, format!("garrison side `{}` is not a side", g.side)),
                _ => {}
            }
        }
        let mut fleets = Vec::new();
        for fl in &raw.fleet {
            note(format!("fleet {}", fl.id), &fl.provenance, &mut e);
            let hex = fl
                .place
                .parse::<HexId>()
                .ok()
                .filter(|h| map.contains(*h) && map.has_sea(*h));
            let Some(hex) = hex else {
                e.push(
                    f,
                    None,
                    format!("fleet {}: `{}` is not a hex with sea", fl.id, fl.place),
                );
                continue;
            };
            fleets.push(FleetInfo {
                id: fl.id.clone(),
                side: Side::parse(&fl.side).unwrap_or(Side::Crusaders),
                strength: fl.strength.clamp(1, 2),
                start: Some((hex, fl.blockade)),
            });
        }
        for fl in &raw.reinforcement_fleet {
            note(format!("fleet {}", fl.id), &fl.provenance, &mut e);
            fleets.push(FleetInfo {
                id: fl.id.clone(),
                side: Side::parse(&fl.side).unwrap_or(Side::Crusaders),
                strength: fl.strength.clamp(1, 2),
                start: None,
            });
        }
        note(
            "fleets in winter".into(),
            &raw.fleet_winter.provenance,
            &mut e,
        );
        let fleet_winter_months = raw
            .fleet_winter
            .from_months
            .iter()
            .filter_map(|m| {
                let got = MONTHS.iter().position(|x| x == m);
                if got.is_none() {
                    e.push(f, None, format!("fleet_winter month `{m}` is not a month"));
                }
                got.map(|i| i as u8 + 1)
            })
            .collect();
        let fleet_return_turn = turns
            .iter()
            .position(|t| t.name == raw.fleet_winter.return_turn);
        if fleet_return_turn.is_none() {
            e.push(
                f,
                None,
                format!(
                    "fleet_winter return_turn `{}` is not a turn",
                    raw.fleet_winter.return_turn
                ),
            );
        }
        let fleet_return_ports = raw
            .fleet_winter
            .ports
            .iter()
            .filter_map(|p| {
                let got = map.site_named(p).filter(|&i| map.sites[i].port);
                if got.is_none() {
                    e.push(
                        f,
                        None,
                        format!("fleet_winter port `{p}` is not a port of the map"),
                    );
                }
                got
            })
            .collect();
        note("control".into(), &raw.control.provenance, &mut e);
        let mut control = vec![Some(Side::Saracens); map.sites.len()];
        for (list, who) in [
            (&raw.control.crusaders, Some(Side::Crusaders)),
            (&raw.control.neutral, None),
        ] {
            for name in list {
                match map.site_named(name) {
                    Some(i) => control[i] = who,
                    None => e.push(
                        f,
                        None,
                        format!("control: `{name}` is not a city or castle of the map"),
                    ),
                }
            }
        }
        let mut neutral_groups = Vec::new();
        for g in &raw.neutral_group {
            note(format!("neutral group {}", g.name), &g.provenance, &mut e);
            neutral_groups.push(
                g.leaders
                    .iter()
                    .filter_map(|l| leader_index(l, &mut e))
                    .collect(),
            );
        }
        let mut reinforcements = Vec::new();
        for r in &raw.reinforcement {
            note(
                format!("reinforcement of {}", r.turn),
                &r.provenance,
                &mut e,
            );
            let turn = turns.iter().position(|t| t.name == r.turn);
            if turn.is_none() {
                e.push(
                    f,
                    None,
                    format!(
                        "reinforcement turn `{}` is not a turn of the calendar",
                        r.turn
                    ),
                );
            }
            let p = match Place::parse(&r.place) {
                Ok(p) if map.contains(p.hex) && (!p.inside || map.site_at(p.hex).is_some()) => {
                    Some(p)
                }
                _ => {
                    e.push(
                        f,
                        None,
                        format!("reinforcement place `{}` is not a hex of the map", r.place),
                    );
                    None
                }
            };
            let fleet_ids: Vec<usize> = r
                .fleets
                .iter()
                .filter_map(|id| {
                    let got = fleets.iter().position(|x| &x.id == id && x.start.is_none());
                    if got.is_none() {
                        e.push(
                            f,
                            None,
                            format!("reinforcement fleet `{id}` is not a [[reinforcement_fleet]]"),
                        );
                    }
                    got
                })
                .collect();
            if let Some(p) = p {
                if !map.is_land(p.hex) && fleet_ids.is_empty() {
                    e.push(
                        f,
                        None,
                        format!(
                            "reinforcements at sea (`{}`) need fleets to carry them",
                            r.place
                        ),
                    );
                }
            }
            let fallback = r
                .fallback
                .iter()
                .filter_map(|h| h.parse::<HexId>().ok().filter(|h| map.contains(*h)))
                .collect::<Vec<_>>();
            if fallback.len() != r.fallback.len() {
                e.push(
                    f,
                    None,
                    format!(
                        "reinforcement of `{}`: a fallback hex is not on the map",
                        r.turn
                    ),
                );
            }
            let choices = r
                .choices
                .iter()
                .filter_map(|h| h.parse::<HexId>().ok().filter(|h| map.contains(*h)))
                .collect::<Vec<_>>();
            if choices.len() != r.choices.len() {
                e.push(
                    f,
                    None,
                    format!(
                        "reinforcement of `{}`: an entry hex in `choices` is not on the map",
                        r.turn
                    ),
                );
            }
            if let (Some(turn), Some(place), Some(side)) = (turn, p, Side::parse(&r.side)) {
                reinforcements.push(Reinforcement {
                    turn,
                    side,
                    leaders: r
                        .leaders
                        .iter()
                        .filter_map(|l| leader_index(l, &mut e))
                        .collect(),
                    fleets: fleet_ids,
                    place,
                    choices,
                    fallback,
                });
            }
        }
        let mut victory = Vec::new();
        for v in &raw.victory {
            note(
                format!("victory points of {}", v.site),
                &v.provenance,
                &mut e,
            );
            match map.site_named(&v.site) {
                Some(i) => victory.push((i, v.crusaders, v.saracens)),
                None => e.push(
                    f,
                    None,
                    format!("victory: `{}` is not a city or castle of the map", v.site),
                ),
            }
        }
        note(
            "Jerusalem rule".into(),
            &raw.jerusalem_rule.provenance,
            &mut e,
        );
        if map.site_named("Jerusalem").is_none() {
            e.push(
                f,
                None,
                "the Jerusalem rule (16.5.2) needs a site named `Jerusalem`",
            );
        }
        for (i, l) in leaders.iter().enumerate() {
            let deployed = deploy.iter().any(|(j, _)| *j == i);
            let arrives = reinforcements.iter().any(|r| r.leaders.contains(&i));
            if !deployed && !arrives {
                e.push(
                    f,
                    None,
                    format!("leader `{}` is neither deployed nor a reinforcement", l.id),
                );
            }
        }
        e.locate(data);
        let by_side = [Side::Crusaders, Side::Saracens, Side::Cypriots].map(|side| {
            (
                (0..leaders.len())
                    .filter(|&l| leaders[l].side == side)
                    .collect(),
                (0..fleets.len())
                    .filter(|&f| fleets[f].side == side)
                    .collect(),
            )
        });
        e.into_result(Scenario {
            id: raw.id,
            title: raw.title,
            seats: raw.seats,
            map,
            tables,
            leaders,
            fleets,
            turns,
            deploy,
            garrisons,
            control,
            neutral_groups,
            reinforcements,
            fleet_winter_months,
            fleet_return_turn,
            fleet_return_ports,
            victory,
            jerusalem_margin: raw.jerusalem_rule.margin,
            audit,
            by_side,
        })
    }

    /// The indices of `side`'s leaders, in order.
    pub fn leaders_of(&self, side: Side) -> &[usize] {
        &self.by_side[side as usize].0
    }

    /// The indices of `side`'s fleets, in order.
    pub fn fleets_of(&self, side: Side) -> &[usize] {
        &self.by_side[side as usize].1
    }

    /// The index of a leader by id.
    pub fn leader(&self, id: &str) -> Option<usize> {
        self.leaders.iter().position(|l| l.id == id)
    }

    /// The index of a fleet by id.
    pub fn fleet(&self, id: &str) -> Option<usize> {
        self.fleets.iter().position(|f| f.id == id)
    }
}
