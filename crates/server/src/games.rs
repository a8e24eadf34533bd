//! The games in play: each is rebuilt from its stored record on first use and kept in
//! memory behind its own lock, so that one game's actions are taken, committed and announced
//! in order while other games go on. Every change is committed to the store before it is
//! acknowledged or shown to anyone; AI seats think on the blocking thread pool and their
//! actions are committed like any other.
//!
//! What leaves this module for a client is only the state document of one viewer
//! ([`state_doc`]): the game's view for that seat or a spectator, never its record. Each
//! viewer's document has its own revision, which moves on only when that document changes,
//! so that no one learns how many secret actions another seat took; the WebSocket sends a
//! viewer the difference from the document it had ([`crate::diff`]). The map, which hardly
//! ever changes, is sent once per scenario under its own key ([`Games::map`]), and a unit's
//! actions are sent when the client asks for them ([`Slot::actions_of`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::str::FromStr;
use std::sync::{Arc, Mutex as StdMutex};

use ai::PlayerSpec;
use engine::{
    ActError, ActionInfo, Board, DataSet, DiceError, DiceMode, Event, Pending, Seat, UndoError,
    Viewer, Visibility,
};
use rand::RngCore;
use registry::AnyGame;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{watch, Mutex};

use crate::error::ApiError;
use crate::store::{Store, StoreError, StoredSeat};

/// The version of every JSON document the server sends.
pub const VERSION: u32 = 2;

/// The player value of a seat played through the API.
pub const HUMAN: &str = "human";

/// A request to start a game (`POST /api/games`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// The full scenario id (`crusades-ii/hattin`).
    pub scenario: String,
    /// Optional rules in use.
    #[serde(default)]
    pub options: Vec<String>,
    /// The dice seed (random when not given).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Who plays each seat: `human` or an AI player; seats not named are human.
    #[serde(default)]
    pub seats: BTreeMap<String, String>,
    /// Where the dice come from: `seeded` (the default) or `manual` (rolled at a real table
    /// and entered with each action).
    #[serde(default)]
    pub dice: Option<String>,
}

/// A request to take an action (`POST /api/games/ID/actions`, or `act` over the WebSocket).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActRequest {
    /// The action in the game's notation.
    pub action: String,
    /// Dice rolled at a real table (manual dice only).
    #[serde(default)]
    pub dice: Vec<u8>,
    /// The revision the client saw when it chose the action.
    pub revision: u64,
}

/// A request to take back the seat's last action (`POST /api/games/ID/undo`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// The revision the client saw.
    pub revision: u64,
}

/// Who plays a seat.
#[derive(Clone, Debug)]
enum Player {
    /// A person holding the seat's token (its blake3 hash, hex).
    Human { token_hash: String },
    /// An AI player inside the server.
    Ai { spec: PlayerSpec, text: String },
}

/// The maps already sent, as JSON text, by key (shared by every game).
type MapCache = StdMutex<HashMap<String, Arc<String>>>;

/// A game in memory, as its lock guards it.
pub struct Live {
    game: Box<dyn AnyGame>,
    /// The game's own revision (every change adds one): stored, never shown to anyone.
    revision: u64,
    /// Moves on with every change of what any viewer might see (the revision, and reports of
    /// AI failures): documents built before are out of date.
    generation: u64,
    players: Vec<Player>,
    /// Whether an AI driver is working on this game.
    ai_running: bool,
    /// Set when a change could not be committed: this copy is stale and must not be used.
    broken: bool,
    /// The revision a viewer's first document gets: 0 for a new game; for a game rebuilt from
    /// the store, a number above any it can have shown before (milliseconds since 1970,
    /// times 1000), since per-viewer revisions are not stored.
    first_revision: u64,
    /// Each viewer's latest document (many connections of one viewer, and the answer to an
    /// action, share one).
    docs: HashMap<Viewer, ViewerDoc>,
    /// Viewers whose next document gets a new revision even if it looks the same (the seat
    /// that acted: a resent action must be refused as stale).
    bump: HashSet<Viewer>,
    /// The deciding seat's actions described, at a generation.
    described: Option<(u64, Seat, Arc<Vec<ActionInfo>>)>,
    /// The last map seen (a board without counters and status) and its key.
    map: Option<(Board, String)>,
    maps: Arc<MapCache>,
    /// Why an AI seat stopped playing, for every viewer (the details go to the server log).
    ai_failure: Option<String>,
}

/// One viewer's latest state document.
struct ViewerDoc {
    /// Its revision.
    revision: u64,
    /// The generation it was built at.
    generation: u64,
    value: Value,
    /// The events its `log` shows, to find the new ones at the next change.
    events: Vec<Event>,
    /// The document as JSON text, written when first needed (most changes reach a
    /// WebSocket as an update only).
    text: Option<Arc<String>>,
    /// The update message from the previous document (revision before, message), when
    /// smaller than the document itself.
    update: Option<(u64, Arc<String>)>,
}

impl ViewerDoc {
    /// The document as JSON text.
    fn text(&mut self) -> Arc<String> {
        self.text
            .get_or_insert_with(|| Arc::new(self.value.to_string()))
            .clone()
    }
}

/// Whether `value` written as JSON text is longer than `limit` bytes; writes at most
/// `limit + 1` bytes to find out.
fn longer_than(value: &Value, limit: usize) -> bool {
    /// Counts what is written and stops past the limit.
    struct Count {
        written: usize,
        limit: usize,
    }
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.written += buf.len();
            if self.written > self.limit {
                Err(std::io::Error::other("past the limit"))
            } else {
                Ok(buf.len())
            }
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count { written: 0, limit };
    serde_json::to_writer(&mut count, value).is_err()
}

/// What a WebSocket sends a viewer after a change.
pub enum Push {
    /// Nothing changed for this viewer.
    Nothing,
    /// A message (an update or a whole state) bringing the viewer to this revision.
    Message(u64, Arc<String>),
}

/// One game in play: its lock and the channel announcing each new revision.
pub struct Slot {
    /// The game's id.
    pub id: String,
    live: Mutex<Live>,
    changed: watch::Sender<u64>,
}

impl Slot {
    /// A receiver told of every change (its value is the revision).
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The viewer a token stands for: a seat for a seat's token, a spectator for none.
    pub async fn viewer(&self, token: Option<&str>) -> Result<Viewer, ApiError> {
        let live = self.live.lock().await;
        live.usable()?;
        live.viewer(&self.id, token)
    }

    /// The state document for `viewer` now, as JSON text.
    pub async fn state(&self, viewer: Viewer) -> Result<Arc<String>, ApiError> {
        let mut live = self.live.lock().await;
        live.usable()?;
        Ok(live.doc(viewer))
    }

    /// What to send a WebSocket of `viewer` that last received revision `had` (None: nothing
    /// yet): nothing if its document has not changed, the update message if it had the
    /// previous document, else the whole state message.
    pub async fn push(&self, viewer: Viewer, had: Option<u64>) -> Result<Push, ApiError> {
        let mut live = self.live.lock().await;
        live.usable()?;
        live.refresh(viewer);
        let doc = live.docs.get_mut(&viewer).expect("refreshed");
        Ok(match (had, &doc.update) {
            (Some(had), _) if had == doc.revision => Push::Nothing,
            (Some(had), Some((base, update))) if *base == had => {
                Push::Message(doc.revision, update.clone())
            }
            _ => Push::Message(
                doc.revision,
                Arc::new(format!("{{\"type\":\"state\",\"state\":{}}}", doc.text())),
            ),
        })
    }

    /// The actions of counter `counter` a seat may take now (none when it need not decide),
    /// with the seat's revision.
    pub async fn actions_of(
        &self,
        token: Option<&str>,
        counter: &str,
    ) -> Result<(u64, CounterActions), ApiError> {
        let mut live = self.live.lock().await;
        live.usable()?;
        let seat = live.seat(&self.id, token, "asking for actions")?;
        let revision = live.revision_of(Viewer::Seat(seat));
        let actions = CounterActions {
            all: live.described(seat),
            counter: counter.to_string(),
        };
        Ok((revision, actions))
    }
}

/// The actions of one counter among a seat's actions (written as their JSON list), shared
/// with the seat's described actions rather than copied.
pub struct CounterActions {
    all: Arc<Vec<ActionInfo>>,
    counter: String,
}

impl CounterActions {
    /// The counter's actions.
    pub fn iter(&self) -> impl Iterator<Item = &ActionInfo> {
        self.all
            .iter()
            .filter(|a| a.counters.contains(&self.counter))
    }
}

impl serde::Serialize for CounterActions {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// Every game, in the store and in memory.
pub struct Games {
    store: Store,
    data: Arc<DataSet>,
    live: StdMutex<HashMap<String, Arc<Slot>>>,
    maps: Arc<MapCache>,
}

/// A new random string of `bytes` random bytes, in hex (URL-safe).
fn random_hex(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut b);
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The stored form of a token.
fn token_hash(token: &str) -> String {
    blake3::hash(token.as_bytes()).to_hex().to_string()
}

/// Whether `id` could be a game id (so that no other text reaches the database).
fn plausible_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn store_error(e: StoreError) -> ApiError {
    ApiError::internal(format!("storage failed: {e}"))
}

impl Live {
    fn usable(&self) -> Result<(), ApiError> {
        if self.broken {
            Err(ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "the game is being reloaded after a storage failure: try again",
            ))
        } else {
            Ok(())
        }
    }

    fn viewer(&self, id: &str, token: Option<&str>) -> Result<Viewer, ApiError> {
        let Some(token) = token else {
            return Ok(Viewer::Spectator);
        };
        let hash = token_hash(token);
        self.players
            .iter()
            .position(|p| matches!(p, Player::Human { token_hash } if *token_hash == hash))
            .map(|i| Viewer::Seat(Seat(i as u8)))
            .ok_or_else(|| {
                ApiError::unauthorized(format!(
                    "the token is not the token of any seat of game {id}"
                ))
            })
    }

    /// The seat a token stands for, where a seat is needed.
    fn seat(&self, id: &str, token: Option<&str>, what: &str) -> Result<Seat, ApiError> {
        match self.viewer(id, token)? {
            Viewer::Seat(s) => Ok(s),
            Viewer::Spectator => Err(ApiError::unauthorized(format!(
                "{what} needs a seat's token (Authorization: Bearer TOKEN or ?token=TOKEN); \
                 a request without one is a spectator's"
            ))),
        }
    }

    fn check_revision(&mut self, seat: Seat, revision: u64) -> Result<(), ApiError> {
        let current = self.revision_of(Viewer::Seat(seat));
        if revision == current {
            Ok(())
        } else {
            Err(ApiError::conflict(format!(
                "revision {revision} is not your current revision {current}: the game has changed \
                 since (or this was sent twice); nothing was done"
            )))
        }
    }

    /// The revision of `viewer`'s document now.
    fn revision_of(&mut self, viewer: Viewer) -> u64 {
        self.refresh(viewer);
        self.docs[&viewer].revision
    }

    /// The actions `seat` may take now, described (built once per change).
    fn described(&mut self, seat: Seat) -> Arc<Vec<ActionInfo>> {
        match &self.described {
            Some((g, s, list)) if *g == self.generation && *s == seat => list.clone(),
            _ => {
                let list = if self.game.pending().seats().contains(&seat) {
                    Arc::new(self.game.describe_actions(seat))
                } else {
                    Arc::new(Vec::new())
                };
                self.described = Some((self.generation, seat, list.clone()));
                list
            }
        }
    }

    /// The key of the map `bare` (a board without its counters and status), kept in the
    /// shared cache of maps.
    fn map_key(&mut self, bare: Board) -> String {
        if let Some((map, key)) = &self.map {
            if *map == bare {
                return key.clone();
            }
        }
        let mut value = serde_json::to_value(&bare).expect("a board serialises");
        if let Some(o) = value.as_object_mut() {
            o.remove("counters");
            o.remove("status");
            o.insert("version".into(), json!(VERSION));
        }
        let text = value.to_string();
        let key = blake3::hash(text.as_bytes()).to_hex()[..24].to_string();
        self.maps
            .lock()
            .expect("map cache lock")
            .entry(key.clone())
            .or_insert_with(|| Arc::new(text));
        self.map = Some((bare, key.clone()));
        key
    }

    /// The state document of `viewer` now, as JSON text; its revision moves on only when
    /// the document changed (or the viewer acted).
    fn doc(&mut self, viewer: Viewer) -> Arc<String> {
        self.refresh(viewer);
        self.docs.get_mut(&viewer).expect("refreshed").text()
    }

    /// Brings `viewer`'s document up to date: rebuilt once per change, compared with the
    /// one before by [`crate::diff`], and the update message from it kept when smaller than
    /// the document. The log is not rebuilt: only the events since the last document are
    /// written and sent (the whole log is compared only when it is not an extension of the
    /// last one, after an undo).
    fn refresh(&mut self, viewer: Viewer) {
        if self
            .docs
            .get(&viewer)
            .is_some_and(|d| d.generation == self.generation)
        {
            return;
        }
        let mut value = state_doc(self, viewer);
        let events = self.game.events(viewer);
        let names = self.game.seat_names();
        let log_of = |events: &[Event]| -> Vec<Value> {
            events.iter().map(|e| event_json(&names, e)).collect()
        };
        let forced = self.bump.remove(&viewer);
        let Some(mut old) = self.docs.remove(&viewer) else {
            value["log"] = Value::Array(log_of(&events));
            value["revision"] = json!(self.first_revision);
            self.docs.insert(
                viewer,
                ViewerDoc {
                    revision: self.first_revision,
                    generation: self.generation,
                    value,
                    events,
                    text: None,
                    update: None,
                },
            );
            return;
        };
        // The old log is taken out of the old document (both documents have no log while
        // the rest is compared) and grows into the new one when it can.
        let mut old_log = old.value["log"].take();
        let extended = match &mut old_log {
            Value::Array(shown)
                if shown.len() == old.events.len() && events.starts_with(&old.events) =>
            {
                shown.extend(log_of(&events[old.events.len()..]));
                true
            }
            _ => false,
        };
        let (log, old_log) = if extended {
            (old_log, Value::Null)
        } else {
            (Value::Array(log_of(&events)), old_log)
        };
        let shown = old.events.len();
        value["revision"] = json!(old.revision);
        let mut ops = crate::diff::diff(&old.value, &value);
        let log_path = || vec![crate::diff::Step::Key("log")];
        match &log {
            Value::Array(all) if extended && all.len() > shown => ops.push(crate::diff::Op::Push {
                path: log_path(),
                values: &all[shown..],
            }),
            _ if extended => {}
            _ => crate::diff::diff_into(&old_log, &log, log_path(), &mut ops),
        }
        if ops.is_empty() && !forced {
            drop(ops);
            old.value["log"] = log;
            old.events = events;
            old.generation = self.generation;
            self.docs.insert(viewer, old);
            return;
        }
        let revision = old.revision + 1;
        let revision_value = json!(revision);
        ops.push(crate::diff::Op::Set {
            path: vec![crate::diff::Step::Key("revision")],
            value: &revision_value,
        });
        let message = format!(
            "{{\"type\":\"update\",\"base\":{},\"revision\":{revision},\"ops\":{}}}",
            old.revision,
            crate::diff::to_text(&ops)
        );
        drop(ops);
        value["revision"] = revision_value;
        value["log"] = log;
        let update = longer_than(&value, message.len()).then(|| (old.revision, Arc::new(message)));
        self.docs.insert(
            viewer,
            ViewerDoc {
                revision,
                generation: self.generation,
                value,
                events,
                text: None,
                update,
            },
        );
    }

    /// Tells every watcher that documents may have changed.
    fn touched(&mut self, slot: &Slot) {
        self.generation += 1;
        slot.changed.send_replace(self.generation);
    }

    /// Moves to the next revision after a committed change by `seat`.
    fn changed(&mut self, slot: &Slot, seat: Seat) {
        self.revision += 1;
        self.ai_failure = None;
        self.bump.insert(Viewer::Seat(seat));
        self.touched(slot);
    }

    /// The first AI seat that must decide now, with its player.
    fn pending_ai(&self) -> Option<(Seat, PlayerSpec)> {
        self.game
            .pending()
            .seats()
            .iter()
            .find_map(|&s| match self.players.get(s.index()) {
                Some(Player::Ai { spec, .. }) => Some((s, *spec)),
                _ => None,
            })
    }
}

/// An event as the API shows it (docs/json.md's Event shape).
fn event_json(names: &[String], e: &Event) -> Value {
    let name = |s: Seat| names.get(s.index()).cloned().unwrap_or_else(|| "?".into());
    let (public, seats) = match &e.visibility {
        Visibility::All => (true, Vec::new()),
        Visibility::Seats(s) => (false, s.iter().map(|&s| name(s)).collect()),
    };
    json!({ "case": e.case, "text": e.text, "rolls": e.rolls, "public": public, "seats": seats })
}

/// The state document of `viewer` (docs/api.md): only what that viewer may see. Its
/// `revision` is set by [`Live::doc`].
fn state_doc(live: &mut Live, viewer: Viewer) -> Value {
    let mut board = live.game.board(viewer);
    let counters = std::mem::take(&mut board.counters);
    let status = std::mem::take(&mut board.status);
    let title = board.title.clone();
    let map = live.map_key(board);
    let pending = live.game.pending();
    let seat = match viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let your_turn = seat.is_some_and(|s| pending.seats().contains(&s));
    let described = match seat {
        Some(s) if your_turn => live.described(s),
        _ => Arc::new(Vec::new()),
    };
    let (actions, actors) = summary(&described);
    let game = live.game.as_ref();
    let names = game.seat_names();
    let can_undo = seat.is_some_and(|s| {
        game.record()
            .actions
            .last()
            .is_some_and(|a| a.seat == game.seat_name(s) && !a.undo_barrier)
    });
    let ai_seats: Vec<&String> = names
        .iter()
        .zip(&live.players)
        .filter(|(_, p)| matches!(p, Player::Ai { .. }))
        .map(|(n, _)| n)
        .collect();
    let outcome = game.outcome().map(|o| {
        json!({ "winner": o.winner.map(|s| game.seat_name(s)), "level": o.level, "reason": o.reason })
    });
    let view = game.view_state_json(viewer);
    let dice = match game.record().dice {
        DiceMode::Seeded => "seeded",
        DiceMode::Manual => "manual",
    };
    let mut doc = json!({
        "version": VERSION,
        "game": game.game_id(),
        "scenario": game.scenario(),
        "title": title,
        "seat": seat.map(|s| game.seat_name(s)),
        "seats": names,
        "ai_seats": ai_seats,
        "ai_failure": live.ai_failure,
        "pending": pending.seats().iter().map(|&s| game.seat_name(s)).collect::<Vec<_>>(),
        "your_turn": your_turn,
        "revision": 0,
        "status": status,
        "map": map,
        "board": { "counters": counters, "status": status },
        "actions": actions,
        "dice": dice,
        "can_undo": can_undo,
    });
    // The values already made are moved in (`json!` would copy each through its serialiser).
    if let Some(fields) = doc.as_object_mut() {
        fields.insert("view".into(), view);
        // The log is added by [`Live::refresh`], which writes only its new events.
        fields.insert("log".into(), Value::Null);
        fields.insert("actors".into(), Value::Array(actors));
        fields.insert("outcome".into(), outcome.unwrap_or(Value::Null));
    }
    doc
}

/// The summary of a seat's actions in its state document: every action that acts on no
/// counter or goes to no hex, whole; for the rest (moves, attacks, placements: most of a
/// long list), each acting counter with how many actions it has and how many of them are
/// attacks. A counter's own actions are asked for when it is selected ([`Slot::actions_of`]).
fn summary(described: &[ActionInfo]) -> (Vec<&ActionInfo>, Vec<Value>) {
    let mut whole = Vec::new();
    let mut counts: Vec<(&str, usize, usize)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for a in described {
        if a.hex.is_none() || a.counters.is_empty() {
            whole.push(a);
            continue;
        }
        let attack = !a.targets.is_empty();
        for c in &a.counters {
            let i = *index.entry(c.as_str()).or_insert_with(|| {
                counts.push((c.as_str(), 0, 0));
                counts.len() - 1
            });
            counts[i].1 += 1;
            counts[i].2 += usize::from(attack);
        }
    }
    let actors = counts
        .into_iter()
        .map(|(c, n, attacks)| json!({ "counter": c, "actions": n, "attacks": attacks }))
        .collect();
    (whole, actors)
}

/// The status of an engine refusal of an action.
fn act_error(e: ActError) -> ApiError {
    match e {
        ActError::NotPending { .. } => ApiError::forbidden(e.to_string()),
        ActError::GameOver { .. } => ApiError::conflict(e.to_string()),
        ActError::Dice(DiceError::TooFew { .. }) => ApiError {
            dice_needed: true,
            ..ApiError::unprocessable(e.to_string())
        },
        e if e.is_bad_input() => ApiError::unprocessable(e.to_string()),
        e => ApiError::internal(e.to_string()),
    }
}

fn undo_error(e: UndoError) -> ApiError {
    if e.is_bad_input() {
        ApiError::unprocessable(e.to_string())
    } else {
        ApiError::internal(e.to_string())
    }
}

/// What `POST /api/games` answers.
#[derive(Clone, Debug)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// Each human seat's name and token.
    pub tokens: Vec<(String, String)>,
}

impl Games {
    /// The games of `store`, played with `data`.
    pub fn new(store: Store, data: DataSet) -> Arc<Games> {
        Arc::new(Games {
            store,
            data: Arc::new(data),
            live: StdMutex::new(HashMap::new()),
            maps: Arc::new(StdMutex::new(HashMap::new())),
        })
    }

    /// A map sent before, as JSON text, by its key (the `map` of a state document).
    pub fn map(&self, key: &str) -> Option<Arc<String>> {
        self.maps.lock().expect("map cache lock").get(key).cloned()
    }

    /// The data every game is played with.
    pub fn data(&self) -> &DataSet {
        &self.data
    }

    /// Starts and stores a new game; its AI seats start thinking at once.
    pub async fn create(self: &Arc<Self>, req: CreateRequest) -> Result<Created, ApiError> {
        let seed = req.seed.unwrap_or_else(|| rand::rngs::OsRng.next_u64());
        let dice = match req.dice.as_deref() {
            None | Some("seeded") => DiceMode::Seeded,
            Some("manual") => DiceMode::Manual,
            Some(other) => {
                return Err(ApiError::unprocessable(format!(
                    "no dice mode `{other}`: `seeded` (the server rolls) or `manual` (rolled at \
                     a table and entered with each action)"
                )))
            }
        };
        let game = registry::new_game(&req.scenario, &req.options, seed, dice, None, &self.data)
            .map_err(|e| {
                if e.is_bad_input() {
                    ApiError::unprocessable(e.to_string())
                } else {
                    ApiError::internal(e.to_string())
                }
            })?;
        let names = game.seat_names();
        let mut chosen: Vec<Option<String>> = vec![None; names.len()];
        for (name, player) in &req.seats {
            let seat = game.seat_named(name).ok_or_else(|| {
                ApiError::unprocessable(format!(
                    "no seat `{name}` in {} (seats: {})",
                    game.scenario(),
                    names.join(", ")
                ))
            })?;
            if chosen[seat.index()].replace(player.clone()).is_some() {
                return Err(ApiError::unprocessable(format!(
                    "seat {} is named twice in `seats`",
                    names[seat.index()]
                )));
            }
        }
        let mut players = Vec::new();
        let mut seats = Vec::new();
        let mut tokens = Vec::new();
        for (name, player) in names.iter().zip(chosen) {
            let player = player.unwrap_or_else(|| HUMAN.to_string());
            if player.eq_ignore_ascii_case(HUMAN) {
                let token = random_hex(16);
                let hash = token_hash(&token);
                tokens.push((name.clone(), token));
                seats.push(StoredSeat {
                    seat: name.clone(),
                    player: HUMAN.into(),
                    token_hash: Some(hash.clone()),
                });
                players.push(Player::Human { token_hash: hash });
            } else {
                let bad =
                    |e: String| ApiError::unprocessable(format!("seat {name}: {e} (or `human`)"));
                if dice == DiceMode::Manual {
                    return Err(bad(format!(
                        "an AI player (`{player}`) rolls no real dice: a game with manual dice \
                         has only human seats"
                    )));
                }
                let spec = PlayerSpec::from_str(&player).map_err(|e| bad(e.to_string()))?;
                registry::check_player(game.as_ref(), &spec).map_err(|e| bad(e.to_string()))?;
                seats.push(StoredSeat {
                    seat: name.clone(),
                    player: player.clone(),
                    token_hash: None,
                });
                players.push(Player::Ai { spec, text: player });
            }
        }
        let id = random_hex(10);
        self.store
            .create(&id, game.record(), &seats)
            .await
            .map_err(store_error)?;
        let slot = self.insert(&id, game, players, 0, 0);
        self.kick_ai(slot);
        Ok(Created { id, tokens })
    }

    fn insert(
        &self,
        id: &str,
        game: Box<dyn AnyGame>,
        players: Vec<Player>,
        revision: u64,
        first_revision: u64,
    ) -> Arc<Slot> {
        let slot = Arc::new(Slot {
            id: id.to_string(),
            live: Mutex::new(Live {
                game,
                revision,
                generation: 0,
                players,
                ai_running: false,
                broken: false,
                first_revision,
                docs: HashMap::new(),
                bump: HashSet::new(),
                described: None,
                map: None,
                maps: self.maps.clone(),
                ai_failure: None,
            }),
            changed: watch::Sender::new(0),
        });
        let mut map = self.live.lock().expect("game table lock");
        map.entry(id.to_string()).or_insert(slot).clone()
    }

    /// The game of this id, rebuilt from the store if it is not in memory.
    pub async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, ApiError> {
        let missing = || ApiError::not_found(format!("no game `{id}` on this server"));
        if !plausible_id(id) {
            return Err(missing());
        }
        if let Some(slot) = self.live.lock().expect("game table lock").get(id) {
            return Ok(slot.clone());
        }
        let stored = self
            .store
            .load(id)
            .await
            .map_err(store_error)?
            .ok_or_else(missing)?;
        let mut players = Vec::new();
        for s in &stored.seats {
            if s.player == HUMAN {
                players.push(Player::Human {
                    token_hash: s.token_hash.clone().unwrap_or_default(),
                });
            } else {
                let spec = PlayerSpec::from_str(&s.player).map_err(|e| {
                    ApiError::internal(format!("game {id}: stored seat {}: {e}", s.seat))
                })?;
                players.push(Player::Ai {
                    spec,
                    text: s.player.clone(),
                });
            }
        }
        let data = self.data.clone();
        let record = stored.record;
        let game = tokio::task::spawn_blocking(move || registry::from_record(record, &data))
            .await
            .map_err(|e| ApiError::internal(format!("rebuilding game {id} failed: {e}")))?
            .map_err(|e| ApiError::internal(format!("game {id} cannot be rebuilt: {e}")))?;
        // Per-viewer revisions are not stored: a rebuilt game's start above any shown before.
        let first_revision = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64 * 1000);
        let slot = self.insert(id, game, players, stored.revision, first_revision);
        self.kick_ai(slot.clone());
        Ok(slot)
    }

    /// Loads every stored game that has an AI seat, so that AI seats go on playing after a
    /// restart without waiting for a visitor. Returns how many games were loaded.
    pub async fn resume(self: &Arc<Self>) -> Result<usize, StoreError> {
        let mut n = 0;
        for id in self.store.ids().await? {
            let Some(stored) = self.store.load(&id).await? else {
                continue;
            };
            if stored.seats.iter().any(|s| s.player != HUMAN) {
                match self.slot(&id).await {
                    Ok(_) => n += 1,
                    Err(e) => eprintln!("crusades serve: game {id}: {}", e.message),
                }
            }
        }
        Ok(n)
    }

    /// Forgets a slot whose change could not be committed, so that the next request reloads
    /// the game from the store.
    fn evict(&self, slot: &Arc<Slot>, live: &mut Live) {
        live.broken = true;
        let mut map = self.live.lock().expect("game table lock");
        if map.get(&slot.id).is_some_and(|s| Arc::ptr_eq(s, slot)) {
            map.remove(&slot.id);
        }
        slot.changed.send_replace(live.generation + 1);
    }

    /// Takes `text` for `seat` at the game's current revision, commits it and tells every
    /// watcher. On any error the game is as it was.
    async fn commit_act(
        &self,
        slot: &Arc<Slot>,
        live: &mut Live,
        seat: Seat,
        text: &str,
        dice: &[u8],
    ) -> Result<(), ApiError> {
        if live.game.pending() == Pending::Over {
            let reason = live.game.outcome().map(|o| o.reason).unwrap_or_default();
            return Err(ApiError::conflict(format!("the game is over: {reason}")));
        }
        if !live.game.pending().seats().contains(&seat) {
            let waiting: Vec<String> = live
                .game
                .pending()
                .seats()
                .iter()
                .map(|&s| live.game.seat_name(s))
                .collect();
            return Err(ApiError::forbidden(format!(
                "not {}'s decision: waiting for {}",
                live.game.seat_name(seat),
                waiting.join(", ")
            )));
        }
        let seq = live.game.record().actions.len();
        live.game.act(seat, text, dice).map_err(act_error)?;
        let action = live.game.record().actions[seq].clone();
        let hash = live.game.record().state_hash.clone();
        if let Err(e) = self
            .store
            .append(&slot.id, live.revision, seq, &action, &hash)
            .await
        {
            self.evict(slot, live);
            return Err(store_error(e));
        }
        live.changed(slot, seat);
        Ok(())
    }

    /// A seat's action (`POST /api/games/ID/actions`, or `act` over the WebSocket): with
    /// `answer`, the new state document for the seat, as JSON text (the WebSocket instead
    /// sends what changed, as to every connection).
    pub async fn act(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        token: Option<&str>,
        req: &ActRequest,
        answer: bool,
    ) -> Result<Option<Arc<String>>, ApiError> {
        let mut live = slot.live.lock().await;
        live.usable()?;
        let seat = live.seat(&slot.id, token, "taking an action")?;
        live.check_revision(seat, req.revision)?;
        self.commit_act(slot, &mut live, seat, &req.action, &req.dice)
            .await?;
        let doc = answer.then(|| live.doc(Viewer::Seat(seat)));
        drop(live);
        self.kick_ai(slot.clone());
        Ok(doc)
    }

    /// A seat's undo (`POST /api/games/ID/undo`): the new state document for the seat, as
    /// JSON text.
    pub async fn undo(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        token: Option<&str>,
        req: &UndoRequest,
    ) -> Result<Arc<String>, ApiError> {
        let mut live = slot.live.lock().await;
        live.usable()?;
        let seat = live.seat(&slot.id, token, "undo")?;
        live.check_revision(seat, req.revision)?;
        live.game.undo(seat).map_err(undo_error)?;
        let keep = live.game.record().actions.len();
        let hash = live.game.record().state_hash.clone();
        if let Err(e) = self
            .store
            .truncate(&slot.id, live.revision, keep, &hash)
            .await
        {
            self.evict(slot, &mut live);
            return Err(store_error(e));
        }
        live.changed(slot, seat);
        let doc = live.doc(Viewer::Seat(seat));
        drop(live);
        self.kick_ai(slot.clone());
        Ok(doc)
    }

    /// Starts the AI driver of a game unless one is running or no AI seat must decide.
    fn kick_ai(self: &Arc<Self>, slot: Arc<Slot>) {
        let games = self.clone();
        tokio::spawn(async move { games.drive_ai(slot).await });
    }

    /// Lets the game's AI seats decide for as long as one must: each thinks on a copy of the
    /// game rebuilt from the record (so the game stays free for its viewers meanwhile), and
    /// its action is then taken and committed if the game has not changed in between.
    async fn drive_ai(self: Arc<Self>, slot: Arc<Slot>) {
        {
            let mut live = slot.live.lock().await;
            if live.ai_running || live.broken || live.pending_ai().is_none() {
                return;
            }
            live.ai_running = true;
        }
        loop {
            let (seat, spec, record, revision) = {
                let mut live = slot.live.lock().await;
                let next = if live.broken { None } else { live.pending_ai() };
                let Some((seat, spec)) = next else {
                    live.ai_running = false;
                    return;
                };
                (seat, spec, live.game.record().clone(), live.revision)
            };
            let seed = registry::game_seed(
                registry::player_seed(record.seed, seat),
                record.actions.len() as u64,
            );
            let data = self.data.clone();
            let thought = tokio::task::spawn_blocking(move || {
                let mut copy = registry::from_record(record, &data).map_err(|e| e.to_string())?;
                registry::ai_move(copy.as_mut(), seat, &spec, seed)
                    .map(|m| m.action)
                    .map_err(|e| e.to_string())
            })
            .await
            .unwrap_or_else(|e| Err(format!("the AI player stopped: {e}")));
            let mut live = slot.live.lock().await;
            let failed = match thought {
                Err(e) => Some(e),
                Ok(_) if live.broken || live.revision != revision => continue,
                Ok(action) => self
                    .commit_act(&slot, &mut live, seat, &action, &[])
                    .await
                    .err()
                    .map(|e| e.message),
            };
            if let Some(e) = failed {
                let who = match live.players.get(seat.index()) {
                    Some(Player::Ai { text, .. }) => text.clone(),
                    _ => "?".into(),
                };
                let seat_name = live.game.seat_name(seat);
                eprintln!(
                    "crusades serve: game {}: the AI ({who}) of {seat_name} could not play: {e}",
                    slot.id,
                );
                // The players are told, without the details (an AI's failed action may be
                // a secret one).
                live.ai_failure = Some(format!(
                    "the AI player ({who}) of {seat_name} could not play and has stopped; \
                     the server's log says why"
                ));
                live.touched(&slot);
                live.ai_running = false;
                return;
            }
        }
    }
}
