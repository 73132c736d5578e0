//! The club's history in SQL (migration 0007): titles, archiving, one identity per person,
//! and the per-session results and totals the history pages read (cents), through indexes.

use std::fmt::Write as _;

use chrono::{DateTime, Utc};

use super::either::{Connected, on_either};
use super::postgres::Engine;
use super::time::{StoredTime, rfc3339};
use crate::ids::ClubId;
use crate::ids::PersonId;
use crate::ids::SessionId;

mod facts;
mod named;

pub use facts::{
    add_new_players, apply_facts_delta, backlog, bind_facts_delta, player_totals_rows,
    push_facts_delta, replace_session_facts, stored_facts,
};
pub use named::results_with_agreements;

/// The person behind `name`: the one it points at, else the one displayed as it (a renamed
/// player sitting under the new name), else a new person.
pub async fn ensure_person(
    conn: &mut impl Connected,
    club_id: ClubId,
    name: &str,
) -> Result<PersonId, sqlx::Error> {
    if let Some(id) = on_either!(conn.either(), c => sqlx::query_scalar::<_, PersonId>(
        "SELECT person_id FROM player_names WHERE club_id = $1 AND name = $2",
    )
    .bind(club_id)
    .bind(name)
    .fetch_optional(c)
    .await)?
    {
        return Ok(id);
    }
    let same_name = match conn.either().engine() {
        Engine::Sqlite => {
            "SELECT id FROM people WHERE club_id = $1 AND display_name = $2 COLLATE NOCASE"
        }
        Engine::Postgres => {
            "SELECT id FROM people WHERE club_id = $1 AND lower(display_name) = lower($2)"
        }
    };
    let existing: Option<PersonId> = on_either!(conn.either(), c => sqlx::query_scalar(same_name)
    .bind(club_id)
    .bind(name)
    .fetch_optional(c)
    .await)?;
    let id = match existing {
        Some(id) => id,
        None => on_either!(conn.either(), c => sqlx::query_scalar(
                "INSERT INTO people (club_id, display_name) VALUES ($1, $2) RETURNING id",
            )
            .bind(club_id)
            .bind(name)
            .fetch_one(c)
            .await)?,
    };
    on_either!(conn.either(), c => sqlx::query("INSERT INTO player_names (club_id, name, person_id) VALUES ($1, $2, $3)")
        .bind(club_id)
        .bind(name)
        .bind(id)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(id)
}

/// Takes session `session_id` off the backlog (its facts are written).
pub async fn done_backlog(
    conn: &mut impl Connected,
    session_id: SessionId,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("DELETE FROM history_backlog WHERE session_id = $1")
        .bind(session_id)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Sets a session's title (`None` clears it).
pub async fn set_title(
    conn: &mut impl Connected,
    session_id: SessionId,
    title: Option<&str>,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query(
        "INSERT INTO session_meta (session_id, title) VALUES ($1, $2) \
         ON CONFLICT (session_id) DO UPDATE SET title = excluded.title",
    )
    .bind(session_id)
    .bind(title)
    .execute(c)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Archives a session (hidden from the history list) or brings it back.
pub async fn set_archived(
    conn: &mut impl Connected,
    session_id: SessionId,
    archived: bool,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query(
        "INSERT INTO session_meta (session_id, archived) VALUES ($1, $2) \
         ON CONFLICT (session_id) DO UPDATE SET archived = excluded.archived",
    )
    .bind(session_id)
    // 0 or 1 (SQLite's encoding of a bool, and PostgreSQL's BIGINT column).
    .bind(i64::from(archived))
    .execute(c)
    .await
    .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Which of a club's sessions the history lists.
#[derive(Debug, Clone, Default)]
pub struct HistoryFilter {
    /// Only this game (an id).
    pub game: Option<String>,
    /// Only sessions this person sat in.
    pub person: Option<PersonId>,
    /// Created at or after this instant.
    pub from: Option<DateTime<Utc>>,
    /// Created before this instant.
    pub before: Option<DateTime<Utc>>,
    /// The archived sessions instead of the others.
    pub archived: bool,
}

/// One session of the history list.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct HistoryRow {
    /// The session's id.
    pub id: SessionId,
    /// The game id.
    pub game: String,
    /// Its agreements, as stored (JSON text): a house game's name is there.
    pub agreements: String,
    /// Its currency (ISO code).
    pub currency: String,
    /// When it was created.
    #[sqlx(try_from = "StoredTime")]
    pub created_at: DateTime<Utc>,
    /// Its title, if given.
    pub title: Option<String>,
    /// Whether it is archived.
    pub archived: bool,
    /// Hands that stand.
    pub hands: i64,
    /// A close was recorded.
    pub closed: bool,
    /// Closed and every balance at zero.
    pub settled: bool,
}

/// A page of the club's sessions under `filter`, newest first: at most `limit` from
/// `offset`.
pub async fn history(
    conn: &mut impl Connected,
    club_id: ClubId,
    filter: &HistoryFilter,
    limit: i64,
    offset: i64,
) -> Result<Vec<HistoryRow>, sqlx::Error> {
    // Flags stored as 0/1 (SQLite bool, PostgreSQL BIGINT), read as `<> 0`.
    let mut sql = String::from(
        "SELECT s.id, s.game, s.agreements, s.currency, s.created_at, m.title, COALESCE(m.archived, 0) <> 0 AS archived, \
         COALESCE(st.hands, 0) AS hands, COALESCE(st.closed, 0) <> 0 AS closed, \
         COALESCE(st.settled, 0) <> 0 AS settled \
         FROM sessions s LEFT JOIN session_meta m ON m.session_id = s.id \
         LEFT JOIN session_status st ON st.session_id = s.id WHERE s.club_id = $1 \
         AND COALESCE(m.archived, 0) = $2",
    );
    let mut n = 2;
    for (given, condition) in [
        (filter.game.is_some(), " AND s.game = "),
        (filter.from.is_some(), " AND s.created_at >= "),
        (filter.before.is_some(), " AND s.created_at < "),
    ] {
        if given {
            n += 1;
            let _ = write!(sql, "{condition}${n}");
        }
    }
    if filter.person.is_some() {
        n += 1;
        let _ = write!(
            sql,
            " AND EXISTS (SELECT 1 FROM session_results r JOIN player_names pn \
             ON pn.club_id = r.club_id AND pn.name = r.player WHERE r.session_id = s.id AND pn.person_id = ${n})"
        );
    }
    let _ = write!(
        sql,
        " ORDER BY s.id DESC LIMIT ${} OFFSET ${}",
        n + 1,
        n + 2
    );
    on_either!(conn.either(), c => {
        let mut q = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(club_id)
            .bind(i64::from(filter.archived));
        let bounds = [filter.from, filter.before].into_iter().flatten().map(rfc3339);
        for text in filter.game.iter().cloned().chain(bounds) {
            q = q.bind(text);
        }
        if let Some(person) = filter.person {
            q = q.bind(person);
        }
        q.bind(limit).bind(offset).fetch_all(c).await
    })
}

/// One player's result in one session, under the person's display name.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ResultRow {
    /// The session.
    pub session_id: SessionId,
    /// The person.
    pub person_id: PersonId,
    /// The person's display name.
    pub name: String,
    /// Net money in cents.
    pub net_cents: i64,
}

/// The results of `sessions`, each session's players in seat order (newcomers last).
pub async fn results_of(
    conn: &mut impl Connected,
    sessions: &[SessionId],
) -> Result<Vec<ResultRow>, sqlx::Error> {
    if sessions.is_empty() {
        return Ok(Vec::new());
    }
    let mut sql = String::from(
        "SELECT r.session_id, pe.id AS person_id, pe.display_name AS name, r.net_cents \
         FROM session_results r \
         JOIN player_names pn ON pn.club_id = r.club_id AND pn.name = r.player \
         JOIN people pe ON pe.id = pn.person_id \
         LEFT JOIN seats st ON st.session_id = r.session_id AND st.player = r.player \
         WHERE r.session_id IN (",
    );
    for i in 1..=sessions.len() {
        let _ = write!(sql, "{}${i}", if i == 1 { "" } else { ", " });
    }
    sql.push_str(") ORDER BY r.session_id, COALESCE(st.position, 1000), r.player");
    on_either!(conn.either(), c => {
        let mut q = sqlx::query_as(sqlx::AssertSqlSafe(sql));
        for id in sessions {
            q = q.bind(*id);
        }
        q.fetch_all(c).await
    })
}

/// A person of the club.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PersonRow {
    /// The person's id.
    pub id: PersonId,
    /// The name shown everywhere.
    pub display_name: String,
}

/// The club's people, by display name.
pub async fn people(
    conn: &mut impl Connected,
    club_id: ClubId,
) -> Result<Vec<PersonRow>, sqlx::Error> {
    let sql = match conn.either().engine() {
        Engine::Sqlite => {
            "SELECT id, display_name FROM people WHERE club_id = $1 ORDER BY display_name COLLATE NOCASE"
        }
        Engine::Postgres => {
            "SELECT id, display_name FROM people WHERE club_id = $1 ORDER BY lower(display_name)"
        }
    };
    on_either!(conn.either(), c => sqlx::query_as(sql)
    .bind(club_id)
    .fetch_all(c)
    .await)
}

/// One person of the club, or `None`.
pub async fn person(
    conn: &mut impl Connected,
    club_id: ClubId,
    id: PersonId,
) -> Result<Option<PersonRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as("SELECT id, display_name FROM people WHERE club_id = $1 AND id = $2")
        .bind(club_id)
        .bind(id)
        .fetch_optional(c)
        .await)
}

/// The names a person has sat under.
pub async fn names_of(
    conn: &mut impl Connected,
    person: PersonId,
) -> Result<Vec<String>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar("SELECT name FROM player_names WHERE person_id = $1 ORDER BY name")
        .bind(person)
        .fetch_all(c)
        .await)
}

/// Renames a person. Errors: another person of the club has the name (unique index).
pub async fn rename(
    conn: &mut impl Connected,
    person: PersonId,
    name: &str,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("UPDATE people SET display_name = $1 WHERE id = $2")
        .bind(name)
        .bind(person)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Points every name of `from` at `into` and removes `from` (money stays in postings).
pub async fn merge(
    conn: &mut impl Connected,
    from: PersonId,
    into: PersonId,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("UPDATE player_names SET person_id = $1 WHERE person_id = $2")
        .bind(into)
        .bind(from)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    on_either!(conn.either(), c => sqlx::query("DELETE FROM people WHERE id = $1")
        .bind(from)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// A person's totals in one game: counts, and money in cents.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct TotalsRow {
    /// The game id.
    pub game: String,
    /// Sessions played.
    pub nights: i64,
    /// Net money in cents.
    pub net_cents: i64,
    /// Hands bid.
    pub hands_bid: i64,
    /// Hands made.
    pub hands_made: i64,
    /// Hands set.
    pub hands_set: i64,
    /// Games won.
    pub games_won: i64,
    /// Kitties taken.
    pub kitties_taken: i64,
}

/// A person's totals by game, from the kept totals (a few rows per name).
pub async fn totals_by_game(
    conn: &mut impl Connected,
    person: PersonId,
) -> Result<Vec<TotalsRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT t.game, CAST(SUM(t.nights) AS BIGINT) AS nights, CAST(SUM(t.net_cents) AS BIGINT) AS net_cents, CAST(SUM(t.hands_bid) AS BIGINT) AS hands_bid, \
         CAST(SUM(t.hands_made) AS BIGINT) AS hands_made, CAST(SUM(t.hands_set) AS BIGINT) AS hands_set, CAST(SUM(t.games_won) AS BIGINT) AS games_won, \
         CAST(SUM(t.kitties_taken) AS BIGINT) AS kitties_taken \
         FROM player_names pn JOIN player_totals t ON t.club_id = pn.club_id AND t.player = pn.name \
         WHERE pn.person_id = $1 GROUP BY t.game HAVING SUM(t.nights) > 0 ORDER BY t.game",
    )
    .bind(person)
    .fetch_all(c)
    .await)
}

/// A person's bids by band: (band, bids, made).
pub async fn bands(
    conn: &mut impl Connected,
    person: PersonId,
) -> Result<Vec<(i64, i64, i64)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT b.band, CAST(SUM(b.bids) AS BIGINT), CAST(SUM(b.made) AS BIGINT) FROM player_names pn \
         JOIN bid_totals b ON b.club_id = pn.club_id AND b.player = pn.name \
         WHERE pn.person_id = $1 GROUP BY b.band HAVING SUM(b.bids) > 0 ORDER BY b.band",
    )
    .bind(person)
    .fetch_all(c)
    .await)
}

/// One night of one name: the session, when, the game and the net in cents.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NightRow {
    /// The session.
    pub session_id: SessionId,
    /// When it was created.
    #[sqlx(try_from = "StoredTime")]
    pub played_at: DateTime<Utc>,
    /// The game id.
    pub game: String,
    /// Net money in cents.
    pub net_cents: i64,
}

/// The best night of name `name` (highest net; of equal nets the first played), by the
/// `(club, player, net)` index.
pub async fn best_night(
    conn: &mut impl Connected,
    club_id: ClubId,
    name: &str,
) -> Result<Option<NightRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT session_id, played_at, game, net_cents FROM session_results \
         WHERE club_id = $1 AND player = $2 ORDER BY net_cents DESC, played_at, session_id LIMIT 1",
    )
    .bind(club_id)
    .bind(name)
    .fetch_optional(c)
    .await)
}

/// Name `name`'s latest `limit` nights, newest first, within `[from, before)` if given.
pub async fn nights(
    conn: &mut impl Connected,
    club_id: ClubId,
    name: &str,
    from: Option<DateTime<Utc>>,
    before: Option<DateTime<Utc>>,
    limit: i64,
) -> Result<Vec<NightRow>, sqlx::Error> {
    let (from, before) = (from.map(rfc3339), before.map(rfc3339));
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT session_id, played_at, game, net_cents FROM session_results \
         WHERE club_id = $1 AND player = $2 AND ($3 IS NULL OR played_at >= $4) AND ($5 IS NULL OR played_at < $6) \
         ORDER BY session_id DESC LIMIT $7",
    )
    .bind(club_id)
    .bind(name)
    .bind(from.as_deref())
    .bind(from.as_deref())
    .bind(before.as_deref())
    .bind(before.as_deref())
    .bind(limit)
    .fetch_all(c)
    .await)
}

/// A line of the leaderboard: a person and their totals over every game.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LeaderRow {
    /// The person.
    pub person_id: PersonId,
    /// Their display name.
    pub name: String,
    /// Sessions played.
    pub nights: i64,
    /// Net money in cents.
    pub net_cents: i64,
    /// Hands bid.
    pub hands_bid: i64,
    /// Hands made.
    pub hands_made: i64,
    /// Games won.
    pub games_won: i64,
}

/// The club's leaderboard from the kept totals: every person, the most money first.
pub async fn leaderboard(
    conn: &mut impl Connected,
    club_id: ClubId,
) -> Result<Vec<LeaderRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT pe.id AS person_id, pe.display_name AS name, CAST(SUM(t.nights) AS BIGINT) AS nights, \
         CAST(SUM(t.net_cents) AS BIGINT) AS net_cents, CAST(SUM(t.hands_bid) AS BIGINT) AS hands_bid, CAST(SUM(t.hands_made) AS BIGINT) AS hands_made, \
         CAST(SUM(t.games_won) AS BIGINT) AS games_won \
         FROM people pe JOIN player_names pn ON pn.person_id = pe.id \
         JOIN player_totals t ON t.club_id = pn.club_id AND t.player = pn.name \
         WHERE pe.club_id = $1 GROUP BY pe.id HAVING SUM(t.nights) > 0 \
         ORDER BY net_cents DESC, pe.display_name",
    )
    .bind(club_id)
    .fetch_all(c)
    .await)
}

/// `(recorded, display)` for names session `session_id` could use whose person is shown
/// under another name now; empty without a club or renames.
pub async fn renamed_for_session(
    conn: &mut impl Connected,
    session_id: SessionId,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT pn.name, pe.display_name FROM sessions s \
         JOIN player_names pn ON pn.club_id = s.club_id \
         JOIN people pe ON pe.id = pn.person_id \
         WHERE s.id = $1 AND pn.name <> pe.display_name ORDER BY pn.name",
    )
    .bind(session_id)
    .fetch_all(c)
    .await)
}

/// `(recorded, display)` for the club's names whose person is shown under another name.
pub async fn renamed_in_club(
    conn: &mut impl Connected,
    club_id: ClubId,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT pn.name, pe.display_name FROM player_names pn \
         JOIN people pe ON pe.id = pn.person_id \
         WHERE pn.club_id = $1 AND pn.name <> pe.display_name ORDER BY pn.name",
    )
    .bind(club_id)
    .fetch_all(c)
    .await)
}

/// The currency of the club's latest session (ISO code), `None` for a club without one.
pub async fn club_currency(
    conn: &mut impl Connected,
    club_id: ClubId,
) -> Result<Option<String>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar("SELECT currency FROM sessions WHERE club_id = $1 ORDER BY id DESC LIMIT 1")
        .bind(club_id)
        .fetch_optional(c)
        .await)
}

/// `(session, title, archived)` for the club's sessions that have either.
pub async fn session_meta_of_club(
    conn: &mut impl Connected,
    club_id: ClubId,
) -> Result<Vec<(SessionId, Option<String>, bool)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT m.session_id, m.title, m.archived <> 0 FROM session_meta m \
         JOIN sessions s ON s.id = m.session_id WHERE s.club_id = $1 ORDER BY m.session_id",
    )
    .bind(club_id)
    .fetch_all(c)
    .await)
}

/// Every name of the club with its person: `(person, display name, name)`, by person.
pub async fn people_with_names(
    conn: &mut impl Connected,
    club_id: ClubId,
) -> Result<Vec<(PersonId, String, String)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT pe.id, pe.display_name, pn.name FROM people pe \
         JOIN player_names pn ON pn.person_id = pe.id WHERE pe.club_id = $1 ORDER BY pe.id, pn.name",
    )
    .bind(club_id)
    .fetch_all(c)
    .await)
}

/// Writes a person shown as `display_name` who sat under `names` (an import); their id.
pub async fn insert_person(
    conn: &mut impl Connected,
    club_id: ClubId,
    display_name: &str,
    names: &[String],
) -> Result<PersonId, sqlx::Error> {
    let id: PersonId = on_either!(conn.either(), c => sqlx::query_scalar("INSERT INTO people (club_id, display_name) VALUES ($1, $2) RETURNING id")
            .bind(club_id)
            .bind(display_name)
            .fetch_one(c)
            .await)?;
    for name in names {
        on_either!(conn.either(), c => sqlx::query("INSERT INTO player_names (club_id, name, person_id) VALUES ($1, $2, $3)")
            .bind(club_id)
            .bind(name)
            .bind(id)
            .execute(c)
            .await
            .map(|r| r.rows_affected()))?;
    }
    Ok(id)
}
