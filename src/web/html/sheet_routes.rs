//! The score sheet's routes: the sheet (from the cached state for the latest lines, from
//! the whole session for every line or a correction), its refusal re-render, and the
//! settle-up's "every hand" page.

use std::collections::{BTreeMap, HashMap};

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::CookieJar;
use tokio_stream::StreamExt;

use super::sheet::{Showing, history_of, sheet_page};
use super::{PageError, club_pages, error_page, expected_events, with_retry_after_of};
use crate::error::AppError;
use crate::ids::SessionId;
use crate::service::clubs::{self, Access};
use crate::service::{self};
use crate::web::auth::Viewer;
use crate::web::{AppState, not_modified, not_modified_response, session_etag};

/// `GET /sessions/{id}`: the sheet; `?correct=N` opens a correction of event N, `?all` shows
/// every line.
pub(super) async fn sheet(
    State(state): State<AppState>,
    viewer: Viewer,
    jar: CookieJar,
    Path(id): Path<SessionId>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let (values, all) = sheet_values(&query);
    let page = async {
        match clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Read).await {
            Err(e) if viewer.grant.is_none() => return Ok(club_pages::session_not_open(id, e)),
            refused => refused?,
        }
        let can_write =
            clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Write)
                .await
                .is_ok();
        // The plain sheet is the same page until the next event (a 304 from one read); renames
        // change it without an event, so the names are in its tag.
        let renamed = service::history::renamed_for_session(&state.reader, id).await?;
        let variant = sheet_variant(can_write, all, &service::history::names_tag(&renamed));
        // A night's payments and its other sessions change this sheet without an event.
        let night = super::sheet::night_on_sheet(&state, id).await?;
        let cacheable = !values.contains_key("correct_event") && night.is_none();
        if cacheable && headers.contains_key(header::IF_NONE_MATCH) {
            let etag = session_etag(id, service::event_count(&state.reader, id).await?, &variant);
            if not_modified(&headers, &etag) {
                return Ok(not_modified_response(etag));
            }
        }
        let holds_link = jar
            .get(&format!("{}{id}", crate::web::auth::LINK_COOKIE_PREFIX))
            .is_some();
        // The latest lines from the cache; every line or a correction needs the whole session.
        let cached = cached_sheet(&state, id, cacheable && !all, &renamed).await?;
        let (page, events) = if let Some(cached) = cached {
            let glance = match &cached {
                service::Renaming::AsRecorded(glance) | service::Renaming::Shown { glance, .. } => {
                    glance
                }
            };
            let page = sheet_page(&Showing::of_glance(glance), &values, None, can_write)?
                .offering_links(holds_link)
                .shown_as_cached(&cached, &values)?
                .in_night(night);
            (page, cached.events())
        } else {
            let current = service::load(&state.reader, &state.folds, id).await?;
            let shown = crate::history::names::shown(&current.doc, &current.fold, &renamed);
            let page = sheet_page(&Showing::of_loaded(&current, all), &values, None, can_write)?
                .offering_links(holds_link)
                .shown_as(&current, shown.as_ref(), &values)?
                .in_night(night);
            (page, current.events())
        };
        Ok(match cacheable {
            true => {
                let etag = session_etag(id, events, &variant);
                ([(header::ETAG, etag)], page).into_response()
            }
            false => page.into_response(),
        })
    };
    page.await.unwrap_or_else(error_page)
}

/// The cached state for session `id`'s plain sheet (when `from_cache`), under `renamed`;
/// `None` when the whole session must be read.
async fn cached_sheet(
    state: &AppState,
    id: SessionId,
    from_cache: bool,
    renamed: &BTreeMap<String, String>,
) -> Result<Option<service::Renaming>, AppError> {
    Ok(match (from_cache, renamed.is_empty()) {
        (false, _) => None,
        (true, true) => Some(service::Renaming::AsRecorded(
            service::glance(&state.reader, &state.folds, id).await?,
        )),
        (true, false) => service::glance_renamed(&state.reader, &state.folds, id, renamed).await?,
    })
}

/// The sheet's values from `query` (`?correct=N` → `correct_event`), and whether `?all`.
fn sheet_values(query: &HashMap<String, String>) -> (HashMap<String, String>, bool) {
    let mut values: HashMap<String, String> = query
        .get("correct")
        .map(|n| HashMap::from([("correct_event".to_string(), n.clone())]))
        .unwrap_or_default();
    let all = query.contains_key("all");
    if all {
        values.insert("all".into(), String::new());
    }
    (values, all)
}

/// The plain sheet's ETag variant: viewer kind, `all`, and the shown names' tag.
fn sheet_variant(can_write: bool, all: bool, names_tag: &str) -> String {
    format!(
        "sheet-{}{}{}",
        if can_write { "w" } else { "r" },
        if all { "-all" } else { "" },
        names_tag
    )
}

/// Re-renders the sheet with the refused values and error (422, 409 when stale, 503 with
/// `Retry-After` when the database was busy or away).
pub(super) async fn refused(
    state: &AppState,
    id: SessionId,
    values: &HashMap<String, String>,
    e: AppError,
) -> Response {
    let status = e.status();
    let mut error = PageError::from(&e);
    // Another device's event (a stale form), not another kind of conflict (a night's).
    let conflict = matches!(&e, AppError::Conflict { field, .. } if field == "expected_events");
    let seen = expected_events(values).ok().flatten();
    let values = if conflict {
        HashMap::new()
    } else {
        values.clone()
    };
    let renamed = service::history::renamed_for_session(&state.reader, id).await;
    let night = super::sheet::night_on_sheet(state, id).await;
    match service::load(&state.reader, &state.folds, id)
        .await
        .and_then(|l| {
            if conflict {
                // Counted in hands as the sheet numbers them, not in events.
                error.message = super::sheet::stale_words(&l.fold, seen);
            }
            let shown = crate::history::names::shown(&l.doc, &l.fold, &renamed?);
            let all = values.contains_key("all");
            let page = sheet_page(&Showing::of_loaded(&l, all), &values, Some(error), true)?
                .shown_as(&l, shown.as_ref(), &values)?;
            Ok(page.in_night(night?))
        }) {
        // A 503's page says when to send the form again, as the API's 503 does.
        Ok(page) => with_retry_after_of(&e, (status, page).into_response()),
        Err(e) => error_page(e),
    }
}

/// The settle-up's "every hand" page: where a transfer's two balances came from
/// ([`history_of`]).
#[derive(Template, WebTemplate)]
#[template(path = "sessions/why.html")]
struct WhyPage {
    id: SessionId,
    lines: Vec<String>,
}

/// `GET /sessions/{id}/why?from=A&to=B`: the "every hand" page, read from the whole session
/// on demand; recorded names, shown under current names. Errors: the sheet's.
pub(super) async fn why(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let page = async {
        match clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Read).await {
            Err(e) if viewer.grant.is_none() => return Ok(club_pages::session_not_open(id, e)),
            refused => refused?,
        }
        let renamed = service::history::renamed_for_session(&state.reader, id).await?;
        let current = service::load(&state.reader, &state.folds, id).await?;
        let shown = crate::history::names::shown(&current.doc, &current.fold, &renamed);
        let (fold, currency) = match &shown {
            Some(s) => (&s.fold, s.doc.currency.as_str()),
            None => (&current.fold, current.doc.currency.as_str()),
        };
        let lines = ["from", "to"]
            .into_iter()
            .filter_map(|k| query.get(k))
            .map(|recorded| {
                let account = shown
                    .as_ref()
                    .map_or(recorded.as_str(), |s| s.name(recorded));
                history_of(fold, account, currency)
            })
            .collect();
        Ok::<_, AppError>(WhyPage { id, lines }.into_response())
    };
    page.await.unwrap_or_else(error_page)
}

/// `Retry-After` seconds for a sheet refused by the live bounds.
const LIVE_RETRY_AFTER_SECS: u32 = 30;

/// `GET /sessions/{id}/live`: a server-sent `changed` event per change, bounded by
/// [`crate::web::live::LiveLimits`] (503 with `Retry-After` past them).
pub async fn live(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
) -> Result<Response, AppError> {
    clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Read).await?;
    let watch = match state.watchers.watch(id) {
        Ok(watch) => watch,
        Err(full) => {
            return Ok((
                StatusCode::SERVICE_UNAVAILABLE,
                [
                    (header::RETRY_AFTER, LIVE_RETRY_AFTER_SECS.to_string()),
                    (header::CACHE_CONTROL, "no-store".to_string()),
                ],
                full.message(),
            )
                .into_response());
        }
    };
    // A change made on another instance before this instance listens to the session's
    // shard would not reach it; past the wait, a reconnect wakes every sheet anyway.
    state.watchers.relayed(id).await;
    let changes = watch.map(move |()| {
        Ok::<_, std::convert::Infallible>(Event::default().event("changed").data(id.to_string()))
    });
    Ok(Sse::new(changes)
        .keep_alive(KeepAlive::default())
        .into_response())
}
