//! Clubs and access without sign-up: a club has a name and a passphrase; the passphrase
//! gives write access (a login cookie or an API bearer token), the share link gives
//! read-only access.

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

/// The PHC string that an attempt at an unknown club is checked against, so that it costs
/// the same argon2 work, and gets the same answer, as a wrong passphrase for a real club.
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

/// A new secret token of club `club_id` with `access`, stored (as its hash) in `conn` to
/// expire [`TOKEN_DAYS`] from now; the token.
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

/// Creates a club and returns it with a write token for its creator. Errors:
/// [`AppError::TooManyRequests`] past [`CREATIONS_BURST`] creations from one address (no
/// passphrase is hashed then); a name that is empty, longer than 60 characters or taken
/// (field `name`); a passphrase shorter than [`PASSPHRASE_MIN`] (field `passphrase`).
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

/// Checks a new club's name and passphrase and hashes the passphrase, writing nothing, so
/// that the club can be written in the same transaction as what comes with it (an import).
/// Errors as [`create_club`], but a taken name, which [`insert_club`] finds.
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

/// The refusal of a club name another club has (field `name`). It does not say that a
/// club of that name exists, and it comes only after the name's own rules, the passphrase
/// rule, the address's creation budget ([`CREATIONS_BURST`]: a refused name spends one as
/// a creation does) and the passphrase's hash, as a creation would: so probing names costs
/// what creating clubs costs, answers the same in time, and a probe learns no more than
/// that this name cannot be used.
fn taken_name() -> AppError {
    AppError::BadRequest {
        field: "name".into(),
        message: "a new club cannot be made under this name: choose another name".into(),
    }
}

/// Writes a [`NewClub`] and a write token for it in the caller's transaction. Errors: the
/// name is taken (field `name`, [`taken_name`]).
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

/// Checks a club's passphrase and returns a write token; on success the expired tokens of
/// every club are purged. Exactly one argon2 verification per attempt that passes the
/// address limit and the club's budget, against a dummy hash when no club has the name,
/// so an unknown club and a wrong passphrase take the same time and get the same answer.
/// Errors: [`AppError::TooManyRequests`] past the address limit or the club's budget of
/// checks ([`LoginLimits`]; nothing is hashed then, so the refusal says nothing about the
/// passphrase); [`AppError::Unauthorized`] for a wrong name or passphrase (one message
/// for both).
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
            // Looked up beside the writer: a login waits for no write but its own token's.
            let mut conn = pool.reader().acquire().await?;
            store::club_by_name(&mut conn, &name).await?
        }
        Err(_) => None,
    };
    // The budget is the club's, whatever spelling of its name was typed; an unknown name
    // has one of its own (its checks are guesses too, and cost a hash).
    let budget_key = match &club {
        Some(club) => limits::short_hash(&format!("club {}", club.id)),
        None => limits::short_hash(&format!("name {}", name.trim().to_lowercase())),
    };
    limits.club_turn(&budget_key, client)?;
    let phc = match &club {
        Some(club) => club.passphrase_hash.clone(),
        None => dummy_phc().await?,
    };
    let matches = {
        let _turn = limits.hashing.acquire().await;
        passphrase_matches(passphrase.to_string(), phc).await?
    };
    let Some(club) = club.filter(|_| matches) else {
        return Err(refused());
    };
    limits.logged_in(&budget_key, client);
    let token = issue_token(pool, club.id, Access::Write).await?;
    let mut conn = pool.acquire().await?;
    store::purge_expired_tokens(&mut conn, Utc::now()).await?;
    Ok((club.into(), token))
}

/// Replaces a club's passphrase, which needs the current one (checked like a login, under
/// the same address limit). Every login of the club ends (its tokens are deleted: whoever
/// knew the old passphrase is out) and the caller gets a fresh write token. Errors:
/// [`AppError::TooManyRequests`]; [`AppError::BadRequest`] for a wrong current passphrase
/// (field `current`) or an unfit new one (field `passphrase`); [`AppError::NotFound`].
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

/// Gives the club a new share secret: the old share link, and every browser that opened
/// it, reads no more. Returns the new secret (the link is `/share/{secret}`).
pub async fn rotate_share_secret(pool: &WritePool, club_id: ClubId) -> Result<String, AppError> {
    let secret = new_secret()?;
    let mut tx = pool.begin_write().await?;
    store::set_share_token(&mut tx, club_id, &secret).await?;
    store::delete_club_tokens(&mut tx, club_id, Some(Access::Read.as_str())).await?;
    tx.commit().await?;
    Ok(secret)
}

/// The club whose share link carries `share_token`. Opening the link writes nothing: the
/// secret itself is the read-only credential (the browser keeps it as its login cookie),
/// so a visit adds no token row and rotating the secret ends every reader's access.
/// Errors: [`AppError::NotFound`] for an unknown (or rotated) link.
pub async fn open_share_link(pool: &ReadPool, share_token: &str) -> Result<Club, AppError> {
    let mut conn = pool.acquire().await?;
    Ok(store::club_by_share_token(&mut conn, share_token)
        .await?
        .ok_or_else(|| AppError::NotFound("this share link is not valid".into()))?
        .into())
}

/// What a token (a cookie's, a bearer's, or a share link's secret itself) grants; `None`
/// when it is unknown or expired.
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
    /// The secrets a request presented (its bearer token and its session-link cookies), set
    /// by the web layer around each request ([`with_presented_links`]) so that
    /// [`authorize`] can check a club-less session's links without every caller passing
    /// them.
    static PRESENTED_LINKS: Vec<String>;
}

/// Runs `work` (a request's handling) with `secrets` as the capability-link secrets the
/// request presented, for [`authorize`].
pub async fn with_presented_links<F: std::future::Future>(
    secrets: Vec<String>,
    work: F,
) -> F::Output {
    PRESENTED_LINKS.scope(secrets, work).await
}

/// Checks that whoever holds `grant` may read (`need = Read`) or change (`Write`) session
/// `id`. A session without a club is reached through its links: the write secret reads and
/// writes, the read secret reads (the secrets come from [`with_presented_links`]); one made
/// before links existed is open to all. Errors: [`AppError::NotFound`] for a session that
/// does not exist or that the asker may not see (a club's sessions are invisible to
/// outsiders, for reading and writing alike, a linked session to anyone without its
/// link); [`AppError::Forbidden`] for a write with a read-only token or link. The session's
/// club is read from `folds`' memory of it when known (a session never changes club), so a
/// hand recorded into a known session costs no read for it.
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
        // Someone without access hears what they hear for a session that does not exist:
        // a 401 here would tell that a club session has this id.
        _ => Err(missing()),
    }
}

/// The secrets of a club-less session's capability links. Whoever holds the write secret
/// may enter hands and close the session; the read secret only looks. The read secret is
/// derived from the write secret (a SHA-256 of it), so the write holder can always show
/// the read link, and the read holder cannot find the write one. Only hashes are stored.
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

/// What the presented secrets grant on a club-less session. `Ok(None)` when the session
/// has no links (a club's session, one made before links, or no such session): the club
/// rules apply then. `Ok(Some(None))` when it has links and no secret matches.
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
