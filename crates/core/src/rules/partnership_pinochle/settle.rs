//! The end of a Partnership Pinochle game and its money (rules §1.5 "Game" and "Declaring
//! out", S002; session-format "Money in the partnership games"). Pure.

use crate::rules::partnership::{PerSide, Side, TargetReached, target_reached};

/// What the scores after a deal mean for the game in progress (rules §1.5 "Game").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterDeal {
    /// Nobody has reached the target: play on.
    PlayOn,
    /// Exactly one side reached the target: it wins the game.
    Won(Side),
    /// Both sides reached the target on the same deal: nobody wins yet and the game goes on
    /// to the target raised by the step (1,000 → 1,250 → 1,500 …, S002), as many steps as
    /// it takes for the target to be above the lower score (see [`after_deal`]).
    Raised {
        /// The target in force from now on, in points.
        target: i64,
    },
}

/// Reads the scores after a deal against the target in force. `None` when raising the
/// target would overflow (no real sheet comes near; the caller refuses the deal).
///
/// When both sides are at or over the target, the raised target is the first
/// `target + k × step` that the lower score has not reached: S002 says the game "continues
/// to 1,250 points, and if it happens again, to 1,500", and a deal that leaves both sides
/// at 1,300 and 1,260 with the target at 1,000 has made it happen for 1,250 as well, so the
/// game goes on to 1,500 (the same reading as Two-handed Pinochle, rules §1.9 "Game"). A
/// game played to 1,250 while both already hold it could never be won by reaching it.
/// Nobody wins on that deal, even a side that alone holds the raised target ("the game
/// continues"): the next deal decides.
pub fn after_deal(scores: &PerSide<i64>, target: i64, step: i64) -> Option<AfterDeal> {
    Some(match target_reached(scores, target) {
        TargetReached::Neither => AfterDeal::PlayOn,
        TargetReached::One(side) => AfterDeal::Won(side),
        TargetReached::Both => AfterDeal::Raised {
            target: raised_target(scores.ns.min(scores.ew), target, step)?,
        },
    })
}

/// The first `target + k × step` (k ≥ 1) above `lower`, the lower of two scores that both
/// reached `target` (rules §1.5 "Game", S002: +250 each time both sides are there). `None`
/// on overflow or a step that is not positive.
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
