//! The service's performance targets, measured in one run on the path every club takes
//! (docs/benchmark.md):
//!
//! 1. per registered game, club sessions (read and written with the club's token) of a
//!    long real session (`tests/common/hands.rs`: dealers in turn, contracts made and set,
//!    kitties collected, a game ending every dozen hands or so, a correction every 500
//!    hands) at several lengths and numbers of clients: the record-hand + standing cycle
//!    (`POST …/events`, `GET …/standing`) and the record-hand + sheet cycle (`POST
//!    …/events`, `GET /sessions/{id}`, the page a phone reloads), cycles/s and p50;
//! 2. per game, the record rate alone (`POST …/events` only) at the most clients and the
//!    longest history, each round between two runs of the raw SQLite rate of single-row
//!    commits (WAL, `synchronous=FULL`) in the same folder: the median round's ratio;
//! 3. per game, the server's peak memory (`VmHWM`) with 32 cached club sessions of the
//!    longest history, each sheet viewed once and a hand recorded in each;
//! 4. `GET …/ledger` of a club Auction Pitch session of the longest history on a fresh
//!    server: time (best of 3) and the server's peak memory;
//! 5. `scorekeeper replay` of an Auction Pitch document of the longest history with one
//!    undo: time and peak memory;
//! 6. write p50 beside a reloading 2,000-hand chart, a hand's cost beside 1,000 live
//!    sheets, and the server's RSS 10 s after 64 logins sent at once from 64 loopback
//!    addresses (each checked by argon2id).
//!
//! Each server is the built `scorekeeper` binary, run as a child process over a database in
//! Cargo's temporary folder for benchmarks (`target/tmp`, the project's disk); its sessions
//! are imported into one club before it starts, and read once before the clock starts
//! (that first read folds each into the server's cache).
//!
//! `cargo bench --bench http_cycle [-- --hands 100,1000,10000 --clients 1,8 --cycles 40
//! --sheet-cycles 20 --rounds 3 --games auction_pitch,poker]`
//!
//! The machine may be shared (other builds): each cycle rate is the best of `--rounds`
//! rounds. `--rates-only` measures only the record rates (2.), `--memory-only` only the
//! 32 cached sessions of each game (3.) and the RSS after 64 logins: what a change to the
//! write path, the cache or the allocator is tried against.
//!
//! `--latencies-only` measures only each amendment's own latency at the longest history
//! (`amend.rs`): the sheet's Undo, a correction of the hand 10 back and one of hand 1.
//!
//! `--one-session-only` measures only the plan's most clients recording into one session at
//! once against raw SQLite commits (`amend.rs`).
//!
//! `--downloads-only` measures only the long reads of one session of the longest history
//! (`downloads.rs`): each download's time and the server's peak RSS growth, one at a time
//! and two at once.
//!
//! 7. Given a PostgreSQL server (`--postgres URL` or `HTTP_CYCLE_PG_URL`), the
//!    record rate alone and the record + standing cycle on SQLite beside PostgreSQL with 1
//!    and 2 instances (`engines.rs`), with the CPU time per recorded hand of the
//!    PostgreSQL server and of the service (`cpu.rs`); `--engines-only` measures only those
//!    rows. Without a server one line says they were not measured.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark stops at the first failure

/// `commits` single-row commits (one `INSERT` of a hand's text per transaction) on the
/// connection `conn` with the statement `insert`: commits/s, `conn` closed. A macro, as the
/// connection is either engine's (the raw SQLite rate here, PostgreSQL's in `engines.rs`).
macro_rules! commit_rate {
    ($conn:expr, $insert:expr, $commits:expr) => {{
        let mut conn = $conn;
        let body = crate::hands::hand("auction_pinochle", &crate::hands::FOUR, 0).to_string();
        let started = std::time::Instant::now();
        for _ in 0..$commits {
            sqlx::query($insert)
                .bind(&body)
                .execute(&mut conn)
                .await
                .unwrap();
        }
        let rate = $commits as f64 / started.elapsed().as_secs_f64();
        conn.close().await.unwrap();
        rate
    }};
}

#[path = "http_cycle/amend.rs"]
mod amend;
#[path = "http_cycle/cpu.rs"]
mod cpu;
#[path = "http_cycle/downloads.rs"]
mod downloads;
#[path = "http_cycle/engines.rs"]
mod engines;
#[path = "../tests/common/hands.rs"]
mod hands;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

use scorekeeper::format::SessionDoc;
use scorekeeper::service::clubs::{ClientKey, LoginLimits, create_club};
use serde_json::{Value, json};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// The server the bench starts: the release build beside it, or `HTTP_CYCLE_SERVER` (another
/// build, to compare two).
fn server_binary() -> PathBuf {
    std::env::var_os("HTTP_CYCLE_SERVER").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_scorekeeper")),
        PathBuf::from,
    )
}

/// Requests answered 503 (the server too busy to answer in time), printed with each row.
static BUSY: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// One kept-alive HTTP/1.1 connection with the club's token, reading answers by their
/// Content-Length.
struct Client {
    stream: BufReader<TcpStream>,
    token: String,
}

impl Client {
    async fn connect(addr: &str, token: &str) -> Client {
        let stream = TcpStream::connect(addr).await.unwrap();
        stream.set_nodelay(true).unwrap();
        Client {
            stream: BufReader::new(stream),
            token: token.to_string(),
        }
    }

    /// Sends one request; returns the status and the body's length.
    async fn request(&mut self, method: &str, path: &str, body: Option<&str>) -> (u16, usize) {
        self.request_keyed(method, path, body, None).await
    }

    /// [`Client::request`] with an `Idempotency-Key`, as a phone's writes carry one.
    async fn request_keyed(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&str>,
        key: Option<&str>,
    ) -> (u16, usize) {
        let body = body.unwrap_or("");
        let mut extra = match self.token.is_empty() {
            true => String::new(),
            false => format!("Authorization: Bearer {}\r\n", self.token),
        };
        if let Some(key) = key {
            extra.push_str(&format!("Idempotency-Key: {key}\r\n"));
        }
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: bench\r\n{extra}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
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

/// What a measured cycle reads after recording its hand.
#[derive(Clone, Copy, PartialEq)]
enum Read {
    Nothing,
    Standing,
    Sheet,
}

/// The game a run plays: its id, players and agreements.
#[derive(Clone)]
struct Game {
    id: &'static str,
    players: &'static [&'static str],
    agreements: Value,
}

impl Game {
    fn all() -> Vec<Game> {
        hands::games()
            .into_iter()
            .map(|(id, players, agreements)| Game {
                id,
                players,
                agreements,
            })
            .collect()
    }

    fn hand(&self, i: usize) -> Value {
        hands::hand(self.id, self.players, i)
    }

    /// A session of `hands` hands, with a correction of the hand before every 500th.
    fn session(&self, hands: usize) -> SessionDoc {
        let mut doc = hands::session(self.id, self.players, &self.agreements, 0);
        let mut events = Vec::with_capacity(hands + hands / 500);
        for i in 0..hands {
            events.push(self.hand(i));
            if i % 500 == 499 {
                let target = events.len() - 2;
                let replacement = events[target].clone();
                events.push(json!({"type": "correction", "event": target,
                    "replacement": replacement, "reason": "read again"}));
            }
        }
        doc["events"] = Value::Array(events);
        serde_json::from_value(doc).unwrap()
    }
}

/// Runs `cycles` measured cycles on session `id`, whose next hand is `next`: each a
/// recorded hand, then what `read` says.
async fn client(
    addr: String,
    token: String,
    game: Game,
    (id, next): (i64, usize),
    cycles: usize,
    read: Read,
) -> Vec<Duration> {
    let mut c = Client::connect(&addr, &token).await;
    let events = format!("/api/v1/sessions/{id}/events");
    let page = match read {
        Read::Standing => format!("/api/v1/sessions/{id}/standing"),
        _ => format!("/sessions/{id}"),
    };
    let mut times = Vec::with_capacity(cycles);
    for k in 0..cycles {
        let started = Instant::now();
        let body = game.hand(next + k).to_string();
        let (status, _) = c.request("POST", &events, Some(&body)).await;
        if status == 503 {
            // Busy past the write wait: counted like a busy read, and the same hand is
            // sent again (it was not recorded), so the session's hands stay in turn.
            BUSY.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let (status, _) = c.request("POST", &events, Some(&body)).await;
            assert_eq!(
                status,
                201,
                "{}: recording hand {} again",
                game.id,
                next + k
            );
        } else {
            assert_eq!(status, 201, "{}: recording hand {}", game.id, next + k);
        }
        if read != Read::Nothing {
            let (status, _) = c.request("GET", &page, None).await;
            // A busy server (503) is counted and reported, not a reason to stop measuring.
            if status == 503 {
                BUSY.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            } else {
                assert_eq!(status, 200, "{}: reading {page}", game.id);
            }
        }
        times.push(started.elapsed());
    }
    times
}

/// `cycles` cycles on every session of `run` at once; returns (cycles/s, sorted times).
async fn load(run: &mut Run, cycles: usize, read: Read) -> (f64, Vec<Duration>) {
    let started = Instant::now();
    let tasks: Vec<_> = run
        .ids
        .iter()
        .enumerate()
        .map(|(k, &id)| {
            let (addr, token) = (run.addr(k).to_string(), run.token.clone());
            tokio::spawn(client(
                addr,
                token,
                run.game.clone(),
                (id, run.next),
                cycles,
                read,
            ))
        })
        .collect();
    let mut times = Vec::new();
    for t in tasks {
        times.extend(t.await.unwrap());
    }
    run.next += cycles;
    let wall = started.elapsed().as_secs_f64();
    times.sort();
    (times.len() as f64 / wall, times)
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

/// The peak resident memory of process `pid` in MiB (`VmHWM` in `/proc/PID/status`).
fn peak_rss_mib(pid: u32) -> Option<f64> {
    status_mib(pid, "VmHWM:")
}

/// A memory figure of process `pid` in MiB (`field` of `/proc/PID/status`, e.g. `VmRSS:`).
fn status_mib(pid: u32, field: &str) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// The raw rate of single-row commits (one `INSERT` per transaction, one connection) in
/// WAL mode with `synchronous=FULL`, on a database in `dir`: what one durable commit costs
/// on this disk.
async fn raw_commit_rate(dir: &Path, commits: usize) -> f64 {
    let options = SqliteConnectOptions::from_str(&format!("sqlite://{}/raw.db", dir.display()))
        .unwrap()
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full);
    let mut conn = options.connect().await.unwrap();
    sqlx::query("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        .execute(&mut conn)
        .await
        .unwrap();
    commit_rate!(conn, "INSERT INTO t (body) VALUES (?)", commits)
}

/// A running `scorekeeper serve` over the database at `url`, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    async fn start(url: &str) -> Server {
        Server::start_with(url, &[]).await
    }

    /// [`Server::start`] with `env` set for the server (its options by environment).
    async fn start_with(url: &str, env: &[(&str, &str)]) -> Server {
        // A free port: bound, read, let go, then taken by the server.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(server_binary())
            .args(["serve", "--bind", &addr, "--database-url", url])
            .env("RUST_LOG", "error")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(&addr).await.is_err() {
            assert!(Instant::now() < deadline, "the server did not start");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Server { child, addr }
    }

    fn peak_rss_mib(&self) -> f64 {
        peak_rss_mib(self.child.id()).unwrap_or(f64::NAN)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A club with `sessions` sessions of `game` of `hands` hands each in a new database in
/// `dir` (named by `tag`): the database's URL, the club's write token and the sessions.
async fn club_database(
    dir: &Path,
    tag: &str,
    game: &Game,
    hands: usize,
    sessions: usize,
) -> (String, String, Vec<i64>) {
    let file = dir.join(format!("bench-{tag}.db"));
    // A run may ask for the same club twice (one history length both shortest and
    // longest): each gets a new database.
    for old in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{old}", file.display()));
    }
    let url = format!("sqlite://{}", file.display());
    let pool = scorekeeper::store::open(&url).await.unwrap();
    let (club, token) = create_club(
        &pool,
        &LoginLimits::new(),
        ClientKey::of(None),
        &format!("Bench {tag}"),
        "a long enough passphrase",
    )
    .await
    .unwrap();
    let doc = game.session(hands);
    let mut ids = Vec::new();
    for _ in 0..sessions {
        ids.push(
            scorekeeper::service::import(&pool, &doc, Some(club.id))
                .await
                .unwrap()
                .0,
        );
    }
    pool.close().await;
    (url, token, ids)
}

/// One game at one history length and number of clients: its server, sessions, and what
/// was measured.
struct Run {
    game: Game,
    hands: usize,
    server: Server,
    /// The other instances serving the same database (the engines' rows; none elsewhere).
    twins: Vec<Server>,
    token: String,
    ids: Vec<i64>,
    /// The index of the next hand to record.
    next: usize,
    standing: (f64, Vec<Duration>),
    sheet: (f64, Vec<Duration>),
}

impl Run {
    async fn start(dir: &Path, what: &str, game: &Game, hands: usize, clients: usize) -> Run {
        let tag = format!("{what}-{}-{hands}-{clients}", game.id);
        let club = club_database(dir, &tag, game, hands, clients).await;
        Run::serve(game, hands, club, 1).await
    }

    /// A run over the club database `club` (its URL, token and sessions, of `hands` hands
    /// of `game`) served by `instances` processes (`--instances`), the sessions dealt to
    /// them in turn ([`Run::addr`]).
    async fn serve(
        game: &Game,
        hands: usize,
        (url, token, ids): (String, String, Vec<i64>),
        instances: usize,
    ) -> Run {
        let mut servers = Vec::new();
        for _ in 0..instances.max(1) {
            let n = instances.to_string();
            servers.push(Server::start_with(&url, &[("INSTANCES", n.as_str())]).await);
        }
        let run = Run {
            game: game.clone(),
            hands,
            server: servers.remove(0),
            twins: servers,
            token,
            ids,
            next: hands,
            standing: (0.0, Vec::new()),
            sheet: (0.0, Vec::new()),
        };
        // The first read of each session folds it into the cache of the instance its
        // client writes through: paid once, before the clock starts.
        for (k, id) in run.ids.iter().enumerate() {
            let mut warm = Client::connect(run.addr(k), &run.token).await;
            let (status, _) = warm
                .request("GET", &format!("/api/v1/sessions/{id}/standing"), None)
                .await;
            assert_eq!(status, 200);
        }
        run
    }

    /// The address of the instance the client of the `k`-th session speaks to: the
    /// instances in turn, so two split the clients evenly.
    fn addr(&self, k: usize) -> &str {
        match k % (1 + self.twins.len()) {
            0 => &self.server.addr,
            i => &self.twins[i - 1].addr,
        }
    }
}

/// Runs `scorekeeper replay FILE` (the ledger to /dev/null); returns its wall time and
/// peak memory in MiB, sampled from `/proc` every millisecond while it runs.
fn replay(file: &Path) -> (Duration, f64) {
    let started = Instant::now();
    let mut child = Command::new(server_binary())
        .arg("replay")
        .arg(file)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut peak: f64 = 0.0;
    let status = loop {
        if let Some(rss) = peak_rss_mib(child.id()) {
            peak = peak.max(rss);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let elapsed = started.elapsed();
    assert!(status.success(), "replay failed: {status}");
    (elapsed, peak)
}

fn verdict(pass: bool) -> &'static str {
    if pass { "PASS" } else { "FAIL" }
}

/// What the command line asks for.
struct Plan {
    history: Vec<usize>,
    clients: Vec<usize>,
    cycles: usize,
    sheet_cycles: usize,
    rounds: usize,
    games: Vec<Game>,
    dir: PathBuf,
}

impl Plan {
    fn read() -> Plan {
        let args: Vec<String> = std::env::args().collect();
        let wanted = args
            .iter()
            .position(|a| a == "--games")
            .and_then(|i| args.get(i + 1))
            .map(|v| v.split(',').map(str::to_string).collect::<Vec<_>>());
        // `HTTP_CYCLE_DIR` puts the databases elsewhere (a tmpfs, to compare two builds'
        // CPU with the disk's `fsync` taken out).
        let dir = std::env::var_os("HTTP_CYCLE_DIR")
            .map_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")), PathBuf::from)
            .join(format!("http-cycle-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Plan {
            history: list(&args, "--hands", &[100, 1_000, 10_000]),
            clients: list(&args, "--clients", &[1, 8]),
            cycles: list(&args, "--cycles", &[40])[0],
            // 20 sheet cycles a client: at 8 clients fewer page loads measured about 20 ms in
            // all, and the 10,000 / 100 hands ratio moved by ±0.15 from run to run.
            sheet_cycles: list(&args, "--sheet-cycles", &[20])[0],
            rounds: list(&args, "--rounds", &[3])[0],
            games: Game::all()
                .into_iter()
                .filter(|g| wanted.as_ref().is_none_or(|w| w.iter().any(|x| x == g.id)))
                .collect(),
            dir,
        }
    }

    fn longest(&self) -> usize {
        self.history.iter().copied().max().unwrap_or(0)
    }

    fn shortest(&self) -> usize {
        self.history.iter().copied().min().unwrap_or(0)
    }

    fn most_clients(&self) -> usize {
        self.clients.iter().copied().max().unwrap_or(1)
    }
}

/// (game, hands, clients, record+standing cycles/s, record+sheet cycles/s)
type Row = (&'static str, usize, usize, f64, f64);

/// The cycles of one game at every length and number of clients: the servers of one
/// number of clients run side by side, measured in turns round after round, so that a
/// disturbance of the shared machine slows every length alike. Prints a row each.
async fn cycles(plan: &Plan, game: &Game, rows: &mut Vec<Row>) {
    for &n in &plan.clients {
        let mut runs = Vec::new();
        for &hands in &plan.history {
            runs.push(Run::start(&plan.dir, "cycles", game, hands, n).await);
        }
        for _ in 0..plan.rounds {
            for run in &mut runs {
                let (r, t) = load(run, plan.cycles, Read::Standing).await;
                run.standing.0 = run.standing.0.max(r);
                run.standing.1.extend(t);
                let (r, t) = load(run, plan.sheet_cycles, Read::Sheet).await;
                run.sheet.0 = run.sheet.0.max(r);
                run.sheet.1.extend(t);
            }
        }
        let busy = BUSY.swap(0, std::sync::atomic::Ordering::Relaxed);
        if busy > 0 {
            println!(
                "{:>28} {n:>7} clients: {busy} requests answered 503 busy (reads left out of the times, records sent again)",
                game.id
            );
        }
        for mut run in runs {
            run.standing.1.sort();
            run.sheet.1.sort();
            println!(
                "{:>28} {:>7} {n:>7} {:>12.1} {:>9.2} {:>12.1} {:>9.2} {:>10.1}",
                game.id,
                run.hands,
                run.standing.0,
                percentile(&run.standing.1, 0.5),
                run.sheet.0,
                percentile(&run.sheet.1, 0.5),
                run.server.peak_rss_mib(),
            );
            rows.push((game.id, run.hands, n, run.standing.0, run.sheet.0));
        }
    }
}

/// The record rate alone of one game at the longest history and the most clients, each
/// round between two runs of the raw commit rate: (records/s, raw/s) of the median round.
async fn record_rate(plan: &Plan, game: &Game) -> (f64, f64) {
    let mut run = Run::start(&plan.dir, "rate", game, plan.longest(), plan.most_clients()).await;
    let mut measured = Vec::new();
    for _ in 0..plan.rounds.max(3) {
        let before = raw_commit_rate(&plan.dir, 500).await;
        let (r, _) = load(&mut run, 100, Read::Nothing).await;
        let after = raw_commit_rate(&plan.dir, 500).await;
        let raw = (before + after) / 2.0;
        measured.push((r / raw, r, raw));
    }
    measured.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (_, records, raw) = measured[measured.len() / 2];
    (records, raw)
}

/// The server's peak memory with 32 club sessions of `hands` hands of `game` cached, each
/// sheet viewed once and one hand recorded in each; then again after an Undo and two
/// corrections (one of hand 1) on one of them and the streamed downloads of another
/// ([`amend::amend_and_download`]): (MiB, MiB).
async fn memory_of_many(plan: &Plan, game: &Game, hands: usize) -> (f64, f64) {
    let mut run = Run::start(&plan.dir, "many", game, hands, 32).await;
    let mut c = Client::connect(&run.server.addr, &run.token).await;
    for id in run.ids.clone() {
        let (status, _) = c.request("GET", &format!("/sessions/{id}"), None).await;
        assert_eq!(status, 200);
    }
    load(&mut run, 1, Read::Standing).await;
    let viewed = run.server.peak_rss_mib();
    amend::amend_and_download(&run, hands).await;
    (viewed, run.server.peak_rss_mib())
}

/// [`memory_of_many`] for every game of the plan at its longest history: (game, MiB, MiB).
async fn memory_of_every_game(plan: &Plan) -> Vec<(&'static str, f64, f64)> {
    let mut peaks = Vec::new();
    for game in &plan.games {
        let (viewed, amended) = memory_of_many(plan, game, plan.longest()).await;
        peaks.push((game.id, viewed, amended));
    }
    peaks
}

/// The words of one game's [`memory_of_many`] row.
fn many_line((viewed, amended): (f64, f64)) -> String {
    format!(
        "32 cached club sessions of the longest history, each sheet viewed: {viewed:.1} MiB; \
         then through an Undo, corrections of the hand 10 back and of hand 1, and the streamed downloads: {amended:.1} MiB"
    )
}

/// The server's resident memory 10 s after 64 logins sent at once, each from its own
/// loopback address (127.0.0.2 on) so that the per-address limit lets every one be
/// checked (the club's budget raised for the run): the argon2id hashing they cost must be
/// given back. Returns (RSS after the idle, peak) in MiB and how many were let in.
async fn memory_after_logins(plan: &Plan, game: &Game) -> (f64, f64, usize) {
    let (url, _, _) = club_database(&plan.dir, "logins", game, 10, 1).await;
    let server = Server::start_with(&url, &[("LOGIN_BUDGET", "1000")]).await;
    let port: u16 = server.addr.rsplit(':').next().unwrap().parse().unwrap();
    let body =
        json!({"name": "Bench logins", "passphrase": "a long enough passphrase"}).to_string();
    let logins = (0..64u8).map(|i| {
        let body = body.clone();
        tokio::spawn(async move {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket
                .bind(std::net::SocketAddr::from(([127, 0, 0, 2 + i], 0)))
                .unwrap();
            let stream = socket
                .connect(std::net::SocketAddr::from(([127, 0, 0, 1], port)))
                .await
                .unwrap();
            let mut c = Client {
                stream: BufReader::new(stream),
                token: String::new(),
            };
            c.request("POST", "/api/v1/tokens", Some(&body)).await.0
        })
    });
    let mut admitted = 0;
    for login in logins.collect::<Vec<_>>() {
        admitted += usize::from(login.await.unwrap() == 201);
    }
    tokio::time::sleep(Duration::from_secs(10)).await;
    let pid = server.child.id();
    let rss = status_mib(pid, "VmRSS:").unwrap_or(f64::NAN);
    (rss, server.peak_rss_mib(), admitted)
}

/// `GET …/ledger` of one club session of `hands` hands of `game` on a fresh server: the
/// best time of 3, and the server's peak memory.
async fn ledger_of_long(plan: &Plan, game: &Game, hands: usize) -> (Duration, f64) {
    let (url, token, ids) = club_database(&plan.dir, "ledger", game, hands, 1).await;
    let server = Server::start(&url).await;
    let path = format!("/api/v1/sessions/{}/ledger", ids[0]);
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let started = Instant::now();
        // Sent chunked, without a Content-Length: read to its end on a connection of its own.
        let (status, _) = downloads::get(&server.addr, &token, &path).await;
        assert_eq!(status, 200);
        best = best.min(started.elapsed());
    }
    (best, server.peak_rss_mib())
}

/// Write p50 (ms) of hands recorded on one club session, idle and while another client
/// reloads the chart of a long session of the same club without pause.
async fn writes_beside_a_chart(plan: &Plan, game: &Game, long: usize) -> (f64, f64) {
    let (url, token, ids) = club_database(&plan.dir, "chart", game, long, 1).await;
    let short = {
        let pool = scorekeeper::store::open(&url).await.unwrap();
        let club: scorekeeper::ids::ClubId = sqlx::query_scalar("SELECT id FROM clubs")
            .fetch_one(&pool)
            .await
            .unwrap();
        let id = scorekeeper::service::import(&pool, &game.session(0), Some(club))
            .await
            .unwrap()
            .0;
        pool.close().await;
        id
    };
    let server = Server::start(&url).await;
    let mut run = Run {
        game: game.clone(),
        hands: 0,
        token: token.clone(),
        ids: vec![short],
        next: 0,
        standing: (0.0, Vec::new()),
        sheet: (0.0, Vec::new()),
        server,
        twins: Vec::new(),
    };
    let (_, idle) = load(&mut run, 200, Read::Nothing).await;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (addr, stop) = (run.server.addr.clone(), stop.clone());
        let path = format!("/sessions/{}/chart", ids[0]);
        tokio::spawn(async move {
            let mut c = Client::connect(&addr, &token).await;
            let mut reloads = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let (status, _) = c.request("GET", &path, None).await;
                assert_eq!(status, 200, "the chart");
                reloads += 1;
            }
            reloads
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (_, busy) = load(&mut run, 200, Read::Nothing).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let reloads = reader.await.unwrap();
    println!(
        "  ({reloads} chart reloads of the {long}-hand session while 200 hands were recorded)"
    );
    (percentile(&idle, 0.5), percentile(&busy, 0.5))
}

/// Record + standing cycles/s on one club session with no live sheet open, and with
/// `sheets` live sheets (`GET /sessions/{id}/live`) open on other sessions of the club: the
/// best of the rounds of each, every round measuring first without and then with the
/// sheets (opened for it and closed after), so that both see the machine alike.
async fn hands_beside_live_sheets(plan: &Plan, game: &Game, sheets: usize) -> (f64, f64) {
    let mut run = Run::start(&plan.dir, "live", game, 100, 11).await;
    let watched: Vec<i64> = run.ids.split_off(1);
    let mut best = (0.0f64, 0.0f64);
    for _ in 0..plan.rounds.max(3) {
        let (r, _) = load(&mut run, 300, Read::Standing).await;
        best.0 = best.0.max(r);
        let mut streams = Vec::new();
        for k in 0..sheets {
            let id = watched[k % watched.len()];
            let mut s = TcpStream::connect(&run.server.addr).await.unwrap();
            let head = format!(
                "GET /sessions/{id}/live HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {}\r\n\r\n",
                run.token
            );
            s.write_all(head.as_bytes()).await.unwrap();
            streams.push(s);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let (r, _) = load(&mut run, 300, Read::Standing).await;
        best.1 = best.1.max(r);
        drop(streams);
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    best
}

/// Prints and returns each game's record rate alone ([`record_rate`]): (game, records/s,
/// raw commits/s).
async fn record_rates(plan: &Plan) -> Vec<(&'static str, f64, f64)> {
    println!(
        "record alone on club sessions, {} clients, {} hands: records/s against the raw commit rate measured around each round (median round)",
        plan.most_clients(),
        plan.longest()
    );
    let mut rates = Vec::new();
    for game in &plan.games {
        let (records, raw) = record_rate(plan, game).await;
        println!(
            "{:>28} {records:>10.1} records/s {raw:>8.0} raw/s  x{:.2}",
            game.id,
            records / raw
        );
        rates.push((game.id, records, raw));
    }
    rates
}

#[tokio::main]
async fn main() {
    let plan = Plan::read();
    let raw = raw_commit_rate(&plan.dir, 2_000).await;
    println!(
        "raw SQLite: {raw:.0} single-row commits/s (WAL, synchronous=FULL, one connection, in {})",
        plan.dir.display()
    );
    println!();
    if std::env::args().any(|a| a == "--memory-only") {
        // Only the memory of 32 cached sessions: what a change to the cache is tried against.
        for (game, viewed, amended) in memory_of_every_game(&plan).await {
            println!(
                "  {} {game:<28} {}",
                verdict(viewed.max(amended) * 1048576.0 < 64e6),
                many_line((viewed, amended))
            );
        }
        let pitch = Game::all().into_iter().find(|g| g.id == "auction_pitch");
        let (after, peak, admitted) = memory_after_logins(&plan, &pitch.unwrap()).await;
        println!(
            "  {} 64 logins at once ({admitted} let in), 10 s later: RSS {after:.1} MiB (peak {peak:.1} MiB)",
            verdict(after * 1048576.0 < 64e6)
        );
        let _ = std::fs::remove_dir_all(&plan.dir);
        return;
    }
    if std::env::args().any(|a| a == "--amendments-only") {
        // Only the amendments' rows: what a change to corrections and undos is tried against.
        amend::rows(&plan).await;
        let _ = std::fs::remove_dir_all(&plan.dir);
        return;
    }
    if std::env::args().any(|a| a == "--one-session-only") {
        // Only the rate of many clients recording into one session, against raw SQLite.
        for game in &plan.games {
            amend::one_session_row(&plan, game).await;
        }
        let _ = std::fs::remove_dir_all(&plan.dir);
        return;
    }
    if std::env::args().any(|a| a == "--latencies-only") {
        // Only each amendment's own latency at the longest history: Undo, the hand 10
        // back, hand 1.
        for game in &plan.games {
            amend::latencies(&plan, game, 10).await;
        }
        let _ = std::fs::remove_dir_all(&plan.dir);
        return;
    }
    if std::env::args().any(|a| a == "--downloads-only") {
        // Only the long reads of one session: what a change to a download is tried against.
        downloads::rows(&plan, plan.longest()).await;
        let _ = std::fs::remove_dir_all(&plan.dir);
        return;
    }
    if std::env::args().any(|a| a == "--engines-only") {
        // Only the engines' rows, SQLite beside PostgreSQL: a few minutes.
        if let Some(target) = engines::rows(&plan).await {
            println!();
            println!("targets:");
            println!("  {target}");
        }
        let _ = std::fs::remove_dir_all(&plan.dir);
        return;
    }
    if std::env::args().any(|a| a == "--rates-only") {
        // Only the record rates: what a change to the write path is tried against.
        record_rates(&plan).await;
        let _ = std::fs::remove_dir_all(&plan.dir);
        return;
    }
    println!(
        "club sessions, with the club's token: record-hand + GET standing, record-hand + GET the sheet page; one server per row; cycles/s the best of {} rounds ({} standing and {} sheet cycles per client each), p50 over all rounds",
        plan.rounds, plan.cycles, plan.sheet_cycles
    );
    println!(
        "{:>28} {:>7} {:>7} {:>12} {:>9} {:>12} {:>9} {:>10}",
        "game", "hands", "clients", "standing/s", "p50 ms", "sheet/s", "p50 ms", "peak MiB"
    );
    let mut rows = Vec::new();
    for game in &plan.games {
        cycles(&plan, game, &mut rows).await;
    }
    println!();
    let rates = record_rates(&plan).await;
    let pitch = Game::all()
        .into_iter()
        .find(|g| g.id == "auction_pitch")
        .unwrap();
    let longest = plan.longest();
    let many = memory_of_every_game(&plan).await;
    let (ledger_time, ledger_peak) = ledger_of_long(&plan, &pitch, longest).await;
    let mut doc = serde_json::to_value(pitch.session(longest)).unwrap();
    doc["events"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "void", "event": longest - 1}));
    let file = plan.dir.join("replay-undo.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    let (replay_time, replay_peak) = (0..3)
        .map(|_| replay(&file))
        .min_by_key(|(time, _)| *time)
        .unwrap();
    println!();
    for (game, viewed, amended) in &many {
        println!(
            "server peak RSS, {game}: {}",
            many_line((*viewed, *amended))
        );
    }
    println!(
        "GET …/ledger of a {longest}-hand club Auction Pitch session (fresh server, best of 3): {:.1} ms, server peak {ledger_peak:.1} MiB",
        ledger_time.as_secs_f64() * 1000.0
    );
    println!(
        "scorekeeper replay of a {longest}-hand Auction Pitch document with one undo (best of 3): {:.3} s, peak {replay_peak:.1} MiB",
        replay_time.as_secs_f64()
    );
    println!();
    let (idle, busy) = writes_beside_a_chart(&plan, &pitch, 2_000).await;
    println!(
        "write p50 on a club session: idle {idle:.2} ms, while a 2000-hand chart reloads {busy:.2} ms"
    );
    let (none, many_sheets) = hands_beside_live_sheets(&plan, &pitch, 1_000).await;
    println!(
        "record + standing on one session: {none:.1}/s with no live sheet, {many_sheets:.1}/s with 1000 live sheets open on 10 other sessions"
    );
    let (after_logins, logins_peak, admitted) = memory_after_logins(&plan, &pitch).await;
    println!(
        "64 logins at once from 64 addresses ({admitted} let in), then 10 s idle: server RSS {after_logins:.1} MiB (peak {logins_peak:.1} MiB)"
    );
    println!();
    // The rows beside PostgreSQL, or one line saying they were not measured.
    let pg_target = if engines::postgres_server().is_some() {
        engines::rows(&plan).await
    } else {
        println!("{}", engines::NOT_MEASURED);
        None
    };
    println!();
    println!("targets:");
    let find = |g: &str, h: usize, n: usize| {
        *rows
            .iter()
            .find(|r| r.0 == g && r.1 == h && r.2 == n)
            .unwrap()
    };
    let (short, long) = (plan.shortest(), longest);
    for game in &plan.games {
        for &n in &plan.clients {
            let (a, b) = (find(game.id, short, n), find(game.id, long, n));
            for (what, x, y) in [("standing", a.3, b.3), ("sheet", a.4, b.4)] {
                println!(
                    "  {} {:<28} {n} client(s), record + {what}: {long} hands {y:.1}/s >= 0.67 x {short} hands {x:.1}/s (x{:.2})",
                    verdict(y >= 0.67 * x),
                    game.id,
                    y / x
                );
            }
        }
    }
    for (game, records, raw) in rates {
        println!(
            "  {} {game:<28} record rate at {} clients >= 0.5 x raw commits: {records:.1} vs {raw:.0} (x{:.2})",
            verdict(records >= 0.5 * raw),
            plan.most_clients(),
            records / raw
        );
    }
    for (game, viewed, amended) in &many {
        println!(
            "  {} {game:<28} server peak RSS with 32 cached club sessions of {longest} hands < 64 MB, viewed and then through amendments and downloads: {viewed:.1} and {amended:.1} MiB",
            verdict(viewed.max(*amended) * 1048576.0 < 64e6)
        );
    }
    println!(
        "  {} ledger of a {longest}-hand club Pitch session < 100 ms and peak RSS < 64 MB: {:.1} ms, {ledger_peak:.1} MiB",
        verdict(ledger_time < Duration::from_millis(100) && ledger_peak * 1048576.0 < 64e6),
        ledger_time.as_secs_f64() * 1000.0
    );
    println!(
        "  {} replay of a {longest}-hand Pitch document with one undo < 1 s: {:.3} s",
        verdict(replay_time < Duration::from_secs(1)),
        replay_time.as_secs_f64()
    );
    println!(
        "  {} write p50 while a long chart reloads <= 2 x idle: {busy:.2} vs {idle:.2} ms (x{:.2})",
        verdict(busy <= 2.0 * idle),
        busy / idle
    );
    println!(
        "  {} RSS after 64 concurrent logins and 10 s idle < 64 MB: {after_logins:.1} MiB ({admitted} of 64 let in)",
        verdict(after_logins * 1048576.0 < 64e6 && admitted == 64)
    );
    println!(
        "  {} a hand's cost with 1000 live sheets open elsewhere <= 1.2 x with none: {many_sheets:.1} vs {none:.1} cycles/s (cost x{:.2})",
        verdict(none / many_sheets <= 1.2),
        none / many_sheets
    );
    if let Some(target) = pg_target {
        println!("  {target}");
    }
    let _ = std::fs::remove_dir_all(&plan.dir);
}
