//! One game of the Auction money-card game, checked (rules §1.10, §3 item 31, S004). One
//! `hand` is one whole game, round by round or as its end summary:
//!
//! ```json
//! { "type": "hand", "rounds": [
//!     { "item": "Q", "bids": { "Ann": 7, "Bob": 7 }, "overtime": [ { "Ann": 5, "Bob": 3 } ],
//!       "withdrawn": [] },
//!     { "item": "JOKER" } ] }
//! { "type": "hand", "final": { "Ann": { "items": ["A", "J"], "spent": 20 } } }
//! ```
//!
//! Money cards are dollars 2–10 (one of each, $54); items J, Q, K, A are worth 1–4 (two of
//! each) and the Joker is no item. Refusals name 0-based rounds (`rounds.2.bids.Ann`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::rules::{RuleError, fields};

pub use super::rounds::play_rounds;

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
    pub(super) fn in_deck(self) -> usize {
        if self == Item::Joker { 1 } else { 2 }
    }
}

/// One round as written: item, first bids, overtime steps, withdrawals (a Joker: `item` only).
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

/// One player's `final` entry: items bought and money spent (dollars).
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
    /// `buyer` (a seat) bought `item` with `cards` after `overtime` steps.
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

/// Reads and checks a `hand`. Errors: see [`play_rounds`], [`super::final_count::read_final`].
pub fn read_game(event: &Map<String, Value>, players: &[String]) -> Result<Game, RuleError> {
    check_game(fields::read(event)?, players)
}

/// Checks a `hand` event already read into its written shape, as [`read_game`] says.
pub fn check_game(written: WrittenGame, players: &[String]) -> Result<Game, RuleError> {
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
