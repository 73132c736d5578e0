//! The two ways into the database, as types the compiler tells apart: the [`WritePool`]
//! (one connection; every write, in arrival order) and the [`ReadPool`] (connections that
//! refuse writes — SQLite `PRAGMA query_only`, PostgreSQL `default_transaction_read_only` —
//! and in WAL mode never wait on the writer). What they lend ([`Pooled`], [`Tx`])
//! implements [`Connected`] for either engine.

use std::future::Future;
use std::ops::Deref;
use std::pin::Pin;

use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions, SqliteQueryResult, SqliteRow};
use sqlx::{Either, Execute, Executor, PgPool, Postgres, Sqlite, SqlitePool, Transaction};
use tokio_stream::Stream;

use super::either::{Conn, Connected};
use super::postgres::Engine;
use super::{READERS, WRITE_WAIT};

type BoxFuture<'e, T> = Pin<Box<dyn Future<Output = T> + Send + 'e>>;
type BoxStream<'e, T> = Pin<Box<dyn Stream<Item = T> + Send + 'e>>;

/// A pool of either engine.
#[derive(Clone, Debug)]
pub(super) enum Pool {
    /// SQLite's.
    Sqlite(SqlitePool),
    /// PostgreSQL's.
    Postgres(PgPool),
}

/// A connection lent by a pool of either engine, given back when dropped.
#[derive(Debug)]
pub enum Pooled {
    /// An SQLite connection.
    Sqlite(PoolConnection<Sqlite>),
    /// A PostgreSQL connection.
    Postgres(PoolConnection<Postgres>),
}

impl Connected for Pooled {
    fn either(&mut self) -> Conn<'_> {
        match self {
            Pooled::Sqlite(c) => Conn::Sqlite(c),
            Pooled::Postgres(c) => Conn::Postgres(c),
        }
    }
}

/// A write transaction of either engine; rolled back when dropped.
#[derive(Debug)]
pub enum Tx {
    /// SQLite `BEGIN IMMEDIATE` (holds the write lock).
    Sqlite(Transaction<'static, Sqlite>),
    /// PostgreSQL `BEGIN`; sessions serialise on advisory locks ([`super::append`]).
    Postgres(Transaction<'static, Postgres>),
}

impl Tx {
    /// Commits. Errors: the database's (nothing committed).
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(t) => t.commit().await,
            Tx::Postgres(t) => t.commit().await,
        }
    }

    /// Rolls the transaction back.
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(t) => t.rollback().await,
            Tx::Postgres(t) => t.rollback().await,
        }
    }
}

impl Connected for Tx {
    fn either(&mut self) -> Conn<'_> {
        match self {
            Tx::Sqlite(t) => Conn::Sqlite(t),
            Tx::Postgres(t) => Conn::Postgres(t),
        }
    }
}

/// How an instance's pools are sized: its read connections and how long an idle one is
/// kept (`--readers`, `--idle-timeout`; docs/postgres.md has the `max_connections` sum).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    /// Read connections at most (at least 1).
    pub readers: u32,
    /// How long an idle read connection is kept before it is closed.
    pub idle: std::time::Duration,
}

impl Default for PoolSettings {
    /// [`READERS`] readers, kept 10 minutes idle.
    fn default() -> PoolSettings {
        PoolSettings {
            readers: READERS,
            idle: std::time::Duration::from_secs(600),
        }
    }
}

/// A PostgreSQL connection idle this long is pinged before it is lent: one that sat through a
/// server restart is replaced unseen, while one in steady use costs no round trip (a
/// connection that breaks while in use is caught by its statement, a 503).
pub const PING_AFTER_IDLE: std::time::Duration = std::time::Duration::from_secs(30);

/// PostgreSQL pool options: `connections` at most, none kept open idle, no ping unless idle
/// past [`PING_AFTER_IDLE`].
pub(super) fn postgres_options(connections: u32) -> PgPoolOptions {
    PgPoolOptions::new()
        .max_connections(connections.max(1))
        .min_connections(0)
        .acquire_timeout(WRITE_WAIT)
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                if meta.idle_for >= PING_AFTER_IDLE {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        })
}

/// The read pool: up to [`PoolSettings::readers`] lazy connections that cannot write. A reader sees every
/// commit made before its read began (a page after a write's redirect shows it) and never
/// waits for a write in progress.
#[derive(Clone, Debug)]
pub struct ReadPool(Pool);

/// Tries of [`ReadPool::acquire`] at a connection the file refused.
pub const OPEN_TRIES: u32 = 5;

/// Pause between those tries.
pub const OPEN_PAUSE: std::time::Duration = std::time::Duration::from_millis(20);

fn cannot_open(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.code().as_deref() == Some("14"))
}

impl ReadPool {
    /// Read-only connections to the writer's file; in memory (tests, tools) the writer's pool
    /// itself, as the database lives only in its connection.
    pub(super) fn beside(writer: &SqlitePool, in_memory: bool, sizes: PoolSettings) -> ReadPool {
        if in_memory {
            return ReadPool(Pool::Sqlite(writer.clone()));
        }
        // `query_only`, not a read-only open: a read-only connection cannot open a WAL database
        // whose `-shm` file is gone (after the writer is replaced), and every read would fail.
        let options: SqliteConnectOptions = (*writer.connect_options())
            .clone()
            .pragma("query_only", "ON");
        ReadPool(Pool::Sqlite(
            SqlitePoolOptions::new()
                .max_connections(sizes.readers.max(1))
                .min_connections(0)
                // No ping before lending: a local file cannot hang up; a broken connection fails its statement.
                .test_before_acquire(false)
                .acquire_timeout(WRITE_WAIT)
                .idle_timeout(Some(sizes.idle))
                .connect_lazy_with(options),
        ))
    }

    /// The read pool beside a PostgreSQL writer: up to [`PoolSettings::readers`] read-only
    /// connections.
    pub(super) fn beside_postgres(options: &PgConnectOptions, sizes: PoolSettings) -> ReadPool {
        let options = options
            .clone()
            .options([("default_transaction_read_only", "on")])
            .application_name(super::postgres::READER_NAME);
        ReadPool(Pool::Postgres(
            postgres_options(sizes.readers)
                .idle_timeout(Some(sizes.idle))
                .connect_lazy_with(options),
        ))
    }

    /// The read pool through a transaction-pooling PgBouncer at `url` (`--read-url`): up to
    /// [`PoolSettings::readers`] connections, each lending one read-only transaction
    /// ([`super::pooler`]). Errors: `url` is unfit.
    pub(super) fn through_pooler(url: &str, sizes: PoolSettings) -> Result<ReadPool, sqlx::Error> {
        let options = super::pooler::reader_options(url)?;
        Ok(ReadPool(Pool::Postgres(
            super::pooler::reader_pool(sizes).connect_lazy_with(options),
        )))
    }

    /// A connection to read with; a new SQLite one that fails to open while the writer is being
    /// replaced is retried ([`OPEN_TRIES`], [`OPEN_PAUSE`]). Errors: pool timeout; the database's.
    pub fn acquire(&self) -> impl Future<Output = Result<Pooled, sqlx::Error>> + Send + 'static {
        let pool = self.0.clone();
        async move {
            let pool = match pool {
                Pool::Sqlite(pool) => pool,
                Pool::Postgres(pool) => return pool.acquire().await.map(Pooled::Postgres),
            };
            let mut tries = 1;
            loop {
                match pool.acquire().await {
                    Err(e) if tries < OPEN_TRIES && cannot_open(&e) => {
                        tries += 1;
                        tokio::time::sleep(OPEN_PAUSE).await;
                    }
                    answer => return answer.map(Pooled::Sqlite),
                }
            }
        }
    }

    /// Which engine the pool reads from.
    pub fn engine(&self) -> Engine {
        self.0.engine()
    }

    /// Closes the pool's connections (at shutdown).
    pub async fn close(&self) {
        self.0.close().await;
    }
}

impl Pool {
    fn engine(&self) -> Engine {
        match self {
            Pool::Sqlite(_) => Engine::Sqlite,
            Pool::Postgres(_) => Engine::Postgres,
        }
    }

    async fn close(&self) {
        match self {
            Pool::Sqlite(p) => p.close().await,
            Pool::Postgres(p) => p.close().await,
        }
    }
}

/// The writer: one connection for every write, queued in arrival order rather than spinning
/// in SQLite's busy handler. Derefs to its [`ReadPool`], never to the writer's connection.
#[derive(Clone, Debug)]
pub struct WritePool {
    pool: Pool,
    reads: ReadPool,
}

impl WritePool {
    /// The writer over `pool` (one connection) and its read pool.
    pub(super) fn new(pool: SqlitePool, in_memory: bool, sizes: PoolSettings) -> WritePool {
        let reads = ReadPool::beside(&pool, in_memory, sizes);
        WritePool {
            pool: Pool::Sqlite(pool),
            reads,
        }
    }

    /// The PostgreSQL writer over `pool` (one connection) and its read pool.
    pub(super) fn postgres(pool: PgPool, sizes: PoolSettings) -> WritePool {
        let reads = ReadPool::beside_postgres(&pool.connect_options(), sizes);
        WritePool {
            pool: Pool::Postgres(pool),
            reads,
        }
    }

    /// The PostgreSQL writer over `pool` (one connection) with its readers through the
    /// transaction pooler at `read_url` ([`ReadPool::through_pooler`]). Errors: `read_url`
    /// is unfit.
    pub(super) fn postgres_reading_through(
        pool: PgPool,
        read_url: &str,
        sizes: PoolSettings,
    ) -> Result<WritePool, sqlx::Error> {
        let reads = ReadPool::through_pooler(read_url, sizes)?;
        Ok(WritePool {
            pool: Pool::Postgres(pool),
            reads,
        })
    }

    /// The read pool beside this writer (the same one every time).
    pub fn reader(&self) -> &ReadPool {
        &self.reads
    }

    /// The writer's connection, for a write path that must see its own state.
    pub fn acquire(&self) -> impl Future<Output = Result<Pooled, sqlx::Error>> + Send + 'static {
        let pool = self.pool.clone();
        async move {
            match pool {
                Pool::Sqlite(p) => p.acquire().await.map(Pooled::Sqlite),
                Pool::Postgres(p) => p.acquire().await.map(Pooled::Postgres),
            }
        }
    }

    /// A write transaction: SQLite `BEGIN IMMEDIATE` (lock taken at once), PostgreSQL `BEGIN`.
    pub async fn begin_write(&self) -> Result<Tx, sqlx::Error> {
        match &self.pool {
            Pool::Sqlite(p) => p.begin_with("BEGIN IMMEDIATE").await.map(Tx::Sqlite),
            Pool::Postgres(p) => p.begin().await.map(Tx::Postgres),
        }
    }

    /// The `application_name` of the PostgreSQL writer's connections (unique to this
    /// pool); `None` on SQLite.
    pub fn writer_name(&self) -> Option<String> {
        match &self.pool {
            Pool::Postgres(p) => p
                .connect_options()
                .get_application_name()
                .map(str::to_owned),
            Pool::Sqlite(_) => None,
        }
    }

    /// Which engine the writer writes to.
    pub fn engine(&self) -> Engine {
        self.pool.engine()
    }

    /// The SQLite pool, for checkpoint and backup; `None` on PostgreSQL.
    pub fn sqlite(&self) -> Option<&SqlitePool> {
        match &self.pool {
            Pool::Sqlite(p) => Some(p),
            Pool::Postgres(_) => None,
        }
    }

    /// The underlying PostgreSQL pool; `None` on SQLite.
    pub fn postgres_pool(&self) -> Option<&PgPool> {
        match &self.pool {
            Pool::Postgres(p) => Some(p),
            Pool::Sqlite(_) => None,
        }
    }

    /// Whether `other` is a clone of this writer.
    pub fn same_database(&self, other: &WritePool) -> bool {
        match (&self.pool, &other.pool) {
            (Pool::Sqlite(a), Pool::Sqlite(b)) => {
                std::sync::Arc::ptr_eq(&a.connect_options(), &b.connect_options())
            }
            (Pool::Postgres(a), Pool::Postgres(b)) => {
                std::sync::Arc::ptr_eq(&a.connect_options(), &b.connect_options())
            }
            _ => false,
        }
    }

    /// Closes the readers, then the writer (so its last close checkpoints the whole log).
    pub async fn close(&self) {
        self.reads.close().await;
        self.pool.close().await;
    }
}

impl Deref for WritePool {
    type Target = ReadPool;

    fn deref(&self) -> &ReadPool {
        &self.reads
    }
}

fn not_sqlite() -> sqlx::Error {
    sqlx::Error::Configuration("an SQLite statement was sent to a PostgreSQL writer".into())
}

impl WritePool {
    /// `run` on the wrapped SQLite pool (cloned: the future outlives the borrow), or
    /// [`not_sqlite`].
    fn on_sqlite<'e, T: 'e>(
        &self,
        run: impl FnOnce(&SqlitePool) -> BoxFuture<'e, Result<T, sqlx::Error>>,
    ) -> BoxFuture<'e, Result<T, sqlx::Error>> {
        match self.sqlite() {
            Some(pool) => run(&pool.clone()),
            None => Box::pin(async { Err(not_sqlite()) }),
        }
    }
}

/// A statement run directly on an SQLite writer, for tools and tests; refused on PostgreSQL
/// (use [`WritePool::postgres_pool`]).
impl<'p> Executor<'p> for &'_ WritePool {
    type Database = Sqlite;

    fn fetch_many<'e, 'q: 'e, E>(
        self,
        query: E,
    ) -> BoxStream<'e, Result<Either<SqliteQueryResult, SqliteRow>, sqlx::Error>>
    where
        'p: 'e,
        E: 'q + Execute<'q, Sqlite>,
    {
        match self.sqlite() {
            Some(pool) => {
                let pool = pool.clone();
                (&pool).fetch_many(query)
            }
            None => Box::pin(tokio_stream::once(Err(not_sqlite()))),
        }
    }

    fn fetch_optional<'e, 'q: 'e, E>(
        self,
        query: E,
    ) -> BoxFuture<'e, Result<Option<SqliteRow>, sqlx::Error>>
    where
        'p: 'e,
        E: 'q + Execute<'q, Sqlite>,
    {
        self.on_sqlite(|pool| pool.fetch_optional(query))
    }

    fn prepare_with<'e>(
        self,
        sql: sqlx::SqlStr,
        parameters: &'e [sqlx::sqlite::SqliteTypeInfo],
    ) -> BoxFuture<'e, Result<sqlx::sqlite::SqliteStatement, sqlx::Error>>
    where
        'p: 'e,
    {
        self.on_sqlite(|pool| pool.prepare_with(sql, parameters))
    }

    fn describe<'e>(
        self,
        sql: sqlx::SqlStr,
    ) -> BoxFuture<'e, Result<sqlx::Describe<Sqlite>, sqlx::Error>>
    where
        'p: 'e,
    {
        self.on_sqlite(|pool| pool.describe(sql))
    }
}
