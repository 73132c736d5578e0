//! Whole sessions through `replay` (the golden cases' rules and the issue's "done when"
//! example) and properties over random sessions.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::agreements::Agreements;
use super::score::{Scores, score_hand};
use super::{GAME, hand};
use crate::format::{LedgerDoc, Refusal, SessionDoc, replay};
use crate::ledger::{self, Balances};
use crate::money::Money;
use crate::rules::{Ctx, Engine, Table, replay_tests};

fn session(agreements: Value, players: &[&str], opening: Value, events: Vec<Value>) -> SessionDoc {
    replay_tests::session("auction_pitch", players, agreements, opening, events)
}

fn abcd(agreements: Value, opening: Value, events: Vec<Value>) -> Result<LedgerDoc, Refusal> {
    replay(&session(agreements, &["A", "B", "C", "D"], opening, events))
}

fn taker(s: &str) -> Value {
    if s == "-" { Value::Null } else { json!(s) }
}

/// A played hand; `takers` is "high low jack game" with `-` for nobody.
fn hand(dealer: &str, pitcher: &str, bid: i64, takers: &str) -> Value {
    let t: Vec<&str> = takers.split(' ').collect();
    json!({
        "type": "hand", "dealer": dealer, "pitcher": pitcher, "bid": bid,
        "points": {"high": taker(t[0]), "low": taker(t[1]), "jack": taker(t[2]), "game": taker(t[3])}
    })
}

fn revoked(mut h: Value, by: &str) -> Value {
    h["revoke_by"] = json!(by);
    h
}

fn cents(l: &LedgerDoc, who: &str) -> i64 {
    l.balances.get(who).copied().unwrap_or(Money::ZERO).cents()
}

fn winners(l: &LedgerDoc) -> Vec<(Option<String>, String)> {
    l.games
        .iter()
        .map(|g| (g.winner.clone(), g.decided_by.clone()))
        .collect()
}

fn won(w: &str, by: &str) -> (Option<String>, String) {
    (Some(w.into()), by.into())
}

#[test]
fn the_game_is_registered_for_two_to_seven_players() {
    assert_eq!((GAME.id, GAME.seats), ("auction_pitch", (2, 7)));
    let eight = ["A", "B", "C", "D", "E", "F", "G", "H"];
    let e = replay(&session(json!({}), &eight, Value::Null, vec![])).unwrap_err();
    assert_eq!(e.field, "players");
    let e = replay(&session(json!({}), &["A"], Value::Null, vec![])).unwrap_err();
    assert_eq!(e.field, "players");
}

#[test]
fn running_scores_show_in_the_ledger_golden_pt01() {
    let l = abcd(
        json!({"target": 11}),
        Value::Null,
        vec![hand("D", "A", 2, "A B C A")],
    )
    .unwrap();
    assert_eq!(l.scores, Some(json!({"A": 2, "B": 1, "C": 1, "D": 0})));
    assert!(l.games.is_empty());
    let e = &l.events[0];
    assert_eq!(e.scores_after, l.scores);
    assert_eq!(
        e.explanation,
        "A bid 2 and made it with High and Game: +2; B +1 (Low); C +1 (Jack) (rules §1.4)"
    );
    assert!(e.postings.is_empty());
}

#[test]
fn the_issue_example_pitcher_at_nine_makes_two_while_another_passes_eleven() {
    // A (pitcher) 9 + High + Game = 11; B 10 + Low + Jack = 12: the pitcher wins (rule 1).
    let l = abcd(
        json!({"stake": "0.10"}),
        json!({"A": 9, "B": 10, "C": 3, "D": 6}),
        vec![hand("D", "A", 2, "A B B A")],
    )
    .unwrap();
    assert_eq!(winners(&l), vec![won("A", "pitcher_out")]);
    assert_eq!(
        l.games[0].final_scores,
        json!({"A": 11, "B": 12, "C": 3, "D": 6})
    );
    // C pays 8 × 0.10, D 5 × 0.10; B, ahead of A, pays nothing (clamp_zero).
    assert_eq!(
        [
            cents(&l, "A"),
            cents(&l, "B"),
            cents(&l, "C"),
            cents(&l, "D")
        ],
        [130, 0, -80, -50]
    );
    let e = &l.events[0];
    assert_eq!(
        e.explanation,
        "A bid 2 and made it with High and Game: +2; B +2 (Low and Jack). Game over: A wins at 11 as pitcher; B pays nothing (11 − 12 is below zero, clamped); C pays 0.80 (11 − 3 = 8 points × 0.10); D pays 0.50 (11 − 6 = 5 points × 0.10) (rules §1.4)"
    );
    assert!(ledger::sum(&e.postings).is_zero());
    // The sheet of the finished game stays on its hand; the ledger shows the next game.
    assert_eq!(e.scores_after, Some(l.games[0].final_scores.clone()));
    assert_eq!(l.scores, Some(json!({"A": 0, "B": 0, "C": 0, "D": 0})));
    assert_eq!(l.settlement.len(), 2);
}

#[test]
fn golden_pt03_set_back_into_the_hole() {
    let l = abcd(
        json!({}),
        json!({"A": 1, "B": 0, "C": 0, "D": 0}),
        vec![hand("D", "A", 3, "A B - D")],
    )
    .unwrap();
    assert_eq!(l.scores, Some(json!({"A": -2, "B": 1, "C": 0, "D": 1})));
}

#[test]
fn golden_pt05_count_order_from_the_scores_before_the_hand() {
    let l = abcd(
        json!({"stake": "0.05"}),
        json!({"A": 5, "B": 10, "C": 10, "D": 3}),
        vec![hand("D", "A", 2, "B C C B")],
    )
    .unwrap();
    assert_eq!(winners(&l), vec![won("B", "count_order:high")]);
    assert_eq!(
        [
            cents(&l, "A"),
            cents(&l, "B"),
            cents(&l, "C"),
            cents(&l, "D")
        ],
        [-45, 90, 0, -45]
    );
}

#[test]
fn golden_pt09_and_pt10_smudge_both_rules() {
    let l = abcd(
        json!({"variant": "smudge", "smudge_rule": "wins_immediately", "stake": "0.05"}),
        json!({"A": 3, "B": 2, "C": 8, "D": 0}),
        vec![hand("D", "A", 1, "B B B B")],
    )
    .unwrap();
    assert_eq!(winners(&l), vec![won("B", "smudge")]);
    assert_eq!(
        [
            cents(&l, "A"),
            cents(&l, "B"),
            cents(&l, "C"),
            cents(&l, "D")
        ],
        [-20, 50, 0, -30]
    );
    assert!(
        l.events[0]
            .explanation
            .contains("Game over: B wins at 6 by a smudge")
    );

    let l = abcd(
        json!({"variant": "smudge", "smudge_rule": "not_in_hole"}),
        json!({"A": 5, "B": -3, "C": 0, "D": 0}),
        vec![hand("D", "A", 2, "B B B B")],
    )
    .unwrap();
    assert!(l.games.is_empty());
    assert_eq!(l.scores, Some(json!({"A": 3, "B": 4, "C": 0, "D": 0})));
}

#[test]
fn golden_pt11_count_down_and_a_whole_count_down_game() {
    let l = abcd(
        json!({"variant": "countdown", "countdown_start": 7}),
        Value::Null,
        vec![hand("D", "A", 2, "A B A A")],
    )
    .unwrap();
    assert_eq!(l.scores, Some(json!({"A": 4, "B": 6, "C": 7, "D": 7})));

    // Opening scores count down too; missing players start at countdown_start.
    let l = abcd(
        json!({"variant": "countdown", "countdown_start": 5, "stake": "0.05"}),
        json!({"A": 2, "B": 1}),
        vec![hand("D", "C", 1, "B A C C")],
    )
    .unwrap();
    // A 2 − 1 = 1; B 1 − 1 = 0 is out; C (pitcher) 5 − 2 = 3; D 5.
    assert_eq!(winners(&l), vec![won("B", "countdown")]);
    assert_eq!(
        [
            cents(&l, "A"),
            cents(&l, "B"),
            cents(&l, "C"),
            cents(&l, "D")
        ],
        [-5, 45, -15, -25]
    );
    assert!(
        l.events[0]
            .explanation
            .contains("B wins at 0 as the first to count down to zero")
    );
    assert_eq!(l.scores, Some(json!({"A": 5, "B": 5, "C": 5, "D": 5})));
}

#[test]
fn golden_pt13_pt14_revokes() {
    let l = abcd(
        json!({}),
        Value::Null,
        vec![revoked(hand("D", "A", 3, "A B C D"), "A")],
    )
    .unwrap();
    assert_eq!(l.scores, Some(json!({"A": -3, "B": 1, "C": 1, "D": 1})));
    let l = abcd(
        json!({}),
        Value::Null,
        vec![revoked(hand("D", "A", 2, "A B C A"), "B")],
    )
    .unwrap();
    assert_eq!(l.scores, Some(json!({"A": 4, "B": -2, "C": 3, "D": 2})));
}

#[test]
fn golden_pt16_refusals_name_the_event_field_and_rule() {
    let e = abcd(
        json!({}),
        Value::Null,
        vec![hand("D", "A", 2, "A B C A"), hand("A", "B", 5, "B C B B")],
    )
    .unwrap_err();
    assert_eq!(e.event_index, Some(1));
    assert_eq!(e.field, "bid");
    assert_eq!(
        e.to_string(),
        "event 1: bid: 5 is not a bid: Auction Pitch bids are 1, 2, 3 or 4 (rules §1.4, S001)"
    );
    let e = abcd(
        json!({}),
        Value::Null,
        vec![
            hand("D", "A", 2, "A B C A"),
            json!({"type": "hand", "dealer": "A", "all_passed": true}),
            hand("A", "B", 1, "- C B B"),
        ],
    )
    .unwrap_err();
    let text = e.to_string();
    assert!(
        text.starts_with("event 2: points.high: nobody cannot take High"),
        "{text}"
    );
    assert!(text.ends_with("(rules §1.4)"), "{text}");
    let e = abcd(json!({}), Value::Null, vec![hand("D", "Zed", 1, "A B C A")]).unwrap_err();
    assert_eq!(
        (e.event_index, e.field.to_string().as_str()),
        (Some(0), "pitcher")
    );
}

#[test]
fn a_dead_hand_scores_nothing() {
    let l = abcd(
        json!({}),
        json!({"A": 3}),
        vec![json!({"type": "hand", "dealer": "D", "all_passed": true})],
    )
    .unwrap();
    assert_eq!(l.scores, Some(json!({"A": 3, "B": 0, "C": 0, "D": 0})));
    assert_eq!(
        l.events[0].explanation,
        "All passed on D's deal: a dead hand, no score; D deals again (rules §1.4)"
    );
}

#[test]
fn games_follow_one_another_with_fresh_scores_and_the_ledger_nets_them() {
    let l = abcd(
        json!({"stake": "0.05", "target": 7}),
        json!({"A": 5, "B": 5}),
        vec![
            // Game 1: A 5 + 2 = 7 wins as pitcher; B 5 (2 × 0.05), C 1 and D 1 (6 × 0.05).
            hand("D", "A", 2, "A C A D"),
            // Game 2 starts at 0 for everyone (opening scores seeded game 1 only).
            hand("A", "B", 4, "B B B B"),
            hand("B", "B", 3, "B C B B"),
        ],
    )
    .unwrap();
    assert_eq!(
        winners(&l),
        vec![won("A", "pitcher_out"), won("B", "pitcher_out")]
    );
    assert_eq!(
        l.games[1].final_scores,
        json!({"A": 0, "B": 7, "C": 1, "D": 0})
    );
    // Game 1: A +0.70, B −0.10, C −0.30, D −0.30.
    // Game 2: B +0.35 + 0.30 + 0.35 = +1.00; A −0.35, C −0.30, D −0.35.
    assert_eq!(
        [
            cents(&l, "A"),
            cents(&l, "B"),
            cents(&l, "C"),
            cents(&l, "D")
        ],
        [70 - 35, -10 + 100, -30 - 30, -30 - 35]
    );
    assert!(l.balances.values().copied().sum::<Money>().is_zero());
}

#[test]
fn a_loser_in_the_hole_pays_the_difference_written_with_his_score_in_brackets() {
    // C, in the hole at −3, is 14 behind A's 11: he pays 14 × 0.10 (rules §1.4).
    let l = abcd(
        json!({"stake": "0.10"}),
        json!({"A": 9, "B": 10, "C": -3, "D": 6}),
        vec![hand("D", "A", 2, "A B B A")],
    )
    .unwrap();
    assert_eq!(cents(&l, "C"), -140);
    assert!(
        l.events[0]
            .explanation
            .contains("C pays 1.40 (11 − (−3) = 14 points × 0.10)"),
        "{}",
        l.events[0].explanation
    );
}

#[test]
fn a_negative_difference_is_paid_when_agreed() {
    let l = abcd(
        json!({"stake": "0.05", "negative_difference": "pay"}),
        json!({"A": 9, "B": 10, "C": 4, "D": 5}),
        vec![hand("D", "A", 2, "A B B A")],
    )
    .unwrap();
    assert_eq!(
        [
            cents(&l, "A"),
            cents(&l, "B"),
            cents(&l, "C"),
            cents(&l, "D")
        ],
        [60, 5, -35, -30]
    );
}

#[test]
fn opening_scores_are_checked() {
    let field = |opening: Value, agreements: Value| {
        let e = abcd(agreements, opening, vec![]).unwrap_err();
        assert_eq!(e.event_index, None);
        e.field
    };
    assert_eq!(field(json!({"Zed": 3}), json!({})), "opening_scores.Zed");
    assert_eq!(field(json!({"NS": 3}), json!({})), "opening_scores.NS");
    assert_eq!(field(json!({"A": "3"}), json!({})), "opening_scores.A");
    assert_eq!(field(json!({"A": 2.5}), json!({})), "opening_scores.A");
    assert_eq!(field(json!({"A": 11}), json!({})), "opening_scores.A");
    assert_eq!(
        field(json!({"A": 0}), json!({"variant": "countdown"})),
        "opening_scores.A"
    );
    assert_eq!(field(json!([1, 2]), json!({})), "opening_scores");
    assert_eq!(
        field(json!({}), json!({"stakes": "0.05"})),
        "agreements.stakes"
    );
    let l = abcd(json!({}), json!({"A": -4, "D": 10}), vec![]).unwrap();
    assert_eq!(l.scores, Some(json!({"A": -4, "B": 0, "C": 0, "D": 10})));
}

#[test]
fn only_hands_payments_and_close_are_auction_pitch_events() {
    let e = abcd(
        json!({}),
        Value::Null,
        vec![json!({"type": "player_joins", "player": "E"})],
    )
    .unwrap_err();
    assert_eq!(
        (e.event_index, e.field.to_string().as_str()),
        (Some(0), "type")
    );
    let l = abcd(
        json!({"stake": "0.05"}),
        json!({"A": 10}),
        vec![
            hand("D", "A", 1, "A B C D"),
            hand("A", "B", 1, "B B C D"),
            json!({"type": "close"}),
            json!({"type": "payment", "from": "B", "to": "A", "amount": "0.50"}),
        ],
    )
    .unwrap();
    assert_eq!(l.games.len(), 1);
    assert!(l.events[2].postings.is_empty());
    assert!(
        l.events[2]
            .explanation
            .contains("unfinished and settles nothing")
    );
    assert_eq!(cents(&l, "A"), 50 + 50 + 50 - 50);
}

#[test]
fn two_and_seven_players() {
    let l = replay(&session(
        json!({"stake": "1.00", "target": 7}),
        &["Ann", "Bob"],
        json!({"Ann": 6}),
        vec![hand("Bob", "Ann", 1, "Ann Bob Bob Ann")],
    ))
    .unwrap();
    assert_eq!(winners(&l), vec![won("Ann", "pitcher_out")]);
    assert_eq!(cents(&l, "Ann"), 600);
    let seven = ["A", "B", "C", "D", "E", "F", "G"];
    let l = replay(&session(
        json!({}),
        &seven,
        Value::Null,
        vec![hand("G", "E", 3, "F G - E")],
    ))
    .unwrap();
    assert_eq!(
        l.scores,
        Some(json!({"A": 0, "B": 0, "C": 0, "D": 0, "E": -3, "F": 1, "G": 1}))
    );
}

#[test]
fn the_same_dealer_deals_again_after_a_dead_hand() {
    let players: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
    let mut engine = (GAME.start)(&serde_json::Map::new(), &players, None).unwrap();
    let mut table = Table::new(&players);
    assert_eq!(engine.next_dealer(&table), None);
    let deal = |engine: &mut Box<dyn Engine>, table: &mut Table, e: Value| {
        let mut ctx = Ctx {
            table,
            quiet: false,
        };
        engine
            .apply(&mut ctx, "hand", e.as_object().unwrap())
            .unwrap();
    };
    deal(
        &mut engine,
        &mut table,
        json!({"type": "hand", "dealer": "B", "all_passed": true}),
    );
    assert_eq!(engine.next_dealer(&table), Some("B".into()));
    deal(&mut engine, &mut table, hand("B", "A", 1, "A A C B"));
    assert_eq!(engine.next_dealer(&table), Some("C".into()));
}

// ---- properties ----

const NAMES: [&str; 7] = ["A", "B", "C", "D", "E", "F", "G"];

fn agreements_strategy() -> impl Strategy<Value = Value> {
    (
        0..3usize,
        any::<bool>(),
        any::<bool>(),
        1..=21i64,
        1..=10i64,
        0..=100i64,
    )
        .prop_map(|(variant, hole, pay, target, start, stake)| {
            let variant = ["standard", "smudge", "countdown"][variant];
            json!({
                "variant": variant,
                "smudge_rule": if hole { "not_in_hole" } else { "wins_immediately" },
                "negative_difference": if pay { "pay" } else { "clamp_zero" },
                "target": target,
                "countdown_start": start,
                "stake": Money::from_cents(stake).to_string(),
            })
        })
}

/// A random hand event for `n` players (indices), about one in ten passed out.
fn hand_strategy(n: usize) -> impl Strategy<Value = Value> {
    let who = 0..n;
    (
        (who.clone(), who.clone(), 1..=4i64, prop::bool::weighted(0.1)),
        (who.clone(), who.clone()),
        (prop::option::of(who.clone()), prop::option::of(who.clone())),
        prop::option::weighted(0.15, who),
    )
        .prop_map(|((dealer, pitcher, bid, passed), (high, low), (jack, game), revoke)| {
            if passed {
                return json!({"type": "hand", "dealer": NAMES[dealer], "all_passed": true});
            }
            let name = |i: Option<usize>| i.map_or(Value::Null, |i| json!(NAMES[i]));
            let mut h = json!({
                "type": "hand", "dealer": NAMES[dealer], "pitcher": NAMES[pitcher], "bid": bid,
                "points": {"high": NAMES[high], "low": NAMES[low], "jack": name(jack), "game": name(game)}
            });
            if let Some(r) = revoke {
                h["revoke_by"] = json!(NAMES[r]);
            }
            h
        })
}

fn session_strategy() -> impl Strategy<Value = (usize, Value, Vec<Value>)> {
    (2..=7usize, agreements_strategy()).prop_flat_map(|(n, a)| {
        (
            Just(n),
            Just(a),
            prop::collection::vec(hand_strategy(n), 0..40),
        )
    })
}

fn score_of(scores: &Value, name: &str) -> i64 {
    scores[name].as_i64().unwrap_or(i64::MIN)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Every hand awards at most the four points to the players whose points count, and
    /// nobody gains more than 4 card points (beyond a revoke's bonus of the bid).
    #[test]
    fn a_hand_awards_at_most_four_points((n, a, events) in session_strategy()) {
        let agreements = Agreements::read(a.as_object().unwrap()).unwrap();
        let players: Vec<String> = NAMES[..n].iter().map(|s| s.to_string()).collect();
        let table = Table::new(&players);
        let before = Scores::fresh(&players, agreements.fresh_score());
        for e in &events {
            let Ok(hand::Deal::Played(c)) = crate::rules::fields::read_event(e.as_object().unwrap()).and_then(|w| hand::check(w, &table)) else {
                continue;
            };
            let s = score_hand(&agreements, &players, &before, &c);
            prop_assert!(s.parts.counted.len() <= 4);
            let mut card_points = 0;
            for (p, _) in s.after.iter() {
                let fixed: i64 = s.parts.fixed.iter().filter(|(f, _)| f == p).map(|(_, d)| *d).sum();
                let gained = (s.after.get(p) - s.counted_from.get(p) - fixed) * s.parts.step;
                prop_assert!((0..=4).contains(&gained), "{p} gained {gained}");
                card_points += gained;
            }
            prop_assert!(card_points <= 4);
            prop_assert_eq!(card_points, s.parts.counted.len() as i64);
        }
    }

    /// Money sums to zero in every entry and overall, the winner of a finished game is
    /// unique and out (or smudged), at most one game ends per hand, nobody is out while a
    /// game goes on, and a new game starts at fresh scores.
    #[test]
    fn money_sums_to_zero_and_the_winner_is_unique((n, a, events) in session_strategy()) {
        let agreements = Agreements::read(a.as_object().unwrap()).unwrap();
        let players: Vec<String> = NAMES[..n].iter().map(|s| s.to_string()).collect();
        let mut engine = (GAME.start)(a.as_object().unwrap(), &players, None).unwrap();
        let mut table = Table::new(&players);
        let mut balances = Balances::default();
        for e in &events {
            let entry = {
                let mut ctx = Ctx { table: &mut table, quiet: false };
                engine.apply(&mut ctx, "hand", e.as_object().unwrap()).unwrap()
            };
            prop_assert!(ledger::sum(&entry.postings).is_zero());
            balances.apply(&entry.postings);
            let scores = engine.scores().unwrap();
            if let Some((g, _)) = &entry.finished {
                let w = g.winner.clone().unwrap();
                prop_assert!(players.contains(&w));
                let ws = score_of(&g.final_scores, &w);
                prop_assert!(agreements.is_out(ws) || g.decided_by == "smudge", "{g:?}");
                for p in &players {
                    prop_assert_eq!(score_of(&scores, p), agreements.fresh_score());
                    let paid = entry.postings.iter().filter(|x| x.account == *p).map(|x| x.amount).sum::<Money>();
                    if *p != w && a["negative_difference"] == "clamp_zero" {
                        prop_assert!(paid.cents() <= 0);
                    }
                }
            } else {
                prop_assert!(entry.postings.is_empty());
                for p in &players {
                    prop_assert!(!agreements.is_out(score_of(&scores, p)), "{p} out in {scores}");
                }
            }
        }
        prop_assert!(balances.total().is_zero());
    }
}
