//! A session amended before its cached tip's tail stays folded whole for its next such
//! amendment (`Folds::take_whole`): brought up to the events stored since, by this process
//! or another, it ends where a full replay ends; a refused amendment leaves it as it was;
//! another session's amendment takes its place; a session where every deal is a game is not
//! kept.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use scorekeeper::error::AppError;
use scorekeeper::ids::{ClubId, SessionId};
use scorekeeper::service::{self, Folds, WhatIf};
use scorekeeper::session::NewEvent;
use scorekeeper::store::WritePool;
use serde_json::{Value, json};

use crate::cached_fold::{assert_same, new_club, runtime};
use crate::common::hands;

/// Hands before the amendments: past two tails (`TAIL` is 32), so hand 1 is far behind.
pub(crate) const PLAYED: usize = 90;

/// Records `event` into session `id` through `folds` and checks the state `folds` keeps
/// against a full replay; `step` names the step in a failure.
async fn record(pool: &WritePool, folds: &Folds, id: SessionId, event: Value, step: &str) {
    let recorded = service::record_event(pool, folds, id, event, None, None)
        .await
        .unwrap_or_else(|e| panic!("{step}: refused: {e}"));
    assert_same(pool, folds, id, Some(&recorded), recorded.seq).await;
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

/// The players of `game`'s long session in [`hands`].
pub(crate) fn seated(game: &str) -> &'static [&'static str] {
    let found = hands::games().into_iter().find(|(g, _, _)| *g == game);
    found.map(|(_, players, _)| players).unwrap()
}

/// A fresh store with a session of `game` for each of `clubs` (`true`: in a club of its
/// own), each given [`PLAYED`] hands through `folds`: the store and the sessions.
pub(crate) async fn played(
    game: &str,
    folds: &Folds,
    clubs: &[bool],
) -> (WritePool, Vec<SessionId>) {
    let (_, players, agreements) = hands::games()
        .into_iter()
        .find(|(g, _, _)| *g == game)
        .unwrap();
    let pool = crate::common::engines::fresh_pool().await;
    let header: scorekeeper::format::SessionDoc =
        serde_json::from_value(hands::session(game, players, &agreements, 0)).unwrap();
    let mut ids = Vec::new();
    for &in_club in clubs {
        let club = match in_club {
            true => Some(ClubId(new_club(&pool).await)),
            false => None,
        };
        ids.push(service::import(&pool, &header, club).await.unwrap());
    }
    for n in 0..PLAYED {
        for &id in &ids {
            let hand = hands::hand(game, players, n);
            service::record_event(&pool, folds, id, hand, None, None)
                .await
                .unwrap();
        }
    }
    (pool, ids)
}

/// Corrections and an undo of early hands one after another, with hands between, one
/// recorded by another process, a refused correction and another session's correction:
/// after each the cached state equals a full replay, and the session is read whole from
/// the store only when no fold of it is kept.
#[test]
fn amendments_reaching_back_one_after_another_equal_a_full_replay() {
    for game in ["auction_pitch", "check_pinochle"] {
        let players = seated(game);
        runtime().block_on(async {
            let (folds, elsewhere) = (Folds::new(4), Folds::new(4));
            let (pool, ids) = played(game, &folds, &[true, false]).await;
            let (a, b) = (ids[0], ids[1]);
            let step = |s: &str| format!("{game}: {s}");
            let fix = |target, as_hand| correction(game, players, target, as_hand);
            record(&pool, &folds, a, fix(0, 7), &step("hand 1")).await;
            assert_eq!(folds.kept_whole(), Some((a, PLAYED + 1)), "{game}");
            assert_eq!(folds.whole_reads(), 1, "{game}: read whole once");
            for n in PLAYED..PLAYED + 3 {
                let hand = hands::hand(game, players, n);
                record(&pool, &folds, a, hand, &step("a hand after it")).await;
            }
            // Three events behind: caught up, then amended again.
            record(&pool, &folds, a, fix(1, 8), &step("hand 2")).await;
            assert_eq!(folds.kept_whole(), Some((a, PLAYED + 5)), "{game}");
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
            assert_eq!(folds.kept_whole(), Some((a, PLAYED + 7)), "{game}");
            assert_eq!(
                folds.whole_reads(),
                1,
                "{game}: caught up with the hand elsewhere"
            );
            // Refused (no such dealer): nothing written, the whole fold kept as it was.
            let mut refused = fix(4, 9);
            refused["replacement"]["dealer"] = json!("Nobody");
            let answer = service::record_event(&pool, &folds, a, refused, None, None).await;
            assert!(
                matches!(answer, Err(AppError::Refused(_))),
                "{game}: {answer:?}"
            );
            assert_same(&pool, &folds, a, None, PLAYED + 7).await;
            assert_eq!(folds.kept_whole(), Some((a, PLAYED + 7)), "{game}");
            assert_eq!(folds.whole_reads(), 1, "{game}: the refusal");
            // Another session's amendment takes its place; then this one is folded anew.
            record(&pool, &folds, b, fix(0, 9), &step("b's hand 1")).await;
            assert_eq!(folds.kept_whole(), Some((b, PLAYED + 1)), "{game}");
            record(&pool, &folds, a, fix(4, 9), &step("hand 5")).await;
            assert_eq!(folds.kept_whole(), Some((a, PLAYED + 8)), "{game}");
            assert_eq!(folds.whole_reads(), 3, "{game}: b's, then a's anew");
        });
    }
}

/// A session where every deal is a game (the Auction game) is not kept folded whole: such a
/// fold weighs several times another's. Its amendments reaching back read it whole each time.
#[test]
fn a_session_of_a_game_a_deal_is_not_kept_whole() {
    let game = "auction_game";
    let players = seated(game);
    runtime().block_on(async {
        let folds = Folds::new(4);
        let (pool, ids) = played(game, &folds, &[false]).await;
        let fix = |target, as_hand| correction(game, players, target, as_hand);
        record(&pool, &folds, ids[0], fix(0, 7), "hand 1").await;
        assert_eq!(folds.kept_whole(), None);
        record(&pool, &folds, ids[0], fix(1, 8), "hand 2").await;
        assert_eq!(folds.whole_reads(), 2);
    });
}

/// The correction form's previews of a correction reaching back, shown while it is typed,
/// and the correction recorded after them read the session whole once between them; the
/// previews change nothing.
#[test]
fn previews_of_a_correction_reaching_back_and_the_correction_read_the_session_once() {
    let game = "auction_pitch";
    let players = seated(game);
    runtime().block_on(async {
        let folds = Folds::new(4);
        let (pool, ids) = played(game, &folds, &[true]).await;
        let id = ids[0];
        for as_hand in [7, 8, 9] {
            let mut copy = WhatIf::load(pool.reader(), &folds, id, Some(0))
                .await
                .unwrap();
            let event = NewEvent::from(correction(game, players, 0, as_hand));
            copy.apply(&event, Some(PLAYED)).unwrap();
        }
        assert_eq!(folds.whole_reads(), 1, "the previews read it whole once");
        assert_same(&pool, &folds, id, None, PLAYED).await;
        record(&pool, &folds, id, correction(game, players, 0, 9), "hand 1").await;
        assert_eq!(folds.whole_reads(), 1, "the correction took the fold kept");
    });
}
