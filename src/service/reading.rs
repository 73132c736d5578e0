//! Reading a stored session: its header, its events folded in full (what the pages that
//! show the history need) or to the state the cache keeps, one stored event at a time.

use crate::store::Connected;
use chrono::{DateTime, Utc};
use serde_json::Value;
use tokio_stream::StreamExt;

use super::{ClubFacts, Current, Folds, Kept, Loaded};
use crate::error::AppError;
use crate::format::{self, LedgerEvent, SESSION_FORMAT, SessionDoc};
use crate::history::SessionFacts;
use crate::ids::{ClubId, SessionId};
use crate::rules::GameInfo;
use crate::session::window::SHEET_LINES;
use crate::session::{Fold, Tip};
use crate::store::{self, EventRow, ReadPool};

/// The stored session's document without its events, and the club that owns it.
pub(super) async fn load_header(
    conn: &mut impl Connected,
    id: SessionId,
) -> Result<(SessionDoc, DateTime<Utc>, Option<ClubId>), AppError> {
    let row = store::session(conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
    let players = store::players(conn, id).await?;
    let agreements = match parse(&row.agreements)? {
        Value::Object(m) => m,
        _ => {
            return Err(AppError::Internal(
                "stored agreements are not an object".into(),
            ));
        }
    };
    let opening_scores = row.opening_scores.as_deref().map(parse).transpose()?;
    let doc = SessionDoc {
        format: SESSION_FORMAT.into(),
        game: row.game,
        currency: row.currency,
        agreements,
        players,
        opening_scores,
        events: Vec::new(),
    };
    Ok((doc, row.created_at, row.club_id))
}

/// A ledger entry as the store keeps it: JSON text, as the ledger document writes it.
/// Errors: none in practice (an entry is plain data); a failure is internal.
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

/// Reads the stored session `id` and folds it to its tip, one stored event at a time, so
/// that no event stays in memory; a session with an event that needs the history (a
/// correction, undo or reopen) is read again into a fold that keeps only the sheet's
/// window of its rows whole ([`slim_fold`]).
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
            if Tip::needs_history(&event) {
                needs_history = true;
                break;
            }
            kept.apply_or_drop(&event)
                .map_err(|r| no_longer_replays(id, &r))?;
        }
    }
    if needs_history {
        let (header, created_at, club_id) = load_header(conn, id).await?;
        let fold = slim_fold(conn, id, &header).await?;
        return Kept::of_fold(id, (club_id, created_at), &header, &fold);
    }
    Ok(kept)
}

/// Session `id` folded from its stored events one at a time, from `header` (its events
/// are not read into it), keeping whole only the last [`SHEET_LINES`] rows: the fold the
/// cache's state of a session with corrections is built from, in memory that grows by a
/// few hundred bytes a row (the events that stand, for later corrections, and each row's
/// ledger facts).
pub(super) async fn slim_fold(
    conn: &mut impl Connected,
    id: SessionId,
    header: &SessionDoc,
) -> Result<Fold, AppError> {
    let mut fold = format::start(header).map_err(|r| no_longer_replays(id, &r))?;
    fold.reserve(store::event_count(conn, id).await?);
    let mut bodies = store::event_bodies(conn, id);
    let mut index = 0;
    while let Some(body) = bodies.next().await {
        let event = parse(&body?)?;
        fold.apply(index, &event)
            .map_err(|r| no_longer_replays(id, &r))?;
        fold.slim_older(SHEET_LINES);
        index += 1;
    }
    Ok(fold)
}

/// Session `id` with its history (document, ledger, rows, fold), read and replayed from
/// the store: what the sheet, the ledger and the export show. The cache keeps only the
/// state after the last event ([`position`], [`record_event`]), which this fills when it
/// is empty or behind. Errors: [`AppError::NotFound`].
pub async fn load(pool: &ReadPool, folds: &Folds, id: SessionId) -> Result<Current, AppError> {
    let fresh = {
        let mut conn = pool.acquire().await?;
        load_fresh(&mut conn, id).await?
    };
    // Never waited for: a writer holding the slot will fill it itself. Every use of the
    // cache compares its count with the store's, so a read older than a commit made
    // meanwhile elsewhere is noticed there.
    if let Ok(mut guard) = folds.slot(id).try_write_owned()
        && guard.as_ref().is_none_or(|k| k.events() < fresh.events())
    {
        *guard = Kept::of(&fresh).ok();
    }
    Ok(Current(Box::new(fresh)))
}

/// The game session `id` is played at (it never changes): from the state the cache holds,
/// else from the stored header (one read by its key), never from the session's history.
/// What a hand form needs to become an event. Errors: [`AppError::NotFound`].
pub async fn game(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
) -> Result<&'static GameInfo, AppError> {
    // Not waited for: a writer holding the slot would only delay an answer the header gives.
    if let Ok(slot) = folds.slot(id).try_read_owned()
        && let Some(kept) = slot.as_ref()
    {
        return Ok(kept.tip.game());
    }
    let mut conn = pool.acquire().await?;
    let row = store::session(&mut conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
    crate::registry::game(&row.game)
        .ok_or_else(|| AppError::Internal(format!("stored session {id} has an unknown game")))
}

/// The state the cache holds for session `id`, if any (a copy): for tests that compare it
/// with a full replay.
pub async fn kept(folds: &Folds, id: SessionId) -> Option<Kept> {
    folds.slot(id).read().await.clone()
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
