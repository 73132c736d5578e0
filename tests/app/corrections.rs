//! Corrections never erase: `void` and `correction` events keep the original postings as
//! history and post the difference, so balances, scores and games follow.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use proptest::prelude::*;
use scorekeeper::format::{LedgerDoc, Refusal, SessionDoc, replay};
use scorekeeper::money::Money;
use serde_json::{Value, json};

use crate::common::hands::{OUTCOMES, SUITS};

fn doc(game: &str, agreements: Value, players: &[&str], events: Vec<Value>) -> SessionDoc {
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": game, "agreements": agreements,
        "players": players, "events": events
    }))
    .unwrap()
}

fn pinochle(events: Vec<Value>) -> Result<LedgerDoc, Refusal> {
    replay(&doc(
        "auction_pinochle",
        json!({"stake": "0.05", "kitty": "pot"}),
        &["A", "B", "C"],
        events,
    ))
}

fn hand(dealer: &str, bidder: &str, bid: i64, trump: &str, outcome: &str) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": bid, "trump": trump, "outcome": outcome})
}

fn balance(l: &LedgerDoc, who: &str) -> Money {
    l.balances.get(who).copied().unwrap_or(Money::ZERO)
}

#[test]
fn a_corrected_suit_posts_the_difference_and_keeps_the_original() {
    // "That was hearts, not spades": 350 made in spades paid 0.40 each; in hearts 0.20 each.
    let first = hand("C", "A", 350, "spades", "made");
    let ledger = pinochle(vec![
        first.clone(),
        json!({"type": "correction", "event": 0, "replacement": hand("C", "A", 350, "hearts", "made"), "reason": "that was hearts, not spades"}),
    ])
    .unwrap();
    let direct = pinochle(vec![hand("C", "A", 350, "hearts", "made")]).unwrap();
    assert_eq!(ledger.balances, direct.balances);
    // The original entry is still there, unchanged: A +0.80 +0.30 kitty − 0.10 re-ante.
    let original = &ledger.events[1];
    assert!(
        original
            .postings
            .iter()
            .any(|p| p.account == "A" && p.amount == Money::from_cents(100))
    );
    let correction = &ledger.events[2];
    assert_eq!(correction.kind, "correction");
    let sum: Money = correction.postings.iter().map(|p| p.amount).sum();
    assert_eq!(sum, Money::ZERO);
    assert!(
        correction
            .explanation
            .starts_with("Hand 1 corrected (that was hearts, not spades): now A bid 350 in hearts")
    );
    assert!(
        correction.explanation.contains("A −0.40"),
        "{}",
        correction.explanation
    );
}

#[test]
fn undo_last_hand_restores_balances_and_the_kitty() {
    let events = vec![
        json!({"type": "hand", "dealer": "A", "all_passed": true}),
        hand("B", "C", 400, "spades", "failed"),
    ];
    let before = pinochle(events[..1].to_vec()).unwrap();
    let mut undone = events.clone();
    undone.push(json!({"type": "void", "event": 1, "reason": "wrong table"}));
    let after = pinochle(undone.clone()).unwrap();
    assert_eq!(after.balances, before.balances);
    assert_eq!(after.kitty, before.kitty);
    assert!(
        after
            .events
            .last()
            .unwrap()
            .explanation
            .starts_with("Hand 2 undone (wrong table)")
    );
    // Undoing it twice is refused, and so is undoing a later or unknown event.
    let mut twice = undone.clone();
    twice.push(json!({"type": "void", "event": 1}));
    let refusal = pinochle(twice).unwrap_err();
    assert_eq!(
        (refusal.event_index, refusal.field.as_str()),
        (Some(3), "event")
    );
    let mut ahead = events.clone();
    ahead.push(json!({"type": "void", "event": 7}));
    assert_eq!(pinochle(ahead).unwrap_err().field, "event");
}

#[test]
fn refused_corrections_name_the_field() {
    let base = vec![hand("C", "A", 300, "clubs", "made")];
    let bad_bid = [base.clone(), vec![json!({"type": "correction", "event": 0, "replacement": hand("C", "A", 245, "clubs", "made")})]].concat();
    let r = pinochle(bad_bid).unwrap_err();
    assert_eq!(
        (r.event_index, r.field.as_str()),
        (Some(1), "replacement.bid")
    );
    let wrong_type = [
        base.clone(),
        vec![json!({"type": "correction", "event": 0, "replacement": {"type": "close"}})],
    ]
    .concat();
    assert_eq!(pinochle(wrong_type).unwrap_err().field, "replacement.type");
    let after_close = [
        base.clone(),
        vec![
            json!({"type": "close"}),
            json!({"type": "void", "event": 0}),
        ],
    ]
    .concat();
    assert_eq!(pinochle(after_close).unwrap_err().event_index, Some(2));
    // Removing the newcomer makes his later hand impossible.
    let joins = vec![
        json!({"type": "player_joins", "player": "D"}),
        hand("A", "D", 300, "clubs", "made"),
        json!({"type": "void", "event": 0}),
    ];
    let r = pinochle(joins).unwrap_err();
    assert_eq!(r.event_index, Some(2));
    assert!(
        r.message
            .starts_with("with this change a later entry (event 1) would be refused: D is not"),
        "{}",
        r.message
    );
}

#[test]
fn undoing_a_correction_or_an_undo_says_what_it_is_and_how_to_take_it_back() {
    let corrected = vec![
        hand("C", "A", 300, "clubs", "made"),
        json!({"type": "correction", "event": 0, "replacement": hand("C", "A", 300, "hearts", "made")}),
    ];
    for kind in ["void", "correction"] {
        let mut events = corrected.clone();
        let mut amend = json!({"type": kind, "event": 1});
        if kind == "correction" {
            amend["replacement"] = hand("C", "A", 300, "spades", "made");
        }
        events.push(amend);
        let r = pinochle(events).unwrap_err();
        assert_eq!((r.event_index, r.field.as_str()), (Some(2), "event"));
        assert!(
            r.message.starts_with("event 1 is a correction of event 0")
                && r.message
                    .ends_with("to take it back, correct event 0 again"),
            "{}",
            r.message
        );
    }
    // Correcting event 0 again (back to clubs) is what takes the correction back.
    let mut again = corrected.clone();
    again.push(json!({"type": "correction", "event": 0, "replacement": hand("C", "A", 300, "clubs", "made")}));
    assert!(pinochle(again).is_ok());
    // An undo is taken back by entering the event again; an undone event is undone already.
    let undone = vec![
        hand("C", "A", 300, "clubs", "made"),
        json!({"type": "void", "event": 0}),
    ];
    let r =
        pinochle([undone.clone(), vec![json!({"type": "void", "event": 1})]].concat()).unwrap_err();
    assert!(
        r.message.starts_with("event 1 is the undo of event 0"),
        "{}",
        r.message
    );
    let r = pinochle([undone, vec![json!({"type": "void", "event": 0})]].concat()).unwrap_err();
    assert_eq!(r.message, "event 0 was already undone");
}

#[test]
fn a_pitch_correction_changes_the_scores_and_the_game() {
    let agreements = json!({"stake": "0.05", "target": 5});
    let players = ["A", "B", "C"];
    let h = |dealer: &str, pitcher: &str, bid: i64, high: &str| {
        json!({"type": "hand", "dealer": dealer, "pitcher": pitcher, "bid": bid,
               "points": {"high": high, "low": high, "jack": null, "game": high}})
    };
    let events = vec![h("C", "A", 2, "A"), h("A", "B", 2, "B")];
    let ledger = replay(&doc(
        "auction_pitch",
        agreements.clone(),
        &players,
        events.clone(),
    ))
    .unwrap();
    assert!(ledger.games.is_empty(), "A and B have 3 each, short of 5");
    // Hand 2's points were really A's: B is set back 2 and A, at 6, is the only one out.
    let mut corrected = events.clone();
    corrected.push(json!({"type": "correction", "event": 1, "replacement": h("A", "B", 2, "A")}));
    let ledger = replay(&doc(
        "auction_pitch",
        agreements.clone(),
        &players,
        corrected,
    ))
    .unwrap();
    let direct = replay(&doc(
        "auction_pitch",
        agreements,
        &players,
        vec![events[0].clone(), h("A", "B", 2, "A")],
    ))
    .unwrap();
    assert_eq!(ledger.games.len(), 1);
    assert_eq!(ledger.games[0].winner.as_deref(), Some("A"));
    assert_eq!(ledger.games, direct.games);
    assert_eq!(ledger.scores, direct.scores);
    assert_eq!(ledger.balances, direct.balances);
}

fn random_hand() -> impl Strategy<Value = (bool, usize, i64, usize, usize)> {
    (
        proptest::bool::weighted(0.2),
        0usize..3,
        0i64..40,
        0usize..4,
        0usize..5,
    )
}

fn build(
    i: usize,
    (passed, bidder, steps, suit, outcome): (bool, usize, i64, usize, usize),
) -> Value {
    let players = ["A", "B", "C"];
    let dealer = players[i % 3];
    if passed {
        json!({"type": "hand", "dealer": dealer, "all_passed": true})
    } else {
        hand(
            dealer,
            players[bidder],
            250 + 10 * steps,
            SUITS[suit],
            OUTCOMES[outcome],
        )
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn a_correction_equals_writing_the_hand_right_in_the_first_place(
        hands in proptest::collection::vec(random_hand(), 1..12),
        pick in any::<proptest::sample::Index>(),
        replacement in random_hand(),
        void in any::<bool>(),
    ) {
        let events: Vec<Value> = hands.iter().enumerate().map(|(i, h)| build(i, *h)).collect();
        let k = pick.index(events.len());
        let mut in_place = events.clone();
        let mut appended = events.clone();
        if void {
            in_place.remove(k);
            appended.push(json!({"type": "void", "event": k}));
        } else {
            in_place[k] = build(k, replacement);
            appended.push(json!({"type": "correction", "event": k, "replacement": in_place[k].clone()}));
        }
        let expected = pinochle(in_place).unwrap();
        let got = pinochle(appended).unwrap();
        prop_assert_eq!(&got.balances, &expected.balances);
        for event in &got.events {
            let sum: Money = event.postings.iter().map(|p| p.amount).sum();
            prop_assert_eq!(sum, Money::ZERO);
        }
        // The ledger's balances are the sum of every posting, history included.
        let mut summed = std::collections::BTreeMap::new();
        for p in got.events.iter().flat_map(|e| &e.postings) {
            *summed.entry(p.account.clone()).or_insert(Money::ZERO) += p.amount;
        }
        for (account, amount) in &got.balances {
            prop_assert_eq!(summed.get(account).copied().unwrap_or(Money::ZERO), *amount);
        }
        prop_assert_eq!(balance(&got, "A") + balance(&got, "B") + balance(&got, "C") + got.kitty, Money::ZERO);
    }
}

/// A declare-out ends a deal (rules §1.9), so it is numbered as a hand and "undo last hand"
/// undoes it; undoing it un-ends the game it ended.
#[test]
fn a_declare_out_is_a_deal_that_undo_last_hand_undoes() {
    let mut d = doc(
        "two_handed_pinochle",
        json!({"mode": "match", "target": 1000, "target_step": 250, "stake": "0.50"}),
        &["P1", "P2"],
        vec![json!({"type": "declare_out", "claimant": "P1", "tricks_so_far": 47})],
    );
    d.opening_scores = Some(json!({"P1": 960, "P2": 990}));
    let fold = scorekeeper::format::replay::fold(&d).unwrap();
    assert_eq!(fold.hand_number(0), Some(1), "the declare-out is hand 1");
    assert_eq!(fold.last_standing_hand(), Some(0));
    assert_eq!(
        fold.games_finished(),
        1,
        "P1 out at 960 + 50 (47 rounded) = 1,010"
    );
    d.events
        .push(json!({"type": "void", "event": 0, "reason": "he had miscounted"}));
    let fold = scorekeeper::format::replay::fold(&d).unwrap();
    assert_eq!(fold.last_standing_hand(), None, "nothing left to undo");
    assert_eq!(fold.games_finished(), 0, "the game is open again");
    assert_eq!(
        replay(&d)
            .unwrap()
            .balances
            .get("P1")
            .copied()
            .unwrap_or_default(),
        Money::ZERO
    );
}

/// The poker pot is the table's account like the kitty: a payment may name it
/// (session-format "A payment to or from KITTY (or POT)"), and no player may take its name.
#[test]
fn the_pot_takes_payments_and_is_no_players_name() {
    let d = doc(
        "poker",
        json!({"smallest_unit": "0.05"}),
        &["Ann", "Bob"],
        vec![json!({"type": "payment", "from": "Ann", "to": "POT", "amount": "0.10"})],
    );
    let ledger = replay(&d).unwrap();
    let total: i64 = ledger.balances.values().map(|m| m.cents()).sum();
    assert_eq!(total, 0, "the payment's postings sum to zero");
    assert_ne!(
        ledger.balances.get("POT").copied().unwrap_or_default(),
        Money::ZERO,
        "the pot's balance moved"
    );
    let named_pot = doc(
        "poker",
        json!({"smallest_unit": "0.05"}),
        &["Ann", "POT"],
        vec![],
    );
    assert!(replay(&named_pot).is_err(), "POT is not a player's name");
    // A game without a pot has no POT account to pay.
    let pitch = doc(
        "auction_pitch",
        json!({}),
        &["Ann", "Bob", "Cy"],
        vec![json!({"type": "payment", "from": "Ann", "to": "POT", "amount": "0.10"})],
    );
    assert!(replay(&pitch).is_err());
}
