//! Correcting a hand on the Pitch, Check Pinochle and Auction Pinochle sheets: the form
//! comes pre-filled and the sheet shows the result.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{has, refusal, select_text};
use common::pages::{ANN_BOB_CY, import_doc, ledger_of, post_hand, start_session};
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

/// What the Auction Pinochle form says was entered: "All passed" tapped on a filled-in
/// contract is refused, and the page sent back must not claim the hand was entered as all
/// passed (nothing was entered); a correction of a hand recorded as all passed says so.
#[tokio::test]
async fn the_all_passed_note_says_what_was_entered_not_what_a_refused_form_sent() {
    let app = TestApp::new().await;
    let (sheet, _) = start_session(&app, &ANN_BOB_CY).await;
    let note = "p.all-passed-entered";
    let contract = [
        ("dealer", "Cy"),
        ("bidder", "Ann"),
        ("bid", "300"),
        ("trump", "hearts"),
        ("outcome", "made"),
    ];
    let form = |extra: &[(&str, &str)]| -> Vec<(String, String)> {
        extra
            .iter()
            .chain(&contract)
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let refused = post_hand(
        &app,
        &sheet,
        &form(&[("expected_events", "0"), ("all_passed", "true")]),
    )
    .await;
    assert_eq!(refused.status.as_u16(), 422, "{}", refused.body);
    assert!(refusal(&refused.body).0.starts_with("All passed, but"));
    assert!(
        !refused.body.contains("entered as all passed"),
        "nothing was entered: {:?}",
        select_text(&refused.body, note)
    );

    // A hand recorded as all passed, opened for correction: the note asks for the contract.
    let passed = [
        ("expected_events", "0"),
        ("dealer", "Cy"),
        ("all_passed", "true"),
    ];
    assert_eq!(
        app.post_form(&format!("{sheet}/hands"), &passed)
            .await
            .status
            .as_u16(),
        303
    );
    let opened = app.get(&format!("{sheet}?correct=0")).await.body;
    assert_eq!(
        select_text(&opened, note),
        ["This hand was entered as all passed; fill in the contract to change that."]
    );
    // Its contract filled in but refused (a bid under the minimum): the note still tells the
    // recorded hand, and says the contract shown replaces it.
    let mut low = form(&[("expected_events", "1"), ("correct_event", "0")]);
    low.retain(|(k, _)| k != "bid");
    low.push(("bid".into(), "200".into()));
    let refused = post_hand(&app, &sheet, &low).await;
    assert_eq!(refused.status.as_u16(), 422, "{}", refused.body);
    assert_eq!(
        select_text(&refused.body, note),
        ["This hand was entered as all passed; the contract below replaces it."]
    );
}
