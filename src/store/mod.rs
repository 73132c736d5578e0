//! The store: sessions, seats, events and postings, appended and never edited; no rules.
//! Money is INTEGER cents. Every function takes a connection of either engine
//! ([`Connected`]) and runs one SQL text with `$N` parameters ([`either`]).

pub mod append;
mod backfill;
#[cfg(test)]
mod club_scope;
pub mod clubs;
pub mod copy;
pub mod either;
pub mod exported;
pub mod history;
mod listing;
pub mod nights;
pub mod ops;
mod pooler;
mod pools;
pub mod postgres;
#[cfg(test)]
pub(crate) mod testing;
pub mod time;

use std::fmt::Write as _;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use sqlx::SqliteConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use self::time::{StoredTime, rfc3339};
use crate::ids::ClubId;
use crate::ids::EventId;
use crate::ids::SessionId;
use crate::ledger::Posting;
pub use backfill::{append_missing_entry, seqs_without_entry, sessions_without_entries};
use either::on_either;
pub use either::{Connected, Rows};
pub use listing::{
    PLAYER_SEPARATOR, SessionSummaryRow, agreements_of_game, club_session_ids, last_session,
    list_sessions,
};
pub use pools::{PoolSettings, Pooled, ReadPool, Tx, WritePool};

/// Migrations, embedded in the binary and run at start-up.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// Opens (creating the file if needed) and migrates the database at `url` (`sqlite://…`,
/// `sqlite::memory:`, `postgres://…`): the writer, carrying its read pool ([`WritePool`])
/// of the default size. Errors: the file cannot be made or opened; a migration fails.
pub async fn open(url: &str) -> Result<WritePool, sqlx::Error> {
    open_with(url, PoolSettings::default()).await
}

/// [`open`] with the read pool sized by `sizes`.
pub async fn open_with(url: &str, sizes: PoolSettings) -> Result<WritePool, sqlx::Error> {
    open_reading_through(url, None, sizes).await
}

/// [`open_with`], the PostgreSQL readers connecting through `read_url` when given: a
/// PgBouncer in transaction mode in front of `url`'s database (docs/postgres.md, "Behind
/// PgBouncer"); the writer, its migrations and the relay keep `url`. Errors: as
/// [`open_with`]; `read_url` is given for an SQLite `url` or is unfit.
pub async fn open_reading_through(
    url: &str,
    read_url: Option<&str>,
    sizes: PoolSettings,
) -> Result<WritePool, sqlx::Error> {
    if postgres::Engine::of(url) == Some(postgres::Engine::Postgres) {
        // One writer connection, as SQLite's: this instance's writes queue in arrival order.
        let pool = postgres::open_postgres(url, 1).await?;
        return match read_url {
            Some(read_url) => WritePool::postgres_reading_through(pool, read_url, sizes),
            None => Ok(WritePool::postgres(pool, sizes)),
        };
    }
    if read_url.is_some() {
        let what = "a read URL is for a PostgreSQL database only";
        return Err(sqlx::Error::Configuration(what.into()));
    }
    let options = SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        // Page cache per connection, in KiB: half the default; the OS caches the file anyway.
        .pragma("cache_size", "-1024")
        .busy_timeout(WRITE_WAIT);
    let in_memory = is_in_memory(&options);
    if !in_memory
        && let Some(dir) = Path::new(options.get_filename()).parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).map_err(|e| sqlx::Error::Configuration(Box::new(e)))?;
    }
    // One connection, kept: an in-memory database lives as long as it.
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        // No ping: the connection is a local thread, and a ping costs a round trip per write.
        .test_before_acquire(false)
        .acquire_timeout(WRITE_WAIT)
        .idle_timeout(None)
        .max_lifetime(None)
        .after_release(|conn, _| Box::pin(still_usable(conn)))
        .connect_with(options)
        .await?;
    MIGRATOR.run(&pool).await?;
    Ok(WritePool::new(pool, in_memory, sizes))
}

/// Whether the returned writer connection may be reused: `false` while sqlx still counts a
/// transaction open, which happens after a full disk or I/O error (SQLite rolled back
/// itself, sqlx's `ROLLBACK` failed, and every later `BEGIN` would fail until a restart).
async fn still_usable(conn: &mut SqliteConnection) -> Result<bool, sqlx::Error> {
    use sqlx::Connection;
    conn.ping().await?;
    if conn.is_in_transaction() {
        tracing::warn!("the writer connection was left in a transaction; it is replaced");
        return Ok(false);
    }
    Ok(true)
}

/// How long a write waits for the writer or a lock before it is refused busy (503).
pub const WRITE_WAIT: Duration = Duration::from_secs(5);

/// Read connections per pool ([`reader`]).
pub const READERS: u32 = 4;

pub(crate) fn is_in_memory(options: &SqliteConnectOptions) -> bool {
    // sqlx names an in-memory database `file:sqlx-in-memory-N` (its flag is private).
    let name = options.get_filename().to_string_lossy();
    name.is_empty()
        || name.starts_with("file:sqlx-in-memory")
        || name.contains(":memory:")
        || name.contains("mode=memory")
}

/// The read pool beside `writer` ([`WritePool::reader`]).
pub fn reader(writer: &WritePool) -> ReadPool {
    writer.reader().clone()
}

/// Whether `e` means the database is busy (SQLite `BUSY`/`LOCKED`; PostgreSQL lock, deadlock,
/// serialisation, cancel, connection-limit states; pool timeout): nothing written, retryable.
pub fn is_busy(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut => true,
        // lock_not_available, serialization_failure, deadlock_detected, query_canceled (a
        // statement timeout), too_many_connections.
        sqlx::Error::Database(db) if postgres::sqlstate(db.as_ref()).is_some() => matches!(
            postgres::sqlstate(db.as_ref()),
            Some("55P03" | "40001" | "40P01" | "57014" | "53300")
        ),
        sqlx::Error::Database(db) => db
            .code()
            .and_then(|c| c.parse::<i64>().ok())
            .is_some_and(|c| matches!(c & 0xff, 5 | 6)),
        _ => false,
    }
}

/// Whether `e` means the database cannot be reached or the connection broke (an I/O or
/// TLS failure, a broken protocol, a closed pool; PostgreSQL's connection-exception class
/// `08`, or a server shutting down or starting, `57P01`–`57P03`): retryable once it is back.
pub fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => postgres::sqlstate(db.as_ref())
            .is_some_and(|s| s.starts_with("08") || matches!(s, "57P01" | "57P02" | "57P03")),
        _ => false,
    }
}

/// Whether `e` means the disk is full (`SQLITE_FULL`, PostgreSQL 53100): nothing written.
pub fn is_disk_full(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(db) if postgres::sqlstate(db.as_ref()).is_some() => {
            postgres::sqlstate(db.as_ref()) == Some("53100")
        }
        sqlx::Error::Database(db) => db
            .code()
            .and_then(|c| c.parse::<i64>().ok())
            .is_some_and(|c| c & 0xff == 13),
        _ => false,
    }
}

/// A stored session's header.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionRow {
    /// The session's id.
    pub id: SessionId,
    /// The game id.
    pub game: String,
    /// ISO currency code.
    pub currency: String,
    /// The agreements, as JSON text.
    pub agreements: String,
    /// The opening scores, as JSON text, if any.
    pub opening_scores: Option<String>,
    /// When the session was created.
    #[sqlx(try_from = "StoredTime")]
    pub created_at: DateTime<Utc>,
    /// The club that owns it; `None` for an open session (it never changes).
    pub club_id: Option<ClubId>,
}

/// A stored event.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EventRow {
    /// The row id, which postings refer to.
    pub id: EventId,
    /// The position: 0 for the opening ante, N for the document's event N − 1.
    pub seq: i64,
    /// The event's type.
    pub kind: String,
    /// The event as written, JSON text.
    pub body: String,
    /// The explanation computed when it was recorded.
    pub explanation: String,
    /// When it was recorded.
    #[sqlx(try_from = "StoredTime")]
    pub recorded_at: DateTime<Utc>,
}

/// A new session's header and seats, all in one transaction with its first events.
pub struct NewSession<'a> {
    /// The game id.
    pub game: &'a str,
    /// ISO currency code.
    pub currency: &'a str,
    /// The agreements as written.
    pub agreements: &'a Map<String, Value>,
    /// Scores carried in, if any.
    pub opening_scores: Option<&'a Value>,
    /// Player names in seat order.
    pub players: &'a [String],
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// The club that owns it; `None` for an open session.
    pub club_id: Option<ClubId>,
}

/// Inserts a session and its seats; returns the new id. Either engine ([`Connected`]).
pub async fn insert_session(
    conn: &mut impl Connected,
    s: &NewSession<'_>,
) -> Result<SessionId, sqlx::Error> {
    let agreements = Value::Object(s.agreements.clone()).to_string();
    let opening = s
        .opening_scores
        .filter(|v| !v.is_null())
        .map(Value::to_string);
    on_either!(conn.either(), c => {
        let id: SessionId = sqlx::query_scalar(
            "INSERT INTO sessions (game, currency, agreements, opening_scores, created_at, club_id) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(s.game)
        .bind(s.currency)
        .bind(&agreements)
        .bind(&opening)
        .bind(rfc3339(s.created_at))
        .bind(s.club_id)
        .fetch_one(&mut *c)
        .await?;
        for (position, player) in s.players.iter().enumerate() {
            sqlx::query("INSERT INTO seats (session_id, position, player) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(position as i64)
                .bind(player)
                .execute(&mut *c)
                .await?;
        }
        Ok(id)
    })
}

/// One event to append, with its postings.
pub struct NewEvent<'a> {
    /// The position (0 = opening ante).
    pub seq: i64,
    /// The event's type.
    pub kind: &'a str,
    /// The event as written, JSON text.
    pub body: &'a str,
    /// Its explanation.
    pub explanation: &'a str,
    /// Its postings, summing to zero.
    pub postings: &'a [Posting],
    /// When it was recorded.
    pub recorded_at: DateTime<Utc>,
    /// Its ledger entry, JSON text ([`crate::format::LedgerEvent`]).
    pub entry: &'a str,
}

/// Appends one event and its postings in the caller's transaction. A duplicate `seq`
/// violates the unique key: that is how two devices entering one hand are told apart.
pub async fn append_event(
    conn: &mut impl Connected,
    session_id: SessionId,
    e: &NewEvent<'_>,
) -> Result<EventId, sqlx::Error> {
    insert_event(conn, session_id, e, None)
        .await?
        .ok_or(sqlx::Error::RowNotFound)
}

/// [`append_event`] only if the session still holds `count` events, checked by the insert
/// itself; `None`, nothing written, otherwise.
pub async fn append_event_after(
    conn: &mut impl Connected,
    session_id: SessionId,
    e: &NewEvent<'_>,
    count: usize,
) -> Result<Option<EventId>, sqlx::Error> {
    insert_event(conn, session_id, e, Some(count)).await
}

/// Inserts the event (checked against `count` if given), then its entry and postings, from
/// one bind of its fields.
async fn insert_event(
    conn: &mut impl Connected,
    session_id: SessionId,
    e: &NewEvent<'_>,
    count: Option<usize>,
) -> Result<Option<EventId>, sqlx::Error> {
    let sql = match count {
        None => {
            "INSERT INTO events (session_id, seq, kind, body, explanation, recorded_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id"
        }
        Some(_) => {
            "INSERT INTO events (session_id, seq, kind, body, explanation, recorded_at) \
             SELECT $1, $2, $3, $4, $5, $6 \
             WHERE (SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = $7) = $8 RETURNING id"
        }
    };
    let event_id: Option<EventId> = on_either!(conn.either(), c => {
        let mut insert = sqlx::query_scalar(sql)
            .bind(session_id)
            .bind(e.seq)
            .bind(e.kind)
            .bind(e.body)
            .bind(e.explanation)
            .bind(rfc3339(e.recorded_at));
        if let Some(count) = count {
            insert = insert
                .bind(session_id)
                .bind(i64::try_from(count).unwrap_or(i64::MAX));
        }
        insert.fetch_optional(c).await?
    });
    if let Some(event_id) = event_id {
        append_entry_and_postings(conn, event_id, e).await?;
    }
    Ok(event_id)
}

async fn append_entry_and_postings(
    conn: &mut impl Connected,
    event_id: EventId,
    e: &NewEvent<'_>,
) -> Result<(), sqlx::Error> {
    // All postings in one statement: one round trip while the write lock is held.
    let mut sql = String::new();
    if !e.postings.is_empty() {
        sql.push_str("INSERT INTO postings (event_id, account, amount_cents) VALUES ");
        for i in 0..e.postings.len() {
            let n = 3 * i;
            let sep = if i == 0 { "" } else { ", " };
            let _ = write!(sql, "{sep}(${}, ${}, ${})", n + 1, n + 2, n + 3);
        }
    }
    on_either!(conn.either(), c => {
        sqlx::query("INSERT INTO ledger_entries (event_id, entry) VALUES ($1, $2)")
            .bind(event_id)
            .bind(e.entry)
            .execute(&mut *c)
            .await?;
        if !e.postings.is_empty() {
            let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
            for p in e.postings {
                insert = insert
                    .bind(event_id)
                    .bind(&p.account)
                    .bind(p.amount.cents());
            }
            insert.execute(&mut *c).await?;
        }
        Ok(())
    })
}

/// The seq of the event an idempotency key recorded in this session, if any.
pub async fn idempotent_seq(
    conn: &mut impl Connected,
    session_id: SessionId,
    key: &str,
) -> Result<Option<i64>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT seq FROM idempotency_keys WHERE session_id = $1 AND key = $2",
    )
    .bind(session_id)
    .bind(key)
    .fetch_optional(c)
    .await)
}

/// Remembers that `key` recorded event `seq`, in the same transaction as the event.
pub async fn remember_idempotency_key(
    conn: &mut impl Connected,
    session_id: SessionId,
    key: &str,
    seq: i64,
    created_at: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query(
        "INSERT INTO idempotency_keys (session_id, key, seq, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(session_id)
    .bind(key)
    .bind(seq)
    .bind(rfc3339(created_at))
    .execute(c)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Events in session `id`'s document (highest `seq`; the ante, seq 0, is not one); one
/// index read.
pub async fn event_count(conn: &mut impl Connected, id: SessionId) -> Result<usize, sqlx::Error> {
    let max: i64 = on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = $1",
    )
    .bind(id)
    .fetch_one(c)
    .await?);
    Ok(usize::try_from(max).unwrap_or_default())
}

/// `(seq, recorded_at)` of session `id`'s events from 0-based index `from` on.
pub async fn recorded_since(
    conn: &mut impl Connected,
    id: SessionId,
    from: usize,
) -> Result<Vec<(i64, DateTime<Utc>)>, sqlx::Error> {
    let seq = i64::try_from(from).unwrap_or(i64::MAX).saturating_add(1);
    let rows: Vec<(i64, StoredTime)> = on_either!(conn.either(), c => sqlx::query_as(
        "SELECT seq, recorded_at FROM events WHERE session_id = $1 AND seq >= $2 ORDER BY seq",
    )
    .bind(id)
    .bind(seq)
    .fetch_all(c)
    .await)?;
    Ok(rows.into_iter().map(|(seq, at)| (seq, at.0)).collect())
}

/// Session `id`'s ledger entries (JSON text) with `after < seq <= through`, streamed; `None`
/// for an event stored before entries were kept (migration 0011), to be folded instead.
pub fn ledger_entries<'c>(
    conn: &'c mut impl Connected,
    id: SessionId,
    after: Option<usize>,
    through: usize,
) -> Rows<'c, Option<String>> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT l.entry FROM events e LEFT JOIN ledger_entries l ON l.event_id = e.id \
         WHERE e.session_id = $1 AND e.seq > $2 AND e.seq <= $3 ORDER BY e.seq",
    )
    .bind(id)
    .bind(after.map_or(-1, |a| i64::try_from(a).unwrap_or(i64::MAX)))
    .bind(i64::try_from(through).unwrap_or(i64::MAX))
    .fetch(c))
}

/// A session's header, or `None`.
pub async fn session(
    conn: &mut impl Connected,
    id: SessionId,
) -> Result<Option<SessionRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT id, game, currency, agreements, opening_scores, created_at, club_id \
         FROM sessions WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(c)
    .await)
}

/// A session's players in seat order.
pub async fn players(conn: &mut impl Connected, id: SessionId) -> Result<Vec<String>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT player FROM seats WHERE session_id = $1 ORDER BY position",
    )
    .bind(id)
    .fetch_all(c)
    .await)
}

/// A session's event bodies (JSON text) in order, without the ante, streamed.
pub fn event_bodies<'c>(conn: &'c mut impl Connected, id: SessionId) -> Rows<'c, String> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT body FROM events WHERE session_id = $1 AND seq > 0 ORDER BY seq",
    )
    .bind(id)
    .fetch(c))
}

/// Session `id`'s event bodies with `after < seq <= through`, in order.
pub async fn event_bodies_between(
    conn: &mut impl Connected,
    id: SessionId,
    (after, through): (usize, usize),
) -> Result<Vec<String>, sqlx::Error> {
    let seq = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT body FROM events WHERE session_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq",
    )
    .bind(id)
    .bind(seq(after))
    .bind(seq(through))
    .fetch_all(c)
    .await)
}

/// A session's events in order, the opening ante (seq 0) included.
pub async fn events(
    conn: &mut impl Connected,
    id: SessionId,
) -> Result<Vec<EventRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT id, seq, kind, body, explanation, recorded_at FROM events \
         WHERE session_id = $1 ORDER BY seq",
    )
    .bind(id)
    .fetch_all(c)
    .await)
}

/// Every account's balance from the stored postings, in cents. The `SUM` is cast to BIGINT:
/// PostgreSQL answers NUMERIC.
pub async fn balances(
    conn: &mut impl Connected,
    id: SessionId,
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT p.account, CAST(SUM(p.amount_cents) AS BIGINT) FROM postings p \
         JOIN events e ON e.id = p.event_id \
         WHERE e.session_id = $1 GROUP BY p.account ORDER BY p.account",
    )
    .bind(id)
    .fetch_all(c)
    .await)
}
