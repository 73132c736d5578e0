//! A night's page in the table's words: its evening's day rather than an ISO date, each
//! session named by its game as played (poker by its variant), and where everyone stands
//! sorted as a session's standings are.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{select_attr, select_text};
use common::nights::{import_to_club, make_night, pitch};
use scorekeeper::format::SessionDoc;
use serde_json::json;

/// A poker session just begun (no hand yet) with Ann, Bob and Zoe under `agreements`.
fn poker(agreements: serde_json::Value) -> SessionDoc {
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "poker", "currency": "USD",
        "agreements": agreements, "players": ["Ann", "Bob", "Zoe"], "events": []
    }))
    .unwrap()
}

/// Sets when session `id` started (UTC, RFC 3339), as if it had been begun then.
async fn started(app: &TestApp, id: i64, at: &str) {
    app.exec(&format!(
        "UPDATE sessions SET created_at = '{at}' WHERE id = {id}"
    ))
    .await
    .unwrap();
}

#[tokio::test]
async fn a_night_without_a_title_is_named_by_its_evening_in_words() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday club").await;
    let a = import_to_club(&app, club, &pitch("Ann", "Bob")).await;
    let b = import_to_club(&app, club, &pitch("Bob", "Ann")).await;
    // Begun on a Thursday evening (UTC), grouped into a night days later.
    started(&app, a, "2026-11-19T19:30:00Z").await;
    started(&app, b, "2026-11-19T21:05:00Z").await;
    let (page, _) = make_night(&app, &cookie, club, &[b, a], "").await;
    let page = app.page(&cookie, &page).await;
    assert_eq!(select_text(&page, "h1"), ["Thursday 19 November 2026"]);
    assert_eq!(
        select_text(&page, "title"),
        ["Thursday 19 November 2026 · Scorekeeper"]
    );
    // The day is the first session's start, as a time the phone's script shows in its
    // own zone (the UTC day without script): never a day the service made up.
    assert_eq!(
        select_attr(&page, "h1 time[data-day]", "datetime"),
        ["2026-11-19T19:30:00Z"]
    );
    assert!(page.contains("<script src=\"/static/history.js?v="));
    assert!(!page.contains("Night of"), "no ISO date in its name");

    // A night with a title of its own is called by it.
    let c = import_to_club(&app, club, &pitch("Ann", "Bob")).await;
    let (titled, _) = make_night(&app, &cookie, club, &[c], "Thursday at Sal's").await;
    let titled = app.page(&cookie, &titled).await;
    assert_eq!(select_text(&titled, "h1"), ["Thursday at Sal's"]);
    assert!(select_attr(&titled, "h1 time", "datetime").is_empty());
}

/// A night of `sessions` (documents) at a new club, titled "Poker night": its page.
async fn night_of(app: &TestApp, sessions: &[SessionDoc]) -> String {
    let (club, cookie) = app.new_club("Poker club").await;
    let mut ids = Vec::new();
    for doc in sessions {
        ids.push(import_to_club(app, club, doc).await);
    }
    let (page, _) = make_night(app, &cookie, club, &ids, "Poker night").await;
    app.page(&cookie, &page).await
}

#[tokio::test]
async fn a_nights_sessions_are_named_by_their_game_and_poker_by_its_variant() {
    let app = TestApp::new().await;
    let page = night_of(
        &app,
        &[
            pitch("Bob", "Ann"),
            poker(json!({"smallest_unit": "0.05"})),
            poker(json!({"smallest_unit": "0.05", "variant": "holdem"})),
            poker(json!({"smallest_unit": "0.05", "variant": "omaha", "eight_or_better": true})),
        ],
    )
    .await;
    assert_eq!(
        select_text(&page, "h1 + p a[href^=\"/sessions/\"]"),
        [
            "Auction Pitch",
            "Poker (own cards)",
            "Hold'em",
            "Omaha 8-or-better"
        ]
    );
}

#[tokio::test]
async fn a_nights_standings_put_the_largest_winner_first_and_ties_by_name() {
    let app = TestApp::new().await;
    let page = night_of(
        &app,
        &[
            pitch("Bob", "Ann"),
            pitch("Cy", "Eve"),
            poker(json!({"smallest_unit": "0.05"})),
        ],
    )
    .await;
    // Bob +2.80, Ann −1.60, Dee −1.20 and Cy +2.80, Eve −1.60, Dee −1.20: the largest
    // winner first, a tie by name, Zoe's nothing between the winners and the losers.
    let who = select_text(&page, "dl.night-net dt");
    let money = select_text(&page, "dl.night-net dd");
    let rows: Vec<(&str, &str)> = who
        .iter()
        .map(String::as_str)
        .zip(money.iter().map(String::as_str))
        .collect();
    assert_eq!(
        rows,
        [
            ("Bob", "$2.80"),
            ("Cy", "$2.80"),
            ("Zoe", "$0.00"),
            ("Ann", "−\u{2060}$1.60"),
            ("Eve", "−\u{2060}$1.60"),
            ("Dee", "−\u{2060}$2.40"),
        ]
    );
}
