//! Snapshots of every registered game's rendered sheet page, so a broken `<title>`, a lost
//! column or a changed word shows in review (`cargo insta review`, or read the `.snap.new`
//! file beside the old one). Each game's session is the public golden case that stands
//! and finishes a game, with the most hands, with a correction (hand 1 entered
//! again, as at the table when a player asks "was that right?"), an undo of the last hand,
//! that hand entered again and the close appended: so each snapshot holds hands, a
//! correction, an undo, the finished games, and a close. Recorded times are redacted;
//! everything else on the page is the engine's words and numbers.
//!
//! The cases are read from `tests/fixtures/golden/`, so a fresh clone runs every snapshot.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

mod common;

use common::{TestApp, golden_fixtures};
use scorekeeper::format::{SessionDoc, replay};
use scorekeeper::registry;
use serde_json::{Value, json};

/// The golden case of `game` that replays and finishes a game, with the most hands (else
/// the one with the most hands), as a session document.
fn fullest_standing_case(game: &str) -> Option<Value> {
    let dir = golden_fixtures().join(game);
    let mut best: Option<((usize, usize), String, Value)> = None;
    for entry in std::fs::read_dir(dir).ok()?.filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let case: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let session = case["session"].clone();
        let Ok(doc) = serde_json::from_value::<SessionDoc>(session.clone()) else {
            continue;
        };
        let Ok(ledger) = replay(&doc) else {
            continue;
        };
        let games = serde_json::to_value(&ledger).unwrap()["games"]
            .as_array()
            .map_or(0, Vec::len);
        let hands = session["events"]
            .as_array()
            .map_or(0, |e| e.iter().filter(|e| e["type"] == "hand").count());
        let events = (usize::from(games > 0), hands);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // Ties go to the first file by name, so the pick is stable.
        let better = match &best {
            None => true,
            Some((n, other, _)) => events > *n || (events == *n && name < *other),
        };
        if better {
            best = Some((events, name, session));
        }
    }
    best.map(|(_, _, session)| session)
}

/// `session` with hand 1 corrected to itself, the last hand undone and entered again, and
/// the close.
fn with_amendments(mut session: Value) -> Value {
    let events = session["events"].as_array_mut().unwrap();
    events.retain(|e| e["type"] != "close");
    let hands: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| e["type"] == "hand")
        .map(|(i, _)| i)
        .collect();
    if let (Some(&first), Some(&last)) = (hands.first(), hands.last()) {
        let replacement = events[first].clone();
        events.push(json!({"type": "correction", "event": first,
            "reason": "checked with the table", "replacement": replacement}));
        if last != first {
            let again = events[last].clone();
            events.push(json!({"type": "void", "event": last, "reason": "entered twice"}));
            events.push(again);
        }
    }
    events.push(json!({"type": "close"}));
    session
}

/// Replaces every recorded time, in words ("2026-11-24 12:01:43 UTC", "2026-11-24 12:01 UTC") or as stored in a
/// `<time datetime>` ("2026-11-24T12:01:43Z"), with `[time]`.
fn redact_times(page: &str) -> String {
    let bytes = page.as_bytes();
    let shapes: [&[u8]; 3] = [
        b"dddd-dd-dd dd:dd:dd UTC",
        b"dddd-dd-dd dd:dd UTC",
        b"dddd-dd-ddTdd:dd:ddZ",
    ];
    let mut out = String::with_capacity(page.len());
    let mut i = 0;
    while i < bytes.len() {
        let fits = shapes.iter().find(|shape| {
            bytes.len() - i >= shape.len()
                && shape.iter().zip(&bytes[i..]).all(|(s, b)| match s {
                    b'd' => b.is_ascii_digit(),
                    _ => s == b,
                })
        });
        if let Some(shape) = fits {
            out.push_str("[time]");
            i += shape.len();
        } else {
            let c = page[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The page's `<main>`, one tag or text run a line, blank lines dropped: a diff points at
/// the line that changed.
fn main_of(page: &str) -> String {
    let start = page.find("<main>").expect("the page has a <main>");
    let end = page.find("</main>").expect("the page closes its <main>");
    page[start..end + "</main>".len()]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn every_games_sheet_with_a_correction_an_undo_and_the_close() {
    for registration in registry::GAMES {
        let id = registration.game.id;
        let session = fullest_standing_case(id)
            .unwrap_or_else(|| panic!("{id}: no golden case that stands to snapshot"));
        let session = with_amendments(session);
        let app = TestApp::new().await;
        let doc: SessionDoc = serde_json::from_value(session).unwrap();
        let session_id = scorekeeper::service::import(&app.pool, &doc, None)
            .await
            .unwrap_or_else(|e| panic!("{id}: the amended session is refused: {e}"));
        let reply = app.get(&format!("/sessions/{session_id}")).await;
        assert_eq!(reply.status, 200, "{id}: {}", reply.body);
        let title = reply
            .body
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .unwrap();
        assert!(
            !title.contains('<'),
            "{id}: the title holds no markup: {title}"
        );
        insta::assert_snapshot!(id, redact_times(&main_of(&reply.body)));
    }
}
