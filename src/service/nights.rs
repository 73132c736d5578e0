//! Nights (issue 12 item 7): group a club's sessions of one evening as a night and settle
//! it once. Reads each session's balances from its stored postings (after the session's
//! own payments), works the night out with [`crate::history::night::settle_night`], and
//! records or voids payments against the night. A session is in one night at most.

use chrono::{SecondsFormat, Utc};
use sqlx::{SqliteConnection, SqlitePool};

use crate::error::AppError;
use crate::history::night::{NightPayment, NightSession, NightSettlement, settle_night};
use crate::money::Money;
use crate::service::history::game_name;
use crate::store;
use crate::store::nights::{self as ns, NightPaymentRow, NightRow};

fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// A night as its page and the API show it.
#[derive(Debug, Clone)]
pub struct NightView {
    /// The night.
    pub night: NightRow,
    /// Its sessions with their balances as they stand.
    pub sessions: Vec<NightSession>,
    /// Every payment against the night, voided ones included (shown struck through).
    pub payments: Vec<NightPaymentRow>,
    /// Net per account, transfers and the games behind them (voided payments left out).
    pub settlement: NightSettlement,
}

async fn club_session(conn: &mut SqliteConnection, club: i64, id: i64) -> Result<(), AppError> {
    match store::clubs::session_club(conn, id).await? {
        Some(Some(c)) if c == club => Ok(()),
        _ => Err(AppError::NotFound(format!("there is no session {id}"))),
    }
}

async fn club_night(conn: &mut SqliteConnection, club: i64, id: i64) -> Result<NightRow, AppError> {
    ns::night(conn, club, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no night {id}")))
}

/// The club's latest nights (at most 50), newest first.
pub async fn nights_of(pool: &SqlitePool, club: i64) -> Result<Vec<NightRow>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(ns::nights_of(&mut conn, club).await?)
}

/// Groups `sessions` of `club` as a night: a new one titled `title` (blank: "Night of
/// <day>") when `into` is `None`, else added to night `into`. Returns the night's id.
/// Errors: [`AppError::BadRequest`] (field `sessions`) when none is chosen, (field
/// `title`) over 80 characters; [`AppError::NotFound`] for a session or night not the
/// club's; [`AppError::Conflict`] (field `sessions`) when a session is in a night already.
/// Nothing is written on an error.
pub async fn group(
    pool: &SqlitePool,
    club: i64,
    into: Option<i64>,
    title: &str,
    sessions: &[i64],
) -> Result<i64, AppError> {
    if sessions.is_empty() {
        return Err(AppError::BadRequest {
            field: "sessions".into(),
            message: "tick at least one session to make a night of".into(),
        });
    }
    let title = title.trim();
    if title.chars().count() > 80 {
        return Err(AppError::BadRequest {
            field: "title".into(),
            message: "a night's title is at most 80 characters".into(),
        });
    }
    let at = now();
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    for &sid in sessions {
        club_session(&mut tx, club, sid).await?;
        if let Some(other) = ns::night_of_session(&mut tx, sid).await? {
            return Err(AppError::Conflict {
                field: "sessions".into(),
                message: format!(
                    "session {sid} is already in night {other}; a session can be in one night only"
                ),
            });
        }
    }
    let night = match into {
        Some(id) => club_night(&mut tx, club, id).await?.id,
        None => {
            let title = if title.is_empty() {
                format!("Night of {}", at.get(..10).unwrap_or(&at))
            } else {
                title.to_string()
            };
            ns::create(&mut tx, club, &title, &at).await?
        }
    };
    for &sid in sessions {
        ns::add_session(&mut tx, night, sid).await?;
    }
    tx.commit().await?;
    Ok(night)
}

/// Night `id` of `club` worked out. Errors: [`AppError::NotFound`];
/// [`AppError::Internal`] if its totals overflow.
pub async fn night(pool: &SqlitePool, club: i64, id: i64) -> Result<NightView, AppError> {
    let mut conn = pool.acquire().await?;
    let night = club_night(&mut conn, club, id).await?;
    let mut sessions = Vec::new();
    for (sid, game) in ns::sessions_of(&mut conn, id).await? {
        let balances = store::balances(&mut conn, sid)
            .await?
            .into_iter()
            .map(|(who, c)| (who, Money::from_cents(c)))
            .collect();
        sessions.push(NightSession {
            session_id: sid,
            game_name: game_name(&game),
            balances,
        });
    }
    let payments = ns::payments_of(&mut conn, id).await?;
    let standing: Vec<NightPayment> = payments
        .iter()
        .filter(|p| p.voided_at.is_none())
        .map(|p| NightPayment {
            payer: p.payer.clone(),
            payee: p.payee.clone(),
            amount: Money::from_cents(p.amount_cents),
        })
        .collect();
    let settlement = settle_night(&sessions, &standing)
        .map_err(|e| AppError::Internal(format!("night {id}: {e}")))?;
    Ok(NightView {
        night,
        sessions,
        payments,
        settlement,
    })
}

/// Records that `payer` handed `payee` `amount` ("2.80") against night `id`. Errors:
/// [`AppError::NotFound`]; [`AppError::BadRequest`] naming `amount` (not money, not above
/// zero), `payer`/`payee` (not someone of the night, or the same person).
pub async fn record_payment(
    pool: &SqlitePool,
    club: i64,
    id: i64,
    payer: &str,
    payee: &str,
    amount: &str,
) -> Result<(), AppError> {
    let amount = Money::parse(amount.trim()).map_err(|e| AppError::BadRequest {
        field: "amount".into(),
        message: format!("{} is not an amount like 2.80 ({e})", amount.trim()),
    })?;
    if amount.cents() <= 0 {
        return Err(AppError::BadRequest {
            field: "amount".into(),
            message: "a payment is more than 0.00".into(),
        });
    }
    let view = night(pool, club, id).await?;
    let known = |who: &str| view.settlement.net.iter().any(|(n, _)| n == who);
    for (field, who) in [("payer", payer), ("payee", payee)] {
        if !known(who) {
            return Err(AppError::BadRequest {
                field: field.into(),
                message: format!("{who} did not play in this night's sessions"),
            });
        }
    }
    if payer == payee {
        return Err(AppError::BadRequest {
            field: "payee".into(),
            message: "someone cannot pay themselves".into(),
        });
    }
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    club_night(&mut tx, club, id).await?;
    ns::add_payment(&mut tx, id, payer, payee, amount.cents(), &now()).await?;
    tx.commit().await?;
    Ok(())
}

/// Voids payment `payment` of night `id` (kept, struck through, no longer counted).
/// Errors: [`AppError::NotFound`] for no such payment standing.
pub async fn void_payment(
    pool: &SqlitePool,
    club: i64,
    id: i64,
    payment: i64,
    reason: &str,
) -> Result<(), AppError> {
    let reason = reason.trim();
    let reason = if reason.is_empty() {
        "a mistake"
    } else {
        reason
    };
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    club_night(&mut tx, club, id).await?;
    if !ns::void_payment(&mut tx, id, payment, &now(), reason).await? {
        return Err(AppError::NotFound(format!(
            "there is no standing payment {payment} in this night"
        )));
    }
    tx.commit().await?;
    Ok(())
}
