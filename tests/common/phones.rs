//! What the two-phone browser tests (`tests/browser/two_phones.rs`) share: a hand entered as at the
//! table, the session's events as stored, waiting for the page, and the sheets of other
//! games they photograph.

use std::time::Duration;

use thirtyfour::prelude::*;

use super::browser::{choose, fill, page_fetch};

/// Enters an Auction Pinochle hand on `driver`'s next-hand form, pressing Enter in the Bid
/// field as at the table.
pub async fn enter_hand(
    driver: &WebDriver,
    dealer: &str,
    bidder: &str,
    bid: &str,
    trump: &str,
    outcome: &str,
) {
    choose(driver, "dealer", dealer).await;
    choose(driver, "bidder", bidder).await;
    fill(driver, "bid", bid).await;
    choose(driver, "trump", trump).await;
    choose(driver, "outcome", outcome).await;
    // Enter in the Bid field, as at the table: it must record the contract the form shows,
    // never "all passed".
    driver
        .find(By::Css("#next form.hand-form input[name='bid']"))
        .await
        .unwrap()
        .send_keys(Key::Enter)
        .await
        .unwrap();
}

/// The session's events as stored, read on `phone` (which must be allowed to see it).
pub async fn stored_events(phone: &WebDriver, id: &str) -> Vec<serde_json::Value> {
    let (status, text) = page_fetch(phone, &format!("/api/v1/sessions/{id}/export")).await;
    assert_eq!(status, 200, "{text}");
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["events"].as_array().unwrap().clone()
}

/// Waits (up to 30 s: the page tries the queue every few seconds) until the session holds
/// `count` events; returns them.
pub async fn events_once_there_are(
    phone: &WebDriver,
    id: &str,
    count: usize,
) -> Vec<serde_json::Value> {
    let start = std::time::Instant::now();
    loop {
        let events = stored_events(phone, id).await;
        if events.len() >= count || start.elapsed() > Duration::from_secs(30) {
            return events;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// What the script `js` returns on `phone`, waited for (up to 20 s) until it is `want`.
pub async fn until(phone: &WebDriver, js: &str, want: serde_json::Value, what: &str) {
    let start = std::time::Instant::now();
    loop {
        let now = phone
            .execute(js, Vec::new())
            .await
            .map(|r| r.json().clone())
            .unwrap_or(serde_json::Value::Null);
        if now == want {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{what}: {js} is {now}, not {want}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A hand's bidder and bid as stored (`"Ann 250"`).
pub fn bid_of(event: &serde_json::Value) -> String {
    format!(
        "{} {}",
        event["bidder"].as_str().unwrap_or("?"),
        event["bid"]
    )
}

/// A Pitch session (game to 4) whose first hand is corrected and whose third is undone,
/// and a Check Pinochle session of two hands, one corrected.
pub fn sheets_of_other_games() -> Vec<(&'static str, serde_json::Value)> {
    let pitch = |dealer: &str, pitcher: &str, bid: i64, took: [Option<&str>; 4]| {
        serde_json::json!({"type": "hand", "dealer": dealer, "pitcher": pitcher, "bid": bid,
            "points": {"high": took[0], "low": took[1], "jack": took[2], "game": took[3]}})
    };
    let (a, b, c) = (Some("Ann"), Some("Bob"), Some("Cy"));
    let check = |dealer: &str, bidder: &str, bid: i64, ns: (i64, i64), ew: (i64, i64)| {
        serde_json::json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": bid,
            "trump": "hearts", "NS": {"meld": ns.0, "tricks": ns.1},
            "EW": {"meld": ew.0, "tricks": ew.1}})
    };
    vec![
        (
            "pitch",
            serde_json::json!({"format": "scorekeeper/session@1", "game": "auction_pitch",
            "agreements": {"stake": "0.10", "target": 4}, "players": ["Ann", "Bob", "Cy"],
            "events": [
                pitch("Cy", "Ann", 2, [a, a, None, b]),
                pitch("Ann", "Bob", 2, [a, b, b, b]),
                {"type": "correction", "event": 0, "reason": "Game went to Ann",
                 "replacement": pitch("Cy", "Ann", 2, [a, a, None, a])},
                pitch("Bob", "Cy", 3, [c, a, None, b]),
                pitch("Cy", "Ann", 1, [a, c, None, None]),
                {"type": "void", "event": 4, "reason": "misdeal"},
            ]}),
        ),
        (
            "check",
            serde_json::json!({"format": "scorekeeper/session@1", "game": "check_pinochle",
            "agreements": {"stake": "0.25"}, "players": ["Ann", "Bob", "Cy", "Dan"],
            "events": [
                check("Dan", "Ann", 250, (120, 150), (40, 100)),
                check("Ann", "Bob", 300, (60, 90), (150, 160)),
                {"type": "correction", "event": 1, "reason": "EW took 170",
                 "replacement": check("Ann", "Bob", 300, (60, 80), (150, 170))},
            ]}),
        ),
    ]
}
