//! Nights' SQL: a club's nights, their sessions, and payments (voided, never deleted).

use chrono::{DateTime, Utc};

use super::either::{Connected, on_either};
use super::time::{MaybeStoredTime, StoredTime, rfc3339};
use crate::ids::ClubId;
use crate::ids::NightId;
use crate::ids::PaymentId;
use crate::ids::PersonId;
use crate::ids::SessionId;

/// A night as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NightRow {
    /// The night's id.
    pub id: NightId,
    /// Its club.
    pub club_id: ClubId,
    /// "Thursday at Sal's".
    pub title: String,
    /// When it was made.
    #[sqlx(try_from = "StoredTime")]
    pub created_at: DateTime<Utc>,
}

/// A payment recorded against a night.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NightPaymentRow {
    /// The payment's id.
    pub id: PaymentId,
    /// Who paid (an account name of the night's sessions).
    pub payer: String,
    /// Who received.
    pub payee: String,
    /// Cents, positive.
    pub amount_cents: i64,
    /// When it was recorded.
    #[sqlx(try_from = "StoredTime")]
    pub recorded_at: DateTime<Utc>,
    /// When it was voided, if it was.
    #[sqlx(try_from = "MaybeStoredTime")]
    pub voided_at: Option<DateTime<Utc>>,
    /// Why it was voided.
    pub void_reason: Option<String>,
}

/// Creates a night of `club`; returns its id.
pub async fn create(
    conn: &mut impl Connected,
    club: ClubId,
    title: &str,
    created_at: DateTime<Utc>,
) -> Result<NightId, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "INSERT INTO nights (club_id, title, created_at) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(club)
    .bind(title)
    .bind(rfc3339(created_at))
    .fetch_one(c)
    .await)
}

/// Night `id` if it is `club`'s.
pub async fn night(
    conn: &mut impl Connected,
    club: ClubId,
    id: NightId,
) -> Result<Option<NightRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as("SELECT id, club_id, title, created_at FROM nights WHERE id = $1 AND club_id = $2")
        .bind(id)
        .bind(club)
        .fetch_optional(c)
        .await)
}

/// The club's nights, newest first.
pub async fn nights_of(
    conn: &mut impl Connected,
    club: ClubId,
) -> Result<Vec<NightRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT id, club_id, title, created_at FROM nights WHERE club_id = $1 ORDER BY id DESC LIMIT 50",
    )
    .bind(club)
    .fetch_all(c)
    .await)
}

/// The night session `session_id` is in, if any.
pub async fn night_of_session(
    conn: &mut impl Connected,
    session_id: SessionId,
) -> Result<Option<NightId>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar("SELECT night_id FROM night_sessions WHERE session_id = $1")
        .bind(session_id)
        .fetch_optional(c)
        .await)
}

/// The other sessions of `session_id`'s night, in one statement (whose sheets a hand moves).
pub async fn night_mates(
    conn: &mut impl Connected,
    session_id: SessionId,
) -> Result<Vec<SessionId>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT mate.session_id FROM night_sessions own
         JOIN night_sessions mate ON mate.night_id = own.night_id
         WHERE own.session_id = $1 AND mate.session_id <> $1 ORDER BY mate.session_id",
    )
    .bind(session_id)
    .fetch_all(c)
    .await)
}

/// Puts a session in a night (the caller checked it is in none).
pub async fn add_session(
    conn: &mut impl Connected,
    night: NightId,
    session_id: SessionId,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("INSERT INTO night_sessions (session_id, night_id) VALUES ($1, $2)")
        .bind(session_id)
        .bind(night)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// The night's sessions as `(id, game id)`, oldest first.
pub async fn sessions_of(
    conn: &mut impl Connected,
    night: NightId,
) -> Result<Vec<(SessionId, String)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT s.id, s.game FROM night_sessions n JOIN sessions s ON s.id = n.session_id \
         WHERE n.night_id = $1 ORDER BY s.id",
    )
    .bind(night)
    .fetch_all(c)
    .await)
}

/// The night's payments, voided ones included, oldest first.
pub async fn payments_of(
    conn: &mut impl Connected,
    night: NightId,
) -> Result<Vec<NightPaymentRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT id, payer, payee, amount_cents, recorded_at, voided_at, void_reason \
         FROM night_payments WHERE night_id = $1 ORDER BY id",
    )
    .bind(night)
    .fetch_all(c)
    .await)
}

/// Records a payment against a night; returns its id.
pub async fn add_payment(
    conn: &mut impl Connected,
    night: NightId,
    payer: &str,
    payee: &str,
    amount_cents: i64,
    recorded_at: DateTime<Utc>,
) -> Result<PaymentId, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "INSERT INTO night_payments (night_id, payer, payee, amount_cents, recorded_at) \
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(night)
    .bind(payer)
    .bind(payee)
    .bind(amount_cents)
    .bind(rfc3339(recorded_at))
    .fetch_one(c)
    .await)
}

/// Voids a payment of the night that is not voided yet; returns whether one was.
pub async fn void_payment(
    conn: &mut impl Connected,
    night: NightId,
    payment: PaymentId,
    voided_at: DateTime<Utc>,
    reason: &str,
) -> Result<bool, sqlx::Error> {
    let done = on_either!(conn.either(), c => sqlx::query(
        "UPDATE night_payments SET voided_at = $1, void_reason = $2 \
         WHERE id = $3 AND night_id = $4 AND voided_at IS NULL",
    )
    .bind(rfc3339(voided_at))
    .bind(reason)
    .bind(payment)
    .bind(night)
    .execute(c)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(done == 1)
}

/// Takes a session out of a night.
pub async fn remove_session(
    conn: &mut impl Connected,
    night: NightId,
    session_id: SessionId,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("DELETE FROM night_sessions WHERE night_id = $1 AND session_id = $2")
        .bind(night)
        .bind(session_id)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// The club's sessions since `since`, newest first, at most 10: `(id, game, night id,
/// night title)`.
pub async fn sessions_since(
    conn: &mut impl Connected,
    club: ClubId,
    since: DateTime<Utc>,
) -> Result<Vec<(SessionId, String, Option<NightId>, Option<String>)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT s.id, s.game, n.id, n.title FROM sessions s \
         LEFT JOIN night_sessions ns ON ns.session_id = s.id \
         LEFT JOIN nights n ON n.id = ns.night_id \
         WHERE s.club_id = $1 AND s.created_at >= $2 ORDER BY s.id DESC LIMIT 10",
    )
    .bind(club)
    .bind(rfc3339(since))
    .fetch_all(c)
    .await)
}

/// Every night of the club, oldest first (for the club export).
pub async fn all_nights(
    conn: &mut impl Connected,
    club: ClubId,
) -> Result<Vec<NightRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT id, club_id, title, created_at FROM nights WHERE club_id = $1 ORDER BY id",
    )
    .bind(club)
    .fetch_all(c)
    .await)
}

/// `(game, currency, title)` of session `session_id`, for the one-currency check.
pub async fn priced(
    conn: &mut impl Connected,
    session_id: SessionId,
) -> Result<Option<(String, String, Option<String>)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT s.game, s.currency, m.title FROM sessions s \
         LEFT JOIN session_meta m ON m.session_id = s.id WHERE s.id = $1",
    )
    .bind(session_id)
    .fetch_optional(c)
    .await)
}

/// Standing payments against the club's nights (or night `night`), oldest first: `(night,
/// title, currency, payer, payee, cents, recorded_at)`; currency is the first session's,
/// "USD" when none.
pub async fn standing_payments(
    conn: &mut impl Connected,
    club: ClubId,
    night: Option<NightId>,
) -> Result<Vec<(NightId, String, String, String, String, i64, DateTime<Utc>)>, sqlx::Error> {
    let rows: Vec<(NightId, String, String, String, String, i64, StoredTime)> = on_either!(conn.either(), c => sqlx::query_as(
        "SELECT n.id, n.title, COALESCE((SELECT s.currency FROM night_sessions x \
         JOIN sessions s ON s.id = x.session_id WHERE x.night_id = n.id ORDER BY s.id LIMIT 1), 'USD'), \
         p.payer, p.payee, p.amount_cents, p.recorded_at \
         FROM night_payments p JOIN nights n ON n.id = p.night_id \
         WHERE n.club_id = $1 AND p.voided_at IS NULL AND ($2 IS NULL OR n.id = $3) ORDER BY p.id",
    )
    .bind(club)
    .bind(night)
    .bind(night)
    .fetch_all(c)
    .await)?;
    Ok(rows
        .into_iter()
        .map(|(n, title, currency, payer, payee, cents, at)| {
            (n, title, currency, payer, payee, cents, at.0)
        })
        .collect())
}

/// One session a person played, under one of their names, with its night: what their
/// evenings are made of (`crate::service::history`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PlayedRow {
    /// The session.
    pub session_id: SessionId,
    /// Its night, when it is in one.
    pub night_id: Option<NightId>,
    /// The night's title.
    pub title: Option<String>,
    /// When the session was started.
    #[sqlx(try_from = "StoredTime")]
    pub played_at: DateTime<Utc>,
    /// The person's net in it under this name, in cents.
    pub net_cents: i64,
}

/// Person `person`'s sessions with their nights, oldest first (a session where two of their
/// spellings sat is there once per spelling). Errors: the store's.
pub async fn played_of(
    conn: &mut impl Connected,
    club: ClubId,
    person: PersonId,
) -> Result<Vec<PlayedRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT r.session_id, x.night_id, n.title, r.played_at, r.net_cents \
         FROM session_results r JOIN player_names pn ON pn.club_id = r.club_id AND pn.name = r.player \
         LEFT JOIN night_sessions x ON x.session_id = r.session_id \
         LEFT JOIN nights n ON n.id = x.night_id \
         WHERE pn.person_id = $1 AND r.club_id = $2 \
         ORDER BY r.played_at, r.session_id",
    )
    .bind(person)
    .bind(club)
    .fetch_all(c)
    .await)
}
