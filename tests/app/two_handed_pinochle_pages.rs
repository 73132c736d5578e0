//! The Two-handed Pinochle pages through the real router (rules §1.9): the new-session form,
//! the hand form (one player's tricks, the other's from 250; declaring out), the generic
//! score sheet and the ledger document agree. Expected numbers are worked out here from the
//! rules, in the comments, not read from the output.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{bold_says, has, has_parts, one_text, refusal, selected};
use common::pages::{export_of, ledger_of, post_hand, post_hand_ok, start_game};
use serde_json::{Value, json};

/// Creates Ann against Bob through the new-session form: `mode`, 0.50 a game, 1,000 going
/// on by 250, partial counts rounded.
async fn new_session(app: &TestApp, mode: &str) -> (String, String) {
    start_game(
        app,
        "two_handed_pinochle",
        &["Ann", "Bob"],
        &[
            ("stake", "0.50"),
            ("mode", mode),
            ("target", "1000"),
            ("target_step", "250"),
            ("round_partial_count_on_declare_out", "yes"),
        ],
    )
    .await
}

/// The deal form as a phone sends it: every field, the empty ones empty.
fn deal_form(
    expected: usize,
    dealer: &str,
    dix: bool,
    melds: [&str; 2],
    tricks: [&str; 2],
    claimant: &str,
) -> Vec<(String, String)> {
    vec![
        ("expected_events".into(), expected.to_string()),
        ("dealer".into(), dealer.into()),
        (
            "turn_up_dix".into(),
            if dix { "true" } else { "" }.to_string(),
        ),
        ("melds.Ann".into(), melds[0].into()),
        ("tricks.Ann".into(), tricks[0].into()),
        ("melds.Bob".into(), melds[1].into()),
        ("tricks.Bob".into(), tricks[1].into()),
        ("claimant".into(), claimant.into()),
    ]
}

/// A points cell of the sheet: what the deal added and the running score.
fn cell(page: &str, account: &str, added: i64, running: &str) -> bool {
    let td = format!("td[class=\"tally points\"][data-account=\"{account}\"]");
    has(
        page,
        &format!("{td} > span.plus:first-child + small:last-child"),
    ) && has_parts(page, &td, &[format!("+{added}"), running.to_string()])
}

/// What picks `player`'s trick-points field holding `value`: a number from 0 to 250 (the
/// 250 points of a deal's tricks) typed on a numeric keypad; `more` adds to the selector.
fn tricks_field(player: &str, value: &str, more: &str) -> String {
    format!(
        "input[name=\"tricks.{player}\"][type=number][inputmode=numeric][min=\"0\"][max=\"250\"][value=\"{value}\"]{more}"
    )
}

#[tokio::test]
async fn one_players_tricks_are_entered_and_the_sheet_shows_the_rounding() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "match").await;
    // The form offers the players, the dix tap and declaring out; Ann deals first.
    let page = app.get(&sheet).await.body;
    assert!(has(&page, "[name=\"tricks.Bob\"]"), "{page}");
    assert!(has(&page, "[name=\"turn_up_dix\"]"));
    assert_eq!(
        one_text(&page, "input[name=claimant][value=Bob] + span"),
        "Bob declared out"
    );
    // Bob deals and turns up the dix; Ann melds 60 and counts 97 trick points, Bob melds
    // 40. Bob's tricks are 250 − 97 = 153. Ann: 60 + 97 → 100 = 160. Bob: 40 + 153 → 150 +
    // 10 = 200.
    post_hand_ok(
        &app,
        &sheet,
        &deal_form(0, "Bob", true, ["60", "40"], ["97", ""], ""),
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["scores"], json!({"Ann": 160, "Bob": 200}));
    let export = export_of(&app, &id).await;
    assert_eq!(
        export["events"][0],
        json!({"type": "hand", "dealer": "Bob", "turn_up_dix": true,
               "melds": {"Ann": 60, "Bob": 40}, "tricks": {"Ann": 97, "Bob": 153}})
    );
    let page = app.get(&sheet).await.body;
    assert!(cell(&page, "Ann", 160, "160"), "{page}");
    assert!(cell(&page, "Bob", 200, "200"));
    assert!(page.contains("tricks 97 → 100"));
    assert!(page.contains("tricks 153 → 150"));
    assert!(page.contains("+10 dix turned up"));
    assert!(page.contains(
        "Game 1 is unfinished (Ann 160, Bob 200, game 1,000): closing now pays nothing for it."
    ));
    // Ann deals next, pre-selected.
    assert!(selected(&page, "dealer").as_deref() == Some("Ann"));
}

#[tokio::test]
async fn impossible_tricks_are_refused_naming_the_field_and_nothing_is_written() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "match").await;
    // 100 + 140 = 240: the trick points of a deal add up to 250.
    let reply = post_hand(
        &app,
        &sheet,
        &deal_form(0, "Ann", false, ["20", ""], ["100", "140"], ""),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply.body.contains("Tricks: Ann 100 + Bob 140 = 240"),
        "{}",
        reply.body
    );
    assert!(
        has(
            &reply.body,
            &tricks_field("Ann", "100", "[aria-invalid=true]")
        ),
        "the field is marked and its value kept: {}",
        reply.body
    );
    // No cards make 1 trick point (the smallest counter is a jack, 2).
    let reply = post_hand(
        &app,
        &sheet,
        &deal_form(0, "Ann", false, ["", ""], ["1", ""], ""),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 422);
    assert!(
        refusal(&reply.body)
            .0
            .contains("Ann's tricks: no cards count 1"),
        "{}",
        reply.body
    );
    // A meld is whole tens.
    let reply = post_hand(
        &app,
        &sheet,
        &deal_form(0, "Ann", false, ["", "45"], ["100", ""], ""),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 422);
    assert!(
        refusal(&reply.body)
            .0
            .contains("Bob's melds: 45 is not a meld total"),
        "{}",
        reply.body
    );
    let export = export_of(&app, &id).await;
    assert!(
        export["events"].as_array().unwrap().is_empty(),
        "nothing was written"
    );
}

#[tokio::test]
async fn a_match_game_ends_then_the_next_is_won_by_declaring_out() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "match").await;
    // Game 1. Deal 1: Ann 500 + 130 = 630, Bob 200 + 120 = 320. Deal 2: Ann 300 + 97 → 100
    // = 400 → 1,030, Bob 150 + 153 → 150 = 300 → 620: Ann alone past 1,000 wins; Bob pays
    // her 0.50.
    for (i, form) in [
        deal_form(0, "Ann", false, ["500", "200"], ["130", ""], ""),
        deal_form(1, "Bob", false, ["300", "150"], ["97", ""], ""),
    ]
    .iter()
    .enumerate()
    {
        let reply = post_hand(&app, &sheet, form).await;
        assert_eq!(reply.status.as_u16(), 303, "deal {i}: {}", reply.body);
    }
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["games"][0]["winner"], "Ann");
    assert_eq!(
        ledger["games"][0]["final_scores"],
        json!({"Ann": 1030, "Bob": 620})
    );
    assert_eq!(ledger["balances"], json!({"Ann": "0.50", "Bob": "-0.50"}));
    assert_eq!(ledger["scores"], json!({"Ann": 0, "Bob": 0}));
    let page = app.get(&sheet).await.body;
    assert!(
        bold_says(&page, "Game 1: Ann wins", "Game 1: Ann wins at 1,030"),
        "{page}"
    );
    assert!(page.contains("Bob pays Ann $0.50, the stake per game won"));
    assert!(page.contains("Game 2 now"));
    // Game 2. Deal 3: Ann 600 + 117 → 120 = 720, Bob 250 + 133 → 130 = 380. Then Ann melds
    // 240 more and declares out with 37 trick points so far: 720 + 240 + 37 → 40 = 1,000,
    // at the game: she wins, and Bob pays again.
    post_hand_ok(
        &app,
        &sheet,
        &deal_form(2, "Ann", false, ["600", "250"], ["117", ""], ""),
    )
    .await;
    post_hand_ok(
        &app,
        &sheet,
        &deal_form(3, "Bob", false, ["240", ""], ["37", ""], "Ann"),
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["games"][1]["winner"], "Ann");
    assert_eq!(ledger["games"][1]["decided_by"], "declared_out");
    assert_eq!(
        ledger["games"][1]["final_scores"],
        json!({"Ann": 1000, "Bob": 380})
    );
    assert_eq!(ledger["balances"], json!({"Ann": "1.00", "Bob": "-1.00"}));
    let page = app.get(&sheet).await.body;
    assert!(page.contains("Ann declared out"), "{page}");
    assert!(page.contains("out at 1,000"));
    assert!(page.contains("tricks so far 37 → 40"));
    assert!(bold_says(
        &page,
        "Game 2: Ann wins",
        "Game 2: Ann wins at 1,000"
    ));
    // Nothing is open now, so the close says nothing about an unfinished game.
    assert!(!page.contains("is unfinished"));
}

#[tokio::test]
async fn a_declare_out_short_of_the_game_loses_it() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "match").await;
    // Ann 700 + 150 → 150 = 850; then she declares out at 850 + 40 + 47 → 50 = 940, short
    // of 1,000: Bob wins and is paid.
    post_hand(
        &app,
        &sheet,
        &deal_form(0, "Ann", false, ["700", ""], ["150", ""], ""),
    )
    .await;
    post_hand_ok(
        &app,
        &sheet,
        &deal_form(1, "Bob", false, ["40", ""], ["47", ""], "Ann"),
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["games"][0]["winner"], "Bob");
    assert_eq!(ledger["balances"], json!({"Ann": "-0.50", "Bob": "0.50"}));
    let page = app.get(&sheet).await.body;
    assert!(page.contains("short: 940 of 1,000"), "{page}");
    // A declare-out counts only the claimant's tricks: the form refuses the other's (422,
    // like every refusal by the rules).
    let reply = post_hand(
        &app,
        &sheet,
        &deal_form(2, "Ann", false, ["", ""], ["40", "30"], "Bob"),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(has(
        &reply.body,
        &tricks_field("Ann", "40", "[aria-invalid=true]")
    ));
    assert!(
        refusal(&reply.body)
            .0
            .contains("Ann's tricks: a declare-out counts only Bob"),
        "{}",
        reply.body
    );
}

#[tokio::test]
async fn single_deals_are_games_with_draws_and_no_declaring_out() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "single_deal").await;
    let page = app.get(&sheet).await.body;
    assert!(
        !page.contains("declared out"),
        "no declaring out in single deals"
    );
    // Deal 1: Ann 150 + 117 → 120 = 270, Bob 60 + 133 → 130 = 190: Ann wins, 0.50.
    // Deal 2: 0 + 125 → 120 each: a draw, nobody pays (rules §3 item 29).
    post_hand(
        &app,
        &sheet,
        &deal_form(0, "Bob", false, ["150", "60"], ["117", ""], ""),
    )
    .await;
    post_hand_ok(
        &app,
        &sheet,
        &deal_form(1, "Ann", false, ["", ""], ["125", ""], ""),
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    let winners: Vec<&Value> = ledger["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["winner"])
        .collect();
    assert_eq!(winners, vec![&json!("Ann"), &Value::Null]);
    assert_eq!(ledger["balances"], json!({"Ann": "0.50", "Bob": "-0.50"}));
    let page = app.get(&sheet).await.body;
    assert!(page.contains("Game 2: a draw"), "{page}");
    assert!(page.contains("Nobody pays."));
    assert!(!page.contains("is unfinished"));
}

#[tokio::test]
async fn a_deal_is_corrected_through_its_form() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "match").await;
    post_hand(
        &app,
        &sheet,
        &deal_form(0, "Ann", false, ["60", "40"], ["97", ""], ""),
    )
    .await;
    // The correction form comes filled with the deal as recorded.
    let page = app.get(&format!("{sheet}?correct=0")).await.body;
    assert!(has(&page, "[name=correct_event][value=\"0\"]"), "{page}");
    assert!(has(&page, &tricks_field("Bob", "153", "")));
    // Ann had 107, not 97: 60 + 107 → 110 = 170; Bob 40 + 143 → 140 = 180.
    let mut form = deal_form(1, "Ann", false, ["60", "40"], ["107", ""], "");
    form.push(("correct_event".into(), "0".into()));
    form.push(("reason".into(), "miscounted".into()));
    post_hand_ok(&app, &sheet, &form).await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["scores"], json!({"Ann": 170, "Bob": 180}));
}

#[tokio::test]
async fn the_new_session_form_offers_the_two_handed_agreements() {
    let app = TestApp::new().await;
    let page = app.get("/sessions/new?game=two_handed_pinochle").await;
    assert_eq!(page.status.as_u16(), 200);
    for name in [
        "a.stake",
        "a.mode",
        "a.target",
        "a.target_step",
        "a.round_partial_count_on_declare_out",
    ] {
        assert!(has(&page.body, &format!("[name=\"{name}\"]")), "{name}");
    }
    assert!(page.body.contains("single deal: every deal is a game"));
}
