//! Auction Pitch's table agreements (rules §1.4, §3 items 9–18; session-format): `stake`,
//! `target`, `variant`, `countdown_start`, `smudge_rule`, `negative_difference`,
//! `dealer_may_steal`.
//!
//! Other §3 options are not agreements, as the format refuses unknown fields: `low_to` and
//! `game_tie` (items 10–11) only change who the hand names; item 13 is always on; item 14
//! keeps its [R] default (golden PT-14); `min_bid` and `forced_dealer_bid` (item 18) would
//! contradict the fixed bid range 1–4.

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements, read_agreements};

/// Which game of the Auction Pitch family is played (`variant`; rules §1.4, §3 item 9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Scarne's Auction Pitch: scores count up from 0 to the target (S001).
    #[default]
    Standard,
    /// Smudge: all four points in one hand win the game (S001, BIC-SMUDGE; [`SmudgeRule`]).
    Smudge,
    /// Count-down: from `countdown_start` to zero (S001 "Scoring Variant"; BIC-SMUDGE).
    Countdown,
}

impl Variant {
    /// The id used in documents (`"countdown"`).
    pub fn id(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Smudge => "smudge",
            Variant::Countdown => "countdown",
        }
    }
}

/// What a smudge does (`smudge_rule`; rules §1.4 Smudge, §3 item 16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SmudgeRule {
    /// A smudge wins at once, whatever the smudger's score (S001, BIC-SMUDGE).
    #[default]
    WinsImmediately,
    /// S001's regional rule: a smudger in the hole restarts at +4 (seed cut off, rules §4).
    NotInHole,
}

/// What a negative difference pays when the winner is behind (rules §1.4, §3 item 15 [R]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NegativeDifference {
    /// The player ahead of the winner pays nothing and receives nothing ([R] default).
    #[default]
    ClampZero,
    /// The literal difference: the winner pays that player `difference × stake`.
    Pay,
}

/// Every agreement of an Auction Pitch session, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreements {
    /// Money per point of difference at a game's end, in cents (rules §1.4); zero: points only.
    pub stake: Money,
    /// The score that ends a standard or smudge game, in points (S001: 11).
    pub target: i64,
    /// Standard, smudge or count-down.
    pub variant: Variant,
    /// Where count-down scores start, in points (S001: 7); zero is the goal.
    pub countdown_start: i64,
    /// What a smudge does (smudge variant only).
    pub smudge_rule: SmudgeRule,
    /// Clamp or pay a negative difference in the end-of-game settlement.
    pub negative_difference: NegativeDifference,
    /// Whether the dealer may steal the bid (rules §3 item 12); recorded, not checkable.
    pub dealer_may_steal: bool,
}

/// The largest target, count-down start or carried score, in points (× stake fits the ledger).
pub const MAX_POINTS: i64 = 1_000_000;

fn eleven() -> i64 {
    11
}

fn seven() -> i64 {
    7
}

/// The agreements as written, each missing one at its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    #[serde(default)]
    stake: Stake,
    #[serde(default = "eleven")]
    target: i64,
    #[serde(default)]
    variant: Variant,
    #[serde(default = "seven")]
    countdown_start: i64,
    #[serde(default)]
    smudge_rule: SmudgeRule,
    #[serde(default)]
    negative_difference: NegativeDifference,
    #[serde(default)]
    dealer_may_steal: bool,
}

impl TableAgreements for Agreements {
    type Written = Written;

    fn check(w: Written) -> Result<Agreements, RuleError> {
        if !(1..=MAX_POINTS).contains(&w.target) {
            return Err(RuleError::new(
                "target",
                format!(
                    "{} is not a positive number of points up to {MAX_POINTS} (11, or 7, 9, 10, 21 as agreed)",
                    w.target
                ),
            )
            .rule("rules §1.4"));
        }
        if !(1..=MAX_POINTS).contains(&w.countdown_start) {
            return Err(RuleError::new(
                "countdown_start",
                format!(
                    "{} is not a positive number of points up to {MAX_POINTS}; count-down scores start above zero",
                    w.countdown_start
                ),
            )
            .rule("rules §1.4"));
        }
        Ok(Agreements {
            stake: w.stake.money(),
            target: w.target,
            variant: w.variant,
            countdown_start: w.countdown_start,
            smudge_rule: w.smudge_rule,
            negative_difference: w.negative_difference,
            dealer_may_steal: w.dealer_may_steal,
        })
    }
}

impl Agreements {
    /// Reads the `agreements` object. Errors name the field (rules §1.4).
    pub fn read(object: &Map<String, Value>) -> Result<Agreements, RuleError> {
        read_agreements(object)
    }

    /// True for the count-down variant, where scores run toward zero.
    pub fn counts_down(&self) -> bool {
        self.variant == Variant::Countdown
    }

    /// Every player's score at a game's start, in points: 0, or `countdown_start` (rules §1.4).
    pub fn fresh_score(&self) -> i64 {
        if self.counts_down() {
            self.countdown_start
        } else {
            0
        }
    }

    /// Whether `score` is out: at the target, or at zero counting down (rules §1.4).
    pub fn is_out(&self, score: i64) -> bool {
        if self.counts_down() {
            score <= 0
        } else {
            score >= self.target
        }
    }

    /// The score that ends the game, for sentences: the target, or 0 in count-down.
    pub fn goal(&self) -> i64 {
        if self.counts_down() { 0 } else { self.target }
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
        assert_eq!(a.target, 11);
        assert_eq!(a.variant, Variant::Standard);
        assert_eq!(a.countdown_start, 7);
        assert_eq!(a.smudge_rule, SmudgeRule::WinsImmediately);
        assert_eq!(a.negative_difference, NegativeDifference::ClampZero);
        assert!(!a.dealer_may_steal);
        assert_eq!(a.fresh_score(), 0);
    }

    #[test]
    fn reads_every_written_agreement() {
        let a = read(json!({
            "stake": "0.25", "target": 21, "variant": "countdown", "countdown_start": 10,
            "smudge_rule": "not_in_hole", "negative_difference": "pay", "dealer_may_steal": true
        }))
        .unwrap();
        assert_eq!(a.stake, Money::from_cents(25));
        assert_eq!(a.target, 21);
        assert_eq!(a.variant, Variant::Countdown);
        assert_eq!(a.fresh_score(), 10);
        assert_eq!(a.smudge_rule, SmudgeRule::NotInHole);
        assert_eq!(a.negative_difference, NegativeDifference::Pay);
        assert!(a.dealer_may_steal);
        assert_eq!(
            read(json!({"variant": "smudge"})).unwrap().variant.id(),
            "smudge"
        );
    }

    #[test]
    fn out_means_at_the_target_or_at_zero_counting_down() {
        let up = read(json!({"target": 7})).unwrap();
        assert!(!up.is_out(6) && up.is_out(7) && up.is_out(9));
        let down = read(json!({"variant": "countdown"})).unwrap();
        assert!(!down.is_out(1) && down.is_out(0) && down.is_out(-2));
        assert_eq!(down.goal(), 0);
    }

    #[test]
    fn refusals_name_the_agreement() {
        let field = |v: Value| read(v).unwrap_err().field;
        assert_eq!(field(json!({"stake": 0.05})), "agreements.stake");
        assert_eq!(field(json!({"stake": "-0.05"})), "agreements.stake");
        assert_eq!(field(json!({"target": 0})), "agreements.target");
        assert_eq!(field(json!({"target": -11})), "agreements.target");
        assert_eq!(field(json!({"target": "11"})), "agreements.target");
        assert_eq!(field(json!({"target": 1.5})), "agreements.target");
        assert_eq!(field(json!({"variant": "seven_up"})), "agreements.variant");
        assert_eq!(
            field(json!({"countdown_start": 0})),
            "agreements.countdown_start"
        );
        assert_eq!(
            field(json!({"smudge_rule": "sometimes"})),
            "agreements.smudge_rule"
        );
        assert_eq!(
            field(json!({"negative_difference": "refund"})),
            "agreements.negative_difference"
        );
        assert_eq!(
            field(json!({"dealer_may_steal": "yes"})),
            "agreements.dealer_may_steal"
        );
    }

    #[test]
    fn options_outside_the_format_are_refused_as_unknown() {
        for extra in [
            "low_to",
            "game_tie",
            "min_bid",
            "revoke_others_keep_points",
            "traget",
        ] {
            let e = read(json!({ extra: 1 })).unwrap_err();
            assert_eq!(e.field, format!("agreements.{extra}"));
            assert!(e.message.contains("unknown field"), "{e}");
        }
    }
}
