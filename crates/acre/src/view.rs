//! What each viewer may see: the one place the state is filtered. The secret plans go
//! through [`crate::planning::Allocation::seen_by`], the tunnels through
//! [`crate::engineering::Tunnels::seen_by`]; allocations made before their dice are rolled
//! (tunnel hexes, catapults laid, Engineer Points placed, fire declared) are shown only to
//! their own side. Everything on the map is public.

use engine::board::{BoardCounter, BoardHex, Style};
use engine::{Board, Outcome, Viewer};
use hexgrid::Hex;
use serde::Serialize;

use crate::engineering::TunnelsView;
use crate::fire::Firer;
use crate::intervention::Used;
use crate::planning::{AllocationView, Phases};
use crate::position::{ArmyMorale, Location};
use crate::rules::Side;
use crate::setup::Piece;
use crate::state::{side_of_seat, State};

/// A counter as everyone sees it.
#[derive(Clone, Debug, Serialize)]
pub struct CounterView {
    /// Its notation name.
    pub id: String,
    /// Its printed name.
    pub name: String,
    /// `unit`, `leader` or `siege`.
    pub kind: &'static str,
    /// Its side.
    pub side: Side,
    /// A hex id, or `off-map`, `regrouping`, `destroyed`.
    pub at: String,
    /// Disrupted (9.23).
    pub disrupted: bool,
    /// A garrison unit at its reduced step (9.27).
    pub reduced: bool,
    /// A wounded leader's last Game-Turn out, or a damaged engine's return.
    pub out_until: Option<u8>,
}

/// The viewer's own allocations not yet resolved.
#[derive(Clone, Debug, Default, Serialize)]
pub struct OwnWork {
    /// Tunnel hexes allocated (13.25): base number and hex.
    pub digs: Vec<(usize, String)>,
    /// Giant catapults laid (8.11).
    pub bombard: Vec<(String, String)>,
    /// Small catapults laid (8.21).
    pub counter: Vec<(String, String)>,
    /// Engineer Points placed (8.31).
    pub repairs: Vec<String>,
    /// Fire declared (9.0).
    pub fire: Vec<(String, String)>,
    /// Points spent this step (Tunnel Points or searches).
    pub spent: u8,
}

/// An advance after combat being chosen (10.7), as everyone sees it.
#[derive(Clone, Debug, Serialize)]
pub struct AdvanceView {
    /// The Path of Retreat: the vacated hex, then the hexes the defender retreated through.
    pub path: Vec<String>,
    /// The pieces advancing so far, each with the hex it goes to.
    pub moves: Vec<(String, String)>,
}

/// The game as one viewer sees it.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The Game-Turn.
    pub turn: u8,
    /// Where the game is.
    pub step: String,
    /// Who must decide.
    pub pending: Vec<Side>,
    /// 16.0 is in play.
    pub conrad: bool,
    /// The plans as the viewer may see them.
    pub allocation: AllocationView,
    /// The phases of this Game-Turn, once the plans are revealed.
    pub phases: Option<Phases>,
    /// Intervention counters counted so far (7.22, revealed at each Game-Turn's end).
    pub intervention_used: Used,
    /// The tunnels as the viewer may see them.
    pub tunnels: TunnelsView,
    /// Hexes searched and found empty since the last Tunnel Segment (13.31).
    pub searched: Vec<String>,
    /// The Moslem Engineer Points per Game-Turn (13.3, 13.32).
    pub engineer_points: u8,
    /// Every counter.
    pub counters: Vec<CounterView>,
    /// Breach Damage Levels (8.14), shown as a marker on the hex (8.15).
    pub damage: Vec<(String, u8)>,
    /// Walls caved in (13.28).
    pub caved_in: Vec<String>,
    /// Filled foss hexes (13.1).
    pub filled: Vec<String>,
    /// Army Morale Levels (10.5).
    pub morale: ArmyMorale,
    /// The counter selected to move.
    pub selected: Option<String>,
    /// The melee announced: the hex and its attackers.
    pub melee: Option<(String, Vec<String>)>,
    /// Units retreating.
    pub retreating: Vec<String>,
    /// Charges announced this Impulse (15.22): the charging unit and the unit it charges.
    pub charging: Vec<(String, String)>,
    /// The advance after combat being chosen (10.7).
    pub advance: Option<AdvanceView>,
    /// Grenade attacks made this game (15.3).
    pub grenades: u8,
    /// The viewer's own allocations not yet resolved.
    pub own: OwnWork,
    /// How the game ended.
    pub outcome: Option<Outcome>,
}

fn at_text(s: &State, at: Location) -> String {
    match at {
        Location::Map(h) => s.id(h),
        Location::OffMap => "off-map".into(),
        Location::Regrouping => "regrouping".into(),
        Location::Destroyed => "destroyed".into(),
    }
}

impl State {
    fn all_pieces(&self) -> Vec<Piece> {
        let r = &self.rules;
        (0..r.units.len())
            .map(Piece::Unit)
            .chain((0..r.leaders.len()).map(Piece::Leader))
            .chain((0..r.siege.len()).map(Piece::Siege))
            .collect()
    }

    fn counter_view(&self, p: Piece) -> CounterView {
        let (kind, at, disrupted, reduced, out_until) = match p {
            Piece::Unit(u) => {
                let st = &self.pos.units[u];
                ("unit", st.at, st.disrupted, st.reduced, None)
            }
            Piece::Leader(l) => {
                let st = &self.pos.leaders[l];
                ("leader", st.at, false, false, st.wounded_until)
            }
            Piece::Siege(e) => {
                let st = &self.pos.siege[e];
                ("siege", st.at, false, false, st.returns_on)
            }
        };
        CounterView {
            id: self.slug(p),
            name: p.name(&self.rules).to_string(),
            kind,
            side: self.side_of_piece(p),
            at: at_text(self, at),
            disrupted,
            reduced,
            out_until,
        }
    }

    /// The view of `viewer`.
    pub fn seat_view(&self, viewer: Viewer) -> View {
        let side = match viewer {
            Viewer::Seat(seat) => side_of_seat(seat),
            Viewer::Spectator => None,
        };
        let allocation = match side {
            Some(s) => self.allocation.seen_by(s),
            None => AllocationView {
                crusader: self.allocation.seen_by(Side::Moslem).crusader,
                moslem: self.allocation.seen_by(Side::Crusader).moslem,
            },
        };
        let tunnels = self.tunnels.seen_by(side.unwrap_or(Side::Moslem));
        let name = |p: Piece| self.slug(p);
        let firer = |f: Firer| match f {
            Firer::Unit(u) => name(Piece::Unit(u)),
            Firer::Siege(e) => name(Piece::Siege(e)),
        };
        let w = &self.work;
        let own = match side {
            Some(Side::Crusader) => OwnWork {
                digs: w.digs.iter().map(|(b, h)| (b + 1, self.id(*h))).collect(),
                bombard: w
                    .shots
                    .iter()
                    .map(|(e, h)| (name(Piece::Siege(*e)), self.id(*h)))
                    .collect(),
                fire: w.fire[0]
                    .iter()
                    .map(|(f, h)| (firer(*f), self.id(*h)))
                    .collect(),
                spent: w.spent,
                ..OwnWork::default()
            },
            Some(Side::Moslem) => OwnWork {
                counter: w
                    .counter
                    .iter()
                    .map(|(c, t)| (name(Piece::Siege(*c)), name(Piece::Siege(*t))))
                    .collect(),
                repairs: w.repairs.iter().map(|h| self.id(*h)).collect(),
                fire: w.fire[1]
                    .iter()
                    .map(|(f, h)| (firer(*f), self.id(*h)))
                    .collect(),
                spent: w.spent,
                ..OwnWork::default()
            },
            None => OwnWork::default(),
        };
        View {
            turn: self.turn.turn,
            step: self.step_name(),
            pending: self.pending_sides(),
            conrad: self.conrad,
            allocation,
            phases: if self.allocation.resolved {
                self.phases
            } else {
                None
            },
            intervention_used: self.used,
            tunnels,
            searched: self.searched.iter().map(|h| self.id(*h)).collect(),
            engineer_points: self.engineer_points,
            counters: self
                .all_pieces()
                .into_iter()
                .map(|p| self.counter_view(p))
                .collect(),
            damage: self
                .pos
                .damage
                .iter()
                .map(|(h, d)| (self.id(*h), *d))
                .collect(),
            caved_in: self.pos.caved_in.iter().map(|h| self.id(*h)).collect(),
            filled: self.pos.filled.iter().map(|h| self.id(*h)).collect(),
            morale: self.pos.morale.clone(),
            selected: w.selected.map(name),
            melee: w.melee.as_ref().map(|m| {
                (
                    self.id(m.target),
                    m.attackers.iter().map(|&u| name(Piece::Unit(u))).collect(),
                )
            }),
            retreating: self
                .retreats
                .units
                .iter()
                .map(|r| name(Piece::Unit(r.unit)))
                .collect(),
            charging: self
                .charging
                .iter()
                .map(|(u, t)| (name(Piece::Unit(*u)), name(Piece::Unit(*t))))
                .collect(),
            advance: w.advance.as_ref().map(|a| {
                let moves = a
                    .moves
                    .iter()
                    .map(|&(who, n)| {
                        let piece = match who {
                            crate::melee::Advancer::Unit(u) => Piece::Unit(u),
                            crate::melee::Advancer::Leader(l) => Piece::Leader(l),
                        };
                        (name(piece), self.id(a.path[n - 1]))
                    })
                    .collect();
                AdvanceView {
                    path: a.path.iter().map(|h| self.id(*h)).collect(),
                    moves,
                }
            }),
            grenades: self.grenades,
            own,
            outcome: self.outcome.clone(),
        }
    }

    /// The map and counters as `viewer` sees them.
    pub fn board_picture(&self, viewer: Viewer) -> Board {
        let r = &self.rules;
        let map = &r.map;
        let view = self.seat_view(viewer);
        let hexes = map
            .grid
            .hexes()
            .filter_map(|h| {
                let id = map.grid.id_of(h)?;
                Some(BoardHex {
                    id,
                    terrain: map.terrain(h).key.clone(),
                    elevation: 0,
                    label: map
                        .labels
                        .iter()
                        .find(|(x, _)| *x == h)
                        .map(|(_, l)| l.clone()),
                })
            })
            .collect();
        let mut counters = Vec::new();
        let band = |side: Side| match side {
            Side::Crusader => "#b22222",
            Side::Moslem => "#2e7d32",
        };
        for p in self.all_pieces() {
            let at = match p {
                Piece::Unit(u) => self.pos.units[u].at,
                Piece::Leader(l) => self.pos.leaders[l].at,
                Piece::Siege(e) => self.pos.siege[e].at,
            };
            let (Location::Map(h), Some(id)) = (at, at.hex().and_then(|h| map.grid.id_of(h)))
            else {
                continue;
            };
            let _ = h;
            let side = self.side_of_piece(p);
            let (values, kind, stack, markers) = match p {
                Piece::Unit(u) => {
                    let st = &self.pos.units[u];
                    let markers = [
                        st.disrupted.then(|| "disrupted".to_string()),
                        st.reduced.then(|| "reduced".to_string()),
                    ]
                    .into_iter()
                    .flatten()
                    .collect();
                    (
                        format!("{}-{}", self.pos.melee_strength(r, u), r.units[u].movement),
                        "unit",
                        1,
                        markers,
                    )
                }
                Piece::Leader(l) => {
                    let x = &r.leaders[l];
                    (
                        format!("{}-{}-{}-{}", x.morale, x.bonus, x.radius, x.movement),
                        "leader",
                        0,
                        Vec::new(),
                    )
                }
                Piece::Siege(_) => (String::new(), "unit", 2, Vec::new()),
            };
            counters.push(BoardCounter {
                id: self.slug(p),
                hex: id,
                side: match side {
                    Side::Crusader => "crusader".into(),
                    Side::Moslem => "moslem".into(),
                },
                name: p.name(r).to_string(),
                values,
                facing: None,
                markers,
                stack_position: stack,
                kind: kind.into(),
                band: band(side).into(),
            });
        }
        let marker = |key: String, hex: Hex, name: String| -> Option<BoardCounter> {
            Some(BoardCounter {
                id: key,
                hex: map.grid.id_of(hex)?,
                side: String::new(),
                name,
                values: String::new(),
                facing: None,
                markers: Vec::new(),
                stack_position: 3,
                kind: "marker".into(),
                band: "#555555".into(),
            })
        };
        for (i, &b) in view.tunnels.bases.iter().enumerate() {
            counters.extend(marker(
                format!("tunnel-base-{}", i + 1),
                b,
                format!("Tunnel Base {}", i + 1),
            ));
        }
        for &h in &view.tunnels.operative {
            counters.extend(marker(format!("tunnel-{}", self.id(h)), h, "Tunnel".into()));
        }
        for &h in &view.tunnels.inoperative {
            counters.extend(marker(
                format!("closed-{}", self.id(h)),
                h,
                "Inoperative tunnel".into(),
            ));
        }
        for &h in &self.pos.filled {
            counters.extend(marker(
                format!("filled-{}", self.id(h)),
                h,
                "Filled foss".into(),
            ));
        }
        for (&h, &d) in &self.pos.damage {
            if d > 0 {
                counters.extend(marker(
                    format!("damage-{}", self.id(h)),
                    h,
                    format!("Breach {d}"),
                ));
            }
        }
        let styles = r
            .map
            .terrains
            .iter()
            .map(|t| Style {
                key: t.key.clone(),
                name: t.name.clone(),
                colour: t.colour.clone(),
            })
            .collect();
        Board {
            title: map.title.clone(),
            layout: Some(map.grid.layout()),
            hexes,
            hexsides: Vec::new(),
            roads: Vec::new(),
            counters,
            styles,
            status: vec![
                view.step.clone(),
                format!(
                    "waiting for: {}",
                    view.pending
                        .iter()
                        .map(|s| match s {
                            Side::Crusader => "crusader",
                            Side::Moslem => "moslem",
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ],
        }
    }
}
