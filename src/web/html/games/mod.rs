//! How each game looks on the page: its agreement fields, its hand form and its score
//! sheet. One [`GameView`] per game, registered in [`view`].

pub mod auction_pinochle;
pub mod auction_pitch;
pub mod check_pinochle;
pub mod history;

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::error::AppError;
use crate::service::Loaded;

/// The kind of input an agreement takes on the new-session form.
#[derive(Debug, Clone)]
pub enum FieldKind {
    /// Money as a decimal string (`"0.05"`).
    Money,
    /// A whole number; empty means "the default".
    Number,
    /// Yes or no.
    Bool,
    /// One of the listed `(value, label)` choices, written as a string.
    Choice(Vec<(&'static str, &'static str)>),
    /// One of the listed whole numbers.
    NumberChoice(Vec<i64>),
}

/// One agreement on the new-session form, with its default filled in and a short
/// explanation from the rules.
#[derive(Debug, Clone)]
pub struct AgreementField {
    /// The agreement's name in the session document.
    pub name: &'static str,
    /// The label a player reads.
    pub label: &'static str,
    /// The input kind.
    pub kind: FieldKind,
    /// The default, as the form shows it.
    pub default: &'static str,
    /// Why it matters, with the rule's source.
    pub help: &'static str,
}

impl AgreementField {
    /// The choices for a select input, as `(value, label)`.
    pub fn options(&self) -> Vec<(String, String)> {
        match &self.kind {
            FieldKind::Bool => vec![("yes".into(), "yes".into()), ("no".into(), "no".into())],
            FieldKind::Choice(c) => c
                .iter()
                .map(|(v, l)| (v.to_string(), l.to_string()))
                .collect(),
            FieldKind::NumberChoice(n) => {
                n.iter().map(|v| (v.to_string(), v.to_string())).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Whether the form shows a select (else a text input).
    pub fn is_select(&self) -> bool {
        !self.options().is_empty()
    }

    /// The HTML input mode for a phone keyboard.
    pub fn inputmode(&self) -> &'static str {
        match self.kind {
            FieldKind::Money => "decimal",
            _ => "numeric",
        }
    }

    /// Turns the submitted text into the agreement's JSON value; `None` for an empty field
    /// (the rules' default applies). Errors name `agreements.<name>`.
    pub fn to_json(&self, text: &str) -> Result<Option<Value>, AppError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        let bad = |m: String| AppError::BadRequest {
            field: format!("agreements.{}", self.name),
            message: m,
        };
        Ok(Some(match &self.kind {
            FieldKind::Money | FieldKind::Choice(_) => Value::String(text.to_string()),
            FieldKind::Bool => Value::Bool(match text {
                "yes" => true,
                "no" => false,
                other => return Err(bad(format!("\"{other}\" is neither yes nor no"))),
            }),
            FieldKind::Number | FieldKind::NumberChoice(_) => Value::from(
                text.parse::<i64>()
                    .map_err(|_| bad(format!("\"{text}\" is not a whole number")))?,
            ),
        }))
    }
}

/// A game's pages.
pub trait GameView: Sync {
    /// The agreements offered on the new-session form, defaults filled in.
    fn agreement_fields(&self) -> Vec<AgreementField>;
    /// The agreements in words for the top of the score sheet (Scarne: they must be
    /// written on the sheet), as `(label, value)`.
    fn agreements_summary(&self, loaded: &Loaded) -> Vec<(String, String)>;
    /// The score sheet's table, rendered.
    fn sheet(&self, loaded: &Loaded) -> Result<String, AppError>;
    /// The next hand's form, rendered; `values` are what was submitted last time (after a
    /// refusal), `error_field` the field to mark.
    fn hand_form(
        &self,
        loaded: &Loaded,
        values: &HashMap<String, String>,
        error_field: Option<&str>,
    ) -> Result<String, AppError>;
    /// Turns the submitted hand form into a `hand` event as in the session document.
    /// Errors name the field.
    fn hand_event(&self, form: &HashMap<String, String>) -> Result<Value, AppError>;
    /// The form values that show `event` (a `hand` as in the session document) in the hand
    /// form, to correct it. By default every field becomes the input of that name, nested
    /// fields with dots (`points.high`, `NS.meld`), `null` as `"nobody"`, `true` as
    /// `"true"`, and a list of names as a count per name (`NS.meld_checks.aces_100` = 2).
    fn form_values(&self, event: &Value) -> HashMap<String, String> {
        let mut values = HashMap::new();
        flatten("", event, &mut values);
        values
    }
}

fn flatten(prefix: &str, value: &Value, into: &mut HashMap<String, String>) {
    let key = |name: &str| {
        if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix}.{name}")
        }
    };
    match value {
        Value::Object(fields) => {
            for (name, inner) in fields {
                flatten(&key(name), inner, into);
            }
        }
        Value::Array(items) => {
            for name in items.iter().filter_map(Value::as_str) {
                let count = into.entry(key(name)).or_insert_with(|| "0".into());
                *count = (count.parse::<usize>().unwrap_or(0) + 1).to_string();
            }
        }
        Value::String(s) => {
            into.insert(prefix.to_string(), s.clone());
        }
        Value::Number(n) => {
            into.insert(prefix.to_string(), n.to_string());
        }
        Value::Bool(true) => {
            into.insert(prefix.to_string(), "true".into());
        }
        Value::Null => {
            into.insert(prefix.to_string(), "nobody".into());
        }
        Value::Bool(false) => {}
    }
}

/// The view registered for a game id.
pub fn view(game: &str) -> Option<&'static dyn GameView> {
    match game {
        "auction_pinochle" => Some(&auction_pinochle::VIEW),
        "auction_pitch" => Some(&auction_pitch::VIEW),
        "check_pinochle" => Some(&check_pinochle::VIEW),
        _ => None,
    }
}

/// Builds the agreements object from the submitted form (`a.<name>` fields).
pub fn agreements_from_form(
    fields: &[AgreementField],
    form: &HashMap<String, String>,
) -> Result<Map<String, Value>, AppError> {
    let mut agreements = Map::new();
    for field in fields {
        if let Some(text) = form.get(&format!("a.{}", field.name))
            && let Some(value) = field.to_json(text)?
        {
            agreements.insert(field.name.to_string(), value);
        }
    }
    Ok(agreements)
}

/// Renders a game's template to HTML; a template failure is an internal error.
pub trait RenderPage {
    /// The rendered HTML.
    fn render_page(&self) -> Result<String, AppError>;
}

impl<T: askama::Template> RenderPage for T {
    fn render_page(&self) -> Result<String, AppError> {
        self.render().map_err(|e| AppError::Internal(e.to_string()))
    }
}

/// The hand form's values with the next dealer pre-selected, unless a dealer was already
/// submitted (after a refusal) or is being corrected.
pub fn with_next_dealer(
    loaded: &Loaded,
    values: &HashMap<String, String>,
) -> HashMap<String, String> {
    let mut values = values.clone();
    if !values.contains_key("dealer")
        && let Some(next) = loaded.next_dealer.clone()
    {
        values.insert("dealer".into(), next);
    }
    values
}

/// A submitted field, trimmed; `None` when empty or absent.
pub fn given<'a>(form: &'a HashMap<String, String>, name: &str) -> Option<&'a str> {
    form.get(name).map(|s| s.trim()).filter(|s| !s.is_empty())
}

/// A submitted whole number, `None` when empty. Errors name the field.
pub fn number(form: &HashMap<String, String>, name: &str) -> Result<Option<i64>, AppError> {
    given(form, name)
        .map(|t| {
            t.parse::<i64>().map_err(|_| AppError::BadRequest {
                field: name.into(),
                message: format!("\"{t}\" is not a whole number"),
            })
        })
        .transpose()
}

/// A money amount as signed text for a sheet cell: `"+0.20"`, `"−0.10"`, or empty for zero.
pub fn signed(cents: i64) -> String {
    let m = crate::money::Money::from_cents(cents.abs());
    match cents.signum() {
        1 => format!("+{m}"),
        -1 => format!("−{m}"),
        _ => String::new(),
    }
}
