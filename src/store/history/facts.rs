//! A club session's history facts in SQL: its status, each player's result and bids by
//! band, written whole or by an event's difference in the event's own transaction; the
//! club totals follow through the tables' triggers (migrations `0007` and `0010`).

use std::fmt::Write as _;

use crate::store::either::{Connected, on_either};

use super::ensure_person;
use crate::history::{FactsDelta, PlayerResult, SessionFacts};

/// Rewrites what the history keeps of session `session_id` (owned by `club_id`, playing
/// `game`, created at `played_at`): its status, each player's results and bids by band.
/// The totals follow by trigger. Every name gets a person.
pub async fn replace_session_facts(
    conn: &mut impl Connected,
    session_id: i64,
    club_id: i64,
    game: &str,
    played_at: &str,
    facts: &SessionFacts,
) -> Result<(), sqlx::Error> {
    for delete in [
        "DELETE FROM session_results WHERE session_id = $1",
        "DELETE FROM session_bids WHERE session_id = $1",
        "DELETE FROM session_status WHERE session_id = $1",
    ] {
        on_either!(conn.either(), c => sqlx::query(delete)
            .bind(session_id)
            .execute(c)
            .await
            .map(|r| r.rows_affected()))?;
    }
    // Everything anew: the whole facts as the difference from nothing.
    let everything = FactsDelta::between(&SessionFacts::default(), facts);
    let delta = FactsDelta {
        status: Some((facts.hands, facts.closed, facts.settled)),
        ..everything
    };
    apply_facts_delta(conn, session_id, club_id, game, played_at, &delta).await
}

/// Writes the difference `delta` of club session `session_id`'s history facts (in the
/// caller's transaction): the status, each changed player's result (a player new to the
/// session becomes one of the club's people and players) and each changed band. The club
/// totals follow through the tables' triggers. `game` and `played_at` are the session's.
pub async fn apply_facts_delta(
    conn: &mut impl Connected,
    session_id: i64,
    club_id: i64,
    game: &str,
    played_at: &str,
    delta: &FactsDelta,
) -> Result<(), sqlx::Error> {
    if let Some((hands, closed, settled)) = delta.status {
        on_either!(conn.either(), c => sqlx::query(
            "INSERT INTO session_status (session_id, club_id, hands, closed, settled) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (session_id) DO UPDATE SET hands = excluded.hands, closed = excluded.closed, \
             settled = excluded.settled",
        )
        .bind(session_id)
        .bind(club_id)
        .bind(hands)
        // 0 or 1: SQLite's encoding of a bool, and PostgreSQL's BIGINT columns.
        .bind(i64::from(closed))
        .bind(i64::from(settled))
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    }
    for (r, new) in &delta.results {
        if *new {
            ensure_person(conn, club_id, &r.player).await?;
            crate::store::clubs::add_player(conn, club_id, &r.player).await?;
        }
    }
    // Every changed row in one statement each (a round trip to the database thread per
    // statement is what a record costs most while the group holds the write lock); the
    // totals' triggers still run per row.
    upsert_results(conn, (session_id, club_id, game, played_at), &delta.results).await?;
    upsert_bids(conn, (session_id, club_id), &delta.bids).await?;
    Ok(())
}

/// Inserts or updates the changed `results` of a session (`at`: its id, club, game and
/// creation time) in one statement.
async fn upsert_results(
    conn: &mut impl Connected,
    (session_id, club_id, game, played_at): (i64, i64, &str, &str),
    results: &[(PlayerResult, bool)],
) -> Result<(), sqlx::Error> {
    if results.is_empty() {
        return Ok(());
    }
    let mut sql = String::from(
        "INSERT INTO session_results (session_id, club_id, player, game, played_at, net_cents, \
         hands_bid, hands_made, hands_set, games_won, kitties_taken) VALUES ",
    );
    push_rows(&mut sql, results.len(), 11);
    sql.push_str(
        " ON CONFLICT (session_id, player) DO UPDATE SET net_cents = excluded.net_cents, \
         hands_bid = excluded.hands_bid, hands_made = excluded.hands_made, \
         hands_set = excluded.hands_set, games_won = excluded.games_won, \
         kitties_taken = excluded.kitties_taken",
    );
    on_either!(conn.either(), c => {
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (r, _) in results {
            q = q
                .bind(session_id)
                .bind(club_id)
                .bind(&r.player)
                .bind(game)
                .bind(played_at)
                .bind(r.net_cents)
                .bind(r.hands_bid)
                .bind(r.hands_made)
                .bind(r.hands_set)
                .bind(r.games_won)
                .bind(r.kitties_taken);
        }
        q.execute(c).await.map(|r| r.rows_affected())
    })?;
    Ok(())
}

/// Inserts or updates the changed bands `bids` (player, band, bids, made) of session
/// `session_id` of `club_id` in one statement.
async fn upsert_bids(
    conn: &mut impl Connected,
    (session_id, club_id): (i64, i64),
    bids: &[(String, i64, i64, i64)],
) -> Result<(), sqlx::Error> {
    if bids.is_empty() {
        return Ok(());
    }
    let mut sql = String::from(
        "INSERT INTO session_bids (session_id, club_id, player, band, bids, made) VALUES ",
    );
    push_rows(&mut sql, bids.len(), 6);
    sql.push_str(
        " ON CONFLICT (session_id, player, band) DO UPDATE SET bids = excluded.bids, made = excluded.made",
    );
    on_either!(conn.either(), c => {
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (player, band, bids, made) in bids {
            q = q
                .bind(session_id)
                .bind(club_id)
                .bind(player)
                .bind(band)
                .bind(bids)
                .bind(made);
        }
        q.execute(c).await.map(|r| r.rows_affected())
    })?;
    Ok(())
}

/// Appends `rows` rows of `width` parameters each, `($1, $2), ($3, $4)`, to a multi-row
/// `VALUES`: one statement for every changed row (one round trip while the write lock is
/// held), numbered for either engine.
fn push_rows(sql: &mut String, rows: usize, width: usize) {
    for row in 0..rows {
        sql.push_str(if row == 0 { "(" } else { ", (" });
        for col in 1..=width {
            let comma = if col == 1 { "" } else { ", " };
            let _ = write!(sql, "{comma}${}", row * width + col);
        }
        sql.push(')');
    }
}

/// What the history keeps of session `session_id` as stored: its status, each player's
/// result and bids by band (players by name), for a check against the session folded.
pub async fn stored_facts(
    conn: &mut impl Connected,
    session_id: i64,
) -> Result<SessionFacts, sqlx::Error> {
    let status: Option<(i64, bool, bool)> = on_either!(conn.either(), c => sqlx::query_as("SELECT hands, closed <> 0, settled <> 0 FROM session_status WHERE session_id = $1")
            .bind(session_id)
            .fetch_optional(c)
            .await)?;
    let rows: Vec<(String, i64, i64, i64, i64, i64, i64)> = on_either!(conn.either(), c => sqlx::query_as(
        "SELECT player, net_cents, hands_bid, hands_made, hands_set, games_won, kitties_taken \
         FROM session_results WHERE session_id = $1 ORDER BY player",
    )
    .bind(session_id)
    .fetch_all(c)
    .await)?;
    let bids: Vec<(String, i64, i64, i64)> = on_either!(conn.either(), c => sqlx::query_as("SELECT player, band, bids, made FROM session_bids WHERE session_id = $1")
            .bind(session_id)
            .fetch_all(c)
            .await)?;
    let (hands, closed, settled) = status.unwrap_or_default();
    let players = rows
        .into_iter()
        .map(
            |(player, net_cents, hands_bid, hands_made, hands_set, games_won, kitties_taken)| {
                let bands = bids
                    .iter()
                    .filter(|b| b.0 == player)
                    .map(|b| (b.1, (b.2, b.3)))
                    .collect();
                PlayerResult {
                    player,
                    net_cents,
                    hands_bid,
                    hands_made,
                    hands_set,
                    games_won,
                    kitties_taken,
                    bands,
                }
            },
        )
        .collect();
    Ok(SessionFacts {
        hands,
        closed,
        settled,
        players,
    })
}

/// The club's totals per name and game as the triggers keep them: (player, game, nights,
/// net cents, hands bid, made, set, games won, kitties taken).
pub async fn player_totals_rows(
    conn: &mut impl Connected,
    club_id: i64,
) -> Result<Vec<(String, String, i64, i64, i64, i64, i64, i64, i64)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT player, game, nights, net_cents, hands_bid, hands_made, hands_set, games_won, \
         kitties_taken FROM player_totals WHERE club_id = $1 AND nights > 0 ORDER BY player, game",
    )
    .bind(club_id)
    .fetch_all(c)
    .await)
}
