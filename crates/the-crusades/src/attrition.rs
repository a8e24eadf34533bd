//! Movement Attrition (6.4) with the winter rules of 13.2: Attrition Points gathered along
//! a path, non-moving attrition, the 19+ line for Crusaders without a line of
//! communications, and losses spread among a force's leaders.

use hexgrid::HexId;

use crate::map::{Place, Terrain};
use crate::scenario::Side;
use crate::state::State;

/// The attrition level of a hex now: its terrain, worsened by a siege in its city
/// (10.5.5 A: the worsened level holds for movement too).
pub fn level(state: &State, hex: HexId) -> Terrain {
    let map = &state.scenario.map;
    let mut t = map.terrain(hex);
    if let Some(site) = map.site_at(hex) {
        for _ in 0..state.sites[site].worse {
            t = t.worse();
        }
    }
    t
}

/// The Crusades 6.4.1, 6.4.6 A, 13.2.3 A, 13.2.7: the APs a force gathers in a hex: its
/// attrition value, doubled in winter except in a fertile hex of Egypt.
pub fn hex_aps(state: &State, hex: HexId) -> u16 {
    let t = level(state, hex);
    let v = state.scenario.tables.attrition_value(t);
    let egypt_spared =
        state.scenario.map.in_egypt(hex) && state.scenario.map.terrain(hex) == Terrain::Fertile;
    if state.turn_info().winter && !egypt_spared {
        v * 2
    } else {
        v
    }
}

/// The Crusades 6.4.2, 10.1.3 B: the APs of a path: the sum over every hex entered; city and
/// castle mini-hexes have no AP value.
pub fn path_aps(state: &State, entered: &[Place]) -> u16 {
    path_aps_by(entered, |hex| hex_aps(state, hex))
}

/// [`path_aps`], each hex's APs as `hex_aps` tells them (a caller that keeps them).
pub fn path_aps_by(entered: &[Place], mut hex_aps: impl FnMut(HexId) -> u16) -> u16 {
    let mut last = None;
    let mut total = 0;
    for p in entered {
        if !p.inside && last != Some(p.hex) {
            total += hex_aps(p.hex);
        }
        last = Some(p.hex);
    }
    total
}

/// The Crusades 6.4.7 A-B, 13.2.6 (never inside a city or for besiegers; the caller leaves
/// those out): APs of a force that has not moved for `still` consecutive turns
/// (counting this one): 5 x the hex's attrition value for each consecutive turn from the
/// second on, cumulative.
pub fn still_aps(state: &State, hex: HexId, still: u8) -> u16 {
    if still < 2 {
        return 0;
    }
    5 * hex_aps(state, hex) * u16::from(still - 1)
}

/// What a force loses to movement attrition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttritionLoss {
    /// APs counted (the 19+ row's APs when the force has no line).
    pub aps: u16,
    /// ASPs lost.
    pub asps: u16,
}

/// The Crusades 6.4.3-6.4.4, 6.4.6 B, 11.2.1, 11.2.2 B, 13.2.3 B, 13.2.5: the ASPs a force of
/// `asps` of `side` loses with `aps` APs; `moved`, `supplied` and `winter_idle` (not moving,
/// outside any city and not besieging, in winter) add the fixed losses.
pub fn movement_loss(
    state: &State,
    side: Side,
    asps: u16,
    aps: u16,
    moved: bool,
    supplied: bool,
    winter_idle: bool,
) -> AttritionLoss {
    let tables = &state.scenario.tables;
    let line = side.line();
    // 6.4.6 B, 11.2.1: Crusaders without a line use the 19+ row, moving or not.
    let aps = if !supplied && side != Side::Saracens {
        aps.max(tables.worst_attrition_row(line))
    } else {
        aps
    };
    let mut loss = tables.movement_attrition(line, aps, asps);
    // 13.2.3 B: a force that moves in winter loses at least 1 ASP.
    if moved && state.turn_info().winter {
        loss = loss.max(1);
    }
    // 11.2.2 B: a Saracen force without a line loses 1 ASP more.
    if !supplied && side == Side::Saracens {
        loss += 1;
    }
    // 13.2.5: winter idleness in the open costs 1 ASP more.
    if winter_idle && state.turn_info().winter {
        loss += 1;
    }
    AttritionLoss {
        aps,
        asps: loss.min(asps),
    }
}

/// Which rule shares a loss among the leaders of a force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharing {
    /// The Crusades 9.5 D: losses of a battle (the results table, an overrun, a retreat that
    /// cannot be made, 9.6 D): the Crusaders spread them as evenly as possible among their
    /// leaders, and their owner places only what cannot be spread evenly.
    Combat,
    /// The Crusades 6.4.5 B: attrition of every kind (movement, standing still, siege
    /// attrition, a siege that cannot be maintained, debarkation): the owner distributes it
    /// as desired.
    Attrition,
}

/// The Crusades 6.4.5, 9.5 D, 3.6 B: takes `loss` ASPs from a force's leaders and from the
/// leaderless ASPs of its side at `place`; returns the ASPs actually taken.
///
/// The owner's choice is his written loss order ([`crate::orders::OrderBook::losses`],
/// secret with his orders): where the rules leave the distribution to him (all Saracen
/// losses, 3.6 B; Crusader attrition, 6.4.5 B) the leaders he named lose first, in the order
/// named, each down to one ASP (a leader is never thrown away by a loss order); then the
/// Saracens' leaderless ASPs; then the rest as evenly as possible. Crusader battle losses
/// (9.5 D) are spread in equal shares among the leaders, and only the remainder that cannot
/// be shared equally goes first to the leaders he named, then to the largest retinues. A
/// Crusader leader left with no retinue is eliminated with it (3.5.4 B).
pub fn spread_loss(
    state: &mut State,
    leaders: &[usize],
    side: Side,
    place: Option<Place>,
    loss: u16,
    sharing: Sharing,
) -> u16 {
    let named: Vec<usize> = if side.seat().is_some() {
        state
            .book(side)
            .losses
            .iter()
            .copied()
            .filter(|l| leaders.contains(l))
            .collect()
    } else {
        Vec::new()
    };
    let even = side == Side::Crusaders && sharing == Sharing::Combat;
    let mut left = loss;
    if !even {
        for &l in &named {
            let t = left.min(state.leaders[l].asps.saturating_sub(1));
            state.leaders[l].asps -= t;
            left -= t;
        }
    }
    if let Some(p) = place {
        if side != Side::Crusaders {
            left -= state.take_garrison(side, p, left);
        }
    }
    if side == Side::Crusaders {
        left = equal_shares(state, leaders, &named, left);
    } else {
        while left > 0 {
            let Some(&i) = leaders
                .iter()
                .filter(|&&i| state.leaders[i].asps > 0)
                .max_by_key(|&&i| (state.leaders[i].asps, std::cmp::Reverse(i)))
            else {
                break;
            };
            state.leaders[i].asps -= 1;
            left -= 1;
        }
    }
    if left > 0 {
        if let Some(p) = place {
            left -= state.take_garrison(side, p, left);
        }
    }
    let taken = loss - left;
    if let Some(slot) = side.seat() {
        state.losses[slot.index()] += u32::from(taken);
    }
    for &i in leaders {
        if state.leaders[i].asps == 0 && side == Side::Crusaders {
            state.leaders[i].status = crate::state::Status::Dead;
            state.leaders[i].place = None;
        }
    }
    taken
}

/// The Crusades 9.5 D: `loss` ASPs in equal shares among the leaders with ASPs (a leader
/// whose share is more than his retinue loses all of it and the rest is shared again); the
/// remainder one ASP each, first to the leaders `named` by the owner, then to the largest
/// retinues. Returns what could not be taken.
fn equal_shares(state: &mut State, leaders: &[usize], named: &[usize], mut left: u16) -> u16 {
    while left > 0 {
        let alive: Vec<usize> = leaders
            .iter()
            .copied()
            .filter(|&l| state.leaders[l].asps > 0)
            .collect();
        if alive.is_empty() {
            break;
        }
        let share = left / alive.len() as u16;
        if share == 0 {
            let mut order = alive;
            order.sort_by_key(|&l| {
                (
                    named.iter().position(|&n| n == l).unwrap_or(usize::MAX),
                    std::cmp::Reverse(state.leaders[l].asps),
                    l,
                )
            });
            for l in order.into_iter().take(usize::from(left)) {
                state.leaders[l].asps -= 1;
                left -= 1;
            }
            break;
        }
        for l in alive {
            let t = share.min(state.leaders[l].asps);
            state.leaders[l].asps -= t;
            left -= t;
        }
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        crate::third_crusade(5)
    }

    fn three(s: &mut State, asps: [u16; 3]) -> Vec<usize> {
        let ids = ["guy", "amalric", "humphrey"].map(|i| s.scenario.leader(i).unwrap());
        for (l, a) in ids.iter().zip(asps) {
            s.leaders[*l].asps = a;
        }
        ids.to_vec()
    }

    /// 9.5 D: Crusader battle losses in equal shares; the remainder first to the leaders the
    /// owner named in his loss order, then to the largest retinues.
    #[test]
    fn crusader_battle_losses_are_spread_evenly() {
        let mut s = state();
        let ls = three(&mut s, [20, 10, 5]);
        assert_eq!(
            spread_loss(&mut s, &ls, Side::Crusaders, None, 7, Sharing::Combat),
            7
        );
        let got: Vec<u16> = ls.iter().map(|&l| s.leaders[l].asps).collect();
        assert_eq!(got, [17, 8, 3], "two each, the odd one from the largest");
        let mut s = state();
        let ls = three(&mut s, [20, 10, 5]);
        s.orders[0].losses = vec![ls[2]];
        spread_loss(&mut s, &ls, Side::Crusaders, None, 7, Sharing::Combat);
        let got: Vec<u16> = ls.iter().map(|&l| s.leaders[l].asps).collect();
        assert_eq!(got, [18, 8, 2], "the odd one from the leader named");
        // A share larger than a retinue takes it all (3.5.4 B: the leader goes with it).
        let mut s = state();
        let ls = three(&mut s, [20, 10, 2]);
        spread_loss(&mut s, &ls, Side::Crusaders, None, 12, Sharing::Combat);
        let got: Vec<u16> = ls.iter().map(|&l| s.leaders[l].asps).collect();
        assert_eq!(got, [15, 5, 0]);
        assert_eq!(s.leaders[ls[2]].status, crate::state::Status::Dead);
    }

    /// 6.4.5 B: attrition as the owner desires: the leaders named lose first, each down to
    /// one ASP, the rest is spread evenly.
    #[test]
    fn attrition_follows_the_loss_order() {
        let mut s = state();
        let ls = three(&mut s, [20, 10, 5]);
        s.orders[0].losses = vec![ls[1], ls[0]];
        spread_loss(&mut s, &ls, Side::Crusaders, None, 12, Sharing::Attrition);
        let got: Vec<u16> = ls.iter().map(|&l| s.leaders[l].asps).collect();
        assert_eq!(
            got,
            [17, 1, 5],
            "nine from the first named, three from the next"
        );
        // With no loss order, an even spread.
        let mut s = state();
        let ls = three(&mut s, [20, 10, 5]);
        spread_loss(&mut s, &ls, Side::Crusaders, None, 6, Sharing::Attrition);
        let got: Vec<u16> = ls.iter().map(|&l| s.leaders[l].asps).collect();
        assert_eq!(got, [18, 8, 3]);
    }

    /// 3.6 B: the Saracens choose which ASPs go: the leaders named first, then leaderless
    /// ASPs, then the rest.
    #[test]
    fn saracen_losses_follow_the_loss_order() {
        let mut s = state();
        let saladin = s.scenario.leader("saladin").unwrap();
        let adil = s.scenario.leader("al-adil").unwrap();
        let place = Place::outside("1720".parse().unwrap());
        for l in [saladin, adil] {
            s.leaders[l].place = Some(place);
            s.leaders[l].asps = 10;
        }
        s.add_garrison(Side::Saracens, place, 4);
        s.orders[1].losses = vec![adil];
        spread_loss(
            &mut s,
            &[saladin, adil],
            Side::Saracens,
            Some(place),
            12,
            Sharing::Combat,
        );
        assert_eq!(s.leaders[adil].asps, 1, "nine from the leader named");
        assert_eq!(s.garrison_at(Side::Saracens, place), 1, "three leaderless");
        assert_eq!(s.leaders[saladin].asps, 10);
    }
}
