//! AI players for every game of the project (DESIGN.md, "Layers"): they play through the
//! engine's [`Game`] trait and never name a particular game.
//!
//! - [`Player`]: chooses an action for a seat, typed (no notations, no strings).
//! - [`RandomPlayer`]: uniform over the legal actions.
//! - [`Mcts`]: information-set Monte Carlo tree search: every iteration re-samples what the
//!   seat cannot see ([`sample_world`]), then searches one tree of the seat's information.
//! - [`Heuristic`]: a game's doctrine of play, a [`Policy`] scoring each legal action,
//!   followed greedily.
//! - [`PlayerSpec`]: a player as text (`random`, `heuristic`, `mcts:1000`, `mcts:2s`,
//!   `mcts:200:d8`), built for a game with [`PlayerSpec::build`]; a game's own heuristic
//!   player comes from its [`Doctrine`], which also guides its searches ([`GuidedMcts`]).
//! - [`fit`]: logistic regression, to fit a game's evaluation to games played.
//! - [`fingerprint`]: a doctrine's scores over a seeded game, for golden tests.
//!
//! **What an AI sees.** A player is handed the full state, because only the state can make
//! the copies a search needs, but reads it only through [`Game::determinize`] for its own
//! seat, with the dice re-seeded from its own generator ([`sample_world`]), and through its
//! own seat's legal actions. So its choices do not change when only another seat's secrets or
//! the dice's future change (`tests/secrecy.rs` checks this). A game must override
//! [`Game::determinize`] for this to hold: the default copies the state.
//!
//! **Determinism.** Every player draws from its own generator, seeded at construction; for a
//! seed, the same states give the same choices. A search limited by time
//! ([`Budget::Time`]) is the exception: how far it gets depends on the machine.

#![warn(missing_docs)]

pub mod fingerprint;
pub mod fit;
mod heuristic;
mod mcts;
mod random;
mod spec;

use engine::{Game, Log, Seat};
use rand_core::RngCore;

pub use heuristic::{Heuristic, Policy};
pub use mcts::{
    Budget, Choice, GuidedMcts, Mcts, Search, DEFAULT_BIAS, DEFAULT_EXPLORATION,
    DEFAULT_PLAYOUT_DEPTH, DEFAULT_WIDTH, GUIDED_EXPLORATION, LEAST_LOG_ODDS_RANGE,
};
pub use random::RandomPlayer;
pub use spec::{
    AiError, Cutoff, Doctrine, NoDoctrine, PlayerSpec, DEFAULT_ITERATIONS, UNGUIDED_PLAYOUT_DEPTH,
};

/// Something that plays a game: given the state and a seat that must decide now, an action
/// among that seat's legal actions.
///
/// A player must read the state only as its seat may (see the crate's documentation): through
/// [`sample_world`] and the seat's own legal actions.
pub trait Player<G: Game>: Send {
    /// One of `seat`'s legal actions in `state`. Panics if `seat` has none (it must be one of
    /// the seats that must decide now).
    fn choose(&mut self, state: &G, seat: Seat) -> G::Action;
}

/// A copy of `state` as `seat` might believe it to be: what `seat` cannot see re-sampled by
/// the game ([`Game::determinize`]) and the dice re-seeded from `rng`, so that nothing in it
/// comes from another seat's secrets or from the real game's future rolls.
pub fn sample_world<G: Game>(state: &G, seat: Seat, rng: &mut dyn RngCore) -> G {
    let mut world = state.determinize(seat, rng);
    let seed = rng.next_u64();
    world.dice_mut().reseed(seed);
    world
}

/// Plays `state` on to the end of the game with `player` deciding for every seat (the first
/// seat that must decide, each time), its dice as they are; `watch` sees the state before
/// each decision, with the number of decisions taken so far. Returns the decisions taken.
/// An action the rules refuse (a bug in the player or the game) ends it with the refusal.
pub fn play_out<G: Game>(
    state: &mut G,
    player: &mut dyn Player<G>,
    mut watch: impl FnMut(&G, u32),
) -> Result<u32, String> {
    let mut decisions = 0u32;
    while let engine::Pending::Seats(seats) = state.pending() {
        let Some(&seat) = seats.first() else { break };
        watch(state, decisions);
        let action = player.choose(state, seat);
        state
            .dice_mut()
            .begin_action(&[])
            .map_err(|e| e.to_string())?;
        state
            .apply(seat, &action, &mut Log::discarding())
            .map_err(|e| format!("`{}` refused: {e}", state.action_text(&action)))?;
        decisions += 1;
    }
    Ok(decisions)
}

/// A uniform choice in `0..n` (n > 0), by rejection so that every value is equally likely.
pub(crate) use engine::dice::uniform_below as below;

/// Applies a legal action in a search, with no log and the dice of the state (re-seeded by
/// [`sample_world`]). A legal action that the rules refuse is a bug in the game: panics
/// naming it.
pub(crate) fn apply_in_search<G: Game>(world: &mut G, seat: Seat, action: &G::Action) {
    // Re-seeded dice are in seeded mode, which accepts no entered dice: this cannot fail.
    let _ = world.dice_mut().begin_action(&[]);
    if let Err(rejection) = world.apply(seat, action, &mut Log::discarding()) {
        panic!(
            "bug in {}: the legal action `{}` of seat {} was refused: {rejection}",
            world.facts().game,
            world.action_text(action),
            seat.0
        );
    }
}

/// The generator every player uses: PCG 64-bit MCG, as the dice.
pub(crate) type Rng = rand_pcg::Pcg64Mcg;

/// A generator seeded with `seed` (mixed, so that nearby seeds give unrelated streams and a
/// player seeded like the dice never rolls the dice's numbers).
pub(crate) fn rng(seed: u64) -> Rng {
    use rand_core::SeedableRng;
    Rng::seed_from_u64(seed ^ 0xA076_1D64_78BD_642F)
}
