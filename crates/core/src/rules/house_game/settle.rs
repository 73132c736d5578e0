//! Paying a finished house game by the agreed `settlement` (rules §1.12): who won, each
//! player's money in cents, the words and the steps a player checks by hand. Every split
//! is whole cents toward zero, the leftover cents one each from the last dealer's left
//! (session-format "Precise readings"). Overflow is a refusal, never a wrap.

use super::agreements::{Agreements, RULE, Settlement, Winner};
use crate::ledger::Postings;
use crate::ledger::split::equal_shares;
use crate::money::Money;
use crate::rules::{RuleError, Step};

/// A finished game's payment: the postings (summing to zero), who won (`None`: a tie for
/// first, a shared win), the settlement in words and as steps.
#[derive(Debug, Clone)]
pub struct Settled {
    /// The money in cents, one posting per player.
    pub postings: Postings,
    /// The sole winner, or `None` when several share first place.
    pub winner: Option<String>,
    /// Everyone with the best total, in seat order.
    pub best: Vec<String>,
    /// The settlement in the table's words.
    pub words: String,
    /// The same as steps: payments, or each place's shares (`by_place`).
    pub steps: Vec<Step>,
}

fn too_much() -> RuleError {
    RuleError::new(
        "points",
        "these totals times the stake are more money than any balance may hold",
    )
    .rule(RULE)
}

/// `points × stake`, refused beyond the money limit.
fn times(stake: Money, points: i64) -> Result<Money, RuleError> {
    stake
        .checked_mul(points)
        .filter(|m| m.within_limit())
        .ok_or_else(too_much)
}

/// Pays the game that ended with `totals` (seat order, points). `leftover` is the order odd
/// cents go in (from the last dealer's left). Errors: money beyond the limit.
pub fn settle(
    a: &Agreements,
    totals: &[(String, i64)],
    leftover: &[&str],
) -> Result<Settled, RuleError> {
    let best_total = match a.winner {
        Winner::High => totals.iter().map(|(_, t)| *t).max(),
        Winner::Low => totals.iter().map(|(_, t)| *t).min(),
    }
    .unwrap_or(0);
    let best: Vec<String> = totals
        .iter()
        .filter(|(_, t)| *t == best_total)
        .map(|(p, _)| p.clone())
        .collect();
    let mut settled = Settled {
        postings: Postings::new(),
        winner: (best.len() == 1).then(|| best[0].clone()),
        best,
        words: String::new(),
        steps: Vec::new(),
    };
    // The tied winners in the order odd cents go.
    let winners: Vec<&str> = leftover
        .iter()
        .copied()
        .filter(|p| settled.best.iter().any(|b| b == p))
        .collect();
    match a.settlement {
        Settlement::PairwiseDifference => pairwise(a, totals, &mut settled)?,
        Settlement::DifferenceToWinner | Settlement::PerGame => {
            to_winners(a, totals, best_total, &winners, &mut settled)?
        }
        Settlement::ByPlace => by_place(a, totals, leftover, &mut settled),
    }
    Ok(settled)
}

/// Every two players settle the difference × stake: a net of `stake × (N·s − S)` (high) or
/// `stake × (S − N·s)` (low); the steps are the pairs' payments.
fn pairwise(
    a: &Agreements,
    totals: &[(String, i64)],
    settled: &mut Settled,
) -> Result<(), RuleError> {
    for (i, (p, s)) in totals.iter().enumerate() {
        for (q, t) in &totals[i + 1..] {
            let lead = a.winner.lead(*s, *t).ok_or_else(too_much)?;
            let (from, to) = if lead >= 0 { (q, p) } else { (p, q) };
            let amount = times(a.stake, lead.checked_abs().ok_or_else(too_much)?)?;
            if amount.is_zero() {
                continue;
            }
            settled.postings.transfer(from, to, amount);
            settled.steps.push(Step::Pays {
                from: from.clone(),
                to: to.clone(),
                amount,
                why: format!("{} points between them", lead.abs()),
            });
        }
    }
    let nets: Vec<String> = totals
        .iter()
        .map(|(p, _)| format!("{p} {}", signed(settled.postings.net(p))))
        .collect();
    settled.words = format!(
        "Every two players settle the difference of their totals at {} a point: {}",
        a.stake,
        nets.join(", ")
    );
    if totals
        .iter()
        .any(|(p, _)| !settled.postings.net(p).within_limit())
    {
        return Err(too_much());
    }
    Ok(())
}

/// Each player who did not win pays the winner the difference × stake
/// (`difference_to_winner`) or the stake (`per_game`); tied winners share each payment.
fn to_winners(
    a: &Agreements,
    totals: &[(String, i64)],
    best_total: i64,
    winners: &[&str],
    settled: &mut Settled,
) -> Result<(), RuleError> {
    let mut words = Vec::new();
    for (p, s) in totals {
        if winners.contains(&p.as_str()) {
            continue;
        }
        let (amount, why) = match a.settlement {
            Settlement::PerGame => (a.stake, "the game".to_string()),
            _ => {
                let behind = a.winner.lead(best_total, *s).ok_or_else(too_much)?;
                (times(a.stake, behind)?, format!("{behind} points behind"))
            }
        };
        for (to, share) in equal_shares(amount, winners) {
            settled.postings.transfer(p, to, share);
            if !share.is_zero() {
                settled.steps.push(Step::Pays {
                    from: p.clone(),
                    to: to.to_string(),
                    amount: share,
                    why: why.clone(),
                });
                words.push(format!("{p} pays {to} {share} ({why})"));
            }
        }
    }
    let head = match a.settlement {
        Settlement::PerGame => format!("Each other player pays {} for the game", a.stake),
        _ => format!(
            "Each other player pays the difference to the winning total at {} a point",
            a.stake
        ),
    };
    settled.words = if words.is_empty() {
        format!("{head}: nothing to pay")
    } else {
        format!("{head}: {}", words.join(", "))
    };
    Ok(())
}

/// Each place gets its amount of `payouts`; tied players share the places they cover, the
/// odd cents from the last dealer's left.
fn by_place(a: &Agreements, totals: &[(String, i64)], leftover: &[&str], settled: &mut Settled) {
    let mut ranked: Vec<i64> = totals.iter().map(|(_, t)| *t).collect();
    ranked.sort_unstable();
    ranked.dedup();
    if a.winner == Winner::High {
        ranked.reverse();
    }
    let mut place = 0;
    let mut words = Vec::new();
    for total in ranked {
        let group: Vec<&str> = leftover
            .iter()
            .copied()
            .filter(|p| totals.iter().any(|(q, t)| q == p && *t == total))
            .collect();
        // The engine refuses payouts not one per player, so the places are there.
        let covered = a.payouts.iter().skip(place).take(group.len());
        let amount: Money = covered.copied().sum();
        let shares = equal_shares(amount, &group);
        for (p, share) in &shares {
            settled.postings.credit(p, *share);
            words.push(format!("{p} {}", signed(*share)));
        }
        settled.steps.push(Step::shares(amount, &shares));
        place += group.len();
    }
    settled.words = format!(
        "Each place gets its agreed amount, tied places shared: {}",
        words.join(", ")
    );
}

/// `+1.00`, `-0.65`, `0.00`: a player's net in a sentence.
pub fn signed(m: Money) -> String {
    if m.cents() > 0 {
        format!("+{m}")
    } else {
        m.to_string()
    }
}
