//! The session as if nothing had ever been undone or corrected: its standing events folded
//! afresh, which is how the club's history counts hands, bids and games won.

use super::{Core, EventKind, Fold, Refusal, Row, Standing};

impl Fold {
    /// Folds the standing events afresh from `start`, calling `each` with every row. Keeps
    /// one state unless a `reopen` stands. Errors: a standing event refused (a bug).
    pub fn for_each_afresh(&self, start: Fold, each: impl FnMut(&Row)) -> Result<(), Refusal> {
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
        replay(start.core, self.standing.iter().enumerate(), each)
    }
}

/// Replays `standing` (each at its index) from `core` in place, calling `each` with every row.
fn replay<'a>(
    mut core: Core,
    standing: impl Iterator<Item = (usize, &'a Standing)>,
    mut each: impl FnMut(&Row),
) -> Result<(), Refusal> {
    let mut last_hand = None;
    for (index, s) in standing {
        let event = s.event();
        let read = core.read_event(&event, index)?;
        let r = core.apply_plain_in_place(index, read, last_hand)?;
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
