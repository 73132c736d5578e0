//! What the pitcher needs to make the bid in Auction Pitch, for the hand form's what-if
//! preview ([`crate::rules::to_make`]).

use std::collections::HashMap;

use crate::rules::to_make::contract;

/// The points the pitcher wins must reach the bid, else the pitcher is set back the bid
/// (rules §1.4): "Cy needs 3 of the 4 points (high, low, jack, game) to make 3; short of
/// that, Cy is set back 3", the pitcher read from the form's `pitcher`. `None` when no
/// pitcher and bid are given yet. `seated` is not needed: the pitcher plays alone.
pub fn to_make(values: &HashMap<String, String>, _seated: &[String]) -> Option<String> {
    let (bidder, bid) = contract(values, "pitcher")?;
    Some(format!(
        "{bidder} needs {bid} of the 4 points (high, low, jack, game) to make {bid}; \
         short of that, {bidder} is set back {bid}"
    ))
}
