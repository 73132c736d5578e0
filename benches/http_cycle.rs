//! Issue 14's targets, measured in one run (README, "Benchmark"):
//!
//! 1. the record-hand + standing cycle over HTTP on loopback (`POST …/events`, then
//!    `GET …/standing`) at several lengths of history and numbers of clients: cycles/s,
//!    p50 and p95;
//! 2. the record rate alone (`POST …/events` only) at the largest number of clients;
//! 3. the raw SQLite rate of single-row commits (WAL, `synchronous=FULL`) in the same
//!    folder as the service's database, and the ratio;
//! 4. the server's peak memory (`VmHWM` of the server process);
//! 5. `scorekeeper replay` of a 100,000-hand document: time and peak memory.
//!
//! The service is the built `scorekeeper` binary, run as a child process (one fresh server
//! per history length and number of clients, so each peak memory is that load's; the
//! servers of one number of clients run side by side and are measured in turns, round after
//! round, so that a disturbance of the shared machine slows every length alike), over a
//! database in Cargo's temporary folder for benchmarks (`target/tmp`, the project's disk).
//! Each client keeps one HTTP/1.1 connection and owns one session, imported before the
//! server starts and read once before the clock starts (that first read replays it into
//! the server's cache).
//!
//! `cargo bench --bench http_cycle [-- --hands 100,1000,10000 --clients 1,8 --cycles 100
//! --rounds 5 --replay-hands 100000]`
//!
//! The machine may be shared (other builds): each cycle rate is the best of `--rounds`
//! rounds; each round of records alone sits between two runs of the raw commit rate, and
//! the ratio is the median round's.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark stops at the first failure

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

use scorekeeper::format::SessionDoc;
use serde_json::{Value, json};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

const PLAYERS: [&str; 3] = ["A", "B", "C"];
const SERVER: &str = env!("CARGO_BIN_EXE_scorekeeper");

/// Hand `i` of a session: dealers in turn, the next seat bids, made or set by turns.
fn hand(i: usize) -> Value {
    json!({"type": "hand", "dealer": PLAYERS[i % 3], "bidder": PLAYERS[(i + 1) % 3],
           "bid": 250 + 10 * (i % 5), "trump": "spades",
           "outcome": if i % 4 == 3 { "failed" } else { "made" }})
}

/// A three-handed Auction Pinochle session with a kitty, of `hands` hands.
fn session(hands: usize) -> Value {
    json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle",
        "agreements": {"stake": "0.05", "kitty": "pot"}, "players": PLAYERS,
        "events": (0..hands).map(hand).collect::<Vec<_>>()
    })
}

/// One kept-alive HTTP/1.1 connection, reading answers by their Content-Length.
struct Client {
    stream: BufReader<TcpStream>,
}

impl Client {
    async fn connect(addr: &str) -> Client {
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

/// Runs `cycles` measured cycles on session `id`, whose next hand is `next`: each a
/// recorded hand, then (with `standing`) a read of the standing.
async fn client(
    addr: String,
    id: i64,
    next: usize,
    cycles: usize,
    standing: bool,
) -> Vec<Duration> {
    let mut c = Client::connect(&addr).await;
    let events = format!("/api/v1/sessions/{id}/events");
    let standing_path = format!("/api/v1/sessions/{id}/standing");
    let mut times = Vec::with_capacity(cycles);
    for k in 0..cycles {
        let started = Instant::now();
        let (status, _) = c
            .request("POST", &events, Some(&hand(next + k).to_string()))
            .await;
        assert_eq!(status, 201, "recording hand {}", next + k);
        if standing {
            let (status, _) = c.request("GET", &standing_path, None).await;
            assert_eq!(status, 200);
        }
        times.push(started.elapsed());
    }
    times
}

/// `cycles` rounds on every session at once; returns (operations/s, sorted times).
async fn load(
    addr: &str,
    ids: &[i64],
    next: usize,
    cycles: usize,
    standing: bool,
) -> (f64, Vec<Duration>) {
    let started = Instant::now();
    let tasks: Vec<_> = ids
        .iter()
        .map(|&id| tokio::spawn(client(addr.to_string(), id, next, cycles, standing)))
        .collect();
    let mut times = Vec::new();
    for t in tasks {
        times.extend(t.await.unwrap());
    }
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

/// A table cell: `x` with `decimals`, or "-" where the row does not measure it (NaN).
fn cell(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "-".to_string()
    } else {
        format!("{x:.decimals$}")
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// The peak resident memory of process `pid` in MiB (`VmHWM` in `/proc/PID/status`).
fn peak_rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
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
    let body = hand(0).to_string();
    let started = Instant::now();
    for _ in 0..commits {
        sqlx::query("INSERT INTO t (body) VALUES (?)")
            .bind(&body)
            .execute(&mut conn)
            .await
            .unwrap();
    }
    let rate = commits as f64 / started.elapsed().as_secs_f64();
    conn.close().await.unwrap();
    rate
}

/// A running `scorekeeper serve` over the database at `url`, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    async fn start(url: &str) -> Server {
        // A free port: bound, read, let go, then taken by the server.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(SERVER)
            .args(["serve", "--bind", &addr, "--database-url", url])
            .env("RUST_LOG", "error")
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

/// One history length under load: its server, sessions, and what was measured.
struct Run {
    hands: usize,
    server: Server,
    ids: Vec<i64>,
    /// The index of the next hand to record.
    next: usize,
    rate: f64,
    times: Vec<Duration>,
    records: f64,
    raw: f64,
    record_times: Vec<Duration>,
    /// Each round's records/s over the raw rate around it, in increasing order.
    ratios: Vec<f64>,
}

/// Runs `scorekeeper replay FILE` (the ledger to /dev/null); returns its wall time and
/// peak memory in MiB, sampled from `/proc` every millisecond while it runs.
fn replay(file: &Path) -> (Duration, f64) {
    let started = Instant::now();
    let mut child = Command::new(SERVER)
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

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let history = list(&args, "--hands", &[100, 1_000, 10_000]);
    let clients = list(&args, "--clients", &[1, 8]);
    let cycles = list(&args, "--cycles", &[100])[0];
    let rounds = list(&args, "--rounds", &[5])[0];
    let replay_hands = list(&args, "--replay-hands", &[100_000])[0];
    let dir: PathBuf = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("http-cycle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let most_clients = clients.iter().copied().max().unwrap_or(1);
    let longest = history.iter().copied().max().unwrap_or(0);
    let shortest = history.iter().copied().min().unwrap_or(0);

    let raw = raw_commit_rate(&dir, 2_000).await;
    println!(
        "raw SQLite: {raw:.0} single-row commits/s (WAL, synchronous=FULL, one connection, in {}); \
         measured again (raw/s) before and after each records-alone round",
        dir.display()
    );
    println!();
    println!(
        "record-hand + GET standing over HTTP, one server per row (the rows of one number of clients run at once, measured in turns): cycles/s and records/s the best of {rounds} rounds of {cycles} cycles per client, p50/p95 over all rounds"
    );
    println!(
        "{:>8} {:>8} {:>10} {:>9} {:>9} {:>10} {:>11} {:>10} {:>16}",
        "hands",
        "clients",
        "cycles/s",
        "p50 ms",
        "p95 ms",
        "records/s",
        "rec p95 ms",
        "raw/s",
        "server peak MiB"
    );
    // (hands, clients, cycles/s, records/s alone or NaN, raw/s or NaN, server peak MiB)
    let mut results = Vec::new();
    for &n in &clients {
        // One server per history length, all running at once, measured in turns round
        // after round: whatever else the machine does then slows every length alike.
        let mut runs = Vec::new();
        for &hands in &history {
            let doc: SessionDoc = serde_json::from_value(session(hands)).unwrap();
            let url = format!("sqlite://{}/bench-{hands}-{n}.db", dir.display());
            let mut ids = Vec::new();
            {
                let pool = scorekeeper::store::open(&url).await.unwrap();
                for _ in 0..n {
                    ids.push(
                        scorekeeper::service::import(&pool, &doc, None)
                            .await
                            .unwrap(),
                    );
                }
                pool.close().await;
            }
            let server = Server::start(&url).await;
            // The first read of each session replays it into the cache: a cost paid once,
            // before the clock starts.
            let mut warm = Client::connect(&server.addr).await;
            for id in &ids {
                let (status, _) = warm
                    .request("GET", &format!("/api/v1/sessions/{id}/standing"), None)
                    .await;
                assert_eq!(status, 200);
            }
            runs.push(Run {
                hands,
                server,
                ids,
                next: hands,
                rate: 0.0,
                times: Vec::new(),
                records: f64::NAN,
                raw: f64::NAN,
                record_times: Vec::new(),
                ratios: Vec::new(),
            });
        }
        for _ in 0..rounds {
            for run in &mut runs {
                let (r, t) = load(&run.server.addr, &run.ids, run.next, cycles, true).await;
                run.next += cycles;
                run.rate = run.rate.max(r);
                run.times.extend(t);
            }
        }
        // The record rate alone, with the most clients, each round between two runs of
        // the raw rate on the same disk: the round's ratio is its records/s over the mean
        // of the raw rates around it, so that a disk or a machine slowed for a while by
        // something else slows both sides of a ratio alike; the ratio is the median of
        // the rounds' (and records/s and raw/s are those of that round).
        if n == most_clients {
            for run in &mut runs {
                let mut measured = Vec::new();
                for _ in 0..rounds {
                    let before = raw_commit_rate(&dir, 500).await;
                    let (r, t) = load(&run.server.addr, &run.ids, run.next, cycles, false).await;
                    let after = raw_commit_rate(&dir, 500).await;
                    run.next += cycles;
                    run.record_times.extend(t);
                    let raw = (before + after) / 2.0;
                    measured.push((r / raw, r, raw));
                }
                measured.sort_by(|a, b| a.0.total_cmp(&b.0));
                run.ratios = measured.iter().map(|m| m.0).collect();
                let (_, records, raw) = measured[measured.len() / 2];
                (run.records, run.raw) = (records, raw);
            }
        }
        for mut run in runs {
            run.times.sort();
            run.record_times.sort();
            let record_p95 = if run.record_times.is_empty() {
                f64::NAN
            } else {
                percentile(&run.record_times, 0.95)
            };
            let peak = run.server.peak_rss_mib();
            println!(
                "{:>8} {n:>8} {:>10.1} {:>9.2} {:>9.2} {:>10} {:>11} {:>10} {:>16}",
                run.hands,
                run.rate,
                percentile(&run.times, 0.5),
                percentile(&run.times, 0.95),
                cell(run.records, 1),
                cell(record_p95, 2),
                cell(run.raw, 0),
                cell(peak, 1),
            );
            if !run.ratios.is_empty() {
                let ratios: Vec<String> = run.ratios.iter().map(|r| format!("{r:.2}")).collect();
                println!(
                    "{:>8} {n:>8}   records/s over raw/s, round by round (sorted): {}",
                    run.hands,
                    ratios.join(" ")
                );
            }
            results.push((run.hands, n, run.rate, run.records, run.raw, peak));
        }
    }

    let file = dir.join(format!("replay-{replay_hands}.json"));
    std::fs::write(&file, session(replay_hands).to_string()).unwrap();
    // Best of three runs, as above.
    let (replay_time, replay_peak) = (0..3)
        .map(|_| replay(&file))
        .min_by_key(|(time, _)| *time)
        .unwrap();
    println!();
    println!(
        "scorekeeper replay of {replay_hands} hands (best of 3): {:.3} s, peak memory {replay_peak:.1} MiB",
        replay_time.as_secs_f64()
    );

    println!();
    println!("targets (issue 14):");
    let find = |h: usize, n: usize| {
        results
            .iter()
            .find(|r| r.0 == h && r.1 == n)
            .copied()
            .unwrap()
    };
    for &n in &clients {
        let (short, long) = (find(shortest, n).2, find(longest, n).2);
        println!(
            "  {} cycles/s at {longest} hands >= 0.67 x at {shortest}, {n} client(s): {long:.1} vs {short:.1} (x{:.2})",
            verdict(long >= 0.67 * short),
            long / short
        );
    }
    let (records, raw_now) = (find(longest, most_clients).3, find(longest, most_clients).4);
    println!(
        "  {} record rate at {most_clients} clients ({longest} hands) >= 0.5 x raw SQLite commit rate measured around it (median round of {rounds}): {records:.1} vs {raw_now:.0} (x{:.2})",
        verdict(records >= 0.5 * raw_now),
        records / raw_now
    );
    let peak = find(longest, most_clients).5;
    println!(
        "  {} server peak RSS under {most_clients} clients at {longest} hands < 50 MB: {peak:.1} MiB",
        verdict(peak * 1024.0 * 1024.0 < 50_000_000.0)
    );
    println!(
        "  {} replay of {replay_hands} hands < 1 s: {:.3} s (peak memory {replay_peak:.1} MiB)",
        verdict(replay_time < Duration::from_secs(1)),
        replay_time.as_secs_f64()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
