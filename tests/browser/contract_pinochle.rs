//! Contract Pinochle end to end in a real browser at phone width (rules §1.8): a session is
//! started from the new-session form, one game to 3,000 is played through the hand form (a
//! hand entered with the Enter key, an all-pass deal, a refusal, a concession), and the
//! whole sheet, with the game's end and its payments, is photographed as
//! `target/screenshots/contract_pinochle-390.png`.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and is
//! skipped, except under CI, where it fails (`tests/common/browser.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, assert_landed, choose, fill, scroll_width, sheet_screenshot, submit, wait_for,
};
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(5);

/// Fills the next-hand form with a played hand.
async fn fill_hand(
    driver: &WebDriver,
    dealer: &str,
    bidder: &str,
    bid: &str,
    trump: &str,
    doubled: &str,
    outcome: &str,
) {
    choose(driver, "dealer", dealer).await;
    // The bidder is a chip: no bidder is no tap (the refusal below asks for one).
    if !bidder.is_empty() {
        choose(driver, "bidder", bidder).await;
    }
    fill(driver, "bid", bid).await;
    choose(driver, "trump", trump).await;
    choose(driver, "doubled", doubled).await;
    choose(driver, "outcome", outcome).await;
}

/// Clicks the form's main button, "Enter the hand".
async fn enter(driver: &WebDriver) {
    submit(
        driver,
        "#next form.hand-form button[type=submit]:not([name])",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_game_of_contract_pinochle_to_3000_on_a_phone() {
    let Some(browser) = Browser::start("contract-pinochle").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("keeper").await;

    phone.goto(format!("{base}/clubs/new")).await.unwrap();
    fill(&phone, "name", "Contract Club").await;
    fill(&phone, "passphrase", "double and redouble").await;
    fill(&phone, "again", "double and redouble").await;
    submit(&phone, "form[action='/clubs'] button").await;
    wait_for(&phone, "Share link", WAIT).await;

    // Ann & Cy (NS) against Bob & Dan (EW), 0.25 a game, game at 3,000 (the defaults).
    phone
        .goto(format!("{base}/sessions/new?game=contract_pinochle"))
        .await
        .unwrap();
    fill(&phone, "player_1", "Ann").await;
    fill(&phone, "player_2", "Bob").await;
    fill(&phone, "player_3", "Cy").await;
    fill(&phone, "player_4", "Dan").await;
    fill(&phone, "a.stake", "0.25").await;
    fill(&phone, "a.target", "3000").await;
    submit(&phone, "form[action='/sessions'] button").await;
    wait_for(&phone, "Score sheet", WAIT).await;

    // 1. Ann bids 500 in spades, Bob doubles, Ann makes it: NS 500 × 2 = 1,000. Entered
    //    with the Enter key in the bid field: Enter records what the form shows.
    fill_hand(&phone, "Ann", "Ann", "500", "spades", "doubled", "made").await;
    phone
        .find(By::Css("#next input[name='bid']"))
        .await
        .unwrap()
        .send_keys(Key::Enter)
        .await
        .unwrap();
    wait_for(&phone, "NS +1000 (bid 500 × 2 doubled made", WAIT).await;
    assert_landed(&phone, "contract_pinochle").await;

    // 2. All four pass on Bob's deal: no score, Cy deals next.
    choose(&phone, "dealer", "Bob").await;
    submit(&phone, "#next form.hand-form button[name='all_passed']").await;
    wait_for(&phone, "all passed: Cy deals and bids first", WAIT).await;

    // 3. Entered without a bidder, the hand is refused with the field named and the rest
    //    kept; then Dan's 300 is conceded before the lead: NS get half of 300 = 150 → 1,150.
    fill_hand(
        &phone,
        "Cy",
        "",
        "300",
        "hearts",
        "no",
        "conceded_before_lead",
    )
    .await;
    enter(&phone).await;
    wait_for(
        &phone,
        "Bidder: who won the bid? (or press All passed)",
        WAIT,
    )
    .await;
    choose(&phone, "bidder", "Dan").await;
    enter(&phone).await;
    wait_for(&phone, "NS +150 (half of bid 300", WAIT).await;

    // 4. Cy bids 470 in diamonds, redoubled, and EW concede: NS + 470 × 4 = 1,880 → 3,030
    //    ≥ 3,000: NS win. Bob pays Ann 0.25 and Dan pays Cy 0.25.
    fill_hand(
        &phone,
        "Dan",
        "Cy",
        "470",
        "diamonds",
        "redoubled",
        "opponents_conceded",
    )
    .await;
    enter(&phone).await;
    wait_for(&phone, "NS reach 3030 (game 3000) and win game 1", WAIT).await;
    wait_for(&phone, "Bob pays Ann $0.25, Dan pays Cy $0.25", WAIT).await;

    sheet_screenshot(&phone, "contract_pinochle-390.png").await;
    let width = scroll_width(&phone).await;
    assert!(width <= 390, "the page fits a 390 px phone ({width})");
    phone.quit().await.unwrap();
}
