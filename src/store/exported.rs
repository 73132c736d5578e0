//! A session's stored events as the downloads read them, a range of `seq` at a time: the
//! events are append-only, so the rows up to a `seq` read once stay the same on every later
//! page, and a download read in pages on fresh connections is one consistent answer.

use chrono::{DateTime, Utc};

use super::either::{Connected, Rows, on_either};
use super::time::StoredTime;
use crate::ids::SessionId;

/// One stored event with its ledger entry, as a download writes it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportRow {
    /// 0 for the opening ante, N for the session document's event N − 1.
    pub seq: i64,
    /// When it was recorded.
    #[sqlx(try_from = "StoredTime")]
    pub recorded_at: DateTime<Utc>,
    /// The event as written, JSON text.
    pub body: String,
    /// Its ledger entry, JSON text as the ledger document shows it; `None` for an event
    /// stored before entries were kept.
    pub entry: Option<String>,
}

/// Session `id`'s events with `after < seq <= through`, in `seq` order, streamed.
pub fn export_rows<'c>(
    conn: &'c mut impl Connected,
    id: SessionId,
    (after, through): (i64, i64),
) -> Rows<'c, ExportRow> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT e.seq, e.recorded_at, e.body, l.entry FROM events e \
         LEFT JOIN ledger_entries l ON l.event_id = e.id \
         WHERE e.session_id = $1 AND e.seq > $2 AND e.seq <= $3 ORDER BY e.seq",
    )
    .bind(id)
    .bind(after)
    .bind(through)
    .fetch(c))
}

/// How many of session `id`'s events with `after < seq <= through` have no stored ledger
/// entry (stored before entries were kept): 0 when a download may read entries alone.
pub async fn entries_missing(
    conn: &mut impl Connected,
    id: SessionId,
    (after, through): (i64, i64),
) -> Result<i64, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT COUNT(*) FROM events e LEFT JOIN ledger_entries l ON l.event_id = e.id \
         WHERE e.session_id = $1 AND e.seq > $2 AND e.seq <= $3 AND l.event_id IS NULL",
    )
    .bind(id)
    .bind(after)
    .bind(through)
    .fetch_one(c)
    .await)
}
