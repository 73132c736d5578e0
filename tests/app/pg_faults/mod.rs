//! PostgreSQL's faults under load, met by real `serve` processes: four instances under a
//! connection cap ([`cap`]), and the server restarted under eight writers ([`restart`]).
//! What a client is told is checked on every answer: a success, or a refusal that is a 503
//! with `Retry-After`, never a 500 nor a dropped connection; what is stored is checked
//! after: every acknowledged hand once, every ledger equal to replay.
//!
//! They run on the PostgreSQL pass only (`SCOREKEEPER_TEST_ENGINE=postgres`, `.ci/run`'s
//! PostgreSQL stage), once: each takes seconds of real load. There they need
//! `SCOREKEEPER_TEST_DATABASE_URL` and fail under CI without it, as every PostgreSQL test
//! does (`tests/common/engines.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

mod cap;
mod restart;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::common;
use common::engines::{TEST_DATABASE_URL, on_postgres};
use common::process::{Answer, Sent, exchange, free_port, serve};

/// Whether this run is the PostgreSQL pass with a server to use; a note when skipped. A
/// panic under CI when the pass has no server.
fn runs_here() -> bool {
    if !on_postgres() {
        eprintln!("note: the PostgreSQL fault tests run on the PostgreSQL pass only");
        return false;
    }
    if std::env::var_os(TEST_DATABASE_URL).is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the PostgreSQL fault tests: {TEST_DATABASE_URL} is unset (see .ci/run)"
        );
        eprintln!("note: {TEST_DATABASE_URL} is unset; the PostgreSQL fault test is skipped");
        return false;
    }
    true
}

/// A `serve` process on `url`, killed when dropped.
struct Served {
    port: u16,
    child: std::process::Child,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `scorekeeper serve` on `url` with `options`, once it answers `/healthz`.
async fn served(url: &str, options: &[&str]) -> Served {
    let port = free_port();
    let child = serve(url, port, options).await;
    Served { port, child }
}

/// Every answer the clients of a test got, counted by status, with what broke the rules:
/// a 503 without `Retry-After`, any status but the one asked for or a 503, a connection
/// that gave no answer.
#[derive(Default)]
struct Tally {
    inner: Mutex<Counts>,
}

#[derive(Default)]
struct Counts {
    statuses: BTreeMap<u16, usize>,
    /// The 503s saying the write may or may not be stored (`outcome_unknown`): the ones
    /// whose retry must not double the hand.
    unknown: usize,
    faults: Vec<String>,
}

impl Tally {
    /// Counts `answer` to `what`: whether it is the success `ok`. A 503 is a refusal to
    /// send again; anything else is a fault.
    fn counted(&self, answer: &std::io::Result<Answer>, ok: u16, what: &str) -> bool {
        let mut counts = self.inner.lock().unwrap();
        let answer = match answer {
            Ok(answer) => answer,
            Err(e) => {
                counts.faults.push(format!("{what}: no answer ({e})"));
                return false;
            }
        };
        *counts.statuses.entry(answer.status).or_default() += 1;
        if answer.status == ok {
            return true;
        }
        let refusal = answer.status == 503 && answer.header("Retry-After").is_some();
        if refusal && answer.body.contains("may or may not be recorded") {
            counts.unknown += 1;
        }
        if !refusal {
            // The head says what was missing; the body's first lines, what it was.
            let body: String = answer.body.chars().take(400).collect();
            let fault = format!("{what}: {}\n{}\n{body}", answer.status, answer.head);
            counts.faults.push(fault);
        }
        false
    }

    /// The refusals whose write may or may not have been stored.
    fn unknown(&self) -> usize {
        self.inner.lock().unwrap().unknown
    }

    /// The answers counted with this status.
    fn of(&self, status: u16) -> usize {
        let counts = self.inner.lock().unwrap();
        counts.statuses.get(&status).copied().unwrap_or(0)
    }

    /// Every status counted, for the test's report.
    fn statuses(&self) -> BTreeMap<u16, usize> {
        self.inner.lock().unwrap().statuses.clone()
    }

    /// The rules broken so far (at most the first three, and how many).
    fn faults(&self) -> Vec<String> {
        let counts = self.inner.lock().unwrap();
        let mut shown: Vec<String> = counts.faults.iter().take(3).cloned().collect();
        if counts.faults.len() > 3 {
            shown.push(format!("and {} more", counts.faults.len() - 3));
        }
        shown
    }
}

/// One write as a client sends it, again and again with the same key until acknowledged.
struct Post {
    port: u16,
    path: String,
    token: String,
    key: String,
    content_type: &'static str,
    body: Vec<u8>,
    /// The status that acknowledges it: 201 from the API, 303 from a sheet's form.
    ok: u16,
}

/// Sends `post(k)` for k = 0, 1, … each until acknowledged ([`until_acknowledged`]), until
/// `stop`: how many were acknowledged.
async fn acknowledged_until(
    stop: &AtomicBool,
    tally: &Tally,
    post: impl Fn(usize) -> Post,
) -> usize {
    let mut k = 0;
    while !stop.load(Ordering::Relaxed) {
        until_acknowledged(&post(k), tally).await;
        k += 1;
    }
    k
}

/// Sends `post` until it is acknowledged, 100 ms after each refusal (sooner than
/// `Retry-After` asks, for more load): every answer counted in `tally`. A panic after
/// 20 s without an acknowledgement, or at a fault (the test's report says which).
async fn until_acknowledged(post: &Post, tally: &Tally) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let bearer = format!("Bearer {}", post.token);
    let headers = [
        ("Authorization", bearer.as_str()),
        ("Idempotency-Key", post.key.as_str()),
    ];
    let what = format!("POST {} ({})", post.path, post.key);
    loop {
        let sent = Sent {
            headers: &headers,
            content_type: post.content_type,
            body: &post.body,
        };
        let answer = exchange(post.port, "POST", &post.path, sent).await;
        if tally.counted(&answer, post.ok, &what) {
            return;
        }
        assert!(tally.faults().is_empty(), "{:#?}", tally.faults());
        assert!(
            Instant::now() < deadline,
            "{what}: not acknowledged in 20 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
