//! Every cached state is checked against the store before it is used
//! for a write. Two instances on one database (two writers, two caches: SQLite on one file,
//! or one PostgreSQL database): instance A holds a session cached, instance B records a
//! hand, then A makes each kind of write (a correction reaching back, a void, a payment
//! and its undo, the kitty divided, a close, a reopen, a keyed hand): each lands on the
//! session as B left it, B's hand stays, nothing is written twice. And B's write still in
//! flight (its transaction open under the session's lock) while A writes: A's write waits
//! for it and lands after it, never failing on the unique `(session_id, seq)`; a night's
//! payment, or a session with money put in the night, worked out before B's void settled
//! the night is refused, not written; a club session's history facts filled in from the
//! session as read before B's hand count that hand.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::time::Duration;

use scorekeeper::format::{SessionDoc, replay};
use scorekeeper::ids::{ClubId, NightId, SessionId};
use scorekeeper::service::{self, Folds, nights};
use scorekeeper::store::{self, NewEvent, WritePool};
use serde_json::{Value, json};

use crate::common::engines;

/// One instance of the service: its writer (and read pool) and its cache.
struct Instance {
    pool: WritePool,
    folds: Folds,
}

/// Two instances on one fresh database of the engine under test: a file for SQLite (an
/// in-memory database cannot be shared), a new database on PostgreSQL.
async fn two_instances(name: &str) -> (Instance, Instance) {
    let url = if engines::on_postgres() {
        engines::test_database_url().await
    } else {
        let dir = crate::common::process::workdir(name);
        format!("sqlite://{}", dir.join("shared.db").display())
    };
    let one = store::open(&url).await.unwrap();
    let two = store::open(&url).await.unwrap();
    (
        Instance {
            pool: one,
            folds: Folds::default(),
        },
        Instance {
            pool: two,
            folds: Folds::default(),
        },
    )
}

/// An Auction Pinochle session of A, B and C, a nickel a point, Scarne's kitty: each
/// antes 0.10, the kitty holds 0.30.
fn empty() -> SessionDoc {
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle",
        "agreements": {"stake": "0.05", "kitty": "pot"}, "players": ["A", "B", "C"],
        "events": []
    }))
    .unwrap()
}

/// `bidder` bids 300 (3 units: 0.15 from each other player) in clubs on `dealer`'s deal.
fn hand(dealer: &str, bidder: &str, outcome: &str) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": 300,
           "trump": "clubs", "outcome": outcome})
}

/// The session as stored, in cents by account (postings summed), and its events.
async fn stored(i: &Instance, id: SessionId) -> (Vec<(String, i64)>, Vec<Value>) {
    let balances = service::stored_balances(i.pool.reader(), id).await.unwrap();
    let loaded = service::load(&i.pool, &Folds::default(), id).await.unwrap();
    (balances, loaded.doc.events.clone())
}

/// What the rules give for `events` after the header of [`empty`]: cents by account, the
/// kitty's included, as [`stored`] sums them.
fn ruled(events: &[Value]) -> Vec<(String, i64)> {
    let mut doc = empty();
    doc.events = events.to_vec();
    let ledger = replay(&doc).unwrap();
    ledger
        .balances
        .iter()
        .map(|(who, m)| (who.clone(), m.cents()))
        .collect()
}

/// Cents of `who` in `balances`.
fn of(balances: &[(String, i64)], who: &str) -> i64 {
    balances
        .iter()
        .find(|(w, _)| w == who)
        .map_or(0, |(_, c)| *c)
}

/// Every stored ledger entry equals replay of its session's stored document.
async fn ledgers_true(i: &Instance) {
    let mut conn = i.pool.acquire().await.unwrap();
    scorekeeper::copy::check_ledgers(&mut conn).await.unwrap();
}

/// A caches session `id` (reads where it stands), then B records `b_event`: A's cache is
/// one event behind the store.
async fn a_cached_then_b(a: &Instance, b: &Instance, id: SessionId, b_event: Value) {
    service::position(a.pool.reader(), &a.folds, id)
        .await
        .unwrap();
    service::record_event(&b.pool, &b.folds, id, b_event, None, None)
        .await
        .unwrap();
}

/// A's write `event` (under idempotency `key` when given) after B's: it lands as the
/// session's event `seq`, and what is stored is what the rules give for `expected`.
async fn a_writes(
    (a, b): (&Instance, &Instance),
    id: SessionId,
    (event, key): (Value, Option<&str>),
    expected: &[Value],
) {
    let at = format!("{event}");
    let recorded = service::record_event(&a.pool, &a.folds, id, event, None, key)
        .await
        .unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_eq!(recorded.seq, expected.len(), "{at} lands after B's write");
    let (balances, events) = stored(b, id).await;
    assert_eq!(events, expected, "{at}: every event once, in order");
    assert_eq!(balances, ruled(expected), "{at}: as the rules give");
    // A's cache now holds the fresh state: its next read needs no reading again.
    let kept = service::kept(&a.folds, id).await.unwrap();
    assert_eq!(kept.events(), expected.len(), "{at}: A's cache is current");
}

#[tokio::test]
async fn each_write_made_on_a_stale_cache_lands_on_the_fresh_state() {
    let (a, b) = two_instances("stale_writes").await;
    let id = service::import(&a.pool, &empty(), None).await.unwrap();
    let mut events = vec![hand("A", "B", "made")];
    service::record_event(&a.pool, &a.folds, id, events[0].clone(), None, None)
        .await
        .unwrap();

    // A correction reaching back: hand 1 was failed, not made. B's hand 2 (C made 300)
    // stays: A +0.30 −0.15 −0.10 = +0.05, B −0.60 −0.15 −0.10 = −0.85, C +0.30 +0.30
    // −0.10 = +0.50, the kitty 0.30.
    let b_hand = hand("B", "C", "made");
    a_cached_then_b(&a, &b, id, b_hand.clone()).await;
    events.push(b_hand);
    let correction = json!({"type": "correction", "event": 0, "reason": "it went set",
                            "replacement": hand("A", "B", "failed")});
    events.push(correction.clone());
    a_writes((&a, &b), id, (correction, None), &events).await;
    let (balances, _) = stored(&b, id).await;
    let cents: Vec<i64> = ["A", "B", "C", scorekeeper::ledger::KITTY]
        .iter()
        .map(|w| of(&balances, w))
        .collect();
    assert_eq!(cents, [5, -85, 50, 30]);

    // Each other kind of write, each after a hand of B's that A's cache does not hold.
    let dealers = ["C", "A", "B"];
    let writes: [(Value, Option<&str>); 6] = [
        (
            json!({"type": "void", "event": 1, "reason": "not played"}),
            None,
        ),
        (
            json!({"type": "payment", "from": "B", "to": "A", "amount": "0.25"}),
            None,
        ),
        (json!({"type": "kitty_divide"}), None),
        (hand("A", "C", "failed"), Some("a-keyed-hand")),
        (json!({"type": "close"}), None),
        (json!({"type": "reopen", "reason": "one more round"}), None),
    ];
    for (k, write) in writes.into_iter().enumerate() {
        // While the sitting is closed B can record only a payment.
        let b_event = if k == 5 {
            json!({"type": "payment", "from": "C", "to": "B", "amount": "0.05"})
        } else {
            hand(dealers[k % 3], "B", "made")
        };
        a_cached_then_b(&a, &b, id, b_event.clone()).await;
        events.push(b_event);
        events.push(write.0.clone());
        a_writes((&a, &b), id, write, &events).await;
    }
    // The payment's undo: a void of the payment A recorded (event 6, from 0).
    let b_hand = hand("C", "B", "made");
    a_cached_then_b(&a, &b, id, b_hand.clone()).await;
    events.push(b_hand);
    assert_eq!(events[6]["type"], "payment");
    let undo = json!({"type": "void", "event": 6, "reason": "payment voided"});
    events.push(undo.clone());
    a_writes((&a, &b), id, (undo, None), &events).await;

    // The sheet's undo form sends the count of events its page showed: made on A's stale
    // page it is refused (409), nothing is written, and A's cache stays true.
    a_cached_then_b(&a, &b, id, hand("A", "B", "made")).await;
    events.push(hand("A", "B", "made"));
    let stale_undo = json!({"type": "void", "event": 17, "reason": "undo last hand"});
    let seen = Some(events.len() - 1);
    let err = service::record_event(&a.pool, &a.folds, id, stale_undo, seen, None)
        .await
        .unwrap_err();
    assert_eq!(err.status(), 409, "{err}");
    assert_eq!(stored(&b, id).await.1, events, "nothing written");
    // The keyed hand sent again records nothing.
    let again = service::record_event(
        &a.pool,
        &a.folds,
        id,
        hand("A", "C", "failed"),
        None,
        Some("a-keyed-hand"),
    )
    .await
    .unwrap();
    assert!(again.repeated);
    assert_eq!(stored(&b, id).await.1.len(), events.len());
    ledgers_true(&a).await;
}

/// B's write of `event` (the session's event `seq`) begun and not committed: its
/// transaction holds the session's lock (on SQLite the database's write lock), as B's own
/// writes hold it. `doc` is the session with `event` last.
async fn in_flight(b: &Instance, id: SessionId, doc: &SessionDoc) -> store::Tx {
    let ledger = replay(doc).unwrap();
    let entry = ledger.events.last().unwrap();
    let mut tx = b.pool.begin_write().await.unwrap();
    store::append::lock_sessions(&mut tx, &[id]).await.unwrap();
    let body = doc.events.last().unwrap().to_string();
    let text = serde_json::to_string(entry).unwrap();
    let new = NewEvent {
        seq: entry.seq as i64,
        kind: &entry.kind,
        body: &body,
        explanation: &entry.explanation,
        postings: &entry.postings,
        recorded_at: "2026-12-05T20:00:00Z".parse().unwrap(),
        entry: &text,
    };
    store::append_event(&mut tx, id, &new).await.unwrap();
    tx
}

/// Commits `tx` once `write` (spawned) has waited a while for it: the write, done.
async fn commit_under<T: Send + 'static>(tx: store::Tx, write: tokio::task::JoinHandle<T>) -> T {
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!write.is_finished(), "the write waits for B's transaction");
    tx.commit().await.unwrap();
    write.await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_while_another_instances_write_is_in_flight_lands_after_it() {
    let (a, b) = two_instances("in_flight").await;
    let a = std::sync::Arc::new(a);
    let id = service::import(&a.pool, &empty(), None).await.unwrap();
    let mut doc = empty();
    doc.events.push(hand("A", "B", "made"));
    service::record_event(&a.pool, &a.folds, id, doc.events[0].clone(), None, None)
        .await
        .unwrap();
    // Each of A's kinds of write made while B's hand is in flight: one read and applied
    // in full (a correction), one through the group commit (a payment), one with an
    // idempotency key.
    let writes = [
        (
            json!({"type": "correction", "event": 0, "reason": "it went set",
                   "replacement": hand("A", "B", "failed")}),
            None,
        ),
        (
            json!({"type": "payment", "from": "A", "to": "B", "amount": "0.10"}),
            None,
        ),
        (hand("A", "C", "made"), Some("keyed")),
    ];
    let dealers = ["B", "C", "A"];
    for (k, (write, key)) in writes.into_iter().enumerate() {
        service::position(a.pool.reader(), &a.folds, id)
            .await
            .unwrap();
        doc.events.push(hand(dealers[k], "C", "made"));
        let tx = in_flight(&b, id, &doc).await;
        let (one, event) = (std::sync::Arc::clone(&a), write.clone());
        let key = key.map(str::to_string);
        let task = tokio::spawn(async move {
            let key = key.as_deref();
            service::record_event(&one.pool, &one.folds, id, event, None, key).await
        });
        let recorded = commit_under(tx, task)
            .await
            .unwrap_or_else(|e| panic!("{write}: {e}"));
        doc.events.push(write.clone());
        assert_eq!(
            recorded.seq,
            doc.events.len(),
            "{write} lands after B's hand"
        );
        let (balances, events) = stored(&b, id).await;
        assert_eq!(events, doc.events, "{write}: every event once, in order");
        assert_eq!(balances, ruled(&doc.events), "{write}: as the rules give");
    }
    ledgers_true(&a).await;
}

/// A club session of one hand (B made 300) in a night of its own: the club and the
/// session's id and the night's.
async fn night_of_one_hand(a: &Instance) -> (ClubId, SessionId, NightId) {
    let club = ClubId(
        engines::scalar(
            &a.pool,
            "INSERT INTO clubs (name, passphrase_hash, share_token, created_at) \
         VALUES ('Thursday', 'x', 'share', '2026-12-05T20:00:00Z') RETURNING id",
        )
        .await,
    );
    let id = session_of_one_hand(a, club).await;
    let night = nights::group(&a.pool, club, None, "Thursday", &[id])
        .await
        .unwrap();
    (club, id, night)
}

/// A session of `club` with one hand (B made 300): its id.
async fn session_of_one_hand(a: &Instance, club: ClubId) -> SessionId {
    let id = service::import(&a.pool, &empty(), Some(club))
        .await
        .unwrap();
    service::record_event(&a.pool, &a.folds, id, hand("A", "B", "made"), None, None)
        .await
        .unwrap();
    id
}

/// B's void of the one hand of session `id`, begun and not committed: once committed, a
/// night of that session alone is settled.
async fn void_in_flight(b: &Instance, id: SessionId) -> store::Tx {
    let mut doc = empty();
    doc.events.push(hand("A", "B", "made"));
    doc.events.push(json!({"type": "void", "event": 0}));
    in_flight(b, id, &doc).await
}

/// Commits B's `tx` under A's night write `task` ([`commit_under`]): the write is refused
/// (409) because the night is settled by then; the night as A reads it after.
async fn refused_as_settled<T: Send + std::fmt::Debug + 'static>(
    tx: store::Tx,
    task: tokio::task::JoinHandle<Result<T, scorekeeper::error::AppError>>,
    a: &Instance,
    (club, night): (ClubId, NightId),
) -> nights::NightView {
    let err = commit_under(tx, task).await.unwrap_err();
    assert_eq!(err.status(), 409, "{err}");
    assert!(
        err.to_string().contains("is settled: everyone is square"),
        "{err}"
    );
    nights::night(a.pool.reader(), &a.folds, club, night)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_with_money_put_in_a_night_another_instance_just_settled_is_refused() {
    let (a, b) = two_instances("night_group").await;
    let (club, id, night) = night_of_one_hand(&a).await;
    let other = session_of_one_hand(&a, club).await;
    // The night owes (B is owed 0.30) when A reads it; B's void then settles it.
    let tx = void_in_flight(&b, id).await;
    let a = std::sync::Arc::new(a);
    let one = std::sync::Arc::clone(&a);
    let task = tokio::spawn(async move {
        let at = (club, night);
        service::settled_night::group_into(&one.pool, &one.folds, at, "", &[other]).await
    });
    let view = refused_as_settled(tx, task, &a, (club, night)).await;
    let ids: Vec<SessionId> = view
        .sessions
        .iter()
        .map(|s| SessionId(s.session_id))
        .collect();
    assert_eq!(ids, [id], "the session with money stays out");
    assert!(view.settled());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_night_payment_worked_out_before_another_instances_void_is_not_written() {
    let (a, b) = two_instances("night_payment").await;
    let (club, id, night) = night_of_one_hand(&a).await;
    // Counted as if closed now (the kitty's 0.30 shared): A −0.15, B +0.30, C −0.15.
    let view = nights::night(a.pool.reader(), &a.folds, club, night)
        .await
        .unwrap();
    assert!(!view.settled());
    // B voids the hand, in flight: once committed, everyone is square and the night is
    // settled. A's payment of C's 0.15 to B, read before that commit, is refused after it.
    let tx = void_in_flight(&b, id).await;
    let a = std::sync::Arc::new(a);
    let one = std::sync::Arc::clone(&a);
    let seen = view.seen();
    let task = tokio::spawn(async move {
        nights::record_payment(
            &one.pool,
            &one.folds,
            club,
            night,
            "C",
            "B",
            "0.15",
            Some(&seen),
        )
        .await
    });
    let view = refused_as_settled(tx, task, &a, (club, night)).await;
    assert!(view.payments.is_empty(), "no payment was written");
    assert!(view.settled(), "and the night stays settled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_facts_filled_in_while_another_instance_records_a_hand_count_that_hand() {
    let (a, b) = two_instances("backfill").await;
    let (club, id, _) = night_of_one_hand(&a).await;
    // As before the history existed: no facts for the session, which is on the backlog.
    for table in ["session_results", "session_bids", "session_status"] {
        let sql = format!("DELETE FROM {table} WHERE session_id = {id}");
        engines::exec(&a.pool, &sql).await.unwrap();
    }
    let sql = format!("INSERT INTO history_backlog (session_id) VALUES ({id})");
    engines::exec(&a.pool, &sql).await.unwrap();
    // B's hand (C bids 300 and makes it) in flight while A fills the facts in from the
    // session as it read it: they are worked out again from both hands.
    let mut doc = empty();
    doc.events.push(hand("A", "B", "made"));
    doc.events.push(hand("B", "C", "made"));
    let tx = in_flight(&b, id, &doc).await;
    let a = std::sync::Arc::new(a);
    let one = std::sync::Arc::clone(&a);
    let task =
        tokio::spawn(async move { service::history::backfill(&one.pool, &one.folds, club).await });
    commit_under(tx, task).await.unwrap();
    let bids = format!(
        "SELECT CAST(SUM(hands_made) AS BIGINT) FROM session_results WHERE session_id = {id}"
    );
    assert_eq!(engines::scalar(&a.pool, &bids).await, 2, "B's bid and C's");
    let c = format!(
        "SELECT CAST(net_cents AS BIGINT) FROM session_results WHERE session_id = {id} \
         AND player = 'C'"
    );
    // C: −0.10 ante, −0.15 to B, +0.30 from A and B.
    assert_eq!(engines::scalar(&a.pool, &c).await, 5);
    let left = engines::scalar(&a.pool, "SELECT COUNT(*) FROM history_backlog").await;
    assert_eq!(left, 0);
}
