//! The players on `prizes`, a small game of secret bids in which skill matters: random
//! players play legal actions; a search beats a random player clearly, also when it must cut
//! rollouts short and rely on the game's evaluation; searches repeat for a seed.

use std::time::Duration;

use ai::{Budget, Mcts, NoDoctrine, Player, PlayerSpec, Policy as _, RandomPlayer};
use engine::toy::prizes::{data, setup, Bid, Prizes, EAST, WEST};
use engine::{random_games, Game, Log, Pending, Seat, Session};

/// Plays one game from `game` with a player per seat; returns the winner.
fn play(mut game: Prizes, players: &mut [Box<dyn Player<Prizes>>]) -> Option<Seat> {
    while let Pending::Seats(seats) = game.pending() {
        let seat = seats[0];
        let action = players[seat.index()].choose(&game, seat);
        assert!(game.legal_actions(seat).contains(&action), "{action:?}");
        game.apply(seat, &action, &mut Log::discarding()).unwrap();
    }
    game.outcome()
        .expect("a finished game has an outcome")
        .winner
}

/// The share of points (a win 1, a draw 1/2) that `make_a` scores against `make_b` over
/// `pairs` seeds, each played twice with the seats swapped, on the games `new` makes.
fn score(
    pairs: u64,
    new: impl Fn(u64) -> Prizes,
    make_a: impl Fn(u64) -> Box<dyn Player<Prizes>>,
    make_b: impl Fn(u64) -> Box<dyn Player<Prizes>>,
) -> f64 {
    let mut points = 0.0;
    for seed in 0..pairs {
        for a_seat in [EAST, WEST] {
            let game = new(seed);
            let mut players = if a_seat == EAST {
                vec![make_a(seed), make_b(seed + 1_000)]
            } else {
                vec![make_b(seed + 1_000), make_a(seed)]
            };
            points += match play(game, &mut players) {
                Some(w) if w == a_seat => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
    }
    points / (2 * pairs) as f64
}

fn mcts(iterations: u32) -> impl Fn(u64) -> Box<dyn Player<Prizes>> {
    move |seed| Box::new(Mcts::new(Budget::Iterations(iterations), seed))
}

fn random() -> impl Fn(u64) -> Box<dyn Player<Prizes>> {
    |seed| Box::new(RandomPlayer::new(seed))
}

#[test]
fn the_test_game_passes_the_engines_shared_checks() {
    let report = random_games::<Prizes>(&setup(0), &data(), 50, 100);
    assert_eq!(report.finished, 50);
    assert!(report.determinized > 0, "{report:?}");
}

#[test]
fn random_players_take_legal_actions_to_the_end() {
    for seed in 0..30 {
        let mut session = Session::<Prizes>::new(setup(seed), &data(), "prizes").unwrap();
        let mut players = [RandomPlayer::new(seed), RandomPlayer::new(seed + 1)];
        let mut seen = Vec::new();
        while let Pending::Seats(seats) = session.state().pending() {
            let seat = seats[0];
            let action: Bid = players[seat.index()].choose(session.state(), seat);
            assert!(session.state().legal_actions(seat).contains(&action));
            session.act_action(seat, &action, &[]).unwrap();
            seen.push(action);
        }
        assert_eq!(seen.len(), 10, "five rounds of two bids");
        assert!(session.state().outcome().is_some());
    }
    // Uniform: over many choices from a full hand, every card is chosen.
    let game = Prizes::new(1);
    let mut player = RandomPlayer::new(9);
    let mut counts = [0u32; 5];
    for _ in 0..1_000 {
        let Bid(card) = player.choose(&game, EAST);
        counts[usize::from(card) - 1] += 1;
    }
    assert!(
        counts.iter().all(|&c| (140..=260).contains(&c)),
        "{counts:?}"
    );
}

#[test]
fn a_search_beats_a_random_player_clearly() {
    let share = score(100, Prizes::new, mcts(200), random());
    assert!(share >= 0.75, "MCTS scored {share:.3} against random");
    // Two random players are even, so the margin above is skill.
    let even = score(100, Prizes::new, random(), random());
    assert!(
        (0.38..=0.62).contains(&even),
        "random against random: {even:.3}"
    );
}

#[test]
fn rollouts_cut_short_rely_on_the_games_evaluation() {
    let capped = |seed| -> Box<dyn Player<Prizes>> {
        let mut m = Mcts::new(Budget::Iterations(200), seed);
        m.playout_depth = Some(0);
        Box::new(m)
    };
    // Nine cards: too deep for 200 iterations to reach the end in the tree.
    let informed = score(100, |seed| Prizes::with_cards(seed, 9), capped, random());
    assert!(informed >= 0.7, "with the evaluation: {informed:.3}");
    // The same search on a game whose evaluation says nothing (always 1/2) learns little, so
    // it scores far less.
    let blind = score(
        100,
        |seed| Prizes {
            blind: true,
            ..Prizes::with_cards(seed, 9)
        },
        capped,
        random(),
    );
    assert!(
        blind + 0.1 < informed,
        "blind {blind:.3}, informed {informed:.3}"
    );
}

#[test]
fn searches_repeat_for_a_seed_and_differ_between_seeds() {
    let game = Prizes::new(4);
    let a = Mcts::new(Budget::Iterations(300), 11).search(&game, EAST);
    let b = Mcts::new(Budget::Iterations(300), 11).search(&game, EAST);
    assert_eq!(a, b);
    assert!(a.iterations <= 300, "{}", a.iterations);
    assert_eq!(a.choices.len(), 5);
    assert_eq!(
        a.choices.iter().map(|c| c.visits).sum::<u32>(),
        a.iterations,
        "every iteration goes through one root action"
    );
    let c = Mcts::new(Budget::Iterations(300), 12).search(&game, EAST);
    assert_ne!(a, c, "another seed samples other worlds");
    // A whole game between two searches repeats too.
    let game_with = |seed| {
        let mut players: Vec<Box<dyn Player<Prizes>>> = vec![mcts(50)(seed), mcts(50)(seed + 1)];
        let mut g = Prizes::new(seed);
        let mut actions = Vec::new();
        while let Pending::Seats(seats) = g.pending() {
            let a = players[seats[0].index()].choose(&g, seats[0]);
            g.apply(seats[0], &a, &mut Log::discarding()).unwrap();
            actions.push(a);
        }
        actions
    };
    assert_eq!(game_with(3), game_with(3));
}

/// The whole budget's search from the same seed.
fn unsettled(iterations: u32, seed: u64) -> Mcts {
    let mut m = Mcts::new(Budget::Iterations(iterations), seed);
    m.stops_when_settled = false;
    m
}

#[test]
fn a_search_that_stops_once_settled_plays_what_the_whole_budget_plays() {
    let mut stopped_early = 0;
    for seed in 0..40 {
        let game = Prizes::new(seed);
        for seat in [EAST, WEST] {
            let settled = Mcts::new(Budget::Iterations(400), seed).search(&game, seat);
            let whole = unsettled(400, seed).search(&game, seat);
            assert_eq!(whole.iterations, 400);
            assert_eq!(
                settled.choices[settled.best].action, whole.choices[whole.best].action,
                "seed {seed}"
            );
            if settled.iterations < 400 {
                stopped_early += 1;
                // Stopped only when no other action could catch the most visited one.
                let mut visits: Vec<u32> = settled.choices.iter().map(|c| c.visits).collect();
                visits.sort_unstable_by(|a, b| b.cmp(a));
                assert!(
                    visits[0] - visits[1] > 400 - settled.iterations,
                    "{visits:?}"
                );
            }
        }
    }
    assert!(stopped_early > 0, "no search settled before its budget");
}

#[test]
fn a_time_budget_searches_and_a_single_action_needs_no_search() {
    // Tests time nothing: a time budget must still search at least once and choose legally.
    let game = Prizes::new(2);
    let s = Mcts::new(Budget::Time(Duration::from_millis(20)), 1).search(&game, WEST);
    assert!(s.iterations >= 1, "{s:?}");
    assert!(game.legal_actions(WEST).contains(&s.choices[s.best].action));

    let mut last = Prizes::new(2);
    last.hands = [vec![3], vec![4]];
    last.deck.clear();
    let s = Mcts::new(Budget::Iterations(500), 1).search(&last, EAST);
    assert_eq!((s.iterations, s.choices.len()), (0, 1));
}

#[test]
fn specs_build_players_and_heuristic_is_refused_without_a_doctrine() {
    let game = Prizes::new(5);
    for text in ["random", "mcts:20", "mcts:0.01s"] {
        let spec: PlayerSpec = text.parse().unwrap();
        let mut player = spec.build::<Prizes, NoDoctrine>("prizes", 1).unwrap();
        let a = player.choose(&game, EAST);
        assert!(game.legal_actions(EAST).contains(&a), "{text}");
    }
    let e = PlayerSpec::Heuristic
        .build::<Prizes, NoDoctrine>("prizes", 1)
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "no heuristic doctrine for prizes yet: use random or mcts"
    );
}

/// A doctrine for `prizes` that always wants its lowest card.
struct Thrifty;

impl ai::Policy<Prizes> for Thrifty {
    fn scores(&self, _state: &Prizes, _seat: Seat, legal: &[Bid]) -> Vec<f64> {
        legal.iter().map(|b| -f64::from(b.0)).collect()
    }
}

#[test]
fn a_guided_search_considers_only_the_doctrines_best_actions() {
    let game = Prizes::new(6);
    let lowest = game
        .legal_actions(EAST)
        .into_iter()
        .min_by_key(|b| b.0)
        .unwrap();
    // One candidate per decision: the search can only play the doctrine's choice.
    let mut narrow = Mcts::new(Budget::Iterations(50), 3);
    narrow.width = 1;
    let s = narrow.search_guided(&game, EAST, Some(&Thrifty));
    assert_eq!(s.choices[s.best].action, lowest);
    assert_eq!(
        s.choices.iter().filter(|c| c.visits > 0).count(),
        1,
        "only the best-scored action is searched: {s:?}"
    );
    // Two candidates: both searched, nothing else.
    let mut two = Mcts::new(Budget::Iterations(50), 3);
    two.width = 2;
    let s = two.search_guided(&game, EAST, Some(&Thrifty));
    assert_eq!(s.choices.iter().filter(|c| c.visits > 0).count(), 2);
    // Guided searches repeat for a seed.
    let again = Mcts::new(Budget::Iterations(50), 3).search_guided(&game, EAST, Some(&Thrifty));
    let once = Mcts::new(Budget::Iterations(50), 3).search_guided(&game, EAST, Some(&Thrifty));
    assert_eq!(again, once);
}

#[test]
fn the_heuristic_player_follows_its_doctrine() {
    let game = Prizes::new(8);
    let lowest = game
        .legal_actions(WEST)
        .into_iter()
        .min_by_key(|b| b.0)
        .unwrap();
    let mut player = ai::Heuristic::new(std::sync::Arc::new(Thrifty), 1);
    assert_eq!(player.choose(&game, WEST), lowest);
}

/// A doctrine for `prizes` that wants its lowest card and counts how often it is asked.
struct Counted(std::sync::atomic::AtomicUsize);

impl ai::Policy<Prizes> for Counted {
    fn scores(&self, _state: &Prizes, _seat: Seat, legal: &[Bid]) -> Vec<f64> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        legal.iter().map(|b| -f64::from(b.0)).collect()
    }
}

#[test]
fn a_guided_search_asks_its_doctrine_once_per_node_and_seat_at_most() {
    let game = Prizes::new(6);
    let doctrine = Counted(Default::default());
    let iterations = 300;
    let mut m = Mcts::new(Budget::Iterations(iterations), 4);
    m.playout_depth = Some(0);
    m.search_guided(&game, EAST, Some(&doctrine));
    // Each iteration adds one node; a node is asked for its own seat's options once and for
    // the other bidder's reply once (the root's options are asked before the iterations).
    let asked = doctrine.0.into_inner();
    assert!(asked >= 2, "the doctrine was asked {asked} times");
    assert!(
        asked <= 2 * (iterations as usize + 1),
        "the doctrine was asked {asked} times in {iterations} iterations"
    );
}

#[test]
fn where_rewards_do_not_differ_the_doctrines_choice_is_searched_most_and_played() {
    // Blind: the evaluation knows nothing, and the search stops at its leaves, never reaching
    // the end of twelve rounds, so every option scores one half: only the doctrine's prior
    // tells them apart.
    let game = Prizes {
        blind: true,
        ..Prizes::with_cards(6, 12)
    };
    let lowest = game
        .legal_actions(EAST)
        .into_iter()
        .min_by_key(|b| b.0)
        .unwrap();
    for seed in 0..5 {
        let mut m = Mcts::new(Budget::Iterations(200), seed);
        m.playout_depth = Some(0);
        let s = m.search_guided(&game, EAST, Some(&Thrifty));
        assert_eq!(s.choices[s.best].action, lowest, "{s:?}");
        let most = s.choices.iter().map(|c| c.visits).max().unwrap();
        assert_eq!(s.choices[s.best].visits, most);
        assert!(
            s.choices.iter().filter(|c| c.visits > 0).count() > 1,
            "the other candidates are searched too: {s:?}"
        );
    }
}

/// A guided search with `Thrifty` (a poor doctrine: it always bids its lowest card) as
/// `mcts:ITERATIONS:d0` would build it, with `normalize` set as given.
fn thrifty_search(normalize: bool) -> impl Fn(u64) -> Box<dyn Player<Prizes>> {
    move |seed| {
        let mut m = Mcts::new(Budget::Iterations(200), seed);
        m.playout_depth = Some(0);
        m.exploration = ai::GUIDED_EXPLORATION;
        m.normalize = normalize;
        Box::new(ai::GuidedMcts {
            mcts: m,
            policy: std::sync::Arc::new(Thrifty),
        })
    }
}

#[test]
fn rewards_on_the_trees_scale_let_a_search_overrule_a_poor_doctrine() {
    let nine = |seed| Prizes::with_cards(seed, 9);
    // On the raw scale the evaluation's small differences never outweigh the doctrine's
    // prior: the search bids as the doctrine does.
    let game = nine(3);
    let lowest = game
        .legal_actions(EAST)
        .into_iter()
        .min_by_key(|b| b.0)
        .unwrap();
    let raw = thrifty_search(false)(3).choose(&game, EAST);
    assert_eq!(raw, lowest);
    // Scaled to the tree's range, the search bids better than its doctrine, and it shows.
    let scaled = score(60, nine, thrifty_search(true), thrifty_search(false));
    assert!(scaled >= 0.6, "scaled against raw: {scaled:.3}");
}

/// A doctrine for `prizes` that bids the card nearest the prize, deliberates only over the
/// prizes of 4 and more, and counts how often it is asked for scores.
struct Matching(std::sync::atomic::AtomicUsize);

impl ai::Policy<Prizes> for Matching {
    fn scores(&self, state: &Prizes, _seat: Seat, legal: &[Bid]) -> Vec<f64> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let prize = f64::from(state.prize.unwrap_or(0));
        legal
            .iter()
            .map(|b| -(f64::from(b.0) - prize).abs())
            .collect()
    }

    fn deliberates(&self, state: &Prizes, _seat: Seat) -> bool {
        state.prize.is_some_and(|p| p >= 4)
    }
}

/// A planned search (`mcts:ITERATIONS:dend:planned`) guided by `Matching`, and its doctrine.
fn planned(iterations: u32, seed: u64) -> (ai::GuidedMcts<Prizes>, std::sync::Arc<Matching>) {
    let doctrine = std::sync::Arc::new(Matching(Default::default()));
    let mut m = Mcts::new(Budget::Iterations(iterations), seed);
    m.playout_depth = None;
    m.planned = true;
    let player = ai::GuidedMcts {
        mcts: m,
        policy: doctrine.clone(),
    };
    (player, doctrine)
}

/// The first game of `prizes` from seed 0 up whose first prize is (or is not) at least 4.
fn first_prize(big: bool) -> Prizes {
    (0..)
        .map(Prizes::new)
        .find(|g| g.prize.is_some_and(|p| p >= 4) == big)
        .expect("some seed deals such a prize")
}

#[test]
fn a_planned_search_takes_what_its_doctrine_does_not_deliberate_as_the_doctrine_does() {
    let game = first_prize(false);
    let prize = game.prize.unwrap();
    let (mut player, doctrine) = planned(200, 5);
    let bid = player.choose(&game, EAST);
    assert_eq!(bid, Bid(prize), "the doctrine bids the prize's own card");
    assert_eq!(
        doctrine.0.load(std::sync::atomic::Ordering::Relaxed),
        1,
        "asked once, no search"
    );
}

#[test]
fn a_planned_search_plays_its_playouts_out_by_its_doctrine() {
    let game = first_prize(true);
    let iterations = 100;
    let (mut player, doctrine) = planned(iterations, 5);
    let first = player.choose(&game, EAST);
    let asked = doctrine.0.load(std::sync::atomic::Ordering::Relaxed);
    // A guided search with random playouts asks at most twice a node (the test above); each
    // planned iteration asks again for every bid of its playout to the end of five rounds.
    assert!(
        asked > 2 * (iterations as usize + 1),
        "the doctrine was asked {asked} times in {iterations} iterations"
    );
    // It repeats for a seed.
    let (mut again, _) = planned(iterations, 5);
    assert_eq!(again.choose(&game, EAST), first);
}

#[test]
fn a_planned_search_tries_its_candidates_in_rounds_and_plays_the_best_mean() {
    let game = first_prize(true);
    let (mut player, doctrine) = planned(60, 9);
    player.mcts.width = 3;
    let s = player.mcts.search_guided(&game, EAST, Some(&*doctrine));
    let tried: Vec<&ai::Choice<Bid>> = s.choices.iter().filter(|c| c.visits > 0).collect();
    assert_eq!(tried.len(), 3, "{s:?}");
    assert!(
        tried.iter().all(|c| c.visits == 20),
        "each candidate has one iteration a round: {s:?}"
    );
    let top = tried
        .iter()
        .map(|c| c.value)
        .fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(s.choices[s.best].value, top, "{s:?}");
}

/// A doctrine that never bids its two highest cards, and likes the others alike.
struct NeverHigh;

impl ai::Policy<Prizes> for NeverHigh {
    fn scores(&self, _state: &Prizes, _seat: Seat, legal: &[Bid]) -> Vec<f64> {
        let mut cards: Vec<u8> = legal.iter().map(|b| b.0).collect();
        cards.sort_unstable();
        let high = &cards[cards.len().saturating_sub(2)..];
        legal
            .iter()
            .map(|b| {
                if high.contains(&b.0) {
                    f64::NEG_INFINITY
                } else {
                    0.0
                }
            })
            .collect()
    }
}

#[test]
fn a_guided_search_never_considers_what_its_doctrine_never_does() {
    for seed in 0..20 {
        let game = Prizes::new(seed);
        let legal = game.legal_actions(EAST);
        let never = NeverHigh.scores(&game, EAST, &legal);
        assert!(never.iter().filter(|s| s.is_infinite()).count() == 2);
        let s =
            Mcts::new(Budget::Iterations(200), seed).search_guided(&game, EAST, Some(&NeverHigh));
        for (c, score) in s.choices.iter().zip(&never) {
            if score.is_infinite() {
                assert_eq!(c.visits, 0, "seed {seed}: {:?} searched", c.action);
            }
        }
        assert!(
            never[s.best].is_finite(),
            "seed {seed}: played {:?}",
            s.choices[s.best].action
        );
    }
}
