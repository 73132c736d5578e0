//! What the club's history counts of one standing event, kept beside it: the history then
//! adds up a session as folded afresh without replaying it.

use super::Row;
use crate::rules::{Step, Tone};

/// One standing event as the club's history counts it (`history::session_facts`). Taken from
/// its row when the event is applied, and again when an earlier amendment replays it, so it
/// is always what a fresh fold of the standing events would count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counted {
    /// A hand dealt (it has a hand number).
    pub hand: bool,
    /// The hand's contract, if it has one.
    pub contract: Option<Taken>,
    /// The winner (a player, or a side such as `"NS"`) of each game it finished; a draw has
    /// none.
    pub winners: Vec<String>,
}

/// A contract as the history counts it: who took it, the bid and how it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    /// The bidder or pitcher.
    pub who: String,
    /// The bid: points, or Pitch's 1–4.
    pub bid: i64,
    /// Made (the sheet's good tone).
    pub made: bool,
    /// Set back (the sheet's bad tone); a conceded hand is neither.
    pub set: bool,
    /// A kitty rule paid the kitty out (rules §1.2 rule 3): the bidder took it if made.
    pub kitty: bool,
}

impl Counted {
    /// What `row` counts.
    pub fn of(row: &Row) -> Counted {
        Counted {
            hand: row.hand_number.is_some(),
            contract: row.line.contract.as_ref().map(|c| Taken {
                who: c.who.clone(),
                bid: c.bid,
                made: c.tone == Tone::Good,
                set: c.tone == Tone::Bad,
                kitty: row.steps.iter().any(|s| matches!(s, Step::Kitty { .. })),
            }),
            winners: row
                .game_ends
                .iter()
                .filter_map(|e| e.winner.clone())
                .collect(),
        }
    }
}
