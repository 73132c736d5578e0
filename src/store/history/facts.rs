//! A club session's history facts in SQL: its status, each player's result and bids by
//! band, written whole or by an event's difference in the event's own transaction; the
//! club totals follow through the tables' triggers (migrations `0007` and `0010`).
//! The backlog (sessions stored before the history existed, whose facts are still to be
//! written) is read here too, beside the facts it waits for.

use std::fmt::Write as _;

use chrono::{DateTime, Utc};

use crate::ids::ClubId;
use crate::store::either::{Connected, on_either};

use super::ensure_person;
use crate::history::{FactsDelta, PlayerResult, SessionFacts};
use crate::ids::SessionId;

/// Binds a session's status `(hands, closed, settled)` to `q` in [`status_sql`]'s order;
/// the flags as 0 or 1 (SQLite's encoding of a bool, and PostgreSQL's BIGINT columns).
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

/// Binds one changed result `r` of session `(id, club, game, played_at)` to `q` in
/// [`results_sql`]'s order.
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

/// Binds one changed band `(player, band, bids, made)` of session `(id, club)` to `q` in
/// [`bids_sql`]'s order.
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

/// Rewrites what the history keeps of session `session_id` (owned by `club_id`, playing
/// `game`, created at `played_at`): its status, each player's results and bids by band.
/// The totals follow by trigger. Every name gets a person.
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

/// Inserts or updates the changed bands `bids` (player, band, bids, made) of session
/// `session_id` of `club_id` in one statement.
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

/// Appends `rows` rows of `width` parameters each, numbered from `$first + 1`
/// (`($1, $2), ($3, $4)` from 0), to a multi-row `VALUES`: one statement for every changed
/// row (one round trip while the write lock is held), numbered for either engine, and
/// able to follow other statements in one query ([`push_facts_delta`]).
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

/// The upsert of a session's status, its 5 parameters numbered from `$first + 1`
/// (bound by `bind_status!`).
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

/// The upsert of `rows` changed results, 11 parameters a row numbered from `$first + 1`
/// (bound by `bind_result!`).
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

/// The upsert of `rows` changed bands, 6 parameters a row numbered from `$first + 1`
/// (bound by `bind_bid!`).
fn bids_sql(sql: &mut String, first: usize, rows: usize) {
    sql.push_str(
        "INSERT INTO session_bids (session_id, club_id, player, band, bids, made) VALUES ",
    );
    push_rows(sql, first, rows, 6);
    sql.push_str(
        " ON CONFLICT (session_id, player, band) DO UPDATE SET bids = excluded.bids, made = excluded.made",
    );
}

/// Makes each player `delta` brings to the session for the first time one of club
/// `club_id`'s people and players (before its results name them).
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

/// Appends to `sql` (after `;`) the statements that write `delta` of a club session, their
/// parameters numbered from `$first + 1`, and returns how many they take; bind them in the
/// same order with [`bind_facts_delta`]. For a query of several statements (SQLite's
/// group commit, [`crate::store::append`]); the players it names must be the club's
/// already ([`add_new_players`]).
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
    n - first
}

/// Binds to `q` the parameters of [`push_facts_delta`]'s statements for session
/// `session_id` of `club_id` (`game`, `played_at`: the session's), in their order.
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
    q
}

/// What the history keeps of session `session_id` as stored: its status, each player's
/// result and bids by band (players by name), for a check against the session folded.
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

/// The club's totals per name and game as the triggers keep them: (player, game, nights,
/// net cents, hands bid, made, set, games won, kitties taken).
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

/// The club's sessions recorded before the history existed whose facts are still to be
/// written (the backlog; empty once done, so this reads nothing).
pub async fn backlog(
    conn: &mut impl Connected,
    club_id: ClubId,
) -> Result<Vec<SessionId>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        // CROSS JOIN keeps the backlog (empty once done) the outer loop: SQLite would
        // otherwise walk every session of the club. The join's condition is in WHERE:
        // PostgreSQL refuses ON after CROSS JOIN, and SQLite keeps the order either way.
        "SELECT b.session_id FROM history_backlog b CROSS JOIN sessions s \
         WHERE s.id = b.session_id AND s.club_id = $1 ORDER BY b.session_id",
    )
    .bind(club_id)
    .fetch_all(c)
    .await)
}
