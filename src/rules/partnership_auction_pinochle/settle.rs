//! The end of a game and its money (rules §1.6 "First to 1,000; bidding side's score is
//! counted first so both sides can never win together"; session-format "Money in the
//! partnership games"). Pure.

use crate::ledger::Postings;
use crate::money::Money;
use crate::rules::Step;
use crate::rules::partnership::{PerSide, Seating, Side};

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct End {
    /// The side that won the game.
    pub winner: Side,
    /// `"target"`: only the winners reached the target; `"bidders_counted_first"`: the
    /// bidding side reached it and wins whatever the opponents have, because its score is
    /// counted first (BIC-PAP).
    pub decided_by: &'static str,
}

/// The end of the game after a deal bid by `bidding`, given the scores after the deal
/// (points), if any side has `target` or more. The bidding side is counted first: if it
/// reached the target it wins, even when the opponents are also there (and even with fewer
/// points); otherwise the opponents win if they reached it (BIC-PAP, rules §1.6).
pub fn game_end(scores: &PerSide<i64>, target: i64, bidding: Side) -> Option<End> {
    let opponents = bidding.other();
    if scores[bidding] >= target {
        let decided_by = if scores[opponents] >= target {
            "bidders_counted_first"
        } else {
            "target"
        };
        return Some(End {
            winner: bidding,
            decided_by,
        });
    }
    (scores[opponents] >= target).then_some(End {
        winner: opponents,
        decided_by: "target",
    })
}

/// The money of a finished game: each player of the losing side pays `stake` to his opposite
/// number on the winning side (seat 1 with seat 2, seat 3 with seat 4:
/// [`Seating::opposite_number`]; session-format "Money in the partnership games"). Returns
/// the postings (summing to zero by construction), the words, and the same as steps (the
/// stake per game, then each payment); a zero stake pays nothing.
pub fn pay_game(seating: &Seating, winner: Side, stake: Money) -> (Postings, String, Vec<Step>) {
    let mut postings = Postings::new();
    if stake.is_zero() {
        return (postings, "no stake: points only".to_string(), Vec::new());
    }
    let mut paid = Vec::new();
    let mut steps = vec![Step::Stake {
        amount: stake,
        per: "game won".into(),
    }];
    for loser in seating.members(winner.other()) {
        let to = seating.opposite_number(loser).unwrap_or(loser);
        postings.transfer(loser, to, stake);
        paid.push(format!("{loser} pays {to} {stake}"));
        steps.push(Step::Pays {
            from: loser.to_string(),
            to: to.to_string(),
            amount: stake,
            why: format!("the game, to his opposite number on {}", winner.name()),
        });
    }
    (
        postings,
        format!("{} a game each: {}", stake, paid.join(", ")),
        steps,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::sum;

    #[test]
    fn the_bidding_side_is_counted_first() {
        let end = |ns, ew, bidding| game_end(&PerSide::new(ns, ew), 1000, bidding);
        assert_eq!(end(990, 400, Side::NS), None);
        // EW bid and fall short, NS reach 1,000 on their own points: NS win.
        assert_eq!(
            end(1000, 700, Side::EW),
            Some(End {
                winner: Side::NS,
                decided_by: "target"
            })
        );
        // Both past 1,000: the bidders win even with less (1,010 against 1,090).
        assert_eq!(
            end(1010, 1090, Side::NS),
            Some(End {
                winner: Side::NS,
                decided_by: "bidders_counted_first"
            })
        );
        // Both past, EW bid: EW win though NS have more.
        assert_eq!(end(1200, 1000, Side::EW).unwrap().winner, Side::EW);
        // The bidders short of the target, the opponents past it: the opponents win.
        assert_eq!(end(960, 1040, Side::NS).unwrap().winner, Side::EW);
    }

    #[test]
    fn each_loser_pays_his_opposite_number_the_stake() {
        let s = Seating::new(&["N", "E", "S", "W"].map(String::from)).unwrap();
        let (p, why, steps) = pay_game(&s, Side::NS, Money::from_cents(25));
        assert_eq!(
            ["N", "E", "S", "W"].map(|x| p.net(x).cents()),
            [25, -25, 25, -25]
        );
        // The steps: 0.25 a game, then E → N and W → S, which is every cent posted.
        assert_eq!(steps.len(), 3);
        assert!(matches!(&steps[1], Step::Pays { from, to, amount, .. }
            if from == "E" && to == "N" && amount.cents() == 25));
        assert!(matches!(&steps[2], Step::Pays { from, to, .. } if from == "W" && to == "S"));
        assert!(why.contains("E pays N 0.25, W pays S 0.25"), "{why}");
        let (p, why, _) = pay_game(&s, Side::EW, Money::from_cents(100));
        assert!(why.contains("N pays E 1.00, S pays W 1.00"), "{why}");
        assert_eq!(sum(&p.into_vec()), Money::ZERO);
        let (p, _, steps) = pay_game(&s, Side::EW, Money::ZERO);
        assert!(p.into_vec().is_empty());
        assert!(steps.is_empty());
    }
}
