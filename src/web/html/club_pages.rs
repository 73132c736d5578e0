//! Club pages: create, log in, share link, and the club's page. No sign-up: a club is a
//! name and a passphrase.

use std::collections::HashMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::{Form, Path, Query, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::http::header::HOST;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum_extra::extract::cookie::{Cookie, CookieJar};

use super::history_pages::member;
use super::{PageError, error_page};
use crate::error::AppError;
use crate::ids::{ClubId, PersonId, SessionId};
use crate::service::clubs::{Access, Club};
use crate::service::{self, clubs};
use crate::store::SessionSummaryRow;
use crate::web::AppState;
use crate::web::auth::{
    COOKIE, Client, LINK_COOKIE_PREFIX, Viewer, link_cookie, login_cookie, with_retry_after,
};

/// The club pages' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/clubs/new", get(new_club))
        .route("/clubs", post(create_club))
        .route("/clubs/{id}", get(show))
        .route("/login", get(login_form).post(log_in))
        .route("/logout", post(log_out))
        .route("/share/{token}", get(share))
        .route("/sessions/{id}/link/{secret}", get(open_session_link))
        .route("/sessions/{id}/links", get(session_links))
        .route("/clubs/{id}/settings", get(settings))
        .route("/clubs/{id}/passphrase", post(change_passphrase))
        .route("/clubs/{id}/share", post(new_share_link))
}

#[derive(Default, Template, WebTemplate)]
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
    NewClubPage::default()
}

/// The posted name and passphrase, blank when absent (the service names the field).
fn credentials(form: &HashMap<String, String>) -> (String, String) {
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    (field("name"), field("passphrase"))
}

async fn create_club(
    State(state): State<AppState>,
    Client(client): Client,
    jar: CookieJar,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let (name, passphrase) = credentials(&form);
    if form.get("again").is_some_and(|again| *again != passphrase) {
        let error = PageError {
            field: Some("again".into()),
            message: "the two passphrases differ".into(),
            rule: None,
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
    let created = clubs::create_club(&state.pool, &state.limiter, client, &name, &passphrase).await;
    let on_form = |e: &AppError| match e {
        AppError::BadRequest { .. } => Some(StatusCode::UNPROCESSABLE_ENTITY),
        AppError::TooManyRequests(_) => Some(e.status()),
        _ => None,
    };
    let response = logged_in(jar, created, on_form, |error| NewClubPage {
        name,
        error: Some(error),
    });
    with_retry_after(response, clubs::CREATION_RETRY_AFTER_SECS)
}

/// The answer to a login or creation form: the cookie and the club's page; a mendable
/// refusal (`on_form` its status) re-renders `form`; any other error its page.
fn logged_in<P: IntoResponse>(
    jar: CookieJar,
    result: Result<(Club, String), AppError>,
    on_form: impl Fn(&AppError) -> Option<StatusCode>,
    form: impl FnOnce(PageError) -> P,
) -> Response {
    match result {
        Ok((club, token)) => (
            jar.add(login_cookie(token)),
            Redirect::to(&format!("/clubs/{}", club.id)),
        )
            .into_response(),
        Err(e) => match on_form(&e) {
            Some(status) => (status, form(PageError::from(&e))).into_response(),
            None => error_page(e),
        },
    }
}

#[derive(Default, Template, WebTemplate)]
#[template(path = "clubs/login.html")]
struct LoginPage {
    name: String,
    error: Option<PageError>,
}

async fn login_form() -> LoginPage {
    LoginPage::default()
}

async fn log_in(
    State(state): State<AppState>,
    Client(client): Client,
    jar: CookieJar,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let (name, passphrase) = credentials(&form);
    let logged = clubs::log_in(&state.pool, &state.limiter, client, &name, &passphrase).await;
    let on_form = |e: &AppError| {
        matches!(e, AppError::Unauthorized(_) | AppError::TooManyRequests(_)).then(|| e.status())
    };
    let response = logged_in(jar, logged, on_form, |error| LoginPage {
        name,
        error: Some(error),
    });
    with_retry_after(response, clubs::RETRY_AFTER_SECS)
}

async fn log_out(State(state): State<AppState>, jar: CookieJar, viewer: Viewer) -> Response {
    // A share link's cookie is the club's share secret itself: this phone forgets it, but
    // it is never revoked here, or the whole table's link would stop working.
    let share_link = viewer.grant.is_some_and(|g| g.access == Access::Read);
    if let Some(token) = viewer.token.as_deref().filter(|_| !share_link)
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

/// The share link: read access for this browser, its secret as the cookie; writes nothing;
/// a write login is kept.
async fn share(
    State(state): State<AppState>,
    jar: CookieJar,
    viewer: Viewer,
    Path(token): Path<String>,
) -> Response {
    match clubs::open_share_link(&state.reader, &token).await {
        Ok(club) => {
            let member = viewer
                .grant
                .is_some_and(|g| g.club_id == club.id && g.access == Access::Write);
            let to = Redirect::to(&format!("/clubs/{}", club.id));
            if member {
                to.into_response()
            } else {
                (jar.add(login_cookie(token)), to).into_response()
            }
        }
        Err(e) => error_page(e),
    }
}

/// A club-less session's link: keeps its secret in a cookie and shows the sheet; writes
/// nothing, and a held write link survives opening the read one.
async fn open_session_link(
    State(state): State<AppState>,
    jar: CookieJar,
    Path((id, secret)): Path<(SessionId, String)>,
) -> Response {
    let opened = match clubs::link_access(&state.reader, id, &[secret.as_str()]).await {
        Ok(Some(Some(access))) => access,
        Ok(_) => {
            return error_page(AppError::NotFound(
                "this link does not open any session".into(),
            ));
        }
        Err(e) => return error_page(e),
    };
    let name = format!("{LINK_COOKIE_PREFIX}{id}");
    let held = match jar.get(&name) {
        Some(c) => clubs::link_access(&state.reader, id, &[c.value()])
            .await
            .ok()
            .flatten()
            .flatten(),
        None => None,
    };
    let to = Redirect::to(&format!("/sessions/{id}"));
    if opened == Access::Read && held == Some(Access::Write) {
        to.into_response()
    } else {
        (jar.add(link_cookie(id, secret)), to).into_response()
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "sessions/links.html")]
struct LinksPage {
    id: SessionId,
    write_link: Option<String>,
    read_link: String,
    read_qr: Option<String>,
}

/// A club-less session's links: both for the write holder, the read link for a reader.
async fn session_links(
    State(state): State<AppState>,
    jar: CookieJar,
    headers: HeaderMap,
    Path(id): Path<SessionId>,
) -> Response {
    let missing = || error_page(AppError::NotFound(format!("there is no session {id}")));
    let Some(secret) = jar
        .get(&format!("{LINK_COOKIE_PREFIX}{id}"))
        .map(|c| c.value().to_string())
    else {
        return missing();
    };
    let access = match clubs::link_access(&state.reader, id, &[secret.as_str()]).await {
        Ok(Some(Some(access))) => access,
        Ok(_) => return missing(),
        Err(e) => return error_page(e),
    };
    let base = base_url(&state, &headers);
    let (write_link, read_link) = if access == Access::Write {
        let links = clubs::SessionLinks::from_write(secret);
        (
            Some(format!("{base}{}", links.write_path(id))),
            format!("{base}{}", links.read_path(id)),
        )
    } else {
        (None, format!("{base}/sessions/{id}/link/{secret}"))
    };
    LinksPage {
        id,
        write_link,
        read_qr: qr_svg(&read_link),
        read_link,
    }
    .into_response()
}

/// The address phones open: `--public-url`, else the one this browser used.
fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    match &state.public_url {
        Some(url) => url.clone(),
        None => format!(
            "http://{}",
            headers
                .get(HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("127.0.0.1:3000")
        ),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "clubs/settings.html")]
struct SettingsPage {
    id: ClubId,
    name: String,
    notice: Option<String>,
    error: Option<PageError>,
}

impl SettingsPage {
    fn invalid(&self, field: &str) -> bool {
        self.error.as_ref().and_then(|e| e.field.as_deref()) == Some(field)
    }
}

/// The club for a settings page: passphrase members only (others see "not found").
async fn settings_club(
    state: &AppState,
    viewer: &Viewer,
    id: ClubId,
) -> Result<clubs::Club, AppError> {
    match viewer.grant {
        Some(g) if g.club_id == id && g.access == Access::Write => {
            clubs::club(&state.reader, id).await
        }
        Some(g) if g.club_id == id => Err(AppError::Forbidden(
            "log in with the club's passphrase to change its settings".into(),
        )),
        _ => Err(AppError::NotFound(format!("there is no club {id}"))),
    }
}

async fn settings(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<ClubId>,
) -> Response {
    match settings_club(&state, &viewer, id).await {
        Ok(club) => SettingsPage {
            id,
            name: club.name,
            notice: None,
            error: None,
        }
        .into_response(),
        Err(e) => error_page(e),
    }
}

/// Changes the passphrase; every other login ends, this browser gets a fresh one.
async fn change_passphrase(
    State(state): State<AppState>,
    Client(client): Client,
    viewer: Viewer,
    jar: CookieJar,
    Path(id): Path<ClubId>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let club = match settings_club(&state, &viewer, id).await {
        Ok(club) => club,
        Err(e) => return error_page(e),
    };
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    let (current, new) = (field("current"), field("passphrase"));
    let changed = if field("again") != new {
        Err(AppError::BadRequest {
            field: "again".into(),
            message: "the two new passphrases differ".into(),
        })
    } else {
        clubs::change_passphrase(&state.pool, &state.limiter, client, id, &current, &new).await
    };
    let response = match changed {
        Ok(token) => (
            jar.add(login_cookie(token)),
            SettingsPage {
                id,
                name: club.name,
                notice: Some("The passphrase is changed. Every other phone must log in again with the new one.".into()),
                error: None,
            },
        )
            .into_response(),
        Err(e @ (AppError::BadRequest { .. } | AppError::TooManyRequests(_))) => (
            match e {
                AppError::BadRequest { .. } => StatusCode::UNPROCESSABLE_ENTITY,
                _ => e.status(),
            },
            SettingsPage {
                id,
                name: club.name,
                notice: None,
                error: Some(PageError::from(&e)),
            },
        )
            .into_response(),
        Err(e) => error_page(e),
    };
    with_retry_after(response, clubs::RETRY_AFTER_SECS)
}

/// A new share link (after "Yes": the old one stops working), on the club's page.
async fn new_share_link(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<ClubId>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let club = match settings_club(&state, &viewer, id).await {
        Ok(club) => club,
        Err(e) => return error_page(e),
    };
    if form.get("confirm").map(String::as_str) != Some("yes") {
        let error = PageError {
            field: Some("confirm".into()),
            message: "choose Yes first: the old share link stops working for everyone who has it"
                .into(),
            rule: None,
        };
        return (
            StatusCode::UNPROCESSABLE_ENTITY,
            SettingsPage {
                id,
                name: club.name,
                notice: None,
                error: Some(error),
            },
        )
            .into_response();
    }
    match clubs::rotate_share_secret(&state.pool, id).await {
        Ok(_) => Redirect::to(&format!("/clubs/{id}")).into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "clubs/show.html")]
struct ClubPage {
    /// The club's id, for the history, download, restore and settings links.
    id: ClubId,
    name: String,
    share_link: Option<String>,
    /// The share link as a QR code, an inline SVG, for a phone's camera.
    share_qr: Option<String>,
    can_write: bool,
    /// Name shown, net money, its sign class, the person's id.
    players: Vec<(String, String, &'static str, PersonId)>,
    sessions: Vec<SessionSummaryRow>,
    /// The link to the next (older) page of sessions, when there is one.
    more: Option<String>,
}

/// The club's page, members only (others see "not found"); sessions by `?before=` pages.
async fn show(
    State(state): State<AppState>,
    viewer: Viewer,
    headers: HeaderMap,
    Path(id): Path<ClubId>,
    Query(query): Query<crate::web::Before>,
) -> Response {
    let page = async {
        let grant = member(&viewer, id, Access::Read)?;
        let club = clubs::club(&state.reader, id).await?;
        let can_write = grant.access == Access::Write;
        let base = base_url(&state, &headers);
        let share_link = can_write.then(|| format!("{base}/share/{}", club.share_token));
        // Older sessions' facts first, so the leaderboard below is whole.
        service::history::backfill(&state.pool, &state.folds, id).await?;
        let currency = service::history::club_currency(&state.reader, id).await?;
        let players = service::history::leaderboard(&state.reader, id)
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
                    super::history_pages::money_text(p.net_cents, &currency),
                    class,
                    p.person_id,
                )
            })
            .collect();
        let (sessions, more) = club_sessions(&state, id, query.before).await?;
        Ok::<_, AppError>(ClubPage {
            id,
            name: club.name,
            share_qr: share_link.as_deref().and_then(qr_svg),
            share_link,
            can_write,
            players,
            sessions,
            more,
        })
    };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

/// Club `id`'s sessions a page at a time, players under their current names, and the next
/// page's link.
async fn club_sessions(
    state: &AppState,
    id: ClubId,
    before: Option<SessionId>,
) -> Result<(Vec<SessionSummaryRow>, Option<String>), AppError> {
    let renamed = service::history::renamed_in_club(&state.reader, id).await?;
    let page = service::list(&state.reader, Some(id), before).await?;
    let more = page
        .next
        .map(|before| format!("/clubs/{id}?before={before}"));
    let sessions = page
        .sessions
        .into_iter()
        .map(|mut s| {
            s.players = s
                .names()
                .into_iter()
                .map(|n| renamed.get(n).map_or(n, String::as_str))
                .collect::<Vec<_>>()
                .join(&crate::store::PLAYER_SEPARATOR.to_string());
            s
        })
        .collect();
    Ok((sessions, more))
}

/// `text` as a 200 px SVG QR code; `None` if too long.
fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build(),
    )
}

/// A 404 to a phone without access to session `id` that says what would open it (club
/// login or link). The same whether the session is missing, a club's or linked, so it
/// tells a stranger nothing more.
pub fn session_not_open(id: SessionId, error: AppError) -> Response {
    if !matches!(error, AppError::NotFound(_)) {
        return error_page(error);
    }
    let page = super::ErrorPage {
        title: "Log in or open its link".into(),
        message: format!(
            "Session {id} is not open to this phone. A club's session needs the club's \
             login (or its share link); a session without a club opens with the link it \
             was shared with."
        ),
        login: true,
    };
    (StatusCode::NOT_FOUND, page).into_response()
}
