//! `/static/meld.js` and `/static/meld.css`: the pinochle forms' meld calculator dialog,
//! asking `POST /api/v1/meld` ([`crate::web::api::meld`]). Without them the forms post as
//! before.

use axum::Router;
use axum::response::IntoResponse;
use axum::routing::get;

use crate::web::AppState;

/// The calculator's script and style routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/static/meld.js", get(script))
        .route("/static/meld.css", get(style))
}

async fn style() -> impl IntoResponse {
    (
        [
            ("content-type", "text/css; charset=utf-8"),
            ("cache-control", "public, max-age=300"),
        ],
        include_str!("../../../templates/meld.css"),
    )
}

async fn script() -> impl IntoResponse {
    (
        [
            ("content-type", "text/javascript; charset=utf-8"),
            ("cache-control", "public, max-age=300"),
        ],
        include_str!("../../../templates/meld.js"),
    )
}
