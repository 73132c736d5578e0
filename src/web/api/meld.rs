//! `POST /api/v1/meld`: the meld calculator ([`crate::rules::meld`]) as JSON; writes
//! nothing, needs no token. An endpoint, not page script, so the dialog's sums are the very
//! code that later checks `meld_detail`, and the form keeps its state.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::openapi::ApiError;
use crate::error::AppError;
use crate::rules::meld::{self, Counted, Kind, MeldRules};
use crate::rules::{RuleError, Suit};

/// A trump suit.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Trump {
    /// ♠
    Spades,
    /// ♥
    Hearts,
    /// ♦
    Diamonds,
    /// ♣
    Clubs,
}

/// What the calculator is asked: the game, the melds tapped and/or the cards.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MeldRequest {
    /// One of the six pinochle games' ids (`auction_pinochle`, `partnership_pinochle`,
    /// `partnership_auction_pinochle`, `check_pinochle`, `contract_pinochle`,
    /// `two_handed_pinochle`), whose meld tables differ (rules §1.0, §3 item 30); the list
    /// is [`MeldRules::of`]'s, kept once. Another id is refused naming `game`.
    #[schema(example = "auction_pinochle")]
    pub game: String,
    /// How many of each meld (ids: flush, royal_marriage, marriage, dix, aces_100,
    /// kings_80, queens_60, jacks_40, pinochle, double_pinochle, roundhouse); a count of 2
    /// is a double run or eight of a kind.
    #[serde(default)]
    #[schema(example = json!({"flush": 1, "aces_100": 1, "pinochle": 1}))]
    pub melds: BTreeMap<String, u32>,
    /// The cards held, in the project's notation (`"AD TD KD QD JD QS JD"`); with melds they
    /// are checked to hold them, alone their melds are found. Needs `trump`.
    pub cards: Option<String>,
    /// The trump suit: needed with `cards`; without cards it lets the melds share cards
    /// exactly (unknown, melds are refused only if no trump makes them possible).
    pub trump: Option<Trump>,
}

/// One meld scored.
#[derive(Debug, Serialize, ToSchema)]
pub struct MeldLine {
    /// The meld's id.
    pub meld: String,
    /// How many.
    pub count: u32,
    /// Its name with the game's value ("double run", "2 × 100 aces").
    pub name: String,
    /// Its points.
    pub points: i64,
}

/// The melds scored: each named, their sum, and the same in words for a sheet row.
#[derive(Debug, Serialize, ToSchema)]
pub struct MeldCount {
    /// One line per meld.
    pub lines: Vec<MeldLine>,
    /// The sum, in points.
    pub total: i64,
    /// "run 150 + 100 aces 100 = 250".
    pub words: String,
}

impl From<Counted> for MeldCount {
    fn from(c: Counted) -> MeldCount {
        MeldCount {
            words: c.words(),
            total: c.total,
            lines: c
                .lines
                .into_iter()
                .map(|l| MeldLine {
                    meld: l.meld.into(),
                    count: l.count,
                    name: l.name,
                    points: l.points,
                })
                .collect(),
        }
    }
}

/// Scores `request` by its game's meld table. Errors name `melds`, `cards` or `trump`.
pub fn calculate(request: &MeldRequest) -> Result<Counted, RuleError> {
    let rules = MeldRules::of(&request.game)
        .ok_or_else(|| RuleError::new("game", "not a pinochle game with meld (rules §1.0)"))?;
    let mut tapped = Vec::new();
    for (id, n) in &request.melds {
        let kind = Kind::from_id(id).ok_or_else(|| {
            RuleError::new(format!("melds.{id}"), format!("\"{id}\" is not a meld"))
                .rule("rules §1.0")
        })?;
        tapped.push((kind, *n));
    }
    let trump = request.trump.map(|t| match t {
        Trump::Spades => Suit::Spades,
        Trump::Hearts => Suit::Hearts,
        Trump::Diamonds => Suit::Diamonds,
        Trump::Clubs => Suit::Clubs,
    });
    let Some(text) = request.cards.as_deref().filter(|c| !c.trim().is_empty()) else {
        return meld::count(rules, &tapped, trump);
    };
    let trump = trump.ok_or_else(|| RuleError::new("trump", "name the trump to read the cards"))?;
    let cards = meld::parse_cards(text, rules.hand)?;
    if tapped.is_empty() {
        meld::from_cards(rules, &cards, trump)
    } else {
        meld::with_cards(rules, &tapped, &cards, trump)
    }
}

#[utoipa::path(post, path = "/meld", tag = "meld",
    request_body = MeldRequest,
    responses((status = 200, description = "The melds scored, each named; nothing is written", body = MeldCount), (status = 400, description = "The body is not what this endpoint reads", body = ApiError), (status = 422, description = "Impossible meld: the field and the reason are named", body = ApiError)))]
/// `POST /meld`: the melds a player shows, scored by the game's table (see [`calculate`]).
pub(super) async fn count(
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<Json<MeldCount>, AppError> {
    let request: MeldRequest = super::read_body(payload)?;
    Ok(Json(calculate(&request)?.into()))
}
