//! The hand form's what-if preview, `POST /sessions/{id}/preview`: the row the hand would
//! add, laid out by the sheet's own template, or the refusal as a submit would show it.
//! Writes nothing; why a server round trip: [`crate::service::WhatIf`]'s module.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::time::Duration;

use askama::Template;
use axum::extract::{Path, RawForm, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde_json::json;

use super::{PageError, error_page, expected_events, form_map, with_reason};
use crate::error::AppError;
use crate::ids::SessionId;
use crate::rules::GameInfo;
use crate::rules::to_make::to_make;
use crate::service::WhatIf;
use crate::service::clubs::{self, Access};
use crate::session::sheet::{self as model, Context, SheetView};
use crate::session::{EventKind, NewEvent};
use crate::web::AppState;
use crate::web::auth::Viewer;

/// The largest preview body, in bytes (the largest hand form is a few KiB); 413 past it.
pub const PREVIEW_BODY_LIMIT: usize = 64 * 1024;

/// Previews per session at once, then one per [`PREVIEW_EVERY`]; the form asks at most
/// once per 250 ms pause in typing, so a scorer never meets it.
const PREVIEW_BURST: u32 = 20;

const PREVIEW_EVERY: Duration = Duration::from_millis(100);

const PRUNE_ABOVE: usize = 10_000;

/// Previews per session: each folds a hand, so a script cannot make the server fold without
/// end. Keyed after the write check, so only real sessions are keys.
pub struct PreviewLimits(DefaultKeyedRateLimiter<SessionId>);

impl Default for PreviewLimits {
    fn default() -> PreviewLimits {
        let burst = NonZeroU32::new(PREVIEW_BURST).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::with_period(PREVIEW_EVERY)
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst);
        PreviewLimits(RateLimiter::keyed(quota))
    }
}

impl PreviewLimits {
    /// Whether session `id` may have one more preview now.
    fn allow(&self, id: SessionId) -> bool {
        let allowed = self.0.check_key(&id).is_ok();
        if self.0.len() > PRUNE_ABOVE {
            self.0.retain_recent();
        }
        allowed
    }
}

/// The fragment: the would-be row as the sheet lays it out, what the bidder needs, or the
/// refusal.
#[derive(Template)]
#[template(path = "sessions/preview.html")]
struct Preview {
    /// The sheet of the one row, when the rules accept the hand.
    row: Option<SheetView>,
    /// What the bidder needs to make the contract ([`to_make`]).
    needs: Option<String>,
    /// The refusal in the form's words.
    error: Option<PageError>,
    /// Always true: only a writer previews, and a writer's rows show whole.
    can_write: bool,
}

/// The hand the hand form's `values` make for `game`, typed for the engine; with
/// `correct_event`, the correction it makes, as written. Shared by preview and record.
/// Errors name the field.
pub(super) fn hand_event(
    game: &GameInfo,
    values: &HashMap<String, String>,
    body: &[u8],
) -> Result<NewEvent, AppError> {
    let hand = (game.hand_from_form)(body)?;
    let Some(target) = values.get("correct_event").filter(|v| !v.is_empty()) else {
        return Ok(NewEvent::Typed(hand));
    };
    let target: usize = target.parse().map_err(|_| AppError::BadRequest {
        field: "correct_event".into(),
        message: "the form is damaged; reload the page".into(),
    })?;
    Ok(NewEvent::Written(with_reason(
        json!({ "type": EventKind::Correction, "event": target, "replacement": hand.written }),
        values,
    )))
}

/// `POST /sessions/{id}/preview`: 200 with the would-be row; 422 (409 when stale) with the
/// refusal. Access as for recording a hand; 413 past [`PREVIEW_BODY_LIMIT`], 429 past
/// [`PreviewLimits`].
pub(super) async fn preview(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
    RawForm(body): RawForm,
) -> Response {
    let values = form_map(serde_html_form::from_bytes(&body).unwrap_or_default());
    let attempt = async {
        clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Write).await?;
        if !state.previews.allow(id) {
            return Err(AppError::TooManyRequests(
                "too many previews at once; the next pause in typing asks again".into(),
            ));
        }
        // A number the form did not send is refused by the rules; the whole session reads it.
        let correcting = values
            .get("correct_event")
            .filter(|v| !v.is_empty())
            .map(|v| v.parse::<usize>().unwrap_or(0));
        let mut copy = WhatIf::load(&state.reader, &state.folds, id, correcting).await?;
        let applied = expected_events(&values)
            .and_then(|seen| Ok((hand_event(copy.game(), &values, &body)?, seen)))
            .and_then(|(event, seen)| copy.apply(&event, seen));
        Ok((copy, applied))
    };
    let (copy, applied) = match attempt.await {
        Ok(tried) => tried,
        Err(e @ AppError::TooManyRequests(_)) => {
            let mut response = (e.status(), e.public_message()).into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            return response;
        }
        Err(e) => return error_page(e),
    };
    let needs = to_make(copy.game().id, &values, copy.seated());
    let (status, row, error) = match applied {
        Ok(()) => (StatusCode::OK, Some(row_of(&copy, id)), None),
        Err(e) => (e.status(), None, Some(PageError::from(&e))),
    };
    let fragment = match (Preview {
        row,
        needs,
        error,
        can_write: true,
    })
    .render()
    {
        // The page already has the `id="latest"` row.
        Ok(html) => html.replacen(" id=\"latest\"", "", 1),
        Err(e) => return error_page(AppError::Internal(e.to_string())),
    };
    let headers = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    (status, headers, fragment).into_response()
}

/// The copy's last row as the sheet lays it out, without opening line, links or times.
fn row_of(copy: &WhatIf, id: SessionId) -> SheetView {
    let recorded = Default::default();
    let mut view = model::sheet(
        &copy.source(),
        &Context {
            session_id: id.0,
            correctable: false,
            recorded: &recorded,
            currency: copy.currency(),
        },
    );
    view.start = None;
    view
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_gets_a_burst_of_previews_then_waits_and_others_are_not_held_up() {
        let limits = PreviewLimits::default();
        for n in 0..PREVIEW_BURST {
            assert!(limits.allow(SessionId(7)), "preview {n} of the burst");
        }
        assert!(!limits.allow(SessionId(7)), "the 21st at once waits");
        assert!(
            limits.allow(SessionId(8)),
            "another session has its own allowance"
        );
    }
}
