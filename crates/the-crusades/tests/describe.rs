//! Actions described for the browser ([`the_crusades::describe`]): every written order names
//! the counter of its leader or fleet as the board shows it, ends in the hex of its last place
//! and carries its path; every other decision has a readable label and what it concerns. And
//! the board's markers and status lines for known positions: control, sieges, garrisons,
//! fleets, and the viewer's own written orders only.

mod common;

use std::collections::BTreeSet;

use engine::{ActionInfo, Board, Game, Seat, Viewer};
use hexgrid::HexId;
use the_crusades::describe::path_hexes;
use the_crusades::map::Place;
use the_crusades::orders::{FleetOrder, Order, OrderBook};
use the_crusades::state::{Offer, Phase, State, Status};
use the_crusades::Action;

fn hex(s: &str) -> HexId {
    s.parse().unwrap()
}

/// Every Crusader outside Acre in April II 1191 (16.2.1) under Guy's full siege.
fn besiege_acre(s: &mut engine::Session<State>) {
    let st = s.state().clone();
    s.act(Seat(0), "guy full-siege", &[]).unwrap();
    for l in st.side_leaders_at(
        the_crusades::scenario::Side::Crusaders,
        Place::outside(hex("1619")),
    ) {
        let id = &st.scenario.leaders[l].id;
        if id != "guy" {
            s.act(Seat(0), &format!("{id} with guy"), &[]).unwrap();
        }
    }
}

fn counter<'a>(board: &'a Board, id: &str) -> &'a engine::board::BoardCounter {
    board
        .counters
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no counter {id} on the board"))
}

/// Checks one description against the action it describes; returns its kind.
fn check(state: &State, board: &Board, action: &Action, info: &ActionInfo) -> String {
    let s = &state.scenario;
    let lid = |l: usize| s.leaders[l].id.clone();
    let on_board = |id: &str, at: Option<HexId>| {
        let c = counter(board, id);
        if let Some(h) = at {
            assert_eq!(c.hex, h, "{id}'s counter is where the order starts");
        }
    };
    assert_eq!(info.notation, action.text(state));
    assert!(
        !info.label.is_empty() && info.label != info.notation,
        "`{}` has a readable label",
        info.notation
    );
    assert!(
        !info.kind.is_empty() && s.leader(&info.kind).is_none() && s.fleet(&info.kind).is_none(),
        "`{}`: its kind is a verb, not a counter ({})",
        info.notation,
        info.kind
    );
    match action {
        Action::Order { leader, order } => {
            let here = state.leaders[*leader].place.map(|p| p.hex);
            assert_eq!(info.counters, vec![lid(*leader)], "{}", info.notation);
            on_board(&lid(*leader), here);
            match order {
                Order::Move { path, .. } => {
                    assert_eq!(info.kind, "move");
                    assert_eq!(info.hex, path.last().map(|p| p.hex), "{}", info.notation);
                    let mut hexes: Vec<HexId> = path.iter().map(|p| p.hex).collect();
                    hexes.dedup();
                    assert_eq!(info.path, hexes, "{}", info.notation);
                    assert_eq!(info.path.last(), info.hex.as_ref());
                }
                _ => {
                    assert_eq!(info.hex, here, "{} stays in his hex", info.notation);
                    assert!(info.path.is_empty());
                    let verb = info.notation.split_whitespace().nth(1).unwrap();
                    assert_eq!(info.kind, verb);
                }
            }
        }
        Action::Fleet { fleet, order } => {
            let fid = s.fleets[*fleet].id.clone();
            assert_eq!(info.counters.first(), Some(&fid));
            on_board(&fid, state.fleets[*fleet].hex);
            match order {
                FleetOrder::Move { path } | FleetOrder::Transport { path, .. } => {
                    assert_eq!(info.hex, path.last().copied());
                    assert_eq!(info.path[..], path[..]);
                    if let FleetOrder::Transport { cargo, .. } = order {
                        assert_eq!(info.kind, "transport");
                        let carried: Vec<String> = cargo.iter().map(|&l| lid(l)).collect();
                        assert_eq!(info.counters[1..], carried[..]);
                        for c in &carried {
                            on_board(c, state.fleets[*fleet].hex);
                        }
                    } else {
                        assert_eq!(info.kind, "move");
                        assert_eq!(info.counters.len(), 1);
                    }
                }
                FleetOrder::Blockade | FleetOrder::NoOrder => {
                    assert_eq!(info.hex, state.fleets[*fleet].hex);
                    assert!(info.path.is_empty());
                }
            }
        }
        Action::Cancel { fleet, index } => {
            let id = if *fleet {
                s.fleets[*index].id.clone()
            } else {
                lid(*index)
            };
            assert_eq!(info.counters, vec![id]);
            assert_eq!(info.hex, None, "listed whole, not as a move");
        }
        Action::Commit | Action::Pass | Action::Kill { .. } => {
            assert!(info.counters.is_empty() && info.hex.is_none());
        }
        Action::Command { leader } | Action::Take { leader, .. } | Action::Losses { leader } => {
            assert_eq!(info.counters, vec![lid(*leader)]);
            assert_eq!(info.hex, None);
        }
        Action::Escort { leader, prisoner } => {
            assert_eq!(info.counters, vec![lid(*leader)]);
            assert!(info.label.contains(&state.leader_name(*prisoner)));
        }
        Action::Assassinate { leader } => {
            if state.leaders[*leader].status == Status::Active {
                assert_eq!(info.targets, vec![lid(*leader)]);
                assert_eq!(info.hex, state.leaders[*leader].place.map(|p| p.hex));
            }
        }
        Action::Terms { site, .. } => {
            let at = s.map.sites[*site].hex;
            assert_eq!(info.hex, Some(at));
            assert!(info.counters.is_empty(), "listed whole");
            let inside: Vec<String> = state.leaders_at(Place::inside(at)).map(lid).collect();
            assert_eq!(info.targets, inside);
            assert!(!info.details.is_empty(), "what the terms mean");
        }
        Action::Surrender | Action::Refuse | Action::Accept | Action::Offer { .. } => {
            assert!(info.counters.is_empty(), "listed whole");
            let site = match (state.phase, action) {
                (Phase::SurrenderAnswer(_), _) => state.surrender.map(|t| t.site),
                (
                    _,
                    Action::Offer {
                        offer: Offer::Ransom { site, .. },
                    },
                ) => Some(*site),
                (Phase::OfferAnswer(_), Action::Accept) => match state.offer {
                    Some((_, Offer::Ransom { site, .. })) => Some(site),
                    _ => None,
                },
                _ => None,
            };
            assert_eq!(info.hex, site.map(|si| s.map.sites[si].hex));
        }
        Action::Arrive {
            reinforcement,
            place,
        } => {
            let group = &s.reinforcements[*reinforcement].leaders;
            assert_eq!(info.counters, vec![lid(group[0])]);
            assert_eq!(info.hex, Some(place.hex));
        }
    }
    info.kind.clone()
}

/// April II 1191 (16.2.1): Guy's march, a march into a city, Kara-Kush's sally, a fleet's
/// transport and the Saracens' orders are described with their counter, hex and path.
#[test]
fn orders_at_the_start_name_their_counter_hex_and_path() {
    let s = common::session(3);
    let st = s.state();
    let mut kinds = BTreeSet::new();
    for seat in [Seat(0), Seat(1)] {
        let board = st.board_picture(Viewer::Seat(seat));
        for a in st.legal_actions(seat) {
            kinds.insert(check(st, &board, &a, &st.describe_action(seat, &a)));
        }
    }
    for k in [
        "move",
        "transport",
        "blockade",
        "no-order",
        "defend",
        "full-siege",
        "partial-siege",
        "sally",
        "command",
        "losses",
        "commit",
    ] {
        assert!(kinds.contains(k), "{k} is offered and described: {kinds:?}");
    }
    // One known march: Guy from outside Acre into Haifa (1620c).
    let guy = st.scenario.leader("guy").unwrap();
    let a = Action::parse(st, "guy move 1620 1620c").unwrap();
    let info = st.describe_action(Seat(0), &a);
    assert_eq!(info.counters, vec!["guy".to_string()]);
    assert_eq!(info.hex, Some(hex("1620")));
    assert_eq!(info.path, vec![hex("1620")]);
    assert_eq!(
        info.label,
        "Guy of Lusignan marches into Haifa (1620c): 1620 → 1620c (1 hex, 1 Attrition Point, 6.4.2)"
    );
    assert_eq!(st.leaders[guy].place, Some(Place::outside(hex("1619"))));
    // Leaving a city: Kara-Kush's path starts in his own hex, outside the walls.
    let a = Action::parse(st, "kara-kush move 1619 1620").unwrap();
    let info = st.describe_action(Seat(1), &a);
    assert_eq!(info.path, vec![hex("1619"), hex("1620")]);
    assert_eq!(info.hex, Some(hex("1620")));
    assert_eq!(
        path_hexes(&[
            Place::outside(hex("1619")),
            Place::outside(hex("1620")),
            Place::inside(hex("1620"))
        ]),
        vec![hex("1619"), hex("1620")]
    );
    // Commit counts what is still unwritten.
    let info = st.describe_action(Seat(0), &Action::Commit);
    assert!(info.label.contains("without an order"), "{}", info.label);
}

/// Written lines that need an earlier one (`with`, `cancel`) and the Siege Phase's terms and
/// answer (10.4.2) are described too.
#[test]
fn with_cancel_terms_and_answers_are_described() {
    let mut s = common::session(7);
    s.act(Seat(0), "guy full-siege", &[]).unwrap();
    let st = s.state();
    let mut kinds = BTreeSet::new();
    let board = st.board_picture(Viewer::Seat(Seat(0)));
    for a in st.legal_actions(Seat(0)) {
        kinds.insert(check(st, &board, &a, &st.describe_action(Seat(0), &a)));
    }
    assert!(
        kinds.contains("with") && kinds.contains("cancel"),
        "{kinds:?}"
    );
    let with = Action::parse(st, "amalric with guy").unwrap();
    let info = st.describe_action(Seat(0), &with);
    assert_eq!(info.counters, vec!["amalric".to_string()]);
    assert_eq!(info.hex, Some(hex("1619")));
    assert!(info.label.contains("Guy of Lusignan"), "{}", info.label);
    s.act(Seat(0), "cancel guy", &[]).unwrap();
    besiege_acre(&mut s);
    s.act(Seat(0), "commit", &[]).unwrap();
    s.act(Seat(1), "commit", &[]).unwrap();
    let st = s.state();
    assert!(matches!(st.phase, Phase::SurrenderTerms(_)));
    let board = st.board_picture(Viewer::Seat(Seat(0)));
    for a in st.legal_actions(Seat(0)) {
        assert_eq!(
            check(st, &board, &a, &st.describe_action(Seat(0), &a)),
            "terms"
        );
    }
    let terms = Action::parse(st, "terms 1619 captivity").unwrap();
    let info = st.describe_action(Seat(0), &terms);
    assert_eq!(info.targets, vec!["kara-kush".to_string()]);
    assert!(info.label.contains("Acre"));
    s.act(Seat(0), "terms 1619 captivity", &[]).unwrap();
    let st = s.state();
    let board = st.board_picture(Viewer::Seat(Seat(1)));
    let answers: Vec<String> = st
        .legal_actions(Seat(1))
        .iter()
        .map(|a| check(st, &board, a, &st.describe_action(Seat(1), a)))
        .collect();
    assert_eq!(answers, vec!["surrender", "refuse"]);
    let info = st.describe_action(Seat(1), &Action::Surrender);
    assert_eq!(info.hex, Some(hex("1619")));
    assert!(
        info.details[0].contains("held prisoner"),
        "{:?}",
        info.details
    );
}

/// Whole random games: every legal action of every seat that must decide is described as
/// its action says, and over the games every kind of decision comes up.
#[test]
fn every_decision_of_random_games_is_described() {
    let mut kinds = BTreeSet::new();
    for seed in 0..3 {
        let n = common::random_game(seed, 4000, |s| {
            let st = s.state();
            for seat in st.pending_seats() {
                let board = st.board_picture(Viewer::Seat(seat));
                for a in st.legal_actions(seat) {
                    kinds.insert(check(st, &board, &a, &st.describe_action(seat, &a)));
                }
            }
        });
        assert!(n > 100, "seed {seed}: a real game ({n} actions)");
    }
    for k in [
        "move",
        "with",
        "cancel",
        "commit",
        "transport",
        "losses",
        "arrive",
    ] {
        assert!(kinds.contains(k), "{k} came up: {kinds:?}");
    }
}

/// The board at the start (16.2.1), as the Crusaders see it: Acre held by the Saracens and
/// besieged by the Crusaders, Tyre theirs, the fleets on blockade off Acre, Kara-Kush inside,
/// Jerusalem's garrison; no written order yet.
#[test]
fn the_board_shows_control_sieges_garrisons_and_fleets() {
    let s = common::session(3);
    let st = s.state();
    let b = st.board_picture(Viewer::Seat(Seat(0)));
    let ids: BTreeSet<&str> = b.counters.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), b.counters.len(), "counter ids are unique");
    let acre = counter(&b, "site-1619");
    assert_eq!(
        (acre.side.as_str(), acre.kind.as_str()),
        ("saracens", "marker")
    );
    assert_eq!(acre.name, "Acre");
    assert_eq!(acre.markers, vec!["besieged by the crusaders".to_string()]);
    assert_eq!(counter(&b, "site-1618").side, "crusaders", "Tyre");
    assert_eq!(counter(&b, "site-1507").side, "neutral", "Tarsus");
    let kk = counter(&b, "kara-kush");
    assert_eq!(kk.markers, vec!["in city".to_string()]);
    let jerusalem = counter(&b, "asps-saracens-1823c");
    assert_eq!(
        (jerusalem.name.as_str(), jerusalem.values.as_str()),
        ("ASPs", "10")
    );
    let pisan = counter(&b, "pisan");
    assert_eq!(pisan.hex, hex("1619"));
    assert!(pisan.markers.contains(&"blockade".to_string()));
    assert!(pisan.markers.contains(&"in port".to_string()));
    // Stacks: every hex's counters have positions 0, 1, 2, ... with the site marker last.
    let at_acre: Vec<&engine::board::BoardCounter> =
        b.counters.iter().filter(|c| c.hex == hex("1619")).collect();
    let mut positions: Vec<u8> = at_acre.iter().map(|c| c.stack_position).collect();
    positions.sort();
    assert_eq!(positions, (0..at_acre.len() as u8).collect::<Vec<_>>());
    assert_eq!(acre.stack_position as usize, at_acre.len() - 1);
    assert!(b
        .status
        .contains(&"Siege of Acre: the crusaders besiege the saracens".to_string()));
    assert!(b
        .status
        .contains(&"Your orders (secret until both sides commit): 0 written".to_string()));
    assert!(b
        .status
        .iter()
        .any(|l| l.starts_with("Cities and castles held: crusaders ")));
    let spectator = st.board_picture(Viewer::Spectator);
    assert!(!spectator
        .status
        .iter()
        .any(|l| l.starts_with("Your orders")));
}

/// The Crusaders' written orders are marked on their counters and listed in their status,
/// for them alone; once both seats commit they are revealed to everyone (the siege of Acre
/// is then known to be a full siege).
#[test]
fn written_orders_are_marked_for_their_seat_only() {
    let mut s = common::session(7);
    besiege_acre(&mut s);
    s.act(Seat(0), "philip-france move 1718 1717", &[]).unwrap();
    s.act(Seat(0), "losses guy", &[]).unwrap();
    let transport = s
        .state()
        .legal_actions(Seat(0))
        .into_iter()
        .find(|a| {
            matches!(a, Action::Fleet { order: FleetOrder::Transport { cargo, .. }, .. }
                if cargo.contains(&s.state().scenario.leader("conrad").unwrap()))
        })
        .expect("a fleet in Tyre may carry Conrad");
    let (fleet, to) = match &transport {
        Action::Fleet {
            fleet,
            order: FleetOrder::Transport { path, .. },
        } => (
            s.state().scenario.fleets[*fleet].id.clone(),
            *path.last().unwrap(),
        ),
        _ => unreachable!(),
    };
    s.act_action(Seat(0), &transport, &[]).unwrap();
    let st = s.state();
    let written = st.seat_view(Viewer::Seat(Seat(0))).my_orders.len();
    let own = st.board_picture(Viewer::Seat(Seat(0)));
    let markers = |b: &Board, id: &str| counter(b, id).markers.clone();
    assert_eq!(
        markers(&own, "guy"),
        vec!["order: full siege".to_string(), "loss order 1".to_string()]
    );
    assert_eq!(
        markers(&own, "amalric"),
        vec!["order: with guy".to_string()]
    );
    assert_eq!(
        markers(&own, "philip-france"),
        vec!["order: move → 1717".to_string()]
    );
    assert!(markers(&own, &fleet).contains(&format!("order: transport → {to}")));
    assert!(markers(&own, "conrad").contains(&format!("order: aboard {fleet} → {to}")));
    assert_eq!(
        counter(&own, "site-1619").markers,
        vec!["besieged by the crusaders (full siege)".to_string()]
    );
    assert!(own
        .status
        .contains(&"· philip-france move 1718 1717".to_string()));
    assert!(own.status.contains(&format!(
        "Your orders (secret until both sides commit): {written} written"
    )));
    for viewer in [Viewer::Seat(Seat(1)), Viewer::Spectator] {
        let other = st.board_picture(viewer);
        let json = serde_json::to_string(&other).unwrap();
        for secret in ["order:", "loss order", "full siege", "philip-france move"] {
            assert!(!json.contains(secret), "{viewer:?} sees `{secret}`");
        }
        let mut blank = st.clone();
        blank.orders[0] = OrderBook {
            committed: st.orders[0].committed,
            ..OrderBook::default()
        };
        assert_eq!(
            other,
            blank.board_picture(viewer),
            "nothing of the book shows"
        );
    }
    s.act(Seat(0), "commit", &[]).unwrap();
    let json = serde_json::to_string(&s.state().board_picture(Viewer::Seat(Seat(1)))).unwrap();
    assert!(!json.contains("order:"), "still secret after one commit");
    s.act(Seat(1), "commit", &[]).unwrap();
    let st = s.state();
    assert!(matches!(st.phase, Phase::SurrenderTerms(_)));
    for viewer in [Viewer::Seat(Seat(1)), Viewer::Spectator] {
        let b = st.board_picture(viewer);
        assert_eq!(
            counter(&b, "site-1619").markers,
            vec!["besieged by the crusaders (full siege)".to_string()],
            "revealed to {viewer:?}"
        );
        assert!(markers(&b, "guy").contains(&"order: full siege".to_string()));
    }
}
