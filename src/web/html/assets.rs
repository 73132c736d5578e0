//! The site's styles and scripts, each at `/static/NAME`, which the pages link as
//! `/static/NAME?v=VERSION` ([`url`]): VERSION is a hash of all of them, so a release that
//! changes any is fetched at once, while a phone keeps the same version for a year without
//! asking. The service worker (`/sw.js`) keeps the same addresses, in a cache named by the
//! version, so a new release also replaces what it kept.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;

use axum::Router;
use axum::extract::Query;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use sha2::{Digest, Sha256};

use crate::web::AppState;

/// A style or script served under `/static/`.
pub struct Asset {
    /// Its file name under `/static/` ("style.css").
    pub name: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// Every style and script, built into the binary.
pub static ASSETS: [Asset; 11] = [
    asset(
        "style.css",
        CSS,
        include_str!("../../../templates/style.css"),
    ),
    asset("live.js", JS, include_str!("../../../templates/live.js")),
    asset("copy.js", JS, include_str!("../../../templates/copy.js")),
    asset(
        "preview.js",
        JS,
        include_str!("../../../templates/preview.js"),
    ),
    asset(
        "history.js",
        JS,
        include_str!("../../../templates/history/local-time.js"),
    ),
    asset(
        "offline.js",
        JS,
        include_str!("../../../templates/offline.js"),
    ),
    asset("queue.js", JS, include_str!("../../../templates/queue.js")),
    asset("meld.js", JS, include_str!("../../../templates/meld.js")),
    asset("meld.css", CSS, include_str!("../../../templates/meld.css")),
    asset("cards.js", JS, include_str!("../../../templates/cards.js")),
    asset("house.js", JS, include_str!("../../../templates/house.js")),
];

const fn asset(name: &'static str, content_type: &'static str, body: &'static str) -> Asset {
    Asset {
        name,
        content_type,
        body,
    }
}

/// Where a script that names another asset puts the version (the worker's list, the meld
/// calculator's style): replaced as it is served.
pub const VERSION_MARK: &str = "__ASSET_VERSION__";

/// How long a versioned address is kept: a year, never asked again (it cannot change).
const KEPT: &str = "public, max-age=31536000, immutable";

/// The first 12 hex digits of the SHA-256 of every asset's name and body.
pub fn version() -> &'static str {
    static VERSION: LazyLock<String> = LazyLock::new(|| {
        let mut hash = Sha256::new();
        for a in &ASSETS {
            hash.update(a.name.as_bytes());
            hash.update([0]);
            hash.update(a.body.as_bytes());
        }
        hash.finalize()
            .iter()
            .take(6)
            .map(|b| format!("{b:02x}"))
            .collect()
    });
    &VERSION
}

/// The address a page links asset `name` by: `/static/style.css?v=1a2b3c4d5e6f`.
pub fn url(name: &str) -> String {
    format!("/static/{name}?v={}", version())
}

/// `text` with [`VERSION_MARK`] replaced by the [`version`].
pub fn versioned(text: &'static str) -> Cow<'static, str> {
    match text.contains(VERSION_MARK) {
        true => Cow::Owned(text.replace(VERSION_MARK, version())),
        false => Cow::Borrowed(text),
    }
}

/// A route per asset. The current version's address is kept a year; any other (no
/// version, or an older page's) is checked every time, so it never pins a stale copy.
pub fn routes() -> Router<AppState> {
    ASSETS.iter().fold(Router::new(), |router, a| {
        router.route(
            &format!("/static/{}", a.name),
            get(move |Query(q): Query<HashMap<String, String>>| async move {
                let current = q.get("v").is_some_and(|v| v == version());
                let cache = if current { KEPT } else { "no-cache" };
                (
                    [
                        (header::CONTENT_TYPE, a.content_type),
                        (header::CACHE_CONTROL, cache),
                    ],
                    versioned(a.body).into_owned(),
                )
                    .into_response()
            }),
        )
    })
}
