//! Every write computed from a state of a session is checked against the store before it is
//! saved (issue 26 point 2, "Several instances on one PostgreSQL"): a state cached here, or
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
//! read anew. For an event ([`super::record_event`]): the group commit reads the counts
//! under the locks of its group ([`crate::store::append::lock_and_count`]); a record that
//! takes a transaction of its own (a keyed record, an undo, a correction, a reopen, a
//! refusal, a record the group found stale) checks the count in its insert, under
//! [`begin_for`]'s lock, and on a mismatch reads the session again in that transaction and
//! applies the event to it: with the lock held, one reading again is enough.

use crate::error::AppError;
use crate::store::{self, Tx, WritePool};

/// A write transaction on `pool` that holds the lock of each of `sessions`
/// ([`store::append::lock_sessions`]): a count of events read in it stays true until its
/// commit. Errors: the store's (busy when another instance holds a lock past
/// [`store::WRITE_WAIT`]).
pub(super) async fn begin_for(pool: &WritePool, sessions: &[i64]) -> Result<Tx, AppError> {
    let mut tx = pool.begin_write().await?;
    store::append::lock_sessions(&mut tx, sessions).await?;
    Ok(tx)
}
