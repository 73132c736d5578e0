//! Auction (money cards) end to end in a real browser at phone width (390 px): a game is
//! created through the new-session form and entered round by round through the hand form as
//! the cards fall, with an overtime in the first round (the tie 7–7 broken by 5 against 3),
//! and the sheet is photographed to `target/screenshots/auction_game-390.png` for a person to
//! look at.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and is
//! skipped, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, assert_landed, choose, fill, scroll_width, sheet_screenshot, submit, wait_for,
};
use thirtyfour::prelude::*;

/// One round through the form: the item turned and each player's bid card.
async fn enter_round(driver: &WebDriver, round: usize, item: &str, ann: &str, bob: &str) {
    choose(driver, &format!("rounds.{round}.item"), item).await;
    choose(driver, &format!("rounds.{round}.bids.Ann"), ann).await;
    choose(driver, &format!("rounds.{round}.bids.Bob"), bob).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_with_an_overtime_is_entered_round_by_round_on_a_phone() {
    let Some(browser) = Browser::start("auction-game").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("auction-game").await;

    phone
        .goto(format!("{base}/sessions/new?game=auction_game"))
        .await
        .unwrap();
    fill(&phone, "player_1", "Ann").await;
    fill(&phone, "player_2", "Bob").await;
    fill(&phone, "a.stake", "0.50").await;
    submit(&phone, "form[action='/sessions'] button").await;
    wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;

    // Round 1: a Q, both bid 7: overtime. The phone opens the overtime and both add a card:
    // Ann 5 beats Bob 3, so Ann buys the Q for 7 + 5 = 12 and Bob takes his 7 and 3 back.
    enter_round(&phone, 0, "Q", "7", "7").await;
    submit(&phone, "#next #round-0 details.overtime summary").await;
    choose(&phone, "rounds.0.overtime.0.Ann", "5").await;
    choose(&phone, "rounds.0.overtime.0.Bob", "3").await;
    // The other rounds as the cards fell (the public case AU-04).
    let rest = [
        ("Q", "2", "7"),
        ("K", "10", "4"),
        ("K", "2", "9"),
        ("A", "9", "8"),
        ("A", "3", "10"),
        ("J", "4", "2"),
        ("J", "2", "5"),
    ];
    for (i, (item, ann, bob)) in rest.iter().enumerate() {
        enter_round(&phone, i + 1, item, ann, bob).await;
    }
    // The Joker came last: it ends the game.
    choose(&phone, "rounds.8.item", "JOKER").await;
    submit(&phone, "#next form.hand-form button[type=submit]").await;
    // Ann Q K A J = 10 for 12 + 10 + 9 + 4 = 35; Bob Q K A J = 10 for 7 + 9 + 10 + 5 = 31:
    // items tie, Bob spent less and wins; Ann pays him the 0.50 stake.
    wait_for(&phone, "Bob wins", Duration::from_secs(5)).await;
    assert_landed(&phone, "auction_game").await;
    let page = phone.source().await.unwrap();
    assert!(page.contains("1 overtime"), "the overtime is marked");
    assert!(page.contains("cards left 2 3 6 8"), "Ann's cards left");
    assert!(page.contains("cards left 2 3 4 6 8"), "Bob's cards left");
    assert!(page.contains("Ann pays Bob $0.50"));

    let width = scroll_width(&phone).await;
    assert!(width <= 390, "the page fits a 390 px phone ({width})");
    sheet_screenshot(&phone, "auction_game-390.png").await;
    phone.quit().await.unwrap();
}
