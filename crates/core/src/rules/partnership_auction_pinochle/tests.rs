//! Whole sessions through `replay` (rules §1.6): games to the target with the bidders
//! counted first, the money of a game, all-pass deals, the close, refusals, and the
//! properties that money sums to zero and that rotating the players swaps NS and EW.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::format::{LedgerDoc, Refusal, SessionDoc, fold, replay};

use crate::rules::replay_tests::{self, sessions, winners};

const PLAYERS: [&str; 4] = ["N", "E", "S", "W"];

sessions!("partnership_auction_pinochle", PLAYERS);

fn session(players: &[&str], agreements: Value, opening: Value, events: Vec<Value>) -> SessionDoc {
    replay_tests::session(
        "partnership_auction_pinochle",
        players,
        agreements,
        opening,
        events,
    )
}

fn cents(l: &LedgerDoc) -> Vec<i64> {
    replay_tests::cents(l, &PLAYERS)
}

fn refused(agreements: Value, opening: Value, events: Vec<Value>) -> Refusal {
    run(agreements, opening, events).unwrap_err()
}

/// A deal in hearts: `ns`/`ew` are (meld, tricks).
fn hand(dealer: &str, bidder: &str, bid: i64, ns: (i64, i64), ew: (i64, i64)) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": bid, "trump": "hearts",
           "NS": {"meld": ns.0, "tricks": ns.1, "won_trick": ns.1 > 0},
           "EW": {"meld": ew.0, "tricks": ew.1, "won_trick": ew.1 > 0}})
}

fn passed(dealer: &str) -> Value {
    json!({"type": "hand", "dealer": dealer, "all_passed": true})
}

#[test]
fn the_golden_aeroplane_auction_scores_all_the_bidders_made() {
    // AE-01-c: N wins the auction at 270 (two bids, S003 rule 1) and NS make 100 + 200 =
    // 300 ≥ 270, so NS score all 300; EW 0 + 50.
    let mut deal = hand("W", "N", 270, (100, 200), (0, 50));
    deal["trump"] = json!("clubs");
    deal["auction"] = super::auction::golden_calls();
    let l = ok(json!({"aeroplane": true}), Value::Null, vec![deal]);
    assert_eq!(l.scores, Some(json!({"NS": 300, "EW": 50})));
    assert!(l.games.is_empty());
    let why = &l.events[0].explanation;
    assert!(
        why.contains(
            "N bid 270 in clubs for NS and made it: NS +300 (meld 100 + tricks 200); EW +50"
        ),
        "{why}"
    );
    assert_eq!(
        l.events[0].scores_after,
        Some(json!({"game": 1, "scores": {"NS": 300, "EW": 50}}))
    );
}

#[test]
fn a_failed_bid_puts_the_bidders_in_the_hole() {
    // AE-02-b: NS bid 300, make 90 + 200 = 290: −300; EW always score 100 + 50 = 150.
    let l = ok(
        json!({}),
        Value::Null,
        vec![hand("W", "N", 300, (90, 200), (100, 50))],
    );
    assert_eq!(l.scores, Some(json!({"NS": -300, "EW": 150})));
    let why = &l.events[0].explanation;
    assert!(
        why.contains(
            "fell short with 290 (meld 90 + tricks 200): NS −300 (the bid is deducted); EW +150"
        ),
        "{why}"
    );
}

#[test]
fn a_game_ends_at_the_target_and_each_loser_pays_his_opposite_number() {
    // Stake 0.25 a game. Hand 1: NS bid 300, 340 + 200 = 540; EW 60 + 50 = 110.
    // Hand 2: NS bid 400, 300 + 180 = 480 → NS 1,020 ≥ 1,000: NS win game 1.
    // E pays N 0.25 and W pays S 0.25 (session-format money in the partnership games).
    // Hand 3 starts game 2 from 0: EW bid 150, 60 + 130 = 190; NS 0 + 120.
    let l = ok(
        json!({"stake": "0.25"}),
        Value::Null,
        vec![
            hand("W", "N", 300, (340, 200), (60, 50)),
            hand("N", "S", 400, (300, 180), (0, 70)),
            hand("E", "E", 150, (0, 120), (60, 130)),
        ],
    );
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].decided_by, "target");
    assert_eq!(l.games[0].final_scores, json!({"NS": 1020, "EW": 180}));
    assert_eq!(cents(&l), vec![25, -25, 25, -25]);
    assert_eq!(l.scores, Some(json!({"NS": 120, "EW": 190})));
    let why = &l.events[1].explanation;
    assert!(why.contains("NS win game 1: reached 1020 (target 1000); 0.25 a game each: E pays N 0.25, W pays S 0.25"), "{why}");
}

#[test]
fn the_bidders_are_counted_first_when_both_sides_pass_the_target() {
    // From NS 900, EW 950: EW bid 200 and make 100 + 100 = 200 → EW 1,150; NS 0 + 150 →
    // 1,050. Both pass 1,000; EW bid, so EW win though NS are also out (BIC-PAP).
    let l = ok(
        json!({"stake": "1.00"}),
        json!({"NS": 900, "EW": 950}),
        vec![hand("W", "E", 200, (0, 150), (100, 100))],
    );
    assert_eq!(winners(&l), vec![Some("EW".to_string())]);
    assert_eq!(l.games[0].decided_by, "bidders_counted_first");
    assert_eq!(cents(&l), vec![-100, 100, -100, 100]);
    // The bidders win even with fewer points: NS bid 100 with 0 + 110 from 900 → 1,010;
    // EW 200 + 140 from 950 → 1,290.
    let l = ok(
        json!({}),
        json!({"NS": 900, "EW": 950}),
        vec![hand("W", "N", 100, (0, 110), (200, 140))],
    );
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 1010, "EW": 1290}));
}

#[test]
fn the_opponents_win_when_the_bidders_fall_short() {
    // From NS 950, EW 900: NS bid 300, make 40 + 200 = 240: NS 950 − 300 = 650; EW
    // 60 + 50 = 110 → 1,010 ≥ 1,000: EW win game 1.
    let l = ok(
        json!({"stake": "0.10"}),
        json!({"NS": 950, "EW": 900}),
        vec![hand("W", "N", 300, (40, 200), (60, 50))],
    );
    assert_eq!(winners(&l), vec![Some("EW".to_string())]);
    assert_eq!(cents(&l), vec![-10, 10, -10, 10]);
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 0})));
    // A failing bidder past the target before the deal cannot be: opening at 1,000 is over.
    let r = refused(json!({}), json!({"NS": 1000}), vec![]);
    assert_eq!(r.field, "opening_scores.NS");
}

#[test]
fn all_passed_deals_score_nothing_and_the_deal_passes_left() {
    let doc = session(&PLAYERS, json!({}), Value::Null, vec![passed("W")]);
    let f = fold(&doc).unwrap();
    assert_eq!(f.next_dealer().as_deref(), Some("N"));
    let l = replay(&doc).unwrap();
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 0})));
    assert!(l.events[0].postings.is_empty());
    assert!(l.events[0].explanation.contains("N deals next"));
    // An all-pass deal may not carry a contract.
    let mut bad = passed("W");
    bad["bidder"] = json!("N");
    let r = refused(json!({}), Value::Null, vec![passed("N"), bad]);
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(1), "bidder")
    );
}

#[test]
fn a_game_unfinished_at_the_close_pays_nothing_and_says_so() {
    let events = vec![
        hand("W", "N", 300, (340, 200), (60, 50)),
        json!({"type": "close"}),
    ];
    let doc = session(
        &PLAYERS,
        json!({"stake": "5.00"}),
        Value::Null,
        events.clone(),
    );
    let l = replay(&doc).unwrap();
    assert!(l.games.is_empty());
    assert_eq!(cents(&l), vec![0, 0, 0, 0]);
    assert!(
        l.events[1]
            .explanation
            .contains("game 1 unfinished (NS 540, EW 110): it settles nothing")
    );
    // Before the close the engine warns about it.
    let open = session(
        &PLAYERS,
        json!({"stake": "5.00"}),
        Value::Null,
        events[..1].to_vec(),
    );
    let f = fold(&open).unwrap();
    let warning = f.engine().unfinished().unwrap();
    assert!(
        warning.contains("Game 1 is unfinished (NS 540, EW 110)"),
        "{warning}"
    );
    // Nothing under way: nothing to warn about.
    let f = fold(&session(&PLAYERS, json!({}), Value::Null, vec![])).unwrap();
    assert_eq!(f.engine().unfinished(), None);
}

#[test]
fn refusals_name_the_event_and_the_field() {
    // AE-01-a: with Aeroplane a 240 contract is below the minimum 250.
    let r = refused(
        json!({"aeroplane": true}),
        Value::Null,
        vec![
            hand("W", "N", 300, (140, 200), (100, 50)),
            hand("N", "E", 240, (40, 100), (100, 150)),
        ],
    );
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(1), "bid")
    );
    assert!(r.message.contains("below the minimum 250"), "{}", r.message);
    // Declaring out is not part of this game (BIC-PAP).
    let r = refused(
        json!({}),
        Value::Null,
        vec![json!({"type": "declare_out", "claimant": "N"})],
    );
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "type")
    );
    // Three bids by N with Aeroplane (S003 rule 1).
    let mut deal = hand("W", "N", 290, (100, 200), (0, 50));
    deal["auction"] = json!([
        ["N", 250],
        ["E", "pass"],
        ["S", 260],
        ["W", "pass"],
        ["N", 270],
        ["S", 280],
        ["N", 290]
    ]);
    let r = refused(json!({"aeroplane": true}), Value::Null, vec![deal.clone()]);
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "auction[6]")
    );
    // The same auction is fine in the base game.
    assert!(run(json!({}), Value::Null, vec![deal]).is_ok());
    // Five players, or a typo in an agreement.
    let r = replay(&session(
        &["A", "B", "C", "D", "E"],
        json!({}),
        Value::Null,
        vec![],
    ))
    .unwrap_err();
    assert_eq!(r.field, "players");
    assert_eq!(
        refused(json!({"aeroplan": true}), Value::Null, vec![]).field,
        "agreements.aeroplan"
    );
}

#[test]
fn a_correction_replays_the_game() {
    // The second hand was really EW's: correcting it takes back NS's win and its money.
    let events = vec![
        hand("W", "N", 300, (340, 200), (60, 50)),
        hand("N", "S", 400, (300, 180), (0, 70)),
        json!({"type": "correction", "event": 1, "reason": "EW took the bid",
               "replacement": hand("N", "E", 200, (300, 180), (0, 70))}),
    ];
    // Corrected: EW bid 200 with 0 + 70 = 70: −200; NS 300 + 180 = 480 → NS 1,020 anyway,
    // and the bidders EW are short of 1,000, so NS still win.
    let l = ok(json!({"stake": "0.25"}), Value::Null, events);
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 1020, "EW": -90}));
    assert_eq!(cents(&l), vec![25, -25, 25, -25]);
}

/// A deal from four small numbers: bidder seat, bid step, NS meld, NS tricks.
fn deal_from(seat: usize, bid: i64, ns_meld: i64, ns_tricks: i64, ew_meld: i64) -> Value {
    let dealer = PLAYERS[(seat + 3) % 4];
    hand(
        dealer,
        PLAYERS[seat],
        bid,
        (ns_meld, ns_tricks),
        (ew_meld, 250 - ns_tricks),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn money_sums_to_zero_and_rotating_the_seats_swaps_the_sides(
        deals in prop::collection::vec((0usize..4, 10i64..60, 0i64..50, 0i64..=25, 0i64..50), 1..12)
    ) {
        let events: Vec<Value> = deals
            .iter()
            .map(|&(seat, bid, nm, nt, em)| deal_from(seat, bid * 10, nm * 10, nt * 10, em * 10))
            .collect();
        let agreements = json!({"stake": "0.05"});
        let l = ok(agreements.clone(), Value::Null, events.clone());
        let total: i64 = cents(&l).iter().sum();
        prop_assert_eq!(total, 0);
        // Each game pays 0.05 from each loser: a balance is a whole number of games.
        for c in cents(&l) {
            prop_assert_eq!(c % 5, 0);
        }
        // Seating E, S, W, N makes E and W the NS side: the same deals, sides swapped.
        let rotated = ["E", "S", "W", "N"];
        let swap = |v: &Value| {
            let mut v = v.clone();
            let (ns, ew) = (v["NS"].clone(), v["EW"].clone());
            v["NS"] = ew;
            v["EW"] = ns;
            v
        };
        let r = replay(&session(&rotated, agreements, Value::Null, events.iter().map(swap).collect())).unwrap();
        let flipped: Vec<Option<String>> = winners(&l)
            .into_iter()
            .map(|w| w.map(|s| if s == "NS" { "EW".to_string() } else { "NS".to_string() }))
            .collect();
        prop_assert_eq!(winners(&r), flipped);
        prop_assert_eq!(cents(&r), cents(&l));
    }
}

#[test]
fn the_steps_add_up_each_deal_and_explain_the_games_money() {
    use crate::money::Money;
    use crate::rules::{Step, Tally};
    // Hand 1 as in the game above: NS made 300 with 340 + 200; EW 60 + 50.
    // Hand 2: N bids 400, makes 300 + 180 = 480 → NS 1,020: the game is paid at 0.25.
    let doc = session(
        &PLAYERS,
        json!({"stake": "0.25"}),
        Value::Null,
        vec![
            hand("W", "N", 300, (340, 200), (60, 50)),
            hand("N", "E", 200, (300, 180), (0, 70)),
        ],
    );
    let f = fold(&doc).unwrap();
    let score = |who: &str, sum: &str, total: i64| Step::Score {
        who: who.into(),
        sum: sum.into(),
        total,
        tally: Tally::Points,
    };
    assert_eq!(
        f.rows()[0].steps,
        vec![
            score("NS", "meld 340 + tricks 200", 540),
            score("EW", "meld 60 + tricks 50", 110)
        ]
    );
    // EW bid 200 and made 0 + 70: −200; NS 480 → 1,020 and win; E → N, W → S.
    let pays = |from: &str, to: &str| Step::Pays {
        from: from.into(),
        to: to.into(),
        amount: Money::from_cents(25),
        why: "the game won by NS, to his opposite number".into(),
    };
    assert_eq!(
        f.rows()[1].steps,
        vec![
            score(
                "EW",
                "bid 200 deducted: made only 70 (meld 0 + tricks 70)",
                -200
            ),
            score("NS", "meld 300 + tricks 180", 480),
            Step::Stake {
                amount: Money::from_cents(25),
                per: "game".into()
            },
            pays("E", "N"),
            pays("W", "S"),
        ]
    );
}
