//! The `scorekeeper` binary: thin wiring of configuration, logging, the database and the
//! router, plus the `replay` subcommand.

use std::io::Read;
use std::process::ExitCode;

use clap::Parser;
use scorekeeper::config::{Cli, Command, ServeArgs};
use scorekeeper::format::{SessionDoc, replay};
use scorekeeper::rules::fields;
use scorekeeper::web::{AppState, app};
use serde_json::Value;

fn main() -> ExitCode {
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
        None => serve_command(cli.serve),
    }
}

/// Prints the ledger document, or one line naming the event, field and rule on stderr
/// (exit 2) with nothing on stdout.
fn replay_command(file: &str) -> ExitCode {
    let text = if file == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map(|_| text)
    } else {
        std::fs::read_to_string(file)
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(2);
        }
    };
    let doc = match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(o)) => fields::read::<SessionDoc>(&o).map_err(|e| e.to_string()),
        Ok(_) => Err("document: a session document is a JSON object".to_string()),
        Err(e) => Err(format!("document: not JSON: {e}")),
    };
    let result = doc.and_then(|doc| replay(&doc).map_err(|r| r.to_string()));
    match result.and_then(|ledger| serde_json::to_string_pretty(&ledger).map_err(|e| e.to_string()))
    {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(line) => {
            eprintln!("{}", line.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

fn serve_command(args: ServeArgs) -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "scorekeeper=info,warn".into()),
        )
        .init();
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

async fn serve(args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    let pool = scorekeeper::store::open(&args.database_url).await?;
    let listener = tokio::net::TcpListener::bind(&args.bind_addr).await?;
    tracing::info!(
        "Scorekeeper at http://{} (database {})",
        listener.local_addr()?,
        args.database_url
    );
    axum::serve(listener, app(AppState::new(pool)))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
