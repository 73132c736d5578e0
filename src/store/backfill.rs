//! Ledger entries for events stored before migration 0011: appended once, so the ledger is
//! read from the store instead of folded on every request.

use super::either::{Connected, on_either};
use crate::ids::SessionId;

/// The sessions with an event lacking its entry (stored before migration 0011), in order:
/// one pass over the events, for the backfill at start.
pub async fn sessions_without_entries(
    conn: &mut impl Connected,
) -> Result<Vec<SessionId>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT DISTINCT e.session_id FROM events e WHERE e.seq > 0 AND NOT EXISTS \
         (SELECT 1 FROM ledger_entries l WHERE l.event_id = e.id) ORDER BY e.session_id",
    )
    .fetch_all(c)
    .await)
}

/// Session `id`'s event seqs lacking an entry, in order.
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

/// Appends `entry` for event `seq` unless it has one (append-only); entries written, 0 or 1.
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
