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
use common::html::{body_rows, count, has, has_parts, one_text, parts, select_attr, select_text};
use common::pages::{import_doc, ledger_of};
use serde_json::{Value, json};

/// Imports `doc` and returns the session's id.
async fn import(app: &TestApp, doc: &Value) -> String {
    import_doc(app, doc).await.to_string()
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

/// One row of the sheet's body, read through selectors: its classes, its text (white
/// space folded) and its markup as a table of its own for the helpers of `common::html`.
#[derive(Debug)]
struct Row {
    classes: Vec<String>,
    text: String,
    html: String,
}

impl Row {
    fn has_class(&self, class: &str) -> bool {
        self.classes.iter().any(|c| c == class)
    }

    /// Whether the row's text says `words`.
    fn says(&self, words: &str) -> bool {
        self.text.contains(words)
    }

    fn has(&self, css: &str) -> bool {
        has(&self.html, css)
    }

    /// Whether the row says `verb` then a `<time>` of this century: "corrected 20:15"
    /// (the time element's own words).
    fn stamped(&self, verb: &str) -> bool {
        select_text(&self.html, "time[datetime^=\"20\"]")
            .iter()
            .any(|at| self.says(&format!("{verb} {at}")))
    }

    /// Whether one cell of the row, or one element in a cell, reads exactly `text`: a
    /// running total `<small>660</small>` or a plain `<td>660</td>`.
    fn shows(&self, text: &str) -> bool {
        select_text(&self.html, "td, td *")
            .iter()
            .any(|t| t == text)
    }

    /// The text of the row's bold words (`<b>`): who bid, or a game's heading.
    fn bold(&self) -> Vec<String> {
        select_text(&self.html, "b")
    }

    /// The hand number in the row's `td.num`, if it has one.
    fn number(&self) -> Option<String> {
        select_text(&self.html, "td.num").into_iter().next()
    }
}

/// The rows of the sheet's body.
fn rows(body: &str) -> Vec<Row> {
    body_rows(body)
        .into_iter()
        .map(|html| Row {
            classes: select_attr(&html, "tr", "class")
                .first()
                .map(|c| c.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default(),
            text: one_text(&html, "tr"),
            html,
        })
        .collect()
}

fn struck(row: &Row) -> bool {
    row.has_class("struck")
}

/// The index of the only row for which `test` holds (`what` names it in a failure).
fn find(rows: &[Row], what: &str, test: impl Fn(&Row) -> bool) -> usize {
    let found: Vec<usize> = (0..rows.len()).filter(|&i| test(&rows[i])).collect();
    assert_eq!(found.len(), 1, "rows with {what}: {found:?}\n{rows:#?}");
    found[0]
}

/// The index of the only row saying `words`.
fn find_words(rows: &[Row], words: &str) -> usize {
    find(rows, words, |r| r.says(words))
}

/// The index of the only row of hand `n` (its `td.num`).
fn find_hand(rows: &[Row], n: usize) -> usize {
    find(rows, &format!("hand {n}"), |r| {
        r.number().as_deref() == Some(n.to_string().as_str())
    })
}

/// The text of the cell for `player` in a row (`td[data-account]`), or of his entry in
/// the row's list of payments (empty when the list leaves him out: he pays nothing).
fn cell(row: &Row, player: &str) -> String {
    if let Some(text) = select_text(&row.html, &format!("td[data-account=\"{player}\"]"))
        .into_iter()
        .next()
    {
        return text;
    }
    paid_or(row, player).unwrap_or_else(|| {
        assert!(row.has(".payments"), "no {player} in {}", row.html);
        String::new()
    })
}

/// One player's money in the row's payments (`<li>N <span …>+0.70</span></li>`).
fn paid_or(row: &Row, player: &str) -> Option<String> {
    let name = format!("{player} ");
    select_text(&row.html, "li")
        .into_iter()
        .find_map(|item| item.strip_prefix(&name).map(str::to_string))
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

/// What picks the correct-link of event `index` in session `id`.
fn correct_link(id: &str, index: usize) -> String {
    format!("[href=\"/sessions/{id}?correct={index}#correct\"]")
}

// ---------------------------------------------------------------------------------------
// Auction Pitch (rules §1.4)
// ---------------------------------------------------------------------------------------

/// 10¢ a point, game at 4 points, Ann, Bob and Cy.
const PITCH_STAKE: i64 = 10;
const PITCH_TARGET: i64 = 4;

/// Imports a Pitch session of Ann, Bob and Cy at [`PITCH_STAKE`] a point, game at
/// [`PITCH_TARGET`], holding `events`; its id.
async fn import_pitch(app: &TestApp, events: Value) -> String {
    let doc = json!({"format": "scorekeeper/session@1", "game": "auction_pitch",
           "agreements": {"stake": "0.10", "target": PITCH_TARGET},
           "players": ["Ann", "Bob", "Cy"], "events": events});
    import(app, &doc).await
}

/// The first hand of most games below: Cy deals; Ann bids 2 and takes High and Low (+2),
/// Bob the Game (+1). Ann 2, Bob 1, Cy 0.
fn ann_makes_two() -> Value {
    pitch_hand(
        "Cy",
        "Ann",
        2,
        [Some("Ann"), Some("Ann"), None, Some("Bob")],
    )
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
fn pitch_closings(rows: &[Row]) -> Vec<(usize, &Row, bool)> {
    (0..rows.len())
        .filter(|&i| rows[i].has_class("game-end"))
        .map(|i| (i, &rows[i], struck(&rows[i])))
        .collect()
}

/// The winners of the closing rows still standing, in order.
fn standing_winners(rows: &[Row]) -> Vec<String> {
    pitch_closings(rows)
        .into_iter()
        .filter(|(_, _, s)| !s)
        .map(|(_, row, _)| {
            let words = row.bold().into_iter().next().unwrap();
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
    let id = import_pitch(
        &app,
        json!([
            ann_makes_two(),
            pitch_hand(
                "Ann",
                "Bob",
                2,
                [Some("Ann"), Some("Bob"), Some("Bob"), Some("Bob")]
            ),
        ]),
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
    let hand1 = find_hand(&rows, 1);
    assert!(struck(&rows[hand1]), "{}", rows[hand1].html);
    assert!(struck(&rows[hand1 + 1]) && rows[hand1 + 1].stamped("corrected"));
    assert!(!rows[hand1 + 1].says("(event"), "{}", rows[hand1 + 1].html);
    assert!(!rows[hand1 + 1].has(".correct"));
    // Hand 2 still stands as entered: not struck, with its link.
    let hand2 = find_hand(&rows, 2);
    assert!(!struck(&rows[hand2]));
    assert!(rows[hand2 + 1].has(&correct_link(&id, 1)));

    // The old closing row (Bob) is struck; the only standing one is Ann's, under the
    // correction, with her payments.
    let closings = pitch_closings(&rows);
    assert_eq!(closings.len(), 2, "{closings:?}");
    let bob = find_words(&rows, "Game 1: Bob wins");
    assert!(struck(&rows[bob]), "the old winner's row is struck");
    assert!(rows[bob].stamped("changed") && !rows[bob].says("(event"));
    let ann = find_words(&rows, "Game 1: Ann wins");
    assert!(!struck(&rows[ann]));
    assert!(ann > bob);
    assert!(rows[ann].says(&format!("at {PITCH_TARGET}")));
    assert!(rows[ann].says("only one out"));
    assert_eq!(cell(&rows[ann], "Ann"), money(ann_won_bob + ann_won_cy));
    assert_eq!(cell(&rows[ann], "Bob"), money(-ann_won_bob));
    assert_eq!(cell(&rows[ann], "Cy"), money(-ann_won_cy));
    assert_eq!(standing_winners(&rows), ledger_winners(&now));

    // The correction's own rows: what it corrects, the scores now (Ann 4, Bob 3, Cy 0), the
    // net money (Ann was paying 0.10 and now collects 0.50), the reason and the link that
    // corrects hand 1 again.
    let correction = find_words(&rows, "corrects hand 1");
    assert!(correction < ann);
    assert!(rows[correction].has_class("amends"));
    assert_eq!(cell(&rows[correction], "Ann"), "4");
    assert_eq!(cell(&rows[correction], "Bob"), "3");
    assert_eq!(cell(&rows[correction], "Cy"), "0");
    let net = &rows[correction + 1];
    assert!(net.has_class("money-line"), "{net:?}");
    let ann_net = (ann_won_bob + ann_won_cy) - (-bob_won_ann);
    assert_eq!(cell(net, "Ann"), money(ann_net));
    assert_eq!(
        cell(net, "Bob"),
        money(-ann_won_bob - (bob_won_ann + bob_won_cy))
    );
    assert_eq!(cell(net, "Cy"), money(-ann_won_cy + bob_won_cy));
    let why = find_words(&rows, "Game went to Ann, not Bob");
    assert_eq!(why, correction + 2);
    assert!(rows[why].has(&correct_link(&id, 0)));

    // Hand 3 was undone: struck, "undone", no link; the undo row gives the reason and the
    // scores of game 2 as they now stand: nobody has scored.
    let hand3 = find_hand(&rows, 3);
    assert!(struck(&rows[hand3]));
    assert!(rows[hand3 + 1].stamped("undone") && !rows[hand3 + 1].says("(event"));
    assert!(!has(&body, &correct_link(&id, 3)));
    let undo = find_words(&rows, "undoes hand 3");
    for p in ["Ann", "Bob", "Cy"] {
        assert_eq!(cell(&rows[undo], p), "0", "{p} starts game 2 at 0");
    }
    assert!(rows[undo + 1].says("misdeal"));

    // No struck row carries a correct link.
    for row in rows.iter().filter(|r| struck(r)) {
        assert!(!row.has(".correct"), "{row:?}");
    }
}

#[tokio::test]
async fn pitch_correcting_the_hand_that_ended_a_game_gives_it_to_another_player() {
    let app = TestApp::new().await;
    // Hand 1: Ann bids 2, takes High and Low: +2; Bob the Game: +1. Ann 2, Bob 1, Cy 0.
    // Hand 2: Bob bids 3, takes High, Low, Jack (3 ≥ 3: +3); Cy the Game (+1). Bob 4 wins.
    let id = import_pitch(
        &app,
        json!([
            ann_makes_two(),
            pitch_hand(
                "Ann",
                "Bob",
                3,
                [Some("Bob"), Some("Bob"), Some("Bob"), Some("Cy")]
            ),
        ]),
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
    let hand2 = find_hand(&rows, 2);
    assert!(struck(&rows[hand2]));
    assert!(rows[hand2 + 1].stamped("corrected") && !rows[hand2 + 1].says("(event"));
    // The game Bob's hand ended is struck with it; Ann's is shown under the correction.
    let bob = find_words(&rows, "Game 1: Bob wins");
    assert!(struck(&rows[bob]));
    let correction = find_words(&rows, "corrects hand 2");
    let ann = find_words(&rows, "Game 1: Ann wins");
    assert!(bob < correction && correction < ann);
    assert!(!struck(&rows[ann]));
    assert!(rows[ann].says("at 5"));
    assert_eq!(cell(&rows[ann], "Ann"), money(from_bob + from_cy));
    assert_eq!(cell(&rows[ann], "Bob"), money(-from_bob));
    assert_eq!(cell(&rows[ann], "Cy"), money(-from_cy));
    // The correction shows the final scores of the game it ended: Bob in the hole, circled.
    assert_eq!(cell(&rows[correction], "Ann"), "5");
    assert_eq!(cell(&rows[correction], "Bob"), shown(-2));
    assert!(rows[correction].has(".hole"));
    assert_eq!(standing_winners(&rows), ledger_winners(&now));
    // Hand 2 is corrected again from the correction's row, not from its struck row.
    assert!(rows[correction + 2].has(&correct_link(&id, 1)));
    assert_eq!(count(&body, &correct_link(&id, 1)), 1);
}

#[tokio::test]
async fn pitch_a_correction_that_unends_a_game_leaves_no_winner_standing() {
    let app = TestApp::new().await;
    // As above, Bob wins at 4 on hand 2; then High turns out to be Ann's: Bob took Low and
    // Jack, 2 < 3, and is set back: 1 − 3 = −2. Ann 2 + 1 = 3, Cy 0 + 1 = 1: nobody is out.
    let id = import_pitch(&app, json!([
            ann_makes_two(),
            pitch_hand("Ann", "Bob", 3, [Some("Bob"), Some("Bob"), Some("Bob"), Some("Cy")]),
            {"type": "correction", "event": 1,
             "replacement": pitch_hand("Ann", "Bob", 3, [Some("Ann"), Some("Bob"), Some("Bob"), Some("Cy")])},
        ])).await;
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
    let bob = find_words(&rows, "Game 1: Bob wins");
    assert!(struck(&rows[bob]));
    assert!(rows[bob].says("no longer over"), "{}", rows[bob].html);
    assert!(standing_winners(&rows).is_empty());
    let correction = find_words(&rows, "corrects hand 2");
    assert_eq!(cell(&rows[correction], "Ann"), "3");
    assert_eq!(cell(&rows[correction], "Bob"), shown(-2));
    assert_eq!(cell(&rows[correction], "Cy"), "1");
}

#[tokio::test]
async fn pitch_a_closed_sitting_offers_no_correct_links() {
    let app = TestApp::new().await;
    let id = import_pitch(&app, json!([ann_makes_two()])).await;
    assert!(has(&sheet(&app, &id).await, &correct_link(&id, 0)));
    record(&app, &id, json!({"type": "close"})).await;
    assert!(!has(&sheet(&app, &id).await, ".correct"));
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

/// One player's money in a payments list (empty when the list leaves him out).
fn paid(row: &Row, player: &str) -> String {
    paid_or(row, player).unwrap_or_default()
}

/// The rows of a Check Pinochle game row: (index, heading, struck).
fn check_games(rows: &[Row]) -> Vec<(usize, &Row, bool)> {
    (0..rows.len())
        .filter(|&i| rows[i].has_class("game-end"))
        .map(|i| (i, &rows[i], struck(&rows[i])))
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
    let hand3 = find(&rows, "hand 3, S bid", |r| {
        r.number().as_deref() == Some("3") && r.bold().contains(&"S".to_string())
    });
    assert!(struck(&rows[hand3]) && struck(&rows[hand3 + 1]));
    let note = find(&rows, "corrected", |r| r.stamped("corrected"));
    assert!(note > hand3 && !rows[note].says("(event") && struck(&rows[note]));
    assert!(!rows[note].has(".correct"));
    // Hands 1 and 2 still stand: their links; hand 3 is corrected from its correction's row.
    for index in [0, 1, 2] {
        assert_eq!(count(&body, &correct_link(&id, index)), 1, "{index}");
    }
    let correction = find_words(&rows, "corrects hand 3");
    assert!(rows[correction + 2].says("(NS took 180 in tricks)"));
    assert!(rows[correction + 2].has(&correct_link(&id, 2)));
    // The correction's money is the net difference: each NS player went from paying the
    // EW difference to collecting the NS one.
    let old_each = (ew_checks - ns_checks) * CHECK_STAKE;
    assert_eq!(paid(&rows[correction + 1], "N"), money(each + old_each));
    assert_eq!(paid(&rows[correction + 1], "E"), money(-each - old_each));
    // The sheet after it: NS 660 with their checks and the award, EW 490.
    assert!(rows[correction].shows("660") && rows[correction].shows(&ns_now.to_string()));
    assert!(rows[correction].shows("490") && rows[correction].shows(&ew_now.to_string()));

    // EW's game row is struck; NS's, shown under the correction, stands, with the award
    // and each player's money.
    let games = check_games(&rows);
    assert_eq!(games.len(), 2, "{games:?}");
    let ew = find_words(&rows, "Game 1: EW wins");
    assert!(struck(&rows[ew]) && struck(&rows[ew]));
    assert!(rows[ew].stamped("changed") && !rows[ew].says("(event"));
    let ns = find_words(&rows, "Game 1: NS wins");
    assert!(ew < correction && correction < ns && !struck(&rows[ns]));
    assert!(rows[ns].says(&format!("+{GAME_AWARD} checks to NS: game award")));
    assert_eq!(paid(&rows[ns], "N"), money(each));
    assert_eq!(paid(&rows[ns], "S"), money(each));
    assert_eq!(paid(&rows[ns], "E"), money(-each));
    assert_eq!(paid(&rows[ns], "W"), money(-each));

    // Game 2's only hand was undone: struck, "undone", no link anywhere; the undo row says
    // what it undoes, why, and that game 2 stands at nothing.
    let hand4 = find(&rows, "W bid", |r| r.bold().contains(&"W".to_string()));
    assert!(struck(&rows[hand4]));
    let undone = find(&rows, "undone", |r| r.stamped("undone"));
    assert!(!rows[undone].says("(event"));
    assert!(!has(&body, &correct_link(&id, 4)));
    let undo = find_words(&rows, "undoes hand 4");
    assert!(rows[undo + 1].says("wrong dealer"));
    assert_eq!(
        parts(&rows[undo].html, "td")
            .iter()
            .zip(select_text(&rows[undo].html, "td"))
            .filter(|(children, text)| children.is_empty() && text == "0")
            .count(),
        4,
        "points and checks of both sides: {}",
        rows[undo].html
    );
    assert!(body.contains("Game 2 now"));
    for row in rows.iter().filter(|r| struck(r)) {
        assert!(!row.has(".correct"), "{row:?}");
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
    let ew = find_words(&rows, "Game 1: EW wins");
    assert!(struck(&rows[ew]));
    assert!(rows[ew].says("no longer over"), "{}", rows[ew].html);
    assert!(check_games(&rows).iter().all(|(_, _, s)| *s));
    let correction = find_words(&rows, "corrects hand 2");
    assert!(rows[correction].shows("290") && rows[correction].shows(&ns_checks.to_string()));
    assert!(rows[correction].shows("40") && rows[correction].shows(&ew_checks.to_string()));
    // Hand 4 counts on from the corrected sheet, as the 4th hand of game 1: EW +210 to 250,
    // checks + make(200) + queens; NS +100 to 390.
    assert!(!body[body.find("corrects hand 2").unwrap()..].contains("Game 2"));
    let hand4 = find_hand(&rows, 4);
    let hand4 = &rows[hand4].html;
    assert!(has_parts(hand4, "td", &["+210", "250"]), "{hand4}");
    assert!(has_parts(hand4, "td", &["+100", "390"]), "{hand4}");
    let ew_added = make(200) + QUEENS_60;
    assert!(
        has_parts(
            hand4,
            "td",
            &[format!("+{ew_added}"), (ew_checks + ew_added).to_string()]
        ),
        "{hand4}"
    );
    assert!(body.contains("Game 1 now"));
}
