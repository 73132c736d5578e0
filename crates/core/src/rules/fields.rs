//! Reading agreements and events field by field, so every refusal names its field.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde::de::value::MapDeserializer;
use serde_json::{Map, Value};

use crate::rules::field::Field;

/// A refusal by the rules: the field at fault, the reason in player words (no field names
/// or syntax) and the rule cited, kept apart so a page can show them separately.
///
/// Shown whole as `bid: 240 is below the minimum 250 (rules §1.1)`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}{}", cite(.rule.as_deref()))]
pub struct RuleError {
    /// The field at fault, as named in `docs/session-format.md`.
    pub field: Field,
    /// What is wrong, in player words, without the rule's citation.
    pub message: String,
    /// The rule cited (`"rules §1.1"`, `"session-format"`); `None` for a missing field or typo.
    pub rule: Option<String>,
}

/// The citation after a message: `" (rules §1.1)"`, empty for none.
pub fn cite(rule: Option<&str>) -> String {
    rule.map(|r| format!(" ({r})")).unwrap_or_default()
}

impl RuleError {
    /// A refusal of `field` for `message` (player words, no citation).
    pub fn new(field: impl Into<Field>, message: impl Into<String>) -> RuleError {
        RuleError {
            field: field.into(),
            message: message.into(),
            rule: None,
        }
    }

    /// The same refusal citing `rule` (`"rules §1.1"`) as its source.
    pub fn rule(self, rule: impl Into<String>) -> RuleError {
        RuleError {
            rule: Some(rule.into()),
            ..self
        }
    }

    /// The same refusal with `prefix.` before the field (`agreements.stake`).
    pub fn within(self, prefix: &str) -> RuleError {
        RuleError {
            field: Field::name(prefix).join(self.field),
            ..self
        }
    }
}

/// The largest absolute number any event, agreement or opening score may carry: two
/// multiplied still fit an `i64`, so no rule's arithmetic overflows.
pub const NUMBER_LIMIT: i64 = 1_000_000_000;

/// Refuses a JSON number beyond ±[`NUMBER_LIMIT`], naming its place (`prefix.bids[2]`).
pub fn check_numbers(value: &Value, prefix: &str) -> Result<(), RuleError> {
    let mut path = Vec::new();
    let Some(n) = far_number(value, &mut path) else {
        return Ok(());
    };
    let mut place = prefix.to_string();
    for step in path.iter().rev() {
        match step {
            Step::Key(k) if place.is_empty() => place.push_str(k),
            Step::Key(k) => place.push_str(&format!(".{k}")),
            Step::At(i) => place.push_str(&format!("[{i}]")),
        }
    }
    Err(RuleError::new(
        place,
        format!(
            "{n} is far beyond anything a card table counts; numbers here are at most {NUMBER_LIMIT} (a pinochle deck melds at most a few thousand)"
        ),
    )
    .rule("rules §0"))
}

/// One step down into a JSON value: a key of an object or a place in an array.
enum Step<'a> {
    Key(&'a str),
    At(usize),
}

/// The first number in `value` beyond [`NUMBER_LIMIT`], with `path` left holding the steps
/// down to it, innermost first: the place is written out only for a refusal.
fn far_number<'a>(value: &'a Value, path: &mut Vec<Step<'a>>) -> Option<&'a serde_json::Number> {
    let found = match value {
        Value::Number(n) => {
            let within = match (n.as_i64(), n.as_f64()) {
                (Some(i), _) => (-NUMBER_LIMIT..=NUMBER_LIMIT).contains(&i),
                (None, Some(f)) => f.abs() <= NUMBER_LIMIT as f64,
                (None, None) => false,
            };
            return (!within).then_some(n);
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| far_number(v, path).map(|n| (Step::At(i), n))),
        Value::Object(map) => map
            .iter()
            .find_map(|(k, v)| far_number(v, path).map(|n| (Step::Key(k.as_str()), n))),
        _ => None,
    };
    let (step, n) = found?;
    path.push(step);
    Some(n)
}

/// Refuses `opening_scores` other than absent, `null` or `{}` in a game that keeps none.
pub fn no_opening_scores(
    opening_scores: Option<&Value>,
    words: &str,
    rule: Option<&str>,
) -> Result<(), RuleError> {
    match opening_scores {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Object(m)) if m.is_empty() => Ok(()),
        Some(_) => {
            let refusal = RuleError::new("opening_scores", words);
            Err(match rule {
                Some(rule) => refusal.rule(rule),
                None => refusal,
            })
        }
    }
}

/// [`read`] for a game without bidding (rules §1.5, §1.9), refusing `all_passed` by name.
pub fn read_unbid<T: DeserializeOwned>(
    event: &Map<String, Value>,
    words: &str,
    rule: &str,
) -> Result<T, RuleError> {
    if event.contains_key("all_passed") {
        return Err(RuleError::new("all_passed", words).rule(rule));
    }
    read_event(event)
}

/// Deserialises `object` into `T`; a refusal names the unknown, missing or mistyped field.
pub fn read<T: DeserializeOwned>(object: &Map<String, Value>) -> Result<T, RuleError> {
    // Read in place: no copy of the event.
    refusal(serde_path_to_error::deserialize(object))
}

/// Deserialises the JSON `text` into `T`, borrowing from it where `T` does (a
/// `RawValue` kept for later): no tree of the whole text is built. A
/// refusal names the field as [`read`] does; `.` for text that is not one JSON value.
pub fn read_json<'de, T: Deserialize<'de>>(text: &'de [u8]) -> Result<T, RuleError> {
    let mut reader = serde_json::Deserializer::from_slice(text);
    let read = refusal(serde_path_to_error::deserialize(&mut reader))?;
    reader
        .end()
        .map_err(|e| RuleError::new(".", strip_position(&e.to_string())))?;
    Ok(read)
}

/// [`read`] for a game's event, whose `type` its event enum has already read
/// ([`crate::rules::typed::Events`]), so its written struct holds only what the kind says.
pub fn read_event<T: DeserializeOwned>(event: &Map<String, Value>) -> Result<T, RuleError> {
    let fields = event
        .iter()
        .filter(|(name, _)| name.as_str() != "type")
        .map(|(name, value)| (name.as_str(), value));
    let deserializer = MapDeserializer::<_, serde_json::Error>::new(fields);
    refusal(serde_path_to_error::deserialize(deserializer))
}

/// The refusal naming the unknown, missing or mistyped field of a failed read.
fn refusal<T>(
    read: Result<T, serde_path_to_error::Error<serde_json::Error>>,
) -> Result<T, RuleError> {
    read.map_err(|err| {
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
    fn refuses_numbers_beyond_the_limit_naming_their_place() {
        let ok = serde_json::json!({"meld": 1500, "bids": [250, -1_000_000_000], "x": 2.5});
        assert!(check_numbers(&ok, "").is_ok());
        let big = serde_json::json!({"meld": 1_000_000_000_000_000_000i64});
        assert_eq!(check_numbers(&big, "").unwrap_err().field, "meld");
        let min = serde_json::json!({"A": i64::MIN});
        assert_eq!(
            check_numbers(&min, "opening_scores").unwrap_err().field,
            "opening_scores.A"
        );
        let huge = serde_json::json!({"bids": [1, 1e300]});
        assert_eq!(check_numbers(&huge, "").unwrap_err().field, "bids[1]");
        let unsigned = serde_json::json!([u64::MAX]);
        assert_eq!(
            check_numbers(&unsigned, "event").unwrap_err().field,
            "event[0]"
        );
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

    #[test]
    fn the_rule_is_kept_apart_from_the_words_and_cited_after_them() {
        let e = RuleError::new("bid", "240 is below the minimum 250").rule("rules §1.1");
        assert_eq!(e.message, "240 is below the minimum 250");
        assert_eq!(e.rule.as_deref(), Some("rules §1.1"));
        assert_eq!(
            e.to_string(),
            "bid: 240 is below the minimum 250 (rules §1.1)"
        );
        let within = e.within("replacement");
        assert_eq!(within.field, "replacement.bid");
        assert_eq!(within.rule.as_deref(), Some("rules §1.1"), "kept inside");
        let plain = RuleError::new("dealer", "who dealt?");
        assert_eq!(plain.rule, None);
        assert_eq!(plain.to_string(), "dealer: who dealt?");
    }
}
