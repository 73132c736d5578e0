//! A session document's refusal: the event and field at fault, the reason and the rule.

use crate::rules::{Field, RuleError};

/// Why a session document was refused: event index, field, reason and rule, shown as
/// `event 3: bid: 240 is below the minimum 250 (rules §1.1)`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{field}: {message}{}", .event_index.map(|i| format!("event {i}: ")).unwrap_or_default(), crate::rules::fields::cite(.rule.as_deref()))]
pub struct Refusal {
    /// The position of the refused event in `events`, if an event is at fault.
    pub event_index: Option<usize>,
    /// The field at fault (`bid`, `agreements.stake`), as the session format names it.
    pub field: Field,
    /// What is wrong, in player words, without the citation.
    pub message: String,
    /// The rule that refuses it, as cited (`"rules §1.1"`); `None` when none is cited.
    pub rule: Option<String>,
}

impl Refusal {
    /// A refusal of the document itself (no event at fault).
    pub fn document(field: impl Into<Field>, message: impl Into<String>) -> Refusal {
        Refusal {
            event_index: None,
            field: field.into(),
            message: message.into(),
            rule: None,
        }
    }

    /// A refusal of the event at `index`.
    pub fn at(index: usize, field: impl Into<Field>, message: impl Into<String>) -> Refusal {
        Refusal {
            event_index: Some(index),
            field: field.into(),
            message: message.into(),
            rule: None,
        }
    }

    /// The same refusal citing `rule` (`"rules §1.1"`).
    pub fn citing(self, rule: Option<String>) -> Refusal {
        Refusal { rule, ..self }
    }

    /// The rules' refusal `err` at `event_index` (or of the document), its rule kept.
    pub fn from_rule(err: RuleError, event_index: Option<usize>) -> Refusal {
        Refusal {
            event_index,
            field: err.field,
            message: err.message,
            rule: err.rule,
        }
    }
}
