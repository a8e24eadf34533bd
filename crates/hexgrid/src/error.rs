//! Parse errors for the textual forms of grid types (hex ids, directions, vertices).

use thiserror::Error;

/// Error returned when parsing a [`HexId`](crate::HexId), [`Direction`](crate::Direction)
/// or [`Vertex`](crate::Vertex) from text fails. The message names the offending text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The text is not exactly four ASCII digits (column then row).
    #[error(
        "invalid hex id {0:?}: expected exactly four ASCII digits, column then row (e.g. \"1110\")"
    )]
    HexId(String),
    /// The text is not one of the six side names.
    #[error("invalid direction {0:?}: expected one of N, NE, SE, S, SW, NW")]
    Direction(String),
    /// The text is not one of the six corner names.
    #[error("invalid vertex {0:?}: expected one of NNE, E, SSE, SSW, W, NNW")]
    Vertex(String),
}
