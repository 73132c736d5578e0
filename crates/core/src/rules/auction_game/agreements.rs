//! The table agreements of an Auction session (rules §1.10, §3 item 31), named as
//! `docs/session-format.md` names them: only `stake`. The source has no money stakes;
//! the ledger attaches one per game (rules §1.10 "No money stakes in the source"). Unknown
//! agreements are refused (usually typos).

use serde::Deserialize;

use crate::money::Money;
use crate::rules::RuleError;
use crate::rules::typed::{Stake, TableAgreements};

/// Every agreement of an Auction session, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreements {
    /// Money each loser of a game pays, in cents (rules §0.3: exact cents); with several
    /// tied winners it is shared among them (session-format). Zero plays for the items only.
    pub stake: Money,
}

/// The agreements as written: the stake, "0.00" when not written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Written {
    #[serde(default)]
    stake: Stake,
}

/// Read ([`TableAgreements::read`]) from the `agreements` object of a session document; `stake` defaults to "0.00".
/// Errors name the field (`agreements.stake`): a negative stake, a JSON number for
/// money, an unknown agreement.
impl TableAgreements for Agreements {
    type Written = Written;

    /// Nothing left to check: the stake is refused below zero as it is read ([`Stake`]).
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
