//! Clubs without sign-up: the passphrase gives write access (a login cookie or API bearer
//! token), the share link read-only access.

use std::sync::OnceLock;

use chrono::{Duration, Utc};
use sha2::{Digest, Sha256};

use super::Folds;
use super::hashing::{hash_passphrase, passphrase_matches};
use crate::error::AppError;
use crate::ids::ClubId;
use crate::ids::SessionId;
use crate::store::clubs::{self as store, ClubRow};
use crate::store::{Connected, ReadPool, WritePool};

mod limits;
pub use limits::*;

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
    pub club_id: ClubId,
    /// What the token allows.
    pub access: Access,
}

/// A club as members see it.
#[derive(Debug, Clone)]
pub struct Club {
    /// The club's id.
    pub id: ClubId,
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

/// The hash an unknown club's attempt is checked against: same argon2 cost, same answer.
static DUMMY_PHC: OnceLock<String> = OnceLock::new();

async fn dummy_phc() -> Result<String, AppError> {
    if let Some(phc) = DUMMY_PHC.get() {
        return Ok(phc.clone());
    }
    let phc = hash_passphrase("no club has this passphrase".to_string()).await?;
    Ok(DUMMY_PHC.get_or_init(|| phc).clone())
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

async fn issue_token(
    pool: &WritePool,
    club_id: ClubId,
    access: Access,
) -> Result<String, AppError> {
    let mut conn = pool.acquire().await?;
    store_token(&mut conn, club_id, access).await
}

/// Stores (hashed) a new token of `club_id` with `access`, expiring in [`TOKEN_DAYS`].
async fn store_token(
    conn: &mut impl Connected,
    club_id: ClubId,
    access: Access,
) -> Result<String, AppError> {
    let token = new_secret()?;
    let created = Utc::now();
    let expires = created + Duration::days(TOKEN_DAYS);
    let hash = hash_token(&token);
    store::insert_token(conn, &hash, club_id, access.as_str(), created, expires).await?;
    Ok(token)
}

/// Creates a club with a write token for its creator. Errors:
/// [`AppError::TooManyRequests`] past [`CREATIONS_BURST`] (nothing hashed);
/// [`AppError::BadRequest`]: `name` empty, over 60 characters or taken; `passphrase` under
/// [`PASSPHRASE_MIN`].
pub async fn create_club(
    pool: &WritePool,
    limits: &LoginLimits,
    client: ClientKey,
    name: &str,
    passphrase: &str,
) -> Result<(Club, String), AppError> {
    let new = prepare_club(limits, client, name, passphrase).await?;
    let mut tx = pool.begin_write().await?;
    let made = insert_club(&mut tx, &new).await?;
    tx.commit().await?;
    Ok(made)
}

/// A club checked and ready to be written ([`prepare_club`], then [`insert_club`]).
pub struct NewClub {
    name: String,
    phc: String,
    share: String,
}

/// Checks and hashes a new club, writing nothing, so it can be written with an import.
/// Errors: as [`create_club`], except a taken name ([`insert_club`] finds it).
pub async fn prepare_club(
    limits: &LoginLimits,
    client: ClientKey,
    name: &str,
    passphrase: &str,
) -> Result<NewClub, AppError> {
    let name = crate::rules::table::club_name(name).map_err(|message| AppError::BadRequest {
        field: "name".into(),
        message,
    })?;
    check_new_passphrase(passphrase, "passphrase")?;
    limits.creation(client)?;
    let phc = {
        let _turn = limits.hashing.acquire().await;
        hash_passphrase(passphrase.to_string()).await?
    };
    Ok(NewClub {
        name,
        phc,
        share: new_secret()?,
    })
}

/// The refusal of a taken club name (field `name`). It comes only after the name and
/// passphrase rules, the creation budget and the hash, as a creation would, so probing
/// names costs and tells no more than creating clubs.
fn taken_name() -> AppError {
    AppError::BadRequest {
        field: "name".into(),
        message: "a new club cannot be made under this name: choose another name".into(),
    }
}

/// Writes a [`NewClub`] and its write token in the caller's transaction. Errors: the name is
/// taken ([`taken_name`]).
pub async fn insert_club(
    conn: &mut impl Connected,
    new: &NewClub,
) -> Result<(Club, String), AppError> {
    let id = store::insert_club(conn, &new.name, &new.phc, &new.share, Utc::now())
        .await?
        .ok_or_else(taken_name)?;
    let token = store_token(conn, id, Access::Write).await?;
    Ok((
        Club {
            id,
            name: new.name.clone(),
            share_token: new.share.clone(),
        },
        token,
    ))
}

/// The longest passphrase accepted, in characters (argon2 reads all of it).
pub const PASSPHRASE_MAX: usize = 200;

fn check_new_passphrase(passphrase: &str, field: &str) -> Result<(), AppError> {
    let length = passphrase.chars().count();
    if !(PASSPHRASE_MIN..=PASSPHRASE_MAX).contains(&length) {
        return Err(AppError::BadRequest {
            field: field.into(),
            message: format!(
                "use a passphrase of {PASSPHRASE_MIN} to {PASSPHRASE_MAX} characters: a few words are easy to say at the table"
            ),
        });
    }
    Ok(())
}

/// Checks a club's passphrase; a write token. One argon2 check per attempt, against a dummy
/// hash for an unknown club, so both cost and answer the same. Errors:
/// [`AppError::TooManyRequests`] ([`LoginLimits`]); [`AppError::Unauthorized`].
pub async fn log_in(
    pool: &WritePool,
    limits: &LoginLimits,
    client: ClientKey,
    name: &str,
    passphrase: &str,
) -> Result<(Club, String), AppError> {
    limits.attempt(client)?;
    limits.club_backoff(name).await;
    let refused = || AppError::Unauthorized("that club name and passphrase do not match".into());
    // The name as clubs are stored (trimmed, NFC); a name no club could have is unknown.
    let club = match crate::rules::table::club_name(name) {
        Ok(name) => {
            // A reader: a login waits for no write but its own token's.
            let mut conn = pool.reader().acquire().await?;
            store::club_by_name(&mut conn, &name).await?
        }
        Err(_) => None,
    };
    // The club's budget whatever spelling was typed; an unknown name has its own.
    let budget_key = match &club {
        Some(club) => limits::short_hash(&format!("club {}", club.id)),
        None => limits::short_hash(&format!("name {}", name.trim().to_lowercase())),
    };
    limits.club_open(&budget_key, client)?;
    let phc = match &club {
        Some(club) => club.passphrase_hash.clone(),
        None => dummy_phc().await?,
    };
    let matches = {
        let _turn = limits.hashing.acquire().await;
        // Wrong guesses made while this one waited may have spent the budget.
        limits.club_open(&budget_key, client)?;
        limits.checking();
        passphrase_matches(passphrase.to_string(), phc).await?
    };
    let Some(club) = club.filter(|_| matches) else {
        limits.wrong_guess(&budget_key, client);
        return Err(refused());
    };
    limits.logged_in(&budget_key, client);
    let token = issue_token(pool, club.id, Access::Write).await?;
    let mut conn = pool.acquire().await?;
    store::purge_expired_tokens(&mut conn, club.id, Utc::now()).await?;
    Ok((club.into(), token))
}

/// How often [`sweep_expired_tokens`] runs: an expired token is refused at once whatever
/// its row, so the sweep bounds only the table's size.
pub const TOKEN_SWEEP: std::time::Duration = std::time::Duration::from_secs(3600);

/// Deletes every club's expired tokens now and every [`TOKEN_SWEEP`] after, logging how
/// many; a failed sweep is logged and tried at the next. Runs until the service stops.
pub async fn sweep_expired_tokens(pool: WritePool) {
    let mut every = tokio::time::interval(TOKEN_SWEEP);
    loop {
        every.tick().await;
        let swept = match pool.acquire().await {
            Ok(mut conn) => store::purge_every_clubs_expired_tokens(&mut conn, Utc::now()).await,
            Err(e) => Err(e),
        };
        match swept {
            Ok(0) => {}
            Ok(n) => tracing::info!("{n} expired tokens deleted"),
            Err(e) => tracing::warn!("expired tokens not swept: {e}"),
        }
    }
}

/// Replaces a club's passphrase, checked like a login; every token of the club is deleted
/// and the caller gets a fresh one. Errors: [`AppError::TooManyRequests`];
/// [`AppError::BadRequest`] (`current` wrong, `passphrase` unfit); [`AppError::NotFound`].
pub async fn change_passphrase(
    pool: &WritePool,
    limits: &LoginLimits,
    client: ClientKey,
    club_id: ClubId,
    current: &str,
    new: &str,
) -> Result<String, AppError> {
    check_new_passphrase(new, "passphrase")?;
    limits.attempt(client)?;
    let club = {
        let mut conn = pool.reader().acquire().await?;
        store::club(&mut conn, club_id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("there is no club {club_id}")))?
    };
    let phc = {
        let _turn = limits.hashing.acquire().await;
        if !passphrase_matches(current.to_string(), club.passphrase_hash).await? {
            return Err(AppError::BadRequest {
                field: "current".into(),
                message: "that is not the club's current passphrase".into(),
            });
        }
        hash_passphrase(new.to_string()).await?
    };
    let mut tx = pool.begin_write().await?;
    store::set_passphrase(&mut tx, club_id, &phc).await?;
    store::delete_club_tokens(&mut tx, club_id, None).await?;
    tx.commit().await?;
    issue_token(pool, club_id, Access::Write).await
}

/// A new share secret: the old link and every browser that opened it read no more.
pub async fn rotate_share_secret(pool: &WritePool, club_id: ClubId) -> Result<String, AppError> {
    let secret = new_secret()?;
    let mut tx = pool.begin_write().await?;
    store::set_share_token(&mut tx, club_id, &secret).await?;
    store::delete_club_tokens(&mut tx, club_id, Some(Access::Read.as_str())).await?;
    tx.commit().await?;
    Ok(secret)
}

/// The club whose share link carries `share_token`; writes nothing (the secret itself is
/// the credential). Errors: [`AppError::NotFound`], also for a rotated link.
pub async fn open_share_link(pool: &ReadPool, share_token: &str) -> Result<Club, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::club_by_share_token(&mut conn, share_token)
        .await?
        .ok_or_else(|| AppError::NotFound("this share link is not valid".into()))?
        .into())
}

/// What a token (cookie, bearer or share secret) grants; `None` if unknown or expired.
pub async fn grant(pool: &ReadPool, token: &str) -> Result<Option<Grant>, AppError> {
    let mut conn = pool.acquire().await?;
    if let Some((club_id, access)) = store::token(&mut conn, &hash_token(token), Utc::now()).await?
    {
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
pub async fn log_out(pool: &WritePool, token: &str) -> Result<(), AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::delete_token(&mut conn, &hash_token(token)).await?)
}

/// The club with this id. Errors: [`AppError::NotFound`].
pub async fn club(pool: &ReadPool, id: ClubId) -> Result<Club, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::club(&mut conn, id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("there is no club {id}")))?
        .into())
}

/// The club's players with their net money over every session of the club, in cents.
pub async fn player_totals(
    pool: &ReadPool,
    club_id: ClubId,
) -> Result<Vec<(String, i64)>, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::player_totals(&mut conn, club_id).await?)
}

tokio::task_local! {
    /// The capability-link secrets a request presented, set around each request by the web
    /// layer ([`with_presented_links`]) for [`authorize`].
    static PRESENTED_LINKS: Vec<String>;
}

/// Runs `work` with `secrets` as the request's presented link secrets.
pub async fn with_presented_links<F: std::future::Future>(
    secrets: Vec<String>,
    work: F,
) -> F::Output {
    PRESENTED_LINKS.scope(secrets, work).await
}

/// Checks that `grant` may read or write session `id` (club-less: by its links; older than
/// links: open). Errors: [`AppError::NotFound`] when missing or not the asker's to see (ids
/// leak nothing); [`AppError::Forbidden`] for a write with read access.
pub async fn authorize(
    pool: &ReadPool,
    folds: &Folds,
    grant: Option<Grant>,
    id: SessionId,
    need: Access,
) -> Result<(), AppError> {
    let missing = || AppError::NotFound(format!("there is no session {id}"));
    let club = match folds.club_of(id) {
        Some(club) => club,
        None => {
            let mut conn = pool.acquire().await?;
            let club = store::session_club(&mut conn, id)
                .await?
                .ok_or_else(missing)?;
            folds.remember_club(id, club);
            club
        }
    };
    let Some(club) = club else {
        let presented = PRESENTED_LINKS.try_with(Clone::clone).unwrap_or_default();
        let presented: Vec<&str> = presented.iter().map(String::as_str).collect();
        return match (link_access(pool, id, &presented).await?, need) {
            (None | Some(Some(Access::Write)), _) | (Some(Some(Access::Read)), Access::Read) => {
                Ok(())
            }
            (Some(Some(Access::Read)), Access::Write) => Err(AppError::Forbidden(
                "this is the session's read link; open its write link to enter hands".into(),
            )),
            (Some(None), _) => Err(missing()),
        };
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
        // Not 401: that would tell that a club session has this id.
        _ => Err(missing()),
    }
}

/// A club-less session's capability-link secrets. The read secret is the SHA-256 of the
/// write secret, so the writer can show the read link but not the reverse; only hashes
/// are stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionLinks {
    /// The write secret (64 hex digits); the link is `/sessions/{id}/link/{write}`.
    pub write: String,
    /// The read secret (64 hex digits); the link is `/sessions/{id}/link/{read}`.
    pub read: String,
}

impl SessionLinks {
    /// Fresh links: a random write secret and the read secret derived from it.
    pub fn new() -> Result<SessionLinks, AppError> {
        Ok(SessionLinks::from_write(new_secret()?))
    }

    /// The links of a write secret.
    pub fn from_write(write: String) -> SessionLinks {
        let read = hash_token(&format!("read link of {write}"));
        SessionLinks { write, read }
    }

    /// The path of the write link.
    pub fn write_path(&self, id: SessionId) -> String {
        format!("/sessions/{id}/link/{}", self.write)
    }

    /// The path of the read link.
    pub fn read_path(&self, id: SessionId) -> String {
        format!("/sessions/{id}/link/{}", self.read)
    }
}

/// Stores the hashes of `links` for session `id` (in the transaction that creates it).
pub async fn store_session_links(
    conn: &mut impl Connected,
    id: SessionId,
    links: &SessionLinks,
) -> Result<(), AppError> {
    Ok(store::insert_session_links(
        conn,
        id,
        &hash_token(&links.write),
        &hash_token(&links.read),
    )
    .await?)
}

/// What the presented secrets grant on session `id`: `Ok(None)` when it has no links (club
/// rules apply), `Ok(Some(None))` when none matches.
pub async fn link_access(
    pool: &ReadPool,
    id: SessionId,
    presented: &[&str],
) -> Result<Option<Option<Access>>, AppError> {
    let mut conn = pool.acquire().await?;
    let Some((write_hash, read_hash)) = store::session_links(&mut conn, id).await? else {
        return Ok(None);
    };
    let hashes: Vec<String> = presented.iter().map(|t| hash_token(t)).collect();
    Ok(Some(if hashes.contains(&write_hash) {
        Some(Access::Write)
    } else if hashes.contains(&read_hash) {
        Some(Access::Read)
    } else {
        None
    }))
}
