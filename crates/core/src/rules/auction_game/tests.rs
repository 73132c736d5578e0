//! Whole sessions through `replay` (rules §1.10, §3 item 31): games entered round by round
//! and as the final count, overtime, withdrawal, running out of cards, optional bids and
//! discarded items, draws and shared stakes, and refusals. Every expected number is worked
//! out by hand from the rules in the comment beside it.

use serde_json::{Value, json};

use super::hand::Item;
use crate::format::LedgerDoc;
use crate::money::Money;
use crate::rules::replay_tests::{self, winners};
use crate::session::Refusal;

/// An Auction session at `players` (no scores to carry in) played through `replay`.
fn run(players: &[&str], agreements: Value, events: Vec<Value>) -> Result<LedgerDoc, Refusal> {
    replay_tests::run("auction_game", players, agreements, Value::Null, events)
}

fn cents(l: &LedgerDoc, p: &str) -> i64 {
    l.balances.get(p).copied().unwrap_or(Money::ZERO).cents()
}

/// The field a refused two-player game is refused for, and the event's index.
fn refused(players: &[&str], rounds: Value) -> (Option<usize>, String) {
    let e = run(
        players,
        json!({}),
        vec![json!({"type": "hand", "rounds": rounds})],
    )
    .unwrap_err();
    (e.event_index, e.field.to_string())
}

fn final_refused(players: &[&str], summary: Value) -> String {
    run(
        players,
        json!({}),
        vec![json!({"type": "hand", "final": summary})],
    )
    .unwrap_err()
    .field
    .to_string()
}

/// A full two-player game (the public case AU-04): the Qs, Ks, As and Js in that order;
/// round 0 ties 7–7 and the overtime 5 > 3 gives P1 the Q for 12.
fn base() -> Value {
    json!([
        {"item": "Q", "bids": {"P1": 7, "P2": 7}, "overtime": [{"P1": 5, "P2": 3}], "withdrawn": []},
        {"item": "Q", "bids": {"P1": 2, "P2": 7}, "overtime": [], "withdrawn": []},
        {"item": "K", "bids": {"P1": 10, "P2": 4}, "overtime": [], "withdrawn": []},
        {"item": "K", "bids": {"P1": 2, "P2": 9}, "overtime": [], "withdrawn": []},
        {"item": "A", "bids": {"P1": 9, "P2": 8}, "overtime": [], "withdrawn": []},
        {"item": "A", "bids": {"P1": 3, "P2": 10}, "overtime": [], "withdrawn": []},
        {"item": "J", "bids": {"P1": 4, "P2": 2}, "overtime": [], "withdrawn": []},
        {"item": "J", "bids": {"P1": 2, "P2": 5}, "overtime": [], "withdrawn": []}
    ])
}

fn with(round: usize, field: &str, value: Value) -> Value {
    let mut rounds = base();
    rounds[round][field] = value;
    rounds
}

const TWO: &[&str] = &["P1", "P2"];

#[test]
fn the_overtime_winner_spends_every_card_he_put_down() {
    // Q for 7 + 5 = 12 (P2 takes 7 and 3 back and spends the 7 next round). P1: Q K A J =
    // 10 for 12 + 10 + 9 + 4 = 35; P2: Q K A J = 10 for 7 + 9 + 10 + 5 = 31: items tie, P2
    // spent less and wins; the stake 0.50 goes from P1 to P2.
    let l = run(
        TWO,
        json!({"stake": "0.50"}),
        vec![json!({"type": "hand", "rounds": base()})],
    )
    .unwrap();
    assert_eq!(winners(&l), vec![Some("P2".to_string())]);
    assert_eq!(l.games[0].decided_by, "least_spent");
    assert_eq!(
        l.games[0].final_scores,
        json!({"P1": {"items": 10, "spent": 35}, "P2": {"items": 10, "spent": 31}})
    );
    assert_eq!((cents(&l, "P1"), cents(&l, "P2")), (-50, 50));
}

#[test]
fn a_withdrawal_leaves_the_other_to_buy_with_what_is_on_the_table() {
    // Round 0 ties 7–7 and P2 withdraws: P1 buys the Q for 7 alone (not 12), and keeps his
    // 5, which he bids nowhere else. P1: Q K A J = 10 for 7 + 10 + 9 + 4 = 30; P2: 10 for
    // 31: P1 now wins on money.
    let mut rounds = with(0, "overtime", json!([]));
    rounds[0]["withdrawn"] = json!(["P2"]);
    let l = run(
        TWO,
        json!({}),
        vec![json!({"type": "hand", "rounds": rounds})],
    )
    .unwrap();
    assert_eq!(winners(&l), vec![Some("P1".to_string())]);
    assert_eq!(l.games[0].final_scores["P1"]["spent"], json!(30));
}

#[test]
fn three_players_bid_optionally_discard_unbid_items_and_overtime_among_the_tied() {
    // 0 J: nobody bids, discarded. 1 A: 9–9–9; overtime: Ann 5, Bob 5, Cy adds nothing
    //   (withdrew, takes his 9 back); Ann and Bob still tied at 14, Bob withdraws: Ann buys
    //   for 9 + 5 = 14. 2 A: Bob alone, 10. 3 K: Cy 10 beats Ann 2. 4 K: Cy 9 = Bob 9;
    //   overtime Cy 8, Bob 2: Cy buys for 17. 5 Q: Ann 10. 6 Joker. 7 Q: Bob 3. 8 J: nobody.
    // Ann A Q = 6 for 24, Bob A Q = 6 for 13, Cy K K = 6 for 27: all tie on items, Bob
    // spent least and wins; Ann and Cy pay him 0.25 each.
    let rounds = json!([
        {"item": "J", "bids": {}},
        {"item": "A", "bids": {"Ann": 9, "Bob": 9, "Cy": 9},
         "overtime": [{"Ann": 5, "Bob": 5}], "withdrawn": ["Bob"]},
        {"item": "A", "bids": {"Bob": 10}},
        {"item": "K", "bids": {"Cy": 10, "Ann": 2}},
        {"item": "K", "bids": {"Cy": 9, "Bob": 9}, "overtime": [{"Cy": 8, "Bob": 2}]},
        {"item": "Q", "bids": {"Ann": 10}},
        {"item": "JOKER"},
        {"item": "Q", "bids": {"Bob": 3}},
        {"item": "J", "bids": {}, "overtime": [], "withdrawn": []}
    ]);
    let l = run(
        &["Ann", "Bob", "Cy"],
        json!({"stake": "0.25"}),
        vec![json!({"type": "hand", "rounds": rounds.clone()})],
    )
    .unwrap();
    assert_eq!(winners(&l), vec![Some("Bob".to_string())]);
    assert_eq!(
        (cents(&l, "Ann"), cents(&l, "Bob"), cents(&l, "Cy")),
        (-25, 50, -25)
    );
    let game = super::hand::play_rounds(
        serde_json::from_value::<Vec<super::hand::WrittenRound>>(rounds)
            .unwrap()
            .as_slice(),
        &["Ann".into(), "Bob".into(), "Cy".into()],
    )
    .unwrap();
    // Cards left: Ann spent 9, 5, 10; Bob 10, 3; Cy 10, 9, 8.
    assert_eq!(game.holdings[0].cards_left, Some(vec![2, 3, 4, 6, 7, 8]));
    assert_eq!(game.holdings[1].cards_left, Some(vec![2, 4, 5, 6, 7, 8, 9]));
    assert_eq!(game.holdings[2].cards_left, Some(vec![2, 3, 4, 5, 6, 7]));
    assert_eq!(game.holdings[2].items, vec![Item::K, Item::K]);
}

#[test]
fn a_tied_player_out_of_cards_is_treated_as_withdrawing() {
    // 0 J: P1 2, P2 3: P2 buys for 3. 1 A: 10–10, then 9, 8, 7, 6, 5, 4 each, then both 2:
    // still tied at 51, P2 has no card left (his 3 is spent), P1 still holds his 3: P2 is
    // treated as withdrawing (rules §3 item 31) and P1 buys for 10 + 9 + … + 4 + 2 = 51.
    // 2 K: P1 3 beats P2 2: P1 is out of cards. 3–7: P2 alone bids 4, 5, 6, 7, 8.
    // P1 A K = 7 for 54; P2 J K Q Q J A = 13 for 3 + 4 + 5 + 6 + 7 + 8 = 33: P2 wins on items.
    let steps: Vec<Value> = [9, 8, 7, 6, 5, 4, 2]
        .iter()
        .map(|c| json!({"P1": c, "P2": c}))
        .collect();
    let rounds = json!([
        {"item": "J", "bids": {"P1": 2, "P2": 3}},
        {"item": "A", "bids": {"P1": 10, "P2": 10}, "overtime": steps},
        {"item": "K", "bids": {"P1": 3, "P2": 2}},
        {"item": "K", "bids": {"P2": 4}},
        {"item": "Q", "bids": {"P2": 5}},
        {"item": "Q", "bids": {"P2": 6}},
        {"item": "J", "bids": {"P2": 7}},
        {"item": "A", "bids": {"P2": 8}}
    ]);
    let l = run(
        TWO,
        json!({"stake": "1.00"}),
        vec![json!({"type": "hand", "rounds": rounds.clone()})],
    )
    .unwrap();
    assert_eq!(winners(&l), vec![Some("P2".to_string())]);
    assert_eq!(
        l.games[0].final_scores["P1"],
        json!({"items": 7, "spent": 54})
    );
    assert_eq!(
        l.games[0].final_scores["P2"],
        json!({"items": 13, "spent": 33})
    );
    assert_eq!(cents(&l, "P2"), 100);
    // P1, out of cards, cannot bid again: his 2 was spent on the A.
    let mut spent_again = rounds.clone();
    spent_again[3]["bids"] = json!({"P1": 2, "P2": 4});
    assert_eq!(
        refused(TWO, spent_again),
        (Some(0), "rounds.3.bids.P1".to_string())
    );
}

#[test]
fn both_out_of_cards_and_tied_asks_who_gave_up_first() {
    // 10–10 then 9 … 2 each: both spent everything on the table and are tied at 54. The
    // rules give no order, so the table says who withdrew first; the other buys for 54.
    let steps: Vec<Value> = (2..=9).rev().map(|c| json!({"P1": c, "P2": c})).collect();
    let mut rounds = json!([
        {"item": "A", "bids": {"P1": 10, "P2": 10}, "overtime": steps},
        {"item": "A", "bids": {"P2": 2}}, {"item": "K", "bids": {"P2": 3}},
        {"item": "K", "bids": {"P2": 4}}, {"item": "Q", "bids": {"P2": 5}},
        {"item": "Q", "bids": {"P2": 6}}, {"item": "J", "bids": {"P2": 7}},
        {"item": "J", "bids": {"P2": 8}}
    ]);
    assert_eq!(refused(TWO, rounds.clone()).1, "rounds.0.withdrawn");
    rounds[0]["withdrawn"] = json!(["P2"]);
    // P1 A = 4 for 54; P2 the other seven = 4+3+3+2+2+1+1 = 16 for 35: P2 wins.
    let l = run(
        TWO,
        json!({}),
        vec![json!({"type": "hand", "rounds": rounds})],
    )
    .unwrap();
    assert_eq!(
        l.games[0].final_scores["P1"],
        json!({"items": 4, "spent": 54})
    );
    assert_eq!(winners(&l), vec![Some("P2".to_string())]);
}

#[test]
fn the_joker_turned_last_ends_the_game_and_takes_no_bids() {
    let mut rounds = base();
    rounds
        .as_array_mut()
        .unwrap()
        .push(json!({"item": "JOKER"}));
    assert!(
        run(
            TWO,
            json!({}),
            vec![json!({"type": "hand", "rounds": rounds.clone()})]
        )
        .is_ok()
    );
    rounds[8]["bids"] = json!({"P1": 6, "P2": 6});
    assert_eq!(refused(TWO, rounds), (Some(0), "rounds.8.bids".to_string()));
}

#[test]
fn round_by_round_refusals_name_the_round_and_the_field() {
    let field = |rounds: Value| refused(TWO, rounds).1;
    // Only 2–10.
    assert_eq!(
        field(with(0, "bids", json!({"P1": 11, "P2": 7}))),
        "rounds.0.bids.P1"
    );
    assert_eq!(
        field(with(0, "bids", json!({"P1": 1, "P2": 7}))),
        "rounds.0.bids.P1"
    );
    // The 7 is already on the table in this round.
    assert_eq!(
        field(with(0, "overtime", json!([{"P1": 7, "P2": 3}]))),
        "rounds.0.overtime.0.P1"
    );
    // With two players everyone holding money bids.
    assert_eq!(field(with(1, "bids", json!({"P2": 7}))), "rounds.1.bids.P1");
    // No tie, no overtime; no tie, nobody withdraws.
    assert_eq!(
        field(with(1, "overtime", json!([{"P1": 3, "P2": 4}]))),
        "rounds.1.overtime.0"
    );
    assert_eq!(
        field(with(1, "withdrawn", json!(["P1"]))),
        "rounds.1.withdrawn"
    );
    // Tied with no step and no withdrawal: the round is not finished.
    assert_eq!(field(with(0, "overtime", json!([]))), "rounds.0.overtime");
    // A step of one player: he would already have bought it.
    assert_eq!(
        field(with(0, "overtime", json!([{"P1": 5}]))),
        "rounds.0.overtime.0"
    );
    // The last one left cannot withdraw.
    let mut all = with(0, "overtime", json!([]));
    all[0]["withdrawn"] = json!(["P1", "P2"]);
    assert_eq!(field(all), "rounds.0.withdrawn");
    // A third Q; a game with a round missing; a stranger.
    assert_eq!(field(with(2, "item", json!("Q"))), "rounds.2.item");
    let mut short = base();
    short.as_array_mut().unwrap().pop();
    assert_eq!(field(short), "rounds");
    assert_eq!(
        field(with(1, "bids", json!({"P1": 2, "P2": 7, "Zed": 4}))),
        "rounds.1.bids.Zed"
    );
    // A misspelt field.
    assert_eq!(field(with(1, "bid", json!({}))), "rounds[1].bid");
}

#[test]
fn only_the_tied_top_bidders_go_to_overtime() {
    // Ann 9 = Bob 9 > Cy 5: Cy lost the round and may not add a card.
    let rounds = json!([
        {"item": "A", "bids": {"Ann": 9, "Bob": 9, "Cy": 5}, "overtime": [{"Ann": 2, "Bob": 3, "Cy": 10}]}
    ]);
    assert_eq!(
        refused(&["Ann", "Bob", "Cy"], rounds).1,
        "rounds.0.overtime.0.Cy"
    );
}

#[test]
fn final_counts_tied_winners_share_each_losers_stake() {
    // Ann A K = 7 for 12, Bob A K = 7 for 12, Cy Q Q J J = 6 for 14 (the least four cards can be: 2 + 3 + 4 + 5): Ann and Bob tie on
    // both and draw; Cy's 0.05 is shared 3 + 2, the odd cent to the first seat (Ann).
    let l = run(
        &["Ann", "Bob", "Cy"],
        json!({"stake": "0.05"}),
        vec![json!({"type": "hand", "final": {
            "Ann": {"items": ["A", "K"], "spent": 12},
            "Bob": {"items": ["A", "K"], "spent": 12},
            "Cy": {"items": ["Q", "Q", "J", "J"], "spent": 14}
        }})],
    )
    .unwrap();
    assert_eq!(winners(&l), vec![None]);
    assert_eq!(l.games[0].decided_by, "draw");
    assert_eq!(
        (cents(&l, "Ann"), cents(&l, "Bob"), cents(&l, "Cy")),
        (3, 2, -5)
    );
}

#[test]
fn when_everyone_draws_nobody_pays() {
    // Four players with 5 each (A J, K Q, A J, K Q) for 10 each.
    let l = run(
        &["A1", "B2", "C3", "D4"],
        json!({"stake": "1.00"}),
        vec![json!({"type": "hand", "final": {
            "A1": {"items": ["A", "J"], "spent": 10}, "B2": {"items": ["K", "Q"], "spent": 10},
            "C3": {"items": ["A", "J"], "spent": 10}, "D4": {"items": ["K", "Q"], "spent": 10}
        }})],
    )
    .unwrap();
    assert_eq!(winners(&l), vec![None]);
    assert!(l.balances.values().all(|m| m.is_zero()));
}

#[test]
fn each_loser_pays_the_single_winner_and_games_add_up() {
    // Game 1: Bob K K Q = 8 for 15 beats Ann A A = 8 for 20 on money, and Cy Q J J = 4:
    // Ann and Cy pay Bob 0.50 each. Game 2: Cy A A K = 11 wins on items: Ann and Bob pay
    // him 0.50 each. Ann −1.00, Bob +0.50, Cy +0.50.
    let l = run(
        &["Ann", "Bob", "Cy"],
        json!({"stake": "0.50"}),
        vec![
            json!({"type": "hand", "final": {
            "Ann": {"items": ["A", "A"], "spent": 20},
            "Bob": {"items": ["K", "K", "Q"], "spent": 15},
            "Cy": {"items": ["Q", "J", "J"], "spent": 9}}}),
            json!({"type": "hand", "final": {
            "Cy": {"items": ["A", "A", "K"], "spent": 30},
            "Bob": {"items": ["K", "Q", "Q", "J", "J"], "spent": 25}}}),
        ],
    )
    .unwrap();
    assert_eq!(winners(&l), vec![Some("Bob".into()), Some("Cy".into())]);
    assert_eq!(l.games[0].decided_by, "least_spent");
    assert_eq!(l.games[1].decided_by, "items");
    assert_eq!(
        (cents(&l, "Ann"), cents(&l, "Bob"), cents(&l, "Cy")),
        (-100, 50, 50)
    );
}

#[test]
fn final_count_refusals_name_the_player_and_field() {
    let two = |ann: Value| {
        final_refused(
            TWO,
            json!({"P1": ann, "P2": {"items": ["K", "K", "Q", "Q", "J"], "spent": 30}}),
        )
    };
    // 3 items need 3 distinct cards: at least 2 + 3 + 4 = 9; 1 cannot be paid.
    assert_eq!(
        two(json!({"items": ["A", "A", "J"], "spent": 1})),
        "final.P1.spent"
    );
    assert_eq!(
        two(json!({"items": ["A", "A", "J"], "spent": 8})),
        "final.P1.spent"
    );
    assert_eq!(
        two(json!({"items": ["A", "A", "J"], "spent": 55})),
        "final.P1.spent"
    );
    // 53 = 54 − 1: no card is worth 1.
    assert_eq!(
        two(json!({"items": ["A", "A", "J"], "spent": 53})),
        "final.P1.spent"
    );
    assert_eq!(
        two(json!({"items": ["A", "A", "JOKER"], "spent": 20})),
        "final.P1.items"
    );
    assert_eq!(
        two(json!({"items": ["A", "A", "A"], "spent": 20})),
        "final.P1.items"
    );
    // With two players every item is bought: here only 7 of 8.
    assert_eq!(two(json!({"items": ["A", "A"], "spent": 20})), "final");
    // Nothing bought, nothing spent.
    assert_eq!(
        final_refused(
            &["A1", "B2", "C3"],
            json!({"A1": {"items": [], "spent": 5}})
        ),
        "final.A1.spent"
    );
    assert_eq!(
        final_refused(TWO, json!({"Zed": {"items": [], "spent": 0}})),
        "final.Zed"
    );
    // Both forms at once, or neither.
    let e = run(
        TWO,
        json!({}),
        vec![json!({"type": "hand", "rounds": base(), "final": {}})],
    )
    .unwrap_err();
    assert_eq!(e.field, "final");
    let e = run(TWO, json!({}), vec![json!({"type": "hand"})]).unwrap_err();
    assert_eq!(e.field, "rounds");
}

#[test]
fn the_table_is_two_to_four_players_and_only_games_are_events() {
    assert_eq!(
        run(&["A1"], json!({}), vec![]).unwrap_err().field,
        "players"
    );
    assert_eq!(
        run(&["A", "B", "C", "D", "E"], json!({}), vec![])
            .unwrap_err()
            .field,
        "players"
    );
    let e = run(TWO, json!({}), vec![json!({"type": "declare_out"})]).unwrap_err();
    assert_eq!(
        (e.event_index, e.field.to_string().as_str()),
        (Some(0), "type")
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Spent money a player can really have laid out for `k` items: the cards in `mask`
    /// (bit i is the card i + 2) with the `k` lowest forced in, so at least `k` cards.
    fn spent(k: usize, mask: u16) -> i64 {
        if k == 0 {
            return 0;
        }
        let forced = (1u16 << k) - 1;
        (0..9)
            .filter(|i| (mask | forced) & (1 << i) != 0)
            .map(|i| i64::from(i) + 2)
            .sum()
    }

    proptest! {
        /// Whoever wins, every loser pays exactly the stake, the winners get it all within a
        /// cent of each other, and the postings sum to zero (rules §0.3).
        #[test]
        fn every_loser_pays_the_stake_and_the_money_adds_up(
            n in 2usize..=4,
            owners in proptest::collection::vec(0usize..4, 8),
            masks in proptest::collection::vec(any::<u16>(), 4),
            stake in 0i64..1_000,
        ) {
            let names = ["A1", "B2", "C3", "D4"];
            let deck = ["J", "J", "Q", "Q", "K", "K", "A", "A"];
            let mut items: Vec<Vec<&str>> = vec![Vec::new(); n];
            for (card, owner) in deck.iter().zip(&owners) {
                items[owner % n].push(card);
            }
            let summary: serde_json::Map<String, Value> = (0..n)
                .map(|s| (names[s].to_string(),
                    json!({"items": items[s], "spent": spent(items[s].len(), masks[s])})))
                .collect();
            let money = format!("{}.{:02}", stake / 100, stake % 100);
            let l = run(&names[..n], json!({"stake": money}),
                vec![json!({"type": "hand", "final": summary})]).unwrap();
            let posted: i64 = l.events[0].postings.iter().map(|p| p.amount.cents()).sum();
            prop_assert_eq!(posted, 0);
            let balances: Vec<i64> = (0..n).map(|s| cents(&l, names[s])).collect();
            let losers = balances.iter().filter(|&&b| b < 0).count() as i64;
            prop_assert!(balances.iter().all(|&b| b >= 0 || b == -stake));
            let won: Vec<i64> = balances.iter().copied().filter(|&b| b > 0).collect();
            prop_assert_eq!(won.iter().sum::<i64>(), losers * stake);
            if let (Some(max), Some(min)) = (won.iter().max(), won.iter().min()) {
                prop_assert!(max - min <= losers);
            }
        }
    }
}
