//! Review cases for Contract Pinochle (rules §1.8, §3 item 28; session-format
//! `contract_pinochle`, "Money in the partnership games"): whole sessions through `replay`
//! on the edges the public examples leave alone. Every expected number is worked out by
//! hand from the rules in the comment beside it.

use serde_json::{Value, json};

use crate::format::LedgerDoc;

use crate::rules::replay_tests::{self, sessions, winners};

const PLAYERS: [&str; 4] = ["N", "E", "S", "W"];

sessions!("contract_pinochle", PLAYERS);

fn cents(l: &LedgerDoc) -> Vec<i64> {
    replay_tests::cents(l, &PLAYERS)
}

fn refused(agreements: Value, opening: Value, events: Vec<Value>) -> String {
    run(agreements, opening, events).unwrap_err().to_string()
}

fn hand(dealer: &str, bidder: &str, bid: i64, doubled: &str, outcome: &str) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": bid, "trump": "spades",
           "doubled": doubled, "outcome": outcome})
}

/// A hand written with its auction and no `doubled`: the auction says it.
fn bid_hand(dealer: &str, bidder: &str, bid: i64, outcome: &str, calls: Value) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": bid, "trump": "spades",
           "outcome": outcome, "auction": calls})
}

#[test]
fn reaching_the_target_exactly_wins_and_opening_scores_seed_only_the_first_game() {
    // NS carried in at 2900; S's 100 made: 2900 + 100 = 3000 ≥ 3000, NS win game 1. At 0.50
    // a game E (seat 2) pays N (seat 1) and W (seat 4) pays S (seat 3): N +50 E −50 S +50
    // W −50. Game 2 starts from 0 for both sides (the EW 2950 is not carried on): E's 150
    // made gives EW 150 only.
    let l = ok(
        json!({"stake": "0.50"}),
        json!({"NS": 2900, "EW": 2950}),
        vec![
            hand("N", "S", 100, "no", "made"),
            hand("E", "E", 150, "no", "made"),
        ],
    );
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 3000, "EW": 2950}));
    assert_eq!(cents(&l), vec![50, -50, 50, -50]);
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 150})));
}

#[test]
fn a_concession_after_the_lead_can_win_the_game_for_the_opponents() {
    // EW 2700; N's 150 redoubled conceded after a card was played: EW + 150 × 4 = 600 →
    // 3300, EW win. Conceded before the lead instead: EW + 2 × 150 = 300 → 3000, still a
    // win (exactly the target). Undoubled before the lead: 150 / 2 = 75 → 2775, no win.
    let after = ok(
        json!({"stake": "1.00"}),
        json!({"EW": 2700}),
        vec![hand("W", "N", 150, "redoubled", "conceded_after_lead")],
    );
    assert_eq!(winners(&after), vec![Some("EW".to_string())]);
    assert_eq!(after.games[0].final_scores, json!({"NS": 0, "EW": 3300}));
    // N pays E, S pays W.
    assert_eq!(cents(&after), vec![-100, 100, -100, 100]);
    let before = ok(
        json!({}),
        json!({"EW": 2700}),
        vec![hand("W", "N", 150, "redoubled", "conceded_before_lead")],
    );
    assert_eq!(before.games[0].final_scores, json!({"NS": 0, "EW": 3000}));
    let half = ok(
        json!({}),
        json!({"EW": 2700}),
        vec![hand("W", "N", 150, "no", "conceded_before_lead")],
    );
    assert!(half.games.is_empty());
    assert_eq!(half.scores, Some(json!({"NS": 0, "EW": 2775})));
}

#[test]
fn opponents_conceding_a_doubled_contract_score_it_for_the_contractors() {
    // E's 200 doubled, NS concede: EW + 200 × 2 = 400; NS score nothing.
    let l = ok(
        json!({}),
        Value::Null,
        vec![hand("N", "E", 200, "doubled", "opponents_conceded")],
    );
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 400})));
}

#[test]
fn the_auction_decides_doubling_and_an_overcall_cancels_a_double() {
    // S deals and bids 200; W doubles; N (S's partner) overcalls 250; three passes. By the
    // default (rules §3 item 28: a double applies only if the doubled bid is the final
    // contract) N's 250 is undoubled: made → NS 250.
    let calls = json!([
        ["S", "200 spades"],
        ["W", "double"],
        ["N", "250 spades"],
        ["E", "pass"],
        ["S", "pass"],
        ["W", "pass"]
    ]);
    let l = ok(
        json!({}),
        Value::Null,
        vec![bid_hand("S", "N", 250, "made", calls.clone())],
    );
    assert_eq!(l.scores, Some(json!({"NS": 250, "EW": 0})));
    // With double_survives_overcall the double stands on N's 250 (W is still an opponent
    // of the contract): 250 × 2 = 500.
    let l = ok(
        json!({"double_survives_overcall": true}),
        Value::Null,
        vec![bid_hand("S", "N", 250, "made", calls)],
    );
    assert_eq!(l.scores, Some(json!({"NS": 500, "EW": 0})));
}

#[test]
fn a_double_does_not_survive_onto_the_doublers_own_bid() {
    // S deals and bids 200; W doubles; then E (W's partner) takes the contract at 250 and
    // three pass. Even with double_survives_overcall a side cannot stand doubled by itself
    // ("double only an opponent's bid", rules §1.8): EW's 250 is undoubled, made → EW 250.
    let calls = json!([
        ["S", "200 spades"],
        ["W", "double"],
        ["N", "pass"],
        ["E", "250 spades"],
        ["S", "pass"],
        ["W", "pass"],
        ["N", "pass"]
    ]);
    let l = ok(
        json!({"double_survives_overcall": true}),
        Value::Null,
        vec![bid_hand("S", "E", 250, "made", calls.clone())],
    );
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 250})));
    // And NS may then double EW's 250 afresh: 250 × 2 = 500 to NS when it fails.
    let mut doubled = calls.as_array().unwrap().clone();
    doubled.truncate(4);
    doubled.extend([
        json!(["S", "double"]),
        json!(["W", "pass"]),
        json!(["N", "pass"]),
        json!(["E", "pass"]),
    ]);
    let l = ok(
        json!({"double_survives_overcall": true}),
        Value::Null,
        vec![bid_hand("S", "E", 250, "failed", json!(doubled))],
    );
    assert_eq!(l.scores, Some(json!({"NS": 500, "EW": 0})));
}

#[test]
fn after_all_four_pass_the_next_dealer_calls_first() {
    // N deals, four passes (all_passed with its auction). E deals next and is the first
    // to call: his 100 and three passes make a contract, set → NS 100.
    let l = ok(
        json!({}),
        Value::Null,
        vec![
            json!({"type": "hand", "dealer": "N", "all_passed": true,
                   "auction": [["N", "pass"], ["E", "pass"], ["S", "pass"], ["W", "pass"]]}),
            bid_hand(
                "E",
                "E",
                100,
                "failed",
                json!([
                    ["E", "100 spades"],
                    ["S", "pass"],
                    ["W", "pass"],
                    ["N", "pass"]
                ]),
            ),
        ],
    );
    assert_eq!(l.scores, Some(json!({"NS": 100, "EW": 0})));
    assert!(l.events[0].postings.is_empty());
}

#[test]
fn impossible_auctions_are_refused_by_event_and_call() {
    let e = |events: Vec<Value>| refused(json!({}), Value::Null, events);
    // Event 1: N's 200 is not higher than E's 200 in another suit (suits rank equally).
    let calls = json!([["N", "pass"], ["E", "200 hearts"], ["S", "200 spades"]]);
    let msg = e(vec![
        hand("W", "W", 100, "no", "made"),
        bid_hand("N", "S", 200, "made", calls),
    ]);
    assert!(
        msg.contains("event 1") && msg.contains("auction[2]"),
        "{msg}"
    );
    // A bid between tens.
    let msg = e(vec![bid_hand(
        "N",
        "N",
        105,
        "made",
        json!([["N", "105 spades"]]),
    )]);
    assert!(
        msg.contains("event 0") && msg.contains("auction[0]"),
        "{msg}"
    );
    // S doubles his partner N's bid.
    let msg = e(vec![bid_hand(
        "N",
        "N",
        150,
        "made",
        json!([["N", "150 spades"], ["E", "pass"], ["S", "double"]]),
    )]);
    assert!(msg.contains("auction[2]"), "{msg}");
    // N redoubles his own side's double of E's bid.
    let msg = e(vec![bid_hand(
        "N",
        "E",
        150,
        "made",
        json!([
            ["N", "pass"],
            ["E", "150 spades"],
            ["S", "double"],
            ["W", "pass"],
            ["N", "redouble"]
        ]),
    )]);
    assert!(msg.contains("auction[4]"), "{msg}");
    // Only two passes after the bid: the auction is not over.
    let msg = e(vec![bid_hand(
        "N",
        "N",
        150,
        "made",
        json!([["N", "150 spades"], ["E", "pass"], ["S", "pass"]]),
    )]);
    assert!(msg.contains("event 0") && msg.contains("auction"), "{msg}");
    // The hand says undoubled, the auction ended doubled.
    let mut h = hand("N", "N", 150, "no", "made");
    h["auction"] = json!([
        ["N", "150 spades"],
        ["E", "double"],
        ["S", "pass"],
        ["W", "pass"],
        ["N", "pass"]
    ]);
    let msg = e(vec![h]);
    assert!(msg.contains("auction"), "{msg}");
}

#[test]
fn a_void_of_the_winning_hand_takes_the_game_and_its_money_back() {
    // NS 2900 + 200 made = 3100 wins game 1 at 0.25; voiding it leaves NS at 2900 and
    // nobody paid; the close then finds game 1 unfinished, which pays nothing.
    let l = ok(
        json!({"stake": "0.25"}),
        json!({"NS": 2900}),
        vec![
            hand("N", "N", 200, "no", "made"),
            json!({"type": "void", "event": 0, "reason": "entered at the wrong table"}),
            json!({"type": "close"}),
        ],
    );
    assert!(l.games.is_empty());
    assert_eq!(cents(&l), vec![0, 0, 0, 0]);
    assert_eq!(l.scores, Some(json!({"NS": 2900, "EW": 0})));
}

#[test]
fn opening_scores_are_per_side() {
    let msg = refused(json!({}), json!({"N": 500}), vec![]);
    assert!(msg.contains("opening_scores.N"), "{msg}");
}
