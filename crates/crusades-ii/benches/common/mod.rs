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
