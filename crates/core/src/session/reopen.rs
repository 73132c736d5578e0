//! `reopen`: takes the standing close back so play goes on (session-format). The close's
//! row stays, struck, and its postings are reversed.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::{Change, Core, EventKind, Fold, REASON_MAX, Refusal, Row, row};
use crate::ledger::{Balances, Posting};
use crate::rules::{Outcome, SheetLine, fields};

/// `reopen`: takes the close back (`reason` why); play goes on (session-format).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Reopen {
    #[serde(rename = "type")]
    _kind: String,
    reason: Option<String>,
}

impl Fold {
    /// The row of the `close` that stands, for a reopen to take back.
    fn close_row(&self) -> Option<usize> {
        self.core
            .closed_at
            .and_then(|at| self.row_of.get(&at).copied())
    }

    /// `reopen`: back to just before the close, its postings reversed; later payments
    /// stand. Errors: no close stands, a long reason, unknown fields.
    pub(super) fn reopen(
        &mut self,
        index: usize,
        object: &Map<String, Value>,
    ) -> Result<(), Refusal> {
        let r: Reopen = fields::read(object).map_err(|e| Refusal::from_rule(e, Some(index)))?;
        let (Some(at), Some(close_row)) = (self.core.closed_at, self.close_row()) else {
            return Err(Refusal::at(
                index,
                "type",
                "the sitting is not closed, so there is nothing to reopen",
            ));
        };
        if r.reason
            .as_ref()
            .is_some_and(|x| x.chars().count() > REASON_MAX)
        {
            return Err(Refusal::at(
                index,
                "reason",
                format!("keep the reason under {REASON_MAX} characters"),
            ));
        }
        let slot = self
            .standing_slot(at)
            .ok_or_else(|| Refusal::at(index, "type", "the close no longer stands"))?;
        let before = self.state_before(slot, index)?;
        self.keep_state_after(slot, index)?;
        self.standing.remove(slot);
        let close =
            self.rows.get(close_row).cloned().ok_or_else(|| {
                Refusal::at(index, "type", "internal error: the close has no row")
            })?;
        let reversed: Vec<Posting> = close
            .postings
            .iter()
            .map(|p| Posting {
                account: p.account.clone(),
                amount: -p.amount,
            })
            .collect();
        // Only payments follow the close and they leave the engine as it was.
        for s in self.standing.iter_mut().filter(|s| s.index > at) {
            if let Some(b) = &s.before {
                s.before = Some(Box::new(reopened(&before, &b.balances, &reversed)));
            }
        }
        let core = reopened(&before, &self.core.balances, &reversed);
        let r = reopen_row(index, reversed, r.reason.as_deref());
        let at_row = self.rows.len();
        self.strike_close(close_row, index);
        self.core = core;
        self.row_of.insert(index, at_row);
        self.rows.push(r);
        Ok(())
    }

    /// Keeps a state after the close at `slot`, so nothing replays through a lost close.
    fn keep_state_after(&mut self, slot: usize, index: usize) -> Result<(), Refusal> {
        if let Some(s) = self.standing.get(slot + 1)
            && s.before.is_none()
        {
            let next = self.state_before(slot + 1, index)?;
            if let Some(s) = self.standing.get_mut(slot + 1) {
                s.before = Some(Box::new(next));
            }
        }
        Ok(())
    }

    /// Strikes the close's row and the game ends it showed, taken back by the reopen at `index`.
    fn strike_close(&mut self, close_row: usize, index: usize) {
        if let Some(c) = self.rows.get_mut(close_row) {
            c.changed_by.push(Change {
                by: index,
                void: true,
            });
            for end in &mut c.game_ends {
                end.struck_by = Some((index, false));
            }
        }
        self.shown.retain(|_, (row, _)| *row != close_row);
    }
}

/// The state `before` the close with `balances` and the close's postings `reversed`.
fn reopened(before: &Core, balances: &Balances, reversed: &[Posting]) -> Core {
    let mut core = Core {
        balances: balances.clone(),
        ..before.clone()
    };
    core.balances.apply(reversed);
    core
}

/// The reopen's row at `index`: the close's postings `reversed`, and the `reason` trimmed.
fn reopen_row(index: usize, reversed: Vec<Posting>, reason: Option<&str>) -> Row {
    let reason = reason.map(str::trim).filter(|x| !x.is_empty());
    let mut explanation = "Reopened: the close is taken back".to_string();
    if let Some(reason) = reason {
        explanation.push_str(&format!(" ({reason})"));
    }
    explanation.push_str(if reversed.iter().any(|p| !p.amount.is_zero()) {
        "; what it shared out goes back where it was; play goes on"
    } else {
        "; play goes on"
    });
    let mut r = row(
        Some(index),
        EventKind::Reopen,
        None,
        Outcome::new(reversed, explanation, SheetLine::titled("reopened")),
    );
    r.amends = None;
    r
}
