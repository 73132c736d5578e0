//! The sheet's forms that record an event: hand, undo, close, reopen, payment and its void,
//! table change. Each redirects (303) or re-renders the sheet with the refusal (422).

use std::collections::HashMap;

use axum::extract::{Form, FromRequest, FromRequestParts, Path, RawForm, Request, State};
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::{Value, json};

use super::{error_page, form_map, offline, preview, sheet_routes};
use crate::error::AppError;
use crate::ids::SessionId;
use crate::rules::GameInfo;
use crate::service;
use crate::service::clubs::{self, Access};
use crate::session::{EventKind, NewEvent};
use crate::web::AppState;
use crate::web::auth::Viewer;

/// The form's hidden `expected_events`, if any. Errors: [`AppError::BadRequest`] when not a
/// count.
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

/// Every form whose event needs only the session's game: checks write access, builds and
/// records the event, wakes live sheets, redirects (303). The game comes from the cache, so
/// an entry at hand 1,000 costs what the API's does. A refusal re-renders the sheet.
async fn write_event<F, E>(
    state: &AppState,
    viewer: &Viewer,
    id: SessionId,
    values: &HashMap<String, String>,
    (redirect, key): (String, Option<String>),
    build: F,
) -> Response
where
    F: FnOnce(&'static GameInfo) -> Result<E, AppError>,
    E: Into<NewEvent>,
{
    let event = async { build(service::game(&state.reader, &state.folds, id).await?) };
    let to = (redirect, key, Built::FromForm);
    write(state, viewer, id, values, to, event).await
}

/// Where a form's event comes from, which tells a retry of a keyed post from another post
/// under the same key.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Built {
    /// From the form's fields alone: a retry builds the very event again.
    FromForm,
    /// From the session's history (the hand an undo takes back): after the first post it
    /// would build another, so only the count the form saw tells.
    FromHistory,
}

/// Records the event `event` makes, under the form's `Idempotency-Key` if any. The key is
/// looked up before the event is recorded: a repeated undo would otherwise undo another
/// hand. A key that recorded another event is refused as the API refuses it (422).
async fn write(
    state: &AppState,
    viewer: &Viewer,
    id: SessionId,
    values: &HashMap<String, String>,
    (redirect, key, built): (String, Option<String>, Built),
    event: impl Future<Output = Result<impl Into<NewEvent>, AppError>>,
) -> Response {
    let attempt = async {
        clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Write).await?;
        let seen = expected_events(values)?;
        if let Some(key) = key.as_deref()
            && let Some(seq) = offline::recorded(&state.reader, id, key).await?
        {
            repeat_of(state, id, seq, seen, built, event).await?;
            return Ok(true);
        }
        let event = event.await?;
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

/// Whether a post under a key that recorded event `seq - 1` is a retry of that post. That
/// event went in when the session had `seq - 1` events, which the form's `expected_events`
/// then said: a form that saw another count, or (built from its fields) makes another
/// event, is another post. Errors: [`crate::web::idempotency::reused`]; building's.
async fn repeat_of(
    state: &AppState,
    id: SessionId,
    seq: usize,
    seen: Option<usize>,
    built: Built,
    event: impl Future<Output = Result<impl Into<NewEvent>, AppError>>,
) -> Result<(), AppError> {
    let refused = || crate::web::idempotency::reused(seq);
    if seen.is_some_and(|n| n + 1 != seq) {
        return Err(refused());
    }
    if built == Built::FromHistory {
        return Ok(());
    }
    let event: NewEvent = event.await?.into();
    let loaded = service::load(&state.reader, &state.folds, id).await?;
    let stored = seq.checked_sub(1).and_then(|i| loaded.doc.events.get(i));
    if stored != Some(event.written()) {
        return Err(refused());
    }
    Ok(())
}

pub(super) async fn enter_hand(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
    offline::FormKey(key): offline::FormKey,
    RawForm(body): RawForm,
) -> Response {
    let values = form_map(serde_html_form::from_bytes(&body).unwrap_or_default());
    write_event(
        &state,
        &viewer,
        id,
        &values,
        (format!("/sessions/{id}#latest"), key),
        |game| {
            seen_required(&values)?;
            preview::hand_event(game, &values, &body)
        },
    )
    .await
}

/// Refuses a hand form without `expected_events`. Every hand form carries it, and it is
/// what stops a second phone's post of the same hand: a post without it would be recorded
/// however many hands went in meanwhile. Errors: [`AppError::BadRequest`] (field
/// `expected_events`).
fn seen_required(values: &HashMap<String, String>) -> Result<(), AppError> {
    match values.contains_key("expected_events") {
        true => Ok(()),
        false => Err(AppError::BadRequest {
            field: "expected_events".into(),
            message: "the form is damaged (it does not say which hands it saw); reload the page"
                .into(),
        }),
    }
}

/// `event` with the form's trimmed `reason`, if written.
pub(super) fn with_reason(mut event: Value, values: &HashMap<String, String>) -> Value {
    if let Some(reason) = values
        .get("reason")
        .map(|r| r.trim())
        .filter(|r| !r.is_empty())
    {
        event["reason"] = Value::from(reason);
    }
    event
}

/// A recording form's post: app, viewer, session id, `Idempotency-Key` and fields, read in
/// the order the handlers' extractors ran, so refusals stay the same.
pub(super) struct SheetPost {
    state: AppState,
    viewer: Viewer,
    id: SessionId,
    key: Option<String>,
    values: HashMap<String, String>,
}

impl FromRequest<AppState> for SheetPost {
    type Rejection = Response;

    async fn from_request(request: Request, state: &AppState) -> Result<SheetPost, Response> {
        let (mut parts, body) = request.into_parts();
        let viewer = Viewer::from_request_parts(&mut parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let Path(id) = Path::<SessionId>::from_request_parts(&mut parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let offline::FormKey(key) = offline::FormKey::from_request_parts(&mut parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let request = Request::from_parts(parts, body);
        let Form(form) = Form::<Vec<(String, String)>>::from_request(request, state)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(SheetPost {
            state: state.clone(),
            viewer,
            id,
            key,
            values: form_map(form),
        })
    }
}

impl SheetPost {
    /// [`write`] for this post, then the sheet at `anchor` (`"#latest"`).
    async fn write(
        &self,
        anchor: &str,
        built: Built,
        event: impl Future<Output = Result<Value, AppError>>,
    ) -> Response {
        let to = (
            format!("/sessions/{}{anchor}", self.id),
            self.key.clone(),
            built,
        );
        write(&self.state, &self.viewer, self.id, &self.values, to, event).await
    }

    /// An event built from the session's game alone, as [`write_event`] builds one.
    async fn event<F>(&self, anchor: &str, build: F) -> Response
    where
        F: FnOnce(&'static GameInfo) -> Result<Value, AppError>,
    {
        let (reader, folds) = (&self.state.reader, &self.state.folds);
        let game = async { build(service::game(reader, folds, self.id).await?) };
        self.write(anchor, Built::FromForm, game).await
    }

    /// An event that takes back one that stands (the hand an undo or the payment a void
    /// takes back), found in the session's cached state, not its history.
    async fn amendment<F>(&self, anchor: &str, build: F) -> Response
    where
        F: FnOnce(&service::TakeBack) -> Result<Value, AppError>,
    {
        let (reader, folds) = (&self.state.reader, &self.state.folds);
        let found = async { build(&service::take_back(reader, folds, self.id).await?) };
        self.write(anchor, Built::FromHistory, found).await
    }
}

/// "Undo last hand": a `void` of the last standing hand; `expected_events` refuses it when
/// another device changed the sheet.
pub(super) async fn undo(post: SheetPost) -> Response {
    post.amendment("#latest", |standing| {
        let last = standing.last_hand.ok_or_else(|| AppError::BadRequest {
            field: "event".into(),
            message: "there is no hand to undo".into(),
        })?;
        Ok(json!({ "type": EventKind::Void, "event": last, "reason": "undo last hand" }))
    })
    .await
}

/// Closes the sitting: the kitty is shared out and the settlement is final.
pub(super) async fn close(post: SheetPost) -> Response {
    post.event("#settle", |_| Ok(json!({ "type": EventKind::Close })))
        .await
}

/// "Reopen": takes the close back (a `reopen` event with the reason given), so play goes on.
pub(super) async fn reopen(post: SheetPost) -> Response {
    let event = with_reason(json!({ "type": EventKind::Reopen }), &post.values);
    post.event("#latest", |_| Ok(event)).await
}

/// "Void" a payment: a `void` of a payment that stands (a mis-tapped "Mark paid").
pub(super) async fn void_payment(post: SheetPost) -> Response {
    let event = post
        .values
        .get("event")
        .and_then(|v| v.parse::<usize>().ok());
    post.amendment("#settle", |standing| {
        let event = event
            .filter(|i| standing.payments.contains(i))
            .ok_or_else(|| AppError::BadRequest {
                field: "payment".into(),
                message: "that payment is no longer on the sheet; reload the page".into(),
            })?;
        Ok(json!({ "type": EventKind::Void, "event": event, "reason": "payment voided" }))
    })
    .await
}

/// "Mark paid": records a `payment` of one proposed transfer.
pub(super) async fn mark_paid(post: SheetPost) -> Response {
    let values = &post.values;
    post.event("#settle", |_| {
        let field = |name: &str| {
            values.get(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).ok_or_else(|| AppError::BadRequest {
                field: name.into(),
                message: "the form is damaged; reload the page".into(),
            })
        };
        Ok(json!({ "type": EventKind::Payment, "from": field("from")?, "to": field("to")?, "amount": field("amount")? }))
    })
    .await
}

/// "Table changes": a player joins or leaves, or the kitty is divided by consent (rules §1.2
/// rules 6–8).
pub(super) async fn table_change(post: SheetPost) -> Response {
    let values = &post.values;
    post.event("#latest", |_| {
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
    })
    .await
}
