//! The night's settle-up on a session's sheet, in place of the session's own.

use crate::error::AppError;
use crate::ids::SessionId;
use crate::ids::{ClubId, NightId};

/// The night a session is in, as its sheet shows it (a "Mark paid" there pays the night).
pub struct NightOnSheet {
    /// The club, for the night's address.
    pub club: ClubId,
    /// The night's id.
    pub id: NightId,
    /// "Thursday at Sal's".
    pub title: String,
    /// Every net of the night is zero.
    pub settled: bool,
    /// The night's transfers: `(from, to, "$1.20", "1.20")`.
    pub transfers: Vec<(String, String, String, String)>,
    /// The night's standing payments in words: "Dee paid Ann $1.20".
    pub payments: Vec<String>,
    /// The night as the sheet shows it ([`crate::service::nights::NightView::seen`]): the
    /// pay form's `seen`.
    pub seen: String,
}

impl NightOnSheet {
    /// The sheet's view of `view`, a night of club `club`.
    pub fn of(club: ClubId, view: &crate::service::nights::NightView) -> NightOnSheet {
        let money = |m: &crate::money::Money| m.shown(&view.currency);
        NightOnSheet {
            club,
            id: view.night.id,
            title: view.night.title.clone(),
            settled: view.settled(),
            transfers: view
                .settlement
                .transfers
                .iter()
                .map(|t| {
                    let t = &t.transfer;
                    (
                        t.from.clone(),
                        t.to.clone(),
                        money(&t.amount),
                        t.amount.to_string(),
                    )
                })
                .collect(),
            payments: view
                .payments
                .iter()
                .filter(|p| p.voided_at.is_none())
                .map(|p| {
                    let amount = crate::money::Money::from_cents(p.amount_cents);
                    format!("{} paid {} {}", p.payer, p.payee, money(&amount))
                })
                .collect(),
            seen: view.seen(),
        }
    }
}

/// Session `id`'s night as its sheet shows it; `None` if none. Errors: the store's.
pub async fn night_on_sheet(
    state: &crate::web::AppState,
    id: SessionId,
) -> Result<Option<NightOnSheet>, AppError> {
    use crate::service::nights;
    match nights::night_of_session(&state.reader, id).await? {
        None => Ok(None),
        Some((club, night)) => {
            let view = nights::night(&state.reader, &state.folds, club, night).await?;
            Ok(Some(NightOnSheet::of(club, &view)))
        }
    }
}
