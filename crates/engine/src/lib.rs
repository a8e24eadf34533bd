//! The engine every game of the project stands on: the game abstraction, dice, events,
//! data loading with provenance, game records, replay, undo and the per-seat view boundary.
//! It knows no particular game.

pub mod board;
pub mod checks;
pub mod data;
pub mod describe;
pub mod dice;
pub mod event;
pub mod game;
pub mod record;
pub mod render;
pub mod session;
#[cfg(feature = "toy")]
pub mod toy;

pub use board::Board;
pub use checks::{
    assert_golden, fnv, least_ns_per_call, random_games, secrecy_check, CheckFailure, GoldenWalk,
    RandomGames, RandomGamesReport, FNV_START,
};
pub use data::{
    hex_id, hex_list, hexside, AuditEntry, DataError, DataErrors, DataSet, Provenance, Source,
};
pub use describe::ActionInfo;
pub use dice::{Dice, DiceError, DiceMode, Die};
pub use event::{visible_events, Event, Log, Modifier, RollRecord};
pub use game::{
    Applied, Facts, Game, OptionInfo, Outcome, Pending, Rejection, ScenarioInfo, Seat, Setup,
    Startable, Stat, Viewer, Visibility,
};
pub use record::{state_hash, GameRecord, RecordError, RecordedAction};
pub use render::render_svg;
pub use session::{ActError, SeatView, Session, SessionError, UndoError};
