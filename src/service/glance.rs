//! Reads from the cached state (where a session stands, the sheet a phone reloads), at a
//! cost that does not grow with the session.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::folds::{self, Held};
use super::reading::load_tip;
use super::{Folds, Kept};
use crate::error::AppError;
use crate::format::{LedgerDoc, Position, ledger_standing_json};
use crate::ids::SessionId;
use crate::ledger::Balances;
use crate::session::Tip;
use crate::store::{self, ReadPool, WritePool};
use tokio_stream::StreamExt;

/// What the sheet page needs from the cached state: the tip with its window of rows, the
/// header, and each shown row's time.
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

/// Runs `read` on session `id`'s cached state if current (one indexed read to know), else on
/// the state folded from the store, then cached. Errors: [`AppError::NotFound`].
async fn with_current<R>(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
    read: impl FnOnce(&Kept) -> R,
) -> Result<R, AppError> {
    // Count read before waiting for the slot: no connection held while waiting (lock order).
    let stored = {
        let mut conn = pool.acquire().await?;
        store::event_count(&mut conn, id).await?
    };
    let slot = folds.slot(id);
    let held = folds::settled(&slot).await;
    if let Some(kept) = held.as_ref().and_then(Held::state)
        && kept.events() >= stored
    {
        return Ok(read(kept));
    }
    drop(held);
    let fresh = {
        let mut conn = pool.acquire().await?;
        load_tip(&mut conn, id).await?
    };
    let answer = read(&fresh);
    let mut guard = slot.write().await;
    // A writer may have committed a later event while this one read: keep the later state.
    if guard
        .as_ref()
        .is_none_or(|held| held.superseded_by(fresh.events()))
    {
        *guard = Some(Held::committed(fresh));
    }
    Ok(answer)
}

/// What a sheet may take back as session `id` now stands: the last standing hand ("undo
/// last hand") and the payments that stand (a mis-tapped "Mark paid"), by event index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakeBack {
    /// The 0-based index of the last standing deal, if any.
    pub last_hand: Option<usize>,
    /// The 0-based indexes of the payments that stand.
    pub payments: Vec<usize>,
}

/// [`TakeBack`] of session `id`, from the cached state: no history is read or folded.
/// Errors: [`AppError::NotFound`].
pub async fn take_back(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
) -> Result<TakeBack, AppError> {
    with_current(pool, folds, id, |k| TakeBack {
        last_hand: k.tip.last_standing_hand(),
        payments: k.tip.window().payments().iter().map(|p| p.event).collect(),
    })
    .await
}

/// Where session `id` stands after its last event, from the cached state.
/// Errors: [`AppError::NotFound`].
pub async fn position(pool: &ReadPool, folds: &Folds, id: SessionId) -> Result<Position, AppError> {
    with_current(pool, folds, id, |k| Position::of_tip(&k.tip)).await
}

/// The accounts session `id`'s balances hold now (its players, and the kitty or the pot
/// where the game keeps one), by name, and how many events that is after: from the cached
/// state. Errors: [`AppError::NotFound`].
pub async fn accounts(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
) -> Result<(usize, Vec<String>), AppError> {
    with_current(pool, folds, id, |k| {
        let names = k.tip.balances().as_map().keys().cloned().collect();
        (k.tip.events(), names)
    })
    .await
}

/// The sheet page's default view of session `id` (latest lines, standing, settle-up): three
/// indexed reads whatever the session's length. Errors: [`AppError::NotFound`].
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

/// Session `id`'s ledger (JSON text) from stored entries (`seq > after` if given) and its
/// event count; `None` when an entry is missing (see [`backfill_entries`]).
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
    let (events, json) = with_current(pool, folds, id, |k| {
        let json = ledger_standing_json(&header.game, &header.currency, &k.tip);
        (k.tip.events(), json)
    })
    .await?;
    let json = json.map_err(|e| AppError::Internal(format!("the ledger document: {e}")))?;
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
    // Serialized with no entries, the document holds `"events":[]` exactly once.
    let json = json.replacen("\"events\":[]", &format!("\"events\":[{entries}]"), 1);
    Ok(Some((events, json)))
}

/// Appends the ledger entries that events stored before migration 0011 lack, from the
/// freshly folded `ledger`, so later reads use [`stored_ledger`]. Only appends; events the
/// document does not reach are left alone. The number written. Errors: the store's.
pub async fn backfill_entries(
    pool: &WritePool,
    id: SessionId,
    ledger: &LedgerDoc,
) -> Result<u64, AppError> {
    let mut tx = pool.begin_write().await?;
    let mut written = 0;
    for seq in store::seqs_without_entry(&mut tx, id).await? {
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

/// Brings the sessions stored before migration 0011 to the current shape, once: each one
/// with an event lacking its ledger entry is folded and its entries appended
/// ([`backfill_entries`]), one session at a time, so no request replays it for its ledger
/// later. Run in the background at start. Returns the sessions and the entries written. A
/// session that no longer replays is logged and left. Errors: the store's.
pub async fn backfill_all_entries(
    pool: &WritePool,
    folds: &Folds,
) -> Result<(usize, u64), AppError> {
    let ids = {
        let mut conn = pool.reader().acquire().await?;
        store::sessions_without_entries(&mut conn).await?
    };
    let mut written = 0;
    for &id in &ids {
        match super::load(pool.reader(), folds, id).await {
            Ok(current) => written += backfill_entries(pool, id, &current.ledger).await?,
            Err(e) => tracing::warn!(session = id.0, "ledger entries not backfilled: {e}"),
        }
    }
    Ok((ids.len(), written))
}

/// Session `id` for its night's settle-up, from the cached state: balances in cents
/// (an open sitting as if closed now, kitty shared out), whether open, its header (currency,
/// agreements, start), and the event count read (for the write's check). Errors:
/// [`AppError::NotFound`].
pub async fn night_standing(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
) -> Result<(Balances, bool, store::SessionRow, usize), AppError> {
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
    Ok((balances, open, header, events))
}
