//! The table agreements of a Partnership Pinochle session (rules §1.5, §3 item 26;
//! `docs/session-format.md`, section `partnership_pinochle`):
//!
//! ```json
//! { "stake": "0.50", "target": 1000, "target_step": 250,
//!   "holder_dix_needs_trick": true, "turn_up_dix_needs_trick": false }
//! ```
//!
//! Every field is optional and takes the default shown; unknown fields are refused (they are
//! usually typos).

use serde::Deserialize;

use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements, points_within, thousand, two_fifty, yes};

/// The largest target or target step accepted, in points: far beyond any real game, small
/// enough that running scores stay far from overflow.
pub const MAX_TARGET: i64 = 1_000_000;

/// Every agreement of a Partnership Pinochle session, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreements {
    /// Money per game won, in cents: each player of the losing side pays it to his opposite
    /// number (session-format "Money in the partnership games"; S002 names no stake, rules
    /// §1.5 "Money"). Zero means a points-only session.
    pub stake: Money,
    /// Points that win a game: 1,000 (rules §1.5, S002).
    pub target: i64,
    /// Points the target rises by each time both sides reach it on the same deal: 250
    /// (1,000 → 1,250 → 1,500, rules §1.5, S002).
    pub target_step: i64,
    /// Rules §3 item 26: an original holder's dix 10 counts only if his side wins a trick,
    /// like any other meld (default true [R]).
    pub holder_dix_needs_trick: bool,
    /// Rules §3 item 26: the dealer's 10 for turning up a dix counts only if his side wins a
    /// trick (default false [R]: S002 scores it when it is turned up, before any play).
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

/// Read ([`TableAgreements::read`]) from the `agreements` object of a session document; a missing field takes its
/// default (module doc). Errors name the field (`agreements.target_step`): an unknown
/// field, a wrong type, a negative stake, or a target or step outside 1–[`MAX_TARGET`].
impl TableAgreements for Agreements {
    type Written = Written;

    /// Checks the written agreements against the rules; errors name the agreement bare
    /// ([`TableAgreements::read`] puts `agreements.` before it), the stake is checked as it is
    /// read ([`Stake`]).
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
