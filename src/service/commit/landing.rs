//! Records handed on before their commit. A session's next record may be stepped on the
//! state its last record left while that record still waits for the group commit, so that
//! one session's records share commits as different sessions' do. Such a record carries the
//! [`Landed`] of the one before it, and the group commit writes it only if that one was
//! committed, earlier or in the same transaction; otherwise it is [`super::Appended::Stale`]
//! (nothing written) and its writer reads the session again. A count that happens to match
//! (another process wrote in between) can then never put it after a record that failed.

use tokio::sync::watch;

/// What became of a record as far as the records stepped after it are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Landing {
    /// Queued or being written.
    InFlight,
    /// Durably committed.
    Committed,
    /// Not known to be committed: refused, stale, failed, abandoned or of unknown outcome.
    NotCommitted,
}

/// The side of a record's [`Landing`] that the group commit sets ([`Landed`] watches it).
/// Dropped unset (its record dropped unanswered), it reads [`Landing::NotCommitted`].
#[derive(Debug)]
pub(super) struct Lands {
    sets: watch::Sender<Landing>,
    /// Its own watch, to tell its record's [`Landed`] from others'.
    own: watch::Receiver<Landing>,
}

impl Lands {
    /// A record's landing, in flight, and its watch.
    pub(super) fn new() -> (Lands, Landed) {
        let (sets, own) = watch::channel(Landing::InFlight);
        let landed = Landed(own.clone());
        (Lands { sets, own }, landed)
    }

    /// Sets the landing once the record's outcome is known.
    pub(super) fn set(&self, landing: Landing) {
        self.sets.send_replace(landing);
    }

    /// Whether `landed` watches this record.
    pub(super) fn is(&self, landed: &Landed) -> bool {
        self.own.same_channel(&landed.0)
    }
}

/// Watches a record's [`Landing`]: cheap to clone, never blocks the group commit.
#[derive(Debug, Clone)]
pub struct Landed(watch::Receiver<Landing>);

impl Landed {
    /// The landing as known now.
    pub fn now(&self) -> Landing {
        // Closed first: a sender sets its last value before it is dropped.
        let closed = self.0.has_changed().is_err();
        match *self.0.borrow() {
            Landing::InFlight if closed => Landing::NotCommitted,
            landing => landing,
        }
    }

    /// Waits until the record is committed or known not to be.
    pub async fn settled(&mut self) -> Landing {
        let landed = self
            .0
            .wait_for(|l| *l != Landing::InFlight)
            .await
            .map(|landing| *landing);
        landed.unwrap_or_else(|_| self.now())
    }
}

#[cfg(test)]
mod tests {
    use super::{Landing, Lands};

    #[tokio::test]
    async fn a_landing_is_what_was_set_and_a_dropped_record_did_not_land() {
        let (lands, mut landed) = Lands::new();
        assert_eq!(landed.now(), Landing::InFlight);
        assert!(lands.is(&landed));
        lands.set(Landing::Committed);
        drop(lands);
        assert_eq!(landed.settled().await, Landing::Committed);

        let (lands, mut landed) = Lands::new();
        let other = Lands::new().1;
        assert!(!lands.is(&other));
        drop(lands);
        assert_eq!(landed.now(), Landing::NotCommitted);
        assert_eq!(landed.settled().await, Landing::NotCommitted);
    }
}
