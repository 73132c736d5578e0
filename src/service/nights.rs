//! Nights: group a club's sessions of one evening as a night and settle
//! it once. Reads each session's balances from its stored postings (after the session's
//! own payments), works the night out with [`crate::history::night::settle_night`], and
//! records or voids payments against the night. A session is in one night at most.

use std::collections::BTreeMap;

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
use crate::service::Folds;
use crate::service::history::game_name;
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
    /// Its sessions with their balances as they stand.
    pub sessions: Vec<NightSession>,
    /// Every payment against the night, voided ones included (shown struck through).
    pub payments: Vec<NightPaymentRow>,
    /// Net per account, transfers and the games behind them (voided payments left out).
    pub settlement: NightSettlement,
    /// The currency of its sessions (ISO code, "USD"; one for the night, as [`group`] keeps
    /// it, and "USD" for a night with no session left).
    pub currency: String,
    /// Each session's id and the number of events of the state its balances were read
    /// from: what a write worked out from the view checks under the sessions' locks.
    pub events: Vec<(SessionId, usize)>,
}

impl NightView {
    /// Settled: every net over the night's sessions and standing payments is zero, so no
    /// transfer is left (the night is the unit a table settles).
    pub fn settled(&self) -> bool {
        self.settlement.net.iter().all(|(_, m)| m.is_zero())
    }
}

/// The night session `session` is in, as `(club id, night id)`; `None` for a session in no
/// night (or of no club). Errors: the store's.
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

/// A payment inside a session that a night settles would be a second truth beside the
/// night's: once a session is in a night, its payments are recorded against the night
/// (where every session of the night sees them). Errors: [`AppError::Conflict`] (field
/// `payment`) naming the night, for session `session` in one.
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

/// The other sessions of the night session `session` is in; none when it is in no night.
/// Errors: the store's.
pub async fn night_mates(pool: &ReadPool, session: SessionId) -> Result<Vec<SessionId>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(ns::night_mates(&mut conn, session).await?)
}

/// The ids of night `night`'s sessions, oldest first. Errors: the store's.
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

/// Session `id` as the one-currency check names it.
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

/// The sessions of night `night` as the one-currency check names them (none for `None`).
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

/// A night settles in one currency: the refusal, naming the session and both currencies.
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

/// Groups `sessions` of `club` as a night: a new one titled `title` (blank: "Night of
/// <day>") when `into` is `None`, else added to night `into`. Returns the night's id.
/// Errors: [`AppError::BadRequest`] (field `sessions`) when none is chosen, (field
/// `title`) over 80 characters or with a character that does not show
/// ([`crate::rules::table::title`]); [`AppError::NotFound`] for a session or night not the
/// club's; [`AppError::Conflict`] (field `sessions`) when a session is in a night already,
/// or is kept in another currency than the night's other sessions (a night settles up in
/// one currency). Nothing is written on an error.
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

/// `title` as a night's title ([`crate::rules::table::title`]), for a grouping of
/// `sessions`. Errors: as [`group`]'s [`AppError::BadRequest`]s.
pub(super) fn night_title(title: &str, sessions: &[SessionId]) -> Result<String, AppError> {
    if sessions.is_empty() {
        return Err(AppError::BadRequest {
            field: "sessions".into(),
            message: "tick at least one session to make a night of".into(),
        });
    }
    crate::rules::table::title(title, 80, "a night's title").map_err(|message| {
        AppError::BadRequest {
            field: "title".into(),
            message,
        }
    })
}

/// [`group`]'s checks and writes in `tx`, the title checked ([`night_title`]).
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

/// Night `id` of `club` worked out, every player under the name the club shows now (a
/// renamed player under the new name, two merged spellings as one). A session still open
/// counts as if it closed now, as its own sheet's settle-up does: the kitty shared out by
/// its rule (rules §1.2 rule 7), so no one is asked to pay the kitty at the end of the
/// night; a closed session counts as it stands (its close shared the kitty). Errors:
/// [`AppError::NotFound`]; [`AppError::Internal`] if its totals overflow.
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
    for (sid, game) in members {
        // From the cached state: a night's page costs no fold of its sessions.
        let (balances, open, money, count) =
            crate::service::night_standing(pool, folds, sid).await?;
        currency.get_or_insert(money);
        events.push((sid, count));
        sessions.push(NightSession {
            session_id: sid.0,
            game_name: game_name(&game),
            open,
            balances: by_shown_name(&balances, &shown)
                .ok_or_else(|| AppError::Internal(format!("night {id}: totals overflow")))?,
        });
    }
    let (standing, payments) = shown_payments(payments, &shown);
    let settlement = settle_night(&sessions, &standing)
        .map_err(|e| AppError::Internal(format!("night {id}: {e}")))?;
    Ok(NightView {
        night,
        sessions,
        payments,
        settlement,
        currency: currency.unwrap_or_else(|| "USD".into()),
        events,
    })
}

/// A session's `balances` by the name each player is shown under now (`shown`), two
/// spellings of one person added up; an emptied kitty or pot left out. `None` when a sum
/// overflows.
fn by_shown_name(
    balances: &crate::ledger::Balances,
    shown: &dyn Fn(&str) -> String,
) -> Option<Vec<(String, Money)>> {
    let mut by_name: BTreeMap<String, i64> = BTreeMap::new();
    for (who, m) in balances.as_map() {
        // An emptied kitty or pot is no one's to settle with.
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

/// The night's `payments` under the names shown now (`shown`): those that stand, for the
/// settlement, and every row, voided ones too, for the page.
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

/// Records that `payer` handed `payee` `amount` ("2.80") against night `id`. `seen` is how
/// many payments (voided ones too) the page showed: a second tap of the same button, or
/// another phone's payment in between, then finds more and records nothing. It is required:
/// without it a double tap would record the payment twice. The
/// night's sessions are locked for the write and each must still hold the events the
/// night was worked out from, so two instances' payments of one night follow each other.
/// Errors: [`AppError::NotFound`]; [`AppError::BadRequest`] naming `amount` (not money,
/// not above zero), `payer`/`payee` (none chosen, not someone of the night, or the same
/// person) or `seen` (absent); [`AppError::Conflict`] (field `payments`) when `seen` is out
/// of date.
#[allow(clippy::too_many_arguments)] // the night, the payment and what the page saw
pub async fn record_payment(
    pool: &WritePool,
    folds: &Folds,
    club: ClubId,
    id: NightId,
    payer: &str,
    payee: &str,
    amount: &str,
    seen: Option<usize>,
) -> Result<(), AppError> {
    let amount = payment_amount(payer, payee, amount)?;
    // Worked out from the night's sessions as cached, and written only while each still
    // holds the events it was worked out from: a hand or a void another instance recorded
    // meanwhile may have settled the night, or unsettled it.
    let mut write = crate::service::checked::Checked::new(pool);
    let (mut tx, seen) = loop {
        let view = night(pool, folds, club, id).await?;
        let seen = payable(&view, payer, payee, seen)?;
        if let Some(tx) = write.begin(&view.events).await? {
            break (tx, seen);
        }
    };
    club_night(&mut tx, club, id).await?;
    if ns::payments_of(&mut tx, id).await?.len() != seen {
        return Err(AppError::Conflict {
            field: "payments".into(),
            message: "a payment was just recorded against this night (a second tap, or \
                      another phone); the night now shows it, so check before recording again"
                .into(),
        });
    }
    // The payment is kept under the names shown now; each points at its person, so a later
    // rename shows it under the newer name.
    for who in [payer, payee] {
        if !crate::ledger::HOUSE.contains(&who) {
            store::history::ensure_person(&mut tx, club, who).await?;
        }
    }
    ns::add_payment(&mut tx, id, payer, payee, amount.cents(), now()).await?;
    tx.commit().await?;
    Ok(())
}

/// That a payment from `payer` to `payee` may be recorded against the night `view`, whose
/// page showed `seen` payments: that count. Errors: [`AppError::BadRequest`] naming
/// `payer` or `payee` (not someone of the night, or the same person) or `seen` (absent);
/// [`AppError::Conflict`] (field `payments`) when the night is settled.
fn payable(
    view: &NightView,
    payer: &str,
    payee: &str,
    seen: Option<usize>,
) -> Result<usize, AppError> {
    check_parties(view, payer, payee)?;
    // Checked after the fields, so a person who left one out hears about it first.
    let seen = seen.ok_or_else(|| AppError::BadRequest {
        field: "seen".into(),
        message: "seen (how many payments the page showed) is required, so that a second \
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
    Ok(seen)
}

/// A night payment's `amount` ("2.80") read, with `payer` and `payee` chosen. Errors:
/// [`AppError::BadRequest`] naming `amount` (not money, not above zero), then `payer` or
/// `payee` (none chosen).
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

/// That `payer` and `payee` are two people of the night `view`. Errors:
/// [`AppError::BadRequest`] naming `payer` or `payee` (not someone of the night), or
/// `payee` (the payer himself).
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

/// Voids payment `payment` of night `id` (kept, struck through, no longer counted).
/// Errors: [`AppError::NotFound`] for no such payment standing.
pub async fn void_payment(
    pool: &WritePool,
    club: ClubId,
    id: NightId,
    payment: PaymentId,
    reason: &str,
) -> Result<(), AppError> {
    let reason = reason.trim();
    let reason = if reason.is_empty() {
        "a mistake"
    } else {
        reason
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

/// Takes session `session` out of night `id` (it was put there by mistake), while no payment
/// stands against the night: a payment was worked out from the night as it was, so taking a
/// game out under it would leave it paying for money no longer in the night. Errors:
/// [`AppError::NotFound`] for a night of another club or a session not in it;
/// [`AppError::Conflict`] (field `session`) while a payment stands (void it first). Nothing
/// is written on an error.
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
