//! The game through its actions: set-up by the quick start and piece by piece (17.0), the
//! secret plans and the phases they open (4.0 1.A, 7.0), the notation and its errors, and
//! illegal actions refused without change.

use engine::{DiceMode, Game, Log, Pending, Seat, Setup, Startable};

const CRUSADER: Seat = Seat(0);
const MOSLEM: Seat = Seat(1);

fn start(scenario: &str, options: &[&str]) -> acre::State {
    let setup = Setup {
        scenario: scenario.into(),
        options: options.iter().map(|s| s.to_string()).collect(),
        seed: 11,
        dice: DiceMode::Seeded,
        position: None,
    };
    acre::State::start(&setup, &acre::builtin_data()).unwrap()
}

fn act(g: &mut acre::State, seat: Seat, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(seat, &a, &mut Log::discarding())
        .unwrap_or_else(|e| panic!("{text}: {e}"));
}

#[test]
fn the_quick_start_leads_to_the_secret_plans() {
    let mut g = start("siege", &[]);
    assert_eq!(
        g.pending(),
        Pending::Seats(vec![CRUSADER]),
        "17.0: the Crusader first"
    );
    assert!(g.legal_actions(MOSLEM).is_empty());
    act(&mut g, CRUSADER, "deploy-historical");
    assert_eq!(g.pending(), Pending::Seats(vec![MOSLEM]));
    act(&mut g, MOSLEM, "deploy-historical");
    // 4.0 1.A: both decide at once.
    assert_eq!(g.pending(), Pending::Seats(vec![CRUSADER, MOSLEM]));
    act(&mut g, MOSLEM, "plan repair 6 discover 0 army-of-egypt");
    assert_eq!(g.pending(), Pending::Seats(vec![CRUSADER]));
    act(&mut g, CRUSADER, "plan bombard");
    // 4.0 1.B: the Crusader's strategic movement follows.
    assert_eq!(g.pending(), Pending::Seats(vec![CRUSADER]));
    assert_eq!(g.phases.map(|p| p.bombardment), Some(true));
    assert!(g.step_name().contains("Crusader Strategic Movement"));
}

#[test]
fn saladin_attacks_opens_the_assault_phase_whatever_the_crusader_chose() {
    let mut g = start("siege", &[]);
    act(&mut g, CRUSADER, "deploy-historical");
    act(&mut g, MOSLEM, "deploy-historical");
    act(&mut g, CRUSADER, "plan bombard");
    act(&mut g, MOSLEM, "plan repair 3 discover 3 saladin-attacks");
    let p = g.phases.unwrap();
    assert!(p.assault && !p.bombardment, "7.0, 4.0 2: no bombardment");
}

#[test]
fn a_side_set_up_piece_by_piece_is_complete_and_legal() {
    let mut g = start("siege-conrad", &[]);
    assert!(g.conrad);
    let mut n = 0;
    while g.pending() == Pending::Seats(vec![CRUSADER]) {
        let legal = g.legal_actions(CRUSADER);
        // Always the first placement offered, never the quick start.
        let a = legal
            .iter()
            .find(|a| matches!(a, acre::Action::Place(..)))
            .expect("a placement is always offered while pieces remain")
            .clone();
        g.apply(CRUSADER, &a, &mut Log::discarding()).unwrap();
        n += 1;
        assert!(n < 1000);
    }
    assert!(n > 20, "every Crusader piece placed one at a time");
    acre::setup::check_complete(&g.rules, &g.pos, acre::rules::Side::Crusader, true).unwrap();
}

#[test]
fn notation_reads_back_and_bad_notation_is_named() {
    let mut g = start("siege", &[]);
    act(&mut g, CRUSADER, "deploy-historical");
    act(&mut g, MOSLEM, "deploy-historical");
    for a in g.legal_actions(MOSLEM).into_iter().take(50) {
        let text = g.action_text(&a);
        assert_eq!(g.parse_action(&text), Ok(a), "{text}");
    }
    let err = |t: &str| g.parse_action(t).unwrap_err();
    assert!(err("move 9999").contains("9999"));
    assert!(err("select sir-nobody").contains("sir-nobody"));
    assert!(err("fly richard").contains("fly"));
    assert!(err("dig 0 1710").contains("Tunnel Base number"));
    assert!(err("fire richard 1710").contains("leader"));
    assert!(err("plan charge").contains("charge"));
    assert!(err("").contains("empty"));
}

#[test]
fn an_illegal_action_is_refused_and_changes_nothing() {
    let mut g = start("siege", &[]);
    act(&mut g, CRUSADER, "deploy-historical");
    act(&mut g, MOSLEM, "deploy-historical");
    let before = engine::state_hash(&g);
    let a = g.parse_action("plan assault").unwrap();
    let refused = g.apply(MOSLEM, &a, &mut Log::discarding());
    assert!(refused.is_err(), "the Crusader's plan is not the Moslem's");
    let a = g.parse_action("end").unwrap();
    assert!(g.apply(CRUSADER, &a, &mut Log::discarding()).is_err());
    assert_eq!(engine::state_hash(&g), before);
}

#[test]
fn the_moslem_allocates_all_his_engineer_points() {
    let mut g = start("siege", &[]);
    act(&mut g, CRUSADER, "deploy-historical");
    act(&mut g, MOSLEM, "deploy-historical");
    // 13.3: six points, all of them; three counters.
    assert_eq!(g.legal_actions(MOSLEM).len(), 7 * 3);
    let a = g
        .parse_action("plan repair 2 discover 2 army-of-egypt")
        .unwrap();
    assert!(g.apply(MOSLEM, &a, &mut Log::discarding()).is_err());
}

#[test]
fn unknown_scenarios_and_options_are_named() {
    let data = acre::builtin_data();
    let mut setup = Setup {
        scenario: "storm".into(),
        options: Vec::new(),
        seed: 0,
        dice: DiceMode::Seeded,
        position: None,
    };
    let e = acre::State::start(&setup, &data).err().unwrap().to_string();
    assert!(e.contains("storm") && e.contains("acre/siege"), "{e}");
    setup.scenario = "siege".into();
    setup.options = vec!["richard-lionheart".into()];
    let e = acre::State::start(&setup, &data).err().unwrap().to_string();
    assert!(
        e.contains("richard-lionheart") && e.contains("conrad"),
        "{e}"
    );
    let scenarios = acre::State::scenarios(&data).unwrap();
    let ids: Vec<&str> = scenarios.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["siege", "siege-conrad"]);
}

#[test]
fn a_fast_moslem_unit_may_retreat_before_a_crusader_melee() {
    use acre::position::{Location, Position};
    use acre::sequence::{Segment, Step};
    let mut g = start("siege", &[]);
    act(&mut g, CRUSADER, "deploy-historical");
    act(&mut g, MOSLEM, "deploy-historical");
    act(&mut g, CRUSADER, "plan assault");
    act(&mut g, MOSLEM, "plan repair 3 discover 3 army-of-egypt");
    let r = g.rules.clone();
    g.pos = Position::empty(&r);
    let hex = |id: &str| r.map.hex(id).unwrap();
    let english = r.unit("English Men-at-Arms 1").unwrap();
    let fast = (0..r.units.len())
        .find(|&u| r.side_of(u) == acre::rules::Side::Moslem && r.units[u].movement == 9)
        .expect("a Moslem unit of nine Movement Points (10.2)");
    g.pos.units[english].at = Location::Map(hex("0520"));
    g.pos.units[fast].at = Location::Map(hex("0420"));
    let leader = (0..r.leaders.len())
        .find(|&l| acre::leaders::commands(&r, l, false, r.units[fast].contingent))
        .unwrap();
    g.pos.leaders[leader].at = Location::Map(hex("0420"));
    g.turn.step = Step::Impulse {
        impulse: 1,
        segment: Segment::CrusaderMelee,
    };
    g.work = Default::default();
    act(&mut g, CRUSADER, "attack 0420");
    let join = format!("join {}", acre::state::slug(&r.units[english].name));
    act(&mut g, CRUSADER, &join);
    act(&mut g, CRUSADER, "resolve");
    // 10.21: the Moslem chooses before the die is rolled.
    assert_eq!(g.pending(), Pending::Seats(vec![MOSLEM]));
    assert_eq!(
        g.legal_actions(MOSLEM),
        vec![acre::Action::Evade, acre::Action::Stand]
    );
    act(&mut g, MOSLEM, "evade");
    let mut steps = 0;
    while g.pending() == Pending::Seats(vec![MOSLEM]) && g.pos.hex_of(fast).is_some() {
        let legal = g.legal_actions(MOSLEM);
        let stop = legal.iter().find(|a| matches!(a, acre::Action::Stop(_)));
        if let Some(stop) = stop.cloned() {
            assert!(steps >= 3, "10.21: at least three hexes before stopping");
            g.apply(MOSLEM, &stop, &mut Log::discarding()).unwrap();
            break;
        }
        let a = legal
            .iter()
            .find(|a| matches!(a, acre::Action::Retreat(..)))
            .expect("a retreat step")
            .clone();
        g.apply(MOSLEM, &a, &mut Log::discarding()).unwrap();
        steps += 1;
    }
    assert!(steps >= 3);
    assert!(g.pos.units[fast].disrupted, "10.21: disrupted");
    // 9.22: the leader left behind may go along.
    assert_eq!(
        g.legal_actions(MOSLEM),
        vec![acre::Action::Follow(leader), acre::Action::Stay(leader)]
    );
    act(
        &mut g,
        MOSLEM,
        &format!("follow {}", acre::state::slug(&r.leaders[leader].name)),
    );
    assert_eq!(g.pos.leaders[leader].at, g.pos.units[fast].at);
    // 10.25: it may not be attacked again this segment; the Crusader goes on.
    assert_eq!(g.pending(), Pending::Seats(vec![CRUSADER]));
    assert!(g.work.attacked.contains(&hex("0420")));
}
