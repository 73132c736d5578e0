//! The Partnership Pinochle pages through the real router (rules §1.5): the new-session
//! form, the hand form with its taps and its declare-out form, the score sheet and the
//! ledger document agree. Expected numbers are worked out here from the rules.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::html::{bold_says, has, has_parts, selected, side_players};
use common::pages::{export_of, ledger_of, start_game};
use common::{Reply, TestApp};
use serde_json::json;

const PLAYERS: [&str; 4] = ["Ann", "Bob", "Cy", "Dan"];

/// Creates Ann & Cy (NS) against Bob & Dan (EW) through the new-session form: 0.50 a game,
/// game 1,000 rising by 250, the dix agreements at their defaults.
async fn new_session(app: &TestApp) -> (String, String) {
    start_game(
        app,
        "partnership_pinochle",
        &PLAYERS,
        &[
            ("stake", "0.50"),
            ("target", "1000"),
            ("target_step", "250"),
            ("holder_dix_needs_trick", "yes"),
            ("turn_up_dix_needs_trick", "no"),
        ],
    )
    .await
}

async fn post(app: &TestApp, sheet: &str, form: &[(&str, &str)]) -> Reply {
    app.post_form(&format!("{sheet}/hands"), form).await
}

/// [`post`], which must be taken (303).
async fn post_ok(app: &TestApp, sheet: &str, form: &[(&str, &str)]) {
    app.post_form_ok(&format!("{sheet}/hands"), form).await;
}

#[tokio::test]
async fn the_hand_form_offers_dix_taps_one_tricks_entry_and_a_declare_out_form() {
    let app = TestApp::new().await;
    let (sheet, _) = new_session(&app).await;
    let page = app.get(&sheet).await;
    assert_eq!(page.status.as_u16(), 200);
    let body = &page.body;
    for p in PLAYERS {
        assert!(
            has(
                body,
                &format!("input[type=checkbox][name=\"dix_holders.{p}\"][value=\"1\"]")
            ),
            "a dix tap for {p}"
        );
    }
    assert!(has(body, "[name=\"turn_up_dix\"]"));
    assert!(has(body, "[name=\"NS.tricks\"]") && has(body, "[name=\"EW.tricks\"]"));
    assert!(body.contains("enter one side; the other is 250 minus it"));
    assert!(has(
        body,
        "input[type=hidden][name=type][value=declare_out]"
    ));
    assert!(has(body, "[name=\"tricks_so_far\"]"));
    assert!(
        side_players(body, "NS").contains(&"Ann & Cy".to_string()),
        "{body}"
    );
    // The agreements are on the sheet in words.
    assert!(body.contains("$0.50 a game: each loser pays his opposite number"));
    assert!(body.contains("1,000 points; 250 more each time both sides reach it on one deal"));
}

#[tokio::test]
async fn a_deal_with_both_dixes_entered_through_the_form() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app).await;
    // Ann deals hearts and turns up a dix (+10 to NS, unconditional); Cy was dealt the other
    // (+10 to NS, NS won tricks). NS meld 120 + 20 + tricks 160 = 300; EW meld 80 + tricks
    // 250 − 160 = 90 → 170. Only NS's tricks are entered.
    post_ok(
        &app,
        &sheet,
        &[
            ("expected_events", "0"),
            ("type", "hand"),
            ("dealer", "Ann"),
            ("trump", "hearts"),
            ("turn_up_dix", "true"),
            ("dix_holders.Cy", "1"),
            ("dix_both", ""),
            ("NS.meld", "120"),
            ("NS.tricks", "160"),
            ("EW.meld", "80"),
            ("EW.tricks", ""),
        ],
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["scores"], json!({"NS": 300, "EW": 170}));
    let stored = export_of(&app, &id).await;
    assert_eq!(
        stored["events"][0],
        json!({"type": "hand", "dealer": "Ann", "trump": "hearts", "turn_up_dix": true,
               "dix_holders": ["Cy"], "NS": {"meld": 120, "tricks": 160},
               "EW": {"meld": 80, "tricks": 90}}),
        "the form wrote the session format's hand event"
    );
    let body = app.get(&sheet).await.body;
    assert!(
        has_parts(&body, "td.tally.points[data-account=NS]", &["+300", "300"])
            && has(&body, "td.tally.points[data-account=NS] > span.plus"),
        "{body}"
    );
    assert!(body.contains("+10 dix (Cy)"), "the held dix is itemised");
    assert!(body.contains("+10 dix turned up (Ann)"));
    assert!(body.contains("+160 tricks") && body.contains("+90 tricks"));
    assert!(body.contains("♥ hearts"));
    assert!(
        selected(&body, "dealer").as_deref() == Some("Bob"),
        "Bob deals next"
    );
}

#[tokio::test]
async fn three_dixes_are_refused_naming_the_taps_and_nothing_is_written() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app).await;
    let reply = post(
        &app,
        &sheet,
        &[
            ("expected_events", "0"),
            ("type", "hand"),
            ("dealer", "Ann"),
            ("trump", "spades"),
            ("turn_up_dix", "true"),
            ("dix_holders.Bob", "1"),
            ("dix_holders.Cy", "1"),
            ("NS.tricks", "100"),
        ],
    )
    .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply
            .body
            .contains("Dix holders: the deck holds only two dixes"),
        "{}",
        reply.body
    );
    assert!(
        has(&reply.body, "fieldset.dix-holders[aria-invalid=true]"),
        "the taps are marked"
    );
    assert!(
        has(
            &reply.body,
            "[name=\"dix_holders.Bob\"][value=\"1\"][checked]"
        ),
        "the taps are kept"
    );
    let events = export_of(&app, &id).await["events"].clone();
    assert_eq!(events, json!([]), "nothing was written");
}

#[tokio::test]
async fn a_claim_through_the_declare_out_form_ends_the_game_and_pays() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app).await;
    // Deal 1: NS meld 500 + 200 = 700; EW 0 + 50 = 50.
    post_ok(
        &app,
        &sheet,
        &[
            ("expected_events", "0"),
            ("type", "hand"),
            ("dealer", "Ann"),
            ("trump", "clubs"),
            ("NS.meld", "500"),
            ("NS.tricks", "200"),
        ],
    )
    .await;
    // A claim with a wrong field is refused and the declare-out form stays open.
    let reply = post(
        &app,
        &sheet,
        &[
            ("expected_events", "1"),
            ("type", "declare_out"),
            ("claimant", "Cy"),
            ("meld", "200"),
            ("tricks_so_far", "42"),
        ],
    )
    .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply
            .body
            .contains("Tricks so far: 42 trick points cannot be taken")
    );
    assert!(has(&reply.body, "details.declare-out[open]"));
    // Cy claims: 700 + meld 200 + 110 so far = 1,010 ≥ 1,000: NS win game 1; Bob pays Ann
    // and Dan pays Cy 0.50 each.
    post_ok(
        &app,
        &sheet,
        &[
            ("expected_events", "1"),
            ("type", "declare_out"),
            ("claimant", "Cy"),
            ("meld", "200"),
            ("tricks_so_far", "110"),
        ],
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(
        ledger["games"],
        json!([{"winner": "NS", "decided_by": "declared_out", "final_scores": {"NS": 1010, "EW": 50}}])
    );
    assert_eq!(
        ledger["balances"],
        json!({"Ann": "0.50", "Bob": "-0.50", "Cy": "0.50", "Dan": "-0.50"})
    );
    let body = app.get(&sheet).await.body;
    assert!(
        bold_says(&body, "Game 1: NS wins", "Game 1: NS wins at"),
        "{body}"
    );
    assert!(body.contains("Cy declared out: 700 + meld 200 + tricks so far 110 = 1,010 ≥ 1,000"));
    assert!(body.contains("right: out"));
    // A new game is under way with nothing yet: no unfinished-game warning.
    assert!(!body.contains("is unfinished"));
}

#[tokio::test]
async fn the_close_button_warns_that_an_unfinished_game_pays_nothing() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app).await;
    post_ok(
        &app,
        &sheet,
        &[
            ("expected_events", "0"),
            ("dealer", "Ann"),
            ("trump", "diamonds"),
            ("EW.meld", "60"),
            ("EW.tricks", "130"),
        ],
    )
    .await;
    // NS 0 + 120 = 120; EW 60 + 130 = 190.
    let body = app.get(&sheet).await.body;
    assert!(
        body.contains(
            "Game 1 (NS 120, EW 190, game 1,000) is unfinished: closing now pays nothing for it."
        ),
        "{body}"
    );
    let reply = app
        .post_form(&format!("{sheet}/close"), &[("expected_events", "1")])
        .await;
    assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
    let ledger = ledger_of(&app, &id).await;
    assert!(ledger["games"].as_array().unwrap().is_empty());
    for p in PLAYERS {
        assert_eq!(ledger["balances"][p], "0.00");
    }
}
