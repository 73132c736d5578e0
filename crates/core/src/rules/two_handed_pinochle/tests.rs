//! Whole sessions through `replay` (rules §1.9, §3 item 29): match games and their
//! extension, declaring out, single deals and draws, money, corrections and refusals. Every
//! expected number is worked out by hand from the rules in the comment beside it.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::format::{LedgerDoc, SessionDoc, replay};
use crate::money::Money;
use crate::rules::{Ctx, Step, Table, Tally};

use crate::rules::replay_tests::{self, sessions, winners};

const PLAYERS: [&str; 2] = ["Ann", "Bob"];

sessions!("two_handed_pinochle", PLAYERS);

fn session(agreements: Value, opening: Value, events: Vec<Value>) -> SessionDoc {
    replay_tests::session("two_handed_pinochle", &PLAYERS, agreements, opening, events)
}

fn deal(dealer: &str, dix: bool, melds: [i64; 2], tricks: [i64; 2]) -> Value {
    json!({"type": "hand", "dealer": dealer, "turn_up_dix": dix,
           "melds": {"Ann": melds[0], "Bob": melds[1]},
           "tricks": {"Ann": tricks[0], "Bob": tricks[1]}})
}

fn declare(claimant: &str, melds: Value, so_far: i64) -> Value {
    json!({"type": "declare_out", "claimant": claimant, "melds": melds, "tricks_so_far": so_far})
}

fn cents(l: &LedgerDoc, p: &str) -> i64 {
    l.balances.get(p).copied().unwrap_or(Money::ZERO).cents()
}

fn stake() -> Value {
    json!({"stake": "0.50"})
}

#[test]
fn the_first_to_1000_wins_and_the_loser_pays_the_stake() {
    // 850 + 60 + 97 → 100 = 1,010 against 700 + 40 + 153 → 150 = 890: Ann wins; Bob pays
    // her the stake 0.50; the next game starts from 0.
    let l = ok(
        stake(),
        json!({"Ann": 850, "Bob": 700}),
        vec![deal("Bob", false, [60, 40], [97, 153])],
    );
    assert_eq!(winners(&l), vec![Some("Ann".to_string())]);
    assert_eq!(l.games[0].decided_by, "target");
    assert_eq!(l.games[0].final_scores, json!({"Ann": 1010, "Bob": 890}));
    assert_eq!((cents(&l, "Ann"), cents(&l, "Bob")), (50, -50));
    assert_eq!(l.scores, Some(json!({"Ann": 0, "Bob": 0})));
    let why = &l.events[0].explanation;
    assert!(why.contains("tricks 97 → 100 = +160 → 1,010"), "{why}");
    assert!(why.contains("Bob pays Ann 0.50"), "{why}");
    // The steps a player checks by hand: each score, the stake, and the one payment.
    let fold = crate::format::replay::fold(&session(
        stake(),
        json!({"Ann": 850, "Bob": 700}),
        vec![deal("Bob", false, [60, 40], [97, 153])],
    ))
    .unwrap();
    let steps = &fold.rows()[0].steps;
    assert_eq!(
        steps[0],
        Step::Score {
            who: "Ann".into(),
            sum: "meld 60 + tricks 97 → 100".into(),
            total: 160,
            tally: Tally::Points
        }
    );
    assert!(steps.contains(&Step::Stake {
        amount: Money::from_cents(50),
        per: "game won".into()
    }));
    assert!(steps.contains(&Step::Pays {
        from: "Bob".into(),
        to: "Ann".into(),
        amount: Money::from_cents(50),
        why: "game 1 lost".into()
    }));
}

#[test]
fn the_dealer_scores_a_turned_up_dix() {
    // Bob deals and turns up the dix: Ann 100, Bob 150 + 10 = 160.
    let l = ok(
        json!({}),
        Value::Null,
        vec![deal("Bob", true, [0, 0], [100, 150])],
    );
    assert_eq!(l.scores, Some(json!({"Ann": 100, "Bob": 160})));
    assert!(l.games.is_empty());
}

#[test]
fn both_past_1000_goes_to_1250_however_far_one_is_ahead() {
    // 990 + 300 + 200 = 1,490 and 990 + 0 + 50 = 1,040: both have 1,000 or more, so nobody
    // wins and the game goes on to 1,250, although Ann is 450 ahead (S004: "even if one has
    // 1,130 and the other 1,000"). Next deal: 1,490 + 0 + 20 = 1,510 and 1,040 + 0 + 230 =
    // 1,270: both past 1,250 again → 1,500; then Bob 1,270 + 240 = 1,510 and Ann 1,510 + 10
    // → both past 1,500 → 1,750.
    let l = ok(
        stake(),
        json!({"Ann": 990, "Bob": 990}),
        vec![
            deal("Ann", false, [300, 0], [200, 50]),
            deal("Bob", false, [0, 0], [20, 230]),
        ],
    );
    assert!(l.games.is_empty());
    assert_eq!(l.scores, Some(json!({"Ann": 1510, "Bob": 1270})));
    assert_eq!(
        l.events[0].scores_after,
        Some(json!({"game": 1, "target": 1250, "scores": {"Ann": 1490, "Bob": 1040}}))
    );
    assert_eq!(l.events[1].scores_after.as_ref().unwrap()["target"], 1500);
    assert!(
        l.events[0]
            .explanation
            .contains("the game goes on to 1,250"),
        "{}",
        l.events[0].explanation
    );
    assert_eq!((cents(&l, "Ann"), cents(&l, "Bob")), (0, 0));
}

#[test]
fn after_the_extension_the_next_deal_decides_at_1250() {
    // TH-03: 990/880 → 1,120/1,070, game to 1,250. Then Ann 1,120 + 100 + 37 → 40 = 1,260,
    // Bob 1,070 + 0 + 213 → 210 = 1,280: both past 1,250 → 1,500. Then Ann + 200 + 50 =
    // 1,510, Bob + 0 + 200 = 1,480: Ann alone past 1,500 wins.
    let l = ok(
        stake(),
        json!({"Ann": 990, "Bob": 880}),
        vec![
            deal("Bob", false, [40, 30], [87, 163]),
            deal("Ann", false, [100, 0], [37, 213]),
            deal("Bob", false, [200, 0], [50, 200]),
        ],
    );
    assert_eq!(winners(&l), vec![Some("Ann".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"Ann": 1510, "Bob": 1480}));
    assert_eq!((cents(&l, "Ann"), cents(&l, "Bob")), (50, -50));
}

#[test]
fn both_past_two_steps_in_one_deal_go_to_the_step_above_both() {
    // 990 + 300 + 130 = 1,420 and 990 + 200 + 120 = 1,310: both past 1,000 and 1,250, so
    // the game is played to 1,500 (S004: "if both players go over 1,250 … 1,500").
    let l = ok(
        json!({}),
        json!({"Ann": 990, "Bob": 990}),
        vec![deal("Ann", false, [300, 200], [130, 120])],
    );
    assert_eq!(l.events[0].scores_after.as_ref().unwrap()["target"], 1500);
    assert!(l.games.is_empty());
}

#[test]
fn a_new_game_starts_from_zero_at_the_agreed_target() {
    // Game 1: Ann 990 + 200 + 57 → 60 = 1,250, Bob 990 + 0 + 193 → 190 = 1,180: both
    // past 1,000, so it goes on to 1,250 with no winner on that deal, though Ann stands at
    // 1,250. Next deal: Ann 1,250 + 0, Bob 1,180 + 250 = 1,430: both at or past 1,250 →
    // 1,500. Bob declares out at 1,430 + 40 + 27 → 30 = 1,500 and wins. Game 2 starts at 0
    // and is played to the agreed 1,000 again: Ann 900 + 137 → 140 = 1,040, Bob 113 → 110:
    // Ann wins it.
    let l = ok(
        stake(),
        json!({"Ann": 990, "Bob": 990}),
        vec![
            deal("Ann", false, [200, 0], [57, 193]),
            deal("Bob", false, [0, 0], [0, 250]),
            declare("Bob", json!({"Bob": 40}), 27),
            deal("Ann", false, [900, 0], [137, 113]),
        ],
    );
    assert_eq!(
        winners(&l),
        vec![Some("Bob".to_string()), Some("Ann".to_string())]
    );
    assert_eq!(l.games[0].decided_by, "declared_out");
    assert_eq!(l.games[0].final_scores, json!({"Ann": 1250, "Bob": 1500}));
    assert_eq!(l.games[1].final_scores, json!({"Ann": 1040, "Bob": 110}));
    // Each won one game at 0.50: square.
    assert_eq!((cents(&l, "Ann"), cents(&l, "Bob")), (0, 0));
}

#[test]
fn declaring_out_at_the_target_wins_even_when_the_other_has_more() {
    // TH-04: Ann 960 + 47 → 50 = 1,010 ≥ 1,000 wins, though Bob stands at 990 + 40 = 1,030
    // with this deal's melds.
    let l = ok(
        stake(),
        json!({"Ann": 960, "Bob": 990}),
        vec![declare("Ann", json!({"Bob": 40}), 47)],
    );
    assert_eq!(winners(&l), vec![Some("Ann".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"Ann": 1010, "Bob": 1030}));
    assert_eq!((cents(&l, "Ann"), cents(&l, "Bob")), (50, -50));
}

#[test]
fn declaring_out_short_loses_the_game() {
    // Ann 900 + 40 meld + 47 → 50 = 990 < 1,000: she loses, Bob wins and is paid.
    let l = ok(
        stake(),
        json!({"Ann": 900, "Bob": 500}),
        vec![declare("Ann", json!({"Ann": 40}), 47)],
    );
    assert_eq!(winners(&l), vec![Some("Bob".to_string())]);
    assert_eq!(l.games[0].decided_by, "declared_out_short");
    assert_eq!((cents(&l, "Ann"), cents(&l, "Bob")), (-50, 50));
}

#[test]
fn the_partial_count_is_rounded_unless_agreed_otherwise() {
    // 950 + 47: rounded 50 → 1,000 wins (rules §3 item 29 default); taken as it is, 997 is
    // short and Bob wins.
    let events = || vec![declare("Ann", json!({}), 47)];
    let rounded = ok(json!({}), json!({"Ann": 950}), events());
    assert_eq!(winners(&rounded), vec![Some("Ann".to_string())]);
    let raw = ok(
        json!({"round_partial_count_on_declare_out": false}),
        json!({"Ann": 950}),
        events(),
    );
    assert_eq!(winners(&raw), vec![Some("Bob".to_string())]);
    assert_eq!(raw.games[0].final_scores, json!({"Ann": 997, "Bob": 0}));
    // 46 rounds down to 40 either way: 990 short.
    let down = ok(
        json!({}),
        json!({"Ann": 950}),
        vec![declare("Ann", json!({}), 46)],
    );
    assert_eq!(winners(&down), vec![Some("Bob".to_string())]);
}

#[test]
fn declaring_out_counts_against_the_target_in_force() {
    // 990/990: Ann + 160 + 40 = 1,190, Bob + 0 + 210 = 1,200: both past 1,000 → 1,250.
    // Ann then declares out at 1,190 + 20 + 30 = 1,240 < 1,250: she loses, though she is
    // past 1,000.
    let l = ok(
        json!({}),
        json!({"Ann": 990, "Bob": 990}),
        vec![
            deal("Ann", false, [160, 0], [40, 210]),
            declare("Ann", json!({"Ann": 20}), 30),
        ],
    );
    assert_eq!(winners(&l), vec![Some("Bob".to_string())]);
}

#[test]
fn single_deals_are_games_and_equal_totals_draw() {
    // TH-06: 150 + 117 → 120 = 270 beats 60 + 133 → 130 = 190: Ann wins, Bob pays 0.50.
    // Then 125/125 → 120/120, melds 0/0: a draw, nobody pays (rules §3 item 29).
    let l = ok(
        json!({"stake": "0.50", "mode": "single_deal"}),
        Value::Null,
        vec![
            deal("Bob", false, [150, 60], [117, 133]),
            deal("Ann", false, [0, 0], [125, 125]),
        ],
    );
    assert_eq!(winners(&l), vec![Some("Ann".to_string()), None]);
    assert_eq!(l.games[1].decided_by, "single_deal_draw");
    assert_eq!(l.games[0].final_scores, json!({"Ann": 270, "Bob": 190}));
    assert_eq!((cents(&l, "Ann"), cents(&l, "Bob")), (50, -50));
    assert_eq!(l.scores, Some(json!({"Ann": 0, "Bob": 0})));
}

#[test]
fn a_single_deal_does_not_run_on_and_the_dix_can_decide_it() {
    // Ann 0 + 127 → 130 = 130; Bob (dealer, dix turned up) 0 + 123 → 120 + 10 = 130: the
    // dix makes it a draw.
    let l = ok(
        json!({"mode": "single_deal"}),
        Value::Null,
        vec![deal("Bob", true, [0, 0], [127, 123])],
    );
    assert_eq!(winners(&l), vec![None]);
}

#[test]
fn refusals_name_the_event_and_the_field() {
    let at = |agreements: Value, opening: Value, events: Vec<Value>| {
        let r = run(agreements, opening, events).unwrap_err();
        (r.event_index, r.field.to_string())
    };
    assert_eq!(
        at(
            json!({}),
            Value::Null,
            vec![deal("Ann", false, [0, 0], [100, 140])]
        ),
        (Some(0), "tricks".to_string())
    );
    assert_eq!(
        at(
            json!({"mode": "single_deal"}),
            Value::Null,
            vec![declare("Ann", json!({}), 40)]
        ),
        (Some(0), "type".to_string())
    );
    assert_eq!(
        at(
            json!({}),
            Value::Null,
            vec![json!({"type": "hand", "dealer": "Ann", "all_passed": true})]
        ),
        (Some(0), "all_passed".to_string())
    );
    assert_eq!(
        at(
            json!({}),
            Value::Null,
            vec![json!({"type": "player_joins", "player": "Cy"})]
        ),
        (Some(0), "type".to_string())
    );
    assert_eq!(
        at(json!({}), json!({"Ann": 1040, "Bob": 990}), vec![]),
        (None, "opening_scores.Ann".to_string())
    );
    assert_eq!(
        at(json!({}), json!({"Ann": 955}), vec![]),
        (None, "opening_scores.Ann".to_string())
    );
    assert_eq!(
        at(json!({}), json!({"Ann": -20}), vec![]),
        (None, "opening_scores.Ann".to_string())
    );
    assert_eq!(
        at(json!({}), json!({"Cy": 20}), vec![]),
        (None, "opening_scores.Cy".to_string())
    );
    assert_eq!(
        at(json!({"mode": "single_deal"}), json!({"Ann": 100}), vec![]),
        (None, "opening_scores.Ann".to_string())
    );
    assert_eq!(
        at(json!({"kitty": "pot"}), Value::Null, vec![]),
        (None, "agreements.kitty".to_string())
    );
}

#[test]
fn three_players_are_refused() {
    let doc: SessionDoc = serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "two_handed_pinochle",
        "players": ["Ann", "Bob", "Cy"], "events": []
    }))
    .unwrap();
    assert_eq!(replay(&doc).unwrap_err().field, "players");
}

#[test]
fn both_carried_in_past_the_target_is_a_game_gone_on() {
    // 1,120/1,070 carried in: the game is at 1,250; Ann + 130 + 0 = 1,250 alone → wins.
    let l = ok(
        json!({}),
        json!({"Ann": 1120, "Bob": 1070}),
        vec![deal("Bob", false, [0, 0], [127, 123])],
    );
    // Ann 1,120 + 130 = 1,250; Bob 1,070 + 120 = 1,190.
    assert_eq!(winners(&l), vec![Some("Ann".to_string())]);
}

#[test]
fn correcting_the_winning_deal_takes_the_game_and_its_money_back() {
    // Ann wins at 850 + 60 + 100 = 1,010; the deal is corrected to Ann 37 / Bob 213 tricks:
    // 850 + 60 + 40 = 950, Bob 700 + 40 + 210 = 950: nobody wins, the stake comes back.
    let l = ok(
        stake(),
        json!({"Ann": 850, "Bob": 700}),
        vec![
            deal("Bob", false, [60, 40], [97, 153]),
            json!({"type": "correction", "event": 0,
                   "replacement": deal("Bob", false, [60, 40], [37, 213]),
                   "reason": "miscounted"}),
        ],
    );
    assert!(l.games.is_empty());
    assert_eq!(l.scores, Some(json!({"Ann": 950, "Bob": 950})));
    assert_eq!((cents(&l, "Ann"), cents(&l, "Bob")), (0, 0));
}

#[test]
fn an_unfinished_game_pays_nothing_at_the_close_and_says_so_before() {
    let mut e = (super::GAME.start)(
        json!({"stake": "1.00"}).as_object().unwrap(),
        &["Ann".to_string(), "Bob".to_string()],
        None,
    )
    .unwrap();
    assert_eq!(e.unfinished(), None);
    let mut table = Table::new(&["Ann".to_string(), "Bob".to_string()]);
    let mut ctx = Ctx {
        table: &mut table,
        quiet: false,
    };
    let ev = deal("Ann", false, [100, 0], [150, 100]);
    e.apply(&mut ctx, "hand", ev.as_object().unwrap()).unwrap();
    let note = e.unfinished().unwrap();
    assert!(
        note.contains("Game 1 is unfinished (Ann 250, Bob 100"),
        "{note}"
    );
    assert!(note.contains("pays nothing"), "{note}");
    let closed = e.close(&mut ctx).unwrap();
    assert!(closed.postings.is_empty());
    assert!(closed.explanation.contains("unfinished and pays nothing"));
    // Single deals never leave a game open.
    let single = (super::GAME.start)(
        json!({"mode": "single_deal"}).as_object().unwrap(),
        &["Ann".to_string(), "Bob".to_string()],
        None,
    )
    .unwrap();
    assert_eq!(single.unfinished(), None);
}

#[test]
fn the_sheet_line_says_what_each_player_scored() {
    let mut e = (super::GAME.start)(
        json!({}).as_object().unwrap(),
        &["Ann".to_string(), "Bob".to_string()],
        Some(&json!({"Ann": 990, "Bob": 880})),
    )
    .unwrap();
    let mut table = Table::new(&["Ann".to_string(), "Bob".to_string()]);
    let mut ctx = Ctx {
        table: &mut table,
        quiet: false,
    };
    let ev = deal("Bob", true, [40, 30], [87, 163]);
    let o = e.apply(&mut ctx, "hand", ev.as_object().unwrap()).unwrap();
    // Ann +40 +90 = +130 → 1,120; Bob +30 + 160 + 10 (dix) = +200 → 1,080.
    assert_eq!(o.line.cells[0].added, Some(130));
    assert_eq!(o.line.cells[0].running, Some(1120));
    assert_eq!(o.line.cells[1].added, Some(200));
    assert_eq!(o.line.dealer.as_deref(), Some("Bob"));
    assert!(
        o.line
            .details
            .iter()
            .any(|d| d.account == "Ann" && d.text == "tricks 87 → 90")
    );
    assert!(
        o.line
            .awards
            .iter()
            .any(|a| a.to == "Bob" && a.amount == 10)
    );
    assert!(
        o.line
            .marks
            .iter()
            .any(|m| m.text == "both past 1,000: game to 1,250")
    );
    assert!(e.hand_form(&table).note.unwrap().contains("1,250"));
    assert_eq!(ctx_next(&table), Some("Ann".to_string()));
}

fn ctx_next(table: &Table) -> Option<String> {
    table.next_dealer().map(String::from)
}

proptest! {
    /// Any legal deal adds exactly melds + rounded tricks (+ 10 to a dealer's dix) to each
    /// score, the rounding loses at most 10 points of the 250, and money sums to zero.
    #[test]
    fn deals_add_melds_and_rounded_tricks(
        ann_meld in 0i64..=40, bob_meld in 0i64..=40, ann_tricks in 2i64..=248,
        dix in any::<bool>(),
    ) {
        let (am, bm) = (ann_meld * 10, bob_meld * 10);
        let l = ok(stake(), Value::Null,
            vec![deal("Bob", dix, [am, bm], [ann_tricks, 250 - ann_tricks])]);
        let r = |x: i64| 10 * ((x + 3) / 10);
        let ann = am + r(ann_tricks);
        let bob = bm + r(250 - ann_tricks) + if dix { 10 } else { 0 };
        let lost = 250 - r(ann_tricks) - r(250 - ann_tricks);
        prop_assert!(lost == 0 || lost == 10);
        prop_assert_eq!(l.scores.clone(), Some(json!({"Ann": ann, "Bob": bob})));
        prop_assert_eq!(cents(&l, "Ann") + cents(&l, "Bob"), 0);
    }
}
