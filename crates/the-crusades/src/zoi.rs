//! Zones of Influence (7.0): which hexes each side influences, from occupied cities and
//! castles and from forces ordered to Defend, and how they stop movement (7.2.2), block lines
//! of communication (7.2.1) and retreats (7.2.7).

use std::collections::BTreeMap;

use hexgrid::HexId;

use crate::map::{Feature, Place};
use crate::orders::Order;
use crate::scenario::Side;
use crate::state::{Sides, State, Status};

/// Who influences a hex: the side, and the city or castle whose force exerts it (`None` for
/// a force with a Defend order in the open).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source {
    /// The influencing side.
    pub side: Side,
    /// The city or castle the influence comes from.
    pub site: Option<usize>,
}

/// The zones of influence in force.
#[derive(Clone, Debug, Default)]
pub struct Zones {
    by_hex: BTreeMap<HexId, Vec<Source>>,
    /// The sides influencing each hex, by the grid's dense index (for lines of
    /// communication, which ask it at every step); empty unless computed.
    sides: Vec<Sides>,
}

impl Zones {
    /// The Crusades 7.0, 7.1: zones exerted at the start of the Movement Phase by forces
    /// that do not leave their place this turn. `staying(leader)` says whether a leader
    /// stays; `defending` lists the places of forces of 5+ ASPs ordered to Defend.
    pub fn compute(
        state: &State,
        staying: &dyn Fn(usize) -> bool,
        defending: &[(Side, Place)],
    ) -> Zones {
        let map = &state.scenario.map;
        let rain = state.turn_info().rain;
        let mut z = Zones::default();
        for (si, site) in map.sites.iter().enumerate() {
            let inside = Place::inside(site.hex);
            // 7.1 A, 8.0 I: forces, and ASPs without leaders, exert a ZOI; a castle's
            // inherent garrison does not (10.2.3).
            let mut sides: Vec<Side> = state
                .leaders_at(inside)
                .filter(|&l| staying(l))
                .map(|l| state.side_of(l))
                .chain(
                    state
                        .garrisons
                        .iter()
                        .filter(|g| g.place == inside && g.asps > 0)
                        .map(|g| g.side),
                )
                .collect();
            sides.sort();
            sides.dedup();
            for side in sides {
                // 7.2.9 C: a force under siege exerts no ZOI at all.
                if state.under_siege(si) {
                    continue;
                }
                // 15.0 G: unwoken neutrals influence only their own city.
                let neutral = state
                    .side_leaders_at(side, inside)
                    .iter()
                    .all(|&l| state.leaders[l].neutral)
                    && state.garrison_at(side, inside) == 0
                    && !state.side_leaders_at(side, inside).is_empty();
                let src = Source {
                    side,
                    site: Some(si),
                };
                if neutral {
                    continue;
                }
                z.add(site.hex, src);
                // 7.1 B: level 2-4 cities and every castle reach the six adjacent hexes.
                if site.castle || site.level >= 2 {
                    for n in map.neighbours(site.hex) {
                        if zoi_crosses(state, site.hex, n, rain) {
                            z.add(n, src);
                        }
                    }
                }
            }
        }
        for &(side, place) in defending {
            z.add(place.hex, Source { side, site: None });
        }
        z.sides = vec![Sides::default(); map.grid.len()];
        for (&hex, sources) in &z.by_hex {
            if let Some(i) = map.grid.index_of_id(hex) {
                for s in sources {
                    z.sides[i].insert(s.side);
                }
            }
        }
        z
    }

    /// [`Zones::enemy_of`] for the hex `hex` at the grid's dense index `index`.
    pub fn enemy_of_at(&self, side: Side, hex: HexId, index: usize) -> bool {
        match self.sides.get(index) {
            Some(sides) => sides.any_enemy_of(side),
            None => self.enemy_of(side, hex),
        }
    }

    fn add(&mut self, hex: HexId, src: Source) {
        let v = self.by_hex.entry(hex).or_default();
        if !v.contains(&src) {
            v.push(src);
        }
    }

    /// The sources influencing `hex`.
    pub fn at(&self, hex: HexId) -> &[Source] {
        self.by_hex.get(&hex).map_or(&[], Vec::as_slice)
    }

    /// Whether an enemy of `side` influences `hex` (7.2.4: both sides may influence one hex;
    /// 7.2.5, 7.2.8: friendly and multiple zones add nothing; 7.2.6: fleets have none).
    pub fn enemy_of(&self, side: Side, hex: HexId) -> bool {
        self.at(hex).iter().any(|s| s.side.enemy_of(side))
    }
}

/// The Crusades 7.1 D: a ZOI does not extend through mountain, blocked, lake or all-sea
/// hexsides, nor through rivers in rain months.
fn zoi_crosses(state: &State, a: HexId, b: HexId, rain: bool) -> bool {
    let map = &state.scenario.map;
    map.is_land(b)
        && match map.feature(a, b) {
            Some(Feature::Mountain | Feature::Blocked) => false,
            Some(Feature::River) => !rain,
            None => true,
        }
}

/// The Crusades 5.4, 7.1 B: the places of forces of at least 5 ASPs with a Defend order,
/// outside cities, by side.
pub fn defending(state: &State) -> Vec<(Side, Place)> {
    let mut by_place: BTreeMap<(Side, Place), u16> = BTreeMap::new();
    for side in [Side::Crusaders, Side::Saracens] {
        let book = state.book(side);
        for (i, l) in state.leaders.iter().enumerate() {
            if l.status != Status::Active || state.side_of(i) != side {
                continue;
            }
            if let (Some(p), Order::Defend) = (l.place, book.effective(i)) {
                if !p.inside {
                    *by_place.entry((side, p)).or_default() += l.asps;
                }
            }
        }
    }
    by_place
        .into_iter()
        .filter(|(_, asps)| *asps >= 5)
        .map(|(k, _)| k)
        .collect()
}
