//! Shared by the integration tests: a new Third Crusade session and a seeded random walk
//! through a whole game (every seat taking random legal actions, committing now and then).

#![allow(dead_code)]

use engine::{Game, Seat, Session, Setup};
use the_crusades::state::Phase;
use the_crusades::Action;

/// A new game of the Third Crusade.
pub fn session(seed: u64) -> Session<the_crusades::State> {
    let setup = Setup::seeded("third-crusade", seed);
    Session::new(setup, &the_crusades::builtin_data(), "the-crusades").expect("starts")
}

/// A small seeded generator for choosing actions (not the game's dice).
pub struct Chooser(u64);

impl Chooser {
    /// From a seed.
    pub fn new(seed: u64) -> Self {
        Chooser(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays a whole random game from `seed`, calling `look` before every action with the
/// session; seats writing orders commit about one time in eight. Returns the actions taken.
pub fn random_game(
    seed: u64,
    max_actions: usize,
    mut look: impl FnMut(&Session<the_crusades::State>),
) -> usize {
    let mut s = session(seed);
    let mut pick = Chooser::new(seed);
    for n in 0..max_actions {
        look(&s);
        let pending = s.state().pending_seats();
        if pending.is_empty() {
            return n;
        }
        let seat: Seat = pending[pick.below(pending.len())];
        let legal = s.state().legal_actions(seat);
        assert!(!legal.is_empty(), "a pending seat has a legal action");
        let action = if s.state().phase == Phase::Orders && pick.below(8) == 0 {
            Action::Commit
        } else {
            legal[pick.below(legal.len())].clone()
        };
        s.act_action(seat, &action, &[])
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
    max_actions
}
