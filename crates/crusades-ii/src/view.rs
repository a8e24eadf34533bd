//! What one seat (or a spectator) may see of a game of Crusades II, and the board picture
//! for renderers. Command chits are secret from the other seat (5.0): this is the one place
//! where they are hidden.

use engine::board::{BoardCounter, BoardHex, BoardHexside, BoardRoad, Style};
use engine::{Board, Seat, Viewer};
use hexgrid::{HexId, Vertex};
use serde::Serialize;

use crate::state::{ActionKind, CrossState, Fury, Loc, Phase, State};

/// A combat unit as seen.
#[derive(Clone, Debug, Serialize)]
pub struct UnitView {
    /// Printed name.
    pub name: String,
    /// Owner.
    pub side: String,
    /// Unit type key.
    pub r#type: String,
    /// Its leader.
    pub leader: String,
    /// `waiting`, `map` or `eliminated`.
    pub status: &'static str,
    /// The hex, on the map.
    pub hex: Option<HexId>,
    /// Facing, for units with facing.
    pub facing: Option<Vertex>,
    /// Current strength.
    pub strength: u8,
    /// Fire capability.
    pub fire: bool,
    /// Current morale.
    pub morale: u8,
    /// Current movement allowance.
    pub movement: u8,
    /// Steps lost.
    pub steps_lost: u8,
    /// Crusader heavy cavalry charging.
    pub charging: bool,
    /// Routed.
    pub routed: bool,
    /// Out of command.
    pub out_of_command: bool,
    /// `berserk`, `exhausted` or absent.
    pub fury: Option<&'static str>,
    /// Carries the Holy Cross.
    pub holy_cross: bool,
}

/// A leader as seen.
#[derive(Clone, Debug, Serialize)]
pub struct LeaderView {
    /// Name now shown.
    pub name: String,
    /// Owner.
    pub side: String,
    /// An Overall Leader.
    pub overall: bool,
    /// `waiting`, `map` or `eliminated`.
    pub status: &'static str,
    /// The hex.
    pub hex: Option<HexId>,
    /// Command rating.
    pub command: Option<u8>,
    /// Command span.
    pub span: u8,
    /// Combat bonus.
    pub bonus: i32,
    /// His command chit: shown to his own side only.
    pub chit: Option<String>,
    /// Whether his chit (or his lack of one) is hidden from the viewer: always so for the
    /// other side's leaders, so that not even the progress of secret orders shows.
    pub chit_hidden: bool,
    /// His command has moved with an action chit this turn (16.11, 16.12): public.
    pub moved: bool,
    /// His command has fought with an action chit this turn (16.11, 16.12): public.
    pub fought: bool,
    /// His command is split (16.3): announced, so public.
    pub split: bool,
}

/// A leader's off-map box (16.12): his command (to his own side only) and the action chits
/// placed on it this turn.
#[derive(Clone, Debug, Serialize)]
pub struct LeaderBox {
    /// The leader's name now shown.
    pub leader: String,
    /// Owner.
    pub side: String,
    /// COM: his command chit, shown to his own side only (5.0).
    pub command: Option<String>,
    /// Whether the COM box is hidden from the viewer (the other side's leaders).
    pub command_hidden: bool,
    /// MOVE: an action chit, moved side up, lies on the box (16.11).
    pub moved: bool,
    /// FIRE: an action chit, fired side up, lies on the box (16.11).
    pub fired: bool,
}

/// The Action Phase of the advanced sequence as anyone sees it (16.1, 16.11, 16.13). The
/// order of the chits in the cup is secret to everyone: it is not anywhere to show.
#[derive(Clone, Debug, Serialize)]
pub struct ActionPhaseView {
    /// Action chits of each seat still in the cup.
    pub in_cup: Vec<u8>,
    /// Action chits of each seat put in the cup this turn.
    pub put_in: Vec<u8>,
    /// Whether the Turn Ends chit is in the cup (16.13).
    pub turn_ends_in_cup: bool,
    /// Chits drawn this turn.
    pub drawn: u8,
    /// Passes chosen in succession (two end the phase).
    pub passes: u8,
    /// The seat that draws next.
    pub drawer: String,
    /// The owner of the chit just drawn, while he chooses.
    pub chit_drawn: Option<String>,
    /// The leader whose command is acting, and how (`move`, `combat`).
    pub acting: Option<(String, &'static str)>,
}

/// What one viewer sees.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// Scenario id.
    pub scenario: String,
    /// Title.
    pub title: String,
    /// Turn label.
    pub turn: String,
    /// Turn number, from 1.
    pub turn_number: usize,
    /// Turns in the scenario.
    pub turns: usize,
    /// Night turn.
    pub night: bool,
    /// The phase, in the rulebook's words.
    pub phase: String,
    /// The phasing player.
    pub active: String,
    /// What interrupts the phase, if anything.
    pub interruption: Option<String>,
    /// Loss points by seat (11.0).
    pub losses: Vec<u32>,
    /// The Holy Cross: absent, waiting, carried or captured.
    pub holy_cross: &'static str,
    /// Combat units.
    pub units: Vec<UnitView>,
    /// Leaders.
    pub leaders: Vec<LeaderView>,
    /// The Action Phase, with the advanced sequence of play (16.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_phase: Option<ActionPhaseView>,
    /// The off-map leader boxes, with the `off-map-leader-boxes` option (16.12).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leader_boxes: Option<Vec<LeaderBox>>,
}

fn status(loc: Loc) -> &'static str {
    match loc {
        Loc::Waiting => "waiting",
        Loc::Map(_) => "map",
        Loc::Eliminated => "eliminated",
    }
}

impl State {
    /// The phase in the rulebook's words.
    pub fn phase_name(&self) -> String {
        let seat = |s: Seat| self.battle.seats[s.index()].clone();
        if let Some(a) = self.activation() {
            let name = self.leader_name(a.leader).to_string();
            let what = match self.phase {
                Phase::Movement => "moves".to_string(),
                Phase::Withdrawal(s) => format!("fights: skirmisher withdrawal ({})", seat(s)),
                Phase::DefensiveFire => {
                    format!(
                        "fights: defensive fire ({})",
                        seat(self.battle.enemy(a.side))
                    )
                }
                Phase::OffensiveFire => "fights: offensive fire".to_string(),
                Phase::Melee => "fights: melee".to_string(),
                Phase::MeleeFacing(s) => format!("fights: facing after melee ({})", seat(s)),
                _ => String::new(),
            };
            if !what.is_empty() {
                return format!("action phase: {name}'s command ({}) {what}", seat(a.side));
            }
        }
        match self.phase {
            Phase::Setup(s) => format!("set-up ({})", seat(s)),
            Phase::Orders if self.options.advanced_sequence => "command phase".into(),
            Phase::Orders => "order phase".into(),
            Phase::Movement => format!("movement phase ({})", seat(self.active)),
            Phase::Withdrawal(s) => format!("skirmisher withdrawal ({})", seat(s)),
            Phase::DefensiveFire => {
                format!("defensive fire ({})", seat(self.battle.enemy(self.active)))
            }
            Phase::OffensiveFire => format!("offensive fire ({})", seat(self.active)),
            Phase::Melee => format!("melee ({})", seat(self.active)),
            Phase::MeleeFacing(s) => format!("facing after melee ({})", seat(s)),
            Phase::Rally if self.options.advanced_sequence => "rally phase (both players)".into(),
            Phase::Rally => format!("rally phase ({})", seat(self.active)),
            Phase::Draw => match &self.action {
                Some(a) => format!("action phase: {} draws a chit", seat(a.drawer)),
                None => "action phase".into(),
            },
            Phase::Activation(s) => format!("action phase: {} passes, moves or fights", seat(s)),
            Phase::Concession(s) => {
                format!("victory roll: {} concedes or fights on (16.5)", seat(s))
            }
            Phase::Penalty(s) => format!("victory roll: {} pays to fight on (16.5)", seat(s)),
            Phase::Over => "game over".into(),
        }
    }

    /// The view of `viewer`.
    pub fn seat_view(&self, viewer: Viewer) -> View {
        let b = &self.battle;
        let seat_name = |s: Seat| b.seats[s.index()].clone();
        let sees_chit = |side: Seat| matches!(viewer, Viewer::Seat(s) if s == side);
        let units = self
            .unit_ids()
            .map(|u| {
                let s = self.unit(u);
                let v = self.values(u);
                UnitView {
                    name: self.name(u).to_string(),
                    side: seat_name(self.side(u)),
                    r#type: b.utype(u).key.clone(),
                    leader: b.leaders[self.def(u).leader as usize].name.clone(),
                    status: status(s.loc),
                    hex: s.loc.hex().map(|h| b.map.id(h)),
                    facing: (!self.skirmisher(u)).then_some(s.facing),
                    strength: v.strength,
                    fire: v.fire,
                    morale: v.morale,
                    movement: v.movement,
                    steps_lost: s.steps,
                    charging: s.charging,
                    routed: s.routed,
                    out_of_command: s.out_of_command,
                    fury: match s.fury {
                        Fury::Calm => None,
                        Fury::Berserk => Some("berserk"),
                        Fury::Exhausted => Some("exhausted"),
                    },
                    holy_cross: self.holy_cross == Some(u)
                        && self.holy_cross_state == CrossState::Carried,
                }
            })
            .collect();
        let leaders = self
            .leader_ids()
            .map(|l| {
                let d = &b.leaders[l as usize];
                let st = &self.leaders[l as usize];
                let (command, span, bonus) = self.ratings(l);
                let visible = sees_chit(d.side);
                LeaderView {
                    name: self.leader_name(l).to_string(),
                    side: seat_name(d.side),
                    overall: d.overall,
                    status: status(st.loc),
                    hex: st.loc.hex().map(|h| b.map.id(h)),
                    command,
                    span,
                    bonus,
                    chit: st.chit.filter(|_| visible).map(|c| c.name().to_string()),
                    chit_hidden: !visible,
                    moved: st.chit_moved,
                    fought: st.chit_fought,
                    split: st.split,
                }
            })
            .collect::<Vec<LeaderView>>();
        // 16.12: every leader has an off-map box.
        let leader_boxes = self.options.leader_boxes.then(|| {
            leaders
                .iter()
                .map(|lv| LeaderBox {
                    leader: lv.name.clone(),
                    side: lv.side.clone(),
                    command: lv.chit.clone(),
                    command_hidden: lv.chit_hidden,
                    moved: lv.moved,
                    fired: lv.fought,
                })
                .collect()
        });
        let in_action_phase =
            matches!(self.phase, Phase::Draw | Phase::Activation(_)) || self.activation().is_some();
        let action_phase =
            self.action
                .as_ref()
                .filter(|_| in_action_phase)
                .map(|a| ActionPhaseView {
                    in_cup: a.cup.to_vec(),
                    put_in: a.put_in.to_vec(),
                    turn_ends_in_cup: a.turn_ends,
                    drawn: a.drawn,
                    passes: a.passes,
                    drawer: seat_name(a.drawer),
                    chit_drawn: a.chit.map(seat_name),
                    acting: a.current.map(|c| {
                        (
                            self.leader_name(c.leader).to_string(),
                            match c.kind {
                                ActionKind::Move => "move",
                                ActionKind::Combat => "combat",
                            },
                        )
                    }),
                });
        View {
            scenario: b.id.clone(),
            title: b.title.clone(),
            turn: b.turns[self.turn].label.clone(),
            turn_number: self.turn + 1,
            turns: b.turns.len(),
            night: self.night(),
            phase: self.phase_name(),
            active: seat_name(self.active),
            interruption: self.tasks.first().map(|t| format!("{t:?}")),
            losses: vec![self.losses(Seat(0)), self.losses(Seat(1))],
            holy_cross: match self.holy_cross_state {
                CrossState::Absent => "absent",
                CrossState::Waiting => "waiting",
                CrossState::Carried => "carried",
                CrossState::Captured => "captured",
            },
            units,
            leaders,
            action_phase,
            leader_boxes,
        }
    }

    /// The board picture for `viewer`: everything on it is public but the chits, which it
    /// does not show.
    pub fn board_picture(&self, viewer: Viewer) -> Board {
        let b = &self.battle;
        let t = &b.tables;
        let map = &b.map;
        let hexes = map
            .grid
            .hexes()
            .map(|h| {
                let info = map.info(h);
                BoardHex {
                    id: map.id(h),
                    terrain: t.terrains[info.terrain as usize].key.clone(),
                    elevation: info.elevation,
                    label: map
                        .labels
                        .iter()
                        .find(|(lh, _)| *lh == h)
                        .map(|(_, s)| s.clone()),
                }
            })
            .collect();
        let mut hexsides: Vec<BoardHexside> = map
            .features
            .iter()
            .map(|(side, f)| {
                let (a, c) = side.hexes();
                BoardHexside {
                    a: map.id(a),
                    b: map.id(c),
                    feature: t.features[*f as usize].key.clone(),
                }
            })
            .collect();
        hexsides.sort_by_key(|x| (x.a, x.b));
        let roads = map
            .road_chains
            .iter()
            .map(|(k, chain)| BoardRoad {
                kind: t.roads[*k as usize].key.clone(),
                hexes: chain.iter().map(|&h| map.id(h)).collect(),
            })
            .collect();
        let mut counters = Vec::new();
        let view = self.seat_view(viewer);
        for u in self.unit_ids() {
            let Some(h) = self.hex(u) else { continue };
            let uv = &view.units[u as usize];
            let mut markers = Vec::new();
            if uv.routed {
                markers.push("Rout".to_string());
            }
            if uv.out_of_command {
                markers.push("OC".to_string());
            }
            if uv.charging {
                markers.push("Charging".to_string());
            }
            if self.heavy(u) && uv.steps_lost > 0 {
                markers.push(format!("{} Step Loss", uv.steps_lost));
            }
            if let Some(f) = uv.fury {
                markers.push(f.to_string());
            }
            if uv.holy_cross {
                markers.push("Holy Cross".to_string());
            }
            let pos = self.stack_at(h).iter().position(|&x| x == u).unwrap_or(0) as u8;
            counters.push(BoardCounter {
                id: self.def(u).token.clone(),
                hex: map.id(h),
                side: uv.side.clone(),
                name: uv.name.clone(),
                values: format!(
                    "{}{}-{}-{}",
                    uv.strength,
                    if uv.fire { "*" } else { "" },
                    uv.morale,
                    uv.movement
                ),
                facing: uv.facing,
                markers,
                stack_position: pos,
                kind: "unit".into(),
                band: b.leaders[self.def(u).leader as usize].band.clone(),
            });
        }
        for (i, lv) in view.leaders.iter().enumerate() {
            let Some(id) = lv.hex else { continue };
            counters.push(BoardCounter {
                id: b.leaders[i].token.clone(),
                hex: id,
                side: lv.side.clone(),
                name: lv.name.clone(),
                values: match lv.command {
                    Some(c) => format!("{c}-{}{:+}", lv.span, lv.bonus),
                    None => format!("{}{:+}", lv.span, lv.bonus),
                },
                facing: None,
                markers: {
                    let mut m: Vec<String> = lv.chit.iter().cloned().collect();
                    // 16.11: the action chits sit on the leader, unless they are kept in his
                    // off-map box (16.12).
                    if !self.options.leader_boxes {
                        if lv.moved {
                            m.push("Moved".into());
                        }
                        if lv.fought {
                            m.push("Fired".into());
                        }
                    }
                    if lv.split {
                        m.push("Split".into());
                    }
                    m
                },
                stack_position: 9,
                kind: "leader".into(),
                band: b.leaders[i].band.clone(),
            });
        }
        let mut styles: Vec<Style> = t
            .terrains
            .iter()
            .map(|x| Style {
                key: x.key.clone(),
                name: x.name.clone(),
                colour: x.colour.clone(),
            })
            .collect();
        styles.extend(t.features.iter().map(|x| Style {
            key: x.key.clone(),
            name: x.name.clone(),
            colour: x.colour.clone(),
        }));
        styles.extend(t.roads.iter().map(|x| Style {
            key: x.key.clone(),
            name: x.name.clone(),
            colour: x.colour.clone(),
        }));
        let pending: Vec<String> = self
            .pending_seats()
            .iter()
            .map(|s| b.seats[s.index()].clone())
            .collect();
        Board {
            title: b.title.clone(),
            layout: Some(map.grid.layout()),
            hexes,
            hexsides,
            roads,
            counters,
            styles,
            status: vec![
                format!(
                    "Turn {} of {} ({}){}",
                    view.turn_number,
                    view.turns,
                    view.turn,
                    if view.night { ", night" } else { "" }
                ),
                format!("Phase: {}", view.phase),
                if pending.is_empty() {
                    "Game over".to_string()
                } else {
                    format!("Deciding: {}", pending.join(", "))
                },
                format!(
                    "Losses: {} {}, {} {}",
                    b.seats[0], view.losses[0], b.seats[1], view.losses[1]
                ),
            ]
            .into_iter()
            .chain(view.action_phase.as_ref().map(|a| {
                format!(
                    "Cup: {} {}, {} {}{}",
                    b.seats[0],
                    a.in_cup[0],
                    b.seats[1],
                    a.in_cup[1],
                    if a.turn_ends_in_cup {
                        ", Turn Ends"
                    } else {
                        ""
                    }
                )
            }))
            .collect(),
        }
    }
}
