//! Whole sessions through `replay` (rules §1.7): games, money, refusals, and the properties
//! that money sums to zero and that rotating the players by one seat swaps NS and EW.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::format::{LedgerDoc, SessionDoc, replay};
use crate::money::Money;

use crate::rules::replay_tests::{self, sessions, winners};

const PLAYERS: [&str; 4] = ["N", "E", "S", "W"];

sessions!("check_pinochle", PLAYERS);

fn session(players: &[&str], agreements: Value, opening: Value, events: Vec<Value>) -> SessionDoc {
    replay_tests::session("check_pinochle", players, agreements, opening, events)
}

fn hand(dealer: &str, bidder: &str, bid: i64, ns: Value, ew: Value) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": bid, "trump": "spades",
           "NS": ns, "EW": ew})
}

fn side(meld: i64, checks: &[&str], tricks: i64) -> Value {
    json!({"meld": meld, "meld_checks": checks, "tricks": tricks, "won_trick": true})
}

fn cents(l: &LedgerDoc, p: &str) -> i64 {
    l.balances.get(p).copied().unwrap_or(Money::ZERO).cents()
}

fn balances(l: &LedgerDoc) -> Vec<i64> {
    PLAYERS.iter().map(|p| cents(l, p)).collect()
}

#[test]
fn done_when_ns_fall_short_of_350() {
    // NS bid 350 and take 200 meld (a flush) + 120 = 320: minus 350, no checks at all; EW
    // keep their meld and tricks, their own 40-jacks check and the defeat checks 2 × 10.
    let l = ok(
        json!({}),
        Value::Null,
        vec![hand(
            "W",
            "N",
            350,
            side(200, &["flush"], 120),
            side(40, &["jacks_40"], 130),
        )],
    );
    assert_eq!(l.scores, Some(json!({"NS": -350, "EW": 170})));
    assert_eq!(l.checks, Some(json!({"NS": 0, "EW": 21})));
    let why = &l.events[0].explanation;
    assert!(why.contains("fell short with 320"), "{why}");
    assert!(why.contains("NS −350, no checks"), "{why}");
    assert!(why.contains("flush cancelled"), "{why}");
    assert!(why.contains("+20 (defeat 350–390) +1 (40 jacks)"), "{why}");
    assert_eq!(
        l.events[0].scores_after,
        Some(json!({"game": 1, "scores": {"NS": -350, "EW": 170}, "checks": {"NS": 0, "EW": 21}}))
    );
}

#[test]
fn a_made_hand_is_itemised() {
    let l = ok(
        json!({}),
        Value::Null,
        vec![hand(
            "W",
            "N",
            300,
            side(140, &["aces_100"], 180),
            side(60, &["queens_60"], 70),
        )],
    );
    assert_eq!(
        l.events[0].explanation,
        "N bid 300 in spades for NS and made it: NS +320 (meld 140 + tricks 180), checks +7 \
         (make 300–340) +2 (100 aces); EW +130 (meld 60 + tricks 70), checks +1 (60 queens) \
         → NS 320, EW 130; checks NS 9, EW 1"
    );
}

#[test]
fn the_game_ends_at_the_target_and_is_settled_per_player() {
    let l = ok(
        json!({"stake": "0.05"}),
        json!({"NS": 900, "EW": 700}),
        vec![
            hand("W", "N", 250, side(120, &[], 140), side(0, &[], 110)),
            json!({"type": "close"}),
        ],
    );
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].decided_by, "target");
    assert_eq!(l.games[0].final_scores, json!({"NS": 1160, "EW": 810}));
    assert_eq!(balances(&l), vec![55, -55, 55, -55]);
    // A new game is in progress, from zero.
    assert_eq!(l.scores, Some(json!({"NS": 0, "EW": 0})));
    assert_eq!(l.checks, Some(json!({"NS": 0, "EW": 0})));
    let after = l.events[0].scores_after.as_ref().unwrap();
    assert_eq!(after["game_over"]["winner"], "NS");
    assert_eq!(after["checks"], json!({"NS": 11, "EW": 0}));
}

#[test]
fn when_both_pass_the_target_the_bidders_win_even_when_behind() {
    let both = |bidder: &str, opening: Value, ns: Value, ew: Value| {
        ok(
            json!({"stake": "0.01"}),
            opening,
            vec![hand("W", bidder, 200, ns, ew)],
        )
    };
    let l = both(
        "N",
        json!({"NS": 850, "EW": 950}),
        side(60, &[], 150),
        side(40, &[], 100),
    );
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].decided_by, "both_out_bidder_wins");
    assert_eq!(l.games[0].final_scores, json!({"NS": 1060, "EW": 1090}));
    // NS 2 + 7 checks against 0: EW pay.
    assert_eq!(balances(&l), vec![9, -9, 9, -9]);
    // The mirror image with EW bidding: EW win from behind.
    let l = both(
        "E",
        json!({"NS": 950, "EW": 850}),
        side(40, &[], 100),
        side(60, &[], 150),
    );
    assert_eq!(winners(&l), vec![Some("EW".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 1090, "EW": 1060}));
}

#[test]
fn a_defeated_bid_can_hand_the_game_to_the_opponents() {
    let l = ok(
        json!({}),
        json!({"NS": 950, "EW": 990}),
        vec![hand("W", "E", 300, side(0, &[], 100), side(100, &[], 150))],
    );
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(l.games[0].final_scores, json!({"NS": 1050, "EW": 690}));
}

#[test]
fn hoyle_game_award_counts_the_margin_and_the_losers_minus() {
    // NS 900 + 300 = 1200; EW −200 + 0 → margin 1400 → 10 + 14 + 5 = 29; make 300 = 7.
    let l = ok(
        json!({"game_award": "hoyle", "stake": "0.01", "settlement": "per_partnership"}),
        json!({"NS": 900, "EW": -200}),
        vec![hand(
            "W",
            "N",
            300,
            side(50, &[], 250),
            json!({"tricks": 0, "won_trick": true}),
        )],
    );
    assert_eq!(balances(&l), vec![18, -18, 18, -18]);
    assert!(
        l.events[0]
            .explanation
            .contains("10 + 14 for the margin 1400 + 5")
    );
}

#[test]
fn more_checks_win_the_money_even_after_losing_on_points() {
    // EW pile up defeat checks, then NS reach 1000.
    let l = ok(
        json!({"stake": "0.10"}),
        json!({"NS": 800}),
        vec![
            hand("W", "N", 500, side(100, &[], 100), side(0, &[], 150)),
            hand("N", "S", 200, side(1100, &[], 200), side(0, &[], 50)),
        ],
    );
    // NS: −500 then +1300 = 1600 → win; checks NS 2 + 7 = 9, EW 50 → EW paid 41.
    assert_eq!(winners(&l), vec![Some("NS".to_string())]);
    assert_eq!(balances(&l), vec![-410, 410, -410, 410]);
    assert!(l.events[1].explanation.contains("on checks"));
}

#[test]
fn a_session_holds_several_games_and_nets_them() {
    let a = json!({"stake": "0.05", "target": 500});
    let l = ok(
        a,
        json!({"NS": 400}),
        vec![
            // Game 1: NS 400 + 200 = 600, make 200 = 2, game 7 → NS +9.
            hand("W", "N", 200, side(0, &[], 200), side(0, &[], 50)),
            // Game 2 starts at 0–0 (opening scores seed only game 1).
            hand("N", "E", 300, side(0, &[], 50), side(300, &[], 200)),
            // EW: 500 + make 7 + game 7 = 14 → EW +14.
        ],
    );
    assert_eq!(
        winners(&l),
        vec![Some("NS".to_string()), Some("EW".to_string())]
    );
    assert_eq!(l.games[1].final_scores, json!({"NS": 50, "EW": 500}));
    assert_eq!(balances(&l), vec![45 - 70, 70 - 45, 45 - 70, 70 - 45]);
}

#[test]
fn an_unfinished_game_at_close_is_paid_as_it_stands_or_void() {
    let events = || {
        vec![
            hand(
                "W",
                "N",
                300,
                side(140, &["aces_100"], 180),
                side(60, &["queens_60"], 70),
            ),
            json!({"type": "close"}),
        ]
    };
    let l = ok(json!({"stake": "0.05"}), Value::Null, events());
    assert_eq!(balances(&l), vec![40, -40, 40, -40]);
    assert!(l.games.is_empty());
    assert!(l.events[1].explanation.contains("as they stand"));
    assert_eq!(l.checks, Some(json!({"NS": 9, "EW": 1})));
    let l = ok(
        json!({"stake": "0.05", "unfinished_game": "void"}),
        Value::Null,
        events(),
    );
    assert_eq!(balances(&l), vec![0, 0, 0, 0]);
}

#[test]
fn refusals_name_the_event_and_the_field() {
    let good = hand("W", "N", 300, side(140, &[], 180), side(60, &[], 70));
    let short = hand("N", "E", 300, side(140, &[], 180), side(60, &[], 60));
    let e = run(json!({}), Value::Null, vec![good.clone(), short]).unwrap_err();
    assert_eq!(
        (e.event_index, e.field.to_string().as_str()),
        (Some(1), "EW.tricks")
    );
    let low = hand("N", "E", 190, side(140, &[], 180), side(60, &[], 70));
    let e = run(json!({}), Value::Null, vec![good.clone(), low]).unwrap_err();
    assert_eq!(
        (e.event_index, e.field.to_string().as_str()),
        (Some(1), "bid")
    );
    assert!(
        e.to_string()
            .starts_with("event 1: bid: 190 is below the minimum 200")
    );
    let e = run(
        json!({}),
        Value::Null,
        vec![json!({"type": "player_joins", "player": "Z"})],
    )
    .unwrap_err();
    assert_eq!(
        (e.event_index, e.field.to_string().as_str()),
        (Some(0), "type")
    );
    let e = run(
        json!({"stake": "1.00", "kitty": "pot"}),
        Value::Null,
        vec![],
    )
    .unwrap_err();
    assert_eq!(e.field, "agreements.kitty");
    let e = run(json!({}), json!({"N": 100}), vec![]).unwrap_err();
    assert_eq!(e.field, "opening_scores.N");
    let e = run(json!({}), json!({"EW": 1000}), vec![]).unwrap_err();
    assert_eq!(e.field, "opening_scores.EW");
    let e = replay(&session(&["N", "E", "S"], json!({}), Value::Null, vec![])).unwrap_err();
    assert_eq!(e.field, "players");
}

/// One generated deal: seats 0–3 for dealer and bidder, and each side's result.
#[derive(Debug, Clone)]
struct Deal {
    dealer: usize,
    bidder: usize,
    bid: i64,
    trump: usize,
    ns_tricks: i64,
    pointless_trick: [bool; 2],
    extra_meld: [i64; 2],
    /// Per check-bearing meld: 0 nobody, 1 NS, 2 EW (at most one each keeps the deck legal).
    owners: [u8; 7],
}

fn deal() -> impl Strategy<Value = Deal> {
    (
        (0usize..4, 0usize..4, 20i64..=70, 0usize..4),
        prop_oneof![Just(0i64), Just(250), 0i64..=250],
        any::<[bool; 2]>(),
        [0i64..=40, 0i64..=40],
        [0u8..3, 0..3, 0..3, 0..3, 0..3, 0..3, 0..3],
    )
        .prop_map(
            |((dealer, bidder, bid, trump), ns_tricks, pointless_trick, extra_meld, owners)| Deal {
                dealer,
                bidder,
                bid: bid * 10,
                trump,
                ns_tricks,
                pointless_trick,
                extra_meld,
                owners,
            },
        )
}

const MELDS: [(&str, i64); 7] = [
    ("flush", 150),
    ("aces_100", 100),
    ("kings_80", 80),
    ("queens_60", 60),
    ("jacks_40", 40),
    ("double_pinochle", 80),
    ("roundhouse", 240),
];

/// The deal as a `hand` event (players named N, E, S, W wherever they sit); `swap` writes NS's result under EW and the
/// other way round, which is what seating the players one place further round does.
fn deal_event(d: &Deal, swap: bool) -> Value {
    let names = ["N", "E", "S", "W"];
    let tricks = [d.ns_tricks, 250 - d.ns_tricks];
    let sides: Vec<Value> = (0..2)
        .map(|s| {
            let listed: Vec<(&str, i64)> = MELDS
                .iter()
                .zip(d.owners)
                .filter(|(_, o)| usize::from(*o) == s + 1)
                .map(|(m, _)| *m)
                .collect();
            let meld: i64 = listed.iter().map(|m| m.1).sum::<i64>() + d.extra_meld[s] * 10;
            let checks: Vec<&str> = listed.iter().map(|m| m.0).collect();
            json!({"meld": meld, "meld_checks": checks, "tricks": tricks[s],
                   "won_trick": tricks[s] > 0 || d.pointless_trick[s]})
        })
        .collect();
    let (ns, ew) = if swap {
        (&sides[1], &sides[0])
    } else {
        (&sides[0], &sides[1])
    };
    let trump = ["spades", "hearts", "diamonds", "clubs"][d.trump];
    json!({"type": "hand", "dealer": names[d.dealer], "bidder": names[d.bidder], "bid": d.bid,
           "trump": trump, "NS": ns, "EW": ew})
}

fn swap_sides(v: &Value) -> Value {
    json!({"NS": v["EW"], "EW": v["NS"]})
}

fn agreements_strategy() -> impl Strategy<Value = Value> {
    (
        0i64..=37,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(500i64), Just(1000)],
        any::<bool>(),
    )
        .prop_map(
            |(stake, per_partnership, hoyle_award, scarne_table, target, void)| {
                let mut a = json!({
                    "stake": Money::from_cents(stake).to_string(),
                    "settlement": if per_partnership { "per_partnership" } else { "per_player" },
                    "game_award": if hoyle_award { "hoyle" } else { "scarne" },
                    "target": target,
                    "unfinished_game": if void { "void" } else { "settle" },
                });
                if scarne_table {
                    a["check_table"] = json!("scarne");
                    a["make_checks"] = json!([[200, 1], [300, 5], [450, 11]]);
                }
                a
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn money_sums_to_zero_and_rotating_the_seats_swaps_the_sides(
        agreements in agreements_strategy(),
        deals in proptest::collection::vec(deal(), 1..14),
        opening in (-300i64..=450, -300i64..=450),
        close in any::<bool>(),
    ) {
        let seats = ["N", "E", "S", "W"];
        let rotated = ["W", "N", "E", "S"];
        let opening = json!({"NS": opening.0, "EW": opening.1});
        let mut events: Vec<Value> = deals.iter().map(|d| deal_event(d, false)).collect();
        let mut swapped: Vec<Value> = deals.iter().map(|d| deal_event(d, true)).collect();
        if close {
            events.push(json!({"type": "close"}));
            swapped.push(json!({"type": "close"}));
        }
        let a = replay(&session(&seats, agreements.clone(), opening.clone(), events)).unwrap();
        let b = replay(&session(&rotated, agreements, swap_sides(&opening), swapped)).unwrap();

        let total: i64 = a.balances.values().map(|m| m.cents()).sum();
        prop_assert_eq!(total, 0);
        for e in &a.events {
            prop_assert_eq!(e.postings.iter().map(|p| p.amount.cents()).sum::<i64>(), 0);
        }
        prop_assert_eq!(&a.balances, &b.balances);
        prop_assert_eq!(swap_sides(a.scores.as_ref().unwrap()), b.scores.clone().unwrap());
        prop_assert_eq!(swap_sides(a.checks.as_ref().unwrap()), b.checks.clone().unwrap());
        prop_assert_eq!(a.games.len(), b.games.len());
        for (x, y) in a.games.iter().zip(&b.games) {
            let other = match x.winner.as_deref() { Some("NS") => "EW", _ => "NS" };
            prop_assert_eq!(y.winner.as_deref(), Some(other));
            prop_assert_eq!(&x.decided_by, &y.decided_by);
            prop_assert_eq!(swap_sides(&x.final_scores), y.final_scores.clone());
        }
        // Partners win or lose together: equal with per_player, within a cent a game else.
        let spread = (cents(&a, "N") - cents(&a, "S")).abs();
        prop_assert!(spread <= a.games.len() as i64 + 1);
    }
}

#[test]
fn the_settle_up_pays_the_opposite_numbers_the_rows_name() {
    // Seats Salvatore (N), Margaret (E), Rosemary (S), Vincenzo (W): opposite numbers
    // Salvatore–Margaret and Rosemary–Vincenzo. The game of the test above: NS win 11
    // checks at 0.05, so Margaret pays Salvatore 0.55 and Vincenzo pays Rosemary 0.55. The
    // settle-up needs two transfers however it pairs them, so it names the rows' pairs (by
    // name alone it would have had Margaret pay Rosemary).
    let players = ["Salvatore", "Margaret", "Rosemary", "Vincenzo"];
    let events = vec![
        hand(
            "Vincenzo",
            "Salvatore",
            250,
            side(120, &[], 140),
            side(0, &[], 110),
        ),
        json!({"type": "close"}),
    ];
    let l = replay(&session(
        &players,
        json!({"stake": "0.05"}),
        json!({"NS": 900, "EW": 700}),
        events,
    ))
    .unwrap();
    let paid: Vec<(&str, &str, i64)> = l
        .settlement
        .iter()
        .map(|t| (t.from.as_str(), t.to.as_str(), t.amount.cents()))
        .collect();
    assert_eq!(
        paid,
        vec![("Margaret", "Salvatore", 55), ("Vincenzo", "Rosemary", 55)]
    );
}
