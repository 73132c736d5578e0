//! The service's own log: one line per answered request (method, path, status, latency) and
//! the start-up and stop lines, as text for a person or JSON for a log collector.
//!
//! What is never logged: request and response headers (cookies, `Authorization` tokens,
//! `Set-Cookie`), bodies (passphrases), query strings, and the secret part of a share link
//! (`/share/{token}`) or of a session link (`/sessions/{id}/link/{secret}`): whoever can
//! read a log file must not be able to open a club or a session with it.

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

/// The filter used when `RUST_LOG` is unset: the service's own lines at info (one per
/// request), everything else from warnings up.
pub const DEFAULT_FILTER: &str = "scorekeeper=info,warn";

/// Installs the process-wide log writer on standard output. Colour codes are written only
/// when standard output is a terminal, so a log file or a pipe gets plain text. Called once,
/// by `serve`; a second call (a test) leaves the first writer in place.
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

/// The tracing layer of `tower-http` that logs each answered request: a span `request`
/// with `method` and `path` (secrets cut out by [`loggable_path`], no query string) and
/// one line `answered` with `status` and `latency_ms` (milliseconds, to the microsecond).
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

/// A request path fit for a log: the segment after `share` (a club's share token) and
/// after `link` (a session's scorer or lookers' secret) is replaced by `…`, since either
/// opens the club or session to whoever holds it. Every other path is returned unchanged.
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
