//! A session: one game in play, with its record and its full event log.
//!
//! Every action goes through [`Session::act`] (or [`Session::act_action`]): it is checked
//! against the pending seats, applied to a copy of the state with the dice entered for it, and
//! kept only if the rules accepted it and the dice matched; then the copy replaces the state
//! and the action is appended to the [`GameRecord`]. Loading a record replays every action
//! through the same path and checks the final state hash, so that an edited or damaged save
//! is refused rather than silently played on.
//!
//! [`Session::view`] is the one way state and log leave the engine for a player: it holds
//! the game's own view for the viewer and the events that viewer may see.

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::data::{DataErrors, DataSet};
use crate::dice::DiceError;
use crate::event::{visible_events, Event, Log};
use crate::game::{Game, Outcome, Pending, Rejection, Seat, Setup, Startable, Viewer};
use crate::record::{state_hash, GameRecord, RecordError, RecordedAction};

/// A game in play: the state, the state it started from, its record and every event so far.
#[derive(Clone, Debug)]
pub struct Session<G: Startable> {
    initial: G,
    state: G,
    record: GameRecord,
    events: Vec<Event>,
}

/// What one viewer may see: the game's view, whose decision it is, the viewer's own legal
/// actions and the events the viewer may see. The one payload a player or client receives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatView<V> {
    /// The game's id.
    pub game: String,
    /// The scenario id.
    pub scenario: String,
    /// Who is looking.
    pub viewer: Viewer,
    /// Seat names, in seat order.
    pub seats: Vec<String>,
    /// Who must decide now.
    pub pending: Pending,
    /// The viewing seat's legal actions now, in notation (empty for spectators and for seats
    /// that need not decide).
    pub actions: Vec<String>,
    /// How the game ended, once it has.
    pub outcome: Option<Outcome>,
    /// The game's view of its state for this viewer.
    pub state: V,
    /// Every event so far that this viewer may see, oldest first.
    pub log: Vec<Event>,
}

/// Why an action was not taken. The session is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActError {
    /// The text is not an action of this game.
    #[error("`{text}` is not an action: {reason}")]
    Parse {
        /// The text given.
        text: String,
        /// What the game's parser said.
        reason: String,
    },
    /// The seat number is not one of the game's seats.
    #[error("there is no seat {0} in this game")]
    NoSuchSeat(u8),
    /// The seat is not among those who must decide now.
    #[error("not your decision: waiting for {waiting}")]
    NotPending {
        /// The seat that tried to act.
        seat: String,
        /// The seats that must decide, by name.
        waiting: String,
    },
    /// The game is over.
    #[error("the game is over: {reason}")]
    GameOver {
        /// Why it ended.
        reason: String,
    },
    /// The rules refused the action.
    #[error("illegal action `{action}`: {rejection}")]
    Rejected {
        /// The action, in notation.
        action: String,
        /// The rules' reason.
        rejection: Rejection,
    },
    /// The entered dice do not fit the action.
    #[error("dice: {0}")]
    Dice(#[from] DiceError),
    /// The game's notation does not read back as the same action: a bug in the game, since
    /// the record could not be replayed.
    #[error("bug in the game: action {debug} prints as `{text}`, which does not read back as the same action ({reread})")]
    Notation {
        /// The action, debug-printed.
        debug: String,
        /// Its notation.
        text: String,
        /// What parsing the notation gave.
        reread: String,
    },
}

impl ActError {
    /// Whether the error is the player's (bad text, not their turn, an illegal action, wrong
    /// dice), as opposed to a bug. The command line exits with 2 for these.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, ActError::Notation { .. })
    }
}

/// Why a session could not be started or a record could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The game could not be set up from the data.
    #[error("cannot start the game:\n{0}")]
    Start(DataErrors),
    /// The record is not one this game reads.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// An action of the record names an unknown seat, does not parse, or is refused.
    #[error("action {number} of the record (`{action}` by {seat}) cannot be replayed: {reason}")]
    Replay {
        /// The action's number, from 1.
        number: usize,
        /// Its seat, as recorded.
        seat: String,
        /// Its notation, as recorded.
        action: String,
        /// Why it failed.
        reason: String,
    },
    /// Every action replayed, but the game reached is not the one saved.
    #[error("the replayed game differs from the saved one: its state hash is {found}, the record says {expected}{}",
        if *data_changed { " (the game's data files have changed since it was saved)" } else { " (edited or damaged save?)" })]
    HashMismatch {
        /// The hash in the record.
        expected: String,
        /// The hash of the replayed state.
        found: String,
        /// Whether the data version differs from the record's.
        data_changed: bool,
    },
}

/// Why an undo was refused. The session is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum UndoError {
    /// No action has been taken.
    #[error("nothing to undo: no action has been taken")]
    Nothing,
    /// The last action is another seat's.
    #[error("cannot undo: the last action (`{action}`) was taken by {by}, not by {seat}")]
    NotYours {
        /// The last action.
        action: String,
        /// Its seat.
        by: String,
        /// The seat asking.
        seat: String,
    },
    /// The last action cannot be taken back.
    #[error("cannot undo `{action}`: it {why}; undo goes back only to the last die roll, reveal of hidden information or change of deciding seat")]
    Barrier {
        /// The last action.
        action: String,
        /// What it did that cannot be taken back.
        why: String,
    },
    /// Rebuilding the game failed: a bug, since every action replayed before.
    #[error("cannot undo: {0}")]
    Replay(#[from] SessionError),
}

impl UndoError {
    /// Whether the refusal is the player's (nothing to undo, not theirs, past a barrier), as
    /// opposed to a bug.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, UndoError::Replay(_))
    }
}

/// One action applied to a copy of a state.
struct Step<G> {
    state: G,
    events: Vec<Event>,
    recorded: RecordedAction,
}

/// Checks that `seat` is one of the seats that must decide now, returning who must decide.
fn check_pending<G: Game>(state: &G, seat: Seat) -> Result<Pending, ActError> {
    let seats = state.facts().seats;
    if seat.index() >= seats.len() {
        return Err(ActError::NoSuchSeat(seat.0));
    }
    let pending = state.pending();
    match &pending {
        Pending::Seats(p) if p.contains(&seat) => Ok(pending),
        Pending::Seats(p) => Err(ActError::NotPending {
            seat: seats[seat.index()].clone(),
            waiting: if p.is_empty() {
                "no seat".into()
            } else {
                p.iter()
                    .map(|s| seats.get(s.index()).map_or("?", String::as_str))
                    .collect::<Vec<_>>()
                    .join(" and ")
            },
        }),
        Pending::Over => Err(ActError::GameOver {
            reason: state
                .outcome()
                .map(|o| o.reason)
                .unwrap_or_else(|| "no seat has a decision to make".into()),
        }),
    }
}

/// The one path by which an action changes a game: checks the seat is pending, applies the
/// action to a copy with the entered dice, and checks the dice were used exactly.
fn step<G: Game>(
    state: &G,
    seat: Seat,
    action: &G::Action,
    entered: &[u8],
) -> Result<Step<G>, ActError> {
    let before = check_pending(state, seat)?;
    let facts = state.facts();
    let name = |s: Seat| facts.seats[s.index()].clone();
    let text = state.action_text(action);
    match state.parse_action(&text) {
        Ok(back) if back == *action => {}
        other => {
            return Err(ActError::Notation {
                debug: format!("{action:?}"),
                text,
                reread: match other {
                    Ok(back) => format!("{back:?}"),
                    Err(e) => e,
                },
            })
        }
    }
    let mut next = state.clone();
    next.dice_mut().begin_action(entered)?;
    let mut log = Log::recording();
    let applied = next
        .apply(seat, action, &mut log)
        .map_err(|rejection| ActError::Rejected {
            action: text.clone(),
            rejection,
        })?;
    next.dice_mut().end_action()?;
    let rolled = next.dice().rolled().to_vec();
    let undo_barrier = !rolled.is_empty() || applied.revealed || next.pending() != before;
    Ok(Step {
        state: next,
        events: log.take(),
        recorded: RecordedAction {
            seat: name(seat),
            action: text,
            dice: entered.to_vec(),
            rolled,
            undo_barrier,
        },
    })
}

/// Replays `actions` from `initial`, returning the state, the events and the actions as
/// recomputed (dice read, undo barriers). Fails at the first action that does not replay or
/// whose recorded dice read or barrier differ from the replay's.
fn replay<G: Game>(
    initial: &G,
    actions: &[RecordedAction],
) -> Result<(G, Vec<Event>, Vec<RecordedAction>), SessionError> {
    let seats = initial.facts().seats;
    let mut state = initial.clone();
    let mut events = Vec::new();
    let mut done = Vec::with_capacity(actions.len());
    for (i, a) in actions.iter().enumerate() {
        let fail = |reason: String| SessionError::Replay {
            number: i + 1,
            seat: a.seat.clone(),
            action: a.action.clone(),
            reason,
        };
        let seat = seats.iter().position(|s| *s == a.seat).ok_or_else(|| {
            fail(format!(
                "no seat is called `{}` (seats: {})",
                a.seat,
                seats.join(", ")
            ))
        })?;
        let action: G::Action = state.parse_action(&a.action).map_err(fail)?;
        let s =
            step(&state, Seat(seat as u8), &action, &a.dice).map_err(|e| fail(e.to_string()))?;
        if s.recorded.rolled != a.rolled {
            return Err(fail(format!(
                "the record says it rolled {:?} but it rolls {:?}",
                a.rolled, s.recorded.rolled
            )));
        }
        if s.recorded.undo_barrier != a.undo_barrier {
            return Err(fail(format!(
                "the record marks it {} undo barrier but it is {}",
                if a.undo_barrier { "an" } else { "not an" },
                if s.recorded.undo_barrier {
                    "one"
                } else {
                    "not one"
                }
            )));
        }
        state = s.state;
        events.extend(s.events);
        done.push(s.recorded);
    }
    Ok((state, events, done))
}

impl<G: Startable> Session<G> {
    /// A new game of `game_id` set up as `setup` says from `data`. The record's data version
    /// is that of the files under `game_id/`. Fails if the data do not set up a game, or if
    /// the game started is not `game_id`.
    pub fn new(setup: Setup, data: &DataSet, game_id: &str) -> Result<Self, SessionError> {
        let initial = G::start(&setup, data).map_err(SessionError::Start)?;
        let actual = initial.facts().game;
        if actual != game_id {
            return Err(RecordError::WrongGame {
                expected: game_id.to_string(),
                found: actual,
            }
            .into());
        }
        let record = GameRecord::new(
            game_id,
            &setup,
            &data.version(&format!("{game_id}/")),
            state_hash(&initial),
        );
        Ok(Session {
            state: initial.clone(),
            initial,
            record,
            events: Vec::new(),
        })
    }

    /// A game rebuilt from its record: started as the record says, every action replayed
    /// through the same path as [`Session::act`], and the final state hash checked against
    /// the record's. Refuses a record of another game or format, an action that no longer
    /// replays (naming it and why), and a game that replays to another state.
    ///
    /// The record's data version is updated to the current data's when everything matched.
    pub fn from_record(mut record: GameRecord, data: &DataSet) -> Result<Self, SessionError> {
        if record.format != GameRecord::FORMAT {
            return Err(RecordError::WrongFormat {
                found: record.format.into(),
                supported: GameRecord::FORMAT,
            }
            .into());
        }
        let initial = G::start(&record.setup(), data).map_err(SessionError::Start)?;
        record.expect_game(&initial.facts().game)?;
        let (state, events, _) = replay(&initial, &record.actions)?;
        let found = state_hash(&state);
        let data_version = data.version(&format!("{}/", record.game));
        if found != record.state_hash {
            return Err(SessionError::HashMismatch {
                expected: record.state_hash.clone(),
                found,
                data_changed: data_version != record.data_version,
            });
        }
        record.data_version = data_version;
        Ok(Session {
            initial,
            state,
            record,
            events,
        })
    }

    /// Takes an action given in the game's notation, with the dice entered for it (manual
    /// dice; empty otherwise). Returns the action's events that `seat` may see. On any error
    /// the session is unchanged.
    pub fn act(
        &mut self,
        seat: Seat,
        action_text: &str,
        entered_dice: &[u8],
    ) -> Result<Vec<Event>, ActError> {
        // Whose decision it is is checked first: it is the more useful message.
        check_pending(&self.state, seat)?;
        let text = action_text.trim();
        let action: G::Action =
            self.state
                .parse_action(text)
                .map_err(|reason| ActError::Parse {
                    text: text.to_string(),
                    reason,
                })?;
        self.act_action(seat, &action, entered_dice)
    }

    /// Takes an action (for programs: AI, server). As [`Session::act`].
    pub fn act_action(
        &mut self,
        seat: Seat,
        action: &G::Action,
        entered_dice: &[u8],
    ) -> Result<Vec<Event>, ActError> {
        let s = step(&self.state, seat, action, entered_dice)?;
        let visible = visible_events(&s.events, Viewer::Seat(seat))
            .into_iter()
            .cloned()
            .collect();
        self.state = s.state;
        self.events.extend(s.events);
        self.record.actions.push(s.recorded);
        self.record.state_hash = state_hash(&self.state);
        Ok(visible)
    }

    /// Takes back the last action, if `seat` took it and it was not an undo barrier, and
    /// rebuilds the game by replaying the rest. Undo goes back to the last die roll, reveal
    /// of hidden information, or change of deciding seat, never past one. Returns the action
    /// taken back.
    pub fn undo(&mut self, seat: Seat) -> Result<RecordedAction, UndoError> {
        let last = self.record.actions.last().ok_or(UndoError::Nothing)?;
        let name = self.seat_name(seat);
        if last.seat != name {
            return Err(UndoError::NotYours {
                action: last.action.clone(),
                by: last.seat.clone(),
                seat: name.to_string(),
            });
        }
        if last.undo_barrier {
            let why = if last.rolled.is_empty() {
                "revealed hidden information or changed whose decision it is".to_string()
            } else {
                format!(
                    "rolled dice ({})",
                    last.rolled
                        .iter()
                        .map(u8::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            return Err(UndoError::Barrier {
                action: last.action.clone(),
                why,
            });
        }
        let keep = &self.record.actions[..self.record.actions.len() - 1];
        let (state, events, _) = replay(&self.initial, keep)?;
        self.state = state;
        self.events = events;
        let undone = self.record.actions.pop().expect("checked above");
        self.record.state_hash = state_hash(&self.state);
        Ok(undone)
    }

    /// What `viewer` may see: the game's view, the pending seats, the viewer's legal actions
    /// and the events the viewer may see. The one function through which state and log leave
    /// the engine for players and clients.
    pub fn view(&self, viewer: Viewer) -> SeatView<G::View> {
        let facts = self.state.facts();
        let actions = match viewer {
            Viewer::Seat(s) => self
                .state
                .legal_actions(s)
                .iter()
                .map(|a| self.state.action_text(a))
                .collect(),
            Viewer::Spectator => Vec::new(),
        };
        SeatView {
            game: facts.game,
            scenario: self.record.scenario.clone(),
            viewer,
            seats: facts.seats,
            pending: self.state.pending(),
            actions,
            outcome: self.state.outcome(),
            state: self.state.view(viewer),
            log: visible_events(&self.events, viewer)
                .into_iter()
                .cloned()
                .collect(),
        }
    }

    /// Every event so far that `viewer` may see, oldest first: the log of [`Session::view`],
    /// without building the rest of the view (the server's documents ask for it often).
    pub fn visible_log(&self, viewer: Viewer) -> Vec<&Event> {
        visible_events(&self.events, viewer)
    }

    /// The map and counters as `viewer` sees them, for renderers (filtered by the game as its
    /// view is).
    pub fn board(&self, viewer: Viewer) -> Board {
        self.state.board(viewer)
    }

    /// The record: how the game started and every action, secret ones included. For saving;
    /// never show it to a player.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The full state, hidden information included. For rules tests and checks; players see
    /// [`Session::view`].
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The hash of the current state (as stored in the record).
    pub fn state_hash(&self) -> &str {
        &self.record.state_hash
    }

    /// Saves the record atomically to `path`.
    pub fn save(&self, path: &std::path::Path) -> Result<(), RecordError> {
        self.record.save(path)
    }

    /// The name of a seat, or `?` for a seat the game does not have.
    pub fn seat_name(&self, seat: Seat) -> String {
        self.state
            .facts()
            .seats
            .get(seat.index())
            .cloned()
            .unwrap_or_else(|| "?".into())
    }

    /// The seat of this name (ASCII case ignored).
    pub fn seat_named(&self, name: &str) -> Option<Seat> {
        self.state
            .facts()
            .seats
            .iter()
            .position(|s| s.eq_ignore_ascii_case(name))
            .map(|i| Seat(i as u8))
    }
}
