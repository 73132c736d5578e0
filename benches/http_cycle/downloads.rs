//! The long reads of one club Auction Pitch session of the longest history (`--downloads-only`,
//! docs/benchmark.md): per read, on a fresh server whose cache holds the session (a
//! standing read first, as any phone makes), the best time of 3, the answer's size and the
//! server's peak RSS growth over its RSS just before, one read at a time and two at once.
//! The peak is `VmHWM` after `clear_refs` is told `5` (which sets it to the RSS then), so
//! each read's growth is measured alone.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::{Game, Plan, Server, club_database, status_mib, verdict};

/// The reads measured: a label, the path (`{id}` the session, `{club}` the club, which
/// holds that one session), and whether it is held to the 8 MB line (the streamed
/// downloads and the chart).
pub const READS: [(&str, &str, bool); 9] = [
    ("session document", "/api/v1/sessions/{id}/export", true),
    ("session journal", "/api/v1/sessions/{id}/journal", true),
    ("postings.csv", "/api/v1/sessions/{id}/postings.csv", true),
    ("ledger", "/api/v1/sessions/{id}/ledger", true),
    ("chart", "/sessions/{id}/chart", true),
    (
        "club results.csv",
        "/api/v1/clubs/{club}/results.csv",
        false,
    ),
    ("club journal", "/api/v1/clubs/{club}/journal", false),
    ("sheet ?all", "/sessions/{id}?all=1", false),
    ("club export", "/api/v1/clubs/{club}/export", false),
];

/// One GET on a connection of its own, read to its end: the status and the body's length.
/// Panics on a chunked body without its last chunk (a broken transfer).
pub async fn get(addr: &str, token: &str, path: &str) -> (u16, usize) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let head = String::from_utf8_lossy(&answer[..end]).to_ascii_lowercase();
    let status = head[9..12].parse().unwrap();
    let body = &answer[end..];
    if !head.contains("transfer-encoding: chunked") {
        return (status, body.len());
    }
    // Chunks: hex length, CRLF, bytes, CRLF; the last is `0` CRLF CRLF.
    let (mut at, mut length) = (0, 0);
    loop {
        let line = body[at..].windows(2).position(|w| w == b"\r\n").unwrap();
        let size = usize::from_str_radix(std::str::from_utf8(&body[at..at + line]).unwrap(), 16);
        let size = size.unwrap();
        at += line + 2 + size + 2;
        if size == 0 {
            assert!(at <= body.len(), "{path}: a broken transfer");
            return (status, length);
        }
        length += size;
        assert!(at <= body.len(), "{path}: a broken transfer");
    }
}

/// Sets `pid`'s peak RSS to its RSS now; its RSS then, in MiB.
fn reset_peak(pid: u32) -> f64 {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").unwrap();
    status_mib(pid, "VmRSS:").unwrap()
}

/// `at_once` GETs of `path` at once: the slowest one's time, the body's length, and the
/// server's peak RSS growth in MiB.
async fn measure(
    server: &Server,
    token: &str,
    path: &str,
    at_once: usize,
) -> (Duration, usize, f64) {
    let pid = server.child.id();
    let before = reset_peak(pid);
    let started = Instant::now();
    let reads: Vec<_> = (0..at_once)
        .map(|_| {
            let (addr, token, path) = (server.addr.clone(), token.to_string(), path.to_string());
            tokio::spawn(async move { get(&addr, &token, &path).await })
        })
        .collect();
    let mut length = 0;
    for read in reads {
        let (status, bytes) = read.await.unwrap();
        assert_eq!(status, 200, "{path}");
        length = bytes;
    }
    let time = started.elapsed();
    let peak = status_mib(pid, "VmHWM:").unwrap();
    (time, length, peak - before)
}

/// Measures every read of [`READS`] on a club Auction Pitch session of `hands` hands and
/// prints a line each, then the PASS/FAIL lines of the streamed reads (growth < 8 MB).
pub async fn rows(plan: &Plan, hands: usize) {
    let pitch = Game::all()
        .into_iter()
        .find(|g| g.id == "auction_pitch")
        .unwrap();
    let (url, token, ids) = club_database(&plan.dir, "downloads", &pitch, hands, 1).await;
    let server = Server::start(&url).await;
    let standing = format!("/api/v1/sessions/{}/standing", ids[0]);
    assert_eq!(get(&server.addr, &token, &standing).await.0, 200);
    let club = club_of(&url).await;
    println!(
        "long reads of a {hands}-hand club Auction Pitch session (one server, the session cached; \
         time best of 3; growth = peak RSS over RSS before, MiB)"
    );
    println!(
        "{:>18} {:>10} {:>9} {:>11} {:>13} {:>13}",
        "read", "bytes", "ms", "growth", "2 at once ms", "2 growth"
    );
    let mut verdicts = Vec::new();
    for (label, path, streamed) in READS {
        let path = path
            .replace("{id}", &ids[0].to_string())
            .replace("{club}", &club.to_string());
        let mut best = (Duration::MAX, 0, 0.0_f64);
        for _ in 0..3 {
            let (time, length, growth) = measure(&server, &token, &path, 1).await;
            best = (best.0.min(time), length, best.2.max(growth));
        }
        let (two_time, _, two_growth) = measure(&server, &token, &path, 2).await;
        println!(
            "{label:>18} {:>10} {:>9.1} {:>11.1} {:>13.1} {:>13.1}",
            best.1,
            best.0.as_secs_f64() * 1000.0,
            best.2,
            two_time.as_secs_f64() * 1000.0,
            two_growth
        );
        if streamed {
            verdicts.push((label, best.2, two_growth));
        }
    }
    println!("targets:");
    for (label, one, two) in verdicts {
        println!(
            "  {} {label} of {hands} hands: peak RSS growth < 8 MB, one at a time and two at once: {one:.1} and {two:.1} MiB",
            verdict(one.max(two) * 1048576.0 < 8e6)
        );
    }
}

/// The id of the one club in the database at `url`.
async fn club_of(url: &str) -> i64 {
    let pool = scorekeeper::store::open(url).await.unwrap();
    let club: i64 = sqlx::query_scalar("SELECT id FROM clubs")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    club
}
