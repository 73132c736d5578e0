//! House games on a 390 × 844 phone (rules §1.12), light and dark: a Hearts evening of
//! four through the hand form (chips that add, the new totals as typed, a wrong sum
//! stopped before Enter in the table's words, a shot moon in one tap) with the writer's
//! and the watcher's first screens naming who leads and what ending now would pay; and
//! the presets, one tap filling in Hearts, with a ten-player form that fits the phone.
//! Pictures: `target/screenshots/house-hearts-4-{writer,watcher}-390-{light,dark}.png`,
//! `house-hearts-form-390-….png`, `house-presets-390-….png`, `house-10-form-390-….png`.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and is
//! skipped, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, dark_mode, screen_screenshot, script_value, scroll_width, section_screenshot, tap,
    text_of, wait_for,
};
use common::entry::{Taps, events, open_session};
use common::tables::largest_tables;
use serde_json::{Value, json};
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(5);
const FOUR: [&str; 4] = ["Al", "Bo", "Cy", "Di"];

/// Hearts as the preset makes it, 0.05 a point, after HG-02's first three hands: Al 49,
/// Bo 32, Cy 13, Di 36.
fn hearts() -> Value {
    let hands = [[10, 6, 0, 10], [26, 26, 0, 26], [13, 0, 13, 0]];
    common::tables::hearts(FOUR, &hands, &[])
}

/// Taps the add-chip `label` ("+5") under `player`'s number on the next-hand form.
async fn add(phone: &WebDriver, player: &str, label: &str) {
    let button = phone
        .find(By::Css(format!(
            "#next .house-row:has(input[name='points.{player}']) button[aria-label='{player} {label}']"
        )))
        .await
        .unwrap();
    tap(phone, &button).await.unwrap();
}

/// The screen in light and in dark as `{name}-390-{scheme}.png`; back in light after.
async fn light_and_dark(phone: &WebDriver, name: &str) {
    for dark in [false, true] {
        let scheme = if dark { "dark" } else { "light" };
        dark_mode(phone, dark).await;
        screen_screenshot(phone, format!("{name}-390-{scheme}.png")).await;
    }
    dark_mode(phone, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hearts_evening_of_four_on_the_form_and_the_first_screens() {
    let Some(browser) = Browser::start("house-hearts").await else {
        return;
    };
    let phone = browser.phone("house-hearts").await;
    let id = open_session(&browser, &phone, hearts()).await;
    // Hand 4 (HG-02's): Al 0, Bo 20, Cy 3, Di 3, made with chips and typing; first a sum
    // of 25, which the form stops before Enter in the table's words.
    add(&phone, "Bo", "+10").await;
    add(&phone, "Bo", "+10").await;
    let mut taps = Taps::new(&phone);
    taps.typed("points.Cy", "3").await;
    taps.typed("points.Di", "2").await;
    let new_total = text_of(&phone, By::Css("[data-total-for='points.Bo']")).await;
    assert_eq!(new_total.trim(), "→ 52", "Bo's 32 + 20 as typed");
    taps.button("#next form.hand-form button[type=submit]")
        .await;
    let sum = text_of(&phone, By::Css("#next .hand-sum")).await;
    assert!(
        sum.contains("adds up to 25: every hand adds up to 26 or 78"),
        "{sum}"
    );
    assert_eq!(events(&phone, id).await.len(), 3, "nothing written");
    section_screenshot(&phone, "next", "house-hearts-form-390-light.png").await;
    add(&phone, "Di", "+1").await;
    taps.enter("house_game").await;
    let last = events(&phone, id).await.pop().unwrap();
    assert_eq!(last["points"], json!({"Al": 0, "Bo": 20, "Cy": 3, "Di": 3}));
    // Hand 5: Cy shoots the moon, one tap: 26 to every other player.
    let moon = phone
        .find(By::Css("#next .house-moon button[value='Cy']"))
        .await
        .unwrap();
    tap(&phone, &moon).await.unwrap();
    for _ in 0..50 {
        if events(&phone, id).await.len() == 5 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let last = events(&phone, id).await.pop().unwrap();
    assert_eq!(
        last["points"],
        json!({"Al": 26, "Bo": 26, "Cy": 0, "Di": 26})
    );
    // Totals Al 75, Bo 78, Cy 16, Di 65, S = 234: low leads, Cy; ending now pays
    // 0.05 × (234 − 4s): Al −3.30, Bo −3.90, Cy +8.50, Di −1.30; 22 to go to 100.
    phone
        .goto(format!("{}/sessions/{id}", browser.base))
        .await
        .unwrap();
    wait_for(&phone, "Ending now pays", WAIT).await;
    let outlook = text_of(&phone, By::Css("p.outlook")).await;
    assert!(outlook.contains("Cy leads; 22 to go to 100"), "{outlook}");
    assert!(
        outlook
            .contains("Al −\u{2060}$3.30, Bo −\u{2060}$3.90, Cy +\u{2060}$8.50, Di −\u{2060}$1.30"),
        "{outlook}"
    );
    let on_screen = script_value(
        &phone,
        "var r = document.querySelector('p.outlook').getBoundingClientRect(); return r.bottom <= innerHeight;",
    )
    .await;
    assert_eq!(
        on_screen,
        json!(true),
        "the writer's first screen holds the outlook"
    );
    assert!(scroll_width(&phone).await <= 390, "the sheet fits 390 px");
    light_and_dark(&phone, "house-hearts-4-writer").await;
    // The watcher's phone, by the read link.
    let doc: scorekeeper::format::SessionDoc = serde_json::from_value(hearts()).unwrap();
    let (watched, links) = scorekeeper::service::import_linked(&browser.store, &doc)
        .await
        .unwrap();
    let watcher = browser.phone("house-watcher").await;
    watcher
        .goto(format!("{}{}", browser.base, links.read_path(watched)))
        .await
        .unwrap();
    wait_for(&watcher, "Standings", WAIT).await;
    let now = text_of(&watcher, By::Css("#now")).await;
    assert!(now.contains("Cy leads"), "{now}");
    assert!(now.contains("Ending now pays"), "{now}");
    light_and_dark(&watcher, "house-hearts-4-watcher").await;
    watcher.quit().await.unwrap();
    phone.quit().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_presets_in_one_tap_and_ten_players_fit_the_phone() {
    let Some(browser) = Browser::start("house-presets").await else {
        return;
    };
    let phone = browser.phone("house-presets").await;
    phone
        .goto(format!("{}/sessions/new?game=house_game", browser.base))
        .await
        .unwrap();
    wait_for(&phone, "One tap fills in the agreements", WAIT).await;
    assert!(scroll_width(&phone).await <= 390, "the presets fit 390 px");
    light_and_dark(&phone, "house-presets").await;
    let hearts = phone
        .find(By::XPath("//nav[@class='presets']//a[b='Hearts']"))
        .await
        .unwrap();
    tap(&phone, &hearts).await.unwrap();
    wait_for(&phone, "New House game session", WAIT).await;
    let value = |name: &'static str| {
        let phone = phone.clone();
        async move {
            phone
                .find(By::Css(format!("[name='a.{name}']")))
                .await
                .unwrap()
                .prop("value")
                .await
                .unwrap()
                .unwrap_or_default()
        }
    };
    assert_eq!(value("name").await, "Hearts");
    assert_eq!(value("winner").await, "low");
    assert_eq!(value("target").await, "100");
    assert_eq!(value("hand_totals").await, "26, 78");

    let (_, ten) = largest_tables()
        .into_iter()
        .find(|(g, _)| *g == "house_game")
        .unwrap();
    open_session(&browser, &phone, ten).await;
    let width = scroll_width(&phone).await;
    assert!(
        width <= 390,
        "ten players' hand form fits a 390 px phone ({width})"
    );
    let rows = script_value(
        &phone,
        "return document.querySelectorAll('#next .house-row input[data-running]').length;",
    )
    .await;
    assert_eq!(rows, json!(10));
    for dark in [false, true] {
        let scheme = if dark { "dark" } else { "light" };
        dark_mode(&phone, dark).await;
        section_screenshot(&phone, "next", &format!("house-10-form-390-{scheme}.png")).await;
    }
    phone.quit().await.unwrap();
}
