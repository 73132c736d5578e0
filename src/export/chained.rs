//! A club's long downloads, its journal and its whole export: each session's part written
//! a page at a time ([`super::stream`]), one session after another, between a head and a
//! tail. What is held is one page and the club's frame (names, people, nights), whatever
//! the number and length of its sessions. As with one session's download, the stream ends
//! at its first error, which the client sees as a broken transfer.

use std::collections::VecDeque;

use axum::body::{Body, Bytes};
use futures_util::stream::{self, TryStreamExt as _};

use super::JOURNAL_HEAD;
use super::club::{SessionMeta, export_frame};
use super::stream::{
    DocumentEvents, Download, EventWriter, Transactions, comma_unless_first, document_head,
    entries_stored, start, transactions,
};
use crate::error::AppError;
use crate::ids::{ClubId, SessionId};
use crate::service::Folds;
use crate::service::clubs::Club;
use crate::store::exported::ExportRow;
use crate::store::time::rfc3339;
use crate::store::{ReadPool, WritePool};

/// What one part of a chain writes for each stored event.
enum Part {
    /// The journal's transactions.
    Transactions(Transactions),
    /// The export's `recorded_at` list.
    Times(Times),
    /// The session document's events.
    Events(DocumentEvents),
}

impl EventWriter for Part {
    fn write(&mut self, row: ExportRow, out: &mut Vec<u8>) -> Result<(), AppError> {
        match self {
            Part::Transactions(w) => w.write(row, out),
            Part::Times(w) => w.write(row, out),
            Part::Events(w) => w.write(row, out),
        }
    }
}

/// Each event's record time as the club export lists it: RFC 3339 strings, comma-separated.
struct Times {
    first: bool,
}

impl EventWriter for Times {
    fn write(&mut self, row: ExportRow, out: &mut Vec<u8>) -> Result<(), AppError> {
        comma_unless_first(&mut self.first, out);
        serde_json::to_writer(out, &rfc3339(row.recorded_at))
            .map_err(|e| AppError::Internal(format!("a record time: {e}")))
    }
}

/// JSON text of plain data. Errors: [`AppError::Internal`] (it always serializes: a bug).
fn json(value: &impl serde::Serialize) -> Result<String, AppError> {
    serde_json::to_string(value).map_err(|e| AppError::Internal(format!("the club export: {e}")))
}

/// The two parts of session `id` in the club export, an [`super::ExportedSession`]: its
/// time and record times, then its document, title (from `meta`) and archive flag; after a
/// comma unless it is the first. Errors: as [`start`].
async fn export_parts(
    pool: &ReadPool,
    id: SessionId,
    meta: Option<&(Option<String>, bool)>,
    first: bool,
) -> Result<Vec<Download<Part>>, AppError> {
    let (header, created_at, through) = start(pool, id).await?;
    let (title, archived) = meta.cloned().unwrap_or_default();
    let comma = if first { "" } else { "," };
    let head = format!(
        "{comma}{{\"created_at\":{},\"recorded_at\":[",
        json(&rfc3339(created_at))?
    );
    let mut middle = b"],\"session\":".to_vec();
    middle.extend(document_head(&header)?);
    let end = format!("]}},\"title\":{},\"archived\":{archived}}}", json(&title)?);
    let part = |head: Vec<u8>, tail: Vec<u8>, writer| Download {
        pool: pool.clone(),
        id,
        after: 0,
        through,
        head,
        tail: Some(tail),
        writer,
    };
    Ok(vec![
        part(
            head.into_bytes(),
            middle,
            Part::Times(Times { first: true }),
        ),
        part(
            Vec::new(),
            end.into_bytes(),
            Part::Events(DocumentEvents { first: true }),
        ),
    ])
}

/// What a chain writes for each session.
enum Kind {
    Journal,
    Export(SessionMeta),
}

/// Sessions' parts one after another, between a head and a tail.
struct Chain {
    pool: ReadPool,
    kind: Kind,
    sessions: std::vec::IntoIter<SessionId>,
    started: bool,
    parts: VecDeque<Download<Part>>,
    head: Vec<u8>,
    tail: Option<Vec<u8>>,
}

impl Chain {
    /// Session `id`'s parts. Errors: as [`start`].
    async fn parts(&self, id: SessionId) -> Result<Vec<Download<Part>>, AppError> {
        match &self.kind {
            Kind::Journal => {
                let download = transactions(&self.pool, id, Vec::new(), Vec::new()).await?;
                Ok(vec![download.with_writer(Part::Transactions)])
            }
            Kind::Export(meta) => export_parts(&self.pool, id, meta.get(&id), !self.started).await,
        }
    }

    /// The next page of the part being written (the head before the first), the next
    /// session's once one ends, the tail after the last; `None` after the tail. Errors: the
    /// store's; the writers'.
    async fn page(mut self) -> Result<Option<(Bytes, Chain)>, AppError> {
        let bytes = loop {
            if let Some(part) = self.parts.pop_front() {
                if let Some((bytes, next)) = part.page().await? {
                    self.parts.push_front(next);
                    break bytes;
                }
            } else if let Some(id) = self.sessions.next() {
                let parts = self.parts(id).await?;
                self.started = true;
                self.parts.extend(parts);
            } else {
                match self.tail.take() {
                    Some(tail) => break Bytes::from(tail),
                    None => return Ok(None),
                }
            }
        };
        let mut out = std::mem::take(&mut self.head);
        out.extend_from_slice(&bytes);
        Ok(Some((Bytes::from(out), self)))
    }

    /// The streamed body; an error is logged and ends it (see [`Download::body`]).
    fn body(self, club: ClubId) -> Body {
        let pages = stream::try_unfold(self, Chain::page).inspect_err(move |e| {
            tracing::error!(club = club.0, "a club download broke off: {e}");
        });
        Body::from_stream(pages)
    }
}

/// Club `club`'s journal of its `sessions` (oldest first) from their stored ledger entries,
/// streamed, ending with `tail` (the nights' payments): the same bytes as [`super::journal`]
/// of the sessions then the tail. `None` when an event of one has no stored entry: the
/// journal is built from their folds instead. Errors (before the first byte): the store's.
pub async fn club_journal(
    pool: &ReadPool,
    club: ClubId,
    sessions: Vec<SessionId>,
    tail: String,
) -> Result<Option<Body>, AppError> {
    for &id in &sessions {
        if !entries_stored(pool, id, (-1, i64::MAX)).await? {
            return Ok(None);
        }
    }
    let chain = Chain {
        pool: pool.clone(),
        kind: Kind::Journal,
        sessions: sessions.into_iter(),
        started: false,
        parts: VecDeque::new(),
        head: JOURNAL_HEAD.as_bytes().to_vec(),
        tail: Some(tail.into_bytes()),
    };
    Ok(Some(chain.body(club)))
}

/// `club`'s whole export (`scorekeeper/club@1`), streamed: the same bytes as
/// `serde_json::to_vec` of [`super::club::export_club`], with no session folded. Errors
/// (before the first byte): the store's.
pub async fn club_export(pool: &WritePool, folds: &Folds, club: &Club) -> Result<Body, AppError> {
    let (frame, ids, meta) = export_frame(pool, folds, club).await?;
    let text = json(&frame)?;
    // Keys are written unescaped and the sessions follow the format, name and roster: the
    // first `"sessions":[]` is the field (a quote inside a string is written `\"`).
    let (head, tail) = text
        .split_once("\"sessions\":[]")
        .ok_or_else(|| AppError::Internal("the club export has no sessions field".into()))?;
    let chain = Chain {
        pool: pool.reader().clone(),
        kind: Kind::Export(meta),
        sessions: ids.into_iter(),
        started: false,
        parts: VecDeque::new(),
        head: format!("{head}\"sessions\":[").into_bytes(),
        tail: Some(format!("]{tail}").into_bytes()),
    };
    Ok(chain.body(club.id))
}
