//! Sieges (10.0): siege orders and who may besiege, the 1:1 maintenance ratio, full and
//! partial sieges, automatic failure below 3-1, the Siege Assault Table with the blockade
//! modifier, the fate of the defenders and their leaders when a city falls, castles and
//! their inherent garrisons, and siege attrition with the worsening attrition level.

use engine::{Event, Log, RollRecord};

use crate::attrition::spread_loss;
use crate::map::{Place, Terrain};
use crate::orders::Order;
use crate::scenario::Side;
use crate::state::{State, Status};

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
    RollRecord {
        purpose,
        total: dice.iter().map(|&d| i32::from(d)).sum::<i32>() + bonus,
        dice,
        modifiers: if bonus != 0 {
            vec![engine::Modifier {
                reason: "blockade (10.4.8)".into(),
                value: bonus,
            }]
        } else {
            Vec::new()
        },
        cell: Some(cell),
        result,
    }
}

/// The Crusades 10.3.1, 10.4, 10.4.6, 10.5.1: resolves every siege ordered this turn (a
/// siege order, not moved this turn, outside an enemy-held city of any of the four levels,
/// 10.1.1): an assault, and after a failed one siege attrition.
pub fn siege_phase(state: &mut State, log: &mut Log) {
    let map = state.scenario.map.clone();
    for (si, site) in map.sites.iter().enumerate() {
        let outside = Place::outside(site.hex);
        let inside = Place::inside(site.hex);
        let Some(def_side) = state.occupier(si) else {
            state.sites[si].worse = 0;
            continue;
        };
        let Some(att_side) = [Side::Crusaders, Side::Saracens].into_iter().find(|s| {
            s.enemy_of(def_side)
                && state.side_leaders_at(*s, outside).iter().any(|&l| {
                    matches!(
                        state.book(*s).effective(l),
                        Order::FullSiege | Order::PartialSiege
                    )
                })
        }) else {
            // 10.5.5: an abandoned siege lets the hex revert.
            state.sites[si].worse = 0;
            continue;
        };
        let book = state.book(att_side).clone();
        let besiegers: Vec<usize> = state
            .side_leaders_at(att_side, outside)
            .into_iter()
            .filter(|&l| {
                matches!(book.effective(l), Order::FullSiege | Order::PartialSiege)
                    && !state.leaders[l].moved
                    && !state.leaders[l].disrupted
            })
            .collect();
        if besiegers.is_empty() {
            continue;
        }
        crate::neutrals::wake_if_attacked(
            state,
            log,
            &besiegers,
            &state.side_leaders_at(def_side, inside),
        );
        let full = besiegers
            .iter()
            .any(|&l| book.effective(l) == Order::FullSiege);
        let att_asps: u16 = besiegers.iter().map(|&l| state.leaders[l].asps).sum();
        let defenders = state.side_leaders_at(def_side, inside);
        let garrison =
            u16::from(state.sites[si].castle_garrison && state.sites[si].control == Some(def_side));
        let def_asps: u16 = defenders
            .iter()
            .map(|&l| state.leaders[l].asps)
            .sum::<u16>()
            + state.garrison_at(def_side, inside)
            + garrison;
        // 10.3.4-10.3.5: the 1:1 ratio.
        if att_asps < def_asps {
            let n = (u32::from(att_asps)).div_ceil(10) as u16;
            spread_loss(state, &besiegers, att_side, None, n);
            log.push_with(|| Event::public("The Crusades 10.3.5", format!("the siege of {} cannot be maintained ({att_asps} against {def_asps}): the besiegers lose {n} ASPs", site.name)));
            siege_attrition(state, log, si, att_side, &besiegers, def_side);
            continue;
        }
        let factor = site.level;
        let attack = assault_strength(att_asps, full);
        let defense = defense_strength(def_asps, factor);
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
                let bonus = i32::from(state.blockaded_against(def_side, site.hex));
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
            city_falls(state, log, si, att_side, &besiegers, def_side);
        } else {
            siege_attrition(state, log, si, att_side, &besiegers, def_side);
        }
    }
}

/// The Crusades 10.4.5, 10.2.4, 10.1.4 (the city keeps its factor): every defending ASP is eliminated; each defending leader is
/// captured on 1-4 and dies on 5-6; the victor takes control and enters (up to the city's
/// capacity), and a castle's garrison is restored for him.
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
    for &l in &defenders {
        let d = state.dice.d6();
        let id = state.scenario.leaders[l].id.clone();
        state.leaders[l].asps = 0;
        state.leaders[l].place = None;
        state.leaders[l].status = if d <= 4 {
            Status::Captured(att)
        } else {
            Status::Dead
        };
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
    state.sites[si].control = Some(att);
    state.sites[si].worse = 0;
    state.sites[si].castle_garrison = site.castle;
    let capacity = state.scenario.tables.capacity(site.castle, site.level);
    let mut inside_asps = 0;
    for &l in besiegers {
        if inside_asps + state.leaders[l].asps <= capacity {
            inside_asps += state.leaders[l].asps;
            state.leaders[l].place = Some(inside);
        }
    }
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
    let taken = spread_loss(state, besiegers, att, None, n);
    if star && !winter {
        state.sites[si].worse = (state.sites[si].worse + 1).min(2);
    }
    let d2 = state.dice.d6();
    let (m, _) = state.scenario.tables.siege_attrition(None, d2);
    let defenders = state.side_leaders_at(def, inside);
    let taken2 = spread_loss(state, &defenders, def, Some(inside), m);
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
