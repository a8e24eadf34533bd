//! The doctrine's scores are a contract: the heuristic player and guided searches rank
//! actions by them, so a faster doctrine must give the very same numbers. Seeded games of the
//! Third Crusade, mostly played by the doctrine itself (with random choices mixed in for odd
//! positions), are fingerprinted decision by decision: the bits of every score the doctrine
//! gives every legal action, in order, compared with the snapshot
//! `tests/golden/doctrine-scores.txt` (taken from the doctrine as it was before its land
//! distances and each leader's standing were kept, issue 5; again when it marked cancelling
//! its own orders as never done). Regenerate only for an intended
//! change of the doctrine, with
//! `UPDATE_GOLDEN=1 cargo test --release -p the-crusades --test doctrine_scores`.

mod common;

use std::fmt::Write;
use std::path::PathBuf;

use engine::assert_golden;
use the_crusades::doctrine::Strategy;

/// Plays a seeded game with [`ai::fingerprint::scores`]: `doctrine` times in four the
/// doctrine's best is played, else a random action. Returns one line: decisions, scores
/// given and the fingerprint of every score's bits.
fn fingerprint(seed: u64, plies: usize, doctrine: u64) -> String {
    let mut s = common::session(seed).state().clone();
    let print = ai::fingerprint::scores(&mut s, &Strategy, seed, plies, doctrine);
    format!(
        "third-crusade seed {seed}: {} decisions to turn {}, {} scores, {:016x}",
        print.decisions, s.turn, print.scored, print.hash
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
