//! The record-hand + standing cycle over HTTP on loopback, at several lengths of history
//! (issue 14): the service runs in this process on an on-disk database (WAL,
//! `synchronous=FULL`, as served), each client keeps one connection open and owns one
//! Auction Pinochle session imported with the given number of hands, and a cycle is one
//! `POST /api/v1/sessions/{id}/events` (a hand) and one `GET …/standing`.
//!
//! `cargo bench --bench http_cycle [-- --hands 100,1000,10000 --clients 1,8 --cycles 100]`
//!
//! Prints, per history length and number of clients: cycles/s over all clients, and the
//! cycle's p50 and p95 in milliseconds. Each session is read once before the clock starts
//! (that first read replays the imported session into the cache).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark stops at the first failure

use std::time::{Duration, Instant};

use scorekeeper::format::SessionDoc;
use scorekeeper::web::{AppState, app};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

const PLAYERS: [&str; 3] = ["A", "B", "C"];

/// Hand `i` of a session: dealers in turn, the next seat bids, made or set by turns.
fn hand(i: usize) -> Value {
    json!({"type": "hand", "dealer": PLAYERS[i % 3], "bidder": PLAYERS[(i + 1) % 3],
           "bid": 250 + 10 * (i % 5), "trump": "spades",
           "outcome": if i % 4 == 3 { "failed" } else { "made" }})
}

fn session(hands: usize) -> SessionDoc {
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle",
        "agreements": {"stake": "0.05", "kitty": "pot"}, "players": PLAYERS,
        "events": (0..hands).map(hand).collect::<Vec<_>>()
    }))
    .unwrap()
}

/// One kept-alive HTTP/1.1 connection, reading answers by their Content-Length.
struct Client {
    stream: BufReader<TcpStream>,
}

impl Client {
    async fn connect(addr: std::net::SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).await.unwrap();
        stream.set_nodelay(true).unwrap();
        Client {
            stream: BufReader::new(stream),
        }
    }

    /// Sends one request; returns the status and the body's length.
    async fn request(&mut self, method: &str, path: &str, body: Option<&str>) -> (u16, usize) {
        let body = body.unwrap_or("");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let stream = self.stream.get_mut();
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(body.as_bytes()).await.unwrap();
        let mut line = String::new();
        self.stream.read_line(&mut line).await.unwrap();
        let status: u16 = line.split(' ').nth(1).unwrap().parse().unwrap();
        let mut length = 0;
        loop {
            line.clear();
            self.stream.read_line(&mut line).await.unwrap();
            if line == "\r\n" {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap();
            }
        }
        let mut answer = vec![0; length];
        self.stream.read_exact(&mut answer).await.unwrap();
        (status, length)
    }
}

/// Runs `cycles` measured cycles on session `id`, whose next hand is `next`.
async fn client(addr: std::net::SocketAddr, id: i64, next: usize, cycles: usize) -> Vec<Duration> {
    let mut c = Client::connect(addr).await;
    let events = format!("/api/v1/sessions/{id}/events");
    let standing = format!("/api/v1/sessions/{id}/standing");
    let mut times = Vec::with_capacity(cycles);
    for k in 0..cycles {
        let started = Instant::now();
        let (status, _) = c
            .request("POST", &events, Some(&hand(next + k).to_string()))
            .await;
        assert_eq!(status, 201, "recording hand {}", next + k);
        let (status, _) = c.request("GET", &standing, None).await;
        assert_eq!(status, 200);
        times.push(started.elapsed());
    }
    times
}

fn list(args: &[String], flag: &str, default: &[usize]) -> Vec<usize> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .map(|v| v.split(',').map(|n| n.parse().unwrap()).collect())
        .unwrap_or_else(|| default.to_vec())
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let history = list(&args, "--hands", &[100, 1_000, 10_000]);
    let clients = list(&args, "--clients", &[1, 8]);
    let cycles = list(&args, "--cycles", &[100])[0];
    let dir = std::env::temp_dir().join(format!("scorekeeper-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pool = scorekeeper::store::open(&format!("sqlite://{}/bench.db", dir.display()))
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = app(AppState::new(pool.clone()));
    tokio::spawn(async move { axum::serve(listener, server).await });
    println!("record-hand + GET standing cycles over HTTP on {addr}, {cycles} cycles per client");
    println!(
        "{:>8} {:>8} {:>10} {:>9} {:>9}",
        "hands", "clients", "cycles/s", "p50 ms", "p95 ms"
    );
    for &hands in &history {
        let doc = session(hands);
        for &n in &clients {
            let mut ids = Vec::new();
            for _ in 0..n {
                ids.push(
                    scorekeeper::service::import(&pool, &doc, None)
                        .await
                        .unwrap(),
                );
            }
            // The first read of each session replays it into the cache: a cost paid once,
            // before the clock starts.
            let mut warm = Client::connect(addr).await;
            for id in &ids {
                let (status, _) = warm
                    .request("GET", &format!("/api/v1/sessions/{id}/standing"), None)
                    .await;
                assert_eq!(status, 200);
            }
            let started = Instant::now();
            let tasks: Vec<_> = ids
                .iter()
                .map(|&id| tokio::spawn(client(addr, id, hands, cycles)))
                .collect();
            let mut times = Vec::new();
            for t in tasks {
                times.extend(t.await.unwrap());
            }
            let wall = started.elapsed().as_secs_f64();
            times.sort();
            println!(
                "{hands:>8} {n:>8} {:>10.1} {:>9.2} {:>9.2}",
                times.len() as f64 / wall,
                percentile(&times, 0.5),
                percentile(&times, 0.95)
            );
        }
    }
    pool.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
