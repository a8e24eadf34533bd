//! `prizes`: a small two-seat game to test players on, in which skill matters and each seat
//! holds a secret.
//!
//! East and West each hold the cards 1-5 (or 1-N). Each round a prize card (1-5, drawn by
//! chance from those left) is shown; both seats bid one of their cards at once, in secret; the
//! higher bid wins the prize, a tie wins nothing; bids are then shown and the cards are spent.
//! Each seat
//! also has a secret *favour*, a number 1-5 dealt at the start: its prize of that number
//! counts double for it. After the last round the higher score wins (favours are then shown).
//!
//! [`Game::determinize`] re-samples the other seat's favour and its bid not yet shown; the
//! `peek` flag turns that off (a cheating re-sample, to show that the secrecy test can fail).
//! [`Game::evaluate`] scores a game cut short by the lead, counting the prizes left as
//! shared in proportion to the cards in hand; the `blind` flag turns it off.

use crate::{
    Applied, Board, DataErrors, DataSet, Dice, DiceMode, Facts, Game, Log, Outcome, Pending,
    Rejection, ScenarioInfo, Seat, Setup, Startable, Stat, Viewer,
};
use serde::{Deserialize, Serialize};

/// The game's id.
pub const GAME: &str = "prizes";
pub use super::{EAST, WEST};
/// The cards of each hand in a game made by [`Prizes::new`].
pub const CARDS: u8 = 5;

/// The state of a game of prizes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prizes {
    /// How many cards each hand starts with.
    pub cards: u8,
    /// The cards in hand, East then West.
    pub hands: [Vec<u8>; 2],
    /// Secret: the prize that counts double for each seat.
    pub favours: [u8; 2],
    /// Prizes not yet shown.
    pub deck: Vec<u8>,
    /// The prize bid for now (`None` once the game is over).
    pub prize: Option<u8>,
    /// Secret until both have bid.
    pub bids: [Option<u8>; 2],
    /// The prizes won, East then West.
    pub won: [Vec<u8>; 2],
    /// The dice: the favours and the order of the prizes.
    pub dice: Dice,
    /// A cheating re-sample: [`Game::determinize`] keeps the other seat's secrets.
    pub peek: bool,
    /// No evaluation: [`Game::evaluate`] knows nothing (0.5).
    pub blind: bool,
}

/// Bid this card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bid(pub u8);

/// What one viewer sees of a game of prizes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrizesView {
    /// The cards in hand, East then West (cards are public; the bids are not).
    pub hands: [Vec<u8>; 2],
    /// Prizes not yet shown.
    pub deck: Vec<u8>,
    /// The prize bid for now.
    pub prize: Option<u8>,
    /// Which seats have bid.
    pub committed: [bool; 2],
    /// The viewer's own bid, once made.
    pub own_bid: Option<u8>,
    /// The prizes won, East then West.
    pub won: [Vec<u8>; 2],
    /// The viewer's own favour.
    pub own_favour: Option<u8>,
    /// Both favours, once the game is over.
    pub favours: Option<[u8; 2]>,
}

impl Prizes {
    /// A new game of five cards; the favours and the first prize come from the dice of
    /// `seed`.
    pub fn new(seed: u64) -> Self {
        Prizes::with_cards(seed, CARDS)
    }

    /// A new game of `cards` cards.
    pub fn with_cards(seed: u64, cards: u8) -> Self {
        let mut dice = Dice::new(seed, DiceMode::Seeded);
        let favours = [
            1 + dice.choose(cards as usize) as u8,
            1 + dice.choose(cards as usize) as u8,
        ];
        let mut game = Prizes {
            cards,
            hands: [(1..=cards).collect(), (1..=cards).collect()],
            favours,
            deck: (1..=cards).collect(),
            prize: None,
            bids: [None, None],
            won: [Vec::new(), Vec::new()],
            dice,
            peek: false,
            blind: false,
        };
        game.draw();
        game
    }

    fn draw(&mut self) {
        self.prize = if self.deck.is_empty() {
            None
        } else {
            let i = self.dice.choose(self.deck.len());
            Some(self.deck.remove(i))
        };
    }

    /// `seat`'s score: its prizes, the one of its favour counting double.
    pub fn score(&self, seat: Seat) -> u32 {
        let i = seat.index();
        self.won[i]
            .iter()
            .map(|&p| u32::from(p) * if p == self.favours[i] { 2 } else { 1 })
            .sum()
    }
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

impl Game for Prizes {
    type Action = Bid;
    type View = PrizesView;

    fn facts(&self) -> Facts {
        super::facts(GAME)
    }

    fn action_text(&self, action: &Bid) -> String {
        format!("bid {}", action.0)
    }

    fn parse_action(&self, text: &str) -> Result<Bid, String> {
        text.strip_prefix("bid ")
            .and_then(|n| n.parse().ok())
            .map(Bid)
            .ok_or_else(|| "expected `bid N`".to_string())
    }

    fn pending(&self) -> Pending {
        if self.prize.is_none() {
            return Pending::Over;
        }
        Pending::from_seats(
            [EAST, WEST]
                .into_iter()
                .filter(|s| self.bids[s.index()].is_none())
                .collect(),
        )
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Bid> {
        match (self.prize, self.bids.get(seat.index())) {
            (Some(_), Some(None)) => self.hands[seat.index()].iter().map(|&c| Bid(c)).collect(),
            _ => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Bid, _log: &mut Log) -> Result<Applied, Rejection> {
        let i = seat.index();
        let Some(prize) = self.prize else {
            return Err(Rejection::new("the game is over"));
        };
        if self.bids[i].is_some() {
            return Err(Rejection::new("already bid"));
        }
        if !self.hands[i].contains(&action.0) {
            return Err(Rejection::new("not a card in hand"));
        }
        self.bids[i] = Some(action.0);
        let [Some(e), Some(w)] = self.bids else {
            return Ok(Applied::default());
        };
        self.hands[0].retain(|&c| c != e);
        self.hands[1].retain(|&c| c != w);
        if e != w {
            self.won[usize::from(w > e)].push(prize);
        }
        self.bids = [None, None];
        self.draw();
        Ok(Applied { revealed: true })
    }

    fn view(&self, viewer: Viewer) -> PrizesView {
        let me = match viewer {
            Viewer::Seat(s) => Some(s.index()),
            Viewer::Spectator => None,
        };
        PrizesView {
            hands: self.hands.clone(),
            deck: self.deck.clone(),
            prize: self.prize,
            committed: [self.bids[0].is_some(), self.bids[1].is_some()],
            own_bid: me.and_then(|i| self.bids[i]),
            won: self.won.clone(),
            own_favour: me.map(|i| self.favours[i]),
            favours: self.prize.is_none().then_some(self.favours),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.prize.is_some() {
            return None;
        }
        let (e, w) = (self.score(EAST), self.score(WEST));
        Some(Outcome {
            winner: super::winner(e, w),
            level: None,
            reason: format!("{e} to {w}"),
        })
    }

    fn dice(&self) -> &Dice {
        &self.dice
    }

    fn dice_mut(&mut self) -> &mut Dice {
        &mut self.dice
    }

    fn board(&self, _viewer: Viewer) -> Board {
        Board {
            title: "Prizes".into(),
            ..Board::default()
        }
    }

    fn determinize(&self, seat: Seat, rng: &mut dyn rand_core::RngCore) -> Self {
        let mut world = self.clone();
        if self.peek {
            return world;
        }
        let o = other(seat).index();
        world.favours[o] = 1 + (rng.next_u64() % u64::from(self.cards)) as u8;
        if world.bids[o].is_some() {
            let hand = &world.hands[o];
            world.bids[o] = Some(hand[(rng.next_u64() % hand.len() as u64) as usize]);
        }
        world
    }

    fn evaluate(&self, seat: Seat) -> f64 {
        if self.blind {
            return 0.5;
        }
        // Points so far, plus the prizes left shared in proportion to the cards in hand.
        let left: u32 = self
            .deck
            .iter()
            .chain(self.prize.iter())
            .map(|&p| u32::from(p))
            .sum();
        let hand = |s: Seat| {
            f64::from(
                self.hands[s.index()]
                    .iter()
                    .map(|&c| u32::from(c))
                    .sum::<u32>(),
            )
        };
        let (mine, theirs) = (hand(seat), hand(other(seat)));
        let share = if mine + theirs > 0.0 {
            mine / (mine + theirs)
        } else {
            0.5
        };
        let lead = f64::from(self.score(seat)) - f64::from(self.score(other(seat)))
            + f64::from(left) * (2.0 * share - 1.0);
        let most = f64::from(u32::from(self.cards) * (u32::from(self.cards) + 1));
        (0.5 + lead / most).clamp(0.0, 1.0)
    }

    fn stats(&self) -> Vec<Stat> {
        [EAST, WEST]
            .into_iter()
            .map(|s| Stat::seat("score", s, f64::from(self.score(s))))
            .collect()
    }
}

impl Startable for Prizes {
    fn scenarios(_data: &DataSet) -> Result<Vec<ScenarioInfo>, DataErrors> {
        Ok(vec![ScenarioInfo {
            id: "prizes".into(),
            title: "Prizes".into(),
            seats: super::SEATS.iter().map(|s| s.to_string()).collect(),
            options: Vec::new(),
        }])
    }

    fn start(setup: &Setup, _data: &DataSet) -> Result<Self, DataErrors> {
        Ok(Prizes::new(setup.seed))
    }
}

/// The set-up of a game of seed `seed`.
pub fn setup(seed: u64) -> Setup {
    Setup {
        scenario: "prizes".into(),
        options: Vec::new(),
        seed,
        dice: DiceMode::Seeded,
        position: None,
    }
}

/// The game's data: none.
pub fn data() -> DataSet {
    DataSet::from_files(Vec::<(&str, &str)>::new())
}
