//! The PostgreSQL side of the store (issue 26), so far its schema: the migrations of
//! `migrations/postgres/`, the twins of `migrations/sqlite/` (same versions, same meaning:
//! append-only events, postings and ledger entries refused UPDATE, DELETE and TRUNCATE by
//! triggers; money in 64-bit integer cents; the history tables and the totals their
//! triggers keep), and the engine a URL names, which the store's dialect branches match on
//! ([`super::either::Conn::engine`]). [`super::open`] answers the service's pools on
//! PostgreSQL for a `postgres://` URL; README, "PostgreSQL", says what is left.

use sqlx::PgPool;
use std::str::FromStr;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};

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
/// date with [`PG_MIGRATOR`]; each connection waits for a lock at most
/// [`super::WRITE_WAIT`] (`lock_timeout`). Errors: the server cannot be reached or refuses the login, or
/// a migration fails (nothing of that migration stays: each runs in one transaction).
pub async fn open_postgres(url: &str, connections: u32) -> Result<PgPool, sqlx::Error> {
    // A write waits for another's lock (a row, a session's advisory lock, a table locked by
    // a tool) at most WRITE_WAIT, then fails as busy (503), as SQLite's busy timeout does.
    let wait = format!("{}ms", super::WRITE_WAIT.as_millis());
    let options = PgConnectOptions::from_str(url)?.options([("lock_timeout", wait.as_str())]);
    let pool = PgPoolOptions::new()
        .max_connections(connections)
        .acquire_timeout(super::WRITE_WAIT)
        .connect_with(options)
        .await?;
    PG_MIGRATOR.run(&pool).await?;
    Ok(pool)
}

/// The SQLSTATE of a PostgreSQL error (`"23505"`, `"55P03"`); `None` for another engine's,
/// whose codes are numbers of another meaning (SQLite's result codes).
pub fn sqlstate(e: &dyn sqlx::error::DatabaseError) -> Option<&str> {
    e.try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
        .map(sqlx::postgres::PgDatabaseError::code)
}

/// `url` with its password left out (`postgres://sk:secret@db/sk` → `postgres://sk@db/sk`),
/// for messages and logs; any other text as it is.
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    match rest.split_once('@') {
        Some((user, host)) => {
            let user = user.split_once(':').map_or(user, |(name, _)| name);
            format!("{scheme}://{user}@{host}")
        }
        None => url.to_string(),
    }
}
