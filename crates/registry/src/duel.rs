//! Duels: one game between two AI players, judged by the game's evaluation when it is cut
//! short. Issue 5's strength measurement plays them in pairs (the `strength` example): each
//! pair plays one dice seed twice with the players' seats swapped, so that luck and a
//! scenario's balance cancel out.

use std::time::Instant;

use ai::{Doctrine, PlayerSpec};
use engine::{DataSet, DiceMode, Log, Pending, Seat, Setup, Startable};
use serde::{Deserialize, Serialize};

use crate::simulate::player_seed;

/// How far from even (0.5) the evaluation of a game cut short must be for a win or a loss;
/// closer, it is a draw.
pub const JUDGE_MARGIN: f64 = 0.02;

/// One game between two players to play ([`crate::GameEntry::duel`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Duel {
    /// The scenario's own id within its game (`hab`), and its options.
    pub setup: Setup,
    /// The first-named player, whose result the duel reports.
    pub first: PlayerSpec,
    /// Its opponent.
    pub second: PlayerSpec,
    /// The seat of the first-named player (the other seat is the opponent's).
    pub first_seat: Seat,
    /// The game is judged once the game's `turns` statistic exceeds this (after this many
    /// turns); 0 plays to the end.
    pub turns: u32,
    /// The game is judged after this many actions, whatever its turn (a player that could
    /// stall forever must not hang a measurement).
    pub max_actions: u64,
}

/// How a duel went, for its first-named player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DuelResult {
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    pub points: f64,
    /// Whether the game reached its end (not judged by the evaluation).
    pub finished: bool,
    /// The first-named player's evaluation of the final state (its score when finished).
    pub evaluation: f64,
    /// Actions played.
    pub actions: u64,
    /// The game's `turns` statistic at the end (0 if it has none).
    pub turns: f64,
    /// Decisions of the first-named player and of its opponent.
    pub decisions: [u64; 2],
    /// Seconds the first-named player and its opponent took to decide, in all.
    pub seconds: [f64; 2],
}

/// The points of a game for a seat whose evaluation of it is `evaluation` (see
/// [`JUDGE_MARGIN`]).
pub fn judge(evaluation: f64) -> f64 {
    if evaluation > 0.5 + JUDGE_MARGIN {
        1.0
    } else if evaluation < 0.5 - JUDGE_MARGIN {
        0.0
    } else {
        0.5
    }
}

/// The game's `turns` statistic, the turn in play (0 if the game keeps none).
fn turns_of<G: Startable>(state: &G) -> f64 {
    state
        .stats()
        .iter()
        .find(|s| s.seat.is_none() && s.name == "turns")
        .map_or(0.0, |s| s.value)
}

/// Plays `duel` of game `G` (registered as `id`) with dice seed `dice`.
pub(crate) fn play_duel<G: Startable, D: Doctrine<G>>(
    id: &str,
    duel: &Duel,
    data: &DataSet,
    dice: u64,
) -> Result<DuelResult, String> {
    let mut setup = duel.setup.clone();
    setup.seed = dice;
    setup.dice = DiceMode::Seeded;
    let mut state = G::start(&setup, data).map_err(|e| format!("cannot start: {e}"))?;
    let seats = state.facts().seats.len();
    if seats != 2 {
        return Err(format!(
            "a duel needs a scenario of two seats, and this one has {seats}"
        ));
    }
    let (a, b) = (duel.first_seat, Seat(1 - duel.first_seat.0.min(1)));
    let mut players = [(a, duel.first), (b, duel.second)];
    players.sort_by_key(|(seat, _)| *seat);
    let mut players = players
        .into_iter()
        .map(|(seat, spec)| spec.build::<G, D>(id, player_seed(dice, seat)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let mut decisions = [0u64; 2];
    let mut seconds = [0f64; 2];
    let mut actions = 0u64;
    while let Pending::Seats(deciding) = state.pending() {
        let Some(&seat) = deciding.first() else {
            return Err(format!(
                "after {actions} actions: no seat must decide and the game is not over"
            ));
        };
        if actions >= duel.max_actions
            || (duel.turns > 0 && turns_of(&state) > f64::from(duel.turns))
        {
            break;
        }
        let who = usize::from(seat != a);
        let started = Instant::now();
        let action = players[seat.index()].choose(&state, seat);
        seconds[who] += started.elapsed().as_secs_f64();
        decisions[who] += 1;
        state
            .apply(seat, &action, &mut Log::discarding())
            .map_err(|e| {
                format!(
                    "after {actions} actions: seat {} chose `{}`, which was refused: {e}",
                    seat.0,
                    state.action_text(&action)
                )
            })?;
        actions += 1;
    }
    let (points, finished, evaluation) = match state.outcome() {
        Some(o) => (o.score(a), true, o.score(a)),
        None => {
            let v = state.evaluate(a);
            (judge(v), false, v)
        }
    };
    Ok(DuelResult {
        points,
        finished,
        evaluation,
        actions,
        turns: turns_of(&state),
        decisions,
        seconds,
    })
}
