//! The SQL half of `scorekeeper copy` (orchestration: [`crate::copy`]): every row of an
//! SQLite database into an empty PostgreSQL one, ids kept, through `COPY … FROM STDIN`
//! batches (one `INSERT` per row would be a round trip per row). `COPY` fires the insert
//! triggers, which rebuild the club totals ([`DERIVED`]).

use sqlx::{PgConnection, Row, SqliteConnection};
use tokio_stream::StreamExt;

use super::Connected;
use super::either::on_either;
use crate::ids::SessionId;

/// Tables copied, parents first: all but [`DERIVED`] and the migrations' bookkeeping.
pub const TABLES: [&str; 20] = [
    "clubs",
    "club_players",
    "sessions",
    "seats",
    "events",
    "postings",
    "ledger_entries",
    "access_tokens",
    "idempotency_keys",
    "session_links",
    "session_meta",
    "people",
    "player_names",
    "session_status",
    "session_results",
    "session_bids",
    "history_backlog",
    "nights",
    "night_sessions",
    "night_payments",
];

/// The trigger-kept club totals (migration 0007): not copied (the triggers would count the
/// rows twice) but rebuilt, then compared with the source's on the rows that count (SQLite
/// may keep `nights = 0` rows that no page reads).
pub const DERIVED: [(&str, &str); 2] =
    [("player_totals", "nights > 0"), ("bid_totals", "bids > 0")];

/// Tables with identity ids: their sequences are moved past the copied ids.
const IDENTITIES: [&str; 6] = [
    "clubs",
    "sessions",
    "events",
    "people",
    "nights",
    "night_payments",
];

/// How many bytes of rows go in one `COPY` data message.
const BATCH_BYTES: usize = 1 << 16;

/// The first non-empty target table and its row count; `None` when all are empty.
pub async fn first_nonempty(conn: &mut PgConnection) -> Result<Option<(String, i64)>, sqlx::Error> {
    let derived = DERIVED.iter().map(|(t, _)| *t);
    for table in TABLES.iter().copied().chain(derived) {
        let n = count(conn, table, "TRUE").await?;
        if n > 0 {
            return Ok(Some((table.to_string(), n)));
        }
    }
    Ok(None)
}

/// Rows of `table` meeting `condition` (a constant of this module).
pub async fn count(
    conn: &mut impl Connected,
    table: &str,
    condition: &str,
) -> Result<i64, sqlx::Error> {
    let sql = format!("SELECT COUNT(*) FROM {table} WHERE {condition}");
    on_either!(conn.either(), c => sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).fetch_one(c).await)
}

/// A [`DERIVED`] table's counted rows as sorted text, for comparing source and target.
pub async fn derived_rows(
    conn: &mut impl Connected,
    (table, condition): (&str, &str),
) -> Result<Vec<String>, sqlx::Error> {
    let columns = match table {
        "player_totals" => {
            "club_id, player, game, nights, net_cents, hands_bid, hands_made, hands_set, \
             games_won, kitties_taken"
        }
        _ => "club_id, player, band, bids, made",
    };
    let separator = match conn.either().engine() {
        super::postgres::Engine::Sqlite => " || char(31) || ",
        super::postgres::Engine::Postgres => " || chr(31) || ",
    };
    let joined = columns
        .split(", ")
        .map(|c| format!("CAST({c} AS TEXT)"))
        .collect::<Vec<_>>()
        .join(separator);
    let sql = format!("SELECT {joined} FROM {table} WHERE {condition}");
    let mut rows: Vec<String> = on_either!(conn.either(), c =>
        sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).fetch_all(c).await)?;
    rows.sort();
    Ok(rows)
}

/// `table`'s target columns in order, each with whether it is `BIGINT` (else `TEXT`).
async fn columns(to: &mut PgConnection, table: &str) -> Result<Vec<(String, bool)>, sqlx::Error> {
    sqlx::query(
        "SELECT column_name::TEXT, data_type = 'bigint' FROM information_schema.columns \
         WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
    )
    .bind(table)
    .fetch_all(to)
    .await?
    .into_iter()
    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
    .collect()
}

/// Copies every row of `table` from `from` to `to` (each in its caller's transaction),
/// columns by name, ids included; the row count. Errors: a column the source lacks (other
/// schema version), a row the target refuses, either connection's.
pub async fn copy_table(
    from: &mut SqliteConnection,
    to: &mut PgConnection,
    table: &str,
) -> Result<u64, sqlx::Error> {
    let columns = columns(to, table).await?;
    let names = columns
        .iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let mut sink = to
        .copy_in_raw(&format!("COPY {table} ({names}) FROM STDIN"))
        .await?;
    let select = format!("SELECT {names} FROM {table}");
    let mut rows = sqlx::query(sqlx::AssertSqlSafe(select)).fetch(from);
    let mut batch = String::with_capacity(BATCH_BYTES + 4096);
    let mut copied = 0u64;
    while let Some(row) = rows.next().await {
        let row = match row {
            Ok(row) => row,
            Err(e) => {
                drop(rows);
                sink.abort(e.to_string()).await?;
                return Err(e);
            }
        };
        for (i, (_, integer)) in columns.iter().enumerate() {
            if i > 0 {
                batch.push('\t');
            }
            if *integer {
                match row.try_get::<Option<i64>, _>(i)? {
                    Some(n) => batch.push_str(&n.to_string()),
                    None => batch.push_str("\\N"),
                }
            } else {
                push_text(&mut batch, row.try_get::<Option<String>, _>(i)?.as_deref());
            }
        }
        batch.push('\n');
        copied += 1;
        if batch.len() >= BATCH_BYTES {
            sink.send(batch.as_bytes()).await?;
            batch.clear();
        }
    }
    if !batch.is_empty() {
        sink.send(batch.as_bytes()).await?;
    }
    sink.finish().await?;
    Ok(copied)
}

/// One value in `COPY` text format: `\N` for NULL; backslash, tab, LF, CR escaped.
fn push_text(out: &mut String, value: Option<&str>) {
    let Some(text) = value else {
        out.push_str("\\N");
        return;
    };
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

/// Moves every identity sequence past its table's largest id.
pub async fn advance_sequences(to: &mut PgConnection) -> Result<(), sqlx::Error> {
    for table in IDENTITIES {
        // `false`: the value is the next one handed out.
        let sql = format!(
            "SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, \
             false) FROM {table}"
        );
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut *to)
            .await?;
    }
    Ok(())
}

/// Every session's id, in order.
pub async fn session_ids(conn: &mut impl Connected) -> Result<Vec<SessionId>, sqlx::Error> {
    on_either!(conn.either(), c =>
        sqlx::query_scalar("SELECT id FROM sessions ORDER BY id").fetch_all(c).await)
}

/// Session `id`'s stored postings as `(seq, account, cents)`: what replay must give again.
pub async fn session_postings(
    conn: &mut impl Connected,
    id: SessionId,
) -> Result<Vec<(i64, String, i64)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT e.seq, p.account, p.amount_cents FROM postings p \
         JOIN events e ON e.id = p.event_id WHERE e.session_id = $1 ORDER BY e.seq, p.account",
    )
    .bind(id)
    .fetch_all(c)
    .await)
}

#[cfg(test)]
mod tests {
    use super::push_text;

    #[test]
    fn copy_text_escapes_what_the_format_reads_specially() {
        let mut out = String::new();
        push_text(&mut out, Some("a\\b\tc\nd\re \"é\""));
        out.push('|');
        push_text(&mut out, None);
        assert_eq!(out, "a\\\\b\\tc\\nd\\re \"é\"|\\N");
    }
}
