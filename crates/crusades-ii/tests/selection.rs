//! Counters move one at a time (8.0): a movement decision is `select COUNTER`, then one of
//! its moves or `deselect` (notation.md). The two steps change no rule: a plain `move` with
//! nothing selected is still accepted, as `select` and the move in one. And a free chit
//! change may not go back to a chit held earlier in the Order Phase (5.2, rules notes).

mod common;

use common::*;
use engine::{state_hash, Game};

/// Hab at the first player's first movement: historical set-up, the first chits listed,
/// orders done.
fn first_movement() -> crusades_ii::State {
    let mut s = start("hab", &[], 3);
    for _ in 0..100 {
        if s.phase == crusades_ii::state::Phase::Movement {
            return s;
        }
        let seat = s.pending().seats()[0];
        let name = s.battle.seats[seat.index()].clone();
        let l = legal(&s, &name);
        let pick = ["deploy-historical", "orders-done"]
            .into_iter()
            .find(|a| l.iter().any(|b| b == a))
            .map(str::to_string)
            .unwrap_or_else(|| l[0].clone());
        act(&mut s, &name, &pick, &[]);
    }
    panic!("no movement phase");
}

fn mover(s: &crusades_ii::State) -> String {
    s.battle.seats[s.active.index()].clone()
}

#[test]
fn a_move_is_a_counter_then_one_of_its_moves() {
    let s = first_movement();
    let side = mover(&s);
    let top = legal(&s, &side);
    let selects: Vec<&String> = top.iter().filter(|a| a.starts_with("select ")).collect();
    assert!(selects.len() > 5, "{top:?}");
    assert!(
        top.iter()
            .all(|a| a.starts_with("select ") || a == "end-movement"),
        "{top:?}"
    );
    let first = selects[0].clone();
    let name = first.trim_start_matches("select ").to_string();
    let mut t = s.clone();
    act(&mut t, &side, &first, &[]);
    let moves = legal(&t, &side);
    assert_eq!(moves.last().map(String::as_str), Some("deselect"));
    assert!(moves.len() > 1, "{moves:?}");
    assert!(
        moves[..moves.len() - 1]
            .iter()
            .all(|a| a.starts_with(&format!("move {name} "))),
        "only the selected counter's moves: {moves:?}"
    );
    // While it is selected, no other counter is chosen and the phase does not end.
    let other = selects[1].clone();
    assert!(try_act(&mut t.clone(), &side, &other, &[]).is_err());
    let e = try_act(&mut t.clone(), &side, "end-movement", &[]).unwrap_err();
    assert!(e.contains("selected"), "{e}");
    // Put back, it is not offered again until a counter has moved.
    act(&mut t, &side, "deselect", &[]);
    assert!(!legal(&t, &side).contains(&first));
    assert!(try_act(&mut t.clone(), &side, &first, &[]).is_err());
    let mut u = t.clone();
    act(&mut u, &side, &other, &[]);
    let other_move = legal(&u, &side)[0].clone();
    act(&mut u, &side, &other_move, &[]);
    assert!(
        legal(&u, &side).contains(&first),
        "offered again after a move"
    );
    assert!(
        !legal(&u, &side).contains(&other),
        "the moved counter is done"
    );
}

#[test]
fn a_plain_move_with_nothing_selected_is_select_and_move_in_one() {
    let s = first_movement();
    let side = mover(&s);
    let select = legal(&s, &side)[0].clone();
    let mut two = s.clone();
    act(&mut two, &side, &select, &[]);
    let moves = legal(&two, &side);
    let mv = moves[moves.len() / 2].clone();
    assert!(mv.starts_with("move "), "{mv}");
    assert!(
        !legal(&s, &side).contains(&mv),
        "the shorthand is not listed"
    );
    act(&mut two, &side, &mv, &[]);
    let mut one = s.clone();
    act(&mut one, &side, &mv, &[]);
    assert_eq!(state_hash(&one), state_hash(&two));
    // Not while another counter is selected.
    let other = legal(&s, &side)[1].clone();
    let mut t = s.clone();
    act(&mut t, &side, &other, &[]);
    let e = try_act(&mut t, &side, &mv, &[]).unwrap_err();
    assert!(e.contains("another counter is selected"), "{e}");
}

#[test]
fn select_is_described_by_its_counter_alone() {
    let s = first_movement();
    let seat = s.active;
    let select = s
        .legal_actions(seat)
        .into_iter()
        .find(|a| matches!(a, crusades_ii::Action::Select { .. }))
        .expect("a select");
    let crusades_ii::Action::Select { unit } = select else {
        unreachable!()
    };
    let info = s.describe_action(seat, &select);
    assert_eq!(info.kind, "select");
    assert_eq!(info.counters, vec![s.def(unit).token.clone()]);
    assert_eq!(info.hex, None);
    let mut t = s.clone();
    t.apply(seat, &select, &mut engine::Log::discarding())
        .unwrap();
    let info = t.describe_action(seat, &crusades_ii::Action::Deselect);
    assert_eq!(info.kind, "deselect");
    assert_eq!(info.counters, vec![s.def(unit).token.clone()]);
}

/// 5.2: only the chit at the end of the Order Phase counts, so a free change back to a chit
/// already held this phase is a no-op, and refused; the next Order Phase starts afresh.
#[test]
fn a_free_change_may_not_go_back_to_a_chit_held_this_phase() {
    let mut s = start("hab", &[], 3);
    act(&mut s, "turk", "deploy-historical", &[]);
    act(&mut s, "crusader", "deploy-historical", &[]);
    // Il-Ghazi, the Turkish Overall Leader, changes his own chit freely (5.2).
    act(&mut s, "turk", "chit Il-Ghazi stand", &[]);
    act(&mut s, "turk", "chit Il-Ghazi advance", &[]);
    let l = legal(&s, "turk");
    assert!(!l.contains(&"chit Il-Ghazi stand".to_string()), "{l:?}");
    assert!(l.contains(&"chit Il-Ghazi reserve".to_string()), "{l:?}");
    let e = try_act(&mut s.clone(), "turk", "chit Il-Ghazi stand", &[]).unwrap_err();
    assert!(e.contains("already held the stand chit"), "{e}");
    act(&mut s, "turk", "chit Il-Ghazi reserve", &[]);
    let l = legal(&s, "turk");
    assert!(!l.contains(&"chit Il-Ghazi advance".to_string()));
    assert!(l.contains(&"chit Il-Ghazi retreat".to_string()));
}

/// Hab's first movement, the mover's name, the first `select` listed there, and the position
/// with it taken.
fn first_selected() -> (crusades_ii::State, String, String, crusades_ii::State) {
    let s = first_movement();
    let side = mover(&s);
    let first = legal(&s, &side)
        .into_iter()
        .find(|a| a.starts_with("select "))
        .expect("a counter to select");
    let mut t = s.clone();
    act(&mut t, &side, &first, &[]);
    (s, side, first, t)
}

/// A selected counter's moves are searched when first asked for, not at its `select`, so
/// that a search whose tree ends there scores the position without searching them; asked
/// for, they are those the counter had when selected, and a move of them is checked against
/// them whether or not they were listed first.
#[test]
fn a_selected_counters_moves_are_searched_when_first_asked_for() {
    let (s, side, first, t) = first_selected();
    let pick = first.trim_start_matches("select ").to_string();
    assert!(
        t.selected_moves.get().is_none(),
        "not searched at the select"
    );
    let expected = t.moves_of(t.selected.expect("selected"));
    let listed = t.legal_actions(t.active);
    assert!(t.selected_moves.get().is_some(), "kept once listed");
    assert_eq!(listed[..listed.len() - 1], expected[..]);
    // Unlisted, a move is checked against the moves searched then.
    let mut u = s.clone();
    act(&mut u, &side, &first, &[]);
    let mv = t.action_text(&expected[expected.len() / 2]);
    assert!(mv.starts_with(&format!("move {pick} ")), "{mv}");
    act(&mut u, &side, &mv, &[]);
    assert!(u.selected.is_none() && u.selected_moves.get().is_none());
    // A move to a hex it cannot reach is refused, its moves not yet listed.
    let mut v = s.clone();
    act(&mut v, &side, &first, &[]);
    let crusades_ii::action::Action::Move {
        unit,
        alone,
        facing,
        ..
    } = expected[0].clone()
    else {
        panic!("a unit's move: {:?}", expected[0]);
    };
    let far = v
        .battle
        .map
        .grid
        .hexes()
        .find(|&h| {
            !expected
                .iter()
                .any(|a| matches!(a, crusades_ii::action::Action::Move { to, .. } if *to == h))
        })
        .expect("a hex out of reach");
    let refused = crusades_ii::action::Action::Move {
        unit,
        alone,
        to: far,
        facing,
        via: Vec::new(),
    };
    let text = v.action_text(&refused);
    assert!(try_act(&mut v, &side, &text, &[]).is_err(), "{text}");
}

/// A search replays a `move` decision in many re-sampled worlds: the selected counter's moves
/// are taken over from the world that first reached it only where nothing they follow from
/// differs. The enemy's chits may (they are what a world re-samples, and no move reads them);
/// the mover's own chits, another counter's place, another selected counter may not.
#[test]
fn a_selected_counters_moves_are_taken_over_only_in_the_same_position() {
    let (s, side, _, t) = first_selected();
    assert!(t.selected_moves().is_some());
    let fresh = |u: &crusades_ii::State| {
        let mut u = u.clone();
        u.selected_moves = std::sync::OnceLock::new();
        u
    };
    let taken = |u: &crusades_ii::State| {
        let mut u = fresh(u);
        u.reuse_selected_moves(&t);
        u.selected_moves.get().is_some()
    };
    assert!(taken(&t), "the same state");
    let enemy = s.battle.enemy(s.active);
    // The enemy's chits re-sampled: taken over.
    let mut worlds = rand_pcg::Pcg64Mcg::new(11);
    let mut differed = false;
    for _ in 0..8 {
        let w = t.determinize(t.active, &mut worlds);
        differed |= t
            .leader_ids()
            .any(|l| t.leaders[l as usize].chit != w.leaders[l as usize].chit);
        assert!(taken(&w), "a world with the enemy's chits re-sampled");
    }
    assert!(differed, "some world drew other enemy chits");
    // The mover's own chit changed: not taken over.
    let l = t
        .leader_ids()
        .find(|&l| {
            t.battle.leaders[l as usize].side == t.active && t.leaders[l as usize].chit.is_some()
        })
        .expect("a leader of the mover with a chit");
    let mut w = t.clone();
    let own = w.leaders[l as usize].chit;
    w.leaders[l as usize].chit = crusades_ii::scenario::Chit::ALL
        .into_iter()
        .find(|&c| Some(c) != own);
    assert!(!taken(&w), "the mover's chit changed");
    // Another counter standing elsewhere, enemy or friend: not taken over.
    for who in [enemy, t.active] {
        let mut w = t.clone();
        let u = w
            .unit_ids()
            .find(|&u| {
                w.side(u) == who
                    && w.hex(u).is_some()
                    && Some(crusades_ii::state::Pick::Unit(u)) != w.selected
            })
            .expect("a counter on the map");
        w.units[u as usize].facing = w.units[u as usize].facing.opposite();
        assert!(!taken(&w), "a counter of {who:?} turned");
    }
    // Another counter selected: not taken over.
    let other = legal(&s, &side)
        .into_iter()
        .filter(|a| a.starts_with("select "))
        .nth(1)
        .expect("a second counter to select");
    let mut w = s.clone();
    act(&mut w, &side, &other, &[]);
    assert!(!taken(&w), "another counter selected");
    assert_eq!(enemy, s.battle.enemy(s.active));
}
