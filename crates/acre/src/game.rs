//! Acre behind the engine's [`engine::Game`] and [`engine::Startable`] traits: the
//! scenarios (`siege`, and `siege-conrad` with 16.0), the option `conrad`, the pending seats,
//! legal actions and views of [`crate::play`] and [`crate::view`], and `determinize`, which
//! re-draws the other side's secrets consistently with what the seat sees.

use engine::{
    Applied, Board, DataErrors, DataSet, Dice, Facts, Log, OptionInfo, Outcome, Pending, Rejection,
    ScenarioInfo, Seat, Setup, Startable, Viewer,
};

use crate::action::Action;
use crate::rules::{Rules, Side};
use crate::state::{side_of_seat, State};
use crate::view::View;

/// The scenario ids: the siege, and the siege with 16.0 Conrad of Montferrat.
pub const SCENARIOS: [&str; 2] = ["siege", "siege-conrad"];

/// The options: 16.0.
pub fn catalogue() -> Vec<OptionInfo> {
    vec![OptionInfo {
        name: "conrad".into(),
        about: "16.0: Conrad of Montferrat is King of Jerusalem and commands Guy's division; Jacques d'Avesnes commands the Bretons".into(),
    }]
}

impl engine::Game for State {
    type Action = Action;
    type View = View;

    fn facts(&self) -> Facts {
        Facts {
            game: "acre".into(),
            seats: vec!["crusader".into(), "moslem".into()],
            simultaneous_orders: true,
            hidden_information: true,
            chance: true,
        }
    }

    fn action_text(&self, action: &Action) -> String {
        action.text(self)
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        Action::parse(self, text)
    }

    fn pending(&self) -> Pending {
        Pending::from_seats(self.pending_seats())
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    /// [`State::play`] refuses an action before it changes anything: a seat with no
    /// decision now, then an action not among those listed for the step (a move of the
    /// selected piece checked against its path).
    const REFUSES_UNCHANGED: bool = true;

    fn apply(&mut self, seat: Seat, action: &Action, log: &mut Log) -> Result<Applied, Rejection> {
        self.play(seat, action, log)
    }

    fn view(&self, viewer: Viewer) -> View {
        self.seat_view(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn dice(&self) -> &Dice {
        &self.dice
    }

    fn dice_mut(&mut self) -> &mut Dice {
        &mut self.dice
    }

    fn board(&self, viewer: Viewer) -> Board {
        self.board_picture(viewer)
    }

    /// Acre 4.0 1.A, 7.0, 13.23: the other side's plan is re-drawn as
    /// [`crate::planning::Allocation::determinize`] says; for the Moslem the hidden tunnel
    /// hexes are re-drawn ([`crate::engineering::Tunnels::determinize`], at most Tunnel Points
    /// times the Game-Turns gone, never through a hex he searched and found empty since the
    /// last Tunnel Segment); the other side's allocations not yet rolled are forgotten.
    fn determinize(&self, seat: Seat, rng: &mut dyn rand_core::RngCore) -> Self {
        let mut s = self.clone();
        let Some(side) = side_of_seat(seat) else {
            return s;
        };
        let r = &self.rules;
        s.allocation = self
            .allocation
            .determinize(r, side, self.engineer_points, &self.used, rng);
        match side {
            Side::Crusader => {
                s.work.counter.clear();
                s.work.repairs.clear();
                s.work.fire[1].clear();
            }
            Side::Moslem => {
                s.work.digs.clear();
                s.work.shots.clear();
                s.work.fire[0].clear();
                let mut probe = self.tunnels.clone();
                probe.known.extend(self.searched.iter().copied());
                let max_len = u32::from(self.tunnels.points) * u32::from(self.turn.turn);
                let mut t = probe.determinize(r, max_len, rng);
                t.known = self.tunnels.known.clone();
                t.inoperative.retain(|h| self.tunnels.known.contains(h));
                s.tunnels = t;
            }
        }
        s
    }

    /// The seat's chance as the siege stands ([`crate::victory::prospects`]), for searches
    /// cut short; a finished game is 1, 0.5 or 0.
    fn evaluate(&self, seat: Seat) -> f64 {
        if let Some(o) = &self.outcome {
            return o.score(seat);
        }
        let crusader = crate::victory::prospects(&self.rules, &self.pos, self.turn.turn);
        match side_of_seat(seat) {
            Some(Side::Crusader) => crusader,
            Some(Side::Moslem) => 1.0 - crusader,
            None => 0.5,
        }
    }

    /// Combat units destroyed per side and Game-Turns played.
    fn stats(&self) -> Vec<engine::Stat> {
        vec![
            engine::Stat::seat("losses", Seat(0), f64::from(self.destroyed[0])),
            engine::Stat::seat("losses", Seat(1), f64::from(self.destroyed[1])),
            engine::Stat::game("turns", f64::from(self.turn.turn)),
        ]
    }

    fn describe_action(&self, seat: Seat, action: &Action) -> engine::ActionInfo {
        self.describe(seat, action)
    }
}

impl Startable for State {
    fn scenarios(data: &DataSet) -> Result<Vec<ScenarioInfo>, DataErrors> {
        let rules = Rules::load(data)?;
        Ok(SCENARIOS
            .iter()
            .map(|id| ScenarioInfo {
                id: id.to_string(),
                title: if *id == "siege" {
                    rules.scenario.title.clone()
                } else {
                    format!("{}, with Conrad of Montferrat (16.0)", rules.scenario.title)
                },
                seats: rules.scenario.seats.clone(),
                options: if *id == "siege" {
                    catalogue()
                } else {
                    Vec::new()
                },
            })
            .collect())
    }

    fn start(setup: &Setup, data: &DataSet) -> Result<Self, DataErrors> {
        setup.check_scenario("acre", &SCENARIOS)?;
        let mut conrad = setup.scenario == "siege-conrad";
        for o in &setup.options {
            match o.as_str() {
                "conrad" => conrad = true,
                _ => {
                    return Err(DataErrors::command_line(format!(
                        "unknown option `{o}`; valid: conrad"
                    )))
                }
            }
        }
        if setup.position.is_some() {
            return Err(DataErrors::command_line(
                "Acre has no position files: set up with `deploy-historical` or piece by piece",
            ));
        }
        let rules = Rules::shared(data)?;
        Ok(State::new(rules, conrad, Dice::new(setup.seed, setup.dice)))
    }
}

/// Every value of Acre's data with its provenance, for `crusades data audit`.
pub fn audit(data: &DataSet) -> Result<Vec<engine::AuditEntry>, DataErrors> {
    crate::rules::audit(data)
}
