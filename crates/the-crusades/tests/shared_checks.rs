//! The engine's shared checks: seeded random games of the Third Crusade play to the end with
//! both seats writing orders; every applied action was legal, earlier actions that are not
//! legal now are refused without change, undo and re-sampled states behave, and each
//! finished game saved, reloaded and replayed gives the same state hash.

use engine::checks::RandomGames;
use engine::{DiceMode, Setup};

/// How many games to play: `default`, or `CRUSADES_RANDOM_GAMES`.
fn games(default: usize) -> usize {
    std::env::var("CRUSADES_RANDOM_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

fn run(options: &[&str], dice: DiceMode, games: usize) {
    let data = the_crusades::builtin_data();
    let setup = Setup {
        scenario: "third-crusade".into(),
        options: options.iter().map(|s| s.to_string()).collect(),
        seed: 0,
        dice,
        position: None,
    };
    let mut check = RandomGames::new(games, 200_000);
    // Moves and transports are listed by their canonical path but any legal path is
    // accepted, so an earlier order may still be legal without being listed.
    check.probe_illegal = false;
    check.undo_every = 16;
    let report = check
        .run::<the_crusades::State>(&setup, &data)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.finished, games, "every game reaches August II 1192");
    assert!(
        report.actions > games * 100,
        "games are not trivially short"
    );
}

#[test]
fn third_crusade_random_games() {
    run(&[], DiceMode::Seeded, games(6));
}

#[test]
fn third_crusade_random_games_with_manual_dice_and_the_option() {
    run(&["ignore-jerusalem"], DiceMode::Manual, games(2));
}
