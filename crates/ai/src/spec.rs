//! Players as text, for the command line and the server: `random`, `heuristic`,
//! `mcts:ITERATIONS` or `mcts:SECONDSs`, and the per-game [`Doctrine`] that supplies a game's
//! heuristic player.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use engine::Game;

use crate::{Budget, Mcts, Player, RandomPlayer};

/// The iterations of a bare `mcts`.
pub const DEFAULT_ITERATIONS: u32 = 1_000;

/// A kind of player, as text: `random`, `heuristic`, `mcts` (1000 iterations),
/// `mcts:ITERATIONS` (`mcts:5000`) or `mcts:SECONDSs` (`mcts:2s`, `mcts:0.5s`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayerSpec {
    /// [`RandomPlayer`].
    Random,
    /// The game's own heuristic player ([`Doctrine`]).
    Heuristic,
    /// [`Mcts`] with this budget.
    Mcts(Budget),
}

/// Why a player could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// The text is not a player.
    #[error("`{text}` is not a player: {reason} (players: random, heuristic, mcts:ITERATIONS as in mcts:1000, or mcts:SECONDSs as in mcts:2s)")]
    BadSpec {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// `heuristic` for a game that has no heuristic player.
    #[error("no heuristic doctrine for {game} yet: use random or mcts")]
    NoHeuristic {
        /// The game's id.
        game: String,
    },
}

impl FromStr for PlayerSpec {
    type Err = AiError;

    fn from_str(text: &str) -> Result<Self, AiError> {
        let bad = |reason: &str| AiError::BadSpec {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let t = text.trim().to_ascii_lowercase();
        let (kind, arg) = match t.split_once(':') {
            Some((k, a)) => (k, Some(a)),
            None => (t.as_str(), None),
        };
        match (kind, arg) {
            ("random", None) => Ok(PlayerSpec::Random),
            ("heuristic", None) => Ok(PlayerSpec::Heuristic),
            ("random" | "heuristic", Some(_)) => Err(bad("only mcts takes a budget")),
            ("mcts", None) => Ok(PlayerSpec::Mcts(Budget::Iterations(DEFAULT_ITERATIONS))),
            ("mcts", Some(arg)) => {
                if let Some(seconds) = arg.strip_suffix('s') {
                    match seconds.parse::<f64>() {
                        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(
                            PlayerSpec::Mcts(Budget::Time(Duration::from_secs_f64(s))),
                        ),
                        _ => Err(bad(
                            "the time must be a number of seconds above 0 and at most a day, then `s`",
                        )),
                    }
                } else {
                    match arg.parse::<u32>() {
                        Ok(n) if n > 0 => Ok(PlayerSpec::Mcts(Budget::Iterations(n))),
                        _ => Err(bad(
                            "the budget must be a number of iterations (1 or more) or of seconds ending in `s`",
                        )),
                    }
                }
            }
            _ => Err(bad("unknown kind of player")),
        }
    }
}

impl fmt::Display for PlayerSpec {
    /// The text that parses back as this spec (`mcts:1000`, `mcts:2s`, `mcts:0.25s`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Heuristic => f.write_str("heuristic"),
            PlayerSpec::Mcts(Budget::Iterations(n)) => write!(f, "mcts:{n}"),
            PlayerSpec::Mcts(Budget::Time(t)) => write!(f, "mcts:{}s", t.as_secs_f64()),
        }
    }
}

/// A game's heuristic player: the doctrine of play written for that game. The registry
/// registers each game with its doctrine, or with [`NoDoctrine`].
pub trait Doctrine<G: Game> {
    /// The heuristic player, with its choices fixed by `seed`; `None` if the game has none.
    fn heuristic(seed: u64) -> Option<Box<dyn Player<G>>>;
}

/// The doctrine of a game that has no heuristic player yet.
#[derive(Clone, Copy, Debug)]
pub struct NoDoctrine;

impl<G: Game> Doctrine<G> for NoDoctrine {
    fn heuristic(_seed: u64) -> Option<Box<dyn Player<G>>> {
        None
    }
}

impl PlayerSpec {
    /// The player this spec names for game `G` (whose id is `game`, for messages), with its
    /// choices fixed by `seed`; the heuristic player comes from `D`.
    pub fn build<G: Game, D: Doctrine<G>>(
        &self,
        game: &str,
        seed: u64,
    ) -> Result<Box<dyn Player<G>>, AiError> {
        match *self {
            PlayerSpec::Random => Ok(Box::new(RandomPlayer::new(seed))),
            PlayerSpec::Heuristic => D::heuristic(seed).ok_or_else(|| AiError::NoHeuristic {
                game: game.to_string(),
            }),
            PlayerSpec::Mcts(budget) => Ok(Box::new(Mcts::new(budget, seed))),
        }
    }

    /// Whether the same seed gives the same choices (every player but a search limited by
    /// time).
    pub fn is_deterministic(&self) -> bool {
        !matches!(self, PlayerSpec::Mcts(Budget::Time(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print_back() {
        for (text, spec) in [
            ("random", PlayerSpec::Random),
            ("Heuristic", PlayerSpec::Heuristic),
            (
                "mcts",
                PlayerSpec::Mcts(Budget::Iterations(DEFAULT_ITERATIONS)),
            ),
            ("mcts:250", PlayerSpec::Mcts(Budget::Iterations(250))),
            (
                "mcts:2s",
                PlayerSpec::Mcts(Budget::Time(Duration::from_secs(2))),
            ),
            (
                "mcts:0.25s",
                PlayerSpec::Mcts(Budget::Time(Duration::from_millis(250))),
            ),
        ] {
            let parsed: PlayerSpec = text.parse().unwrap();
            assert_eq!(parsed, spec, "{text}");
            assert_eq!(parsed.to_string().parse::<PlayerSpec>().unwrap(), spec);
        }
        assert_eq!(
            PlayerSpec::Mcts(Budget::Time(Duration::from_millis(1500))).to_string(),
            "mcts:1.5s"
        );
        assert!(PlayerSpec::Random.is_deterministic());
        assert!(!"mcts:1s".parse::<PlayerSpec>().unwrap().is_deterministic());
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (text, needle) in [
            ("alphazero", "unknown kind of player"),
            ("mcts:0", "number of iterations"),
            ("mcts:fast", "number of iterations"),
            ("mcts:-1s", "seconds above 0"),
            ("mcts:xs", "seconds above 0"),
            ("random:5", "only mcts takes a budget"),
            ("", "unknown kind"),
        ] {
            let e = text.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
            assert!(e.contains("mcts:2s"), "lists the players: {e}");
        }
    }
}
