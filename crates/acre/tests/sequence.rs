//! The Sequence of Play (4.0): the steps of a bombardment turn and of an assault turn, the
//! early end of the Assault Phase by agreement, foss unfilling every Game-Turn (Addenda to
//! 13.12) and the end after the sixteenth Game-Turn.

use acre::planning::Phases;
use acre::sequence::{advance, ends_impulse, full_regrouping, next_step, Segment, Step, Turn};

const BOMBARD: Phases = Phases {
    bombardment: true,
    assault: false,
};
const ASSAULT: Phases = Phases {
    bombardment: false,
    assault: true,
};

fn turn_steps(phases: Phases, agree_after: Option<u8>) -> Vec<Step> {
    let mut steps = vec![Step::Allocation];
    let mut at = Step::Allocation;
    loop {
        let agreed = matches!(
            (at, agree_after),
            (Step::Impulse { impulse, .. }, Some(n)) if impulse >= n
        );
        match next_step(at, phases, 10, agreed) {
            Some(s) => {
                steps.push(s);
                at = s;
            }
            None => return steps,
        }
    }
}

#[test]
fn a_bombardment_turn_has_no_assault_phase() {
    assert_eq!(
        turn_steps(BOMBARD, None),
        [
            Step::Allocation,
            Step::CrusaderStrategic,
            Step::MoslemStrategic,
            Step::Tunnel,
            Step::Discovery,
            Step::Bombardment,
            Step::CounterBombardment,
            Step::Repair,
            Step::Regrouping,
        ]
    );
    // Addenda to 13.12: the foss is unfilled even so, but nothing else regroups.
    assert!(!full_regrouping(BOMBARD));
}

#[test]
fn an_assault_turn_has_ten_impulses_of_eight_segments() {
    let steps = turn_steps(ASSAULT, None);
    assert!(!steps.contains(&Step::Bombardment));
    assert_eq!(steps.len(), 5 + 10 * 8 + 1);
    assert_eq!(
        steps[5],
        Step::Impulse {
            impulse: 1,
            segment: Segment::CrusaderMovement
        }
    );
    assert_eq!(
        steps[steps.len() - 2],
        Step::Impulse {
            impulse: 10,
            segment: Segment::DisruptionRemoval
        }
    );
    assert_eq!(steps.last(), Some(&Step::Regrouping));
    assert!(full_regrouping(ASSAULT));
}

#[test]
fn both_players_may_end_the_assault_phase_after_an_impulse() {
    let steps = turn_steps(ASSAULT, Some(3));
    assert_eq!(steps.len(), 5 + 3 * 8 + 1);
    // Agreement counts only at the end of an Impulse.
    let mid = Step::Impulse {
        impulse: 2,
        segment: Segment::Fire,
    };
    assert!(!ends_impulse(mid));
    assert_eq!(
        next_step(mid, ASSAULT, 10, true),
        Some(Step::Impulse {
            impulse: 2,
            segment: Segment::FossFilling
        })
    );
}

#[test]
fn the_game_ends_after_the_sixteenth_game_turn() {
    let end = Turn {
        turn: 15,
        step: Step::Regrouping,
    };
    assert_eq!(
        advance(end, BOMBARD, 10, false, 16),
        Some(Turn {
            turn: 16,
            step: Step::Allocation
        })
    );
    let last = Turn {
        turn: 16,
        step: Step::Regrouping,
    };
    assert_eq!(advance(last, ASSAULT, 10, false, 16), None);
    assert_eq!(
        advance(
            Turn {
                turn: 16,
                step: Step::Repair
            },
            BOMBARD,
            10,
            false,
            16
        ),
        Some(Turn {
            turn: 16,
            step: Step::Regrouping
        })
    );
}
