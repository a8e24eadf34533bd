//! The server's errors: every refusal is an HTTP status with a message naming what is wrong,
//! sent as `{ "error": "..." }` (docs/api.md).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// A refused or failed request: its HTTP status and a message for the client.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// The HTTP status (4xx for the client's fault, 5xx for the server's).
    pub status: StatusCode,
    /// What is wrong, in words a player can act on.
    pub message: String,
    /// Set when an action was refused only because it rolls more dice than were entered
    /// (manual dice): the client should ask for the dice and send it again.
    pub dice_needed: bool,
}

impl ApiError {
    /// An error of this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            dice_needed: false,
        }
    }

    /// 400: the request itself is malformed.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 401: no token where one is needed, or a token of no seat.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }

    /// 403: the seat may not do this now.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }

    /// 404: no such game or page.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: the request was made against another revision of the game, or the game is over.
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, message)
    }

    /// 422: well-formed, but the rules or the scenario refuse it.
    pub fn unprocessable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 500: the server failed (storage); the game is as it was before the request.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// The error as the JSON body every refusal has.
    pub fn body(&self) -> serde_json::Value {
        if self.dice_needed {
            json!({ "error": self.message, "dice_needed": true })
        } else {
            json!({ "error": self.message })
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError::internal(format!("storage failed: {e}"))
    }
}
