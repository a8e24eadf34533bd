//! The Allocation Segment (4.0 1.A, 7.0, 13.3): legal plans, commitments, the phases they
//! open, what each side sees when, the notation, and that re-sampling for searches keeps to
//! what the searching side sees and never reads the other's secret.

use acre::intervention::{Intervention, Used};
use acre::planning::{Allocation, Attack, MoslemPlan, Phases, Plan, Seen};
use acre::rules::Side;
use acre::Rules;
use rand_pcg::Pcg64;

fn rules() -> Rules {
    Rules::load(&acre::builtin_data()).unwrap()
}

fn moslem(repair: u8, discovery: u8, intervention: Intervention) -> Plan {
    Plan::Moslem(MoslemPlan {
        repair,
        discovery,
        intervention,
    })
}

#[test]
fn legal_plans_split_every_engineer_point_and_respect_the_counter_limits() {
    let r = rules();
    let a = Allocation::default();
    let used = Used::default();
    assert_eq!(a.legal(&r, Side::Crusader, 6, &used).len(), 2);
    // 7 splits of six points times three counters.
    let plans = a.legal(&r, Side::Moslem, 6, &used);
    assert_eq!(plans.len(), 21);
    assert!(plans
        .iter()
        .all(|p| matches!(p, Plan::Moslem(m) if m.repair + m.discovery == 6)));
    // 7.11: "Saladin Attacks" twice a game.
    let spent = Used {
        saladin_attacks: 2,
        ..Used::default()
    };
    let plans = a.legal(&r, Side::Moslem, 6, &spent);
    assert_eq!(plans.len(), 14);
    assert!(!plans
        .iter()
        .any(|p| matches!(p, Plan::Moslem(m) if m.intervention == Intervention::SaladinAttacks)));
    // 13.3: fewer points after subterranean losses.
    assert_eq!(a.legal(&r, Side::Moslem, 2, &used).len(), 9);
}

#[test]
fn commitments_are_checked_and_made_once() {
    let r = rules();
    let used = Used::default();
    let mut a = Allocation::default();
    let err = a
        .commit(&r, moslem(4, 1, Intervention::ArmyOfEgypt), 6, &used)
        .unwrap_err();
    assert!(err.contains("13.3"), "{err}");
    let spent = Used {
        saladin_attacks: 2,
        ..Used::default()
    };
    let err = a
        .commit(&r, moslem(3, 3, Intervention::SaladinAttacks), 6, &spent)
        .unwrap_err();
    assert!(err.contains("Saladin Attacks"), "{err}");
    assert_eq!(a.moslem, None);
    a.commit(&r, Plan::Crusader(Attack::Bombard), 6, &used)
        .unwrap();
    assert!(a
        .commit(&r, Plan::Crusader(Attack::Assault), 6, &used)
        .is_err());
    assert!(a.legal(&r, Side::Crusader, 6, &used).is_empty());
    assert_eq!(a.resolve(), None);
    a.commit(&r, moslem(3, 3, Intervention::ArmyOfMosul), 6, &used)
        .unwrap();
    assert!(a.complete());
}

#[test]
fn the_phases_follow_4_0_and_7_0() {
    let r = rules();
    let used = Used::default();
    let cases = [
        (Attack::Bombard, Intervention::ArmyOfEgypt, true, false),
        (Attack::Bombard, Intervention::SaladinAttacks, false, true),
        (Attack::Assault, Intervention::ArmyOfMosul, false, true),
        (Attack::Assault, Intervention::SaladinAttacks, false, true),
    ];
    for (attack, counter, bombardment, assault) in cases {
        let mut a = Allocation::default();
        a.commit(&r, moslem(6, 0, counter), 6, &used).unwrap();
        a.commit(&r, Plan::Crusader(attack), 6, &used).unwrap();
        // 13.33: repair points serve only in a Bombardment Phase.
        assert_eq!(a.repair_points(), if bombardment { 6 } else { 0 });
        assert_eq!(
            a.resolve(),
            Some(Phases {
                bombardment,
                assault
            }),
            "{attack:?} {counter:?}"
        );
    }
}

#[test]
fn each_side_sees_only_what_7_0_reveals() {
    let r = rules();
    let mut used = Used::default();
    let mut a = Allocation::default();
    let plan = MoslemPlan {
        repair: 2,
        discovery: 4,
        intervention: Intervention::ArmyOfEgypt,
    };
    a.commit(&r, Plan::Moslem(plan), 6, &used).unwrap();
    assert_eq!(a.seen_by(Side::Crusader).moslem, Seen::Hidden);
    assert_eq!(a.seen_by(Side::Moslem).moslem, Seen::Revealed(plan));
    assert_eq!(a.seen_by(Side::Moslem).crusader, Seen::Undecided);
    a.commit(&r, Plan::Crusader(Attack::Bombard), 6, &used)
        .unwrap();
    // Committed but not yet revealed: neither sees the other's.
    assert_eq!(a.seen_by(Side::Moslem).crusader, Seen::Hidden);
    assert_eq!(a.seen_by(Side::Crusader).moslem, Seen::Hidden);
    a.resolve().unwrap();
    // 7.0: the Crusader bombards, so the Moslem says only that Saladin does not attack.
    assert_eq!(
        a.seen_by(Side::Moslem).crusader,
        Seen::Revealed(Attack::Bombard)
    );
    assert_eq!(
        a.seen_by(Side::Crusader).moslem,
        Seen::SaladinAttacks(false)
    );
    a.end_of_turn(&r, &mut used).unwrap();
    assert_eq!(a.seen_by(Side::Crusader).moslem, Seen::Revealed(plan));
    assert_eq!(used.army_of_egypt, 1);

    // Assaulting, the Crusader learns nothing until the end of the Game-Turn.
    let mut b = Allocation::default();
    b.commit(&r, Plan::Crusader(Attack::Assault), 6, &used)
        .unwrap();
    b.commit(&r, moslem(0, 6, Intervention::SaladinAttacks), 6, &used)
        .unwrap();
    b.resolve().unwrap();
    assert_eq!(b.seen_by(Side::Crusader).moslem, Seen::Hidden);
    let text = serde_json::to_string(&b.seen_by(Side::Crusader)).unwrap();
    assert!(
        !text.contains("saladin") && !text.contains("discovery"),
        "{text}"
    );
}

#[test]
fn the_notation_reads_back_and_names_what_is_wrong() {
    for plan in [
        Plan::Crusader(Attack::Bombard),
        Plan::Crusader(Attack::Assault),
        moslem(4, 2, Intervention::ArmyOfMosul),
        moslem(0, 6, Intervention::SaladinAttacks),
    ] {
        assert_eq!(Plan::parse(&plan.text()), Ok(plan), "{}", plan.text());
    }
    assert_eq!(
        moslem(4, 2, Intervention::ArmyOfEgypt).text(),
        "plan repair 4 discover 2 army-of-egypt"
    );
    let err = Plan::parse("plan repair x discover 2 army-of-egypt").unwrap_err();
    assert!(
        err.contains("\"x\"") && err.contains("wall repair"),
        "{err}"
    );
    let err = Plan::parse("plan repair 4 discover 2 army-of-damascus").unwrap_err();
    assert!(err.contains("army-of-damascus"), "{err}");
    let err = Plan::parse("plan storm").unwrap_err();
    assert!(err.contains("storm"), "{err}");
    assert!(Plan::parse("march 0101").is_err());
    assert!(Plan::parse("plan repair 4").is_err());
}

#[test]
fn determinize_keeps_what_the_side_sees_and_resamples_the_rest() {
    use rand_core::SeedableRng;
    let r = rules();
    let used = Used::default();
    let mut a = Allocation::default();
    a.commit(&r, Plan::Crusader(Attack::Bombard), 6, &used)
        .unwrap();
    a.commit(&r, moslem(6, 0, Intervention::ArmyOfMosul), 6, &used)
        .unwrap();
    a.resolve().unwrap();
    let mut rng = Pcg64::seed_from_u64(7);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        let d = a.determinize(&r, Side::Crusader, 6, &used, &mut rng);
        // The Crusader's own choice and what 7.0 revealed stay.
        assert_eq!(d.crusader, Some(Attack::Bombard));
        assert_eq!(d.seen_by(Side::Crusader), a.seen_by(Side::Crusader));
        let m = d.moslem.unwrap();
        assert_eq!(m.repair + m.discovery, 6);
        assert_ne!(m.intervention, Intervention::SaladinAttacks);
        seen.insert((m.repair, m.intervention));
    }
    // It really re-samples rather than copying the secret.
    assert!(seen.len() > 5, "{seen:?}");

    // The Moslem before the reveal does not know the Crusader's choice.
    let mut b = Allocation::default();
    b.commit(&r, Plan::Crusader(Attack::Assault), 6, &used)
        .unwrap();
    let choices: std::collections::BTreeSet<_> = (0..50)
        .map(|_| {
            format!(
                "{:?}",
                b.determinize(&r, Side::Moslem, 6, &used, &mut rng).crusader
            )
        })
        .collect();
    assert_eq!(choices.len(), 2);
    // Its own side is never changed.
    let d = b.determinize(&r, Side::Crusader, 6, &used, &mut rng);
    assert_eq!(d, b);
}

#[test]
fn no_event_the_other_seat_sees_shows_a_plan_before_7_0_reveals_it() {
    use engine::{Viewer, Visibility};
    let r = rules();
    let used = Used::default();
    let crusader_seat = Viewer::Seat(acre::planning::seat(Side::Crusader));
    let moslem_seat = Viewer::Seat(acre::planning::seat(Side::Moslem));
    let plan = moslem(2, 4, Intervention::ArmyOfMosul);
    let events = Allocation::commit_events(plan);
    let seen: Vec<&str> = events
        .iter()
        .filter(|e| crusader_seat.sees(&e.visibility))
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(seen, ["the Moslem has made his secret plan"]);
    assert!(events
        .iter()
        .any(|e| moslem_seat.sees(&e.visibility) && e.text.contains("Army of Mosul")));
    assert!(events
        .iter()
        .filter(|e| e.visibility != Visibility::All)
        .all(|e| !Viewer::Spectator.sees(&e.visibility)));
    let events = Allocation::commit_events(Plan::Crusader(Attack::Assault));
    assert!(events
        .iter()
        .filter(|e| moslem_seat.sees(&e.visibility))
        .all(|e| !e.text.contains("assault")));

    // Assaulting: the reveal says nothing of the counter; the end of the Game-Turn does.
    let mut a = Allocation::default();
    a.commit(&r, Plan::Crusader(Attack::Assault), 6, &used)
        .unwrap();
    a.commit(&r, plan, 6, &used).unwrap();
    a.resolve().unwrap();
    let reveal = a.reveal_events();
    assert_eq!(reveal.len(), 1);
    assert!(reveal[0].text.contains("assault"));
    assert!(reveal
        .iter()
        .all(|e| !e.text.contains("Mosul") && !e.text.contains("Saladin")));
    let end = a.end_of_turn_events();
    assert!(end[0].text.contains("Army of Mosul") && end[0].visibility == Visibility::All);

    // Bombarding: only whether Saladin attacks.
    let mut b = Allocation::default();
    b.commit(&r, Plan::Crusader(Attack::Bombard), 6, &used)
        .unwrap();
    b.commit(&r, plan, 6, &used).unwrap();
    let reveal = b.reveal_events();
    assert_eq!(reveal.len(), 2);
    assert_eq!(reveal[1].text, "Saladin does not attack");
    assert!(reveal.iter().all(|e| !e.text.contains("Mosul")));
}

#[test]
fn wounded_leaders_and_repaired_engines_return_in_the_allocation_segment() {
    use acre::planning::returning;
    let r = rules();
    let mut p = acre::Position::empty(&r);
    let richard = r.leader("Richard").unwrap();
    let philippe = r.leader("Philippe").unwrap();
    p.leaders[richard].wounded_until = Some(3);
    p.leaders[philippe].wounded_until = Some(1);
    p.leaders[philippe].dead = true;
    let tower = (0..r.siege.len())
        .find(|&s| r.siege[s].kind == acre::rules::SiegeKind::SiegeTower)
        .unwrap();
    p.siege[tower].returns_on = Some(5);
    // 14.42: back in the Allocation Segment of the Game-Turn after the last one missed.
    assert_eq!(returning(&r, &p, Side::Crusader, 3), (vec![], vec![]));
    assert_eq!(
        returning(&r, &p, Side::Crusader, 4),
        (vec![richard], vec![])
    );
    // 12.17: the tower is back from its Game-Turn; the dead never return.
    assert_eq!(
        returning(&r, &p, Side::Crusader, 5),
        (vec![richard], vec![tower])
    );
    assert_eq!(returning(&r, &p, Side::Moslem, 5), (vec![], vec![]));
}
