//! Review cases for Partnership Auction Pinochle and Aeroplane (rules §1.6, §3 item 27;
//! session-format `partnership_auction_pinochle`, "Money in the partnership games"): whole
//! sessions through `replay`, each worked out by hand in the comment beside it, for the edges
//! the public examples do not touch (the trick rule on each side of the contract, a made bid
//! that leaves the opponents first to the target, games in the hole, every `auction` check).

use serde_json::{Value, json};

use crate::format::{LedgerDoc, Refusal};

use crate::rules::replay_tests::{self, sessions};

const PLAYERS: [&str; 4] = ["N", "E", "S", "W"];

sessions!("partnership_auction_pinochle", PLAYERS);

fn cents(l: &LedgerDoc) -> Vec<i64> {
    replay_tests::cents(l, &PLAYERS)
}

fn refused(agreements: Value, opening: Value, events: Vec<Value>) -> Refusal {
    run(agreements, opening, events).unwrap_err()
}

/// A deal in spades, `ns`/`ew` = (meld, tricks, won_trick).
fn hand(dealer: &str, bidder: &str, bid: i64, ns: (i64, i64, bool), ew: (i64, i64, bool)) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": bid, "trump": "spades",
           "NS": {"meld": ns.0, "tricks": ns.1, "won_trick": ns.2},
           "EW": {"meld": ew.0, "tricks": ew.1, "won_trick": ew.2}})
}

fn with_auction(mut deal: Value, calls: Value) -> Value {
    deal["auction"] = calls;
    deal
}

fn winners(l: &LedgerDoc) -> Vec<Option<&str>> {
    l.games.iter().map(|g| g.winner.as_deref()).collect()
}

#[test]
fn bidders_without_a_trick_cannot_make_the_bid_on_meld() {
    // N bids 150 with meld 200, but NS win no trick (EW take all 250): the meld does not
    // count (a side counts its melds only when it wins a trick), so NS made 0 < 150: −150.
    // EW 40 + 250 = 290.
    let l = ok(
        json!({}),
        Value::Null,
        vec![hand("W", "N", 150, (200, 0, false), (40, 250, true))],
    );
    assert_eq!(l.scores, Some(json!({"NS": -150, "EW": 290})));
}

#[test]
fn opponents_without_a_trick_lose_their_meld_and_bidders_score_all_they_made() {
    // E bids 300; EW meld 120 + all 250 = 370 ≥ 300: EW +370 (everything, not the bid).
    // NS meld 80 but no trick: 0.
    let l = ok(
        json!({}),
        Value::Null,
        vec![hand("N", "E", 300, (80, 0, false), (120, 250, true))],
    );
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 370})));
}

#[test]
fn a_made_bid_short_of_the_target_lets_the_opponents_win() {
    // NS 700, EW 900. N bids 200, NS 100 + 150 = 250 ≥ 200 → NS 950 (< 1,000); EW 0 + 100
    // → 1,000: EW reach the target, the bidders do not: EW win ("target"). Stake 0.35:
    // N pays E, S pays W.
    let l = ok(
        json!({"stake": "0.35"}),
        json!({"NS": 700, "EW": 900}),
        vec![hand("W", "N", 200, (100, 150, true), (0, 100, true))],
    );
    assert_eq!(winners(&l), vec![Some("EW")]);
    assert_eq!(l.games[0].decided_by, "target");
    assert_eq!(l.games[0].final_scores, json!({"NS": 950, "EW": 1000}));
    assert_eq!(cents(&l), vec![-35, 35, -35, 35]);
}

#[test]
fn a_game_from_the_hole_then_a_fresh_game_from_zero() {
    // Carried in NS −200, EW 850. S bids 250 and makes 60 + 180 = 240 < 250: NS −450; EW
    // 10 + 70 = 80 → 930. Then E bids 100, EW 0 + 70 = 70 < 100: EW 830; NS 40 + 180 = 220 →
    // −230. Then W bids 120 and EW make 50 + 130 = 180 → 1,010 ≥ 1,000: EW win game 1
    // (NS −230 + 0 + 120 = −110). Stake 0.20: N→E, S→W. The next deal starts game 2 at 0:
    // N bids 100, NS 0 + 150 = 150 ≥ 100 → 150; EW 0 + 100 → 100.
    let l = ok(
        json!({"stake": "0.20"}),
        json!({"NS": -200, "EW": 850}),
        vec![
            hand("N", "S", 250, (60, 180, true), (10, 70, true)),
            hand("E", "E", 100, (40, 180, true), (0, 70, true)),
            hand("S", "W", 120, (0, 120, true), (50, 130, true)),
            hand("W", "N", 100, (0, 150, true), (0, 100, true)),
        ],
    );
    assert_eq!(winners(&l), vec![Some("EW")]);
    assert_eq!(l.games[0].final_scores, json!({"NS": -110, "EW": 1010}));
    assert_eq!(l.scores, Some(json!({"NS": 150, "EW": 100})));
    assert_eq!(cents(&l), vec![-20, 20, -20, 20]);
}

#[test]
fn an_all_pass_auction_of_four_passes_is_accepted_and_scores_nothing() {
    let l = ok(
        json!({"stake": "1.00"}),
        Value::Null,
        vec![
            json!({"type": "hand", "dealer": "W", "all_passed": true,
                   "auction": [["N", "pass"], ["E", "pass"], ["S", "pass"], ["W", "pass"]]}),
            json!({"type": "close"}),
        ],
    );
    assert!(l.games.is_empty());
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 0})));
    assert_eq!(cents(&l), vec![0, 0, 0, 0]);
    // The dealer bidding after three passes is a bid, not an all-pass deal.
    let r = refused(
        json!({}),
        Value::Null,
        vec![json!({"type": "hand", "dealer": "W", "all_passed": true,
                    "auction": [["N", "pass"], ["E", "pass"], ["S", "pass"], ["W", 100]]})],
    );
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "auction")
    );
}

#[test]
fn every_auction_check_names_its_call() {
    let base = || hand("W", "N", 150, (100, 150, true), (0, 100, true));
    let check = |agreements: Value, calls: Value| {
        let r = refused(
            agreements,
            Value::Null,
            vec![
                hand("S", "W", 250, (0, 100, true), (0, 150, true)),
                with_auction(base(), calls),
            ],
        );
        assert_eq!(r.event_index, Some(1), "{}", r.message);
        r.field
    };
    // Below the base minimum 100.
    assert_eq!(
        check(json!({}), json!([["N", 90], ["E", 150]])),
        "auction[0]"
    );
    // Not a multiple of 10.
    assert_eq!(
        check(json!({}), json!([["N", 100], ["E", 115]])),
        "auction[1]"
    );
    // Not higher than the bid before.
    assert_eq!(
        check(json!({}), json!([["N", 150], ["E", 150]])),
        "auction[1]"
    );
    // A pass is final: N passed and bids again.
    assert_eq!(
        check(
            json!({}),
            json!([
                ["N", "pass"],
                ["E", 100],
                ["S", "pass"],
                ["W", "pass"],
                ["N", 150]
            ])
        ),
        "auction[4]"
    );
    // Aeroplane minimum 250 in the calls, the deal's own bid being 250.
    let r = refused(
        json!({"aeroplane": true}),
        Value::Null,
        vec![with_auction(
            hand("W", "N", 250, (100, 150, true), (0, 100, true)),
            json!([["N", 240], ["E", 250]]),
        )],
    );
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "auction[0]")
    );
    // The last bid is not the deal's bidder and bid.
    assert_eq!(
        check(
            json!({}),
            json!([
                ["N", 100],
                ["E", 140],
                ["S", "pass"],
                ["W", "pass"],
                ["N", "pass"]
            ])
        ),
        "auction"
    );
    assert_eq!(
        check(
            json!({}),
            json!([["N", 140], ["E", "pass"], ["S", "pass"], ["W", "pass"]])
        ),
        "auction"
    );
    // A player not at the table.
    assert_eq!(check(json!({}), json!([["Zed", 150]])), "auction[0]");
}

#[test]
fn a_valid_base_game_auction_with_partners_overcalling_is_accepted() {
    // N 100, E 110, S 120, W pass, N 150, E pass, S pass: N holds it at 150. NS 100 + 150 =
    // 250 ≥ 150 → 250; EW 0 + 100 → 100.
    let l = ok(
        json!({}),
        Value::Null,
        vec![with_auction(
            hand("W", "N", 150, (100, 150, true), (0, 100, true)),
            json!([
                ["N", 100],
                ["E", 110],
                ["S", 120],
                ["W", "pass"],
                ["N", 150],
                ["E", "pass"],
                ["S", "pass"]
            ]),
        )],
    );
    assert_eq!(l.scores, Some(json!({"NS": 250, "EW": 100})));
}
