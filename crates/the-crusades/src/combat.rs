//! Combat (9.0): where battles happen, who attacks, the Basic Combat Ratio rounded for the
//! defender, formations and their adjustment, the Combat Results Table with percentage and
//! asterisk results, leader casualties with the per-combat maxima, overruns, retreats toward
//! supply with disruption, and besieged forces sallying alone or with a relieving force.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use engine::{Event, Log, RollRecord};
use hexgrid::HexId;

use crate::attrition::{spread_loss, Sharing};
use crate::map::Place;
use crate::orders::Order;
use crate::scenario::Side;
use crate::state::{State, Status};
use crate::supply;
use crate::tables::{Adjustment, Casualty, Loss};

/// The Crusades 9.0 J, 9.8.1: whether a ratio is an overrun (10-1 or more either way), and
/// whose force is overrun.
pub fn overrun(attacker: u32, defender: u32) -> Option<bool> {
    if attacker >= 10 * defender && attacker > 0 {
        Some(false)
    } else if defender >= 10 * attacker && defender > 0 {
        Some(true)
    } else {
        None
    }
}

/// The Crusades 9.5 C, E: ASPs lost from a force of `total` by a result's loss: a percentage
/// rounded up, or one die capped at 5% of the force (rounded up).
pub fn loss_asps(loss: Loss, total: u16, die: u8) -> u16 {
    match loss {
        Loss::None => 0,
        Loss::Percent(p) => (u32::from(total) * u32::from(p)).div_ceil(100) as u16,
        Loss::Die => {
            let cap = (u32::from(total) * 5).div_ceil(100) as u16;
            u16::from(die).min(cap)
        }
    }
}

/// The Crusades 9.4.2: the part of a besieged force that joins a coordinated attack: the die
/// in sixths, rounded down.
pub fn coordinated_share(asps: u16, die: u8) -> u16 {
    asps * u16::from(die) / 6
}

/// The Crusades 8.0 F-H: the commander of a group of leaders: the highest rank (8.0 G); among
/// several of that rank the one his owner designated in writing (8.0 H, the `command` line of
/// the orders), and where none or several were designated the best Combat Rating among them.
pub fn commander(state: &State, leaders: &[usize]) -> Option<usize> {
    leaders.iter().copied().min_by_key(|&i| {
        let l = &state.scenario.leaders[i];
        let designated = state.book(l.side).command.contains(&i);
        (l.rank, !designated, std::cmp::Reverse(l.combat), i)
    })
}

/// The Crusades 9.7.3: the most leaders a side may lose in one combat.
pub fn max_leader_losses(side: Side) -> usize {
    match side {
        Side::Crusaders => 2,
        _ => 1,
    }
}

/// One side of a battle.
#[derive(Clone, Debug, Default)]
pub(crate) struct Party {
    /// Its leaders outside in the hex.
    pub leaders: Vec<usize>,
    /// Those who sallied from the city (5.3, 9.4.1).
    pub sally: Vec<usize>,
    /// Whether any of the others moved into the hex this turn.
    pub moved: bool,
    /// Whether it besieges the city with a full siege (10.3.6).
    pub full_siege: bool,
}

/// The Crusades 9.1, 9.0 B, 9.0 G, 9.0 N: resolves every battle of the Combat Phase: each
/// hex where opposing forces stand outside any city; zones of influence, terrain and lines
/// of communication play no part. Friendly forces of one side fight together (6.1.4-6.1.5).
///
/// Battles are fought hex by hex in the map's order; a force that overruns a force with a
/// Defend order and moves on (9.8.3) may bring on a battle in a hex further along its path,
/// fought in its turn. A hex is fought over once per Combat Phase.
pub fn combat_phase(state: &mut State, log: &mut Log, sallied: &BTreeSet<usize>) {
    let mut fought: BTreeSet<HexId> = BTreeSet::new();
    loop {
        let next = state
            .leaders
            .iter()
            .filter_map(|l| match (l.status, l.place) {
                (Status::Active, Some(p)) if !p.inside => Some(p.hex),
                _ => None,
            })
            .filter(|h| !fought.contains(h) && state.sides_at(Place::outside(*h)).len() >= 2)
            .min();
        let Some(hex) = next else { break };
        fought.insert(hex);
        let sides = state.sides_at(Place::outside(hex));
        let (a, b) = (sides[0], sides[1]);
        if let Some((side, leaders)) = battle(state, log, hex, a, b, sallied) {
            move_on(state, log, side, &leaders, hex);
        }
    }
}

/// The Crusades 9.8.3: a moving force that overran a force with a Defend order (whose zone
/// of influence stopped it, 7.2.2 A) goes on along the rest of its written path at no extra
/// cost: the overrun costs no movement points, and the path was paid for when it was
/// written. The hexes it now enters add their APs to its move: it loses the difference the
/// longer path makes on the Movement Attrition Table (6.4.3). It stops again on entering
/// another enemy zone of influence or a city held by the enemy, as any move does.
pub fn move_on(state: &mut State, log: &mut Log, side: Side, leaders: &[usize], hex: HexId) {
    let here = Place::outside(hex);
    let mut heads: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &l in leaders {
        if state.leaders[l].status == Status::Active && state.leaders[l].place == Some(here) {
            heads.entry(state.book(side).head(l)).or_default().push(l);
        }
    }
    for (head, group) in heads {
        let Order::Move { path, .. } = state.book(side).effective(head) else {
            continue;
        };
        let Some(k) = path.iter().rposition(|p| *p == here) else {
            continue;
        };
        let rest = &path[k + 1..];
        if rest.is_empty() {
            continue;
        }
        let zones = crate::zoi::Zones::compute(
            state,
            &|l| crate::movement::stays(state, l),
            &crate::zoi::defending(state),
        );
        let asps: u16 = group.iter().map(|&l| state.leaders[l].asps).sum();
        let supplied = supply::has_loc(state, &zones, side, here, asps);
        let r = crate::movement::walk(state, &zones, side, here, rest, supplied, &|site| {
            state.occupier(site).is_some_and(|o| o.enemy_of(side))
        });
        let Some(&end) = r.entered.last() else {
            continue;
        };
        for &l in &group {
            state.leaders[l].place = Some(end);
        }
        let before = crate::attrition::path_aps(state, &path[..=k]);
        let after = crate::attrition::path_aps(state, &path[..=k + r.entered.len()]);
        let loss = |aps| {
            crate::attrition::movement_loss(state, side, asps, aps, true, supplied, false).asps
        };
        let extra = loss(after).saturating_sub(loss(before));
        if extra > 0 {
            spread_loss(state, &group, side, None, extra, Sharing::Attrition);
        }
        let id = state.scenario.leaders[head].id.clone();
        let why = r.stopped.clone();
        log.push_with(|| {
            Event::public(
                "The Crusades 9.8.3",
                format!(
                    "{id}'s force moves on from {hex} to {end}{}, losing {extra} more ASPs to attrition",
                    why.map_or_else(String::new, |w| format!(" ({w})"))
                ),
            )
        });
    }
}

fn party(state: &State, side: Side, hex: HexId, sallied: &BTreeSet<usize>) -> Party {
    let leaders = state.side_leaders_at(side, Place::outside(hex));
    let book = state.book(side);
    Party {
        sally: leaders
            .iter()
            .copied()
            .filter(|l| sallied.contains(l))
            .collect(),
        moved: leaders
            .iter()
            .any(|&l| state.leaders[l].moved && !sallied.contains(&l)),
        full_siege: leaders
            .iter()
            .any(|&l| book.effective(l) == Order::FullSiege),
        leaders,
    }
}

fn roll(purpose: String, dice: Vec<u8>, cell: Option<String>, result: String) -> RollRecord {
    crate::tables::roll_record(purpose, dice, ("", 0), cell, result)
}

/// One battle between sides `a` and `b` in `hex`.
fn battle(
    state: &mut State,
    log: &mut Log,
    hex: HexId,
    a: Side,
    b: Side,
    sallied: &BTreeSet<usize>,
) -> Option<(Side, Vec<usize>)> {
    let pa = party(state, a, hex, sallied);
    let pb = party(state, b, hex, sallied);
    crate::neutrals::wake_if_attacked(state, log, &pa.leaders, &pb.leaders);
    // 9.2, 9.4.1: who attacks.
    let rating =
        |s: &State, p: &Party| commander(s, &p.leaders).map_or(0, |c| s.scenario.leaders[c].combat);
    let a_sallies_alone = !pa.sally.is_empty() && pa.sally.len() == pa.leaders.len();
    let b_sallies_alone = !pb.sally.is_empty() && pb.sally.len() == pb.leaders.len();
    let mut tie_roll = None;
    let a_attacks = if a_sallies_alone != b_sallies_alone {
        a_sallies_alone
    } else if (pa.moved || !pa.sally.is_empty()) != (pb.moved || !pb.sally.is_empty()) {
        pa.moved || !pa.sally.is_empty()
    } else {
        let (ra, rb) = (rating(state, &pa), rating(state, &pb));
        if ra != rb {
            ra > rb
        } else {
            let d = state.dice.d6();
            tie_roll = Some(d);
            d >= 4
        }
    };
    let (att_side, def_side, att, def) = if a_attacks {
        (a, b, pa, pb)
    } else {
        (b, a, pb, pa)
    };
    let sum = |s: &State, side: Side, ls: &[usize]| -> u16 {
        ls.iter().map(|&l| s.leaders[l].asps).sum::<u16>()
            + s.garrison_at(side, Place::outside(hex))
    };
    let att_total = sum(state, att_side, &att.leaders);
    let def_total = sum(state, def_side, &def.leaders);
    // 9.4.2: a coordinated attack: the besieged joins with d6 sixths of its ASPs.
    let mut att_strength = u32::from(att_total);
    let mut coordination = None;
    if !att.sally.is_empty() && att.sally.len() < att.leaders.len() {
        let sally_asps: u16 = att.sally.iter().map(|&l| state.leaders[l].asps).sum();
        let d = state.dice.d6();
        let share = coordinated_share(sally_asps, d);
        att_strength = u32::from(att_total - sally_asps + share);
        coordination = Some((d, sally_asps, share));
    }
    // 10.3.6: a full siege defends at half strength, rounded up, against an outside force.
    let outside_attack = att.sally.len() < att.leaders.len() || att.leaders.is_empty();
    let def_strength = if def.full_siege && outside_attack {
        u32::from(def_total).div_ceil(2)
    } else {
        u32::from(def_total)
    };
    let names = |s: &State, ls: &[usize]| {
        ls.iter()
            .map(|&l| s.scenario.leaders[l].id.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let head = format!(
        "battle in {hex}: {} ({}; {att_strength}) attack {} ({}; {def_strength})",
        att_side.name(),
        names(state, &att.leaders),
        def_side.name(),
        names(state, &def.leaders)
    );
    log.push_with(|| {
        let mut e = Event::public("The Crusades 9.2", head.clone());
        if let Some(d) = tie_roll {
            e = e.with_roll(roll(
                "attacker between equal commanders".into(),
                vec![d],
                None,
                format!("{} attack", att_side.name()),
            ));
        }
        if let Some((d, all, share)) = coordination {
            e = e.with_roll(roll(
                "coordinated attack from inside the city (9.4.2)".into(),
                vec![d],
                None,
                format!("{share} of {all} ASPs join"),
            ));
        }
        e
    });
    // 9.8.1-9.8.2: overrun: the smaller force is eliminated and its leaders captured.
    if let Some(attacker_overrun) = overrun(att_strength, def_strength) {
        let (loser_side, loser, victor_side) = if attacker_overrun {
            (att_side, &att, def_side)
        } else {
            (def_side, &def, att_side)
        };
        let leaders = loser.leaders.clone();
        // 9.8.3: the overrun force had a Defend order and the victor moved into it.
        let defended = !leaders.is_empty()
            && leaders
                .iter()
                .all(|&l| state.book(loser_side).effective(l) == Order::Defend);
        let moves_on = (!attacker_overrun && att.moved && att.sally.is_empty() && defended)
            .then(|| (att_side, att.leaders.clone()));
        let total = sum(state, loser_side, &leaders);
        spread_loss(
            state,
            &leaders,
            loser_side,
            Some(Place::outside(hex)),
            total,
            Sharing::Combat,
        );
        for &l in &leaders {
            crate::captives::capture(state, log, l, victor_side, hex);
        }
        log.push_with(|| {
            Event::public(
                "The Crusades 9.8",
                format!(
                    "{} overrun in {hex}: {total} ASPs eliminated, every leader captured",
                    loser_side.name()
                ),
            )
        });
        return moves_on;
    }
    // 9.3.1-9.3.2: formations; 9.3.5: not when both commanders read the same line.
    let scenario = std::sync::Arc::clone(&state.scenario);
    let tables = &scenario.tables;
    let mut shift: i32 = 0;
    if att_side.line() != def_side.line() {
        let (cru, sar) = if att_side.line() == crate::tables::Line::Crusader {
            (&att, &def)
        } else {
            (&def, &att)
        };
        let (cru_side, sar_side) = if att_side.line() == crate::tables::Line::Crusader {
            (att_side, def_side)
        } else {
            (def_side, att_side)
        };
        let form = |s: &mut State, p: &Party, side: Side| -> (usize, Option<u8>) {
            match commander(s, &p.leaders) {
                Some(c) => {
                    let d = s.dice.d6();
                    (
                        tables.formation(side.line(), d, s.scenario.leaders[c].combat),
                        Some(d),
                    )
                }
                None => (tables.worst_formation(side.line()), None),
            }
        };
        let (cf, cd) = form(state, cru, cru_side);
        let (sf, sd) = form(state, sar, sar_side);
        let adj = tables.adjustment(cf, sf);
        log.push_with(|| {
            let mut e = Event::public(
                "The Crusades 9.3",
                format!(
                    "formations: {} {}, {} {}: {}",
                    cru_side.name(),
                    tables.formation_name(cru_side.line(), cf),
                    sar_side.name(),
                    tables.formation_name(sar_side.line(), sf),
                    match adj {
                        Adjustment::Shift(s) => format!("{s:+} columns for the Crusaders"),
                        Adjustment::NoCombat => "no combat".into(),
                    }
                ),
            );
            for (who, d) in [(cru_side, cd), (sar_side, sd)] {
                if let Some(d) = d {
                    e = e.with_roll(roll(
                        format!("formation of the {}", who.name()),
                        vec![d],
                        Some("Combat Formation Table".into()),
                        String::new(),
                    ));
                }
            }
            e
        });
        match adj {
            Adjustment::Shift(s) => {
                shift = if cru_side == att_side {
                    i32::from(s)
                } else {
                    -i32::from(s)
                }
            }
            Adjustment::NoCombat => {
                // 9.3.4: the force with fewer ASPs retreats one hex; ties by die, low retreats.
                let (fewer_att, tie) = match att_total.cmp(&def_total) {
                    std::cmp::Ordering::Less => (true, None),
                    std::cmp::Ordering::Greater => (false, None),
                    std::cmp::Ordering::Equal => {
                        let (x, y) = (state.dice.d6(), state.dice.d6());
                        (x <= y, Some((x, y)))
                    }
                };
                let (side, p) = if fewer_att {
                    (att_side, att)
                } else {
                    (def_side, def)
                };
                log.push_with(|| {
                    let mut e = Event::public(
                        "The Crusades 9.3.4",
                        format!("no combat: the {} retreat one hex", side.name()),
                    );
                    if let Some((x, y)) = tie {
                        e = e.with_roll(roll(
                            "equal forces: low die retreats".into(),
                            vec![x, y],
                            None,
                            String::new(),
                        ));
                    }
                    e
                });
                retreat(state, log, side, &p, hex, 1);
                return None;
            }
        }
    }
    let base = tables.ratio_column(att_strength, def_strength) as i32;
    let column = (base + shift).clamp(0, tables.ratios.len() as i32 - 1) as usize;
    let die = state.dice.d6();
    let (ra, rd) = tables.combat_result(die, column);
    log.push_with(|| {
        Event::public("The Crusades 9.5", format!("{} / {}", ra.text(), rd.text())).with_roll(roll(
            "Combat Results Table".into(),
            vec![die],
            Some(format!(
                "column {} ({} shifted {shift:+})",
                tables.ratios[column].name, tables.ratios[base as usize].name
            )),
            format!("{}/{}", ra.text(), rd.text()),
        ))
    });
    // 9.5 C-E: losses.
    for (side, p, r, total) in [
        (att_side, &att, ra, att_total),
        (def_side, &def, rd, def_total),
    ] {
        let d = if r.loss == Loss::Die {
            state.dice.d6()
        } else {
            0
        };
        let n = loss_asps(r.loss, total, d);
        if n > 0 {
            let taken = spread_loss(
                state,
                &p.leaders,
                side,
                Some(Place::outside(hex)),
                n,
                Sharing::Combat,
            );
            log.push_with(|| {
                let mut e = Event::public(
                    "The Crusades 9.5",
                    format!("the {} lose {taken} ASPs", side.name()),
                );
                if d > 0 {
                    e = e.with_roll(roll(
                        "asterisk loss (9.5 E)".into(),
                        vec![d],
                        None,
                        format!("{n} (at most 5% of {total})"),
                    ));
                }
                e
            });
        }
    }
    // 9.7.1: leader casualties, after losses and before retreats.
    let att_loses = ra.retreat > 0 && rd.retreat == 0;
    let def_loses = rd.retreat > 0 && ra.retreat == 0;
    for (side, p, loser, other) in [
        (att_side, &att, att_loses, def_side),
        (def_side, &def, def_loses, att_side),
    ] {
        leader_casualties(state, log, side, p, loser, other);
    }
    for (side, p, r) in [(att_side, &att, ra), (def_side, &def, rd)] {
        let p = Party {
            leaders: p
                .leaders
                .iter()
                .copied()
                .filter(|&l| state.leaders[l].status == Status::Active)
                .collect(),
            sally: p.sally.clone(),
            ..Default::default()
        };
        if r.retreat > 0 {
            retreat(state, log, side, &p, hex, r.retreat);
        }
    }
    None
}

/// The Crusades 9.7: rolls two dice for each leader of a side, the lowest in rank first and
/// the commander last, until the side's maximum (9.7.3) is reached.
fn leader_casualties(
    state: &mut State,
    log: &mut Log,
    side: Side,
    p: &Party,
    loser: bool,
    other: Side,
) {
    let mut order: Vec<usize> = p
        .leaders
        .iter()
        .copied()
        .filter(|&l| state.leaders[l].status == Status::Active)
        .collect();
    let chief = commander(state, &order);
    order.sort_by_key(|&l| {
        let x = &state.scenario.leaders[l];
        (Some(l) == chief, std::cmp::Reverse(x.rank), x.combat, l)
    });
    let mut lost = 0;
    for l in order {
        if lost >= max_leader_losses(side) {
            break;
        }
        let (d1, d2) = (state.dice.d6(), state.dice.d6());
        let (victor, loser_r) = state.scenario.tables.casualty(d1 + d2);
        let r = if loser { loser_r } else { victor };
        let id = state.scenario.leaders[l].id.clone();
        let place = state.leaders[l].place;
        match r {
            Casualty::None => continue,
            Casualty::Killed => {
                if side == Side::Saracens {
                    if let Some(p) = place {
                        let asps = state.leaders[l].asps;
                        state.add_garrison(side, p, asps);
                    }
                } else if let Some(slot) = side.seat() {
                    state.losses[slot.index()] += u32::from(state.leaders[l].asps);
                }
                state.leaders[l].asps = 0;
                state.leaders[l].status = Status::Dead;
                state.leaders[l].place = None;
            }
            Casualty::Captured => {
                if side == Side::Saracens {
                    if let Some(p) = place {
                        let asps = std::mem::take(&mut state.leaders[l].asps);
                        state.add_garrison(side, p, asps);
                    }
                }
                let from = place.map_or(state.scenario.map.sites[0].hex, |p| p.hex);
                crate::captives::capture(state, log, l, other, from);
            }
        }
        lost += 1;
        log.push_with(|| {
            Event::public(
                "The Crusades 9.7",
                format!(
                    "{id} {}",
                    if r == Casualty::Killed {
                        "killed"
                    } else {
                        "captured"
                    }
                ),
            )
            .with_roll(roll(
                format!("casualty of {id}"),
                vec![d1, d2],
                Some(format!(
                    "Leader Casualty Table, {}",
                    if loser { "loser" } else { "victor" }
                )),
                String::new(),
            ))
        });
    }
}

/// Distance in steps from every land hex to `side`'s nearest supply source (9.6 A), by the
/// grid's dense index (`u32::MAX` where no source is reached).
fn supply_distance(state: &State, side: Side) -> Vec<u32> {
    let map = &state.scenario.map;
    let rain = state.turn_info().rain;
    let mut dist = vec![u32::MAX; map.grid.len()];
    let mut queue = VecDeque::new();
    for h in supply::sources(state, side) {
        if let Some(i) = map.grid.index_of_id(h) {
            dist[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        let d = dist[i];
        for &(n, _, _) in map.land_near_at(i, rain) {
            if dist[n] == u32::MAX {
                dist[n] = d + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// The Crusades 9.6, 7.2.7, 9.4.1 B, 9.4.3, 12.5.7: retreats a force `hexes` hexes toward
/// supply by the most direct route, disrupting it; forces that sallied go back inside their
/// city; troops landed in the hex this turn go back aboard their fleet.
/// Every hex it cannot retreat costs 10% (rounded up); it may stop in a friendly city of
/// level 2-4 or a castle.
pub(crate) fn retreat(
    state: &mut State,
    log: &mut Log,
    side: Side,
    p: &Party,
    hex: HexId,
    hexes: u8,
) {
    let scenario = std::sync::Arc::clone(&state.scenario);
    let map = &scenario.map;
    let rain = state.turn_info().rain;
    for &l in &p.sally {
        if state.leaders[l].status == Status::Active {
            state.leaders[l].place = Some(Place::inside(hex));
            state.leaders[l].disrupted = true;
        }
    }
    // 12.5.7: troops landed here this turn retreat onto the fleet that landed them, if it is
    // still in the hex; their retreat ends there.
    for &l in &p.leaders {
        let Some(f) = state.leaders[l].landed_from else {
            continue;
        };
        if state.leaders[l].status == Status::Active
            && state.leaders[l].place == Some(Place::outside(hex))
            && state.fleets[f].status == crate::state::FleetStatus::Active
            && state.fleets[f].hex == Some(hex)
        {
            state.leaders[l].status = Status::Aboard(f);
            state.leaders[l].place = None;
            state.leaders[l].disrupted = true;
            let (id, fid) = (
                state.scenario.leaders[l].id.clone(),
                state.scenario.fleets[f].id.clone(),
            );
            log.push_with(|| {
                Event::public(
                    "The Crusades 12.5.7",
                    format!("{id} retreats onto the fleet {fid}"),
                )
            });
        }
    }
    let outside: Vec<usize> = p
        .leaders
        .iter()
        .copied()
        .filter(|l| !p.sally.contains(l) && state.leaders[*l].status == Status::Active)
        .collect();
    let garrison = state.garrison_at(side, Place::outside(hex));
    if outside.is_empty() && garrison == 0 {
        return;
    }
    let distances = supply_distance(state, side);
    let dist = |h: HexId| map.grid.index_of_id(h).map_or(u32::MAX, |i| distances[i]);
    let zones = crate::zoi::Zones::compute(
        state,
        &|l| state.leaders[l].status == Status::Active,
        &crate::zoi::defending(state),
    );
    let forbidden = |s: &State, h: HexId| -> bool {
        let site = map.site_at(h);
        let enemy_inside = site.is_some_and(|i| s.occupier(i).is_some_and(|o| o.enemy_of(side)));
        let enemy_here = s
            .sides_at(Place::outside(h))
            .iter()
            .any(|x| x.enemy_of(side));
        let siege_here = site.is_some_and(|i| s.under_siege(i));
        let influenced = zones.enemy_of(side, h);
        enemy_inside || enemy_here || siege_here || influenced && site.is_some()
    };
    let mut at = hex;
    let mut done = 0;
    let mut entered_city = false;
    while done < hexes {
        let here = dist(at);
        let next = map
            .neighbours(at)
            .into_iter()
            .filter(|&n| map.land_crossing(at, n, rain) && !forbidden(state, n))
            .min_by_key(|&n| (dist(n), n));
        let Some(n) = next else { break };
        let _ = here;
        at = n;
        done += 1;
        if let Some(site) = map.site_at(at) {
            let s = &map.sites[site];
            if state.friendly_site(site, side)
                && (s.castle || s.level >= 2)
                && state.occupier(site).is_none_or(|o| o == side)
            {
                entered_city = true;
                break;
            }
        }
    }
    let short = hexes - done.min(hexes);
    let short = if entered_city { 0 } else { short };
    let dest = if entered_city {
        Place::inside(at)
    } else {
        Place::outside(at)
    };
    let total: u16 = outside.iter().map(|&l| state.leaders[l].asps).sum::<u16>() + garrison;
    if short > 0 {
        let n = (u32::from(total) * 10 * u32::from(short)).div_ceil(100) as u16;
        spread_loss(
            state,
            &outside,
            side,
            Some(Place::outside(hex)),
            n,
            Sharing::Combat,
        );
        log.push_with(|| {
            Event::public(
                "The Crusades 9.6 D",
                format!(
                    "the {} cannot retreat {short} hex(es): {n} ASPs lost",
                    side.name()
                ),
            )
        });
    }
    for &l in &outside {
        if state.leaders[l].status == Status::Active {
            state.leaders[l].place = Some(dest);
            state.leaders[l].disrupted = true;
        }
    }
    let g = state.take_garrison(side, Place::outside(hex), u16::MAX);
    state.add_garrison(side, dest, g);
    log.push_with(|| {
        Event::public(
            "The Crusades 9.6",
            format!(
                "the {} retreat from {hex} to {dest}, disrupted",
                side.name()
            ),
        )
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::FleetStatus;

    fn state() -> State {
        crate::third_crusade(8)
    }

    /// Two adjacent open land hexes, far from every city and every force.
    fn quiet_pair(s: &State) -> (HexId, HexId) {
        let map = &s.scenario.map;
        let quiet = |h: HexId| {
            map.is_land(h)
                && map.sites.iter().all(|site| map.distance(site.hex, h) > 2)
                && s.leaders
                    .iter()
                    .all(|l| l.place.is_none_or(|p| map.distance(p.hex, h) > 2))
        };
        for x in map.grid.ids() {
            if !quiet(x) {
                continue;
            }
            for y in map.neighbours(x) {
                if quiet(y) && map.land_crossing(x, y, false) {
                    return (x, y);
                }
            }
        }
        panic!("no quiet hexes on the map");
    }

    /// 9.8.1-9.8.3: a moving force stopped by the zone of a force with a Defend order
    /// overruns it at 10-1, captures its leader, and moves on along its written path; a
    /// force without a Defend order overrun the same way does not let it move on.
    #[test]
    fn overrunning_a_defending_force_and_moving_on() {
        for defend in [true, false] {
            let mut s = state();
            let (x, y) = quiet_pair(&s);
            let philip = s.scenario.leader("philip-france").unwrap();
            let mashtub = s.scenario.leader("al-mashtub").unwrap();
            s.leaders[philip].place = Some(Place::outside(x));
            s.leaders[philip].asps = 60;
            s.leaders[philip].moved = true;
            s.leaders[mashtub].place = Some(Place::outside(x));
            s.leaders[mashtub].status = Status::Active;
            s.leaders[mashtub].asps = 5;
            s.orders[0].leaders.insert(
                philip,
                Order::Move {
                    path: crate::orders::Path::new(&[Place::outside(x), Place::outside(y)])
                        .expect("two steps"),
                    leave: 0,
                },
            );
            if defend {
                s.orders[1].leaders.insert(mashtub, Order::Defend);
            }
            let mut log = Log::recording();
            combat_phase(&mut s, &mut log, &BTreeSet::new());
            assert_eq!(
                s.leaders[mashtub].asps, 0,
                "overrun: his ASPs are eliminated"
            );
            assert_eq!(
                s.leaders[mashtub].status,
                Status::Captured(Side::Crusaders),
                "and he is captured (9.8.2 A)"
            );
            let expected = if defend { y } else { x };
            assert_eq!(s.leaders[philip].place, Some(Place::outside(expected)));
            let moved_on = log.events().iter().any(|e| e.case == "The Crusades 9.8.3");
            assert_eq!(moved_on, defend);
        }
    }

    /// 12.5.7: troops landed in a coastal hex who must retreat go back onto the fleet that
    /// landed them, and their retreat ends there; without that fleet in the hex they retreat
    /// over land.
    #[test]
    fn landed_troops_retreat_onto_their_fleet() {
        let hex: HexId = "1619".parse().unwrap();
        for fleet_there in [true, false] {
            let mut s = state();
            let f = (0..s.fleets.len())
                .find(|&f| s.scenario.fleets[f].side == Side::Crusaders)
                .unwrap();
            s.fleets[f].status = FleetStatus::Active;
            s.fleets[f].hex = Some(if fleet_there {
                hex
            } else {
                "1519".parse().unwrap()
            });
            let richard = s.scenario.leader("richard").unwrap();
            s.leaders[richard].status = Status::Active;
            s.leaders[richard].place = Some(Place::outside(hex));
            s.leaders[richard].asps = 16;
            s.leaders[richard].landed_from = Some(f);
            let p = Party {
                leaders: vec![richard],
                ..Party::default()
            };
            retreat(&mut s, &mut Log::recording(), Side::Crusaders, &p, hex, 1);
            assert!(s.leaders[richard].disrupted);
            if fleet_there {
                assert_eq!(s.leaders[richard].status, Status::Aboard(f));
                assert_eq!(s.leaders[richard].place, None);
            } else {
                assert_eq!(s.leaders[richard].status, Status::Active);
                assert_ne!(s.leaders[richard].place, Some(Place::outside(hex)));
            }
        }
    }
}
