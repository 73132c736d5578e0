//! Whole sessions through `replay` (rules §1.5): the dix, the trick rule, the target and its
//! +250 extension, declaring out right and wrong against the target in force, money per
//! game, unfinished games, corrections and refusals. Every expected number is worked out by
//! hand in the comment beside it.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::format::{LedgerDoc, Refusal, SessionDoc, replay};

use crate::rules::replay_tests::{self, sessions, winners};

const PLAYERS: [&str; 4] = ["N", "E", "S", "W"];

sessions!("partnership_pinochle", PLAYERS);

fn balances(l: &LedgerDoc) -> Vec<i64> {
    replay_tests::cents(l, &PLAYERS)
}

fn refused(agreements: Value, opening: Value, events: Vec<Value>) -> Refusal {
    run(agreements, opening, events).unwrap_err()
}

/// A deal with no dix: (meld, tricks) per side, each side that took points having won a trick.
fn deal(dealer: &str, ns: (i64, i64), ew: (i64, i64)) -> Value {
    json!({"type": "hand", "dealer": dealer, "trump": "hearts", "turn_up_dix": false,
           "dix_holders": [],
           "NS": {"meld": ns.0, "tricks": ns.1}, "EW": {"meld": ew.0, "tricks": ew.1}})
}

fn claim(claimant: &str, meld: i64, tricks_so_far: i64, won_trick: bool) -> Value {
    json!({"type": "declare_out", "claimant": claimant, "meld": meld,
           "tricks_so_far": tricks_so_far, "won_trick": won_trick})
}

fn stake() -> Value {
    json!({"stake": "0.50"})
}

#[test]
fn the_first_side_to_1000_wins_and_each_loser_pays_his_opposite_number() {
    // NS 880 + meld 60 + tricks 150 = 1,090 ≥ 1,000; EW 700 + 40 + 100 = 840: NS win game 1.
    // Stake 0.50 a game: E pays N 0.50, W pays S 0.50.
    let l = ok(
        stake(),
        json!({"NS": 880, "EW": 700}),
        vec![deal("N", (60, 150), (40, 100))],
    );
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 1090, "EW": 840}));
    assert_eq!(l.games[0].decided_by, "target");
    assert_eq!(balances(&l), vec![50, -50, 50, -50]);
    // The next game starts at 0: the scores carried in seed only the first game.
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 0})));
    let why = &l.events[0].explanation;
    assert!(why.contains("E pays N 0.50, W pays S 0.50"), "{why}");
}

#[test]
fn both_sides_at_the_target_raise_it_by_250_and_the_next_one_out_wins() {
    // Golden PP-05-a: 900 + 150 = 1,050 and 950 + 100 = 1,050, both ≥ 1,000 → nobody wins,
    // the game goes on to 1,250. Then NS +200 → 1,250, EW +50 → 1,100: NS alone reach
    // 1,250 and win; N and S are paid 0.50 each.
    let l = ok(
        stake(),
        json!({"NS": 900, "EW": 950}),
        vec![deal("N", (0, 150), (0, 100)), deal("E", (0, 200), (0, 50))],
    );
    assert_eq!(
        l.events[0].scores_after.as_ref().unwrap()["target"],
        json!(1250)
    );
    assert!(l.events[0].explanation.contains("goes on to 1,250"));
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 1250, "EW": 1100}));
    assert_eq!(balances(&l), vec![50, -50, 50, -50]);
}

#[test]
fn a_side_between_the_old_and_the_raised_target_plays_on() {
    // 1,050/1,050 → game 1,250. Next deal NS +150 → 1,200, EW +100 → 1,150: both are past
    // 1,000 but neither has 1,250, so play on. Then NS +130 → 1,330 and EW meld 100 +
    // tricks 120 → 1,370: both ≥ 1,250 on one deal again → game 1,500, nobody wins.
    let l = ok(
        json!({}),
        json!({"NS": 900, "EW": 950}),
        vec![
            deal("N", (0, 150), (0, 100)),
            deal("E", (0, 150), (0, 100)),
            deal("S", (0, 130), (100, 120)),
        ],
    );
    assert!(l.games.is_empty());
    assert_eq!(l.scores, Some(json!({"NS": 1330, "EW": 1370})));
    assert_eq!(
        l.events[1].scores_after.as_ref().unwrap()["target"],
        json!(1250)
    );
    assert_eq!(
        l.events[2].scores_after.as_ref().unwrap()["target"],
        json!(1500)
    );
}

#[test]
fn after_a_win_the_next_game_has_the_agreed_target_again() {
    // Game 1: 1,050/1,050 (target 1,250), then EW +200 → 1,250, NS +50 → 1,100: EW win.
    // Game 2 starts at 0 with the target back at 1,000: a deal of 150/100 just scores.
    let l = ok(
        json!({}),
        json!({"NS": 900, "EW": 950}),
        vec![
            deal("N", (0, 150), (0, 100)),
            deal("E", (0, 50), (0, 200)),
            deal("S", (0, 150), (0, 100)),
        ],
    );
    assert_eq!(winners(&l), vec![Some("EW".to_string())]);
    assert_eq!(l.scores, Some(json!({"NS": 150, "EW": 100})));
    assert_eq!(
        l.events[2].scores_after,
        Some(json!({"game": 2, "target": 1000, "scores": {"NS": 150, "EW": 100}}))
    );
}

#[test]
fn dixes_score_by_the_agreements() {
    // W deals and turns up a dix; N held the other; NS take all 250 and EW no trick.
    // Defaults: NS 60 + 10 (N's dix) + 250 = 320; EW lose meld 40 but keep W's turned-up
    // 10 (it needs no trick, §3 item 26) = 10.
    let event = json!({"type": "hand", "dealer": "W", "trump": "clubs", "turn_up_dix": true,
        "dix_holders": ["N"], "NS": {"meld": 60, "tricks": 250}, "EW": {"meld": 40, "tricks": 0}});
    let l = ok(json!({}), Value::Null, vec![event.clone()]);
    assert_eq!(l.scores, Some(json!({"NS": 320, "EW": 10})));
    let why = &l.events[0].explanation;
    assert!(why.contains("W turned up a dix, dix held by N"), "{why}");
    assert!(
        why.contains("EW +10 (dix 10 + tricks 0, meld 40 lost: no trick)"),
        "{why}"
    );
    // turn_up_dix_needs_trick: EW lose the 10 too.
    let l = ok(
        json!({"turn_up_dix_needs_trick": true}),
        Value::Null,
        vec![event.clone()],
    );
    assert_eq!(l.scores, Some(json!({"NS": 320, "EW": 0})));
    // The other way round: EW's held dix without a trick. E held it; NS dealt by N, no
    // turn-up. Default: lost (EW 0); holder_dix_needs_trick false: EW 10.
    let event = json!({"type": "hand", "dealer": "N", "trump": "clubs",
        "dix_holders": ["E"], "NS": {"tricks": 250}, "EW": {"meld": 40, "tricks": 0}});
    let l = ok(json!({}), Value::Null, vec![event.clone()]);
    assert_eq!(l.scores, Some(json!({"NS": 250, "EW": 0})));
    let l = ok(
        json!({"holder_dix_needs_trick": false}),
        Value::Null,
        vec![event],
    );
    assert_eq!(l.scores, Some(json!({"NS": 250, "EW": 10})));
}

#[test]
fn a_side_that_won_only_pointless_tricks_keeps_its_meld() {
    // EW took a trick of nines and jacks (0 points) and say so: their meld 100 counts.
    let event = json!({"type": "hand", "dealer": "N", "trump": "spades",
        "NS": {"meld": 50, "tricks": 250}, "EW": {"meld": 100, "tricks": 0, "won_trick": true}});
    let l = ok(json!({}), Value::Null, vec![event]);
    assert_eq!(l.scores, Some(json!({"NS": 300, "EW": 100})));
}

#[test]
fn a_right_claim_wins_whatever_the_opponents_hold() {
    // Golden PP-06-a: NS 850 + meld 100 + 60 = 1,010 ≥ 1,000: NS win although EW have 990.
    let l = ok(
        stake(),
        json!({"NS": 850, "EW": 990}),
        vec![claim("N", 100, 60, true)],
    );
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].decided_by, "declared_out");
    assert_eq!(balances(&l), vec![50, -50, 50, -50]);
    assert!(
        l.events[0]
            .explanation
            .contains("850 + meld 100 + tricks so far 60 = 1,010")
    );
}

#[test]
fn a_wrong_claim_loses_the_game() {
    // W claims: EW 900 + meld 60 + 30 = 990 < 1,000: EW lose, NS win although NS have only
    // 200. N is paid by E, S by W.
    let l = ok(
        stake(),
        json!({"NS": 200, "EW": 900}),
        vec![claim("W", 60, 30, true)],
    );
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].decided_by, "wrong_declaration");
    assert_eq!(balances(&l), vec![50, -50, 50, -50]);
}

#[test]
fn a_claim_before_the_side_wins_a_trick_does_not_count_its_meld() {
    // N claims before NS won a trick: 900 + (meld 150 not counted) + 0 = 900 < 1,000: wrong.
    // With a trick it would be 1,050 and right.
    let l = ok(stake(), json!({"NS": 900}), vec![claim("N", 150, 0, false)]);
    assert_eq!(winners(&l), vec![Some("EW".to_string())]);
    assert_eq!(balances(&l), vec![-50, 50, -50, 50]);
    let l = ok(stake(), json!({"NS": 900}), vec![claim("N", 150, 0, true)]);
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
}

#[test]
fn a_claim_is_checked_against_the_raised_target() {
    // 1,050/1,050 → game 1,250. N claims: 1,050 + 100 + 60 = 1,210: enough for 1,000 but
    // not for 1,250, so NS lose. A claim of 1,050 + 150 + 50 = 1,250 is right.
    let first = deal("N", (0, 150), (0, 100));
    let l = ok(
        json!({}),
        json!({"NS": 900, "EW": 950}),
        vec![first.clone(), claim("N", 100, 60, true)],
    );
    assert_eq!(winners(&l), vec![Some("EW".to_string())]);
    let l = ok(
        json!({}),
        json!({"NS": 900, "EW": 950}),
        vec![first, claim("S", 150, 50, true)],
    );
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
}

#[test]
fn games_follow_one_another_and_the_ledger_nets_them() {
    // Game 1: EW claim wrongly at once (0 < 1,000): NS win. Game 2: NS claim wrongly: EW
    // win. Nets: everyone even. Game 3 in progress: 150/100.
    let l = ok(
        stake(),
        Value::Null,
        vec![
            claim("E", 0, 0, false),
            claim("N", 0, 0, false),
            deal("S", (0, 150), (0, 100)),
        ],
    );
    assert_eq!(
        winners(&l),
        vec![Some("NS".to_string()), Some("EW".to_string())]
    );
    assert_eq!(balances(&l), vec![0, 0, 0, 0]);
    assert_eq!(l.scores, Some(json!({"NS": 150, "EW": 100})));
}

#[test]
fn an_unfinished_game_pays_nothing_at_the_close() {
    let l = ok(
        stake(),
        Value::Null,
        vec![deal("N", (300, 200), (0, 50)), json!({"type": "close"})],
    );
    assert!(l.games.is_empty());
    assert_eq!(balances(&l), vec![0, 0, 0, 0]);
    assert!(
        l.events[1]
            .explanation
            .contains("unfinished: it pays nothing")
    );
    // The close button's warning comes from the engine.
    let players: Vec<String> = PLAYERS.iter().map(|p| p.to_string()).collect();
    let mut engine = (super::GAME.start)(&Map::new(), &players, None).unwrap();
    assert_eq!(engine.unfinished(), None);
    let mut table = crate::rules::Table::new(&players);
    let mut ctx = crate::rules::Ctx {
        table: &mut table,
        quiet: false,
    };
    let event = deal("N", (300, 200), (0, 50));
    engine
        .apply(&mut ctx, "hand", event.as_object().unwrap())
        .unwrap();
    assert_eq!(
        engine.unfinished().as_deref(),
        Some("Game 1 (NS 500, EW 50, game 1,000) is unfinished: closing now pays nothing for it.")
    );
    let with_carried =
        (super::GAME.start)(&Map::new(), &players, Some(&json!({"NS": 10}))).unwrap();
    assert!(with_carried.unfinished().is_some());
}

#[test]
fn a_corrected_claim_changes_the_winner_and_the_money() {
    // N's claim of 1,010 stood (NS win); it is corrected to meld 80: 850 + 80 + 60 = 990 <
    // 1,000, so EW win instead: the money turns round (each balance moves by 1.00).
    let l = ok(
        stake(),
        json!({"NS": 850, "EW": 500}),
        vec![
            claim("N", 100, 60, true),
            json!({"type": "correction", "event": 0, "replacement": claim("N", 80, 60, true),
                   "reason": "the meld was 80"}),
        ],
    );
    assert_eq!(winners(&l), vec![Some("EW".to_string())]);
    assert_eq!(balances(&l), vec![-50, 50, -50, 50]);
}

#[test]
fn impossible_input_is_refused_at_its_event_and_field() {
    let r = refused(json!({}), Value::Null, vec![deal("N", (0, 100), (0, 140))]);
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "EW.tricks")
    );
    let r = refused(
        json!({}),
        Value::Null,
        vec![
            deal("N", (0, 100), (0, 150)),
            deal("E", (0, 95), (0, 155)),
            deal("S", (0, 97), (0, 153)),
        ],
    );
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(2), "NS.tricks")
    );
    let r = refused(
        json!({}),
        Value::Null,
        vec![json!({"type": "hand", "dealer": "N", "all_passed": true})],
    );
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "all_passed")
    );
    let r = refused(
        json!({}),
        Value::Null,
        vec![json!({"type": "player_joins", "player": "Zed"})],
    );
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "type")
    );
    let r = refused(json!({}), Value::Null, vec![claim("Zed", 0, 0, false)]);
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "claimant")
    );
    let r = refused(json!({}), json!({"NS": 1000}), vec![]);
    assert_eq!(r.field, "opening_scores.NS");
    let r = refused(json!({}), json!({"EW": -20}), vec![]);
    assert_eq!(r.field, "opening_scores.EW");
    let r = refused(json!({"target_step": 0}), Value::Null, vec![]);
    assert_eq!(r.field, "agreements.target_step");
    let r = refused(
        json!({}),
        Value::Null,
        vec![json!({"type": "close"}), deal("N", (0, 100), (0, 150))],
    );
    assert_eq!(r.event_index, Some(1));
}

proptest! {
    /// Any run of valid deals: scores never fall, money sums to zero, and every finished
    /// game moved exactly 4 × stake (two losers paying one stake each).
    #[test]
    fn money_sums_to_zero_and_scores_only_grow(
        deals in prop::collection::vec((0i64..=50, 0i64..=50, 0i64..=30, 0usize..4), 1..25)
    ) {
        let events: Vec<Value> = deals
            .iter()
            .map(|(ns_tricks, ns_meld, ew_meld, dealer)| {
                let ns = (ns_tricks * 5).min(250);
                deal(PLAYERS[*dealer], (ns_meld * 10, ns), (ew_meld * 10, 250 - ns))
            })
            .collect();
        let l = ok(stake(), Value::Null, events);
        let total: i64 = balances(&l).iter().sum();
        prop_assert_eq!(total, 0);
        let moved: i64 = balances(&l).iter().map(|b| b.abs()).sum();
        prop_assert!(moved <= 200 * l.games.len() as i64);
        prop_assert_eq!(moved % 200, 0);
        let mut last = (0, 0);
        let mut games = 0;
        for e in &l.events {
            let after = e.scores_after.as_ref().unwrap();
            let now = (
                after["scores"]["NS"].as_i64().unwrap(),
                after["scores"]["EW"].as_i64().unwrap(),
            );
            prop_assert!(now.0 >= last.0 && now.1 >= last.1);
            if after.get("game_over").is_some() {
                games += 1;
                last = (0, 0);
            } else {
                last = now;
            }
        }
        prop_assert_eq!(games, l.games.len());
    }
}

#[test]
fn the_settle_up_pays_the_opposite_numbers_the_rows_name() {
    // The game above with Salvatore (N), Margaret (E), Rosemary (S), Vincenzo (W): NS win,
    // so Margaret pays Salvatore 0.50 and Vincenzo pays Rosemary 0.50 (opposite numbers).
    // Two transfers whichever way they pair, so the settle-up names the rows' pairs, not
    // Margaret → Rosemary as names alone would.
    let doc: SessionDoc = serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "partnership_pinochle", "currency": "USD",
        "agreements": stake(), "players": ["Salvatore", "Margaret", "Rosemary", "Vincenzo"],
        "opening_scores": {"NS": 880, "EW": 700},
        "events": [deal("Salvatore", (60, 150), (40, 100))]
    }))
    .unwrap();
    let l = replay(&doc).unwrap();
    let why = &l.events[0].explanation;
    assert!(
        why.contains("Margaret pays Salvatore 0.50, Vincenzo pays Rosemary 0.50"),
        "{why}"
    );
    let paid: Vec<(&str, &str, i64)> = l
        .settlement
        .iter()
        .map(|t| (t.from.as_str(), t.to.as_str(), t.amount.cents()))
        .collect();
    assert_eq!(
        paid,
        vec![("Margaret", "Salvatore", 50), ("Vincenzo", "Rosemary", 50)]
    );
}
