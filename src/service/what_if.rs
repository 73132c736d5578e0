//! What a hand would do, without recording it: [`super::record_event`]'s pure step on a
//! copy of the state; its last row is the form's preview. Nothing written and the cached tip
//! untouched; a copy folded whole is taken from the fold kept for the correction itself.
//! A server round trip, not WebAssembly: one engine, so the preview cannot disagree with
//! the recorded row, and no second build to keep in step.

use super::folds::{self, Held};
use super::reading::{load_tip, whole_to_try};
use super::{Folds, Target, apply_one};
use crate::error::AppError;
use crate::ids::SessionId;
use crate::rules::GameInfo;
use crate::session::NewEvent;
use crate::session::sheet::Source;
use crate::session::window::SHEET_LINES;
use crate::store::{self, ReadPool};

/// A copy of a session's state to try a hand on; the session and cache are unchanged.
pub struct WhatIf {
    target: Target,
    /// Currency code, for the row's money.
    currency: String,
}

impl WhatIf {
    /// A copy of session `id`'s current state, read as [`super::record_event`] would: its tip,
    /// or folded whole when `correcting` (the event a correction would replace) is before
    /// the tip's tail ([`crate::session::Tip::amends_within`]), from the whole fold kept for
    /// the correction itself ([`super::reading::whole_to_try`]). Writes nothing, and a
    /// cached tip is read without counting as a use. Errors: [`AppError::NotFound`]; the
    /// store's.
    pub async fn load(
        pool: &ReadPool,
        folds: &Folds,
        id: SessionId,
        correcting: Option<usize>,
    ) -> Result<WhatIf, AppError> {
        let whole = |kept: &super::Kept| correcting.is_some_and(|t| !kept.tip.amends_within(t));
        // Read before looking at the slot (the lock order of `folds`).
        let (stored, currency) = {
            let mut conn = pool.acquire().await?;
            let header = store::session(&mut conn, id)
                .await?
                .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
            (store::event_count(&mut conn, id).await?, header.currency)
        };
        let cached = match folds.peek(id) {
            Some(slot) => folds::settled(&slot)
                .await
                .as_ref()
                .and_then(Held::state)
                .filter(|k| k.events() >= stored)
                .cloned(),
            None => None,
        };
        let kept = match cached {
            Some(kept) => kept,
            None => load_tip(&mut pool.acquire().await?, id).await?,
        };
        let target = match whole(&kept) {
            true => Target::Whole(whole_to_try(pool, folds, id).await?),
            false => Target::Tip(kept),
        };
        Ok(WhatIf { target, currency })
    }

    /// Applies `event` as the next event, as [`super::record_event`] does. Errors:
    /// [`AppError::Conflict`] naming `expected_events`; the rules' refusal. On error unchanged.
    pub fn apply(
        &mut self,
        event: &NewEvent,
        expected_events: Option<usize>,
    ) -> Result<(), AppError> {
        if let Target::Tip(kept) = &self.target
            && kept.tip.reaches_before(event.written())
        {
            return Err(AppError::Internal(
                "a correction is tried on the whole session, not its tip".into(),
            ));
        }
        apply_one(&mut self.target, event, expected_events).map(|_| ())
    }

    /// The game played.
    pub fn game(&self) -> &'static GameInfo {
        match &self.target {
            Target::Tip(kept) => kept.tip.game(),
            Target::Whole(loaded) => loaded.fold.game(),
        }
    }

    /// The players seated in the copy, clockwise.
    pub fn seated(&self) -> &[String] {
        match &self.target {
            Target::Tip(kept) => kept.tip.table().seated(),
            Target::Whole(loaded) => loaded.fold.table().seated(),
        }
    }

    /// The sheet's source showing only the copy's last row (earlier rows count toward its
    /// running money), for [`crate::session::sheet::sheet`].
    pub fn source(&self) -> Source<'_> {
        let mut source = match &self.target {
            Target::Tip(kept) => Source::of_tip(&kept.tip),
            Target::Whole(loaded) => Source::of_fold(&loaded.fold, Some(SHEET_LINES)),
        };
        source.keep_last(1);
        source
    }

    /// The session's currency code ("USD").
    pub fn currency(&self) -> &str {
        &self.currency
    }
}
