//! Reads served from the state the cache keeps: where a session stands and the
//! sheet a phone reloads after every hand, at a cost that does not grow with the session.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::reading::load_tip;
use super::{Folds, Kept};
use crate::error::AppError;
use crate::format::{LedgerDoc, Position, ledger_standing};
use crate::ids::SessionId;
use crate::ledger::Balances;
use crate::session::Tip;
use crate::store::{self, ReadPool, WritePool};
use tokio_stream::StreamExt;

/// What the sheet page of a session needs when built from the cached state: the tip with
/// its window of latest rows, the session's header, and when each shown row was recorded.
#[derive(Debug, Clone)]
pub struct Glance {
    /// The session's id.
    pub id: SessionId,
    /// The state after the last event, with the latest rows ([`crate::session::window`]).
    pub tip: Tip,
    /// ISO currency code.
    pub currency: String,
    /// When the session was created.
    pub created_at: DateTime<Utc>,
    /// When each event of the window was recorded, by 0-based index.
    pub recorded: BTreeMap<usize, DateTime<Utc>>,
}

/// Runs `read` on the cached state of session `id` when it holds every stored event (one
/// indexed read to know), else on the state read and folded from the store, which is then
/// cached. Errors: [`AppError::NotFound`].
async fn with_current<R>(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
    read: impl FnOnce(&Kept) -> R,
) -> Result<R, AppError> {
    // The count is read before waiting for the slot, so no connection is held while
    // waiting for a writer that may itself be waiting for a connection.
    let stored = {
        let mut conn = pool.acquire().await?;
        store::event_count(&mut conn, id).await?
    };
    let slot = folds.slot(id);
    if let Some(kept) = slot.read().await.as_ref().filter(|k| k.events() >= stored) {
        return Ok(read(kept));
    }
    let fresh = {
        let mut conn = pool.acquire().await?;
        load_tip(&mut conn, id).await?
    };
    let answer = read(&fresh);
    let mut guard = slot.write().await;
    // A writer may have committed a later event while this one read: keep the later state.
    if guard.as_ref().is_none_or(|k| k.events() < fresh.events()) {
        *guard = Some(fresh);
    }
    Ok(answer)
}

/// Where session `id` stands after its last event ([`Position`]): from the cached state
/// when it holds every stored event, else read and folded from the store and cached. The
/// cost does not grow with the session when it is cached. Errors: [`AppError::NotFound`].
pub async fn position(pool: &ReadPool, folds: &Folds, id: SessionId) -> Result<Position, AppError> {
    with_current(pool, folds, id, |k| Position::of_tip(&k.tip)).await
}

/// What the sheet page of session `id` shows by default (its latest lines, the standing and
/// the settle-up), from the cached state as [`position`] reads it, the session's header and
/// the times of the rows shown: three indexed reads, whatever the session's length.
/// Errors: [`AppError::NotFound`].
pub async fn glance(pool: &ReadPool, folds: &Folds, id: SessionId) -> Result<Glance, AppError> {
    let tip = with_current(pool, folds, id, |k| k.tip.clone()).await?;
    let mut conn = pool.acquire().await?;
    let header = store::session(&mut conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
    let first = tip.window().rows().find_map(|k| k.row.index).unwrap_or(0);
    let recorded = store::recorded_since(&mut conn, id, first)
        .await?
        .into_iter()
        .filter_map(|(seq, at)| Some((usize::try_from(seq).ok()?.checked_sub(1)?, at)))
        .collect();
    Ok(Glance {
        id,
        tip,
        currency: header.currency,
        created_at: header.created_at,
        recorded,
    })
}

/// The ledger document of session `id` (JSON text) from the stored entries, with the
/// entries of a seq above `after` only (`None`: every entry), and its number of events; `None` when an event
/// was stored without its entry (before migration 0011), so the ledger must be folded (once:
/// [`backfill_entries`] then writes the missing entries). The
/// entries are read in order and copied as stored, the standing parts come from the cached
/// state: the cost is that of the text sent, not of folding the session again.
/// Errors: [`AppError::NotFound`].
pub async fn stored_ledger(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
    after: Option<usize>,
) -> Result<Option<(usize, String)>, AppError> {
    let mut conn = pool.acquire().await?;
    let header = store::session(&mut conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
    drop(conn);
    let (events, standing) = with_current(pool, folds, id, |k| {
        let doc = ledger_standing(&header.game, &header.currency, &k.tip);
        (k.tip.events(), doc)
    })
    .await?;
    let mut conn = pool.acquire().await?;
    let mut entries = String::new();
    {
        let mut stored = store::ledger_entries(&mut conn, id, after, events);
        while let Some(entry) = stored.next().await {
            let Some(entry) = entry? else {
                return Ok(None);
            };
            if !entries.is_empty() {
                entries.push(',');
            }
            entries.push_str(&entry);
        }
    }
    let json = serde_json::to_string(&standing)
        .map_err(|e| AppError::Internal(format!("the ledger document: {e}")))?;
    // Serialized with no entries, the document holds `"events":[]` once (its header has
    // only the format tag, a game id and a currency code before it).
    let json = json.replacen("\"events\":[]", &format!("\"events\":[{entries}]"), 1);
    Ok(Some((events, json)))
}

/// Appends the ledger entries that session `id`'s events stored before migration 0011 lack,
/// taken from `ledger`, the session's ledger document as just folded from its stored events,
/// so that from then on its ledger is read from the store ([`stored_ledger`]) instead of
/// folded on every request. Only appends (entries are append-only); an event the document
/// does not reach (recorded meanwhile, with its own entry) is left alone. One write
/// transaction, once per such session. Returns how many entries were written.
/// Errors: the store's.
pub async fn backfill_entries(
    pool: &WritePool,
    id: SessionId,
    ledger: &LedgerDoc,
) -> Result<u64, AppError> {
    let mut tx = pool.begin_write().await?;
    let mut written = 0;
    for seq in store::seqs_without_entry(&mut tx, id).await? {
        // The entries are in seq order: found by bisection.
        let Ok(wanted) = usize::try_from(seq) else {
            continue;
        };
        let at = ledger.events.partition_point(|e| e.seq < wanted);
        let Some(entry) = ledger.events.get(at).filter(|e| e.seq == wanted) else {
            continue;
        };
        let text = super::reading::entry_text(entry)?;
        written += store::append_missing_entry(&mut tx, id, seq, &text).await?;
    }
    tx.commit().await?;
    Ok(written)
}

/// Where session `id` stands for its night's settle-up, from the cached state: every
/// balance (cents, the kitty's included) after a `close` appended now while the sitting is
/// open (the kitty shared out by its rule), else as it stands; whether the sitting is open;
/// its currency; and the number of events of the state it was read from (what a write
/// worked out from it checks under the session's lock). Errors: [`AppError::NotFound`].
pub async fn night_standing(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
) -> Result<(Balances, bool, String, usize), AppError> {
    let (balances, open, events) = with_current(pool, folds, id, |k| {
        let (balances, open) = match k.tip.close_preview() {
            Some((after_close, _)) => (after_close, true),
            None => (k.tip.balances().clone(), false),
        };
        (balances, open, k.events())
    })
    .await?;
    let mut conn = pool.acquire().await?;
    let header = store::session(&mut conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
    Ok((balances, open, header.currency, events))
}
