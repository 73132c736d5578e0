//! The latest rows of a session, kept beside its tip so the sheet a phone reloads is built
//! from bounded state: the last [`SHEET_LINES`] rows, the money before them, the standing
//! payments and the settle-up summaries. A plain event pushes its row; an amendment
//! rebuilds from the whole fold ([`Window::of`]); both give the same sheet.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use super::why::{Summaries, standing_rows};
use super::{EventKind, Fold, Row};
use crate::rules::SheetLine;

/// How many lines the sheet shows unless asked for all.
pub const SHEET_LINES: usize = 50;

/// A row as the window keeps it (shared), with the hand its "correct" link opens.
#[derive(Debug)]
pub struct Kept {
    /// The row as the fold made it.
    pub row: Row,
    /// The hand a correction opens: this one while it stands as entered, else the corrected.
    pub corrects: Option<usize>,
}

/// A payment that stands, which a writer may still undo ("Mark paid" → Void).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingPayment {
    /// The payment event's 0-based index.
    pub event: usize,
    /// The payment in words ("Bob paid Ann $0.30").
    pub words: String,
}

/// The latest rows of a session and what the sheet needs of the rows before them.
#[derive(Debug, Clone, Default)]
pub struct Window {
    rows: VecDeque<Arc<Kept>>,
    earlier: usize,
    /// Each account's money in the rows before `rows`, in cents.
    running: BTreeMap<String, i64>,
    start_line: Option<SheetLine>,
    payments: Vec<StandingPayment>,
    summaries: Summaries,
}

impl Window {
    /// The window of the whole `fold`: its last [`SHEET_LINES`] rows and the rest summed.
    pub fn of(fold: &Fold) -> Window {
        let rows = fold.rows();
        let earlier = rows.len().saturating_sub(SHEET_LINES);
        let mut running = BTreeMap::new();
        for row in rows.iter().take(earlier) {
            add_money(&mut running, row);
        }
        Window {
            rows: rows
                .iter()
                .skip(earlier)
                .map(|row| {
                    Arc::new(Kept {
                        row: row.clone(),
                        corrects: fold.corrects(row),
                    })
                })
                .collect(),
            earlier,
            running,
            start_line: fold.start_line().cloned(),
            payments: standing_payments(rows),
            summaries: Summaries::of(fold),
        }
    }

    /// The window after an amendment within `tail` (a [`super::Tip`]'s): the rows before
    /// the tail as they were, the tail's rows anew, and `before`'s summaries and payments
    /// with the tail's.
    pub(super) fn rebuild(&mut self, tail: &Fold, before: &BeforeTail) {
        let first = tail.first();
        // Tail rows before the window's first are in `earlier` and `running` already.
        let shown_from = self.rows.front().and_then(|k| k.row.index).unwrap_or(0);
        let kept_corrects: BTreeMap<Option<usize>, Option<usize>> = self
            .rows
            .iter()
            .map(|k| (k.row.index, k.corrects))
            .collect();
        let mut rows: VecDeque<Arc<Kept>> = self
            .rows
            .drain(..)
            .filter(|k| k.row.index.is_none_or(|i| i < first))
            .collect();
        let new = tail.rows().iter().filter(|r| r.index >= Some(shown_from));
        rows.extend(new.map(|row| {
            // A correction of an event before the tail opens what it opened: nothing the
            // tip applies can change that event.
            let corrects = match row.amends {
                Some(a) if a.target < first => kept_corrects.get(&row.index).copied().flatten(),
                _ => tail.corrects(row),
            };
            Arc::new(Kept {
                row: row.clone(),
                corrects,
            })
        }));
        while rows.len() > SHEET_LINES {
            if let Some(old) = rows.pop_front() {
                add_money(&mut self.running, &old.row);
                self.earlier += 1;
            }
        }
        self.rows = rows;
        self.payments.clone_from(&before.payments);
        self.payments.extend(standing_payments(tail.rows()));
        self.summaries.clone_from(&before.summaries);
        for (row, cents) in standing_rows(tail) {
            self.summaries.add(row, &cents);
        }
    }

    /// Adds a plain event's row, dropping the oldest past [`SHEET_LINES`].
    pub fn push(&mut self, row: Row) {
        self.summaries.add(&row, &row_cents(&row));
        if row.kind == EventKind::Payment
            && let Some(event) = row.index
        {
            self.payments.push(StandingPayment {
                event,
                words: row.explanation.clone(),
            });
        }
        let corrects = row.index.filter(|_| row.kind == EventKind::Hand);
        self.rows.push_back(Arc::new(Kept { row, corrects }));
        while self.rows.len() > SHEET_LINES {
            if let Some(old) = self.rows.pop_front() {
                add_money(&mut self.running, &old.row);
                self.earlier += 1;
            }
        }
    }

    /// The rows kept, oldest first.
    pub fn rows(&self) -> impl Iterator<Item = &Kept> {
        self.rows.iter().map(|k| k.as_ref())
    }

    /// The last row (the opening ante's before any event).
    pub fn last(&self) -> Option<&Row> {
        self.rows.back().map(|k| &k.row)
    }

    /// How many rows come before the kept ones.
    pub fn earlier(&self) -> usize {
        self.earlier
    }

    /// Each account's money in the rows before the kept ones, in cents.
    pub fn running(&self) -> &BTreeMap<String, i64> {
        &self.running
    }

    /// The line the sheet starts with when the first game does not start from zero.
    pub fn start_line(&self) -> Option<&SheetLine> {
        self.start_line.as_ref()
    }

    /// The payments that stand, in order.
    pub fn payments(&self) -> &[StandingPayment] {
        &self.payments
    }

    /// Each account's settle-up summary.
    pub fn summaries(&self) -> &Summaries {
        &self.summaries
    }
}

/// What a [`super::Tip`]'s window needs of the rows before its tail, which no amendment
/// the tip applies can change: their settle-up summaries and their standing payments.
#[derive(Debug, Clone, Default)]
pub struct BeforeTail {
    summaries: Summaries,
    payments: Vec<StandingPayment>,
}

impl BeforeTail {
    /// Nothing yet, for `fold`'s game.
    pub(super) fn of(fold: &Fold) -> BeforeTail {
        BeforeTail {
            summaries: Summaries::none(fold.engine().has_kitty()),
            payments: Vec::new(),
        }
    }

    /// Adds `fold`'s rows before event `first`: a tail's oldest, about to be dropped, or
    /// a whole fold's before its tail.
    pub(super) fn add(&mut self, fold: &Fold, first: usize) {
        let before = |r: &Row| r.index.is_none_or(|i| i < first);
        for (row, cents) in standing_rows(fold).filter(|(r, _)| before(r)) {
            self.summaries.add(row, &cents);
        }
        let payments = standing_payments(fold.rows());
        self.payments
            .extend(payments.into_iter().filter(|p| p.event < first));
    }
}

/// Each account's cents in `row`'s postings.
pub(super) fn row_cents(row: &Row) -> BTreeMap<&str, i64> {
    let mut cents = BTreeMap::new();
    for p in &row.postings {
        *cents.entry(p.account.as_str()).or_insert(0) += p.amount.cents();
    }
    cents
}

fn add_money(running: &mut BTreeMap<String, i64>, row: &Row) {
    for p in &row.postings {
        *running.entry(p.account.clone()).or_insert(0) += p.amount.cents();
    }
}

/// The payments of `rows` that stand (not undone).
pub fn standing_payments(rows: &[Row]) -> Vec<StandingPayment> {
    rows.iter()
        .filter(|r| r.kind == EventKind::Payment && !r.struck())
        .filter_map(|r| {
            Some(StandingPayment {
                event: r.index?,
                words: r.explanation.clone(),
            })
        })
        .collect()
}

impl Fold {
    /// The hand a correction of `row` corrects ([`Kept::corrects`]).
    pub(super) fn corrects(&self, row: &Row) -> Option<usize> {
        if row.struck() {
            return None;
        }
        let index = row.index?;
        let hand = match row.amends {
            None if row.kind == EventKind::Hand => index,
            Some(a) if !a.void => {
                let target = self.row_of.get(&a.target).and_then(|&r| self.rows.get(r))?;
                let latest = target.changed_by.last().map(|c| c.by) == Some(index);
                (latest && target.kind == EventKind::Hand).then_some(a.target)?
            }
            _ => return None,
        };
        self.stands(hand).then_some(hand)
    }
}

impl Row {
    /// Drops what only the sheet's lines and the ledger read, keeping what amendments,
    /// summaries and history need.
    fn slim(&mut self) {
        for end in &mut self.game_ends {
            end.slim();
        }
        if self.kind != EventKind::Payment {
            self.explanation = String::new();
        }
        self.steps
            .retain(|step| matches!(step, crate::rules::Step::Kitty { .. }));
        // Shrink what stays: a long session keeps one such row per event.
        self.steps.shrink_to_fit();
        self.game_ends.shrink_to_fit();
        self.postings.shrink_to_fit();
        self.rules = Vec::new();
        self.scores_after = None;
        self.standing_after = Vec::new();
        self.line = SheetLine {
            contract: self.line.contract.take(),
            ..SheetLine::default()
        };
    }
}

impl Fold {
    /// Slims the row `keep` before the last and older finished games: called after every
    /// event, only the window stays whole (the cache's fold).
    pub fn slim_older(&mut self, keep: usize) {
        self.core.finished.slim_older();
        let Some(at) = self.rows.len().checked_sub(keep + 1) else {
            return;
        };
        if let Some(row) = self.rows.get_mut(at) {
            row.slim();
        }
    }

    /// Folds the events before `index` without the rules' words (explanations, reckonings,
    /// the sheet's titles, marks and details), for a fold whose rows are slimmed long
    /// before `index` ([`Fold::slim_older`]): what a slim row keeps is the same either way.
    pub fn quiet_before(&mut self, index: usize) {
        self.quiet_before = index;
    }

    /// Reserves room for `events` more events at once.
    pub fn reserve(&mut self, events: usize) {
        self.rows.reserve_exact(events);
        self.standing.reserve_exact(events);
    }
}
