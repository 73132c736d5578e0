//! A step of the reckoning in words, for a row's details.

use super::{StepView, account_label, points};
use crate::money::Money;
use crate::rules::Step;

/// A step in words, money with the `currency` symbol ("$0.50"), the kitty as "Kitty".
pub fn step_view(step: &Step, currency: &str) -> StepView {
    let cash = |m: &Money| m.shown(currency);
    let (what, gives) = match step {
        Step::TableRow {
            table,
            row,
            gives,
            source,
        } => (format!("{table}, {row} ({source})"), gives.clone()),
        Step::Score {
            who,
            sum,
            total,
            tally,
        } => (
            format!("{}: {sum}", account_label(who)),
            format!("{} {}", points(*total), tally.word()),
        ),
        Step::Times { factor, why } => (format!("× {factor}"), why.clone()),
        Step::Stake { amount, per } => (format!("× {}", cash(amount)), format!("a {per}")),
        Step::Pays {
            from,
            to,
            amount,
            why,
        } => (
            format!("{} pays {}", account_label(from), account_label(to)),
            format!("{} ({why})", cash(amount)),
        ),
        Step::Kitty {
            rule,
            before,
            after,
        } => (
            format!("Kitty ({rule})"),
            format!("{} → {}", cash(before), cash(after)),
        ),
        Step::Shares {
            total,
            shares,
            odd_cents,
        } => {
            let each = shares
                .iter()
                .map(|(p, m)| format!("{} {}", account_label(p), cash(m)))
                .collect::<Vec<_>>()
                .join(", ");
            let odd = match odd_cents.len() {
                0 => String::new(),
                1 => format!("; the odd cent to {}", account_label(&odd_cents[0])),
                _ => format!(
                    "; the odd cents to {}",
                    odd_cents
                        .iter()
                        .map(|p| account_label(p))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            (
                format!("{} shared {} ways", cash(total), shares.len()),
                format!("{each}{odd}"),
            )
        }
    };
    StepView { what, gives }
}
