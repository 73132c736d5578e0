//! The shell of the exports: gathers stored sessions into [`SessionRecord`]s, and imports a
//! [`ClubExport`] into a new club in one transaction.

use serde_json::{Map, Value};
use sqlx::SqlitePool;

use super::{ClubExport, EventLine, SessionRecord, check_club_export, club_export};
use crate::error::AppError;
use crate::ledger::HOUSE;
use crate::service::clubs::{self, Club, Grant};
use crate::service::{self, Folds, Loaded};
use crate::store::{self, NewEvent, NewSession};

/// The export view of a loaded session: its documents and each entry's time and hand number.
pub fn record(loaded: &Loaded) -> SessionRecord {
    let lines = loaded
        .fold
        .rows()
        .iter()
        .map(|row| EventLine {
            seq: row.seq(),
            hand_number: row.hand_number,
            // The stored rows are in `seq` order, one per fold row.
            recorded_at: i64::try_from(row.seq())
                .ok()
                .and_then(|seq| loaded.rows.binary_search_by_key(&seq, |r| r.seq).ok())
                .and_then(|i| loaded.rows.get(i))
                .map_or_else(|| loaded.created_at.clone(), |r| r.recorded_at.clone()),
        })
        .collect();
    SessionRecord {
        id: loaded.id,
        created_at: loaded.created_at.clone(),
        doc: loaded.doc.clone(),
        ledger: loaded.ledger.clone(),
        lines,
    }
}

/// Session `id` for export. Errors: [`AppError::NotFound`].
pub async fn session(pool: &SqlitePool, folds: &Folds, id: i64) -> Result<SessionRecord, AppError> {
    Ok(record(&*service::load(pool, folds, id).await?))
}

/// The club `id` if `grant` belongs to it (reading is enough). Errors:
/// [`AppError::NotFound`] for anyone else, as the club page does.
pub async fn member_club(
    pool: &SqlitePool,
    grant: Option<Grant>,
    id: i64,
) -> Result<Club, AppError> {
    grant
        .filter(|g| g.club_id == id)
        .ok_or_else(|| AppError::NotFound(format!("there is no club {id}")))?;
    clubs::club(pool, id).await
}

/// Every session of club `id`, oldest first, for export.
pub async fn club_sessions(
    pool: &SqlitePool,
    folds: &Folds,
    id: i64,
) -> Result<Vec<SessionRecord>, AppError> {
    let mut ids: Vec<i64> = service::list(pool, Some(id))
        .await?
        .into_iter()
        .filter(|s| s.club_id == Some(id))
        .map(|s| s.id)
        .collect();
    ids.sort_unstable();
    let mut sessions = Vec::with_capacity(ids.len());
    for session_id in ids {
        sessions.push(session(pool, folds, session_id).await?);
    }
    Ok(sessions)
}

/// The whole-club export of `club`: its name, roster and every session document.
pub async fn export_club(
    pool: &SqlitePool,
    folds: &Folds,
    club: &Club,
) -> Result<ClubExport, AppError> {
    let players = clubs::player_totals(pool, club.id)
        .await?
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let sessions = club_sessions(pool, folds, club.id).await?;
    Ok(club_export(&club.name, players, &sessions))
}

/// Imports `export` as a new club called `name` (the export's own name when `None`) with
/// `passphrase`: every session is checked first ([`check_club_export`]), then the club is
/// created, then every session is written in one transaction with its original times, so
/// each gets the very ledger it had. Returns the club, a write token for it and the new
/// sessions' ids in the export's order. Errors: [`AppError::Refused`] naming the field from
/// the export's root; the club's own errors (name taken, short passphrase); nothing is
/// written on a refusal; [`AppError::TooManyRequests`] past the club creations allowed from
/// `client`'s address.
pub async fn import_club(
    pool: &SqlitePool,
    limits: &clubs::LoginLimits,
    client: clubs::ClientKey,
    name: Option<&str>,
    passphrase: &str,
    export: &ClubExport,
) -> Result<(Club, String, Vec<i64>), AppError> {
    let ledgers = check_club_export(export)?;
    // Limited per address like every club creation ([`clubs::create_club`]).
    let (club, token) = clubs::create_club(
        pool,
        limits,
        client,
        name.unwrap_or(&export.name),
        passphrase,
    )
    .await?;
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    for player in &export.players {
        store::clubs::add_player(&mut tx, club.id, player).await?;
    }
    let empty = Value::Object(Map::new());
    let mut ids = Vec::with_capacity(export.sessions.len());
    for (s, ledger) in export.sessions.iter().zip(&ledgers) {
        let doc = &s.session;
        let id = store::insert_session(
            &mut tx,
            &NewSession {
                game: &doc.game,
                currency: &doc.currency,
                agreements: &doc.agreements,
                opening_scores: doc.opening_scores.as_ref(),
                players: &doc.players,
                created_at: &s.created_at,
                club_id: Some(club.id),
            },
        )
        .await?;
        for account in ledger
            .balances
            .keys()
            .filter(|a| !HOUSE.contains(&a.as_str()))
        {
            store::clubs::add_player(&mut tx, club.id, account).await?;
        }
        for entry in &ledger.events {
            let (body, recorded_at) = match entry.seq.checked_sub(1) {
                None => (&empty, &s.created_at),
                Some(i) => (
                    doc.events.get(i).ok_or_else(|| {
                        AppError::Internal(format!("the ledger has an entry for no event {i}"))
                    })?,
                    s.recorded_at.get(i).unwrap_or(&s.created_at),
                ),
            };
            let seq = i64::try_from(entry.seq)
                .map_err(|_| AppError::Internal("too many events".into()))?;
            store::append_event(
                &mut tx,
                id,
                &NewEvent {
                    seq,
                    kind: &entry.kind,
                    body: &body.to_string(),
                    explanation: &entry.explanation,
                    postings: &entry.postings,
                    recorded_at,
                },
            )
            .await?;
        }
        ids.push(id);
    }
    tx.commit().await?;
    Ok((club, token, ids))
}
