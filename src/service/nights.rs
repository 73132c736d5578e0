//! Nights: a club's sessions of one evening grouped and settled once
//! ([`crate::history::night::settle_night`]), with payments recorded or voided against the
//! night. A session is in one night at most.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::ids::ClubId;
use crate::ids::NightId;
use crate::ids::PaymentId;
use crate::store::Connected;

use super::now;
use crate::error::AppError;
use crate::history::night::{
    NightPayment, NightSession, NightSettlement, Priced, one_currency, settle_night,
};
use crate::ids::SessionId;
use crate::money::Money;
use crate::rules::table::TITLE_MAX;
use crate::service::Folds;
use crate::service::history::{game_name, session_game_name};
use crate::store;
use crate::store::nights::{self as ns, NightPaymentRow, NightRow};
use crate::store::{ReadPool, WritePool};

mod tonight;
pub use tonight::{EVENING_HOURS, NightChoice, Tonight, check_choice, join, tonight};

/// A night as its page and the API show it.
#[derive(Debug, Clone)]
pub struct NightView {
    /// The night.
    pub night: NightRow,
    /// When its first session started (with none, when the night was made): the evening
    /// the night is, in UTC.
    pub evening: DateTime<Utc>,
    /// Its sessions with their balances as they stand.
    pub sessions: Vec<NightSession>,
    /// Every payment against the night, voided ones included (shown struck through).
    pub payments: Vec<NightPaymentRow>,
    /// Net per account, transfers and the games behind them (voided payments left out).
    pub settlement: NightSettlement,
    /// Its sessions' currency (ISO code; one per night, "USD" when empty).
    pub currency: String,
    /// Each session's id and event count as read: what a write checks under the locks.
    pub events: Vec<(SessionId, usize)>,
}

impl NightView {
    /// No transfer left: every net over sessions and standing payments is zero.
    pub fn settled(&self) -> bool {
        self.settlement.net.iter().all(|(_, m)| m.is_zero())
    }

    /// What a page showed of the night, sent back by its payment forms as `seen`: the
    /// payments (voided ones too), then each session with its event count, `"2:12.40,14.22"`.
    /// Whatever changes the amounts shown (a payment, a hand, a session taken out or put in)
    /// changes it.
    pub fn seen(&self) -> String {
        let sessions: Vec<String> = self
            .events
            .iter()
            .map(|(id, n)| format!("{id}.{n}"))
            .collect();
        format!("{}:{}", self.payments.len(), sessions.join(","))
    }
}

/// The refusal of a payment whose page showed fewer payments than the night has.
fn payment_meanwhile() -> AppError {
    AppError::Conflict {
        field: "payments".into(),
        message: "a payment was just recorded against this night (a second tap, or another \
                  phone); the night now shows it, so check before recording again"
            .into(),
    }
}

/// The refusal of a payment whose page showed the night's sessions otherwise.
fn night_changed() -> AppError {
    AppError::Conflict {
        field: "payments".into(),
        message: "the night changed since the page was shown (a hand, or a session taken out \
                  or put in); the night now shows what is owed, so check before recording"
            .into(),
    }
}

/// `(club id, night id)` of the night session `session` is in; `None` if none.
pub async fn night_of_session(
    pool: &ReadPool,
    session: SessionId,
) -> Result<Option<(ClubId, NightId)>, AppError> {
    let mut conn = pool.acquire().await?;
    let Some(night) = ns::night_of_session(&mut conn, session).await? else {
        return Ok(None);
    };
    Ok(store::clubs::session_club(&mut conn, session)
        .await?
        .flatten()
        .map(|club| (club, night)))
}

/// Refuses a payment inside a session that a night settles: its payments go to the night,
/// the one truth. Errors: [`AppError::Conflict`] (field `payment`) naming the night.
pub async fn refuse_session_payment(pool: &ReadPool, session: SessionId) -> Result<(), AppError> {
    match night_of_session(pool, session).await? {
        None => Ok(()),
        Some((club, night)) => Err(AppError::Conflict {
            field: "payment".into(),
            message: format!(
                "the night settles this session: record the payment on the night's page \
                 (/clubs/{club}/nights/{night}), where every session of the night sees it"
            ),
        }),
    }
}

/// The other sessions of `session`'s night; none when it is in no night.
pub async fn night_mates(pool: &ReadPool, session: SessionId) -> Result<Vec<SessionId>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(ns::night_mates(&mut conn, session).await?)
}

/// Night `night`'s session ids, oldest first.
pub async fn sessions_in(pool: &ReadPool, night: NightId) -> Result<Vec<SessionId>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(ns::sessions_of(&mut conn, night)
        .await?
        .into_iter()
        .map(|(sid, _)| sid)
        .collect())
}

async fn club_session(
    conn: &mut impl Connected,
    club: ClubId,
    id: SessionId,
) -> Result<(), AppError> {
    match store::clubs::session_club(conn, id).await? {
        Some(Some(c)) if c == club => Ok(()),
        _ => Err(AppError::NotFound(format!("there is no session {id}"))),
    }
}

async fn priced(conn: &mut impl Connected, id: SessionId) -> Result<Priced, AppError> {
    let (game, currency, title) = ns::priced(conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no session {id}")))?;
    Ok(Priced::new(
        id.0,
        &game_name(&game),
        title.as_deref(),
        &currency,
    ))
}

async fn night_priced(
    conn: &mut impl Connected,
    night: Option<NightId>,
) -> Result<Vec<Priced>, AppError> {
    let Some(night) = night else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (sid, _) in ns::sessions_of(conn, night).await? {
        out.push(priced(conn, sid).await?);
    }
    Ok(out)
}

/// The refusal of a second currency in one night.
fn mixed(message: String, field: &str) -> AppError {
    AppError::Conflict {
        field: field.into(),
        message,
    }
}

async fn club_night(
    conn: &mut impl Connected,
    club: ClubId,
    id: NightId,
) -> Result<NightRow, AppError> {
    ns::night(conn, club, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no night {id}")))
}

/// The club's latest nights (at most 50), newest first.
pub async fn nights_of(pool: &ReadPool, club: ClubId) -> Result<Vec<NightRow>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(ns::nights_of(&mut conn, club).await?)
}

/// Groups `sessions` of `club` into night `into`, or a new night titled `title` (blank:
/// `"Night of <day>"`); the night's id. Errors: [`AppError::BadRequest`] (`sessions` empty,
/// `title` per [`crate::rules::table::title`]); [`AppError::NotFound`] (not the club's);
/// [`AppError::Conflict`] (field `sessions`: already in a night, or another currency).
pub async fn group(
    pool: &WritePool,
    club: ClubId,
    into: Option<NightId>,
    title: &str,
    sessions: &[SessionId],
) -> Result<NightId, AppError> {
    let title = night_title(title, sessions)?;
    let mut tx = pool.begin_write().await?;
    let night = group_in(&mut tx, club, into, &title, sessions).await?;
    tx.commit().await?;
    Ok(night)
}

/// `title` checked as a night's title for `sessions`. Errors: as [`group`]'s.
pub(super) fn night_title(title: &str, sessions: &[SessionId]) -> Result<String, AppError> {
    if sessions.is_empty() {
        return Err(AppError::BadRequest {
            field: "sessions".into(),
            message: "tick at least one session to make a night of".into(),
        });
    }
    crate::rules::table::title(title, TITLE_MAX, "a night's title").map_err(|message| {
        AppError::BadRequest {
            field: "title".into(),
            message,
        }
    })
}

/// [`group`] in `tx`.
pub(super) async fn group_in(
    tx: &mut store::Tx,
    club: ClubId,
    into: Option<NightId>,
    title: &str,
    sessions: &[SessionId],
) -> Result<NightId, AppError> {
    let at = now();
    for &sid in sessions {
        club_session(tx, club, sid).await?;
        if let Some(other) = ns::night_of_session(tx, sid).await? {
            return Err(AppError::Conflict {
                field: "sessions".into(),
                message: format!(
                    "session {sid} is already in night {other}; a session can be in one night only"
                ),
            });
        }
    }
    if let Some(id) = into {
        club_night(tx, club, id).await?;
    }
    let mut adding = Vec::with_capacity(sessions.len());
    for &sid in sessions {
        adding.push(priced(tx, sid).await?);
    }
    let already = night_priced(tx, into).await?;
    one_currency(&already, &adding).map_err(|m| mixed(m, "sessions"))?;
    let night = match into {
        Some(id) => id,
        None if title.is_empty() => {
            let title = format!("Night of {}", at.date_naive());
            ns::create(tx, club, &title, at).await?
        }
        None => ns::create(tx, club, title, at).await?,
    };
    for &sid in sessions {
        ns::add_session(tx, night, sid).await?;
    }
    Ok(night)
}

/// Night `id` of `club` worked out under the names shown now (merged spellings as one). An
/// open session counts as if closed now, kitty shared out (rules §1.2 rule 7).
/// Errors: [`AppError::NotFound`]; [`AppError::Internal`] on overflow.
pub async fn night(
    pool: &ReadPool,
    folds: &Folds,
    club: ClubId,
    id: NightId,
) -> Result<NightView, AppError> {
    let (night, members, payments, renamed) = {
        let mut conn = pool.acquire().await?;
        let night = club_night(&mut conn, club, id).await?;
        let members = ns::sessions_of(&mut conn, id).await?;
        let payments = ns::payments_of(&mut conn, id).await?;
        let renamed: BTreeMap<String, String> = store::history::renamed_in_club(&mut conn, club)
            .await?
            .into_iter()
            .collect();
        (night, members, payments, renamed)
    };
    let shown = |who: &str| renamed.get(who).map_or(who, String::as_str).to_string();
    let mut sessions = Vec::new();
    let mut events = Vec::new();
    let mut currency = None;
    let mut evening: Option<DateTime<Utc>> = None;
    for (sid, _) in members {
        // From the cached state: a night's page costs no fold of its sessions.
        let (balances, open, header, count) =
            crate::service::night_standing(pool, folds, sid).await?;
        evening = Some(evening.map_or(header.created_at, |e| e.min(header.created_at)));
        currency.get_or_insert(header.currency);
        events.push((sid, count));
        sessions.push(NightSession {
            session_id: sid.0,
            game_name: session_game_name(&header.game, &header.agreements),
            open,
            balances: by_shown_name(&balances, &shown)
                .ok_or_else(|| AppError::Internal(format!("night {id}: totals overflow")))?,
        });
    }
    let (standing, payments) = shown_payments(payments, &shown);
    let settlement = settle_night(&sessions, &standing)
        .map_err(|e| AppError::Internal(format!("night {id}: {e}")))?;
    Ok(NightView {
        evening: evening.unwrap_or(night.created_at),
        night,
        sessions,
        payments,
        settlement,
        currency: currency.unwrap_or_else(|| "USD".into()),
        events,
    })
}

/// `balances` by shown name, spellings of one person summed, an empty kitty or pot left
/// out; `None` on overflow.
fn by_shown_name(
    balances: &crate::ledger::Balances,
    shown: &dyn Fn(&str) -> String,
) -> Option<Vec<(String, Money)>> {
    let mut by_name: BTreeMap<String, i64> = BTreeMap::new();
    for (who, m) in balances.as_map() {
        if m.is_zero() && crate::ledger::HOUSE.contains(&who.as_str()) {
            continue;
        }
        let slot = by_name.entry(shown(who)).or_insert(0);
        *slot = slot.checked_add(m.cents())?;
    }
    Some(
        by_name
            .into_iter()
            .map(|(who, c)| (who, Money::from_cents(c)))
            .collect(),
    )
}

/// `payments` under the shown names: the standing ones, and every row for the page.
fn shown_payments(
    payments: Vec<NightPaymentRow>,
    shown: &dyn Fn(&str) -> String,
) -> (Vec<NightPayment>, Vec<NightPaymentRow>) {
    let standing: Vec<NightPayment> = payments
        .iter()
        .filter(|p| p.voided_at.is_none())
        .map(|p| NightPayment {
            payer: shown(&p.payer),
            payee: shown(&p.payee),
            amount: Money::from_cents(p.amount_cents),
        })
        .collect();
    let payments = payments
        .into_iter()
        .map(|p| NightPaymentRow {
            payer: shown(&p.payer),
            payee: shown(&p.payee),
            ..p
        })
        .collect();
    (standing, payments)
}

/// Records that `payer` handed `payee` `amount` ("2.80") against night `id`. `seen`, the
/// night as the page showed it ([`NightView::seen`]), is required so a double tap records
/// once and an amount worked out from sessions since changed is not recorded. Written only
/// while the night holds the sessions and each the events it was worked out from.
/// Errors: [`AppError::NotFound`]; [`AppError::BadRequest`] naming `amount`, `payer`,
/// `payee` or `seen`; [`AppError::Conflict`] (field `payments`) when `seen` is stale.
#[allow(clippy::too_many_arguments)] // the night, the payment and what the page saw
pub async fn record_payment(
    pool: &WritePool,
    folds: &Folds,
    club: ClubId,
    id: NightId,
    payer: &str,
    payee: &str,
    amount: &str,
    seen: Option<&str>,
) -> Result<(), AppError> {
    let amount = payment_amount(payer, payee, amount)?;
    // Another instance's hand or void meanwhile may have settled or unsettled the night.
    let mut write = crate::service::checked::Checked::new(pool);
    let (mut tx, view) = loop {
        let view = night(pool, folds, club, id).await?;
        payable(&view, payer, payee, seen)?;
        if let Some(tx) = write.begin(&view.events).await? {
            break (tx, view);
        }
    };
    club_night(&mut tx, club, id).await?;
    // Under the write lock: a payment or a change of sessions since the view was read.
    if ns::payments_of(&mut tx, id).await?.len() != view.payments.len() {
        return Err(payment_meanwhile());
    }
    let sessions = ns::sessions_of(&mut tx, id).await?;
    if !sessions
        .iter()
        .map(|(s, _)| *s)
        .eq(view.events.iter().map(|(s, _)| *s))
    {
        return Err(night_changed());
    }
    // Each name points at its person, so a later rename shows the newer name.
    for who in [payer, payee] {
        if !crate::ledger::HOUSE.contains(&who) {
            store::history::ensure_person(&mut tx, club, who).await?;
        }
    }
    ns::add_payment(&mut tx, id, payer, payee, amount.cents(), now()).await?;
    tx.commit().await?;
    Ok(())
}

/// Checks a payment against night `view` as its page showed it (`seen`, [`NightView::seen`]).
/// Errors: [`AppError::BadRequest`] (`payer`, `payee`, `seen`); [`AppError::Conflict`]
/// (field `payments`) when the night is settled or has changed since.
fn payable(view: &NightView, payer: &str, payee: &str, seen: Option<&str>) -> Result<(), AppError> {
    check_parties(view, payer, payee)?;
    // Checked after the fields, so a person who left one out hears about it first.
    let seen = seen.ok_or_else(|| AppError::BadRequest {
        field: "seen".into(),
        message: "seen (the night as the page showed it) is required, so that a second \
                  tap of the same button records nothing"
            .into(),
    })?;
    // Only a new hand or a void makes a settled night owe again.
    if view.settled() {
        return Err(AppError::Conflict {
            field: "payments".into(),
            message: "the night is settled: everyone is square, so there is nothing to pay".into(),
        });
    }
    let now = view.seen();
    if seen == now {
        return Ok(());
    }
    let payments = |token: &str| token.split(':').next().map(str::to_string);
    Err(if payments(seen) == payments(&now) {
        night_changed()
    } else {
        payment_meanwhile()
    })
}

/// Reads `amount` ("2.80"). Errors: [`AppError::BadRequest`] naming `amount`, then `payer` or
/// `payee` when none is chosen.
fn payment_amount(payer: &str, payee: &str, amount: &str) -> Result<Money, AppError> {
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
    for (field, who, what) in [
        ("payer", payer, "who paid"),
        ("payee", payee, "who was paid"),
    ] {
        if who.trim().is_empty() {
            return Err(AppError::BadRequest {
                field: field.into(),
                message: format!("choose {what}"),
            });
        }
    }
    Ok(amount)
}

/// Checks `payer` and `payee` are two people of the night. Errors: [`AppError::BadRequest`].
fn check_parties(view: &NightView, payer: &str, payee: &str) -> Result<(), AppError> {
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
    Ok(())
}

/// Voids payment `payment` of night `id` (kept, struck through). Errors:
/// [`AppError::NotFound`]; [`AppError::BadRequest`] naming `reason` when it breaks
/// [`crate::rules::table::reason`].
pub async fn void_payment(
    pool: &WritePool,
    club: ClubId,
    id: NightId,
    payment: PaymentId,
    reason: &str,
) -> Result<(), AppError> {
    // The import keeps a reason by the same rule (crate::export::text).
    let reason = crate::rules::table::reason(reason).map_err(|message| AppError::BadRequest {
        field: "reason".into(),
        message,
    })?;
    let reason = if reason.is_empty() {
        "a mistake"
    } else {
        &reason
    };
    let mut tx = pool.begin_write().await?;
    club_night(&mut tx, club, id).await?;
    if !ns::void_payment(&mut tx, id, payment, now(), reason).await? {
        return Err(AppError::NotFound(format!(
            "there is no standing payment {payment} in this night"
        )));
    }
    tx.commit().await?;
    Ok(())
}

/// Takes session `session` out of night `id`, only while no payment stands (a payment was
/// worked out with it in). Errors: [`AppError::NotFound`]; [`AppError::Conflict`] (field
/// `session`) while a payment stands.
pub async fn take_out(
    pool: &WritePool,
    club: ClubId,
    id: NightId,
    session: SessionId,
) -> Result<(), AppError> {
    let mut tx = pool.begin_write().await?;
    take_out_in(&mut tx, club, id, session).await?;
    tx.commit().await?;
    Ok(())
}

/// [`take_out`]'s checks and write in `tx`.
pub(super) async fn take_out_in(
    tx: &mut store::Tx,
    club: ClubId,
    id: NightId,
    session: SessionId,
) -> Result<(), AppError> {
    club_night(tx, club, id).await?;
    if ns::night_of_session(tx, session).await? != Some(id) {
        return Err(AppError::NotFound(format!(
            "session {session} is not in this night"
        )));
    }
    let standing = ns::payments_of(tx, id)
        .await?
        .iter()
        .filter(|p| p.voided_at.is_none())
        .count();
    if standing > 0 {
        return Err(AppError::Conflict {
            field: "session".into(),
            message: format!(
                "payments are recorded against this night, worked out with session {session} in it; \
                 void them first, then take the session out"
            ),
        });
    }
    ns::remove_session(tx, id, session).await?;
    Ok(())
}
