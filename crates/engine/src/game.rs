//! The game abstraction every game of the project implements (DESIGN.md, "The game
//! abstraction"): facts, the pending decision, legal actions per seat, a checked `apply`,
//! the per-seat view and the outcome.

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::event::Log;

/// A seat at the table, numbered from 0 in the order the game's [`Facts::seats`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index into per-seat containers.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Who is looking at the game: one seat, or a spectator who sees only public information.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    /// A player seated at this seat.
    Seat(Seat),
    /// Someone who may see only what every seat may see.
    Spectator,
}

impl Viewer {
    /// Whether this viewer may see something visible to `who`.
    pub fn sees(self, who: &Visibility) -> bool {
        match (who, self) {
            (Visibility::All, _) => true,
            (Visibility::Seats(seats), Viewer::Seat(s)) => seats.contains(&s),
            (Visibility::Seats(_), Viewer::Spectator) => false,
        }
    }
}

/// Who may see an event or a piece of information.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Visibility {
    /// Every seat and every spectator.
    All,
    /// Only these seats.
    Seats(Vec<Seat>),
}

/// Who must decide now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pending {
    /// These seats must each decide; more than one seat means secret simultaneous decisions,
    /// each committed privately and resolved together.
    Seats(Vec<Seat>),
    /// The game is over; see [`Game::outcome`].
    Over,
}

impl Pending {
    /// These seats must decide; none means the game is over.
    pub fn from_seats(seats: Vec<Seat>) -> Self {
        if seats.is_empty() {
            Pending::Over
        } else {
            Pending::Seats(seats)
        }
    }

    /// The seats that must decide now (empty when the game is over).
    pub fn seats(&self) -> &[Seat] {
        match self {
            Pending::Seats(s) => s,
            Pending::Over => &[],
        }
    }
}

/// What a game declares about itself, so that AI, server and command line branch on facts and
/// never on which game it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Facts {
    /// The game's id, as in scenario ids (`crusades-ii`).
    pub game: String,
    /// Seat names in the game's vocabulary, in seat order.
    pub seats: Vec<String>,
    /// Whether some decisions are taken by several seats at once, in secret.
    pub simultaneous_orders: bool,
    /// Whether some information is hidden from some seats.
    pub hidden_information: bool,
    /// Whether dice decide anything.
    pub chance: bool,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<Seat>,
    /// The level of victory in the scenario's words ("decisive", "marginal"), if it has levels.
    pub level: Option<String>,
    /// Why the game ended, in the rules' words.
    pub reason: String,
}

impl Outcome {
    /// What the game gave `seat`, for searches: 1 for a win, 0 for a loss, 0.5 for a draw.
    pub fn score(&self, seat: Seat) -> f64 {
        match self.winner {
            Some(w) if w == seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// Why an action was refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{reason}")]
pub struct Rejection {
    /// What is wrong and why, naming the rule where one applies.
    pub reason: String,
}

impl Rejection {
    /// A rejection with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Rejection {
            reason: reason.into(),
        }
    }
}

/// What applying an action changed that matters to undo and to records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applied {
    /// Hidden information was revealed to some seat by this action.
    pub revealed: bool,
}

/// A game: a plain, serialisable state and the rules as functions over it.
///
/// The state owns its [`Dice`]; every random number comes from there so that a seed and a
/// list of actions reproduce a game bit for bit.
pub trait Game: Clone + Serialize + Send + Sync + 'static {
    /// A small decision in the game's words, with a stable text notation
    /// ([`Game::action_text`], [`Game::parse_action`]).
    type Action: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// What one viewer may see of the state.
    type View: Serialize;

    /// The game's facts.
    fn facts(&self) -> Facts;
    /// The stable text notation of an action (names and hexes as printed on the counters and
    /// the map, which is why it takes the state).
    fn action_text(&self, action: &Self::Action) -> String;
    /// Reads an action's notation, naming what is wrong.
    fn parse_action(&self, text: &str) -> Result<Self::Action, String>;
    /// Who must decide now.
    fn pending(&self) -> Pending;
    /// Every action `seat` may take now; empty when the seat need not decide.
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;
    /// Applies a legal action, rolling dice from the state's own [`Dice`] and writing what
    /// happened to `log`. An illegal action is rejected with the reason. The state may be
    /// left half-changed on rejection (unless [`Game::REFUSES_UNCHANGED`]): callers apply to a
    /// copy (see [`crate::Session`]).
    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        log: &mut Log,
    ) -> Result<Applied, Rejection>;
    /// What `viewer` may see. The only way state leaves the engine.
    fn view(&self, viewer: Viewer) -> Self::View;
    /// How the game ended, once it has.
    fn outcome(&self) -> Option<Outcome>;
    /// The state's dice.
    fn dice(&self) -> &Dice;
    /// The state's dice, to load manually entered rolls.
    fn dice_mut(&mut self) -> &mut Dice;
    /// The map and counters as `viewer` sees them, for renderers.
    fn board(&self, viewer: Viewer) -> crate::board::Board;

    /// A state consistent with everything `seat` can see, with what it cannot see (other
    /// seats' secrets: hidden units, orders committed but not revealed) re-sampled from
    /// `rng`. Searches (information-set Monte Carlo tree search) call it once per iteration,
    /// so that an AI never reads what its seat may not see.
    ///
    /// The dice generator's future is hidden from every seat too: searches re-seed the
    /// copy's dice with [`Dice::reseed`] after calling this, so games need not. The view of
    /// `seat`, its legal actions and who must decide must be the same in the copy (the shared
    /// check [`crate::checks::RandomGames`] verifies it), and how much is drawn from `rng` may
    /// depend only on what `seat` sees, so that a search's choices do not depend on secrets.
    /// The default returns a copy, which is right only for a game in which every seat sees
    /// everything but the dice; a game with hidden information overrides it.
    fn determinize(&self, seat: Seat, rng: &mut dyn rand_core::RngCore) -> Self {
        let _ = (seat, rng);
        self.clone()
    }

    /// Whether [`Game::apply`] leaves the state exactly as it was when it rejects an action
    /// (the dice's record of the action begun aside, which [`crate::Dice::begin_action`]
    /// starts afresh before each action), so that a search may apply an action that the rules
    /// may refuse in its world to the state itself rather than to a copy. The shared check
    /// [`crate::checks::RandomGames`] verifies it for a game that says so.
    const REFUSES_UNCHANGED: bool = false;

    /// Whether [`Game::reuse_work`] can take anything over. A search keeps a copy of the
    /// state at each decision of its tree only for a game that says so.
    const REUSES_WORK: bool = false;

    /// Takes over from `earlier` what this state would otherwise work out again, where
    /// `earlier` has already worked it out and it holds here too. `earlier` is the world a
    /// search first reached the same decision of its tree in (re-sampled for the searching
    /// seat, never the real state); each later iteration replays
    /// the tree's decisions in another re-sampled world ([`Game::determinize`]), which may
    /// or may not have come to the same position. Only results that follow from the rest of
    /// the state may be taken over, so that nothing a game does depends on it. By default
    /// nothing.
    fn reuse_work(&mut self, earlier: &Self) {
        let _ = earlier;
    }

    /// How good the state looks for `seat`, from 0 (lost) to 1 (won), for searches cut short
    /// before the game ends. Called on re-sampled states ([`Game::determinize`]), so it may
    /// read the whole state. The default knows nothing: 0.5.
    fn evaluate(&self, seat: Seat) -> f64 {
        let _ = seat;
        0.5
    }

    /// `action` (one of `seat`'s legal actions) described for a player choosing it: the
    /// counters it is about, where it goes, its odds and modifiers. Only what `seat` may see
    /// goes into it. The default knows only the notation.
    fn describe_action(&self, seat: Seat, action: &Self::Action) -> crate::ActionInfo {
        let _ = seat;
        crate::ActionInfo::from_notation(self.action_text(action))
    }

    /// Numbers a finished game reports for batch simulation, beyond who won: losses per
    /// side (name them `losses`, with the seat), turns played, anything worth averaging over
    /// many games. The default reports none.
    fn stats(&self) -> Vec<Stat> {
        Vec::new()
    }
}

/// A number a game reports about itself for batch simulation ([`Game::stats`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// What it counts, a short lower-case name (`losses`, `turns`).
    pub name: String,
    /// The seat it belongs to, if it is per seat (`losses` of each side).
    pub seat: Option<Seat>,
    /// Its value.
    pub value: f64,
}

impl Stat {
    /// A stat of the whole game.
    pub fn game(name: impl Into<String>, value: f64) -> Self {
        Stat {
            name: name.into(),
            seat: None,
            value,
        }
    }

    /// A stat of one seat.
    pub fn seat(name: impl Into<String>, seat: Seat, value: f64) -> Self {
        Stat {
            name: name.into(),
            seat: Some(seat),
            value,
        }
    }
}

/// How to start a game: scenario, options, seed, dice mode and an optional position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The scenario id within the game (`hattin`).
    pub scenario: String,
    /// Names of the optional and advanced rules in use.
    pub options: Vec<String>,
    /// The seed of the game's dice.
    pub seed: u64,
    /// Where the dice come from.
    pub dice: crate::dice::DiceMode,
    /// A position file's text to start from instead of the scenario's set-up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

impl Setup {
    /// A scenario's own set-up, without options, with seeded dice.
    pub fn seeded(scenario: &str, seed: u64) -> Self {
        Setup {
            scenario: scenario.into(),
            options: Vec::new(),
            seed,
            dice: crate::dice::DiceMode::Seeded,
            position: None,
        }
    }

    /// Checks that the scenario is one of `valid` (ids within `game`), naming them all if not.
    pub fn check_scenario(&self, game: &str, valid: &[&str]) -> Result<(), crate::DataErrors> {
        if valid.contains(&self.scenario.as_str()) {
            return Ok(());
        }
        let valid: Vec<String> = valid.iter().map(|s| format!("{game}/{s}")).collect();
        Err(crate::DataErrors::command_line(format!(
            "unknown scenario `{}`; valid: {}",
            self.scenario,
            valid.join(", ")
        )))
    }
}

/// A scenario as listed by `crusades scenarios`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioInfo {
    /// The scenario id within the game.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Seat names.
    pub seats: Vec<String>,
    /// The options it accepts, with a line each saying what they do.
    pub options: Vec<OptionInfo>,
}

/// An optional or advanced rule a scenario accepts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionInfo {
    /// The name given to `--option`.
    pub name: String,
    /// What it does, with its rule case.
    pub about: String,
}

/// A game that can be started from data.
pub trait Startable: Game {
    /// The scenarios of this game.
    fn scenarios(data: &crate::data::DataSet)
        -> Result<Vec<ScenarioInfo>, crate::data::DataErrors>;
    /// A new game as `setup` says, from the data in `data`.
    fn start(setup: &Setup, data: &crate::data::DataSet) -> Result<Self, crate::data::DataErrors>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_seat_to_decide_means_the_game_is_over() {
        assert_eq!(Pending::from_seats(Vec::new()), Pending::Over);
        let both = Pending::from_seats(vec![Seat(0), Seat(1)]);
        assert_eq!(both.seats(), [Seat(0), Seat(1)]);
    }

    #[test]
    fn an_outcome_scores_win_loss_and_draw() {
        let won = Outcome {
            winner: Some(Seat(1)),
            level: None,
            reason: "rout".into(),
        };
        assert_eq!((won.score(Seat(1)), won.score(Seat(0))), (1.0, 0.0));
        let drawn = Outcome {
            winner: None,
            ..won
        };
        assert_eq!(drawn.score(Seat(0)), 0.5);
    }

    #[test]
    fn an_unknown_scenario_is_refused_with_the_valid_ones() {
        let mut setup = Setup {
            scenario: "hattin".into(),
            options: Vec::new(),
            seed: 1,
            dice: crate::DiceMode::Seeded,
            position: None,
        };
        assert!(setup
            .check_scenario("crusades-ii", &["hattin", "hab"])
            .is_ok());
        setup.scenario = "acre".into();
        let e = setup
            .check_scenario("crusades-ii", &["hattin", "hab"])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "(command line): unknown scenario `acre`; valid: crusades-ii/hattin, crusades-ii/hab"
        );
    }
}
