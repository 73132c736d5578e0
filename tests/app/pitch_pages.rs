//! The Auction Pitch pages through the real router (rules §1.4): a whole game entered hand
//! by hand through the HTML form, refusals, the new-session form's defaults and the score
//! sheet's marks. Expected scores and payments are worked out here from the rules, not read
//! back from the code.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{
    body_rows, bold_says, count, has, marked_invalid, one_text, parts, select_text, selected,
    text_after,
};
use serde_json::{Value, json};

const PLAYERS: [&str; 4] = ["Ann", "Bob", "Cy", "Dan"];

/// Seats Ann, Bob, Cy and Dan at 5¢ a point, game 11, through the new-session form with its
/// defaults; returns the sheet's address.
async fn four_at_five_cents(app: &TestApp) -> String {
    let reply = app
        .post_form_ok(
            "/sessions",
            &[
                ("game", "auction_pitch"),
                ("player_1", "Ann"),
                ("player_2", "Bob"),
                ("player_3", "Cy"),
                ("player_4", "Dan"),
                ("player_5", ""),
                ("a.stake", "0.05"),
                ("a.target", "11"),
                ("a.variant", "standard"),
                ("a.countdown_start", "7"),
                ("a.smudge_rule", "wins_immediately"),
                ("a.negative_difference", "clamp_zero"),
                ("a.dealer_may_steal", "no"),
            ],
        )
        .await;
    reply.location.expect("redirect to the sheet")
}

fn id_of(sheet: &str) -> String {
    sheet.rsplit('/').next().unwrap().to_string()
}

/// One deal as the table calls it: dealer, pitcher, bid, and who took High, Low, Jack,
/// Game (`None` = nobody); `None` for the contract when all passed.
struct Deal {
    dealer: &'static str,
    contract: Option<(&'static str, u8, [Option<&'static str>; 4])>,
}

/// Enters `deal` through the hand form as a browser would send it.
async fn enter(app: &TestApp, sheet: &str, expected_events: usize, deal: &Deal) -> common::Reply {
    let expected = expected_events.to_string();
    let mut fields: Vec<(&str, String)> = vec![
        ("expected_events", expected),
        ("dealer", deal.dealer.into()),
    ];
    match deal.contract {
        None => fields.push(("all_passed", "true".into())),
        Some((pitcher, bid, points)) => {
            fields.push(("pitcher", pitcher.into()));
            fields.push(("bid", bid.to_string()));
            for (name, taker) in ["points.high", "points.low", "points.jack", "points.game"]
                .into_iter()
                .zip(points)
            {
                fields.push((name, taker.unwrap_or("nobody").into()));
            }
            fields.push(("revoke_by", String::new()));
        }
    }
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    app.post_form(&format!("{sheet}/hands"), &fields).await
}

/// The scores in seat order (Ann, Bob, Cy, Dan) of a ledger `scores_after`.
fn scores(v: &Value) -> [i64; 4] {
    PLAYERS.map(|p| {
        v[p].as_i64()
            .unwrap_or_else(|| panic!("no score for {p} in {v}"))
    })
}

/// The net posting of `who` in a ledger event, in cents.
fn posted(event: &Value, who: &str) -> i64 {
    event["postings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["account"] == who)
        .map(|p| {
            scorekeeper::money::Money::parse(p["amount"].as_str().unwrap())
                .unwrap()
                .cents()
        })
        .sum()
}

/// The first row of the sheet's body for which `test` holds, as a table of its own
/// (`what` names it in a failure).
fn row(body: &str, what: &str, test: impl Fn(&str) -> bool) -> String {
    body_rows(body)
        .into_iter()
        .find(|r| test(r))
        .unwrap_or_else(|| panic!("no {what} on the sheet"))
}

/// The row of hand `n` (its `td.num`).
fn hand_row(body: &str, n: usize) -> String {
    row(body, &format!("hand {n}"), |r| {
        select_text(r, "td.num") == [n.to_string()]
    })
}

/// The first row closing a game (`tr.game-end`, nothing else).
fn closing_row(body: &str) -> String {
    row(body, "game's end", |r| has(r, "tr[class=game-end]"))
}

/// The running score in `account`'s cell of a sheet row when the cell holds only that
/// (`<td data-account="Ann">11</td>`: no change shown, not in the hole).
fn plain_score(row: &str, account: &str) -> Option<String> {
    let td = format!("td[data-account=\"{account}\"]");
    let children = parts(row, &td).into_iter().next()?;
    children.is_empty().then(|| one_text(row, &td))
}

/// The game of the "done when": 4 players, game 11, stake 0.05. Expected scores
/// after each deal by rules §1.4 (non-pitchers add what they took; a pitcher who took at
/// least his bid adds all he took, else is set back the bid; all passed is a dead hand and
/// the same dealer deals again).
fn the_game() -> Vec<(Deal, Option<[i64; 4]>)> {
    let d = |dealer, contract| Deal { dealer, contract };
    vec![
        // Bob bids 2, takes High and Low: +2; Cy the Jack, Ann the Game.
        (
            d(
                "Ann",
                Some((
                    "Bob",
                    2,
                    [Some("Bob"), Some("Bob"), Some("Cy"), Some("Ann")],
                )),
            ),
            Some([1, 2, 1, 0]),
        ),
        // Dan bids 3, takes only High: set back 3, in the hole at −3. Jack not dealt.
        (
            d(
                "Bob",
                Some(("Dan", 3, [Some("Dan"), Some("Ann"), None, Some("Bob")])),
            ),
            Some([2, 3, 1, -3]),
        ),
        // Everyone passes on Cy's deal: no score, Cy deals again.
        (d("Cy", None), None),
        // Ann bids 3 and takes High, Low and Jack: +3; Cy the Game.
        (
            d(
                "Cy",
                Some((
                    "Ann",
                    3,
                    [Some("Ann"), Some("Ann"), Some("Ann"), Some("Cy")],
                )),
            ),
            Some([5, 3, 2, -3]),
        ),
        // Bob bids 2 and takes High, Jack and Game: +3; Dan the Low, −3 + 1 = −2.
        (
            d(
                "Dan",
                Some((
                    "Bob",
                    2,
                    [Some("Bob"), Some("Dan"), Some("Bob"), Some("Bob")],
                )),
            ),
            Some([5, 6, 2, -2]),
        ),
        // Ann bids 2 and takes High, Jack and Game: +3; Bob the Low.
        (
            d(
                "Ann",
                Some((
                    "Ann",
                    2,
                    [Some("Ann"), Some("Bob"), Some("Ann"), Some("Ann")],
                )),
            ),
            Some([8, 7, 2, -2]),
        ),
        // Cy bids 1 and takes nothing: set back 1; Bob +3 to 10, Ann +1 to 9.
        (
            d(
                "Bob",
                Some((
                    "Cy",
                    1,
                    [Some("Bob"), Some("Bob"), Some("Bob"), Some("Ann")],
                )),
            ),
            Some([9, 10, 1, -2]),
        ),
        // Ann, the pitcher at 9, bids 2 and makes it with High and Game: 11. Bob passes 11
        // on the same hand with Low and Jack: 12. The pitcher going out wins (rule 1).
        (
            d(
                "Cy",
                Some((
                    "Ann",
                    2,
                    [Some("Ann"), Some("Bob"), Some("Bob"), Some("Ann")],
                )),
            ),
            Some([11, 12, 1, -2]),
        ),
    ]
}

#[tokio::test]
async fn a_whole_game_through_the_form_the_pitcher_out_wins_and_collects() {
    let app = TestApp::new().await;
    let sheet = four_at_five_cents(&app).await;
    let id = id_of(&sheet);
    let ledger_uri = format!("/api/v1/sessions/{id}/ledger");

    for (n, (deal, expected)) in the_game().iter().enumerate() {
        let page = app.get(&sheet).await;
        assert_eq!(page.status.as_u16(), 200);
        assert!(
            selected(&page.body, "dealer").as_deref() == Some(deal.dealer),
            "deal {n}: the form pre-selects {} to deal",
            deal.dealer
        );
        let reply = enter(&app, &sheet, n, deal).await;
        assert_eq!(reply.status.as_u16(), 303, "deal {n}: {}", reply.body);
        let ledger = app.get(&ledger_uri).await.json();
        let event = &ledger["events"][n];
        if let Some(expected) = expected {
            assert_eq!(scores(&event["scores_after"]), *expected, "deal {n}");
        }
        if n + 1 < the_game().len() {
            assert!(
                ledger["games"].as_array().unwrap().is_empty(),
                "deal {n}: nobody is out yet"
            );
            assert_eq!(
                posted(event, "Ann"),
                0,
                "nothing is paid before a game ends"
            );
        }
    }

    let ledger = app.get(&ledger_uri).await.json();
    assert_eq!(
        ledger["games"],
        json!([{ "winner": "Ann", "decided_by": "pitcher_out",
                 "final_scores": { "Ann": 11, "Bob": 12, "Cy": 1, "Dan": -2 } }])
    );
    // Rules §1.4 settlement: each pays (11 − his score) × 0.05; Bob, ahead of the winner,
    // pays nothing (negative difference clamped, the agreed default).
    let last = &ledger["events"][7];
    let cy = (11 - 1) * 5;
    let dan = (11 - (-2)) * 5;
    assert_eq!(posted(last, "Cy"), -cy);
    assert_eq!(posted(last, "Dan"), -dan);
    assert_eq!(posted(last, "Bob"), 0);
    assert_eq!(posted(last, "Ann"), cy + dan);
    assert_eq!(
        ledger["balances"],
        json!({ "Ann": "1.15", "Bob": "0.00", "Cy": "-0.50", "Dan": "-0.65" })
    );
    assert_eq!(
        scores(&ledger["scores"]),
        [0, 0, 0, 0],
        "a new game starts afresh"
    );

    // The sheet: the last hand's running scores, then the row closing the game.
    let page = app.get(&sheet).await;
    let hand = hand_row(&page.body, 8);
    assert!(bold_says(&hand, "Ann", "Ann bid 2"), "{hand}");
    assert_eq!(plain_score(&hand, "Ann").as_deref(), Some("11"), "{hand}");
    assert_eq!(plain_score(&hand, "Bob").as_deref(), Some("12"), "{hand}");
    let closing = closing_row(&page.body);
    assert!(
        bold_says(&closing, "Game 1: Ann wins", "Game 1: Ann wins at 11"),
        "{closing}"
    );
    assert!(
        one_text(&closing, "tr").contains("pitcher went out"),
        "{closing}"
    );
    let payments = select_text(&closing, "li");
    assert!(
        payments.contains(&"Ann +\u{2060}$1.15".to_string()) && has(&closing, "li > span.plus"),
        "{closing}"
    );
    assert!(
        !payments.iter().any(|p| p.starts_with("Bob ")),
        "Bob pays nothing: {closing}"
    );
    assert!(
        payments.contains(&"Cy −\u{2060}$0.50".to_string()),
        "{closing}"
    );
    assert!(
        payments.contains(&"Dan −\u{2060}$0.65".to_string()),
        "{closing}"
    );
    assert!(
        page.body
            .contains("Dan pays $0.65 (11 − (−2) = 13 points × $0.05)"),
        "the settlement in words"
    );
    assert!(
        selected(&page.body, "dealer").as_deref() == Some("Dan"),
        "Dan, on Cy's left, deals the first hand of the next game"
    );

    // The next game starts from nothing on the sheet too.
    let next = Deal {
        dealer: "Dan",
        contract: Some(("Bob", 1, [Some("Bob"), Some("Cy"), None, None])),
    };
    let reply = enter(&app, &sheet, 8, &next).await;
    assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
    let ledger = app.get(&ledger_uri).await.json();
    assert_eq!(scores(&ledger["events"][8]["scores_after"]), [0, 1, 1, 0]);
    let page = app.get(&sheet).await;
    let hand = hand_row(&page.body, 9);
    assert_eq!(plain_score(&hand, "Bob").as_deref(), Some("1"), "{hand}");
    assert_eq!(plain_score(&hand, "Dan").as_deref(), Some("0"), "{hand}");
    assert_eq!(
        count(&page.body, "tr[class=game-end]"),
        1,
        "one game finished so far"
    );
}

#[tokio::test]
async fn impossible_entries_are_refused_by_name_and_write_nothing() {
    let app = TestApp::new().await;
    let sheet = four_at_five_cents(&app).await;
    let export = format!("/api/v1/sessions/{}/export", id_of(&sheet));
    let before = app.get(&export).await.json();
    let hand = |bid: &'static str, high: &'static str| {
        vec![
            ("expected_events", "0"),
            ("dealer", "Ann"),
            ("pitcher", "Bob"),
            ("bid", bid),
            ("points.high", high),
            ("points.low", "Cy"),
            ("points.jack", "nobody"),
            ("points.game", "Bob"),
        ]
    };

    // Bids are 1 to 4 (rules §1.4).
    let reply = app
        .post_form(&format!("{sheet}/hands"), &hand("5", "Bob"))
        .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply.body.contains("Bid: 5 is not a bid"),
        "the message names the field: {}",
        reply.body
    );
    assert!(
        marked_invalid(&reply.body).contains(&"Bid".to_string()),
        "the bid is marked"
    );
    assert!(
        has(&reply.body, "[name=pitcher][value=Bob][checked]"),
        "the entry is kept"
    );
    assert_eq!(app.get(&export).await.json(), before, "nothing was written");

    // High always goes to somebody in a played hand.
    let reply = app
        .post_form(&format!("{sheet}/hands"), &hand("2", "nobody"))
        .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply.body.contains("High: nobody cannot take High"),
        "{}",
        reply.body
    );
    assert!(marked_invalid(&reply.body).contains(&"High".to_string()));
    assert_eq!(app.get(&export).await.json(), before, "nothing was written");

    // A point left unanswered is asked for, not taken as nobody.
    let mut unanswered = hand("2", "Bob");
    unanswered.retain(|(k, _)| *k != "points.jack");
    let reply = app.post_form(&format!("{sheet}/hands"), &unanswered).await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply.body.contains("Jack: who took Jack?"),
        "{}",
        reply.body
    );
    assert!(marked_invalid(&reply.body).contains(&"Jack".to_string()));
    assert_eq!(app.get(&export).await.json(), before, "nothing was written");
}

#[tokio::test]
async fn the_new_session_form_offers_the_pitch_agreements_with_their_defaults() {
    let app = TestApp::new().await;
    let list = app.get("/").await;
    assert!(has(
        &list.body,
        "[href=\"/sessions/new?game=auction_pitch\"]"
    ));
    let form = app.get("/sessions/new?game=auction_pitch").await;
    assert_eq!(form.status.as_u16(), 200);
    for default in [
        "input[name=\"a.stake\"][value=\"0.00\"]",
        "input[name=\"a.target\"][value=\"11\"]",
        "input[name=\"a.countdown_start\"][value=\"7\"]",
        "option[value=standard][selected]",
        "option[value=wins_immediately][selected]",
        "option[value=clamp_zero][selected]",
        "option[value=no][selected]",
    ] {
        assert!(has(&form.body, default), "{default} is the default");
    }
    assert!(form.body.contains("rules §1.4"), "the help cites the rules");
    assert!(has(&form.body, "input[name=player_7]"), "up to 7 players");

    // The defaults as sent are what the session keeps.
    let sheet = four_at_five_cents(&app).await;
    let doc = app
        .get(&format!("/api/v1/sessions/{}/export", id_of(&sheet)))
        .await
        .json();
    assert_eq!(
        doc["agreements"],
        json!({ "stake": "0.05", "target": 11, "variant": "standard", "countdown_start": 7,
                "smudge_rule": "wins_immediately", "negative_difference": "clamp_zero",
                "dealer_may_steal": false })
    );
    let page = app.get(&sheet).await;
    assert!(page.body.contains("$0.05 a point of difference"));
    assert!(page.body.contains("standard: first to 11 points"));
}

#[tokio::test]
async fn a_score_in_the_hole_is_circled_and_the_set_back_marked() {
    let app = TestApp::new().await;
    let sheet = four_at_five_cents(&app).await;
    // Dan bids 3 and takes only High: set back 3, from 0 into the hole at −3.
    let deal = Deal {
        dealer: "Ann",
        contract: Some(("Dan", 3, [Some("Dan"), Some("Ann"), None, Some("Bob")])),
    };
    let reply = enter(&app, &sheet, 0, &deal).await;
    assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
    let page = app.get(&sheet).await;
    let hand = hand_row(&page.body, 1);
    assert!(
        has(
            &hand,
            "td[data-account=Dan] > span[class=hole][title=\"in the hole\"]:first-child:last-child"
        ) && one_text(&hand, "td[data-account=Dan]") == "−3",
        "{hand}"
    );
    assert_eq!(
        plain_score(&hand, "Ann").as_deref(),
        Some("1"),
        "a plus score is plain: {hand}"
    );
    assert!(
        select_text(&hand, "span.mark.bad").contains(&"set back 3".to_string()),
        "{hand}"
    );
    assert!(
        one_text(&hand, "abbr[title=Jack]") == "J"
            && text_after(&hand, "abbr[title=Jack]")
                .iter()
                .any(|t| t.starts_with("\u{a0}—")),
        "nobody took the Jack: {hand}"
    );
    assert!(page.body.contains("Dan is in the hole at −3"));
    let css = app.get("/static/style.css").await;
    assert!(css.body.contains(".sheet .hole {"), "the circle is styled");
}
