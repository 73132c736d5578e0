//! The hand form's what-if preview: `POST /sessions/{id}/preview` takes
//! the hand form's fields as they stand and answers an HTML fragment: the row this hand
//! would add to the sheet, laid out by the sheet's own view-model and template, with what
//! the bidder needs to make the contract; or the refusal in the form's words, as a submit
//! would show it. It writes nothing ([`crate::service::WhatIf`]).
//!
//! A server round trip rather than the engine in WebAssembly: one engine, the very step
//! that records the hand, so the preview cannot differ from the row after Enter, and no
//! second build of the rules for the browser (see [`crate::service::WhatIf`]'s module).

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::time::Duration;

use askama::Template;
use axum::extract::{Path, RawForm, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde_json::{Value, json};

use super::{PageError, error_page, expected_events, form_map, with_reason};
use crate::error::AppError;
use crate::ids::SessionId;
use crate::rules::GameInfo;
use crate::rules::to_make::to_make;
use crate::service::WhatIf;
use crate::service::clubs::{self, Access};
use crate::session::EventKind;
use crate::session::sheet::{self as model, Context, SheetView};
use crate::web::AppState;
use crate::web::auth::Viewer;

/// The largest preview body accepted, in bytes: a hand form at the largest table (ten
/// poker players' cards and amounts, an Auction game's nine rounds) is a few KiB. Larger
/// is refused (413) before anything is read.
pub const PREVIEW_BODY_LIMIT: usize = 64 * 1024;

/// Previews one session may ask for at once (a burst), then [`PREVIEW_EVERY`] apart: the
/// form asks at most once per pause in typing (250 ms), so a scorer never meets it.
const PREVIEW_BURST: u32 = 20;

/// The time between previews of one session past the burst.
const PREVIEW_EVERY: Duration = Duration::from_millis(100);

/// Sessions remembered by the limiter before it forgets those back at a full allowance.
const PRUNE_ABOVE: usize = 10_000;

/// Previews per session ([`PREVIEW_BURST`] at once, then one every [`PREVIEW_EVERY`]):
/// each one folds a hand, so a script cannot make the server fold without end. Keyed by
/// the session after its write access is checked, so only real sessions are keys.
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

/// The fragment: the would-be row as the sheet lays it out (its head, the row, the foot
/// with where each column would stand), what the bidder needs, or the refusal.
#[derive(Template)]
#[template(path = "sessions/preview.html")]
struct Preview {
    /// The sheet of the one row, when the rules accept the hand.
    row: Option<SheetView>,
    /// What the bidder needs to make the contract ([`to_make`]).
    needs: Option<String>,
    /// The refusal in the form's words.
    error: Option<PageError>,
    /// Always true: only a writer previews, and the sheet's rows show whole to a writer
    /// (`sessions/sheet_table.html` folds a watcher's older rows).
    can_write: bool,
}

/// The hand event the hand form's `body` makes for `game` (`values`: its fields by name):
/// the game's hand, or with `correct_event` a correction of that event, with the form's
/// reason. What both the preview and recording the hand post build. Errors name the field.
pub(super) fn hand_event(
    game: &GameInfo,
    values: &HashMap<String, String>,
    body: &[u8],
) -> Result<Value, AppError> {
    let mut hand = (game.hand_from_form)(body)?;
    // The melds named in the calculator, kept with the hand.
    if let Some(named) = crate::rules::meld::detail::from_form(&hand, values.iter()) {
        hand["meld_detail"] = named;
    }
    let Some(target) = values.get("correct_event").filter(|v| !v.is_empty()) else {
        return Ok(hand);
    };
    let target: usize = target.parse().map_err(|_| AppError::BadRequest {
        field: "correct_event".into(),
        message: "the form is damaged; reload the page".into(),
    })?;
    Ok(with_reason(
        json!({ "type": EventKind::Correction, "event": target, "replacement": hand }),
        values,
    ))
}

/// `POST /sessions/{id}/preview`: the hand form's fields (form-encoded, as the hand post)
/// tried on a copy of the session: 200 with the would-be row, 422 (409 for a form another
/// device's hand made stale) with the refusal in the form's words. The same access as
/// recording a hand (a club member or token, a session's write link); a watcher is
/// refused as on the hand post. Bounded: at most [`PREVIEW_BODY_LIMIT`] bytes (413) and
/// [`PreviewLimits`] per session (429 with `Retry-After: 1`). Writes nothing.
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
        let whole = values.get("correct_event").is_some_and(|v| !v.is_empty());
        let mut copy = WhatIf::load(&state.reader, &state.folds, id, whole).await?;
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
        // The sheet marks its last row `id="latest"` (where "#latest" lands after a
        // hand); the page already has that row, so the would-be row goes without it.
        Ok(html) => html.replacen(" id=\"latest\"", "", 1),
        Err(e) => return error_page(AppError::Internal(e.to_string())),
    };
    let headers = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    (status, headers, fragment).into_response()
}

/// The sheet of the copy's last row as the sheet page lays it out: no opening line, no
/// "correct" link or times (the row is not recorded).
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

/// `GET /static/preview.js`: the hand forms' preview script (`templates/preview.js`).
pub(super) async fn script() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=300"),
        ],
        include_str!("../../../templates/preview.js"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_gets_a_burst_of_previews_then_waits_and_others_are_not_held_up() {
        let limits = PreviewLimits::default();
        // 20 at once (a phone asks once per 250 ms pause, so a scorer never meets this).
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
