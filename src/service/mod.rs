//! Use cases: load, call the pure core, check, persist — one transaction each, shared by the
//! HTML pages and the JSON API. A stored ledger is always `replay` of its session document;
//! the cache ([`Folds`]) carries that replay forward one event at a time.

mod checked;
pub mod commit;
mod create;
mod folds;
mod glance;
mod hashing;
pub mod history;
mod kept;
mod listing;
pub mod night_status;
pub mod nights;
mod reading;
mod renamed;
pub mod settled_night;
mod what_if;

use crate::store::Connected;
use chrono::{DateTime, SubsecRound, Utc};
use serde_json::Value;

use crate::store::{ReadPool, WritePool};

use crate::error::AppError;
use crate::format::{self, LedgerDoc, LedgerEvent, Position, SessionDoc};
use crate::ids::{ClubId, SessionId};

use crate::session::{EventKind, Fold, Tip};
use crate::store::{self, EventRow, NewEvent};
pub(crate) use create::new_session;
pub use create::{NewSessionInput, create_linked_session, create_session, import, import_linked};
pub use folds::{Current, DEFAULT_CAPACITY, Folds};
pub use glance::{Glance, backfill_entries, glance, night_standing, position, stored_ledger};
pub use kept::{ClubFacts, FactsWrite, Kept};
pub use listing::{SESSIONS_PAGE, SessionsPage, club_session_ids, last_session, list};
pub(crate) use reading::entry_text;
pub use reading::{game, kept, load};
use reading::{load_fresh, load_tip, no_longer_replays};
pub use renamed::{Renaming, glance_renamed};
pub use what_if::WhatIf;

use self::commit::{Append, Appended};

/// A session as stored, with its ledger.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The session's id.
    pub id: SessionId,
    /// The session document (the export).
    pub doc: SessionDoc,
    /// Its ledger, computed by `replay`.
    pub ledger: LedgerDoc,
    /// The stored event rows (seq 0 = opening ante), for times and explanations.
    pub rows: Vec<EventRow>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// The players seated now, clockwise.
    pub seated: Vec<String>,
    /// Who deals the next hand.
    pub next_dealer: Option<String>,
    /// The session folded: every row of the sheet, the engine as it stands.
    pub fold: Fold,
    /// The club that owns it; `None` for an open session.
    pub club_id: Option<ClubId>,
}

impl Loaded {
    /// Whether a `close` was recorded (nothing can amend a close, so the fold knows).
    pub fn closed(&self) -> bool {
        self.fold.closed_at().is_some()
    }

    /// How many events the session document holds (the stored rows but the opening ante).
    pub fn events(&self) -> usize {
        self.doc.events.len()
    }
}

/// Now, in UTC to the second as the store keeps it ([`store::time::rfc3339`]).
fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(0)
}

/// Makes every account of a ledger one of the club's players.
async fn remember_players(
    conn: &mut impl Connected,
    club: ClubId,
    accounts: impl Iterator<Item = &String>,
) -> Result<(), AppError> {
    for account in accounts.filter(|a| !crate::ledger::HOUSE.contains(&a.as_str())) {
        store::clubs::add_player(conn, club, account).await?;
    }
    Ok(())
}

/// What [`record_event`] did.
#[derive(Debug)]
pub struct Recorded {
    /// The event's position in the ledger (its index + 1).
    pub seq: usize,
    /// The idempotency key had already recorded this event: nothing written.
    pub repeated: bool,
    /// The event as stored (for a repeat: as the key first recorded it).
    pub event: Value,
    /// Its ledger entry.
    pub entry: LedgerEvent,
    /// Where the session stands after it (for a repeat: as it stood after it then).
    pub position: Position,
}

/// The state an event applies to: the cached tip, or the session read in full (events that
/// reach back, and club sessions whose facts come from the whole fold).
// One per write, on the stack: boxing the tip would cost an allocation per hand.
#[allow(clippy::large_enum_variant)]
enum Target {
    Tip(Kept),
    Whole(Box<Loaded>),
}

impl Target {
    fn events(&self) -> usize {
        match self {
            Target::Tip(k) => k.events(),
            Target::Whole(l) => l.events(),
        }
    }
}

async fn read_target(
    conn: &mut impl Connected,
    id: SessionId,
    whole: bool,
) -> Result<Target, AppError> {
    Ok(if whole {
        Target::Whole(Box::new(load_fresh(conn, id).await?))
    } else {
        Target::Tip(load_tip(conn, id).await?)
    })
}

/// Records one event at the end of a session, applied to the cached state (read on a miss)
/// and appended with its postings only if the rules accept it; `void`, `correction` and
/// `reopen` replay the session in full. Keyless plain events share a group commit
/// ([`commit`]). `expected_events` (the count the caller saw) guards against a hand entered
/// twice; `idempotency_key` makes a retry return the first result.
/// Errors: [`AppError::Refused`], [`AppError::Conflict`], [`AppError::NotFound`]; nothing is
/// written on error.
pub async fn record_event(
    pool: &WritePool,
    folds: &Folds,
    id: SessionId,
    event: Value,
    expected_events: Option<usize>,
    idempotency_key: Option<&str>,
) -> Result<Recorded, AppError> {
    if EventKind::of_session_event(&event) == Some(EventKind::Payment) {
        nights::refuse_session_payment(pool.reader(), id).await?;
    }
    // The slot before the connection: see the lock order in `folds`.
    let mut slot = folds.slot(id).write_owned().await;
    // With a key, the transaction starts first so a retry is known at once; without, the event
    // is applied before the write lock so the one writer is held only for the statements.
    let mut tx = None;
    if let Some(key) = idempotency_key {
        let mut t = checked::begin_for(pool, &[id]).await?;
        if let Some(seq) = store::idempotent_seq(&mut t, id, key).await? {
            drop(t);
            drop(slot);
            return repeated(pool, folds, id, usize::try_from(seq).unwrap_or_default()).await;
        }
        tx = Some(t);
    }
    let history = Tip::needs_history(&event);
    let target = take_target(pool, &mut slot, tx.as_mut(), id, history).await?;
    let pending = Pending {
        id,
        expected_events,
        body: event.to_string(),
        recorded_at: now(),
        event,
    };
    let (target, before, entry) = match tx {
        Some(tx) => record_keyed(tx, &mut slot, target, &pending, idempotency_key).await?,
        None => record_plain(pool, folds, &mut slot, target, &pending).await?,
    };
    // Committed: if its state cannot be kept, the slot stays empty and the next read refolds.
    let position = match &target {
        Target::Tip(kept) => Position::of_tip(&kept.tip),
        Target::Whole(state) => Position::of_tip(&Tip::of(&state.fold)),
    };
    *slot = kept_of(target).ok();
    Ok(Recorded {
        seq: before + 1,
        repeated: false,
        event: pending.event,
        entry: entry.0,
        position,
    })
}

/// Takes session `id`'s state out of `slot`; on failure or cancellation the slot stays empty
/// so the next request replays from the store.
async fn take_target(
    pool: &WritePool,
    slot: &mut folds::SlotGuard,
    tx: Option<&mut store::Tx>,
    id: SessionId,
    history: bool,
) -> Result<Target, AppError> {
    Ok(match slot.take() {
        Some(kept) if !history => Target::Tip(kept),
        kept => {
            **slot = kept;
            let target = match tx {
                Some(t) => read_target(t, id, history).await?,
                None => read_target(&mut pool.acquire().await?, id, history).await?,
            };
            slot.take();
            target
        }
    })
}

/// Records `pending` under idempotency `key` in `tx` (which holds the write lock), commits.
async fn record_keyed(
    mut tx: store::Tx,
    slot: &mut folds::SlotGuard,
    mut target: Target,
    pending: &Pending,
    key: Option<&str>,
) -> Result<Done, AppError> {
    let before = target.events();
    let applied = apply_one(&mut target, &pending.event, pending.expected_events);
    let done = record_under_lock(&mut tx, slot, (target, before, applied), pending, false).await?;
    finish_write(&mut tx, pending, key, &done).await?;
    tx.commit().await?;
    Ok(done)
}

/// An event on its way to the store.
struct Pending {
    id: SessionId,
    event: Value,
    expected_events: Option<usize>,
    body: String,
    recorded_at: DateTime<Utc>,
}

/// An event's ledger entry and, for a cached club session, its facts difference.
type Applied = (LedgerEvent, Option<FactsWrite>);

type Done = (Target, usize, Applied);

/// Records `pending` without a key: through the group commit ([`commit`]) when the cached
/// state accepts it, else in its own transaction ([`record_under_lock`]).
async fn record_plain(
    pool: &WritePool,
    folds: &Folds,
    slot: &mut folds::SlotGuard,
    mut target: Target,
    pending: &Pending,
) -> Result<Done, AppError> {
    let before = target.events();
    let applied = apply_one(&mut target, &pending.event, pending.expected_events);
    let mut stale = false;
    if let (Target::Tip(_), Ok((entry, facts))) = (&target, &applied) {
        let append = Append {
            session_id: pending.id,
            count: before,
            kind: entry.kind.clone(),
            body: pending.body.clone(),
            explanation: entry.explanation.clone(),
            postings: entry.postings.clone(),
            recorded_at: pending.recorded_at,
            entry: entry_text(entry)?,
            facts: facts.clone(),
        };
        match folds.committer().append(pool, append).await? {
            Appended::Committed => return Ok((target, before, applied?)),
            Appended::Stale => stale = true,
        }
    }
    let mut tx = checked::begin_for(pool, &[pending.id]).await?;
    let done = record_under_lock(&mut tx, slot, (target, before, applied), pending, stale).await?;
    finish_write(&mut tx, pending, None, &done).await?;
    tx.commit().await?;
    Ok(done)
}

/// Appends `applied` to `target` in `tx` (write lock and session lock held); if another
/// process wrote since, re-reads under the lock and applies again. On a refusal or conflict
/// `slot` gets the state back unchanged; on a store error it stays empty.
async fn record_under_lock(
    tx: &mut impl Connected,
    slot: &mut folds::SlotGuard,
    (mut target, mut before, mut applied): (Target, usize, Result<Applied, AppError>),
    pending: &Pending,
    stale: bool,
) -> Result<Done, AppError> {
    let mut fresh = false;
    loop {
        match applied {
            Ok(applied) => {
                let entry = &applied.0;
                let text = entry_text(entry)?;
                let new = NewEvent {
                    seq: before as i64 + 1,
                    kind: &entry.kind,
                    body: &pending.body,
                    explanation: &entry.explanation,
                    postings: &entry.postings,
                    recorded_at: pending.recorded_at,
                    entry: &text,
                };
                if fresh {
                    store::append_event(tx, pending.id, &new).await?;
                    return Ok((target, before, applied));
                }
                if !stale
                    && store::append_event_after(tx, pending.id, &new, before)
                        .await?
                        .is_some()
                {
                    return Ok((target, before, applied));
                }
            }
            // A refusal leaves the state unchanged, so it goes back.
            Err(e @ (AppError::Refused(_) | AppError::Conflict { .. })) => {
                if fresh || store::event_count(tx, pending.id).await? == before {
                    **slot = Some(kept_of(target)?);
                    return Err(e);
                }
            }
            Err(e) => return Err(e),
        }
        let whole = matches!(target, Target::Whole(_));
        target = read_target(tx, pending.id, whole).await?;
        before = target.events();
        applied = apply_one(&mut target, &pending.event, pending.expected_events);
        fresh = true;
    }
}

/// After the event in its own transaction: remembers the key and writes the club's facts.
async fn finish_write(
    tx: &mut impl Connected,
    pending: &Pending,
    idempotency_key: Option<&str>,
    (target, before, (_, facts)): &Done,
) -> Result<(), AppError> {
    if let Some(key) = idempotency_key {
        let seq = i64::try_from(*before).unwrap_or(i64::MAX).saturating_add(1);
        store::remember_idempotency_key(tx, pending.id, key, seq, pending.recorded_at).await?;
    }
    if let Some(facts) = facts {
        facts.write(tx, pending.id).await?;
    }
    if let Target::Whole(state) = target
        && let Some(club) = state.club_id
    {
        // A newcomer at a club's table becomes one of the club's players.
        remember_players(tx, club, state.fold.balances().as_map().keys()).await?;
        history::after_event(tx, pending.id, &state.doc, &state.fold, state.created_at).await?;
    }
    Ok(())
}

/// What the cache keeps of a state an event was applied to.
fn kept_of(target: Target) -> Result<Kept, AppError> {
    match target {
        Target::Tip(k) => Ok(k),
        Target::Whole(l) => Kept::of(&l),
    }
}

/// The answer to a retry of event `seq`: the first `seq` events replayed, so it is the first
/// answer again (docs/api.md: "200 with the first result").
async fn repeated(
    pool: &WritePool,
    folds: &Folds,
    id: SessionId,
    seq: usize,
) -> Result<Recorded, AppError> {
    let loaded = load(pool, folds, id).await?;
    let missing = || AppError::Internal(format!("event {seq} is stored but not in its session"));
    let doc = &loaded.doc;
    let events = doc.events.get(..seq).ok_or_else(missing)?;
    let event = events.last().cloned().ok_or_else(missing)?;
    let then = SessionDoc {
        format: doc.format.clone(),
        game: doc.game.clone(),
        currency: doc.currency.clone(),
        agreements: doc.agreements.clone(),
        players: doc.players.clone(),
        opening_scores: doc.opening_scores.clone(),
        events: events.to_vec(),
    };
    let then_fold = format::fold(&then).map_err(|r| {
        AppError::Internal(format!(
            "the session up to event {seq} does not replay: {r}"
        ))
    })?;
    let ledger = format::ledger(&then, &then_fold);
    let entry = ledger
        .events
        .iter()
        .rev()
        .find(|e| e.seq == seq)
        .cloned()
        .ok_or_else(missing)?;
    Ok(Recorded {
        seq,
        repeated: true,
        event,
        entry,
        position: Position::of_tip(&Tip::of(&then_fold)),
    })
}

/// Applies `event` to `target`: its ledger entry. Errors: [`AppError::Conflict`] when
/// `expected_events` is stale; the rules' refusal. On error the state is unchanged.
fn apply_one(
    target: &mut Target,
    event: &Value,
    expected_events: Option<usize>,
) -> Result<Applied, AppError> {
    let index = target.events();
    if let Some(expected) = expected_events
        && expected != index
    {
        return Err(AppError::Conflict {
            field: "expected_events".into(),
            message: format!(
                "hand {index} was just entered by another device; the sheet now shows it, so check before entering again"
            ),
        });
    }
    let (entry, facts) = match target {
        Target::Tip(kept) => kept.apply(event)?,
        Target::Whole(state) => {
            state.fold.apply(index, event)?;
            state.doc.events.push(event.clone());
            format::extend_ledger(&mut state.ledger, &state.fold);
            state.seated = state.fold.table().seated().to_vec();
            state.next_dealer = state.fold.next_dealer();
            (state.ledger.events.last().cloned(), None)
        }
    };
    match entry {
        Some(entry) if entry.seq == index + 1 => Ok((entry, facts)),
        _ => Err(AppError::Internal(
            "the fold made no row for the event".into(),
        )),
    }
}

/// Events session `id` holds (0 if none): one index read, for an `ETag`.
pub async fn event_count(pool: &ReadPool, id: SessionId) -> Result<usize, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::event_count(&mut conn, id).await?)
}

/// Balances summed from stored postings (cents by account); tests check they equal the ledger's.
pub async fn stored_balances(
    pool: &ReadPool,
    id: SessionId,
) -> Result<Vec<(String, i64)>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::balances(&mut conn, id).await?)
}
pub mod clubs;
