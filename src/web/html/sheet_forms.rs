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
use crate::service::clubs::{self, Access};
use crate::service::{self, Loaded};
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
    write(state, viewer, id, values, (redirect, key), event).await
}

/// Records the event `event` makes, under the form's `Idempotency-Key` if any. The key is
/// looked up before the event is built: a repeated undo would otherwise undo another hand.
async fn write(
    state: &AppState,
    viewer: &Viewer,
    id: SessionId,
    values: &HashMap<String, String>,
    (redirect, key): (String, Option<String>),
    event: impl Future<Output = Result<impl Into<NewEvent>, AppError>>,
) -> Response {
    let attempt = async {
        clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Write).await?;
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
        |game| preview::hand_event(game, &values, &body),
    )
    .await
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
        event: impl Future<Output = Result<Value, AppError>>,
    ) -> Response {
        let to = (format!("/sessions/{}{anchor}", self.id), self.key.clone());
        write(&self.state, &self.viewer, self.id, &self.values, to, event).await
    }

    /// An event built from the session's game alone, as [`write_event`] builds one.
    async fn event<F>(&self, anchor: &str, build: F) -> Response
    where
        F: FnOnce(&'static GameInfo) -> Result<Value, AppError>,
    {
        let (reader, folds) = (&self.state.reader, &self.state.folds);
        let game = async { build(service::game(reader, folds, self.id).await?) };
        self.write(anchor, game).await
    }

    /// An event found in the session's history (the hand an undo or payment a void takes
    /// back): the session is replayed first, and let go before the write.
    async fn amendment<F>(&self, anchor: &str, build: F) -> Response
    where
        F: FnOnce(&Loaded) -> Result<Value, AppError>,
    {
        let (reader, folds) = (&self.state.reader, &self.state.folds);
        let found = async { build(&*service::load(reader, folds, self.id).await?) };
        self.write(anchor, found).await
    }
}

/// "Undo last hand": a `void` of the last standing hand; `expected_events` refuses it when
/// another device changed the sheet.
pub(super) async fn undo(post: SheetPost) -> Response {
    post.amendment("#latest", |loaded| {
        let last = loaded
            .fold
            .last_standing_hand()
            .ok_or_else(|| AppError::BadRequest {
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
    post.amendment("#settle", |loaded| {
        let event = event
            .filter(|&i| loaded.fold.standing_kind(i) == Some(EventKind::Payment))
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
