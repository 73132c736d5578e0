//! The history status of a session a night settles: "settled" when closed and the night is
//! settled, whatever its own balances, since its money is paid in the night's transfers.

use std::collections::BTreeMap;

use crate::error::AppError;
use crate::ids::SessionId;
use crate::ids::{ClubId, NightId};
use crate::service::Folds;
use crate::service::history::HistoryEntry;
use crate::service::nights::{self, NightView};
use crate::store::ReadPool;
use crate::store::nights as ns;

/// A night as a history entry names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NightMark {
    /// The night's id.
    pub id: NightId,
    /// Its title.
    pub title: String,
    /// Every net of the night is zero.
    pub settled: bool,
    /// What is left to pay, in words with the currency: "Dee pays Ann $1.20".
    pub owing: Vec<String>,
}

impl NightMark {
    fn of(view: &NightView) -> NightMark {
        NightMark {
            id: view.night.id,
            title: view.night.title.clone(),
            settled: view.settled(),
            owing: view
                .settlement
                .transfers
                .iter()
                .map(|t| {
                    let t = &t.transfer;
                    let amount = t.amount.shown(&view.currency);
                    format!("{} pays {} {amount}", t.from, t.to)
                })
                .collect(),
        }
    }
}

/// Marks each of the club's history entries a night settles with its [`NightMark`] and the
/// night's `settled`; each night worked out once. Errors: the store's.
pub async fn mark(
    pool: &ReadPool,
    folds: &Folds,
    club: ClubId,
    entries: &mut [HistoryEntry],
) -> Result<BTreeMap<SessionId, NightMark>, AppError> {
    let mut of_session = Vec::with_capacity(entries.len());
    {
        let mut conn = pool.acquire().await?;
        for e in entries.iter() {
            of_session.push(ns::night_of_session(&mut conn, e.row.id).await?);
        }
    }
    let mut nights_seen: BTreeMap<NightId, NightMark> = BTreeMap::new();
    let mut marks = BTreeMap::new();
    for (e, night) in entries.iter_mut().zip(of_session) {
        let Some(night) = night else { continue };
        let mark = match nights_seen.entry(night) {
            std::collections::btree_map::Entry::Occupied(m) => m.into_mut(),
            std::collections::btree_map::Entry::Vacant(slot) => {
                let view = nights::night(pool, folds, club, night).await?;
                slot.insert(NightMark::of(&view))
            }
        };
        e.row.settled = e.row.closed && mark.settled;
        marks.insert(e.row.id, mark.clone());
    }
    Ok(marks)
}
