//! Where an account's money came from, from the postings that stand: voids and what they
//! undo count for nothing, a corrected hand counts at its corrected amount, so the groups
//! add up to the balance.

use std::collections::BTreeMap;

use super::window::row_cents;
use super::{EventKind, Fold, Row};
use crate::ledger::Posting;

/// Every standing row for `account` with its cents, corrections folded in; sums to the balance.
pub fn standing_amounts<'a>(fold: &'a Fold, account: &str) -> Vec<(&'a Row, i64)> {
    standing_rows(fold)
        .map(|(row, cents)| (row, cents.get(account).copied().unwrap_or(0)))
        .collect()
}

/// [`standing_amounts`] of every account at once.
pub(super) fn standing_rows(fold: &Fold) -> impl Iterator<Item = (&Row, BTreeMap<&str, i64>)> {
    let voided = |row: &Row| row.changed_by.iter().any(|c| c.void);
    let rows = fold.rows();
    // What the corrections of each standing event add to it.
    let mut corrected: BTreeMap<usize, BTreeMap<&str, i64>> = BTreeMap::new();
    for row in rows {
        if let Some(a) = row.amends.filter(|a| !a.void)
            && fold
                .row_of
                .get(&a.target)
                .and_then(|&r| rows.get(r))
                .is_some_and(|t| !voided(t))
        {
            let extra = corrected.entry(a.target).or_default();
            for (account, c) in row_cents(row) {
                *extra.entry(account).or_insert(0) += c;
            }
        }
    }
    // One row's amounts at a time: a map per row held at once would outweigh the rows.
    rows.iter()
        .filter(move |r| r.amends.is_none() && !voided(r))
        .map(move |r| {
            let mut cents = row_cents(r);
            for (account, c) in r
                .index
                .and_then(|i| corrected.get(&i))
                .into_iter()
                .flatten()
            {
                *cents.entry(account).or_insert(0) += c;
            }
            (r, cents)
        })
}

/// Each account's settle-up summary, from a whole fold or row by row alike.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summaries {
    /// Each account's groups in order of first appearance.
    groups: BTreeMap<String, Vec<Group>>,
    /// The first and last number of the hands that stand.
    hands: Option<(usize, usize)>,
    /// Whether the game keeps a kitty (its close shares the kitty out).
    kitty_game: bool,
}

/// One group of an account's money; games won or lost are counted ("412 games won").
#[derive(Debug, Clone, PartialEq, Eq)]
struct Group {
    label: String,
    cents: i64,
    games: usize,
    last_game: usize,
}

impl Summaries {
    /// The summaries of everything that stands in `fold` ([`standing_amounts`]).
    pub fn of(fold: &Fold) -> Summaries {
        let mut s = Summaries::none(fold.engine().has_kitty());
        for (row, cents) in standing_rows(fold) {
            s.add(row, &cents);
        }
        s
    }

    /// Nothing summed yet, for a game with a kitty (`kitty_game`) or without.
    pub(super) fn none(kitty_game: bool) -> Summaries {
        Summaries {
            kitty_game,
            ..Summaries::default()
        }
    }

    /// Adds a standing row with each account's cents (a corrected hand at its corrected amount).
    pub fn add(&mut self, row: &super::Row, cents: &BTreeMap<&str, i64>) {
        if let Some(n) = row.hand_number {
            self.hands = Some(self.hands.map_or((n, n), |(a, b)| (a.min(n), b.max(n))));
        }
        let game = row.game_ends.last().map(|e| e.number);
        for (&account, &c) in cents.iter().filter(|(_, c)| **c != 0) {
            let label = self.label(row, c);
            let groups = self.groups.entry(account.to_string()).or_default();
            let at = match groups.iter().position(|g| g.label == label) {
                Some(at) => at,
                None => {
                    groups.push(Group {
                        label,
                        cents: 0,
                        games: 0,
                        last_game: 0,
                    });
                    groups.len() - 1
                }
            };
            if let Some(g) = groups.get_mut(at) {
                g.cents += c;
                if let Some(number) = game.filter(|_| g.label.starts_with("games ")) {
                    (g.games, g.last_game) = (g.games + 1, number);
                }
            }
        }
    }

    fn label(&self, row: &super::Row, cents: i64) -> String {
        match row.kind {
            EventKind::OpeningAnte => "opening ante".to_string(),
            EventKind::Close | EventKind::Reopen if self.kitty_game => "kitty share".to_string(),
            EventKind::Close | EventKind::Reopen => "settled at the close".to_string(),
            EventKind::Payment if cents > 0 => "paid".to_string(),
            EventKind::Payment => "received".to_string(),
            _ if !row.game_ends.is_empty() => {
                let what = if cents < 0 { "lost" } else { "won" };
                format!("games {what}")
            }
            _ if row.hand_number.is_some() => "hands".to_string(),
            kind => kind.words(),
        }
    }

    /// Where `account`'s money came from: "opening ante −$0.10 · hands 1–3 +$0.75 · game 1
    /// won +$1.00 · paid −$0.20". Only what stands; `preview` adds a close not yet made.
    pub fn words(&self, account: &str, preview: &[Posting], currency: &str) -> String {
        let mut groups = self.groups.get(account).cloned().unwrap_or_default();
        let previewed: i64 = preview
            .iter()
            .filter(|p| p.account == account)
            .map(|p| p.amount.cents())
            .sum();
        if previewed != 0 {
            let label = match self.kitty_game {
                true => "kitty share on closing now",
                false => "closing now",
            };
            match groups.iter_mut().find(|g| g.label == label) {
                Some(g) => g.cents += previewed,
                None => groups.push(Group {
                    label: label.to_string(),
                    cents: previewed,
                    games: 0,
                    last_game: 0,
                }),
            }
        }
        let hands = match self.hands {
            Some((a, b)) if a == b => format!("hand {a}"),
            Some((a, b)) => format!("hands {a}–{b}"),
            None => "hands".to_string(),
        };
        let parts: Vec<String> = groups
            .into_iter()
            .filter(|g| g.cents != 0)
            .map(|g| {
                let label = match (g.label.as_str(), g.games) {
                    ("hands", _) => hands.clone(),
                    (_, 0) => g.label,
                    // "game 3 won" for one game, "12 games won" for more.
                    (games, 1) => games.replacen("games", &format!("game {}", g.last_game), 1),
                    (games, n) => format!("{n} {games}"),
                };
                let amount = crate::money::Money::from_cents(g.cents).shown_signed(currency);
                format!("{label} {amount}")
            })
            .collect();
        if parts.is_empty() {
            "nothing yet".to_string()
        } else {
            parts.join(" · ")
        }
    }
}

/// [`Summaries::words`] of the whole `fold` for one account.
pub fn money_summary(fold: &Fold, account: &str, preview: &[Posting], currency: &str) -> String {
    Summaries::of(fold).words(account, preview, currency)
}
