//! A group commit's records in as few hand-overs to SQLite's connection thread as possible
//! (each query waits for that thread and then for a free tokio worker): `BEGIN IMMEDIATE`
//! with every session's event count ([`begin_and_count`]), then every record and the
//! `COMMIT` in one multi-statement query ([`append_and_commit`]). PostgreSQL takes no
//! multi-statement query with parameters: there a group of plain records is one call of a
//! database function ([`record_group`]); one carrying a session's whole facts has its
//! counts read under advisory locks ([`lock_and_count`]) and its statements run one by one.

mod one_call;

use std::collections::HashMap;
use std::fmt::Write as _;

use sqlx::query::Query;
use sqlx::sqlite::{Sqlite, SqliteArguments};
use sqlx::{PgConnection, SqliteConnection};

use super::NewEvent;
use super::either::{Conn, Connected};
use crate::ids::{ClubId, SessionId};
pub use one_call::{FactsAt, GroupRecord, record_group, written};

/// `BEGIN IMMEDIATE` plus each of `sessions`' event count (0 if none) in one query; begun by
/// hand so [`append_and_commit`] can commit in its query. On error the caller must
/// [`roll_back`].
pub async fn begin_and_count(
    conn: &mut SqliteConnection,
    sessions: &[SessionId],
) -> Result<HashMap<SessionId, i64>, sqlx::Error> {
    // One scalar MAX per session answers from the end of the (session_id, seq) index; a
    // GROUP BY would read every event.
    let mut sql = String::from(
        "BEGIN IMMEDIATE; SELECT s.id, (SELECT COALESCE(MAX(seq), 0) FROM events \
         WHERE session_id = s.id) FROM sessions s WHERE s.id IN (",
    );
    for i in 1..=sessions.len() {
        let comma = if i == 1 { "" } else { ", " };
        let _ = write!(sql, "{comma}${i}");
    }
    sql.push(')');
    let mut q = sqlx::query_as(sqlx::AssertSqlSafe(sql));
    for id in sessions {
        q = q.bind(*id);
    }
    let rows: Vec<(SessionId, i64)> = q.fetch_all(&mut *conn).await?;
    Ok(rows.into_iter().collect())
}

/// Ends [`begin_and_count`]'s transaction unwritten; no open transaction is not an error.
/// Errors: the connection is broken (the caller closes it).
pub async fn roll_back(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    match sqlx::query("ROLLBACK").execute(&mut *conn).await {
        Ok(_) => Ok(()),
        Err(sqlx::Error::Database(e)) if e.message().contains("no transaction is active") => Ok(()),
        Err(e) => Err(e),
    }
}

/// PostgreSQL, in the group's transaction: each session's `pg_advisory_xact_lock` (in id
/// order, so instances cannot deadlock), then their event counts as [`begin_and_count`].
pub async fn lock_and_count(
    conn: &mut PgConnection,
    sessions: &[SessionId],
) -> Result<HashMap<SessionId, i64>, sqlx::Error> {
    let ids = lock_postgres(conn, &session_keys(sessions)).await?;
    let rows: Vec<(SessionId, i64)> = sqlx::query_as(
        "SELECT s.id, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = s.id) \
         FROM sessions s WHERE s.id = ANY($1)",
    )
    .bind(&ids)
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().collect())
}

/// Takes the locks every write of a session's events or facts takes: on PostgreSQL the
/// sessions' advisory locks (id order) then their clubs' ([`lock_clubs`]); on SQLite none.
/// On PostgreSQL, read counts afterwards in a statement of their own.
pub async fn lock_sessions(
    conn: &mut impl Connected,
    sessions: &[SessionId],
) -> Result<(), sqlx::Error> {
    match conn.either() {
        Conn::Sqlite(_) => Ok(()),
        Conn::Postgres(c) => {
            let ids = lock_postgres(c, &session_keys(sessions)).await?;
            // After the sessions' locks, as the group commit does, so the two cannot deadlock.
            let clubs: Vec<ClubId> = sqlx::query_scalar(
                "SELECT DISTINCT club_id FROM sessions WHERE id = ANY($1) AND club_id IS NOT NULL",
            )
            .bind(&ids)
            .fetch_all(&mut *c)
            .await?;
            lock_clubs(c, &clubs).await
        }
    }
}

/// PostgreSQL, after [`lock_and_count`]: the advisory lock of each of `clubs` (key = id
/// negated). Without it two groups of one club deadlock: the facts triggers update the
/// club's `player_totals`/`bid_totals` rows in each group's own order.
pub async fn lock_clubs(conn: &mut PgConnection, clubs: &[ClubId]) -> Result<(), sqlx::Error> {
    let keys: Vec<i64> = clubs.iter().map(|id| -id.0).collect();
    lock_postgres(conn, &keys).await.map(|_| ())
}

/// Advisory lock keys of `sessions` (their ids).
fn session_keys(sessions: &[SessionId]) -> Vec<i64> {
    sessions.iter().map(|s| s.0).collect()
}

/// `pg_advisory_xact_lock` of each distinct key, in order: the keys locked.
async fn lock_postgres(conn: &mut PgConnection, keys: &[i64]) -> Result<Vec<i64>, sqlx::Error> {
    // Bound as one BIGINT[] array.
    let mut ids = keys.to_vec();
    ids.sort_unstable();
    ids.dedup();
    sqlx::query(
        "SELECT pg_advisory_xact_lock(id) FROM (SELECT unnest($1::BIGINT[]) AS id ORDER BY id) s",
    )
    .bind(&ids)
    .execute(&mut *conn)
    .await?;
    Ok(ids)
}

/// Statements a record's query runs after its event's: SQL pushed after `;` and their binds.
pub trait Then<'q> {
    /// Pushes the statements, parameters numbered from `$first + 1`; how many it takes.
    fn push(&self, sql: &mut String, first: usize) -> usize;
    /// Binds their parameters to `q`.
    fn bind(&self, q: Query<'q, Sqlite, SqliteArguments>) -> Query<'q, Sqlite, SqliteArguments>;
}

/// One record: `event` of `session_id` (which holds `event.seq - 1` events, checked under
/// the write lock), then `then`.
pub struct Record<'q> {
    /// The session's id.
    pub session_id: SessionId,
    /// The event, its ledger entry and postings.
    pub event: &'q NewEvent<'q>,
    /// What else the record writes in the same query.
    pub then: Option<&'q (dyn Then<'q> + Sync)>,
}

/// Appends every record and commits [`begin_and_count`]'s transaction, all in one query.
/// Errors: the first failing statement's, `COMMIT` included; the caller then [`roll_back`]s.
pub async fn append_and_commit(
    conn: &mut SqliteConnection,
    records: &[Record<'_>],
) -> Result<(), sqlx::Error> {
    let mut sql = String::new();
    let mut n = 0;
    for r in records {
        n = push_record(&mut sql, n, r);
        sql.push_str("; ");
    }
    sql.push_str("COMMIT");
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for r in records {
        let e = r.event;
        q = q
            .bind(r.session_id)
            .bind(e.seq)
            .bind(e.kind)
            .bind(e.body)
            .bind(e.explanation)
            .bind(super::time::rfc3339(e.recorded_at))
            .bind(e.entry);
        for p in e.postings {
            q = q.bind(&p.account).bind(p.amount.cents());
        }
        if let Some(then) = r.then {
            q = then.bind(q);
        }
    }
    q.execute(&mut *conn).await?;
    Ok(())
}

/// Pushes record `r`'s statements, numbered from `$first + 1`; the last parameter's number.
fn push_record(sql: &mut String, first: usize, r: &Record<'_>) -> usize {
    // The event's id by (session, seq): `last_insert_rowid()` changes across a multi-row insert.
    let (id, seq) = (first + 1, first + 2);
    let event_id = format!("(SELECT id FROM events WHERE session_id = ${id} AND seq = ${seq})");
    let _ = write!(
        sql,
        "INSERT INTO events (session_id, seq, kind, body, explanation, recorded_at) \
         VALUES (${id}, ${seq}, ${}, ${}, ${}, ${}); \
         INSERT INTO ledger_entries (event_id, entry) VALUES ({event_id}, ${})",
        first + 3,
        first + 4,
        first + 5,
        first + 6,
        first + 7,
    );
    let mut n = first + 7;
    if !r.event.postings.is_empty() {
        sql.push_str("; INSERT INTO postings (event_id, account, amount_cents) VALUES ");
        for i in 0..r.event.postings.len() {
            let comma = if i == 0 { "" } else { ", " };
            let _ = write!(sql, "{comma}({event_id}, ${}, ${})", n + 1, n + 2);
            n += 2;
        }
    }
    if let Some(then) = r.then {
        n += then.push(sql, n);
    }
    n
}
