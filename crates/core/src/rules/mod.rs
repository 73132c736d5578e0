//! The rules engines: pure code, one module per game, no I/O, clock or randomness.
//!
//! A game describes itself in a [`GameInfo`] (its id as in `docs/session-format.md`, its
//! seats, its agreements and a constructor) and plays a session as a typed
//! [`typed::Game`]: its agreements and events read into its own types at the edge, each
//! event turned into an [`Outcome`]: postings, the reason in words, the sheet's line in
//! typed fields and the game it finished. The session, the registry and the pages see every
//! game through one erased adapter, [`typed::Typed`], as an [`Engine`]. Adding a game means
//! one module here (declared below and listed in [`GAMES`]), one hand-form template and its
//! line in the registry, which sits above and pairs each game with its template. What the
//! shared code asks of a game it reads from the game's [`GameInfo`] (its meld table, its
//! "to make" sentence), never by matching its id.

pub mod auction_game;
pub mod auction_pinochle;
pub mod auction_pitch;
pub mod check_pinochle;
pub mod contract_pinochle;
pub mod partnership_auction_pinochle;
pub mod partnership_pinochle;
pub mod poker;
pub mod two_handed_pinochle;

/// Every game the rules keep, in the order the service offers them. A test beside the
/// registry checks that it registers exactly these, in this order.
pub static GAMES: [&GameInfo; 9] = [
    &auction_pinochle::GAME,
    &auction_pitch::GAME,
    &check_pinochle::GAME,
    &partnership_pinochle::GAME,
    &partnership_auction_pinochle::GAME,
    &contract_pinochle::GAME,
    &two_handed_pinochle::GAME,
    &auction_game::GAME,
    &poker::GAME,
];

/// The game with this id (`docs/session-format.md`), if the rules keep it.
pub fn game(id: &str) -> Option<&'static GameInfo> {
    GAMES.iter().copied().find(|g| g.id == id)
}

/// The ids of every game, comma-separated, for messages ("known: …").
pub fn known() -> String {
    GAMES.iter().map(|g| g.id).collect::<Vec<_>>().join(", ")
}

pub mod contract_head;
pub mod field;
pub mod fields;
pub mod game;
pub mod hand_form;
pub mod meld;
pub mod partnership;
#[cfg(test)]
pub(crate) mod replay_tests;
pub mod sheet;
pub mod table;
pub mod to_make;
pub mod typed;

use serde::Serialize;
use serde_json::Value;

pub use field::Field;
pub use fields::RuleError;
pub use game::{AgreementSpec, Ctx, Engine, GameInfo, Outcome, SpecKind};
pub use sheet::{
    Award, Cell, Column, Contract, Detail, GameEnd, Layout, Mark, SheetLine, Step, Tally, Tone,
};
pub use table::Table;

/// A finished game within a session (`games` in the ledger document).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct FinishedGame {
    /// The winner: a player name, `"NS"`/`"EW"`, or `None` for a draw.
    pub winner: Option<String>,
    /// How the winner was decided (game-specific words such as `"pitcher_out"`).
    pub decided_by: String,
    /// Scores at the end of the game.
    pub final_scores: Value,
}

/// A player's name as it must already stand in a document or event: exactly what
/// [`table::player_name`] keeps (trimmed, NFC, visible, not reserved, 1–40 characters).
/// Errors say why in words.
pub fn check_name(name: &str) -> Result<(), String> {
    let kept = table::player_name(name)?;
    if kept != name {
        return Err(format!(
            "write the name as {kept:?}, without spaces around it and in composed (NFC) form"
        ));
    }
    Ok(())
}

/// A trump suit (`docs/session-format.md`: `"spades" | "hearts" | "diamonds" | "clubs"`).
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
