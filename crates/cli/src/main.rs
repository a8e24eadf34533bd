//! `crusades`: the command line of the project (DESIGN.md, "Command line"). It starts,
//! plays, inspects, renders, replays and simulates games of every registered game through
//! the `registry`, never naming a particular game.
//!
//! Every file it writes is written atomically (a temporary file renamed over the target), and
//! on any error a save file is left byte-for-byte unchanged. Exit status: 0 on success, 2 for
//! bad input or an illegal action (with a message on stderr saying what and why), 1 for
//! anything else (input/output). `--json` output is versioned and documented in
//! `docs/json.md`; the commands are documented in `docs/cli.md`.

/// Prints a line on stdout; if stdout is closed (`crusades actions … | head`), exits quietly
/// with status 0 rather than panicking. Print only after every file has been written.
macro_rules! say {
    () => {
        $crate::stdout_write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::stdout_write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// As `say!`, without the newline (prompts).
macro_rules! say_part {
    ($($arg:tt)*) => {
        $crate::stdout_write(format_args!($($arg)*))
    };
}

mod commands;
mod error;
mod output;
mod play;
mod plot;
mod serve;
mod simulate;
mod text;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliError;

/// Digital engine for Crusades-era board wargames: start, play, inspect, render, replay and
/// simulate games.
#[derive(Parser, Debug)]
#[command(name = "crusades", version)]
pub struct Cli {
    /// A folder of data files replacing the built-in ones at the same relative paths
    /// (for example crusades-ii/tables.toml).
    #[arg(long, global = true, env = "CRUSADES_DATA", value_name = "DIR")]
    pub data: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every scenario of every game, with seats and options.
    Scenarios {
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Start a game and save it to a file.
    New {
        /// The scenario, as GAME/SCENARIO (crusades-ii/hattin).
        scenario: String,
        /// The seed of the dice (random when not given; printed either way).
        #[arg(long)]
        seed: Option<u64>,
        /// An optional or advanced rule to use (repeat for several).
        #[arg(long = "option", value_name = "NAME")]
        options: Vec<String>,
        /// Start from this position file instead of the scenario's set-up.
        #[arg(long, value_name = "FILE")]
        position: Option<PathBuf>,
        /// Players enter the dice they roll at a real table (`act --dice`).
        #[arg(long)]
        manual_dice: bool,
        /// Where to save the game.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Overwrite the file if it exists.
        #[arg(long)]
        force: bool,
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Turn and phase, who must decide, and the outcome.
    Status {
        /// The saved game.
        file: PathBuf,
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// The actions a seat may take now, one notation a line.
    Actions {
        /// The saved game.
        file: PathBuf,
        /// The seat, by name.
        #[arg(long)]
        seat: String,
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Take an action and save the game.
    Act {
        /// The saved game.
        file: PathBuf,
        /// The seat taking the action, by name.
        #[arg(long)]
        seat: String,
        /// The action in notation; several words are joined by spaces.
        #[arg(required = true, num_args = 1.., value_name = "ACTION")]
        action: Vec<String>,
        /// The dice rolled at the table for this action (manual dice), e.g. 4,2.
        #[arg(long, value_name = "D,D,...")]
        dice: Option<String>,
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Take back a seat's last action where the rules allow, and save the game.
    Undo {
        /// The saved game.
        file: PathBuf,
        /// The seat, by name.
        #[arg(long)]
        seat: String,
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// What a seat (or a spectator) sees of the game.
    View {
        /// The saved game.
        file: PathBuf,
        /// The seat looking; a spectator when not given.
        #[arg(long)]
        seat: Option<String>,
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Every event a seat (or a spectator) may see, oldest first.
    Log {
        /// The saved game.
        file: PathBuf,
        /// The seat looking; a spectator when not given.
        #[arg(long)]
        seat: Option<String>,
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Draw the map and counters as a seat (or a spectator) sees them, as SVG.
    Render {
        /// The saved game.
        file: PathBuf,
        /// The seat looking; a spectator when not given.
        #[arg(long)]
        seat: Option<String>,
        /// Where to write the picture.
        #[arg(long, value_name = "OUT")]
        svg: PathBuf,
    },
    /// Replay a saved game and check that it reaches the saved state.
    Replay {
        /// The saved game.
        file: PathBuf,
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Data files.
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Play a game at this keyboard (hot-seat), reading one line of input at a time.
    Play {
        /// The scenario, as GAME/SCENARIO (crusades-ii/hattin).
        scenario: String,
        /// A seat played at this keyboard (repeat for several; when not given, every seat
        /// without --ai). Other seats are played by an AI player, random unless --ai says.
        #[arg(long = "seat", value_name = "SEAT")]
        seats: Vec<String>,
        /// An AI player for a seat: SEAT=PLAYER, PLAYER being random, heuristic,
        /// mcts:ITERATIONS or mcts:SECONDSs (repeat for several).
        #[arg(long = "ai", value_name = "SEAT=PLAYER")]
        ai: Vec<String>,
        /// The seed of the dice (random when not given).
        #[arg(long)]
        seed: Option<u64>,
        /// An optional or advanced rule to use (repeat for several).
        #[arg(long = "option", value_name = "NAME")]
        options: Vec<String>,
        /// Save the game to this file after every action and on leaving.
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
        /// Overwrite the save file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Play many games between AI players and summarise who won, how and how long games took.
    Simulate {
        /// The scenario, as GAME/SCENARIO (crusades-ii/hab).
        scenario: String,
        /// How many games to play.
        #[arg(long)]
        games: u64,
        /// A seat's player: SEAT=PLAYER, PLAYER being random, heuristic, mcts:ITERATIONS or
        /// mcts:SECONDSs (repeat for several; other seats play random).
        #[arg(long = "ai", value_name = "SEAT=PLAYER")]
        ai: Vec<String>,
        /// An optional or advanced rule to use (repeat for several).
        #[arg(long = "option", value_name = "NAME")]
        options: Vec<String>,
        /// Threads to play on (the machine's cores when not given); results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// The seed every game's seeds derive from (random when not given; printed either way).
        #[arg(long)]
        seed: Option<u64>,
        /// Stop a game still going after this many actions and count it unfinished.
        #[arg(long, value_name = "N", default_value_t = registry::Batch::MAX_ACTIONS)]
        max_actions: u64,
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
        /// Draw the outcomes and the game lengths to this file: SVG or PNG, by its ending.
        #[arg(long, value_name = "OUT")]
        plot: Option<PathBuf>,
    },
    /// Serve games over HTTP and WebSocket, with the web client (docs/api.md).
    Serve(server::ServeArgs),
}

#[derive(Subcommand, Debug)]
enum DataCommand {
    /// Every value of the data with its provenance (printed or reconstructed, and why).
    Audit {
        /// Print JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
}

fn run(cli: Cli) -> Result<(), CliError> {
    let ctx = commands::Context { data_dir: cli.data };
    match cli.command {
        Command::Scenarios { json } => commands::scenarios(&ctx, json),
        Command::New {
            scenario,
            seed,
            options,
            position,
            manual_dice,
            out,
            force,
            json,
        } => commands::new(
            &ctx,
            commands::NewArgs {
                scenario,
                seed,
                options,
                position,
                manual_dice,
                out,
                force,
                json,
            },
        ),
        Command::Status { file, json } => commands::status(&ctx, &file, json),
        Command::Actions { file, seat, json } => commands::actions(&ctx, &file, &seat, json),
        Command::Act {
            file,
            seat,
            action,
            dice,
            json,
        } => commands::act(&ctx, &file, &seat, &action.join(" "), dice.as_deref(), json),
        Command::Undo { file, seat, json } => commands::undo(&ctx, &file, &seat, json),
        Command::View { file, seat, json } => commands::view(&ctx, &file, seat.as_deref(), json),
        Command::Log { file, seat, json } => commands::log(&ctx, &file, seat.as_deref(), json),
        Command::Render { file, seat, svg } => commands::render(&ctx, &file, seat.as_deref(), &svg),
        Command::Replay { file, json } => commands::replay(&ctx, &file, json),
        Command::Data {
            command: DataCommand::Audit { json },
        } => commands::audit(&ctx, json),
        Command::Play {
            scenario,
            seats,
            ai,
            seed,
            options,
            save,
            force,
        } => play::play(
            &ctx,
            play::PlayArgs {
                scenario,
                seats,
                ai,
                seed,
                options,
                save,
                force,
            },
        ),
        Command::Serve(args) => serve::serve(&ctx, &args),
        Command::Simulate {
            scenario,
            games,
            ai,
            options,
            threads,
            seed,
            max_actions,
            json,
            plot,
        } => simulate::simulate(
            &ctx,
            simulate::SimulateArgs {
                scenario,
                games,
                ai,
                options,
                threads,
                seed,
                max_actions,
                json,
                plot,
            },
        ),
    }
}

/// Writes to stdout and flushes; exits with status 0 if the reader has gone away.
pub fn stdout_write(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("crusades: cannot write to stdout: {e}");
        std::process::exit(i32::from(error::OTHER));
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("crusades: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}
