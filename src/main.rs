//! The `scorekeeper` binary: configuration, logging, database and router (`serve`), and the
//! `replay`, `backup`, `restore` and `copy` subcommands.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use clap::Parser;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use scorekeeper::config::{Cli, Command, ServeArgs};
use scorekeeper::format::{self, SessionDoc};
use scorekeeper::rules::fields;
use scorekeeper::service::Folds;
use scorekeeper::service::clubs::LoginLimits;
use scorekeeper::store::postgres::{Engine, without_password as shown};
use scorekeeper::web::live::{LiveLimits, Watchers, descriptors};
use scorekeeper::web::{AppState, app};
use serde_json::Value;
use tower::ServiceExt;

/// mimalloc for Rust allocations: per-thread pages without a lock, freed pages returned
/// (docs/architecture.md, "Memory").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    allocator_settings();
    // A missing .env is the normal case; a broken one should not stop `replay`.
    let _ = dotenvy::dotenv();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Replay { file }) => replay_command(&file),
        Some(Command::Games) => {
            for registration in scorekeeper::registry::GAMES {
                println!("{}", registration.game.id);
            }
            ExitCode::SUCCESS
        }
        Some(Command::Serve(args)) => serve_command(args),
        Some(Command::Backup { file, database_url }) => backup_command(&file, &database_url),
        Some(Command::Restore {
            file,
            database_url,
            force,
        }) => restore_command(&file, &database_url, force),
        Some(Command::Copy { from, to }) => scorekeeper::copy::command(&from, &to),
        None => serve_command(cli.serve),
    }
}

/// Allocator settings the server runs with, unless already set: `MALLOC_ARENA_MAX=1`
/// (glibc, used by SQLite: memory freed in one thread's arena is reused by the others) and
/// mimalloc's purge and eager-commit settings (freed pages go back at once).
const ALLOCATOR_SETTINGS: [(&str, &str); 3] = [
    ("MALLOC_ARENA_MAX", "1"),
    ("MIMALLOC_PURGE_DELAY", "0"),
    ("MIMALLOC_ARENA_EAGER_COMMIT", "0"),
];

/// On glibc, re-executes this process with the [`ALLOCATOR_SETTINGS`] not yet set (both
/// allocators read them before `main`); on failure goes on without them.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn allocator_settings() {
    use std::os::unix::process::CommandExt;
    let missing: Vec<(&str, &str)> = ALLOCATOR_SETTINGS
        .into_iter()
        .filter(|(name, _)| std::env::var_os(name).is_none())
        .collect();
    if missing.is_empty() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let _failed = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .envs(missing)
        .exec();
}

/// Elsewhere: nothing.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn allocator_settings() {}

/// Prints the ledger document of a session document: exit 0; 2 naming event, field and rule
/// when the rules refuse it; 1 naming the file when it is not JSON. A closed stdout is quiet.
fn replay_command(file: &str) -> ExitCode {
    let bytes = if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map(|_| bytes)
    } else {
        std::fs::read(file)
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{file}: cannot be read: {e}");
            return ExitCode::from(1);
        }
    };
    let doc = match serde_json::from_slice::<SessionDoc>(&bytes) {
        Ok(doc) => Ok(doc),
        Err(_) => match serde_json::from_slice::<Value>(&bytes) {
            Ok(Value::Object(o)) => fields::read::<SessionDoc>(&o).map_err(|e| e.to_string()),
            Ok(_) => Err("document: a session document is a JSON object".to_string()),
            Err(e) => {
                eprintln!("{file}: not JSON: {e}");
                return ExitCode::from(1);
            }
        },
    };
    drop(bytes);
    let result = doc.and_then(|doc| format::replay_json(&doc).map_err(|r| r.to_string()));
    match result {
        Ok(json) => write_ledger(json),
        Err(line) => {
            eprintln!("{}", line.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

/// Writes the ledger and a newline to stdout: 0, also if the reader stopped early; 1 on error.
fn write_ledger(json: Vec<u8>) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_all(&json)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stdout: {e}");
            ExitCode::from(1)
        }
    }
}

fn serve_command(args: ServeArgs) -> ExitCode {
    let checked = check_database_url(&args.database_url).and_then(|()| args.check_read_url());
    if let Err(line) = checked {
        eprintln!("scorekeeper: {line}");
        return ExitCode::FAILURE;
    }
    scorekeeper::telemetry::init(args.log_format);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("scorekeeper: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The store `args` name: the database and, on PostgreSQL, the readers' pooler if given.
async fn open_store(args: &ServeArgs) -> Result<scorekeeper::store::WritePool, String> {
    let read_url = args.read_url.as_deref();
    scorekeeper::store::open_reading_through(&args.database_url, read_url, args.pool_settings())
        .await
        .map_err(|e| {
            format!(
                "cannot open the database {}: {e}",
                shown(&args.database_url)
            )
        })
}

async fn serve(args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    let file = database_file(&args.database_url);
    if let Some(file) = &file {
        check_writable(file)?;
    }
    let url = shown(&args.database_url);
    let pool = open_store(&args).await?;
    // Held while serving: `restore` refuses to replace a database that a service uses.
    let _in_use = match &file {
        Some(file) => Some(lock_in_use(file)?),
        None => None,
    };
    let listener = tokio::net::TcpListener::bind(&args.bind_addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.bind_addr))?;
    tracing::info!(
        "Scorekeeper at http://{} (database {})",
        listener.local_addr()?,
        url
    );
    let public_url = args
        .public_url
        .clone()
        .or_else(|| lan_url(listener.local_addr().ok()?));
    if let Some(url) = &public_url {
        tracing::info!("Phones at the table open {url}");
    }
    let state = AppState {
        watchers: Watchers::new(LiveLimits {
            per_session: args.live_per_session,
            overall: live_overall(args.live_overall),
            idle: Duration::from_secs(args.live_idle_secs),
        }),
        limiter: Arc::new(LoginLimits::for_instances(
            args.login_budget,
            args.login_reserve,
            args.instances,
        )?),
        folds: Folds::new(usize::try_from(args.fold_cache).unwrap_or(usize::MAX)),
        ..AppState::new(pool.clone()).with_public_url(public_url)
    };
    if Engine::of(&args.database_url) == Some(Engine::Postgres) {
        // Live sheets of every instance on this database.
        state
            .watchers
            .relay_through(&args.database_url)
            .await
            .map_err(|e| format!("cannot listen for the other instances' changes: {e}"))?;
    }
    upkeep_in_background(&state);
    let watchers = state.watchers.clone();
    // Outermost, so that a request's logged latency includes the timeout's 408.
    let router = scorekeeper::web::with_request_timeout(
        app(state),
        Duration::from_secs(args.request_timeout_secs),
    )
    .layer(scorekeeper::telemetry::trace_layer());
    serve_until_stopped(
        listener,
        router,
        watchers,
        Duration::from_secs(args.header_timeout_secs),
        Duration::from_secs(args.shutdown_grace_secs),
    )
    .await;
    close_after_serving(&pool).await;
    Ok(())
}

/// The store's upkeep, in the background: the ledger entries of sessions stored before they
/// were kept appended once ([`scorekeeper::service::backfill_all_entries`]), logging what it
/// did, and every club's expired tokens swept hourly
/// ([`scorekeeper::service::clubs::sweep_expired_tokens`]).
fn upkeep_in_background(state: &AppState) {
    let (writer, folds) = (state.pool.clone(), state.folds.clone());
    tokio::spawn(scorekeeper::service::clubs::sweep_expired_tokens(
        writer.clone(),
    ));
    tokio::spawn(async move {
        match scorekeeper::service::backfill_all_entries(&writer, &folds).await {
            Ok((0, _)) => {}
            Ok((sessions, entries)) => tracing::info!(
                "ledger entries of {sessions} sessions stored before they were kept: {entries} appended"
            ),
            Err(e) => tracing::warn!("ledger entries not backfilled at start: {e}"),
        }
    });
}

/// The cap on live sheets in all: `configured`, held below the open-file limit once that is
/// raised as far as it goes, both logged ([`descriptors::live_cap`]).
fn live_overall(configured: usize) -> usize {
    let limit = descriptors::raise_limit();
    let cap = descriptors::live_cap(configured, limit);
    let shown = limit.map_or("unlimited".to_string(), |n| n.to_string());
    if cap < configured {
        tracing::warn!(
            "open files at most {shown}: live sheets at most {cap}, not LIVE_OVERALL's {configured}"
        );
    } else {
        tracing::info!("open files at most {shown}; live sheets at most {cap}");
    }
    cap
}

/// After serving: checkpoints the WAL so the file alone is a complete copy, then closes.
async fn close_after_serving(pool: &scorekeeper::store::WritePool) {
    match scorekeeper::store::ops::checkpoint(pool).await {
        Ok(true) => tracing::info!("stopped cleanly; the database file is complete"),
        Ok(false) => tracing::warn!("stopped; a reader kept the checkpoint from finishing"),
        Err(e) => tracing::warn!("stopped; the checkpoint failed: {e}"),
    }
    pool.close().await;
}

/// Serves until SIGTERM or Ctrl-C, then lets requests in flight finish (at most `grace`);
/// live sheets end at once. HTTP/1.1 with hyper's header-read timeout; the client address
/// reaches handlers as `ConnectInfo` (the login limits key on it).
async fn serve_until_stopped(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    watchers: Watchers,
    header_timeout: Duration,
    grace: Duration,
) {
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let mut stop = std::pin::pin!(stop_signal());
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and the like: pause rather than spin.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(remote));
            router.clone().oneshot(request.map(Body::new))
        });
        let connection = builder.serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("connection from {remote}: {e}");
            }
        });
    }
    drop(listener);
    tracing::info!("stopping: finishing the requests in flight");
    watchers.shut_down();
    if tokio::time::timeout(grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("stopping: connections still open after {grace:?} are closed");
    }
}

/// Resolves on SIGTERM (a supervisor's stop) or Ctrl-C.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Refuses a `DATABASE_URL` other than `sqlite:…` or `postgres(ql)://…` before touching the
/// disk (`mysql://host/db` would otherwise become a folder `mysql:`). Errors: one line,
/// password hidden.
fn check_database_url(url: &str) -> Result<(), String> {
    if Engine::of(url).is_some() {
        return Ok(());
    }
    let shown = match url.split_once("://") {
        Some((scheme, _)) if !scheme.is_empty() => format!("a {scheme}:// URL"),
        _ => format!("{url:?}"),
    };
    Err(format!(
        "DATABASE_URL (--database-url) is {shown}, which this service cannot use: give sqlite://PATH (e.g. sqlite://data/scorekeeper.db, the default) or postgres://USER@HOST/DATABASE"
    ))
}

/// The database file of a `sqlite://` URL; `None` for an in-memory database or a server's.
fn database_file(url: &str) -> Option<PathBuf> {
    if !url.starts_with("sqlite:") || url.contains(":memory:") || url.contains("mode=memory") {
        return None;
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    Some(PathBuf::from(path))
}

/// Refuses start-up when the database, or its `-wal`/`-shm` files, cannot be written.
fn check_writable(file: &Path) -> Result<(), String> {
    if file.exists()
        && let Err(e) = std::fs::OpenOptions::new().write(true).open(file)
    {
        return Err(format!(
            "the database file {} cannot be written ({e}); Scorekeeper records every hand there: make it writable (chmod u+w) or choose another with --database-url",
            file.display()
        ));
    }
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return Err(format!(
            "the database's folder {} cannot be created ({e}); choose another with --database-url",
            dir.display()
        ));
    }
    {
        let probe = dir.join(format!(".scorekeeper-write-probe-{}", std::process::id()));
        match std::fs::File::create(&probe) {
            Ok(_) => {
                let _ = std::fs::remove_file(&probe);
            }
            Err(e) => {
                return Err(format!(
                    "the database's folder {} cannot be written ({e}); SQLite keeps its journal beside the database file: make the folder writable or choose another with --database-url",
                    dir.display()
                ));
            }
        }
    }
    Ok(())
}

/// Takes the advisory lock marking the database in use (freed when the process ends).
fn lock_in_use(file: &Path) -> Result<std::fs::File, String> {
    let handle = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    match handle.try_lock_shared() {
        Ok(()) => Ok(handle),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "the database {} is being restored; try again when `scorekeeper restore` has finished",
            file.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("{}: {e}", file.display())),
    }
}

/// `backup`/`restore`'s common start: a SQLite URL and a runtime; `Err` is the exit code.
fn file_command_runtime(
    command: &str,
    database_url: &str,
) -> Result<tokio::runtime::Runtime, ExitCode> {
    if let Err(line) = check_database_url(database_url)
        .and_then(|()| scorekeeper::store::ops::on_a_file(database_url))
    {
        eprintln!("scorekeeper {command}: {line}");
        return Err(ExitCode::FAILURE);
    }
    tokio::runtime::Runtime::new().map_err(|e| {
        eprintln!("cannot start the runtime: {e}");
        ExitCode::FAILURE
    })
}

/// `backup`/`restore`'s end: the success line or the prefixed refusal, and the exit code.
fn file_command_done(command: &str, result: Result<String, String>) -> ExitCode {
    match result {
        Ok(done) => {
            println!("{done}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("scorekeeper {command}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn backup_command(file: &str, database_url: &str) -> ExitCode {
    let runtime = match file_command_runtime("backup", database_url) {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let target = PathBuf::from(file);
    if target.exists() {
        eprintln!("{file} exists; a backup is written to a new file");
        return ExitCode::FAILURE;
    }
    // Opening a database that is not there would create an empty one and back that up.
    if let Some(source) = database_file(database_url)
        && !source.is_file()
    {
        eprintln!(
            "scorekeeper backup: there is no database at {} (see --database-url)",
            source.display()
        );
        return ExitCode::FAILURE;
    }
    let result = runtime.block_on(async {
        let pool = scorekeeper::store::open(database_url)
            .await
            .map_err(|e| format!("cannot open the database {database_url}: {e}"))?;
        let copied = scorekeeper::store::ops::backup_into(&pool, &target)
            .await
            .map_err(|e| format!("cannot write {file}: {e}"));
        pool.close().await;
        copied
    });
    let done = result.map(|()| format!("backed up {database_url} to {file}"));
    file_command_done("backup", done)
}

fn restore_command(file: &str, database_url: &str, force: bool) -> ExitCode {
    let runtime = match file_command_runtime("restore", database_url) {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let result = runtime.block_on(restore(Path::new(file), database_url, force));
    let done = result.map(|target| format!("restored {file} into {}", target.display()));
    file_command_done("restore", done)
}

/// Checks the backup, then copies it beside the database and renames it over (atomic), and
/// removes the old `-wal` and `-shm`.
async fn restore(source: &Path, database_url: &str, force: bool) -> Result<PathBuf, String> {
    let target = database_file(database_url)
        .ok_or_else(|| "restore needs a database file, not an in-memory database".to_string())?;
    scorekeeper::store::ops::check_backup(source)
        .await
        .map_err(|e| e.to_string())?;
    // Held until the swap is done, so no service starts on the half-restored database.
    let _lock = if target.exists() {
        let handle =
            std::fs::File::open(&target).map_err(|e| format!("{}: {e}", target.display()))?;
        match handle.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(format!(
                    "the database {} is in use by a running scorekeeper; stop it first",
                    target.display()
                ));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(format!("{}: {e}", target.display()));
            }
        }
        if !force {
            return Err(format!(
                "{} exists; restoring replaces everything in it: add --force to go ahead",
                target.display()
            ));
        }
        Some(handle)
    } else {
        None
    };
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut staging = target.clone().into_os_string();
    staging.push(format!(".restoring-{}", std::process::id()));
    let staging = PathBuf::from(staging);
    let _ = std::fs::remove_file(&staging);
    scorekeeper::store::ops::copy_database(source, &staging)
        .await
        .map_err(|e| format!("cannot copy {}: {e}", source.display()))?;
    for suffix in ["-wal", "-shm"] {
        let mut side = target.clone().into_os_string();
        side.push(suffix);
        match std::fs::remove_file(PathBuf::from(side)) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("{}{suffix}: {e}", target.display())),
        }
    }
    std::fs::rename(&staging, &target).map_err(|e| format!("{}: {e}", target.display()))?;
    Ok(target)
}

/// The LAN address phones open when bound to `0.0.0.0` (the interface routing to an RFC 5737
/// address); `None` when bound to one address or offline.
fn lan_url(bound: std::net::SocketAddr) -> Option<String> {
    if !bound.ip().is_unspecified() {
        return None;
    }
    let probe = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    probe.connect("192.0.2.1:9").ok()?;
    let ip = probe.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then(|| format!("http://{ip}:{}", bound.port()))
}

#[cfg(test)]
mod tests {
    use super::lan_url;

    #[test]
    fn a_service_bound_to_one_address_keeps_the_browsers_address() {
        assert_eq!(lan_url("127.0.0.1:3000".parse().unwrap()), None);
        // Bound to every interface: a non-loopback address when a network is up.
        if let Some(url) = lan_url("0.0.0.0:3000".parse().unwrap()) {
            assert!(
                url.starts_with("http://") && url.ends_with(":3000"),
                "{url}"
            );
            assert!(
                !url.contains("127.0.0.1") && !url.contains("0.0.0.0"),
                "{url}"
            );
        }
    }
}
