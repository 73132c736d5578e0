//! The rules engines: pure code, one module per game, no I/O, clock or randomness.
//!
//! A game registers a [`GameInfo`] and plays as a typed [`typed::Game`], each event
//! turned into an [`Outcome`]; everything else sees it as an [`Engine`] through
//! [`typed::Typed`]. Shared code reads what it needs from the [`GameInfo`], never by
//! matching the game's id. Adding a game: docs/architecture.md.

pub mod auction_game;
pub mod auction_pinochle;
pub mod auction_pitch;
pub mod check_pinochle;
pub mod contract_pinochle;
pub mod house_game;
pub mod partnership_auction_pinochle;
pub mod partnership_pinochle;
pub mod poker;
pub mod two_handed_pinochle;

/// Every game, in the order the service offers them (a registry test checks it matches).
pub static GAMES: [&GameInfo; 10] = [
    &auction_pinochle::GAME,
    &auction_pitch::GAME,
    &check_pinochle::GAME,
    &partnership_pinochle::GAME,
    &partnership_auction_pinochle::GAME,
    &contract_pinochle::GAME,
    &two_handed_pinochle::GAME,
    &auction_game::GAME,
    &poker::GAME,
    &house_game::GAME,
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

/// A name as a document must hold it: what [`table::player_name`] keeps. Errors in words.
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
