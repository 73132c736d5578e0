//! The sheet at a table without Wi-Fi: the service worker (`/sw.js`), the
//! page's offline script and the shared queue script, the web app manifest (its start URL
//! the page it was installed from), and the `Idempotency-Key` a form post may carry, so a
//! hand queued on a phone and sent again after a lost answer is recorded once.
//!
//! Nothing here is needed without JavaScript: the forms post and redirect as before.

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

/// The routes: `/sw.js` (at the root, so its scope is the whole site without a
/// `Service-Worker-Allowed` header), `/static/offline.js`, `/static/queue.js` and
/// `/static/manifest.webmanifest?start=PATH`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/sw.js",
            get(|| script(include_str!("../../../templates/sw.js"), "no-cache")),
        )
        .route(
            "/static/offline.js",
            get(|| {
                script(
                    include_str!("../../../templates/offline.js"),
                    "public, max-age=300",
                )
            }),
        )
        .route(
            "/static/queue.js",
            get(|| {
                script(
                    include_str!("../../../templates/queue.js"),
                    "public, max-age=300",
                )
            }),
        )
        .route("/static/manifest.webmanifest", get(manifest))
}

/// A script with its type. The worker itself is `no-cache`, so a phone checks for a new
/// one on each visit (browsers cap a worker's HTTP caching at a day anyway); `/` is its
/// widest allowed scope, said outright.
async fn script(body: &'static str, cache: &'static str) -> impl IntoResponse {
    (
        [
            ("content-type", "text/javascript; charset=utf-8"),
            ("cache-control", cache),
            ("service-worker-allowed", "/"),
        ],
        body,
    )
}

/// The manifest's query: the page the phone installs the sheet from.
#[derive(Deserialize)]
struct ManifestQuery {
    start: Option<String>,
}

/// The web app manifest (JSON): name, the 192 and 512 px icons, the light theme colours
/// (the dark ones are the pages' `theme-color` meta with a media query, which manifests
/// cannot say), `display: standalone`, and the start URL: `start` when it is one of the
/// pages a table opens the app on ([`start_url`]), else `/`.
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

/// The start URL a manifest may name: a session's sheet (`/sessions/N`) or a club's page
/// (`/clubs/N`), as given; anything else (another site, a form, a path with a query) is
/// `/`, so a crafted link cannot make an installed app open somewhere else.
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

/// A form post's `Idempotency-Key` header, as the JSON API reads it: 1 to 200 visible
/// characters. The offline queue sends one with every queued form, so a retry whose first
/// answer was lost records nothing new. Absent for a plain browser post.
/// Errors: 400 naming `Idempotency-Key` when it is empty, too long or not visible text.
pub struct FormKey(pub Option<String>);

impl FromRequestParts<AppState> for FormKey {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<FormKey, AppError> {
        let Some(value) = parts.headers.get("idempotency-key") else {
            return Ok(FormKey(None));
        };
        value
            .to_str()
            .ok()
            .filter(|k| (1..=200).contains(&k.len()))
            .map(|k| FormKey(Some(k.to_string())))
            .ok_or_else(|| AppError::BadRequest {
                field: "Idempotency-Key".into(),
                message: "use 1 to 200 visible characters".into(),
            })
    }
}

/// Whether `key` already recorded an event in session `id` (a form sent again by the
/// offline queue after its answer was lost). Errors: the store's, as 500.
pub async fn recorded(reader: &ReadPool, id: SessionId, key: &str) -> Result<bool, AppError> {
    let mut conn = reader.acquire().await?;
    Ok(crate::store::idempotent_seq(&mut conn, id, key)
        .await?
        .is_some())
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
