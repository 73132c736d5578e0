//! Live sheets across instances on one PostgreSQL database, by `LISTEN`/`NOTIFY` on
//! [`CHANNEL`]: payload `"{instance} {session id}"`, an instance skipping its own. A burst
//! of changes goes in one statement, on one connection of its own. A notification that
//! cannot be sent (the server down, no connection free) is sent again every [`RETRY`] with
//! the changes made meanwhile, never dropped. Notifications sent while the listening
//! connection is down are lost, so on reconnect every sheet here is woken once; a failed
//! connection is retried every [`RETRY`]. SQLite has no relay.

use std::sync::{Arc, Weak};

use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::{PgListener, PgPoolOptions};
use tokio::sync::mpsc;

use super::{Shared, Watchers};
use crate::ids::SessionId;

/// The PostgreSQL notification channel the instances share.
pub const CHANNEL: &str = "scorekeeper_sessions";

/// How long a failed listening connection, or a batch not sent, waits before it is tried
/// again.
const RETRY: Duration = Duration::from_secs(1);

/// How long one try to send a batch waits for its connection (no connection free, the server
/// down) before it waits [`RETRY`] and tries again with what changed meanwhile.
const SEND_WAIT: Duration = Duration::from_secs(2);

/// This instance's end of the relay, fed by [`super::Watchers::changed`].
#[derive(Debug)]
pub(super) struct Relay {
    outbox: mpsc::UnboundedSender<SessionId>,
}

impl Relay {
    /// Hands session `id` to the sender (never waits).
    pub(super) fn publish(&self, id: SessionId) {
        let _ = self.outbox.send(id);
    }
}

impl Watchers {
    /// Joins the other instances on the PostgreSQL database at `url`: a dedicated listening
    /// connection, a sending one (opened when first needed), and their tasks (ending with
    /// these watchers). Errors: the first connection fails (sheets here still work alone).
    /// A second call does nothing.
    pub async fn relay_through(&self, url: &str) -> Result<(), sqlx::Error> {
        if self.shared.relay.get().is_some() {
            return Ok(());
        }
        let listener = connect(url).await?;
        // One task sends, one batch at a time: one connection is all it uses.
        let sender = PgPoolOptions::new()
            .max_connections(1)
            .min_connections(0)
            .acquire_timeout(SEND_WAIT)
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

/// A random instance name (16 hex digits), to know its own notifications.
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

/// Changed sessions sent at most in one statement.
const BATCH: usize = 256;

/// Sends each batch of changed sessions as one statement; a batch that fails is sent again
/// every [`RETRY`], with what changed meanwhile, until the server takes it. Ends when the
/// watchers are gone.
async fn send_changes(
    pool: PgPool,
    mut inbox: mpsc::UnboundedReceiver<SessionId>,
    instance: String,
) {
    let mut ids = Vec::new();
    loop {
        if ids.is_empty() && inbox.recv_many(&mut ids, BATCH).await == 0 {
            return;
        }
        while ids.len() < BATCH
            && let Ok(id) = inbox.try_recv()
        {
            ids.push(id);
        }
        ids.sort_unstable();
        ids.dedup();
        let payloads: Vec<String> = ids.iter().map(|id| format!("{instance} {id}")).collect();
        let sent = sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::TEXT[]) AS p")
            .bind(CHANNEL)
            .bind(&payloads)
            .execute(&pool)
            .await;
        match sent {
            Ok(_) => ids.clear(),
            // Nobody here to tell any more (the watchers are gone): nothing to keep.
            Err(_) if inbox.is_closed() => return,
            Err(e) => {
                tracing::warn!(
                    "live sheets of other instances not yet told of {} sessions: {e}; trying again",
                    ids.len()
                );
                tokio::time::sleep(RETRY).await;
            }
        }
    }
}

/// Wakes this instance's sheets of sessions other instances name; after a reconnect, all.
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
