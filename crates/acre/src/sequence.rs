//! The Sequence of Play (4.0): the steps of a Game-Turn in order, which phases the two
//! secret plans open (4.0 2 and 3, 7.0), the Assault Phase's Impulses of Segments A-H ending
//! early when both players agree, the Regrouping Segment at the end of every Game-Turn (with
//! the Addenda to 13.12), and the end of the game after the last Game-Turn (18.2).

use serde::{Deserialize, Serialize};

use crate::planning::Phases;

/// A Segment of an Assault Impulse (4.0 3.A-H).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Segment {
    /// A. Crusader Movement.
    CrusaderMovement,
    /// B. Moslem Movement.
    MoslemMovement,
    /// C. Simultaneous Fire Combat.
    Fire,
    /// D. Crusader Foss Filling.
    FossFilling,
    /// E. Moslem Garrison Melee.
    GarrisonMelee,
    /// F. Crusader Melee.
    CrusaderMelee,
    /// G. Moslem Army Melee.
    ArmyMelee,
    /// H. Simultaneous Disruption Removal.
    DisruptionRemoval,
}

impl Segment {
    /// A to H in order.
    pub const ALL: [Segment; 8] = [
        Segment::CrusaderMovement,
        Segment::MoslemMovement,
        Segment::Fire,
        Segment::FossFilling,
        Segment::GarrisonMelee,
        Segment::CrusaderMelee,
        Segment::ArmyMelee,
        Segment::DisruptionRemoval,
    ];

    /// The segment after this one in the Impulse, if any.
    pub fn next(self) -> Option<Segment> {
        let i = Segment::ALL.iter().position(|&s| s == self)?;
        Segment::ALL.get(i + 1).copied()
    }
}

/// A step of the Game-Turn (4.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// 1.A Allocation Segment: the secret plans.
    Allocation,
    /// 1.B Strategic Movement Segment, the Crusader's part (with his siege units).
    CrusaderStrategic,
    /// 1.B Strategic Movement Segment, the Moslem's part (with his small catapults).
    MoslemStrategic,
    /// 1.C Crusader Tunnel Segment.
    Tunnel,
    /// 1.D Moslem Tunnel Discovery Segment, with the cave-ins after it.
    Discovery,
    /// 2.A Crusader Bombardment Segment.
    Bombardment,
    /// 2.B Moslem Counter-Bombardment Segment.
    CounterBombardment,
    /// 2.C Moslem Damage Repair Segment.
    Repair,
    /// 3 A-H: a Segment of Impulse `impulse` (from 1).
    Impulse {
        /// The Impulse, from 1.
        impulse: u8,
        /// The Segment.
        segment: Segment,
    },
    /// 3.I Regrouping Segment, at the end of every Game-Turn (Addenda to 13.12).
    Regrouping,
}

/// Where the game is in its Sequence of Play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turn {
    /// The Game-Turn, from 1.
    pub turn: u8,
    /// The step.
    pub step: Step,
}

/// Acre 4.0: the step after `step` within one Game-Turn, or `None` once its Regrouping
/// Segment is over. `phases` are the phases the plans opened (7.0), `impulses` the most
/// Impulses of an Assault Phase (10), and `agreed` whether both players have agreed to end the
/// Assault Phase after this Impulse, which counts only at its last Segment (4.0 "Note").
pub fn next_step(step: Step, phases: Phases, impulses: u8, agreed: bool) -> Option<Step> {
    let first_impulse = Step::Impulse {
        impulse: 1,
        segment: Segment::CrusaderMovement,
    };
    Some(match step {
        Step::Allocation => Step::CrusaderStrategic,
        Step::CrusaderStrategic => Step::MoslemStrategic,
        Step::MoslemStrategic => Step::Tunnel,
        Step::Tunnel => Step::Discovery,
        Step::Discovery if phases.bombardment => Step::Bombardment,
        Step::Discovery if phases.assault => first_impulse,
        Step::Discovery => Step::Regrouping,
        Step::Bombardment => Step::CounterBombardment,
        Step::CounterBombardment => Step::Repair,
        Step::Repair if phases.assault => first_impulse,
        Step::Repair => Step::Regrouping,
        Step::Impulse { impulse, segment } => match segment.next() {
            Some(segment) => Step::Impulse { impulse, segment },
            None if impulse < impulses && !agreed => Step::Impulse {
                impulse: impulse + 1,
                segment: Segment::CrusaderMovement,
            },
            None => Step::Regrouping,
        },
        Step::Regrouping => return None,
    })
}

/// Acre 4.0, 18.2: the step after `at` in the game: the next step of the Game-Turn, the next
/// Game-Turn's Allocation Segment, or `None` when the last Game-Turn is over (the Moslem wins
/// unless the Crusader has already: 18.2).
pub fn advance(at: Turn, phases: Phases, impulses: u8, agreed: bool, turns: u8) -> Option<Turn> {
    match next_step(at.step, phases, impulses, agreed) {
        Some(step) => Some(Turn {
            turn: at.turn,
            step,
        }),
        None if at.turn < turns => Some(Turn {
            turn: at.turn + 1,
            step: Step::Allocation,
        }),
        None => None,
    }
}

/// Acre 4.0 3.I and the Addenda to 13.12: whether this Game-Turn's Regrouping Segment is the
/// full one (isolation, redeployment, pairing: 11.0), played only after an Assault Phase; after
/// a Bombardment Phase it unfills the foss only.
pub fn full_regrouping(phases: Phases) -> bool {
    phases.assault
}

/// Acre 4.0 3.H: whether this step is the last Segment of an Impulse, after which both
/// players may agree to end the Assault Phase.
pub fn ends_impulse(step: Step) -> bool {
    matches!(
        step,
        Step::Impulse {
            segment: Segment::DisruptionRemoval,
            ..
        }
    )
}
