//! Starting a session: from the new-session form's input or a whole session document,
//! replayed and checked before anything is written, in one transaction.

use serde_json::{Map, Value};

use super::clubs::{self, SessionLinks};
use super::{entry_text, history, now, remember_players};
use chrono::{DateTime, Utc};

use crate::error::AppError;
use crate::format::{SESSION_FORMAT, SessionDoc, replay};
use crate::ids::ClubId;
use crate::ids::SessionId;
use crate::store::{self, NewEvent, NewSession, WritePool};

/// What a new session needs; currency defaults to USD, opening scores come from paper.
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
    club: Option<ClubId>,
) -> Result<SessionId, AppError> {
    let doc = SessionDoc {
        format: SESSION_FORMAT.into(),
        game: input.game,
        currency: input.currency.unwrap_or_else(|| "USD".into()),
        agreements: input.agreements,
        // Normalised as the name rules keep them; a refused name stays as typed for the
        // document's check to refuse, naming `players`.
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

/// Creates a club-less session reached only through its links (returned once; only hashes
/// are stored). Errors as [`create_session`].
pub async fn create_linked_session(
    pool: &WritePool,
    input: NewSessionInput,
) -> Result<(SessionId, SessionLinks), AppError> {
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

/// Imports a session document as a club-less session with links. Errors as [`import`].
pub async fn import_linked(
    pool: &WritePool,
    doc: &SessionDoc,
) -> Result<(SessionId, SessionLinks), AppError> {
    let links = SessionLinks::new()?;
    let id = import_with(pool, doc, None, Some(&links)).await?;
    Ok((id, links))
}

/// Imports a session document for `club`, or with `None` an open, link-less session (tools
/// and tests). Errors: [`AppError::Refused`] with the event index, field and rule; nothing
/// written.
pub async fn import(
    pool: &WritePool,
    doc: &SessionDoc,
    club: Option<ClubId>,
) -> Result<SessionId, AppError> {
    import_with(pool, doc, club, None).await
}

/// The stored row of `doc`, made at `created_at`, owned by `club` (shared by session and
/// club imports).
pub(crate) fn new_session(
    doc: &SessionDoc,
    created_at: DateTime<Utc>,
    club: Option<ClubId>,
) -> NewSession<'_> {
    NewSession {
        game: &doc.game,
        currency: &doc.currency,
        agreements: &doc.agreements,
        opening_scores: doc.opening_scores.as_ref(),
        players: &doc.players,
        created_at,
        club_id: club,
    }
}

/// [`import`] or [`import_linked`]. Errors as [`import`].
async fn import_with(
    pool: &WritePool,
    doc: &SessionDoc,
    club: Option<ClubId>,
    links: Option<&SessionLinks>,
) -> Result<SessionId, AppError> {
    let ledger = replay(doc)?;
    let recorded_at = now();
    let mut tx = pool.begin_write().await?;
    if let Some(club) = club {
        let names = doc.players.iter().chain(ledger.balances.keys());
        history::check_club_names(&mut tx, club, names.map(String::as_str), "players").await?;
    }
    let id = store::insert_session(&mut tx, &new_session(doc, recorded_at, club)).await?;
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
        let text = entry_text(entry)?;
        let new = NewEvent {
            seq: entry.seq as i64,
            kind: &entry.kind,
            body: &body,
            explanation: &entry.explanation,
            postings: &entry.postings,
            recorded_at,
            entry: &text,
        };
        store::append_event(&mut tx, id, &new).await?;
    }
    history::after_import(&mut tx, id, club, doc, recorded_at).await?;
    tx.commit().await?;
    Ok(id)
}
