//! Corrections on the Auction Pitch and Check Pinochle score sheets, through the real router:
//! a corrected or undone hand stays on the sheet struck through, saying when and by which
//! event; the correction or undo has its own row with its money, its reason and the scores
//! as the session now stands; the "correct" link sits on the row that shows a hand as it now
//! stands; and a game whose ending a correction changed is struck where it was shown and
//! shown again, as it now ended, under the correction.
//!
//! Every expected score, check and payment is worked out here from rules §1.4 (Pitch) and
//! §1.7 (Check Pinochle, Hoyle column, Scarne's game award), not read back from the output.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::pages::ledger_of;
use serde_json::{Value, json};

/// Imports `doc` and returns the session's id.
async fn import(app: &TestApp, doc: &Value) -> String {
    let reply = app.post_json("/api/v1/sessions/import", doc).await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    reply.json()["id"].to_string()
}

/// Records one event through the API.
async fn record(app: &TestApp, id: &str, event: Value) {
    let reply = app
        .post_json(&format!("/api/v1/sessions/{id}/events"), &event)
        .await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
}

async fn sheet(app: &TestApp, id: &str) -> String {
    let page = app.get(&format!("/sessions/{id}")).await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    page.body
}

async fn ledger(app: &TestApp, id: &str) -> Value {
    ledger_of(app, id).await
}

/// The rows of the sheet's body, each the text from `<tr` to `</tr>`.
fn rows(body: &str) -> Vec<&str> {
    let start = body.find("<tbody>").expect("a table body");
    let end = start + body[start..].find("</tbody>").expect("the body ends");
    body[start..end]
        .split("<tr")
        .skip(1)
        .map(|r| r.split("</tr>").next().unwrap())
        .collect()
}

/// The classes of a row.
fn classes(row: &str) -> Vec<&str> {
    row.trim_start()
        .strip_prefix("class=\"")
        .and_then(|r| r.split('"').next())
        .unwrap_or_default()
        .split_whitespace()
        .collect()
}

fn struck(row: &str) -> bool {
    classes(row).contains(&"struck")
}

/// The index of the only row holding every one of `needles`.
fn find(rows: &[&str], needles: &[&str]) -> usize {
    let found: Vec<usize> = (0..rows.len())
        .filter(|&i| needles.iter().all(|n| rows[i].contains(n)))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "rows with {needles:?}: {found:?}\n{}",
        rows.join("\n----\n")
    );
    found[0]
}

/// The text of the cell for `player` in a row (`data-account`), or of his entry in the
/// row's list of payments (empty when the list leaves him out: he pays nothing), tags
/// removed.
fn cell(row: &str, player: &str) -> String {
    let key = format!("data-account=\"{player}\">");
    let item = format!("<li>{player} ");
    let (start, end) = if let Some(at) = row.find(&key) {
        let start = at + key.len();
        (start, start + row[start..].find("</td>").unwrap())
    } else if let Some(at) = row.find(&item) {
        let start = at + item.len();
        (start, start + row[start..].find("</li>").unwrap())
    } else if row.contains("class=\"payments\"") {
        return String::new();
    } else {
        panic!("no {player} in {row}")
    };
    let inner = &row[start..end];
    let mut text = String::new();
    let mut in_tag = false;
    for c in inner.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.trim().to_string()
}

/// Money as the sheet writes it: `+$0.60`, `−$0.60` (a true minus sign joined to the
/// symbol by a word joiner, U+2060), empty for zero.
fn money(cents: i64) -> String {
    let abs = format!("{}.{:02}", cents.abs() / 100, cents.abs() % 100);
    match cents.signum() {
        1 => format!("+\u{2060}${abs}"),
        -1 => format!("−\u{2060}${abs}"),
        _ => String::new(),
    }
}

/// A score as the sheet writes it: `−2` with a true minus sign.
fn shown(n: i64) -> String {
    if n < 0 {
        format!("−{}", -n)
    } else {
        n.to_string()
    }
}

/// A balance as the ledger document writes it: `"-0.10"`.
fn balance(ledger: &Value, who: &str) -> i64 {
    let text = ledger["balances"][who].as_str().unwrap();
    let negative = text.starts_with('-');
    let cents: i64 = text
        .trim_start_matches('-')
        .replace('.', "")
        .parse()
        .unwrap();
    if negative { -cents } else { cents }
}

/// The correct-link of event `index` in session `id`, as the sheet writes it.
fn correct_link(id: &str, index: usize) -> String {
    format!("href=\"/sessions/{id}?correct={index}#correct\"")
}

// ---------------------------------------------------------------------------------------
// Auction Pitch (rules §1.4)
// ---------------------------------------------------------------------------------------

/// 10¢ a point, game at 4 points, Ann, Bob and Cy.
const PITCH_STAKE: i64 = 10;
const PITCH_TARGET: i64 = 4;

fn pitch_doc(events: Value) -> Value {
    json!({"format": "scorekeeper/session@1", "game": "auction_pitch",
           "agreements": {"stake": "0.10", "target": PITCH_TARGET},
           "players": ["Ann", "Bob", "Cy"], "events": events})
}

/// A played Pitch hand: dealer, pitcher, bid, and who took High, Low, Jack, Game.
fn pitch_hand(dealer: &str, pitcher: &str, bid: i64, took: [Option<&str>; 4]) -> Value {
    json!({"type": "hand", "dealer": dealer, "pitcher": pitcher, "bid": bid,
           "points": {"high": took[0], "low": took[1], "jack": took[2], "game": took[3]}})
}

/// What a loser pays the winner at the end of a Pitch game (rules §1.4 settlement): the
/// difference in points times the stake, nothing when the winner is behind (clamp_zero).
fn pitch_pays(winner: i64, loser: i64) -> i64 {
    (winner - loser).max(0) * PITCH_STAKE
}

/// The closing rows (`game-end`) of a Pitch sheet: (index, winner line, struck).
fn pitch_closings<'a>(rows: &[&'a str]) -> Vec<(usize, &'a str, bool)> {
    (0..rows.len())
        .filter(|&i| classes(rows[i]).contains(&"game-end"))
        .map(|i| (i, rows[i], struck(rows[i])))
        .collect()
}

/// The winners of the closing rows still standing, in order.
fn standing_winners(rows: &[&str]) -> Vec<String> {
    pitch_closings(rows)
        .into_iter()
        .filter(|(_, _, s)| !s)
        .map(|(_, row, _)| {
            let start = row.find("<b>").unwrap() + 3;
            let words = &row[start..start + row[start..].find("</b>").unwrap()];
            words
                .split(": ")
                .nth(1)
                .unwrap()
                .trim_end_matches(" wins")
                .to_string()
        })
        .collect()
}

fn ledger_winners(ledger: &Value) -> Vec<String> {
    ledger["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["winner"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn pitch_a_corrected_earlier_hand_changes_who_won_and_a_later_hand_is_undone() {
    let app = TestApp::new().await;
    // Hand 1: Ann bids 2, takes High and Low (2 ≥ 2: +2); Bob the Game (+1). Ann 2, Bob 1.
    // Hand 2: Bob bids 2, takes Low, Jack, Game (3 ≥ 2: +3); Ann High (+1). Ann 3, Bob 4:
    // the pitcher reaches 4 and wins (rule 1).
    let id = import(
        &app,
        &pitch_doc(json!([
            pitch_hand(
                "Cy",
                "Ann",
                2,
                [Some("Ann"), Some("Ann"), None, Some("Bob")]
            ),
            pitch_hand(
                "Ann",
                "Bob",
                2,
                [Some("Ann"), Some("Bob"), Some("Bob"), Some("Bob")]
            ),
        ])),
    )
    .await;
    let first = ledger(&app, &id).await;
    assert_eq!(ledger_winners(&first), ["Bob"]);
    let (bob_won_ann, bob_won_cy) = (pitch_pays(4, 3), pitch_pays(4, 0));
    assert_eq!(balance(&first, "Bob"), bob_won_ann + bob_won_cy);

    // The Game of hand 1 was Ann's: she makes 3 (High, Low, Game), Bob 0. Hand 2 now leaves
    // Ann at 3 + 1 = 4 and Bob at 0 + 3 = 3: the pitcher is short of 4 and Ann, the only
    // player out, wins (rule 2). Bob pays 4 − 3, Cy 4 − 0 points.
    record(
        &app,
        &id,
        json!({"type": "correction", "event": 0, "reason": "Game went to Ann, not Bob",
               "replacement": pitch_hand("Cy", "Ann", 2, [Some("Ann"), Some("Ann"), None, Some("Ann")])}),
    )
    .await;
    let (ann_won_bob, ann_won_cy) = (pitch_pays(4, 3), pitch_pays(4, 0));
    // Game 2, hand 3: Cy bids 1 and takes High and Low (+2); Ann the Game (+1). Then undone.
    record(
        &app,
        &id,
        pitch_hand("Bob", "Cy", 1, [Some("Cy"), Some("Cy"), None, Some("Ann")]),
    )
    .await;
    record(
        &app,
        &id,
        json!({"type": "void", "event": 3, "reason": "misdeal"}),
    )
    .await;

    let now = ledger(&app, &id).await;
    assert_eq!(ledger_winners(&now), ["Ann"]);
    assert_eq!(balance(&now, "Ann"), ann_won_bob + ann_won_cy);
    assert_eq!(balance(&now, "Bob"), -ann_won_bob);
    assert_eq!(balance(&now, "Cy"), -ann_won_cy);

    let body = sheet(&app, &id).await;
    let rows = rows(&body);
    // Hand 1 as first entered: struck, with when and by which event.
    let hand1 = find(&rows, &["<td class=\"num\">1</td>"]);
    assert!(struck(rows[hand1]), "{}", rows[hand1]);
    assert!(struck(rows[hand1 + 1]) && rows[hand1 + 1].contains("corrected <time datetime=\"20"));
    assert!(!rows[hand1 + 1].contains("(event"), "{}", rows[hand1 + 1]);
    assert!(!rows[hand1 + 1].contains("class=\"correct\""));
    // Hand 2 still stands as entered: not struck, with its link.
    let hand2 = find(&rows, &["<td class=\"num\">2</td>"]);
    assert!(!struck(rows[hand2]));
    assert!(rows[hand2 + 1].contains(&correct_link(&id, 1)));

    // The old closing row (Bob) is struck; the only standing one is Ann's, under the
    // correction, with her payments.
    let closings = pitch_closings(&rows);
    assert_eq!(closings.len(), 2, "{closings:?}");
    let bob = find(&rows, &["Game 1: Bob wins"]);
    assert!(struck(rows[bob]), "the old winner's row is struck");
    assert!(rows[bob].contains("changed <time datetime=\"20") && !rows[bob].contains("(event"));
    let ann = find(&rows, &["Game 1: Ann wins"]);
    assert!(!struck(rows[ann]));
    assert!(ann > bob);
    assert!(rows[ann].contains(&format!("at {PITCH_TARGET}")));
    assert!(rows[ann].contains("only one out"));
    assert_eq!(cell(rows[ann], "Ann"), money(ann_won_bob + ann_won_cy));
    assert_eq!(cell(rows[ann], "Bob"), money(-ann_won_bob));
    assert_eq!(cell(rows[ann], "Cy"), money(-ann_won_cy));
    assert_eq!(standing_winners(&rows), ledger_winners(&now));

    // The correction's own rows: what it corrects, the scores now (Ann 4, Bob 3, Cy 0), the
    // net money (Ann was paying 0.10 and now collects 0.50), the reason and the link that
    // corrects hand 1 again.
    let correction = find(&rows, &["corrects hand 1"]);
    assert!(correction < ann);
    assert!(classes(rows[correction]).contains(&"amends"));
    assert_eq!(cell(rows[correction], "Ann"), "4");
    assert_eq!(cell(rows[correction], "Bob"), "3");
    assert_eq!(cell(rows[correction], "Cy"), "0");
    let net = &rows[correction + 1];
    assert!(classes(net).contains(&"money-line"), "{net}");
    let ann_net = (ann_won_bob + ann_won_cy) - (-bob_won_ann);
    assert_eq!(cell(net, "Ann"), money(ann_net));
    assert_eq!(
        cell(net, "Bob"),
        money(-ann_won_bob - (bob_won_ann + bob_won_cy))
    );
    assert_eq!(cell(net, "Cy"), money(-ann_won_cy + bob_won_cy));
    let why = find(&rows, &["Game went to Ann, not Bob"]);
    assert_eq!(why, correction + 2);
    assert!(rows[why].contains(&correct_link(&id, 0)));

    // Hand 3 was undone: struck, "undone", no link; the undo row gives the reason and the
    // scores of game 2 as they now stand: nobody has scored.
    let hand3 = find(&rows, &["<td class=\"num\">3</td>"]);
    assert!(struck(rows[hand3]));
    assert!(
        rows[hand3 + 1].contains("undone <time datetime=\"20")
            && !rows[hand3 + 1].contains("(event")
    );
    assert!(!body.contains(&correct_link(&id, 3)));
    let undo = find(&rows, &["undoes hand 3"]);
    for p in ["Ann", "Bob", "Cy"] {
        assert_eq!(cell(rows[undo], p), "0", "{p} starts game 2 at 0");
    }
    assert!(rows[undo + 1].contains("misdeal"));

    // No struck row carries a correct link.
    for row in rows.iter().filter(|r| struck(r)) {
        assert!(!row.contains("class=\"correct\""), "{row}");
    }
}

#[tokio::test]
async fn pitch_correcting_the_hand_that_ended_a_game_gives_it_to_another_player() {
    let app = TestApp::new().await;
    // Hand 1: Ann bids 2, takes High and Low: +2; Bob the Game: +1. Ann 2, Bob 1, Cy 0.
    // Hand 2: Bob bids 3, takes High, Low, Jack (3 ≥ 3: +3); Cy the Game (+1). Bob 4 wins.
    let id = import(
        &app,
        &pitch_doc(json!([
            pitch_hand(
                "Cy",
                "Ann",
                2,
                [Some("Ann"), Some("Ann"), None, Some("Bob")]
            ),
            pitch_hand(
                "Ann",
                "Bob",
                3,
                [Some("Bob"), Some("Bob"), Some("Bob"), Some("Cy")]
            ),
        ])),
    )
    .await;
    assert_eq!(ledger_winners(&ledger(&app, &id).await), ["Bob"]);
    // Ann held High, Low and Jack: Bob took nothing and is set back 3 (1 − 3 = −2, in the
    // hole); Ann 2 + 3 = 5 is the only player out. Bob pays 5 − (−2) = 7 points, Cy 5 − 1.
    record(
        &app,
        &id,
        json!({"type": "correction", "event": 1, "reason": "High, Low and Jack were Ann's",
               "replacement": pitch_hand("Ann", "Bob", 3, [Some("Ann"), Some("Ann"), Some("Ann"), Some("Cy")])}),
    )
    .await;
    let (from_bob, from_cy) = (pitch_pays(5, -2), pitch_pays(5, 1));
    let now = ledger(&app, &id).await;
    assert_eq!(ledger_winners(&now), ["Ann"]);
    assert_eq!(balance(&now, "Ann"), from_bob + from_cy);
    assert_eq!(balance(&now, "Bob"), -from_bob);

    let body = sheet(&app, &id).await;
    let rows = rows(&body);
    let hand2 = find(&rows, &["<td class=\"num\">2</td>"]);
    assert!(struck(rows[hand2]));
    assert!(
        rows[hand2 + 1].contains("corrected <time datetime=\"20")
            && !rows[hand2 + 1].contains("(event")
    );
    // The game Bob's hand ended is struck with it; Ann's is shown under the correction.
    let bob = find(&rows, &["Game 1: Bob wins"]);
    assert!(struck(rows[bob]));
    let correction = find(&rows, &["corrects hand 2"]);
    let ann = find(&rows, &["Game 1: Ann wins"]);
    assert!(bob < correction && correction < ann);
    assert!(!struck(rows[ann]));
    assert!(rows[ann].contains("at 5"));
    assert_eq!(cell(rows[ann], "Ann"), money(from_bob + from_cy));
    assert_eq!(cell(rows[ann], "Bob"), money(-from_bob));
    assert_eq!(cell(rows[ann], "Cy"), money(-from_cy));
    // The correction shows the final scores of the game it ended: Bob in the hole, circled.
    assert_eq!(cell(rows[correction], "Ann"), "5");
    assert_eq!(cell(rows[correction], "Bob"), shown(-2));
    assert!(rows[correction].contains("class=\"hole\""));
    assert_eq!(standing_winners(&rows), ledger_winners(&now));
    // Hand 2 is corrected again from the correction's row, not from its struck row.
    assert!(rows[correction + 2].contains(&correct_link(&id, 1)));
    assert_eq!(body.matches(&correct_link(&id, 1)).count(), 1);
}

#[tokio::test]
async fn pitch_a_correction_that_unends_a_game_leaves_no_winner_standing() {
    let app = TestApp::new().await;
    // As above, Bob wins at 4 on hand 2; then High turns out to be Ann's: Bob took Low and
    // Jack, 2 < 3, and is set back: 1 − 3 = −2. Ann 2 + 1 = 3, Cy 0 + 1 = 1: nobody is out.
    let id = import(
        &app,
        &pitch_doc(json!([
            pitch_hand("Cy", "Ann", 2, [Some("Ann"), Some("Ann"), None, Some("Bob")]),
            pitch_hand("Ann", "Bob", 3, [Some("Bob"), Some("Bob"), Some("Bob"), Some("Cy")]),
            {"type": "correction", "event": 1,
             "replacement": pitch_hand("Ann", "Bob", 3, [Some("Ann"), Some("Bob"), Some("Bob"), Some("Cy")])},
        ])),
    )
    .await;
    let now = ledger(&app, &id).await;
    assert!(ledger_winners(&now).is_empty());
    for p in ["Ann", "Bob", "Cy"] {
        assert_eq!(
            balance(&now, p),
            0,
            "{p}: the game's payments are taken back"
        );
    }
    let body = sheet(&app, &id).await;
    let rows = rows(&body);
    let bob = find(&rows, &["Game 1: Bob wins"]);
    assert!(struck(rows[bob]));
    assert!(rows[bob].contains("no longer over"), "{}", rows[bob]);
    assert!(standing_winners(&rows).is_empty());
    let correction = find(&rows, &["corrects hand 2"]);
    assert_eq!(cell(rows[correction], "Ann"), "3");
    assert_eq!(cell(rows[correction], "Bob"), shown(-2));
    assert_eq!(cell(rows[correction], "Cy"), "1");
}

#[tokio::test]
async fn pitch_a_closed_sitting_offers_no_correct_links() {
    let app = TestApp::new().await;
    let id = import(
        &app,
        &pitch_doc(json!([pitch_hand(
            "Cy",
            "Ann",
            2,
            [Some("Ann"), Some("Ann"), None, Some("Bob")]
        ),])),
    )
    .await;
    assert!(sheet(&app, &id).await.contains(&correct_link(&id, 0)));
    record(&app, &id, json!({"type": "close"})).await;
    assert!(!sheet(&app, &id).await.contains("class=\"correct\""));
}

// ---------------------------------------------------------------------------------------
// Check Pinochle (rules §1.7, Hoyle column, Scarne's game award of 7)
// ---------------------------------------------------------------------------------------

/// Checks for making a bid of 200–240, 250–290, 300–340 (Hoyle).
fn make(bid: i64) -> i64 {
    match bid {
        200..=240 => 2,
        250..=290 => 4,
        300..=340 => 7,
        _ => panic!("no band for {bid} in this test"),
    }
}

/// Checks for defeating a bid: twice the making value.
fn defeat(bid: i64) -> i64 {
    2 * make(bid)
}

const ACES_100: i64 = 2;
const QUEENS_60: i64 = 1;
const JACKS_40: i64 = 1;
const GAME_AWARD: i64 = 7;
/// 5¢ a check; each loser pays his opposite number the difference (per player).
const CHECK_STAKE: i64 = 5;

/// N & S against E & W, game at 500 points.
fn check_doc(events: Value) -> Value {
    json!({"format": "scorekeeper/session@1", "game": "check_pinochle",
           "agreements": {"stake": "0.05", "target": 500},
           "players": ["N", "E", "S", "W"], "events": events})
}

/// A Check Pinochle hand: each side's meld, check melds and trick points.
fn check_hand(
    dealer: &str,
    bidder: &str,
    bid: i64,
    ns: (i64, &[&str], i64),
    ew: (i64, &[&str], i64),
) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": bid, "trump": "hearts",
           "NS": {"meld": ns.0, "meld_checks": ns.1, "tricks": ns.2},
           "EW": {"meld": ew.0, "meld_checks": ew.1, "tricks": ew.2}})
}

/// The first three hands of game 1 (target 500):
/// 1. N bids 300, NS meld 140 (100 aces) + tricks 180 = 320: made. NS 320, checks 7 + 2;
///    EW 60 (60 queens) + 70 = 130, checks 1.
/// 2. E bids 250, EW 100 + 150 = 250: made. EW 380, checks 1 + 4; NS 40 (40 jacks) + 100:
///    NS 460, checks 9 + 1.
/// 3. S bids 200, NS 20 + 130 = 150: short, NS 460 − 200 = 260, no checks; EW 40 + 120:
///    EW 540 reach 500 and win, checks 5 + defeat(200) + the game award.
fn three_hands() -> [Value; 3] {
    [
        check_hand(
            "W",
            "N",
            300,
            (140, &["aces_100"], 180),
            (60, &["queens_60"], 70),
        ),
        check_hand("N", "E", 250, (40, &["jacks_40"], 100), (100, &[], 150)),
        check_hand("E", "S", 200, (20, &[], 130), (40, &[], 120)),
    ]
}

/// One player's money in a payments list (`<li>N <span …>+0.70</span></li>`).
fn paid(row: &str, player: &str) -> String {
    let key = format!("<li>{player} <span");
    let Some(start) = row.find(&key) else {
        return String::new();
    };
    let rest = &row[start..];
    let open = rest.find('>').unwrap() + 1;
    let open = open + rest[open..].find('>').unwrap() + 1;
    rest[open..open + rest[open..].find("</span>").unwrap()].to_string()
}

/// The rows of a Check Pinochle game row: (index, heading, struck).
fn check_games<'a>(rows: &[&'a str]) -> Vec<(usize, &'a str, bool)> {
    (0..rows.len())
        .filter(|&i| {
            let c = classes(rows[i]);
            c.contains(&"game-end")
        })
        .map(|i| (i, rows[i], struck(rows[i])))
        .collect()
}

#[tokio::test]
async fn check_a_corrected_last_hand_gives_the_game_to_the_other_side_and_an_undo_is_struck() {
    let app = TestApp::new().await;
    let id = import(&app, &check_doc(json!(three_hands()))).await;
    let ew_checks = QUEENS_60 + make(250) + defeat(200) + GAME_AWARD;
    let ns_checks = make(300) + ACES_100 + JACKS_40;
    assert_eq!(ledger_winners(&ledger(&app, &id).await), ["EW"]);
    assert_eq!(
        balance(&ledger(&app, &id).await, "E"),
        (ew_checks - ns_checks) * CHECK_STAKE
    );

    // Hand 3 again: NS took 180, not 130. 20 + 180 = 200 makes the bid: NS 460 + 200 = 660
    // reach 500 and win, checks 10 + make(200) + the award; EW 40 + 70 = 110: 490, checks 5.
    record(
        &app,
        &id,
        json!({"type": "correction", "event": 2, "reason": "NS took 180 in tricks",
               "replacement": check_hand("E", "S", 200, (20, &[], 180), (40, &[], 70))}),
    )
    .await;
    let ns_now = ns_checks + make(200) + GAME_AWARD;
    let ew_now = QUEENS_60 + make(250);
    let each = (ns_now - ew_now) * CHECK_STAKE;
    // Game 2: W bids 200, EW 60 (60 queens) + 150 = 210 made; NS 0 + 100. Then undone.
    record(
        &app,
        &id,
        check_hand("S", "W", 200, (0, &[], 100), (60, &["queens_60"], 150)),
    )
    .await;
    record(
        &app,
        &id,
        json!({"type": "void", "event": 4, "reason": "wrong dealer"}),
    )
    .await;

    let now = ledger(&app, &id).await;
    assert_eq!(ledger_winners(&now), ["NS"]);
    for (p, cents) in [("N", each), ("S", each), ("E", -each), ("W", -each)] {
        assert_eq!(balance(&now, p), cents, "{p}");
    }

    let body = sheet(&app, &id).await;
    let rows = rows(&body);
    // Hand 3 as first entered: struck through, with when and by which event, no link.
    let hand3 = find(&rows, &["<td class=\"num\">3</td>", "<b>S</b>"]);
    assert!(struck(rows[hand3]) && struck(rows[hand3 + 1]));
    let note = find(&rows, &["corrected <time datetime=\"20"]);
    assert!(note > hand3 && !rows[note].contains("(event") && struck(rows[note]));
    assert!(!rows[note].contains("class=\"correct\""));
    // Hands 1 and 2 still stand: their links; hand 3 is corrected from its correction's row.
    for index in [0, 1, 2] {
        assert_eq!(
            body.matches(&correct_link(&id, index)).count(),
            1,
            "{index}"
        );
    }
    let correction = find(&rows, &["corrects hand 3"]);
    assert!(rows[correction + 2].contains("(NS took 180 in tricks)"));
    assert!(rows[correction + 2].contains(&correct_link(&id, 2)));
    // The correction's money is the net difference: each NS player went from paying the
    // EW difference to collecting the NS one.
    let old_each = (ew_checks - ns_checks) * CHECK_STAKE;
    assert_eq!(paid(rows[correction + 1], "N"), money(each + old_each));
    assert_eq!(paid(rows[correction + 1], "E"), money(-each - old_each));
    // The sheet after it: NS 660 with their checks and the award, EW 490.
    assert!(
        rows[correction].contains(">660<") && rows[correction].contains(&format!(">{ns_now}<"))
    );
    assert!(
        rows[correction].contains(">490<") && rows[correction].contains(&format!(">{ew_now}<"))
    );

    // EW's game row is struck; NS's, shown under the correction, stands, with the award
    // and each player's money.
    let games = check_games(&rows);
    assert_eq!(games.len(), 2, "{games:?}");
    let ew = find(&rows, &["Game 1: EW wins"]);
    assert!(struck(rows[ew]) && struck(rows[ew]));
    assert!(rows[ew].contains("changed <time datetime=\"20") && !rows[ew].contains("(event"));
    let ns = find(&rows, &["Game 1: NS wins"]);
    assert!(ew < correction && correction < ns && !struck(rows[ns]));
    assert!(rows[ns].contains(&format!("+{GAME_AWARD} checks to NS: game award")));
    assert_eq!(paid(rows[ns], "N"), money(each));
    assert_eq!(paid(rows[ns], "S"), money(each));
    assert_eq!(paid(rows[ns], "E"), money(-each));
    assert_eq!(paid(rows[ns], "W"), money(-each));

    // Game 2's only hand was undone: struck, "undone", no link anywhere; the undo row says
    // what it undoes, why, and that game 2 stands at nothing.
    let hand4 = find(&rows, &["<b>W</b>"]);
    assert!(struck(rows[hand4]));
    let undone = find(&rows, &["undone <time datetime=\"20"]);
    assert!(!rows[undone].contains("(event"));
    assert!(!body.contains(&correct_link(&id, 4)));
    let undo = find(&rows, &["undoes hand 4"]);
    assert!(rows[undo + 1].contains("wrong dealer"));
    assert_eq!(
        rows[undo].matches(">0</td>").count(),
        4,
        "points and checks of both sides: {}",
        rows[undo]
    );
    assert!(body.contains("Game 2 now"));
    for row in rows.iter().filter(|r| struck(r)) {
        assert!(!row.contains("class=\"correct\""), "{row}");
    }
}

#[tokio::test]
async fn check_a_correction_that_unends_a_game_carries_on_counting_it() {
    let app = TestApp::new().await;
    let mut events = three_hands().to_vec();
    // Hand 2 again: EW took 120, NS 130. EW 100 + 120 = 220 < 250: EW −250 → −120, no
    // checks; NS 40 + 130 = 170 → 490, checks 9 + jacks + defeat(250) = 18. Hand 3 then: NS
    // short, 490 − 200 = 290; EW −120 + 160 = 40, checks 1 + defeat(200). Nobody has 500.
    events.push(
        json!({"type": "correction", "event": 1, "reason": "EW took 120",
        "replacement": check_hand("N", "E", 250, (40, &["jacks_40"], 130), (100, &[], 120))}),
    );
    // Hand 4: W bids 200, EW 60 (60 queens) + 150 = 210: 250, checks 5 + 2 + 1; NS +100: 390.
    events.push(check_hand(
        "S",
        "W",
        200,
        (0, &[], 100),
        (60, &["queens_60"], 150),
    ));
    let id = import(&app, &check_doc(json!(events))).await;
    let now = ledger(&app, &id).await;
    assert!(ledger_winners(&now).is_empty());
    for p in ["N", "E", "S", "W"] {
        assert_eq!(balance(&now, p), 0, "{p}");
    }
    let ns_checks = make(300) + ACES_100 + JACKS_40 + defeat(250);
    let ew_checks = QUEENS_60 + defeat(200);

    let body = sheet(&app, &id).await;
    let rows = rows(&body);
    let ew = find(&rows, &["Game 1: EW wins"]);
    assert!(struck(rows[ew]));
    assert!(rows[ew].contains("no longer over"), "{}", rows[ew]);
    assert!(check_games(&rows).iter().all(|(_, _, s)| *s));
    let correction = find(&rows, &["corrects hand 2"]);
    assert!(
        rows[correction].contains(">290<") && rows[correction].contains(&format!(">{ns_checks}<"))
    );
    assert!(
        rows[correction].contains(">40<") && rows[correction].contains(&format!(">{ew_checks}<"))
    );
    // Hand 4 counts on from the corrected sheet, as the 4th hand of game 1: EW +210 to 250,
    // checks + make(200) + queens; NS +100 to 390.
    assert!(!body[body.find("corrects hand 2").unwrap()..].contains("Game 2"));
    let hand4 = find(&rows, &["<td class=\"num\">4</td>"]);
    assert!(
        rows[hand4].contains("+210</span><small>250</small>"),
        "{}",
        rows[hand4]
    );
    assert!(
        rows[hand4].contains("+100</span><small>390</small>"),
        "{}",
        rows[hand4]
    );
    assert!(
        rows[hand4].contains(&format!(
            "+{}</span><small>{}</small>",
            make(200) + QUEENS_60,
            ew_checks + make(200) + QUEENS_60
        )),
        "{}",
        rows[hand4]
    );
    assert!(body.contains("Game 1 now"));
}
