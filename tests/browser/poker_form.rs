//! The poker hand form and sheet on a 390 × 844 phone, one hand held: the ante, fold and
//! all-in ticks are chips like the showdown places; *Enter the hand* is within two
//! screens at a six-handed Hold'em table with a showdown filled in; the form writes money
//! as the sheet does ("anted $0.05"); ten players' money on the sheet reads at 12 px or
//! more; and the what-if box shows the hand's sentence (who won) without scrolling inside
//! it. The form is written to `target/screenshots/poker-form-6-390-{light,dark}.png`, the
//! ten-handed sheet to `poker-10-sheet-390-{light,dark}.png`.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and is
//! skipped, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, dark_mode, fill, screen_screenshot, script_value, section_screenshot, tap,
};
use common::entry::open_session;
use common::tables::{LONG_TEN, doc, real_evenings};
use serde_json::json;
use thirtyfour::prelude::*;

/// Six at a Hold'em table: the first six of the longest names.
fn six() -> &'static [&'static str] {
    &LONG_TEN[..6]
}

/// Opens the scorer's sheet of a new six-handed Hold'em session with a 5¢ ante.
async fn six_at_holdem(browser: &Browser, phone: &WebDriver) {
    let ante = json!({"smallest_unit": "0.05", "ante": "0.05", "variant": "holdem"});
    open_session(browser, phone, doc("poker", ante, six(), json!([]))).await;
}

/// Taps the label of the next-hand form's checkbox `name` (a tick chip, as a finger does).
async fn tick(phone: &WebDriver, name: &str) {
    let chip = phone
        .find(By::Css(format!("#next label:has(> input[name='{name}'])")))
        .await
        .unwrap();
    tap(phone, &chip).await.unwrap();
}

/// Taps the showdown place `place` of `player` in the next-hand form.
async fn place(phone: &WebDriver, player: &str, place: &str) {
    let chip = phone
        .find(By::Css(format!(
            "#next label:has(> input[name='place.{player}'][value='{place}'])"
        )))
        .await
        .unwrap();
    tap(phone, &chip).await.unwrap();
}

/// A hand of six at Hold'em: the board, three fold before the flop, three go to the
/// showdown, placed 1, 2, 3.
async fn fill_a_showdown(phone: &WebDriver) {
    fill(phone, "board", "AH KD 7C 7S 2D").await;
    for p in &six()[3..] {
        tick(phone, &format!("folded.{p}")).await;
    }
    for (p, n) in six()[..3].iter().zip(["1", "2", "3"]) {
        fill(phone, &format!("put_in.{p}"), "0.50").await;
        place(phone, p, n).await;
    }
}

/// `[first scroll at which Enter is wholly on the screen, its bottom then measured from
/// the top of the page, the bottom of its place in the page were it not kept in view]`.
async fn enter_reach(phone: &WebDriver) -> serde_json::Value {
    script_value(
        phone,
        "var b = document.querySelector('#next form.hand-form button[type=submit]');\
         var seen = null, end = document.documentElement.scrollHeight;\
         for (var y = 0; y <= end; y += 10) {\
           window.scrollTo(0, y); var r = b.getBoundingClientRect();\
           if (r.top >= 0 && r.bottom <= innerHeight) { seen = [window.scrollY, window.scrollY + r.bottom]; break; }\
         }\
         var keep = b.style.position; b.style.position = 'static';\
         var natural = b.getBoundingClientRect().bottom + window.scrollY;\
         b.style.position = keep; window.scrollTo(0, 0);\
         return [seen && seen[0], seen && seen[1], natural];",
    )
    .await
}

/// Each tick of the next-hand form: `[name, its words, height, shaped as a place chip,
/// lines of words, width]`.
async fn tick_chips(phone: &WebDriver) -> serde_json::Value {
    script_value(
        phone,
        "var place = document.querySelector(\"#next input[name^='place.'] + span\");\
         var want = getComputedStyle(place).borderRadius;\
         return Array.from(document.querySelectorAll(\"#next input[type=checkbox][name*='.']\"))\
           .map(function (i) { var l = i.closest('label'), s = i.nextElementSibling;\
             var words = s && s.tagName === 'SPAN' ? s : l; var r = words.getBoundingClientRect();\
             return [i.name, words.textContent.trim(), r.height, getComputedStyle(words).borderRadius === want,\
                     words.getClientRects().length, Math.round(r.width)]; });",
    )
    .await
}

/// In light and then dark: the section `id` photographed whole as `{names[0]}-390-…png`,
/// then the screen once `scroll` has run as `{names[1]}-390-…png`; back in light after.
async fn light_and_dark(phone: &WebDriver, id: &str, scroll: &str, names: [&str; 2]) {
    for dark in [false, true] {
        let scheme = if dark { "dark" } else { "light" };
        dark_mode(phone, dark).await;
        section_screenshot(phone, id, &format!("{}-390-{scheme}.png", names[0])).await;
        script_value(phone, scroll).await;
        screen_screenshot(phone, format!("{}-390-{scheme}.png", names[1])).await;
    }
    dark_mode(phone, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_at_holdem_tick_chips_and_enter_within_two_screens() {
    let Some(browser) = Browser::start("poker-form").await else {
        return;
    };
    let phone = browser.phone("poker-form").await;
    six_at_holdem(&browser, &phone).await;

    // The ticks read as the showdown places do: chips of 44 px, their words on one line.
    let chips = tick_chips(&phone).await;
    let quick = script_value(
        &phone,
        "return Array.from(document.querySelectorAll(\"#next button.quick[data-for='put_in.Alessandra']\"))\
           .map(function (b) { return b.textContent; });",
    )
    .await;
    fill_a_showdown(&phone).await;
    // The screen as the thumb sees it halfway down the seats, Enter at its foot.
    let halfway =
        "document.querySelectorAll('#next fieldset.side-form')[2].scrollIntoView(); return 0;";
    light_and_dark(
        &phone,
        "next",
        halfway,
        ["poker-form-6", "poker-form-6-screen"],
    )
    .await;
    let reach = enter_reach(&phone).await;
    eprintln!(
        "Enter: first on screen at scroll {}, bottom at {}, in the page at {}",
        reach[0], reach[1], reach[2]
    );
    eprintln!("tick chips: {chips}");
    for chip in chips.as_array().unwrap() {
        let height = chip[2].as_f64().unwrap();
        assert!(
            (44.0..=46.0).contains(&height),
            "a tick is a 44 px chip with its words on one line: {chip}"
        );
        assert_eq!(
            chip[3],
            json!(true),
            "a tick is shaped as a place chip: {chip}"
        );
    }
    // Money on the form reads as on the sheet: the ante, the put-in's quick values.
    let ante = chips[0][1].as_str().unwrap();
    assert_eq!(ante, "anted $0.05", "{chips}");
    assert_eq!(
        quick,
        json!(["$0.05", "$0.10", "$0.25", "$0.50", "$1.00"]),
        "the put-in's quick values"
    );

    let bottom = reach[1].as_f64().unwrap_or(f64::MAX);
    assert!(
        bottom <= 2.0 * 844.0,
        "Enter the hand is reached {bottom} px down, more than two screens ({reach})"
    );
    phone.quit().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_poker_players_money_reads_at_twelve_px() {
    let Some(browser) = Browser::start("poker-ten").await else {
        return;
    };
    let phone = browser.phone("poker-ten").await;
    let (_, ten) = real_evenings()
        .into_iter()
        .find(|(g, d)| *g == "poker" && d["players"] == json!(LONG_TEN))
        .unwrap();
    open_session(&browser, &phone, ten).await;
    // And the screen the phone shows at the sheet's foot, the totals under their heads.
    let foot = "document.querySelector('#sheet tfoot').scrollIntoView({block: 'end'}); return 0;";
    light_and_dark(&phone, "sheet", foot, ["poker-10-sheet", "poker-10-foot"]).await;
    // Every piece of text on the sheet that holds an amount, and its type size.
    let sizes = script_value(
        &phone,
        "var out = [], walk = document.createTreeWalker(document.getElementById('sheet'), NodeFilter.SHOW_TEXT);\
         while (walk.nextNode()) { var t = walk.currentNode, e = t.parentElement;\
           if (!/\\$\\d/.test(t.textContent) || !e.getClientRects().length) continue;\
           out.push([parseFloat(getComputedStyle(e).fontSize), t.textContent.trim().slice(0, 24)]); }\
         return out;",
    )
    .await;
    let sizes = sizes.as_array().unwrap();
    assert!(sizes.len() > 20, "{sizes:?}");
    let smallest = sizes
        .iter()
        .min_by(|a, b| a[0].as_f64().unwrap().total_cmp(&b[0].as_f64().unwrap()))
        .unwrap();
    eprintln!("ten players: the smallest money text is {smallest}");
    assert!(
        smallest[0].as_f64().unwrap() >= 12.0,
        "money on the ten-handed sheet reads at {smallest}"
    );
    let width = common::browser::scroll_width(&phone).await;
    assert!(
        width <= 390,
        "the ten-handed sheet fits a 390 px phone ({width})"
    );
    phone.quit().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_what_if_box_says_who_won_without_scrolling_inside_it() {
    let Some(browser) = Browser::start("poker-what-if").await else {
        return;
    };
    let phone = browser.phone("poker-what-if").await;
    six_at_holdem(&browser, &phone).await;
    let height = |p: &serde_json::Value| p[0].as_f64().unwrap();
    let before = script_value(
        &phone,
        "return [document.querySelector('#next .what-if').getBoundingClientRect().height];",
    )
    .await;
    fill_a_showdown(&phone).await;
    // The would-be row's sentence: the showdown and who takes the pot.
    let mut seen = json!(null);
    for _ in 0..60 {
        seen = script_value(
            &phone,
            "var box = document.querySelector('#next .what-if'), b = box.getBoundingClientRect();\
             var said = Array.from(box.querySelectorAll('p, td')).filter(function (e) {\
               return e.getClientRects().length && /in the showdown/.test(e.textContent); })[0];\
             if (!said) return null; var r = said.getBoundingClientRect();\
             return [b.height, box.scrollTop, r.top - b.top, r.bottom - b.top, said.textContent.trim()];",
        )
        .await;
        if !seen.is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("what-if: {seen}");
    assert!(!seen.is_null(), "the what-if box never said who won");
    for dark in [false, true] {
        let scheme = if dark { "dark" } else { "light" };
        dark_mode(&phone, dark).await;
        script_value(
            &phone,
            "document.querySelector('#next .what-if').scrollIntoView({block: 'center'}); return 0;",
        )
        .await;
        screen_screenshot(&phone, format!("poker-what-if-6-390-{scheme}.png")).await;
    }
    dark_mode(&phone, false).await;
    assert_eq!(seen[1], json!(0), "the box was scrolled ({seen})");
    assert!(
        seen[2].as_f64().unwrap() >= 0.0 && seen[3].as_f64().unwrap() <= height(&seen),
        "the sentence is below the box's fold: {seen}"
    );
    // An answer did not change the box's height: the form did not move under the finger.
    assert_eq!(
        height(&before),
        height(&seen),
        "the box grew ({before} → {seen})"
    );
    phone.quit().await.unwrap();
}
