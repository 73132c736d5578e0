//! Integration tests through the real router: the HTML form, the score sheet, the JSON API
//! and its refusals. Each test has its own in-memory database.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;
use scorekeeper::ids::SessionId;

use common::TestApp;
use common::html::{cell_words, has, one_text, refusal, refused_with, select_text, selected};
use common::pages::{export_of, import_doc, ledger_of};
use serde_json::{Value, json};

/// Creates a 3-handed session at 5¢ a hundred with Scarne's kitty pot through the HTML form.
async fn pinochle_with_kitty(app: &TestApp) -> String {
    let reply = app
        .post_form_ok(
            "/sessions",
            &[
                ("game", "auction_pinochle"),
                ("player_1", "Ann"),
                ("player_2", "Bob"),
                ("player_3", "Cy"),
                ("player_4", ""),
                ("a.stake", "0.05"),
                ("a.units_table", "standard"),
                ("a.min_bid", ""),
                ("a.spades_double", "yes"),
                ("a.hearts_triple", "no"),
                ("a.kitty", "pot"),
                ("a.all_pass_ante", "yes"),
                ("a.reante_after_win", "yes"),
                ("a.kitty_spades_fail_multiplier", "2"),
                ("a.kitty_hearts_fail_multiplier", "2"),
            ],
        )
        .await;
    reply.location.expect("redirect to the sheet")
}

/// [`pinochle_with_kitty`] and its session's id (the address's last segment).
async fn pinochle_session(app: &TestApp) -> (String, String) {
    let sheet = pinochle_with_kitty(app).await;
    let id = sheet.rsplit('/').next().unwrap().to_string();
    (sheet, id)
}

/// An Auction Pinochle hand as the sheet's form posts it from a phone that has seen
/// `seen` events: the dealer, the bidder's `bid` in `trump`, and how it went.
fn bid_hand<'a>(
    seen: &'a str,
    dealer: &'a str,
    bidder: &'a str,
    bid: &'a str,
    trump: &'a str,
    outcome: &'a str,
) -> [(&'static str, &'a str); 6] {
    [
        ("expected_events", seen),
        ("dealer", dealer),
        ("bidder", bidder),
        ("bid", bid),
        ("trump", trump),
        ("outcome", outcome),
    ]
}

/// How many sessions the database holds (sessions without a club are never listed, so
/// the list cannot tell).
async fn sessions_stored(app: &TestApp) -> i64 {
    app.scalar("SELECT count(*) FROM sessions").await
}

fn balance(ledger: &Value, who: &str) -> String {
    ledger["balances"][who]
        .as_str()
        .unwrap_or("missing")
        .to_string()
}

fn postings_of(entry: &Value) -> Vec<(String, String)> {
    entry["postings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["account"].as_str().unwrap().to_string(),
                p["amount"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_form_enters_hands_and_the_sheet_shows_the_money() {
    let app = TestApp::new().await;
    let (sheet, id) = pinochle_session(&app).await;

    let page = app.get(&sheet).await;
    assert!(
        page.body.contains("Kitty rule 1: every player antes $0.10"),
        "the opening ante is on the sheet"
    );
    assert!(
        selected(&page.body, "dealer").as_deref() == Some("Ann"),
        "the first dealer is pre-selected"
    );

    // 250 in spades conceded after the lead: 2 units × 2 (spades) × 2 (double bete) × 0.05 = 0.40 to each.
    app.post_form_ok(
        &format!("{sheet}/hands"),
        &bid_hand("0", "Cy", "Ann", "250", "spades", "conceded_after_lead"),
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    let hand = &ledger["events"][1];
    let postings = postings_of(hand);
    assert!(postings.contains(&("Ann".into(), "-0.80".into())));
    assert!(postings.contains(&("Bob".into(), "0.40".into())));
    assert!(postings.contains(&("Cy".into(), "0.40".into())));
    let page = app.get(&sheet).await;
    assert!(
        page.body.contains("= $0.40 to each opponent"),
        "the reason is on the sheet"
    );
    assert!(
        page.body.contains("−\u{2060}$0.80"),
        "Ann's minus is on the sheet"
    );
    assert!(
        selected(&page.body, "dealer").as_deref() == Some("Ann"),
        "the next dealer is the left of Cy"
    );

    // All pass on Ann's deal: everyone antes again; the kitty holds 0.60.
    let passed = app
        .post_form(
            &format!("{sheet}/hands"),
            &[
                ("expected_events", "1"),
                ("dealer", "Ann"),
                ("all_passed", "true"),
            ],
        )
        .await;
    assert_eq!(passed.status.as_u16(), 303);
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["kitty"], "0.60");

    // Bob makes 350 in clubs: 4 units × 0.05 from each, and the whole kitty (0.60); then everyone re-antes 0.10.
    app.post_form_ok(
        &format!("{sheet}/hands"),
        &bid_hand("2", "Bob", "Bob", "350", "clubs", "made"),
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    let postings = postings_of(&ledger["events"][3]);
    // Bob: +0.20 × 2 + 0.60 kitty − 0.10 re-ante = +0.90.
    assert!(
        postings.contains(&("Bob".into(), "0.90".into())),
        "{postings:?}"
    );
    assert_eq!(
        ledger["kitty"], "0.30",
        "the kitty was won and everyone anted again"
    );
    let page = app.get(&sheet).await;
    assert!(page.body.contains("kitty rule 3: takes the kitty, $0.60"));

    // Close: the kitty is shared out and the sheet says who pays whom.
    let closed = app
        .post_form(&format!("{sheet}/close"), &[("expected_events", "3")])
        .await;
    assert_eq!(closed.status.as_u16(), 303);
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["kitty"], "0.00");
    let total: i64 = ledger["balances"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| {
            scorekeeper::money::Money::parse(v.as_str().unwrap())
                .unwrap()
                .cents()
        })
        .sum();
    assert_eq!(total, 0);
    let page = app.get(&sheet).await;
    assert!(page.body.contains("Who pays whom"));
    for t in ledger["settlement"].as_array().unwrap() {
        assert!(page.body.contains(&format!(
            "{} pays {} ${}",
            t["from"].as_str().unwrap(),
            t["to"].as_str().unwrap(),
            t["amount"].as_str().unwrap()
        )));
    }
    assert!(
        !page.body.contains("Enter the hand"),
        "no hand form after the close"
    );
}

#[tokio::test]
async fn a_refused_hand_names_the_field_and_writes_nothing() {
    let app = TestApp::new().await;
    let (sheet, id) = pinochle_session(&app).await;
    let before = export_of(&app, &id).await;
    let reply = app
        .post_form(
            &format!("{sheet}/hands"),
            &bid_hand("0", "Cy", "Ann", "240", "hearts", "made"),
        )
        .await;
    assert_eq!(reply.status.as_u16(), 422);
    assert_eq!(
        refusal(&reply.body),
        refused_with("Bid: 240 is below the minimum 250", Some("rules §1.1")),
        "{}",
        reply.body
    );
    assert!(
        has(
            &reply.body,
            "input[name=bid][type=number][inputmode=numeric][min=\"250\"][step=\"10\"][value=\"240\"]"
        ),
        "the value is kept"
    );
    assert!(has(&reply.body, "input[name=bid][aria-invalid=true]"));
    let after = export_of(&app, &id).await;
    assert_eq!(before, after, "nothing was written");

    // A defender renege needs the renegade.
    let reply = app
        .post_form(
            &format!("{sheet}/hands"),
            &bid_hand("0", "Cy", "Ann", "300", "hearts", "defender_renege"),
        )
        .await;
    assert_eq!(reply.status.as_u16(), 422);
    assert!(
        reply
            .body
            .contains("Renege by: name the opponent who reneged")
    );
    assert_eq!(export_of(&app, &id).await, before);
}

/// A hand form posted without the count it saw is refused and records nothing: taken, two
/// phones sending the same hand that way would record it twice. The sheet's own form
/// always carries the count.
#[tokio::test]
async fn a_hand_form_without_the_count_it_saw_records_nothing() {
    let app = TestApp::new().await;
    let (sheet, id) = pinochle_session(&app).await;
    let events = |export: Value| export["events"].as_array().unwrap().len();
    let before = events(export_of(&app, &id).await);
    let page = app.get(&sheet).await.body;
    assert!(has(
        &page,
        &format!("form[action=\"{sheet}/hands\"] input[name=expected_events][value=\"{before}\"]")
    ));
    let seen = before.to_string();
    let hand = bid_hand(&seen, "Cy", "Ann", "250", "hearts", "made");
    let without: Vec<(&str, &str)> = hand
        .iter()
        .copied()
        .filter(|(name, _)| *name != "expected_events")
        .collect();
    for _ in 0..2 {
        let reply = app.post_form(&format!("{sheet}/hands"), &without).await;
        assert_eq!(reply.status.as_u16(), 400, "{}", reply.body);
        let (message, _) = refusal(&reply.body);
        assert!(message.contains("reload the page"), "{message}");
    }
    assert_eq!(events(export_of(&app, &id).await), before);
    app.post_form_ok(&format!("{sheet}/hands"), &hand).await;
    assert_eq!(events(export_of(&app, &id).await), before + 1);
}

#[tokio::test]
async fn two_phones_entering_the_same_hand_record_it_once() {
    let app = TestApp::new().await;
    let (sheet, id) = pinochle_session(&app).await;
    let hand = bid_hand("0", "Cy", "Ann", "250", "hearts", "made");
    app.post_form_ok(&format!("{sheet}/hands"), &hand).await;
    let second = app.post_form(&format!("{sheet}/hands"), &hand).await;
    assert_eq!(second.status.as_u16(), 409);
    assert!(
        second
            .body
            .contains("hand 1 was just entered by another device"),
        "the stale phone hears of hand 1, counted in hands"
    );
    let export = export_of(&app, &id).await;
    assert_eq!(export["events"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_bad_agreement_on_the_new_session_form_is_shown_on_the_form() {
    let app = TestApp::new().await;
    let form = app.get("/sessions/new?game=auction_pinochle").await;
    assert_eq!(form.status.as_u16(), 200);
    assert!(
        has(&form.body, "[name=\"a.stake\"][value=\"0.00\"]"),
        "the stake default is filled in: the rules' 0.00, a points-only session (session-format)"
    );
    let reply = app
        .post_form(
            "/sessions",
            &[
                ("game", "auction_pinochle"),
                ("player_1", "Ann"),
                ("player_2", "Bob"),
                ("player_3", "Cy"),
                ("a.stake", "0.055"),
            ],
        )
        .await;
    assert_eq!(reply.status.as_u16(), 422);
    // Named by the form's own label, not by the document's path (`agreements.stake`).
    assert!(
        reply.body.contains("Stake per unit (per 100 points): "),
        "{}",
        reply.body
    );
    assert!(!reply.body.contains("agreements.stake:"), "{}", reply.body);
    assert!(has(&reply.body, "[value=Bob]"), "the players are kept");
    let reply = app
        .post_form(
            "/sessions",
            &[
                ("game", "auction_pinochle"),
                ("player_1", "Ann"),
                ("player_2", "Bob"),
            ],
        )
        .await;
    assert_eq!(reply.status.as_u16(), 422);
    assert!(reply.body.contains("seats 3 to 4 players"));
    assert_eq!(sessions_stored(&app).await, 0, "nothing was written");
}

#[tokio::test]
async fn the_api_records_events_and_refuses_with_field_errors() {
    let app = TestApp::new().await;
    let created = app
        .post_json(
            "/api/v1/sessions",
            &json!({"game": "auction_pinochle", "players": ["A", "B", "C", "D"], "agreements": {"stake": "0.10"}}),
        )
        .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let id = created.json()["id"].as_i64().unwrap();
    let events = format!("/api/v1/sessions/{id}/events");

    // Four-handed: dealer D sits out and still pays (rules §1.1).
    let reply = app.post_json(&events, &json!({"type": "hand", "dealer": "D", "bidder": "A", "bid": 300, "trump": "clubs", "outcome": "made"})).await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    let standing = reply.json();
    assert_eq!(standing["event_count"], 1, "{standing}");
    assert_eq!(standing["event"]["seq"], 1, "{standing}");
    assert_eq!(balance(&standing, "A"), "0.90");
    assert_eq!(balance(&standing, "D"), "-0.30");
    // GET …/standing answers the same standing, without the ledger's event list.
    let polled = app.get(&format!("/api/v1/sessions/{id}/standing")).await;
    assert_eq!(polled.status.as_u16(), 200, "{}", polled.body);
    let mut posted = standing.clone();
    posted.as_object_mut().unwrap().remove("event");
    assert_eq!(polled.json(), posted);
    let ledger = ledger_of(&app, &id).await;
    for part in ["balances", "kitty", "scores", "checks", "settlement"] {
        assert_eq!(polled.json()[part], ledger[part], "{part}");
    }

    let refusals = [
        (
            json!({"type": "hand", "dealer": "A", "bidder": "A", "bid": 300, "trump": "clubs", "outcome": "made"}),
            "bidder",
        ),
        (
            json!({"type": "hand", "dealer": "A", "bidder": "B", "bid": 305, "trump": "clubs", "outcome": "made"}),
            "bid",
        ),
        (
            json!({"type": "hand", "dealer": "A", "bidder": "B", "bid": 300, "trump": "clubs"}),
            "outcome",
        ),
        (
            json!({"type": "hand", "dealer": "A", "bidder": "B", "bid": 300, "trump": "clubs", "outcome": "made", "meld": 100, "counters": 150}),
            "outcome",
        ),
        (
            json!({"type": "hand", "dealer": "A", "bidder": "B", "bid": 300, "trump": "clubs", "outcome": "defender_renege", "renege_by": "A"}),
            "renege_by",
        ),
        (
            json!({"type": "hand", "dealer": "Zed", "all_passed": true}),
            "dealer",
        ),
        (
            json!({"type": "payment", "from": "A", "to": "B", "amount": 1}),
            "amount",
        ),
        (json!({"type": "kitty_divide"}), "type"),
        (json!({"type": "shuffle"}), "type"),
    ];
    for (event, field) in refusals {
        let reply = app.post_json(&events, &event).await;
        assert_eq!(reply.status.as_u16(), 422, "{event}: {}", reply.body);
        let error = &reply.json()["error"];
        assert_eq!(error["code"], "refused");
        assert_eq!(error["field"], field, "{event}: {error}");
        assert!(
            error["message"].as_str().unwrap().starts_with("event 1: "),
            "{error}"
        );
    }
    let export = export_of(&app, &id).await;
    assert_eq!(
        export["events"].as_array().unwrap().len(),
        1,
        "no refused event was written"
    );

    let reply = app.post_raw_json(&events, "{not json").await;
    assert_eq!(reply.status.as_u16(), 400);
    assert_eq!(reply.json()["error"]["code"], "bad_request");
    let reply = app.get("/api/v1/sessions/999").await;
    assert_eq!(reply.status.as_u16(), 404);
    assert_eq!(reply.json()["error"]["code"], "not_found");

    // Derived outcome: meld 180 + counters 130 = 310 ≥ 300.
    let reply = app.post_json(&events, &json!({"type": "hand", "dealer": "A", "bidder": "B", "bid": 300, "trump": "spades", "meld": 180, "counters": 130})).await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    assert!(
        reply.json()["event"]["explanation"]
            .as_str()
            .unwrap()
            .contains("made it (meld 180 + counters 130 = 310)")
    );
    // A payment moves both balances toward zero.
    let reply = app
        .post_json(
            &events,
            &json!({"type": "payment", "from": "D", "to": "A", "amount": "0.30"}),
        )
        .await;
    assert_eq!(reply.status.as_u16(), 201);
    assert_eq!(balance(&reply.json(), "D"), "-0.60");
}

#[tokio::test]
async fn import_export_and_the_stored_postings_agree_with_replay() {
    let app = TestApp::new().await;
    let doc = json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": {"stake": "0.05", "kitty": "pot"}, "players": ["A", "B", "C"],
        "events": [
            {"type": "hand", "dealer": "B", "all_passed": true},
            {"type": "hand", "dealer": "C", "bidder": "A", "bid": 350, "trump": "hearts", "outcome": "failed"},
            {"type": "player_joins", "player": "D", "seat_after": "C"},
            {"type": "hand", "dealer": "A", "bidder": "C", "bid": 400, "trump": "spades", "outcome": "made"},
            {"type": "close"}
        ]
    });
    let id = import_doc(&app, &doc).await;
    let export = export_of(&app, &id).await;
    assert_eq!(export["events"], doc["events"]);
    let ledger = ledger_of(&app, &id).await;
    let replayed =
        scorekeeper::format::replay(&serde_json::from_value(doc.clone()).unwrap()).unwrap();
    assert_eq!(serde_json::to_value(&replayed).unwrap(), ledger);
    let stored = scorekeeper::service::stored_balances(&app.pool, SessionId(id))
        .await
        .unwrap();
    for (account, cents) in stored {
        let shown =
            scorekeeper::money::Money::parse(ledger["balances"][&account].as_str().unwrap())
                .unwrap();
        assert_eq!(shown.cents(), cents, "{account}");
    }
    // After the close nothing but a payment may follow.
    let reply = app
        .post_json(
            &format!("/api/v1/sessions/{id}/events"),
            &json!({"type": "hand", "dealer": "B", "all_passed": true}),
        )
        .await;
    assert_eq!(reply.status.as_u16(), 422);
    let mut bad = doc.clone();
    bad["events"][3]["bid"] = json!(1000 + 5);
    let reply = app.post_json("/api/v1/sessions/import", &bad).await;
    assert_eq!(reply.status.as_u16(), 422);
    assert!(
        reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("event 3: bid:")
    );
    assert_eq!(
        sessions_stored(&app).await,
        1,
        "the refused import wrote nothing"
    );
}

#[tokio::test]
async fn the_store_refuses_to_edit_history() {
    let app = TestApp::new().await;
    let reply = app
        .post_json("/api/v1/sessions", &json!({"game": "auction_pinochle", "players": ["A", "B", "C"], "agreements": {"stake": "0.05", "kitty": "pot"}}))
        .await;
    assert_eq!(reply.status.as_u16(), 201);
    assert!(
        app.exec("UPDATE postings SET amount_cents = 1")
            .await
            .is_err()
    );
    assert!(app.exec("DELETE FROM events").await.is_err());
}

#[tokio::test]
async fn pages_answer() {
    let app = TestApp::new().await;
    let list = app.get("/").await;
    assert_eq!(list.status.as_u16(), 200);
    assert!(has(
        &list.body,
        "[href=\"/sessions/new?game=auction_pinochle\"]"
    ));
    assert_eq!(app.get("/sessions/77").await.status.as_u16(), 404);
    assert_eq!(app.get("/static/style.css").await.status.as_u16(), 200);
}

#[tokio::test]
async fn a_hand_is_corrected_and_undone_through_the_forms_and_history_stays() {
    let app = TestApp::new().await;
    let (sheet, id) = pinochle_session(&app).await;
    let hand = bid_hand("0", "Cy", "Ann", "250", "spades", "made");
    app.post_form_ok(&format!("{sheet}/hands"), &hand).await;

    // The correction form comes pre-filled with the hand as entered.
    let page = app.get(&format!("{sheet}?correct=0")).await;
    assert!(page.body.contains("Correct hand 1"), "{}", page.body);
    assert!(has(&page.body, "[name=trump][value=spades][checked]"));
    assert!(has(&page.body, "[name=correct_event][value=\"0\"]"));

    // "That was hearts, not spades": 2 units × 0.05 = 0.10 each instead of 0.20 each.
    app.post_form_ok(
        &format!("{sheet}/hands"),
        &[
            ("expected_events", "1"),
            ("correct_event", "0"),
            ("reason", "that was hearts, not spades"),
            ("dealer", "Cy"),
            ("bidder", "Ann"),
            ("bid", "250"),
            ("trump", "hearts"),
            ("outcome", "made"),
        ],
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    // Opening ante −0.10, then +0.20 from two opponents at 0.10 each.
    assert_eq!(balance(&ledger, "Ann"), "0.10");
    assert_eq!(balance(&ledger, "Bob"), "-0.20");
    // History: the first entry still shows what was entered (Ann +0.40).
    assert!(postings_of(&ledger["events"][1]).contains(&("Ann".into(), "0.40".into())));
    let page = app.get(&sheet).await;
    assert!(
        has(&page.body, "[class=\"entry struck\"]"),
        "the replaced row is struck through"
    );
    assert!(
        select_text(&page.body, "tr time[datetime^=\"20\"]")
            .iter()
            .any(|at| select_text(&page.body, "tr")
                .iter()
                .any(|row| row.contains(&format!("corrected {at}")))),
        "it says when: {}",
        page.body
    );
    assert!(page.body.contains("(that was hearts, not spades)"));

    // Undo last hand asks first: its one form sits inside a details whose summary only
    // opens it, so one tap never undoes.
    assert_eq!(
        one_text(&page.body, "details.confirm#undo > summary"),
        "Undo last hand (hand 1)…",
        "undo is behind a confirmation"
    );
    let confirm = format!("details.confirm#undo form[action=\"{sheet}/undo\"] button");
    assert!(
        select_text(&page.body, &confirm)
            .iter()
            .any(|button| button == "Yes, undo hand 1"),
        "{}",
        page.body
    );
    assert_eq!(
        page.body.matches("/undo\"").count(),
        1,
        "no other undo form"
    );

    // Undo last hand: back to the opening ante only.
    // A phone that has not seen the correction cannot undo blindly.
    let stale = app
        .post_form(&format!("{sheet}/undo"), &[("expected_events", "1")])
        .await;
    assert_eq!(stale.status.as_u16(), 409, "{}", stale.body);
    app.post_form_ok(&format!("{sheet}/undo"), &[("expected_events", "2")])
        .await;
    let ledger = ledger_of(&app, &id).await;
    for who in ["Ann", "Bob", "Cy"] {
        assert_eq!(balance(&ledger, who), "-0.10");
    }
    let export = export_of(&app, &id).await;
    let kinds: Vec<&str> = export["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["hand", "correction", "void"], "nothing was deleted");
    // Nothing is left to undo.
    assert!(!app.get(&sheet).await.body.contains("Undo last hand"));
}

#[tokio::test]
async fn a_newcomer_joins_and_a_broke_player_leaves_through_the_table_form() {
    let app = TestApp::new().await;
    let (sheet, id) = pinochle_session(&app).await;
    assert!(app.get(&sheet).await.body.contains("Table changes"));
    // The kitty holds 0.30 (three antes of 0.10); Dan antes 0.30 ÷ 3 = 0.10 (rule 8).
    app.post_form_ok(
        &format!("{sheet}/table"),
        &[
            ("expected_events", "0"),
            ("change", "player_joins"),
            ("player", "Dan"),
            ("seat_after", "Cy"),
        ],
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(balance(&ledger, "Dan"), "-0.10");
    assert_eq!(ledger["kitty"], "0.40");
    // Bob is broke: he takes 0.40 ÷ 4 = 0.10 and quits for good (rule 6).
    app.post_form_ok(
        &format!("{sheet}/table"),
        &[
            ("expected_events", "1"),
            ("change", "player_broke"),
            ("player", "Bob"),
        ],
    )
    .await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(balance(&ledger, "Bob"), "0.00");
    assert_eq!(ledger["kitty"], "0.30");
    // He cannot come back, and the form says why.
    let back = app
        .post_form(
            &format!("{sheet}/table"),
            &[
                ("expected_events", "2"),
                ("change", "player_joins"),
                ("player", "Bob"),
            ],
        )
        .await;
    assert_eq!(back.status.as_u16(), 422);
    assert!(back.body.contains("quit for good"));
}

/// The raw bytes and content type of a GET, for the binary icons.
async fn fetch_bytes(app: &TestApp, uri: &str) -> (u16, String, Vec<u8>) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let response = app
        .router
        .clone()
        .oneshot(
            axum::http::Request::get(uri)
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, kind, body.to_vec())
}

/// A PNG's width and height from its IHDR chunk (bytes 16..24, big-endian).
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[tokio::test]
async fn the_favicon_and_the_icons_are_served_and_every_page_links_them() {
    let app = TestApp::new().await;
    // `/favicon.ico`: an ICO (reserved 0, type 1) holding one 32 px image.
    let (status, kind, ico) = fetch_bytes(&app, "/favicon.ico").await;
    assert_eq!((status, kind.as_str()), (200, "image/x-icon"));
    assert_eq!(&ico[..6], [0, 0, 1, 0, 1, 0], "one icon");
    assert_eq!((ico[6], ico[7]), (32, 32), "32 × 32");
    assert_eq!(png_size(&ico[22..]), (32, 32));
    let (status, kind, svg) = fetch_bytes(&app, "/static/icon.svg").await;
    assert_eq!((status, kind.as_str()), (200, "image/svg+xml"));
    assert!(svg.starts_with(b"<svg"));
    for size in [192, 512] {
        let (status, kind, png) = fetch_bytes(&app, &format!("/static/icon-{size}.png")).await;
        assert_eq!((status, kind.as_str()), (200, "image/png"));
        assert_eq!(png_size(&png), (size, size));
    }
    let manifest = app.get("/static/manifest.webmanifest").await.json();
    let sizes: Vec<&str> = manifest["icons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["sizes"].as_str().unwrap())
        .collect();
    assert_eq!(sizes, ["any", "192x192", "512x512"]);
    // The pages link them: the home page, and a 404 page too.
    for page in ["/", "/sessions/999"] {
        let body = app.get(page).await.body;
        assert!(
            has(
                &body,
                "head link[rel=icon][href=\"/static/icon.svg\"][type=\"image/svg+xml\"]"
            ) && has(
                &body,
                "head link[rel=manifest][href=\"/static/manifest.webmanifest\"]"
            ),
            "{page}: {body}"
        );
    }
}

#[tokio::test]
async fn the_manifest_names_the_app_its_icons_and_the_page_it_was_installed_from() {
    let app = TestApp::new().await;
    let sheet = pinochle_with_kitty(&app).await;
    let page = app.get(&sheet).await.body;
    // The sheet links a manifest that opens the installed app on this sheet, and the
    // offline scripts; the theme colour follows the phone's light or dark scheme.
    let manifest =
        format!("head link[rel=manifest][href=\"/static/manifest.webmanifest?start={sheet}\"]");
    assert!(
        has(&page, &manifest)
            && has(&page, "script[src^=\"/static/offline.js?v=\"][defer]")
            && has(
                &page,
                "meta[content=\"#1d3b2a\"][media=\"(prefers-color-scheme: light)\"]"
            )
            && has(
                &page,
                "meta[content=\"#2f6b4a\"][media=\"(prefers-color-scheme: dark)\"]"
            ),
        "{page}"
    );
    let (status, kind, bytes) =
        fetch_bytes(&app, &format!("/static/manifest.webmanifest?start={sheet}")).await;
    assert_eq!((status, kind.as_str()), (200, "application/manifest+json"));
    let manifest: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(manifest["name"], "Scorekeeper");
    assert_eq!(manifest["short_name"], "Scorekeeper");
    assert_eq!(manifest["start_url"], sheet.as_str());
    assert_eq!(manifest["scope"], "/");
    assert_eq!(manifest["display"], "standalone");
    assert_eq!(manifest["theme_color"], "#1d3b2a");
    assert_eq!(manifest["background_color"], "#fbfaf7");
    // Installable: PNG icons of 192 and 512 px that are served at those sizes.
    for size in [192, 512] {
        let icon = manifest["icons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["sizes"] == format!("{size}x{size}").as_str())
            .unwrap_or_else(|| panic!("no {size} px icon: {manifest}"));
        assert_eq!(icon["type"], "image/png");
        let (status, _, png) = fetch_bytes(&app, icon["src"].as_str().unwrap()).await;
        assert_eq!((status, png_size(&png)), (200, (size, size)));
    }
    // A start URL elsewhere is not taken: the app opens on the front page.
    let (_, _, bytes) = fetch_bytes(
        &app,
        "/static/manifest.webmanifest?start=https://evil.example/sessions/1",
    )
    .await;
    let manifest: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(manifest["start_url"], "/");
    // The worker from the site's root (its scope the whole site), never kept stale.
    let worker = app.get("/sw.js").await;
    assert_eq!(worker.status.as_u16(), 200);
    assert!(worker.body.starts_with("// The service worker"));
    let (_, kind, _) = fetch_bytes(&app, "/sw.js").await;
    assert_eq!(kind, "text/javascript; charset=utf-8");
    for script in ["/static/queue.js", "/static/offline.js"] {
        assert_eq!(app.get(script).await.status.as_u16(), 200, "{script}");
    }
}

#[tokio::test]
async fn a_queued_form_sent_again_with_its_idempotency_key_is_recorded_once() {
    let app = TestApp::new().await;
    let (sheet, id) = pinochle_session(&app).await;
    let hand = bid_hand("0", "Cy", "Ann", "250", "hearts", "made");
    let post = |uri: String, fields: Vec<(&'static str, &'static str)>, key: &'static str| {
        let app = &app;
        async move {
            app.post_form_with(&uri, &fields, &[("Idempotency-Key", key)])
                .await
        }
    };
    // The phone's first try was recorded but its answer lost; the queue sends it again.
    for _ in 0..2 {
        let reply = post(format!("{sheet}/hands"), hand.to_vec(), "phone-1-hand-a").await;
        assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
    }
    // The undo behind it, sent twice as well: it takes back hand 1 (event 0) once.
    for _ in 0..2 {
        let reply = post(
            format!("{sheet}/undo"),
            vec![("expected_events", "1")],
            "phone-1-undo-b",
        )
        .await;
        assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
    }
    let events = export_of(&app, &id).await["events"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0]["bid"], 250);
    assert_eq!(
        (&events[1]["type"], &events[1]["event"]),
        (&json!("void"), &json!(0))
    );
    // A new key with the count the phone saw before is stale: refused, nothing written.
    let stale = post(format!("{sheet}/hands"), hand.to_vec(), "phone-2-hand").await;
    assert_eq!(stale.status.as_u16(), 409);
    // A key that is no visible text is refused by name.
    let bad = app
        .post_form_with(&format!("{sheet}/hands"), &hand, &[("Idempotency-Key", "")])
        .await;
    assert_eq!(bad.status.as_u16(), 400);
    assert!(bad.body.contains("Idempotency-Key"), "{}", bad.body);
    let count = export_of(&app, &id).await["events"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(count, 2);
}

/// A form's key that already recorded an event, sent with another (the next hand, or the
/// same count with other fields), is refused as the API refuses it: 422, the sheet shown
/// again with the refusal, nothing recorded; the first post sent again is still a retry.
/// A key with a tab in it is not visible text: the form and the API both refuse it (400).
#[tokio::test]
async fn a_form_key_sent_again_with_another_event_is_refused_and_records_nothing() {
    let app = TestApp::new().await;
    let (sheet, id) = pinochle_session(&app).await;
    let hands = format!("{sheet}/hands");
    let key = [("Idempotency-Key", "phone-1-hand-a")];
    let first = bid_hand("0", "Cy", "Ann", "250", "hearts", "made");
    let reply = app.post_form_with(&hands, &first, &key).await;
    assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
    let refusal = "this key already recorded event 0 with a different body; nothing was recorded";
    for other in [
        bid_hand("1", "Ann", "Bob", "300", "spades", "made"),
        bid_hand("0", "Cy", "Ann", "300", "hearts", "made"),
    ] {
        let reused = app.post_form_with(&hands, &other, &key).await;
        assert_eq!(reused.status.as_u16(), 422, "{other:?}: {}", reused.body);
        assert!(reused.body.contains(refusal), "{other:?}: {}", reused.body);
    }
    let again = app.post_form_with(&hands, &first, &key).await;
    assert_eq!(again.status.as_u16(), 303, "{}", again.body);
    let events = export_of(&app, &id).await["events"].clone();
    assert_eq!(events.as_array().unwrap().len(), 1, "{events}");
    assert_eq!(events[0]["bid"], 250);
    let tab = [("Idempotency-Key", "phone-1\thand-b")];
    let next = bid_hand("1", "Ann", "Bob", "300", "spades", "made");
    let bad = app.post_form_with(&hands, &next, &tab).await;
    assert_eq!(bad.status.as_u16(), 400, "{}", bad.body);
    assert!(bad.body.contains("Idempotency-Key"), "{}", bad.body);
    let payment = json!({"type": "payment", "from": "Ann", "to": "Bob", "amount": "0.10"});
    let api = app
        .post_json_with(&format!("/api/v1/sessions/{id}/events"), &payment, &tab)
        .await;
    assert_eq!(api.status.as_u16(), 400, "{}", api.body);
    assert_eq!(
        api.json()["error"]["field"],
        "Idempotency-Key",
        "{}",
        api.body
    );
    assert_eq!(
        export_of(&app, &id).await["events"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// One game's what-if case: its table, the hand form's fields, the
/// cells the would-be row must show (hand-worked from the rules) and what the bidder needs.
struct WhatIf {
    game: &'static str,
    players: &'static [&'static str],
    agreements: Value,
    form: Vec<(&'static str, &'static str)>,
    /// `(account, "added running")`: a cell of the row, as the sheet writes it.
    cells: Vec<(&'static str, &'static str)>,
    needs: Option<&'static str>,
}

const THREE: &[&str] = &["Ann", "Bob", "Cy"];
const FOUR: &[&str] = &["Ann", "Bob", "Cy", "Dee"];

/// Every game's case, each worked by hand from rules.md.
fn what_if_cases() -> Vec<WhatIf> {
    vec![
        // §1.1–1.2: 350 ♠ made (200 meld + 160 counters ≥ 350): units(350) = 4 × 0.05 × 2
        // (spades) = 0.40 from Bob and Cy; the kitty (3 × 0.10 opening ante) is won, 0.30,
        // then everyone antes 0.10 again. Ann +0.80 +0.30 −0.10 = +1.00 (−0.10 → 0.90);
        // Bob, Cy −0.40 −0.10 = −0.50 (→ −0.60); the kitty −0.30 +0.30, stays 0.30.
        WhatIf {
            game: "auction_pinochle",
            players: THREE,
            agreements: json!({"stake": "0.05", "kitty": "pot"}),
            form: vec![
                ("dealer", "Cy"),
                ("bidder", "Ann"),
                ("bid", "350"),
                ("trump", "spades"),
                ("outcome", ""),
                ("meld", "200"),
                ("counters", "160"),
                ("renege_by", ""),
                ("bidder_cash", ""),
            ],
            cells: vec![
                ("Ann", "+$1.00 $0.90"),
                ("Bob", "−$0.50 −$0.60"),
                ("Cy", "−$0.50 −$0.60"),
                ("KITTY", "$0.30"),
            ],
            needs: Some("Ann needs 150 in counters to make 350 (meld 200)"),
        },
        // §1.4: Ann bid 2 and took high and jack (2 ≥ 2): she adds both; Bob low, Cy game.
        // Pitch's sheet writes each player's running score.
        WhatIf {
            game: "auction_pitch",
            players: FOUR,
            agreements: json!({"stake": "0.05"}),
            form: vec![
                ("dealer", "Dee"),
                ("pitcher", "Ann"),
                ("bid", "2"),
                ("points.high", "Ann"),
                ("points.low", "Bob"),
                ("points.jack", "Ann"),
                ("points.game", "Cy"),
                ("revoke_by", ""),
            ],
            cells: vec![("Ann", "2"), ("Bob", "1"), ("Cy", "1"), ("Dee", "0")],
            needs: Some(
                "Ann needs 2 of the 4 points (high, low, jack, game) to make 2; short of that, Ann is set back 2",
            ),
        },
        // §1.7: NS bid 250, 120 + 150 = 270 made: NS +270 and 4 checks (Hoyle 250–290);
        // EW 60 + 100 = +160.
        WhatIf {
            game: "check_pinochle",
            players: FOUR,
            agreements: json!({"stake": "0.25"}),
            form: vec![
                ("dealer", "Dee"),
                ("bidder", "Ann"),
                ("bid", "250"),
                ("trump", "hearts"),
                ("NS.meld", "120"),
                ("NS.tricks", "150"),
                ("EW.meld", "60"),
                ("EW.tricks", "100"),
            ],
            cells: vec![("NS", "+270 270"), ("NS", "+4 4"), ("EW", "+160 160")],
            needs: Some(
                "Ann & Cy (NS) need 130 in tricks to make 250 (meld 120); their meld counts once they take a trick",
            ),
        },
        // §1.5: both sides took a trick: NS 100 + 150, EW 40 + 100.
        WhatIf {
            game: "partnership_pinochle",
            players: FOUR,
            agreements: json!({"stake": "1.00"}),
            form: vec![
                ("dealer", "Dee"),
                ("trump", "clubs"),
                ("NS.meld", "100"),
                ("NS.tricks", "150"),
                ("EW.meld", "40"),
                ("EW.tricks", "100"),
            ],
            cells: vec![("NS", "+250 250"), ("EW", "+140 140")],
            needs: None,
        },
        // §1.6: NS bid 200, 80 + 140 = 220 made: all they made; EW 50 + 110.
        WhatIf {
            game: "partnership_auction_pinochle",
            players: FOUR,
            agreements: json!({"stake": "1.00"}),
            form: vec![
                ("dealer", "Dee"),
                ("bidder", "Ann"),
                ("bid", "200"),
                ("trump", "spades"),
                ("NS.meld", "80"),
                ("NS.tricks", "140"),
                ("EW.meld", "50"),
                ("EW.tricks", "110"),
                ("auction", ""),
            ],
            cells: vec![("NS", "+220 220"), ("EW", "+160 160")],
            needs: Some(
                "Ann & Cy (NS) need 120 in tricks to make 200 (meld 80); their meld counts once they take a trick",
            ),
        },
        // §1.8: EW's 300 doubled, made: 300 × 2 = 600 to EW, nothing to NS.
        WhatIf {
            game: "contract_pinochle",
            players: FOUR,
            agreements: json!({"stake": "1.00"}),
            form: vec![
                ("dealer", "Dee"),
                ("bidder", "Bob"),
                ("bid", "300"),
                ("trump", "diamonds"),
                ("doubled", "doubled"),
                ("outcome", "made"),
            ],
            cells: vec![("EW", "+600 600")],
            needs: Some(
                "Bob & Dee (EW) need 300 in meld and tricks to make 300: made, they score 600; set, their opponents score 600",
            ),
        },
        // §1.9: tricks 127 → 130 and 123 → 120 (7 or more rounds up): Ann 150 + 130,
        // Bob 80 + 120.
        WhatIf {
            game: "two_handed_pinochle",
            players: &["Ann", "Bob"],
            agreements: json!({"stake": "1.00"}),
            form: vec![
                ("dealer", "Bob"),
                ("melds.Ann", "150"),
                ("melds.Bob", "80"),
                ("tricks.Ann", "127"),
                ("tricks.Bob", "123"),
            ],
            cells: vec![("Ann", "+280 280"), ("Bob", "+200 200")],
            needs: None,
        },
        // §1.11: four antes of 0.05 and 0.20 more each from Ann and Bob: a pot of 0.60;
        // Ann's hand wins it. Ann +0.60 − 0.25 = +0.35, Bob −0.25, Cy and Dee −0.05.
        WhatIf {
            game: "poker",
            players: FOUR,
            agreements: json!({"smallest_unit": "0.05", "ante": "0.05"}),
            form: vec![
                ("ante", "0.05"),
                ("dealer", "Dee"),
                ("split", "high"),
                ("anted.Ann", "on"),
                ("put_in.Ann", "0.20"),
                ("place.Ann", "1"),
                ("anted.Bob", "on"),
                ("put_in.Bob", "0.20"),
                ("place.Bob", "2"),
                ("anted.Cy", "on"),
                ("put_in.Cy", ""),
                ("folded.Cy", "on"),
                ("anted.Dee", "on"),
                ("put_in.Dee", ""),
                ("folded.Dee", "on"),
            ],
            cells: vec![
                ("Ann", "+$0.35 $0.35"),
                ("Bob", "−$0.25 −$0.25"),
                ("Cy", "−$0.05 −$0.05"),
                ("Dee", "−$0.05 −$0.05"),
            ],
            needs: None,
        },
        // §1.10: Ann's items A A J = 9, Bob's K K Q Q J = 11: Bob wins, Ann pays him 0.50.
        WhatIf {
            game: "auction_game",
            players: &["Ann", "Bob"],
            agreements: json!({"stake": "0.50"}),
            form: vec![
                ("how", "final"),
                ("seat.0", "Ann"),
                ("seat.1", "Bob"),
                ("final.Ann.items.A", "2"),
                ("final.Ann.items.J", "1"),
                ("final.Ann.spent", "20"),
                ("final.Bob.items.K", "2"),
                ("final.Bob.items.Q", "2"),
                ("final.Bob.items.J", "1"),
                ("final.Bob.spent", "30"),
            ],
            cells: vec![("Ann", "−$0.50 −$0.50"), ("Bob", "+$0.50 $0.50")],
            needs: None,
        },
        // §1.12: Hearts, a hand of 26 (Cy left empty scores 0): each adds his points to
        // his total; no game ends, so no money moves.
        WhatIf {
            game: "house_game",
            players: FOUR,
            agreements: json!({"name": "Hearts", "winner": "low", "target": 100,
                "hand_totals": [26, 78], "stake": "0.05"}),
            form: vec![
                ("dealer", "Dee"),
                ("points.Ann", "10"),
                ("points.Bob", "6"),
                ("points.Cy", ""),
                ("points.Dee", "10"),
            ],
            cells: vec![
                ("Ann", "+10 10"),
                ("Bob", "+6 6"),
                ("Cy", "0 0"),
                ("Dee", "+10 10"),
            ],
            needs: None,
        },
    ]
}

/// The text of every cell of `account` in `html` (a sheet table): "added running", tags
/// as spaces, blanks collapsed, the word joiner between a sign and "$" left out.
fn cells_of(html: &str, account: &str) -> Vec<String> {
    cell_words(html, &format!("tbody td[data-account=\"{account}\"]"))
        .into_iter()
        .map(|cell| cell.replace('\u{2060}', ""))
        .collect()
}

/// The lines of the recorded hand on the sheet page, from its first row (`id="latest"`)
/// through the foot, as a preview shows them: without the id and the "correct" link.
fn recorded_line(page: &str) -> String {
    let latest = page
        .find(" id=\"latest\"")
        .expect("the sheet has a latest line");
    let start = page[..latest].rfind("<tr").unwrap();
    let end = start + page[start..].find("</tfoot>").unwrap();
    let mut line = page[start..end].replacen(" id=\"latest\"", "", 1);
    while let Some(link) = line.find(" <a href=\"/sessions/") {
        let close = link + line[link..].find("</a>").unwrap() + 4;
        line.replace_range(link..close, "");
    }
    line
}

/// The preview's line, from its first row through the foot.
fn preview_line(fragment: &str) -> String {
    let start = fragment.find("<tbody>").unwrap() + "<tbody>".len();
    let end = fragment.find("</tfoot>").unwrap();
    fragment[start..end].trim_start().to_string()
}

/// What a preview must leave as it was: the stored rows that events and history facts
/// write, counted.
async fn stored_counts(app: &TestApp) -> Vec<i64> {
    let mut counts = Vec::new();
    let tables = [
        "SELECT count(*) FROM events",
        "SELECT count(*) FROM postings",
        "SELECT count(*) FROM session_status",
        "SELECT count(*) FROM session_results",
        "SELECT count(*) FROM session_bids",
        "SELECT count(*) FROM player_totals",
        "SELECT count(*) FROM bid_totals",
        "SELECT count(*) FROM history_backlog",
        "SELECT count(*) FROM idempotency_keys",
    ];
    for sql in tables {
        counts.push(app.scalar(sql).await);
    }
    counts
}

#[tokio::test]
async fn every_games_preview_is_the_row_recording_adds_and_writes_nothing() {
    let app = TestApp::new().await;
    let club = app
        .post_json(
            "/api/v1/clubs",
            &json!({"name": "What-if club", "passphrase": "seven of clubs"}),
        )
        .await
        .json();
    let bearer = format!("Bearer {}", club["token"].as_str().unwrap());
    let auth = [("authorization", bearer.as_str())];
    let history = format!("/clubs/{}/history", club["id"]);
    let cases = what_if_cases().into_iter().map(|c| (c.game, c)).collect();
    for (_, case) in common::every_game("what-if case", cases) {
        let g = case.game;
        let body = json!({"game": g, "players": case.players, "agreements": case.agreements});
        let created = app.post_json_with("/api/v1/sessions", &body, &auth).await;
        assert_eq!(created.status.as_u16(), 201, "{g}: {}", created.body);
        let id = created.json()["id"].as_i64().unwrap();
        let sheet = format!("/sessions/{id}");
        let mut form = vec![("expected_events", "0")];
        form.extend(case.form.iter().copied());

        let ledger_before = app
            .get_with(&format!("/api/v1/sessions/{id}/ledger"), &auth)
            .await
            .body;
        let sheet_before = app.get_with(&sheet, &auth).await.body;
        let history_before = app.get_with(&history, &auth).await.body;
        let stored_before = stored_counts(&app).await;
        let preview = app
            .post_form_with(&format!("{sheet}/preview"), &form, &auth)
            .await;
        assert_eq!(preview.status.as_u16(), 200, "{g}: {}", preview.body);
        let fragment = preview.body;
        for (account, cell) in &case.cells {
            let cells = cells_of(&fragment, account);
            assert!(
                cells.iter().any(|c| c == cell),
                "{g}: {account} {cell} in {cells:?}"
            );
        }
        match case.needs {
            Some(needs) => assert_eq!(
                select_text(&fragment, "p.needs"),
                [needs],
                "{g}: {needs} in {fragment}"
            ),
            None => assert!(!has(&fragment, ".needs"), "{g}: {fragment}"),
        }
        // Nothing was written: the stored rows, the ledger, the sheet (as built from the
        // cached state) and the club's history are as they were.
        assert_eq!(stored_counts(&app).await, stored_before, "{g}");
        let ledger_after = app
            .get_with(&format!("/api/v1/sessions/{id}/ledger"), &auth)
            .await
            .body;
        assert_eq!(ledger_after, ledger_before, "{g}");
        assert_eq!(app.get_with(&sheet, &auth).await.body, sheet_before, "{g}");
        assert_eq!(
            app.get_with(&history, &auth).await.body,
            history_before,
            "{g}"
        );

        // The same fields recorded: the sheet's new line is the preview's, cell for cell.
        let entered = app
            .post_form_with(&format!("{sheet}/hands"), &form, &auth)
            .await;
        assert_eq!(entered.status.as_u16(), 303, "{g}: {}", entered.body);
        let page = app.get_with(&sheet, &auth).await.body;
        assert_eq!(recorded_line(&page), preview_line(&fragment), "{g}");
        let recorded = recorded_line(&page);
        for (account, cell) in &case.cells {
            let cells = cells_of(&format!("<table><tbody>{recorded}</table>"), account);
            assert!(
                cells.iter().any(|c| c == cell),
                "{g}: recorded {account} {cell}"
            );
        }
    }
}

#[tokio::test]
async fn a_preview_refuses_in_the_forms_words_and_only_for_those_who_may_record() {
    let app = TestApp::new().await;
    let (sheet, id) = pinochle_session(&app).await;
    let preview = format!("{sheet}/preview");
    let hand = |bid: &'static str, seen: &'static str| {
        vec![
            ("expected_events", seen),
            ("dealer", "Cy"),
            ("bidder", "Ann"),
            ("bid", bid),
            ("trump", "hearts"),
            ("outcome", "made"),
            ("meld", "180"),
        ]
    };
    // Below Scarne's opening minimum (rules §1.1): the refusal as the form shows it, and
    // still what Ann would need (240 − 180 = 60).
    let low = app.post_form(&preview, &hand("240", "0")).await;
    assert_eq!(low.status.as_u16(), 422, "{}", low.body);
    assert!(
        one_text(&low.body, "p.refusal").starts_with("Bid: 240 is below the minimum 250"),
        "{}",
        low.body
    );
    assert!(
        low.body
            .contains("Ann needs 60 in counters to make 240 (meld 180)"),
        "{}",
        low.body
    );
    assert!(!has(&low.body, "table"), "{}", low.body);
    // A form another phone's hand made stale is told so, as on submit.
    let stale = app.post_form(&preview, &hand("250", "3")).await;
    assert_eq!(stale.status.as_u16(), 409, "{}", stale.body);
    assert!(stale.body.contains("by another device"), "{}", stale.body);
    // Without the session's write link (a stranger, a looker) there is no preview.
    let stranger = app
        .post_form_with(&preview, &hand("250", "0"), &[("cookie", "sk_link_0=x")])
        .await;
    assert!(
        matches!(stranger.status.as_u16(), 401 | 403 | 404),
        "{}",
        stranger.status
    );
    assert!(!has(&stranger.body, "table"), "{}", stranger.body);
    // Bounded like a write: a body past 64 KiB is refused unread (the burst limit per
    // session is a unit test of `web::html::preview`, free of the machine's speed).
    let padding = "x".repeat(70 * 1024);
    let mut big = hand("250", "0");
    big.push(("note", padding.as_str()));
    assert_eq!(app.post_form(&preview, &big).await.status.as_u16(), 413);
    assert_eq!(
        export_of(&app, &id).await["events"],
        json!([]),
        "no preview recorded anything"
    );
}

#[tokio::test]
async fn a_correction_is_previewed_as_the_net_change_it_would_record() {
    let app = TestApp::new().await;
    let (sheet, id) = pinochle_session(&app).await;
    let hand = |seen: &'static str, outcome: &'static str| {
        vec![
            ("expected_events", seen),
            ("dealer", "Cy"),
            ("bidder", "Ann"),
            ("bid", "250"),
            ("trump", "hearts"),
            ("outcome", outcome),
        ]
    };
    // 250 in hearts made (rules §1.1): 2 units × 0.05 = 0.10 from Bob and from Cy.
    app.post_form_ok(&format!("{sheet}/hands"), &hand("0", "made"))
        .await;
    // Corrected to failed: double bete, 0.20 to each, so Ann's +0.20 becomes −0.40: a net
    // change of −0.60 for Ann and +0.30 for Bob and Cy.
    let mut fix = hand("1", "failed");
    fix.extend([("correct_event", "0"), ("reason", "miscounted")]);
    let preview = app.post_form(&format!("{sheet}/preview"), &fix).await;
    assert_eq!(preview.status.as_u16(), 200, "{}", preview.body);
    assert_eq!(
        cells_of(&preview.body, "Ann"),
        ["−$0.60 −$0.50"],
        "{}",
        preview.body
    );
    assert_eq!(
        cells_of(&preview.body, "Bob"),
        ["+$0.30 $0.10"],
        "{}",
        preview.body
    );
    assert_eq!(
        events_stored(&app, &id).await,
        1,
        "the preview recorded nothing"
    );
    let fixed = app.post_form(&format!("{sheet}/hands"), &fix).await;
    assert_eq!(fixed.status.as_u16(), 303, "{}", fixed.body);
    assert_eq!(events_stored(&app, &id).await, 2);
    let page = app.get(&sheet).await.body;
    assert_eq!(recorded_line(&page), preview_line(&preview.body));
}

/// How many events session `id` holds, from its exported document.
async fn events_stored(app: &TestApp, id: &str) -> usize {
    let doc = export_of(app, id).await;
    doc["events"].as_array().unwrap().len()
}

/// The `cache-control` of `uri` as the router answers it, and its body.
async fn cached_as(app: &TestApp, uri: &str) -> (String, String) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let request = axum::http::Request::get(uri)
        .body(axum::body::Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status().as_u16(), 200, "{uri}");
    let cache = response
        .headers()
        .get("cache-control")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (cache, String::from_utf8(body.to_vec()).unwrap())
}

/// Styles and scripts are linked under a version of their contents and kept a year, never
/// asked again, under it: a release that changes any names new addresses, which a phone
/// fetches at once. Without the version (an old page, a tool) they are checked every time.
/// The service worker keeps the very addresses the pages name, in a cache of that version.
#[tokio::test]
async fn styles_and_scripts_are_linked_by_their_version_and_kept_a_year_under_it() {
    let app = TestApp::new().await;
    let sheet = pinochle_with_kitty(&app).await;
    let page = app.get(&sheet).await.body;
    let style = common::html::select_attr(&page, "head link[rel=stylesheet]", "href");
    let version = style[0].strip_prefix("/static/style.css?v=").unwrap();
    assert!(
        version.len() == 12 && version.chars().all(|c| c.is_ascii_hexdigit()),
        "{style:?}"
    );
    let mut linked = common::html::select_attr(&page, "script[src]", "src");
    linked.extend(style.iter().cloned());
    assert!(linked.len() >= 4, "{linked:?}");
    let worker = app.get("/sw.js").await.body;
    for uri in &linked {
        assert!(uri.ends_with(&format!("?v={version}")), "{uri}");
        let (cache, _) = cached_as(&app, uri).await;
        assert_eq!(cache, "public, max-age=31536000, immutable", "{uri}");
        let name = uri
            .trim_start_matches("/static/")
            .split('?')
            .next()
            .unwrap();
        assert!(
            worker.contains(&format!("'{name}'")),
            "the worker keeps {name}"
        );
    }
    let (cache, css) = cached_as(&app, "/static/style.css").await;
    assert_eq!(cache, "no-cache");
    assert!(css.contains(".money"));
    let (cache, _) = cached_as(&app, "/static/style.css?v=000000000000").await;
    assert_eq!(cache, "no-cache", "an older page's version is not pinned");
    // The worker and the meld calculator's script name the same version.
    assert!(worker.contains(&format!("var VERSION = '{version}';")));
    assert!(worker.contains("'scorekeeper-static-' + VERSION"));
    let (_, meld) = cached_as(&app, &format!("/static/meld.js?v={version}")).await;
    assert!(meld.contains(&format!("/static/meld.css?v={version}")));
    assert!(!meld.contains("__ASSET_VERSION__") && !worker.contains("__ASSET_VERSION__"));
}
