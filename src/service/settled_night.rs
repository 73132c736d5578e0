//! A settled night stays settled until a new hand or a void: its payments were worked out
//! from the sessions it held, so adding or taking out a session with money in it is
//! refused while the night is settled. A session with no money in it may join or leave.

use crate::error::AppError;
use crate::ids::{ClubId, NightId, SessionId};
use crate::ledger::{KITTY, POT};
use crate::money::Money;
use crate::service::Folds;
use crate::service::checked::Checked;
use crate::service::history::game_name;
use crate::service::nights;
use crate::store::{self, ReadPool, WritePool};

/// What is done to the settled night.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Sessions put into it.
    Adding,
    /// A session taken out of it.
    TakingOut,
}

/// Adds `sessions` to night `night` ([`nights::group`]) unless [`keep_settled`] refuses,
/// checked with [`Checked`]. Errors: as those (field `sessions`); [`AppError::Busy`].
pub async fn group_into(
    pool: &WritePool,
    folds: &Folds,
    (club, night): (ClubId, NightId),
    title: &str,
    sessions: &[SessionId],
) -> Result<NightId, AppError> {
    let title = nights::night_title(title, sessions)?;
    let mut write = Checked::new(pool);
    loop {
        let adding = (sessions, Change::Adding, "sessions");
        let read = keep_settled(pool.reader(), folds, (club, night), adding).await?;
        if let Some(mut tx) = write.begin(&read).await? {
            let id = nights::group_in(&mut tx, club, Some(night), &title, sessions).await?;
            tx.commit().await?;
            return Ok(id);
        }
    }
}

/// Takes `session` out of night `night` ([`nights::take_out`]) unless [`keep_settled`]
/// refuses, checked as [`group_into`]. Errors: as those (field `session`); [`AppError::Busy`].
pub async fn take_out(
    pool: &WritePool,
    folds: &Folds,
    (club, night): (ClubId, NightId),
    session: SessionId,
) -> Result<(), AppError> {
    let mut write = Checked::new(pool);
    loop {
        let taking = (&[session][..], Change::TakingOut, "session");
        let read = keep_settled(pool.reader(), folds, (club, night), taking).await?;
        if let Some(mut tx) = write.begin(&read).await? {
            nights::take_out_in(&mut tx, club, night, session).await?;
            tx.commit().await?;
            return Ok(());
        }
    }
}

/// Refuses `change` while the night is settled and a session has money in it (an open one
/// as if closed now). Reads only; the sessions with the event counts read, for the write's
/// check. Errors: [`AppError::NotFound`] (nothing of another club's named);
/// [`AppError::Conflict`] naming `field`.
async fn keep_settled(
    pool: &ReadPool,
    folds: &Folds,
    (club, night): (ClubId, NightId),
    (sessions, change, field): (&[SessionId], Change, &str),
) -> Result<Vec<(SessionId, usize)>, AppError> {
    for &sid in sessions {
        let mut conn = pool.acquire().await?;
        if store::clubs::session_club(&mut conn, sid).await?.flatten() != Some(club) {
            return Err(AppError::NotFound(format!("there is no session {sid}")));
        }
    }
    let view = nights::night(pool, folds, club, night).await?;
    let mut read = view.events.clone();
    if !view.settled() {
        return Ok(read);
    }
    for &sid in sessions {
        // A session in a night already is refused by the grouping itself, in its words.
        if change == Change::Adding && nights::night_of_session(pool, sid).await?.is_some() {
            continue;
        }
        let (balances, _, header, events) =
            crate::service::night_standing(pool, folds, sid).await?;
        let currency = header.currency;
        read.push((sid, events));
        let money: Vec<(String, Money)> = balances
            .as_map()
            .iter()
            .filter(|(_, m)| !m.is_zero())
            .map(|(who, m)| (who.clone(), *m))
            .collect();
        if money.is_empty() {
            continue;
        }
        let game = {
            let mut conn = pool.acquire().await?;
            store::session(&mut conn, sid)
                .await?
                .map_or_else(String::new, |h| game_name(&h.game))
        };
        let at = Refused {
            night: &view.night.title,
            session: sid,
            game: &game,
            currency: &currency,
        };
        return Err(AppError::Conflict {
            field: field.into(),
            message: at.words(&money, change),
        });
    }
    Ok(read)
}

/// The session a settled night refuses, as the refusal names it.
struct Refused<'a> {
    night: &'a str,
    session: SessionId,
    game: &'a str,
    currency: &'a str,
}

impl Refused<'_> {
    /// E.g. "Thursday is settled: everyone is square. Session 2 (Auction Pitch) has money in
    /// it (…), so putting it in the night would make the night owe again; …"
    fn words(&self, money: &[(String, Money)], change: Change) -> String {
        let who = money
            .iter()
            .map(|(who, m)| {
                let name = match who.as_str() {
                    KITTY => "Kitty",
                    POT => "Pot",
                    _ => who.as_str(),
                };
                format!("{name} {}", m.shown_signed(self.currency))
            })
            .collect::<Vec<_>>()
            .join(", ");
        let (doing, then) = match change {
            Change::Adding => (
                "putting it in the night",
                "Settle the session on its own sheet, or void a payment of the night first.",
            ),
            Change::TakingOut => (
                "taking it out of the night",
                "Leave it in the night, or void a payment of the night first.",
            ),
        };
        format!(
            "{} is settled: everyone is square. Session {} ({}) has money in it ({who}), so \
             {doing} would make the night owe again; only a new hand or a void does that. {then}",
            self.night, self.session, self.game
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_names_the_night_the_session_and_its_money() {
        let at = Refused {
            night: "Thursday",
            session: SessionId(2),
            game: "Auction Pitch",
            currency: "USD",
        };
        let money = [
            ("Ann".to_string(), Money::from_cents(280)),
            ("Bob".to_string(), Money::from_cents(-160)),
        ];
        assert_eq!(
            at.words(&money, Change::Adding),
            "Thursday is settled: everyone is square. Session 2 (Auction Pitch) has money in \
             it (Ann +\u{2060}$2.80, Bob −\u{2060}$1.60), so putting it in the night would make \
             the night owe again; only a new hand or a void does that. Settle the session on \
             its own sheet, or void a payment of the night first."
        );
        assert!(
            at.words(&money, Change::TakingOut)
                .contains("so taking it out of the night would make the night owe again")
        );
    }
}
