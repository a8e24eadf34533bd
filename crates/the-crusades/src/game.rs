//! The Crusades behind the engine's [`engine::Game`] and [`engine::Startable`] traits.

use engine::{
    Applied, Board, DataErrors, DataSet, Dice, Facts, Log, OptionInfo, Outcome, Pending, Rejection,
    ScenarioInfo, Seat, Setup, Startable, Viewer,
};

use crate::action::Action;
use crate::scenario::{Scenario, Side, SCENARIOS};
use crate::state::{Options, State};
use crate::view::View;

/// The option names (16.5.2 C).
pub fn catalogue() -> Vec<OptionInfo> {
    vec![OptionInfo {
        name: "ignore-jerusalem".into(),
        about: "16.5.2 C: ignore the historical Jerusalem restriction (a Crusader lead of less than five without Jerusalem is then a win, not a draw)".into(),
    }]
}

impl engine::Game for State {
    type Action = Action;
    type View = View;

    fn facts(&self) -> Facts {
        Facts {
            game: "the-crusades".into(),
            seats: self.scenario.seats.clone(),
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

    /// [`State::play`] checks an action whole before it changes anything.
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

    /// 5.0: the other seat's written orders are its only secret; a re-sampled state forgets
    /// them (its leaders and fleets then do nothing), keeping whether it has committed. Once
    /// both seats have committed the books are revealed (in the Random Events, Combat and
    /// Siege Phases' decisions) and kept.
    fn determinize(&self, seat: Seat, _rng: &mut dyn rand_core::RngCore) -> Self {
        let mut s = self.clone();
        if s.phase != crate::state::Phase::Orders {
            return s;
        }
        for (i, book) in s.orders.iter_mut().enumerate() {
            if i != seat.index() {
                book.leaders.clear();
                book.fleets.clear();
                book.command.clear();
                book.take.clear();
                book.losses.clear();
                book.escort.clear();
            }
        }
        s
    }

    /// Victory points (16.5.1) now, for searches cut short.
    fn evaluate(&self, seat: Seat) -> f64 {
        if let Some(o) = &self.outcome {
            return o.score(seat);
        }
        let (c, s) = crate::victory::points(self);
        let margin = if seat.0 == 0 {
            f64::from(c) - f64::from(s)
        } else {
            f64::from(s) - f64::from(c)
        };
        0.5 + 0.5 * (margin / 10.0).tanh()
    }

    /// The counter an order is for, where it ends, its path and a label ([`crate::describe`]).
    fn describe_action(&self, seat: Seat, action: &Action) -> engine::ActionInfo {
        self.describe(seat, action)
    }

    /// ASPs lost per side and turns played.
    fn stats(&self) -> Vec<engine::Stat> {
        vec![
            engine::Stat::seat("losses", Seat(0), f64::from(self.losses[0])),
            engine::Stat::seat("losses", Seat(1), f64::from(self.losses[1])),
            engine::Stat::game("turns", (self.turn + 1) as f64),
        ]
    }
}

impl Startable for State {
    fn scenarios(data: &DataSet) -> Result<Vec<ScenarioInfo>, DataErrors> {
        let mut out = Vec::new();
        for id in SCENARIOS {
            let s = Scenario::load(data, id)?;
            out.push(ScenarioInfo {
                id: s.id.clone(),
                title: s.title.clone(),
                seats: s.seats.clone(),
                options: catalogue(),
            });
        }
        Ok(out)
    }

    fn start(setup: &Setup, data: &DataSet) -> Result<Self, DataErrors> {
        setup.check_scenario("the-crusades", &SCENARIOS)?;
        let mut options = Options::default();
        for o in &setup.options {
            match o.as_str() {
                "ignore-jerusalem" => options.ignore_jerusalem = true,
                _ => {
                    return Err(DataErrors::command_line(format!(
                        "unknown option `{o}`; valid: ignore-jerusalem"
                    )))
                }
            }
        }
        if setup.position.is_some() {
            return Err(DataErrors::command_line(
                "The Crusades has no position files yet",
            ));
        }
        let scenario = Scenario::shared(data, &setup.scenario)?;
        let mut state = State::new(scenario, options, Dice::new(setup.seed, setup.dice));
        state.begin_turn(&mut Log::discarding());
        let _ = Side::Crusaders;
        Ok(state)
    }
}

/// Every value of the game's data with its provenance, for `crusades data audit`.
pub fn audit(data: &DataSet) -> Result<Vec<engine::AuditEntry>, DataErrors> {
    let mut out = Vec::new();
    for id in SCENARIOS {
        out.extend(Scenario::load(data, id)?.audit);
    }
    Ok(out)
}
