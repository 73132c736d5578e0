//! One side's part of a deal (rules §1.5, §1.6), `{"meld": 140, "tricks": 200,
//! "won_trick": true}` in points, and how hand forms fill it in (rules §1.0).

use serde::{Deserialize, Serialize};

use super::{Side, SideHand, rest_of_tricks};
use crate::rules::{Field, RuleError};

/// One side's part of a written deal.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenSide {
    /// The side's melds in points, without dix 10s scored apart (0 when left out).
    #[serde(default)]
    pub meld: i64,
    /// Trick points, 0–250.
    pub tricks: i64,
    /// Whether the side won a trick; read from the trick points when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub won_trick: Option<bool>,
}

impl WrittenSide {
    /// The side from a hand form: empty `meld` is 0; `won_trick` only when ticked.
    pub fn from_form(meld: Option<i64>, tricks: i64, won_trick: bool) -> WrittenSide {
        WrittenSide {
            meld: meld.unwrap_or(0),
            tricks,
            won_trick: won_trick.then_some(true),
        }
    }

    /// The side's hand, to be checked ([`super::check_hands`]).
    pub fn hand(&self) -> SideHand {
        SideHand::new(self.meld, self.tricks, self.won_trick)
    }
}

/// Both sides' trick points from a hand form, NS first: one side entered and the rest of
/// 250 to the other, or both as entered. Errors: `NS.tricks` in `neither`'s words when
/// none is entered; the entered side's field when outside 0–250.
pub fn form_tricks(
    ns: Option<i64>,
    ew: Option<i64>,
    neither: &str,
) -> Result<(i64, i64), RuleError> {
    match (ns, ew) {
        (Some(ns), Some(ew)) => Ok((ns, ew)),
        (Some(ns), None) => Ok((ns, rest_of_tricks(Side::NS, ns)?)),
        (None, Some(ew)) => Ok((rest_of_tricks(Side::EW, ew)?, ew)),
        (None, None) => Err(RuleError::new(
            Field::of_side(Side::NS.name(), "tricks"),
            neither,
        )),
    }
}
