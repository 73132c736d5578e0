//! Clubs, players and access tokens. Club names are case-insensitive: SQLite `COLLATE
//! NOCASE`, PostgreSQL `lower(name)`.

use chrono::{DateTime, Utc};

use super::either::{Connected, on_either};
use super::postgres::Engine;
use super::time::{StoredTime, rfc3339};
use crate::ids::ClubId;
use crate::ids::SessionId;

/// A stored club.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClubRow {
    /// The club's id.
    pub id: ClubId,
    /// Its name, unique regardless of case.
    pub name: String,
    /// The argon2id PHC string of its passphrase.
    pub passphrase_hash: String,
    /// The read-only share link's secret.
    pub share_token: String,
    /// When it was created.
    #[sqlx(try_from = "StoredTime")]
    pub created_at: DateTime<Utc>,
}

/// Inserts a club; `Ok(None)` when the name is taken.
pub async fn insert_club(
    conn: &mut impl Connected,
    name: &str,
    passphrase_hash: &str,
    share_token: &str,
    created_at: DateTime<Utc>,
) -> Result<Option<ClubId>, sqlx::Error> {
    let conn = conn.either();
    let sql = match conn.engine() {
        Engine::Sqlite => {
            "INSERT INTO clubs (name, passphrase_hash, share_token, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING RETURNING id"
        }
        Engine::Postgres => {
            "INSERT INTO clubs (name, passphrase_hash, share_token, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (lower(name)) DO NOTHING RETURNING id"
        }
    };
    on_either!(conn, c => sqlx::query_scalar(sql)
        .bind(name)
        .bind(passphrase_hash)
        .bind(share_token)
        .bind(rfc3339(created_at))
        .fetch_optional(c)
        .await)
}

/// The club with this id.
pub async fn club(conn: &mut impl Connected, id: ClubId) -> Result<Option<ClubRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT id, name, passphrase_hash, share_token, created_at FROM clubs WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(c)
    .await)
}

/// The club with this name (any case).
pub async fn club_by_name(
    conn: &mut impl Connected,
    name: &str,
) -> Result<Option<ClubRow>, sqlx::Error> {
    let conn = conn.either();
    let sql = match conn.engine() {
        Engine::Sqlite => {
            "SELECT id, name, passphrase_hash, share_token, created_at FROM clubs \
             WHERE name = $1 COLLATE NOCASE"
        }
        Engine::Postgres => {
            "SELECT id, name, passphrase_hash, share_token, created_at FROM clubs \
             WHERE lower(name) = lower($1)"
        }
    };
    on_either!(conn, c => sqlx::query_as(sql).bind(name).fetch_optional(c).await)
}

/// The club whose share link carries this secret.
pub async fn club_by_share_token(
    conn: &mut impl Connected,
    token: &str,
) -> Result<Option<ClubRow>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT id, name, passphrase_hash, share_token, created_at FROM clubs WHERE share_token = $1",
    )
        .bind(token)
        .fetch_optional(c)
        .await)
}

/// Stores an access token's hash.
pub async fn insert_token(
    conn: &mut impl Connected,
    token_hash: &str,
    club_id: ClubId,
    access: &str,
    created_at: DateTime<Utc>,
    expires_at: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("INSERT INTO access_tokens (token_hash, club_id, access, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(token_hash)
        .bind(club_id)
        .bind(access)
        .bind(rfc3339(created_at))
        .bind(rfc3339(expires_at))
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// The club and access of a token that has not expired at `now`.
pub async fn token(
    conn: &mut impl Connected,
    token_hash: &str,
    now: DateTime<Utc>,
) -> Result<Option<(ClubId, String)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT club_id, access FROM access_tokens WHERE token_hash = $1 AND expires_at > $2",
    )
    .bind(token_hash)
    .bind(rfc3339(now))
    .fetch_optional(c)
    .await)
}

/// Forgets a token (logging out).
pub async fn delete_token(conn: &mut impl Connected, token_hash: &str) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("DELETE FROM access_tokens WHERE token_hash = $1")
        .bind(token_hash)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Deletes `club_id`'s tokens that expired at or before `now`; returns how many. One
/// club's: a login writes its own club's rows only (docs/postgres.md, "Past one primary").
pub async fn purge_expired_tokens(
    conn: &mut impl Connected,
    club_id: ClubId,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    Ok(
        on_either!(conn.either(), c => sqlx::query("DELETE FROM access_tokens WHERE club_id = $1 AND expires_at <= $2")
            .bind(club_id)
            .bind(rfc3339(now))
            .execute(c)
            .await
            .map(|r| r.rows_affected()))?,
    )
}

/// Deletes every club's tokens that expired at or before `now`; returns how many. The
/// service's hourly sweep ([`crate::service::clubs::sweep_expired_tokens`]): a login purges
/// its own club's only, so a club nobody logs into again would keep its expired ones.
pub async fn purge_every_clubs_expired_tokens(
    conn: &mut impl Connected,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    Ok(
        on_either!(conn.either(), c => sqlx::query("DELETE FROM access_tokens WHERE expires_at <= $1")
            .bind(rfc3339(now))
            .execute(c)
            .await
            .map(|r| r.rows_affected()))?,
    )
}

/// Deletes the club's tokens: those of one access (`read` or `write`), or all of them.
pub async fn delete_club_tokens(
    conn: &mut impl Connected,
    club_id: ClubId,
    access: Option<&str>,
) -> Result<u64, sqlx::Error> {
    Ok(
        on_either!(conn.either(), c => sqlx::query("DELETE FROM access_tokens WHERE club_id = $1 AND ($2 IS NULL OR access = $3)")
            .bind(club_id)
            .bind(access)
            .bind(access)
            .execute(c)
            .await
            .map(|r| r.rows_affected()))?,
    )
}

/// Stores a club's new passphrase hash (an argon2id PHC string).
pub async fn set_passphrase(
    conn: &mut impl Connected,
    club_id: ClubId,
    passphrase_hash: &str,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("UPDATE clubs SET passphrase_hash = $1 WHERE id = $2")
        .bind(passphrase_hash)
        .bind(club_id)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Stores a club's new share-link secret (the old link stops working).
pub async fn set_share_token(
    conn: &mut impl Connected,
    club_id: ClubId,
    share_token: &str,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("UPDATE clubs SET share_token = $1 WHERE id = $2")
        .bind(share_token)
        .bind(club_id)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Remembers that `name` plays in the club.
pub async fn add_player(
    conn: &mut impl Connected,
    club_id: ClubId,
    name: &str,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("INSERT INTO club_players (club_id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING")
        .bind(club_id)
        .bind(name)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// Each club player's net over all sessions, in cents (`SUM` cast: PostgreSQL answers NUMERIC).
pub async fn player_totals(
    conn: &mut impl Connected,
    club_id: ClubId,
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as(
        "SELECT cp.name, COALESCE((SELECT CAST(SUM(p.amount_cents) AS BIGINT) FROM postings p \
             JOIN events e ON e.id = p.event_id JOIN sessions s ON s.id = e.session_id \
             WHERE s.club_id = cp.club_id AND p.account = cp.name), 0) \
         FROM club_players cp WHERE cp.club_id = $1 ORDER BY cp.name",
    )
    .bind(club_id)
    .fetch_all(c)
    .await)
}

/// A session's club: `None` no session, `Some(None)` club-less.
pub async fn session_club(
    conn: &mut impl Connected,
    session_id: SessionId,
) -> Result<Option<Option<ClubId>>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_scalar("SELECT club_id FROM sessions WHERE id = $1")
        .bind(session_id)
        .fetch_optional(c)
        .await)
}

/// Stores the hashes of a club-less session's write and read link secrets.
pub async fn insert_session_links(
    conn: &mut impl Connected,
    session_id: SessionId,
    write_hash: &str,
    read_hash: &str,
) -> Result<(), sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query("INSERT INTO session_links (session_id, write_hash, read_hash) VALUES ($1, $2, $3)")
        .bind(session_id)
        .bind(write_hash)
        .bind(read_hash)
        .execute(c)
        .await
        .map(|r| r.rows_affected()))?;
    Ok(())
}

/// A session's link-secret hashes; `None` for a club's session or one older than links.
pub async fn session_links(
    conn: &mut impl Connected,
    session_id: SessionId,
) -> Result<Option<(String, String)>, sqlx::Error> {
    on_either!(conn.either(), c => sqlx::query_as("SELECT write_hash, read_hash FROM session_links WHERE session_id = $1")
        .bind(session_id)
        .fetch_optional(c)
        .await)
}
