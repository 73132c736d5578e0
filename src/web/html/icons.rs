//! The app's icons, built into the binary: `/favicon.ico` (browsers ask for it anyway), the
//! SVG every page links, and 192/512 px PNGs for home screens ([`super::offline`]'s manifest).

use axum::Router;
use axum::response::IntoResponse;
use axum::routing::get;

use crate::web::AppState;

/// `/favicon.ico`, `/static/icon.svg`, `/static/icon-192.png`, `/static/icon-512.png`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/favicon.ico",
            get(|| {
                served(
                    "image/x-icon",
                    include_bytes!("../../../static/favicon.ico"),
                )
            }),
        )
        .route(
            "/static/icon.svg",
            get(|| served("image/svg+xml", include_bytes!("../../../static/icon.svg"))),
        )
        .route(
            "/static/icon-192.png",
            get(|| served("image/png", include_bytes!("../../../static/icon-192.png"))),
        )
        .route(
            "/static/icon-512.png",
            get(|| served("image/png", include_bytes!("../../../static/icon-512.png"))),
        )
}

/// A static file with its type, cacheable for a day (icons change only with a build).
async fn served(content_type: &'static str, body: &'static [u8]) -> impl IntoResponse {
    (
        [
            ("content-type", content_type),
            ("cache-control", "public, max-age=86400"),
        ],
        body,
    )
}
