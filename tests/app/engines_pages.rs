//! One club, imported from its export into a fresh SQLite database and a fresh PostgreSQL
//! one, reads the same on both: every page a member can reach from the club page (its
//! sessions of every game, history, leaderboard, player pages, nights) is the same text,
//! so no ordering, tie or sum differs between the engines. Needs
//! `SCOREKEEPER_TEST_DATABASE_URL` (required under CI).

use std::collections::{BTreeSet, VecDeque};

use crate::common;
use scorekeeper::format::SessionDoc;
use scorekeeper::ids::ClubId;
use scorekeeper::service;
use scorekeeper::web::{AppState, app};
use serde_json::{Value, json};

use common::engines::postgres_database;
use common::nights::{make_night, pay_at_night, two_pitches};
use common::{TestApp, golden_fixtures};

/// The most pages the walk reads on each engine (the club below has about 60).
const MOST_PAGES: usize = 400;

/// An app over the database at `url` (`sqlite::memory:` or a PostgreSQL database).
async fn app_at(url: &str) -> TestApp {
    let pool = scorekeeper::store::open(url).await.unwrap();
    TestApp {
        router: app(AppState::new(pool.clone())),
        pool,
        links: std::sync::Mutex::new(Vec::new()),
    }
}

/// Every worked case the rules accept, as a session document.
fn accepted_cases() -> Vec<SessionDoc> {
    let mut docs = Vec::new();
    for registration in scorekeeper::registry::GAMES {
        let dir = golden_fixtures().join(registration.game.id);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for path in files
            .iter()
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
        {
            let case: Value =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            if case["expect"]["rejected"] == json!(true) {
                continue;
            }
            docs.push(serde_json::from_value(case["session"].clone()).unwrap());
        }
    }
    docs
}

/// The export of a club holding a session of every worked case of every game, two Pitch
/// evenings that tie on money (Ann and Bob each +2.80 one night), a night of them and a
/// payment at it.
async fn club_export() -> Value {
    let source = app_at("sqlite::memory:").await;
    let (club, cookie) = source.new_club("Thursday Club").await;
    for doc in accepted_cases() {
        service::import(&source.pool, &doc, Some(ClubId(club)))
            .await
            .unwrap();
    }
    let (a, b) = two_pitches(&source, club).await;
    let (night_page, _) = make_night(&source, &cookie, club, &[a, b], "At Sal's").await;
    pay_at_night(&source, &cookie, &night_page, ["0", "Dee", "Ann", "1.20"]).await;
    let uri = format!("/api/v1/clubs/{club}/export");
    let export = source.get_with(&uri, &[("cookie", &cookie)]).await;
    assert_eq!(export.status.as_u16(), 200, "{}", export.body);
    export.json()
}

/// Imports `export` into `app` as a new club and logs in: the login cookie.
async fn import_and_log_in(app: &TestApp, export: &Value) -> String {
    let body = json!({"name": "Thursday Club", "passphrase": "seven of clubs", "club": export});
    let made = app.post_json("/api/v1/clubs/import", &body).await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let login = app
        .post_form(
            "/login",
            &[("name", "Thursday Club"), ("passphrase", "seven of clubs")],
        )
        .await;
    assert_eq!(login.status.as_u16(), 303, "{}", login.body);
    login.cookie()
}

/// The club's and sessions' pages `page` links to (no files, no forms' targets).
fn links(page: &str) -> Vec<String> {
    page.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|href| href.replace("&amp;", "&"))
        .filter(|href| href.starts_with("/clubs/") || href.starts_with("/sessions/"))
        .filter(|href| !href.contains("/api/") && !href.ends_with("/live"))
        .map(|href| href.split('#').next().unwrap_or_default().to_string())
        .collect()
}

/// `page` without what each database makes at random: the club's share secret (in the
/// link and its QR code) and session links' secrets.
fn without_secrets(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(at) = rest.find("<figure class=\"qr\">") {
        out.push_str(&rest[..at]);
        let end = rest[at..]
            .find("</figure>")
            .map_or(rest.len(), |e| at + e + 9);
        out.push_str("[QR code]");
        rest = &rest[end..];
    }
    out.push_str(rest);
    let mut cleaned = String::with_capacity(out.len());
    let mut chars = out.as_str();
    while let Some((at, mark)) = ["/share/", "/link/"]
        .iter()
        .filter_map(|m| chars.find(m).map(|at| (at, m.len())))
        .min()
    {
        let start = at + mark;
        cleaned.push_str(&chars[..start]);
        let secret = chars[start..]
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(chars.len() - start);
        cleaned.push_str("SECRET");
        chars = &chars[start + secret..];
    }
    cleaned.push_str(chars);
    cleaned
}

/// Fails with the first line where `uri`'s pages differ, but for their secrets.
fn same_page(uri: &str, sqlite: &str, postgres: &str) {
    let (one, other) = (without_secrets(sqlite), without_secrets(postgres));
    if one == other {
        return;
    }
    let (at, (a, b)) = one
        .lines()
        .zip(other.lines())
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .map_or((0, ("(one page is longer)", "")), |(i, pair)| (i + 1, pair));
    panic!("{uri} differs at line {at}:\n  SQLite:     {a}\n  PostgreSQL: {b}");
}

#[tokio::test]
async fn every_page_of_an_imported_club_is_the_same_on_both_engines() {
    let Some(url) = postgres_database("engines_pages").await else {
        return;
    };
    let export = club_export().await;
    let (sqlite, postgres) = (app_at("sqlite::memory:").await, app_at(&url).await);
    let on_sqlite = import_and_log_in(&sqlite, &export).await;
    let on_postgres = import_and_log_in(&postgres, &export).await;

    let club = "/clubs/1".to_string();
    let mut seen = BTreeSet::from([club.clone()]);
    let mut queue = VecDeque::from([club]);
    let mut read = 0;
    while let Some(uri) = queue.pop_front() {
        let one = sqlite.get_with(&uri, &[("cookie", &on_sqlite)]).await;
        let other = postgres.get_with(&uri, &[("cookie", &on_postgres)]).await;
        assert_eq!(one.status, other.status, "{uri}");
        same_page(&uri, &one.body, &other.body);
        read += 1;
        for link in links(&one.body) {
            if seen.len() < MOST_PAGES && seen.insert(link.clone()) {
                queue.push_back(link);
            }
        }
    }
    eprintln!("{read} pages read the same on SQLite and PostgreSQL");
    assert!(read > 40, "the walk reached only {read} pages");
}
