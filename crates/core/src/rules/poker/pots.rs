//! Pots from contributions (rules §1.11; RRP: each pot "split as separate pots") and equal
//! splits, in **units** (`smallest_unit`s); seats are indices.

/// One pot: its size in units and who may win it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pot {
    /// What is in it, in units (folded players' money included up to the level).
    pub amount: i64,
    /// The contribution level that closes it, in units.
    pub level: i64,
    /// The seats of the players still in the hand who put in at least `level` (seat order).
    pub eligible: Vec<usize>,
}

/// Builds the main and side pots (rules §1.11 steps 1–2): levels are the all-in players'
/// contributions and the biggest; the pot of level L above P holds Σ `min(c, L) − min(c,
/// P)`, so folded money sits in every pot it reached; the eligible are the unfolded who
/// put in at least L. Inputs are per seat.
///
/// Errors: the level (units) of a pot nobody still in can win.
pub fn build(contributions: &[i64], folded: &[bool], all_in: &[bool]) -> Result<Vec<Pot>, i64> {
    let mut levels: Vec<i64> = contributions
        .iter()
        .zip(all_in)
        .filter(|(c, a)| **a && **c > 0)
        .map(|(c, _)| *c)
        .collect();
    if let Some(max) = contributions.iter().copied().max().filter(|m| *m > 0) {
        levels.push(max);
    }
    levels.sort_unstable();
    levels.dedup();
    let mut pots = Vec::new();
    let mut previous = 0;
    for level in levels {
        let amount = contributions
            .iter()
            .map(|c| (*c).min(level) - (*c).min(previous))
            .sum();
        let eligible: Vec<usize> = contributions
            .iter()
            .zip(folded)
            .enumerate()
            .filter(|(_, (c, f))| !**f && **c >= level)
            .map(|(seat, _)| seat)
            .collect();
        if eligible.is_empty() {
            return Err(level);
        }
        pots.push(Pot {
            amount,
            level,
            eligible,
        });
        previous = level;
    }
    Ok(pots)
}

/// An equal split of `amount` units among `winners`, given in the order the odd chips go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// Each winner's share in units, in the order given.
    pub shares: Vec<(usize, i64)>,
    /// The winners who got one odd chip more than the rest (never more than one each).
    pub odd: Vec<usize>,
    /// Odd chips left in the `POT` account for the next hand (`odd_chip: "carry"`).
    pub carried: i64,
}

/// Splits `amount` units equally among `winners` (rules §1.11 step 3); leftover chips go
/// one each to the first winners in order (RRP), or with `carry` stay for the next pot
/// (OCC).
pub fn split(amount: i64, winners: &[usize], carry: bool) -> Split {
    let n = winners.len() as i64;
    if n == 0 {
        return Split {
            shares: Vec::new(),
            odd: Vec::new(),
            carried: 0,
        };
    }
    let each = amount / n;
    let left = amount - each * n;
    let (odd_count, carried) = if carry || left == 0 {
        (0, left)
    } else {
        (left, 0)
    };
    let shares: Vec<(usize, i64)> = winners
        .iter()
        .enumerate()
        .map(|(i, w)| (*w, each + i64::from((i as i64) < odd_count)))
        .collect();
    Split {
        odd: winners.iter().take(odd_count as usize).copied().collect(),
        shares,
        carried,
    }
}

/// The halves of a high-low pot, `(high, low)`; the high half takes the odd chip (RRP).
pub fn halves(amount: i64) -> (i64, i64) {
    let low = amount / 2;
    (amount - low, low)
}

/// Moves the winners who already had an odd chip from this pot (`already`) after the rest,
/// so a second odd chip goes only once every tied winner has one (RRP). Returns whether the
/// order changed.
pub fn without_second_odd_chip(order: &mut [usize], already: &[usize]) -> bool {
    let before = order.to_vec();
    order.sort_by_key(|s| already.contains(s));
    before != order
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn side_pots_of_pk_03() {
        // A 6 all-in, B 14 all-in, C and D 20 (units of 0.05): main 6 × 4 = 24 (all four),
        // side 1 (14 − 6) × 3 = 24 (B, C, D), side 2 (20 − 14) × 2 = 12 (C, D).
        let pots = build(&[6, 14, 20, 20], &[false; 4], &[true, true, false, false]).unwrap();
        let got: Vec<(i64, Vec<usize>)> = pots
            .iter()
            .map(|p| (p.amount, p.eligible.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                (24, vec![0, 1, 2, 3]),
                (24, vec![1, 2, 3]),
                (12, vec![2, 3])
            ]
        );
    }

    #[test]
    fn folded_money_reaches_every_pot_it_reached() {
        // A all-in 4; B folded after putting in 10; C and D 10. Main pot 4 × 4 = 16 (A, C,
        // D); side pot (10 − 4) × 3 = 18, B's 6 included (C, D).
        let pots = build(
            &[4, 10, 10, 10],
            &[false, true, false, false],
            &[true, false, false, false],
        )
        .unwrap();
        let got: Vec<(i64, Vec<usize>)> = pots
            .iter()
            .map(|p| (p.amount, p.eligible.clone()))
            .collect();
        assert_eq!(got, vec![(16, vec![0, 2, 3]), (18, vec![2, 3])]);
    }

    #[test]
    fn a_pot_nobody_in_the_hand_can_win_is_refused() {
        // A all-in 4, B folded with 10: the 6 above 4 has no eligible player.
        assert_eq!(build(&[4, 10], &[false, true], &[true, false]), Err(10));
    }

    #[test]
    fn odd_chips_one_each_or_carried() {
        // 11 among three: 3 each, two odd chips to the first two.
        let s = split(11, &[2, 0, 1], false);
        assert_eq!(s.shares, vec![(2, 4), (0, 4), (1, 3)]);
        assert_eq!((s.odd, s.carried), (vec![2, 0], 0));
        let s = split(11, &[2, 0, 1], true);
        assert_eq!(s.shares, vec![(2, 3), (0, 3), (1, 3)]);
        assert_eq!(s.carried, 2);
    }

    #[test]
    fn a_low_half_odd_chip_goes_first_to_who_has_none() {
        // 10 chips high-low: 5 and 5. A and B tie both halves, A first in both orders.
        // High: 2 each, the odd chip to A. Low: A already has one, so B: 3 + 2 = 5 each.
        assert_eq!(halves(10), (5, 5));
        assert_eq!(halves(11), (6, 5));
        let high = split(5, &[0, 1], false);
        let mut low_order = vec![0, 1];
        assert!(without_second_odd_chip(&mut low_order, &high.odd));
        assert_eq!(low_order, vec![1, 0]);
        assert_eq!(split(5, &low_order, false).shares, vec![(1, 3), (0, 2)]);
        // Three tie both halves of 10 chips: high 5 → 2, 2, 1 (odd to 0 and 1); low 5 →
        // the first odd chip to 2, the second to 0 again: 4, 3, 3 — as even as 10 among
        // three can be.
        let high = split(5, &[0, 1, 2], false);
        let mut low_order = vec![0, 1, 2];
        without_second_odd_chip(&mut low_order, &high.odd);
        assert_eq!(low_order, vec![2, 0, 1]);
        assert_eq!(
            split(5, &low_order, false).shares,
            vec![(2, 2), (0, 2), (1, 1)]
        );
        // Nobody has one yet: the order stands.
        let mut order = vec![3, 1];
        assert!(!without_second_odd_chip(&mut order, &[0]));
        assert_eq!(order, vec![3, 1]);
    }

    proptest! {
        #[test]
        fn pots_hold_every_chip_and_splits_lose_none(
            contributions in proptest::collection::vec(0i64..50, 2..10),
            flags in proptest::collection::vec(0u8..3, 10),
        ) {
            let n = contributions.len();
            let all_in: Vec<bool> = (0..n).map(|i| flags[i] == 1).collect();
            let mut folded: Vec<bool> = (0..n).map(|i| flags[i] == 2).collect();
            // The biggest contributor is still in the hand (the betting guarantees it).
            let max = contributions.iter().copied().max().unwrap();
            let top = contributions.iter().position(|c| *c == max).unwrap();
            folded[top] = false;
            let pots = build(&contributions, &folded, &all_in);
            if let Ok(pots) = pots {
                let total: i64 = pots.iter().map(|p| p.amount).sum();
                prop_assert_eq!(total, contributions.iter().sum::<i64>());
                for p in &pots {
                    let s = split(p.amount, &p.eligible, false);
                    prop_assert_eq!(s.shares.iter().map(|x| x.1).sum::<i64>(), p.amount);
                    let most = s.shares.iter().map(|x| x.1).max().unwrap();
                    let least = s.shares.iter().map(|x| x.1).min().unwrap();
                    prop_assert!(most - least <= 1);
                }
            }
        }
    }
}
