//! Settling up: the fewest transfers that bring every balance to zero.
//!
//! The minimum number of transfers for `n` non-zero balances is `n − g`, where `g` is the
//! largest number of groups the balances can be cut into that each sum to zero (a group of
//! `k` settles in `k − 1` transfers and never in fewer). `g` is found exactly by dynamic
//! programming over subsets, which is instant for the at most 10 players of a table and
//! fine up to [`EXACT_LIMIT`]; beyond that a greedy plan is used. Pure and deterministic:
//! ties are broken by account name.

use serde::Serialize;

use crate::money::Money;

/// The largest number of non-zero balances settled by the exact search (2ⁿ states).
pub const EXACT_LIMIT: usize = 18;

/// One payment to make at the close: `from` hands `amount` to `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Transfer {
    /// Who pays (an account with a negative balance).
    pub from: String,
    /// Who receives (an account with a positive balance).
    pub to: String,
    /// How much, in cents, always positive.
    pub amount: Money,
}

/// The fewest transfers that zero every balance in `balances` (`(account, balance)` pairs,
/// any order; positive = is owed). Balances must sum to zero; if they do not, the transfers
/// settle as much as can be settled. Transfers are listed group by group, largest debts
/// first within a group.
pub fn fewest_transfers(balances: &[(String, Money)]) -> Vec<Transfer> {
    let mut open: Vec<(String, Money)> = balances
        .iter()
        .filter(|(_, m)| !m.is_zero())
        .cloned()
        .collect();
    open.sort_by(|a, b| a.0.cmp(&b.0));
    let groups = if open.len() <= EXACT_LIMIT {
        zero_sum_groups(&open)
    } else {
        vec![open]
    };
    groups.into_iter().flat_map(settle_group).collect()
}

/// Cuts `open` into the largest number of zero-sum groups (exact, over all subsets).
fn zero_sum_groups(open: &[(String, Money)]) -> Vec<Vec<(String, Money)>> {
    let n = open.len();
    if n == 0 {
        return Vec::new();
    }
    let full = (1usize << n) - 1;
    let mut sums = vec![0i64; full + 1];
    let mut best = vec![0u8; full + 1];
    for mask in 1..=full {
        let low = mask.trailing_zeros() as usize;
        sums[mask] = sums[mask & (mask - 1)] + open[low].1.cents();
        let mut most = 0;
        let mut rest = mask;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            most = most.max(best[mask ^ (1 << i)]);
            rest &= rest - 1;
        }
        best[mask] = most + u8::from(sums[mask] == 0);
    }
    // Walk back: take off one member at a time while keeping the optimum; each time the
    // remaining set sums to zero, the members taken since the last cut form a group.
    let mut groups = Vec::new();
    let mut current = Vec::new();
    let mut mask = full;
    while mask != 0 {
        let here = best[mask] - u8::from(sums[mask] == 0);
        if sums[mask] == 0 && !current.is_empty() {
            groups.push(std::mem::take(&mut current));
        }
        let i = (0..n)
            .find(|&i| mask & (1 << i) != 0 && best[mask ^ (1 << i)] == here)
            .unwrap_or(mask.trailing_zeros() as usize);
        current.push(open[i].clone());
        mask ^= 1 << i;
    }
    if !current.is_empty() {
        groups.push(current);
    }
    groups.reverse();
    groups
}

/// Settles one group whose balances sum to zero in at most `len − 1` transfers: the largest
/// debtor pays the largest creditor until both sides are empty.
fn settle_group(mut group: Vec<(String, Money)>) -> Vec<Transfer> {
    let mut transfers = Vec::new();
    loop {
        group.retain(|(_, m)| !m.is_zero());
        let debtor = group
            .iter()
            .enumerate()
            .filter(|(_, (_, m))| m.cents() < 0)
            .min_by(|(_, a), (_, b)| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        let creditor = group
            .iter()
            .enumerate()
            .filter(|(_, (_, m))| m.cents() > 0)
            .max_by(|(_, a), (_, b)| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)));
        let (Some((d, _)), Some((c, _))) = (debtor, creditor) else {
            break;
        };
        let amount = group[d].1.abs().min(group[c].1);
        transfers.push(Transfer {
            from: group[d].0.clone(),
            to: group[c].0.clone(),
            amount,
        });
        group[d].1 += amount;
        group[c].1 -= amount;
    }
    transfers
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bal(pairs: &[(&str, i64)]) -> Vec<(String, Money)> {
        pairs
            .iter()
            .map(|(n, c)| (n.to_string(), Money::from_cents(*c)))
            .collect()
    }

    fn apply(balances: &[(String, Money)], transfers: &[Transfer]) -> Vec<i64> {
        balances
            .iter()
            .map(|(name, m)| {
                let paid: i64 = transfers
                    .iter()
                    .filter(|t| &t.from == name)
                    .map(|t| t.amount.cents())
                    .sum();
                let got: i64 = transfers
                    .iter()
                    .filter(|t| &t.to == name)
                    .map(|t| t.amount.cents())
                    .sum();
                m.cents() + paid - got
            })
            .collect()
    }

    /// The true minimum by brute force: try every way to cut the set into zero-sum groups.
    fn brute_force_minimum(cents: &[i64]) -> usize {
        fn max_groups(items: &[i64]) -> usize {
            if items.is_empty() {
                return 0;
            }
            let n = items.len();
            let mut best = 1;
            // The group holding items[0]: any subset that includes it and sums to zero.
            for mask in 0..(1usize << (n - 1)) {
                let mut group_sum = items[0];
                let mut rest = Vec::new();
                for (i, v) in items[1..].iter().enumerate() {
                    if mask & (1 << i) != 0 {
                        group_sum += v;
                    } else {
                        rest.push(*v);
                    }
                }
                if group_sum == 0 && rest.iter().sum::<i64>() == 0 && !rest.is_empty() {
                    best = best.max(1 + max_groups(&rest));
                }
            }
            best
        }
        let items: Vec<i64> = cents.iter().copied().filter(|c| *c != 0).collect();
        items.len() - max_groups(&items)
    }

    #[test]
    fn pairs_that_cancel_settle_in_one_transfer_each() {
        let b = bal(&[("A", 500), ("B", -500), ("C", 300), ("D", -300)]);
        let t = fewest_transfers(&b);
        assert_eq!(t.len(), 2);
        assert!(apply(&b, &t).iter().all(|c| *c == 0));
    }

    #[test]
    fn greedy_would_use_four_but_three_suffice() {
        // Greedy largest-to-largest pairs 6→-5 first and needs 4; {6,-4,-2} and {5,-5}... exact finds 3.
        let b = bal(&[("A", 6), ("B", 5), ("C", -5), ("D", -4), ("E", -2)]);
        let t = fewest_transfers(&b);
        assert_eq!(t.len(), 3);
        assert!(apply(&b, &t).iter().all(|c| *c == 0));
    }

    #[test]
    fn deterministic_for_equal_amounts() {
        let b = bal(&[("Cy", -10), ("Ann", 20), ("Bob", -10)]);
        let t = fewest_transfers(&b);
        assert_eq!(
            t[0],
            Transfer {
                from: "Bob".into(),
                to: "Ann".into(),
                amount: Money::from_cents(10)
            }
        );
        assert_eq!(t[1].from, "Cy");
    }

    proptest! {
        #[test]
        fn transfers_zero_every_balance_with_the_fewest_possible(raw in proptest::collection::vec(-50i64..50, 1..8)) {
            let mut cents = raw.clone();
            let total: i64 = cents.iter().sum();
            cents.push(-total);
            let names: Vec<String> = (0..cents.len()).map(|i| format!("P{i}")).collect();
            let b: Vec<(String, Money)> = names.iter().cloned().zip(cents.iter().map(|c| Money::from_cents(*c))).collect();
            let t = fewest_transfers(&b);
            prop_assert!(apply(&b, &t).iter().all(|c| *c == 0));
            prop_assert!(t.iter().all(|x| x.amount.cents() > 0));
            prop_assert_eq!(t.len(), brute_force_minimum(&cents));
        }
    }
}
