//! One whole game of Partnership Aeroplane Pinochle (rules §1.6) played through the forms
//! in a real browser at phone width (390 px): the new-session form, four played deals and
//! one where all four passed, to NS's win at 1,000 with each loser paying his opposite
//! number. The sheet is written to `target/screenshots/partnership_auction_pinochle-390.png`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (skipped with a note without them,
//! except under CI).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, assert_landed, choose, fill, scroll_width, sheet_screenshot, submit, wait_for,
};
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(5);

/// Enters a played deal: dealer, bidder, bid, trump, both melds and NS's trick points (EW's
/// are the rest of the 250), then presses "Enter the hand".
#[allow(clippy::too_many_arguments)]
async fn enter_deal(
    driver: &WebDriver,
    dealer: &str,
    bidder: &str,
    bid: &str,
    trump: &str,
    ns_meld: &str,
    ns_tricks: &str,
    ew_meld: &str,
) {
    choose(driver, "dealer", dealer).await;
    choose(driver, "bidder", bidder).await;
    fill(driver, "bid", bid).await;
    choose(driver, "trump", trump).await;
    fill(driver, "NS.meld", ns_meld).await;
    fill(driver, "NS.tricks", ns_tricks).await;
    fill(driver, "EW.meld", ew_meld).await;
    submit(
        driver,
        "#next form.hand-form button[type=submit]:not([name])",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_aeroplane_game_through_the_forms_at_390_px() {
    let Some(browser) = Browser::start("partnership-auction-pinochle").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("keeper").await;

    phone
        .goto(format!(
            "{base}/sessions/new?game=partnership_auction_pinochle"
        ))
        .await
        .unwrap();
    fill(&phone, "player_1", "Ann").await;
    fill(&phone, "player_2", "Bob").await;
    fill(&phone, "player_3", "Cy").await;
    fill(&phone, "player_4", "Dan").await;
    fill(&phone, "a.stake", "0.50").await;
    choose(&phone, "a.aeroplane", "yes").await;
    submit(&phone, "form[action='/sessions'] button").await;
    wait_for(&phone, "Aeroplane: bids from 250", WAIT).await;

    // 1. Ann (NS) 250 ♥: NS 100 + 170 = 270 ≥ 250 → +270; EW 60 + 80 = +140.
    enter_deal(&phone, "Dan", "Ann", "250", "hearts", "100", "170", "60").await;
    wait_for(&phone, "→ NS 270, EW 140", WAIT).await;
    assert_landed(&phone, "partnership_auction_pinochle").await;
    // 2. All four pass on Ann's deal: no score, Bob deals next.
    choose(&phone, "dealer", "Ann").await;
    submit(&phone, "#next form.hand-form button[name=all_passed]").await;
    wait_for(&phone, "all passed: Bob deals next", WAIT).await;
    // 3. Cy (NS) 300 ♠: NS 150 + 160 = 310 → 580; EW 40 + 90 = 130 → 270.
    enter_deal(&phone, "Bob", "Cy", "300", "spades", "150", "160", "40").await;
    wait_for(&phone, "→ NS 580, EW 270", WAIT).await;
    // 4. Dan (EW) 350 ♣: EW 80 + 100 = 180 < 350 → 270 − 350 = −80; NS 20 + 150 → 750.
    enter_deal(&phone, "Cy", "Dan", "350", "clubs", "20", "150", "80").await;
    wait_for(&phone, "→ NS 750, EW −80", WAIT).await;
    wait_for(&phone, "EW in the hole", WAIT).await;
    // 5. Ann (NS) 300 ♦: NS 140 + 200 = 340 → 1,090 ≥ 1,000: NS win; EW 0 + 50 → −30.
    enter_deal(&phone, "Dan", "Ann", "300", "diamonds", "140", "200", "0").await;
    wait_for(&phone, "Game 1: NS wins", WAIT).await;
    // Each EW player pays his opposite number the 0.50 stake.
    wait_for(&phone, "Bob pays Ann $0.50, Dan pays Cy $0.50", WAIT).await;

    let width = scroll_width(&phone).await;
    assert!(width <= 390, "the page fits a 390 px phone ({width})");
    sheet_screenshot(&phone, "partnership_auction_pinochle-390.png").await;
    phone.quit().await.unwrap();
}
