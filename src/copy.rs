//! `scorekeeper copy`: a whole SQLite database into an empty PostgreSQL one, in one target
//! transaction committed only if row counts, rebuilt club totals and every session's ledger
//! (against [`format::replay`] of its document read back) all match.

use std::process::ExitCode;
use std::str::FromStr;

use serde_json::Value;
use sqlx::postgres::PgPoolOptions;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::{PgConnection, PgPool, SqliteConnection, SqlitePool};
use tokio_stream::StreamExt;

use crate::format::{self, LedgerDoc, SESSION_FORMAT, SessionDoc};
use crate::ids::SessionId;
use crate::store::copy::{self as sql, DERIVED, TABLES};
use crate::store::postgres::{Engine, PG_MIGRATOR};
use crate::store::{self, Connected};

/// What a copy moved and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    /// Every copied table with its number of rows (equal on both sides), in copy order.
    pub tables: Vec<(&'static str, i64)>,
    /// How many sessions' ledgers were checked against replay of their export.
    pub sessions: usize,
    /// How many ledger entries (events, opening antes included) those ledgers hold.
    pub entries: usize,
}

impl Copied {
    /// The rows copied into `table` (0 for a table not copied).
    pub fn rows(&self, table: &str) -> i64 {
        self.tables
            .iter()
            .find(|(t, _)| *t == table)
            .map_or(0, |(_, n)| *n)
    }
}

/// The subcommand: [`copy`], then a summary on stdout (exit 0), or one line on stderr
/// (exit 1, nothing kept).
pub fn command(from: &str, to: &str) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(copy(from, to)) {
        Ok(copied) => {
            println!(
                "copied {} into {}: every table's rows counted equal on both sides; every \
                 session's ledger equals replay of its export ({} sessions, {} ledger entries)",
                shown(from),
                shown(to),
                copied.sessions,
                copied.entries
            );
            let rows: Vec<String> = copied
                .tables
                .iter()
                .map(|(t, n)| format!("{t} {n}"))
                .collect();
            println!("rows: {}", rows.join(", "));
            ExitCode::SUCCESS
        }
        Err(line) => {
            eprintln!("scorekeeper copy: {line}");
            ExitCode::FAILURE
        }
    }
}

/// Copies the SQLite database `from` (migrated first) into the existing PostgreSQL database
/// `to`, which must hold no Scorekeeper rows and no other tables, then checks it.
/// Errors: one line naming the URL or table at fault; nothing kept.
pub async fn copy(from: &str, to: &str) -> Result<Copied, String> {
    check_urls(from, to)?;
    let source = open_source(from).await?;
    let result = match open_target(to).await {
        Ok(target) => {
            let copied = copy_between(&source, &target, to).await;
            target.close().await;
            copied
        }
        Err(e) => Err(e),
    };
    source.close().await;
    result
}

/// The source: one migrated connection, a plain pool (a service may go on writing: WAL).
async fn open_source(from: &str) -> Result<SqlitePool, String> {
    let options = SqliteConnectOptions::from_str(from)
        .map_err(|e| format!("--from: {e}"))?
        .create_if_missing(false)
        .foreign_keys(true)
        .busy_timeout(store::WRITE_WAIT);
    let source = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .map_err(|e| format!("cannot open the database {}: {e}", shown(from)))?;
    if let Err(e) = store::MIGRATOR.run(&source).await {
        source.close().await;
        return Err(format!("cannot migrate {}: {e}", shown(from)));
    }
    Ok(source)
}

/// `--from` must name an SQLite file that exists, `--to` a PostgreSQL database.
fn check_urls(from: &str, to: &str) -> Result<(), String> {
    if Engine::of(from) != Some(Engine::Sqlite) {
        return Err(format!(
            "--from is {}, which is not an SQLite database: give sqlite://PATH",
            shown(from)
        ));
    }
    let options = SqliteConnectOptions::from_str(from).map_err(|e| format!("--from: {e}"))?;
    if store::is_in_memory(&options) {
        return Err("--from is an in-memory database, which holds nothing to copy".into());
    }
    let file = options.get_filename();
    if !file.is_file() {
        return Err(format!(
            "there is no database at {} (--from)",
            file.display()
        ));
    }
    if Engine::of(to) != Some(Engine::Postgres) {
        return Err(format!(
            "--to is {}, which is not a PostgreSQL database: give postgres://USER@HOST/DATABASE",
            shown(to)
        ));
    }
    Ok(())
}

/// Connects and migrates the target, which must hold no tables but Scorekeeper's.
async fn open_target(to: &str) -> Result<PgPool, String> {
    let target = PgPoolOptions::new()
        .max_connections(2)
        .acquire_timeout(store::WRITE_WAIT)
        .connect(to)
        .await
        .map_err(|e| format!("cannot connect to {}: {e}", shown(to)))?;
    let ours: Vec<&str> = TABLES
        .iter()
        .copied()
        .chain(DERIVED.iter().map(|(t, _)| *t))
        .chain(["_sqlx_migrations"])
        .collect();
    let other: Option<String> = sqlx::query_scalar(
        "SELECT table_name::TEXT FROM information_schema.tables \
         WHERE table_schema = current_schema() AND NOT (table_name = ANY($1)) \
         ORDER BY table_name LIMIT 1",
    )
    .bind(&ours)
    .fetch_optional(&target)
    .await
    .map_err(|e| format!("{}: {e}", shown(to)))?;
    if let Some(table) = other {
        target.close().await;
        return Err(format!(
            "{} is not empty: it holds the table {table}, which is not Scorekeeper's; copy into a new database (createdb)",
            shown(to)
        ));
    }
    PG_MIGRATOR
        .run(&target)
        .await
        .map_err(|e| format!("cannot migrate {}: {e}", shown(to)))?;
    Ok(target)
}

/// The copy and its checks in one target transaction, committed only when they hold.
async fn copy_between(source: &SqlitePool, target: &PgPool, to: &str) -> Result<Copied, String> {
    let fail = |e: sqlx::Error| e.to_string();
    // One read transaction: a consistent snapshot of the source.
    let mut snapshot = source.begin().await.map_err(fail)?;
    let mut tx = target.begin().await.map_err(fail)?;
    if let Some((table, n)) = sql::first_nonempty(&mut tx).await.map_err(fail)? {
        let rows = if n == 1 {
            "1 row".to_string()
        } else {
            format!("{n} rows")
        };
        return Err(format!(
            "{} is not empty: its table {table} holds {rows}; copy into a new database (createdb)",
            shown(to)
        ));
    }
    let tables = copy_tables(&mut snapshot, &mut tx).await?;
    for derived in DERIVED {
        let want = sql::derived_rows(&mut *snapshot, derived)
            .await
            .map_err(fail)?;
        let have = sql::derived_rows(&mut *tx, derived).await.map_err(fail)?;
        if want != have {
            return Err(format!(
                "{}: the totals rebuilt from the copied rows differ from the source's ({} rows against {}); nothing was kept",
                derived.0,
                have.len(),
                want.len()
            ));
        }
    }
    sql::advance_sequences(&mut tx).await.map_err(fail)?;
    let (sessions, entries) = check_ledgers(&mut *tx).await?;
    tx.commit().await.map_err(fail)?;
    Ok(Copied {
        tables,
        sessions,
        entries,
    })
}

/// Every table of [`TABLES`] copied, its rows counted on both sides and by the copy.
async fn copy_tables(
    from: &mut SqliteConnection,
    to: &mut PgConnection,
) -> Result<Vec<(&'static str, i64)>, String> {
    let mut tables = Vec::with_capacity(TABLES.len());
    for table in TABLES {
        let in_table = |e: sqlx::Error| format!("table {table}: {e}; nothing was kept");
        let copied = sql::copy_table(from, to, table).await.map_err(in_table)?;
        let source = sql::count(from, table, "TRUE").await.map_err(in_table)?;
        let target = sql::count(to, table, "TRUE").await.map_err(in_table)?;
        if u64::try_from(source).ok() != Some(copied) || source != target {
            return Err(format!(
                "table {table}: {source} rows in the source, {copied} copied, {target} in the target; nothing was kept"
            ));
        }
        tables.push((table, target));
    }
    Ok(tables)
}

/// Replays every session's stored document and compares its stored ledger: the session and
/// entry counts. Errors: the first refused document or differing ledger, with its seq.
pub async fn check_ledgers(conn: &mut impl Connected) -> Result<(usize, usize), String> {
    let fail = |e: sqlx::Error| e.to_string();
    let ids = sql::session_ids(conn).await.map_err(fail)?;
    let mut entries = 0;
    for &id in &ids {
        let doc = session_doc(conn, id).await?;
        let ledger = format::replay(&doc)
            .map_err(|r| format!("session {id} no longer replays: {r}; nothing was kept"))?;
        check_postings(conn, id, &ledger).await?;
        entries += check_entries(conn, id, &ledger).await?;
    }
    Ok((ids.len(), entries))
}

/// Session `id`'s document as stored (its export).
async fn session_doc(conn: &mut impl Connected, id: SessionId) -> Result<SessionDoc, String> {
    let fail = |e: sqlx::Error| e.to_string();
    let row = store::session(conn, id)
        .await
        .map_err(fail)?
        .ok_or_else(|| format!("session {id} vanished"))?;
    let parse = |text: &str| {
        serde_json::from_str::<Value>(text).map_err(|e| format!("session {id}: stored JSON: {e}"))
    };
    let Value::Object(agreements) = parse(&row.agreements)? else {
        return Err(format!("session {id}: its agreements are not an object"));
    };
    let opening_scores = row.opening_scores.as_deref().map(parse).transpose()?;
    let mut events = Vec::new();
    {
        let mut bodies = store::event_bodies(conn, id);
        while let Some(body) = bodies.next().await {
            events.push(parse(&body.map_err(fail)?)?);
        }
    }
    Ok(SessionDoc {
        format: SESSION_FORMAT.into(),
        game: row.game,
        currency: row.currency,
        agreements,
        players: store::players(conn, id).await.map_err(fail)?,
        opening_scores,
        events,
    })
}

/// The stored postings of session `id`, event by event, equal replay's.
async fn check_postings(
    conn: &mut impl Connected,
    id: SessionId,
    ledger: &LedgerDoc,
) -> Result<(), String> {
    let stored = sql::session_postings(conn, id)
        .await
        .map_err(|e| e.to_string())?;
    let mut replayed: Vec<(i64, String, i64)> = ledger
        .events
        .iter()
        .flat_map(|e| {
            let seq = i64::try_from(e.seq).unwrap_or(i64::MAX);
            e.postings
                .iter()
                .map(move |p| (seq, p.account.clone(), p.amount.cents()))
        })
        .collect();
    replayed.sort();
    if stored != replayed {
        let at = stored
            .iter()
            .zip(&replayed)
            .find(|(s, r)| s != r)
            .map_or_else(|| stored.len().min(replayed.len()), |(s, _)| s.0 as usize);
        return Err(format!(
            "session {id}: the stored postings differ from replay of its export (from seq {at}: {} stored, {} replayed); nothing was kept",
            stored.len(),
            replayed.len()
        ));
    }
    Ok(())
}

/// Session `id`'s stored entries equal replay's (an event before migration 0011 has none:
/// postings alone); their count.
async fn check_entries(
    conn: &mut impl Connected,
    id: SessionId,
    ledger: &LedgerDoc,
) -> Result<usize, String> {
    let mut stored = store::ledger_entries(conn, id, None, usize::MAX);
    let mut count = 0;
    while let Some(entry) = stored.next().await {
        let entry = entry.map_err(|e| e.to_string())?;
        let replayed = ledger.events.get(count).map(serde_json::to_value);
        let same = match (entry, replayed) {
            (None, Some(_)) => true,
            (Some(text), Some(Ok(want))) => serde_json::from_str::<Value>(&text).ok() == Some(want),
            _ => false,
        };
        if !same {
            return Err(format!(
                "session {id}: ledger entry {count} differs from replay of its export; nothing was kept"
            ));
        }
        count += 1;
    }
    if count != ledger.events.len() {
        return Err(format!(
            "session {id}: {count} events stored, {} in replay of its export; nothing was kept",
            ledger.events.len()
        ));
    }
    Ok(count)
}

/// `url` with its password, if any, written `***`: fit for a message or a log.
pub fn shown(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://")
        && let Some((user, host)) = rest.split_once('@')
        && let Some((name, _password)) = user.split_once(':')
    {
        return format!("{scheme}://{name}:***@{host}");
    }
    url.to_string()
}

#[cfg(test)]
mod tests {
    use super::{check_urls, shown};

    #[test]
    fn a_password_is_never_shown() {
        assert_eq!(
            shown("postgres://sk:hunter2@db.example:5432/sk"),
            "postgres://sk:***@db.example:5432/sk"
        );
        assert_eq!(shown("postgres://sk@db/sk"), "postgres://sk@db/sk");
        assert_eq!(shown("sqlite://data/sk.db"), "sqlite://data/sk.db");
    }

    #[test]
    fn the_urls_are_checked_before_anything_is_opened() {
        let to = "postgres://sk@127.0.0.1/sk";
        let e = check_urls("postgres://a@b/c", to).unwrap_err();
        assert!(
            e.starts_with("--from is postgres://a@b/c, which is not an SQLite"),
            "{e}"
        );
        let e = check_urls("sqlite::memory:", to).unwrap_err();
        assert!(e.contains("in-memory"), "{e}");
        let e = check_urls("sqlite:///nonexistent/sk.db", to).unwrap_err();
        assert_eq!(e, "there is no database at /nonexistent/sk.db (--from)");
        let file = std::env::temp_dir().join(format!("sk-copy-urls-{}.db", std::process::id()));
        std::fs::write(&file, b"").unwrap();
        let from = format!("sqlite://{}", file.display());
        let e = check_urls(&from, "mysql://x:secret@y/z").unwrap_err();
        assert_eq!(
            e,
            "--to is mysql://x:***@y/z, which is not a PostgreSQL database: give postgres://USER@HOST/DATABASE"
        );
        assert_eq!(check_urls(&from, to), Ok(()));
        let _ = std::fs::remove_file(&file);
    }
}
