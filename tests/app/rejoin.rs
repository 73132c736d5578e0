//! A correction far back whose replay meets the session as it stood (the same engine state
//! but for the balances) takes the rest of the session shifted instead of replaying it.
//! Whatever it took must be what replaying would give: these sessions are compared with
//! the same hands entered so from the start, through later amendments that restart from
//! the states it shifted, and the next hand.

use scorekeeper::format::{self, SessionDoc};
use scorekeeper::history::SessionFacts;
use scorekeeper::session::Fold;
use serde_json::{Value, json};

use crate::common::hands;

/// Hands in each session: several kept states (one every 32 events) after each amendment.
const HANDS: usize = 300;

/// A hand to correct hand `at` (0-based) of `doc` with: the first of the hands after it,
/// dealt by the same dealer, that the session takes there and that leaves it otherwise.
pub(crate) fn replacement(game: &str, players: &[&str], doc: &Value, at: usize) -> Value {
    let standing = |doc: &Value| {
        let l = format::replay(&read(doc)).ok()?;
        Some((l.balances, l.scores, l.games))
    };
    let before = standing(doc);
    (at + 1..at + 24)
        .map(|i| {
            let mut hand = hands::hand(game, players, i);
            if let Some(dealer) = doc["events"][at].get("dealer") {
                hand["dealer"] = dealer.clone();
            }
            hand
        })
        .find(|hand| {
            let mut tried = doc.clone();
            tried["events"][at] = hand.clone();
            standing(&tried).is_some_and(|now| Some(now) != before)
        })
        .unwrap_or_else(|| panic!("{game}: no other hand fits at {at}"))
}

/// What the club's history counts of `fold`, the session `doc` folded.
pub(crate) fn facts(fold: &Fold, doc: &SessionDoc) -> SessionFacts {
    scorekeeper::history::session_facts(
        fold,
        &doc.agreements,
        &doc.players,
        doc.opening_scores.as_ref(),
    )
    .unwrap()
}

/// The session document `doc` as JSON, read.
fn read(doc: &Value) -> SessionDoc {
    serde_json::from_value(doc.clone()).unwrap()
}

/// Asserts that `amended` (with its amendments) and `entered` (the same hands entered so)
/// stand alike: balances, scores (and those the sheet shows last), checks, games, the
/// club's history facts, the engine and the seating.
fn assert_alike(game: &str, amended: &Value, entered: &Value, at: &str) {
    let (a, b) = (read(amended), read(entered));
    let (la, lb) = (format::replay(&a).unwrap(), format::replay(&b).unwrap());
    assert_eq!(la.balances, lb.balances, "{game}, {at}: balances");
    assert_eq!(la.scores, lb.scores, "{game}, {at}: scores");
    assert_eq!(la.checks, lb.checks, "{game}, {at}: checks");
    assert_eq!(la.games, lb.games, "{game}, {at}: games");
    let (fa, fb) = (
        format::replay::fold(&a).unwrap(),
        format::replay::fold(&b).unwrap(),
    );
    assert_eq!(
        facts(&fa, &a),
        facts(&fb, &b),
        "{game}, {at}: history facts"
    );
    assert!(fa.engine().same_state(fb.engine()), "{game}, {at}: engine");
    // The running scores the sheet shows last: an amendment's row shows them as they stand.
    let shown = |fold: &scorekeeper::session::Fold| {
        fold.rows()
            .iter()
            .rev()
            .find_map(|r| r.scores_after.clone())
    };
    assert_eq!(
        shown(&fa),
        shown(&fb),
        "{game}, {at}: the scores shown last"
    );
    assert_eq!(fa.table(), fb.table(), "{game}, {at}: seating");
}

/// Corrections of hand 2 and of hand 150, an undo of hand 200 and a correction of hand 260
/// of every game's long session, each checked against the hands entered so, then the next
/// hand on both, 40 payments and a correction of hand 10.
#[test]
fn a_replay_that_meets_the_session_ends_as_if_the_hands_were_entered_so() {
    for (game, players, agreements) in hands::games() {
        let mut amended = hands::session(game, players, &agreements, HANDS);
        let mut entered = amended.clone();
        let mut correct = |at: usize, what: &str| {
            let hand = replacement(game, players, &entered, at);
            entered["events"][at] = hand.clone();
            amended["events"].as_array_mut().unwrap().push(json!({
                "type": "correction", "event": at, "replacement": hand}));
            assert_alike(game, &amended, &entered, what);
        };
        correct(2, "hand 3 corrected");
        correct(150, "hand 151 corrected");
        // An undo in `entered` is the hand left out; the hands after it keep their order.
        amended["events"]
            .as_array_mut()
            .unwrap()
            .push(json!({"type": "void", "event": 200}));
        let kept: Vec<Value> = entered["events"].as_array().unwrap().clone();
        let dropped: Vec<Value> = kept
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != 200)
            .map(|(_, e)| e.clone())
            .collect();
        let mut after_void = entered.clone();
        after_void["events"] = Value::Array(dropped);
        assert_alike(game, &amended, &after_void, "hand 201 undone");
        // Hand 261 is event 260 of `amended` and event 259 once hand 201 is left out.
        let hand = replacement(game, players, &after_void, 259);
        after_void["events"][259] = hand.clone();
        amended["events"].as_array_mut().unwrap().push(json!({
            "type": "correction", "event": 260, "replacement": hand}));
        assert_alike(game, &amended, &after_void, "hand 261 corrected");
        let next = hands::hand(game, players, HANDS);
        for doc in [&mut amended, &mut after_void] {
            doc["events"].as_array_mut().unwrap().push(next.clone());
        }
        assert_alike(game, &amended, &after_void, "the next hand");
        // Payments keep no scores: after 40 of them the sheet still shows the last hand's.
        let payment = json!({"type": "payment", "from": players[0], "to": players[1],
                             "amount": "0.05"});
        for doc in [&mut amended, &mut after_void] {
            let events = doc["events"].as_array_mut().unwrap();
            events.extend(std::iter::repeat_n(payment.clone(), 40));
        }
        let hand = replacement(game, players, &after_void, 9);
        after_void["events"][9] = hand.clone();
        amended["events"].as_array_mut().unwrap().push(json!({
            "type": "correction", "event": 9, "replacement": hand}));
        assert_alike(
            game,
            &amended,
            &after_void,
            "hand 10 corrected after payments",
        );
    }
}
