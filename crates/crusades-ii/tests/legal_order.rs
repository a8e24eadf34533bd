//! The legal actions are a contract: AI players, saved choices and the golden playthroughs
//! index into them, so the same position must list the same actions in the same order.
//! Seeded random games of every battle, basic and with every advanced rule, are fingerprinted
//! decision by decision (every action's notation, in order) and compared with the snapshot
//! `tests/golden/legal-actions.txt`. Any added, dropped or reordered action changes a
//! fingerprint. Regenerate only for an intended rules change, with
//! `UPDATE_GOLDEN=1 cargo test --release -p crusades-ii --test legal_order`.

mod common;

use common::EVERY_ADVANCED_RULE as ADVANCED;

use std::fmt::Write;
use std::path::PathBuf;

use engine::{assert_golden, Game, GoldenWalk, Log, Pending, FNV_START};

/// Plays a seeded random game (choices independent of the game's dice) and returns one line:
/// decisions, total legal actions listed, and the fingerprint of every list in order.
fn fingerprint(scenario: &str, options: &[&str], seed: u64, plies: usize) -> String {
    let mut s = common::start(scenario, options, seed);
    let mut walk = GoldenWalk::new(seed);
    let mut hash = FNV_START;
    let (mut decisions, mut listed) = (0, 0);
    while let Pending::Seats(seats) = s.pending() {
        if decisions == plies {
            break;
        }
        let (seat, n, a) = walk.decide(&s, &seats, &mut hash);
        decisions += 1;
        listed += n;
        s.apply(seat, &a, &mut Log::discarding())
            .unwrap_or_else(|e| panic!("{scenario} seed {seed}: a legal action refused: {e}"));
    }
    format!(
        "{scenario} {options:?} seed {seed}: {decisions} decisions, {listed} actions, {hash:016x}"
    )
}

#[test]
fn legal_action_lists_keep_their_actions_and_order() {
    let mut out = String::new();
    for (i, scenario) in ["hattin", "hab", "nicopolis", "tannenburg"]
        .into_iter()
        .enumerate()
    {
        for options in [&[][..], ADVANCED] {
            let seed = 11 + i as u64;
            let _ = writeln!(out, "{}", fingerprint(scenario, options, seed, 600));
        }
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/legal-actions.txt");
    assert_golden(
        &path,
        &out,
        "legal action lists (actions or their order); see the module docs,",
    );
}
