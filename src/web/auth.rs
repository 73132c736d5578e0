//! Who is asking, and the protections every response carries: the login cookie or bearer
//! token, cross-site request forgery checks, and security headers.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts, Request};
use axum::http::header::{AUTHORIZATION, HOST, ORIGIN, RETRY_AFTER};
use axum::http::request::Parts;
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};

use super::AppState;
use crate::error::AppError;
use crate::ids::{ClubId, SessionId};
use crate::service::clubs::{self, ClientKey, Grant, TOKEN_DAYS};

/// The name of the login cookie.
pub const COOKIE: &str = "sk_session";

/// Whoever sent the request: the token presented (bearer, then cookie) and its grant.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    /// The presented token.
    pub token: Option<String>,
    /// What it grants; `None` for no token or an unknown or expired one.
    pub grant: Option<Grant>,
}

impl Viewer {
    /// The club the viewer belongs to, if any.
    pub fn club(&self) -> Option<ClubId> {
        self.grant.map(|g| g.club_id)
    }
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Viewer, AppError> {
        let bearer = parts
            .headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(|t| t.trim().to_string());
        let token = bearer.or_else(|| {
            CookieJar::from_headers(&parts.headers)
                .get(COOKIE)
                .map(|c| c.value().to_string())
        });
        let grant = match &token {
            Some(t) if !t.is_empty() => clubs::grant(&state.reader, t).await?,
            _ => None,
        };
        Ok(Viewer { token, grant })
    }
}

/// The client the login limits key on: its address from `ConnectInfo` (none in router
/// tests: one shared key). Forwarded-for headers are not trusted: the service is meant to
/// be reached directly on the table's network.
#[derive(Debug, Clone, Copy)]
pub struct Client(pub ClientKey);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        _state: &S,
    ) -> Result<Client, std::convert::Infallible> {
        let address = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(a)| a.ip());
        Ok(Client(ClientKey::of(address)))
    }
}

/// `response` with `Retry-After` when it is a 429.
pub fn with_retry_after(response: Response, retry_after_secs: u64) -> Response {
    let mut response = response;
    if response.status() == StatusCode::TOO_MANY_REQUESTS
        && let Ok(value) = HeaderValue::from_str(&retry_after_secs.to_string())
    {
        response.headers_mut().insert(RETRY_AFTER, value);
    }
    response
}

/// The login cookie: HttpOnly, SameSite=Lax, whole site, as long as the token.
pub fn login_cookie(token: String) -> Cookie<'static> {
    Cookie::build((COOKIE, token))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .max_age(time::Duration::days(TOKEN_DAYS))
        .build()
}

/// Prefix of session-link cookies: `sk_link_{id}` holds session `id`'s secret.
pub const LINK_COOKIE_PREFIX: &str = "sk_link_";

/// How long a session-link cookie lasts, in days (a session may be played for months).
pub const LINK_COOKIE_DAYS: i64 = 365;

/// The cookie keeping session `id`'s link `secret`: HttpOnly, SameSite=Lax, whole site, a year.
pub fn link_cookie(id: SessionId, secret: String) -> Cookie<'static> {
    Cookie::build((format!("{LINK_COOKIE_PREFIX}{id}"), secret))
        .http_only(true)
        .same_site(SameSite::Lax)
        .path("/")
        .max_age(time::Duration::days(LINK_COOKIE_DAYS))
        .build()
}

/// Hands the request's link secrets (bearer, `sk_link_*` cookies) to
/// [`clubs::with_presented_links`].
pub async fn present_links(request: Request, next: Next) -> Response {
    let mut secrets: Vec<String> = CookieJar::from_headers(request.headers())
        .iter()
        .filter(|c| c.name().starts_with(LINK_COOKIE_PREFIX))
        .map(|c| c.value().to_string())
        .collect();
    if let Some(bearer) = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        secrets.push(bearer.trim().to_string());
    }
    clubs::with_presented_links(secrets, next.run(request)).await
}

/// Refuses state-changing requests a browser marks cross-site (`Sec-Fetch-Site:
/// cross-site`, or a foreign `Origin`); clients sending neither pass, and SameSite=Lax is
/// the second line.
pub async fn refuse_cross_site(request: Request, next: Next) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if !safe {
        let headers = request.headers();
        let fetch_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
        let cross_fetch =
            matches!(fetch_site, Some(site) if site != "same-origin" && site != "none");
        let host = headers.get(HOST).and_then(|v| v.to_str().ok());
        let origin_host = headers
            .get(ORIGIN)
            .and_then(|v| v.to_str().ok())
            .map(|o| o.split_once("://").map_or(o, |(_, rest)| rest));
        let cross_origin = match (origin_host, host) {
            (Some("null"), _) => true,
            (Some(origin), Some(host)) => origin != host,
            _ => false,
        };
        if cross_fetch || cross_origin {
            return AppError::Forbidden(
                "a form from another site cannot change anything here".into(),
            )
            .into_response();
        }
    }
    next.run(request).await
}
