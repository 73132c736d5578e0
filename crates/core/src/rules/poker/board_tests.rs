//! Boards and the 8-or-better qualifier (session-format, "Boards and qualifiers"): Hold'em,
//! Omaha and Omaha Hi-Lo showdowns through `replay`, every number worked by hand in the
//! comment beside it (chips of 0.05), refusals by field, and a brute-force property: the
//! best hand is the best of every five-card choice the variant allows, each valued by the
//! plain five-card evaluator.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::format::{LedgerDoc, Refusal};
use crate::rules::poker::board;
use crate::rules::poker::cards::{CardSuit, Category, value_of_five};
use crate::rules::replay_tests;

/// A poker session at `players` (no scores to carry in) played through `replay`.
fn run(agreements: Value, players: &[&str], events: Vec<Value>) -> Result<LedgerDoc, Refusal> {
    replay_tests::run("poker", players, agreements, Value::Null, events)
}

/// Each player's balance in cents, in the order named.
fn cents(agreements: Value, players: &[&str], hand: Value) -> Vec<i64> {
    let l = run(agreements, players, vec![hand]).unwrap();
    players
        .iter()
        .map(|p| l.balances.get(*p).map_or(0, |m| m.cents()))
        .collect()
}

/// The field a refused hand names.
fn refused(agreements: Value, hand: Value) -> (String, String) {
    let r = run(agreements, &ABC, vec![hand]).unwrap_err();
    (r.field.to_string(), r.message)
}

const ABC: [&str; 3] = ["Ann", "Bob", "Cy"];

fn c(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|t| Card::parse(t).unwrap())
        .collect()
}

const NONE: Wild = Wild {
    jokers: false,
    deuces: false,
};

/// A hand where Ann and Bob put in `each` and Cy folded on `cy`, Cy dealing.
fn showdown(each: &str, cy: &str, split: &str, board: &str, ann: &str, bob: &str) -> Value {
    json!({"type": "hand", "dealer": "Cy",
           "contributions": {"Ann": each, "Bob": each, "Cy": cy},
           "folded": ["Cy"], "all_in": [], "split": split,
           "board": board, "cards": {"Ann": ann, "Bob": bob}})
}

#[test]
fn holdem_a_board_that_plays_for_both_splits_the_pot() {
    // Board A-K-Q-J-T: both play the board's straight, ace high (their 2-3 and 5-5 do not
    // help). Pot 0.50 + 0.50 + 0.05 = 21 chips: 10 each, the odd chip to the first tied
    // winner left of the dealer Cy, Ann. Ann 0.55 − 0.50 = +0.05, Bob 0, Cy −0.05.
    let hand = showdown("0.50", "0.05", "high", "AH KD QC JS TH", "2C 3D", "5S 5D");
    assert_eq!(
        cents(json!({"variant": "holdem"}), &ABC, hand),
        vec![5, 0, -5]
    );
}

#[test]
fn holdem_the_kicker_in_the_hole_decides() {
    // Board A-A-7-4-2: Ann A-A-K-7-4 beats Bob A-A-Q-7-4 on the king. Pot 1.05 to Ann.
    let hand = showdown("0.50", "0.05", "high", "AH AD 7C 4S 2D", "KS 3C", "QH 3D");
    assert_eq!(
        cents(json!({"variant": "holdem"}), &ABC, hand),
        vec![55, -50, -5]
    );
    let l = run(json!({"variant": "holdem"}), &ABC, vec![hand_again()]).unwrap();
    let words = &l.events[0].explanation;
    assert!(words.contains("on the kickers"), "{words}");
}

fn hand_again() -> Value {
    showdown("0.50", "0.05", "high", "AH AD 7C 4S 2D", "KS 3C", "QH 3D")
}

#[test]
fn omaha_must_use_exactly_two_hole_cards() {
    // Four hearts on the board and one in Ann's hand: no flush in Omaha (two hole cards and
    // three of the board), so Ann has only A-K-Q-9-8 high; Bob's 5-5 with A-K-9 is a pair
    // and takes the pot 1.05. In Hold'em the same cards would give Ann a flush.
    let board = c("AH KH 9H 4H 2C");
    let ann = c("QH 8S 7D 3C");
    assert_eq!(
        board::high(&ann, &board, Variant::Omaha, NONE).category(),
        Category::HighCard
    );
    assert_eq!(
        board::high(&ann[..2], &board, Variant::Holdem, NONE).category(),
        Category::Flush
    );
    let hand = showdown(
        "0.50",
        "0.05",
        "high",
        "AH KH 9H 4H 2C",
        "QH 8S 7D 3C",
        "5S 5D JC TC",
    );
    assert_eq!(
        cents(json!({"variant": "omaha"}), &ABC, hand),
        vec![-50, 55, -5]
    );
}

#[test]
fn omaha_hi_lo_high_and_low_split() {
    // Board 2-5-8-K-Q. Ann KH KD with K-Q-8 of the board: three kings, and no low (K-K-9-9
    // has no two cards of 8 or lower). Bob A-3 with 2-5-8: 8-5-3-2-A, a qualifying low; his
    // high is only queens (QD with the board's QS). Pot 21 chips: high half 11 to Ann (the
    // odd chip goes high), low half 10 to Bob. Ann +0.05, Bob 0.00, Cy −0.05.
    let hand = showdown(
        "0.50",
        "0.05",
        "high_low",
        "2H 5C 8D KS QS",
        "KH KD 9C 9D",
        "AC 3H QD JH",
    );
    let a = json!({"variant": "omaha", "eight_or_better": true});
    assert_eq!(cents(a.clone(), &ABC, hand.clone()), vec![5, 0, -5]);
    let l = run(a, &ABC, vec![hand]).unwrap();
    let words = &l.events[0].explanation;
    assert!(
        words.contains("Bob has the only low of 8 or better, 8-5-3-2-A low → Bob (low half 0.50)"),
        "{words}"
    );
}

#[test]
fn with_a_board_the_odd_chip_by_suit_goes_by_the_hole_cards() {
    // Both play the board's A-K-Q-J-T; 21 chips, 10 each. By the highest card by suit the
    // board (everyone's) decides nothing: Bob's 5S beats Ann's 3D, so Bob takes the odd
    // chip (first left of the dealer it would be Ann's). Ann 0.00, Bob +0.05, Cy −0.05.
    let hand = showdown("0.50", "0.05", "high", "AH KD QC JS TH", "2C 3D", "5S 4S");
    let a = json!({"variant": "holdem", "odd_chip": "high_card_by_suit"});
    assert_eq!(cents(a, &ABC, hand), vec![0, 5, -5]);
}

#[test]
fn stud_eight_or_better_with_own_cards() {
    // Seven-card stud, each his own seven cards. Ann: kings, low 9-4-3-2-A (only four ranks
    // of 8 or lower); Bob: three queens, low Q-T-7-6-5. With 8-or-better neither low
    // qualifies and Bob's queens take the whole 1.00: Bob +0.50. Without it Ann's 9-low
    // takes the low half: 0.50 each, nobody wins.
    let hand = showdown(
        "0.50",
        "0.00",
        "high_low",
        "",
        "AS 2D 3C 4H 9S KD KC",
        "QS QD QC 7H 6D 5S TC",
    );
    let mut hand = hand;
    hand.as_object_mut().unwrap().remove("board");
    assert_eq!(
        cents(json!({"eight_or_better": true}), &ABC, hand.clone()),
        vec![-50, 50, 0]
    );
    assert_eq!(cents(json!({}), &ABC, hand), vec![0, 0, 0]);
}

#[test]
fn omaha_hi_lo_two_lows_tie_and_the_odd_chip_goes_by_rrp() {
    // Board 2-5-8-K-Q. Ann AS 3D KH KD: three kings high and 8-5-3-2-A low; Bob AC 3H QD JH:
    // the same low. Pot 0.50 + 0.50 + 0.15 (Cy folded) = 23 chips: high 12 to Ann (the
    // division's odd chip), low 11 shared 5 and 5, its odd chip to Bob: the first left of
    // the dealer is Ann, but she has had this pot's odd chip (RRP: never more than one).
    // Ann 17 chips 0.85 − 0.50 = +0.35, Bob 6 chips 0.30 − 0.50 = −0.20, Cy −0.15.
    let hand = showdown(
        "0.50",
        "0.15",
        "high_low",
        "2H 5C 8D KS QS",
        "AS 3D KH KD",
        "AC 3H QD JH",
    );
    let a = json!({"variant": "omaha", "eight_or_better": true});
    assert_eq!(cents(a, &ABC, hand), vec![35, -20, -15]);
}

fn no_low_hand() -> Value {
    // Board 9-T-J-2-3: only two board cards of 8 or lower, so no Omaha low can qualify.
    // Ann KC QC with 9-T-J: a straight, king high; her low 9-8-7-3-2. Bob 9D 9S with 9C:
    // three nines; his low A-4 with 2-3-9: 9-4-3-2-A, the better low.
    showdown(
        "0.50",
        "0.00",
        "high_low",
        "9C TD JH 2S 3S",
        "KC QC 8D 7D",
        "AH 4H 9D 9S",
    )
}

#[test]
fn eight_or_better_with_no_qualifying_low_the_high_hand_scoops() {
    // With 8-or-better no low qualifies: Ann's straight takes the whole pot 1.00, +0.50.
    let a = json!({"variant": "omaha", "eight_or_better": true});
    assert_eq!(cents(a.clone(), &ABC, no_low_hand()), vec![50, -50, 0]);
    let l = run(a, &ABC, vec![no_low_hand()]).unwrap();
    assert!(
        l.events[0].explanation.contains("no low is 8 or better"),
        "{}",
        l.events[0].explanation
    );
    // Without the qualifier Bob's 9-low takes the low half: 0.50 each, nobody wins or loses.
    assert_eq!(
        cents(json!({"variant": "omaha"}), &ABC, no_low_hand()),
        vec![0, 0, 0]
    );
}

#[test]
fn holdem_side_pots_with_a_board() {
    // Board K-K-7-4-2. Ann all-in for 0.20 with KH 4D: kings full of fours; Bob 7S 7C:
    // sevens full of kings; Cy QH JH: a pair of kings. Main pot 0.20 × 3 = 0.60 (all three)
    // to Ann; side pot 0.40 × 2 = 0.80 (Bob, Cy) to Bob. Ann +0.40, Bob +0.20, Cy −0.60.
    let hand = json!({"type": "hand", "dealer": "Cy",
        "contributions": {"Ann": "0.20", "Bob": "0.60", "Cy": "0.60"},
        "folded": [], "all_in": ["Ann"], "split": "high", "board": "KS KD 7H 4C 2S",
        "cards": {"Ann": "KH 4D", "Bob": "7S 7C", "Cy": "QH JH"}});
    assert_eq!(
        cents(json!({"variant": "holdem"}), &ABC, hand),
        vec![40, 20, -60]
    );
}

#[test]
fn eight_or_better_by_places_lists_only_the_qualifying_lows() {
    // Places, no cards: an empty low showdown means no low qualified, so Ann's high takes
    // the whole 1.00 pot (+0.50); a low showdown naming Bob alone splits it.
    let hand = |low: Value| {
        json!({"type": "hand", "dealer": "Cy",
               "contributions": {"Ann": "0.50", "Bob": "0.50", "Cy": "0.00"},
               "folded": ["Cy"], "split": "high_low",
               "showdown": [["Ann"], ["Bob"]], "showdown_low": low})
    };
    let a = json!({"eight_or_better": true});
    assert_eq!(cents(a.clone(), &ABC, hand(json!([]))), vec![50, -50, 0]);
    assert_eq!(cents(a, &ABC, hand(json!([["Bob"]]))), vec![0, 0, 0]);
    // Without the qualifier every player still in needs a low place.
    let r = run(json!({}), &ABC, vec![hand(json!([["Bob"]]))]).unwrap_err();
    assert_eq!(r.field, "showdown_low");
}

#[test]
fn boards_and_hole_cards_are_refused_naming_the_field() {
    let holdem = json!({"variant": "holdem"});
    // A board at a table that plays its own cards.
    let own = showdown(
        "0.50",
        "0.00",
        "high",
        "AH KD 7C 7S 2D",
        "2C 3D 4H 5S 9C",
        "QH QD QC 8S 8H",
    );
    assert_eq!(refused(json!({}), own).0, "board");
    // A card on the board and in a hand.
    let (field, message) = refused(
        holdem.clone(),
        showdown("0.50", "0.00", "high", "AH KD 7C 7S 2D", "AH 3D", "QH QD"),
    );
    assert_eq!(field, "cards.Ann");
    assert!(message.contains("AH is on the board"), "{message}");
    // A card twice on the board; too few board cards.
    assert_eq!(
        refused(
            holdem.clone(),
            showdown("0.50", "0.00", "high", "AH AH 7C 7S 2D", "2C 3D", "QH QD")
        )
        .0,
        "board"
    );
    assert_eq!(
        refused(
            holdem.clone(),
            showdown("0.50", "0.00", "high", "AH KD", "2C 3D", "QH QD")
        )
        .0,
        "board"
    );
    // Three hole cards in Hold'em; two in Omaha: the player is named.
    let (field, message) = refused(
        holdem.clone(),
        showdown(
            "0.50",
            "0.00",
            "high",
            "AH KD 7C 7S 2D",
            "2C 3D",
            "QH QD QC",
        ),
    );
    assert_eq!(field, "cards.Bob");
    assert!(
        message.starts_with("Bob: Hold'em deals 2 hole cards"),
        "{message}"
    );
    let omaha = showdown(
        "0.50",
        "0.00",
        "high",
        "AH KD 7C 7S 2D",
        "2C 3D",
        "QH QD 9S 9H",
    );
    assert_eq!(refused(json!({"variant": "omaha"}), omaha).0, "cards.Ann");
    // Hole cards with no board.
    let mut no_board = showdown("0.50", "0.00", "high", "", "2C 3D", "QH QD");
    no_board.as_object_mut().unwrap().remove("board");
    assert_eq!(refused(holdem, no_board).0, "board");
}

#[test]
fn a_board_of_three_or_four_cards_plays() {
    // Everyone all-in on the flop, the rest not dealt (session-format: 3 to 5 cards). Board
    // 9-9-4: Ann A-A-9-9-4 two pair beats Bob's K-K-9-9-4; pot 1.05 to Ann.
    let hand = showdown("0.50", "0.05", "high", "9S 9D 4C", "AS AD", "KS KD");
    assert_eq!(
        cents(json!({"variant": "holdem"}), &ABC, hand),
        vec![55, -50, -5]
    );
}

#[test]
fn eight_or_better_reads_five_different_ranks_aces_low() {
    let low = |t: &str| cards::low(&c(t), NONE, LowRule::AceToFive);
    assert!(board::eight_or_better(low("8S 7D 4C 2H AS")));
    assert!(board::eight_or_better(low("5S 4D 3C 2H AS")));
    assert!(
        !board::eight_or_better(low("9S 7D 4C 2H AS")),
        "a nine is too high"
    );
    assert!(
        !board::eight_or_better(low("8S 8D 4C 2H AS")),
        "a pair is not five ranks"
    );
}

fn natural(card: Card) -> (u8, CardSuit) {
    match card {
        Card::Natural { rank, suit } => (rank, suit),
        Card::Joker => (2, CardSuit::Clubs),
    }
}

/// Nine different cards: four hole cards then five for the board.
fn deal() -> impl Strategy<Value = Vec<Card>> {
    proptest::sample::subsequence(
        (2u8..=14)
            .flat_map(|r| {
                CardSuit::ALL
                    .iter()
                    .map(move |s| Card::Natural { rank: r, suit: *s })
            })
            .collect::<Vec<_>>(),
        9,
    )
    .prop_shuffle()
}

/// Whether five cards make an 8-or-better low, read straight from their ranks.
fn is_eight_low(five: &[Card]) -> bool {
    let mut ranks: Vec<u8> = five
        .iter()
        .map(|c| natural(*c).0)
        .map(|r| if r == 14 { 1 } else { r })
        .collect();
    ranks.sort_unstable();
    ranks.dedup();
    ranks.len() == 5 && ranks.iter().all(|r| *r <= 8)
}

/// Every choice of `k` of the indices `0..n`, written out plainly (not the code under
/// test's own enumeration).
fn choose(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    (0..n)
        .flat_map(|last| {
            choose(last, k - 1).into_iter().map(move |mut v| {
                v.push(last);
                v
            })
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_best_hand_is_the_best_allowed_five(cards in deal()) {
        let (hole, board) = cards.split_at(4);
        // Hold'em: every five of the 2 hole cards and 5 board cards (21 choices).
        let seven: Vec<Card> = hole[..2].iter().chain(board).copied().collect();
        let fives = choose(7, 5);
        prop_assert_eq!(fives.len(), 21);
        let best = fives
            .iter()
            .map(|i| value_of_five([i[0], i[1], i[2], i[3], i[4]].map(|i| natural(seven[i]))))
            .max();
        prop_assert_eq!(Some(board::high(&hole[..2], board, Variant::Holdem, NONE)), best);
        // Omaha: each two of the 4 hole cards with each three of the board (6 × 10), high
        // and low, and whether any allowed five is an 8-or-better low.
        let (mut high, mut low, mut eight) = (None, None, false);
        for two in choose(4, 2) {
            for three in choose(5, 3) {
                let five = [hole[two[0]], hole[two[1]], board[three[0]], board[three[1]], board[three[2]]];
                high = high.max(Some(value_of_five(five.map(natural))));
                low = low.max(Some(cards::low(&five, NONE, LowRule::AceToFive)));
                eight |= is_eight_low(&five);
            }
        }
        prop_assert_eq!(Some(board::high(hole, board, Variant::Omaha, NONE)), high);
        let omaha_low = board::low(hole, board, Variant::Omaha, NONE, LowRule::AceToFive);
        prop_assert_eq!(Some(omaha_low), low);
        prop_assert_eq!(board::eight_or_better(omaha_low), eight);
    }
}
