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
    let mut last = None;
    let mut total = 0;
    for p in entered {
        if !p.inside && last != Some(p.hex) {
            total += hex_aps(state, p.hex);
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

/// The Crusades 6.4.5, 9.5 D: takes `loss` ASPs from leaders as evenly as possible (the
/// largest retinue first, one at a time), then from leaderless ASPs at `place`; a Crusader
/// leader left with no retinue is eliminated with it (3.5.4 B). Returns ASPs actually taken.
pub fn spread_loss(
    state: &mut State,
    leaders: &[usize],
    side: Side,
    place: Option<Place>,
    loss: u16,
) -> u16 {
    let mut left = loss;
    if let Some(p) = place {
        if side == Side::Saracens {
            left -= state.take_garrison(side, p, left);
        }
    }
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
