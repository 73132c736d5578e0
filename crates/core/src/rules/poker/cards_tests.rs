//! The evaluator's tests: categories, kickers, wild cards, lows, every five-card hand
//! counted, and properties (suit permutation, card order, a wild card never lowers a hand).

use super::*;
use proptest::prelude::*;

fn hand(text: &str) -> Vec<Card> {
    parse_hand(text).unwrap()
}

fn h(text: &str) -> HandValue {
    high(&hand(text), Wild::default())
}

const NONE: Wild = Wild {
    jokers: false,
    deuces: false,
};
const DEUCES: Wild = Wild {
    jokers: false,
    deuces: true,
};
const JOKERS: Wild = Wild {
    jokers: true,
    deuces: false,
};

#[test]
fn categories_in_the_order_of_s004() {
    let ladder = [
        "AS KD QC JH 9S",
        "2S 2D QC JH 9S",
        "2S 2D QC QH 9S",
        "2S 2D 2C JH 9S",
        "AS 2D 3C 4H 5S",
        "2S 4S 6S 8S TS",
        "3S 3D 3C 2H 2S",
        "2S 2D 2C 2H 3S",
        "AH 2H 3H 4H 5H",
    ];
    let values: Vec<HandValue> = ladder.iter().map(|t| h(t)).collect();
    for pair in values.windows(2) {
        assert!(pair[0] < pair[1], "{:?} < {:?}", pair[0], pair[1]);
    }
    assert_eq!(h("TS JS QS KS AS").describe(), "royal flush");
    assert_eq!(
        h("AS 2D 3C 4H 5S").describe(),
        "wheel (straight, five high)"
    );
    assert_eq!(h("KC KD KH 2S 2C").describe(), "kings full of twos");
}

#[test]
fn no_wrap_around_and_the_wheel_is_the_lowest_straight() {
    // K-A-2-3-4 is ace high, not a straight (S004).
    assert_eq!(h("KS AD 2C 3H 4S").category(), Category::HighCard);
    assert!(h("AS 2D 3C 4H 5S") < h("2S 3D 4C 5H 6S"));
    assert!(h("TS JD QC KH AS") > h("9S TD JC QH KS"));
}

#[test]
fn kickers_count_to_the_last_card_and_suits_never_rank() {
    // Same pair of kings; the last kicker decides: 4 beats 3.
    assert!(h("KS KD 9C 7H 4S") > h("KH KC 9D 7S 3S"));
    // Two pair: same pairs, the kicker decides.
    assert!(h("KS KD 5C 5H 9S") > h("KH KC 5D 5S 8S"));
    // Full houses: trips first (S004: K-K-K-2-2 beats Q-Q-Q-A-A).
    assert!(h("KC KD KH 2S 2C") > h("QC QD QH AS AC"));
    // Identical ranks in other suits tie.
    assert_eq!(h("AS KS QD JD 9C"), h("AH KH QC JC 9D"));
    // Flushes compare like high cards, to the fifth card.
    assert!(h("AS KS QS JS 3S") > h("AH KH QH JH 2H"));
}

#[test]
fn wild_cards_make_the_best_hand() {
    // PK-08-a: four aces and a wild deuce are five aces, over a straight flush.
    let five_aces = high(&hand("AS AH AD AC 2C"), DEUCES);
    assert_eq!(five_aces.category(), Category::FiveOfAKind);
    assert!(five_aces > high(&hand("5H 6H 7H 8H 9H"), DEUCES));
    // A joker fills a straight flush at the top: 9-T-J-Q of hearts + joker = K high.
    let sf = high(&hand("9H TH JH QH JK"), JOKERS);
    assert_eq!(
        (sf.category(), sf.ranks()),
        (Category::StraightFlush, vec![13])
    );
    // Without jokers wild a joker is refused when the hand is read; were one to reach
    // the evaluator it would stand as a plain low card: queen high, no flush.
    assert_eq!(
        high(&hand("9H TH JH QH JK"), NONE).category(),
        Category::HighCard
    );
    // Deuces wild: 2-2-K-Q-7 off-suit is three kings (not a straight).
    let trips = high(&hand("2S 2D KC QH 7S"), DEUCES);
    assert_eq!(
        (trips.category(), trips.ranks()),
        (Category::Trips, vec![13, 12, 7])
    );
}

#[test]
fn seven_cards_play_their_best_five() {
    let v = high(&hand("2S 3D 4C 5H 9S KD 6C"), NONE);
    assert_eq!((v.category(), v.ranks()), (Category::Straight, vec![6]));
}

#[test]
fn lows_by_each_rule() {
    let a5 = |t: &str| low(&hand(t), NONE, LowRule::AceToFive);
    let d7 = |t: &str| low(&hand(t), NONE, LowRule::DeuceToSeven);
    // Ace-to-five: the wheel is the best low, its straight and a flush do not count.
    assert!(a5("AS 2D 3C 4H 5S") > a5("AS 2D 3C 4H 6S"));
    assert!(a5("AS 2S 3S 4S 6S") == a5("AD 2D 3C 4H 6S"));
    assert!(a5("8S 5D 4C 3H 2S") > a5("8S 6D 4C 3H 2S"));
    assert!(a5("KS QD JC 9H 8S") > a5("2S 2D 3C 4H 5S"));
    assert_eq!(a5("AS 2D 3C 4H 7S").describe(), "7-4-3-2-A low");
    // Deuce-to-seven: 7-5-4-3-2 is the best; the wheel is only ace high; a straight
    // or flush counts against the hand.
    assert!(d7("7S 5D 4C 3H 2S") > d7("7S 6D 4C 3H 2S"));
    assert!(d7("7S 5D 4C 3H 2S") > d7("AS 2D 3C 4H 5S"));
    assert!(d7("8S 6D 5C 4H 3S") > d7("2S 3D 4C 5H 6S"));
    assert!(d7("8S 6D 5C 4H 3D") > d7("8S 6S 5S 4S 3S"));
    // A wild card takes the best missing low card.
    assert_eq!(
        low(&hand("JK 2D 3C 4H 7S"), JOKERS, LowRule::AceToFive),
        a5("AS 2D 3C 4H 7S")
    );
}

#[test]
fn high_card_by_suit_orders_rank_then_suit() {
    assert_eq!(
        high_card(&hand("AS 2D 3C 4H 7S")),
        Some((14, CardSuit::Spades))
    );
    assert!(high_card(&hand("KS 2D 3C 4H 7S")) < high_card(&hand("KH AD 3S 4C 7C")));
    assert!(Some((13, CardSuit::Spades)) > Some((13, CardSuit::Hearts)));
}

#[test]
fn bad_cards_are_refused_in_words() {
    assert!(
        parse_hand("KS KD KC 4C")
            .unwrap_err()
            .contains("five cards")
    );
    assert!(parse_hand("KS KS KC 4C 8H").unwrap_err().contains("twice"));
    assert!(parse_hand("KS KD KC 4C 1H").unwrap_err().contains("rank"));
    assert!(parse_hand("KS KD KC 4C 8X").unwrap_err().contains("suit"));
    assert!(
        parse_hand("KS KD KC 4C 10H")
            .unwrap_err()
            .contains("not a card")
    );
}

/// Every five-card hand of the 52-card pack, counted by category: the known totals
/// (40 straight flushes, 624 fours, 3,744 full houses, 5,108 flushes, 10,200
/// straights, 54,912 threes, 123,552 two pairs, 1,098,240 pairs, 1,302,540 high
/// cards; 2,598,960 in all). Runs the no-wild fast path on all C(52,5) hands.
#[test]
fn every_five_card_hand_counted_by_category() {
    let pack: Vec<(u8, CardSuit)> = (2..=14u8)
        .flat_map(|r| CardSuit::ALL.iter().map(move |s| (r, *s)))
        .collect();
    let mut counts = [0u64; 10];
    let n = pack.len();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for e in d + 1..n {
                        let v = value_of_five([pack[a], pack[b], pack[c], pack[d], pack[e]]);
                        counts[v.category() as usize] += 1;
                    }
                }
            }
        }
    }
    assert_eq!(
        counts,
        [
            1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40, 0
        ]
    );
}

fn any_card() -> impl Strategy<Value = Card> {
    (2u8..=14, 0usize..4).prop_map(|(rank, s)| Card::Natural {
        rank,
        suit: CardSuit::ALL[s],
    })
}

fn five_distinct() -> impl Strategy<Value = Vec<Card>> {
    proptest::sample::subsequence(
        (2u8..=14)
            .flat_map(|r| {
                CardSuit::ALL
                    .iter()
                    .map(move |s| Card::Natural { rank: r, suit: *s })
            })
            .collect::<Vec<_>>(),
        5,
    )
    .prop_shuffle()
}

proptest! {
    #[test]
    fn rank_is_invariant_under_suit_permutation(
        cards in five_distinct(),
        perm in Just(CardSuit::ALL.to_vec()).prop_shuffle(),
    ) {
        let permuted: Vec<Card> = cards.iter().map(|c| match *c {
            Card::Natural { rank, suit } => Card::Natural { rank, suit: perm[suit as usize] },
            Card::Joker => Card::Joker,
        }).collect();
        prop_assert_eq!(high(&cards, NONE), high(&permuted, NONE));
        prop_assert_eq!(high(&cards, DEUCES), high(&permuted, DEUCES));
        prop_assert_eq!(low(&cards, NONE, LowRule::DeuceToSeven), low(&permuted, NONE, LowRule::DeuceToSeven));
    }

    #[test]
    fn rank_is_invariant_under_card_order(cards in five_distinct(), k in 0usize..5) {
        let mut rotated = cards.clone();
        rotated.rotate_left(k);
        prop_assert_eq!(high(&cards, DEUCES), high(&rotated, DEUCES));
        prop_assert_eq!(low(&cards, NONE, LowRule::AceToFive), low(&rotated, NONE, LowRule::AceToFive));
    }

    #[test]
    fn a_wild_card_never_lowers_a_hand(cards in five_distinct(), i in 0usize..5) {
        let mut with_joker = cards.clone();
        with_joker[i] = Card::Joker;
        // Replacing any card by a wild joker is at least as good as the card itself.
        prop_assert!(high(&with_joker, JOKERS) >= high(&cards, NONE));
        prop_assert!(low(&with_joker, JOKERS, LowRule::AceToFive) >= low(&cards, NONE, LowRule::AceToFive));
    }

    #[test]
    fn a_sixth_card_never_lowers_a_hand(cards in five_distinct(), extra in any_card()) {
        prop_assume!(!cards.contains(&extra));
        let mut six = cards.clone();
        six.push(extra);
        prop_assert!(high(&six, NONE) >= high(&cards, NONE));
    }
}
