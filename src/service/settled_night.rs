//! A settled night stays settled (issue 22 point 1: "nothing can make a settled night
//! unsettled except a new hand or a void"). Its payments were worked out from the sessions
//! it held when the table paid, so putting a session with money in it into the night, or
//! taking one out, would make the night owe again without anyone playing or voiding:
//! both are refused, in player words, while the night is settled. A session with no money
//! in it (a game just started, one settled on its own sheet) changes nothing and may
//! still join or leave; its next hand is a new hand, which may unsettle the night.

use crate::error::AppError;
use crate::ledger::{KITTY, POT};
use crate::money::Money;
use crate::service::Folds;
use crate::service::history::game_name;
use crate::service::nights;
use crate::store::{self, ReadPool};

/// What is done to the settled night.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Sessions put into it.
    Adding,
    /// A session taken out of it.
    TakingOut,
}

/// Refuses `change` of `sessions` to night `night` of club `club` while the night is
/// settled and one of them has money in it (as the night counts it: an open session as
/// if it closed now). Errors: [`AppError::NotFound`] for a night or session not the
/// club's (nothing of another club's session is named); [`AppError::Conflict`] naming
/// `field` when the change would unsettle the night. Reads only: the caller writes after.
pub async fn keep_settled(
    pool: &ReadPool,
    folds: &Folds,
    (club, night): (i64, i64),
    sessions: &[i64],
    change: Change,
    field: &str,
) -> Result<(), AppError> {
    for &sid in sessions {
        let mut conn = pool.acquire().await?;
        if store::clubs::session_club(&mut conn, sid).await?.flatten() != Some(club) {
            return Err(AppError::NotFound(format!("there is no session {sid}")));
        }
    }
    let view = nights::night(pool, folds, club, night).await?;
    if !view.settled() {
        return Ok(());
    }
    for &sid in sessions {
        // A session in a night already is refused by the grouping itself, in its words.
        if change == Change::Adding && nights::night_of_session(pool, sid).await?.is_some() {
            continue;
        }
        let (balances, _, currency, _) = crate::service::night_standing(pool, folds, sid).await?;
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
    Ok(())
}

/// The session a settled night refuses, as the refusal names it.
struct Refused<'a> {
    night: &'a str,
    session: i64,
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
            session: 2,
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
