//! Use cases: load, call the pure core, check, persist, in one transaction each.
//!
//! The HTML pages and the JSON API call these same functions. The ledger of a stored
//! session is always `replay` of its session document, so it cannot drift from what
//! `scorekeeper replay` prints for the exported document: a session kept folded in memory
//! ([`Folds`]) is that replay carried forward one event at a time, which the property
//! tests check against a full replay after every event.

mod folds;
pub mod history;
pub mod nights;

use chrono::{SecondsFormat, Utc};
use serde_json::{Map, Value};
use sqlx::{SqliteConnection, SqlitePool};

use crate::error::AppError;
use crate::format::{self, LedgerDoc, SESSION_FORMAT, SessionDoc, replay};
use crate::session::Fold;
use crate::store::{self, EventRow, NewEvent, NewSession, SessionSummaryRow};
pub use folds::{Current, DEFAULT_CAPACITY, Folds};

use self::clubs::SessionLinks;

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
    pool: &SqlitePool,
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
    pool: &SqlitePool,
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
    pool: &SqlitePool,
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
    pool: &SqlitePool,
    doc: &SessionDoc,
    club: Option<i64>,
) -> Result<i64, AppError> {
    import_with(pool, doc, club, None).await
}

async fn import_with(
    pool: &SqlitePool,
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

async fn load_in(
    conn: &mut SqliteConnection,
    id: i64,
) -> Result<(SessionDoc, Vec<EventRow>, String, Option<i64>), AppError> {
    let row = store::session(conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
    let players = store::players(conn, id).await?;
    let rows = store::events(conn, id).await?;
    let parse = |text: &str| {
        serde_json::from_str::<Value>(text)
            .map_err(|e| AppError::Internal(format!("stored JSON: {e}")))
    };
    let agreements = match parse(&row.agreements)? {
        Value::Object(m) => m,
        _ => {
            return Err(AppError::Internal(
                "stored agreements are not an object".into(),
            ));
        }
    };
    let opening_scores = row.opening_scores.as_deref().map(parse).transpose()?;
    let events = rows
        .iter()
        .filter(|r| r.seq > 0)
        .map(|r| parse(&r.body))
        .collect::<Result<Vec<_>, _>>()?;
    let doc = SessionDoc {
        format: SESSION_FORMAT.into(),
        game: row.game,
        currency: row.currency,
        agreements,
        players,
        opening_scores,
        events,
    };
    Ok((doc, rows, row.created_at, row.club_id))
}

/// Reads the stored session `id` and replays it in full.
async fn load_fresh(conn: &mut SqliteConnection, id: i64) -> Result<Loaded, AppError> {
    let (doc, rows, created_at, club_id) = load_in(conn, id).await?;
    let fold = format::fold(&doc)
        .map_err(|r| AppError::Internal(format!("stored session {id} no longer replays: {r}")))?;
    let mut loaded = loaded(id, doc, rows, created_at, fold);
    loaded.club_id = club_id;
    Ok(loaded)
}

/// Session `id` with its ledger: from `folds` when the cached state holds every stored
/// event (one indexed read to know), else read and replayed in full, and cached. Hold the
/// answer only for the request: a write to the session waits for it. Errors:
/// [`AppError::NotFound`].
pub async fn load(pool: &SqlitePool, folds: &Folds, id: i64) -> Result<Current, AppError> {
    // The count is read before waiting for the slot, so no connection is held while
    // waiting for a writer that may itself be waiting for a connection.
    let stored = {
        let mut conn = pool.acquire().await?;
        store::event_count(&mut conn, id).await?
    };
    let slot = folds.slot(id);
    if let Some(current) = Current::if_current(slot.clone().read_owned().await, stored) {
        return Ok(current);
    }
    let fresh = {
        let mut conn = pool.acquire().await?;
        load_fresh(&mut conn, id).await?
    };
    let mut guard = slot.write_owned().await;
    // A writer may have committed a later event while this one read: keep the later state.
    if guard.as_ref().is_none_or(|l| l.events() < fresh.events()) {
        *guard = Some(fresh);
    }
    Current::of(guard)
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
    /// The session after the event (hold it only for the request, as [`load`]'s answer).
    pub loaded: Current,
    /// The event's position in the ledger (its index + 1).
    pub seq: usize,
    /// True when the idempotency key had already recorded this event: nothing new was
    /// written.
    pub repeated: bool,
}

/// Records one event at the end of a session, in one transaction: the event is applied to
/// the session as cached in `folds` (or, on a miss or when another process wrote since,
/// as read and replayed from the store), and only when the rules accept it is it appended
/// with its postings; after the commit the cache holds the new state. Without an
/// idempotency key the event is applied before the write lock is taken (the session's slot
/// is held throughout), so the one writer connection is held only for the statements and
/// the commit; the stored count, read under the lock, tells whether that was current. The cost is the one
/// event and one commit, whatever the session's length, when the session is cached.
/// `expected_events`: the number of events the caller saw (a form's hidden field); when the
/// session has moved on since, the event is refused with [`AppError::Conflict`] so the
/// same hand is not entered twice from two devices. `idempotency_key`: a client's key for
/// this request; a retry with the same key records nothing and returns the first result.
/// Errors: [`AppError::Refused`] naming the event index, field and rule;
/// [`AppError::NotFound`]. Nothing is written on error. The caller must not hold a
/// [`Current`] of the same session (this waits for it).
pub async fn record_event(
    pool: &SqlitePool,
    folds: &Folds,
    id: i64,
    event: Value,
    expected_events: Option<usize>,
    idempotency_key: Option<&str>,
) -> Result<Recorded, AppError> {
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
            return Ok(Recorded {
                loaded: load(pool, folds, id).await?,
                seq: seq as usize,
                repeated: true,
            });
        }
        tx = Some(t);
    }
    // Taken out of the slot: should anything below fail or be cancelled before the state
    // is put back, the slot stays empty and the next request replays from the store.
    let mut state = match slot.take() {
        Some(cached) => cached,
        None => match tx.as_mut() {
            Some(t) => load_fresh(t, id).await?,
            None => load_fresh(&mut *pool.acquire().await?, id).await?,
        },
    };
    let mut applied = apply_one(&mut state, &event, expected_events);
    let mut tx = match tx {
        Some(t) => t,
        None => pool.begin_with("BEGIN IMMEDIATE").await?,
    };
    let stored = store::event_count(&mut tx, id).await?;
    // The document's events are appended only after the commit: this is the count the
    // fold was at before the event.
    let before = state.events();
    if stored != before {
        // Another process wrote since the cache was filled: replay from the store, then
        // apply the event to that.
        state = load_fresh(&mut tx, id).await?;
        applied = apply_one(&mut state, &event, expected_events);
    }
    let (kind, explanation) = match applied {
        Ok(row) => row,
        // A refused event leaves the fold unchanged (`Fold::apply`), so it goes back as it
        // was; after anything else the slot stays empty.
        Err(e @ (AppError::Refused(_) | AppError::Conflict { .. })) => {
            *slot = Some(state);
            return Err(e);
        }
        Err(e) => return Err(e),
    };
    let index = state.events();
    let recorded_at = now();
    let seq = index as i64 + 1;
    let body = event.to_string();
    let new = NewEvent {
        seq,
        kind: &kind,
        body: &body,
        explanation: &explanation,
        postings: state.fold.rows().last().map_or(&[], |r| &r.postings),
        recorded_at: &recorded_at,
    };
    let event_id = store::append_event(&mut tx, id, &new).await?;
    if let Some(key) = idempotency_key {
        store::remember_idempotency_key(&mut tx, id, key, seq, &recorded_at).await?;
    }
    // A newcomer at a club's table becomes one of the club's players.
    if let Some(club) = state.club_id {
        remember_players(&mut tx, club, state.fold.balances().as_map().keys()).await?;
    }
    history::after_event(&mut tx, id, &state.doc, &state.fold, &state.created_at).await?;
    tx.commit().await?;
    state.doc.events.push(event);
    state.rows.push(EventRow {
        id: event_id,
        seq,
        kind,
        body,
        explanation,
        recorded_at,
    });
    format::extend_ledger(&mut state.ledger, &state.fold);
    state.seated = state.fold.table().seated().to_vec();
    state.next_dealer = state.fold.next_dealer();
    *slot = Some(state);
    Ok(Recorded {
        loaded: Current::of(slot)?,
        seq: seq as usize,
        repeated: false,
    })
}

/// Applies `event` to the fold of `state` as its next event (nothing else of `state`
/// changes): its row's kind and explanation. Errors: [`AppError::Conflict`] when
/// `expected_events` is not the number of events so far; the rules' refusal. On error the
/// fold is unchanged.
fn apply_one(
    state: &mut Loaded,
    event: &Value,
    expected_events: Option<usize>,
) -> Result<(String, String), AppError> {
    let index = state.events();
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
    state.fold.apply(index, event)?;
    match state.fold.rows().last() {
        Some(row) if row.index == Some(index) => Ok((row.kind.clone(), row.explanation.clone())),
        _ => Err(AppError::Internal(
            "the fold made no row for the event".into(),
        )),
    }
}

/// How many events session `id` holds as stored now (0 for none, or no such session): one
/// read of an index, whatever the session's length, so that a client's copy can be told
/// current (an `ETag`) without loading the session.
pub async fn event_count(pool: &SqlitePool, id: i64) -> Result<usize, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::event_count(&mut conn, id).await?)
}

/// The sessions of `club`, newest first; none without a club: a session without a club is
/// reached only through its links, never listed.
pub async fn list(
    pool: &SqlitePool,
    club: Option<i64>,
) -> Result<Vec<SessionSummaryRow>, AppError> {
    let Some(club) = club else {
        return Ok(Vec::new());
    };
    let mut conn = pool.acquire().await?;
    Ok(store::list_sessions(&mut conn, Some(club))
        .await?
        .into_iter()
        .filter(|s| s.club_id == Some(club))
        .collect())
}

/// The balances as summed from the stored postings (cents by account); they equal the
/// ledger's balances, which tests check.
pub async fn stored_balances(pool: &SqlitePool, id: i64) -> Result<Vec<(String, i64)>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::balances(&mut conn, id).await?)
}
pub mod clubs;
