//! Use cases: load, call the pure core, check, persist, in one transaction each.
//!
//! The HTML pages and the JSON API call these same functions. The ledger of a stored
//! session is always `replay` of its session document, so it cannot drift from what
//! `scorekeeper replay` prints for the exported document: a session kept folded in memory
//! ([`Folds`]) is that replay carried forward one event at a time, which the property
//! tests check against a full replay after every event.

pub mod commit;
mod folds;
mod hashing;
pub mod history;
mod listing;
pub mod night_status;
pub mod nights;

use chrono::{SecondsFormat, Utc};
use serde_json::{Map, Value};
use sqlx::SqliteConnection;

use crate::store::{ReadPool, WritePool};
use tokio_stream::StreamExt;

use crate::error::AppError;
use crate::format::{self, LedgerDoc, LedgerEvent, Position, SESSION_FORMAT, SessionDoc, replay};
use crate::history::{FactsDelta, SessionFacts};
use crate::rules::GameInfo;
use crate::session::{Fold, Tip};
use crate::store::{self, EventRow, NewEvent, NewSession};
pub use folds::{Current, DEFAULT_CAPACITY, Folds};
pub use listing::{SESSIONS_PAGE, SessionsPage, club_session_ids, last_session, list};

use self::clubs::SessionLinks;
use self::commit::{Append, Appended};

/// A session as stored, with its ledger.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The session's id.
    pub id: i64,
    /// The session document (the export).
    pub doc: SessionDoc,
    /// Its ledger, computed by `replay`.
    pub ledger: LedgerDoc,
    /// The stored event rows (seq 0 = opening ante), for times and explanations.
    pub rows: Vec<EventRow>,
    /// When it was created (RFC 3339, UTC).
    pub created_at: String,
    /// The players seated now, clockwise.
    pub seated: Vec<String>,
    /// Who deals the next hand.
    pub next_dealer: Option<String>,
    /// The session folded: every row of the sheet, the engine as it stands.
    pub fold: Fold,
    /// The club that owns it; `None` for an open session.
    pub club_id: Option<i64>,
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

/// What the cache ([`Folds`]) keeps of one session: the club that owns it and the state
/// after its last committed event, whose size does not grow with the hands played.
#[derive(Debug, Clone)]
pub struct Kept {
    /// The club that owns it; `None` for an open session (a session never changes club).
    pub club_id: Option<i64>,
    /// The fold's state after the last event.
    pub tip: Tip,
    /// For a club's session: its history facts as they stand, which each plain event
    /// changes by its own difference.
    pub history: Option<Box<ClubFacts>>,
}

/// A club session's history facts as they stand, with what writing them needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClubFacts {
    /// The club that owns the session.
    pub club_id: i64,
    /// When the session was created (RFC 3339, UTC): the night's date in the history.
    pub played_at: String,
    /// The document's seats, clockwise (a side's members for a game won by a side).
    pub players: Vec<String>,
    /// The facts ([`crate::history::session_facts`] of the session as it stands).
    pub facts: SessionFacts,
}

impl Kept {
    fn of(loaded: &Loaded) -> Result<Kept, AppError> {
        let history = match loaded.club_id {
            Some(club_id) => {
                let doc = &loaded.doc;
                let facts = crate::history::session_facts(
                    &loaded.fold,
                    &doc.agreements,
                    &doc.players,
                    doc.opening_scores.as_ref(),
                )
                .map_err(|r| no_longer_replays(loaded.id, &r))?;
                Some(Box::new(ClubFacts {
                    club_id,
                    played_at: loaded.created_at.clone(),
                    players: doc.players.clone(),
                    facts,
                }))
            }
            None => None,
        };
        Ok(Kept {
            club_id: loaded.club_id,
            tip: Tip::of(&loaded.fold),
            history,
        })
    }

    /// How many events it holds.
    pub fn events(&self) -> usize {
        self.tip.events()
    }

    /// [`Kept::apply`] for a fold that stops at the first refusal (reading the stored
    /// session): on error this state must be dropped.
    fn apply_or_drop(&mut self, event: &Value) -> Result<(), crate::session::Refusal> {
        self.tip.apply_or_drop(event)?;
        if let (Some(h), Some(row)) = (self.history.as_mut(), self.tip.last_row()) {
            let closed = self.tip.closed_at().is_some();
            h.facts
                .add_plain(row, &h.players, self.tip.balances(), closed);
        }
        Ok(())
    }

    /// Applies `event` to the tip and, for a club's session, its row to the history
    /// facts: the ledger entry and the facts' difference to write. Errors: the rules'
    /// refusal; on error nothing changes.
    fn apply(
        &mut self,
        event: &Value,
    ) -> Result<(Option<LedgerEvent>, Option<FactsWrite>), AppError> {
        self.tip.apply(event)?;
        let Some(row) = self.tip.last_row() else {
            return Ok((None, None));
        };
        let write = self.history.as_mut().map(|h| {
            let before = h.facts.clone();
            let closed = self.tip.closed_at().is_some();
            h.facts
                .add_plain(row, &h.players, self.tip.balances(), closed);
            FactsWrite {
                club_id: h.club_id,
                game: self.tip.game().id,
                played_at: h.played_at.clone(),
                delta: FactsDelta::between(&before, &h.facts),
            }
        });
        Ok((Some(format::ledger_event(row)), write))
    }
}

/// The difference of a club session's history facts that one event makes, to be written
/// in the event's own transaction.
#[derive(Debug, Clone)]
pub struct FactsWrite {
    /// The club that owns the session.
    pub club_id: i64,
    /// The session's game id.
    pub game: &'static str,
    /// When the session was created (RFC 3339, UTC).
    pub played_at: String,
    /// What changed.
    pub delta: FactsDelta,
}

impl FactsWrite {
    /// Writes it for session `id` in the caller's transaction.
    pub async fn write(&self, conn: &mut SqliteConnection, id: i64) -> Result<(), sqlx::Error> {
        if self.delta.is_empty() {
            return Ok(());
        }
        store::history::apply_facts_delta(
            conn,
            id,
            self.club_id,
            self.game,
            &self.played_at,
            &self.delta,
        )
        .await
    }
}

fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// What a new session needs: the game, players in seat order, the agreements, and
/// optionally the currency (USD) and scores carried in from a paper sheet.
#[derive(Debug, Clone)]
pub struct NewSessionInput {
    /// The game id.
    pub game: String,
    /// Player names in seat order, clockwise.
    pub players: Vec<String>,
    /// The table agreements as written.
    pub agreements: Map<String, Value>,
    /// ISO currency code; `None` means USD.
    pub currency: Option<String>,
    /// Scores carried in, if any.
    pub opening_scores: Option<Value>,
}

/// Creates a session, owned by `club` (or open when `None`). Errors: [`AppError::Refused`]
/// naming the field (unknown game, agreements, players); nothing is written then.
pub async fn create_session(
    pool: &WritePool,
    input: NewSessionInput,
    club: Option<i64>,
) -> Result<i64, AppError> {
    let doc = SessionDoc {
        format: SESSION_FORMAT.into(),
        game: input.game,
        currency: input.currency.unwrap_or_else(|| "USD".into()),
        agreements: input.agreements,
        // Kept as the name rules keep them; a name they refuse goes on as typed and is
        // refused, naming `players`, by the document's check.
        players: input
            .players
            .iter()
            .map(|p| crate::rules::table::player_name(p).unwrap_or_else(|_| p.clone()))
            .collect(),
        opening_scores: input.opening_scores,
        events: Vec::new(),
    };
    import(pool, &doc, club).await
}

/// Creates a session without a club, reached only through its capability links (returned
/// once: only their hashes are stored). Errors as [`create_session`].
pub async fn create_linked_session(
    pool: &WritePool,
    input: NewSessionInput,
) -> Result<(i64, SessionLinks), AppError> {
    let doc = SessionDoc {
        format: SESSION_FORMAT.into(),
        game: input.game,
        currency: input.currency.unwrap_or_else(|| "USD".into()),
        agreements: input.agreements,
        players: input.players.iter().map(|p| p.trim().to_string()).collect(),
        opening_scores: input.opening_scores,
        events: Vec::new(),
    };
    import_linked(pool, &doc).await
}

/// Imports a session document as a session without a club, reached only through its
/// capability links (returned once). Errors as [`import`].
pub async fn import_linked(
    pool: &WritePool,
    doc: &SessionDoc,
) -> Result<(i64, SessionLinks), AppError> {
    let links = SessionLinks::new()?;
    let id = import_with(pool, doc, None, Some(&links)).await?;
    Ok((id, links))
}

/// Imports a whole session document as a new session owned by `club`, or, with `None`, an
/// open session without links that anyone may reach by its id (for tools and tests; the
/// web's club-less sessions come from [`import_linked`]). The club remembers its players,
/// who keep their identity across its sessions. Errors: [`AppError::Refused`] with the
/// event index, field and rule of the first refusal; nothing is written then.
pub async fn import(
    pool: &WritePool,
    doc: &SessionDoc,
    club: Option<i64>,
) -> Result<i64, AppError> {
    import_with(pool, doc, club, None).await
}

async fn import_with(
    pool: &WritePool,
    doc: &SessionDoc,
    club: Option<i64>,
    links: Option<&SessionLinks>,
) -> Result<i64, AppError> {
    let ledger = replay(doc)?;
    let recorded_at = now();
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let id = store::insert_session(
        &mut tx,
        &NewSession {
            game: &doc.game,
            currency: &doc.currency,
            agreements: &doc.agreements,
            opening_scores: doc.opening_scores.as_ref(),
            players: &doc.players,
            created_at: &recorded_at,
            club_id: club,
        },
    )
    .await?;
    if let Some(club) = club {
        remember_players(&mut tx, club, ledger.balances.keys()).await?;
    }
    if let Some(links) = links {
        clubs::store_session_links(&mut tx, id, links).await?;
    }
    let empty = Value::Object(Map::new());
    for entry in &ledger.events {
        let body = if entry.seq == 0 {
            &empty
        } else {
            &doc.events[entry.seq - 1]
        }
        .to_string();
        let new = NewEvent {
            seq: entry.seq as i64,
            kind: &entry.kind,
            body: &body,
            explanation: &entry.explanation,
            postings: &entry.postings,
            recorded_at: &recorded_at,
        };
        store::append_event(&mut tx, id, &new).await?;
    }
    history::after_import(&mut tx, id, club, doc, &recorded_at).await?;
    tx.commit().await?;
    Ok(id)
}

/// Every player among `accounts` (a ledger's accounts) becomes one of the club's players,
/// who keep their identity across the club's sessions.
async fn remember_players(
    conn: &mut SqliteConnection,
    club: i64,
    accounts: impl Iterator<Item = &String>,
) -> Result<(), AppError> {
    for account in accounts.filter(|a| !crate::ledger::HOUSE.contains(&a.as_str())) {
        store::clubs::add_player(conn, club, account).await?;
    }
    Ok(())
}

/// The stored session's document without its events, and the club that owns it.
async fn load_header(
    conn: &mut SqliteConnection,
    id: i64,
) -> Result<(SessionDoc, String, Option<i64>), AppError> {
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

fn parse(text: &str) -> Result<Value, AppError> {
    serde_json::from_str::<Value>(text).map_err(|e| AppError::Internal(format!("stored JSON: {e}")))
}

async fn load_in(
    conn: &mut SqliteConnection,
    id: i64,
) -> Result<(SessionDoc, Vec<EventRow>, String, Option<i64>), AppError> {
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
async fn load_fresh(conn: &mut SqliteConnection, id: i64) -> Result<Loaded, AppError> {
    let (doc, rows, created_at, club_id) = load_in(conn, id).await?;
    let fold = format::fold(&doc).map_err(|r| no_longer_replays(id, &r))?;
    let mut loaded = loaded(id, doc, rows, created_at, fold);
    loaded.club_id = club_id;
    Ok(loaded)
}

fn no_longer_replays(id: i64, r: &format::Refusal) -> AppError {
    AppError::Internal(format!("stored session {id} no longer replays: {r}"))
}

/// Reads the stored session `id` and folds it to its tip, one stored event at a time, so
/// that no event stays in memory; a session with an event that needs the history (a
/// correction, undo or reopen) is read and replayed in full instead.
async fn load_tip(conn: &mut SqliteConnection, id: i64) -> Result<Kept, AppError> {
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
        return Kept::of(&load_fresh(conn, id).await?);
    }
    Ok(kept)
}

/// Session `id` with its history (document, ledger, rows, fold), read and replayed from
/// the store: what the sheet, the ledger and the export show. The cache keeps only the
/// state after the last event ([`position`], [`record_event`]), which this fills when it
/// is empty or behind. Errors: [`AppError::NotFound`].
pub async fn load(pool: &ReadPool, folds: &Folds, id: i64) -> Result<Current, AppError> {
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

/// Where session `id` stands after its last event ([`Position`]): from the cached state
/// when it holds every stored event (one indexed read to know), else read and folded from
/// the store and cached. The cost does not grow with the session when it is cached.
/// Errors: [`AppError::NotFound`].
pub async fn position(pool: &ReadPool, folds: &Folds, id: i64) -> Result<Position, AppError> {
    // The count is read before waiting for the slot, so no connection is held while
    // waiting for a writer that may itself be waiting for a connection.
    let stored = {
        let mut conn = pool.acquire().await?;
        store::event_count(&mut conn, id).await?
    };
    let slot = folds.slot(id);
    if let Some(kept) = slot.read().await.as_ref().filter(|k| k.events() >= stored) {
        return Ok(Position::of_tip(&kept.tip));
    }
    let fresh = {
        let mut conn = pool.acquire().await?;
        load_tip(&mut conn, id).await?
    };
    let position = Position::of_tip(&fresh.tip);
    let mut guard = slot.write().await;
    // A writer may have committed a later event while this one read: keep the later state.
    if guard.as_ref().is_none_or(|k| k.events() < fresh.events()) {
        *guard = Some(fresh);
    }
    Ok(position)
}

/// The game session `id` is played at (it never changes): from the state the cache holds,
/// else from the stored header (one read by its key), never from the session's history.
/// What a hand form needs to become an event. Errors: [`AppError::NotFound`].
pub async fn game(pool: &ReadPool, folds: &Folds, id: i64) -> Result<&'static GameInfo, AppError> {
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
pub async fn kept(folds: &Folds, id: i64) -> Option<Kept> {
    folds.slot(id).read().await.clone()
}

fn loaded(id: i64, doc: SessionDoc, rows: Vec<EventRow>, created_at: String, fold: Fold) -> Loaded {
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
    conn: &mut SqliteConnection,
    id: i64,
    whole: bool,
) -> Result<Target, AppError> {
    Ok(if whole {
        Target::Whole(Box::new(load_fresh(conn, id).await?))
    } else {
        Target::Tip(load_tip(conn, id).await?)
    })
}

/// Records one event at the end of a session, in one transaction: the event is applied to
/// the session's state as cached in `folds` (or, on a miss or when another process wrote
/// since, as read and folded from the store), and only when the rules accept it is it
/// appended with its postings; after the commit the cache holds the new state. An event
/// that needs the history (`void`, `correction`, `reopen`) and every event of a club's
/// session (whose history facts are rewritten from the whole fold) go through the session
/// read and replayed in full. Without an idempotency key the event is applied before the
/// write lock is taken (the session's slot is held throughout), and a plain event of an
/// open session is then committed in a group with the records other requests made
/// meanwhile ([`commit`]: one durable commit for the group, the answer only after it); the
/// insert itself checks, under the lock, that the stored count is still the one the state
/// had. The cost is the one event and a share of one commit, whatever the session's length,
/// when the session is cached and the event a plain one.
/// `expected_events`: the number of events the caller saw (a form's hidden field); when the
/// session has moved on since, the event is refused with [`AppError::Conflict`] so the
/// same hand is not entered twice from two devices. `idempotency_key`: a client's key for
/// this request; a retry with the same key records nothing and returns the first result.
/// Errors: [`AppError::Refused`] naming the event index, field and rule;
/// [`AppError::NotFound`]. Nothing is written on error.
pub async fn record_event(
    pool: &WritePool,
    folds: &Folds,
    id: i64,
    event: Value,
    expected_events: Option<usize>,
    idempotency_key: Option<&str>,
) -> Result<Recorded, AppError> {
    if event.get("type").and_then(Value::as_str) == Some("payment") {
        nights::refuse_session_payment(pool.reader(), id).await?;
    }
    // The slot before the connection: see the lock order in `folds`.
    let mut slot = folds.slot(id).write_owned().await;
    // With a key, the transaction starts first, so a retry is known before anything else
    // happens; without one, the event is applied before the write lock is taken, so that
    // the one writer connection is held only for the statements and the commit.
    let mut tx = None;
    if let Some(key) = idempotency_key {
        let mut t = pool.begin_with("BEGIN IMMEDIATE").await?;
        if let Some(seq) = store::idempotent_seq(&mut t, id, key).await? {
            drop(t);
            drop(slot);
            return repeated(pool, folds, id, usize::try_from(seq).unwrap_or_default()).await;
        }
        tx = Some(t);
    }
    let history = Tip::needs_history(&event);
    // Taken out of the slot: should anything below fail or be cancelled before the state
    // is put back, the slot stays empty and the next request replays from the store. An
    // event that needs the history leaves it there until the whole session is read.
    let target = match slot.take() {
        Some(kept) if !history => Target::Tip(kept),
        kept => {
            *slot = kept;
            let target = match tx.as_mut() {
                Some(t) => read_target(t, id, history).await?,
                None => read_target(&mut *pool.acquire().await?, id, history).await?,
            };
            slot.take();
            target
        }
    };
    let pending = Pending {
        id,
        expected_events,
        body: event.to_string(),
        recorded_at: now(),
        event,
    };
    let (target, before, entry) = match tx {
        Some(mut tx) => {
            let mut target = target;
            let before = target.events();
            let applied = apply_one(&mut target, &pending.event, pending.expected_events);
            let done = record_under_lock(
                &mut tx,
                &mut slot,
                (target, before, applied),
                &pending,
                false,
            )
            .await?;
            finish_write(&mut tx, &pending, idempotency_key, &done).await?;
            tx.commit().await?;
            done
        }
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

/// An event on its way to the store: the session, the event as written, its text, when it
/// was recorded, and the count of events the caller saw.
struct Pending {
    id: i64,
    event: Value,
    expected_events: Option<usize>,
    body: String,
    recorded_at: String,
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
            recorded_at: pending.recorded_at.clone(),
            facts: facts.clone(),
        };
        match folds.committer().append(pool, append).await? {
            Appended::Committed => return Ok((target, before, applied?)),
            Appended::Stale => stale = true,
        }
    }
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let done = record_under_lock(&mut tx, slot, (target, before, applied), pending, stale).await?;
    finish_write(&mut tx, pending, None, &done).await?;
    tx.commit().await?;
    Ok(done)
}

/// Appends the event `applied` to `target` (which held `before` events) in `tx`, which
/// holds the write lock. The state it was applied to is current when the store holds as
/// many events as it did: an accepted event's insert checks that itself, a refusal reads
/// the count. When another process wrote since (or `stale` says so already), the state is
/// read again under the lock and the event applied to that. Errors: the rules' refusal or
/// a conflict, after which `slot` holds the state unchanged; the store's errors, after
/// which it stays empty.
async fn record_under_lock(
    tx: &mut SqliteConnection,
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
                let new = NewEvent {
                    seq: before as i64 + 1,
                    kind: &entry.kind,
                    body: &pending.body,
                    explanation: &entry.explanation,
                    postings: &entry.postings,
                    recorded_at: &pending.recorded_at,
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
    tx: &mut SqliteConnection,
    pending: &Pending,
    idempotency_key: Option<&str>,
    (target, before, (_, facts)): &Done,
) -> Result<(), AppError> {
    if let Some(key) = idempotency_key {
        let seq = i64::try_from(*before).unwrap_or(i64::MAX).saturating_add(1);
        store::remember_idempotency_key(tx, pending.id, key, seq, &pending.recorded_at).await?;
    }
    if let Some(facts) = facts {
        facts.write(tx, pending.id).await?;
    }
    if let Target::Whole(state) = target
        && let Some(club) = state.club_id
    {
        // A newcomer at a club's table becomes one of the club's players.
        remember_players(tx, club, state.fold.balances().as_map().keys()).await?;
        history::after_event(tx, pending.id, &state.doc, &state.fold, &state.created_at).await?;
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

/// The answer to a retry of the event at `seq`: the first answer again (README: "200 with
/// the first result"), so the session's first `seq` events are read from the store and
/// replayed: `event_count`, balances, scores and settlement as they stood just after it,
/// not as later events left them.
async fn repeated(
    pool: &WritePool,
    folds: &Folds,
    id: i64,
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
pub async fn event_count(pool: &ReadPool, id: i64) -> Result<usize, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::event_count(&mut conn, id).await?)
}

/// The balances as summed from the stored postings (cents by account); they equal the
/// ledger's balances, which tests check.
pub async fn stored_balances(pool: &ReadPool, id: i64) -> Result<Vec<(String, i64)>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::balances(&mut conn, id).await?)
}
pub mod clubs;
