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
    pub fn changed(&self, id: i64) {
        self.watchers.changed(id);
    }
}

/// Where a page of a club's sessions list starts (`?before=`, on the pages and the API):
/// below this session id, else at the newest.
#[derive(Debug, Default, serde::Deserialize)]
pub struct Before {
    /// The id the previous page ended at.
    pub before: Option<i64>,
}

/// The entity tag of what a session page or document shows after its first `events`
/// events: `"s{id}-e{events}-{variant}-v{crate version}"` (`variant` tells apart what the
/// same state renders as for different viewers, e.g. the sheet with or without its forms).
/// Events are only ever appended (corrections are events too), so the count names the
/// state without hashing the body; the version keeps a page from an older build from
/// matching.
pub fn session_etag(id: i64, events: usize, variant: &str) -> HeaderValue {
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

/// `GET /healthz`, for a supervisor or load balancer: 200 `{"status":"ok"}` when the
/// database answers a query, 503 `{"status":"unavailable"}` (and the cause in the log)
/// otherwise. It reads nothing else, on the read pool (a long write does not delay it),
/// and needs no login.
async fn healthz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    match crate::store::ops::ping(&state.reader).await {
        Ok(()) => (StatusCode::OK, Json(json!({ "status": "ok" }))),
        Err(e) => {
            tracing::warn!("healthz: the database does not answer: {e}");
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
    router.with_state(state)
}
