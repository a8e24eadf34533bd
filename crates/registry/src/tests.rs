//! The registry on the toy race: starting, acting, views, undo, saving, loading and replay
//! through [`AnyGame`] only.

use super::*;
use ai::PlayerSpec;

fn data() -> DataSet {
    all_data(None).unwrap()
}

fn race(seed: u64) -> Box<dyn AnyGame> {
    new_game("toy-race/race", &[], seed, DiceMode::Seeded, None, &data()).unwrap()
}

#[test]
fn games_can_move_between_threads() {
    fn send<T: Send + ?Sized>() {}
    send::<Box<dyn AnyGame>>();
}

#[test]
fn the_table_lists_the_toy_and_its_scenario() {
    assert!(games().iter().any(|g| g.id == "toy-race"));
    let list = scenarios(&data()).unwrap();
    let race = list.iter().find(|s| s.id == "toy-race/race").unwrap();
    assert_eq!(race.game, "toy-race");
    assert_eq!(race.seats, ["East", "West"]);
    assert_eq!(race.options[0].name, "short");
    assert!(data().text(toy::FILE).is_ok());
}

#[test]
fn unknown_scenarios_and_options_are_named() {
    let d = data();
    for id in ["toy-race/marathon", "nope", "nope/race"] {
        let e = new_game(id, &[], 1, DiceMode::Seeded, None, &d)
            .err()
            .unwrap();
        assert!(matches!(e, RegistryError::UnknownScenario { .. }), "{e}");
        assert!(e.to_string().contains("toy-race/race"), "{e}");
        assert!(e.is_bad_input());
    }
    let e = new_game(
        "toy-race/race",
        &["fast".into()],
        1,
        DiceMode::Seeded,
        None,
        &d,
    )
    .err()
    .unwrap();
    assert_eq!(
        e.to_string(),
        "scenario toy-race/race has no option `fast` (options: short)"
    );
}

#[test]
fn a_game_plays_through_the_object_safe_interface() {
    let mut g = race(3);
    assert_eq!(g.game_id(), "toy-race");
    assert_eq!(g.scenario(), "toy-race/race");
    let east = g.seat_named("east").unwrap();
    let west = g.seat_named("West").unwrap();
    assert_eq!(g.pending(), Pending::Seats(vec![east, west]));
    assert_eq!(g.legal_actions(east), ["bid 0", "bid 1", "bid 2", "bid 3"]);
    let events = g.act(east, "bid 2", &[]).unwrap();
    assert_eq!(events[0].text, "East bids 2 in secret");
    // West sees that East has bid, never how much.
    let west_view = g.view_json(Viewer::Seat(west)).to_string();
    assert!(!west_view.contains("bids 2"), "{west_view}");
    assert!(west_view.contains("East has bid"), "{west_view}");
    let spectator: Vec<String> = g
        .events(Viewer::Spectator)
        .into_iter()
        .map(|e| e.text)
        .collect();
    assert_eq!(spectator, ["East has bid"]);
    // A bid changes who must decide: it cannot be taken back.
    assert!(g.undo(east).is_err());
    g.act(west, "bid 1", &[]).unwrap();
    assert_eq!(g.pending(), Pending::Seats(vec![east]));
    // A boost can.
    let hash = g.state_hash();
    g.act(east, "boost", &[]).unwrap();
    assert_eq!(g.undo(east).unwrap().action, "boost");
    assert_eq!(g.state_hash(), hash);
    let e = g.act(west, "roll", &[]).unwrap_err();
    assert!(e.is_bad_input());
    g.act(east, "roll", &[]).unwrap();
    assert_eq!(g.record().actions.len(), 3);
    assert!(render_ok(&g.board(Viewer::Spectator)));
}

fn render_ok(board: &Board) -> bool {
    engine::render_svg(board).starts_with("<svg")
}

#[test]
fn saved_games_load_and_replay_and_edits_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("race.json");
    let mut g = race(9);
    g.act(Seat(0), "bid 1", &[]).unwrap();
    g.act(Seat(1), "bid 3", &[]).unwrap();
    g.act(Seat(1), "roll", &[]).unwrap();
    g.save(&path).unwrap();
    let back = load(&path, &data()).unwrap();
    assert_eq!(back.state_hash(), g.state_hash());
    let report = replay(GameRecord::load(&path).unwrap(), &data()).unwrap();
    assert!(report.matches && !report.data_changed);
    assert_eq!(report.actions, 3);

    let mut edited = GameRecord::load(&path).unwrap();
    edited.state_hash = "0123456789abcdef".into();
    let report = replay(edited.clone(), &data()).unwrap();
    assert!(!report.matches, "{report:?}");
    let e = from_record(edited, &data()).err().unwrap();
    assert!(e.to_string().contains("differs from the saved one"), "{e}");
    assert!(e.is_bad_input());

    let mut other = GameRecord::load(&path).unwrap();
    other.game = "chess".into();
    let e = from_record(other, &data()).err().unwrap();
    assert!(e.to_string().starts_with("unknown game `chess`"), "{e}");

    let e = load(&dir.path().join("missing.json"), &data())
        .err()
        .unwrap();
    assert!(!e.is_bad_input(), "a missing file is an I/O error: {e}");
}

#[test]
fn data_can_be_overridden_and_bad_overrides_are_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("toy-race")).unwrap();
    let file = dir.path().join("toy-race/race.toml");
    std::fs::write(&file, "title = \"Short Race\"\ntarget = 5\ntokens = 4\n").unwrap();
    let d = all_data(Some(dir.path())).unwrap();
    let list = scenarios(&d).unwrap();
    assert!(list.iter().any(|s| s.title == "Short Race"));
    // Missing provenance is an audit error.
    let e = audit(&d).unwrap_err();
    assert!(e.to_string().contains("has no provenance"), "{e}");

    std::fs::write(&file, "title = \"x\"\ntarget = 5\ntokens = 4\nspeed = 3\n").unwrap();
    let d = all_data(Some(dir.path())).unwrap();
    let e = new_game("toy-race/race", &[], 1, DiceMode::Seeded, None, &d)
        .err()
        .unwrap();
    assert!(e.is_bad_input());
    assert!(e.to_string().contains("toy-race/race.toml:4"), "{e}");
    assert!(e.to_string().contains("speed"), "{e}");

    let e = all_data(Some(&dir.path().join("nowhere"))).unwrap_err();
    assert!(e.to_string().contains("not a folder"), "{e}");
}

#[test]
fn the_audit_lists_every_value() {
    let entries = audit(&data()).unwrap();
    let toy: Vec<_> = entries.iter().filter(|e| e.file == toy::FILE).collect();
    assert_eq!(toy.len(), 3);
    assert!(toy
        .iter()
        .any(|e| e.source == engine::Source::Reconstructed && e.item == "tokens = 4"));
}

#[test]
fn positions_start_mid_race() {
    let g = new_game(
        "toy-race/race",
        &[],
        1,
        DiceMode::Manual,
        Some("points = [18, 2]\ntokens = [1, 0]\nround = 7\n".into()),
        &data(),
    )
    .unwrap();
    assert_eq!(g.legal_actions(Seat(1)), ["bid 0"]);
    let e = new_game(
        "toy-race/race",
        &[],
        1,
        DiceMode::Manual,
        Some("points = 3".into()),
        &data(),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("position"), "{e}");
}

#[test]
fn the_toy_passes_the_engine_checks() {
    let setup = Setup {
        scenario: "race".into(),
        options: vec![],
        seed: 0,
        dice: DiceMode::Manual,
        position: None,
    };
    let report = engine::random_games::<toy::Race>(&setup, &toy::data(), 20, 500);
    assert_eq!(report.finished, 20);
}

#[test]
fn crusades_ii_is_registered_with_its_scenarios_and_audit() {
    let d = data();
    let ids: Vec<String> = scenarios(&d).unwrap().into_iter().map(|s| s.id).collect();
    for id in [
        "crusades-ii/hattin",
        "crusades-ii/hab",
        "crusades-ii/nicopolis",
        "crusades-ii/tannenburg",
    ] {
        assert!(ids.iter().any(|i| i == id), "{id} in {ids:?}");
        let g = new_game(id, &[], 1, DiceMode::Seeded, None, &d).unwrap();
        assert_eq!(g.game_id(), "crusades-ii");
        assert_eq!(g.scenario(), id);
        let seat = g.pending().seats()[0];
        assert!(!g.legal_actions(seat).is_empty());
    }
    assert!(audit(&d)
        .unwrap()
        .iter()
        .any(|e| e.file.starts_with("crusades-ii/")));
}

fn batch(games: u64, seed: u64, threads: usize) -> Batch {
    Batch {
        games,
        seed,
        threads,
        max_actions: Batch::MAX_ACTIONS,
    }
}

fn spec(text: &str) -> PlayerSpec {
    text.parse().unwrap()
}

#[test]
fn a_batch_is_the_same_at_any_thread_count() {
    let d = data();
    let run = |games, seed, players: &[(String, PlayerSpec)], threads| {
        simulate(
            "toy-race/race",
            &[],
            players,
            batch(games, seed, threads),
            &d,
            &|| {},
        )
        .unwrap()
    };
    // More games than the window, so that threads wait for it to move on too.
    let one = run(WINDOW + 44, 7, &[], 1);
    assert_eq!(one, run(WINDOW + 44, 7, &[], 3));
    assert_eq!(one.games, WINDOW + 44);
    assert_ne!(
        one,
        run(WINDOW + 44, 8, &[], 2),
        "another seed, other games"
    );
    let searching = [("east".to_string(), spec("mcts:30"))];
    assert_eq!(run(24, 7, &searching, 1), run(24, 7, &searching, 4));
}

#[test]
fn a_failing_batch_names_its_first_failed_game_at_any_thread_count() {
    // `lists-illegal` breaks the toy on purpose: random players soon pick `bid 9`, which is
    // refused. It is not a listed option, so the plan is made here rather than by `simulate`.
    let plan = |threads| Plan {
        scenario: "toy-race/race".into(),
        setup: toy::setup(0, DiceMode::Seeded, &["lists-illegal"]),
        seats: vec!["East".into(), "West".into()],
        players: vec![spec("random"), spec("random")],
        batch: batch(40, 3, threads),
    };
    let d = data();
    let fail = |threads| {
        simulate::simulate_games::<toy::Race, ai::NoDoctrine>(
            "toy-race",
            &plan(threads),
            &d,
            &|| {},
        )
        .unwrap_err()
        .to_string()
    };
    let one = fail(1);
    assert!(one.starts_with("game "), "{one}");
    assert!(one.contains("`bid 9`, which was refused"), "{one}");
    for threads in [2, 3] {
        assert_eq!(fail(threads), one, "on {threads} threads");
    }
}

#[test]
fn a_summary_counts_every_game_and_the_games_stats() {
    let d = data();
    let played = std::sync::atomic::AtomicU64::new(0);
    let s = simulate(
        "toy-race/race",
        &["short".into()],
        &[("West".into(), spec("mcts:40"))],
        batch(60, 3, 2),
        &d,
        &|| {
            played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        },
    )
    .unwrap();
    assert_eq!(played.into_inner(), 60, "progress is called once per game");
    assert_eq!(s.scenario, "toy-race/race");
    assert_eq!(s.options, ["short"]);
    assert!(s.deterministic);
    assert_eq!(
        s.seats
            .iter()
            .map(|x| (x.seat.as_str(), x.player.as_str()))
            .collect::<Vec<_>>(),
        [("East", "random"), ("West", "mcts:40")]
    );
    let wins: u64 = s.seats.iter().map(|x| x.wins.count).sum();
    assert_eq!(wins + s.draws.count + s.unfinished, 60);
    assert_eq!(s.outcomes.iter().map(|o| o.games).sum::<u64>(), 60);
    for x in &s.seats {
        assert!(x.wins.low <= x.wins.rate && x.wins.rate <= x.wins.high);
    }
    // A search beats a random runner.
    assert!(
        s.seats[1].wins.count > s.seats[0].wins.count,
        "{:?}",
        s.seats
    );
    assert_eq!(s.length.histogram.iter().map(|b| b.games).sum::<u64>(), 60);
    assert!(s.length.min <= s.length.median && s.length.median <= s.length.max);
    let names: Vec<(&str, Option<&str>)> = s
        .stats
        .iter()
        .map(|x| (x.name.as_str(), x.seat.as_deref()))
        .collect();
    assert_eq!(
        names,
        [
            ("points", Some("East")),
            ("points", Some("West")),
            ("rounds", None)
        ]
    );
    // The short race ends at 10 points: the winner has at least 10.
    assert!(s.stats.iter().all(|x| x.games == 60 && x.min <= x.max));
    assert!(s.stats[0].max.max(s.stats[1].max) >= 10.0);

    let capped = simulate(
        "toy-race/race",
        &[],
        &[],
        Batch {
            max_actions: 3,
            ..batch(5, 1, 2)
        },
        &d,
        &|| {},
    )
    .unwrap();
    assert_eq!(capped.unfinished, 5);
    assert_eq!((capped.length.min, capped.length.max), (3, 3));
    assert!(capped.outcomes.is_empty());
}

#[test]
fn bad_seats_and_players_are_refused_before_any_game() {
    let d = data();
    let run = |players: &[(String, PlayerSpec)]| {
        simulate("toy-race/race", &[], players, batch(3, 1, 1), &d, &|| {})
            .err()
            .unwrap()
    };
    let e = run(&[("North".into(), PlayerSpec::Random)]);
    assert_eq!(
        e.to_string(),
        "no seat `North` in toy-race/race (seats: East, West)"
    );
    assert!(e.is_bad_input());
    let e = run(&[
        ("east".into(), PlayerSpec::Random),
        ("East".into(), spec("mcts:5")),
    ]);
    assert!(
        e.to_string().contains("seat East is given two players"),
        "{e}"
    );
    let e = run(&[("East".into(), PlayerSpec::Heuristic)]);
    assert_eq!(
        e.to_string(),
        "no heuristic doctrine for toy-race yet: use random or mcts"
    );
    assert!(e.is_bad_input());
    let e = simulate(
        "toy-race/race",
        &["fast".into()],
        &[],
        batch(1, 1, 1),
        &d,
        &|| {},
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("no option `fast`"), "{e}");
}

#[test]
fn an_ai_takes_a_decision_in_a_game_in_play() {
    let mut g = race(2);
    let east = g.seat_named("East").unwrap();
    let west = g.seat_named("West").unwrap();
    let legal = g.legal_actions(east);
    let m = ai_move(g.as_mut(), east, &spec("mcts:50"), 9).unwrap();
    assert!(legal.contains(&m.action), "{m:?}");
    assert_eq!(g.record().actions.len(), 1);
    assert!(
        m.events.iter().any(|e| e.text.contains("in secret")),
        "{m:?}"
    );
    // The same seed in the same game gives the same action.
    let mut again = race(2);
    assert_eq!(
        ai_move(again.as_mut(), east, &spec("mcts:50"), 9)
            .unwrap()
            .action,
        m.action
    );
    // East has bid: it has no decision left this round.
    let e = ai_move(g.as_mut(), east, &PlayerSpec::Random, 1).unwrap_err();
    assert!(
        e.to_string().contains("East has no decision to make now"),
        "{e}"
    );
    assert!(!e.is_bad_input());
    let e = ai_move(g.as_mut(), west, &PlayerSpec::Heuristic, 1).unwrap_err();
    assert!(e.is_bad_input(), "{e}");
    let e = check_player(g.as_ref(), &PlayerSpec::Heuristic).unwrap_err();
    assert!(
        e.to_string().contains("no heuristic doctrine for toy-race"),
        "{e}"
    );
    check_player(g.as_ref(), &spec("mcts:2s")).unwrap();
    ai_move(g.as_mut(), west, &PlayerSpec::Random, 1).unwrap();
    assert_eq!(g.record().actions.len(), 2);
}

#[test]
fn scenarios_name_the_ai_players_their_game_has() {
    let list = scenarios(&data()).unwrap();
    let players = |id: &str| list.iter().find(|s| s.id == id).unwrap().players.clone();
    assert_eq!(players("crusades-ii/hab"), ["random", "heuristic", "mcts"]);
    assert_eq!(players("toy-race/race"), ["random", "mcts"]);
}

/// A duel of `scenario` (a full id) between `first` and `second`, the first in `seat`.
fn duel(scenario: &str, first: &str, second: &str, seat: u8, turns: u32, dice: u64) -> DuelResult {
    let d = data();
    let (entry, s) = find_scenario(scenario, &d).unwrap();
    let local = s.id.split_once('/').unwrap().1;
    let duel = Duel {
        setup: Setup::seeded(local, 0),
        first: spec(first),
        second: spec(second),
        first_seat: Seat(seat),
        turns,
        max_actions: 20_000,
    };
    (entry.duel)(entry.id, &duel, &d, dice).unwrap()
}

#[test]
fn a_duel_is_reported_for_its_first_player_and_repeats_for_its_dice() {
    let a = duel("toy-race/race", "mcts:20", "random", 0, 0, 3);
    assert!(a.finished && [0.0, 0.5, 1.0].contains(&a.points), "{a:?}");
    assert_eq!(a.points, a.evaluation);
    assert!(a.decisions[0] > 0 && a.decisions[1] > 0, "{a:?}");
    let again = duel("toy-race/race", "mcts:20", "random", 0, 0, 3);
    assert_eq!(
        (a.points, a.actions, a.decisions),
        (again.points, again.actions, again.decisions)
    );
    // The same game told from the other side: the opponent's points.
    let mirror = duel("toy-race/race", "random", "mcts:20", 1, 0, 3);
    assert_eq!(mirror.actions, a.actions);
    assert_eq!(mirror.points, 1.0 - a.points);
    assert_eq!(mirror.decisions, [a.decisions[1], a.decisions[0]]);
}

#[test]
fn a_duel_cut_short_is_judged_by_the_evaluation() {
    let r = duel("crusades-ii/hab", "heuristic", "random", 1, 1, 5);
    assert!(!r.finished, "{r:?}");
    assert_eq!(r.turns, 2.0, "judged as the second turn begins");
    assert_eq!(r.points, judge(r.evaluation));
    assert_eq!(judge(0.5 + JUDGE_MARGIN + 0.001), 1.0);
    assert_eq!(judge(0.5 + JUDGE_MARGIN), 0.5);
    assert_eq!(judge(0.5 - JUDGE_MARGIN), 0.5);
    assert_eq!(judge(0.5 - JUDGE_MARGIN - 0.001), 0.0);
}
