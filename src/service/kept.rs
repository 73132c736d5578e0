//! What the cache keeps of each open session: its tip and, for a club's session, its
//! history facts, which each plain event changes by its own difference.

use crate::ids::ClubId;
use crate::store::Connected;
use chrono::{DateTime, Utc};
use serde_json::Value;

use super::reading::Whole;
use super::{Loaded, no_longer_replays};
use crate::error::AppError;
use crate::format::{self, LedgerEvent, SessionDoc};
use crate::history::{self, FactsDelta, SessionFacts};
use crate::ids::SessionId;
use crate::session::{Entry, Fold, NewEvent, Tip};
use crate::store;

/// What the cache keeps of one session; its size does not grow with the hands played.
#[derive(Debug, Clone)]
pub struct Kept {
    /// The club that owns it; `None` for an open session (a session never changes club).
    pub club_id: Option<ClubId>,
    /// The fold's state after the last event.
    pub tip: Tip,
    /// A club session's history facts, changed by each plain event's difference.
    pub history: Option<Box<ClubFacts>>,
}

/// A club session's history facts as they stand, with what writing them needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClubFacts {
    /// The club that owns the session.
    pub club_id: ClubId,
    /// When the session was created: the night's date in the history.
    pub played_at: DateTime<Utc>,
    /// The document's seats, clockwise (a side's members for a game won by a side).
    pub players: Vec<String>,
    /// The facts ([`crate::history::session_facts`] of the session as it stands).
    pub facts: SessionFacts,
}

impl Kept {
    pub(super) fn of(loaded: &Loaded) -> Result<Kept, AppError> {
        let at = (loaded.club_id, loaded.created_at);
        Kept::of_fold(loaded.id, at, &loaded.doc, &loaded.fold)
    }

    /// The state of `whole`, with its club's `facts` when already computed.
    pub(super) fn of_whole(whole: &Whole, facts: Option<SessionFacts>) -> Result<Kept, AppError> {
        let at = (whole.club_id, whole.created_at);
        Kept::of_fold_with(whole.id, at, &whole.header, &whole.fold, facts)
    }

    /// Session `id`'s state from header `doc` and its whole `fold` (rows may be slimmed but
    /// for the sheet's window).
    pub(super) fn of_fold(
        id: SessionId,
        at: (Option<ClubId>, DateTime<Utc>),
        doc: &SessionDoc,
        fold: &Fold,
    ) -> Result<Kept, AppError> {
        Kept::of_fold_with(id, at, doc, fold, None)
    }

    /// [`Kept::of_fold`] with a club session's `facts` when already computed (else folded).
    fn of_fold_with(
        id: SessionId,
        (club_id, created_at): (Option<ClubId>, DateTime<Utc>),
        doc: &SessionDoc,
        fold: &Fold,
        facts: Option<SessionFacts>,
    ) -> Result<Kept, AppError> {
        let history = match club_id {
            Some(club_id) => {
                let facts = match facts {
                    Some(facts) => facts,
                    None => crate::history::session_facts(
                        fold,
                        &doc.agreements,
                        &doc.players,
                        doc.opening_scores.as_ref(),
                    )
                    .map_err(|r| no_longer_replays(id, &r))?,
                };
                Some(Box::new(ClubFacts {
                    club_id,
                    played_at: created_at,
                    players: doc.players.clone(),
                    facts,
                }))
            }
            None => None,
        };
        Ok(Kept {
            club_id,
            tip: Tip::of(fold).map_err(|r| no_longer_replays(id, &r))?,
            history,
        })
    }

    /// How many events it holds.
    pub fn events(&self) -> usize {
        self.tip.events()
    }

    /// [`Kept::apply`] while reading the stored session: on error drop this state.
    pub(super) fn apply_or_drop(&mut self, event: &Value) -> Result<(), AppError> {
        self.step(event.into())
    }

    /// Applies `event`: its ledger entry and facts difference. Errors: the rules' refusal;
    /// on a refusal nothing changes, on any other error this state must be dropped.
    pub(super) fn apply(
        &mut self,
        event: &NewEvent,
    ) -> Result<(Option<LedgerEvent>, Option<FactsWrite>), AppError> {
        let before = self.history.as_ref().map(|h| h.facts.clone());
        self.step(event.into())?;
        let Some(row) = self.tip.last_row() else {
            return Ok((None, None));
        };
        let write = self
            .history
            .as_ref()
            .zip(before)
            .map(|(h, before)| FactsWrite {
                club_id: h.club_id,
                game: self.tip.game().id,
                played_at: h.played_at,
                delta: FactsDelta::between(&before, &h.facts),
            });
        Ok((Some(format::ledger_event(row)), write))
    }

    /// The tip's step and the facts' difference: a plain event's row added, or for an
    /// amendment within the tip's tail that tail's part of the facts replaced.
    fn step(&mut self, event: Entry<'_>) -> Result<(), AppError> {
        let tail_part = |tip: &Tip, h: &ClubFacts| {
            history::tail_facts(tip, &h.players)
                .map_err(|r| AppError::Internal(format!("the tail's facts no longer replay: {r}")))
        };
        let amends = Tip::needs_history(event.written());
        let before = match self.history.as_deref() {
            Some(h) if amends => Some(tail_part(&self.tip, h)?),
            _ => None,
        };
        self.tip.apply(event)?;
        let Some(h) = self.history.as_deref_mut() else {
            return Ok(());
        };
        let closed = self.tip.closed_at().is_some();
        match before {
            Some(before) => {
                let after = tail_part(&self.tip, h)?;
                h.facts
                    .amended((&before, &after), self.tip.balances(), closed);
            }
            None => {
                if let Some(row) = self.tip.last_row() {
                    h.facts
                        .add_plain(row, &h.players, self.tip.balances(), closed);
                }
            }
        }
        Ok(())
    }
}

/// The history-facts difference one event makes, written in its transaction.
#[derive(Debug, Clone)]
pub struct FactsWrite {
    /// The club that owns the session.
    pub club_id: ClubId,
    /// The session's game id.
    pub game: &'static str,
    /// When the session was created.
    pub played_at: DateTime<Utc>,
    /// What changed.
    pub delta: FactsDelta,
}

impl FactsWrite {
    /// Writes it for session `id` in the caller's transaction.
    pub async fn write(&self, conn: &mut impl Connected, id: SessionId) -> Result<(), sqlx::Error> {
        if self.delta.is_empty() {
            return Ok(());
        }
        store::history::apply_facts_delta(
            conn,
            id,
            self.club_id,
            self.game,
            self.played_at,
            &self.delta,
        )
        .await
    }
}
