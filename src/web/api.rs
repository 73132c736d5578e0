//! The JSON API under `/api/v1`. Errors are 4xx with `{"error": {"code", "message",
//! "field"}}`; nothing is written when a request is refused. Every route is described in
//! the OpenAPI document at `/api/v1/openapi.json` ([`openapi`]).

pub mod exports;
pub mod history;
mod listing;
pub mod meld;
pub mod nights;
pub mod openapi;
mod refusal;
pub mod request_shapes;

use std::collections::BTreeMap;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::auth::{Client, Viewer, link_cookie, with_retry_after};
use super::{AppState, not_modified, not_modified_response, session_etag};
use axum_extra::extract::cookie::CookieJar;

use crate::error::AppError;
use crate::format::Position;
use crate::format::{LedgerEvent, SessionDoc};
use crate::ids::{ClubId, SessionId};
use crate::ledger::settle_up::Transfer;
use crate::money::Money;
use crate::rules::{FinishedGame, fields};
use crate::service::clubs::{self, Access, SessionLinks};
use crate::service::{self, Loaded, NewSessionInput};
use openapi::{
    ApiError, ClubCreated, CreateSessionBody, CredentialsBody, LedgerDocument, Recorded,
    SessionDocument, SessionView, Standing, TokenIssued,
};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The API's routes, to be nested under `/api/v1`.
pub fn routes() -> Router<AppState> {
    router()
        .split_for_parts()
        .0
        .fallback(unknown_route)
        .layer(middleware::map_response(refusal::json_refusal))
}

/// The API's routes with their OpenAPI description. Handlers are registered only here, with
/// `routes!`, so none is served undescribed (`tests/app/openapi.rs` enforces it).
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::base())
        .routes(routes!(listing::list, create))
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
        .routes(routes!(nights::group))
        // Reads its own body, up to `IMPORT_LIMIT` (`exports::whole_json_body`).
        .routes(routes!(exports::club_import))
        .routes(routes!(meld::count))
        .routes(routes!(openapi::openapi_json))
}

/// Reads a JSON body: 413 over axum's 2 MB limit, else 400 in our error shape.
fn body(payload: Result<Json<Value>, JsonRejection>) -> Result<Value, AppError> {
    payload.map(|Json(v)| v).map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            AppError::PayloadTooLarge {
                field: "body".into(),
                message: "the body is larger than the 2 MB this service reads".into(),
            }
        } else {
            AppError::BadRequest {
                field: "body".into(),
                message: e.body_text(),
            }
        }
    })
}

/// Any other path under `/api/v1`: a JSON 404, so a client can always parse a refusal.
async fn unknown_route() -> AppError {
    AppError::NotFound("there is no such address in this API (see /api/v1/sessions)".into())
}

/// Reads a JSON object into `T` (`deny_unknown_fields`), naming the field at fault.
fn read_body<T: serde::de::DeserializeOwned>(
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<T, AppError> {
    match body(payload)? {
        Value::Object(object) => fields::read(&object).map_err(|e| AppError::BadRequest {
            field: e.field.to_string(),
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
        "created_at": crate::store::time::rfc3339(loaded.created_at),
        "closed": loaded.closed(),
        "session": loaded.doc,
        "ledger": loaded.ledger,
    })
}

/// The new session's club: the writer's, or none without a token. Errors: 401 unknown
/// token, 403 read-only.
fn owning_club(viewer: &Viewer) -> Result<Option<ClubId>, AppError> {
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

/// 201 with the session; a club-less one also carries its links and their secrets (shown
/// this once) and sets the write link's cookie, as the form does.
fn created(loaded: &Loaded, links: Option<SessionLinks>) -> Response {
    let mut body = session_json(loaded);
    let Some(links) = links else {
        return (StatusCode::CREATED, Json(body)).into_response();
    };
    if let Value::Object(o) = &mut body {
        o.insert(
            "links".into(),
            json!({ "write": links.write_path(loaded.id), "read": links.read_path(loaded.id) }),
        );
        o.insert("write_token".into(), json!(links.write));
        o.insert("read_token".into(), json!(links.read));
    }
    (
        CookieJar::new().add(link_cookie(loaded.id, links.write)),
        (StatusCode::CREATED, Json(body)),
    )
        .into_response()
}

#[utoipa::path(post, path = "/sessions", tag = "sessions",
    request_body = CreateSessionBody,
    responses((status = 201, description = "The session, created", body = SessionView), (status = 400, description = "The body is not what this endpoint reads", body = ApiError), (status = 401, description = "The token is not valid (expired?)", body = ApiError), (status = 403, description = "A read-only token cannot change anything", body = ApiError), (status = 422, description = "The rules refused it: the field and rule are named", body = ApiError)))]
async fn create(
    State(state): State<AppState>,
    viewer: Viewer,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<Response, AppError> {
    let club = owning_club(&viewer)?;
    let c: CreateSession = read_body(payload)?;
    let input = NewSessionInput {
        game: c.game,
        players: c.players,
        agreements: c.agreements,
        currency: c.currency,
        opening_scores: c.opening_scores,
    };
    let (id, links) = match club {
        Some(club) => (
            service::create_session(&state.pool, input, Some(club)).await?,
            None,
        ),
        None => {
            let (id, links) = service::create_linked_session(&state.pool, input).await?;
            (id, Some(links))
        }
    };
    let loaded = service::load(&state.reader, &state.folds, id).await?;
    Ok(created(&loaded, links))
}

#[utoipa::path(post, path = "/sessions/import", tag = "sessions",
    request_body = SessionDocument,
    responses((status = 201, description = "The session document, replayed and stored", body = SessionView), (status = 400, description = "The body is not what this endpoint reads", body = ApiError), (status = 401, description = "The token is not valid (expired?)", body = ApiError), (status = 403, description = "A read-only token cannot change anything", body = ApiError), (status = 422, description = "The rules refused it: the field and rule are named", body = ApiError)))]
async fn import(
    State(state): State<AppState>,
    viewer: Viewer,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<Response, AppError> {
    let club = owning_club(&viewer)?;
    let doc: SessionDoc = read_body(payload)?;
    let (id, links) = match club {
        Some(club) => (service::import(&state.pool, &doc, Some(club)).await?, None),
        None => {
            let (id, links) = service::import_linked(&state.pool, &doc).await?;
            (id, Some(links))
        }
    };
    let loaded = service::load(&state.reader, &state.folds, id).await?;
    Ok(created(&loaded, links))
}

#[utoipa::path(get, path = "/sessions/{id}", tag = "sessions", params(("id" = i64, Path, description = "The session's id")),
    responses((status = 200, description = "The session with its ledger", body = SessionView), (status = 404, description = "No such session, or not yours to see", body = ApiError)))]
async fn show(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
) -> Result<Json<Value>, AppError> {
    clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Read).await?;
    Ok(Json(session_json(
        &*service::load(&state.reader, &state.folds, id).await?,
    )))
}

/// Where a session stands: `event_count`, the ledger's `balances`, `kitty`, `scores`,
/// `checks` (no event list, so the size is constant) and the proposed `settlement`
/// ([`Position::settlement`]).
fn standing_json(p: &Position) -> Map<String, Value> {
    Map::from_iter([
        ("event_count".to_string(), json!(p.event_count)),
        ("balances".to_string(), json!(p.balances)),
        ("kitty".to_string(), json!(p.kitty)),
        ("scores".to_string(), json!(p.scores)),
        ("checks".to_string(), json!(p.checks)),
        ("settlement".to_string(), json!(p.settlement)),
    ])
}

/// `GET /sessions/{id}/standing`: [`standing_json`], for phones polling a session, with
/// an `ETag`; a matching `If-None-Match` answers 304 from one indexed read, without
/// loading the session.
#[utoipa::path(get, path = "/sessions/{id}/standing", tag = "sessions", params(("id" = i64, Path, description = "The session's id"),
        ("If-None-Match" = Option<String>, Header, description = "The ETag of a standing already held: 304 while no event was recorded since")),
    responses((status = 200, description = "Where the session stands after its last event (with an ETag)", body = Standing), (status = 304, description = "Not modified: no event since the ETag sent"), (status = 404, description = "No such session, or not yours to see", body = ApiError)))]
async fn standing(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Read).await?;
    if let Some(unchanged) = unchanged(&state, id, &headers, "standing").await? {
        return Ok(unchanged);
    }
    // From the cached state after the last event: no history is read or replayed.
    let position = service::position(&state.reader, &state.folds, id).await?;
    let etag = session_etag(id, position.event_count, "standing");
    Ok(([(header::ETAG, etag)], Json(standing_json(&position))).into_response())
}

/// The 304 when `If-None-Match` names session `id` as stored now; else `None`.
async fn unchanged(
    state: &AppState,
    id: SessionId,
    headers: &HeaderMap,
    variant: &str,
) -> Result<Option<Response>, AppError> {
    if !headers.contains_key(header::IF_NONE_MATCH) {
        return Ok(None);
    }
    let etag = session_etag(id, service::event_count(&state.reader, id).await?, variant);
    Ok(not_modified(headers, &etag).then(|| not_modified_response(etag)))
}

/// `?after=N` on the ledger: only the entries whose `seq` is above N.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LedgerQuery {
    after: Option<usize>,
}

/// The ledger document with only some of its entries (the rest as in [`LedgerDoc`]).
#[derive(Serialize)]
struct LedgerPage<'a> {
    format: &'a str,
    game: &'a str,
    currency: &'a str,
    events: &'a [LedgerEvent],
    scores: &'a Option<Value>,
    checks: &'a Option<Value>,
    games: &'a [FinishedGame],
    balances: &'a BTreeMap<String, Money>,
    kitty: Money,
    settlement: &'a [Transfer],
}

/// `GET /sessions/{id}/ledger[?after=N]`: the ledger document, with an `ETag` (304 to a
/// matching `If-None-Match`). With `after=N` (an `event_count` or `seq` the client has
/// already seen) `events` holds only the entries with `seq` above N, so a phone keeping
/// the ledger fetches only what is new; everything else (balances, scores, settlement…)
/// is as of the last event. Errors: 400 naming `after` when it is not a whole number.
#[utoipa::path(get, path = "/sessions/{id}/ledger", tag = "sessions", params(("id" = i64, Path, description = "The session's id"),
        ("after" = Option<usize>, Query, description = "Only the entries with a seq above this (an event_count already seen)"),
        ("If-None-Match" = Option<String>, Header, description = "The ETag of a ledger already held: 304 while no event was recorded since")),
    responses((status = 200, description = "The ledger document (with an ETag)", body = LedgerDocument), (status = 304, description = "Not modified: no event since the ETag sent"), (status = 400, description = "`after` is not a whole number", body = ApiError), (status = 404, description = "No such session, or not yours to see", body = ApiError)))]
async fn ledger(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
    headers: HeaderMap,
    query: Result<Query<LedgerQuery>, QueryRejection>,
) -> Result<Response, AppError> {
    let Query(query) = query.map_err(|e| AppError::BadRequest {
        field: "after".into(),
        message: format!(
            "{}; use a whole number of events, e.g. ?after=12",
            e.body_text()
        ),
    })?;
    clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Read).await?;
    if let Some(unchanged) = unchanged(&state, id, &headers, "ledger").await? {
        return Ok(unchanged);
    }
    // Stored entries and the cached standing; a session stored before entries is replayed.
    if let Some((events, body)) =
        crate::export::stream::session_ledger(&state.reader, &state.folds, id, query.after).await?
    {
        let etag = session_etag(id, events, "ledger");
        let headers = [
            (header::ETAG, etag),
            (
                header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            ),
        ];
        return Ok((headers, body).into_response());
    }
    let current = service::load(&state.reader, &state.folds, id).await?;
    // Once, so later reads take the stored path; a failure is logged, the answer unchanged.
    if let Err(e) = service::backfill_entries(&state.pool, id, &current.ledger).await {
        tracing::warn!(session = id.0, "ledger entries not backfilled: {e}");
    }
    let etag = session_etag(id, current.events(), "ledger");
    let l = &current.ledger;
    let events = match query.after {
        // The new entries are a tail, found by bisection.
        Some(after) => l
            .events
            .get(l.events.partition_point(|e| e.seq <= after)..)
            .unwrap_or_default(),
        None => &l.events,
    };
    let page = LedgerPage {
        format: l.format,
        game: &l.game,
        currency: &l.currency,
        events,
        scores: &l.scores,
        checks: &l.checks,
        games: &l.games,
        balances: &l.balances,
        kitty: l.kitty,
        settlement: &l.settlement,
    };
    Ok(([(header::ETAG, etag)], Json(page)).into_response())
}

#[utoipa::path(get, path = "/sessions/{id}/export", tag = "sessions", params(("id" = i64, Path, description = "The session's id")),
    responses((status = 200, description = "The session document, as `replay` reads it", body = SessionDocument), (status = 404, description = "No such session, or not yours to see", body = ApiError)))]
async fn export(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
) -> Result<Response, AppError> {
    clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Read).await?;
    let body = crate::export::stream::session_document(&state.reader, id).await?;
    // Saved as a file from the sheet's link, not shown as text.
    let saved = format!("attachment; filename=\"session-{id}.json\"");
    let json = header::HeaderValue::from_static("application/json");
    Ok((
        [(header::CONTENT_TYPE, json)],
        [(header::CONTENT_DISPOSITION, saved)],
        body,
    )
        .into_response())
}

/// Records one event (the body is the event exactly as in a session document). Returns
/// 201 with the event's ledger entry (`event`), the number of events now (`event_count`),
/// and where the session stands after it: `balances`, `kitty`, `scores`, `checks` and the
/// proposed `settlement`, as in the ledger document, but not the ledger's event list.
///
/// The body may also carry `expected_events`, the `event_count` the client last saw (a
/// whole number; it is not part of the event and is not stored): when the session has more
/// events by then, nothing is recorded and the answer is 409 naming the hand entered
/// meanwhile, as the sheet's form does, so two phones cannot enter the same hand twice.
///
/// With an `Idempotency-Key` header, a retry with the same key and the same event records
/// nothing new and answers 200 with the event recorded the first time; the same key with a
/// different event answers 422 (field `Idempotency-Key`) and records nothing.
#[utoipa::path(post, path = "/sessions/{id}/events", tag = "sessions", params(("id" = i64, Path, description = "The session's id"),
        ("Idempotency-Key" = Option<String>, Header, description = "A client's key for this request: a retry records nothing new; the same key with another event is 422")),
    request_body(content = openapi::Event, description = "One event, exactly as in a session document, optionally with `expected_events`: the event count the caller saw (not stored)"),
    responses((status = 201, description = "Recorded", body = Recorded), (status = 200, description = "Already recorded with this Idempotency-Key", body = Recorded),
        (status = 400, description = "The body is not what this endpoint reads", body = ApiError), (status = 401, description = "The token is not valid (expired?)", body = ApiError), (status = 403, description = "A read-only token cannot change anything", body = ApiError), (status = 404, description = "No such session, or not yours to see", body = ApiError), (status = 409, description = "The session moved on since the caller looked (`expected_events`)", body = ApiError), (status = 413, description = "The body is over 2 MB", body = ApiError), (status = 422, description = "The rules refused it (the field and rule are named), or the Idempotency-Key recorded another event", body = ApiError), (status = 503, description = "The database stayed locked: nothing was recorded; retry after the Retry-After seconds", body = ApiError)))]
async fn record(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
    headers: HeaderMap,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Write).await?;
    let Value::Object(mut event) = body(payload)? else {
        return Err(AppError::BadRequest {
            field: "body".into(),
            message: "an event is a JSON object".into(),
        });
    };
    let expected_events = match event.remove("expected_events") {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| AppError::BadRequest {
                    field: "expected_events".into(),
                    message: "the number of events you last saw, a whole number such as 12".into(),
                })?,
        ),
    };
    let event = Value::Object(event);
    let key = crate::web::idempotency::key(&headers)?;
    let recorded = service::record_event(
        &state.pool,
        &state.folds,
        id,
        event.clone(),
        expected_events,
        key.as_deref(),
    )
    .await?;
    if recorded.repeated && recorded.event != event {
        return Err(crate::web::idempotency::reused(recorded.seq));
    }
    if !recorded.repeated {
        state.event_recorded(id).await;
    }
    let status = if recorded.repeated {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    let mut answer = Map::new();
    answer.insert("event".into(), json!(recorded.entry));
    answer.extend(standing_json(&recorded.position));
    Ok((status, Json(Value::Object(answer))))
}

/// A club's name and passphrase, to create it or to get a token for it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    passphrase: String,
}

/// Creates a club: 201 with its id, name, share link and a write token for its creator
/// (429 with `Retry-After` past the creations allowed from one address).
#[utoipa::path(post, path = "/clubs", tag = "clubs",
    request_body = CredentialsBody,
    responses((status = 201, description = "The club, with a write token", body = ClubCreated), (status = 400, description = "The body is not what this endpoint reads", body = ApiError),
        (status = 429, description = "Too many clubs created from this address; see Retry-After", body = ApiError)))]
async fn create_club(
    State(state): State<AppState>,
    Client(client): Client,
    payload: Result<Json<Value>, JsonRejection>,
) -> Response {
    let created = async {
        let c: Credentials = read_body(payload)?;
        let (club, token) =
            clubs::create_club(&state.pool, &state.limiter, client, &c.name, &c.passphrase).await?;
        Ok::<_, AppError>((
            StatusCode::CREATED,
            Json(
                json!({ "id": club.id, "name": club.name, "share_link": format!("/share/{}", club.share_token), "token": token, "access": "write" }),
            ),
        ))
    };
    with_retry_after(
        created.await.into_response(),
        clubs::CREATION_RETRY_AFTER_SECS,
    )
}

/// Exchanges a club's name and passphrase for a write token (rate limited per address:
/// 429 with `Retry-After`).
#[utoipa::path(post, path = "/tokens", tag = "clubs",
    request_body = CredentialsBody,
    responses((status = 201, description = "A write token", body = TokenIssued), (status = 400, description = "The body is not what this endpoint reads", body = ApiError),
        (status = 401, description = "That club name and passphrase do not match", body = ApiError),
        (status = 429, description = "Too many attempts from this address; see Retry-After", body = ApiError)))]
async fn token(
    State(state): State<AppState>,
    Client(client): Client,
    payload: Result<Json<Value>, JsonRejection>,
) -> Response {
    let issued = async {
        let t: Credentials = read_body(payload)?;
        let (club, token) =
            clubs::log_in(&state.pool, &state.limiter, client, &t.name, &t.passphrase).await?;
        Ok::<_, AppError>((
            StatusCode::CREATED,
            Json(json!({ "club_id": club.id, "token": token, "access": "write" })),
        ))
    };
    with_retry_after(issued.await.into_response(), clubs::RETRY_AFTER_SECS)
}
