//! Live sheets across instances on one PostgreSQL database, by `LISTEN`/`NOTIFY` on
//! [`SHARDS`] channels: session `id`'s changes go to [`channel_of`]`(id)` with the payload
//! `"{instance} {session id}"`, an instance skipping its own. An instance listens only to the
//! shards it has an open sheet of, so changes of the other shards' sessions never reach it.
//!
//! Sending: a burst of changes goes in one statement, on one connection of its own. A
//! notification that cannot be sent (the server down, no connection free) is sent again
//! every [`RETRY`] with the changes made meanwhile, never dropped.
//!
//! Listening: one connection of its own, and one task that owns it. The watchers publish
//! the shards they have sheets of ([`Relay::want`]); the task brings its `LISTEN`s to that
//! set, all it has to add and drop in one statement, and publishes what it listens to.
//! Notifications sent while the listening connection is down are lost, so on reconnect
//! every sheet here is woken once; a failed connection is retried every [`RETRY`]. SQLite
//! has no relay.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use std::time::Duration;

use sqlx::postgres::{PgListener, PgPoolOptions};
use sqlx::{AssertSqlSafe, PgPool};
use tokio::sync::{mpsc, watch};

use super::{Shared, Watchers};
use crate::ids::SessionId;

/// The prefix of the shards' channel names: shard `n` is `"{CHANNEL}_{n}"`.
pub const CHANNEL: &str = "scorekeeper_sessions";

/// How many channels the sessions are spread over (by id modulo this). One channel for the
/// whole site made every instance hear every change; one per session would be exact, but an
/// instance with many sheets open would `LISTEN` to thousands of channels (PostgreSQL checks
/// each notification against a connection's channels one by one) and every sheet opened or
/// closed would be a statement. With 64, an instance watching a few sessions hears a few
/// 64ths of the site's changes; one with hundreds of sheets listens to all 64, as costly as
/// the single channel was; the set fits in one `u64` (bit `n`: shard `n`), and listening to
/// all of them again after a reconnect is one short statement.
pub const SHARDS: usize = 64;

/// The shard of session `id`: its id modulo [`SHARDS`] (non-negative for any id).
pub fn shard_of(id: SessionId) -> usize {
    // SHARDS is small: the cast and the remainder cannot overflow or wrap.
    id.0.rem_euclid(SHARDS as i64) as usize
}

/// The channel that carries session `id`'s changes, e.g. `"scorekeeper_sessions_7"`.
pub fn channel_of(id: SessionId) -> String {
    shard_channel(shard_of(id))
}

/// Shard `shard`'s channel name.
fn shard_channel(shard: usize) -> String {
    format!("{CHANNEL}_{shard}")
}

/// How long a failed listening connection, or a batch not sent, waits before it is tried
/// again.
const RETRY: Duration = Duration::from_secs(1);

/// How long one try to send a batch waits for its connection (no connection free, the server
/// down) before it waits [`RETRY`] and tries again with what changed meanwhile.
const SEND_WAIT: Duration = Duration::from_secs(2);

/// How long [`Watchers::relayed`] waits for the listening connection to take a new shard.
pub const LISTEN_WAIT: Duration = Duration::from_secs(2);

/// This instance's end of the relay, fed by [`super::Watchers::changed`] and by the sheets
/// opened and closed.
#[derive(Debug)]
pub(super) struct Relay {
    outbox: mpsc::UnboundedSender<SessionId>,
    /// The shards with an open sheet here (bit `n`: shard `n`), for the listening task.
    wanted: watch::Sender<u64>,
    /// The shards the listening connection listens to, as it last confirmed; 0 while down.
    listened: watch::Receiver<u64>,
    /// Notifications received, this instance's own included ([`Watchers::heard`]).
    heard: Arc<AtomicU64>,
}

impl Relay {
    /// Hands session `id` to the sender (never waits).
    pub(super) fn publish(&self, id: SessionId) {
        let _ = self.outbox.send(id);
    }

    /// Tells the listening task the shards now watched (`shards`, bit `n`: shard `n`); it
    /// takes them in its own time, several changes in one statement (never waits).
    pub(super) fn want(&self, shards: u64) {
        self.wanted.send_if_modified(|wanted| {
            let changed = *wanted != shards;
            *wanted = shards;
            changed
        });
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
        let (listened_tx, listened) = watch::channel(0);
        let heard = Arc::new(AtomicU64::new(0));
        let wanted_rx = {
            // Under the lock: no sheet opens or closes between reading the shards and the
            // relay being there to be told of the next change.
            let channels = self.lock();
            let (wanted, wanted_rx) = watch::channel(channels.shards());
            let relay = Relay {
                outbox,
                wanted,
                listened,
                heard: Arc::clone(&heard),
            };
            if self.shared.relay.set(relay).is_err() {
                return Ok(());
            }
            wanted_rx
        };
        tokio::spawn(send_changes(sender, inbox, instance.clone()));
        let task = Listening {
            url: url.to_string(),
            watchers: Arc::downgrade(&self.shared),
            wanted: wanted_rx,
            listened: listened_tx,
            heard,
            instance,
        };
        tokio::spawn(task.run(listener));
        Ok(())
    }

    /// The channels this instance listens to now, as its listening connection last
    /// confirmed, in shard order: those of the sessions with an open sheet here, once taken.
    /// Empty without a relay (SQLite) or while the connection is down.
    pub fn listened(&self) -> Vec<String> {
        let shards = self
            .shared
            .relay
            .get()
            .map_or(0, |relay| *relay.listened.borrow());
        (0..SHARDS)
            .filter(|&n| shards & (1 << n) != 0)
            .map(shard_channel)
            .collect()
    }

    /// How many notifications the listening connection has received since the relay
    /// started, this instance's own included: what listening to fewer shards saves shows
    /// here. 0 without a relay (SQLite).
    pub fn heard(&self) -> u64 {
        self.shared
            .relay
            .get()
            .map_or(0, |relay| relay.heard.load(Ordering::Relaxed))
    }

    /// Waits until changes of session `id` made on other instances reach this one (its
    /// shard is listened to), so a sheet opened just before misses none. `true` at once
    /// without a relay (SQLite) or when the shard is listened to already; `false` after
    /// [`LISTEN_WAIT`] without (the listening connection is down: its reconnect wakes every
    /// sheet) or when the relay has stopped.
    pub async fn relayed(&self, id: SessionId) -> bool {
        let Some(relay) = self.shared.relay.get() else {
            return true;
        };
        let bit = 1u64 << shard_of(id);
        let mut listened = relay.listened.clone();
        let taken = listened.wait_for(|shards| shards & bit != 0);
        matches!(tokio::time::timeout(LISTEN_WAIT, taken).await, Ok(Ok(_)))
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

/// Sends each batch of changed sessions as one statement, each on its shard's channel; a
/// batch that fails is sent again every [`RETRY`], with what changed meanwhile, until the
/// server takes it. Ends when the watchers are gone.
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
        let channels: Vec<String> = ids.iter().map(|&id| channel_of(id)).collect();
        let payloads: Vec<String> = ids.iter().map(|id| format!("{instance} {id}")).collect();
        let sent =
            sqlx::query("SELECT pg_notify(c, p) FROM unnest($1::TEXT[], $2::TEXT[]) AS t(c, p)")
                .bind(&channels)
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

/// The listening task's state: it owns the listening connection (passed to [`Self::run`]).
struct Listening {
    url: String,
    watchers: Weak<Shared>,
    /// The shards with an open sheet here, from [`Relay::want`].
    wanted: watch::Receiver<u64>,
    /// The shards listened to, for [`Watchers::listened`] and [`Watchers::relayed`].
    listened: watch::Sender<u64>,
    heard: Arc<AtomicU64>,
    instance: String,
}

impl Listening {
    /// Follows the watched shards and wakes this instance's sheets of sessions other
    /// instances name; after a reconnect, all. Ends when the watchers are gone.
    async fn run(mut self, mut listener: PgListener) {
        let mut outcome = self.follow(&mut listener).await;
        loop {
            if let Err(e) = outcome {
                tracing::warn!(
                    "live sheets: the notification connection failed ({e}); trying again"
                );
                match self.reconnect().await {
                    Some(again) => listener = again,
                    None => return,
                }
            }
            // The shards first: a notification waiting is read on the next turn.
            outcome = tokio::select! {
                biased;
                change = self.wanted.changed() => match change {
                    Ok(()) => self.follow(&mut listener).await,
                    // The relay is gone with the watchers.
                    Err(_) => return,
                },
                received = listener.try_recv() => match received {
                    Ok(Some(note)) => match self.wake(note.payload()) {
                        Some(()) => Ok(()),
                        None => return,
                    },
                    // Lost: made again, and every sheet woken, at the top of the loop.
                    Ok(None) => Err(io::Error::from(io::ErrorKind::ConnectionAborted).into()),
                    Err(e) => Err(e),
                },
            };
        }
    }

    /// Counts a notification and wakes this instance's sheets of the session `payload`
    /// names, unless this instance sent it. `None`: the watchers are gone.
    fn wake(&self, payload: &str) -> Option<()> {
        let shared = self.watchers.upgrade()?;
        self.heard.fetch_add(1, Ordering::Relaxed);
        if let Some(id) = session_of(payload, &self.instance) {
            Watchers { shared }.wake(id);
        }
        Some(())
    }

    /// Brings the listened shards to the wanted ones: one statement with every `LISTEN`
    /// and `UNLISTEN` needed, then publishes them. Errors: the statement failed (the
    /// connection is to be made again).
    async fn follow(&mut self, listener: &mut PgListener) -> Result<(), sqlx::Error> {
        let wanted = *self.wanted.borrow_and_update();
        let listened = *self.listened.borrow();
        if wanted == listened {
            return Ok(());
        }
        let sql = listen_statement(listened, wanted);
        sqlx::raw_sql(AssertSqlSafe(sql))
            .execute(&mut *listener)
            .await?;
        self.listened.send_replace(wanted);
        Ok(())
    }

    /// A new listening connection on the wanted shards, tried at once and then every
    /// [`RETRY`], and every sheet here woken once it listens (what was sent meanwhile is
    /// lost). `None`: the watchers are gone.
    async fn reconnect(&mut self) -> Option<PgListener> {
        self.listened.send_replace(0);
        loop {
            if self.watchers.strong_count() == 0 {
                return None;
            }
            let made = match connect(&self.url).await {
                Ok(mut listener) => self.follow(&mut listener).await.map(|()| listener),
                Err(e) => Err(e),
            };
            match made {
                Ok(listener) => {
                    let shared = self.watchers.upgrade()?;
                    Watchers { shared }.wake_all();
                    return Some(listener);
                }
                Err(e) => {
                    self.listened.send_replace(0);
                    tracing::warn!("live sheets: cannot listen again yet: {e}");
                }
            }
            tokio::time::sleep(RETRY).await;
        }
    }
}

/// One statement taking a connection listening to the shards `from` to those `to` (bit `n`:
/// shard `n`): `LISTEN` for each shard added, `UNLISTEN` for each dropped.
fn listen_statement(from: u64, to: u64) -> String {
    let mut sql = String::new();
    for shard in 0..SHARDS {
        let bit = 1u64 << shard;
        let verb = match (from & bit != 0, to & bit != 0) {
            (false, true) => "LISTEN",
            (true, false) => "UNLISTEN",
            _ => continue,
        };
        // The names are ours (letters, digits, `_`): quoted only to keep them as written.
        sql.push_str(&format!("{verb} \"{}\";", shard_channel(shard)));
    }
    sql
}

/// A listening connection of its own to `url`, on no channel yet. The task makes it again
/// itself when it is lost (sqlx's reconnect would listen to channels it no longer knows).
async fn connect(url: &str) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect(url).await?;
    listener.eager_reconnect(false);
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
    use super::{channel_of, listen_statement, session_of, shard_of};
    use crate::ids::SessionId;

    #[test]
    fn a_notification_names_a_session_of_another_instance() {
        assert_eq!(session_of("00ff 42", "abcd"), Some(SessionId(42)));
        assert_eq!(session_of("abcd 42", "abcd"), None, "its own");
        assert_eq!(session_of("00ff x", "abcd"), None);
        assert_eq!(session_of("garbage", "abcd"), None);
    }

    #[test]
    fn a_session_goes_to_its_id_modulo_64() {
        assert_eq!(channel_of(SessionId(7)), "scorekeeper_sessions_7");
        assert_eq!(channel_of(SessionId(64 + 7)), "scorekeeper_sessions_7");
        assert_eq!(shard_of(SessionId(63)), 63);
        assert_eq!(shard_of(SessionId(-1)), 63, "never a negative shard");
    }

    #[test]
    fn one_statement_adds_and_drops_only_what_changed() {
        let sql = listen_statement(0b0110, 0b1100);
        assert_eq!(
            sql,
            "UNLISTEN \"scorekeeper_sessions_1\";LISTEN \"scorekeeper_sessions_3\";"
        );
        assert_eq!(listen_statement(5, 5), "");
    }
}
