//! Clubs and access without sign-up: a club has a name and a passphrase; the passphrase
//! gives write access (a login cookie or an API bearer token), the share link gives
//! read-only access.

use std::num::NonZeroU32;
use std::sync::Arc;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use chrono::{Duration, SecondsFormat, Utc};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};
use sqlx::SqlitePool;

use crate::error::AppError;
use crate::store::clubs::{self as store, ClubRow};

/// What a token lets its holder do with its club's sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Look only (the share link).
    Read,
    /// Create sessions and enter hands (the passphrase).
    Write,
}

impl Access {
    fn as_str(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
        }
    }
}

/// Who is asking: the club a valid token belongs to and what it allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grant {
    /// The club.
    pub club_id: i64,
    /// What the token allows.
    pub access: Access,
}

/// A club as members see it.
#[derive(Debug, Clone)]
pub struct Club {
    /// The club's id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The read-only share link's secret (the link is `/share/{share_token}`).
    pub share_token: String,
}

impl From<ClubRow> for Club {
    fn from(r: ClubRow) -> Club {
        Club {
            id: r.id,
            name: r.name,
            share_token: r.share_token,
        }
    }
}

/// How long a login cookie or API token lasts, in days.
pub const TOKEN_DAYS: i64 = 30;
/// The shortest passphrase accepted, in characters.
pub const PASSPHRASE_MIN: usize = 8;

/// Login attempts allowed per club name: a burst of 5, then one every 12 seconds.
pub type LoginLimiter = Arc<DefaultKeyedRateLimiter<String>>;

/// A limiter for passphrase attempts, keyed by club name (lowercase).
pub fn login_limiter() -> LoginLimiter {
    let per_minute = NonZeroU32::new(5).unwrap_or(NonZeroU32::MIN);
    Arc::new(RateLimiter::keyed(Quota::per_minute(per_minute)))
}

/// A fresh random secret: 32 bytes from the operating system, as 64 hex digits.
pub fn new_secret() -> Result<String, AppError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| AppError::Internal(format!("no randomness: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn hash_token(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true)
}

async fn hash_passphrase(passphrase: String) -> Result<String, AppError> {
    // Argon2 is slow on purpose; keep it off the async workers.
    tokio::task::spawn_blocking(move || {
        Argon2::default()
            .hash_password(passphrase.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| AppError::Internal(format!("hashing: {e}")))
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))?
}

async fn passphrase_matches(passphrase: String, phc: String) -> Result<bool, AppError> {
    tokio::task::spawn_blocking(move || {
        let parsed =
            PasswordHash::new(&phc).map_err(|e| AppError::Internal(format!("stored hash: {e}")))?;
        Ok(Argon2::default()
            .verify_password(passphrase.as_bytes(), &parsed)
            .is_ok())
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))?
}

async fn issue_token(pool: &SqlitePool, club_id: i64, access: Access) -> Result<String, AppError> {
    let token = new_secret()?;
    let created = Utc::now();
    let expires = (created + Duration::days(TOKEN_DAYS)).to_rfc3339_opts(SecondsFormat::Secs, true);
    let mut conn = pool.acquire().await?;
    store::insert_token(
        &mut conn,
        &hash_token(&token),
        club_id,
        access.as_str(),
        &now(),
        &expires,
    )
    .await?;
    Ok(token)
}

/// Creates a club and returns it with a write token for its creator. Errors: a name that
/// is empty, longer than 60 characters or taken (field `name`); a passphrase shorter than
/// [`PASSPHRASE_MIN`] (field `passphrase`).
pub async fn create_club(
    pool: &SqlitePool,
    name: &str,
    passphrase: &str,
) -> Result<(Club, String), AppError> {
    let name = crate::rules::table::club_name(name).map_err(|message| AppError::BadRequest {
        field: "name".into(),
        message,
    })?;
    let name = name.as_str();
    if passphrase.chars().count() < PASSPHRASE_MIN {
        return Err(AppError::BadRequest {
            field: "passphrase".into(),
            message: format!(
                "use a passphrase of at least {PASSPHRASE_MIN} characters: a few words are easy to say at the table"
            ),
        });
    }
    let phc = hash_passphrase(passphrase.to_string()).await?;
    let share = new_secret()?;
    let mut conn = pool.acquire().await?;
    let id = store::insert_club(&mut conn, name, &phc, &share, &now())
        .await?
        .ok_or_else(|| AppError::BadRequest {
            field: "name".into(),
            message: format!("there is already a club called {name}"),
        })?;
    drop(conn);
    let token = issue_token(pool, id, Access::Write).await?;
    Ok((
        Club {
            id,
            name: name.to_string(),
            share_token: share,
        },
        token,
    ))
}

/// Checks a club's passphrase and returns a write token. Errors: [`AppError::TooManyRequests`]
/// after 5 attempts a minute for the same club name; [`AppError::Unauthorized`] for a wrong
/// name or passphrase (the same message for both).
pub async fn log_in(
    pool: &SqlitePool,
    limiter: &LoginLimiter,
    name: &str,
    passphrase: &str,
) -> Result<(Club, String), AppError> {
    let key = name.trim().to_lowercase();
    if limiter.check_key(&key).is_err() {
        return Err(AppError::TooManyRequests(
            "too many attempts for this club; wait a minute and try again".into(),
        ));
    }
    let mut conn = pool.acquire().await?;
    let club = store::club_by_name(&mut conn, name.trim()).await?;
    drop(conn);
    let refused = || AppError::Unauthorized("that club name and passphrase do not match".into());
    let Some(club) = club else {
        return Err(refused());
    };
    if !passphrase_matches(passphrase.to_string(), club.passphrase_hash.clone()).await? {
        return Err(refused());
    }
    let token = issue_token(pool, club.id, Access::Write).await?;
    Ok((club.into(), token))
}

/// A read-only token for whoever opens the share link. Errors: [`AppError::NotFound`] for
/// an unknown link.
pub async fn open_share_link(
    pool: &SqlitePool,
    share_token: &str,
) -> Result<(Club, String), AppError> {
    let mut conn = pool.acquire().await?;
    let club = store::club_by_share_token(&mut conn, share_token)
        .await?
        .ok_or_else(|| AppError::NotFound("this share link is not valid".into()))?;
    drop(conn);
    let token = issue_token(pool, club.id, Access::Read).await?;
    Ok((club.into(), token))
}

/// What a token (a cookie's, a bearer's, or a share link's secret itself) grants; `None`
/// when it is unknown or expired.
pub async fn grant(pool: &SqlitePool, token: &str) -> Result<Option<Grant>, AppError> {
    let mut conn = pool.acquire().await?;
    if let Some((club_id, access)) = store::token(&mut conn, &hash_token(token), &now()).await? {
        let access = if access == "write" {
            Access::Write
        } else {
            Access::Read
        };
        return Ok(Some(Grant { club_id, access }));
    }
    Ok(store::club_by_share_token(&mut conn, token)
        .await?
        .map(|c| Grant {
            club_id: c.id,
            access: Access::Read,
        }))
}

/// Forgets a token.
pub async fn log_out(pool: &SqlitePool, token: &str) -> Result<(), AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::delete_token(&mut conn, &hash_token(token)).await?)
}

/// The club with this id. Errors: [`AppError::NotFound`].
pub async fn club(pool: &SqlitePool, id: i64) -> Result<Club, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::club(&mut conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no club {id}")))?
        .into())
}

/// The club's players with their net money over every session of the club, in cents.
pub async fn player_totals(
    pool: &SqlitePool,
    club_id: i64,
) -> Result<Vec<(String, i64)>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::player_totals(&mut conn, club_id).await?)
}

/// Checks that whoever holds `grant` may read (`need = Read`) or change (`Write`) session
/// `id`. Open sessions (no club) are open to all. Errors: [`AppError::NotFound`] for a
/// session that does not exist or that the asker may not see (a club's sessions are
/// invisible to outsiders); [`AppError::Unauthorized`] for a write without a valid token;
/// [`AppError::Forbidden`] for a write with a read-only token.
pub async fn authorize(
    pool: &SqlitePool,
    grant: Option<Grant>,
    id: i64,
    need: Access,
) -> Result<(), AppError> {
    let mut conn = pool.acquire().await?;
    let missing = || AppError::NotFound(format!("there is no session {id}"));
    let Some(club) = store::session_club(&mut conn, id)
        .await?
        .ok_or_else(missing)?
    else {
        return Ok(());
    };
    match (grant, need) {
        (Some(g), _)
            if g.club_id == club && (need == Access::Read || g.access == Access::Write) =>
        {
            Ok(())
        }
        (Some(g), Access::Write) if g.club_id == club => Err(AppError::Forbidden(
            "this is a read-only link; log in with the club's passphrase to enter hands".into(),
        )),
        (_, Access::Write) => Err(AppError::Unauthorized(
            "log in with the club's passphrase to change this session".into(),
        )),
        (_, Access::Read) => Err(missing()),
    }
}
