//! Unit tests of reading and scoring one deal (rules §1.7).

use super::*;
use serde_json::{Map, Value};

/// The hand `event` as a document writes it, read and checked.
fn read(
    event: &serde_json::Map<String, serde_json::Value>,
    seating: &Seating,
) -> Result<Hand, RuleError> {
    check(crate::rules::fields::read_event(event)?, seating)
}
use crate::rules::typed::TableAgreements;
use serde_json::json;

fn seating() -> Seating {
    Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap()
}

fn agreements(v: Value) -> Agreements {
    Agreements::read(v.as_object().unwrap()).unwrap()
}

fn hoyle() -> Agreements {
    agreements(json!({}))
}

fn scarne() -> Agreements {
    agreements(json!({"check_table": "scarne", "make_checks":
        [[200, 2], [250, 4], [300, 7], [350, 10], [400, 15], [450, 20], [500, 25], [550, 30]]}))
}

/// A deal bid by `bidder`; each side is `{meld, meld_checks, tricks, …}` as written.
fn event(bidder: &str, bid: i64, ns: Value, ew: Value) -> Map<String, Value> {
    json!({"type": "hand", "dealer": "W", "bidder": bidder, "bid": bid, "trump": "hearts",
           "NS": ns, "EW": ew})
    .as_object()
    .cloned()
    .unwrap()
}

fn read_ok(e: &Map<String, Value>) -> Hand {
    read(e, &seating()).unwrap()
}

fn refused(e: &Map<String, Value>) -> RuleError {
    read(e, &seating()).unwrap_err()
}

fn scored(e: &Map<String, Value>, a: &Agreements) -> Scored {
    score(&read_ok(e), a)
}

fn checks(s: &Scored) -> (i64, i64) {
    (s.sides.ns.checks(), s.sides.ew.checks())
}

fn points(s: &Scored) -> (i64, i64) {
    (s.sides.ns.points, s.sides.ew.points)
}

#[test]
fn made_bid_both_sides_score_meld_and_tricks() {
    let e = event(
        "N",
        300,
        json!({"meld": 140, "meld_checks": ["aces_100"], "tricks": 180}),
        json!({"meld": 60, "meld_checks": ["queens_60"], "tricks": 70}),
    );
    let s = scored(&e, &hoyle());
    assert!(s.made);
    assert_eq!(points(&s), (320, 130));
    assert_eq!(checks(&s), (9, 1));
    assert_eq!(s.sides.ns.awards[0].words, "make 300–340");
    assert_eq!(s.sides.ns.awards[1].words, "100 aces");
}

#[test]
fn failed_bid_scores_minus_the_bid_and_no_checks_of_any_kind() {
    // The "done when": NS bid 350 and fall short.
    let e = event(
        "S",
        350,
        json!({"meld": 200, "meld_checks": ["flush"], "tricks": 120, "won_trick": true}),
        json!({"meld": 40, "meld_checks": ["jacks_40"], "tricks": 130}),
    );
    let s = scored(&e, &hoyle());
    assert!(!s.made);
    assert_eq!(s.bidders_total, 320);
    assert_eq!(points(&s), (-350, 170));
    assert!(s.sides.ns.awards.is_empty());
    assert_eq!(s.sides.ns.lost.as_deref(), Some("flush cancelled"));
    assert_eq!(checks(&s), (0, 20 + 1));
    assert_eq!(s.sides.ew.awards[0].words, "defeat 350–390");
}

#[test]
fn a_defeated_slam_or_count_earns_nothing_for_the_bidders() {
    // NS take every trick and every counter but bid beyond reach.
    let e = event(
        "N",
        600,
        json!({"meld": 100, "meld_checks": ["aces_100"], "tricks": 250}),
        json!({"meld": 40, "tricks": 0}),
    );
    let s = scored(&e, &scarne());
    assert!(!s.made);
    assert_eq!(points(&s), (-600, 0));
    // EW: defeat 600 under Scarne = 2 × (30 + 3) = 66; their meld needs a trick.
    assert_eq!(checks(&s), (0, 66));
}

#[test]
fn the_exact_bid_is_made() {
    let e = event(
        "E",
        250,
        json!({"tricks": 100}),
        json!({"meld": 100, "tricks": 150}),
    );
    let s = scored(&e, &hoyle());
    assert!(s.made);
    assert_eq!(points(&s), (100, 250));
    assert_eq!(checks(&s), (0, 4));
}

#[test]
fn meld_and_its_checks_need_a_trick() {
    let ns = json!({"meld": 20, "tricks": 250});
    let ew = json!({"meld": 100, "meld_checks": ["aces_100"], "tricks": 0});
    let s = scored(&event("N", 250, ns.clone(), ew.clone()), &hoyle());
    assert_eq!(points(&s), (270, 0));
    assert_eq!(checks(&s), (4 + 5, 0));
    assert!(
        s.sides
            .ew
            .lost
            .as_deref()
            .unwrap()
            .contains("without a trick")
    );
    // A pointless trick is still a trick, when the table says so.
    let ns = json!({"meld": 20, "tricks": 250, "all_tricks": false});
    let ew_won = json!({"meld": 100, "meld_checks": ["aces_100"], "tricks": 0, "won_trick": true});
    let s = scored(&event("N", 250, ns, ew_won), &hoyle());
    assert_eq!(points(&s), (270, 100));
    assert_eq!(checks(&s), (4, 2));
    // With meld_needs_trick off, meld and its checks count regardless.
    let s = scored(
        &event("N", 250, json!({"meld": 20, "tricks": 250}), ew),
        &agreements(json!({"meld_needs_trick": false})),
    );
    assert_eq!(points(&s), (270, 100));
    assert_eq!(checks(&s), (9, 2));
}

#[test]
fn the_bidders_meld_without_a_trick_does_not_make_the_bid() {
    let e = event(
        "N",
        200,
        json!({"meld": 300, "meld_checks": ["aces_100"], "tricks": 0}),
        json!({"tricks": 250}),
    );
    let s = scored(&e, &hoyle());
    assert!(!s.made);
    assert_eq!(s.bidders_total, 0);
    assert!(s.bidders_words.contains("needs") || s.bidders_words.contains("lost"));
    // EW: defeat 200 = 4, slam 5.
    assert_eq!(checks(&s), (0, 9));
}

#[test]
fn slam_and_count() {
    let sweep = |a: &Agreements| {
        scored(
            &event(
                "N",
                300,
                json!({"meld": 100, "tricks": 250}),
                json!({"tricks": 0}),
            ),
            a,
        )
    };
    assert_eq!(checks(&sweep(&hoyle())), (7 + 5, 0));
    assert_eq!(checks(&sweep(&scarne())), (7 + 5 + 4, 0));
    let not_cumulative = agreements(
        json!({"check_table": "scarne", "make_checks": [[200, 2], [300, 7]],
                                           "slam_and_count_cumulative": false}),
    );
    let s = sweep(&not_cumulative);
    assert_eq!(checks(&s), (7 + 5, 0));
    assert!(s.sides.ns.awards[1].words.contains("not cumulative"));
    // All 250 of the count without all 12 tricks: Scarne's 4 alone.
    let count_only = event(
        "N",
        300,
        json!({"meld": 100, "tricks": 250}),
        json!({"meld": 40, "meld_checks": ["jacks_40"], "tricks": 0, "won_trick": true}),
    );
    assert_eq!(checks(&scored(&count_only, &scarne())), (7 + 4, 1));
    assert_eq!(checks(&scored(&count_only, &hoyle())), (7, 1));
}

#[test]
fn the_opponents_can_take_the_count_on_a_made_bid() {
    // NS meld their bid and win one pointless trick; EW take all 250 counters.
    let e = event(
        "N",
        300,
        json!({"meld": 300, "tricks": 0, "won_trick": true}),
        json!({"tricks": 250}),
    );
    let s = scored(&e, &scarne());
    assert!(s.made);
    assert_eq!(points(&s), (300, 250));
    assert_eq!(checks(&s), (7, 4));
}

#[test]
fn meld_checks_count_every_occurrence() {
    let e = event(
        "N",
        450,
        json!({"meld": 500, "meld_checks": ["aces_100", "aces_100", "flush", "double_pinochle"],
               "tricks": 200}),
        json!({"meld": 0, "tricks": 50}),
    );
    let s = scored(&e, &hoyle());
    assert_eq!(checks(&s), (20 + 4 + 2 + 2, 0));
    assert_eq!(s.sides.ns.awards[1].words, "flush");
    assert_eq!(s.sides.ns.awards[2].words, "2 × 100 aces");
    let a = agreements(json!({"meld_checks": {"aces_100": 3, "flush": 0}}));
    assert_eq!(checks(&scored(&e, &a)), (20 + 6 + 2, 0));
}

#[test]
fn roundhouse_replaces_kings_and_queens_unless_agreed() {
    let e = event(
        "N",
        300,
        json!({"meld": 260, "meld_checks": ["roundhouse"], "tricks": 150}),
        json!({"meld": 80, "meld_checks": ["kings_80"], "tricks": 100}),
    );
    assert_eq!(checks(&scored(&e, &hoyle())), (7 + 5, 1));
    let with_parts = agreements(json!({"roundhouse_includes_kings_queens_checks": true}));
    let s = scored(&e, &with_parts);
    assert_eq!(checks(&s), (7 + 5 + 1 + 1, 1));
    assert!(s.sides.ns.awards[2].words.contains("in the roundhouse"));
}

#[test]
fn make_and_defeat_follow_the_bands_above_590() {
    let made = |bid: i64, a: &Agreements| {
        checks(&scored(
            &event(
                "N",
                bid,
                json!({"meld": bid - 200, "tricks": 200}),
                json!({"tricks": 50}),
            ),
            a,
        ))
        .0
    };
    let defeated = |bid: i64, a: &Agreements| {
        checks(&scored(
            &event(
                "N",
                bid,
                json!({"meld": 0, "tricks": 150}),
                json!({"tricks": 100}),
            ),
            a,
        ))
        .1
    };
    for (bid, h, s) in [
        (200, 2, 2),
        (590, 30, 30),
        (600, 35, 33),
        (650, 40, 36),
        (800, 55, 45),
    ] {
        assert_eq!(made(bid, &hoyle()), h, "hoyle make {bid}");
        assert_eq!(defeated(bid, &hoyle()), 2 * h, "hoyle defeat {bid}");
        assert_eq!(made(bid, &scarne()), s, "scarne make {bid}");
        assert_eq!(defeated(bid, &scarne()), 2 * s, "scarne defeat {bid}");
    }
}

#[test]
fn bids_are_checked() {
    let ok_sides = (json!({"meld": 100, "tricks": 150}), json!({"tricks": 100}));
    let bid = |b: i64| event("N", b, ok_sides.0.clone(), ok_sides.1.clone());
    assert_eq!(refused(&bid(190)).field, "bid");
    assert!(refused(&bid(190)).rule.unwrap_or_default().contains("§1.7"));
    assert_eq!(refused(&bid(205)).field, "bid");
    assert_eq!(refused(&bid(MAX_BID + 10)).field, "bid");
    assert_eq!(read_ok(&bid(200)).bidding, Side::NS);
    assert_eq!(
        read_ok(&event("W", 200, ok_sides.0.clone(), ok_sides.1.clone())).bidding,
        Side::EW
    );
    assert_eq!(
        refused(&event("X", 200, ok_sides.0.clone(), ok_sides.1.clone())).field,
        "bidder"
    );
    let mut e = bid(200);
    e.insert("dealer".into(), json!("Q"));
    assert_eq!(refused(&e).field, "dealer");
    let mut e = bid(200);
    e.insert("trump".into(), json!("notrump"));
    assert_eq!(refused(&e).field, "trump");
    let mut e = bid(200);
    e.insert("outcome".into(), json!("made"));
    assert_eq!(refused(&e).field, "outcome");
}

#[test]
fn a_forced_dealer_is_the_bidder_and_without_a_marriage_bids_200() {
    let forced = |bidder: &str, bid: i64, ns_meld: i64, ew_meld: i64| {
        let mut e = event(
            bidder,
            bid,
            json!({"meld": ns_meld, "tricks": 150}),
            json!({"meld": ew_meld, "tricks": 100}),
        );
        e.insert("dealer_forced".into(), json!(true));
        e
    };
    // The dealer is W (EW).
    assert!(read_ok(&forced("W", 200, 0, 0)).dealer_forced);
    assert!(read_ok(&forced("W", 260, 0, 40)).dealer_forced);
    let e = refused(&forced("N", 200, 0, 0));
    assert_eq!(e.field, "dealer_forced");
    assert!(e.rule.as_deref().is_some_and(|r| r.contains("rule 4")));
    assert_eq!(refused(&forced("W", 250, 100, 0)).field, "bid");
    let s = scored(&forced("W", 200, 0, 0), &hoyle());
    assert!(!s.made);
    assert_eq!(points(&s), (150, -200));
}

#[test]
fn sides_are_checked() {
    let e = event(
        "N",
        300,
        json!({"meld": 100, "tricks": 180}),
        json!({"tricks": 60}),
    );
    let err = refused(&e);
    assert_eq!(err.field, "EW.tricks");
    assert!(err.message.contains("250"), "{}", err.message);
    let e = event("N", 300, json!({"meld": 100}), json!({"tricks": 60}));
    assert_eq!(refused(&e).field, "NS.tricks");
    let e = event(
        "N",
        300,
        json!({"meld": 100, "tricks": 190, "trics": 1}),
        json!({"tricks": 60}),
    );
    assert_eq!(refused(&e).field, "NS.trics");
    let e = event(
        "N",
        300,
        json!({"meld": -10, "tricks": 190}),
        json!({"tricks": 60}),
    );
    assert_eq!(refused(&e).field, "NS.meld");
    let e = event(
        "N",
        300,
        json!({"meld": 100, "tricks": 190, "won_trick": false}),
        json!({"tricks": 60}),
    );
    assert_eq!(refused(&e).field, "NS.won_trick");
    let e = event(
        "N",
        300,
        json!({"meld": 100, "meld_checks": ["aces"], "tricks": 190}),
        json!({"tricks": 60}),
    );
    assert_eq!(refused(&e).field, "NS.meld_checks[0]");
}

#[test]
fn all_tricks_must_agree_with_who_won_a_trick() {
    // A side that won no trick cannot have won all 12, and its opponents then did.
    let e = event(
        "N",
        300,
        json!({"meld": 100, "tricks": 190, "all_tricks": true}),
        json!({"tricks": 60}),
    );
    let err = refused(&e);
    assert_eq!(err.field, "NS.all_tricks");
    assert!(err.rule.as_deref().is_some_and(|r| r.contains("§1.7")));
    let e = event(
        "N",
        300,
        json!({"meld": 100, "tricks": 250, "all_tricks": false}),
        json!({"tricks": 0, "won_trick": false}),
    );
    assert_eq!(refused(&e).field, "NS.all_tricks");
    let e = event(
        "N",
        300,
        json!({"tricks": 0, "won_trick": false, "all_tricks": true}),
        json!({"tricks": 250}),
    );
    assert_eq!(refused(&e).field, "NS.all_tricks");
    let h = read_ok(&event(
        "N",
        300,
        json!({"meld": 100, "tricks": 250}),
        json!({"tricks": 0}),
    ));
    assert!(h.sides.ns.all_tricks && !h.sides.ew.all_tricks);
}

#[test]
fn meld_checks_must_fit_the_meld_and_the_deck() {
    let e = event(
        "N",
        300,
        json!({"meld": 140, "meld_checks": ["flush"], "tricks": 190}),
        json!({"tricks": 60}),
    );
    let err = refused(&e);
    assert_eq!(err.field, "NS.meld_checks");
    assert!(err.message.contains("150"), "{}", err.message);
    let e = event(
        "N",
        300,
        json!({"meld": 200, "meld_checks": ["aces_100", "aces_100"], "tricks": 190}),
        json!({"meld": 100, "meld_checks": ["aces_100"], "tricks": 60}),
    );
    assert_eq!(refused(&e).field, "EW.meld_checks");
    let e = event(
        "N",
        300,
        json!({"meld": 400, "meld_checks": ["double_pinochle"], "tricks": 190}),
        json!({"meld": 300, "meld_checks": ["double_pinochle"], "tricks": 60}),
    );
    assert_eq!(refused(&e).field, "EW.meld_checks");
    let e = event(
        "N",
        300,
        json!({"meld": 600, "meld_checks": ["roundhouse", "roundhouse"], "tricks": 190}),
        json!({"meld": 80, "meld_checks": ["kings_80"], "tricks": 60}),
    );
    assert!(refused(&e).message.contains("roundhouse"));
    let e = event(
        "N",
        300,
        json!({"meld": 320, "meld_checks": ["roundhouse", "kings_80"], "tricks": 190}),
        json!({"meld": 60, "meld_checks": ["queens_60"], "tricks": 60}),
    );
    assert!(read(&e, &seating()).is_ok());
}
