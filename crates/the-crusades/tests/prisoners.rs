//! Surrender requests (10.4.2) and prisoners (9.7.6) as decisions of the seats involved, and
//! the written loss order (6.4.5 B, 9.5 D) kept secret with the orders.

mod common;

use common::session;
use engine::{checks::secrecy_check, Seat, Session, Viewer};
use the_crusades::map::Place;
use the_crusades::scenario::Side;
use the_crusades::state::{Phase, Status};

/// The besiegers of Acre in April II 1191 (16.2.1), all under Guy's full siege.
fn besiege_acre(s: &mut Session<the_crusades::State>) {
    let st = s.state().clone();
    let here = Place::outside("1619".parse().unwrap());
    let guy = st.scenario.leader("guy").unwrap();
    s.act(Seat(0), "guy full-siege", &[]).unwrap();
    for l in st.side_leaders_at(Side::Crusaders, here) {
        if l != guy {
            let id = st.scenario.leaders[l].id.clone();
            s.act(Seat(0), &format!("{id} with guy"), &[]).unwrap();
        }
    }
}

/// Acre besieged as in [`besiege_acre`] (game of seed 7) and both seats' orders handed in:
/// the Siege Phase waits for the Crusaders' terms (10.4.2).
fn acre_asked_to_surrender() -> Session<the_crusades::State> {
    let mut s = session(7);
    besiege_acre(&mut s);
    s.act(Seat(0), "commit", &[]).unwrap();
    s.act(Seat(1), "commit", &[]).unwrap();
    s
}

/// Acre surrendered into captivity ([`acre_asked_to_surrender`]), then the game played on
/// (passing assassinations, Richard arriving at 0112, passing parleys before `stop`) until
/// it waits in `stop`.
fn acre_surrendered_until(stop: Phase) -> Session<the_crusades::State> {
    let mut s = acre_asked_to_surrender();
    s.act(Seat(0), "terms 1619 captivity", &[]).unwrap();
    s.act(Seat(1), "surrender", &[]).unwrap();
    for _ in 0..10 {
        match s.state().phase {
            p if p == stop => break,
            Phase::Parley(side) | Phase::Assassination(side) => {
                s.act(side.seat().unwrap(), "pass", &[]).unwrap();
            }
            Phase::Arrival(_) => {
                s.act(Seat(0), "arrive richard 0112", &[]).unwrap();
            }
            p => panic!("unexpected {p:?}"),
        }
    }
    assert_eq!(s.state().phase, stop);
    s
}

/// Kara-Kush, Acre's commander.
fn kk_of(s: &Session<the_crusades::State>) -> usize {
    s.state().scenario.leader("kara-kush").unwrap()
}

fn log_text(s: &Session<the_crusades::State>, viewer: Viewer) -> String {
    serde_json::to_string(&s.view(viewer)).unwrap()
}

/// 10.4.2: before the assault the besieger states terms and the defender answers; only the
/// seat whose decision it is may act, and bad terms are refused with a reason.
#[test]
fn the_besieger_asks_and_only_the_defender_answers() {
    let mut s = acre_asked_to_surrender();
    assert_eq!(s.state().phase, Phase::SurrenderTerms(Side::Crusaders));
    let hash = s.state_hash().to_string();
    for bad in [
        "terms 1619 mercy",     // no such terms
        "terms 9999 captivity", // no such hex
        "terms 1618 captivity", // not the city asked
        "terms 1620 captivity", // no city there
        "surrender",            // not the defender's turn yet
        "offer exchange guy for kara-kush",
    ] {
        let e = s.act(Seat(0), bad, &[]);
        assert!(e.is_err(), "`{bad}` is refused");
        assert!(!e.unwrap_err().to_string().is_empty());
    }
    assert!(
        s.act(Seat(1), "refuse", &[]).is_err(),
        "not the Saracens' decision yet"
    );
    assert_eq!(s.state_hash(), hash, "refused input changes nothing");
    s.act(Seat(0), "terms 1619 captivity", &[]).unwrap();
    assert_eq!(s.state().phase, Phase::SurrenderAnswer(Side::Saracens));
    assert!(s.act(Seat(0), "surrender", &[]).is_err());
    // The request is public: both seats and spectators see it.
    for v in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(1)),
        Viewer::Spectator,
    ] {
        assert!(
            log_text(&s, v).contains("captivity"),
            "the terms are shown to {v:?}"
        );
    }
}

/// 10.4.2, 9.7.6: Acre surrenders on terms of captivity: no assault, no siege attrition, the
/// garrison is disbanded, Kara-Kush is held prisoner in Acre, now the Crusaders'.
#[test]
fn a_city_surrendering_into_captivity() {
    let mut s = acre_asked_to_surrender();
    s.act(Seat(0), "terms 1619 captivity", &[]).unwrap();
    s.act(Seat(1), "surrender", &[]).unwrap();
    let g = s.state();
    let acre = g.scenario.map.site_named("Acre").unwrap();
    let kk = g.scenario.leader("kara-kush").unwrap();
    assert_eq!(g.sites[acre].control, Some(Side::Crusaders));
    assert_eq!(g.leaders[kk].status, Status::Captured(Side::Crusaders));
    assert_eq!(g.leaders[kk].held, Some(acre));
    assert_eq!(
        g.asps_at(Side::Saracens, Place::inside("1619".parse().unwrap())),
        0
    );
    let log = log_text(&s, Viewer::Spectator);
    assert!(
        log.contains("Acre surrenders to the crusaders (captivity)"),
        "{log}"
    );
    assert!(
        !log.contains("assault on Acre"),
        "no assault after a surrender"
    );
    assert!(
        !log.contains("siege attrition at Acre"),
        "no siege attrition"
    );
}

/// 10.4.2: on terms of marching out, the garrison and Kara-Kush go with their ASPs to the
/// nearest city the Saracens hold; the Crusaders take Acre.
#[test]
fn a_garrison_marching_out() {
    let fresh = session(7);
    let before = fresh.state().leaders[kk_of(&fresh)].asps;
    let mut s = acre_asked_to_surrender();
    let acre = s.state().scenario.map.site_named("Acre").unwrap();
    let kk = kk_of(&s);
    let to = the_crusades::siege::march_out_place(s.state(), acre, Side::Saracens)
        .expect("somewhere to go");
    s.act(Seat(0), "terms 1619 march-out", &[]).unwrap();
    s.act(Seat(1), "surrender", &[]).unwrap();
    let g = s.state();
    assert_eq!(g.sites[acre].control, Some(Side::Crusaders));
    assert_eq!(g.leaders[kk].status, Status::Active);
    assert_eq!(g.leaders[kk].place, Some(to));
    assert_eq!(g.leaders[kk].asps, before, "they keep their ASPs");
    assert!(to.inside && to.hex != "1619".parse().unwrap());
}

/// 9.7.6: the next Order Segment opens with a parley: the captor may kill or pass; the
/// Saracens may ransom Kara-Kush with a city; the Crusaders accept; he returns, and the city
/// changes hands. Offers are open dealings and public; bad offers are refused.
#[test]
fn ransoming_a_prisoner_with_a_city() {
    // Random events and reinforcements come first; then the parley.
    let mut s = acre_surrendered_until(Phase::Parley(Side::Crusaders));
    let kk = kk_of(&s);
    assert!(
        s.act(Seat(1), "pass", &[]).is_err(),
        "the Crusaders parley first"
    );
    assert!(
        s.act(Seat(0), "kill guy", &[]).is_err(),
        "only a prisoner is killed"
    );
    s.act(Seat(0), "pass", &[]).unwrap();
    assert_eq!(s.state().phase, Phase::Parley(Side::Saracens));
    let sites = the_crusades::captives::ransom_sites(s.state(), Side::Saracens);
    let site = *sites.first().expect("an empty Saracen city to give");
    let hex = s.state().scenario.map.sites[site].hex;
    assert!(s
        .act(Seat(1), "offer ransom kara-kush for 1619", &[])
        .is_err());
    assert!(s.act(Seat(1), "offer ransom kara-kush", &[]).is_err());
    s.act(Seat(1), &format!("offer ransom kara-kush for {hex}"), &[])
        .unwrap();
    assert_eq!(s.state().phase, Phase::OfferAnswer(Side::Crusaders));
    assert!(log_text(&s, Viewer::Spectator).contains("offer ransom kara-kush"));
    s.act(Seat(0), "accept", &[]).unwrap();
    let g = s.state();
    assert_eq!(g.leaders[kk].status, Status::Active);
    assert_eq!(g.sites[site].control, Some(Side::Crusaders));
    assert_eq!(g.phase, Phase::Orders);
}

/// 6.4.5 B, 9.5 D: a loss order is written with the orders and as secret as they are until
/// both seats commit; it can be cancelled; a leader is named once.
#[test]
fn the_loss_order_is_secret_until_both_commit() {
    let mut s = session(3);
    s.act(Seat(0), "losses philip-france", &[]).unwrap();
    assert!(s.act(Seat(0), "losses philip-france", &[]).is_err());
    let e = s.act(Seat(0), "losses", &[]).unwrap_err().to_string();
    assert!(e.contains("losses LEADER"), "{e}");
    let e = s
        .act(Seat(0), "losses guy amalric", &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("one leader at a time"), "{e}");
    assert!(
        s.act(Seat(0), "losses saladin", &[]).is_err(),
        "not his leader"
    );
    assert!(s.act(Seat(0), "losses lancelot", &[]).is_err());
    s.act(Seat(1), "losses saladin", &[]).unwrap();
    assert!(log_text(&s, Viewer::Seat(Seat(0))).contains("losses philip-france"));
    secrecy_check(
        &s,
        &[Viewer::Seat(Seat(1)), Viewer::Spectator],
        &["losses philip-france"],
    )
    .unwrap();
    secrecy_check(
        &s,
        &[Viewer::Seat(Seat(0)), Viewer::Spectator],
        &["losses saladin"],
    )
    .unwrap();
    s.act(Seat(0), "cancel philip-france", &[]).unwrap();
    assert!(s.state().orders[0].losses.is_empty());
    s.act(Seat(0), "losses hugh-burgundy", &[]).unwrap();
    s.act(Seat(0), "commit", &[]).unwrap();
    secrecy_check(
        &s,
        &[Viewer::Seat(Seat(1)), Viewer::Spectator],
        &["losses hugh-burgundy"],
    )
    .unwrap();
    s.act(Seat(1), "commit", &[]).unwrap();
    assert!(log_text(&s, Viewer::Seat(Seat(1))).contains("losses hugh-burgundy"));
}

/// Acre surrenders into captivity (10.4.2) and the next turn's parley passes: Kara-Kush is
/// the Crusaders' prisoner in Acre when the orders are written.
fn kara_kush_held_in_acre() -> Session<the_crusades::State> {
    acre_surrendered_until(Phase::Orders)
}

/// 9.7.6 C: a captured leader may be moved under guard (at least 1 SP plus one leader). A
/// Crusader force marching from Acre to Tyre takes Kara-Kush along in writing; the escort is
/// as secret as any order until both seats commit; he is then held in Tyre.
#[test]
fn a_prisoner_moved_under_guard() {
    let mut s = kara_kush_held_in_acre();
    let st = s.state().clone();
    let acre = st.scenario.map.site_named("Acre").unwrap();
    let tyre = st.scenario.map.site_named("Tyre").unwrap();
    let kk = st.scenario.leader("kara-kush").unwrap();
    assert_eq!(st.leaders[kk].held, Some(acre));
    let in_acre = Place::inside(st.scenario.map.sites[acre].hex);
    let to_tyre = Place::inside(st.scenario.map.sites[tyre].hex);
    let guard = st
        .side_leaders_at(Side::Crusaders, in_acre)
        .into_iter()
        .find(|&l| st.leaders[l].asps > 0)
        .expect("a Crusader force in Acre");
    let gid = st.scenario.leaders[guard].id.clone();
    let march = st
        .legal(Seat(0))
        .into_iter()
        .find(|a| {
            matches!(a, the_crusades::action::Action::Order { leader, order: the_crusades::orders::Order::Move { path, .. } }
                if *leader == guard && path.last() == Some(&to_tyre))
        })
        .expect("Tyre is within reach of Acre");
    s.act(Seat(0), &march.text(&st), &[]).unwrap();
    s.act(Seat(0), &format!("{gid} escort kara-kush"), &[])
        .unwrap();
    assert!(
        s.act(Seat(0), &format!("{gid} escort kara-kush"), &[])
            .is_err(),
        "one guard per prisoner"
    );
    assert!(log_text(&s, Viewer::Seat(Seat(0))).contains("escort kara-kush"));
    secrecy_check(
        &s,
        &[Viewer::Seat(Seat(1)), Viewer::Spectator],
        &["escort kara-kush", "escort"],
    )
    .unwrap();
    s.act(Seat(0), "commit", &[]).unwrap();
    secrecy_check(
        &s,
        &[Viewer::Seat(Seat(1)), Viewer::Spectator],
        &["escort kara-kush"],
    )
    .unwrap();
    s.act(Seat(1), "commit", &[]).unwrap();
    for _ in 0..10 {
        match s.state().phase {
            Phase::Assassination(side) => {
                s.act(side.seat().unwrap(), "pass", &[]).unwrap();
            }
            _ => break,
        }
    }
    assert!(log_text(&s, Viewer::Seat(Seat(1))).contains(&format!("{gid} escort kara-kush")));
    let g = s.state();
    assert_eq!(g.leaders[guard].place, Some(to_tyre), "the guard marched");
    assert_eq!(g.leaders[kk].status, Status::Captured(Side::Crusaders));
    assert_eq!(g.leaders[kk].held, Some(tyre), "held where his guard ended");
}

/// 9.7.6 C: escorts that break the rule or the notation are refused with a reason and change
/// nothing.
#[test]
fn bad_escorts_are_refused() {
    let mut s = kara_kush_held_in_acre();
    let hash = s.state_hash().to_string();
    for (bad, why) in [
        ("guy escort", "LEADER escort PRISONER"),
        ("guy escort kara-kush saladin", "LEADER escort PRISONER"),
        ("guy escort lancelot", "not a leader"),
        ("conrad escort kara-kush", "held in Acre"),
        ("guy escort saladin", "not a prisoner"),
        ("saladin escort kara-kush", "cannot guard"),
        ("pisan escort kara-kush", "fleet cannot guard"),
    ] {
        let e = s.act(Seat(0), bad, &[]).unwrap_err().to_string();
        assert!(e.contains(why), "`{bad}`: {e}");
    }
    assert_eq!(s.state_hash(), hash);
}
