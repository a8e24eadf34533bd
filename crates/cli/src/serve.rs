//! `crusades serve`: the game server of the `server` crate, with this command line's data.

use crate::commands::Context;
use crate::error::CliError;

/// Runs the server until Ctrl-C.
pub fn serve(ctx: &Context, args: &server::ServeArgs) -> Result<(), CliError> {
    server::run(args, ctx.data_dir.as_deref()).map_err(|e| CliError::new(e.is_bad_input(), e))
}
