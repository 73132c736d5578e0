//! The meld calculator on every pinochle hand form in headless Chromium
//! at 390 px: a meld of several parts tapped in the calculator, the sum with each meld
//! named as rules §1.0 and the game's table give it (worked by hand below), *Use* filling
//! the meld field, the hand recorded with its `meld_detail` and the row saying the melds.
//!
//! One test per game; they take turns (one Chromium at a time on a shared machine).
//! Needs Debian's `chromium` and `chromium-driver`; without them each test says so and is
//! skipped, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, assert_landed, choose, fill, page_fetch, page_screenshot, script_text, script_value,
    section_screenshot, submit, wait_for,
};
use common::entry::open_session;
use common::tables::{FOUR, doc};
use serde_json::{Value, json};
use thirtyfour::prelude::*;

/// One Chromium at a time: the tests of this binary take turns.
static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// One meld test's table: a phone on the sheet of a new session, while this test has its
/// turn at Chromium (the turn is let go last, after chromedriver and its browsers stop).
struct Table {
    phone: WebDriver,
    id: i64,
    _browser: Browser,
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

/// Waits for the turn, starts the service and chromedriver (`meld-{name}`), and opens a
/// phone (profile `name`) on a new session of `game` with `agreements` and `players`.
/// `None` when Chromium is missing outside CI (the test is skipped).
async fn table(name: &str, game: &str, agreements: Value, players: &[&str]) -> Option<Table> {
    let turn = TURN.lock().await;
    let browser = Browser::start(&format!("meld-{name}")).await?;
    let phone = browser.phone(name).await;
    let id = open_session(&browser, &phone, doc(game, agreements, players, json!([]))).await;
    Some(Table {
        phone,
        id,
        _browser: browser,
        _turn: turn,
    })
}

/// Waits until the open calculator's sum reads `sum`.
async fn sum_reads(phone: &WebDriver, sum: &str) {
    until_text(phone, "dialog.meld-dialog .meld-sum", sum).await;
}

/// Enters the hand of `game`, checks it was stored with `detail` as its melds named and
/// that its row says "Meld named: `words`", and returns it as stored.
async fn recorded(table: &Table, game: &str, detail: Value, words: &str) -> Value {
    let hand = enter(&table.phone, table.id, game).await;
    assert_eq!(
        hand["meld_detail"], detail,
        "{game}: the melds named are kept"
    );
    let row = latest_row(&table.phone).await;
    assert!(row.contains(&format!("Meld named: {words}")), "{row}");
    hand
}

/// What the element `css` says, or "" while it is not there.
async fn text_of(phone: &WebDriver, css: &str) -> String {
    script_text(
        phone,
        "var e = document.querySelector(arguments[0]); return e ? e.textContent : '';",
        vec![json!(css)],
    )
    .await
}

/// Waits (5 s) until the element `css` says `want`.
async fn until_text(phone: &WebDriver, css: &str, want: &str) {
    for _ in 0..100 {
        if text_of(phone, css).await == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{css} says {:?}, not {want:?}", text_of(phone, css).await);
}

/// Opens the calculator of the meld field `field` (`""` for Contract's, which fills none)
/// and checks its targets are 44 px and the dialog fits the 390 px phone.
async fn open_calculator(phone: &WebDriver, field: &str) {
    submit(
        phone,
        &format!("#next .meld-calc[data-meld-field='{field}'] button.meld-open"),
    )
    .await;
    let sizes = script_value(phone, "var d = document.querySelector('dialog.meld-dialog'); if (!d) return null;\
             var b = [...d.querySelectorAll('button.step')].map(b => b.getBoundingClientRect());\
             return [d.getBoundingClientRect().right, window.innerWidth,\
                     Math.min(...b.map(r => r.width)), Math.min(...b.map(r => r.height)), b.length];").await;
    assert!(!sizes.is_null(), "the calculator opened");
    assert!(
        sizes[0].as_f64().unwrap() <= sizes[1].as_f64().unwrap(),
        "fits the phone: {sizes}"
    );
    assert!(
        sizes[2].as_f64().unwrap() >= 44.0 && sizes[3].as_f64().unwrap() >= 44.0,
        "44 px: {sizes}"
    );
    assert_eq!(sizes[4], json!(22), "a − and a + for each of the 11 melds");
}

/// Taps + on the meld `id` `times` times in the open calculator.
async fn tap(phone: &WebDriver, id: &str, times: usize) {
    for _ in 0..times {
        submit(
            phone,
            &format!("dialog.meld-dialog [data-meld='{id}'] button.step:last-of-type"),
        )
        .await;
    }
}

/// Chooses whose melds the calculator counts (a side's field: one chip per partner).
async fn whose(phone: &WebDriver, index: usize) {
    submit(
        phone,
        &format!("dialog.meld-dialog .chips label:nth-of-type({})", index + 1),
    )
    .await;
}

/// Taps Use, then checks the field shows `total`.
async fn use_sum(phone: &WebDriver, field: &str, total: i64) {
    until_text(
        phone,
        "dialog.meld-dialog button.meld-use",
        &format!("Use {total}"),
    )
    .await;
    submit(phone, "dialog.meld-dialog button.meld-use").await;
    let shown = phone
        .find(By::Css(format!("#next input[name='{field}']")))
        .await
        .unwrap()
        .value()
        .await
        .unwrap()
        .unwrap_or_default();
    assert_eq!(shown, total.to_string(), "Use fills {field}");
}

/// Enters the hand and returns it as stored; fails with the refusal's words.
async fn enter(phone: &WebDriver, id: i64, game: &str) -> Value {
    section_screenshot(phone, "next", &format!("{game}-meld-390.png")).await;
    submit(phone, "#next form.hand-form button[type=submit]").await;
    for _ in 0..100 {
        if phone.current_url().await.unwrap().fragment() == Some("latest") {
            break;
        }
        let refusal = text_of(phone, "#error").await;
        assert!(refusal.is_empty(), "{game}: refused: {refusal}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_landed(phone, game).await;
    let (status, text) = page_fetch(phone, &format!("/api/v1/sessions/{id}/export")).await;
    assert_eq!(status, 200, "{text}");
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["events"].as_array().unwrap().last().unwrap().clone()
}

/// The latest row's words on the sheet.
async fn latest_row(phone: &WebDriver) -> String {
    phone.find(By::Css("#latest")).await.unwrap();
    script_text(
        phone,
        "var e = document.getElementById('latest'); var t = e.closest('tbody') || e.parentNode;\
             return t.textContent.replace(/\\s+/g, ' ');",
        Vec::new(),
    )
    .await
}

/// One thing the scorer does at the phone, in order ([`play`]).
enum Do<'a> {
    /// Chooses `value` for the hand form's field (a select or chips).
    Choose(&'a str, &'a str),
    /// Types `value` into the hand form's field.
    Fill(&'a str, String),
    /// Taps the element the CSS selector names (a summary that opens more of the form).
    Press(&'a str),
    /// Opens the calculator of the meld field ([`open_calculator`]).
    Calculator(&'a str),
    /// Taps + on the meld this many times.
    Meld(&'a str, usize),
    /// Taps a card in the calculator's cards this many times.
    Card(&'a str, usize),
    /// Counts the melds of the side's partner at this place (from 0).
    Whose(usize),
    /// Waits until the calculator's sum reads this.
    Sum(String),
    /// Takes a screenshot of the page under this name.
    Shot(&'a str),
    /// Taps Use and checks the field now shows this total ([`use_sum`]).
    Use(&'a str, i64),
}

/// Types `value` into `field` ([`Do::Fill`]).
fn type_in(field: &str, value: impl Into<String>) -> Do<'_> {
    Do::Fill(field, value.into())
}

/// Does `steps` on `phone`, one after another.
async fn play(phone: &WebDriver, steps: &[Do<'_>]) {
    for step in steps {
        match step {
            Do::Choose(field, value) => choose(phone, field, value).await,
            Do::Fill(field, value) => fill(phone, field, value).await,
            Do::Press(css) => submit(phone, css).await,
            Do::Calculator(field) => open_calculator(phone, field).await,
            Do::Meld(id, times) => tap(phone, id, *times).await,
            Do::Card(card, times) => {
                let css = format!("dialog.meld-dialog button.card[data-card='{card}']");
                for _ in 0..*times {
                    submit(phone, &css).await;
                }
            }
            Do::Whose(index) => whose(phone, *index).await,
            Do::Sum(sum) => sum_reads(phone, sum).await,
            Do::Shot(name) => page_screenshot(phone, name).await,
            Do::Use(field, total) => use_sum(phone, field, *total).await,
        }
    }
}

/// A meld counted at a new table of `game` and the hand entered with it: the table
/// (`name`, `agreements`, `players`), what the scorer does (`steps`), the melds the hand keeps named
/// (`named`) and the words its row says after "Meld named: ".
struct Counted<'a> {
    name: &'a str,
    game: &'a str,
    agreements: Value,
    players: &'a [&'a str],
    steps: Vec<Do<'a>>,
    named: Value,
    words: String,
}

/// Plays a [`Counted`] and returns its table and the hand as stored; `None` when Chromium
/// is missing outside CI (the test is skipped).
async fn counted(case: Counted<'_>) -> Option<(Table, Value)> {
    let t = table(case.name, case.game, case.agreements, case.players).await?;
    play(&t.phone, &case.steps).await;
    let hand = recorded(&t, case.game, case.named, &case.words).await;
    Some((t, hand))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auction_pinochle_counts_the_bidders_meld() {
    let s = FOUR[1];
    let named = json!({s: ["aces_100", "flush", "pinochle"]});
    let Some((t, hand)) = counted(Counted {
        name: "auction",
        game: "auction_pinochle",
        agreements: json!({"stake": "0.05"}),
        players: &FOUR[..3],
        steps: vec![
            Do::Choose("bidder", s),
            type_in("bid", "350"),
            Do::Choose("trump", "hearts"),
            Do::Press("#next form.hand-form details summary"),
            Do::Calculator("meld"),
            // Rules §1.0: run 150 + 100 aces 100 + pinochle 40 = 290.
            Do::Meld("flush", 1),
            Do::Meld("aces_100", 1),
            Do::Meld("pinochle", 1),
            Do::Sum("run 150 + 100 aces 100 + pinochle 40 = 290".into()),
            Do::Use("meld", 290),
            type_in("counters", "100"),
        ],
        named: named.clone(),
        words: format!("{s} run 150 + 100 aces 100 + pinochle 40 = 290."),
    })
    .await
    else {
        return;
    };
    assert_eq!(hand["meld"], json!(290));
    let replacement = correct_counters(&t.phone, t.id, "120").await;
    assert_eq!(replacement["counters"], json!(120));
    assert_eq!(replacement["meld_detail"], named);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auction_pinochle_reads_scarnes_721_hand_from_the_cards() {
    let m = FOUR[0];
    let mut steps = vec![
        Do::Choose("bidder", m),
        type_in("bid", "500"),
        Do::Choose("trump", "diamonds"),
        Do::Press("#next form.hand-form details summary"),
        Do::Calculator("meld"),
        Do::Press("dialog.meld-dialog details.meld-cards summary"),
    ];
    // S000: the double flush in diamonds, A♣ A♠ A♥ and Q♠ Q♠ (15 cards): "300 in trump,
    // 100 aces, and 80 Pinochle" = 480; with 241 in tricks, 721.
    let cards = [("AD", 2), ("TD", 2), ("KD", 2), ("QD", 2), ("JD", 2)];
    let more = [("AC", 1), ("AS", 1), ("AH", 1), ("QS", 2)];
    steps.extend(cards.into_iter().chain(more).map(|(c, n)| Do::Card(c, n)));
    steps.extend([
        Do::Sum("2 × run 300 + 100 aces 100 + double pinochle 80 = 480".into()),
        Do::Shot("auction_pinochle-meld-cards-390.png"),
        Do::Use("meld", 480),
        type_in("counters", "241"),
    ]);
    let Some((_, hand)) = counted(Counted {
        name: "cards",
        game: "auction_pinochle",
        agreements: json!({}),
        players: &FOUR[..3],
        steps,
        named: json!({m: ["aces_100", "double_pinochle", "flush", "flush"]}),
        words: format!("{m} 2 × run 300 + 100 aces 100 + double pinochle 80 = 480."),
    })
    .await
    else {
        return;
    };
    assert_eq!(hand["meld"], json!(480));
}

/// Corrects the latest hand's counters to `counters` through its correction form, whose
/// melds named the script posts again, and returns the replacement as stored.
async fn correct_counters(phone: &WebDriver, id: i64, counters: &str) -> Value {
    submit(phone, "#latest ~ tr a.correct, #latest a.correct").await;
    wait_for(phone, "Correct the hand", Duration::from_secs(5)).await;
    let kept = script_value(phone, "return document.querySelectorAll('#correct input[type=hidden][name^=\"meld_detail.\"]').length;").await;
    assert_eq!(
        kept,
        json!(3),
        "the correction posts the three melds named again"
    );
    let field = phone
        .find(By::Css("#correct input[name='counters']"))
        .await
        .unwrap();
    field.clear().await.unwrap();
    field.send_keys(counters).await.unwrap();
    submit(phone, "#correct form.hand-form button[type=submit]").await;
    assert_landed(phone, "the correction").await;
    let (_, text) = page_fetch(phone, &format!("/api/v1/sessions/{id}/export")).await;
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["events"].as_array().unwrap().last().unwrap()["replacement"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auction_pinochle_warns_of_three_pinochles() {
    let Some(t) = table("warn", "auction_pinochle", json!({}), &FOUR[..3]).await else {
        return;
    };
    let phone = &t.phone;
    choose(phone, "bidder", FOUR[0]).await;
    submit(phone, "#next form.hand-form details summary").await;
    open_calculator(phone, "meld").await;
    tap(phone, "pinochle", 1).await;
    tap(phone, "double_pinochle", 1).await;
    until_text(
        phone,
        "dialog.meld-dialog .meld-warn",
        "3 pinochles need 3 queens of spades and 3 jacks of diamonds; the deck has two of each (rules §1.0)",
    )
    .await;
    page_screenshot(phone, "auction_pinochle-meld-warning-390.png").await;
    let disabled = phone
        .find(By::Css("dialog.meld-dialog button.meld-use"))
        .await
        .unwrap()
        .attr("disabled")
        .await
        .unwrap();
    assert!(disabled.is_some(), "impossible meld cannot be used");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partnership_pinochle_adds_both_partners() {
    let [m, _, v, _] = FOUR;
    let Some((_, hand)) = counted(Counted {
        name: "partnership",
        game: "partnership_pinochle",
        agreements: json!({}),
        players: &FOUR,
        steps: vec![
            Do::Choose("trump", "clubs"),
            Do::Calculator("NS.meld"),
            // S002: Margaret a run 150 and a double pinochle 300; Vincenzo a marriage 20: 470.
            Do::Meld("flush", 1),
            Do::Meld("pinochle", 2),
            Do::Whose(1),
            Do::Meld("marriage", 1),
            Do::Sum(format!(
                "{m}: run 150 + double pinochle 300 = 450; {v}: marriage 20 = 470"
            )),
            Do::Shot("partnership_pinochle-meld-dialog-390.png"),
            Do::Use("NS.meld", 470),
            type_in("NS.tricks", "150"),
            type_in("EW.meld", "0"),
        ],
        named: json!({m: ["flush", "pinochle", "pinochle"], v: ["marriage"]}),
        words: format!("{m} run 150 + double pinochle 300 = 450; {v} marriage 20."),
    })
    .await
    else {
        return;
    };
    assert_eq!(hand["NS"]["meld"], json!(470));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partnership_auction_pinochle_counts_eight_aces() {
    let s = FOUR[1];
    let Some((_, hand)) = counted(Counted {
        name: "pap",
        game: "partnership_auction_pinochle",
        agreements: json!({}),
        players: &FOUR,
        steps: vec![
            Do::Choose("bidder", s),
            type_in("bid", "300"),
            Do::Choose("trump", "spades"),
            Do::Calculator("EW.meld"),
            // Rules §1.5's extras: Salvatore's eight aces 1,000 and a royal marriage 40: 1,040.
            Do::Meld("aces_100", 2),
            Do::Meld("royal_marriage", 1),
            Do::Sum(format!("{s}: royal marriage 40 + eight aces 1000 = 1040")),
            Do::Use("EW.meld", 1040),
            type_in("NS.meld", "0"),
            type_in("NS.tricks", "100"),
        ],
        named: json!({s: ["aces_100", "aces_100", "royal_marriage"]}),
        words: format!("{s} royal marriage 40 + eight aces 1000 = 1040."),
    })
    .await
    else {
        return;
    };
    assert_eq!(hand["EW"]["meld"], json!(1040));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_pinochle_counts_scarnes_double_pinochle() {
    let [m, _, v, _] = FOUR;
    let Some((_, hand)) = counted(Counted {
        name: "check",
        game: "check_pinochle",
        agreements: json!({}),
        players: &FOUR,
        steps: vec![
            Do::Choose("bidder", m),
            type_in("bid", "250"),
            Do::Choose("trump", "diamonds"),
            Do::Calculator("NS.meld"),
            // Margaret a run 150 and the dix 10; Vincenzo a double pinochle, 80 in Scarne's
            // game: 240.
            Do::Meld("flush", 1),
            Do::Meld("dix", 1),
            Do::Whose(1),
            Do::Meld("double_pinochle", 1),
            Do::Sum(format!(
                "{m}: run 150 + dix 10 = 160; {v}: double pinochle 80 = 240"
            )),
            Do::Use("NS.meld", 240),
            type_in("NS.tricks", "150"),
            type_in("EW.meld", "0"),
        ],
        named: json!({m: ["dix", "flush"], v: ["double_pinochle"]}),
        words: format!("{m} run 150 + dix 10 = 160; {v} double pinochle 80."),
    })
    .await
    else {
        return;
    };
    assert_eq!(hand["NS"]["meld"], json!(240));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contract_pinochle_counts_without_a_field() {
    let m = FOUR[0];
    let Some(t) = table("contract", "contract_pinochle", json!({}), &FOUR).await else {
        return;
    };
    let phone = &t.phone;
    choose(phone, "bidder", m).await;
    fill(phone, "bid", "250").await;
    choose(phone, "trump", "hearts").await;
    choose(phone, "outcome", "made_on_meld").await;
    open_calculator(phone, "").await;
    // The contracting side's run 150 and 100 aces 100 make 250 on meld alone.
    tap(phone, "flush", 1).await;
    tap(phone, "aces_100", 1).await;
    sum_reads(phone, "run 150 + 100 aces 100 = 250").await;
    // Not shown, not merely marked hidden: a button's own display once overrode it.
    let shown = script_value(
        phone,
        "return document.querySelector('dialog.meld-dialog button.meld-use').getClientRects().length;",
    )
    .await;
    assert_eq!(shown, json!(0), "Contract records no meld: no Use to tap");
    submit(phone, "dialog.meld-dialog button.secondary").await;
    let hand = enter(phone, t.id, "contract_pinochle").await;
    assert_eq!(hand["outcome"], json!("made_on_meld"));
    assert!(hand.get("meld_detail").is_none());
    assert!(latest_row(phone).await.contains("250"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_handed_pinochle_lets_a_royal_marriage_grow_into_the_run() {
    let [m, s, _, _] = FOUR;
    let field = format!("melds.{m}");
    let Some((_, hand)) = counted(Counted {
        name: "two",
        game: "two_handed_pinochle",
        agreements: json!({}),
        players: &FOUR[..2],
        steps: vec![
            Do::Calculator(&field),
            // S004 rule 3: royal marriage 40, grown into the run 150, and the dix 10: 200.
            Do::Meld("flush", 1),
            Do::Meld("royal_marriage", 1),
            Do::Meld("dix", 1),
            Do::Sum("run 150 + royal marriage 40 + dix 10 = 200".into()),
            Do::Use(&field, 200),
            type_in(&format!("melds.{s}"), "0"),
            type_in(&format!("tricks.{m}"), "130"),
        ],
        named: json!({m: ["dix", "flush", "royal_marriage"]}),
        words: format!("{m} run 150 + royal marriage 40 + dix 10 = 200."),
    })
    .await
    else {
        return;
    };
    assert_eq!(hand["melds"][m], json!(200));
}
