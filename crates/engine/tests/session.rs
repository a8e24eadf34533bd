//! Sessions, records, replay, undo, manual dice and secrecy, on the toy race game.

use engine::toy::race::{self, data, setup, Phase, Race, EAST, GAME, WEST};
use engine::{
    secrecy_check, ActError, DiceError, DiceMode, Game, GameRecord, Pending, RecordError, Session,
    SessionError, UndoError, Viewer,
};

fn new_game(seed: u64, dice: DiceMode) -> Session<Race> {
    Session::new(setup(seed, dice, &[]), &data(), GAME).unwrap()
}

/// East bids 2, West bids 1: East runs.
fn east_runs(s: &mut Session<Race>) {
    s.act(EAST, "bid 2", &[]).unwrap();
    s.act(WEST, "bid 1", &[]).unwrap();
    assert_eq!(s.state().pending(), Pending::Seats(vec![EAST]));
}

fn texts(events: &[engine::Event]) -> Vec<String> {
    events.iter().map(|e| e.text.clone()).collect()
}

#[test]
fn a_new_session_records_how_it_started() {
    let s = new_game(7, DiceMode::Seeded);
    let r = s.record();
    assert_eq!(r.format, 1);
    assert_eq!(r.game, GAME);
    assert_eq!(r.scenario, "race");
    assert_eq!(r.seed, 7);
    assert_eq!(r.data_version, data().version("toy-race/"));
    assert!(r.actions.is_empty());
    assert_eq!(r.state_hash, engine::state_hash(s.state()));
    assert_eq!(s.state().pending(), Pending::Seats(vec![EAST, WEST]));
}

#[test]
fn a_session_refuses_another_game_id_and_bad_setups() {
    let e = Session::<Race>::new(setup(1, DiceMode::Seeded, &[]), &data(), "acre").unwrap_err();
    assert!(e.to_string().contains("`toy-race`, not of `acre`"), "{e}");
    let e =
        Session::<Race>::new(setup(1, DiceMode::Seeded, &["nonsense"]), &data(), GAME).unwrap_err();
    assert!(matches!(&e, SessionError::Start(_)), "{e}");
    assert!(e.to_string().contains("no option `nonsense`"), "{e}");
}

#[test]
fn acting_checks_whose_decision_it_is_and_the_notation() {
    let mut s = new_game(1, DiceMode::Seeded);
    let events = s.act(EAST, " bid 2 ", &[]).unwrap();
    // The acting seat sees its own secret.
    assert_eq!(texts(&events), ["East bids 2 in secret", "East has bid"]);

    let e = s.act(EAST, "bid 1", &[]).unwrap_err();
    assert_eq!(e.to_string(), "not your decision: waiting for West");
    assert!(e.is_bad_input());

    let e = s.act(WEST, "fly", &[]).unwrap_err();
    assert!(matches!(e, ActError::Parse { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("`fly` is not an action: expected"),
        "{e}"
    );
    assert!(e.is_bad_input());

    let e = s.act(engine::Seat(5), "bid 1", &[]).unwrap_err();
    assert_eq!(e, ActError::NoSuchSeat(5));

    let before = s.state_hash().to_string();
    let e = s.act(WEST, "bid 9", &[]).unwrap_err();
    assert!(matches!(e, ActError::Rejected { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("illegal action `bid 9`: a bid is at most 3"),
        "{e}"
    );
    assert!(e.is_bad_input());
    assert_eq!(s.state_hash(), before, "a refused action changes nothing");
    assert_eq!(s.record().actions.len(), 1);

    let events = s.act(WEST, "bid 1", &[]).unwrap();
    assert_eq!(
        texts(&events),
        [
            "West bids 1 in secret",
            "West has bid",
            "Bids revealed: East 2, West 1"
        ]
    );
    assert_eq!(s.record().actions[1].action, "bid 1");
    assert_eq!(s.record().actions[1].seat, "West");
    assert_eq!(s.record().state_hash, engine::state_hash(s.state()));
}

#[test]
fn the_game_over_is_final() {
    let mut s = new_game(3, DiceMode::Seeded);
    while s.state().pending() != Pending::Over {
        let seat = s.state().pending().seats()[0];
        let action = s.state().legal_actions(seat)[0];
        // Tie bids of 0 each round: one point each until 20.
        s.act_action(seat, &action, &[]).unwrap();
    }
    let e = s.act(EAST, "bid 0", &[]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the game is over: the race reached 20 points (20 to 20)"
    );
    assert_eq!(s.view(Viewer::Spectator).outcome.unwrap().winner, None);
}

#[test]
fn undo_stops_at_dice_reveals_and_changes_of_seat() {
    let mut s = new_game(1, DiceMode::Seeded);
    assert!(matches!(s.undo(EAST), Err(UndoError::Nothing)));

    s.act(EAST, "bid 2", &[]).unwrap();
    assert!(
        s.record().actions[0].undo_barrier,
        "the pending seats changed"
    );
    let e = s.undo(EAST).unwrap_err();
    assert!(matches!(e, UndoError::Barrier { .. }), "{e}");
    assert!(e.is_bad_input());
    assert!(
        e.to_string()
            .contains("revealed hidden information or changed whose decision it is"),
        "{e}"
    );

    s.act(WEST, "bid 1", &[]).unwrap();
    assert!(s.record().actions[1].undo_barrier, "bids were revealed");

    let before = s.state_hash().to_string();
    let log_before = s.view(Viewer::Spectator).log;
    s.act(EAST, "boost", &[]).unwrap();
    assert!(!s.record().actions[2].undo_barrier);
    let e = s.undo(WEST).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot undo: the last action (`boost`) was taken by East, not by West"
    );
    let undone = s.undo(EAST).unwrap();
    assert_eq!(undone.action, "boost");
    assert_eq!(s.state_hash(), before);
    assert_eq!(s.record().state_hash, before);
    assert_eq!(s.record().actions.len(), 2);
    assert_eq!(
        s.view(Viewer::Spectator).log,
        log_before,
        "the log is rebuilt too"
    );

    s.act(EAST, "boost", &[]).unwrap();
    s.act(EAST, "roll", &[]).unwrap();
    let last = s.record().actions.last().unwrap().clone();
    assert!(last.undo_barrier);
    assert_eq!(last.rolled.len(), 1);
    let e = s.undo(EAST).unwrap_err();
    assert!(
        e.to_string().starts_with(&format!(
            "cannot undo `roll`: it rolled dice ({})",
            last.rolled[0]
        )),
        "{e}"
    );
}

#[test]
fn manual_dice_must_be_exactly_those_rolled() {
    let mut s = new_game(1, DiceMode::Manual);
    east_runs(&mut s);
    let before = s.state_hash().to_string();
    let e = s.act(EAST, "roll", &[]).unwrap_err();
    assert!(
        matches!(e, ActError::Dice(DiceError::TooFew { entered: 0 })),
        "{e}"
    );
    assert!(e.is_bad_input());
    let e = s.act(EAST, "roll", &[3, 4]).unwrap_err();
    assert!(
        matches!(e, ActError::Dice(DiceError::TooMany { unused: 1, used: 1 })),
        "{e}"
    );
    let e = s.act(EAST, "roll", &[7]).unwrap_err();
    assert!(
        matches!(e, ActError::Dice(DiceError::BadFace { value: 7, .. })),
        "{e}"
    );
    let e = s.act(EAST, "boost", &[2]).unwrap_err();
    assert!(
        matches!(e, ActError::Dice(DiceError::TooMany { .. })),
        "{e}"
    );
    assert_eq!(s.state_hash(), before, "refused dice change nothing");
    assert_eq!(s.record().actions.len(), 2);

    s.act(EAST, "roll", &[5]).unwrap();
    assert_eq!(s.state().points, [5, 0]);
    let last = s.record().actions.last().unwrap();
    assert_eq!(
        (last.dice.as_slice(), last.rolled.as_slice()),
        (&[5u8][..], &[5u8][..])
    );

    let mut seeded = new_game(1, DiceMode::Seeded);
    east_runs(&mut seeded);
    let e = seeded.act(EAST, "roll", &[5]).unwrap_err();
    assert_eq!(e, ActError::Dice(DiceError::NotManual));
}

fn played(seed: u64, dice: DiceMode) -> Session<Race> {
    let mut s = new_game(seed, dice);
    east_runs(&mut s);
    s.act(EAST, "boost", &[]).unwrap();
    let d: &[u8] = if dice == DiceMode::Manual { &[4] } else { &[] };
    s.act(EAST, "roll", d).unwrap();
    s.act(WEST, "bid 3", &[]).unwrap();
    s.act(EAST, "bid 0", &[]).unwrap();
    s.act(WEST, "rest", &[]).unwrap();
    s
}

#[test]
fn a_saved_game_loads_and_replays_to_the_same_state() {
    for dice in [DiceMode::Seeded, DiceMode::Manual] {
        let s = played(11, dice);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("race.json");
        s.save(&path).unwrap();
        let record = GameRecord::load(&path).unwrap();
        assert_eq!(&record, s.record());
        let back = Session::<Race>::from_record(record, &data()).unwrap();
        assert_eq!(back.state(), s.state());
        assert_eq!(back.state_hash(), s.state_hash());
        for v in [Viewer::Seat(EAST), Viewer::Seat(WEST), Viewer::Spectator] {
            assert_eq!(back.view(v), s.view(v));
        }
    }
}

#[test]
fn an_edited_save_is_refused_saying_why() {
    let s = played(5, DiceMode::Seeded);
    let load = |edit: &dyn Fn(&mut GameRecord)| {
        let mut r = s.record().clone();
        edit(&mut r);
        Session::<Race>::from_record(r, &data())
            .map(|_| ())
            .unwrap_err()
    };

    let e = load(&|r| r.actions[3].action = "fly".into());
    assert!(matches!(e, SessionError::Replay { number: 4, .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with("action 4 of the record (`fly` by East) cannot be replayed"),
        "{e}"
    );

    let e = load(&|r| r.actions[0].seat = "North".into());
    assert!(e.to_string().contains("no seat is called `North`"), "{e}");

    let e = load(&|r| r.actions[1].action = "bid 3".into());
    // West now outbids East: East's boost is no longer East's decision.
    assert!(e.to_string().contains("action 3"), "{e}");
    assert!(
        e.to_string()
            .contains("not your decision: waiting for West"),
        "{e}"
    );

    let e = load(&|r| r.actions[3].rolled = vec![9]);
    assert!(
        e.to_string().contains("the record says it rolled [9]"),
        "{e}"
    );

    let e = load(&|r| r.actions[2].undo_barrier = true);
    assert!(e.to_string().contains("marks it an undo barrier"), "{e}");

    let e = load(&|r| r.state_hash = "0000000000000000".into());
    assert!(
        matches!(
            e,
            SessionError::HashMismatch {
                data_changed: false,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("edited or damaged save"), "{e}");

    let e = load(&|r| r.seed = 6);
    assert!(
        matches!(
            e,
            SessionError::HashMismatch { .. } | SessionError::Replay { .. }
        ),
        "{e}"
    );

    let e = load(&|r| r.game = "acre".into());
    assert!(
        matches!(e, SessionError::Record(RecordError::WrongGame { .. })),
        "{e}"
    );

    let e = load(&|r| r.format = 2);
    assert!(
        matches!(
            e,
            SessionError::Record(RecordError::WrongFormat { found: 2, .. })
        ),
        "{e}"
    );

    // Manual dice: another entered die replays, but to another game.
    let m = played(5, DiceMode::Manual);
    let mut r = m.record().clone();
    let roll = r.actions.iter().position(|a| a.action == "roll").unwrap();
    r.actions[roll].dice = vec![6];
    r.actions[roll].rolled = vec![6];
    let e = Session::<Race>::from_record(r, &data())
        .map(|_| ())
        .unwrap_err();
    assert!(matches!(e, SessionError::HashMismatch { .. }), "{e}");

    // Changed data files are named as the likely cause.
    let other = engine::DataSet::from_files([(
        "toy-race/race.toml",
        "title = \"x\"\ntarget = 20\ntokens = 5\n",
    )]);
    let e = Session::<Race>::from_record(s.record().clone(), &other)
        .map(|_| ())
        .unwrap_err();
    assert!(e.to_string().contains("data files have changed"), "{e}");
}

#[test]
fn views_and_logs_keep_the_secret_bid() {
    let mut s = new_game(1, DiceMode::Seeded);
    s.act(EAST, "bid 3", &[]).unwrap();
    assert!(matches!(s.state().phase, Phase::Bidding { .. }));
    let secrets = ["bids 3 in secret", "shown"];
    secrecy_check(&s, &[Viewer::Seat(WEST), Viewer::Spectator], &secrets).unwrap();
    // The owner does see it: the check is not vacuous.
    let e = secrecy_check(&s, &[Viewer::Seat(WEST), Viewer::Seat(EAST)], &secrets).unwrap_err();
    assert!(
        e.to_string()
            .contains("sent to East contains `bids 3 in secret`"),
        "{e}"
    );
    assert_eq!(
        s.view(Viewer::Seat(WEST)).state.bids.unwrap()[0],
        race::BidView::Committed
    );
    assert_eq!(
        s.view(Viewer::Seat(EAST)).state.bids.unwrap()[0],
        race::BidView::Shown(3)
    );
    // Legal actions go only to their seat.
    assert!(s.view(Viewer::Spectator).actions.is_empty());
    assert_eq!(
        s.view(Viewer::Seat(WEST)).actions,
        ["bid 0", "bid 1", "bid 2", "bid 3"]
    );
    assert!(s.view(Viewer::Seat(EAST)).actions.is_empty());

    // After the reveal every viewer sees both bids.
    s.act(WEST, "bid 1", &[]).unwrap();
    let log = texts(&s.view(Viewer::Spectator).log);
    assert!(
        log.contains(&"Bids revealed: East 3, West 1".to_string()),
        "{log:?}"
    );
    assert!(!log.iter().any(|t| t.contains("in secret")), "{log:?}");

    let leaky = Session::<Race>::new(setup(1, DiceMode::Seeded, &["leaky-view"]), &data(), GAME);
    let mut leaky = leaky.unwrap();
    leaky.act(EAST, "bid 3", &[]).unwrap();
    let e = secrecy_check(&leaky, &[Viewer::Spectator], &secrets).unwrap_err();
    assert!(
        e.to_string()
            .contains("view sent to a spectator contains `shown`"),
        "{e}"
    );
}

#[test]
fn seat_names_are_looked_up_both_ways() {
    let s = new_game(1, DiceMode::Seeded);
    assert_eq!(s.seat_named("west"), Some(WEST));
    assert_eq!(s.seat_named("North"), None);
    assert_eq!(s.seat_name(EAST), "East");
}
