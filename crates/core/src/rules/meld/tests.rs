//! The meld calculator against rules §1.0's tables by hand, per game.

#![allow(clippy::unwrap_used)]

use serde_json::json;

use super::*;
use crate::rules::{Outcome, SheetLine};

fn rules(game: &str) -> &'static MeldRules {
    MeldRules::of(game).unwrap()
}

fn points(game: &str, tapped: &[(Kind, u32)]) -> i64 {
    count(rules(game), tapped, None).unwrap().total
}

fn refused(game: &str, tapped: &[(Kind, u32)]) -> String {
    let e = count(rules(game), tapped, None).unwrap_err();
    assert_eq!(e.field, "melds");
    e.message
}

const SCARNE: [&str; 3] = ["auction_pinochle", "check_pinochle", "contract_pinochle"];
const THREE_HUNDRED: [&str; 3] = [
    "partnership_pinochle",
    "partnership_auction_pinochle",
    "two_handed_pinochle",
];

#[test]
fn every_meld_of_rules_1_0_once_in_every_game() {
    // Rules §1.0: run 150, royal marriage 40, marriage 20, dix 10; arounds 100/80/60/40;
    // pinochle 40; roundhouse 240 (the sum of its parts [R]).
    for g in games() {
        let one = |k| points(g.game, &[(k, 1)]);
        assert_eq!(one(Kind::Flush), 150, "{}", g.game);
        assert_eq!(one(Kind::RoyalMarriage), 40, "{}", g.game);
        assert_eq!(one(Kind::Marriage), 20, "{}", g.game);
        assert_eq!(one(Kind::Aces), 100, "{}", g.game);
        assert_eq!(one(Kind::Kings), 80, "{}", g.game);
        assert_eq!(one(Kind::Queens), 60, "{}", g.game);
        assert_eq!(one(Kind::Jacks), 40, "{}", g.game);
        assert_eq!(one(Kind::Pinochle), 40, "{}", g.game);
        assert_eq!(one(Kind::Roundhouse), 240, "{}", g.game);
        if g.game != "partnership_pinochle" {
            assert_eq!(one(Kind::Dix), 10, "{}", g.game);
        }
    }
}

#[test]
fn double_pinochle_is_80_in_scarnes_games_and_300_elsewhere() {
    for g in SCARNE {
        assert_eq!(points(g, &[(Kind::DoublePinochle, 1)]), 80, "{g}");
        assert_eq!(points(g, &[(Kind::Pinochle, 2)]), 80, "{g}: two pinochles");
    }
    for g in THREE_HUNDRED {
        assert_eq!(points(g, &[(Kind::DoublePinochle, 1)]), 300, "{g}");
        let c = count(rules(g), &[(Kind::Pinochle, 2)], None).unwrap();
        assert_eq!(
            (c.total, c.lines[0].name.as_str()),
            (300, "double pinochle"),
            "{g}"
        );
    }
}

#[test]
fn the_partnership_extras_where_the_game_has_them() {
    // Rules §1.5 (S002): double run 1,500, eight aces 1,000, kings 800, queens 600 (the
    // seed's 900 corrected, §4), jacks 400.
    for g in ["partnership_pinochle", "partnership_auction_pinochle"] {
        let two = |k| count(rules(g), &[(k, 2)], None).unwrap();
        assert_eq!(two(Kind::Flush).total, 1500, "{g}");
        assert_eq!(two(Kind::Flush).lines[0].name, "double run");
        assert_eq!(two(Kind::Aces).total, 1000, "{g}");
        assert_eq!(two(Kind::Aces).lines[0].name, "eight aces");
        assert_eq!(two(Kind::Kings).total, 800, "{g}");
        assert_eq!(two(Kind::Queens).total, 600, "{g}");
        assert_eq!(two(Kind::Jacks).total, 400, "{g}");
    }
    // Without extras a meld held twice scores twice: Scarne's "300 in trump".
    for g in [
        "auction_pinochle",
        "check_pinochle",
        "contract_pinochle",
        "two_handed_pinochle",
    ] {
        let two = |k| count(rules(g), &[(k, 2)], None).unwrap();
        assert_eq!(two(Kind::Flush).total, 300, "{g}");
        assert_eq!(two(Kind::Flush).lines[0].name, "2 × run");
        assert_eq!(two(Kind::Aces).total, 200, "{g}");
        assert_eq!(two(Kind::Kings).total, 160, "{g}");
        assert_eq!(two(Kind::Queens).total, 120, "{g}");
        assert_eq!(two(Kind::Jacks).total, 80, "{g}");
    }
}

#[test]
fn scarnes_721_point_hand_built_in_the_calculator() {
    // S000: double flush in diamonds, A♣ A♠ A♥, Q♠ Q♠: "480 points (300 in trump, 100
    // aces, and 80 Pinochle)", + 241 in tricks = 721.
    let g = rules("auction_pinochle");
    let hand = "AD AD TD TD KD KD QD QD JD JD AC AS AH QS QS";
    let cards = parse_cards(hand, g.hand).unwrap();
    let from = from_cards(g, &cards, Suit::Diamonds).unwrap();
    assert_eq!(from.total, 480);
    assert_eq!(
        from.words(),
        "2 × run 300 + 100 aces 100 + double pinochle 80 = 480"
    );
    assert_eq!(from.total + 241, 721);
    let tapped = [(Kind::Flush, 2), (Kind::Aces, 1), (Kind::DoublePinochle, 1)];
    let by_taps = with_cards(g, &tapped, &cards, Suit::Diamonds).unwrap();
    assert_eq!(by_taps, from);
    // The same 15 cards fill the hand: a spade marriage more needs a K♠ (its Q♠ is the
    // pinochles'), the 16th card.
    let more = [
        (Kind::Flush, 2),
        (Kind::Aces, 1),
        (Kind::DoublePinochle, 1),
        (Kind::Marriage, 1),
    ];
    assert!(
        count(g, &more, Some(Suit::Diamonds))
            .unwrap_err()
            .message
            .contains("at least 16 cards")
    );
}

#[test]
fn a_royal_marriage_inside_the_run_counts_only_in_two_handed() {
    let tapped = [(Kind::Flush, 1), (Kind::RoyalMarriage, 1)];
    // All meld at once: the run's K-Q is not a marriage too, so a royal marriage beside a
    // run needs a second K and Q of trump (12 cards with a run: possible).
    assert_eq!(points("auction_pinochle", &tapped), 190);
    let g = rules("auction_pinochle");
    let one_pair = parse_cards("AH TH KH QH JH", 15).unwrap();
    let e = with_cards(g, &tapped, &one_pair, Suit::Hearts).unwrap_err();
    assert!(e.message.contains("2 × K♥ (trump)"), "{}", e.message);
    assert_eq!(from_cards(g, &one_pair, Suit::Hearts).unwrap().total, 150);
    // Two-handed: a royal marriage melded first grows into the run (S004 rule 3): 190.
    let two = rules("two_handed_pinochle");
    assert_eq!(
        with_cards(two, &tapped, &one_pair, Suit::Hearts)
            .unwrap()
            .total,
        190
    );
    assert_eq!(from_cards(two, &one_pair, Suit::Hearts).unwrap().total, 190);
    // A double run beside a royal marriage: a third K of trump in every game but two-handed.
    let m = refused(
        "auction_pinochle",
        &[(Kind::Flush, 2), (Kind::RoyalMarriage, 1)],
    );
    assert!(m.contains("3 × K of trump"), "{m}");
    assert!(m.contains("not also a royal marriage"), "{m}");
    assert_eq!(
        points(
            "two_handed_pinochle",
            &[(Kind::Flush, 2), (Kind::RoyalMarriage, 1)]
        ),
        340
    );
}

#[test]
fn impossible_meld_is_refused_with_the_reason() {
    for g in games() {
        let m = refused(g.game, &[(Kind::Pinochle, 1), (Kind::DoublePinochle, 1)]);
        assert!(m.contains("3 pinochles need 3 queens of spades"), "{m}");
        let m = refused(g.game, &[(Kind::Flush, 3)]);
        assert!(m.contains("3 × A of trump"), "{}: {m}", g.game);
        let m = refused(g.game, &[(Kind::Marriage, 7)]);
        assert!(m.contains("marriage need 3 ×"), "{}: {m}", g.game);
        let m = refused(g.game, &[(Kind::Roundhouse, 1), (Kind::Kings, 2)]);
        assert!(m.contains("3 × K"), "{}: {m}", g.game);
    }
    // More cards than a hand holds: a double run (10 cards) and eight kings (8, two of
    // them the runs' kings) are 16 cards.
    let big = [(Kind::Flush, 2), (Kind::Kings, 2)];
    assert!(refused("partnership_pinochle", &big).contains("at least 16 cards; a hand holds 12"));
    assert!(refused("auction_pinochle", &big).contains("a hand holds 15"));
    assert_eq!(
        points("contract_pinochle", &big),
        460,
        "the side's 24 cards hold them"
    );
    // The dix of Partnership Pinochle is entered as dix holders, not meld.
    let e = count(rules("partnership_pinochle"), &[(Kind::Dix, 1)], None).unwrap_err();
    assert!(e.message.contains("dix holders"));
}

#[test]
fn a_double_run_with_one_queen_of_trump_is_refused() {
    let g = rules("auction_pinochle");
    let cards = parse_cards("AS AS TS TS KS KS QS JS JS", 15).unwrap();
    let e = with_cards(g, &[(Kind::Flush, 2)], &cards, Suit::Spades).unwrap_err();
    assert_eq!(e.field, "melds");
    assert!(
        e.message
            .contains("run need 2 × Q♠ (trump); the cards show 1"),
        "{}",
        e.message
    );
    assert_eq!(from_cards(g, &cards, Suit::Spades).unwrap().total, 150);
}

#[test]
fn cards_outside_the_deck_or_the_hand_are_refused() {
    assert!(
        parse_cards("8S", 15)
            .unwrap_err()
            .message
            .contains("not a pinochle card")
    );
    assert!(
        parse_cards("QS qs Q♠", 15)
            .unwrap_err()
            .message
            .contains("three times")
    );
    let sixteen = "AS AS TS TS KS KS QS QS JS JS 9S 9S AH AH TH TH";
    assert!(
        parse_cards(sixteen, 15)
            .unwrap_err()
            .message
            .contains("16 cards are more than a hand holds here (15)")
    );
    assert_eq!(
        parse_cards("10D, TD ♦K", 15).map(|c| c.len()).ok(),
        None,
        "♦K is suit first"
    );
    assert_eq!(parse_cards("10D, TD K♦", 15).unwrap().len(), 3);
}

#[test]
fn a_trump_known_shares_the_queen_of_spades_between_run_and_pinochle() {
    // Double run in spades + double pinochle: the run's two Q♠ are the pinochles' (classes
    // A and C), so 10 + 2 J♦ = 12 cards: one partnership hand. In hearts it is 14.
    let tapped = [(Kind::Flush, 2), (Kind::DoublePinochle, 1)];
    let g = rules("partnership_pinochle");
    assert_eq!(count(g, &tapped, Some(Suit::Spades)).unwrap().total, 1800);
    assert!(
        count(g, &tapped, Some(Suit::Hearts))
            .unwrap_err()
            .message
            .contains("at least 14 cards")
    );
    assert_eq!(
        count(g, &tapped, None).unwrap().total,
        1800,
        "some trump fits"
    );
}

fn outcome() -> Outcome {
    Outcome::new(Vec::new(), "Ann made 350.", SheetLine::default())
}

#[test]
fn meld_detail_must_add_up_to_the_meld_typed() {
    let seated = ["Ann", "Bob", "Cy", "Di"].map(String::from);
    let g = MeldRules::of("auction_pinochle");
    let hand = json!({"bidder": "Ann", "meld": 250, "trump": "hearts"});
    let hand = hand.as_object().unwrap();
    let ok = json!({"Ann": ["flush", "aces_100"]});
    let o = detail::annotate(g, hand, &ok, &seated, outcome()).unwrap();
    assert_eq!(
        o.explanation,
        "Ann made 350. Meld named: Ann run 150 + 100 aces 100 = 250."
    );
    let short = json!({"Ann": ["flush"]});
    let e = detail::annotate(g, hand, &short, &seated, outcome()).unwrap_err();
    assert_eq!(e.field, "meld_detail");
    assert!(
        e.message
            .contains("add up to 150, not the 250 typed as meld")
    );
    let other = json!({"Bob": ["flush"]});
    assert_eq!(
        detail::annotate(g, hand, &other, &seated, outcome())
            .unwrap_err()
            .field,
        "meld_detail.Bob"
    );
    let unknown = json!({"Ann": ["flush", "grand slam"]});
    let e = detail::annotate(g, hand, &unknown, &seated, outcome()).unwrap_err();
    assert_eq!(e.field, "meld_detail.Ann");
    let none = detail::annotate(
        MeldRules::of("contract_pinochle"),
        hand,
        &ok,
        &seated,
        outcome(),
    );
    assert!(none.unwrap_err().message.contains("no meld field"));
    assert!(detail::annotate(None, hand, &ok, &seated, outcome()).is_err());
}

#[test]
fn partners_melds_add_up_to_the_sides() {
    let seated = ["Ann", "Bob", "Cy", "Di"].map(String::from);
    let g = MeldRules::of("partnership_pinochle");
    let hand = json!({"NS": {"meld": 1040}, "EW": {"meld": 20}, "trump": "clubs"});
    let hand = hand.as_object().unwrap();
    // Ann eight aces 1,000, Cy a pinochle 40: NS 1,040; Bob a marriage: EW 20; Di none.
    let named = json!({"Ann": ["aces_100", "aces_100"], "Cy": ["pinochle"], "Bob": ["marriage"]});
    let o = detail::annotate(g, hand, &named, &seated, outcome()).unwrap();
    assert!(
        o.explanation
            .contains("Ann eight aces 1000; Cy pinochle 40; Bob marriage 20."),
        "{}",
        o.explanation
    );
    let wrong = json!({"Ann": ["aces_100"], "Cy": ["pinochle"]});
    let e = detail::annotate(g, hand, &wrong, &seated, outcome()).unwrap_err();
    assert!(
        e.message
            .contains("named for Ann and Cy add up to 140, not the 1040 typed as NS.meld"),
        "{}",
        e.message
    );
}

#[test]
fn check_pinochle_names_a_roundhouse_and_two_handed_grows_its_royal_marriage_into_the_run() {
    // Check Pinochle pays a roundhouse its own checks (rules §3 item 21): the calculator
    // names it rather than its kings, queens and marriages.
    let check = rules("check_pinochle");
    let round = parse_cards("KS KH KD KC QS QH QD QC", check.hand).unwrap();
    assert_eq!(
        from_cards(check, &round, Suit::Hearts).unwrap().words(),
        "roundhouse 240"
    );
    // With the K-Q of trump in the run (Scarne: not also a royal marriage) there is none.
    let run = parse_cards("AH TH KH QH JH KS QS KD QD KC QC", check.hand).unwrap();
    let counted = from_cards(check, &run, Suit::Hearts).unwrap();
    assert_eq!(counted.total, 150 + 3 * 20 + 80 + 60);
    assert!(counted.lines.iter().all(|l| l.meld != "roundhouse"));
    // Elsewhere the same cards read as the parts, for the same 240.
    let auction = rules("auction_pinochle");
    let parts = from_cards(auction, &round, Suit::Hearts).unwrap();
    assert_eq!(parts.total, 240);
    assert!(parts.lines.iter().all(|l| l.meld != "roundhouse"));

    // Two-handed (S004 rule 3): the run's K-Q of trump is the roundhouse's royal marriage,
    // so run + roundhouse tapped is the 390 the cards count as parts.
    let two = rules("two_handed_pinochle");
    let cards = parse_cards("KS KH KD KC QS QH QD QC AS TS JS", two.hand).unwrap();
    assert_eq!(from_cards(two, &cards, Suit::Spades).unwrap().total, 390);
    let tapped = [(Kind::Flush, 1), (Kind::Roundhouse, 1)];
    let counted = with_cards(two, &tapped, &cards, Suit::Spades).unwrap();
    assert_eq!(counted.total, 390);
    // In Scarne's games a run's king is no one else's: the same tap needs a second K♠.
    let refusal = with_cards(auction, &tapped, &cards, Suit::Spades).unwrap_err();
    assert!(refusal.message.contains("2 × K♠"), "{}", refusal.message);
}
