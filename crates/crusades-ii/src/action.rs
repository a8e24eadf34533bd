//! Actions: the small decisions of Crusades II in the game's words, and their stable text
//! notation (documented in `docs/crusades-ii/notation.md`). Names are the counters' printed
//! names with spaces written as hyphens (`Ray-a`, `King-Guy`); hexes are printed ids; facings
//! are vertex names (NNE, E, SSE, SSW, W, NNW).

use hexgrid::{Hex, HexId, Vertex};
use serde::{Deserialize, Serialize};

use crate::scenario::{Battle, Chit, LeaderId, UnitId};
use crate::state::ActionKind;

/// A decision.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// `place UNIT HEX FACING`: set a unit up (12.1-15.1 Set Up).
    Place {
        /// The unit.
        unit: UnitId,
        /// Where.
        hex: Hex,
        /// Facing.
        facing: Vertex,
    },
    /// `place LEADER HEX`: set a leader up.
    PlaceLeader {
        /// The leader.
        leader: LeaderId,
        /// Where.
        hex: Hex,
    },
    /// `deploy-historical`: set every remaining counter up as it stood historically.
    DeployHistorical,
    /// `chit LEADER CHIT`: place a command chit without a roll (the initial placement, an
    /// Overall Leader's own chit, a leader stacked with his Overall Leader, Muster, the morning
    /// after the night).
    Chit {
        /// The leader.
        leader: LeaderId,
        /// The chit.
        chit: Chit,
    },
    /// `change LEADER CHIT`: try to change a chit with a die roll (5.2).
    Change {
        /// The leader.
        leader: LeaderId,
        /// The chit wanted.
        chit: Chit,
    },
    /// `charge UNIT`: try to flip Crusader heavy cavalry to its charging side (5.6).
    Charge {
        /// The unit.
        unit: UnitId,
    },
    /// `orders-done`: this seat's orders are complete.
    OrdersDone,
    /// `move UNIT HEX FACING` (moves the unit's stack) or `move UNIT alone HEX FACING`
    /// (leaves the stack, 7.1): by the cheapest legal path, or by the path given with
    /// `... via HEX HEX...`.
    Move {
        /// The unit.
        unit: UnitId,
        /// Leave its stack.
        alone: bool,
        /// Destination.
        to: Hex,
        /// Facing at the end.
        facing: Vertex,
        /// An explicit path: the hexes entered before the destination (`via H H...`); empty
        /// for the cheapest path. A reinforcement's first `via` hex is its entry hex (12.1).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        via: Vec<Hex>,
    },
    /// `select UNIT`: choose the combat unit to move next (Movement Phase). Its moves are
    /// then listed, with `deselect`. A shorthand needs no selection: `move UNIT HEX FACING`
    /// with nothing selected is `select UNIT` and that move in one.
    Select {
        /// The unit.
        unit: UnitId,
    },
    /// `select LEADER`: choose the leader to move next (Movement Phase).
    SelectLeader {
        /// The leader.
        leader: LeaderId,
    },
    /// `deselect`: put the selected counter back unmoved; it is not offered again until a
    /// counter has moved.
    Deselect,
    /// `move LEADER HEX`.
    MoveLeader {
        /// The leader.
        leader: LeaderId,
        /// Destination.
        to: Hex,
    },
    /// `end-movement`.
    EndMovement,
    /// `withdraw UNIT HEX`: a skirmisher withdraws from an enemy ZOC before combat (5.4), or a
    /// defender withdraws before melee (9.32 step 3).
    Withdraw {
        /// The unit.
        unit: UnitId,
        /// Destination.
        to: Hex,
    },
    /// `stand-fast`: decline a withdrawal.
    StandFast,
    /// `end-withdrawal`.
    EndWithdrawal,
    /// `fire UNIT HEX` (9.1).
    Fire {
        /// The firing unit.
        unit: UnitId,
        /// The target hex.
        target: Hex,
    },
    /// `end-fire`.
    EndFire,
    /// `melee HEX UNIT...`: attack a hex; the units in the order they take losses (9.3).
    Melee {
        /// The defending hex.
        target: Hex,
        /// One unit of each attacking stack.
        attackers: Vec<UnitId>,
    },
    /// `end-melee`.
    EndMelee,
    /// `retreat UNIT HEX` (9.5, 10.0).
    Retreat {
        /// The unit.
        unit: UnitId,
        /// Destination.
        to: Hex,
    },
    /// `advance UNIT` into the vacated hex (9.5).
    Advance {
        /// The unit (its stack advances).
        unit: UnitId,
    },
    /// `pursue UNIT HEX FACING`: the charge's 4 MP (9.32 step 7).
    Pursue {
        /// The unit.
        unit: UnitId,
        /// Destination.
        to: Hex,
        /// Facing.
        facing: Vertex,
    },
    /// `halt`: end a charge or decline a second melee.
    Halt,
    /// `face UNIT FACING`: change facing in place.
    Face {
        /// The unit.
        unit: UnitId,
        /// The new facing.
        facing: Vertex,
    },
    /// `end-combat`.
    EndCombat,
    /// `split LEADER`: announce that a leader on Attack splits his command: his cavalry
    /// attack, his infantry act as if on Stand (16.3). Order Phase.
    Split {
        /// The leader.
        leader: LeaderId,
    },
    /// `rejoin LEADER`: announce that the rest of a split command now has the Attack command
    /// as well (16.3). Order Phase.
    Rejoin {
        /// The leader.
        leader: LeaderId,
    },
    /// `draw SEAT` or `draw turn-ends`: with manual dice, the chit the drawing seat took from
    /// the cup at the table (16.1 II, 16.13). With seeded dice the program draws.
    Draw {
        /// The seat whose action chit was drawn; `None` for the Turn Ends chit.
        seat: Option<engine::Seat>,
    },
    /// `pass`: use the action chit drawn for nothing (16.11 Pass Option).
    Pass,
    /// `activate LEADER move` or `activate LEADER combat`: the leader's command moves, or
    /// fires and melees, with the action chit drawn (16.11).
    Activate {
        /// The leader.
        leader: LeaderId,
        /// Move or combat.
        action: ActionKind,
    },
    /// `concede`: the opponent's victory roll stands (16.5).
    Concede,
    /// `check-morale`: instead of conceding, every unit of the seat on the map checks morale
    /// (16.5).
    CheckMorale,
    /// `retreat-command LEADER`: instead of conceding, the leader's command becomes Retreat and
    /// all his units rout (16.5).
    RetreatCommand {
        /// The leader.
        leader: LeaderId,
    },
    /// `lose-step UNIT`: a routed unit takes a step loss instead of retreating three hexes
    /// (16.5).
    LoseStep {
        /// The unit.
        unit: UnitId,
    },
}

fn hex_text(b: &Battle, h: Hex) -> String {
    b.map.id(h).to_string()
}

impl Action {
    /// The action's notation.
    pub fn text(&self, b: &Battle) -> String {
        let u = |id: &UnitId| b.units[*id as usize].token.clone();
        let l = |id: &LeaderId| b.leaders[*id as usize].token.clone();
        match self {
            Action::Place { unit, hex, facing } => {
                format!("place {} {} {}", u(unit), hex_text(b, *hex), facing)
            }
            Action::PlaceLeader { leader, hex } => {
                format!("place {} {}", l(leader), hex_text(b, *hex))
            }
            Action::DeployHistorical => "deploy-historical".into(),
            Action::Chit { leader, chit } => format!("chit {} {}", l(leader), chit.name()),
            Action::Change { leader, chit } => format!("change {} {}", l(leader), chit.name()),
            Action::Charge { unit } => format!("charge {}", u(unit)),
            Action::OrdersDone => "orders-done".into(),
            Action::Move {
                unit,
                alone,
                to,
                facing,
                via,
            } => {
                let mut t = format!(
                    "move {}{} {} {}",
                    u(unit),
                    if *alone { " alone" } else { "" },
                    hex_text(b, *to),
                    facing
                );
                if !via.is_empty() {
                    t.push_str(" via");
                    for h in via {
                        t.push(' ');
                        t.push_str(&hex_text(b, *h));
                    }
                }
                t
            }
            Action::MoveLeader { leader, to } => {
                format!("move {} {}", l(leader), hex_text(b, *to))
            }
            Action::Select { unit } => format!("select {}", u(unit)),
            Action::SelectLeader { leader } => format!("select {}", l(leader)),
            Action::Deselect => "deselect".into(),
            Action::EndMovement => "end-movement".into(),
            Action::Withdraw { unit, to } => format!("withdraw {} {}", u(unit), hex_text(b, *to)),
            Action::StandFast => "stand-fast".into(),
            Action::EndWithdrawal => "end-withdrawal".into(),
            Action::Fire { unit, target } => format!("fire {} {}", u(unit), hex_text(b, *target)),
            Action::EndFire => "end-fire".into(),
            Action::Melee { target, attackers } => format!(
                "melee {} {}",
                hex_text(b, *target),
                attackers.iter().map(u).collect::<Vec<_>>().join(" ")
            ),
            Action::EndMelee => "end-melee".into(),
            Action::Retreat { unit, to } => format!("retreat {} {}", u(unit), hex_text(b, *to)),
            Action::Advance { unit } => format!("advance {}", u(unit)),
            Action::Pursue { unit, to, facing } => {
                format!("pursue {} {} {}", u(unit), hex_text(b, *to), facing)
            }
            Action::Halt => "halt".into(),
            Action::Face { unit, facing } => format!("face {} {}", u(unit), facing),
            Action::EndCombat => "end-combat".into(),
            Action::Split { leader } => format!("split {}", l(leader)),
            Action::Rejoin { leader } => format!("rejoin {}", l(leader)),
            Action::Draw { seat } => match seat {
                Some(s) => format!("draw {}", b.seats[s.index()]),
                None => "draw turn-ends".into(),
            },
            Action::Pass => "pass".into(),
            Action::Activate { leader, action } => {
                format!("activate {} {}", l(leader), action.name())
            }
            Action::Concede => "concede".into(),
            Action::CheckMorale => "check-morale".into(),
            Action::RetreatCommand { leader } => format!("retreat-command {}", l(leader)),
            Action::LoseStep { unit } => format!("lose-step {}", u(unit)),
        }
    }

    /// Parses the notation, naming what is wrong.
    pub fn parse(b: &Battle, text: &str) -> Result<Action, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&verb, args)) = words.split_first() else {
            return Err("empty action".into());
        };
        let unit = |w: Option<&&str>| -> Result<UnitId, String> {
            let w = w.ok_or("a unit name is missing")?;
            b.unit_by_name(w)
                .ok_or_else(|| format!("no combat unit is named `{w}` in {}", b.title))
        };
        let leader = |w: Option<&&str>| -> Result<LeaderId, String> {
            let w = w.ok_or("a leader name is missing")?;
            b.leader_by_name(w)
                .ok_or_else(|| format!("no leader is named `{w}` in {}", b.title))
        };
        let hex = |w: Option<&&str>| -> Result<Hex, String> {
            let w = w.ok_or("a hex is missing")?;
            let id: HexId = w.parse().map_err(|e| format!("`{w}`: {e}"))?;
            b.map
                .hex(id)
                .ok_or_else(|| format!("hex {id} is not on the map of {}", b.title))
        };
        let facing = |w: Option<&&str>| -> Result<Vertex, String> {
            let w = w.ok_or("a facing is missing (NNE, E, SSE, SSW, W, NNW)")?;
            w.parse()
                .map_err(|_| format!("`{w}` is not a facing; valid: NNE, E, SSE, SSW, W, NNW"))
        };
        let chit = |w: Option<&&str>| -> Result<Chit, String> {
            let w = w.ok_or("a command chit is missing")?;
            Chit::parse(w).ok_or_else(|| {
                format!("`{w}` is not a command chit; valid: attack, advance, stand, retreat, reserve, muster")
            })
        };
        let no_more = |n: usize, a: Action| -> Result<Action, String> {
            if args.len() > n {
                Err(format!(
                    "`{verb}` takes {n} words; unexpected `{}`",
                    args[n..].join(" ")
                ))
            } else {
                Ok(a)
            }
        };
        let is_leader = |w: Option<&&str>| w.is_some_and(|w| b.leader_by_name(w).is_some());
        match verb {
            "place" if is_leader(args.first()) => no_more(
                2,
                Action::PlaceLeader {
                    leader: leader(args.first())?,
                    hex: hex(args.get(1))?,
                },
            ),
            "place" => no_more(
                3,
                Action::Place {
                    unit: unit(args.first())?,
                    hex: hex(args.get(1))?,
                    facing: facing(args.get(2))?,
                },
            ),
            "deploy-historical" => no_more(0, Action::DeployHistorical),
            "chit" => no_more(
                2,
                Action::Chit {
                    leader: leader(args.first())?,
                    chit: chit(args.get(1))?,
                },
            ),
            "change" => no_more(
                2,
                Action::Change {
                    leader: leader(args.first())?,
                    chit: chit(args.get(1))?,
                },
            ),
            "charge" => no_more(1, Action::Charge { unit: unit(args.first())? }),
            "orders-done" => no_more(0, Action::OrdersDone),
            "move" if is_leader(args.first()) => no_more(
                2,
                Action::MoveLeader {
                    leader: leader(args.first())?,
                    to: hex(args.get(1))?,
                },
            ),
            "move" => {
                let alone = args.get(1) == Some(&"alone");
                let k = if alone { 2 } else { 1 };
                let (head, via) = match args.iter().position(|w| *w == "via") {
                    Some(i) => (&args[..i], &args[i + 1..]),
                    None => (args, &args[args.len()..]),
                };
                if head.len() > k + 2 {
                    return Err(format!(
                        "`move UNIT [alone] HEX FACING [via HEX...]`; unexpected `{}`",
                        head[k + 2..].join(" ")
                    ));
                }
                if args.contains(&"via") && via.is_empty() {
                    return Err("`via` needs the hexes of the path".into());
                }
                Ok(Action::Move {
                    unit: unit(head.first())?,
                    alone,
                    to: hex(head.get(k))?,
                    facing: facing(head.get(k + 1))?,
                    via: via.iter().map(|w| hex(Some(w))).collect::<Result<Vec<_>, _>>()?,
                })
            }
            "select" if is_leader(args.first()) => no_more(
                1,
                Action::SelectLeader {
                    leader: leader(args.first())?,
                },
            ),
            "select" => no_more(1, Action::Select { unit: unit(args.first())? }),
            "deselect" => no_more(0, Action::Deselect),
            "end-movement" => no_more(0, Action::EndMovement),
            "withdraw" => no_more(
                2,
                Action::Withdraw {
                    unit: unit(args.first())?,
                    to: hex(args.get(1))?,
                },
            ),
            "stand-fast" => no_more(0, Action::StandFast),
            "end-withdrawal" => no_more(0, Action::EndWithdrawal),
            "fire" => no_more(
                2,
                Action::Fire {
                    unit: unit(args.first())?,
                    target: hex(args.get(1))?,
                },
            ),
            "end-fire" => no_more(0, Action::EndFire),
            "melee" => {
                let target = hex(args.first())?;
                if args.len() < 2 {
                    return Err("`melee HEX UNIT...` names at least one attacking unit".into());
                }
                let attackers = args[1..]
                    .iter()
                    .map(|w| unit(Some(w)))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Action::Melee { target, attackers })
            }
            "end-melee" => no_more(0, Action::EndMelee),
            "retreat" => no_more(
                2,
                Action::Retreat {
                    unit: unit(args.first())?,
                    to: hex(args.get(1))?,
                },
            ),
            "advance" => no_more(1, Action::Advance { unit: unit(args.first())? }),
            "pursue" => no_more(
                3,
                Action::Pursue {
                    unit: unit(args.first())?,
                    to: hex(args.get(1))?,
                    facing: facing(args.get(2))?,
                },
            ),
            "halt" => no_more(0, Action::Halt),
            "face" => no_more(
                2,
                Action::Face {
                    unit: unit(args.first())?,
                    facing: facing(args.get(1))?,
                },
            ),
            "end-combat" => no_more(0, Action::EndCombat),
            "split" => no_more(1, Action::Split { leader: leader(args.first())? }),
            "rejoin" => no_more(1, Action::Rejoin { leader: leader(args.first())? }),
            "draw" => {
                let w = args.first().ok_or_else(|| {
                    format!("`draw` names the chit drawn: {} or turn-ends", b.seats.join(", "))
                })?;
                let seat = if *w == "turn-ends" {
                    None
                } else {
                    Some(b.seat(w).ok_or_else(|| {
                        format!(
                            "`{w}` is not a chit in the cup; valid: {}, turn-ends",
                            b.seats.join(", ")
                        )
                    })?)
                };
                no_more(1, Action::Draw { seat })
            }
            "pass" => no_more(0, Action::Pass),
            "activate" => {
                let action = match args.get(1).copied() {
                    Some("move") => ActionKind::Move,
                    Some("combat") => ActionKind::Combat,
                    Some(other) => {
                        return Err(format!("`{other}` is not an action; valid: move, combat"))
                    }
                    None => return Err("`activate LEADER move|combat`: the action is missing".into()),
                };
                no_more(
                    2,
                    Action::Activate {
                        leader: leader(args.first())?,
                        action,
                    },
                )
            }
            "concede" => no_more(0, Action::Concede),
            "check-morale" => no_more(0, Action::CheckMorale),
            "retreat-command" => no_more(
                1,
                Action::RetreatCommand {
                    leader: leader(args.first())?,
                },
            ),
            "lose-step" => no_more(1, Action::LoseStep { unit: unit(args.first())? }),
            other => Err(format!(
                "unknown action `{other}`; valid: place, deploy-historical, chit, change, charge, split, rejoin, orders-done, select, deselect, move, end-movement, draw, pass, activate, withdraw, stand-fast, end-withdrawal, fire, end-fire, melee, end-melee, retreat, advance, pursue, halt, face, end-combat, concede, check-morale, retreat-command, lose-step"
            )),
        }
    }
}
