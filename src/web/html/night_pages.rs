//! Night pages: grouping history sessions into a night, and the night's page (nets, fewest
//! transfers with the games behind them, payments and their voids). Members only; changes
//! for writers only.

use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::error_page;
use super::history_pages::{Net, money_text, net};
use super::history_pages::{member, whole};
use crate::error::AppError;
use crate::ids::ClubId;
use crate::ids::NightId;
use crate::ids::PaymentId;
use crate::ids::SessionId;
use crate::money::Money;
use crate::service::clubs::Access;
use crate::service::nights::{self, NightView};
use crate::service::settled_night;
use crate::web::AppState;
use crate::web::auth::Viewer;

/// The night pages' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/clubs/{id}/nights", post(group))
        .route("/clubs/{id}/nights/{nid}", get(night))
        .route("/clubs/{id}/nights/{nid}/payments", post(pay))
        .route("/clubs/{id}/nights/{nid}/payments/{pid}/void", post(void))
        .route(
            "/clubs/{id}/nights/{nid}/sessions/{sid}/remove",
            post(take_out),
        )
}

fn form<T: for<'de> Deserialize<'de>>(body: &str) -> Result<T, AppError> {
    serde_html_form::from_str(body).map_err(|e| AppError::BadRequest {
        field: "form".into(),
        message: e.to_string(),
    })
}

/// The history's "Make a night" form: ticked sessions, and a night or a new title.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct GroupForm {
    sessions: Vec<SessionId>,
    night: String,
    title: String,
}

async fn group(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(club): Path<ClubId>,
    body: String,
) -> Response {
    let done = async {
        member(&viewer, club, Access::Write)?;
        let f: GroupForm = form(&body)?;
        // A settled night takes no session with money in it.
        match whole("night", &f.night)?.map(NightId) {
            Some(nid) => {
                let at = (club, nid);
                settled_night::group_into(&state.pool, &state.folds, at, &f.title, &f.sessions)
                    .await
            }
            None => nights::group(&state.pool, club, None, &f.title, &f.sessions).await,
        }
    };
    match done.await {
        Ok(nid) => Redirect::to(&format!("/clubs/{club}/nights/{nid}")).into_response(),
        Err(e) => error_page(e),
    }
}

/// A night's title when it has one of its own: `None` for the day it was made on, which
/// the service writes for a blank title ("Night of 2026-12-07", a UTC day).
pub(super) fn own_title(title: &str) -> Option<&str> {
    let title = title.trim();
    let day = title.strip_prefix("Night of ").unwrap_or(title);
    let dated = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").is_ok();
    (!title.is_empty() && !dated).then_some(title)
}

#[derive(Template, WebTemplate)]
#[template(path = "history/night.html")]
struct NightPage {
    club: ClubId,
    can_write: bool,
    view: NightView,
}

impl NightPage {
    fn money(&self, m: &Money) -> Net {
        net(m.cents(), &self.view.currency)
    }
    fn cents(&self, c: &i64) -> String {
        money_text(*c, &self.view.currency)
    }
    /// The kitty's and the pot's accounts as players call them.
    fn who<'a>(&self, name: &'a str) -> &'a str {
        match name {
            crate::ledger::KITTY => "Kitty",
            crate::ledger::POT => "Pot",
            _ => name,
        }
    }
    /// The night as players call it: its own title, else its evening's day in words,
    /// "Monday 7 December 2026" (the UTC day; the page's script shows the phone's own).
    fn heading(&self) -> String {
        match self.untitled() {
            true => self.view.evening.format("%A %-d %B %Y").to_string(),
            false => self.view.night.title.clone(),
        }
    }
    /// Whether the night has no title of its own ([`own_title`]).
    fn untitled(&self) -> bool {
        own_title(&self.view.night.title).is_none()
    }
    /// The evening's start as `<time datetime>`.
    fn evening_at(&self) -> String {
        crate::store::time::rfc3339(self.view.evening)
    }
    /// Where everyone stands, as a sheet's standings read: the largest winner first, ties
    /// by name, the kitty and the pot last.
    fn standings(&self) -> Vec<&(String, Money)> {
        let mut rows: Vec<&(String, Money)> = self.view.settlement.net.iter().collect();
        let house = |n: &str| crate::ledger::HOUSE.contains(&n);
        rows.sort_by(|(a, x), (b, y)| {
            (house(a), std::cmp::Reverse(x.cents()), a).cmp(&(
                house(b),
                std::cmp::Reverse(y.cents()),
                b,
            ))
        });
        rows
    }
    fn any_open(&self) -> bool {
        self.view.sessions.iter().any(|s| s.open)
    }
    /// Who the payment form offers: the night's players, and the kitty where it holds money.
    fn names(&self) -> Vec<&str> {
        let house = |n: &str| crate::ledger::HOUSE.contains(&n);
        let net = &self.view.settlement.net;
        let players = net.iter().filter(|(n, _)| !house(n));
        let kitty = net.iter().filter(|(n, m)| house(n) && !m.is_zero());
        players.chain(kitty).map(|(n, _)| n.as_str()).collect()
    }
}

async fn night(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, nid)): Path<(ClubId, NightId)>,
) -> Response {
    let page = async {
        let grant = member(&viewer, club, Access::Read)?;
        Ok::<_, AppError>(NightPage {
            club,
            can_write: grant.access == Access::Write,
            view: nights::night(&state.reader, &state.folds, club, nid).await?,
        })
    };
    match page.await {
        Ok(page) => page.into_response(),
        Err(e) => error_page(e),
    }
}

/// A payment against the night.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PayForm {
    payer: String,
    payee: String,
    amount: String,
    /// The night as the page showed it ([`nights::NightView::seen`]; required: empty is
    /// refused, naming `seen`).
    seen: String,
    /// The session whose sheet recorded it (empty: the night's page), to go back to.
    back: String,
}

async fn pay(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, nid)): Path<(ClubId, NightId)>,
    body: String,
) -> Response {
    let done = async {
        member(&viewer, club, Access::Write)?;
        let f: PayForm = form(&body)?;
        let seen = Some(f.seen.trim()).filter(|s| !s.is_empty());
        let back = whole("back", &f.back)?.map(SessionId);
        nights::record_payment(
            &state.pool,
            &state.folds,
            club,
            nid,
            &f.payer,
            &f.payee,
            &f.amount,
            seen,
        )
        .await?;
        let sessions = touched(&state, nid).await?;
        // Back to the sheet it was recorded on, when that sheet is one of the night's.
        Ok::<_, AppError>(match back.filter(|b| sessions.contains(b)) {
            Some(sid) => format!("/sessions/{sid}#settle"),
            None => format!("/clubs/{club}/nights/{nid}"),
        })
    };
    match done.await {
        Ok(to) => Redirect::to(&to).into_response(),
        Err(e) => error_page(e),
    }
}

/// Wakes the live sheets of night `nid`'s sessions; the sessions.
async fn touched(state: &AppState, nid: NightId) -> Result<Vec<SessionId>, AppError> {
    let sessions = nights::sessions_in(&state.reader, nid).await?;
    for &sid in &sessions {
        state.changed(sid);
    }
    Ok(sessions)
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct VoidForm {
    reason: String,
}

async fn void(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, nid, pid)): Path<(ClubId, NightId, PaymentId)>,
    body: String,
) -> Response {
    let done = async {
        member(&viewer, club, Access::Write)?;
        let f: VoidForm = form(&body)?;
        nights::void_payment(&state.pool, club, nid, pid, &f.reason).await?;
        touched(&state, nid).await.map(|_| ())
    };
    match done.await {
        Ok(()) => Redirect::to(&format!("/clubs/{club}/nights/{nid}")).into_response(),
        Err(e) => error_page(e),
    }
}

/// Takes a session out of the night (refused while a payment stands, or while settled and
/// it has money in it).
async fn take_out(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, nid, sid)): Path<(ClubId, NightId, SessionId)>,
) -> Response {
    let done = async {
        member(&viewer, club, Access::Write)?;
        settled_night::take_out(&state.pool, &state.folds, (club, nid), sid).await
    };
    match done.await {
        Ok(()) => Redirect::to(&format!("/clubs/{club}/nights/{nid}")).into_response(),
        Err(e) => error_page(e),
    }
}
