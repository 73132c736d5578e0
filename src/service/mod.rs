//! Use cases: load, call the pure core, check, persist, in one transaction each.
//!
//! The HTML pages and the JSON API call these same functions. The ledger of a stored
//! session is always `replay` of its session document, so it cannot drift from what
//! `scorekeeper replay` prints for the exported document: a session kept folded in memory
//! ([`Folds`]) is that replay carried forward one event at a time, which the property
//! tests check against a full replay after every event.

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

/// Now as the store keeps a time the service records (an event, a night, a payment): in
/// UTC to the second (what the store's text holds, [`store::time::rfc3339`]), the one
/// clock reading of the service's writes.
fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(0)
}

/// Every player among `accounts` (a ledger's accounts) becomes one of the club's players,
/// who keep their identity across the club's sessions.
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
    /// True when the idempotency key had already recorded this event: nothing new was
    /// written.
    pub repeated: bool,
    /// The event as stored (for a repeat: as the key first recorded it).
    pub event: Value,
    /// Its ledger entry.
    pub entry: LedgerEvent,
    /// Where the session stands after it (for a repeat: as it stood after it then).
    pub position: Position,
}

/// The state an event is applied to: the cached tip, or for an event that needs the history
/// (or a club's session, whose history facts are written from the whole fold) the session
/// read and replayed in full.
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

/// Reads session `id` from `conn` as the event needs it ([`Target`]).
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

/// Records one event at the end of a session: the event is applied to the session's state
/// as cached in `folds` (read and folded from the store on a miss), and only when the rules
/// accept it is it appended with its postings; after the commit the cache holds the new
/// state. An event that needs the history (`void`, `correction`, `reopen`) goes through
/// the session read and replayed in full. A plain event without an idempotency key is
/// committed in a group with other requests' records ([`commit`]), so a cached session
/// costs one event and a share of one commit, whatever its length. Every path checks under
/// the session's lock ([`checked`]) that the stored count is still the one the state had,
/// and applies the event again to the session read anew when another instance wrote since.
/// `expected_events`: the number of events the caller saw (a form's hidden field); when the
/// session has moved on since, the event is refused with [`AppError::Conflict`] so the
/// same hand is not entered twice from two devices. `idempotency_key`: a client's key for
/// this request; a retry with the same key records nothing and returns the first result.
/// Errors: [`AppError::Refused`] naming the event index, field and rule;
/// [`AppError::NotFound`]. Nothing is written on error.
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
    // With a key, the transaction starts first, so a retry is known before anything else
    // happens; without one, the event is applied before the write lock is taken, so that
    // the one writer connection is held only for the statements and the commit.
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
    // The event is committed: should its state not be kept (a club session's facts that
    // no longer fold, a bug), the slot stays empty and the next request reads the store.
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

/// The state session `id`'s event is applied to, taken out of `slot`: should anything after
/// fail or be cancelled before the state is put back, the slot stays empty and the next
/// request replays from the store. An event that needs the `history` leaves it there until
/// the whole session is read (in `tx` when the write already holds one).
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

/// Records `pending` under the idempotency key `key` in `tx`, which has held the write lock
/// since the key was looked up: the event is applied to `target` and appended
/// ([`record_under_lock`]), the key remembered ([`finish_write`]) and the whole committed.
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

/// An event on its way to the store: the session, the event as written, its text, when it
/// was recorded, and the count of events the caller saw.
struct Pending {
    id: SessionId,
    event: Value,
    expected_events: Option<usize>,
    body: String,
    recorded_at: DateTime<Utc>,
}

/// An event applied: its ledger entry and, for a club's session on the cached path, the
/// difference of its history facts.
type Applied = (LedgerEvent, Option<FactsWrite>);

/// The state after an event, how many events it held before, and what the event did.
type Done = (Target, usize, Applied);

/// Records `pending` without an idempotency key: a plain event accepted by the cached
/// state is committed together with the records of other sessions made meanwhile
/// ([`commit`]: one durable commit for them all). Only a refusal, an event that needs the
/// history, or a store that holds another number of events than the state (another
/// process wrote) takes a transaction of its own ([`record_under_lock`]).
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

/// Appends the event `applied` to `target` (which held `before` events) in `tx`, which
/// holds the write lock and the session's lock ([`checked::begin_for`]). The state it was applied to is current when the store holds as
/// many events as it did: an accepted event's insert checks that itself, a refusal reads
/// the count. When another process wrote since (or `stale` says so already), the state is
/// read again under the lock and the event applied to that. Errors: the rules' refusal or
/// a conflict, after which `slot` holds the state unchanged; the store's errors, after
/// which it stays empty.
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
            // A refused event leaves the state unchanged (`Fold::apply`, `Tip::apply`), so
            // it goes back as it was; after anything else the slot stays empty.
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

/// What a write in a transaction of its own does after its event: remembers the
/// idempotency key, and writes a club session's history facts (the event's difference on
/// the cached path; for an event that needs the history, the facts of the whole session
/// as it now stands).
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

/// The answer to a retry of the event at `seq`: the first answer again (docs/api.md: "200 with
/// the first result"), so the session's first `seq` events are read from the store and
/// replayed: `event_count`, balances, scores and settlement as they stood just after it,
/// not as later events left them.
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

/// Applies `event` to `target` as its next event: its ledger entry. Errors:
/// [`AppError::Conflict`] when `expected_events` is not the number of events so far; the
/// rules' refusal. On error the state is unchanged.
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
            // The document and the ledger follow the fold (nothing else of them is read
            // before the commit but the agreements and players).
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

/// How many events session `id` holds as stored now (0 for none, or no such session): one
/// read of an index, whatever the session's length, so that a client's copy can be told
/// current (an `ETag`) without loading the session.
pub async fn event_count(pool: &ReadPool, id: SessionId) -> Result<usize, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::event_count(&mut conn, id).await?)
}

/// The balances as summed from the stored postings (cents by account); they equal the
/// ledger's balances, which tests check.
pub async fn stored_balances(
    pool: &ReadPool,
    id: SessionId,
) -> Result<Vec<(String, i64)>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::balances(&mut conn, id).await?)
}
pub mod clubs;
