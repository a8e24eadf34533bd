//! The server alone, as `crusades serve` runs it (the server's tests start this binary).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// Serve games over HTTP and WebSocket (the same as `crusades serve`).
#[derive(Parser, Debug)]
#[command(name = "crusades-server", version)]
struct Cli {
    /// A folder of data files replacing the built-in ones at the same relative paths.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    #[command(flatten)]
    serve: server::ServeArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match server::run(&cli.serve, cli.data.as_deref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("crusades-server: {e}");
            ExitCode::from(if e.is_bad_input() { 2 } else { 1 })
        }
    }
}
