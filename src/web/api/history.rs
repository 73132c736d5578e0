//! The history in the JSON API under `/api/v1/clubs/{id}/…` (sessions with results, player
//! statistics, leaderboard), for the club's tokens; queries as on the pages.

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use serde::Serialize;
use utoipa::ToSchema;

use super::openapi::{ApiError, MoneyText};

use crate::error::AppError;
use crate::ids::{ClubId, PersonId, SessionId};
use crate::money::Money;
use crate::service::history as hist;
use crate::store::time::rfc3339;
use crate::web::AppState;
use crate::web::auth::Viewer;
use crate::web::html::history_pages::{Filters, day, open_history, parse_query};

/// Cents as the API's money: a decimal string ("0.90").
fn money(cents: i64) -> Money {
    Money::from_cents(cents)
}

/// One player's result in a session.
#[derive(Serialize, ToSchema)]
pub struct ResultJson {
    /// The person's id.
    #[schema(value_type = i64)]
    person: PersonId,
    /// The name shown now.
    name: String,
    /// Won or lost at play (payments left out).
    #[schema(value_type = MoneyText)]
    net: Money,
}

/// One session of the history.
#[derive(Serialize, ToSchema)]
pub struct SessionJson {
    #[schema(value_type = i64)]
    id: SessionId,
    title: Option<String>,
    game: String,
    game_name: String,
    /// RFC 3339, UTC.
    created_at: String,
    hands: i64,
    /// "open" | "closed" | "settled".
    status: &'static str,
    archived: bool,
    results: Vec<ResultJson>,
}

/// A page of the history.
#[derive(Serialize, ToSchema)]
pub struct HistoryJson {
    sessions: Vec<SessionJson>,
    page: i64,
    more: bool,
}

/// `GET /clubs/{id}/history`: a page of the club's sessions with each player's result.
#[utoipa::path(get, path = "/clubs/{id}/history", tag = "history",
    params(("id" = i64, Path, description = "The club's id"),
        ("game" = Option<String>, Query, description = "Only this game (its id)"),
        ("player" = Option<i64>, Query, description = "Only sessions this person sat in (a person id)"),
        ("from" = Option<String>, Query, description = "First day, YYYY-MM-DD"),
        ("to" = Option<String>, Query, description = "Last day, YYYY-MM-DD, included"),
        ("archived" = Option<String>, Query, description = "1: the archived sessions"),
        ("page" = Option<i64>, Query, description = "Page, from 1")),
    responses(
        (status = 200, description = "Sessions, newest first", body = HistoryJson),
        (status = 404, description = "No such club, or not yours to see", body = ApiError),
        (status = 422, description = "A filter that cannot be read", body = ApiError)))]
pub async fn history(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(club): Path<ClubId>,
    RawQuery(raw): RawQuery,
) -> Result<Json<HistoryJson>, AppError> {
    open_history(&state, &viewer, club).await?;
    let filters: Filters = parse_query(raw)?;
    let query = filters.query()?;
    let (mut entries, more) = hist::history(&state.reader, club, &query).await?;
    // A session a night settles is "settled" when the night is.
    crate::service::night_status::mark(&state.reader, &state.folds, club, &mut entries).await?;
    let sessions = entries
        .into_iter()
        .map(|e| SessionJson {
            id: e.row.id,
            title: e.row.title,
            game_name: e.game_name,
            game: e.row.game,
            created_at: rfc3339(e.row.created_at),
            hands: e.row.hands,
            status: match (e.row.settled, e.row.closed) {
                (true, _) => "settled",
                (false, true) => "closed",
                (false, false) => "open",
            },
            archived: e.row.archived,
            results: e
                .results
                .into_iter()
                .map(|(person, name, cents)| ResultJson {
                    person,
                    name,
                    net: money(cents),
                })
                .collect(),
        })
        .collect();
    Ok(Json(HistoryJson {
        sessions,
        page: query.page,
        more,
    }))
}

/// A session a player sat in, on his page (a session is not a night;
/// the night page's [`super::nights::NightJson`] is an evening's sessions).
#[derive(Serialize, ToSchema)]
pub struct PlayerSessionJson {
    #[schema(value_type = i64)]
    session: SessionId,
    played_at: String,
    game: String,
    #[schema(value_type = MoneyText)]
    net: Money,
}

/// Totals in one game (or all, `game` absent).
#[derive(Serialize, ToSchema)]
pub struct TotalsJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    /// Sessions played (a night of three games counts three).
    sessions: i64,
    #[schema(value_type = MoneyText)]
    net: Money,
    hands_bid: i64,
    hands_made: i64,
    hands_set: i64,
    games_won: i64,
    kitties_taken: i64,
}

/// Bids in one band (350 covers 350–399; Pitch bids are their own band).
#[derive(Serialize, ToSchema)]
pub struct BandJson {
    band: i64,
    bids: i64,
    made: i64,
}

/// A player's statistics.
#[derive(Serialize, ToSchema)]
pub struct PlayerJson {
    #[schema(value_type = i64)]
    id: PersonId,
    name: String,
    /// Every name sat under.
    names: Vec<String>,
    /// Nights played: evenings, the sessions of one night counted once, and so sessions in
    /// no night started within 12 hours of their evening's first.
    nights: usize,
    all: TotalsJson,
    /// Net within `from`/`to`, when asked.
    #[schema(value_type = Option<MoneyText>)]
    net_in_range: Option<Money>,
    by_game: Vec<TotalsJson>,
    bids_by_band: Vec<BandJson>,
    /// The session with the highest net.
    best_session: Option<PlayerSessionJson>,
    /// The latest sessions (at most 30), oldest first.
    recent_sessions: Vec<PlayerSessionJson>,
}

fn totals(t: &crate::store::history::TotalsRow, game: Option<String>) -> TotalsJson {
    TotalsJson {
        game,
        sessions: t.nights,
        net: money(t.net_cents),
        hands_bid: t.hands_bid,
        hands_made: t.hands_made,
        hands_set: t.hands_set,
        games_won: t.games_won,
        kitties_taken: t.kitties_taken,
    }
}

fn session(n: crate::store::history::NightRow) -> PlayerSessionJson {
    PlayerSessionJson {
        session: n.session_id,
        played_at: rfc3339(n.played_at),
        game: n.game,
        net: money(n.net_cents),
    }
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct Range {
    from: String,
    to: String,
}

/// `GET /clubs/{id}/players/{pid}`: one person's statistics in the club.
#[utoipa::path(get, path = "/clubs/{id}/players/{pid}", tag = "history",
    params(("id" = i64, Path, description = "The club's id"),
        ("pid" = i64, Path, description = "The person's id"),
        ("from" = Option<String>, Query, description = "First day of the range, YYYY-MM-DD"),
        ("to" = Option<String>, Query, description = "Last day of the range, YYYY-MM-DD, included")),
    responses(
        (status = 200, description = "The person's statistics", body = PlayerJson),
        (status = 404, description = "No such club or person, or not yours to see", body = ApiError),
        (status = 422, description = "A date that cannot be read", body = ApiError)))]
pub async fn player(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, pid)): Path<(ClubId, PersonId)>,
    RawQuery(raw): RawQuery,
) -> Result<Json<PlayerJson>, AppError> {
    open_history(&state, &viewer, club).await?;
    let range: Range = parse_query(raw)?;
    let stats = hist::player(
        &state.reader,
        club,
        pid,
        day("from", &range.from)?,
        day("to", &range.to)?,
    )
    .await?;
    Ok(Json(PlayerJson {
        id: stats.person.id,
        name: stats.person.display_name,
        names: stats.names,
        nights: stats.evenings,
        all: totals(&stats.all, None),
        net_in_range: stats.range_net.map(money),
        by_game: stats
            .by_game
            .iter()
            .map(|t| totals(t, Some(t.game.clone())))
            .collect(),
        bids_by_band: stats
            .bands
            .into_iter()
            .map(|(band, bids, made)| BandJson { band, bids, made })
            .collect(),
        best_session: stats.best.map(session),
        recent_sessions: stats.nights.into_iter().map(session).collect(),
    }))
}

/// A line of the leaderboard.
#[derive(Serialize, ToSchema)]
pub struct LeaderJson {
    #[schema(value_type = i64)]
    id: PersonId,
    name: String,
    /// Sessions played.
    sessions: i64,
    #[schema(value_type = MoneyText)]
    net: Money,
    hands_bid: i64,
    hands_made: i64,
    games_won: i64,
}

/// The leaderboard, the most money first.
#[derive(Serialize, ToSchema)]
pub struct LeaderboardJson {
    players: Vec<LeaderJson>,
}

/// `GET /clubs/{id}/leaderboard`: every person of the club, the most money won first.
#[utoipa::path(get, path = "/clubs/{id}/leaderboard", tag = "history",
    params(("id" = i64, Path, description = "The club's id")),
    responses(
        (status = 200, description = "The leaderboard", body = LeaderboardJson),
        (status = 404, description = "No such club, or not yours to see", body = ApiError)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(club): Path<ClubId>,
) -> Result<Json<LeaderboardJson>, AppError> {
    open_history(&state, &viewer, club).await?;
    let players = hist::leaderboard(&state.reader, club)
        .await?
        .into_iter()
        .map(|r| LeaderJson {
            id: r.person_id,
            name: r.name,
            sessions: r.nights,
            net: money(r.net_cents),
            hands_bid: r.hands_bid,
            hands_made: r.hands_made,
            games_won: r.games_won,
        })
        .collect();
    Ok(Json(LeaderboardJson { players }))
}
