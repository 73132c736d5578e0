//! One group's transaction, engine by engine: the stored counts read under the write lock
//! (SQLite's `BEGIN IMMEDIATE`, PostgreSQL's advisory locks), each record whose count still
//! matches appended with what goes with it, one commit; and why a group wrote nothing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::{PgConnection, SqliteConnection};

use super::{Append, Appended, Facts, Job};
use crate::ids::{ClubId, SessionId};
use crate::service::FactsWrite;
use crate::store::{self, NewEvent, Pooled};

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

/// Which `jobs` may be appended given the stored `counts`: outcomes and rows to write.
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

/// [`write`] on PostgreSQL (no multi-statement queries with parameters): counts under
/// advisory locks, then each record's statements one by one.
async fn write_postgres(conn: &mut PgConnection, jobs: &[Job]) -> Result<Vec<Appended>, Failed> {
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
