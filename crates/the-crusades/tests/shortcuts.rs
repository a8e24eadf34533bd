//! The shortcuts taken for speed give the same answers as the plain rules they stand for, in
//! the positions of seeded random games: land and sea routes remembered per scenario
//! ([`the_crusades::map::Map::land_routes`], [`the_crusades::map::Map::sea_routes`]) against
//! a fresh search, and every listed order accepted when applied. (The legal-action lists as a
//! whole are pinned by `legal_order.rs`.)

mod common;

use engine::Game;
use the_crusades::state::{FleetStatus, Phase, Status};
use the_crusades::{movement, naval};

#[test]
fn remembered_routes_agree_with_a_fresh_search() {
    let (mut land, mut sea) = (0, 0);
    for seed in [2, 9] {
        common::random_game(seed, 3_000, |s| {
            let st = s.state();
            if st.phase != Phase::Orders {
                return;
            }
            let map = &st.scenario.map;
            let rain = st.turn_info().rain;
            for (l, leader) in st.leaders.iter().enumerate() {
                let (Status::Active, Some(place)) = (leader.status, leader.place) else {
                    continue;
                };
                let budget = movement::allowance(st, st.side_of(l));
                assert_eq!(
                    movement::reachable(st, place, budget)[..],
                    movement::search(map, rain, place, budget)[..],
                    "seed {seed}: land routes from {place}"
                );
                land += 1;
            }
            for f in &st.fleets {
                let (FleetStatus::Active, Some(hex)) = (f.status, f.hex) else {
                    continue;
                };
                assert_eq!(
                    naval::reachable(st, hex)[..],
                    naval::search(map, hex, naval::allowance(st))[..],
                    "seed {seed}: sea routes from {hex}"
                );
                sea += 1;
            }
            // Every listed action is accepted (orders are checked against the plain rules
            // when applied).
            for seat in st.pending_seats() {
                for a in st.legal_actions(seat).iter().step_by(7) {
                    st.clone()
                        .apply(seat, a, &mut engine::Log::discarding())
                        .unwrap_or_else(|e| panic!("seed {seed}: {} refused: {e}", a.text(st)));
                }
            }
        });
    }
    assert!(
        land > 1_000 && sea > 100,
        "{land} land and {sea} sea searches compared"
    );
}
