//! The `scorekeeper replay` command: ledger on stdout and exit 0, or exit 2 with one line
//! on stderr naming the event, field and rule and nothing on stdout.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn session(events: Value) -> Value {
    json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": {"stake": "0.05"}, "players": ["A", "B", "C"], "events": events
    })
}

fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scorekeeper"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn replay_prints_the_ledger() {
    let dir = std::env::temp_dir().join(format!("scorekeeper-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("s.json");
    let doc = session(
        json!([{"type": "hand", "dealer": "C", "bidder": "A", "bid": 250, "trump": "hearts", "outcome": "made"}]),
    );
    std::fs::write(&file, doc.to_string()).unwrap();
    let (code, out, err) = run(&["replay", file.to_str().unwrap()], None);
    assert_eq!(code, 0, "stderr: {err}");
    let ledger: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(ledger["format"], "scorekeeper/ledger@1");
    assert_eq!(
        ledger["balances"],
        json!({"A": "0.20", "B": "-0.10", "C": "-0.10"})
    );
}

#[test]
fn replay_reads_standard_input() {
    let doc = session(
        json!([{"type": "hand", "dealer": "C", "bidder": "A", "bid": 300, "trump": "spades", "outcome": "failed"}]),
    );
    let (code, out, _) = run(&["replay", "-"], Some(&doc.to_string()));
    assert_eq!(code, 0);
    let ledger: Value = serde_json::from_str(&out).unwrap();
    // 3 units × 0.05 × 2 (spades) × 2 (double bete) to each of two opponents.
    assert_eq!(ledger["balances"]["A"], "-1.20");
}

#[test]
fn a_refused_document_exits_2_with_one_line_naming_event_and_field() {
    let doc = session(json!([
        {"type": "hand", "dealer": "C", "bidder": "A", "bid": 250, "trump": "hearts", "outcome": "made"},
        {"type": "hand", "dealer": "A", "bidder": "B", "bid": 240, "trump": "hearts", "outcome": "made"}
    ]));
    let (code, out, err) = run(&["replay", "-"], Some(&doc.to_string()));
    assert_eq!(code, 2);
    assert!(out.is_empty(), "stdout must be empty, got {out}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.starts_with("event 1: bid: 240 is below the minimum 250 (rules §1.1)"),
        "{err}"
    );
}

#[test]
fn unknown_fields_and_json_numbers_for_money_are_refused() {
    let mut doc = session(json!([]));
    doc["agreements"]["stake"] = json!(0.05);
    let (code, out, err) = run(&["replay", "-"], Some(&doc.to_string()));
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("agreements.stake"), "{err}");
    let doc = session(
        json!([{"type": "hand", "dealer": "C", "bidder": "A", "bid": 250, "trump": "hearts", "outcome": "made", "bonus": 1}]),
    );
    let (code, _, err) = run(&["replay", "-"], Some(&doc.to_string()));
    assert_eq!(code, 2);
    assert!(err.starts_with("event 0: bonus: unknown field"), "{err}");
    let (code, _, err) = run(&["replay", "-"], Some("not json"));
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn games_lists_every_registered_game_one_a_line() {
    let (code, out, _) = run(&["games"], None);
    assert_eq!(code, 0);
    let listed: Vec<&str> = out.lines().collect();
    let registered: Vec<&str> = scorekeeper::registry::GAMES
        .iter()
        .map(|r| r.game.id)
        .collect();
    assert_eq!(listed, registered);
    assert!(listed.contains(&"auction_pitch"), "{out}");
}
