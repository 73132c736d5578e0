//! Export endpoints: session postings CSV and journal; club results CSV, journal and
//! whole-club JSON; import into a new club.

use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_stream::StreamExt;

use super::openapi::{ApiError, ClubDocument, ClubImportBody, ClubImported};
use crate::error::AppError;
use crate::export::nights::NightPaymentRecord;
use crate::export::{self, ClubImportDoc, SessionRecord, club, stream};
use crate::ids::{ClubId, SessionId};
use crate::rules::fields::read_json;
use crate::service::clubs::{self, Access};
use crate::web::AppState;
use crate::web::auth::{Client, Viewer};

/// The largest club export `POST /clubs/import` reads, in bytes: about 90,000 hands with
/// their times, six years of a club playing 300 hands every week. An import holds its body
/// and, one at a time, a session read from it, so whatever a body up to this holds the
/// server's memory stays bounded (`benches/imports.py`: eight at once, under 128 MiB).
pub const IMPORT_LIMIT: usize = 16 * 1024 * 1024;

/// Club imports read at once, through the API and the restore page together. Anyone may
/// send one and each holds its whole body, up to [`IMPORT_LIMIT`], and what is parsed from
/// it: one at a time keeps the server's memory bounded whatever the number sent at once.
pub const IMPORTS_AT_ONCE: usize = 1;

/// The permits of club imports ([`IMPORTS_AT_ONCE`]); clones share them.
#[derive(Clone, Debug)]
pub struct ImportGate(Arc<Semaphore>);

impl Default for ImportGate {
    fn default() -> ImportGate {
        ImportGate(Arc::new(Semaphore::new(IMPORTS_AT_ONCE)))
    }
}

impl ImportGate {
    /// A permit to read and store one import, held until dropped; taken before the body is
    /// read. Errors: [`AppError::ImportBusy`] when every permit is held (no waiting, so
    /// nothing queues up in memory).
    pub fn enter(&self) -> Result<OwnedSemaphorePermit, AppError> {
        self.0
            .clone()
            .try_acquire_owned()
            .map_err(|_| AppError::ImportBusy)
    }
}

/// A download: `content_type` with `filename` as an attachment; `body` whole or streamed.
fn download(content_type: &'static str, filename: String, body: impl Into<Body>) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
        ],
        body.into(),
    )
        .into_response()
}

const CSV: &str = "text/csv; charset=utf-8";
const JOURNAL: &str = "text/plain; charset=utf-8";

fn written(e: export::ExportError) -> AppError {
    AppError::Internal(e.to_string())
}

/// Club `id`'s sessions and standing night payments, for its exports. Errors:
/// [`AppError::NotFound`] for non-members.
async fn club_ledger(
    state: &AppState,
    viewer: &Viewer,
    id: ClubId,
) -> Result<(Vec<SessionRecord>, Vec<NightPaymentRecord>), AppError> {
    club::member_club(&state.reader, viewer.grant, id).await?;
    let sessions = club::club_sessions(&state.reader, &state.folds, id).await?;
    let paid = club::night_payments(&state.reader, id, None).await?;
    Ok((sessions, paid))
}

/// [`export::journal`] of `sessions` plus the night payments `paid`: one document whether a
/// session's or a club's.
fn journal(sessions: &[SessionRecord], paid: &[NightPaymentRecord]) -> Vec<u8> {
    let mut body = export::journal(sessions);
    export::nights::append_journal(&mut body, paid);
    body.into_bytes()
}

/// `GET /sessions/{id}/postings.csv`: [`export::postings_csv`].
#[utoipa::path(get, path = "/sessions/{id}/postings.csv", tag = "exports",
    params(("id" = i64, Path, description = "The session's id")),
    responses(
        (status = 200, description = "One row per posting: event, hand, type, recorded_at, account, amount (decimal string), explanation", content_type = "text/csv", body = String),
        (status = 404, description = "No such session, or not yours to see", body = ApiError)))]
pub async fn postings_csv(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
) -> Result<Response, AppError> {
    clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Read).await?;
    let filename = format!("session-{id}-postings.csv");
    if let Some(body) = stream::session_postings(&state.reader, id).await? {
        return Ok(download(CSV, filename, body));
    }
    let record = club::session(&state.reader, &state.folds, id).await?;
    let body = export::postings_csv(&record).map_err(written)?;
    Ok(download(CSV, filename, body))
}

/// `GET /sessions/{id}/journal`: [`export::journal`] of one session, then the payments
/// standing against its night, if it is in one.
#[utoipa::path(get, path = "/sessions/{id}/journal", tag = "exports",
    params(("id" = i64, Path, description = "The session's id")),
    responses(
        (status = 200, description = "An hledger/Ledger journal: one balanced transaction per event, and one per payment standing against the session's night", content_type = "text/plain", body = String),
        (status = 404, description = "No such session, or not yours to see", body = ApiError)))]
pub async fn session_journal(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
) -> Result<Response, AppError> {
    clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Read).await?;
    // A session of a night carries the night's payments: the night settles it.
    let paid = match crate::service::nights::night_of_session(&state.reader, id).await? {
        Some((club_id, night)) => club::night_payments(&state.reader, club_id, Some(night)).await?,
        None => Vec::new(),
    };
    let mut tail = String::new();
    export::nights::append_journal(&mut tail, &paid);
    let filename = format!("session-{id}.journal");
    if let Some(body) = stream::session_journal(&state.reader, id, tail).await? {
        return Ok(download(JOURNAL, filename, body));
    }
    let record = club::session(&state.reader, &state.folds, id).await?;
    let body = journal(std::slice::from_ref(&record), &paid);
    Ok(download(JOURNAL, filename, body))
}

/// `GET /clubs/{id}/results.csv`: [`export::results_csv`] of every session of the club, then
/// the payments standing against its nights ([`export::nights::results_rows`]).
#[utoipa::path(get, path = "/clubs/{id}/results.csv", tag = "exports",
    params(("id" = i64, Path, description = "The club's id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "One row per session and account: session, date, game, player, net (decimal string); then two rows per payment standing against a night (session night:<id>, game night_payment)", content_type = "text/csv", body = String),
        (status = 404, description = "No such club, or not yours", body = ApiError)))]
pub async fn club_results_csv(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<ClubId>,
) -> Result<Response, AppError> {
    club::member_club(&state.reader, viewer.grant, id).await?;
    let mut body = club::club_results(&state.reader, &state.folds, id).await?;
    let paid = club::night_payments(&state.reader, id, None).await?;
    body.extend(export::nights::results_rows(&paid).map_err(written)?);
    Ok(download(CSV, format!("club-{id}-results.csv"), body))
}

/// `GET /clubs/{id}/journal`: [`export::journal`] of every session of the club, then the
/// payments standing against its nights ([`export::nights::append_journal`]).
#[utoipa::path(get, path = "/clubs/{id}/journal", tag = "exports",
    params(("id" = i64, Path, description = "The club's id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "An hledger/Ledger journal of every session of the club and every payment standing against its nights", content_type = "text/plain", body = String),
        (status = 404, description = "No such club, or not yours", body = ApiError)))]
pub async fn club_journal(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<ClubId>,
) -> Result<Response, AppError> {
    club::member_club(&state.reader, viewer.grant, id).await?;
    let ids = crate::service::club_session_ids(&state.reader, id).await?;
    let paid = club::night_payments(&state.reader, id, None).await?;
    let mut tail = String::new();
    export::nights::append_journal(&mut tail, &paid);
    let filename = format!("club-{id}.journal");
    if let Some(body) = export::chained::club_journal(&state.reader, id, ids, tail).await? {
        return Ok(download(JOURNAL, filename, body));
    }
    let (sessions, paid) = club_ledger(&state, &viewer, id).await?;
    Ok(download(JOURNAL, filename, journal(&sessions, &paid)))
}

/// `GET /clubs/{id}/export`: the whole club, `scorekeeper/club@1`.
#[utoipa::path(get, path = "/clubs/{id}/export", tag = "exports",
    params(("id" = i64, Path, description = "The club's id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Every session document of the club with its name and roster", body = ClubDocument),
        (status = 404, description = "No such club, or not yours", body = ApiError)))]
pub async fn club_export(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<ClubId>,
) -> Result<Response, AppError> {
    let found = club::member_club(&state.reader, viewer.grant, id).await?;
    let body = export::chained::club_export(&state.pool, &state.folds, &found).await?;
    Ok(download(
        "application/json",
        format!("club-{id}.json"),
        body,
    ))
}

/// The body of `POST /clubs/import`; the club's session documents stay text borrowed from
/// the body until each is imported ([`ClubImportDoc`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClubImport<'a> {
    #[serde(default)]
    name: Option<String>,
    passphrase: String,
    #[serde(borrow)]
    club: ClubImportDoc<'a>,
}

fn too_large() -> AppError {
    AppError::PayloadTooLarge {
        field: "body".into(),
        message: format!(
            "a club import is at most {} MiB",
            IMPORT_LIMIT / (1024 * 1024)
        ),
    }
}

/// A JSON body read whole into one buffer sized by its `Content-Length`, so a large import
/// is held once, not in growing or collected copies. Errors: [`AppError::PayloadTooLarge`]
/// over [`IMPORT_LIMIT`]; [`AppError::BadRequest`] naming `body` for another content type
/// or a body cut off.
async fn whole_json_body(request: Request) -> Result<Vec<u8>, AppError> {
    let (head, body) = request.into_parts();
    let header_text = |name| {
        head.headers
            .get(name)
            .and_then(|v: &header::HeaderValue| v.to_str().ok())
            .unwrap_or_default()
    };
    let kind = header_text(header::CONTENT_TYPE);
    if !(kind.starts_with("application/json") || kind.contains("+json")) {
        return Err(AppError::BadRequest {
            field: "body".into(),
            message: "send the club export as JSON (Content-Type: application/json)".into(),
        });
    }
    let expected: usize = header_text(header::CONTENT_LENGTH).parse().unwrap_or(0);
    if expected > IMPORT_LIMIT {
        return Err(too_large());
    }
    let mut body = body.into_data_stream();
    let mut whole = Vec::with_capacity(expected);
    while let Some(data) = body.next().await {
        let data = data.map_err(|e| AppError::BadRequest {
            field: "body".into(),
            message: format!("the body could not be read ({e}); send it again"),
        })?;
        if whole.len().saturating_add(data.len()) > IMPORT_LIMIT {
            return Err(too_large());
        }
        whole.extend_from_slice(&data);
    }
    Ok(whole)
}

/// `POST /clubs/import`: a club export becomes a new club, every session with the ledger it
/// had. Answers 201 with the club, a write token and the new sessions' ids; 503 without
/// reading the body while another import is read ([`ImportGate`]).
#[utoipa::path(post, path = "/clubs/import", tag = "exports",
    request_body = ClubImportBody,
    responses(
        (status = 201, description = "The club was created with every session", body = ClubImported),
        (status = 400, description = "Not a club export, a name taken or a short passphrase", body = ApiError),
        (status = 422, description = "A session does not replay: the field names it from the export's root", body = ApiError),
        (status = 413, description = "The body is over the 16 MiB a club import may be", body = ApiError),
        (status = 503, description = "Another club import is being read: this body was not read; send it again after the Retry-After seconds", body = ApiError)))]
pub async fn club_import(
    State(state): State<AppState>,
    Client(client): Client,
    request: Request,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let _reading = state.imports.enter()?;
    let whole = whole_json_body(request).await?;
    let body: ClubImport = read_json(&whole).map_err(|e| AppError::BadRequest {
        field: match e.field.to_string() {
            root if root == "." => "body".into(),
            field => field,
        },
        message: e.message,
    })?;
    let (club, token, sessions) = club::import_club(
        &state.pool,
        &state.limiter,
        client,
        body.name.as_deref(),
        &body.passphrase,
        &body.club,
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(
            json!({ "club_id": club.id, "name": club.name, "token": token, "access": "write", "sessions": sessions }),
        ),
    ))
}
