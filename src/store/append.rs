//! A group commit's records in as few round trips to the database thread as there can be.
//!
//! sqlx runs each SQLite connection on a thread of its own: every statement sent is a
//! hand-over to that thread and back (two thread wake-ups), while the group holds the write
//! lock that every record waits for. So a group checks every session's count of events in
//! one statement, and each record is then one query of several statements (its event,
//! ledger entry and postings, and a club session's history facts), which the thread runs
//! in one go, stopping at the first error. PostgreSQL takes no query of several statements
//! with parameters: there a record is its statements one by one
//! ([`super::append_event`], [`super::history::apply_facts_delta`]).

use std::collections::HashMap;
use std::fmt::Write as _;

use sqlx::query::Query;
use sqlx::sqlite::{Sqlite, SqliteArguments};
use sqlx::{PgConnection, SqliteConnection};

use super::NewEvent;
use super::either::{Conn, Connected};

/// How many events each of `sessions` holds as stored (the highest `seq`, as
/// [`super::event_count`] counts them; 0 for a session with none), in one statement. Read
/// under the write lock, it stays true until the lock is let go, so a record whose count
/// matches may be appended without checking again.
///
/// On PostgreSQL, where the writer's `BEGIN` takes no lock, it first takes each session's
/// advisory lock for the transaction (`pg_advisory_xact_lock`, in the order of the ids, so
/// two instances' groups cannot deadlock): another instance's group commit on the same
/// session waits for this one's commit, then reads the count this one left.
pub async fn event_counts(
    conn: &mut impl Connected,
    sessions: &[i64],
) -> Result<HashMap<i64, i64>, sqlx::Error> {
    let conn = match conn.either() {
        Conn::Sqlite(c) => c,
        Conn::Postgres(c) => return event_counts_locked(c, sessions).await,
    };
    // One scalar MAX per session, which SQLite answers from the end of the (session_id,
    // seq) index; a GROUP BY over the sessions' events would read every one of them.
    let mut sql = String::from(
        "SELECT s.id, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = s.id) \
         FROM sessions s WHERE s.id IN (",
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
    let rows: Vec<(i64, i64)> = q.fetch_all(&mut *conn).await?;
    Ok(rows.into_iter().collect())
}

/// [`event_counts`] on PostgreSQL: the sessions' advisory locks, then their counts.
async fn event_counts_locked(
    conn: &mut PgConnection,
    sessions: &[i64],
) -> Result<HashMap<i64, i64>, sqlx::Error> {
    let mut ids = sessions.to_vec();
    ids.sort_unstable();
    ids.dedup();
    sqlx::query(
        "SELECT pg_advisory_xact_lock(id) FROM (SELECT unnest($1::BIGINT[]) AS id ORDER BY id) s",
    )
    .bind(&ids)
    .execute(&mut *conn)
    .await?;
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT s.id, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = s.id) \
         FROM sessions s WHERE s.id = ANY($1)",
    )
    .bind(&ids)
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().collect())
}

/// The statements after an event's own that one record's query also runs: their SQL
/// (pushed after `;`, parameters numbered from a given `$N`, returning how many they take)
/// and their binding, in the same order.
pub trait Then<'q> {
    /// Appends the statements to `sql`, numbered from `$first + 1`; how many parameters.
    fn push(&self, sql: &mut String, first: usize) -> usize;
    /// Binds their parameters to `q`.
    fn bind(&self, q: Query<'q, Sqlite, SqliteArguments>) -> Query<'q, Sqlite, SqliteArguments>;
}

/// Appends event `e` to session `session_id` (which holds `e.seq - 1` events: the caller
/// checked it under the write lock), with its ledger entry and postings, followed by the
/// statements of `then` (a club session's facts), all as one query. Errors: the database's,
/// from the first statement that fails (the caller rolls back: the statements before it in
/// this query may have been applied).
pub async fn append_checked<'q>(
    conn: &mut SqliteConnection,
    session_id: i64,
    e: &'q NewEvent<'q>,
    then: Option<&(dyn Then<'q> + Sync)>,
) -> Result<(), sqlx::Error> {
    // The event's id by its unique (session, seq) ($1, $2), not `last_insert_rowid()`,
    // which a multi-row insert changes from one row to the next.
    let mut sql = String::from(
        "INSERT INTO events (session_id, seq, kind, body, explanation, recorded_at) \
         VALUES ($1, $2, $3, $4, $5, $6); \
         INSERT INTO ledger_entries (event_id, entry) \
         VALUES ((SELECT id FROM events WHERE session_id = $1 AND seq = $2), $7)",
    );
    let mut n = 7;
    if !e.postings.is_empty() {
        sql.push_str("; INSERT INTO postings (event_id, account, amount_cents) VALUES ");
        for i in 0..e.postings.len() {
            let comma = if i == 0 { "" } else { ", " };
            let _ = write!(
                sql,
                "{comma}((SELECT id FROM events WHERE session_id = $1 AND seq = $2), ${}, ${})",
                n + 1,
                n + 2
            );
            n += 2;
        }
    }
    if let Some(then) = then {
        then.push(&mut sql, n);
    }
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(session_id)
        .bind(e.seq)
        .bind(e.kind)
        .bind(e.body)
        .bind(e.explanation)
        .bind(e.recorded_at)
        .bind(e.entry);
    for p in e.postings {
        q = q.bind(&p.account).bind(p.amount.cents());
    }
    if let Some(then) = then {
        q = then.bind(q);
    }
    q.execute(&mut *conn).await?;
    Ok(())
}
