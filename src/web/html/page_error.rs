//! A refusal or an error as a page shows it: the field in the form's words, the message a
//! person reads, and the page for what no form can show.

use askama::Template;
use askama_web::WebTemplate;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

/// A refusal shown on a page: the field, the message in player words, and the rule that
/// refuses it, for the message's details.
pub struct PageError {
    /// The field at fault, if any.
    pub field: Option<String>,
    /// The message a person reads: the thing on the form and what is wrong, without field
    /// paths, event numbers or the rule's citation.
    pub message: String,
    /// The rule that refuses it (`"rules §1.1"`), shown in a small details under the
    /// message; `None` when none is cited.
    pub rule: Option<String>,
}

impl From<&AppError> for PageError {
    /// A refusal reads in the form's words: "Bidder: Zed is not seated at this table", not
    /// "event 5: replacement.bidder: … (rules §1.1)" (the event number, the field path and
    /// the citation are for the API and the session document; the citation goes in the
    /// page's details).
    fn from(e: &AppError) -> PageError {
        let (message, rule) = match e {
            AppError::Refused(r) => (named(&r.field, &r.message), r.rule.clone()),
            AppError::BadRequest { field, message } => (named(field, message), None),
            other => (other.public_message(), None),
        };
        PageError {
            field: e.field(),
            message,
            rule,
        }
    }
}

/// `message` after the name of the thing on the form it is about ("Bid: 240 is below the
/// minimum 250"); alone when the field is the event or the form as a whole.
fn named(field: &str, message: &str) -> String {
    let whole = ["", "type", "event", "form", "replacement", "body"];
    let last = field.rsplit('.').next().unwrap_or(field);
    if whole.contains(&field) || whole.contains(&last) {
        let mut chars = message.chars();
        return match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => String::new(),
        };
    }
    let words = field_words(field);
    // "All passed, but the form also has a contract…" names its field already.
    if message.to_lowercase().starts_with(&words.to_lowercase()) {
        return named("", message);
    }
    format!("{words}: {message}")
}

/// A field path as a player names the thing on the form: the document's wrappers dropped
/// (`replacement.`, `agreements.`, `a.`, `points.`), dots and underscores as spaces, the
/// first letter capital, list entries counted from one, one player's entry as his:
/// `tricks.Ann` → "Ann's tricks", `replacement.bidder` → "Bidder",
/// `NS.tricks` → "NS tricks", `points.high` → "High", `auction[6]` → "Auction 7".
pub fn field_words(field: &str) -> String {
    let wrappers = ["replacement", "agreements", "a", "points", "event"];
    let parts: Vec<&str> = field
        .split('.')
        .skip_while(|part| wrappers.contains(part))
        .collect();
    // One player's entry reads as his: `tricks.Ann` → "Ann's tricks".
    if let [what, who] = parts.as_slice()
        && what.starts_with(|c: char| c.is_ascii_lowercase())
        && who.starts_with(char::is_uppercase)
        && who.chars().any(char::is_lowercase)
    {
        return format!("{who}'s {}", what.replace('_', " "));
    }
    let words: Vec<String> = parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            // An entry by its place counts from one, its list named in the singular:
            // `rounds.0.item` → "round 1 item".
            if let Ok(n) = part.parse::<usize>() {
                return (n + 1).to_string();
            }
            let next_is_place = parts.get(i + 1).is_some_and(|p| p.parse::<usize>().is_ok());
            let part = match (next_is_place, part.strip_suffix('s')) {
                (true, Some(one)) => one,
                _ => part,
            };
            // A list entry counts from one, as players do: `auction[6]` → "auction 7".
            let part = match part.split_once('[') {
                Some((name, rest)) => match rest.trim_end_matches(']').parse::<usize>() {
                    Ok(i) => format!("{name} {}", i + 1),
                    Err(_) => part.to_string(),
                },
                None => part.to_string(),
            };
            part.replace('_', " ")
        })
        .collect();
    let joined = words.join(" ");
    let mut chars = joined.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "The form".into(),
    }
}

/// An error page for what cannot be shown on a form (no such session, internal errors).
#[derive(Template, WebTemplate)]
#[template(path = "error.html")]
pub(super) struct ErrorPage {
    pub(super) title: String,
    pub(super) message: String,
    pub(super) login: bool,
}

/// The page for an error that no form can show.
pub fn error_page(e: AppError) -> Response {
    let status = e.status();
    if let AppError::Internal(cause) = &e {
        tracing::error!(%cause, "page failed");
    }
    let title = match status {
        StatusCode::NOT_FOUND => "Not found",
        StatusCode::UNAUTHORIZED => "Log in first",
        StatusCode::FORBIDDEN => "Not allowed",
        StatusCode::TOO_MANY_REQUESTS => "Too many attempts",
        StatusCode::SERVICE_UNAVAILABLE => "Busy, try again",
        _ => "Something went wrong",
    };
    let page = ErrorPage {
        title: title.into(),
        message: e.public_message(),
        login: status == StatusCode::UNAUTHORIZED,
    };
    let mut response = (status, page).into_response();
    if let Some(seconds) = e.retry_after() {
        response.headers_mut().insert(
            axum::http::header::RETRY_AFTER,
            axum::http::HeaderValue::from(seconds),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::field_words;

    #[test]
    fn fields_are_named_as_on_the_form() {
        assert_eq!(field_words("replacement.bidder"), "Bidder");
        assert_eq!(field_words("agreements.stake"), "Stake");
        assert_eq!(field_words("a.stake"), "Stake");
        assert_eq!(field_words("points.high"), "High");
        assert_eq!(field_words("NS.tricks"), "NS tricks");
        assert_eq!(field_words("all_passed"), "All passed");
        assert_eq!(field_words("replacement.NS.meld"), "NS meld");
        assert_eq!(field_words("auction[6]"), "Auction 7");
        assert_eq!(field_words("rounds.0.item"), "Round 1 item");
        assert_eq!(field_words("tricks.Ann"), "Ann's tricks");
        assert_eq!(field_words("put_in.Ann"), "Ann's put in");
        assert_eq!(field_words(""), "The form");
    }
}
