//! A house game's events as written (session-format `house_game`): a `hand` with each
//! player's points, and `game_over`. Pure.
//!
//! ```json
//! { "type": "hand", "dealer": "Al", "points": { "Al": 10, "Bo": 6, "Cy": 0, "Di": 10 } }
//! { "type": "game_over" }
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::agreements::{Agreements, RULE};
use crate::rules::{Field, RuleError, Table};

/// A `hand` as written: who dealt (optional) and each player's points, negative allowed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenHand {
    /// Who dealt, when the table says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealer: Option<String>,
    /// Each player's points this hand; a seated player left out scored 0.
    pub points: BTreeMap<String, i64>,
}

/// `game_over` as written: no fields; the table ends the game in progress now.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GameOver {}

/// Each seated player's points this hand, in seat order, checked: every name seated, the
/// dealer seated, the sum one of `hand_totals`. Errors name the field (`points.Zed`).
pub fn check(
    hand: &WrittenHand,
    players: &[String],
    table: &Table,
    agreements: &Agreements,
) -> Result<Vec<i64>, RuleError> {
    if let Some(dealer) = &hand.dealer
        && !table.is_seated(dealer)
    {
        return Err(RuleError::new(
            "dealer",
            format!("{dealer} is not seated at this table"),
        ));
    }
    if let Some(stranger) = hand.points.keys().find(|p| !players.contains(p)) {
        return Err(RuleError::new(
            Field::name("points").player(stranger),
            format!("{stranger} is not at this table: enter points only for its players"),
        )
        .rule(RULE));
    }
    let points: Vec<i64> = players
        .iter()
        .map(|p| hand.points.get(p).copied().unwrap_or(0))
        .collect();
    let sum = points
        .iter()
        .try_fold(0i64, |sum, p| sum.checked_add(*p))
        .ok_or_else(|| RuleError::new("points", "these points are too many to add up"))?;
    agreements.check_total(sum)?;
    Ok(points)
}

/// `totals` after adding `points` (seat order), refused on overflow naming `points`.
pub fn add(totals: &[i64], points: &[i64]) -> Result<Vec<i64>, RuleError> {
    totals
        .iter()
        .zip(points)
        .map(|(t, p)| {
            t.checked_add(*p).ok_or_else(|| {
                RuleError::new("points", "a total would pass anything a card table counts")
                    .rule(RULE)
            })
        })
        .collect()
}
