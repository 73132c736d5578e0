//! The open sessions kept folded in memory (docs/architecture.md, "The fold, the tip and
//! the cache"): a bounded LRU of slots, each a read-write lock over the state after the last
//! event handed to the group commit ([`Held`]), or empty when nothing trustworthy is known.
//! On SQLite a writer holds the slot for its step and leaves the state after it, its event
//! in flight, so that the session's next write may be stepped on it meanwhile ([`Landed`]);
//! on PostgreSQL it keeps the slot until its answer (`service::try_once`). Readers wait for
//! the event to land and never see an uncommitted state. A state whose event did not land
//! is worth nothing: the next request replays from the store.
//!
//! Lock order, against deadlock with the pool: a writer takes the slot before a connection;
//! a reader never waits for a slot while holding a connection. The cache also holds its
//! database's group-commit queue ([`Committer`]).

use std::num::NonZeroUsize;
use std::ops::Deref;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use lru::LruCache;
use tokio::sync::{RwLock, RwLockReadGuard};

use super::commit::{Committer, Landed, Landing};
use super::reading::Whole;
use super::renamed::Renamed;
use super::{Kept, Loaded};
use crate::ids::ClubId;
use crate::ids::SessionId;

/// One session's place in the cache: its state after the last event handed on, or `None`.
pub(super) type Slot = Arc<RwLock<Option<Held>>>;

/// A writer's hold on one session's slot, kept across its step (on PostgreSQL, its commit).
pub(super) type SlotGuard = tokio::sync::OwnedRwLockWriteGuard<Option<Held>>;

/// A session's state after the last event handed to the group commit, and that event's
/// landing while it may be in flight.
#[derive(Debug)]
pub(super) struct Held {
    kept: Kept,
    /// `None`: committed.
    landed: Option<Landed>,
    /// The landing of the event it was stepped after, while that was in flight: one that
    /// did not land dooms this one, and nothing should be stepped on it.
    after: Option<Landed>,
}

impl Held {
    /// A state whose events are all committed.
    pub(super) fn committed(kept: Kept) -> Held {
        Held {
            kept,
            landed: None,
            after: None,
        }
    }

    /// The state after an event handed on, `landed` watching it, stepped after the event
    /// `after` watches.
    pub(super) fn handed_on(kept: Kept, landed: Landed, after: Option<Landed>) -> Held {
        Held {
            kept,
            landed: Some(landed),
            after,
        }
    }

    fn landing(&self) -> Landing {
        let doomed = self.after.as_ref().map(Landed::now) == Some(Landing::NotCommitted);
        match self.landed.as_ref().map_or(Landing::Committed, Landed::now) {
            Landing::InFlight if doomed => Landing::NotCommitted,
            landing => landing,
        }
    }

    /// The state, once its last event is committed.
    pub(super) fn state(&self) -> Option<&Kept> {
        (self.landing() == Landing::Committed).then_some(&self.kept)
    }

    /// The state whether or not its last event has landed: only for what never changes
    /// (the session's game).
    pub(super) fn latest(&self) -> &Kept {
        &self.kept
    }

    /// For the next writer: the state and, while its last event is in flight, its landing
    /// to be written after; `None` when that event did not land.
    pub(super) fn into_writable(self) -> Option<(Kept, Option<Landed>)> {
        match self.landing() {
            Landing::Committed => Some((self.kept, None)),
            Landing::InFlight => Some((self.kept, self.landed)),
            Landing::NotCommitted => None,
        }
    }

    /// The event in flight, if any.
    pub(super) fn in_flight(&self) -> Option<Landed> {
        self.landed
            .clone()
            .filter(|landed| landed.now() == Landing::InFlight)
    }

    /// Whether a state of `events` events read from the store should replace this one:
    /// never one in flight (the session's next write is stepped on it).
    pub(super) fn superseded_by(&self, events: usize) -> bool {
        match self.landing() {
            Landing::Committed => self.kept.events() < events,
            Landing::InFlight => false,
            Landing::NotCommitted => true,
        }
    }
}

/// Times a reader waits for an event in flight before it takes what the slot holds:
/// writes that keep coming could otherwise hold it off.
const WAITS: usize = 4;

/// A read hold on `slot` once no event of it is in flight (at most [`WAITS`] waits); its
/// [`Held::state`] is then the committed state, if any.
pub(super) async fn settled(slot: &Slot) -> RwLockReadGuard<'_, Option<Held>> {
    for _ in 0..WAITS {
        let held = slot.read().await;
        let Some(mut landed) = held.as_ref().and_then(Held::in_flight) else {
            return held;
        };
        drop(held);
        landed.settled().await;
    }
    slot.read().await
}

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
    /// The last session amended before its tip's tail, still folded whole, and when: its
    /// next such amendment folds only the events stored since, not the whole session again
    /// ([`Folds::take_whole`]). One only: a long session's whole fold is megabytes.
    amended: Arc<Mutex<Option<WholeKept>>>,
    /// How many times an amendment read and folded its session whole from the store.
    whole_reads: Arc<AtomicUsize>,
}

/// A session folded whole and when it was kept.
type WholeKept = (Box<Whole>, Instant);

/// How long [`Folds`] keeps a session folded whole after an amendment reaching back: a
/// table fixing several early hands does so within minutes.
pub const WHOLE_KEPT_FOR: Duration = Duration::from_secs(10 * 60);

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
            amended: Arc::default(),
            whole_reads: Arc::default(),
        }
    }

    /// Session `id` folded whole as its last amendment reaching back left it (it may lack
    /// the events recorded since), taken out of the cache; `None` when another session's or
    /// none is kept, or it was kept longer than [`WHOLE_KEPT_FOR`]. The caller holds the
    /// session's slot, so no other writer takes it meanwhile.
    pub(super) fn take_whole(&self, id: SessionId) -> Option<Box<Whole>> {
        let kept = {
            let mut amended = self.amended.lock().unwrap_or_else(PoisonError::into_inner);
            amended.take()
        };
        // Another session's is dropped here, before its successor is folded beside it.
        kept.filter(|(whole, at)| whole.id == id && at.elapsed() < WHOLE_KEPT_FOR)
            .map(|(whole, _)| whole)
    }

    /// Which session is kept folded whole, and through how many events.
    pub fn kept_whole(&self) -> Option<(SessionId, usize)> {
        let amended = self.amended.lock().unwrap_or_else(PoisonError::into_inner);
        amended.as_ref().map(|(w, _)| (w.id, w.fold.events()))
    }

    /// How many times an amendment reaching back read and folded its session whole from the
    /// store, rather than take the whole fold kept ([`Folds::take_whole`]).
    pub fn whole_reads(&self) -> usize {
        self.whole_reads.load(Ordering::Relaxed)
    }

    /// Counts one [`Folds::whole_reads`].
    pub(super) fn count_whole_read(&self) {
        self.whole_reads.fetch_add(1, Ordering::Relaxed);
    }

    /// Keeps `whole` (a session folded whole through its last stored event) in place of any
    /// other, for [`WHOLE_KEPT_FOR`] at most: a timer drops it then if nothing took it. Not
    /// kept when most of its events finished a game (the Auction game, a game a deal): such
    /// a fold keeps a closing row, a game's record and four payments a deal, and kept
    /// beside 32 cached sessions it held the benchmark's peak 25 MB higher at 10,000 deals
    /// through the streamed downloads that followed.
    pub(super) fn keep_whole(&self, whole: Box<Whole>) {
        if whole.fold.games_finished() > whole.fold.events() / 2 {
            return;
        }
        let id = whole.id;
        let old = {
            let mut amended = self.amended.lock().unwrap_or_else(PoisonError::into_inner);
            amended.replace((whole, Instant::now()))
        };
        drop(old);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let folds = self.clone();
        runtime.spawn(async move {
            tokio::time::sleep(WHOLE_KEPT_FOR).await;
            let stale = {
                let mut amended = folds.amended.lock().unwrap_or_else(PoisonError::into_inner);
                match amended.as_ref() {
                    Some((w, at)) if w.id == id && at.elapsed() >= WHOLE_KEPT_FOR => amended.take(),
                    _ => None,
                }
            };
            drop(stale);
        });
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
