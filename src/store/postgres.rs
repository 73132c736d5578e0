//! The PostgreSQL side of the store (issue 26), so far its schema: the migrations of
//! `migrations/postgres/`, the twins of `migrations/sqlite/` (same versions, same meaning:
//! append-only events, postings and ledger entries refused UPDATE, DELETE and TRUNCATE by
//! triggers; money in 64-bit integer cents; the history tables and the totals their
//! triggers keep), and the engine a URL names, which the store's dialect branches match on
//! ([`super::either::Conn::engine`]). The service does not run on PostgreSQL yet: start-up
//! refuses a `postgres://` URL (`check_database_url` in `main.rs`); README, "PostgreSQL",
//! says what is ported and what is left.

use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

/// The PostgreSQL migrations, embedded in the binary.
pub static PG_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// Which database engine a `DATABASE_URL` names, by its scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// `sqlite:` (`sqlite://path`, `sqlite:path`, `sqlite::memory:`): the embedded default.
    Sqlite,
    /// `postgres://` or `postgresql://`: a PostgreSQL 15 or newer server.
    Postgres,
}

impl Engine {
    /// The engine `url` names; `None` for any other scheme (or none: a bare path), which
    /// the service must refuse rather than read as a file name.
    pub fn of(url: &str) -> Option<Engine> {
        if url.starts_with("sqlite:") {
            Some(Engine::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Engine::Postgres)
        } else {
            None
        }
    }
}

/// Connects to the PostgreSQL database at `url` (`postgres://user@host:port/db`; the
/// database must exist) with at most `connections` connections and brings its schema up to
/// date with [`PG_MIGRATOR`]. Errors: the server cannot be reached or refuses the login, or
/// a migration fails (nothing of that migration stays: each runs in one transaction).
pub async fn open_postgres(url: &str, connections: u32) -> Result<PgPool, sqlx::Error> {
    let pool = PgPoolOptions::new()
        .max_connections(connections)
        .acquire_timeout(super::WRITE_WAIT)
        .connect(url)
        .await?;
    PG_MIGRATOR.run(&pool).await?;
    Ok(pool)
}
