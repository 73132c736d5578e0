//! The HTML pages: the sessions list, the new-session form, the score sheet with the next
//! hand's form, and closing the sitting. Plain forms, no JavaScript needed; POSTs redirect
//! (303) on success and re-render with the submitted values and the field's error (422)
//! on refusal.

pub mod games;

use std::collections::HashMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::{Form, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

use self::games::{AgreementField, GameView, agreements_from_form};
use super::AppState;
use crate::error::AppError;
use crate::format::corrections::{Amendments, amendments};
use crate::ledger::settle_up::Transfer;
use crate::rules;
use crate::service::{self, Loaded, NewSessionInput};
use crate::store::SessionSummaryRow;

/// The pages' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(list))
        .route("/sessions/new", get(new_form))
        .route("/sessions", post(create))
        .route("/sessions/{id}", get(sheet))
        .route("/sessions/{id}/hands", post(enter_hand))
        .route("/sessions/{id}/close", post(close))
        .route("/sessions/{id}/undo", post(undo))
        .route("/static/style.css", get(style))
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

/// A refusal shown on a page: the field and the message.
pub struct PageError {
    /// The field at fault, if any.
    pub field: Option<String>,
    /// The message a person reads.
    pub message: String,
}

impl From<&AppError> for PageError {
    fn from(e: &AppError) -> PageError {
        PageError {
            field: e.field(),
            message: e.public_message(),
        }
    }
}

/// An error page for what cannot be shown on a form (no such session, internal errors).
#[derive(Template, WebTemplate)]
#[template(path = "error.html")]
struct ErrorPage {
    title: String,
    message: String,
}

fn error_page(e: AppError) -> Response {
    let status = e.status();
    if let AppError::Internal(cause) = &e {
        tracing::error!(%cause, "page failed");
    }
    let title = if status == StatusCode::NOT_FOUND {
        "Not found"
    } else {
        "Something went wrong"
    };
    (
        status,
        ErrorPage {
            title: title.into(),
            message: e.public_message(),
        },
    )
        .into_response()
}

#[derive(Template, WebTemplate)]
#[template(path = "sessions/list.html")]
struct ListPage {
    sessions: Vec<SessionSummaryRow>,
    games: Vec<(&'static str, &'static str)>,
}

fn game_name(id: &str) -> &str {
    rules::find(id).map_or(id, |g| g.name)
}

fn offered_games() -> Vec<(&'static str, &'static str)> {
    rules::GAMES
        .iter()
        .filter(|g| games::view(g.id).is_some())
        .map(|g| (g.id, g.name))
        .collect()
}

async fn list(State(state): State<AppState>) -> Response {
    match service::list(&state.pool).await {
        Ok(sessions) => ListPage {
            sessions,
            games: offered_games(),
        }
        .into_response(),
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
    fields: Vec<AgreementField>,
    values: HashMap<String, String>,
    error: Option<PageError>,
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
}

fn new_page(
    game: &str,
    values: HashMap<String, String>,
    error: Option<PageError>,
) -> Result<NewPage, AppError> {
    let registered = rules::find(game)
        .ok_or_else(|| AppError::NotFound(format!("there is no game \"{game}\"")))?;
    let view = games::view(game)
        .ok_or_else(|| AppError::NotFound(format!("{} has no pages yet", registered.name)))?;
    Ok(NewPage {
        game_id: registered.id.into(),
        game_name: registered.name.into(),
        rules: registered.rules.into(),
        seats: (1..=registered.seats.1).collect(),
        fewest: registered.seats.0,
        fields: view.agreement_fields(),
        values,
        error,
    })
}

async fn new_form(Query(query): Query<HashMap<String, String>>) -> Response {
    let game = query.get("game").map_or("auction_pinochle", String::as_str);
    match new_page(game, HashMap::new(), None) {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

fn form_map(form: Vec<(String, String)>) -> HashMap<String, String> {
    form.into_iter().collect()
}

async fn create(
    State(state): State<AppState>,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    let game = values.get("game").cloned().unwrap_or_default();
    let attempt = async {
        let view: &dyn GameView = games::view(&game).ok_or_else(|| AppError::BadRequest {
            field: "game".into(),
            message: format!("there is no game \"{game}\""),
        })?;
        let agreements = agreements_from_form(&view.agreement_fields(), &values)?;
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
        service::create_session(&state.pool, input).await
    };
    match attempt.await {
        Ok(id) => Redirect::to(&format!("/sessions/{id}")).into_response(),
        Err(e @ (AppError::Refused(_) | AppError::BadRequest { .. })) => {
            let mut error = PageError::from(&e);
            // The form's field names carry an `a.` for agreements.
            error.field = error.field.map(|f| f.replace("agreements.", "a."));
            match new_page(&game, values, Some(error)) {
                Ok(page) => (StatusCode::UNPROCESSABLE_ENTITY, page).into_response(),
                Err(e) => error_page(e),
            }
        }
        Err(e) => error_page(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "sessions/sheet.html")]
struct SheetPage {
    id: i64,
    game_name: String,
    rules: String,
    created_at: String,
    currency: String,
    agreements: Vec<(String, String)>,
    sheet: String,
    hand_form: String,
    correction_form: String,
    correcting: String,
    expected_events: usize,
    undo: Option<String>,
    balances: Vec<(String, String, &'static str)>,
    settlement: Vec<Transfer>,
    settlement_text: String,
    closed: bool,
    error: Option<PageError>,
}

/// The hand of event `index` in words ("hand 3"), if that event is a hand that still stands.
fn standing_hand(loaded: &Loaded, amended: &Amendments, index: usize) -> Option<String> {
    let event = amended.current_version(&loaded.doc, index)?;
    if event.get("type").and_then(Value::as_str) != Some("hand") {
        return None;
    }
    let number = loaded.doc.events[..=index]
        .iter()
        .filter(|e| e.get("type").and_then(Value::as_str) == Some("hand"))
        .count();
    Some(format!("hand {number}"))
}

fn sheet_page(
    loaded: &Loaded,
    values: &HashMap<String, String>,
    error: Option<PageError>,
) -> Result<SheetPage, AppError> {
    let view = games::view(&loaded.doc.game).ok_or_else(|| {
        AppError::NotFound(format!("{} has no pages yet", game_name(&loaded.doc.game)))
    })?;
    let game = rules::find(&loaded.doc.game);
    let error_field = error.as_ref().and_then(|e| e.field.clone());
    let balances = loaded
        .ledger
        .balances
        .iter()
        .map(|(k, v)| {
            let class = match v.cents().signum() {
                1 => "plus",
                -1 => "minus",
                _ => "",
            };
            let name = if k == crate::ledger::KITTY {
                "Kitty".to_string()
            } else {
                k.clone()
            };
            (name, v.to_string(), class)
        })
        .collect();
    let settlement_text = loaded
        .ledger
        .settlement
        .iter()
        .map(|t| {
            format!(
                "{} pays {} {} {}",
                t.from, t.to, t.amount, loaded.doc.currency
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let amended = amendments(&loaded.doc);
    let correct_event = values
        .get("correct_event")
        .and_then(|v| v.parse::<usize>().ok());
    let correcting = correct_event.and_then(|i| standing_hand(loaded, &amended, i));
    let (hand_form, correction_form) = match (loaded.closed(), correct_event, &correcting) {
        (true, _, _) => (String::new(), String::new()),
        (false, Some(index), Some(_)) => {
            let mut filled = amended
                .current_version(&loaded.doc, index)
                .map(|e| view.form_values(e))
                .unwrap_or_default();
            // What was submitted (after a refusal) wins over the stored version.
            filled.extend(values.iter().map(|(k, v)| (k.clone(), v.clone())));
            (
                view.hand_form(loaded, &HashMap::new(), None)?,
                view.hand_form(loaded, &filled, error_field.as_deref())?,
            )
        }
        (false, _, _) => (
            view.hand_form(loaded, values, error_field.as_deref())?,
            String::new(),
        ),
    };
    let undo = if loaded.closed() {
        None
    } else {
        amended
            .last_standing_hand(&loaded.doc)
            .and_then(|i| standing_hand(loaded, &amended, i))
    };
    Ok(SheetPage {
        id: loaded.id,
        game_name: game.map_or(loaded.doc.game.clone(), |g| g.name.to_string()),
        rules: game.map_or(String::new(), |g| g.rules.to_string()),
        created_at: loaded.created_at.replace('T', " ").replace('Z', " UTC"),
        currency: loaded.doc.currency.clone(),
        agreements: view.agreements_summary(loaded),
        sheet: view.sheet(loaded)?,
        hand_form,
        correction_form,
        correcting: correcting.unwrap_or_default(),
        expected_events: loaded.doc.events.len(),
        undo,
        balances,
        settlement: loaded.ledger.settlement.clone(),
        settlement_text,
        closed: loaded.closed(),
        error,
    })
}

async fn sheet(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    // `?correct=N` opens the form that corrects event N.
    let values: HashMap<String, String> = query
        .get("correct")
        .map(|n| HashMap::from([("correct_event".to_string(), n.clone())]))
        .unwrap_or_default();
    let page = async { sheet_page(&service::load(&state.pool, id).await?, &values, None) };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

/// Re-renders the sheet with the refused form's values and its error (422, or 409 when
/// another device entered a hand first).
async fn refused(
    state: &AppState,
    id: i64,
    values: &HashMap<String, String>,
    e: AppError,
) -> Response {
    let status = e.status();
    let mut error = PageError::from(&e);
    if let AppError::Refused(r) = &e {
        error.message = format!("{}: {}", r.field, r.message);
    }
    let values = if matches!(e, AppError::Conflict { .. }) {
        HashMap::new()
    } else {
        values.clone()
    };
    match service::load(&state.pool, id)
        .await
        .and_then(|l| sheet_page(&l, &values, Some(error)))
    {
        Ok(page) => (status, page).into_response(),
        Err(e) => error_page(e),
    }
}

fn expected_events(values: &HashMap<String, String>) -> Result<Option<usize>, AppError> {
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

async fn enter_hand(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    let attempt = async {
        let loaded = service::load(&state.pool, id).await?;
        let view = games::view(&loaded.doc.game).ok_or_else(|| {
            AppError::NotFound(format!("{} has no pages yet", game_name(&loaded.doc.game)))
        })?;
        let hand = view.hand_event(&values)?;
        let event = match values.get("correct_event").filter(|v| !v.is_empty()) {
            Some(target) => {
                let target: usize = target.parse().map_err(|_| AppError::BadRequest {
                    field: "correct_event".into(),
                    message: "the form is damaged; reload the page".into(),
                })?;
                let mut correction =
                    json!({ "type": "correction", "event": target, "replacement": hand });
                if let Some(reason) = values
                    .get("reason")
                    .map(|r| r.trim())
                    .filter(|r| !r.is_empty())
                {
                    correction["reason"] = Value::from(reason);
                }
                correction
            }
            None => hand,
        };
        service::record_event(&state.pool, id, event, expected_events(&values)?).await
    };
    match attempt.await {
        Ok(_) => Redirect::to(&format!("/sessions/{id}")).into_response(),
        Err(AppError::NotFound(m)) => error_page(AppError::NotFound(m)),
        Err(e @ AppError::Internal(_)) => error_page(e),
        Err(e) => refused(&state, id, &values, e).await,
    }
}

/// "Undo last hand": a `void` of the last hand that still stands.
async fn undo(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    let attempt = async {
        let loaded = service::load(&state.pool, id).await?;
        let last = amendments(&loaded.doc)
            .last_standing_hand(&loaded.doc)
            .ok_or_else(|| AppError::BadRequest {
                field: "event".into(),
                message: "there is no hand to undo".into(),
            })?;
        let event = json!({ "type": "void", "event": last, "reason": "undo last hand" });
        service::record_event(&state.pool, id, event, expected_events(&values)?).await
    };
    match attempt.await {
        Ok(_) => Redirect::to(&format!("/sessions/{id}")).into_response(),
        Err(AppError::NotFound(m)) => error_page(AppError::NotFound(m)),
        Err(e @ AppError::Internal(_)) => error_page(e),
        Err(e) => refused(&state, id, &HashMap::new(), e).await,
    }
}

async fn close(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    let attempt = async {
        service::record_event(
            &state.pool,
            id,
            json!({ "type": "close" }) as Value,
            expected_events(&values)?,
        )
        .await
    };
    match attempt.await {
        Ok(_) => Redirect::to(&format!("/sessions/{id}#settle")).into_response(),
        Err(AppError::NotFound(m)) => error_page(AppError::NotFound(m)),
        Err(e @ AppError::Internal(_)) => error_page(e),
        Err(e) => refused(&state, id, &HashMap::new(), e).await,
    }
}
