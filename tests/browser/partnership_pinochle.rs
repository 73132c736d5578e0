//! Partnership Pinochle in a real browser at phone width (390 px): a session is created,
//! two deals go in through the hand form (dix taps, one side's tricks), a refused entry
//! names its field, and a player declares out through the folded declare-out form, which
//! ends game 1 with its payments. A screenshot of the sheet is written to
//! `target/screenshots/partnership_pinochle-390.png` for a person to look at.
//!
//! Needs Debian's `chromium` and `chromium-driver`; skipped without them, except under CI.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, assert_landed, choose, fill, scroll_width, sheet_screenshot, submit, wait_for,
};
use thirtyfour::prelude::*;

const HAND_BUTTON: &str = "#next form.partnership-hand-form button[type=submit]";

async fn tap(driver: &WebDriver, name: &str) {
    submit(driver, &format!("#next input[name='{name}']")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_game_to_its_end_through_the_forms_at_390_px() {
    let Some(browser) = Browser::start("partnership-pinochle").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("table").await;
    let wait = Duration::from_secs(5);

    phone
        .goto(format!("{base}/sessions/new?game=partnership_pinochle"))
        .await
        .unwrap();
    for (i, name) in ["Ann", "Bob", "Cy", "Dan"].iter().enumerate() {
        fill(&phone, &format!("player_{}", i + 1), name).await;
    }
    fill(&phone, "a.stake", "0.50").await;
    submit(&phone, "form[action='/sessions'] button").await;
    wait_for(&phone, "Someone declares out", wait).await;

    // Deal 1: Ann deals hearts and turns up a dix; Cy was dealt the other. NS meld 300 +
    // dix 20 + tricks 180 = 500; EW meld 40 + tricks 250 − 180 = 70 → 110.
    choose(&phone, "dealer", "Ann").await;
    choose(&phone, "trump", "hearts").await;
    tap(&phone, "turn_up_dix").await;
    tap(&phone, "dix_holders.Cy").await;
    fill(&phone, "NS.meld", "300").await;
    fill(&phone, "EW.meld", "40").await;
    fill(&phone, "NS.tricks", "180").await;
    submit(&phone, HAND_BUTTON).await;
    wait_for(&phone, "NS +500 (meld 300 + dix 20 + tricks 180)", wait).await;
    assert_landed(&phone, "partnership_pinochle").await;

    // A slip: both sides' tricks typed, and they make 255, not 250. (The browser itself
    // already stops a count that is not a multiple of 5, by the inputs' step.)
    choose(&phone, "trump", "spades").await;
    fill(&phone, "NS.meld", "200").await;
    fill(&phone, "NS.tricks", "160").await;
    fill(&phone, "EW.tricks", "95").await;
    submit(&phone, HAND_BUTTON).await;
    wait_for(&phone, "NS 160 + EW 95 = 255 trick points", wait).await;
    assert!(
        phone
            .find(By::Css("input[name='EW.tricks'][aria-invalid='true']"))
            .await
            .is_ok(),
        "the refused field is marked"
    );

    // Deal 2 (Bob deals, pre-selected): only EW's tricks this time. NS meld 200 + 250 −
    // 100 = 350 → 850; EW 0 + 100 → 210.
    fill(&phone, "NS.tricks", "").await;
    fill(&phone, "EW.tricks", "100").await;
    submit(&phone, HAND_BUTTON).await;
    wait_for(&phone, "NS +350 (meld 200 + tricks 150)", wait).await;
    wait_for(&phone, "is unfinished: closing now pays nothing", wait).await;

    // Cy declares out: 850 + meld 100 + 60 so far = 1,010 ≥ 1,000: NS win game 1; Bob pays
    // Ann and Dan pays Cy 0.50 each.
    submit(&phone, "details.declare-out summary").await;
    choose(&phone, "claimant", "Cy").await;
    fill(&phone, "meld", "100").await;
    fill(&phone, "tricks_so_far", "60").await;
    submit(&phone, "form.declare-out-form button[type=submit]").await;
    wait_for(&phone, "Game 1: NS wins", wait).await;
    let source = phone.source().await.unwrap();
    assert!(source.contains("850 + meld 100 + tricks so far 60 = 1,010 ≥ 1,000"));
    assert!(source.contains("Bob pays Ann $0.50, Dan pays Cy $0.50"));

    // The whole sheet in one picture: the same 390 px width, a viewport tall enough for
    // every row (an element screenshot is clipped to the viewport).
    let width = scroll_width(&phone).await;
    assert!(width <= 390, "the page fits a 390 px phone ({width})");
    sheet_screenshot(&phone, "partnership_pinochle-390.png").await;
    phone.quit().await.unwrap();
}
