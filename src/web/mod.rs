//! The HTTP shell: the JSON API under `/api/v1` and the HTML pages, both thin over
//! [`crate::service`].

pub mod api;
pub mod auth;
pub mod html;
pub mod live;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::ids::SessionId;
use crate::service::Folds;
use crate::service::clubs::{LoginLimiter, login_limiter};
use crate::store::{ReadPool, WritePool};
use live::Watchers;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The database's writer: one connection, so writes queue here in arrival order
    /// ([`crate::store::open`]). Only writes use it.
    pub pool: WritePool,
    /// The read pool beside the writer ([`crate::store::reader`], read-only connections):
    /// every page, chart, export, history and API read and every token or cookie check
    /// reads here, never waiting for a write.
    pub reader: ReadPool,
    /// Passphrase attempts per club.
    pub limiter: LoginLimiter,
    /// The live sheets' channels, one per watched session ([`Watchers`]).
    pub watchers: Watchers,
    /// The open sessions kept folded in memory.
    pub folds: Folds,
    /// The address phones open (`http://192.168.1.20:3000`), for share links; `None` uses
    /// the address the browser used.
    pub public_url: Option<String>,
    /// The hand forms' what-if previews allowed per session ([`html::preview`]).
    pub previews: std::sync::Arc<html::preview::PreviewLimits>,
}

impl AppState {
    /// State over `pool` (the writer made by [`crate::store::open`]) and its read pool,
    /// with a fresh login limiter, no live sheets and a cache of
    /// [`crate::service::DEFAULT_CAPACITY`] folded sessions.
    pub fn new(pool: WritePool) -> AppState {
        AppState {
            reader: crate::store::reader(&pool),
            pool,
            limiter: login_limiter(),
            watchers: Watchers::default(),
            folds: Folds::default(),
            public_url: None,
            previews: Default::default(),
        }
    }

    /// The same state with the address phones open for share links (`--public-url`).
    pub fn with_public_url(self, public_url: Option<String>) -> AppState {
        AppState {
            public_url: public_url.map(|u| u.trim_end_matches('/').to_string()),
            ..self
        }
    }

    /// Tells the live sheets of session `id` (and no other) that it changed.
    pub fn changed(&self, id: SessionId) {
        self.watchers.changed(id);
    }

    /// Tells the live sheets of session `id` that an event was recorded there, and those of
    /// the other sessions of its night, if it is in one: each of them shows the night's
    /// settle-up, which a hand anywhere in the night moves. The event is
    /// already stored, so a failed look-up of the night is logged, not answered: those
    /// sheets then show the change at their next reload.
    pub async fn event_recorded(&self, id: SessionId) {
        self.changed(id);
        match crate::service::nights::night_mates(&self.reader, id).await {
            Ok(sessions) => sessions.into_iter().for_each(|sid| self.changed(sid)),
            Err(e) => tracing::warn!("session {id}: its night's sheets were not told: {e}"),
        }
    }
}

/// Where a page of a club's sessions list starts (`?before=`, on the pages and the API):
/// below this session id, else at the newest.
#[derive(Debug, Default, serde::Deserialize)]
pub struct Before {
    /// The id the previous page ended at.
    pub before: Option<SessionId>,
}

/// The entity tag of what a session page or document shows after its first `events`
/// events: `"s{id}-e{events}-{variant}-v{crate version}"` (`variant` tells apart what the
/// same state renders as for different viewers, e.g. the sheet with or without its forms).
/// Events are only ever appended (corrections are events too), so the count names the
/// state without hashing the body; the version keeps a page from an older build from
/// matching.
pub fn session_etag(id: SessionId, events: usize, variant: &str) -> HeaderValue {
    let tag = format!(
        "\"s{id}-e{events}-{variant}-v{}\"",
        env!("CARGO_PKG_VERSION")
    );
    // Digits, letters, dots and dashes only: always a valid header value.
    HeaderValue::from_str(&tag).unwrap_or_else(|_| HeaderValue::from_static("\"\""))
}

/// Whether the request's `If-None-Match` names `etag` (or is `*`): then the client's copy
/// is current and the answer is `304 Not Modified`. Weak comparison (RFC 9110 §13.1.2): a
/// `W/` prefix is ignored.
pub fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let Ok(etag) = etag.to_str() else {
        return false;
    };
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.trim_start_matches("W/") == etag)
}

/// The empty `304 Not Modified` answer carrying `etag`.
pub fn not_modified_response(etag: HeaderValue) -> Response {
    (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response()
}

/// The headers every response carries: no MIME sniffing, no framing, no referrer that
/// could leak a share link, and a content security policy that allows only this site's own
/// scripts, styles and form targets.
const SECURITY_HEADERS: [(HeaderName, &str); 4] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::REFERRER_POLICY, "same-origin"),
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
         connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ),
];

/// How long `/healthz` waits for the writer to try a write: past it the writer is busy
/// with a long write, which is alive, so a long write never makes the check slow.
const HEALTHZ_WRITE_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

/// `GET /healthz`, for a supervisor or load balancer: 200 `{"status":"ok"}` when the
/// database answers a read on the read pool and could take a write now
/// ([`crate::store::ops::writable`]: the write lock, a rolled-back write, room on its
/// disk), 503 `{"status":"unavailable"}` (and the cause in the log) otherwise, so a writer
/// that cannot write is seen. A writer busy past [`HEALTHZ_WRITE_WAIT`] with a long write
/// is alive, not unhealthy: the check does not wait for it. It reads nothing else and needs
/// no login.
async fn healthz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let writable = async {
        match tokio::time::timeout(HEALTHZ_WRITE_WAIT, crate::store::ops::writable(&state.pool))
            .await
        {
            Ok(answer) => answer,
            Err(_busy) => Ok(()),
        }
    };
    let checked = match crate::store::ops::ping(&state.reader).await {
        Ok(()) => writable.await,
        Err(e) => Err(e.to_string()),
    };
    match checked {
        Ok(()) => (StatusCode::OK, Json(json!({ "status": "ok" }))),
        Err(e) => {
            tracing::warn!("healthz: the database cannot take a write: {e}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "unavailable" })),
            )
        }
    }
}

/// The whole application: pages at `/`, the API at `/api/v1`, `/healthz`, behind the
/// cross-site check and the security headers.
pub fn app(state: AppState) -> Router {
    let mut router = Router::new()
        .route("/healthz", get(healthz))
        .merge(html::routes())
        .nest("/api/v1", api::routes())
        .layer(middleware::from_fn(auth::present_links))
        .layer(middleware::from_fn(auth::refuse_cross_site));
    for (name, value) in SECURITY_HEADERS {
        router = router.layer(SetResponseHeaderLayer::if_not_present(
            name,
            HeaderValue::from_static(value),
        ));
    }
    // Pages, scripts and JSON gzipped for a client that asks (a busy sheet's 88 KB page is
    // about a tenth of that on a phone's slow link); the live
    // sheet's event stream is left alone (tower-http's default predicate).
    router
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(state)
}

/// `router` with a time limit on each request: past `limit` the request is dropped and
/// answered 408 with a body that says so (tower-http's timeout answers an empty one): the
/// API's JSON error shape under `/api/`, a sentence elsewhere. The live sheet's event
/// stream answers at once, so it is not cut.
pub fn with_request_timeout(router: Router, limit: std::time::Duration) -> Router {
    router
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limit,
        ))
        .layer(middleware::map_response(timeout_body))
}

/// Gives an empty 408 its words.
async fn timeout_body(uri: axum::http::Uri, response: Response) -> Response {
    if response.status() != StatusCode::REQUEST_TIMEOUT {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.remove(header::CONTENT_TYPE);
    let message = "the request took too long and was stopped; nothing of it was recorded \
                   unless the sheet shows it, so look before sending it again";
    if uri.path().starts_with("/api/") {
        let body = json!({ "error": { "code": "timeout", "message": message, "field": null } });
        (parts, Json(body)).into_response()
    } else {
        (parts, message).into_response()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed test should stop right there

    use std::time::Duration;

    use axum::body::Body;
    use axum::http::{Request, StatusCode, header};
    use tower::ServiceExt;

    use super::*;

    #[tokio::test]
    async fn a_request_past_the_time_limit_is_408_with_words() {
        let slow = || async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "late"
        };
        let router = Router::new()
            .route("/api/v1/slow", get(slow))
            .route("/slow", get(slow));
        let router = with_request_timeout(router, Duration::from_millis(20));
        for (uri, json) in [("/api/v1/slow", true), ("/slow", false)] {
            let response = router
                .clone()
                .oneshot(Request::get(uri).body(Body::empty()).unwrap())
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
            let kind = response.headers()[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .to_string();
            let body = axum::body::to_bytes(response.into_body(), 4096)
                .await
                .unwrap();
            let text = String::from_utf8(body.to_vec()).unwrap();
            assert!(text.contains("took too long"), "{uri}: {text}");
            if json {
                assert_eq!(kind, "application/json");
                let v: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(v["error"]["code"], "timeout");
            } else {
                assert!(kind.starts_with("text/plain"), "{kind}");
            }
        }
    }
}
