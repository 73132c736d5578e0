//! A tip that applies undos and corrections within its tail ends where the whole fold of
//! the same events ends: the state, the sheet's window and the club's facts, through game
//! ends (Pitch to 5) and the kitty (Auction Pinochle, rules §1.2), for sequences long
//! enough that the tail drops its oldest events again and again; and the hand numbers
//! [`HandNumbers`] keeps from the events' types are the whole fold's.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::{Fold, HandNumbers, TAIL, Tip};
use crate::format::Position;
use crate::history::{SessionFacts, session_facts, session_facts_replayed, tail_facts};

const PLAYERS: [&str; 3] = ["Ann", "Bob", "Cy"];
const SUITS: [&str; 4] = ["hearts", "spades", "clubs", "diamonds"];
const OUTCOMES: [&str; 3] = ["made", "failed", "conceded"];

/// One thing the scorekeeper does; `back` counts standing events from the last.
#[derive(Debug, Clone)]
enum Step {
    Hand(usize, usize, usize),
    Void(usize),
    Correct(usize, (usize, usize, usize)),
    Payment(usize, i64),
}

fn step() -> impl Strategy<Value = Step> {
    let deal = (0usize..3, 0usize..4, 0usize..3);
    prop_oneof![
        10 => deal.clone().prop_map(|(a, b, c)| Step::Hand(a, b, c)),
        2 => (0usize..3 * TAIL).prop_map(Step::Void),
        3 => ((0usize..3 * TAIL), deal).prop_map(|(back, d)| Step::Correct(back, d)),
        1 => (0usize..3, 1i64..300).prop_map(|(from, c)| Step::Payment(from, c)),
    ]
}

/// A hand of `game` dealt by `dealer`: bidder, bid or suit, outcome or points.
fn hand(game: &str, dealer: &str, (bidder, k, outcome): (usize, usize, usize)) -> Value {
    if game == "auction_pitch" {
        let who = |j: usize| PLAYERS[(bidder + j + k) % 3];
        json!({"type": "hand", "dealer": dealer, "pitcher": PLAYERS[bidder], "bid": 2 + k % 3,
               "points": {"high": who(0), "low": who(outcome), "jack": null, "game": who(1)}})
    } else {
        json!({"type": "hand", "dealer": dealer, "bidder": PLAYERS[bidder],
               "bid": 250 + 50 * k, "trump": SUITS[k], "outcome": OUTCOMES[outcome]})
    }
}

fn event(game: &str, fold: &Fold, step: &Step) -> Value {
    let dealer = fold.next_dealer().unwrap_or_else(|| "Ann".into());
    let standing: Vec<usize> = (0..fold.events()).filter(|&i| fold.stands(i)).collect();
    let target = |back: usize| {
        standing
            .len()
            .checked_sub(back + 1)
            .map_or(0, |k| standing[k])
    };
    match step {
        Step::Hand(a, b, c) => hand(game, &dealer, (*a, *b, *c)),
        Step::Void(back) => json!({"type": "void", "event": target(*back)}),
        Step::Correct(back, d) => {
            let target = target(*back);
            let original = fold.standing_event(target);
            let dealer = original
                .as_ref()
                .and_then(|e| e.get("dealer"))
                .and_then(Value::as_str)
                .unwrap_or(&dealer);
            json!({"type": "correction", "event": target, "replacement": hand(game, dealer, *d)})
        }
        Step::Payment(from, cents) => json!({"type": "payment", "from": PLAYERS[*from],
            "to": PLAYERS[(from + 1) % 3], "amount": format!("{}.{:02}", cents / 100, cents % 100)}),
    }
}

/// Asserts that `tip` (and the `facts` kept beside it) equal what the whole `fold` gives.
fn assert_same(tip: &Tip, fold: &Fold, facts: &SessionFacts, agreements: &Map<String, Value>) {
    let at = format!("after {} events", fold.events());
    let whole = Tip::of(fold).unwrap();
    assert_eq!(Position::of_tip(tip), Position::of_tip(&whole), "{at}");
    assert_eq!(
        (tip.last_hand(), tip.last_standing_hand(), tip.next_dealer()),
        (
            whole.last_hand(),
            whole.last_standing_hand(),
            whole.next_dealer()
        ),
        "{at}: the next hand"
    );
    assert_eq!(tip.games(), whole.games(), "{at}: the games");
    assert_eq!(tip.close_preview(), whole.close_preview(), "{at}");
    let (w, v) = (tip.window(), whole.window());
    assert_eq!(
        (w.earlier(), w.running()),
        (v.earlier(), v.running()),
        "{at}"
    );
    assert_eq!(w.payments(), v.payments(), "{at}: the standing payments");
    assert_eq!(w.summaries(), v.summaries(), "{at}: the summaries");
    let rows = |w: &super::window::Window| -> Vec<String> {
        w.rows()
            .map(|k| format!("{:?} {:?}", k.corrects, k.row))
            .collect()
    };
    let (mine, theirs) = (rows(w), rows(v));
    if let Some(k) = (0..mine.len().max(theirs.len())).find(|&k| mine.get(k) != theirs.get(k)) {
        panic!(
            "{at}: the sheet's row {k} of {}\n  tip:   {:?}\n  whole: {:?}",
            theirs.len(),
            mine.get(k),
            theirs.get(k)
        );
    }
    let players = PLAYERS.map(String::from);
    let expected = session_facts(fold, agreements, &players, None).unwrap();
    assert_eq!(facts, &expected, "{at}: the club's facts");
    let replayed = session_facts_replayed(fold, agreements, &players).unwrap();
    assert_eq!(
        expected, replayed,
        "{at}: the counts kept against a fresh replay"
    );
}

/// Plays `steps` into a whole fold and a tip, checking them against each other as it goes.
fn run(game: &str, agreements: Value, steps: &[Step]) {
    let info = crate::rules::game(game).unwrap();
    let agreements: Map<String, Value> = agreements.as_object().unwrap().clone();
    let players = PLAYERS.map(String::from);
    let mut fold = Fold::start(info, &agreements, &players, None).unwrap();
    let mut tip = Tip::of(&fold).unwrap();
    let mut facts = session_facts(&fold, &agreements, &players, None).unwrap();
    let mut numbers = HandNumbers::default();
    for (k, step) in steps.iter().enumerate() {
        let e = event(game, &fold, step);
        let index = fold.events();
        let whole = fold.apply(index, &e);
        if whole.is_ok() {
            let kind = e["type"].as_str().unwrap();
            let voids = (kind == "void").then(|| e["event"].as_u64().unwrap() as usize);
            let deals = fold.engine().is_deal(kind);
            assert_eq!(
                numbers.next(index, deals, voids),
                fold.hand_number(index),
                "step {k}: the hand number from the types alone, of {e}"
            );
        }
        if tip.reaches_before(&e) {
            // What the service does: the whole session applies it, and the tip is made anew.
            if whole.is_ok() {
                tip = Tip::of(&fold).unwrap();
                facts = session_facts(&fold, &agreements, &players, None).unwrap();
            }
            continue;
        }
        let amends = Tip::needs_history(&e);
        let before = tail_facts(&tip, &players).unwrap();
        let by_tip = tip.apply(&e);
        assert_eq!(
            by_tip.as_ref().map_err(ToString::to_string),
            whole.as_ref().map_err(ToString::to_string),
            "step {k}: {e}"
        );
        if by_tip.is_ok() {
            let closed = tip.closed_at().is_some();
            if amends {
                let after = tail_facts(&tip, &players).unwrap();
                facts.amended((&before, &after), tip.balances(), closed);
            } else {
                let row = tip.window().last().unwrap().clone();
                facts.add_plain(&row, &players, tip.balances(), closed);
            }
        }
        if k % 7 == 0 || k + 1 == steps.len() || amends {
            assert_same(&tip, &fold, &facts, &agreements);
        }
    }
}

/// A tip that records hand after hand, as the cache's does, keeps its older games packed
/// (`Games::slim_older`, 128 records a run), though its tail's kept states share the list.
#[test]
fn a_tip_recording_hand_after_hand_keeps_its_older_games_packed() {
    let info = crate::rules::game("auction_pitch").unwrap();
    let agreements = json!({"stake": "0.05", "target": 5});
    let agreements = agreements.as_object().unwrap().clone();
    let players = PLAYERS.map(String::from);
    let fold = Fold::start(info, &agreements, &players, None).unwrap();
    let mut tip = Tip::of(&fold).unwrap();
    for k in 0..3000 {
        let dealer = tip.next_dealer().unwrap();
        tip.apply(&hand("auction_pitch", &dealer, (k % 3, k % 4, 0)))
            .unwrap();
    }
    let games = &tip.tail.core.finished;
    let (runs, singles, whole) = games.held();
    assert!(games.len() > 3 * 128, "{} games", games.len());
    assert!(
        runs >= games.len() / 128 - 2 && singles < 128 + 2 * TAIL && whole <= 2 * TAIL,
        "{} games held as {runs} runs, {singles} single records, {whole} whole",
        games.len()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn a_pitch_tip_amends_within_its_tail_as_the_whole_fold(
        steps in prop::collection::vec(step(), 60..180)
    ) {
        run("auction_pitch", json!({"stake": "0.05", "target": 5}), &steps);
    }

    #[test]
    fn a_pinochle_tip_amends_within_its_tail_as_the_whole_fold(
        steps in prop::collection::vec(step(), 60..180)
    ) {
        run("auction_pinochle", json!({"stake": "0.05", "kitty": "pot"}), &steps);
    }
}
