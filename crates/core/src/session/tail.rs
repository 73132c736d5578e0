//! A fold's tail: its events from a kept state on, folded whole. The cache's [`super::Tip`]
//! keeps one, so a `void` or `correction` of a recent event replays the events after it,
//! not the session (the fold's own checkpoints, [`CHECKPOINT`], make that replay short).

use std::collections::BTreeMap;

use super::{CHECKPOINT, Fold, Refusal};

/// The fewest standing events a tail keeps: after [`TAIL`] more it drops its oldest
/// [`TAIL`]. A multiple of [`CHECKPOINT`], so the first event kept has its state kept.
pub const TAIL: usize = CHECKPOINT;

/// Where a fold is cut: the first event kept, the last deal before it, the first row kept.
struct Cut {
    first: usize,
    earlier_deal: Option<(usize, Option<usize>)>,
    row: usize,
}

impl Fold {
    /// The index of the first event this fold holds: 0, or where its tail begins.
    pub fn first(&self) -> usize {
        self.first
    }

    /// Whether a `reopen` stands among the rows held (its facts count otherwise,
    /// [`Fold::for_each_afresh`]): amendments then read the whole session.
    pub fn holds_reopen(&self) -> bool {
        self.rows.iter().any(|r| r.kind == super::EventKind::Reopen)
    }

    /// A copy of the events from the latest kept state with at least [`TAIL`] standing
    /// events after it (all of them when fewer stand): the cache's tail of this fold.
    /// Older finished games are kept as records only. Errors: a replay refused (a bug).
    pub fn tail(&self) -> Result<Fold, Refusal> {
        let latest = self.standing.len().saturating_sub(TAIL);
        let slot = (0..=latest)
            .rev()
            .find(|&s| self.standing.get(s).is_none_or(|s| s.before.is_some()))
            .unwrap_or(0);
        let cut = self.cut(slot);
        let mut standing = self.standing[slot..].to_vec();
        if let Some(s) = standing.first_mut()
            && s.before.is_none()
        {
            s.before = Some(Box::new(self.state_before(slot, cut.first)?));
        }
        let mut core = self.core.clone();
        slim_games(&mut core, &mut standing);
        Ok(Fold {
            game: self.game,
            core,
            standing,
            rows: self.rows[cut.row..].to_vec(),
            row_of: rebased(self.row_of.range(cut.first..), cut.row),
            shown: rebased(self.shown.iter().filter(|(_, v)| v.0 >= cut.row), cut.row),
            start_line: None,
            first: cut.first,
            earlier_deal: cut.earlier_deal,
            quiet_before: 0,
        })
    }

    /// Drops the events before standing slot `slot` with their rows, keeping the state
    /// before it. Errors: a replay refused (a bug); nothing changes then.
    pub(super) fn drop_before(&mut self, slot: usize) -> Result<(), Refusal> {
        let cut = self.cut(slot);
        if let Some(s) = self.standing.get(slot)
            && s.before.is_none()
        {
            let before = self.state_before(slot, cut.first)?;
            if let Some(s) = self.standing.get_mut(slot) {
                s.before = Some(Box::new(before));
            }
        }
        self.standing.drain(..slot);
        // The dropped events' kept states no longer hold the older games, which can now
        // be packed; the states still kept took them whole as they were made.
        slim_games(&mut self.core, &mut self.standing);
        self.rows.drain(..cut.row);
        self.row_of = rebased(self.row_of.range(cut.first..), cut.row);
        self.shown = rebased(self.shown.iter().filter(|(_, v)| v.0 >= cut.row), cut.row);
        self.start_line = None;
        self.first = cut.first;
        self.earlier_deal = cut.earlier_deal;
        Ok(())
    }

    /// Where cutting before standing slot `slot` falls (past the end: after the last event).
    fn cut(&self, slot: usize) -> Cut {
        let first = self
            .standing
            .get(slot)
            .map_or_else(|| self.events(), |s| s.index);
        let earlier_deal = match self.standing[..slot.min(self.standing.len())]
            .iter()
            .rev()
            .find(|s| s.deal)
        {
            Some(s) => Some((s.index, self.hand_number(s.index))),
            None => self.earlier_deal,
        };
        let row = self
            .rows
            .iter()
            .position(|r| r.index.is_some_and(|i| i >= first))
            .unwrap_or(self.rows.len());
        Cut {
            first,
            earlier_deal,
            row,
        }
    }
}

/// `core`'s finished games made a slim copy (all but the last as records, packed), and
/// those of each state kept in `standing` taken from that copy where they can be (each a
/// prefix of `core`'s): what a tail holds of the games, a few bytes a game. While a kept
/// state shares a list, the games behind it cannot be packed in place
/// (`Games::slim_older`), so a tip applying event after event would keep every older game
/// as a record of its own.
fn slim_games(core: &mut super::Core, standing: &mut [super::Standing]) {
    let slim = core.finished.slim_copy();
    for kept in standing.iter_mut().filter_map(|s| s.before.as_mut()) {
        kept.finished = kept.finished.slim_copy_beside(&core.finished, &slim);
    }
    core.finished = slim;
}

/// `entries` with each row position moved back by `by` (the rows cut before them).
fn rebased<'a, V: Rebase + 'a>(
    entries: impl Iterator<Item = (&'a usize, &'a V)>,
    by: usize,
) -> BTreeMap<usize, V> {
    entries.map(|(&k, v)| (k, v.back(by))).collect()
}

/// A row position, alone or with a position in that row's game ends.
trait Rebase: Copy {
    fn back(self, by: usize) -> Self;
}

impl Rebase for usize {
    fn back(self, by: usize) -> usize {
        self.saturating_sub(by)
    }
}

impl Rebase for (usize, usize) {
    fn back(self, by: usize) -> (usize, usize) {
        (self.0.saturating_sub(by), self.1)
    }
}
