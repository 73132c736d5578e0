//! The sheet of a club session with a renamed or merged player, from cached state: the
//! session's state under the club's current names ([`crate::history::names::shown`]), kept
//! beside its own and caught up event by event; folded whole only the first time, after an
//! undo or correction, or when the names change.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::{Folds, Glance, glance, load, no_longer_replays, reading};
use crate::error::AppError;
use crate::history::names;
use crate::ids::SessionId;
use crate::ledger::HOUSE;
use crate::session::Tip;
use crate::store::{self, ReadPool};

/// A session's state under the club's names, as of `events` events.
pub(crate) struct Renamed {
    /// The club's names it was made for (recorded name → display name).
    club_names: BTreeMap<String, String>,
    events: usize,
    /// The state under the shown names, and those names; `None` when shown as recorded.
    shown: Option<(Tip, BTreeMap<String, String>)>,
}

impl Renamed {
    /// The number of events the state holds.
    pub(crate) fn events(&self) -> usize {
        self.events
    }
}

/// What a club session's default sheet is built from, under the club's names.
#[derive(Debug, Clone)]
pub enum Renaming {
    /// No name of the session shows renamed: the session's own state.
    AsRecorded(Glance),
    /// The session's own state, the same under the shown names, and those names.
    Shown {
        /// The session's own state.
        glance: Glance,
        /// The state under the shown names (boxed to keep the enum small).
        renamed: Box<Glance>,
        /// Recorded name → display name, the session's renamed names only.
        names: BTreeMap<String, String>,
    },
}

impl Renaming {
    /// The number of events shown.
    pub fn events(&self) -> usize {
        match self {
            Renaming::AsRecorded(glance) | Renaming::Shown { glance, .. } => glance.tip.events(),
        }
    }
}

/// Session `id`'s default sheet under `club_names` (recorded → display), from the cached
/// state and the renamed state kept beside it, caught up by the events since or folded
/// whole. `None` when an event landed during a whole read: the caller reads it itself.
/// Errors: [`AppError::NotFound`]; the store's.
pub async fn glance_renamed(
    pool: &ReadPool,
    folds: &Folds,
    id: SessionId,
    club_names: &BTreeMap<String, String>,
) -> Result<Option<Renaming>, AppError> {
    let glance = glance(pool, folds, id).await?;
    let events = glance.tip.events();
    let kept = folds
        .renamed(id)
        .filter(|r| r.club_names == *club_names && r.events <= events);
    let state = match kept {
        Some(r) if r.events == events => Some(r),
        Some(r) => caught_up(pool, id, &r, &glance.tip).await?.map(Arc::new),
        None => None,
    };
    let state = match state {
        Some(state) => state,
        None => {
            let current = load(pool, folds, id).await?;
            if current.events() != events {
                return Ok(None);
            }
            let shown = names::shown(&current.doc, &current.fold, club_names);
            let tip = |s: names::Shown| -> Result<_, AppError> {
                let tip = Tip::of(&s.fold).map_err(|r| no_longer_replays(id, &r))?;
                Ok((tip, s.names))
            };
            Arc::new(Renamed {
                club_names: club_names.clone(),
                events,
                shown: shown.map(tip).transpose()?,
            })
        }
    };
    folds.keep_renamed(id, state.clone());
    Ok(Some(match &state.shown {
        None => Renaming::AsRecorded(glance),
        Some((tip, names)) => Renaming::Shown {
            renamed: Box::new(Glance {
                tip: tip.clone(),
                ..glance.clone()
            }),
            glance,
            names: names.clone(),
        },
    }))
}

/// `kept` caught up to `tip`; `None` when that needs the whole session.
async fn caught_up(
    pool: &ReadPool,
    id: SessionId,
    kept: &Renamed,
    tip: &Tip,
) -> Result<Option<Renamed>, AppError> {
    let Some((renamed, names)) = &kept.shown else {
        return Ok(None);
    };
    let bodies = {
        let mut conn = pool.acquire().await?;
        store::event_bodies_between(&mut conn, id, (kept.events, tip.events())).await?
    };
    let mut next = renamed.clone();
    for body in bodies {
        let event = reading::parse(&body)?;
        let renamed = names::renamed_event(&event, names);
        if next.reaches_before(&renamed) || next.apply(&renamed).is_err() {
            return Ok(None);
        }
    }
    let current = next.events() == tip.events() && same_people(tip, &next, &kept.club_names, names);
    Ok(current.then(|| Renamed {
        club_names: kept.club_names.clone(),
        events: next.events(),
        shown: Some((next, names.clone())),
    }))
}

/// Whether `renamed` is still `tip` under `names` as [`names::shown`] would make it.
fn same_people(
    tip: &Tip,
    renamed: &Tip,
    club_names: &BTreeMap<String, String>,
    names: &BTreeMap<String, String>,
) -> bool {
    let balances = tip.balances().as_map();
    let sitting: BTreeSet<&String> = tip
        .table()
        .seated()
        .iter()
        .chain(balances.keys())
        .filter(|n| !HOUSE.contains(&n.as_str()))
        .collect();
    let now: BTreeMap<String, String> = sitting
        .iter()
        .filter_map(|n| {
            let to = club_names.get(*n).filter(|to| to != n)?;
            Some(((*n).clone(), to.clone()))
        })
        .collect();
    let after: BTreeSet<&str> = sitting
        .iter()
        .map(|n| names.get(*n).map_or(n.as_str(), String::as_str))
        .collect();
    now == *names
        && after.len() == sitting.len()
        && !after.iter().any(|n| HOUSE.contains(n))
        && renamed.balances().as_map().len() == balances.len()
        && balances
            .iter()
            .all(|(who, m)| renamed.balances().get(names.get(who).unwrap_or(who)) == *m)
}
