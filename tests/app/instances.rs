//! Issue 26 point 2: several instances on one PostgreSQL database. A change made through
//! one instance wakes the live sheets of that session on every other (`LISTEN`/`NOTIFY`,
//! `web::live`'s relay), and only those; two service processes on one database share
//! live sheets, record every hand of eight writers once and keep one login budget. Needs `SCOREKEEPER_TEST_DATABASE_URL` (required
//! under CI).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::time::{Duration, Instant};

use crate::common;

use common::engines::postgres_database;
use scorekeeper::web::live::{CHANNEL, Watchers};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_stream::StreamExt;

/// Whether `sheet` is woken within `ms` milliseconds.
async fn woken(sheet: &mut scorekeeper::web::live::Watch, ms: u64) -> bool {
    tokio::time::timeout(Duration::from_millis(ms), sheet.next())
        .await
        .is_ok_and(|n| n.is_some())
}

#[tokio::test]
async fn a_change_on_one_instance_wakes_that_sessions_sheets_on_the_other() {
    let Some(url) = postgres_database("instances_live").await else {
        return;
    };
    let (one, two) = (Watchers::default(), Watchers::default());
    one.relay_through(&url).await.unwrap();
    two.relay_through(&url).await.unwrap();
    let mut on_two = two.watch(7).unwrap();
    let mut other_session = two.watch(8).unwrap();
    let mut on_one = one.watch(7).unwrap();

    one.changed(7);
    assert!(
        woken(&mut on_two, 2_000).await,
        "within 2 s on the other instance"
    );
    assert!(woken(&mut on_one, 2_000).await, "and on its own");
    assert!(
        !woken(&mut other_session, 300).await,
        "session 8 did not change"
    );
    // Its own notification comes back to instance one, and is not a second change.
    assert!(!woken(&mut on_one, 300).await, "woken once, not twice");

    // Another process (here: a plain connection) naming session 8 wakes its sheets too;
    // a payload that names no session is ignored.
    let pg = sqlx::PgPool::connect(&url).await.unwrap();
    for payload in ["someone-else 8", "nonsense"] {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(payload)
            .execute(&pg)
            .await
            .unwrap();
    }
    assert!(woken(&mut other_session, 2_000).await);
    assert!(
        !woken(&mut on_two, 300).await,
        "session 7 did not change again"
    );
    pg.close().await;
}

const BINARY: &str = env!("CARGO_BIN_EXE_scorekeeper");
const PLAYERS: [&str; 3] = ["A", "B", "C"];

/// One HTTP/1.1 request on its own connection: the status and the body.
async fn request(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).await.unwrap();
    let reply = String::from_utf8_lossy(&reply).into_owned();
    let status = reply
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = reply
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

/// A service process on `url` (PostgreSQL) sharing it with one other (`--instances 2`),
/// once `/healthz` answers 200; killed when dropped.
struct Instance {
    port: u16,
    child: std::process::Child,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn instance(url: &str) -> Instance {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = std::process::Command::new(BINARY)
        .args([
            "serve",
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--database-url",
            url,
            "--instances",
            "2",
        ])
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let instance = Instance { port, child };
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(Ok(mut stream)) = tokio::time::timeout(
            Duration::from_secs(1),
            tokio::net::TcpStream::connect(("127.0.0.1", port)),
        )
        .await
        {
            let _ = stream.shutdown().await;
            if request(port, "GET", "/healthz", None, None).await.0 == 200 {
                return instance;
            }
        }
        assert!(
            Instant::now() < deadline,
            "the service on port {port} did not come up"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The `n`th hand (from 0) of an Auction Pinochle session: the deal goes round, the player
/// after the dealer bids 300 in clubs and makes it.
fn hand(n: usize) -> Value {
    json!({"type": "hand", "dealer": PLAYERS[n % 3], "bidder": PLAYERS[(n + 1) % 3],
           "bid": 300, "trump": "clubs", "outcome": "made"})
}

/// A new session of the club whose write token is `token`, made through `port`.
async fn new_session(port: u16, token: &str) -> i64 {
    let body =
        json!({"game": "auction_pinochle", "players": PLAYERS, "agreements": {"stake": "0.05"}});
    let (status, body) = request(port, "POST", "/api/v1/sessions", Some(token), Some(&body)).await;
    assert_eq!(status, 201, "{body}");
    serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_i64()
        .unwrap()
}

/// Records `hands` hands in session `id`, hand k through `ports[k % 2]`: each instance
/// finds the session moved on by the other before every one of its writes.
async fn writer(ports: [u16; 2], token: String, id: i64, hands: usize) {
    let path = format!("/api/v1/sessions/{id}/events");
    for k in 0..hands {
        let port = ports[k % 2];
        loop {
            match request(port, "POST", &path, Some(&token), Some(&hand(k))).await {
                (201, _) => break,
                // Busy (503): nothing written; the same hand again.
                (503, _) => tokio::time::sleep(Duration::from_millis(50)).await,
                (status, body) => panic!("session {id} hand {k} through {port}: {status} {body}"),
            }
        }
    }
}

/// Reads `sheet` (an open live sheet's connection) into `seen` until it holds `text`.
async fn read_until(sheet: &mut tokio::net::TcpStream, seen: &mut Vec<u8>, text: &str) {
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(seen).contains(text) {
        let n = sheet.read(&mut buf).await.unwrap();
        assert!(
            n > 0,
            "the live sheet closed: {}",
            String::from_utf8_lossy(seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
}

/// A hand recorded through `one` appears on a live sheet of its session opened on `two`
/// within 2 s.
async fn live_sheet_on_the_other(one: &Instance, two: &Instance, token: &str) {
    let id = new_session(one.port, token).await;
    let mut sheet = tokio::net::TcpStream::connect(("127.0.0.1", two.port))
        .await
        .unwrap();
    let head = format!(
        "GET /sessions/{id}/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n"
    );
    sheet.write_all(head.as_bytes()).await.unwrap();
    let mut seen = Vec::new();
    read_until(&mut sheet, &mut seen, "\r\n\r\n").await;
    let answer = String::from_utf8_lossy(&seen).into_owned();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let path = format!("/api/v1/sessions/{id}/events");
    let recorded = Instant::now();
    let (status, body) = request(one.port, "POST", &path, Some(token), Some(&hand(0))).await;
    assert_eq!(status, 201, "{body}");
    let told = read_until(&mut sheet, &mut seen, "event: changed");
    let told = tokio::time::timeout(Duration::from_secs(2), told).await;
    assert!(
        told.is_ok(),
        "no change on the other instance's sheet within 2 s"
    );
    eprintln!(
        "the other instance's sheet was told in {:?}",
        recorded.elapsed()
    );
}

/// 8 writers, each on its own session (made through either instance), every hand through
/// the instance the previous hand did not use: every hand is stored exactly once, and every
/// session's ledger equals replay of its document.
async fn eight_writers_across_both(one: &Instance, two: &Instance, token: &str, url: &str) {
    const HANDS: usize = 12;
    let mut ids = Vec::new();
    for n in 0..8 {
        let port = if n % 2 == 0 { one.port } else { two.port };
        ids.push(new_session(port, token).await);
    }
    let ports = [one.port, two.port];
    let writers: Vec<_> = ids
        .iter()
        .map(|&id| tokio::spawn(writer(ports, token.to_string(), id, HANDS)))
        .collect();
    for w in writers {
        w.await.unwrap();
    }
    let pg = sqlx::PgPool::connect(url).await.unwrap();
    for &sid in &ids {
        let stored: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM events WHERE session_id = $1 AND seq > 0")
                .bind(sid)
                .fetch_one(&pg)
                .await
                .unwrap();
        assert_eq!(stored, HANDS as i64, "session {sid}: every hand once");
    }
    let mut conn = pg.acquire().await.unwrap();
    let (sessions, _) = scorekeeper::copy::check_ledgers(&mut *conn).await.unwrap();
    // The 8 and the live sheet's session.
    assert_eq!(
        sessions, 9,
        "every session's ledger equals replay of its document"
    );
    drop(conn);
    pg.close().await;
}

/// Issue 26's "Done when": two service processes on one PostgreSQL database share live
/// sheets, record every hand once, and keep one login budget.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_on_one_database_share_sheets_hands_and_the_login_budget() {
    let Some(url) = postgres_database("instances_two").await else {
        return;
    };
    let (one, two) = (instance(&url).await, instance(&url).await);
    let club = json!({"name": "Two rooms", "passphrase": "four words at the table"});
    let (status, body) = request(one.port, "POST", "/api/v1/clubs", None, Some(&club)).await;
    assert_eq!(status, 201, "{body}");
    let token = serde_json::from_str::<Value>(&body).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    live_sheet_on_the_other(&one, &two, &token).await;
    eight_writers_across_both(&one, &two, &token, &url).await;

    // The login budget is not doubled: 10 checks a minute at a club in all. Each instance
    // checks 5 at once (and lets one address try 5 at once); wrong passphrases sent to both
    // in turn: 10 are checked (401), the 11th and 12th refused unchecked (429).
    let wrong = json!({"name": "Two rooms", "passphrase": "not the words"});
    let mut statuses = Vec::new();
    for n in 0..12 {
        let port = if n % 2 == 0 { one.port } else { two.port };
        statuses.push(
            request(port, "POST", "/api/v1/tokens", None, Some(&wrong))
                .await
                .0,
        );
    }
    let count = |status: u16| statuses.iter().filter(|&&s| s == status).count();
    assert_eq!((count(401), count(429)), (10, 2), "{statuses:?}");
}
