//! Every write computed from a state of a session is checked against the store before it is
//! saved ("Several instances on one PostgreSQL"): a state cached here, or
//! read before the write began, may be older than another instance's commit, and a write
//! made from it would repeat or undo that commit's effect (or, appending an event, fail on
//! the unique `(session_id, seq)`).
//!
//! The rule, for every write of a session's events or of what is worked out from them: the
//! write's transaction first takes the lock of each session it computed from
//! ([`begin_for`]: on PostgreSQL each session's advisory lock, in the order the group
//! commit takes them; on SQLite the `BEGIN IMMEDIATE` already holds the database's), then
//! checks under it that each session still holds the number of events of the state the
//! write was computed from. On a mismatch the write is computed again from the session
//! read anew. Two shapes of it:
//! - an event ([`super::record_event`]): the group commit reads the counts under the locks
//!   of its group ([`crate::store::append::lock_and_count`]); a record that takes a
//!   transaction of its own (a keyed record, an undo, a correction, a reopen, a refusal, a
//!   record the group found stale) checks the count in its insert, under [`begin_for`]'s
//!   lock, and on a mismatch reads the session again in that transaction and applies the
//!   event to it: with the lock held, one reading again is enough;
//! - a write worked out from states read outside its transaction (a club session's history
//!   facts, a night's payment): [`Checked`], with which the write computes again, outside
//!   any transaction, at most [`TRIES`] times.

use crate::error::AppError;
use crate::ids::SessionId;
use crate::store::{self, Tx, WritePool};

/// How many times a [`Checked`] write computes a write whose sessions another instance
/// moved on meanwhile, before it gives up as busy (each time, another instance committed
/// on one of them in the moment between the reading and the lock).
pub const TRIES: usize = 3;

/// A write transaction on `pool` that holds the lock of each of `sessions`
/// ([`store::append::lock_sessions`]): a count of events read in it stays true until its
/// commit. Errors: the store's (busy when another instance holds a lock past
/// [`store::WRITE_WAIT`]).
pub(super) async fn begin_for(pool: &WritePool, sessions: &[SessionId]) -> Result<Tx, AppError> {
    let mut tx = pool.begin_write().await?;
    store::append::lock_sessions(&mut tx, sessions).await?;
    Ok(tx)
}

/// Whether each session of `counts` (session id, number of events) holds that many events
/// as stored in `tx`, which holds their locks ([`begin_for`]).
async fn still_current(tx: &mut Tx, counts: &[(SessionId, usize)]) -> Result<bool, AppError> {
    for &(id, count) in counts {
        if store::event_count(tx, id).await? != count {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A write = load → pure step → save whose load and step run outside the write's
/// transaction, tried again while another instance moves its sessions on: the caller reads
/// the states it needs (from the cache, which checks its count against the store's, or
/// from the store) and works out the write, then asks [`Checked::begin`] for the
/// transaction to save it in, giving the number of events of each session it computed
/// from; `None` means another instance wrote one of them meanwhile, and the caller reads
/// and computes again (a loop around the three steps).
pub(super) struct Checked<'p> {
    pool: &'p WritePool,
    tries: usize,
}

impl<'p> Checked<'p> {
    /// A write on `pool`, not tried yet.
    pub(super) fn new(pool: &'p WritePool) -> Checked<'p> {
        Checked { pool, tries: 0 }
    }

    /// A transaction holding the lock of each session of `counts` (session id, number of
    /// events of the state the write was computed from; [`begin_for`]) when each still
    /// holds that many events as stored: the caller saves in it and commits. `None` when
    /// one moved on: nothing is held, and the caller computes again from the sessions read
    /// anew. Errors: the store's; [`AppError::Busy`] when the sessions moved on [`TRIES`]
    /// times.
    pub(super) async fn begin(
        &mut self,
        counts: &[(SessionId, usize)],
    ) -> Result<Option<Tx>, AppError> {
        if self.tries == TRIES {
            return Err(AppError::Busy);
        }
        self.tries += 1;
        let ids: Vec<SessionId> = counts.iter().map(|&(id, _)| id).collect();
        let mut tx = begin_for(self.pool, &ids).await?;
        if still_current(&mut tx, counts).await? {
            return Ok(Some(tx));
        }
        // Let go before the caller reads again: the reads go through other connections,
        // and an in-memory database's only connection is the writer's.
        tx.rollback().await?;
        Ok(None)
    }
}
