//! The open sessions kept folded in memory, so that recording a hand or telling where a
//! session stands does not re-read and replay the whole session (`docs/architecture.md`,
//! "The fold, the tip and the cache").
//!
//! A bounded LRU map from session id to a slot; each slot is a read-write lock over the
//! session's state after its last committed event ([`Kept`]: the fold's [`Tip`], whose size
//! does not grow with the hands played), or empty when nothing trustworthy is known. A
//! writer holds the slot's write lock across its transaction, so readers see either the
//! state before the event or after its commit, never an uncommitted one; a slot is emptied
//! whenever a write fails midway, and the next request replays from the store. What needs
//! the history (the sheet's rows, the ledger's events, a correction) is read and replayed
//! from the store, never kept here.
//!
//! Lock order, to keep clear of deadlock with the connection pool: a writer takes the slot
//! before a connection; a reader never waits for the slot while holding a connection.
//!
//! The cache also holds the queue through which the plain records of its sessions are
//! committed together ([`Committer`]): a writer queues its record there while holding its
//! session's slot, so a session's records keep their order. One cache serves one database.
//!
//! [`Tip`]: crate::session::Tip

use std::num::NonZeroUsize;
use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;
use tokio::sync::RwLock;

use super::commit::Committer;
use super::renamed::Renamed;
use super::{Kept, Loaded};
use crate::ids::ClubId;
use crate::ids::SessionId;

/// One session's place in the cache: its state as last committed, or `None`.
pub(super) type Slot = Arc<RwLock<Option<Kept>>>;

/// A writer's hold on one session's slot, kept across its transaction.
pub(super) type SlotGuard = tokio::sync::OwnedRwLockWriteGuard<Option<Kept>>;

/// How many sessions [`Folds::default`] keeps: more than the tables of a club night, few
/// enough that a handful of marathon sessions stay within the memory budget.
pub const DEFAULT_CAPACITY: usize = 32;

/// The folded sessions, shared by every request (cloning shares the same cache), and the
/// queue their records are committed through.
#[derive(Clone)]
pub struct Folds {
    slots: Arc<Mutex<LruCache<SessionId, Slot>>>,
    committer: Arc<Committer>,
    /// A club session's state under its renamed players' names, as its sheet shows it
    /// ([`super::renamed`]), as many as there are slots.
    renamed: Arc<Mutex<LruCache<SessionId, Arc<Renamed>>>>,
    /// The club of each session asked about lately (`None`: a session without a club), as
    /// many as [`CLUBS_KEPT`]. A session's club is set when it is made and never changes,
    /// and sessions are never deleted, so what is kept here never goes stale, even beside
    /// another process writing the same database.
    clubs: Arc<Mutex<LruCache<SessionId, Option<ClubId>>>>,
}

/// How many sessions' clubs [`Folds`] remembers (16 bytes each, plus the map's own).
pub const CLUBS_KEPT: usize = 4_096;

impl Default for Folds {
    fn default() -> Folds {
        Folds::new(DEFAULT_CAPACITY)
    }
}

impl std::fmt::Debug for Folds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Folds").finish_non_exhaustive()
    }
}

impl Folds {
    /// A cache keeping at most `capacity` sessions (at least one), the least recently
    /// used dropped first.
    pub fn new(capacity: usize) -> Folds {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        Folds {
            slots: Arc::new(Mutex::new(LruCache::new(capacity))),
            committer: Arc::new(Committer::default()),
            renamed: Arc::new(Mutex::new(LruCache::new(capacity))),
            clubs: Arc::new(Mutex::new(LruCache::new(
                NonZeroUsize::new(CLUBS_KEPT).unwrap_or(NonZeroUsize::MIN),
            ))),
        }
    }

    /// The club of session `id` when remembered: `Some(None)` for a session without a
    /// club; `None` when not known here (ask the store).
    pub fn club_of(&self, id: SessionId) -> Option<Option<ClubId>> {
        let mut clubs = self.clubs.lock().unwrap_or_else(PoisonError::into_inner);
        clubs.get(&id).copied()
    }

    /// Remembers that session `id` exists and belongs to `club` (`None`: no club), as the
    /// store answered.
    pub fn remember_club(&self, id: SessionId, club: Option<ClubId>) {
        let mut clubs = self.clubs.lock().unwrap_or_else(PoisonError::into_inner);
        clubs.put(id, club);
    }

    /// The queue through which this cache's records are committed in groups.
    pub fn committer(&self) -> &Arc<Committer> {
        &self.committer
    }

    /// The slot of session `id`, made empty if the session has none yet.
    pub(super) fn slot(&self, id: SessionId) -> Slot {
        // The map is only touched in these few lines, which cannot panic midway, so a
        // poisoned lock still guards a whole map.
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots
            .get_or_insert(id, || Arc::new(RwLock::new(None)))
            .clone()
    }

    /// Session `id`'s state under renamed names, when kept.
    pub(super) fn renamed(&self, id: SessionId) -> Option<Arc<Renamed>> {
        let mut renamed = self.renamed.lock().unwrap_or_else(PoisonError::into_inner);
        renamed.get(&id).cloned()
    }

    /// Keeps `state` as session `id`'s state under renamed names, unless a later one is
    /// kept already (another request may have read a later event meanwhile).
    pub(super) fn keep_renamed(&self, id: SessionId, state: Arc<Renamed>) {
        let mut renamed = self.renamed.lock().unwrap_or_else(PoisonError::into_inner);
        if renamed
            .peek(&id)
            .is_none_or(|r| r.events() <= state.events())
        {
            renamed.put(id, state);
        }
    }

    /// The slot of session `id` when the cache has one, without making one or counting
    /// as a use: what a read that must change nothing (a what-if preview) looks at.
    pub(super) fn peek(&self, id: SessionId) -> Option<Slot> {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots.peek(&id).cloned()
    }
}

/// A session read and replayed from the store, with its history (document, ledger, rows);
/// owned by the caller, so holding it keeps no write waiting.
pub struct Current(pub(super) Box<Loaded>);

impl Deref for Current {
    type Target = Loaded;

    fn deref(&self) -> &Loaded {
        &self.0
    }
}

impl std::fmt::Debug for Current {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}
