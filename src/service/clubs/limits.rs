//! Login and club-creation limits: per address, per-club back-off and budget.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};

use crate::error::AppError;

/// The login and club-creation limits, shared by the pages and the API.
pub type LoginLimiter = Arc<LoginLimits>;

/// A fresh set of limits with the default budget (see [`LoginLimits`]).
pub fn login_limiter() -> LoginLimiter {
    Arc::new(LoginLimits::new())
}

/// A client as the limits see it: a 16-byte SHA-256 prefix of its address (IPv6 by /64).
/// No address (tests without a socket) is one fixed key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientKey([u8; 16]);

impl ClientKey {
    /// The key of `address`.
    pub fn of(address: Option<IpAddr>) -> ClientKey {
        let text = match address {
            Some(IpAddr::V4(v4)) => v4.to_string(),
            Some(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
                Some(v4) => v4.to_string(),
                None => {
                    let s = v6.segments();
                    format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
                }
            },
            None => "no address".to_string(),
        };
        ClientKey(short_hash(&text))
    }
}

pub(super) fn short_hash(text: &str) -> [u8; 16] {
    let digest = Sha256::digest(text.as_bytes());
    let mut key = [0u8; 16];
    key.copy_from_slice(digest.get(..16).unwrap_or(&[0u8; 16]));
    key
}

type Keyed = DefaultKeyedRateLimiter<[u8; 16]>;

/// Passphrase attempts per address at once; then one per [`RETRY_AFTER_SECS`].
pub const ATTEMPTS_BURST: u32 = 10;
/// The login `Retry-After`, in seconds; also the default budget's refill interval.
pub const RETRY_AFTER_SECS: u64 = 6;
/// Club creations per address at once; then one per [`CREATION_RETRY_AFTER_SECS`].
pub const CREATIONS_BURST: u32 = 5;
/// Seconds until an address over its club-creation limit may create another.
pub const CREATION_RETRY_AFTER_SECS: u64 = 600;
/// Attempts per club name (from every address together) before each further one waits.
pub const CLUB_BURST: u32 = 20;
/// The longest an attempt waits when its club is under a burst of attempts.
pub const CLUB_BACKOFF_MAX: Duration = Duration::from_secs(2);
/// Passphrase checks per club per minute from all addresses (`LOGIN_BUDGET`).
pub const LOGIN_BUDGET: u32 = 10;
/// Checks per club per minute reserved for addresses that logged in before (`LOGIN_RESERVE`).
pub const LOGIN_RESERVE: u32 = 5;
/// Keys a limiter keeps before forgetting those back to a full allowance.
pub(super) const PRUNE_ABOVE: usize = 10_000;
/// How long a logged-in address stays known to its club: a login's lifetime.
const KNOWN_FOR: Duration = Duration::from_secs(super::TOKEN_DAYS as u64 * 24 * 60 * 60);

/// Clubs whose allowance of wrong passphrases is spent: until when, and how many wrong
/// guesses checked meanwhile it still owes (each is paid with the next allowance it gets,
/// before another check). Bounded as the limiters are ([`PRUNE_ABOVE`]).
#[derive(Default)]
struct Spent(Mutex<HashMap<[u8; 16], (Instant, u32)>>);

impl Spent {
    /// Whether `club` may have a check now from `limiter`'s allowance: not while spent;
    /// a debt is paid first, and if it cannot be, the club is spent until it can.
    fn open(&self, limiter: &Keyed, club: &[u8; 16]) -> bool {
        let mut spent = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let Some((until, owed)) = spent.get_mut(club) else {
            return true;
        };
        if Instant::now() < *until {
            return false;
        }
        while *owed > 0 {
            match LoginLimits::check(limiter, club) {
                Ok(()) => *owed -= 1,
                Err(wait) => {
                    *until = Instant::now() + wait;
                    return false;
                }
            }
        }
        spent.remove(club);
        true
    }

    /// A wrong guess `limiter` had no allowance for: owed, and `club` spent for `wait`.
    /// Past [`PRUNE_ABOVE`] clubs, those neither spent nor owing are forgotten.
    fn owe(&self, club: &[u8; 16], wait: Duration) {
        let mut spent = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = spent.entry(*club).or_insert((Instant::now(), 0));
        entry.0 = Instant::now() + wait;
        entry.1 = entry.1.saturating_add(1);
        if spent.len() > PRUNE_ABOVE {
            let now = Instant::now();
            spent.retain(|_, (until, owed)| now < *until || *owed > 0);
            spent.shrink_to_fit();
        }
    }

    fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

/// Rate limits on logins and club creation, in bounded memory.
///
/// An address over its limit is refused (429) *before* any hashing, so others are not
/// locked out. Attempts at one club are slowed past [`CLUB_BURST`] a minute. Its wrong
/// passphrases are capped by the club's budget ([`LOGIN_BUDGET`]): once they have spent it,
/// every attempt is refused *unchecked* until it refills, so no one gets more guesses
/// however many addresses they use, while right passphrases never spend it (a table of
/// members logging in at once all get in). Addresses that logged in before draw first on
/// a reserve ([`LOGIN_RESERVE`]). Keys are fixed-size hashes, pruned past `PRUNE_ABOVE`.
pub struct LoginLimits {
    by_address: Keyed,
    by_club: Keyed,
    /// Wrong passphrases per club, and the clubs whose budget is spent.
    budget: (Keyed, Spent),
    /// The reserve of addresses that logged in before, likewise; `None` when configured 0.
    reserve: Option<(Keyed, Spent)>,
    /// Last login per (club, address), by [`pair_key`].
    known: Mutex<HashMap<[u8; 16], Instant>>,
    creations: Keyed,
    pub(super) hashing: tokio::sync::Semaphore,
    checks: AtomicU64,
}

impl Default for LoginLimits {
    fn default() -> LoginLimits {
        LoginLimits::new()
    }
}

fn quota(burst: u32, every: Duration) -> Quota {
    let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(every)
        .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
        .allow_burst(burst)
}

/// `per_minute` wrong guesses a minute: one less at once, since the guess that finds the
/// allowance empty has been checked already and is owed ([`Spent`]); at least one.
fn guesses(per_minute: u32) -> Quota {
    let n = per_minute.max(1);
    quota((n - 1).max(1), Duration::from_secs(60) / n)
}

/// A key for a club and an address together.
fn pair_key(club: &[u8; 16], client: ClientKey) -> [u8; 16] {
    let mut hasher = Sha256::new();
    hasher.update(club);
    hasher.update(client.0);
    let mut key = [0u8; 16];
    key.copy_from_slice(hasher.finalize().get(..16).unwrap_or(&[0u8; 16]));
    key
}

impl LoginLimits {
    /// The default limits.
    pub fn new() -> LoginLimits {
        LoginLimits::with_budget(LOGIN_BUDGET, LOGIN_RESERVE)
    }

    /// Limits with a club budget of `budget` checks a minute (at least one) and `reserve` for
    /// known addresses (none when 0).
    pub fn with_budget(budget: u32, reserve: u32) -> LoginLimits {
        LoginLimits::divided(budget, reserve, 1)
    }

    /// One of `instances` processes on one PostgreSQL database: each allowance divided by
    /// `instances`, rounded down (bursts at least one), so together they never allow more than
    /// [`LoginLimits::with_budget`]. Errors: `instances` is 0 or exceeds `budget`.
    pub fn for_instances(budget: u32, reserve: u32, instances: u32) -> Result<LoginLimits, String> {
        if instances == 0 || budget < instances {
            return Err(format!(
                "the login budget ({budget} a minute, --login-budget) cannot be shared by {instances} instances (--instances): each needs at least one check a minute; raise the budget or give the number of processes that share the database"
            ));
        }
        Ok(LoginLimits::divided(budget, reserve, instances))
    }

    fn divided(budget: u32, reserve: u32, instances: u32) -> LoginLimits {
        let n = instances.max(1);
        let every = |secs: u64| Duration::from_secs(secs.saturating_mul(u64::from(n)));
        let burst = |burst: u32| (burst / n).max(1);
        let reserve = reserve / n;
        LoginLimits {
            by_address: RateLimiter::keyed(quota(burst(ATTEMPTS_BURST), every(RETRY_AFTER_SECS))),
            by_club: RateLimiter::keyed(quota(burst(CLUB_BURST), every(3))),
            budget: (RateLimiter::keyed(guesses(budget / n)), Spent::default()),
            reserve: (reserve > 0)
                .then(|| (RateLimiter::keyed(guesses(reserve)), Spent::default())),
            known: Mutex::new(HashMap::new()),
            creations: RateLimiter::keyed(quota(
                burst(CREATIONS_BURST),
                every(CREATION_RETRY_AFTER_SECS),
            )),
            hashing: tokio::sync::Semaphore::new(2),
            checks: AtomicU64::new(0),
        }
    }

    /// How many keys the limiters hold together (for tests of the memory bound).
    pub fn keys(&self) -> usize {
        let reserve = self.reserve.as_ref().map_or(0, |r| r.0.len() + r.1.len());
        self.by_address.len()
            + self.by_club.len()
            + self.creations.len()
            + self.budget.0.len()
            + self.budget.1.len()
            + reserve
    }

    /// Passphrases checked so far, dummy hash included (for tests of the budget).
    pub fn checks(&self) -> u64 {
        self.checks.load(Ordering::Relaxed)
    }

    pub(super) fn check(limiter: &Keyed, key: &[u8; 16]) -> Result<(), Duration> {
        let outcome = limiter.check_key(key);
        if limiter.len() > PRUNE_ABOVE {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        outcome.map_err(|not_until| not_until.wait_time_from(limiter.clock().now()))
    }

    /// Refuses an attempt from an address over its limit: [`AppError::TooManyRequests`].
    pub(super) fn attempt(&self, client: ClientKey) -> Result<(), AppError> {
        Self::check(&self.by_address, &client.0).map_err(|_| {
            AppError::TooManyRequests(format!(
                "too many attempts from this device; wait {RETRY_AFTER_SECS} seconds and try again"
            ))
        })
    }

    /// Waits (at most [`CLUB_BACKOFF_MAX`]) when the club has had a burst of attempts.
    pub(super) async fn club_backoff(&self, name: &str) {
        if let Err(wait) = Self::check(&self.by_club, &short_hash(&name.trim().to_lowercase())) {
            tokio::time::sleep(wait.min(CLUB_BACKOFF_MAX)).await;
        }
    }

    /// Whether a passphrase may be checked for `club` ([`short_hash`] of its id or the
    /// typed name) from `client` now: not while its wrong guesses have spent the club's
    /// budget, or, for an address that logged in before, the reserve too. Asked before the
    /// check and again once its turn to hash comes. Errors: [`AppError::TooManyRequests`],
    /// before anything is checked, the right passphrase too.
    pub(super) fn club_open(&self, club: &[u8; 16], client: ClientKey) -> Result<(), AppError> {
        let open = |(limiter, spent): &(Keyed, Spent)| spent.open(limiter, club);
        let open = match &self.reserve {
            Some(reserve) if self.is_known(club, client) => open(reserve) || open(&self.budget),
            _ => open(&self.budget),
        };
        if open {
            Ok(())
        } else {
            Err(AppError::TooManyRequests(
                "this club has been sent too many wrong passphrases in the last minute; wait a minute and try again, or log in from a device that has logged in to it before".into(),
            ))
        }
    }

    /// Counts one passphrase checked (dummy hash included), for [`LoginLimits::checks`].
    pub(super) fn checking(&self) {
        self.checks.fetch_add(1, Ordering::Relaxed);
    }

    /// A wrong passphrase for `club` from `client`: it takes one from the reserve (an
    /// address that logged in before) or else the budget. An allowance that has none left
    /// is spent, and owes it: [`LoginLimits::club_open`] refuses until it is paid.
    pub(super) fn wrong_guess(&self, club: &[u8; 16], client: ClientKey) {
        if let Some((limiter, reserve)) = &self.reserve
            && self.is_known(club, client)
        {
            match Self::check(limiter, club) {
                Ok(()) => return,
                Err(wait) => reserve.owe(club, wait),
            }
        }
        if let Err(wait) = Self::check(&self.budget.0, club) {
            self.budget.1.owe(club, wait);
        }
    }

    fn is_known(&self, club: &[u8; 16], client: ClientKey) -> bool {
        let known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        known
            .get(&pair_key(club, client))
            .is_some_and(|at| at.elapsed() < KNOWN_FOR)
    }

    /// Remembers that `client` logged in to `club`; past [`PRUNE_ABOVE`] pairs, the expired
    /// are forgotten, and if that is not enough, all.
    pub(super) fn logged_in(&self, club: &[u8; 16], client: ClientKey) {
        let mut known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        known.insert(pair_key(club, client), Instant::now());
        if known.len() > PRUNE_ABOVE {
            known.retain(|_, at| at.elapsed() < KNOWN_FOR);
            if known.len() > PRUNE_ABOVE {
                known.clear();
            }
            known.shrink_to_fit();
        }
    }

    /// Refuses a club creation from an address over its limit: [`AppError::TooManyRequests`].
    pub(super) fn creation(&self, client: ClientKey) -> Result<(), AppError> {
        Self::check(&self.creations, &client.0).map_err(|_| {
            AppError::TooManyRequests(
                "too many clubs created from this device; wait ten minutes and try again".into(),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    #[test]
    fn a_limiter_forgets_keys_back_to_a_full_allowance_once_past_the_bound() {
        // One attempt a millisecond: a key is back to a full allowance almost at once.
        let limiter: Keyed = RateLimiter::keyed(Quota::per_second(
            NonZeroU32::new(1000).unwrap_or(NonZeroU32::MIN),
        ));
        for n in 0..PRUNE_ABOVE {
            assert!(LoginLimits::check(&limiter, &short_hash(&format!("name {n}"))).is_ok());
        }
        assert_eq!(limiter.len(), PRUNE_ABOVE);
        std::thread::sleep(std::time::Duration::from_millis(20));
        // The key past the bound prunes every key that is back to a full allowance.
        let one_mebibyte_name = "x".repeat(1 << 20);
        assert!(LoginLimits::check(&limiter, &short_hash(&one_mebibyte_name)).is_ok());
        assert!(limiter.len() <= 1, "{} keys kept", limiter.len());
    }

    /// Wrong guesses `limits` checks at once for one club from one new address.
    fn checks_at_once(limits: &LoginLimits) -> u32 {
        let club = short_hash("club 7");
        let client = ClientKey::of(None);
        let mut checked = 0;
        while checked < 100 && limits.club_open(&club, client).is_ok() {
            limits.wrong_guess(&club, client);
            checked += 1;
        }
        checked
    }

    #[test]
    fn right_passphrases_never_spend_the_budget_and_wrong_ones_do() {
        let limits = LoginLimits::with_budget(10, 5);
        let club = short_hash("club 7");
        // A full table logging in at once: a right passphrase takes nothing.
        for n in 0..32u8 {
            let member = ClientKey::of(Some(IpAddr::from([10, 0, 0, n])));
            assert!(limits.club_open(&club, member).is_ok(), "member {n}");
        }
        // Ten wrong guesses are checked, the eleventh is refused before a check.
        assert_eq!(checks_at_once(&limits), 10);
        let refused = limits.club_open(&club, ClientKey::of(None));
        assert!(matches!(refused, Err(AppError::TooManyRequests(_))));
    }

    #[test]
    fn instances_share_the_club_budget_and_never_add_up_to_more() {
        // The default budget, 10 a minute: one process checks 10 at once; each of two
        // checks 5 (5 + 5 = 10); each of three checks 3 (9, rounded down, never 12).
        assert_eq!(checks_at_once(&LoginLimits::with_budget(10, 5)), 10);
        let two = LoginLimits::for_instances(10, 5, 2).map(|l| checks_at_once(&l));
        assert_eq!(two, Ok(5));
        let three = LoginLimits::for_instances(10, 5, 3).map(|l| checks_at_once(&l));
        assert_eq!(three, Ok(3));
        // Each process needs one check a minute: a budget of 3 cannot serve 4 of them.
        let refused = LoginLimits::for_instances(3, 0, 4)
            .err()
            .unwrap_or_default();
        assert!(
            refused.starts_with(
                "the login budget (3 a minute, --login-budget) cannot be shared by 4 instances"
            ),
            "{refused}"
        );
        assert!(LoginLimits::for_instances(10, 5, 0).is_err());
    }

    #[test]
    fn client_keys_are_fixed_size_and_group_an_ipv6_network() {
        let a = ClientKey::of(Some(
            "2001:db8:1:2::7".parse().unwrap_or(IpAddr::from([0; 4])),
        ));
        let b = ClientKey::of(Some(
            "2001:db8:1:2:ffff::1"
                .parse()
                .unwrap_or(IpAddr::from([0; 4])),
        ));
        let c = ClientKey::of(Some(
            "2001:db8:1:3::7".parse().unwrap_or(IpAddr::from([0; 4])),
        ));
        assert_eq!(a, b, "one /64 is one client");
        assert_ne!(a, c);
        let v4 = ClientKey::of(Some(IpAddr::from([192, 0, 2, 1])));
        let mapped = ClientKey::of(Some(
            "::ffff:192.0.2.1".parse().unwrap_or(IpAddr::from([0; 4])),
        ));
        assert_eq!(
            v4, mapped,
            "an IPv4 address is one client however it arrives"
        );
        assert_ne!(ClientKey::of(None), v4);
    }
}
