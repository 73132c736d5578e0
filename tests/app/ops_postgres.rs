//! The PostgreSQL half of `ops_lifecycle`'s backup test: there `scorekeeper
//! backup` and `restore` refuse, naming the server's tools (docs/postgres.md, "Backups"), so this
//! checks that the documented commands do what the SQLite commands are checked to do: a
//! `pg_dump` taken while four writers record restores, with `pg_restore`, into a new
//! database whose every session's stored postings equal `replay` of its document.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::process::Command;
use std::time::Duration;

use crate::common::engines;
use crate::common::process::{
    Writers, club_sessions, exit_status, fails_saying, free_port, live_database, serve, sigterm,
    workdir,
};
use crate::ops_lifecycle::ledgers_equal_replay;

/// The newest installed PostgreSQL's `tool` (`pg_dump`, `pg_restore`), as `.ci/postgres`
/// finds its server (Debian keeps them out of `PATH` under `/usr/lib/postgresql/N/bin`).
fn pg_tool(tool: &str) -> std::path::PathBuf {
    let mut dirs: Vec<_> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("Debian's postgresql (.ci/postgres installs it)")
        .filter_map(|d| d.ok().map(|d| d.path().join("bin").join(tool)))
        .filter(|p| p.is_file())
        .collect();
    dirs.sort_by_key(|p| {
        let version = p.components().nth(4).map(|c| c.as_os_str().to_owned());
        version
            .and_then(|v| v.to_str().and_then(|v| v.parse::<u32>().ok()))
            .unwrap_or(0)
    });
    dirs.pop()
        .expect("pg_dump and pg_restore beside the server")
}

/// Runs the tool to its end; fails the test, showing what it said, unless it succeeds.
fn tool_succeeds(command: &mut Command) {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `scorekeeper ARGS`: it must fail with one line on standard error holding `words`.
fn refused_saying(args: &[&str], words: &str) {
    let err = fails_saying(args, words);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
}

/// The backup test on PostgreSQL (run by `ops_lifecycle`'s, whose name it shares).
pub(crate) async fn a_pg_dump_taken_during_writes_restores_to_ledgers_equal_to_replay() {
    let dir = workdir("pgdump");
    let url = live_database(&dir).await;
    let dump = dir.join("sk.dump");
    let dump_path = dump.to_str().unwrap();
    refused_saying(&["backup", dump_path, "--database-url", &url], "pg_dump");
    refused_saying(
        &["restore", dump_path, "--database-url", &url],
        "pg_restore",
    );
    let port = free_port();
    let server = serve(&url, port, &[]).await;
    let (token, ids) = club_sessions(port, 4).await;
    let writers = Writers::start(port, &token, ids);
    tokio::time::sleep(Duration::from_millis(500)).await;
    // The documented command, while the writers write: one consistent snapshot.
    tool_succeeds(Command::new(pg_tool("pg_dump")).args([
        "--format=custom",
        "--file",
        dump_path,
        &url,
    ]));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let written = writers.stop().await;
    sigterm(&server);
    assert!(exit_status(server).await);
    assert!(written > 0);
    // Restored into a new, empty database: every session's ledger equals replay.
    let restored = engines::test_database_url().await;
    tool_succeeds(Command::new(pg_tool("pg_restore")).args([
        "--no-owner",
        &format!("--dbname={restored}"),
        dump_path,
    ]));
    let counts = ledgers_equal_replay(&restored).await;
    assert_eq!(counts.len(), 4, "every session is in the dump");
    assert!(
        counts.values().sum::<usize>() <= written + 4,
        "the dump holds no more than was written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
