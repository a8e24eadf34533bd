//! Actions: the small decisions of the game in its own words, their text notation, which are
//! legal now, and how each is applied. Orders (5.0) are written one leader or fleet at a
//! time and kept secret in the seat's [`crate::orders::OrderBook`] until `commit`.
//!
//! Notation (leader and fleet ids as in the scenario; places `1618` or `1618c`, see
//! `docs/the-crusades/orders.md`):
//!
//! ```text
//! richard move 1619 1620 1620c     guy with richard      conrad defend
//! guy full-siege   guy partial-siege   kara-kush sally   balian no-order
//! saladin move 1721 1722 leave 10
//! english-1 move 0113 0114         pisan transport guy+amalric 1620 1520
//! pisan blockade   pisan no-order   cancel guy   commit   assassinate saladin   pass
//! arrive richard 0110   richard command   saladin take 10   losses guy
//! terms 1619 march-out   terms 1619 captivity   surrender   refuse
//! offer exchange kara-kush for guy   offer ransom guy for 1523   accept   kill guy
//! richard escort kara-kush
//! ```

use engine::{Applied, Event, Log, Rejection, Seat};
use serde::{Deserialize, Serialize};

use crate::map::Place;
use crate::movement;
use crate::naval;
use crate::neutrals;
use crate::orders::{FleetOrder, Order, Path};
use crate::scenario::Side;
use crate::state::{FleetStatus, Offer, Phase, State, Status, Terms};

/// A decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Writes a leader's order.
    Order {
        /// The leader.
        leader: usize,
        /// The order.
        order: Order,
    },
    /// Writes a fleet's order.
    Fleet {
        /// The fleet.
        fleet: usize,
        /// The order.
        order: FleetOrder,
    },
    /// Erases a written order of a leader (`fleet: false`) or fleet.
    Cancel {
        /// Whether it is a fleet.
        fleet: bool,
        /// Its index.
        index: usize,
    },
    /// Hands in the seat's orders (5.0).
    Commit,
    /// Names the target of an assassination (14.2).
    Assassinate {
        /// The enemy leader.
        leader: usize,
    },
    /// Declines an assassination.
    Pass,
    /// Designates in writing the commander of the force a leader is in (8.0 H).
    Command {
        /// The leader.
        leader: usize,
    },
    /// A Saracen leader takes up leaderless ASPs of his place before anything moves (6.1.2).
    Take {
        /// The leader.
        leader: usize,
        /// How many ASPs.
        asps: u16,
    },
    /// Names a leader next in the seat's loss order (6.4.5 B, 9.5 D): he takes the losses his
    /// owner distributes before the leaders not yet named.
    Losses {
        /// The leader.
        leader: usize,
    },
    /// The besieger states the terms of its request to surrender (10.4.2).
    Terms {
        /// The besieged city or castle.
        site: usize,
        /// The terms.
        terms: Terms,
    },
    /// The besieged accept the terms and surrender (10.4.2).
    Surrender,
    /// Refuses a request to surrender (10.4.2) or an offer (9.7.6).
    Refuse,
    /// Offers an exchange or a ransom of prisoners (9.7.6).
    Offer {
        /// The offer.
        offer: Offer,
    },
    /// Accepts the offer made (9.7.6).
    Accept,
    /// Puts a prisoner to death (9.7.6 F).
    Kill {
        /// The prisoner.
        leader: usize,
    },
    /// Writes that a leader's force takes a prisoner held in its city along under guard
    /// (9.7.6 C).
    Escort {
        /// The guarding leader.
        leader: usize,
        /// The prisoner.
        prisoner: usize,
    },
    /// Chooses where an arriving reinforcement enters the map (16.4).
    Arrive {
        /// The reinforcement (index into the scenario's).
        reinforcement: usize,
        /// Where it enters.
        place: Place,
    },
}

impl Action {
    /// The notation.
    pub fn text(&self, state: &State) -> String {
        let s = &state.scenario;
        let lid = |i: usize| s.leaders[i].id.clone();
        let places = |p: &[Place]| p.iter().map(Place::to_string).collect::<Vec<_>>().join(" ");
        match self {
            Action::Order { leader, order } => {
                let id = lid(*leader);
                match order {
                    Order::Move { path, leave } => {
                        let mut t = format!("{id} move {}", places(path));
                        if *leave > 0 {
                            t.push_str(&format!(" leave {leave}"));
                        }
                        t
                    }
                    Order::With { leader } => format!("{id} with {}", lid(*leader)),
                    Order::Defend => format!("{id} defend"),
                    Order::FullSiege => format!("{id} full-siege"),
                    Order::PartialSiege => format!("{id} partial-siege"),
                    Order::Sally => format!("{id} sally"),
                    Order::NoOrder => format!("{id} no-order"),
                }
            }
            Action::Fleet { fleet, order } => {
                let id = &s.fleets[*fleet].id;
                let hexes = |p: &[hexgrid::HexId]| {
                    p.iter()
                        .map(|h| h.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                match order {
                    FleetOrder::Move { path } => format!("{id} move {}", hexes(path)),
                    FleetOrder::Transport { cargo, path } => format!(
                        "{id} transport {} {}",
                        cargo.iter().map(|&l| lid(l)).collect::<Vec<_>>().join("+"),
                        hexes(path)
                    ),
                    FleetOrder::Blockade => format!("{id} blockade"),
                    FleetOrder::NoOrder => format!("{id} no-order"),
                }
            }
            Action::Cancel { fleet, index } => format!(
                "cancel {}",
                if *fleet {
                    s.fleets[*index].id.clone()
                } else {
                    lid(*index)
                }
            ),
            Action::Commit => "commit".into(),
            Action::Assassinate { leader } => format!("assassinate {}", lid(*leader)),
            Action::Pass => "pass".into(),
            Action::Command { leader } => format!("{} command", lid(*leader)),
            Action::Take { leader, asps } => format!("{} take {asps}", lid(*leader)),
            Action::Losses { leader } => format!("losses {}", lid(*leader)),
            Action::Terms { site, terms } => {
                format!("terms {} {}", s.map.sites[*site].hex, terms.name())
            }
            Action::Surrender => "surrender".into(),
            Action::Refuse => "refuse".into(),
            Action::Offer { offer } => crate::captives::offer_text(state, offer),
            Action::Accept => "accept".into(),
            Action::Kill { leader } => format!("kill {}", lid(*leader)),
            Action::Escort { leader, prisoner } => {
                format!("{} escort {}", lid(*leader), lid(*prisoner))
            }
            Action::Arrive {
                reinforcement,
                place,
            } => format!(
                "arrive {} {place}",
                s.reinforcements[*reinforcement]
                    .leaders
                    .first()
                    .map_or_else(String::new, |&l| lid(l))
            ),
        }
    }

    /// Reads the notation, naming what is wrong.
    pub fn parse(state: &State, text: &str) -> Result<Action, String> {
        let s = &state.scenario;
        let words: Vec<&str> = text.split_whitespace().collect();
        let leader = |w: &str| {
            s.leader(w)
                .ok_or_else(|| format!("`{w}` is not a leader of the scenario"))
        };
        let places = |ws: &[&str]| {
            let steps = ws
                .iter()
                .map(|w| Place::parse(w))
                .collect::<Result<Vec<_>, _>>()?;
            Path::new(&steps).ok_or_else(|| Path::<Place>::refusal(steps.len()))
        };
        let hexes = |ws: &[&str]| {
            let steps = ws
                .iter()
                .map(|w| {
                    w.parse::<hexgrid::HexId>()
                        .map_err(|_| format!("`{w}` is not a hex id like 1619"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Path::new(&steps).ok_or_else(|| Path::<hexgrid::HexId>::refusal(steps.len()))
        };
        match words.as_slice() {
            [] => Err("empty action".into()),
            ["commit"] => Ok(Action::Commit),
            ["pass"] => Ok(Action::Pass),
            ["surrender"] => Ok(Action::Surrender),
            ["refuse"] => Ok(Action::Refuse),
            ["accept"] => Ok(Action::Accept),
            ["losses", id] => Ok(Action::Losses {
                leader: leader(id)?,
            }),
            ["kill", id] => Ok(Action::Kill {
                leader: leader(id)?,
            }),
            ["terms", at, how] => {
                let hex: hexgrid::HexId = at
                    .parse()
                    .map_err(|_| format!("`{at}` is not a hex id like 1619"))?;
                let site = s
                    .map
                    .site_at(hex)
                    .ok_or_else(|| format!("there is no city or castle in {hex}"))?;
                let terms = Terms::parse(how).ok_or_else(|| {
                    format!("`{how}`: the terms are march-out or captivity (10.4.2)")
                })?;
                Ok(Action::Terms { site, terms })
            }
            ["offer", "exchange", give, "for", get] => Ok(Action::Offer {
                offer: Offer::Exchange {
                    give: leader(give)?,
                    get: leader(get)?,
                },
            }),
            ["offer", "ransom", get, "for", at] => {
                let hex: hexgrid::HexId = at
                    .parse()
                    .map_err(|_| format!("`{at}` is not a hex id like 1523"))?;
                let site = s
                    .map
                    .site_at(hex)
                    .ok_or_else(|| format!("there is no city or castle in {hex}"))?;
                Ok(Action::Offer {
                    offer: Offer::Ransom {
                        get: leader(get)?,
                        site,
                    },
                })
            }
            ["kill", ..] => Err(format!(
                "`{text}`: a prisoner is put to death with `kill PRISONER` (9.7.6 F)"
            )),
            ["losses", ..] => Err(format!(
                "`{text}`: the loss order names one leader at a time: `losses LEADER` (6.4.5 B)"
            )),
            ["offer", ..] => Err(format!("`{text}`: an offer is `offer exchange PRISONER for LEADER` or `offer ransom LEADER for CITY-HEX` (9.7.6)")),
            ["terms", ..] => Err(format!("`{text}`: terms are `terms CITY-HEX march-out` or `terms CITY-HEX captivity` (10.4.2)")),
            ["assassinate", id] => Ok(Action::Assassinate {
                leader: leader(id)?,
            }),
            ["arrive", id, at] => {
                let l = leader(id)?;
                let reinforcement = s
                    .reinforcements
                    .iter()
                    .position(|r| r.leaders.first() == Some(&l))
                    .ok_or_else(|| format!("`{id}` does not lead a group of reinforcements"))?;
                Ok(Action::Arrive {
                    reinforcement,
                    place: Place::parse(at)?,
                })
            }
            ["cancel", id] => match (s.leader(id), s.fleet(id)) {
                (Some(i), _) => Ok(Action::Cancel {
                    fleet: false,
                    index: i,
                }),
                (None, Some(f)) => Ok(Action::Cancel {
                    fleet: true,
                    index: f,
                }),
                _ => Err(format!("`{id}` is neither a leader nor a fleet")),
            },
            [id, rest @ ..] => {
                if let Some(f) = s.fleet(id) {
                    let order = match rest {
                        ["move", path @ ..] if !path.is_empty() => FleetOrder::Move { path: hexes(path)? },
                        ["transport", cargo, path @ ..] if !path.is_empty() => FleetOrder::Transport {
                            cargo: cargo.split('+').map(leader).collect::<Result<Vec<_>, _>>()?,
                            path: hexes(path)?,
                        },
                        ["blockade"] => FleetOrder::Blockade,
                        ["no-order"] => FleetOrder::NoOrder,
                        ["escort", ..] => return Err(format!("`{text}`: a fleet cannot guard a prisoner; the guard is a force of at least 1 SP and one leader: `LEADER escort PRISONER` (9.7.6 C)")),
                        _ => return Err(format!("`{text}`: a fleet order is move HEX..., transport LEADER+LEADER HEX..., blockade or no-order")),
                    };
                    return Ok(Action::Fleet { fleet: f, order });
                }
                let l = leader(id)?;
                match rest {
                    ["command"] => return Ok(Action::Command { leader: l }),
                    ["escort", prisoner] => {
                        return Ok(Action::Escort {
                            leader: l,
                            prisoner: leader(prisoner)?,
                        })
                    }
                    ["escort", ..] => {
                        return Err(format!(
                            "`{text}`: a prisoner is moved under guard with `LEADER escort PRISONER` (9.7.6 C)"
                        ))
                    }
                    ["take", n] => {
                        return Ok(Action::Take {
                            leader: l,
                            asps: n
                                .parse()
                                .map_err(|_| format!("`{n}` is not a number of ASPs"))?,
                        })
                    }
                    _ => {}
                }
                let order = match rest {
                    ["move", path @ .., "leave", n] if !path.is_empty() => Order::Move {
                        path: places(path)?,
                        leave: n.parse().map_err(|_| format!("`{n}` is not a number of ASPs"))?,
                    },
                    ["move", path @ ..] if !path.is_empty() => Order::Move { path: places(path)?, leave: 0 },
                    ["with", other] => Order::With { leader: leader(other)? },
                    ["defend"] => Order::Defend,
                    ["full-siege"] => Order::FullSiege,
                    ["partial-siege"] => Order::PartialSiege,
                    ["sally"] => Order::Sally,
                    ["no-order"] => Order::NoOrder,
                    _ => return Err(format!("`{text}`: a leader's order is move PLACE..., with LEADER, defend, full-siege, partial-siege, sally, no-order, command, take N or escort PRISONER")),
                };
                Ok(Action::Order { leader: l, order })
            }
        }
    }
}

/// `Ok` when the rule allows the action, otherwise the reason it is refused.
fn allow(allowed: bool, why: &str) -> Result<(), String> {
    if allowed {
        Ok(())
    } else {
        Err(why.into())
    }
}

/// What a side's order book already says of each leader, and where the side's leaders
/// stand, found in one pass over the book and one over the leaders: what listing the orders
/// asks of each leader.
struct Written {
    /// By leader index: bits [`Written::ORDERED`] and the others.
    marks: Vec<u8>,
    /// The leaders another may be written `with` ([`State::joinable`]).
    joinable: Vec<(usize, Place)>,
    /// The side's leaders on the map, each packed as `place << 32 | rank << 24 | leader`
    /// (a leader index is far below 2^24), in order.
    present: Vec<u64>,
}

impl Written {
    /// Given a written order (5.0).
    const ORDERED: u8 = 1;
    /// Named in a transport order ([`crate::orders::OrderBook::carrier`], 12.5.3).
    const CARRIED: u8 = 2;
    /// Named in the loss order (6.4.5 B).
    const NAMED: u8 = 4;
    /// Designated commander (8.0 H).
    const COMMANDED: u8 = 8;
    /// Written to take up leaderless ASPs (6.1.2).
    const TAKES: u8 = 16;
    /// Written to guard a prisoner (9.7.6 C).
    const GUARDS: u8 = 32;
    /// Not the book's: one of the side's leaders, active on the map and awake (may be given
    /// orders, 15.0 B, E).
    const AWAKE: u8 = 64;

    /// Whether `leader` has any of `bits`.
    fn has(&self, leader: usize, bits: u8) -> bool {
        self.marks.get(leader).is_some_and(|m| m & bits != 0)
    }

    /// Whether `leader` is [`Written::AWAKE`] and has none of `bits`.
    fn awake_without(&self, leader: usize, bits: u8) -> bool {
        self.marks
            .get(leader)
            .is_some_and(|m| m & (Written::AWAKE | bits) == Written::AWAKE)
    }
}

impl State {
    /// The seats that must decide now.
    pub fn pending_seats(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Orders => (0..2u8)
                .map(Seat)
                .filter(|s| !self.orders[s.index()].committed)
                .collect(),
            Phase::Assassination(side)
            | Phase::Arrival(side)
            | Phase::SurrenderTerms(side)
            | Phase::SurrenderAnswer(side)
            | Phase::Parley(side)
            | Phase::OfferAnswer(side) => side.seat().into_iter().collect(),
            Phase::Over => Vec::new(),
        }
    }

    /// What the order book of `side` already says of each leader ([`Written`]).
    fn written(&self, side: Side) -> Written {
        let book = self.book(side);
        let mut marks = vec![0u8; self.leaders.len()];
        fn mark(marks: &mut [u8], l: usize, bit: u8) {
            if let Some(m) = marks.get_mut(l) {
                *m |= bit;
            }
        }
        for o in book.fleets.values() {
            if let FleetOrder::Transport { cargo, .. } = o {
                for &l in cargo {
                    mark(&mut marks, l, Written::CARRIED);
                }
            }
        }
        // 8.0 F: the leaders another may be written `with`: given an order other than
        // `with`, not carried by a fleet, in order.
        let mut joinable = Vec::with_capacity(book.leaders.len());
        for (&l, order) in &book.leaders {
            mark(&mut marks, l, Written::ORDERED);
            if matches!(order, Order::With { .. }) {
                continue;
            }
            if let (false, Some(place)) = (
                marks.get(l).is_some_and(|m| m & Written::CARRIED != 0),
                self.leaders[l].place,
            ) {
                joinable.push((l, place));
            }
        }
        for &l in &book.losses {
            mark(&mut marks, l, Written::NAMED);
        }
        for &l in &book.command {
            mark(&mut marks, l, Written::COMMANDED);
        }
        for &l in book.take.keys() {
            mark(&mut marks, l, Written::TAKES);
        }
        for &l in book.escort.values() {
            mark(&mut marks, l, Written::GUARDS);
        }
        let mine = self.scenario.leaders_of(side);
        let mut present = Vec::with_capacity(mine.len());
        for &l in mine {
            let leader = &self.leaders[l];
            if leader.status != Status::Active {
                continue;
            }
            // 15.0 B, E: awake.
            if neutrals::may_order(self, l) {
                mark(&mut marks, l, Written::AWAKE);
            }
            let Some(p) = leader.place else {
                continue;
            };
            let place = u64::from(p.hex.col) << 9 | u64::from(p.hex.row) << 1;
            let rank = self.scenario.leaders[l].rank as u64;
            present.push((place | u64::from(p.inside)) << 32 | rank << 24 | l as u64);
        }
        Written {
            marks,
            joinable,
            present,
        }
    }

    /// Leaders of `side` who may be given an order now and have none.
    pub(crate) fn orderable(&self, side: Side) -> Vec<usize> {
        self.orderable_in(side, &self.written(side))
    }

    /// [`State::orderable`], given [`State::written`] for `side`.
    fn orderable_in(&self, side: Side, written: &Written) -> Vec<usize> {
        let mine = self.scenario.leaders_of(side);
        let mut out = Vec::with_capacity(mine.len());
        out.extend(
            mine.iter()
                .copied()
                .filter(|&l| written.awake_without(l, Written::ORDERED | Written::CARRIED)),
        );
        out
    }

    /// Whether `leader` is one of [`State::orderable`] of `side`.
    fn may_be_ordered(&self, side: Side, leader: usize) -> bool {
        let book = self.book(side);
        self.leaders[leader].status == Status::Active
            && self.side_of(leader) == side
            && neutrals::may_order(self, leader)
            && !book.leaders.contains_key(&leader)
            && book.carrier(leader).is_none()
    }

    /// The Crusades 5.0-5.8, 7.2.2 B, 9.6 E, 10.3.2-10.3.3: the orders `leader` may be given,
    /// other than moves.
    fn fixed_orders(&self, side: Side, leader: usize) -> Vec<Order> {
        let mut out = Vec::new();
        let written = self.written(side);
        self.each_fixed_order(side, leader, &written.joinable, |o| out.push(o));
        out
    }

    /// [`State::fixed_orders`], handed one by one to `found`; `joinable` lists the leaders of
    /// `side` another may be written `with` ([`Written::joinable`], 8.0 F).
    fn each_fixed_order(
        &self,
        side: Side,
        leader: usize,
        joinable: &[(usize, Place)],
        mut found: impl FnMut(Order),
    ) {
        let l = &self.leaders[leader];
        let Some(place) = l.place else {
            return;
        };
        let map = &self.scenario.map;
        let site = map.site_at(place.hex);
        let enemy_city = site.is_some_and(|s| self.occupier(s).is_some_and(|o| o.enemy_of(side)));
        let may_siege = !place.inside && enemy_city && !l.disrupted;
        if l.must_besiege.is_some() {
            if may_siege {
                found(Order::FullSiege);
                found(Order::PartialSiege);
            } else {
                found(Order::NoOrder);
            }
            return;
        }
        // 10.3.3: no staying in the hex of an enemy-held city without a siege order; 9.6
        // clarification: a disrupted force may not stay where a siege goes on.
        let must_leave = !place.inside && enemy_city;
        if !must_leave {
            found(Order::NoOrder);
            // His own ASPs count among those of his place.
            if !place.inside && (l.asps >= 5 || self.asps_at(side, place) >= 5) {
                found(Order::Defend);
            }
        }
        if may_siege {
            found(Order::FullSiege);
            found(Order::PartialSiege);
        }
        if place.inside && !l.disrupted && site.is_some_and(|s| self.under_siege(s)) {
            found(Order::Sally);
        }
        for &(other, at) in joinable {
            if other != leader && at == place {
                found(Order::With { leader: other });
            }
        }
    }

    /// The Crusades 8.0 G-H: leaders of `side` who may be designated commander now: active,
    /// not yet designated, in a place where another leader of the side has his rank and none
    /// outranks him (otherwise rank alone decides, 8.0 G).
    fn designable(&self, side: Side) -> Vec<usize> {
        self.designable_in(&self.written(side))
    }

    /// [`State::designable`], given [`State::written`] for `side`.
    fn designable_in(&self, written: &Written) -> Vec<usize> {
        // The side's leaders on the map by place, then rank, highest first.
        let mut here = written.present.clone();
        here.sort_unstable();
        // A leader is outranked by none of the others of his place and shares his rank with
        // one of them exactly when his rank is the place's highest (the least) and at least
        // two leaders there have it.
        let mut out = Vec::new();
        for place in here.chunk_by(|a, b| a >> 32 == b >> 32) {
            let rank = |x: &u64| x >> 24 & 0xff;
            let highest = place
                .iter()
                .take_while(|x| rank(x) == rank(&place[0]))
                .count();
            if highest >= 2 {
                out.extend(
                    place[..highest]
                        .iter()
                        .map(|x| (x & 0xff_ffff) as usize)
                        .filter(|&l| written.awake_without(l, Written::COMMANDED)),
                );
            }
        }
        // In the order of `mine`: by index.
        out.sort_unstable();
        out
    }

    /// The Crusades 6.1.2, 8.0 I: the leaderless ASPs a Saracen leader may still take up in
    /// his place this turn (0 for others): those there less what other written `take` lines
    /// of the place already claim.
    fn takeable(&self, side: Side, leader: usize) -> u16 {
        if side != Side::Saracens {
            return 0;
        }
        let Some(place) = self.leaders[leader].place else {
            return 0;
        };
        let book = self.book(side);
        if self.leaders[leader].status != Status::Active
            || self.side_of(leader) != side
            || !neutrals::may_order(self, leader)
            || book.take.contains_key(&leader)
        {
            return 0;
        }
        let claimed: u16 = book
            .take
            .iter()
            .filter(|(l, _)| self.leaders[**l].place == Some(place))
            .map(|(_, n)| *n)
            .sum();
        self.garrison_at(side, place).saturating_sub(claimed)
    }

    /// The Crusades 6.4.5 B, 9.5 D: leaders of `side` who may be named next in its loss
    /// order: active, awake, not yet named; `written` is [`State::written`] for `side`.
    fn loss_nameable(&self, side: Side, written: &Written) -> Vec<usize> {
        let mine = self.scenario.leaders_of(side);
        let mut out = Vec::with_capacity(mine.len());
        out.extend(
            mine.iter()
                .copied()
                .filter(|&l| written.awake_without(l, Written::NAMED)),
        );
        out
    }

    /// Whether a move to `dest` may be written for `leader` (9.6 E: a disrupted force may not
    /// voluntarily enter an enemy-occupied hex).
    fn destination_ok(&self, side: Side, leader: usize, dest: Place) -> bool {
        if self.leaders[leader].disrupted
            && self
                .sides_present(Place::outside(dest.hex))
                .any_enemy_of(side)
        {
            return false;
        }
        Some(dest) != self.leaders[leader].place
    }

    /// The hexes where an enemy of `side` has a force outside the city (9.6 E: a disrupted
    /// force may not move there, [`State::destination_ok`]), sorted.
    fn enemy_hexes(&self, side: Side) -> Vec<hexgrid::HexId> {
        let mut out: Vec<hexgrid::HexId> = self
            .leaders
            .iter()
            .enumerate()
            .filter(|&(i, l)| l.status == Status::Active && self.side_of(i).enemy_of(side))
            .filter_map(|(_, l)| l.place.filter(|p| !p.inside).map(|p| p.hex))
            .chain(
                self.garrisons
                    .iter()
                    .filter(|g| g.asps > 0 && !g.place.inside && g.side.enemy_of(side))
                    .map(|g| g.place.hex),
            )
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Every legal action of `seat`.
    pub fn legal(&self, seat: Seat) -> Vec<Action> {
        if !self.pending_seats().contains(&seat) {
            return Vec::new();
        }
        let Some(side) = Side::of_seat(seat) else {
            return Vec::new();
        };
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Assassination(_) => {
                let mut out: Vec<Action> = crate::events::targets(self, side)
                    .into_iter()
                    .map(|leader| Action::Assassinate { leader })
                    .collect();
                out.push(Action::Pass);
                out
            }
            Phase::Arrival(_) => match self.arrivals.first() {
                Some(&r) => self
                    .entry_hexes(r)
                    .into_iter()
                    .map(|place| Action::Arrive {
                        reinforcement: r,
                        place,
                    })
                    .collect(),
                None => Vec::new(),
            },
            Phase::SurrenderTerms(_) => {
                let Some(t) = self.surrender else {
                    return Vec::new();
                };
                crate::siege::terms_allowed(self)
                    .into_iter()
                    .map(|terms| Action::Terms {
                        site: t.site,
                        terms,
                    })
                    .collect()
            }
            Phase::SurrenderAnswer(_) => vec![Action::Surrender, Action::Refuse],
            Phase::OfferAnswer(_) => vec![Action::Accept, Action::Refuse],
            Phase::Parley(_) => {
                let mut out: Vec<Action> = crate::captives::offers(self, side)
                    .into_iter()
                    .map(|offer| Action::Offer { offer })
                    .collect();
                out.extend(
                    crate::captives::prisoners_of(self, side)
                        .into_iter()
                        .map(|leader| Action::Kill { leader }),
                );
                out.push(Action::Pass);
                out
            }
            Phase::Orders => {
                let book = self.book(side);
                let allowance = movement::allowance(self, side);
                let written = self.written(side);
                let orderable = self.orderable_in(side, &written);
                // Every route searched first, to size the list once; borrowed from the
                // remembered routes ([`movement::routes_from`]).
                let moves: Vec<Option<_>> = orderable
                    .iter()
                    .map(|&l| {
                        let l = &self.leaders[l];
                        if l.must_besiege.is_some() {
                            return None;
                        }
                        let place = l.place.expect("active");
                        Some(movement::routes_from(self, place, allowance))
                    })
                    .collect();
                let orderable_fleets = self.orderable_fleets(side);
                let mut fleets: Vec<(usize, std::borrow::Cow<'_, crate::map::SeaReach>)> =
                    Vec::with_capacity(orderable_fleets.len());
                fleets.extend(
                    orderable_fleets
                        .into_iter()
                        .filter_map(|f| Some((f, naval::reach_from(self, self.fleets[f].hex?)))),
                );
                let mut out = Vec::with_capacity(
                    16 + 8 * orderable.len()
                        + moves.iter().flatten().map(|r| r.len()).sum::<usize>()
                        + fleets
                            .iter()
                            .map(|(_, r)| 2 + 2 * r.landfalls.len())
                            .sum::<usize>()
                        + 4 * self.leaders.len(),
                );
                let mut enemy_hexes: Option<Vec<hexgrid::HexId>> = None;
                for (&l, reached) in orderable.iter().zip(&moves) {
                    self.each_fixed_order(side, l, &written.joinable, |order| {
                        out.push(Action::Order { leader: l, order })
                    });
                    let Some(reached) = reached else {
                        continue;
                    };
                    // Every place reached is another than his own: only a disrupted leader
                    // has destinations to refuse ([`State::destination_ok`], 9.6 E).
                    let refused = if self.leaders[l].disrupted {
                        enemy_hexes.get_or_insert_with(|| self.enemy_hexes(side))
                    } else {
                        &[][..]
                    };
                    let order = |path: &crate::orders::Path<Place>| Action::Order {
                        leader: l,
                        order: Order::Move {
                            path: *path,
                            leave: 0,
                        },
                    };
                    if refused.is_empty() {
                        out.extend(reached.iter().map(|(_, path)| order(path)));
                    } else {
                        out.extend(
                            reached
                                .iter()
                                .filter(|(dest, _)| refused.binary_search(&dest.hex).is_err())
                                .map(|(_, path)| order(path)),
                        );
                    }
                }
                if !fleets.is_empty() {
                    let ports = self.friendly_ports(side);
                    let any_port = ports.contains(&true);
                    // Which fleets carry leaders ([`naval::carrying`]), found in one pass.
                    let mut carrying = vec![false; self.fleets.len()];
                    for l in &self.leaders {
                        if let Status::Aboard(f) = l.status {
                            if let Some(c) = carrying.get_mut(f) {
                                *c = true;
                            }
                        }
                    }
                    for (f, reach) in &fleets {
                        self.fleet_orders(
                            side,
                            *f,
                            carrying[*f],
                            reach,
                            &orderable,
                            &ports,
                            any_port,
                            &mut out,
                        );
                    }
                }
                out.extend(
                    self.designable_in(&written)
                        .into_iter()
                        .map(|leader| Action::Command { leader }),
                );
                // Nobody else has any to take, nor anyone without leaderless ASPs of his side.
                let takers = if side == Side::Saracens
                    && self.garrisons.iter().any(|g| g.side == side && g.asps > 0)
                {
                    self.scenario.leaders_of(side)
                } else {
                    &[]
                };
                // Only an awake leader on the map not yet written to take any
                // ([`State::takeable`]).
                for &l in takers {
                    if !written.awake_without(l, Written::TAKES) {
                        continue;
                    }
                    let asps = self.takeable(side, l);
                    if asps > 0 {
                        out.push(Action::Take { leader: l, asps });
                    }
                }
                out.extend(
                    self.loss_nameable(side, &written)
                        .into_iter()
                        .map(|leader| Action::Losses { leader }),
                );
                out.extend(
                    crate::captives::escorts(self, side)
                        .into_iter()
                        .map(|(leader, prisoner)| Action::Escort { leader, prisoner }),
                );
                // Every leader some line of the book names, by index.
                let any = Written::ORDERED
                    | Written::COMMANDED
                    | Written::TAKES
                    | Written::NAMED
                    | Written::GUARDS;
                for l in (0..self.leaders.len()).filter(|&l| written.has(l, any)) {
                    out.push(Action::Cancel {
                        fleet: false,
                        index: l,
                    });
                }
                for &f in book.fleets.keys() {
                    out.push(Action::Cancel {
                        fleet: true,
                        index: f,
                    });
                }
                out.push(Action::Commit);
                out
            }
        }
    }

    pub(crate) fn orderable_fleets(&self, side: Side) -> Vec<usize> {
        let mut ordered = vec![false; self.fleets.len()];
        for &f in self.book(side).fleets.keys() {
            if let Some(o) = ordered.get_mut(f) {
                *o = true;
            }
        }
        let mine = self.scenario.fleets_of(side);
        let mut out = Vec::with_capacity(mine.len());
        out.extend(
            mine.iter()
                .copied()
                .filter(|&f| self.fleets[f].status == FleetStatus::Active && !ordered[f]),
        );
        out
    }

    /// Whether fleet `f` is one of [`State::orderable_fleets`] of `side`.
    fn fleet_may_be_ordered(&self, side: Side, f: usize) -> bool {
        self.scenario.fleets[f].side == side
            && self.fleets[f].status == FleetStatus::Active
            && !self.book(side).fleets.contains_key(&f)
    }

    /// The cargo a transport order from `hex` would carry: the seat's unordered leaders there
    /// (inside or outside), in order, while they fit (12.5.1-12.5.2).
    /// `orderable` is [`State::orderable`] for `side`.
    fn greedy_cargo(
        &self,
        side: Side,
        fleet: usize,
        hex: hexgrid::HexId,
        orderable: &[usize],
    ) -> Vec<usize> {
        let cap = naval::capacity(self.fleets[fleet].strength);
        let book = self.book(side);
        let mut load = 0;
        let mut out = Vec::new();
        for &l in orderable {
            let p = self.leaders[l].place.expect("active");
            if p.hex != hex || book.carrier(l).is_some() || self.leaders[l].must_besiege.is_some() {
                continue;
            }
            if load + self.leaders[l].asps <= cap {
                load += self.leaders[l].asps;
                out.push(l);
            }
        }
        out
    }

    /// Whether each city or castle is a friendly port of `side` ([`naval::friendly_port`]),
    /// by site.
    fn friendly_ports(&self, side: Side) -> Vec<bool> {
        let map = &self.scenario.map;
        let mut out = vec![false; map.sites.len()];
        // The neutral ports (no side in control), by hex.
        let mut neutral: Vec<(hexgrid::HexId, usize)> = Vec::new();
        for &site in map.ports() {
            out[site] = match self.sites[site].control {
                Some(c) => c == side,
                None => {
                    neutral.push((map.sites[site].hex, site));
                    true
                }
            };
        }
        // A neutral port is friendly while no force (a leader or leaderless ASPs) is inside
        // it.
        if !neutral.is_empty() {
            let mut occupied = |place: Place| {
                for &(hex, site) in &neutral {
                    if place.inside && place.hex == hex {
                        out[site] = false;
                    }
                }
            };
            for l in &self.leaders {
                if let (Some(place), Status::Active) = (l.place, l.status) {
                    occupied(place);
                }
            }
            for g in self.garrisons.iter().filter(|g| g.asps > 0) {
                occupied(g.place);
            }
        }
        out
    }

    /// The Crusades 5.2, 5.5, 12.2.3, 12.3, 12.5: the orders fleet `f` may be given, added
    /// to `out`, given whether it carries leaders, the hexes it reaches, [`State::orderable`] and
    /// [`State::friendly_ports`] for `side` (and whether it holds any). Only a hex with land
    /// can be a port or a landing ([`naval::may_land`]), so only the landfalls of `reach` are
    /// looked at.
    #[allow(clippy::too_many_arguments)]
    fn fleet_orders(
        &self,
        side: Side,
        f: usize,
        carrying: bool,
        reach: &crate::map::SeaReach,
        orderable: &[usize],
        ports: &[bool],
        any_port: bool,
        out: &mut Vec<Action>,
    ) {
        let Some(hex) = self.fleets[f].hex else {
            return;
        };
        let map = &self.scenario.map;
        let order = |order| Action::Fleet { fleet: f, order };
        out.push(order(FleetOrder::NoOrder));
        if map.is_coastal(hex) {
            out.push(order(FleetOrder::Blockade));
        }
        let cargo = if map.site_at(hex).is_some_and(|s| ports[s]) {
            self.greedy_cargo(side, f, hex, orderable)
        } else {
            Vec::new()
        };
        if !carrying && cargo.is_empty() && !any_port {
            return;
        }
        // naval::may_land in a hex with land.
        let winter = self.turn_info().winter;
        for &(i, site) in reach.landfalls.iter() {
            let path = &reach.routes[i].1;
            let lands = !winter || site.is_some_and(|s| map.sites[s].sheltered);
            if site.is_some_and(|s| ports[s]) || (carrying && lands) {
                out.push(order(FleetOrder::Move { path: *path }));
            }
            if !cargo.is_empty() && lands {
                out.push(order(FleetOrder::Transport {
                    cargo: cargo.clone(),
                    path: *path,
                }));
            }
        }
    }

    /// Checks an action against the rules, naming the reason it is refused.
    fn check(&self, seat: Seat, action: &Action) -> Result<(), String> {
        if !self.pending_seats().contains(&seat) {
            return Err("it is not this seat's decision now".into());
        }
        let side = Side::of_seat(seat).ok_or("no such seat")?;
        match (self.phase, action) {
            (Phase::Assassination(_) | Phase::Parley(_), Action::Pass) => Ok(()),
            (Phase::SurrenderTerms(_), Action::Terms { site, terms }) => {
                if self.surrender.map(|t| t.site) != Some(*site) {
                    return Err(
                        "that city is not the one whose surrender is asked now (10.4.2)".into(),
                    );
                }
                allow(crate::siege::terms_allowed(self).contains(terms), "the defenders have no city or castle of their side to march out to; only captivity may be asked (10.4.2)")
            }
            (Phase::SurrenderAnswer(_), Action::Surrender | Action::Refuse) => Ok(()),
            (Phase::OfferAnswer(_), Action::Accept | Action::Refuse) => Ok(()),
            (Phase::Parley(_), Action::Offer { offer }) => {
                allow(crate::captives::offer_ok(self, side, offer), "an exchange gives a prisoner this side holds for one of its leaders the other side holds; a ransom turns over a city or castle this side controls, empty of its forces and not besieged; the leader must have somewhere to return to (9.7.6)")
            }
            (Phase::Parley(_), Action::Kill { leader }) => {
                allow(crate::captives::prisoners_of(self, side).contains(leader), "only a prisoner this side holds may be put to death (9.7.6 F)")
            }
            (Phase::Orders, Action::Losses { leader }) => {
                // [`State::loss_nameable`] for one leader.
                let nameable = *leader < self.leaders.len()
                    && self.side_of(*leader) == side
                    && self.leaders[*leader].status == Status::Active
                    && neutrals::may_order(self, *leader)
                    && !self.book(side).losses.contains(leader);
                allow(nameable, "the loss order names each active leader of this side once (6.4.5 B, 9.5 D)")
            }
            (Phase::Assassination(_), Action::Assassinate { leader }) => {
                allow(crate::events::targets(self, side).contains(leader), "only an enemy leader on the map may be the target (14.2)")
            }
            (
                Phase::Arrival(_),
                Action::Arrive {
                    reinforcement,
                    place,
                },
            ) => {
                if self.arrivals.first() != Some(reinforcement) {
                    return Err("that group of reinforcements is not the one entering now".into());
                }
                allow(self.entry_hexes(*reinforcement).contains(place), "it enters at its printed place, or one of the hexes 16.4.1-16.4.2 allow it")
            }
            (Phase::Orders, Action::Command { leader }) => {
                allow(self.designable(side).contains(leader), "only a leader of the highest rank in his place, with another of that rank beside him, is designated commander, once (8.0 G-H)")
            }
            (Phase::Orders, Action::Take { leader, asps }) => {
                if *leader >= self.leaders.len() {
                    return Err("no such leader".into());
                }
                let most = self.takeable(side, *leader);
                if *asps >= 1 && *asps <= most {
                    Ok(())
                } else {
                    Err(format!("a Saracen leader takes up 1 to {most} leaderless ASPs of his place, once a turn (6.1.2, 8.0 I)"))
                }
            }
            (Phase::Orders, Action::Commit) => Ok(()),
            (Phase::Orders, Action::Escort { leader, prisoner }) => {
                crate::captives::escort_ok(self, side, *leader, *prisoner)
            }
            (Phase::Orders, Action::Cancel { fleet, index }) => {
                let book = self.book(side);
                let has = if *fleet {
                    book.fleets.contains_key(index)
                } else {
                    book.leaders.contains_key(index)
                        || book.command.contains(index)
                        || book.take.contains_key(index)
                        || book.losses.contains(index)
                        || book.escort.values().any(|g| g == index)
                };
                allow(has, "there is no written order to cancel")
            }
            (Phase::Orders, Action::Order { leader, order }) => {
                if *leader >= self.leaders.len() || !self.may_be_ordered(side, *leader) {
                    return Err("that leader cannot be given an order now (his own side's, on the map, awake, unordered: 5.0, 15.0)".into());
                }
                match order {
                    Order::Move { path, leave } => {
                        if self.leaders[*leader].must_besiege.is_some() {
                            return Err("he moved through the city's zone to besiege it and must besiege it this turn (7.2.2 B)".into());
                        }
                        let start = self.leaders[*leader].place.expect("active");
                        let cost = movement::path_cost(self, start, path)?;
                        let ma = movement::allowance(self, side);
                        if cost > ma {
                            return Err(format!(
                                "the path costs {cost} MPs; the allowance is {ma} (6.1.1, 13.1)"
                            ));
                        }
                        if *leave > 0
                            && (side != Side::Saracens || *leave > self.leaders[*leader].asps)
                        {
                            return Err("only a Saracen leader leaves ASPs behind, at most those with him (6.1.2 B)".into());
                        }
                        let dest = *path.last().ok_or("a move needs a path")?;
                        if !self.destination_ok(side, *leader, dest) {
                            return Err(
                                "a disrupted force may not enter an enemy-occupied hex (9.6 E)"
                                    .into(),
                            );
                        }
                        Ok(())
                    }
                    o => {
                        allow(self.fixed_orders(side, *leader).contains(o), "that order is not allowed for him now (5.4: 5 ASPs to defend; 10.3.2: besiege only from the hex outside an enemy city; 9.6 E: not while disrupted; 10.3.3: no staying beside an enemy city without a siege order)")
                    }
                }
            }
            (Phase::Orders, Action::Fleet { fleet, order }) => {
                if *fleet >= self.fleets.len() || !self.fleet_may_be_ordered(side, *fleet) {
                    return Err("that fleet cannot be given an order now".into());
                }
                let hex = self.fleets[*fleet]
                    .hex
                    .ok_or("the fleet is not on the map")?;
                match order {
                    FleetOrder::NoOrder => Ok(()),
                    FleetOrder::Blockade if self.scenario.map.is_coastal(hex) => Ok(()),
                    FleetOrder::Blockade => {
                        Err("a fleet blockades a port or a coastal hex (12.3.1)".into())
                    }
                    FleetOrder::Move { path } => {
                        naval::check_path(self, hex, path)?;
                        let dest = *path.last().ok_or("a move needs a path")?;
                        let carrying = naval::carrying(self, *fleet);
                        if naval::friendly_port(self, side, dest)
                            || (carrying && naval::may_land(self, dest))
                        {
                            Ok(())
                        } else {
                            Err("a fleet must end in a friendly port unless it lands troops (12.2.3)".into())
                        }
                    }
                    FleetOrder::Transport { cargo, path } => {
                        naval::check_path(self, hex, path)?;
                        if !naval::friendly_port(self, side, hex) {
                            return Err("transport starts in a friendly port (12.5.3 A)".into());
                        }
                        let dest = *path.last().ok_or("a transport needs a path")?;
                        if !naval::may_land(self, dest) {
                            return Err("troops land only in a land hex, and in winter only at Acre, Famagusta, Alexandria, Damietta or Pelusium (12.5.5)".into());
                        }
                        let orderable = self.orderable(side);
                        let mut load = 0;
                        for (k, l) in cargo.iter().enumerate() {
                            if !orderable.contains(l)
                                || self.leaders[*l].place.map(|p| p.hex) != Some(hex)
                                || cargo[..k].contains(l)
                            {
                                return Err("the cargo must be unordered leaders of the side in the fleet's hex (12.5.3 A)".into());
                            }
                            load += self.leaders[*l].asps;
                        }
                        if cargo.is_empty() || load > naval::capacity(self.fleets[*fleet].strength)
                        {
                            return Err(format!(
                                "the fleet carries 1 to {} ASPs (12.5.1-12.5.2)",
                                naval::capacity(self.fleets[*fleet].strength)
                            ));
                        }
                        Ok(())
                    }
                }
            }
            _ => Err("that action does not belong to this step of the turn".into()),
        }
    }

    /// Logs a written order, for its own seat only: orders stay secret until every seat has
    /// committed (5.0).
    fn order_written(&self, case: &'static str, seat: Seat, action: &Action, log: &mut Log) {
        log.push_with(|| {
            Event::private(
                case,
                format!("order written: {}", action.text(self)),
                vec![seat],
            )
        });
    }

    /// Applies a legal action.
    pub fn play(
        &mut self,
        seat: Seat,
        action: &Action,
        log: &mut Log,
    ) -> Result<Applied, Rejection> {
        self.check(seat, action).map_err(Rejection::new)?;
        let side = Side::of_seat(seat).expect("checked");
        let slot = seat.index();
        let mut applied = Applied::default();
        match action {
            Action::Order { leader, order } => {
                self.orders[slot].leaders.insert(*leader, order.clone());
                self.order_written("The Crusades 5.0", seat, action, log);
            }
            Action::Fleet { fleet, order } => {
                self.orders[slot].fleets.insert(*fleet, order.clone());
                self.order_written("The Crusades 5.0", seat, action, log);
            }
            Action::Cancel { fleet, index } => {
                if *fleet {
                    self.orders[slot].fleets.remove(index);
                } else {
                    self.orders[slot].leaders.remove(index);
                    self.orders[slot].command.remove(index);
                    self.orders[slot].take.remove(index);
                    self.orders[slot].losses.retain(|l| l != index);
                    self.orders[slot].escort.retain(|_, g| g != index);
                    let followers: Vec<usize> = self.orders[slot]
                        .leaders
                        .iter()
                        .filter(|(_, o)| **o == Order::With { leader: *index })
                        .map(|(l, _)| *l)
                        .collect();
                    for l in followers {
                        self.orders[slot].leaders.remove(&l);
                    }
                }
            }
            Action::Commit => {
                self.orders[slot].committed = true;
                log.push_with(|| {
                    Event::public(
                        "The Crusades 5.0",
                        format!("the {} have written their orders", side.name()),
                    )
                });
                if self.orders.iter().all(|b| b.committed) {
                    applied.revealed = true;
                    self.orders_revealed(log);
                }
            }
            Action::Take { leader, asps } => {
                self.orders[slot].take.insert(*leader, *asps);
                self.order_written("The Crusades 6.1.2", seat, action, log);
            }
            Action::Command { leader } => {
                self.orders[slot].command.insert(*leader);
                self.order_written("The Crusades 8.0 H", seat, action, log);
            }
            Action::Escort { leader, prisoner } => {
                self.orders[slot].escort.insert(*prisoner, *leader);
                self.order_written("The Crusades 9.7.6 C", seat, action, log);
            }
            Action::Losses { leader } => {
                self.orders[slot].losses.push(*leader);
                self.order_written("The Crusades 6.4.5 B", seat, action, log);
            }
            Action::Terms { terms, .. } => {
                if let Some(t) = &mut self.surrender {
                    t.terms = Some(*terms);
                    let t = *t;
                    self.phase = Phase::SurrenderAnswer(t.defender);
                    let name = self.scenario.map.sites[t.site].name.clone();
                    log.push_with(|| {
                        Event::public(
                            "The Crusades 10.4.2",
                            format!(
                                "the {} ask {name} to surrender: {}",
                                side.name(),
                                terms.name()
                            ),
                        )
                    });
                }
            }
            Action::Surrender => {
                if let Some(t) = self.surrender.take() {
                    crate::siege::surrender(
                        self,
                        log,
                        t.site,
                        t.attacker,
                        t.defender,
                        t.terms.unwrap_or(Terms::Captivity),
                    );
                    self.siege_next = t.site + 1;
                    self.continue_sieges(log);
                }
            }
            Action::Refuse => match self.phase {
                Phase::SurrenderAnswer(_) => {
                    if let Some(t) = &mut self.surrender {
                        t.refused = true;
                        let name = self.scenario.map.sites[t.site].name.clone();
                        log.push_with(|| {
                            Event::public(
                                "The Crusades 10.4.2",
                                format!("{name} refuses to surrender"),
                            )
                        });
                    }
                    self.continue_sieges(log);
                }
                _ => {
                    if let Some((by, offer)) = self.offer {
                        let text = crate::captives::offer_text(self, &offer);
                        log.push_with(|| {
                            Event::public(
                                "The Crusades 9.7.6",
                                format!("the {} refuse: {text}", side.name()),
                            )
                        });
                        crate::captives::end_parley(self, by);
                    }
                }
            },
            Action::Offer { offer } => {
                self.offer = Some((side, *offer));
                let text = crate::captives::offer_text(self, offer);
                log.push_with(|| {
                    Event::public("The Crusades 9.7.6", format!("the {}: {text}", side.name()))
                });
                let other = Side::of_seat(Seat(1 - seat.0.min(1))).expect("two seats");
                self.phase = Phase::OfferAnswer(other);
            }
            Action::Accept => {
                if let Some((by, offer)) = self.offer {
                    let text = crate::captives::offer_text(self, &offer);
                    log.push_with(|| {
                        Event::public(
                            "The Crusades 9.7.6",
                            format!("the {} accept: {text}", side.name()),
                        )
                    });
                    crate::captives::carry_out(self, log, by, offer);
                    crate::captives::end_parley(self, by);
                }
            }
            Action::Kill { leader } => {
                crate::captives::kill(self, log, *leader);
                if crate::captives::prisoners_of(self, side).is_empty()
                    && crate::captives::offers(self, side).is_empty()
                {
                    crate::captives::end_parley(self, side);
                }
            }
            Action::Assassinate { leader } => {
                crate::events::assassinate(self, log, side, *leader);
                self.after_assassination(log);
            }
            Action::Pass if matches!(self.phase, Phase::Parley(_)) => {
                crate::captives::end_parley(self, side);
            }
            Action::Pass => {
                log.push_with(|| {
                    Event::public(
                        "The Crusades 14.2",
                        format!("the {} attempt no assassination", side.name()),
                    )
                });
                self.after_assassination(log);
            }
            Action::Arrive {
                reinforcement,
                place,
            } => {
                self.arrivals.remove(0);
                self.place_reinforcement(*reinforcement, *place, log);
                self.next_arrival();
            }
        }
        Ok(applied)
    }
}
