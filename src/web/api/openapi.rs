//! The OpenAPI 3.1 document (`utoipa`), built from the `#[utoipa::path]` of every handler
//! [`super::router`] registers and the body shapes below; the session and ledger documents
//! as docs/session-format.md defines them. Money is always a string ([`MONEY_PATTERN`]).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::server::Server;
use utoipa::openapi::{ComponentsBuilder, InfoBuilder, OpenApi, OpenApiBuilder, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::money::Money;

pub use super::request_shapes::{
    CURRENCY_PATTERN, Currency, EVENT_TYPES, Event, GameId, PlayerName, SessionFormat,
};

/// What every money string matches: an optional minus, whole units, at most 2 decimals.
pub const MONEY_PATTERN: &str = r"^-?[0-9]+(\.[0-9]{1,2})?$";

/// The schema of every [`Money`] field, named `Money` (the core type has no OpenAPI).
pub struct MoneyText;

impl PartialSchema for MoneyText {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some(MONEY_PATTERN))
            .description(Some(
                "An exact amount of money: a decimal string with at most 2 places, never a JSON number",
            ))
            .examples(["-0.10"])
            .into()
    }
}

impl ToSchema for MoneyText {
    fn name() -> std::borrow::Cow<'static, str> {
        "Money".into()
    }
}

/// The document served at `/api/v1/openapi.json`.
pub fn document() -> OpenApi {
    let mut doc = super::router().split_for_parts().1;
    describe_bad_path_ids(&mut doc);
    doc
}

/// Adds to every operation with a path id the 400 for an id out of range
/// (`/sessions/abc`): the document must list every status (Schemathesis checks it).
fn describe_bad_path_ids(doc: &mut OpenApi) {
    use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    let bad_id = ResponseBuilder::new()
        .description("A path id that is not a whole number in range; the field names it")
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ApiError")))
                .build(),
        )
        .build();
    for item in doc.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ];
        for operation in operations.into_iter().flatten() {
            let mut has_path_id = false;
            for p in operation.parameters.iter_mut().flatten() {
                if matches!(p.parameter_in, ParameterIn::Path) {
                    has_path_id = true;
                    // Id 1 exists on a fresh server, so generated requests reach a real row.
                    *p = ParameterBuilder::from(p.clone())
                        .example(Some(json!(1)))
                        .build();
                }
            }
            if has_path_id {
                operation
                    .responses
                    .responses
                    .entry("400".into())
                    .or_insert_with(|| bad_id.clone().into());
            }
        }
    }
}

/// The document's frame, before the router adds its paths.
pub fn base() -> OpenApi {
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Scorekeeper API")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(
                    "Score and settle card games played at a real table. Money is a decimal \
                     string, never a number. Every refusal is `{\"error\": {\"code\", \"message\", \
                     \"field\"}}` and writes nothing. The session and ledger documents are \
                     `scorekeeper/session@1` and `scorekeeper/ledger@1` (docs/session-format.md).",
                ))
                .build(),
        )
        .servers(Some([Server::new("/api/v1")]))
        .components(Some(
            ComponentsBuilder::new()
                .security_scheme(
                    "bearer",
                    SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
                )
                .schema_from::<MoneyText>()
                .schema_from::<GameId>()
                .schema_from::<PlayerName>()
                .schema_from::<Currency>()
                .schema_from::<Event>()
                .schema_from::<SessionFormat>()
                .schema_from::<ApiError>()
                .build(),
        ))
        .build()
}

static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    document()
        .to_json()
        .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
});

/// `GET /openapi.json`: this API's OpenAPI 3.1 document.
#[utoipa::path(get, path = "/openapi.json", tag = "api",
    responses((status = 200, description = "The OpenAPI 3.1 document of this API", body = Value)))]
pub async fn openapi_json() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        DOCUMENT.as_str(),
    )
}

/// Every refusal: 4xx or 5xx with this body; nothing was written.
#[derive(Serialize, ToSchema)]
pub struct ApiError {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// The inside of [`ApiError`].
#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable machine-readable code.
    pub code: ErrorCode,
    /// What is wrong and which rule says so, in words.
    pub message: String,
    /// The field at fault (`events[3].bid`, `passphrase`, `body`), or null.
    pub field: Option<String>,
}

/// The codes of [`crate::error::AppError::code`].
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// 404: no such session or club (or not yours to see).
    NotFound,
    /// 422: the rules refused the input.
    Refused,
    /// 400: the body is not what the endpoint reads.
    BadRequest,
    /// 409: someone changed the session first.
    Conflict,
    /// 401: no valid token for a change.
    Unauthorized,
    /// 403: a read-only token tried to change something.
    Forbidden,
    /// 429: too many passphrase attempts.
    TooManyRequests,
    /// 500: our failure.
    Internal,
    /// 503 with `Retry-After`: the database stayed busy; nothing was written, send again.
    Busy,
    /// 503 with `Retry-After`: the server's disk is full; nothing was written, send again
    /// once space is freed.
    DiskFull,
    /// 503 with `Retry-After`: another club import is being read; this one was not, send
    /// it again.
    ImportBusy,
    /// 503 with `Retry-After`: the database cannot be reached or the connection broke before
    /// anything was committed; nothing was written, send again.
    DatabaseUnavailable,
    /// 503 with `Retry-After`: the connection broke during the commit, so the event may or
    /// may not be stored: send it again with the same `Idempotency-Key` (recorded at most
    /// once), or read the session first.
    OutcomeUnknown,
    /// 408: the request took longer than the server's limit and was stopped.
    Timeout,
}

/// `POST /sessions`: a new session.
#[derive(ToSchema)]
#[schema(example = json!({"game": "auction_pinochle", "players": ["Ann", "Bob", "Cy"],
    "agreements": {"stake": "0.05"}}))]
pub struct CreateSessionBody {
    /// The game id (`auction_pinochle`, `poker`, …).
    #[schema(value_type = GameId)]
    pub game: String,
    /// Player names in seat order, clockwise (2 to 10, as the game says).
    #[schema(value_type = Vec<PlayerName>, min_items = 2, max_items = 10)]
    pub players: Vec<String>,
    /// The table agreements (see the game in docs/session-format.md).
    #[schema(value_type = Object)]
    pub agreements: Option<Value>,
    /// ISO currency code; USD when absent.
    #[schema(value_type = Option<Currency>)]
    pub currency: Option<String>,
    /// Scores carried in from a paper sheet.
    pub opening_scores: Option<Value>,
}

/// The session document `scorekeeper/session@1`.
#[derive(ToSchema)]
#[schema(example = json!({"format": "scorekeeper/session@1", "game": "auction_pinochle",
    "currency": "USD", "agreements": {"stake": "0.05"}, "players": ["Ann", "Bob", "Cy"],
    "opening_scores": null, "events": [{"type": "hand", "dealer": "Cy", "bidder": "Ann",
    "bid": 350, "trump": "hearts", "outcome": "made"}]}))]
pub struct SessionDocument {
    /// Always `scorekeeper/session@1`.
    #[schema(value_type = SessionFormat)]
    pub format: String,
    /// The game id.
    #[schema(value_type = GameId)]
    pub game: String,
    /// ISO currency code of every amount.
    #[schema(value_type = Currency)]
    pub currency: String,
    /// The table agreements.
    #[schema(value_type = Object)]
    pub agreements: Value,
    /// Player names in seat order, clockwise (2 to 10, as the game says).
    #[schema(value_type = Vec<PlayerName>, min_items = 2, max_items = 10)]
    pub players: Vec<String>,
    /// Scores carried in from a paper sheet, or null.
    pub opening_scores: Option<Value>,
    /// Every event in order (`hand`, `payment`, `close`, `void`, `correction`, …).
    #[schema(value_type = Vec<Event>)]
    pub events: Vec<Value>,
}

/// One movement of money on one account.
#[derive(ToSchema)]
pub struct PostingEntry {
    /// A player's name, `KITTY` or `POT`.
    pub account: String,
    /// The change of the account's balance.
    #[schema(value_type = MoneyText)]
    pub amount: Money,
}

/// One entry of the ledger.
#[derive(ToSchema)]
pub struct LedgerEntry {
    /// The event's index + 1; 0 is the opening ante.
    pub seq: u64,
    /// The event's type.
    #[schema(rename = "type")]
    pub kind: String,
    /// The movements of money, summing to zero.
    pub postings: Vec<PostingEntry>,
    /// Running scores after it, for games that keep them.
    pub scores_after: Option<Value>,
    /// The reason in words.
    pub explanation: String,
}

/// A finished game.
#[derive(ToSchema)]
pub struct FinishedGameEntry {
    /// A player's name, `NS`/`EW`, or null for a draw.
    pub winner: Option<String>,
    /// How the winner was decided.
    pub decided_by: String,
    /// Scores at the end of the game.
    pub final_scores: Value,
}

/// One payment to make: `from` hands `amount` to `to`.
#[derive(ToSchema)]
pub struct TransferEntry {
    /// Who pays.
    pub from: String,
    /// Who receives.
    pub to: String,
    /// How much, always positive.
    #[schema(value_type = MoneyText)]
    pub amount: Money,
}

/// The ledger document `scorekeeper/ledger@1`.
#[derive(ToSchema)]
pub struct LedgerDocument {
    /// Always `scorekeeper/ledger@1`.
    pub format: String,
    /// The game id.
    pub game: String,
    /// ISO currency code.
    pub currency: String,
    /// One entry per event (plus the opening ante, seq 0).
    pub events: Vec<LedgerEntry>,
    /// Running scores of the game in progress, or null.
    pub scores: Option<Value>,
    /// Running check totals, or null.
    pub checks: Option<Value>,
    /// Every finished game.
    pub games: Vec<FinishedGameEntry>,
    /// Net money by account, summing to zero.
    #[schema(value_type = BTreeMap<String, MoneyText>)]
    pub balances: BTreeMap<String, Money>,
    /// The kitty's balance.
    #[schema(value_type = MoneyText)]
    pub kitty: Money,
    /// The fewest transfers that bring every balance to zero.
    pub settlement: Vec<TransferEntry>,
}

/// A session with its ledger.
#[derive(ToSchema)]
pub struct SessionView {
    /// The session's id.
    pub id: i64,
    /// When it was created (RFC 3339, UTC).
    pub created_at: String,
    /// Whether a `close` was recorded.
    pub closed: bool,
    /// The session document.
    pub session: SessionDocument,
    /// Its ledger.
    pub ledger: LedgerDocument,
    /// Only when a session is created or imported without a club: the paths of its
    /// capability links, to open in a browser (shown this once).
    pub links: Option<SessionLinksView>,
    /// Only then: the write secret, a bearer token that reads and writes the session.
    pub write_token: Option<String>,
    /// Only then: the read secret, a bearer token that only reads it.
    pub read_token: Option<String>,
}

/// The capability links of a session without a club.
#[derive(ToSchema)]
pub struct SessionLinksView {
    /// `/sessions/{id}/link/{write_token}`: enters hands.
    pub write: String,
    /// `/sessions/{id}/link/{read_token}`: looks only.
    pub read: String,
}

/// One session in a list.
#[derive(ToSchema)]
pub struct SessionSummary {
    /// The session's id.
    pub id: i64,
    /// The game id.
    pub game: String,
    /// When it was created (RFC 3339, UTC).
    pub created_at: String,
    /// Players in seat order.
    pub players: Vec<String>,
    /// Hands dealt.
    pub hands: i64,
    /// Whether a `close` was recorded.
    pub closed: bool,
}

/// The sessions the caller may see.
#[derive(ToSchema)]
pub struct SessionList {
    /// Newest first, at most 50.
    pub sessions: Vec<SessionSummary>,
    /// The path of the next (older) page (`/api/v1/sessions?before={id}`), or null on the
    /// last page.
    pub next: Option<String>,
}

/// Where a session stands after its last event.
#[derive(ToSchema)]
pub struct Standing {
    /// Events recorded.
    pub event_count: u64,
    /// Net money by account.
    #[schema(value_type = BTreeMap<String, MoneyText>)]
    pub balances: BTreeMap<String, Money>,
    /// The kitty's balance.
    #[schema(value_type = MoneyText)]
    pub kitty: Money,
    /// Running scores, or null.
    pub scores: Option<Value>,
    /// Running checks, or null.
    pub checks: Option<Value>,
    /// The proposed settlement, as the sheet's settle-up: before the close, what closing
    /// now would propose (the kitty shared out by its rule, never a payment to `KITTY`).
    pub settlement: Vec<TransferEntry>,
}

/// One event recorded, and where the session stands after it.
#[derive(ToSchema)]
pub struct Recorded {
    /// The event's ledger entry.
    pub event: LedgerEntry,
    /// Events recorded.
    pub event_count: u64,
    /// Net money by account.
    #[schema(value_type = BTreeMap<String, MoneyText>)]
    pub balances: BTreeMap<String, Money>,
    /// The kitty's balance.
    #[schema(value_type = MoneyText)]
    pub kitty: Money,
    /// Running scores, or null.
    pub scores: Option<Value>,
    /// Running checks, or null.
    pub checks: Option<Value>,
    /// The proposed settlement after it, as in [`Standing`].
    pub settlement: Vec<TransferEntry>,
}

/// A club's name and passphrase.
#[derive(ToSchema)]
pub struct CredentialsBody {
    /// The club's name (1 to 60 characters).
    #[schema(min_length = 1, max_length = 60)]
    pub name: String,
    /// Its passphrase (8 to 200 characters).
    #[schema(min_length = 8, max_length = 200)]
    pub passphrase: String,
}

/// A club just created.
#[derive(ToSchema)]
pub struct ClubCreated {
    /// The club's id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The read-only share link's path.
    pub share_link: String,
    /// A write token (send it as `Authorization: Bearer …`).
    pub token: String,
    /// Always `write`.
    pub access: String,
}

/// A token issued.
#[derive(ToSchema)]
pub struct TokenIssued {
    /// The club's id.
    pub club_id: i64,
    /// A write token.
    pub token: String,
    /// Always `write`.
    pub access: String,
}

/// One session of a club export.
#[derive(ToSchema)]
pub struct ExportedSessionEntry {
    /// When the session was created (RFC 3339).
    pub created_at: String,
    /// When each event was recorded (RFC 3339), one per event, or empty.
    pub recorded_at: Vec<String>,
    /// The session document.
    pub session: SessionDocument,
    /// The club's title for it, if given.
    pub title: Option<String>,
    /// Archived: hidden from the history list (never deleted). Absent means no.
    pub archived: Option<bool>,
}

/// A person of a club export: the name shown and the names sat under.
#[derive(ToSchema)]
pub struct ExportedPersonEntry {
    /// The name shown everywhere.
    pub display_name: String,
    /// The names the person sat under (the session documents' names).
    pub names: Vec<String>,
}

/// A payment against a night of a club export.
#[derive(ToSchema)]
pub struct ExportedNightPaymentEntry {
    /// Who paid.
    pub payer: String,
    /// Who received.
    pub payee: String,
    /// How much, above zero.
    #[schema(value_type = MoneyText)]
    pub amount: Money,
    /// When it was recorded (RFC 3339).
    pub recorded_at: String,
    /// When it was voided (RFC 3339), if it was.
    pub voided_at: Option<String>,
    /// Why it was voided.
    pub void_reason: Option<String>,
}

/// A night of a club export.
#[derive(ToSchema)]
pub struct ExportedNightEntry {
    /// Its title.
    pub title: String,
    /// When it was made (RFC 3339).
    pub created_at: String,
    /// Its sessions, as positions in the export's `sessions` (from 0).
    pub sessions: Vec<u32>,
    /// Its payments, voided ones included.
    pub payments: Vec<ExportedNightPaymentEntry>,
}

/// A whole club, `scorekeeper/club@1`: a portable backup.
#[derive(ToSchema)]
pub struct ClubDocument {
    /// Always `scorekeeper/club@1`.
    pub format: String,
    /// The club's name.
    pub name: String,
    /// The club's players.
    pub players: Vec<String>,
    /// Every session, oldest first.
    pub sessions: Vec<ExportedSessionEntry>,
    /// The club's people (renames and merges); absent in older exports.
    pub people: Option<Vec<ExportedPersonEntry>>,
    /// The club's nights with their payments; absent in older exports.
    pub nights: Option<Vec<ExportedNightEntry>>,
}

/// `POST /clubs/import`: a club export to import as a new club.
#[derive(ToSchema)]
pub struct ClubImportBody {
    /// The new club's name; the export's name when absent.
    #[schema(min_length = 1, max_length = 60)]
    pub name: Option<String>,
    /// The new club's passphrase (8 to 200 characters).
    #[schema(min_length = 8, max_length = 200)]
    pub passphrase: String,
    /// The export.
    pub club: ClubDocument,
}

/// A club imported.
#[derive(ToSchema)]
pub struct ClubImported {
    /// The new club's id.
    pub club_id: i64,
    /// Its name.
    pub name: String,
    /// A write token for it.
    pub token: String,
    /// Always `write`.
    pub access: String,
    /// The new sessions' ids, in the export's order.
    pub sessions: Vec<i64>,
}
