//! A night in the JSON API: `GET /clubs/{id}/nights/{nid}` and `POST /clubs/{id}/nights`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::openapi::{ApiError, MoneyText};

use crate::error::AppError;
use crate::ids::NightId;
use crate::ids::PaymentId;
use crate::ids::{ClubId, SessionId};
use crate::money::Money;
use crate::service::clubs::Access;
use crate::service::nights;
use crate::store::time::rfc3339;
use crate::web::AppState;
use crate::web::auth::Viewer;
use crate::web::html::history_pages::member;

/// One account's net over the night.
#[derive(Serialize, ToSchema)]
pub struct NightNetJson {
    /// The name the club shows the player under now (a renamed player under the new name,
    /// two merged spellings as one), or `KITTY` for a kitty no close has shared out. The
    /// session documents and ledgers keep the names sat under.
    name: String,
    /// Positive: is owed.
    #[schema(value_type = MoneyText)]
    net: Money,
}

/// One session's result for a transfer's payer and payee.
#[derive(Serialize, ToSchema)]
pub struct BehindJson {
    #[schema(value_type = i64)]
    session: SessionId,
    game_name: String,
    /// The payer's balance in that session.
    #[schema(value_type = MoneyText)]
    payer: Money,
    /// The payee's balance in that session.
    #[schema(value_type = MoneyText)]
    payee: Money,
}

/// A transfer that settles the night.
#[derive(Serialize, ToSchema)]
pub struct NightTransferJson {
    from: String,
    to: String,
    #[schema(value_type = MoneyText)]
    amount: Money,
    /// The sessions behind it.
    behind: Vec<BehindJson>,
}

/// A payment recorded against the night.
#[derive(Serialize, ToSchema)]
pub struct NightPaymentJson {
    #[schema(value_type = i64)]
    id: PaymentId,
    payer: String,
    payee: String,
    #[schema(value_type = MoneyText)]
    amount: Money,
    /// RFC 3339, UTC.
    recorded_at: String,
    /// Set once voided: the payment no longer counts.
    voided_at: Option<String>,
    void_reason: Option<String>,
}

/// A night worked out.
#[derive(Serialize, ToSchema)]
pub struct NightJson {
    #[schema(value_type = i64)]
    id: NightId,
    title: String,
    /// RFC 3339, UTC.
    created_at: String,
    /// The sessions' ids, oldest first.
    #[schema(value_type = Vec<i64>)]
    sessions: Vec<SessionId>,
    net: Vec<NightNetJson>,
    transfers: Vec<NightTransferJson>,
    payments: Vec<NightPaymentJson>,
}

/// `GET /clubs/{id}/nights/{nid}`: the night's net per player, transfers and payments.
#[utoipa::path(get, path = "/clubs/{id}/nights/{nid}", tag = "history",
    params(("id" = i64, Path, description = "The club's id"),
        ("nid" = i64, Path, description = "The night's id")),
    responses(
        (status = 200, description = "The night worked out", body = NightJson),
        (status = 404, description = "No such night, or not yours to see", body = ApiError)))]
pub async fn night(
    State(state): State<AppState>,
    viewer: Viewer,
    Path((club, nid)): Path<(ClubId, NightId)>,
) -> Result<Json<NightJson>, AppError> {
    member(&viewer, club, Access::Read)?;
    let v = nights::night(&state.reader, &state.folds, club, nid).await?;
    Ok(Json(night_json(v)))
}

/// What `POST /clubs/{id}/nights` reads.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GroupBody {
    /// The ids of the club's sessions to group (at least one; each in no night yet, all in
    /// the night's one currency).
    #[schema(value_type = Vec<i64>, min_items = 1)]
    sessions: Vec<SessionId>,
    /// A night of the club to add them to; absent for a new night.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    night: Option<NightId>,
    /// The new night's title, at most 80 characters (absent or blank: "Night of <day>").
    #[serde(default)]
    #[schema(max_length = 80)]
    title: Option<String>,
}

/// `POST /clubs/{id}/nights`: groups sessions of the club as one night (a new one, or added
/// to `night`), as the history's "Make a night" form does; 201 with the night worked out.
/// Nothing is written on a refusal.
#[utoipa::path(post, path = "/clubs/{id}/nights", tag = "history",
    params(("id" = i64, Path, description = "The club's id")),
    request_body = GroupBody,
    responses(
        (status = 201, description = "The night worked out", body = NightJson),
        (status = 400, description = "No session chosen, a title over 80 characters, or a body this endpoint does not read", body = ApiError),
        (status = 403, description = "A read-only grant cannot group sessions", body = ApiError),
        (status = 404, description = "No such club, night or session, or not yours", body = ApiError),
        (status = 409, description = "A session is in a night already, or is kept in another currency than the night (a night settles up in one currency), or has money in it while the night is settled (only a new hand or a void makes a settled night owe again)", body = ApiError)))]
pub async fn group(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(club): Path<ClubId>,
    payload: Result<Json<Value>, JsonRejection>,
) -> Result<(StatusCode, Json<NightJson>), AppError> {
    member(&viewer, club, Access::Write)?;
    let body: GroupBody = super::read_body(payload)?;
    let title = body.title.as_deref().unwrap_or("");
    let nid = match body.night {
        // A settled night takes no session with money in it.
        Some(nid) => {
            let (pool, folds) = (&state.pool, &state.folds);
            crate::service::settled_night::group_into(
                pool,
                folds,
                (club, nid),
                title,
                &body.sessions,
            )
            .await?
        }
        None => nights::group(&state.pool, club, None, title, &body.sessions).await?,
    };
    let v = nights::night(&state.reader, &state.folds, club, nid).await?;
    Ok((StatusCode::CREATED, Json(night_json(v))))
}

/// The night as the API shows it.
fn night_json(v: nights::NightView) -> NightJson {
    NightJson {
        id: v.night.id,
        title: v.night.title,
        created_at: rfc3339(v.night.created_at),
        sessions: v.sessions.iter().map(|s| SessionId(s.session_id)).collect(),
        net: v
            .settlement
            .net
            .into_iter()
            .map(|(name, net)| NightNetJson { name, net })
            .collect(),
        transfers: v
            .settlement
            .transfers
            .into_iter()
            .map(|t| NightTransferJson {
                from: t.transfer.from,
                to: t.transfer.to,
                amount: t.transfer.amount,
                behind: t
                    .behind
                    .into_iter()
                    .map(|b| BehindJson {
                        session: SessionId(b.session_id),
                        game_name: b.game_name,
                        payer: b.payer,
                        payee: b.payee,
                    })
                    .collect(),
            })
            .collect(),
        payments: v
            .payments
            .into_iter()
            .map(|p| NightPaymentJson {
                id: p.id,
                payer: p.payer,
                payee: p.payee,
                amount: Money::from_cents(p.amount_cents),
                recorded_at: rfc3339(p.recorded_at),
                voided_at: p.voided_at.map(rfc3339),
                void_reason: p.void_reason,
            })
            .collect(),
    }
}
