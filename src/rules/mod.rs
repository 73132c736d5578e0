//! The rules engines: pure code, one module per game, no I/O, clock or randomness.
//!
//! A game registers a [`Game`] in [`GAMES`]: its id (as in `design/session-format.md`), its
//! seat range and a constructor that reads the table agreements and returns a
//! [`GameTable`], the engine that turns each event of a session into postings and an
//! explanation. Adding a game means one module here, one registration, and its templates.

pub mod auction_pinochle;
pub mod auction_pitch;
pub mod check_pinochle;
pub mod fields;
pub mod partnership;
pub mod table;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::ledger::{Balances, Posting};
pub use fields::RuleError;
pub use table::Table;

/// What one event did: its postings (summing to zero), the running scores after it (for
/// games with scores) and a one-line reason in words for the score sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The movements of money, one per account, summing to zero.
    pub postings: Vec<Posting>,
    /// Running scores after the event, for games that keep them; `None` otherwise.
    pub scores_after: Option<Value>,
    /// Why the money moved, in the table's words ("Ann bid 350 in hearts and made it: …").
    pub explanation: String,
}

impl Entry {
    /// An entry with postings and an explanation and no scores.
    pub fn new(postings: Vec<Posting>, explanation: impl Into<String>) -> Entry {
        Entry {
            postings,
            scores_after: None,
            explanation: explanation.into(),
        }
    }
}

/// A finished game within a session (`games` in the ledger document).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FinishedGame {
    /// The winner: a player name, `"NS"`/`"EW"`, or `None` for a draw.
    pub winner: Option<String>,
    /// How the winner was decided (game-specific words such as `"pitcher_out"`).
    pub decided_by: String,
    /// Scores at the end of the game.
    pub final_scores: Value,
}

/// The state the engines see besides their own: who sits where, and every balance before
/// the event (the kitty's included).
pub struct Ctx<'a> {
    /// Seating, mutable for games that let players join and leave.
    pub table: &'a mut Table,
    /// Balances before this event.
    pub balances: &'a Balances,
}

/// One game's engine for one session, holding whatever the game carries from hand to hand
/// (running scores, games won). Every method is pure.
pub trait GameTable: Send {
    /// Whether the game keeps a [`crate::ledger::KITTY`] account (none by default).
    fn has_kitty(&self) -> bool {
        false
    }
    /// Postings due before the first event, such as the kitty's opening ante (rules §1.2
    /// rule 1); `None` when nothing is due (the default).
    fn opening(&mut self, _ctx: &mut Ctx<'_>) -> Option<Entry> {
        None
    }
    /// Applies one event of type `kind` other than `payment` and `close`. Errors name the
    /// event's field and the rule that refuses it; on error the engine is unchanged.
    fn apply(
        &mut self,
        ctx: &mut Ctx<'_>,
        kind: &str,
        event: &Map<String, Value>,
    ) -> Result<Entry, RuleError>;
    /// The close of the sitting: shares out the kitty by the game's rules.
    fn close(&mut self, ctx: &mut Ctx<'_>) -> Result<Entry, RuleError>;
    /// Running scores of the game in progress (`scores` in the ledger), if the game has any.
    fn scores(&self) -> Option<Value> {
        None
    }
    /// Running check totals (`checks` in the ledger), if the game has any.
    fn checks(&self) -> Option<Value> {
        None
    }
    /// Every finished game, in order.
    fn games(&self) -> Vec<FinishedGame> {
        Vec::new()
    }
    /// Who deals next: by default the player on the last dealer's left (`None` before the
    /// first hand). Games where a dead hand is dealt again by the same dealer override it.
    fn next_dealer(&self, table: &Table) -> Option<String> {
        table.next_dealer().map(String::from)
    }
}

/// Reads the agreements, players (seat order) and `opening_scores` of a session and starts
/// the engine. Errors name the agreement's field (`agreements.stake`).
pub type StartFn =
    fn(&Map<String, Value>, &[String], Option<&Value>) -> Result<Box<dyn GameTable>, RuleError>;

/// A registered game.
pub struct Game {
    /// The id used in session documents (`"auction_pinochle"`).
    pub id: &'static str,
    /// The name shown to players.
    pub name: &'static str,
    /// The rules section (`"rules §1.1–1.3"`).
    pub rules: &'static str,
    /// The fewest and most players seated at the start.
    pub seats: (usize, usize),
    /// Starts an engine for one session.
    pub start: StartFn,
}

/// Every game the service knows, in the order they are offered.
pub static GAMES: &[&Game] = &[
    &auction_pinochle::GAME,
    &auction_pitch::GAME,
    &check_pinochle::GAME,
];

/// The registered game with this id.
pub fn find(id: &str) -> Option<&'static Game> {
    GAMES.iter().copied().find(|g| g.id == id)
}

/// A trump suit (`design/session-format.md`: `"spades" | "hearts" | "diamonds" | "clubs"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Suit {
    /// ♠
    Spades,
    /// ♥
    Hearts,
    /// ♦
    Diamonds,
    /// ♣
    Clubs,
}

impl Suit {
    /// All four suits in the order forms offer them.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The lowercase name used in documents and sentences.
    pub fn name(self) -> &'static str {
        match self {
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
            Suit::Clubs => "clubs",
        }
    }

    /// The suit's symbol for the score sheet.
    pub fn symbol(self) -> &'static str {
        match self {
            Suit::Spades => "♠",
            Suit::Hearts => "♥",
            Suit::Diamonds => "♦",
            Suit::Clubs => "♣",
        }
    }
}
