//! A game entered as its end summary (`final`): each player's items and money spent,
//! checked against what the cards allow (rules §1.10, §3 item 31). Without rounds, the
//! sheet shows the money left, not the cards.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use super::hand::{CARDS, Game, Holding, Item, START_MONEY, WrittenFinal, seat_of};
use crate::rules::{Field, RuleError};

/// For each sum of dollars 0–54, the most distinct money cards (2–10) that add up to it, or
/// `None` when no set of them does: worked out once, since every `final` game asks.
static MOST_CARDS: LazyLock<[Option<usize>; SUMS]> = LazyLock::new(most_cards);

/// How many sums a player can have spent: 0 to [`START_MONEY`] dollars.
const SUMS: usize = START_MONEY as usize + 1;

/// [`MOST_CARDS`], by subset sums over the nine cards.
fn most_cards() -> [Option<usize>; SUMS] {
    // reach[c][s]: some c distinct cards add up to s dollars.
    let mut reach = [[false; SUMS]; 10];
    if let Some(row) = reach.get_mut(0)
        && let Some(cell) = row.get_mut(0)
    {
        *cell = true;
    }
    for card in CARDS {
        let card = card as usize;
        for c in (1..10).rev() {
            for s in (card..SUMS).rev() {
                let from = reach
                    .get(c - 1)
                    .and_then(|r| r.get(s - card))
                    .copied()
                    .unwrap_or(false);
                if from && let Some(cell) = reach.get_mut(c).and_then(|r| r.get_mut(s)) {
                    *cell = true;
                }
            }
        }
    }
    std::array::from_fn(|s| {
        (0..10)
            .rev()
            .find(|&c| reach.get(c).and_then(|r| r.get(s)) == Some(&true))
    })
}

/// Whether at least `fewest` distinct money cards (2–10) add up to `spent`.
fn payable(spent: i64, fewest: usize) -> bool {
    usize::try_from(spent)
        .ok()
        .and_then(|s| MOST_CARDS.get(s).copied().flatten())
        .is_some_and(|most| most >= fewest)
}

/// One player's items, counted into `bought`: J, Q, K, A, two of each in all (rules §1.10).
/// Errors name `final.<name>.items`.
fn check_items(
    name: &str,
    items: &[Item],
    bought: &mut BTreeMap<Item, usize>,
) -> Result<(), RuleError> {
    // Named only for a refusal: a game replayed is read without building names.
    let field = || Field::name("final").player(name).then("items");
    for &item in items {
        if item == Item::Joker {
            return Err(
                RuleError::new(field(), "the Joker is not an item: nobody buys it")
                    .rule("rules §1.10"),
            );
        }
        let count = bought.entry(item).or_insert(0);
        *count += 1;
        if *count > 2 {
            return Err(RuleError::new(
                field(),
                format!("a third {}: the item deck holds two of each", item.name()),
            )
            .rule("rules §1.10"));
        }
    }
    Ok(())
}

/// What `name` spent: payable with distinct cards 2–10, one or more per item (rules §1.10,
/// §3 item 31). Errors name `final.<name>.spent`.
fn check_spent(name: &str, entry: &WrittenFinal) -> Result<(), RuleError> {
    let spent_field = || Field::name("final").player(name).then("spent");
    let k = entry.items.len();
    if !(0..=START_MONEY).contains(&entry.spent) {
        return Err(RuleError::new(
            spent_field(),
            format!(
                "{} is not what a player can spend: each holds 2 to 10, $54 in all",
                entry.spent
            ),
        )
        .rule("rules §1.10"));
    }
    if k == 0 && entry.spent != 0 {
        return Err(RuleError::new(
            spent_field(),
            format!(
                "{name} bought nothing, so he spent nothing: money is spent only on a purchase"
            ),
        )
        .rule("rules §1.10"));
    }
    if !payable(entry.spent, k) {
        return Err(RuleError::new(
            spent_field(),
            format!(
                "{} cannot be paid for {k} item(s) with {name}'s cards: each purchase spends one or more of his cards 2–10, each card once",
                entry.spent
            ),
        )
        .rule("rules §1.10"));
    }
    Ok(())
}

/// Reads `final` (a player left out bought nothing), checking (rules §1.10, §3 item 31):
/// names are players; items J, Q, K, A, two of each at most; spending payable as in
/// `check_spent`; with two players every item is bought unless both spent all. Errors name
/// `final.<player>.items` or `final.<player>.spent`.
pub fn read_final(
    summary: &BTreeMap<String, WrittenFinal>,
    players: &[String],
) -> Result<Game, RuleError> {
    let mut holdings = vec![Holding::default(); players.len()];
    let mut bought: BTreeMap<Item, usize> = BTreeMap::new();
    for (name, entry) in summary {
        let seat = seat_of(players, name).ok_or_else(|| {
            RuleError::new(
                Field::name("final").player(name),
                format!("{name} is not one of the players"),
            )
        })?;
        check_items(name, &entry.items, &mut bought)?;
        check_spent(name, entry)?;
        if let Some(h) = holdings.get_mut(seat) {
            *h = Holding {
                items: entry.items.clone(),
                spent: entry.spent,
                cards_left: None,
            };
        }
    }
    let all_bought: usize = bought.values().sum();
    if players.len() == 2 && all_bought < 8 && holdings.iter().any(|h| h.spent < START_MONEY) {
        return Err(RuleError::new(
            "final",
            format!(
                "only {all_bought} of the 8 items are bought: with two players each bids every round while he holds a card, so every item is bought"
            ),
        )
        .rule("rules §1.10"));
    }
    Ok(Game {
        holdings,
        sales: Vec::new(),
    })
}

#[cfg(test)]
mod most_cards_tests {
    use super::*;

    /// Every subset of the nine money cards, counted by hand: the table agrees on each sum.
    #[test]
    fn the_table_of_most_cards_matches_every_subset_of_the_money_cards() {
        let mut most = [None; SUMS];
        for subset in 0u32..(1 << 9) {
            let cards = (0..9).filter(|bit| subset & (1 << bit) != 0);
            let sum: usize = cards.clone().map(|bit| bit + 2).sum();
            let count = cards.count();
            let cell = most.get_mut(sum).expect("nine cards add up to at most 54");
            *cell = Some(count.max(cell.unwrap_or(0)));
        }
        assert_eq!(*MOST_CARDS, most);
        assert_eq!(MOST_CARDS[54], Some(9), "all nine cards");
        assert_eq!(MOST_CARDS[1], None, "no card is worth 1");
        assert_eq!(MOST_CARDS[53], None, "54 less 1: no card is worth 1");
    }
}
