//! The session as if nothing had ever been undone or corrected: its standing events folded
//! afresh, which is how the club's history counts hands, bids and games won.

use super::{EventKind, Fold, Refusal, Row};

impl Fold {
    /// Folds the standing events afresh from `start`, calling `each` with every row. Keeps
    /// one state unless a `reopen` stands. Errors: a standing event refused (a bug).
    pub fn for_each_afresh(&self, start: Fold, mut each: impl FnMut(&Row)) -> Result<(), Refusal> {
        if self.rows.iter().any(|r| r.kind == EventKind::Reopen) {
            let mut fresh = start;
            for (next, s) in self.standing.iter().enumerate() {
                fresh.apply(next, &s.event())?;
                // Only what the facts read is kept of each row.
                fresh.slim_older(0);
            }
            fresh.rows.iter().for_each(each);
            return Ok(());
        }
        let mut core = start.core;
        let mut last_hand = None;
        for (next, s) in self.standing.iter().enumerate() {
            let event = s.event();
            let read = core.read_event(&event, next)?;
            let r = core.apply_plain_in_place(next, read, last_hand)?;
            if r.hand_number.is_some() {
                last_hand = r.hand_number;
            }
            if !r.game_ends.is_empty() {
                // Only the last finished game is read: keep the others slim.
                core.finished.slim_older();
            }
            each(&r);
        }
        Ok(())
    }
}
