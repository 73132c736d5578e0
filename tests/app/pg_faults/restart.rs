//! PostgreSQL restarted (`pg_ctl restart -m fast`: every session cut) under eight writers
//! posting hands with the phone's form and its `Idempotency-Key`, each sending a refused
//! hand again with the same key until it is acknowledged: every answer a redirect (303) or
//! a 503 with `Retry-After`, never a 500; every acknowledged hand stored exactly once. The
//! server is a cluster of the test's own (`.ci/postgres`), so it can be restarted.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Post, Tally, acknowledged_until, runs_here, served};
use crate::common;
use crate::instances::ledgers_equal_replay;
use common::process::{PLAYERS, new_club, new_session};

/// Restarts of the server in one run of the test.
const RUNS: usize = 10;
/// Writers, each on its own session.
const WRITERS: usize = 8;
/// How long the writers write between two restarts, and before the first.
const BETWEEN: Duration = Duration::from_millis(300);

/// A throw-away cluster of the test's own, made by `.ci/postgres` (which runs the server as
/// the `postgres` user when the tests run as root); stopped and removed when dropped.
struct Cluster {
    dir: PathBuf,
    url: String,
}

/// `.ci/postgres` with `args`: what it printed; a panic naming what it said if it failed.
fn script(args: &[&str]) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/postgres");
    let out = std::process::Command::new(path)
        .args(args)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), ".ci/postgres {args:?}: {said}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

impl Cluster {
    /// A new cluster on a free port, in a folder named after `name` and this process.
    fn start(name: &str) -> Cluster {
        let dir = std::env::temp_dir().join(format!("sk-{name}-{}", std::process::id()));
        script(&["stop", dir.to_str().unwrap()]);
        let port = common::process::free_port().to_string();
        let url = script(&["start", dir.to_str().unwrap(), &port]);
        let url = url.lines().last().unwrap().to_string();
        Cluster { dir, url }
    }

    /// Restarts the server, fast (every session cut): how long it took.
    async fn restart(&self) -> Duration {
        let dir = self.dir.to_str().unwrap().to_string();
        let began = Instant::now();
        tokio::task::spawn_blocking(move || script(&["restart", &dir]))
            .await
            .unwrap();
        began.elapsed()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = std::process::Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/postgres"))
            .args(["stop", self.dir.to_str().unwrap()])
            .output();
    }
}

/// Hand `k` of a session as the sheet's form posts it from a phone that has seen `k`
/// events: the deal goes round, the player after the dealer bids 300 in clubs and makes it.
fn form_hand(k: usize) -> Vec<u8> {
    let (dealer, bidder) = (PLAYERS[k % 3], PLAYERS[(k + 1) % 3]);
    format!("expected_events={k}&dealer={dealer}&bidder={bidder}&bid=300&trump=clubs&outcome=made")
        .into_bytes()
}

/// Phone `n`'s hands into session `id` through `port` until `stop`, each with a key of its
/// own sent again until acknowledged: the hands acknowledged.
async fn phone(
    port: u16,
    token: String,
    (n, id): (usize, i64),
    stop: Arc<AtomicBool>,
    tally: Arc<Tally>,
) -> usize {
    acknowledged_until(&stop, &tally, |k| Post {
        port,
        path: format!("/sessions/{id}/hands"),
        token: token.clone(),
        key: format!("phone-{n}-hand-{k}"),
        content_type: "application/x-www-form-urlencoded",
        body: form_hand(k),
        ok: 303,
    })
    .await
}

/// The stored hands and idempotency keys of session `id`.
async fn stored(pg: &sqlx::PgPool, id: i64) -> (i64, i64) {
    let count = |sql: &'static str| async move {
        let n: i64 = sqlx::query_scalar(sql)
            .bind(id)
            .fetch_one(pg)
            .await
            .unwrap();
        n
    };
    (
        count("SELECT COUNT(*) FROM events WHERE session_id = $1 AND seq > 0").await,
        count("SELECT COUNT(*) FROM idempotency_keys WHERE session_id = $1").await,
    )
}

/// PostgreSQL restarted [`RUNS`] times under eight phones writing through two instances:
/// no 500, every refusal a 503 with `Retry-After`, no hand doubled, none acknowledged lost,
/// every ledger replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_restarted_under_eight_phones_refuses_with_503_and_doubles_or_loses_no_hand() {
    if !runs_here() {
        return;
    }
    let began = Instant::now();
    let cluster = tokio::task::spawn_blocking(|| Cluster::start("pg-faults-restart"))
        .await
        .unwrap();
    let options = ["--instances", "2"];
    let instances = [
        served(&cluster.url, &options).await,
        served(&cluster.url, &options).await,
    ];
    let token = new_club(instances[0].port, "Restarted club").await;
    let (stop, tally) = (Arc::new(AtomicBool::new(false)), Arc::new(Tally::default()));
    let mut phones = Vec::new();
    for n in 0..WRITERS {
        let port = instances[n % 2].port;
        let id = new_session(port, &token).await;
        let job = phone(port, token.clone(), (n, id), stop.clone(), tally.clone());
        phones.push((id, tokio::spawn(job)));
    }
    let mut restarts = Vec::new();
    for _ in 0..RUNS {
        tokio::time::sleep(BETWEEN).await;
        restarts.push(cluster.restart().await);
    }
    tokio::time::sleep(BETWEEN).await;
    stop.store(true, Ordering::Relaxed);
    let mut acknowledged = Vec::new();
    for (id, job) in phones {
        acknowledged.push((id, job.await.unwrap()));
    }
    eprintln!(
        "{RUNS} restarts in {restarts:?}: hands {:?}, answers {:?} ({} outcome unknown), {:?} in all",
        acknowledged.iter().map(|(_, k)| k).collect::<Vec<_>>(),
        tally.statuses(),
        tally.unknown(),
        began.elapsed()
    );
    assert!(tally.faults().is_empty(), "{:#?}", tally.faults());
    assert_eq!(tally.of(500), 0);
    let pg = sqlx::PgPool::connect(&cluster.url).await.unwrap();
    for &(id, hands) in &acknowledged {
        let hands = hands as i64;
        assert_eq!(
            stored(&pg, id).await,
            (hands, hands),
            "session {id}: every hand once"
        );
    }
    let sessions = ledgers_equal_replay(&pg).await;
    assert_eq!(sessions, WRITERS, "every ledger equals replay");
    drop(instances);
    pg.close().await;
}
