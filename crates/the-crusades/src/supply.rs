//! Lines of Communication (11.0): supply sources by side, tracing a line through land hexes
//! clear of mountain, blocked and all-sea hexsides and of enemy ZOIs (unless a friendly force
//! stands there), with the barren-hex limits, across rivers only outside rain turns, and by
//! fleet from a coastal hex.

use std::collections::{BTreeSet, VecDeque};

use hexgrid::HexId;

use crate::map::{Place, Terrain};
use crate::scenario::Side;
use crate::state::State;
use crate::zoi::Zones;

/// The Saracen supply cities (11.1.3 B).
pub const SARACEN_SOURCES: [&str; 4] = ["Damascus", "Cairo", "Jerusalem", "Aleppo"];

/// The Crusades 11.1.3, 11.1.4, 12.3.3: the hexes of `side`'s supply sources: for the
/// Crusaders every friendly port not blockaded by enemy fleets; for the Saracens Damascus,
/// Cairo, Jerusalem and Aleppo while they control them.
pub fn sources(state: &State, side: Side) -> BTreeSet<HexId> {
    let map = &state.scenario.map;
    map.sites
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            state.friendly_site(*i, side)
                && match side {
                    Side::Saracens => SARACEN_SOURCES.contains(&s.name.as_str()),
                    _ => s.port && !state.blockaded_against(side, s.hex),
                }
        })
        .map(|(_, s)| s.hex)
        .collect()
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
    let srcs = sources(state, side);
    if srcs.contains(&place.hex) {
        return true;
    }
    if by_fleet(state, side, place.hex, asps) {
        return true;
    }
    let map = &state.scenario.map;
    let rain = state.turn_info().rain;
    let limit = barren_limit(side);
    // 11.1.2 C: a friendly force negates an enemy ZOI for the line.
    let blocked = |h: HexId| {
        zones.enemy_of(side, h) && state.sides_at(Place::outside(h)).iter().all(|s| *s != side)
    };
    let run = |h: HexId, before: u8| {
        if map.terrain(h) == Terrain::Barren {
            before + 1
        } else {
            0
        }
    };
    let start = run(place.hex, 0);
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from([(place.hex, start)]);
    seen.insert((place.hex, start));
    while let Some((h, b)) = queue.pop_front() {
        for &(n, feature) in map.near(h) {
            if !map.land_crossing_with(h, n, feature, rain) {
                continue;
            }
            if srcs.contains(&n) {
                return true;
            }
            let nb = run(n, b);
            if nb > limit || blocked(n) {
                continue;
            }
            if seen.insert((n, nb)) {
                queue.push_back((n, nb));
            }
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
    sources(state, side)
        .iter()
        .any(|&p| map.distance(hex, p) <= 5)
}
