//! A game's doctrine of play as a [`Policy`] (a score for each legal action), and the
//! [`Heuristic`] player that follows it: the best-scored action, exact ties broken by its own
//! generator. Searches use the same policy to pick their candidates and to play out
//! ([`crate::Mcts::search_guided`]).

use std::sync::Arc;

use engine::{Game, Seat};

use crate::{below, rng, sample_world, Player, Rng};

/// A game's doctrine: how good each legal action looks to the seat that must choose.
///
/// It is handed a state that a search or player made with [`sample_world`], so whatever it
/// reads of another seat's secrets is re-sampled; a doctrine should still read only what its
/// seat may see, so that its own reasoning is honest.
pub trait Policy<G: Game>: Send + Sync {
    /// A score for each action of `legal` (the seat's legal actions, in that order): higher is
    /// better; only the order of the scores of one call matters. `f64::NEG_INFINITY` marks an
    /// action the doctrine never takes (a guided search does not consider it either).
    fn scores(&self, state: &G, seat: Seat, legal: &[G::Action]) -> Vec<f64>;

    /// Whether `seat`'s decision now is one a planned search ([`crate::Mcts::planned`])
    /// weighs alternatives at: the decisions that shape what follows (a game's orders, its
    /// attacks), rather than each of the many steps that carry them out, which the doctrine
    /// takes. Every decision by default.
    fn deliberates(&self, _state: &G, _seat: Seat) -> bool {
        true
    }
}

/// The heuristic player: the action its [`Policy`] scores best.
pub struct Heuristic<G: Game> {
    policy: Arc<dyn Policy<G>>,
    rng: Rng,
}

impl<G: Game> Heuristic<G> {
    /// The player of `policy`, whose tie-breaks are fixed by `seed`.
    pub fn new(policy: Arc<dyn Policy<G>>, seed: u64) -> Self {
        Heuristic {
            policy,
            rng: rng(seed),
        }
    }
}

impl<G: Game> Player<G> for Heuristic<G> {
    fn choose(&mut self, state: &G, seat: Seat) -> G::Action {
        // The doctrine reads a re-sampled world: its choice cannot depend on another seat's
        // secrets whatever it reads.
        let world = sample_world(state, seat, &mut self.rng);
        let mut legal = world.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "seat {} has no legal action to choose from",
            seat.0
        );
        let scores = self.policy.scores(&world, seat, &legal);
        let i = best(&scores, &mut self.rng);
        legal.swap_remove(i)
    }
}

/// The index of the highest score; exact ties broken uniformly from `rng`. A score that is
/// not a number counts as the lowest.
pub(crate) fn best(scores: &[f64], rng: &mut Rng) -> usize {
    let key = |s: f64| if s.is_nan() { f64::NEG_INFINITY } else { s };
    let top = scores
        .iter()
        .copied()
        .map(key)
        .fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<usize> = (0..scores.len())
        .filter(|&i| key(scores[i]) == top)
        .collect();
    match tied.len() {
        0 => 0,
        1 => tied[0],
        n => tied[below(rng, n)],
    }
}
