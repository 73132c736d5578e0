//! The sessions list, the table a new session repeats, and the club export's ids.

use super::either::{Connected, on_either};
use super::postgres::Engine;
use super::time::StoredTime;
use crate::ids::ClubId;
use crate::ids::SessionId;

/// One line of the sessions list.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionSummaryRow {
    /// The session's id.
    pub id: SessionId,
    /// The game id.
    pub game: String,
    /// When it was created.
    #[sqlx(try_from = "StoredTime")]
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// Names in seat order joined by [`PLAYER_SEPARATOR`] (a comma would split "Ann, Bob");
    /// see [`SessionSummaryRow::names`].
    pub players: String,
    /// Hands that stand (dealt less voided; a corrected hand is one), as the history counts.
    pub hands: i64,
    /// Whether a `close` event was recorded.
    pub closed: bool,
    /// The club that owns it; `None` for an open session.
    pub club_id: Option<ClubId>,
}

/// U+001F, a control character no name may hold ([`crate::rules::table::player_name`]).
pub const PLAYER_SEPARATOR: char = '\u{1f}';

impl SessionSummaryRow {
    /// The players' names in seat order.
    pub fn names(&self) -> Vec<&str> {
        self.players.split(PLAYER_SEPARATOR).collect()
    }

    /// The players' names in words, "Ann, Bob, Cy".
    pub fn players_words(&self) -> String {
        self.names().join(", ")
    }
}

/// The columns of a sessions-list line (from the session's own rows), with two dialect
/// holes: joining the players in seat order, and reading a void's `event` from JSON.
macro_rules! summary {
    ($players:literal, $voided:literal) => {
        concat!(
            "SELECT s.id, s.game, s.created_at, ",
            $players,
            " AS players, \
   (SELECT count(*) FROM events WHERE session_id = s.id AND kind = 'hand') \
   - (SELECT count(*) FROM events v JOIN events h ON h.session_id = v.session_id \
      AND h.seq = ",
            $voided,
            " + 1 \
      WHERE v.session_id = s.id AND v.kind = 'void' AND h.kind = 'hand') AS hands, \
   EXISTS (SELECT 1 FROM events WHERE session_id = s.id AND kind = 'close') AS closed, \
   s.club_id FROM sessions s"
        )
    };
}

/// [`summary!`] per engine: SQLite `group_concat`/`json_extract`; PostgreSQL `string_agg`
/// with its own `ORDER BY` (a subquery's order is not promised there) and `jsonb`.
fn summary(engine: Engine) -> &'static str {
    match engine {
        Engine::Sqlite => summary!(
            "(SELECT group_concat(player, char(31)) FROM (SELECT player FROM seats WHERE session_id = s.id ORDER BY position))",
            "json_extract(v.body, '$.event')"
        ),
        Engine::Postgres => summary!(
            "(SELECT string_agg(player, chr(31) ORDER BY position) FROM seats WHERE session_id = s.id)",
            "(v.body::jsonb->>'event')::BIGINT"
        ),
    }
}

/// A page of `club`'s sessions below id `before`, newest first, at most `limit`: keyset
/// paging on `sessions_by_club`, so the cost is the page's.
pub async fn list_sessions(
    conn: &mut impl Connected,
    club: ClubId,
    before: Option<SessionId>,
    limit: i64,
) -> Result<Vec<SessionSummaryRow>, sqlx::Error> {
    let conn = conn.either();
    let summary = summary(conn.engine());
    let sql = format!("{summary} WHERE s.club_id = $1 AND s.id < $2 ORDER BY s.id DESC LIMIT $3");
    on_either!(conn, c => sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(club)
        .bind(before.map_or(i64::MAX, |b| b.0))
        .bind(limit)
        .fetch_all(c)
        .await)
}

/// The table a new session most likely repeats: `club`'s latest session at `game` with a
/// hand dealt, else its latest of any game (a session left without a hand is a mistake).
pub async fn last_session(
    conn: &mut impl Connected,
    club: ClubId,
    game: &str,
) -> Result<Option<SessionSummaryRow>, sqlx::Error> {
    const PLAYED: &str =
        "EXISTS (SELECT 1 FROM events e WHERE e.session_id = s.id AND e.kind = 'hand')";
    let summary = summary(conn.either().engine());
    let of_game = format!(
        "{summary} WHERE s.club_id = $1 AND s.game = $2 AND {PLAYED} ORDER BY s.id DESC LIMIT 1"
    );
    let found = on_either!(conn.either(), c => sqlx::query_as(sqlx::AssertSqlSafe(of_game))
        .bind(club)
        .bind(game)
        .fetch_optional(c)
        .await?);
    if found.is_some() {
        return Ok(found);
    }
    let any = format!("{summary} WHERE s.club_id = $1 AND {PLAYED} ORDER BY s.id DESC LIMIT 1");
    on_either!(conn.either(), c => sqlx::query_as(sqlx::AssertSqlSafe(any))
        .bind(club)
        .fetch_optional(c)
        .await)
}

/// The agreements (JSON text) of the club's latest `limit` sessions of `game`, newest
/// first: what the new-session form offers again (a house game's own games, rules §1.12).
pub async fn agreements_of_game(
    conn: &mut impl Connected,
    club: ClubId,
    game: &str,
    limit: i64,
) -> Result<Vec<String>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT agreements FROM sessions WHERE club_id = $1 AND game = $2 ORDER BY id DESC LIMIT $3",
    )
    .bind(club)
    .bind(game)
    .bind(limit)
    .fetch_all(c)
    .await)
}

/// The ids of every session of `club`, oldest first (for the whole-club export).
pub async fn club_session_ids(
    conn: &mut impl Connected,
    club: ClubId,
) -> Result<Vec<SessionId>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar(
        "SELECT id FROM sessions WHERE club_id = $1 ORDER BY id",
    )
    .bind(club)
    .fetch_all(c)
    .await)
}
