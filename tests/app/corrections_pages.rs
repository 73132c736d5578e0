//! Correcting a hand on the Pitch and Check Pinochle sheets: the form comes pre-filled and
//! the sheet shows the result.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::has;
use common::pages::{import_doc, ledger_of};
use serde_json::json;

async fn import(app: &TestApp, doc: serde_json::Value) -> String {
    format!("/sessions/{}", import_doc(app, &doc).await)
}

#[tokio::test]
async fn a_pitch_hand_is_corrected_through_its_form() {
    let app = TestApp::new().await;
    let sheet = import(
        &app,
        json!({"format": "scorekeeper/session@1", "game": "auction_pitch", "agreements": {"stake": "0.05"},
               "players": ["Ann", "Bob", "Cy"],
               "events": [{"type": "hand", "dealer": "Cy", "pitcher": "Ann", "bid": 2,
                           "points": {"high": "Ann", "low": "Bob", "jack": null, "game": "Ann"}}]}),
    )
    .await;
    let form = app.get(&format!("{sheet}?correct=0")).await;
    assert_eq!(form.status.as_u16(), 200);
    assert!(form.body.contains("Correct hand 1"));
    assert!(has(&form.body, "[name=correct_event][value=\"0\"]"));
    // Low really went to Ann: she took High, Low and Game, 3 points; Bob none.
    app.post_form_ok(
        &format!("{sheet}/hands"),
        &[
            ("expected_events", "1"),
            ("correct_event", "0"),
            ("dealer", "Cy"),
            ("pitcher", "Ann"),
            ("bid", "2"),
            ("points.high", "Ann"),
            ("points.low", "Ann"),
            ("points.jack", "nobody"),
            ("points.game", "Ann"),
        ],
    )
    .await;
    let id = sheet.rsplit('/').next().unwrap();
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["scores"], json!({"Ann": 3, "Bob": 0, "Cy": 0}));
    assert_eq!(app.get(&sheet).await.status.as_u16(), 200);
}

/// The settle-up's "every hand" is a link, not text sent with every sheet; the page it
/// opens names the corrected hand as corrected, and each balance is the ledger's.
async fn every_hand_reads_the_corrected_hand(
    app: &TestApp,
    sheet: &str,
    ledger: &serde_json::Value,
) {
    let link = sheet
        .split("href=\"")
        .filter_map(|rest| rest.split('"').next())
        .find(|href| href.contains("/why?"))
        .expect("the settle-up links to every hand")
        .replace("&amp;", "&")
        .replace("&#38;", "&");
    let why = app.get(&link).await;
    assert_eq!(why.status.as_u16(), 200, "{}", why.body);
    assert!(why.body.contains("hand 1 (corrected)"), "{}", why.body);
    for (who, cents) in ledger["balances"].as_object().unwrap() {
        if !link.contains(&format!("={who}")) {
            continue;
        }
        let cents: i64 = cents.as_str().unwrap().replace('.', "").parse().unwrap();
        let money = format!(
            "{}\u{2060}${}.{:02}",
            if cents < 0 { "−" } else { "+" },
            cents.abs() / 100,
            cents.abs() % 100
        );
        assert!(
            why.body.contains(&format!("{who} {money}:")),
            "{who} {money}: {}",
            why.body
        );
    }
}

#[tokio::test]
async fn a_check_pinochle_hand_is_corrected_through_its_form() {
    let app = TestApp::new().await;
    let hand = |ns_tricks: i64| {
        json!({"type": "hand", "dealer": "W", "bidder": "N", "bid": 300, "trump": "hearts",
               "NS": {"meld": 140, "meld_checks": ["aces_100"], "tricks": ns_tricks, "won_trick": true},
               "EW": {"meld": 60, "meld_checks": ["queens_60"], "tricks": 250 - ns_tricks, "won_trick": true}})
    };
    let sheet = import(
        &app,
        json!({"format": "scorekeeper/session@1", "game": "check_pinochle", "agreements": {"stake": "0.05"},
               "players": ["N", "E", "S", "W"], "events": [hand(180)]}),
    )
    .await;
    let form = app.get(&format!("{sheet}?correct=0")).await;
    assert_eq!(form.status.as_u16(), 200);
    assert!(has(&form.body, "[name=correct_event][value=\"0\"]"));
    assert!(
        has(&form.body, "[value=\"180\"]"),
        "NS tricks are pre-filled"
    );
    let id = sheet.rsplit('/').next().unwrap();
    let correction =
        json!({"type": "correction", "event": 0, "replacement": hand(150), "reason": "miscounted"});
    let reply = app
        .post_json(&format!("/api/v1/sessions/{id}/events"), &correction)
        .await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    let direct = scorekeeper::format::replay(
        &serde_json::from_value(json!({"format": "scorekeeper/session@1", "game": "check_pinochle", "agreements": {"stake": "0.05"},
            "players": ["N", "E", "S", "W"], "events": [hand(150)]}))
        .unwrap(),
    )
    .unwrap();
    let standing = reply.json();
    assert_eq!(
        standing["scores"],
        serde_json::to_value(&direct.scores).unwrap()
    );
    assert_eq!(
        standing["checks"],
        serde_json::to_value(&direct.checks).unwrap()
    );
    let page = app.get(&sheet).await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(
        page.body.contains("miscounted"),
        "the reason is on the sheet"
    );
}

#[tokio::test]
async fn the_settle_ups_every_hand_page_reads_a_corrected_hand() {
    let app = TestApp::new().await;
    let hand = |outcome: &str| {
        json!({"type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 250, "trump": "hearts",
               "outcome": outcome})
    };
    let sheet = import(
        &app,
        json!({"format": "scorekeeper/session@1", "game": "auction_pinochle",
               "agreements": {"stake": "0.05"}, "players": ["Ann", "Bob", "Cy"],
               "events": [hand("made")]}),
    )
    .await;
    let id = sheet.rsplit('/').next().unwrap();
    let correction = json!({"type": "correction", "event": 0, "replacement": hand("failed")});
    let reply = app
        .post_json(&format!("/api/v1/sessions/{id}/events"), &correction)
        .await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    let ledger = ledger_of(&app, &id).await;
    let page = app.get(&sheet).await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(
        !page.body.contains("(corrected)"),
        "no event list on the sheet itself"
    );
    every_hand_reads_the_corrected_hand(&app, &page.body, &ledger).await;
}
