//! The two ways into the database, as two types the compiler tells apart: the
//! [`WritePool`] (one connection, every write, queued in arrival order) and the
//! [`ReadPool`] (read-only connections that, in WAL mode, read the last committed state
//! while the writer writes). A read handle cannot begin a write: its type has no `begin`,
//! and its connections refuse every write (`PRAGMA query_only`), so even a statement that tries to write
//! through one is refused by SQLite (`SQLITE_READONLY`). Issue 21, "Readers never wait on
//! the writer".

use std::future::Future;
use std::ops::Deref;
use std::pin::Pin;

use sqlx::pool::PoolConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions, SqliteQueryResult, SqliteRow};
use sqlx::{Either, Execute, Executor, Sqlite, SqlitePool, Transaction};
use tokio_stream::Stream;

use super::{READERS, WRITE_WAIT};

type BoxFuture<'e, T> = Pin<Box<dyn Future<Output = T> + Send + 'e>>;
type BoxStream<'e, T> = Pin<Box<dyn Stream<Item = T> + Send + 'e>>;

/// The read pool: up to [`READERS`] connections, opened lazily and writing nothing, to the file
/// the writer writes. It answers connections to read with ([`ReadPool::acquire`]) and
/// nothing that begins a write. A request that only reads never waits for the writer: in
/// WAL mode a reader sees every commit made before its read began (so a page shown right
/// after a write's redirect shows that write) and is never blocked by a write in progress.
#[derive(Clone, Debug)]
pub struct ReadPool(SqlitePool);

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
            return ReadPool(writer.clone());
        }
        // `query_only`, not a read-only open: SQLite refuses every write on the connection
        // all the same, while a connection opened read-only cannot open a WAL database
        // whose `-shm` file is gone (the writer, replaced after a failed write, was its
        // last connection), and every read would fail "unable to open database file".
        let options: SqliteConnectOptions = (*writer.connect_options())
            .clone()
            .pragma("query_only", "ON");
        ReadPool(
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
        )
    }

    /// A connection to read with (writing nothing; returned to the pool when dropped).
    /// Opening a new one can fail for a moment while the writer's connection is being
    /// replaced after a failed write (SQLite's "unable to open database file" as the
    /// write-ahead log's files are let go and made again): it is tried again, up to
    /// [`OPEN_TRIES`] times, [`OPEN_PAUSE`] apart. Errors: every connection stayed taken for
    /// [`WRITE_WAIT`] ([`sqlx::Error::PoolTimedOut`]), or the file cannot be opened.
    pub fn acquire(
        &self,
    ) -> impl Future<Output = Result<PoolConnection<Sqlite>, sqlx::Error>> + Send + 'static {
        let pool = self.0.clone();
        async move {
            let mut tries = 1;
            loop {
                match pool.acquire().await {
                    Err(e) if tries < OPEN_TRIES && cannot_open(&e) => {
                        tries += 1;
                        tokio::time::sleep(OPEN_PAUSE).await;
                    }
                    answer => return answer,
                }
            }
        }
    }

    /// Closes the pool's connections (at shutdown).
    pub async fn close(&self) {
        self.0.close().await;
    }
}

/// The writer: a pool of one connection made by [`super::open`], through which every
/// write goes, so that writes queue in this process in arrival order instead of spinning
/// in SQLite's busy handler. It carries its [`ReadPool`]; `&WritePool` coerces to
/// `&ReadPool` (that read pool, never the writer's connection), so a function that only
/// reads takes `&ReadPool` and, handed the writer, still reads beside it.
#[derive(Clone, Debug)]
pub struct WritePool {
    pool: SqlitePool,
    reads: ReadPool,
}

impl WritePool {
    /// The writer over `pool` (one connection) and its read pool.
    pub(super) fn new(pool: SqlitePool, in_memory: bool) -> WritePool {
        let reads = ReadPool::beside(&pool, in_memory);
        WritePool { pool, reads }
    }

    /// The read pool beside this writer (the same one every time).
    pub fn reader(&self) -> &ReadPool {
        &self.reads
    }

    /// The writer's one connection, for the statements of a write path that must see the
    /// writer's own state (waits behind the writes queued before it).
    pub fn acquire(
        &self,
    ) -> impl Future<Output = Result<PoolConnection<Sqlite>, sqlx::Error>> + Send + 'static {
        self.pool.acquire()
    }

    /// A transaction on the writer begun with `statement` (`BEGIN IMMEDIATE` for a write:
    /// the write lock is taken at once, so the transaction never fails midway on it).
    pub async fn begin_with(
        &self,
        statement: &'static str,
    ) -> Result<Transaction<'static, Sqlite>, sqlx::Error> {
        self.pool.begin_with(statement).await
    }

    /// A deferred transaction on the writer.
    pub async fn begin(&self) -> Result<Transaction<'static, Sqlite>, sqlx::Error> {
        self.pool.begin().await
    }

    /// The underlying pool of one connection, for whole-database operations (checkpoint,
    /// backup) and for telling two writers of one database apart.
    pub fn sqlite(&self) -> &SqlitePool {
        &self.pool
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

/// A statement run directly on the writer (`query(..).execute(&writer)`), as on the
/// `SqlitePool` it wraps: for tools and tests that write a row by hand.
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
        let pool = self.pool.clone();
        (&pool).fetch_many(query)
    }

    fn fetch_optional<'e, 'q: 'e, E>(
        self,
        query: E,
    ) -> BoxFuture<'e, Result<Option<SqliteRow>, sqlx::Error>>
    where
        'p: 'e,
        E: 'q + Execute<'q, Sqlite>,
    {
        let pool = self.pool.clone();
        (&pool).fetch_optional(query)
    }

    fn prepare_with<'e>(
        self,
        sql: sqlx::SqlStr,
        parameters: &'e [sqlx::sqlite::SqliteTypeInfo],
    ) -> BoxFuture<'e, Result<sqlx::sqlite::SqliteStatement, sqlx::Error>>
    where
        'p: 'e,
    {
        let pool = self.pool.clone();
        (&pool).prepare_with(sql, parameters)
    }

    fn describe<'e>(
        self,
        sql: sqlx::SqlStr,
    ) -> BoxFuture<'e, Result<sqlx::Describe<Sqlite>, sqlx::Error>>
    where
        'p: 'e,
    {
        let pool = self.pool.clone();
        (&pool).describe(sql)
    }
}
