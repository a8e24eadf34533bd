//! Players as text, for the command line and the server: `random`, `heuristic`,
//! `mcts:ITERATIONS` or `mcts:SECONDSs`, optionally with a playout cutoff (`mcts:200:d8`) and
//! rewards on the tree's own scale (`mcts:200:scaled`) or a planned search
//! (`mcts:100:d200:planned`), and the per-game [`Doctrine`] that supplies a game's heuristic
//! player and guides its searches.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use engine::Game;

use crate::DEFAULT_PLAYOUT_DEPTH;
use crate::{Budget, GuidedMcts, Heuristic, Mcts, Player, Policy, RandomPlayer};

/// The iterations of a bare `mcts`.
pub const DEFAULT_ITERATIONS: u32 = 1_000;

/// A kind of player, as text: `random`, `heuristic`, `mcts` (1000 iterations),
/// `mcts:ITERATIONS` (`mcts:5000`) or `mcts:SECONDSs` (`mcts:2s`, `mcts:0.5s`), each of the
/// last optionally followed by `:dDEPTH`, the playout cutoff (`mcts:200:d8`; `:dend` plays
/// every playout to the end; the default is [`Cutoff::Auto`]), and then optionally by
/// `:scaled`, which reads rewards on the tree's own scale ([`Mcts::normalize`]), and by
/// `:planned`, which searches only the decisions the doctrine deliberates and plays the rest
/// and the playouts by the doctrine ([`Mcts::planned`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayerSpec {
    /// [`RandomPlayer`].
    Random,
    /// The game's own heuristic player ([`Doctrine`]).
    Heuristic,
    /// [`Mcts`], guided by the game's doctrine where it has one.
    Mcts {
        /// How long each search goes on.
        budget: Budget,
        /// Where its playouts stop.
        cutoff: Cutoff,
        /// Whether selection reads rewards on the tree's own scale ([`Mcts::normalize`]).
        scaled: bool,
        /// Whether the search is planned ([`Mcts::planned`]).
        planned: bool,
    },
}

/// Where a search's playouts stop ([`Mcts::playout_depth`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cutoff {
    /// The game's default: [`DEFAULT_PLAYOUT_DEPTH`] actions where a doctrine guides the
    /// search (its tree looks ahead, and the game's evaluation is written to be read at any
    /// point), [`UNGUIDED_PLAYOUT_DEPTH`] where nothing guides it.
    #[default]
    Auto,
    /// After at most this many actions; then the game's evaluation scores the state.
    Depth(u32),
    /// At the end of the game.
    End,
}

/// The playout cutoff of an unguided search ([`Cutoff::Auto`] in a game without a doctrine):
/// long enough for random playouts of a small game to reach its end.
pub const UNGUIDED_PLAYOUT_DEPTH: u32 = 200;

impl Cutoff {
    /// As [`Mcts::playout_depth`], for a search `guided` by a doctrine or not.
    pub fn depth(self, guided: bool) -> Option<u32> {
        match self {
            Cutoff::Auto if guided => Some(DEFAULT_PLAYOUT_DEPTH),
            Cutoff::Auto => Some(UNGUIDED_PLAYOUT_DEPTH),
            Cutoff::Depth(d) => Some(d),
            Cutoff::End => None,
        }
    }
}

/// Why a player could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// The text is not a player.
    #[error("`{text}` is not a player: {reason} (players: random, heuristic, mcts:ITERATIONS as in mcts:1000, or mcts:SECONDSs as in mcts:2s, either with an optional playout cutoff as in mcts:1000:d8 or mcts:2s:dend, then optionally :scaled as in mcts:300:scaled and :planned as in mcts:100:d200:planned)")]
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
            ("mcts", None) => Ok(PlayerSpec::Mcts {
                budget: Budget::Iterations(DEFAULT_ITERATIONS),
                cutoff: Cutoff::default(),
                scaled: false,
                planned: false,
            }),
            ("mcts", Some(arg)) => {
                let mut parts = arg.split(':');
                let arg = parts.next().unwrap_or("");
                let (mut cutoff, mut scaled, mut planned) = (None, false, false);
                for part in parts {
                    if part == "scaled" && !scaled && !planned {
                        scaled = true;
                        continue;
                    }
                    if part == "planned" && !planned {
                        planned = true;
                        continue;
                    }
                    if cutoff.is_some() || scaled || planned {
                        return Err(bad(
                            "after the budget come at most a playout cutoff, then `scaled`, then `planned`",
                        ));
                    }
                    cutoff = Some(match part {
                        "dend" => Cutoff::End,
                        c => match c.strip_prefix('d').map(str::parse::<u32>) {
                            Some(Ok(d)) => Cutoff::Depth(d),
                            _ => return Err(bad(
                                "the playout cutoff must be `d` and a number of actions (0 or more), or `dend`",
                            )),
                        },
                    });
                }
                let budget = if let Some(seconds) = arg.strip_suffix('s') {
                    match seconds.parse::<f64>() {
                        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => {
                            Budget::Time(Duration::from_secs_f64(s))
                        }
                        _ => return Err(bad(
                            "the time must be a number of seconds above 0 and at most a day, then `s`",
                        )),
                    }
                } else {
                    match arg.parse::<u32>() {
                        Ok(n) if n > 0 => Budget::Iterations(n),
                        _ => return Err(bad(
                            "the budget must be a number of iterations (1 or more) or of seconds ending in `s`",
                        )),
                    }
                };
                Ok(PlayerSpec::Mcts {
                    budget,
                    cutoff: cutoff.unwrap_or_default(),
                    scaled,
                    planned,
                })
            }
            _ => Err(bad("unknown kind of player")),
        }
    }
}

impl fmt::Display for PlayerSpec {
    /// The text that parses back as this spec (`mcts:1000`, `mcts:2s`, `mcts:0.25s:d8`,
    /// `mcts:300:scaled`, `mcts:100:d200:planned`); the default cutoff is not written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Heuristic => f.write_str("heuristic"),
            PlayerSpec::Mcts {
                budget,
                cutoff,
                scaled,
                planned,
            } => {
                match budget {
                    Budget::Iterations(n) => write!(f, "mcts:{n}")?,
                    Budget::Time(t) => write!(f, "mcts:{}s", t.as_secs_f64())?,
                }
                match cutoff {
                    Cutoff::Auto => {}
                    Cutoff::Depth(d) => write!(f, ":d{d}")?,
                    Cutoff::End => f.write_str(":dend")?,
                }
                if *scaled {
                    f.write_str(":scaled")?;
                }
                if *planned {
                    f.write_str(":planned")?;
                }
                Ok(())
            }
        }
    }
}

/// A game's doctrine of play: the [`Policy`] written for that game, which makes its
/// heuristic player and guides its searches. The registry registers each game with its
/// doctrine, or with [`NoDoctrine`].
pub trait Doctrine<G: Game> {
    /// The game's policy; `None` if the game has none.
    fn policy() -> Option<Arc<dyn Policy<G>>>;

    /// The heuristic player ([`Heuristic`]), with its choices fixed by `seed`; `None` if the
    /// game has no policy.
    fn heuristic(seed: u64) -> Option<Box<dyn Player<G>>> {
        Self::policy().map(|p| Box::new(Heuristic::new(p, seed)) as Box<dyn Player<G>>)
    }
}

/// The doctrine of a game that has no heuristic player yet.
#[derive(Clone, Copy, Debug)]
pub struct NoDoctrine;

impl<G: Game> Doctrine<G> for NoDoctrine {
    fn policy() -> Option<Arc<dyn Policy<G>>> {
        None
    }
}

impl PlayerSpec {
    /// The player this spec names for game `G` (whose id is `game`, for messages), with its
    /// choices fixed by `seed`; the heuristic player comes from `D`, and a search is guided
    /// by `D`'s policy where there is one.
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
            PlayerSpec::Mcts {
                budget,
                cutoff,
                scaled,
                planned,
            } => {
                let mut mcts = Mcts::new(budget, seed);
                mcts.normalize = scaled;
                mcts.planned = planned;
                let policy = D::policy();
                mcts.playout_depth = cutoff.depth(policy.is_some());
                if policy.is_some() {
                    mcts.exploration = crate::mcts::GUIDED_EXPLORATION;
                }
                Ok(match policy {
                    Some(policy) => Box::new(GuidedMcts { mcts, policy }),
                    None => Box::new(mcts),
                })
            }
        }
    }

    /// Whether the same seed gives the same choices (every player but a search limited by
    /// time).
    pub fn is_deterministic(&self) -> bool {
        !matches!(
            self,
            PlayerSpec::Mcts {
                budget: Budget::Time(_),
                ..
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An unscaled search.
    fn mcts(budget: Budget, cutoff: Cutoff) -> PlayerSpec {
        PlayerSpec::Mcts {
            budget,
            cutoff,
            scaled: false,
            planned: false,
        }
    }

    #[test]
    fn specs_parse_and_print_back() {
        for (text, spec) in [
            ("random", PlayerSpec::Random),
            ("Heuristic", PlayerSpec::Heuristic),
            (
                "mcts",
                mcts(Budget::Iterations(DEFAULT_ITERATIONS), Cutoff::default()),
            ),
            ("mcts:250", mcts(Budget::Iterations(250), Cutoff::default())),
            (
                "mcts:2s",
                mcts(Budget::Time(Duration::from_secs(2)), Cutoff::default()),
            ),
            (
                "mcts:0.25s",
                mcts(Budget::Time(Duration::from_millis(250)), Cutoff::default()),
            ),
            (
                "mcts:250:d12",
                mcts(Budget::Iterations(250), Cutoff::Depth(12)),
            ),
            (
                "mcts:1s:d0",
                mcts(Budget::Time(Duration::from_secs(1)), Cutoff::Depth(0)),
            ),
            ("mcts:40:dend", mcts(Budget::Iterations(40), Cutoff::End)),
            (
                "mcts:300:scaled",
                PlayerSpec::Mcts {
                    budget: Budget::Iterations(300),
                    cutoff: Cutoff::Auto,
                    scaled: true,
                    planned: false,
                },
            ),
            (
                "mcts:100:d200:planned",
                PlayerSpec::Mcts {
                    budget: Budget::Iterations(100),
                    cutoff: Cutoff::Depth(200),
                    scaled: false,
                    planned: true,
                },
            ),
            (
                "mcts:1s:scaled:planned",
                PlayerSpec::Mcts {
                    budget: Budget::Time(Duration::from_secs(1)),
                    cutoff: Cutoff::Auto,
                    scaled: true,
                    planned: true,
                },
            ),
            (
                "mcts:2s:d4:scaled",
                PlayerSpec::Mcts {
                    budget: Budget::Time(Duration::from_secs(2)),
                    cutoff: Cutoff::Depth(4),
                    scaled: true,
                    planned: false,
                },
            ),
        ] {
            let parsed: PlayerSpec = text.parse().unwrap();
            assert_eq!(parsed, spec, "{text}");
            assert_eq!(parsed.to_string().parse::<PlayerSpec>().unwrap(), spec);
        }
        assert_eq!(
            mcts(Budget::Time(Duration::from_millis(1500)), Cutoff::default()).to_string(),
            "mcts:1.5s"
        );
        // An explicit cutoff is kept even where it equals a game's default.
        assert_eq!(
            "mcts:7:d4".parse::<PlayerSpec>().unwrap().to_string(),
            "mcts:7:d4"
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
            ("mcts:10:8", "playout cutoff"),
            ("mcts:10:d-1", "playout cutoff"),
            ("mcts:x:d3", "number of iterations"),
            (
                "mcts:10:scaled:d3",
                "at most a playout cutoff, then `scaled`, then `planned`",
            ),
            (
                "mcts:10:d3:d4",
                "at most a playout cutoff, then `scaled`, then `planned`",
            ),
            ("mcts:10:planned:scaled", "then `planned`"),
            ("mcts:10:planned:planned", "then `planned`"),
            (
                "mcts:10:scaled:scaled",
                "at most a playout cutoff, then `scaled`, then `planned`",
            ),
            ("", "unknown kind"),
        ] {
            let e = text.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
            assert!(e.contains("mcts:2s"), "lists the players: {e}");
        }
    }
}
