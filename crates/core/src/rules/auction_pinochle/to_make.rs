//! What the bidder needs to make the contract in Auction Pinochle, for the hand form's
//! what-if preview ([`crate::rules::to_make`]).

use std::collections::HashMap;

use crate::rules::to_make::{contract, in_play, number};

/// The bidder's meld and counters must reach the bid (rules §1.1): "Ann needs 92 in
/// counters to make 400 (meld 308)", the meld read from the form's `meld`. `None` when
/// the hand was all passed or no bidder and bid are given yet. `seated` is not needed: the
/// bidder plays alone.
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
