//! What the score sheet shows of one event, in typed fields: the engine says it, the page
//! only lays it out. Pure data.

use serde::Serialize;

use super::Suit;
use crate::money::Money;

/// Points or checks as the sheet writes them: commas and a true minus ("1,250", "−350").
pub fn points(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    if n < 0 {
        format!("−{grouped}")
    } else {
        grouped
    }
}

/// Points or checks in a sentence: ungrouped, true minus ("−350"; rules §1.4, §1.6, §1.7).
pub fn minus(n: i64) -> String {
    if n < 0 {
        format!("−{}", n.unsigned_abs())
    } else {
        n.to_string()
    }
}

/// What a column of the sheet tallies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tally {
    /// Money in cents: what the event posted to the account and its running balance.
    Money,
    /// Points of the game in progress (a Pitch score, a partnership's points).
    Points,
    /// Checks of the game in progress (Check Pinochle, rules §1.7).
    Checks,
}

impl Tally {
    /// The style class of the tally: `"money"`, `"points"` or `"checks"`.
    pub fn class(self) -> &'static str {
        match self {
            Tally::Money => "money",
            Tally::Points => "points",
            Tally::Checks => "checks",
        }
    }

    /// The column head's word ("points", "checks"); empty for money.
    pub fn word(self) -> &'static str {
        match self {
            Tally::Money => "",
            Tally::Points => "points",
            Tally::Checks => "checks",
        }
    }
}

/// One column of the sheet: an account and what it tallies there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Column {
    /// The account: a player's name, `"NS"`/`"EW"`, or `"KITTY"`.
    pub account: String,
    /// The column head a player reads ("Kitty", "NS").
    pub label: String,
    /// The players behind a side's column ("Ann & Cy"), empty for a player's own column.
    pub members: String,
    /// What the column tallies.
    pub tally: Tally,
}

impl Column {
    /// A column of one account: a player's own, or the table's (`KITTY`, `POT`).
    pub fn single(account: impl Into<String>, label: impl Into<String>, tally: Tally) -> Column {
        Column {
            account: account.into(),
            label: label.into(),
            members: String::new(),
            tally,
        }
    }

    /// One column per player, in the order given, headed by the name.
    pub fn per_player<S: AsRef<str>>(
        players: impl IntoIterator<Item = S>,
        tally: Tally,
    ) -> Vec<Column> {
        players
            .into_iter()
            .map(|p| Column::single(p.as_ref(), p.as_ref(), tally))
            .collect()
    }
}

/// The columns of a game's sheet, in order (seat order, the kitty last).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Layout {
    /// The columns, left to right.
    pub columns: Vec<Column>,
}

/// One cell: what the event added to a column and its running value (cents, points or checks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The column's account.
    pub account: String,
    /// The column's tally.
    pub tally: Tally,
    /// What the event added (`None`: only the running value is shown, as Pitch writes it).
    pub added: Option<i64>,
    /// The running value after the event (`None`: the event does not touch the column).
    pub running: Option<i64>,
    /// Below zero while counting up: "in the hole" (rules §1.4, §1.7).
    pub in_hole: bool,
    /// The account played the contract of this hand (the bidder's or pitcher's column).
    pub bidder: bool,
}

impl Cell {
    /// A cell with a running value only.
    pub fn running(account: impl Into<String>, tally: Tally, running: i64) -> Cell {
        Cell {
            account: account.into(),
            tally,
            added: None,
            running: Some(running),
            in_hole: false,
            bidder: false,
        }
    }

    /// A cell with what was added and the running value.
    pub fn added(account: impl Into<String>, tally: Tally, added: i64, running: i64) -> Cell {
        Cell {
            added: Some(added),
            ..Cell::running(account, tally, running)
        }
    }
}

/// How a mark reads: good news, bad news, or plain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tone {
    /// Made, won.
    Good,
    /// Set back, fell short, in the hole, reneged.
    Bad,
    /// Neither.
    Plain,
}

impl Tone {
    /// The style class of the tone: `"good"`, `"bad"` or `"plain"`.
    pub fn class(self) -> &'static str {
        match self {
            Tone::Good => "good",
            Tone::Bad => "bad",
            Tone::Plain => "plain",
        }
    }
}

/// A short mark on a row: "set back 3", "fell short", "NS in the hole", "double bete".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// The words on the sheet.
    pub text: String,
    /// How it reads.
    pub tone: Tone,
}

impl Mark {
    /// A mark of `tone`.
    pub fn new(text: impl Into<String>, tone: Tone) -> Mark {
        Mark {
            text: text.into(),
            tone,
        }
    }
}

/// An itemised award: `amount` points or checks to `to` for `what`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Award {
    /// Who gets it: a player or a side.
    pub to: String,
    /// Points or checks.
    pub tally: Tally,
    /// How many (may be negative: a revoke's penalty).
    pub amount: i64,
    /// What for, in the table's words ("make 300–340", "High").
    pub what: String,
    /// A one- or two-letter abbreviation for a narrow column ("H"), empty for none.
    pub short: String,
}

/// The contract of a hand as the sheet writes it: who took it, for how much, in what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Contract {
    /// The bidder or pitcher.
    pub who: String,
    /// The bidder's side (`"NS"`), for partnership games.
    pub side: Option<String>,
    /// The bid (points, or Pitch's 1–4).
    pub bid: i64,
    /// Trump, when the bid names it.
    pub trump: Option<Suit>,
    /// The result in words ("made", "double bete", "conceded"), shown on the row.
    pub result: String,
    /// How the result reads.
    pub tone: Tone,
}

/// A note about one column's side of the hand ("meld 140: 100 aces").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Detail {
    /// The column's account (`"NS"`).
    pub account: String,
    /// The words.
    pub text: String,
    /// How it reads.
    pub tone: Tone,
}

/// Everything the sheet shows of one event besides its money (read from the postings).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SheetLine {
    /// Who dealt, for a deal.
    pub dealer: Option<String>,
    /// The contract, for a played hand.
    pub contract: Option<Contract>,
    /// What happened, for anything that is not a contract ("all passed", "Ann joins").
    pub title: Option<String>,
    /// Marks on the row.
    pub marks: Vec<Mark>,
    /// Itemised awards.
    pub awards: Vec<Award>,
    /// Notes per column.
    pub details: Vec<Detail>,
    /// The points and checks cells (money cells come from the postings).
    pub cells: Vec<Cell>,
}

impl SheetLine {
    /// A line that only says what happened.
    pub fn titled(title: impl Into<String>) -> SheetLine {
        SheetLine {
            title: Some(title.into()),
            ..SheetLine::default()
        }
    }

    /// This line with `dealer` as the dealer.
    pub fn dealt_by(mut self, dealer: impl Into<String>) -> SheetLine {
        self.dealer = Some(dealer.into());
        self
    }
}

/// A game the event finished, with what its closing row says; payments are the postings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameEnd {
    /// The winner: a player, a side, or `None` for a draw.
    pub winner: Option<String>,
    /// The winner's final score ("11", "1,020").
    pub at: Option<i64>,
    /// How it was decided, in the table's words ("pitcher went out").
    pub how: String,
    /// The game award, when the game gives one (Check Pinochle: checks to the winner).
    pub award: Option<Award>,
    /// The settlement in words ("Bob pays 0.50 ((11 − 1) × 0.05), …").
    pub settlement: String,
    /// The scores the next game starts from when they are not all zero (count-down Pitch).
    pub fresh: Vec<Cell>,
}

/// One step of an event's reckoning a player can check by hand. Money in cents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// A row read from a rules table ("Hoyle units", "300–340", "3 units", "rules §1.3").
    TableRow {
        /// The table's name.
        table: String,
        /// The row read.
        row: String,
        /// What the row gives.
        gives: String,
        /// Where the table comes from.
        source: String,
    },
    /// A score worked out: who, the sum in words and its total.
    Score {
        /// A player or a side.
        who: String,
        /// The sum as the rules add it up.
        sum: String,
        /// What it comes to.
        total: i64,
        /// Points or checks.
        tally: Tally,
    },
    /// A multiplier applied: `× factor` and why ("spades", "double bete").
    Times {
        /// The factor.
        factor: i64,
        /// Why it applies, with its rule.
        why: String,
    },
    /// The stake the count is paid at: `amount` per `per` ("unit", "point", "check").
    Stake {
        /// Cents per one.
        amount: Money,
        /// What one is.
        per: String,
    },
    /// One payment: `amount` from `from` to `to`, and why in a few words.
    Pays {
        /// Who pays.
        from: String,
        /// Who is paid.
        to: String,
        /// How much.
        amount: Money,
        /// What for ("the 300 made", "the checks' difference").
        why: String,
    },
    /// The kitty's size (not balance) before and after, under a rule.
    Kitty {
        /// The rule applied, in words ("kitty rule 3: the bidder takes the kitty").
        rule: String,
        /// Its size before.
        before: Money,
        /// Its size after.
        after: Money,
    },
    /// An amount shared equally, odd cents from the last dealer's left (rules §3 item 2).
    Shares {
        /// The amount shared (negative: a deficit made good).
        total: Money,
        /// Each share, in the order the odd cents go.
        shares: Vec<(String, Money)>,
        /// Who got one cent more (or less, for a deficit); empty when it divided evenly.
        odd_cents: Vec<String>,
    },
}

impl Step {
    /// The shares of `total` from [`crate::ledger::split::equal_shares`], with odd cents.
    pub fn shares(total: Money, shares: &[(&str, Money)]) -> Step {
        let last = shares.last().map(|(_, s)| *s);
        Step::Shares {
            total,
            shares: shares.iter().map(|(p, s)| (p.to_string(), *s)).collect(),
            odd_cents: shares
                .iter()
                .filter(|(_, s)| Some(*s) != last)
                .map(|(p, _)| p.to_string())
                .collect(),
        }
    }
}
