//! What one viewer may see (the only way state leaves the game): positions, strengths,
//! control and the calendar are public; a seat's written orders are shown to that seat alone
//! until every seat has committed (5.0), then they are revealed through the log. The board
//! (what the web client and `crusades render` draw) shows the same: control, sieges,
//! garrisons and fleets as markers and status lines, and the orders of the books the viewer
//! may read (`docs/the-crusades/orders.md`, "In the browser").

use std::collections::BTreeMap;

use engine::board::{BoardCounter, BoardHex, BoardHexside, Style};
use engine::{Board, Seat, Viewer};
use hexgrid::HexId;
use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::map::{Feature, Place, Terrain};
use crate::orders::{FleetOrder, Order};
use crate::scenario::Side;
use crate::state::{FleetStatus, Phase, State, Status};

/// A leader as everyone sees him.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderView {
    /// His id.
    pub id: String,
    /// His side.
    pub side: Side,
    /// Where he is (`1618c`), if on the map.
    pub place: Option<String>,
    /// His status (`active`, `captured by saracens`, `dead`, `waiting`, `aboard english-1`).
    pub status: String,
    /// His ASPs.
    pub asps: u16,
    /// Disrupted (9.6 E).
    pub disrupted: bool,
    /// An unwoken neutral (15.0).
    pub neutral: bool,
}

/// A fleet as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FleetView {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: Side,
    /// Its hex.
    pub hex: Option<String>,
    /// Its strength.
    pub strength: u8,
    /// On blockade.
    pub blockade: bool,
}

/// A city or castle as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteView {
    /// Its name.
    pub name: String,
    /// Its hex.
    pub hex: String,
    /// Who controls it.
    pub control: Option<Side>,
    /// Under siege (10.3.8).
    pub under_siege: bool,
}

/// One viewer's view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The turn (`May I 1191`), with rain or winter.
    pub turn: String,
    /// The step.
    pub phase: String,
    /// Which seats have committed their orders.
    pub committed: [bool; 2],
    /// Every leader.
    pub leaders: Vec<LeaderView>,
    /// Every fleet.
    pub fleets: Vec<FleetView>,
    /// ASPs without leaders: side, place, ASPs.
    pub garrisons: Vec<(Side, String, u16)>,
    /// Cities and castles.
    pub sites: Vec<SiteView>,
    /// Victory points now (Crusaders, Saracens).
    pub victory_points: (u16, u16),
    /// The viewer's own written orders this turn (empty for spectators and other seats').
    pub my_orders: Vec<String>,
}

impl State {
    /// The view of `viewer`.
    pub fn seat_view(&self, viewer: Viewer) -> View {
        let s = &self.scenario;
        let t = self.turn_info();
        let mut my_orders = Vec::new();
        if let Viewer::Seat(seat) = viewer {
            if let Some(book) = self.orders.get(seat.index()) {
                for (l, o) in &book.leaders {
                    my_orders.push(
                        Action::Order {
                            leader: *l,
                            order: o.clone(),
                        }
                        .text(self),
                    );
                }
                for (f, o) in &book.fleets {
                    my_orders.push(
                        Action::Fleet {
                            fleet: *f,
                            order: o.clone(),
                        }
                        .text(self),
                    );
                }
                for &leader in &book.command {
                    my_orders.push(Action::Command { leader }.text(self));
                }
                for (&leader, &asps) in &book.take {
                    my_orders.push(Action::Take { leader, asps }.text(self));
                }
                for &leader in &book.losses {
                    my_orders.push(Action::Losses { leader }.text(self));
                }
                for (&prisoner, &leader) in &book.escort {
                    my_orders.push(Action::Escort { leader, prisoner }.text(self));
                }
            }
        }
        View {
            turn: format!(
                "{}{}{}",
                t.name,
                if t.rain { " (rain)" } else { "" },
                if t.winter { " (winter)" } else { "" }
            ),
            phase: match self.phase {
                Phase::Orders => "Order Segment".into(),
                Phase::Assassination(side) => {
                    format!("Random Events: the {} name a target", side.name())
                }
                Phase::Arrival(side) => {
                    format!(
                        "Reinforcements: the {} choose where they enter",
                        side.name()
                    )
                }
                Phase::SurrenderTerms(side) => format!(
                    "Siege Phase: the {} state the terms on which they ask {} to surrender",
                    side.name(),
                    self.surrender
                        .map_or_else(String::new, |t| s.map.sites[t.site].name.clone())
                ),
                Phase::SurrenderAnswer(side) => format!(
                    "Siege Phase: the {} answer the request that {} surrender ({})",
                    side.name(),
                    self.surrender
                        .map_or_else(String::new, |t| s.map.sites[t.site].name.clone()),
                    self.surrender
                        .and_then(|t| t.terms)
                        .map_or("", |t| t.name())
                ),
                Phase::Parley(side) => {
                    format!("Prisoners: the {} may make an offer", side.name())
                }
                Phase::OfferAnswer(side) => format!(
                    "Prisoners: the {} answer: {}",
                    side.name(),
                    self.offer.map_or_else(String::new, |(_, o)| {
                        crate::captives::offer_text(self, &o)
                    })
                ),
                Phase::Over => "game over".into(),
            },
            committed: [self.orders[0].committed, self.orders[1].committed],
            leaders: self
                .leaders
                .iter()
                .enumerate()
                .map(|(i, l)| LeaderView {
                    id: s.leaders[i].id.clone(),
                    side: s.leaders[i].side,
                    place: l.place.map(|p| p.to_string()),
                    status: match l.status {
                        Status::Waiting => "waiting".into(),
                        Status::Active => "active".into(),
                        Status::Aboard(f) => format!("aboard {}", s.fleets[f].id),
                        Status::Captured(by) => match l.held {
                            Some(si) => format!(
                                "captured by the {}, held in {}",
                                by.name(),
                                s.map.sites[si].name
                            ),
                            None => format!("captured by the {}", by.name()),
                        },
                        Status::Dead => "dead".into(),
                    },
                    asps: l.asps,
                    disrupted: l.disrupted,
                    neutral: l.neutral,
                })
                .collect(),
            fleets: self
                .fleets
                .iter()
                .enumerate()
                .filter(|(_, f)| f.status == FleetStatus::Active)
                .map(|(i, f)| FleetView {
                    id: s.fleets[i].id.clone(),
                    side: s.fleets[i].side,
                    hex: f.hex.map(|h| h.to_string()),
                    strength: f.strength,
                    blockade: f.blockade,
                })
                .collect(),
            garrisons: self
                .garrisons
                .iter()
                .map(|g| (g.side, g.place.to_string(), g.asps))
                .collect(),
            sites: s
                .map
                .sites
                .iter()
                .enumerate()
                .map(|(i, site)| SiteView {
                    name: site.name.clone(),
                    hex: site.hex.to_string(),
                    control: self.sites[i].control,
                    under_siege: self.under_siege(i),
                })
                .collect(),
            victory_points: crate::victory::points(self),
            my_orders,
        }
    }

    /// Whether `viewer` may read the order book of seat `book` now: its own, or any once
    /// every seat has committed and the books are revealed (5.0).
    pub fn book_visible(&self, viewer: Viewer, book: usize) -> bool {
        viewer == Viewer::Seat(Seat(book as u8)) || self.orders.iter().all(|b| b.committed)
    }

    /// What the order books `viewer` may read say of each leader and fleet, as short
    /// markers for the board ("order: move → 1620c", "commands", "loss order 1").
    fn order_markers(
        &self,
        viewer: Viewer,
    ) -> (BTreeMap<usize, Vec<String>>, BTreeMap<usize, Vec<String>>) {
        let s = &self.scenario;
        let mut leaders: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        let mut fleets: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for (i, book) in self.orders.iter().enumerate() {
            if !self.book_visible(viewer, i) {
                continue;
            }
            for (&l, o) in &book.leaders {
                let text = match o {
                    Order::Move { path, leave } => format!(
                        "order: move → {}{}",
                        path.last().map_or_else(String::new, |p| p.to_string()),
                        if *leave > 0 {
                            format!(", leave {leave}")
                        } else {
                            String::new()
                        }
                    ),
                    Order::With { leader } => format!("order: with {}", s.leaders[*leader].id),
                    Order::Defend => "order: defend".into(),
                    Order::FullSiege => "order: full siege".into(),
                    Order::PartialSiege => "order: partial siege".into(),
                    Order::Sally => "order: sally".into(),
                    Order::NoOrder => "order: none".into(),
                };
                leaders.entry(l).or_default().push(text);
            }
            for (&f, o) in &book.fleets {
                let text = match o {
                    FleetOrder::Move { path } => format!(
                        "order: sail → {}",
                        path.last().map_or_else(String::new, |h| h.to_string())
                    ),
                    FleetOrder::Transport { cargo, path } => {
                        let to = path.last().map_or_else(String::new, |h| h.to_string());
                        for &l in cargo {
                            leaders
                                .entry(l)
                                .or_default()
                                .push(format!("order: aboard {} → {to}", s.fleets[f].id));
                        }
                        format!("order: transport → {to}")
                    }
                    FleetOrder::Blockade => "order: blockade".into(),
                    FleetOrder::NoOrder => "order: none".into(),
                };
                fleets.entry(f).or_default().push(text);
            }
            for &l in &book.command {
                leaders.entry(l).or_default().push("commands".into());
            }
            for (&l, &n) in &book.take {
                leaders
                    .entry(l)
                    .or_default()
                    .push(format!("takes {n} ASPs"));
            }
            for (k, &l) in book.losses.iter().enumerate() {
                leaders
                    .entry(l)
                    .or_default()
                    .push(format!("loss order {}", k + 1));
            }
            for (&prisoner, &l) in &book.escort {
                leaders
                    .entry(l)
                    .or_default()
                    .push(format!("escorts {}", s.leaders[prisoner].id));
            }
        }
        (leaders, fleets)
    }

    /// The siege of site `si` as `viewer` knows it: the besieging side, and whether it is a
    /// full siege when a book `viewer` may read says so (10.3, 5.6-5.7).
    fn siege_words(&self, viewer: Viewer, si: usize) -> Option<(Side, Option<bool>)> {
        if !self.under_siege(si) {
            return None;
        }
        let hex = self.scenario.map.sites[si].hex;
        let def = self.occupier(si)?;
        let outside = Place::outside(hex);
        let att = [Side::Crusaders, Side::Saracens, Side::Cypriots]
            .into_iter()
            .find(|a| a.enemy_of(def) && self.has_leader(*a, outside))?;
        let full = att
            .seat()
            .filter(|seat| self.book_visible(viewer, seat.index()))
            .and_then(|seat| {
                let book = &self.orders[seat.index()];
                let orders: Vec<Order> = self
                    .side_leaders_at(att, outside)
                    .into_iter()
                    .map(|l| book.effective(l))
                    .filter(|o| matches!(o, Order::FullSiege | Order::PartialSiege))
                    .collect();
                (!orders.is_empty()).then(|| orders.contains(&Order::FullSiege))
            });
        Some((att, full))
    }

    /// The map and counters for renderers, as `viewer` sees them: leaders, leaderless ASPs,
    /// fleets and a control marker on each city and castle (with its siege), all public; the
    /// written orders only of the books `viewer` may read ([`State::book_visible`]).
    pub fn board_picture(&self, viewer: Viewer) -> Board {
        let s = &self.scenario;
        let map = &s.map;
        let hexes = map
            .grid
            .ids()
            .map(|id| BoardHex {
                id,
                terrain: map.terrain(id).name().into(),
                elevation: 0,
                label: map.site_at(id).map(|i| map.sites[i].name.clone()),
            })
            .collect();
        let hexsides = map
            .features()
            .map(|(a, b, f)| BoardHexside {
                a,
                b,
                feature: match f {
                    Feature::River => "river",
                    Feature::Mountain => "mountain",
                    Feature::Blocked => "blocked",
                }
                .into(),
            })
            .collect();
        let band = |side: Side| match side {
            Side::Crusaders => "#b22222",
            Side::Saracens => "#2e7d32",
            Side::Cypriots => "#6a5acd",
        };
        let (mut leader_orders, mut fleet_orders) = self.order_markers(viewer);
        let counter =
            |id: String, hex: HexId, side: &str, name: String, values: String| BoardCounter {
                id,
                hex,
                side: side.into(),
                name,
                values,
                facing: None,
                markers: Vec::new(),
                stack_position: 0,
                kind: "unit".into(),
                band: String::new(),
            };
        let mut counters = Vec::new();
        for (place, leaders) in self.by_place() {
            for &l in &leaders {
                let info = &s.leaders[l];
                let me = &self.leaders[l];
                let mut c = counter(
                    info.id.clone(),
                    place.hex,
                    info.side.name(),
                    info.id.clone(),
                    format!("{}-{}", info.combat, me.asps),
                );
                c.kind = "leader".into();
                c.band = band(info.side).into();
                c.markers = [
                    place.inside.then(|| "in city".to_string()),
                    me.disrupted.then(|| "disrupted".to_string()),
                    me.neutral.then(|| "neutral".to_string()),
                    me.must_besiege.map(|_| "must besiege".to_string()),
                ]
                .into_iter()
                .flatten()
                .chain(leader_orders.remove(&l).unwrap_or_default())
                .collect();
                counters.push(c);
            }
        }
        for g in &self.garrisons {
            let mut c = counter(
                format!("asps-{}-{}", g.side.name(), g.place),
                g.place.hex,
                g.side.name(),
                "ASPs".into(),
                g.asps.to_string(),
            );
            c.band = band(g.side).into();
            if g.place.inside {
                c.markers.push("in city".into());
            }
            counters.push(c);
        }
        for (i, f) in self.fleets.iter().enumerate() {
            if let (FleetStatus::Active, Some(h)) = (f.status, f.hex) {
                let info = &s.fleets[i];
                let mut c = counter(
                    info.id.clone(),
                    h,
                    info.side.name(),
                    info.id.clone(),
                    f.strength.to_string(),
                );
                c.band = band(info.side).into();
                let port = map.site_at(h).is_some_and(|si| map.sites[si].port);
                c.markers
                    .push(if port { "in port" } else { "at sea" }.into());
                if f.blockade {
                    c.markers.push("blockade".into());
                }
                let aboard = crate::naval::aboard(self, i);
                if !aboard.is_empty() {
                    c.markers.push(format!(
                        "carrying {}",
                        aboard
                            .iter()
                            .map(|&l| s.leaders[l].id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                c.markers
                    .extend(fleet_orders.remove(&i).unwrap_or_default());
                counters.push(c);
            }
        }
        let mut sieges = Vec::new();
        for (si, site) in map.sites.iter().enumerate() {
            let st = &self.sites[si];
            let mut c = counter(
                format!("site-{}", site.hex),
                site.hex,
                st.control.map_or("neutral", Side::name),
                site.name.clone(),
                st.control.map_or("neutral", Side::name).into(),
            );
            c.kind = "marker".into();
            if let Some((att, full)) = self.siege_words(viewer, si) {
                let how = match full {
                    Some(true) => " (full siege)",
                    Some(false) => " (partial siege)",
                    None => "",
                };
                c.markers
                    .push(format!("besieged by the {}{how}", att.name()));
                sieges.push(format!(
                    "Siege of {}: the {} besiege the {}{how}",
                    site.name,
                    att.name(),
                    self.occupier(si).map_or("", Side::name)
                ));
            }
            if st.castle_garrison {
                c.markers.push("castle garrison 1 SP".into());
            }
            if st.worse > 0 {
                c.markers.push(format!("attrition worse by {}", st.worse));
            }
            counters.push(c);
        }
        // Stacks: leaders (outside, then inside), leaderless ASPs, fleets, the site marker.
        let mut depth: BTreeMap<HexId, u8> = BTreeMap::new();
        for c in &mut counters {
            let d = depth.entry(c.hex).or_insert(0);
            c.stack_position = *d;
            *d = d.saturating_add(1);
        }
        let style = |key: &str, name: &str, colour: &str| Style {
            key: key.into(),
            name: name.into(),
            colour: colour.into(),
        };
        Board {
            title: map.title.clone(),
            layout: Some(map.layout()),
            hexes,
            hexsides,
            roads: Vec::new(),
            counters,
            styles: vec![
                style(Terrain::Sea.name(), "all-sea", "#9ecae1"),
                style(Terrain::Fertile.name(), "fertile", "#a1d99b"),
                style(Terrain::Variable.name(), "variable", "#e6c98a"),
                style(Terrain::Barren.name(), "barren", "#f7ec8a"),
                style("river", "river", "#2171b5"),
                style("mountain", "mountain hexside", "#6b4226"),
                style("blocked", "blocked hexside", "#000000"),
                style("neutral", "neutral", "#c8c8c8"),
            ],
            status: self.status_lines(viewer, sieges),
        }
    }

    /// The board's status lines for `viewer`: the turn and step, victory points, who must
    /// decide, cities held, sieges, prisoners, and the viewer's own written orders while they
    /// are secret (the other seat's never).
    fn status_lines(&self, viewer: Viewer, sieges: Vec<String>) -> Vec<String> {
        let view = self.seat_view(viewer);
        let (c, sa) = crate::victory::points(self);
        let mut out = vec![
            view.turn,
            view.phase,
            format!("VPs: Crusaders {c}, Saracens {sa}"),
            format!(
                "waiting for: {}",
                self.pending_seats()
                    .iter()
                    .map(|s: &Seat| match self.scenario.seats.get(s.index()) {
                        Some(name) => name.clone(),
                        None => s.index().to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ];
        let held = |side: Side| {
            self.sites
                .iter()
                .filter(|x| x.control == Some(side))
                .count()
        };
        out.push(format!(
            "Cities and castles held: crusaders {}, saracens {}",
            held(Side::Crusaders),
            held(Side::Saracens)
        ));
        out.extend(sieges);
        for (l, leader) in self.leaders.iter().enumerate() {
            if let Status::Captured(by) = leader.status {
                out.push(format!(
                    "Prisoner: {} held by the {}{}",
                    self.scenario.leaders[l].id,
                    by.name(),
                    leader.held.map_or_else(String::new, |si| format!(
                        " in {}",
                        self.scenario.map.sites[si].name
                    ))
                ));
            }
        }
        if let Viewer::Seat(seat) = viewer {
            let revealed = self.orders.iter().all(|b| b.committed);
            if !revealed && self.phase == Phase::Orders && seat.index() < self.orders.len() {
                out.push(format!(
                    "Your orders (secret until both sides commit): {} written{}",
                    view.my_orders.len(),
                    if self.orders[seat.index()].committed {
                        ", committed"
                    } else {
                        ""
                    }
                ));
                out.extend(view.my_orders.iter().map(|o| format!("· {o}")));
            }
        }
        out
    }
}
