//! Command line and environment: `scorekeeper [serve]`, `replay FILE`, `games`,
//! `backup FILE`, `restore FILE` and `copy --from … --to …`.

use clap::{Parser, Subcommand};

/// Keeps score and settles stakes for card games played with real cards.
#[derive(Debug, Parser)]
#[command(name = "scorekeeper", version, about)]
pub struct Cli {
    /// What to do; `serve` when left out.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of `serve`, also accepted without the subcommand.
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start the web service (the default).
    Serve(ServeArgs),
    /// Print the ledger document of a session document (FILE, or - for standard input).
    /// Exits 2 with one line on standard error naming the event, field and rule when the
    /// document is refused.
    Replay {
        /// The session document (`scorekeeper/session@1`), or `-` for standard input.
        file: String,
    },
    /// Print the id of every game the service keeps, one a line (for scripts such as CI).
    Games,
    /// Write a consistent copy of the database into the new file FILE (SQLite `VACUUM
    /// INTO`), safe while the service runs and writes.
    Backup {
        /// The backup file to create; it must not exist yet.
        file: String,
        /// The database to copy.
        #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
        database_url: String,
    },
    /// Replace the database with the backup FILE, after checking that FILE is a Scorekeeper
    /// database (its migrations table and SQLite's integrity check). Refuses while a
    /// `scorekeeper serve` uses the database, and asks for `--force` when it exists.
    Restore {
        /// The backup to restore (made by `scorekeeper backup`).
        file: String,
        /// The database to replace.
        #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL)]
        database_url: String,
        /// Replace a database that exists (it must not be in use).
        #[arg(long)]
        force: bool,
    },
    /// Copy a whole SQLite database into an empty PostgreSQL database, ids kept,
    /// in one transaction on the target, kept only when every table's rows count the same
    /// on both sides and every session's ledger equals replay of its export.
    Copy {
        /// The SQLite database to copy (`sqlite://PATH`); it must exist.
        #[arg(long)]
        from: String,
        /// The empty PostgreSQL database to fill (`postgres://USER@HOST/DATABASE`).
        #[arg(long)]
        to: String,
    },
}

/// Where the database is kept unless `--database-url` or `DATABASE_URL` says otherwise.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://data/scorekeeper.db";

/// Where the service listens and keeps its data.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// The database: a SQLite file (`sqlite://PATH`, made with its folder if missing) or an
    /// existing PostgreSQL 15+ database (`postgres://` or `postgresql://` URL).
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = DEFAULT_DATABASE_URL
    )]
    pub database_url: String,
    /// A PgBouncer in transaction mode in front of the PostgreSQL database (`postgres://`
    /// URL), for the read connections only; the writer, the migrations and the two
    /// connections that tell and hear the other instances' changes keep `--database-url`,
    /// which must reach the server directly (docs/postgres.md, "Behind PgBouncer").
    #[arg(long = "read-url", env = "DATABASE_READ_URL")]
    pub read_url: Option<String>,
    /// The address and port to listen on. `0.0.0.0:3000` lets the phones at the table reach
    /// the laptop over the local network.
    #[arg(long = "bind", env = "BIND_ADDR", default_value = "127.0.0.1:3000")]
    pub bind_addr: String,
    /// The address phones open, for share links and their QR code
    /// (`http://192.168.1.20:3000`). Default: bound to `0.0.0.0`, this machine's first
    /// local-network address; otherwise the address the browser used.
    #[arg(long = "public-url", env = "PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Seconds a client may take to send a request's headers, and the longest a kept-alive
    /// connection may sit idle between requests; then it is closed.
    #[arg(long = "header-timeout", env = "HEADER_TIMEOUT", default_value_t = 10)]
    pub header_timeout_secs: u64,
    /// Seconds a request may take, reading its body and answering, before it is answered
    /// 408; the live sheet's event stream is not cut by it (it answers at once).
    #[arg(
        long = "request-timeout",
        env = "REQUEST_TIMEOUT",
        default_value_t = 30
    )]
    pub request_timeout_secs: u64,
    /// Seconds a stop (SIGTERM or Ctrl-C) waits for requests in flight and open live sheets
    /// before closing them.
    #[arg(long = "shutdown-grace", env = "SHUTDOWN_GRACE", default_value_t = 10)]
    pub shutdown_grace_secs: u64,
    /// Live sheets (the sheet's event stream) open at once on one session; one more is
    /// answered 503 with `Retry-After`.
    #[arg(
        long = "live-per-session",
        env = "LIVE_PER_SESSION",
        default_value_t = 64
    )]
    pub live_per_session: usize,
    /// Live sheets open at once in all; one more is answered 503 with `Retry-After`. Each
    /// holds a connection (a file descriptor): at start the open-file limit is raised to
    /// its hard limit and this is held to that limit less 128 (or half of it, if more),
    /// so sheets never take the descriptors other requests need.
    #[arg(long = "live-overall", env = "LIVE_OVERALL", default_value_t = 1024)]
    pub live_overall: usize,
    /// Seconds a live sheet stays open without a change of its session; then it ends and
    /// the browser opens it again.
    #[arg(long = "live-idle", env = "LIVE_IDLE", default_value_t = 1800)]
    pub live_idle_secs: u64,
    /// Wrong passphrases a club may be sent per minute from every address together; past
    /// it a login is answered 429 without being checked, but from an address that logged
    /// in to the club before (docs/operations.md, "Live sheets, logins and imports").
    #[arg(long = "login-budget", env = "LOGIN_BUDGET", default_value_t = 10)]
    pub login_budget: u32,
    /// Wrong passphrases per minute per club kept for addresses that logged in to the club
    /// before, so their logins still get a check when the club's budget is spent.
    #[arg(long = "login-reserve", env = "LOGIN_RESERVE", default_value_t = 5)]
    pub login_reserve: u32,
    /// How many service processes share this database (several instances on one
    /// PostgreSQL database): each keeps its share of the login and creation
    /// limits, rounded down, so that together they keep the documented limits.
    #[arg(long, env = "INSTANCES", default_value_t = 1)]
    pub instances: u32,
    /// Read connections this instance opens at most (pages, exports, API reads); with the
    /// one writer and, on PostgreSQL, the two that hear and tell the other instances'
    /// changes, an instance holds `readers + 3` (docs/postgres.md).
    #[arg(long, env = "READERS", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub readers: u32,
    /// Seconds an idle read connection is kept before it is closed.
    #[arg(long = "idle-timeout", env = "IDLE_TIMEOUT", default_value_t = 600)]
    pub idle_timeout_secs: u64,
    /// Open sessions kept folded in memory, each under 1 MB however long (32 sessions of
    /// 10,000 hands hold about 25 MiB, docs/benchmark.md); one not kept is read and folded
    /// again from the database on its next request.
    #[arg(long = "fold-cache", env = "FOLD_CACHE", default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub fold_cache: u64,
    /// How log lines are written: `text` (coloured only on a terminal) or `json` (one
    /// object per line, for a log collector).
    #[arg(
        long = "log-format",
        env = "LOG_FORMAT",
        value_enum,
        default_value = "text"
    )]
    pub log_format: crate::telemetry::LogFormat,
}

impl ServeArgs {
    /// Refuses a `--read-url` that is not a PostgreSQL URL, or one given beside an SQLite
    /// database (its readers open the file itself): the line to print.
    pub fn check_read_url(&self) -> Result<(), String> {
        use crate::store::postgres::{Engine, without_password};
        match self.read_url.as_deref() {
            None => Ok(()),
            Some(read) if Engine::of(read) != Some(Engine::Postgres) => Err(format!(
                "DATABASE_READ_URL (--read-url) is {}, which this service cannot use: give the postgres://USER@HOST:PORT/DATABASE URL of a PgBouncer in transaction mode",
                without_password(read)
            )),
            Some(_) if Engine::of(&self.database_url) != Some(Engine::Postgres) => Err(
                "DATABASE_READ_URL (--read-url) is for a PostgreSQL database only; DATABASE_URL names SQLite".to_string(),
            ),
            Some(_) => Ok(()),
        }
    }

    /// The store's pool sizes these options ask for (`--readers`, `--idle-timeout`).
    pub fn pool_settings(&self) -> crate::store::PoolSettings {
        crate::store::PoolSettings {
            readers: self.readers,
            idle: std::time::Duration::from_secs(self.idle_timeout_secs),
        }
    }
}
