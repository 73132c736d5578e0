//! Where a correction's replay meets the session as it stood: once the replayed state is
//! the stored one but for the balances, every later event scores as it did, so the rest
//! is taken as it stands, shifted by the difference in balances, instead of replayed.
//!
//! No rule reads the balances ([`crate::rules::Ctx`]), so the engine, the seating, the
//! close and the games finished decide everything an event does.

use super::{CHECKPOINT, Core, Fold, Standing, amend::difference};
use crate::ledger::Posting;

/// The standing events a replay passes over from the kept state where it met the session,
/// up to the last kept state it resumes from.
pub(super) struct Rejoined {
    /// The events passed over, with their kept states shifted.
    pub(super) standing: Vec<Standing>,
    /// The state, shifted, before the standing event at `at`, where the replay resumes.
    pub(super) core: Core,
    /// The standing slot the replay resumes at.
    pub(super) at: usize,
}

impl Core {
    /// Whether every later event would score from `self` as from `other`: the same engine
    /// state, seating, close and games finished, and the same accounts open.
    fn same_but_balances(&self, other: &Core) -> bool {
        self.engine.same_state(&*other.engine)
            && self.table == other.table
            && self.closed_at == other.closed_at
            && self.finished.len() == other.finished.len()
            && self
                .balances
                .as_map()
                .keys()
                .eq(other.balances.as_map().keys())
    }

    /// `self` moved by `shift` (postings in cents) with `finished` for its games; `None`
    /// should a balance leave the money limit.
    fn shifted(&self, shift: &[Posting], finished: super::Games) -> Option<Core> {
        let mut balances = self.balances.clone();
        balances.checked_apply(shift).ok()?;
        Some(Core {
            engine: self.engine.clone_box(),
            table: self.table.clone(),
            balances,
            closed_at: self.closed_at,
            finished,
            meld: self.meld,
        })
    }
}

impl Fold {
    /// A correction's replay at standing slot `slot` in state `core` (the events before it
    /// replayed with the change): when the state kept there is `core` but for the
    /// balances, the standing events from `slot` up to the last kept state from which the
    /// replay still meets the last event that keeps scores, with every kept state shifted
    /// by the difference and its games following `core`'s. `None` when the states differ,
    /// nothing is kept at `slot`, or there is nothing to pass over.
    pub(super) fn rejoin(&self, slot: usize, core: &Core) -> Option<Rejoined> {
        if !slot.is_multiple_of(CHECKPOINT) {
            return None;
        }
        let met = self.standing.get(slot)?.before.as_deref()?;
        if !core.same_but_balances(met) {
            return None;
        }
        // The replay resumes at or before the last event with scores, whose scores the
        // amendment's row shows, and in time to replay the last event.
        let last_scored = self.standing[slot..].iter().rposition(|s| s.scored);
        let resume = self.standing[slot..]
            .iter()
            .enumerate()
            .filter(|(k, s)| s.before.is_some() && last_scored.is_none_or(|last| *k <= last))
            .map(|(k, _)| slot + k)
            .next_back()
            .filter(|&at| at > slot)?;
        let shift = difference(&met.balances, &core.balances);
        let mut games = core.finished.clone();
        let mut games_at = met.finished.len();
        let mut shifted = |kept: &Core| {
            games = kept.finished.rebased(games_at, &games)?;
            games_at = kept.finished.len();
            kept.shifted(&shift, games.clone())
        };
        let mut standing = Vec::with_capacity(resume - slot);
        for s in &self.standing[slot..resume] {
            let before = match s.before.as_deref() {
                Some(kept) => Some(Box::new(shifted(kept)?)),
                None => None,
            };
            standing.push(Standing {
                before,
                ..s.passed_over()
            });
        }
        let core = shifted(self.standing[resume].before.as_deref()?)?;
        Some(Rejoined {
            standing,
            core,
            at: resume,
        })
    }
}

impl Standing {
    /// A copy of this standing event without its kept state.
    fn passed_over(&self) -> Standing {
        Standing {
            index: self.index,
            event: self.event.clone(),
            deal: self.deal,
            scored: self.scored,
            before: None,
            counted: self.counted.clone(),
        }
    }
}
