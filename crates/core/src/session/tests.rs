//! The fold's `reopen` and the undo of a payment after the close, worked out by hand on a
//! three-handed Auction Pinochle sitting at 5¢ with Scarne's kitty (rules §1.2 rule 1: each
//! player antes 0.10 at the start, so the kitty holds 0.30).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use serde_json::{Map, Value, json};

use super::Fold;
use crate::ledger::KITTY;

fn fold(events: &[Value]) -> Result<Fold, super::Refusal> {
    let game = crate::rules::game("auction_pinochle").unwrap();
    let agreements: Map<String, Value> = json!({ "stake": "0.05", "kitty": "pot" })
        .as_object()
        .unwrap()
        .clone();
    let players = ["Ann", "Bob", "Cy"].map(String::from);
    let mut f = Fold::start(game, &agreements, &players, None)?;
    for (i, e) in events.iter().enumerate() {
        f.apply(i, e)?;
    }
    Ok(f)
}

fn cents(f: &Fold, account: &str) -> i64 {
    f.balances().get(account).cents()
}

/// Ann 250 in hearts made: 2 units × 0.05 = 0.10 from each opponent (no kitty: under 350).
fn made_250() -> Value {
    json!({ "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 250, "trump": "hearts", "outcome": "made" })
}

#[test]
fn reopen_takes_the_close_back_exactly_and_play_goes_on() {
    let before_close = fold(&[made_250()]).unwrap();
    // Ann +0.20 − 0.10 ante; Bob and Cy −0.10 − 0.10; the kitty 0.30.
    assert_eq!(cents(&before_close, "Ann"), 10);
    assert_eq!(cents(&before_close, "Bob"), -20);
    assert_eq!(cents(&before_close, KITTY), 30);

    let closed = fold(&[made_250(), json!({ "type": "close" })]).unwrap();
    // The close shares the 0.30 kitty: 0.10 each.
    assert_eq!(cents(&closed, "Ann"), 20);
    assert_eq!(cents(&closed, "Bob"), -10);
    assert_eq!(cents(&closed, KITTY), 0);

    let events = [
        made_250(),
        json!({ "type": "close" }),
        json!({ "type": "reopen", "reason": "one more hand" }),
    ];
    let reopened = fold(&events).unwrap();
    assert_eq!(reopened.closed_at(), None);
    for account in ["Ann", "Bob", "Cy", KITTY] {
        assert_eq!(
            cents(&reopened, account),
            cents(&before_close, account),
            "{account} is back where the close found him"
        );
    }
    let row = reopened.rows().last().unwrap();
    assert_eq!(row.kind.as_str(), "reopen");
    // The reopen's postings are the close's, reversed.
    let close_row = &reopened.rows()[reopened.rows().len() - 2];
    assert!(close_row.struck(), "the close is shown struck through");
    for p in &row.postings {
        let c = close_row
            .postings
            .iter()
            .find(|q| q.account == p.account)
            .unwrap();
        assert_eq!(p.amount.cents(), -c.amount.cents());
    }
    assert!(row.explanation.contains("one more hand"));

    // Play goes on: hand 2 (Bob 350 in spades made, which takes the kitty) posts exactly what
    // it would have without the close and the reopen.
    let mut more = events.to_vec();
    more.push(json!({ "type": "hand", "dealer": "Ann", "bidder": "Bob", "bid": 350, "trump": "spades", "outcome": "made" }));
    let played = fold(&more).unwrap();
    assert_eq!(played.hand_number(3), Some(2), "the next hand is hand 2");
    let straight = fold(&[made_250(), more[3].clone()]).unwrap();
    for account in ["Ann", "Bob", "Cy", KITTY] {
        assert_eq!(cents(&played, account), cents(&straight, account));
    }
    // A second close works, and ends where closing once would have.
    more.push(json!({ "type": "close" }));
    let twice = fold(&more).unwrap();
    let once = fold(&[made_250(), more[3].clone(), json!({ "type": "close" })]).unwrap();
    assert_eq!(twice.closed_at(), Some(4));
    for account in ["Ann", "Bob", "Cy", KITTY] {
        assert_eq!(cents(&twice, account), cents(&once, account));
    }
    assert_eq!(cents(&twice, KITTY), 0);
}

#[test]
fn reopen_needs_a_close_and_a_closed_sitting_takes_only_payments_undos_and_reopen() {
    let err = fold(&[made_250(), json!({ "type": "reopen" })]).unwrap_err();
    assert_eq!(err.event_index, Some(1));
    assert_eq!(err.field, "type");
    assert!(err.message.contains("not closed"), "{}", err.message);
    let err = fold(&[
        made_250(),
        json!({ "type": "close" }),
        json!({ "type": "reopen", "why": "x" }),
    ])
    .unwrap_err();
    assert_eq!(err.event_index, Some(2));
    let err = fold(&[made_250(), json!({ "type": "close" }), made_250()]).unwrap_err();
    assert!(err.message.contains("reopen"), "{}", err.message);
    // The undo of a hand after the close is still refused.
    let err = fold(&[
        made_250(),
        json!({ "type": "close" }),
        json!({ "type": "void", "event": 0 }),
    ])
    .unwrap_err();
    assert_eq!(err.event_index, Some(2));
}

#[test]
fn a_payment_after_the_close_can_be_undone_and_survives_a_reopen() {
    // Closed: Ann +0.20, Bob −0.10, Cy −0.10. Bob pays Ann 0.10.
    let paid = [
        made_250(),
        json!({ "type": "close" }),
        json!({ "type": "payment", "from": "Bob", "to": "Ann", "amount": "0.10" }),
    ];
    let f = fold(&paid).unwrap();
    assert_eq!(cents(&f, "Bob"), 0);
    assert_eq!(cents(&f, "Ann"), 10);

    let mut undone = paid.to_vec();
    undone.push(json!({ "type": "void", "event": 2, "reason": "mis-tapped" }));
    let f = fold(&undone).unwrap();
    assert_eq!(cents(&f, "Bob"), -10);
    assert_eq!(cents(&f, "Ann"), 20);
    assert_eq!(f.closed_at(), Some(1), "the sitting stays closed");
    assert!(f.rows()[3].struck(), "the payment is struck");

    // Reopened after the payment: the payment stands (Bob 0.10 nearer zero than before the
    // close), and undoing it afterwards leaves the sitting open.
    let mut reopened = paid.to_vec();
    reopened.push(json!({ "type": "reopen" }));
    let f = fold(&reopened).unwrap();
    assert_eq!(cents(&f, "Bob"), -10);
    assert_eq!(cents(&f, "Ann"), 0);
    assert_eq!(cents(&f, KITTY), 30);
    reopened.push(json!({ "type": "void", "event": 2 }));
    let f = fold(&reopened).unwrap();
    assert_eq!(f.closed_at(), None);
    assert_eq!(cents(&f, "Bob"), -20);
    assert_eq!(cents(&f, "Ann"), 10);
    assert_eq!(cents(&f, KITTY), 30);
    reopened.push(made_250());
    assert!(fold(&reopened).is_ok(), "play goes on");
}

#[test]
fn the_hand_after_an_undone_last_hand_takes_its_number_again() {
    let events = [
        made_250(),
        made_250(),
        json!({ "type": "void", "event": 1, "reason": "wrong bidder" }),
        made_250(),
        made_250(),
        json!({ "type": "void", "event": 0 }),
        made_250(),
    ];
    let f = fold(&events).unwrap();
    let numbers: Vec<Option<usize>> = (0..events.len()).map(|i| f.hand_number(i)).collect();
    // Hand 2 undone: the next is hand 2 again; hand 1 undone while 2 and 3 stand: the next
    // is hand 4.
    assert_eq!(
        numbers,
        [Some(1), Some(2), None, Some(2), Some(3), None, Some(4)]
    );
}

#[test]
fn the_preview_shows_what_closing_now_would_do_and_changes_nothing() {
    let f = fold(&[made_250()]).unwrap();
    let (balances, postings) = f.close_preview().unwrap();
    // The 0.30 kitty shared 0.10 each: Ann 0.10 → 0.20, Bob and Cy −0.20 → −0.10.
    assert_eq!(balances.get("Ann").cents(), 20);
    assert_eq!(balances.get("Bob").cents(), -10);
    assert_eq!(balances.get(KITTY).cents(), 0);
    assert_eq!(postings.iter().map(|p| p.amount.cents()).sum::<i64>(), 0);
    assert_eq!(cents(&f, KITTY), 30, "the fold itself is not closed");
    assert_eq!(f.closed_at(), None);
    let closed = fold(&[made_250(), json!({ "type": "close" })]).unwrap();
    assert!(closed.close_preview().is_none());
}

#[test]
fn each_balance_is_summed_up_in_a_few_groups() {
    use super::sheet::money_summary;
    let f = fold(&[made_250(), made_250()]).unwrap();
    let (_, preview) = f.close_preview().unwrap();
    // Ann: antes 0.10, wins 0.20 in each of hands 1 and 2, and would take a third of the
    // 0.30 kitty.
    assert_eq!(
        money_summary(&f, "Ann", &preview, "USD"),
        "opening ante −\u{2060}$0.10 · hands 1–2 +\u{2060}$0.40 · kitty share on closing now +\u{2060}$0.10"
    );
    let mut events = vec![made_250(), made_250()];
    events.push(json!({ "type": "void", "event": 1 }));
    events.push(json!({ "type": "close" }));
    events.push(json!({ "type": "payment", "from": "Bob", "to": "Ann", "amount": "0.05" }));
    let f = fold(&events).unwrap();
    // Bob: ante −0.10, hand 1 −0.10 (hand 2 was undone: it and its undo count for nothing,
    // and only hand 1 stands), kitty share +0.10, and his payment of 0.05 brings his
    // balance up toward zero.
    assert_eq!(
        money_summary(&f, "Bob", &[], "EUR"),
        "opening ante −\u{2060}€0.10 · hand 1 −\u{2060}€0.10 · kitty share +\u{2060}€0.10 · paid +\u{2060}€0.05"
    );
}

/// One made hand, close, Bob pays Ann, the payment is undone.
#[test]
fn an_undone_payment_is_in_nobodys_why() {
    use super::sheet::money_summary;
    let events = [
        made_250(),
        json!({ "type": "close" }),
        json!({ "type": "payment", "from": "Bob", "to": "Ann", "amount": "0.10" }),
        json!({ "type": "void", "event": 2, "reason": "not paid yet" }),
    ];
    let f = fold(&events).unwrap();
    // Bob: ante −0.10, hand 1 −0.10, a third of the 0.30 kitty +0.10 = −0.10, and he has
    // paid nothing (not "hand 1 −0.20 · paid +0.10", the undo counted as a hand).
    assert_eq!(cents(&f, "Bob"), -10);
    assert_eq!(
        money_summary(&f, "Bob", &[], "USD"),
        "opening ante −\u{2060}$0.10 · hand 1 −\u{2060}$0.10 · kitty share +\u{2060}$0.10"
    );
    // Ann: ante −0.10, hand 1 +0.20, kitty share +0.10 = +0.20, nothing received.
    assert_eq!(cents(&f, "Ann"), 20);
    assert_eq!(
        money_summary(&f, "Ann", &[], "USD"),
        "opening ante −\u{2060}$0.10 · hand 1 +\u{2060}$0.20 · kitty share +\u{2060}$0.10"
    );
}

/// A corrected hand counts at its corrected amount, in the groups and event by event.
#[test]
fn a_corrected_hand_counts_at_its_corrected_amount() {
    use super::sheet::money_summary;
    use super::why::standing_amounts;
    // Hand 1 entered as Ann's 250 made (Ann +0.20), corrected to Bob's 250 made: Bob +0.20,
    // Ann and Cy −0.10 each. Ann stands at ante −0.10 + hand 1 −0.10 = −0.20.
    let bob_made = json!({ "type": "hand", "dealer": "Cy", "bidder": "Bob", "bid": 250, "trump": "hearts", "outcome": "made" });
    let correction =
        json!({ "type": "correction", "event": 0, "replacement": bob_made, "reason": "Bob bid" });
    let f = fold(&[made_250(), correction]).unwrap();
    assert_eq!(cents(&f, "Ann"), -20);
    assert_eq!(
        money_summary(&f, "Ann", &[], "USD"),
        "opening ante −\u{2060}$0.10 · hand 1 −\u{2060}$0.10"
    );
    assert_eq!(
        money_summary(&f, "Bob", &[], "USD"),
        "opening ante −\u{2060}$0.10 · hand 1 +\u{2060}$0.20"
    );
    // Event by event: the opening ante and hand 1 at −0.10, the correction folded into it.
    let ann: Vec<(Option<usize>, Option<usize>, i64)> = standing_amounts(&f, "Ann")
        .into_iter()
        .map(|(r, c)| (r.index, r.hand_number, c))
        .collect();
    assert_eq!(ann, vec![(None, None, -10), (Some(0), Some(1), -10)]);
}

/// A refusal keeps the rule apart from its words: the page shows the words alone, the API
/// and `replay` print them with the citation after, as the session format reads.
#[test]
fn a_refusal_keeps_its_rule_apart_and_cites_it_when_printed() {
    let low = json!({ "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 240, "trump": "hearts", "outcome": "made" });
    let r = fold(&[made_250(), low]).unwrap_err();
    assert_eq!(r.event_index, Some(1));
    assert_eq!(r.field, "bid");
    assert_eq!(r.message, "240 is below the minimum 250");
    assert_eq!(r.rule.as_deref(), Some("rules §1.1"));
    assert_eq!(
        r.to_string(),
        "event 1: bid: 240 is below the minimum 250 (rules §1.1)"
    );
    // A refusal that cites no rule prints none.
    let r = fold(&[json!({ "type": "hand", "dealer": "Cy", "bid": 250 })]).unwrap_err();
    assert_eq!(r.rule, None, "{r}");
    assert!(!r.to_string().contains("(rules"), "{r}");
    // A correction's refusal keeps the replacement's rule.
    let correction = json!({ "type": "correction", "event": 0, "replacement":
        { "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 240, "trump": "hearts", "outcome": "made" } });
    let r = fold(&[made_250(), correction]).unwrap_err();
    assert_eq!(r.field, "replacement.bid");
    assert_eq!(r.rule.as_deref(), Some("rules §1.1"));
    // The ledger's explanation still cites the rules the row follows.
    let f = fold(&[made_250()]).unwrap();
    let row = f.rows().last().unwrap();
    assert!(!row.explanation.contains("rules §"), "{}", row.explanation);
    assert!(
        row.rules.iter().any(|r| r == "rules §1.1"),
        "{:?}",
        row.rules
    );
    assert!(
        row.cited_explanation().ends_with("(rules §1.1)"),
        "{}",
        row.cited_explanation()
    );
}

/// A session of many games sums each account's games won and lost in one group each, so
/// its settle-up summary stays a few words; one game keeps its number.
#[test]
fn many_games_are_one_group_each_for_won_and_lost() {
    use super::why::Summaries;
    use super::{EventKind, Finish, ShownEnd, row};
    use crate::ledger::Posting;
    use crate::money::Money;
    use crate::rules::{FinishedGame, GameEnd, Outcome, SheetLine};
    // Game n: Ann wins 0.50 from Bob when n is odd, Bob wins 0.30 from Ann when it is even.
    let game = |n: usize| {
        let (winner, loser, cents) = if n % 2 == 1 {
            ("Ann", "Bob", 50)
        } else {
            ("Bob", "Ann", 30)
        };
        let postings = vec![
            Posting::new(winner, Money::from_cents(cents)),
            Posting::new(loser, Money::from_cents(-cents)),
        ];
        let mut r = row(
            Some(n - 1),
            EventKind::Hand,
            Some(n),
            Outcome::new(postings.clone(), "a game", SheetLine::default()),
        );
        r.game_ends.push(ShownEnd::of(
            n,
            &Finish {
                event: n - 1,
                game: FinishedGame {
                    winner: Some(winner.into()),
                    decided_by: "target".into(),
                    final_scores: json!({}),
                },
                end: GameEnd {
                    winner: Some(winner.into()),
                    at: None,
                    how: String::new(),
                    award: None,
                    settlement: String::new(),
                    fresh: Vec::new(),
                },
                postings,
            },
        ));
        r
    };
    let mut s = Summaries::default();
    let add = |s: &mut Summaries, n: usize| {
        let r = game(n);
        s.add(&r, &super::window::row_cents(&r));
    };
    add(&mut s, 1);
    assert_eq!(s.words("Ann", &[], "USD"), "game 1 won +\u{2060}$0.50");
    for n in 2..=5 {
        add(&mut s, n);
    }
    // Ann won games 1, 3 and 5 (3 × 0.50) and lost 2 and 4 (2 × 0.30).
    assert_eq!(
        s.words("Ann", &[], "USD"),
        "3 games won +\u{2060}$1.50 · 2 games lost −\u{2060}$0.60"
    );
    assert_eq!(
        s.words("Bob", &[], "USD"),
        "3 games lost −\u{2060}$1.50 · 2 games won +\u{2060}$0.60"
    );
}

/// A `type` neither the session nor the game knows is refused in the game's words, but
/// only after what every event meets first: its numbers within bounds, then the sitting
/// open. The same through a whole fold and through a tip.
#[test]
fn an_unknown_type_is_refused_in_the_games_words_after_the_checks_every_event_meets() {
    let unknown = "\"zz\" is not something that happens in Auction Pinochle: enter a hand, a payment, the close, a player joining or leaving, or the kitty divided";
    let tip = |events: &[Value]| {
        let mut tip = super::Tip::of(&fold(&[]).unwrap()).unwrap();
        events.iter().try_for_each(|e| tip.apply(e))
    };
    for events in [
        vec![json!({ "type": "zz" })],
        vec![made_250(), json!({ "type": "zz", "bid": 250 })],
    ] {
        let last = events.len() - 1;
        for err in [fold(&events).unwrap_err(), tip(&events).unwrap_err()] {
            assert_eq!(err.to_string(), format!("event {last}: type: {unknown}"));
        }
    }
    let big = [json!({ "type": "zz", "bid": 1e12 })];
    for err in [fold(&big).unwrap_err(), tip(&big).unwrap_err()] {
        assert_eq!(
            (err.field.to_string(), err.rule.as_deref()),
            ("bid".into(), Some("rules §0"))
        );
    }
    let closed = [json!({ "type": "close" }), json!({ "type": "zz" })];
    for err in [fold(&closed).unwrap_err(), tip(&closed).unwrap_err()] {
        assert_eq!(
            err.to_string(),
            "event 1: type: the sitting was closed by event 0; only a payment, the undo of a payment or a reopen may follow a close (session-format)"
        );
    }
    // The ledger's name for the opening ante is no event's type.
    let ante = fold(&[json!({ "type": "opening_ante" })]).unwrap_err();
    assert!(
        ante.message
            .starts_with("\"opening_ante\" is not something"),
        "{ante}"
    );
    // A void within the tip's tail is the fold's to judge; a reopen needs the history.
    let early = [json!({ "type": "void", "event": 0 })];
    assert_eq!(
        tip(&early).unwrap_err().to_string(),
        fold(&early).unwrap_err().to_string()
    );
    let err = tip(&[json!({ "type": "reopen" })]).unwrap_err();
    assert_eq!(
        err.message,
        "internal error: a reopen needs the session's history"
    );
}

/// What a standing event is, read from its row: a corrected hand is still a hand, an
/// undone payment no longer stands, an amendment never does.
#[test]
fn a_standing_events_kind_is_its_rows() {
    let payment = json!({ "type": "payment", "from": "Bob", "to": "Ann", "amount": "0.10" });
    let mut failed = made_250();
    failed["outcome"] = json!("failed");
    let f = fold(&[
        made_250(),
        payment.clone(),
        payment,
        json!({ "type": "correction", "event": 0, "replacement": failed }),
        json!({ "type": "void", "event": 2 }),
    ])
    .unwrap();
    let kinds: Vec<Option<&str>> = (0..6)
        .map(|i| f.standing_kind(i).map(super::EventKind::as_str))
        .collect();
    assert_eq!(
        kinds,
        [Some("hand"), Some("payment"), None, None, None, None]
    );
}
