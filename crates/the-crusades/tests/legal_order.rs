//! The legal actions are a contract: AI players, saved choices and seeded random games index
//! into them, so the same position must list the same actions in the same order, and applying
//! them must give the same game. Seeded random games of the Third Crusade (choices independent
//! of the game's dice) are fingerprinted decision by decision: every listed action's notation
//! in order, and the whole state (as JSON) after every action. The fingerprints are compared
//! with the snapshot `tests/golden/legal-actions.txt`; any added, dropped or reordered action,
//! or any change in what an action does, changes a fingerprint. Regenerate only for an
//! intended rules change, with
//! `UPDATE_GOLDEN=1 cargo test --release -p the-crusades --test legal_order`.

use std::fmt::Write;
use std::path::PathBuf;

use engine::{
    assert_golden, fnv, DataSet, Game, GoldenWalk, Log, Pending, Setup, Startable, FNV_START,
};

/// Plays a seeded random game to its end (or `plies` decisions) and returns one line:
/// decisions, total legal actions listed, the fingerprint of every list in order and the
/// fingerprint of every state reached.
fn fingerprint(data: &DataSet, options: &[&str], seed: u64, plies: usize) -> String {
    let setup = Setup {
        options: options.iter().map(|o| o.to_string()).collect(),
        ..Setup::seeded("third-crusade", seed)
    };
    let mut s = the_crusades::State::start(&setup, data).expect("starts");
    let mut walk = GoldenWalk::new(seed);
    let (mut lists, mut states) = (FNV_START, FNV_START);
    let (mut decisions, mut listed) = (0, 0);
    while let Pending::Seats(seats) = s.pending() {
        if decisions == plies {
            break;
        }
        let (seat, n, a) = walk.decide(&s, &seats, &mut lists);
        decisions += 1;
        listed += n;
        s.apply(seat, &a, &mut Log::discarding())
            .unwrap_or_else(|e| panic!("seed {seed}: a legal action refused: {e}"));
        fnv(
            &mut states,
            serde_json::to_string(&s).expect("serialises").as_bytes(),
        );
    }
    format!(
        "third-crusade {options:?} seed {seed}: {decisions} decisions, {listed} actions, \
         lists {lists:016x}, states {states:016x}, outcome {:?}",
        s.outcome().map(|o| o.winner)
    )
}

#[test]
fn legal_action_lists_and_games_stay_the_same() {
    let data = the_crusades::builtin_data();
    let mut out = String::new();
    for seed in 1..=3 {
        let _ = writeln!(out, "{}", fingerprint(&data, &[], seed, 20_000));
    }
    let _ = writeln!(
        out,
        "{}",
        fingerprint(&data, &["ignore-jerusalem"], 4, 20_000)
    );
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/legal-actions.txt");
    assert_golden(
        &path,
        &out,
        "legal action lists or games (actions, their order or their effect); see the module docs,",
    );
}
