//! `scorekeeper replay` on hostile documents: a value that would
//! overflow is one line naming the event and field and exit 2, never a panic (exit 101);
//! a reader that closes the pipe early ends it quietly.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn session(agreements: Value, events: Vec<Value>) -> Value {
    json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": agreements, "players": ["A", "B", "C"], "events": events
    })
}

/// Runs `replay -` on `doc`: exit code, stdout, stderr.
fn replay(doc: &Value) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scorekeeper"))
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(doc.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const SEATS: [&str; 3] = ["A", "B", "C"];

fn failed_350_in_hearts(n: usize) -> Value {
    json!({"type": "hand", "dealer": SEATS[n % 3], "bidder": "A", "bid": 350,
           "trump": "hearts", "outcome": "failed"})
}

#[test]
fn a_kitty_tripling_past_the_money_limit_is_refused_not_a_panic() {
    let agreements = json!({"stake": "0.05", "kitty": "pot", "hearts_triple": true});
    let events: Vec<Value> = (0..37).map(failed_350_in_hearts).collect();
    let (code, out, err) = replay(&session(agreements.clone(), events));
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(!err.contains("panicked"), "{err}");
    // The kitty (KITTY) and the bidder grow threefold a hand; the first event whose
    // postings take a balance past ten billion is named, with the account.
    let line = err.trim();
    assert_eq!(line.lines().count(), 1, "{err}");
    let event: usize = line
        .strip_prefix("event ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("names the event: {line}"));
    assert!(line.contains(": balances."), "{line}");
    // Every hand before it replays.
    let before: Vec<Value> = (0..event).map(failed_350_in_hearts).collect();
    let (code, out, err) = replay(&session(agreements, before));
    assert_eq!(code, 0, "{err}");
    let ledger: Value = serde_json::from_str(&out).unwrap();
    assert!(ledger["balances"]["KITTY"].is_string(), "{out}");
}

#[test]
fn unbounded_meld_bid_and_opening_scores_are_refused() {
    let agreements = json!({"stake": "0.05"});
    for (events, field) in [
        (
            vec![
                json!({"type": "hand", "dealer": "A", "bidder": "A", "bid": 1_000_000_000_000_000_000i64, "trump": "clubs", "outcome": "made"}),
            ],
            "event 0: bid: ",
        ),
        (
            vec![
                json!({"type": "hand", "dealer": "A", "bidder": "A", "bid": 300, "trump": "clubs", "meld": i64::MAX, "counters": 100}),
            ],
            "event 0: meld: ",
        ),
        // Within the numbers' limit but beyond what a 48-card deal can make.
        (
            vec![
                json!({"type": "hand", "dealer": "A", "bidder": "A", "bid": 10_010, "trump": "clubs", "outcome": "made"}),
            ],
            "event 0: bid: 10010 is more than any deal can make",
        ),
        (
            vec![
                json!({"type": "hand", "dealer": "A", "bidder": "A", "bid": 300, "trump": "clubs", "meld": 10_010, "counters": 100}),
            ],
            "event 0: meld: 10010 is more than any deal can meld",
        ),
    ] {
        let (code, out, err) = replay(&session(agreements.clone(), events));
        assert_eq!(code, 2, "{err}");
        assert!(out.is_empty());
        assert!(err.starts_with(field), "{err}");
    }
    let doc = json!({
        "format": "scorekeeper/session@1", "game": "check_pinochle", "currency": "USD",
        "agreements": {}, "players": ["A", "B", "C", "D"],
        "opening_scores": {"NS": i64::MIN}, "events": []
    });
    let (code, _, err) = replay(&doc);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("opening_scores.NS: "), "{err}");
}

#[test]
fn a_closed_pipe_ends_replay_quietly() {
    // Enough hands for a ledger far larger than a pipe's buffer.
    let events: Vec<Value> = (0..3000)
        .map(|n| json!({"type": "hand", "dealer": SEATS[n % 3], "all_passed": true}))
        .collect();
    let doc = session(json!({"stake": "0.05"}), events);
    let path = std::env::temp_dir().join(format!("hardening-pipe-{}.json", std::process::id()));
    std::fs::write(&path, doc.to_string()).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_scorekeeper"))
        .arg("replay")
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here, like `head` exiting.
    let out = child.wait_with_output().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(&first[..1], b"{");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.is_empty(), "quiet: {err}");
    assert_eq!(out.status.code(), Some(0));
}

/// Auction Pitch, seven players, the largest stake (ten billion) and scores carried in at
/// the ends of the points' range: A, at 999,999 of a 1,000,000 game, pitches 2 and takes all
/// four points (1,000,003, the game). Each of the six others, at −999,999, would owe
/// 2,000,002 points × 10,000,000,000.00 = 2.000002 × 10¹⁸ cents, past the ledger's limit of
/// ten billion (and their sum past the range of a 64-bit number): the hand is refused on the
/// stake, one line and exit 2, not a panic; the same session at a one-cent stake replays.
#[test]
fn a_pitch_game_paid_past_the_money_limit_is_refused_not_a_panic() {
    let players = ["A", "B", "C", "D", "E", "F", "G"];
    let mut opening = serde_json::Map::new();
    for p in players {
        let score = if p == "A" { 999_999 } else { -999_999 };
        opening.insert(p.into(), json!(score));
    }
    let doc = |stake: &str| {
        json!({
            "format": "scorekeeper/session@1", "game": "auction_pitch", "currency": "USD",
            "agreements": {"stake": stake, "target": 1_000_000},
            "players": players, "opening_scores": opening.clone(),
            "events": [{"type": "hand", "dealer": "G", "pitcher": "A", "bid": 2,
                        "points": {"high": "A", "low": "A", "jack": "A", "game": "A"}}]
        })
    };
    // The library's fold says the same, naming the hand and the stake.
    let parsed: scorekeeper::format::SessionDoc =
        serde_json::from_value(doc("10000000000.00")).unwrap();
    let refusal = scorekeeper::format::replay(&parsed).unwrap_err();
    assert_eq!(refusal.event_index, Some(0));
    assert_eq!(refusal.field, "agreements.stake");
    let (code, out, err) = replay(&doc("10000000000.00"));
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("event 0: agreements.stake: "),
        "names the hand and the stake: {err}"
    );
    // At one cent a point each of the six pays 2,000,002 cents to A.
    let (code, out, err) = replay(&doc("0.01"));
    assert_eq!(code, 0, "{err}");
    let ledger: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(ledger["balances"]["A"], "120000.12");
    assert_eq!(ledger["balances"]["B"], "-20000.02");
}
