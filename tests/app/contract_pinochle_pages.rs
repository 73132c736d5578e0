//! The Contract Pinochle pages through the real router (rules §1.8): the new-session form,
//! the hand form (a played hand, an all-pass deal, a refusal), the score sheet with a game's
//! end and its payments, and the ledger document agree. Expected numbers are worked out
//! here from rules §1.8 and session-format's "Money in the partnership games".

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{has, has_parts, refusal, refused_with, selected, side_players};
use common::pages::{contract_form, export_of, ledger_of, post_hand, post_hand_ok, start_game};
use serde_json::json;

const PLAYERS: [&str; 4] = ["Ann", "Bob", "Cy", "Dan"];

/// Creates Ann & Cy (NS) against Bob & Dan (EW) through the new-session form: 0.25 a game,
/// game at `target`, a double cancelled by an overcall.
async fn new_session(app: &TestApp, target: &str) -> (String, String) {
    start_game(
        app,
        "contract_pinochle",
        &PLAYERS,
        &[
            ("stake", "0.25"),
            ("target", target),
            ("double_survives_overcall", "no"),
        ],
    )
    .await
}

/// The hand form as a phone submits it.
fn hand_form(
    expected: usize,
    dealer: &str,
    bidder: &str,
    bid: i64,
    trump: &str,
    doubled: &str,
    outcome: &str,
) -> Vec<(String, String)> {
    contract_form(
        (expected, dealer, bidder),
        (bid, trump),
        [("doubled", doubled.into()), ("outcome", outcome.into())],
    )
}

#[tokio::test]
async fn a_doubled_contract_made_on_the_form_scores_twice_the_bid_for_one_side() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "3000").await;
    let page = app.get(&sheet).await;
    assert!(
        has(&page.body, "[name=\"outcome\"]"),
        "the hand form is shown"
    );
    assert!(page.body.contains("made on meld: bidders score the bid"));
    // Bob (EW) bids 250 in hearts, Ann doubles, Bob makes it: EW 250 × 2 = 500, NS 0.
    post_hand_ok(
        &app,
        &sheet,
        &hand_form(0, "Ann", "Bob", 250, "hearts", "doubled", "made"),
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["scores"], json!({"NS": 0, "EW": 500}));
    assert_eq!(
        ledger["events"][0]["scores_after"],
        json!({"NS": 0, "EW": 500})
    );
    assert_eq!(ledger["games"], json!([]));
    let page = app.get(&sheet).await;
    let body = &page.body;
    assert!(body.contains("doubled"), "the doubling is marked");
    assert!(
        body.contains("bid 250 × 2 doubled made"),
        "the award says why"
    );
    assert!(
        has_parts(body, "td.tally.points[data-account=NS]", &["0", "0"])
            && has_parts(
                body,
                "td.tally.points.bidder[data-account=EW]",
                &["+500", "500"]
            ),
        "NS nothing; EW, the bidders: +500 on the hand, 500 running: {body}"
    );
    assert!(
        side_players(body, "NS").contains(&"Ann & Cy".to_string()),
        "the side names its players"
    );
    assert!(
        body.contains("Game 1 is unfinished (NS 0, EW 500): closing now pays nothing for it."),
        "the close says what happens to the game in progress"
    );
    // The next dealer (Ann's left) is pre-selected.
    assert!(
        selected(body, "dealer").as_deref() == Some("Bob"),
        "Bob deals next"
    );
}

#[tokio::test]
async fn a_bid_below_100_is_refused_by_name_and_nothing_is_written() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "3000").await;
    let reply = post_hand(
        &app,
        &sheet,
        &hand_form(0, "Ann", "Cy", 90, "clubs", "no", "made"),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        refusal(&reply.body)
            == refused_with("Bid: 90 is below the minimum bid 100", Some("rules §1.8")),
        "{}",
        reply.body
    );
    assert!(
        has(
            &reply.body,
            "input[name=bid][type=number][inputmode=numeric][min=\"100\"][step=\"10\"][value=\"90\"][placeholder=\"100\"][aria-invalid=true]"
        ),
        "the field is marked and its value kept: {}",
        reply.body
    );
    let export = export_of(&app, &id).await;
    assert!(export["events"].as_array().unwrap().is_empty());
    // A missing outcome is asked for by name.
    let mut form = hand_form(0, "Ann", "Cy", 200, "clubs", "no", "made");
    form.retain(|(k, _)| k != "outcome");
    let reply = post_hand(&app, &sheet, &form).await;
    assert_eq!(
        reply.status.as_u16(),
        422,
        "an incomplete form: {}",
        reply.body
    );
    assert!(
        reply.body.contains("Outcome: how did the hand end?"),
        "{}",
        reply.body
    );
}

#[tokio::test]
async fn all_passed_records_the_dealer_only_and_passes_the_deal() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "3000").await;
    // With a bid still in the form, "All passed" is refused by name and nothing is written.
    let mut form = hand_form(0, "Ann", "", 150, "", "no", "");
    form.push(("all_passed".into(), "true".into()));
    let reply = post_hand(&app, &sheet, &form).await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        refusal(&reply.body)
            .0
            .starts_with("All passed, but the form also has a contract"),
        "{}",
        reply.body
    );
    // As the browser sends it with the contract left blank: only the dealer is recorded.
    let mut form = hand_form(0, "Ann", "", 0, "", "no", "");
    form.retain(|(k, _)| k != "bid");
    form.push(("bid".into(), String::new()));
    form.push(("all_passed".into(), "true".into()));
    post_hand_ok(&app, &sheet, &form).await;
    let export = export_of(&app, &id).await;
    assert_eq!(
        export["events"],
        json!([{"type": "hand", "dealer": "Ann", "all_passed": true}])
    );
    let page = app.get(&sheet).await;
    assert!(page.body.contains("all passed: Bob deals and bids first"));
    assert!(
        selected(&page.body, "dealer").as_deref() == Some("Bob"),
        "Bob deals next"
    );
}

#[tokio::test]
async fn a_game_to_1000_ends_with_the_winner_and_each_loser_paying_his_opposite_number() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "1000").await;
    // Game to 1,000. Hand by hand (rules §1.8, only one side scores):
    //  1. Ann (NS) 300 made → NS 300.
    //  2. Bob (EW) 250 doubled failed → NS + 500 = 800.
    //  3. Cy (NS) 200 conceded before the lead → EW + 100 (half of 200).
    //  4. Dan (EW) 150 redoubled, NS conceded → EW + 600 = 700.
    //  5. Ann (NS) 200 made on meld → NS 1,000: NS win game 1.
    let hands = [
        ("Ann", "Ann", 300, "spades", "no", "made"),
        ("Bob", "Bob", 250, "hearts", "doubled", "failed"),
        ("Cy", "Cy", 200, "clubs", "no", "conceded_before_lead"),
        (
            "Dan",
            "Dan",
            150,
            "diamonds",
            "redoubled",
            "opponents_conceded",
        ),
        ("Ann", "Ann", 200, "spades", "no", "made_on_meld"),
    ];
    for (i, (dealer, bidder, bid, trump, doubled, outcome)) in hands.iter().enumerate() {
        let reply = post_hand(
            &app,
            &sheet,
            &hand_form(i, dealer, bidder, *bid, trump, doubled, outcome),
        )
        .await;
        assert_eq!(reply.status.as_u16(), 303, "hand {}: {}", i + 1, reply.body);
    }
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(
        ledger["games"],
        json!([{"winner": "NS", "decided_by": "target", "final_scores": {"NS": 1000, "EW": 700}}])
    );
    assert_eq!(
        ledger["scores"],
        json!({"NS": 0, "EW": 0}),
        "game 2 starts at 0"
    );
    // Bob pays Ann 0.25 and Dan pays Cy 0.25 (seat 1 with seat 2, seat 3 with seat 4).
    assert_eq!(
        ledger["balances"],
        json!({"Ann": "0.25", "Bob": "-0.25", "Cy": "0.25", "Dan": "-0.25"})
    );
    let page = app.get(&sheet).await;
    let body = &page.body;
    assert!(body.contains("Game 1: "), "the game's end is on the sheet");
    assert!(
        body.contains("Bob pays Ann $0.25, Dan pays Cy $0.25"),
        "{body}"
    );
    assert!(
        !body.contains("is unfinished"),
        "no game in progress right after a win"
    );
}
