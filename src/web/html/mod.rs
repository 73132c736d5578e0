//! The HTML pages: the sessions list, the new-session form, the score sheet with the next
//! hand's form, and closing the sitting. Plain forms, no JavaScript needed; POSTs redirect
//! (303) on success and re-render with the submitted values and the field's error (422)
//! on refusal.

pub mod club_import;
pub mod club_pages;
pub mod history_pages;
pub mod icons;
mod meld;
pub mod night_pages;
pub mod offline;
pub mod preview;
pub mod sheet;
mod sheet_routes;

use std::collections::HashMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::{Form, Path, Query, RawForm, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum_extra::extract::cookie::CookieJar;
use serde_json::{Value, json};

use super::AppState;
use super::auth::Viewer;
use crate::error::AppError;
use crate::registry;
use crate::rules::game::agreements_from_form;
use crate::rules::{AgreementSpec, GameInfo};
use crate::service::clubs::{self, Access};
use crate::service::{self, Loaded, NewSessionInput};
use crate::store::SessionSummaryRow;

/// The pages' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(list))
        .route("/sessions/new", get(new_form))
        .route("/sessions", post(create))
        .route("/sessions/{id}", get(sheet_routes::sheet))
        .route("/sessions/{id}/why", get(sheet_routes::why))
        .route("/sessions/{id}/hands", post(enter_hand))
        .route(
            "/sessions/{id}/preview",
            post(preview::preview).layer(axum::extract::DefaultBodyLimit::max(
                preview::PREVIEW_BODY_LIMIT,
            )),
        )
        .route("/sessions/{id}/close", post(close))
        .route("/sessions/{id}/undo", post(undo))
        .route("/sessions/{id}/payments", post(mark_paid))
        .route("/sessions/{id}/payments/void", post(void_payment))
        .route("/sessions/{id}/reopen", post(reopen))
        .route("/sessions/{id}/table", post(table_change))
        .route("/sessions/{id}/live", get(sheet_routes::live))
        .route("/static/style.css", get(style))
        .route("/static/live.js", get(live_script))
        .route("/static/copy.js", get(copy_script))
        .route("/static/preview.js", get(preview::script))
        .merge(club_pages::routes())
        .merge(history_pages::routes())
        .merge(night_pages::routes())
        .merge(club_import::routes())
        .merge(icons::routes())
        .merge(meld::routes())
        .merge(offline::routes())
}

async fn copy_script() -> impl IntoResponse {
    (
        [
            ("content-type", "text/javascript; charset=utf-8"),
            ("cache-control", "public, max-age=300"),
        ],
        include_str!("../../../templates/copy.js"),
    )
}

async fn live_script() -> impl IntoResponse {
    (
        [
            ("content-type", "text/javascript; charset=utf-8"),
            ("cache-control", "public, max-age=300"),
        ],
        include_str!("../../../templates/live.js"),
    )
}

async fn style() -> impl IntoResponse {
    (
        [
            ("content-type", "text/css; charset=utf-8"),
            ("cache-control", "public, max-age=300"),
        ],
        include_str!("../../../templates/style.css"),
    )
}

/// A refusal shown on a page: the field, the message in player words, and the rule that
/// refuses it, for the message's details.
pub struct PageError {
    /// The field at fault, if any.
    pub field: Option<String>,
    /// The message a person reads: the thing on the form and what is wrong, without field
    /// paths, event numbers or the rule's citation.
    pub message: String,
    /// The rule that refuses it (`"rules §1.1"`), shown in a small details under the
    /// message; `None` when none is cited.
    pub rule: Option<String>,
}

impl From<&AppError> for PageError {
    /// A refusal reads in the form's words: "Bidder: Zed is not seated at this table", not
    /// "event 5: replacement.bidder: … (rules §1.1)" (the event number, the field path and
    /// the citation are for the API and the session document; the citation goes in the
    /// page's details).
    fn from(e: &AppError) -> PageError {
        let (message, rule) = match e {
            AppError::Refused(r) => (named(&r.field, &r.message), r.rule.clone()),
            AppError::BadRequest { field, message } => (named(field, message), None),
            other => (other.public_message(), None),
        };
        PageError {
            field: e.field(),
            message,
            rule,
        }
    }
}

/// `message` after the name of the thing on the form it is about ("Bid: 240 is below the
/// minimum 250"); alone when the field is the event or the form as a whole.
fn named(field: &str, message: &str) -> String {
    let whole = ["", "type", "event", "form", "replacement", "body"];
    let last = field.rsplit('.').next().unwrap_or(field);
    if whole.contains(&field) || whole.contains(&last) {
        let mut chars = message.chars();
        return match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => String::new(),
        };
    }
    let words = field_words(field);
    // "All passed, but the form also has a contract…" names its field already.
    if message.to_lowercase().starts_with(&words.to_lowercase()) {
        return named("", message);
    }
    format!("{words}: {message}")
}

/// A field path as a player names the thing on the form: the document's wrappers dropped
/// (`replacement.`, `agreements.`, `a.`, `points.`), dots and underscores as spaces, the
/// first letter capital, list entries counted from one, one player's entry as his:
/// `tricks.Ann` → "Ann's tricks", `replacement.bidder` → "Bidder",
/// `NS.tricks` → "NS tricks", `points.high` → "High", `auction[6]` → "Auction 7".
pub fn field_words(field: &str) -> String {
    let wrappers = ["replacement", "agreements", "a", "points", "event"];
    let parts: Vec<&str> = field
        .split('.')
        .skip_while(|part| wrappers.contains(part))
        .collect();
    // One player's entry reads as his: `tricks.Ann` → "Ann's tricks".
    if let [what, who] = parts.as_slice()
        && what.starts_with(|c: char| c.is_ascii_lowercase())
        && who.starts_with(char::is_uppercase)
        && who.chars().any(char::is_lowercase)
    {
        return format!("{who}'s {}", what.replace('_', " "));
    }
    let words: Vec<String> = parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            // An entry by its place counts from one, its list named in the singular:
            // `rounds.0.item` → "round 1 item".
            if let Ok(n) = part.parse::<usize>() {
                return (n + 1).to_string();
            }
            let next_is_place = parts.get(i + 1).is_some_and(|p| p.parse::<usize>().is_ok());
            let part = match (next_is_place, part.strip_suffix('s')) {
                (true, Some(one)) => one,
                _ => part,
            };
            // A list entry counts from one, as players do: `auction[6]` → "auction 7".
            let part = match part.split_once('[') {
                Some((name, rest)) => match rest.trim_end_matches(']').parse::<usize>() {
                    Ok(i) => format!("{name} {}", i + 1),
                    Err(_) => part.to_string(),
                },
                None => part.to_string(),
            };
            part.replace('_', " ")
        })
        .collect();
    let joined = words.join(" ");
    let mut chars = joined.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "The form".into(),
    }
}

/// An error page for what cannot be shown on a form (no such session, internal errors).
#[derive(Template, WebTemplate)]
#[template(path = "error.html")]
struct ErrorPage {
    title: String,
    message: String,
    login: bool,
}

/// The page for an error that no form can show.
pub fn error_page(e: AppError) -> Response {
    let status = e.status();
    if let AppError::Internal(cause) = &e {
        tracing::error!(%cause, "page failed");
    }
    let title = match status {
        StatusCode::NOT_FOUND => "Not found",
        StatusCode::UNAUTHORIZED => "Log in first",
        StatusCode::FORBIDDEN => "Not allowed",
        StatusCode::TOO_MANY_REQUESTS => "Too many attempts",
        StatusCode::SERVICE_UNAVAILABLE => "Busy, try again",
        _ => "Something went wrong",
    };
    let page = ErrorPage {
        title: title.into(),
        message: e.public_message(),
        login: status == StatusCode::UNAUTHORIZED,
    };
    let mut response = (status, page).into_response();
    if let Some(seconds) = e.retry_after() {
        response.headers_mut().insert(
            axum::http::header::RETRY_AFTER,
            axum::http::HeaderValue::from(seconds),
        );
    }
    response
}

#[derive(Template, WebTemplate)]
#[template(path = "sessions/list.html")]
struct ListPage {
    sessions: Vec<SessionSummaryRow>,
    /// The link to the next (older) page, when there is one.
    more: Option<String>,
    club: Option<(i64, String, bool)>,
}

impl SessionSummaryRow {
    /// The game's name as players say it ("Check Pinochle"), from the registry; the id
    /// itself for a game no longer registered.
    pub fn game_name(&self) -> &str {
        registry::game(&self.game).map_or(self.game.as_str(), |g| g.name)
    }

    /// When the session started, in the sheet's words ("2026-05-01 20:15 UTC"); the page's
    /// script shows it in the phone's own time zone.
    pub fn started_words(&self) -> String {
        sheet::time_words(&self.created_at)
    }
}

/// The games offered, as `(id, name)`.
pub fn offered_games() -> Vec<(&'static str, &'static str)> {
    registry::GAMES
        .iter()
        .map(|r| (r.game.id, r.game.name))
        .collect()
}

/// The sessions the viewer may see: his club's, a page at a time (`?before=` the id the
/// previous page ended at).
async fn list(
    State(state): State<AppState>,
    viewer: Viewer,
    Query(query): Query<super::Before>,
) -> Response {
    let page = async {
        let club = match viewer.grant {
            Some(g) => {
                let c = clubs::club(&state.reader, g.club_id).await?;
                Some((c.id, c.name, g.access == Access::Write))
            }
            None => None,
        };
        let page = service::list(&state.reader, viewer.club(), query.before).await?;
        Ok::<_, AppError>(ListPage {
            sessions: page.sessions,
            more: page.next.map(|id| format!("/?before={id}")),
            club,
        })
    };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "sessions/new.html")]
struct NewPage {
    game_id: String,
    game_name: String,
    rules: String,
    seats: Vec<usize>,
    fewest: usize,
    fields: &'static [AgreementSpec],
    values: HashMap<String, String>,
    error: Option<PageError>,
    /// The club's players, offered for every seat.
    roster: Vec<String>,
    /// The seating of the club's last session of this game (else of any game), one tap away.
    last_seating: Vec<String>,
    /// The club's sessions of this evening, which the new session can join as one night.
    tonight: Vec<crate::service::nights::Tonight>,
}

impl NewPage {
    fn value(&self, name: &str, default: &str) -> String {
        self.values
            .get(name)
            .cloned()
            .unwrap_or_else(|| default.to_string())
    }

    fn invalid(&self, name: &str) -> bool {
        self.error.as_ref().and_then(|e| e.field.as_deref()) == Some(name)
    }

    /// Whether night `night` was offered by a session listed before the `index`th, so each
    /// night is offered once.
    fn night_offered(&self, index: &usize, night: &i64) -> bool {
        self.tonight
            .iter()
            .take(*index)
            .any(|t| t.night.as_ref().is_some_and(|(n, _)| n == night))
    }
}

fn new_page(
    game: &str,
    values: HashMap<String, String>,
    error: Option<PageError>,
) -> Result<NewPage, AppError> {
    let registered = registry::game(game)
        .ok_or_else(|| AppError::NotFound(format!("there is no game \"{game}\"")))?;
    Ok(NewPage {
        game_id: registered.id.into(),
        game_name: registered.name.into(),
        rules: registered.rules.into(),
        seats: (1..=registered.seats.1).collect(),
        fewest: registered.seats.0,
        fields: registered.agreements,
        values,
        error,
        roster: Vec::new(),
        last_seating: Vec::new(),
        tonight: Vec::new(),
    })
}

/// The club's roster and its last table's seating (of `game` if it was played, else of the
/// latest session), for the new-session form; empty without a club.
async fn club_seating(
    state: &AppState,
    viewer: &Viewer,
    game: &str,
) -> Result<(Vec<String>, Vec<String>), AppError> {
    let Some(club) = viewer.club() else {
        return Ok((Vec::new(), Vec::new()));
    };
    // The club's people under the names shown now: a renamed or merged player once.
    let roster = service::history::people(&state.reader, club)
        .await?
        .into_iter()
        .map(|p| p.display_name)
        .collect();
    let renamed = service::history::renamed_in_club(&state.reader, club).await?;
    let last = service::last_session(&state.reader, club, game)
        .await?
        .map(|s| {
            s.names()
                .into_iter()
                .map(|n| renamed.get(n).map_or(n, String::as_str).to_string())
                .collect()
        })
        .unwrap_or_default();
    Ok((roster, last))
}

/// The new-session form; `?last=1` fills the seats as at the club's last table.
async fn new_form(
    State(state): State<AppState>,
    viewer: Viewer,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let first = registry::GAMES.first().map_or("", |r| r.game.id);
    let game = query.get("game").map_or(first, String::as_str);
    let page = async {
        let (roster, last_seating) = club_seating(&state, &viewer, game).await?;
        let mut values = HashMap::new();
        if query.get("last").is_some_and(|v| v == "1") {
            for (i, name) in last_seating.iter().enumerate() {
                values.insert(format!("player_{}", i + 1), name.clone());
            }
        }
        let mut page = new_page(game, values, None)?;
        page.roster = roster;
        page.last_seating = last_seating;
        if let Some(g) = viewer.grant.filter(|g| g.access == Access::Write) {
            page.tonight = crate::service::nights::tonight(&state.reader, g.club_id).await?;
        }
        Ok::<_, AppError>(page)
    };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

fn form_map(form: Vec<(String, String)>) -> HashMap<String, String> {
    form.into_iter().collect()
}

/// Creates a session: in the viewer's club when he is logged in with its passphrase, else
/// an open session. A read-only link cannot create one.
async fn create(
    State(state): State<AppState>,
    viewer: Viewer,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    let game = values.get("game").cloned().unwrap_or_default();
    let attempt = async {
        let club = match viewer.grant {
            Some(g) if g.access == Access::Write => Some(g.club_id),
            Some(_) => {
                return Err(AppError::Forbidden(
                    "a read-only link cannot start sessions".into(),
                ));
            }
            None => None,
        };
        let registered = registry::game(&game).ok_or_else(|| AppError::BadRequest {
            field: "game".into(),
            message: format!("there is no game \"{game}\""),
        })?;
        let agreements = agreements_from_form(registered.agreements, &values)?;
        let mut players: Vec<(usize, String)> = values
            .iter()
            .filter_map(|(k, v)| {
                Some((
                    k.strip_prefix("player_")?.parse::<usize>().ok()?,
                    v.trim().to_string(),
                ))
            })
            .filter(|(_, v)| !v.is_empty())
            .collect();
        players.sort();
        let input = NewSessionInput {
            game: game.clone(),
            players: players.into_iter().map(|(_, p)| p).collect(),
            agreements,
            currency: None,
            opening_scores: None,
        };
        match club {
            Some(club) => {
                // Tonight's night, chosen on the form: checked before the session is made.
                let night = crate::service::nights::NightChoice::parse(
                    values.get("night").map_or("", String::as_str),
                )?;
                let currency = input.currency.as_deref().unwrap_or("USD");
                crate::service::nights::check_choice(&state.reader, club, &night, &game, currency)
                    .await?;
                let id = service::create_session(&state.pool, input, Some(club)).await?;
                crate::service::nights::join(&state.pool, club, &night, id).await?;
                Ok((id, None))
            }
            None => {
                let (id, links) = service::create_linked_session(&state.pool, input).await?;
                Ok((id, Some(links)))
            }
        }
    };
    match attempt.await {
        // A session without a club keeps its write link in this browser; its links page
        // (`/sessions/{id}/links`) shows both links to pass on.
        Ok((id, Some(links))) => (
            CookieJar::new().add(super::auth::link_cookie(id, links.write)),
            Redirect::to(&format!("/sessions/{id}")),
        )
            .into_response(),
        Ok((id, None)) => Redirect::to(&format!("/sessions/{id}")).into_response(),
        Err(e @ (AppError::Refused(_) | AppError::BadRequest { .. })) => {
            match new_page(&game, values, Some(setup_error(&game, &e))) {
                Ok(page) => (StatusCode::UNPROCESSABLE_ENTITY, page).into_response(),
                Err(e) => error_page(e),
            }
        }
        Err(e) => error_page(e),
    }
}

/// A refusal of the new-session form of `game` in the form's own words: an agreement is
/// named by the label the form shows it under ("Game (points): -5 must be between …"), not
/// by its document path (`agreements.target`); the rule stays typed for the details. The
/// field is renamed to the form's input (`a.target`) so that input is marked.
fn setup_error(game: &str, e: &AppError) -> PageError {
    let mut error = PageError::from(e);
    let label = error
        .field
        .as_deref()
        .and_then(|f| f.strip_prefix("agreements."))
        .and_then(|name| {
            registry::game(game)?
                .agreements
                .iter()
                .find(|spec| spec.name == name)
        })
        .map(|spec| spec.label);
    let message = match e {
        AppError::Refused(r) => Some(r.message.as_str()),
        AppError::BadRequest { message, .. } => Some(message.as_str()),
        _ => None,
    };
    if let (Some(label), Some(message)) = (label, message) {
        error.message = format!("{label}: {message}");
    }
    error.field = error.field.map(|f| f.replace("agreements.", "a."));
    error
}

pub(super) fn expected_events(values: &HashMap<String, String>) -> Result<Option<usize>, AppError> {
    values
        .get("expected_events")
        .map(|v| {
            v.parse::<usize>().map_err(|_| AppError::BadRequest {
                field: "expected_events".into(),
                message: "the form is damaged; reload the page".into(),
            })
        })
        .transpose()
}

/// Every form that records an event built from the session's game alone (a hand, a payment,
/// a close, a table change): checks that the viewer may write, builds the event, records
/// it, tells the live sheets, and redirects (303) to `redirect`. The game comes from the
/// cached state (or the session's header), not from the session read and replayed, so an
/// entry at hand 1,000 costs what the API's does. A refusal re-renders the sheet with the
/// submitted values and the error.
async fn write_event<F>(
    state: &AppState,
    viewer: &Viewer,
    id: i64,
    values: &HashMap<String, String>,
    (redirect, key): (String, Option<String>),
    build: F,
) -> Response
where
    F: FnOnce(&'static GameInfo) -> Result<Value, AppError>,
{
    let event = async { build(service::game(&state.reader, &state.folds, id).await?) };
    write(state, viewer, id, values, (redirect, key), event).await
}

/// [`write_event`] for a form whose event is found in the session's history (the hand an
/// undo takes back, the payment a void takes back): the session is read and replayed first.
async fn write_amendment<F>(
    state: &AppState,
    viewer: &Viewer,
    id: i64,
    values: &HashMap<String, String>,
    (redirect, key): (String, Option<String>),
    build: F,
) -> Response
where
    F: FnOnce(&Loaded) -> Result<Value, AppError>,
{
    // The session read for the form is let go before the write, which waits for it.
    let event = async { build(&*service::load(&state.reader, &state.folds, id).await?) };
    write(state, viewer, id, values, (redirect, key), event).await
}

/// Records the event `event` makes once the viewer may write (it is not awaited before),
/// under the form's `Idempotency-Key` when it has one: a repeat of a key is answered with
/// the same redirect and records nothing. The key is looked up before the event is built:
/// an undo sent again would otherwise take back the hand before, or find none.
async fn write(
    state: &AppState,
    viewer: &Viewer,
    id: i64,
    values: &HashMap<String, String>,
    (redirect, key): (String, Option<String>),
    event: impl Future<Output = Result<Value, AppError>>,
) -> Response {
    let attempt = async {
        clubs::authorize(&state.reader, viewer.grant, id, Access::Write).await?;
        if let Some(key) = key.as_deref()
            && offline::recorded(&state.reader, id, key).await?
        {
            return Ok(true);
        }
        let event = event.await?;
        let seen = expected_events(values)?;
        let key = key.as_deref();
        let recorded = service::record_event(&state.pool, &state.folds, id, event, seen, key);
        Ok(recorded.await?.repeated)
    };
    match attempt.await {
        Ok(repeated) => {
            if !repeated {
                state.event_recorded(id).await;
            }
            Redirect::to(&redirect).into_response()
        }
        Err(
            e @ (AppError::NotFound(_)
            | AppError::Internal(_)
            | AppError::Unauthorized(_)
            | AppError::Forbidden(_)),
        ) => error_page(e),
        Err(e) => sheet_routes::refused(state, id, values, e).await,
    }
}

async fn enter_hand(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    offline::FormKey(key): offline::FormKey,
    RawForm(body): RawForm,
) -> Response {
    // The game reads the body into its typed form; the fields by name re-fill the form
    // after a refusal.
    let values = form_map(serde_html_form::from_bytes(&body).unwrap_or_default());
    write_event(
        &state,
        &viewer,
        id,
        &values,
        (format!("/sessions/{id}#latest"), key),
        |game| preview::hand_event(game, &values, &body),
    )
    .await
}

/// `event` with the form's `reason` (trimmed) when one was written: corrections and reopens
/// say why in the session's history.
fn with_reason(mut event: Value, values: &HashMap<String, String>) -> Value {
    if let Some(reason) = values
        .get("reason")
        .map(|r| r.trim())
        .filter(|r| !r.is_empty())
    {
        event["reason"] = Value::from(reason);
    }
    event
}

/// "Undo last hand": a `void` of the last hand that still stands.
async fn undo(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    offline::FormKey(key): offline::FormKey,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    // The form's expected_events makes record_event refuse an undo of a sheet that another
    // device changed meanwhile.
    let values = form_map(form);
    write_amendment(
        &state,
        &viewer,
        id,
        &values,
        (format!("/sessions/{id}#latest"), key),
        |loaded| {
            let last = loaded
                .fold
                .last_standing_hand()
                .ok_or_else(|| AppError::BadRequest {
                    field: "event".into(),
                    message: "there is no hand to undo".into(),
                })?;
            Ok(json!({ "type": "void", "event": last, "reason": "undo last hand" }))
        },
    )
    .await
}

/// Closes the sitting: the kitty is shared out and the settlement is final.
async fn close(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    offline::FormKey(key): offline::FormKey,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    write_event(
        &state,
        &viewer,
        id,
        &values,
        (format!("/sessions/{id}#settle"), key),
        |_| Ok(json!({ "type": "close" })),
    )
    .await
}

/// "Reopen": takes the close back (a `reopen` event with the reason given), so play goes on.
async fn reopen(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    offline::FormKey(key): offline::FormKey,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    write_event(
        &state,
        &viewer,
        id,
        &values,
        (format!("/sessions/{id}#latest"), key),
        |_| Ok(with_reason(json!({ "type": "reopen" }), &values)),
    )
    .await
}

/// "Void" a payment: a `void` of a payment that stands (a mis-tapped "Mark paid").
async fn void_payment(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    offline::FormKey(key): offline::FormKey,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    write_amendment(
        &state,
        &viewer,
        id,
        &values,
        (format!("/sessions/{id}#settle"), key),
        |loaded| {
            let event = values
                .get("event")
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|&i| {
                    loaded
                        .fold
                        .standing_event(i)
                        .is_some_and(|e| e.get("type").and_then(Value::as_str) == Some("payment"))
                })
                .ok_or_else(|| AppError::BadRequest {
                    field: "payment".into(),
                    message: "that payment is no longer on the sheet; reload the page".into(),
                })?;
            Ok(json!({ "type": "void", "event": event, "reason": "payment voided" }))
        },
    )
    .await
}

/// "Mark paid": records a `payment` of one proposed transfer.
async fn mark_paid(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    offline::FormKey(key): offline::FormKey,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    write_event(&state, &viewer, id, &values, (format!("/sessions/{id}#settle"), key), |_| {
        let field = |name: &str| {
            values.get(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).ok_or_else(|| AppError::BadRequest {
                field: name.into(),
                message: "the form is damaged; reload the page".into(),
            })
        };
        Ok(json!({ "type": "payment", "from": field("from")?, "to": field("to")?, "amount": field("amount")? }))
    })
    .await
}

/// "Table changes": a player joins or leaves (broke or not), or the kitty is divided by
/// consent (rules §1.2 rules 6–8). The game's rules decide whether it may happen.
async fn table_change(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    offline::FormKey(key): offline::FormKey,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    write_event(
        &state,
        &viewer,
        id,
        &values,
        (format!("/sessions/{id}#latest"), key),
        |_| {
            let given = |name: &str| values.get(name).map(|v| v.trim()).filter(|v| !v.is_empty());
            let player = || {
                given("player").ok_or_else(|| AppError::BadRequest {
                    field: "player".into(),
                    message: "whose change is it?".into(),
                })
            };
            match given("change") {
                Some("player_joins") => {
                    let mut event = json!({ "type": "player_joins", "player": player()? });
                    if let Some(after) = given("seat_after") {
                        event["seat_after"] = Value::from(after);
                    }
                    Ok(event)
                }
                Some("player_leaves") => {
                    Ok(json!({ "type": "player_leaves", "player": player()?, "broke": false }))
                }
                Some("player_broke") => {
                    Ok(json!({ "type": "player_leaves", "player": player()?, "broke": true }))
                }
                Some("kitty_divide") => Ok(json!({ "type": "kitty_divide" })),
                _ => Err(AppError::BadRequest {
                    field: "change".into(),
                    message: "choose what changes at the table".into(),
                }),
            }
        },
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::field_words;

    #[test]
    fn fields_are_named_as_on_the_form() {
        assert_eq!(field_words("replacement.bidder"), "Bidder");
        assert_eq!(field_words("agreements.stake"), "Stake");
        assert_eq!(field_words("a.stake"), "Stake");
        assert_eq!(field_words("points.high"), "High");
        assert_eq!(field_words("NS.tricks"), "NS tricks");
        assert_eq!(field_words("all_passed"), "All passed");
        assert_eq!(field_words("replacement.NS.meld"), "NS meld");
        assert_eq!(field_words("auction[6]"), "Auction 7");
        assert_eq!(field_words("rounds.0.item"), "Round 1 item");
        assert_eq!(field_words("tricks.Ann"), "Ann's tricks");
        assert_eq!(field_words("put_in.Ann"), "Ann's put in");
        assert_eq!(field_words(""), "The form");
    }
}
