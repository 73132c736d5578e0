//! Two-handed Pinochle end to end in a real browser at phone width (390 px): a match game
//! is created through the new-session form and played to its end through the hand form (a
//! turned-up dix, one player's tricks per deal, a declare-out), and the sheet is
//! photographed to `target/screenshots/two_handed_pinochle-390.png` for a person to look
//! at.
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

/// One deal through the form: the dealer, the dix tap, both melds, ONE player's tricks
/// (Ann's), and how the deal ended (`""` played out, else the claimant).
async fn enter_deal(
    driver: &WebDriver,
    dealer: &str,
    dix: bool,
    melds: [&str; 2],
    ann_tricks: &str,
    claimant: &str,
) {
    choose(driver, "dealer", dealer).await;
    choose(driver, "turn_up_dix", if dix { "true" } else { "" }).await;
    fill(driver, "melds.Ann", melds[0]).await;
    fill(driver, "melds.Bob", melds[1]).await;
    fill(driver, "tricks.Ann", ann_tricks).await;
    choose(driver, "claimant", claimant).await;
    submit(driver, "#next form.hand-form button[type=submit]").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_game_is_played_to_its_end_on_a_phone() {
    let Some(browser) = Browser::start("two-handed").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("two-handed").await;

    phone
        .goto(format!("{base}/sessions/new?game=two_handed_pinochle"))
        .await
        .unwrap();
    fill(&phone, "player_1", "Ann").await;
    fill(&phone, "player_2", "Bob").await;
    fill(&phone, "a.stake", "0.50").await;
    choose(&phone, "a.mode", "match").await;
    submit(&phone, "form[action='/sessions'] button").await;
    wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;

    // Deal 1: Bob deals and turns up the dix. Ann melds 500 and counts 130 trick points;
    // Bob melds 200 and has 250 − 130 = 120. Ann 500 + 130 = 630; Bob 200 + 120 + 10 = 330.
    enter_deal(&phone, "Bob", true, ["500", "200"], "130", "").await;
    wait_for(&phone, "+10 dix turned up", Duration::from_secs(5)).await;
    assert_landed(&phone, "two_handed_pinochle").await;
    // Deal 2: Ann deals. Ann 200 + 57 → 60 = 260 → 890; Bob 150 + 193 → 190 = 340 → 670.
    enter_deal(&phone, "Ann", false, ["200", "150"], "57", "").await;
    wait_for(&phone, "tricks 57 → 60", Duration::from_secs(5)).await;
    assert!(
        phone
            .source()
            .await
            .unwrap()
            .contains("Game 1 is unfinished (Ann 890, Bob 670, game 1,000)"),
        "the close button says an open game pays nothing"
    );
    // Deal 3: Ann melds 100 and declares out with 17 trick points so far: 890 + 100 + 17 →
    // 20 = 1,010, at least 1,000: she wins game 1 and Bob pays her 0.50.
    enter_deal(&phone, "Bob", false, ["100", ""], "17", "Ann").await;
    wait_for(&phone, "Game 1: Ann wins", Duration::from_secs(5)).await;
    let page = phone.source().await.unwrap();
    assert!(
        page.contains("out at 1,010"),
        "the declare-out row is marked"
    );
    assert!(page.contains("Bob pays Ann $0.50, the stake per game won"));
    assert!(page.contains("Game 2 now"), "the next game starts from 0");

    let width = scroll_width(&phone).await;
    assert!(width <= 390, "the page fits a 390 px phone ({width})");
    sheet_screenshot(&phone, "two_handed_pinochle-390.png").await;
    phone.quit().await.unwrap();
}
