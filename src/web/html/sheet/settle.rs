//! The sheet's settle-up: the fewest transfers that square the balances shown, preferring
//! the game's pairs, each with where both balances came from and a link to every hand.

use crate::ids::SessionId;
use crate::ledger::settle_up::fewest_transfers_preferring;
use crate::ledger::{Balances, Posting};

use super::{Showing, TransferView, name};

/// The settle-up of `balances`: the fewest transfers, preferring the game's `pairs`, each
/// with where both balances came from, and as plain text to copy.
pub(super) fn settle_up(
    showing: &Showing<'_>,
    balances: &Balances,
    pairs: &[(String, String)],
    preview_postings: &[Posting],
) -> (Vec<TransferView>, String) {
    let currency = showing.currency;
    // Before the close: what closing now would do (`format::Position::settlement`).
    let settle_from = showing.preview.as_ref().map_or(balances, |(b, _)| b);
    let open_balances: Vec<_> = settle_from
        .as_map()
        .iter()
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    let transfers = fewest_transfers_preferring(&open_balances, pairs);
    let summary = |account: &str| {
        let words = showing.summaries.words(account, preview_postings, currency);
        (name(account), words)
    };
    let settlement: Vec<TransferView> = transfers
        .into_iter()
        .map(|t| TransferView {
            from: name(&t.from),
            to: name(&t.to),
            amount: t.amount.shown(currency),
            summary: vec![summary(&t.from), summary(&t.to)],
            why_link: why_link(showing.id, &t.from, &t.to),
            transfer: t,
        })
        .collect();
    let settlement_text = settlement
        .iter()
        .map(|t| format!("{} pays {} {}", t.from, t.to, t.amount))
        .collect::<Vec<_>>()
        .join("\n");
    (settlement, settlement_text)
}

/// The settle-up's "every hand" page for a transfer between `from` and `to`.
fn why_link(id: SessionId, from: &str, to: &str) -> String {
    let query = serde_html_form::to_string([("from", from), ("to", to)]).unwrap_or_default();
    format!("/sessions/{id}/why?{query}")
}
