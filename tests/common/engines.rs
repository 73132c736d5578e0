//! The two database engines under test: a fresh PostgreSQL database per test on
//! the server `SCOREKEEPER_TEST_DATABASE_URL` names (`.ci/postgres start` prints one), and
//! the checks that both engines' migrations give the schema the same meaning.
//!
//! Without that variable a PostgreSQL test fails under CI (a green CI run means it ran)
//! and is skipped with a note elsewhere, as the browser tests do without Chromium.

use scorekeeper::store::postgres::open_postgres;
use sqlx::{PgPool, Row, SqlitePool};

/// The variable naming the PostgreSQL server the tests may create databases on, as a URL
/// of any database on it (`postgres://postgres@127.0.0.1:55432/postgres`).
pub const TEST_DATABASE_URL: &str = "SCOREKEEPER_TEST_DATABASE_URL";

/// The variable that runs the app tests on PostgreSQL: `SCOREKEEPER_TEST_ENGINE=postgres`
/// (with [`TEST_DATABASE_URL`] naming the server) makes every [`crate::common::TestApp`]
/// and [`fresh_pool`] a new database on that server instead of SQLite in memory.
pub const TEST_ENGINE: &str = "SCOREKEEPER_TEST_ENGINE";

/// Whether this run of the app tests is on PostgreSQL ([`TEST_ENGINE`] is `postgres`).
pub fn on_postgres() -> bool {
    std::env::var(TEST_ENGINE).is_ok_and(|e| e == "postgres")
}

/// The URL of a fresh database for one test: SQLite in memory, or on PostgreSQL
/// ([`on_postgres`]) a new database on the test server. Fails when PostgreSQL is asked
/// for and [`TEST_DATABASE_URL`] is unset: such a run must not pass on SQLite.
pub async fn test_database_url() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    if !on_postgres() {
        return "sqlite::memory:".to_string();
    }
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    assert!(
        std::env::var_os(TEST_DATABASE_URL).is_some(),
        "{TEST_ENGINE}=postgres needs {TEST_DATABASE_URL} (see .ci/postgres)"
    );
    postgres_database(&format!("app{n}"))
        .await
        .expect("a PostgreSQL test database")
}

/// A fresh, migrated store of the engine under test ([`test_database_url`]).
pub async fn fresh_pool() -> scorekeeper::store::WritePool {
    let url = test_database_url().await;
    scorekeeper::store::open(&url)
        .await
        .expect("a fresh database")
}

/// The one 64-bit integer that `sql` (no parameters; a count, a sum cast to BIGINT)
/// answers on `pool`'s database, whichever its engine.
pub async fn scalar(pool: &scorekeeper::store::WritePool, sql: &str) -> i64 {
    let sql = sqlx::AssertSqlSafe(sql.to_owned());
    match (pool.sqlite(), pool.postgres_pool()) {
        (Some(p), _) => sqlx::query_scalar(sql).fetch_one(p).await.unwrap(),
        (None, Some(p)) => sqlx::query_scalar(sql).fetch_one(p).await.unwrap(),
        (None, None) => unreachable!("a pool of neither engine"),
    }
}

/// The one text that `sql` (no parameters) answers on `pool`'s database, either engine.
pub async fn text(pool: &scorekeeper::store::WritePool, sql: &str) -> String {
    let sql = sqlx::AssertSqlSafe(sql.to_owned());
    match (pool.sqlite(), pool.postgres_pool()) {
        (Some(p), _) => sqlx::query_scalar(sql).fetch_one(p).await.unwrap(),
        (None, Some(p)) => sqlx::query_scalar(sql).fetch_one(p).await.unwrap(),
        (None, None) => unreachable!("a pool of neither engine"),
    }
}

/// Runs one statement (no parameters) on `pool`'s database, whichever its engine: the
/// rows it changed, or the database's refusal as text.
pub async fn exec(pool: &scorekeeper::store::WritePool, sql: &str) -> Result<u64, String> {
    let sql = sqlx::AssertSqlSafe(sql.to_owned());
    match (pool.sqlite(), pool.postgres_pool()) {
        (Some(p), _) => sqlx::query(sql).execute(p).await.map(|r| r.rows_affected()),
        (None, Some(p)) => sqlx::query(sql).execute(p).await.map(|r| r.rows_affected()),
        (None, None) => unreachable!("a pool of neither engine"),
    }
    .map_err(|e| e.to_string())
}

/// A new, empty PostgreSQL database named after `name` (and this process, so two runs of
/// the suite on one server do not meet), dropped first if a previous run left it; its URL.
/// `None` (test skipped, with a note) when [`TEST_DATABASE_URL`] is unset outside CI; a
/// panic under CI.
pub async fn postgres_database(name: &str) -> Option<String> {
    let Ok(server) = std::env::var(TEST_DATABASE_URL) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run the PostgreSQL tests: {TEST_DATABASE_URL} is unset (see .ci/run)"
        );
        eprintln!(
            "note: {TEST_DATABASE_URL} is unset; the PostgreSQL half of this test is skipped"
        );
        return None;
    };
    let database = format!("sk_{name}_{}", std::process::id());
    let url = scorekeeper::store::postgres::fresh_database(&server, &database)
        .await
        .expect("a database on the test PostgreSQL server");
    Some(url)
}

/// One migrated database of either engine, for SQL the two accept as the same text.
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Db {
    /// A fresh in-memory SQLite database with the embedded SQLite migrations run.
    pub async fn sqlite() -> Db {
        let pool = sqlx::sqlite::SqlitePoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        scorekeeper::store::MIGRATOR.run(&pool).await.unwrap();
        Db::Sqlite(pool)
    }

    /// The PostgreSQL database at `url`, migrated by the store's own start-up path.
    pub async fn postgres(url: &str) -> Db {
        Db::Postgres(open_postgres(url, 2).await.expect("PostgreSQL migrations"))
    }

    /// The engine's name, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Db::Sqlite(_) => "SQLite",
            Db::Postgres(_) => "PostgreSQL",
        }
    }

    /// Runs one statement: the rows it changed, or the database's refusal as text.
    pub async fn exec(&self, sql: &str) -> Result<u64, String> {
        let sql = sqlx::AssertSqlSafe(sql.to_owned());
        match self {
            Db::Sqlite(p) => sqlx::query(sql).execute(p).await.map(|r| r.rows_affected()),
            Db::Postgres(p) => sqlx::query(sql).execute(p).await.map(|r| r.rows_affected()),
        }
        .map_err(|e| e.to_string())
    }

    /// The first row of `sql`, every column a 64-bit integer.
    pub async fn ints(&self, sql: &str) -> Vec<i64> {
        let sql = sqlx::AssertSqlSafe(sql.to_owned());
        match self {
            Db::Sqlite(p) => {
                let row = sqlx::query(sql).fetch_one(p).await.unwrap();
                (0..row.len()).map(|i| row.get::<i64, _>(i)).collect()
            }
            Db::Postgres(p) => {
                let row = sqlx::query(sql).fetch_one(p).await.unwrap();
                (0..row.len()).map(|i| row.get::<i64, _>(i)).collect()
            }
        }
    }

    /// The first column of every row of `sql`, as text.
    async fn strings(&self, sql: &str) -> Vec<String> {
        let sql = sqlx::AssertSqlSafe(sql.to_owned());
        match self {
            Db::Sqlite(p) => sqlx::query_scalar(sql).fetch_all(p).await.unwrap(),
            Db::Postgres(p) => sqlx::query_scalar(sql).fetch_all(p).await.unwrap(),
        }
    }

    /// The application's tables, by name (the migrations' own bookkeeping left out).
    pub async fn tables(&self) -> Vec<String> {
        self.strings(match self {
            Db::Sqlite(_) => {
                "SELECT name FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations' ORDER BY name"
            }
            Db::Postgres(_) => {
                "SELECT table_name::TEXT FROM information_schema.tables \
                 WHERE table_schema = 'public' AND table_name <> '_sqlx_migrations' \
                 ORDER BY table_name"
            }
        })
        .await
    }

    /// `table`'s columns in order, each `name:TYPE` with the type as SQLite declares it
    /// (PostgreSQL's `bigint` is SQLite's 64-bit `INTEGER`, `text` its `TEXT`).
    pub async fn columns(&self, table: &str) -> Vec<String> {
        let sql = match self {
            Db::Sqlite(_) => {
                format!("SELECT name || ':' || type FROM pragma_table_info('{table}') ORDER BY cid")
            }
            Db::Postgres(_) => format!(
                "SELECT column_name || ':' || CASE data_type WHEN 'bigint' THEN 'INTEGER' \
                 WHEN 'text' THEN 'TEXT' ELSE data_type END FROM information_schema.columns \
                 WHERE table_schema = 'public' AND table_name = '{table}' \
                 ORDER BY ordinal_position"
            ),
        };
        self.strings(&sql).await
    }

    /// Runs `sql`, which must be refused with a message holding `why`.
    pub async fn refused(&self, sql: &str, why: &str) {
        match self.exec(sql).await {
            Ok(n) => panic!("{}: `{sql}` was accepted ({n} rows)", self.name()),
            Err(e) => assert!(e.contains(why), "{}: `{sql}` refused with {e}", self.name()),
        }
    }
}
