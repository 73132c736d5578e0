//! Contract Pinochle's table agreements (rules §1.8, §3 item 28; session-format
//! `contract_pinochle`). Unknown fields are refused by name.
//!
//! ```json
//! { "stake": "0.25",                     // money per game won (default "0.00": points only)
//!   "target": 3000,                      // points that win a game (S003)
//!   "double_survives_overcall": false }  // rules §3 item 28 [R]
//! ```

use serde::Deserialize;

use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements, points_within};

/// The largest target accepted, in points: far beyond S003's 3,000, far from overflow.
pub const MAX_TARGET: i64 = 1_000_000;

/// Every agreement of a Contract Pinochle session, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreements {
    /// Money per game won, in cents, paid by each loser to his opposite number (session-format).
    pub stake: Money,
    /// Points that win a game: the first side to reach it (3,000, rules §1.8, S003).
    pub target: i64,
    /// Rules §3 item 28: a double survives the doubled side's overcall (default false [R]).
    pub double_survives_overcall: bool,
}

fn three_thousand() -> i64 {
    3000
}

/// The agreements as the session document writes them, each missing one at its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    #[serde(default)]
    stake: Stake,
    #[serde(default = "three_thousand")]
    target: i64,
    #[serde(default)]
    double_survives_overcall: bool,
}

/// Errors name `agreements.target` outside 1–[`MAX_TARGET`].
impl TableAgreements for Agreements {
    type Written = Written;

    fn check(w: Written) -> Result<Agreements, RuleError> {
        points_within("target", w.target, MAX_TARGET, "", None)?;
        Ok(Agreements {
            stake: w.stake.money(),
            target: w.target,
            double_survives_overcall: w.double_survives_overcall,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    crate::rules::typed::agreement_tests!(Agreements);

    #[test]
    fn defaults_are_scarnes_game_and_no_surviving_double() {
        let a = read(json!({})).unwrap();
        assert_eq!(a.stake, Money::ZERO);
        assert_eq!(a.target, 3000);
        assert!(!a.double_survives_overcall);
        let a = read(json!({"stake": "0.25", "target": 2000, "double_survives_overcall": true}))
            .unwrap();
        assert_eq!(a.stake.cents(), 25);
        assert_eq!(a.target, 2000);
        assert!(a.double_survives_overcall);
    }

    #[test]
    fn bad_agreements_are_refused_by_name() {
        assert_eq!(
            read(json!({"stake": "-0.05"})).unwrap_err().field,
            "agreements.stake"
        );
        assert_eq!(
            read(json!({"target": 0})).unwrap_err().field,
            "agreements.target"
        );
        assert_eq!(
            read(json!({"traget": 3000})).unwrap_err().field,
            "agreements.traget"
        );
        assert_eq!(
            read(json!({"stake": 0.05})).unwrap_err().field,
            "agreements.stake"
        );
    }
}
