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

use crate::session::window::SHEET_LINES;
use crate::session::{EventKind, Fold, NewEvent, Tip};
use crate::store::postgres::Engine;
use crate::store::{self, EventRow};
pub(crate) use create::new_session;
pub use create::{NewSessionInput, create_linked_session, create_session, import, import_linked};
pub use folds::{Current, DEFAULT_CAPACITY, Folds};
pub use glance::{
    Glance, TakeBack, accounts, backfill_all_entries, backfill_entries, glance, night_standing,
    position, stored_ledger, take_back,
};
pub use kept::{ClubFacts, FactsWrite, Kept};
pub use listing::{SESSIONS_PAGE, SessionsPage, club_session_ids, last_session, list, own_games};
pub(crate) use reading::entry_text;
use reading::{Whole, load_tip, no_longer_replays};
pub use reading::{game, kept, load};
pub use renamed::{Renaming, glance_renamed};
pub use what_if::WhatIf;

use self::commit::{Append, Appended, Landed, Landing};
use self::folds::Held;

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

/// The state an event applies to: the cached tip, or the session folded whole (a `void`
/// or `correction` reaching back past the tip's tail, a `reopen`).
// One per write, on the stack: boxing the tip would cost an allocation per hand.
#[allow(clippy::large_enum_variant)]
enum Target {
    Tip(Kept),
    Whole(Box<Whole>),
}

impl Target {
    fn events(&self) -> usize {
        match self {
            Target::Tip(k) => k.events(),
            Target::Whole(w) => w.fold.events(),
        }
    }
}

/// Session `id` read for `raw` from `pool` (committed state: the group commit checks the
/// count again): its tip, or the whole session when the tip cannot apply `raw`
/// ([`Tip::reaches_before`]).
async fn read_target(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
    raw: &Value,
) -> Result<Target, AppError> {
    let kept = load_tip(&mut pool.acquire().await?, id).await?;
    Ok(if kept.tip.reaches_before(raw) {
        Target::Whole(reading::whole_for_amending(pool, folds, id).await?)
    } else {
        Target::Tip(kept)
    })
}

/// Records one event at the end of a session: load (the cached state, or the store on a
/// miss; `void`, `correction` and `reopen` read the whole session) → the pure step (the
/// rules apply the event) → save (the group commit, [`commit`], which appends it only if
/// the session still holds the events the state had). The session's slot is held for the
/// load and the step only: the session's next write may be stepped on the state this one
/// left while it is being committed ([`commit::Landed`]). When another writer got there
/// first, or the write stepped after did not land, the session is read again and the step
/// taken again. `expected_events` (the count the caller saw) guards against a hand entered
/// twice; `idempotency_key` makes a retry return the first result. Errors:
/// [`AppError::Refused`], [`AppError::Conflict`], [`AppError::NotFound`], the store's;
/// nothing is written on error.
pub async fn record_event(
    pool: &WritePool,
    folds: &Folds,
    id: SessionId,
    event: impl Into<NewEvent>,
    expected_events: Option<usize>,
    idempotency_key: Option<&str>,
) -> Result<Recorded, AppError> {
    let event = event.into();
    if EventKind::of_session_event(event.written()) == Some(EventKind::Payment) {
        nights::refuse_session_payment(pool.reader(), id).await?;
    }
    // Outside the slot: a retry that arrives while the first is still in flight is caught
    // by the key's uniqueness when written (and answered below), not by this read.
    if let Some(seq) = key_seq(pool, id, idempotency_key).await? {
        return repeated(pool, folds, id, seq).await;
    }
    let pending = Pending {
        id,
        expected_events,
        body: event.written().to_string(),
        recorded_at: now(),
        event,
        key: idempotency_key.map(str::to_string),
    };
    let written = match record(pool, folds, &pending).await {
        Err(e) if !matches!(e, AppError::Refused(_) | AppError::Conflict { .. }) => {
            // Another instance may have recorded the same key meanwhile: its answer stands.
            return match key_seq(pool, id, idempotency_key).await {
                Ok(Some(seq)) => repeated(pool, folds, id, seq).await,
                _ => Err(e),
            };
        }
        done => done?,
    };
    Ok(Recorded {
        seq: written.before + 1,
        repeated: false,
        event: pending.event.into_written(),
        entry: written.applied.0,
        position: written.position,
    })
}

/// The `seq` of the event idempotency `key` already recorded in session `id`, if any.
async fn key_seq(
    pool: &WritePool,
    id: SessionId,
    key: Option<&str>,
) -> Result<Option<usize>, AppError> {
    let Some(key) = key else {
        return Ok(None);
    };
    let mut conn = pool.reader().acquire().await?;
    let seq = store::idempotent_seq(&mut conn, id, key).await?;
    Ok(seq.map(|seq| usize::try_from(seq).unwrap_or_default()))
}

/// Takes session `id`'s state out of `slot`, for `raw`, with the landing of its last event
/// while in flight: the cached tip, unless it cannot apply `raw` ([`Tip::reaches_before`];
/// then, that event landed, the session folded whole, as the last such amendment left it
/// where it can, [`reading::whole_for_amending`]) or is not there or its last event did not
/// land. On failure or cancellation the slot stays empty so the next request replays from
/// the store.
async fn take_target(
    pool: &WritePool,
    folds: &Folds,
    slot: &mut folds::SlotGuard,
    id: SessionId,
    raw: &Value,
) -> Result<(Target, Option<Landed>), AppError> {
    let (kept, after) = match slot.take().and_then(Held::into_writable) {
        Some((kept, after)) if !kept.tip.reaches_before(raw) => {
            return Ok((Target::Tip(kept), after));
        }
        Some(writable) => writable,
        None => return Ok((read_target(pool.reader(), folds, id, raw).await?, None)),
    };
    // The whole session is read from the store: the event in flight is there first.
    if let Some(mut after) = after
        && after.settled().await != Landing::Committed
    {
        return Ok((read_target(pool.reader(), folds, id, raw).await?, None));
    }
    **slot = Some(Held::committed(kept));
    let whole = reading::whole_for_amending(pool.reader(), folds, id).await?;
    slot.take();
    Ok((Target::Whole(whole), None))
}

/// An event on its way to the store.
#[derive(Clone)]
struct Pending {
    id: SessionId,
    event: NewEvent,
    expected_events: Option<usize>,
    body: String,
    recorded_at: DateTime<Utc>,
    key: Option<String>,
}

/// An event's ledger entry and, for a cached club session, its facts difference.
type Applied = (LedgerEvent, Option<FactsWrite>);

/// A committed event: the events before it, its entry, where the session stands after it.
struct Written {
    before: usize,
    applied: Applied,
    position: Position,
}

/// How one try of [`record`] ended.
// One per write, on the stack, as `Target`.
#[allow(clippy::large_enum_variant)]
enum Tried {
    Done(Written),
    /// Another writer got there first, or the write stepped after did not land: nothing
    /// written; the session is read again.
    Again,
}

/// Another writer got there first this many times in a row: the write gives up as busy.
const TRIES: usize = 8;

/// [`try_once`] until it is done, at most [`TRIES`] times. Errors: [`AppError::Busy`] after
/// that many; [`try_once`]'s.
async fn record(pool: &WritePool, folds: &Folds, pending: &Pending) -> Result<Written, AppError> {
    for _ in 0..TRIES {
        if let Tried::Done(written) = try_once(pool, folds, pending).await? {
            return Ok(written);
        }
    }
    Err(AppError::Busy)
}

/// One try: under the session's slot, the state taken ([`take_target`]), the pure step, the
/// append queued and the state after it left in the slot, its event in flight; then, the
/// slot free, the group commit's answer. On a store error the slot's state is one whose
/// event did not land, and the next request replays from the store.
async fn try_once(pool: &WritePool, folds: &Folds, pending: &Pending) -> Result<Tried, AppError> {
    // The slot before the connection: see the lock order in `folds`.
    let mut slot = folds.slot(pending.id).write_owned().await;
    let raw = pending.event.written();
    let (target, after) = take_target(pool, folds, &mut slot, pending.id, raw).await?;
    let before = target.events();
    let stepped = step(target, pending).await?;
    let (applied, append) = match stepped.done {
        Ok(done) => done,
        Err(e @ (AppError::Refused(_) | AppError::Conflict { .. })) => {
            let refused = (stepped.target, before, e);
            return stands(pool, folds, (&mut slot, pending.id), after, refused).await;
        }
        Err(e) => return Err(e),
    };
    let kept = kept_of(stepped.target)?;
    let position = Position::of_tip(&kept.tip);
    let queued = folds.committer().enqueue(pool, append, after.clone())?;
    *slot = Some(Held::handed_on(kept, queued.landed.clone(), after));
    // On PostgreSQL the writer keeps the slot until the answer: its one-statement group
    // holds one record of a chain, so chained writes would gain little, and another
    // instance writing the session, read anew at each try, would find every try stale.
    let kept_slot = (pool.engine() == Engine::Postgres).then_some(slot);
    let answer = queued.answer().await;
    drop(kept_slot);
    match answer? {
        Appended::Committed => {
            if let Some(whole) = stepped.whole {
                folds.keep_whole(whole);
            }
            let written = Written {
                before,
                applied,
                position,
            };
            Ok(Tried::Done(written))
        }
        Appended::Stale => Ok(Tried::Again),
    }
}

/// Whether a refusal stands: only when the state it was refused on (`target`, after
/// `before` events) is the stored one, the event stepped after (`after`) landed and no
/// other process wrote since. Then `slot` gets the state back unchanged and the refusal is
/// the answer; otherwise the try goes again, the slot empty.
async fn stands(
    pool: &WritePool,
    folds: &Folds,
    (slot, id): (&mut folds::SlotGuard, SessionId),
    after: Option<Landed>,
    (target, before, refusal): (Target, usize, AppError),
) -> Result<Tried, AppError> {
    if let Some(mut after) = after
        && after.settled().await != Landing::Committed
    {
        return Ok(Tried::Again);
    }
    let mut conn = pool.reader().acquire().await?;
    if store::event_count(&mut conn, id).await? != before {
        return Ok(Tried::Again);
    }
    // A whole session refused it unchanged: kept for the amendment retried.
    let kept = match target {
        Target::Whole(whole) => {
            let kept = Kept::of_whole(&whole, None)?;
            folds.keep_whole(whole);
            kept
        }
        Target::Tip(kept) => kept,
    };
    **slot = Some(Held::committed(kept));
    Err(refusal)
}

/// What [`step`] gives back: the state after the step (as it was, on a refusal), the whole
/// fold after it when the session was stepped whole, and the entry with its append.
struct Stepped {
    target: Target,
    whole: Option<Box<Whole>>,
    done: Result<(Applied, Append), AppError>,
}

/// The pure step of `pending` on `target`: its ledger entry and what the group commit
/// appends. A whole session is stepped on a blocking thread (a correction of hand 1 replays
/// every hand after it) and comes back as the tip the cache keeps, its whole fold beside it.
/// Errors: the blocking thread failed, `target` is lost; the step's own are in `done`.
async fn step(target: Target, pending: &Pending) -> Result<Stepped, AppError> {
    if let Target::Tip(_) = target {
        return Ok(stepped(target, pending));
    }
    let pending = pending.clone();
    tokio::task::spawn_blocking(move || stepped(target, &pending))
        .await
        .map_err(|e| AppError::Internal(format!("a whole session's step failed: {e}")))
}

/// [`step`]'s work: [`apply_one`], [`appended`], and a whole session made the tip to keep
/// (its facts, computed for the append, not computed again). Errors as [`apply_one`]'s,
/// `target` unchanged.
fn stepped(mut target: Target, pending: &Pending) -> Stepped {
    let before = target.events();
    let done =
        apply_one(&mut target, &pending.event, pending.expected_events).and_then(|applied| {
            let append = appended(pending, &target, before, &applied)?;
            Ok((applied, append))
        });
    match (done, target) {
        (Ok((applied, append)), Target::Whole(whole)) => {
            let facts = match &append.facts {
                Some(commit::Facts::Whole(w)) => Some(w.facts.clone()),
                _ => None,
            };
            match Kept::of_whole(&whole, facts) {
                Ok(kept) => Stepped {
                    target: Target::Tip(kept),
                    whole: Some(whole),
                    done: Ok((applied, append)),
                },
                Err(e) => Stepped {
                    target: Target::Whole(whole),
                    whole: None,
                    done: Err(e),
                },
            }
        }
        (done, target) => Stepped {
            target,
            whole: None,
            done,
        },
    }
}

/// What the group commit appends for `pending`, applied to `target` after `before` events:
/// the event with its entry and postings, the key, and a club session's facts (the cached
/// state's difference, or the whole session's after an event that reaches back).
fn appended(
    pending: &Pending,
    target: &Target,
    before: usize,
    (entry, difference): &Applied,
) -> Result<Append, AppError> {
    let facts = match (target, difference) {
        (_, Some(write)) => Some(commit::Facts::Difference(write.clone())),
        (Target::Whole(state), None) => state
            .club_id
            .map(|club| whole_facts(state, club))
            .transpose()?,
        (Target::Tip(_), None) => None,
    };
    Ok(Append {
        session_id: pending.id,
        count: before,
        kind: entry.kind.clone(),
        body: pending.body.clone(),
        explanation: entry.explanation.clone(),
        postings: entry.postings.clone(),
        recorded_at: pending.recorded_at,
        entry: entry_text(entry)?,
        facts,
        key: pending.key.clone(),
    })
}

/// Club `club`'s history facts of the whole session `state` as it now stands, with its
/// players. Errors: [`AppError::Internal`] when the session no longer folds.
fn whole_facts(state: &Whole, club: ClubId) -> Result<commit::Facts, AppError> {
    let players = state.fold.balances().as_map().keys();
    Ok(commit::Facts::Whole(commit::WholeFacts {
        club_id: club,
        game: state.header.game.clone(),
        played_at: state.created_at,
        facts: history::facts_of(state.id, &state.header, &state.fold)?,
        players: players
            .filter(|a| !crate::ledger::HOUSE.contains(&a.as_str()))
            .cloned()
            .collect(),
    }))
}

/// What the cache keeps of a state an event was applied to.
fn kept_of(target: Target) -> Result<Kept, AppError> {
    match target {
        Target::Tip(k) => Ok(k),
        Target::Whole(w) => Kept::of_whole(&w, None),
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
        position: Position::of_tip(&Tip::of(&then_fold).map_err(|r| no_longer_replays(id, &r))?),
    })
}

/// Applies `event` to `target`: its ledger entry. Errors: [`AppError::Conflict`] when
/// `expected_events` is stale; the rules' refusal. On error the state is unchanged.
fn apply_one(
    target: &mut Target,
    event: &NewEvent,
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
            // Only the sheet's window stays whole, as the fold was read.
            state.fold.slim_older(SHEET_LINES);
            (state.fold.rows().last().map(format::ledger_event), None)
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
