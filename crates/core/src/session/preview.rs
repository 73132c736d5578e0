//! What closing now would do, without closing: the settle-up the sheet shows and the
//! standing API proposes before the close, so neither proposes "pays KITTY" for a kitty
//! that closing would share out.

use serde_json::{Map, Value};

use super::{Core, EventKind, Fold, Tip};
use crate::ledger::{Balances, Posting};

impl Core {
    /// A `close` appended at event `index` to a copy of this state: the balances after it
    /// and its postings. `None` once closed, or when the rules would refuse a close now.
    fn close_preview(&self, index: usize) -> Option<(Balances, Vec<Posting>)> {
        if self.closed_at.is_some() {
            return None;
        }
        let mut core = self.clone();
        let kind = EventKind::Close;
        let close = Map::from_iter([("type".to_string(), Value::from(kind.as_str()))]);
        let outcome = core.step(index, kind, &close).ok()?;
        Some((core.balances, outcome.postings))
    }
}

impl Fold {
    /// What closing now would do, for the settle-up's preview: every balance (cents, the
    /// kitty's included) after a `close` appended now, and the close's own postings (the
    /// kitty shared out by its rule). `None` once closed, or when the rules would refuse a
    /// close now. Pure: the fold itself is unchanged.
    pub fn close_preview(&self) -> Option<(Balances, Vec<Posting>)> {
        let index = self.row_of.keys().next_back().map_or(0, |i| i + 1);
        self.core.close_preview(index)
    }
}

impl Tip {
    /// [`Fold::close_preview`] from the state after the last event alone (no history):
    /// the balances after a `close` appended now and the close's postings; `None` once
    /// closed or when the rules would refuse a close now.
    pub fn close_preview(&self) -> Option<(Balances, Vec<Posting>)> {
        self.core.close_preview(self.events)
    }
}
