//! Club pages: create a club, log in with its passphrase, open its share link, and the
//! club's own page with its players and sessions. No sign-up: a club is a name and a
//! passphrase.

use std::collections::HashMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::{Form, Path, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::http::header::HOST;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum_extra::extract::cookie::{Cookie, CookieJar};

use super::{PageError, error_page};
use crate::error::AppError;
use crate::money::Money;
use crate::service::clubs::Access;
use crate::service::{self, clubs};
use crate::store::SessionSummaryRow;
use crate::web::AppState;
use crate::web::auth::{COOKIE, Viewer, login_cookie};

/// The club pages' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/clubs/new", get(new_club))
        .route("/clubs", post(create_club))
        .route("/clubs/{id}", get(show))
        .route("/login", get(login_form).post(log_in))
        .route("/logout", post(log_out))
        .route("/share/{token}", get(share))
}

#[derive(Template, WebTemplate)]
#[template(path = "clubs/new.html")]
struct NewClubPage {
    name: String,
    error: Option<PageError>,
}

impl NewClubPage {
    fn invalid(&self, field: &str) -> bool {
        self.error.as_ref().and_then(|e| e.field.as_deref()) == Some(field)
    }
}

async fn new_club() -> NewClubPage {
    NewClubPage {
        name: String::new(),
        error: None,
    }
}

async fn create_club(
    State(state): State<AppState>,
    jar: CookieJar,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let name = form.get("name").cloned().unwrap_or_default();
    let passphrase = form.get("passphrase").cloned().unwrap_or_default();
    if form.get("again").is_some_and(|again| *again != passphrase) {
        let error = PageError {
            field: Some("again".into()),
            message: "the two passphrases differ".into(),
        };
        return (
            StatusCode::UNPROCESSABLE_ENTITY,
            NewClubPage {
                name,
                error: Some(error),
            },
        )
            .into_response();
    }
    match clubs::create_club(&state.pool, &name, &passphrase).await {
        Ok((club, token)) => (
            jar.add(login_cookie(token)),
            Redirect::to(&format!("/clubs/{}", club.id)),
        )
            .into_response(),
        Err(e @ AppError::BadRequest { .. }) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            NewClubPage {
                name,
                error: Some(PageError::from(&e)),
            },
        )
            .into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "clubs/login.html")]
struct LoginPage {
    name: String,
    error: Option<PageError>,
}

async fn login_form() -> LoginPage {
    LoginPage {
        name: String::new(),
        error: None,
    }
}

async fn log_in(
    State(state): State<AppState>,
    jar: CookieJar,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let name = form.get("name").cloned().unwrap_or_default();
    let passphrase = form.get("passphrase").cloned().unwrap_or_default();
    match clubs::log_in(&state.pool, &state.limiter, &name, &passphrase).await {
        Ok((club, token)) => (
            jar.add(login_cookie(token)),
            Redirect::to(&format!("/clubs/{}", club.id)),
        )
            .into_response(),
        Err(e @ (AppError::Unauthorized(_) | AppError::TooManyRequests(_))) => (
            e.status(),
            LoginPage {
                name,
                error: Some(PageError::from(&e)),
            },
        )
            .into_response(),
        Err(e) => error_page(e),
    }
}

async fn log_out(State(state): State<AppState>, jar: CookieJar, viewer: Viewer) -> Response {
    if let Some(token) = &viewer.token
        && let Err(e) = clubs::log_out(&state.pool, token).await
    {
        return error_page(e);
    }
    (
        jar.remove(Cookie::build(COOKIE).path("/")),
        Redirect::to("/"),
    )
        .into_response()
}

/// Opening the share link logs this browser in to look only.
async fn share(
    State(state): State<AppState>,
    jar: CookieJar,
    Path(token): Path<String>,
) -> Response {
    match clubs::open_share_link(&state.pool, &token).await {
        Ok((club, read_token)) => (
            jar.add(login_cookie(read_token)),
            Redirect::to(&format!("/clubs/{}", club.id)),
        )
            .into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "clubs/show.html")]
struct ClubPage {
    /// The club's id, for the history, download and restore links.
    id: i64,
    name: String,
    share_link: Option<String>,
    /// The share link as a QR code, an inline SVG, for a phone's camera.
    share_qr: Option<String>,
    can_write: bool,
    /// Name shown, net money, its sign class, the person's id.
    players: Vec<(String, String, &'static str, i64)>,
    sessions: Vec<SessionSummaryRow>,
}

/// The club's page, for its members only (anyone else sees "not found").
async fn show(
    State(state): State<AppState>,
    viewer: Viewer,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Response {
    let page = async {
        let grant = viewer
            .grant
            .filter(|g| g.club_id == id)
            .ok_or_else(|| AppError::NotFound(format!("there is no club {id}")))?;
        let club = clubs::club(&state.pool, id).await?;
        let can_write = grant.access == Access::Write;
        let base = match &state.public_url {
            Some(url) => url.clone(),
            None => format!(
                "http://{}",
                headers
                    .get(HOST)
                    .and_then(|h| h.to_str().ok())
                    .unwrap_or("127.0.0.1:3000")
            ),
        };
        let share_link = can_write.then(|| format!("{base}/share/{}", club.share_token));
        // One line per person (a renamed or merged player under the name shown now), each
        // linking to the player's page.
        service::history::backfill(&state.pool, &state.folds, id).await?;
        let players = service::history::leaderboard(&state.pool, id)
            .await?
            .into_iter()
            .map(|p| {
                let class = match p.net_cents.signum() {
                    1 => "plus",
                    -1 => "minus",
                    _ => "",
                };
                (
                    p.name,
                    Money::from_cents(p.net_cents).to_string(),
                    class,
                    p.person_id,
                )
            })
            .collect();
        let sessions = service::list(&state.pool, Some(id))
            .await?
            .into_iter()
            .filter(|s| s.club_id == Some(id))
            .collect();
        Ok::<_, AppError>(ClubPage {
            id,
            name: club.name,
            share_qr: share_link.as_deref().and_then(qr_svg),
            share_link,
            can_write,
            players,
            sessions,
        })
    };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

/// `text` as a QR code in SVG (the `qrcode` crate), dark modules on white with a quiet zone,
/// 200 px; `None` if the text is too long for a QR code.
fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build(),
    )
}
