//! What a hand would do, without recording it: the session's current
//! state is read, the event is applied to a copy of it by the same pure step that
//! [`super::record_event`] runs, and the copy's last row is what the hand form's preview
//! shows. Load → pure step → render: nothing is written, and the cache of folded sessions
//! is neither filled nor reordered ([`super::Folds`]), so a preview leaves no trace.
//!
//! Why a round trip to the server rather than the engine in WebAssembly in the browser:
//! one engine, the one that records the hand, so the preview cannot disagree with the row
//! that appears after Enter; no second build (a wasm target, its bindings and a bundle the
//! service worker must keep in step with the server), and no copy of a session's state on
//! the phone. The cost is one small request per pause in typing, against a state the cache
//! usually holds already.

use serde_json::Value;

use super::reading::{load_fresh, load_tip};
use super::{Folds, Target, apply_one};
use crate::error::AppError;
use crate::ids::SessionId;
use crate::rules::GameInfo;
use crate::session::Tip;
use crate::session::sheet::Source;
use crate::session::window::SHEET_LINES;
use crate::store::{self, ReadPool};

/// A copy of a session's state to try a hand on ([`WhatIf::load`], [`WhatIf::apply`]):
/// after an accepted hand, its last row is the row the hand would add to the sheet. Owned
/// by the caller; the session and the cache are unchanged whatever is done to it.
pub struct WhatIf {
    /// The copy of the session's state.
    target: Target,
    /// The session's currency code ("USD"), for the row's money.
    currency: String,
}

impl WhatIf {
    /// A copy of session `id`'s current state, read as [`super::record_event`] reads it
    /// (`whole`: the whole session read and replayed, for an event that needs the history
    /// such as a correction; else the state after its last event), but without writing
    /// anything: a state the cache holds for every stored event is copied without
    /// counting as a use, otherwise the session is read from the store into a state of
    /// its own that is not cached. Errors: [`AppError::NotFound`]; the store's.
    pub async fn load(
        pool: &ReadPool,
        folds: &Folds,
        id: SessionId,
        whole: bool,
    ) -> Result<WhatIf, AppError> {
        // The count and the header are read before the slot is looked at, so no
        // connection is held while waiting for a writer (the lock order of `folds`).
        let (stored, currency) = {
            let mut conn = pool.acquire().await?;
            let header = store::session(&mut conn, id)
                .await?
                .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
            (store::event_count(&mut conn, id).await?, header.currency)
        };
        let cached = match folds.peek(id).filter(|_| !whole) {
            Some(slot) => slot
                .read()
                .await
                .as_ref()
                .filter(|k| k.events() >= stored)
                .cloned(),
            None => None,
        };
        let target = match cached {
            Some(kept) => Target::Tip(kept),
            None => {
                let mut conn = pool.acquire().await?;
                match whole {
                    true => Target::Whole(Box::new(load_fresh(&mut conn, id).await?)),
                    false => Target::Tip(load_tip(&mut conn, id).await?),
                }
            }
        };
        Ok(WhatIf { target, currency })
    }

    /// Applies `event` to the copy as the session's next event, by the same step as
    /// [`super::record_event`]: `expected_events` (the count the form saw) is checked
    /// first. Errors: [`AppError::Conflict`] naming `expected_events` when the session
    /// has moved on; the rules' refusal naming the field and the rule; on error the copy
    /// is unchanged.
    pub fn apply(&mut self, event: &Value, expected_events: Option<usize>) -> Result<(), AppError> {
        if Tip::needs_history(event) && matches!(self.target, Target::Tip(_)) {
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

    /// The sheet's source showing only the copy's last row (after [`WhatIf::apply`], the
    /// row the event would add; the rows before it count toward its running money), to
    /// be laid out by the sheet's own [`crate::session::sheet::sheet`].
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
