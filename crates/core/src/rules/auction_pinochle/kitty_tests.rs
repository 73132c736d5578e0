//! The kitty's size through whole sessions (`replay`): a `payment` to or from `KITTY` is
//! cash put into or taken out of the pot and moves the balances, never the kitty's size,
//! which is what every kitty rule works on (rules §1.2, §1.3, `docs/session-format.md`);
//! and equal splits after the last dealer left the table (session-format, "Precise
//! readings"). Every expected number is worked out by hand in the comments.

use serde_json::{Value, json};

use crate::format::{LedgerDoc, LedgerEvent, SessionDoc, replay, replay_at_table};
use crate::money::Money;
use crate::rules::replay_tests;

fn session(players: &[&str], agreements: Value, events: Vec<Value>) -> SessionDoc {
    replay_tests::session("auction_pinochle", players, agreements, Value::Null, events)
}

fn ok(players: &[&str], agreements: Value, events: Vec<Value>) -> LedgerDoc {
    replay(&session(players, agreements, events)).unwrap()
}

fn pot() -> Value {
    json!({"stake": "0.05", "kitty": "pot"})
}

fn paid(from: &str, to: &str, amount: &str) -> Value {
    json!({"type": "payment", "from": from, "to": to, "amount": amount})
}

fn made_350(dealer: &str, bidder: &str) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": 350, "trump": "hearts",
           "outcome": "made"})
}

fn close() -> Value {
    json!({"type": "close"})
}

/// Every balance in cents, in the order of `accounts`.
fn cents(l: &LedgerDoc, accounts: &[&str]) -> Vec<i64> {
    replay_tests::cents(l, accounts)
}

/// The ledger event numbered `seq` (0 is the opening ante, then 1 for `events[0]`, …).
fn event(l: &LedgerDoc, seq: usize) -> &LedgerEvent {
    l.events.iter().find(|e| e.seq == seq).unwrap()
}

/// One event's postings in cents, in the order of `accounts` (0 for an account not posted).
fn posted(l: &LedgerDoc, seq: usize, accounts: &[&str]) -> Vec<i64> {
    let event = event(l, seq);
    accounts
        .iter()
        .map(|a| {
            event
                .postings
                .iter()
                .filter(|p| p.account == *a)
                .map(|p| p.amount.cents())
                .sum()
        })
        .collect()
}

const ABC_K: [&str; 4] = ["Ann", "Bob", "Cy", "KITTY"];

#[test]
fn antes_paid_into_the_pot_are_still_collected_by_a_made_350() {
    // Rule 1: each of three antes 2 units × 0.05 = 0.10, a kitty of 0.30. They hand the cash
    // over (payments into KITTY): balances 0, the kitty still 0.30. Ann makes 350 in hearts:
    // 4 units × 0.05 = 0.20 from Bob and from Cy; rule 3: she takes the whole kitty, 0.30;
    // re-ante after the win: everyone antes 0.10 again (kitty 0.30).
    // Hand: Ann +0.40 +0.30 −0.10 = +0.60, Bob and Cy −0.20 −0.10 = −0.30, KITTY −0.30 +0.30 = 0.
    let l = ok(
        &["Ann", "Bob", "Cy"],
        pot(),
        vec![
            paid("Ann", "KITTY", "0.10"),
            paid("Bob", "KITTY", "0.10"),
            paid("Cy", "KITTY", "0.10"),
            made_350("Cy", "Ann"),
        ],
    );
    assert_eq!(posted(&l, 4, &ABC_K), vec![60, -30, -30, 0]);
    let why = &event(&l, 4).explanation;
    assert!(why.contains("kitty rule 3: takes the kitty, 0.30"), "{why}");
    assert!(why.contains("everyone antes 0.10 again"), "{why}");
    assert_eq!(cents(&l, &ABC_K), vec![60, -30, -30, 0]);
}

#[test]
fn payments_into_the_pot_change_the_balances_by_the_cash_and_nothing_else() {
    // The same sitting with and without the antes handed over in cash, closed: rule 7 shares
    // the re-anted 0.30 at 0.10 each. Without the payments: Ann +0.60 +0.10 = +0.70 less
    // her unpaid opening ante 0.10 = +0.60; Bob and Cy −0.10 −0.30 +0.10 = −0.30; KITTY 0.
    // With them every player is 0.10 better off (the cash he handed over) and the pot on the
    // table owes its 0.30 of cash back: KITTY −0.30.
    let hands = vec![made_350("Cy", "Ann"), close()];
    let unpaid = ok(&["Ann", "Bob", "Cy"], pot(), hands.clone());
    assert_eq!(cents(&unpaid, &ABC_K), vec![60, -30, -30, 0]);
    let mut events = vec![
        paid("Ann", "KITTY", "0.10"),
        paid("Bob", "KITTY", "0.10"),
        paid("Cy", "KITTY", "0.10"),
    ];
    events.extend(hands);
    let cash = ok(&["Ann", "Bob", "Cy"], pot(), events);
    assert_eq!(cents(&cash, &ABC_K), vec![70, -20, -20, -30]);
    assert_eq!(posted(&cash, 5, &ABC_K), vec![10, 10, 10, -30]);
    let why = &event(&cash, 5).explanation;
    assert!(
        why.contains("the kitty's 0.30 is shared equally among 3 players"),
        "{why}"
    );
    assert!(!why.contains("odd cent"), "0.30 divides evenly: {why}");
    assert_eq!(cash.kitty, Money::from_cents(-30));
}

#[test]
fn a_failed_350_antes_twice_the_kitty_after_the_antes_were_paid() {
    // Kitty 0.30 (rule 1), paid over in cash. Bob fails 350 in clubs: 4 units × 0.05 × 2
    // (double bete) = 0.40 to Ann and to Cy; rule 5: twice the kitty, 0.60, into it (kitty
    // 0.90). Bob −0.80 −0.60 = −1.40. Close: 0.90 shared, 0.30 each.
    let l = ok(
        &["Ann", "Bob", "Cy"],
        pot(),
        vec![
            paid("Ann", "KITTY", "0.10"),
            paid("Bob", "KITTY", "0.10"),
            paid("Cy", "KITTY", "0.10"),
            json!({"type": "hand", "dealer": "Ann", "bidder": "Bob", "bid": 350,
                   "trump": "clubs", "outcome": "failed"}),
            close(),
        ],
    );
    assert_eq!(posted(&l, 4, &ABC_K), vec![40, -140, 40, 60]);
    let why = &event(&l, 4).explanation;
    assert!(why.contains("kitty rule 5: twice the kitty, 0.60"), "{why}");
    assert_eq!(posted(&l, 5, &ABC_K), vec![30, 30, 30, -90]);
    // Ann 0.40 + 0.30, Bob −1.40 + 0.30, Cy 0.40 + 0.30, KITTY 0.60 − 0.90.
    assert_eq!(cents(&l, &ABC_K), vec![70, -110, 70, -30]);
}

#[test]
fn an_account_kittys_paid_in_money_is_shared_at_the_close() {
    // Rules §1.3, classic table: 350–390 = 5 units × 0.05 = 0.25; failed, double bete 0.50
    // to Bob, to Cy and to the kitty: Ann −1.50. Ann hands the kitty its 0.50 in cash
    // (balances Ann −1.00, KITTY 0), and at the close the kitty's 0.50 is divided equally:
    // 0.16 each and 2 leftover cents, one each from the left of the last dealer Cy: Ann,
    // then Bob. Ann −1.00 +0.17 = −0.83, Bob 0.50 +0.17 = 0.67, Cy 0.50 +0.16 = 0.66,
    // KITTY −0.50 (the cash on the table goes back out).
    let l = ok(
        &["Ann", "Bob", "Cy"],
        json!({"stake": "0.05", "units_table": "classic", "kitty": "account"}),
        vec![
            json!({"type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 350,
                   "trump": "clubs", "outcome": "failed"}),
            paid("Ann", "KITTY", "0.50"),
            close(),
        ],
    );
    assert_eq!(posted(&l, 1, &ABC_K), vec![-150, 50, 50, 50]);
    assert_eq!(posted(&l, 3, &ABC_K), vec![17, 17, 16, -50]);
    let why = &event(&l, 3).explanation;
    assert!(
        why.contains("the kitty's 0.50 is shared equally among 3 players, the 2 odd cents one each to Ann and Bob"),
        "{why}"
    );
    assert_eq!(cents(&l, &ABC_K), vec![-83, 67, 66, -50]);
}

#[test]
fn an_account_kitty_paid_out_in_cash_still_has_its_deficit_made_good() {
    // Classic table: Ann makes 400 in diamonds, 10 units × 0.05 = 0.50 from Bob, from Cy
    // and from the kitty (kitty −0.50). The kitty's 0.50 is handed to Ann in cash (a payment
    // from KITTY moves its balance to 0); at the close the deficit of 0.50 is still made good
    // equally: −0.17 (Ann, left of the dealer Cy), −0.17 (Bob), −0.16 (Cy).
    let l = ok(
        &["Ann", "Bob", "Cy"],
        json!({"stake": "0.05", "units_table": "classic", "kitty": "account"}),
        vec![
            json!({"type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 400,
                   "trump": "diamonds", "outcome": "made"}),
            paid("KITTY", "Ann", "0.50"),
            close(),
        ],
    );
    assert_eq!(posted(&l, 1, &ABC_K), vec![150, -50, -50, -50]);
    assert_eq!(posted(&l, 3, &ABC_K), vec![-17, -17, -16, 50]);
    let why = &event(&l, 3).explanation;
    assert!(
        why.contains("the kitty's -0.50 is made good equally"),
        "{why}"
    );
    // Ann 1.50 − 0.50 − 0.17, Bob −0.50 − 0.17, Cy −0.50 − 0.16, KITTY −0.50 + 0.50 + 0.50.
    assert_eq!(cents(&l, &ABC_K), vec![83, -67, -66, 50]);
}

#[test]
fn a_newcomer_and_a_broke_player_go_by_the_kitty_not_its_balance() {
    // Kitty 0.30 (rule 1), paid over in cash. Dee joins: rule 8, kitty ÷ 3 players = 0.10
    // (kitty 0.40). Cy is broke: rule 6, kitty ÷ 4 seated = 0.10 (kitty 0.30). Close with no
    // hand dealt: 0.30 among Ann, Bob, Dee, 0.10 each.
    let l = ok(
        &["Ann", "Bob", "Cy"],
        pot(),
        vec![
            paid("Ann", "KITTY", "0.10"),
            paid("Bob", "KITTY", "0.10"),
            paid("Cy", "KITTY", "0.10"),
            json!({"type": "player_joins", "player": "Dee"}),
            json!({"type": "player_leaves", "player": "Cy", "broke": true}),
            close(),
        ],
    );
    let all = ["Ann", "Bob", "Cy", "Dee", "KITTY"];
    assert_eq!(posted(&l, 4, &all), vec![0, 0, 0, -10, 10]);
    assert_eq!(posted(&l, 5, &all), vec![0, 0, 10, 0, -10]);
    assert_eq!(posted(&l, 6, &all), vec![10, 10, 0, 10, -30]);
    assert_eq!(cents(&l, &all), vec![10, 10, 10, 0, -30]);
}

#[test]
fn a_divide_by_consent_shares_the_kitty_and_empties_it() {
    // Kitty 0.30 paid over in cash, divided by consent (rule 7): 0.10 each, the kitty empty.
    // A later made 350 then collects nothing; with no kitty won there is no re-ante.
    let l = ok(
        &["Ann", "Bob", "Cy"],
        pot(),
        vec![
            paid("Ann", "KITTY", "0.10"),
            paid("Bob", "KITTY", "0.10"),
            paid("Cy", "KITTY", "0.10"),
            json!({"type": "kitty_divide"}),
            made_350("Cy", "Ann"),
        ],
    );
    assert_eq!(posted(&l, 4, &ABC_K), vec![10, 10, 10, -30]);
    assert_eq!(posted(&l, 5, &ABC_K), vec![40, -20, -20, 0]);
    assert_eq!(cents(&l, &ABC_K), vec![50, -10, -10, -30]);
}

#[test]
fn the_split_after_the_last_dealer_left_starts_on_his_left() {
    // Four ante 0.10 (0.40); all pass on B's deal, everyone antes again (0.80). B, the last
    // dealer, leaves. Close: 0.80 among A, C, D is 0.26 each and 2 leftover cents, one each
    // from the player who sat on B's left: C, then D.
    let events = vec![
        json!({"type": "hand", "dealer": "B", "all_passed": true}),
        json!({"type": "player_leaves", "player": "B"}),
    ];
    let players = ["A", "B", "C", "D"];
    let doc = session(&players, pot(), events.clone());
    let (_, standing) = replay_at_table(&doc).unwrap();
    assert_eq!(standing.next_dealer.as_deref(), Some("C"));
    let mut closed = events;
    closed.push(close());
    let l = ok(&players, pot(), closed);
    let all = ["A", "B", "C", "D", "KITTY"];
    assert_eq!(posted(&l, 3, &all), vec![26, 0, 27, 27, -80]);
    assert_eq!(cents(&l, &all), vec![6, -20, 7, 7, 0]);
}
