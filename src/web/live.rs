//! Who watches which session live: one channel per watched session, so that a change
//! reaches only that session's open sheets (issue 21, "Work proportional to what is
//! asked"). A session's channel is made when its first sheet subscribes and dropped when
//! its last one goes, so a change to a session nobody watches costs one map look-up, and
//! the map holds only the sessions watched now.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};

use tokio::sync::watch;
use tokio_stream::Stream;
use tokio_stream::wrappers::WatchStream;

/// The live sheets' channels, by session id; cheap to clone (one shared map).
#[derive(Clone, Debug, Default)]
pub struct Watchers {
    channels: Arc<Mutex<HashMap<i64, watch::Sender<u64>>>>,
}

impl Watchers {
    fn lock(&self) -> MutexGuard<'_, HashMap<i64, watch::Sender<u64>>> {
        // Nothing between lock and unlock can panic midway, so a poisoned map is whole.
        self.channels.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tells session `id`'s open sheets that it changed; nothing when none is open.
    pub fn changed(&self, id: i64) {
        if let Some(sender) = self.lock().get(&id) {
            // A count, so that every change is a new value; changes made before a sheet
            // looked again are told once (one reload catches up with all of them).
            sender.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// A stream that yields `()` each time session `id` changes after this call (several
    /// changes between two polls yield once). The session's channel lives as long as one
    /// such stream does.
    pub fn watch(&self, id: i64) -> Watch {
        let receiver = {
            let mut channels = self.lock();
            match channels.get(&id) {
                Some(sender) => sender.subscribe(),
                None => {
                    let (sender, receiver) = watch::channel(0);
                    channels.insert(id, sender);
                    receiver
                }
            }
        };
        Watch {
            id,
            changes: Some(WatchStream::from_changes(receiver)),
            watchers: self.clone(),
        }
    }

    /// How many sessions have an open sheet now (for tests of the bound).
    pub fn watched(&self) -> usize {
        self.lock().len()
    }
}

/// The changes of one session, from [`Watchers::watch`]; dropping the last one of a
/// session drops its channel.
pub struct Watch {
    id: i64,
    changes: Option<WatchStream<u64>>,
    watchers: Watchers,
}

impl Stream for Watch {
    type Item = ();

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<()>> {
        match self.changes.as_mut() {
            Some(changes) => Pin::new(changes).poll_next(cx).map(|c| c.map(|_| ())),
            None => Poll::Ready(None),
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut channels = self.watchers.lock();
        // The receiver goes first, under the lock, so that a sheet subscribing meanwhile
        // either shares the channel (counted) or finds it gone and makes a new one.
        self.changes = None;
        if channels
            .get(&self.id)
            .is_some_and(|s| s.receiver_count() == 0)
        {
            channels.remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio_stream::StreamExt;

    use super::Watchers;

    async fn next_within(watch: &mut super::Watch, ms: u64) -> Option<()> {
        tokio::time::timeout(Duration::from_millis(ms), watch.next())
            .await
            .ok()
            .flatten()
    }

    #[tokio::test]
    async fn a_change_reaches_only_its_own_sessions_sheets() {
        let watchers = Watchers::default();
        let mut one = watchers.watch(1);
        let mut also_one = watchers.watch(1);
        let mut two = watchers.watch(2);
        assert_eq!(watchers.watched(), 2, "one channel per watched session");
        watchers.changed(1);
        assert_eq!(next_within(&mut one, 500).await, Some(()));
        assert_eq!(next_within(&mut also_one, 500).await, Some(()));
        assert_eq!(
            next_within(&mut two, 50).await,
            None,
            "session 2 did not change"
        );
        // A change to a session nobody watches makes no channel.
        watchers.changed(3);
        assert_eq!(watchers.watched(), 2);
        watchers.changed(2);
        assert_eq!(next_within(&mut two, 500).await, Some(()));
    }

    #[tokio::test]
    async fn a_sessions_channel_goes_with_its_last_sheet() {
        let watchers = Watchers::default();
        let one = watchers.watch(1);
        let again = watchers.watch(1);
        drop(one);
        assert_eq!(watchers.watched(), 1, "a sheet of session 1 is still open");
        drop(again);
        assert_eq!(watchers.watched(), 0);
        // A sheet opened later gets a new channel, and changes reach it.
        let mut later = watchers.watch(1);
        watchers.changed(1);
        assert_eq!(next_within(&mut later, 500).await, Some(()));
    }
}
