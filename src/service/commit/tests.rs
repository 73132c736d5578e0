//! The group commit against a real store (either engine).

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
        key: None,
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
    // The second's state is stale; the third's zero posting breaks a store rule after its insert.
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

/// A record stepped after another that did not land is stale, even when its count fits the
/// store (the one before it was stale: another process had written); one stepped after a
/// record of the same group lands with it; one after a record that failed alone is stale.
#[tokio::test]
async fn a_record_is_written_only_after_the_one_it_was_stepped_after() {
    let (pool, ids) = sessions(3).await;
    let committer = Arc::new(Committer::default());
    let enqueue = |append, after| committer.enqueue(&pool, append, after).unwrap();
    // The writer connection is busy elsewhere while the records queue: one group.
    let held = pool.acquire().await.unwrap();
    let stale = enqueue(append(ids[0], 5), None);
    let fits = enqueue(append(ids[0], 0), Some(stale.landed.clone()));
    let first = enqueue(append(ids[1], 0), None);
    let second = enqueue(append(ids[1], 1), Some(first.landed.clone()));
    drop(held);
    assert_eq!(stale.answer().await.unwrap(), Appended::Stale);
    assert_eq!(fits.answer().await.unwrap(), Appended::Stale);
    assert_eq!(first.answer().await.unwrap(), Appended::Committed);
    assert_eq!(second.answer().await.unwrap(), Appended::Committed);
    // A group whose statement fails is written record by record.
    let held = pool.acquire().await.unwrap();
    let mut bad = append(ids[2], 0);
    bad.postings.push(Posting::new("D", Money::ZERO));
    let failing = enqueue(bad, None);
    let after_failing = enqueue(append(ids[2], 1), Some(failing.landed.clone()));
    drop(held);
    assert!(failing.answer().await.is_err());
    assert_eq!(after_failing.answer().await.unwrap(), Appended::Stale);
    assert_eq!(stored(&pool, ids[0]).await, (0, Vec::new()));
    assert_eq!(stored(&pool, ids[1]).await.0, 2);
    assert_eq!(stored(&pool, ids[2]).await, (0, Vec::new()));
}
