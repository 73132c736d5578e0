//! Whole poker sessions through `replay` (rules §1.11, §3 items 32–33): pots and side pots,
//! odd chips by each rule, high-low, cards, the betting record and refusals. Every expected
//! number is worked out by hand from the rules in the comment beside it.

use serde_json::{Value, json};

use crate::format::{LedgerDoc, Refusal};
use crate::money::Money;
use crate::rules::replay_tests;

/// A poker session at `players` (no scores to carry in) played through `replay`.
fn run(agreements: Value, players: &[&str], events: Vec<Value>) -> Result<LedgerDoc, Refusal> {
    replay_tests::run("poker", players, agreements, Value::Null, events)
}

fn balances(l: &LedgerDoc) -> Vec<(String, i64)> {
    l.balances
        .iter()
        .filter(|(_, m)| **m != Money::ZERO)
        .map(|(k, m)| (k.clone(), m.cents()))
        .collect()
}

fn b(pairs: &[(&str, i64)]) -> Vec<(String, i64)> {
    let mut v: Vec<(String, i64)> = pairs
        .iter()
        .filter(|(_, c)| *c != 0)
        .map(|(k, c)| (k.to_string(), *c))
        .collect();
    v.sort();
    v
}

fn ok(agreements: Value, players: &[&str], events: Vec<Value>) -> Vec<(String, i64)> {
    balances(&run(agreements, players, events).unwrap())
}

fn refused(agreements: Value, players: &[&str], events: Vec<Value>) -> (Option<usize>, String) {
    let r = run(agreements, players, events).unwrap_err();
    (r.event_index, r.field.to_string())
}

const SEED: [&str; 5] = ["Alex", "Brad", "Charley", "Dennis", "You"];

/// The seed's five-card-draw hand (S004), with its betting written out.
fn seed_hand(rounds: Value) -> Value {
    json!({"type": "hand", "dealer": "You",
           "contributions": {"Alex": "0.05", "Brad": "0.50", "Charley": "0.25", "Dennis": "0.50", "You": "0.50"},
           "folded": ["Alex", "Charley"], "all_in": [], "split": "high",
           "showdown": [["You"], ["Dennis"], ["Brad"]],
           "rounds": rounds})
}

fn seed_rounds() -> Value {
    json!([
        [
            ["Alex", "check"],
            ["Brad", "bet", "0.10"],
            ["Charley", "call"],
            ["Dennis", "raise", "0.10"],
            ["You", "call"],
            ["Alex", "fold"],
            ["Brad", "call"],
            ["Charley", "call"]
        ],
        [
            ["Brad", "bet", "0.05"],
            ["Charley", "fold"],
            ["Dennis", "raise", "0.20"],
            ["You", "call"],
            ["Brad", "call"]
        ]
    ])
}

fn seed_limits() -> Value {
    json!({"ante": "0.05", "max_first_bet": "0.50", "max_raise": "0.50", "max_raises_total_per_round": "1.00"})
}

#[test]
fn the_seed_hand_with_its_betting() {
    // Ante 0.05 each. Brad 0.05 + 0.10 + 0.10 + 0.05 + 0.20 = 0.50; Charley 0.05 + 0.10 +
    // 0.10 = 0.25; Dennis 0.05 + 0.20 + 0.25 = 0.50; You 0.05 + 0.20 + 0.25 = 0.50; Alex
    // 0.05. Pot 1.80 to You: +1.80 − 0.50 = +1.30.
    assert_eq!(
        ok(seed_limits(), &SEED, vec![seed_hand(seed_rounds())]),
        b(&[
            ("Alex", -5),
            ("Brad", -50),
            ("Charley", -25),
            ("Dennis", -50),
            ("You", 130)
        ])
    );
}

#[test]
fn the_betting_is_held_to_the_limits_and_the_contributions() {
    let with = |limits: Value, rounds: Value| refused(limits, &SEED, vec![seed_hand(rounds)]);
    // Dennis's raise of 0.10 over a raise limit of 0.05.
    let small = json!({"ante": "0.05", "max_raise": "0.05"});
    assert_eq!(with(small, seed_rounds()), (Some(0), "rounds[0][3]".into()));
    // A first bet of 0.10 over a limit of 0.05.
    let small = json!({"ante": "0.05", "max_first_bet": "0.05"});
    assert_eq!(with(small, seed_rounds()), (Some(0), "rounds[0][1]".into()));
    // Round 2's raises total 0.20, over 0.15 (the opening 0.05 not counted; under 0.25 it
    // would pass).
    let total = json!({"ante": "0.05", "max_raises_total_per_round": "0.15"});
    assert_eq!(with(total, seed_rounds()), (Some(0), "rounds[1][2]".into()));
    let total = json!({"ante": "0.05", "max_raises_total_per_round": "0.20"});
    assert!(run(total, &SEED, vec![seed_hand(seed_rounds())]).is_ok());
    // Without the ante agreed, the betting adds up to 0.05 less than each contribution.
    assert_eq!(with(json!({}), seed_rounds()).1, "contributions.Alex");
    // Alex checks while owing 0.20.
    let mut r = seed_rounds();
    r[0][5] = json!(["Alex", "check"]);
    assert_eq!(with(seed_limits(), r), (Some(0), "rounds[0][5]".into()));
    // A second bet where there is one already.
    let mut r = seed_rounds();
    r[0][3] = json!(["Dennis", "bet", "0.20"]);
    assert_eq!(with(seed_limits(), r), (Some(0), "rounds[0][3]".into()));
    // Charley never calls Dennis's raise in round 1: the round ends with him owing.
    let mut r = seed_rounds();
    r[0].as_array_mut().unwrap().pop();
    assert_eq!(with(seed_limits(), r), (Some(0), "rounds[0]".into()));
    // Alex acts after folding.
    let mut r = seed_rounds();
    r[1].as_array_mut().unwrap().push(json!(["Alex", "check"]));
    assert_eq!(with(seed_limits(), r), (Some(0), "rounds[1][5]".into()));
    // An action that is not one.
    let mut r = seed_rounds();
    r[0][0] = json!(["Alex", "knock"]);
    assert_eq!(with(seed_limits(), r), (Some(0), "rounds[0][0]".into()));
    // A bet written as a JSON number.
    let mut r = seed_rounds();
    r[0][1] = json!(["Brad", "bet", 0.10]);
    assert_eq!(with(seed_limits(), r), (Some(0), "rounds[0][1]".into()));
}

#[test]
fn a_tie_gives_the_odd_chip_to_the_first_winner_left_of_the_dealer() {
    // PK-02 with Dennis dealing: 0.75 = 15 chips of 0.05 between Brad and You, 7 each and
    // the odd chip to the first of them clockwise from Dennis's left: You (seat 5) comes
    // before Brad (seat 2). You 0.40 − 0.25 = +0.15, Brad 0.35 − 0.25 = +0.10.
    let hand = json!({"type": "hand", "dealer": "Dennis",
        "contributions": {"Alex": "0.00", "Brad": "0.25", "Charley": "0.00", "Dennis": "0.25", "You": "0.25"},
        "folded": ["Alex", "Charley"], "all_in": [], "split": "high",
        "showdown": [["Brad", "You"], ["Dennis"]]});
    assert_eq!(
        ok(json!({}), &SEED, vec![hand]),
        b(&[("Brad", 10), ("Dennis", -25), ("You", 15)])
    );
}

/// A and B tie with the same straight; C folds. A holds the 9♠, B the 9♥.
fn straight_tie(dealer: &str) -> Value {
    json!({"type": "hand", "dealer": dealer,
        "contributions": {"A": "0.25", "B": "0.25", "C": "0.25"},
        "folded": ["C"], "all_in": [], "split": "high",
        "cards": {"B": "9H 8C 7D 6S 5C", "A": "9S 8D 7C 6H 5D"}})
}

#[test]
fn high_card_by_suit_gives_the_odd_chip_to_the_highest_card() {
    // 0.75 = 15 chips: 7 each and the odd one to A, whose 9♠ beats B's 9♥ (♠ > ♥), though
    // B sits first left of dealer C. A 0.40 − 0.25, B 0.35 − 0.25.
    let a = json!({"odd_chip": "high_card_by_suit"});
    assert_eq!(
        ok(a.clone(), &["A", "B", "C"], vec![straight_tie("C")]),
        b(&[("A", 15), ("B", 10), ("C", -25)])
    );
    // By the default rule, with A dealing, B is the first winner left of the dealer and
    // takes the odd chip: B +0.15, A +0.10.
    assert_eq!(
        ok(json!({}), &["A", "B", "C"], vec![straight_tie("A")]),
        b(&[("A", 10), ("B", 15), ("C", -25)])
    );
    // high_card_by_suit needs the cards, not tie groups.
    let groups = json!({"type": "hand", "dealer": "C",
        "contributions": {"A": "0.25", "B": "0.25", "C": "0.25"},
        "folded": ["C"], "split": "high", "showdown": [["A", "B"]]});
    assert_eq!(
        refused(a, &["A", "B", "C"], vec![groups]),
        (Some(0), "cards".into())
    );
}

#[test]
fn carried_odd_chips_go_into_the_next_pot_and_are_shared_at_the_close() {
    let a = json!({"odd_chip": "carry"});
    let players = ["A", "B", "C"];
    // Hand 1: 15 chips, 7 each to A and B, 1 stays in POT: A and B +0.10, POT +0.05.
    assert_eq!(
        ok(a.clone(), &players, vec![straight_tie("C")]),
        b(&[("A", 10), ("B", 10), ("C", -25), ("POT", 5)])
    );
    // Hand 2: A and B 0.10 each, A wins 4 chips + the carried 1 = 0.25: A +0.15, B −0.10,
    // POT −0.05. Totals A +0.25, B 0, C −0.25.
    let second = json!({"type": "hand", "dealer": "A",
        "contributions": {"A": "0.10", "B": "0.10", "C": "0.00"},
        "folded": ["C"], "split": "high", "showdown": [["A"], ["B"]]});
    assert_eq!(
        ok(a.clone(), &players, vec![straight_tie("C"), second]),
        b(&[("A", 25), ("C", -25)])
    );
    // Closed after hand 1: the 0.05 left is one chip for three players, so it goes to the
    // first left of dealer C: A. A +0.15, B +0.10, POT 0.
    assert_eq!(
        ok(
            a.clone(),
            &players,
            vec![straight_tie("C"), json!({"type": "close"})]
        ),
        b(&[("A", 15), ("B", 10), ("C", -25)])
    );
    // Voiding hand 1 takes the carried chip back with it.
    let void = json!({"type": "void", "event": 0, "reason": "wrong table"});
    assert_eq!(ok(a, &players, vec![straight_tie("C"), void]), b(&[]));
}

/// A all-in 0.30, B all-in 0.70, C and D 1.00 (PK-03's pots).
fn two_all_ins(split: &str, high: Value, low: Option<Value>) -> Value {
    let mut hand = json!({"type": "hand", "dealer": "D",
        "contributions": {"A": "0.30", "B": "0.70", "C": "1.00", "D": "1.00"},
        "folded": [], "all_in": ["A", "B"], "split": split, "showdown": high});
    if let Some(low) = low {
        hand["showdown_low"] = low;
    }
    hand
}

#[test]
fn high_low_with_two_all_ins_splits_every_pot() {
    // Main pot 1.20 (all four): high 0.60 C, low 0.60 A. Side pot 1, 1.20 (B, C, D): high
    // 0.60 C, low 0.60 B (A is not in it). Side pot 2, 0.60 (C, D): high 0.30 C, low 0.30
    // D. A 0.60 − 0.30 = +0.30; B 0.60 − 0.70 = −0.10; C 1.50 − 1.00 = +0.50; D 0.30 −
    // 1.00 = −0.70.
    let hand = two_all_ins(
        "high_low",
        json!([["C"], ["A"], ["D"], ["B"]]),
        Some(json!([["A"], ["B"], ["D"], ["C"]])),
    );
    assert_eq!(
        ok(json!({}), &["A", "B", "C", "D"], vec![hand]),
        b(&[("A", 30), ("B", -10), ("C", 50), ("D", -70)])
    );
}

#[test]
fn the_high_half_takes_the_odd_chip() {
    // 0.25 + 0.25 + 0.05 = 0.55 = 11 chips: high 6 (A), low 5 (B). A +0.05, B 0, C −0.05.
    let hand = json!({"type": "hand", "dealer": "C",
        "contributions": {"A": "0.25", "B": "0.25", "C": "0.05"},
        "folded": ["C"], "split": "high_low",
        "showdown": [["A"], ["B"]], "showdown_low": [["B"], ["A"]]});
    assert_eq!(
        ok(json!({}), &["A", "B", "C"], vec![hand]),
        b(&[("A", 5), ("C", -5)])
    );
}

#[test]
fn folded_money_sits_in_every_pot_it_reached() {
    // A all-in 0.20, B folds after 0.50, C and D 1.00. Main pot 0.20 × 4 = 0.80 (A, C, D)
    // to A; side pot 0.30 (B) + 0.80 + 0.80 = 1.90 (C, D) to D. A +0.60, B −0.50, C −1.00,
    // D +0.90.
    let hand = json!({"type": "hand", "dealer": "D",
        "contributions": {"A": "0.20", "B": "0.50", "C": "1.00", "D": "1.00"},
        "folded": ["B"], "all_in": ["A"], "split": "high",
        "showdown": [["A"], ["D"], ["C"]]});
    assert_eq!(
        ok(json!({}), &["A", "B", "C", "D"], vec![hand]),
        b(&[("A", 60), ("B", -50), ("C", -100), ("D", 90)])
    );
}

/// B holds four nines (the high); A 6-4-3-2-A and C 7-5-4-3-2 contest the low.
fn low_by_cards() -> Value {
    json!({"type": "hand", "dealer": "C",
        "contributions": {"A": "0.50", "B": "0.50", "C": "0.50"},
        "folded": [], "split": "high_low",
        "cards": {"A": "AS 2D 3C 4H 6S", "B": "9H 9D 9S 9C KH", "C": "7S 5D 4C 3H 2S"}})
}

#[test]
fn lows_are_ranked_from_the_cards_by_the_low_agreement() {
    // 1.50 = 30 chips: high 15 to B's four nines; low 15. Ace to five: A's 6-4-3-2-A beats
    // C's 7-5-4-3-2; deuce to seven: A's hand is only ace high, C's 7-5-4-3-2 is the best.
    assert_eq!(
        ok(json!({}), &["A", "B", "C"], vec![low_by_cards()]),
        b(&[("A", 25), ("B", 25), ("C", -50)])
    );
    assert_eq!(
        ok(
            json!({"low": "deuce_to_seven"}),
            &["A", "B", "C"],
            vec![low_by_cards()]
        ),
        b(&[("A", -50), ("B", 25), ("C", 25)])
    );
}

#[test]
fn the_wheel_is_the_lowest_straight_and_jokers_are_wild_only_by_agreement() {
    // A's wheel loses to B's six-high straight: B takes 1.00.
    let hand = |a: &str, b_cards: &str| {
        json!({"type": "hand", "dealer": "B",
            "contributions": {"A": "0.50", "B": "0.50"}, "split": "high",
            "cards": {"A": a, "B": b_cards}})
    };
    assert_eq!(
        ok(
            json!({}),
            &["A", "B"],
            vec![hand("AS 2D 3C 4H 5S", "2S 3D 4C 5H 6C")]
        ),
        b(&[("A", -50), ("B", 50)])
    );
    // A joker: refused unless jokers are wild; wild, it makes A's four kings five kings.
    let joker = hand("KS KD KC KH JK", "AS AD AC AH 2C");
    assert_eq!(
        refused(json!({}), &["A", "B"], vec![joker.clone()]),
        (Some(0), "cards.A".into())
    );
    assert_eq!(
        ok(json!({"wild": ["jokers"]}), &["A", "B"], vec![joker]),
        b(&[("A", 50), ("B", -50)])
    );
}

#[test]
fn one_player_left_takes_the_pot_without_a_showdown() {
    let hand = json!({"type": "hand", "dealer": "A",
        "contributions": {"A": "0.05", "B": "0.15", "C": "0.05"},
        "folded": ["A", "C"], "split": "high"});
    assert_eq!(
        ok(json!({}), &["A", "B", "C"], vec![hand]),
        b(&[("A", -5), ("B", 10), ("C", -5)])
    );
}

#[test]
fn impossible_hands_are_refused_naming_the_field() {
    let players = ["A", "B", "C"];
    let base = json!({"type": "hand", "dealer": "C",
        "contributions": {"A": "0.50", "B": "0.50", "C": "0.10"},
        "folded": ["C"], "all_in": [], "split": "high", "showdown": [["A"], ["B"]]});
    assert!(run(json!({}), &players, vec![base.clone()]).is_ok());
    let with = |edit: &dyn Fn(&mut Value)| {
        let mut h = base.clone();
        edit(&mut h);
        refused(json!({}), &players, vec![h]).1
    };
    assert_eq!(with(&|h| h["dealer"] = json!("Zed")), "dealer");
    assert_eq!(
        with(&|h| {
            h["contributions"].as_object_mut().unwrap().remove("C");
        }),
        "contributions.C"
    );
    assert_eq!(
        with(&|h| h["contributions"]["A"] = json!("0.52")),
        "contributions.A"
    );
    assert_eq!(
        with(&|h| h["contributions"]["A"] = json!(0.5)),
        "contributions.A"
    );
    assert_eq!(
        with(&|h| h["contributions"]["A"] = json!("-0.50")),
        "contributions.A"
    );
    // B still in, not all-in, with less than A put in: he must call or fold.
    assert_eq!(
        with(&|h| h["contributions"]["B"] = json!("0.40")),
        "contributions.B"
    );
    assert_eq!(with(&|h| h["all_in"] = json!(["C"])), "all_in");
    assert_eq!(with(&|h| h["folded"] = json!(["A", "B", "C"])), "folded");
    assert_eq!(with(&|h| h["showdown"] = json!([["A"]])), "showdown");
    assert_eq!(
        with(&|h| h["showdown"] = json!([["A"], ["B"], ["C"]])),
        "showdown[2][0]"
    );
    assert_eq!(
        with(&|h| h["showdown"] = json!([["A", "A"], ["B"]])),
        "showdown[0][1]"
    );
    assert_eq!(
        with(&|h| h["showdown_low"] = json!([["A"], ["B"]])),
        "showdown_low"
    );
    assert_eq!(with(&|h| h["split"] = json!("high_low")), "showdown_low");
    assert_eq!(
        with(&|h| {
            h.as_object_mut().unwrap().remove("showdown");
        }),
        "showdown"
    );
    assert_eq!(
        with(&|h| h["cards"] = json!({"A": "AS KS QS JS TS", "B": "2C 3C 4C 5C 7D"})),
        "cards"
    );
    assert_eq!(
        with(&|h| {
            h.as_object_mut().unwrap().remove("showdown");
            h["cards"] = json!({"A": "AS KS QS JS TS", "B": "AS 3C 4C 5C 7D"});
        }),
        "cards.B"
    );
    assert_eq!(
        with(&|h| {
            h.as_object_mut().unwrap().remove("showdown");
            h["cards"] = json!({"A": "AS KS QS JS TS"});
        }),
        "cards.B"
    );
    assert_eq!(with(&|h| h["bid"] = json!(250)), "bid");
    // An all-in player who put nothing in; a player under the ante.
    assert_eq!(
        with(&|h| {
            h["contributions"]["C"] = json!("0.00");
            h["folded"] = json!([]);
            h["all_in"] = json!(["C"]);
            h["showdown"] = json!([["A"], ["B"], ["C"]]);
        }),
        "contributions.C"
    );
    let mut under = base.clone();
    under["contributions"]["C"] = json!("0.05");
    assert_eq!(
        refused(json!({"ante": "0.10"}), &players, vec![under]).1,
        "contributions.C"
    );
    // Poker seats 2 to 10, none of them named like the pot's account.
    assert!(run(json!({}), &["A"], vec![]).is_err());
    assert_eq!(
        refused(json!({}), &["A", "POT"], vec![]),
        (None, "players".into())
    );
}

/// RRP's odd-chip rule, worked by hand (rules §1.11 step 4): A and B hold identical hands and tie for both high and low in
/// a 0.50 pot (A 0.20, B 0.20, C folded after 0.10); C deals, so A sits first left of him.
fn identical_high_low() -> Value {
    json!({"type": "hand", "dealer": "C",
        "contributions": {"A": "0.20", "B": "0.20", "C": "0.10"},
        "folded": ["C"], "split": "high_low",
        "showdown": [["A", "B"]], "showdown_low": [["A", "B"]]})
}

#[test]
fn identical_hands_tying_both_halves_split_evenly() {
    // 0.50 = 10 chips: high 5, low 5. High: 2 each, the odd chip to A (first left of C).
    // Low: 2 each; A already has this pot's odd chip, so B takes it (RRP: no player more
    // than one; identical hands split as evenly as possible). A 0.25 − 0.20 = +0.05, B
    // 0.25 − 0.20 = +0.05, C −0.10.
    assert_eq!(
        ok(json!({}), &["A", "B", "C"], vec![identical_high_low()]),
        b(&[("A", 5), ("B", 5), ("C", -10)])
    );
    // Each half on its own (`odd_chip_high_low: per_half`): A takes both odd chips, 3 + 3
    // = 0.30 (+0.10), B 2 + 2 = 0.20 (0.00), C −0.10.
    assert_eq!(
        ok(
            json!({"odd_chip_high_low": "per_half"}),
            &["A", "B", "C"],
            vec![identical_high_low()]
        ),
        b(&[("A", 10), ("C", -10)])
    );
}

#[test]
fn a_lone_high_hand_has_had_the_pots_odd_chip() {
    // 0.25 + 0.25 + 0.05 = 0.55 = 11 chips: high 6 to A alone (the odd chip of the
    // division), low 5 tied A and B: 2 each, and the odd chip to B, as A already has one
    // from this pot. A 8 chips 0.40 − 0.25 = +0.15; B 3 chips 0.15 − 0.25 = −0.10; C −0.05.
    let hand = json!({"type": "hand", "dealer": "C",
        "contributions": {"A": "0.25", "B": "0.25", "C": "0.05"},
        "folded": ["C"], "split": "high_low",
        "showdown": [["A"], ["B"]], "showdown_low": [["A", "B"]]});
    assert_eq!(
        ok(json!({}), &["A", "B", "C"], vec![hand.clone()]),
        b(&[("A", 15), ("B", -10), ("C", -5)])
    );
    // Per half: the low odd chip to A, first left of C: A 9 chips 0.45 (+0.20), B 2 chips
    // 0.10 (−0.15), C −0.05.
    assert_eq!(
        ok(
            json!({"odd_chip_high_low": "per_half"}),
            &["A", "B", "C"],
            vec![hand]
        ),
        b(&[("A", 20), ("B", -15), ("C", -5)])
    );
}

/// C's heart flush takes the high; A and B tie the low with the same wheel (5-4-3-2-A).
/// A's lowest card is the A♠, B's the A♣ (aces low); their highest the same aces.
fn wheel_tie_for_low() -> Value {
    json!({"type": "hand", "dealer": "C",
        "contributions": {"A": "0.10", "B": "0.10", "C": "0.10"},
        "folded": [], "split": "high_low",
        "cards": {"A": "AS 2D 3C 4H 5S", "B": "AC 2S 3D 4S 5H", "C": "2H 7H 9H JH KH"}})
}

#[test]
fn high_card_by_suit_gives_a_low_halfs_odd_chip_to_the_lowest_card() {
    // 0.30 = 6 chips: high 3 to C; low 3 between A and B, 1 each and the odd chip to the
    // lowest card by suit (RRP): B's A♣ is below A's A♠. A 0.05 − 0.10 = −0.05, B 0.10 −
    // 0.10 = 0, C 0.15 − 0.10 = +0.05.
    let a = json!({"odd_chip": "high_card_by_suit"});
    assert_eq!(
        ok(a, &["A", "B", "C"], vec![wheel_tie_for_low()]),
        b(&[("A", -5), ("C", 5)])
    );
    // `odd_chip_low_card: highest`: A's A♠ is the higher card: A 0, B −0.05, C +0.05.
    let a = json!({"odd_chip": "high_card_by_suit", "odd_chip_low_card": "highest"});
    assert_eq!(
        ok(a, &["A", "B", "C"], vec![wheel_tie_for_low()]),
        b(&[("B", -5), ("C", 5)])
    );
}
