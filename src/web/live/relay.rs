//! Live sheets across instances: several service processes on one
//! PostgreSQL database tell each other which sessions changed through PostgreSQL's
//! `LISTEN`/`NOTIFY`, so a hand recorded through one instance reaches the sheets open on
//! every other.
//!
//! Each instance has a [`Relay`]: a task that sends a `NOTIFY` on [`CHANNEL`] for each
//! session its own writes changed (after their commit: [`super::Watchers::changed`] is
//! called once the write is answered), and a task that `LISTEN`s on one dedicated
//! connection and wakes this instance's sheets of the sessions other instances name. The
//! payload is `"{instance} {session id}"`; an instance's own notifications come back to it
//! and are skipped (its sheets were woken already). Notifications are not kept while a
//! listening connection is down: after the connection is made again every sheet this
//! instance holds is woken once (it reloads and finds whatever it missed), and a failed
//! connection is tried again every second. A burst of changes is sent as one statement
//! (one `pg_notify` per session changed since the last), so sending never queues one
//! round trip per write. An SQLite service has no relay: its sheets are woken in process,
//! at the cost of one empty `OnceLock` read per change.

use std::sync::{Arc, Weak};

use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::{PgListener, PgPoolOptions};
use tokio::sync::mpsc;

use super::{Shared, Watchers};
use crate::ids::SessionId;

/// The PostgreSQL notification channel the instances share.
pub const CHANNEL: &str = "scorekeeper_sessions";

/// How long a failed listening connection waits before it is tried again.
const RETRY: Duration = Duration::from_secs(1);

/// This instance's end of the relay: where [`super::Watchers::changed`] hands the ids of
/// the sessions it changed, for the sending task.
#[derive(Debug)]
pub(super) struct Relay {
    outbox: mpsc::UnboundedSender<SessionId>,
}

impl Relay {
    /// Hands session `id` to the sending task (never waits; nothing when the task ended).
    pub(super) fn publish(&self, id: SessionId) {
        let _ = self.outbox.send(id);
    }
}

impl Watchers {
    /// Joins the sheets of every instance on the PostgreSQL database at `url` (see the
    /// module): connects its listening connection (one, dedicated) and a pool of at most
    /// two connections to send with, and starts both tasks, which end when these
    /// watchers are dropped. Errors: the first connection fails; the relay is then not
    /// joined (the sheets of this instance still work, alone). A second call does nothing.
    pub async fn relay_through(&self, url: &str) -> Result<(), sqlx::Error> {
        if self.shared.relay.get().is_some() {
            return Ok(());
        }
        let listener = connect(url).await?;
        let sender = PgPoolOptions::new()
            .max_connections(2)
            .min_connections(0)
            .connect_lazy(url)?;
        let instance = instance_id();
        let (outbox, inbox) = mpsc::unbounded_channel();
        if self.shared.relay.set(Relay { outbox }).is_err() {
            return Ok(());
        }
        tokio::spawn(send_changes(sender, inbox, instance.clone()));
        tokio::spawn(listen(
            url.to_string(),
            listener,
            Arc::downgrade(&self.shared),
            instance,
        ));
        Ok(())
    }
}

/// A random name for this instance (16 hex digits), so it knows its own notifications.
fn instance_id() -> String {
    let mut bytes = [0u8; 8];
    // Without randomness the process id and the time still tell two processes apart.
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        bytes = (u64::from(std::process::id()) << 32 | u64::from(nanos)).to_be_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Sends one `NOTIFY` per changed session, all those that arrived meanwhile in one
/// statement. A failed send is logged: the other instances' sheets of those sessions then
/// show the change at their next reload.
async fn send_changes(
    pool: PgPool,
    mut inbox: mpsc::UnboundedReceiver<SessionId>,
    instance: String,
) {
    let mut ids = Vec::new();
    while inbox.recv_many(&mut ids, 256).await > 0 {
        ids.sort_unstable();
        ids.dedup();
        let payloads: Vec<String> = ids.iter().map(|id| format!("{instance} {id}")).collect();
        let sent = sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::TEXT[]) AS p")
            .bind(CHANNEL)
            .bind(&payloads)
            .execute(&pool)
            .await;
        if let Err(e) = sent {
            tracing::warn!("live sheets of other instances not told of {ids:?}: {e}");
        }
        ids.clear();
    }
}

/// Wakes this instance's sheets of each session another instance names; after a lost
/// connection, once it is made again, every sheet (what was sent meanwhile is not kept).
/// Ends with the watchers.
async fn listen(url: String, mut listener: PgListener, watchers: Weak<Shared>, instance: String) {
    loop {
        let received = listener.try_recv().await;
        let Some(shared) = watchers.upgrade() else {
            return;
        };
        let live = Watchers { shared };
        match received {
            Ok(Some(note)) => {
                if let Some(id) = session_of(note.payload(), &instance) {
                    live.wake(id);
                }
            }
            // Lost and made again at once (sqlx's eager reconnect).
            Ok(None) => live.wake_all(),
            Err(e) => {
                tracing::warn!(
                    "live sheets: the notification connection failed ({e}); trying again"
                );
                drop(live);
                listener = loop {
                    tokio::time::sleep(RETRY).await;
                    if watchers.strong_count() == 0 {
                        return;
                    }
                    match connect(&url).await {
                        Ok(listener) => break listener,
                        Err(e) => tracing::warn!("live sheets: cannot listen again yet: {e}"),
                    }
                };
                if let Some(shared) = watchers.upgrade() {
                    Watchers { shared }.wake_all();
                }
            }
        }
    }
}

/// A listening connection of its own to `url`, on [`CHANNEL`].
async fn connect(url: &str) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect(url).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// The session id of a notification `payload` from another instance than `instance`.
fn session_of(payload: &str, instance: &str) -> Option<SessionId> {
    let (from, id) = payload.split_once(' ')?;
    if from == instance {
        return None;
    }
    id.parse().ok().map(SessionId)
}

#[cfg(test)]
mod tests {
    use super::session_of;
    use crate::ids::SessionId;

    #[test]
    fn a_notification_names_a_session_of_another_instance() {
        assert_eq!(session_of("00ff 42", "abcd"), Some(SessionId(42)));
        assert_eq!(session_of("abcd 42", "abcd"), None, "its own");
        assert_eq!(session_of("00ff x", "abcd"), None);
        assert_eq!(session_of("garbage", "abcd"), None);
    }
}
