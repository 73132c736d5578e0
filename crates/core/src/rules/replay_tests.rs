//! What the engines' tests share: a whole session document of one game played through
//! `replay`, and the ledger's numbers read back (balances in cents, the games' winners).
//! Each game's tests bring their own hands and their own hand-worked expectations.

use serde_json::{Value, json};

use crate::format::{LedgerDoc, Refusal, SessionDoc, replay};
use crate::money::Money;

/// The session document of `game` (`"contract_pinochle"`) at a table of `players` (seat
/// order) with `agreements`, `opening` scores and `events`, in US dollars.
pub fn session(
    game: &str,
    players: &[&str],
    agreements: Value,
    opening: Value,
    events: Vec<Value>,
) -> SessionDoc {
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": game, "currency": "USD",
        "agreements": agreements, "players": players, "opening_scores": opening,
        "events": events
    }))
    .unwrap()
}

/// [`session`] played through `replay`: its ledger, or the refusal of its first bad event.
pub fn run(
    game: &str,
    players: &[&str],
    agreements: Value,
    opening: Value,
    events: Vec<Value>,
) -> Result<LedgerDoc, Refusal> {
    replay(&session(game, players, agreements, opening, events))
}

/// Each of `players`' balances in `l`, in cents, in the order given (0 for none).
pub fn cents(l: &LedgerDoc, players: &[&str]) -> Vec<i64> {
    players
        .iter()
        .map(|p| l.balances.get(*p).copied().unwrap_or(Money::ZERO).cents())
        .collect()
}

/// Each finished game's winner in `l`, in order (`None` for a draw).
pub fn winners(l: &LedgerDoc) -> Vec<Option<String>> {
    l.games.iter().map(|g| g.winner.clone()).collect()
}

/// Declares a game's test helpers `run` and `ok` over [`run`]: `sessions!("check_pinochle",
/// PLAYERS)` plays `(agreements, opening, events)` at that table.
macro_rules! sessions {
    ($game:literal, $players:expr) => {
        fn run(
            agreements: serde_json::Value,
            opening: serde_json::Value,
            events: Vec<serde_json::Value>,
        ) -> Result<crate::format::LedgerDoc, crate::format::Refusal> {
            crate::rules::replay_tests::run($game, &$players, agreements, opening, events)
        }

        #[allow(dead_code)]
        fn ok(
            agreements: serde_json::Value,
            opening: serde_json::Value,
            events: Vec<serde_json::Value>,
        ) -> crate::format::LedgerDoc {
            run(agreements, opening, events).unwrap()
        }
    };
}
pub(crate) use sessions;
