//! The end of a Partnership Auction Pinochle game and its money (rules §1.6;
//! session-format). Pure.

use crate::rules::partnership::{PerSide, Side};

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct End {
    /// The side that won the game.
    pub winner: Side,
    /// `"target"`, or `"bidders_counted_first"`: the bidders win even behind (BIC-PAP).
    pub decided_by: &'static str,
}

/// The game's end after a deal bid by `bidding`: the bidders counted first (BIC-PAP, §1.6).
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
