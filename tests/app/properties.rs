//! Properties over random valid Auction Pinochle sessions: every event's postings sum to
//! zero, all balances with the kitty sum to zero, and the settlement zeroes every balance.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use proptest::prelude::*;
use scorekeeper::format::{SessionDoc, replay};
use scorekeeper::money::Money;
use serde_json::{Value, json};

const SUITS: [&str; 4] = ["spades", "hearts", "diamonds", "clubs"];
const OUTCOMES: [&str; 7] = [
    "made",
    "failed",
    "conceded_before_lead",
    "conceded_after_lead",
    "opponents_conceded",
    "bidder_renege",
    "defender_renege",
];

#[derive(Debug, Clone)]
struct Deal {
    passed: bool,
    bidder: usize,
    bid_steps: i64,
    suit: usize,
    outcome: usize,
    renegade: usize,
    cash: Option<i64>,
}

fn deal() -> impl Strategy<Value = Deal> {
    (
        any::<bool>(),
        0usize..4,
        0i64..50,
        0usize..4,
        0usize..7,
        0usize..4,
        proptest::option::of(0i64..5000),
        0u8..5,
    )
        .prop_map(
            |(p, bidder, bid_steps, suit, outcome, renegade, cash, pass_roll)| Deal {
                passed: p && pass_roll == 0,
                bidder,
                bid_steps,
                suit,
                outcome,
                renegade,
                cash,
            },
        )
}

fn session(
    four: bool,
    kitty: usize,
    table: usize,
    stake: i64,
    flags: (bool, bool, bool),
    deals: &[Deal],
    close: bool,
) -> Value {
    let players: Vec<&str> = if four {
        vec!["A", "B", "C", "D"]
    } else {
        vec!["A", "B", "C"]
    };
    let n = players.len();
    let table_name = ["standard", "bonus", "classic"][table];
    let min = if table == 2 { 300 } else { 250 };
    let mut events = Vec::new();
    for (i, d) in deals.iter().enumerate() {
        let dealer = i % n;
        if d.passed {
            events.push(json!({"type": "hand", "dealer": players[dealer], "all_passed": true}));
            continue;
        }
        let mut bidder = d.bidder % n;
        if four && bidder == dealer {
            bidder = (dealer + 1) % n;
        }
        let mut event = json!({
            "type": "hand", "dealer": players[dealer], "bidder": players[bidder],
            "bid": min + 10 * d.bid_steps, "trump": SUITS[d.suit], "outcome": OUTCOMES[d.outcome]
        });
        if OUTCOMES[d.outcome] == "defender_renege" {
            let active: Vec<usize> = (0..n)
                .filter(|&p| p != bidder && !(four && p == dealer))
                .collect();
            event["renege_by"] = json!(players[active[d.renegade % active.len()]]);
        }
        if let Some(cash) = d.cash {
            event["bidder_cash"] = json!(Money::from_cents(cash).to_string());
        }
        events.push(event);
    }
    if close {
        events.push(json!({"type": "close"}));
    }
    let kitty_name = ["none", "pot", "account"][kitty];
    json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle",
        "agreements": {
            "stake": Money::from_cents(stake).to_string(), "units_table": table_name,
            "kitty": kitty_name, "spades_double": flags.0, "hearts_triple": flags.1,
            "reante_after_win": flags.2
        },
        "players": players, "events": events
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn money_always_sums_to_zero(
        four in any::<bool>(), kitty in 0usize..3, table in 0usize..3, stake in 0i64..100,
        flags in (any::<bool>(), any::<bool>(), any::<bool>()),
        deals in proptest::collection::vec(deal(), 0..25), close in any::<bool>()
    ) {
        let doc: SessionDoc = serde_json::from_value(session(four, kitty, table, stake, flags, &deals, close)).unwrap();
        let ledger = replay(&doc).map_err(|r| TestCaseError::fail(r.to_string()))?;
        for event in &ledger.events {
            let sum: Money = event.postings.iter().map(|p| p.amount).sum();
            prop_assert_eq!(sum, Money::ZERO, "event {} does not sum to zero", event.seq);
        }
        let total: Money = ledger.balances.values().copied().sum();
        prop_assert_eq!(total, Money::ZERO);
        if close {
            prop_assert_eq!(ledger.kitty, Money::ZERO, "the close shares out the whole kitty");
        }
        let mut after = ledger.balances.clone();
        for t in &ledger.settlement {
            *after.get_mut(&t.from).unwrap() += t.amount;
            *after.get_mut(&t.to).unwrap() -= t.amount;
        }
        prop_assert!(after.values().all(|m| m.is_zero()), "the settlement zeroes every balance");
        prop_assert!(ledger.settlement.len() < ledger.balances.len().max(1));
    }
}
