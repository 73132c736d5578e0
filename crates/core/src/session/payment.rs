//! `payment`: money really handed over between two accounts at the table.

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::ledger::Postings;
use crate::money::Money;
use crate::rules::{Ctx, Outcome, RuleError, SheetLine, fields};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Payment {
    #[serde(rename = "type")]
    _kind: String,
    from: String,
    to: String,
    amount: Money,
}

/// `payment`: money handed over from one account to another (session-format).
pub(super) fn payment(
    house: &[&str],
    ctx: &mut Ctx<'_>,
    object: &Map<String, Value>,
) -> Result<Outcome, RuleError> {
    let p: Payment = fields::read(object)?;
    let known = |name: &str| ctx.table.has_account(name) || house.contains(&name);
    for (field, name) in [("from", &p.from), ("to", &p.to)] {
        if !known(name) {
            return Err(RuleError::new(
                field,
                format!("{name} has no account at this table"),
            ));
        }
    }
    if p.from == p.to {
        return Err(RuleError::new(
            "to",
            "a payment goes from one account to another",
        ));
    }
    if p.amount.cents() <= 0 {
        return Err(RuleError::new(
            "amount",
            format!("{} must be more than zero", p.amount),
        ));
    }
    let mut postings = Postings::new();
    postings.transfer(&p.to, &p.from, p.amount);
    Ok(Outcome::new(
        postings.into_vec(),
        format!("{} paid {} {}", p.from, p.to, p.amount),
        SheetLine::titled(format!("{} paid {}", p.from, p.to)),
    ))
}
