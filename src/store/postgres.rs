//! The PostgreSQL side of the store: `migrations/postgres/`, twins of the SQLite ones
//! (same versions and meaning), and the [`Engine`] a URL names (docs/postgres.md).

use sqlx::{Connection, PgConnection, PgPool};
use std::str::FromStr;

use sqlx::postgres::PgConnectOptions;

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
    /// The engine `url` names; `None` for any other scheme or a bare path (to be refused).
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

/// Connects to the existing database at `url` with at most `connections` connections and
/// migrates it; locks wait at most [`super::WRITE_WAIT`] (`lock_timeout`). Errors: the
/// server refuses or is unreachable; a migration fails (each is one transaction).
pub async fn open_postgres(url: &str, connections: u32) -> Result<PgPool, sqlx::Error> {
    // Then busy (503), as SQLite's busy timeout.
    let wait = format!("{}ms", super::WRITE_WAIT.as_millis());
    let options = PgConnectOptions::from_str(url)?
        .options([("lock_timeout", wait.as_str())])
        .application_name(&writer_name());
    let pool = super::pools::postgres_options(connections)
        .connect_with(options)
        .await?;
    PG_MIGRATOR.run(&pool).await?;
    Ok(pool)
}

/// The `application_name` of this pool's connections, unique to it: after the group
/// commit's one statement fails with its connection broken, the server showing no backend
/// of that name still running it tells that the statement's transaction has ended
/// ([`super::append::written`]); another instance's calls have other names. Read
/// connections are named [`READER_NAME`].
fn writer_name() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // Unique within this process still; two processes would share a name only by
        // having the same id, and then a failed group waits for both before reading back.
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        bytes = (u64::from(std::process::id()) << 32 | n).to_be_bytes();
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("scorekeeper-writer-{hex}")
}

/// The `application_name` of the read pool's connections.
pub const READER_NAME: &str = "scorekeeper-reader";

/// A fresh, empty database `name` beside `server`'s (dropped first: tests and benchmarks
/// only); its URL. Errors: `name` is not `[a-z_][a-z0-9_]*`; `server` names no database;
/// the server refuses.
pub async fn fresh_database(server: &str, name: &str) -> Result<String, sqlx::Error> {
    let url = database_beside(server, name).ok_or_else(|| {
        let what = format!("no database {name:?} beside {}", without_password(server));
        sqlx::Error::Configuration(what.into())
    })?;
    let mut admin = PgConnection::connect(server).await?;
    // `name` is checked plain, so each statement is never more than these words.
    for sql in [
        format!("DROP DATABASE IF EXISTS {name}"),
        format!("CREATE DATABASE {name}"),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut admin)
            .await?;
    }
    admin.close().await?;
    Ok(url)
}

/// `server`'s URL with its database replaced by `name`, options kept; `None` if either is
/// unfit.
fn database_beside(server: &str, name: &str) -> Option<String> {
    let plain = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    let (head, options) = server.split_once('?').unwrap_or((server, ""));
    let host = head.find("://")? + 3;
    let slash = host + head[host..].find('/')?;
    let query = if options.is_empty() {
        String::new()
    } else {
        format!("?{options}")
    };
    plain.then(|| format!("{}/{name}{query}", &head[..slash]))
}

/// A PostgreSQL error's SQLSTATE (`"23505"`); `None` for SQLite's.
pub fn sqlstate(e: &dyn sqlx::error::DatabaseError) -> Option<&str> {
    e.try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
        .map(sqlx::postgres::PgDatabaseError::code)
}

/// `url` without its password, for messages and logs.
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

#[cfg(test)]
mod tests {
    use super::database_beside;

    #[test]
    fn a_fresh_database_is_named_in_the_servers_url() {
        let beside = |server| database_beside(server, "sk_app3_42");
        assert_eq!(
            beside("postgres://postgres@127.0.0.1:55439/postgres").as_deref(),
            Some("postgres://postgres@127.0.0.1:55439/sk_app3_42")
        );
        assert_eq!(
            beside("postgresql://sk:pw@db/main?sslmode=require").as_deref(),
            Some("postgresql://sk:pw@db/sk_app3_42?sslmode=require")
        );
        assert_eq!(
            beside("postgres://postgres@127.0.0.1:55439"),
            None,
            "no path"
        );
        for name in ["Caps", "a-b", "x; DROP TABLE y", "1st", ""] {
            assert_eq!(database_beside("postgres://h/db", name), None, "{name:?}");
        }
    }
}
