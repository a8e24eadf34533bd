//! The game state: plain, serialisable data (the scenario behind an `Arc`), and the small
//! queries every chapter asks of it: who is where, forces (6.0 A), occupation and control of
//! cities (16.5.3), sieges in force (10.3.8).

use std::collections::BTreeMap;
use std::sync::Arc;

use engine::{Dice, Outcome};
use hexgrid::HexId;
use serde::{Deserialize, Serialize};

use crate::map::Place;
use crate::orders::OrderBook;
use crate::scenario::{Scenario, Side};

/// Where a leader is in the game's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Not yet arrived (16.4).
    Waiting,
    /// On the map.
    Active,
    /// Aboard a fleet (12.5, 16.4.1).
    Aboard(usize),
    /// Held prisoner by a side (9.7.6); his retinue waits in limbo (9.7.5 B).
    Captured(Side),
    /// Dead, assassinated or eliminated with his retinue (3.5.4 B).
    Dead,
}

/// A leader and the ASPs with him (his retinue, or a Saracen's attached ASPs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leader {
    /// Where he is, while active.
    pub place: Option<Place>,
    /// His status.
    pub status: Status,
    /// His ASPs.
    pub asps: u16,
    /// Disrupted by a retreat (9.6 E).
    pub disrupted: bool,
    /// Whether he was in a friendly city at the start of this turn (to end disruption).
    pub in_friendly_city_at_start: bool,
    /// Consecutive turns without moving (6.4.7).
    pub still: u8,
    /// An unwoken neutral (15.0): may not be ordered.
    pub neutral: bool,
    /// The city he moved toward through its ZOI and must besiege for a turn (7.2.2 B).
    pub must_besiege: Option<HexId>,
    /// Moved this turn.
    pub moved: bool,
    /// The fleet that landed him outside in a coastal hex this turn (12.5.7).
    #[serde(default)]
    pub landed_from: Option<usize>,
    /// While captured: the city or castle he is held in (9.7.6 A, C).
    #[serde(default)]
    pub held: Option<usize>,
}

/// A fleet's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FleetStatus {
    /// Not yet arrived.
    Waiting,
    /// On the map.
    Active,
    /// Removed by winter weather until March II (12.6.1).
    Removed,
    /// Eliminated.
    Sunk,
}

/// A fleet (12.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fleet {
    /// Its hex.
    pub hex: Option<HexId>,
    /// Naval strength points, 2 or 1 (12.1.1).
    pub strength: u8,
    /// On blockade (12.3).
    pub blockade: bool,
    /// Its status.
    pub status: FleetStatus,
}

/// ASPs without a leader (8.0 I): a Saracen garrison or ASPs left behind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Garrison {
    /// Their side.
    pub side: Side,
    /// Where.
    pub place: Place,
    /// How many.
    pub asps: u16,
}

/// A city or castle in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteState {
    /// The side in control (16.5.3); `None` for a neutral city never taken.
    pub control: Option<Side>,
    /// How many levels worse its hex's attrition level is through siege (10.5.4).
    pub worse: u8,
    /// A castle's inherent garrison of 1 SP (10.2.3) is present.
    pub castle_garrison: bool,
}

/// The step of the turn the game waits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The Order Segment (5.0): both seats write their orders in secret.
    Orders,
    /// A side's assassination attempt (14.2): it names the target.
    Assassination(Side),
    /// The Order Segment's reinforcements (16.4): a side chooses where one of its arriving
    /// groups enters the map.
    Arrival(Side),
    /// The Siege Phase (10.4.2): the besieger of [`State::surrender`]'s city states the
    /// terms on which it asks the defender to surrender.
    SurrenderTerms(Side),
    /// The Siege Phase (10.4.2): the defender answers the request.
    SurrenderAnswer(Side),
    /// The Order Segment (9.7.6): a side may offer to exchange or ransom prisoners, or kill
    /// one it holds.
    Parley(Side),
    /// The Order Segment (9.7.6): a side answers the offer in [`State::offer`].
    OfferAnswer(Side),
    /// The game is over.
    Over,
}

/// The Crusades 10.4.2: the terms on which a besieger asks a city to surrender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Terms {
    /// The defenders march out with their ASPs to the nearest city or castle of their side.
    MarchOut,
    /// The defenders lay down their arms: their ASPs are disbanded and their leaders are
    /// held prisoner (9.7.6).
    Captivity,
}

impl Terms {
    /// The notation.
    pub fn name(self) -> &'static str {
        match self {
            Terms::MarchOut => "march-out",
            Terms::Captivity => "captivity",
        }
    }

    /// Reads the notation.
    pub fn parse(s: &str) -> Option<Terms> {
        match s {
            "march-out" => Some(Terms::MarchOut),
            "captivity" => Some(Terms::Captivity),
            _ => None,
        }
    }
}

/// A request to surrender being settled in the Siege Phase (10.4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurrenderTalk {
    /// The besieged city or castle.
    pub site: usize,
    /// The besieging side.
    pub attacker: Side,
    /// The besieged side.
    pub defender: Side,
    /// The terms, once stated.
    pub terms: Option<Terms>,
    /// Whether the defender refused (the assault then goes ahead).
    pub refused: bool,
}

/// The Crusades 9.7.6: what a side offers the other for one of its captured leaders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Offer {
    /// Frees `give` (an enemy leader the offering side holds) in exchange for `get` (one of
    /// its own leaders the other side holds).
    Exchange {
        /// The prisoner handed back.
        give: usize,
        /// The leader freed in return.
        get: usize,
    },
    /// Turns over the city or castle `site` as the ransom of `get` (the Third Crusade has no
    /// money).
    Ransom {
        /// The leader ransomed.
        get: usize,
        /// The city or castle turned over.
        site: usize,
    },
}

/// Optional rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// 16.5.2 C: ignore the historical Jerusalem restriction.
    pub ignore_jerusalem: bool,
}

/// A set of sides, kept in [`Side`] order: the sides with forces at a place
/// ([`State::sides_present`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sides(u8);

impl Sides {
    /// Every side, in order.
    const ALL: [Side; 3] = [Side::Crusaders, Side::Saracens, Side::Cypriots];

    fn bit(side: Side) -> u8 {
        1 << side as u8
    }

    /// Adds a side.
    pub fn insert(&mut self, side: Side) {
        self.0 |= Sides::bit(side);
    }

    /// Whether the set holds `side`.
    pub fn contains(self, side: Side) -> bool {
        self.0 & Sides::bit(side) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The first side in order.
    pub fn first(self) -> Option<Side> {
        self.iter().next()
    }

    /// Whether the set holds an enemy of `side`.
    pub fn any_enemy_of(self, side: Side) -> bool {
        self.iter().any(|s| s.enemy_of(side))
    }

    /// The sides, in order.
    pub fn iter(self) -> impl Iterator<Item = Side> {
        Sides::ALL.into_iter().filter(move |&s| self.contains(s))
    }
}

/// The whole game.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    /// The scenario's static data.
    #[serde(skip)]
    pub scenario: Arc<Scenario>,
    /// Optional rules in force.
    pub options: Options,
    /// The dice.
    pub dice: Dice,
    /// The turn index into the calendar.
    pub turn: usize,
    /// The phase.
    pub phase: Phase,
    /// Leaders, indexed like the scenario's.
    pub leaders: Vec<Leader>,
    /// Fleets, indexed like the scenario's.
    pub fleets: Vec<Fleet>,
    /// ASPs without leaders.
    pub garrisons: Vec<Garrison>,
    /// Cities and castles, indexed like the map's.
    pub sites: Vec<SiteState>,
    /// Each seat's orders of this turn (secret until both commit).
    pub orders: [OrderBook; 2],
    /// Sides still to attempt an assassination this turn (14.2).
    pub assassins: Vec<Side>,
    /// Reinforcements of this turn (indices into the scenario's) waiting for their owner to
    /// choose where they enter (16.4).
    pub arrivals: Vec<usize>,
    /// ASPs lost by each side (Crusaders, Saracens), for reports.
    pub losses: [u32; 2],
    /// The Siege Phase resumes at this city or castle after a decision (10.4.2).
    #[serde(default)]
    pub siege_next: usize,
    /// The request to surrender being settled (10.4.2).
    #[serde(default)]
    pub surrender: Option<SurrenderTalk>,
    /// Sides still to parley over prisoners this Order Segment (9.7.6).
    #[serde(default)]
    pub parley: Vec<Side>,
    /// The offer waiting for an answer, and the side that made it (9.7.6).
    #[serde(default)]
    pub offer: Option<(Side, Offer)>,
    /// How the game ended.
    pub outcome: Option<Outcome>,
}

impl State {
    /// A new game at the scenario's start (16.2, 16.3): not yet in its first Order Segment.
    pub fn new(scenario: Arc<Scenario>, options: Options, dice: Dice) -> State {
        let s = &scenario;
        let mut leaders: Vec<Leader> = s
            .leaders
            .iter()
            .map(|l| Leader {
                place: None,
                status: Status::Waiting,
                asps: l.asps,
                disrupted: false,
                in_friendly_city_at_start: false,
                still: 0,
                neutral: false,
                must_besiege: None,
                moved: false,
                landed_from: None,
                held: None,
            })
            .collect();
        for &(i, p) in &s.deploy {
            leaders[i].place = Some(p);
            leaders[i].status = Status::Active;
        }
        for g in &s.neutral_groups {
            for &i in g {
                leaders[i].neutral = true;
            }
        }
        let fleets = s
            .fleets
            .iter()
            .map(|f| Fleet {
                hex: f.start.map(|x| x.0),
                strength: f.strength,
                blockade: f.start.is_some_and(|x| x.1),
                status: if f.start.is_some() {
                    FleetStatus::Active
                } else {
                    FleetStatus::Waiting
                },
            })
            .collect();
        let garrisons = s
            .garrisons
            .iter()
            .map(|&(side, place, asps)| Garrison { side, place, asps })
            .collect();
        let sites = s
            .map
            .sites
            .iter()
            .zip(&s.control)
            .map(|(site, c)| SiteState {
                control: *c,
                worse: 0,
                castle_garrison: site.castle,
            })
            .collect();
        State {
            scenario,
            options,
            dice,
            turn: 0,
            phase: Phase::Orders,
            leaders,
            fleets,
            garrisons,
            sites,
            orders: Default::default(),
            assassins: Vec::new(),
            arrivals: Vec::new(),
            losses: [0, 0],
            siege_next: 0,
            surrender: None,
            parley: Vec::new(),
            offer: None,
            outcome: None,
        }
    }

    /// The side of a leader.
    pub fn side_of(&self, leader: usize) -> Side {
        self.scenario.leaders[leader].side
    }

    /// Leaders active on the map at `place`.
    pub fn leaders_at(&self, place: Place) -> impl Iterator<Item = usize> + '_ {
        self.leaders
            .iter()
            .enumerate()
            .filter(move |(_, l)| l.place == Some(place) && matches!(l.status, Status::Active))
            .map(|(i, _)| i)
    }

    /// Leaders of `side` active at `place`.
    pub fn side_leaders_at(&self, side: Side, place: Place) -> Vec<usize> {
        self.leaders_at(place)
            .filter(|&i| self.side_of(i) == side)
            .collect()
    }

    /// ASPs without leaders of `side` at `place`.
    pub fn garrison_at(&self, side: Side, place: Place) -> u16 {
        self.garrisons
            .iter()
            .filter(|g| g.side == side && g.place == place)
            .map(|g| g.asps)
            .sum()
    }

    /// Adds ASPs without leaders.
    pub fn add_garrison(&mut self, side: Side, place: Place, asps: u16) {
        if asps == 0 {
            return;
        }
        match self
            .garrisons
            .iter_mut()
            .find(|g| g.side == side && g.place == place)
        {
            Some(g) => g.asps += asps,
            None => self.garrisons.push(Garrison { side, place, asps }),
        }
    }

    /// Takes up to `asps` ASPs without leaders; returns how many were taken.
    pub fn take_garrison(&mut self, side: Side, place: Place, asps: u16) -> u16 {
        let mut taken = 0;
        for g in self
            .garrisons
            .iter_mut()
            .filter(|g| g.side == side && g.place == place)
        {
            let t = g.asps.min(asps - taken);
            g.asps -= t;
            taken += t;
        }
        self.garrisons.retain(|g| g.asps > 0);
        taken
    }

    /// Every ASP of `side` at `place`: leaders' and leaderless.
    pub fn asps_at(&self, side: Side, place: Place) -> u16 {
        self.leaders
            .iter()
            .zip(&self.scenario.leaders)
            .filter(|(l, info)| {
                l.place == Some(place) && matches!(l.status, Status::Active) && info.side == side
            })
            .map(|(l, _)| l.asps)
            .sum::<u16>()
            + self.garrison_at(side, place)
    }

    /// Sides with forces (leaders or ASPs) at `place`, in order.
    pub fn sides_at(&self, place: Place) -> Vec<Side> {
        self.sides_present(place).iter().collect()
    }

    /// Sides with forces (leaders or ASPs) at `place`, as a set: [`State::sides_at`]
    /// without building a list.
    pub fn sides_present(&self, place: Place) -> Sides {
        let mut out = Sides::default();
        for (l, info) in self.leaders.iter().zip(&self.scenario.leaders) {
            if l.place == Some(place) && matches!(l.status, Status::Active) {
                out.insert(info.side);
            }
        }
        for g in &self.garrisons {
            if g.place == place && g.asps > 0 {
                out.insert(g.side);
            }
        }
        out
    }

    /// The side occupying a city or castle (physical presence inside, counting a castle's
    /// inherent garrison for its controller, 10.2.3), if any.
    pub fn occupier(&self, site: usize) -> Option<Side> {
        let hex = self.scenario.map.sites[site].hex;
        self.sides_present(Place::inside(hex)).first().or_else(|| {
            if self.sites[site].castle_garrison {
                self.sites[site].control
            } else {
                None
            }
        })
    }

    /// Whether a city or castle is under siege (10.3.8): occupied, with an enemy force in the
    /// hex outside.
    pub fn under_siege(&self, site: usize) -> bool {
        let hex = self.scenario.map.sites[site].hex;
        match self.occupier(site) {
            Some(o) => self
                .sides_present(Place::outside(hex))
                .iter()
                .any(|s| s.enemy_of(o) && self.has_leader(s, Place::outside(hex))),
            None => false,
        }
    }

    /// Whether `side` has a leader at `place`.
    pub fn has_leader(&self, side: Side, place: Place) -> bool {
        self.leaders
            .iter()
            .zip(&self.scenario.leaders)
            .any(|(l, info)| {
                l.place == Some(place) && matches!(l.status, Status::Active) && info.side == side
            })
    }

    /// Whether a site is friendly to `side`: controlled by it (11.1.5).
    pub fn friendly_site(&self, site: usize, side: Side) -> bool {
        self.sites[site].control == Some(side)
    }

    /// The current turn's calendar entry.
    pub fn turn_info(&self) -> &crate::scenario::TurnInfo {
        &self.scenario.turns[self.turn.min(self.scenario.turns.len() - 1)]
    }

    /// Active fleets of `side` in `hex`.
    pub fn fleets_at(&self, side: Side, hex: HexId) -> Vec<usize> {
        self.fleets
            .iter()
            .enumerate()
            .filter(|(i, f)| {
                f.status == FleetStatus::Active
                    && f.hex == Some(hex)
                    && self.scenario.fleets[*i].side == side
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// Whether an enemy of `side` blockades `hex` (12.3).
    pub fn blockaded_against(&self, side: Side, hex: HexId) -> bool {
        self.fleets.iter().enumerate().any(|(i, f)| {
            f.status == FleetStatus::Active
                && f.blockade
                && f.hex == Some(hex)
                && self.scenario.fleets[i].side.enemy_of(side)
        })
    }

    /// The index of a seat's order book.
    pub fn book(&self, side: Side) -> &OrderBook {
        &self.orders[side.seat().map_or(0, |s| s.index())]
    }

    /// ASPs of every active leader of `side` by place, for reports and evaluation.
    pub fn strength(&self, side: Side) -> u32 {
        let leaders: u32 = self
            .leaders
            .iter()
            .enumerate()
            .filter(|(i, l)| l.status == Status::Active && self.side_of(*i) == side)
            .map(|(_, l)| u32::from(l.asps))
            .sum();
        leaders
            + self
                .garrisons
                .iter()
                .filter(|g| g.side == side)
                .map(|g| u32::from(g.asps))
                .sum::<u32>()
    }

    /// Active leaders grouped by place, for views.
    pub fn by_place(&self) -> BTreeMap<Place, Vec<usize>> {
        let mut out: BTreeMap<Place, Vec<usize>> = BTreeMap::new();
        for (i, l) in self.leaders.iter().enumerate() {
            if let (Status::Active, Some(p)) = (l.status, l.place) {
                out.entry(p).or_default().push(i);
            }
        }
        out
    }
}
