//! One error type for the shell, with stable codes, rendered as JSON by the API
//! (`{"error": {"code", "message", "field"}}`) and as a page or form message by the HTML side.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::format::Refusal;

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No such session (or page).
    #[error("{0}")]
    NotFound(String),
    /// The rules refused the input; nothing was written.
    #[error("{0}")]
    Refused(Refusal),
    /// The input is not what the endpoint reads (malformed JSON, a missing form field).
    #[error("{field}: {message}")]
    BadRequest {
        /// The field at fault.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// Someone else changed the session first (a hand entered on another device).
    #[error("{message}")]
    Conflict {
        /// The field that carried the stale expectation.
        field: String,
        /// What happened, in words.
        message: String,
    },
    /// No valid passphrase login or token for a change (401).
    #[error("{0}")]
    Unauthorized(String),
    /// A read-only link or token tried to change something (403).
    #[error("{0}")]
    Forbidden(String),
    /// A request body larger than the service reads (413).
    #[error("{message}")]
    PayloadTooLarge {
        /// The part that is too large (`body`).
        field: String,
        /// What the limit is, in words.
        message: String,
    },
    /// Too many passphrase attempts (429).
    #[error("{0}")]
    TooManyRequests(String),
    /// The database stayed locked past [`crate::store::WRITE_WAIT`]: nothing written; retry
    /// (503, `Retry-After` [`RETRY_AFTER_SECONDS`]).
    #[error(
        "the score sheet is busy saving other entries; nothing was recorded, try again in a moment"
    )]
    Busy,
    /// The disk is full: nothing written, the writer still usable (503, `Retry-After`
    /// [`DISK_RETRY_AFTER_SECONDS`]).
    #[error("the server's disk is full, so nothing was recorded; try again once space is freed")]
    DiskFull,
    /// Another club import is being read: its body was not read, nothing written (503,
    /// `Retry-After` [`IMPORT_RETRY_AFTER_SECONDS`]).
    #[error(
        "another club is being imported; nothing was read or recorded, send the file again in a moment"
    )]
    ImportBusy,
    /// A failure of the database or the program; logged, shown generically.
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    /// The stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            AppError::NotFound(_) => "not_found",
            AppError::Refused(_) => "refused",
            AppError::BadRequest { .. } => "bad_request",
            AppError::Conflict { .. } => "conflict",
            AppError::Unauthorized(_) => "unauthorized",
            AppError::Forbidden(_) => "forbidden",
            AppError::PayloadTooLarge { .. } => "payload_too_large",
            AppError::TooManyRequests(_) => "too_many_requests",
            AppError::Busy => "busy",
            AppError::DiskFull => "disk_full",
            AppError::ImportBusy => "import_busy",
            AppError::Internal(_) => "internal",
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            AppError::Conflict { .. } => StatusCode::CONFLICT,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            AppError::Busy | AppError::DiskFull | AppError::ImportBusy => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The field at fault, if any.
    pub fn field(&self) -> Option<String> {
        match self {
            AppError::Refused(r) => Some(r.field.to_string()),
            AppError::BadRequest { field, .. }
            | AppError::Conflict { field, .. }
            | AppError::PayloadTooLarge { field, .. } => Some(field.clone()),
            _ => None,
        }
    }

    /// The message a person reads; internal details stay in the log.
    pub fn public_message(&self) -> String {
        match self {
            AppError::Internal(_) => {
                "something went wrong on our side; nothing was recorded".into()
            }
            other => other.to_string(),
        }
    }
}

/// `Retry-After` for [`AppError::Busy`], in seconds.
pub const RETRY_AFTER_SECONDS: u64 = 1;

/// `Retry-After` for [`AppError::DiskFull`]: freeing space takes a person.
pub const DISK_RETRY_AFTER_SECONDS: u64 = 30;

/// `Retry-After` for [`AppError::ImportBusy`]: about what reading and storing a large
/// club export takes.
pub const IMPORT_RETRY_AFTER_SECONDS: u64 = 10;

impl AppError {
    /// `Retry-After` seconds for a retryable refusal (busy, disk full, an import under
    /// way); else `None`.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            AppError::Busy => Some(RETRY_AFTER_SECONDS),
            AppError::DiskFull => Some(DISK_RETRY_AFTER_SECONDS),
            AppError::ImportBusy => Some(IMPORT_RETRY_AFTER_SECONDS),
            _ => None,
        }
    }
}

/// Busy ([`crate::store::is_busy`]) and disk full ([`crate::store::is_disk_full`]) keep their
/// variants; every other database failure is internal.
impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> AppError {
        if crate::store::is_busy(&e) {
            AppError::Busy
        } else if crate::store::is_disk_full(&e) {
            AppError::DiskFull
        } else {
            AppError::Internal(e.to_string())
        }
    }
}

impl From<Refusal> for AppError {
    fn from(r: Refusal) -> AppError {
        AppError::Refused(r)
    }
}

/// A rules refusal outside an event (hand form, agreements): 422 naming the field.
impl From<crate::rules::RuleError> for AppError {
    fn from(e: crate::rules::RuleError) -> AppError {
        AppError::Refused(Refusal::from_rule(e, None))
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let AppError::Internal(cause) = &self {
            tracing::error!(%cause, "request failed");
        }
        let body = json!({ "error": { "code": self.code(), "message": self.public_message(), "field": self.field() } });
        let mut response = (self.status(), Json(body)).into_response();
        if let Some(seconds) = self.retry_after() {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds),
            );
        }
        response
    }
}
