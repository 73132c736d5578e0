//! The HTTP shell: the JSON API under `/api/v1` and the HTML pages, both thin over
//! [`crate::service`].

pub mod api;
pub mod auth;
pub mod html;
pub mod idempotency;
pub mod live;

use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
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
    /// The writer (one connection; writes only).
    pub pool: WritePool,
    /// The read pool: every page, export, API read and token check.
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
    /// Club imports read at once ([`api::exports::ImportGate`]).
    pub imports: api::exports::ImportGate,
}

impl AppState {
    /// State over `pool` with fresh limits, no live sheets and a cache of
    /// [`crate::service::DEFAULT_CAPACITY`] sessions.
    pub fn new(pool: WritePool) -> AppState {
        AppState {
            reader: crate::store::reader(&pool),
            pool,
            limiter: login_limiter(),
            watchers: Watchers::default(),
            folds: Folds::default(),
            public_url: None,
            previews: Default::default(),
            imports: Default::default(),
        }
    }

    /// With the address phones open for share links (`--public-url`).
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

    /// Wakes the live sheets of session `id` and of its night's other sessions (their
    /// settle-up moves). The event is stored already, so a failed night look-up is only logged.
    pub async fn event_recorded(&self, id: SessionId) {
        self.changed(id);
        match crate::service::nights::night_mates(&self.reader, id).await {
            Ok(sessions) => sessions.into_iter().for_each(|sid| self.changed(sid)),
            Err(e) => tracing::warn!("session {id}: its night's sheets were not told: {e}"),
        }
    }
}

/// Where a page of a club's sessions starts (`?before=`): below this id, else the newest.
#[derive(Debug, Default, serde::Deserialize)]
pub struct Before {
    /// The id the previous page ended at.
    pub before: Option<SessionId>,
}

/// The ETag of a session page or document after `events` events:
/// `"s{id}-e{events}-{variant}-v{version}-{assets}"`. Events are only appended, so the count
/// names the state; `variant` separates renderings, the versions separate builds.
pub fn session_etag(id: SessionId, events: usize, variant: &str) -> HeaderValue {
    // The assets' version too: a page names its styles and scripts by it, so a phone's
    // copy of a sheet from before a release is not kept past the release.
    let tag = format!(
        "\"s{id}-e{events}-{variant}-v{}-{}\"",
        env!("CARGO_PKG_VERSION"),
        html::assets::version()
    );
    // Digits, letters, dots and dashes only: always a valid header value.
    HeaderValue::from_str(&tag).unwrap_or_else(|_| HeaderValue::from_static("\"\""))
}

/// Whether `If-None-Match` names `etag` or `*` (weak comparison, RFC 9110 §13.1.2).
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

/// Headers on every response: `nosniff`, no framing, no referrer (share links), and a CSP
/// of this site's own scripts, styles and form targets.
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

/// `GET /healthz`: 200 `{"status":"ok"}` when the read pool answers and a write could be
/// made now ([`crate::store::ops::writable`]), else 503 `{"status":"unavailable","cause":…}`
/// with the cause in words, also logged. No login.
async fn healthz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let checked = match crate::store::ops::ping(&state.reader).await {
        Ok(()) => crate::store::ops::writable(&state.pool).await,
        Err(e) => Err(format!("the database does not answer a read: {e}")),
    };
    match checked {
        Ok(()) => (StatusCode::OK, Json(json!({ "status": "ok" }))),
        Err(cause) => {
            tracing::warn!("healthz: no write can be made now: {cause}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "unavailable", "cause": cause })),
            )
        }
    }
}

/// The whole application: pages, `/api/v1`, `/healthz`, behind the cross-site check and the
/// security headers.
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
    // Gzip for clients that ask; the live event stream is left alone (tower-http's default).
    router
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(state)
}

/// How long a club import may take, reading its body and writing every session: a backup
/// near the 16 MiB limit (about 90,000 hands) takes about 10 s on a 2-core machine
/// (`benches/imports.py`). Imports are read one at a time and count as club creations,
/// which are limited per address.
pub const IMPORT_TIME: Duration = Duration::from_secs(120);

/// The paths that import a club (the API's and the restore page's), given [`IMPORT_TIME`].
const IMPORT_PATHS: [&str; 2] = ["/api/v1/clubs/import", "/clubs/import"];

/// `router` with a per-request time limit: past `limit` (a club import: [`IMPORT_TIME`] if
/// that is longer), 408 with a body (JSON under `/api/`, a sentence elsewhere). The live
/// event stream answers at once, so is not cut.
pub fn with_request_timeout(router: Router, limit: Duration) -> Router {
    router.layer(middleware::from_fn(
        move |request: Request, next: Next| async move {
            let path = request.uri().path().to_owned();
            let import = request.method() == Method::POST && IMPORT_PATHS.contains(&&*path);
            let allowed = if import {
                limit.max(IMPORT_TIME)
            } else {
                limit
            };
            tokio::time::timeout(allowed, next.run(request))
                .await
                .unwrap_or_else(|_| timed_out(&path))
        },
    ))
}

/// The 408 of a request stopped at its time limit, in words.
fn timed_out(path: &str) -> Response {
    let message = "the request took too long and was stopped; nothing of it was recorded \
                   unless the sheet shows it, so look before sending it again";
    let status = StatusCode::REQUEST_TIMEOUT;
    if path.starts_with("/api/") {
        let body = json!({ "error": { "code": "timeout", "message": message, "field": null } });
        (status, Json(body)).into_response()
    } else {
        (status, message).into_response()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed test should stop right there

    use axum::body::Body;
    use axum::http::{Request, StatusCode, header};
    use tower::ServiceExt;

    use super::*;

    #[tokio::test]
    async fn a_club_import_has_longer_than_the_request_limit() {
        let import = || async {
            tokio::time::sleep(Duration::from_millis(200)).await;
            "imported"
        };
        let router = Router::new()
            .route("/api/v1/clubs/import", axum::routing::post(import))
            .route("/api/v1/sessions/import", axum::routing::post(import));
        let router = with_request_timeout(router, Duration::from_millis(20));
        let status = |uri: &str| {
            let request = Request::post(uri).body(Body::empty()).unwrap();
            let answer = router.clone().oneshot(request);
            async move { answer.await.unwrap().status() }
        };
        assert_eq!(status("/api/v1/clubs/import").await, StatusCode::OK);
        // A session's import is one session: the ordinary limit.
        assert_eq!(
            status("/api/v1/sessions/import").await,
            StatusCode::REQUEST_TIMEOUT
        );
    }

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
