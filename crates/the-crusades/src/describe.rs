//! Actions described for a player choosing them (the web client's "click a leader, see where
//! he may march, click a destination"): the leader or fleet counter an order is for (the ids
//! of [`State::board_picture`]), the hex it ends in, its path, and a readable label. Built
//! from what the deciding seat may see only: the public map and its own order book, never
//! the other seat's (`docs/the-crusades/orders.md`, "In the browser").

use engine::{ActionInfo, Seat};
use hexgrid::HexId;

use crate::action::Action;
use crate::attrition::path_aps;
use crate::map::Place;
use crate::orders::{FleetOrder, Order};
use crate::scenario::Side;
use crate::state::{Offer, Phase, State, Status, Terms};

/// The hexes of a path of places, in order, a place inside a city and the open hex around it
/// counted once (`1619 1620 1620c` is `1619 1620`): what a map draws.
pub fn path_hexes(path: &[Place]) -> Vec<HexId> {
    let mut out: Vec<HexId> = Vec::with_capacity(path.len());
    for p in path {
        if out.last() != Some(&p.hex) {
            out.push(p.hex);
        }
    }
    out
}

impl State {
    /// A leader's short name: his printed name up to the first comma ("Guy of Lusignan"), or
    /// the whole name where another leader's would read the same.
    pub fn leader_name(&self, leader: usize) -> String {
        let short = |l: usize| {
            let name = &self.scenario.leaders[l].name;
            name.split(',')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string()
        };
        let mine = short(leader);
        let info = &self.scenario.leaders[leader];
        if mine.is_empty() {
            info.id.clone()
        } else if (0..self.scenario.leaders.len()).any(|o| o != leader && short(o) == mine) {
            info.name.clone()
        } else {
            mine
        }
    }

    /// Where a force stands, in words: `in 1720`, `inside Acre (1619c)`, `outside Tyre (1618)`.
    pub fn place_words(&self, place: Place) -> String {
        let map = &self.scenario.map;
        match map.site_at(place.hex) {
            Some(si) if place.inside => format!("inside {} ({place})", map.sites[si].name),
            Some(si) => format!("outside {} ({place})", map.sites[si].name),
            None => format!("in {place}"),
        }
    }

    /// Where a march ends, in words: `to 1720`, `into Acre (1619c)`, `to Tyre (1618, outside
    /// the walls)`.
    pub fn destination_words(&self, place: Place) -> String {
        let map = &self.scenario.map;
        match map.site_at(place.hex) {
            Some(si) if place.inside => format!("into {} ({place})", map.sites[si].name),
            Some(si) => format!("to {} ({place}, outside the walls)", map.sites[si].name),
            None => format!("to {place}"),
        }
    }

    /// A hex in words: `1520`, `Tyre (1618)`.
    fn hex_words(&self, hex: HexId) -> String {
        let map = &self.scenario.map;
        match map.site_at(hex) {
            Some(si) => format!("{} ({hex})", map.sites[si].name),
            None => hex.to_string(),
        }
    }

    /// The board counter of an active leader on the map, with its hex.
    fn leader_counter(&self, leader: usize) -> Option<(String, HexId)> {
        let l = &self.leaders[leader];
        match (l.status, l.place) {
            (Status::Active, Some(p)) => Some((self.scenario.leaders[leader].id.clone(), p.hex)),
            _ => None,
        }
    }

    /// `action` described for `seat` (one of its legal actions, or any action it could
    /// type): only the public map and `seat`'s own order book are read.
    pub fn describe(&self, seat: Seat, action: &Action) -> ActionInfo {
        let s = &self.scenario;
        let mut info = ActionInfo::from_notation(action.text(self));
        let name = |l: usize| self.leader_name(l);
        let id = |l: usize| s.leaders[l].id.clone();
        let site_name = |si: usize| s.map.sites[si].name.clone();
        match action {
            Action::Order { leader, order } => {
                let l = *leader;
                info.counters = vec![id(l)];
                let here = self.leaders[l].place;
                info.hex = here.map(|p| p.hex);
                match order {
                    Order::Move { path, leave } => {
                        info.kind = "move".into();
                        info.path = path_hexes(path);
                        info.hex = path.last().map(|p| p.hex).or(info.hex);
                        let dest = path
                            .last()
                            .map_or_else(String::new, |p| self.destination_words(*p));
                        let aps = path_aps(self, path);
                        info.label = format!(
                            "{} marches {dest}: {} ({} hex{}, {aps} Attrition Point{}, 6.4.2)",
                            name(l),
                            path.iter()
                                .map(Place::to_string)
                                .collect::<Vec<_>>()
                                .join(" → "),
                            info.path.len(),
                            if info.path.len() == 1 { "" } else { "es" },
                            if aps == 1 { "" } else { "s" },
                        );
                        if *leave > 0 {
                            info.label
                                .push_str(&format!(", leaving {leave} ASPs behind (6.1.2 B)"));
                        }
                    }
                    Order::With { leader: head } => {
                        info.kind = "with".into();
                        info.label = format!(
                            "{} goes with {}: one force under {}'s order (8.0 F)",
                            name(l),
                            name(*head),
                            name(*head)
                        );
                    }
                    Order::Defend => {
                        info.kind = "defend".into();
                        info.label = format!(
                            "{} stands on the defensive {} (5.4): he stays, and his zone of influence holds the hex",
                            name(l),
                            here.map_or_else(String::new, |p| self.place_words(p))
                        );
                    }
                    Order::FullSiege | Order::PartialSiege => {
                        let full = *order == Order::FullSiege;
                        info.kind = if full { "full-siege" } else { "partial-siege" }.into();
                        let city = here
                            .and_then(|p| s.map.site_at(p.hex))
                            .map_or_else(String::new, site_name);
                        info.label = format!(
                            "{} lays {} siege to {city} ({})",
                            name(l),
                            if full { "a full" } else { "a partial" },
                            if full { "5.6, 10.3" } else { "5.7, 10.3" }
                        );
                    }
                    Order::Sally => {
                        info.kind = "sally".into();
                        let city = here
                            .and_then(|p| s.map.site_at(p.hex))
                            .map_or_else(String::new, site_name);
                        info.label = format!(
                            "{} sallies out of {city} against the besiegers (5.3, 9.4)",
                            name(l)
                        );
                    }
                    Order::NoOrder => {
                        info.kind = "no-order".into();
                        info.label = format!(
                            "{} stays {} with no order (5.8)",
                            name(l),
                            here.map_or_else(String::new, |p| self.place_words(p))
                        );
                    }
                }
            }
            Action::Fleet { fleet, order } => {
                let f = *fleet;
                let fid = s.fleets[f].id.clone();
                info.counters = vec![fid.clone()];
                info.hex = self.fleets[f].hex;
                match order {
                    FleetOrder::Move { path } | FleetOrder::Transport { path, .. } => {
                        info.path = path.to_vec();
                        info.hex = path.last().copied().or(info.hex);
                        let dest = path.last().map_or_else(String::new, |h| self.hex_words(*h));
                        let route = path
                            .iter()
                            .map(HexId::to_string)
                            .collect::<Vec<_>>()
                            .join(" → ");
                        if let FleetOrder::Transport { cargo, .. } = order {
                            info.kind = "transport".into();
                            info.counters.extend(cargo.iter().map(|&l| id(l)));
                            info.label = format!(
                                "Fleet {fid} carries {} to {dest}: {route} (5.2, 12.5)",
                                cargo
                                    .iter()
                                    .map(|&l| name(l))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            );
                        } else {
                            info.kind = "move".into();
                            info.label =
                                format!("Fleet {fid} sails to {dest}: {route} (5.1, 12.2)");
                        }
                    }
                    FleetOrder::Blockade => {
                        info.kind = "blockade".into();
                        info.label = format!(
                            "Fleet {fid} blockades {} (5.5, 12.3)",
                            info.hex.map_or_else(String::new, |h| self.hex_words(h))
                        );
                    }
                    FleetOrder::NoOrder => {
                        info.kind = "no-order".into();
                        info.label = format!(
                            "Fleet {fid} stays in {} with no order (5.8)",
                            info.hex.map_or_else(String::new, |h| self.hex_words(h))
                        );
                    }
                }
            }
            Action::Cancel { fleet, index } => {
                if *fleet {
                    info.counters = vec![s.fleets[*index].id.clone()];
                    info.label = format!("Cancel the order of fleet {}", s.fleets[*index].id);
                } else {
                    info.counters = vec![id(*index)];
                    info.label = format!(
                        "Cancel what is written for {} (order, command, take, losses, escort)",
                        name(*index)
                    );
                }
            }
            Action::Commit => {
                let (leaders, fleets) = Side::of_seat(seat).map_or((0, 0), |side| {
                    (
                        self.orderable(side).len(),
                        self.orderable_fleets(side).len(),
                    )
                });
                info.label = if leaders + fleets == 0 {
                    "Commit your orders: hand them in (5.0)".into()
                } else {
                    format!(
                        "Commit your orders: hand them in (5.0); {leaders} leader{} and {fleets} fleet{} without an order stay where they are (No Order, 5.8)",
                        if leaders == 1 { "" } else { "s" },
                        if fleets == 1 { "" } else { "s" }
                    )
                };
            }
            Action::Assassinate { leader } => {
                if let Some((c, hex)) = self.leader_counter(*leader) {
                    info.targets = vec![c];
                    info.hex = Some(hex);
                }
                info.label = format!(
                    "Name {} as the target of the assassin (14.2)",
                    name(*leader)
                );
            }
            Action::Pass => {
                info.label = match self.phase {
                    Phase::Assassination(_) => "Make no assassination attempt (14.2)".into(),
                    _ => "Make no offer this turn (9.7.6)".into(),
                };
            }
            Action::Command { leader } => {
                info.kind = "command".into();
                info.counters = vec![id(*leader)];
                info.label = format!(
                    "{} commands the force he is in this turn (8.0 H)",
                    name(*leader)
                );
            }
            Action::Take { leader, asps } => {
                info.kind = "take".into();
                info.counters = vec![id(*leader)];
                info.label = format!(
                    "{} takes up {asps} leaderless ASP{} {} before anything moves (6.1.2, 8.0 I)",
                    name(*leader),
                    if *asps == 1 { "" } else { "s" },
                    self.leaders[*leader]
                        .place
                        .map_or_else(String::new, |p| self.place_words(p))
                );
            }
            Action::Losses { leader } => {
                info.counters = vec![id(*leader)];
                let next = Side::of_seat(seat).map_or(0, |side| self.book(side).losses.len()) + 1;
                info.label = format!(
                    "Name {} number {next} in the loss order (he takes the losses you distribute before the leaders not yet named, 6.4.5 B, 9.5 D)",
                    name(*leader)
                );
            }
            Action::Escort { leader, prisoner } => {
                info.kind = "escort".into();
                info.counters = vec![id(*leader)];
                info.label = format!(
                    "{}'s force takes the prisoner {} along under guard on its march (9.7.6 C)",
                    name(*leader),
                    name(*prisoner)
                );
            }
            Action::Terms { site, terms } => {
                let hex = s.map.sites[*site].hex;
                info.hex = Some(hex);
                let defenders: Vec<usize> = self.leaders_at(Place::inside(hex)).collect();
                info.targets = defenders.iter().map(|&l| id(l)).collect();
                info.label = format!(
                    "Ask {} to surrender: {} (10.4.2)",
                    site_name(*site),
                    terms.name()
                );
                info.details = vec![self.terms_words(*site, *terms)];
            }
            Action::Surrender => {
                if let Some(t) = self.surrender {
                    info.hex = Some(s.map.sites[t.site].hex);
                    info.label = format!(
                        "Surrender {} on the besieger's terms (10.4.2)",
                        site_name(t.site)
                    );
                    if let Some(terms) = t.terms {
                        info.details = vec![self.terms_words(t.site, terms)];
                    }
                }
            }
            Action::Refuse => match (self.phase, self.surrender, self.offer) {
                (Phase::SurrenderAnswer(_), Some(t), _) => {
                    info.hex = Some(s.map.sites[t.site].hex);
                    info.label = format!(
                        "Refuse to surrender {}: the assault goes ahead (10.4.2)",
                        site_name(t.site)
                    );
                }
                (_, _, Some((_, offer))) => {
                    info.label = format!("Refuse the offer: {} (9.7.6)", self.offer_words(&offer));
                }
                _ => info.label = "Refuse".into(),
            },
            Action::Offer { offer } => {
                if let Offer::Ransom { site, .. } = offer {
                    info.hex = Some(s.map.sites[*site].hex);
                }
                info.label = format!("Offer: {} (9.7.6 B)", self.offer_words(offer));
            }
            Action::Accept => {
                if let Some((_, offer)) = self.offer {
                    if let Offer::Ransom { site, .. } = offer {
                        info.hex = Some(s.map.sites[site].hex);
                    }
                    info.label =
                        format!("Accept the offer: {} (9.7.6 B)", self.offer_words(&offer));
                }
            }
            Action::Kill { leader } => {
                info.label = format!("Put the prisoner {} to death (9.7.6 F)", name(*leader));
            }
            Action::Arrive {
                reinforcement,
                place,
            } => {
                let group = &s.reinforcements[*reinforcement].leaders;
                info.counters = group.first().map(|&l| id(l)).into_iter().collect();
                info.hex = Some(place.hex);
                info.label = format!(
                    "{} enter{} the map {} (16.4)",
                    group
                        .iter()
                        .map(|&l| name(l))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if group.len() == 1 { "s" } else { "" },
                    self.place_words(*place)
                );
            }
        }
        info
    }

    /// What terms of surrender mean for the city `site` now (10.4.2).
    fn terms_words(&self, site: usize, terms: Terms) -> String {
        let def = self.occupier(site);
        match terms {
            Terms::MarchOut => format!(
                "the defenders march out with their ASPs {}",
                def.and_then(|d| crate::siege::march_out_place(self, site, d))
                    .map_or_else(
                        || "to the nearest city of their side".into(),
                        |p| self.destination_words(p)
                    )
            ),
            Terms::Captivity => {
                "the defenders' ASPs are disbanded and their leaders held prisoner (9.7.6)".into()
            }
        }
    }

    /// An offer over prisoners in words (9.7.6 B).
    fn offer_words(&self, offer: &Offer) -> String {
        match *offer {
            Offer::Exchange { give, get } => format!(
                "free the prisoner {} in exchange for {}",
                self.leader_name(give),
                self.leader_name(get)
            ),
            Offer::Ransom { get, site } => format!(
                "turn over {} as the ransom of {}",
                self.hex_words(self.scenario.map.sites[site].hex),
                self.leader_name(get)
            ),
        }
    }
}
