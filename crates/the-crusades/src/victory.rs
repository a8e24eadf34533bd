//! Third Crusade Victory Conditions (16.5): Victory Points for cities and castles controlled
//! at the end, the historical Jerusalem restriction (16.5.2 A) and its option (16.5.2 C).

use engine::{Outcome, Seat};

use crate::scenario::Side;
use crate::state::State;

/// The Crusades 16.5.1, 16.5.3: each side's VPs for the places it controls (a besieged city
/// still counts for the besieged, 16.5.3 B: control changes only when a city is taken).
pub fn points(state: &State) -> (u16, u16) {
    let mut c = 0;
    let mut s = 0;
    for &(site, cv, sv) in &state.scenario.victory {
        match state.sites[site].control {
            Some(Side::Crusaders) => c += cv,
            Some(Side::Saracens) => s += sv,
            _ => {}
        }
    }
    (c, s)
}

/// The Crusades 16.5.2: the side with more VPs wins; a Crusader lead of less than five
/// points without Jerusalem is a draw unless the option ignores it; equal points draw.
pub fn outcome(state: &State) -> Outcome {
    let (c, s) = points(state);
    let jerusalem = state
        .scenario
        .map
        .site_named("Jerusalem")
        .is_some_and(|j| state.sites[j].control == Some(Side::Crusaders));
    let reason =
        format!("victory points at the end of August II 1192: Crusaders {c}, Saracens {s}");
    let (winner, level) = if c > s {
        if !jerusalem && c - s < state.scenario.jerusalem_margin && !state.options.ignore_jerusalem
        {
            (
                None,
                Some(
                    "draw: the Crusaders lead by less than five without Jerusalem (16.5.2 A)"
                        .to_string(),
                ),
            )
        } else {
            (Some(Seat(0)), None)
        }
    } else if s > c {
        (Some(Seat(1)), None)
    } else {
        (None, None)
    };
    Outcome {
        winner,
        level,
        reason,
    }
}
