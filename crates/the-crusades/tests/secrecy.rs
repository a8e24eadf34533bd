//! Secrets stay secret (5.0): a seat's written orders reach no other seat, spectator, board
//! or log until both seats have committed; then the log reveals them to everyone. Bad input
//! is refused with a reason and changes nothing.

use engine::{checks::secrecy_check, DiceMode, Seat, Session, Setup, Viewer};

fn session() -> Session<the_crusades::State> {
    let setup = Setup {
        scenario: "third-crusade".into(),
        options: vec![],
        seed: 3,
        dice: DiceMode::Seeded,
        position: None,
    };
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
