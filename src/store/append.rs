//! A group commit's records in as few round trips to the database thread as there can be.
//!
//! sqlx runs each SQLite connection on a thread of its own: every statement sent is a
//! hand-over to that thread and back, and on a small server those hand-overs, not the
//! statements, are what a record costs most while its group holds the write lock. So a
//! group checks every session's count of events in one statement, and each record is then
//! one query of several statements (its event, ledger entry and postings, and a club
//! session's history facts), which the thread runs in one go, stopping at the first error.

use std::collections::HashMap;

use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

use super::NewEvent;

/// How many events each of `sessions` holds as stored (the highest `seq`, as
/// [`super::event_count`] counts them; 0 for a session with none), in one statement. Read
/// under the write lock, it stays true until the lock is let go, so a record whose count
/// matches may be appended without checking again.
pub async fn event_counts(
    conn: &mut SqliteConnection,
    sessions: &[i64],
) -> Result<HashMap<i64, i64>, sqlx::Error> {
    // One scalar MAX per session, which SQLite answers from the end of the (session_id,
    // seq) index; a GROUP BY over the sessions' events would read every one of them.
    let mut q = QueryBuilder::<Sqlite>::new(
        "SELECT s.id, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = s.id) \
         FROM sessions s WHERE s.id IN (",
    );
    let mut ids = q.separated(", ");
    for id in sessions {
        ids.push_bind(*id);
    }
    q.push(")");
    let rows: Vec<(i64, i64)> = q.build_query_as().fetch_all(&mut *conn).await?;
    Ok(rows.into_iter().collect())
}

/// Appends event `e` to session `session_id` (which holds `e.seq - 1` events: the caller
/// checked it under the write lock), with its ledger entry and postings, followed by the
/// statements `then` pushes (each starting with `;`), all as one query. Errors: the
/// database's, from the first statement that fails (the caller rolls back: the statements
/// before it in this query may have been applied).
pub async fn append_checked(
    conn: &mut SqliteConnection,
    session_id: i64,
    e: &NewEvent<'_>,
    then: impl FnOnce(&mut QueryBuilder<Sqlite>),
) -> Result<(), sqlx::Error> {
    let mut q = QueryBuilder::<Sqlite>::new(
        "INSERT INTO events (session_id, seq, kind, body, explanation, recorded_at) VALUES (",
    );
    let mut values = q.separated(", ");
    values
        .push_bind(session_id)
        .push_bind(e.seq)
        .push_bind(e.kind)
        .push_bind(e.body)
        .push_bind(e.explanation)
        .push_bind(e.recorded_at);
    // The event's id by its unique (session, seq), not `last_insert_rowid()`, which a
    // multi-row insert changes from one row to the next.
    q.push("); INSERT INTO ledger_entries (event_id, entry) VALUES (");
    push_event_id(&mut q, session_id, e.seq);
    q.push(", ").push_bind(e.entry).push(")");
    if !e.postings.is_empty() {
        q.push("; INSERT INTO postings (event_id, account, amount_cents) ");
        q.push_values(e.postings, |mut row, p| {
            push_event_id_sep(&mut row, session_id, e.seq);
            row.push_bind(&p.account).push_bind(p.amount.cents());
        });
    }
    then(&mut q);
    q.build().execute(&mut *conn).await?;
    Ok(())
}

/// `(SELECT id FROM events WHERE session_id = ? AND seq = ?)`.
fn push_event_id(q: &mut QueryBuilder<Sqlite>, session_id: i64, seq: i64) {
    q.push("(SELECT id FROM events WHERE session_id = ")
        .push_bind(session_id)
        .push(" AND seq = ")
        .push_bind(seq)
        .push(")");
}

/// [`push_event_id`] as one value of a row of `push_values`.
fn push_event_id_sep(
    row: &mut sqlx::query_builder::Separated<'_, Sqlite, &'static str>,
    session_id: i64,
    seq: i64,
) {
    row.push("(SELECT id FROM events WHERE session_id = ")
        .push_bind_unseparated(session_id)
        .push_unseparated(" AND seq = ")
        .push_bind_unseparated(seq)
        .push_unseparated(")");
}
