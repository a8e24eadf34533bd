//! Choices the rules give the players rather than the program: where Richard's fleet enters
//! (16.4.1) and where blocked Saracen reinforcements appear (16.4.2).

mod common;

use common::session;
use engine::{Log, Seat, Session};
use the_crusades::map::Place;
use the_crusades::state::{Phase, Status};

/// Commits empty orders and declines assassinations until the game waits for an arrival.
fn until_arrival(s: &mut Session<the_crusades::State>) {
    for _ in 0..20 {
        match s.state().phase {
            Phase::Arrival(_) => return,
            Phase::Assassination(side) => {
                let seat = side.seat().expect("a player side");
                s.act(seat, "pass", &[]).unwrap();
            }
            Phase::Orders => {
                for seat in s.state().pending_seats() {
                    s.act(seat, "commit", &[]).unwrap();
                }
            }
            Phase::SurrenderTerms(side)
            | Phase::SurrenderAnswer(side)
            | Phase::OfferAnswer(side) => {
                let seat = side.seat().expect("a player side");
                let first = engine::Game::legal_actions(s.state(), seat)[0].clone();
                s.act_action(seat, &first, &[]).unwrap();
            }
            Phase::Parley(side) => {
                s.act(side.seat().expect("a player side"), "pass", &[])
                    .unwrap();
            }
            Phase::Over => panic!("the game ended before any arrival"),
        }
    }
    panic!("no arrival reached");
}

/// 16.4.1: Richard's English arrive "in any all-sea hex on western map edge, north of Beirut":
/// the Crusader player chooses one of 0107-0115 in May I 1191, and only the Crusader player.
#[test]
fn richard_enters_where_the_crusader_player_chooses() {
    let mut s = session(5);
    until_arrival(&mut s);
    let state = s.state();
    assert_eq!(state.turn_info().name, "May I 1191");
    assert_eq!(state.pending_seats(), vec![Seat(0)]);
    let legal: Vec<String> = state.legal(Seat(0)).iter().map(|a| a.text(state)).collect();
    assert_eq!(legal.len(), 9, "{legal:?}");
    for h in ["0107", "0110", "0112", "0115"] {
        assert!(legal.contains(&format!("arrive richard {h}")), "{legal:?}");
    }
    let richard = state.scenario.leader("richard").unwrap();
    assert_eq!(state.leaders[richard].status, Status::Waiting);
    let hash = s.state_hash().to_string();
    for bad in [
        "arrive richard 0116",
        "arrive richard 0212",
        "arrive saladin 0110",
        "richard no-order",
        "commit",
    ] {
        assert!(s.act(Seat(0), bad, &[]).is_err(), "{bad} accepted");
    }
    assert!(s.act(Seat(1), "arrive richard 0110", &[]).is_err());
    assert_eq!(s.state_hash(), hash, "refusals change nothing");
    s.act(Seat(0), "arrive richard 0110", &[]).unwrap();
    let state = s.state();
    assert_eq!(state.phase, Phase::Orders);
    let f = state.scenario.fleet("english-1").unwrap();
    assert_eq!(state.fleets[f].hex, Some("0110".parse().unwrap()));
    assert!(matches!(state.leaders[richard].status, Status::Aboard(_)));
}

/// 16.4.2: with Damascus occupied by the Crusaders, Imad ad-Din may appear on any hex of the
/// eastern edge: the Saracen player chooses which.
#[test]
fn blocked_saracen_reinforcements_enter_where_the_saracen_player_chooses() {
    let s = session(1);
    let mut state = s.state().clone();
    let damascus: Place = Place::parse("2118c").unwrap();
    state.garrisons.retain(|g| g.place != damascus);
    for l in 0..state.leaders.len() {
        if state.leaders[l].place == Some(damascus) {
            state.leaders[l].place = Some(Place::outside(damascus.hex));
        }
    }
    let guy = state.scenario.leader("guy").unwrap();
    state.leaders[guy].place = Some(damascus);
    state.turn = state
        .scenario
        .turns
        .iter()
        .position(|t| t.name == "June I 1191")
        .unwrap();
    let mut log = Log::recording();
    state.begin_turn(&mut log);
    assert_eq!(
        state.phase,
        Phase::Arrival(the_crusades::scenario::Side::Saracens)
    );
    assert_eq!(state.pending_seats(), vec![Seat(1)]);
    let legal: Vec<String> = state
        .legal(Seat(1))
        .iter()
        .map(|a| a.text(&state))
        .collect();
    assert_eq!(legal.len(), 20, "{legal:?}");
    assert!(!legal.contains(&"arrive imad-ad-din 2118c".to_string()));
    let imad = state.scenario.leader("imad-ad-din").unwrap();
    let choice = the_crusades::Action::parse(&state, "arrive imad-ad-din 2507").unwrap();
    assert!(state.play(Seat(0), &choice, &mut log).is_err());
    let refused = the_crusades::Action::parse(&state, "arrive imad-ad-din 2118c").unwrap();
    assert!(state.play(Seat(1), &refused, &mut log).is_err());
    state.play(Seat(1), &choice, &mut log).unwrap();
    assert_eq!(
        state.leaders[imad].place,
        Some(Place::parse("2507").unwrap())
    );
    assert_eq!(state.leaders[imad].status, Status::Active);
    assert_eq!(state.phase, Phase::Orders);
}

/// 16.4.2: with Damascus free, Imad ad-Din arrives there without a choice.
#[test]
fn free_saracen_reinforcements_arrive_in_their_city() {
    let s = session(1);
    let mut state = s.state().clone();
    state.turn = state
        .scenario
        .turns
        .iter()
        .position(|t| t.name == "June I 1191")
        .unwrap();
    let mut log = Log::recording();
    state.begin_turn(&mut log);
    assert_eq!(state.phase, Phase::Orders);
    let imad = state.scenario.leader("imad-ad-din").unwrap();
    assert_eq!(
        state.leaders[imad].place,
        Some(Place::parse("2118c").unwrap())
    );
}

/// 8.0 G-H: among several leaders of the highest rank in a force, the owner designates the
/// commander in writing; the designation is secret until both seats commit, a lower-ranked
/// leader cannot be designated, and the designated leader commands.
#[test]
fn the_owner_designates_the_commander_among_equals() {
    use engine::{checks::secrecy_check, Viewer};
    use the_crusades::combat::commander;
    let mut s = session(2);
    let state = s.state().clone();
    // A Crusader leader who may be designated but would not command by Combat Rating alone.
    let (leader, stack) = state
        .legal(Seat(0))
        .iter()
        .find_map(|a| match a {
            the_crusades::Action::Command { leader } => {
                let place = state.leaders[*leader].place?;
                let stack = state.side_leaders_at(state.side_of(*leader), place);
                (commander(&state, &stack) != Some(*leader)).then_some((*leader, stack))
            }
            _ => None,
        })
        .expect("a stack of equal-ranked Crusader leaders at the start");
    let id = state.scenario.leaders[leader].id.clone();
    // Someone of lower rank in a stack cannot be designated.
    let chief = commander(&state, &stack).unwrap();
    if let Some(&low) = stack
        .iter()
        .find(|&&l| state.scenario.leaders[l].rank > state.scenario.leaders[chief].rank)
    {
        let low_id = state.scenario.leaders[low].id.clone();
        assert!(s.act(Seat(0), &format!("{low_id} command"), &[]).is_err());
    }
    s.act(Seat(0), &format!("{id} command"), &[]).unwrap();
    assert!(
        s.act(Seat(0), &format!("{id} command"), &[]).is_err(),
        "designated once"
    );
    assert_eq!(commander(s.state(), &stack), Some(leader));
    let own = serde_json::to_string(&s.view(Viewer::Seat(Seat(0)))).unwrap();
    assert!(own.contains(&format!("{id} command")));
    secrecy_check(
        &s,
        &[Viewer::Seat(Seat(1)), Viewer::Spectator],
        &[&format!("{id} command")],
    )
    .unwrap();
    s.act(Seat(0), &format!("cancel {id}"), &[]).unwrap();
    assert_ne!(commander(s.state(), &stack), Some(leader), "cancelled");
    s.act(Seat(0), &format!("{id} command"), &[]).unwrap();
    s.act(Seat(0), "commit", &[]).unwrap();
    s.act(Seat(1), "commit", &[]).unwrap();
    let theirs = serde_json::to_string(&s.view(Viewer::Seat(Seat(1)))).unwrap();
    assert!(theirs.contains(&format!("{id} command")), "revealed");
}

/// 6.1.2, 8.0 I: ASPs a Saracen leader leaves behind are leaderless; a Saracen leader of their
/// place takes them up with a written (secret) `take` line, and they march with him from the
/// start of the next Movement Phase. No Crusader takes up ASPs (6.1.2 C).
#[test]
fn a_saracen_leader_takes_up_leaderless_asps() {
    use engine::{checks::secrecy_check, Viewer};
    let mut s = session(4);
    let st = s.state();
    let saladin = st.scenario.leader("saladin").unwrap();
    let al_adil = st.scenario.leader("al-adil").unwrap();
    let home = st.leaders[saladin].place.unwrap();
    assert_eq!(st.leaders[al_adil].place, Some(home));
    let before = st.garrison_at(the_crusades::scenario::Side::Saracens, home);
    s.act(Seat(1), "saladin move 1721 leave 10", &[]).unwrap();
    s.act(Seat(1), "commit", &[]).unwrap();
    s.act(Seat(0), "commit", &[]).unwrap();
    for _ in 0..10 {
        match s.state().phase {
            Phase::Orders => break,
            Phase::Assassination(side) => {
                s.act(side.seat().unwrap(), "pass", &[]).unwrap();
            }
            Phase::Arrival(_) => {
                s.act(Seat(0), "arrive richard 0112", &[]).unwrap();
            }
            Phase::SurrenderTerms(side)
            | Phase::SurrenderAnswer(side)
            | Phase::OfferAnswer(side) => {
                let seat = side.seat().unwrap();
                let first = engine::Game::legal_actions(s.state(), seat)[0].clone();
                s.act_action(seat, &first, &[]).unwrap();
            }
            Phase::Parley(side) => {
                s.act(side.seat().unwrap(), "pass", &[]).unwrap();
            }
            Phase::Over => panic!("over"),
        }
    }
    let st = s.state();
    let left = st.garrison_at(the_crusades::scenario::Side::Saracens, home);
    assert_eq!(left, before + 10, "the 10 ASPs stay behind, leaderless");
    let legal: Vec<String> = st.legal(Seat(1)).iter().map(|a| a.text(st)).collect();
    assert!(legal.contains(&format!("al-adil take {left}")), "{legal:?}");
    assert!(s
        .act(Seat(1), &format!("al-adil take {}", left + 1), &[])
        .is_err());
    assert!(s.act(Seat(1), "al-adil take 0", &[]).is_err());
    assert!(s.act(Seat(0), "guy take 1", &[]).is_err());
    let asps = s.state().leaders[al_adil].asps;
    s.act(Seat(1), "al-adil take 10", &[]).unwrap();
    assert!(
        s.act(Seat(1), "al-adil take 1", &[]).is_err(),
        "once a turn"
    );
    assert_eq!(
        s.state().leaders[al_adil].asps,
        asps,
        "nothing moves before movement"
    );
    secrecy_check(
        &s,
        &[Viewer::Seat(Seat(0)), Viewer::Spectator],
        &["al-adil take"],
    )
    .unwrap();
    s.act(Seat(1), "al-adil move 1721", &[]).unwrap();
    s.act(Seat(1), "commit", &[]).unwrap();
    s.act(Seat(0), "commit", &[]).unwrap();
    while let Phase::Assassination(side) = s.state().phase {
        s.act(side.seat().unwrap(), "pass", &[]).unwrap();
    }
    let st = s.state();
    assert_eq!(
        st.garrison_at(the_crusades::scenario::Side::Saracens, home),
        left - 10
    );
    let log = serde_json::to_string(&s.view(Viewer::Spectator)).unwrap();
    assert!(
        log.contains("al-adil takes up 10 leaderless ASPs"),
        "logged"
    );
    // He marched to 1721 with the 10 (less any attrition of the march).
    assert_eq!(
        st.leaders[al_adil].place,
        Some(Place::parse("1721").unwrap())
    );
    assert!(
        st.leaders[al_adil].asps + 3 >= asps + 10,
        "carried them along"
    );
}

/// Secrets in AI searches: a state re-sampled for one seat forgets the other seat's written
/// `command` and `take` lines along with its orders.
#[test]
fn determinize_forgets_the_other_seats_command_and_take() {
    use engine::Game;
    struct Zero;
    impl rand_core::RngCore for Zero {
        fn next_u32(&mut self) -> u32 {
            0
        }
        fn next_u64(&mut self) -> u64 {
            0
        }
        fn fill_bytes(&mut self, dest: &mut [u8]) {
            dest.fill(0);
        }
        fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
            dest.fill(0);
            Ok(())
        }
    }
    let mut s = session(2);
    let command = s
        .state()
        .legal(Seat(0))
        .into_iter()
        .find(|a| matches!(a, the_crusades::Action::Command { .. }))
        .expect("a designation at the start");
    s.act_action(Seat(0), &command, &[]).unwrap();
    assert_eq!(s.state().orders[0].command.len(), 1);
    let own = s.state().determinize(Seat(0), &mut Zero);
    assert_eq!(own.orders[0].command.len(), 1, "a seat keeps its own book");
    let other = s.state().determinize(Seat(1), &mut Zero);
    assert!(other.orders[0].command.is_empty());
    assert!(other.orders[0].take.is_empty());
}

/// The game of seed 6 with Saladin outside Tyre, which the Crusaders hold and so is besieged
/// (10.3.8), and the first Crusader fleet in its port: the state, Tyre, its hex, the fleet.
fn tyre_besieged_with_a_fleet() -> (the_crusades::State, usize, hexgrid::HexId, usize) {
    use the_crusades::scenario::Side;
    let mut state = session(6).state().clone();
    let tyre = state.scenario.map.site_named("Tyre").unwrap();
    let hex = state.scenario.map.sites[tyre].hex;
    assert_eq!(state.sites[tyre].control, Some(Side::Crusaders));
    let saladin = state.scenario.leader("saladin").unwrap();
    state.leaders[saladin].place = Some(Place::outside(hex));
    assert!(state.under_siege(tyre), "Tyre is held and besieged");
    let f = (0..state.fleets.len())
        .find(|&f| state.scenario.fleets[f].side == Side::Crusaders)
        .unwrap();
    state.fleets[f].status = the_crusades::state::FleetStatus::Active;
    state.fleets[f].hex = Some(hex);
    (state, tyre, hex, f)
}

/// 10.4.7 A: a friendly fleet regarrisons a besieged port: troops it lands in a port their
/// side holds go inside the city (up to its capacity, 6.3.2), even with the besiegers outside;
/// those that do not fit land outside.
#[test]
fn a_fleet_regarrisons_a_besieged_port() {
    use the_crusades::naval::{debark, NavalTurn};
    use the_crusades::scenario::Side;
    let (mut state, tyre, hex, f) = tyre_besieged_with_a_fleet();
    let map = state.scenario.map.clone();
    let cap = state
        .scenario
        .tables
        .capacity(map.sites[tyre].castle, map.sites[tyre].level);
    let room = cap - state.asps_at(Side::Crusaders, Place::inside(hex));
    assert!(room >= 1, "Tyre has room");
    let (richard, andrew) = (
        state.scenario.leader("richard").unwrap(),
        state.scenario.leader("andrew").unwrap(),
    );
    state.leaders[richard].asps = 1;
    state.leaders[andrew].asps = room;
    for l in [richard, andrew] {
        state.leaders[l].status = Status::Aboard(f);
        state.leaders[l].place = None;
    }
    debark(&mut state, &mut Log::recording(), &mut NavalTurn::default());
    assert_eq!(state.leaders[richard].place, Some(Place::inside(hex)));
    assert_eq!(
        state.leaders[andrew].place,
        Some(Place::outside(hex)),
        "over the city's capacity"
    );
}

/// 10.4.7 A: a friendly fleet in a besieged port may evacuate the leaders inside: a transport
/// order from the port may carry them.
#[test]
fn a_fleet_may_evacuate_a_besieged_port() {
    use the_crusades::orders::FleetOrder;
    let (mut state, _, hex, f) = tyre_besieged_with_a_fleet();
    let balian = state.scenario.leader("balian").unwrap();
    state.leaders[balian].place = Some(Place::inside(hex));
    state.leaders[balian].asps = 1;
    let carries_balian = state.legal(Seat(0)).iter().any(|a| {
        matches!(a, the_crusades::Action::Fleet { fleet, order: FleetOrder::Transport { cargo, .. } }
            if *fleet == f && cargo.contains(&balian))
    });
    assert!(
        carries_balian,
        "a transport out of besieged Tyre may carry Balian"
    );
}
