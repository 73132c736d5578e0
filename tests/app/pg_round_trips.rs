//! What recording a hand costs on PostgreSQL, counted on the wire: the service talks to the
//! server through a proxy that reads every message the service sends. A statement is an
//! `Execute` of the extended protocol or a simple `Query`; a round trip is a `Sync` after
//! such work, or a simple `Query` (each waits for the server's `ReadyForQuery`); a ping is a
//! bare `Sync` (sqlx sends one as a connection goes back to its pool). The writer's
//! connections are told from the readers' by their `application_name` in the start-up
//! message. Counting on the wire sees every connection and needs no server extension.
//! PostgreSQL only (`SCOREKEEPER_TEST_ENGINE=postgres`); a note and nothing else on SQLite.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::sync::{Arc, Mutex};
use std::time::Duration;

use scorekeeper::web::{AppState, app};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::common::TestApp;
use crate::common::engines::{on_postgres, postgres_database};
use crate::common::process::{PLAYERS, hand};

/// Hands recorded before counting: the first makes the players the club's and each
/// connection prepares its statements once.
const WARM: usize = 3;

/// Hands counted.
const HANDS: usize = 12;

/// What connections sent.
#[derive(Debug, Default, Clone, Copy)]
struct Sent {
    statements: u64,
    round_trips: u64,
    pings: u64,
}

impl std::ops::Sub for Sent {
    type Output = Sent;
    fn sub(self, o: Sent) -> Sent {
        Sent {
            statements: self.statements - o.statements,
            round_trips: self.round_trips - o.round_trips,
            pings: self.pings - o.pings,
        }
    }
}

impl std::fmt::Display for Sent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let per = |n: u64| n as f64 / HANDS as f64;
        write!(
            f,
            "{:.2} statements, {:.2} round trips, {:.2} pings",
            per(self.statements),
            per(self.round_trips),
            per(self.pings)
        )
    }
}

/// What the writer's connections sent, and the others (readers).
#[derive(Debug, Default)]
struct Counts {
    writer: Mutex<Sent>,
    others: Mutex<Sent>,
}

impl Counts {
    fn now(&self) -> (Sent, Sent) {
        (*self.writer.lock().unwrap(), *self.others.lock().unwrap())
    }
}

/// A proxy on a free local port in front of the server of `url`: the URL that reaches the
/// same database through it, and its counts.
async fn counted(url: &str) -> (String, Arc<Counts>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (scheme, rest) = url.split_once("://").unwrap();
    let (user, rest) = rest.split_once('@').unwrap();
    let (server, database) = rest.split_once('/').unwrap();
    let server = server.to_string();
    let counts = Arc::new(Counts::default());
    let shared = Arc::clone(&counts);
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let upstream = TcpStream::connect(&server).await.unwrap();
            tokio::spawn(relay(client, upstream, Arc::clone(&shared)));
        }
    });
    // No TLS, so the proxy can read the messages.
    let through = format!("{scheme}://{user}@127.0.0.1:{port}/{database}?sslmode=disable");
    (through, counts)
}

/// Passes bytes both ways, counting the client's messages, until either side closes.
async fn relay(client: TcpStream, upstream: TcpStream, counts: Arc<Counts>) {
    let (mut from_client, mut to_client) = client.into_split();
    let (mut from_server, mut to_server) = upstream.into_split();
    let back = tokio::spawn(async move { tokio::io::copy(&mut from_server, &mut to_client).await });
    let mut buf = vec![0u8; 64 * 1024];
    let mut wire = Wire::default();
    loop {
        let n = match from_client.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if to_server.write_all(&buf[..n]).await.is_err() {
            break;
        }
        wire.pending.extend_from_slice(&buf[..n]);
        wire.count(&counts);
    }
    back.abort();
}

/// One connection's messages as they arrive.
#[derive(Default)]
struct Wire {
    pending: Vec<u8>,
    /// Past the start-up message (before it the messages carry no type byte).
    started: bool,
    /// The writer's (its `application_name`).
    writer: bool,
    /// Work sent since the last `Sync`: a `Sync` now is a statement's round trip, not a ping.
    busy: bool,
}

impl Wire {
    /// Counts the whole messages at the front of `pending` and removes them.
    fn count(&mut self, counts: &Counts) {
        loop {
            let head = if self.started { 5 } else { 4 };
            if self.pending.len() < head {
                return;
            }
            let at = head - 4;
            let len = u32::from_be_bytes(self.pending[at..at + 4].try_into().unwrap()) as usize;
            let whole = at + len;
            if self.pending.len() < whole {
                return;
            }
            let message: Vec<u8> = self.pending.drain(..whole).collect();
            if !self.started {
                // An SSL or GSS encryption request comes before the start-up message.
                let code = u32::from_be_bytes(message[4..8].try_into().unwrap());
                self.started = !matches!(code, 80_877_103 | 80_877_104);
                let name = b"application_name\0scorekeeper-writer-";
                self.writer = message.windows(name.len()).any(|w| w == name);
                continue;
            }
            let mut sent = if self.writer {
                counts.writer.lock().unwrap()
            } else {
                counts.others.lock().unwrap()
            };
            match message[0] {
                b'E' => {
                    sent.statements += 1;
                    self.busy = true;
                }
                b'Q' => {
                    sent.statements += 1;
                    sent.round_trips += 1;
                    self.busy = false;
                }
                b'S' if self.busy => {
                    sent.round_trips += 1;
                    self.busy = false;
                }
                b'S' => sent.pings += 1,
                b'P' | b'B' | b'D' | b'C' | b'H' => self.busy = true,
                _ => {}
            }
        }
    }
}

/// A club made through the API and a session of it: the session's id and the write
/// token's `Authorization` value.
async fn club_session(app: &TestApp) -> (i64, String) {
    let club = json!({"name": "Wire club", "passphrase": "four words at the table"});
    let made = app.post_json("/api/v1/clubs", &club).await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let auth = format!("Bearer {}", made.json()["token"].as_str().unwrap());
    let session =
        json!({"game": "auction_pinochle", "players": PLAYERS, "agreements": {"stake": "0.05"}});
    let headers = [("authorization", auth.as_str())];
    let made = app
        .post_json_with("/api/v1/sessions", &session, &headers)
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    (made.json()["id"].as_i64().unwrap(), auth)
}

/// Session `id` holds `n` hands, each once, and the club's history counts them.
async fn every_hand_stood(app: &TestApp, id: i64, n: i64) {
    let stored = format!("SELECT COUNT(*) FROM events WHERE session_id = {id} AND seq > 0");
    assert_eq!(app.scalar(&stored).await, n);
    let hands = format!("SELECT hands FROM session_status WHERE session_id = {id}");
    assert_eq!(app.scalar(&hands).await, n, "the history facts followed");
    let bid = "SELECT CAST(SUM(hands_bid) AS BIGINT) FROM player_totals";
    assert_eq!(
        app.scalar(bid).await,
        n,
        "the club's totals followed by trigger"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_club_hand_on_postgres_takes_at_most_four_statements_and_round_trips() {
    if !on_postgres() {
        eprintln!("note: a PostgreSQL test (SCOREKEEPER_TEST_ENGINE=postgres); skipped");
        return;
    }
    let Some(url) = postgres_database("round_trips").await else {
        return;
    };
    let (through, counts) = counted(&url).await;
    let pool = scorekeeper::store::open(&through).await.unwrap();
    let app = TestApp {
        router: app(AppState::new(pool.clone())),
        pool,
        links: std::sync::Mutex::new(Vec::new()),
    };
    let (id, auth) = club_session(&app).await;
    let path = format!("/api/v1/sessions/{id}/events");
    let record = |n: usize| {
        let (app, path, auth) = (&app, &path, &auth);
        async move {
            let headers = [("authorization", auth.as_str())];
            let reply = app.post_json_with(path, &hand(n), &headers).await;
            assert_eq!(reply.status.as_u16(), 201, "hand {n}: {}", reply.body);
        }
    };
    for n in 0..WARM {
        record(n).await;
    }
    // The pings sqlx sends as a connection goes back to its pool come after the answer.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = counts.now();
    for n in WARM..WARM + HANDS {
        record(n).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = counts.now();
    let (writer, others) = (after.0 - before.0, after.1 - before.1);
    eprintln!(
        "PostgreSQL, per club hand recorded over HTTP ({HANDS} hands): \
         the writer {writer}; the readers {others}"
    );
    every_hand_stood(&app, id, (WARM + HANDS) as i64).await;
    let limit = 4 * HANDS as u64;
    let statements = writer.statements + others.statements;
    let round_trips = writer.round_trips + others.round_trips;
    assert!(
        statements <= limit && round_trips <= limit,
        "at most 4 statements and 4 round trips a hand, readers' included: the writer \
         {writer}; the readers {others}"
    );
    assert!(
        writer.round_trips + writer.pings <= limit,
        "the writer's round trips, its pings included, at most 4 a hand: {writer}"
    );
}
