//! Command line and environment: `scorekeeper [serve]` and `scorekeeper replay FILE`.

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
}

/// Where the service listens and keeps its data.
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// The SQLite database; created with its folder if missing.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://data/scorekeeper.db"
    )]
    pub database_url: String,
    /// The address and port to listen on. `0.0.0.0:3000` lets the phones at the table reach
    /// the laptop over the local network.
    #[arg(long = "bind", env = "BIND_ADDR", default_value = "127.0.0.1:3000")]
    pub bind_addr: String,
    /// The address phones open, for share links and their QR code
    /// (`http://192.168.1.20:3000`). Default: bound to `0.0.0.0`, this machine's first
    /// local-network address; otherwise the address the browser used.
    #[arg(long = "public-url", env = "PUBLIC_URL")]
    pub public_url: Option<String>,
}
