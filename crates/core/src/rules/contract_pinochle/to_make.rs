//! Contract Pinochle's "to make" sentence ([`crate::rules::to_make`]).

use std::collections::HashMap;

use crate::rules::to_make::{contract, given, members, side_of};

/// What the bidder's side needs (rules §1.8): "Ann & Cy (NS) need 300 in meld and tricks to
/// make 300: made, they score 1,200; set, their opponents score 1,200".
pub fn to_make(values: &HashMap<String, String>, seated: &[String]) -> Option<String> {
    let (bidder, bid) = contract(values, "bidder")?;
    let side = side_of(seated, bidder)?;
    let who = members(seated, side);
    let times = match given(values, "doubled") {
        Some("doubled") => 2,
        Some("redoubled") => 4,
        _ => 1,
    };
    let worth = crate::rules::sheet::points(bid.checked_mul(times)?);
    Some(format!(
        "{who} need {bid} in meld and tricks to make {bid}: made, they score {worth}; \
         set, their opponents score {worth}"
    ))
}
