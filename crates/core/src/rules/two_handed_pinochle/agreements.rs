//! Two-handed Pinochle's table agreements (rules §1.9, §3 item 29; session-format).
//! Unknown agreements are refused.

use serde::Deserialize;

use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements, points_within, thousand, two_fifty, yes};

/// How a game is counted (`mode`; rules §1.9 "Game", S004).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A match to `target`; both reaching it after a deal raise it by `target_step`.
    #[default]
    Match,
    /// Every deal is a game: the higher total wins; equal is a draw (rules §3 item 29 [R]).
    SingleDeal,
}

impl Mode {
    /// The id used in documents (`"single_deal"`).
    pub fn id(self) -> &'static str {
        match self {
            Mode::Match => "match",
            Mode::SingleDeal => "single_deal",
        }
    }
}

/// The largest target or step accepted, in points: far beyond S004's 1,000, far from overflow.
pub const MAX_TARGET: i64 = 1_000_000;

/// Every agreement of a Two-handed Pinochle session, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreements {
    /// Money per game won, in cents, paid by the loser; a draw pays nothing.
    pub stake: Money,
    /// Match to a target, or every deal a game.
    pub mode: Mode,
    /// The score that wins a match game, in points (S004: 1,000).
    pub target: i64,
    /// How far the target rises when both reach it after one deal, in points (S004: 250).
    pub target_step: i64,
    /// Rules §3 item 29 ([R] default true): a declare-out's partial count is rounded.
    pub round_partial_count: bool,
}

/// The agreements as the session document writes them, each missing one at its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    #[serde(default)]
    stake: Stake,
    #[serde(default)]
    mode: Mode,
    #[serde(default = "thousand")]
    target: i64,
    #[serde(default = "two_fifty")]
    target_step: i64,
    #[serde(default = "yes")]
    round_partial_count_on_declare_out: bool,
}

/// Defaults: `stake` "0.00", `mode` "match", `target` 1000, `target_step` 250,
/// `round_partial_count_on_declare_out` true; `single_deal` ignores the match ones. Errors
/// name the field (`agreements.target`).
impl TableAgreements for Agreements {
    type Written = Written;

    fn check(w: Written) -> Result<Agreements, RuleError> {
        let (target, step) = (w.target, w.target_step);
        points_within(
            "target",
            target,
            MAX_TARGET,
            "",
            Some("S004 plays to 1,000"),
        )?;
        let goes_on = " (the game goes on by 250)";
        points_within("target_step", step, MAX_TARGET, goes_on, Some("S004"))?;
        Ok(Agreements {
            stake: w.stake.money(),
            mode: w.mode,
            target: w.target,
            target_step: w.target_step,
            round_partial_count: w.round_partial_count_on_declare_out,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    crate::rules::typed::agreement_tests!(Agreements);

    #[test]
    fn defaults_follow_the_session_format() {
        let a = read(json!({})).unwrap();
        assert_eq!(a.stake, Money::ZERO);
        assert_eq!(a.mode, Mode::Match);
        assert_eq!((a.target, a.target_step), (1000, 250));
        assert!(a.round_partial_count);
    }

    #[test]
    fn every_option_is_read() {
        let a = read(json!({
            "stake": "0.50", "mode": "single_deal", "target": 1500, "target_step": 500,
            "round_partial_count_on_declare_out": false
        }))
        .unwrap();
        assert_eq!(a.stake, Money::from_cents(50));
        assert_eq!(a.mode, Mode::SingleDeal);
        assert_eq!((a.target, a.target_step), (1500, 500));
        assert!(!a.round_partial_count);
    }

    #[test]
    fn refusals_name_the_agreement() {
        assert_eq!(field(json!({"stake": "-0.05"})), "agreements.stake");
        assert_eq!(field(json!({"stake": 0.5})), "agreements.stake");
        assert_eq!(field(json!({"mode": "rubber"})), "agreements.mode");
        assert_eq!(field(json!({"target": 0})), "agreements.target");
        assert_eq!(field(json!({"target": 2_000_000})), "agreements.target");
        assert_eq!(field(json!({"target_step": 0})), "agreements.target_step");
        assert_eq!(
            field(json!({"target_step": -250})),
            "agreements.target_step"
        );
        assert_eq!(
            field(json!({"round_partial_count_on_declare_out": "yes"})),
            "agreements.round_partial_count_on_declare_out"
        );
        assert_eq!(field(json!({"min_bid": 250})), "agreements.min_bid");
    }
}
