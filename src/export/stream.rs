//! A session's downloads written as they are read: the session document, its journal and
//! its postings CSV, a page of stored events at a time, each page read on a connection of
//! the read pool taken for that page alone. What the server holds is one page (and, for the
//! postings, the standing hands' numbers), whatever the session's length; a client
//! that reads slowly holds no connection, and no lock a writer waits for. The events are
//! append-only and every page stops at the last `seq` counted before the first, so the pages
//! make one consistent answer, byte for byte what the builders of [`super`] write.
//!
//! A store error on a later page cannot become a status any more: the body ends with the
//! error instead. The body has no `Content-Length`, so HTTP/1.1 sends it chunked, and hyper
//! ends a chunked body with its last, empty chunk only when the stream ends without error;
//! on an error it closes the connection without it, and the client sees a broken transfer,
//! never a short 200 that looks whole ([`Download::body`]).

use axum::body::{Body, Bytes};
use chrono::{DateTime, Utc};
use futures_util::stream::{self, TryStreamExt as _};
use serde::Deserialize;
use serde_json::Value;
use tokio_stream::StreamExt as _;

use super::{EntryLine, JOURNAL_HEAD, JournalSession, POSTINGS_HEADER};
use super::{write_postings, write_transaction};
use crate::error::AppError;
use crate::format::{self, SESSION_FORMAT, SessionDoc, ledger_standing_json};
use crate::ids::{ClubId, SessionId};
use crate::ledger::Posting;
use crate::service::Folds;
use crate::session::{EventKind, Fold, HandNumbers};
use crate::store::exported::{self, ExportRow};
use crate::store::{self, Connected, ReadPool};

/// Events read per page: a few hundred kilobytes of text at most.
pub(super) const PAGE: i64 = 500;

/// What a download writes for each stored event, in `seq` order.
pub trait EventWriter: Send + 'static {
    /// Appends what `row` shows to `out`. Errors: [`AppError::Internal`] for stored text
    /// that does not read back (a bug or a damaged database).
    fn write(&mut self, row: ExportRow, out: &mut Vec<u8>) -> Result<(), AppError>;
}

/// A download of one session: `head`, what `writer` makes of each stored event with
/// `after < seq <= through`, then `tail`.
pub struct Download<W> {
    pub(super) pool: ReadPool,
    pub(super) id: SessionId,
    pub(super) after: i64,
    pub(super) through: i64,
    pub(super) head: Vec<u8>,
    pub(super) tail: Option<Vec<u8>>,
    pub(super) writer: W,
}

impl<W: EventWriter> Download<W> {
    /// The streamed body: one chunk per page. The stream ends after the first error
    /// (`try_unfold` stops there), which hyper turns into a broken transfer (see the
    /// module's documentation); the error is logged, as the client sees no message.
    pub fn body(self) -> Body {
        let id = self.id;
        let pages = stream::try_unfold(self, Download::page).inspect_err(move |e| {
            tracing::error!(session = id.0, "a download broke off: {e}");
        });
        Body::from_stream(pages)
    }

    /// This download with its writer made into another (a part of a chain of them).
    pub(super) fn with_writer<V>(self, into: impl FnOnce(W) -> V) -> Download<V> {
        Download {
            pool: self.pool,
            id: self.id,
            after: self.after,
            through: self.through,
            head: self.head,
            tail: self.tail,
            writer: into(self.writer),
        }
    }

    /// The next page's bytes (the head before the first, the tail after the last), or
    /// `None` once the tail is written. Errors: the store's; the writer's.
    pub(super) async fn page(mut self) -> Result<Option<(Bytes, Download<W>)>, AppError> {
        let Some(tail) = self.tail.take() else {
            return Ok(None);
        };
        let mut out = std::mem::take(&mut self.head);
        let upto = self.after.saturating_add(PAGE).min(self.through);
        let writer = &mut self.writer;
        read_page(&self.pool, self.id, (self.after, upto), |row| {
            writer.write(row, &mut out)
        })
        .await?;
        self.after = self.after.max(upto);
        match self.after >= self.through {
            true => out.extend_from_slice(&tail),
            false => self.tail = Some(tail),
        }
        Ok(Some((Bytes::from(out), self)))
    }
}

/// Runs `each` on session `id`'s stored events with `after < seq <= upto`, in order, on a
/// connection taken for this page alone. Errors: the store's; the first of `each`.
pub(super) async fn read_page(
    pool: &ReadPool,
    id: SessionId,
    (after, upto): (i64, i64),
    mut each: impl FnMut(ExportRow) -> Result<(), AppError>,
) -> Result<(), AppError> {
    if upto <= after {
        return Ok(());
    }
    let mut conn = pool.acquire().await?;
    let mut rows = exported::export_rows(&mut conn, id, (after, upto));
    while let Some(row) = rows.next().await {
        each(row?)?;
    }
    Ok(())
}

pub(super) fn no_longer_replays(id: SessionId, r: &format::Refusal) -> AppError {
    AppError::Internal(format!("stored session {id} no longer replays: {r}"))
}

fn parse(text: &str) -> Result<Value, AppError> {
    serde_json::from_str(text).map_err(|e| AppError::Internal(format!("stored JSON: {e}")))
}

/// The stored session `id`'s document without its events, when it was created, and the
/// club that owns it. Errors: [`AppError::NotFound`]; [`AppError::Internal`] for stored
/// agreements that are not a JSON object.
pub async fn session_header(
    conn: &mut impl Connected,
    id: SessionId,
) -> Result<(SessionDoc, DateTime<Utc>, Option<ClubId>), AppError> {
    let row = store::session(conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
    let players = store::players(conn, id).await?;
    let Value::Object(agreements) = parse(&row.agreements)? else {
        return Err(AppError::Internal(
            "stored agreements are not an object".into(),
        ));
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

/// What every download of session `id` starts from: its header, creation time and the last
/// `seq` the pages will read. Errors: as [`session_header`].
pub(super) async fn start(
    pool: &ReadPool,
    id: SessionId,
) -> Result<(SessionDoc, DateTime<Utc>, i64), AppError> {
    let mut conn = pool.acquire().await?;
    let (header, created_at, _) = session_header(&mut conn, id).await?;
    let through = store::event_count(&mut conn, id).await?;
    Ok((
        header,
        created_at,
        i64::try_from(through).unwrap_or(i64::MAX),
    ))
}

/// Whether every event of session `id` with `after < seq <= through` has its ledger entry
/// stored, so that its download may be read from the entries alone.
pub(super) async fn entries_stored(
    pool: &ReadPool,
    id: SessionId,
    range: (i64, i64),
) -> Result<bool, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(exported::entries_missing(&mut conn, id, range).await? == 0)
}

/// The session document's events, each as its stored text reads back (what
/// `GET /sessions/{id}/export` always wrote), comma-separated.
pub(super) struct DocumentEvents {
    pub(super) first: bool,
}

impl EventWriter for DocumentEvents {
    fn write(&mut self, row: ExportRow, out: &mut Vec<u8>) -> Result<(), AppError> {
        comma_unless_first(&mut self.first, out);
        serde_json::to_writer(out, &parse(&row.body)?)
            .map_err(|e| AppError::Internal(format!("an event: {e}")))
    }
}

/// `header` (a session document without events) serialized up to its events' `[`.
/// Errors: [`AppError::Internal`] (plain data always serializes: a bug).
pub(super) fn document_head(header: &SessionDoc) -> Result<Vec<u8>, AppError> {
    let mut head = serde_json::to_vec(header)
        .map_err(|e| AppError::Internal(format!("the session document: {e}")))?;
    // `events` is the document's last field: serialized empty, it closes the document.
    if !head.ends_with(b"[]}") {
        return Err(AppError::Internal(
            "the session document does not end with its events".into(),
        ));
    }
    head.truncate(head.len() - 2);
    Ok(head)
}

/// Session `id`'s document (`scorekeeper/session@1`), streamed: the same bytes as
/// `serde_json::to_vec` of the loaded document. Errors (before the first byte):
/// [`AppError::NotFound`]; the store's.
pub async fn session_document(pool: &ReadPool, id: SessionId) -> Result<Body, AppError> {
    let (header, _, through) = start(pool, id).await?;
    let head = document_head(&header)?;
    let download = Download {
        pool: pool.clone(),
        id,
        after: 0,
        through,
        head,
        tail: Some(b"]}".to_vec()),
        writer: DocumentEvents { first: true },
    };
    Ok(download.body())
}

/// `row`'s stored ledger entry, JSON text. Errors: [`AppError::Internal`] for an event
/// without one (checked before a download starts: a bug, or one stored meanwhile).
fn stored_entry(row: &ExportRow) -> Result<&str, AppError> {
    row.entry
        .as_deref()
        .ok_or_else(|| AppError::Internal(format!("event {} has no ledger entry", row.seq)))
}

/// A `,` in `out` before every item of a list but its first (`first` says, and is cleared).
pub(super) fn comma_unless_first(first: &mut bool, out: &mut Vec<u8>) {
    if !std::mem::take(first) {
        out.push(b',');
    }
}

/// The ledger document's entries: each stored entry's text as written, comma-separated.
struct LedgerEntries {
    first: bool,
}

impl EventWriter for LedgerEntries {
    fn write(&mut self, row: ExportRow, out: &mut Vec<u8>) -> Result<(), AppError> {
        let entry = stored_entry(&row)?;
        comma_unless_first(&mut self.first, out);
        out.extend_from_slice(entry.as_bytes());
        Ok(())
    }
}

/// Session `id`'s ledger document (`scorekeeper/ledger@1`) with the entries `seq > after`
/// (all without `after`), streamed: the stored entries, then where the cached state stands,
/// the same bytes as [`crate::service::stored_ledger`]; with the event count it is as of
/// (for the `ETag`). `None` when an event has no stored entry: that ledger is folded
/// instead. Errors (before the first byte): [`AppError::NotFound`]; the store's.
pub async fn session_ledger(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
    after: Option<usize>,
) -> Result<Option<(usize, Body)>, AppError> {
    let glance = crate::service::glance(pool, folds, id).await?;
    let events = glance.tip.events();
    let json = ledger_standing_json(glance.tip.game().id, &glance.currency, &glance.tip)
        .map_err(|e| AppError::Internal(format!("the ledger document: {e}")))?;
    drop(glance);
    let range = (
        after.map_or(-1, |a| i64::try_from(a).unwrap_or(i64::MAX)),
        i64::try_from(events).unwrap_or(i64::MAX),
    );
    if !entries_stored(pool, id, range).await? {
        return Ok(None);
    }
    // Serialized with no entries, the document holds `"events":[]` exactly once.
    let empty = "\"events\":[]";
    let (head, tail) = json
        .split_once(empty)
        .ok_or_else(|| AppError::Internal("the ledger document has no events".into()))?;
    let download = Download {
        pool: pool.clone(),
        id,
        after: range.0,
        through: range.1,
        head: format!("{head}\"events\":[").into_bytes(),
        tail: Some(format!("]{tail}").into_bytes()),
        writer: LedgerEntries { first: true },
    };
    Ok(Some((events, download.body())))
}

/// A stored ledger entry, as the journal, the postings CSV and the chart read it back.
#[derive(Deserialize)]
pub(super) struct StoredEntry {
    pub(super) seq: usize,
    #[serde(rename = "type")]
    pub(super) kind: String,
    pub(super) postings: Vec<Posting>,
    explanation: String,
}

/// An event's type and, for an undo, its target: all a download from the stored ledger
/// entries reads of the event itself, for its hand number.
#[derive(Deserialize)]
struct EventHead {
    #[serde(rename = "type")]
    kind: String,
    event: Option<Value>,
}

/// Each stored event's ledger entry and hand number, in `seq` order, with no rules run: the
/// game says which types deal, [`HandNumbers`] numbers them as the fold does.
pub(super) struct NumberedEntries {
    id: SessionId,
    /// The session's fold before any event: its engine says which types deal.
    start: Fold,
    numbers: HandNumbers,
}

impl NumberedEntries {
    /// For session `id` of `header`. Errors: [`AppError::Internal`] for a header the game
    /// now refuses.
    pub(super) fn of(id: SessionId, header: &SessionDoc) -> Result<NumberedEntries, AppError> {
        Ok(NumberedEntries {
            id,
            start: format::start(header).map_err(|r| no_longer_replays(id, &r))?,
            numbers: HandNumbers::default(),
        })
    }

    /// The stored `row`'s ledger entry and hand number; `row` must be the next in `seq`
    /// order. Errors: [`AppError::Internal`] for stored text that does not read back.
    pub(super) fn read(
        &mut self,
        row: &ExportRow,
    ) -> Result<(StoredEntry, Option<usize>), AppError> {
        let entry: StoredEntry = serde_json::from_str(stored_entry(row)?)
            .map_err(|e| AppError::Internal(format!("a stored ledger entry: {e}")))?;
        // The opening ante (seq 0) is no event.
        let Some(index) = usize::try_from(row.seq).ok().and_then(|s| s.checked_sub(1)) else {
            return Ok((entry, None));
        };
        let head: EventHead = serde_json::from_str(&row.body).map_err(|e| {
            AppError::Internal(format!(
                "session {}'s stored event {}: {e}",
                self.id, row.seq
            ))
        })?;
        let voids = (head.kind == EventKind::Void.as_str())
            .then(|| head.event.as_ref().and_then(Value::as_u64))
            .flatten()
            .and_then(|t| usize::try_from(t).ok());
        let deals = self.start.engine().is_deal(&head.kind);
        Ok((entry, self.numbers.next(index, deals, voids)))
    }
}

/// The journal's transactions, one per stored ledger entry, dated by the event's record.
pub(super) struct Transactions {
    id: SessionId,
    game: String,
    currency: String,
}

impl EventWriter for Transactions {
    fn write(&mut self, row: ExportRow, out: &mut Vec<u8>) -> Result<(), AppError> {
        let entry: StoredEntry = serde_json::from_str(stored_entry(&row)?)
            .map_err(|e| AppError::Internal(format!("a stored ledger entry: {e}")))?;
        let line = EntryLine {
            seq: entry.seq,
            kind: &entry.kind,
            postings: &entry.postings,
            explanation: &entry.explanation,
            hand: None,
            recorded_at: row.recorded_at,
        };
        let named = JournalSession {
            id: self.id,
            game: &self.game,
            currency: &self.currency,
        };
        let mut transaction = String::new();
        write_transaction(&mut transaction, named, &line);
        out.extend_from_slice(transaction.as_bytes());
        Ok(())
    }
}

/// Session `id`'s journal transactions between `head` and `tail`, to be read page by page.
/// Errors: as [`start`].
pub(super) async fn transactions(
    pool: &ReadPool,
    id: SessionId,
    head: Vec<u8>,
    tail: Vec<u8>,
) -> Result<Download<Transactions>, AppError> {
    let (header, _, through) = start(pool, id).await?;
    Ok(Download {
        pool: pool.clone(),
        id,
        after: -1,
        through,
        head,
        tail: Some(tail),
        writer: Transactions {
            id,
            game: header.game,
            currency: header.currency,
        },
    })
}

/// Session `id`'s journal from its stored ledger entries, streamed, ending with `tail`
/// (the night's payments, [`super::nights::append_journal`]): the same bytes as
/// [`super::journal`] then the tail. `None` when an event has no stored entry (stored
/// before entries were kept): that session's journal is built from its fold instead.
/// Errors (before the first byte): [`AppError::NotFound`]; the store's.
pub async fn session_journal(
    pool: &ReadPool,
    id: SessionId,
    tail: String,
) -> Result<Option<Body>, AppError> {
    let head = JOURNAL_HEAD.as_bytes().to_vec();
    let download = transactions(pool, id, head, tail.into_bytes()).await?;
    if !entries_stored(pool, id, (-1, download.through)).await? {
        return Ok(None);
    }
    Ok(Some(download.body()))
}

/// The postings CSV's rows, one line per posting of each stored ledger entry, each with its
/// hand number: no rules run, and what is held is a page and the standing deals' numbers.
struct PostingRows {
    entries: NumberedEntries,
}

impl EventWriter for PostingRows {
    fn write(&mut self, row: ExportRow, out: &mut Vec<u8>) -> Result<(), AppError> {
        let (entry, hand) = self.entries.read(&row)?;
        let line = EntryLine {
            seq: entry.seq,
            kind: &entry.kind,
            postings: &entry.postings,
            explanation: &entry.explanation,
            hand,
            recorded_at: row.recorded_at,
        };
        let mut w = csv::Writer::from_writer(out);
        write_postings(&mut w, &line).map_err(|e| AppError::Internal(e.to_string()))?;
        w.flush().map_err(|e| AppError::Internal(e.to_string()))
    }
}

/// Session `id`'s postings CSV from its stored ledger entries, streamed: the same bytes as
/// [`super::postings_csv`]. `None` when an event has no stored entry (stored before entries
/// were kept): that session's CSV is built from its fold instead. Errors (before the first
/// byte): [`AppError::NotFound`]; the store's; a header the game refuses.
pub async fn session_postings(pool: &ReadPool, id: SessionId) -> Result<Option<Body>, AppError> {
    let (header, _, through) = start(pool, id).await?;
    if !entries_stored(pool, id, (-1, through)).await? {
        return Ok(None);
    }
    let entries = NumberedEntries::of(id, &header)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(POSTINGS_HEADER)
        .map_err(|e| AppError::Internal(e.to_string()))?;
    let head = super::finish(w).map_err(|e| AppError::Internal(e.to_string()))?;
    let download = Download {
        pool: pool.clone(),
        id,
        after: -1,
        through,
        head,
        tail: Some(Vec::new()),
        writer: PostingRows { entries },
    };
    Ok(Some(download.body()))
}
