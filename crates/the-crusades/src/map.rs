//! The strategic map (3.1): terrain and its attrition value (6.4.1), cities and castles as
//! mini-hexes inside their hex (10.1.3), ports, rivers, mountain and blocked hexsides
//! (6.1.1), sea and coast (12.2.2), and Egypt (13.2.7). Loaded from `map.toml`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, OnceLock};

use engine::{AuditEntry, DataErrors, DataSet, Provenance};
use hexgrid::{Grid, Hex, HexId, Hexside, Layout};
use serde::{Deserialize, Serialize};

use crate::data::MapFile;

/// The kind of a hex (3.1 errata: green fertile, tan variable, yellow barren).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    /// All-sea: no attrition value (6.4.1), fleets only.
    Sea,
    /// Fertile (green).
    Fertile,
    /// Variable (tan).
    Variable,
    /// Barren (yellow).
    Barren,
}

impl Terrain {
    /// Reads a terrain name.
    pub fn parse(s: &str) -> Option<Terrain> {
        Some(match s {
            "sea" => Terrain::Sea,
            "fertile" => Terrain::Fertile,
            "variable" => Terrain::Variable,
            "barren" => Terrain::Barren,
            _ => return None,
        })
    }

    /// The next worse Attrition Level (10.5.4): fertile, variable, barren.
    pub fn worse(self) -> Terrain {
        match self {
            Terrain::Fertile => Terrain::Variable,
            _ if self == Terrain::Sea => Terrain::Sea,
            _ => Terrain::Barren,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Sea => "sea",
            Terrain::Fertile => "fertile",
            Terrain::Variable => "variable",
            Terrain::Barren => "barren",
        }
    }
}

/// A hexside feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Feature {
    /// +1 MP; never crossed in rain turns (6.1.1 D, 13.1 C).
    River,
    /// Never crossed (6.1.1 E).
    Mountain,
    /// Never crossed (6.1.1 E).
    Blocked,
}

/// A city or castle (10.1, 10.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Site {
    /// Its name as printed.
    pub name: String,
    /// Its hex.
    pub hex: HexId,
    /// A castle (10.2) rather than a city.
    pub castle: bool,
    /// The level: the Siege Defense Factor (10.1.2).
    pub level: u8,
    /// A port (11.1.4, 12.2.3).
    pub port: bool,
    /// Immune from debarkation losses and winter transport limits (12.5.5 E).
    pub sheltered: bool,
}

/// Where a force stands: in a hex, outside or inside its city or castle mini-hex (10.1.3).
/// Written `1618` (outside) or `1618c` (inside).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Place {
    /// The hex.
    pub hex: HexId,
    /// Inside the city or castle mini-hex.
    pub inside: bool,
}

impl Place {
    /// Outside, in the open hex.
    pub fn outside(hex: HexId) -> Place {
        Place { hex, inside: false }
    }

    /// Inside the city or castle of `hex`.
    pub fn inside(hex: HexId) -> Place {
        Place { hex, inside: true }
    }

    /// Reads `1618` or `1618c`.
    pub fn parse(s: &str) -> Result<Place, String> {
        let (id, inside) = match s.strip_suffix('c') {
            Some(id) => (id, true),
            None => (s, false),
        };
        let hex = id.parse::<HexId>().map_err(|_| {
            format!("`{s}` is not a place: a hex id like 1618, or 1618c for its city")
        })?;
        Ok(Place { hex, inside })
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.hex, if self.inside { "c" } else { "" })
    }
}

/// The strategic map.
#[derive(Clone, Debug)]
pub struct Map {
    /// Its title.
    pub title: String,
    /// The printed extent.
    pub grid: Grid,
    terrain: BTreeMap<HexId, Terrain>,
    /// Every city and castle.
    pub sites: Vec<Site>,
    /// The sites that are ports, in order.
    ports: Vec<usize>,
    site_at: BTreeMap<HexId, usize>,
    sides: BTreeMap<Hexside, Feature>,
    egypt: BTreeSet<HexId>,
    /// Land hexes touching the sea, worked out once (fleets ask it at every step).
    coastal: BTreeSet<HexId>,
    /// Where forces and fleets can go from each place, searched once and shared (by clones
    /// of the map too).
    routes: Arc<Routes>,
    /// The same facts by the grid's dense index, for the searches.
    dense: Dense,
}

/// The map's facts by the grid's dense index (`Grid::index_of_id`): what every step of a
/// search asks, without a tree lookup.
#[derive(Clone, Debug, Default)]
struct Dense {
    terrain: Vec<Terrain>,
    site: Vec<Option<usize>>,
    coastal: Vec<bool>,
    /// The neighbours on the map, in `Hex::neighbours` order, each with the feature of the
    /// hexside between.
    near: Vec<Vec<(HexId, Option<Feature>)>>,
    /// The neighbours land units may cross to ([`Map::land_crossing`]), in the same order,
    /// by dense index and id, each with whether a river is crossed: in turns without rain,
    /// then in rain turns.
    land_near: [Vec<Vec<(usize, HexId, bool)>>; 2],
}

/// Every place a land force reaches from a start, each with its canonical path.
pub type LandRoutes = Arc<[(Place, crate::orders::Path<Place>)]>;

/// Every hex a fleet reaches from a start, each with its canonical path.
pub type SeaRoutes = Arc<[(HexId, crate::orders::Path<HexId>)]>;

/// Every hex a fleet reaches from a start ([`SeaRoutes`]), with those of them that hold land
/// picked out: only there may a fleet end in a port or land troops (12.2.3, 12.5.5), so
/// listing its orders looks at no other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeaReach {
    /// Every hex reached, each with its canonical path, by hex.
    pub routes: SeaRoutes,
    /// The hexes of `routes` that hold land, as indices into it in its order, each with
    /// its city or castle.
    pub landfalls: Box<[(usize, Option<usize>)]>,
}

impl SeaReach {
    /// Picks out the landfalls of `routes` on `map`.
    pub fn new(map: &Map, routes: SeaRoutes) -> SeaReach {
        let landfalls = routes
            .iter()
            .enumerate()
            .filter(|(_, (h, _))| map.is_land(*h))
            .map(|(i, (h, _))| (i, map.site_at(*h)))
            .collect();
        SeaReach { routes, landfalls }
    }
}

/// The searches the map alone decides (land moves by start, allowance and rain, 6.1.1,
/// 13.1; fleet moves by start and allowance, 12.2), each worked out the first time it is
/// asked and then shared by every game of the scenario: listing the legal orders asks them
/// for every leader and fleet at every decision.
#[derive(Default)]
struct Routes {
    /// By place and allowance ([`Map::land_routes`]).
    land: Vec<OnceLock<LandRoutes>>,
    /// By hex and allowance ([`Map::sea_routes`]).
    sea: Vec<OnceLock<Arc<SeaReach>>>,
    /// By hex and rain ([`Map::land_steps`]).
    steps: Vec<OnceLock<Vec<u32>>>,
}

/// The land allowances of the game (6.1.1 B, 13.1 B): rain turns 2 or 3 MPs, other turns 5
/// or 6; other budgets are searched afresh each time.
const LAND_BUDGETS: [(bool, u32); 4] = [(true, 2), (true, 3), (false, 5), (false, 6)];

/// The fleet allowances of the game (12.2.1): 5 in winter, 10 otherwise.
const SEA_BUDGETS: [u32; 2] = [5, 10];

impl Routes {
    fn new(hexes: usize) -> Routes {
        Routes {
            land: (0..hexes * 2 * LAND_BUDGETS.len())
                .map(|_| OnceLock::new())
                .collect(),
            sea: (0..hexes * SEA_BUDGETS.len())
                .map(|_| OnceLock::new())
                .collect(),
            steps: (0..hexes * 2).map(|_| OnceLock::new()).collect(),
        }
    }
}

impl fmt::Debug for Routes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Routes {{ land searched: {}, sea searched: {} }}",
            self.land.iter().filter(|s| s.get().is_some()).count(),
            self.sea.iter().filter(|s| s.get().is_some()).count()
        )
    }
}

impl Map {
    /// Loads and checks `the-crusades/map.toml`, adding its provenance to `audit`.
    pub fn load(data: &DataSet, audit: &mut Vec<AuditEntry>) -> Result<Map, DataErrors> {
        let file = "the-crusades/map.toml";
        let raw: MapFile = data.parse(file)?;
        let mut errors = DataErrors::default();
        let mut note = |item: String, p: &Provenance, errors: &mut DataErrors| {
            p.check(file, &item, errors);
            audit.push(AuditEntry {
                file: file.into(),
                item,
                source: p.source,
                reason: p.reason.clone(),
            });
        };
        note("map".into(), &raw.provenance, &mut errors);
        let (first, last) = match (raw.first.parse::<HexId>(), raw.last.parse::<HexId>()) {
            (Ok(a), Ok(b)) => (a, b),
            _ => {
                errors.push(
                    file,
                    None,
                    format!("`{}` or `{}` is not a hex id", raw.first, raw.last),
                );
                return Err(errors);
            }
        };
        let grid = Grid::new(Layout::new(raw.layout), first, last);
        let default = Terrain::parse(&raw.default_terrain).unwrap_or_else(|| {
            errors.push(
                file,
                None,
                format!(
                    "default_terrain `{}` is not fertile, variable, barren or sea",
                    raw.default_terrain
                ),
            );
            Terrain::Variable
        });
        let mut terrain: BTreeMap<HexId, Terrain> = grid.ids().map(|id| (id, default)).collect();
        for row in &raw.terrain {
            let Some(t) = Terrain::parse(&row.terrain) else {
                errors.push(
                    file,
                    None,
                    format!(
                        "terrain `{}` is not fertile, variable, barren or sea",
                        row.terrain
                    ),
                );
                continue;
            };
            let what = format!("terrain `{}`", row.terrain);
            for id in engine::hex_list(&grid, &row.hexes, file, &what, &mut errors) {
                terrain.insert(id, t);
            }
        }
        let mut sites = Vec::new();
        let mut site_at = BTreeMap::new();
        for s in &raw.site {
            note(format!("site {}", s.name), &s.provenance, &mut errors);
            let what = format!("site `{}`", s.name);
            let Some(hex) = engine::hex_id(&grid, &s.hex, file, &what, &mut errors) else {
                continue;
            };
            let castle = match s.kind.as_str() {
                "city" => false,
                "castle" => true,
                k => {
                    errors.push(
                        file,
                        None,
                        format!("site {}: kind `{k}` is not city or castle", s.name),
                    );
                    continue;
                }
            };
            if !(1..=4).contains(&s.level) {
                errors.push(
                    file,
                    None,
                    format!("site {}: level `{}` is not 1-4", s.name, s.level),
                );
            }
            if terrain[&hex] == Terrain::Sea {
                errors.push(
                    file,
                    None,
                    format!("site {}: hex `{hex}` is all-sea", s.name),
                );
            }
            if site_at.insert(hex, sites.len()).is_some() {
                errors.push(
                    file,
                    None,
                    format!("site {}: hex `{hex}` already holds a site", s.name),
                );
            }
            sites.push(Site {
                name: s.name.clone(),
                hex,
                castle,
                level: s.level,
                port: s.port,
                sheltered: s.sheltered,
            });
        }
        let mut sides = BTreeMap::new();
        for row in &raw.hexside {
            note(
                format!("{} hexsides", row.feature),
                &row.provenance,
                &mut errors,
            );
            let feature = match row.feature.as_str() {
                "river" => Feature::River,
                "mountain" => Feature::Mountain,
                "blocked" => Feature::Blocked,
                f => {
                    errors.push(
                        file,
                        None,
                        format!("feature `{f}` is not river, mountain or blocked"),
                    );
                    continue;
                }
            };
            for s in &row.sides {
                if let Some(side) = engine::hexside(&grid, s, file, "hexside", &mut errors) {
                    sides.insert(side, feature);
                }
            }
        }
        note("Egypt".into(), &raw.egypt.provenance, &mut errors);
        let egypt = engine::hex_list(&grid, &raw.egypt.hexes, file, "egypt", &mut errors)
            .into_iter()
            .collect();
        let mut map = Map {
            title: raw.title,
            grid,
            terrain,
            ports: (0..sites.len()).filter(|&s| sites[s].port).collect(),
            sites,
            site_at,
            sides,
            egypt,
            coastal: BTreeSet::new(),
            routes: Arc::default(),
            dense: Dense::default(),
        };
        map.routes = Arc::new(Routes::new(map.grid.len()));
        map.dense.terrain = map.grid.ids().map(|h| map.terrain[&h]).collect();
        map.dense.site = map
            .grid
            .ids()
            .map(|h| map.site_at.get(&h).copied())
            .collect();
        map.dense.near = map
            .grid
            .ids()
            .map(|h| {
                map.neighbours(h)
                    .into_iter()
                    .map(|n| (n, map.feature(h, n)))
                    .collect()
            })
            .collect();
        map.dense.land_near = [false, true].map(|rain| {
            map.grid
                .ids()
                .map(|h| {
                    map.near(h)
                        .iter()
                        .filter(|&&(n, f)| map.land_crossing_with(h, n, f, rain))
                        .filter_map(|&(n, f)| {
                            Some((map.grid.index_of_id(n)?, n, f == Some(Feature::River)))
                        })
                        .collect()
                })
                .collect()
        });
        map.coastal = map
            .grid
            .ids()
            .filter(|&h| map.is_land(h) && map.neighbours(h).iter().any(|&n| !map.is_land(n)))
            .collect();
        map.dense.coastal = map.grid.ids().map(|h| map.coastal.contains(&h)).collect();
        for s in &map.sites {
            if s.sheltered && !s.port {
                errors.push(
                    file,
                    None,
                    format!("site {}: only a port can be sheltered", s.name),
                );
            }
            if s.port && !map.is_coastal(s.hex) {
                errors.push(
                    file,
                    None,
                    format!("site {}: a port must touch the sea", s.name),
                );
            }
        }
        errors.locate(data);
        errors.into_result(map)
    }

    /// The layout of printed ids.
    pub fn layout(&self) -> Layout {
        self.grid.layout()
    }

    /// Whether `id` is on the map.
    pub fn contains(&self, id: HexId) -> bool {
        self.grid.contains_id(id)
    }

    /// The terrain of a hex.
    pub fn terrain(&self, id: HexId) -> Terrain {
        self.grid
            .index_of_id(id)
            .map_or(Terrain::Sea, |i| self.dense.terrain[i])
    }

    /// Whether a hex holds any land (not all-sea).
    pub fn is_land(&self, id: HexId) -> bool {
        self.terrain(id) != Terrain::Sea
    }

    /// The hexes next to `id` on the map.
    pub fn neighbours(&self, id: HexId) -> Vec<HexId> {
        let Some(h) = self.grid.hex_of(id) else {
            return Vec::new();
        };
        h.neighbours()
            .into_iter()
            .filter_map(|n| self.grid.id_of(n))
            .collect()
    }

    /// The hexes next to `id` on the map, as [`Map::neighbours`] lists them, each with the
    /// feature of the hexside between.
    pub fn near(&self, id: HexId) -> &[(HexId, Option<Feature>)] {
        self.grid
            .index_of_id(id)
            .map_or(&[], |i| self.dense.near[i].as_slice())
    }

    /// The neighbours of the hex at dense index `index` that land units may cross to in a
    /// turn with or without `rain` ([`Map::land_crossing`]), as [`Map::near`] lists them,
    /// each by dense index and id, with whether a river is crossed.
    pub fn land_near_at(&self, index: usize, rain: bool) -> &[(usize, HexId, bool)] {
        self.dense.land_near[usize::from(rain)]
            .get(index)
            .map_or(&[], Vec::as_slice)
    }

    /// The terrain of the hex at dense index `index` (all-sea off the map).
    pub fn terrain_at(&self, index: usize) -> Terrain {
        self.dense
            .terrain
            .get(index)
            .copied()
            .unwrap_or(Terrain::Sea)
    }

    /// Whether land units may cross a hexside with `feature` between two adjacent hexes
    /// `a` and `b` ([`Map::land_crossing`] when the feature is known).
    pub fn land_crossing_with(
        &self,
        a: HexId,
        b: HexId,
        feature: Option<Feature>,
        rain: bool,
    ) -> bool {
        self.is_land(a)
            && self.is_land(b)
            && match feature {
                Some(Feature::Mountain | Feature::Blocked) => false,
                Some(Feature::River) => !rain,
                None => true,
            }
    }

    /// Whether two hexes are adjacent.
    pub fn adjacent(&self, a: HexId, b: HexId) -> bool {
        match (self.grid.hex_of(a), self.grid.hex_of(b)) {
            (Some(a), Some(b)) => a.is_adjacent(b),
            _ => false,
        }
    }

    /// The distance in hexes.
    pub fn distance(&self, a: HexId, b: HexId) -> u32 {
        match (self.grid.hex_of(a), self.grid.hex_of(b)) {
            (Some(a), Some(b)) => a.distance(b),
            _ => u32::MAX,
        }
    }

    /// The feature of the hexside between two adjacent hexes.
    pub fn feature(&self, a: HexId, b: HexId) -> Option<Feature> {
        let (a, b): (Hex, Hex) = (self.grid.hex_of(a)?, self.grid.hex_of(b)?);
        self.sides.get(&Hexside::between(a, b)?).copied()
    }

    /// Whether land units may cross from `a` into `b` at all: both land, no mountain or
    /// blocked hexside (6.1.1 E), no river in a rain turn (13.1 C).
    pub fn land_crossing(&self, a: HexId, b: HexId, rain: bool) -> bool {
        self.adjacent(a, b) && self.land_crossing_with(a, b, self.feature(a, b), rain)
    }

    /// Whether a land hex touches the sea (a coastal hex, 12.5.5).
    pub fn is_coastal(&self, id: HexId) -> bool {
        self.grid
            .index_of_id(id)
            .is_some_and(|i| self.dense.coastal[i])
    }

    /// Whether a fleet may be in `id`: a hex that contains sea (12.2.2).
    pub fn has_sea(&self, id: HexId) -> bool {
        !self.is_land(id) || self.is_coastal(id)
    }

    /// Whether a fleet may move from `a` into `b`: both hold sea and the hexside is not
    /// all-land (12.2.2): one of the two is an all-sea hex.
    pub fn sea_crossing(&self, a: HexId, b: HexId) -> bool {
        self.adjacent(a, b)
            && self.has_sea(a)
            && self.has_sea(b)
            && (!self.is_land(a) || !self.is_land(b))
    }

    /// The city or castle in a hex.
    pub fn site_at(&self, id: HexId) -> Option<usize> {
        self.dense.site[self.grid.index_of_id(id)?]
    }

    /// The cities and castles that are ports (11.1.4, 12.2.3), in order.
    pub fn ports(&self) -> &[usize] {
        &self.ports
    }

    /// The site named `name`.
    pub fn site_named(&self, name: &str) -> Option<usize> {
        self.sites.iter().position(|s| s.name == name)
    }

    /// Whether a hex lies in Egypt (13.2.7).
    pub fn in_egypt(&self, id: HexId) -> bool {
        self.egypt.contains(&id)
    }

    /// The remembered land routes from `start` within `budget` MPs (`rain`: a rain turn), or
    /// `None` for a budget the game never gives (then search afresh).
    pub fn land_routes(
        &self,
        start: Place,
        budget: u32,
        rain: bool,
    ) -> Option<&OnceLock<LandRoutes>> {
        let budget = LAND_BUDGETS.iter().position(|&b| b == (rain, budget))?;
        let place = self.grid.index_of_id(start.hex)? * 2 + usize::from(start.inside);
        self.routes.land.get(place * LAND_BUDGETS.len() + budget)
    }

    /// The remembered sea routes from `start` within `budget` hexes, or `None` for a budget
    /// the game never gives (then search afresh).
    pub fn sea_routes(&self, start: HexId, budget: u32) -> Option<&OnceLock<Arc<SeaReach>>> {
        let budget = SEA_BUDGETS.iter().position(|&b| b == budget)?;
        let hex = self.grid.index_of_id(start)?;
        self.routes.sea.get(hex * SEA_BUDGETS.len() + budget)
    }

    /// Land steps from `from` to every hex, by the grid's dense index, along
    /// [`Map::land_near_at`] (`u32::MAX` where no land path leads); `None` off the map.
    /// Worked out once per hex and rain, and shared.
    pub fn land_steps(&self, from: HexId, rain: bool) -> Option<&[u32]> {
        let start = self.grid.index_of_id(from)?;
        let steps = self.routes.steps.get(start * 2 + usize::from(rain))?;
        Some(steps.get_or_init(|| {
            let mut dist = vec![u32::MAX; self.grid.len()];
            let mut queue = std::collections::VecDeque::new();
            dist[start] = 0;
            queue.push_back(start);
            while let Some(h) = queue.pop_front() {
                let d = dist[h] + 1;
                for &(n, _, _) in self.land_near_at(h, rain) {
                    if dist[n] > d {
                        dist[n] = d;
                        queue.push_back(n);
                    }
                }
            }
            dist
        }))
    }

    /// Every hexside with a feature, for renderers.
    pub fn features(&self) -> impl Iterator<Item = (HexId, HexId, Feature)> + '_ {
        self.sides.iter().filter_map(|(side, f)| {
            let (a, b) = side.hexes();
            Some((self.grid.id_of(a)?, self.grid.id_of(b)?, *f))
        })
    }
}
