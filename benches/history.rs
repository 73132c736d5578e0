//! History stays fast as it grows: the club history page, a player page
//! and the leaderboard, timed through the router (no network) over a club with 10 and with
//! 2,000 sessions of 60 hands each. The sessions are imported through the service (the real
//! engines' output, the same facts written as at the table), into an in-memory database.
//!
//! `cargo bench --bench history --profile dev [-- --sessions 10,2000 --requests 50]`
//! (`--profile dev`: a debug build, which the machine can afford; plain `cargo bench` runs
//! the optimised build.)
//!
//! Prints, per page and club size, the median and p95 in milliseconds, then each page's
//! ratio of medians largest club / smallest club, which must stay under 2.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark stops at the first failure

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use scorekeeper::format::SessionDoc;
use scorekeeper::web::{AppState, app};
use serde_json::{Value, json};
use tower::ServiceExt;

/// The club's six regulars; each night three of them sit down.
const REGULARS: [&str; 6] = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn"];

/// Night `n`: three regulars in turn, 60 hands of Auction Pinochle with Scarne's kitty,
/// dealers in turn, the next seat bids 250–390, made or set by turns.
fn night(n: usize) -> SessionDoc {
    let players: Vec<&str> = (0..3).map(|k| REGULARS[(n + k) % REGULARS.len()]).collect();
    let events: Vec<Value> = (0..60)
        .map(|i| {
            json!({"type": "hand", "dealer": players[(i + 2) % 3], "bidder": players[i % 3],
                   "bid": 250 + 10 * ((i + n) % 15), "trump": "spades",
                   "outcome": if (i + n) % 4 == 3 { "failed" } else { "made" }})
        })
        .collect();
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": {"stake": "0.05", "kitty": "pot"}, "players": players, "events": events
    }))
    .unwrap()
}

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| default.to_string())
}

async fn time(router: &axum::Router, cookie: &str, uri: &str, requests: usize) -> (f64, f64) {
    let mut took: Vec<Duration> = Vec::with_capacity(requests);
    for _ in 0..requests {
        let request = Request::get(uri)
            .header("cookie", cookie)
            .body(Body::empty())
            .unwrap();
        let start = Instant::now();
        let response = router.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{uri}");
        let body = response.into_body().collect().await.unwrap().to_bytes();
        took.push(start.elapsed());
        assert!(!body.is_empty());
    }
    took.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (
        ms(took[requests / 2]),
        ms(took[(requests * 95 / 100).min(requests - 1)]),
    )
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let sizes: Vec<usize> = arg("--sessions", "10,2000")
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    let requests: usize = arg("--requests", "50").parse().unwrap();
    let pages = ["club history", "player page", "leaderboard"];
    let mut medians: Vec<Vec<f64>> = Vec::new();
    for &size in &sizes {
        let pool = scorekeeper::store::open("sqlite::memory:").await.unwrap();
        let (club, token) = scorekeeper::service::clubs::create_club(
            &pool,
            &scorekeeper::service::clubs::LoginLimits::new(),
            scorekeeper::service::clubs::ClientKey::of(None),
            "Bench",
            "seven of clubs",
        )
        .await
        .unwrap();
        let built = Instant::now();
        for n in 0..size {
            scorekeeper::service::import(&pool, &night(n), Some(club.id))
                .await
                .unwrap();
        }
        eprintln!(
            "{size} sessions imported in {:.1} s",
            built.elapsed().as_secs_f64()
        );
        let ann: i64 = sqlx::query_scalar("SELECT id FROM people WHERE display_name = 'Ann'")
            .fetch_one(&pool)
            .await
            .unwrap();
        let router = app(AppState::new(pool));
        let cookie = format!("sk_session={token}");
        let uris = [
            format!("/clubs/{}/history", club.id),
            format!("/clubs/{}/players/{ann}", club.id),
            format!("/clubs/{}/leaderboard", club.id),
        ];
        let mut row = Vec::new();
        for (page, uri) in pages.iter().zip(&uris) {
            time(&router, &cookie, uri, 3).await; // warm up
            let (p50, p95) = time(&router, &cookie, uri, requests).await;
            println!(
                "{size:>5} sessions × 60 hands  {page:<13} p50 {p50:>7.2} ms  p95 {p95:>7.2} ms"
            );
            row.push(p50);
        }
        medians.push(row);
    }
    if let (Some(first), Some(last)) = (medians.first(), medians.last()) {
        for (i, page) in pages.iter().enumerate() {
            let ratio = last[i] / first[i];
            println!(
                "{page:<13} median ratio {} / {} sessions: {ratio:.2}× ({})",
                sizes.last().unwrap(),
                sizes.first().unwrap(),
                if ratio < 2.0 { "under 2×" } else { "OVER 2×" }
            );
        }
    }
}
