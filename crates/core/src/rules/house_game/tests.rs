//! House game sessions through `replay` (rules §1.12), each expectation worked out by hand
//! from the settlement rules, and properties over random games.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::form::Form;
use crate::format::LedgerDoc;
use crate::rules::replay_tests::{cents, winners};

crate::rules::replay_tests::sessions!("house_game", ["Al", "Bo", "Cy", "Di"]);
crate::rules::hand_form::form_tests!(super::HouseGame, Form);

fn hand(points: &[i64]) -> Value {
    let names = ["Al", "Bo", "Cy", "Di"];
    let points: serde_json::Map<String, Value> = names
        .iter()
        .zip(points)
        .map(|(n, p)| (n.to_string(), json!(p)))
        .collect();
    json!({"type": "hand", "points": points})
}

fn dealt(by: &str, points: &[i64]) -> Value {
    let mut h = hand(points);
    h["dealer"] = json!(by);
    h
}

const ABCD: [&str; 4] = ["Al", "Bo", "Cy", "Di"];

fn refusal(agreements: Value, events: Vec<Value>) -> String {
    run(agreements, Value::Null, events)
        .unwrap_err()
        .to_string()
}

#[test]
fn the_game_is_registered_for_two_to_ten_players_and_named_by_its_agreement() {
    assert_eq!((super::GAME.id, super::GAME.seats), ("house_game", (2, 10)));
    let hearts = json!({"name": "Hearts"});
    assert_eq!(
        super::GAME.session_name(hearts.as_object().unwrap()),
        "Hearts"
    );
    assert_eq!(super::GAME.presets.len(), 6);
}

/// HG-02's Hearts evening, the nets by the pairwise formula `stake × (S − N·s)` (low wins).
#[test]
fn hearts_low_wins_pairwise_nets_follow_the_formula() {
    let hands = [
        [10, 6, 0, 10],
        [26, 26, 0, 26],
        [13, 0, 13, 0],
        [0, 20, 3, 3],
        [26, 0, 0, 0],
        [0, 26, 0, 0],
        [26, 0, 0, 0],
    ];
    let a = json!({"name": "Hearts", "stake": "0.05", "winner": "low", "target": 100,
        "hand_totals": [26, 78]});
    let l = ok(a, Value::Null, hands.iter().map(|h| hand(h)).collect());
    let totals: Vec<i64> = (0..4).map(|i| hands.iter().map(|h| h[i]).sum()).collect();
    assert_eq!(totals, vec![101, 78, 16, 39]);
    let sum: i64 = totals.iter().sum();
    let nets: Vec<i64> = totals.iter().map(|s| 5 * (sum - 4 * s)).collect();
    assert_eq!(cents(&l, &ABCD), nets);
    assert_eq!(winners(&l), vec![Some("Cy".to_string())]);
    assert_eq!(l.games[0].decided_by, "target");
    assert_eq!(l.scores, Some(json!({"Al": 0, "Bo": 0, "Cy": 0, "Di": 0})));
}

#[test]
fn a_player_left_out_scores_zero_and_a_stranger_is_refused_by_name() {
    let a = json!({"name": "Oh Hell", "stake": "0.10"});
    let l = ok(
        a.clone(),
        Value::Null,
        vec![json!({"type": "hand", "points": {"Al": 12, "Cy": -3}})],
    );
    assert_eq!(
        l.scores,
        Some(json!({"Al": 12, "Bo": 0, "Cy": -3, "Di": 0}))
    );
    let e = refusal(
        a,
        vec![json!({"type": "hand", "points": {"Al": 1, "Zed": 4}})],
    );
    assert!(
        e.starts_with("event 0: points.Zed: Zed is not at this table"),
        "{e}"
    );
}

#[test]
fn a_hand_off_the_agreed_totals_is_refused_and_nothing_is_written() {
    let a = json!({"name": "Hearts", "winner": "low", "hand_totals": [26, 78]});
    let e = refusal(a, vec![hand(&[10, 6, 0, 10]), hand(&[10, 5, 0, 10])]);
    assert_eq!(
        e,
        "event 1: points: the points add up to 25, but every hand of Hearts adds up to 26 or 78: check each player's count (rules §1.12)"
    );
}

/// Difference to the winner, tied winners share each payment, the odd cent from the
/// dealer's left: Bo and Di tie at 30; Al (10) pays 20 × 0.05 = 1.00, 0.50 each; Cy (15)
/// pays 15 × 0.05 = 0.75: 0.37 each and the odd cent to Di, first left of dealer Cy.
#[test]
fn tied_winners_share_each_payment_the_odd_cent_from_the_dealers_left() {
    let a = json!({"name": "Rummy 500", "stake": "0.05", "settlement": "difference_to_winner"});
    let l = ok(
        a,
        Value::Null,
        vec![dealt("Cy", &[10, 30, 15, 30]), json!({"type": "game_over"})],
    );
    assert_eq!(cents(&l, &ABCD), vec![-100, 50 + 37, -75, 50 + 38]);
    assert_eq!(winners(&l), vec![None], "a tie for first is a shared win");
    assert_eq!(l.games[0].decided_by, "game_over");
}

/// Per game with `hands`: after 2 hands Bo has the most; the other three pay him 0.25.
#[test]
fn per_game_ends_after_the_agreed_hands_and_the_next_game_starts_fresh() {
    let a = json!({"name": "Euchre", "stake": "0.25", "settlement": "per_game", "hands": 2});
    let l = ok(
        a,
        Value::Null,
        vec![
            hand(&[1, 2, 0, 0]),
            hand(&[0, 2, 1, 1]),
            hand(&[5, 0, 0, 0]),
        ],
    );
    assert_eq!(cents(&l, &ABCD), vec![-25, 75, -25, -25]);
    assert_eq!(l.scores, Some(json!({"Al": 5, "Bo": 0, "Cy": 0, "Di": 0})));
}

/// By place with a tie for second: Golf, low wins, 2 hands. Totals Al 7, Bo 9, Cy 9, Di 12:
/// Al first +3.00; Bo and Cy share places 2 and 3 (1.00 − 1.00 = 0); Di −3.00.
#[test]
fn by_place_tied_players_share_the_places_they_cover() {
    let a = json!({"name": "Golf", "winner": "low", "hands": 2, "settlement": "by_place",
        "payouts": ["3.00", "1.00", "-1.00", "-3.00"]});
    let l = ok(
        a.clone(),
        Value::Null,
        vec![hand(&[3, 4, 5, 6]), hand(&[4, 5, 4, 6])],
    );
    assert_eq!(cents(&l, &ABCD), vec![300, 0, 0, -300]);
    // Places 1 and 2 shared by Al and Bo: (3.00 + 1.00) / 2 each.
    let l = ok(
        a,
        Value::Null,
        vec![hand(&[3, 3, 5, 6]), hand(&[4, 4, 4, 6])],
    );
    assert_eq!(cents(&l, &ABCD), vec![200, 200, -100, -300]);
}

#[test]
fn payouts_not_one_per_player_are_refused_at_the_start() {
    let a = json!({"name": "Golf", "settlement": "by_place", "payouts": ["1.00", "-1.00"]});
    let e = refusal(a, vec![]);
    assert!(
        e.contains("agreements.payouts: 2 amounts for 4 players"),
        "{e}"
    );
}

#[test]
fn game_over_needs_a_hand_and_an_unfinished_game_pays_nothing_at_the_close() {
    let a = json!({"name": "Oh Hell", "stake": "0.10"});
    let e = refusal(a.clone(), vec![json!({"type": "game_over"})]);
    assert!(e.starts_with("event 0: type: no hand of this game"), "{e}");
    let l = ok(
        a,
        Value::Null,
        vec![hand(&[10, 0, 0, 0]), json!({"type": "close"})],
    );
    assert_eq!(cents(&l, &ABCD), vec![0, 0, 0, 0]);
    assert!(l.games.is_empty());
}

#[test]
fn totals_times_the_stake_past_any_balance_are_refused_never_wrapped() {
    let a = json!({"name": "Big", "stake": "1000000.00", "target": 1});
    let e = refusal(a, vec![hand(&[1_000_000_000, 0, 0, 0])]);
    assert!(
        e.starts_with("event 0: points: these totals times the stake"),
        "{e}"
    );
}

#[test]
fn a_correction_replays_the_game_and_posts_the_difference() {
    let a = json!({"name": "Gin Rummy", "stake": "0.01", "target": 100});
    let l: LedgerDoc = ok(
        a,
        Value::Null,
        vec![
            hand(&[60, 0, 0, 0]),
            hand(&[50, 10, 0, 0]),
            json!({"type": "correction", "event": 1, "reason": "Bo had 20",
                   "replacement": hand(&[50, 20, 0, 0])}),
        ],
    );
    // Al 110, Bo 20, Cy 0, Di 0, S = 130: nets 0.01 × (4s − S).
    assert_eq!(cents(&l, &ABCD), vec![310, -50, -130, -130]);
}

#[test]
fn the_form_reads_points_a_shot_moon_and_game_over() {
    let event =
        hand_event(b"dealer=Al&points.Al=10&points.Bo=%E2%88%926&points.Cy=&points.Di=22").unwrap();
    assert_eq!(
        event,
        json!({"type": "hand", "dealer": "Al", "points": {"Al": 10, "Bo": -6, "Cy": 0, "Di": 22}})
    );
    let moon = hand_event(
        b"dealer=Al&points.Al=3&points.Bo=&points.Cy=&points.Di=&moon=Cy&moon_points=26",
    )
    .unwrap();
    assert_eq!(
        moon["points"],
        json!({"Al": 26, "Bo": 26, "Cy": 0, "Di": 26})
    );
    let over = hand_event(b"dealer=Al&points.Al=&game_over=true").unwrap();
    assert_eq!(over, json!({"type": "game_over"}));
    let e = hand_event(b"points.Al=ten").unwrap_err();
    assert_eq!(e.field, "points.Al");
    // Nothing typed at all is refused; one 0 typed is a hand nobody scored in.
    let e = hand_event(b"dealer=Al&points.Al=&points.Bo=&points.Cy=&points.Di=").unwrap_err();
    assert_eq!(e.field, "points");
    let nil = hand_event(b"dealer=Al&points.Al=0&points.Bo=&points.Cy=&points.Di=").unwrap();
    assert_eq!(nil["points"], json!({"Al": 0, "Bo": 0, "Cy": 0, "Di": 0}));
}

proptest! {
    /// Every settlement's postings sum to zero, and pairwise nets are `stake × (N·s − S)`.
    #[test]
    fn postings_sum_to_zero_and_pairwise_follows_the_formula(
        points in proptest::collection::vec(-200i64..200, 4),
        stake in 0i64..100,
        how in 0usize..3,
    ) {
        let settlement = ["pairwise_difference", "difference_to_winner", "per_game"][how];
        let a = json!({"name": "Any", "stake": crate::money::Money::from_cents(stake).to_string(),
            "settlement": settlement});
        let l = ok(a, Value::Null, vec![dealt("Bo", &points), json!({"type": "game_over"})]);
        let nets = cents(&l, &ABCD);
        prop_assert_eq!(nets.iter().sum::<i64>(), 0);
        if how == 0 {
            let sum: i64 = points.iter().sum();
            let expected: Vec<i64> = points.iter().map(|s| stake * (4 * s - sum)).collect();
            prop_assert_eq!(nets, expected);
        }
    }
}
