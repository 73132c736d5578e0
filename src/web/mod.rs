//! The HTTP shell: the JSON API under `/api/v1` and the HTML pages, both thin over
//! [`crate::service`].

pub mod api;
pub mod html;

use axum::Router;
use sqlx::SqlitePool;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub pool: SqlitePool,
}

/// The whole application: pages at `/`, the API at `/api/v1`.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(html::routes())
        .nest("/api/v1", api::routes())
        .with_state(state)
}
