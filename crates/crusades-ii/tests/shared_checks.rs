//! The engine's shared checks, run for every scenario with the basic rules and with the
//! optional rules: seeded random games play to the end with no panic, every applied action
//! was legal, unlisted actions are refused without change, and each finished game saved,
//! reloaded and replayed gives the same state hash.

mod common;

use common::EVERY_ADVANCED_RULE as ADVANCED;
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
    // notation.md: `move UNIT HEX FACING` with nothing selected is `select UNIT` and the
    // move in one (saved games and scripts from before `select`).
    check.shorthand = true;
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

/// How many games each test plays: `default` (100 basic and 100 advanced games make the 200
/// seeded random games a scenario must survive), or `CRUSADES_RANDOM_GAMES` (5 for a quick
/// run, more for a long one). A game takes a few seconds in release mode.
fn games(default: usize) -> usize {
    std::env::var("CRUSADES_RANDOM_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

#[test]
fn hattin_random_games() {
    run("hattin", &[], games(100));
}

#[test]
fn hab_random_games() {
    run("hab", &[], games(100));
}

#[test]
fn nicopolis_random_games() {
    run("nicopolis", &[], games(100));
}

#[test]
fn tannenburg_random_games() {
    run("tannenburg", &[], games(100));
}

#[test]
fn hattin_random_games_with_the_advanced_rules() {
    run("hattin", ADVANCED, games(100));
}

#[test]
fn hab_random_games_with_the_advanced_rules() {
    run("hab", ADVANCED, games(100));
}

#[test]
fn nicopolis_random_games_with_the_advanced_rules() {
    run("nicopolis", ADVANCED, games(100));
}

#[test]
fn tannenburg_random_games_with_the_advanced_rules() {
    run("tannenburg", ADVANCED, games(100));
}
