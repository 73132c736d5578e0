//! The HTTP shell: the JSON API under `/api/v1` and the HTML pages, both thin over
//! [`crate::service`].

pub mod api;
pub mod auth;
pub mod html;

use axum::extract::State;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::middleware;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};
use sqlx::SqlitePool;
use tokio::sync::broadcast;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::service::Folds;
use crate::service::clubs::{LoginLimiter, login_limiter};

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub pool: SqlitePool,
    /// Passphrase attempts per club.
    pub limiter: LoginLimiter,
    /// The id of every session that just changed, for the live sheets.
    pub changes: broadcast::Sender<i64>,
    /// The open sessions kept folded in memory.
    pub folds: Folds,
    /// The address phones open (`http://192.168.1.20:3000`), for share links; `None` uses
    /// the address the browser used.
    pub public_url: Option<String>,
}

impl AppState {
    /// State over `pool` with a fresh login limiter, change channel and cache of
    /// [`crate::service::DEFAULT_CAPACITY`] folded sessions.
    pub fn new(pool: SqlitePool) -> AppState {
        let (changes, _) = broadcast::channel(256);
        AppState {
            pool,
            limiter: login_limiter(),
            changes,
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

    /// Tells the live sheets that session `id` changed.
    pub fn changed(&self, id: i64) {
        // No open sheet means no receiver; that is fine.
        let _ = self.changes.send(id);
    }
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
/// otherwise. It reads nothing else and needs no login.
async fn healthz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    match crate::store::ops::ping(&state.pool).await {
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
