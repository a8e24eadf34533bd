//! Errors of the command line and their exit status: 2 for bad input or an illegal action,
//! 1 for anything else.

use std::fmt::Display;

use registry::RegistryError;

/// Exit status for bad input or an illegal action.
pub const BAD_INPUT: u8 = 2;
/// Exit status for anything else (input/output).
pub const OTHER: u8 = 1;

/// An error to print on stderr, with the exit status it gives.
#[derive(Debug)]
pub struct CliError {
    /// The exit status.
    pub code: u8,
    /// What went wrong and why.
    pub message: String,
}

impl CliError {
    /// Bad input or an illegal action (exit 2).
    pub fn bad(message: impl Display) -> Self {
        CliError {
            code: BAD_INPUT,
            message: message.to_string(),
        }
    }

    /// Anything else: input/output (exit 1).
    pub fn other(message: impl Display) -> Self {
        CliError {
            code: OTHER,
            message: message.to_string(),
        }
    }

    /// Exit 2 when `bad`, else 1.
    pub fn new(bad: bool, message: impl Display) -> Self {
        if bad {
            Self::bad(message)
        } else {
            Self::other(message)
        }
    }
}

impl From<RegistryError> for CliError {
    fn from(e: RegistryError) -> Self {
        CliError::new(e.is_bad_input(), e)
    }
}
