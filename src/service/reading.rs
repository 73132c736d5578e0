//! Reading a stored session, folded in full (for the history pages) or, one event at a
//! time, to the state the cache keeps.

use crate::store::Connected;
use chrono::{DateTime, Utc};
use serde_json::Value;
use tokio_stream::StreamExt;

use super::folds::{self, Held};
use super::{ClubFacts, Current, Folds, Kept, Loaded};
use crate::error::AppError;
use crate::format::{self, LedgerEvent, SessionDoc};
use crate::history::SessionFacts;
use crate::ids::{ClubId, SessionId};
use crate::rules::GameInfo;
use crate::session::Fold;
use crate::session::window::SHEET_LINES;
use crate::store::{self, EventRow, ReadPool};

pub(super) use crate::export::stream::session_header as load_header;

/// A ledger entry as stored: JSON text. Errors: internal (cannot happen for plain data).
pub(crate) fn entry_text(entry: &LedgerEvent) -> Result<String, AppError> {
    serde_json::to_string(entry).map_err(|e| AppError::Internal(format!("a ledger entry: {e}")))
}

pub(super) fn parse(text: &str) -> Result<Value, AppError> {
    serde_json::from_str::<Value>(text).map_err(|e| AppError::Internal(format!("stored JSON: {e}")))
}

pub(super) async fn load_in(
    conn: &mut impl Connected,
    id: SessionId,
) -> Result<(SessionDoc, Vec<EventRow>, DateTime<Utc>, Option<ClubId>), AppError> {
    let (mut doc, created_at, club_id) = load_header(conn, id).await?;
    let rows = store::events(conn, id).await?;
    doc.events = rows
        .iter()
        .filter(|r| r.seq > 0)
        .map(|r| parse(&r.body))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((doc, rows, created_at, club_id))
}

/// Reads the stored session `id` and replays it in full.
pub(super) async fn load_fresh(
    conn: &mut impl Connected,
    id: SessionId,
) -> Result<Loaded, AppError> {
    let (doc, rows, created_at, club_id) = load_in(conn, id).await?;
    let fold = format::fold(&doc).map_err(|r| no_longer_replays(id, &r))?;
    let mut loaded = loaded(id, doc, rows, created_at, fold);
    loaded.club_id = club_id;
    Ok(loaded)
}

pub(super) fn no_longer_replays(id: SessionId, r: &format::Refusal) -> AppError {
    AppError::Internal(format!("stored session {id} no longer replays: {r}"))
}

/// Session `id` folded to its tip, one stored event at a time; when one reaches back past
/// the tip's tail, via [`slim_fold`].
pub(super) async fn load_tip(conn: &mut impl Connected, id: SessionId) -> Result<Kept, AppError> {
    let (header, created_at, club_id) = load_header(conn, id).await?;
    let tip = format::tip(&header).map_err(|r| no_longer_replays(id, &r))?;
    let history = club_id.map(|club_id| {
        Box::new(ClubFacts {
            club_id,
            played_at: created_at,
            facts: SessionFacts::opening(tip.balances(), tip.last_row()),
            players: header.players.clone(),
        })
    });
    let mut kept = Kept {
        club_id,
        tip,
        history,
    };
    let mut needs_history = false;
    {
        let mut bodies = store::event_bodies(conn, id);
        while let Some(body) = bodies.next().await {
            let event = parse(&body?)?;
            if kept.tip.reaches_before(&event) {
                needs_history = true;
                break;
            }
            kept.apply_or_drop(&event).map_err(|e| match e {
                AppError::Refused(r) => no_longer_replays(id, &r),
                e => e,
            })?;
        }
    }
    if needs_history {
        let (header, created_at, club_id) = load_header(conn, id).await?;
        let fold = slim_fold(conn, id, &header).await?;
        return Kept::of_fold(id, (club_id, created_at), &header, &fold);
    }
    Ok(kept)
}

/// A stored session folded whole, for an event that reaches back past the cached tip's
/// tail: its header (the document without events) and its fold, slim but for the sheet's
/// window ([`slim_fold`]).
#[derive(Clone)]
pub(super) struct Whole {
    pub(super) id: SessionId,
    pub(super) header: SessionDoc,
    pub(super) created_at: DateTime<Utc>,
    pub(super) club_id: Option<ClubId>,
    pub(super) fold: Fold,
}

/// Session `id` read and folded whole: read on a connection of `pool` (given back once the
/// last event is read) while a blocking thread folds the pages already read, so the store's
/// reading and the rules' replay run side by side and other sessions' requests and commits
/// go on meanwhile. Errors: [`AppError::NotFound`]; the store's.
pub(super) async fn load_whole(pool: &ReadPool, id: SessionId) -> Result<Whole, AppError> {
    let mut conn = pool.acquire().await?;
    let (header, created_at, club_id) = load_header(&mut conn, id).await?;
    let mut start = format::start(&header).map_err(|r| no_longer_replays(id, &r))?;
    let count = store::event_count(&mut conn, id).await?;
    start.reserve(count);
    start.quiet_before(slimmed_before(count));
    let (pages, inbox) = tokio::sync::mpsc::channel(PAGES_AHEAD);
    let folding = tokio::task::spawn_blocking(move || fold_pages(id, start, inbox));
    let read = send_pages(&mut conn, id, pages).await;
    drop(conn);
    let fold = folding
        .await
        .map_err(|e| AppError::Internal(format!("folding session {id}: {e}")))?;
    // A store error ended the pages early: the fold is short, the error is the answer.
    read?;
    Ok(Whole {
        id,
        header,
        created_at,
        club_id,
        fold: fold?,
    })
}

/// Session `id` folded whole for an amendment reaching back past its tip's tail: as the last
/// such amendment left it ([`Folds::take_whole`]), given the events stored since, or else
/// read and folded anew ([`load_whole`]). Errors: as [`load_whole`]'s.
pub(super) async fn whole_for_amending(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
) -> Result<Box<Whole>, AppError> {
    if let Some(kept) = folds.take_whole(id)
        && let Some(whole) = caught_up(pool, kept).await?
    {
        return Ok(whole);
    }
    folds.count_whole_read();
    Ok(Box::new(load_whole(pool, id).await?))
}

/// A copy of session `id` folded whole, to try an amendment reaching back on without
/// recording it (the correction form's preview): copied from the fold kept for the
/// session's next such amendment ([`whole_for_amending`]), which is kept again, so the
/// previews shown while a correction is typed and the correction recorded after them read
/// the session whole once. Errors: as [`load_whole`]'s.
pub(super) async fn whole_to_try(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
) -> Result<Box<Whole>, AppError> {
    let whole = whole_for_amending(pool, folds, id).await?;
    // A long session's copy takes milliseconds: off the request threads.
    let (whole, copy) = tokio::task::spawn_blocking(move || {
        let copy = whole.clone();
        (whole, copy)
    })
    .await
    .map_err(|e| AppError::Internal(format!("copying session {id}: {e}")))?;
    folds.keep_whole(whole);
    Ok(copy)
}

/// `whole` given the events stored after its last, folded on a blocking thread; `None` when
/// the store holds fewer events than it (it is not this store's session).
async fn caught_up(pool: &ReadPool, mut whole: Box<Whole>) -> Result<Option<Box<Whole>>, AppError> {
    let (id, have) = (whole.id, whole.fold.events());
    let bodies = {
        let mut conn = pool.acquire().await?;
        let stored = store::event_count(&mut conn, id).await?;
        if stored < have {
            return Ok(None);
        }
        store::event_bodies_between(&mut conn, id, (have, stored)).await?
    };
    if bodies.is_empty() {
        return Ok(Some(whole));
    }
    tokio::task::spawn_blocking(move || {
        for (k, body) in bodies.iter().enumerate() {
            whole
                .fold
                .apply_stored(have + k, body)
                .map_err(|r| no_longer_replays(id, &r))?;
            whole.fold.slim_older(SHEET_LINES);
        }
        Ok(Some(whole))
    })
    .await
    .map_err(|e| AppError::Internal(format!("folding session {id}: {e}")))?
}

/// Of a session of `count` events folded keeping [`SHEET_LINES`] rows whole, the events
/// whose rows are slimmed before anyone reads them (an opening ante's row included), so
/// the rules need not put them in words ([`Fold::quiet_before`]).
fn slimmed_before(count: usize) -> usize {
    count.saturating_sub(SHEET_LINES + 2)
}

/// Stored events a page, for [`load_whole`]'s folding thread.
const PAGE: usize = 256;

/// Pages read ahead of the fold: a bound on the bodies held while the rules catch up.
const PAGES_AHEAD: usize = 4;

/// Session `id`'s stored bodies sent to `pages` in order, [`PAGE`] at a time, until the last
/// or until the fold stops taking them (it failed). Errors: the store's.
async fn send_pages(
    conn: &mut impl Connected,
    id: SessionId,
    pages: tokio::sync::mpsc::Sender<Vec<String>>,
) -> Result<(), AppError> {
    let mut bodies = store::event_bodies(conn, id);
    let mut page = Vec::with_capacity(PAGE);
    while let Some(body) = bodies.next().await {
        page.push(body?);
        if page.len() == PAGE && pages.send(std::mem::take(&mut page)).await.is_err() {
            return Ok(());
        }
    }
    if !page.is_empty() {
        let _ = pages.send(page).await;
    }
    Ok(())
}

/// `fold` after the pages `inbox` brings, each event folded as stored ([`Fold::apply_stored`])
/// with only the sheet's window kept whole. Errors: an event no longer replays.
fn fold_pages(
    id: SessionId,
    mut fold: Fold,
    mut inbox: tokio::sync::mpsc::Receiver<Vec<String>>,
) -> Result<Fold, AppError> {
    let mut index = 0;
    while let Some(page) = inbox.blocking_recv() {
        for body in page {
            fold.apply_stored(index, &body)
                .map_err(|r| no_longer_replays(id, &r))?;
            fold.slim_older(SHEET_LINES);
            index += 1;
        }
    }
    Ok(fold)
}

/// Session `id` folded one event at a time from `header`, keeping only the last
/// [`SHEET_LINES`] rows whole: a few hundred bytes a row.
pub(super) async fn slim_fold(
    conn: &mut impl Connected,
    id: SessionId,
    header: &SessionDoc,
) -> Result<Fold, AppError> {
    let mut fold = format::start(header).map_err(|r| no_longer_replays(id, &r))?;
    let count = store::event_count(conn, id).await?;
    fold.reserve(count);
    fold.quiet_before(slimmed_before(count));
    let mut bodies = store::event_bodies(conn, id);
    let mut index = 0;
    while let Some(body) = bodies.next().await {
        fold.apply_stored(index, &body?)
            .map_err(|r| no_longer_replays(id, &r))?;
        fold.slim_older(SHEET_LINES);
        index += 1;
    }
    Ok(fold)
}

/// Session `id` with its history, read and replayed: what the sheet, ledger and export
/// show. Fills the cache if empty or behind. Errors: [`AppError::NotFound`].
pub async fn load(pool: &ReadPool, folds: &Folds, id: SessionId) -> Result<Current, AppError> {
    let fresh = {
        let mut conn = pool.acquire().await?;
        load_fresh(&mut conn, id).await?
    };
    // Never waited for: a writer holding the slot fills it. Later uses compare counts anyway.
    if let Ok(mut guard) = folds.slot(id).try_write_owned()
        && guard
            .as_ref()
            .is_none_or(|held| held.superseded_by(fresh.events()))
    {
        *guard = Kept::of(&fresh).ok().map(Held::committed);
    }
    Ok(Current(Box::new(fresh)))
}

/// Session `id`'s game (it never changes), from the cache or the stored header, never the
/// history. Errors: [`AppError::NotFound`].
pub async fn game(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
) -> Result<&'static GameInfo, AppError> {
    // Not waited for: a writer holding the slot would only delay an answer the header gives.
    if let Ok(slot) = folds.slot(id).try_read_owned()
        && let Some(held) = slot.as_ref()
    {
        return Ok(held.latest().tip.game());
    }
    let mut conn = pool.acquire().await?;
    let row = store::session(&mut conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
    crate::registry::game(&row.game)
        .ok_or_else(|| AppError::Internal(format!("stored session {id} has an unknown game")))
}

/// A copy of session `id`'s cached state (tests compare it with a full replay).
pub async fn kept(folds: &Folds, id: SessionId) -> Option<Kept> {
    let slot = folds.slot(id);
    let held = folds::settled(&slot).await;
    held.as_ref().and_then(Held::state).cloned()
}

pub(super) fn loaded(
    id: SessionId,
    doc: SessionDoc,
    rows: Vec<EventRow>,
    created_at: DateTime<Utc>,
    fold: Fold,
) -> Loaded {
    Loaded {
        id,
        ledger: format::ledger(&doc, &fold),
        doc,
        rows,
        created_at,
        seated: fold.table().seated().to_vec(),
        next_dealer: fold.next_dealer(),
        fold,
        club_id: None,
    }
}
