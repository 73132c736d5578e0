//! A refusal or an error as a page shows it: the field in the form's words, the message a
//! person reads, and the page for what no form can show.

use askama::Template;
use askama_web::WebTemplate;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;
use crate::rules::field::{Field, Part};

/// A refusal shown on a page: field, message in player words, and the rule for details.
pub struct PageError {
    /// The field at fault, if any.
    pub field: Option<String>,
    /// The message a person reads: no field paths, event numbers or citations.
    pub message: String,
    /// The rule (`"rules §1.1"`), shown in a details under the message.
    pub rule: Option<String>,
}

impl From<&AppError> for PageError {
    /// In the form's words: "Bidder: Zed is not seated at this table", not "event 5:
    /// replacement.bidder: … (rules §1.1)"; the citation goes in the details.
    fn from(e: &AppError) -> PageError {
        let (message, rule) = match e {
            AppError::Refused(r) => (named(&r.field, &r.message), r.rule.clone()),
            AppError::BadRequest { field, message } => {
                (named(&Field::from(field.as_str()), message), None)
            }
            other => (other.public_message(), None),
        };
        PageError {
            field: e.field(),
            message,
            rule,
        }
    }
}

/// `message` after its field's name ("Bid: 240 is below the minimum 250"); alone for the
/// event or form as a whole.
fn named(field: &Field, message: &str) -> String {
    let whole = ["", "type", "event", "form", "replacement", "body"];
    let is_whole = match field.parts().last() {
        None => true,
        Some(Part::Name(last)) => whole.contains(&last.as_str()),
        Some(_) => false,
    };
    if is_whole {
        return capitalised(message);
    }
    let words = field_words(field);
    // "All passed, but the form also has a contract…" names its field already.
    if message.to_lowercase().starts_with(&words.to_lowercase()) {
        return capitalised(message);
    }
    format!("{words}: {message}")
}

/// `text` with its first letter capital.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A field as a player names it: wrappers dropped, spaces for underscores, capitalised,
/// entries counted from one, a player's name as written ([`Part::Player`]): `tricks.Ann` →
/// "Ann's tricks", `replacement.bidder` → "Bidder", `auction[6]` → "Auction 7".
pub fn field_words(field: &Field) -> String {
    let wrappers = ["replacement", "agreements", "a", "points", "event"];
    let parts: Vec<&Part> = field
        .parts()
        .iter()
        .skip_while(|part| matches!(part, Part::Name(n) if wrappers.contains(&n.as_str())))
        .collect();
    // One player's entry reads as his: `tricks.Ann` → "Ann's tricks".
    if let [Part::Name(what), Part::Player(who)] = parts.as_slice() {
        return format!("{who}'s {}", what.replace('_', " "));
    }
    let mut words: Vec<String> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        match part {
            Part::Name(name) => {
                // An entry by its place has its list named in the singular:
                // `rounds.0.item` → "round 1 item".
                let next_is_place = matches!(parts.get(i + 1), Some(Part::Place(_)));
                let name = match (next_is_place, name.strip_suffix('s')) {
                    (true, Some(one)) => one,
                    _ => name.as_str(),
                };
                words.push(name.replace('_', " "));
            }
            // A list entry counts from one, as players do: `auction[6]` → "auction 7".
            Part::Place(n) => words.push((n + 1).to_string()),
            Part::Index(n) => match words.last_mut() {
                Some(list) => list.push_str(&format!(" {}", n + 1)),
                None => words.push((n + 1).to_string()),
            },
            // A name is written as the player or side goes by, never respelled.
            Part::Player(name) | Part::Side(name) => words.push(name.clone()),
        }
    }
    match parts.first() {
        None => "The form".into(),
        Some(Part::Player(_)) => words.join(" "),
        Some(_) => capitalised(&words.join(" ")),
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
        StatusCode::SERVICE_UNAVAILABLE if matches!(e, AppError::OutcomeUnknown) => {
            "Check the sheet first"
        }
        StatusCode::SERVICE_UNAVAILABLE => "Busy, try again",
        _ => "Something went wrong",
    };
    let page = ErrorPage {
        title: title.into(),
        message: e.public_message(),
        login: status == StatusCode::UNAUTHORIZED,
    };
    with_retry_after_of(&e, (status, page).into_response())
}

/// `response` (a page answering refusal `e`) with the `Retry-After` a retryable refusal
/// asks for ([`AppError::retry_after`]), as the API's answer to it carries: a phone's form
/// refused 503 while the database is away is told when to send it again.
pub fn with_retry_after_of(e: &AppError, mut response: Response) -> Response {
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
    use super::{field_words, named};
    use crate::rules::field::Field;

    fn words(text: &str) -> String {
        field_words(&Field::from(text))
    }

    #[test]
    fn fields_are_named_as_on_the_form() {
        assert_eq!(words("replacement.bidder"), "Bidder");
        assert_eq!(words("agreements.stake"), "Stake");
        assert_eq!(words("a.stake"), "Stake");
        assert_eq!(words("points.high"), "High");
        assert_eq!(words("NS.tricks"), "NS tricks");
        assert_eq!(words("all_passed"), "All passed");
        assert_eq!(words("replacement.NS.meld"), "NS meld");
        assert_eq!(words("auction[6]"), "Auction 7");
        assert_eq!(words("rounds.0.item"), "Round 1 item");
        assert_eq!(words(""), "The form");
        let ann = Field::name("tricks").player("Ann");
        assert_eq!(field_words(&ann), "Ann's tricks");
        let put_in = Field::name("replacement").join(Field::name("put_in").player("Ann"));
        assert_eq!(field_words(&put_in), "Ann's put in");
    }

    /// A player's name is read as written, whatever its letters (the engines mark players).
    #[test]
    fn a_players_entry_reads_as_his_whatever_his_name() {
        let entry = |what: &str, who: &str| field_words(&Field::name(what).player(who));
        assert_eq!(entry("tricks", "al"), "al's tricks");
        assert_eq!(entry("tricks", "AL"), "AL's tricks");
        assert_eq!(entry("tricks", "Tricks"), "Tricks's tricks");
        assert_eq!(entry("melds", "event"), "event's melds");
        // A name that is also a word of the document is still the player's.
        let tricks = Field::name("tricks").player("Tricks");
        assert_eq!(named(&tricks, "enter 130"), "Tricks's tricks: enter 130");
        let event = Field::name("melds").player("event");
        assert_eq!(named(&event, "enter 40"), "event's melds: enter 40");
        // Text names no player: a capitalised key reads as a plain word.
        assert_eq!(words("tricks.Ann"), "Tricks Ann");
        // A player in a longer path keeps his name as written.
        let bid = Field::name("rounds").place(0).then("bids").player("al");
        assert_eq!(field_words(&bid), "Round 1 bids al");
    }

    /// A wrong type in a per-player map of a JSON event names that player's entry (Two-handed
    /// Pinochle's `hand`, rules §1.9).
    #[test]
    fn a_json_entry_of_the_wrong_type_reads_as_the_players() {
        use crate::rules::{Ctx, Table};
        let players = ["Ann", "Bob"].map(String::from);
        let start = crate::rules::two_handed_pinochle::GAME.start;
        let mut engine = start(&serde_json::Map::new(), &players, None).unwrap();
        let mut table = Table::new(&players);
        let mut ctx = Ctx {
            table: &mut table,
            quiet: false,
        };
        let hand = serde_json::json!({"type": "hand", "dealer": "Ann",
            "melds": {"Ann": "lots", "Bob": 40}, "tricks": {"Ann": 150, "Bob": 100}});
        let e = engine
            .apply(&mut ctx, "hand", hand.as_object().unwrap())
            .unwrap_err();
        assert_eq!(e.field, "melds.Ann", "the API's field is unchanged");
        assert_eq!(field_words(&e.field), "Ann's melds");
        assert!(named(&e.field, &e.message).starts_with("Ann's melds: invalid type"));
        let ns = Field::from("NS.meld").with_entries(&players);
        assert_eq!(field_words(&ns), "NS meld");
    }
}
