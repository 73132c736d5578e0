//! The session document (`scorekeeper/session@1`), the ledger document
//! (`scorekeeper/ledger@1`) of `docs/session-format.md`, and [`replay`] between them.

pub mod replay;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::ledger::Posting;
use crate::ledger::settle_up::Transfer;
use crate::money::Money;
use crate::rules::FinishedGame;
pub use replay::{
    Position, Refusal, Standing, extend_ledger, fold, ledger, ledger_event, ledger_standing,
    ledger_standing_json, replay, replay_at_table, replay_json, start, tip,
};

/// The format tag of a session document.
pub const SESSION_FORMAT: &str = "scorekeeper/session@1";
/// The format tag of a ledger document.
pub const LEDGER_FORMAT: &str = "scorekeeper/ledger@1";

fn usd() -> String {
    "USD".into()
}

/// Everything that happened at one table in one sitting; events stay raw JSON objects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionDoc {
    /// Always [`SESSION_FORMAT`].
    pub format: String,
    /// The game id, as the registry lists it.
    pub game: String,
    /// ISO currency code of every amount (`"USD"`).
    #[serde(default = "usd")]
    pub currency: String,
    /// The table agreements; the game reads and validates them.
    #[serde(default)]
    pub agreements: Map<String, Value>,
    /// Player names in seat order, clockwise.
    pub players: Vec<String>,
    /// Scores carried in from a paper sheet, for games that keep scores.
    #[serde(default)]
    pub opening_scores: Option<Value>,
    /// Every event in order; a `hand` is one deal.
    #[serde(default)]
    pub events: Vec<Value>,
}

/// One event of the ledger: its postings (summing to zero), the scores after it and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LedgerEvent {
    /// The event's 1-based position in `events`; 0 is the opening ante (rules §1.2 rule 1).
    pub seq: usize,
    /// The event's type (`"hand"`, `"payment"`, `"close"`, … or `"opening_ante"` for seq 0).
    #[serde(rename = "type")]
    pub kind: String,
    /// The movements of money, summing to zero.
    pub postings: Vec<Posting>,
    /// Running scores after the event, for games that keep them.
    pub scores_after: Option<Value>,
    /// The reason in words.
    pub explanation: String,
}

/// What the service computes from a session document (`docs/session-format.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LedgerDoc {
    /// Always [`LEDGER_FORMAT`].
    pub format: &'static str,
    /// The game id.
    pub game: String,
    /// ISO currency code.
    pub currency: String,
    /// One entry per event (plus the opening ante, seq 0, when there is one).
    pub events: Vec<LedgerEvent>,
    /// Running scores of the game in progress, `null` for games settled hand by hand.
    pub scores: Option<Value>,
    /// Running check totals, `null` for games without checks.
    pub checks: Option<Value>,
    /// Every finished game.
    pub games: Vec<FinishedGame>,
    /// Net money of every player (and `KITTY` when the game has one), summing to zero.
    pub balances: BTreeMap<String, Money>,
    /// The kitty's balance (`"0.00"` without a kitty).
    pub kitty: Money,
    /// The fewest transfers that bring every balance to zero, kitty included until close.
    pub settlement: Vec<Transfer>,
}
