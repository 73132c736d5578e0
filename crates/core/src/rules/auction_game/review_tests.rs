//! A rules review of the Auction game (rules §1.10, §3 item 31, session-format
//! `auction_game`): further whole sessions through `replay`, each worked out by hand from
//! the rules in the comment beside it, for the edge cases the public examples do not touch.

use serde_json::{Value, json};

use crate::format::LedgerDoc;
use crate::rules::replay_tests;
use crate::session::Refusal;

/// An Auction session at `players` (no scores to carry in) played through `replay`.
fn run(players: &[&str], agreements: Value, events: Vec<Value>) -> Result<LedgerDoc, Refusal> {
    replay_tests::run("auction_game", players, agreements, Value::Null, events)
}

fn cents(l: &LedgerDoc, players: &[&str]) -> Vec<i64> {
    replay_tests::cents(l, players)
}

const ABC: &[&str] = &["A", "B", "C"];

/// A three-player game touching every round rule (rules §1.10, §3 item 31):
/// - 0 J: A 2, B 2, C 3: C buys for 3 (no overtime: only a tie for the highest goes on);
/// - 1 Joker: no bids;
/// - 2 Q: all three bid 5; in the overtime A adds 4, B 3, C nothing (he withdrew, the rest
///   continue): A 9 > B 8, A buys for 5 + 4 = 9;
/// - 3 K: nobody bids, the King is discarded;
/// - 4 K: B alone bids 10 and buys;
/// - 5 A: A 10, C 10; overtime A 3, C 4: C buys for 14;
/// - 6 A: A 9, B 9; B withdraws: A buys with the 9 on the table;
/// - 7 J: C 2 buys; 8 Q: B 2 buys.
///
/// A: Q + A = 2 + 4 = 6 for 9 + 9 = 18; B: K + Q = 5 for 12; C: J + A + J = 6 for
/// 3 + 14 + 2 = 19. A and C tie on 6; A spent less and wins (least_spent).
fn three_player_game() -> Value {
    json!({"type": "hand", "rounds": [
        {"item": "J", "bids": {"A": 2, "B": 2, "C": 3}},
        {"item": "JOKER"},
        {"item": "Q", "bids": {"A": 5, "B": 5, "C": 5}, "overtime": [{"A": 4, "B": 3}]},
        {"item": "K", "bids": {}},
        {"item": "K", "bids": {"B": 10}},
        {"item": "A", "bids": {"A": 10, "C": 10}, "overtime": [{"A": 3, "C": 4}]},
        {"item": "A", "bids": {"A": 9, "B": 9}, "withdrawn": ["B"]},
        {"item": "J", "bids": {"C": 2}},
        {"item": "Q", "bids": {"B": 2}}
    ]})
}

#[test]
fn three_players_win_by_items_then_least_spent() {
    // Stake 0.10 from each loser to A: A +0.20, B −0.10, C −0.10.
    let l = run(ABC, json!({"stake": "0.10"}), vec![three_player_game()]).unwrap();
    assert_eq!(cents(&l, ABC), vec![20, -10, -10]);
    let g = l.games.first().unwrap();
    assert_eq!(
        (g.winner.as_deref(), g.decided_by.as_str()),
        (Some("A"), "least_spent")
    );
}

#[test]
fn a_card_won_back_may_be_bid_again_but_a_spent_one_may_not() {
    // C won round 5's overtime, so A's 10 and 3 went back to his hand and he may bid the
    // 10 in round 6 (B's 9 is lower: no tie). C spent his 10 and 4 in round 5, so C bidding
    // 4 in round 7 is refused at rounds.7.bids.C.
    let mut ok = three_player_game();
    ok["rounds"][6]["bids"] = json!({"A": 10, "B": 9});
    ok["rounds"][6]["withdrawn"] = json!([]);
    let l = run(ABC, json!({"stake": "0.10"}), vec![ok]).unwrap();
    // A: Q + A for 9 + 10 = 19, C: 6 for 19: a tie on both → a draw between A and C; B pays
    // 0.10 shared 0.05 each: A +0.05, B −0.10, C +0.05.
    assert_eq!(cents(&l, ABC), vec![5, -10, 5]);
    assert_eq!(l.games.first().unwrap().winner, None);
    let mut spent = three_player_game();
    spent["rounds"][7]["bids"] = json!({"C": 4});
    let r = run(ABC, json!({}), vec![spent]).unwrap_err();
    assert_eq!(
        (r.event_index, r.field.to_string().as_str()),
        (Some(0), "rounds.7.bids.C")
    );
}

#[test]
fn a_three_way_draw_shares_the_losers_stake_from_the_first_seat() {
    // Final count, four players: B, C, D each have 5 in items for 10 spent, A 5 for 12. B,
    // C, D draw; A pays 0.10 shared 4 + 3 + 3 cents, the odd cent to the first winner from
    // the first seat (no hand dealt): B. A −0.10, B +0.04, C +0.03, D +0.03.
    let four = ["A", "B", "C", "D"];
    let l = run(
        &four,
        json!({"stake": "0.10"}),
        vec![json!({"type": "hand", "final": {
            "A": {"items": ["K", "Q"], "spent": 12},
            "B": {"items": ["A", "J"], "spent": 10},
            "C": {"items": ["K", "Q"], "spent": 10},
            "D": {"items": ["A", "J"], "spent": 10}
        }})],
    )
    .unwrap();
    assert_eq!(cents(&l, &four), vec![-10, 4, 3, 3]);
    assert_eq!(l.games.first().unwrap().winner, None);
}

#[test]
fn impossible_rounds_are_refused_naming_the_round_and_field() {
    let refused = |edit: &dyn Fn(&mut Value)| {
        let mut g = three_player_game();
        edit(&mut g);
        let r = run(ABC, json!({}), vec![g]).unwrap_err();
        (r.event_index, r.field.to_string())
    };
    // Round 2's overtime: C, who is tied, may not add a card he already put down.
    assert_eq!(
        refused(&|g| g["rounds"][2]["overtime"] = json!([{"A": 4, "C": 5}])),
        (Some(0), "rounds.2.overtime.0.C".to_string())
    );
    // Round 0 had no tie, so no overtime.
    assert_eq!(
        refused(&|g| g["rounds"][0]["overtime"] = json!([{"B": 4, "C": 4}])),
        (Some(0), "rounds.0.overtime.0".to_string())
    );
    // In round 5 B did not bid, so he is not in its overtime.
    assert_eq!(
        refused(&|g| g["rounds"][5]["overtime"] = json!([{"A": 3, "B": 4}])),
        (Some(0), "rounds.5.overtime.0.B".to_string())
    );
    // An 11 is no money card.
    assert_eq!(
        refused(&|g| g["rounds"][4]["bids"] = json!({"B": 11})),
        (Some(0), "rounds.4.bids.B".to_string())
    );
    // Round 3 turned into an Ace makes round 6 the third Ace.
    assert_eq!(
        refused(&|g| g["rounds"][3]["item"] = json!("A")),
        (Some(0), "rounds.6.item".to_string())
    );
}
