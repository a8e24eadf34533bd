//! The shared checks every game runs from its tests (STYLE.md, lesson 13): random games to
//! the end, legality, replay and secrecy.
//!
//! [`random_games`] plays games with actions chosen at random from `legal_actions` by a
//! generator of its own (never the game's dice, which it must not disturb) and checks, at
//! every step, the contract of [`Game`]:
//!
//! - a pending seat has legal actions, and a seat that is not pending has none;
//! - every legal action's notation reads back as the same action;
//! - every legal action is accepted (through a [`Session`], with dice entered in manual mode);
//! - an earlier action that is not legal now is refused and changes nothing, unless the game
//!   documents it as a shorthand ([`RandomGames::shorthand`]) and it is exactly one: the same
//!   state as a listed action followed by it;
//! - for a game that says so ([`Game::REFUSES_UNCHANGED`]), an earlier action applied to the
//!   state itself, if refused, leaves it as it was;
//! - an action that can be undone is undone to the state before it, and taken again to the
//!   state after it;
//! - a re-sampled state ([`Game::determinize`]) for any seat looks
//!   the same to that seat: same view, same legal actions, same pending seats;
//! - a finished game has an outcome; each game ends within the cap;
//! - views serialise for every viewer, the board renders, and the saved record loads,
//!   replays and reaches the same state hash.
//!
//! [`secrecy_check`] looks for forbidden strings in what viewers are sent.
//!
//! [`GoldenWalk`], [`fnv`] and [`assert_golden`] make the golden playthroughs with which each
//! game pins its legal-action lists (and what they lead to) while its rules are sped up.

use std::fmt;

use rand_core::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::data::DataSet;
use crate::dice::{DiceError, DiceMode};
use crate::event::Event;
use crate::game::{Game, Pending, Seat, Setup, Startable, Viewer};
use crate::record::GameRecord;
use crate::session::{ActError, Session};

/// A check that failed: which game (by seed) and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckFailure {
    /// The seed of the random game that failed, if the check plays games.
    pub seed: Option<u64>,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.seed {
            Some(seed) => write!(f, "seed {seed}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for CheckFailure {}

/// How to run [`RandomGames::run`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomGames {
    /// How many games to play; game `i` uses seed `first_seed + i` for both the game's dice
    /// and (mixed) the chooser.
    pub games: usize,
    /// The most actions a game may take.
    pub max_actions: usize,
    /// The seed of the first game.
    pub first_seed: u64,
    /// Whether a game still going at `max_actions` is allowed (counted in
    /// [`RandomGamesReport::capped`]) rather than a failure.
    pub allow_cap: bool,
    /// Whether to try earlier actions that are not legal now and check they are refused.
    /// Turn off only for a game that also accepts actions it does not list (explicit paths
    /// where a canonical one is listed).
    pub probe_illegal: bool,
    /// Whether the game's notation documents shorthands: an action not listed now that a
    /// game accepts as two listed actions in one (Crusades II: `move UNIT HEX FACING` with no
    /// unit selected stands for `select UNIT` and then that move). An earlier action that is
    /// not listed but accepted then passes only if it is exactly such a shorthand: applied
    /// without dice, it reaches the same state (hash) as some listed action followed by it,
    /// listed after that one. Any other unlisted action must still be refused.
    pub shorthand: bool,
    /// Try an undo after one in this many undoable actions (0: never).
    pub undo_every: u32,
    /// Check [`Game::determinize`] before one in this many
    /// actions (0: never), with a generator of its own so that the games played do not
    /// depend on it.
    pub determinize_every: u32,
}

impl RandomGames {
    /// `games` games of at most `max_actions` actions from seed 0, with every check on.
    pub fn new(games: usize, max_actions: usize) -> Self {
        RandomGames {
            games,
            max_actions,
            first_seed: 0,
            allow_cap: false,
            probe_illegal: true,
            shorthand: false,
            undo_every: 8,
            determinize_every: 32,
        }
    }
}

/// What [`random_games`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RandomGamesReport {
    /// Games played.
    pub games: usize,
    /// Actions taken in all games.
    pub actions: usize,
    /// Games played to the end.
    pub finished: usize,
    /// Games stopped at the cap (only with [`RandomGames::allow_cap`]).
    pub capped: usize,
    /// Illegal actions tried and refused.
    pub refused: usize,
    /// Unlisted actions tried and accepted as documented shorthands
    /// ([`RandomGames::shorthand`]), each checked to be one.
    pub shorthands: usize,
    /// Undos taken and redone.
    pub undos: usize,
    /// Re-sampled states checked against the original.
    pub determinized: usize,
}

/// Plays `games` random games from `setup_template` (seeds `0..games`) with every check of
/// [`RandomGames`]; panics with the seed and the reason at the first failure.
pub fn random_games<G: Startable>(
    setup_template: &Setup,
    data: &DataSet,
    games: usize,
    max_actions: usize,
) -> RandomGamesReport {
    match RandomGames::new(games, max_actions).run::<G>(setup_template, data) {
        Ok(report) => report,
        Err(e) => panic!("random games: {e}"),
    }
}

/// Mixed into the seed of the chooser so that it is not the dice's generator.
const CHOOSER_SALT: u64 = 0x9E37_79B9_7F4A_7C15;
/// Mixed into the seed of the generator that re-samples states.
const WORLD_SALT: u64 = 0xD1B5_4A32_D192_ED03;
/// Mixed into the seed of the generator that picks the actions tried on the state itself
/// ([`Game::REFUSES_UNCHANGED`]), so that the games played do not depend on it.
const REFUSAL_SALT: u64 = 0x94D0_49BB_1331_11EB;

/// Checks that `state.determinize(seat)` keeps everything `seat` sees: its view (as JSON),
/// its legal actions and their descriptions, the pending seats and the facts.
fn check_determinize<G: Game>(state: &G, seat: Seat, rng: &mut Pcg64Mcg) -> Result<(), String> {
    let world = state.determinize(seat, rng);
    let facts = state.facts();
    let name = facts
        .seats
        .get(seat.index())
        .map_or("?", String::as_str)
        .to_string();
    let what = if world.facts() != facts {
        "the facts"
    } else if world.pending() != state.pending() {
        "who must decide"
    } else if world.legal_actions(seat) != state.legal_actions(seat) {
        "its legal actions"
    } else if describe_all(&world, seat) != describe_all(state, seat) {
        "the descriptions of its legal actions"
    } else {
        let json = |g: &G| serde_json::to_value(g.view(Viewer::Seat(seat))).ok();
        let before = json(state);
        if before.is_none() || json(&world) != before {
            "its view"
        } else {
            return Ok(());
        }
    };
    Err(format!(
        "determinize for {name} changed {what}: a re-sampled state must look the same to the seat it is made for"
    ))
}

/// Every legal action of `seat`, described ([`Game::describe_action`]).
fn describe_all<G: Game>(state: &G, seat: Seat) -> Vec<crate::ActionInfo> {
    state
        .legal_actions(seat)
        .iter()
        .map(|a| state.describe_action(seat, a))
        .collect()
}

/// Whether `action`, not among `seat`'s `legal` actions in `state`, is accepted there as a
/// shorthand ([`RandomGames::shorthand`]). Tried on copies, with no dice entered: `Ok(false)`
/// if it is refused or needs dice (the ordinary probe then takes it); an error if it is
/// accepted but is not a listed action followed by it.
fn is_shorthand<G: Game>(
    state: &G,
    seat: Seat,
    legal: &[G::Action],
    action: &G::Action,
) -> Result<bool, String> {
    let apply = |g: &mut G, a: &G::Action| -> bool {
        g.dice_mut().begin_action(&[]).is_ok()
            && g.apply(seat, a, &mut crate::Log::discarding()).is_ok()
            && g.dice_mut().end_action().is_ok()
    };
    let mut direct = state.clone();
    if !apply(&mut direct, action) {
        return Ok(false);
    }
    let want = crate::record::state_hash(&direct);
    for first in legal {
        let mut two = state.clone();
        if apply(&mut two, first)
            && two.legal_actions(seat).contains(action)
            && apply(&mut two, action)
            && crate::record::state_hash(&two) == want
        {
            return Ok(true);
        }
    }
    Err(format!(
        "was accepted but is not among the {} legal actions, nor a shorthand for one of them followed by it",
        legal.len()
    ))
}

/// Checks [`Game::REFUSES_UNCHANGED`]: `action` applied to a copy of `state` itself (no dice
/// entered), if refused, leaves the copy as it was, state hash for state hash.
fn refuses_unchanged<G: Game>(state: &G, seat: Seat, action: &G::Action) -> Result<(), String> {
    let mut before = state.clone();
    let _ = before.dice_mut().begin_action(&[]);
    let mut tried = before.clone();
    let refused = tried
        .apply(seat, action, &mut crate::Log::discarding())
        .is_err();
    if refused && crate::state_hash(&tried) != crate::state_hash(&before) {
        return Err("was refused but changed the state it was applied to".into());
    }
    Ok(())
}

/// A uniform choice in `0..n` (n > 0).
fn pick(rng: &mut Pcg64Mcg, n: usize) -> usize {
    crate::dice::uniform_below(rng, n)
}

/// Takes an action; in manual mode, enters one more random face (1-6, a face of every die)
/// for as long as the action says it needs more dice.
fn act_with_dice<G: Startable>(
    session: &mut Session<G>,
    seat: Seat,
    action: &G::Action,
    rng: &mut Pcg64Mcg,
) -> Result<(Vec<Event>, Vec<u8>), ActError> {
    let manual = session.state().dice().mode() == DiceMode::Manual;
    let mut dice = Vec::new();
    loop {
        match session.act_action(seat, action, &dice) {
            Err(ActError::Dice(DiceError::TooFew { .. })) if manual && dice.len() < 256 => {
                dice.push(pick(rng, 6) as u8 + 1);
            }
            other => return other.map(|events| (events, dice)),
        }
    }
}

impl RandomGames {
    /// Plays the games; the first failure is returned with its seed.
    pub fn run<G: Startable>(
        &self,
        setup_template: &Setup,
        data: &DataSet,
    ) -> Result<RandomGamesReport, CheckFailure> {
        let mut report = RandomGamesReport::default();
        for i in 0..self.games {
            let seed = self.first_seed.wrapping_add(i as u64);
            self.play::<G>(setup_template, data, seed, &mut report)
                .map_err(|message| CheckFailure {
                    seed: Some(seed),
                    message,
                })?;
            report.games += 1;
        }
        Ok(report)
    }

    fn play<G: Startable>(
        &self,
        template: &Setup,
        data: &DataSet,
        seed: u64,
        report: &mut RandomGamesReport,
    ) -> Result<(), String> {
        let mut setup = template.clone();
        setup.seed = seed;
        let game_id = G::start(&setup, data)
            .map_err(|e| format!("cannot start: {e}"))?
            .facts()
            .game;
        let mut session =
            Session::<G>::new(setup, data, &game_id).map_err(|e| format!("cannot start: {e}"))?;
        let mut rng = Pcg64Mcg::seed_from_u64(seed ^ CHOOSER_SALT);
        let mut world_rng = Pcg64Mcg::seed_from_u64(seed ^ WORLD_SALT);
        let mut refusal_rng = Pcg64Mcg::seed_from_u64(seed ^ REFUSAL_SALT);
        let seat_count = session.state().facts().seats.len();
        let mut history: Vec<G::Action> = Vec::new();
        let mut taken = 0usize;
        'game: loop {
            let seats = match session.state().pending() {
                Pending::Over => break,
                Pending::Seats(s) if s.is_empty() => {
                    return Err(format!(
                        "after {taken} actions: pending names no seat and the game is not over"
                    ))
                }
                Pending::Seats(s) => s,
            };
            for s in (0..seat_count).map(|s| Seat(s as u8)) {
                if !seats.contains(&s) && !session.state().legal_actions(s).is_empty() {
                    return Err(format!(
                        "after {taken} actions: {} is not pending but has legal actions",
                        session.seat_name(s)
                    ));
                }
            }
            for seat in seats {
                if !session.state().pending().seats().contains(&seat) {
                    continue;
                }
                if taken >= self.max_actions {
                    if self.allow_cap {
                        report.capped += 1;
                        break 'game;
                    }
                    return Err(format!(
                        "the game is not over after {taken} actions (the cap); pending: {:?}",
                        session.state().pending()
                    ));
                }
                let name = session.seat_name(seat);
                if self.determinize_every > 0
                    && pick(&mut world_rng, self.determinize_every as usize) == 0
                {
                    for s in (0..seat_count).map(|s| Seat(s as u8)) {
                        check_determinize(session.state(), s, &mut world_rng)
                            .map_err(|e| format!("after {taken} actions: {e}"))?;
                    }
                    report.determinized += 1;
                }
                let legal = session.state().legal_actions(seat);
                if legal.is_empty() {
                    return Err(format!(
                        "after {taken} actions: {name} is pending but has no legal action"
                    ));
                }
                // Notation round trips, on a sample: every action of a large list each step
                // would cost more than the game itself.
                for _ in 0..legal.len().min(8) {
                    let a = &legal[pick(&mut rng, legal.len())];
                    let text = session.state().action_text(a);
                    if session.state().parse_action(&text).as_ref() != Ok(a) {
                        return Err(format!(
                            "after {taken} actions: legal action {a:?} prints as `{text}`, which does not read back as it"
                        ));
                    }
                }
                if self.probe_illegal && !history.is_empty() {
                    let old = &history[pick(&mut rng, history.len())];
                    let old_text = session.state().action_text(old);
                    if !legal.contains(old)
                        && self.shorthand
                        && is_shorthand(session.state(), seat, &legal, old).map_err(|e| {
                            format!("after {taken} actions: `{old_text}` by {name} {e}")
                        })?
                    {
                        report.shorthands += 1;
                    } else if !legal.contains(old) {
                        let hash = session.state_hash().to_string();
                        let len = session.record().actions.len();
                        if let Ok((_, dice)) = act_with_dice(&mut session, seat, old, &mut rng) {
                            return Err(format!(
                                "after {taken} actions: `{old_text}` by {name} (dice {dice:?}) was accepted but is not among the {} legal actions", legal.len()
                            ));
                        }
                        if session.state_hash() != hash || session.record().actions.len() != len {
                            return Err(format!(
                                "after {taken} actions: refusing `{old_text}` changed the game"
                            ));
                        }
                        report.refused += 1;
                    }
                }
                if G::REFUSES_UNCHANGED && !history.is_empty() {
                    let old = &history[pick(&mut refusal_rng, history.len())];
                    refuses_unchanged(session.state(), seat, old).map_err(|e| {
                        let old_text = session.state().action_text(old);
                        format!("after {taken} actions: `{old_text}` by {name} {e}")
                    })?;
                }
                let action = legal[pick(&mut rng, legal.len())].clone();
                let action_text = session.state().action_text(&action);
                let before = session.state_hash().to_string();
                let (_, dice) = act_with_dice(&mut session, seat, &action, &mut rng)
                    .map_err(|e| {
                        format!("after {taken} actions: legal action `{action_text}` by {name} was refused: {e}")
                    })?;
                taken += 1;
                let last = session.record().actions.last().expect("just taken");
                if !last.undo_barrier
                    && self.undo_every > 0
                    && pick(&mut rng, self.undo_every as usize) == 0
                {
                    let after = session.state_hash().to_string();
                    session.undo(seat).map_err(|e| {
                        format!(
                            "after {taken} actions: undo of `{action_text}` by {name} refused: {e}"
                        )
                    })?;
                    if session.state_hash() != before {
                        return Err(format!(
                            "after {taken} actions: undo of `{action_text}` did not restore the state before it"
                        ));
                    }
                    session.act_action(seat, &action, &dice).map_err(|e| {
                        format!(
                            "after {taken} actions: `{action_text}` refused after undoing it: {e}"
                        )
                    })?;
                    if session.state_hash() != after {
                        return Err(format!(
                            "after {taken} actions: `{action_text}` taken again after undo reached another state"
                        ));
                    }
                    report.undos += 1;
                }
                history.push(action);
            }
        }
        report.actions += taken;
        if session.state().pending() == Pending::Over {
            report.finished += 1;
            if session.state().outcome().is_none() {
                return Err(format!(
                    "the game is over after {taken} actions but has no outcome"
                ));
            }
        }
        let mut viewers: Vec<Viewer> = (0..seat_count)
            .map(|s| Viewer::Seat(Seat(s as u8)))
            .collect();
        viewers.push(Viewer::Spectator);
        for v in viewers {
            serde_json::to_string(&session.view(v))
                .map_err(|e| format!("the view of {v:?} does not serialise: {e}"))?;
            let svg = crate::render::render_svg(&session.board(v));
            if !svg.starts_with("<svg") {
                return Err(format!("the board of {v:?} does not render"));
            }
        }
        let dir = tempfile::tempdir().map_err(|e| format!("no temporary folder: {e}"))?;
        let path = dir.path().join("game.json");
        session
            .save(&path)
            .map_err(|e| format!("cannot save: {e}"))?;
        let record = GameRecord::load(&path).map_err(|e| format!("cannot load the save: {e}"))?;
        if record != *session.record() {
            return Err("the saved record loads as another record".into());
        }
        let replayed = Session::<G>::from_record(record, data)
            .map_err(|e| format!("the saved game does not replay: {e}"))?;
        if replayed.state_hash() != session.state_hash()
            || crate::record::state_hash(replayed.state()) != session.state_hash()
        {
            return Err("the replayed game has another state hash".into());
        }
        Ok(())
    }
}

/// Checks that nothing in `forbidden` reaches any of `viewers`: serialises each viewer's
/// [`Session::view`] (game view, legal actions and visible log) and [`Session::board`] to
/// JSON and looks for each string. Strings are matched as they appear in JSON text, so use
/// ones without quotes or backslashes (a secret bid's text, a hidden unit's name).
///
/// Use it with a position in which the secrets are known: for example, after one seat has
/// committed secret orders, check that the other seats and spectators see none of them.
pub fn secrecy_check<G: Startable>(
    session: &Session<G>,
    viewers: &[Viewer],
    forbidden: &[&str],
) -> Result<(), CheckFailure> {
    for &viewer in viewers {
        let who = match viewer {
            Viewer::Seat(s) => session.seat_name(s),
            Viewer::Spectator => "a spectator".to_string(),
        };
        let payloads = [
            (
                "view",
                serde_json::to_string(&session.view(viewer)).map_err(|e| CheckFailure {
                    seed: None,
                    message: format!("the view of {who} does not serialise: {e}"),
                })?,
            ),
            (
                "board",
                serde_json::to_string(&session.board(viewer)).map_err(|e| CheckFailure {
                    seed: None,
                    message: format!("the board of {who} does not serialise: {e}"),
                })?,
            ),
        ];
        for (what, json) in &payloads {
            for secret in forbidden {
                if let Some(at) = json.find(secret) {
                    let mut from = at.saturating_sub(60);
                    while !json.is_char_boundary(from) {
                        from -= 1;
                    }
                    let mut to = (at + secret.len() + 60).min(json.len());
                    while !json.is_char_boundary(to) {
                        to += 1;
                    }
                    return Err(CheckFailure {
                        seed: None,
                        message: format!(
                            "the {what} sent to {who} contains `{secret}`: …{}…",
                            &json[from..to]
                        ),
                    });
                }
            }
        }
    }
    Ok(())
}

/// The starting value of an [`fnv`] fingerprint.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Adds `bytes` to an FNV-1a (64 bits) fingerprint: one that needs no dependency and never
/// changes, for golden files.
pub fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

/// A seeded random walk through a game for golden playthroughs: its choices come from a
/// xorshift generator of its own, independent of the game's dice, and never change.
pub struct GoldenWalk {
    rng: u64,
}

impl GoldenWalk {
    /// The walk chosen by `seed`.
    pub fn new(seed: u64) -> Self {
        GoldenWalk {
            rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n as u64) as usize
    }

    /// One decision: picks one of the pending `seats`, adds its legal actions' notation in
    /// order to the fingerprint `lists` (each followed by a newline, the list by `--`), and
    /// picks one of them. Returns the seat, how many actions were listed and the one picked.
    ///
    /// # Panics
    /// When `seats` is empty or the seat picked has no legal action (a broken game).
    pub fn decide<G: Game>(
        &mut self,
        game: &G,
        seats: &[Seat],
        lists: &mut u64,
    ) -> (Seat, usize, G::Action) {
        let seat = seats[self.below(seats.len())];
        let legal = game.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "pending seat {seat:?} has no legal action"
        );
        for a in &legal {
            fnv(lists, game.action_text(a).as_bytes());
            fnv(lists, b"\n");
        }
        fnv(lists, b"--\n");
        let pick = self.below(legal.len());
        (seat, legal.len(), legal[pick].clone())
    }
}

/// Compares `out` with the golden file `path` (first rewriting the file when the environment
/// sets `UPDATE_GOLDEN`, for an intended change).
///
/// # Panics
/// When they differ, saying `what` changed.
pub fn assert_golden(path: &std::path::Path, out: &str, what: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the golden directory is created");
        }
        std::fs::write(path, out).expect("the golden file is written");
    }
    let want = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(out, want, "{what} changed (golden file {})", path.display());
}

/// Nanoseconds a call of `f` (given the call's number), the least over `runs` runs of `reps`
/// calls each: the cost without whatever interrupted the process. For benchmark examples;
/// tests time nothing.
pub fn least_ns_per_call(runs: u32, reps: u32, mut f: impl FnMut(u32)) -> f64 {
    (0..runs)
        .map(|_| {
            let t = std::time::Instant::now();
            for i in 0..reps {
                f(i);
            }
            t.elapsed().as_nanos() as f64 / f64::from(reps.max(1))
        })
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod golden_tests {
    use super::*;

    #[test]
    fn fnv_matches_the_published_test_vector() {
        // FNV-1a 64 of "a" is af63dc4c8601ec8c (the reference implementation's vector).
        let mut h = FNV_START;
        fnv(&mut h, b"a");
        assert_eq!(h, 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn a_walk_is_fixed_by_its_seed() {
        let picks = |seed| {
            let mut w = GoldenWalk::new(seed);
            (0..20).map(|_| w.below(7)).collect::<Vec<_>>()
        };
        assert_eq!(picks(3), picks(3));
        assert_ne!(picks(3), picks(4));
        assert!(picks(5).iter().all(|&p| p < 7));
    }
}
