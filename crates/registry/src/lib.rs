//! Every game behind one object-safe interface, so that the command line, the AI and the
//! server never name a particular game (DESIGN.md, "Layers").
//!
//! - [`AnyGame`] is a game in play, whatever the game: it speaks action notations (text),
//!   seat names, [`engine::Event`]s and JSON views. Every [`engine::Session`] of a
//!   [`Startable`] game is one.
//! - [`games`] is the static table of games ([`GameEntry`]), each with its id, its built-in
//!   data, its scenarios, constructors and its data audit.
//! - [`all_data`] gathers the built-in data of every game, with an override folder on top.
//! - [`simulate`] plays batches of games between AI players ([`ai::PlayerSpec`]) and
//!   [`ai_move`] lets an AI take a seat's decision in a game in play, for every game through
//!   its entry's typed functions.
//! - [`new_game`], [`load`], [`from_record`] and [`replay`] start and rebuild games from a
//!   scenario id (`crusades-ii/hattin`) or a saved [`GameRecord`]; [`scenarios`] and
//!   [`audit`] list what every game offers.
//!
//! Errors are [`RegistryError`]s, which say whether they are the user's fault
//! ([`RegistryError::is_bad_input`]) or not (input/output).

#![warn(missing_docs)]

use std::any::Any;
use std::path::Path;

use ai::{Doctrine, NoDoctrine, PlayerSpec};
use engine::{
    ActError, ActionInfo, AuditEntry, Board, DataErrors, DataSet, DiceMode, Event, Facts,
    GameRecord, OptionInfo, Outcome, Pending, RecordError, RecordedAction, ScenarioInfo, Seat,
    Session, SessionError, Setup, Startable, UndoError, Viewer,
};
use serde::{Deserialize, Serialize};

mod duel;
mod simulate;
#[cfg(any(test, feature = "toy"))]
pub use engine::toy::race as toy;

pub use duel::{judge, Duel, DuelResult, JUDGE_MARGIN};
pub use simulate::{
    game_seed, player_seed, Batch, Bin, Length, OutcomeCount, Proportion, SeatSummary,
    SimulateError, StatSummary, Summary, WINDOW,
};

#[cfg(test)]
mod tests;

/// A game in play, whatever the game: the object-safe face of [`engine::Session`].
///
/// Actions are text in the game's notation; seats are [`Seat`]s named by
/// [`AnyGame::seat_names`]; what a player may see leaves only through [`AnyGame::view_json`],
/// [`AnyGame::events`] and [`AnyGame::board`].
pub trait AnyGame: Send {
    /// The game's facts (seats, simultaneous orders, hidden information, chance).
    fn facts(&self) -> Facts;
    /// The game's id (`crusades-ii`).
    fn game_id(&self) -> String;
    /// The full scenario id (`crusades-ii/hattin`).
    fn scenario(&self) -> String;
    /// Seat names, in seat order.
    fn seat_names(&self) -> Vec<String>;
    /// The seat of this name (ASCII case ignored).
    fn seat_named(&self, name: &str) -> Option<Seat>;
    /// The name of a seat (`?` for a seat the game does not have).
    fn seat_name(&self, seat: Seat) -> String;
    /// Who must decide now.
    fn pending(&self) -> Pending;
    /// The notations of every action `seat` may take now (empty when it need not decide).
    fn legal_actions(&self, seat: Seat) -> Vec<String>;
    /// Every action `seat` may take now, described for a client: the counters it is about,
    /// where it goes, its odds and modifiers (only what `seat` may see).
    fn describe_actions(&self, seat: Seat) -> Vec<ActionInfo>;
    /// Takes an action given in notation with the dice entered for it (manual dice; empty
    /// otherwise). Returns the events `seat` may see. On error the game is unchanged.
    fn act(&mut self, seat: Seat, text: &str, dice: &[u8]) -> Result<Vec<Event>, ActError>;
    /// Takes back `seat`'s last action where the rules allow; returns it.
    fn undo(&mut self, seat: Seat) -> Result<RecordedAction, UndoError>;
    /// What `viewer` may see, as JSON: the serialised [`engine::SeatView`].
    fn view_json(&self, viewer: Viewer) -> serde_json::Value;
    /// The game's own view of its state for `viewer`, as JSON: the `state` of
    /// [`AnyGame::view_json`] alone, without the legal actions and log that building a whole
    /// view costs.
    fn view_state_json(&self, viewer: Viewer) -> serde_json::Value;
    /// Every event so far that `viewer` may see, oldest first.
    fn events(&self, viewer: Viewer) -> Vec<Event>;
    /// The map and counters as `viewer` sees them.
    fn board(&self, viewer: Viewer) -> Board;
    /// How the game ended, once it has.
    fn outcome(&self) -> Option<Outcome>;
    /// The record (every action, secret ones included): for saving, never for players.
    fn record(&self) -> &GameRecord;
    /// The hash of the current state.
    fn state_hash(&self) -> String;
    /// Saves the record atomically to `path`.
    fn save(&self, path: &Path) -> Result<(), RecordError>;
    /// The game as [`Any`], for its entry's typed functions ([`GameEntry::ai_move`]).
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<G: Startable> AnyGame for Session<G> {
    fn facts(&self) -> Facts {
        self.state().facts()
    }

    fn game_id(&self) -> String {
        self.record().game.clone()
    }

    fn scenario(&self) -> String {
        format!("{}/{}", self.record().game, self.record().scenario)
    }

    fn seat_names(&self) -> Vec<String> {
        self.state().facts().seats
    }

    fn seat_named(&self, name: &str) -> Option<Seat> {
        Session::seat_named(self, name)
    }

    fn seat_name(&self, seat: Seat) -> String {
        Session::seat_name(self, seat)
    }

    fn pending(&self) -> Pending {
        self.state().pending()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<String> {
        let state = self.state();
        state
            .legal_actions(seat)
            .iter()
            .map(|a| state.action_text(a))
            .collect()
    }

    fn describe_actions(&self, seat: Seat) -> Vec<ActionInfo> {
        let state = self.state();
        state
            .legal_actions(seat)
            .iter()
            .map(|a| state.describe_action(seat, a))
            .collect()
    }

    fn act(&mut self, seat: Seat, text: &str, dice: &[u8]) -> Result<Vec<Event>, ActError> {
        Session::act(self, seat, text, dice)
    }

    fn undo(&mut self, seat: Seat) -> Result<RecordedAction, UndoError> {
        Session::undo(self, seat)
    }

    fn view_json(&self, viewer: Viewer) -> serde_json::Value {
        serde_json::to_value(self.view(viewer)).expect("a game's view must serialise to JSON")
    }

    fn view_state_json(&self, viewer: Viewer) -> serde_json::Value {
        serde_json::to_value(self.state().view(viewer)).expect("a game's view must serialise")
    }

    fn events(&self, viewer: Viewer) -> Vec<Event> {
        self.visible_log(viewer).into_iter().cloned().collect()
    }

    fn board(&self, viewer: Viewer) -> Board {
        Session::board(self, viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.state().outcome()
    }

    fn record(&self) -> &GameRecord {
        Session::record(self)
    }

    fn state_hash(&self) -> String {
        Session::state_hash(self).to_string()
    }

    fn save(&self, path: &Path) -> Result<(), RecordError> {
        Session::save(self, path)
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A constructor of a game from a setup, given the game's id.
pub type NewFn = fn(&str, Setup, &DataSet) -> Result<Box<dyn AnyGame>, SessionError>;
/// A constructor of a game from its record.
pub type LoadFn = fn(GameRecord, &DataSet) -> Result<Box<dyn AnyGame>, SessionError>;
/// A game's scenarios, read from the data.
pub type ScenariosFn = fn(&DataSet) -> Result<Vec<ScenarioInfo>, DataErrors>;
/// A game's data audit: every value with its provenance.
pub type AuditFn = fn(&DataSet) -> Result<Vec<AuditEntry>, DataErrors>;
/// Plays a batch of the game, given its id, calling the last argument once per game played.
pub type SimulateFn =
    fn(&str, &Plan, &DataSet, &(dyn Fn() + Sync)) -> Result<Summary, SimulateError>;
/// Lets an AI player take a seat's decision in a game of this entry, with this seed.
pub type AiMoveFn = fn(&mut dyn AnyGame, Seat, &PlayerSpec, u64) -> Result<AiMove, RegistryError>;
/// Plays a [`Duel`] of the game of this id with this dice seed (errors say what failed).
pub type DuelFn = fn(&str, &Duel, &DataSet, u64) -> Result<DuelResult, String>;
/// Checks that a player can be made for the game of this id.
pub type CheckPlayerFn = fn(&str, &PlayerSpec) -> Result<(), ai::AiError>;

/// A batch to play, as [`simulate`] resolves it for an entry's [`GameEntry::simulate`].
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The full scenario id (`crusades-ii/hab`).
    pub scenario: String,
    /// How to start each game (its seed is replaced by each game's own).
    pub setup: Setup,
    /// Seat names, in seat order.
    pub seats: Vec<String>,
    /// One player per seat, in seat order.
    pub players: Vec<PlayerSpec>,
    /// How many games, from which seed, on how many threads.
    pub batch: Batch,
}

/// What an AI did in a game in play ([`ai_move`]).
#[derive(Clone, Debug, PartialEq)]
pub struct AiMove {
    /// The action taken, in notation. It may be secret: show it only to its seat.
    pub action: String,
    /// The action's events that its seat may see.
    pub events: Vec<Event>,
}

/// One game of the table: its id, built-in data, scenarios, constructors and audit.
#[derive(Clone, Copy)]
pub struct GameEntry {
    /// The game's id, the first part of its scenario ids (`crusades-ii`).
    pub id: &'static str,
    /// The game's built-in data files, paths relative to the data root (`crusades-ii/...`).
    pub data: fn() -> DataSet,
    /// Its scenarios.
    pub scenarios: ScenariosFn,
    /// Starts a game.
    pub new: NewFn,
    /// Rebuilds a game from its record.
    pub load: LoadFn,
    /// Every value of its data with its provenance.
    pub audit: AuditFn,
    /// Plays batches of games between AI players.
    pub simulate: SimulateFn,
    /// Lets an AI take a decision in a game in play.
    pub ai_move: AiMoveFn,
    /// Plays one game between two AI players, judged if cut short (strength measurement).
    pub duel: DuelFn,
    /// Checks that a player can be made for this game (`heuristic` needs a doctrine).
    pub check_player: CheckPlayerFn,
    /// Whether the game has a doctrine of play: a `heuristic` player.
    pub heuristic: bool,
}

impl std::fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEntry").field("id", &self.id).finish()
    }
}

impl GameEntry {
    /// The AI players the game has, as player specs' first words: `random`, `heuristic`
    /// where it has a doctrine, `mcts`.
    pub fn players(&self) -> Vec<String> {
        ["random", "heuristic", "mcts"]
            .into_iter()
            .filter(|p| *p != "heuristic" || self.heuristic)
            .map(String::from)
            .collect()
    }

    /// Starts a game of this entry as `setup` says.
    pub fn start(&self, setup: Setup, data: &DataSet) -> Result<Box<dyn AnyGame>, SessionError> {
        (self.new)(self.id, setup, data)
    }
}

fn new_session<G: Startable>(
    id: &str,
    setup: Setup,
    data: &DataSet,
) -> Result<Box<dyn AnyGame>, SessionError> {
    Ok(Box::new(Session::<G>::new(setup, data, id)?))
}

fn load_session<G: Startable>(
    record: GameRecord,
    data: &DataSet,
) -> Result<Box<dyn AnyGame>, SessionError> {
    Ok(Box::new(Session::<G>::from_record(record, data)?))
}

fn simulate_session<G: Startable, D: Doctrine<G>>(
    id: &str,
    plan: &Plan,
    data: &DataSet,
    progress: &(dyn Fn() + Sync),
) -> Result<Summary, SimulateError> {
    simulate::simulate_games::<G, D>(id, plan, data, progress)
}

fn ai_move_session<G: Startable, D: Doctrine<G>>(
    game: &mut dyn AnyGame,
    seat: Seat,
    spec: &PlayerSpec,
    seed: u64,
) -> Result<AiMove, RegistryError> {
    let id = game.game_id();
    let name = game.seat_name(seat);
    let fail = |message: String| RegistryError::AiMove {
        seat: name.clone(),
        message,
    };
    let session = game
        .as_any_mut()
        .downcast_mut::<Session<G>>()
        .ok_or_else(|| fail(format!("the game in play is not a game of {id}")))?;
    if session.state().legal_actions(seat).is_empty() {
        return Err(fail(format!("{name} has no decision to make now")));
    }
    let mut player = spec.build::<G, D>(&id, seed)?;
    let action = player.choose(session.state(), seat);
    let text = session.state().action_text(&action);
    let events = session
        .act_action(seat, &action, &[])
        .map_err(|e| fail(format!("its action `{text}` was refused: {e}")))?;
    Ok(AiMove {
        action: text,
        events,
    })
}

fn check_player_session<G: Startable, D: Doctrine<G>>(
    id: &str,
    spec: &PlayerSpec,
) -> Result<(), ai::AiError> {
    spec.build::<G, D>(id, 0).map(drop)
}

/// The table entry of game `G` under `id`, with its built-in data and audit, and no
/// heuristic player.
pub fn register<G: Startable>(
    id: &'static str,
    data: fn() -> DataSet,
    audit: AuditFn,
) -> GameEntry {
    register_with::<G, NoDoctrine>(id, data, audit)
}

/// The table entry of game `G` under `id`, whose heuristic player is `D`'s.
pub fn register_with<G: Startable, D: Doctrine<G>>(
    id: &'static str,
    data: fn() -> DataSet,
    audit: AuditFn,
) -> GameEntry {
    GameEntry {
        id,
        data,
        scenarios: G::scenarios,
        new: new_session::<G>,
        load: load_session::<G>,
        audit,
        simulate: simulate_session::<G, D>,
        ai_move: ai_move_session::<G, D>,
        duel: duel::play_duel::<G, D>,
        check_player: check_player_session::<G, D>,
        heuristic: D::policy().is_some(),
    }
}

/// Every game this program knows.
pub fn games() -> Vec<GameEntry> {
    [
        crusades_ii_entry(),
        the_crusades_entry(),
        acre_entry(),
        toy_entry(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Crusades II, with its doctrine of play (`heuristic`, and the guide of its searches).
fn crusades_ii_entry() -> Option<GameEntry> {
    Some(register_with::<crusades_ii::State, crusades_ii::Doctrine>(
        "crusades-ii",
        crusades_ii::builtin_data,
        crusades_ii::audit,
    ))
}

/// The Crusades (SPI): the Third Crusade, with its doctrine of play (`heuristic`).
fn the_crusades_entry() -> Option<GameEntry> {
    Some(
        register_with::<the_crusades::State, the_crusades::Doctrine>(
            "the-crusades",
            the_crusades::builtin_data,
            the_crusades::audit,
        ),
    )
}

/// The Art of Siege: Acre (SPI): the siege of Acre, 1191.
fn acre_entry() -> Option<GameEntry> {
    Some(register_with::<acre::State, acre::Doctrine>(
        "acre",
        acre::builtin_data,
        acre::audit,
    ))
}

/// The toy race, in tests and with the `toy` feature.
fn toy_entry() -> Option<GameEntry> {
    #[cfg(any(test, feature = "toy"))]
    return Some(register::<toy::Race>(toy::GAME, toy::data, toy::audit));
    #[cfg(not(any(test, feature = "toy")))]
    None
}

/// The game of this id.
pub fn game(id: &str) -> Option<GameEntry> {
    games().into_iter().find(|g| g.id == id)
}

/// Why a game could not be started, loaded or listed.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// A scenario id that is not `GAME/SCENARIO` of a known game and scenario.
    #[error("unknown scenario `{id}` (scenarios: {})", known.join(", "))]
    UnknownScenario {
        /// The id given.
        id: String,
        /// Every scenario id.
        known: Vec<String>,
    },
    /// A record or id of a game this program does not have.
    #[error("unknown game `{game}` (games: {})", known.join(", "))]
    UnknownGame {
        /// The game asked for.
        game: String,
        /// Every game id.
        known: Vec<String>,
    },
    /// An option the scenario does not accept.
    #[error("scenario {scenario} has no option `{option}` ({})",
        if known.is_empty() { "it has no options".to_string() } else { format!("options: {}", known.join(", ")) })]
    UnknownOption {
        /// The option given.
        option: String,
        /// The full scenario id.
        scenario: String,
        /// The options it accepts.
        known: Vec<String>,
    },
    /// The data files are wrong.
    #[error("bad data:\n{0}")]
    Data(DataErrors),
    /// The game could not be started or replayed.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The record could not be read.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A seat name the scenario does not have.
    #[error("no seat `{seat}` in {scenario} (seats: {})", known.join(", "))]
    UnknownSeat {
        /// The name given.
        seat: String,
        /// The full scenario id.
        scenario: String,
        /// Its seat names.
        known: Vec<String>,
    },
    /// Two players for one seat.
    #[error("seat {seat} is given two players: give each seat at most one")]
    DuplicateSeat {
        /// The seat's name.
        seat: String,
    },
    /// A player could not be made (a bad spec, or no heuristic for the game).
    #[error(transparent)]
    Ai(#[from] ai::AiError),
    /// A batch of games stopped.
    #[error(transparent)]
    Simulate(SimulateError),
    /// An AI could not take a decision in a game in play.
    #[error("the AI player of {seat} could not play: {message}")]
    AiMove {
        /// The seat's name.
        seat: String,
        /// Why.
        message: String,
    },
}

impl From<SimulateError> for RegistryError {
    fn from(e: SimulateError) -> Self {
        match e {
            SimulateError::Player(a) => RegistryError::Ai(a),
            e => RegistryError::Simulate(e),
        }
    }
}

impl From<DataErrors> for RegistryError {
    fn from(e: DataErrors) -> Self {
        RegistryError::Data(e)
    }
}

impl RegistryError {
    /// Whether the error is the user's (an unknown name, bad data, a bad or edited save), as
    /// opposed to a failure to read or write a file.
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            RegistryError::Record(RecordError::Io { .. })
                | RegistryError::Session(SessionError::Record(RecordError::Io { .. }))
                | RegistryError::Simulate(_)
                | RegistryError::AiMove { .. }
        )
    }
}

/// The built-in data of every game, with the files of `override_dir` (same relative paths,
/// `crusades-ii/tables.toml`) replacing or adding to them.
pub fn all_data(override_dir: Option<&Path>) -> Result<DataSet, DataErrors> {
    let sets: Vec<DataSet> = games().iter().map(|g| (g.data)()).collect();
    let mut files: Vec<(&str, &str)> = Vec::new();
    for set in &sets {
        for path in set.paths_under("") {
            files.push((path, set.text(path).expect("listed path")));
        }
    }
    let mut data = DataSet::from_files(files);
    if let Some(dir) = override_dir {
        if !dir.is_dir() {
            return Err(engine::DataError {
                file: dir.display().to_string(),
                line: None,
                message: "the data override folder does not exist or is not a folder".into(),
            }
            .into());
        }
        data.override_from(dir)?;
    }
    Ok(data)
}

/// A scenario of some game, as `crusades scenarios` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scenario {
    /// The full id (`crusades-ii/hattin`).
    pub id: String,
    /// The game's id (`crusades-ii`).
    pub game: String,
    /// The title.
    pub title: String,
    /// Seat names, in seat order.
    pub seats: Vec<String>,
    /// The options it accepts.
    pub options: Vec<OptionInfo>,
    /// The AI players it has, as player specs' first words (`random`, `heuristic`, `mcts`).
    pub players: Vec<String>,
}

/// Every scenario of every game, in table order. Data errors of all games are reported
/// together.
pub fn scenarios(data: &DataSet) -> Result<Vec<Scenario>, DataErrors> {
    let mut out = Vec::new();
    let mut errors = DataErrors::default();
    for g in games() {
        match (g.scenarios)(data) {
            Ok(list) => out.extend(list.into_iter().map(|s| Scenario {
                id: format!("{}/{}", g.id, s.id),
                game: g.id.to_string(),
                title: s.title,
                seats: s.seats,
                options: s.options,
                players: g.players(),
            })),
            Err(e) => errors.0.extend(e.0),
        }
    }
    errors.into_result(out)
}

/// Every value of every game's data with its provenance. Data errors of all games are
/// reported together.
pub fn audit(data: &DataSet) -> Result<Vec<AuditEntry>, DataErrors> {
    let mut out = Vec::new();
    let mut errors = DataErrors::default();
    for g in games() {
        match (g.audit)(data) {
            Ok(list) => out.extend(list),
            Err(e) => errors.0.extend(e.0),
        }
    }
    errors.into_result(out)
}

/// The game and scenario of a full scenario id, checked against the data.
pub fn find_scenario(id: &str, data: &DataSet) -> Result<(GameEntry, Scenario), RegistryError> {
    let unknown = |data: &DataSet| -> RegistryError {
        match scenarios(data) {
            Ok(list) => RegistryError::UnknownScenario {
                id: id.to_string(),
                known: list.into_iter().map(|s| s.id).collect(),
            },
            Err(e) => RegistryError::Data(e),
        }
    };
    let Some((game_id, _)) = id.split_once('/') else {
        return Err(unknown(data));
    };
    let Some(entry) = game(game_id) else {
        return Err(unknown(data));
    };
    let list = (entry.scenarios)(data)?;
    match list
        .into_iter()
        .find(|s| format!("{}/{}", entry.id, s.id) == id)
    {
        Some(s) => Ok((
            entry,
            Scenario {
                id: id.to_string(),
                game: entry.id.to_string(),
                title: s.title,
                seats: s.seats,
                options: s.options,
                players: entry.players(),
            },
        )),
        None => Err(unknown(data)),
    }
}

/// Starts a game of the scenario `scenario_id` (`crusades-ii/hattin`) with these options,
/// seed and dice, from the scenario's set-up or from a position file's text.
pub fn new_game(
    scenario_id: &str,
    options: &[String],
    seed: u64,
    dice: DiceMode,
    position: Option<String>,
    data: &DataSet,
) -> Result<Box<dyn AnyGame>, RegistryError> {
    let (entry, setup, _) = resolve(scenario_id, options, seed, dice, position, data)?;
    Ok(entry.start(setup, data)?)
}

/// The game, set-up and scenario of a scenario id with these options (checked).
fn resolve(
    scenario_id: &str,
    options: &[String],
    seed: u64,
    dice: DiceMode,
    position: Option<String>,
    data: &DataSet,
) -> Result<(GameEntry, Setup, Scenario), RegistryError> {
    let (entry, scenario) = find_scenario(scenario_id, data)?;
    for o in options {
        if !scenario.options.iter().any(|k| k.name == *o) {
            return Err(RegistryError::UnknownOption {
                option: o.clone(),
                scenario: scenario.id.clone(),
                known: scenario.options.iter().map(|k| k.name.clone()).collect(),
            });
        }
    }
    let local = scenario_id
        .split_once('/')
        .map_or(scenario_id, |(_, s)| s)
        .to_string();
    let setup = Setup {
        scenario: local,
        options: options.to_vec(),
        seed,
        dice,
        position,
    };
    Ok((entry, setup, scenario))
}

/// Plays a batch of games of the scenario `scenario_id` with these options: `players` names
/// a player for some seats by seat name (ASCII case ignored); the others are
/// [`PlayerSpec::Random`]. `progress` is called once per game played, from any thread. See
/// [`Summary`] for what it finds and [`Batch`] for the seeds.
pub fn simulate(
    scenario_id: &str,
    options: &[String],
    players: &[(String, PlayerSpec)],
    batch: Batch,
    data: &DataSet,
    progress: &(dyn Fn() + Sync),
) -> Result<Summary, RegistryError> {
    let (entry, setup, scenario) = resolve(
        scenario_id,
        options,
        batch.seed,
        DiceMode::Seeded,
        None,
        data,
    )?;
    let mut specs: Vec<Option<PlayerSpec>> = vec![None; scenario.seats.len()];
    for (name, spec) in players {
        let i = scenario
            .seats
            .iter()
            .position(|s| s.eq_ignore_ascii_case(name))
            .ok_or_else(|| RegistryError::UnknownSeat {
                seat: name.clone(),
                scenario: scenario.id.clone(),
                known: scenario.seats.clone(),
            })?;
        if specs[i].replace(*spec).is_some() {
            return Err(RegistryError::DuplicateSeat {
                seat: scenario.seats[i].clone(),
            });
        }
    }
    let plan = Plan {
        scenario: scenario.id.clone(),
        setup,
        seats: scenario.seats.clone(),
        players: specs
            .into_iter()
            .map(|s| s.unwrap_or(PlayerSpec::Random))
            .collect(),
        batch,
    };
    Ok((entry.simulate)(entry.id, &plan, data, progress)?)
}

/// Checks that an AI player of kind `spec` can play `game` (a `heuristic` needs the game's
/// doctrine), before any move is asked of it.
pub fn check_player(game: &dyn AnyGame, spec: &PlayerSpec) -> Result<(), RegistryError> {
    let id = game.game_id();
    let entry = self::game(&id).ok_or_else(|| RegistryError::UnknownGame {
        game: id.clone(),
        known: games().iter().map(|g| g.id.to_string()).collect(),
    })?;
    Ok((entry.check_player)(&id, spec)?)
}

/// Lets an AI player of kind `spec`, with its choices fixed by `seed`, take `seat`'s
/// decision in a game in play. The player sees only what `seat` may see. Returns the action
/// (which may be secret) and its events that `seat` may see.
pub fn ai_move(
    game: &mut dyn AnyGame,
    seat: Seat,
    spec: &PlayerSpec,
    seed: u64,
) -> Result<AiMove, RegistryError> {
    let id = game.game_id();
    let entry = self::game(&id).ok_or_else(|| RegistryError::UnknownGame {
        game: id.clone(),
        known: games().iter().map(|g| g.id.to_string()).collect(),
    })?;
    (entry.ai_move)(game, seat, spec, seed)
}

/// Rebuilds a game from its record: finds its game, starts it and replays every action,
/// checking the final state hash.
pub fn from_record(record: GameRecord, data: &DataSet) -> Result<Box<dyn AnyGame>, RegistryError> {
    let Some(entry) = game(&record.game) else {
        return Err(RegistryError::UnknownGame {
            game: record.game.clone(),
            known: games().iter().map(|g| g.id.to_string()).collect(),
        });
    };
    Ok((entry.load)(record, data)?)
}

/// Reads a saved game from `path` and rebuilds it (see [`from_record`]).
pub fn load(path: &Path, data: &DataSet) -> Result<Box<dyn AnyGame>, RegistryError> {
    from_record(GameRecord::load(path)?, data)
}

/// What replaying a record found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayReport {
    /// The game's id.
    pub game: String,
    /// The full scenario id.
    pub scenario: String,
    /// How many actions were replayed.
    pub actions: usize,
    /// The state hash the record says.
    pub expected: String,
    /// The state hash the replay reached.
    pub found: String,
    /// Whether they are the same.
    pub matches: bool,
    /// Whether the game's data files differ from those the record was saved with.
    pub data_changed: bool,
}

/// Replays a record and compares the final state hash with the record's. A hash mismatch is
/// reported, not an error; an action that does not replay is an error.
pub fn replay(record: GameRecord, data: &DataSet) -> Result<ReplayReport, RegistryError> {
    let mut report = ReplayReport {
        game: record.game.clone(),
        scenario: format!("{}/{}", record.game, record.scenario),
        actions: record.actions.len(),
        expected: record.state_hash.clone(),
        found: record.state_hash.clone(),
        matches: true,
        data_changed: data.version(&format!("{}/", record.game)) != record.data_version,
    };
    match from_record(record, data) {
        Ok(_) => Ok(report),
        Err(RegistryError::Session(SessionError::HashMismatch {
            found,
            data_changed,
            ..
        })) => {
            report.found = found;
            report.matches = false;
            report.data_changed = data_changed;
            Ok(report)
        }
        Err(e) => Err(e),
    }
}
