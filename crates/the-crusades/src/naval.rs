//! Naval Rules (12.0): fleet movement (10 sea hexes, 5 in winter), where a fleet may end,
//! blockade, naval combat with the differential and the attacker's bonuses, retreats,
//! transport capacity, debarkation and its losses, winter limits, and fleets lost to winter
//! weather and returning in March (12.6).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use engine::{Event, Log, RollRecord};
use hexgrid::HexId;

use crate::attrition::{spread_loss, Sharing};
use crate::combat::loss_asps;
use crate::map::{Map, Place, SeaReach, SeaRoutes};
use crate::orders::{FleetOrder, Path};
use crate::scenario::Side;
use crate::state::{FleetStatus, State, Status};
use crate::tables::Loss;

/// The Crusades 12.2.1: a fleet's movement allowance: 10 sea hexes, 5 in winter.
pub fn allowance(state: &State) -> u32 {
    if state.turn_info().winter {
        5
    } else {
        10
    }
}

/// The Crusades 12.5.1-12.5.2: ASPs a fleet of `strength` NSPs carries: 10 for 2, 5 for 1.
pub fn capacity(strength: u8) -> u16 {
    u16::from(strength) * 5
}

/// The Crusades 12.4.2 C, 12.4.3: the Naval Combat Differential with the attacker's bonus
/// (+1 at double strength, +2 at triple).
pub fn differential(attacker: u32, defender: u32) -> u32 {
    let base = attacker.saturating_sub(defender);
    let bonus = if attacker >= 3 * defender {
        2
    } else if attacker >= 2 * defender {
        1
    } else {
        0
    };
    base + bonus
}

/// The Crusades 12.2.3, 12.2.6, 15.0 F: whether `hex` is a friendly port for `side`'s
/// fleets: a port its land forces control, or an unoccupied neutral port.
pub fn friendly_port(state: &State, side: Side, hex: HexId) -> bool {
    state
        .scenario
        .map
        .site_at(hex)
        .is_some_and(|site| friendly_port_site(state, side, site))
}

/// [`friendly_port`] for the city or castle `site`.
pub fn friendly_port_site(state: &State, side: Side, site: usize) -> bool {
    state.scenario.map.sites[site].port
        && (state.sites[site].control == Some(side)
            || (state.sites[site].control.is_none() && state.occupier(site).is_none()))
}

/// Every hex a fleet in `from` reaches within its allowance, with the canonical path. Only
/// the map and the season decide it (blockades act when fleets move, [`move_fleets`]), so
/// each search is made once per scenario and remembered ([`Map::sea_routes`]); [`search`]
/// is the plain search.
pub fn reachable(state: &State, from: HexId) -> SeaRoutes {
    reach(state, from).routes.clone()
}

/// [`reachable`] with its landfalls ([`SeaReach`]), remembered alike.
pub fn reach(state: &State, from: HexId) -> Arc<SeaReach> {
    let map = &state.scenario.map;
    let budget = allowance(state);
    let fresh = || Arc::new(SeaReach::new(map, search(map, from, budget)));
    match map.sea_routes(from, budget) {
        Some(slot) => slot.get_or_init(fresh).clone(),
        None => fresh(),
    }
}

/// [`reach`], borrowed from the remembered routes where the allowance is one of the game's:
/// listing the orders then touches no count shared with the games on other threads.
pub(crate) fn reach_from(state: &State, from: HexId) -> std::borrow::Cow<'_, SeaReach> {
    let map = &state.scenario.map;
    let budget = allowance(state);
    let fresh = || Arc::new(SeaReach::new(map, search(map, from, budget)));
    match map.sea_routes(from, budget) {
        Some(slot) => std::borrow::Cow::Borrowed(slot.get_or_init(fresh)),
        None => std::borrow::Cow::Owned(SeaReach::new(map, search(map, from, budget))),
    }
}

/// The search behind [`reachable`], made afresh: every hex within `budget` sea moves of
/// `from` (12.2.2).
pub fn search(map: &Map, from: HexId, budget: u32) -> SeaRoutes {
    let r = hexgrid::search(
        from,
        budget,
        |h, out| {
            for &(n, _) in map.near(*h) {
                if map.sea_crossing(*h, n) {
                    out.push((n, 1));
                }
            }
        },
        |_| true,
    );
    // Every hex of an allowance of the game's has a path of at most 10 steps ([`Path::MAX`]).
    let mut out: Vec<(HexId, Path<HexId>)> = r
        .iter()
        .filter(|x| x.0 != from)
        .filter_map(|x| Some((x.0, Path::new(&r.path_to(&x.0)[1..])?)))
        .collect();
    out.sort_by_key(|x| x.0);
    out.into()
}

/// Checks a written fleet path: each step across a hexside that is not all-land (12.2.2),
/// within the allowance (12.2.1).
pub fn check_path(state: &State, from: HexId, path: &[HexId]) -> Result<(), String> {
    let map = &state.scenario.map;
    if path.len() as u32 > allowance(state) {
        return Err(format!(
            "a fleet moves at most {} hexes this turn (12.2.1)",
            allowance(state)
        ));
    }
    let mut at = from;
    for &h in path {
        if !map.sea_crossing(at, h) {
            return Err(format!("a fleet cannot sail from {at} to {h} (12.2.2)"));
        }
        at = h;
    }
    Ok(())
}

/// The Crusades 12.5.5 B, E: whether troops may be landed at `hex` this turn.
pub fn may_land(state: &State, hex: HexId) -> bool {
    let map = &state.scenario.map;
    map.is_land(hex)
        && (!state.turn_info().winter || map.site_at(hex).is_some_and(|s| map.sites[s].sheltered))
}

fn roll(
    purpose: String,
    dice: Vec<u8>,
    bonus: i32,
    cell: Option<String>,
    result: String,
) -> RollRecord {
    crate::tables::roll_record(
        purpose,
        dice,
        ("not a friendly port (12.5.5 D)", bonus),
        cell,
        result,
    )
}

/// What the fleets did this turn, for the end-of-phase check (12.2.3).
#[derive(Clone, Debug, Default)]
pub struct NavalTurn {
    /// Fleets that landed troops in their hex.
    pub landed: BTreeSet<usize>,
    /// Fleets that fought.
    pub fought: BTreeSet<usize>,
}

/// The Crusades 12.2, 12.2.5, 12.3.4, 12.5.3-12.5.4, 12.5.6: moves every fleet as ordered; a
/// fleet passes through enemy fleets but stops on entering a hex the enemy blockades (a
/// blockade controls only its own hex, 12.1.2). Cargo named in a transport order boards first.
pub fn move_fleets(state: &mut State, log: &mut Log) {
    let orders: Vec<(Side, usize, FleetOrder)> = [Side::Crusaders, Side::Saracens]
        .into_iter()
        .flat_map(|s| {
            state
                .book(s)
                .fleets
                .iter()
                .map(move |(f, o)| (s, *f, o.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    // 12.3.2: a blockade is set by a fleet that does not move.
    for (i, f) in state.fleets.iter_mut().enumerate() {
        let order = orders.iter().find(|o| o.1 == i).map(|o| &o.2);
        f.blockade = f.status == FleetStatus::Active && matches!(order, Some(FleetOrder::Blockade));
    }
    let blockades: Vec<(Side, HexId)> = state
        .fleets
        .iter()
        .enumerate()
        .filter(|(_, f)| f.blockade)
        .filter_map(|(i, f)| Some((state.scenario.fleets[i].side, f.hex?)))
        .collect();
    for (side, f, order) in orders {
        if state.fleets[f].status != FleetStatus::Active {
            continue;
        }
        let path = match &order {
            FleetOrder::Transport { cargo, path } => {
                for &l in cargo {
                    if state.leaders[l].status == Status::Active {
                        state.leaders[l].status = Status::Aboard(f);
                        state.leaders[l].place = None;
                    }
                }
                *path
            }
            FleetOrder::Move { path } => *path,
            _ => continue,
        };
        let mut at = state.fleets[f].hex.unwrap_or(path[0]);
        for &h in path.iter() {
            at = h;
            if blockades.iter().any(|(s, bh)| s.enemy_of(side) && *bh == h) {
                let id = state.scenario.fleets[f].id.clone();
                log.push_with(|| {
                    Event::public(
                        "The Crusades 12.3.4",
                        format!("{id} stops at the blockade in {h}"),
                    )
                });
                break;
            }
        }
        state.fleets[f].hex = Some(at);
    }
}

/// The Crusades 12.4.1-12.4.2, 12.6.3: naval combat in every hex where opposing fleets end
/// their movement, weather aside; fleets fight without leaders (12.1.3).
pub fn naval_combat(state: &mut State, log: &mut Log, turn: &mut NavalTurn) {
    let mut hexes: BTreeMap<HexId, BTreeSet<Side>> = BTreeMap::new();
    for (i, f) in state.fleets.iter().enumerate() {
        if let (FleetStatus::Active, Some(h)) = (f.status, f.hex) {
            hexes
                .entry(h)
                .or_default()
                .insert(state.scenario.fleets[i].side);
        }
    }
    for (hex, sides) in hexes {
        if sides.len() < 2 {
            continue;
        }
        let a = state.fleets_at(Side::Crusaders, hex);
        let b = state.fleets_at(Side::Saracens, hex);
        if a.is_empty() || b.is_empty() {
            continue;
        }
        turn.fought.extend(a.iter().chain(&b));
        let nsp = |s: &State, fs: &[usize]| {
            fs.iter()
                .map(|&f| u32::from(s.fleets[f].strength))
                .sum::<u32>()
        };
        let (na, nb) = (nsp(state, &a), nsp(state, &b));
        // 12.4.2 B: the side with more NSPs attacks; a die decides a tie.
        let mut tie = None;
        let a_attacks = match na.cmp(&nb) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => {
                let d = state.dice.d6();
                tie = Some(d);
                d >= 4
            }
        };
        let (att, def, natt, ndef, att_side, def_side) = if a_attacks {
            (a, b, na, nb, Side::Crusaders, Side::Saracens)
        } else {
            (b, a, nb, na, Side::Saracens, Side::Crusaders)
        };
        let diff = differential(natt, ndef);
        let d = state.dice.d6();
        let (ra, rd) = state.scenario.tables.naval_result(d, diff);
        log.push_with(|| {
            let mut e = Event::public(
                "The Crusades 12.4",
                format!(
                    "naval battle in {hex}: {} {natt} NSPs attack {} {ndef}: {}/{}",
                    att_side.name(),
                    def_side.name(),
                    ra.text(),
                    rd.text()
                ),
            );
            if let Some(t) = tie {
                e = e.with_roll(roll(
                    "equal fleets: attacker".into(),
                    vec![t],
                    0,
                    None,
                    String::new(),
                ));
            }
            e.with_roll(roll(
                "Naval Combat Results Table".into(),
                vec![d],
                0,
                Some(format!("differential {diff}")),
                format!("{}/{}", ra.text(), rd.text()),
            ))
        });
        for (fs, total, r) in [(&att, natt, ra), (&def, ndef, rd)] {
            let lost = match r.loss {
                Loss::Percent(_) => loss_asps(r.loss, total as u16, 0),
                _ => 0,
            };
            lose_nsps(state, log, fs, lost);
            if r.retreat > 0 {
                for &f in fs.iter() {
                    if state.fleets[f].status == FleetStatus::Active {
                        naval_retreat(state, log, f);
                    }
                }
            }
        }
    }
}

/// The Crusades 12.4.5 B, 12.1.1, 12.5.8: NSP losses, full fleets reduced first; cargo beyond
/// what the remaining NSPs carry is lost.
fn lose_nsps(state: &mut State, log: &mut Log, fleets: &[usize], mut lost: u16) {
    while lost > 0 {
        let Some(&f) = fleets
            .iter()
            .filter(|&&f| state.fleets[f].status == FleetStatus::Active)
            .max_by_key(|&&f| (state.fleets[f].strength, std::cmp::Reverse(f)))
        else {
            break;
        };
        state.fleets[f].strength -= 1;
        lost -= 1;
        if state.fleets[f].strength == 0 {
            sink(state, log, f, "lost in battle (12.1.1 C)");
        }
    }
    for &f in fleets {
        if state.fleets[f].status != FleetStatus::Active {
            continue;
        }
        let cap = capacity(state.fleets[f].strength);
        let cargo = aboard(state, f);
        let carried: u16 = cargo.iter().map(|&l| state.leaders[l].asps).sum();
        if carried > cap {
            let side = state.scenario.fleets[f].side;
            spread_loss(state, &cargo, side, None, carried - cap, Sharing::Attrition);
        }
    }
}

/// Leaders aboard a fleet.
pub fn aboard(state: &State, fleet: usize) -> Vec<usize> {
    state
        .leaders
        .iter()
        .enumerate()
        .filter(|(_, l)| l.status == Status::Aboard(fleet))
        .map(|(i, _)| i)
        .collect()
}

/// Whether any leader is aboard a fleet ([`aboard`] not empty).
pub fn carrying(state: &State, fleet: usize) -> bool {
    state
        .leaders
        .iter()
        .any(|l| l.status == Status::Aboard(fleet))
}

/// Eliminates a fleet; leaders aboard are lost with it.
pub fn sink(state: &mut State, log: &mut Log, f: usize, why: &str) {
    state.fleets[f].status = FleetStatus::Sunk;
    state.fleets[f].hex = None;
    state.fleets[f].blockade = false;
    for l in aboard(state, f) {
        let side = state.side_of(l);
        if let Some(slot) = side.seat() {
            state.losses[slot.index()] += u32::from(state.leaders[l].asps);
        }
        state.leaders[l].asps = 0;
        state.leaders[l].status = Status::Dead;
    }
    let id = state.scenario.fleets[f].id.clone();
    log.push_with(|| Event::public("The Crusades 12.2.4", format!("{id} {why}")));
}

/// The Crusades 12.4.6: a fleet retreats to the nearest friendly port within its allowance
/// (never through an enemy blockade), or is eliminated.
fn naval_retreat(state: &mut State, log: &mut Log, f: usize) {
    let side = state.scenario.fleets[f].side;
    let Some(from) = state.fleets[f].hex else {
        return;
    };
    let blockaded: BTreeSet<HexId> = state
        .fleets
        .iter()
        .enumerate()
        .filter(|(i, x)| {
            x.blockade
                && x.status == FleetStatus::Active
                && state.scenario.fleets[*i].side.enemy_of(side)
        })
        .filter_map(|(_, x)| x.hex)
        .collect();
    let best = reachable(state, from)
        .iter()
        .filter(|(h, p)| friendly_port(state, side, *h) && !p.iter().any(|x| blockaded.contains(x)))
        .min_by_key(|(h, p)| (p.len(), *h))
        .map(|(h, _)| *h);
    match best {
        Some(h) => {
            state.fleets[f].hex = Some(h);
            state.fleets[f].blockade = false;
            let id = state.scenario.fleets[f].id.clone();
            log.push_with(|| Event::public("The Crusades 12.4.6", format!("{id} retreats to {h}")));
        }
        None => sink(state, log, f, "cannot retreat and is lost (12.4.6 C)"),
    }
}

/// The Crusades 12.5.4-12.5.5, 10.4.7 A: every fleet ending in a land hex lands its cargo in
/// that hex (troops may not move again this turn): inside a port city its side holds, up to
/// the city's capacity, otherwise outside; outside the sheltered ports a die of 5 or
/// 6 (+1 off a friendly port) costs 10% of the ASPs, rounded up.
pub fn debark(state: &mut State, log: &mut Log, turn: &mut NavalTurn) {
    for f in 0..state.fleets.len() {
        if state.fleets[f].status != FleetStatus::Active {
            continue;
        }
        let Some(hex) = state.fleets[f].hex else {
            continue;
        };
        let cargo = aboard(state, f);
        if cargo.is_empty() || !may_land(state, hex) {
            continue;
        }
        let side = state.scenario.fleets[f].side;
        // 10.4.7 A: in a port its side holds (besieged or not) the troops land inside the
        // city, regarrisoning it, up to its capacity (6.3.2); the rest land outside.
        let map = &state.scenario.map;
        let held = map.site_at(hex).filter(|&s| {
            map.sites[s].port
                && state.sites[s].control == Some(side)
                && state.occupier(s).is_none_or(|o| o == side)
        });
        let cap = held.map_or(0, |s| {
            let site = &map.sites[s];
            state.scenario.tables.capacity(site.castle, site.level)
        });
        for &l in &cargo {
            let inside = Place::inside(hex);
            let fits = held.is_some() && state.asps_at(side, inside) + state.leaders[l].asps <= cap;
            state.leaders[l].status = Status::Active;
            state.leaders[l].place = Some(if fits { inside } else { Place::outside(hex) });
            state.leaders[l].moved = true;
            state.leaders[l].landed_from = (!fits).then_some(f);
        }
        turn.landed.insert(f);
        let map = &state.scenario.map;
        let sheltered = map.site_at(hex).is_some_and(|s| map.sites[s].sheltered);
        let id = state.scenario.fleets[f].id.clone();
        if sheltered {
            log.push_with(|| {
                Event::public(
                    "The Crusades 12.5.4",
                    format!("{id} lands its troops in {hex}"),
                )
            });
            continue;
        }
        let bonus = i32::from(!friendly_port(state, side, hex));
        let d = state.dice.d6();
        let asps: u16 = cargo.iter().map(|&l| state.leaders[l].asps).sum();
        let lost = if i32::from(d) + bonus >= 5 {
            let n = u32::from(asps).div_ceil(10) as u16;
            spread_loss(state, &cargo, side, None, n, Sharing::Attrition)
        } else {
            0
        };
        log.push_with(|| {
            Event::public(
                "The Crusades 12.5.5",
                format!("{id} lands its troops in {hex}: {lost} ASPs lost"),
            )
            .with_roll(roll(
                "debarkation".into(),
                vec![d],
                bonus,
                Some("1-4 no effect, 5-6 10% lost".into()),
                lost.to_string(),
            ))
        });
    }
}

/// The Crusades 12.2.3-12.2.4: a fleet must end in a friendly port, on blockade, or in a
/// coastal hex where it landed troops or fought; any other fleet is eliminated.
pub fn end_of_movement(state: &mut State, log: &mut Log, turn: &NavalTurn) {
    for f in 0..state.fleets.len() {
        let fl = &state.fleets[f];
        if fl.status != FleetStatus::Active {
            continue;
        }
        let Some(hex) = fl.hex else { continue };
        let side = state.scenario.fleets[f].side;
        let coastal = state.scenario.map.is_coastal(hex);
        let ok = friendly_port(state, side, hex)
            || (fl.blockade && coastal)
            || (coastal && (turn.landed.contains(&f) || turn.fought.contains(&f)));
        if !ok {
            sink(
                state,
                log,
                f,
                "ends its movement outside any friendly port and is lost (12.2.4)",
            );
        }
    }
}

/// The Crusades 12.6.1: in the Random Events Phase of November and winter turns, each
/// Crusader fleet is removed from the game on a die of 1-3.
pub fn winter_removal(state: &mut State, log: &mut Log) {
    if !state
        .scenario
        .fleet_winter_months
        .contains(&state.turn_info().month)
    {
        return;
    }
    for f in 0..state.fleets.len() {
        if state.fleets[f].status != FleetStatus::Active
            || state.scenario.fleets[f].side != Side::Crusaders
        {
            continue;
        }
        let d = state.dice.d6();
        let id = state.scenario.fleets[f].id.clone();
        if d <= 3 {
            for l in aboard(state, f) {
                state.leaders[l].status = Status::Dead;
            }
            state.fleets[f].status = FleetStatus::Removed;
            state.fleets[f].hex = None;
            state.fleets[f].blockade = false;
        }
        log.push_with(|| {
            Event::public(
                "The Crusades 12.6.1",
                format!(
                    "{id}: {}",
                    if d <= 3 {
                        "removed by winter storms"
                    } else {
                        "weathers the storms"
                    }
                ),
            )
            .with_roll(roll(
                format!("winter weather for {id}"),
                vec![d],
                0,
                Some("1-3 removed, 4-6 no effect".into()),
                String::new(),
            ))
        });
    }
}

/// The Crusades 12.6.2: in March II every removed Crusader fleet returns at the first of the
/// return ports the Crusaders control (else the last).
pub fn winter_return(state: &mut State, log: &mut Log) {
    if state.scenario.fleet_return_turn != Some(state.turn) {
        return;
    }
    let ports = state.scenario.fleet_return_ports.clone();
    let Some(&last) = ports.last() else { return };
    let site = ports
        .iter()
        .copied()
        .find(|&p| state.friendly_site(p, Side::Crusaders))
        .unwrap_or(last);
    let hex = state.scenario.map.sites[site].hex;
    for f in &mut state.fleets {
        if f.status == FleetStatus::Removed {
            f.status = FleetStatus::Active;
            f.hex = Some(hex);
        }
    }
    log.push_with(|| {
        Event::public(
            "The Crusades 12.6.2",
            format!("the Crusader fleets removed by winter return at {hex}"),
        )
    });
}
