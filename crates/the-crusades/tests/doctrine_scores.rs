//! The doctrine's scores are a contract: the heuristic player and guided searches rank
//! actions by them, so a faster doctrine must give the very same numbers. Seeded games of the
//! Third Crusade, mostly played by the doctrine itself (with random choices mixed in for odd
//! positions), are fingerprinted decision by decision: the bits of every score the doctrine
//! gives every legal action, in order, compared with the snapshot
//! `tests/golden/doctrine-scores.txt` (taken from the doctrine as it was before its land
//! distances and each leader's standing were kept, issue 5). Regenerate only for an intended
//! change of the doctrine, with
//! `UPDATE_GOLDEN=1 cargo test --release -p the-crusades --test doctrine_scores`.

mod common;

use std::fmt::Write;
use std::path::PathBuf;

use ai::Policy;
use engine::{assert_golden, fnv, Game, Log, Pending, FNV_START};
use the_crusades::doctrine::Strategy;

/// Plays a seeded game: at each decision the doctrine scores the legal actions of a seat to
/// move, and `doctrine` times in four its best (the first of equals) is played, else a random
/// one. Returns one line: decisions, scores given and the fingerprint of every score's bits.
fn fingerprint(seed: u64, plies: usize, doctrine: usize) -> String {
    let mut s = common::session(seed).state().clone();
    let mut chooser = common::Chooser::new(seed);
    let mut hash = FNV_START;
    let (mut decisions, mut scored) = (0, 0);
    while let Pending::Seats(seats) = s.pending() {
        if decisions == plies {
            break;
        }
        let seat = seats[chooser.below(seats.len())];
        let legal = s.legal_actions(seat);
        let scores = Strategy.scores(&s, seat, &legal);
        assert_eq!(scores.len(), legal.len(), "a score for each legal action");
        for v in &scores {
            fnv(&mut hash, &v.to_bits().to_le_bytes());
        }
        fnv(&mut hash, b"--");
        let pick = if chooser.below(4) >= doctrine {
            chooser.below(legal.len())
        } else {
            (0..scores.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b })
        };
        decisions += 1;
        scored += scores.len();
        s.apply(seat, &legal[pick], &mut Log::discarding())
            .unwrap_or_else(|e| panic!("seed {seed}: a legal action refused: {e}"));
    }
    format!(
        "third-crusade seed {seed}: {decisions} decisions to turn {}, {scored} scores, {hash:016x}",
        s.turn
    )
}

#[test]
fn the_doctrine_keeps_its_scores() {
    let mut out = String::new();
    for seed in [3, 4] {
        // Mostly the doctrine's own games, and random games (odd positions).
        let _ = writeln!(out, "{}", fingerprint(seed, 1500, 3));
        let _ = writeln!(out, "{}", fingerprint(seed + 10, 800, 0));
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/doctrine-scores.txt");
    assert_golden(&path, &out, "the doctrine's scores; see the module docs,");
}
