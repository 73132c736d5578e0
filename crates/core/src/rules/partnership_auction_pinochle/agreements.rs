//! Partnership Auction Pinochle's table agreements (rules §1.6, §3 item 27; session-format
//! `partnership_auction_pinochle`). Unknown fields are refused by name.
//!
//! ```json
//! { "stake": "0.25",     // money per game won, paid by each loser to his opposite number
//!   "aeroplane": false,  // true: Scarne's Aeroplane, minimum 250 and at most two bids each
//!   "min_bid": 100,      // default 100, or 250 with aeroplane
//!   "target": 1000 }     // points that win a game (rules §3 item 27)
//! ```

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements, points_within, read_agreements};

/// The lowest bid of the base game, in points (BIC-PAP, rules §1.6).
pub const BASE_MIN_BID: i64 = 100;

/// The lowest bid with Aeroplane, in points (S003 additional rule 2, rules §1.6).
pub const AEROPLANE_MIN_BID: i64 = 250;

/// The most bids one player may make in one auction with Aeroplane (S003 additional rule 1).
pub const AEROPLANE_BIDS_EACH: usize = 2;

/// The default target, in points (BIC-PAP "first to 1,000"; rules §3 item 27).
pub const DEFAULT_TARGET: i64 = 1000;

/// The largest target or minimum bid accepted, in points: far from overflow.
pub const MAX_POINTS: i64 = 1_000_000;

/// Every agreement of a session, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreements {
    /// Money per game won, in cents, paid by each loser to his opposite number.
    pub stake: Money,
    /// Scarne's Partnership Aeroplane Pinochle (S003): at most two bids each in an auction.
    pub aeroplane: bool,
    /// The lowest bid, in points, a multiple of 10.
    pub min_bid: i64,
    /// Points that win a game.
    pub target: i64,
}

/// The agreements as the session document writes them, each missing one at its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    #[serde(default)]
    stake: Stake,
    #[serde(default)]
    aeroplane: bool,
    min_bid: Option<i64>,
    target: Option<i64>,
}

impl TableAgreements for Agreements {
    type Written = Written;

    fn check(w: Written) -> Result<Agreements, RuleError> {
        let fail = |field: &str, message: String| RuleError::new(field, message);
        let default_min = if w.aeroplane {
            AEROPLANE_MIN_BID
        } else {
            BASE_MIN_BID
        };
        let min_bid = w.min_bid.unwrap_or(default_min);
        if !(10..=MAX_POINTS).contains(&min_bid) || min_bid % 10 != 0 {
            return Err(fail(
                "min_bid",
                format!(
                    "{min_bid} is not a bid: bids are multiples of 10 from 10 up to {MAX_POINTS}"
                ),
            )
            .rule("rules §0.3, §1.6"));
        }
        let target = w.target.unwrap_or(DEFAULT_TARGET);
        points_within("target", target, MAX_POINTS, "", None)?;
        Ok(Agreements {
            stake: w.stake.money(),
            aeroplane: w.aeroplane,
            min_bid,
            target,
        })
    }
}

impl Agreements {
    /// Reads the `agreements` object. Errors name the field: `min_bid` not a positive
    /// multiple of 10 (rules §0.3), `target` out of range. `min_bid` beats Aeroplane's 250.
    pub fn read(object: &Map<String, Value>) -> Result<Agreements, RuleError> {
        read_agreements(object)
    }

    /// The most bids per player in one auction: two with Aeroplane (S003), else no limit.
    pub fn bids_each(&self) -> Option<usize> {
        self.aeroplane.then_some(AEROPLANE_BIDS_EACH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    crate::rules::typed::agreement_tests!(Agreements);

    #[test]
    fn defaults_follow_the_game_chosen() {
        // BIC-PAP: minimum 100, game 1,000, no stake.
        let a = read(json!({})).unwrap();
        assert_eq!((a.min_bid, a.target, a.stake), (100, 1000, Money::ZERO));
        assert!(!a.aeroplane);
        assert_eq!(a.bids_each(), None);
        // Aeroplane (S003 rules 1–2): minimum 250, two bids each.
        let a = read(json!({"aeroplane": true, "stake": "0.25"})).unwrap();
        assert_eq!((a.min_bid, a.target), (250, 1000));
        assert_eq!(a.stake, Money::from_cents(25));
        assert_eq!(a.bids_each(), Some(2));
        // The table's own minimum wins over either default.
        assert_eq!(
            read(json!({"aeroplane": true, "min_bid": 300}))
                .unwrap()
                .min_bid,
            300
        );
        assert_eq!(
            read(json!({"min_bid": 200, "target": 1500}))
                .unwrap()
                .target,
            1500
        );
    }

    #[test]
    fn refusals_name_the_agreement() {
        let field = |v| read(v).unwrap_err().field;
        assert_eq!(field(json!({"min_bid": 105})), "agreements.min_bid");
        assert_eq!(field(json!({"min_bid": 0})), "agreements.min_bid");
        assert_eq!(field(json!({"target": 0})), "agreements.target");
        assert_eq!(field(json!({"stake": "-0.05"})), "agreements.stake");
        assert_eq!(field(json!({"aeroplane": "yes"})), "agreements.aeroplane");
        assert_eq!(field(json!({"target_step": 250})), "agreements.target_step");
    }
}
