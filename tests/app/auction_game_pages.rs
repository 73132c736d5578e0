//! The Auction pages through the real router (rules §1.10, §3 item 31): the new-session
//! form, the round-by-round hand form with an overtime, a refusal that names its round and
//! player, the final-count form, and the sheet's items and cards left. Expected numbers are
//! worked out here from rules §1.10.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{has, marked_invalid, select_text};
use common::pages::{ledger_of, post_hand, post_hand_ok, start_session};
use serde_json::{Value, json};

/// Creates Ann against Bob at 0.50 a game lost through the new-session form.
async fn new_session(app: &TestApp, players: &[&str]) -> (String, String) {
    let mut fields = vec![("game", "auction_game"), ("a.stake", "0.50")];
    let names: Vec<String> = (1..=players.len()).map(|i| format!("player_{i}")).collect();
    for (k, p) in names.iter().zip(players) {
        fields.push((k.as_str(), p));
    }
    start_session(app, &fields).await
}

/// The rounds of AU-04 as the form sends them: item, then each player's bid; round 0 tied
/// 7–7 with the overtime Ann 5, Bob 3.
fn rounds_form(expected: usize) -> Vec<(String, String)> {
    let plays: [(&str, i64, i64); 8] = [
        ("Q", 7, 7),
        ("Q", 2, 7),
        ("K", 10, 4),
        ("K", 2, 9),
        ("A", 9, 8),
        ("A", 3, 10),
        ("J", 4, 2),
        ("J", 2, 5),
    ];
    let mut form = vec![
        ("expected_events".to_string(), expected.to_string()),
        ("how".into(), "rounds".into()),
        ("seat.0".into(), "Ann".into()),
        ("seat.1".into(), "Bob".into()),
    ];
    for (i, (item, ann, bob)) in plays.iter().enumerate() {
        form.push((format!("rounds.{i}.item"), item.to_string()));
        form.push((format!("rounds.{i}.bids.Ann"), ann.to_string()));
        form.push((format!("rounds.{i}.bids.Bob"), bob.to_string()));
        // Empty overtime chips ("nothing", "no") are sent too, as a browser does.
        form.push((format!("rounds.{i}.overtime.0.Ann"), String::new()));
        form.push((format!("rounds.{i}.overtime.0.Bob"), String::new()));
        form.push((format!("rounds.{i}.withdrawn.Ann"), String::new()));
    }
    form.push(("rounds.8.item".into(), String::new()));
    form.push(("rounds.8.bids.Ann".into(), String::new()));
    for (k, v) in [
        ("rounds.0.overtime.0.Ann", "5"),
        ("rounds.0.overtime.0.Bob", "3"),
    ] {
        let slot = form.iter_mut().find(|(f, _)| f == k).unwrap();
        slot.1 = v.into();
    }
    form
}

#[tokio::test]
async fn a_game_entered_round_by_round_with_an_overtime_settles_the_stake() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, &["Ann", "Bob"]).await;
    let page = app.get(&sheet).await;
    assert!(
        has(&page.body, "[name=\"rounds.0.bids.Ann\"]"),
        "{}",
        page.body
    );
    assert!(has(&page.body, "[name=\"final.Bob.spent\"]"));
    post_hand_ok(&app, &sheet, &rounds_form(0)).await;
    // Ann buys the first Q for 7 + 5 = 12: Ann Q K A J = 10 for 12 + 10 + 9 + 4 = 35; Bob
    // Q K A J = 10 for 7 + 9 + 10 + 5 = 31: Bob spent less and wins; Ann pays him 0.50.
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["games"][0]["winner"], json!("Bob"));
    assert_eq!(ledger["balances"], json!({"Ann": "-0.50", "Bob": "0.50"}));
    assert_eq!(
        ledger["events"][0]["postings"],
        json!([{"account": "Ann", "amount": "-0.50"}, {"account": "Bob", "amount": "0.50"}])
    );
    // The sheet shows each player's items and the cards left: Ann spent 7, 5, 10, 9, 4 and
    // holds 2 3 6 8; Bob spent 7, 9, 10, 5 and holds 2 3 4 6 8.
    let page = app.get(&sheet).await;
    assert!(page.body.contains("items Q K A J (10)"), "{}", page.body);
    assert!(page.body.contains("cards left 2 3 6 8"));
    assert!(page.body.contains("cards left 2 3 4 6 8"));
    assert!(page.body.contains("Bob wins"));
    assert!(page.body.contains("1 overtime"));
}

#[tokio::test]
async fn a_card_spent_twice_is_refused_naming_the_round_and_player() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, &["Ann", "Bob"]).await;
    let mut form = rounds_form(0);
    // Ann spent her 10 on the K in round 2 and bids it again on the A in round 4.
    let slot = form
        .iter_mut()
        .find(|(f, _)| f == "rounds.4.bids.Ann")
        .unwrap();
    slot.1 = "10".into();
    let reply = post_hand(&app, &sheet, &form).await;
    assert_eq!(reply.status.as_u16(), 422);
    assert!(
        reply
            .body
            .contains("round 5 (Ace): Ann spent his 10 in an earlier round"),
        "{}",
        reply.body
    );
    assert!(
        marked_invalid(&reply.body).contains(&"Ann bid".to_string()),
        "the refused field is marked"
    );
    // What was entered stays on the form.
    assert!(
        select_text(&reply.body, "input[value=\"5\"][checked] + span").contains(&"5".to_string())
    );
    assert_eq!(ledger_of(&app, &id).await["events"], json!([]));
}

#[tokio::test]
async fn a_final_count_with_three_players_shares_the_stake_of_the_loser() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, &["Ann", "Bob", "Cy"]).await;
    // Ann A K = 7 for 12, Bob A K = 7 for 12: a draw between them; Cy Q Q J J = 6 for 14
    // loses and pays 0.50 shared, 0.25 each.
    let form: Vec<(String, String)> = [
        ("expected_events", "0"),
        ("how", "final"),
        ("seat.0", "Ann"),
        ("seat.1", "Bob"),
        ("seat.2", "Cy"),
        ("final.Ann.items.A", "1"),
        ("final.Ann.items.K", "1"),
        ("final.Ann.spent", "12"),
        ("final.Bob.items.A", "1"),
        ("final.Bob.items.K", "1"),
        ("final.Bob.spent", "12"),
        ("final.Cy.items.Q", "2"),
        ("final.Cy.items.J", "2"),
        ("final.Cy.spent", "14"),
        ("rounds.0.item", ""),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    post_hand_ok(&app, &sheet, &form).await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["games"][0]["winner"], Value::Null);
    assert_eq!(
        ledger["balances"],
        json!({"Ann": "0.25", "Bob": "0.25", "Cy": "-0.50"})
    );
    let page = app.get(&sheet).await;
    assert!(page.body.contains("money left 40"), "54 − 14 = 40 for Cy");
    // Correcting it opens the final count filled in.
    let page = app.get(&format!("{sheet}?correct=0")).await;
    assert!(
        has(
            &page.body,
            "input[name=\"final.Cy.spent\"][type=number][inputmode=numeric][min=\"0\"][max=\"54\"][value=\"14\"]"
        ),
        "{}",
        page.body
    );
}

#[tokio::test]
async fn an_overtime_refusal_reopens_the_overtime_with_its_field_marked() {
    let app = TestApp::new().await;
    let (sheet, _) = new_session(&app, &["Ann", "Bob"]).await;
    let mut form = rounds_form(0);
    // Ann adds her 7 in overtime, but it is already on the table: she bid it first.
    let slot = form
        .iter_mut()
        .find(|(f, _)| f == "rounds.0.overtime.0.Ann")
        .unwrap();
    slot.1 = "7".into();
    let reply = post_hand(&app, &sheet, &form).await;
    assert_eq!(reply.status.as_u16(), 422);
    // The page escapes the apostrophe in "Ann's".
    assert!(
        reply.body.contains("round 1 (Queen): Ann")
            && reply
                .body
                .contains("s 7 is already on the table in this round"),
        "{}",
        reply.body
    );
    assert!(has(&reply.body, "details.overtime.confirm[open]"));
    // Ann's overtime chips are marked, and the 7 she chose stays chosen.
    let marked = select_text(
        &reply.body,
        "fieldset.chips.cards[aria-invalid=true] legend",
    );
    assert_eq!(marked, ["Ann adds"], "{}", reply.body);
    assert!(
        has(
            &reply.body,
            "input[name='rounds.0.overtime.0.Ann'][value='7'][checked]"
        ),
        "{}",
        reply.body
    );
}
