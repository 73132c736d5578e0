//! The API's refusals that do not come from its handlers, in its JSON error shape.

use axum::Json;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// The code [`AppError`] gives the same status (timeouts and other layers' refusals too).
fn code_of(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "timeout",
        409 => "conflict",
        413 => "payload_too_large",
        415 => "unsupported_media_type",
        422 => "refused",
        429 => "too_many_requests",
        503 => "unavailable",
        s if s >= 500 => "internal",
        _ => "error",
    }
}

/// Puts refusals not from our handlers (axum's 405, 400 for a bad path id, 415) in the API's
/// error shape, keeping status and headers (`Allow`).
pub(super) async fn json_refusal(uri: Uri, response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let (code, field, message) = match status {
        StatusCode::METHOD_NOT_ALLOWED => (
            "method_not_allowed",
            None,
            "this address does not take that method (see the Allow header)".to_string(),
        ),
        StatusCode::BAD_REQUEST if text.starts_with("Invalid URL") => {
            let (field, message) = bad_id(uri.path());
            ("bad_request", Some(field), message)
        }
        StatusCode::UNSUPPORTED_MEDIA_TYPE => (
            "unsupported_media_type",
            Some("body"),
            "send the body as JSON, with Content-Type: application/json".to_string(),
        ),
        _ => (
            code_of(status),
            None,
            if text.is_empty() {
                status.canonical_reason().unwrap_or("refused").to_string()
            } else {
                text
            },
        ),
    };
    // The old length and `text/plain` type go with the old body.
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_TYPE);
    let answer = json!({ "error": { "code": code, "message": message, "field": field } });
    (parts, Json(answer)).into_response()
}

/// Which id of `path` failed to parse: the route's field (`id`, `nid`, `pid`) and a sentence
/// ("a club id is a whole number, as in /api/v1/clubs/12").
fn bad_id(path: &str) -> (&'static str, String) {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    for pair in segments.windows(2) {
        let (field, kind, example) = match pair[0] {
            "sessions" => ("id", "session", "/api/v1/sessions/12"),
            "clubs" => ("id", "club", "/api/v1/clubs/3"),
            "nights" => ("nid", "night", "/api/v1/clubs/3/nights/5"),
            "players" => ("pid", "player", "/api/v1/clubs/3/players/7"),
            _ => continue,
        };
        if pair[1].parse::<i64>().is_err() && pair[1] != "import" {
            return (
                field,
                format!("a {kind} id is a whole number, as in {example}"),
            );
        }
    }
    (
        "id",
        "an id in the address is a whole number, as in /api/v1/sessions/12".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::bad_id;

    #[test]
    fn a_bad_id_is_named_by_its_kind() {
        assert_eq!(bad_id("/api/v1/sessions/abc/ledger").0, "id");
        assert!(bad_id("/api/v1/sessions/abc").1.starts_with("a session id"));
        assert_eq!(bad_id("/api/v1/clubs/x/history").0, "id");
        assert!(bad_id("/api/v1/clubs/x/history").1.starts_with("a club id"));
        let night = bad_id("/api/v1/clubs/3/nights/x");
        assert_eq!(night.0, "nid");
        assert!(night.1.starts_with("a night id"), "{}", night.1);
        let player = bad_id("/api/v1/clubs/3/players/x");
        assert_eq!(player.0, "pid");
        assert!(player.1.starts_with("a player id"), "{}", player.1);
    }
}
