//! A settled night stays settled: nothing can make a settled night unsettled except a
//! new hand or a void. Its payments were worked out from the sessions
//! it held when the table paid, so putting a session with money in it into the night, or
//! taking one out, would make the night owe again without anyone playing or voiding:
//! both are refused, in player words, while the night is settled. A session with no money
//! in it (a game just started, one settled on its own sheet) changes nothing and may
//! still join or leave; its next hand is a new hand, which may unsettle the night.

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

/// Adds `sessions` of club `club` to its night `night` ([`nights::group`]) unless the
/// night is settled and one of them has money in it ([`keep_settled`]). The night is
/// worked out from its sessions as cached, and the sessions are added only while each
/// still holds the events it was worked out from ([`Checked`]): a void another instance
/// recorded meanwhile may have settled the night. Errors: as [`nights::group`] and
/// [`keep_settled`] (field `sessions`); [`AppError::Busy`] when the night's sessions kept
/// moving on.
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

/// Takes `session` out of night `night` of club `club` ([`nights::take_out`]) unless the
/// night is settled and it has money in it ([`keep_settled`]), checked as
/// [`group_into`] checks. Errors: as [`nights::take_out`] and [`keep_settled`] (field
/// `session`); [`AppError::Busy`] when the night's sessions kept moving on.
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

/// Refuses `change` of `sessions` to night `night` of club `club` while the night is
/// settled and one of them has money in it (as the night counts it: an open session as
/// if it closed now). Reads only: the sessions it read, each with the number of events of
/// the state it read, for the write after to check. Errors: [`AppError::NotFound`] for a
/// night or session not the club's (nothing of another club's session is named);
/// [`AppError::Conflict`] naming `field` when the change would unsettle the night.
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
        let (balances, _, currency, events) =
            crate::service::night_standing(pool, folds, sid).await?;
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
    /// "Thursday is settled: everyone is square. Session 2 (Auction Pitch) has money in it
    /// (Ann +$2.80, Bob −$1.60, Dee −$1.20), so putting it in the night would make the
    /// night owe again; only a new hand or a void does that. Settle the session on its own
    /// sheet, or void a payment of the night first."
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
