//! What a sheet is built from: the rows it shows, and the money of the rows it leaves out.

use std::collections::BTreeMap;

use crate::ledger::Balances;
use crate::rules::{Engine, SheetLine, Table};
use crate::session::{Fold, Row, Tip};

/// A row the source holds: its line is shown unless `hidden`; its money always counts.
#[derive(Clone, Copy)]
pub(super) struct Held<'a> {
    pub(super) row: &'a Row,
    /// The hand its "correct" link opens ([`crate::session::window::Kept::corrects`]).
    pub(super) corrects: Option<usize>,
    /// Left off the sheet (a watcher's glance skips amendment lines); its money still
    /// moves the running totals of the lines after it.
    pub(super) hidden: bool,
}

impl Held<'_> {
    /// Whether the row reads as the session now stands: not struck through, and not an
    /// undo or an earlier correction (a hand's latest correction is that hand now).
    fn stands(&self) -> bool {
        !self.row.struck() && (self.row.amends.is_none() || self.corrects.is_some())
    }
}

/// What a sheet is built from: a whole fold or a tip's window; both give the same sheet.
#[derive(Clone)]
pub struct Source<'a> {
    pub(super) engine: &'a dyn Engine,
    pub(super) table: &'a Table,
    pub(super) balances: &'a Balances,
    pub(super) games_finished: usize,
    pub(super) start_line: Option<&'a SheetLine>,
    /// The rows held, oldest first.
    pub(super) rows: Vec<Held<'a>>,
    /// How many rows of the session are not shown.
    pub(super) earlier: usize,
    /// Each account's money in the rows before the ones held, in cents.
    pub(super) running: BTreeMap<String, i64>,
}

impl<'a> Source<'a> {
    /// The sheet of the whole `fold`, its last `last` lines (`None`: all).
    pub fn of_fold(fold: &'a Fold, last: Option<usize>) -> Source<'a> {
        let rows = fold.rows();
        let earlier = last.map_or(0, |last| rows.len().saturating_sub(last));
        let mut running = BTreeMap::new();
        for p in rows.iter().take(earlier).flat_map(|r| &r.postings) {
            *running.entry(p.account.clone()).or_insert(0) += p.amount.cents();
        }
        Source {
            engine: fold.engine(),
            table: fold.table(),
            balances: fold.balances(),
            games_finished: fold.games_finished(),
            start_line: fold.start_line(),
            rows: rows
                .iter()
                .skip(earlier)
                .map(|row| Held {
                    row,
                    corrects: fold.corrects(row),
                    hidden: false,
                })
                .collect(),
            earlier,
            running,
        }
    }

    /// The sheet of `tip`'s window: its latest [`crate::session::window::SHEET_LINES`] lines.
    pub fn of_tip(tip: &'a Tip) -> Source<'a> {
        let window = tip.window();
        Source {
            engine: tip.engine(),
            table: tip.table(),
            balances: tip.balances(),
            games_finished: tip.games_finished(),
            start_line: window.start_line(),
            rows: window
                .rows()
                .map(|k| Held {
                    row: &k.row,
                    corrects: k.corrects,
                    hidden: false,
                })
                .collect(),
            earlier: window.earlier(),
            running: window.running().clone(),
        }
    }

    /// Shows only the last `n` rows; the rest count toward the money and the earlier lines.
    pub fn keep_last(&mut self, n: usize) {
        let drop = self.rows.len().saturating_sub(n);
        self.drop_first(drop);
    }

    /// Shows only the last `n` rows that read as the session now stands: a hand as entered
    /// while it stands or as last corrected, a payment, a close. An undo, a struck entry or
    /// an earlier correction is left off, so a watcher's few lines are never amendments
    /// with no hand among them; their money still counts.
    pub fn keep_last_standing(&mut self, n: usize) {
        let mut wanted = n;
        for held in self.rows.iter_mut().rev() {
            held.hidden = wanted == 0 || !held.stands();
            wanted -= usize::from(!held.hidden);
        }
        let before = self.rows.iter().take_while(|h| h.hidden).count();
        self.drop_first(before);
        self.earlier += self.rows.iter().filter(|h| h.hidden).count();
    }

    /// Moves the first `drop` rows into the running money and the earlier lines.
    fn drop_first(&mut self, drop: usize) {
        for held in self.rows.drain(..drop) {
            for p in &held.row.postings {
                *self.running.entry(p.account.clone()).or_insert(0) += p.amount.cents();
            }
        }
        self.earlier += drop;
    }

    /// The engine as it stands after the last event.
    pub fn engine(&self) -> &'a dyn Engine {
        self.engine
    }

    /// The seating after the last event.
    pub fn table(&self) -> &'a Table {
        self.table
    }

    /// Every balance in cents, the kitty's included.
    pub fn balances(&self) -> &'a Balances {
        self.balances
    }
}
