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
    /// The database cannot be reached or the connection broke before anything was
    /// committed: nothing written (503, `Retry-After` [`RETRY_AFTER_SECONDS`]).
    #[error(
        "the database cannot be reached just now, so nothing was recorded; try again in a moment"
    )]
    Unavailable,
    /// The connection broke while the write was being committed: it may or may not be stored
    /// (503, `Retry-After` [`RETRY_AFTER_SECONDS`]). A retry with the same idempotency key
    /// records it at most once.
    #[error(
        "the connection to the database broke while this was being saved, so it may or may not be recorded: look at the sheet before entering it again"
    )]
    OutcomeUnknown,
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
            AppError::Unavailable => "database_unavailable",
            AppError::OutcomeUnknown => "outcome_unknown",
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
            AppError::Busy
            | AppError::DiskFull
            | AppError::ImportBusy
            | AppError::Unavailable
            | AppError::OutcomeUnknown => StatusCode::SERVICE_UNAVAILABLE,
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
            AppError::Busy | AppError::Unavailable | AppError::OutcomeUnknown => {
                Some(RETRY_AFTER_SECONDS)
            }
            AppError::DiskFull => Some(DISK_RETRY_AFTER_SECONDS),
            AppError::ImportBusy => Some(IMPORT_RETRY_AFTER_SECONDS),
            _ => None,
        }
    }
}

/// Busy ([`crate::store::is_busy`]), disk full ([`crate::store::is_disk_full`]) and
/// unreachable ([`crate::store::is_unavailable`]) keep their variants, each logged with its
/// cause; every other database failure is internal.
impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> AppError {
        let error = if crate::store::is_busy(&e) {
            AppError::Busy
        } else if crate::store::is_disk_full(&e) {
            AppError::DiskFull
        } else if crate::store::is_unavailable(&e) {
            AppError::Unavailable
        } else {
            return AppError::Internal(e.to_string());
        };
        tracing::warn!(code = error.code(), cause = %e, "the database refused a request");
        error
    }
}

impl AppError {
    /// What a failed `COMMIT` means: with the connection broken its outcome is unknown
    /// ([`AppError::OutcomeUnknown`]); any other failure rolled it back ([`AppError::from`]).
    pub fn of_commit(e: sqlx::Error) -> AppError {
        if crate::store::is_unavailable(&e) {
            tracing::warn!(cause = %e, "the connection broke during a commit: its outcome is unknown");
            AppError::OutcomeUnknown
        } else {
            AppError::from(e)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn broken() -> sqlx::Error {
        sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset))
    }

    #[test]
    fn a_broken_connection_is_a_503_naming_the_database_and_a_broken_commit_says_it_is_unknown() {
        let before = AppError::from(broken());
        assert_eq!(before.code(), "database_unavailable");
        assert_eq!(before.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(before.retry_after(), Some(RETRY_AFTER_SECONDS));
        assert!(before.public_message().contains("nothing was recorded"));

        let during = AppError::of_commit(broken());
        assert_eq!(during.code(), "outcome_unknown");
        assert_eq!(during.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(during.retry_after(), Some(RETRY_AFTER_SECONDS));
        let words = during.public_message();
        assert!(words.contains("may or may not be recorded"), "{words}");
        assert!(!words.contains("nothing was recorded"), "{words}");

        // A commit refused with the connection whole was rolled back: busy, as ever.
        assert_eq!(
            AppError::of_commit(sqlx::Error::PoolTimedOut).code(),
            "busy"
        );
        assert_eq!(AppError::from(sqlx::Error::RowNotFound).code(), "internal");
    }
}
