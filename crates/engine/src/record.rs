//! Game records: the save-file format (DESIGN.md, "Randomness and records").
//!
//! A record is everything needed to rebuild a game: the game, scenario, options, data
//! version, seed, dice mode and optional starting position, then every action in order with
//! the dice entered for it. It ends with the hash of the state after the last action, so that
//! a replay that does not reproduce the game (an edited save, changed data, a rules change)
//! is noticed. The file is JSON; see [`GameRecord::FORMAT`] for the version.
//!
//! A record holds every seat's decisions, secret ones included: it is for saving and for the
//! server's database, never for showing to a player (views do that, see
//! [`crate::Session::view`]).

use std::fs;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::dice::DiceMode;
use crate::game::Setup;

/// A game as saved: how it started and every action since.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The version of this format; [`GameRecord::FORMAT`] for records written by this code.
    pub format: u32,
    /// The game's id (`crusades-ii`).
    pub game: String,
    /// The scenario id within the game (`hattin`).
    pub scenario: String,
    /// Names of the optional rules in use.
    pub options: Vec<String>,
    /// The version of the game's data files when the game was started or last loaded
    /// ([`crate::DataSet::version`]).
    pub data_version: String,
    /// The seed of the game's dice.
    pub seed: u64,
    /// Where the dice come from.
    pub dice: DiceMode,
    /// A position file's text the game started from instead of the scenario's set-up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// Every action taken, in order.
    pub actions: Vec<RecordedAction>,
    /// [`state_hash`] of the state after the last action (of the starting state when there
    /// is none).
    pub state_hash: String,
}

/// One action of a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedAction {
    /// The name of the seat that took it, as in [`crate::Facts::seats`].
    pub seat: String,
    /// The action in the game's text notation (its `Display`).
    pub action: String,
    /// The dice entered with it (manual dice only; empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<u8>,
    /// The dice it read, as read (informational; checked on replay).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolled: Vec<u8>,
    /// Whether it rolled dice, revealed hidden information or changed the pending seats, so
    /// that undo cannot go back past it (checked on replay).
    #[serde(default)]
    pub undo_barrier: bool,
}

/// Why a record could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The text is not JSON.
    #[error("not a game record: not JSON (line {line}, column {column}: {message})")]
    NotJson {
        /// Line of the error, 1-based.
        line: usize,
        /// Column of the error, 1-based.
        column: usize,
        /// What the JSON parser said.
        message: String,
    },
    /// The text stops in the middle of the JSON: the file was cut short.
    #[error("not a complete game record: the JSON ends early at line {line}, column {column} (truncated file?)")]
    Truncated {
        /// Line where the text ends.
        line: usize,
        /// Column where the text ends.
        column: usize,
    },
    /// JSON, but without a format version: some other file.
    #[error("not a game record: {0}")]
    NotARecord(String),
    /// A format version this program does not read.
    #[error("game record format {found} is not supported (this program reads format {supported})")]
    WrongFormat {
        /// The version in the file.
        found: u64,
        /// The version this program reads.
        supported: u32,
    },
    /// The right format version, but a field is missing, unknown or of the wrong type.
    #[error("invalid game record (line {line}, column {column}): {message}")]
    Invalid {
        /// Line of the error, 1-based.
        line: usize,
        /// Column of the error, 1-based.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A record of another game.
    #[error("this is a record of `{found}`, not of `{expected}`")]
    WrongGame {
        /// The game that was expected.
        expected: String,
        /// The game in the record.
        found: String,
    },
}

impl GameRecord {
    /// The record format written by this code.
    pub const FORMAT: u32 = 1;

    /// An empty record of a game started as `setup` says.
    pub fn new(game: &str, setup: &Setup, data_version: &str, state_hash: String) -> Self {
        GameRecord {
            format: Self::FORMAT,
            game: game.to_string(),
            scenario: setup.scenario.clone(),
            options: setup.options.clone(),
            data_version: data_version.to_string(),
            seed: setup.seed,
            dice: setup.dice,
            position: setup.position.clone(),
            actions: Vec::new(),
            state_hash,
        }
    }

    /// How the recorded game was started.
    pub fn setup(&self) -> Setup {
        Setup {
            scenario: self.scenario.clone(),
            options: self.options.clone(),
            seed: self.seed,
            dice: self.dice,
            position: self.position.clone(),
        }
    }

    /// Checks that this is a record of `game`.
    pub fn expect_game(&self, game: &str) -> Result<(), RecordError> {
        if self.game == game {
            Ok(())
        } else {
            Err(RecordError::WrongGame {
                expected: game.to_string(),
                found: self.game.clone(),
            })
        }
    }

    /// The record as pretty-printed JSON, ending with a newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a game record always serialises");
        text.push('\n');
        text
    }

    /// Reads a record from JSON text: first checks that it is JSON, complete, and of
    /// [`GameRecord::FORMAT`], then reads the fields.
    pub fn from_json(text: &str) -> Result<Self, RecordError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            if e.is_eof() {
                RecordError::Truncated {
                    line: e.line(),
                    column: e.column(),
                }
            } else {
                RecordError::NotJson {
                    line: e.line(),
                    column: e.column(),
                    message: message_of(&e),
                }
            }
        })?;
        let object = value.as_object().ok_or_else(|| {
            RecordError::NotARecord("the JSON is not an object with a `format` field".into())
        })?;
        let format = match object.get("format") {
            None => return Err(RecordError::NotARecord("no `format` field".into())),
            Some(f) => f.as_u64().ok_or_else(|| {
                RecordError::NotARecord(format!("`format` is {f}, not a version number"))
            })?,
        };
        if format != u64::from(Self::FORMAT) {
            return Err(RecordError::WrongFormat {
                found: format,
                supported: Self::FORMAT,
            });
        }
        serde_json::from_str(text).map_err(|e| RecordError::Invalid {
            line: e.line(),
            column: e.column(),
            message: message_of(&e),
        })
    }

    /// Reads a record from a file.
    pub fn load(path: &Path) -> Result<Self, RecordError> {
        let text = fs::read_to_string(path).map_err(|source| RecordError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_json(&text)
    }

    /// Writes the record to `path` atomically: to a temporary file in the same folder, synced
    /// to disk, then renamed over `path`, so that a crash leaves either the old file or the
    /// new one, never half of one.
    pub fn save(&self, path: &Path) -> Result<(), RecordError> {
        let io = |source| RecordError::Io {
            path: path.display().to_string(),
            source,
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
        tmp.write_all(self.to_json().as_bytes()).map_err(io)?;
        tmp.as_file().sync_all().map_err(io)?;
        tmp.persist(path).map_err(|e| io(e.error))?;
        // Make the rename itself durable. Not every platform can open a folder to sync it;
        // the file's own data is already on disk, so this is best effort.
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// serde_json's message without its " at line L column C" suffix (we report those apart).
fn message_of(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The hash of a game state: BLAKE3 of its serde_json serialisation (compact, fields in
/// declaration order), the first 16 hex digits.
///
/// This is canonical as long as the state serialises deterministically: use ordered maps
/// (`BTreeMap`) or vectors, never `HashMap`, and no floats that may be NaN. Panics if the
/// state cannot be serialised to JSON (for example a map with tuple keys), which is a bug in
/// the game.
pub fn state_hash<G: Serialize>(state: &G) -> String {
    // Written whole first, then hashed in one call: fed the serialiser's many small writes,
    // BLAKE3 costs several times more than on one buffer (which it hashes in parallel lanes).
    let text = serde_json::to_vec(state)
        .expect("a game state must serialise to JSON (maps need string or integer keys)");
    blake3::hash(&text).to_hex()[..16].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        let setup = Setup {
            scenario: "hattin".into(),
            options: vec!["fatigue".into()],
            seed: 42,
            dice: DiceMode::Manual,
            position: None,
        };
        let mut r = GameRecord::new("crusades-ii", &setup, "abcd", "0123456789abcdef".into());
        r.actions.push(RecordedAction {
            seat: "Crusaders".into(),
            action: "move 1619 1620".into(),
            dice: vec![4, 2],
            rolled: vec![4, 2],
            undo_barrier: true,
        });
        r
    }

    #[test]
    fn json_round_trips_and_setup_is_kept() {
        let r = sample();
        let back = GameRecord::from_json(&r.to_json()).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.setup().options, vec!["fatigue".to_string()]);
        assert_eq!(back.setup().dice, DiceMode::Manual);
    }

    #[test]
    fn save_is_atomic_and_loads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        let r = sample();
        r.save(&path).unwrap();
        let mut r2 = r.clone();
        r2.actions.clear();
        r2.save(&path).unwrap();
        assert_eq!(GameRecord::load(&path).unwrap(), r2);
        let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let json = sample().to_json();
        let cut = &json[..json.len() / 2];
        assert!(matches!(
            GameRecord::from_json(cut),
            Err(RecordError::Truncated { .. })
        ));
        assert!(matches!(
            GameRecord::from_json("hello"),
            Err(RecordError::NotJson { line: 1, .. })
        ));
        assert!(matches!(
            GameRecord::from_json("{\"game\": \"x\"}"),
            Err(RecordError::NotARecord(_))
        ));
        let v2 = json.replacen("\"format\": 1", "\"format\": 2", 1);
        let e = GameRecord::from_json(&v2).unwrap_err();
        assert!(matches!(
            e,
            RecordError::WrongFormat {
                found: 2,
                supported: 1
            }
        ));
        assert!(e.to_string().contains("format 2"), "{e}");
        let extra = json.replacen("\"seed\"", "\"colour\": 1, \"seed\"", 1);
        let e = GameRecord::from_json(&extra).unwrap_err();
        assert!(
            matches!(&e, RecordError::Invalid { message, .. } if message.contains("colour")),
            "{e}"
        );
        let e = sample().expect_game("acre").unwrap_err();
        assert_eq!(
            e.to_string(),
            "this is a record of `crusades-ii`, not of `acre`"
        );
        let e = GameRecord::load(Path::new("/nonexistent/dir/x.json")).unwrap_err();
        assert!(
            e.to_string().starts_with("/nonexistent/dir/x.json: "),
            "{e}"
        );
    }

    #[test]
    fn state_hash_is_stable_and_sensitive() {
        #[derive(Serialize)]
        struct S {
            a: u32,
            b: Vec<&'static str>,
        }
        let h = state_hash(&S { a: 1, b: vec!["x"] });
        assert_eq!(h.len(), 16);
        assert_eq!(h, state_hash(&S { a: 1, b: vec!["x"] }));
        assert_ne!(h, state_hash(&S { a: 2, b: vec!["x"] }));
        // Pinned: a change of hashing would make every saved game unreadable.
        assert_eq!(
            state_hash(&1u32),
            blake3::hash(b"1").to_hex()[..16].to_string()
        );
    }
}
