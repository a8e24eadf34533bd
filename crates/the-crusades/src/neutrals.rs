//! Neutrals (15.0): Bohemond III of Antioch, Bohemond IV of Tripoli and King Leo II of
//! Armenia belong to the Crusaders but may not be ordered until the Saracens attack one of
//! them (the two Bohemonds wake together); Isaac Comnenus of Cyprus is beholden to no one and
//! defends in place. Unwoken neutrals influence only their own city (15.0 G, in
//! [`crate::zoi`]); unoccupied neutral ports are friendly to every fleet (15.0 F, in
//! [`crate::naval`]).

use engine::{Event, Log};

use crate::scenario::Side;
use crate::state::State;

/// The Crusades 15.0 B-D: when the Saracens fight a group holding an unwoken neutral, his
/// whole neutral group wakes and may be ordered from the next Order Segment on.
pub fn wake_if_attacked(state: &mut State, log: &mut Log, one: &[usize], other: &[usize]) {
    for (a, b) in [(one, other), (other, one)] {
        if !a.iter().any(|&l| state.side_of(l) == Side::Saracens) {
            continue;
        }
        for &l in b {
            if !state.leaders[l].neutral {
                continue;
            }
            let groups = state.scenario.neutral_groups.clone();
            for g in groups.iter().filter(|g| g.contains(&l)) {
                for &m in g {
                    if state.leaders[m].neutral {
                        state.leaders[m].neutral = false;
                        let id = state.scenario.leaders[m].id.clone();
                        log.push_with(|| {
                            Event::public(
                                "The Crusades 15.0 C",
                                format!("{id} is attacked by the Saracens and joins the Crusade"),
                            )
                        });
                    }
                }
            }
        }
    }
}

/// The Crusades 15.0 B, 15.0 E: whether a leader may be given orders: neither an unwoken
/// neutral nor a Cypriot.
pub fn may_order(state: &State, leader: usize) -> bool {
    !state.leaders[leader].neutral && state.side_of(leader) != Side::Cypriots
}
