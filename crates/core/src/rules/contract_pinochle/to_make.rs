//! What the contracting side needs to make the contract in Contract Pinochle, for the
//! hand form's what-if preview ([`crate::rules::to_make`]).

use std::collections::HashMap;

use crate::rules::to_make::{contract, given, members, side_of};

/// The contracting side's melds and tricks must reach the bid, and only one side scores:
/// the bid × 1, 2 or 4 as the form's `doubled` says (rules §1.8): "Ann & Cy (NS) need 300
/// in meld and tricks to make 300: made, they score 1,200; set, their opponents score
/// 1,200". The side is the bidder's among the four `seated` clockwise. `None` when the
/// hand was all passed, no bidder and bid are given yet, or the bidder is not seated.
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
