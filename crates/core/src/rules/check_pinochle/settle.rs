//! The end of a Check Pinochle game and its money (rules §1.7 "End of game" and "Match
//! result & settlement", S003; §3 item 24). Pure.

use super::agreements::{Agreements, Settlement};
use crate::ledger::Postings;
use crate::ledger::split::equal_shares;
use crate::money::Money;
use crate::rules::partnership::{PerSide, Seating, Side, TargetReached, target_reached};
use crate::rules::{RuleError, Step, Tally};
// `per_player` (rules §1.7, [R]): each player of the losing side pays his opposite number.
use crate::rules::partnership::pay_opposite_numbers as per_player;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnd {
    /// The side that won the game on points (and gets the game award).
    pub winner: Side,
    /// `"target"`, or `"both_out_bidder_wins"` (S003 winning rule 2).
    pub decided_by: &'static str,
}

/// The game's end after a deal bid by `bidding`, if a side has `target` (S003 rules 1–2).
pub fn game_end(scores: &PerSide<i64>, target: i64, bidding: Side) -> Option<GameEnd> {
    match target_reached(scores, target) {
        TargetReached::Neither => None,
        TargetReached::One(winner) => Some(GameEnd {
            winner,
            decided_by: "target",
        }),
        TargetReached::Both => Some(GameEnd {
            winner: bidding,
            decided_by: "both_out_bidder_wins",
        }),
    }
}

/// The money for a game's checks (S003: more checks "is paid off for the difference").
/// `order` starts left of the last dealer.
///
/// * `per_player` (default [R]): each loser pays his opposite number difference × stake.
/// * `per_partnership`: difference × stake once, half per player; the first loser pays
///   the first winner the odd cent.
///
/// Errors (`agreements.stake`): an amount beyond what money holds.
pub fn pay_checks(
    agreements: &Agreements,
    seating: &Seating,
    order: &[&str],
    checks: &PerSide<i64>,
) -> Result<(Postings, String, Vec<Step>), RuleError> {
    let tally = format!("checks NS {}, EW {}", checks.ns, checks.ew);
    if checks.ns == checks.ew {
        let nothing = format!("{tally}: tied, nobody pays");
        return Ok((Postings::new(), nothing, Vec::new()));
    }
    let (winners, losers) = if checks.ns > checks.ew {
        (Side::NS, Side::EW)
    } else {
        (Side::EW, Side::NS)
    };
    let difference = checks[winners] - checks[losers];
    let stake = agreements.stake;
    let amount = checks_money(difference, stake)?;
    if amount.is_zero() {
        return Ok((
            Postings::new(),
            format!(
                "{tally}: {} ahead by {difference}; no stake, points only",
                winners.name()
            ),
            Vec::new(),
        ));
    }
    let head = format!(
        "{tally}: {} pay the difference {difference} × {stake}",
        losers.name()
    );
    let mut steps = vec![
        Step::Score {
            who: winners.name().to_string(),
            sum: format!("{} − {} checks", checks[winners], checks[losers]),
            total: difference,
            tally: Tally::Checks,
        },
        Step::Stake {
            amount: stake,
            per: "check".into(),
        },
    ];
    let why = format!("{difference} checks × {stake}");
    let mut postings = Postings::new();
    let paid = match agreements.settlement {
        Settlement::PerPlayer => {
            let paid = per_player(seating, losers, amount, &why, (&mut postings, &mut steps));
            format!("{head} each: {}", paid.join(", "))
        }
        Settlement::PerPartnership => {
            let pays = equal_shares(amount, &side_order(seating, order, losers));
            let gets = equal_shares(amount, &side_order(seating, order, winners));
            steps.push(Step::shares(amount, &pays));
            let paid = per_partnership(&pays, &gets, &why, (&mut postings, &mut steps));
            format!("{head} = {amount} once: {}", paid.join(", "))
        }
    };
    Ok((postings, paid, steps))
}

/// `difference` checks at `stake` (S003), within a quarter of `i64`; errors: `agreements.stake`.
fn checks_money(difference: i64, stake: Money) -> Result<Money, RuleError> {
    stake
        .cents()
        .checked_mul(difference)
        .filter(|c| c.abs() <= i64::MAX / 4)
        .map(Money::from_cents)
        .ok_or_else(|| {
            RuleError::new(
                "agreements.stake",
                format!("{difference} checks × {stake} is more money than the ledger can hold"),
            )
        })
}

/// The members of `side` in `order`, for the odd cent (session-format "Precise readings").
fn side_order<'a>(seating: &'a Seating, order: &[&'a str], side: Side) -> Vec<&'a str> {
    let members = seating.members(side);
    let v: Vec<&str> = order
        .iter()
        .copied()
        .filter(|p| members.contains(p))
        .collect();
    if v.len() != 2 {
        return members.to_vec();
    }
    v
}

/// `per_partnership` (rules §1.7): each `pays` share to the same place in `gets`.
fn per_partnership(
    pays: &[(&str, Money)],
    gets: &[(&str, Money)],
    why: &str,
    (postings, steps): (&mut Postings, &mut Vec<Step>),
) -> Vec<String> {
    let mut paid = Vec::new();
    for ((from, share), (to, _)) in pays.iter().zip(gets) {
        postings.transfer(from, to, *share);
        paid.push(format!("{from} pays {to} {share}"));
        steps.push(Step::Pays {
            from: from.to_string(),
            to: to.to_string(),
            amount: *share,
            why: format!("half of {why}"),
        });
    }
    paid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::sum;
    use crate::rules::typed::TableAgreements;
    use serde_json::json;

    fn seating() -> Seating {
        Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap()
    }

    fn agreements(stake: &str, settlement: &str) -> Agreements {
        Agreements::read(
            json!({"stake": stake, "settlement": settlement})
                .as_object()
                .unwrap(),
        )
        .unwrap()
    }

    fn nets(p: &Postings) -> Vec<i64> {
        ["N", "E", "S", "W"].map(|x| p.net(x).cents()).to_vec()
    }

    #[test]
    fn the_game_ends_at_the_target_and_the_bidders_win_a_tie() {
        let end = |ns, ew, bidding| game_end(&PerSide::new(ns, ew), 1000, bidding);
        assert_eq!(end(990, 400, Side::NS), None);
        assert_eq!(end(1000, 400, Side::EW).unwrap().winner, Side::NS);
        assert_eq!(end(1000, 400, Side::EW).unwrap().decided_by, "target");
        let both = end(1060, 1090, Side::NS).unwrap();
        assert_eq!(both.winner, Side::NS);
        assert_eq!(both.decided_by, "both_out_bidder_wins");
        assert_eq!(end(1090, 1060, Side::EW).unwrap().winner, Side::EW);
    }

    #[test]
    fn per_player_each_loser_pays_his_opposite_number() {
        let a = agreements("0.05", "per_player");
        let order = ["N", "E", "S", "W"];
        let (p, why, _) = pay_checks(&a, &seating(), &order, &PerSide::new(46, 31)).unwrap();
        assert_eq!(nets(&p), vec![75, -75, 75, -75]);
        assert!(why.contains("E pays N 0.75, W pays S 0.75"), "{why}");
        let (p, _, _) = pay_checks(&a, &seating(), &order, &PerSide::new(3, 10)).unwrap();
        assert_eq!(nets(&p), vec![-35, 35, -35, 35]);
    }

    #[test]
    fn per_partnership_pays_the_difference_once() {
        let a = agreements("0.10", "per_partnership");
        let order = ["N", "E", "S", "W"];
        let (p, _, _) = pay_checks(&a, &seating(), &order, &PerSide::new(46, 31)).unwrap();
        assert_eq!(nets(&p), vec![75, -75, 75, -75]);
        // 3 × 0.05 = 0.15: the odd cent goes with the first players left of the dealer.
        let a = agreements("0.05", "per_partnership");
        let left_of_w = ["N", "E", "S", "W"];
        let (p, _, _) = pay_checks(&a, &seating(), &left_of_w, &PerSide::new(10, 7)).unwrap();
        assert_eq!(nets(&p), vec![8, -8, 7, -7]);
        let left_of_n = ["E", "S", "W", "N"];
        let (p, why, steps) = pay_checks(&a, &seating(), &left_of_n, &PerSide::new(10, 7)).unwrap();
        assert_eq!(nets(&p), vec![7, -8, 8, -7]);
        assert_eq!(sum(&p.into_vec()), Money::ZERO);
        assert!(why.contains("0.15 once"), "{why}");
        // The steps say who paid the odd cent: E, first of EW left of the dealer N.
        assert!(steps.contains(&Step::Shares {
            total: Money::from_cents(15),
            shares: vec![
                ("E".into(), Money::from_cents(8)),
                ("W".into(), Money::from_cents(7))
            ],
            odd_cents: vec!["E".into()],
        }));
        assert!(steps.contains(&Step::Stake {
            amount: Money::from_cents(5),
            per: "check".into()
        }));
    }

    #[test]
    fn ties_and_zero_stakes_pay_nothing() {
        let a = agreements("0.05", "per_player");
        let order = ["N", "E", "S", "W"];
        let (p, why, _) = pay_checks(&a, &seating(), &order, &PerSide::new(12, 12)).unwrap();
        assert!(p.into_vec().is_empty());
        assert!(why.contains("tied"));
        let a = agreements("0.00", "per_partnership");
        let (p, why, _) = pay_checks(&a, &seating(), &order, &PerSide::new(20, 12)).unwrap();
        assert!(p.into_vec().is_empty());
        assert!(why.contains("points only"), "{why}");
    }

    #[test]
    fn absurd_amounts_are_refused_not_overflowed() {
        let a = agreements("10000000000.00", "per_player");
        let order = ["N", "E", "S", "W"];
        let e = pay_checks(&a, &seating(), &order, &PerSide::new(i64::MAX / 2, 0)).unwrap_err();
        assert_eq!(e.field, "agreements.stake");
    }
}
