//! Auction Pitch's "to make" sentence ([`crate::rules::to_make`]).

use std::collections::HashMap;

use crate::rules::to_make::contract;

/// The pitcher must win the bid's points or be set back (rules §1.4): "Cy needs 3 of the 4…".
pub fn to_make(values: &HashMap<String, String>, _seated: &[String]) -> Option<String> {
    let (bidder, bid) = contract(values, "pitcher")?;
    Some(format!(
        "{bidder} needs {bid} of the 4 points (high, low, jack, game) to make {bid}; \
         short of that, {bidder} is set back {bid}"
    ))
}
