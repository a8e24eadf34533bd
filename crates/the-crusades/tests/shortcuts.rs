//! The shortcuts taken for speed give the same answers as the plain rules they stand for, in
//! the positions of seeded random games: land and sea routes remembered per scenario
//! ([`the_crusades::map::Map::land_routes`], [`the_crusades::map::Map::sea_routes`]), the
//! doctrine's land steps kept per hex ([`the_crusades::map::Map::land_steps`]) and the
//! landfalls picked out of sea routes against a fresh search, the sides present at a place
//! and the zones of influence by dense index against plain scans, and every listed order
//! accepted when applied; the scenario (with its remembered routes) shared by the games of
//! the same data, on any thread, and by no game of other data. (The legal-action lists as a
//! whole are pinned by `legal_order.rs`.)

mod common;

use std::sync::Arc;

use engine::{DataSet, Game, Setup, Startable};
use the_crusades::map::{Place, SeaReach};
use the_crusades::state::{FleetStatus, Phase, State, Status};
use the_crusades::zoi::Zones;
use the_crusades::{movement, naval};

/// A new Third Crusade game of `data`.
fn start(data: &DataSet, seed: u64) -> State {
    State::start(&Setup::seeded("third-crusade", seed), data).expect("starts")
}

/// The built-in data with the first `from` of `path` replaced by `to`.
fn with_replaced(path: &str, from: &str, to: &str) -> DataSet {
    let base = the_crusades::builtin_data();
    let files: Vec<(String, String)> = base
        .paths_under("the-crusades/")
        .map(|p| {
            let t = base.text(p).expect("listed").to_string();
            let t = if p == path {
                assert!(t.contains(from), "{path} holds {from}");
                t.replacen(from, to, 1)
            } else {
                t
            };
            (p.to_string(), t)
        })
        .collect();
    DataSet::from_files(files.iter().map(|(p, t)| (p.as_str(), t.as_str())))
}

/// Every land route of every active leader of `st`, remembered and fresh.
fn land_routes(st: &State) -> Vec<(Place, Vec<String>, Vec<String>)> {
    let map = &st.scenario.map;
    let rain = st.turn_info().rain;
    let text = |r: &[(Place, the_crusades::orders::Path<Place>)]| {
        r.iter().map(|(p, path)| format!("{p}:{path:?}")).collect()
    };
    st.leaders
        .iter()
        .enumerate()
        .filter(|(_, l)| l.status == Status::Active)
        .filter_map(|(i, l)| Some((i, l.place?)))
        .map(|(i, place)| {
            let budget = movement::allowance(st, st.side_of(i));
            (
                place,
                text(&movement::reachable(st, place, budget)),
                text(&movement::search(map, rain, place, budget)),
            )
        })
        .collect()
}

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
                let fresh = naval::search(map, hex, naval::allowance(st));
                assert_eq!(
                    naval::reachable(st, hex)[..],
                    fresh[..],
                    "seed {seed}: sea routes from {hex}"
                );
                // The landfalls: exactly the hexes reached holding land, in order, each
                // with its city or castle.
                let landfalls: Vec<(usize, Option<usize>)> = fresh
                    .iter()
                    .enumerate()
                    .filter(|(_, (h, _))| map.terrain(*h) != the_crusades::map::Terrain::Sea)
                    .map(|(i, (h, _))| (i, map.site_at(*h)))
                    .collect();
                let reach = naval::reach(st, hex);
                assert_eq!(reach.routes[..], fresh[..], "seed {seed}: {hex}");
                assert_eq!(reach.landfalls[..], landfalls[..], "seed {seed}: {hex}");
                assert_eq!(*reach, SeaReach::new(map, fresh), "seed {seed}: {hex}");
                sea += 1;
            }
            // The sides at a place, and the zones of influence by dense index, against plain
            // scans of the leaders, the leaderless ASPs and the zones by hex.
            for place in st.leaders.iter().filter_map(|l| l.place) {
                let mut plain: Vec<_> = st
                    .leaders
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| l.status == Status::Active && l.place == Some(place))
                    .map(|(i, _)| st.side_of(i))
                    .chain(
                        st.garrisons
                            .iter()
                            .filter(|g| g.place == place && g.asps > 0)
                            .map(|g| g.side),
                    )
                    .collect();
                plain.sort();
                plain.dedup();
                assert_eq!(st.sides_at(place), plain, "seed {seed}: sides at {place}");
                let present = st.sides_present(place);
                assert_eq!(present.iter().collect::<Vec<_>>(), plain);
                assert_eq!(present.first(), plain.first().copied());
                assert_eq!(present.is_empty(), plain.is_empty());
            }
            let zones = Zones::compute(
                st,
                &|l| movement::stays(st, l),
                &the_crusades::zoi::defending(st),
            );
            for (i, hex) in map.grid.ids().enumerate() {
                for side in [
                    the_crusades::scenario::Side::Crusaders,
                    the_crusades::scenario::Side::Saracens,
                ] {
                    assert_eq!(
                        zones.enemy_of_at(side, hex, i),
                        zones.enemy_of(side, hex),
                        "seed {seed}: zones in {hex}"
                    );
                }
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

#[test]
fn games_of_the_same_data_share_the_scenario_and_no_other() {
    let data = the_crusades::builtin_data();
    let (a, b) = (start(&data, 1), start(&the_crusades::builtin_data(), 2));
    assert!(
        Arc::ptr_eq(&a.scenario, &b.scenario),
        "two games of the built-in data share one scenario"
    );
    // Any change to a file read gives the game its own scenario and routes: here a river
    // crossed by the Crusaders' first moves becomes impassable.
    let changed = with_replaced(
        "the-crusades/map.toml",
        "feature = \"river\"",
        "feature = \"blocked\"",
    );
    let c = start(&changed, 1);
    assert!(!Arc::ptr_eq(&a.scenario, &c.scenario));
    assert!(Arc::ptr_eq(&c.scenario, &start(&changed, 3).scenario));
    let (mine, theirs) = (land_routes(&c), land_routes(&a));
    for (place, kept, fresh) in &mine {
        assert_eq!(kept, fresh, "changed map: land routes from {place}");
    }
    assert!(
        mine.iter().zip(&theirs).any(|(m, t)| m.1 != t.1),
        "the blocked rivers change some route"
    );
    // A comment alone is other data too.
    let commented = with_replaced("the-crusades/tables.toml", "\n", "\n# a note\n");
    assert!(!Arc::ptr_eq(&a.scenario, &start(&commented, 1).scenario));
}

#[test]
fn games_on_several_threads_agree_with_each_other_and_a_fresh_search() {
    // Each thread plays the same seeded games with data of its own, filling the shared
    // routes as it goes: the action lists come out the same on every thread.
    let play = || {
        let data = the_crusades::builtin_data();
        let mut out = Vec::new();
        for seed in [5, 6] {
            let mut s = start(&data, seed);
            let mut pick = common::Chooser::new(seed);
            for _ in 0..400 {
                let engine::Pending::Seats(seats) = s.pending() else {
                    break;
                };
                let legal = s.legal_actions(seats[0]);
                out.push(
                    legal
                        .iter()
                        .map(|a| a.text(&s))
                        .collect::<Vec<_>>()
                        .join(","),
                );
                for (place, kept, fresh) in land_routes(&s) {
                    assert_eq!(kept, fresh, "seed {seed}: land routes from {place}");
                }
                let a = legal[pick.below(legal.len())].clone();
                s.apply(seats[0], &a, &mut engine::Log::discarding())
                    .expect("a legal action applies");
            }
        }
        out
    };
    let threads: Vec<_> = (0..3).map(|_| std::thread::spawn(play)).collect();
    let lists: Vec<Vec<String>> = threads
        .into_iter()
        .map(|t| t.join().expect("no thread panics"))
        .collect();
    assert!(lists[0].len() > 100, "{} decisions", lists[0].len());
    assert!(lists.iter().all(|l| *l == lists[0]));
}

#[test]
fn land_steps_by_dense_index_are_the_plain_crossings() {
    let st = start(&the_crusades::builtin_data(), 1);
    let map = &st.scenario.map;
    let mut rivers = 0;
    for (i, hex) in map.grid.ids().enumerate() {
        assert_eq!(map.terrain_at(i), map.terrain(hex));
        for rain in [false, true] {
            let plain: Vec<_> = map
                .neighbours(hex)
                .into_iter()
                .filter(|&n| map.land_crossing(hex, n, rain))
                .map(|n| {
                    let river = map.feature(hex, n) == Some(the_crusades::map::Feature::River);
                    (map.grid.index_of_id(n).expect("on the map"), n, river)
                })
                .collect();
            rivers += plain.iter().filter(|s| s.2).count();
            assert_eq!(map.land_near_at(i, rain), &plain[..], "{hex}, rain {rain}");
        }
    }
    assert!(rivers > 0, "some river is crossed outside rain turns");
}

#[test]
fn shared_land_steps_are_a_plain_search_over_the_crossings() {
    // The doctrine's distances to its objectives: kept by the map per hex and rain, against
    // a breadth-first search over `Map::land_crossing` by hex id.
    let st = start(&the_crusades::builtin_data(), 1);
    let map = &st.scenario.map;
    let ids: Vec<_> = map.grid.ids().collect();
    let mut longer_in_rain = 0;
    for &from in ids.iter().step_by(7) {
        for rain in [false, true] {
            let mut plain = std::collections::BTreeMap::from([(from, 0u32)]);
            let mut queue = std::collections::VecDeque::from([from]);
            while let Some(h) = queue.pop_front() {
                let d = plain[&h] + 1;
                for n in map.neighbours(h) {
                    if map.land_crossing(h, n, rain) && !plain.contains_key(&n) {
                        plain.insert(n, d);
                        queue.push_back(n);
                    }
                }
            }
            let kept = map.land_steps(from, rain).expect("on the map");
            for (i, &h) in ids.iter().enumerate() {
                assert_eq!(
                    kept[i],
                    plain.get(&h).copied().unwrap_or(u32::MAX),
                    "{from} to {h}"
                );
            }
            assert!(
                std::ptr::eq(kept, map.land_steps(from, rain).unwrap()),
                "kept"
            );
        }
        let (dry, wet) = (
            map.land_steps(from, false).unwrap(),
            map.land_steps(from, true).unwrap(),
        );
        assert!(
            dry.iter().zip(wet).all(|(d, w)| d <= w),
            "rain never shortens a march"
        );
        longer_in_rain += usize::from(dry != wet);
    }
    assert!(longer_in_rain > 0, "rain closes some river on some march");
}

#[test]
fn listed_commanders_loss_order_orders_and_cancels_follow_the_plain_rules() {
    use std::collections::BTreeSet;

    use the_crusades::orders::FleetOrder;
    use the_crusades::scenario::Side;
    use the_crusades::Action;

    let mut commanders = 0;
    for seed in [3, 11] {
        common::random_game(seed, 3_000, |s| {
            let st = s.state();
            if st.phase != Phase::Orders {
                return;
            }
            for seat in st.pending_seats() {
                let side = Side::of_seat(seat).expect("a seat's side");
                let book = st.book(side);
                let legal = st.legal_actions(seat);
                let listed = |pick: &dyn Fn(&Action) -> Option<usize>| -> BTreeSet<usize> {
                    legal.iter().filter_map(pick).collect()
                };
                let awake = |l: usize| {
                    st.leaders[l].status == Status::Active
                        && st.side_of(l) == side
                        && !st.leaders[l].neutral
                        && side != Side::Cypriots
                };
                let mine: Vec<usize> = (0..st.leaders.len()).filter(|&l| awake(l)).collect();
                // 8.0 G-H: outranked by none of the others of his place, sharing his rank
                // with one of them, not yet designated.
                let rank = |l: usize| st.scenario.leaders[l].rank;
                let plain: BTreeSet<usize> = mine
                    .iter()
                    .copied()
                    .filter(|&l| {
                        let others: Vec<usize> = (0..st.leaders.len())
                            .filter(|&o| {
                                o != l
                                    && st.leaders[o].status == Status::Active
                                    && st.side_of(o) == side
                                    && st.leaders[o].place == st.leaders[l].place
                            })
                            .collect();
                        others.iter().all(|&o| rank(o) >= rank(l))
                            && others.iter().any(|&o| rank(o) == rank(l))
                            && !book.command.contains(&l)
                    })
                    .collect();
                commanders += plain.len();
                assert_eq!(
                    listed(&|a| match a {
                        Action::Command { leader } => Some(*leader),
                        _ => None,
                    }),
                    plain,
                    "seed {seed}: commanders"
                );
                // 6.4.5 B: each awake active leader named once in the loss order.
                let plain: BTreeSet<usize> = mine
                    .iter()
                    .copied()
                    .filter(|l| !book.losses.contains(l))
                    .collect();
                assert_eq!(
                    listed(&|a| match a {
                        Action::Losses { leader } => Some(*leader),
                        _ => None,
                    }),
                    plain,
                    "seed {seed}: loss order"
                );
                // 5.0: leaders given orders are those without one, not carried by a fleet.
                let carried = |l: usize| {
                    book.fleets.values().any(
                        |o| matches!(o, FleetOrder::Transport { cargo, .. } if cargo.contains(&l)),
                    )
                };
                let plain: BTreeSet<usize> = mine
                    .iter()
                    .copied()
                    .filter(|&l| !book.leaders.contains_key(&l) && !carried(l))
                    .collect();
                assert_eq!(
                    listed(&|a| match a {
                        Action::Order { leader, .. } => Some(*leader),
                        _ => None,
                    }),
                    plain,
                    "seed {seed}: leaders to order"
                );
                // Every leader some line of the book names may have it cancelled.
                let plain: BTreeSet<usize> = book
                    .leaders
                    .keys()
                    .chain(&book.command)
                    .chain(book.take.keys())
                    .chain(&book.losses)
                    .chain(book.escort.values())
                    .copied()
                    .collect();
                assert_eq!(
                    listed(&|a| match a {
                        Action::Cancel {
                            fleet: false,
                            index,
                        } => Some(*index),
                        _ => None,
                    }),
                    plain,
                    "seed {seed}: cancels"
                );
            }
        });
    }
    assert!(commanders > 10, "{commanders} commanders compared");
}
