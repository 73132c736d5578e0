//! Live sheets: one channel per watched session, so a change reaches only that session's
//! open sheets and costs one map look-up when nobody watches. Open sheets are bounded
//! (docs/operations.md, "Live sheets, logins and imports"): each holds a file descriptor and anyone
//! can open them, so at most [`LiveLimits::per_session`] per session and
//! [`LiveLimits::overall`] in all ([`Full`] past it); a sheet ends after
//! [`LiveLimits::idle`] without a change (the page reopens it) and at shutdown. The overall
//! cap is held below the process's open-file limit ([`descriptors::live_cap`]).

pub mod descriptors;
mod relay;

pub use relay::{CHANNEL, LISTEN_WAIT, SHARDS, channel_of, shard_of};

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::{Instant, Sleep};
use tokio_stream::Stream;
use tokio_stream::wrappers::WatchStream;

use crate::ids::SessionId;

/// Open sheets allowed on one session at once, unless configured (`LIVE_PER_SESSION`).
pub const DEFAULT_PER_SESSION: usize = 64;
/// Open sheets allowed in all at once, unless configured (`LIVE_OVERALL`); the server holds
/// it below its open-file limit ([`descriptors::live_cap`]).
pub const DEFAULT_OVERALL: usize = 1024;
/// How long a sheet stays open without a change, unless configured (`LIVE_IDLE`): 30 min.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(30 * 60);

/// The bounds on open live sheets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveLimits {
    /// Sheets open at once on one session.
    pub per_session: usize,
    /// Sheets open at once in all.
    pub overall: usize,
    /// A sheet ends after this long without a change of its session.
    pub idle: Duration,
}

impl Default for LiveLimits {
    fn default() -> LiveLimits {
        LiveLimits {
            per_session: DEFAULT_PER_SESSION,
            overall: DEFAULT_OVERALL,
            idle: DEFAULT_IDLE,
        }
    }
}

/// Why a sheet was not opened ([`Watchers::watch`]); answered 503 with `Retry-After`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The session has [`LiveLimits::per_session`] sheets open.
    Session,
    /// [`LiveLimits::overall`] sheets are open in all.
    Overall,
    /// The server is stopping.
    Stopping,
}

impl Full {
    /// The refusal in words, for the 503's body.
    pub fn message(self) -> &'static str {
        match self {
            Full::Session => "this session has as many live sheets open as it may; reload later",
            Full::Overall => "the server has as many live sheets open as it may; reload later",
            Full::Stopping => "the server is stopping; reload in a moment",
        }
    }
}

#[derive(Debug)]
struct Channels {
    by_session: HashMap<SessionId, watch::Sender<u64>>,
    /// Sheets open in all (the receivers of every channel).
    open: usize,
    /// Sessions in `by_session` by shard ([`relay::shard_of`]): the relay listens to a
    /// shard while its count is above 0.
    per_shard: [u32; SHARDS],
}

impl Channels {
    /// The shards with a watched session (bit `n`: shard `n`).
    fn shards(&self) -> u64 {
        self.per_shard
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count > 0)
            .fold(0, |shards, (n, _)| shards | 1 << n)
    }
}

#[derive(Debug)]
struct Shared {
    channels: Mutex<Channels>,
    limits: LiveLimits,
    /// `true` once the server stops: every sheet ends.
    stop: watch::Sender<bool>,
    /// The relay to other instances on PostgreSQL ([`Watchers::relay_through`]).
    relay: OnceLock<relay::Relay>,
}

/// The live sheets' channels by session id, with their bounds; clones share one map.
#[derive(Clone, Debug)]
pub struct Watchers {
    shared: Arc<Shared>,
}

impl Default for Watchers {
    fn default() -> Watchers {
        Watchers::new(LiveLimits::default())
    }
}

impl Watchers {
    /// No sheets yet, bounded by `limits`.
    pub fn new(limits: LiveLimits) -> Watchers {
        Watchers {
            shared: Arc::new(Shared {
                channels: Mutex::new(Channels {
                    by_session: HashMap::new(),
                    open: 0,
                    per_shard: [0; SHARDS],
                }),
                limits,
                stop: watch::Sender::new(false),
                relay: OnceLock::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Channels> {
        // Nothing here can panic midway, so a poisoned map is whole.
        self.shared
            .channels
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The bounds these sheets keep.
    pub fn limits(&self) -> LiveLimits {
        self.shared.limits
    }

    /// After a commit: wakes session `id`'s sheets here and, on PostgreSQL, elsewhere.
    pub fn changed(&self, id: SessionId) {
        self.wake(id);
        if let Some(relay) = self.shared.relay.get() {
            relay.publish(id);
        }
    }

    /// Wakes every sheet once (after a lost relay connection: missed changes are unknown).
    fn wake_all(&self) {
        for sender in self.lock().by_session.values() {
            sender.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// Wakes this instance's open sheets of session `id`; nothing when none is open.
    fn wake(&self, id: SessionId) {
        if let Some(sender) = self.lock().by_session.get(&id) {
            // A count, so every change is a new value; changes between two looks are told once.
            sender.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// Yields `()` per change of session `id` after this call (coalesced), ending after
    /// [`LiveLimits::idle`] without one or at shutdown. Errors: [`Full`].
    pub fn watch(&self, id: SessionId) -> Result<Watch, Full> {
        let receiver = {
            let mut channels = self.lock();
            if *self.shared.stop.borrow() {
                return Err(Full::Stopping);
            }
            if channels.open >= self.shared.limits.overall {
                return Err(Full::Overall);
            }
            let receiver = match channels.by_session.get(&id) {
                Some(sender) if sender.receiver_count() >= self.shared.limits.per_session => {
                    return Err(Full::Session);
                }
                Some(sender) => sender.subscribe(),
                None if self.shared.limits.per_session == 0 => return Err(Full::Session),
                None => {
                    let (sender, receiver) = watch::channel(0);
                    channels.by_session.insert(id, sender);
                    self.shard_gains(&mut channels, id);
                    receiver
                }
            };
            channels.open += 1;
            receiver
        };
        let idle = self.shared.limits.idle;
        Ok(Watch {
            id,
            changes: Some(WatchStream::from_changes(receiver)),
            stop: WatchStream::from_changes(self.shared.stop.subscribe()),
            idle: Box::pin(tokio::time::sleep(idle)),
            watchers: self.clone(),
        })
    }

    /// Counts session `id`, newly watched, in its shard; the shard's first tells the relay.
    fn shard_gains(&self, channels: &mut Channels, id: SessionId) {
        let count = &mut channels.per_shard[relay::shard_of(id)];
        *count += 1;
        if *count == 1
            && let Some(relay) = self.shared.relay.get()
        {
            relay.want(channels.shards());
        }
    }

    /// Takes session `id`, no longer watched, from its shard; the shard's last tells the
    /// relay.
    fn shard_loses(&self, channels: &mut Channels, id: SessionId) {
        let count = &mut channels.per_shard[relay::shard_of(id)];
        *count = count.saturating_sub(1);
        if *count == 0
            && let Some(relay) = self.shared.relay.get()
        {
            relay.want(channels.shards());
        }
    }

    /// Ends every sheet and refuses new ones, so a graceful stop does not wait for them.
    pub fn shut_down(&self) {
        self.shared.stop.send_replace(true);
    }

    /// How many sessions have an open sheet now (for tests of the bound).
    pub fn watched(&self) -> usize {
        self.lock().by_session.len()
    }

    /// How many sheets are open now, in all.
    pub fn open(&self) -> usize {
        self.lock().open
    }
}

/// One session's changes; dropping the last drops its channel.
pub struct Watch {
    id: SessionId,
    changes: Option<WatchStream<u64>>,
    stop: WatchStream<bool>,
    idle: Pin<Box<Sleep>>,
    watchers: Watchers,
}

impl Stream for Watch {
    type Item = ();

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<()>> {
        // Any news of the stop ends the sheet.
        if Pin::new(&mut self.stop).poll_next(cx).is_ready() {
            return Poll::Ready(None);
        }
        let polled = match self.changes.as_mut() {
            Some(changes) => Pin::new(changes).poll_next(cx),
            None => return Poll::Ready(None),
        };
        match polled {
            Poll::Ready(Some(_)) => {
                let idle = self.watchers.shared.limits.idle;
                self.idle.as_mut().reset(Instant::now() + idle);
                Poll::Ready(Some(()))
            }
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => match self.idle.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(None),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut channels = self.watchers.lock();
        // Receiver first, under the lock: a sheet subscribing meanwhile shares it or makes anew.
        self.changes = None;
        channels.open = channels.open.saturating_sub(1);
        if channels
            .by_session
            .get(&self.id)
            .is_some_and(|s| s.receiver_count() == 0)
        {
            channels.by_session.remove(&self.id);
            self.watchers.shard_loses(&mut channels, self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio_stream::StreamExt;

    use super::Watchers;
    use crate::ids::SessionId;

    async fn next_within(watch: &mut super::Watch, ms: u64) -> Option<()> {
        tokio::time::timeout(Duration::from_millis(ms), watch.next())
            .await
            .ok()
            .flatten()
    }

    #[tokio::test]
    async fn a_change_reaches_only_its_own_sessions_sheets() {
        let watchers = Watchers::default();
        let mut one = watchers.watch(SessionId(1)).unwrap();
        let mut also_one = watchers.watch(SessionId(1)).unwrap();
        let mut two = watchers.watch(SessionId(2)).unwrap();
        assert_eq!(watchers.watched(), 2, "one channel per watched session");
        watchers.changed(SessionId(1));
        assert_eq!(next_within(&mut one, 500).await, Some(()));
        assert_eq!(next_within(&mut also_one, 500).await, Some(()));
        assert_eq!(
            next_within(&mut two, 50).await,
            None,
            "session 2 did not change"
        );
        // A change to a session nobody watches makes no channel.
        watchers.changed(SessionId(3));
        assert_eq!(watchers.watched(), 2);
        watchers.changed(SessionId(2));
        assert_eq!(next_within(&mut two, 500).await, Some(()));
    }

    #[tokio::test]
    async fn a_sessions_channel_goes_with_its_last_sheet() {
        let watchers = Watchers::default();
        let one = watchers.watch(SessionId(1)).unwrap();
        let again = watchers.watch(SessionId(1)).unwrap();
        drop(one);
        assert_eq!(watchers.watched(), 1, "a sheet of session 1 is still open");
        drop(again);
        assert_eq!(watchers.watched(), 0);
        // A sheet opened later gets a new channel, and changes reach it.
        let mut later = watchers.watch(SessionId(1)).unwrap();
        watchers.changed(SessionId(1));
        assert_eq!(next_within(&mut later, 500).await, Some(()));
    }

    fn small(per_session: usize, overall: usize, idle_ms: u64) -> Watchers {
        Watchers::new(super::LiveLimits {
            per_session,
            overall,
            idle: Duration::from_millis(idle_ms),
        })
    }

    #[tokio::test]
    async fn sheets_are_refused_past_either_cap_and_a_closed_one_frees_its_place() {
        let watchers = small(2, 3, 60_000);
        let a = watchers.watch(SessionId(1)).unwrap();
        let _b = watchers.watch(SessionId(1)).unwrap();
        assert_eq!(
            watchers.watch(SessionId(1)).err(),
            Some(super::Full::Session)
        );
        let _c = watchers.watch(SessionId(2)).unwrap();
        assert_eq!(watchers.open(), 3);
        assert_eq!(
            watchers.watch(SessionId(3)).err(),
            Some(super::Full::Overall)
        );
        drop(a);
        assert_eq!(watchers.open(), 2);
        assert!(
            watchers.watch(SessionId(1)).is_ok(),
            "the closed sheet's place is free"
        );
    }

    #[tokio::test]
    async fn a_sheet_ends_after_its_idle_time_and_a_change_restarts_the_clock() {
        let watchers = small(8, 8, 300);
        let mut sheet = watchers.watch(SessionId(1)).unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        watchers.changed(SessionId(1));
        assert_eq!(next_within(&mut sheet, 100).await, Some(()));
        // 200 ms after the change: still open (the change restarted the 300 ms).
        assert!(
            tokio::time::timeout(Duration::from_millis(200), sheet.next())
                .await
                .is_err()
        );
        // Then it ends, well within a second.
        let ended = tokio::time::timeout(Duration::from_secs(1), sheet.next()).await;
        assert_eq!(ended, Ok(None));
    }

    #[tokio::test]
    async fn the_stop_ends_every_sheet_and_refuses_new_ones() {
        let watchers = small(8, 8, 60_000);
        let mut one = watchers.watch(SessionId(1)).unwrap();
        let mut two = watchers.watch(SessionId(2)).unwrap();
        watchers.shut_down();
        let within = Duration::from_millis(500);
        assert_eq!(tokio::time::timeout(within, one.next()).await, Ok(None));
        assert_eq!(tokio::time::timeout(within, two.next()).await, Ok(None));
        assert_eq!(
            watchers.watch(SessionId(3)).err(),
            Some(super::Full::Stopping)
        );
    }
}
