//! The head of a partnership contract (dealer, bidder, bid, trump), checked alike by
//! Contract Pinochle (rules §1.8) and Partnership Auction Pinochle (rules §1.6), each in
//! its own words ([`Asks`]).

use crate::rules::partnership::{Seating, Side};
use crate::rules::{RuleError, Suit};

/// A contract's head, checked: who bid, his side, the bid in points and trump.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// Who won the auction (seated).
    pub bidder: String,
    /// The bidder's partnership: the contracting side.
    pub side: Side,
    /// The bid, in points, as the game's own bid check accepted it.
    pub bid: i64,
    /// The trump named with it.
    pub trump: Suit,
}

/// One game's refusals for a missing bidder, bid or trump (its words and rules differ).
pub struct Asks {
    /// The rule cited when the bidder is missing (`"rules §1.8"`).
    pub bidder_rule: &'static str,
    /// The refusal of a missing `bid`.
    pub bid: fn() -> RuleError,
    /// The refusal of a missing `trump`.
    pub trump: fn() -> RuleError,
}

/// Refuses a `dealer` not seated (he calls or leads first: rules §1.6, §1.8), naming `dealer`.
pub fn seated_dealer(dealer: &str, seating: &Seating) -> Result<(), RuleError> {
    if seating.seat_of(dealer).is_none() {
        return Err(RuleError::new(
            "dealer",
            format!("{dealer} is not seated at this table"),
        ));
    }
    Ok(())
}

/// Checks a played deal's head: `bidder` seated, `bid` by `check_bid`, `trump` given.
pub fn head(
    bidder: Option<String>,
    bid: Option<i64>,
    trump: Option<Suit>,
    seating: &Seating,
    asks: &Asks,
    check_bid: impl FnOnce(i64) -> Result<(), RuleError>,
) -> Result<Head, RuleError> {
    let bidder = bidder.ok_or_else(|| {
        RuleError::new(
            "bidder",
            "Who won the bid? If all four passed, use the All passed button",
        )
        .rule(asks.bidder_rule)
    })?;
    let side = seating
        .side_of(&bidder)
        .ok_or_else(|| RuleError::new("bidder", format!("{bidder} is not seated at this table")))?;
    let bid = bid.ok_or_else(asks.bid)?;
    check_bid(bid)?;
    let trump = trump.ok_or_else(asks.trump)?;
    Ok(Head {
        bidder,
        side,
        bid,
        trump,
    })
}

/// "N bid 300 in hearts for NS": a contract as the sheet's words open it (rules §1.6, §1.7).
pub fn words(bidder: &str, bid: i64, trump: Suit, side: Side) -> String {
    format!("{bidder} bid {bid} in {} for {}", trump.name(), side.name())
}
