//! A club's sessions list, a page at a time, reading only the club's own sessions.

use crate::error::AppError;
use crate::ids::ClubId;
use crate::ids::SessionId;
use crate::store::{self, ReadPool, SessionSummaryRow};

/// How many sessions one page of a club's sessions list holds.
pub const SESSIONS_PAGE: usize = 50;

/// One page of a club's sessions, newest first, and where the next page starts.
#[derive(Debug, Clone, Default)]
pub struct SessionsPage {
    /// At most [`SESSIONS_PAGE`] sessions, newest first.
    pub sessions: Vec<SessionSummaryRow>,
    /// The next (older) page's `before`: this page's oldest id.
    pub next: Option<SessionId>,
}

/// A page of `club`'s sessions below id `before`, newest first; none without a club
/// (club-less sessions are never listed).
pub async fn list(
    pool: &ReadPool,
    club: Option<ClubId>,
    before: Option<SessionId>,
) -> Result<SessionsPage, AppError> {
    let Some(club) = club else {
        return Ok(SessionsPage::default());
    };
    let mut conn = pool.acquire().await?;
    let limit = i64::try_from(SESSIONS_PAGE)
        .unwrap_or(i64::MAX)
        .saturating_add(1);
    let mut sessions = store::list_sessions(&mut conn, club, before, limit).await?;
    let more = sessions.len() > SESSIONS_PAGE;
    sessions.truncate(SESSIONS_PAGE);
    let next = more.then(|| sessions.last().map(|s| s.id)).flatten();
    Ok(SessionsPage { sessions, next })
}

/// The table a new session most likely repeats ([`store::last_session`]).
pub async fn last_session(
    pool: &ReadPool,
    club: ClubId,
    game: &str,
) -> Result<Option<SessionSummaryRow>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::last_session(&mut conn, club, game).await?)
}

/// The agreements of the club's own sessions of `game` that name their game (a house
/// game's `name`, rules §1.12), one per name, the latest first: the new-session form
/// offers them before the game's presets. At most the latest 200 sessions are read.
pub async fn own_games(
    pool: &ReadPool,
    club: ClubId,
    game: &str,
) -> Result<Vec<(String, serde_json::Map<String, serde_json::Value>)>, AppError> {
    let Some(registered) = crate::registry::game(game).filter(|g| g.counted_by_session_name) else {
        return Ok(Vec::new());
    };
    let mut conn = pool.acquire().await?;
    let mut own: Vec<(String, serde_json::Map<String, serde_json::Value>)> = Vec::new();
    for text in store::agreements_of_game(&mut conn, club, game, 200).await? {
        let agreements: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&text).unwrap_or_default();
        let name = registered.session_name(&agreements);
        if !own.iter().any(|(n, _)| *n == name) {
            own.push((name, agreements));
        }
    }
    Ok(own)
}

/// The ids of every session of `club`, oldest first.
pub async fn club_session_ids(pool: &ReadPool, club: ClubId) -> Result<Vec<SessionId>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::club_session_ids(&mut conn, club).await?)
}
