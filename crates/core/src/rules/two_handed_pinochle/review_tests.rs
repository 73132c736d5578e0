//! Review cases for Two-handed Pinochle (rules §1.9, §3 item 29; session-format
//! `two_handed_pinochle`): whole sessions through `replay` on the edges the public examples
//! leave alone. Every expected number is worked out by hand from the rules in the comment
//! beside it (trick points in tens, 7 or more counting 10: `10 × floor((raw + 3) / 10)`).

use serde_json::{Value, json};

use crate::format::LedgerDoc;
use crate::money::Money;

use crate::rules::replay_tests::{sessions, winners};

const PLAYERS: [&str; 2] = ["P1", "P2"];

sessions!("two_handed_pinochle", PLAYERS);

fn refused(agreements: Value, opening: Value, events: Vec<Value>) -> String {
    run(agreements, opening, events).unwrap_err().to_string()
}

fn deal(dealer: &str, dix: bool, melds: [i64; 2], tricks: [i64; 2]) -> Value {
    json!({"type": "hand", "dealer": dealer, "turn_up_dix": dix,
           "melds": {"P1": melds[0], "P2": melds[1]},
           "tricks": {"P1": tricks[0], "P2": tricks[1]}})
}

fn declare(claimant: &str, melds: Value, so_far: i64) -> Value {
    json!({"type": "declare_out", "claimant": claimant, "melds": melds, "tricks_so_far": so_far})
}

fn money(l: &LedgerDoc) -> (i64, i64) {
    let c = |p: &str| l.balances.get(p).copied().unwrap_or(Money::ZERO).cents();
    (c("P1"), c("P2"))
}

#[test]
fn s004s_rounding_examples_score_as_printed() {
    // 125 / 125 → 120 / 120 (the other 10 are lost); 127 / 123 → 130 / 120; P2 deals the
    // second deal and turns up the dix: + 10 to him only. P1 120 + 130 = 250; P2 120 + 120
    // + 10 = 250.
    let l = ok(
        json!({}),
        Value::Null,
        vec![
            deal("P1", false, [0, 0], [125, 125]),
            deal("P2", true, [0, 0], [127, 123]),
        ],
    );
    assert_eq!(l.scores, Some(json!({"P1": 250, "P2": 250})));
}

#[test]
fn exactly_the_target_with_the_other_under_it_wins() {
    // P1 900 + 40 meld + 57 → 60 = 1,000 exactly; P2 800 + 0 + 193 → 190 = 990 < 1,000.
    // P1 wins; P2 pays the stake 0.75.
    let l = ok(
        json!({"stake": "0.75"}),
        json!({"P1": 900, "P2": 800}),
        vec![deal("P2", false, [40, 0], [57, 193])],
    );
    assert_eq!(winners(&l), vec![Some("P1".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"P1": 1000, "P2": 990}));
    assert_eq!(money(&l), (75, -75));
}

#[test]
fn both_past_the_target_go_on_even_when_one_is_past_the_next_step_too() {
    // 900/900: P1 + 300 meld + 100 = 1,300, P2 + 20 + 150 = 1,070. Both ≥ 1,000 → the game
    // goes on to 1,250 and nobody wins on this deal, though P1 is past 1,250 (S004: "each
    // player has 1,000 or more … play continues for a game of 1,250").
    let first = deal("P1", false, [300, 20], [100, 150]);
    let l = ok(
        json!({}),
        json!({"P1": 900, "P2": 900}),
        vec![first.clone()],
    );
    assert!(l.games.is_empty());
    assert_eq!(l.scores, Some(json!({"P1": 1300, "P2": 1070})));
    // Next deal: P1 + 0 + 53 → 50 = 1,350, P2 + 100 + 197 → 200 = 1,370: both ≥ 1,250 →
    // 1,500, nobody wins although P2 now leads.
    let second = deal("P2", false, [0, 100], [53, 197]);
    let l = ok(
        json!({}),
        json!({"P1": 900, "P2": 900}),
        vec![first.clone(), second.clone()],
    );
    assert!(l.games.is_empty());
    assert_eq!(l.scores, Some(json!({"P1": 1350, "P2": 1370})));
    // Third: P1 + 150 + 3 → 0 = 1,500 exactly, P2 + 0 + 247 → 250 = 1,620: both ≥ 1,500 →
    // 1,750. Fourth: P1 + 0 + 250 = 1,750, P2 + 0 + 0 = 1,620 < 1,750: P1 wins at 0.10.
    let l = ok(
        json!({"stake": "0.10"}),
        json!({"P1": 900, "P2": 900}),
        vec![
            first,
            second,
            deal("P1", false, [150, 0], [3, 247]),
            deal("P2", false, [0, 0], [250, 0]),
        ],
    );
    assert_eq!(winners(&l), vec![Some("P1".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"P1": 1750, "P2": 1620}));
    assert_eq!(money(&l), (10, -10));
}

#[test]
fn the_next_game_is_played_to_the_agreed_target_again() {
    // Game 1 gone on to 1,250 (from 900/900 one deal gives P1 0 + 97 → 100 = 1,000 and
    // P2 50 + 153 → 150 = 1,100: both ≥ 1,000), then P2 declares out at 1,100 + 0 + 150 =
    // 1,250 ≥ 1,250 and wins. Game 2 starts at 0 to 1,000: P1 + 900 meld + 103 → 100 =
    // 1,000 ≥ 1,000 and P2 130 + 147 → 150 = 280: P1 wins game 2 (not held to 1,250).
    let l = ok(
        json!({"stake": "1.00"}),
        json!({"P1": 900, "P2": 900}),
        vec![
            deal("P1", false, [0, 50], [97, 153]),
            declare("P2", json!({}), 150),
            deal("P2", false, [900, 130], [103, 147]),
        ],
    );
    assert_eq!(
        winners(&l),
        vec![Some("P2".to_string()), Some("P1".to_string())]
    );
    assert_eq!(l.games[0].final_scores, json!({"P1": 1000, "P2": 1250}));
    assert_eq!(l.games[1].final_scores, json!({"P1": 1000, "P2": 280}));
    assert_eq!(money(&l), (0, 0));
}

#[test]
fn declaring_out_short_at_a_raised_target_loses_though_past_1000() {
    // Both at 1,100 carried in (a game gone on to 1,250). P1 declares: 1,100 + 60 meld +
    // 87 → 90 = 1,250 ≥ 1,250: he wins. With 86 (86 + 3 = 89 → 80): 1,240, short, so P2
    // wins.
    let out = ok(
        json!({}),
        json!({"P1": 1100, "P2": 1100}),
        vec![declare("P1", json!({"P1": 60}), 87)],
    );
    assert_eq!(winners(&out), vec![Some("P1".to_string())]);
    let short = ok(
        json!({}),
        json!({"P1": 1100, "P2": 1100}),
        vec![declare("P1", json!({"P1": 60}), 86)],
    );
    assert_eq!(winners(&short), vec![Some("P2".to_string())]);
    assert_eq!(short.games[0].final_scores, json!({"P1": 1240, "P2": 1100}));
}

#[test]
fn single_deals_pay_the_winner_and_nothing_for_a_draw() {
    // Deal 1: P1 100 + 127 → 130 = 230, P2 110 + 123 → 120 = 230: a draw, nobody pays.
    // Deal 2: P1 0 + 125 → 120, P2 0 + 125 → 120 + dix 10 (P2 dealt) = 130: P2 wins 0.20.
    let l = ok(
        json!({"mode": "single_deal", "stake": "0.20"}),
        Value::Null,
        vec![
            deal("P1", false, [100, 110], [127, 123]),
            deal("P2", true, [0, 0], [125, 125]),
        ],
    );
    assert_eq!(winners(&l), vec![None, Some("P2".to_string())]);
    assert_eq!(money(&l), (-20, 20));
}

#[test]
fn impossible_deals_and_claims_are_refused_by_event_and_field() {
    let good = deal("P1", false, [0, 0], [120, 130]);
    // Trick points adding to 240 (event 1).
    let msg = refused(
        json!({}),
        Value::Null,
        vec![good.clone(), deal("P2", false, [0, 0], [120, 120])],
    );
    assert!(msg.contains("event 1") && msg.contains("tricks"), "{msg}");
    // A meld that is no sum of melds (every meld is whole tens).
    let msg = refused(
        json!({}),
        Value::Null,
        vec![deal("P1", false, [45, 0], [120, 130])],
    );
    assert!(msg.contains("event 0") && msg.contains("melds.P1"), "{msg}");
    // A stranger in the tricks.
    let msg = refused(
        json!({}),
        Value::Null,
        vec![json!({"type": "hand", "dealer": "P1", "tricks": {"P1": 120, "Zed": 130}})],
    );
    assert!(msg.contains("tricks.Zed"), "{msg}");
    // Declaring out in single-deal mode (event 1).
    let msg = refused(
        json!({"mode": "single_deal"}),
        Value::Null,
        vec![good, declare("P1", json!({}), 100)],
    );
    assert!(msg.contains("event 1"), "{msg}");
    // An opening score that already won.
    let msg = refused(json!({}), json!({"P1": 1000, "P2": 500}), vec![]);
    assert!(msg.contains("opening_scores.P1"), "{msg}");
}

#[test]
fn a_game_unfinished_at_the_close_pays_nothing() {
    let l = ok(
        json!({"stake": "5.00"}),
        json!({"P1": 990}),
        vec![
            deal("P1", false, [0, 0], [0, 250]),
            json!({"type": "close"}),
        ],
    );
    assert!(l.games.is_empty());
    assert_eq!(money(&l), (0, 0));
    assert_eq!(l.scores, Some(json!({"P1": 990, "P2": 250})));
}
