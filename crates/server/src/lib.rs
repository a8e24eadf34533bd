//! The game server (`crusades serve`): games played over HTTP and WebSocket by people and
//! by AI players inside the server, every game stored as its record in an SQLite file or a
//! PostgreSQL database, and the web client (web/app/) served from the same address.
//!
//! - [`store`]: the database (one code path and one set of migrations for both kinds).
//! - [`games`]: the games in play, each behind its own lock; actions, undo, AI seats, and the
//!   state document each viewer receives.
//! - [`api`]: the routes of docs/api.md.
//! - [`diff`]: the differences between two documents that the WebSocket sends.
//! - [`web`]: the web client's files.
//!
//! The server never names a particular game: everything goes through `registry::AnyGame`.

#![warn(missing_docs)]

pub mod api;
pub mod diff;
pub mod error;
pub mod games;
pub mod store;
pub mod web;

use std::path::{Path, PathBuf};

pub use error::ApiError;

/// The allocator of every program that links the server (`crusades`, `crusades-server`):
/// building each viewer's state document after every action makes and drops many small
/// JSON values from several threads, which mimalloc serves several times faster than the
/// system's allocator (the load benchmark, docs/api.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The arguments of `crusades serve`.
#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// The address to listen on (port 0 picks a free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// The database: sqlite:FILE (created if missing) or postgres://USER@HOST/DB.
    #[arg(long, value_name = "URL", default_value = "sqlite:crusades.db")]
    pub db: String,
    /// Serve the web client from this folder instead of the copy built into the program.
    #[arg(long, value_name = "DIR")]
    pub web_dir: Option<PathBuf>,
    /// Once listening, open a new game of this scenario in the default browser (the first
    /// seat human, the others the game's heuristic player); without a value, Hattin.
    #[arg(
        long,
        value_name = "SCENARIO",
        num_args = 0..=1,
        default_missing_value = "crusades-ii/hattin"
    )]
    pub open: Option<String>,
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The game data is wrong.
    #[error("bad data:\n{0}")]
    Data(engine::DataErrors),
    /// The database could not be opened.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// The address could not be listened on, or the server failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The scenario given to `--open` is not one of the program's.
    #[error("--open: {0}")]
    Open(registry::RegistryError),
    /// The web folder given does not exist.
    #[error("--web-dir {0}: not a folder")]
    WebDir(PathBuf),
}

impl ServeError {
    /// Whether the error is the user's (bad data, a bad URL or folder) rather than the
    /// system's.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            ServeError::Data(_) | ServeError::WebDir(_) | ServeError::Open(_)
        )
    }
}

/// The database kind a URL names, for messages (never the URL itself, which may hold a
/// password).
fn db_kind(url: &str) -> &str {
    url.split(':').next().unwrap_or("?")
}

/// Runs the server until it is stopped (Ctrl-C), with the built-in data or the files of
/// `data_dir` over them. Prints `listening on http://ADDR` on stdout once it accepts
/// connections.
pub fn run(args: &ServeArgs, data_dir: Option<&Path>) -> Result<(), ServeError> {
    let data = registry::all_data(data_dir).map_err(ServeError::Data)?;
    let web = match &args.web_dir {
        Some(dir) if !dir.is_dir() => return Err(ServeError::WebDir(dir.clone())),
        Some(dir) => web::WebFiles::Folder(dir.clone()),
        None => web::WebFiles::Embedded,
    };
    if let Some(scenario) = &args.open {
        registry::find_scenario(scenario, &data).map_err(ServeError::Open)?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let store = store::Store::open(&args.db).await?;
        let games = games::Games::new(store, data);
        let listener = tokio::net::TcpListener::bind(&args.addr).await?;
        let resumed = games.resume().await?;
        println!(
            "crusades serve: listening on http://{} ({} database, {resumed} games with AI seats resumed)",
            listener.local_addr()?,
            db_kind(&args.db),
        );
        if let Some(scenario) = &args.open {
            open_browser(listener.local_addr()?, scenario);
        }
        let app = api::router(api::App { games, web });
        // Small WebSocket messages go out at once (no Nagle delay waiting for an ACK).
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}

/// Opens the lobby's quick start for `scenario` in the default browser, or says where to go
/// when there is none (a machine without a desktop).
fn open_browser(addr: std::net::SocketAddr, scenario: &str) {
    let host = if addr.ip().is_unspecified() {
        std::net::SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), addr.port())
    } else {
        addr
    };
    let url = format!("http://{host}/?play={scenario}");
    match open::that_detached(&url) {
        Ok(()) => println!("crusades serve: opened {url}"),
        Err(e) => {
            println!("crusades serve: open {url} in a browser (no browser could be started: {e})")
        }
    }
}
