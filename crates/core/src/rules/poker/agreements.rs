//! Poker's table agreements (rules §1.11, §3 items 32–33; session-format, including
//! "Boards and qualifiers" for `variant` and `eight_or_better`, see [`super::board`]).
//! Unknown agreements are refused.

use serde::Deserialize;

use super::board::Variant;
use super::cards::{LowRule, Wild};
use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements};

/// Who gets a chip that does not split evenly (rules §3 item 32; RRP, PNEWS, BARGE, OCC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OddChip {
    /// The first tied winner clockwise from the dealer's left (RRP, button games; default).
    #[default]
    FirstLeftOfDealer,
    /// The tied winner with the highest card by suit, ♠ > ♥ > ♦ > ♣ (RRP, stud); needs `cards`.
    HighCardBySuit,
    /// The odd chip stays in the `POT` account for the next hand's pot (OCC, home games).
    Carry,
}

impl OddChip {
    /// The rule in words for the sheet.
    pub fn words(self) -> &'static str {
        match self {
            OddChip::FirstLeftOfDealer => "to the first tied winner left of the dealer",
            OddChip::HighCardBySuit => "to the tied winner with the highest card (♠ > ♥ > ♦ > ♣)",
            OddChip::Carry => "stays in the pot for the next hand",
        }
    }
}

/// Whether "one odd chip per player" spans both halves of a high-low pot
/// (`odd_chip_high_low`). RRP splits each pot on its own and gives no player more than one
/// odd chip, so by default both halves count together; the format leaves it open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OddChipHighLow {
    /// One odd chip per player per pot, both halves counted (RRP; default): the low half's
    /// odd chips go first to tied low winners who have none yet.
    #[default]
    OnePerPot,
    /// One odd chip per player per half: identical hands tying both halves of 0.50 in 0.05
    /// chips take 0.30 and 0.20.
    PerHalf,
}

/// Which card decides a tied low half's odd chip under `high_card_by_suit`
/// (`odd_chip_low_card`). RRP: the lowest card by suit in low games, and in high-low the
/// low half "as in a low game".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OddChipLowCard {
    /// The lowest card by rank, then suit (♣ lowest; ace low under `ace_to_five`) (RRP; default).
    #[default]
    Lowest,
    /// The tied low winner with the highest card by suit, as in the high half.
    Highest,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum WildName {
    Jokers,
    Deuces,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "snake_case")]
enum LowName {
    #[default]
    AceToFive,
    DeuceToSeven,
}

/// The agreements as the session document writes them, each missing one at its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    #[serde(default)]
    stake: Stake,
    smallest_unit: Option<Money>,
    #[serde(default)]
    odd_chip: OddChip,
    #[serde(default)]
    odd_chip_high_low: OddChipHighLow,
    #[serde(default)]
    odd_chip_low_card: OddChipLowCard,
    #[serde(default)]
    wild: Vec<WildName>,
    #[serde(default)]
    low: LowName,
    ante: Option<Money>,
    max_first_bet: Option<Money>,
    max_raise: Option<Money>,
    max_raises_total_per_round: Option<Money>,
    #[serde(default)]
    variant: Variant,
    #[serde(default)]
    eight_or_better: bool,
}

/// Every agreement of a poker session, validated. Money is in cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreements {
    /// Accepted as every game takes it (session-format) but unused: poker's money is the pot.
    pub stake: Money,
    /// The smallest chip, in cents (default 0.05): every amount is a whole number of them
    /// (session-format, "Precise readings").
    pub unit: Money,
    /// Who gets an odd chip (rules §3 item 32).
    pub odd_chip: OddChip,
    /// Whether the one-odd-chip limit spans both halves of a high-low pot (RRP: yes).
    pub odd_chip_high_low: OddChipHighLow,
    /// Which card decides a tied low half's odd chip under `high_card_by_suit` (RRP: lowest).
    pub odd_chip_low_card: OddChipLowCard,
    /// Which cards are wild.
    pub wild: Wild,
    /// How low hands rank in a high-low pot.
    pub low: LowRule,
    /// What each player antes, in cents (S004: a nickel); `None`: no ante agreed.
    pub ante: Option<Money>,
    /// The most an opening bet may be (S004: 50¢); `None`: no limit.
    pub max_first_bet: Option<Money>,
    /// The most one raise may add over the call (S004: 50¢); `None`: no limit.
    pub max_raise: Option<Money>,
    /// The most a round's raises may add up to, the opening bet not counted (S004: $1;
    /// rules §1.11 [R], §3 item 33); `None`: no limit.
    pub max_raises_total: Option<Money>,
    /// What `cards` are: a whole hand, or hole cards with a board (session-format; default
    /// `own_cards`).
    pub variant: Variant,
    /// Whether a low must be 8 or better to take a low half (session-format; default no).
    pub eight_or_better: bool,
}

/// Errors name `agreements.<name>`: a smallest unit not above zero, a limit or ante
/// negative or not whole units, a wild card named twice, `eight_or_better` with
/// `low: deuce_to_seven` (the qualifier reads aces low).
impl TableAgreements for Agreements {
    type Written = Written;

    fn check(w: Written) -> Result<Agreements, RuleError> {
        let unit = w.smallest_unit.unwrap_or(Money::from_cents(5));
        if unit.cents() <= 0 {
            return Err(RuleError::new(
                "smallest_unit",
                format!("{unit} is not a chip: the smallest unit is more than zero"),
            ));
        }
        for (name, value) in [
            ("ante", w.ante),
            ("max_first_bet", w.max_first_bet),
            ("max_raise", w.max_raise),
            ("max_raises_total_per_round", w.max_raises_total_per_round),
        ] {
            if let Some(v) = value
                && (v.cents() < 0 || v.cents() % unit.cents() != 0)
            {
                return Err(RuleError::new(
                    name.to_string(),
                    format!("{v} is not a whole number of chips of {unit} (the smallest unit)"),
                )
                .rule("rules §0.3"));
            }
        }
        let mut wild = Wild::default();
        for name in &w.wild {
            let slot = match name {
                WildName::Jokers => &mut wild.jokers,
                WildName::Deuces => &mut wild.deuces,
            };
            if *slot {
                return Err(RuleError::new("wild", "a wild card is named twice"));
            }
            *slot = true;
        }
        if w.eight_or_better && matches!(w.low, LowName::DeuceToSeven) {
            return Err(RuleError::new(
                "eight_or_better",
                "an 8-or-better low counts aces low (ace to five): it does not go with deuce-to-seven lows",
            )
            .rule("session-format"));
        }
        Ok(Agreements {
            stake: w.stake.money(),
            unit,
            odd_chip: w.odd_chip,
            odd_chip_high_low: w.odd_chip_high_low,
            odd_chip_low_card: w.odd_chip_low_card,
            wild,
            low: match w.low {
                LowName::AceToFive => LowRule::AceToFive,
                LowName::DeuceToSeven => LowRule::DeuceToSeven,
            },
            ante: w.ante.filter(|a| !a.is_zero()),
            max_first_bet: w.max_first_bet,
            max_raise: w.max_raise,
            max_raises_total: w.max_raises_total_per_round,
            variant: w.variant,
            eight_or_better: w.eight_or_better,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    crate::rules::typed::agreement_tests!(Agreements);

    #[test]
    fn defaults_and_choices() {
        let a = read(json!({})).unwrap();
        assert_eq!(a.unit, Money::from_cents(5));
        assert_eq!(a.odd_chip, OddChip::FirstLeftOfDealer);
        assert_eq!(a.odd_chip_high_low, OddChipHighLow::OnePerPot);
        assert_eq!(a.odd_chip_low_card, OddChipLowCard::Lowest);
        assert_eq!(a.wild, Wild::default());
        assert_eq!(a.low, LowRule::AceToFive);
        assert_eq!(a.ante, None);
        assert_eq!((a.variant, a.eight_or_better), (Variant::OwnCards, false));
        let a = read(json!({"variant": "omaha", "eight_or_better": true})).unwrap();
        assert_eq!((a.variant, a.eight_or_better), (Variant::Omaha, true));
        let a = read(json!({"wild": ["jokers", "deuces"], "low": "deuce_to_seven", "odd_chip": "carry", "ante": "0.05"})).unwrap();
        assert!(a.wild.jokers && a.wild.deuces);
        assert_eq!(
            (a.low, a.odd_chip, a.ante),
            (
                LowRule::DeuceToSeven,
                OddChip::Carry,
                Some(Money::from_cents(5))
            )
        );
    }

    #[test]
    fn refusals_name_the_agreement() {
        assert_eq!(
            read(json!({"smallest_unit": "0"})).unwrap_err().field,
            "agreements.smallest_unit"
        );
        assert_eq!(
            read(json!({"max_raise": "0.07"})).unwrap_err().field,
            "agreements.max_raise"
        );
        assert_eq!(
            read(json!({"wild": ["one_eyed_jacks"]})).unwrap_err().field,
            "agreements.wild[0]"
        );
        assert_eq!(
            read(json!({"wild": ["jokers", "jokers"]}))
                .unwrap_err()
                .field,
            "agreements.wild"
        );
        assert_eq!(
            read(json!({"odd_chip": "random"})).unwrap_err().field,
            "agreements.odd_chip"
        );
        assert_eq!(
            read(json!({"odd_chip_high_low": "both"}))
                .unwrap_err()
                .field,
            "agreements.odd_chip_high_low"
        );
        assert_eq!(
            read(json!({"odd_chip_low_card": "low"})).unwrap_err().field,
            "agreements.odd_chip_low_card"
        );
        assert_eq!(
            read(json!({"ante": 0.05})).unwrap_err().field,
            "agreements.ante"
        );
        assert_eq!(
            read(json!({"antes": "0.05"})).unwrap_err().field,
            "agreements.antes"
        );
        assert_eq!(
            read(json!({"variant": "stud"})).unwrap_err().field,
            "agreements.variant"
        );
        assert_eq!(
            read(json!({"eight_or_better": "yes"})).unwrap_err().field,
            "agreements.eight_or_better"
        );
        assert_eq!(
            read(json!({"eight_or_better": true, "low": "deuce_to_seven"}))
                .unwrap_err()
                .field,
            "agreements.eight_or_better"
        );
    }
}
