//! The shapes of what requests carry, for the OpenAPI document: tight
//! enough that a request generated from the document (Schemathesis) can be valid, so that
//! it reaches the rules and a write, not only the body's parser. The games and event types
//! are enums, names and codes have their lengths and patterns; the rules still check
//! everything and refuse, naming the field, what the document cannot say.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// The event types a session document knows (docs/session-format.md): the common ones
/// (`hand`, `payment`, `close`, `reopen`, `void`, `correction`) and the games' own
/// (`player_joins`, `player_leaves`, `declare_out`, `kitty_divide`). A game refuses, naming
/// `type`, one it does not play; the document lists them so that a generated event can be
/// one.
pub const EVENT_TYPES: [&str; 10] = [
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
];

/// What an ISO currency code matches (the replay's rule: three capital letters).
pub const CURRENCY_PATTERN: &str = "^[A-Z]{3}$";

/// A game's id in the document: a string, one of [`crate::registry::GAMES`] (an
/// enum, so that a generated request names a game the service keeps).
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

/// A player's name in the document: 1 to [`crate::rules::table::NAME_MAX`] characters (the
/// name rule says more: visible, not the kitty's, unlike the table's other names).
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

/// One event as a request carries it: an object whose `type` is one of [`EVENT_TYPES`];
/// its other fields are the game's (docs/session-format.md), so they are left open.
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
            // A hand of the examples' Auction Pinochle table (Ann, Bob, Cy): an event a
            // generated request can record.
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
