//! Secrets stay secret (5.0): a seat's written orders reach no other seat, spectator, board
//! or log until both seats have committed; then the log reveals them to everyone. Bad input
//! is refused with a reason and changes nothing.

mod common;

use engine::{checks::secrecy_check, Game, Seat, Session, Setup, Viewer};
use the_crusades::orders::OrderBook;
use the_crusades::state::Phase;

fn session() -> Session<the_crusades::State> {
    let setup = Setup::seeded("third-crusade", 3);
    Session::new(setup, &the_crusades::builtin_data(), "the-crusades").expect("starts")
}

#[test]
fn orders_are_secret_until_both_commit() {
    let mut s = session();
    let (cru, sar) = (Seat(0), Seat(1));
    s.act(cru, "philip-france move 1619", &[]).unwrap();
    s.act(sar, "saladin move 1721", &[]).unwrap();
    let own = serde_json::to_string(&s.view(Viewer::Seat(cru))).unwrap();
    assert!(
        own.contains("philip-france move 1619"),
        "a seat sees its own orders"
    );
    secrecy_check(
        &s,
        &[Viewer::Seat(sar), Viewer::Spectator],
        &["philip-france move"],
    )
    .unwrap();
    secrecy_check(
        &s,
        &[Viewer::Seat(cru), Viewer::Spectator],
        &["saladin move"],
    )
    .unwrap();
    s.act(cru, "commit", &[]).unwrap();
    secrecy_check(
        &s,
        &[Viewer::Seat(sar), Viewer::Spectator],
        &["philip-france move"],
    )
    .unwrap();
    s.act(sar, "commit", &[]).unwrap();
    let theirs = serde_json::to_string(&s.view(Viewer::Seat(sar))).unwrap();
    assert!(
        theirs.contains("philip-france move 1619"),
        "revealed once both have committed"
    );
}

#[test]
fn bad_orders_are_refused_without_change() {
    let mut s = session();
    let hash = s.state_hash().to_string();
    for bad in [
        "philip-france move 1625",  // too far (6.1.1)
        "philip-france move 1619c", // not adjacent to the city mini-hex
        "saladin move 1721",        // not the Crusaders' leader
        "conrad full-siege",        // inside Tyre, nothing to besiege
        "lancelot defend",          // no such leader
        "philip-france march 1619", // no such order
        "richard move 1619",        // not yet arrived (16.4.1)
    ] {
        assert!(s.act(Seat(0), bad, &[]).is_err(), "`{bad}` is refused");
    }
    assert_eq!(s.state_hash(), hash);
    assert!(
        s.act(Seat(0), "guy full-siege", &[]).is_ok(),
        "the besiegers of Acre may besiege (10.3.2)"
    );
}

/// Whole random games: while a seat's orders are unrevealed, nothing the other seat or a
/// spectator is sent depends on them: their boards and the other seat's action descriptions
/// are the same as with that seat's book blank, and none names one of its written orders.
#[test]
fn no_board_or_description_shows_the_other_seats_orders_in_whole_games() {
    let mut checked = 0;
    for seed in 0..3 {
        random_secrecy_game(seed, &mut checked);
    }
    assert!(
        checked > 100,
        "orders were written and checked ({checked} times)"
    );
}

fn random_secrecy_game(seed: u64, checked: &mut usize) {
    common::random_game(seed, 4000, |s| {
        let st = s.state();
        if st.phase != Phase::Orders || st.orders.iter().all(|b| b.committed) {
            return;
        }
        for writer in [Seat(0), Seat(1)] {
            let book = &st.orders[writer.index()];
            let written = st.seat_view(Viewer::Seat(writer)).my_orders;
            if written.is_empty() {
                continue;
            }
            let mut blank = st.clone();
            blank.orders[writer.index()] = OrderBook {
                committed: book.committed,
                ..OrderBook::default()
            };
            let other = Seat(1 - writer.0);
            for viewer in [Viewer::Seat(other), Viewer::Spectator] {
                let board = st.board(viewer);
                assert_eq!(
                    board,
                    blank.board(viewer),
                    "seed {seed}: {viewer:?}'s board depends on the other seat's orders"
                );
                let json = serde_json::to_string(&board).unwrap();
                for o in &written {
                    assert!(
                        !json.contains(o.as_str()),
                        "seed {seed}: `{o}` on {viewer:?}'s board"
                    );
                }
            }
            let described = |g: &the_crusades::State| -> Vec<engine::ActionInfo> {
                g.legal_actions(other)
                    .iter()
                    .map(|a| g.describe_action(other, a))
                    .collect()
            };
            let mine = described(st);
            assert_eq!(
                mine,
                described(&blank),
                "seed {seed}: descriptions for the other seat depend on these orders"
            );
            let json = serde_json::to_string(&mine).unwrap();
            for o in &written {
                assert!(
                    !json.contains(o.as_str()),
                    "seed {seed}: `{o}` described to the other seat"
                );
            }
            *checked += 1;
        }
    });
}
