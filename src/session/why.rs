//! Where an account's money came from, from the postings that stand (issue 22 point 3):
//! a voided event and its void count for nothing, a corrected hand counts at its corrected
//! amount (its own postings plus its corrections' differences), so every group a player
//! reads is money that stands and the groups add up to the balance.

use std::collections::BTreeMap;

use super::sheet::signed_money;
use super::{Fold, Row};
use crate::ledger::Posting;

/// Every row that stands for `account`, in order, with the cents it carries once its
/// corrections are folded in: voids, voided rows (with the corrections of a voided row)
/// and corrections themselves are left out, a correction's difference is added to the row
/// it corrects. The cents add up to the account's balance (the left-out rows cancel).
pub fn standing_amounts<'a>(fold: &'a Fold, account: &str) -> Vec<(&'a Row, i64)> {
    let cents_of = |row: &Row| -> i64 {
        row.postings
            .iter()
            .filter(|p| p.account == account)
            .map(|p| p.amount.cents())
            .sum()
    };
    let voided = |row: &Row| row.changed_by.iter().any(|c| c.void);
    let rows = fold.rows();
    let by_index: BTreeMap<usize, &Row> = rows
        .iter()
        .filter_map(|r| r.index.map(|i| (i, r)))
        .collect();
    // What the corrections of each standing event add to it.
    let mut corrected: BTreeMap<usize, i64> = BTreeMap::new();
    for row in rows {
        if let Some(a) = row.amends.filter(|a| !a.void)
            && by_index.get(&a.target).is_some_and(|t| !voided(t))
        {
            *corrected.entry(a.target).or_insert(0) += cents_of(row);
        }
    }
    rows.iter()
        .filter(|r| r.amends.is_none() && !voided(r))
        .map(|r| {
            let extra = r
                .index
                .and_then(|i| corrected.get(&i))
                .copied()
                .unwrap_or(0);
            (r, cents_of(r) + extra)
        })
        .collect()
}

/// Where an account's money came from, in a few groups a player can check, amounts in
/// `currency` (ISO code): "opening ante −$0.10 · hands 1–3 +$0.75 · game 1 won +$1.00 ·
/// kitty share +$0.30 · paid −$0.20". Only what stands counts ([`standing_amounts`]): an
/// undone hand or payment is in no group, a corrected hand counts at its corrected amount,
/// and the hands' range names standing hands only; a game's payment counts under the game
/// it ended; `preview` adds the postings of a close not yet made (what closing now would
/// do). Zero groups are left out; "nothing yet" when all are zero.
pub fn money_summary(fold: &Fold, account: &str, preview: &[Posting], currency: &str) -> String {
    let kitty_game = fold.engine().has_kitty();
    let mut groups: Vec<(String, i64)> = Vec::new();
    let mut add = |label: String, cents: i64| match groups.iter_mut().find(|(l, _)| *l == label) {
        Some((_, c)) => *c += cents,
        None => groups.push((label, cents)),
    };
    let close_label = if kitty_game {
        "kitty share"
    } else {
        "settled at the close"
    };
    let (mut first_hand, mut last_hand) = (None::<usize>, None::<usize>);
    for (row, cents) in standing_amounts(fold, account) {
        if let Some(n) = row.hand_number {
            first_hand = Some(first_hand.map_or(n, |f| f.min(n)));
            last_hand = Some(last_hand.map_or(n, |l| l.max(n)));
        }
        let label = match row.kind.as_str() {
            "opening_ante" => "opening ante".to_string(),
            "close" | "reopen" => close_label.to_string(),
            "payment" if cents > 0 => "paid".to_string(),
            "payment" => "received".to_string(),
            _ if !row.game_ends.is_empty() => {
                let number = row.game_ends.last().map_or(0, |e| e.number);
                let what = if cents < 0 { "lost" } else { "won" };
                format!("game {number} {what}")
            }
            _ if row.hand_number.is_some() => "hands".to_string(),
            kind => kind.replace('_', " "),
        };
        if cents != 0 {
            add(label, cents);
        }
    }
    let previewed: i64 = preview
        .iter()
        .filter(|p| p.account == account)
        .map(|p| p.amount.cents())
        .sum();
    if previewed != 0 {
        let label = if kitty_game {
            "kitty share on closing now"
        } else {
            "closing now"
        };
        add(label.to_string(), previewed);
    }
    let hands = match (first_hand, last_hand) {
        (Some(a), Some(b)) if a == b => format!("hand {a}"),
        (Some(a), Some(b)) => format!("hands {a}–{b}"),
        _ => "hands".to_string(),
    };
    let parts: Vec<String> = groups
        .into_iter()
        .filter(|(_, c)| *c != 0)
        .map(|(label, c)| {
            let label = if label == "hands" {
                hands.clone()
            } else {
                label
            };
            format!(
                "{label} {}",
                crate::money::with_currency(&signed_money(c), currency)
            )
        })
        .collect();
    if parts.is_empty() {
        "nothing yet".to_string()
    } else {
        parts.join(" · ")
    }
}
