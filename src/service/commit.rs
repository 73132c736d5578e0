//! Group commit, the one way an event is saved: records of sessions written at the same
//! moment share one transaction and one durable commit (one WAL `fsync`), and each is
//! answered only after that commit. A record carries what its event writes besides itself
//! (its idempotency key, its club session's facts), in the same transaction.
//!
//! The first record to find the queue idle starts a task that takes up to [`MAX_GROUP`]
//! queued records, reads their sessions' event counts under the write lock, appends each whose
//! count still matches, commits and answers; it holds the writer for up to [`HOLD`] while
//! records keep coming. Answers, as if each had its own transaction: [`Appended::Committed`];
//! [`Appended::Stale`] (another process wrote; nothing written); or an error, nothing written
//! — a failed statement rolls the group back and each record is retried alone, so only the
//! faulty one fails. A session's record may be queued while the one before it still waits,
//! written only if that one was committed ([`Landed`]).

mod group;
mod landing;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use tokio::sync::oneshot;

use group::{Failed, write};
use landing::Lands;
pub use landing::{Landed, Landing};

use crate::error::AppError;
use crate::history::SessionFacts;
use crate::ids::{ClubId, SessionId};
use crate::ledger::Posting;
use crate::store::{self, Pooled, WRITE_WAIT, WritePool};

use super::FactsWrite;

/// Records per transaction; a group holds the write lock other processes' writers need.
pub const MAX_GROUP: usize = 64;

/// How long the task keeps the writer across groups before other writes get a turn.
pub const HOLD: std::time::Duration = std::time::Duration::from_millis(20);

/// Records waiting at most; past it a record is refused as busy (503, `Retry-After`).
pub const MAX_QUEUED: usize = 1024;

/// One event to append after the `count` events its session holds, with its postings.
#[derive(Debug, Clone)]
pub struct Append {
    /// The session's id.
    pub session_id: SessionId,
    /// Events the state held; the event is stored as `seq = count + 1` only if still so.
    pub count: usize,
    /// The event's type.
    pub kind: String,
    /// The event as written, JSON text.
    pub body: String,
    /// Its explanation.
    pub explanation: String,
    /// Its postings, summing to zero.
    pub postings: Vec<Posting>,
    /// When it was recorded.
    pub recorded_at: chrono::DateTime<chrono::Utc>,
    /// Its ledger entry, JSON text ([`crate::format::LedgerEvent`]).
    pub entry: String,
    /// A club session's history facts, written in the same transaction.
    pub facts: Option<Facts>,
    /// The request's idempotency key, remembered with the event's `seq`.
    pub key: Option<String>,
}

/// What an event changes in its club session's history facts.
#[derive(Debug, Clone)]
pub enum Facts {
    /// The difference one event makes to the cached state's facts.
    Difference(FactsWrite),
    /// The facts of the whole session as it now stands, after an event that reaches back
    /// (a void, a correction, a reopen).
    Whole(WholeFacts),
}

/// A club session's history facts as the whole session now stands.
#[derive(Debug, Clone)]
pub struct WholeFacts {
    /// The club that owns the session.
    pub club_id: ClubId,
    /// The session's game id.
    pub game: String,
    /// When the session was created.
    pub played_at: chrono::DateTime<chrono::Utc>,
    /// Its facts, worked out from the fold.
    pub facts: SessionFacts,
    /// Its players' accounts (no house account): each becomes one of the club's players.
    pub players: Vec<String>,
}

impl Facts {
    fn club_id(&self) -> ClubId {
        match self {
            Facts::Difference(f) => f.club_id,
            Facts::Whole(w) => w.club_id,
        }
    }
}

/// What became of an [`Append`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    /// Appended and durably committed.
    Committed,
    /// Not written: another process changed the session's event count.
    Stale,
}

struct Job {
    append: Append,
    /// The landing of its session's record it was stepped after, in flight when it was.
    after: Option<Landed>,
    /// Its own landing, for the records stepped after it.
    lands: Lands,
    queued: Instant,
    answer: oneshot::Sender<Result<Appended, AppError>>,
}

impl Job {
    /// Answers the record, its landing first.
    fn reply(self, outcome: Result<Appended, AppError>) {
        self.lands.set(match outcome {
            Ok(Appended::Committed) => Landing::Committed,
            _ => Landing::NotCommitted,
        });
        let _ = self.answer.send(outcome);
    }

    /// The landing of the record it was stepped after, if any ([`landing`]).
    fn after(&self) -> Landing {
        self.after.as_ref().map_or(Landing::Committed, Landed::now)
    }
}

/// A record in the group commit's queue: its answer to wait for, and its landing, which the
/// session's next record may be stepped after meanwhile.
#[derive(Debug)]
pub struct Queued {
    answered: oneshot::Receiver<Result<Appended, AppError>>,
    /// Its landing.
    pub landed: Landed,
}

impl Queued {
    /// Waits for the record's answer (module doc).
    pub async fn answer(self) -> Result<Appended, AppError> {
        self.answered.await.unwrap_or_else(|_| {
            Err(AppError::Internal(
                "the group commit stopped before answering: the record may or may not be written"
                    .into(),
            ))
        })
    }
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    /// The database the running group task writes to; `None` when no task runs.
    writer: Option<WritePool>,
}

/// The queue of records awaiting a group commit, one per database.
#[derive(Default)]
pub struct Committer {
    queue: Mutex<Queue>,
    commits: AtomicU64,
}

impl std::fmt::Debug for Committer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Committer")
            .field("commits", &self.commits())
            .finish_non_exhaustive()
    }
}

impl Committer {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // Nothing between lock and unlock can panic midway, so a poisoned queue is whole.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Transactions committed so far (tests use it to see records share a commit).
    pub fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// Queues `append` for the next group commit on `pool` and waits for its answer (module doc).
    /// Errors: [`AppError::Busy`] when the queue is full or past [`WRITE_WAIT`]; the database's.
    pub async fn append(
        self: &Arc<Self>,
        pool: &WritePool,
        append: Append,
    ) -> Result<Appended, AppError> {
        self.enqueue(pool, append, None)?.answer().await
    }

    /// Queues `append` for the next group commit on `pool`, to be written only if the record
    /// `after` watches is committed (stepped on the state it left, [`Landed`]).
    /// Errors: [`AppError::Busy`] when the queue is full; nothing is queued then.
    pub fn enqueue(
        self: &Arc<Self>,
        pool: &WritePool,
        append: Append,
        after: Option<Landed>,
    ) -> Result<Queued, AppError> {
        let (answer, answered) = oneshot::channel();
        let (lands, landed) = Lands::new();
        let job = Job {
            append,
            after,
            lands,
            queued: Instant::now(),
            answer,
        };
        let start = {
            let mut queue = self.lock();
            match &queue.writer {
                // A cache is for one database; a misuse still gets a correct group of its own.
                Some(writer) if !same_database(writer, pool) => Some(Err(job)),
                Some(_) if queue.jobs.len() >= MAX_QUEUED => return Err(AppError::Busy),
                Some(_) => {
                    queue.jobs.push_back(job);
                    None
                }
                None => {
                    queue.writer = Some(pool.clone());
                    queue.jobs.push_back(job);
                    Some(Ok(()))
                }
            }
        };
        // Spawned with the queue unlocked: a runtime shutting down drops the task at once,
        // and its drop takes the queue's lock.
        match start {
            Some(Ok(())) => {
                let task = GroupTask {
                    committer: Arc::clone(self),
                    finished: false,
                };
                tokio::spawn(task.run(pool.clone()));
            }
            Some(Err(job)) => {
                tokio::spawn(alone(pool.clone(), job, Arc::clone(self)));
            }
            None => {}
        }
        Ok(Queued { answered, landed })
    }
}

/// Commits `job` in a group of its own on `pool`.
async fn alone(pool: WritePool, job: Job, committer: Arc<Committer>) {
    match pool.acquire().await {
        Ok(conn) => {
            let kept = commit_on(&pool, conn, Instant::now(), vec![job], &committer.commits);
            drop(kept.await);
        }
        Err(e) => answer_all(vec![job], &AppError::from(e)),
    }
}

/// Whether two pools are clones of one pool (they share their options).
fn same_database(a: &WritePool, b: &WritePool) -> bool {
    a.same_database(b)
}

/// The task committing groups; dropping it (panic, shutdown) errors the queued records.
struct GroupTask {
    committer: Arc<Committer>,
    finished: bool,
}

impl GroupTask {
    async fn run(mut self, pool: WritePool) {
        // The writer kept between groups, and since when.
        let mut held: Option<(Pooled, Instant)> = None;
        loop {
            let group: Vec<Job> = {
                let mut queue = self.committer.lock();
                if queue.jobs.is_empty() {
                    // Under the check's lock, so a record queued just after starts a new task.
                    queue.writer = None;
                    self.finished = true;
                    return;
                }
                let n = group_length(&queue.jobs, pool.engine());
                queue.jobs.drain(..n).collect()
            };
            if held
                .as_ref()
                .is_some_and(|(_, since)| since.elapsed() > HOLD)
            {
                // Back to the pool, so the other writes waiting for it take their turn.
                held = None;
            }
            let conn = match held.take() {
                Some(held) => held,
                None => match pool.acquire().await {
                    Ok(conn) => (conn, Instant::now()),
                    Err(e) => {
                        answer_all(group, &AppError::from(e));
                        continue;
                    }
                },
            };
            let (conn, since) = conn;
            held = commit_on(&pool, conn, since, group, &self.committer.commits).await;
        }
    }
}

impl Drop for GroupTask {
    fn drop(&mut self) {
        if !self.finished {
            let mut queue = self.committer.lock();
            queue.writer = None;
            queue.jobs.clear();
        }
    }
}

/// How many of `queued` the next group takes: at most [`MAX_GROUP`]; on PostgreSQL, whose
/// one-statement group checks only counts, not one past a record stepped after another in
/// flight (it goes in the next group, once the one before it is committed or not).
fn group_length(queued: &VecDeque<Job>, engine: store::postgres::Engine) -> usize {
    let most = queued.len().min(MAX_GROUP);
    match engine {
        store::postgres::Engine::Sqlite => most,
        store::postgres::Engine::Postgres => queued
            .iter()
            .take(most)
            .skip(1)
            .position(|job| job.after() == Landing::InFlight)
            .map_or(most, |at| at + 1),
    }
}

/// Closes the writer connection `conn` instead of giving it back to its pool.
async fn close(conn: Pooled) {
    let _ = match conn {
        Pooled::Sqlite(c) => c.close().await,
        Pooled::Postgres(c) => c.close().await,
    };
}

/// What a group's commit left of its connection.
enum After {
    /// Usable for the next group.
    Kept,
    /// No longer usable: to be closed.
    Broken,
    /// Found broken before anything was sent to be committed (a connection that sat through
    /// a server restart: the pools do not ping connections in steady use): the group, to be
    /// sent again on a new connection, unanswered.
    Again(Vec<Job>),
    /// PostgreSQL's one-statement group broke its connection ([`group::settle`] reads back
    /// what it wrote once the connection is closed): the group, unanswered, and the error.
    Unknown(Vec<Job>, sqlx::Error),
}

/// Commits `group` and answers each record, or with `again` hands back a group that found
/// `conn` broken at its start ([`After::Again`]).
async fn commit_group(
    conn: &mut Pooled,
    group: Vec<Job>,
    commits: &AtomicU64,
    again: bool,
) -> After {
    let mut live = Vec::with_capacity(group.len());
    for job in group {
        if job.answer.is_closed() {
            // Its request has gone: nobody would be told that it was written.
            continue;
        }
        if job.queued.elapsed() > WRITE_WAIT {
            job.reply(Err(AppError::Busy));
            continue;
        }
        live.push(job);
    }
    if live.is_empty() {
        return After::Kept;
    }
    let usable = |yes: bool| if yes { After::Kept } else { After::Broken };
    match write(conn, &live, commits).await {
        Ok(outcomes) => {
            for (job, outcome) in live.into_iter().zip(outcomes) {
                job.reply(Ok(outcome));
            }
            After::Kept
        }
        Err(Failed::Group(e)) if again && store::is_unavailable(&e) => {
            tracing::info!(cause = %e, "the writer's connection was broken; the group goes again on a new one");
            After::Again(live)
        }
        Err(Failed::Unknown(e)) => After::Unknown(live, e),
        // Each on its own, so that only the record at fault fails.
        Err(Failed::Statement(_)) if live.len() > 1 => group::each_alone(conn, live, commits).await,
        Err(Failed::Group(e) | Failed::Statement(e)) => {
            // A connection that broke is replaced, not kept for the next group.
            let kept = !store::is_unavailable(&e);
            answer_all(live, &AppError::from(e));
            usable(kept)
        }
        Err(Failed::Commit(e)) => {
            let kept = !store::is_unavailable(&e);
            answer_all(live, &AppError::of_commit(e));
            usable(kept)
        }
        Err(Failed::Broken(e)) => {
            answer_all(live, &AppError::from(e));
            After::Broken
        }
    }
}

/// Commits `group` on `conn`, and once more on a new connection from `pool` should `conn`
/// be found broken at the start: the connection kept for the next group, if any.
async fn commit_on(
    pool: &WritePool,
    mut conn: Pooled,
    since: Instant,
    group: Vec<Job>,
    commits: &AtomicU64,
) -> Option<(Pooled, Instant)> {
    let group = match commit_group(&mut conn, group, commits, true).await {
        After::Kept => return Some((conn, since)),
        After::Broken => {
            close(conn).await;
            return None;
        }
        After::Again(group) => {
            close(conn).await;
            group
        }
        After::Unknown(group, _) => {
            close(conn).await;
            group::settle(pool, group).await?
        }
    };
    if group.is_empty() {
        return None;
    }
    let mut fresh = match pool.acquire().await {
        Ok(fresh) => fresh,
        Err(e) => {
            answer_all(group, &AppError::from(e));
            return None;
        }
    };
    match commit_group(&mut fresh, group, commits, false).await {
        After::Kept => return Some((fresh, Instant::now())),
        After::Unknown(group, e) => {
            close(fresh).await;
            // What it did not write is refused as the broken connection's error.
            if let Some(rest) = group::settle(pool, group).await {
                answer_all(rest, &AppError::from(e));
            }
        }
        After::Broken | After::Again(_) => close(fresh).await,
    }
    None
}

/// Answers every record of `jobs` with (a copy of) `e`: nothing of them was written.
fn answer_all(jobs: Vec<Job>, e: &AppError) {
    for job in jobs {
        job.reply(Err(same_error(e)));
    }
}

/// A copy of a database error for each record of a failed group.
fn same_error(e: &AppError) -> AppError {
    match e {
        AppError::Busy => AppError::Busy,
        AppError::DiskFull => AppError::DiskFull,
        AppError::Unavailable => AppError::Unavailable,
        AppError::OutcomeUnknown => AppError::OutcomeUnknown,
        other => AppError::Internal(other.to_string()),
    }
}

#[cfg(test)]
mod tests;
