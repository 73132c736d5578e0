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
use serde_json::{Value, json};
use thirtyfour::prelude::*;

const FOUR: [&str; 4] = ["Margaret", "Salvatore", "Vincenzo", "Rosemary"];
const SEVEN: [&str; 7] = [
    "Margaret",
    "Salvatore",
    "Vincenzo",
    "Rosemary",
    "Josephine",
    "Bartholomew",
    "Guinevere",
];
const TEN: [&str; 10] = [
    "Margaret",
    "Salvatore",
    "Vincenzo",
    "Rosemary",
    "Josephine",
    "Bartholomew",
    "Guinevere",
    "Cornelius",
    "Penelope",
    "Archibald",
];

fn doc(game: &str, agreements: Value, players: &[&str], events: Value) -> Value {
    json!({"format": "scorekeeper/session@1", "game": game, "currency": "USD",
        "agreements": agreements, "players": players, "events": events})
}

fn side(meld: i64, tricks: i64) -> Value {
    json!({"meld": meld, "tricks": tricks, "won_trick": tricks > 0})
}

/// The largest table of every game, a few hands each.
fn largest_tables() -> Vec<(&'static str, Value)> {
    let [m, s, v, r] = FOUR;
    let pitch = |dealer: &str, pitcher: &str, bid: i64, took: [&str; 4]| {
        json!({"type": "hand", "dealer": dealer, "pitcher": pitcher, "bid": bid,
            "points": {"high": took[0], "low": took[1], "jack": took[2], "game": took[3]}})
    };
    let everyone = |amount: &str| -> Value {
        TEN.iter()
            .map(|p| ((*p).to_string(), json!(amount)))
            .collect::<serde_json::Map<String, Value>>()
            .into()
    };
    vec![
        (
            "auction_pinochle",
            doc(
                "auction_pinochle",
                json!({"stake": "0.05", "kitty": "pot"}),
                &FOUR,
                json!([
                    {"type": "hand", "dealer": r, "bidder": s, "bid": 300, "trump": "hearts", "outcome": "made"},
                    {"type": "hand", "dealer": m, "bidder": v, "bid": 350, "trump": "spades", "outcome": "failed"},
                    {"type": "hand", "dealer": s, "bidder": r, "bid": 260, "trump": "clubs", "outcome": "conceded_before_lead"},
                ]),
            ),
        ),
        (
            "auction_pitch",
            doc(
                "auction_pitch",
                json!({"stake": "0.05"}),
                &SEVEN,
                json!([
                    pitch(
                        "Guinevere",
                        "Margaret",
                        2,
                        ["Margaret", "Bartholomew", "Margaret", "Josephine"]
                    ),
                    pitch(
                        "Margaret",
                        "Bartholomew",
                        3,
                        ["Bartholomew", "Bartholomew", "Guinevere", "Bartholomew"]
                    ),
                    pitch(
                        "Salvatore",
                        "Josephine",
                        4,
                        ["Rosemary", "Josephine", "Josephine", "Vincenzo"]
                    ),
                ]),
            ),
        ),
        (
            "partnership_pinochle",
            doc(
                "partnership_pinochle",
                json!({"stake": "1.00"}),
                &FOUR,
                json!([
                    {"type": "hand", "dealer": r, "trump": "hearts", "turn_up_dix": false, "dix_holders": [m],
                     "NS": side(120, 150), "EW": side(60, 100)},
                    {"type": "hand", "dealer": m, "trump": "spades", "turn_up_dix": true, "dix_holders": [],
                     "NS": side(40, 90), "EW": side(200, 160)},
                ]),
            ),
        ),
        (
            "partnership_auction_pinochle",
            doc(
                "partnership_auction_pinochle",
                json!({"stake": "1.00"}),
                &FOUR,
                json!([
                    {"type": "hand", "dealer": r, "bidder": m, "bid": 250, "trump": "hearts",
                     "NS": side(120, 150), "EW": side(60, 100)},
                    {"type": "hand", "dealer": m, "bidder": s, "bid": 300, "trump": "clubs",
                     "NS": side(40, 120), "EW": side(100, 130)},
                ]),
            ),
        ),
        (
            "check_pinochle",
            doc(
                "check_pinochle",
                json!({"stake": "0.25"}),
                &FOUR,
                json!([
                    {"type": "hand", "dealer": r, "bidder": m, "bid": 250, "trump": "hearts",
                     "NS": {"meld": 120, "tricks": 150}, "EW": {"meld": 40, "tricks": 100}},
                    {"type": "hand", "dealer": m, "bidder": s, "bid": 300, "trump": "spades",
                     "NS": {"meld": 60, "tricks": 80}, "EW": {"meld": 150, "tricks": 170}},
                ]),
            ),
        ),
        (
            "contract_pinochle",
            doc(
                "contract_pinochle",
                json!({"stake": "1.00"}),
                &FOUR,
                json!([
                    {"type": "hand", "dealer": r, "bidder": m, "bid": 200, "trump": "hearts", "doubled": "no", "outcome": "made"},
                    {"type": "hand", "dealer": m, "bidder": v, "bid": 250, "trump": "spades", "doubled": "doubled", "outcome": "failed"},
                ]),
            ),
        ),
        (
            "two_handed_pinochle",
            doc(
                "two_handed_pinochle",
                json!({"stake": "1.00"}),
                &["Bartholomew", "Guinevere"],
                json!([
                    {"type": "hand", "dealer": "Guinevere", "turn_up_dix": false,
                     "melds": {"Bartholomew": 150, "Guinevere": 80}, "tricks": {"Bartholomew": 130, "Guinevere": 120}},
                    {"type": "hand", "dealer": "Bartholomew", "turn_up_dix": true,
                     "melds": {"Bartholomew": 40, "Guinevere": 300}, "tricks": {"Bartholomew": 90, "Guinevere": 160}},
                ]),
            ),
        ),
        (
            "poker",
            doc(
                "poker",
                json!({"smallest_unit": "0.05"}),
                &TEN,
                json!([
                    {"type": "hand", "dealer": "Archibald", "contributions": everyone("0.25"),
                     "folded": ["Vincenzo", "Rosemary", "Josephine", "Bartholomew", "Guinevere", "Cornelius", "Penelope", "Archibald"],
                     "all_in": [], "split": "high", "showdown": [["Margaret"], ["Salvatore"]]},
                    {"type": "hand", "dealer": "Margaret", "contributions": everyone("0.10"),
                     "folded": ["Margaret", "Salvatore", "Vincenzo", "Rosemary", "Josephine", "Bartholomew", "Guinevere", "Cornelius"],
                     "all_in": [], "split": "high", "showdown": [["Penelope", "Archibald"]]},
                ]),
            ),
        ),
        (
            "auction_game",
            doc(
                "auction_game",
                json!({"stake": "0.50"}),
                &FOUR,
                json!([
                    {"type": "hand", "final": {
                        m: {"items": ["A", "K"], "spent": 20}, s: {"items": ["Q", "J"], "spent": 12},
                        v: {"items": ["A"], "spent": 9}, r: {"items": [], "spent": 0}}},
                ]),
            ),
        ),
    ]
}

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
