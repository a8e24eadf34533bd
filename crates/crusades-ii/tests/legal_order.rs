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

use engine::{Game, Log, Pending};

/// FNV-1a, 64 bits: a fingerprint that needs no dependency and never changes.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

/// Plays a seeded random game (choices independent of the game's dice) and returns one line:
/// decisions, total legal actions listed, and the fingerprint of every list in order.
fn fingerprint(scenario: &str, options: &[&str], seed: u64, plies: usize) -> String {
    let mut s = common::start(scenario, options, seed);
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut hash = 0xcbf2_9ce4_8422_2325;
    let (mut decisions, mut listed) = (0, 0);
    while let Pending::Seats(seats) = s.pending() {
        if decisions == plies {
            break;
        }
        let seat = seats[(next() % seats.len() as u64) as usize];
        let legal = s.legal_actions(seat);
        for a in &legal {
            fnv(&mut hash, s.action_text(a).as_bytes());
            fnv(&mut hash, b"\n");
        }
        fnv(&mut hash, b"--\n");
        decisions += 1;
        listed += legal.len();
        let a = legal[(next() % legal.len() as u64) as usize].clone();
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
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &out).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        out, want,
        "legal action lists changed (actions or their order); see the module docs"
    );
}
