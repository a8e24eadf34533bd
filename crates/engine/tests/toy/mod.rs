//! A toy game to test the engine without any real game: a two-seat race.
//!
//! Each round East and West secretly bid 0-3 of their tokens (simultaneous, hidden until both
//! have bid). The higher bidder runs: they may boost (spend a token for +1, at most twice),
//! then either roll a d6 and add it (plus boosts) to their points, or rest to regain two
//! tokens. A tie gives each one point. The first to the target (20) ends the game; the higher
//! score wins.
//!
//! Options that break it on purpose, so that the checks can be seen to fail:
//! `leaky-view` (the view shows both bids), `lists-illegal` (lists `bid 9`, which is refused),
//! `lax-apply` (accepts any bid up to 3 even without the tokens), `endless` (never ends),
//! `bad-determinize` (re-samples the deciding seat's own bid too, which it can see).

#![allow(dead_code)]

use std::fmt;
use std::str::FromStr;

use engine::board::{BoardCounter, BoardHex, BoardHexside, BoardRoad, Style};
use engine::{
    Applied, Board, DataErrors, DataSet, Dice, DiceMode, Event, Facts, Game, Log, Modifier,
    OptionInfo, Outcome, Pending, Rejection, RollRecord, ScenarioInfo, Seat, Setup, Startable,
    Viewer,
};
use hexgrid::{ColumnShove, HexId, Layout, Vertex};
use serde::{Deserialize, Serialize};

pub const GAME: &str = "toy-race";
pub const EAST: Seat = Seat(0);
pub const WEST: Seat = Seat(1);
const SEATS: [&str; 2] = ["East", "West"];
const MAX_BID: u8 = 3;
const MAX_BOOST: u8 = 2;
const MAX_TOKENS: u8 = 5;
const REST_TOKENS: u8 = 2;
const TRACK: u8 = 7;

/// The scenario file.
const RACE_TOML: &str = r#"
title = "Race to Twenty & <Back>"
target = 20
tokens = 4
"#;

pub fn data() -> DataSet {
    DataSet::from_files([("toy-race/race.toml", RACE_TOML)])
}

pub fn setup(seed: u64, dice: DiceMode, options: &[&str]) -> Setup {
    Setup {
        scenario: "race".into(),
        options: options.iter().map(|s| s.to_string()).collect(),
        seed,
        dice,
        position: None,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    title: String,
    target: u32,
    tokens: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flags {
    leaky_view: bool,
    lists_illegal: bool,
    lax_apply: bool,
    endless: bool,
    bad_determinize: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Bidding { bids: [Option<u8>; 2] },
    Running { runner: Seat, boost: u8 },
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Race {
    pub title: String,
    pub target: u32,
    pub points: [u32; 2],
    pub tokens: [u8; 2],
    pub round: u32,
    pub phase: Phase,
    pub dice: Dice,
    pub flags: Flags,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RaceAction {
    Bid(u8),
    Boost,
    Roll,
    Rest,
}

impl fmt::Display for RaceAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RaceAction::Bid(n) => write!(f, "bid {n}"),
            RaceAction::Boost => f.write_str("boost"),
            RaceAction::Roll => f.write_str("roll"),
            RaceAction::Rest => f.write_str("rest"),
        }
    }
}

impl FromStr for RaceAction {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            ["bid", n] => n
                .parse()
                .map(RaceAction::Bid)
                .map_err(|_| format!("`{n}` is not a number of tokens")),
            ["boost"] => Ok(RaceAction::Boost),
            ["roll"] => Ok(RaceAction::Roll),
            ["rest"] => Ok(RaceAction::Rest),
            _ => Err("expected `bid N`, `boost`, `roll` or `rest`".into()),
        }
    }
}

/// What one viewer sees of a bid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BidView {
    NotYet,
    Committed,
    Shown(u8),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceView {
    pub round: u32,
    pub target: u32,
    pub points: [u32; 2],
    pub tokens: [u8; 2],
    pub bids: Option<[BidView; 2]>,
    pub runner: Option<String>,
    pub boost: u8,
}

impl Race {
    fn name(seat: Seat) -> &'static str {
        SEATS[seat.index()]
    }

    fn next_round(&mut self) {
        let over = self.points.iter().any(|&p| p >= self.target);
        self.phase = if over {
            Phase::Over
        } else {
            self.round += 1;
            Phase::Bidding { bids: [None, None] }
        };
    }
}

impl Game for Race {
    type Action = RaceAction;
    type View = RaceView;

    fn action_text(&self, action: &RaceAction) -> String {
        action.to_string()
    }

    fn parse_action(&self, text: &str) -> Result<RaceAction, String> {
        text.parse()
    }

    fn facts(&self) -> Facts {
        Facts {
            game: GAME.into(),
            seats: SEATS.iter().map(|s| s.to_string()).collect(),
            simultaneous_orders: true,
            hidden_information: true,
            chance: true,
        }
    }

    fn pending(&self) -> Pending {
        match &self.phase {
            Phase::Bidding { bids } => Pending::Seats(
                [EAST, WEST]
                    .into_iter()
                    .filter(|s| bids[s.index()].is_none())
                    .collect(),
            ),
            Phase::Running { runner, .. } => Pending::Seats(vec![*runner]),
            Phase::Over => Pending::Over,
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<RaceAction> {
        match &self.phase {
            Phase::Bidding { bids } if bids[seat.index()].is_none() => {
                let mut v: Vec<RaceAction> = (0..=MAX_BID.min(self.tokens[seat.index()]))
                    .map(RaceAction::Bid)
                    .collect();
                if self.flags.lists_illegal {
                    v.push(RaceAction::Bid(9));
                }
                v
            }
            Phase::Running { runner, boost } if *runner == seat => {
                let mut v = vec![RaceAction::Roll, RaceAction::Rest];
                if self.tokens[seat.index()] > 0 && *boost < MAX_BOOST {
                    v.push(RaceAction::Boost);
                }
                v
            }
            _ => Vec::new(),
        }
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &RaceAction,
        log: &mut Log,
    ) -> Result<Applied, Rejection> {
        let me = seat.index();
        let name = Race::name(seat);
        match (&mut self.phase, *action) {
            (Phase::Bidding { bids }, RaceAction::Bid(n)) => {
                if bids[me].is_some() {
                    return Err(Rejection::new("you have already bid this round"));
                }
                let limit = if self.flags.lax_apply {
                    MAX_BID
                } else {
                    MAX_BID.min(self.tokens[me])
                };
                if n > limit {
                    return Err(Rejection::new(format!(
                        "a bid is at most {MAX_BID} and at most your {} tokens",
                        self.tokens[me]
                    )));
                }
                bids[me] = Some(n);
                log.push_with(|| {
                    Event::private("Race 2.1", format!("{name} bids {n} in secret"), vec![seat])
                });
                log.push_with(|| Event::public("Race 2.1", format!("{name} has bid")));
                let [Some(e), Some(w)] = *bids else {
                    return Ok(Applied::default());
                };
                log.push_with(|| {
                    Event::public("Race 2.2", format!("Bids revealed: East {e}, West {w}"))
                });
                self.tokens[0] = self.tokens[0].saturating_sub(e);
                self.tokens[1] = self.tokens[1].saturating_sub(w);
                if e == w {
                    self.points[0] += 1;
                    self.points[1] += 1;
                    log.push_with(|| Event::public("Race 2.3", "A tie: one point each"));
                    self.next_round();
                } else {
                    let runner = if e > w { EAST } else { WEST };
                    self.phase = Phase::Running { runner, boost: 0 };
                }
                Ok(Applied { revealed: true })
            }
            (Phase::Running { runner, boost }, a) if *runner == seat => match a {
                RaceAction::Boost => {
                    if self.tokens[me] == 0 || *boost >= MAX_BOOST {
                        return Err(Rejection::new("no token to boost with, or boosted twice"));
                    }
                    self.tokens[me] -= 1;
                    *boost += 1;
                    log.push_with(|| Event::public("Race 3.1", format!("{name} boosts")));
                    Ok(Applied::default())
                }
                RaceAction::Roll => {
                    let boost = *boost;
                    let die = self.dice.d6();
                    let total = u32::from(die + boost);
                    self.points[me] += total;
                    log.push_with(|| {
                        Event::public("Race 3.2", format!("{name} runs {total}")).with_roll(
                            RollRecord {
                                purpose: format!("run of {name}"),
                                dice: vec![die],
                                modifiers: vec![Modifier {
                                    reason: "boost".into(),
                                    value: i32::from(boost),
                                }],
                                total: total as i32,
                                cell: None,
                                result: format!("+{total} points"),
                            },
                        )
                    });
                    self.next_round();
                    Ok(Applied::default())
                }
                RaceAction::Rest => {
                    self.tokens[me] = (self.tokens[me] + REST_TOKENS).min(MAX_TOKENS);
                    log.push_with(|| Event::public("Race 3.3", format!("{name} rests")));
                    self.next_round();
                    Ok(Applied::default())
                }
                RaceAction::Bid(_) => Err(Rejection::new("no bidding while running")),
            },
            (Phase::Over, _) => Err(Rejection::new("the race is over")),
            _ => Err(Rejection::new(format!("`{action}` is not possible now"))),
        }
    }

    fn view(&self, viewer: Viewer) -> RaceView {
        let (bids, runner, boost) = match &self.phase {
            Phase::Bidding { bids } => {
                let show = |i: usize| match bids[i] {
                    None => BidView::NotYet,
                    Some(b) if self.flags.leaky_view || viewer == Viewer::Seat(Seat(i as u8)) => {
                        BidView::Shown(b)
                    }
                    Some(_) => BidView::Committed,
                };
                (Some([show(0), show(1)]), None, 0)
            }
            Phase::Running { runner, boost } => {
                (None, Some(Race::name(*runner).to_string()), *boost)
            }
            Phase::Over => (None, None, 0),
        };
        RaceView {
            round: self.round,
            target: self.target,
            points: self.points,
            tokens: self.tokens,
            bids,
            runner,
            boost,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let [e, w] = self.points;
        Some(Outcome {
            winner: match e.cmp(&w) {
                std::cmp::Ordering::Greater => Some(EAST),
                std::cmp::Ordering::Less => Some(WEST),
                std::cmp::Ordering::Equal => None,
            },
            level: None,
            reason: format!("the race reached {} points ({e} to {w})", self.target),
        })
    }

    fn determinize(&self, seat: Seat, rng: &mut dyn rand_core::RngCore) -> Self {
        let mut world = self.clone();
        if let Phase::Bidding { bids } = &mut world.phase {
            for other in [EAST, WEST] {
                if other == seat && !self.flags.bad_determinize {
                    continue;
                }
                if let Some(bid) = &mut bids[other.index()] {
                    let most = MAX_BID.min(self.tokens[other.index()]);
                    *bid = (rng.next_u64() % u64::from(most + 1)) as u8;
                }
            }
        }
        world
    }

    fn dice(&self) -> &Dice {
        &self.dice
    }

    fn dice_mut(&mut self) -> &mut Dice {
        &mut self.dice
    }

    fn board(&self, viewer: Viewer) -> Board {
        let id = |c: u8| HexId::new(c + 1, 1);
        let place =
            |p: u32| (p * u32::from(TRACK - 1) / self.target).min(u32::from(TRACK - 1)) as u8;
        let view = self.view(viewer);
        Board {
            title: self.title.clone(),
            layout: Some(Layout::new(ColumnShove::OddColumnsDown)),
            hexes: (0..TRACK)
                .map(|c| BoardHex {
                    id: id(c),
                    terrain: if c % 3 == 1 { "rough" } else { "clear" }.into(),
                    elevation: (c % 3) as i8,
                    label: match c {
                        0 => Some("Start".into()),
                        c if c == TRACK - 1 => Some("Finish <&>".into()),
                        _ => None,
                    },
                })
                .collect(),
            hexsides: vec![BoardHexside {
                a: id(2),
                b: id(3),
                feature: "river".into(),
            }],
            roads: vec![BoardRoad {
                kind: "road".into(),
                hexes: (0..TRACK).map(id).collect(),
            }],
            counters: [EAST, WEST]
                .into_iter()
                .map(|s| BoardCounter {
                    id: Race::name(s).to_lowercase(),
                    hex: id(place(self.points[s.index()])),
                    side: Race::name(s).into(),
                    name: format!("{} runner", Race::name(s)),
                    values: format!("{}-{}", self.points[s.index()], self.tokens[s.index()]),
                    facing: Some(Vertex::E),
                    markers: match &view.runner {
                        Some(r) if r == Race::name(s) => vec!["Running".into()],
                        _ => Vec::new(),
                    },
                    stack_position: s.0,
                    kind: "unit".into(),
                    band: "#ffd54f".into(),
                })
                .collect(),
            styles: vec![
                Style {
                    key: "clear".into(),
                    name: "Clear".into(),
                    colour: "#e9e4c9".into(),
                },
                Style {
                    key: "rough".into(),
                    name: "Rough".into(),
                    colour: "#c9b27c".into(),
                },
                Style {
                    key: "river".into(),
                    name: "River".into(),
                    colour: "#2f6fd6".into(),
                },
                Style {
                    key: "East".into(),
                    name: "East".into(),
                    colour: "#b3261e".into(),
                },
            ],
            status: vec![
                format!("Round {}", self.round),
                format!("Points: East {}, West {}", self.points[0], self.points[1]),
            ],
        }
    }
}

impl Startable for Race {
    fn scenarios(_data: &DataSet) -> Result<Vec<ScenarioInfo>, DataErrors> {
        Ok(vec![ScenarioInfo {
            id: "race".into(),
            title: "Race to Twenty".into(),
            seats: SEATS.iter().map(|s| s.to_string()).collect(),
            options: [
                "leaky-view",
                "lists-illegal",
                "lax-apply",
                "endless",
                "bad-determinize",
            ]
            .iter()
            .map(|n| OptionInfo {
                name: n.to_string(),
                about: "breaks the toy on purpose".into(),
            })
            .collect(),
        }])
    }

    fn start(setup: &Setup, data: &DataSet) -> Result<Self, DataErrors> {
        let file = "toy-race/race.toml";
        let mut errors = DataErrors::default();
        if setup.scenario != "race" {
            errors.push(
                file,
                None,
                format!("no scenario `{}` (scenarios: race)", setup.scenario),
            );
        }
        let mut flags = Flags::default();
        for o in &setup.options {
            match o.as_str() {
                "leaky-view" => flags.leaky_view = true,
                "lists-illegal" => flags.lists_illegal = true,
                "lax-apply" => flags.lax_apply = true,
                "endless" => flags.endless = true,
                "bad-determinize" => flags.bad_determinize = true,
                other => errors.push(file, None, format!("no option `{other}`")),
            }
        }
        let scenario: Scenario = data.parse(file)?;
        errors.into_result(())?;
        Ok(Race {
            title: scenario.title,
            target: if flags.endless {
                u32::MAX
            } else {
                scenario.target
            },
            points: [0, 0],
            tokens: [scenario.tokens; 2],
            round: 1,
            phase: Phase::Bidding { bids: [None, None] },
            dice: Dice::new(setup.seed, setup.dice),
            flags,
        })
    }
}
