//! The legal actions and the games they lead to are a contract: AI players, saved choices and
//! replays index into the lists, so the same position must list the same actions in the same
//! order, and the same choices must lead to the same events and states. Seeded random games
//! of both scenarios are fingerprinted decision by decision (every listed action's notation
//! in order, every event of every action applied, each deciding seat's view now and then) and
//! the final state's hash, and compared with the snapshot `tests/golden/random-games.txt`.
//! The speed-ups of the rules must leave every line as it is. Regenerate only for an intended
//! rules change, with `UPDATE_GOLDEN=1 cargo test --release -p acre --test legal_order`.

use std::fmt::Write;
use std::path::PathBuf;

use engine::{
    assert_golden, fnv, state_hash, Game, GoldenWalk, Log, Pending, Setup, Startable, Viewer,
    FNV_START,
};

fn start(scenario: &str, seed: u64) -> acre::State {
    let setup = Setup::seeded(scenario, seed);
    acre::State::start(&setup, &acre::builtin_data()).expect("starts")
}

/// Plays a seeded random game to its end (choices independent of the game's dice) and returns
/// one line: decisions, total legal actions listed, the fingerprints of the lists and of the
/// events and views, the outcome and the final state's hash.
fn fingerprint(scenario: &str, seed: u64) -> String {
    let mut s = start(scenario, seed);
    let mut walk = GoldenWalk::new(seed);
    let mut lists = FNV_START;
    let mut events = FNV_START;
    let (mut decisions, mut listed) = (0u64, 0);
    while let Pending::Seats(seats) = s.pending() {
        assert!(decisions < 100_000, "{scenario} seed {seed} does not end");
        let (seat, n, a) = walk.decide(&s, &seats, &mut lists);
        if decisions % 97 == 0 {
            let view = serde_json::to_string(&s.view(Viewer::Seat(seat))).unwrap();
            fnv(&mut events, view.as_bytes());
        }
        decisions += 1;
        listed += n;
        let mut log = Log::recording();
        s.apply(seat, &a, &mut log)
            .unwrap_or_else(|e| panic!("{scenario} seed {seed}: a legal action refused: {e}"));
        fnv(
            &mut events,
            serde_json::to_string(log.events()).unwrap().as_bytes(),
        );
    }
    format!(
        "{scenario} seed {seed}: {decisions} decisions, {listed} actions, lists {lists:016x}, \
         events {events:016x}, outcome {:?}, final state {}",
        s.outcome().map(|o| (o.winner, o.level)),
        state_hash(&s)
    )
}

#[test]
fn random_games_keep_their_actions_events_and_states() {
    let mut out = String::new();
    for (scenario, seeds) in [("siege", &[1u64, 2, 3][..]), ("siege-conrad", &[4, 5][..])] {
        for &seed in seeds {
            let _ = writeln!(out, "{}", fingerprint(scenario, seed));
        }
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/random-games.txt");
    assert_golden(
        &path,
        &out,
        "legal action lists, events or states; see the module docs,",
    );
}
