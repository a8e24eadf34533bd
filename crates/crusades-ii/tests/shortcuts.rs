//! The shortcuts taken for speed give the same answers as the plain rules they stand for, in
//! the positions of random games: the end-of-movement check that stops at the first unit
//! found able to move (and remembers the last found able with the hexes its search reached,
//! so that moves elsewhere leave it able), the units' moves swept hex by hex (against the plain search over
//! hexes, facings and free turns), a leader's moves searched on the map's dense tables, set-up
//! actions and fire checked without listing every one, the map analysis (zones of
//! control, distances to the enemy) kept from one decision to the next or derived from the
//! last one by the units that stand otherwise, the top of a stack
//! found without listing the stack, a reinforcement's entry hexes kept from its selection
//! (and found by the entry search that follows no turned state dominated by its unturned
//! sibling and relaxes a hex's free turns once, against the plain search that follows every
//! state), a reinforcement's search kept for the next waiting unit that moves alike, a
//! reinforcement's selected moves kept one by one by their costs,
//! whether a seat decides asked without listing the seats, a hex's grid index looked up in
//! the map's table, fire's cheap test of range, the doctrine's best moves kept from one
//! selection to the next, and a selected counter's moves taken over from another re-sampled
//! world in the same position.

mod common;

use crusades_ii::state::Phase;
use crusades_ii::{Action, State};
use engine::{Game, Log, Pending};
use hexgrid::{field_of_movement, Direction, Hex};

/// A leader's destinations as the generic search over hexes finds them (8.1, 8.3, 16.3).
fn leader_reference(s: &State, l: crusades_ii::scenario::LeaderId) -> Vec<(Hex, u16)> {
    let st = &s.leaders[l as usize];
    let Some(start) = st.loc.hex() else {
        return Vec::new();
    };
    if st.moved {
        return Vec::new();
    }
    let enemy = s.battle.enemy(s.battle.leaders[l as usize].side);
    field_of_movement(start, 16, |from, to| {
        let d: Direction = from.direction_to(to)?;
        if s.occupant(to) == Some(enemy) {
            return None;
        }
        s.entry_cost(crusades_ii::scenario::MoveClass::Leaders, from, d)
            .map(u32::from)
    })
    .iter()
    .filter(|(h, _)| *h != start && s.split_leader_may_enter(l, *h))
    .map(|(h, c)| (h, c as u16))
    .collect()
}

/// Every unit's moves (with its stack and alone, along a one-hex path to each of a few of
/// its destinations, and the 4 MP of a charge's pursuit), swept as searched by states; a
/// reinforcement's (with their entry hexes) by the pruned search as by the plain one. How
/// many reinforcements had moves.
fn check_moves(s: &State, context: &str) -> usize {
    let sit = s.situation();
    let mut entering = 0;
    for u in s.unit_ids() {
        assert_eq!(
            s.pursuit_destinations(u),
            s.plain_pursuit_destinations(u),
            "{context}: the pursuit of {}",
            s.name(u)
        );
        for alone in [false, true] {
            let swept = s.route_destinations(u, alone, &[], &sit);
            if s.unit(u).loc == crusades_ii::state::Loc::Waiting && !swept.is_empty() {
                entering += 1;
            }
            assert_eq!(
                swept,
                s.plain_route_destinations(u, alone, &[], &sit),
                "{context}: the moves of {}{}",
                s.name(u),
                if alone { " alone" } else { "" }
            );
            // A reinforcement's moves as its selection lists them (its destinations kept one
            // by one, not by the end-of-move limits of the plain rule): with its stack if
            // it is the upper unit or alone, then alone if it has a waiting mate (7.1).
            if s.unit(u).loc == crusades_ii::state::Loc::Waiting && s.may_move_now(u) {
                let mate = s.waiting_mate(u);
                let listed = if alone {
                    mate.is_some()
                } else {
                    mate.is_none_or(|m| s.def(u).stacked_over == Some(m))
                };
                let selected: Vec<(Hex, hexgrid::Vertex)> = s
                    .moves_of(crusades_ii::state::Pick::Unit(u))
                    .into_iter()
                    .filter_map(|a| match a {
                        Action::Move {
                            alone: a,
                            to,
                            facing,
                            ..
                        } if a == alone => Some((to, facing)),
                        _ => None,
                    })
                    .collect();
                let expected: Vec<(Hex, hexgrid::Vertex)> = if listed {
                    swept.iter().map(|d| (d.hex, d.facing)).collect()
                } else {
                    Vec::new()
                };
                assert_eq!(
                    selected,
                    expected,
                    "{context}: the selected moves of {}{}",
                    s.name(u),
                    if alone { " alone" } else { "" }
                );
            }
            for d in swept.iter().step_by(swept.len() / 3 + 1) {
                assert_eq!(
                    s.route_destinations(u, alone, &[d.hex], &sit),
                    s.plain_route_destinations(u, alone, &[d.hex], &sit),
                    "{context}: the moves of {} by way of {:?}",
                    s.name(u),
                    d.hex
                );
            }
        }
    }
    entering
}

/// Set-up actions near the legal ones (other hexes, other facings): each must be accepted
/// exactly when it is listed.
fn check_setup(s: &State, seat: engine::Seat, legal: &[Action]) {
    let mut candidates: Vec<Action> = Vec::new();
    for (k, a) in legal.iter().enumerate().step_by(legal.len() / 12 + 1) {
        candidates.push(a.clone());
        if let Action::Place { unit, hex, facing } = *a {
            let d = Direction::ALL[k % 6];
            candidates.push(Action::Place {
                unit,
                hex: hex.neighbour(d).neighbour(d).neighbour(d),
                facing,
            });
            candidates.push(Action::Place {
                unit,
                hex,
                facing: hexgrid::Vertex::ALL[(facing.index() as usize + 1) % 6],
            });
        }
    }
    for a in candidates {
        let accepted = s.clone().apply(seat, &a, &mut Log::discarding()).is_ok();
        assert_eq!(
            accepted,
            legal.contains(&a),
            "{}: `{}` accepted {accepted}",
            s.battle.id,
            s.action_text(&a)
        );
    }
}

/// Fire of every unit at every hex holding a unit: accepted exactly when it is listed (the
/// check of one fire action looks at the firing unit alone).
fn check_fire(s: &State, seat: engine::Seat, legal: &[Action]) {
    let hexes: Vec<Hex> = s.unit_ids().filter_map(|u| s.hex(u)).collect();
    for unit in s.unit_ids() {
        for &target in &hexes {
            let a = Action::Fire { unit, target };
            assert_eq!(
                s.is_legal(seat, &a),
                legal.contains(&a),
                "{}: `{}`",
                s.battle.id,
                s.action_text(&a)
            );
        }
    }
}

#[test]
fn the_shortcuts_agree_with_the_plain_rules_in_random_games() {
    let mut checked = [0usize; 11];
    for scenario in ["hattin", "hab", "nicopolis", "tannenburg"] {
        let advanced = [
            "advanced-sequence",
            "turn-ends-chit",
            "split-commands",
            "berserk",
            "optional-victory",
            "melee-odds",
        ];
        for (seed, options) in [(1u64, &[][..]), (2, &advanced[..])] {
            let mut s = common::start(scenario, options, seed);
            let mut rng = seed * 7919 + 1;
            let mut plies = 0;
            let mut last_selected: Vec<State> = Vec::new();
            while let Pending::Seats(seats) = s.pending() {
                let seat = seats[0];
                for k in 0..3 {
                    let other = engine::Seat(k);
                    assert_eq!(
                        s.is_pending(other),
                        s.pending_seats().contains(&other),
                        "{scenario} seed {seed} ply {plies}: whether seat {k} decides"
                    );
                }
                let legal = s.legal_actions(seat);
                if matches!(s.phase, Phase::Setup(_)) && s.tasks.is_empty() {
                    check_setup(&s, seat, &legal);
                    checked[0] += 1;
                }
                if s.phase == Phase::Movement && s.tasks.is_empty() && s.selected.is_none() {
                    assert_eq!(
                        s.any_unmoved_obligation(),
                        !s.unmoved_obligations().is_empty(),
                        "{scenario} seed {seed} ply {plies}: the end-of-movement check"
                    );
                    checked[1] += 1;
                    checked[8] += check_moves(&s, &format!("{scenario} seed {seed} ply {plies}"));
                    checked[5] += 1;
                    for l in s.leader_ids() {
                        assert_eq!(
                            s.leader_destinations(l),
                            leader_reference(&s, l),
                            "{scenario} seed {seed} ply {plies}: leader {l}'s moves"
                        );
                        checked[2] += 1;
                    }
                }
                if let Some(crusades_ii::state::Task::Pursue { unit }) = s.tasks.first() {
                    assert_eq!(
                        s.pursuit_destinations(*unit),
                        s.plain_pursuit_destinations(*unit),
                        "{scenario} seed {seed} ply {plies}: the pursuit of {}",
                        s.name(*unit)
                    );
                    checked[6] += 1;
                }
                if matches!(s.phase, Phase::DefensiveFire | Phase::OffensiveFire)
                    && s.tasks.is_empty()
                {
                    check_fire(&s, seat, &legal);
                    checked[4] += 1;
                }
                // The map analysis kept between decisions (the situation and each side's
                // zones and distances) is what a fresh computation finds.
                let (kept, fresh) = (s.situation(), s.fresh_situation());
                assert_eq!(
                    kept.occupant, fresh.occupant,
                    "{scenario} seed {seed} ply {plies}"
                );
                for side in [engine::Seat(0), engine::Seat(1)] {
                    assert_eq!(
                        kept.zoc(&s, side),
                        fresh.zoc(&s, side),
                        "{scenario} seed {seed} ply {plies}: zones of control of {side:?}"
                    );
                    assert_eq!(
                        kept.near(&s, side),
                        fresh.near(&s, side),
                        "{scenario} seed {seed} ply {plies}: distances to {side:?}"
                    );
                }
                // A selected reinforcement's entry hexes, kept from its selection: those its
                // move would look up.
                if let Some(moves) = s.selected_moves() {
                    if let crusades_ii::state::SelectedMoves::Unit { unit, moves: m, .. } = moves {
                        if s.unit(*unit).loc == crusades_ii::state::Loc::Waiting {
                            let sit = s.situation();
                            for &(alone, to, facing) in m {
                                let found = s
                                    .route_destinations(*unit, alone, &[], &sit)
                                    .into_iter()
                                    .find(|d| d.hex == to && d.facing == facing)
                                    .and_then(|d| d.entry);
                                assert_eq!(
                                    moves.entry_of(*unit, alone, to, facing),
                                    Some(found),
                                    "{scenario} seed {seed} ply {plies}: the entry of {}",
                                    s.name(*unit)
                                );
                            }
                            checked[7] += 1;
                        }
                    }
                }
                // A selected counter's moves taken over from another re-sampled world (as a
                // search replays its tree's decisions), or from the last state the same
                // counter was selected in: only where they are the moves worked out afresh.
                if let Some(pick) = s.selected {
                    let mut worlds = rand_pcg::Pcg64Mcg::new(u128::from(rng) | 1);
                    let first = s.determinize(s.active, &mut worlds);
                    first.selected_moves();
                    let earlier = last_selected.iter().find(|e| e.selected == Some(pick));
                    for (from, same) in [(Some(&first), true), (earlier, false)] {
                        let Some(from) = from else { continue };
                        let mut later = s.determinize(s.active, &mut worlds);
                        later.reuse_selected_moves(from);
                        match later.selected_moves.get() {
                            Some(taken) => {
                                let mut fresh = later.clone();
                                fresh.selected_moves = std::sync::OnceLock::new();
                                assert_eq!(
                                    Some(&**taken),
                                    fresh.selected_moves(),
                                    "{scenario} seed {seed} ply {plies}: the moves taken over"
                                );
                                checked[9] += usize::from(same);
                            }
                            None => checked[10] += usize::from(!same),
                        }
                    }
                    last_selected.retain(|e| e.selected != Some(pick));
                    last_selected.push(first);
                }
                // The top of each stack found without listing it: first of the stack.
                for u in s.unit_ids() {
                    let Some(h) = s.hex(u) else { continue };
                    assert_eq!(
                        s.tops_stack(u),
                        s.stack_at(h).first() == Some(&u),
                        "{scenario} seed {seed} ply {plies}: the top of {}'s stack",
                        s.name(u)
                    );
                }
                checked[3] += 1;
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let a = &legal[(rng % legal.len() as u64) as usize];
                s.apply(seat, a, &mut Log::discarding()).expect("legal");
                plies += 1;
            }
        }
    }
    assert!(
        checked[..6].iter().all(|&n| n > 50)
            && checked[6] > 0
            && checked[7] > 0
            && checked[8] > 50
            && checked[9] > 50
            && checked[10] > 50,
        "positions checked: {checked:?}"
    );
}

/// A hex's grid index looked up in the map's table is the one the grid works out, on the map,
/// around it and far off it.
#[test]
fn the_map_table_of_grid_indices_agrees_with_the_grid() {
    for scenario in ["hattin", "hab", "nicopolis", "tannenburg"] {
        let s = common::start(scenario, &[], 1);
        let map = &s.battle.map;
        let hexes: Vec<Hex> = map.grid.hexes().collect();
        let (q0, q1) = (
            hexes.iter().map(|h| h.q).min(),
            hexes.iter().map(|h| h.q).max(),
        );
        let (r0, r1) = (
            hexes.iter().map(|h| h.r).min(),
            hexes.iter().map(|h| h.r).max(),
        );
        let (Some(q0), Some(q1), Some(r0), Some(r1)) = (q0, q1, r0, r1) else {
            panic!("{scenario}: a map without hexes");
        };
        let mut on_map = 0;
        for q in q0 - 3..=q1 + 3 {
            for r in r0 - 3..=r1 + 3 {
                let h = Hex { q, r };
                assert_eq!(map.index_of(h), map.grid.index(h), "{scenario}: {h:?}");
                on_map += usize::from(map.index_of(h).is_some());
            }
        }
        assert_eq!(
            on_map,
            hexes.len(),
            "{scenario}: every hex of the map found"
        );
        for far in [i32::MIN, i32::MIN / 2, -1_000_000, 1_000_000, i32::MAX] {
            for h in [
                Hex { q: far, r: r0 },
                Hex { q: q0, r: far },
                Hex { q: far, r: far },
            ] {
                assert_eq!(map.index_of(h), map.grid.index(h), "{scenario}: {h:?}");
            }
        }
    }
}

/// Fire looks no further than six columns or rows off (the Range Table's six distances): a
/// distance is at least the difference of either coordinate.
#[test]
fn a_distance_is_at_least_either_coordinate_difference() {
    let origin = Hex { q: 3, r: -2 };
    for q in -12..=12 {
        for r in -12..=12 {
            let h = Hex {
                q: origin.q + q,
                r: origin.r + r,
            };
            let d = origin.distance(h);
            assert!(d >= q.unsigned_abs() && d >= r.unsigned_abs(), "{h:?}");
        }
    }
}

/// The doctrine's best moves kept from selections of the Movement Phase (the nearest of the
/// positions kept, for the counters that the moves since cannot have changed) score every
/// selection as a fresh scoring does, bit for bit: in games of every battle, basic and with
/// every advanced rule, mostly played by the doctrine (with random choices for odd
/// positions), scored in the game itself, in worlds re-sampled for the seat as the heuristic
/// player and searches score them (the enemy's chits drawn anew each time), and, as a search
/// goes from branch to branch, after another action from one of the last positions. The
/// reinforcements' searches the scoring keeps give the moves the plain search finds.
#[test]
fn the_kept_best_moves_score_as_a_fresh_scoring() {
    use ai::Policy;
    use crusades_ii::doctrine::Tactics;
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let (mut selections, mut entering, mut branches) = (0, 0, 0);
    for (i, scenario) in ["hattin", "hab", "nicopolis", "tannenburg"]
        .into_iter()
        .enumerate()
    {
        let advanced = common::EVERY_ADVANCED_RULE;
        for (seed, options) in [
            (50, &[][..]),
            (50, advanced),
            (60, advanced),
            (70, advanced),
        ] {
            let seed = seed + i as u64;
            let mut s = common::start(scenario, options, seed);
            let mut worlds = rand_pcg::Pcg64Mcg::new(u128::from(seed) << 1 | 1);
            let mut rng = seed * 7919 + 1;
            let mut plies = 0;
            let mut last: std::collections::VecDeque<State> = Default::default();
            while let Pending::Seats(seats) = s.pending() {
                if plies == 1500 {
                    break;
                }
                let seat = seats[0];
                // Another branch: one of the last positions, after another action of its own.
                if let Some(earlier) = last.get(plies % 5) {
                    if let Pending::Seats(seats) = earlier.pending() {
                        let legal = earlier.legal_actions(seats[0]);
                        let mut branch = earlier.clone();
                        let a = &legal[(rng >> 16) as usize % legal.len()];
                        branch
                            .apply(seats[0], a, &mut Log::discarding())
                            .expect("legal");
                        if let (Phase::Movement, Pending::Seats(seats)) =
                            (branch.phase, branch.pending())
                        {
                            let legal = branch.legal_actions(seats[0]);
                            let scores = Tactics.scores(&branch, seats[0], &legal);
                            let fresh = Tactics.plain_scores(&branch, seats[0], &legal);
                            assert_eq!(
                                bits(&scores),
                                bits(&fresh),
                                "{scenario} {options:?} ply {plies}, a branch: the scores of {legal:?}"
                            );
                            branches += 1;
                        }
                    }
                }
                if last.len() == 5 {
                    last.pop_back();
                }
                last.push_front(s.clone());
                let world = if plies % 3 == 0 {
                    ai::sample_world(&s, seat, &mut worlds)
                } else {
                    s.clone()
                };
                let legal = world.legal_actions(seat);
                let scores = Tactics.scores(&world, seat, &legal);
                if world.phase == Phase::Movement {
                    let fresh = Tactics.plain_scores(&world, seat, &legal);
                    assert_eq!(
                        bits(&scores),
                        bits(&fresh),
                        "{scenario} {options:?} ply {plies}: the scores of {legal:?}"
                    );
                    selections += legal.iter().any(|a| matches!(a, Action::Select { .. })) as usize;
                    // The reinforcements' searches the scoring kept give each selection the
                    // plain search's moves.
                    if world.selected.is_none() && world.tasks.is_empty() && plies % 4 == 0 {
                        entering += check_moves(&world, &format!("{scenario} ply {plies}"));
                    }
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let legal = s.legal_actions(seat);
                let pick = if rng % 4 == 0 || plies % 3 == 0 {
                    (rng >> 8) as usize % legal.len()
                } else {
                    let scores = Tactics.plain_scores(&s, seat, &legal);
                    (0..scores.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b })
                };
                s.apply(seat, &legal[pick], &mut Log::discarding())
                    .expect("legal");
                plies += 1;
            }
        }
    }
    assert!(
        selections > 500 && entering > 20 && branches > 500,
        "selections checked: {selections}, reinforcements' moves: {entering}, branches: {branches}"
    );
}

/// A search that takes over the selected counter's moves from the world a decision of its
/// tree was first reached in ([`engine::Game::reuse_work`]) searches exactly as one that works
/// them out afresh in every world: the same visits and the same mean rewards, bit for bit, at
/// movement decisions (selections and moves) of a Hattin played by the doctrine.
#[test]
fn a_search_taking_over_selected_moves_searches_as_one_working_them_out() {
    use ai::Policy;
    use crusades_ii::doctrine::Tactics;
    let mut s = common::start("hattin", &[], 8);
    let (mut plies, mut compared, mut moves) = (0, 0, 0);
    while let Pending::Seats(seats) = s.pending() {
        if compared == 8 {
            break;
        }
        let seat = seats[0];
        let legal = s.legal_actions(seat);
        if plies >= 150 && plies % 9 == 0 && s.phase == Phase::Movement && legal.len() > 1 {
            let search = |reuses_work: bool| {
                let mut mcts = ai::Mcts::new(ai::Budget::Iterations(150), plies);
                mcts.playout_depth = Some(0);
                mcts.reuses_work = reuses_work;
                mcts.search_guided(&s, seat, Some(&Tactics))
            };
            assert_eq!(search(true), search(false), "ply {plies}");
            compared += 1;
            moves += usize::from(s.selected.is_some());
        }
        let scores = Tactics.scores(&s, seat, &legal);
        let pick = (0..scores.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b });
        s.apply(seat, &legal[pick], &mut Log::discarding())
            .expect("legal");
        plies += 1;
    }
    assert!(
        compared == 8 && moves > 0,
        "compared {compared}, moves {moves}"
    );
}
