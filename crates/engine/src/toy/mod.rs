//! Small test games, so that the engine, the registry, the command line and the AI players
//! are tested without any real game (with the `toy` feature; the engine's own tests always
//! have it):
//!
//! - [`race`] (`toy-race/race`): a two-seat race with secret simultaneous bids, dice, manual
//!   dice, undo barriers, a data file with provenance and position files: what the engine's
//!   sessions and shared checks, the registry and the command line need. Unlisted options
//!   break it on purpose, so that the shared checks can be seen to fail.
//! - [`prizes`]: a two-seat bidding game of skill in which each seat holds a dealt secret,
//!   for the AI players: a search must beat a random player clearly, and must not read the
//!   other seat's secret.

use crate::{Facts, Seat};

pub mod prizes;
pub mod race;

/// The first seat of both games.
pub const EAST: Seat = Seat(0);
/// The second seat of both games.
pub const WEST: Seat = Seat(1);
/// The seats' names.
const SEATS: [&str; 2] = ["East", "West"];

/// The facts of a toy game: two seats deciding at once in secret, with dice.
fn facts(game: &str) -> Facts {
    Facts {
        game: game.into(),
        seats: SEATS.iter().map(|s| s.to_string()).collect(),
        simultaneous_orders: true,
        hidden_information: true,
        chance: true,
    }
}

/// The seat with the higher score; `None` for a tie.
fn winner(east: u32, west: u32) -> Option<Seat> {
    match east.cmp(&west) {
        std::cmp::Ordering::Greater => Some(EAST),
        std::cmp::Ordering::Less => Some(WEST),
        std::cmp::Ordering::Equal => None,
    }
}
