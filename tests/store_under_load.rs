//! Issue 14: the store under load (one writer, a read pool, busy → 503), ETag / 304 on the
//! sheet, the standing and the ledger, paging the ledger with `?after=N`, and the sheet of
//! a long session showing its latest lines.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::path::PathBuf;
use std::str::FromStr;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use scorekeeper::web::{AppState, app};
use serde_json::{Value, json};
use sqlx::Connection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
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

async fn send(router: &Router, request: Request<Body>) -> Answer {
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        headers,
        body: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

async fn get(router: &Router, uri: &str, if_none_match: Option<&str>) -> Answer {
    let mut request = Request::get(uri);
    if let Some(tag) = if_none_match {
        request = request.header(header::IF_NONE_MATCH, tag);
    }
    send(router, request.body(Body::empty()).unwrap()).await
}

async fn post(router: &Router, uri: &str, body: &Value) -> Answer {
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    send(router, request).await
}

/// Imports `session(hands)`; returns its id.
async fn import(router: &Router, hands: usize) -> i64 {
    let answer = post(router, "/api/v1/sessions/import", &session(hands)).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.body);
    answer.json()["id"].as_i64().unwrap()
}

/// A fresh on-disk database (WAL needs a file) in its own folder under the temp dir.
fn database(name: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!(
        "scorekeeper-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    let url = format!("sqlite://{}/db.sqlite", dir.display());
    (dir, url)
}

async fn app_in_memory() -> Router {
    let pool = scorekeeper::store::open("sqlite::memory:").await.unwrap();
    app(AppState::new(pool))
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
async fn a_long_sheet_shows_its_last_fifty_lines_and_the_rest_on_a_tap() {
    let router = app_in_memory().await;
    let id = import(&router, 120).await;
    let page = get(&router, &format!("/sessions/{id}"), None).await;
    assert_eq!(page.status, StatusCode::OK);
    let lines = |body: &str| body.matches("<tr class=\"entry").count();
    assert_eq!(lines(&page.body), 50, "the last 50 of 120 hands");
    assert!(
        page.body.contains(&format!(
            "href=\"/sessions/{id}?all=1#sheet\">Show the 70 earlier lines</a>"
        )),
        "{}",
        page.body
    );
    // The last hand is there, numbered 120; hand 70 (the 70th, left out) is not.
    assert!(page.body.contains("<td class=\"num\">120</td>"));
    assert!(page.body.contains("<td class=\"num\">71</td>"));
    assert!(!page.body.contains("<td class=\"num\">70</td>"));
    let all = get(&router, &format!("/sessions/{id}?all=1"), None).await;
    assert_eq!(lines(&all.body), 120);
    assert!(all.body.contains("<td class=\"num\">1</td>"));
    assert!(!all.body.contains("earlier lines"));
    let short = import(&router, 3).await;
    let page = get(&router, &format!("/sessions/{short}"), None).await;
    assert_eq!(lines(&page.body), 3);
    assert!(!page.body.contains("earlier lines"));
}

#[tokio::test]
async fn a_locked_database_refuses_a_write_with_503_and_still_answers_reads() {
    let (dir, url) = database("busy");
    let pool = scorekeeper::store::open(&url).await.unwrap();
    let router = app(AppState::new(pool.clone()));
    let id = import(&router, 2).await;
    let standing = format!("/api/v1/sessions/{id}/standing");
    assert_eq!(get(&router, &standing, None).await.status, StatusCode::OK);
    // Another process (a backup, the command line) holds the write lock.
    let mut other = SqliteConnection::connect_with(&SqliteConnectOptions::from_str(&url).unwrap())
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .unwrap();
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
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    drop(other);
    // Nothing was written; the same hand now goes in as event 3.
    let retried = post(&router, &format!("/api/v1/sessions/{id}/events"), &hand(2)).await;
    assert_eq!(retried.status, StatusCode::CREATED, "{}", retried.body);
    assert_eq!(retried.json()["event_count"], 3);
    pool.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writes_queue_on_the_one_writer_and_all_land() {
    let (dir, url) = database("queue");
    let pool = scorekeeper::store::open(&url).await.unwrap();
    let router = app(AppState::new(pool.clone()));
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
