//! `toy-race`: a tiny two-seat game to test the engine, the registry and the command line
//! without any real game (the registry registers it only with its `toy` feature, and in its
//! own tests).
//!
//! Each round East and West secretly bid 0-3 of their tokens (simultaneous and hidden until
//! both have bid). The higher bidder runs: they may boost (spend a token for +1, at most
//! twice), then either roll a d6 and add it (plus boosts) to their points, or rest to regain
//! two tokens. A tie gives each one point. Reaching the target ends the game; the higher score
//! wins. A position file (TOML with `points`, `tokens` and `round`) starts mid-race.
//!
//! For AI players it re-samples the other seat's secret bid ([`Game::determinize`]), scores a
//! race cut short by the lead in points ([`Game::evaluate`]) and reports each seat's points
//! and the rounds run ([`Game::stats`]).
//!
//! Options that break it on purpose, so that the shared checks ([`crate::checks`]) can be
//! seen to fail; they are accepted but not listed among the scenario's options:
//! `leaky-view` (the view shows both bids), `lists-illegal` (lists `bid 9`, which is refused),
//! `lax-apply` (accepts any bid up to 3 even without the tokens), `endless` (never ends),
//! `bad-determinize` (re-samples the deciding seat's own bid too, which it can see),
//! `dirty-refusal` (a bid refused while running gives the bidder a point, though the race
//! says it refuses without a change, [`Game::REFUSES_UNCHANGED`]).

use std::collections::BTreeMap;

use crate::board::{BoardCounter, BoardHex, BoardHexside, BoardRoad, Style};
use crate::{
    Applied, AuditEntry, Board, DataErrors, DataSet, Dice, DiceMode, Event, Facts, Game, Log,
    Modifier, OptionInfo, Outcome, Pending, Provenance, Rejection, RollRecord, ScenarioInfo, Seat,
    Setup, Startable, Stat, Viewer,
};
use hexgrid::{ColumnShove, HexId, Layout, Vertex};
use serde::{Deserialize, Serialize};

/// The game's id.
pub const GAME: &str = "toy-race";
/// The one scenario file.
pub const FILE: &str = "toy-race/race.toml";
use super::SEATS;
pub use super::{EAST, WEST};
const MAX_BID: u8 = 3;
const MAX_BOOST: u8 = 2;
const MAX_TOKENS: u8 = 5;
const REST_TOKENS: u8 = 2;
const TRACK: u8 = 7;

const RACE_TOML: &str = r#"title = "Race to Twenty"
target = 20
tokens = 4

[provenance.target]
source = "printed"
reason = "Race rules 1.1"

[provenance.tokens]
source = "reconstructed"
reason = "the counter sheet is lost; four is what the rules' examples use"
"#;

/// The built-in data of the toy game.
pub fn data() -> DataSet {
    DataSet::from_files([(FILE, RACE_TOML)])
}

/// The set-up of a race with these options, seed and dice.
pub fn setup(seed: u64, dice: DiceMode, options: &[&str]) -> Setup {
    Setup {
        scenario: "race".into(),
        options: options.iter().map(|s| s.to_string()).collect(),
        seed,
        dice,
        position: None,
    }
}

/// The scenario file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    title: String,
    target: u32,
    tokens: u8,
    #[serde(default)]
    provenance: BTreeMap<String, Provenance>,
}

/// A position to start from.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionFile {
    points: [u32; 2],
    tokens: [u8; 2],
    #[serde(default = "first_round")]
    round: u32,
}

fn first_round() -> u32 {
    1
}

/// The values of the data with their provenance.
pub fn audit(data: &DataSet) -> Result<Vec<AuditEntry>, DataErrors> {
    let file: ScenarioFile = data.parse(FILE)?;
    let mut errors = DataErrors::default();
    let mut out = vec![AuditEntry {
        file: FILE.into(),
        item: format!("title `{}`", file.title),
        source: crate::Source::Printed,
        reason: "Race rules, title page".into(),
    }];
    for (key, value) in [
        ("target", file.target.to_string()),
        ("tokens", file.tokens.to_string()),
    ] {
        match file.provenance.get(key) {
            Some(p) => {
                p.check(FILE, key, &mut errors);
                out.push(AuditEntry {
                    file: FILE.into(),
                    item: format!("{key} = {value}"),
                    source: p.source,
                    reason: p.reason.clone(),
                });
            }
            None => errors.push(FILE, None, format!("`{key}` has no provenance")),
        }
    }
    errors.into_result(out)
}

/// The options that break the race on purpose (see the module's documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faults {
    /// `leaky-view`: the view shows both bids.
    pub leaky_view: bool,
    /// `lists-illegal`: `bid 9` is listed, and refused.
    pub lists_illegal: bool,
    /// `lax-apply`: any bid up to 3 is accepted, even without the tokens.
    pub lax_apply: bool,
    /// `endless`: the race never ends.
    pub endless: bool,
    /// `bad-determinize`: re-samples the deciding seat's own bid too.
    pub bad_determinize: bool,
    /// `dirty-refusal`: a bid refused while running gives the bidder a point.
    pub dirty_refusal: bool,
}

/// Where the round stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Both seats bid in secret; each bid is kept until both are in.
    Bidding {
        /// East's and West's bids.
        bids: [Option<u8>; 2],
    },
    /// The higher bidder runs.
    Running {
        /// Who runs.
        runner: Seat,
        /// Boosts spent so far.
        boost: u8,
    },
    /// The race is over.
    Over,
}

/// The state of a race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Race {
    /// The scenario's title.
    pub title: String,
    /// The points that end the race.
    pub target: u32,
    /// Points, East then West.
    pub points: [u32; 2],
    /// Tokens, East then West.
    pub tokens: [u8; 2],
    /// The round, from 1.
    pub round: u32,
    /// Where the round stands.
    pub phase: Phase,
    /// The dice.
    pub dice: Dice,
    /// The options that break it on purpose.
    pub faults: Faults,
}

/// A decision of the race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RaceAction {
    /// Bid this many tokens (secret).
    Bid(u8),
    /// Spend a token for +1 on the run.
    Boost,
    /// Roll a d6 and run.
    Roll,
    /// Regain two tokens.
    Rest,
}

/// What one viewer sees of a bid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BidView {
    /// Not yet bid.
    NotYet,
    /// Bid, amount hidden.
    Committed,
    /// Bid this much (the viewer's own bid).
    Shown(u8),
}

/// What one viewer sees of a race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceView {
    /// The round.
    pub round: u32,
    /// The points that end the race.
    pub target: u32,
    /// Points, East then West.
    pub points: [u32; 2],
    /// Tokens, East then West.
    pub tokens: [u8; 2],
    /// The bids of this round while bidding.
    pub bids: Option<[BidView; 2]>,
    /// Who runs, while running.
    pub runner: Option<String>,
    /// Boosts spent on this run.
    pub boost: u8,
}

impl Race {
    fn name(seat: Seat) -> &'static str {
        SEATS[seat.index()]
    }

    fn next_round(&mut self) {
        self.phase = if self.points.iter().any(|&p| p >= self.target) {
            Phase::Over
        } else {
            self.round += 1;
            Phase::Bidding { bids: [None, None] }
        };
    }

    fn phase_name(&self) -> String {
        match &self.phase {
            Phase::Bidding { .. } => "bidding".into(),
            Phase::Running { runner, .. } => format!("{} runs", Race::name(*runner)),
            Phase::Over => "over".into(),
        }
    }
}

impl Game for Race {
    type Action = RaceAction;
    type View = RaceView;

    fn facts(&self) -> Facts {
        super::facts(GAME)
    }

    fn action_text(&self, action: &RaceAction) -> String {
        match action {
            RaceAction::Bid(n) => format!("bid {n}"),
            RaceAction::Boost => "boost".into(),
            RaceAction::Roll => "roll".into(),
            RaceAction::Rest => "rest".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<RaceAction, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
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
            Phase::Bidding { bids } if bids.get(seat.index()) == Some(&None) => {
                let mut v: Vec<RaceAction> = (0..=MAX_BID.min(self.tokens[seat.index()]))
                    .map(RaceAction::Bid)
                    .collect();
                if self.faults.lists_illegal {
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

    /// Every refusal comes before any change (but with `dirty-refusal`).
    const REFUSES_UNCHANGED: bool = true;

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
                let limit = if self.faults.lax_apply {
                    MAX_BID
                } else {
                    MAX_BID.min(self.tokens[me])
                };
                if n > limit {
                    return Err(Rejection::new(format!(
                        "a bid is at most {MAX_BID} and at most your {} tokens (Race 2.1)",
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
                // Only `lax-apply` lets a bid exceed the tokens.
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
                        return Err(Rejection::new(
                            "no token to boost with, or boosted twice already (Race 3.1)",
                        ));
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
                                cell: Some(format!("Run Table, {total}")),
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
                RaceAction::Bid(_) => {
                    if self.faults.dirty_refusal {
                        self.points[me] += 1;
                    }
                    Err(Rejection::new("no bidding while running"))
                }
            },
            (Phase::Over, _) => Err(Rejection::new("the race is over")),
            _ => Err(Rejection::new(format!(
                "`{}` is not possible now ({})",
                self.action_text(action),
                self.phase_name()
            ))),
        }
    }

    fn view(&self, viewer: Viewer) -> RaceView {
        let (bids, runner, boost) = match &self.phase {
            Phase::Bidding { bids } => {
                let show = |i: usize| match bids[i] {
                    None => BidView::NotYet,
                    Some(b) if self.faults.leaky_view || viewer == Viewer::Seat(Seat(i as u8)) => {
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
            winner: super::winner(e, w),
            level: None,
            reason: format!("the race reached {} points ({e} to {w})", self.target),
        })
    }

    fn dice(&self) -> &Dice {
        &self.dice
    }

    fn determinize(&self, seat: Seat, rng: &mut dyn rand_core::RngCore) -> Self {
        let mut world = self.clone();
        if let Phase::Bidding { bids } = &mut world.phase {
            let bad = self.faults.bad_determinize;
            for other in [EAST, WEST].into_iter().filter(|&s| bad || s != seat) {
                if let Some(bid) = &mut bids[other.index()] {
                    let most = MAX_BID.min(self.tokens[other.index()]);
                    *bid = (rng.next_u64() % u64::from(most + 1)) as u8;
                }
            }
        }
        world
    }

    fn evaluate(&self, seat: Seat) -> f64 {
        let me = f64::from(self.points[seat.index()]);
        let them = f64::from(self.points[1 - seat.index()]);
        (0.5 + (me - them) / (2.0 * f64::from(self.target.max(1)))).clamp(0.0, 1.0)
    }

    fn stats(&self) -> Vec<Stat> {
        let mut v: Vec<Stat> = [EAST, WEST]
            .into_iter()
            .map(|s| Stat::seat("points", s, f64::from(self.points[s.index()])))
            .collect();
        v.push(Stat::game("rounds", f64::from(self.round)));
        v
    }

    fn dice_mut(&mut self) -> &mut Dice {
        &mut self.dice
    }

    fn board(&self, viewer: Viewer) -> Board {
        let id = |c: u8| HexId::new(c + 1, 1);
        let place = |p: u32| (p.min(self.target) * u32::from(TRACK - 1) / self.target.max(1)) as u8;
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
                        c if c == TRACK - 1 => Some("Finish".into()),
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
                    key: "road".into(),
                    name: "Road".into(),
                    colour: "#8d6e63".into(),
                },
            ],
            status: vec![
                format!("Round {}, {}", self.round, self.phase_name()),
                format!(
                    "Points: East {}, West {} (target {})",
                    self.points[0], self.points[1], self.target
                ),
            ],
        }
    }
}

impl Startable for Race {
    fn scenarios(data: &DataSet) -> Result<Vec<ScenarioInfo>, DataErrors> {
        let file: ScenarioFile = data.parse(FILE)?;
        Ok(vec![ScenarioInfo {
            id: "race".into(),
            title: file.title,
            seats: SEATS.iter().map(|s| s.to_string()).collect(),
            options: vec![OptionInfo {
                name: "short".into(),
                about: "the race ends at 10 points (Race 4.1)".into(),
            }],
        }])
    }

    fn start(setup: &Setup, data: &DataSet) -> Result<Self, DataErrors> {
        let mut errors = DataErrors::default();
        if setup.scenario != "race" {
            errors.push(
                FILE,
                None,
                format!("no scenario `{}` (scenarios: race)", setup.scenario),
            );
        }
        let mut short = false;
        let mut faults = Faults::default();
        for o in &setup.options {
            match o.as_str() {
                "short" => short = true,
                "leaky-view" => faults.leaky_view = true,
                "lists-illegal" => faults.lists_illegal = true,
                "lax-apply" => faults.lax_apply = true,
                "endless" => faults.endless = true,
                "bad-determinize" => faults.bad_determinize = true,
                "dirty-refusal" => faults.dirty_refusal = true,
                other => errors.push(FILE, None, format!("no option `{other}` (options: short)")),
            }
        }
        let file: ScenarioFile = data.parse(FILE)?;
        let mut race = Race {
            title: file.title,
            target: match (faults.endless, short) {
                (true, _) => u32::MAX,
                (false, true) => 10,
                (false, false) => file.target,
            },
            points: [0, 0],
            tokens: [file.tokens; 2],
            round: 1,
            phase: Phase::Bidding { bids: [None, None] },
            dice: Dice::new(setup.seed, setup.dice),
            faults,
        };
        if let Some(text) = &setup.position {
            match toml::from_str::<PositionFile>(text) {
                Ok(p) => {
                    race.points = p.points;
                    race.tokens = p.tokens.map(|t| t.min(MAX_TOKENS));
                    race.round = p.round;
                }
                Err(e) => errors.push("position", None, e.message().trim().to_string()),
            }
        }
        errors.into_result(race)
    }
}
