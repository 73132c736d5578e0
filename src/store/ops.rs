//! Operations on the database file as a whole: the health probe, the checkpoint at a clean
//! stop, `backup` (SQLite's `VACUUM INTO`) and the checks `restore` makes on a backup. On
//! PostgreSQL the probe and the checkpoint have their own forms, and `backup`/`restore`
//! refuse with the `pg_dump` command to use instead ([`PG_BACKUP`]).

use std::path::Path;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

use super::either::{Connected, on_either};
use super::{ReadPool, WritePool};

/// Whether the database answers a trivial query (for `/healthz`), on a read connection:
/// the probe does not wait behind the writes in progress.
pub async fn ping(pool: &ReadPool) -> Result<(), sqlx::Error> {
    let mut conn = pool.acquire().await?;
    on_either!(conn.either(), c => sqlx::query_scalar::<_, i32>("SELECT 1")
        .fetch_one(c)
        .await
        .map(|_| ()))
}

/// The least room the database's disk must have for `/healthz` to answer that a write is
/// possible: one commit appends a few pages of 4 KiB to the write-ahead log.
pub const MIN_FREE_BYTES: u64 = 64 * 1024;

/// Whether a write is possible now (for `/healthz`): on the writer connection, a
/// `BEGIN IMMEDIATE` transaction (the write lock, and a connection sqlx does not count as
/// in a transaction already) that creates a table, which needs a new page of the database
/// (so a database at its `max_page_count` answers `SQLITE_FULL`), rolled back so nothing
/// stays; and, for a database file, at least [`MIN_FREE_BYTES`] free on its disk for this
/// user (`statvfs`), since a rolled-back write never reaches the disk. Errors, in words for
/// the log: the write lock stays taken past [`super::WRITE_WAIT`], the connection is
/// unusable, the database cannot grow, or the disk is (nearly) full.
pub async fn writable(pool: &WritePool) -> Result<(), String> {
    let pool = match (pool.sqlite(), pool.postgres_pool()) {
        (Some(pool), _) => pool,
        (None, Some(pg)) => return writable_postgres(pg).await,
        (None, None) => return Err("the writer has no database".into()),
    };
    let probe = async {
        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query("CREATE TABLE healthz_probe (x INTEGER)")
            .execute(&mut *tx)
            .await?;
        tx.rollback().await
    };
    probe.await.map_err(|e: sqlx::Error| e.to_string())?;
    let options = pool.connect_options();
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

/// [`writable`] on PostgreSQL, whose disk is the server's: the writer answers a write
/// transaction that the server does not hold read-only (a standby in recovery, or
/// `default_transaction_read_only`), rolled back. A full disk is the server's to report:
/// the write itself is refused with `disk_full` (503 as on SQLite).
async fn writable_postgres(pool: &sqlx::PgPool) -> Result<(), String> {
    let probe = async {
        let mut tx = pool.begin().await?;
        let read_only: bool = sqlx::query_scalar(
            "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on'",
        )
        .fetch_one(&mut *tx)
        .await?;
        tx.rollback().await?;
        Ok::<bool, sqlx::Error>(read_only)
    };
    match probe.await {
        Ok(false) => Ok(()),
        Ok(true) => Err("the PostgreSQL server takes no writes (read-only)".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// Moves every committed page from the `-wal` file into the database file and empties the
/// `-wal` file (`PRAGMA wal_checkpoint(TRUNCATE)`), so that a copy of the database file
/// alone is complete (on PostgreSQL nothing to do: `Ok(true)`). Errors: the database
/// cannot be reached; a checkpoint that another
/// connection's reader keeps from finishing answers `Ok(false)` (SQLite's `busy` column).
pub async fn checkpoint(pool: &WritePool) -> Result<bool, sqlx::Error> {
    if pool.sqlite().is_none() {
        // PostgreSQL's own checkpoints and log make its committed state durable.
        return Ok(true);
    }
    let (busy, _, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)")
        .fetch_one(pool)
        .await?;
    Ok(busy == 0)
}

/// Writes a consistent copy of the database into the new file `target` with `VACUUM INTO`:
/// it reads in one transaction, so writers may go on meanwhile and the copy holds exactly
/// the events committed when it began. Errors: `target` exists and is not empty, or cannot
/// be written; on PostgreSQL, always ([`PG_BACKUP`]: `pg_dump` is the tool there).
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

/// Why `backup` and `restore` refuse a PostgreSQL database, in one line: the server's own
/// `pg_dump` and `pg_restore` make a consistent copy while the service writes and restore
/// it, with the server's roles, permissions and point-in-time recovery, which a copy made
/// here would have to redo (docs/postgres.md, "Backups").
pub const PG_BACKUP: &str = "on PostgreSQL use the server's tools: pg_dump --format=custom --file=sk.dump \"$DATABASE_URL\" to back up, pg_restore --clean --if-exists --dbname=\"$DATABASE_URL\" sk.dump to restore (docs/postgres.md)";

/// Refuses `backup` and `restore` of a PostgreSQL database (`url`) with [`PG_BACKUP`], the
/// one line naming the commands to use instead; any other URL passes.
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

/// Checks, read-only, that `file` is a Scorekeeper database: SQLite can read it, it has
/// the migrations table with at least the first migration applied, and `PRAGMA
/// integrity_check` answers `ok`.
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

/// Copies the checked backup `source` into the new file `target` (`VACUUM INTO`, so the
/// copy is compacted and carries no `-wal`). Errors: `target` exists and is not empty.
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
