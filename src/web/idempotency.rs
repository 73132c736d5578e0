//! The `Idempotency-Key` a client sends with a write, to the API or with a sheet's form: one
//! rule for what a key is, and one refusal for a key that comes back with another event.

use axum::http::HeaderMap;

use crate::error::AppError;
use crate::format::Refusal;

/// The longest key, in characters (the store's `idempotency_keys.key` holds 1 to 200).
pub const KEY_MAX: usize = 200;

/// The request's `Idempotency-Key`, if sent: 1 to [`KEY_MAX`] visible ASCII characters
/// (`!` to `~`, RFC 5234's VCHAR). A tab, a space or another control would make two keys
/// that read alike differ. Errors: [`AppError::BadRequest`] naming `Idempotency-Key`.
pub fn key(headers: &HeaderMap) -> Result<Option<String>, AppError> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    let visible =
        |k: &&str| (1..=KEY_MAX).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic());
    value
        .to_str()
        .ok()
        .filter(visible)
        .map(|k| Some(k.to_string()))
        .ok_or_else(|| AppError::BadRequest {
            field: "Idempotency-Key".into(),
            message: format!("use 1 to {KEY_MAX} visible characters"),
        })
}

/// A key that recorded event `seq - 1` (ledger `seq`) sent again with another event:
/// [`AppError::Refused`] naming `Idempotency-Key` (422); nothing is recorded.
pub fn reused(seq: usize) -> AppError {
    AppError::Refused(Refusal::document(
        "Idempotency-Key",
        format!(
            "this key already recorded event {} with a different body; nothing was recorded: \
             use a new key for a new event",
            seq.saturating_sub(1)
        ),
    ))
}
