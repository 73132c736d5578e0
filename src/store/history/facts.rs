//! A club session's history facts in SQL (status, results, bids by band), written whole or
//! as an event's difference in its transaction; club totals follow by trigger (migrations
//! 0007, 0010). Also the backlog of sessions whose facts are still to be written.

use std::fmt::Write as _;

use chrono::{DateTime, Utc};

use crate::ids::ClubId;
use crate::store::either::{Connected, on_either};

use super::ensure_person;
use crate::history::{FactsDelta, PlayerResult, SessionFacts};
use crate::ids::SessionId;

/// Binds `(hands, closed, settled)` in [`status_sql`]'s order, flags as 0/1.
macro_rules! bind_status {
    ($q:expr, $session_id:expr, $club_id:expr, $status:expr) => {{
        let (hands, closed, settled) = $status;
        $q.bind($session_id)
            .bind($club_id)
            .bind(hands)
            .bind(i64::from(closed))
            .bind(i64::from(settled))
    }};
}

/// Binds one changed result in [`results_sql`]'s order.
macro_rules! bind_result {
    ($q:expr, ($session_id:expr, $club_id:expr, $game:expr, $played_at:expr), $r:expr) => {{
        let r = $r;
        $q.bind($session_id)
            .bind($club_id)
            .bind(&r.player)
            .bind($game)
            .bind(crate::store::time::rfc3339($played_at))
            .bind(r.net_cents)
            .bind(r.hands_bid)
            .bind(r.hands_made)
            .bind(r.hands_set)
            .bind(r.games_won)
            .bind(r.kitties_taken)
    }};
}

/// Binds one changed band in [`bids_sql`]'s order.
macro_rules! bind_bid {
    ($q:expr, ($session_id:expr, $club_id:expr), $bid:expr) => {{
        let (player, band, bids, made) = $bid;
        $q.bind($session_id)
            .bind($club_id)
            .bind(player)
            .bind(*band)
            .bind(*bids)
            .bind(*made)
    }};
}

/// Rewrites session `session_id`'s facts whole; every name gets a person.
pub async fn replace_session_facts(
    conn: &mut impl Connected,
    session_id: SessionId,
    club_id: ClubId,
    game: &str,
    played_at: DateTime<Utc>,
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
    let everything = FactsDelta::between(&SessionFacts::default(), facts);
    let delta = FactsDelta {
        status: Some((facts.hands, facts.closed, facts.settled)),
        ..everything
    };
    apply_facts_delta(conn, session_id, club_id, game, played_at, &delta).await
}

/// Writes `delta` of session `session_id`'s facts in the caller's transaction; a player new
/// to the session becomes one of the club's people and players.
pub async fn apply_facts_delta(
    conn: &mut impl Connected,
    session_id: SessionId,
    club_id: ClubId,
    game: &str,
    played_at: DateTime<Utc>,
    delta: &FactsDelta,
) -> Result<(), sqlx::Error> {
    if let Some(status) = delta.status {
        let mut sql = String::new();
        status_sql(&mut sql, 0);
        on_either!(conn.either(), c => bind_status!(sqlx::query(sqlx::AssertSqlSafe(sql)), session_id, club_id, status)
            .execute(c)
            .await
            .map(|r| r.rows_affected()))?;
    }
    add_new_players(conn, club_id, delta).await?;
    // One statement per table: round trips are a record's main cost under the write lock.
    upsert_results(conn, (session_id, club_id, game, played_at), &delta.results).await?;
    upsert_bids(conn, (session_id, club_id), &delta.bids).await?;
    for (player, band) in &delta.gone {
        on_either!(conn.either(), c => sqlx::query(GONE_BAND)
            .bind(session_id)
            .bind(player)
            .bind(*band)
            .execute(c)
            .await
            .map(|r| r.rows_affected()))?;
    }
    Ok(())
}

/// Drops a band left with no bid: 3 parameters, session, player and band. Rare (only an
/// amendment empties a band), so one statement each.
const GONE_BAND: &str =
    "DELETE FROM session_bids WHERE session_id = $1 AND player = $2 AND band = $3";

/// Upserts changed `results` in one statement.
async fn upsert_results(
    conn: &mut impl Connected,
    (session_id, club_id, game, played_at): (SessionId, ClubId, &str, DateTime<Utc>),
    results: &[(PlayerResult, bool)],
) -> Result<(), sqlx::Error> {
    if results.is_empty() {
        return Ok(());
    }
    let mut sql = String::new();
    results_sql(&mut sql, 0, results.len());
    on_either!(conn.either(), c => {
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (r, _) in results {
            q = bind_result!(q, (session_id, club_id, game, played_at), r);
        }
        q.execute(c).await.map(|r| r.rows_affected())
    })?;
    Ok(())
}

/// Upserts changed bands in one statement.
async fn upsert_bids(
    conn: &mut impl Connected,
    (session_id, club_id): (SessionId, ClubId),
    bids: &[(String, i64, i64, i64)],
) -> Result<(), sqlx::Error> {
    if bids.is_empty() {
        return Ok(());
    }
    let mut sql = String::new();
    bids_sql(&mut sql, 0, bids.len());
    on_either!(conn.either(), c => {
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for bid in bids {
            q = bind_bid!(q, (session_id, club_id), bid);
        }
        q.execute(c).await.map(|r| r.rows_affected())
    })?;
    Ok(())
}

/// Pushes `rows` tuples of `width` parameters, numbered from `$first + 1`
/// (`($1, $2), ($3, $4)`), to a multi-row `VALUES`.
fn push_rows(sql: &mut String, first: usize, rows: usize, width: usize) {
    for row in 0..rows {
        sql.push_str(if row == 0 { "(" } else { ", (" });
        for col in 1..=width {
            let comma = if col == 1 { "" } else { ", " };
            let _ = write!(sql, "{comma}${}", first + row * width + col);
        }
        sql.push(')');
    }
}

/// Status upsert, 5 parameters from `$first + 1` (`bind_status!`).
fn status_sql(sql: &mut String, first: usize) {
    sql.push_str(
        "INSERT INTO session_status (session_id, club_id, hands, closed, settled) VALUES ",
    );
    push_rows(sql, first, 1, 5);
    sql.push_str(
        " ON CONFLICT (session_id) DO UPDATE SET hands = excluded.hands, \
         closed = excluded.closed, settled = excluded.settled",
    );
}

/// Results upsert, 11 parameters a row from `$first + 1` (`bind_result!`).
fn results_sql(sql: &mut String, first: usize, rows: usize) {
    sql.push_str(
        "INSERT INTO session_results (session_id, club_id, player, game, played_at, net_cents, \
         hands_bid, hands_made, hands_set, games_won, kitties_taken) VALUES ",
    );
    push_rows(sql, first, rows, 11);
    sql.push_str(
        " ON CONFLICT (session_id, player) DO UPDATE SET net_cents = excluded.net_cents, \
         hands_bid = excluded.hands_bid, hands_made = excluded.hands_made, \
         hands_set = excluded.hands_set, games_won = excluded.games_won, \
         kitties_taken = excluded.kitties_taken",
    );
}

/// Bands upsert, 6 parameters a row from `$first + 1` (`bind_bid!`).
fn bids_sql(sql: &mut String, first: usize, rows: usize) {
    sql.push_str(
        "INSERT INTO session_bids (session_id, club_id, player, band, bids, made) VALUES ",
    );
    push_rows(sql, first, rows, 6);
    sql.push_str(
        " ON CONFLICT (session_id, player, band) DO UPDATE SET bids = excluded.bids, made = excluded.made",
    );
}

/// Makes each player new to the session one of the club's people and players.
pub async fn add_new_players(
    conn: &mut impl Connected,
    club_id: ClubId,
    delta: &FactsDelta,
) -> Result<(), sqlx::Error> {
    for (r, new) in &delta.results {
        if *new {
            ensure_person(conn, club_id, &r.player).await?;
            crate::store::clubs::add_player(conn, club_id, &r.player).await?;
        }
    }
    Ok(())
}

/// Pushes `delta`'s statements after `;`, numbered from `$first + 1`; how many parameters
/// ([`bind_facts_delta`] binds them). For SQLite's group commit; players must already be
/// the club's ([`add_new_players`]).
pub fn push_facts_delta(sql: &mut String, first: usize, delta: &FactsDelta) -> usize {
    let mut n = first;
    if delta.status.is_some() {
        sql.push_str("; ");
        status_sql(sql, n);
        n += 5;
    }
    if !delta.results.is_empty() {
        sql.push_str("; ");
        results_sql(sql, n, delta.results.len());
        n += 11 * delta.results.len();
    }
    if !delta.bids.is_empty() {
        sql.push_str("; ");
        bids_sql(sql, n, delta.bids.len());
        n += 6 * delta.bids.len();
    }
    for _ in &delta.gone {
        let _ = write!(
            sql,
            "; DELETE FROM session_bids WHERE session_id = ${} AND player = ${} AND band = ${}",
            n + 1,
            n + 2,
            n + 3
        );
        n += 3;
    }
    n - first
}

/// Binds [`push_facts_delta`]'s parameters, in order.
pub fn bind_facts_delta<'q>(
    mut q: sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments>,
    (session_id, club_id, game, played_at): (SessionId, ClubId, &'q str, DateTime<Utc>),
    delta: &'q FactsDelta,
) -> sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments> {
    if let Some(status) = delta.status {
        q = bind_status!(q, session_id, club_id, status);
    }
    for (r, _) in &delta.results {
        q = bind_result!(q, (session_id, club_id, game, played_at), r);
    }
    for bid in &delta.bids {
        q = bind_bid!(q, (session_id, club_id), bid);
    }
    for (player, band) in &delta.gone {
        q = q.bind(session_id).bind(player).bind(*band);
    }
    q
}

/// Session `session_id`'s stored facts, to check against the session folded.
pub async fn stored_facts(
    conn: &mut impl Connected,
    session_id: SessionId,
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

/// The club's trigger-kept totals per name and game: (player, game, nights, net cents, bid,
/// made, set, won, kitties).
pub async fn player_totals_rows(
    conn: &mut impl Connected,
    club_id: ClubId,
) -> Result<Vec<(String, String, i64, i64, i64, i64, i64, i64, i64)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT player, game, nights, net_cents, hands_bid, hands_made, hands_set, games_won, \
         kitties_taken FROM player_totals WHERE club_id = $1 AND nights > 0 ORDER BY player, game",
    )
    .bind(club_id)
    .fetch_all(c)
    .await)
}

/// The club's sessions whose facts are still to be written (empty once done).
pub async fn backlog(
    conn: &mut impl Connected,
    club_id: ClubId,
) -> Result<Vec<SessionId>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        // CROSS JOIN makes the (usually empty) backlog the outer loop in SQLite; the condition is
        // in WHERE because PostgreSQL refuses ON after CROSS JOIN.
        "SELECT b.session_id FROM history_backlog b CROSS JOIN sessions s \
         WHERE s.id = b.session_id AND s.club_id = $1 ORDER BY b.session_id",
    )
    .bind(club_id)
    .fetch_all(c)
    .await)
}
