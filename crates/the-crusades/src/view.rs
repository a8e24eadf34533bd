//! What one viewer may see (the only way state leaves the game): positions, strengths,
//! control and the calendar are public; a seat's written orders are shown to that seat alone
//! until every seat has committed (5.0), then they are revealed through the log.

use engine::board::{BoardCounter, BoardHex, BoardHexside, Style};
use engine::{Board, Seat, Viewer};
use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::map::{Feature, Terrain};
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

    /// The map and counters for renderers (everything on it is public).
    pub fn board_picture(&self, _viewer: Viewer) -> Board {
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
        let mut counters = Vec::new();
        for (place, leaders) in self.by_place() {
            for (k, &l) in leaders.iter().enumerate() {
                let info = &s.leaders[l];
                counters.push(BoardCounter {
                    id: info.id.clone(),
                    hex: place.hex,
                    side: info.side.name().into(),
                    name: info.id.clone(),
                    values: format!("{}-{}", info.combat, self.leaders[l].asps),
                    facing: None,
                    markers: [
                        place.inside.then(|| "in city".to_string()),
                        self.leaders[l].disrupted.then(|| "disrupted".to_string()),
                    ]
                    .into_iter()
                    .flatten()
                    .collect(),
                    stack_position: k.min(255) as u8,
                    kind: "leader".into(),
                    band: band(info.side).into(),
                });
            }
        }
        for (i, f) in self.fleets.iter().enumerate() {
            if let (FleetStatus::Active, Some(h)) = (f.status, f.hex) {
                counters.push(BoardCounter {
                    id: s.fleets[i].id.clone(),
                    hex: h,
                    side: s.fleets[i].side.name().into(),
                    name: s.fleets[i].id.clone(),
                    values: f.strength.to_string(),
                    facing: None,
                    markers: if f.blockade {
                        vec!["blockade".into()]
                    } else {
                        vec![]
                    },
                    stack_position: 0,
                    kind: "unit".into(),
                    band: band(s.fleets[i].side).into(),
                });
            }
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
            ],
            status: vec![
                self.seat_view(Viewer::Spectator).turn,
                format!(
                    "VPs: Crusaders {}, Saracens {}",
                    crate::victory::points(self).0,
                    crate::victory::points(self).1
                ),
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
            ],
        }
    }
}
