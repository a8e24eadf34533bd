//! The Allocation Segment of the Planning Phase (4.0 1.A, 7.0, 13.3): the Crusader's secret
//! choice to bombard or assault and the Moslem's secret Engineer Point allocation and
//! Intervention counter, committed simultaneously, with what each side may see of the other's
//! choice at each moment, the phases the two choices open, their text notation, and the
//! re-sampling of the other side's secrets for searches, and what returns to play in the
//! segment (14.42, 12.17, 12.24).
//!
//! The game's sequence of play (not built yet) drives it: both seats are pending together,
//! each commits with [`Allocation::commit`], [`Allocation::resolve`] reveals what 7.0 reveals
//! once both have, and [`Allocation::end_of_turn`] reveals the rest and counts the counter
//! (7.22).

use engine::{Event, Seat};
use serde::{Deserialize, Serialize};

use crate::intervention::{self, Intervention, Used};
use crate::leaders;
use crate::position::Location;
use crate::rules::{Rules, Side};
use crate::Position;

/// The Crusader's choice for the Game-Turn (4.0 1.A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attack {
    /// Bombard the walls (8.0); no Assault Phase unless Saladin attacks.
    Bombard,
    /// Assault (9.0-10.0); no Bombardment Phase.
    Assault,
}

impl Attack {
    /// The word of the notation.
    pub fn word(self) -> &'static str {
        match self {
            Attack::Bombard => "bombard",
            Attack::Assault => "assault",
        }
    }
}

/// The Moslem's choices for the Game-Turn (4.0 1.A, 7.0, 13.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoslemPlan {
    /// Engineer Points allocated to wall repair (8.31).
    pub repair: u8,
    /// Engineer Points allocated to counter-tunnelling (13.31).
    pub discovery: u8,
    /// The Intervention counter chosen (7.0).
    pub intervention: Intervention,
}

/// One side's secret decision in the Allocation Segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    /// The Crusader's.
    Crusader(Attack),
    /// The Moslem's.
    Moslem(MoslemPlan),
}

impl Plan {
    /// The side that makes this decision.
    pub fn side(self) -> Side {
        match self {
            Plan::Crusader(_) => Side::Crusader,
            Plan::Moslem(_) => Side::Moslem,
        }
    }

    /// The notation: `plan bombard`, `plan assault`, or
    /// `plan repair 4 discover 2 army-of-egypt`.
    pub fn text(self) -> String {
        match self {
            Plan::Crusader(a) => format!("plan {}", a.word()),
            Plan::Moslem(m) => format!(
                "plan repair {} discover {} {}",
                m.repair,
                m.discovery,
                intervention_word(m.intervention)
            ),
        }
    }

    /// Reads the notation of [`Plan::text`], naming what is wrong.
    pub fn parse(text: &str) -> Result<Plan, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["plan", "bombard"] => Ok(Plan::Crusader(Attack::Bombard)),
            ["plan", "assault"] => Ok(Plan::Crusader(Attack::Assault)),
            ["plan", "repair", r, "discover", d, c] => {
                let points = |w: &str, what: &str| {
                    w.parse::<u8>().map_err(|_| {
                        format!("\"{w}\" is not a number of Engineer Points for {what}")
                    })
                };
                Ok(Plan::Moslem(MoslemPlan {
                    repair: points(r, "wall repair")?,
                    discovery: points(d, "tunnel discovery")?,
                    intervention: parse_intervention(c)?,
                }))
            }
            ["plan", "repair", ..] => Err(format!(
                "\"{text}\": the Moslem plan reads `plan repair N discover N COUNTER`"
            )),
            ["plan", other, ..] => Err(format!(
                "\"{other}\" is not a plan: the Crusader writes `plan bombard` or `plan assault`, \
                 the Moslem `plan repair N discover N COUNTER`"
            )),
            _ => Err(format!("\"{text}\" is not a plan (it starts with `plan`)")),
        }
    }
}

/// A side's seat: the Crusader first (the scenario's `seats`).
pub fn seat(side: Side) -> Seat {
    match side {
        Side::Crusader => Seat(0),
        Side::Moslem => Seat(1),
    }
}

/// The notation word of an Intervention counter.
pub fn intervention_word(c: Intervention) -> &'static str {
    match c {
        Intervention::SaladinAttacks => "saladin-attacks",
        Intervention::ArmyOfEgypt => "army-of-egypt",
        Intervention::ArmyOfMosul => "army-of-mosul",
    }
}

/// Reads an Intervention counter's notation word.
pub fn parse_intervention(word: &str) -> Result<Intervention, String> {
    Intervention::ALL
        .into_iter()
        .find(|&c| intervention_word(c) == word)
        .ok_or_else(|| {
            format!(
                "\"{word}\" is not an Intervention counter \
                 (saladin-attacks, army-of-egypt, army-of-mosul)"
            )
        })
}

/// Where the Allocation Segment of one Game-Turn stands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Allocation {
    /// The Crusader's committed choice.
    pub crusader: Option<Attack>,
    /// The Moslem's committed choices.
    pub moslem: Option<MoslemPlan>,
    /// Both have committed and 7.0's reveal has been made.
    pub resolved: bool,
    /// The Game-Turn is over and everything is revealed (7.0).
    pub turn_over: bool,
}

/// The phases the two choices open (4.0 2 and 3, 7.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phases {
    /// The Bombardment and Repair Phase is played.
    pub bombardment: bool,
    /// The Assault Phase is played.
    pub assault: bool,
}

/// What one side may see of the other's decision now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seen<T> {
    /// Not yet decided.
    Undecided,
    /// Decided, and hidden.
    Hidden,
    /// Decided; of the Intervention counter only whether it is "Saladin Attacks" (7.0).
    SaladinAttacks(bool),
    /// Decided and revealed.
    Revealed(T),
}

/// The Allocation Segment as one side sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocationView {
    /// The Crusader's choice.
    pub crusader: Seen<Attack>,
    /// The Moslem's choices.
    pub moslem: Seen<MoslemPlan>,
}

impl Allocation {
    /// Acre 4.0 1.A, 7.22, 13.3: every plan `side` may commit now: the Crusader bombards or
    /// assaults; the Moslem splits all his Engineer Points between repair and discovery and
    /// chooses a counter not yet used up. Empty once the side has committed.
    pub fn legal(&self, rules: &Rules, side: Side, engineer_points: u8, used: &Used) -> Vec<Plan> {
        match side {
            Side::Crusader if self.crusader.is_none() => vec![
                Plan::Crusader(Attack::Bombard),
                Plan::Crusader(Attack::Assault),
            ],
            Side::Moslem if self.moslem.is_none() => {
                let counters = intervention::choices(rules, used);
                (0..=engineer_points)
                    .flat_map(|repair| {
                        counters.iter().map(move |&c| {
                            Plan::Moslem(MoslemPlan {
                                repair,
                                discovery: engineer_points - repair,
                                intervention: c,
                            })
                        })
                    })
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// Acre 4.0 1.A, 7.0, 13.3: commits a side's secret plan, refusing a second plan, an
    /// allocation that is not all of the Engineer Points, or a counter used up (7.11-7.13).
    pub fn commit(
        &mut self,
        rules: &Rules,
        plan: Plan,
        engineer_points: u8,
        used: &Used,
    ) -> Result<(), String> {
        match plan {
            Plan::Crusader(a) => {
                if self.crusader.is_some() {
                    return Err("the Crusader has already chosen for this Game-Turn".into());
                }
                self.crusader = Some(a);
            }
            Plan::Moslem(m) => {
                if self.moslem.is_some() {
                    return Err("the Moslem has already allocated for this Game-Turn".into());
                }
                if u16::from(m.repair) + u16::from(m.discovery) != u16::from(engineer_points) {
                    return Err(format!(
                        "{} for repair and {} for discovery is not the {} Engineer Points \
                         to allocate this Game-Turn (13.3)",
                        m.repair, m.discovery, engineer_points
                    ));
                }
                if !intervention::choices(rules, used).contains(&m.intervention) {
                    return Err(format!(
                        "\"{}\" may be chosen only {} times a game (7.1)",
                        m.intervention.name(),
                        intervention::limit(rules, m.intervention)
                    ));
                }
                self.moslem = Some(m);
            }
        }
        Ok(())
    }

    /// Whether both sides have committed.
    pub fn complete(&self) -> bool {
        self.crusader.is_some() && self.moslem.is_some()
    }

    /// Acre 4.0 2 and 3, 7.0: once both have committed, marks 7.0's reveal made and returns
    /// the phases of this Game-Turn; `None` while a side has still to decide.
    pub fn resolve(&mut self) -> Option<Phases> {
        let phases = self.phases()?;
        self.resolved = true;
        Some(phases)
    }

    /// The phases the committed plans open, if both are committed.
    pub fn phases(&self) -> Option<Phases> {
        let (a, m) = (self.crusader?, self.moslem?);
        let assault = intervention::assault_phase(a == Attack::Assault, m.intervention);
        Some(Phases {
            bombardment: !assault,
            assault,
        })
    }

    /// Acre 4.0 1.A: the events of committing `plan`: the plan itself, seen only by its own
    /// seat, and a public notice that the side has decided.
    pub fn commit_events(plan: Plan) -> Vec<Event> {
        let side = plan.side();
        let who = match side {
            Side::Crusader => "the Crusader",
            Side::Moslem => "the Moslem",
        };
        let secret = match plan {
            Plan::Crusader(a) => format!("{who} will {} this Game-Turn", a.word()),
            Plan::Moslem(m) => format!(
                "{who} allocates {} Engineer Points to wall repair and {} to tunnel discovery \
                 and chooses \"{}\"",
                m.repair,
                m.discovery,
                m.intervention.name()
            ),
        };
        vec![
            Event::private("Acre 4.0", secret, vec![seat(side)]),
            Event::public("Acre 4.0", format!("{who} has made his secret plan")),
        ]
    }

    /// Acre 7.0: the public events of the reveal once both have committed: the Crusader's
    /// choice and, if he bombards, whether Saladin attacks. Empty until both have committed.
    pub fn reveal_events(&self) -> Vec<Event> {
        let (Some(a), Some(m)) = (self.crusader, self.moslem) else {
            return Vec::new();
        };
        let mut events = vec![Event::public(
            "Acre 7.0",
            format!("the Crusader will {} this Game-Turn", a.word()),
        )];
        if let intervention::Reveal::WhetherSaladinAttacks(s) =
            intervention::reveal_at_planning(a == Attack::Assault, m.intervention)
        {
            let text = if s {
                "Saladin attacks: the Assault Phase is played"
            } else {
                "Saladin does not attack"
            };
            events.push(Event::public("Acre 7.0", text));
        }
        events
    }

    /// Acre 7.0: the public event of the end of the Game-Turn revealing the Moslem's plan.
    pub fn end_of_turn_events(&self) -> Vec<Event> {
        self.moslem
            .map(|m| {
                Event::public(
                    "Acre 7.0",
                    format!(
                        "the Moslem had chosen \"{}\" and allocated {} Engineer Points to wall \
                         repair and {} to tunnel discovery",
                        m.intervention.name(),
                        m.repair,
                        m.discovery
                    ),
                )
            })
            .into_iter()
            .collect()
    }

    /// Acre 13.33: the Engineer Points that may repair walls this Game-Turn: those allocated
    /// to repair if there is a Bombardment Phase, none otherwise (they are lost).
    pub fn repair_points(&self) -> u8 {
        match (self.phases(), self.moslem) {
            (Some(p), Some(m)) if p.bombardment => m.repair,
            _ => 0,
        }
    }

    /// Acre 7.0, 7.22: the end of the Game-Turn: the counter is revealed and counted.
    pub fn end_of_turn(&mut self, rules: &Rules, used: &mut Used) -> Result<(), String> {
        let m = self
            .moslem
            .ok_or("the Game-Turn cannot end before the Moslem has allocated")?;
        intervention::choose(rules, used, m.intervention)?;
        self.turn_over = true;
        Ok(())
    }

    /// What `side` may see now (4.0 1.A, 7.0). Its own plan it always sees. The Crusader's
    /// choice is revealed once both have committed (the phase played shows it). Of the
    /// Moslem's, once both have committed and the Crusader bombards, only whether the counter
    /// is "Saladin Attacks"; the rest at the end of the Game-Turn. The Engineer Point split
    /// stays hidden until then: repair and discovery show it only as they are spent.
    pub fn seen_by(&self, side: Side) -> AllocationView {
        let crusader = match (side, self.crusader) {
            (_, None) => Seen::Undecided,
            (Side::Crusader, Some(a)) => Seen::Revealed(a),
            (Side::Moslem, Some(a)) if self.resolved || self.turn_over => Seen::Revealed(a),
            (Side::Moslem, Some(_)) => Seen::Hidden,
        };
        let moslem = match (side, self.moslem) {
            (_, None) => Seen::Undecided,
            (Side::Moslem, Some(m)) => Seen::Revealed(m),
            (Side::Crusader, Some(m)) if self.turn_over => Seen::Revealed(m),
            (Side::Crusader, Some(m)) if self.resolved => {
                match intervention::reveal_at_planning(
                    self.crusader == Some(Attack::Assault),
                    m.intervention,
                ) {
                    intervention::Reveal::Nothing => Seen::Hidden,
                    intervention::Reveal::WhetherSaladinAttacks(s) => Seen::SaladinAttacks(s),
                }
            }
            (Side::Crusader, Some(_)) => Seen::Hidden,
        };
        AllocationView { crusader, moslem }
    }

    /// A copy in which what `side` cannot see of the other's plan is drawn afresh from `rng`,
    /// consistent with what it sees: a hidden Crusader choice is either; a hidden Moslem plan
    /// is any legal split with any counter still available (only those other than "Saladin
    /// Attacks" once 7.0 has said it is not, only it once 7.0 has said it is). How much is
    /// drawn depends only on what `side` sees.
    pub fn determinize(
        &self,
        rules: &Rules,
        side: Side,
        engineer_points: u8,
        used: &Used,
        rng: &mut dyn rand_core::RngCore,
    ) -> Allocation {
        let mut copy = self.clone();
        let view = self.seen_by(side);
        if view.crusader == Seen::Hidden {
            copy.crusader = Some(if rng.next_u32() % 2 == 0 {
                Attack::Bombard
            } else {
                Attack::Assault
            });
        }
        let saladin = match view.moslem {
            Seen::Hidden => None,
            Seen::SaladinAttacks(s) => Some(s),
            Seen::Undecided | Seen::Revealed(_) => return copy,
        };
        let counters: Vec<Intervention> = intervention::choices(rules, used)
            .into_iter()
            .filter(|&c| saladin.is_none_or(|s| (c == Intervention::SaladinAttacks) == s))
            .collect();
        let repair = (rng.next_u32() % (u32::from(engineer_points) + 1)) as u8;
        let pick = rng.next_u32() as usize % counters.len().max(1);
        if let Some(&intervention) = counters.get(pick) {
            copy.moslem = Some(MoslemPlan {
                repair,
                discovery: engineer_points - repair,
                intervention,
            });
        }
        copy
    }
}

/// Acre 4.0 1.A, 14.42, 12.17, 12.24: what `side` may return to play in the Allocation
/// Segment of Game-Turn `turn`: wounded leaders whose time is out (leader indices), and
/// damaged siege engines back from repair (siege indices).
pub fn returning(rules: &Rules, pos: &Position, side: Side, turn: u8) -> (Vec<usize>, Vec<usize>) {
    let leaders = (0..rules.leaders.len())
        .filter(|&l| {
            let s = &pos.leaders[l];
            rules.leaders[l].side == side
                && !s.dead
                && s.at == Location::OffMap
                && s.wounded_until
                    .is_some_and(|u| leaders::returns_in(u) <= turn)
        })
        .collect();
    let siege = (0..rules.siege.len())
        .filter(|&i| {
            let s = &pos.siege[i];
            rules.siege[i].side == side
                && s.at == Location::OffMap
                && s.returns_on.is_some_and(|t| t <= turn)
        })
        .collect();
    (leaders, siege)
}
