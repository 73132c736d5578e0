//! Partnership Pinochle's table agreements (rules §1.5, §3 item 26; session-format
//! `partnership_pinochle`), each optional at the default shown:
//!
//! ```json
//! { "stake": "0.50", "target": 1000, "target_step": 250,
//!   "holder_dix_needs_trick": true, "turn_up_dix_needs_trick": false }
//! ```

use serde::Deserialize;

use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements, points_within, thousand, two_fifty, yes};

/// The largest target or step accepted, in points: far beyond any game, far from overflow.
pub const MAX_TARGET: i64 = 1_000_000;

/// Every agreement of a Partnership Pinochle session, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreements {
    /// Money per game won, in cents, paid by each loser to his opposite number (rules §1.5).
    pub stake: Money,
    /// Points that win a game: 1,000 (rules §1.5, S002).
    pub target: i64,
    /// Points the target rises by when both sides reach it on one deal: 250 (rules §1.5, S002).
    pub target_step: i64,
    /// Rules §3 item 26: a holder's dix 10 counts only with a trick (default true [R]).
    pub holder_dix_needs_trick: bool,
    /// Rules §3 item 26: the turned-up dix counts only with a trick (default false [R], S002).
    pub turn_up_dix_needs_trick: bool,
}

/// The agreements as the session document writes them, each missing one at its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    #[serde(default)]
    stake: Stake,
    #[serde(default = "thousand")]
    target: i64,
    #[serde(default = "two_fifty")]
    target_step: i64,
    #[serde(default = "yes")]
    holder_dix_needs_trick: bool,
    #[serde(default)]
    turn_up_dix_needs_trick: bool,
}

/// Errors name the field (`agreements.target_step`) outside 1–[`MAX_TARGET`].
impl TableAgreements for Agreements {
    type Written = Written;

    fn check(w: Written) -> Result<Agreements, RuleError> {
        let rule = Some("rules §1.5");
        points_within("target", w.target, MAX_TARGET, " (1,000)", rule)?;
        let rises = ": when both sides reach the game on one deal it rises by this (250)";
        points_within("target_step", w.target_step, MAX_TARGET, rises, rule)?;
        Ok(Agreements {
            stake: w.stake.money(),
            target: w.target,
            target_step: w.target_step,
            holder_dix_needs_trick: w.holder_dix_needs_trick,
            turn_up_dix_needs_trick: w.turn_up_dix_needs_trick,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    crate::rules::typed::agreement_tests!(Agreements);

    #[test]
    fn defaults_follow_the_session_format_and_item_26() {
        let a = read(json!({})).unwrap();
        assert_eq!(a.stake, Money::ZERO);
        assert_eq!((a.target, a.target_step), (1000, 250));
        assert!(a.holder_dix_needs_trick);
        assert!(!a.turn_up_dix_needs_trick);
    }

    #[test]
    fn every_option_is_read() {
        let a = read(json!({
            "stake": "0.50", "target": 1500, "target_step": 500,
            "holder_dix_needs_trick": false, "turn_up_dix_needs_trick": true
        }))
        .unwrap();
        assert_eq!(a.stake, Money::from_cents(50));
        assert_eq!((a.target, a.target_step), (1500, 500));
        assert!(!a.holder_dix_needs_trick);
        assert!(a.turn_up_dix_needs_trick);
    }

    #[test]
    fn refusals_name_the_agreement() {
        assert_eq!(field(json!({"stake": "-0.05"})), "agreements.stake");
        assert_eq!(field(json!({"stake": 0.05})), "agreements.stake");
        assert_eq!(field(json!({"target": 0})), "agreements.target");
        assert_eq!(field(json!({"target": "1000"})), "agreements.target");
        assert_eq!(field(json!({"target_step": 0})), "agreements.target_step");
        assert_eq!(
            field(json!({"target_step": MAX_TARGET + 1})),
            "agreements.target_step"
        );
        assert_eq!(
            field(json!({"holder_dix_needs_trick": "yes"})),
            "agreements.holder_dix_needs_trick"
        );
        assert_eq!(
            field(json!({"meld_needs_trick": true})),
            "agreements.meld_needs_trick"
        );
    }
}
