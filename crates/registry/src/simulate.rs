//! Batch simulation: many games of one scenario between AI players, in parallel, folded into
//! a [`Summary`] (wins per side and draws with 95% confidence intervals, outcomes by level of
//! victory, game length, the game's own [`Stat`]s).
//!
//! Game `i` of a batch of seed `S` is set up with the dice seed [`game_seed`]`(S, i)` and its
//! players with seeds derived from that, so a game is the same whichever thread plays it.
//! The `threads` threads take the games one at a time, in order, each its next game as soon as
//! it has finished one, so that no thread waits while games are left (only the last games of
//! the batch leave threads idle, as many as there are threads). Results are folded into the
//! summary in the games' order, so the summary is bit for bit the same at any thread count
//! (for players with an iteration budget; a time budget is not deterministic); a thread may
//! run at most [`WINDOW`] games ahead of the first game not yet folded, so memory does not
//! grow with the number of games.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

use ai::{Doctrine, PlayerSpec};

use crate::Plan;
use engine::{DataSet, Log, Pending, Seat, Setup, Startable, Stat};
use serde::{Deserialize, Serialize};

/// How far a thread may run ahead: game `i` starts only once every game up to `i - WINDOW` is
/// folded into the summary, so that at most this many results wait for a slower game. Only a
/// game that lasts as long as `WINDOW` games of the other threads makes a thread wait.
pub const WINDOW: u64 = 1024;

/// How many games, from which seed, on how many threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Games to play.
    pub games: u64,
    /// The seed every game's seeds derive from.
    pub seed: u64,
    /// Threads to play on (at least 1).
    pub threads: usize,
    /// Actions after which a game still going is stopped and counted unfinished.
    pub max_actions: u64,
}

impl Batch {
    /// The default cap on actions per game.
    pub const MAX_ACTIONS: u64 = 100_000;
}

/// A share of the games with its 95% confidence interval (Wilson score interval).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Proportion {
    /// How many games.
    pub count: u64,
    /// `count` over all games (0 when there are none).
    pub rate: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
}

impl Proportion {
    /// `count` out of `total`, with its Wilson interval (0-1 when `total` is 0).
    pub fn wilson(count: u64, total: u64) -> Self {
        if total == 0 {
            return Proportion {
                count,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        // The 97.5th percentile of the standard normal distribution.
        const Z: f64 = 1.959_963_984_540_054;
        let n = total as f64;
        let p = count as f64 / n;
        let z2 = Z * Z;
        let denominator = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / denominator;
        let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
        // The ends are exact at 0 and at `total`, where rounding would leave crumbs.
        Proportion {
            count,
            rate: p,
            low: if count == 0 {
                0.0
            } else {
                (centre - half).max(0.0)
            },
            high: if count >= total {
                1.0
            } else {
                (centre + half).min(1.0)
            },
        }
    }
}

/// One seat's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatSummary {
    /// The seat's name.
    pub seat: String,
    /// Its player, as a spec (`mcts:1000`).
    pub player: String,
    /// The games it won.
    pub wins: Proportion,
}

/// How many games ended one way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeCount {
    /// The winning seat; `None` for a draw.
    pub winner: Option<String>,
    /// The level of victory, where the scenario has levels.
    pub level: Option<String>,
    /// How many games.
    pub games: u64,
}

/// Game lengths, in actions (every seat's decisions).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Length {
    /// The mean.
    pub mean: f64,
    /// The shortest.
    pub min: u64,
    /// The median (the lower middle value for an even count).
    pub median: u64,
    /// The longest.
    pub max: u64,
    /// Games by length, in at most [`Length::BINS`] bins of equal width.
    pub histogram: Vec<Bin>,
}

impl Length {
    /// The most bins of [`Length::histogram`].
    pub const BINS: u64 = 20;
}

/// Games whose length is in `from..=to`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bin {
    /// The shortest length in the bin.
    pub from: u64,
    /// The longest length in the bin.
    pub to: u64,
    /// How many games.
    pub games: u64,
}

/// A game's [`Stat`] over the games that reported it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatSummary {
    /// Its name (`losses`).
    pub name: String,
    /// The seat it belongs to, if it is per seat.
    pub seat: Option<String>,
    /// How many games reported it.
    pub games: u64,
    /// Its mean.
    pub mean: f64,
    /// Its least value.
    pub min: f64,
    /// Its greatest value.
    pub max: f64,
}

/// What a batch found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The full scenario id.
    pub scenario: String,
    /// The options in use.
    pub options: Vec<String>,
    /// The batch's seed.
    pub seed: u64,
    /// Games played.
    pub games: u64,
    /// The cap on actions per game ([`Batch::max_actions`]).
    pub max_actions: u64,
    /// Whether the same seed gives the same summary (no player has a time budget).
    pub deterministic: bool,
    /// Per seat, in seat order: its player and its wins.
    pub seats: Vec<SeatSummary>,
    /// Games drawn.
    pub draws: Proportion,
    /// Games stopped at [`Batch::max_actions`] before they ended.
    pub unfinished: u64,
    /// Finished games by winner and level of victory, most frequent first.
    pub outcomes: Vec<OutcomeCount>,
    /// Game lengths (of every game, finished or not).
    pub length: Length,
    /// The game's own stats ([`engine::Game::stats`]), by name then seat.
    pub stats: Vec<StatSummary>,
}

/// What one game gave.
struct GameResult {
    winner: Option<Seat>,
    level: Option<String>,
    finished: bool,
    actions: u64,
    stats: Vec<Stat>,
}

/// A stat's running figures.
#[derive(Clone, Copy)]
struct StatTally {
    games: u64,
    sum: f64,
    min: f64,
    max: f64,
}

/// The summary being built, one game at a time, in game order.
struct Tally {
    games: u64,
    wins: Vec<u64>,
    draws: u64,
    unfinished: u64,
    outcomes: BTreeMap<(Option<u8>, Option<String>), u64>,
    /// Games by length: bounded by the cap on actions, not by the number of games.
    lengths: BTreeMap<u64, u64>,
    length_sum: u128,
    stats: BTreeMap<(String, Option<u8>), StatTally>,
}

impl Tally {
    fn new(seats: usize) -> Self {
        Tally {
            games: 0,
            wins: vec![0; seats],
            draws: 0,
            unfinished: 0,
            outcomes: BTreeMap::new(),
            lengths: BTreeMap::new(),
            length_sum: 0,
            stats: BTreeMap::new(),
        }
    }

    fn add(&mut self, r: GameResult) {
        self.games += 1;
        *self.lengths.entry(r.actions).or_default() += 1;
        self.length_sum += u128::from(r.actions);
        if !r.finished {
            self.unfinished += 1;
        } else {
            match r.winner {
                Some(w) => {
                    if let Some(n) = self.wins.get_mut(w.index()) {
                        *n += 1;
                    }
                }
                None => self.draws += 1,
            }
            *self
                .outcomes
                .entry((r.winner.map(|s| s.0), r.level))
                .or_default() += 1;
        }
        for s in r.stats {
            let t = self
                .stats
                .entry((s.name, s.seat.map(|s| s.0)))
                .or_insert(StatTally {
                    games: 0,
                    sum: 0.0,
                    min: f64::INFINITY,
                    max: f64::NEG_INFINITY,
                });
            t.games += 1;
            t.sum += s.value;
            t.min = t.min.min(s.value);
            t.max = t.max.max(s.value);
        }
    }

    fn length(&self) -> Length {
        let (Some((&min, _)), Some((&max, _))) = (
            self.lengths.first_key_value(),
            self.lengths.last_key_value(),
        ) else {
            return Length {
                mean: 0.0,
                min: 0,
                median: 0,
                max: 0,
                histogram: Vec::new(),
            };
        };
        let middle = (self.games - 1) / 2;
        let mut seen = 0;
        let mut median = min;
        for (&len, &n) in &self.lengths {
            seen += n;
            if seen > middle {
                median = len;
                break;
            }
        }
        let width = (max - min) / Length::BINS + 1;
        let mut histogram: Vec<Bin> = (0..=(max - min) / width)
            .map(|k| Bin {
                from: min + k * width,
                to: min + k * width + width - 1,
                games: 0,
            })
            .collect();
        for (&len, &n) in &self.lengths {
            histogram[((len - min) / width) as usize].games += n;
        }
        Length {
            mean: self.length_sum as f64 / self.games as f64,
            min,
            median,
            max,
            histogram,
        }
    }

    fn summary(
        &self,
        scenario: &str,
        options: &[String],
        batch: &Batch,
        seat_names: &[String],
        players: &[PlayerSpec],
    ) -> Summary {
        let name = |s: u8| {
            seat_names
                .get(usize::from(s))
                .cloned()
                .unwrap_or_else(|| "?".into())
        };
        let mut outcomes: Vec<OutcomeCount> = self
            .outcomes
            .iter()
            .map(|((winner, level), &games)| OutcomeCount {
                winner: winner.map(name),
                level: level.clone(),
                games,
            })
            .collect();
        // Most frequent first; the map's order (seat, then level) breaks ties.
        outcomes.sort_by_key(|o| std::cmp::Reverse(o.games));
        Summary {
            scenario: scenario.to_string(),
            options: options.to_vec(),
            seed: batch.seed,
            games: self.games,
            max_actions: batch.max_actions,
            deterministic: players.iter().all(PlayerSpec::is_deterministic),
            seats: seat_names
                .iter()
                .zip(players)
                .zip(&self.wins)
                .map(|((seat, player), &wins)| SeatSummary {
                    seat: seat.clone(),
                    player: player.to_string(),
                    wins: Proportion::wilson(wins, self.games),
                })
                .collect(),
            draws: Proportion::wilson(self.draws, self.games),
            unfinished: self.unfinished,
            outcomes,
            length: self.length(),
            stats: self
                .stats
                .iter()
                .map(|((stat, seat), t)| StatSummary {
                    name: stat.clone(),
                    seat: seat.map(name),
                    games: t.games,
                    mean: t.sum / t.games as f64,
                    min: t.min,
                    max: t.max,
                })
                .collect(),
        }
    }
}

/// SplitMix64's finaliser of `a` and `b`: unrelated outputs for nearby inputs.
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The dice seed of game `index` of a batch of seed `seed`: `crusades new SCENARIO --seed`
/// with it starts the same game.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed, index)
}

/// The seed of the player of `seat` in a game of dice seed `game_seed`.
pub fn player_seed(game_seed: u64, seat: Seat) -> u64 {
    mix(game_seed ^ 0x5EA7_5EA7_5EA7_5EA7, u64::from(seat.0) + 1)
}

/// Why a batch stopped.
#[derive(Debug, thiserror::Error)]
pub enum SimulateError {
    /// A player could not be made.
    #[error(transparent)]
    Player(#[from] ai::AiError),
    /// A game failed: a bug in the game or a player.
    #[error("game {index} (dice seed {seed}) failed: {message}")]
    Game {
        /// The game's index in the batch, from 0.
        index: u64,
        /// Its dice seed.
        seed: u64,
        /// What went wrong.
        message: String,
    },
}

/// Plays one game to its end or to `max_actions`.
fn play_one<G: Startable, D: Doctrine<G>>(
    id: &str,
    template: &Setup,
    players: &[PlayerSpec],
    data: &DataSet,
    seed: u64,
    max_actions: u64,
) -> Result<GameResult, String> {
    let mut setup = template.clone();
    setup.seed = seed;
    let mut state = G::start(&setup, data).map_err(|e| format!("cannot start: {e}"))?;
    let mut seats = Vec::with_capacity(players.len());
    for (i, spec) in players.iter().enumerate() {
        let seat = Seat(i as u8);
        seats.push(
            spec.build::<G, D>(id, player_seed(seed, seat))
                .map_err(|e| e.to_string())?,
        );
    }
    let mut actions = 0u64;
    let mut log = Log::discarding();
    loop {
        let seat = match state.pending() {
            Pending::Over => break,
            Pending::Seats(s) if s.is_empty() => {
                return Err(format!(
                    "after {actions} actions: no seat must decide and the game is not over"
                ))
            }
            Pending::Seats(s) => s[0],
        };
        if actions >= max_actions {
            return Ok(GameResult {
                winner: None,
                level: None,
                finished: false,
                actions,
                stats: state.stats(),
            });
        }
        let Some(player) = seats.get_mut(seat.index()) else {
            return Err(format!("seat {} must decide but has no player", seat.0));
        };
        let action = player.choose(&state, seat);
        // No copy of the state: a refused action ends the game with an error anyway.
        let applied = state
            .dice_mut()
            .begin_action(&[])
            .map_err(|e| e.to_string())
            .and_then(|()| {
                state
                    .apply(seat, &action, &mut log)
                    .map_err(|e| e.to_string())
            })
            .and_then(|_| state.dice_mut().end_action().map_err(|e| e.to_string()));
        if let Err(why) = applied {
            return Err(format!(
                "after {actions} actions: the player of seat {} chose `{}`, which was refused: {why}",
                seat.0,
                state.action_text(&action)
            ));
        }
        actions += 1;
    }
    let outcome = state
        .outcome()
        .ok_or_else(|| format!("the game is over after {actions} actions but has no outcome"))?;
    Ok(GameResult {
        winner: outcome.winner,
        level: outcome.level,
        finished: true,
        actions,
        stats: state.stats(),
    })
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// The results folded so far, and those waiting for a game before them.
struct Fold {
    tally: Tally,
    /// The first game not yet folded.
    next: u64,
    /// Results of games after `next`, by index.
    waiting: BTreeMap<u64, GameResult>,
    /// The first game that failed, with what went wrong.
    failed: Option<(u64, String)>,
}

impl Fold {
    /// Adds the result of game `index`, folding every result now in order.
    fn add(&mut self, index: u64, result: GameResult) {
        self.waiting.insert(index, result);
        while let Some(r) = self.waiting.remove(&self.next) {
            self.tally.add(r);
            self.next += 1;
        }
    }
}

/// Plays the batch of `plan` of game `G` (registered as `id`), calling `progress` once per
/// game played, from any thread.
pub(crate) fn simulate_games<G: Startable, D: Doctrine<G>>(
    id: &str,
    plan: &Plan,
    data: &DataSet,
    progress: &(dyn Fn() + Sync),
) -> Result<Summary, SimulateError> {
    let (template, players, batch) = (&plan.setup, plan.players.as_slice(), &plan.batch);
    // Every player must exist for this game before anything is played.
    for (i, spec) in players.iter().enumerate() {
        spec.build::<G, D>(id, i as u64)?;
    }
    let workers = batch.threads.max(1).min(batch.games.max(1) as usize);
    let fold = Mutex::new(Fold {
        tally: Tally::new(plan.seats.len()),
        next: 0,
        waiting: BTreeMap::new(),
        failed: None,
    });
    // Signalled whenever a game is done: the window may have moved on, or a game failed.
    let done = Condvar::new();
    let next = AtomicU64::new(0);
    let lock = || -> MutexGuard<'_, Fold> { fold.lock().unwrap_or_else(|e| e.into_inner()) };
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= batch.games {
            break;
        }
        {
            let mut f = lock();
            loop {
                // After a failure only the games before it are played, so that the failure
                // reported is the batch's first at any thread count.
                if f.failed.as_ref().is_some_and(|(k, _)| *k < i) {
                    return;
                }
                if i < f.next + WINDOW {
                    break;
                }
                f = done.wait(f).unwrap_or_else(|e| e.into_inner());
            }
        }
        let seed = game_seed(batch.seed, i);
        let result = catch_unwind(AssertUnwindSafe(|| {
            play_one::<G, D>(id, template, players, data, seed, batch.max_actions)
        }))
        .unwrap_or_else(|p| Err(format!("panicked: {}", panic_text(p.as_ref()))));
        {
            let mut f = lock();
            match result {
                Ok(r) => f.add(i, r),
                Err(message) => {
                    if f.failed.as_ref().is_none_or(|(k, _)| i < *k) {
                        f.failed = Some((i, message));
                    }
                }
            }
        }
        done.notify_all();
        progress();
    };
    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(work);
        }
        work();
    });
    let fold = fold.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some((index, message)) = fold.failed {
        return Err(SimulateError::Game {
            index,
            seed: game_seed(batch.seed, index),
            message,
        });
    }
    debug_assert_eq!(fold.next, batch.games, "every game was folded");
    let tally = fold.tally;
    Ok(tally.summary(
        &plan.scenario,
        &template.options,
        batch,
        &plan.seats,
        players,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_folded_in_the_games_order_whatever_order_they_come_in() {
        let result = |actions| GameResult {
            winner: None,
            level: None,
            finished: true,
            actions,
            stats: Vec::new(),
        };
        let mut fold = Fold {
            tally: Tally::new(2),
            next: 0,
            waiting: BTreeMap::new(),
            failed: None,
        };
        let mut seen = Vec::new();
        for i in [2, 0, 1, 4, 3] {
            fold.add(i, result(10 + i));
            seen.push((fold.next, fold.waiting.len()));
        }
        assert_eq!(seen, [(0, 1), (1, 1), (3, 0), (3, 1), (5, 0)]);
        let length = fold.tally.length();
        assert_eq!((length.min, length.max, length.median), (10, 14, 12));
    }

    #[test]
    fn wilson_intervals_match_published_values() {
        // Newcombe, "Two-sided confidence intervals for the single proportion" (Statistics
        // in Medicine, 1998), table I, method 3 (Wilson score), to four places.
        for (count, total, low, high) in [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ] {
            let p = Proportion::wilson(count, total);
            assert!((p.low - low).abs() < 1e-4, "{count}/{total}: {p:?}");
            assert!((p.high - high).abs() < 1e-4, "{count}/{total}: {p:?}");
            assert_eq!(p.rate, count as f64 / total as f64);
        }
        let all = Proportion::wilson(10, 10);
        assert!((all.low - 0.7225).abs() < 1e-4, "{all:?}");
        assert_eq!((Proportion::wilson(0, 3).low, all.high), (0.0, 1.0));
        assert_eq!(Proportion::wilson(0, 0).high, 1.0);
    }

    #[test]
    fn lengths_give_median_and_bins_that_cover_every_game() {
        let mut t = Tally::new(2);
        for (i, len) in [10u64, 12, 12, 50, 200, 11, 13].into_iter().enumerate() {
            t.add(GameResult {
                winner: Some(Seat((i % 2) as u8)),
                level: None,
                finished: true,
                actions: len,
                stats: vec![Stat::seat("losses", Seat(0), len as f64)],
            });
        }
        let l = t.length();
        assert_eq!((l.min, l.median, l.max), (10, 12, 200));
        assert!((l.mean - 308.0 / 7.0).abs() < 1e-9);
        assert!(l.histogram.len() <= Length::BINS as usize);
        assert_eq!(l.histogram.iter().map(|b| b.games).sum::<u64>(), 7);
        assert_eq!(l.histogram[0].from, 10);
        assert!(l.histogram.last().unwrap().to >= 200);
        for w in l.histogram.windows(2) {
            assert!(w[0].to < w[1].from);
        }
        let s = t.summary(
            "x/y",
            &[],
            &Batch {
                games: 7,
                seed: 1,
                threads: 1,
                max_actions: 1_000,
            },
            &["a".into(), "b".into()],
            &[PlayerSpec::Random, PlayerSpec::Random],
        );
        assert_eq!(s.seats[0].wins.count, 4);
        assert_eq!(s.seats[1].wins.count, 3);
        assert_eq!(s.stats[0].seat.as_deref(), Some("a"));
        assert_eq!((s.stats[0].min, s.stats[0].max), (10.0, 200.0));
    }

    #[test]
    fn seeds_differ_by_game_and_by_seat() {
        let a = game_seed(1, 0);
        assert_ne!(a, game_seed(1, 1));
        assert_ne!(a, game_seed(2, 0));
        assert_ne!(player_seed(a, Seat(0)), player_seed(a, Seat(1)));
        assert_ne!(player_seed(a, Seat(0)), a);
    }
}
