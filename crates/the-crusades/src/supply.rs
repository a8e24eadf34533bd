//! Lines of Communication (11.0): supply sources by side, tracing a line through land hexes
//! clear of mountain, blocked and all-sea hexsides and of enemy ZOIs (unless a friendly force
//! stands there), with the barren-hex limits, across rivers only outside rain turns, and by
//! fleet from a coastal hex.

use std::collections::{BTreeSet, VecDeque};

use hexgrid::HexId;

use crate::map::{Place, Terrain};
use crate::scenario::Side;
use crate::state::{FleetStatus, State};
use crate::zoi::Zones;

/// The Saracen supply cities (11.1.3 B).
pub const SARACEN_SOURCES: [&str; 4] = ["Damascus", "Cairo", "Jerusalem", "Aleppo"];

/// The Crusades 11.1.3, 11.1.4, 12.3.3: the hexes of `side`'s supply sources: for the
/// Crusaders every friendly port not blockaded by enemy fleets; for the Saracens Damascus,
/// Cairo, Jerusalem and Aleppo while they control them.
pub fn sources(state: &State, side: Side) -> BTreeSet<HexId> {
    source_hexes(state, side).collect()
}

/// [`sources`], one by one in the map's order of sites.
fn source_hexes(state: &State, side: Side) -> impl Iterator<Item = HexId> + '_ {
    let map = &state.scenario.map;
    // The hexes enemy fleets blockade ([`State::blockaded_against`]), found in one pass.
    let blockaded: Vec<HexId> = match side {
        Side::Saracens => Vec::new(),
        _ => state
            .fleets
            .iter()
            .zip(&state.scenario.fleets)
            .filter(|(f, info)| {
                f.status == FleetStatus::Active && f.blockade && info.side.enemy_of(side)
            })
            .filter_map(|(f, _)| f.hex)
            .collect(),
    };
    map.sites
        .iter()
        .enumerate()
        .filter(move |(i, s)| {
            state.friendly_site(*i, side)
                && match side {
                    Side::Saracens => SARACEN_SOURCES.contains(&s.name.as_str()),
                    _ => s.port && !blockaded.contains(&s.hex),
                }
        })
        .map(|(_, s)| s.hex)
}

/// The Crusades 11.1.6: how many barren hexes in a row a line may cross.
pub fn barren_limit(side: Side) -> u8 {
    match side {
        Side::Saracens => 3,
        _ => 2,
    }
}

/// The Crusades 11.1.1-11.1.2: whether a force of `side` with `asps` ASPs at `place` traces a Line of
/// Communications. Inside a city it always has one (11.1.9).
pub fn has_loc(state: &State, zones: &Zones, side: Side, place: Place, asps: u16) -> bool {
    if place.inside {
        return true;
    }
    let map = &state.scenario.map;
    let mut source = vec![false; map.grid.len()];
    for h in source_hexes(state, side) {
        if h == place.hex {
            return true;
        }
        if let Some(i) = map.grid.index_of_id(h) {
            source[i] = true;
        }
    }
    if by_fleet(state, side, place.hex, asps) {
        return true;
    }
    let rain = state.turn_info().rain;
    let limit = barren_limit(side);
    let Some(from) = map.grid.index_of_id(place.hex) else {
        return false;
    };
    // 11.1.2 C: a friendly force negates an enemy ZOI for the line.
    let blocked = |i: usize, h: HexId| {
        zones.enemy_of_at(side, h, i) && !state.sides_present(Place::outside(h)).contains(side)
    };
    let run = |i: usize, before: u8| {
        if map.terrain_at(i) == Terrain::Barren {
            before + 1
        } else {
            0
        }
    };
    // The search's states: a hex by the grid's dense index, with the barren hexes crossed
    // in a row to reach it (0..=limit), seen as the bits of a byte by hex.
    let start = run(from, 0);
    let mut seen = vec![0u8; map.grid.len()];
    seen[from] |= 1 << start;
    let mut queue = VecDeque::with_capacity(64);
    queue.push_back((from, start));
    while let Some((i, b)) = queue.pop_front() {
        for &(n, id, _) in map.land_near_at(i, rain) {
            if source[n] {
                return true;
            }
            let nb = run(n, b);
            if nb > limit {
                continue;
            }
            if seen[n] & 1 << nb != 0 || blocked(n, id) {
                continue;
            }
            seen[n] |= 1 << nb;
            queue.push_back((n, nb));
        }
    }
    false
}

/// The Crusades 11.1.8: a line traced by friendly fleets in the force's coastal hex, each
/// fleet SP supplying 10 ASPs, to a friendly port within five hexes; never in winter.
pub fn by_fleet(state: &State, side: Side, hex: HexId, asps: u16) -> bool {
    if state.turn_info().winter || !state.scenario.map.is_coastal(hex) {
        return false;
    }
    let nsp: u16 = state
        .fleets_at(side, hex)
        .iter()
        .map(|&f| u16::from(state.fleets[f].strength))
        .sum();
    if nsp == 0 || nsp * 10 < asps {
        return false;
    }
    let map = &state.scenario.map;
    source_hexes(state, side).any(|p| map.distance(hex, p) <= 5)
}
