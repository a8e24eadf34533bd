//! The shortcuts taken for speed give the same answers as the plain rules they stand for, in
//! the positions of seeded random games: the [`Board`] table of the pieces in each hex
//! against the position's own look-up (with a piece taken off too), zones of control (hex by
//! hex, for the whole map at once, and kept from an earlier position), movement costs and
//! command radius asked of either, isolation (11.1) unit by unit and for all units at once,
//! a piece's moves and charges from the dense search against [`moves::plain`] (paths
//! included, and listed without their paths or one at a time), the fire targets listed from
//! the hexes that hold an enemy with the lines of sight kept, the set-up placements from
//! each leader's reach against a trial placement in every hex (and that reach asked of one
//! hex against the whole), the redeployments listed with
//! a board against the position's own look-up, the Moslem's searches from the hexes near
//! each held wall against every hex's distances, and a move, a let-go, a selection, an end of
//! movement, a fire, the end of a step, a tunnel hex dug, a redeployment, a leader placed
//! (14.41) or a piece set up (17.0) checked without listing every legal action (each action near the legal ones
//! accepted exactly when listed), and the checks asked without wording a refusal (foss
//! filling, counter-bombardment, redeployment) against the checks they stand for, and the
//! tunnels re-drawn for the Moslem's searches with a board of the tunnel hexes against the
//! plain re-draw that asks the rule of each hex. That the
//! games themselves are unchanged is
//! `legal_order.rs`'s fingerprints.

use acre::fire::{self, Firer};
use acre::map::Class;
use acre::movement::{self, Mover};
use acre::position::{Board, Location, Pieces};
use acre::rules::{Kind, Side, SiegeKind};
use acre::sequence::Step;
use acre::setup::{self, Piece};
use acre::state::{ix, Stage};
use acre::{engineering, leaders, moves, regroup, zoc, Action, State};
use engine::{Game, Log, Pending, Seat, Setup, Startable};
use hexgrid::Hex;

fn start(scenario: &str, seed: u64) -> State {
    let setup = Setup::seeded(scenario, seed);
    State::start(&setup, &acre::builtin_data()).expect("starts")
}

/// Plays the seeded random game of `scenario` to its end (the seat to act and its action
/// chosen by a xorshift of `seed`), calling `at` with the state and the plies played before
/// each decision.
fn each_position(scenario: &str, seed: u64, mut at: impl FnMut(&State, usize)) {
    let mut s = start(scenario, seed);
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut plies = 0;
    while let Pending::Seats(seats) = s.pending() {
        at(&s, plies);
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let seat = seats[(rng % seats.len() as u64) as usize];
        let legal = s.legal_actions(seat);
        let a = &legal[(rng % legal.len() as u64) as usize];
        s.apply(seat, a, &mut Log::discarding()).expect("legal");
        plies += 1;
    }
}

/// The board and the position agree on every hex of the map and next to it, and so do the
/// rules asked of either; returns how many units are isolated.
fn check_board(s: &State) -> usize {
    let r = &s.rules;
    let board = Board::new(r, &s.pos);
    let hexes: Vec<Hex> = r.map.grid.hexes().collect();
    let control = [Side::Crusader, Side::Moslem].map(|side| zoc::control(r, &board, side));
    for (side, control) in [Side::Crusader, Side::Moslem].iter().zip(&control) {
        assert_eq!(*zoc::control_kept(&s.rules, &board, *side), *control);
    }
    for &h in &hexes {
        let k = r.map.grid.index(h).unwrap();
        for (side, control) in [Side::Crusader, Side::Moslem].iter().zip(&control) {
            assert_eq!(control[k], zoc::controlled(r, &s.pos, h, *side));
        }
        for n in h.neighbours() {
            assert_eq!(board.unit_at(n), s.pos.unit_at(n));
            assert_eq!(board.leader_at(n), s.pos.leader_at(n));
            assert_eq!(board.siege_at(n), s.pos.siege_at(n));
        }
        for side in [Side::Crusader, Side::Moslem] {
            assert_eq!(
                zoc::controlled(r, &board, h, side),
                zoc::controlled(r, &s.pos, h, side)
            );
            let mover = Mover {
                side,
                combat: true,
                cavalry: side == Side::Crusader,
            };
            for n in r.map.neighbours(h) {
                let plain = movement::entry_cost(r, &s.pos, mover, h, n);
                let fast = movement::entry(r, &board, mover, h, n);
                assert_eq!(fast.ok(), plain.as_ref().ok().copied());
                if let (Err(b), Err(text)) = (fast, plain) {
                    assert_eq!(b.text(&r.map.id(n)), text);
                }
            }
        }
    }
    // A board with a piece taken off answers as the board of the position without it.
    let on_map = [
        (0..r.units.len())
            .find(|&u| s.pos.units[u].at.hex().is_some())
            .map(Piece::Unit),
        (0..r.leaders.len())
            .find(|&l| s.pos.leaders[l].at.hex().is_some())
            .map(Piece::Leader),
        (0..r.siege.len())
            .find(|&e| s.pos.siege[e].at.hex().is_some())
            .map(Piece::Siege),
    ];
    for piece in on_map.into_iter().flatten() {
        let mut without = s.pos.clone();
        match piece {
            Piece::Unit(u) => without.units[u].at = Location::OffMap,
            Piece::Leader(l) => without.leaders[l].at = Location::OffMap,
            Piece::Siege(e) => without.siege[e].at = Location::OffMap,
        }
        let plain = Board::new(r, &without);
        let mut taken = Board::new(r, &s.pos);
        taken.take_off(piece);
        for &h in &hexes {
            for n in h.neighbours() {
                assert_eq!(taken.unit_at(n), plain.unit_at(n));
                assert_eq!(taken.leader_at(n), plain.leader_at(n));
                assert_eq!(taken.siege_at(n), plain.siege_at(n));
            }
        }
    }
    let isolated: Vec<usize> = (0..r.units.len())
        .filter(|&u| regroup::isolated(r, &s.pos, u))
        .collect();
    assert_eq!(regroup::isolated_units(r, &s.pos), isolated);
    let cut_off = isolated.len();
    for u in 0..r.units.len() {
        if s.pos.hex_of(u).is_some() {
            assert_eq!(
                leaders::within_twice_radius(r, &board, u, s.conrad),
                leaders::within_twice_radius(r, &s.pos, u, s.conrad)
            );
            assert_eq!(
                movement::allowance(r, &board, u, false, s.conrad),
                movement::allowance(r, &s.pos, u, false, s.conrad)
            );
        }
    }
    cut_off
}

/// The fire targets of `side` the plain way: every firer not yet declared at every hex of
/// the map within four hexes that [`fire::check_fire`] accepts.
fn fire_reference(s: &State, side: Side) -> Vec<Action> {
    let r = &s.rules;
    let declared: Vec<Firer> = s.work.fire[ix(side)].iter().map(|(f, _)| *f).collect();
    let mut firers: Vec<(Firer, Hex)> = Vec::new();
    for u in 0..r.units.len() {
        if r.side_of(u) == side && r.unit_type(u).kind == Kind::Fire {
            if let Some(h) = s.pos.hex_of(u) {
                firers.push((Firer::Unit(u), h));
            }
        }
    }
    for (e, engine) in r.siege.iter().enumerate() {
        let fires = matches!(engine.kind, SiegeKind::SmallCatapult | SiegeKind::Ballista);
        if engine.side == side && fires {
            if let Some(h) = s.pos.siege[e].at.hex() {
                firers.push((Firer::Siege(e), h));
            }
        }
    }
    let charging: Vec<usize> = s.charging.iter().map(|(c, _)| *c).collect();
    let mut out = Vec::new();
    for (f, at) in firers.into_iter().filter(|(f, _)| !declared.contains(f)) {
        for t in at.within(4) {
            if r.map.on_map(t) && fire::check_fire(r, &s.pos, f, t, &charging).is_ok() {
                out.push(Action::Fire(f, t));
            }
        }
    }
    out
}

/// The Moslem's searches the plain way (13.31): every tunnellable hex of the map within the
/// discovery range of a Wall/Tower hex the Crusader does not hold, not yet searched.
fn search_reference(s: &State) -> Vec<Action> {
    let r = &s.rules;
    let range = r.scenario.engineering.discovery_range;
    let walls = r.map.hexes_of(&[Class::Wall, Class::Tower]);
    let held: Vec<Hex> = walls
        .into_iter()
        .filter(|w| s.pos.side_at(r, *w) != Some(Side::Crusader))
        .collect();
    r.map
        .grid
        .hexes()
        .filter(|&h| engineering::tunnellable(r, h))
        .filter(|h| held.iter().any(|w| w.distance(*h) <= range))
        .filter(|h| !s.work.searches.contains(h))
        .map(Action::Search)
        .collect()
}

/// The set-up placements of `side` the plain way: the next piece (leaders, units, siege
/// units) in every hex of its ground where [`setup::check_place`] accepts it, a unit only
/// where, once placed, it is within twice a commanding leader's Command Radius (the harbour
/// tower excepted).
fn setup_reference(s: &State, side: Side) -> Vec<Action> {
    let r = &s.rules;
    let mut pieces = setup::pieces(r, side, s.conrad);
    pieces.sort_by_key(|p| match p {
        Piece::Leader(_) => 0,
        Piece::Unit(_) => 1,
        Piece::Siege(_) => 2,
    });
    let Some(piece) = pieces
        .into_iter()
        .find(|p| p.at(&s.pos) == Location::OffMap)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for h in setup::ground(r, side) {
        if setup::check_place(r, &s.pos, piece, h).is_err() {
            continue;
        }
        if let Piece::Unit(u) = piece {
            let mut trial = s.pos.clone();
            trial.units[u].at = Location::Map(h);
            let harbour = r.map.terrain(h).key == "harbour_tower";
            if !harbour && !leaders::within_twice_radius(r, &trial, u, s.conrad) {
                continue;
            }
        }
        out.push(Action::Place(piece, h));
    }
    out
}

/// Actions near the legal ones while a piece is selected (moves to other hexes, let go),
/// each accepted exactly when listed.
fn check_selected_moves(s: &State, seat: Seat, legal: &[Action]) -> usize {
    let mut candidates: Vec<Action> = vec![Action::Deselect, Action::End];
    for a in legal.iter().step_by(legal.len() / 10 + 1) {
        candidates.push(a.clone());
        if let Action::Move(h) = a {
            candidates.extend(h.neighbours().into_iter().map(Action::Move));
        }
    }
    check_accepted(s, seat, legal, &candidates)
}

/// Each of `candidates` is accepted exactly when `legal` lists it; returns how many were
/// tried.
fn check_accepted(s: &State, seat: Seat, legal: &[Action], candidates: &[Action]) -> usize {
    for a in candidates {
        let accepted = s.clone().apply(seat, a, &mut Log::discarding()).is_ok();
        assert_eq!(
            accepted,
            legal.contains(a),
            "`{}` accepted {accepted} in {}",
            s.action_text(a),
            s.step_name()
        );
    }
    candidates.len()
}

/// Fires of every firer of `side` on the map, declared or not, at every hex within four
/// hexes (a sample of them, `1 / every`), and the end of fire.
fn fire_candidates(s: &State, side: Side, every: usize) -> Vec<Action> {
    let r = &s.rules;
    let units = (0..r.units.len())
        .filter(|&u| r.side_of(u) == side)
        .filter_map(|u| Some((Firer::Unit(u), s.pos.hex_of(u)?)));
    let engines = (0..r.siege.len())
        .filter(|&e| r.siege[e].side == side)
        .filter_map(|e| Some((Firer::Siege(e), s.pos.siege[e].at.hex()?)));
    let mut out = vec![Action::End];
    for (f, at) in units.chain(engines) {
        out.extend(at.within(4).map(|t| Action::Fire(f, t)));
    }
    out.into_iter().step_by(every).collect()
}

/// Actions near a sample of the legal ones (ends, tunnel hexes dug, redeployments): each
/// legal one, the same of the hexes around it and of the next tunnel or another piece, and
/// the end of the step.
fn step_candidates(s: &State, legal: &[Action]) -> Vec<Action> {
    let r = &s.rules;
    let mut out = vec![Action::End];
    for a in legal.iter().step_by(legal.len() / 8 + 1) {
        out.push(a.clone());
        match *a {
            Action::Dig(b, h) => {
                out.extend(h.neighbours().map(|n| Action::Dig(b, n)));
                out.push(Action::Dig(b + 1, h));
                out.push(Action::Dig(usize::MAX, h));
            }
            Action::Place(p, h) => {
                out.extend(h.neighbours().map(|n| Action::Place(p, n)));
                let other = match p {
                    Piece::Unit(u) => Piece::Unit((u + 1) % r.units.len()),
                    Piece::Leader(l) => Piece::Leader((l + 1) % r.leaders.len()),
                    Piece::Siege(e) => Piece::Siege((e + 1) % r.siege.len()),
                };
                out.push(Action::Place(other, h));
            }
            _ => {}
        }
    }
    out
}

/// Selections of every piece of `side` and the end of the segment.
fn selection_candidates(s: &State, side: Side) -> Vec<Action> {
    let r = &s.rules;
    let units = (0..r.units.len())
        .filter(|&u| r.side_of(u) == side)
        .map(Piece::Unit);
    let leaders = (0..r.leaders.len())
        .filter(|&l| r.leaders[l].side == side)
        .map(Piece::Leader);
    let engines = (0..r.siege.len())
        .filter(|&e| r.siege[e].side == side)
        .map(Piece::Siege);
    let mut out = vec![Action::End, Action::Deselect];
    out.extend(units.chain(leaders).chain(engines).map(Action::Select));
    out
}

#[test]
fn the_shortcuts_agree_with_the_plain_rules_in_random_games() {
    // Boards, selected pieces' moves, fire lists, moves checked, set-up placements, charges,
    // isolated units, fires checked, selections checked, redeployments, searches, the
    // steps' ends, tunnel hexes, redeployments and leaders placed checked.
    let mut checked = [0usize; 12];
    for (scenario, seed) in [("siege", 21u64), ("siege-conrad", 22)] {
        let mut s = start(scenario, seed);
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut plies = 0;
        while let Pending::Seats(seats) = s.pending() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let seat = seats[(rng % seats.len() as u64) as usize];
            let side = if seat == Seat(0) {
                Side::Crusader
            } else {
                Side::Moslem
            };
            let legal = s.legal_actions(seat);
            if plies % 40 == 0 {
                checked[6] += check_board(&s);
                checked[0] += 1;
            }
            if let Stage::SetUp(setting) = s.stage {
                let listed: Vec<Action> = legal
                    .iter()
                    .filter(|a| matches!(a, Action::Place(..)))
                    .cloned()
                    .collect();
                let plain = setup_reference(&s, setting);
                assert_eq!(listed, plain, "{scenario} ply {plies}: set-up placements");
                checked[4] += 1;
            }
            let step = s.step_name();
            // No leader to place, retreat or advance comes before the step's own actions.
            let free = s.stage == Stage::Play
                && s.placing.is_empty()
                && s.following.is_empty()
                && s.retreats.chosen.iter().all(Option::is_some)
                && s.work.advance.is_none();
            if let (true, Some(p)) = (free, s.work.selected) {
                let strategic = step.contains("Strategic");
                if step.contains("Movement") {
                    let plain = moves::plain::destinations(&s, p, strategic);
                    let fast = moves::destinations(&s, p, strategic);
                    assert_eq!(fast, plain, "{scenario} ply {plies}: {p:?}'s moves");
                    let hexes: Vec<Hex> = plain.keys().copied().collect();
                    let listed = moves::destination_hexes(&s, p, strategic);
                    assert_eq!(
                        listed, hexes,
                        "{scenario} ply {plies}: {p:?}'s destinations"
                    );
                    // Each destination's path, and no path to the hexes around them.
                    for (h, path) in plain.iter().step_by(5) {
                        assert_eq!(moves::path_to(&s, p, strategic, *h).as_ref(), Some(path));
                        for n in h.neighbours() {
                            let there = plain.get(&n).cloned();
                            assert_eq!(moves::path_to(&s, p, strategic, n), there);
                        }
                    }
                    if let (Piece::Unit(u), false) = (p, strategic) {
                        let plain = moves::plain::charges(&s, u);
                        assert_eq!(moves::charges(&s, u), plain, "{scenario} ply {plies}");
                        checked[5] += plain.len();
                    }
                    checked[1] += 1;
                    if plies % 3 == 0 {
                        checked[3] += check_selected_moves(&s, seat, &legal);
                    }
                }
            }
            if free && step.contains("Simultaneous Fire") {
                let listed: Vec<Action> = legal
                    .iter()
                    .filter(|a| matches!(a, Action::Fire(..)))
                    .cloned()
                    .collect();
                assert_eq!(listed, fire_reference(&s, side), "{scenario} ply {plies}");
                checked[2] += 1;
                if plies % 2 == 0 {
                    let candidates = fire_candidates(&s, side, 5);
                    checked[7] += check_accepted(&s, seat, &legal, &candidates);
                }
            }
            // Redeployment listed with the board against the position's own look-up.
            let regrouping = free && step.contains("Regroup");
            if let (true, Some(Action::Place(piece, _))) = (regrouping, legal.first()) {
                let r = &s.rules;
                let ground = regroup::redeploy_ground(r, piece.side(r));
                let plain: Vec<Action> = ground
                    .iter()
                    .filter(|&&h| regroup::check_redeploy_on(r, &s.pos, *piece, h, &ground).is_ok())
                    .map(|&h| Action::Place(*piece, h))
                    .collect();
                assert_eq!(legal, plain, "{scenario} ply {plies}: redeployment");
                checked[9] += 1;
            }
            // Searches listed from the hexes near each held wall against every hex's
            // distance to them.
            let searches: Vec<Action> = legal
                .iter()
                .filter(|a| matches!(a, Action::Search(_)))
                .cloned()
                .collect();
            if free && s.turn.step == Step::Discovery && !s.work.caving && !searches.is_empty() {
                assert_eq!(searches, search_reference(&s), "{scenario} ply {plies}");
                checked[10] += 1;
            }
            // Ends, tunnel hexes dug, redeployments and leaders placed checked one at a time.
            let stepping = legal
                .iter()
                .any(|a| matches!(a, Action::End | Action::Dig(..) | Action::Place(..)));
            let placing = s.stage == Stage::Play && !s.placing.is_empty()
                || matches!(s.stage, Stage::SetUp(_));
            if (placing || free && stepping && !step.contains("Movement")) && plies % 3 == 0 {
                checked[11] += check_accepted(&s, seat, &legal, &step_candidates(&s, &legal));
            }
            let choosing = s.work.selected.is_none() && step.contains("Movement");
            if free && choosing && plies % 5 == 0 {
                let candidates = selection_candidates(&s, side);
                checked[8] += check_accepted(&s, seat, &legal, &candidates);
            }
            let a = &legal[(rng % legal.len() as u64) as usize];
            s.apply(seat, a, &mut Log::discarding()).expect("legal");
            plies += 1;
        }
    }
    assert!(
        checked
            .iter()
            .enumerate()
            .all(|(i, &n)| n > if i == 6 { 5 } else { 20 }),
        "positions checked: {checked:?}"
    );
}

/// The lines of sight kept for the data ([`acre::state::Derived::line_of_sight`], worked out
/// from one table of lines moved to each hex) are those [`fire::line_of_sight`] draws, from
/// every hex of the map to every hex within five of it (the kept reach and beyond).
#[test]
fn kept_lines_of_sight_are_the_lines_drawn() {
    let s = start("siege", 1);
    let r = &s.rules;
    let mut blocked = 0;
    for from in r.map.grid.hexes() {
        for to in from.within(5) {
            let drawn = fire::line_of_sight(r, from, to);
            assert_eq!(
                s.derived.line_of_sight(r, from, to),
                drawn,
                "{from:?} to {to:?}"
            );
            blocked += usize::from(!drawn);
        }
    }
    assert!(blocked > 1000, "the walls block some lines: {blocked}");
}

/// The rules shared by every game started from the same data ([`acre::rules::Rules::shared`])
/// are those [`acre::rules::Rules::load`] reads from it; data that differs in a file read is
/// loaded on its own.
#[test]
fn shared_rules_are_the_rules_loaded() {
    use acre::rules::{Rules, SCENARIO};
    let data = acre::builtin_data();
    let shared = Rules::shared(&data).expect("loads");
    assert!(*shared == Rules::load(&data).expect("loads"));
    assert!(std::sync::Arc::ptr_eq(
        &shared,
        &Rules::shared(&data).expect("loads")
    ));
    // A data set with another scenario title (as an override folder would give).
    let paths: Vec<&str> = data.paths_under("acre/").collect();
    let texts: Vec<String> = paths
        .iter()
        .map(|&p| {
            let text = data.text(p).expect("listed").to_string();
            if p == SCENARIO {
                text.replacen("title = \"", "title = \"Another ", 1)
            } else {
                text
            }
        })
        .collect();
    let other =
        engine::DataSet::from_files(paths.iter().copied().zip(texts.iter().map(String::as_str)));
    let other_shared = Rules::shared(&other).expect("loads");
    assert!(!std::sync::Arc::ptr_eq(&shared, &other_shared));
    assert!(*other_shared == Rules::load(&other).expect("loads"));
    assert!(other_shared.scenario.title.starts_with("Another "));
}

/// The historical deployment kept for the rules ([`setup::historical_kept`]) is the one
/// [`setup::historical`] works out, with and without 16.0, asked again or not.
#[test]
fn kept_historical_deployment_is_the_one_worked_out() {
    let rules = acre::rules::Rules::shared(&acre::builtin_data()).expect("loads");
    for conrad in [false, true, false] {
        let plain = setup::historical(&rules, conrad);
        assert!(setup::historical_kept(&rules, conrad) == plain);
        assert!(setup::historical_kept(&rules, conrad) == plain);
    }
}

/// [`acre::bombardment::bombardment_allowed`] accepts exactly the allocations
/// [`acre::bombardment::check_bombardment`] accepts: every siege unit at every Wall/Tower hex
/// and its neighbours, alone and after another shot, in the historical deployment.
#[test]
fn bombardment_allowed_is_the_check() {
    use acre::bombardment::{bombardment_allowed, check_bombardment};
    let s = start("siege", 3);
    let r = &s.rules;
    let pos = setup::historical(r, false).expect("deploys");
    let mut accepted = 0;
    for e in 0..r.siege.len() + 1 {
        for &w in &s.derived.walls {
            for target in std::iter::once(w).chain(w.neighbours()) {
                for shots in [vec![(e, target)], vec![(0, w), (e, target)]] {
                    let allowed = bombardment_allowed(r, &pos, &shots);
                    assert_eq!(allowed, check_bombardment(r, &pos, &shots).is_ok());
                    accepted += usize::from(allowed);
                }
            }
        }
    }
    assert!(accepted > 0);
}

/// The checks asked without wording a refusal accept exactly what the checks they stand for
/// accept, in the positions of a seeded random game of each scenario (every 25th):
/// [`engineering::fill_allowed`] against [`engineering::may_fill`] (every unit and every hex
/// next to it, moved or not), [`acre::bombardment::counter_bombardment_allowed`] against
/// [`acre::bombardment::check_counter_bombardment`] (every pair of siege units, alone and
/// twice), and [`regroup::redeploy_allowed_on_ground`] with a board against
/// [`regroup::check_redeploy_on`] with the position (the first combat units and leaders of
/// each side on every hex of its ground).
#[test]
fn checks_without_words_are_the_checks() {
    use acre::bombardment::{check_counter_bombardment, counter_bombardment_allowed};
    let mut accepted = [0usize; 3];
    for (scenario, seed) in [("siege", 31u64), ("siege-conrad", 32)] {
        each_position(scenario, seed, |s, plies| {
            if plies % 25 == 0 {
                let r = &s.rules;
                for u in 0..r.units.len() {
                    let Some(at) = s.pos.hex_of(u) else { continue };
                    for h in at.neighbours() {
                        for moved in [false, true] {
                            let allowed = engineering::fill_allowed(r, &s.pos, u, moved, h);
                            let plain = engineering::may_fill(r, &s.pos, u, moved, h);
                            assert_eq!(allowed, plain.is_ok(), "{scenario} ply {plies}");
                            accepted[0] += usize::from(allowed);
                        }
                    }
                }
                for c in 0..r.siege.len() + 1 {
                    for t in 0..r.siege.len() + 1 {
                        for shots in [vec![(c, t)], vec![(c, t), (c, t)]] {
                            let allowed = counter_bombardment_allowed(r, &s.pos, &shots);
                            let plain = check_counter_bombardment(r, &s.pos, &shots);
                            assert_eq!(allowed, plain.is_ok(), "{scenario} ply {plies}");
                            accepted[1] += usize::from(allowed);
                        }
                    }
                }
                let board = Board::new(r, &s.pos);
                for side in [Side::Crusader, Side::Moslem] {
                    let ground = regroup::redeploy_ground(r, side);
                    let units = (0..r.units.len())
                        .filter(|&u| r.side_of(u) == side)
                        .map(Piece::Unit)
                        .take(4);
                    let leaders = (0..r.leaders.len())
                        .filter(|&l| r.leaders[l].side == side)
                        .map(Piece::Leader)
                        .take(2);
                    for piece in units.chain(leaders) {
                        for &h in &ground {
                            let allowed = regroup::redeploy_allowed_on_ground(r, &board, piece, h);
                            let plain = regroup::check_redeploy_on(r, &s.pos, piece, h, &ground);
                            assert_eq!(allowed, plain.is_ok(), "{scenario} ply {plies}");
                            accepted[2] += usize::from(allowed);
                        }
                    }
                }
            }
        });
    }
    assert!(accepted.iter().all(|&n| n > 0), "accepted: {accepted:?}");
}

/// [`acre::map::Map::index`], read from a table, is the grid's own index
/// ([`hexgrid::Grid::index`]) for every hex of the map and every hex within three of it, and
/// [`acre::map::Map::neighbours`], which asks that table, are the grid's own neighbours in
/// the same order, as are those of the tables by grid index.
#[test]
fn map_index_is_the_grid_index() {
    let s = start("siege", 4);
    let map = &s.rules.map;
    let mut on_map = 0;
    for h in map.grid.hexes() {
        for n in h.within(3) {
            assert_eq!(map.index(n), map.grid.index(n), "{n:?}");
            on_map += usize::from(map.index(n).is_some());
            let ours: Vec<_> = map.neighbours(n).collect();
            let grids: Vec<_> = map.grid.neighbours(n).collect();
            assert_eq!(ours, grids, "the neighbours of {n:?}");
        }
        let i = map.index(h).expect("on the map");
        assert_eq!(map.hex_at_index(i), h);
        let by_index: Vec<_> = map
            .neighbour_indices(i)
            .map(|n| map.hex_at_index(n))
            .collect();
        assert_eq!(
            by_index,
            map.grid.neighbours(h).collect::<Vec<_>>(),
            "{h:?}"
        );
    }
    assert!(on_map > 0);
}

/// [`acre::melee::overrun`], which looks for an enemy leader or siege unit before the combat
/// units, does to the position what the plain rule does: no enemy combat unit there, then an
/// enemy leader killed and an enemy siege unit damaged. Every hex of the map, for each side,
/// in the positions of a seeded random game (every 30th).
#[test]
fn overrun_is_the_plain_rule() {
    use acre::melee::{overrun, Overrun};
    let plain = |s: &State, pos: &mut acre::Position, hex: Hex, by: Side| {
        let r = &s.rules;
        let mut out = Vec::new();
        if pos.side_at(r, hex) == Some(by.enemy()) {
            return out;
        }
        if let Some(l) = pos.leader_at(hex).filter(|&l| r.leaders[l].side != by) {
            let morale = leaders::kill(r, pos, l, s.conrad);
            out.push(Overrun::LeaderKilled { leader: l, morale });
        }
        if let Some(e) = pos.siege_at(hex).filter(|&e| r.siege[e].side != by) {
            if let Some(loss) = acre::bombardment::damage_engine(r, pos, e, s.turn.turn) {
                out.push(Overrun::Engine { siege: e, loss });
            }
        }
        out
    };
    let mut exposed = 0;
    each_position("siege", 41, |s, plies| {
        if plies % 30 == 0 {
            let hexes: Vec<Hex> = s.rules.map.grid.hexes().collect();
            for &h in &hexes {
                for by in [Side::Crusader, Side::Moslem] {
                    let r = &s.rules;
                    let enemy_leader = s.pos.leader_at(h).is_some_and(|l| r.leaders[l].side != by);
                    let enemy_siege = s.pos.siege_at(h).is_some_and(|e| r.siege[e].side != by);
                    exposed += usize::from(enemy_leader || enemy_siege);
                    let (mut fast, mut slow) = (s.pos.clone(), s.pos.clone());
                    let got = overrun(&s.rules, &mut fast, h, by, s.turn.turn, s.conrad);
                    assert_eq!(got, plain(s, &mut slow, h, by), "ply {plies}");
                    assert_eq!(fast, slow, "ply {plies}");
                }
            }
        }
    });
    assert!(exposed > 0);
}

/// [`leaders::command_reaches`], asked of one hex, answers as [`leaders::command_reach`]
/// does for that hex, and so does [`leaders::command_reach_in`] with the enemy's zones of
/// control for the whole map, for every hex (the set-up's check of a single placement, 17.0), the one asked of a
/// [`Board`], the other of the position: every leader on the
/// map at twice and once his Command Radius, every hex of the map and a hex off it, in the
/// positions of seeded random games (every 40th).
#[test]
fn command_reach_of_one_hex_is_the_whole_reach() {
    let mut reached = 0;
    for (scenario, seed) in [("siege", 3), ("siege-conrad", 5)] {
        each_position(scenario, seed, |s, plies| {
            if plies % 40 != 0 {
                return;
            }
            let r = &s.rules;
            let board = Board::new(r, &s.pos);
            for l in 0..r.leaders.len() {
                let Some(at) = leaders::leader_hex(&s.pos, l) else {
                    continue;
                };
                let side = r.leaders[l].side;
                for times in [1, 2] {
                    let radius = times * u32::from(r.leaders[l].radius);
                    let whole = leaders::command_reach(r, &s.pos, side, at, radius);
                    let control = zoc::control(r, &board, side.enemy());
                    let kept = leaders::command_reach_in(r, &board, side, at, radius, &control);
                    assert_eq!(kept, whole, "{scenario} ply {plies}");
                    for h in r.map.grid.hexes() {
                        let k = r.map.grid.index(h).expect("on the grid");
                        let one = leaders::command_reaches(r, &board, side, at, radius, h);
                        assert_eq!(one, whole[k], "{scenario} ply {plies} {h:?}");
                        reached += usize::from(one);
                    }
                    let off = Hex::new(-100, -100);
                    assert!(!leaders::command_reaches(r, &board, side, at, radius, off));
                }
            }
        });
    }
    assert!(reached > 0);
}

/// The Moslem's searches re-draw the tunnels he cannot see (13.23) keeping a board of the
/// tunnel hexes drawn so far: the very tunnels the plain rule draws, asking
/// [`engineering::Tunnels::may_extend`] of each hex, from the same generator, in the tunnels
/// of random games and with hexes he searched known.
#[test]
fn tunnels_redrawn_with_a_board_are_the_plain_redraw() {
    use rand_core::SeedableRng;
    let (mut compared, mut drawn) = (0usize, 0usize);
    for (scenario, seed) in [("siege", 41u64), ("siege-conrad", 42), ("siege", 43)] {
        each_position(scenario, seed, |s, plies| {
            if plies % 10 != 0 || !s.tunnels.bases_complete(&s.rules) {
                return;
            }
            let mut probe = s.tunnels.clone();
            probe.known.extend(s.searched.iter().copied());
            for max_len in [1, 6, 40] {
                let draw = |plain: bool| {
                    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(plies as u64 ^ seed);
                    if plain {
                        probe.plain_determinize(&s.rules, max_len, &mut rng)
                    } else {
                        probe.determinize(&s.rules, max_len, &mut rng)
                    }
                };
                let (kept, plain) = (draw(false), draw(true));
                assert_eq!(kept, plain, "{scenario} ply {plies}, at most {max_len}");
                compared += 1;
                drawn += plain.shafts.iter().map(Vec::len).sum::<usize>();
            }
        });
    }
    assert!(
        compared > 50 && drawn > 500,
        "compared {compared}, hexes drawn {drawn}"
    );
}
