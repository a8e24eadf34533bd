//! Random Events of the Third Crusade (14.0): each side rolls a die in the Random Events
//! Phase (none on the first turn); on a 1 a second die picks the event. The one printed event
//! is assassination (14.2): the side names an enemy leader, who dies on a roll above his
//! Combat Rating (the Crusaders subtract 2); a dead Crusader's ASPs pass to his contingent,
//! except Richard's and Philip's.

use engine::{Event, Log, Modifier, RollRecord};

use crate::scenario::{Rank, Side};
use crate::state::{State, Status};
use crate::tables::RandomEvent;

/// The Crusades 14.1: both sides roll; returns the sides that may attempt an assassination.
pub fn random_events_phase(state: &mut State, log: &mut Log) -> Vec<Side> {
    let mut out = Vec::new();
    if state.turn == 0 {
        return out;
    }
    for side in [Side::Crusaders, Side::Saracens] {
        let d = state.dice.d6();
        let event = if d == 1 {
            let e = state.dice.d6();
            Some((e, state.scenario.tables.random_event(e)))
        } else {
            None
        };
        log.push_with(|| {
            let mut ev = Event::public(
                "The Crusades 14.1",
                format!(
                    "random events for the {}: {}",
                    side.name(),
                    match event {
                        None => "none".into(),
                        Some((_, RandomEvent::None)) => "an event without effect".into(),
                        Some((_, RandomEvent::Assassination)) => "assassination".to_string(),
                    }
                ),
            )
            .with_roll(RollRecord {
                purpose: "random event?".into(),
                dice: vec![d],
                modifiers: vec![],
                total: i32::from(d),
                cell: None,
                result: if d == 1 {
                    "event".into()
                } else {
                    "none".into()
                },
            });
            if let Some((e, _)) = event {
                ev = ev.with_roll(RollRecord {
                    purpose: "which event".into(),
                    dice: vec![e],
                    modifiers: vec![],
                    total: i32::from(e),
                    cell: Some("Third Crusade random events".into()),
                    result: String::new(),
                });
            }
            ev
        });
        if matches!(event, Some((_, RandomEvent::Assassination)))
            && !targets(state, side).is_empty()
        {
            out.push(side);
        }
    }
    out
}

/// Enemy leaders on the map a side may try to assassinate (14.2.1).
pub fn targets(state: &State, side: Side) -> Vec<usize> {
    (0..state.leaders.len())
        .filter(|&l| {
            state.leaders[l].status == Status::Active
                && state.side_of(l) != side
                && state.side_of(l) != Side::Cypriots
        })
        .collect()
}

/// The Crusades 14.2 (numbered 14.3.2 in the text): the assassination roll: a die, -2 for the
/// Crusaders, above the target's Combat Rating kills him.
pub fn succeeds(side: Side, die: u8, rating: u8) -> bool {
    let dr = if side == Side::Crusaders { -2 } else { 0 };
    i32::from(die) + dr > i32::from(rating)
}

/// The Crusades 14.2, 14.3.3: attempts the assassination of `target` by `side`.
pub fn assassinate(state: &mut State, log: &mut Log, side: Side, target: usize) {
    let d = state.dice.d6();
    let rating = state.scenario.leaders[target].combat;
    let ok = succeeds(side, d, rating);
    let id = state.scenario.leaders[target].id.clone();
    let mut passed = String::new();
    if ok {
        let info = state.scenario.leaders[target].clone();
        let asps = std::mem::take(&mut state.leaders[target].asps);
        let place = state.leaders[target].place;
        state.leaders[target].status = Status::Dead;
        state.leaders[target].place = None;
        match info.side {
            Side::Saracens => {
                if let Some(p) = place {
                    state.add_garrison(Side::Saracens, p, asps);
                }
            }
            _ => {
                // 14.3.3 B: the kings' ASPs are eliminated.
                let heirs: Vec<usize> = (0..state.leaders.len())
                    .filter(|&l| {
                        state.leaders[l].status == Status::Active
                            && state.scenario.leaders[l].contingent == info.contingent
                            && state.side_of(l) == info.side
                    })
                    .collect();
                if info.rank == Rank::Primary
                    && (info.contingent == "English" || info.contingent == "French")
                    || heirs.is_empty()
                {
                    if let Some(slot) = info.side.seat() {
                        state.losses[slot.index()] += u32::from(asps);
                    }
                } else {
                    for k in 0..asps as usize {
                        let h = heirs[k % heirs.len()];
                        state.leaders[h].asps += 1;
                    }
                    passed = format!(
                        "; his {asps} ASPs pass to the {} (14.3.3 A)",
                        info.contingent
                    );
                }
            }
        }
    }
    log.push_with(|| {
        Event::public(
            "The Crusades 14.2",
            format!(
                "the {} attempt to assassinate {id}: {}{passed}",
                side.name(),
                if ok { "he dies" } else { "he survives" }
            ),
        )
        .with_roll(RollRecord {
            purpose: format!("assassination of {id}"),
            dice: vec![d],
            modifiers: if side == Side::Crusaders {
                vec![Modifier {
                    reason: "Crusaders (14.3.2 C)".into(),
                    value: -2,
                }]
            } else {
                vec![]
            },
            total: i32::from(d) - if side == Side::Crusaders { 2 } else { 0 },
            cell: Some(format!("above Combat Rating {rating}")),
            result: if ok {
                "assassinated".into()
            } else {
                "survives".into()
            },
        })
    });
}
