//! The real binary's bounds on what anyone may hold: live sheets stop short of the
//! open-file limit, so `/healthz` and writes still answer once the sheets are full.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::process::{
    club_sessions, exit_status, free_port, hand, live_database, request, serve_with_open_files,
    sigterm, workdir,
};

/// Opens session `id`'s live sheet with the bearer `token`: the connection, kept open, and
/// the head of the answer. Fails when no head comes within 5 s.
async fn open_sheet(port: u16, id: i64, token: &str) -> (TcpStream, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let head = format!(
        "GET /sessions/{id}/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buffer = [0u8; 1024];
    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer));
        let n = read.await.expect("an answer within 5 s").unwrap();
        assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buffer[..n]);
    }
    (stream, String::from_utf8_lossy(&got).into_owned())
}

/// Raises this test process's own open-file limit to its hard limit: it opens more sheets
/// than the server may keep. Fails when the hard limit is too small to try.
fn room_for(descriptors: u64) {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let hard = limit.maximum.unwrap_or(u64::MAX);
    assert!(
        hard >= descriptors,
        "the test needs {descriptors} descriptors, the hard limit is {hard}"
    );
    let raised = Rlimit {
        current: limit.maximum,
        maximum: limit.maximum,
    };
    setrlimit(Resource::Nofile, raised).unwrap();
}

#[tokio::test]
async fn live_sheets_stop_short_of_the_open_file_limit_and_healthz_still_answers() {
    room_for(2048);
    let dir = workdir("open-files");
    let port = free_port();
    let url = live_database(&dir).await;
    // The usual soft limit (1,024) and default settings (LIVE_OVERALL 1,024, 64 sheets a
    // session): sheets alone could take every descriptor.
    let server = serve_with_open_files(&url, port, &[], 1024).await;
    let (token, ids) = club_sessions(port, 18).await;

    // One client asks for 1,100 sheets, 64 on each session in turn.
    let mut open = Vec::new();
    let mut refused = Vec::new();
    for k in 0..1100 {
        let (stream, head) = open_sheet(port, ids[k / 64], &token).await;
        if head.starts_with("HTTP/1.1 200") {
            open.push(stream);
        } else {
            refused.push(head);
        }
    }
    assert_eq!(
        open.len(),
        1024 - 128,
        "128 descriptors kept for everything else"
    );
    assert_eq!(refused.len(), 1100 - open.len());
    let refused = &refused[0];
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert!(
        refused
            .to_ascii_lowercase()
            .contains("\r\nretry-after: 30\r\n"),
        "{refused}"
    );

    // With every sheet open, the probe and a write still answer, and at once.
    let started = Instant::now();
    let health = tokio::time::timeout(
        Duration::from_secs(2),
        request(port, "GET", "/healthz", None, None),
    );
    let (status, body) = health.await.expect("healthz within 2 s").unwrap();
    assert_eq!(status, 200, "{body}");
    eprintln!("healthz with every sheet open: {:?}", started.elapsed());
    let path = format!("/api/v1/sessions/{}/events", ids[0]);
    let (status, body) = request(port, "POST", &path, Some(&token), Some(&hand(0)))
        .await
        .unwrap();
    assert_eq!(status, 201, "{body}");
    assert!(started.elapsed() < Duration::from_secs(2));
    // Every open sheet hears of the hand: the sheets were open, not refused late.
    for stream in open.iter_mut().take(3) {
        let mut buffer = [0u8; 256];
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer));
        let n = read.await.expect("the change within 5 s").unwrap();
        assert!(String::from_utf8_lossy(&buffer[..n]).contains("event: changed"));
    }

    drop(open);
    sigterm(&server);
    assert!(exit_status(server).await);
    let _ = std::fs::remove_dir_all(&dir);
}
