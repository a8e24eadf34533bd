//! The map of Acre, checked into typed values: terrain per hex with its 5.27 effects, the
//! camps by nationality, the all-sea hexsides (6.12), the map edges, and the regions the rules
//! name (Acre itself, the ground between the outerworks and the foss).

use std::collections::{BTreeMap, BTreeSet};

use engine::{DataErrors, Provenance};
use hexgrid::{Grid, Hex, HexId, HexMap, Hexside, Layout};
use serde::{Deserialize, Serialize};

use crate::data::{Cost, MapFile, TablesFile};

/// What the rules know a terrain as (5.27).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Clear.
    Clear,
    /// Road (5.27).
    Road,
    /// Acre's street pattern (Addenda to 10.34).
    Street,
    /// Marsh.
    Marsh,
    /// The Belus river ravine.
    Ravine,
    /// A camp (5.33).
    Camp,
    /// The outerworks (5.32).
    Outerworks,
    /// The foss (5.31).
    Foss,
    /// A wall (5.35).
    Wall,
    /// A tower (5.34).
    Tower,
    /// Sea: prohibited.
    Sea,
}

impl Class {
    const ALL: [(&'static str, Class); 11] = [
        ("clear", Class::Clear),
        ("road", Class::Road),
        ("street", Class::Street),
        ("marsh", Class::Marsh),
        ("ravine", Class::Ravine),
        ("camp", Class::Camp),
        ("outerworks", Class::Outerworks),
        ("foss", Class::Foss),
        ("wall", Class::Wall),
        ("tower", Class::Tower),
        ("sea", Class::Sea),
    ];

    fn parse(s: &str) -> Option<Class> {
        Self::ALL.iter().find(|(k, _)| *k == s).map(|(_, c)| *c)
    }

    /// A Wall or Tower hex.
    pub fn is_wall_or_tower(self) -> bool {
        matches!(self, Class::Wall | Class::Tower)
    }
}

/// The Terrain Effects Chart's "Effect on Melee" (5.27).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeleeEffect {
    /// No effect.
    None,
    /// An attacker in the hex is halved.
    AttackerHalved,
    /// A Moslem defender in the hex is halved.
    MoslemDefenderHalved,
    /// The defender in the hex is halved.
    DefenderHalved,
    /// The defender in the hex is doubled.
    DefenderDoubled,
}

impl MeleeEffect {
    fn parse(s: &str) -> Option<MeleeEffect> {
        Some(match s {
            "none" => MeleeEffect::None,
            "attacker_halved" => MeleeEffect::AttackerHalved,
            "moslem_defender_halved" => MeleeEffect::MoslemDefenderHalved,
            "defender_halved" => MeleeEffect::DefenderHalved,
            "defender_doubled" => MeleeEffect::DefenderDoubled,
            _ => return None,
        })
    }
}

/// Effects of a terrain that can change (a foss once filled).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effects {
    /// Half Movement Points to enter, `None` if prohibited.
    pub cost: Option<u8>,
    /// Effect on melee.
    pub melee: MeleeEffect,
    /// 9.5 modifier when the target is in the hex.
    pub fire: i32,
}

/// A terrain of the Terrain Effects Chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Terrain {
    /// Its key.
    pub key: String,
    /// Printed name.
    pub name: String,
    /// What the rules know it as.
    pub class: Class,
    /// Its effects.
    pub effects: Effects,
    /// Its effects once filled (foss only, 13.1).
    pub filled: Option<Effects>,
    /// 9.11.
    pub blocks_los: bool,
    /// CSS colour.
    pub colour: String,
}

/// A Crusader nationality (9.25, 10.53-10.56).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Nationality {
    /// France.
    French,
    /// England.
    English,
    /// The Kingdom of Jerusalem.
    Jerusalem,
    /// The Empire.
    German,
}

impl Nationality {
    /// Reads a nationality key.
    pub fn parse(s: &str) -> Option<Nationality> {
        Some(match s {
            "french" => Nationality::French,
            "english" => Nationality::English,
            "jerusalem" => Nationality::Jerusalem,
            "german" => Nationality::German,
            _ => return None,
        })
    }
}

/// The checked map.
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    /// Title.
    pub title: String,
    /// The hexes.
    pub grid: Grid,
    /// Terrains, indexed by each hex's terrain.
    pub terrains: Vec<Terrain>,
    terrain: HexMap<u8>,
    /// Each hex's terrain class by grid index ([`Map::index`]), worked out once from
    /// `terrain` (the rules ask it often).
    classes: Vec<Class>,
    camps: HexMap<Nationality>,
    all_sea: BTreeSet<Hexside>,
    /// Each hex's all-sea sides, a bit for each direction (by [`hexgrid::Direction::index`]),
    /// worked out once from `all_sea`.
    all_sea_sides: HexMap<u8>,
    areas: BTreeMap<String, Vec<Hex>>,
    /// [`Map::distance_to`] of every hex for the classes the rules measure from (the foss,
    /// 5.16 and 17.0; the walls, 11.32 and 13.22), worked out once.
    near: Vec<(Vec<Class>, HexMap<Option<u32>>)>,
    /// [`Map::between_outerworks_and_foss`], worked out once.
    between: BTreeSet<Hex>,
    /// [`Map::walls_and_towers`], worked out once.
    walls_and_towers: Vec<Hex>,
    /// Per grid index: its hex ([`Map::hex_at_index`]).
    hex_at: Vec<Hex>,
    /// Per grid index: the grid indices of its neighbours on the map, in
    /// [`Map::neighbours`]' order, `u32::MAX` past the last ([`Map::neighbour_indices`]).
    neighbour_at: Vec<[u32; 6]>,
    /// Names printed on the map.
    pub labels: Vec<(Hex, String)>,
    /// Where the map comes from.
    pub provenance: Provenance,
    /// Each hex's grid index by its coordinates ([`Map::index`]).
    dense: Dense,
}

/// A table from a hex's axial coordinates to its grid index ([`Grid::index`]) over the
/// rectangle of coordinates the map's hexes span: a look-up in place of the conversion
/// through the printed id, for the tables by grid index built thousands of times a game.
#[derive(Clone, Debug, PartialEq)]
struct Dense {
    /// The least coordinates of a hex of the map.
    q0: i32,
    r0: i32,
    /// How many columns and rows of coordinates the rectangle spans.
    q_span: u32,
    r_span: u32,
    /// By `(q - q0) * r_span + (r - r0)`: the grid index ([`u32::MAX`]: not on the map).
    index: Vec<u32>,
}

impl Dense {
    /// The table of the grid's hexes.
    fn new(grid: Grid) -> Dense {
        let hexes: Vec<(Hex, usize)> = grid
            .hexes()
            .filter_map(|h| Some((h, grid.index(h)?)))
            .collect();
        let q0 = hexes.iter().map(|(h, _)| h.q).min().unwrap_or(0);
        let r0 = hexes.iter().map(|(h, _)| h.r).min().unwrap_or(0);
        let q1 = hexes.iter().map(|(h, _)| h.q).max().unwrap_or(-1);
        let r1 = hexes.iter().map(|(h, _)| h.r).max().unwrap_or(-1);
        let q_span = u32::try_from(q1 - q0 + 1).unwrap_or(0);
        let r_span = u32::try_from(r1 - r0 + 1).unwrap_or(0);
        let mut index = vec![u32::MAX; q_span as usize * r_span as usize];
        for (h, k) in hexes {
            let at = (h.q - q0) as usize * r_span as usize + (h.r - r0) as usize;
            index[at] = u32::try_from(k).unwrap_or(u32::MAX);
        }
        Dense {
            q0,
            r0,
            q_span,
            r_span,
            index,
        }
    }

    /// The grid index of `hex`, if on the map.
    #[inline]
    fn get(&self, hex: Hex) -> Option<usize> {
        let q = hex.q.wrapping_sub(self.q0) as u32;
        let r = hex.r.wrapping_sub(self.r0) as u32;
        if q >= self.q_span || r >= self.r_span {
            return None;
        }
        let k = *self
            .index
            .get(q as usize * self.r_span as usize + r as usize)?;
        (k != u32::MAX).then_some(k as usize)
    }
}

/// The classes whose distances [`Map::distance_to`] keeps for every hex: the foss (5.16,
/// 17.0) and the walls (11.32, 13.22).
const NEAR: [&[Class]; 2] = [&[Class::Foss], &[Class::Wall, Class::Tower]];

/// Reads a hex list of ids and column runs (`"1806..1815"`), pushing problems to `errors`
/// ([`engine::hex_list`]).
pub fn parse_hexes(
    grid: &Grid,
    items: &[String],
    file: &str,
    what: &str,
    errors: &mut DataErrors,
) -> Vec<Hex> {
    engine::hex_list(grid, items, file, what, errors)
        .into_iter()
        .filter_map(|id| grid.hex_of(id))
        .collect()
}

fn cost_half_points(c: Cost) -> Option<u8> {
    match c {
        Cost::Points(p) if p >= 0.0 => Some((p * 2.0).round() as u8),
        _ => None,
    }
}

/// Checks the Terrain Effects Chart rows of `tables.toml`.
pub fn load_terrains(tables: &TablesFile, file: &str, errors: &mut DataErrors) -> Vec<Terrain> {
    let mut out = Vec::new();
    for row in &tables.terrain {
        row.provenance
            .check(file, &format!("terrain `{}`", row.key), errors);
        let class = Class::parse(&row.class);
        if class.is_none() {
            let valid: Vec<_> = Class::ALL.iter().map(|(k, _)| *k).collect();
            errors.push(
                file,
                None,
                format!(
                    "terrain `{}`: class `{}` is not one of {}",
                    row.key,
                    row.class,
                    valid.join(", ")
                ),
            );
        }
        let melee = |s: &str, errors: &mut DataErrors| {
            MeleeEffect::parse(s).unwrap_or_else(|| {
                errors.push(file, None, format!("terrain `{}`: melee `{s}` is not one of none, attacker_halved, moslem_defender_halved, defender_halved, defender_doubled", row.key));
                MeleeEffect::None
            })
        };
        let effects = Effects {
            cost: cost_half_points(row.cost),
            melee: melee(&row.melee, errors),
            fire: row.fire,
        };
        let filled = row.filled.as_ref().map(|f| Effects {
            cost: cost_half_points(f.cost),
            melee: melee(&f.melee, errors),
            fire: f.fire,
        });
        out.push(Terrain {
            key: row.key.clone(),
            name: row.name.clone(),
            class: class.unwrap_or(Class::Clear),
            effects,
            filled,
            blocks_los: row.blocks_los,
            colour: row.colour.clone(),
        });
    }
    out
}

impl Map {
    /// Checks `map.toml` against the terrains of `tables.toml`.
    pub fn load(file: &str, raw: &MapFile, terrains: Vec<Terrain>) -> Result<Map, DataErrors> {
        let mut errors = DataErrors::default();
        raw.provenance.check(file, "map", &mut errors);
        let (first, last) = match (raw.first.parse::<HexId>(), raw.last.parse::<HexId>()) {
            (Ok(a), Ok(b)) => (a, b),
            _ => {
                errors.push(file, None, "`first` and `last` must be four-digit hex ids");
                return Err(errors);
            }
        };
        let grid = Grid::new(Layout::new(raw.layout), first, last);
        let index_of = |key: &str, errors: &mut DataErrors| -> Option<u8> {
            let i = terrains.iter().position(|t| t.key == key);
            if i.is_none() {
                let keys: Vec<_> = terrains.iter().map(|t| t.key.as_str()).collect();
                errors.push(
                    file,
                    None,
                    format!("terrain `{key}` is not one of {}", keys.join(", ")),
                );
            }
            i.map(|i| i as u8)
        };
        let default = index_of(&raw.default_terrain, &mut errors).unwrap_or(0);
        let mut terrain = HexMap::filled(grid, default);
        for g in &raw.terrain {
            let t = index_of(&g.terrain, &mut errors);
            for h in parse_hexes(&grid, &g.hexes, file, &g.terrain, &mut errors) {
                if let Some(t) = t {
                    terrain.insert(h, t);
                }
            }
        }
        let camp_index = terrains.iter().position(|t| t.class == Class::Camp);
        let mut camps = HexMap::new(grid);
        for c in &raw.camp {
            let Some(n) = Nationality::parse(&c.nationality) else {
                errors.push(
                    file,
                    None,
                    format!(
                        "camp nationality `{}` is not one of french, english, jerusalem, german",
                        c.nationality
                    ),
                );
                continue;
            };
            for h in parse_hexes(&grid, &c.hexes, file, "camp", &mut errors) {
                camps.insert(h, n);
                match camp_index {
                    Some(i) => {
                        terrain.insert(h, i as u8);
                    }
                    None => errors.push(file, None, "tables.toml has no terrain of class camp"),
                }
            }
        }
        let mut all_sea = BTreeSet::new();
        raw.all_sea.provenance.check(file, "all_sea", &mut errors);
        for s in &raw.all_sea.sides {
            all_sea.extend(engine::hexside(&grid, s, file, "all_sea", &mut errors));
        }
        let mut areas = BTreeMap::new();
        for (name, a) in &raw.area {
            a.provenance
                .check(file, &format!("area `{name}`"), &mut errors);
            areas.insert(
                name.clone(),
                parse_hexes(&grid, &a.hexes, file, name, &mut errors),
            );
        }
        for needed in ["north_edge", "east_edge", "south_entry"] {
            if !areas.contains_key(needed) {
                errors.push(file, None, format!("area `{needed}` is required (7.21)"));
            }
        }
        let mut labels = Vec::new();
        for l in &raw.label {
            for h in parse_hexes(
                &grid,
                std::slice::from_ref(&l.hex),
                file,
                "label",
                &mut errors,
            ) {
                labels.push((h, l.text.clone()));
            }
        }
        let mut classes = vec![Class::Sea; grid.len()];
        for h in grid.hexes() {
            if let Some(i) = grid.index(h) {
                classes[i] = terrain
                    .get(h)
                    .and_then(|&t| terrains.get(t as usize))
                    .map_or(Class::Sea, |t| t.class);
            }
        }
        let all_sea_sides = HexMap::from_fn(grid, |h| {
            Hexside::all_of(h)
                .iter()
                .enumerate()
                .filter(|(_, side)| all_sea.contains(side))
                .fold(0u8, |bits, (d, _)| bits | 1 << d)
        });
        let mut map = Map {
            title: raw.title.clone(),
            grid,
            terrains,
            terrain,
            classes,
            camps,
            all_sea,
            all_sea_sides,
            areas,
            near: Vec::new(),
            between: BTreeSet::new(),
            walls_and_towers: Vec::new(),
            hex_at: Vec::new(),
            neighbour_at: Vec::new(),
            labels,
            provenance: raw.provenance.clone(),
            dense: Dense::new(grid),
        };
        map.between = map.flood_between();
        map.walls_and_towers = map.hexes_of(&[Class::Wall, Class::Tower]);
        map.hex_at = vec![Hex::default(); grid.len()];
        map.neighbour_at = vec![[u32::MAX; 6]; grid.len()];
        for h in grid.hexes() {
            let Some(i) = map.index(h) else { continue };
            map.hex_at[i] = h;
            let mut row = [u32::MAX; 6];
            for (k, n) in map.neighbours(h).enumerate() {
                row[k] = map.index(n).map_or(u32::MAX, |n| n as u32);
            }
            map.neighbour_at[i] = row;
        }
        map.near = NEAR
            .iter()
            .map(|classes| {
                let of = map.hexes_of(classes);
                let near = HexMap::from_fn(grid, |h| of.iter().map(|x| x.distance(h)).min());
                (classes.to_vec(), near)
            })
            .collect();
        errors.into_result(map)
    }

    /// The grid index of a hex ([`Grid::index`]), if on the map, read from a table.
    #[inline]
    pub fn index(&self, hex: Hex) -> Option<usize> {
        self.dense.get(hex)
    }

    /// The hex printed `id`, if on the map.
    pub fn hex(&self, id: &str) -> Option<Hex> {
        id.parse::<HexId>().ok().and_then(|i| self.grid.hex_of(i))
    }

    /// The printed id of a hex (`"????"` off the map).
    pub fn id(&self, hex: Hex) -> String {
        self.grid
            .id_of(hex)
            .map(|i| i.to_string())
            .unwrap_or_else(|| "????".into())
    }

    /// Whether the hex is on the map.
    pub fn on_map(&self, hex: Hex) -> bool {
        self.grid.contains(hex)
    }

    /// The on-map neighbours of a hex, in [`Grid::neighbours`]' order (whether each is on
    /// the map read from the table of [`Map::index`]).
    pub fn neighbours(&self, hex: Hex) -> impl Iterator<Item = Hex> + '_ {
        hex.neighbours()
            .into_iter()
            .filter(move |&n| self.dense.get(n).is_some())
    }

    /// The terrain of a hex (sea off the map).
    pub fn terrain(&self, hex: Hex) -> &Terrain {
        let i = self.terrain.get(hex).copied().unwrap_or_else(|| {
            self.terrains
                .iter()
                .position(|t| t.class == Class::Sea)
                .unwrap_or(0) as u8
        });
        &self.terrains[i as usize]
    }

    /// The terrain class of a hex.
    pub fn class(&self, hex: Hex) -> Class {
        self.index(hex).map_or(Class::Sea, |i| self.classes[i])
    }

    /// A Wall or Tower hex.
    pub fn is_wall_or_tower(&self, hex: Hex) -> bool {
        self.class(hex).is_wall_or_tower()
    }

    /// Within Acre: a street or a Wall/Tower hex (10.51: "Wall/Tower hexes count as part of
    /// Acre").
    pub fn in_acre(&self, hex: Hex) -> bool {
        matches!(self.class(hex), Class::Street) || self.is_wall_or_tower(hex)
    }

    /// The nationality of a camp hex.
    pub fn camp(&self, hex: Hex) -> Option<Nationality> {
        self.camps.get(hex).copied()
    }

    /// Every camp hex, with its nationality.
    pub fn camps(&self) -> impl Iterator<Item = (Hex, Nationality)> + '_ {
        self.camps.iter().map(|(h, n)| (h, *n))
    }

    /// Whether the hexside between two adjacent hexes is all-sea (6.12).
    pub fn all_sea_between(&self, a: Hex, b: Hex) -> bool {
        match (a.direction_to(b), self.all_sea_sides.get(a)) {
            (Some(d), Some(bits)) => bits & 1 << d.index() != 0,
            _ => Hexside::between(a, b).is_some_and(|s| self.all_sea.contains(&s)),
        }
    }

    /// A named area's hexes (empty if unknown).
    pub fn area(&self, name: &str) -> &[Hex] {
        self.areas.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The hex of grid index `i` ([`Map::index`]; `i` below the grid's length).
    pub fn hex_at_index(&self, i: usize) -> Hex {
        self.hex_at[i]
    }

    /// The grid indices of the neighbours on the map of the hex of grid index `i`, in
    /// [`Map::neighbours`]' order, read from a table.
    pub fn neighbour_indices(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbour_at[i]
            .iter()
            .take_while(|&&n| n != u32::MAX)
            .map(|&n| n as usize)
    }

    /// The Wall and Tower hexes, in the grid's order.
    pub fn walls_and_towers(&self) -> &[Hex] {
        &self.walls_and_towers
    }

    /// The hexes of every class in `classes`, in the grid's order.
    pub fn hexes_of(&self, classes: &[Class]) -> Vec<Hex> {
        self.grid
            .hexes()
            .filter(|h| classes.contains(&self.class(*h)))
            .collect()
    }

    /// The ground "between the outerworks and the foss" (5.16, 5.17, 12.23, 17.0): every hex
    /// reached from a foss hex without crossing the outerworks, the walls or the sea, with the
    /// foss and the outerworks hexes that bound it (rules-notes: "between").
    pub fn between_outerworks_and_foss(&self) -> BTreeSet<Hex> {
        self.between.clone()
    }

    /// Whether the hex lies [between the outerworks and the
    /// foss](Map::between_outerworks_and_foss).
    pub fn is_between(&self, hex: Hex) -> bool {
        self.between.contains(&hex)
    }

    /// [`Map::between_outerworks_and_foss`] worked out from the terrain.
    fn flood_between(&self) -> BTreeSet<Hex> {
        let mut seen: BTreeSet<Hex> = self.hexes_of(&[Class::Foss]).into_iter().collect();
        let mut stack: Vec<Hex> = seen.iter().copied().collect();
        while let Some(h) = stack.pop() {
            if self.class(h) == Class::Outerworks {
                continue;
            }
            for n in self.neighbours(h) {
                let c = self.class(n);
                if !seen.contains(&n)
                    && !matches!(c, Class::Sea | Class::Wall | Class::Tower | Class::Street)
                {
                    seen.insert(n);
                    stack.push(n);
                }
            }
        }
        seen
    }

    /// The distance in hexes from `hex` to the nearest hex of one of `classes`.
    pub fn distance_to(&self, hex: Hex, classes: &[Class]) -> Option<u32> {
        let known = self.near.iter().find(|(c, _)| c == classes);
        if let Some(&d) = known.and_then(|(_, near)| near.get(hex)) {
            return d;
        }
        self.grid
            .hexes()
            .filter(|h| classes.contains(&self.class(*h)))
            .map(|h| h.distance(hex))
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexgrid::Direction;

    /// The tables worked out once (classes, all-sea sides) answer as the terrain and the
    /// all-sea hexsides they come from, on the map and off it.
    /// The distances kept for every hex are those measured hex by hex, on the map and off it,
    /// and the ground kept between the outerworks and the foss is the one flooded afresh.
    #[test]
    fn the_kept_distances_and_ground_agree_with_the_plain_measure() {
        let r = crate::Rules::load(&crate::builtin_data()).unwrap();
        let m = &r.map;
        assert_eq!(m.between_outerworks_and_foss(), m.flood_between());
        assert!(m
            .grid
            .hexes()
            .all(|h| m.is_between(h) == m.flood_between().contains(&h)));
        let off = m
            .grid
            .hexes()
            .flat_map(|h| h.neighbours())
            .filter(|n| !m.on_map(*n));
        for h in m.grid.hexes().chain(off) {
            for classes in NEAR {
                let plain = m
                    .grid
                    .hexes()
                    .filter(|x| classes.contains(&m.class(*x)))
                    .map(|x| x.distance(h))
                    .min();
                assert_eq!(m.distance_to(h, classes), plain, "{}", m.id(h));
                assert!(plain.is_some());
            }
        }
    }

    #[test]
    fn the_tables_agree_with_the_terrain_and_the_hexsides() {
        let r = crate::Rules::load(&crate::builtin_data()).unwrap();
        let m = &r.map;
        let mut sea_sides = 0;
        let mut edge = Vec::new();
        for h in m.grid.hexes() {
            assert_eq!(m.class(h), m.terrain(h).class);
            for d in Direction::ALL {
                let n = h.neighbour(d);
                let plain = Hexside::between(h, n).is_some_and(|s| m.all_sea.contains(&s));
                assert_eq!(m.all_sea_between(h, n), plain, "{} {d:?}", m.id(h));
                assert_eq!(
                    m.all_sea_between(n, h),
                    Hexside::between(n, h).is_some_and(|s| m.all_sea.contains(&s))
                );
                sea_sides += usize::from(plain);
                if !m.on_map(n) {
                    edge.push(n);
                }
            }
            // Hexes not adjacent have no hexside between them.
            assert!(!m.all_sea_between(h, h));
        }
        assert!(
            sea_sides > 0,
            "the harbour mouth has all-sea hexsides (6.12)"
        );
        assert!(!edge.is_empty());
        for n in edge {
            assert_eq!(m.class(n), Class::Sea, "off the map is sea");
        }
    }
}
