//! Secrets stay secret over whole random games: no plan, Intervention counter, Engineer
//! Point allocation, unrolled allocation or tunnel hex of one side reaches the other side (or
//! a spectator) in any view, board, log line or event before the rules reveal it.

use engine::{secrecy_check, DiceMode, Game, Pending, Seat, Session, Setup, Viewer, Visibility};
use rand_core::{RngCore, SeedableRng};

const CRUSADER: Seat = Seat(0);
const MOSLEM: Seat = Seat(1);

/// The texts of the private events `seat` has been shown so far and that no public event
/// has revealed since.
fn private_texts(session: &Session<acre::State>, seat: Seat) -> Vec<String> {
    let public: Vec<&str> = session
        .visible_log(Viewer::Spectator)
        .into_iter()
        .map(|e| e.text.as_str())
        .collect();
    session
        .visible_log(Viewer::Seat(seat))
        .into_iter()
        .filter(|e| matches!(&e.visibility, Visibility::Seats(s) if s == &vec![seat]))
        .filter(|e| !public.contains(&e.text.as_str()))
        // A text is searched for in JSON, where its quotes are escaped: up to its first quote.
        .map(|e| e.text.split('"').next().unwrap_or_default().to_string())
        .collect()
}

/// Everything the Crusader and spectators must not see now.
fn moslem_secrets(session: &Session<acre::State>) -> Vec<String> {
    let s = session.state();
    let mut out = private_texts(session, MOSLEM);
    if s.allocation.moslem.is_some() && !s.allocation.turn_over {
        out.push("\"discovery\":".into());
    }
    out.push("\"repairs\":[\"".into());
    out.push("\"counter\":[[".into());
    out
}

/// Everything the Moslem and spectators must not see now.
fn crusader_secrets(session: &Session<acre::State>) -> Vec<String> {
    let s = session.state();
    let plan_public = s.allocation.resolved || s.allocation.turn_over;
    let mut out = private_texts(session, CRUSADER);
    if s.allocation.crusader.is_some() && !plan_public {
        out.push("\"crusader\":{\"revealed\"".into());
    }
    out.push("\"digs\":[[".into());
    out.push("\"bombard\":[[".into());
    let seen = s.tunnels.seen_by(acre::rules::Side::Moslem);
    for shaft in &s.tunnels.shafts {
        for h in shaft {
            if !seen.operative.contains(h) {
                out.push(format!("\"tunnel-{}\"", s.rules.map.id(*h)));
            }
        }
    }
    for h in &s.tunnels.inoperative {
        if !seen.inoperative.contains(h) {
            out.push(format!("\"closed-{}\"", s.rules.map.id(*h)));
        }
    }
    out
}

fn check(session: &Session<acre::State>) {
    let m = moslem_secrets(session);
    let m: Vec<&str> = m.iter().map(String::as_str).collect();
    secrecy_check(session, &[Viewer::Seat(CRUSADER), Viewer::Spectator], &m)
        .unwrap_or_else(|e| panic!("{e}"));
    let c = crusader_secrets(session);
    let c: Vec<&str> = c.iter().map(String::as_str).collect();
    secrecy_check(session, &[Viewer::Seat(MOSLEM), Viewer::Spectator], &c)
        .unwrap_or_else(|e| panic!("{e}"));
}

fn play(seed: u64, scenario: &str) -> (usize, bool) {
    let data = acre::builtin_data();
    let setup = Setup::seeded(scenario, seed);
    let mut session = Session::<acre::State>::new(setup, &data, "acre").unwrap();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed ^ 0xACE);
    let mut taken = 0;
    let mut saw_tunnel = false;
    let mut last = None;
    loop {
        let seats = match session.state().pending() {
            Pending::Over => break,
            Pending::Seats(s) => s,
        };
        let seat = seats[(rng.next_u64() % seats.len() as u64) as usize];
        let legal = session.state().legal_actions(seat);
        let action = legal[(rng.next_u64() % legal.len() as u64) as usize].clone();
        session.act_action(seat, &action, &[]).unwrap();
        taken += 1;
        saw_tunnel |= session.state().tunnels.shafts.iter().any(|s| !s.is_empty());
        // At every change of step (and so after every allocation resolved and revealed),
        // and one action in sixteen besides.
        let at = session.state().turn;
        if Some(at) != last || taken % 16 == 0 {
            check(&session);
        }
        last = Some(at);
    }
    check(&session);
    (taken, saw_tunnel)
}

#[test]
fn no_secret_reaches_the_other_side_in_whole_games() {
    let mut tunnels = false;
    for seed in 0..3 {
        let (taken, t) = play(seed, "siege");
        assert!(taken > 300, "seed {seed}: a whole game");
        tunnels |= t;
    }
    let (_, t) = play(7, "siege-conrad");
    assert!(
        tunnels || t,
        "some game dug a tunnel, so tunnel secrecy was tested"
    );
}

#[test]
fn a_committed_plan_is_hidden_until_revealed() {
    let data = acre::builtin_data();
    let setup = Setup {
        scenario: "siege".into(),
        options: Vec::new(),
        seed: 1,
        dice: DiceMode::Seeded,
        position: None,
    };
    let mut s = Session::<acre::State>::new(setup, &data, "acre").unwrap();
    s.act(CRUSADER, "deploy-historical", &[]).unwrap();
    s.act(MOSLEM, "deploy-historical", &[]).unwrap();
    s.act(MOSLEM, "plan repair 4 discover 2 army-of-mosul", &[])
        .unwrap();
    let secret = [
        "\"intervention\":\"army_of_mosul\"",
        "chooses",
        "\"discovery\":2",
    ];
    secrecy_check(&s, &[Viewer::Seat(CRUSADER), Viewer::Spectator], &secret)
        .unwrap_or_else(|e| panic!("{e}"));
    // The Moslem sees his own plan.
    assert!(secrecy_check(&s, &[Viewer::Seat(MOSLEM)], &secret).is_err());
    s.act(CRUSADER, "plan assault", &[]).unwrap();
    // 7.0: the Crusader assaults, so nothing of the counter is revealed yet.
    secrecy_check(&s, &[Viewer::Seat(CRUSADER), Viewer::Spectator], &secret)
        .unwrap_or_else(|e| panic!("{e}"));
    // The Moslem learns the Crusader's choice (the Assault Phase is played).
    assert!(secrecy_check(&s, &[Viewer::Seat(MOSLEM)], &["will assault"]).is_err());
}
