//! The shortcuts taken for speed give the same answers as the plain rules they stand for, in
//! the positions of seeded random games: the [`Board`] table of the pieces in each hex
//! against the position's own look-up, zones of control, movement costs and command radius
//! asked of either, a piece's destinations listed without their paths, the fire targets
//! listed from the hexes that hold an enemy, and a move or a let-go checked without listing
//! every legal action (each action near the legal ones accepted exactly when listed). That
//! the games themselves are unchanged is `legal_order.rs`'s fingerprints.

use acre::fire::{self, Firer};
use acre::movement::{self, Mover};
use acre::position::{Board, Pieces};
use acre::rules::{Kind, Side, SiegeKind};
use acre::state::{ix, Stage};
use acre::{leaders, moves, zoc, Action, State};
use engine::{Game, Log, Pending, Seat, Setup, Startable};
use hexgrid::Hex;

fn start(scenario: &str, seed: u64) -> State {
    let setup = Setup::seeded(scenario, seed);
    State::start(&setup, &acre::builtin_data()).expect("starts")
}

/// The board and the position agree on every hex of the map and next to it, and so do the
/// rules asked of either.
fn check_board(s: &State) {
    let r = &s.rules;
    let board = Board::new(r, &s.pos);
    let hexes: Vec<Hex> = r.map.grid.hexes().collect();
    for &h in &hexes {
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
    for a in &candidates {
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

#[test]
fn the_shortcuts_agree_with_the_plain_rules_in_random_games() {
    // Boards, selected pieces' destinations, fire lists, moves checked.
    let mut checked = [0usize; 4];
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
                check_board(&s);
                checked[0] += 1;
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
                    let plain: Vec<Hex> =
                        moves::destinations(&s, p, strategic).into_keys().collect();
                    let fast = moves::destination_hexes(&s, p, strategic);
                    assert_eq!(fast, plain, "{scenario} ply {plies}: {p:?}'s destinations");
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
            }
            let a = &legal[(rng % legal.len() as u64) as usize];
            s.apply(seat, a, &mut Log::discarding()).expect("legal");
            plies += 1;
        }
    }
    assert!(
        checked.iter().all(|&n| n > 20),
        "positions checked: {checked:?}"
    );
}
