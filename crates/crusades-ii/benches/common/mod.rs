//! What the benchmarks share: the position they measure from.

use crusades_ii::State;
use engine::{Game, Log, Pending};

/// Plays the first decisions of `s` (deploying historically, orders done) so that the game
/// stands at the first player's first movement.
pub fn advance_to_first_movement(mut s: State) -> State {
    let mut log = Log::discarding();
    for _ in 0..20 {
        let Pending::Seats(seats) = s.pending() else {
            break;
        };
        if s.phase == crusades_ii::state::Phase::Movement {
            break;
        }
        let seat = seats[0];
        let legal = s.legal_actions(seat);
        let pick = legal
            .iter()
            .find(|a| {
                matches!(
                    a,
                    crusades_ii::Action::DeployHistorical | crusades_ii::Action::OrdersDone
                )
            })
            .unwrap_or(&legal[0])
            .clone();
        s.apply(seat, &pick, &mut log).expect("legal");
    }
    s
}

/// A xorshift step: the random choices of the benchmarks' games, independent of the dice.
pub fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Plays `s` to the end with uniform random choices from `rng`; returns the plies.
pub fn random_playout(s: &mut State, rng: &mut u64) -> u64 {
    let mut log = Log::discarding();
    let mut plies = 0;
    while let Pending::Seats(seats) = s.pending() {
        let seat = seats[(xorshift(rng) % seats.len() as u64) as usize];
        let legal = s.legal_actions(seat);
        let a = &legal[(xorshift(rng) % legal.len() as u64) as usize];
        s.apply(seat, a, &mut log).expect("legal");
        plies += 1;
    }
    plies
}

/// A search with uniform random playouts played to the end (one rollout per iteration, as
/// the OpenSpiel anchor), for `iterations` iterations.
pub fn full_playout_search(iterations: u32, seed: u64) -> ai::Mcts {
    let mut m = ai::Mcts::new(ai::Budget::Iterations(iterations), seed);
    m.playout_depth = None;
    m
}
