//! The real `scorekeeper` binary as a process: run to its end (`run`, `succeeds`,
//! `fails_saying`), or serving on a loopback port (`serve`) and spoken to over plain
//! HTTP/1.1 (`request`), with the club, sessions and hand writers the process tests share
//! (`ops_lifecycle`, `ops_postgres`, `instances`, `pg_faults`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;

use crate::common::engines;

/// The path of the binary under test, built by cargo for this test binary.
pub const BINARY: &str = env!("CARGO_BIN_EXE_scorekeeper");
/// The three players of every session the process tests make.
pub const PLAYERS: [&str; 3] = ["A", "B", "C"];

/// A folder of its own under the system's temporary folder, emptied first.
pub fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scorekeeper-ops-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A loopback port free at the time of asking (the OS picks it; it is given back at once).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The URL of the live database of a test in folder `dir`: the file `live.db` there, or on
/// PostgreSQL a fresh database on the test server.
pub async fn live_database(dir: &Path) -> String {
    match engines::on_postgres() {
        true => engines::test_database_url().await,
        false => format!("sqlite://{}", dir.join("live.db").display()),
    }
}

/// `scorekeeper ARGS` run to its end: whether it succeeded, and what it said on standard
/// error.
pub fn run(args: &[&str]) -> (bool, String) {
    let out = Command::new(BINARY).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `scorekeeper ARGS`, which must succeed (what it said shown if not).
pub fn succeeds(args: &[&str]) {
    let (ok, err) = run(args);
    assert!(ok, "{args:?}: {err}");
}

/// `scorekeeper ARGS`, which must fail and say `words` on standard error; what it said.
pub fn fails_saying(args: &[&str], words: &str) -> String {
    let (ok, err) = run(args);
    assert!(!ok, "{args:?} should fail: {err}");
    assert!(err.contains(words), "{args:?}: {err}");
    err
}

/// One HTTP/1.1 request on its own connection to `127.0.0.1:port`, with a bearer `token`
/// and a JSON `body` when given: the status and the body, or the I/O error (the service is
/// gone, or never came).
pub async fn request(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> std::io::Result<(u16, String)> {
    let auth = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
    let body = body.map(Value::to_string).unwrap_or_default();
    let sent = Sent {
        headers: &headers,
        content_type: "application/json",
        body: body.as_bytes(),
    };
    let answer = exchange(port, method, path, sent).await?;
    Ok((answer.status, answer.body))
}

/// What [`exchange`] sends besides the method and path: header lines and a body.
pub struct Sent<'a> {
    /// Header lines as `(name, value)`.
    pub headers: &'a [(&'a str, &'a str)],
    /// The body's `Content-Type`.
    pub content_type: &'a str,
    /// The body, sent with its length.
    pub body: &'a [u8],
}

/// An answer read whole: its status, its head (status line and headers as sent) and body.
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The status line and header lines.
    pub head: String,
    /// The body, as text.
    pub body: String,
}

impl Answer {
    /// The value of header `name` (any case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// One HTTP/1.1 request on its own connection to `127.0.0.1:port` with what `sent` says:
/// the whole answer, or the I/O error (the service is gone, or never came).
pub async fn exchange(
    port: u16,
    method: &str,
    path: &str,
    sent: Sent<'_>,
) -> std::io::Result<Answer> {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
    let lines: String = sent
        .headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n{lines}Content-Type: {}\r\nContent-Length: {}\r\n\r\n",
        sent.content_type,
        sent.body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(sent.body).await?;
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).await?;
    let reply = String::from_utf8_lossy(&reply).into_owned();
    let status = reply
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status line: {reply:?}")))?;
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
    Ok(Answer {
        status,
        head: head.to_string(),
        body: body.to_string(),
    })
}

/// `scorekeeper serve` on `port` over the database at `url` with further `options`, once
/// `/healthz` answers 200 with status "ok" (at most 30 s). The caller ends it: a SIGTERM
/// and [`exit_status`], or a kill.
pub async fn serve(url: &str, port: u16, options: &[&str]) -> Child {
    started(Command::new(BINARY), url, port, options).await
}

/// [`serve`] under an open-file limit (`ulimit -n`, soft and hard) of `open_files`, so the
/// service can raise its soft limit no higher.
pub async fn serve_with_open_files(
    url: &str,
    port: u16,
    options: &[&str],
    open_files: u32,
) -> Child {
    let mut shell = Command::new("sh");
    let script = format!("ulimit -n {open_files} && exec \"$0\" \"$@\"");
    shell.args(["-c", &script, BINARY]);
    started(shell, url, port, options).await
}

/// `command` (the binary, or what execs it) with `serve` on `port` over `url` and
/// `options`, once `/healthz` answers 200 with status "ok" (at most 30 s).
#[allow(clippy::zombie_processes)]
async fn started(mut command: Command, url: &str, port: u16, options: &[&str]) -> Child {
    let mut child = command
        .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
        .args(["--database-url", url])
        .args(options)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the binary starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let health = tokio::time::timeout(
            Duration::from_secs(1),
            request(port, "GET", "/healthz", None, None),
        );
        if let Ok(Ok((200, body))) = health.await {
            let status = serde_json::from_str::<Value>(&body).unwrap()["status"].clone();
            assert_eq!(status, "ok", "{body}");
            return child;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the service on port {port} did not come up");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Sends SIGTERM to the process (the service's clean stop).
pub fn sigterm(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits (at most 30 s) for the process to end and returns whether it exited 0.
pub async fn exit_status(mut child: Child) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the service did not stop within 30 s of SIGTERM");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The JSON body of an answer that must be 201 (Created).
fn created(answer: std::io::Result<(u16, String)>) -> Value {
    let (status, body) = answer.unwrap();
    assert_eq!(status, 201, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// A new club made through `port`, named `name`: its write token.
pub async fn new_club(port: u16, name: &str) -> String {
    let club = json!({"name": name, "passphrase": "four words at the table"});
    let made = created(request(port, "POST", "/api/v1/clubs", None, Some(&club)).await);
    made["token"].as_str().unwrap().to_string()
}

/// A new three-handed Auction Pinochle session (a nickel a point) of the club whose write
/// token is `token`, made through `port`: its id.
pub async fn new_session(port: u16, token: &str) -> i64 {
    let body =
        json!({"game": "auction_pinochle", "players": PLAYERS, "agreements": {"stake": "0.05"}});
    let path = "/api/v1/sessions";
    let made = created(request(port, "POST", path, Some(token), Some(&body)).await);
    made["id"].as_i64().unwrap()
}

/// A club (so the writers hold a write token) and `count` sessions of it: the token and
/// the sessions' ids.
pub async fn club_sessions(port: u16, count: usize) -> (String, Vec<i64>) {
    let token = new_club(port, "Night shift").await;
    let mut ids = Vec::new();
    for _ in 0..count {
        ids.push(new_session(port, &token).await);
    }
    (token, ids)
}

/// The `n`th hand (from 0) of a session: the deal goes round, the player after the dealer
/// bids 300 in clubs and makes it.
pub fn hand(n: usize) -> Value {
    json!({"type": "hand", "dealer": PLAYERS[n % 3], "bidder": PLAYERS[(n + 1) % 3],
           "bid": 300, "trump": "clubs", "outcome": "made"})
}

/// Enters hands into session `id` one after another until a request fails or `stop` is
/// set; returns how many were acknowledged with 201 and whether the last request's fate is
/// unknown (sent, but no answer).
pub async fn writer(port: u16, token: String, id: i64, stop: Arc<AtomicBool>) -> (usize, bool) {
    let path = format!("/api/v1/sessions/{id}/events");
    let mut acknowledged = 0;
    while !stop.load(Ordering::Relaxed) {
        match request(port, "POST", &path, Some(&token), Some(&hand(acknowledged))).await {
            Ok((201, _)) => acknowledged += 1,
            // Refused at the door once the service stops accepting: nothing was recorded.
            Ok((status, body)) => panic!("hand {acknowledged} of session {id}: {status} {body}"),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                return (acknowledged, false);
            }
            Err(_) => return (acknowledged, true),
        }
    }
    (acknowledged, false)
}

/// One [`writer`] a session, running until stopped.
pub struct Writers {
    /// The sessions written to, in the order of `tasks`.
    pub ids: Vec<i64>,
    stop: Arc<AtomicBool>,
    tasks: Vec<JoinHandle<(usize, bool)>>,
}

impl Writers {
    /// A writer for each of `ids` through `port` with the write `token`.
    pub fn start(port: u16, token: &str, ids: Vec<i64>) -> Writers {
        let stop = Arc::new(AtomicBool::new(false));
        let tasks = ids
            .iter()
            .map(|&id| tokio::spawn(writer(port, token.to_string(), id, stop.clone())))
            .collect();
        Writers { ids, stop, tasks }
    }

    /// Each session's id with its writer's outcome (hands acknowledged, whether the last
    /// one's fate is unknown), once every writer has stopped: told to by `stop` when set,
    /// else because the service went away under it.
    pub async fn finish(self, stop: bool) -> Vec<(i64, (usize, bool))> {
        if stop {
            self.stop.store(true, Ordering::Relaxed);
        }
        let mut outcomes = Vec::new();
        for (id, task) in self.ids.into_iter().zip(self.tasks) {
            outcomes.push((id, task.await.unwrap()));
        }
        outcomes
    }

    /// Stops every writer: the hands acknowledged in all.
    pub async fn stop(self) -> usize {
        let outcomes = self.finish(true).await;
        outcomes
            .iter()
            .map(|(_, (acknowledged, _))| acknowledged)
            .sum()
    }
}
