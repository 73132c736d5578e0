//! A partnership game won (rules §1.5–1.8): the finished game and its closing row.

use super::{PerSide, Side};
use crate::rules::{Award, FinishedGame, GameEnd};

/// A game `winner` won with `scores`: its record and closing row (`how`, `award`, `paid`).
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
