//! PostgreSQL's group commit in one statement: `sk_record_group` (migration 0012) takes
//! the whole group as one JSONB argument and, in its own transaction, locks, counts,
//! admits and writes each record ([`record_group`]): one round trip where the records'
//! statements one by one took a dozen, and no `BEGIN`/`COMMIT` of their own. Should the
//! connection break during that statement, [`written`] reads back which records landed.

use std::time::Instant;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use sqlx::PgConnection;

use crate::history::FactsDelta;
use crate::ids::{ClubId, SessionId};
use crate::store::NewEvent;
use crate::store::time::rfc3339;

/// One record of [`record_group`].
pub struct GroupRecord<'q> {
    /// The session's id.
    pub session_id: SessionId,
    /// The event, with its ledger entry and postings; written only if the session still
    /// holds `event.seq - 1` events.
    pub event: &'q NewEvent<'q>,
    /// The request's idempotency key, remembered with the event's `seq`.
    pub key: Option<&'q str>,
    /// The club whose advisory lock the record takes (a club session's record with facts).
    pub club: Option<ClubId>,
    /// The facts' difference it writes, if any.
    pub facts: Option<FactsAt<'q>>,
}

/// A club session's facts difference and what its rows carry besides.
pub struct FactsAt<'q> {
    /// The club that owns the session.
    pub club_id: ClubId,
    /// The session's game id.
    pub game: &'q str,
    /// When the session was created.
    pub played_at: DateTime<Utc>,
    /// What changed.
    pub delta: &'q FactsDelta,
}

impl GroupRecord<'_> {
    /// The record as the function reads it (migration 0012 describes the shape). Cents go
    /// as JSON strings of their digits, which the function casts to BIGINT: exact, and never
    /// a JSON number on the way.
    fn json(&self) -> Value {
        let e = self.event;
        let postings: Vec<Value> = e
            .postings
            .iter()
            .map(|p| json!([p.account, p.amount.cents().to_string()]))
            .collect();
        json!({
            "session": self.session_id.0,
            "count": e.seq.saturating_sub(1),
            "kind": e.kind,
            "body": e.body,
            "explanation": e.explanation,
            "recorded_at": rfc3339(e.recorded_at),
            "entry": e.entry,
            "key": self.key,
            "postings": postings,
            "club": self.club.map(|c| c.0),
            "facts": self.facts.as_ref().map(FactsAt::json),
        })
    }
}

impl FactsAt<'_> {
    fn json(&self) -> Value {
        let d = self.delta;
        let results: Vec<Value> = d
            .results
            .iter()
            .map(|(r, new)| {
                json!({
                    "player": r.player, "net_cents": r.net_cents.to_string(), "hands_bid": r.hands_bid,
                    "hands_made": r.hands_made, "hands_set": r.hands_set,
                    "games_won": r.games_won, "kitties_taken": r.kitties_taken, "new": new,
                })
            })
            .collect();
        let bids: Vec<Value> = d
            .bids
            .iter()
            .map(|(player, band, bids, made)| json!([player, band, bids, made]))
            .collect();
        json!({
            "club": self.club_id.0,
            "game": self.game,
            "played_at": rfc3339(self.played_at),
            // Flags as 0/1, as the columns hold them.
            "status": d.status.map(|(hands, closed, settled)| {
                json!([hands, i64::from(closed), i64::from(settled)])
            }),
            "results": results,
            "bids": bids,
            "gone": d.gone.iter().map(|(player, band)| json!([player, band])).collect::<Vec<_>>(),
        })
    }
}

/// Writes `records` in one statement on `conn`, which must have no transaction open (the
/// statement is its own): each session's advisory lock, then its count, then the admitted
/// records' clubs' locks, in [`super::lock_and_count`]'s and [`super::lock_clubs`]'s
/// order. For each record in order, whether it was written (`false`: stale, its session no
/// longer holds `seq - 1` events; nothing of it written). Errors: the database's, the whole
/// group rolled back; should the connection break, the outcome is unknown ([`written`]).
pub async fn record_group(
    conn: &mut PgConnection,
    records: &[GroupRecord<'_>],
) -> Result<Vec<bool>, sqlx::Error> {
    let group = Value::Array(records.iter().map(GroupRecord::json).collect());
    let outcomes: Vec<bool> = sqlx::query_scalar("SELECT sk_record_group($1::JSONB)")
        .bind(group.to_string())
        .fetch_one(conn)
        .await?;
    if outcomes.len() != records.len() {
        // It committed something, but answered for other records: a broken protocol, so the
        // caller reads back what was written rather than guessing.
        return Err(sqlx::Error::Protocol(format!(
            "sk_record_group answered {} outcomes for {} records",
            outcomes.len(),
            records.len()
        )));
    }
    Ok(outcomes)
}

/// After [`record_group`] failed with its connection broken: for each record, whether its
/// event is stored (at its `seq`, with its kind, body and time), read on `conn` (another
/// connection) once no backend named `writer` (the writer pool's `application_name`) is
/// still running `sk_record_group`, so that the failed call's transaction has ended,
/// committed or not. Only the group commit calls it, and it waits here, so a connection of
/// that name the pool has opened since for another write does not hold the reading up. A
/// record not stored was not written by the failed group and may be sent again. Errors:
/// the database's; the call still running after [`super::super::WRITE_WAIT`] (as
/// [`sqlx::Error::PoolTimedOut`]): its outcome stays unknown.
pub async fn written(
    conn: &mut PgConnection,
    writer: &str,
    records: &[GroupRecord<'_>],
) -> Result<Vec<bool>, sqlx::Error> {
    let start = Instant::now();
    loop {
        // Each its own transaction: pg_stat_activity is read afresh every time.
        let left: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = $1 \
             AND state <> 'idle' AND query LIKE 'SELECT sk_record_group(%'",
        )
        .bind(writer)
        .fetch_one(&mut *conn)
        .await?;
        if left == 0 {
            break;
        }
        if start.elapsed() > super::super::WRITE_WAIT {
            return Err(sqlx::Error::PoolTimedOut);
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let sessions: Vec<i64> = records.iter().map(|r| r.session_id.0).collect();
    let seqs: Vec<i64> = records.iter().map(|r| r.event.seq).collect();
    let kinds: Vec<&str> = records.iter().map(|r| r.event.kind).collect();
    let bodies: Vec<&str> = records.iter().map(|r| r.event.body).collect();
    let times: Vec<String> = records
        .iter()
        .map(|r| rfc3339(r.event.recorded_at))
        .collect();
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM events e WHERE e.session_id = r.s AND e.seq = r.q \
         AND e.kind = r.k AND e.body = r.b AND e.recorded_at = r.t) \
         FROM unnest($1::BIGINT[], $2::BIGINT[], $3::TEXT[], $4::TEXT[], $5::TEXT[]) \
         WITH ORDINALITY AS r(s, q, k, b, t, n) ORDER BY r.n",
    )
    .bind(&sessions)
    .bind(&seqs)
    .bind(&kinds)
    .bind(&bodies)
    .bind(&times)
    .fetch_all(&mut *conn)
    .await
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

    use std::time::Duration;

    use sqlx::postgres::PgConnectOptions;
    use sqlx::{ConnectOptions, Connection, PgConnection, PgPool};

    use super::{GroupRecord, record_group, written};
    use crate::ids::SessionId;
    use crate::ledger::Posting;
    use crate::money::Money;
    use crate::store::{NewEvent, NewSession, WritePool};

    /// Cents beyond a double's 53 bits: they must go through the JSON exactly.
    const CENTS: i64 = 9_007_199_254_740_993;

    const OURS: &str = r#"{"by":"us"}"#;

    fn postings() -> Vec<Posting> {
        vec![
            Posting::new("A", Money::from_cents(-CENTS)),
            Posting::new("B", Money::from_cents(CENTS)),
        ]
    }

    /// A hand at `seq` whose body says who entered it.
    fn hand<'a>(seq: i64, body: &'a str, postings: &'a [Posting]) -> NewEvent<'a> {
        NewEvent {
            seq,
            kind: "hand",
            body,
            explanation: "test",
            postings,
            recorded_at: crate::store::time::normalised("2026-01-01T00:00:00Z").unwrap(),
            entry: "{}",
        }
    }

    fn record<'a>(id: SessionId, event: &'a NewEvent<'a>) -> GroupRecord<'a> {
        GroupRecord {
            session_id: id,
            event,
            key: None,
            club: None,
            facts: None,
        }
    }

    /// A store with one session, its PostgreSQL pool, and options for a connection of
    /// another name; `None` on SQLite (these are PostgreSQL's; `.ci/run` runs the library's
    /// store tests there).
    async fn one_session() -> Option<(WritePool, PgPool, PgConnectOptions, SessionId)> {
        let pool = crate::store::testing::fresh_store().await;
        let pg = pool.postgres_pool()?.clone();
        let players = ["A".to_string(), "B".to_string()];
        let session = NewSession {
            game: "auction_pinochle",
            currency: "USD",
            agreements: &serde_json::Map::new(),
            opening_scores: None,
            players: &players,
            created_at: crate::store::time::normalised("2026-01-01T00:00:00Z").unwrap(),
            club_id: None,
        };
        let mut conn = pool.acquire().await.unwrap();
        let id = crate::store::insert_session(&mut conn, &session)
            .await
            .unwrap();
        drop(conn);
        let other = (*pg.connect_options()).clone().application_name("reading");
        Some((pool, pg, other, id))
    }

    #[tokio::test]
    async fn a_group_answers_stale_and_what_it_wrote_is_read_back_record_by_record() {
        let Some((pool, pg, other, id)) = one_session().await else {
            return;
        };
        let postings = postings();
        let (first, second) = (hand(1, OURS, &postings), hand(2, OURS, &postings));
        let mut writer = pg.acquire().await.unwrap();
        let answer = record_group(&mut writer, &[record(id, &first), record(id, &first)]).await;
        assert_eq!(answer.unwrap(), [true, false], "the second is stale");
        drop(writer);
        let mut conn = pool.acquire().await.unwrap();
        let balances = crate::store::balances(&mut conn, id).await.unwrap();
        assert_eq!(balances, [("A".into(), -CENTS), ("B".into(), CENTS)]);
        drop(conn);
        // The writer's connection stays open, idle: it does not hold the reading up.
        let mut reader = other.connect().await.unwrap();
        let theirs = hand(1, r#"{"by":"them"}"#, &postings);
        let records = [record(id, &first), record(id, &second), record(id, &theirs)];
        let name = pool.writer_name().unwrap();
        let stored = written(&mut reader, &name, &records).await.unwrap();
        assert_eq!(
            stored,
            [true, false, false],
            "ours at 1; none at 2; 1 is not theirs"
        );
        reader.close().await.unwrap();
    }

    #[tokio::test]
    async fn the_reading_back_waits_for_a_call_still_running() {
        let Some((pool, pg, other, id)) = one_session().await else {
            return;
        };
        // The call is held up by another's lock on its session.
        let mut holding = other.connect().await.unwrap();
        let mut holder = holding.begin().await.unwrap();
        let lock = sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(id.0);
        lock.execute(&mut *holder).await.unwrap();
        let call = tokio::spawn(async move {
            let postings = postings();
            let event = hand(1, OURS, &postings);
            let mut writer = pg.acquire().await.unwrap();
            record_group(&mut writer, &[record(id, &event)])
                .await
                .unwrap()
        });
        tokio::time::sleep(Duration::from_millis(200)).await;
        let release = async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            holder.rollback().await.unwrap();
        };
        let postings = postings();
        let event = hand(1, OURS, &postings);
        let at_one = [record(id, &event)];
        let mut reader: PgConnection = other.connect().await.unwrap();
        let name = pool.writer_name().unwrap();
        let (stored, ()) = tokio::join!(written(&mut reader, &name, &at_one), release);
        assert_eq!(
            stored.unwrap(),
            [true],
            "read after the held-up call committed"
        );
        assert_eq!(call.await.unwrap(), [true]);
        holding.close().await.unwrap();
    }
}
