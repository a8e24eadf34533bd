//! Captured leaders (9.7.5-9.7.6, 9.8.2, 10.4.5): where prisoners are held, escapes, release
//! by exchange or by ransom (the Third Crusade has no money: prisoners are exchanged or
//! cities and castles turned over), killing at the captor's whim, and prisoners freed when
//! the city that holds them changes hands.
//!
//! Offers are made in a parley at the start of the Order Segment, before any order is
//! written: each side with a prisoner to offer or a leader to get back may make one offer
//! (and kill prisoners it holds), and the other side accepts or refuses. Offers are open
//! dealings between the players, so they are public.

use engine::{Event, Log};
use hexgrid::HexId;

use crate::map::Place;
use crate::scenario::Side;
use crate::state::{Offer, Phase, State, Status};

/// The site nearest `from` (hex distance, then the map's order) for which `ok` holds.
fn nearest_site(state: &State, from: HexId, ok: impl Fn(&State, usize) -> bool) -> Option<usize> {
    let map = &state.scenario.map;
    (0..map.sites.len())
        .filter(|&s| ok(state, s))
        .min_by_key(|&s| (map.distance(from, map.sites[s].hex), s))
}

/// The Crusades 9.7.6 C: the city or castle where `captor` holds a leader taken near
/// `from`: the nearest that it controls and occupies.
pub fn holding_site(state: &State, captor: Side, from: HexId) -> Option<usize> {
    nearest_site(state, from, |s, si| {
        s.sites[si].control == Some(captor) && s.occupier(si) == Some(captor)
    })
}

/// The Crusades 9.7.6 D (and A, an escape): where a leader returns near `from`: the nearest
/// city or castle his side controls and the enemy does not occupy (inside it), or the
/// nearest force of his side, whichever is nearer (the city at equal distance).
pub fn release_place(state: &State, leader: usize, from: HexId) -> Option<Place> {
    let side = state.side_of(leader);
    let map = &state.scenario.map;
    let city = nearest_site(state, from, |s, si| {
        s.sites[si].control == Some(side) && s.occupier(si).is_none_or(|o| o == side)
    })
    .map(|si| Place::inside(map.sites[si].hex));
    let force = state
        .leaders
        .iter()
        .enumerate()
        .filter(|(i, l)| *i != leader && l.status == Status::Active && state.side_of(*i) == side)
        .filter_map(|(_, l)| l.place)
        .min_by_key(|p| (map.distance(from, p.hex), *p));
    match (city, force) {
        (Some(c), Some(f)) if map.distance(from, f.hex) < map.distance(from, c.hex) => Some(f),
        (Some(c), _) => Some(c),
        (None, f) => f,
    }
}

/// The Crusades 9.7.6 A, C: `leader`, taken near `from`, becomes `captor`'s prisoner, held in
/// its nearest occupied city or castle; with none he escapes (to where [`release_place`]
/// puts him, or, with nowhere to go, he is lost). His place is cleared either way.
pub fn capture(state: &mut State, log: &mut Log, leader: usize, captor: Side, from: HexId) {
    state.leaders[leader].place = None;
    let id = state.scenario.leaders[leader].id.clone();
    match holding_site(state, captor, from) {
        Some(si) => {
            state.leaders[leader].status = Status::Captured(captor);
            state.leaders[leader].held = Some(si);
            let name = state.scenario.map.sites[si].name.clone();
            log.push_with(|| {
                Event::public(
                    "The Crusades 9.7.6",
                    format!("{id} is held prisoner by the {} in {name}", captor.name()),
                )
            });
        }
        None => {
            log.push_with(|| {
                Event::public(
                    "The Crusades 9.7.6 A",
                    format!(
                        "the {} hold no city to keep {id}: he escapes",
                        captor.name()
                    ),
                )
            });
            free(state, log, leader, from);
        }
    }
}

/// A prisoner goes free near `from` (9.7.6 A, D): active again where [`release_place`]
/// puts him, with the retinue that waited in limbo (9.7.5 B); with nowhere to go he is lost.
fn free(state: &mut State, log: &mut Log, leader: usize, from: HexId) {
    let id = state.scenario.leaders[leader].id.clone();
    state.leaders[leader].held = None;
    match release_place(state, leader, from) {
        Some(p) => {
            state.leaders[leader].status = Status::Active;
            state.leaders[leader].place = Some(p);
            state.leaders[leader].disrupted = false;
            state.leaders[leader].still = 0;
            log.push_with(|| Event::public("The Crusades 9.7.6 D", format!("{id} returns at {p}")));
        }
        None => {
            state.leaders[leader].status = Status::Dead;
            state.leaders[leader].place = None;
            log.push_with(|| {
                Event::public(
                    "The Crusades 9.7.6",
                    format!("{id} has nowhere of his side to return to and is lost"),
                )
            });
        }
    }
}

/// The hex a prisoner is held in (for distances).
fn held_hex(state: &State, leader: usize) -> Option<HexId> {
    state.leaders[leader]
        .held
        .map(|si| state.scenario.map.sites[si].hex)
}

/// Leaders of `owner`'s enemy that `owner` holds prisoner.
pub fn prisoners_of(state: &State, owner: Side) -> Vec<usize> {
    (0..state.leaders.len())
        .filter(|&l| state.leaders[l].status == Status::Captured(owner))
        .collect()
}

/// Leaders of `side` held prisoner by the other seat's side.
pub fn held_from(state: &State, side: Side) -> Vec<usize> {
    (0..state.leaders.len())
        .filter(|&l| {
            state.side_of(l) == side
                && matches!(state.leaders[l].status, Status::Captured(by) if by.enemy_of(side) && by.seat().is_some())
        })
        .collect()
}

/// The Crusades 9.7.6, Third Crusade: the cities and castles `side` may turn over as a
/// ransom: those it controls with no force of its own inside (a castle's inherent garrison
/// passes with it, 10.2.3) and not under siege.
pub fn ransom_sites(state: &State, side: Side) -> Vec<usize> {
    let map = &state.scenario.map;
    (0..map.sites.len())
        .filter(|&si| {
            let inside = Place::inside(map.sites[si].hex);
            state.sites[si].control == Some(side)
                && state.sides_at(inside).is_empty()
                && !state.under_siege(si)
        })
        .collect()
}

/// The Crusades 9.7.6: every offer `side` may make now: each prisoner it holds for each of
/// its leaders held by the other side, and each city it may turn over for each of its held
/// leaders; an offer is only made for a leader who has somewhere to return to (9.7.6 D).
pub fn offers(state: &State, side: Side) -> Vec<Offer> {
    let mut out = Vec::new();
    let mine_held: Vec<usize> = held_from(state, side)
        .into_iter()
        .filter(|&l| held_hex(state, l).is_some_and(|h| release_place(state, l, h).is_some()))
        .collect();
    let theirs: Vec<usize> = prisoners_of(state, side)
        .into_iter()
        .filter(|&l| {
            state.side_of(l).seat().is_some()
                && held_hex(state, l).is_some_and(|h| release_place(state, l, h).is_some())
        })
        .collect();
    for &get in &mine_held {
        for &give in &theirs {
            if state.leaders[get].status == Status::Captured(state.side_of(give)) {
                out.push(Offer::Exchange { give, get });
            }
        }
        for site in ransom_sites(state, side) {
            out.push(Offer::Ransom { get, site });
        }
    }
    out
}

/// Whether an offer `side` made is still possible.
pub fn offer_ok(state: &State, side: Side, offer: &Offer) -> bool {
    offers(state, side).contains(offer)
}

/// The offer in words.
pub fn offer_text(state: &State, offer: &Offer) -> String {
    let id = |l: usize| state.scenario.leaders[l].id.clone();
    match *offer {
        Offer::Exchange { give, get } => format!("offer exchange {} for {}", id(give), id(get)),
        Offer::Ransom { get, site } => format!(
            "offer ransom {} for {}",
            id(get),
            state.scenario.map.sites[site].hex
        ),
    }
}

/// The Crusades 9.7.6: an accepted offer is carried out: the leaders go free (9.7.6 D), and
/// a ransom city passes to the captor with its castle garrison (10.2.3).
pub fn carry_out(state: &mut State, log: &mut Log, by: Side, offer: Offer) {
    match offer {
        Offer::Exchange { give, get } => {
            for l in [give, get] {
                let from = held_hex(state, l).unwrap_or_else(|| state.scenario.map.sites[0].hex);
                free(state, log, l, from);
            }
        }
        Offer::Ransom { get, site } => {
            let captor = match state.leaders[get].status {
                Status::Captured(c) => c,
                _ => return,
            };
            let from = held_hex(state, get).unwrap_or(state.scenario.map.sites[site].hex);
            state.sites[site].control = Some(captor);
            state.sites[site].worse = 0;
            state.sites[site].castle_garrison = state.scenario.map.sites[site].castle;
            let name = state.scenario.map.sites[site].name.clone();
            log.push_with(|| {
                Event::public(
                    "The Crusades 9.7.6",
                    format!(
                        "the {} turn {name} over to the {}",
                        by.name(),
                        captor.name()
                    ),
                )
            });
            free(state, log, get, from);
        }
    }
}

/// The Crusades 9.7.6 F: the captor kills a prisoner (a Crusader's retinue in limbo dies
/// with him, 9.7.5).
pub fn kill(state: &mut State, log: &mut Log, leader: usize) {
    let side = state.side_of(leader);
    if let Some(slot) = side.seat() {
        state.losses[slot.index()] += u32::from(state.leaders[leader].asps);
    }
    state.leaders[leader].asps = 0;
    state.leaders[leader].status = Status::Dead;
    state.leaders[leader].held = None;
    let id = state.scenario.leaders[leader].id.clone();
    log.push_with(|| Event::public("The Crusades 9.7.6 F", format!("{id} is put to death")));
}

/// The parley of the Order Segment (9.7.6): the sides that may make an offer or kill a
/// prisoner, Crusaders first; the phase moves to the first of them, or to the orders.
pub fn start_parley(state: &mut State) {
    state.parley = vec![Side::Crusaders, Side::Saracens];
    state.offer = None;
    next_parley(state);
}

/// Whether `side` has anything to parley about: an offer to make or a prisoner to kill.
fn may_parley(state: &State, side: Side) -> bool {
    !offers(state, side).is_empty() || !prisoners_of(state, side).is_empty()
}

/// Moves to the next side's parley (skipping sides with nothing to parley about), or to the
/// orders when none is left.
pub fn next_parley(state: &mut State) {
    let parley: Vec<Side> = state
        .parley
        .iter()
        .copied()
        .filter(|&s| may_parley(state, s))
        .collect();
    state.parley = parley;
    state.phase = match state.parley.first() {
        Some(&s) => Phase::Parley(s),
        None => Phase::Orders,
    };
}

/// A side's parley is over (it passed, or its offer was answered).
pub fn end_parley(state: &mut State, side: Side) {
    state.parley.retain(|&s| s != side);
    state.offer = None;
    next_parley(state);
}

/// The Crusades 9.7.6 A, C: at the end of the turn, a prisoner whose city his captor no
/// longer holds goes free if his own side took it, and is otherwise moved to the captor's
/// nearest occupied city or castle (escaping when there is none).
pub fn check_holdings(state: &mut State, log: &mut Log) {
    for l in 0..state.leaders.len() {
        let Status::Captured(captor) = state.leaders[l].status else {
            continue;
        };
        let Some(si) = state.leaders[l].held else {
            continue;
        };
        let hex = state.scenario.map.sites[si].hex;
        if state.sites[si].control == Some(captor) {
            continue;
        }
        if state.sites[si].control == Some(state.side_of(l)) {
            let id = state.scenario.leaders[l].id.clone();
            let name = state.scenario.map.sites[si].name.clone();
            log.push_with(|| {
                Event::public(
                    "The Crusades 9.7.6",
                    format!("{id} is freed when his side takes {name}"),
                )
            });
            state.leaders[l].status = Status::Active;
            state.leaders[l].place = Some(Place::inside(hex));
            state.leaders[l].held = None;
        } else {
            capture(state, log, l, captor, hex);
        }
    }
}

/// The Crusades 9.7.6 C: whether `leader`'s force may take `prisoner` along under guard
/// this turn, naming what is wrong: the prisoner is one `side` holds in the city or castle
/// the leader is inside, not already given a guard, and the guard is "at least 1 SP plus one
/// leader": the leader himself, active and under this seat's orders, with at least one ASP
/// (counting those a Saracen leader's written `take` attaches before anything moves,
/// 6.1.2). Whether the guard still has its SP is checked again as it sets out.
pub fn escort_ok(state: &State, side: Side, leader: usize, prisoner: usize) -> Result<(), String> {
    let n = state.leaders.len();
    if leader >= n || prisoner >= n {
        return Err("no such leader".into());
    }
    let id = |l: usize| state.scenario.leaders[l].id.clone();
    if state.leaders[leader].status != Status::Active
        || state.side_of(leader) != side
        || !crate::neutrals::may_order(state, leader)
    {
        return Err(format!(
            "{} cannot guard a prisoner: the guard is a force of at least 1 SP and one leader of this side, on the map and under its orders (9.7.6 C)",
            id(leader)
        ));
    }
    let (Status::Captured(captor), Some(si)) =
        (state.leaders[prisoner].status, state.leaders[prisoner].held)
    else {
        return Err(format!("{} is not a prisoner (9.7.6 C)", id(prisoner)));
    };
    if captor != side {
        return Err(format!(
            "{} is not a prisoner of the {} (9.7.6 C)",
            id(prisoner),
            side.name()
        ));
    }
    let site = &state.scenario.map.sites[si];
    if state.leaders[leader].place != Some(Place::inside(site.hex)) {
        return Err(format!(
            "{} is held in {}; only a force inside that city or castle may take him along (9.7.6 C)",
            id(prisoner),
            site.name
        ));
    }
    let book = state.book(side);
    if book.escort.contains_key(&prisoner) {
        return Err(format!(
            "{} already has a guard written (cancel it first)",
            id(prisoner)
        ));
    }
    let asps = state.leaders[leader].asps + book.take.get(&leader).copied().unwrap_or(0);
    if asps == 0 {
        return Err(format!(
            "{} has no SPs with him: a guard is at least 1 SP plus one leader (9.7.6 C)",
            id(leader)
        ));
    }
    Ok(())
}

/// The Crusades 9.7.6 C: every (guard, prisoner) pair `side` may still write.
pub fn escorts(state: &State, side: Side) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for prisoner in prisoners_of(state, side) {
        let Some(si) = state.leaders[prisoner].held else {
            continue;
        };
        let inside = Place::inside(state.scenario.map.sites[si].hex);
        for leader in state.side_leaders_at(side, inside) {
            if escort_ok(state, side, leader, prisoner).is_ok() {
                out.push((leader, prisoner));
            }
        }
    }
    out
}

/// A prisoner on the road under guard (9.7.6 C), between setting out and arriving.
#[derive(Clone, Debug)]
pub struct Escorted {
    prisoner: usize,
    captor: Side,
    guard: Vec<usize>,
    end: HexId,
}

/// The Crusades 9.7.6 C: the prisoners whose written guard marches this Movement Phase.
/// `marches` lists each land move as it was carried out: the leaders of the force, where it
/// started and where it ended. A guard that does not march out of the prisoner's city by
/// land (no move, a sally, a sea transport, a leader gone before Movement, or no ASP left
/// after `leave`) leaves him where he is held.
pub fn set_out(
    state: &State,
    log: &mut Log,
    marches: &[(Vec<usize>, Place, Place)],
) -> Vec<Escorted> {
    let mut out = Vec::new();
    for side in [Side::Crusaders, Side::Saracens] {
        for (&prisoner, &leader) in &state.book(side).escort {
            let (Status::Captured(captor), Some(si)) =
                (state.leaders[prisoner].status, state.leaders[prisoner].held)
            else {
                continue;
            };
            let from = Place::inside(state.scenario.map.sites[si].hex);
            let march = marches
                .iter()
                .find(|(group, start, _)| *start == from && group.contains(&leader));
            let asps: u16 = march.map_or(0, |(g, _, _)| {
                g.iter().map(|&l| state.leaders[l].asps).sum()
            });
            let id = state.scenario.leaders[prisoner].id.clone();
            match march {
                Some((group, _, end)) if captor == side && asps > 0 => out.push(Escorted {
                    prisoner,
                    captor,
                    guard: group.clone(),
                    end: end.hex,
                }),
                _ => log.push_with(|| {
                    Event::public(
                        "The Crusades 9.7.6 C",
                        format!("{id}'s guard does not march: he stays where he is held"),
                    )
                }),
            }
        }
    }
    out
}

/// The Crusades 9.7.6 C, after the Movement Phase's attrition: a prisoner whose guard still
/// has a leader and an SP is held in his captor's occupied city or castle nearest to where
/// the guard ended (the one it ended in, if any; escaping if there is none, 9.7.6 A); a
/// prisoner whose guard was destroyed on the road goes free where it ended (9.7.6 A, D).
/// The choice (lodged at the end of the march, so the guard's battles do not concern him)
/// is explained in `docs/the-crusades/rules-notes.md`.
pub fn arrive(state: &mut State, log: &mut Log, escorted: Vec<Escorted>) {
    for e in escorted {
        let alive: Vec<usize> = e
            .guard
            .iter()
            .copied()
            .filter(|&l| {
                state.leaders[l].status == Status::Active && state.leaders[l].place.is_some()
            })
            .collect();
        let asps: u16 = alive.iter().map(|&l| state.leaders[l].asps).sum();
        match alive.first() {
            Some(&l) if asps > 0 => {
                let hex = state.leaders[l].place.map_or(e.end, |p| p.hex);
                capture(state, log, e.prisoner, e.captor, hex);
            }
            _ => {
                let id = state.scenario.leaders[e.prisoner].id.clone();
                log.push_with(|| {
                    Event::public(
                        "The Crusades 9.7.6 C",
                        format!("{id}'s guard is destroyed on the road: he goes free"),
                    )
                });
                free(state, log, e.prisoner, e.end);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use engine::Seat;

    fn state() -> State {
        crate::third_crusade(5)
    }

    /// Guy taken by the Saracens at 1823, Kara-Kush by the Crusaders at 1618 (held in Tyre).
    fn capture_guy_and_kara_kush(s: &mut State, log: &mut Log) {
        let guy = s.scenario.leader("guy").unwrap();
        let kk = s.scenario.leader("kara-kush").unwrap();
        capture(s, log, guy, Side::Saracens, "1823".parse().unwrap());
        capture(s, log, kk, Side::Crusaders, "1618".parse().unwrap());
    }

    fn site(s: &State, name: &str) -> usize {
        s.scenario.map.site_named(name).unwrap()
    }

    /// 9.7.6: an exchange offered by one side and accepted by the other frees both leaders,
    /// each at the nearest city of his side (9.7.6 D); Guy's retinue comes back from limbo
    /// (9.7.5 B).
    #[test]
    fn an_exchange_of_prisoners() {
        let mut s = state();
        let guy = s.scenario.leader("guy").unwrap();
        let kk = s.scenario.leader("kara-kush").unwrap();
        let retinue = s.leaders[guy].asps;
        let mut log = Log::recording();
        capture_guy_and_kara_kush(&mut s, &mut log);
        assert!(s.leaders[guy].held.is_some());
        assert_eq!(s.leaders[kk].held, Some(site(&s, "Tyre")));
        start_parley(&mut s);
        assert_eq!(s.phase, Phase::Parley(Side::Crusaders));
        let offer = Offer::Exchange { give: kk, get: guy };
        assert!(offers(&s, Side::Crusaders).contains(&offer));
        assert!(s.legal(Seat(0)).contains(&Action::Offer { offer }));
        s.play(Seat(0), &Action::Offer { offer }, &mut log).unwrap();
        assert_eq!(s.phase, Phase::OfferAnswer(Side::Saracens));
        assert!(s.play(Seat(0), &Action::Accept, &mut log).is_err());
        s.play(Seat(1), &Action::Accept, &mut log).unwrap();
        assert_eq!(s.leaders[guy].status, Status::Active);
        assert_eq!(s.leaders[guy].asps, retinue);
        assert_eq!(s.leaders[kk].status, Status::Active);
        let at = s.leaders[kk].place.unwrap();
        let si = s.scenario.map.site_at(at.hex).unwrap();
        assert_eq!(
            s.sites[si].control,
            Some(Side::Saracens),
            "home among his own"
        );
        // The Crusaders' offer was answered: the Saracens, holding nobody, have no parley.
        assert_eq!(s.phase, Phase::Orders);
    }

    /// 9.7.6: a refused offer changes nothing but ends that side's parley.
    #[test]
    fn a_refused_offer() {
        let mut s = state();
        let guy = s.scenario.leader("guy").unwrap();
        let kk = s.scenario.leader("kara-kush").unwrap();
        let mut log = Log::recording();
        capture_guy_and_kara_kush(&mut s, &mut log);
        start_parley(&mut s);
        let offer = Offer::Exchange { give: kk, get: guy };
        s.play(Seat(0), &Action::Offer { offer }, &mut log).unwrap();
        s.play(Seat(1), &Action::Refuse, &mut log).unwrap();
        assert_eq!(s.leaders[guy].status, Status::Captured(Side::Saracens));
        assert_eq!(s.phase, Phase::Parley(Side::Saracens));
    }

    /// 9.7.6 F: the captor may kill a prisoner at whim; 9.7.5: a Crusader's retinue dies
    /// with him.
    #[test]
    fn killing_a_prisoner() {
        let mut s = state();
        let guy = s.scenario.leader("guy").unwrap();
        let mut log = Log::recording();
        capture(
            &mut s,
            &mut log,
            guy,
            Side::Saracens,
            "1823".parse().unwrap(),
        );
        start_parley(&mut s);
        assert_eq!(
            s.phase,
            Phase::Parley(Side::Crusaders),
            "Guy's side may ransom him"
        );
        s.play(Seat(0), &Action::Pass, &mut log).unwrap();
        assert_eq!(s.phase, Phase::Parley(Side::Saracens));
        let kk = s.scenario.leader("kara-kush").unwrap();
        assert!(s
            .play(Seat(1), &Action::Kill { leader: kk }, &mut log)
            .is_err());
        s.play(Seat(1), &Action::Kill { leader: guy }, &mut log)
            .unwrap();
        assert_eq!(s.leaders[guy].status, Status::Dead);
        assert_eq!(s.leaders[guy].asps, 0);
        assert_eq!(s.phase, Phase::Orders);
    }

    /// 9.7.6 A: a captor with no occupied city or castle cannot hold a prisoner: he escapes
    /// to the nearest place of his side.
    #[test]
    fn a_prisoner_with_nowhere_to_be_held_escapes() {
        let mut s = state();
        let kk = s.scenario.leader("kara-kush").unwrap();
        for si in 0..s.sites.len() {
            if s.sites[si].control == Some(Side::Crusaders) {
                s.sites[si].control = None;
                s.sites[si].castle_garrison = false;
            }
        }
        for l in 0..s.leaders.len() {
            if s.side_of(l) == Side::Crusaders && s.leaders[l].place.is_some_and(|p| p.inside) {
                s.leaders[l].place = Some(Place::outside(s.leaders[l].place.unwrap().hex));
            }
        }
        capture(
            &mut s,
            &mut Log::recording(),
            kk,
            Side::Crusaders,
            "1619".parse().unwrap(),
        );
        assert_eq!(s.leaders[kk].status, Status::Active);
        assert!(s.leaders[kk].place.is_some());
    }

    /// A prisoner is freed when his own side takes the city that holds him; when another
    /// takes it he is moved to his captor's nearest city.
    #[test]
    fn prisoners_follow_the_city_that_holds_them() {
        let mut s = state();
        let guy = s.scenario.leader("guy").unwrap();
        let mut log = Log::recording();
        capture(
            &mut s,
            &mut log,
            guy,
            Side::Saracens,
            "1823".parse().unwrap(),
        );
        let held = s.leaders[guy].held.expect("held");
        s.sites[held].control = Some(Side::Crusaders);
        check_holdings(&mut s, &mut log);
        assert_eq!(s.leaders[guy].status, Status::Active);
        assert_eq!(
            s.leaders[guy].place,
            Some(Place::inside(s.scenario.map.sites[held].hex))
        );
        // Taken by a third party, the prisoner moves to another city of his captor.
        let kk = s.scenario.leader("kara-kush").unwrap();
        capture(
            &mut s,
            &mut log,
            kk,
            Side::Crusaders,
            "1618".parse().unwrap(),
        );
        let tyre = site(&s, "Tyre");
        s.sites[tyre].control = Some(Side::Cypriots);
        check_holdings(&mut s, &mut log);
        assert_eq!(s.leaders[kk].status, Status::Captured(Side::Crusaders));
        assert_ne!(s.leaders[kk].held, Some(tyre));
    }

    /// Kara-Kush held by the Crusaders in Tyre, and a Crusader leader of Tyre's force.
    fn held_in_tyre() -> (State, usize, usize, usize) {
        let mut s = state();
        let kk = s.scenario.leader("kara-kush").unwrap();
        capture(
            &mut s,
            &mut Log::recording(),
            kk,
            Side::Crusaders,
            "1618".parse().unwrap(),
        );
        let tyre = site(&s, "Tyre");
        let guard = s.scenario.leader("conrad").unwrap();
        assert_eq!(
            s.leaders[guard].place,
            Some(Place::inside(s.scenario.map.sites[tyre].hex))
        );
        (s, kk, guard, tyre)
    }

    /// 9.7.6 C: the guard is at least 1 SP plus one leader: a leader with no SPs is refused
    /// with a reason naming the rule; with an SP he may guard.
    #[test]
    fn a_guard_needs_an_sp_and_a_leader() {
        let (mut s, kk, conrad, _) = held_in_tyre();
        assert!(escort_ok(&s, Side::Crusaders, conrad, kk).is_ok());
        assert!(escorts(&s, Side::Crusaders).contains(&(conrad, kk)));
        s.leaders[conrad].asps = 0;
        let e = escort_ok(&s, Side::Crusaders, conrad, kk).unwrap_err();
        assert!(e.contains("at least 1 SP plus one leader"), "{e}");
        assert!(!escorts(&s, Side::Crusaders).contains(&(conrad, kk)));
        let e = s
            .play(
                Seat(0),
                &Action::Escort {
                    leader: conrad,
                    prisoner: kk,
                },
                &mut Log::recording(),
            )
            .unwrap_err();
        assert!(format!("{e:?}").contains("no SPs"), "{e:?}");
        assert!(s.orders[0].escort.is_empty());
    }

    /// 9.7.6 C: the prisoner goes with his guard and is held in the captor's occupied city
    /// nearest to where it ended; a guard that does not march leaves him where he is held.
    #[test]
    fn a_prisoner_follows_his_marching_guard() {
        let (mut s, kk, conrad, tyre) = held_in_tyre();
        s.orders[0].escort.insert(kk, conrad);
        let start = s.leaders[conrad].place.unwrap();
        let mut log = Log::recording();
        // No march out of Tyre: he stays.
        assert!(set_out(&s, &mut log, &[]).is_empty());
        assert_eq!(s.leaders[kk].held, Some(tyre));
        // Marching to Acre's open hex, he is held in the Crusaders' occupied city nearest it.
        let end = Place::outside("1619".parse().unwrap());
        let going = set_out(&s, &mut log, &[(vec![conrad], start, end)]);
        assert_eq!(going.len(), 1);
        s.leaders[conrad].place = Some(end);
        let want = holding_site(&s, Side::Crusaders, end.hex);
        assert!(want.is_some());
        arrive(&mut s, &mut log, going);
        assert_eq!(s.leaders[kk].status, Status::Captured(Side::Crusaders));
        assert_eq!(s.leaders[kk].held, want);
    }

    /// 9.7.6 C, A: a guard destroyed on the road (its last SP lost to attrition) loses its
    /// prisoner: he goes free, among his own side nearest to where the guard ended.
    #[test]
    fn a_prisoner_whose_guard_is_destroyed_goes_free() {
        let (mut s, kk, conrad, _) = held_in_tyre();
        s.orders[0].escort.insert(kk, conrad);
        let start = s.leaders[conrad].place.unwrap();
        let end = Place::outside("1619".parse().unwrap());
        let mut log = Log::recording();
        let going = set_out(&s, &mut log, &[(vec![conrad], start, end)]);
        s.leaders[conrad].asps = 0;
        s.leaders[conrad].status = Status::Dead;
        s.leaders[conrad].place = None;
        arrive(&mut s, &mut log, going);
        assert_eq!(s.leaders[kk].status, Status::Active);
        assert_eq!(s.leaders[kk].held, None);
        assert_eq!(s.leaders[kk].place, release_place(&s, kk, end.hex));
    }
}
