//! The poker pages through the real router (rules §1.11): the new-session form, the hand
//! form (ante taps, what each put in beyond the ante, folded and all-in taps, the showdown
//! by places or by cards), the generic score sheet and the ledger document agree. Expected
//! numbers are worked out here from the rules, in the comments, not read from the output.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{has, refusal, select_text, selected};
use common::pages::{export_of, ledger_of, post_hand, post_hand_ok, start_game};
use serde_json::json;

const PLAYERS: [&str; 4] = ["Ann", "Bob", "Cy", "Dee"];

/// Creates Ann, Bob, Cy and Dee (seat order) through the new-session form: chips of 0.05,
/// a 0.05 ante, and `odd_chip`.
async fn new_session(app: &TestApp, odd_chip: &str) -> (String, String) {
    start_game(
        app,
        "poker",
        &["Ann", "Bob", "Cy", "Dee"],
        &[
            ("smallest_unit", "0.05"),
            ("ante", "0.05"),
            ("odd_chip", odd_chip),
            ("low", "ace_to_five"),
            ("max_first_bet", ""),
            ("max_raise", ""),
            ("max_raises_total_per_round", ""),
        ],
    )
    .await
}

/// One player's part of the hand form: ante tapped, beyond the ante, folded, all-in, high
/// place, low place, cards.
struct Seat<'a> {
    beyond: &'a str,
    folded: bool,
    all_in: bool,
    place: &'a str,
    low: &'a str,
    cards: &'a str,
}

fn seat<'a>(beyond: &'a str, place: &'a str, low: &'a str) -> Seat<'a> {
    Seat {
        beyond,
        folded: false,
        all_in: false,
        place,
        low,
        cards: "",
    }
}

/// Ann and Bob each put in 0.45 beyond the ante and show `ann` and `bob`; Cy and Dee
/// fold on the ante.
fn ann_and_bob_show<'a>(ann: &'a str, bob: &'a str) -> [Seat<'a>; 4] {
    let shows = |cards| Seat {
        cards,
        ..seat("0.45", "", "")
    };
    let folds = || Seat {
        folded: true,
        ..seat("", "", "")
    };
    [shows(ann), shows(bob), folds(), folds()]
}

/// The hand form as a phone sends it: every field, unticked boxes left out.
fn hand_form(
    expected: usize,
    dealer: &str,
    split: &str,
    seats: &[Seat<'_>],
) -> Vec<(String, String)> {
    let mut form = vec![
        ("expected_events".to_string(), expected.to_string()),
        ("ante".into(), "0.05".into()),
        ("dealer".into(), dealer.into()),
        ("split".into(), split.into()),
    ];
    for (p, s) in PLAYERS.iter().zip(seats) {
        form.push((format!("anted.{p}"), "on".into()));
        form.push((format!("put_in.{p}"), s.beyond.into()));
        if s.folded {
            form.push((format!("folded.{p}"), "on".into()));
        }
        if s.all_in {
            form.push((format!("all_in.{p}"), "on".into()));
        }
        form.push((format!("place.{p}"), s.place.into()));
        form.push((format!("low.{p}"), s.low.into()));
        form.push((format!("cards.{p}"), s.cards.into()));
    }
    form
}

/// The hand of the browser test: Ann all-in for 0.30, Bob all-in for 0.70, Cy and Dee
/// 1.00, high-low; Cy has the best high, Ann the best low.
fn two_all_ins(expected: usize) -> Vec<(String, String)> {
    hand_form(
        expected,
        "Dee",
        "high_low",
        &[
            Seat {
                all_in: true,
                ..seat("0.25", "2", "1")
            },
            Seat {
                all_in: true,
                ..seat("0.65", "4", "2")
            },
            seat("0.95", "1", "4"),
            seat("0.95", "3", "3"),
        ],
    )
}

#[tokio::test]
async fn a_high_low_hand_with_two_all_ins_through_the_form() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "first_left_of_dealer").await;
    let page = app.get(&sheet).await.body;
    assert!(has(&page, "[name=\"put_in.Dee\"]"), "{page}");
    assert!(has(&page, "[name=\"all_in.Ann\"]"));
    assert!(has(&page, "[name=\"cards.Bob\"]"));
    assert!(has(&page, "[step=\"0.05\"]"), "the stepper moves one chip");
    post_hand_ok(&app, &sheet, &two_all_ins(0)).await;
    // The form wrote the hand as the session document does: each contribution the 0.05
    // ante plus what was put in beyond it.
    let export = export_of(&app, &id).await;
    assert_eq!(
        export["events"][0],
        json!({"type": "hand", "dealer": "Dee",
               "contributions": {"Ann": "0.30", "Bob": "0.70", "Cy": "1.00", "Dee": "1.00"},
               "folded": [], "all_in": ["Ann", "Bob"], "split": "high_low",
               "showdown": [["Cy"], ["Ann"], ["Dee"], ["Bob"]],
               "showdown_low": [["Ann"], ["Bob"], ["Dee"], ["Cy"]]})
    );
    // Main pot 0.30 × 4 = 1.20: high 0.60 Cy, low 0.60 Ann. Side pot 1, 0.40 × 3 = 1.20
    // (Bob, Cy, Dee): high 0.60 Cy, low 0.60 Bob. Side pot 2, 0.30 × 2 = 0.60 (Cy, Dee):
    // high 0.30 Cy, low 0.30 Dee. Ann 0.60 − 0.30 = +0.30, Bob 0.60 − 0.70 = −0.10, Cy
    // 1.50 − 1.00 = +0.50, Dee 0.30 − 1.00 = −0.70.
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(
        ledger["balances"],
        json!({"Ann": "0.30", "Bob": "-0.10", "Cy": "0.50", "Dee": "-0.70"})
    );
    let page = app.get(&sheet).await.body;
    assert!(page.contains("high-low pot $3.00"), "{page}");
    assert!(
        page.contains("Main pot, $1.20: Ann, Bob, Cy and Dee eligible"),
        "{page}"
    );
    assert!(page.contains(
        "Side pot 1, $1.20: Bob, Cy and Dee eligible; Cy is ahead of Dee in the showdown → Cy (high half $0.60); Bob is ahead of Dee in the low showdown → Bob (low half $0.60)"
    ));
    assert!(page.contains("Side pot 2, $0.60: Cy and Dee eligible"));
    assert!(page.contains("all-in $0.30"));
    // The row names each pot and who took it; the reasons are in the explanation.
    for mark in [
        "main pot high: Cy",
        "main pot low: Ann",
        "side pot 1 high: Cy",
        "side pot 1 low: Bob",
        "side pot 2 high: Cy",
        "side pot 2 low: Dee",
    ] {
        assert!(
            select_text(&page, "span.mark.plain").contains(&mark.to_string()),
            "{mark}: {page}"
        );
    }
    // Ann deals next (Dee's left), pre-selected.
    assert!(
        selected(&page, "dealer").as_deref() == Some("Ann"),
        "{page}"
    );
}

#[tokio::test]
async fn a_refusal_names_the_field_and_keeps_the_form() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "first_left_of_dealer").await;
    // Bob is neither all-in nor folded but put in less than Cy and Dee: he must call.
    let mut form = two_all_ins(0);
    form.retain(|(k, _)| k != "all_in.Bob");
    let reply = post_hand(&app, &sheet, &form).await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        refusal(&reply.body).0.contains("Bob's contributions: Bob is still in the hand and not all-in, so he called every bet and put in 1.00"),
        "{}",
        reply.body
    );
    assert!(
        has(
            &reply.body,
            "input[name=\"put_in.Bob\"][type=number][inputmode=decimal][min=\"0\"][step=\"0.05\"][value=\"0.65\"][placeholder=\"0.00\"][aria-invalid=true]"
        ),
        "the field is marked and its value kept: {}",
        reply.body
    );
    // A high-low hand without low places: the form asks for Ann's.
    let mut form = two_all_ins(0);
    form.retain(|(k, _)| k != "low.Ann");
    let reply = post_hand(&app, &sheet, &form).await;
    assert_eq!(reply.status.as_u16(), 422);
    assert!(
        refusal(&reply.body)
            .0
            .contains("Ann's low: Ann is in the showdown"),
        "{}",
        reply.body
    );
    let export = export_of(&app, &id).await;
    assert!(export["events"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn cards_rank_the_showdown_and_a_carried_odd_chip_waits_in_the_pot() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app, "carry").await;
    // Dee deals. Ann and Bob each put in 0.05 + 0.20; Cy folds after 0.05 + 0.10, Dee
    // after 0.05 + 0.05. Ann and Bob show the same straight, nine high: the pot 0.25 +
    // 0.25 + 0.15 + 0.10 = 0.75 is 15 chips, 7 each, and the odd one stays in POT.
    let form = hand_form(
        0,
        "Dee",
        "high",
        &[
            Seat {
                cards: "9S 8D 7C 6H 5D",
                ..seat("0.20", "", "")
            },
            Seat {
                cards: "9H 8C 7D 6S 5C",
                ..seat("0.20", "", "")
            },
            Seat {
                folded: true,
                ..seat("0.10", "", "")
            },
            Seat {
                folded: true,
                ..seat("0.05", "", "")
            },
        ],
    );
    post_hand_ok(&app, &sheet, &form).await;
    // Ann 0.35 − 0.25 = +0.10, Bob +0.10, Cy −0.15, Dee −0.10, POT +0.05.
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(
        ledger["balances"],
        json!({"Ann": "0.10", "Bob": "0.10", "Cy": "-0.15", "Dee": "-0.10", "POT": "0.05"})
    );
    let page = app.get(&sheet).await.body;
    assert!(
        page.contains("Ann and Bob tie with straight, nine high"),
        "{page}"
    );
    assert!(page.contains("$0.05 odd stays in the pot for the next hand"));
    assert!(page.contains("Pot (odd chips)"), "the POT column");
    assert!(
        page.contains("$0.05 of odd chips is carried in the pot: closing now shares it out"),
        "{page}"
    );
}

#[tokio::test]
async fn an_omaha_hi_lo_session_with_a_board_through_the_forms() {
    let app = TestApp::new().await;
    // The new-session form offers the variant as a menu (own cards by default) and
    // 8-or-better as an unticked checkbox.
    let page = app.get("/sessions/new?game=poker").await.body;
    assert!(has(&page, "option[value=own_cards][selected]"), "{page}");
    assert!(has(&page, "option[value=omaha]"), "{page}");
    assert!(
        has(
            &page,
            "input[type=checkbox][name=\"a.eight_or_better\"][value=yes]"
        ),
        "{page}"
    );
    assert!(
        !has(&page, "[name=\"a.eight_or_better\"][value=yes][checked]"),
        "unticked by default"
    );
    let reply = app
        .post_form_ok(
            "/sessions",
            &[
                ("game", "poker"),
                ("player_1", "Ann"),
                ("player_2", "Bob"),
                ("player_3", "Cy"),
                ("player_4", "Dee"),
                ("a.ante", "0.05"),
                ("a.variant", "omaha"),
                ("a.eight_or_better", "yes"),
            ],
        )
        .await;
    let sheet = reply.location.expect("redirect to the sheet");
    let id = sheet.rsplit('/').next().unwrap().to_string();
    let page = app.get(&sheet).await.body;
    assert!(
        has(&page, "[name=\"board\"]"),
        "the hand form has the board: {page}"
    );
    assert!(has(&page, "[name=eight_or_better][value=yes]"), "{page}");
    assert!(page.contains("Omaha: 4 hole cards, exactly two of them with three of the board"));
    assert!(page.contains("8 or better: else the high hand takes the whole pot"));
    // Dee deals; Ann and Bob put in 0.05 + 0.45, Cy and Dee fold on the ante. Board
    // 2-5-8-K-Q: Ann's KH KD with the KS make three kings (high); Ann's A-3 and Bob's A-3
    // with 2-5-8 both make 8-5-3-2-A (low, tied). Pot 1.10 = 22 chips: high 11 to Ann,
    // low 11 shared 5 and 5, its odd chip to the first left of the dealer, Ann (she has
    // none from this pot yet). Ann 17 chips 0.85 − 0.50 = +0.35, Bob 0.25 − 0.50 = −0.25,
    // Cy and Dee −0.05.
    let mut form = hand_form(
        0,
        "Dee",
        "high_low",
        &ann_and_bob_show("AS 3D KH KD", "AC 3H QD JH"),
    );
    form.push(("board".into(), "2h 5c 8d ks qs".into()));
    form.push(("eight_or_better".into(), "yes".into()));
    post_hand_ok(&app, &sheet, &form).await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(
        ledger["balances"],
        json!({"Ann": "0.35", "Bob": "-0.25", "Cy": "-0.05", "Dee": "-0.05"})
    );
    let export = export_of(&app, &id).await;
    assert_eq!(export["events"][0]["board"], json!("2h 5c 8d ks qs"));
    assert_eq!(export["agreements"]["variant"], json!("omaha"));
    assert_eq!(export["agreements"]["eight_or_better"], json!(true));
    // A board card typed into a hand is refused naming the hand, nothing recorded.
    let mut form = hand_form(
        1,
        "Ann",
        "high",
        &ann_and_bob_show("2H 3D KH KD", "AC 3H QD JH"),
    );
    form.push(("board".into(), "2H 5C 8D KS QS".into()));
    let reply = post_hand(&app, &sheet, &form).await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply.body.contains("2H is on the board and in Ann"),
        "{}",
        reply.body
    );
    let export = export_of(&app, &id).await;
    assert_eq!(export["events"].as_array().unwrap().len(), 1);
}
