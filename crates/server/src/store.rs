//! Where games are kept: an SQLite file or a PostgreSQL database, through one code path
//! (sqlx's `any` driver) and one set of migrations (`migrations/`).
//!
//! A game is stored as its record: the record's header once, and each action as a row. Every
//! change is one transaction that also moves the game's revision on, and it is refused unless
//! the stored revision is the one the change was made against, so a write can never be lost
//! or applied twice.
//!
//! Changes are committed by one writer task in groups: every change waiting when a
//! transaction starts goes into it, each under its own savepoint (so one refused change
//! leaves the others), and each is answered once the transaction has committed. Many games
//! share one commit instead of queueing for the database one by one.

use engine::{GameRecord, RecordedAction};
use serde::{Deserialize, Serialize};
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Row};

/// The migrations, embedded at build time.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Why the database could not be opened or used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Sql(#[from] sqlx::Error),
    /// The migrations could not be applied.
    #[error("database migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored row does not read back (edited or damaged database).
    #[error("game {id} in the database is damaged: {message}")]
    Damaged {
        /// The game's id.
        id: String,
        /// What is wrong.
        message: String,
    },
    /// The group of changes this one was committed with failed.
    #[error("database: {0}")]
    Group(String),
    /// The stored revision moved under us: another server process writes to the database.
    #[error("game {id} was changed by someone else (is another server using this database?)")]
    Conflict {
        /// The game's id.
        id: String,
    },
}

/// One seat of a stored game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeat {
    /// The seat's name, as the game names it.
    pub seat: String,
    /// `human`, or the AI player that plays it (`mcts:1000`).
    pub player: String,
    /// The blake3 hash (hex) of a human seat's token; the token itself is never stored.
    pub token_hash: Option<String>,
}

/// A game as stored: enough to rebuild it with `registry::from_record`.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// The game's id.
    pub id: String,
    /// The full record (header, every action and the final state hash).
    pub record: GameRecord,
    /// Its seats.
    pub seats: Vec<StoredSeat>,
    /// How many changes it has had.
    pub revision: u64,
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    writer: tokio::sync::mpsc::UnboundedSender<Job>,
}

/// One change to commit.
#[derive(Debug)]
enum Change {
    /// An action: its row, and the game's revision moved on.
    Append {
        id: String,
        revision: u64,
        seq: usize,
        action: String,
        state_hash: String,
    },
    /// An undo: the rows from `keep` on removed, and the revision moved on.
    Truncate {
        id: String,
        revision: u64,
        keep: usize,
        state_hash: String,
    },
}

/// A change waiting for the writer, with where to send its outcome.
#[derive(Debug)]
struct Job {
    change: Change,
    done: tokio::sync::oneshot::Sender<Result<(), StoreError>>,
}

/// The most changes in one transaction.
const GROUP: usize = 256;

/// Commits the changes sent to it, in groups, until every sender is gone.
async fn writer(pool: AnyPool, mut jobs: tokio::sync::mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = jobs.recv().await {
        let mut group = vec![first];
        while group.len() < GROUP {
            match jobs.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let outcomes = commit_group(&pool, &group).await;
        for (job, outcome) in group.into_iter().zip(outcomes) {
            let _ = job.done.send(outcome);
        }
    }
}

/// Commits a group of changes in one transaction; one outcome per change.
async fn commit_group(pool: &AnyPool, group: &[Job]) -> Vec<Result<(), StoreError>> {
    let failed = |e: &sqlx::Error| {
        group
            .iter()
            .map(|_| Err(StoreError::Group(e.to_string())))
            .collect()
    };
    let mut tx = match pool.begin().await {
        Ok(tx) => tx,
        Err(e) => return failed(&e),
    };
    let mut outcomes = Vec::with_capacity(group.len());
    for job in group {
        if let Err(e) = sqlx::query("SAVEPOINT change").execute(&mut *tx).await {
            return failed(&e);
        }
        let outcome = apply_change(&mut tx, &job.change).await;
        let end = if outcome.is_ok() {
            "RELEASE SAVEPOINT change"
        } else {
            "ROLLBACK TO SAVEPOINT change"
        };
        if let Err(e) = sqlx::query(end).execute(&mut *tx).await {
            return failed(&e);
        }
        outcomes.push(outcome);
    }
    match tx.commit().await {
        Ok(()) => outcomes,
        Err(e) => failed(&e),
    }
}

async fn apply_change(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    change: &Change,
) -> Result<(), StoreError> {
    match change {
        Change::Append {
            id,
            revision,
            seq,
            action,
            state_hash,
        } => {
            sqlx::query("INSERT INTO actions (game_id, seq, action) VALUES ($1, $2, $3)")
                .bind(id.as_str())
                .bind(*seq as i64)
                .bind(action.as_str())
                .execute(&mut **tx)
                .await?;
            bump(tx, id, *revision, state_hash).await
        }
        Change::Truncate {
            id,
            revision,
            keep,
            state_hash,
        } => {
            sqlx::query("DELETE FROM actions WHERE game_id = $1 AND seq >= $2")
                .bind(id.as_str())
                .bind(*keep as i64)
                .execute(&mut **tx)
                .await?;
            bump(tx, id, *revision, state_hash).await
        }
    }
}

/// The URL sqlx should open for `url`: a bare path is an SQLite file, and an SQLite file is
/// created when missing.
pub fn normalise_url(url: &str) -> String {
    let url = if url.contains(':') {
        url.to_string()
    } else {
        format!("sqlite:{url}")
    };
    if url.starts_with("sqlite:") && !url.contains(":memory:") && !url.contains("mode=") {
        let sep = if url.contains('?') { '&' } else { '?' };
        format!("{url}{sep}mode=rwc")
    } else {
        url
    }
}

impl Store {
    /// Opens the database at `url` (`sqlite:crusades.db`, `postgres://user@host/db`), creating
    /// an SQLite file if missing, and applies the migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let url = normalise_url(url);
        let sqlite = url.starts_with("sqlite:");
        // SQLite takes one writer at a time: one connection avoids busy errors, and the
        // game's own lock already orders each game's writes.
        let mut options = AnyPoolOptions::new().max_connections(if sqlite { 1 } else { 8 });
        if sqlite {
            // Write-ahead logging, and a commit is complete once it is in the log, without
            // waiting for the disk (synchronous=NORMAL): a committed change survives the
            // server being killed (the log is in the operating system's hands), and only a
            // crash of the operating system or a power cut could lose the last commits
            // (never damage the database). Waiting for the disk at every commit
            // (synchronous=FULL) would hold each game's lock for a disk flush.
            options = options.after_connect(|conn, _| {
                Box::pin(async move {
                    sqlx::query("PRAGMA journal_mode=WAL")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("PRAGMA synchronous=NORMAL")
                        .execute(&mut *conn)
                        .await?;
                    Ok(())
                })
            });
        }
        let pool = options.connect(&url).await?;
        MIGRATOR.run(&pool).await?;
        let (writer_tx, jobs) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(writer(pool.clone(), jobs));
        Ok(Store {
            pool,
            writer: writer_tx,
        })
    }

    /// Has the writer commit a change; answers once it is committed (or refused).
    async fn commit(&self, change: Change) -> Result<(), StoreError> {
        let (done, outcome) = tokio::sync::oneshot::channel();
        let stopped = || StoreError::Group("the database writer has stopped".into());
        self.writer
            .send(Job { change, done })
            .map_err(|_| stopped())?;
        outcome.await.map_err(|_| stopped())?
    }

    /// Stores a new game with the actions of its record (none for a new game).
    pub async fn create(
        &self,
        id: &str,
        record: &GameRecord,
        seats: &[StoredSeat],
    ) -> Result<(), StoreError> {
        let header = header_json(record);
        let seats = serde_json::to_string(seats).expect("seats serialise");
        let created = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, header, seats, revision, state_hash, created) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(header)
        .bind(seats)
        .bind(0_i64)
        .bind(record.state_hash.clone())
        .bind(created)
        .execute(&mut *tx)
        .await?;
        for (seq, action) in record.actions.iter().enumerate() {
            insert_action(&mut tx, id, seq, action).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The ids of every stored game, oldest first.
    pub async fn ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games ORDER BY created, id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
            .collect()
    }

    /// The stored game of this id, if there is one.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let Some(row) =
            sqlx::query("SELECT header, seats, revision, state_hash FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?
        else {
            return Ok(None);
        };
        let damaged = |message: String| StoreError::Damaged {
            id: id.to_string(),
            message,
        };
        let header: String = row.try_get("header")?;
        let seats: String = row.try_get("seats")?;
        let revision: i64 = row.try_get("revision")?;
        let state_hash: String = row.try_get("state_hash")?;
        let mut record: GameRecord =
            serde_json::from_str(&header).map_err(|e| damaged(format!("its header: {e}")))?;
        let seats: Vec<StoredSeat> =
            serde_json::from_str(&seats).map_err(|e| damaged(format!("its seats: {e}")))?;
        let rows = sqlx::query("SELECT seq, action FROM actions WHERE game_id = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        record.actions = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let seq: i64 = row.try_get("seq")?;
            if seq != i as i64 {
                return Err(damaged(format!("action {i} is missing")));
            }
            let text: String = row.try_get("action")?;
            record.actions.push(
                serde_json::from_str(&text).map_err(|e| damaged(format!("action {i}: {e}")))?,
            );
        }
        record.state_hash = state_hash;
        Ok(Some(StoredGame {
            id: id.to_string(),
            record,
            seats,
            revision: u64::try_from(revision)
                .map_err(|_| damaged(format!("negative revision {revision}")))?,
        }))
    }

    /// Commits one action taken at revision `revision` as the record's action number `seq`,
    /// moving the game to revision `revision + 1` with this state hash.
    pub async fn append(
        &self,
        id: &str,
        revision: u64,
        seq: usize,
        action: &RecordedAction,
        state_hash: &str,
    ) -> Result<(), StoreError> {
        self.commit(Change::Append {
            id: id.to_string(),
            revision,
            seq,
            action: serde_json::to_string(action).expect("actions serialise"),
            state_hash: state_hash.to_string(),
        })
        .await
    }

    /// Commits an undo at revision `revision`: the record keeps its first `keep` actions, and
    /// the game moves to revision `revision + 1` with this state hash.
    pub async fn truncate(
        &self,
        id: &str,
        revision: u64,
        keep: usize,
        state_hash: &str,
    ) -> Result<(), StoreError> {
        self.commit(Change::Truncate {
            id: id.to_string(),
            revision,
            keep,
            state_hash: state_hash.to_string(),
        })
        .await
    }
}

/// The record as stored in `games.header`: without its actions.
fn header_json(record: &GameRecord) -> String {
    let header = GameRecord {
        actions: Vec::new(),
        ..record.clone()
    };
    serde_json::to_string(&header).expect("records serialise")
}

async fn insert_action(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    seq: usize,
    action: &RecordedAction,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO actions (game_id, seq, action) VALUES ($1, $2, $3)")
        .bind(id)
        .bind(seq as i64)
        .bind(serde_json::to_string(action).expect("actions serialise"))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Moves the game from `revision` to the next, or fails if it is not at `revision`.
async fn bump(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    revision: u64,
    state_hash: &str,
) -> Result<(), StoreError> {
    let done = sqlx::query(
        "UPDATE games SET revision = $1, state_hash = $2 WHERE id = $3 AND revision = $4",
    )
    .bind(revision as i64 + 1)
    .bind(state_hash)
    .bind(id)
    .bind(revision as i64)
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict { id: id.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::{normalise_url, Store};

    #[tokio::test]
    async fn sqlite_logs_ahead_and_commits_without_waiting_for_the_disk() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let url = format!("sqlite:{}", dir.path().join("games.db").display());
        let store = Store::open(&url).await.expect("the database opens");
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&store.pool)
            .await
            .expect("journal_mode");
        assert_eq!(mode, "wal");
        // 1 is NORMAL (2 would be FULL).
        let synchronous: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(&store.pool)
            .await
            .expect("synchronous");
        assert_eq!(synchronous, 1);
    }

    #[test]
    fn sqlite_files_are_created_when_missing() {
        assert_eq!(normalise_url("sqlite:games.db"), "sqlite:games.db?mode=rwc");
        assert_eq!(normalise_url("games.db"), "sqlite:games.db?mode=rwc");
        assert_eq!(
            normalise_url("sqlite:games.db?cache=shared"),
            "sqlite:games.db?cache=shared&mode=rwc"
        );
        assert_eq!(
            normalise_url("sqlite:games.db?mode=ro"),
            "sqlite:games.db?mode=ro"
        );
        assert_eq!(normalise_url("sqlite::memory:"), "sqlite::memory:");
        assert_eq!(
            normalise_url("postgres://u@localhost/db"),
            "postgres://u@localhost/db"
        );
    }
}
