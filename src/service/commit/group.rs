//! One group's transaction, engine by engine: the stored counts read under the write lock
//! (SQLite's `BEGIN IMMEDIATE`, PostgreSQL's advisory locks), each record whose count still
//! matches appended with what goes with it, one commit; and why a group wrote nothing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::{PgConnection, SqliteConnection};

use super::{After, Append, Appended, Facts, Job, Landing};
use crate::error::AppError;
use crate::ids::{ClubId, SessionId};
use crate::service::FactsWrite;
use crate::store::{self, NewEvent, Pooled, WritePool};

/// Why a group's transaction wrote nothing.
pub(super) enum Failed {
    /// `BEGIN` (or the counts) failed: nothing written; retrying each would fail alike.
    Group(sqlx::Error),
    /// A record's statement or `COMMIT` failed; rolled back.
    Statement(sqlx::Error),
    /// The rollback failed too: the connection is broken.
    Broken(sqlx::Error),
    /// PostgreSQL's `COMMIT` failed: rolled back, or with the connection broken unknown
    /// ([`AppError::of_commit`]).
    Commit(sqlx::Error),
    /// PostgreSQL's one-statement group failed with the connection broken: what it wrote is
    /// unknown until read back ([`settle`]).
    Unknown(sqlx::Error),
}

impl Failed {
    /// What an error of the one-statement group means: the server's refusal rolled it
    /// back (busy, a lock waited out: retrying each alone would wait alike; any other: each
    /// is retried alone); the connection broken, or any error on the client's side (I/O,
    /// the protocol, decoding the answer), which may come after the server committed:
    /// unknown.
    fn of_call(e: sqlx::Error) -> Failed {
        match &e {
            sqlx::Error::Database(_) if store::is_unavailable(&e) => Failed::Unknown(e),
            sqlx::Error::Database(_) if store::is_busy(&e) => Failed::Group(e),
            sqlx::Error::Database(_) => Failed::Statement(e),
            _ => Failed::Unknown(e),
        }
    }
}

/// Appends `jobs` in one transaction: each one's outcome, in order.
pub(super) async fn write(
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

/// Which `jobs` may be appended given the stored `counts`: outcomes and rows to write. A
/// record stepped after another is admitted only after that one, committed earlier or
/// admitted earlier in this group ([`super::landing`]).
fn admit(jobs: &[Job], mut counts: HashMap<SessionId, i64>) -> (Vec<Appended>, Vec<Row<'_>>) {
    let mut outcomes = Vec::with_capacity(jobs.len());
    let mut rows = Vec::with_capacity(jobs.len());
    for (at, job) in jobs.iter().enumerate() {
        let a = &job.append;
        let stored = counts.get(&a.session_id).copied().unwrap_or(0);
        if usize::try_from(stored).ok() != Some(a.count) || !after_admitted(jobs, at, &outcomes) {
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

/// Whether the record `jobs[at]` was stepped after is committed, or admitted earlier in this
/// group (`outcomes` so far).
fn after_admitted(jobs: &[Job], at: usize, outcomes: &[Appended]) -> bool {
    let job = &jobs[at];
    match (job.after(), &job.after) {
        (Landing::Committed, _) => true,
        (Landing::InFlight, Some(after)) => jobs[..at]
            .iter()
            .zip(outcomes)
            .any(|(before, &outcome)| before.lands.is(after) && outcome == Appended::Committed),
        _ => false,
    }
}

/// [`write`] on SQLite: two hand-overs to the database thread per group ([`store::append`]).
async fn write_sqlite(conn: &mut SqliteConnection, jobs: &[Job]) -> Result<Vec<Appended>, Failed> {
    let sessions: Vec<SessionId> = jobs.iter().map(|job| job.append.session_id).collect();
    let counts = match store::append::begin_and_count(conn, &sessions).await {
        Ok(counts) => counts,
        Err(e) => return Err(abandon(conn, Failed::Group(e)).await),
    };
    let (outcomes, rows) = admit(jobs, counts);
    for row in &rows {
        let written = async {
            // The difference's players new to the club; the rest goes in the event's query.
            if let Some(d) = &row.delta {
                store::history::add_new_players(&mut *conn, d.write.club_id, &d.write.delta)
                    .await?;
            }
            row.before_event(&mut *conn).await
        };
        if let Err(e) = written.await {
            return Err(abandon(conn, Failed::Statement(e)).await);
        }
    }
    let records: Vec<store::append::Record<'_>> = rows.iter().map(Row::record).collect();
    if let Err(e) = store::append::append_and_commit(conn, &records).await {
        return Err(abandon(conn, Failed::Statement(e)).await);
    }
    Ok(outcomes)
}

/// [`write`] on PostgreSQL (no multi-statement queries with parameters): one call of
/// `sk_record_group` ([`store::append::record_group`]), unless a record carries a session's
/// whole facts ([`write_postgres_by_statement`]).
async fn write_postgres(conn: &mut PgConnection, jobs: &[Job]) -> Result<Vec<Appended>, Failed> {
    if jobs
        .iter()
        .any(|job| matches!(job.append.facts, Some(Facts::Whole(_))))
    {
        return write_postgres_by_statement(conn, jobs).await;
    }
    // The group never holds a record with the one it was stepped after (`group_length`):
    // one whose record before it did not land is not sent.
    let sent: Vec<bool> = jobs
        .iter()
        .map(|job| job.after() == Landing::Committed)
        .collect();
    let rows: Vec<Row<'_>> = jobs
        .iter()
        .zip(&sent)
        .filter(|(_, sent)| **sent)
        .map(|(job, _)| Row::of(&job.append))
        .collect();
    let records: Vec<store::append::GroupRecord<'_>> = rows.iter().map(Row::group).collect();
    let written = store::append::record_group(conn, &records)
        .await
        .map_err(Failed::of_call)?;
    let mut written = written.into_iter();
    let outcome = |sent: bool| match sent && written.next() == Some(true) {
        true => Appended::Committed,
        false => Appended::Stale,
    };
    Ok(sent.into_iter().map(outcome).collect())
}

/// After [`Failed::Unknown`], its connection closed: answers each of `jobs` whose event is
/// stored ([`Appended::Committed`]) and hands back the rest, which the failed group did not
/// write and may be sent again; `None` (each answered [`AppError::OutcomeUnknown`]) when
/// that cannot be read.
pub(super) async fn settle(pool: &WritePool, jobs: Vec<Job>) -> Option<Vec<Job>> {
    let rows: Vec<Row<'_>> = jobs.iter().map(|job| Row::of(&job.append)).collect();
    let records: Vec<store::append::GroupRecord<'_>> = rows.iter().map(Row::group).collect();
    let read = async {
        let writer = pool.writer_name().ok_or(sqlx::Error::PoolClosed)?;
        match pool.reader().acquire().await? {
            Pooled::Postgres(mut c) => store::append::written(&mut c, &writer, &records).await,
            Pooled::Sqlite(_) => Err(sqlx::Error::PoolClosed),
        }
    };
    let stored = match read.await {
        Ok(stored) if stored.len() == jobs.len() => stored,
        other => {
            let cause = other.err().map(|e| e.to_string()).unwrap_or_default();
            tracing::warn!(%cause, "a group's connection broke and what it wrote cannot be read back: its outcome is unknown");
            for job in jobs {
                job.reply(Err(AppError::OutcomeUnknown));
            }
            return None;
        }
    };
    let mut rest = Vec::new();
    for (job, stored) in jobs.into_iter().zip(stored) {
        if stored {
            job.reply(Ok(Appended::Committed));
        } else {
            rest.push(job);
        }
    }
    Some(rest)
}

/// [`write_postgres`] for a group with a record carrying whole facts: counts under advisory
/// locks, then each record's statements one by one, in a transaction.
async fn write_postgres_by_statement(
    conn: &mut PgConnection,
    jobs: &[Job],
) -> Result<Vec<Appended>, Failed> {
    let mut tx = sqlx::Connection::begin(conn).await.map_err(Failed::Group)?;
    let sessions: Vec<SessionId> = jobs.iter().map(|job| job.append.session_id).collect();
    let counts = store::append::lock_and_count(&mut tx, &sessions)
        .await
        .map_err(Failed::Group)?;
    let (outcomes, rows) = admit(jobs, counts);
    let clubs: Vec<ClubId> = rows
        .iter()
        .filter_map(|r| Some(r.append.facts.as_ref()?.club_id()))
        .collect();
    store::append::lock_clubs(&mut tx, &clubs)
        .await
        .map_err(Failed::Group)?;
    for row in &rows {
        row.before_event(&mut *tx)
            .await
            .map_err(Failed::Statement)?;
        store::append_event(&mut *tx, row.session_id, &row.event)
            .await
            .map_err(Failed::Statement)?;
        if let Some(d) = &row.delta {
            d.write
                .write(&mut *tx, d.session_id)
                .await
                .map_err(Failed::Statement)?;
        }
    }
    tx.commit().await.map_err(Failed::Commit)?;
    Ok(outcomes)
}

/// Writes each of `jobs` in a group of its own, after their group failed on a statement,
/// so that only the record at fault fails; what became of the connection.
pub(super) async fn each_alone(conn: &mut Pooled, jobs: Vec<Job>, commits: &AtomicU64) -> After {
    let mut jobs = jobs.into_iter();
    while let Some(job) = jobs.next() {
        if job.after() != Landing::Committed {
            // The record it was stepped after failed (each is written in order).
            job.reply(Ok(Appended::Stale));
            continue;
        }
        let outcome = match write(conn, std::slice::from_ref(&job), commits).await {
            Ok(outcomes) => Ok(outcomes.first().copied().unwrap_or(Appended::Stale)),
            Err(Failed::Unknown(e)) => {
                let mut rest = vec![job];
                rest.extend(jobs);
                return After::Unknown(rest, e);
            }
            Err(Failed::Broken(e)) => {
                job.reply(Err(AppError::from(e)));
                return After::Broken;
            }
            Err(Failed::Group(e) | Failed::Statement(e)) => Err(AppError::from(e)),
            Err(Failed::Commit(e)) => Err(AppError::of_commit(e)),
        };
        job.reply(outcome);
    }
    After::Kept
}

/// Rolls back a failed group's transaction; [`Failed::Broken`] if that fails too.
async fn abandon(conn: &mut SqliteConnection, failed: Failed) -> Failed {
    match store::append::roll_back(conn).await {
        Ok(()) => failed,
        Err(e) => {
            tracing::warn!("the writer could not roll back a failed group: {e}; it is replaced");
            Failed::Broken(e)
        }
    }
}

/// What one record writes: its event and what goes with it.
struct Row<'a> {
    session_id: SessionId,
    event: NewEvent<'a>,
    append: &'a Append,
    /// The facts' difference, written with the event's own statements.
    delta: Option<Delta<'a>>,
}

impl<'a> Row<'a> {
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
            append: a,
            delta: match &a.facts {
                Some(Facts::Difference(write)) if !write.delta.is_empty() => Some(Delta {
                    session_id: a.session_id,
                    write,
                }),
                _ => None,
            },
        }
    }

    /// What the record writes before its event, in the same transaction: the idempotency
    /// key, and a whole session's facts with its players.
    async fn before_event(&self, conn: &mut impl store::Connected) -> Result<(), sqlx::Error> {
        let (id, at) = (self.session_id, self.event.recorded_at);
        if let Some(key) = &self.append.key {
            store::remember_idempotency_key(conn, id, key, self.event.seq, at).await?;
        }
        match &self.append.facts {
            Some(Facts::Whole(w)) => {
                for player in &w.players {
                    store::clubs::add_player(conn, w.club_id, player).await?;
                }
                let (club, game) = (w.club_id, w.game.as_str());
                store::history::replace_session_facts(conn, id, club, game, w.played_at, &w.facts)
                    .await
            }
            Some(Facts::Difference(_)) | None => Ok(()),
        }
    }

    /// The record as PostgreSQL's one-statement group takes it.
    fn group(&self) -> store::append::GroupRecord<'_> {
        store::append::GroupRecord {
            session_id: self.session_id,
            event: &self.event,
            key: self.append.key.as_deref(),
            // Every record with facts takes its club's lock, as [`write_postgres_by_statement`].
            club: self.append.facts.as_ref().map(Facts::club_id),
            facts: self.delta.as_ref().map(|d| store::append::FactsAt {
                club_id: d.write.club_id,
                game: d.write.game,
                played_at: d.write.played_at,
                delta: &d.write.delta,
            }),
        }
    }

    fn record(&self) -> store::append::Record<'_> {
        store::append::Record {
            session_id: self.session_id,
            event: &self.event,
            then: self
                .delta
                .as_ref()
                .map(|f| f as &(dyn store::append::Then<'_> + Sync)),
        }
    }
}

/// A club session's facts difference, written in its event's query.
struct Delta<'a> {
    session_id: SessionId,
    write: &'a FactsWrite,
}

impl<'q> store::append::Then<'q> for Delta<'q> {
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
