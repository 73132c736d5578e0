//! The table agreements of a Two-handed Pinochle session (rules §1.9, §3 item 29), named as
//! `docs/session-format.md` names them: `stake`, `mode`, `target`, `target_step`,
//! `round_partial_count_on_declare_out`. Unknown agreements are refused (usually typos).

use serde::Deserialize;

use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements, points_within, thousand, two_fifty, yes};

/// How a game is counted (`mode`; rules §1.9 "Game", S004).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A match to `target` (1,000) over a series of deals; when both players reach the
    /// target after a deal the game goes on to `target + target_step` (1,250), and so on.
    #[default]
    Match,
    /// Every deal is a game: the higher total wins; equal totals are a draw (rules §3 item
    /// 29, [R]: S004 gives no tie rule).
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

/// The largest target or step accepted, in points: far beyond any real game (S004 plays to
/// 1,000), small enough that scores stay far from overflow.
pub const MAX_TARGET: i64 = 1_000_000;

/// Every agreement of a Two-handed Pinochle session, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreements {
    /// Money per game won, in cents: the loser pays it to the winner; a drawn single deal
    /// pays nothing (session-format). Zero plays for points only.
    pub stake: Money,
    /// Match to a target, or every deal a game.
    pub mode: Mode,
    /// The score that wins a match game, in points (S004: 1,000).
    pub target: i64,
    /// How far the game goes on when both players reach the target after the same deal, in
    /// points (S004: 1,000 → 1,250 → 1,500).
    pub target_step: i64,
    /// Rules §3 item 29 ([R] default true): a declare-out's partial trick count is rounded
    /// by the same 7-or-more rule as a full count.
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

/// Read ([`TableAgreements::read`]) from the `agreements` object of a session document; a missing field takes its
/// default (`stake` "0.00", `mode` "match", `target` 1000, `target_step` 250,
/// `round_partial_count_on_declare_out` true). In `single_deal` mode the match
/// agreements are accepted and not used. Errors name the field (`agreements.target`): a
/// negative stake, a target or step outside 1–[`MAX_TARGET`], an unknown mode or field.
impl TableAgreements for Agreements {
    type Written = Written;

    /// Checks the written agreements against the rules; errors name the agreement bare
    /// ([`TableAgreements::read`] puts `agreements.` before it), the stake is checked as it is
    /// read ([`Stake`]).
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
