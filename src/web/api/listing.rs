//! `GET /api/v1/sessions`: the caller's club's sessions, a page at a time.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use serde_json::{Value, json};

use super::openapi::{ApiError, SessionList};
use crate::error::AppError;
use crate::service;
use crate::store::time::rfc3339;
use crate::web::auth::Viewer;
use crate::web::{AppState, Before};

/// `GET /sessions[?before=ID]`: the caller's club's sessions, newest first, 50 at a time;
/// `next` is the path of the next (older) page, or null. Only the club's own sessions are
/// read. Errors: 400 naming `before` when it is not a whole number.
#[utoipa::path(get, path = "/sessions", tag = "sessions",
    params(("before" = Option<i64>, Query, description = "Only the sessions with an id below this (the `next` link sets it)")),
    responses((status = 200, description = "A page of the caller's club's sessions, newest first", body = SessionList), (status = 400, description = "`before` is not a whole number", body = ApiError)))]
pub(super) async fn list(
    State(state): State<AppState>,
    viewer: Viewer,
    query: Result<Query<Before>, QueryRejection>,
) -> Result<Json<Value>, AppError> {
    let Query(query) = query.map_err(|e| AppError::BadRequest {
        field: "before".into(),
        message: format!("{}; use a session id, e.g. ?before=120", e.body_text()),
    })?;
    let page = service::list(&state.reader, viewer.club(), query.before).await?;
    let next = page.next.map(|id| format!("/api/v1/sessions?before={id}"));
    let items: Vec<Value> = page
        .sessions
        .into_iter()
        .map(|s| {
            json!({ "id": s.id, "game": s.game, "created_at": rfc3339(s.created_at),
                    "players": s.names(), "hands": s.hands, "closed": s.closed })
        })
        .collect();
    Ok(Json(json!({ "sessions": items, "next": next })))
}
