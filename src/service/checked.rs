//! Writes computed from a session's state are checked against the store before they are
//! saved (docs/postgres.md, "Several instances on one database"): the state may predate
//! another instance's commit. The write's transaction takes the lock of each session it
//! computed from ([`begin_for`]) and checks each still holds the event count it was computed
//! from; on a mismatch it computes again: a write worked out outside any transaction (club facts,
//! a night's payment) loops with [`Checked`], at most [`TRIES`] times. An event
//! ([`super::record_event`]) is checked the same way by the group commit, which appends it
//! only while its session holds the events its state had.

use crate::error::AppError;
use crate::ids::SessionId;
use crate::store::{self, Tx, WritePool};

/// Computations of a [`Checked`] write before it gives up as busy.
pub const TRIES: usize = 3;

/// A write transaction holding each of `sessions`' lock ([`store::append::lock_sessions`]).
/// Errors: the store's (busy past [`store::WRITE_WAIT`]).
pub(super) async fn begin_for(pool: &WritePool, sessions: &[SessionId]) -> Result<Tx, AppError> {
    let mut tx = pool.begin_write().await?;
    store::append::lock_sessions(&mut tx, sessions).await?;
    Ok(tx)
}

/// Whether each session of `counts` still holds that many events, read in `tx`.
async fn still_current(tx: &mut Tx, counts: &[(SessionId, usize)]) -> Result<bool, AppError> {
    for &(id, count) in counts {
        if store::event_count(tx, id).await? != count {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A load → pure step → save whose load and step run outside the transaction: the caller
/// computes, asks [`Checked::begin`] with the event counts it computed from, and on `None`
/// reads and computes again.
pub(super) struct Checked<'p> {
    pool: &'p WritePool,
    tries: usize,
}

impl<'p> Checked<'p> {
    /// A write on `pool`, not tried yet.
    pub(super) fn new(pool: &'p WritePool) -> Checked<'p> {
        Checked { pool, tries: 0 }
    }

    /// A transaction holding each session's lock when all still hold the `counts` (id, events);
    /// `None`, holding nothing, when one moved on. Errors: the store's; [`AppError::Busy`] after
    /// [`TRIES`].
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
        // Let go before the caller reads again: in memory, the writer is the only connection.
        tx.rollback().await?;
        Ok(None)
    }
}
