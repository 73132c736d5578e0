//! The shell of the exports: gathers stored sessions into [`SessionRecord`]s, and imports a
//! [`ClubExport`] into a new club in one transaction.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::ids::ClubId;
use crate::ids::NightId;
use crate::ids::PersonId;
use crate::ids::SessionId;
use crate::store::Connected;
use serde_json::{Map, Value};

use super::check::checked_session;
use super::nights::NightPaymentRecord;
use super::{
    ClubExport, EventLine, ExportedNight, ExportedNightPayment, ExportedPerson, ExportedSession,
    SessionRecord, SessionText, check_club_export, club_export,
};
use crate::error::AppError;
use crate::format::{LedgerDoc, SessionDoc};
use crate::ledger::HOUSE;
use crate::money::Money;
use crate::rules::table::{self, TITLE_MAX};
use crate::service::clubs::{self, Club, Grant};
use crate::service::{self, Folds, Loaded};
use crate::store::history as hs;
use crate::store::nights as ns;
use crate::store::time::{normalised, rfc3339};
use crate::store::{self, NewEvent};
use crate::store::{ReadPool, WritePool};

/// A checked export time in the store's form, UTC to the second. Errors:
/// [`AppError::Internal`] (it was checked: a bug).
fn imported_time(text: &str) -> Result<DateTime<Utc>, AppError> {
    normalised(text).map_err(|e| AppError::Internal(format!("an export's time {text:?}: {e}")))
}

/// Text of an export as its form keeps it. Errors: [`AppError::Internal`] (it was checked by
/// [`super::text::check_text`]: a bug).
fn checked(kept: Result<String, String>) -> Result<String, AppError> {
    kept.map_err(|e| AppError::Internal(format!("an export's checked text: {e}")))
}

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
                .map_or(loaded.created_at, |r| r.recorded_at),
        })
        .collect();
    SessionRecord {
        id: loaded.id,
        created_at: loaded.created_at,
        doc: loaded.doc.clone(),
        ledger: loaded.ledger.clone(),
        lines,
    }
}

/// Session `id` for export. Errors: [`AppError::NotFound`].
pub async fn session(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
) -> Result<SessionRecord, AppError> {
    Ok(record(&*service::load(pool, folds, id).await?))
}

/// Standing payments against club `club`'s nights (or `night`), oldest first, for the
/// exports ([`super::nights`]).
pub async fn night_payments(
    pool: &ReadPool,
    club: ClubId,
    night: Option<NightId>,
) -> Result<Vec<NightPaymentRecord>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(ns::standing_payments(&mut conn, club, night)
        .await?
        .into_iter()
        .map(
            |(night_id, night_title, currency, payer, payee, cents, recorded_at)| {
                NightPaymentRecord {
                    night_id,
                    night_title,
                    currency,
                    payer,
                    payee,
                    amount: Money::from_cents(cents),
                    recorded_at,
                }
            },
        )
        .collect())
}

/// Club `id` if `grant` belongs to it. Errors: [`AppError::NotFound`] otherwise.
pub async fn member_club(
    pool: &ReadPool,
    grant: Option<Grant>,
    id: ClubId,
) -> Result<Club, AppError> {
    grant
        .filter(|g| g.club_id == id)
        .ok_or_else(|| AppError::NotFound(format!("there is no club {id}")))?;
    clubs::club(pool, id).await
}

/// Every session of club `id`, oldest first, for export.
pub async fn club_sessions(
    pool: &ReadPool,
    folds: &Folds,
    id: ClubId,
) -> Result<Vec<SessionRecord>, AppError> {
    let ids = service::club_session_ids(pool, id).await?;
    let mut sessions = Vec::with_capacity(ids.len());
    for session_id in ids {
        sessions.push(session(pool, folds, session_id).await?);
    }
    Ok(sessions)
}

/// The results CSV ([`super::results_csv`]) of club `id`'s sessions, oldest first, from
/// where each stands in the cache (folded a page at a time when not cached), never a whole
/// fold: the same bytes. Errors: the store's; a session that no longer replays.
pub async fn club_results(pool: &ReadPool, folds: &Folds, id: ClubId) -> Result<Vec<u8>, AppError> {
    let written = |e: super::ExportError| AppError::Internal(e.to_string());
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(super::RESULTS_HEADER)
        .map_err(|e| written(e.into()))?;
    for session in service::club_session_ids(pool, id).await? {
        let glance = service::glance(pool, folds, session).await?;
        let named = (session, glance.created_at, glance.tip.game().id);
        super::write_results(&mut w, named, glance.tip.balances().as_map()).map_err(written)?;
    }
    super::finish(w).map_err(written)
}

/// Each session's title and archive flag, by id.
pub type SessionMeta = BTreeMap<SessionId, (Option<String>, bool)>;

/// The whole-club export without its sessions: name, roster, people, nights and payments;
/// with the club's sessions in export order (oldest first) and their titles and archive
/// flags. Errors: the store's.
pub async fn export_frame(
    pool: &WritePool,
    folds: &Folds,
    club: &Club,
) -> Result<(ClubExport, Vec<SessionId>, SessionMeta), AppError> {
    let players = clubs::player_totals(pool, club.id)
        .await?
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    // People come from the facts: write the backlog first.
    crate::service::history::backfill(pool, folds, club.id).await?;
    let ids = service::club_session_ids(pool, club.id).await?;
    let mut export = club_export(&club.name, players, &[]);
    let position: BTreeMap<SessionId, usize> =
        ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    // On a reader: an export never waits behind writes.
    let mut conn = pool.reader().acquire().await?;
    let meta = hs::session_meta_of_club(&mut conn, club.id)
        .await?
        .into_iter()
        .map(|(sid, title, archived)| (sid, (title, archived)))
        .collect();
    let mut people: Vec<(PersonId, ExportedPerson)> = Vec::new();
    for (id, display_name, name) in hs::people_with_names(&mut conn, club.id).await? {
        match people.last_mut() {
            Some((last, p)) if *last == id => p.names.push(name),
            _ => people.push((
                id,
                ExportedPerson {
                    display_name,
                    names: vec![name],
                },
            )),
        }
    }
    export.people = people.into_iter().map(|(_, p)| p).collect();
    for night in ns::all_nights(&mut conn, club.id).await? {
        let members = ns::sessions_of(&mut conn, night.id).await?;
        let payments = ns::payments_of(&mut conn, night.id).await?;
        export.nights.push(ExportedNight {
            title: night.title,
            created_at: rfc3339(night.created_at),
            sessions: members
                .iter()
                .filter_map(|(sid, _)| position.get(sid).copied())
                .collect(),
            payments: payments
                .into_iter()
                .map(|p| ExportedNightPayment {
                    payer: p.payer,
                    payee: p.payee,
                    amount: Money::from_cents(p.amount_cents),
                    recorded_at: rfc3339(p.recorded_at),
                    voided_at: p.voided_at.map(rfc3339),
                    void_reason: p.void_reason,
                })
                .collect(),
        });
    }
    Ok((export, ids, meta))
}

/// The whole-club export: name, roster, sessions with titles and archive flags, people,
/// nights and payments, built whole (every session folded); the download is streamed
/// ([`super::chained::club_export`]), this is what it is compared with.
pub async fn export_club(
    pool: &WritePool,
    folds: &Folds,
    club: &Club,
) -> Result<ClubExport, AppError> {
    let (mut export, ids, meta) = export_frame(pool, folds, club).await?;
    let mut sessions = Vec::with_capacity(ids.len());
    for id in ids {
        sessions.push(session(pool, folds, id).await?);
    }
    export.sessions = club_export(&club.name, Vec::new(), &sessions).sessions;
    for (s, record) in export.sessions.iter_mut().zip(&sessions) {
        if let Some((title, archived)) = meta.get(&record.id) {
            s.title.clone_from(title);
            s.archived = *archived;
        }
    }
    Ok(export)
}

/// Imports `export` as a new club (`name`, default the export's) in **one transaction**
/// after [`check_club_export`]; sessions keep their times, so their ledgers. Each session
/// is read and replayed again as it is written, so the import holds one session's events
/// and ledger at a time. Errors: [`AppError::Refused`] naming the field; the club's own;
/// [`AppError::TooManyRequests`].
pub async fn import_club<S: SessionText>(
    pool: &WritePool,
    limits: &clubs::LoginLimits,
    client: clubs::ClientKey,
    name: Option<&str>,
    passphrase: &str,
    export: &ClubExport<S>,
) -> Result<(Club, String, Vec<SessionId>), AppError> {
    check_club_export(export)?;
    // Limited per address like every club creation ([`clubs::create_club`]).
    let new = clubs::prepare_club(limits, client, name.unwrap_or(&export.name), passphrase).await?;
    let mut tx = pool.begin_write().await?;
    let (club, token) = clubs::insert_club(&mut tx, &new).await?;
    for player in &export.players {
        store::clubs::add_player(&mut tx, club.id, player).await?;
    }
    // People before the sessions' facts, which then find each name's person.
    for person in &export.people {
        hs::insert_person(&mut tx, club.id, &person.display_name, &person.names).await?;
    }
    let mut ids = Vec::with_capacity(export.sessions.len());
    for (k, s) in export.sessions.iter().enumerate() {
        let (doc, ledger) = checked_session(k, s)?;
        ids.push(import_session(&mut tx, club.id, s, &doc, &ledger).await?);
    }
    import_nights(&mut tx, club.id, &export.nights, &ids).await?;
    tx.commit().await?;
    Ok((club, token, ids))
}

/// Writes one exported session `s`, read as `doc` with its checked `ledger`, into club
/// `club`; its id.
async fn import_session<S>(
    conn: &mut impl Connected,
    club: ClubId,
    s: &ExportedSession<S>,
    doc: &SessionDoc,
    ledger: &LedgerDoc,
) -> Result<SessionId, AppError> {
    let created_at = imported_time(&s.created_at)?;
    let new = crate::service::new_session(doc, created_at, Some(club));
    let id = store::insert_session(conn, &new).await?;
    for account in ledger
        .balances
        .keys()
        .filter(|a| !HOUSE.contains(&a.as_str()))
    {
        store::clubs::add_player(conn, club, account).await?;
    }
    import_events(conn, id, s, doc, ledger).await?;
    crate::service::history::after_import(conn, id, Some(club), doc, created_at).await?;
    if let Some(title) = &s.title {
        let title = checked(table::title(title, TITLE_MAX, "a title"))?;
        hs::set_title(conn, id, Some(&title)).await?;
    }
    if s.archived {
        hs::set_archived(conn, id, true).await?;
    }
    Ok(id)
}

/// Appends every entry of `ledger` with its event of `doc` (session `s` read) and time.
/// Errors: [`AppError::Internal`] for an entry without an event (checked: a bug).
async fn import_events<S>(
    conn: &mut impl Connected,
    id: SessionId,
    s: &ExportedSession<S>,
    doc: &SessionDoc,
    ledger: &LedgerDoc,
) -> Result<(), AppError> {
    let empty = Value::Object(Map::new());
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
        let recorded_at = imported_time(recorded_at)?;
        let seq =
            i64::try_from(entry.seq).map_err(|_| AppError::Internal("too many events".into()))?;
        store::append_event(
            conn,
            id,
            &NewEvent {
                seq,
                kind: &entry.kind,
                body: &body.to_string(),
                explanation: &entry.explanation,
                postings: &entry.postings,
                recorded_at,
                entry: &crate::service::entry_text(entry)?,
            },
        )
        .await?;
    }
    Ok(())
}

/// Writes the export's nights for club `club`, with sessions `ids` and payments.
async fn import_nights(
    conn: &mut impl Connected,
    club: ClubId,
    nights: &[ExportedNight],
    ids: &[SessionId],
) -> Result<(), AppError> {
    for night in nights {
        let title = checked(table::title(&night.title, TITLE_MAX, "a night's title"))?;
        let nid = ns::create(conn, club, &title, imported_time(&night.created_at)?).await?;
        for sid in night.sessions.iter().filter_map(|&i| ids.get(i)) {
            ns::add_session(conn, nid, *sid).await?;
        }
        for p in &night.payments {
            let pid = ns::add_payment(
                conn,
                nid,
                &p.payer,
                &p.payee,
                p.amount.cents(),
                imported_time(&p.recorded_at)?,
            )
            .await?;
            if let Some(at) = &p.voided_at {
                let reason = checked(table::reason(p.void_reason.as_deref().unwrap_or("")))?;
                let reason = if reason.is_empty() {
                    "a mistake"
                } else {
                    &reason
                };
                ns::void_payment(conn, nid, pid, imported_time(at)?, reason).await?;
            }
        }
    }
    Ok(())
}
