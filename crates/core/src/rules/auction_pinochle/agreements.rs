//! Auction Pinochle's table agreements (rules §1.1–1.3, §3 items 3–8), written on the
//! sheet before the first deal (Scarne).

use serde::Deserialize;
use serde_json::{Map, Value};

use super::units::{UnitsTable, UnitsTableSpec};
use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements, read_agreements, yes};

/// How the kitty is kept (`kitty` agreement).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KittyKind {
    /// No kitty.
    #[default]
    None,
    /// Scarne's kitty pot: antes, collected by a made bid of 350 or more (rules §1.2).
    Pot,
    /// The kitty as an account: one more player on 350+ bids, may go negative (rules §1.3).
    Account,
}

/// The options of Scarne's kitty pot (rules §1.2, §3 item 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PotRules {
    /// Rule 2: everyone antes again when all pass (stoppable by consent).
    pub all_pass_ante: bool,
    /// Everyone antes again right after the kitty is won ([R] default true).
    pub reante_after_win: bool,
    /// Rule 5 option: a failed 350+ spade bid antes this many kitties (2, or 3 by agreement).
    pub spades_fail_multiplier: i64,
    /// Rule 5 option: kitties a failed 350+ heart bid antes under hearts-triple (2, or 4).
    pub hearts_fail_multiplier: i64,
}

/// Every agreement of an Auction Pinochle session, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreements {
    /// Money per unit (the stake "per 100 points"), in cents.
    pub stake: Money,
    /// The units table (rules §1.1 standard/bonus, §1.3 classic, or custom).
    pub units_table: UnitsTable,
    /// The lowest contract, in points (250; 300 with the classic table).
    pub min_bid: i64,
    /// Spades double every payment (rules §1.1; Scarne's own rule, default on).
    pub spades_double: bool,
    /// Hearts triple every payment (rules §1.1; default off).
    pub hearts_triple: bool,
    /// How the kitty is kept.
    pub kitty: KittyKind,
    /// The pot's options (read even when `kitty` is not `pot`, where they do nothing).
    pub pot: PotRules,
}

/// The bid from which the kitty takes part: 350 (rules §1.2 rules 3–5, §1.3).
pub const KITTY_BID: i64 = 350;

fn two() -> i64 {
    2
}

/// The agreements as the session document writes them, each missing one at its default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    #[serde(default)]
    stake: Stake,
    units_table: Option<UnitsTableSpec>,
    min_bid: Option<i64>,
    #[serde(default = "yes")]
    spades_double: bool,
    #[serde(default)]
    hearts_triple: bool,
    #[serde(default)]
    kitty: KittyKind,
    #[serde(default = "yes")]
    all_pass_ante: bool,
    #[serde(default = "yes")]
    reante_after_win: bool,
    #[serde(default = "two")]
    kitty_spades_fail_multiplier: i64,
    #[serde(default = "two")]
    kitty_hearts_fail_multiplier: i64,
}

impl TableAgreements for Agreements {
    type Written = Written;

    fn check(w: Written) -> Result<Agreements, RuleError> {
        let fail = |field: &str, message: String| RuleError::new(field, message);
        let spec = w
            .units_table
            .unwrap_or(UnitsTableSpec::Preset("standard".into()));
        let units_table = UnitsTable::from_spec(&spec).map_err(|m| fail("units_table", m))?;
        let min_bid = w.min_bid.unwrap_or(units_table.lowest_bid());
        if min_bid % 10 != 0 || min_bid <= 0 {
            return Err(fail(
                "min_bid",
                format!("{min_bid} is not a positive multiple of 10"),
            )
            .rule("rules §0.3"));
        }
        if min_bid < units_table.lowest_bid() {
            return Err(fail(
                "min_bid",
                format!(
                    "{min_bid} is below the {} table's lowest band {}",
                    units_table.name,
                    units_table.lowest_bid()
                ),
            )
            .rule("rules §1.1"));
        }
        if !(2..=3).contains(&w.kitty_spades_fail_multiplier) {
            return Err(fail(
                "kitty_spades_fail_multiplier",
                format!(
                    "{} must be 2, or 3 by unanimous agreement",
                    w.kitty_spades_fail_multiplier
                ),
            )
            .rule("rules §1.2 rule 5"));
        }
        if !(2..=4).contains(&w.kitty_hearts_fail_multiplier) {
            return Err(fail(
                "kitty_hearts_fail_multiplier",
                format!(
                    "{} must be 2, or up to 4 by unanimous agreement",
                    w.kitty_hearts_fail_multiplier
                ),
            )
            .rule("rules §1.2 rule 5"));
        }
        Ok(Agreements {
            stake: w.stake.money(),
            units_table,
            min_bid,
            spades_double: w.spades_double,
            hearts_triple: w.hearts_triple,
            kitty: w.kitty,
            pot: PotRules {
                all_pass_ante: w.all_pass_ante,
                reante_after_win: w.reante_after_win,
                spades_fail_multiplier: w.kitty_spades_fail_multiplier,
                hearts_fail_multiplier: w.kitty_hearts_fail_multiplier,
            },
        })
    }
}

impl Agreements {
    /// Reads the `agreements` object. Errors name the field (`agreements.min_bid`).
    pub fn read(object: &Map<String, Value>) -> Result<Agreements, RuleError> {
        read_agreements(object)
    }

    /// One ante in cents: the lowest bid's settlement, `units(250) × stake` (rules §1.2 rule 1).
    pub fn ante(&self) -> Money {
        self.stake
            * self
                .units_table
                .units(self.units_table.lowest_bid())
                .unwrap_or(0)
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
        assert_eq!(a.units_table.name, "standard");
        assert_eq!(a.min_bid, 250);
        assert!(a.spades_double && !a.hearts_triple);
        assert_eq!(a.kitty, KittyKind::None);
        assert!(a.pot.all_pass_ante && a.pot.reante_after_win);
        assert_eq!(
            read(json!({"units_table": "classic"})).unwrap().min_bid,
            300
        );
    }

    #[test]
    fn ante_is_the_settlement_of_a_250_bid() {
        let a = read(json!({"stake": "0.05", "kitty": "pot"})).unwrap();
        assert_eq!(a.ante(), Money::from_cents(10));
    }

    #[test]
    fn refusals_name_the_agreement() {
        assert_eq!(
            read(json!({"stake": 0.05})).unwrap_err().field,
            "agreements.stake"
        );
        assert_eq!(
            read(json!({"stake": "0.055"})).unwrap_err().field,
            "agreements.stake"
        );
        assert_eq!(
            read(json!({"kitty": "jar"})).unwrap_err().field,
            "agreements.kitty"
        );
        assert_eq!(
            read(json!({"min_bid": 200})).unwrap_err().field,
            "agreements.min_bid"
        );
        assert_eq!(
            read(json!({"min_bid": 255})).unwrap_err().field,
            "agreements.min_bid"
        );
        assert_eq!(
            read(json!({"spades_dubble": true})).unwrap_err().field,
            "agreements.spades_dubble"
        );
        assert_eq!(
            read(json!({"kitty_spades_fail_multiplier": 5}))
                .unwrap_err()
                .field,
            "agreements.kitty_spades_fail_multiplier"
        );
    }
}
