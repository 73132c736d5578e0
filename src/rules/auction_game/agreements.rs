//! The table agreements of an Auction session (rules §1.10, §3 item 31), named as
//! `design/session-format.md` names them: only `stake`. The source has no money stakes;
//! the ledger attaches one per game (rules §1.10 "No money stakes in the source"). Unknown
//! agreements are refused (usually typos).

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::money::Money;
use crate::rules::{RuleError, fields};

/// Every agreement of an Auction session, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreements {
    /// Money each loser of a game pays, in cents (rules §0.3: exact cents); with several
    /// tied winners it is shared among them (session-format). Zero plays for the items only.
    pub stake: Money,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    #[serde(default = "crate::rules::game::default_stake")]
    stake: Money,
}

impl Agreements {
    /// Reads the `agreements` object of a session document; `stake` defaults to "0.00".
    /// Errors name the field (`agreements.stake`): a negative stake, a JSON number for
    /// money, an unknown agreement.
    pub fn read(object: &Map<String, Value>) -> Result<Agreements, RuleError> {
        let w: Written = fields::read(object).map_err(|e| e.within("agreements"))?;
        if w.stake.cents() < 0 {
            return Err(RuleError::new(
                "agreements.stake",
                "the stake cannot be negative",
            ));
        }
        Ok(Agreements { stake: w.stake })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<Agreements, RuleError> {
        Agreements::read(v.as_object().unwrap())
    }

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
