//! A house game's table agreements (rules §1.12; session-format `house_game`): `name`,
//! `winner`, `target`, `hands`, `hand_totals`, `settlement`, `payouts` and `stake`.

use serde::Deserialize;

use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements};

/// The rules section every refusal here cites.
pub const RULE: &str = "rules §1.12";

/// The most characters of a house game's `name` (session-format `house_game`).
pub const NAME_MAX: usize = 40;

/// The largest `target`, `hands` or allowed hand total, in points or hands: far from any
/// card table's count, and small enough that totals × stake × players stay checkable.
pub const MAX_AGREED: i64 = 1_000_000;

/// Which total wins a game (`winner`; rules §1.12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// The highest total wins (Gin Rummy, Rummy 500, Cribbage).
    #[default]
    High,
    /// The lowest total wins (Hearts, Golf).
    Low,
}

impl Winner {
    /// How much better total `a` is than `b` for this rule, in points (positive: better).
    pub fn lead(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Winner::High => a.checked_sub(b),
            Winner::Low => b.checked_sub(a),
        }
    }
}

/// How a finished game is paid (`settlement`; rules §1.12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Settlement {
    /// Every two players settle the difference of their totals × `stake` (Hoyle).
    #[default]
    PairwiseDifference,
    /// Each player who did not win pays the winner the difference × `stake`.
    DifferenceToWinner,
    /// Each player who did not win pays the winner `stake`.
    PerGame,
    /// Each place gets its agreed amount from `payouts`.
    ByPlace,
}

/// Every agreement of a house game session, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreements {
    /// What the table calls the game ("Hearts"), 1–[`NAME_MAX`] visible characters.
    pub name: String,
    /// Which total wins.
    pub winner: Winner,
    /// A game ends after the hand in which any total reaches this (points).
    pub target: Option<i64>,
    /// A game ends after this many hands of it.
    pub hands: Option<i64>,
    /// Each hand's points sum to one of these (points); empty: any sum.
    pub hand_totals: Vec<i64>,
    /// How a finished game is paid.
    pub settlement: Settlement,
    /// Per place, best first, in cents, summing to zero (`by_place` only).
    pub payouts: Vec<Money>,
    /// Cents per point (`pairwise_difference`, `difference_to_winner`) or per game (`per_game`).
    pub stake: Money,
}

/// The agreements as written, each missing one at its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    name: Option<String>,
    #[serde(default)]
    winner: Winner,
    target: Option<i64>,
    hands: Option<i64>,
    #[serde(default)]
    hand_totals: Vec<i64>,
    #[serde(default)]
    settlement: Settlement,
    payouts: Option<Vec<serde_json::Value>>,
    #[serde(default)]
    stake: Stake,
}

fn refused(field: &str, message: impl Into<String>) -> RuleError {
    RuleError::new(field, message).rule(RULE)
}

/// The name as written: required, 1–[`NAME_MAX`] visible characters, trimmed and composed.
fn check_name(name: Option<String>) -> Result<String, RuleError> {
    let written = name.ok_or_else(|| {
        refused(
            "name",
            "what does the table call this game? Give it a name, like \"Hearts\"",
        )
    })?;
    let kept = crate::rules::table::title(&written, NAME_MAX, "the game's name")
        .map_err(|m| refused("name", m))?;
    if kept.is_empty() {
        return Err(refused(
            "name",
            format!("the game's name has 1 to {NAME_MAX} visible characters"),
        ));
    }
    if kept != written {
        return Err(refused(
            "name",
            format!("write the name as {kept:?}, without spaces around it"),
        ));
    }
    Ok(kept)
}

/// A count agreed within 1–[`MAX_AGREED`], naming `field`.
fn positive(field: &str, value: Option<i64>, what: &str) -> Result<Option<i64>, RuleError> {
    match value {
        Some(v) if !(1..=MAX_AGREED).contains(&v) => Err(refused(
            field,
            format!("{v} is not a number of {what} from 1 to {MAX_AGREED}"),
        )),
        other => Ok(other),
    }
}

/// The payouts as agreed: given exactly with `by_place`, summing to zero.
fn check_payouts(
    settlement: Settlement,
    payouts: Option<Vec<serde_json::Value>>,
) -> Result<Vec<Money>, RuleError> {
    let payouts = match (settlement, payouts) {
        (Settlement::ByPlace, Some(p)) => p,
        (Settlement::ByPlace, None) => {
            return Err(refused(
                "payouts",
                "settling by place needs the amount for each place, best first, like [\"3.00\", \"-3.00\"]",
            ));
        }
        (_, Some(_)) => {
            return Err(refused(
                "payouts",
                "payouts are for settling by place; choose that settlement or leave them out",
            ));
        }
        (_, None) => return Ok(Vec::new()),
    };
    // Each amount is money written as a string; refusals name the place, best first.
    let payouts = payouts
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let place = i + 1;
            let text = v.as_str().ok_or_else(|| {
                refused(
                    "payouts",
                    format!("place {place}: write the amount as text, like \"3.00\""),
                )
            })?;
            Money::parse(text).map_err(|e| refused("payouts", format!("place {place}: {e}")))
        })
        .collect::<Result<Vec<Money>, RuleError>>()?;
    let mut sum = Money::ZERO;
    for amount in &payouts {
        sum = sum
            .checked_add(*amount)
            .filter(|s| s.within_limit())
            .ok_or_else(|| refused("payouts", "these amounts are too large to add up"))?;
    }
    if !sum.is_zero() {
        return Err(refused(
            "payouts",
            format!(
                "the places' amounts add up to {sum}, not 0.00: what the best places win, the others pay"
            ),
        ));
    }
    Ok(payouts)
}

impl TableAgreements for Agreements {
    type Written = Written;

    fn check(w: Written) -> Result<Agreements, RuleError> {
        let name = check_name(w.name)?;
        let target = positive("target", w.target, "points")?;
        let hands = positive("hands", w.hands, "hands")?;
        for (i, total) in w.hand_totals.iter().enumerate() {
            if total.abs() > MAX_AGREED {
                return Err(refused(
                    &format!("hand_totals[{i}]"),
                    format!("{total} is beyond any hand's points (at most ±{MAX_AGREED})"),
                ));
            }
        }
        let payouts = check_payouts(w.settlement, w.payouts)?;
        Ok(Agreements {
            name,
            winner: w.winner,
            target,
            hands,
            hand_totals: w.hand_totals,
            settlement: w.settlement,
            payouts,
            stake: w.stake.money(),
        })
    }
}

impl Agreements {
    /// Whether a game ends after a hand: any total at the `target`, or the `hands` played.
    pub fn ends(&self, totals: &[i64], hands_played: i64) -> Option<&'static str> {
        if self
            .target
            .is_some_and(|t| totals.iter().any(|&total| total >= t))
        {
            return Some("target");
        }
        if self.hands.is_some_and(|h| hands_played >= h) {
            return Some("hands");
        }
        None
    }

    /// The refusal of a hand whose points add up to `sum` when `hand_totals` forbids it.
    pub fn check_total(&self, sum: i64) -> Result<(), RuleError> {
        if self.hand_totals.is_empty() || self.hand_totals.contains(&sum) {
            return Ok(());
        }
        let allowed: Vec<String> = self.hand_totals.iter().map(i64::to_string).collect();
        Err(refused(
            "points",
            format!(
                "the points add up to {sum}, but every hand of {} adds up to {}: check each player's count",
                self.name,
                or_list(&allowed)
            ),
        ))
    }
}

/// "26", "26 or 78", "1, 2 or 3".
pub fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    crate::rules::typed::agreement_tests!(Agreements);

    #[test]
    fn defaults_follow_the_session_format() {
        let a = read(json!({"name": "Oh Hell"})).unwrap();
        assert_eq!(a.name, "Oh Hell");
        assert_eq!(a.winner, Winner::High);
        assert_eq!((a.target, a.hands), (None, None));
        assert!(a.hand_totals.is_empty());
        assert_eq!(a.settlement, Settlement::PairwiseDifference);
        assert!(a.payouts.is_empty());
        assert_eq!(a.stake, Money::ZERO);
        assert_eq!(a.ends(&[5_000, -3], 1_000), None, "only game_over ends it");
    }

    #[test]
    fn reads_every_written_agreement() {
        let a = read(json!({
            "name": "Golf", "winner": "low", "target": 100, "hands": 9,
            "hand_totals": [26, 78], "settlement": "by_place",
            "payouts": ["3.00", "1.00", "-1.00", "-3.00"], "stake": "0.05"
        }))
        .unwrap();
        assert_eq!(a.winner, Winner::Low);
        assert_eq!((a.target, a.hands), (Some(100), Some(9)));
        assert_eq!(a.hand_totals, vec![26, 78]);
        assert_eq!(a.payouts[0], Money::from_cents(300));
        assert_eq!(a.ends(&[99, 100], 1), Some("target"), "reached is ≥ target");
        assert_eq!(a.ends(&[10, 20], 9), Some("hands"));
        assert_eq!(a.ends(&[10, 20], 8), None);
    }

    #[test]
    fn refusals_name_the_agreement_and_the_rule() {
        let hearts = |extra: serde_json::Value| {
            let mut v = json!({"name": "Hearts"});
            v.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            v
        };
        assert_eq!(field(json!({})), "agreements.name");
        assert_eq!(field(json!({"name": ""})), "agreements.name");
        assert_eq!(field(json!({"name": " Hearts"})), "agreements.name");
        assert_eq!(field(json!({"name": "x".repeat(41)})), "agreements.name");
        assert!(
            read(json!({"name": "é".repeat(40)})).is_ok(),
            "40 is allowed"
        );
        assert_eq!(field(hearts(json!({"target": 0}))), "agreements.target");
        assert_eq!(field(hearts(json!({"hands": -9}))), "agreements.hands");
        assert_eq!(
            field(hearts(json!({"winner": "most"}))),
            "agreements.winner"
        );
        assert_eq!(
            field(hearts(json!({"settlement": "by_place"}))),
            "agreements.payouts"
        );
        assert_eq!(
            field(hearts(json!({"payouts": ["1.00", "-1.00"]}))),
            "agreements.payouts"
        );
        let e = read(hearts(
            json!({"settlement": "by_place", "payouts": ["3.00", "-2.00"]}),
        ))
        .unwrap_err();
        assert_eq!(e.field, "agreements.payouts");
        assert!(e.message.contains("1.00"), "{}", e.message);
        assert_eq!(e.rule.as_deref(), Some(RULE));
        assert_eq!(field(hearts(json!({"payouts_": 1}))), "agreements.payouts_");
    }

    #[test]
    fn a_hand_total_outside_the_agreed_ones_is_refused_in_words() {
        let a = read(json!({"name": "Hearts", "hand_totals": [26, 78]})).unwrap();
        assert!(a.check_total(26).is_ok() && a.check_total(78).is_ok());
        let e = a.check_total(25).unwrap_err();
        assert_eq!(e.field, "points");
        assert_eq!(
            e.message,
            "the points add up to 25, but every hand of Hearts adds up to 26 or 78: check each player's count"
        );
    }
}
