//! The read pool through a transaction-pooling PgBouncer (`--read-url`, docs/postgres.md,
//! "Behind PgBouncer"). In transaction mode PgBouncer lends a server connection for one
//! transaction only, so nothing may rely on state outliving it ("Feature matrix for pooling
//! modes" in PgBouncer's documentation): the start-up `options` (refused by PgBouncer
//! 1.18), named prepared statements, and sqlx's way of sending a statement with parameters
//! (`Parse`, `Describe`, `Sync`, then `Bind`, `Execute`, `Sync`: two transactions to the
//! pooler when none is open, which may reach two server connections). So every lending of
//! a reader holds one transaction, `BEGIN READ ONLY` when lent (read-only per transaction,
//! as `default_transaction_read_only` is per connection on the direct path), rolled back
//! when given back and every statement it prepared deallocated in the same message (sqlx
//! still names them, `sqlx_s_N`, numbered per client connection, so another client's would
//! collide); and sqlx keeps no statement cache, which would name statements the next
//! server connection lacks.

use std::str::FromStr;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Executor, PgConnection};

use super::WRITE_WAIT;
use super::pools::PoolSettings;

/// What each lending of a pooled reader starts with: one read-only transaction, so the
/// pooler keeps one server connection under it, and the direct path's `lock_timeout`
/// for that transaction (the start-up `options` that set it there cannot pass PgBouncer).
fn begin_reading() -> String {
    format!(
        "BEGIN READ ONLY; SET LOCAL lock_timeout = '{}ms'",
        WRITE_WAIT.as_millis()
    )
}

/// What a pooled reader sends when given back: the transaction ended (read-only, so
/// nothing is lost), then its prepared statements deallocated, in one message so that the
/// pooler hands the server connection on clean. `ROLLBACK` first: it also ends a
/// transaction a failed statement aborted, in which `DEALLOCATE` would be refused.
const END_READING: &str = "ROLLBACK; DEALLOCATE ALL";

/// The connect options of a reader through the pooler at `url`: no start-up `options`,
/// no statement cache, named [`super::postgres::READER_NAME`]. Errors: `url` is unfit.
pub(super) fn reader_options(url: &str) -> Result<PgConnectOptions, sqlx::Error> {
    Ok(PgConnectOptions::from_str(url)?
        .statement_cache_capacity(0)
        .application_name(super::postgres::READER_NAME))
}

/// The pool options of readers through a transaction pooler: `sizes.readers` at most,
/// every lending one transaction ([`begin_reading`], [`END_READING`]): begun as a new
/// connection is first lent (sqlx runs `after_connect` then, not `before_acquire`) and as an
/// idle one is lent again. The `BEGIN` is the round trip that checks the connection, so
/// none is pinged besides.
pub(super) fn reader_pool(sizes: PoolSettings) -> PgPoolOptions {
    PgPoolOptions::new()
        .max_connections(sizes.readers.max(1))
        .min_connections(0)
        .acquire_timeout(WRITE_WAIT)
        .idle_timeout(Some(sizes.idle))
        .test_before_acquire(false)
        .after_connect(|conn, _| Box::pin(begin(conn)))
        .before_acquire(|conn, _| Box::pin(async move { begin(conn).await.map(|()| true) }))
        .after_release(|conn, _| Box::pin(async move { end(conn).await.map(|()| true) }))
}

async fn begin(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    conn.execute(sqlx::raw_sql(sqlx::AssertSqlSafe(begin_reading())))
        .await
        .map(drop)
}

async fn end(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    conn.execute(sqlx::raw_sql(END_READING)).await.map(drop)
}
