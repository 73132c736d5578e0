//! The JSON API under `/api/v1`. Errors are 4xx with `{"error": {"code", "message",
//! "field"}}`; nothing is written when a request is refused. Every route is described in
//! the OpenAPI document at `/api/v1/openapi.json` ([`openapi`]).

pub mod exports;
pub mod history;
pub mod nights;
pub mod openapi;

use axum::extract::DefaultBodyLimit;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::AppState;
use super::auth::Viewer;
use crate::error::AppError;
use crate::format::SessionDoc;
use crate::rules::fields;
use crate::service::clubs::{self, Access};
use crate::service::{self, Loaded, NewSessionInput};
use openapi::{
    ApiError, ClubCreated, CreateSessionBody, CredentialsBody, LedgerDocument, Recorded,
    SessionDocument, SessionList, SessionView, Standing, TokenIssued,
};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The API's routes, to be nested under `/api/v1`.
pub fn routes() -> Router<AppState> {
    router().split_for_parts().0
}

/// The API's routes with their OpenAPI description. Each handler carries its method and
/// path in its `#[utoipa::path(…)]` annotation, and is registered only here, with
/// `.routes(routes!(handler))`, so a route cannot be served without being described
/// (`tests/openapi.rs` also refuses a plain `.route(…)` in the API's files).
pub fn router() -> OpenApiRouter<AppState> {
    let (schemas, paths, club_import) = routes!(exports::club_import);
    OpenApiRouter::with_openapi(openapi::base())
        .routes(routes!(list, create))
        .routes(routes!(import))
        .routes(routes!(show))
        .routes(routes!(record))
        .routes(routes!(ledger))
        .routes(routes!(standing))
        .routes(routes!(export))
        .routes(routes!(create_club))
        .routes(routes!(token))
        .routes(routes!(exports::postings_csv))
        .routes(routes!(exports::session_journal))
        .routes(routes!(exports::club_results_csv))
        .routes(routes!(exports::club_journal))
        .routes(routes!(exports::club_export))
        .routes(routes!(history::history))
        .routes(routes!(history::player))
        .routes(routes!(history::leaderboard))
        .routes(routes!(nights::night))
        .routes((
            schemas,
            paths,
            club_import.layer(DefaultBodyLimit::max(exports::IMPORT_LIMIT)),
        ))
        .routes(routes!(openapi::openapi_json))
}

/// Reads a JSON body, turning axum's rejection into our error shape.
fn body(payload: Result<Json<Value>, JsonRejection>) -> Result<Value, AppError> {
    payload.map(|Json(v)| v).map_err(|e| AppError::BadRequest {
        field: "body".into(),
        message: e.body_text(),
    })
}

/// Reads a JSON object body into `T` (a struct with `deny_unknown_fields`), naming the
/// field at fault.
fn read_body<T: serde::de::DeserializeOwned>(
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<T, AppError> {
    match body(payload)? {
        Value::Object(object) => fields::read(&object).map_err(|e| AppError::BadRequest {
            field: e.field,
            message: e.message,
        }),
        _ => Err(AppError::BadRequest {
            field: "body".into(),
            message: "expected a JSON object".into(),
        }),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateSession {
    game: String,
    players: Vec<String>,
    #[serde(default)]
    agreements: Map<String, Value>,
    currency: Option<String>,
    opening_scores: Option<Value>,
}

fn session_json(loaded: &Loaded) -> Value {
    json!({
        "id": loaded.id,
        "created_at": loaded.created_at,
        "closed": loaded.closed(),
        "session": loaded.doc,
        "ledger": loaded.ledger,
    })
}

#[utoipa::path(get, path = "/sessions", tag = "sessions",
    responses((status = 200, description = "The open sessions and those of the caller's club, newest first", body = SessionList)))]
async fn list(State(state): State<AppState>, viewer: Viewer) -> Result<Json<Value>, AppError> {
    let sessions = service::list(&state.pool, viewer.club()).await?;
    let items: Vec<Value> = sessions
        .into_iter()
        .map(|s| {
            json!({ "id": s.id, "game": s.game, "created_at": s.created_at,
                    "players": s.players.split(", ").collect::<Vec<_>>(), "hands": s.hands, "closed": s.closed })
        })
        .collect();
    Ok(Json(json!({ "sessions": items })))
}

/// The club a new session belongs to: the writer's club, or none (an open session) for a
/// request without a token. Errors: 401 for an unknown token, 403 for a read-only one.
fn owning_club(viewer: &Viewer) -> Result<Option<i64>, AppError> {
    match (viewer.grant, &viewer.token) {
        (Some(g), _) if g.access == Access::Write => Ok(Some(g.club_id)),
        (Some(_), _) => Err(AppError::Forbidden(
            "a read-only token cannot create sessions".into(),
        )),
        (None, Some(_)) => Err(AppError::Unauthorized(
            "this token is not valid (expired?)".into(),
        )),
        (None, None) => Ok(None),
    }
}

#[utoipa::path(post, path = "/sessions", tag = "sessions",
    request_body = CreateSessionBody,
    responses((status = 201, description = "The session, created", body = SessionView), (status = 400, description = "The body is not what this endpoint reads", body = ApiError), (status = 401, description = "The token is not valid (expired?)", body = ApiError), (status = 403, description = "A read-only token cannot change anything", body = ApiError), (status = 422, description = "The rules refused it: the field and rule are named", body = ApiError)))]
async fn create(
    State(state): State<AppState>,
    viewer: Viewer,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let club = owning_club(&viewer)?;
    let c: CreateSession = read_body(payload)?;
    let id = service::create_session(
        &state.pool,
        NewSessionInput {
            game: c.game,
            players: c.players,
            agreements: c.agreements,
            currency: c.currency,
            opening_scores: c.opening_scores,
        },
        club,
    )
    .await?;
    let loaded = service::load(&state.pool, &state.folds, id).await?;
    Ok((StatusCode::CREATED, Json(session_json(&loaded))))
}

#[utoipa::path(post, path = "/sessions/import", tag = "sessions",
    request_body = SessionDocument,
    responses((status = 201, description = "The session document, replayed and stored", body = SessionView), (status = 400, description = "The body is not what this endpoint reads", body = ApiError), (status = 401, description = "The token is not valid (expired?)", body = ApiError), (status = 403, description = "A read-only token cannot change anything", body = ApiError), (status = 422, description = "The rules refused it: the field and rule are named", body = ApiError)))]
async fn import(
    State(state): State<AppState>,
    viewer: Viewer,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let club = owning_club(&viewer)?;
    let doc: SessionDoc = read_body(payload)?;
    let id = service::import(&state.pool, &doc, club).await?;
    let loaded = service::load(&state.pool, &state.folds, id).await?;
    Ok((StatusCode::CREATED, Json(session_json(&loaded))))
}

#[utoipa::path(get, path = "/sessions/{id}", tag = "sessions", params(("id" = i64, Path, description = "The session's id")),
    responses((status = 200, description = "The session with its ledger", body = SessionView), (status = 404, description = "No such session, or not yours to see", body = ApiError)))]
async fn show(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
) -> Result<Json<Value>, AppError> {
    clubs::authorize(&state.pool, viewer.grant, id, Access::Read).await?;
    Ok(Json(session_json(
        &*service::load(&state.pool, &state.folds, id).await?,
    )))
}

/// Where a session stands after its last event: `event_count`, and the ledger's
/// `balances`, `kitty`, `scores`, `checks` and proposed `settlement`, without its event
/// list, so the answer stays the same size however long the session (the whole ledger is
/// `GET …/ledger`).
fn standing_json(l: &Loaded) -> Map<String, Value> {
    Map::from_iter([
        ("event_count".to_string(), json!(l.events())),
        ("balances".to_string(), json!(l.ledger.balances)),
        ("kitty".to_string(), json!(l.ledger.kitty)),
        ("scores".to_string(), json!(l.ledger.scores)),
        ("checks".to_string(), json!(l.ledger.checks)),
        ("settlement".to_string(), json!(l.ledger.settlement)),
    ])
}

/// `GET /sessions/{id}/standing`: [`standing_json`], for phones polling a session.
#[utoipa::path(get, path = "/sessions/{id}/standing", tag = "sessions", params(("id" = i64, Path, description = "The session's id")),
    responses((status = 200, description = "Where the session stands after its last event", body = Standing), (status = 404, description = "No such session, or not yours to see", body = ApiError)))]
async fn standing(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
) -> Result<Json<Map<String, Value>>, AppError> {
    clubs::authorize(&state.pool, viewer.grant, id, Access::Read).await?;
    let current = service::load(&state.pool, &state.folds, id).await?;
    Ok(Json(standing_json(&current)))
}

#[utoipa::path(get, path = "/sessions/{id}/ledger", tag = "sessions", params(("id" = i64, Path, description = "The session's id")),
    responses((status = 200, description = "The ledger document", body = LedgerDocument), (status = 404, description = "No such session, or not yours to see", body = ApiError)))]
async fn ledger(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    clubs::authorize(&state.pool, viewer.grant, id, Access::Read).await?;
    // Written straight from the cached session, which is not copied for the answer.
    let current = service::load(&state.pool, &state.folds, id).await?;
    Ok(Json(&current.ledger).into_response())
}

#[utoipa::path(get, path = "/sessions/{id}/export", tag = "sessions", params(("id" = i64, Path, description = "The session's id")),
    responses((status = 200, description = "The session document, as `replay` reads it", body = SessionDocument), (status = 404, description = "No such session, or not yours to see", body = ApiError)))]
async fn export(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    clubs::authorize(&state.pool, viewer.grant, id, Access::Read).await?;
    let current = service::load(&state.pool, &state.folds, id).await?;
    Ok(Json(&current.doc).into_response())
}

/// Records one event (the body is the event exactly as in a session document). Returns
/// 201 with the event's ledger entry (`event`), the number of events now (`event_count`),
/// and where the session stands after it: `balances`, `kitty`, `scores`, `checks` and the
/// proposed `settlement`, as in the ledger document, but not the ledger's event list. With an
/// `Idempotency-Key` header, a retried request records nothing new and answers 200 with
/// the event recorded the first time.
#[utoipa::path(post, path = "/sessions/{id}/events", tag = "sessions", params(("id" = i64, Path, description = "The session's id"),
        ("Idempotency-Key" = Option<String>, Header, description = "A client's key for this request: a retry records nothing new")),
    request_body(content = Object, description = "One event, exactly as in a session document"),
    responses((status = 201, description = "Recorded", body = Recorded), (status = 200, description = "Already recorded with this Idempotency-Key", body = Recorded),
        (status = 400, description = "The body is not what this endpoint reads", body = ApiError), (status = 401, description = "The token is not valid (expired?)", body = ApiError), (status = 403, description = "A read-only token cannot change anything", body = ApiError), (status = 404, description = "No such session, or not yours to see", body = ApiError), (status = 409, description = "The session moved on since the caller looked", body = ApiError), (status = 422, description = "The rules refused it: the field and rule are named", body = ApiError)))]
async fn record(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    headers: HeaderMap,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    clubs::authorize(&state.pool, viewer.grant, id, Access::Write).await?;
    let event = body(payload)?;
    if !event.is_object() {
        return Err(AppError::BadRequest {
            field: "body".into(),
            message: "an event is a JSON object".into(),
        });
    }
    let key = match headers.get("idempotency-key") {
        Some(v) => Some(
            v.to_str()
                .ok()
                .filter(|k| (1..=200).contains(&k.len()))
                .ok_or_else(|| AppError::BadRequest {
                    field: "Idempotency-Key".into(),
                    message: "use 1 to 200 visible characters".into(),
                })?
                .to_string(),
        ),
        None => None,
    };
    let recorded =
        service::record_event(&state.pool, &state.folds, id, event, None, key.as_deref()).await?;
    if !recorded.repeated {
        state.changed(id);
    }
    let l = &recorded.loaded;
    // From the end: a new event's entry is the last one.
    let entry = l.ledger.events.iter().rev().find(|e| e.seq == recorded.seq);
    let status = if recorded.repeated {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    let mut answer = Map::new();
    answer.insert("event".into(), json!(entry));
    answer.extend(standing_json(l));
    Ok((status, Json(Value::Object(answer))))
}

/// A club's name and passphrase, to create it or to get a token for it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    passphrase: String,
}

/// Creates a club: 201 with its id, name, share link and a write token for its creator.
#[utoipa::path(post, path = "/clubs", tag = "clubs",
    request_body = CredentialsBody,
    responses((status = 201, description = "The club, with a write token", body = ClubCreated), (status = 400, description = "The body is not what this endpoint reads", body = ApiError)))]
async fn create_club(
    State(state): State<AppState>,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let c: Credentials = read_body(payload)?;
    let (club, token) = clubs::create_club(&state.pool, &c.name, &c.passphrase).await?;
    Ok((
        StatusCode::CREATED,
        Json(
            json!({ "id": club.id, "name": club.name, "share_link": format!("/share/{}", club.share_token), "token": token, "access": "write" }),
        ),
    ))
}

/// Exchanges a club's name and passphrase for a write token (rate limited: 429).
#[utoipa::path(post, path = "/tokens", tag = "clubs",
    request_body = CredentialsBody,
    responses((status = 201, description = "A write token", body = TokenIssued), (status = 400, description = "The body is not what this endpoint reads", body = ApiError),
        (status = 401, description = "That club name and passphrase do not match", body = ApiError),
        (status = 429, description = "Too many attempts for this club", body = ApiError)))]
async fn token(
    State(state): State<AppState>,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let t: Credentials = read_body(payload)?;
    let (club, token) = clubs::log_in(&state.pool, &state.limiter, &t.name, &t.passphrase).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "club_id": club.id, "token": token, "access": "write" })),
    ))
}
