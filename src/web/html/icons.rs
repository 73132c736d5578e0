//! The app's icons, committed under `static/` and built into the binary: `/favicon.ico`
//! (a 32 px icon, which browsers ask for whether or not a page links it), the SVG icon
//! every page links, and 192 and 512 px PNGs for home screens (the manifest naming them is
//! made in [`super::offline`], its start URL the page installed from).

use axum::Router;
use axum::response::IntoResponse;
use axum::routing::get;

use crate::web::AppState;

/// The icons' routes: `/favicon.ico`, `/static/icon.svg`, `/static/icon-192.png`,
/// and `/static/icon-512.png`.
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

/// A static file with its type; icons change only with a new build, so phones may keep
/// them a day.
async fn served(content_type: &'static str, body: &'static [u8]) -> impl IntoResponse {
    (
        [
            ("content-type", content_type),
            ("cache-control", "public, max-age=86400"),
        ],
        body,
    )
}
