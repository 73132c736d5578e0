//! One session's records made at once: on SQLite each is stepped on the state the one before
//! it left while that one is being committed (`commit::Landed`), so they share commits as
//! different sessions' records do (on PostgreSQL each waits for the one before). Among them, refused events, hands recorded by another process and
//! a correction reaching back and a keyed hand sent twice at once; a reader meanwhile never
//! sees a hand that is not stored, and afterwards the cached state equals a full replay.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use scorekeeper::service::{self, Folds};
use serde_json::json;

use crate::amended_whole::{PLAYED, played, seated};
use crate::cached_fold::assert_same;
use crate::common::hands;

/// Writers at once, as the benchmark's clients on one session.
const WRITERS: usize = 8;

/// Hands each writer records.
const EACH: usize = 6;

#[test]
fn records_made_at_once_into_one_session_share_commits_and_stay_true() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    for game in ["auction_pinochle", "check_pinochle"] {
        runtime.block_on(at_once(game));
    }
}

async fn at_once(game: &'static str) {
    let players = seated(game);
    let (folds, elsewhere) = (Folds::new(4), Folds::new(4));
    let (pool, ids) = played(game, &folds, &[true]).await;
    let id = ids[0];
    let commits = folds.committer().commits();
    let next = Arc::new(AtomicUsize::new(PLAYED));
    let done = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for w in 0..WRITERS {
        let (pool, folds, next) = (pool.clone(), folds.clone(), next.clone());
        tasks.push(tokio::spawn(async move {
            for k in 0..EACH {
                let hand = hands::hand(game, players, next.fetch_add(1, Ordering::Relaxed));
                let recorded = service::record_event(&pool, &folds, id, hand, None, None).await;
                assert!(recorded.is_ok(), "{game}: writer {w}: {recorded:?}");
                if w == 0 && k % 2 == 1 {
                    // Refused by the rules on whatever state it is stepped on.
                    let mut wrong = hands::hand(game, players, 0);
                    wrong["dealer"] = json!("Nobody");
                    let refused = service::record_event(&pool, &folds, id, wrong, None, None);
                    assert_eq!(refused.await.unwrap_err().status(), 422, "{game}");
                }
                if w == 2 && k == 3 {
                    // A phone's retry while its first send is still in flight: one hand.
                    let hand = hands::hand(game, players, next.fetch_add(1, Ordering::Relaxed));
                    let send = || {
                        service::record_event(&pool, &folds, id, hand.clone(), None, Some("twice"))
                    };
                    let (first, again) = tokio::join!(send(), send());
                    let (first, again) = (first.unwrap(), again.unwrap());
                    assert_eq!(first.seq, again.seq, "{game}: one hand for one key");
                    assert!(
                        first.repeated != again.repeated,
                        "{game}: one of them repeated"
                    );
                    assert_eq!(first.entry, again.entry, "{game}: the first answer again");
                }
                if w == 1 && k == 2 {
                    // Dealt by the same seat as hand 1.
                    let replacement = hands::hand(game, players, 2 * players.len());
                    let fix = json!({"type": "correction", "event": 0, "replacement": replacement});
                    let fixed = service::record_event(&pool, &folds, id, fix, None, None).await;
                    assert!(fixed.is_ok(), "{game}: the correction: {fixed:?}");
                }
            }
        }));
    }
    // Another process records hands meanwhile: this cache's chain is read again after each.
    // While the chain keeps committing, the other process's state is stale at every try and
    // it may be answered busy (a 503 with `Retry-After`): it sends the hand again, as a
    // phone does.
    let other = {
        let (pool, next) = (pool.clone(), next.clone());
        tokio::spawn(async move {
            for _ in 0..3 {
                let hand = hands::hand(game, players, next.fetch_add(1, Ordering::Relaxed));
                let mut busy = 0;
                loop {
                    match service::record_event(&pool, &elsewhere, id, hand.clone(), None, None)
                        .await
                    {
                        Err(scorekeeper::error::AppError::Busy) if busy < 50 => busy += 1,
                        recorded => break assert!(recorded.is_ok(), "{game}: {recorded:?}"),
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                }
            }
        })
    };
    let reader = {
        let (pool, folds, done) = (pool.clone(), folds.clone(), done.clone());
        tokio::spawn(async move {
            let mut reads = 0;
            while !done.load(Ordering::Relaxed) {
                let shown = service::position(pool.reader(), &folds, id).await.unwrap();
                let stored = service::event_count(pool.reader(), id).await.unwrap();
                assert!(
                    shown.event_count <= stored,
                    "{game}: a reader saw {} events, {stored} stored",
                    shown.event_count
                );
                reads += 1;
            }
            reads
        })
    };
    for t in tasks {
        t.await.unwrap();
    }
    other.await.unwrap();
    done.store(true, Ordering::Relaxed);
    assert!(reader.await.unwrap() > 0, "{game}: the reader read");
    // Every hand, the keyed one once, the 3 from elsewhere and the correction; no refusal
    // was written.
    let recorded = WRITERS * EACH + 2;
    let stored = service::event_count(pool.reader(), id).await.unwrap();
    assert_eq!(stored, PLAYED + recorded + 3, "{game}");
    // The standing read notices the hands recorded elsewhere, as a phone's next read would.
    service::position(pool.reader(), &folds, id).await.unwrap();
    assert_same(&pool, &folds, id, None, stored).await;
    let made = folds.committer().commits() - commits;
    // On PostgreSQL a writer keeps the session until its answer (`service::try_once`).
    if pool.engine() == scorekeeper::store::postgres::Engine::Sqlite {
        assert!(
            made < recorded as u64,
            "{game}: {recorded} records in {made} commits"
        );
    }
}
