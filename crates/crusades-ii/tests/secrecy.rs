//! Secrets stay secret (5.0): a leader's command chit is seen by his own side only — never in
//! the other seat's or a spectator's view, board or log, and a seat's view does not change
//! when only the other seat's chits do.

mod common;

use common::*;
use engine::{checks::secrecy_check, DiceMode, Game, Session, Setup, Viewer};

fn session(scenario: &str) -> Session<crusades_ii::State> {
    let setup = Setup {
        scenario: scenario.into(),
        options: vec![],
        seed: 11,
        dice: DiceMode::Seeded,
        position: None,
    };
    Session::new(setup, &crusades_ii::builtin_data(), "crusades-ii").expect("starts")
}

#[test]
fn command_chits_are_seen_only_by_their_side() {
    let mut s = session("hab");
    let crusader = s.seat_named("crusader").unwrap();
    let turk = s.seat_named("turk").unwrap();
    s.act(turk, "deploy-historical", &[]).unwrap();
    s.act(crusader, "deploy-historical", &[]).unwrap();
    // Both sides write their chits at once, in secret.
    s.act(crusader, "chit Fulcoy retreat", &[]).unwrap();
    s.act(turk, "chit Toktagin reserve", &[]).unwrap();
    let own = serde_json::to_string(&s.view(Viewer::Seat(crusader))).unwrap();
    assert!(
        own.contains("\"chit\":\"retreat\""),
        "the Crusader sees his own chit"
    );
    assert!(
        secrecy_check(
            &s,
            &[Viewer::Seat(turk), Viewer::Spectator],
            &["\"chit\":\"retreat\"", "Fulcoy takes a retreat"]
        )
        .is_ok(),
        "the Turk and spectators never see Fulcoy's retreat chit"
    );
    assert!(
        secrecy_check(
            &s,
            &[Viewer::Seat(crusader), Viewer::Spectator],
            &["\"chit\":\"reserve\"", "Toktagin takes a reserve"]
        )
        .is_ok(),
        "nor the Crusader Toktagin's reserve"
    );
    // The check itself can fail: the owner does see it.
    assert!(secrecy_check(&s, &[Viewer::Seat(crusader)], &["Fulcoy takes a retreat"]).is_err());
}

#[test]
fn a_seats_view_ignores_the_other_seats_chits() {
    let mut s = start("hab", &[], 3);
    act(&mut s, "turk", "deploy-historical", &[]);
    act(&mut s, "crusader", "deploy-historical", &[]);
    act(&mut s, "crusader", "chit Baldwin stand", &[]);
    let crusader = Viewer::Seat(seat(&s, "crusader"));
    let before = serde_json::to_string(&s.view(crusader)).unwrap();
    let board_before = serde_json::to_string(&s.board(crusader)).unwrap();
    let mut other = s.clone();
    for (i, l) in s.battle.leaders.iter().enumerate() {
        if l.side == seat(&s, "turk") {
            other.leaders[i].chit = Some(crusades_ii::scenario::Chit::Attack);
        }
    }
    assert_eq!(
        serde_json::to_string(&other.view(crusader)).unwrap(),
        before
    );
    assert_eq!(
        serde_json::to_string(&other.board(crusader)).unwrap(),
        board_before
    );
    // ...while the Turk's own view does change: the test can see a difference.
    let turk = Viewer::Seat(seat(&s, "turk"));
    assert_ne!(
        serde_json::to_string(&other.view(turk)).unwrap(),
        serde_json::to_string(&s.view(turk)).unwrap()
    );
}

#[test]
fn a_successful_command_change_tells_the_other_side_only_that_it_changed() {
    let mut s = session("hab");
    let crusader = s.seat_named("crusader").unwrap();
    let turk = s.seat_named("turk").unwrap();
    s.act(turk, "deploy-historical", &[]).unwrap();
    s.act(crusader, "deploy-historical", &[]).unwrap();
    for (seat, text) in [
        (crusader, "chit Baldwin stand"),
        (crusader, "chit Antiochene stand"),
        (crusader, "chit Fulcoy stand"),
        (crusader, "chit Pons-of-Tripoli stand"),
        (turk, "chit Il-Ghazi stand"),
        (turk, "chit Toktagin stand"),
    ] {
        s.act(seat, text, &[]).unwrap();
    }
    s.act(crusader, "orders-done", &[]).unwrap();
    s.act(turk, "orders-done", &[]).unwrap();
    // Play on to the next Order Phase, ending each phase at once.
    let mut guard = 0;
    while !s
        .state()
        .legal_actions(crusader)
        .iter()
        .any(|a| matches!(a, crusades_ii::Action::Change { .. }))
    {
        guard += 1;
        assert!(guard < 500, "reached the next Order Phase");
        let pending = s.state().pending();
        let seat = pending.seats()[0];
        let legal = s.state().legal_actions(seat);
        let pick = legal
            .iter()
            .find(|a| {
                matches!(
                    a,
                    crusades_ii::Action::EndMovement
                        | crusades_ii::Action::EndFire
                        | crusades_ii::Action::EndMelee
                        | crusades_ii::Action::EndCombat
                        | crusades_ii::Action::EndWithdrawal
                        | crusades_ii::Action::StandFast
                        | crusades_ii::Action::Halt
                        | crusades_ii::Action::OrdersDone
                )
            })
            .unwrap_or(&legal[0])
            .clone();
        s.act_action(seat, &pick, &[]).unwrap();
    }
    // Antiochene (command 3) tries for Attack until a roll succeeds or he has tried.
    s.act(crusader, "change Antiochene attack", &[]).unwrap();
    assert!(
        secrecy_check(
            &s,
            &[Viewer::Seat(turk), Viewer::Spectator],
            &["\"chit\":\"attack\"", "Antiochene now has"]
        )
        .is_ok(),
        "the Turk sees that Antiochene rolled, not what he asked for"
    );
    let turk_log = serde_json::to_string(&s.view(Viewer::Seat(turk)).log).unwrap();
    assert!(turk_log.contains("Antiochene tries to change his command"));
}
