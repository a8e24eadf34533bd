//! The games in play: each is rebuilt from its stored record on first use and kept in
//! memory behind its own lock, so that one game's actions are taken, committed and announced
//! in order while other games go on. Every change is committed to the store before it is
//! acknowledged or shown to anyone; AI seats think on the blocking thread pool and their
//! actions are committed like any other.
//!
//! What leaves this module for a client is only the state document of one viewer
//! ([`state_doc`]): the game's view for that seat or a spectator, never its record.

use std::collections::{BTreeMap, HashMap};
use std::str::FromStr;
use std::sync::{Arc, Mutex as StdMutex};

use ai::PlayerSpec;
use engine::{ActError, DataSet, DiceMode, Event, Pending, Seat, UndoError, Viewer, Visibility};
use rand::RngCore;
use registry::AnyGame;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{watch, Mutex};

use crate::error::ApiError;
use crate::store::{Store, StoreError, StoredSeat};

/// The version of every JSON document the server sends.
pub const VERSION: u32 = 1;

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

/// A game in memory, as its lock guards it.
pub struct Live {
    game: Box<dyn AnyGame>,
    revision: u64,
    players: Vec<Player>,
    /// Whether an AI driver is working on this game.
    ai_running: bool,
    /// Set when a change could not be committed: this copy is stale and must not be used.
    broken: bool,
    /// The state documents of this revision already built, as JSON text, by viewer (many
    /// connections of one viewer, and the answer to an action, share one).
    docs: HashMap<Viewer, Arc<String>>,
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
}

/// Every game, in the store and in memory.
pub struct Games {
    store: Store,
    data: Arc<DataSet>,
    live: StdMutex<HashMap<String, Arc<Slot>>>,
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

    fn check_revision(&self, revision: u64) -> Result<(), ApiError> {
        if revision == self.revision {
            Ok(())
        } else {
            Err(ApiError::conflict(format!(
                "revision {revision} is not the game's current revision {}: the game has changed \
                 since (or this was sent twice); nothing was done",
                self.revision
            )))
        }
    }

    /// The state document of `viewer` at this revision, as JSON text.
    fn doc(&mut self, viewer: Viewer) -> Arc<String> {
        if let Some(doc) = self.docs.get(&viewer) {
            return doc.clone();
        }
        let doc = Arc::new(state_doc(self, viewer).to_string());
        self.docs.insert(viewer, doc.clone());
        doc
    }

    /// Moves to the next revision after a committed change.
    fn changed(&mut self, slot: &Slot) {
        self.revision += 1;
        self.docs.clear();
        slot.changed.send_replace(self.revision);
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

/// The state document of `viewer` (docs/api.md): only what that viewer may see.
fn state_doc(live: &Live, viewer: Viewer) -> Value {
    let game = live.game.as_ref();
    let names = game.seat_names();
    let board = game.board(viewer);
    let pending = game.pending();
    let seat = match viewer {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator => None,
    };
    let your_turn = seat.is_some_and(|s| pending.seats().contains(&s));
    let actions = match seat {
        Some(s) if your_turn => {
            serde_json::to_value(game.describe_actions(s)).expect("action descriptions serialise")
        }
        _ => json!([]),
    };
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
    // One view of the game gives both its state and its log (building a view lists the
    // viewer's legal actions, which is not free).
    let mut view = game.view_json(viewer);
    let events: Vec<Event> = view
        .get_mut("log")
        .map(Value::take)
        .and_then(|log| serde_json::from_value(log).ok())
        .unwrap_or_else(|| game.events(viewer));
    let log: Vec<Value> = events.iter().map(|e| event_json(&names, e)).collect();
    json!({
        "version": VERSION,
        "game": game.game_id(),
        "scenario": game.scenario(),
        "title": board.title,
        "seat": seat.map(|s| game.seat_name(s)),
        "seats": names,
        "ai_seats": ai_seats,
        "pending": pending.seats().iter().map(|&s| game.seat_name(s)).collect::<Vec<_>>(),
        "your_turn": your_turn,
        "revision": live.revision,
        "status": board.status,
        "board": board,
        "view": view.get("state").cloned().unwrap_or(Value::Null),
        "log": log,
        "actions": actions,
        "can_undo": can_undo,
        "outcome": outcome,
    })
}

/// The status of an engine refusal of an action.
fn act_error(e: ActError) -> ApiError {
    match e {
        ActError::NotPending { .. } => ApiError::forbidden(e.to_string()),
        ActError::GameOver { .. } => ApiError::conflict(e.to_string()),
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
        })
    }

    /// The data every game is played with.
    pub fn data(&self) -> &DataSet {
        &self.data
    }

    /// Starts and stores a new game; its AI seats start thinking at once.
    pub async fn create(self: &Arc<Self>, req: CreateRequest) -> Result<Created, ApiError> {
        let seed = req.seed.unwrap_or_else(|| rand::rngs::OsRng.next_u64());
        let game = registry::new_game(
            &req.scenario,
            &req.options,
            seed,
            DiceMode::Seeded,
            None,
            &self.data,
        )
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
        let slot = self.insert(&id, game, players, 0);
        self.kick_ai(slot);
        Ok(Created { id, tokens })
    }

    fn insert(
        &self,
        id: &str,
        game: Box<dyn AnyGame>,
        players: Vec<Player>,
        revision: u64,
    ) -> Arc<Slot> {
        let slot = Arc::new(Slot {
            id: id.to_string(),
            live: Mutex::new(Live {
                game,
                revision,
                players,
                ai_running: false,
                broken: false,
                docs: HashMap::new(),
            }),
            changed: watch::Sender::new(revision),
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
        let slot = self.insert(id, game, players, stored.revision);
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
        slot.changed.send_replace(live.revision);
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
        live.changed(slot);
        Ok(())
    }

    /// A seat's action (`POST /api/games/ID/actions`): the new state document for the seat,
    /// as JSON text.
    pub async fn act(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        token: Option<&str>,
        req: &ActRequest,
    ) -> Result<Arc<String>, ApiError> {
        let mut live = slot.live.lock().await;
        live.usable()?;
        let seat = live.seat(&slot.id, token, "taking an action")?;
        live.check_revision(req.revision)?;
        self.commit_act(slot, &mut live, seat, &req.action, &req.dice)
            .await?;
        let doc = live.doc(Viewer::Seat(seat));
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
        live.check_revision(req.revision)?;
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
        live.changed(slot);
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
                eprintln!(
                    "crusades serve: game {}: the AI ({who}) of {} could not play: {e}",
                    slot.id,
                    live.game.seat_name(seat)
                );
                live.ai_running = false;
                return;
            }
        }
    }
}
