//! The sessions of a game that names each of its sessions (a house game's `name`, rules
//! §1.12), read with their agreements, so statistics can count them by those names.

use super::TotalsRow;
use crate::ids::PersonId;
use crate::store::either::{Connected, on_either};

/// One session's totals of a person, with the session's agreements (JSON text).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NamedTotals {
    /// The session's agreements as stored.
    pub agreements: String,
    /// The person's results in it: one night, money in cents.
    #[sqlx(flatten)]
    pub totals: TotalsRow,
}

/// Person `person`'s sessions of game `game`, oldest first, each with its agreements.
pub async fn results_with_agreements(
    conn: &mut impl Connected,
    person: PersonId,
    game: &str,
) -> Result<Vec<NamedTotals>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT s.agreements, r.game, CAST(1 AS BIGINT) AS nights, r.net_cents, r.hands_bid, r.hands_made, \
         r.hands_set, r.games_won, r.kitties_taken \
         FROM player_names pn JOIN session_results r ON r.club_id = pn.club_id AND r.player = pn.name \
         JOIN sessions s ON s.id = r.session_id WHERE pn.person_id = $1 AND r.game = $2 ORDER BY s.id",
    )
    .bind(person)
    .bind(game)
    .fetch_all(c)
    .await)
}
