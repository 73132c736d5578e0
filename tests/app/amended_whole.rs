//! A session amended before its cached tip's tail stays folded whole for its next such
//! amendment (`Folds::take_whole`): brought up to the events stored since, by this process
//! or another, it ends where a full replay ends; a refused amendment leaves it as it was;
//! another session's amendment takes its place.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use scorekeeper::error::AppError;
use scorekeeper::ids::{ClubId, SessionId};
use scorekeeper::service::{self, Folds};
use scorekeeper::store::WritePool;
use serde_json::{Value, json};

use crate::cached_fold::{assert_same, new_club, runtime};
use crate::common::hands;

/// Hands before the amendments: past two tails (`TAIL` is 32), so hand 1 is far behind.
const PLAYED: usize = 90;

/// Records `event` into session `id` through `folds` and checks the state `folds` keeps
/// against a full replay; `step` names the step in a failure.
async fn record(pool: &WritePool, folds: &Folds, id: SessionId, event: Value, step: &str) {
    let recorded = service::record_event(pool, folds, id, event, None, None)
        .await
        .unwrap_or_else(|e| panic!("{step}: refused: {e}"));
    assert_same(pool, folds, id, Some(&recorded), recorded.seq).await;
}

/// Asserts that `folds` keeps session `id` folded whole through `events` events.
fn assert_kept_whole(folds: &Folds, id: SessionId, events: usize, at: &str) {
    assert_eq!(folds.kept_whole(), Some((id, events)), "{at}");
}

/// A correction of event `target` in a session of `game` as [`hands::hand`] made it: the
/// hand `as_hand` would be, dealt by the same dealer.
fn correction(game: &str, players: &[&str], target: usize, as_hand: usize) -> Value {
    let mut replacement = hands::hand(game, players, as_hand);
    if let Some(dealer) = hands::hand(game, players, target).get("dealer") {
        replacement["dealer"] = dealer.clone();
    }
    json!({"type": "correction", "event": target, "replacement": replacement})
}

#[test]
fn amendments_reaching_back_one_after_another_equal_a_full_replay() {
    for (game, players, agreements) in hands::games()
        .into_iter()
        .filter(|(g, _, _)| matches!(*g, "auction_pitch" | "check_pinochle"))
    {
        runtime().block_on(async {
            let pool = crate::common::engines::fresh_pool().await;
            let club = new_club(&pool).await;
            let header: scorekeeper::format::SessionDoc =
                serde_json::from_value(hands::session(game, players, &agreements, 0)).unwrap();
            let a = service::import(&pool, &header, Some(ClubId(club)))
                .await
                .unwrap();
            let b = service::import(&pool, &header, None).await.unwrap();
            let (folds, elsewhere) = (Folds::new(4), Folds::new(4));
            for n in 0..PLAYED {
                let hand = hands::hand(game, players, n);
                for id in [a, b] {
                    service::record_event(&pool, &folds, id, hand.clone(), None, None)
                        .await
                        .unwrap();
                }
            }
            let step = |s: &str| format!("{game}: {s}");
            record(
                &pool,
                &folds,
                a,
                correction(game, players, 0, 7),
                &step("hand 1"),
            )
            .await;
            assert_kept_whole(&folds, a, PLAYED + 1, game);
            assert_eq!(folds.whole_reads(), 1, "{game}: read whole once");
            for n in PLAYED..PLAYED + 3 {
                let hand = hands::hand(game, players, n);
                record(&pool, &folds, a, hand, &step("a hand after it")).await;
            }
            // Three events behind: caught up, then amended again.
            record(
                &pool,
                &folds,
                a,
                correction(game, players, 1, 8),
                &step("hand 2"),
            )
            .await;
            assert_kept_whole(&folds, a, PLAYED + 5, game);
            assert_eq!(
                folds.whole_reads(),
                1,
                "{game}: hand 2 amends the fold kept"
            );
            // Another process records a hand; this one's tip and whole fold are both behind.
            let hand = hands::hand(game, players, PLAYED + 3);
            record(&pool, &elsewhere, a, hand, &step("a hand elsewhere")).await;
            let void = json!({"type": "void", "event": 2});
            record(&pool, &folds, a, void, &step("hand 3 undone")).await;
            assert_kept_whole(&folds, a, PLAYED + 7, game);
            assert_eq!(
                folds.whole_reads(),
                1,
                "{game}: caught up with the hand elsewhere"
            );
            // Refused (no such dealer): nothing written, the whole fold kept as it was.
            let mut refused = correction(game, players, 4, 9);
            refused["replacement"]["dealer"] = json!("Nobody");
            let answer = service::record_event(&pool, &folds, a, refused, None, None).await;
            assert!(
                matches!(answer, Err(AppError::Refused(_))),
                "{game}: {answer:?}"
            );
            assert_same(&pool, &folds, a, None, PLAYED + 7).await;
            assert_kept_whole(&folds, a, PLAYED + 7, game);
            assert_eq!(folds.whole_reads(), 1, "{game}: the refusal");
            // Another session's amendment takes its place; then this one is folded anew.
            record(
                &pool,
                &folds,
                b,
                correction(game, players, 0, 9),
                &step("b's hand 1"),
            )
            .await;
            assert_kept_whole(&folds, b, PLAYED + 1, game);
            record(
                &pool,
                &folds,
                a,
                correction(game, players, 4, 9),
                &step("hand 5"),
            )
            .await;
            assert_kept_whole(&folds, a, PLAYED + 8, game);
            assert_eq!(folds.whole_reads(), 3, "{game}: b's, then a's anew");
        });
    }
}

/// A session where every deal is a game (the Auction game) is not kept folded whole: such a
/// fold weighs several times another's. Its amendments reaching back read it whole each time.
#[test]
fn a_session_of_a_game_a_deal_is_not_kept_whole() {
    let (game, players, agreements) = hands::games()
        .into_iter()
        .find(|(g, _, _)| *g == "auction_game")
        .unwrap();
    runtime().block_on(async {
        let pool = crate::common::engines::fresh_pool().await;
        let header: scorekeeper::format::SessionDoc =
            serde_json::from_value(hands::session(game, players, &agreements, 0)).unwrap();
        let id = service::import(&pool, &header, None).await.unwrap();
        let folds = Folds::new(4);
        for n in 0..PLAYED {
            let hand = hands::hand(game, players, n);
            record(&pool, &folds, id, hand, &format!("hand {}", n + 1)).await;
        }
        record(&pool, &folds, id, correction(game, players, 0, 7), "hand 1").await;
        assert_eq!(folds.kept_whole(), None);
        record(&pool, &folds, id, correction(game, players, 1, 8), "hand 2").await;
        assert_eq!(folds.whole_reads(), 2);
    });
}
