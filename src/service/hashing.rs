//! Passphrase hashing on one dedicated thread: argon2id with OWASP parameters (m = 19 MiB,
//! t = 2, p = 1) needs 19 MiB per hash, so hashes queue one at a time rather than holding
//! 19 MiB per blocking-pool thread. Hashes and checks are argon2's own.

use std::panic::AssertUnwindSafe;
use std::sync::OnceLock;
use std::sync::mpsc;

use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::oneshot;

use crate::error::AppError;

type Job = Box<dyn FnOnce() + Send>;

/// The queue of the hashing thread, started on first use.
static HASHER: OnceLock<Result<mpsc::Sender<Job>, String>> = OnceLock::new();

fn hasher() -> Result<&'static mpsc::Sender<Job>, AppError> {
    HASHER
        .get_or_init(|| {
            let (queue, jobs) = mpsc::channel::<Job>();
            std::thread::Builder::new()
                .name("argon2".into())
                .spawn(move || {
                    for job in jobs {
                        // A panicking job answers nothing (its caller gets an error); the thread goes on.
                        let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
                    }
                })
                .map(|_| queue)
                .map_err(|e| format!("the hashing thread cannot start: {e}"))
        })
        .as_ref()
        .map_err(|e| AppError::Internal(e.clone()))
}

/// Runs `work` on the hashing thread in turn. Errors: [`AppError::Internal`] when the
/// thread cannot start or `work` panicked.
async fn on_hasher<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    let (answer, answered) = oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = answer.send(work());
    });
    hasher()?
        .send(job)
        .map_err(|_| AppError::Internal("the hashing thread has stopped".into()))?;
    answered
        .await
        .map_err(|_| AppError::Internal("hashing failed".into()))?
}

/// The PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`) of `passphrase`, fresh 16-byte
/// salt. Errors: [`AppError::Internal`].
pub async fn hash_passphrase(passphrase: String) -> Result<String, AppError> {
    on_hasher(move || {
        let argon2 = Argon2::default();
        let mut salt = [0u8; SALT_LEN];
        getrandom::fill(&mut salt)
            .map_err(|e| AppError::Internal(format!("no randomness: {e}")))?;
        let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
        argon2
            .hash_password_into(passphrase.as_bytes(), &salt, &mut out)
            .map_err(hashing)?;
        let phc = PasswordHash {
            algorithm: Algorithm::default().ident(),
            version: Some(Version::default().into()),
            params: ParamsString::try_from(argon2.params()).map_err(hashing)?,
            salt: Some(Salt::new(&salt).map_err(hashing)?),
            hash: Some(Output::new(&out).map_err(hashing)?),
        };
        Ok(phc.to_string())
    })
    .await
}

/// Whether `passphrase` matches the PHC string `phc` under its own parameters, in constant
/// time. Errors: [`AppError::Internal`] for an unparsable stored hash.
pub async fn passphrase_matches(passphrase: String, phc: String) -> Result<bool, AppError> {
    on_hasher(move || {
        let stored = |e: &dyn std::fmt::Display| AppError::Internal(format!("stored hash: {e}"));
        let parsed = PasswordHash::new(&phc).map_err(|e| stored(&e))?;
        let (Some(salt), Some(expected)) = (&parsed.salt, &parsed.hash) else {
            return Err(stored(&"no salt or no hash"));
        };
        let algorithm = Algorithm::try_from(parsed.algorithm.as_str()).map_err(|e| stored(&e))?;
        let version = Version::try_from(parsed.version.unwrap_or(Version::default().into()))
            .map_err(|e| stored(&e))?;
        let params = Params::try_from(&parsed).map_err(|e| stored(&e))?;
        let argon2 = Argon2::new(algorithm, version, params);
        let mut out = vec![0u8; expected.len()];
        argon2
            .hash_password_into(passphrase.as_bytes(), salt, &mut out)
            .map_err(hashing)?;
        Ok(Output::new(&out).map_err(hashing)? == *expected)
    })
    .await
}

/// The salt's length in bytes, as argon2's own `hash_password` makes it.
const SALT_LEN: usize = 16;

fn hashing(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(format!("hashing: {e}"))
}

#[cfg(test)]
mod tests {
    use super::{hash_passphrase, passphrase_matches};

    #[tokio::test]
    async fn a_hash_made_on_the_thread_verifies_there_and_keeps_the_owasp_parameters() {
        let phc = hash_passphrase("correct horse battery".into()).await;
        let phc = phc.unwrap_or_default();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        let right = passphrase_matches("correct horse battery".into(), phc.clone()).await;
        let wrong = passphrase_matches("correct horse battery!".into(), phc).await;
        assert_eq!((right.ok(), wrong.ok()), (Some(true), Some(false)));
    }

    #[tokio::test]
    async fn hashes_agree_with_argon2s_own_hash_and_verify() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let ours = hash_passphrase("correct horse battery".into())
            .await
            .unwrap_or_default();
        let argon2 = argon2::Argon2::default();
        assert!(
            argon2
                .verify_password(b"correct horse battery", ours.as_str())
                .is_ok()
        );
        assert!(
            argon2
                .verify_password(b"wrong horse battery", ours.as_str())
                .is_err()
        );
        let theirs = argon2
            .hash_password(b"correct horse battery")
            .map(|h| h.to_string())
            .unwrap_or_default();
        let right = passphrase_matches("correct horse battery".into(), theirs.clone()).await;
        let wrong = passphrase_matches("wrong horse battery".into(), theirs).await;
        assert_eq!((right.ok(), wrong.ok()), (Some(true), Some(false)));
        // A hash with other parameters (m = 8 MiB, t = 3) is checked with its own.
        let other = argon2::Argon2::from(argon2::Params::new(8192, 3, 1, None).unwrap_or_default())
            .hash_password(b"correct horse battery")
            .map(|h| h.to_string())
            .unwrap_or_default();
        assert!(other.contains("m=8192,t=3,p=1"), "{other}");
        let right = passphrase_matches("correct horse battery".into(), other).await;
        assert_eq!(right.ok(), Some(true));
        let broken = passphrase_matches("x".into(), "$argon2id$v=19$nonsense".into()).await;
        assert!(broken.is_err());
    }

    #[tokio::test]
    async fn many_hashes_at_once_all_answer() {
        let hashes: Vec<_> = (0..4)
            .map(|n| tokio::spawn(hash_passphrase(format!("passphrase {n}"))))
            .collect();
        for h in hashes {
            assert!(matches!(h.await, Ok(Ok(phc)) if phc.starts_with("$argon2id$")));
        }
    }
}
