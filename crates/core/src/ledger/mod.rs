//! The ledger: accounts, postings and balances, pure and exact. Every event's postings sum
//! to zero; the kitty is an account like a player's, [`KITTY`] (rules §1.2).

pub mod settle_up;
pub mod split;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::money::Money;

/// The ledger name of the kitty's account (rules §1.2, `docs/session-format.md`).
pub const KITTY: &str = "KITTY";

/// The ledger name of the pot's account, holding odd chips carried to the next hand.
pub const POT: &str = "POT";

/// The table's accounts: never a player's name or a club member.
pub const HOUSE: [&str; 2] = [KITTY, POT];

/// One movement of money on one account, in cents: positive gains, negative pays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posting {
    /// A player's name or [`KITTY`].
    pub account: String,
    /// The change of the account's balance.
    pub amount: Money,
}

impl Posting {
    /// A posting of `amount` to `account`.
    pub fn new(account: impl Into<String>, amount: Money) -> Posting {
        Posting {
            account: account.into(),
            amount,
        }
    }
}

/// Postings under construction; [`Postings::transfer`] adds balanced pairs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Postings(Vec<Posting>);

impl Postings {
    /// No postings yet.
    pub fn new() -> Postings {
        Postings::default()
    }

    /// `from` pays `amount` to `to`. A zero amount posts nothing.
    pub fn transfer(&mut self, from: &str, to: &str, amount: Money) {
        if amount.is_zero() || from == to {
            return;
        }
        self.add(from, -amount);
        self.add(to, amount);
    }

    /// Adds `amount` to `account` alone: only for amounts known to balance as a whole.
    pub fn credit(&mut self, account: &str, amount: Money) {
        if !amount.is_zero() {
            self.add(account, amount);
        }
    }

    fn add(&mut self, account: &str, amount: Money) {
        match self.0.iter_mut().find(|p| p.account == account) {
            // Saturating: [`Balances::checked_apply`] refuses such a sum by account.
            Some(p) => p.amount = p.amount.saturating_add(amount),
            None => self.0.push(Posting::new(account, amount)),
        }
    }

    /// The net amount posted to `account` so far.
    pub fn net(&self, account: &str) -> Money {
        self.0
            .iter()
            .filter(|p| p.account == account)
            .map(|p| p.amount)
            .sum()
    }

    /// The postings, one per account in first-touched order, zero nets left out.
    pub fn into_vec(self) -> Vec<Posting> {
        self.0.into_iter().filter(|p| !p.amount.is_zero()).collect()
    }
}

/// A posting or balance past the money limit, naming `balances.ACCOUNT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overflow {
    /// `balances.ACCOUNT`: the account whose balance would leave the limit.
    pub field: String,
    /// Why, in player words.
    pub message: String,
}

/// Running balances of every account, in cents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Balances(BTreeMap<String, Money>);

impl Balances {
    /// Opens `account` at zero if absent (so it shows `"0.00"`).
    pub fn open(&mut self, account: &str) {
        self.0.entry(account.to_string()).or_insert(Money::ZERO);
    }

    /// Adds every posting to its account.
    pub fn apply(&mut self, postings: &[Posting]) {
        for p in postings {
            *self.0.entry(p.account.clone()).or_insert(Money::ZERO) += p.amount;
        }
    }

    /// [`Balances::apply`] within ±[`Money::LIMIT`]; on an [`Overflow`] nothing changes.
    pub fn checked_apply(&mut self, postings: &[Posting]) -> Result<(), Overflow> {
        let mut after = self.0.clone();
        for p in postings {
            let balance = after.entry(p.account.clone()).or_insert(Money::ZERO);
            match balance.checked_add(p.amount) {
                Some(sum) if p.amount.within_limit() && sum.within_limit() => *balance = sum,
                _ => {
                    return Err(Overflow {
                        field: format!("balances.{}", p.account),
                        message: format!(
                            "this would take {}'s balance beyond {}, more than any table plays for (money limit)",
                            p.account,
                            Money::LIMIT
                        ),
                    });
                }
            }
        }
        self.0 = after;
        Ok(())
    }

    /// The balance of `account` (zero if it never moved).
    pub fn get(&self, account: &str) -> Money {
        self.0.get(account).copied().unwrap_or(Money::ZERO)
    }

    /// The kitty's balance (zero when the game has none).
    pub fn kitty(&self) -> Money {
        self.get(KITTY)
    }

    /// All balances by account name.
    pub fn as_map(&self) -> &BTreeMap<String, Money> {
        &self.0
    }

    /// The sum of every balance; always zero when every posting list summed to zero.
    pub fn total(&self) -> Money {
        self.0.values().copied().sum()
    }
}

/// Sum of a posting list; zero for every list the ledger accepts.
pub fn sum(postings: &[Posting]) -> Money {
    postings.iter().map(|p| p.amount).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfers_balance_and_merge_per_account() {
        let mut p = Postings::new();
        p.transfer("B", "A", Money::from_cents(10));
        p.transfer("C", "A", Money::from_cents(10));
        p.transfer("A", "A", Money::from_cents(99));
        let v = p.into_vec();
        assert_eq!(sum(&v), Money::ZERO);
        assert_eq!(v[0], Posting::new("B", Money::from_cents(-10)));
        assert_eq!(v[1], Posting::new("A", Money::from_cents(20)));
    }

    /// Two payments of 6 × 10¹⁸ cents each to A: their sum is past `i64`. The postings
    /// hold it at the end of the range instead of panicking, and the checked balances refuse
    /// it naming A's account, unchanged.
    #[test]
    fn a_sum_past_i64_is_refused_by_the_balances_not_a_panic() {
        let mut p = Postings::new();
        let huge = Money::from_cents(6_000_000_000_000_000_000);
        p.transfer("B", "A", huge);
        p.transfer("C", "A", huge);
        let v = p.into_vec();
        assert_eq!(v[1], Posting::new("A", Money::from_cents(i64::MAX)));
        let mut balances = Balances::default();
        let e = balances.checked_apply(&v).unwrap_err();
        assert_eq!(e.field, "balances.B");
        assert_eq!(balances, Balances::default());
    }
}
