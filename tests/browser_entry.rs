//! Fast entry at the table (issue 9 item 8) in headless Chromium at 390 px: a plain hand of
//! Auction Pinochle, Auction Pitch and Check Pinochle entered through the form, counting
//! every tap a player makes, and Check's meld checks as − / + steppers that start empty and
//! post exactly what they show.
//!
//! How taps are counted: one per chip, per button (a stepper's + or −, Enter), and per
//! typed field (the tap that focuses it; the digits are keys, not taps); a menu (select)
//! would cost two (open, pick). The dealer the sheet proposes is kept (no tap).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and is
//! skipped, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

mod common;

use std::time::Duration;

use common::browser::{Browser, assert_landed, choose, page_fetch, section_screenshot, wait_for};
use common::tables::{FOUR, SEVEN, doc};
use serde_json::{Value, json};
use thirtyfour::prelude::*;

/// A player's gestures on the next-hand form, counted.
struct Taps<'a> {
    phone: &'a WebDriver,
    count: usize,
}

impl Taps<'_> {
    /// Taps the chip `value` of `name`.
    async fn chip(&mut self, name: &str, value: &str) {
        choose(self.phone, name, value).await;
        self.count += 1;
    }

    /// Taps the field `name` and types `text` into it.
    async fn typed(&mut self, name: &str, text: &str) {
        let field = self
            .phone
            .find(By::Css(format!(
                "#next form.hand-form input[name='{name}']"
            )))
            .await
            .unwrap();
        // WebDriver focuses the field as the player's tap does.
        field.clear().await.unwrap();
        field.send_keys(text).await.unwrap();
        assert_eq!(
            shown(self.phone, name).await,
            text,
            "{name} shows what was typed"
        );
        self.count += 1;
    }

    /// Taps the button `css` finds.
    async fn button(&mut self, css: &str) {
        self.phone
            .find(By::Css(css))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        self.count += 1;
    }

    /// Taps a stepper's + (`more`) or − beside the field `name`.
    async fn step(&mut self, name: &str, more: bool) {
        let nth = if more { "last-child" } else { "first-child" };
        self.button(&format!(
            "#next input[name='{name}'] ~ button.step:{nth}, #next button.step:{nth}:has(~ input[name='{name}'])"
        ))
        .await;
    }

    /// Taps Enter the hand (the form's first submit button) and waits until the entry has
    /// landed on the latest row; a refusal fails with its words.
    async fn enter(&mut self, game: &str) {
        self.phone
            .execute("window.before = true;", Vec::new())
            .await
            .unwrap();
        self.button("#next form.hand-form button[type=submit]")
            .await;
        for _ in 0..100 {
            let refusal = self
                .phone
                .execute(
                    "var e = document.getElementById('error');\
                     return !window.before && e ? e.textContent : null;",
                    Vec::new(),
                )
                .await
                .map(|r| r.json().clone())
                .unwrap_or(Value::Null);
            if !refusal.is_null() {
                section_screenshot(self.phone, "next", &format!("{game}-refused-entry-390.png"))
                    .await;
                panic!("{game}: refused: {refusal}");
            }
            if self.phone.current_url().await.unwrap().fragment() == Some("latest") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_landed(self.phone, game).await;
    }
}

/// The value the field `name` of the next-hand form shows.
async fn shown(phone: &WebDriver, name: &str) -> String {
    phone
        .find(By::Css(format!("#next input[name='{name}']")))
        .await
        .unwrap()
        .value()
        .await
        .unwrap()
        .unwrap_or_default()
}

/// The session's events as stored (its session document).
async fn events(phone: &WebDriver, id: i64) -> Vec<Value> {
    let (status, text) = page_fetch(phone, &format!("/api/v1/sessions/{id}/export")).await;
    assert_eq!(status, 200, "{text}");
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["events"].as_array().unwrap().clone()
}

/// The hand event as stored, without what the form adds on its own (the dealer).
fn without_dealer(mut event: Value) -> Value {
    event.as_object_mut().unwrap().remove("dealer");
    event
}

async fn open_session(browser: &Browser, phone: &WebDriver, doc: Value) -> i64 {
    let doc: scorekeeper::format::SessionDoc = serde_json::from_value(doc).unwrap();
    let id = scorekeeper::service::import(&browser.store, &doc, None)
        .await
        .unwrap();
    phone
        .goto(format!("{}/sessions/{id}", browser.base))
        .await
        .unwrap();
    wait_for(phone, "Score sheet", Duration::from_secs(5)).await;
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_hand_is_a_few_taps_in_every_fast_game() {
    let Some(browser) = Browser::start("entry-taps").await else {
        return;
    };
    let phone = browser.phone("taps").await;
    let [m, s, v, _] = FOUR;
    let mut counts = Vec::new();

    // Auction Pinochle: bidder, bid, trump, outcome, Enter.
    let id = open_session(
        &browser,
        &phone,
        doc(
            "auction_pinochle",
            json!({"stake": "0.05", "kitty": "pot"}),
            &FOUR,
            json!([]),
        ),
    )
    .await;
    let mut taps = Taps {
        phone: &phone,
        count: 0,
    };
    taps.chip("bidder", s).await;
    taps.typed("bid", "300").await;
    taps.chip("trump", "hearts").await;
    taps.chip("outcome", "made").await;
    taps.enter("auction_pinochle").await;
    let hand = events(&phone, id).await.pop().unwrap();
    assert_eq!(
        without_dealer(hand),
        json!({"type": "hand", "bidder": s, "bid": 300, "trump": "hearts", "outcome": "made"}),
        "Auction Pinochle records the hand the form showed"
    );
    counts.push(("Auction Pinochle", taps.count, 6));

    // Auction Pitch at its largest table: pitcher, bid, the four points, Enter.
    let id = open_session(
        &browser,
        &phone,
        doc("auction_pitch", json!({"stake": "0.05"}), &SEVEN, json!([])),
    )
    .await;
    let mut taps = Taps {
        phone: &phone,
        count: 0,
    };
    taps.chip("pitcher", "Josephine").await;
    taps.chip("bid", "3").await;
    taps.chip("points.high", "Josephine").await;
    taps.chip("points.low", "Guinevere").await;
    taps.chip("points.jack", "nobody").await;
    taps.chip("points.game", "Josephine").await;
    taps.enter("auction_pitch").await;
    let hand = events(&phone, id).await.pop().unwrap();
    assert_eq!(
        without_dealer(hand),
        json!({"type": "hand", "pitcher": "Josephine", "bid": 3,
               "points": {"high": "Josephine", "low": "Guinevere", "jack": null, "game": "Josephine"}}),
        "Pitch records the hand the form showed"
    );
    counts.push(("Auction Pitch", taps.count, 7));

    // Check Pinochle: bidder, bid, trump, both melds, ONE side's tricks, Enter; no check
    // melds, so none of their steppers is touched.
    let id = open_session(
        &browser,
        &phone,
        doc("check_pinochle", json!({"stake": "0.25"}), &FOUR, json!([])),
    )
    .await;
    // Every check-meld count starts empty (none), with a − and a + of 44 px.
    let fields = phone
        .find_all(By::Css("#next input[name*='.meld_checks.']"))
        .await
        .unwrap();
    assert_eq!(fields.len(), 14, "seven check melds per side");
    for field in &fields {
        assert_eq!(field.value().await.unwrap().unwrap_or_default(), "");
    }
    let buttons = phone
        .execute(
            "return [...document.querySelectorAll('#next .meld-checks button.step')]\
               .map(b => { var r = b.getBoundingClientRect(); return [b.type, r.width, r.height]; });",
            Vec::new(),
        )
        .await
        .unwrap()
        .json()
        .clone();
    let buttons = buttons.as_array().unwrap();
    assert_eq!(buttons.len(), 28, "a − and a + beside each count");
    for b in buttons {
        assert_eq!(b[0], json!("button"), "a stepper never submits the form");
        assert!(
            b[1].as_f64().unwrap() >= 44.0 && b[2].as_f64().unwrap() >= 44.0,
            "a 44 px stepper button: {b}"
        );
    }
    section_screenshot(&phone, "next", "check_pinochle-steppers-390.png").await;
    let mut taps = Taps {
        phone: &phone,
        count: 0,
    };
    taps.chip("bidder", m).await;
    taps.typed("bid", "250").await;
    taps.chip("trump", "clubs").await;
    taps.typed("NS.meld", "100").await;
    taps.typed("NS.tricks", "150").await;
    taps.typed("EW.meld", "60").await;
    taps.enter("check_pinochle").await;
    let hand = events(&phone, id).await.pop().unwrap();
    assert_eq!(
        without_dealer(hand),
        json!({"type": "hand", "bidder": m, "bid": 250, "trump": "clubs",
               "NS": {"meld": 100, "tricks": 150},
               "EW": {"meld": 60, "tricks": 100}}),
        "Check records the hand the form showed, EW's tricks the rest of the 250"
    );
    counts.push(("Check Pinochle", taps.count, 10));

    // A hand with check melds: a tap per meld on its +; − takes one back; + stops at the
    // most a deal can hold (two 100 aces); the meld steps by 10.
    let mut taps = Taps {
        phone: &phone,
        count: 0,
    };
    taps.chip("bidder", v).await;
    taps.typed("bid", "300").await;
    taps.chip("trump", "spades").await;
    taps.typed("NS.meld", "150").await;
    taps.step("NS.meld_checks.aces_100", true).await;
    assert_eq!(shown(&phone, "NS.meld_checks.aces_100").await, "1");
    taps.step("NS.meld_checks.aces_100", true).await;
    taps.step("NS.meld_checks.aces_100", true).await;
    assert_eq!(
        shown(&phone, "NS.meld_checks.aces_100").await,
        "2",
        "no more than a deal can hold"
    );
    taps.step("NS.meld_checks.aces_100", false).await;
    taps.step("NS.meld_checks.flush", true).await;
    taps.step("NS.meld_checks.flush", false).await;
    assert_eq!(
        shown(&phone, "NS.meld_checks.flush").await,
        "",
        "a count stepped back to none is empty again"
    );
    taps.step("EW.meld", true).await;
    taps.step("EW.meld", true).await;
    assert_eq!(shown(&phone, "EW.meld").await, "20", "the meld steps by 10");
    taps.typed("NS.tricks", "200").await;
    taps.enter("check_pinochle").await;
    let hand = events(&phone, id).await.pop().unwrap();
    assert_eq!(
        without_dealer(hand),
        json!({"type": "hand", "bidder": v, "bid": 300, "trump": "spades",
               "NS": {"meld": 150, "meld_checks": ["aces_100"], "tricks": 200},
               "EW": {"meld": 20, "tricks": 50}}),
        "the steppers post what they show"
    );

    // Without script the counts are plain number fields, typed (no dead buttons).
    let (_, html) = page_fetch(&phone, &format!("/sessions/{id}")).await;
    assert!(html.contains("name=\"NS.meld_checks.aces_100\" type=\"number\""));
    assert!(
        !html.contains("class=\"step\""),
        "the buttons come with the script"
    );

    for (game, count, target) in &counts {
        println!("{game}: a plain hand is {count} taps (target {target} or fewer)");
        assert!(count <= target, "{game}: {count} taps > {target}");
    }
    phone.quit().await.unwrap();
}

/// The other pinochle games' meld fields step by 10 with − and +, stay typeable, and post
/// what they show.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_pinochle_meld_steps_by_ten() {
    let Some(browser) = Browser::start("entry-meld").await else {
        return;
    };
    let phone = browser.phone("meld").await;
    for (game, players, meld) in [
        ("partnership_pinochle", &FOUR[..], "NS.meld"),
        ("partnership_auction_pinochle", &FOUR[..], "EW.meld"),
        ("two_handed_pinochle", &FOUR[..2], "melds.Salvatore"),
    ] {
        open_session(
            &browser,
            &phone,
            doc(game, json!({"stake": "1.00"}), players, json!([])),
        )
        .await;
        let mut taps = Taps {
            phone: &phone,
            count: 0,
        };
        assert_eq!(
            shown(&phone, meld).await,
            "",
            "{game}: the meld starts empty"
        );
        for _ in 0..3 {
            taps.step(meld, true).await;
        }
        taps.step(meld, false).await;
        assert_eq!(shown(&phone, meld).await, "20", "{game}: + + + − is 20");
        taps.step(meld, false).await;
        taps.step(meld, false).await;
        taps.step(meld, false).await;
        assert_eq!(shown(&phone, meld).await, "", "{game}: never below nothing");
        // Typed, then stepped on from there.
        taps.typed(meld, "140").await;
        taps.step(meld, true).await;
        assert_eq!(
            shown(&phone, meld).await,
            "150",
            "{game}: typed, then stepped"
        );
        assert_eq!(taps.count, 9);
    }
    phone.quit().await.unwrap();
}
