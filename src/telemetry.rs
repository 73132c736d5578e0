//! The service's log: one line per answered request (method, path, status, latency) plus
//! start and stop, as text or JSON. Never logged: headers (cookies, tokens), bodies
//! (passphrases), query strings, and link secrets ([`loggable_path`]) — a log must not
//! open a club or session.

use std::borrow::Cow;
use std::time::Duration;

use axum::http::{Request, Response};
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::TraceLayer;
use tracing::Span;

/// How the log lines are written (`--log-format`, `LOG_FORMAT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// One readable line per event; coloured only when standard output is a terminal.
    #[default]
    Text,
    /// One JSON object per line (`timestamp`, `level`, `fields`, `target`, `span`), never
    /// coloured: for journald, Loki and the like.
    Json,
}

/// The filter when `RUST_LOG` is unset: our lines at info, the rest from warn.
pub const DEFAULT_FILTER: &str = "scorekeeper=info,warn";

/// Installs the log writer on stdout, coloured only on a terminal. A second call (tests)
/// keeps the first.
pub fn init(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| DEFAULT_FILTER.into());
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = match format {
        LogFormat::Text => builder
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
            .try_init(),
        LogFormat::Json => builder.json().with_ansi(false).try_init(),
    };
}

/// `tower-http`'s request logging: span `request` (`method`, [`loggable_path`]) and one
/// `answered` line (`status`, `latency_ms`).
#[allow(clippy::type_complexity)] // the layer's type is spelled out by tower-http
pub fn trace_layer() -> TraceLayer<
    SharedClassifier<ServerErrorsAsFailures>,
    impl Fn(&Request<axum::body::Body>) -> Span + Clone,
    (),
    impl Fn(&Response<axum::body::Body>, Duration, &Span) + Clone,
    (),
    (),
    (),
> {
    TraceLayer::new_for_http()
        .make_span_with(|request: &Request<axum::body::Body>| {
            tracing::info_span!(
                "request",
                method = %request.method(),
                path = %loggable_path(request.uri().path()),
            )
        })
        .on_request(())
        .on_response(
            |response: &Response<axum::body::Body>, latency: Duration, _span: &Span| {
                tracing::info!(
                    status = response.status().as_u16(),
                    latency_ms = latency.as_micros() as f64 / 1000.0,
                    "answered"
                );
            },
        )
        // The `answered` line already carries a 5xx status; a second line would repeat it.
        .on_failure(())
        .on_body_chunk(())
        .on_eos(())
}

/// A path fit for a log: the segment after `share` or `link` (a secret) becomes `…`.
pub fn loggable_path(path: &str) -> Cow<'_, str> {
    let segments: Vec<&str> = path.split('/').collect();
    let secret_at = |i: usize| i > 0 && matches!(segments[i - 1], "share" | "link");
    if !(0..segments.len()).any(|i| secret_at(i) && !segments[i].is_empty()) {
        return Cow::Borrowed(path);
    }
    let kept: Vec<&str> = (0..segments.len())
        .map(|i| {
            if secret_at(i) && !segments[i].is_empty() {
                "…"
            } else {
                segments[i]
            }
        })
        .collect();
    Cow::Owned(kept.join("/"))
}

#[cfg(test)]
mod tests {
    use super::loggable_path;

    #[test]
    fn share_and_session_link_secrets_are_cut_out_of_logged_paths() {
        assert_eq!(loggable_path("/share/Zq3xK9"), "/share/…");
        assert_eq!(
            loggable_path("/sessions/42/link/s3cr3t-token"),
            "/sessions/42/link/…"
        );
        // Paths without a secret are logged as they are, ids included.
        assert_eq!(loggable_path("/sessions/42/hands"), "/sessions/42/hands");
        assert_eq!(loggable_path("/clubs/7/share"), "/clubs/7/share");
        assert_eq!(loggable_path("/"), "/");
    }
}
