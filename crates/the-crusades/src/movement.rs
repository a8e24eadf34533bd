//! Land Movement (6.0): movement allowances, the cost of each step between hexes and city
//! mini-hexes, rivers and impassable hexsides, writing a path, and the simultaneous
//! resolution of every written move with zones of influence (7.2.2), passing through enemy
//! forces (6.1.3), entering cities (9.1, 10.3.7) and stacking inside them (6.3.2).

use crate::map::{LandRoutes, Map, Place};
use crate::orders::{Order, Path};
use crate::scenario::Side;
use crate::state::{State, Status};
use crate::zoi::Zones;

/// The Crusades 6.1.1 B, 13.1 B, 13.2.2 (normal in winter): a leader's movement allowance this turn: Crusaders (and
/// Cypriots, Armenians) 5, Saracens 6; in rain turns Saracens 3, everyone else 2.
pub fn allowance(state: &State, side: Side) -> u32 {
    match (side, state.turn_info().rain) {
        (Side::Saracens, false) => 6,
        (Side::Saracens, true) => 3,
        (_, false) => 5,
        (_, true) => 2,
    }
}

/// The Crusades 11.2.2 A, 13.1 B: how many hexes a Saracen force without a line of
/// communications may enter (2, or 1 in rain turns).
pub fn unsupplied_saracen_hexes(state: &State) -> usize {
    if state.turn_info().rain {
        1
    } else {
        2
    }
}

/// The MP cost of one step, or `None` if the step is impossible:
/// 6.1.1 C-E (1 MP a hex, +1 across a river, never across mountain or blocked hexsides),
/// 13.1 C (no river in rain), 6.2.1 A and 10.1.3 (a city or castle costs 1 MP more: entering
/// its mini-hex from its hex is a step of 1 MP; leaving it is a step of 1 MP too, the
/// mini-hex being a separate hex for movement).
pub fn step_cost(state: &State, from: Place, to: Place) -> Option<u32> {
    map_step_cost(&state.scenario.map, state.turn_info().rain, from, to)
}

/// [`step_cost`] on `map` in a turn with or without rain: the map and the weather alone
/// decide it.
fn map_step_cost(map: &Map, rain: bool, from: Place, to: Place) -> Option<u32> {
    match (from.inside, to.inside) {
        (false, false) => {
            // The hexes land units may cross to, each with whether a river is crossed.
            let i = map.grid.index_of_id(from.hex)?;
            map.land_near_at(i, rain)
                .iter()
                .find(|&&(_, n, _)| n == to.hex)
                .map(|&(_, _, river)| 1 + u32::from(river))
        }
        (false, true) | (true, false) => {
            (from.hex == to.hex && map.site_at(from.hex).is_some()).then_some(1)
        }
        (true, true) => None,
    }
}

/// The places next to `p` a land force may step to (6.3.1: no stacking limit in the open;
/// 6.1.4, 6.2.3: friendly forces and fleets never hinder a step).
pub fn steps(state: &State, p: Place) -> Vec<(Place, u32)> {
    let mut out = Vec::new();
    map_steps(&state.scenario.map, state.turn_info().rain, p, &mut out);
    out
}

/// [`steps`] on `map` in a turn with or without rain, added to `out`.
fn map_steps(map: &Map, rain: bool, p: Place, out: &mut Vec<(Place, u32)>) {
    if p.inside {
        out.push((Place::outside(p.hex), 1));
        return;
    }
    let Some(i) = map.grid.index_of_id(p.hex) else {
        return;
    };
    if map.site_at(p.hex).is_some() {
        out.push((Place::inside(p.hex), 1));
    }
    for &(_, n, river) in map.land_near_at(i, rain) {
        out.push((Place::outside(n), 1 + u32::from(river)));
    }
}

/// The cost of a written path from `start`, or why it cannot be walked.
pub fn path_cost(state: &State, start: Place, path: &[Place]) -> Result<u32, String> {
    let mut at = start;
    let mut total = 0;
    for &p in path {
        match step_cost(state, at, p) {
            Some(c) => total += c,
            None => return Err(format!("no step from {at} to {p} (6.1.1, 10.1.3, 13.1 C)")),
        }
        at = p;
    }
    Ok(total)
}

/// Every place a leader at `start` can reach within `budget` MPs, each with its canonical
/// (cheapest, first-found) path, in a stable order. Only the map and the weather decide it
/// (zones of influence and enemy forces act when moves are resolved, [`walk`]), so each
/// search is made once per scenario and remembered ([`Map::land_routes`]); [`search`] is
/// the plain search.
pub fn reachable(state: &State, start: Place, budget: u32) -> LandRoutes {
    let map = &state.scenario.map;
    let rain = state.turn_info().rain;
    match map.land_routes(start, budget, rain) {
        Some(slot) => slot
            .get_or_init(|| dense_search(map, rain, start, budget))
            .clone(),
        None => dense_search(map, rain, start, budget),
    }
}

/// [`reachable`], borrowed from the remembered routes where the budget is one of the
/// game's: listing the orders then touches no count shared with the games on other threads.
pub(crate) fn routes_from(
    state: &State,
    start: Place,
    budget: u32,
) -> std::borrow::Cow<'_, [(Place, Path<Place>)]> {
    let map = &state.scenario.map;
    let rain = state.turn_info().rain;
    match map.land_routes(start, budget, rain) {
        Some(slot) => {
            std::borrow::Cow::Borrowed(slot.get_or_init(|| dense_search(map, rain, start, budget)))
        }
        None => std::borrow::Cow::Owned(dense_search(map, rain, start, budget).to_vec()),
    }
}

/// [`search`] by the grid's dense index, behind [`reachable`]: the same search (Dijkstra's,
/// places settled by cost and then in the order they were first reached, a place's path
/// replaced only by a cheaper one, the steps from each place tried in [`steps`] order), its
/// places kept in arrays by dense index rather than a hash map and each path read back
/// without building a list. `tests/shortcuts.rs` checks it against [`search`].
pub fn dense_search(map: &Map, rain: bool, start: Place, budget: u32) -> LandRoutes {
    let Some(first) = map.grid.index_of_id(start.hex) else {
        return search(map, rain, start, budget);
    };
    /// A place reached: where, its hex's dense index, the cheapest cost found and the
    /// place it was reached from (its position in the list).
    struct Node {
        place: Place,
        hex: usize,
        cost: u32,
        from: u32,
    }
    const NONE: u32 = u32::MAX;
    let slot = |hex: usize, inside: bool| hex * 2 + usize::from(inside);
    // By place (dense index, outside and inside): its position among the nodes.
    let mut position = vec![NONE; map.grid.len() * 2];
    let mut nodes = vec![Node {
        place: start,
        hex: first,
        cost: 0,
        from: NONE,
    }];
    position[slot(first, start.inside)] = 0;
    // Keys: (cost << 32) | position, smallest first.
    let mut heap = std::collections::BinaryHeap::new();
    heap.push(std::cmp::Reverse(0u64));
    let mut next: Vec<(Place, usize, u32)> = Vec::with_capacity(8);
    while let Some(std::cmp::Reverse(key)) = heap.pop() {
        let (cost, i) = ((key >> 32) as u32, key as u32);
        let (place, hex) = (nodes[i as usize].place, nodes[i as usize].hex);
        if nodes[i as usize].cost != cost {
            continue;
        }
        // [`map_steps`], with each step's dense index.
        next.clear();
        if place.inside {
            next.push((Place::outside(place.hex), hex, 1));
        } else {
            if map.site_at(place.hex).is_some() {
                next.push((Place::inside(place.hex), hex, 1));
            }
            for &(n, id, river) in map.land_near_at(hex, rain) {
                next.push((Place::outside(id), n, 1 + u32::from(river)));
            }
        }
        for &(to, to_hex, step) in &next {
            let Some(to_cost) = cost.checked_add(step).filter(|&c| c <= budget) else {
                continue;
            };
            let at = slot(to_hex, to.inside);
            let j = match position[at] {
                NONE => {
                    position[at] = nodes.len() as u32;
                    nodes.push(Node {
                        place: to,
                        hex: to_hex,
                        cost: to_cost,
                        from: i,
                    });
                    nodes.len() as u32 - 1
                }
                j if to_cost < nodes[j as usize].cost => {
                    nodes[j as usize].cost = to_cost;
                    nodes[j as usize].from = i;
                    j
                }
                _ => continue,
            };
            heap.push(std::cmp::Reverse(u64::from(to_cost) << 32 | u64::from(j)));
        }
    }
    // Every place of a budget of the game's has a path of at most 6 steps ([`Path::MAX`]).
    // Places by dense index come in the order of places (the grid's indices are in the
    // order of the hexes, and outside before inside), so the list needs no sorting.
    let mut out: Vec<(Place, Path<Place>)> = Vec::with_capacity(nodes.len());
    let mut steps = [start; Path::<Place>::MAX];
    for &j in &position {
        if j == NONE || j == 0 {
            continue;
        }
        let node = &nodes[j as usize];
        let (mut n, mut len) = (node, 0);
        while n.from != NONE && len < steps.len() {
            steps[len] = n.place;
            len += 1;
            n = &nodes[n.from as usize];
        }
        if n.from != NONE {
            continue;
        }
        steps[..len].reverse();
        if let Some(path) = Path::new(&steps[..len]) {
            out.push((node.place, path));
        }
    }
    out.into()
}

/// The plain search behind [`reachable`] ([`dense_search`]), made afresh.
pub fn search(map: &Map, rain: bool, start: Place, budget: u32) -> LandRoutes {
    let reached = hexgrid::search(
        start,
        budget,
        |p, out| map_steps(map, rain, *p, out),
        |_| true,
    );
    // Every place of a budget of the game's has a path of at most 6 steps ([`Path::MAX`]).
    let mut out: Vec<(Place, Path<Place>)> = reached
        .iter()
        .filter(|r| r.0 != start)
        .filter_map(|r| Some((r.0, Path::new(&reached.path_to(&r.0)[1..])?)))
        .collect();
    out.sort_by_key(|(p, _)| *p);
    out.into()
}

/// Where a move ends when resolved, and whether it was cut short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveResult {
    /// The places actually entered.
    pub entered: Vec<Place>,
    /// Why it stopped early, if it did.
    pub stopped: Option<String>,
}

/// The Crusades 6.0, 7.2.2, 7.2.3, 6.1.3 B, 10.3.7, 11.2.2 A: walks a written path, stopping
/// on entering an enemy ZOI that no friendly force present at the start negates (7.2.9 A),
/// except the ZOI of the city the force means to besiege (7.2.2 B) or is leaving a siege of
/// (7.2.3); never entering a city occupied by an enemy; a Saracen force without a line of
/// communications enters at most two hexes (one in rain).
pub fn walk(
    state: &State,
    zones: &Zones,
    side: Side,
    start: Place,
    path: &[Place],
    supplied: bool,
    staying_enemy_inside: &dyn Fn(usize) -> bool,
) -> MoveResult {
    let map = &state.scenario.map;
    let target = path.last().copied();
    // 7.2.2 B: the city whose hex the move ends outside of is the one it means to besiege.
    let besieging = target
        .filter(|t| !t.inside)
        .and_then(|t| map.site_at(t.hex));
    // 7.2.3: abandoning a siege of the city in the start hex.
    let abandoning = (!start.inside).then(|| map.site_at(start.hex)).flatten();
    let mut entered = Vec::new();
    let mut hexes = 0;
    for &p in path {
        if p.inside {
            if let Some(site) = map.site_at(p.hex) {
                if staying_enemy_inside(site) {
                    return MoveResult {
                        entered,
                        stopped: Some(format!(
                            "{} is held by the enemy (10.3.7)",
                            map.sites[site].name
                        )),
                    };
                }
            }
            entered.push(p);
            continue;
        }
        if side == Side::Saracens
            && !supplied
            && p.hex != start.hex
            && hexes >= unsupplied_saracen_hexes(state)
        {
            return MoveResult {
                entered,
                stopped: Some("no line of communications: two hexes at most (11.2.2 A)".into()),
            };
        }
        entered.push(p);
        if p.hex != start.hex {
            hexes += 1;
        }
        let friendly_there = state.sides_at(p).contains(&side);
        let stops = zones.at(p.hex).iter().any(|s| {
            s.side.enemy_of(side)
                && !(s.site.is_some() && (s.site == besieging || s.site == abandoning))
        });
        if stops && !friendly_there && Some(p) != target {
            return MoveResult {
                entered,
                stopped: Some(format!(
                    "entered an enemy zone of influence in {} (7.2.2 A)",
                    p.hex
                )),
            };
        }
    }
    MoveResult {
        entered,
        stopped: None,
    }
}

/// Whether a leader's order moves him.
pub fn is_move(order: &Order) -> bool {
    matches!(order, Order::Move { .. } | Order::Sally)
}

/// Whether a leader stays where he is this turn (for zones of influence at the start of
/// movement): active, and neither moving nor carried by a fleet.
pub fn stays(state: &State, leader: usize) -> bool {
    let l = &state.leaders[leader];
    if l.status != Status::Active {
        return false;
    }
    let book = state.book(state.side_of(leader));
    !is_move(&book.effective(leader)) && book.carrier(leader).is_none()
}
