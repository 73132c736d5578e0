//! The open sessions kept folded in memory (docs/architecture.md, "The fold, the tip and
//! the cache"): a bounded LRU of slots, each a read-write lock over the state after the last
//! committed event ([`Kept`]), or empty when nothing trustworthy is known. A writer holds
//! the slot across its transaction, so readers never see an uncommitted state; a write that
//! fails midway leaves the slot empty and the next request replays from the store.
//!
//! Lock order, against deadlock with the pool: a writer takes the slot before a connection;
//! a reader never waits for a slot while holding a connection. The cache also holds its
//! database's group-commit queue ([`Committer`]).

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

/// Sessions [`Folds::default`] keeps: more than a club night's tables, few enough that
/// marathon sessions fit the memory budget.
pub const DEFAULT_CAPACITY: usize = 32;

/// The folded sessions, shared by every request (clones share), and their commit queue.
#[derive(Clone)]
pub struct Folds {
    slots: Arc<Mutex<LruCache<SessionId, Slot>>>,
    committer: Arc<Committer>,
    /// Club sessions' states under renamed players' names ([`super::renamed`]).
    renamed: Arc<Mutex<LruCache<SessionId, Arc<Renamed>>>>,
    /// Each recent session's club (`None`: no club), at most [`CLUBS_KEPT`]. A session never
    /// changes club and is never deleted, so this never goes stale.
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
    /// A cache of at most `capacity` sessions (at least one), LRU.
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

    /// Session `id`'s club if remembered (`Some(None)`: no club); `None`: ask the store.
    pub fn club_of(&self, id: SessionId) -> Option<Option<ClubId>> {
        let mut clubs = self.clubs.lock().unwrap_or_else(PoisonError::into_inner);
        clubs.get(&id).copied()
    }

    /// Remembers session `id`'s club as the store answered.
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
        // Nothing here can panic midway, so a poisoned lock still guards a whole map.
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

    /// Keeps `state` unless a later one is kept already.
    pub(super) fn keep_renamed(&self, id: SessionId, state: Arc<Renamed>) {
        let mut renamed = self.renamed.lock().unwrap_or_else(PoisonError::into_inner);
        if renamed
            .peek(&id)
            .is_none_or(|r| r.events() <= state.events())
        {
            renamed.put(id, state);
        }
    }

    /// Session `id`'s slot if cached, without making one or counting a use (previews).
    pub(super) fn peek(&self, id: SessionId) -> Option<Slot> {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots.peek(&id).cloned()
    }
}

/// A session read and replayed from the store with its history; owned, holding no lock.
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
