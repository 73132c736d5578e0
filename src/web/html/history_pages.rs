//! Nights past: history with filters, titles and archiving, player pages and charts, the
//! leaderboard, renames and merges, a session's balance chart. Thin over
//! [`crate::service::history`]; club members only (others see "not found"), changes for
//! writers only.

use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;

use super::{PageError, error_page};
use crate::error::AppError;
use crate::history::chart::{Chart, line_chart};
use crate::ids::ClubId;
use crate::ids::PersonId;
use crate::ids::SessionId;
use crate::service::clubs::{self, Access, Grant};
use crate::service::history::{self as hist, HistoryEntry, HistoryQuery, PlayerStats};
use crate::store::history::{LeaderRow, PersonRow};
use crate::store::time::{day as day_of, rfc3339};
use crate::web::AppState;
use crate::web::auth::Viewer;

/// The history pages' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/clubs/{id}/history", get(history))
        .route("/clubs/{id}/sessions/{sid}/title", post(title))
        .route("/clubs/{id}/sessions/{sid}/archive", post(archive))
        .route("/clubs/{id}/leaderboard", get(leaderboard))
        .route("/clubs/{id}/players/{pid}", get(player))
        .route("/clubs/{id}/players/{pid}/rename", post(rename))
        .route("/clubs/{id}/players/{pid}/merge", post(merge))
        .route("/sessions/{id}/chart", get(session_chart))
}

/// The viewer's grant for club `club`, at least `need`. Errors: [`AppError::NotFound`] for
/// non-members; [`AppError::Forbidden`] for read-only when `need` is [`Access::Write`].
pub(crate) fn member(viewer: &Viewer, club: ClubId, need: Access) -> Result<Grant, AppError> {
    let grant = viewer
        .grant
        .filter(|g| g.club_id == club)
        .ok_or_else(|| AppError::NotFound(format!("there is no club {club}")))?;
    if need == Access::Write && grant.access != Access::Write {
        return Err(AppError::Forbidden(
            "this is a read-only link; log in with the club's passphrase to change this".into(),
        ));
    }
    Ok(grant)
}

/// [`member`] (read), then [`hist::backfill`], so no history read shows facts not caught up.
/// Errors: as [`member`]; the store's.
pub(crate) async fn open_history(
    state: &AppState,
    viewer: &Viewer,
    club: ClubId,
) -> Result<Grant, AppError> {
    let grant = member(viewer, club, Access::Read)?;
    hist::backfill(&state.pool, &state.folds, club).await?;
    Ok(grant)
}

/// A form's or query's fields as typed; blanks mean "not given".
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Filters {
    pub(crate) game: String,
    pub(crate) player: String,
    pub(crate) from: String,
    pub(crate) to: String,
    pub(crate) archived: String,
    pub(crate) page: String,
}

impl Filters {
    /// The history query these fields ask for. Errors: a field not a day or number, named.
    pub(crate) fn query(&self) -> Result<HistoryQuery, AppError> {
        Ok(HistoryQuery {
            game: Some(self.game.trim().to_string()).filter(|g| !g.is_empty()),
            person: whole("player", &self.player)?.map(PersonId),
            from: day("from", &self.from)?,
            to: day("to", &self.to)?,
            archived: !self.archived.is_empty(),
            page: whole("page", &self.page)?.unwrap_or(1).max(1),
        })
    }
}

pub(crate) fn day(field: &str, text: &str) -> Result<Option<NaiveDate>, AppError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map(Some)
        .map_err(|_| AppError::BadRequest {
            field: field.into(),
            message: format!("{text} is not a day like 2026-11-24"),
        })
}

pub(crate) fn whole(field: &str, text: &str) -> Result<Option<i64>, AppError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<i64>()
        .map(Some)
        .map_err(|_| AppError::BadRequest {
            field: field.into(),
            message: format!("{text} is not a number"),
        })
}

pub(crate) fn parse_query<T: for<'de> Deserialize<'de> + Default>(
    raw: Option<String>,
) -> Result<T, AppError> {
    match raw {
        None => Ok(T::default()),
        Some(q) => serde_html_form::from_str(&q).map_err(|e| AppError::BadRequest {
            field: "query".into(),
            message: e.to_string(),
        }),
    }
}

/// A money amount with its sign class ("plus", "minus", "").
pub struct Net {
    /// "$1.25", "−$0.40" (U+2212 minus), as the sheet writes money.
    pub text: String,
    /// The style class.
    pub class: &'static str,
}

/// `cents` in `currency` as every page writes money ([`crate::money::Money::shown`]).
pub fn money_text(cents: i64, currency: &str) -> String {
    crate::money::Money::from_cents(cents).shown(currency)
}

/// `cents` in `currency` as a page shows a won or lost amount, with its sign class.
pub fn net(cents: i64, currency: &str) -> Net {
    Net {
        text: money_text(cents, currency),
        class: match cents.signum() {
            1 => "plus",
            -1 => "minus",
            _ => "",
        },
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "history/list.html")]
struct HistoryPage {
    club: ClubId,
    can_write: bool,
    entries: Vec<HistoryEntry>,
    people: Vec<PersonRow>,
    games: Vec<(&'static str, &'static str)>,
    filters: Filters,
    page: i64,
    more: bool,
    /// The query without `page`, for the page links.
    query: String,
    /// The club's latest nights, to add ticked sessions to.
    nights: Vec<crate::store::nights::NightRow>,
    /// The night of each entry a night settles, by session id.
    marks: std::collections::BTreeMap<SessionId, crate::service::night_status::NightMark>,
}

impl HistoryPage {
    fn net(&self, cents: &i64, currency: &str) -> Net {
        net(*cents, currency)
    }
    /// A session's start in the sheet's words ("2026-11-24 20:15 UTC"): as long as the local
    /// words the script puts in its place, so the list does not shift.
    fn day(&self, at: &DateTime<Utc>) -> String {
        super::sheet::time_words(*at)
    }
    /// When a session started, as its `<time>` element's `datetime` writes it.
    fn stamp(&self, at: &DateTime<Utc>) -> String {
        rfc3339(*at)
    }
    fn status(&self, e: &HistoryEntry) -> &'static str {
        match (e.row.settled, e.row.closed) {
            (true, _) => "settled",
            (false, true) => "closed",
            (false, false) => "open",
        }
    }
    fn mark(&self, e: &HistoryEntry) -> Option<&crate::service::night_status::NightMark> {
        self.marks.get(&e.row.id)
    }
    fn chosen(&self, value: &str, id: &PersonId) -> bool {
        value == id.to_string()
    }
}

async fn history(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(club): Path<ClubId>,
    RawQuery(raw): RawQuery,
) -> Response {
    let page = async {
        let grant = open_history(&state, &viewer, club).await?;
        let filters: Filters = parse_query(raw)?;
        let query = filters.query()?;
        let (mut entries, more) = hist::history(&state.reader, club, &query).await?;
        let marks =
            crate::service::night_status::mark(&state.reader, &state.folds, club, &mut entries)
                .await?;
        let people = hist::people(&state.reader, club).await?;
        let given: Vec<(&str, &str)> = [
            ("game", filters.game.as_str()),
            ("player", filters.player.as_str()),
            ("from", filters.from.as_str()),
            ("to", filters.to.as_str()),
            ("archived", filters.archived.as_str()),
        ]
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .collect();
        let query_text = serde_html_form::to_string(given).unwrap_or_default();
        Ok::<_, AppError>(HistoryPage {
            club,
            can_write: grant.access == Access::Write,
            entries,
            people,
            games: super::offered_games(),
            page: query.page,
            filters,
            more,
            query: query_text,
            nights: crate::service::nights::nights_of(&state.reader, club).await?,
            marks,
        })
    };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TitleForm {
    title: String,
}

async fn title(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, sid)): Path<(ClubId, SessionId)>,
    axum::extract::Form(form): axum::extract::Form<TitleForm>,
) -> Response {
    let done = async {
        member(&viewer, club, Access::Write)?;
        hist::set_title(&state.pool, club, sid, &form.title).await
    };
    match done.await {
        Ok(()) => Redirect::to(&format!("/clubs/{club}/history")).into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ArchiveForm {
    archived: String,
}

async fn archive(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, sid)): Path<(ClubId, SessionId)>,
    axum::extract::Form(form): axum::extract::Form<ArchiveForm>,
) -> Response {
    let archived = form.archived == "1";
    let done = async {
        member(&viewer, club, Access::Write)?;
        hist::set_archived(&state.pool, club, sid, archived).await
    };
    match done.await {
        Ok(()) => Redirect::to(&format!("/clubs/{club}/history")).into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "history/leaderboard.html")]
struct LeaderboardPage {
    club: ClubId,
    rows: Vec<LeaderRow>,
    /// The club's currency (its latest session's).
    currency: String,
}

impl LeaderboardPage {
    fn net(&self, cents: &i64) -> Net {
        net(*cents, &self.currency)
    }
}

async fn leaderboard(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(club): Path<ClubId>,
) -> Response {
    let page = async {
        open_history(&state, &viewer, club).await?;
        Ok::<_, AppError>(LeaderboardPage {
            club,
            rows: hist::leaderboard(&state.reader, club).await?,
            currency: hist::club_currency(&state.reader, club).await?,
        })
    };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "history/player.html")]
struct PlayerPage {
    club: ClubId,
    can_write: bool,
    stats: PlayerStats,
    others: Vec<PersonRow>,
    chart: Chart,
    from: String,
    to: String,
    error: Option<PageError>,
    /// The club's currency (its latest session's).
    currency: String,
}

impl PlayerPage {
    fn net(&self, cents: &i64) -> Net {
        net(*cents, &self.currency)
    }
    fn day(&self, at: &DateTime<Utc>) -> String {
        day_of(*at)
    }
    /// A night's own title; `None` for one named by the day it was made on.
    fn own_title<'a>(&self, title: &'a Option<String>) -> Option<&'a str> {
        title.as_deref().and_then(super::night_pages::own_title)
    }
    fn game_name(&self, id: &str) -> String {
        hist::game_name(id)
    }
    fn rate(&self, part: &i64, whole: &i64) -> String {
        match (*part, *whole) {
            (_, 0) => "—".into(),
            (p, w) => format!("{}%", p.saturating_mul(100) / w),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RangeQuery {
    from: String,
    to: String,
}

async fn player_page(
    state: &AppState,
    viewer: &Viewer,
    club: ClubId,
    pid: PersonId,
    range: RangeQuery,
    error: Option<PageError>,
) -> Result<PlayerPage, AppError> {
    let grant = open_history(state, viewer, club).await?;
    let (from, to) = (day("from", &range.from)?, day("to", &range.to)?);
    let stats = hist::player(&state.reader, club, pid, from, to).await?;
    let others = hist::people(&state.reader, club)
        .await?
        .into_iter()
        .filter(|p| p.id != pid)
        .collect();
    let mut running = stats.before_cents;
    let values: Vec<i64> = stats
        .chart
        .iter()
        .map(|e| {
            running = running.saturating_add(e.net_cents);
            running
        })
        .collect();
    let labels: Vec<String> = stats.chart.iter().map(|e| day_of(e.played_at)).collect();
    let currency = hist::club_currency(&state.reader, club).await?;
    let chart = line_chart(
        &format!("{}'s money over the nights", stats.person.display_name),
        &labels,
        &[(stats.person.display_name.clone(), values)],
        &|c| money_text(c, &currency),
    );
    Ok(PlayerPage {
        club,
        can_write: grant.access == Access::Write,
        stats,
        others,
        chart,
        from: range.from,
        to: range.to,
        error,
        currency,
    })
}

async fn player(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, pid)): Path<(ClubId, PersonId)>,
    RawQuery(raw): RawQuery,
) -> Response {
    let page = async {
        let range: RangeQuery = parse_query(raw)?;
        player_page(&state, &viewer, club, pid, range, None).await
    };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RenameForm {
    name: String,
}

async fn rename(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, pid)): Path<(ClubId, PersonId)>,
    axum::extract::Form(form): axum::extract::Form<RenameForm>,
) -> Response {
    let done = async {
        member(&viewer, club, Access::Write)?;
        hist::rename(&state.pool, club, pid, &form.name).await
    };
    refused_or_back(&state, &viewer, club, pid, pid, done.await).await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct MergeForm {
    into: String,
}

async fn merge(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, pid)): Path<(ClubId, PersonId)>,
    axum::extract::Form(form): axum::extract::Form<MergeForm>,
) -> Response {
    let into = whole("into", &form.into).map(|id| id.map(PersonId));
    let done = async {
        member(&viewer, club, Access::Write)?;
        let into = into?.ok_or_else(|| AppError::BadRequest {
            field: "into".into(),
            message: "choose the player to merge with".into(),
        })?;
        hist::merge(&state.pool, club, pid, into).await?;
        Ok(into)
    };
    match done.await {
        Ok(into) => refused_or_back(&state, &viewer, club, pid, into, Ok(())).await,
        Err(e) => refused_or_back(&state, &viewer, club, pid, pid, Err(e)).await,
    }
}

/// After a rename or merge: to the player's page, or the page again with the refusal.
async fn refused_or_back(
    state: &AppState,
    viewer: &Viewer,
    club: ClubId,
    pid: PersonId,
    to: PersonId,
    done: Result<(), AppError>,
) -> Response {
    match done {
        Ok(()) => Redirect::to(&format!("/clubs/{club}/players/{to}")).into_response(),
        Err(e @ AppError::BadRequest { .. }) => {
            let status = axum::http::StatusCode::UNPROCESSABLE_ENTITY;
            match player_page(
                state,
                viewer,
                club,
                pid,
                RangeQuery::default(),
                Some(PageError::from(&e)),
            )
            .await
            {
                Ok(page) => (status, page).into_response(),
                Err(e) => error_page(e),
            }
        }
        Err(e) => error_page(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "history/session_chart_page.html")]
struct SessionChartPage {
    id: SessionId,
    chart: Chart,
}

/// Each player's running balance: a point after the ante and every event that moved money.
async fn session_chart(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SessionId>,
) -> Response {
    let page = async {
        clubs::authorize(&state.reader, &state.folds, viewer.grant, id, Access::Read).await?;
        let running =
            crate::export::running::running_balances(&state.reader, &state.folds, id).await?;
        let renamed = hist::renamed_for_session(&state.reader, id).await?;
        let named: Vec<(String, Vec<i64>)> = running
            .series
            .into_iter()
            .map(|(p, s)| (renamed.get(&p).cloned().unwrap_or(p), s))
            .collect();
        let currency = running.currency;
        Ok::<_, AppError>(SessionChartPage {
            id,
            chart: line_chart(
                "Running balances, hand by hand",
                &running.labels,
                &named,
                &|c| money_text(c, &currency),
            ),
        })
    };
    match page.await {
        Ok(page) => ([(header::CACHE_CONTROL, "no-store")], page).into_response(),
        Err(e) => error_page(e),
    }
}
