//! Poker end to end in a real browser at phone width (390 px): a session is created
//! through the new-session form and a high-low hand with two all-ins is entered through
//! the hand form (ante taps, steppers, all-in taps, high and low places), and the sheet is
//! photographed to `target/screenshots/poker-390.png` for a person to look at; and an
//! Omaha Hi-Lo hand with a board and the 8-or-better qualifier (docs/poker-boards.md).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and is
//! skipped, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, assert_landed, choose, fill, script_value, scroll_width, sheet_screenshot, submit,
    text_of, wait_for,
};
use thirtyfour::prelude::*;

/// Taps the tick chip `name` (folded, all-in) in the next-hand form, by its label.
async fn tap(driver: &WebDriver, name: &str) {
    let chip = driver
        .find(By::Css(format!("#next label:has(> input[name='{name}'])")))
        .await
        .unwrap();
    common::browser::tap(driver, &chip).await.unwrap();
}

/// One player's part of the hand: beyond the ante, the high place and the low place.
async fn enter_seat(driver: &WebDriver, player: &str, beyond: &str, place: &str, low: &str) {
    fill(driver, &format!("put_in.{player}"), beyond).await;
    choose(driver, &format!("place.{player}"), place).await;
    choose(driver, &format!("low.{player}"), low).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_high_low_hand_with_two_all_ins_on_a_phone() {
    let Some(browser) = Browser::start("poker").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("poker").await;

    phone
        .goto(format!("{base}/sessions/new?game=poker"))
        .await
        .unwrap();
    for (seat, name) in ["Ann", "Bob", "Cy", "Dee"].iter().enumerate() {
        fill(&phone, &format!("player_{}", seat + 1), name).await;
    }
    fill(&phone, "a.ante", "0.05").await;
    submit(&phone, "form[action='/sessions'] button").await;
    wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;

    // Dee deals, high-low. Everyone's ante (0.05) is tapped already. Ann goes all-in for
    // 0.25 more (0.30), Bob for 0.65 more (0.70); Cy and Dee put in 0.95 more (1.00).
    choose(&phone, "dealer", "Dee").await;
    choose(&phone, "split", "high_low").await;
    // A tick is a chip: 44 px, "all-in" on one line (tests/browser/poker_form.rs).
    let tick = script_value(
        &phone,
        "var s = document.querySelector(\"#next input[name='all_in.Ann'] + span\"); \
         return [s.getBoundingClientRect().height, s.getClientRects().length];",
    )
    .await;
    let height = tick[0].as_f64().unwrap();
    assert!(
        (44.0..=46.0).contains(&height) && tick[1] == 1,
        "the all-in chip is {height} px high: its words wrapped ({tick})"
    );
    enter_seat(&phone, "Ann", "0.25", "2", "1").await;
    tap(&phone, "all_in.Ann").await;
    enter_seat(&phone, "Bob", "0.65", "4", "2").await;
    tap(&phone, "all_in.Bob").await;
    enter_seat(&phone, "Cy", "0.95", "1", "4").await;
    enter_seat(&phone, "Dee", "0.95", "3", "3").await;
    submit(&phone, "#next form.hand-form button[type=submit]").await;
    wait_for(&phone, "high-low pot $3.00", Duration::from_secs(5)).await;
    assert_landed(&phone, "poker").await;

    // Main pot 1.20 (all four): high 0.60 Cy, low 0.60 Ann. Side pot 1, 1.20 (Bob, Cy,
    // Dee): high 0.60 Cy, low 0.60 Bob. Side pot 2, 0.60 (Cy, Dee): high 0.30 Cy, low 0.30
    // Dee. Ann 0.60 − 0.30 = +0.30, Bob 0.60 − 0.70 = −0.10, Cy 1.50 − 1.00 = +0.50, Dee
    // 0.30 − 1.00 = −0.70.
    let page = phone.source().await.unwrap();
    assert!(
        page.contains("Side pot 2, $0.60: Cy and Dee eligible"),
        "{page}"
    );
    let ledger: serde_json::Value = ledger_via_link(&phone).await;
    assert_eq!(
        ledger["balances"],
        serde_json::json!({"Ann": "0.30", "Bob": "-0.10", "Cy": "0.50", "Dee": "-0.70"})
    );
    phone.back().await.unwrap();
    wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;

    let width = scroll_width(&phone).await;
    assert!(width <= 390, "the page fits a 390 px phone ({width})");
    // The whole sheet in one picture, at the phone's 390 px width.
    sheet_screenshot(&phone, "poker-390.png").await;
    phone.quit().await.unwrap();
}

/// On a phone: an Omaha Hi-Lo session with 8-or-better started through the
/// new-session form (the variant from its menu, the qualifier's checkbox ticked), a hand
/// entered with the board and each player's four hole cards, and the ledger checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_omaha_hi_lo_hand_with_a_board_on_a_phone() {
    // Its own name: the two tests run at once and each needs its own database.
    let Some(browser) = Browser::start("poker-board").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("poker").await;
    phone
        .goto(format!("{base}/sessions/new?game=poker"))
        .await
        .unwrap();
    for (seat, name) in ["Ann", "Bob", "Cy"].iter().enumerate() {
        fill(&phone, &format!("player_{}", seat + 1), name).await;
    }
    choose(&phone, "a.variant", "omaha").await;
    phone
        .find(By::Css("input[name='a.eight_or_better']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    submit(&phone, "form[action='/sessions'] button").await;
    wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;

    // Cy deals, high-low; no ante. Ann and Bob put in 0.50, Cy folds after 0.15. Board
    // 2-5-8-K-Q: Ann's KH KD with the KS, three kings, take the high half; Ann's AS 3D and
    // Bob's AC 3H with 2-5-8 tie for low at 8-5-3-2-A. Pot 1.15 = 23 chips: high 12 to Ann
    // (the division's odd chip), low 11 shared 5 and 5, its odd chip to Bob, because Ann
    // already had this pot's (RRP). Ann 0.85 − 0.50 = +0.35, Bob 0.30 − 0.50 = −0.20, Cy
    // −0.15.
    choose(&phone, "dealer", "Cy").await;
    choose(&phone, "split", "high_low").await;
    fill(&phone, "board", "2H 5C 8D KS QS").await;
    fill(&phone, "put_in.Ann", "0.50").await;
    fill(&phone, "cards.Ann", "AS 3D KH KD").await;
    fill(&phone, "put_in.Bob", "0.50").await;
    fill(&phone, "cards.Bob", "AC 3H QD JH").await;
    fill(&phone, "put_in.Cy", "0.15").await;
    tap(&phone, "folded.Cy").await;
    submit(&phone, "#next form.hand-form button[type=submit]").await;
    wait_for(&phone, "high-low pot $1.15", Duration::from_secs(5)).await;
    assert_landed(&phone, "poker").await;
    let ledger: serde_json::Value = ledger_via_link(&phone).await;
    assert_eq!(
        ledger["balances"],
        serde_json::json!({"Ann": "0.35", "Bob": "-0.20", "Cy": "-0.15"})
    );
    phone.back().await.unwrap();
    wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;
    let width = scroll_width(&phone).await;
    assert!(width <= 390, "the page fits a 390 px phone ({width})");
    phone.quit().await.unwrap();
}

/// The session's ledger document, read by the phone itself from the sheet's "ledger" link.
async fn ledger_via_link(phone: &WebDriver) -> serde_json::Value {
    phone
        .find(By::LinkText("ledger"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let text = text_of(phone, By::Tag("body")).await;
    let start = text.find('{').unwrap_or(0);
    serde_json::from_str(&text[start..]).unwrap()
}
