//! The store under load (one writer, a read pool, busy → 503), ETag / 304 on the
//! sheet, the standing and the ledger, paging the ledger with `?after=N`, and the sheet of
//! a long session showing its latest lines.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common::html::{count, has, select_text};
use scorekeeper::ids::SessionId;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use scorekeeper::web::{AppState, app};
use serde_json::{Value, json};
use sqlx::Connection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};

use crate::common::engines;

/// Another process's connection to the database at `url`, of its engine.
enum Other {
    Sqlite(SqliteConnection),
    Postgres(sqlx::PgConnection),
}

impl Other {
    async fn connect(url: &str) -> Other {
        if engines::on_postgres() {
            Other::Postgres(sqlx::PgConnection::connect(url).await.unwrap())
        } else {
            let options = SqliteConnectOptions::from_str(url).unwrap();
            Other::Sqlite(SqliteConnection::connect_with(&options).await.unwrap())
        }
    }

    /// Runs `sql` (statements without parameters) as they are.
    async fn run(&mut self, sql: &'static str) {
        match self {
            Other::Sqlite(c) => sqlx::raw_sql(sql).execute(c).await.map(drop),
            Other::Postgres(c) => sqlx::raw_sql(sql).execute(c).await.map(drop),
        }
        .unwrap();
    }
}
use tower::ServiceExt;

const PLAYERS: [&str; 3] = ["A", "B", "C"];

/// Hand `i`: dealers in turn, the next seat bids 250, always made.
fn hand(i: usize) -> Value {
    json!({"type": "hand", "dealer": PLAYERS[i % 3], "bidder": PLAYERS[(i + 1) % 3],
           "bid": 250, "trump": "spades", "outcome": "made"})
}

/// A three-handed Auction Pinochle session document of `hands` hands, no kitty.
fn session(hands: usize) -> Value {
    json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle",
        "agreements": {"stake": "0.05"}, "players": PLAYERS,
        "events": (0..hands).map(hand).collect::<Vec<_>>()
    })
}

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    fn etag(&self) -> String {
        self.headers
            .get(header::ETAG)
            .unwrap_or_else(|| panic!("no ETag ({})", self.status))
            .to_str()
            .unwrap()
            .to_string()
    }
}

/// The service and, like a browser, the write-link cookie (`sk_link_{id}`) of every
/// session it imported: a session without a club is reached only through its link.
#[derive(Clone)]
struct Client {
    router: Router,
    cookies: Arc<Mutex<Vec<String>>>,
}

impl Client {
    fn new(router: Router) -> Client {
        Client {
            router,
            cookies: Arc::default(),
        }
    }
}

async fn send(client: &Client, mut request: Request<Body>) -> Answer {
    let cookies = client.cookies.lock().unwrap().join("; ");
    if !cookies.is_empty() {
        request
            .headers_mut()
            .insert(header::COOKIE, cookies.parse().unwrap());
    }
    let response = client.router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        headers,
        body: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

async fn get(router: &Client, uri: &str, if_none_match: Option<&str>) -> Answer {
    let mut request = Request::get(uri);
    if let Some(tag) = if_none_match {
        request = request.header(header::IF_NONE_MATCH, tag);
    }
    send(router, request.body(Body::empty()).unwrap()).await
}

async fn post(router: &Client, uri: &str, body: &Value) -> Answer {
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    send(router, request).await
}

/// Imports `session(hands)` and keeps its write link; returns its id.
async fn import(router: &Client, hands: usize) -> i64 {
    let answer = post(router, "/api/v1/sessions/import", &session(hands)).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    let created = answer.json();
    let id = created["id"].as_i64().unwrap();
    let token = created["write_token"].as_str().unwrap();
    router
        .cookies
        .lock()
        .unwrap()
        .push(format!("sk_link_{id}={token}"));
    id
}

/// A fresh on-disk database (WAL needs a file) in its own folder under the temp dir; on
/// PostgreSQL a fresh database on the test server (and a folder never made).
async fn database(name: &str) -> (PathBuf, String) {
    let pg = engines::on_postgres().then_some(engines::test_database_url().await);
    let dir = std::env::temp_dir().join(format!(
        "scorekeeper-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    let url = pg.unwrap_or_else(|| format!("sqlite://{}/db.sqlite", dir.display()));
    (dir, url)
}

async fn app_in_memory() -> Client {
    let pool = crate::common::engines::fresh_pool().await;
    Client::new(app(AppState::new(pool)))
}

#[tokio::test]
async fn standing_and_ledger_answer_304_until_the_next_event() {
    let router = app_in_memory().await;
    let id = import(&router, 2).await;
    for path in ["standing", "ledger"] {
        let uri = format!("/api/v1/sessions/{id}/{path}");
        let first = get(&router, &uri, None).await;
        assert_eq!(first.status, StatusCode::OK, "{path}");
        let tag = first.etag();
        let again = get(&router, &uri, Some(&tag)).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{path}");
        assert_eq!(again.body, "", "{path}: a 304 has no body");
        assert_eq!(again.etag(), tag, "{path}");
        // A weak form of the same tag, in a list, matches too.
        let listed = get(&router, &uri, Some(&format!("\"other\", W/{tag}"))).await;
        assert_eq!(listed.status, StatusCode::NOT_MODIFIED, "{path}");
        let other = get(&router, &uri, Some("\"s1-e0-x\"")).await;
        assert_eq!(other.status, StatusCode::OK, "{path}: another tag");
    }
    let standing = format!("/api/v1/sessions/{id}/standing");
    let ledger = format!("/api/v1/sessions/{id}/ledger");
    let old_standing = get(&router, &standing, None).await.etag();
    let old_ledger = get(&router, &ledger, None).await.etag();
    assert_ne!(old_standing, old_ledger, "two documents, two tags");
    let recorded = post(&router, &format!("/api/v1/sessions/{id}/events"), &hand(2)).await;
    assert_eq!(recorded.status, StatusCode::CREATED, "{}", recorded.body);
    let after = get(&router, &standing, Some(&old_standing)).await;
    assert_eq!(after.status, StatusCode::OK, "the standing moved on");
    assert_ne!(after.etag(), old_standing);
    assert_eq!(after.json()["event_count"], 3);
    let after = get(&router, &ledger, Some(&old_ledger)).await;
    assert_eq!(after.status, StatusCode::OK, "the ledger moved on");
    assert_ne!(after.etag(), old_ledger);
    assert_eq!(after.json()["events"].as_array().unwrap().len(), 3);
    let new_tag = after.etag();
    assert_eq!(
        get(&router, &ledger, Some(&new_tag)).await.status,
        StatusCode::NOT_MODIFIED
    );
}

#[tokio::test]
async fn the_sheet_page_answers_304_until_the_next_event() {
    let router = app_in_memory().await;
    let id = import(&router, 1).await;
    let uri = format!("/sessions/{id}");
    let first = get(&router, &uri, None).await;
    assert_eq!(first.status, StatusCode::OK);
    assert!(first.body.contains("Score sheet"), "{}", first.body);
    let tag = first.etag();
    let again = get(&router, &uri, Some(&tag)).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert_eq!(again.body, "");
    // The whole sheet is another page, with another tag.
    let all = get(&router, &format!("{uri}?all=1"), Some(&tag)).await;
    assert_eq!(all.status, StatusCode::OK);
    assert_ne!(all.etag(), tag);
    // A correction form is never answered from the cache.
    let correcting = get(&router, &format!("{uri}?correct=0"), Some(&tag)).await;
    assert_eq!(correcting.status, StatusCode::OK);
    assert!(!correcting.headers.contains_key(header::ETAG));
    let recorded = post(&router, &format!("/api/v1/sessions/{id}/events"), &hand(1)).await;
    assert_eq!(recorded.status, StatusCode::CREATED, "{}", recorded.body);
    let after = get(&router, &uri, Some(&tag)).await;
    assert_eq!(after.status, StatusCode::OK, "a hand was entered since");
    assert_ne!(after.etag(), tag);
}

#[tokio::test]
async fn the_ledger_pages_from_a_seq() {
    let router = app_in_memory().await;
    let id = import(&router, 5).await;
    let uri = format!("/api/v1/sessions/{id}/ledger");
    let full = get(&router, &uri, None).await.json();
    let seqs = |ledger: &Value| -> Vec<u64> {
        ledger["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["seq"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(seqs(&full), [1, 2, 3, 4, 5]);
    let page = get(&router, &format!("{uri}?after=2"), None).await.json();
    assert_eq!(seqs(&page), [3, 4, 5], "only the entries after seq 2");
    // Everything but the entries is the whole ledger's: the standing after the last event.
    let mut expected = full.clone();
    expected["events"] = Value::Array(full["events"].as_array().unwrap()[2..].to_vec());
    assert_eq!(page, expected);
    let caught_up = get(&router, &format!("{uri}?after=5"), None).await.json();
    assert_eq!(seqs(&caught_up), Vec::<u64>::new());
    assert_eq!(caught_up["balances"], full["balances"]);
    let beyond = get(&router, &format!("{uri}?after=99"), None).await.json();
    assert_eq!(seqs(&beyond), Vec::<u64>::new());
    assert_eq!(
        seqs(&get(&router, &format!("{uri}?after=0"), None).await.json()),
        [1, 2, 3, 4, 5]
    );
    let bad = get(&router, &format!("{uri}?after=two"), None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.json()["error"]["field"], "after", "{}", bad.body);
    assert_eq!(bad.json()["error"]["code"], "bad_request");
}

#[tokio::test]
async fn a_long_sheet_shows_its_last_twelve_lines_and_the_rest_on_a_tap() {
    let router = app_in_memory().await;
    let id = import(&router, 120).await;
    let page = get(&router, &format!("/sessions/{id}"), None).await;
    assert_eq!(page.status, StatusCode::OK);
    let lines = |body: &str| count(body, "tr[class^=entry]");
    // The writer's page (WRITER_LINES): the last 12 of 120 hands, 108 a tap away.
    assert_eq!(lines(&page.body), 12, "the last 12 of 120 hands");
    assert!(
        page.body.contains(&format!(
            "href=\"/sessions/{id}?all=1#sheet\">Show the 108 earlier lines</a>"
        )),
        "{}",
        page.body
    );
    // The last hand is there, numbered 120, and hand 109; hand 108 (left out) is not.
    let numbers = select_text(&page.body, "td.num");
    assert!(numbers.contains(&"120".to_string()));
    assert!(numbers.contains(&"109".to_string()));
    assert!(!numbers.contains(&"108".to_string()));
    let all = get(&router, &format!("/sessions/{id}?all=1"), None).await;
    assert_eq!(lines(&all.body), 120);
    assert!(select_text(&all.body, "td.num").contains(&"1".to_string()));
    assert!(!all.body.contains("earlier lines"));
    let short = import(&router, 3).await;
    let page = get(&router, &format!("/sessions/{short}"), None).await;
    assert_eq!(lines(&page.body), 3);
    assert!(!page.body.contains("earlier lines"));
}

#[tokio::test]
async fn a_locked_database_refuses_a_write_with_503_and_still_answers_reads() {
    let (dir, url) = database("busy").await;
    let pool = scorekeeper::store::open(&url).await.unwrap();
    let router = Client::new(app(AppState::new(pool.clone())));
    let id = import(&router, 2).await;
    let standing = format!("/api/v1/sessions/{id}/standing");
    assert_eq!(get(&router, &standing, None).await.status, StatusCode::OK);
    // Another process (a backup, the command line) holds the write lock: on PostgreSQL a
    // lock on the events that lets reads through and no insert.
    let mut other = Other::connect(&url).await;
    other
        .run(if engines::on_postgres() {
            "BEGIN; LOCK TABLE events IN EXCLUSIVE MODE"
        } else {
            "BEGIN IMMEDIATE"
        })
        .await;
    let refused = post(&router, &format!("/api/v1/sessions/{id}/events"), &hand(2)).await;
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        refused.body
    );
    assert_eq!(refused.headers[header::RETRY_AFTER], "1");
    let error = &refused.json()["error"];
    assert_eq!(error["code"], "busy", "{}", refused.body);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("nothing was recorded"),
        "{error}"
    );
    // The page's form says so in words, keeps what was entered, and writes nothing.
    let form = "dealer=C&bidder=A&bid=250&trump=spades&outcome=made&expected_events=2";
    let page = send(
        &router,
        Request::post(format!("/sessions/{id}/hands"))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(form))
            .unwrap(),
    )
    .await;
    assert_eq!(
        page.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("the score sheet is busy saving other entries; nothing was recorded"),
        "{}",
        page.body
    );
    // Reads go on while the lock is held (WAL): the read pool does not wait for it.
    let read = get(&router, &standing, None).await;
    assert_eq!(read.status, StatusCode::OK);
    assert_eq!(read.json()["event_count"], 2);
    other.run("ROLLBACK").await;
    drop(other);
    // Nothing was written; the same hand now goes in as event 3.
    let retried = post(&router, &format!("/api/v1/sessions/{id}/events"), &hand(2)).await;
    assert_eq!(retried.status, StatusCode::CREATED, "{}", retried.body);
    assert_eq!(retried.json()["event_count"], 3);
    pool.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// `/healthz` tells whether a write can be made now: while another process holds SQLite's
/// write lock every write is refused busy, so it answers 503 with the cause, at once; with
/// the lock let go, 200, and the writer waits its full time for a lock again (a write
/// behind a lock held half a second goes in). PostgreSQL's table lock lets the probe
/// through, so this is SQLite's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_is_503_with_the_cause_while_another_process_holds_the_write_lock() {
    if engines::on_postgres() {
        return;
    }
    let (dir, url) = database("healthz-lock").await;
    let pool = scorekeeper::store::open(&url).await.unwrap();
    let router = Client::new(app(AppState::new(pool.clone())));
    let id = import(&router, 2).await;
    let ok = get(&router, "/healthz", None).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    assert_eq!(ok.json(), json!({"status": "ok"}));
    let mut other = Other::connect(&url).await;
    other.run("BEGIN IMMEDIATE").await;
    let started = std::time::Instant::now();
    let down = get(&router, "/healthz", None).await;
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    assert_eq!(
        down.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        down.body
    );
    let body = down.json();
    assert_eq!(body["status"], "unavailable", "{body}");
    assert!(
        body["cause"].as_str().unwrap().contains("write lock"),
        "{body}"
    );
    other.run("ROLLBACK").await;
    let ok = get(&router, "/healthz", None).await;
    assert_eq!(ok.status, StatusCode::OK, "{}", ok.body);
    // The probe's short wait for the lock is not left on the writer.
    other.run("BEGIN IMMEDIATE").await;
    let release = tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        other.run("ROLLBACK").await;
    });
    let written = post(&router, &format!("/api/v1/sessions/{id}/events"), &hand(2)).await;
    assert_eq!(written.status, StatusCode::CREATED, "{}", written.body);
    release.await.unwrap();
    pool.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writes_queue_on_the_one_writer_and_all_land() {
    let (dir, url) = database("queue").await;
    let pool = scorekeeper::store::open(&url).await.unwrap();
    let router = Client::new(app(AppState::new(pool.clone())));
    let a = import(&router, 0).await;
    let b = import(&router, 0).await;
    // Eight writers at once, four on each of two sessions, ten hands each.
    let writers: Vec<_> = (0..8)
        .map(|w| {
            let router = router.clone();
            let id = if w % 2 == 0 { a } else { b };
            tokio::spawn(async move {
                let mut statuses = Vec::new();
                for k in 0..10 {
                    let uri = format!("/api/v1/sessions/{id}/events");
                    statuses.push(post(&router, &uri, &hand(w + k)).await.status);
                }
                statuses
            })
        })
        .collect();
    for w in writers {
        for status in w.await.unwrap() {
            assert_eq!(status, StatusCode::CREATED);
        }
    }
    for id in [a, b] {
        let standing = get(&router, &format!("/api/v1/sessions/{id}/standing"), None).await;
        assert_eq!(standing.json()["event_count"], 40);
        let ledger = get(&router, &format!("/api/v1/sessions/{id}/ledger"), None).await;
        assert_eq!(ledger.json()["events"].as_array().unwrap().len(), 40);
    }
    pool.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Readers never wait on the writer: while a long write transaction holds the
/// one writer connection (and the write lock), another session's standing, the sessions
/// list, a club page and a sheet reached with the login cookie, and `/healthz` all answer
/// at once from the read pool. Before the read pool took them, each waited for the writer
/// (here: the 5 s `WRITE_WAIT`, then a 503).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_and_cookie_checks_answer_while_a_write_holds_the_writer() {
    use scorekeeper::service::clubs::{self, ClientKey, LoginLimits};
    let (dir, url) = database("readers").await;
    let pool = scorekeeper::store::open(&url).await.unwrap();
    let router = Client::new(app(AppState::new(pool.clone())));
    let open = import(&router, 3).await;
    let limits = LoginLimits::new();
    let (club, token) = clubs::create_club(
        &pool,
        &limits,
        ClientKey::of(None),
        "Thursday",
        "correct horse battery",
    )
    .await
    .unwrap();
    let doc: scorekeeper::format::SessionDoc = serde_json::from_value(session(4)).unwrap();
    let ours = scorekeeper::service::import(&pool, &doc, Some(club.id))
        .await
        .unwrap();
    router
        .cookies
        .lock()
        .unwrap()
        .push(format!("sk_session={token}"));
    // The writer is busy: its one connection holds a write transaction.
    let mut long_write = pool.begin_write().await.unwrap();
    scorekeeper::store::history::set_archived(&mut long_write, ours, false)
        .await
        .unwrap();
    let reads = [
        format!("/api/v1/sessions/{open}/standing"),
        "/api/v1/sessions".to_string(),
        format!("/clubs/{}", club.id),
        format!("/sessions/{ours}"),
        "/".to_string(),
        "/healthz".to_string(),
    ];
    for uri in &reads {
        let started = std::time::Instant::now();
        let answer = get(&router, uri, None).await;
        let took = started.elapsed();
        assert_eq!(answer.status, StatusCode::OK, "{uri}: {}", answer.body);
        assert!(
            took < std::time::Duration::from_millis(200),
            "{uri} took {took:?} while the writer was busy"
        );
    }
    // What they read is the committed state: the club's session with its 4 hands.
    let list = get(&router, "/api/v1/sessions", None).await.json();
    assert_eq!(list["sessions"][0]["id"], ours.0);
    assert_eq!(list["sessions"][0]["hands"], 4);
    long_write.rollback().await.unwrap();
    // A read handle cannot write: its connections are read-only.
    let reader = scorekeeper::store::reader(&pool);
    let mut conn = reader.acquire().await.unwrap();
    let refused = scorekeeper::store::history::set_archived(&mut conn, ours, true)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("readonly") || refused.contains("read-only"),
        "{refused}"
    );
    drop(conn);
    pool.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Work proportional to what is asked: the sessions list and the club page show
/// only the club's sessions, 50 at a time, newest first, with a link to the older ones;
/// sessions without a club or of another club never show.
#[tokio::test]
async fn a_clubs_sessions_come_a_page_at_a_time_and_only_its_own() {
    use scorekeeper::service::clubs::{self, ClientKey, LoginLimits};
    let pool = crate::common::engines::fresh_pool().await;
    let router = Client::new(app(AppState::new(pool.clone())));
    let limits = LoginLimits::new();
    let club = |name: &'static str| {
        let (pool, limits) = (pool.clone(), &limits);
        async move {
            clubs::create_club(
                &pool,
                limits,
                ClientKey::of(None),
                name,
                "correct horse battery",
            )
            .await
            .unwrap()
        }
    };
    let (ours, token) = club("Thursday").await;
    let (theirs, _) = club("Friday").await;
    let doc: scorekeeper::format::SessionDoc = serde_json::from_value(session(1)).unwrap();
    let mut mine = Vec::new();
    for n in 0..53 {
        // Interleaved with another club's and open sessions, which must not show.
        let other = if n % 2 == 0 { Some(theirs.id) } else { None };
        scorekeeper::service::import(&pool, &doc, other)
            .await
            .unwrap();
        mine.push(
            scorekeeper::service::import(&pool, &doc, Some(ours.id))
                .await
                .unwrap(),
        );
    }
    router
        .cookies
        .lock()
        .unwrap()
        .push(format!("sk_session={token}"));
    let ids = |page: &Value| -> Vec<i64> {
        page["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_i64().unwrap())
            .collect()
    };
    let newest_first: Vec<i64> = mine.iter().rev().map(|s: &SessionId| s.0).collect();
    let first = get(&router, "/api/v1/sessions", None).await.json();
    assert_eq!(ids(&first), newest_first[..50]);
    let next = first["next"].as_str().unwrap().to_string();
    assert_eq!(
        next,
        format!("/api/v1/sessions?before={}", newest_first[49])
    );
    let second = get(&router, &next, None).await.json();
    assert_eq!(ids(&second), newest_first[50..]);
    assert!(second["next"].is_null());
    let bad = get(&router, "/api/v1/sessions?before=soon", None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.json()["error"]["field"], "before", "{}", bad.body);
    // The club page: the same page of 50 and a link to the three older ones.
    let page = get(&router, &format!("/clubs/{}", ours.id), None).await;
    assert_eq!(page.status, StatusCode::OK);
    let shown = |body: &str, id: i64| has(body, &format!("[href=\"/sessions/{id}\"]"));
    assert!(newest_first[..50].iter().all(|&id| shown(&page.body, id)));
    assert!(!shown(&page.body, newest_first[50]));
    let older = format!("/clubs/{}?before={}", ours.id, newest_first[49]);
    assert!(
        has(&page.body, &format!("[href=\"{older}\"]")),
        "no link to older sessions"
    );
    let rest = get(&router, &older, None).await;
    assert!(newest_first[50..].iter().all(|&id| shown(&rest.body, id)));
    assert!(!shown(&rest.body, newest_first[49]));
    assert!(!rest.body.contains("Older sessions"));
}
