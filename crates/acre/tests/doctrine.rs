//! The `heuristic` player's doctrine (`acre::doctrine`): it only ever chooses legal actions,
//! it reads nothing of the other side's secrets, and it beats the `random` player from both
//! seats in paired games (each seed played twice, the doctrine on each side, the same dice
//! seed).

use acre::doctrine::Strategy;
use acre::rules::Side;
use acre::sequence::Step;
use acre::State;
use ai::{Doctrine, Player, Policy, RandomPlayer};
use engine::{DiceMode, Game, Log, Pending, Seat, Setup, Startable};

const CRUSADER: Seat = Seat(0);
const MOSLEM: Seat = Seat(1);

fn start(seed: u64) -> State {
    let setup = Setup {
        scenario: "siege".into(),
        options: vec![],
        seed,
        dice: DiceMode::Seeded,
        position: None,
    };
    State::start(&setup, &acre::builtin_data()).expect("the siege starts")
}

fn heuristic(seed: u64) -> Box<dyn Player<State>> {
    acre::Doctrine::heuristic(seed).expect("Acre has a doctrine")
}

/// Plays until `stop` says so or the game ends, checking that every choice is legal; the
/// first pending seat decides first.
fn play_until(
    g: &mut State,
    players: &mut [Box<dyn Player<State>>; 2],
    stop: impl Fn(&State) -> bool,
) {
    let mut n = 0;
    while let Pending::Seats(seats) = g.pending() {
        if stop(g) {
            return;
        }
        let seat = seats[0];
        let a = players[seat.index()].choose(g, seat);
        assert!(
            g.legal_actions(seat).contains(&a),
            "illegal choice `{}` at {}",
            g.action_text(&a),
            g.step_name()
        );
        g.apply(seat, &a, &mut Log::discarding())
            .expect("a legal action applies");
        n += 1;
        assert!(n < 400_000, "the game does not end");
    }
}

/// The winner of a finished game: 0 the Crusader, 1 the Moslem, `None` a draw.
fn winner(g: &State) -> Option<usize> {
    g.outcome()
        .expect("the game is over")
        .winner
        .map(|w| w.index())
}

/// Both seats played by the doctrine, every choice legal, to the end of the game.
#[test]
fn the_doctrine_plays_only_legal_actions_to_the_end() {
    let mut g = start(5);
    let mut players: [Box<dyn Player<State>>; 2] = [heuristic(5), heuristic(6)];
    play_until(&mut g, &mut players, |_| false);
    assert!(g.outcome().is_some(), "the game ended");
}

/// A game played by the doctrine on both sides up to the first Allocation Segment.
fn at_first_allocation(seed: u64) -> State {
    let mut g = start(seed);
    let mut players: [Box<dyn Player<State>>; 2] = [heuristic(seed), heuristic(seed + 1)];
    play_until(&mut g, &mut players, |s| {
        s.turn.step == Step::Allocation && s.stage == acre::state::Stage::Play
    });
    g
}

/// 4.0 1.A, 7.0: what the Crusader chooses, and how it scores every choice, does not depend
/// on the Moslem's secret plan; nor the Moslem's on the Crusader's.
#[test]
fn the_doctrine_does_not_read_the_other_sides_plan() {
    let g = at_first_allocation(7);
    for (chooser, other) in [(CRUSADER, MOSLEM), (MOSLEM, CRUSADER)] {
        let plans: Vec<acre::Action> = g
            .legal_actions(other)
            .into_iter()
            .filter(|a| matches!(a, acre::Action::Plan(_)))
            .collect();
        assert!(plans.len() >= 2, "the other side has plans to choose from");
        let mut worlds = Vec::new();
        for plan in [plans.first().unwrap(), plans.last().unwrap()] {
            let mut w = g.clone();
            w.apply(other, plan, &mut Log::discarding()).unwrap();
            worlds.push(w);
        }
        assert_ne!(
            worlds[0].allocation, worlds[1].allocation,
            "the two worlds differ in the other side's plan"
        );
        let legal = worlds[0].legal_actions(chooser);
        assert_eq!(legal, worlds[1].legal_actions(chooser));
        assert_eq!(
            Strategy.scores(&worlds[0], chooser, &legal),
            Strategy.scores(&worlds[1], chooser, &legal),
            "the scores read the other side's plan"
        );
        let (mut a, mut b) = (heuristic(11), heuristic(11));
        for _ in 0..5 {
            assert_eq!(a.choose(&worlds[0], chooser), b.choose(&worlds[1], chooser));
        }
    }
}

/// 4.0 1.A, 8.14: the Crusader bombards while the walls stand and assaults once one is
/// breached.
#[test]
fn the_crusader_bombards_until_a_wall_is_breached() {
    let g = at_first_allocation(9);
    let mut p = heuristic(1);
    let text = |s: &State, p: &mut Box<dyn Player<State>>| {
        let a = p.choose(s, CRUSADER);
        s.action_text(&a)
    };
    assert_eq!(text(&g, &mut p), "plan bombard");
    let mut breached = g.clone();
    let wall = breached.derived.walls[0];
    breached
        .pos
        .damage
        .insert(wall, breached.rules.tables.breach_level);
    assert_eq!(text(&breached, &mut p), "plan assault");
}

/// 13.23: the Moslem's searches do not depend on where the Crusader's tunnels really run.
#[test]
fn the_moslem_does_not_read_the_crusaders_tunnels() {
    let seed = 3;
    let mut g = start(seed);
    let mut players: [Box<dyn Player<State>>; 2] = [heuristic(seed), heuristic(seed + 1)];
    play_until(&mut g, &mut players, |s| {
        s.turn.step == Step::Discovery
            && !s.work.caving
            && s.tunnels.shafts.iter().any(|sh| !sh.is_empty())
    });
    assert_eq!(g.turn.step, Step::Discovery, "the Crusader dug a tunnel");
    let mut other = g.clone();
    for shaft in other.tunnels.shafts.iter_mut() {
        shaft.retain(|h| g.tunnels.known.contains(h));
    }
    assert_ne!(other.tunnels, g.tunnels, "the tunnels differ");
    let legal = g.legal_actions(MOSLEM);
    assert_eq!(legal, other.legal_actions(MOSLEM));
    assert_eq!(
        Strategy.scores(&g, MOSLEM, &legal),
        Strategy.scores(&other, MOSLEM, &legal),
        "the scores read the hidden tunnels"
    );
    let (mut a, mut b) = (heuristic(12), heuristic(12));
    for _ in 0..5 {
        assert_eq!(a.choose(&g, MOSLEM), b.choose(&other, MOSLEM));
    }
}

/// One game of the doctrine on `side` against `random`, from `seed`.
fn against_random(seed: u64, side: Side) -> State {
    let mut players: [Box<dyn Player<State>>; 2] = match side {
        Side::Crusader => [heuristic(seed), Box::new(RandomPlayer::new(seed))],
        Side::Moslem => [Box::new(RandomPlayer::new(seed)), heuristic(seed)],
    };
    let mut g = start(seed);
    play_until(&mut g, &mut players, |_| false);
    g
}

/// Paired games against `random`: each seed played twice, the doctrine on each side, with
/// the same dice seed. For each seat, the doctrine must win clearly more of its games than
/// `random` wins in that seat against the doctrine.
#[test]
fn the_doctrine_beats_random_from_both_seats() {
    let seeds = 1u64..=6;
    let games = seeds.clone().count();
    // wins[seat]: games the doctrine won in that seat; random_wins[seat]: games `random` won
    // in that seat against the doctrine.
    let mut wins = [0usize; 2];
    let mut random_wins = [0usize; 2];
    for seed in seeds {
        let c = against_random(seed, Side::Crusader);
        let m = against_random(seed, Side::Moslem);
        match winner(&c) {
            Some(0) => wins[0] += 1,
            Some(1) => random_wins[1] += 1,
            _ => {}
        }
        match winner(&m) {
            Some(1) => wins[1] += 1,
            Some(0) => random_wins[0] += 1,
            _ => {}
        }
        eprintln!(
            "seed {seed}: doctrine as Crusader: {:?} on Game-Turn {}; as Moslem: {:?} on Game-Turn {}",
            c.outcome().map(|o| o.reason),
            c.turn.turn,
            m.outcome().map(|o| o.reason),
            m.turn.turn,
        );
    }
    eprintln!("doctrine wins {wins:?}, random wins {random_wins:?} (crusader, moslem) of {games}");
    for seat in 0..2 {
        assert!(
            wins[seat] * 4 >= games * 3,
            "seat {seat}: the doctrine won only {} of {games}",
            wins[seat]
        );
        assert!(
            wins[seat] >= random_wins[seat] + games / 2,
            "seat {seat}: the doctrine won {} of {games}, random {} of {games}",
            wins[seat],
            random_wins[seat]
        );
    }
}
