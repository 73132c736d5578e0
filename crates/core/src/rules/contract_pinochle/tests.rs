//! Whole Contract Pinochle sessions through `replay` (rules §1.8): scores, games, money,
//! all-pass deals, corrections and refusals. Every expected number is worked out in the
//! comment beside it from the rules, not read from the output.

use serde_json::{Value, json};

use crate::format::LedgerDoc;
use crate::ledger::sum;
use crate::money::Money;

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
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": bid, "trump": "hearts",
           "doubled": doubled, "outcome": outcome})
}

fn passed(dealer: &str) -> Value {
    json!({"type": "hand", "dealer": dealer, "all_passed": true})
}

#[test]
fn only_one_side_scores_and_the_scores_run_on() {
    // E (EW) 300 made: EW 300. S (NS) 250 doubled failed: EW + 500 = 800. W 200 redoubled,
    // conceded before the lead: NS get 2 × 200 = 400. N 150 opponents conceded: NS 550.
    let l = ok(
        json!({}),
        Value::Null,
        vec![
            hand("N", "E", 300, "no", "made"),
            hand("E", "S", 250, "doubled", "failed"),
            hand("S", "W", 200, "redoubled", "conceded_before_lead"),
            hand("W", "N", 150, "no", "opponents_conceded"),
        ],
    );
    assert_eq!(l.scores, Some(json!({"NS": 550, "EW": 800})));
    assert!(l.games.is_empty());
    assert_eq!(cents(&l), vec![0, 0, 0, 0]);
    assert_eq!(l.events[1].scores_after, Some(json!({"NS": 0, "EW": 800})));
    let why = &l.events[1].explanation;
    assert!(
        why.contains("S bid 250 in hearts for NS, doubled, and failed"),
        "{why}"
    );
    assert!(why.contains("EW +500"), "{why}");
    let why = &l.events[2].explanation;
    assert!(
        why.contains("NS +400 (half of bid 200 × 4 redoubled"),
        "{why}"
    );
}

#[test]
fn the_first_side_to_3000_wins_and_each_loser_pays_his_opposite_number() {
    // NS 2800 + N's 250 doubled made (500) = 3300 ≥ 3000 (golden CP-07): NS win; at 0.25 a
    // game E pays N 0.25 and W pays S 0.25. The next hand starts game 2 from 0: E 200 made.
    let l = ok(
        json!({"stake": "0.25"}),
        json!({"NS": 2800, "EW": 2950}),
        vec![
            hand("N", "N", 250, "doubled", "made"),
            hand("E", "E", 200, "no", "made"),
        ],
    );
    assert_eq!(winners(&l), vec![Some("NS".into())]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 3300, "EW": 2950}));
    assert_eq!(l.games[0].decided_by, "target");
    assert_eq!(cents(&l), vec![25, -25, 25, -25]);
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 200})));
    assert_eq!(sum(&l.events[0].postings), Money::ZERO);
    let why = &l.events[0].explanation;
    assert!(
        why.contains("NS reach 3300 (game 3000) and win game 1"),
        "{why}"
    );
    assert!(why.contains("E pays N 0.25, W pays S 0.25"), "{why}");
}

#[test]
fn the_opponents_can_win_on_the_contractors_failure() {
    // EW at 2900; N's 100 fails: EW + 100 = 3000, exactly the game (reached at ≥ target).
    // Target 3000; stake 1.00: N pays E, S pays W.
    let l = ok(
        json!({"stake": "1.00"}),
        json!({"EW": 2900}),
        vec![hand("W", "N", 100, "no", "failed")],
    );
    assert_eq!(winners(&l), vec![Some("EW".into())]);
    assert_eq!(cents(&l), vec![-100, 100, -100, 100]);
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 0})));
}

#[test]
fn a_lower_target_and_several_games_net_in_the_ledger() {
    // Game to 500 at 0.10: NS win game 1 (N 300 made + S 200 made on meld = 500); game 2
    // starts at 0 and W's 300 doubled made gives EW 600 ≥ 500. Each game pays 0.10 per
    // player the other way round, so everyone is square: N +10 −10, E −10 +10.
    let l = ok(
        json!({"stake": "0.10", "target": 500}),
        Value::Null,
        vec![
            hand("N", "N", 300, "no", "made"),
            hand("E", "S", 200, "no", "made_on_meld"),
            hand("S", "W", 300, "doubled", "made"),
        ],
    );
    assert_eq!(winners(&l), vec![Some("NS".into()), Some("EW".into())]);
    assert_eq!(cents(&l), vec![0, 0, 0, 0]);
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 0})));
}

#[test]
fn an_all_pass_deal_scores_nothing_and_passes_the_deal() {
    let l = ok(
        json!({}),
        Value::Null,
        vec![passed("N"), hand("E", "E", 200, "no", "made")],
    );
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 200})));
    assert!(l.events[0].postings.is_empty());
    let why = &l.events[0].explanation;
    assert!(why.contains("E deals next and bids first"), "{why}");
}

#[test]
fn an_unfinished_game_pays_nothing_at_the_close() {
    let l = ok(
        json!({"stake": "5.00"}),
        Value::Null,
        vec![
            hand("N", "N", 300, "redoubled", "made"),
            json!({"type": "close"}),
        ],
    );
    assert_eq!(cents(&l), vec![0, 0, 0, 0]);
    assert!(l.games.is_empty());
    let why = &l.events[1].explanation;
    assert!(
        why.contains("game 1 unfinished (NS 1200, EW 0): it pays nothing"),
        "{why}"
    );
}

#[test]
fn the_auction_is_checked_when_given() {
    // W deals and opens 120 clubs; N (an opponent) doubles; E (W's partner) redoubles;
    // three passes. W made 120 redoubled: EW + 120 × 4 = 480.
    let mut h = hand("W", "W", 120, "redoubled", "made");
    h["trump"] = json!("clubs");
    h["auction"] = json!([
        ["W", "120 clubs"],
        ["N", "double"],
        ["E", "redouble"],
        ["S", "pass"],
        ["W", "pass"],
        ["N", "pass"]
    ]);
    let l = ok(json!({}), Value::Null, vec![h.clone()]);
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 480})));
    // The dealer must call first.
    h["auction"] = json!([["N", "120 clubs"]]);
    let e = refused(json!({}), Value::Null, vec![h.clone()]);
    assert!(e.contains("event 0") && e.contains("auction[0]"), "{e}");
    // The hand must say what the auction ended in.
    h["auction"] = json!([
        ["W", "120 clubs"],
        ["N", "pass"],
        ["E", "pass"],
        ["S", "pass"]
    ]);
    let e = refused(json!({}), Value::Null, vec![h]);
    assert!(e.contains("auction"), "{e}");
}

#[test]
fn refusals_name_the_event_and_the_field() {
    // Golden CP-08-a: a 90 contract in event 1.
    let e = refused(
        json!({}),
        Value::Null,
        vec![
            hand("N", "N", 300, "no", "made"),
            hand("E", "E", 90, "no", "made"),
        ],
    );
    assert!(e.contains("event 1") && e.contains("bid"), "{e}");
    let e = refused(json!({}), json!({"NS": 3000}), vec![]);
    assert!(e.contains("opening_scores.NS"), "{e}");
    let e = refused(json!({}), json!({"EW": -50}), vec![]);
    assert!(e.contains("opening_scores.EW"), "{e}");
    let e = refused(json!({}), json!({"EW": 103}), vec![]);
    assert!(e.contains("opening_scores.EW"), "{e}");
    let e = refused(json!({"double": true}), Value::Null, vec![]);
    assert!(e.contains("agreements.double"), "{e}");
    let e = refused(
        json!({}),
        Value::Null,
        vec![json!({"type": "declare_out", "claimant": "N"})],
    );
    assert!(e.contains("event 0") && e.contains("type"), "{e}");
}

#[test]
fn a_correction_replays_the_game() {
    // N's 250 doubled made would end the game from 2800 (3300); corrected to undoubled it
    // gives 3050, still a win; corrected to failed, EW get 250 and nobody wins.
    let events = vec![
        hand("N", "N", 250, "doubled", "made"),
        json!({"type": "correction", "event": 0, "replacement": hand("N", "N", 250, "no", "failed"),
               "reason": "it was set"}),
    ];
    let l = ok(json!({"stake": "0.25"}), json!({"NS": 2800}), events);
    assert!(l.games.is_empty());
    assert_eq!(l.scores, Some(json!({"NS": 2800, "EW": 250})));
    assert_eq!(cents(&l), vec![0, 0, 0, 0]);
}

#[test]
fn the_steps_show_the_multiplier_the_score_and_each_payment() {
    use crate::rules::{Step, Tally};
    // NS 2800 + N's 250 doubled made: × 2 → 500; 2800 + 500 = 3300; at 0.25 a game E pays
    // N and W pays S.
    let doc = replay_tests::session(
        "contract_pinochle",
        &PLAYERS,
        json!({"stake": "0.25"}),
        json!({"NS": 2800}),
        vec![hand("N", "N", 250, "doubled", "made")],
    );
    let fold = crate::format::replay::fold(&doc).unwrap();
    let row = fold.rows().last().unwrap();
    let quarter = Money::from_cents(25);
    let pays = |from: &str, to: &str| Step::Pays {
        from: from.into(),
        to: to.into(),
        amount: quarter,
        why: "the game won by NS, to his opposite number".into(),
    };
    assert_eq!(
        row.steps,
        vec![
            Step::Times {
                factor: 2,
                why: "doubled (rules §1.8)".into()
            },
            Step::Score {
                who: "NS".into(),
                sum: "bid 250 × 2".into(),
                total: 500,
                tally: Tally::Points
            },
            Step::Score {
                who: "NS".into(),
                sum: "2800 + 500".into(),
                total: 3300,
                tally: Tally::Points
            },
            Step::Stake {
                amount: quarter,
                per: "game".into()
            },
            pays("E", "N"),
            pays("W", "S"),
        ]
    );
}
