//! An Auction game played round by round (rules §1.10, §3 item 31).

use std::collections::BTreeMap;

use super::hand::{CARDS, Game, Holding, Item, Sale, WrittenRound, seat_of};
use crate::rules::{Field, RuleError};

/// The money cards of one player during a game: which of 2–10 he still holds.
#[derive(Debug, Clone)]
struct Hand([bool; 11]);

impl Hand {
    fn full() -> Hand {
        let mut cards = [false; 11];
        for slot in cards.iter_mut().skip(2) {
            *slot = true;
        }
        Hand(cards)
    }

    fn holds(&self, card: i64) -> bool {
        usize::try_from(card)
            .ok()
            .and_then(|c| self.0.get(c).copied())
            .unwrap_or(false)
    }

    fn spend(&mut self, card: i64) {
        if let Some(slot) = usize::try_from(card).ok().and_then(|c| self.0.get_mut(c)) {
            *slot = false;
        }
    }

    fn left(&self) -> Vec<i64> {
        CARDS.filter(|c| self.holds(*c)).collect()
    }
}

/// Whether `name` may put down `card`: 2–10, not spent nor already down (rules §1.10).
fn check_card(
    field: &Field,
    name: &str,
    card: i64,
    hand: &Hand,
    on_table: &[i64],
) -> Result<(), RuleError> {
    if !CARDS.contains(&card) {
        return Err(RuleError::new(
            field,
            format!("{card} is not a money card: they run from 2 to 10"),
        )
        .rule("rules §1.10"));
    }
    if on_table.contains(&card) {
        return Err(RuleError::new(
            field,
            format!(
                "{name}'s {card} is already on the table in this round: each card is put down once"
            ),
        )
        .rule("rules §1.10"));
    }
    if !hand.holds(card) {
        return Err(RuleError::new(
            field,
            format!(
                "{name} spent his {card} in an earlier round: a money card can be spent only once"
            ),
        )
        .rule("rules §1.10"));
    }
    Ok(())
}

/// The seats with the highest total on the table among `seats`.
fn top(seats: &[usize], table: &[Vec<i64>]) -> Vec<usize> {
    let total = |s: usize| table.get(s).map_or(0, |c| c.iter().sum::<i64>());
    let best = seats.iter().map(|&s| total(s)).max().unwrap_or(0);
    seats
        .iter()
        .copied()
        .filter(|&s| total(s) == best)
        .collect()
}

fn names(players: &[String], seats: &[usize]) -> String {
    let named: Vec<&str> = seats
        .iter()
        .filter_map(|&s| players.get(s).map(String::as_str))
        .collect();
    match named.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Plays the rounds in order, checking rules §1.10 and §3 item 31:
/// - items: two each of J, Q, K, A and one Joker; all eight turned, the Joker optional and
///   unbid;
/// - first bids: one unspent card each; with 2 players everyone holding a card bids, with
///   3–4 it is optional and an unbid item is discarded;
/// - overtime: only the tied top bidders, at least two per step; with 3–4 one left out has
///   withdrawn; steps stop once the tie breaks;
/// - withdrawal: only the still tied, never all (the last buys); out of cards counts as
///   withdrawing; the buyer spends all he put down, the others take theirs back.
///
/// Errors name `rounds.<i>.item`, `.bids.<player>`, `.overtime.<k>`, `.withdrawn` or
/// `rounds`, with the rule.
pub fn play_rounds(rounds: &[WrittenRound], players: &[String]) -> Result<Game, RuleError> {
    let n = players.len();
    let mut hands = vec![Hand::full(); n];
    let mut holdings = vec![Holding::default(); n];
    let mut turned: BTreeMap<Item, usize> = BTreeMap::new();
    let mut sales = Vec::new();
    for (i, round) in rounds.iter().enumerate() {
        turn_item(&mut turned, i, round)?;
        if round.item == Item::Joker {
            sales.push(Sale::Joker);
            continue;
        }
        // The field counts rounds from 0 as the document does; the words from 1.
        let sale = play_round(i, round, players, &mut hands).map_err(|e| {
            RuleError::new(
                e.field,
                format!("round {} ({}): {}", i + 1, round.item.name(), e.message),
            )
        })?;
        if let Sale::Bought {
            item, buyer, cards, ..
        } = &sale
            && let Some(h) = holdings.get_mut(*buyer)
        {
            h.items.push(*item);
            h.spent += cards.iter().sum::<i64>();
        }
        sales.push(sale);
    }
    all_items_turned(&turned)?;
    for (h, hand) in holdings.iter_mut().zip(&hands) {
        h.cards_left = Some(hand.left());
    }
    Ok(Game { holdings, sales })
}

/// Round `i` turns its item (within the deck; no bids on the Joker, rules §1.10).
fn turn_item(
    turned: &mut BTreeMap<Item, usize>,
    i: usize,
    round: &WrittenRound,
) -> Result<(), RuleError> {
    let at = |f: &str| Field::name("rounds").place(i).then(f);
    let count = turned.entry(round.item).or_insert(0);
    *count += 1;
    if *count > round.item.in_deck() {
        return Err(RuleError::new(
            at("item"),
            format!(
                "a {} more than the item deck holds: it has two each of J, Q, K, A and one Joker",
                round.item.name()
            ),
        )
        .rule("rules §1.10"));
    }
    if round.item == Item::Joker
        && (round.bids.as_ref().is_some_and(|b| !b.is_empty())
            || round.overtime.as_ref().is_some_and(|o| !o.is_empty())
            || round.withdrawn.as_ref().is_some_and(|w| !w.is_empty()))
    {
        return Err(RuleError::new(
            at("bids"),
            "the Joker is not an item: nobody bids on it, the next card is bid on blind",
        )
        .rule("rules §1.10"));
    }
    Ok(())
}

/// All eight items must be turned (rules §1.10); the error names `rounds` and those left.
fn all_items_turned(turned: &BTreeMap<Item, usize>) -> Result<(), RuleError> {
    let missing: Vec<&str> = Item::ITEMS
        .iter()
        .rev()
        .flat_map(|item| {
            let left = item.in_deck() - turned.get(item).copied().unwrap_or(0).min(2);
            std::iter::repeat_n(item.letter(), left)
        })
        .collect();
    if !missing.is_empty() {
        return Err(RuleError::new(
            "rounds",
            format!(
                "the game is not over: {} still in the item deck; a game turns all eight items, each round written",
                missing.join(", ")
            ),
        )
        .rule("rules §1.10"));
    }
    Ok(())
}

/// Plays one item round (not the Joker); see [`play_rounds`].
fn play_round(
    i: usize,
    round: &WrittenRound,
    players: &[String],
    hands: &mut [Hand],
) -> Result<Sale, RuleError> {
    let at = |f: &str| Field::name("rounds").place(i).then(f);
    let bids = round.bids.as_ref().ok_or_else(|| {
        RuleError::new(
            at("bids"),
            format!(
                "who bid what on the {}? Write {{}} when nobody bid",
                round.item.name()
            ),
        )
    })?;
    let steps = round.overtime.as_deref().unwrap_or(&[]);
    let withdrawn = round.withdrawn.as_deref().unwrap_or(&[]);
    let mut table: Vec<Vec<i64>> = vec![Vec::new(); players.len()];
    let bidders = first_bids(i, bids, players, hands, &mut table)?;
    if bidders.is_empty() {
        if !steps.is_empty() || !withdrawn.is_empty() {
            return Err(RuleError::new(
                at("overtime"),
                "nobody bid, so there is no overtime and nobody to withdraw",
            ));
        }
        return Ok(Sale::Discarded(round.item));
    }
    let mut withdrew = Vec::new();
    let mut tied = top(&bidders, &table);
    for (k, step) in steps.iter().enumerate() {
        let field = at("overtime").place(k);
        let adding = overtime_step(&field, step, round.item, players, hands, &mut table, &tied)?;
        // Tied players who added nothing withdrew (3–4 players: the rest continue, §3 item 31).
        withdrew.extend(tied.iter().copied().filter(|s| !adding.contains(s)));
        tied = top(&adding, &table);
    }
    withdraw(i, withdrawn, round.item, players, &mut tied, &mut withdrew)?;
    if tied.len() > 1 {
        out_of_cards(i, players, hands, &table, &mut tied, &mut withdrew)?;
    }
    let buyer = tied
        .first()
        .copied()
        .ok_or_else(|| RuleError::new(at("bids"), "nobody is left to buy the item"))?;
    let cards = table.get(buyer).cloned().unwrap_or_default();
    if let Some(hand) = hands.get_mut(buyer) {
        for &c in &cards {
            hand.spend(c);
        }
    }
    Ok(Sale::Bought {
        item: round.item,
        buyer,
        cards,
        overtime: steps.len(),
        withdrew,
    })
}

/// Round `i`'s first cards; with two players each bids while he can (rules §1.10).
fn first_bids(
    i: usize,
    bids: &BTreeMap<String, i64>,
    players: &[String],
    hands: &[Hand],
    table: &mut [Vec<i64>],
) -> Result<Vec<usize>, RuleError> {
    let at = |f: &str| Field::name("rounds").place(i).then(f);
    let mut bidders = Vec::new();
    for (name, &card) in bids {
        let field = at("bids").player(name);
        let seat = seat_of(players, name)
            .ok_or_else(|| RuleError::new(&field, format!("{name} is not one of the players")))?;
        let (Some(hand), Some(put)) = (hands.get(seat), table.get_mut(seat)) else {
            continue;
        };
        check_card(&field, name, card, hand, put)?;
        put.push(card);
        bidders.push(seat);
    }
    bidders.sort_unstable();
    if players.len() == 2 {
        for (seat, hand) in hands.iter().enumerate() {
            if !bidders.contains(&seat) && !hand.left().is_empty() {
                let name = players.get(seat).map_or("", String::as_str);
                return Err(RuleError::new(
                    at("bids").player(name),
                    format!(
                        "with two players each bids a card every round, and {name} still holds money: what did he bid?"
                    ),
                )
                .rule("rules §1.10"));
            }
        }
    }
    Ok(bidders)
}

/// One overtime step: two or more `tied` players add a card (rules §1.10).
fn overtime_step(
    field: &Field,
    step: &BTreeMap<String, i64>,
    item: Item,
    players: &[String],
    hands: &[Hand],
    table: &mut [Vec<i64>],
    tied: &[usize],
) -> Result<Vec<usize>, RuleError> {
    if tied.len() < 2 {
        return Err(RuleError::new(
            field,
            format!(
                "there is no tie left: {} already bought the {}",
                names(players, tied),
                item.name()
            ),
        )
        .rule("rules §1.10"));
    }
    let mut adding = Vec::new();
    for (name, &card) in step {
        let card_field = field.clone().player(name);
        let seat = seat_of(players, name).ok_or_else(|| {
            RuleError::new(&card_field, format!("{name} is not one of the players"))
        })?;
        if !tied.contains(&seat) {
            return Err(RuleError::new(
                &card_field,
                format!(
                    "{name} is not in this overtime: only {} are still tied",
                    names(players, tied)
                ),
            )
            .rule("rules §1.10"));
        }
        let (Some(hand), Some(put)) = (hands.get(seat), table.get_mut(seat)) else {
            continue;
        };
        check_card(&card_field, name, card, hand, put)?;
        put.push(card);
        adding.push(seat);
    }
    adding.sort_unstable();
    if adding.len() < 2 {
        return Err(RuleError::new(
            field,
            format!(
                "an overtime step is two or more tied players each adding one card; {} were tied, and a player left alone buys with what is on the table",
                names(players, tied)
            ),
        )
        .rule("rules §1.10"));
    }
    Ok(adding)
}

/// The players withdrawing from round `i`'s tie: still tied, never the last (rules §1.10).
fn withdraw(
    i: usize,
    withdrawn: &[String],
    item: Item,
    players: &[String],
    tied: &mut Vec<usize>,
    withdrew: &mut Vec<usize>,
) -> Result<(), RuleError> {
    let field = format!("rounds.{i}.withdrawn");
    if !withdrawn.is_empty() && tied.len() < 2 {
        return Err(RuleError::new(
            field,
            format!(
                "nobody is tied any more: {} bought the {}, so nobody can withdraw",
                names(players, tied),
                item.name()
            ),
        )
        .rule("rules §1.10"));
    }
    for name in withdrawn {
        let seat = seat_of(players, name)
            .ok_or_else(|| RuleError::new(&field, format!("{name} is not one of the players")))?;
        if !tied.contains(&seat) {
            return Err(RuleError::new(
                field,
                format!(
                    "{name} cannot withdraw: only {} are still tied",
                    names(players, tied)
                ),
            )
            .rule("rules §1.10"));
        }
        if tied.len() == 1 {
            return Err(RuleError::new(
                field,
                format!(
                    "{name} is the last one left and is stuck with the purchase: when all try to withdraw, the first ones do and the last one buys"
                ),
            )
            .rule("rules §1.10"));
        }
        tied.retain(|&s| s != seat);
        withdrew.push(seat);
    }
    Ok(())
}

/// A tie after overtime: out of cards withdraws (rules §3 item 31); one left buys.
fn out_of_cards(
    i: usize,
    players: &[String],
    hands: &[Hand],
    table: &[Vec<i64>],
    tied: &mut Vec<usize>,
    withdrew: &mut Vec<usize>,
) -> Result<(), RuleError> {
    let can_add = |s: usize| {
        let put = table.get(s).map_or(&[][..], Vec::as_slice);
        hands
            .get(s)
            .is_some_and(|h| h.left().iter().any(|c| !put.contains(c)))
    };
    let still: Vec<usize> = tied.iter().copied().filter(|&s| can_add(s)).collect();
    match still.len() {
        1 => {
            withdrew.extend(tied.iter().copied().filter(|s| !still.contains(s)));
            *tied = still;
            Ok(())
        }
        0 => Err(RuleError::new(
            format!("rounds.{i}.withdrawn"),
            format!(
                "{} are still tied and none has a card left to add: write in withdrawn who gave up first; the last one buys",
                names(players, tied)
            ),
        )
        .rule("rules §1.10")),
        _ => Err(RuleError::new(
            format!("rounds.{i}.overtime"),
            format!(
                "{} are still tied: write the next overtime step, or who withdrew",
                names(players, &still)
            ),
        )
        .rule("rules §1.10")),
    }
}
