//! The end of a Partnership Pinochle game and its money (rules §1.5, S002; session-format).

use crate::rules::partnership::{PerSide, Side, TargetReached, target_reached};

/// What the scores after a deal mean for the game in progress (rules §1.5 "Game").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterDeal {
    /// Nobody has reached the target: play on.
    PlayOn,
    /// Exactly one side reached the target: it wins the game.
    Won(Side),
    /// Both reached the target on one deal: play on to the raised target ([`after_deal`]).
    Raised {
        /// The target in force from now on, in points.
        target: i64,
    },
}

/// Reads the scores after a deal against the target. `None` if raising it would overflow
/// (the caller refuses the deal).
///
/// With both at or over the target, it rises to the first `target + k × step` the lower
/// score has not reached (S002 "continues to 1,250 points, and if it happens again, to
/// 1,500"; as rules §1.9): a target both already hold could never be won. Nobody wins on
/// that deal; the next decides.
pub fn after_deal(scores: &PerSide<i64>, target: i64, step: i64) -> Option<AfterDeal> {
    Some(match target_reached(scores, target) {
        TargetReached::Neither => AfterDeal::PlayOn,
        TargetReached::One(side) => AfterDeal::Won(side),
        TargetReached::Both => AfterDeal::Raised {
            target: raised_target(scores.ns.min(scores.ew), target, step)?,
        },
    })
}

/// The first `target + k × step` above `lower` (rules §1.5, S002); `None` on overflow.
pub fn raised_target(lower: i64, target: i64, step: i64) -> Option<i64> {
    if step <= 0 {
        return None;
    }
    let steps = lower
        .checked_sub(target)?
        .checked_div(step)?
        .checked_add(1)?;
    steps.checked_mul(step)?.checked_add(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_side_at_the_target_wins_and_both_raise_it() {
        let at = |ns, ew, target| after_deal(&PerSide::new(ns, ew), target, 250).unwrap();
        assert_eq!(at(990, 400, 1000), AfterDeal::PlayOn);
        assert_eq!(at(1000, 990, 1000), AfterDeal::Won(Side::NS));
        assert_eq!(at(700, 1010, 1000), AfterDeal::Won(Side::EW));
        // Rules §1.5: both at 1,000 or more on one deal → the game goes on to 1,250, then 1,500.
        assert_eq!(at(1050, 1050, 1000), AfterDeal::Raised { target: 1250 });
        assert_eq!(at(1240, 1100, 1250), AfterDeal::PlayOn);
        assert_eq!(at(1300, 1260, 1250), AfterDeal::Raised { target: 1500 });
        // Both past 1,250 on the deal that reached 1,000: straight on to 1,500; both past
        // 1,500: 1,750. One alone past the raised target does not win on this deal.
        assert_eq!(at(1300, 1260, 1000), AfterDeal::Raised { target: 1500 });
        assert_eq!(at(1600, 1520, 1000), AfterDeal::Raised { target: 1750 });
        assert_eq!(at(1300, 1000, 1000), AfterDeal::Raised { target: 1250 });
        assert_eq!(after_deal(&PerSide::new(5, 5), 1, i64::MAX), None);
    }
}
