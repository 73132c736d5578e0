//! The state kept in memory after the last event equals a full replay of the stored session
//! after every event: random sessions of hands, undos, corrections, payments, refused events
//! and writes by "another process" (a second cache over the same database), recorded through
//! the cached path and compared with a fresh load-and-replay (the standing parts of the
//! ledger document, the write's answer, balances as stored, seating, dealer and the hand
//! numbering).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use proptest::prelude::*;
use scorekeeper::format::{Position, ledger_event};
use scorekeeper::ids::{ClubId, SessionId};
use scorekeeper::service::{self, Folds, Loaded, NewSessionInput, Recorded};
use scorekeeper::session::Tip;
use scorekeeper::store::WritePool;
use serde_json::{Value, json};

use crate::common::hands::{self, OUTCOMES, SUITS};

const PLAYERS: [&str; 3] = ["A", "B", "C"];

/// The numbers a hand is built from (what they mean depends on the game).
#[derive(Debug, Clone, Copy)]
struct Deal {
    passed: bool,
    bidder: usize,
    bid: i64,
    suit: usize,
    outcome: usize,
}

/// One thing done at the table.
#[derive(Debug, Clone)]
enum Step {
    Hand(Deal),
    /// Undo the event at this position among those recorded.
    Void(prop::sample::Index),
    /// Correct the event at this position with another hand by the same dealer.
    Correct(prop::sample::Index, Deal),
    /// A payment from one player to another of cents.
    Payment(usize, usize, i64),
    /// An event no rule accepts.
    Junk,
    /// The end of the sitting.
    Close,
}

fn deal() -> impl Strategy<Value = Deal> {
    (
        prop::bool::weighted(0.15),
        0usize..3,
        0i64..40,
        0usize..4,
        0usize..5,
    )
        .prop_map(|(passed, bidder, bid, suit, outcome)| Deal {
            passed,
            bidder,
            bid,
            suit,
            outcome,
        })
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => deal().prop_map(Step::Hand),
        2 => any::<prop::sample::Index>().prop_map(Step::Void),
        2 => (any::<prop::sample::Index>(), deal()).prop_map(|(i, d)| Step::Correct(i, d)),
        1 => (0usize..3, 0usize..3, 1i64..500).prop_map(|(f, t, c)| Step::Payment(f, t, c)),
        1 => Just(Step::Junk),
    ]
}

fn hand(game: &str, dealer: &str, d: Deal) -> Value {
    if game == "auction_pitch" {
        let who = |k: usize| PLAYERS[(d.bidder + k + d.suit) % 3];
        json!({"type": "hand", "dealer": dealer, "pitcher": PLAYERS[d.bidder], "bid": 2 + d.bid % 3,
               "points": {"high": who(0), "low": who(d.outcome), "jack": null, "game": who(1)}})
    } else if d.passed {
        json!({"type": "hand", "dealer": dealer, "all_passed": true})
    } else {
        json!({"type": "hand", "dealer": dealer, "bidder": PLAYERS[d.bidder],
               "bid": 250 + 10 * d.bid, "trump": SUITS[d.suit], "outcome": OUTCOMES[d.outcome]})
    }
}

/// The event a step makes, from the session as it stands.
fn event(game: &str, now: &Loaded, step: &Step) -> Value {
    let dealer = now.next_dealer.clone().unwrap_or_else(|| "A".into());
    // Mostly an event that still stands; with none, any index (which is refused).
    let standing: Vec<usize> = (0..now.events()).filter(|&i| now.fold.stands(i)).collect();
    let target = |i: &prop::sample::Index| match standing.len() {
        0 => i.index(now.events().max(1)),
        n => standing[i.index(n)],
    };
    match step {
        Step::Hand(d) => hand(game, &dealer, *d),
        Step::Void(i) => json!({"type": "void", "event": target(i)}),
        Step::Correct(i, d) => {
            let target = target(i);
            let original = now.fold.standing_event(target);
            let dealer = original
                .as_ref()
                .and_then(|e| e.get("dealer"))
                .and_then(Value::as_str)
                .unwrap_or(&dealer);
            json!({"type": "correction", "event": target, "replacement": hand(game, dealer, *d),
                   "reason": "misread"})
        }
        Step::Payment(from, to, cents) => json!({"type": "payment", "from": PLAYERS[*from],
            "to": PLAYERS[(from + 1 + to % 2) % 3], "amount": format!("{}.{:02}", cents / 100, cents % 100)}),
        Step::Junk => json!({"type": "hand", "dealer": "Nobody"}),
        Step::Close => json!({"type": "close"}),
    }
}

/// Asserts that the state `folds` keeps of session `id`, and the answer to a write when
/// there was one, equal the session read and replayed from the store.
pub(crate) async fn assert_same(
    pool: &WritePool,
    folds: &Folds,
    id: SessionId,
    recorded: Option<&Recorded>,
    after: usize,
) {
    let full = service::load(pool, &Folds::new(1), id).await.unwrap();
    let at = format!("after {after} steps");
    assert_eq!(
        full.ledger,
        scorekeeper::format::replay(&full.doc).unwrap(),
        "{at}: the ledger is replay's"
    );
    let kept = service::kept(folds, id)
        .await
        .expect("the session is cached");
    let tip = &kept.tip;
    assert_eq!(tip.events(), full.events(), "{at}: the event count");
    let expected = Position::of_tip(&Tip::of(&full.fold).unwrap());
    assert_eq!(Position::of_tip(tip), expected, "{at}: where it stands");
    assert_eq!(
        (expected.event_count, &expected.balances, expected.kitty),
        (full.events(), &full.ledger.balances, full.ledger.kitty),
        "{at}: the ledger's standing"
    );
    assert_eq!(
        service::position(pool, folds, id).await.unwrap(),
        expected,
        "{at}: the standing answer"
    );
    assert_eq!(
        tip.last_row().map(ledger_event).as_ref(),
        full.ledger.events.last(),
        "{at}: the last ledger entry"
    );
    if let Some(recorded) = recorded {
        assert_eq!(
            Some(&recorded.entry),
            full.ledger.events.last(),
            "{at}: the write's entry"
        );
        assert_eq!(recorded.position, expected, "{at}: the write's standing");
        assert_eq!(
            Some(&recorded.event),
            full.doc.events.last(),
            "{at}: the event"
        );
    }
    let stored = service::stored_balances(pool, id).await.unwrap();
    let shown: Vec<(String, i64)> = tip
        .balances()
        .as_map()
        .iter()
        .filter(|(_, m)| !m.is_zero())
        .map(|(a, m)| (a.clone(), m.cents()))
        .collect();
    let stored: Vec<(String, i64)> = stored.into_iter().filter(|(_, c)| *c != 0).collect();
    assert_eq!(
        shown, stored,
        "{at}: the balances against the stored postings"
    );
    assert_eq!(tip.table().seated(), full.seated, "{at}: who is seated");
    assert_eq!(tip.next_dealer(), full.next_dealer, "{at}: the next dealer");
    assert_eq!(tip.closed_at(), full.fold.closed_at(), "{at}: closed");
    assert_eq!(
        tip.last_hand(),
        full.fold
            .last_standing_hand()
            .and_then(|i| full.fold.hand_number(i)),
        "{at}: the last hand's number"
    );
    assert_eq!(
        tip.last_standing_hand(),
        full.fold.last_standing_hand(),
        "{at}: the hand Undo takes back"
    );
    let payments: Vec<usize> = (0..full.events())
        .filter(|&i| full.fold.standing_kind(i) == Some(scorekeeper::session::EventKind::Payment))
        .collect();
    let take_back = service::take_back(pool.reader(), folds, id).await.unwrap();
    assert_eq!(
        (take_back.last_hand, take_back.payments),
        (full.fold.last_standing_hand(), payments),
        "{at}: what the sheet may take back"
    );
    assert_eq!(tip.games(), full.fold.games(), "{at}: the games finished");
    assert_eq!(
        tip.last_finished(),
        full.fold.last_finished(),
        "{at}: the last game finished"
    );
    assert_facts(pool, &kept, &full, &at).await;
    assert_same_sheet(pool, folds, id, &full, &at).await;
    assert_same_ledger(pool, folds, id, &full, &at).await;
    // Read afresh from the store (a slimmed fold when the session has amendments), the
    // state gives the same sheet and the same history facts.
    let fresh = Folds::new(1);
    let again = format!("{at}, read afresh");
    assert_same_sheet(pool, &fresh, id, &full, &again).await;
    let kept = service::kept(&fresh, id)
        .await
        .expect("read into the cache");
    assert_facts(pool, &kept, &full, &again).await;
}

/// The ledger read from the stored entries and the cached standing equals the ledger of
/// the session replayed in full, whole and from the middle (`?after=`).
async fn assert_same_ledger(
    pool: &WritePool,
    folds: &Folds,
    id: SessionId,
    full: &Loaded,
    at: &str,
) {
    let (events, json) = service::stored_ledger(pool, folds, id, None)
        .await
        .unwrap()
        .expect("every entry is stored");
    assert_eq!(events, full.events(), "{at}: the ledger's event count");
    let stored: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        stored,
        serde_json::to_value(&full.ledger).unwrap(),
        "{at}: the stored ledger"
    );
    let half = events / 2;
    let (_, json) = service::stored_ledger(pool, folds, id, Some(half))
        .await
        .unwrap()
        .unwrap();
    let tail: Value = serde_json::from_str(&json).unwrap();
    let expected: Vec<_> = full.ledger.events.iter().filter(|e| e.seq > half).collect();
    assert_eq!(
        tail["events"],
        serde_json::to_value(expected).unwrap(),
        "{at}: the entries after {half}"
    );
}

/// The sheet page a phone reloads, built from the cached state's window of latest rows,
/// equals the page built from the session read and replayed in full: every line shown, the
/// money before them, the standing, the settle-up and its summaries, the payments, the
/// forms; and the window's parts equal the whole fold's.
async fn assert_same_sheet(
    pool: &WritePool,
    folds: &Folds,
    id: SessionId,
    full: &Loaded,
    at: &str,
) {
    use askama::Template;
    use scorekeeper::web::html::sheet::{Showing, sheet_page};
    let glance = service::glance(pool, folds, id).await.unwrap();
    let window = glance.tip.window();
    assert_eq!(
        window.summaries(),
        &scorekeeper::session::why::Summaries::of(&full.fold),
        "{at}: the settle-up summaries"
    );
    assert_eq!(
        window.payments(),
        scorekeeper::session::window::standing_payments(full.fold.rows()),
        "{at}: the payments that stand"
    );
    let values = std::collections::HashMap::new();
    let page = |showing: &Showing<'_>| {
        sheet_page(showing, &values, None, true)
            .unwrap()
            .render()
            .unwrap()
    };
    let kept = page(&Showing::of_glance(&glance));
    let whole = page(&Showing::of_loaded(full, false));
    if kept != whole {
        let first = kept
            .lines()
            .zip(whole.lines())
            .find(|(a, b)| a != b)
            .unwrap_or_default();
        panic!(
            "{at}: the sheet page from the cache differs:\n{}\n{}",
            first.0, first.1
        );
    }
}

/// For a club's session: the history facts the cache keeps, the facts as stored (written
/// by each event's difference) and the club's totals (kept by the triggers) all equal the
/// facts of the session folded in full.
async fn assert_facts(pool: &WritePool, kept: &service::Kept, full: &Loaded, at: &str) {
    let Some(club) = full.club_id else {
        assert!(
            kept.history.is_none(),
            "{at}: facts kept for a session without a club"
        );
        return;
    };
    let doc = &full.doc;
    let expected = scorekeeper::history::session_facts(
        &full.fold,
        &doc.agreements,
        &doc.players,
        doc.opening_scores.as_ref(),
    )
    .unwrap();
    let history = kept
        .history
        .as_ref()
        .expect("a club session keeps its facts");
    assert_eq!(history.facts, expected, "{at}: the facts kept");
    let mut conn = pool.acquire().await.unwrap();
    let stored = scorekeeper::store::history::stored_facts(&mut conn, full.id)
        .await
        .unwrap();
    assert_eq!(stored, expected, "{at}: the facts as stored");
    // One session in the club: its totals are that session's results.
    let totals = scorekeeper::store::history::player_totals_rows(&mut conn, club)
        .await
        .unwrap();
    let wanted: Vec<_> = expected
        .players
        .iter()
        .map(|r| {
            (
                r.player.clone(),
                doc.game.clone(),
                1,
                r.net_cents,
                r.hands_bid,
                r.hands_made,
                r.hands_set,
                r.games_won,
                r.kitties_taken,
            )
        })
        .collect();
    assert_eq!(totals, wanted, "{at}: the club's totals");
}

/// A club for the sessions of one test, written straight to the store.
pub(crate) async fn new_club(pool: &WritePool) -> i64 {
    crate::common::engines::scalar(
        pool,
        "INSERT INTO clubs (name, passphrase_hash, share_token, created_at) \
         VALUES ('Thursday', 'x', 'share', '2026-11-25T20:00:00Z') RETURNING id",
    )
    .await
}

/// Records `steps` through the cache, an elsewhere-written step through a second cache,
/// and compares after each.
fn run(game: &str, agreements: Value, steps: &[(Step, bool)], club: bool) {
    run_after(game, agreements, (0, steps), club);
}

/// [`run`] after `played` hands recorded first (a long sitting, so the cached tip's tail has
/// dropped its oldest events when the steps begin).
fn run_after(game: &str, agreements: Value, (played, steps): (usize, &[(Step, bool)]), club: bool) {
    runtime().block_on(async {
        let pool = crate::common::engines::fresh_pool().await;
        let club = match club {
            true => Some(new_club(&pool).await),
            false => None,
        };
        let Value::Object(agreements) = agreements else {
            panic!("agreements are an object")
        };
        let id = service::create_session(
            &pool,
            NewSessionInput {
                game: game.into(),
                players: PLAYERS.iter().map(|p| p.to_string()).collect(),
                agreements: agreements.clone(),
                currency: None,
                opening_scores: None,
            },
            club.map(ClubId),
        )
        .await
        .unwrap();
        let folds = Folds::new(4);
        let elsewhere = Folds::new(4);
        for k in 0..played {
            let now = service::load(&pool, &folds, id).await.unwrap();
            let dealer = now.next_dealer.clone().unwrap_or_else(|| "A".into());
            let d = Deal {
                passed: false,
                bidder: k % 3,
                bid: (k * 7) as i64 % 40,
                suit: k % 4,
                outcome: k % 5,
            };
            let raw = hand(game, &dealer, d);
            service::record_event(&pool, &folds, id, raw, None, None)
                .await
                .unwrap();
        }
        for (n, (step, other_process)) in steps.iter().enumerate() {
            let cache = if *other_process { &elsewhere } else { &folds };
            let (raw, events) = {
                let now = service::load(&pool, cache, id).await.unwrap();
                (event(game, &now, step), now.events())
            };
            // A refused step must leave the cache as it was: checked just below.
            if let Ok(recorded) =
                service::record_event(&pool, cache, id, raw, Some(events), None).await
            {
                assert_eq!(recorded.seq, events + 1);
                assert_eq!(recorded.position.event_count, events + 1);
                assert_same(&pool, cache, id, Some(&recorded), n).await;
            }
            // The standing read here notices a write elsewhere and folds the store again.
            service::position(&pool, &folds, id).await.unwrap();
            assert_same(&pool, &folds, id, None, n).await;
        }
    });
}

/// Random steps, each written here or (one in ten) by another process, then maybe a close
/// and a payment after it.
fn steps() -> impl Strategy<Value = Vec<(Step, bool)>> {
    (
        prop::collection::vec((step(), prop::bool::weighted(0.1)), 1..30),
        any::<bool>(),
    )
        .prop_map(|(mut steps, close)| {
            if close {
                steps.push((Step::Close, false));
                steps.push((Step::Payment(0, 1, 25), false));
            }
            steps
        })
}

/// Sequences per property: 24 on SQLite; 10 on PostgreSQL, where the cache's logic is the
/// same and what is checked is the store under it (each step replays the session in full,
/// so a case costs about three times as much there).
fn cases() -> u32 {
    match std::env::var("SCOREKEEPER_TEST_ENGINE").as_deref() {
        Ok("postgres") => 10,
        _ => 24,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn the_cached_pinochle_session_equals_its_full_replay(steps in steps(), club: bool) {
        run("auction_pinochle", json!({"stake": "0.05", "kitty": "pot"}), &steps, club);
    }

    // Games of 5 points end every few hands, so corrections reach back across game ends.
    #[test]
    fn the_cached_pitch_session_equals_its_full_replay(steps in steps(), club: bool) {
        run("auction_pitch", json!({"stake": "0.05", "target": 5}), &steps, club);
    }
}

proptest! {
    // 90 hands, then random steps: the tail has dropped its oldest 32 (at 64 standing) and
    // undos and corrections land within it and before it.
    #![proptest_config(ProptestConfig::with_cases(3))]

    #[test]
    fn a_long_cached_pitch_club_session_equals_its_full_replay(steps in steps()) {
        let agreements = json!({"stake": "0.05", "target": 5});
        run_after("auction_pitch", agreements, (90, &steps), true);
    }
}

/// A runtime for one test's store and service calls.
pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A session of `game` with `agreements`, [`PLAYERS`] seated and no event yet.
fn empty(game: &str, agreements: Value) -> scorekeeper::format::SessionDoc {
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": game,
        "agreements": agreements, "players": PLAYERS, "events": []
    }))
    .unwrap()
}

/// A fresh store holding one [`empty`] session of `game`: the store and the session's id.
async fn fresh_session(game: &str, agreements: Value) -> (WritePool, SessionId) {
    let pool = crate::common::engines::fresh_pool().await;
    let id = service::import(&pool, &empty(game, agreements), None)
        .await
        .unwrap();
    (pool, id)
}

/// A refused event leaves the cached session as it was, and the next event goes on from
/// there; a write by another process is noticed by the count and replayed.
#[test]
fn a_refusal_and_a_write_elsewhere_keep_the_cache_true() {
    runtime().block_on(async {
        let (pool, id) =
            fresh_session("auction_pinochle", json!({"stake": "0.05", "kitty": "pot"})).await;
        let folds = Folds::new(2);
        let elsewhere = Folds::new(2);
        let made = |dealer: &str| {
            hand(
                "auction_pinochle",
                dealer,
                Deal {
                    passed: false,
                    bidder: 1,
                    bid: 0,
                    suit: 0,
                    outcome: 0,
                },
            )
        };
        service::record_event(&pool, &folds, id, made("A"), None, None)
            .await
            .unwrap();
        let before = service::load(&pool, &folds, id)
            .await
            .unwrap()
            .ledger
            .clone();
        let err = service::record_event(
            &pool,
            &folds,
            id,
            json!({"type": "hand", "dealer": "Nobody"}),
            None,
            None,
        )
        .await
        .unwrap_err();
        assert_eq!(err.status(), 422, "{err}");
        assert_eq!(
            service::load(&pool, &folds, id).await.unwrap().ledger,
            before
        );
        // Another process records hand 2; this cache still holds one event.
        service::record_event(&pool, &elsewhere, id, made("B"), None, None)
            .await
            .unwrap();
        let now = service::load(&pool, &folds, id).await.unwrap();
        assert_eq!(now.events(), 2, "the read notices the write elsewhere");
        drop(now);
        let third = service::record_event(&pool, &elsewhere, id, made("C"), None, None)
            .await
            .unwrap();
        drop(third);
        let recorded = service::record_event(&pool, &folds, id, made("A"), None, None)
            .await
            .unwrap();
        assert_eq!(recorded.seq, 4, "the write notices the writes elsewhere");
        assert_same(&pool, &folds, id, Some(&recorded), 4).await;
    });
}

/// A correction and an undo reaching far back past the state the cache keeps are folded
/// from the store's whole session; the state kept after them, and the plain hands recorded
/// on it afterwards (numbered after the hands that stand), equal a full replay.
#[test]
fn a_correction_reaching_back_equals_a_full_replay() {
    runtime().block_on(async {
        let (pool, id) =
            fresh_session("auction_pinochle", json!({"stake": "0.05", "kitty": "pot"})).await;
        let folds = Folds::new(2);
        let deal = |bid: i64, outcome: usize| Deal {
            passed: false,
            bidder: 1,
            bid,
            suit: 1,
            outcome,
        };
        let mut step = 0;
        for i in 0..25 {
            let dealer = PLAYERS[i % 3];
            let event = hand("auction_pinochle", dealer, deal(i as i64 % 12, i % 2));
            let recorded = service::record_event(&pool, &folds, id, event, None, None)
                .await
                .unwrap();
            step += 1;
            assert_same(&pool, &folds, id, Some(&recorded), step).await;
        }
        let amendments = [
            json!({"type": "correction", "event": 1, "reason": "misread",
                   "replacement": hand("auction_pinochle", "B", deal(15, 1))}),
            json!({"type": "void", "event": 24}),
            json!({"type": "void", "event": 3}),
        ];
        for event in amendments {
            let recorded = service::record_event(&pool, &folds, id, event, None, None)
                .await
                .unwrap();
            step += 1;
            assert_same(&pool, &folds, id, Some(&recorded), step).await;
        }
        let next = service::kept(&folds, id).await.unwrap().tip.next_dealer();
        let event = hand("auction_pinochle", next.as_deref().unwrap(), deal(3, 0));
        let recorded = service::record_event(&pool, &folds, id, event, None, None)
            .await
            .unwrap();
        assert_same(&pool, &folds, id, Some(&recorded), step + 1).await;
        // Hand 25 was undone: the hand after it takes its number again.
        assert_eq!(
            service::kept(&folds, id).await.unwrap().tip.last_hand(),
            Some(25)
        );
    });
}

/// Records made at once on several sessions share one commit; among them a record the rules
/// refuse writes nothing and leaves its cached session as it was, a record made on a state
/// that another process moved on is read again and lands after that write, and every cached
/// session equals its full replay afterwards.
#[test]
fn records_made_at_once_commit_together_and_each_stays_true() {
    runtime().block_on(async {
        let pool = crate::common::engines::fresh_pool().await;
        let doc = empty("auction_pinochle", json!({"stake": "0.05", "kitty": "pot"}));
        let folds = Folds::new(8);
        let elsewhere = Folds::new(8);
        let made = |dealer: &str, bid: i64| {
            hand(
                "auction_pinochle",
                dealer,
                Deal {
                    passed: false,
                    bidder: 1,
                    bid,
                    suit: 2,
                    outcome: (bid % 2) as usize,
                },
            )
        };
        let mut ids = Vec::new();
        for s in 0..5 {
            let id = service::import(&pool, &doc, None).await.unwrap();
            for i in 0..s + 2 {
                service::record_event(
                    &pool,
                    &folds,
                    id,
                    made(PLAYERS[i % 3], i as i64),
                    None,
                    None,
                )
                .await
                .unwrap();
            }
            ids.push(id);
        }
        // Another process records a hand in session 3: this cache still holds the state
        // before it.
        let moved = ids[3];
        let next = service::load(&pool, &elsewhere, moved)
            .await
            .unwrap()
            .next_dealer
            .clone();
        service::record_event(
            &pool,
            &elsewhere,
            moved,
            made(next.as_deref().unwrap(), 7),
            None,
            None,
        )
        .await
        .unwrap();
        let mut events = Vec::new();
        for (s, &id) in ids.iter().enumerate() {
            let kept = service::kept(&folds, id).await.unwrap();
            let event = if s == 1 {
                json!({"type": "hand", "dealer": "Nobody"})
            } else {
                made(kept.tip.next_dealer().as_deref().unwrap(), 3)
            };
            events.push((id, kept.events(), event));
        }
        let commits = folds.committer().commits();
        let tasks: Vec<_> = events
            .iter()
            .cloned()
            .map(|(id, _, event)| {
                let (pool, folds) = (pool.clone(), folds.clone());
                tokio::spawn(async move {
                    service::record_event(&pool, &folds, id, event, None, None).await
                })
            })
            .collect();
        let mut answers = Vec::new();
        for t in tasks {
            answers.push(t.await.unwrap());
        }
        // Sessions 0, 2 and 4 in one commit; session 3's record, stale there, is read again
        // and committed after it, in a group of its own.
        assert_eq!(
            folds.committer().commits(),
            commits + 2,
            "one commit for the group, one for the record read again"
        );
        for (s, ((id, before, _), answer)) in events.iter().zip(&answers).enumerate() {
            match s {
                1 => {
                    let err = answer.as_ref().unwrap_err();
                    assert_eq!(err.status(), 422, "{err}");
                    assert_eq!(service::event_count(&pool, *id).await.unwrap(), *before);
                    assert_same(&pool, &folds, *id, None, s).await;
                }
                3 => {
                    let recorded = answer.as_ref().unwrap();
                    assert_eq!(recorded.seq, before + 2, "after the write elsewhere");
                    assert_same(&pool, &folds, *id, Some(recorded), s).await;
                }
                _ => {
                    let recorded = answer.as_ref().unwrap();
                    assert_eq!(recorded.seq, before + 1);
                    assert_same(&pool, &folds, *id, Some(recorded), s).await;
                }
            }
        }
    });
}

/// The game a hand form is read by comes from the cached state, or without one from the
/// session's header; a session that does not exist is not found.
#[test]
fn the_game_of_a_session_is_known_with_or_without_the_cache() {
    runtime().block_on(async {
        let (pool, id) =
            fresh_session("auction_pitch", json!({"stake": "0.05", "target": 5})).await;
        let folds = Folds::new(2);
        assert_eq!(
            service::game(&pool, &folds, id).await.unwrap().id,
            "auction_pitch"
        );
        assert!(
            service::kept(&folds, id).await.is_none(),
            "not read into the cache"
        );
        service::position(&pool, &folds, id).await.unwrap();
        assert!(service::kept(&folds, id).await.is_some());
        assert_eq!(
            service::game(&pool, &folds, id).await.unwrap().id,
            "auction_pitch"
        );
        let Err(missing) = service::game(&pool, &folds, SessionId(id.0 + 1)).await else {
            panic!("a session that does not exist has a game")
        };
        assert_eq!(missing.status(), 404, "{missing}");
    });
}

/// Every game's long session is one the rules accept, and the games that end do end in it,
/// many times: what the benchmark and the test below play.
#[test]
fn every_games_long_session_replays_with_many_game_ends() {
    for (game, players, agreements) in hands::games() {
        let doc: scorekeeper::format::SessionDoc =
            serde_json::from_value(hands::session(game, players, &agreements, 300)).unwrap();
        let ledger = scorekeeper::format::replay(&doc)
            .unwrap_or_else(|r| panic!("{game}: the long session is refused: {r}"));
        let ends = ledger.games.len();
        let ending = !matches!(game, "auction_pinochle" | "poker");
        assert!(
            !ending || ends >= 10,
            "{game}: {ends} games ended in 300 hands"
        );
    }
}

/// Every game in a club's session, 40 hands recorded through the cache, then a correction
/// of hand 3 that reaches back across the games finished since, the undo of the last hand
/// and the same hand again; after each, the cached state, the history facts as stored and
/// the club's totals equal the session replayed in full.
#[test]
fn every_games_club_session_keeps_its_facts_by_difference() {
    for (game, players, agreements) in hands::games() {
        runtime().block_on(async {
            let pool = crate::common::engines::fresh_pool().await;
            let club = new_club(&pool).await;
            let header: scorekeeper::format::SessionDoc =
                serde_json::from_value(hands::session(game, players, &agreements, 0)).unwrap();
            let id = service::import(&pool, &header, Some(ClubId(club)))
                .await
                .unwrap();
            let folds = Folds::new(2);
            let record = |event: Value, n: usize| {
                let (pool, folds) = (&pool, &folds);
                async move {
                    let recorded = service::record_event(pool, folds, id, event, None, None)
                        .await
                        .unwrap_or_else(|e| panic!("{game}: step {n} refused: {e}"));
                    assert_same(pool, folds, id, Some(&recorded), n).await;
                }
            };
            // Past the sheet's window of latest lines, so rows leave it.
            let last = 59;
            for n in 0..=last {
                record(hands::hand(game, players, n), n).await;
            }
            // Hand 3 as hand 7 was played (same dealer seat, another bidder and outcome).
            let mut replacement = hands::hand(game, players, 7);
            if let Some(dealer) = hands::hand(game, players, 3).get("dealer") {
                replacement["dealer"] = dealer.clone();
            }
            let correction = json!({"type": "correction", "event": 3,
                "replacement": replacement, "reason": "read again"});
            record(correction, last + 1).await;
            record(json!({"type": "void", "event": last}), last + 2).await;
            record(hands::hand(game, players, last), last + 3).await;
        });
    }
}

/// A correction far back in a long session (the fold keeps a state every few dozen
/// events and replays the rest) ends where the session would stand had the corrected
/// hand been entered so in the first place: the same balances, scores, checks and games.
#[test]
fn a_correction_far_back_ends_as_if_entered_so() {
    for (game, players, agreements) in hands::games() {
        let mut corrected = hands::session(game, players, &agreements, 100);
        let mut replacement = hands::hand(game, players, 77);
        if let Some(dealer) = hands::hand(game, players, 73).get("dealer") {
            replacement["dealer"] = dealer.clone();
        }
        let mut entered = corrected.clone();
        entered["events"][73] = replacement.clone();
        corrected["events"].as_array_mut().unwrap().push(json!({
            "type": "correction", "event": 73, "replacement": replacement}));
        let ledger = |doc: Value| {
            let doc: scorekeeper::format::SessionDoc = serde_json::from_value(doc).unwrap();
            scorekeeper::format::replay(&doc).unwrap_or_else(|r| panic!("{game}: {r}"))
        };
        let (a, b) = (ledger(corrected), ledger(entered));
        assert_eq!(a.balances, b.balances, "{game}: balances");
        assert_eq!(a.scores, b.scores, "{game}: scores");
        assert_eq!(a.checks, b.checks, "{game}: checks");
        assert_eq!(a.games, b.games, "{game}: games");
    }
}
