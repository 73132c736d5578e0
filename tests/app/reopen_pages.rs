//! The closed sitting at the table: a mis-tapped "Mark paid" is voided, the close is taken
//! back with "Reopen" and play goes on; the API takes `reopen` too. A three-handed Auction
//! Pinochle sitting at 5¢ with Scarne's kitty: each antes 0.10 (rules §1.2 rule 1), so the
//! kitty holds 0.30, and the close shares it 0.10 each.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{bold_says, has, one_text, select_text, transfers};
use common::pages::{export_of, import_doc, ledger_of};
use serde_json::{Value, json};

async fn import(app: &TestApp, events: Value) -> i64 {
    let doc = json!({"format": "scorekeeper/session@1", "game": "auction_pinochle",
        "agreements": {"stake": "0.05", "kitty": "pot"}, "players": ["Ann", "Bob", "Cy"],
        "events": events});
    import_doc(app, &doc).await
}

/// Posts `form` to the sheet's `action`; fails unless the answer is 303 back to the sheet
/// at `anchor` (where the phone should land: the settle-up, the latest row).
async fn post_back(app: &TestApp, sheet: &str, action: &str, form: &[(&str, &str)], anchor: &str) {
    let reply = app.post_form(&format!("{sheet}/{action}"), form).await;
    assert_eq!(reply.status.as_u16(), 303, "{action}: {}", reply.body);
    assert_eq!(
        reply.location.as_deref(),
        Some(format!("{sheet}#{anchor}").as_str())
    );
}

async fn balances(app: &TestApp, id: i64) -> Value {
    ledger_of(app, id).await["balances"].clone()
}

/// Ann 250 in hearts made: 2 units × 0.05 = 0.10 from Bob and from Cy.
fn made_250() -> Value {
    json!({"type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 250, "trump": "hearts", "outcome": "made"})
}

#[tokio::test]
async fn a_payment_is_voided_and_the_close_taken_back_from_the_sheet() {
    let app = TestApp::new().await;
    let id = import(&app, json!([made_250(), {"type": "close"}])).await;
    let sheet = format!("/sessions/{id}");
    // Closed: Ann +0.10 + 0.10 kitty share = 0.20; Bob and Cy −0.20 + 0.10 = −0.10.
    assert_eq!(
        balances(&app, id).await,
        json!({"Ann": "0.20", "Bob": "-0.10", "Cy": "-0.10", "KITTY": "0.00"})
    );
    let page = app.get(&sheet).await.body;
    assert!(
        page.contains("Reopen the sitting…"),
        "a closed sitting offers Reopen"
    );
    assert!(has(
        &page,
        &format!("form[action=\"/sessions/{id}/reopen\"]")
    ));

    // Mark paid: Bob pays Ann 0.10; then it is voided (a mis-tap).
    app.post_form_ok(
        &format!("{sheet}/payments"),
        &[
            ("expected_events", "2"),
            ("from", "Bob"),
            ("to", "Ann"),
            ("amount", "0.10"),
        ],
    )
    .await;
    assert_eq!(balances(&app, id).await["Bob"], "0.00");
    let page = app.get(&sheet).await.body;
    assert!(
        page.contains("Yes, void: Bob paid Ann 0.10"),
        "each payment offers Void"
    );
    post_back(
        &app,
        &sheet,
        "payments/void",
        &[("expected_events", "3"), ("event", "2")],
        "settle",
    )
    .await;
    assert_eq!(
        balances(&app, id).await,
        json!({"Ann": "0.20", "Bob": "-0.10", "Cy": "-0.10", "KITTY": "0.00"})
    );
    let page = app.get(&sheet).await.body;
    assert!(
        !page.contains("Yes, void:"),
        "a voided payment cannot be voided again"
    );
    // Only payments can be voided.
    let refused = app
        .post_form(
            &format!("{sheet}/payments/void"),
            &[("expected_events", "4"), ("event", "0")],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 400, "{}", refused.body);
    assert!(
        refused
            .body
            .contains("Payment: that payment is no longer on the sheet")
    );

    // Reopen: back to the balances before the close, the kitty 0.30 again.
    post_back(
        &app,
        &sheet,
        "reopen",
        &[("expected_events", "4"), ("reason", "one more hand")],
        "latest",
    )
    .await;
    assert_eq!(
        balances(&app, id).await,
        json!({"Ann": "0.10", "Bob": "-0.20", "Cy": "-0.20", "KITTY": "0.30"})
    );
    let page = app.get(&sheet).await.body;
    assert!(page.contains("Next hand"), "play goes on");
    assert!(page.contains("one more hand"), "the reason is on the sheet");
    assert!(
        page.contains("reopened "),
        "the close row says it was reopened"
    );
    // Hand 2 goes in and lands on the latest row.
    let hand_2 = [
        ("expected_events", "5"),
        ("dealer", "Ann"),
        ("bidder", "Bob"),
        ("bid", "250"),
        ("trump", "hearts"),
        ("outcome", "made"),
    ];
    post_back(&app, &sheet, "hands", &hand_2, "latest").await;
    // Bob +0.20, Ann and Cy −0.10.
    assert_eq!(
        balances(&app, id).await,
        json!({"Ann": "0.00", "Bob": "0.00", "Cy": "-0.30", "KITTY": "0.30"})
    );
    let page = app.get(&sheet).await.body;
    assert_eq!(
        select_text(&page, "tr#latest > td.num"),
        ["2"],
        "the latest row is hand 2"
    );

    // A phone that still shows hand 1 sends the same hand again: it is told of hand 2,
    // counted in hands.
    let stale = app.post_form(&format!("{sheet}/hands"), &hand_2).await;
    assert_eq!(stale.status.as_u16(), 409);
    assert!(
        stale
            .body
            .contains("hand 2 was just entered by another device"),
        "{}",
        stale.body
    );
}

#[tokio::test]
async fn the_api_takes_reopen_only_after_a_close() {
    let app = TestApp::new().await;
    let id = import(&app, json!([made_250()])).await;
    let events = format!("/api/v1/sessions/{id}/events");
    let early = app.post_json(&events, &json!({"type": "reopen"})).await;
    assert_eq!(early.status.as_u16(), 422, "{}", early.body);
    assert!(early.body.contains("nothing to reopen"), "{}", early.body);
    assert_eq!(
        app.post_json(&events, &json!({"type": "close"}))
            .await
            .status
            .as_u16(),
        201
    );
    let hand = app.post_json(&events, &made_250()).await;
    assert_eq!(hand.status.as_u16(), 422, "no hand after the close");
    let reopen = app
        .post_json(
            &events,
            &json!({"type": "reopen", "reason": "one more hand"}),
        )
        .await;
    assert_eq!(reopen.status.as_u16(), 201, "{}", reopen.body);
    assert_eq!(
        balances(&app, id).await,
        json!({"Ann": "0.10", "Bob": "-0.20", "Cy": "-0.20", "KITTY": "0.30"})
    );
    assert_eq!(
        app.post_json(&events, &made_250()).await.status.as_u16(),
        201
    );
    let export = export_of(&app, &id).await;
    assert_eq!(
        export["events"][2],
        json!({"type": "reopen", "reason": "one more hand"})
    );
}

#[tokio::test]
async fn the_preview_mid_game_is_what_closing_now_would_do() {
    let app = TestApp::new().await;
    // Bob loses 350 in spades: 4 units × 2 (spades) × 2 (double bete) × 0.05 = 0.80 to each
    // other player, and twice the kitty (0.60) into the kitty (rules §1.2 rule 5).
    let id = import(
        &app,
        json!([{"type": "hand", "dealer": "Cy", "bidder": "Bob", "bid": 350, "trump": "spades", "outcome": "failed"}]),
    )
    .await;
    assert_eq!(
        balances(&app, id).await,
        json!({"Ann": "0.70", "Bob": "-2.30", "Cy": "0.70", "KITTY": "0.90"})
    );
    let page = app.get(&format!("/sessions/{id}")).await.body;
    assert!(
        !transfers(&page).iter().any(|t| t.contains(" pays Kitty")),
        "nobody pays the kitty that closing empties"
    );
    assert!(
        !select_text(&page, "strong")
            .iter()
            .any(|s| s.ends_with("KITTY"))
    );
    // Closing now shares the 0.90 kitty 0.30 each: Ann 1.00, Cy 1.00, Bob −2.00.
    assert_eq!(
        transfers(&page),
        ["Bob pays Ann $1.00", "Bob pays Cy $1.00"],
        "{page}"
    );
    assert!(bold_says(
        &page,
        "Bob",
        "Bob: opening ante −\u{2060}$0.10 · hand 1 −\u{2060}$2.20 · kitty share on closing now +\u{2060}$0.30"
    ));
    // The standing API proposes the sheet's settle-up, not "Bob pays KITTY 0.90"; its
    // balances still hold the kitty, as the ledger's do.
    let standing = app
        .get(&format!("/api/v1/sessions/{id}/standing"))
        .await
        .json();
    assert_eq!(
        standing["settlement"],
        json!([{"from": "Bob", "to": "Ann", "amount": "1.00"},
               {"from": "Bob", "to": "Cy", "amount": "1.00"}]),
        "{standing}"
    );
    assert_eq!(standing["balances"]["KITTY"], "0.90");
    // The next event's answer proposes the same way: Ann's 250 made takes 0.10 from Bob
    // and from Cy (Ann 0.90, Bob −2.40, Cy 0.60, kitty 0.90, 0.30 each on closing).
    let next = app
        .post_json(&format!("/api/v1/sessions/{id}/events"), &made_250())
        .await;
    assert_eq!(next.status.as_u16(), 201, "{}", next.body);
    assert_eq!(
        next.json()["settlement"],
        json!([{"from": "Bob", "to": "Ann", "amount": "1.20"},
               {"from": "Bob", "to": "Cy", "amount": "0.90"}]),
        "{}",
        next.body
    );
}

#[tokio::test]
async fn the_preview_names_the_kitty_share_and_check_pinochle_says_no_kitty() {
    let app = TestApp::new().await;
    let id = import(
        &app,
        json!([{"type": "hand", "dealer": "Cy", "bidder": "Bob", "bid": 350, "trump": "spades", "outcome": "failed"}]),
    )
    .await;
    let page = app.get(&format!("/sessions/{id}")).await.body;
    // The 0.90 kitty leaves the kitty, 0.30 to each player.
    assert!(page.contains("Closing now would also move:"), "{page}");
    let moves = one_text(&page, "p.close-effect");
    let (minus, plus) = (
        select_text(&page, "p.close-effect > span.minus"),
        select_text(&page, "p.close-effect > span.plus"),
    );
    assert!(
        moves.contains("Kitty −\u{2060}$0.90") && minus.contains(&"−\u{2060}$0.90".to_string()),
        "{page}"
    );
    assert!(moves.contains("Ann +\u{2060}$0.30") && plus.contains(&"+\u{2060}$0.30".to_string()));

    // Check Pinochle has no kitty: its settle-up never speaks of one.
    let doc = json!({"format": "scorekeeper/session@1", "game": "check_pinochle",
        "agreements": {"stake": "0.25"}, "players": ["Ann", "Bob", "Cy", "Dan"],
        "events": [{"type": "hand", "dealer": "Dan", "bidder": "Ann", "bid": 250, "trump": "hearts",
                    "NS": {"meld": 120, "tricks": 150}, "EW": {"meld": 40, "tricks": 100}}]});
    let id = import_doc(&app, &doc).await;
    let page = app.get(&format!("/sessions/{id}")).await.body;
    let settle = &page[page.find("id=\"settle\"").unwrap()..];
    assert!(settle.contains("pays"), "closing now settles the checks");
    assert!(!settle.to_lowercase().contains("kitty"), "{settle}");
}
