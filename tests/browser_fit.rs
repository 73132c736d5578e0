//! Every game's sheet at its largest table, with ordinary names (Margaret, Salvatore,
//! Vincenzo, Rosemary, …), on a 390 px phone: no sideways scroll, neither of the page nor
//! hidden inside the sheet's box; a refused entry is focused and in the first screen with
//! the form's values kept; an entry lands on the latest row. Each game's sheet, form and
//! settle-up are written to `target/screenshots/<game>-fit-390.png`, `<game>-form-390.png`
//! and `<game>-settle-390.png` for a person to look at.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and is
//! skipped, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

mod common;

use std::time::Duration;

use common::browser::{Browser, assert_landed, choose, fill, section_screenshot, submit, wait_for};
use common::tables::largest_tables;
use serde_json::json;
use thirtyfour::prelude::*;

/// A plain hand through the form, as `(field, value, is a select)`, for the games whose
/// own browser test does not enter one.
fn plain_hand(game: &str) -> Option<Vec<(&'static str, &'static str, bool)>> {
    match game {
        "auction_pitch" => Some(vec![
            ("pitcher", "Vincenzo", true),
            ("bid", "2", true),
            ("points.high", "Vincenzo", true),
            ("points.low", "Vincenzo", true),
            ("points.jack", "nobody", true),
            ("points.game", "Margaret", true),
        ]),
        "check_pinochle" => Some(vec![
            ("bidder", "Vincenzo", true),
            ("bid", "250", false),
            ("trump", "clubs", true),
            ("NS.meld", "100", false),
            ("NS.tricks", "150", false),
            ("EW.meld", "60", false),
        ]),
        "auction_pinochle" => Some(vec![
            ("bidder", "Margaret", true),
            ("bid", "300", false),
            ("trump", "diamonds", true),
            ("outcome", "made", true),
        ]),
        _ => None,
    }
}

/// Fails when the page, or anything in it that scrolls sideways, is wider than the phone.
async fn assert_fits(phone: &WebDriver, what: &str) {
    let widths = phone
        .execute(
            "var wide = [];\
             document.querySelectorAll('*').forEach(function (e) {\
               var s = getComputedStyle(e);\
               if ((s.overflowX === 'auto' || s.overflowX === 'scroll' || s.overflowX === 'hidden')\
                   && e.scrollWidth > e.clientWidth + 1) wide.push(e.className + ' ' + e.scrollWidth + '>' + e.clientWidth);\
             });\
             return [document.documentElement.scrollWidth, wide];",
            Vec::new(),
        )
        .await
        .unwrap()
        .json()
        .clone();
    let page = widths[0].as_i64().unwrap();
    assert!(
        page <= 390,
        "{what}: the page is {page} px wide on a 390 px phone"
    );
    assert_eq!(widths[1], json!([]), "{what}: a box scrolls sideways");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_games_largest_table_fits_a_phone() {
    let Some(browser) = Browser::start("fit").await else {
        return;
    };
    let (base, store) = (browser.base.clone(), browser.store.clone());
    let phone = browser.phone("fit").await;
    for (game, doc) in largest_tables() {
        let doc: scorekeeper::format::SessionDoc = serde_json::from_value(doc).unwrap();
        let id = scorekeeper::service::import(&store, &doc, None)
            .await
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        phone.goto(format!("{base}/sessions/{id}")).await.unwrap();
        wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;
        // The pictures first, so a sheet that does not fit can be seen.
        section_screenshot(&phone, "sheet", &format!("{game}-fit-390.png")).await;
        section_screenshot(&phone, "next", &format!("{game}-form-390.png")).await;
        section_screenshot(&phone, "settle", &format!("{game}-settle-390.png")).await;
        assert_fits(&phone, game).await;
        // Times read in the phone's own zone, not as stored in UTC.
        let started = phone
            .find(By::Css("p.meta time"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            !started.contains("UTC") && !started.is_empty(),
            "{game}: started {started}"
        );

        // The form sent as it stands (no bidder, no points): refused, and the refusal is
        // the focused element, in the first screen, announced.
        submit(&phone, "#next form.hand-form button[type=submit]").await;
        wait_for(&phone, "role=\"alert\"", Duration::from_secs(5)).await;
        // The page is read once loaded (its deferred script has run), within 2 s.
        let mut seen = json!(null);
        for _ in 0..40 {
            seen = phone
                .execute(
                    "var e = document.getElementById('error'), r = e.getBoundingClientRect();\
                     return [document.activeElement === e, r.top >= -1 && r.bottom <= window.innerHeight + 1,\
                             e.textContent, document.readyState, r.top, window.scrollY];",
                    Vec::new(),
                )
                .await
                .unwrap()
                .json()
                .clone();
            if seen[0] == json!(true) && seen[1] == json!(true) && seen[3] == json!("complete") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(
            seen[0],
            json!(true),
            "{game}: the refusal has the focus ({seen})"
        );
        assert_eq!(
            seen[1],
            json!(true),
            "{game}: the refusal is in the first screen ({seen})"
        );
        // The message names the thing on the form in player words: no field path, no
        // snake_case, no JSON true/false, no citation (that sits in its details).
        let message = seen[2].as_str().unwrap_or_default();
        let dotted = message
            .as_bytes()
            .windows(3)
            .any(|w| w[0].is_ascii_alphabetic() && w[1] == b'.' && w[2].is_ascii_alphabetic());
        let json_words = message
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| ["true", "false", "null"].contains(&w));
        assert!(
            !message.is_empty()
                && !dotted
                && !json_words
                && !message.contains('_')
                && !message.contains("rules §")
                && !message.contains('['),
            "{game}: the refusal reads in player words: {message:?}"
        );
        // No row shows a rule's citation on its face: it sits in the row's "why" details.
        let faces = phone
            .execute(
                "return Array.from(document.querySelectorAll('#sheet tr')).map(function (tr) {\
                   var c = tr.cloneNode(true);\
                   c.querySelectorAll('details').forEach(function (d) { d.remove(); });\
                   return c.textContent; }).join('\\n');",
                Vec::new(),
            )
            .await
            .unwrap()
            .json()
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            !faces.contains("rules §"),
            "{game}: a row shows a citation on its face: {faces}"
        );
        assert_fits(&phone, game).await;
        phone
            .screenshot(&common::browser::screenshots().join(format!("{game}-refused-390.png")))
            .await
            .unwrap();
        // The refused form kept what was chosen: the dealer the sheet proposed (every game
        // with a dealer).
        for dealer in phone
            .find_all(By::Css("#next select[name='dealer']"))
            .await
            .unwrap()
        {
            let value = dealer.value().await.unwrap();
            assert!(
                value.is_some_and(|d| !d.is_empty()),
                "{game}: the dealer is kept"
            );
        }
        // A hand filled in and entered lands on the latest row (the games with a browser
        // test of their own check it there).
        if let Some(hand) = plain_hand(game) {
            for (name, value, select) in hand {
                if select {
                    choose(&phone, name, value).await;
                } else {
                    fill(&phone, name, value).await;
                }
            }
            submit(&phone, "#next form.hand-form button[type=submit]").await;
            assert_landed(&phone, game).await;
            assert_fits(&phone, game).await;
        }
    }
    phone.quit().await.unwrap();
}
