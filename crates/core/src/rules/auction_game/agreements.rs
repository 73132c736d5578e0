//! The Auction game's table agreements (rules §1.10, §3 item 31; session-format): only
//! `stake`, one per game, since the source has no money stakes. Unknown ones are refused.

use serde::Deserialize;

use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements};

/// Every agreement of an Auction session, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreements {
    /// Money each loser of a game pays, in cents, shared among tied winners. Zero: items only.
    pub stake: Money,
}

/// The agreements as written: the stake, "0.00" when not written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    #[serde(default)]
    stake: Stake,
}

/// `stake` defaults to "0.00". Errors name `agreements.stake`: negative, or a JSON number.
impl TableAgreements for Agreements {
    type Written = Written;

    fn check(w: Written) -> Result<Agreements, RuleError> {
        Ok(Agreements {
            stake: w.stake.money(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    crate::rules::typed::agreement_tests!(Agreements);

    #[test]
    fn the_stake_defaults_to_nothing_and_is_read_as_cents() {
        assert_eq!(read(json!({})).unwrap().stake, Money::ZERO);
        assert_eq!(
            read(json!({"stake": "0.50"})).unwrap().stake,
            Money::from_cents(50)
        );
    }

    #[test]
    fn refusals_name_the_agreement() {
        let field = |v: Value| read(v).unwrap_err().field;
        assert_eq!(field(json!({"stake": "-0.05"})), "agreements.stake");
        assert_eq!(field(json!({"stake": 0.5})), "agreements.stake");
        assert_eq!(field(json!({"target": 20})), "agreements.target");
    }
}
