//! Ledger entries for the events stored before migration 0011, which have none: found and
//! appended once, so that such a session's ledger is read from the store from then on
//! instead of folding the whole session on every request.

use super::either::{Connected, on_either};
use crate::ids::SessionId;

/// The seqs of session `id`'s events stored without their ledger entry, in order: the
/// ones [`append_missing_entry`] fills in.
pub async fn seqs_without_entry(
    conn: &mut impl Connected,
    id: SessionId,
) -> Result<Vec<i64>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT e.seq FROM events e LEFT JOIN ledger_entries l ON l.event_id = e.id \
         WHERE e.session_id = $1 AND l.event_id IS NULL ORDER BY e.seq",
    )
    .bind(id)
    .fetch_all(c)
    .await)
}

/// Appends `entry` (JSON text) as the ledger entry of session `id`'s event `seq` when that
/// event has none; an entry already there stays as it is (entries are append-only).
/// Returns how many entries were written (0 or 1).
pub async fn append_missing_entry(
    conn: &mut impl Connected,
    id: SessionId,
    seq: i64,
    entry: &str,
) -> Result<u64, sqlx::Error> {
    // The `WHERE` before `ON CONFLICT` keeps SQLite from reading ON as a join's.
    on_either!(conn.either(), c => sqlx::query(
        "INSERT INTO ledger_entries (event_id, entry) SELECT id, $1 FROM events \
         WHERE session_id = $2 AND seq = $3 ON CONFLICT (event_id) DO NOTHING",
    )
    .bind(entry)
    .bind(id)
    .bind(seq)
    .execute(c)
    .await
    .map(|done| done.rows_affected()))
}
