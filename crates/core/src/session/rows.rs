//! The session's rows: each event (or the opening ante) with its ledger entry, its sheet
//! line, what it amends and what amended it since.

use serde_json::Value;

use super::{EventKind, Finish};
use crate::ledger::Posting;
use crate::rules::{Cell, GameEnd, Outcome, SheetLine, Step};

/// What a `void` or `correction` row does: the event it changes and whether it undoes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Amend {
    /// The 0-based index of the changed event.
    pub target: usize,
    /// True for an undo (`void`).
    pub void: bool,
}

/// A later change of a row's event: the `correction` or `void` at `by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The index of the amending event.
    pub by: usize,
    /// True when it undid the event.
    pub void: bool,
}

/// A game's closing row shown under a row of the sheet: what the sheet shows of the
/// finished game (its closing row and payments), not the ledger's record of it (the
/// ledger reads that from the games finished), so a row of a game that ends every hand
/// (the Auction game) does not carry every player's final scores along.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownEnd {
    /// The game's number in the session, from 1.
    pub number: usize,
    /// The 0-based index of the event that finished it ([`Finish::event`]).
    pub event: usize,
    /// Who won it (a player, or a side's name), `None` for a draw: kept through slimming,
    /// since a club's history counts the games each player won.
    pub winner: Option<String>,
    /// The closing row and the game's payments (cents), as the sheet shows them; `None`
    /// once the row is slimmed ([`Row::slim`]). Boxed, so that a slimmed row of a game
    /// that ends every hand (the Auction game) keeps a few words, not an empty closing row.
    pub shown: Option<Box<(GameEnd, Vec<Posting>)>>,
    /// A digest of the whole finish (record, closing row, payments), kept through
    /// slimming, so an amendment can still tell whether the game ends the same way.
    result: u64,
    /// Set when a later amendment (its index) changed how this game ended; `true` when
    /// the game is still over, ended differently.
    pub struck_by: Option<(usize, bool)>,
}

impl ShownEnd {
    /// The closing row of game `number`, `finish`, as the sheet shows it.
    pub fn of(number: usize, finish: &Finish) -> ShownEnd {
        ShownEnd {
            number,
            event: finish.event,
            winner: finish.end.winner.clone(),
            shown: Some(Box::new((finish.end.clone(), finish.postings.clone()))),
            result: digest(finish),
            struck_by: None,
        }
    }

    /// Whether `finish` closes the game the same way as the one shown: same game, same
    /// money, same closing row (compared by digest, which a slimmed row keeps).
    pub fn same_result(&self, finish: &Finish) -> bool {
        self.result == digest(finish)
    }

    /// Whether this shows `finish`: the same event ending the game the same way.
    pub fn shows(&self, finish: &Finish) -> bool {
        self.event == finish.event && self.same_result(finish)
    }

    /// Keeps of the game's end only its winner (a club's history counts games won): what a
    /// row outside the sheet's window needs.
    pub(super) fn slim(&mut self) {
        self.shown = None;
    }
}

/// A digest of `finish` without its event: the record, the closing row and the payments,
/// written out by `Debug` (deterministic: the record's JSON maps are ordered) and hashed
/// with the standard library's fixed-key SipHash, the same in every fold of a process.
fn digest(finish: &Finish) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    format!("{:?}|{:?}|{:?}", finish.game, finish.end, finish.postings).hash(&mut h);
    h.finish()
}

/// One row of the session: an event (or the opening ante) with its ledger entry, its
/// sheet line and its history.
#[derive(Debug, Clone)]
pub struct Row {
    /// The event's 0-based index; `None` for the opening ante (ledger `seq` 0).
    pub index: Option<usize>,
    /// The event's kind, read from its `type` ([`EventKind::OpeningAnte`] for the opening
    /// ante).
    pub kind: EventKind,
    /// For a deal, its number on the sheet: one more than the last hand standing when it was
    /// entered (an undone hand keeps its number, struck, and the next hand takes it again).
    pub hand_number: Option<usize>,
    /// The postings in cents, summing to zero.
    pub postings: Vec<Posting>,
    /// Running scores after it, for games that keep them.
    pub scores_after: Option<Value>,
    /// The reason in words.
    pub explanation: String,
    /// The reckoning as steps (for a correction: the replacement's own reckoning).
    pub steps: Vec<Step>,
    /// The rules the reckoning follows, as cited (`"rules §1.1"`), for the row's details.
    pub rules: Vec<String>,
    /// What the sheet shows (for an amendment: what it says it changes).
    pub line: SheetLine,
    /// For a `void` or `correction`: what it changes.
    pub amends: Option<Amend>,
    /// For an amendment: where the points and checks columns stand after it.
    pub standing_after: Vec<Cell>,
    /// Later amendments of this row's event; non-empty means struck through.
    pub changed_by: Vec<Change>,
    /// Closing rows of the games this row finished (a hand) or ended anew (an amendment).
    pub game_ends: Vec<ShownEnd>,
}

impl Row {
    /// The ledger's `seq`: the event's index + 1, or 0 for the opening ante.
    pub fn seq(&self) -> usize {
        self.index.map_or(0, |i| i + 1)
    }

    /// The reason in words followed by the rules it follows, as the ledger document gives
    /// it: "All passed on D's deal: a dead hand, no score; D deals again (rules §1.4)".
    pub fn cited_explanation(&self) -> String {
        match self.rules.is_empty() {
            true => self.explanation.clone(),
            false => format!("{} ({})", self.explanation, self.rules.join("; ")),
        }
    }

    /// Whether a later amendment changed this row's event (it is shown struck through).
    pub fn struck(&self) -> bool {
        !self.changed_by.is_empty()
    }
}

/// The row of the event at `index` (`None`: the opening ante) of kind `kind`, numbered
/// `hand_number` when it is a deal, from the rules' `outcome`; nothing amends it yet.
pub(super) fn row(
    index: Option<usize>,
    kind: EventKind,
    hand_number: Option<usize>,
    outcome: Outcome,
) -> Row {
    Row {
        index,
        kind,
        hand_number,
        postings: outcome.postings,
        scores_after: outcome.scores_after,
        explanation: outcome.explanation,
        steps: outcome.steps,
        rules: outcome.rules,
        line: outcome.line,
        amends: None,
        standing_after: Vec::new(),
        changed_by: Vec::new(),
        game_ends: Vec::new(),
    }
}
