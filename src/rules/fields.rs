//! Reading agreements and events field by field, so every refusal names its field.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// A refusal by the rules: the field at fault (`"bid"`, `"points.high"`,
/// `"agreements.stake"`) and the reason with its rule ("240 is below the minimum 250
/// (rules §1.1)").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct RuleError {
    /// The field at fault, as named in `design/session-format.md`.
    pub field: String,
    /// What is wrong and which rule says so.
    pub message: String,
}

impl RuleError {
    /// A refusal of `field` for `message`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> RuleError {
        RuleError {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The same refusal with `prefix.` before the field (`agreements.stake`).
    pub fn within(self, prefix: &str) -> RuleError {
        RuleError {
            field: format!("{prefix}.{}", self.field),
            message: self.message,
        }
    }
}

/// Deserialises `object` into `T` (a struct with `deny_unknown_fields`), turning serde's
/// error into a [`RuleError`] that names the field: unknown fields (usually typos), missing
/// fields and wrong types are all refused (`design/session-format.md`).
pub fn read<T: DeserializeOwned>(object: &Map<String, Value>) -> Result<T, RuleError> {
    let value = Value::Object(object.clone());
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner().to_string();
        let named = between_backticks(&inner);
        // serde_path_to_error puts an unknown field in the path already, a missing one not.
        let field = if inner.starts_with("missing field") {
            match (path.as_str(), named) {
                (".", Some(name)) => name.to_string(),
                (p, Some(name)) => format!("{p}.{name}"),
                (p, None) => p.to_string(),
            }
        } else {
            path
        };
        let message = if inner.starts_with("unknown field") {
            format!(
                "unknown field (a typo?); {}",
                inner.split_once(", ").map_or("", |x| x.1)
            )
        } else {
            strip_position(&inner)
        };
        RuleError::new(field, message)
    })
}

fn between_backticks(text: &str) -> Option<&str> {
    let start = text.find('`')? + 1;
    let len = text[start..].find('`')?;
    Some(&text[start..start + len])
}

fn strip_position(text: &str) -> String {
    match text.find(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Hand {
        bid: i64,
        bidder: String,
    }

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn names_the_field_that_is_wrong() {
        let e = read::<Hand>(&obj(serde_json::json!({"bid": "x", "bidder": "A"}))).unwrap_err();
        assert_eq!(e.field, "bid");
        let e = read::<Hand>(&obj(serde_json::json!({"bid": 250}))).unwrap_err();
        assert_eq!(e.field, "bidder");
        let e = read::<Hand>(&obj(
            serde_json::json!({"bid": 250, "bidder": "A", "bidd": 1}),
        ))
        .unwrap_err();
        assert_eq!(e.field, "bidd");
        assert!(e.message.contains("unknown field"));
    }
}
