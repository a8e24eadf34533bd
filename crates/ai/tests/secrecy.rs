//! An AI sees only what its seat may see: its search is the same, iteration for iteration,
//! in states that differ only in another seat's secrets or in the dice's future.

use ai::{Budget, Mcts, Player, RandomPlayer};
use engine::toy::prizes::{Bid, Prizes, EAST, WEST};
use engine::{Dice, DiceMode, Game, Log, Viewer};

/// A game after `rounds` rounds played with the cards in order, with West having bid
/// `west_bid` in secret this round, West's favour `favour`, and dice seeded with `dice`.
fn position(rounds: u8, west_bid: u8, favour: u8, dice: u64, peek: bool) -> Prizes {
    let mut g = Prizes::new(4);
    for round in 1..=rounds {
        for seat in [EAST, WEST] {
            g.apply(seat, &Bid(round), &mut Log::discarding()).unwrap();
        }
    }
    g.apply(WEST, &Bid(west_bid), &mut Log::discarding())
        .unwrap();
    g.favours[WEST.index()] = favour;
    g.dice = Dice::new(dice, DiceMode::Seeded);
    g.peek = peek;
    g
}

/// A doctrine for `prizes`: bid the card nearest the prize.
struct Nearest;

impl ai::Policy<Prizes> for Nearest {
    fn scores(&self, state: &Prizes, _seat: engine::Seat, legal: &[Bid]) -> Vec<f64> {
        let prize = f64::from(state.prize.unwrap_or(0));
        legal
            .iter()
            .map(|b| -(f64::from(b.0) - prize).abs())
            .collect()
    }
}

/// East's planned search (`mcts:120:dend:planned` guided by [`Nearest`]) in `g`.
fn planned(g: &Prizes) -> ai::Search<Bid> {
    let mut m = Mcts::new(Budget::Iterations(120), 7);
    m.planned = true;
    m.playout_depth = None;
    m.search_guided(g, EAST, Some(&Nearest))
}

fn json(g: &Prizes) -> serde_json::Value {
    serde_json::to_value(g.view(Viewer::Seat(EAST))).unwrap()
}

#[test]
fn searches_do_not_change_with_the_other_seats_secrets_or_the_dice() {
    for rounds in [0, 2] {
        let a = position(rounds, 3, 1, 100, false);
        let b = position(rounds, 5, 4, 200, false);
        assert_ne!(a, b);
        assert_eq!(json(&a), json(&b), "East sees the same in both");
        let search = |g: &Prizes| Mcts::new(Budget::Iterations(400), 7).search(g, EAST);
        assert_eq!(search(&a), search(&b), "after {rounds} rounds");
        // A planned search, whose playouts follow the doctrine and whose rounds share one
        // re-sampled world, sees no more.
        assert_eq!(planned(&a), planned(&b), "planned, after {rounds} rounds");
        assert_eq!(
            RandomPlayer::new(3).choose(&a, EAST),
            RandomPlayer::new(3).choose(&b, EAST)
        );
    }
}

#[test]
fn the_check_would_see_a_search_that_peeks() {
    // With a re-sample that keeps the real secrets, the searches differ: the test above can
    // fail.
    let a = position(0, 3, 1, 100, true);
    let b = position(0, 5, 4, 100, true);
    assert_eq!(json(&a), json(&b));
    let search = |g: &Prizes| Mcts::new(Budget::Iterations(400), 7).search(g, EAST);
    assert_ne!(search(&a), search(&b));
    assert_ne!(planned(&a), planned(&b), "a planned search that peeks");
    // The dice's future is re-seeded by the search itself, whatever the game does.
    let c = position(0, 3, 1, 999, true);
    assert_eq!(search(&a), search(&c));
}
