//! Test harness: the real router over a fresh database (SQLite in memory, or PostgreSQL with
//! `SCOREKEEPER_TEST_ENGINE=postgres`, `engines.rs`), driven with `oneshot`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there
#![allow(dead_code)]

pub mod browser;
pub mod engines;
pub mod entry;
pub mod hands;
pub mod html;
pub mod nights;
pub mod pages;
pub mod phones;
pub mod process;
pub mod tables;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use scorekeeper::web::{AppState, app};
use serde_json::Value;
use tower::ServiceExt;

/// A test application with its own empty database.
///
/// Like a browser, it keeps the session-link cookies (`sk_link_{id}`) that creating a
/// session without a club sets, and sends them with every request that carries neither a
/// `Cookie` nor an `Authorization` header of its own; club logins are passed explicitly.
pub struct TestApp {
    pub router: Router,
    pub pool: scorekeeper::store::WritePool,
    pub links: std::sync::Mutex<Vec<String>>,
}

/// A response: status, Location header, body text.
pub struct Reply {
    pub status: StatusCode,
    pub location: Option<String>,
    pub set_cookie: Option<String>,
    pub body: String,
}

impl Reply {
    /// The `name=value` pair of the cookie the answer sets (a login, a share link's
    /// looking cookie); fails when it sets none.
    pub fn cookie(&self) -> String {
        let set = self.set_cookie.as_deref().expect("a cookie");
        set.split(';').next().unwrap_or_default().to_string()
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

impl TestApp {
    /// Over a fresh database of the engine under test: SQLite in memory, or a new
    /// PostgreSQL database when `SCOREKEEPER_TEST_ENGINE=postgres` ([`engines::fresh_pool`]).
    pub async fn new() -> TestApp {
        let pool = engines::fresh_pool().await;
        TestApp {
            router: app(AppState::new(pool.clone())),
            pool,
            links: std::sync::Mutex::new(Vec::new()),
        }
    }

    pub async fn send(&self, mut request: Request<Body>) -> Reply {
        let headers = request.headers();
        if !headers.contains_key(header::COOKIE) && !headers.contains_key(header::AUTHORIZATION) {
            let links = self.links.lock().unwrap().join("; ");
            if !links.is_empty() {
                request
                    .headers_mut()
                    .insert(header::COOKIE, links.parse().unwrap());
            }
        }
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("router answers");
        let status = response.status();
        let location = response
            .headers()
            .get(header::LOCATION)
            .map(|v| v.to_str().unwrap().to_string());
        let set_cookie = response
            .headers()
            .get(header::SET_COOKIE)
            .map(|v| v.to_str().unwrap().to_string());
        for cookie in response.headers().get_all(header::SET_COOKIE) {
            let pair = cookie
                .to_str()
                .unwrap()
                .split(';')
                .next()
                .unwrap()
                .to_string();
            if pair.starts_with("sk_link_") {
                self.links.lock().unwrap().push(pair);
            }
        }
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        Reply {
            status,
            location,
            set_cookie,
            body: String::from_utf8(bytes.to_vec()).expect("utf-8 body"),
        }
    }

    pub async fn get(&self, uri: &str) -> Reply {
        self.send(Request::get(uri).body(Body::empty()).unwrap())
            .await
    }

    pub async fn post_json(&self, uri: &str, body: &Value) -> Reply {
        self.post_raw_json(uri, &body.to_string()).await
    }

    pub async fn post_raw_json(&self, uri: &str, body: &str) -> Reply {
        self.send(
            Request::post(uri)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await
    }

    /// A GET with extra headers (a cookie, say).
    pub async fn get_with(&self, uri: &str, headers: &[(&str, &str)]) -> Reply {
        let mut request = Request::get(uri);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        self.send(request.body(Body::empty()).unwrap()).await
    }

    /// Posts an HTML form (`application/x-www-form-urlencoded`).
    pub async fn post_form(&self, uri: &str, fields: &[(&str, &str)]) -> Reply {
        self.post_form_with(uri, fields, &[]).await
    }

    /// Posts an HTML form that must be taken: fails unless the answer is 303 (the page
    /// the form sends the phone on to), showing the page otherwise.
    pub async fn post_form_ok(&self, uri: &str, fields: &[(&str, &str)]) -> Reply {
        self.post_form_with_ok(uri, fields, &[]).await
    }

    /// [`TestApp::post_form_ok`] with extra headers (a cookie, an Origin).
    pub async fn post_form_with_ok(
        &self,
        uri: &str,
        fields: &[(&str, &str)],
        headers: &[(&str, &str)],
    ) -> Reply {
        let reply = self.post_form_with(uri, fields, headers).await;
        assert_eq!(reply.status.as_u16(), 303, "{uri}: {}", reply.body);
        reply
    }

    /// Posts an HTML form with extra headers (a cookie, an Origin).
    pub async fn post_form_with(
        &self,
        uri: &str,
        fields: &[(&str, &str)],
        headers: &[(&str, &str)],
    ) -> Reply {
        let body = fields
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let mut request =
            Request::post(uri).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        self.send(request.body(Body::from(body)).unwrap()).await
    }
}

impl TestApp {
    /// The one integer `sql` (no parameters) answers on this app's database, either engine.
    pub async fn scalar(&self, sql: &str) -> i64 {
        engines::scalar(&self.pool, sql).await
    }

    /// The one text `sql` (no parameters) answers on this app's database, either engine.
    pub async fn text(&self, sql: &str) -> String {
        engines::text(&self.pool, sql).await
    }

    /// Runs `sql` (no parameters) on this app's database: rows changed, or the refusal.
    pub async fn exec(&self, sql: &str) -> Result<u64, String> {
        engines::exec(&self.pool, sql).await
    }

    /// Creates club `name` (passphrase "seven of clubs") through its form, as a person
    /// does: its id and the login cookie (`name=value`) its creator's browser keeps.
    pub async fn new_club(&self, name: &str) -> (i64, String) {
        let reply = self
            .post_form(
                "/clubs",
                &[
                    ("name", name),
                    ("passphrase", "seven of clubs"),
                    ("again", "seven of clubs"),
                ],
            )
            .await;
        assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
        let cookie = reply
            .set_cookie
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string();
        let id = reply
            .location
            .unwrap()
            .trim_start_matches("/clubs/")
            .parse()
            .unwrap();
        (id, cookie)
    }

    /// The page at `uri` as the holder of login `cookie` sees it; fails unless 200.
    pub async fn page(&self, cookie: &str, uri: &str) -> String {
        let reply = self.get_with(uri, &[("cookie", cookie)]).await;
        assert_eq!(reply.status.as_u16(), 200, "{uri}: {}", reply.body);
        reply.body
    }

    /// Posts a JSON body with extra headers (a cookie, say).
    pub async fn post_json_with(&self, uri: &str, body: &Value, headers: &[(&str, &str)]) -> Reply {
        let mut request = Request::post(uri).header(header::CONTENT_TYPE, "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        self.send(request.body(Body::from(body.to_string())).unwrap())
            .await
    }
}

/// The person id behind display name `name`, read from the club history's player filter
/// (`body`, the history page).
pub fn person(body: &str, name: &str) -> String {
    let end = body
        .find(&format!(">{name}</option>"))
        .unwrap_or_else(|| panic!("{name} in {body}"));
    let start = body[..end].rfind("value=\"").unwrap() + 7;
    body[start..end].split('"').next().unwrap().to_string()
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            b' ' => "+".to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The worked cases kept in the repository, `crates/core/tests/fixtures/golden/<game>/*.json`
/// (the core's tests check them against the shared originals). Always present, so every
/// test that starts from them runs in a fresh clone.
pub fn golden_fixtures() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/tests/fixtures/golden")
}

/// `samples` (a game's id, its sample), one group per registered game in the order of
/// `scorekeeper::rules::GAMES`, a game's several samples in their written order. Panics
/// naming a registered game without a sample (`what` says which kind, for the message) or
/// a sample of a game the rules do not register, so a game added to the rules without its
/// test data fails the suite instead of escaping it.
pub fn every_game<T>(what: &str, samples: Vec<(&'static str, T)>) -> Vec<(&'static str, T)> {
    let mut left: Vec<Option<(&'static str, T)>> = samples.into_iter().map(Some).collect();
    let mut out = Vec::new();
    for game in scorekeeper::rules::GAMES {
        let before = out.len();
        for slot in left.iter_mut() {
            if slot.as_ref().is_some_and(|(id, _)| *id == game.id) {
                out.extend(slot.take());
            }
        }
        assert!(
            out.len() > before,
            "{}: no {what} among the test data; add one",
            game.id
        );
    }
    let unknown: Vec<&str> = left.iter().flatten().map(|(id, _)| *id).collect();
    assert!(
        unknown.is_empty(),
        "{what} of games not registered: {unknown:?}"
    );
    out
}
