//! Auction Pinochle's "to make" sentence ([`crate::rules::to_make`]).

use std::collections::HashMap;

use crate::rules::to_make::{contract, in_play, number};

/// Meld and counters must reach the bid (rules §1.1): "Ann needs 92 in counters to make 400".
pub fn to_make(values: &HashMap<String, String>, _seated: &[String]) -> Option<String> {
    let (bidder, bid) = contract(values, "bidder")?;
    Some(in_play(
        bidder,
        "needs",
        "counters",
        bid,
        number(values, "meld"),
    ))
}
