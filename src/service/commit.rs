//! Group commit: the plain records of every open session made at the same time are
//! appended in one transaction and made durable by one commit (one `fsync` of the WAL with
//! `synchronous=FULL`) instead of one each; each record is answered only after the commit
//! that holds it.
//!
//! A record ([`Append`]) is the event a request already applied to its session's cached
//! state, with its postings. The first request to find the queue idle starts a task that
//! takes every record queued (up to [`MAX_GROUP`]), takes the write lock and reads the
//! sessions' counts of events under it, appends each record whose session still holds the
//! count its state had, commits ([`crate::store::append`]: two hand-overs to the database
//! thread per group, whatever its size) and answers each; it keeps the writer connection
//! for up to [`HOLD`] while records keep coming. Records that arrive while one group
//! commits form the next, so the more writers wait, the more records share a commit.
//!
//! What a record's answer says, exactly as if it had had its own transaction:
//! - [`Appended::Committed`]: its event and postings are durably committed;
//! - [`Appended::Stale`]: its session held another number of events (another process
//!   wrote): nothing of it was written, the others of its group are not affected;
//! - an error: nothing of it was written. A statement that fails rolls back the whole
//!   group's transaction, and then each record of the group is written again in a
//!   transaction of its own, so only the failing record gets the error; a failed `BEGIN` or
//!   `COMMIT` gives every record of the group the error (nothing of the group was
//!   committed). A record that waited longer than [`WRITE_WAIT`] is refused as busy
//!   unwritten, and a record whose request has gone (the client hung up) is not written.
//!
//! The order of one session's records is the caller's: the service queues a session's
//! record while holding that session's slot ([`super::Folds`]), so a session has at most
//! one record queued at a time. Other writes (imports, keyed records, corrections) take the
//! same writer connection from the pool between groups, in the pool's order.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use std::collections::HashMap;

use sqlx::{PgConnection, SqliteConnection};
use tokio::sync::oneshot;

use crate::error::AppError;
use crate::ids::SessionId;
use crate::ledger::Posting;
use crate::store::{self, NewEvent, Pooled, WRITE_WAIT, WritePool};

use super::FactsWrite;

/// At most this many records share one transaction: a group's statements hold the write
/// lock, which readers in this process do not need (WAL) but other processes' writers do.
pub const MAX_GROUP: usize = 64;

/// How long the group task keeps the writer connection across consecutive groups before
/// it gives it back to the pool, so that the other writes waiting for the writer (imports,
/// corrections, keyed records) take their turn between groups.
pub const HOLD: std::time::Duration = std::time::Duration::from_millis(20);

/// At most this many records wait for their group; past it a record is refused as busy
/// (HTTP 503 with `Retry-After`) without waiting. The service queues at most one record per
/// session, so this is a bound on sessions written at once.
pub const MAX_QUEUED: usize = 1024;

/// One event to append after the `count` events its session holds, with its postings
/// (summing to zero), as the session's cached state computed them.
#[derive(Debug, Clone)]
pub struct Append {
    /// The session's id.
    pub session_id: SessionId,
    /// How many events the state the event was applied to held; the event is stored as
    /// event `count + 1` (its `seq`) only while the session holds exactly `count`.
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
    /// For a club's session: the difference the event makes to its history facts, written
    /// in the same transaction as the event.
    pub facts: Option<FactsWrite>,
}

/// What became of an [`Append`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    /// Appended and durably committed.
    Committed,
    /// Not written: the session holds another number of events than the record's `count`
    /// (another process wrote since the state was read).
    Stale,
}

struct Job {
    append: Append,
    queued: Instant,
    answer: oneshot::Sender<Result<Appended, AppError>>,
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    /// The database the running group task writes to; `None` when no task runs.
    writer: Option<WritePool>,
}

/// The queue of records waiting for their group's commit, shared by every request of one
/// database ([`super::Folds`] holds one).
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

    /// How many transactions the group task has committed (each holding one record or
    /// more): what tells a test that records shared a commit.
    pub fn commits(&self) -> u64 {
        self.commits.load(Ordering::Relaxed)
    }

    /// Queues `append` for the next group commit on `pool` (the writer of
    /// [`crate::store::open`]) and waits until it is committed or refused (see the module's
    /// doc for what each answer means). Errors: [`AppError::Busy`] when [`MAX_QUEUED`]
    /// records wait already, or the record waited longer than [`WRITE_WAIT`]; the database's
    /// error otherwise. Nothing of the record is written on error.
    pub async fn append(
        self: &Arc<Self>,
        pool: &WritePool,
        append: Append,
    ) -> Result<Appended, AppError> {
        let (answer, answered) = oneshot::channel();
        let job = Job {
            append,
            queued: Instant::now(),
            answer,
        };
        let alone = {
            let mut queue = self.lock();
            match &queue.writer {
                // Another database than the running task's (a cache is meant for one
                // database; this keeps a misuse correct): a group of its own.
                Some(writer) if !same_database(writer, pool) => Some(job),
                Some(_) if queue.jobs.len() >= MAX_QUEUED => return Err(AppError::Busy),
                Some(_) => {
                    queue.jobs.push_back(job);
                    None
                }
                None => {
                    queue.writer = Some(pool.clone());
                    queue.jobs.push_back(job);
                    let task = GroupTask {
                        committer: Arc::clone(self),
                        finished: false,
                    };
                    tokio::spawn(task.run(pool.clone()));
                    None
                }
            }
        };
        if let Some(job) = alone {
            match pool.acquire().await {
                Ok(mut conn) => {
                    if !commit_group(&mut conn, vec![job], &self.commits).await {
                        close(conn).await;
                    }
                }
                Err(e) => answer_all(vec![job], &AppError::from(e)),
            }
        }
        answered.await.unwrap_or_else(|_| {
            Err(AppError::Internal(
                "the group commit stopped before answering: the record may or may not be written"
                    .into(),
            ))
        })
    }
}

/// Whether two pools are clones of one pool (they share their options).
fn same_database(a: &WritePool, b: &WritePool) -> bool {
    a.same_database(b)
}

/// The task that commits groups while records are queued. Should it stop before the queue
/// is empty (a panic, the runtime shutting down), dropping it lets the queue go: the records
/// still queued are answered with an error (their senders are dropped) and the next record
/// starts a new task.
struct GroupTask {
    committer: Arc<Committer>,
    finished: bool,
}

impl GroupTask {
    async fn run(mut self, pool: WritePool) {
        // The writer connection, kept from one group to the next while records keep
        // coming (no hand-back to the pool and its check between two groups), and since
        // when.
        let mut held: Option<(Pooled, Instant)> = None;
        loop {
            let group: Vec<Job> = {
                let mut queue = self.committer.lock();
                if queue.jobs.is_empty() {
                    // Under the same lock as the check, so a record queued just after is
                    // sure to start a new task.
                    queue.writer = None;
                    self.finished = true;
                    return;
                }
                let n = queue.jobs.len().min(MAX_GROUP);
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
            let (mut conn, since) = conn;
            if commit_group(&mut conn, group, &self.committer.commits).await {
                held = Some((conn, since));
            } else {
                // It could not end its transaction: never to be used again.
                close(conn).await;
            }
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

/// Closes the writer connection `conn` instead of giving it back to its pool.
async fn close(conn: Pooled) {
    let _ = match conn {
        Pooled::Sqlite(c) => c.close().await,
        Pooled::Postgres(c) => c.close().await,
    };
}

/// Why a group's transaction wrote nothing.
enum Failed {
    /// `BEGIN` failed (or the counts under it could not be read): nothing of the group was
    /// written, and writing its records again would fail alike (busy, or the disk).
    Group(sqlx::Error),
    /// A statement of one record, or the `COMMIT`, failed: the transaction was rolled back.
    Statement(sqlx::Error),
    /// As `Statement`, but the rollback failed too: the connection is broken.
    Broken(sqlx::Error),
}

/// Commits `group` on the writer connection `conn` and answers each of its records;
/// whether `conn` may be used again (`false`: it could not end a failed transaction).
async fn commit_group(conn: &mut Pooled, group: Vec<Job>, commits: &AtomicU64) -> bool {
    let mut live = Vec::with_capacity(group.len());
    for job in group {
        if job.answer.is_closed() {
            // Its request has gone: nobody would be told that it was written.
            continue;
        }
        if job.queued.elapsed() > WRITE_WAIT {
            let _ = job.answer.send(Err(AppError::Busy));
            continue;
        }
        live.push(job);
    }
    if live.is_empty() {
        return true;
    }
    match write(conn, &live, commits).await {
        Ok(outcomes) => {
            for (job, outcome) in live.into_iter().zip(outcomes) {
                let _ = job.answer.send(Ok(outcome));
            }
            true
        }
        Err(Failed::Statement(_)) if live.len() > 1 => {
            // Each on its own, so that only the record at fault fails.
            for job in live {
                let outcome = match write(conn, std::slice::from_ref(&job), commits).await {
                    Ok(outcomes) => Ok(outcomes.first().copied().unwrap_or(Appended::Stale)),
                    Err(Failed::Broken(e)) => {
                        let _ = job.answer.send(Err(AppError::from(e)));
                        return false;
                    }
                    Err(Failed::Group(e) | Failed::Statement(e)) => Err(AppError::from(e)),
                };
                let _ = job.answer.send(outcome);
            }
            true
        }
        Err(Failed::Group(e) | Failed::Statement(e)) => {
            answer_all(live, &AppError::from(e));
            true
        }
        Err(Failed::Broken(e)) => {
            answer_all(live, &AppError::from(e));
            false
        }
    }
}

/// Answers every record of `jobs` with (a copy of) `e`: nothing of them was written.
fn answer_all(jobs: Vec<Job>, e: &AppError) {
    for job in jobs {
        let _ = job.answer.send(Err(same_error(e)));
    }
}

/// A copy of an error made from a database error ([`AppError::Busy`],
/// [`AppError::DiskFull`] or [`AppError::Internal`]), for each record of a group that failed.
fn same_error(e: &AppError) -> AppError {
    match e {
        AppError::Busy => AppError::Busy,
        AppError::DiskFull => AppError::DiskFull,
        other => AppError::Internal(other.to_string()),
    }
}

/// Appends `jobs` in one transaction on the writer connection `conn`: each one's outcome,
/// in order, once committed.
async fn write(
    conn: &mut Pooled,
    jobs: &[Job],
    commits: &AtomicU64,
) -> Result<Vec<Appended>, Failed> {
    let outcomes = match conn {
        Pooled::Sqlite(c) => write_sqlite(c, jobs).await?,
        Pooled::Postgres(c) => write_postgres(c, jobs).await?,
    };
    commits.fetch_add(1, Ordering::Relaxed);
    Ok(outcomes)
}

/// Which of `jobs` may be appended, given each session's stored `counts` (read under the
/// write lock): each one's outcome, and what the committed ones write, in order.
fn admit(jobs: &[Job], mut counts: HashMap<SessionId, i64>) -> (Vec<Appended>, Vec<Row<'_>>) {
    let mut outcomes = Vec::with_capacity(jobs.len());
    let mut rows = Vec::with_capacity(jobs.len());
    for job in jobs {
        let a = &job.append;
        let stored = counts.get(&a.session_id).copied().unwrap_or(0);
        if usize::try_from(stored).ok() != Some(a.count) {
            outcomes.push(Appended::Stale);
            continue;
        }
        // A later record of the same session in this group goes after this one.
        counts.insert(a.session_id, stored.saturating_add(1));
        outcomes.push(Appended::Committed);
        rows.push(Row::of(a));
    }
    (outcomes, rows)
}

/// [`write`] on SQLite, in two hand-overs to the database thread for the whole group
/// ([`store::append`]): the write lock with the sessions' counts of events under it, then
/// every record and the `COMMIT` (plus one for each record that names a player new to its
/// club).
async fn write_sqlite(conn: &mut SqliteConnection, jobs: &[Job]) -> Result<Vec<Appended>, Failed> {
    let sessions: Vec<SessionId> = jobs.iter().map(|job| job.append.session_id).collect();
    let counts = match store::append::begin_and_count(conn, &sessions).await {
        Ok(counts) => counts,
        Err(e) => return Err(abandon(conn, Failed::Group(e)).await),
    };
    let (outcomes, rows) = admit(jobs, counts);
    for row in &rows {
        if let Some(f) = &row.facts
            && let Err(e) =
                store::history::add_new_players(conn, f.write.club_id, &f.write.delta).await
        {
            return Err(abandon(conn, Failed::Statement(e)).await);
        }
    }
    let records: Vec<store::append::Record<'_>> = rows.iter().map(Row::record).collect();
    if let Err(e) = store::append::append_and_commit(conn, &records).await {
        return Err(abandon(conn, Failed::Statement(e)).await);
    }
    Ok(outcomes)
}

/// [`write`] on PostgreSQL, which takes no query of several statements with parameters: a
/// transaction whose counts are read under the sessions' advisory locks, then each record's
/// statements one by one (the event with its entry and postings, then the club facts'
/// difference). A failed statement drops the transaction, which rolls it back.
async fn write_postgres(conn: &mut PgConnection, jobs: &[Job]) -> Result<Vec<Appended>, Failed> {
    let mut tx = sqlx::Connection::begin(conn).await.map_err(Failed::Group)?;
    let sessions: Vec<SessionId> = jobs.iter().map(|job| job.append.session_id).collect();
    let counts = store::append::lock_and_count(&mut tx, &sessions)
        .await
        .map_err(Failed::Group)?;
    let (outcomes, rows) = admit(jobs, counts);
    let clubs: Vec<crate::ids::ClubId> = rows
        .iter()
        .filter_map(|r| Some(r.facts.as_ref()?.write.club_id))
        .collect();
    store::append::lock_clubs(&mut tx, &clubs)
        .await
        .map_err(Failed::Group)?;
    for row in &rows {
        store::append_event(&mut *tx, row.session_id, &row.event)
            .await
            .map_err(Failed::Statement)?;
        if let Some(f) = &row.facts {
            f.write
                .write(&mut *tx, f.session_id)
                .await
                .map_err(Failed::Statement)?;
        }
    }
    tx.commit().await.map_err(Failed::Group)?;
    Ok(outcomes)
}

/// Rolls back the transaction a failed group left open on `conn`, answering `failed`, or
/// [`Failed::Broken`] when even that failed.
async fn abandon(conn: &mut SqliteConnection, failed: Failed) -> Failed {
    match store::append::roll_back(conn).await {
        Ok(()) => failed,
        Err(e) => {
            tracing::warn!("the writer could not roll back a failed group: {e}; it is replaced");
            Failed::Broken(e)
        }
    }
}

/// What one record writes, borrowed from its [`Append`]: its event and its club facts.
struct Row<'a> {
    session_id: SessionId,
    event: NewEvent<'a>,
    facts: Option<Facts<'a>>,
}

impl<'a> Row<'a> {
    /// Record `a`, whose session holds `a.count` events under the write lock.
    fn of(a: &'a Append) -> Row<'a> {
        Row {
            session_id: a.session_id,
            event: NewEvent {
                seq: i64::try_from(a.count).unwrap_or(i64::MAX).saturating_add(1),
                kind: &a.kind,
                body: &a.body,
                explanation: &a.explanation,
                postings: &a.postings,
                recorded_at: a.recorded_at,
                entry: &a.entry,
            },
            facts: a
                .facts
                .as_ref()
                .filter(|f| !f.delta.is_empty())
                .map(|write| Facts {
                    session_id: a.session_id,
                    write,
                }),
        }
    }

    fn record(&self) -> store::append::Record<'_> {
        store::append::Record {
            session_id: self.session_id,
            event: &self.event,
            then: self
                .facts
                .as_ref()
                .map(|f| f as &(dyn store::append::Then<'_> + Sync)),
        }
    }
}

/// A club session's history facts, written in its event's query.
struct Facts<'a> {
    session_id: SessionId,
    write: &'a FactsWrite,
}

impl<'q> store::append::Then<'q> for Facts<'q> {
    fn push(&self, sql: &mut String, first: usize) -> usize {
        store::history::push_facts_delta(sql, first, &self.write.delta)
    }

    fn bind(
        &self,
        q: sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments>,
    ) -> sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments> {
        let w = self.write;
        let at = (self.session_id, w.club_id, w.game, w.played_at);
        store::history::bind_facts_delta(q, at, &w.delta)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

    use std::sync::Arc;

    use crate::store::WritePool;
    use serde_json::json;

    use super::{Append, Appended, Committer, MAX_GROUP, MAX_QUEUED};
    use crate::error::AppError;
    use crate::format::SessionDoc;
    use crate::ids::SessionId;
    use crate::ledger::Posting;
    use crate::money::Money;

    async fn sessions(n: usize) -> (WritePool, Vec<SessionId>) {
        // Either engine: `.ci/run` runs these on PostgreSQL too.
        let pool = crate::store::testing::fresh_store().await;
        let doc: SessionDoc = serde_json::from_value(json!({
            "format": "scorekeeper/session@1", "game": "auction_pinochle",
            "agreements": {"stake": "0.05"}, "players": ["A", "B", "C"], "events": []
        }))
        .unwrap();
        let mut ids = Vec::new();
        for _ in 0..n {
            ids.push(crate::service::import(&pool, &doc, None).await.unwrap());
        }
        (pool, ids)
    }

    /// A hand of session `id` after `count` events: A pays B and C 25 cents each.
    fn append(id: SessionId, count: usize) -> Append {
        Append {
            session_id: id,
            count,
            kind: "hand".into(),
            body: json!({"type": "hand", "dealer": "A", "all_passed": true}).to_string(),
            explanation: "test".into(),
            postings: vec![
                Posting::new("A", Money::from_cents(-50)),
                Posting::new("B", Money::from_cents(25)),
                Posting::new("C", Money::from_cents(25)),
            ],
            recorded_at: crate::store::time::normalised("2026-01-01T00:00:00Z").unwrap(),
            entry: "{}".into(),
            facts: None,
        }
    }

    /// Each record at once, from its own task; their answers in order.
    async fn at_once(
        committer: &Arc<Committer>,
        pool: &WritePool,
        appends: Vec<Append>,
    ) -> Vec<Result<Appended, AppError>> {
        let tasks: Vec<_> = appends
            .into_iter()
            .map(|a| {
                let (committer, pool) = (Arc::clone(committer), pool.clone());
                tokio::spawn(async move { committer.append(&pool, a).await })
            })
            .collect();
        let mut answers = Vec::new();
        for t in tasks {
            answers.push(t.await.unwrap());
        }
        answers
    }

    async fn stored(pool: &WritePool, id: SessionId) -> (usize, Vec<(String, i64)>) {
        let mut conn = pool.acquire().await.unwrap();
        let count = crate::store::event_count(&mut conn, id).await.unwrap();
        (count, crate::store::balances(&mut conn, id).await.unwrap())
    }

    #[tokio::test]
    async fn records_made_at_once_share_one_commit() {
        let (pool, ids) = sessions(5).await;
        let committer = Arc::new(Committer::default());
        let answers = at_once(
            &committer,
            &pool,
            ids.iter().map(|&id| append(id, 0)).collect(),
        )
        .await;
        for answer in answers {
            assert_eq!(answer.unwrap(), Appended::Committed);
        }
        assert_eq!(committer.commits(), 1, "five records, one commit");
        for &id in &ids {
            let (count, balances) = stored(&pool, id).await;
            assert_eq!(count, 1);
            assert_eq!(
                balances,
                [("A".into(), -50), ("B".into(), 25), ("C".into(), 25)]
            );
        }
        // The next record of each session goes after it, in a group of its own.
        let answer = committer.append(&pool, append(ids[0], 1)).await.unwrap();
        assert_eq!(answer, Appended::Committed);
        assert_eq!(stored(&pool, ids[0]).await.0, 2);
        assert_eq!(committer.commits(), 2);
    }

    #[tokio::test]
    async fn a_failing_record_fails_alone_and_a_stale_one_writes_nothing() {
        let (pool, ids) = sessions(4).await;
        let committer = Arc::new(Committer::default());
        // The second was made on a state the store no longer holds (it holds no event 5);
        // the third breaks a rule of the store (a posting of zero) after its event's insert.
        let mut bad = append(ids[2], 0);
        bad.postings.push(Posting::new("D", Money::ZERO));
        let answers = at_once(
            &committer,
            &pool,
            vec![append(ids[0], 0), append(ids[1], 5), bad, append(ids[3], 0)],
        )
        .await;
        let mut answers = answers.into_iter();
        assert_eq!(answers.next().unwrap().unwrap(), Appended::Committed);
        assert_eq!(answers.next().unwrap().unwrap(), Appended::Stale);
        let refused = answers.next().unwrap().unwrap_err();
        assert!(matches!(refused, AppError::Internal(_)), "{refused:?}");
        assert_eq!(answers.next().unwrap().unwrap(), Appended::Committed);
        assert_eq!(stored(&pool, ids[0]).await.0, 1);
        assert_eq!(
            stored(&pool, ids[1]).await,
            (0, Vec::new()),
            "the stale one"
        );
        assert_eq!(
            stored(&pool, ids[2]).await,
            (0, Vec::new()),
            "the failing one"
        );
        assert_eq!(stored(&pool, ids[3]).await.0, 1);
    }

    #[tokio::test]
    async fn past_the_queue_bound_a_record_is_busy_and_not_written() {
        let (pool, ids) = sessions(1).await;
        let id = ids[0];
        let committer = Arc::new(Committer::default());
        // The writer connection is busy elsewhere while the records queue.
        let held = pool.acquire().await.unwrap();
        let n = MAX_QUEUED + MAX_GROUP + 3;
        let tasks: Vec<_> = (0..n)
            .map(|k| {
                let (committer, pool) = (Arc::clone(&committer), pool.clone());
                tokio::spawn(async move { committer.append(&pool, append(id, k)).await })
            })
            .collect();
        tokio::task::yield_now().await;
        drop(held);
        let (mut busy, mut committed) = (0, 0);
        for t in tasks {
            match t.await.unwrap() {
                Err(AppError::Busy) => busy += 1,
                Ok(Appended::Committed) => committed += 1,
                other => panic!("{other:?}"),
            }
        }
        assert!(busy >= 3, "{busy} refused as busy");
        assert_eq!(committed, n - busy);
        // Records k = 0, 1, … each after the one before: every one not refused landed.
        assert_eq!(stored(&pool, id).await.0, committed);
    }
}
