//! The sheet without Wi-Fi: service worker (`/sw.js`), offline and queue scripts, the web
//! app manifest, and the form's `Idempotency-Key` so a queued hand sent again is recorded
//! once. Without JavaScript the forms work as always.

use axum::Router;
use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use axum::response::IntoResponse;
use axum::routing::get;
use serde::Deserialize;
use serde_json::json;

use crate::error::AppError;
use crate::ids::SessionId;
use crate::store::ReadPool;
use crate::web::AppState;

/// The theme colour of the header, light scheme (the manifest's `theme_color`).
pub const THEME_LIGHT: &str = "#1d3b2a";
/// The page's background, light scheme (the manifest's `background_color`).
pub const BACKGROUND_LIGHT: &str = "#fbfaf7";

/// `/sw.js` (at the root, so its scope is the whole site) and
/// `/static/manifest.webmanifest?start=PATH`; the offline and queue scripts are
/// [`super::assets`].
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/sw.js",
            get(|| script(include_str!("../../../templates/sw.js"), "no-cache")),
        )
        .route("/static/manifest.webmanifest", get(manifest))
}

/// The worker with the assets' version written in; `no-cache` so phones check for a new
/// one, and a new release's is new.
async fn script(body: &'static str, cache: &'static str) -> impl IntoResponse {
    (
        [
            ("content-type", "text/javascript; charset=utf-8"),
            ("cache-control", cache),
            ("service-worker-allowed", "/"),
        ],
        super::assets::versioned(body).into_owned(),
    )
}

/// The manifest's query: the page the phone installs the sheet from.
#[derive(Deserialize)]
struct ManifestQuery {
    start: Option<String>,
}

/// The web app manifest: name, icons, light theme colours (the dark ones are media-queried
/// meta tags), standalone, and the start URL ([`start_url`]).
async fn manifest(Query(query): Query<ManifestQuery>) -> impl IntoResponse {
    let start = start_url(query.start.as_deref().unwrap_or("/"));
    let body = json!({
        "id": "/",
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": "Score sheets and settle-up for card nights at the table",
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_LIGHT,
        "theme_color": THEME_LIGHT,
        "icons": [
            { "src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml" },
            { "src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any" },
            { "src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any" }
        ]
    });
    (
        [
            ("content-type", "application/manifest+json"),
            ("cache-control", "public, max-age=3600"),
        ],
        body.to_string(),
    )
}

/// The start URL a manifest may name: `/sessions/N` or `/clubs/N`, else `/`, so a crafted
/// link cannot make the installed app open elsewhere.
pub fn start_url(asked: &str) -> String {
    let allowed = ["/sessions/", "/clubs/"].iter().any(|prefix| {
        asked.strip_prefix(prefix).is_some_and(|rest| {
            !rest.is_empty() && rest.len() <= 18 && rest.bytes().all(|b| b.is_ascii_digit())
        })
    });
    if allowed {
        asked.to_string()
    } else {
        "/".into()
    }
}

/// A form post's `Idempotency-Key` ([`crate::web::idempotency::key`], the API's rule), sent
/// by the offline queue; absent for a plain post. Errors: 400 naming `Idempotency-Key`.
pub struct FormKey(pub Option<String>);

impl FromRequestParts<AppState> for FormKey {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<FormKey, AppError> {
        crate::web::idempotency::key(&parts.headers).map(FormKey)
    }
}

/// The ledger `seq` of the event `key` already recorded in session `id`, if any. Errors:
/// the store's (500).
pub async fn recorded(
    reader: &ReadPool,
    id: SessionId,
    key: &str,
) -> Result<Option<usize>, AppError> {
    let mut conn = reader.acquire().await?;
    let seq = crate::store::idempotent_seq(&mut conn, id, key).await?;
    seq.map(|s| usize::try_from(s).map_err(|_| AppError::Internal(format!("a key's event {s}"))))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::start_url;

    #[test]
    fn the_start_url_is_a_sheet_or_a_club_page_or_the_front_page() {
        assert_eq!(start_url("/sessions/12"), "/sessions/12");
        assert_eq!(start_url("/clubs/3"), "/clubs/3");
        assert_eq!(start_url("/"), "/");
        assert_eq!(start_url("https://evil.example/sessions/1"), "/");
        assert_eq!(start_url("/sessions/"), "/");
        assert_eq!(start_url("/sessions/1/undo"), "/");
        assert_eq!(start_url("/sessions/1?all=1"), "/");
        assert_eq!(start_url("//evil.example"), "/");
    }
}
