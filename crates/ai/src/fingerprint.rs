//! Fingerprints of a doctrine's scores over a seeded game, for the golden tests that pin a
//! doctrine's numbers while it is made faster: the heuristic player and guided searches rank
//! actions by them, so a faster doctrine must give the very same numbers.

use engine::{fnv, Game, Log, Pending, FNV_START};

use crate::Policy;

/// What [`scores`] saw: the decisions taken, the scores given, and the fingerprint of every
/// score's bits, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// Decisions taken.
    pub decisions: usize,
    /// Scores given (one per legal action of each decision).
    pub scored: usize,
    /// FNV-1a of the bits of every score, a separator after each decision.
    pub hash: u64,
}

/// A xorshift step: the fingerprint's own choices, independent of the game's dice.
fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Plays `game` on for at most `plies` decisions: at each, `policy` scores the legal actions
/// of a seat to move (one of those deciding, picked by `seed`), and `doctrine` times in four
/// its best (the first of equals) is played, else a random one. Panics if the game refuses
/// a legal action or the policy gives the wrong number of scores.
pub fn scores<G: Game>(
    game: &mut G,
    policy: &dyn Policy<G>,
    seed: u64,
    plies: usize,
    doctrine: u64,
) -> Fingerprint {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut print = Fingerprint {
        decisions: 0,
        scored: 0,
        hash: FNV_START,
    };
    while let Pending::Seats(seats) = game.pending() {
        if print.decisions == plies {
            break;
        }
        let seat = seats[(xorshift(&mut rng) % seats.len() as u64) as usize];
        let legal = game.legal_actions(seat);
        let scores = policy.scores(game, seat, &legal);
        assert_eq!(scores.len(), legal.len(), "a score for each legal action");
        for v in &scores {
            fnv(&mut print.hash, &v.to_bits().to_le_bytes());
        }
        fnv(&mut print.hash, b"--");
        let pick = if xorshift(&mut rng) % 4 >= doctrine {
            (xorshift(&mut rng) % legal.len() as u64) as usize
        } else {
            (0..scores.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b })
        };
        print.decisions += 1;
        print.scored += scores.len();
        game.apply(seat, &legal[pick], &mut Log::discarding())
            .unwrap_or_else(|e| panic!("seed {seed}: a legal action refused: {e}"));
    }
    print
}
