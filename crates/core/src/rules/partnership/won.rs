//! A partnership game won, as all four partnership games record it (rules §1.5–1.8): the
//! finished game for the session's list and the sheet's closing row.

use super::{PerSide, Side};
use crate::rules::{Award, FinishedGame, GameEnd};

/// The record of a game side `winner` won with `scores` (points; `decided_by` as the game's
/// own end check names it), and the sheet's closing row: `how` it won, the game's `award`
/// when it has one (Check Pinochle's game award of checks, rules §1.7 "End of game") and
/// the money paid, in words (`paid`, session-format "Money in the partnership games").
pub fn game_won(
    winner: Side,
    decided_by: &str,
    scores: &PerSide<i64>,
    how: String,
    award: Option<Award>,
    paid: String,
) -> (FinishedGame, GameEnd) {
    let finished = FinishedGame {
        winner: Some(winner.name().to_string()),
        decided_by: decided_by.to_string(),
        final_scores: scores.to_json(),
    };
    let end = GameEnd {
        winner: Some(winner.name().to_string()),
        at: Some(scores[winner]),
        how,
        award,
        settlement: paid,
        fresh: Vec::new(),
    };
    (finished, end)
}
