//! The Partnership Auction Pinochle pages through the real router (rules §1.6): the
//! new-session form, the short hand form (one side's tricks, the other's the rest of 250),
//! the all-pass button, refusals that name the field, a game to 1,000 with its payments, and
//! the close of an unfinished game. Expected numbers are worked out here from the rules.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{
    bold_says, has, has_parts, marked_invalid, select_attr, select_text, selected, side_players,
};
use common::pages::{contract_form, export_of, ledger_of, post_hand, post_hand_ok, start_game};
use serde_json::json;

const PLAYERS: [&str; 4] = ["Ann", "Bob", "Cy", "Dan"];

/// Creates Ann & Cy (NS) against Bob & Dan (EW) through the new-session form.
async fn new_session(app: &TestApp, stake: &str, aeroplane: &str) -> (String, String) {
    start_game(
        app,
        "partnership_auction_pinochle",
        &PLAYERS,
        &[
            ("stake", stake),
            ("aeroplane", aeroplane),
            ("min_bid", ""),
            ("target", "1000"),
        ],
    )
    .await
}

/// The hand form as a phone submits it: NS's tricks only, both melds.
#[allow(clippy::too_many_arguments)]
fn hand_form(
    expected: usize,
    dealer: &str,
    bidder: &str,
    bid: i64,
    trump: &str,
    ns_meld: i64,
    ns_tricks: i64,
    ew_meld: i64,
) -> Vec<(String, String)> {
    contract_form(
        (expected, dealer, bidder),
        (bid, trump),
        [
            ("NS.meld", ns_meld.to_string()),
            ("NS.tricks", ns_tricks.to_string()),
            ("EW.meld", ew_meld.to_string()),
        ],
    )
}

#[tokio::test]
async fn the_new_session_form_offers_the_game_and_its_defaults() {
    let app = TestApp::new().await;
    let list = app.get("/").await;
    assert!(list.body.contains("partnership_auction_pinochle"));
    let form = app
        .get("/sessions/new?game=partnership_auction_pinochle")
        .await;
    assert_eq!(form.status.as_u16(), 200);
    let body = &form.body;
    assert!(body.contains("New Partnership Auction Pinochle session"));
    assert!(body.contains("rules §1.6"));
    assert_eq!(
        select_attr(body, "input[name=\"a.stake\"]", "value"),
        ["0.00"]
    );
    assert_eq!(
        select_attr(body, "input[name=\"a.target\"]", "value"),
        ["1000"]
    );
    assert_eq!(selected(body, "a.aeroplane").as_deref(), Some("no"));
    assert!(body.contains("Seat 4") && !body.contains("Seat 5"));
}

#[tokio::test]
async fn one_sides_tricks_are_entered_and_a_failed_bid_is_set_back_on_the_sheet() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "0.25", "yes").await;
    let form = app.get(&sheet).await.body;
    assert!(has(&form, "[min=\"250\"]"), "Aeroplane bids from 250");
    assert!(form.contains("Aeroplane: bids from 250, at most two bids each"));
    // Ann (NS) bids 300 with meld 90 and 200 of the tricks: 290 < 300, so NS −300. EW take
    // the other 250 − 200 = 50 and meld 100: +150 (rules §1.6, as golden AE-02-b).
    post_hand_ok(
        &app,
        &sheet,
        &hand_form(0, "Dan", "Ann", 300, "hearts", 90, 200, 100),
    )
    .await;
    let export = export_of(&app, &id).await;
    assert_eq!(
        export["events"][0],
        json!({"type": "hand", "dealer": "Dan", "bidder": "Ann", "bid": 300, "trump": "hearts",
               "NS": {"meld": 90, "tricks": 200}, "EW": {"meld": 100, "tricks": 50}})
    );
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["scores"], json!({"NS": -300, "EW": 150}));
    assert_eq!(ledger["games"], json!([]));
    let body = app.get(&sheet).await.body;
    assert!(body.contains("set back"), "the failed bid is marked");
    assert!(body.contains("NS in the hole"));
    assert!(body.contains("set back 300: meld and tricks lost"));
    assert!(
        has(
            &body,
            "td[data-account=NS] > span[class=minus]:first-child + span[class=hole][title=\"in the hole\"]:last-child"
        ) && has_parts(&body, "td[data-account=NS]", &["−300", "−300"]),
        "NS: −300 on the hand and −300 running"
    );
    assert!(
        has(
            &body,
            "td[data-account=EW] > span[class=plus]:first-child + small:last-child"
        ) && has_parts(&body, "td[data-account=EW]", &["+150", "150"])
    );
    assert!(side_players(&body, "NS").contains(&"Ann & Cy".to_string()));
    // Ann deals next (Dan's left), and a game is under way.
    assert!(selected(&body, "dealer").as_deref() == Some("Ann"));
    assert!(
        body.contains("Game 1 is unfinished (NS −300, EW 150): closing now pays nothing for it.")
    );
}

#[tokio::test]
async fn refusals_name_the_field_and_write_nothing() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "0.25", "yes").await;
    // 240 is below Aeroplane's 250 (S003 rule 2).
    let reply = post_hand(
        &app,
        &sheet,
        &hand_form(0, "Dan", "Bob", 240, "clubs", 40, 100, 100),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply.body.contains("Bid: 240 is below the minimum 250"),
        "{}",
        reply.body
    );
    assert!(
        has(
            &reply.body,
            "input[value=\"240\"][placeholder=\"250\"][aria-invalid=true]"
        ),
        "{}",
        reply.body
    );
    // More than 250 trick points for NS.
    let reply = post_hand(
        &app,
        &sheet,
        &hand_form(0, "Dan", "Bob", 250, "clubs", 40, 260, 100),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply.body.contains("NS tricks: 260 is outside 0–250"),
        "{}",
        reply.body
    );
    // "All four passed" with a bid still filled in: the form says what it would drop.
    let mut form = hand_form(0, "Dan", "Bob", 250, "clubs", 0, 100, 0);
    form.push(("all_passed".into(), "true".into()));
    let reply = post_hand(&app, &sheet, &form).await;
    // Read from the form before the rules see it: a 422 that names the field.
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply.body.contains("all four passed, so nobody bid"),
        "{}",
        reply.body
    );
    assert!(
        marked_invalid(&reply.body).contains(&"Bidder".to_string()),
        "{}",
        reply.body
    );
    // Ann bids a third time in the auction: Aeroplane allows two (S003 rule 1). Dan dealt,
    // so Ann calls first: Ann 250, Bob pass, Cy 260, Dan pass, Ann 270, Cy 280, Ann 290.
    let mut form = hand_form(0, "Dan", "Ann", 290, "clubs", 100, 200, 0);
    form.push((
        "auction".into(),
        "Ann 250, Bob pass, Cy 260, Dan pass, Ann 270, Cy 280, Ann 290".into(),
    ));
    let reply = post_hand(&app, &sheet, &form).await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply.body.contains(
            "Auction 7: Ann already bid 2 times, and in Aeroplane each player may bid only twice"
        ),
        "{}",
        reply.body
    );
    assert!(
        has(&reply.body, "details[open]"),
        "the auction stays open to fix"
    );
    assert!(has(&reply.body, "[autocomplete=off][aria-invalid=true]"));
    assert!(
        export_of(&app, &id).await["events"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn a_valid_auction_typed_on_the_form_is_kept_with_the_hand() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "0.25", "yes").await;
    // Golden AE-01-c at this table: Ann 250, Cy 260, Ann 270; NS 100 + 200 = 300 ≥ 270.
    let mut form = hand_form(0, "Dan", "Ann", 270, "clubs", 100, 200, 0);
    form.push((
        "auction".into(),
        "Ann 250, Bob pass, Cy 260, Dan pass, Ann 270, Cy pass".into(),
    ));
    post_hand_ok(&app, &sheet, &form).await;
    let export = export_of(&app, &id).await;
    assert_eq!(
        export["events"][0]["auction"],
        json!([
            ["Ann", 250],
            ["Bob", "pass"],
            ["Cy", 260],
            ["Dan", "pass"],
            ["Ann", 270],
            ["Cy", "pass"]
        ])
    );
    assert_eq!(
        ledger_of(&app, &id).await["scores"],
        json!({"NS": 300, "EW": 50})
    );
    assert!(
        app.get(&sheet)
            .await
            .body
            .contains("auction checked (6 calls)")
    );
}

#[tokio::test]
async fn all_four_passed_scores_nothing_and_the_deal_passes_left() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "0.00", "no").await;
    post_hand_ok(
        &app,
        &sheet,
        &[
            ("expected_events".into(), "0".into()),
            ("dealer".into(), "Bob".into()),
            ("bidder".into(), String::new()),
            ("bid".into(), String::new()),
            ("NS.tricks".into(), String::new()),
            ("all_passed".into(), "true".into()),
        ],
    )
    .await;
    let export = export_of(&app, &id).await;
    assert_eq!(
        export["events"][0],
        json!({"type": "hand", "dealer": "Bob", "all_passed": true})
    );
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["scores"], json!({"NS": 0, "EW": 0}));
    let body = app.get(&sheet).await.body;
    assert!(body.contains("all passed: Cy deals next"));
    assert!(
        selected(&body, "dealer").as_deref() == Some("Cy"),
        "Cy deals next"
    );
}

#[tokio::test]
async fn a_game_to_1000_pays_the_stake_and_a_second_game_unfinished_at_the_close_pays_nothing() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "0.50", "no").await;
    // (dealer, bidder, bid, NS meld, NS tricks, EW meld) and what each side scores:
    // 1. Bob (EW) bids 250: EW 100 + 170 = 270 ≥ 250 → EW +270; NS 60 + 80 = +140.
    // 2. Cy (NS) bids 300: NS 150 + 160 = 310 → +310; EW 40 + 90 = +130.  NS 450, EW 400.
    // 3. Dan (EW) bids 350: EW 80 + 100 = 180 < 350 → −350; NS 20 + 150 = +170. NS 620, EW 50.
    // 4. Ann (NS) bids 400: NS 240 + 200 = 440 → +440 → NS 1,060 ≥ 1,000: NS win game 1.
    let deals = [
        ("Ann", "Bob", 250, 60, 80, 100),
        ("Bob", "Cy", 300, 150, 160, 40),
        ("Cy", "Dan", 350, 20, 150, 80),
        ("Dan", "Ann", 400, 240, 200, 0),
    ];
    for (i, (dealer, bidder, bid, ns_meld, ns_tricks, ew_meld)) in deals.into_iter().enumerate() {
        let reply = post_hand(
            &app,
            &sheet,
            &hand_form(
                i, dealer, bidder, bid, "spades", ns_meld, ns_tricks, ew_meld,
            ),
        )
        .await;
        assert_eq!(reply.status.as_u16(), 303, "hand {}: {}", i + 1, reply.body);
    }
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(
        ledger["games"],
        json!([{"winner": "NS", "decided_by": "target", "final_scores": {"NS": 1060, "EW": 100}}])
    );
    // Each EW player pays his opposite number 0.50: Bob → Ann, Dan → Cy.
    assert_eq!(
        ledger["balances"],
        json!({"Ann": "0.50", "Bob": "-0.50", "Cy": "0.50", "Dan": "-0.50"})
    );
    assert_eq!(ledger["scores"], json!({"NS": 0, "EW": 0}));
    let body = app.get(&sheet).await.body;
    assert!(
        bold_says(&body, "Game 1: NS wins", "Game 1: NS wins at"),
        "the game row names the winner"
    );
    assert!(body.contains("Bob pays Ann $0.50, Dan pays Cy $0.50"));
    for (player, class, sign) in [
        ("Ann", "plus", "+"),
        ("Bob", "minus", "−"),
        ("Cy", "plus", "+"),
        ("Dan", "minus", "−"),
    ] {
        let money = format!("{sign}\u{2060}$0.50");
        assert!(
            select_text(&body, "li").contains(&format!("{player} {money}"))
                && select_text(&body, &format!("li > span[class={class}]")).contains(&money),
            "{player}'s payment is on the game row"
        );
    }
    // Nothing under way right after the game.
    assert!(!body.contains("is unfinished"));

    // Game 2: Bob (EW) bids 200, EW 100 + 150 = 250 → +250; NS 40 + 100 = +140.
    post_hand_ok(
        &app,
        &sheet,
        &hand_form(4, "Ann", "Bob", 200, "clubs", 40, 100, 100),
    )
    .await;
    let body = app.get(&sheet).await.body;
    assert!(
        body.contains("Game 2 is unfinished (NS 140, EW 250): closing now pays nothing for it.")
    );
    app.post_form_ok(&format!("{sheet}/close"), &[("expected_events", "5")])
        .await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["games"].as_array().unwrap().len(), 1);
    assert_eq!(
        ledger["balances"],
        json!({"Ann": "0.50", "Bob": "-0.50", "Cy": "0.50", "Dan": "-0.50"}),
        "the unfinished game paid nothing"
    );
    let why = ledger["events"][5]["explanation"].as_str().unwrap();
    assert!(
        why.contains("game 2 unfinished (NS 140, EW 250): it settles nothing"),
        "{why}"
    );
}
