//! The engine's shared checks for both scenarios: seeded random games play to the end with no
//! panic, every action taken was legal and unlisted ones are refused without change, notations
//! read back, undo restores, re-sampled states look the same to their seat, and each finished
//! game saved, reloaded and replayed reaches the same state hash.

use engine::checks::RandomGames;
use engine::{DiceMode, Setup};

/// How many games each test plays: `default`, or `CRUSADES_RANDOM_GAMES`.
fn games(default: usize) -> usize {
    std::env::var("CRUSADES_RANDOM_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

fn run(scenario: &str, dice: DiceMode, games: usize) {
    let data = acre::builtin_data();
    let setup = Setup {
        scenario: scenario.to_string(),
        options: Vec::new(),
        seed: 0,
        dice,
        position: None,
    };
    let mut check = RandomGames::new(games, 200_000);
    // Undo replays the whole record: checked on the opening of games below.
    check.undo_every = 0;
    let report = check
        .run::<acre::State>(&setup, &data)
        .unwrap_or_else(|e| panic!("{scenario}: {e}"));
    assert_eq!(report.games, games);
    assert_eq!(
        report.finished, games,
        "{scenario}: every game reaches its end"
    );
    assert!(
        report.actions > games * 300,
        "{scenario}: games are not trivially short"
    );
    assert!(
        report.determinized > 0,
        "{scenario}: re-sampled states were checked"
    );
}

#[test]
fn siege_random_games() {
    run("siege", DiceMode::Seeded, games(3));
}

#[test]
fn siege_with_conrad_random_games() {
    run("siege-conrad", DiceMode::Seeded, games(2));
}

#[test]
fn siege_random_games_with_manual_dice() {
    run("siege", DiceMode::Manual, games(1));
}

/// Undo on the first few hundred actions of games (set-up, plans, strategic movement): undo
/// replays the record, so whole games with undo would take quadratic time.
#[test]
fn undo_restores_in_the_opening() {
    let data = acre::builtin_data();
    let setup = Setup {
        scenario: "siege".to_string(),
        options: Vec::new(),
        seed: 0,
        dice: DiceMode::Seeded,
        position: None,
    };
    let mut check = RandomGames::new(games(3), 400);
    check.allow_cap = true;
    check.undo_every = 3;
    let report = check
        .run::<acre::State>(&setup, &data)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.undos > 10, "undos were tried: {report:?}");
}
