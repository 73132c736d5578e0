//! The score sheet's view-model: what the page lays out, every value already in words.

use std::collections::BTreeMap;

use crate::rules::{Award, Contract, Detail, Mark, Tally};

/// A column group of the head: one account (a player, a side, the kitty) with its tallies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The account.
    pub account: String,
    /// The head a player reads.
    pub label: String,
    /// The head as shown: the label, or on a wide table a short start ([`SheetView::legend`]).
    pub short: String,
    /// The players behind a side ("Ann & Cy"), empty otherwise.
    pub members: String,
    /// The tallies under it, left to right.
    pub tallies: Vec<Tally>,
}

/// One cell as shown: what was added and where the column stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellView {
    /// The column's account.
    pub account: String,
    /// What the event added ("+20", "−0.10"), empty for nothing.
    pub added: String,
    /// The running value ("320", "0.40"), empty when the event does not touch it.
    pub running: String,
    /// `"plus"`, `"minus"` or empty, for the colour of `added`.
    pub class: &'static str,
    /// Circled: in the hole.
    pub in_hole: bool,
    /// The column of the hand's bidder or pitcher.
    pub bidder: bool,
    /// What the column tallies, for its style.
    pub tally: Tally,
}

/// One account's money on a line that is not in the columns (a game's payments).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoneyView {
    /// Whose money ("Kitty" for the kitty).
    pub account: String,
    /// `"+0.50"`, `"−0.50"`.
    pub amount: String,
    /// `"plus"` or `"minus"`.
    pub class: &'static str,
}

/// A game's closing row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndView {
    /// The game's number in the session.
    pub number: usize,
    /// "Ann wins", "NS wins", "a draw".
    pub headline: String,
    /// The winner's final score, "at 11", empty for a draw.
    pub at: String,
    /// How it was decided, in words.
    pub how: String,
    /// The game award in words ("+7 checks to NS: game award (scarne)"), empty for none.
    pub award: String,
    /// The settlement in words.
    pub settlement: String,
    /// The payments, one per account that pays or is paid.
    pub payments: Vec<MoneyView>,
    /// Struck through: a later correction changed how this game ended.
    pub struck: bool,
    /// What struck it and when ("changed", "no longer over"), empty while it stands.
    pub changed: Vec<Changed>,
    /// The next game's starting cells, when not zero (count-down).
    pub fresh: Vec<CellView>,
}

/// One line of the sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineView {
    /// "hand 3" as a number ("3"), empty for other lines.
    pub number: String,
    /// Who dealt.
    pub dealer: String,
    /// The contract of a played hand.
    pub contract: Option<Contract>,
    /// What happened, for other lines.
    pub title: String,
    /// Marks on the row.
    pub marks: Vec<Mark>,
    /// Short awards shown in the hand cell (Pitch's "H Ann").
    pub short_awards: Vec<Award>,
    /// Per column group: its notes and itemised awards in words.
    pub details: Vec<Vec<Detail>>,
    /// One cell per column.
    pub cells: Vec<CellView>,
    /// Money that is not in the columns (a payment, a correction's net change).
    pub money: Vec<MoneyView>,
    /// The reason in words.
    pub explanation: String,
    /// The reckoning step by step, for a player checking it by hand.
    pub steps: Vec<StepView>,
    /// The rules cited (`"rules §1.1"`), shown only in the row's details.
    pub rules: Vec<String>,
    /// Struck through: a later correction or undo changed this row's event.
    pub struck: bool,
    /// A correction or an undo.
    pub amends: bool,
    /// What changed it and when ("corrected", "undone", "reopened"), in order.
    pub changed: Vec<Changed>,
    /// The page that corrects the hand this line shows, while it stands in an open session.
    pub correct_link: Option<String>,
    /// The closing rows of games under this line.
    pub ends: Vec<EndView>,
}

impl LineView {
    /// The row's style classes: `" struck"`, `" amends"`, both, or none.
    pub fn row_class(&self) -> &'static str {
        match (self.struck, self.amends) {
            (true, true) => " struck amends",
            (true, false) => " struck",
            (false, true) => " amends",
            (false, false) => "",
        }
    }

    /// Whether any column group has notes.
    pub fn has_details(&self) -> bool {
        self.details.iter().any(|d| !d.is_empty())
    }
}

/// One change of a row: what and when (RFC 3339 UTC for the page's zone, and in words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Changed {
    /// "corrected", "undone", "reopened", "changed", "no longer over".
    pub what: &'static str,
    /// When, RFC 3339 in UTC ("2026-05-01T20:15:43Z"), empty when unknown.
    pub at: String,
    /// When, in words ("2026-05-01 20:15:43 UTC").
    pub words: String,
}

/// One step of the reckoning: what was read or done and what it gives ("Bob pays Ann", "0.30").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepView {
    /// What was read or done.
    pub what: String,
    /// What it gives.
    pub gives: String,
}

/// Where one player or side stands in the game in progress, for the first screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreNow {
    /// The head a player reads ("NS", "Marie-Christine").
    pub label: String,
    /// The players behind a side ("Ann & Cy"), empty otherwise.
    pub members: String,
    /// The score in words: "720 points, 22 checks", "10 points".
    pub words: String,
    /// Below zero while counting up: in the hole (rules §1.4, §1.7).
    pub in_hole: bool,
    /// The highest points of the game (ties lead together).
    pub leads: bool,
}

/// The whole sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetView {
    /// The column groups of the head.
    pub groups: Vec<Group>,
    /// Whether the head has a second row naming the tallies (points, checks).
    pub tally_heads: bool,
    /// How many columns a full-width cell spans.
    pub width: usize,
    /// Over [`WIDE`](super::WIDE) columns: each hand's words get their own row.
    pub wide: bool,
    /// The opening line (scores carried in, count-down start), if any.
    pub start: Option<LineView>,
    /// The lines, in the order entered (only the last [`Context::last`] when limited).
    pub lines: Vec<LineView>,
    /// How many earlier lines were left out (see [`Context::last`]).
    pub earlier: usize,
    /// The foot: where each column stands now.
    pub totals: Vec<CellView>,
    /// The foot's label ("Balance", "Game 2 now").
    pub totals_label: String,
    /// Where the game in progress stands, per player or side with a score; empty for a
    /// game kept in money only.
    pub score_now: Vec<ScoreNow>,
    /// Where the game in progress stands in words ([`crate::rules::Engine::outlook`]).
    pub outlook: Option<String>,
    /// The shortened heads spelled out, `(short, full)`: "Mar Margaret".
    pub legend: Vec<(String, String)>,
}

impl SheetView {
    /// Where the lowest total wins (Hearts, Golf: rules §1.12), points a hand adds are bad
    /// news: their colours are turned round, so Hearts' "+26" reads as the loss it is.
    pub fn colour_points_as_losses(&mut self) {
        let turn = |c: &mut CellView| {
            if c.tally == Tally::Points {
                c.class = match c.class {
                    "plus" => "minus",
                    "minus" => "plus",
                    other => other,
                };
            }
        };
        for line in self.lines.iter_mut().chain(self.start.iter_mut()) {
            line.cells.iter_mut().for_each(turn);
            for end in &mut line.ends {
                end.fresh.iter_mut().for_each(turn);
            }
        }
    }
}

/// What the sheet needs besides the fold: session id, correctability, recording times.
pub struct Context<'a> {
    /// The session's id (its row in the store), for links.
    pub session_id: i64,
    /// Whether hands may be corrected (open session, a writer looking).
    pub correctable: bool,
    /// When each event was recorded, RFC 3339 in UTC, by index.
    pub recorded: &'a BTreeMap<usize, String>,
    /// The session's currency code ("USD"), for symbols in the steps ("$0.50").
    pub currency: &'a str,
}
