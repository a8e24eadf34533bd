//! The doctrine's scores are a contract too: the heuristic player and guided searches rank
//! actions by them, so a faster doctrine must give the very same numbers. Seeded games of
//! every battle, basic and with every advanced rule, mostly played by the doctrine itself
//! (with random choices mixed in for odd positions: routs, losses, broken lines) are
//! fingerprinted decision by decision: the bits of every score the doctrine gives every legal
//! action, in order, compared with the snapshot `tests/golden/doctrine-scores.txt` (taken
//! from the doctrine as it was before its scoring was made faster, issue 5). Regenerate only for an intended change of the doctrine, with
//! `UPDATE_GOLDEN=1 cargo test --release -p crusades-ii --test doctrine_scores`.

mod common;

use common::EVERY_ADVANCED_RULE as ADVANCED;

use std::fmt::Write;
use std::path::PathBuf;

use ai::Policy;
use crusades_ii::doctrine::Tactics;
use engine::{assert_golden, fnv, Game, Log, Pending, FNV_START};

/// A xorshift step: the test's own choices, independent of the game's dice.
fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Plays a seeded game: at each decision the doctrine scores the legal actions of the seat
/// to move, and `doctrine` times in four its best (the first of equals) is played, else a
/// random one. Returns one line: decisions, scores given and the fingerprint of every score's
/// bits.
fn fingerprint(scenario: &str, options: &[&str], seed: u64, plies: usize, doctrine: u64) -> String {
    let mut s = common::start(scenario, options, seed);
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut hash = FNV_START;
    let (mut decisions, mut scored) = (0, 0);
    while let Pending::Seats(seats) = s.pending() {
        if decisions == plies {
            break;
        }
        let seat = seats[(xorshift(&mut rng) % seats.len() as u64) as usize];
        let legal = s.legal_actions(seat);
        let scores = Tactics.scores(&s, seat, &legal);
        assert_eq!(scores.len(), legal.len(), "a score for each legal action");
        for v in &scores {
            fnv(&mut hash, &v.to_bits().to_le_bytes());
        }
        fnv(&mut hash, b"--");
        let pick = if xorshift(&mut rng) % 4 >= doctrine {
            (xorshift(&mut rng) % legal.len() as u64) as usize
        } else {
            (0..scores.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b })
        };
        decisions += 1;
        scored += scores.len();
        s.apply(seat, &legal[pick], &mut Log::discarding())
            .unwrap_or_else(|e| panic!("{scenario} seed {seed}: a legal action refused: {e}"));
    }
    format!(
        "{scenario} {options:?} seed {seed}: {decisions} decisions to turn {}, {scored} scores, \
         {hash:016x}",
        s.turn
    )
}

#[test]
fn the_doctrine_keeps_its_scores() {
    let mut out = String::new();
    for (i, scenario) in ["hattin", "hab", "nicopolis", "tannenburg"]
        .into_iter()
        .enumerate()
    {
        for options in [&[][..], ADVANCED] {
            let seed = 31 + i as u64;
            // Mostly the doctrine's own games, and random games (odd positions).
            let _ = writeln!(out, "{}", fingerprint(scenario, options, seed, 1500, 3));
            let _ = writeln!(out, "{}", fingerprint(scenario, options, seed + 10, 800, 0));
        }
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/doctrine-scores.txt");
    assert_golden(&path, &out, "the doctrine's scores; see the module docs,");
}
