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
    club: Option<ClubId>,
) -> Result<SessionId, AppError> {
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

/// Imports a session document as a session without a club, reached only through its
/// capability links (returned once). Errors as [`import`].
pub async fn import_linked(
    pool: &WritePool,
    doc: &SessionDoc,
) -> Result<(SessionId, SessionLinks), AppError> {
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
    club: Option<ClubId>,
) -> Result<SessionId, AppError> {
    import_with(pool, doc, club, None).await
}

/// The stored row of session document `doc`, made at `created_at` and owned by `club`
/// (`None`: a session without a club): its game, currency, agreements, scores carried in
/// and players as the document writes them. Shared by a session's import and a club's.
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

/// [`import`] or [`import_linked`]: the session owned by `club`, or reached through
/// `links`. Errors as [`import`]; nothing is written then.
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
