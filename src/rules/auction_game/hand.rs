//! One game of Auction as entered at the table, checked against the rules (rules §1.10,
//! §3 item 31, S004) and the session format. One `hand` event is one whole game, written
//! round by round or as the summary at its end:
//!
//! ```json
//! { "type": "hand", "rounds": [
//!     { "item": "Q", "bids": { "Ann": 7, "Bob": 7 }, "overtime": [ { "Ann": 5, "Bob": 3 } ],
//!       "withdrawn": [] },
//!     { "item": "JOKER" } ] }
//! { "type": "hand", "final": { "Ann": { "items": ["A", "J"], "spent": 20 } } }
//! ```
//!
//! Money cards are whole dollars 2–10 (each player holds one of each, $54); items are J, Q,
//! K, A worth 1, 2, 3, 4 (two of each, 20 in all) and the Joker, which is no item.
//! Refusals name the field as the document writes it, with the round's 0-based index
//! (`rounds.2.bids.Ann`, `final.Bob.spent`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::rules::{RuleError, fields};

/// The lowest and highest money card (rules §1.10: "each holds 2–10 of one suit").
pub const CARDS: std::ops::RangeInclusive<i64> = 2..=10;

/// The money each player starts with, in dollars: 2 + 3 + … + 10 (rules §1.10).
pub const START_MONEY: i64 = 54;

/// A card of the item deck (rules §1.10: J, J, Q, Q, K, K, A, A and a Joker).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
pub enum Item {
    /// A Jack, worth 1.
    J,
    /// A Queen, worth 2.
    Q,
    /// A King, worth 3.
    K,
    /// An Ace, worth 4.
    A,
    /// The Joker: no item; the next card is bid on blind, and turned last it ends the game.
    #[serde(rename = "JOKER")]
    Joker,
}

impl Item {
    /// The four items, in the order the sheet lists them (most valuable first).
    pub const ITEMS: [Item; 4] = [Item::A, Item::K, Item::Q, Item::J];

    /// The item's value (rules §1.10: J 1, Q 2, K 3, A 4; the Joker 0).
    pub fn value(self) -> i64 {
        match self {
            Item::J => 1,
            Item::Q => 2,
            Item::K => 3,
            Item::A => 4,
            Item::Joker => 0,
        }
    }

    /// The letter the document and the sheet write (`"A"`, `"JOKER"`).
    pub fn letter(self) -> &'static str {
        match self {
            Item::J => "J",
            Item::Q => "Q",
            Item::K => "K",
            Item::A => "A",
            Item::Joker => "JOKER",
        }
    }

    /// The name a player reads ("Ace").
    pub fn name(self) -> &'static str {
        match self {
            Item::J => "Jack",
            Item::Q => "Queen",
            Item::K => "King",
            Item::A => "Ace",
            Item::Joker => "Joker",
        }
    }

    /// How many of it the item deck holds: two of each item, one Joker.
    fn in_deck(self) -> usize {
        if self == Item::Joker { 1 } else { 2 }
    }
}

/// One round as written: the item turned, the first (simultaneous) bids, each overtime
/// step's added cards, and who withdrew after the last step, in order. A Joker round has
/// only its `item`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenRound {
    /// The card turned.
    pub item: Item,
    /// Each bidder's first card; `{}` when nobody bids. Absent only for the Joker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bids: Option<BTreeMap<String, i64>>,
    /// The overtime steps: the card each player still tied adds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overtime: Option<Vec<BTreeMap<String, i64>>>,
    /// Who withdrew after the last step, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub withdrawn: Option<Vec<String>>,
}

/// One player's end of game as written in `final`: the items bought and the money spent
/// (dollars).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenFinal {
    /// The items bought.
    pub items: Vec<Item>,
    /// The money spent, in dollars of money cards.
    pub spent: i64,
}

/// A `hand` event: one game, round by round or summed up.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenGame {
    /// Always `"hand"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The rounds in the order the items were turned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<Vec<WrittenRound>>,
    /// The summary at the end of the game, by player.
    #[serde(default, rename = "final", skip_serializing_if = "Option::is_none")]
    pub summary: Option<BTreeMap<String, WrittenFinal>>,
}

/// How one round ended, for the sheet and the words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sale {
    /// The Joker was turned.
    Joker,
    /// Nobody bid: the item is discarded (rules §3 item 31).
    Discarded(Item),
    /// `buyer` (a seat) bought `item` with `cards`, after `overtime` steps; `withdrew` lists
    /// who withdrew (or ran out of cards) in overtime.
    Bought {
        /// The item.
        item: Item,
        /// The buyer's seat.
        buyer: usize,
        /// The cards he spent.
        cards: Vec<i64>,
        /// How many overtime steps there were.
        overtime: usize,
        /// The seats that withdrew or ran out of cards, in order.
        withdrew: Vec<usize>,
    },
}

/// One player's end of a game, checked.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Holding {
    /// The items bought, in the order bought (as written for `final`).
    pub items: Vec<Item>,
    /// The money spent, in dollars.
    pub spent: i64,
    /// The money cards still in hand, when the game was entered round by round.
    pub cards_left: Option<Vec<i64>>,
}

impl Holding {
    /// The value of the items (rules §1.10).
    pub fn value(&self) -> i64 {
        self.items.iter().map(|i| i.value()).sum()
    }
}

/// A game, checked: each seat's holding and, round by round, how each round ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Each seat's holding, in seat order.
    pub holdings: Vec<Holding>,
    /// The rounds, when entered round by round (empty for `final`).
    pub sales: Vec<Sale>,
}

/// Reads and checks a `hand` event for `players` (seat order). Errors name the field and
/// the rule: see [`play_rounds`] and [`super::final_count::read_final`].
pub fn read_game(event: &Map<String, Value>, players: &[String]) -> Result<Game, RuleError> {
    let written: WrittenGame = fields::read(event)?;
    match (written.rounds, written.summary) {
        (Some(rounds), None) => play_rounds(&rounds, players),
        (None, Some(summary)) => super::final_count::read_final(&summary, players),
        (Some(_), Some(_)) => Err(RuleError::new(
            "final",
            "enter the game either round by round or as the summary at its end, not both",
        )),
        (None, None) => Err(RuleError::new(
            "rounds",
            "enter the game round by round or as the summary at its end",
        )),
    }
}

pub(super) fn seat_of(players: &[String], name: &str) -> Option<usize> {
    players.iter().position(|p| p == name)
}

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

/// Checks that `name` may put down `card` now: a player, a card 2–10, one he has not spent
/// in an earlier round and has not already put on the table this round (rules §1.10
/// "Validation: a money card can be spent only once; only 2–10").
fn check_card(
    field: &str,
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

/// Plays the rounds in order and checks every rule of rules §1.10 and §3 item 31:
/// - the item deck: two each of J, Q, K, A and one Joker; all eight items are turned in a
///   game (`rounds`), the Joker may be left out and takes no bids;
/// - the first bids: one money card each (2–10, not spent before); with 2 players everyone
///   still holding a card bids, with 3–4 bidding is optional and an item nobody bids on is
///   discarded;
/// - overtime: only the players tied for the highest bid go on; each step lists one added
///   card for each player still in, at least two of them (with 3–4 players one left out of
///   a step has withdrawn and the rest continue); steps stop as soon as the tie is broken;
/// - withdrawal after the last step: only players still tied, not all of them (the last one
///   is stuck with the purchase); a tied player out of cards is treated as withdrawing; the
///   one left buys with everything he has on the table, the others take their cards back.
///
/// Errors name `rounds.<i>.item`, `rounds.<i>.bids.<player>`, `rounds.<i>.overtime.<k>`,
/// `rounds.<i>.withdrawn` or `rounds`, with the rule.
pub fn play_rounds(rounds: &[WrittenRound], players: &[String]) -> Result<Game, RuleError> {
    let n = players.len();
    let mut hands = vec![Hand::full(); n];
    let mut holdings = vec![Holding::default(); n];
    let mut turned: BTreeMap<Item, usize> = BTreeMap::new();
    let mut sales = Vec::new();
    for (i, round) in rounds.iter().enumerate() {
        let at = |f: &str| format!("rounds.{i}.{f}");
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
        if round.item == Item::Joker {
            if round.bids.as_ref().is_some_and(|b| !b.is_empty())
                || round.overtime.as_ref().is_some_and(|o| !o.is_empty())
                || round.withdrawn.as_ref().is_some_and(|w| !w.is_empty())
            {
                return Err(RuleError::new(
                    at("bids"),
                    "the Joker is not an item: nobody bids on it, the next card is bid on blind",
                )
                .rule("rules §1.10"));
            }
            sales.push(Sale::Joker);
            continue;
        }
        // The field path counts rounds from 0 as the document does; the words say the
        // round as the table and the form count it, from 1.
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
    for (h, hand) in holdings.iter_mut().zip(&hands) {
        h.cards_left = Some(hand.left());
    }
    Ok(Game { holdings, sales })
}

/// Plays one item round (not the Joker); see [`play_rounds`].
fn play_round(
    i: usize,
    round: &WrittenRound,
    players: &[String],
    hands: &mut [Hand],
) -> Result<Sale, RuleError> {
    let at = |f: &str| format!("rounds.{i}.{f}");
    let n = players.len();
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
    let mut table: Vec<Vec<i64>> = vec![Vec::new(); n];
    let mut bidders = Vec::new();
    for (name, &card) in bids {
        let field = at(&format!("bids.{name}"));
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
    if n == 2 {
        for (seat, hand) in hands.iter().enumerate() {
            if !bidders.contains(&seat) && !hand.left().is_empty() {
                let name = players.get(seat).map_or("", String::as_str);
                return Err(RuleError::new(
                    at(&format!("bids.{name}")),
                    format!(
                        "with two players each bids a card every round, and {name} still holds money: what did he bid?"
                    ),
                )
                .rule("rules §1.10"));
            }
        }
    }
    if bidders.is_empty() {
        if !steps.is_empty() || !withdrawn.is_empty() {
            return Err(RuleError::new(
                at("overtime"),
                "nobody bid, so there is no overtime and nobody to withdraw",
            ));
        }
        return Ok(Sale::Discarded(round.item));
    }
    let mut tied = top(&bidders, &table);
    let mut withdrew = Vec::new();
    for (k, step) in steps.iter().enumerate() {
        let field = at(&format!("overtime.{k}"));
        if tied.len() < 2 {
            return Err(RuleError::new(
                &field,
                format!(
                    "there is no tie left: {} already bought the {}",
                    names(players, &tied),
                    round.item.name()
                ),
            )
            .rule("rules §1.10"));
        }
        let mut adding = Vec::new();
        for (name, &card) in step {
            let card_field = format!("{field}.{name}");
            let seat = seat_of(players, name).ok_or_else(|| {
                RuleError::new(&card_field, format!("{name} is not one of the players"))
            })?;
            if !tied.contains(&seat) {
                return Err(RuleError::new(
                    &card_field,
                    format!(
                        "{name} is not in this overtime: only {} are still tied",
                        names(players, &tied)
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
                &field,
                format!(
                    "an overtime step is two or more tied players each adding one card; {} were tied, and a player left alone buys with what is on the table",
                    names(players, &tied)
                ),
            )
            .rule("rules §1.10"));
        }
        // Tied players who added nothing withdrew (3–4 players: the rest continue, §3 item 31).
        withdrew.extend(tied.iter().copied().filter(|s| !adding.contains(s)));
        tied = top(&adding, &table);
    }
    if !withdrawn.is_empty() && tied.len() < 2 {
        return Err(RuleError::new(
            at("withdrawn"),
            format!(
                "nobody is tied any more: {} bought the {}, so nobody can withdraw",
                names(players, &tied),
                round.item.name()
            ),
        )
        .rule("rules §1.10"));
    }
    for name in withdrawn {
        let seat = seat_of(players, name).ok_or_else(|| {
            RuleError::new(at("withdrawn"), format!("{name} is not one of the players"))
        })?;
        if !tied.contains(&seat) {
            return Err(RuleError::new(
                at("withdrawn"),
                format!(
                    "{name} cannot withdraw: only {} are still tied",
                    names(players, &tied)
                ),
            )
            .rule("rules §1.10"));
        }
        if tied.len() == 1 {
            return Err(RuleError::new(
                at("withdrawn"),
                format!(
                    "{name} is the last one left and is stuck with the purchase: when all try to withdraw, the first ones do and the last one buys"
                ),
            )
            .rule("rules §1.10"));
        }
        tied.retain(|&s| s != seat);
        withdrew.push(seat);
    }
    if tied.len() > 1 {
        // A tied player out of cards is treated as withdrawing (rules §3 item 31).
        let can_add = |s: usize| {
            let put = table.get(s).map_or(&[][..], Vec::as_slice);
            hands
                .get(s)
                .is_some_and(|h| h.left().iter().any(|c| !put.contains(c)))
        };
        let still: Vec<usize> = tied.iter().copied().filter(|&s| can_add(s)).collect();
        let out: Vec<usize> = tied
            .iter()
            .copied()
            .filter(|s| !still.contains(s))
            .collect();
        match still.len() {
            1 => {
                withdrew.extend(out);
                tied = still;
            }
            0 => {
                return Err(RuleError::new(
                    at("withdrawn"),
                    format!(
                        "{} are still tied and none has a card left to add: write in withdrawn who gave up first; the last one buys",
                        names(players, &tied)
                    ),
                )
                .rule("rules §1.10"));
            }
            _ => {
                return Err(RuleError::new(
                    at("overtime"),
                    format!(
                        "{} are still tied: write the next overtime step, or who withdrew",
                        names(players, &still)
                    ),
                )
                .rule("rules §1.10"));
            }
        }
    }
    let buyer = tied.first().copied().ok_or_else(|| {
        RuleError::new(at("bids"), "nobody is left to buy the item")
    })?;
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
