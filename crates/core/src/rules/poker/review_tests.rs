//! A rules review of poker (rules §1.11, §3 items 32–33, session-format `poker`): further
//! whole sessions through `replay`, each worked out by hand from the rules in the comment
//! beside it, for the edge cases the public examples do not touch.

use serde_json::{Value, json};

use crate::format::{LedgerDoc, Refusal};
use crate::money::Money;
use crate::rules::replay_tests;

/// A poker session at `players` (no scores to carry in) played through `replay`.
fn run(agreements: Value, players: &[&str], events: Vec<Value>) -> Result<LedgerDoc, Refusal> {
    replay_tests::run("poker", players, agreements, Value::Null, events)
}

fn cents(l: &LedgerDoc, p: &str) -> i64 {
    l.balances.get(p).copied().unwrap_or(Money::ZERO).cents()
}

fn all(l: &LedgerDoc, names: &[&str]) -> Vec<i64> {
    names.iter().map(|p| cents(l, p)).collect()
}

const FOUR: [&str; 4] = ["A", "B", "C", "D"];

/// A showdown by cards among four, C folded.
fn by_cards(cards: Value) -> Value {
    json!({"type": "hand", "dealer": "D",
           "contributions": {"A": "0.50", "B": "0.50", "C": "0.05", "D": "0.50"},
           "folded": ["C"], "all_in": [], "split": "high", "cards": cards})
}

#[test]
fn two_odd_chips_go_one_each_clockwise_from_the_dealers_left_wrapping_round() {
    // Dealer C. A, B, D tie; C folded after 0.25. Pot 0.30 × 3 + 0.25 = 1.15 = 23 chips of
    // 0.05: 7 each, 2 odd. Clockwise from C's left: D, A, B → D and A get one each.
    // D 0.40 − 0.30 = +0.10, A +0.10, B 0.35 − 0.30 = +0.05, C −0.25.
    let l = run(
        json!({}),
        &FOUR,
        vec![json!({"type": "hand", "dealer": "C",
        "contributions": {"A": "0.30", "B": "0.30", "C": "0.25", "D": "0.30"},
        "folded": ["C"], "all_in": [], "split": "high", "showdown": [["A", "B", "D"]]})],
    )
    .unwrap();
    assert_eq!(all(&l, &FOUR), vec![10, 5, -25, 10]);
}

#[test]
fn each_pot_splits_on_its_own_and_carried_chips_add_up_across_pots() {
    // odd_chip carry. A all-in 0.15, B, C, D 0.40; B and D tie everywhere, A with them in
    // the main pot. Main 0.15 × 4 = 12 chips among A, B, D: 4 each. Side (0.40 − 0.15) × 3
    // = 15 chips among B, D: 7 each, 1 stays. A 0.20 − 0.15 = +0.05; B, D 0.20 + 0.35 − 0.40
    // = +0.15; C −0.40; POT +0.05.
    let l = run(
        json!({"odd_chip": "carry"}),
        &FOUR,
        vec![json!({"type": "hand", "dealer": "D",
        "contributions": {"A": "0.15", "B": "0.40", "C": "0.40", "D": "0.40"},
        "folded": [], "all_in": ["A"], "split": "high",
        "showdown": [["A", "B", "D"], ["C"]]})],
    )
    .unwrap();
    assert_eq!(all(&l, &FOUR), vec![5, 15, -40, 15]);
    assert_eq!(cents(&l, "POT"), 5);
}

#[test]
fn high_low_scoop_and_a_tied_low_half() {
    // Hand 1: A holds both best high and best low: the whole 0.75 is his. A +0.50.
    // Hand 2: 0.25 × 3 = 15 chips: high 8 to A; low 7 tied B, C: 4 and 3, the odd chip to
    // the first of them left of dealer B: C. A 0.40 − 0.25 = +0.15, B 0.15 − 0.25 = −0.10,
    // C 0.20 − 0.25 = −0.05. Totals A +0.65, B −0.35, C −0.30.
    let three = ["A", "B", "C"];
    let hand = |dealer: &str, high: Value, low: Value| {
        json!({"type": "hand", "dealer": dealer,
               "contributions": {"A": "0.25", "B": "0.25", "C": "0.25"},
               "folded": [], "all_in": [], "split": "high_low",
               "showdown": high, "showdown_low": low})
    };
    let l = run(
        json!({}),
        &three,
        vec![
            hand(
                "C",
                json!([["A"], ["B"], ["C"]]),
                json!([["A"], ["C"], ["B"]]),
            ),
            hand("B", json!([["A"], ["B", "C"]]), json!([["B", "C"], ["A"]])),
        ],
    )
    .unwrap();
    assert_eq!(all(&l, &three), vec![65, -35, -30]);
}

#[test]
fn the_wheel_scoops_a_high_low_pot_by_the_cards() {
    // A's A-2-3-4-5 is a straight (high) and the best ace-to-five low: A takes all 1.55.
    let l = run(
        json!({}),
        &FOUR,
        vec![json!({"type": "hand", "dealer": "D",
        "contributions": {"A": "0.50", "B": "0.50", "C": "0.05", "D": "0.50"},
        "folded": ["C"], "all_in": [], "split": "high_low",
        "cards": {"A": "AS 2D 3C 4H 5S", "B": "KS KD 9C 7H 3S", "D": "QS QD 8C 6H 4S"}})],
    )
    .unwrap();
    assert_eq!(all(&l, &FOUR), vec![105, -50, -5, -50]);
}

#[test]
fn hand_ranking_edge_cases_from_the_cards() {
    // Pot 1.55; the winner +1.05, the others −0.50, C −0.05.
    let winner = |agreements: Value, cards: Value| {
        let l = run(agreements, &FOUR, vec![by_cards(cards)]).unwrap();
        FOUR.iter()
            .filter(|p| cents(&l, p) == 105)
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
    };
    // No wrap-around: K-A-2-3-4 is only ace high; B's pair of queens beats it.
    assert_eq!(
        winner(
            json!({}),
            json!({"A": "KS AD 2C 3H 4S", "B": "QS QD 5C 6H 8S", "D": "JS TD 7C 9H 2D"})
        ),
        vec!["B"]
    );
    // Same two pair: the kicker decides (9 over 8).
    assert_eq!(
        winner(
            json!({}),
            json!({"A": "KS KD 5C 5H 9S", "B": "KH KC 5D 5S 8S", "D": "QS QD 4C 4H AS"})
        ),
        vec!["A"]
    );
    // Five of a kind (joker wild) beats a straight flush.
    assert_eq!(
        winner(
            json!({"wild": ["jokers"]}),
            json!({"A": "JK AS AD AC AH", "B": "9S TS JS QS KS", "D": "2D 3D 4D 5D 7C"})
        ),
        vec!["A"]
    );
    // Deuces wild: two deuces and three kings are five kings, over four aces.
    assert_eq!(
        winner(
            json!({"wild": ["deuces"]}),
            json!({"A": "2S 2D KC KH KS", "B": "AS AD AC AH 3S", "D": "4D 5D 6D 7D 9C"})
        ),
        vec!["A"]
    );
    // Full house by the trips: 8-8-8-2-2 beats 7-7-7-A-A.
    assert_eq!(
        winner(
            json!({}),
            json!({"A": "7S 7D 7C AH AS", "B": "8S 8D 8C 2H 2S", "D": "KD QD JD 9D 4C"})
        ),
        vec!["B"]
    );
}

#[test]
fn identical_hands_split_because_suits_never_rank() {
    // A and B both hold A-K-Q-J-9 in mixed suits; D only eight high. 1.55 = 31 chips: 16 to the
    // first left of dealer D, A; 15 to B. A 0.80 − 0.50 = +0.30, B 0.75 − 0.50 = +0.25.
    let l = run(
        json!({}),
        &FOUR,
        vec![by_cards(
            json!({"A": "AS KS QD JC 9H", "B": "AD KD QC JH 9S", "D": "2S 3D 5C 7H 8S"}),
        )],
    )
    .unwrap();
    assert_eq!(all(&l, &FOUR), vec![30, 25, -5, -50]);
}

#[test]
fn deuce_to_seven_lows_count_straights_and_flushes_against_the_hand() {
    // split high_low, low deuce_to_seven. High: B's flush. Low: A's 8-6-5-4-3 (mixed) beats
    // D's 7-6-5-4-3 (a straight) and B's flush. Pot 1.55 = 31 chips: high 16 to B, low 15 to
    // A. A 0.75 − 0.50 = +0.25, B 0.80 − 0.50 = +0.30, C −0.05, D −0.50.
    let l = run(
        json!({"low": "deuce_to_seven"}),
        &FOUR,
        vec![json!({"type": "hand", "dealer": "D",
        "contributions": {"A": "0.50", "B": "0.50", "C": "0.05", "D": "0.50"},
        "folded": ["C"], "all_in": [], "split": "high_low",
        "cards": {"A": "8S 6D 5C 4H 3S", "B": "KH 9H 7H 6H 2H", "D": "7D 6C 5D 4D 3C"}})],
    )
    .unwrap();
    assert_eq!(all(&l, &FOUR), vec![25, 30, -5, -50]);
}

#[test]
fn betting_at_exactly_the_limits_passes_and_one_chip_over_is_refused() {
    // Limits: ante 0.05, first bet 0.50, raise 0.50, raises per round 1.00 (opening bet not
    // counted). A bets 0.50, B raises 0.50, A raises 0.50 (raises 1.00: at the limit), B
    // calls. A and B each 0.05 + 1.50 = 1.55; A wins 3.10: A +1.55, B −1.55.
    let limits = json!({"ante": "0.05", "max_first_bet": "0.50", "max_raise": "0.50",
                        "max_raises_total_per_round": "1.00"});
    let hand = |last_raise: &str, total: &str| {
        json!({"type": "hand", "dealer": "B",
               "contributions": {"A": total, "B": total},
               "folded": [], "all_in": [], "split": "high", "showdown": [["A"], ["B"]],
               "rounds": [[["A", "bet", "0.50"], ["B", "raise", "0.50"],
                           ["A", "raise", last_raise], ["B", "call"]]]})
    };
    let l = run(limits.clone(), &["A", "B"], vec![hand("0.50", "1.55")]).unwrap();
    assert_eq!(all(&l, &["A", "B"]), vec![155, -155]);
    // A's second raise of 0.55 is over max_raise.
    let r = run(limits, &["A", "B"], vec![hand("0.55", "1.60")]).unwrap_err();
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "rounds[0][2]")
    );
}

#[test]
fn a_carried_chip_goes_to_the_winner_of_a_hand_nobody_bet_in() {
    // odd_chip carry, no ante. Hand 1: 0.75 = 15 chips, A and B tie: 7 each, 1 stays in POT:
    // A +0.10, B +0.10, C −0.25, POT +0.05. Hand 2: everyone checks (nothing put in); the
    // pot is the carried chip alone (session-format: it "goes into the next hand's pot")
    // and C wins it: C −0.20, POT 0.
    let three = ["A", "B", "C"];
    let l = run(
        json!({"odd_chip": "carry"}),
        &three,
        vec![
            json!({"type": "hand", "dealer": "C",
               "contributions": {"A": "0.25", "B": "0.25", "C": "0.25"},
               "folded": [], "all_in": [], "split": "high", "showdown": [["A", "B"], ["C"]]}),
            json!({"type": "hand", "dealer": "A",
               "contributions": {"A": "0.00", "B": "0.00", "C": "0.00"},
               "folded": [], "all_in": [], "split": "high", "showdown": [["C"], ["A", "B"]]}),
        ],
    )
    .unwrap();
    assert_eq!(all(&l, &three), vec![10, 10, -20]);
    assert_eq!(cents(&l, "POT"), 0);
}
