//! The two ways into the database, as two types the compiler tells apart: the
//! [`WritePool`] (one connection, every write, queued in arrival order) and the
//! [`ReadPool`] (read-only connections that, in WAL mode, read the last committed state
//! while the writer writes). A read handle cannot begin a write: its type has no `begin`,
//! and its connections refuse every write (SQLite's `PRAGMA query_only`, PostgreSQL's
//! `default_transaction_read_only`), so even a statement that tries to write through one is
//! refused by the database, and readers never wait on the writer.
//!
//! Each pool is of either engine ([`Pool`]); what they lend, a [`Pooled`]
//! connection or a [`Tx`] transaction, implements [`Connected`], so the store's functions
//! take either. On SQLite each is the SQLite pool, connection or transaction behind one
//! `match`.

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

/// A write transaction on the writer, of either engine: committed by [`Tx::commit`],
/// rolled back by [`Tx::rollback`] or when dropped.
#[derive(Debug)]
pub enum Tx {
    /// An SQLite transaction (`BEGIN IMMEDIATE`: it holds the write lock).
    Sqlite(Transaction<'static, Sqlite>),
    /// A PostgreSQL transaction (`BEGIN`; a session's writes are serialised by its
    /// advisory lock, which the group commit ([`super::append::lock_and_count`]) and every
    /// other write of the session ([`super::append::lock_sessions`]) take first).
    Postgres(Transaction<'static, Postgres>),
}

impl Tx {
    /// Commits the transaction. Errors: the database's (nothing of it was committed).
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

/// The read pool: up to [`READERS`] connections, opened lazily and writing nothing, to the
/// database the writer writes. It answers connections to read with ([`ReadPool::acquire`])
/// and nothing that begins a write. A request that only reads never waits for the writer:
/// in WAL mode (or PostgreSQL's snapshots) a reader sees every commit made before its read
/// began (so a page shown right after a write's redirect shows that write) and is never
/// blocked by a write in progress.
#[derive(Clone, Debug)]
pub struct ReadPool(Pool);

/// How many times [`ReadPool::acquire`] tries to open a connection the file refused.
pub const OPEN_TRIES: u32 = 5;

/// How long it waits between two tries.
pub const OPEN_PAUSE: std::time::Duration = std::time::Duration::from_millis(20);

/// Whether `e` is SQLite's "unable to open database file" (`SQLITE_CANTOPEN`, 14).
fn cannot_open(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.code().as_deref() == Some("14"))
}

impl ReadPool {
    /// The read pool beside a writer whose connections use `options`: read-only
    /// connections to the same file. An in-memory database exists only inside the
    /// writer's one connection, so there (tests and tools) the reader reads through the
    /// writer's pool itself, still without a way to begin a write from this type.
    pub(super) fn beside(writer: &SqlitePool, in_memory: bool) -> ReadPool {
        if in_memory {
            return ReadPool(Pool::Sqlite(writer.clone()));
        }
        // `query_only`, not a read-only open: SQLite refuses every write on the connection
        // all the same, while a connection opened read-only cannot open a WAL database
        // whose `-shm` file is gone (the writer, replaced after a failed write, was its
        // last connection), and every read would fail "unable to open database file".
        let options: SqliteConnectOptions = (*writer.connect_options())
            .clone()
            .pragma("query_only", "ON");
        ReadPool(Pool::Sqlite(
            SqlitePoolOptions::new()
                .max_connections(READERS)
                .min_connections(0)
                // sqlx pings an idle connection before lending it by default: one more
                // round trip to the connection's thread on every read, for a file that
                // cannot hang up like a network peer. A broken connection still fails its
                // statement, and the read is answered with that error.
                .test_before_acquire(false)
                .acquire_timeout(WRITE_WAIT)
                .idle_timeout(Some(std::time::Duration::from_secs(600)))
                .connect_lazy_with(options),
        ))
    }

    /// The read pool beside a PostgreSQL writer connected with `options`: up to
    /// [`READERS`] connections, opened lazily, on which every transaction is read-only
    /// (`default_transaction_read_only`), so PostgreSQL refuses any write through them.
    pub(super) fn beside_postgres(options: &PgConnectOptions) -> ReadPool {
        let options = options
            .clone()
            .options([("default_transaction_read_only", "on")]);
        ReadPool(Pool::Postgres(
            PgPoolOptions::new()
                .max_connections(READERS)
                .min_connections(0)
                .acquire_timeout(WRITE_WAIT)
                .idle_timeout(Some(std::time::Duration::from_secs(600)))
                .connect_lazy_with(options),
        ))
    }

    /// A connection to read with (writing nothing; returned to the pool when dropped).
    /// Opening a new SQLite one can fail for a moment while the writer's connection is
    /// being replaced after a failed write (SQLite's "unable to open database file" as the
    /// write-ahead log's files are let go and made again): it is tried again, up to
    /// [`OPEN_TRIES`] times, [`OPEN_PAUSE`] apart. Errors: every connection stayed taken for
    /// [`WRITE_WAIT`] ([`sqlx::Error::PoolTimedOut`]), or the database cannot be reached.
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

/// The writer: a pool of one connection made by [`super::open`], through which every
/// write goes, so that writes queue in this process in arrival order instead of spinning
/// in SQLite's busy handler (on PostgreSQL too: one connection per instance keeps an
/// instance's writes in the same order as on SQLite; another instance's writes are caught
/// by the event-count check and the sessions' advisory locks). It carries its
/// [`ReadPool`]; `&WritePool` coerces to `&ReadPool` (that read pool, never the writer's
/// connection), so a function that only reads takes `&ReadPool` and, handed the writer,
/// still reads beside it.
#[derive(Clone, Debug)]
pub struct WritePool {
    pool: Pool,
    reads: ReadPool,
}

impl WritePool {
    /// The writer over `pool` (one connection) and its read pool.
    pub(super) fn new(pool: SqlitePool, in_memory: bool) -> WritePool {
        let reads = ReadPool::beside(&pool, in_memory);
        WritePool {
            pool: Pool::Sqlite(pool),
            reads,
        }
    }

    /// The PostgreSQL writer over `pool` (one connection) and its read pool.
    pub(super) fn postgres(pool: PgPool) -> WritePool {
        let reads = ReadPool::beside_postgres(&pool.connect_options());
        WritePool {
            pool: Pool::Postgres(pool),
            reads,
        }
    }

    /// The read pool beside this writer (the same one every time).
    pub fn reader(&self) -> &ReadPool {
        &self.reads
    }

    /// The writer's one connection, for the statements of a write path that must see the
    /// writer's own state (waits behind the writes queued before it).
    pub fn acquire(&self) -> impl Future<Output = Result<Pooled, sqlx::Error>> + Send + 'static {
        let pool = self.pool.clone();
        async move {
            match pool {
                Pool::Sqlite(p) => p.acquire().await.map(Pooled::Sqlite),
                Pool::Postgres(p) => p.acquire().await.map(Pooled::Postgres),
            }
        }
    }

    /// A write transaction on the writer: SQLite's `BEGIN IMMEDIATE` (the write lock is
    /// taken at once, so the transaction never fails midway on it), PostgreSQL's `BEGIN`.
    pub async fn begin_write(&self) -> Result<Tx, sqlx::Error> {
        match &self.pool {
            Pool::Sqlite(p) => p.begin_with("BEGIN IMMEDIATE").await.map(Tx::Sqlite),
            Pool::Postgres(p) => p.begin().await.map(Tx::Postgres),
        }
    }

    /// Which engine the writer writes to.
    pub fn engine(&self) -> Engine {
        self.pool.engine()
    }

    /// The underlying SQLite pool of one connection, for whole-database operations
    /// (checkpoint, backup); `None` on PostgreSQL.
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

    /// Whether `other` is a clone of this writer (the same pool, so the same database).
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

    /// Closes the writer and its read pool (at shutdown; the readers first, so that the
    /// writer's last close can checkpoint the whole log).
    pub async fn close(&self) {
        self.reads.close().await;
        self.pool.close().await;
    }
}

impl Deref for WritePool {
    type Target = ReadPool;

    /// The read pool: what a read handed the writer reads through.
    fn deref(&self) -> &ReadPool {
        &self.reads
    }
}

/// The refusal of an SQLite statement sent to a PostgreSQL writer through [`Executor`].
fn not_sqlite() -> sqlx::Error {
    sqlx::Error::Configuration("an SQLite statement was sent to a PostgreSQL writer".into())
}

impl WritePool {
    /// `run` on the SQLite pool this writer wraps, or [`not_sqlite`] on PostgreSQL: how
    /// each answer-once method of the [`Executor`] below forwards. `run` gets the pool
    /// cloned (an `Arc`), since the future it answers outlives this borrow.
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

/// A statement run directly on an SQLite writer (`query(..).execute(&writer)`), as on the
/// `SqlitePool` it wraps: for tools and tests that write a row by hand. On a PostgreSQL
/// writer it is refused ([`sqlx::Error::Configuration`]): such a tool takes
/// [`WritePool::postgres_pool`].
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
