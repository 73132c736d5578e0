//! Whole-database operations: health probe, checkpoint, `backup` (`VACUUM INTO`) and the
//! checks `restore` makes. On PostgreSQL, `backup`/`restore` refuse ([`PG_BACKUP`]).

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection};

use super::either::{Connected, on_either};
use super::{ReadPool, WritePool};

/// Whether the database answers a trivial query, on a reader (not behind writes).
pub async fn ping(pool: &ReadPool) -> Result<(), sqlx::Error> {
    let mut conn = pool.acquire().await?;
    on_either!(conn.either(), c => sqlx::query_scalar::<_, i32>("SELECT 1")
        .fetch_one(c)
        .await
        .map(|_| ()))
}

/// Free disk `/healthz` requires: a commit appends a few 4 KiB pages to the WAL.
pub const MIN_FREE_BYTES: u64 = 64 * 1024;

/// How long `/healthz` waits for the writer connection, and then for the write lock.
pub const PROBE_WAIT: Duration = Duration::from_millis(100);

/// How long the probe's write may take once the lock is held: longer, the disk is not
/// answering (a frozen or failing volume hangs every write).
pub const PROBE_WRITE_WAIT: Duration = Duration::from_secs(1);

// The busy timeouts as SQL text (a statement is static text): the probe's, then the writer's
// own again.
const PROBE_BUSY: &str = "PRAGMA busy_timeout = 100";
const WRITER_BUSY: &str = "PRAGMA busy_timeout = 5000";
const _: () = assert!(PROBE_WAIT.as_millis() == 100 && super::WRITE_WAIT.as_millis() == 5000);

/// Whether a write is possible now (`/healthz`): on the writer, `BEGIN IMMEDIATE` waiting at
/// most [`PROBE_WAIT`] for the lock, create a table (needs a new page, so `max_page_count`
/// shows) and roll back, all within [`PROBE_WRITE_WAIT`]; and at least [`MIN_FREE_BYTES`]
/// free on the file's disk. The writer lent to a write of this process for longer than
/// [`PROBE_WAIT`] is a write being made: `Ok`. Errors: the cause, in words for the log and
/// the answer.
pub async fn writable(pool: &WritePool) -> Result<(), String> {
    let pool = match (pool.sqlite(), pool.postgres_pool()) {
        (Some(pool), _) => pool,
        (None, Some(pg)) => return writable_postgres(pg).await,
        (None, None) => return Err("the writer has no database".into()),
    };
    let Ok(conn) = tokio::time::timeout(PROBE_WAIT, pool.acquire()).await else {
        // A write of this process holds the one writer: writes are being made.
        return Ok(());
    };
    let mut conn = conn.map_err(|e| format!("the writer connection: {e}"))?;
    let options = pool.connect_options();
    match tokio::time::timeout(PROBE_WRITE_WAIT, probe_write(&mut conn)).await {
        Ok(answer) => answer?,
        Err(_hung) => {
            // Stuck mid-statement, the connection is not lent again; an in-memory database
            // lives only in it, and cannot be on a frozen disk.
            if !super::is_in_memory(&options) {
                conn.close_on_drop();
            }
            return Err(format!(
                "a write did not finish within {PROBE_WRITE_WAIT:?}: the disk does not answer"
            ));
        }
    }
    if super::is_in_memory(&options) {
        return Ok(());
    }
    let file = Path::new(options.get_filename());
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let fs = rustix::fs::statvfs(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let free = fs.f_bavail.saturating_mul(fs.f_frsize);
    if free < MIN_FREE_BYTES {
        return Err(format!(
            "the disk of {} is full: {free} bytes free",
            dir.display()
        ));
    }
    Ok(())
}

/// The rolled-back write of [`writable`] on `conn`, the lock awaited for [`PROBE_WAIT`] only
/// (a write waits [`super::WRITE_WAIT`], then is refused busy: the probe answers first).
async fn probe_write(conn: &mut SqliteConnection) -> Result<(), String> {
    let words = |e: sqlx::Error| match &e {
        sqlx::Error::Database(d) if d.code().as_deref() == Some("5") => format!(
            "another connection holds the database's write lock, so writes are refused \
             busy: {e}"
        ),
        _ => e.to_string(),
    };
    sqlx::query(PROBE_BUSY)
        .execute(&mut *conn)
        .await
        .map_err(words)?;
    let probe = async {
        let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query("CREATE TABLE healthz_probe (x INTEGER)")
            .execute(&mut *tx)
            .await?;
        tx.rollback().await
    }
    .await;
    let restored = sqlx::query(WRITER_BUSY).execute(&mut *conn).await;
    probe.map_err(words)?;
    restored.map(|_| ()).map_err(words)
}

/// [`writable`] on PostgreSQL: a rolled-back write the server does not hold read-only,
/// with the writer's connection awaited and the answer bounded as on SQLite. A full disk
/// shows as `disk_full` on real writes.
async fn writable_postgres(pool: &sqlx::PgPool) -> Result<(), String> {
    let Ok(conn) = tokio::time::timeout(PROBE_WAIT, pool.acquire()).await else {
        // Every writer connection is lent to a write of this process: writes are being made.
        return Ok(());
    };
    let mut conn = conn.map_err(|e| format!("the writer connection: {e}"))?;
    let probe = async {
        let mut tx = conn.begin().await?;
        let read_only: bool = sqlx::query_scalar(
            "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on'",
        )
        .fetch_one(&mut *tx)
        .await?;
        tx.rollback().await?;
        Ok::<bool, sqlx::Error>(read_only)
    };
    match tokio::time::timeout(PROBE_WRITE_WAIT, probe).await {
        Ok(Ok(false)) => Ok(()),
        Ok(Ok(true)) => Err("the PostgreSQL server takes no writes (read-only)".into()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_hung) => Err(format!(
            "the PostgreSQL server did not answer within {PROBE_WRITE_WAIT:?}"
        )),
    }
}

/// `PRAGMA wal_checkpoint(TRUNCATE)`, so the database file alone is a complete copy;
/// `Ok(false)` when a reader kept it from finishing; `Ok(true)` on PostgreSQL.
pub async fn checkpoint(pool: &WritePool) -> Result<bool, sqlx::Error> {
    if pool.sqlite().is_none() {
        return Ok(true);
    }
    let (busy, _, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)")
        .fetch_one(pool)
        .await?;
    Ok(busy == 0)
}

/// A consistent copy into the new file `target` (`VACUUM INTO`, one read transaction, so
/// writers go on). Errors: `target` exists non-empty or cannot be written; PostgreSQL.
pub async fn backup_into(pool: &WritePool, target: &Path) -> Result<(), sqlx::Error> {
    if pool.sqlite().is_none() {
        return Err(sqlx::Error::Configuration(PG_BACKUP.into()));
    }
    let target = target.to_string_lossy().into_owned();
    sqlx::query("VACUUM INTO ?")
        .bind(target)
        .execute(pool)
        .await?;
    Ok(())
}

/// Why `backup`/`restore` refuse PostgreSQL: its own tools do it better (docs/postgres.md,
/// "Backups").
pub const PG_BACKUP: &str = "on PostgreSQL use the server's tools: pg_dump --format=custom --file=sk.dump \"$DATABASE_URL\" to back up, pg_restore --clean --if-exists --dbname=\"$DATABASE_URL\" sk.dump to restore (docs/postgres.md)";

/// Refuses a PostgreSQL `url` with [`PG_BACKUP`]; any other passes.
pub fn on_a_file(url: &str) -> Result<(), String> {
    match super::postgres::Engine::of(url) {
        Some(super::postgres::Engine::Postgres) => Err(PG_BACKUP.to_string()),
        _ => Ok(()),
    }
}

/// What `restore` found wrong with a file that should be a Scorekeeper backup.
#[derive(Debug, thiserror::Error)]
pub enum NotABackup {
    /// SQLite cannot open or read it.
    #[error("{0} is not a readable SQLite database: {1}")]
    Unreadable(String, sqlx::Error),
    /// It is SQLite but has no Scorekeeper migrations table.
    #[error("{0} is an SQLite database but not Scorekeeper's (no _sqlx_migrations table)")]
    NotScorekeeper(String),
    /// `PRAGMA integrity_check` did not answer `ok`.
    #[error("{0} fails SQLite's integrity check: {1}")]
    Damaged(String, String),
}

/// Checks, read-only, that `file` is a readable Scorekeeper database that passes
/// `PRAGMA integrity_check`.
pub async fn check_backup(file: &Path) -> Result<(), NotABackup> {
    let name = file.display().to_string();
    let unreadable = |e| NotABackup::Unreadable(name.clone(), e);
    let options = SqliteConnectOptions::new()
        .filename(file)
        .read_only(true)
        .create_if_missing(false);
    let mut conn = options.connect().await.map_err(unreadable)?;
    let migrations: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_one(&mut conn)
    .await
    .map_err(unreadable)?;
    if migrations == 0 {
        return Err(NotABackup::NotScorekeeper(name));
    }
    let applied: i64 =
        sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations WHERE success = 1")
            .fetch_one(&mut conn)
            .await
            .map_err(unreadable)?;
    if applied == 0 {
        return Err(NotABackup::NotScorekeeper(name));
    }
    let verdict: Vec<String> = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_all(&mut conn)
        .await
        .map_err(unreadable)?;
    let _ = conn.close().await;
    if verdict != ["ok"] {
        return Err(NotABackup::Damaged(name, verdict.join("; ")));
    }
    Ok(())
}

/// Copies backup `source` into the new file `target` (`VACUUM INTO`, compacted, no `-wal`).
pub async fn copy_database(source: &Path, target: &Path) -> Result<(), sqlx::Error> {
    let options = SqliteConnectOptions::new()
        .filename(source)
        .read_only(true)
        .create_if_missing(false);
    let mut conn = options.connect().await?;
    sqlx::query("VACUUM INTO ?")
        .bind(target.to_string_lossy().into_owned())
        .execute(&mut conn)
        .await?;
    conn.close().await
}
