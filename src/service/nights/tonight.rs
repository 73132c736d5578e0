//! Tonight's night on the new-session form: the evening's sessions to join, the choice
//! checked before the session is made, then the session put in the night.

use chrono::Utc;

use super::{club_night, club_session, group, mixed, night_priced, priced};
use crate::error::AppError;
use crate::history::night::{Priced, one_currency};
use crate::ids::SessionId;
use crate::ids::{ClubId, NightId};
use crate::service::history::game_name;
use crate::store::nights as ns;
use crate::store::{ReadPool, WritePool};

/// A session of the club from the same evening, which a new session can join as a night.
#[derive(Debug, Clone)]
pub struct Tonight {
    /// The session.
    pub session_id: SessionId,
    /// Its game's name.
    pub game_name: String,
    /// The night it is in, with the night's title, if any.
    pub night: Option<(NightId, String)>,
}

/// Sessions started within this many hours count as the same evening.
pub const EVENING_HOURS: i64 = 12;

/// The club's sessions of the last [`EVENING_HOURS`], newest first (at most 10), with
/// their nights.
pub async fn tonight(pool: &ReadPool, club: ClubId) -> Result<Vec<Tonight>, AppError> {
    let since = Utc::now() - chrono::Duration::hours(EVENING_HOURS);
    let mut conn = pool.acquire().await?;
    Ok(ns::sessions_since(&mut conn, club, since)
        .await?
        .into_iter()
        .map(|(sid, game, night, title)| Tonight {
            session_id: sid,
            game_name: game_name(&game),
            night: night.zip(title),
        })
        .collect())
}

/// What the new-session form chose for tonight's night.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NightChoice {
    /// Not part of a night (the default).
    None,
    /// Join night `id`.
    Join(NightId),
    /// Start a night with session `id` (of the same evening) and the new one.
    With(SessionId),
}

impl NightChoice {
    /// Parses the form's `night`: empty, `night:<id>` or `with:<session id>`. Errors:
    /// [`AppError::BadRequest`] naming `night`.
    pub fn parse(text: &str) -> Result<NightChoice, AppError> {
        let bad = || AppError::BadRequest {
            field: "night".into(),
            message: "choose tonight's night from the list".into(),
        };
        let text = text.trim();
        if text.is_empty() {
            return Ok(NightChoice::None);
        }
        let (kind, id) = text.split_once(':').ok_or_else(bad)?;
        let id: i64 = id.parse().map_err(|_| bad())?;
        match kind {
            "night" => Ok(NightChoice::Join(NightId(id))),
            "with" => Ok(NightChoice::With(SessionId(id))),
            _ => Err(bad()),
        }
    }
}

/// Checks a [`NightChoice`] before the session is made, so a bad one writes nothing. Errors:
/// [`AppError::NotFound`] (not the club's); [`AppError::Conflict`] (field `night`) when the
/// session is already in a night or the night has another currency.
pub async fn check_choice(
    pool: &ReadPool,
    club: ClubId,
    choice: &NightChoice,
    game: &str,
    currency: &str,
) -> Result<(), AppError> {
    let mut conn = pool.acquire().await?;
    let new = Priced {
        words: format!("The new {}", game_name(game)),
        currency: currency.to_string(),
    };
    let night = match *choice {
        NightChoice::None => return Ok(()),
        NightChoice::Join(night) => {
            club_night(&mut conn, club, night).await?;
            night_priced(&mut conn, Some(night)).await?
        }
        NightChoice::With(sid) => {
            club_session(&mut conn, club, sid).await?;
            if let Some(night) = ns::night_of_session(&mut conn, sid).await? {
                return Err(AppError::Conflict {
                    field: "night".into(),
                    message: format!(
                        "session {sid} is already in night {night}; choose to join that night"
                    ),
                });
            }
            vec![priced(&mut conn, sid).await?]
        }
    };
    one_currency(&night, &[new])
        .map(|_| ())
        .map_err(|m| mixed(m, "night"))
}

/// Puts new session `id` in the chosen night (a new one is `"Night of <day>"`). Errors as
/// [`group`].
pub async fn join(
    pool: &WritePool,
    club: ClubId,
    choice: &NightChoice,
    id: SessionId,
) -> Result<(), AppError> {
    match *choice {
        NightChoice::None => Ok(()),
        NightChoice::Join(night) => group(pool, club, Some(night), "", &[id]).await.map(|_| ()),
        NightChoice::With(before) => group(pool, club, None, "", &[before, id]).await.map(|_| ()),
    }
}
