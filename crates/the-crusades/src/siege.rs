//! Sieges (10.0): siege orders and who may besiege, the 1:1 maintenance ratio, full and
//! partial sieges, automatic failure below 3-1, the Siege Assault Table with the blockade
//! modifier, the fate of the defenders and their leaders when a city falls, castles and
//! their inherent garrisons, and siege attrition with the worsening attrition level.

use engine::{Event, Log, RollRecord};

use crate::attrition::{spread_loss, Sharing};
use crate::map::{Place, Terrain};
use crate::orders::Order;
use crate::scenario::Side;
use crate::state::{Phase, State, Status, SurrenderTalk, Terms};

/// The Crusades 10.1.2, 10.4.1: the Siege Defense Strength: ASPs inside (with a castle's
/// garrison) times the Siege Defense Factor (the city's level; 3 for castles).
pub fn defense_strength(asps: u16, factor: u8) -> u32 {
    u32::from(asps) * u32::from(factor)
}

/// The Crusades 10.4.1 B, 10.3.6: the besiegers' assault strength: full, or half rounded up
/// in a partial siege.
pub fn assault_strength(asps: u16, full: bool) -> u32 {
    if full {
        u32::from(asps)
    } else {
        u32::from(asps).div_ceil(2)
    }
}

/// The Crusades 10.4.1 C, 10.4.3: the Siege Assault Ratio in whole odds, rounded down (a
/// defender of no strength gives the best odds).
pub fn assault_ratio(attack: u32, defense: u32) -> u32 {
    attack.checked_div(defense).unwrap_or(u32::MAX)
}

fn roll(purpose: String, dice: Vec<u8>, bonus: i32, cell: String, result: String) -> RollRecord {
    crate::tables::roll_record(
        purpose,
        dice,
        ("blockade (10.4.8)", bonus),
        Some(cell),
        result,
    )
}

/// A siege in force this turn at one city or castle.
struct Siege {
    att: Side,
    def: Side,
    besiegers: Vec<usize>,
    full: bool,
    att_asps: u16,
    def_asps: u16,
}

/// The Crusades 10.3.1, 10.3.4, 10.1.1: the siege ordered this turn at site `si`, if any: a
/// siege order, not moved this turn, not disrupted, outside an enemy-held city or castle.
/// Resets the worsened attrition level of a hex no longer besieged (10.5.5).
fn siege_at(state: &mut State, log: &mut Log, si: usize) -> Option<Siege> {
    let site = state.scenario.map.sites[si].clone();
    let outside = Place::outside(site.hex);
    let inside = Place::inside(site.hex);
    let Some(def) = state.occupier(si) else {
        state.sites[si].worse = 0;
        return None;
    };
    let Some(att) = [Side::Crusaders, Side::Saracens].into_iter().find(|s| {
        s.enemy_of(def)
            && state.side_leaders_at(*s, outside).iter().any(|&l| {
                matches!(
                    state.book(*s).effective(l),
                    Order::FullSiege | Order::PartialSiege
                )
            })
    }) else {
        // 10.5.5: an abandoned siege lets the hex revert.
        state.sites[si].worse = 0;
        return None;
    };
    let book = state.book(att).clone();
    let besiegers: Vec<usize> = state
        .side_leaders_at(att, outside)
        .into_iter()
        .filter(|&l| {
            matches!(book.effective(l), Order::FullSiege | Order::PartialSiege)
                && !state.leaders[l].moved
                && !state.leaders[l].disrupted
        })
        .collect();
    if besiegers.is_empty() {
        return None;
    }
    crate::neutrals::wake_if_attacked(state, log, &besiegers, &state.side_leaders_at(def, inside));
    let full = besiegers
        .iter()
        .any(|&l| book.effective(l) == Order::FullSiege);
    let att_asps: u16 = besiegers.iter().map(|&l| state.leaders[l].asps).sum();
    let garrison =
        u16::from(state.sites[si].castle_garrison && state.sites[si].control == Some(def));
    let def_asps: u16 = state
        .side_leaders_at(def, inside)
        .iter()
        .map(|&l| state.leaders[l].asps)
        .sum::<u16>()
        + state.garrison_at(def, inside)
        + garrison;
    Some(Siege {
        att,
        def,
        besiegers,
        full,
        att_asps,
        def_asps,
    })
}

/// The Crusades 10.3.1, 10.4, 10.4.2, 10.4.6, 10.5.1: resolves the sieges ordered this turn,
/// city by city from [`State::siege_next`]: a siege that cannot be maintained (10.3.5);
/// otherwise the besieger asks for surrender (10.4.2) and, if refused, assaults, and after a
/// failed assault both sides suffer siege attrition. Returns `true` when it stops for a
/// decision about surrender (the phase is then set; the decision resumes it).
pub fn siege_phase(state: &mut State, log: &mut Log) -> bool {
    while state.siege_next < state.scenario.map.sites.len() {
        let si = state.siege_next;
        let talk = state.surrender.filter(|t| t.site == si);
        let Some(siege) = siege_at(state, log, si) else {
            state.surrender = None;
            state.siege_next += 1;
            continue;
        };
        let name = state.scenario.map.sites[si].name.clone();
        // 10.3.4-10.3.5: the 1:1 ratio.
        if siege.att_asps < siege.def_asps {
            let n = (u32::from(siege.att_asps)).div_ceil(10) as u16;
            spread_loss(
                state,
                &siege.besiegers,
                siege.att,
                None,
                n,
                Sharing::Attrition,
            );
            let (a, d) = (siege.att_asps, siege.def_asps);
            log.push_with(|| Event::public("The Crusades 10.3.5", format!("the siege of {name} cannot be maintained ({a} against {d}): the besiegers lose {n} ASPs")));
            siege_attrition(state, log, si, siege.att, &siege.besiegers, siege.def);
            state.siege_next += 1;
            continue;
        }
        // 10.4.2: before the assault the besieger must ask for surrender; a side with no
        // seat (Isaac Comnenus, 15.0 E) neither asks nor yields.
        let asks = siege.att.seat().is_some() && siege.def.seat().is_some();
        match talk {
            None if asks => {
                state.surrender = Some(SurrenderTalk {
                    site: si,
                    attacker: siege.att,
                    defender: siege.def,
                    terms: None,
                    refused: false,
                });
                state.phase = Phase::SurrenderTerms(siege.att);
                return true;
            }
            Some(t) if !t.refused => {
                // A decision is pending (this is not reached while resolving).
                return true;
            }
            _ => {}
        }
        state.surrender = None;
        assault(state, log, si, &siege);
        state.siege_next += 1;
    }
    false
}

/// The Crusades 10.4.1-10.4.4, 10.4.8: the assault on site `si`, and the city falls or both
/// sides suffer siege attrition.
fn assault(state: &mut State, log: &mut Log, si: usize, siege: &Siege) {
    let site = state.scenario.map.sites[si].clone();
    let factor = site.level;
    let attack = assault_strength(siege.att_asps, siege.full);
    let defense = defense_strength(siege.def_asps, factor);
    let ratio = assault_ratio(attack, defense);
    let success_from = state.scenario.tables.assault_success_from(ratio);
    let carried = match success_from {
        None => {
            log.push_with(|| {
                Event::public(
                    "The Crusades 10.4.3",
                    format!(
                        "assault on {} at {attack} to {defense}: below 3-1, it fails",
                        site.name
                    ),
                )
            });
            false
        }
        Some(need) => {
            let bonus = i32::from(state.blockaded_against(siege.def, site.hex));
            let d = state.dice.d6();
            let ok = i32::from(d) + bonus >= i32::from(need);
            log.push_with(|| {
                Event::public(
                    "The Crusades 10.4.4",
                    format!(
                        "assault on {} at {ratio}-1: {}",
                        site.name,
                        if ok { "S, the city falls" } else { "it fails" }
                    ),
                )
                .with_roll(roll(
                    "Siege Assault Table".into(),
                    vec![d],
                    bonus,
                    format!("{}-1, S on {need}+", ratio.min(99)),
                    if ok { "S".into() } else { "-".into() },
                ))
            });
            ok
        }
    };
    if carried {
        city_falls(state, log, si, siege.att, &siege.besiegers, siege.def);
    } else {
        siege_attrition(state, log, si, siege.att, &siege.besiegers, siege.def);
    }
}

/// The Crusades 10.4.2: where defenders marching out of site `si` go: the nearest other
/// city or castle their side controls and the enemy neither occupies nor besieges.
pub fn march_out_place(state: &State, si: usize, def: Side) -> Option<Place> {
    let map = &state.scenario.map;
    let from = map.sites[si].hex;
    (0..map.sites.len())
        .filter(|&o| {
            o != si
                && state.sites[o].control == Some(def)
                && state.occupier(o).is_none_or(|x| x == def)
                && !state.under_siege(o)
        })
        .min_by_key(|&o| (map.distance(from, map.sites[o].hex), o))
        .map(|o| Place::inside(map.sites[o].hex))
}

/// The Crusades 10.4.2: the terms the besieger of the city in [`State::surrender`] may
/// state: captivity always; marching out when the defenders have somewhere to go.
pub fn terms_allowed(state: &State) -> Vec<Terms> {
    let Some(t) = state.surrender else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if march_out_place(state, t.site, t.defender).is_some() {
        out.push(Terms::MarchOut);
    }
    out.push(Terms::Captivity);
    out
}

/// The Crusades 10.4.2: the defenders of site `si` accept the besieger's terms: no assault
/// and no siege attrition; the city passes to the besieger, who enters it (10.4.5 D); the
/// defenders march out with their ASPs, or lay down their arms (their ASPs disbanded, their
/// leaders held prisoner, 9.7.6).
pub fn surrender(state: &mut State, log: &mut Log, si: usize, att: Side, def: Side, terms: Terms) {
    let site = state.scenario.map.sites[si].clone();
    let inside = Place::inside(site.hex);
    let outside = Place::outside(site.hex);
    let defenders = state.side_leaders_at(def, inside);
    let besiegers: Vec<usize> = state
        .side_leaders_at(att, outside)
        .into_iter()
        .filter(|&l| {
            matches!(
                state.book(att).effective(l),
                Order::FullSiege | Order::PartialSiege
            ) && !state.leaders[l].moved
        })
        .collect();
    let ids = defenders
        .iter()
        .map(|&l| state.scenario.leaders[l].id.clone())
        .collect::<Vec<_>>()
        .join(", ");
    log.push_with(|| {
        Event::public(
            "The Crusades 10.4.2",
            format!(
                "{} surrenders to the {} ({}): {}",
                site.name,
                att.name(),
                terms.name(),
                if ids.is_empty() {
                    "no leader inside".into()
                } else {
                    ids
                }
            ),
        )
    });
    let mut captives = Vec::new();
    match (terms, march_out_place(state, si, def)) {
        (Terms::MarchOut, Some(to)) => {
            for &l in &defenders {
                state.leaders[l].place = Some(to);
            }
            let g = state.take_garrison(def, inside, u16::MAX);
            state.add_garrison(def, to, g);
        }
        _ => {
            let lost: u16 = defenders
                .iter()
                .map(|&l| std::mem::take(&mut state.leaders[l].asps))
                .sum::<u16>()
                + state.take_garrison(def, inside, u16::MAX);
            if let Some(slot) = def.seat() {
                state.losses[slot.index()] += u32::from(lost);
            }
            for &l in &defenders {
                state.leaders[l].place = None;
                captives.push(l);
            }
        }
    }
    take_city(state, si, att, &besiegers);
    for l in captives {
        crate::captives::capture(state, log, l, att, site.hex);
    }
}

/// The Crusades 10.4.5 D, 10.2.4, 10.1.4: the victor takes control of a city or castle and
/// enters it (up to its capacity); a castle's garrison is restored for him.
fn take_city(state: &mut State, si: usize, att: Side, besiegers: &[usize]) {
    let site = state.scenario.map.sites[si].clone();
    state.sites[si].control = Some(att);
    state.sites[si].worse = 0;
    state.sites[si].castle_garrison = site.castle;
    let capacity = state.scenario.tables.capacity(site.castle, site.level);
    let mut inside_asps = 0;
    for &l in besiegers {
        if inside_asps + state.leaders[l].asps <= capacity {
            inside_asps += state.leaders[l].asps;
            state.leaders[l].place = Some(Place::inside(site.hex));
        }
    }
}

/// The Crusades 10.4.5, 10.2.4, 10.1.4 (the city keeps its factor): every defending ASP is
/// eliminated; each defending leader is captured on 1-4 (held per 9.7.6) and dies on 5-6;
/// the victor takes control and enters.
fn city_falls(
    state: &mut State,
    log: &mut Log,
    si: usize,
    att: Side,
    besiegers: &[usize],
    def: Side,
) {
    let site = state.scenario.map.sites[si].clone();
    let inside = Place::inside(site.hex);
    let defenders = state.side_leaders_at(def, inside);
    let lost: u16 = defenders
        .iter()
        .map(|&l| state.leaders[l].asps)
        .sum::<u16>()
        + state.take_garrison(def, inside, u16::MAX);
    if let Some(slot) = def.seat() {
        state.losses[slot.index()] += u32::from(lost);
    }
    let mut captives = Vec::new();
    for &l in &defenders {
        let d = state.dice.d6();
        let id = state.scenario.leaders[l].id.clone();
        state.leaders[l].asps = 0;
        state.leaders[l].place = None;
        if d <= 4 {
            captives.push(l);
        } else {
            state.leaders[l].status = Status::Dead;
        }
        log.push_with(|| {
            Event::public(
                "The Crusades 10.4.5",
                format!("{id} {}", if d <= 4 { "captured" } else { "dies" }),
            )
            .with_roll(roll(
                format!("fate of {id}"),
                vec![d],
                0,
                "1-4 captured, 5-6 dead".into(),
                String::new(),
            ))
        });
    }
    take_city(state, si, att, besiegers);
    log.push_with(|| {
        Event::public(
            "The Crusades 10.4.5",
            format!(
                "{} falls to the {}: {lost} defending ASPs eliminated",
                site.name,
                att.name()
            ),
        )
    });
    for l in captives {
        crate::captives::capture(state, log, l, att, site.hex);
    }
}

/// The Crusades 10.5.2-10.5.3, 13.2.4: both sides roll on the Siege Attrition Table: the defender on
/// the City column, the attacker on his hex's attrition level (worsened by earlier asterisks,
/// 10.5.4; Barren in winter). A castle's garrison never suffers attrition (10.2.3 A).
fn siege_attrition(
    state: &mut State,
    log: &mut Log,
    si: usize,
    att: Side,
    besiegers: &[usize],
    def: Side,
) {
    let site = state.scenario.map.sites[si].clone();
    let inside = Place::inside(site.hex);
    let winter = state.turn_info().winter;
    let column = if winter {
        Terrain::Barren
    } else {
        crate::attrition::level(state, site.hex)
    };
    let d = state.dice.d6();
    let (n, star) = state.scenario.tables.siege_attrition(Some(column), d);
    let taken = spread_loss(state, besiegers, att, None, n, Sharing::Attrition);
    if star && !winter {
        state.sites[si].worse = (state.sites[si].worse + 1).min(2);
    }
    let d2 = state.dice.d6();
    let (m, _) = state.scenario.tables.siege_attrition(None, d2);
    let defenders = state.side_leaders_at(def, inside);
    let taken2 = spread_loss(state, &defenders, def, Some(inside), m, Sharing::Attrition);
    log.push_with(|| {
        Event::public(
            "The Crusades 10.5",
            format!(
                "siege attrition at {}: besiegers lose {taken}, defenders lose {taken2}",
                site.name
            ),
        )
        .with_roll(roll(
            "besiegers' siege attrition".into(),
            vec![d],
            0,
            format!("Siege Attrition Table, {}", column.name()),
            format!("{n}{}", if star { "*" } else { "" }),
        ))
        .with_roll(roll(
            "defenders' siege attrition".into(),
            vec![d2],
            0,
            "Siege Attrition Table, City".into(),
            m.to_string(),
        ))
    });
}
