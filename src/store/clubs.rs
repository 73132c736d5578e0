//! Clubs, their players and access tokens.

use sqlx::SqliteConnection;

/// A stored club.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClubRow {
    /// The club's id.
    pub id: i64,
    /// Its name, unique regardless of case.
    pub name: String,
    /// The argon2id PHC string of its passphrase.
    pub passphrase_hash: String,
    /// The read-only share link's secret.
    pub share_token: String,
    /// When it was created (RFC 3339, UTC).
    pub created_at: String,
}

/// Inserts a club; `Ok(None)` when the name is taken.
pub async fn insert_club(
    conn: &mut SqliteConnection,
    name: &str,
    passphrase_hash: &str,
    share_token: &str,
    created_at: &str,
) -> Result<Option<i64>, sqlx::Error> {
    let result = sqlx::query_scalar(
        "INSERT INTO clubs (name, passphrase_hash, share_token, created_at) VALUES (?, ?, ?, ?) \
         ON CONFLICT (name) DO NOTHING RETURNING id",
    )
    .bind(name)
    .bind(passphrase_hash)
    .bind(share_token)
    .bind(created_at)
    .fetch_optional(conn)
    .await?;
    Ok(result)
}

/// The club with this id.
pub async fn club(conn: &mut SqliteConnection, id: i64) -> Result<Option<ClubRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, passphrase_hash, share_token, created_at FROM clubs WHERE id = ?",
    )
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The club with this name (any case).
pub async fn club_by_name(
    conn: &mut SqliteConnection,
    name: &str,
) -> Result<Option<ClubRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, passphrase_hash, share_token, created_at FROM clubs WHERE name = ? COLLATE NOCASE",
    )
        .bind(name)
        .fetch_optional(conn)
        .await
}

/// The club whose share link carries this secret.
pub async fn club_by_share_token(
    conn: &mut SqliteConnection,
    token: &str,
) -> Result<Option<ClubRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, name, passphrase_hash, share_token, created_at FROM clubs WHERE share_token = ?",
    )
        .bind(token)
        .fetch_optional(conn)
        .await
}

/// Stores an access token's hash.
pub async fn insert_token(
    conn: &mut SqliteConnection,
    token_hash: &str,
    club_id: i64,
    access: &str,
    created_at: &str,
    expires_at: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO access_tokens (token_hash, club_id, access, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")
        .bind(token_hash)
        .bind(club_id)
        .bind(access)
        .bind(created_at)
        .bind(expires_at)
        .execute(conn)
        .await?;
    Ok(())
}

/// The club and access of a token that has not expired at `now`.
pub async fn token(
    conn: &mut SqliteConnection,
    token_hash: &str,
    now: &str,
) -> Result<Option<(i64, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT club_id, access FROM access_tokens WHERE token_hash = ? AND expires_at > ?",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(conn)
    .await
}

/// Forgets a token (logging out).
pub async fn delete_token(
    conn: &mut SqliteConnection,
    token_hash: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM access_tokens WHERE token_hash = ?")
        .bind(token_hash)
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes every token that expired at or before `now` (RFC 3339, UTC); returns how many.
pub async fn purge_expired_tokens(
    conn: &mut SqliteConnection,
    now: &str,
) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM access_tokens WHERE expires_at <= ?")
            .bind(now)
            .execute(conn)
            .await?
            .rows_affected(),
    )
}

/// Deletes the club's tokens: those of one access (`read` or `write`), or all of them.
pub async fn delete_club_tokens(
    conn: &mut SqliteConnection,
    club_id: i64,
    access: Option<&str>,
) -> Result<u64, sqlx::Error> {
    Ok(
        sqlx::query("DELETE FROM access_tokens WHERE club_id = ? AND (? IS NULL OR access = ?)")
            .bind(club_id)
            .bind(access)
            .bind(access)
            .execute(conn)
            .await?
            .rows_affected(),
    )
}

/// Stores a club's new passphrase hash (an argon2id PHC string).
pub async fn set_passphrase(
    conn: &mut SqliteConnection,
    club_id: i64,
    passphrase_hash: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE clubs SET passphrase_hash = ? WHERE id = ?")
        .bind(passphrase_hash)
        .bind(club_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Stores a club's new share-link secret (the old link stops working).
pub async fn set_share_token(
    conn: &mut SqliteConnection,
    club_id: i64,
    share_token: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE clubs SET share_token = ? WHERE id = ?")
        .bind(share_token)
        .bind(club_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Remembers that `name` plays in the club.
pub async fn add_player(
    conn: &mut SqliteConnection,
    club_id: i64,
    name: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO club_players (club_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING")
        .bind(club_id)
        .bind(name)
        .execute(conn)
        .await?;
    Ok(())
}

/// Every player of the club with his net money over all the club's sessions, in cents.
pub async fn player_totals(
    conn: &mut SqliteConnection,
    club_id: i64,
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT cp.name, COALESCE((SELECT SUM(p.amount_cents) FROM postings p \
             JOIN events e ON e.id = p.event_id JOIN sessions s ON s.id = e.session_id \
             WHERE s.club_id = cp.club_id AND p.account = cp.name), 0) \
         FROM club_players cp WHERE cp.club_id = ? ORDER BY cp.name",
    )
    .bind(club_id)
    .fetch_all(conn)
    .await
}

/// The club a session belongs to (`Ok(None)` for no such session, `Some(None)` for an
/// open session).
pub async fn session_club(
    conn: &mut SqliteConnection,
    session_id: i64,
) -> Result<Option<Option<i64>>, sqlx::Error> {
    sqlx::query_scalar("SELECT club_id FROM sessions WHERE id = ?")
        .bind(session_id)
        .fetch_optional(conn)
        .await
}

/// Stores the hashes of a club-less session's write and read link secrets.
pub async fn insert_session_links(
    conn: &mut SqliteConnection,
    session_id: i64,
    write_hash: &str,
    read_hash: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO session_links (session_id, write_hash, read_hash) VALUES (?, ?, ?)")
        .bind(session_id)
        .bind(write_hash)
        .bind(read_hash)
        .execute(conn)
        .await?;
    Ok(())
}

/// The hashes of a session's write and read link secrets; `None` for a club's session or
/// one made before links existed.
pub async fn session_links(
    conn: &mut SqliteConnection,
    session_id: i64,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT write_hash, read_hash FROM session_links WHERE session_id = ?")
        .bind(session_id)
        .fetch_optional(conn)
        .await
}
