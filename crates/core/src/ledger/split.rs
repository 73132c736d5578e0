//! Equal shares of a kitty or pot in whole cents.

use crate::money::Money;

/// Splits `total` among `recipients` in whole cents, rounded toward zero, leftover cents
/// one each from the first (callers start left of the last dealer: rules §3 item 2). A
/// negative total (rules §1.3) is shared alike.
pub fn equal_shares<'a>(total: Money, recipients: &[&'a str]) -> Vec<(&'a str, Money)> {
    if recipients.is_empty() {
        return Vec::new();
    }
    let (share, leftover) = total.divide(recipients.len() as i64);
    let extra_cents = leftover.cents().unsigned_abs() as usize;
    let one = Money::from_cents(leftover.cents().signum());
    recipients
        .iter()
        .enumerate()
        .map(|(i, r)| (*r, if i < extra_cents { share + one } else { share }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn leftover_cents_go_to_the_first_recipients() {
        let shares = equal_shares(Money::from_cents(100), &["B", "C", "A"]);
        assert_eq!(
            shares,
            vec![
                ("B", Money::from_cents(34)),
                ("C", Money::from_cents(33)),
                ("A", Money::from_cents(33))
            ]
        );
        let deficit = equal_shares(Money::from_cents(-20), &["A", "B", "C"]);
        assert_eq!(deficit[0].1, Money::from_cents(-7));
        assert_eq!(deficit[2].1, Money::from_cents(-6));
    }

    proptest! {
        #[test]
        fn shares_add_up_and_differ_by_at_most_a_cent(total in -100_000i64..100_000, n in 1usize..8) {
            let names = ["A", "B", "C", "D", "E", "F", "G", "H"];
            let shares = equal_shares(Money::from_cents(total), &names[..n]);
            let sum: Money = shares.iter().map(|s| s.1).sum();
            prop_assert_eq!(sum, Money::from_cents(total));
            let max = shares.iter().map(|s| s.1).max().unwrap();
            let min = shares.iter().map(|s| s.1).min().unwrap();
            prop_assert!((max - min).cents() <= 1);
        }
    }
}
