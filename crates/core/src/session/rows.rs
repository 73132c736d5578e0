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

/// A game's closing row as shown under a row (not the ledger's record).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownEnd {
    /// The game's number in the session, from 1.
    pub number: usize,
    /// The 0-based index of the event that finished it ([`Finish::event`]).
    pub event: usize,
    /// Who won (a player or side), `None` for a draw; kept through slimming for the history.
    pub winner: Option<String>,
    /// The closing row and payments (cents); `None` once slimmed. Boxed to keep rows small.
    pub shown: Option<Box<(GameEnd, Vec<Posting>)>>,
    /// A digest of the finish, kept through slimming, to compare game ends.
    result: u64,
    /// The amendment (its index) that changed how this game ended; `true` if still over.
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

    /// Whether `finish` closes the game the same way (compared by digest).
    pub fn same_result(&self, finish: &Finish) -> bool {
        self.result == digest(finish)
    }

    /// Whether this shows `finish`: the same event ending the game the same way.
    pub fn shows(&self, finish: &Finish) -> bool {
        self.event == finish.event && self.same_result(finish)
    }

    /// Keeps only the winner, which a club's history counts.
    pub(super) fn slim(&mut self) {
        self.shown = None;
    }
}

/// A digest of `finish` without its event: its JSON hashed as it is written (stable in a
/// process), with no text built for it. Compared only within the process, so a fast
/// fixed-seed hash serves: no one chooses the games to collide.
fn digest(finish: &Finish) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = foldhash::fast::FixedState::with_seed(0).build_hasher();
    // Writing into a hasher cannot fail, and every field of the three is serialized.
    let _ = serde_json::to_writer(
        Hashing(&mut h),
        &(&finish.game, &finish.end, &finish.postings),
    );
    h.finish()
}

/// Bytes written straight into a hasher.
struct Hashing<'a>(&'a mut foldhash::fast::FoldHasher<'static>);

impl std::io::Write for Hashing<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        std::hash::Hasher::write(self.0, bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One row of the session: an event or the ante, with ledger entry, sheet line and history.
#[derive(Debug, Clone)]
pub struct Row {
    /// The event's 0-based index; `None` for the opening ante (ledger `seq` 0).
    pub index: Option<usize>,
    /// The event's kind ([`EventKind::OpeningAnte`] for the opening ante).
    pub kind: EventKind,
    /// For a deal, its number: one more than the last hand standing when entered.
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

    /// The reason followed by the rules cited, as the ledger gives it ("… (rules §1.4)").
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

/// The row of event `index` (`None`: the opening ante) from the rules' `outcome`.
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
