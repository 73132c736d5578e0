//! The sessions' pages: the list of the viewer's sessions, the new-session form and the
//! session it creates.

use std::collections::HashMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{Form, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum_extra::extract::cookie::CookieJar;

use super::{PageError, error_page, form_map, sheet};
use crate::error::AppError;
use crate::ids::NightId;
use crate::ids::{ClubId, SessionId};
use crate::registry;
use crate::rules::AgreementSpec;
use crate::rules::game::agreements_from_form;
use crate::service::clubs::{self, Access, SessionLinks};
use crate::service::{self, NewSessionInput};
use crate::store::SessionSummaryRow;
use crate::web::AppState;
use crate::web::auth::Viewer;

#[derive(Template, WebTemplate)]
#[template(path = "sessions/list.html")]
struct ListPage {
    sessions: Vec<SessionSummaryRow>,
    /// The link to the next (older) page, when there is one.
    more: Option<String>,
    club: Option<(ClubId, String, bool)>,
}

impl SessionSummaryRow {
    /// The game's name ("Check Pinochle"), or its id when no longer registered.
    pub fn game_name(&self) -> &str {
        registry::game(&self.game).map_or(self.game.as_str(), |g| g.name)
    }

    /// The start in the sheet's words ("2026-05-01 20:15 UTC"), localised by the script.
    pub fn started_words(&self) -> String {
        sheet::time_words(self.created_at)
    }

    /// The start as `<time datetime>` ([`crate::store::time::rfc3339`]).
    pub fn started_at(&self) -> String {
        crate::store::time::rfc3339(self.created_at)
    }
}

/// The games offered, as `(id, name)`.
pub fn offered_games() -> Vec<(&'static str, &'static str)> {
    registry::GAMES
        .iter()
        .map(|r| (r.game.id, r.game.name))
        .collect()
}

/// The viewer's club's sessions, by `?before=` pages.
pub(super) async fn list(
    State(state): State<AppState>,
    viewer: Viewer,
    Query(query): Query<crate::web::Before>,
) -> Response {
    let page = async {
        let club = match viewer.grant {
            Some(g) => {
                let c = clubs::club(&state.reader, g.club_id).await?;
                Some((c.id, c.name, g.access == Access::Write))
            }
            None => None,
        };
        let page = service::list(&state.reader, viewer.club(), query.before).await?;
        Ok::<_, AppError>(ListPage {
            sessions: page.sessions,
            more: page.next.map(|id| format!("/?before={id}")),
            club,
        })
    };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "sessions/new.html")]
struct NewPage {
    game_id: String,
    game_name: String,
    rules: String,
    seats: Vec<usize>,
    fewest: usize,
    fields: &'static [AgreementSpec],
    values: HashMap<String, String>,
    error: Option<PageError>,
    /// The club's players, offered for every seat.
    roster: Vec<String>,
    /// The seating of the club's last session of this game (else any game).
    last_seating: Vec<String>,
    /// The club's sessions of this evening, which the new session can join as one night.
    tonight: Vec<crate::service::nights::Tonight>,
    /// One-tap agreements: the club's own games first, then the game's presets.
    presets: Vec<PresetLink>,
}

/// A one-tap choice of agreements on the new-session form: this form again, filled in.
struct PresetLink {
    /// The button's words ("Hearts").
    label: String,
    /// Under them ("3–6 players", "your club's").
    note: String,
    /// The form's address with the agreements in its query.
    href: String,
}

impl PresetLink {
    fn new(game: &str, label: String, note: String, fields: &[(String, String)]) -> PresetLink {
        let mut query = vec![("game".to_string(), game.to_string())];
        query.extend(fields.iter().cloned());
        let href = format!(
            "/sessions/new?{}",
            serde_html_form::to_string(&query).unwrap_or_default()
        );
        PresetLink { label, note, href }
    }
}

/// The one-tap agreements of `game`: `own` (the club's, by name, latest first), then the
/// game's presets not already among them.
fn preset_links(
    game: &crate::rules::GameInfo,
    own: Vec<(String, serde_json::Map<String, serde_json::Value>)>,
) -> Vec<PresetLink> {
    use crate::rules::game::form_of_agreements;
    let mut links: Vec<PresetLink> = own
        .into_iter()
        .map(|(name, agreements)| {
            let fields = form_of_agreements(game.agreements, &agreements);
            PresetLink::new(game.id, name, "your club's".into(), &fields)
        })
        .collect();
    for preset in game.presets {
        if links.iter().any(|l| l.label == preset.label) {
            continue;
        }
        let fields: Vec<(String, String)> = preset
            .agreements
            .iter()
            .map(|(n, v)| (format!("a.{n}"), v.to_string()))
            .collect();
        links.push(PresetLink::new(
            game.id,
            preset.label.into(),
            preset.players.into(),
            &fields,
        ));
    }
    links
}

impl NewPage {
    fn value(&self, name: &str, default: &str) -> String {
        self.values
            .get(name)
            .cloned()
            .unwrap_or_else(|| default.to_string())
    }

    fn invalid(&self, name: &str) -> bool {
        self.error.as_ref().and_then(|e| e.field.as_deref()) == Some(name)
    }

    /// Whether night `night` was offered before entry `index` (each night once).
    fn night_offered(&self, index: &usize, night: &NightId) -> bool {
        self.tonight
            .iter()
            .take(*index)
            .any(|t| t.night.as_ref().is_some_and(|(n, _)| n == night))
    }
}

fn new_page(
    game: &str,
    values: HashMap<String, String>,
    error: Option<PageError>,
) -> Result<NewPage, AppError> {
    let registered = registry::game(game)
        .ok_or_else(|| AppError::NotFound(format!("there is no game \"{game}\"")))?;
    Ok(NewPage {
        game_id: registered.id.into(),
        game_name: registered.name.into(),
        rules: registered.rules.into(),
        seats: (1..=registered.seats.1).collect(),
        fewest: registered.seats.0,
        fields: registered.agreements,
        values,
        error,
        roster: Vec::new(),
        last_seating: Vec::new(),
        tonight: Vec::new(),
        presets: preset_links(registered, Vec::new()),
    })
}

/// The club's roster and last seating (of `game`, else any), for the form; empty without a
/// club.
async fn club_seating(
    state: &AppState,
    viewer: &Viewer,
    game: &str,
) -> Result<(Vec<String>, Vec<String>), AppError> {
    let Some(club) = viewer.club() else {
        return Ok((Vec::new(), Vec::new()));
    };
    let roster = service::history::people(&state.reader, club)
        .await?
        .into_iter()
        .map(|p| p.display_name)
        .collect();
    let renamed = service::history::renamed_in_club(&state.reader, club).await?;
    let last = service::last_session(&state.reader, club, game)
        .await?
        .map(|s| {
            s.names()
                .into_iter()
                .map(|n| renamed.get(n).map_or(n, String::as_str).to_string())
                .collect()
        })
        .unwrap_or_default();
    Ok((roster, last))
}

/// The new-session form; `?last=1` fills the seats as at the club's last table.
pub(super) async fn new_form(
    State(state): State<AppState>,
    viewer: Viewer,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let first = registry::GAMES.first().map_or("", |r| r.game.id);
    let game = query.get("game").map_or(first, String::as_str);
    let page = async {
        let (roster, last_seating) = club_seating(&state, &viewer, game).await?;
        // A preset's link fills in agreements (`a.<name>`), which the table can still change.
        let mut values: HashMap<String, String> = query
            .iter()
            .filter(|(k, _)| k.starts_with("a."))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if query.get("last").is_some_and(|v| v == "1") {
            for (i, name) in last_seating.iter().enumerate() {
                values.insert(format!("player_{}", i + 1), name.clone());
            }
        }
        let mut page = new_page(game, values, None)?;
        page.roster = roster;
        page.last_seating = last_seating;
        if let (Some(club), Some(registered)) = (viewer.club(), registry::game(game)) {
            let own = service::own_games(&state.reader, club, game).await?;
            page.presets = preset_links(registered, own);
        }
        if let Some(g) = viewer.grant.filter(|g| g.access == Access::Write) {
            page.tonight = crate::service::nights::tonight(&state.reader, g.club_id).await?;
        }
        Ok::<_, AppError>(page)
    };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

/// Creates a session in the viewer's club (passphrase login), else an open session; a
/// read-only link cannot.
pub(super) async fn create(
    State(state): State<AppState>,
    viewer: Viewer,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let values = form_map(form);
    let game = values.get("game").cloned().unwrap_or_default();
    match start(&state, &viewer, &game, &values).await {
        // The write link stays in this browser; `/sessions/{id}/links` shows both to pass on.
        Ok((id, Some(links))) => (
            CookieJar::new().add(crate::web::auth::link_cookie(id, links.write)),
            Redirect::to(&format!("/sessions/{id}")),
        )
            .into_response(),
        Ok((id, None)) => Redirect::to(&format!("/sessions/{id}")).into_response(),
        Err(e @ (AppError::Refused(_) | AppError::BadRequest { .. })) => {
            match new_page(&game, values, Some(setup_error(&game, &e))) {
                Ok(page) => (StatusCode::UNPROCESSABLE_ENTITY, page).into_response(),
                Err(e) => error_page(e),
            }
        }
        Err(e) => error_page(e),
    }
}

/// Makes the session the form describes: its id, and its links when club-less. Errors:
/// [`AppError::Forbidden`] (read-only); [`AppError::BadRequest`] naming `game`, an
/// agreement or `night`; [`service::create_session`]'s. Nothing written on error.
async fn start(
    state: &AppState,
    viewer: &Viewer,
    game: &str,
    values: &HashMap<String, String>,
) -> Result<(SessionId, Option<SessionLinks>), AppError> {
    let club = match viewer.grant {
        Some(g) if g.access == Access::Write => Some(g.club_id),
        Some(_) => {
            return Err(AppError::Forbidden(
                "a read-only link cannot start sessions".into(),
            ));
        }
        None => None,
    };
    let registered = registry::game(game).ok_or_else(|| AppError::BadRequest {
        field: "game".into(),
        message: format!("there is no game \"{game}\""),
    })?;
    let agreements = agreements_from_form(registered.agreements, values)?;
    let input = NewSessionInput {
        game: game.to_string(),
        players: seated(values),
        agreements,
        currency: None,
        opening_scores: None,
    };
    match club {
        Some(club) => {
            // Tonight's night, chosen on the form: checked before the session is made.
            let night = crate::service::nights::NightChoice::parse(
                values.get("night").map_or("", String::as_str),
            )?;
            let currency = input.currency.as_deref().unwrap_or("USD");
            crate::service::nights::check_choice(&state.reader, club, &night, game, currency)
                .await?;
            let id = service::create_session(&state.pool, input, Some(club)).await?;
            crate::service::nights::join(&state.pool, club, &night, id).await?;
            Ok((id, None))
        }
        None => {
            let (id, links) = service::create_linked_session(&state.pool, input).await?;
            Ok((id, Some(links)))
        }
    }
}

/// The seated players (`player_1`, …), trimmed, empty seats left out.
fn seated(values: &HashMap<String, String>) -> Vec<String> {
    let mut players: Vec<(usize, String)> = values
        .iter()
        .filter_map(|(k, v)| {
            Some((
                k.strip_prefix("player_")?.parse::<usize>().ok()?,
                v.trim().to_string(),
            ))
        })
        .filter(|(_, v)| !v.is_empty())
        .collect();
    players.sort();
    players.into_iter().map(|(_, p)| p).collect()
}

/// A new-session refusal in the form's words: the agreement by its label ("Game (points):
/// -5 must be …"), not its path, and the field renamed to the form's input (`a.target`).
fn setup_error(game: &str, e: &AppError) -> PageError {
    let mut error = PageError::from(e);
    let label = error
        .field
        .as_deref()
        .and_then(|f| f.strip_prefix("agreements."))
        .and_then(|name| {
            registry::game(game)?
                .agreements
                .iter()
                .find(|spec| spec.name == name)
        })
        .map(|spec| spec.label);
    let message = match e {
        AppError::Refused(r) => Some(r.message.as_str()),
        AppError::BadRequest { message, .. } => Some(message.as_str()),
        _ => None,
    };
    if let (Some(label), Some(message)) = (label, message) {
        error.message = format!("{label}: {message}");
    }
    error.field = error.field.map(|f| f.replace("agreements.", "a."));
    error
}
