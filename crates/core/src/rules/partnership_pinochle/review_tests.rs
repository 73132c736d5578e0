//! Review cases for Partnership Pinochle (rules §1.5, §3 item 26; session-format
//! `partnership_pinochle` and "Money in the partnership games"): whole sessions through
//! `replay`, each worked out by hand from the rules in the comment beside it, for the edges
//! the public examples do not touch (a deal that passes two raised targets at once, a sheet
//! carried in after the target rose, claims at a raised target, the dix agreements over a
//! whole game, money over several games).

use serde_json::{Value, json};

use crate::format::{LedgerDoc, Refusal};

use crate::rules::replay_tests::{self, sessions};

const PLAYERS: [&str; 4] = ["N", "E", "S", "W"];

sessions!("partnership_pinochle", PLAYERS);

fn cents(l: &LedgerDoc) -> Vec<i64> {
    replay_tests::cents(l, &PLAYERS)
}

fn refused(agreements: Value, opening: Value, events: Vec<Value>) -> Refusal {
    run(agreements, opening, events).unwrap_err()
}

/// A deal without a dix: (meld, tricks) per side.
fn deal(dealer: &str, ns: (i64, i64), ew: (i64, i64)) -> Value {
    json!({"type": "hand", "dealer": dealer, "trump": "spades",
           "NS": {"meld": ns.0, "tricks": ns.1}, "EW": {"meld": ew.0, "tricks": ew.1}})
}

fn claim(claimant: &str, meld: i64, tricks_so_far: i64, won_trick: bool) -> Value {
    json!({"type": "declare_out", "claimant": claimant, "meld": meld,
           "tricks_so_far": tricks_so_far, "won_trick": won_trick})
}

fn winners(l: &LedgerDoc) -> Vec<Option<&str>> {
    l.games.iter().map(|g| g.winner.as_deref()).collect()
}

fn target_after(l: &LedgerDoc, event: usize) -> Value {
    l.events[event].scores_after.as_ref().unwrap()["target"].clone()
}

#[test]
fn a_deal_that_puts_both_sides_past_1250_sends_the_game_to_1500() {
    // Opening 900/950. Deal 1: NS meld 250 + tricks 150 = +400 → 1,300; EW meld 210 +
    // tricks 100 = +310 → 1,260. Both ≥ 1,000 → the game continues to 1,250, and both are
    // already there too ("if it happens again, to 1,500"): game 1,500, nobody wins.
    // Deal 2: NS +200 → 1,500, EW +50 → 1,310: NS alone at 1,500 and win. Stake 0.50:
    // E pays N, W pays S.
    let l = ok(
        json!({"stake": "0.50"}),
        json!({"NS": 900, "EW": 950}),
        vec![
            deal("N", (250, 150), (210, 100)),
            deal("E", (0, 200), (0, 50)),
        ],
    );
    assert_eq!(target_after(&l, 0), json!(1500));
    assert_eq!(winners(&l), vec![Some("NS")]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 1500, "EW": 1310}));
    assert_eq!(cents(&l), vec![50, -50, 50, -50]);
}

#[test]
fn a_side_alone_past_the_raised_target_does_not_win_on_the_raising_deal() {
    // 900/950; deal 1: NS +400 → 1,300, EW +100 → 1,050: both ≥ 1,000 → game 1,250, nobody
    // wins on this deal although NS hold 1,300 (the game "continues"). Deal 2: NS +50 →
    // 1,350, EW +200 → 1,250: both ≥ 1,250 again → game 1,500. Deal 3: EW +250 → 1,500, NS
    // +0 → 1,350: EW win.
    let l = ok(
        json!({}),
        json!({"NS": 900, "EW": 950}),
        vec![
            deal("N", (250, 150), (0, 100)),
            deal("E", (0, 50), (0, 200)),
            deal("S", (0, 0), (0, 250)),
        ],
    );
    assert_eq!(target_after(&l, 0), json!(1250));
    assert_eq!(target_after(&l, 1), json!(1500));
    assert_eq!(winners(&l), vec![Some("EW")]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 1350, "EW": 1500}));
}

#[test]
fn a_sheet_carried_in_with_both_sides_past_1000_plays_to_1250() {
    // Carried in NS 1,050, EW 1,100: both reached 1,000 on one deal, so that game goes on to
    // 1,250 (rules §1.5). Deal: NS +200 → 1,250, EW +50 → 1,150: NS win. Stake 1.00.
    let l = ok(
        json!({"stake": "1.00"}),
        json!({"NS": 1050, "EW": 1100}),
        vec![deal("W", (0, 200), (0, 50))],
    );
    assert_eq!(winners(&l), vec![Some("NS")]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 1250, "EW": 1150}));
    assert_eq!(cents(&l), vec![100, -100, 100, -100]);
    // Carried in 1,300/1,260: game 1,500, so a claim of 1,300 + 150 = 1,450 is wrong.
    let l = ok(
        json!({}),
        json!({"NS": 1300, "EW": 1260}),
        vec![claim("S", 100, 50, true)],
    );
    assert_eq!(winners(&l), vec![Some("EW")]);
    // One side alone at the target: that game is over, not in progress.
    let r = refused(json!({}), json!({"NS": 900, "EW": 1000}), vec![]);
    assert_eq!(r.field, "opening_scores.EW");
}

#[test]
fn a_claim_at_a_raised_target_needs_the_raised_target() {
    // 1,050/1,050 → game 1,250 (golden PP-05-a). E claims: EW 1,050 + meld 100 + 60 so far
    // = 1,210 < 1,250: wrong, NS win though their 1,050 is lower. Stake 0.25: N is paid by
    // E, S by W.
    let l = ok(
        json!({"stake": "0.25"}),
        json!({"NS": 900, "EW": 950}),
        vec![deal("N", (0, 150), (0, 100)), claim("E", 100, 60, true)],
    );
    assert_eq!(winners(&l), vec![Some("NS")]);
    assert_eq!(l.games[0].decided_by, "wrong_declaration");
    assert_eq!(cents(&l), vec![25, -25, 25, -25]);
    // Exactly at the target is right: 1,050 + 150 + 50 = 1,250 ≥ 1,250, EW win.
    let l = ok(
        json!({"stake": "0.25"}),
        json!({"NS": 900, "EW": 950}),
        vec![deal("N", (0, 150), (0, 100)), claim("W", 150, 50, true)],
    );
    assert_eq!(winners(&l), vec![Some("EW")]);
    assert_eq!(l.games[0].decided_by, "declared_out");
    assert_eq!(cents(&l), vec![-25, 25, -25, 25]);
}

#[test]
fn a_claim_before_a_trick_counts_tricks_only_and_the_next_game_starts_fresh() {
    // NS 960; N claims with meld 60 but no trick yet: 960 + 0 + 0 = 960 < 1,000, wrong: EW
    // win game 1. Game 2 starts at 0/0 with target 1,000 (the carried scores were game 1's
    // only): a deal 150/100 is just scored.
    let l = ok(
        json!({"stake": "0.10"}),
        json!({"NS": 960, "EW": 0}),
        vec![claim("N", 60, 0, false), deal("E", (0, 150), (0, 100))],
    );
    assert_eq!(winners(&l), vec![Some("EW")]);
    assert_eq!(l.scores, Some(json!({"NS": 150, "EW": 100})));
    assert_eq!(target_after(&l, 1), json!(1000));
    assert_eq!(cents(&l), vec![-10, 10, -10, 10]);
}

#[test]
fn dix_points_follow_item_26_over_a_whole_game() {
    // Defaults: E deals and turns up a dix (+10 to EW, no trick needed); N held the other
    // (+10 to NS only with a trick). Deal 1: NS take all 250 and meld 40: 40 + 10 + 250 =
    // 300; EW meld 60 lost (no trick), turn-up stands: 10.
    // Agreement turned round (turn-up needs a trick, holder's does not): EW 0, NS 300.
    let event = json!({"type": "hand", "dealer": "E", "trump": "clubs", "turn_up_dix": true,
        "dix_holders": ["N"], "NS": {"meld": 40, "tricks": 250},
        "EW": {"meld": 60, "tricks": 0}});
    let l = ok(json!({}), Value::Null, vec![event.clone()]);
    assert_eq!(l.scores, Some(json!({"NS": 300, "EW": 10})));
    let l = ok(
        json!({"turn_up_dix_needs_trick": true, "holder_dix_needs_trick": false}),
        Value::Null,
        vec![event.clone()],
    );
    assert_eq!(l.scores, Some(json!({"NS": 300, "EW": 0})));
    // NS lose the trick instead (EW take 250): N's dix 10 is lost with NS's meld by default
    // (NS 0), kept with holder_dix_needs_trick false (NS 10); EW 60 + 10 + 250 = 320.
    let mut lost = event;
    lost["NS"] = json!({"meld": 40, "tricks": 0});
    lost["EW"] = json!({"meld": 60, "tricks": 250});
    let l = ok(json!({}), Value::Null, vec![lost.clone()]);
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 320})));
    let l = ok(
        json!({"holder_dix_needs_trick": false}),
        Value::Null,
        vec![lost],
    );
    assert_eq!(l.scores, Some(json!({"NS": 10, "EW": 320})));
}

#[test]
fn games_net_per_player_and_an_unfinished_game_pays_nothing() {
    // Stake 0.50. Game 1: 880 + 150 = 1,030 NS win (E→N, W→S 0.50). Game 2: EW claim right
    // at 0 + 900 meld + 100 so far = 1,000 (N→E, S→W). Game 3: NS 150 / EW 100 unfinished
    // at the close: nothing. Everyone nets 0.00.
    let l = ok(
        json!({"stake": "0.50"}),
        json!({"NS": 880}),
        vec![
            deal("N", (0, 150), (0, 100)),
            claim("W", 900, 100, true),
            deal("S", (0, 150), (0, 100)),
            json!({"type": "close"}),
        ],
    );
    assert_eq!(winners(&l), vec![Some("NS"), Some("EW")]);
    assert_eq!(cents(&l), vec![0, 0, 0, 0]);
    assert_eq!(l.scores, Some(json!({"NS": 150, "EW": 100})));
    assert!(l.settlement.is_empty());
}

#[test]
fn a_voided_winning_deal_takes_the_game_and_its_money_back() {
    // 880/700; deal NS +150 → 1,030 wins (E→N, W→S 0.50); the deal is voided: no game,
    // money back to 0, scores back to 880/700.
    let l = ok(
        json!({"stake": "0.50"}),
        json!({"NS": 880, "EW": 700}),
        vec![
            deal("N", (0, 150), (0, 100)),
            json!({"type": "void", "event": 0, "reason": "wrong sheet"}),
        ],
    );
    assert!(l.games.is_empty());
    assert_eq!(cents(&l), vec![0, 0, 0, 0]);
    assert_eq!(l.scores, Some(json!({"NS": 880, "EW": 700})));
}

#[test]
fn impossible_claims_and_deals_are_refused_by_event_and_field() {
    let r = refused(json!({}), Value::Null, vec![claim("N", 0, 255, true)]);
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "tricks_so_far")
    );
    let r = refused(
        json!({}),
        Value::Null,
        vec![deal("N", (0, 150), (0, 100)), claim("E", 35, 0, false)],
    );
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(1), "meld")
    );
    // A third dix: the deck has two (rules §1.0).
    let r = refused(
        json!({}),
        Value::Null,
        vec![
            json!({"type": "hand", "dealer": "N", "trump": "spades", "turn_up_dix": true,
            "dix_holders": ["E", "W"], "NS": {"tricks": 100}, "EW": {"tricks": 150}}),
        ],
    );
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "dix_holders")
    );
    // Trick points must add to 250.
    let r = refused(json!({}), Value::Null, vec![deal("N", (0, 150), (0, 50))]);
    assert_eq!(r.event_index, Some(0));
}
