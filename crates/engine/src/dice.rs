//! Dice: a named seeded generator stored in the game, and a manual mode in which players
//! type the dice they rolled at a real table (DESIGN.md, "Randomness and records").

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// A uniform choice in `0..n` (`n > 0`) from any generator, by rejection sampling so that
/// every value is exactly equally likely. Dice, draws from a cup, the shared checks and the
/// AI players all choose through it.
pub fn uniform_below(rng: &mut dyn RngCore, n: usize) -> usize {
    assert!(n > 0, "a choice among nothing");
    let n = n as u64;
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// A kind of die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Die {
    /// Six-sided, 1-6.
    D6,
    /// Ten-sided, 1-10 (a face showing 0 counts as 10).
    D10,
}

impl Die {
    /// The highest face.
    pub fn faces(self) -> u8 {
        match self {
            Die::D6 => 6,
            Die::D10 => 10,
        }
    }
}

/// Where the dice come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DiceMode {
    /// From the seeded generator in the state.
    Seeded,
    /// Typed in by the players: every die of an action is entered with it.
    Manual,
}

/// The dice of one game: the generator, the manually entered dice waiting to be used, and the
/// dice rolled by the action being applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dice {
    /// The generator (PCG 64-bit MCG), seeded once at the start of the game.
    rng: Pcg64Mcg,
    mode: DiceMode,
    /// Entered dice not yet used, in the order they will be read.
    entered: Vec<u8>,
    /// Position of the next entered die in `entered`.
    next_entered: usize,
    /// Set when a roll found no entered die (manual mode): the action must be refused.
    short: bool,
    /// The first entered die that was not a face of the die that read it (manual mode): the
    /// action must be refused.
    #[serde(default)]
    bad_face: Option<(Die, u8)>,
    /// Every die rolled since the last [`Dice::begin_action`], as read.
    rolled: Vec<u8>,
}

/// Why entered dice were not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// A value that no die of the kind shows.
    #[error("entered die {value} is not a face of a {die:?} (faces 1-{faces}{zero})", faces = die.faces(), zero = if *die == Die::D10 { ", 0 counts as 10" } else { "" })]
    BadFace {
        /// The kind of die that read it.
        die: Die,
        /// The value entered.
        value: u8,
    },
    /// The action needed more dice than were entered.
    #[error("this action needs more dice than the {entered} entered: enter every die it rolls with --dice")]
    TooFew {
        /// How many were entered.
        entered: usize,
    },
    /// Dice were entered that the action did not roll.
    #[error("{unused} entered dice were not used by this action (it rolled {used}): enter exactly the dice it rolls")]
    TooMany {
        /// How many were left over.
        unused: usize,
        /// How many were read.
        used: usize,
    },
    /// Dice were entered in a game that rolls its own.
    #[error(
        "this game rolls its own dice (seeded mode); start it with --manual-dice to enter dice"
    )]
    NotManual,
}

impl Dice {
    /// Dice seeded with `seed`.
    pub fn new(seed: u64, mode: DiceMode) -> Self {
        Dice {
            rng: Pcg64Mcg::seed_from_u64(seed),
            mode,
            entered: Vec::new(),
            next_entered: 0,
            short: false,
            bad_face: None,
            rolled: Vec::new(),
        }
    }

    /// Replaces the generator with a new one seeded with `seed` and switches to seeded
    /// mode, forgetting any entered dice: for searches, which must roll dice of their own and
    /// never learn the real game's future rolls. Never use it on a game in play.
    pub fn reseed(&mut self, seed: u64) {
        *self = Dice::new(seed, DiceMode::Seeded);
    }

    /// The dice mode.
    pub fn mode(&self) -> DiceMode {
        self.mode
    }

    /// Starts an action: forgets what the previous action rolled and loads the dice entered
    /// for this one (manual mode only).
    pub fn begin_action(&mut self, entered: &[u8]) -> Result<(), DiceError> {
        if !entered.is_empty() && self.mode != DiceMode::Manual {
            return Err(DiceError::NotManual);
        }
        self.entered.clear();
        self.entered.extend_from_slice(entered);
        self.next_entered = 0;
        self.short = false;
        self.bad_face = None;
        self.rolled.clear();
        Ok(())
    }

    /// Ends an action: checks that exactly the entered dice were used.
    pub fn end_action(&mut self) -> Result<(), DiceError> {
        if let Some((die, value)) = self.bad_face {
            return Err(DiceError::BadFace { die, value });
        }
        if self.short {
            return Err(DiceError::TooFew {
                entered: self.entered.len(),
            });
        }
        if self.mode == DiceMode::Manual && self.next_entered < self.entered.len() {
            return Err(DiceError::TooMany {
                unused: self.entered.len() - self.next_entered,
                used: self.next_entered,
            });
        }
        Ok(())
    }

    /// The dice rolled since the action began, in order.
    pub fn rolled(&self) -> &[u8] {
        &self.rolled
    }

    /// Rolls one die. In manual mode the next entered die is read; an entered face that the
    /// die does not have, or a missing die, makes [`Dice::end_action`] fail.
    pub fn roll(&mut self, die: Die) -> u8 {
        let value = match self.mode {
            DiceMode::Seeded => uniform_below(&mut self.rng, die.faces() as usize) as u8 + 1,
            DiceMode::Manual => match self.entered.get(self.next_entered) {
                Some(&v) => {
                    self.next_entered += 1;
                    match (die, v) {
                        (Die::D10, 0) => 10,
                        (_, v) if (1..=die.faces()).contains(&v) => v,
                        _ => {
                            self.bad_face.get_or_insert((die, v));
                            1
                        }
                    }
                }
                None => {
                    self.short = true;
                    1
                }
            },
        };
        self.rolled.push(value);
        value
    }

    /// One six-sided die.
    pub fn d6(&mut self) -> u8 {
        self.roll(Die::D6)
    }

    /// One ten-sided die, 1-10.
    pub fn d10(&mut self) -> u8 {
        self.roll(Die::D10)
    }

    /// Two six-sided dice read as 11-66: the first is the tens.
    pub fn d66(&mut self) -> u8 {
        let tens = self.d6();
        tens * 10 + self.d6()
    }

    /// Percentile dice, 1-100: two ten-sided dice, tens then units, 10-10 read as 100.
    pub fn d100(&mut self) -> u8 {
        let tens = self.d10() % 10;
        let units = self.d10() % 10;
        match tens * 10 + units {
            0 => 100,
            v => v,
        }
    }

    /// A uniform choice in `0..n` from the generator, for chance events that are not dice
    /// (drawing a chit from a cup). Never read from entered dice: in manual mode the players
    /// draw at the table and enter the result as an action instead.
    pub fn choose(&mut self, n: usize) -> usize {
        uniform_below(&mut self.rng, n)
    }

    /// Checks entered dice text such as `4,2` or `4 2`, returning the values.
    pub fn parse_entered(text: &str) -> Result<Vec<u8>, String> {
        text.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<u8>()
                    .ok()
                    .filter(|v| *v <= 10)
                    .ok_or_else(|| format!("`{s}` is not a die face (0-10)"))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_dice_repeat_for_a_seed_and_cover_every_face() {
        let mut a = Dice::new(7, DiceMode::Seeded);
        let mut b = Dice::new(7, DiceMode::Seeded);
        let ra: Vec<u8> = (0..600).map(|_| a.d10()).collect();
        let rb: Vec<u8> = (0..600).map(|_| b.d10()).collect();
        assert_eq!(ra, rb);
        for face in 1..=10 {
            assert!(ra.contains(&face), "face {face} never rolled");
        }
        assert!(ra.iter().all(|v| (1..=10).contains(v)));
        let sixes: Vec<u8> = (0..600).map(|_| a.d6()).collect();
        assert!(sixes.iter().all(|v| (1..=6).contains(v)));
        assert!(sixes.contains(&6) && sixes.contains(&1));
    }

    #[test]
    fn manual_dice_read_zero_as_ten_and_fail_when_short_or_left_over() {
        let mut d = Dice::new(1, DiceMode::Manual);
        d.begin_action(&[0, 3]).unwrap();
        assert_eq!(d.d10(), 10);
        assert_eq!(d.d10(), 3);
        assert!(d.end_action().is_ok());
        d.begin_action(&[5]).unwrap();
        d.d10();
        d.d10();
        assert!(matches!(d.end_action(), Err(DiceError::TooFew { .. })));
        d.begin_action(&[5, 6]).unwrap();
        d.d10();
        assert!(matches!(
            d.end_action(),
            Err(DiceError::TooMany { unused: 1, .. })
        ));
        d.begin_action(&[7]).unwrap();
        d.d6();
        assert_eq!(
            d.end_action(),
            Err(DiceError::BadFace {
                die: Die::D6,
                value: 7
            }),
            "7 is not a face of a d6"
        );
    }

    #[test]
    fn d66_and_d100_read_as_printed() {
        let mut d = Dice::new(1, DiceMode::Manual);
        d.begin_action(&[3, 5, 0, 0, 0, 7]).unwrap();
        assert_eq!(d.d66(), 35);
        assert_eq!(d.d100(), 100);
        assert_eq!(d.d100(), 7);
        assert!(d.end_action().is_ok());
    }

    #[test]
    fn reseeding_forgets_the_future_and_entered_dice() {
        let mut real = Dice::new(3, DiceMode::Seeded);
        let mut copy = real.clone();
        copy.reseed(99);
        let future: Vec<u8> = (0..50).map(|_| real.d6()).collect();
        let sampled: Vec<u8> = (0..50).map(|_| copy.d6()).collect();
        assert_ne!(
            future, sampled,
            "a re-seeded copy does not roll the real future"
        );
        let mut again = Dice::new(3, DiceMode::Seeded);
        again.reseed(99);
        assert_eq!((0..50).map(|_| again.d6()).collect::<Vec<_>>(), sampled);

        let mut manual = Dice::new(1, DiceMode::Manual);
        manual.begin_action(&[6, 6]).unwrap();
        manual.reseed(5);
        assert_eq!(manual.mode(), DiceMode::Seeded);
        manual.begin_action(&[]).unwrap();
        manual.d6();
        assert!(
            manual.end_action().is_ok(),
            "rolls its own dice once re-seeded"
        );
    }

    #[test]
    fn seeded_games_refuse_entered_dice() {
        let mut d = Dice::new(1, DiceMode::Seeded);
        assert_eq!(d.begin_action(&[1]), Err(DiceError::NotManual));
    }
}
