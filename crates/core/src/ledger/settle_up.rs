//! Settling up: the fewest transfers that bring every balance to zero.
//!
//! With `n` non-zero balances the minimum is `n − g`, `g` the most zero-sum groups they cut
//! into (a group of `k` needs `k − 1`). `g` is found exactly over subsets up to
//! [`EXACT_LIMIT`], greedily beyond. Deterministic: ties by account name.

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

/// The fewest transfers that zero `balances` (positive = is owed), largest debts first.
pub fn fewest_transfers(balances: &[(String, Money)]) -> Vec<Transfer> {
    fewest_transfers_preferring(balances, &[])
}

/// [`fewest_transfers`], preferring plans that pay along `pairs` ("E pays N").
///
/// Free of cost: a pair that cancels (`a = −b`) is its own group in some minimal plan, and
/// inside a group any transfer that empties one side keeps it within `len − 1`.
pub fn fewest_transfers_preferring(
    balances: &[(String, Money)],
    pairs: &[(String, String)],
) -> Vec<Transfer> {
    let mut open: Vec<(String, Money)> = balances
        .iter()
        .filter(|(_, m)| !m.is_zero())
        .cloned()
        .collect();
    open.sort_by(|a, b| a.0.cmp(&b.0));
    let mut transfers = Vec::new();
    for (a, b) in pairs {
        let find = |name: &str| open.iter().position(|(n, m)| n == name && !m.is_zero());
        let (Some(i), Some(j)) = (find(a), find(b)) else {
            continue;
        };
        if open[j].1.cents().checked_neg() == Some(open[i].1.cents()) {
            let (from, to) = if open[i].1.cents() < 0 {
                (i, j)
            } else {
                (j, i)
            };
            transfers.push(Transfer {
                from: open[from].0.clone(),
                to: open[to].0.clone(),
                amount: open[to].1,
            });
            open[i].1 = Money::ZERO;
            open[j].1 = Money::ZERO;
        }
    }
    open.retain(|(_, m)| !m.is_zero());
    let groups = if open.len() <= EXACT_LIMIT {
        zero_sum_groups(&open)
    } else {
        vec![open]
    };
    transfers.extend(groups.into_iter().flat_map(|g| settle_group(g, pairs)));
    transfers
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
    // Walk back keeping the optimum; each zero sum closes a group.
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

/// The first of `pairs` with debtor and creditor both open in `group`, as indices.
fn preferred_in(group: &[(String, Money)], pairs: &[(String, String)]) -> Option<(usize, usize)> {
    pairs.iter().find_map(|(a, b)| {
        let i = group.iter().position(|(n, _)| n == a)?;
        let j = group.iter().position(|(n, _)| n == b)?;
        match (group[i].1.cents().signum(), group[j].1.cents().signum()) {
            (-1, 1) => Some((i, j)),
            (1, -1) => Some((j, i)),
            _ => None,
        }
    })
}

/// Settles one zero-sum group in `len − 1` transfers at most, preferred pairs first.
fn settle_group(mut group: Vec<(String, Money)>, pairs: &[(String, String)]) -> Vec<Transfer> {
    let mut transfers = Vec::new();
    loop {
        group.retain(|(_, m)| !m.is_zero());
        let Some((d, c)) = preferred_in(&group, pairs).or_else(|| largest_pair(&group)) else {
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

/// The largest debtor and creditor of `group` (ties by name); `None` once a side is empty.
fn largest_pair(group: &[(String, Money)]) -> Option<(usize, usize)> {
    let debtor = group
        .iter()
        .enumerate()
        .filter(|(_, (_, m))| m.cents() < 0)
        .min_by(|(_, a), (_, b)| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)))?;
    let creditor = group
        .iter()
        .enumerate()
        .filter(|(_, (_, m))| m.cents() > 0)
        .max_by(|(_, a), (_, b)| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))?;
    Some((debtor.0, creditor.0))
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

    fn pairs(names: &[(&str, &str)]) -> Vec<(String, String)> {
        names
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    fn plan(t: &[Transfer]) -> Vec<(String, String, i64)> {
        t.iter()
            .map(|x| (x.from.clone(), x.to.clone(), x.amount.cents()))
            .collect()
    }

    fn pay(from: &str, to: &str, cents: i64) -> (String, String, i64) {
        (from.to_string(), to.to_string(), cents)
    }

    #[test]
    fn the_settle_up_pays_along_the_pairs_the_rows_name() {
        // Check Pinochle per player, seats Margaret, Salvatore, Vincenzo, Rosemary: the
        // opposite numbers are Margaret–Salvatore and Vincenzo–Rosemary. Margaret and Vincenzo lost 0.75 each to them: two transfers
        // either way, and the rows' pairs are among the plans of two.
        let b = bal(&[
            ("Margaret", -75),
            ("Salvatore", 75),
            ("Vincenzo", -75),
            ("Rosemary", 75),
        ]);
        let p = pairs(&[("Margaret", "Salvatore"), ("Vincenzo", "Rosemary")]);
        assert_eq!(
            plan(&fewest_transfers_preferring(&b, &p)),
            vec![
                pay("Margaret", "Salvatore", 75),
                pay("Vincenzo", "Rosemary", 75)
            ]
        );
        // Margaret −0.75, Vincenzo −0.25, Salvatore and Rosemary +0.50: no part sums to
        // zero, so three transfers. Along the pairs: Margaret pays Salvatore 0.50 (emptying
        // him), Vincenzo pays Rosemary 0.25 (emptying himself), and Margaret's last 0.25
        // goes to Rosemary.
        let b = bal(&[
            ("Margaret", -75),
            ("Salvatore", 50),
            ("Vincenzo", -25),
            ("Rosemary", 50),
        ]);
        assert_eq!(
            plan(&fewest_transfers_preferring(&b, &p)),
            vec![
                pay("Margaret", "Salvatore", 50),
                pay("Vincenzo", "Rosemary", 25),
                pay("Margaret", "Rosemary", 25)
            ]
        );
    }

    #[test]
    fn the_minimum_comes_before_the_pairs() {
        // A −0.10, B +0.10, C −0.20, D +0.20 with pairs A–D and C–B: paying along them
        // would take three transfers (A→D 0.10, C→D 0.10, C→B 0.10); the minimum is two,
        // A→B and C→D, and the pairs give way.
        let b = bal(&[("A", -10), ("B", 10), ("C", -20), ("D", 20)]);
        let p = pairs(&[("A", "D"), ("C", "B")]);
        let mut got = plan(&fewest_transfers_preferring(&b, &p));
        got.sort();
        assert_eq!(got, vec![pay("A", "B", 10), pay("C", "D", 20)]);
    }

    proptest! {
        #[test]
        fn pairs_never_cost_a_transfer(
            raw in proptest::collection::vec(-50i64..50, 1..7),
            links in proptest::collection::vec((0usize..8, 0usize..8), 0..6),
        ) {
            let mut cents = raw.clone();
            let total: i64 = cents.iter().sum();
            cents.push(-total);
            let names: Vec<String> = (0..cents.len()).map(|i| format!("P{i}")).collect();
            let b: Vec<(String, Money)> = names.iter().cloned().zip(cents.iter().map(|c| Money::from_cents(*c))).collect();
            let p: Vec<(String, String)> = links
                .iter()
                .filter(|(x, y)| x != y && *x < names.len() && *y < names.len())
                .map(|(x, y)| (names[*x].clone(), names[*y].clone()))
                .collect();
            let t = fewest_transfers_preferring(&b, &p);
            prop_assert!(apply(&b, &t).iter().all(|c| *c == 0));
            prop_assert!(t.iter().all(|x| x.amount.cents() > 0));
            prop_assert_eq!(t.len(), brute_force_minimum(&cents));
        }

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
