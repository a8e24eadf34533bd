//! The shared checks, run on the toy race game, and shown to fail on broken variants of it.

use engine::toy::race::{data, setup, Race};
use engine::{random_games, DiceMode, RandomGames};

#[test]
fn random_games_play_the_toy_to_the_end() {
    let report = random_games::<Race>(&setup(0, DiceMode::Seeded, &[]), &data(), 40, 2_000);
    assert_eq!(report.games, 40);
    assert_eq!(report.finished, 40);
    assert_eq!(report.capped, 0);
    assert!(report.actions > 40 * 10, "{report:?}");
    assert!(
        report.refused > 0,
        "illegal actions were probed: {report:?}"
    );
    assert!(report.undos > 0, "undo was exercised: {report:?}");
    assert!(
        report.determinized > 0,
        "re-sampled states were checked: {report:?}"
    );
}

#[test]
fn a_determinize_that_changes_what_the_seat_sees_fails() {
    let mut check = RandomGames::new(20, 2_000);
    check.determinize_every = 1;
    let e = check
        .run::<Race>(&setup(0, DiceMode::Seeded, &["bad-determinize"]), &data())
        .unwrap_err();
    assert!(e.message.contains("determinize for"), "{e}");
    assert!(e.message.contains("changed its view"), "{e}");
    // The same game with a determinize that re-samples only the other seat's bid passes.
    let report = check
        .run::<Race>(&setup(0, DiceMode::Seeded, &[]), &data())
        .unwrap();
    assert!(report.determinized > 100, "{report:?}");
}

#[test]
fn random_games_enter_manual_dice() {
    let report = random_games::<Race>(&setup(0, DiceMode::Manual, &[]), &data(), 10, 2_000);
    assert_eq!(report.finished, 10);
}

#[test]
fn random_games_are_reproducible() {
    let s = setup(0, DiceMode::Seeded, &[]);
    let a = random_games::<Race>(&s, &data(), 5, 2_000);
    let b = random_games::<Race>(&s, &data(), 5, 2_000);
    assert_eq!(a, b);
    let mut later = RandomGames::new(5, 2_000);
    later.first_seed = 100;
    assert_ne!(later.run::<Race>(&s, &data()).unwrap(), a);
}

#[test]
fn a_listed_action_that_is_refused_fails_naming_the_seed() {
    let e = RandomGames::new(3, 2_000)
        .run::<Race>(&setup(0, DiceMode::Seeded, &["lists-illegal"]), &data())
        .unwrap_err();
    assert_eq!(e.seed, Some(0), "{e}");
    assert!(e.message.contains("legal action `bid 9`"), "{e}");
    assert!(e.message.contains("was refused: illegal action"), "{e}");
}

#[test]
fn an_accepted_unlisted_action_fails() {
    let e = RandomGames::new(20, 2_000)
        .run::<Race>(&setup(0, DiceMode::Seeded, &["lax-apply"]), &data())
        .unwrap_err();
    assert!(
        e.message.contains("was accepted but is not among the"),
        "{e}"
    );
}

#[test]
fn a_refusal_that_changes_the_state_itself_fails() {
    let e = RandomGames::new(20, 2_000)
        .run::<Race>(&setup(0, DiceMode::Seeded, &["dirty-refusal"]), &data())
        .unwrap_err();
    assert!(
        e.message
            .contains("was refused but changed the state it was applied to"),
        "{e}"
    );
}

#[test]
fn a_game_that_never_ends_fails_unless_allowed() {
    let s = setup(0, DiceMode::Seeded, &["endless"]);
    let e = RandomGames::new(2, 300)
        .run::<Race>(&s, &data())
        .unwrap_err();
    assert_eq!(e.seed, Some(0));
    assert!(e.message.contains("not over after 300 actions"), "{e}");
    let mut allowed = RandomGames::new(2, 300);
    allowed.allow_cap = true;
    let report = allowed.run::<Race>(&s, &data()).unwrap();
    assert_eq!(
        (report.capped, report.finished, report.actions),
        (2, 0, 600)
    );
}

#[test]
#[should_panic(expected = "random games: seed 0:")]
fn random_games_panics_for_tests() {
    random_games::<Race>(
        &setup(0, DiceMode::Seeded, &["lists-illegal"]),
        &data(),
        1,
        100,
    );
}
