//! The `scorekeeper` binary: thin wiring of configuration, logging, the database and the
//! router, plus the `replay` subcommand.

use std::io::{Read, Write};
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
/// (exit 2) with nothing on stdout. A closed stdout (`replay FILE | head`) ends it quietly.
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
            let mut out = std::io::stdout().lock();
            match writeln!(out, "{json}").and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                // A reader that stopped early (`replay FILE | head`) is not a failure: it
                // has what it wanted.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("stdout: {e}");
                    ExitCode::from(2)
                }
            }
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
    let public_url = args
        .public_url
        .clone()
        .or_else(|| lan_url(listener.local_addr().ok()?));
    if let Some(url) = &public_url {
        tracing::info!("Phones at the table open {url}");
    }
    axum::serve(
        listener,
        app(AppState::new(pool).with_public_url(public_url)),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await?;
    Ok(())
}

/// Bound to every interface (`0.0.0.0`), the address phones on the same network open: this
/// machine's local-network address, found by asking the system which interface would route
/// to a documentation address (RFC 5737; a UDP `connect` sends nothing). `None` when bound
/// to one address (the browser's own address is used) or when no network is up.
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
        // Bound to every interface it names a real, non-loopback address when a network is
        // up, and nothing otherwise (a closed sandbox).
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
