//! Fast entry at the table (issues 9 and 24) in headless Chromium at 390 px: a plain hand of
//! every game entered through the form, counting every tap a player makes, against issue
//! 24's targets; the hand as recorded and what the rules make of it (hand-worked below);
//! Check's meld checks as − / + steppers that start empty and post exactly what they show.
//!
//! How taps are counted: one per chip and per button (a quick value, a
//! stepper's + or −, a tick, Enter), two per menu (open, pick), and a typed field is one
//! (the tap that focuses it) plus one per character typed. The dealer the sheet proposes
//! is kept (no tap). See `common::entry`.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and is
//! skipped, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::browser::{Browser, page_fetch, script_value, section_screenshot};
use common::entry::{Taps, last_hand, open_session, shown};
use common::tables::{FOUR, doc};
use serde_json::json;
use thirtyfour::prelude::*;

#[path = "entry/plain.rs"]
mod plain;

/// The most taps a plain hand may take, per game.
const TARGETS: [(&str, usize); 9] = [
    ("auction_pinochle", 6),
    ("auction_pitch", 7),
    ("check_pinochle", 10),
    ("partnership_pinochle", 8),
    ("partnership_auction_pinochle", 9),
    ("contract_pinochle", 9),
    ("two_handed_pinochle", 8),
    ("poker", 15),
    // A house game: at most 2 taps and the digits per player (four, 5 digits).
    ("house_game", 13),
];

/// The most taps a plain hand of `game` may take ([`TARGETS`]); panics naming a game
/// without one.
fn target(game: &str) -> usize {
    TARGETS
        .iter()
        .find(|(g, _)| *g == game)
        .unwrap_or_else(|| panic!("{game}: no target in TARGETS; add one"))
        .1
}

/// A plain hand of `game` entered through its form, in taps ([`plain`]); panics naming a
/// game that has none there.
async fn plain_hand(game: &str, browser: &Browser, phone: &WebDriver) -> usize {
    match game {
        "auction_pinochle" => plain::auction_pinochle(browser, phone).await,
        "auction_pitch" => plain::auction_pitch(browser, phone).await,
        "check_pinochle" => plain::check_pinochle(browser, phone).await,
        "partnership_pinochle" => plain::partnership(browser, phone).await,
        "partnership_auction_pinochle" => plain::partnership_auction(browser, phone).await,
        "contract_pinochle" => plain::contract(browser, phone).await,
        "two_handed_pinochle" => plain::two_handed(browser, phone).await,
        "poker" => plain::poker(browser, phone).await,
        "house_game" => plain::house_game(browser, phone).await,
        other => panic!(
            "{other}: no plain hand in tests/browser/entry/plain.rs; add one and its target \
             to TARGETS"
        ),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_hand_is_a_few_taps_in_every_game() {
    let Some(browser) = Browser::start("entry-taps").await else {
        return;
    };
    let phone = browser.phone("taps").await;
    // Every registered game, so one added without its plain hand fails here.
    let mut counts = Vec::new();
    let mut rounds = None;
    for game in scorekeeper::rules::GAMES {
        match game.id {
            // The Auction game's hand is nine rounds, its taps counted per round.
            "auction_game" => rounds = Some(plain::auction_game(&browser, &phone).await),
            id => counts.push((id, plain_hand(id, &browser, &phone).await)),
        }
    }
    let rounds = rounds.expect("the Auction game is registered");
    for (game, count) in &counts {
        let target = target(game);
        println!("{game}: a plain hand is {count} taps (target {target} or fewer)");
    }
    println!("auction_game: taps per round {rounds:?} (target 4 or fewer a round)");
    for (game, count) in &counts {
        let target = target(game);
        assert!(count <= &target, "{game}: {count} taps > {target}");
    }
    for (round, taps) in rounds.iter().enumerate() {
        assert!(
            *taps <= 4,
            "auction_game round {}: {taps} taps > 4",
            round + 1
        );
    }
    phone.quit().await.unwrap();
}

/// Check's meld checks: − / + steppers of 44 px that start empty, stop at what a deal can
/// hold and post what they show; without script, plain typed number fields.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_meld_checks_step_and_post_what_they_show() {
    let Some(browser) = Browser::start("entry-checks").await else {
        return;
    };
    let phone = browser.phone("checks").await;
    let [_, _, v, _] = FOUR;
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
    let buttons = script_value(&phone, "return [...document.querySelectorAll('#next .meld-checks button.step')]\
               .map(b => { var r = b.getBoundingClientRect(); return [b.type, r.width, r.height]; });").await;
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
    // A hand with check melds: a tap per meld on its +; − takes one back; + stops at the
    // most a deal can hold (two 100 aces); the meld steps by 10.
    let mut taps = Taps::new(&phone);
    taps.pick("bidder", v).await;
    taps.number("bid", "300").await;
    taps.pick("trump", "spades").await;
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
    assert_eq!(
        last_hand(&phone, id).await,
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
        let mut taps = Taps::new(&phone);
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
        assert_eq!(taps.count, 12, "seven steps, 140 typed (1 + 3), one step");
    }
    phone.quit().await.unwrap();
}
