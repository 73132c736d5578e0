//! A group commit's records in as few round trips to the database thread as there can be.
//!
//! sqlx runs each SQLite connection on a thread of its own: every query sent is a
//! hand-over to that thread and back, and the way back waits for a free tokio worker,
//! which at a busy table is running other requests. A group is therefore two queries of
//! several statements each: `BEGIN IMMEDIATE` with every session's count of events
//! ([`begin_and_count`]), then every record (its event, ledger entry and postings, and a
//! club session's history facts) with the `COMMIT` ([`append_and_commit`]), which the
//! thread runs in one go, stopping at the first error (at 8 clients, x0.60-0.66 of the raw
//! commit rate, against x0.43-0.50 with one query per record).
//!
//! PostgreSQL takes no query of several statements with parameters: there the group is a
//! transaction of sqlx's, whose counts are read under the sessions' advisory locks
//! ([`lock_and_count`]), and a record is its statements one by one
//! ([`super::append_event`], [`super::history::apply_facts_delta`]).

use std::collections::HashMap;
use std::fmt::Write as _;

use sqlx::query::Query;
use sqlx::sqlite::{Sqlite, SqliteArguments};
use sqlx::{PgConnection, SqliteConnection};

use super::NewEvent;
use super::either::{Conn, Connected};
use crate::ids::{ClubId, SessionId};

/// Takes the write lock (`BEGIN IMMEDIATE`) and reads how many events each of `sessions`
/// holds as stored (the highest `seq`, as [`super::event_count`] counts them; 0 for a
/// session with none), in one query: one hand-over to the database thread. Read under the
/// lock, the counts stay true until the group's `COMMIT`, so a record whose count matches
/// may be appended without checking again. The transaction is begun on `conn` by hand, not
/// through sqlx's `Transaction`, so that [`append_and_commit`] can end it in the same query
/// as the records; on error the caller must [`roll_back`] (the `BEGIN` may have succeeded).
pub async fn begin_and_count(
    conn: &mut SqliteConnection,
    sessions: &[SessionId],
) -> Result<HashMap<SessionId, i64>, sqlx::Error> {
    // One scalar MAX per session, which SQLite answers from the end of the (session_id,
    // seq) index; a GROUP BY over the sessions' events would read every one of them.
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

/// Ends the transaction [`begin_and_count`] began, writing nothing of it. A `ROLLBACK`
/// with no transaction open (the `BEGIN` failed, or SQLite already rolled back after a
/// failed statement) is not an error. Errors: the connection is broken; the caller then
/// closes it rather than give it back to the pool.
pub async fn roll_back(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    match sqlx::query("ROLLBACK").execute(&mut *conn).await {
        Ok(_) => Ok(()),
        Err(sqlx::Error::Database(e)) if e.message().contains("no transaction is active") => Ok(()),
        Err(e) => Err(e),
    }
}

/// On PostgreSQL, inside the group's transaction (`conn`): takes each of `sessions`'
/// advisory lock for the transaction (`pg_advisory_xact_lock`, in the order of the ids, so
/// two instances' groups cannot deadlock), then reads their counts of events as
/// [`begin_and_count`] does. The writer's `BEGIN` takes no lock there: another instance's
/// group on the same session waits for this one's commit, then reads the count it left.
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

/// Takes, for the write transaction `conn` is in, the lock of each of `sessions` that
/// every write of a session's events or history facts takes, so that two instances' writes
/// of one session follow each other: on PostgreSQL each session's advisory lock in the
/// order of the ids, as [`lock_and_count`] takes them, then the lock of each of their clubs
/// ([`lock_clubs`], as the group commit takes it), so a write and a group cannot deadlock;
/// on SQLite nothing, since the transaction's `BEGIN IMMEDIATE` already holds
/// the database's write lock. A count of events read after it, in the same transaction,
/// stays true until the commit (on PostgreSQL each statement reads what was committed when
/// it began, so the count must be a statement of its own, after this one).
pub async fn lock_sessions(
    conn: &mut impl Connected,
    sessions: &[SessionId],
) -> Result<(), sqlx::Error> {
    match conn.either() {
        Conn::Sqlite(_) => Ok(()),
        Conn::Postgres(c) => {
            let ids = lock_postgres(c, &session_keys(sessions)).await?;
            // Every write of a club's session may change the club's totals: it takes the
            // club's lock after the sessions', as the group commit does ([`lock_clubs`]),
            // so a keyed record or a correction and another instance's group follow each
            // other instead of deadlocking on those rows.
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

/// On PostgreSQL, inside a group's transaction and after its sessions' locks
/// ([`lock_and_count`]): takes the advisory lock of each of `clubs` whose history facts the
/// group writes (keyed by the id negated, apart from the sessions' keys; in one order for
/// every group). Without it two instances' groups of one club deadlock: the triggers of
/// `session_results` and `session_bids` update the club's `player_totals` and `bid_totals`
/// rows in the order of each group's records, which differs between groups, and each
/// deadlock cost a second (`deadlock_timeout`) and a refused group (the benchmark's rows of
/// two instances, docs/benchmark.md). Groups of one club follow each other, as their row
/// locks on those totals made them do anyway.
pub async fn lock_clubs(conn: &mut PgConnection, clubs: &[ClubId]) -> Result<(), sqlx::Error> {
    let keys: Vec<i64> = clubs.iter().map(|id| -id.0).collect();
    lock_postgres(conn, &keys).await.map(|_| ())
}

/// The advisory lock keys of `sessions`: each id itself (a club's is its id negated).
fn session_keys(sessions: &[SessionId]) -> Vec<i64> {
    sessions.iter().map(|s| s.0).collect()
}

/// `pg_advisory_xact_lock` of each of `keys`, once each, in their order: the keys locked.
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

/// The statements after an event's own that one record's query also runs: their SQL
/// (pushed after `;`, parameters numbered from a given `$N`, returning how many they take)
/// and their binding, in the same order.
pub trait Then<'q> {
    /// Appends the statements to `sql`, each after a `; `, numbered from `$first + 1`; how
    /// many parameters they take.
    fn push(&self, sql: &mut String, first: usize) -> usize;
    /// Binds their parameters to `q`.
    fn bind(&self, q: Query<'q, Sqlite, SqliteArguments>) -> Query<'q, Sqlite, SqliteArguments>;
}

/// One record of a group: event `event` of session `session_id` (which holds
/// `event.seq - 1` events: the caller checked it under the write lock), with the
/// statements of `then` (a club session's facts).
pub struct Record<'q> {
    /// The session's id.
    pub session_id: SessionId,
    /// The event, its ledger entry and postings.
    pub event: &'q NewEvent<'q>,
    /// What else the record writes in the same query.
    pub then: Option<&'q (dyn Then<'q> + Sync)>,
}

/// Appends every record of `records` (each event with its ledger entry and postings, then
/// its `then`) and commits the transaction [`begin_and_count`] began, all as one query: one
/// hand-over to the database thread for the whole group. Errors: the database's, from the
/// first statement that fails, the `COMMIT` included; the caller then [`roll_back`]s
/// (statements before the failing one may have been applied, and are undone with it).
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

/// Appends record `r`'s statements to `sql`, its parameters numbered from `$first + 1`, in
/// the order [`append_and_commit`] binds them; the last parameter's number.
fn push_record(sql: &mut String, first: usize, r: &Record<'_>) -> usize {
    // The event's id by its unique (session, seq), not `last_insert_rowid()`, which a
    // multi-row insert changes from one row to the next.
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
