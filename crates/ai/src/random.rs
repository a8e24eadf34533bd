//! The random player: uniform over the seat's legal actions.

use engine::{Game, Seat};

use crate::{below, rng, Player, Rng};

/// Chooses uniformly among the seat's legal actions, from a generator of its own.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        RandomPlayer { rng: rng(seed) }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn choose(&mut self, state: &G, seat: Seat) -> G::Action {
        let mut legal = state.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "seat {} has no legal action to choose from",
            seat.0
        );
        let i = below(&mut self.rng, legal.len());
        legal.swap_remove(i)
    }
}
