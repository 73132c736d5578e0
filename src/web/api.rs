//! The JSON API under `/api/v1`. Errors are 4xx with `{"error": {"code", "message",
//! "field"}}`; nothing is written when a request is refused.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::AppState;
use crate::error::AppError;
use crate::format::{LedgerDoc, SessionDoc};
use crate::rules::fields;
use crate::service::{self, Loaded, NewSessionInput};

/// The API's routes, to be nested under `/api/v1`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sessions", get(list).post(create))
        .route("/sessions/import", post(import))
        .route("/sessions/{id}", get(show))
        .route("/sessions/{id}/events", post(record))
        .route("/sessions/{id}/ledger", get(ledger))
        .route("/sessions/{id}/export", get(export))
}

/// Reads a JSON body, turning axum's rejection into our error shape.
fn body(payload: Result<Json<Value>, JsonRejection>) -> Result<Value, AppError> {
    payload.map(|Json(v)| v).map_err(|e| AppError::BadRequest {
        field: "body".into(),
        message: e.body_text(),
    })
}

/// Reads a session document, naming the field at fault.
pub fn session_doc(value: Value) -> Result<SessionDoc, AppError> {
    let Value::Object(object) = value else {
        return Err(AppError::BadRequest {
            field: "body".into(),
            message: "a session document is a JSON object".into(),
        });
    };
    fields::read(&object).map_err(|e| AppError::BadRequest {
        field: e.field,
        message: e.message,
    })
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

async fn list(State(state): State<AppState>) -> Result<Json<Value>, AppError> {
    let sessions = service::list(&state.pool).await?;
    let items: Vec<Value> = sessions
        .into_iter()
        .map(|s| {
            json!({ "id": s.id, "game": s.game, "created_at": s.created_at,
                    "players": s.players.split(", ").collect::<Vec<_>>(), "hands": s.hands, "closed": s.closed })
        })
        .collect();
    Ok(Json(json!({ "sessions": items })))
}

async fn create(
    State(state): State<AppState>,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let Value::Object(object) = body(payload)? else {
        return Err(AppError::BadRequest {
            field: "body".into(),
            message: "expected a JSON object".into(),
        });
    };
    let c: CreateSession = fields::read(&object).map_err(|e| AppError::BadRequest {
        field: e.field,
        message: e.message,
    })?;
    let id = service::create_session(
        &state.pool,
        NewSessionInput {
            game: c.game,
            players: c.players,
            agreements: c.agreements,
            currency: c.currency,
            opening_scores: c.opening_scores,
        },
    )
    .await?;
    let loaded = service::load(&state.pool, id).await?;
    Ok((StatusCode::CREATED, Json(session_json(&loaded))))
}

async fn import(
    State(state): State<AppState>,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let doc = session_doc(body(payload)?)?;
    let id = service::import(&state.pool, &doc).await?;
    let loaded = service::load(&state.pool, id).await?;
    Ok((StatusCode::CREATED, Json(session_json(&loaded))))
}

async fn show(State(state): State<AppState>, Path(id): Path<i64>) -> Result<Json<Value>, AppError> {
    Ok(Json(session_json(&service::load(&state.pool, id).await?)))
}

async fn ledger(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<LedgerDoc>, AppError> {
    Ok(Json(service::load(&state.pool, id).await?.ledger))
}

async fn export(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<SessionDoc>, AppError> {
    Ok(Json(service::load(&state.pool, id).await?.doc))
}

/// Records one event (the body is the event exactly as in a session document). Returns
/// 201 with the event's ledger entry and the whole ledger after it.
async fn record(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let event = body(payload)?;
    if !event.is_object() {
        return Err(AppError::BadRequest {
            field: "body".into(),
            message: "an event is a JSON object".into(),
        });
    }
    let loaded = service::record_event(&state.pool, id, event, None).await?;
    let entry = loaded.ledger.events.last().cloned();
    Ok((
        StatusCode::CREATED,
        Json(json!({ "event": entry, "ledger": loaded.ledger })),
    ))
}
