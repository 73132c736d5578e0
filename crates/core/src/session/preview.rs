//! What closing now would do, without closing, so the settle-up never proposes "pays
//! KITTY" for a kitty the close would share out.

use serde_json::{Map, Value};

use super::{Core, EventKind, Fold, Read, Tip};
use crate::ledger::{Balances, Posting};

impl Core {
    /// A `close` appended at `index` to a copy; `None` once closed or if refused.
    fn close_preview(&self, index: usize) -> Option<(Balances, Vec<Posting>)> {
        if self.closed_at.is_some() {
            return None;
        }
        let mut core = self.clone();
        let kind = EventKind::Close;
        let close = Map::from_iter([("type".to_string(), Value::from(kind.as_str()))]);
        let outcome = core.step(index, Read::plain(kind, &close)).ok()?;
        Some((core.balances, outcome.postings))
    }
}

impl Fold {
    /// Balances (cents) and postings of a `close` now; `None` once closed or if refused.
    pub fn close_preview(&self) -> Option<(Balances, Vec<Posting>)> {
        self.core.close_preview(self.events())
    }
}

impl Tip {
    /// [`Fold::close_preview`] from the tip alone.
    pub fn close_preview(&self) -> Option<(Balances, Vec<Posting>)> {
        self.tail.close_preview()
    }
}
