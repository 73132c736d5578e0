//! Request shapes for the OpenAPI document, tight enough that a generated request
//! (Schemathesis) can be valid and reach the rules, not just the parser. The rules still
//! check everything.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// The event types of a session document (docs/session-format.md), common and games' own;
/// a game refuses one it does not play, naming `type`.
pub const EVENT_TYPES: [&str; 11] = [
    "hand",
    "payment",
    "close",
    "reopen",
    "void",
    "correction",
    "player_joins",
    "player_leaves",
    "declare_out",
    "kitty_divide",
    "game_over",
];

/// What an ISO currency code matches (the replay's rule: three capital letters).
pub const CURRENCY_PATTERN: &str = "^[A-Z]{3}$";

/// A game's id: an enum of [`crate::registry::GAMES`].
pub struct GameId;

impl PartialSchema for GameId {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(crate::registry::GAMES.iter().map(|r| r.game.id)))
            .description(Some("The game's id: one of the games this service keeps"))
            .into()
    }
}

impl ToSchema for GameId {}

/// A player's name: 1 to [`crate::rules::table::NAME_MAX`] characters (the rules say more).
pub struct PlayerName;

impl PartialSchema for PlayerName {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .min_length(Some(1))
            .max_length(Some(crate::rules::table::NAME_MAX))
            .description(Some("A player's name: 1 to 40 visible characters"))
            .into()
    }
}

impl ToSchema for PlayerName {}

/// An ISO currency code: three capital letters ([`CURRENCY_PATTERN`]).
pub struct Currency;

impl PartialSchema for Currency {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(CURRENCY_PATTERN))
            .description(Some("An ISO 4217 code, three capital letters (USD)"))
            .examples(["USD"])
            .into()
    }
}

impl ToSchema for Currency {}

/// One event: an object whose `type` is one of [`EVENT_TYPES`], other fields the game's.
pub struct Event;

impl PartialSchema for Event {
    fn schema() -> RefOr<Schema> {
        let kind = ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(EVENT_TYPES))
            .description(Some("The event's type"));
        let expected = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(0))
            .description(Some(
                "Only when recording one event: the event count the caller saw (not stored)",
            ));
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property("type", kind)
            .property("expected_events", expected)
            .required("type")
            // A hand at the examples' Auction Pinochle table (Ann, Bob, Cy).
            .examples([
                serde_json::json!({"type": "hand", "dealer": "Cy", "bidder": "Ann",
                "bid": 350, "trump": "hearts", "outcome": "made"}),
            ])
            .description(Some(
                "One event of a session document: its `type` and the fields that type has",
            ))
            .into()
    }
}

impl ToSchema for Event {}

/// A document format's name: the one value `format` may take.
fn format_name(name: &'static str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some([name]))
}

/// `scorekeeper/session@1`, the only `format` of a session document.
pub struct SessionFormat;

impl PartialSchema for SessionFormat {
    fn schema() -> RefOr<Schema> {
        format_name(crate::format::SESSION_FORMAT).into()
    }
}

impl ToSchema for SessionFormat {}
