//! A plain hand of each game, entered through its form with its taps counted, then checked
//! as recorded and as the rules score it (the numbers worked by hand in each comment).

use serde_json::{Value, json};
use thirtyfour::prelude::*;

use crate::common::browser::Browser;
use crate::common::entry::{Taps, last_hand, ledger, open_session};
use crate::common::tables::{FOUR, SEVEN, doc};

/// The postings of the session's last event, as `{account: amount}`.
async fn last_postings(phone: &WebDriver, id: i64) -> Value {
    let ledger = ledger(phone, id).await;
    let event = ledger["events"].as_array().unwrap().last().unwrap().clone();
    event["postings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["account"].as_str().unwrap().to_string(),
                p["amount"].clone(),
            )
        })
        .collect::<serde_json::Map<String, Value>>()
        .into()
}

/// Auction Pinochle, four at the table (the dealer sits out): Salvatore bids 300 in hearts
/// and makes it. 300–340 is 3 units (rules §1.1), × 0.05 = 0.15 from each of the other
/// three, the sitting-out dealer included: Salvatore +0.45.
pub async fn auction_pinochle(browser: &Browser, phone: &WebDriver) -> usize {
    let [m, s, v, r] = FOUR;
    let id = open_session(
        browser,
        phone,
        doc(
            "auction_pinochle",
            json!({"stake": "0.05", "kitty": "pot"}),
            &FOUR,
            json!([]),
        ),
    )
    .await;
    let mut taps = Taps::new(phone);
    taps.pick("bidder", s).await;
    taps.number("bid", "300").await;
    taps.pick("trump", "hearts").await;
    taps.pick("outcome", "made").await;
    taps.enter("auction_pinochle").await;
    assert_eq!(
        last_hand(phone, id).await,
        json!({"type": "hand", "bidder": s, "bid": 300, "trump": "hearts", "outcome": "made"}),
        "Auction Pinochle records the hand the form showed"
    );
    assert_eq!(
        last_postings(phone, id).await,
        json!({m: "-0.15", s: "0.45", v: "-0.15", r: "-0.15"})
    );
    taps.count
}

/// Auction Pitch at its largest table: Josephine pitches 3 and takes High and Game, two
/// points: set back her bid, −3; Guinevere keeps her Low, +1 (rules §1.4).
pub async fn auction_pitch(browser: &Browser, phone: &WebDriver) -> usize {
    let id = open_session(
        browser,
        phone,
        doc("auction_pitch", json!({"stake": "0.05"}), &SEVEN, json!([])),
    )
    .await;
    let mut taps = Taps::new(phone);
    taps.pick("pitcher", "Josephine").await;
    taps.pick("bid", "3").await;
    taps.pick("points.high", "Josephine").await;
    taps.pick("points.low", "Guinevere").await;
    taps.pick("points.jack", "nobody").await;
    taps.pick("points.game", "Josephine").await;
    taps.enter("auction_pitch").await;
    assert_eq!(
        last_hand(phone, id).await,
        json!({"type": "hand", "pitcher": "Josephine", "bid": 3,
               "points": {"high": "Josephine", "low": "Guinevere", "jack": null, "game": "Josephine"}}),
        "Pitch records the hand the form showed"
    );
    let scores = ledger(phone, id).await["scores"].clone();
    assert_eq!(scores["Josephine"], json!(-3), "{scores}");
    assert_eq!(scores["Guinevere"], json!(1), "{scores}");
    assert_eq!(scores["Margaret"], json!(0), "{scores}");
    taps.count
}

/// Check Pinochle: Margaret (NS) bids 250 in clubs; NS meld 100 and take 150, EW meld 60
/// and take the other 100. NS 250 makes the bid: NS 250, EW 160 points; NS get the make
/// checks of 250–290, 4 (Hoyle, rules §1.7), EW no meld checks.
pub async fn check_pinochle(browser: &Browser, phone: &WebDriver) -> usize {
    let [m, ..] = FOUR;
    let id = open_session(
        browser,
        phone,
        doc("check_pinochle", json!({"stake": "0.25"}), &FOUR, json!([])),
    )
    .await;
    let mut taps = Taps::new(phone);
    taps.pick("bidder", m).await;
    taps.number("bid", "250").await;
    taps.pick("trump", "clubs").await;
    taps.number("NS.meld", "100").await;
    taps.number("NS.tricks", "150").await;
    taps.number("EW.meld", "60").await;
    taps.enter("check_pinochle").await;
    assert_eq!(
        last_hand(phone, id).await,
        json!({"type": "hand", "bidder": m, "bid": 250, "trump": "clubs",
               "NS": {"meld": 100, "tricks": 150},
               "EW": {"meld": 60, "tricks": 100}}),
        "Check records the hand the form showed, EW's tricks the rest of the 250"
    );
    let ledger = ledger(phone, id).await;
    assert_eq!(ledger["scores"], json!({"NS": 250, "EW": 160}));
    assert_eq!(ledger["checks"], json!({"NS": 4, "EW": 0}));
    taps.count
}

/// Partnership Pinochle: hearts turned up, no dix; NS meld 100 and take 150, EW meld 60
/// and take 100: NS 250, EW 160 (rules §1.5, every side that won a trick keeps its meld).
pub async fn partnership(browser: &Browser, phone: &WebDriver) -> usize {
    let id = open_session(
        browser,
        phone,
        doc("partnership_pinochle", json!({}), &FOUR, json!([])),
    )
    .await;
    let mut taps = Taps::new(phone);
    taps.pick("trump", "hearts").await;
    taps.number("NS.meld", "100").await;
    taps.number("NS.tricks", "150").await;
    taps.number("EW.meld", "60").await;
    taps.enter("partnership_pinochle").await;
    let hand = last_hand(phone, id).await;
    assert_eq!(hand["trump"], json!("hearts"), "{hand}");
    assert_eq!(hand["NS"]["meld"], json!(100), "{hand}");
    assert_eq!(hand["EW"]["tricks"], json!(100), "{hand}");
    assert_eq!(
        ledger(phone, id).await["scores"],
        json!({"NS": 250, "EW": 160})
    );
    taps.count
}

/// Partnership Auction Pinochle: Margaret (NS) bids 200 in spades; NS meld 100 and take
/// 150, 250 ≥ 200: they score all they made, 250; EW meld 60 and take 100: 160 (§1.6).
pub async fn partnership_auction(browser: &Browser, phone: &WebDriver) -> usize {
    let [m, ..] = FOUR;
    let id = open_session(
        browser,
        phone,
        doc("partnership_auction_pinochle", json!({}), &FOUR, json!([])),
    )
    .await;
    let mut taps = Taps::new(phone);
    taps.pick("bidder", m).await;
    taps.number("bid", "200").await;
    taps.pick("trump", "spades").await;
    taps.number("NS.meld", "100").await;
    taps.number("NS.tricks", "150").await;
    taps.number("EW.meld", "60").await;
    taps.enter("partnership_auction_pinochle").await;
    let hand = last_hand(phone, id).await;
    assert_eq!(
        (&hand["bidder"], &hand["bid"], &hand["trump"]),
        (&json!(m), &json!(200), &json!("spades")),
        "{hand}"
    );
    assert_eq!(
        ledger(phone, id).await["scores"],
        json!({"NS": 250, "EW": 160})
    );
    taps.count
}

/// Contract Pinochle: Margaret (NS) contracts 200 in spades, undoubled, and makes it: NS
/// score the bid × 1, 200; EW nothing (only one side scores, rules §1.8).
pub async fn contract(browser: &Browser, phone: &WebDriver) -> usize {
    let [m, ..] = FOUR;
    let id = open_session(
        browser,
        phone,
        doc("contract_pinochle", json!({}), &FOUR, json!([])),
    )
    .await;
    let mut taps = Taps::new(phone);
    taps.pick("bidder", m).await;
    taps.number("bid", "200").await;
    taps.pick("trump", "spades").await;
    taps.pick("outcome", "made").await;
    taps.enter("contract_pinochle").await;
    assert_eq!(
        last_hand(phone, id).await,
        json!({"type": "hand", "bidder": m, "bid": 200, "trump": "spades",
               "doubled": "no", "outcome": "made"})
    );
    assert_eq!(
        ledger(phone, id).await["scores"],
        json!({"NS": 200, "EW": 0})
    );
    taps.count
}

/// Two-handed Pinochle: Margaret melds 60 and takes 130 trick points, Salvatore melds 100
/// and takes the other 120 (both already in tens): Margaret 190, Salvatore 220 (§1.9).
pub async fn two_handed(browser: &Browser, phone: &WebDriver) -> usize {
    let [m, s, ..] = FOUR;
    let id = open_session(
        browser,
        phone,
        doc("two_handed_pinochle", json!({}), &FOUR[..2], json!([])),
    )
    .await;
    let mut taps = Taps::new(phone);
    taps.number(&format!("melds.{m}"), "60").await;
    taps.number(&format!("melds.{s}"), "100").await;
    taps.number(&format!("tricks.{m}"), "130").await;
    taps.enter("two_handed_pinochle").await;
    let hand = last_hand(phone, id).await;
    assert_eq!(hand["melds"], json!({m: 60, s: 100}), "{hand}");
    assert_eq!(hand["tricks"], json!({m: 130, s: 120}), "{hand}");
    assert_eq!(ledger(phone, id).await["scores"], json!({m: 190, s: 220}));
    taps.count
}

/// Poker, five players, ante 0.05 each (tapped already), one side pot: Margaret all-in for
/// 0.25 more (0.30), Salvatore and Vincenzo 0.50 more (0.55), Rosemary folds after 0.10
/// more (0.15), Josephine folds on her ante. Showdown Margaret, Salvatore, Vincenzo.
/// Main pot up to 0.30: 0.30 × 3 + 0.15 + 0.05 = 1.10 to Margaret; side pot 0.25 × 2 =
/// 0.50 to Salvatore. Margaret +0.80, Salvatore −0.05, Vincenzo −0.55, Rosemary −0.15,
/// Josephine −0.05 (rules §1.11).
pub async fn poker(browser: &Browser, phone: &WebDriver) -> usize {
    let [m, s, v, r] = FOUR;
    let j = "Josephine";
    let id = open_session(
        browser,
        phone,
        doc(
            "poker",
            json!({"ante": "0.05"}),
            &[m, s, v, r, j],
            json!([]),
        ),
    )
    .await;
    let mut taps = Taps::new(phone);
    taps.number(&format!("put_in.{m}"), "0.25").await;
    taps.tick(&format!("all_in.{m}")).await;
    taps.number(&format!("put_in.{s}"), "0.50").await;
    taps.number(&format!("put_in.{v}"), "0.50").await;
    taps.number(&format!("put_in.{r}"), "0.10").await;
    taps.tick(&format!("folded.{r}")).await;
    taps.tick(&format!("folded.{j}")).await;
    taps.pick(&format!("place.{m}"), "1").await;
    taps.pick(&format!("place.{s}"), "2").await;
    taps.pick(&format!("place.{v}"), "3").await;
    taps.enter("poker").await;
    let hand = last_hand(phone, id).await;
    assert_eq!(
        hand["contributions"],
        json!({m: "0.30", s: "0.55", v: "0.55", r: "0.15", j: "0.05"}),
        "{hand}"
    );
    assert_eq!(hand["showdown"], json!([[m], [s], [v]]), "{hand}");
    assert_eq!(
        ledger(phone, id).await["balances"],
        json!({m: "0.80", s: "-0.05", v: "-0.55", r: "-0.15", j: "-0.05"})
    );
    taps.count
}

/// The Auction game, three players, a whole game round by round (the Joker turned last
/// ends it, rules §1.10); the taps of each round. Margaret buys Q, K, J (6) for 10 + 9 + 4
/// = 23; Salvatore K, Q (5) for 10 + 9; Vincenzo A, J, A (9) for 10 + 4 + 9: Vincenzo has
/// the most items and takes the 0.50 stake from each of the other two.
pub async fn auction_game(browser: &Browser, phone: &WebDriver) -> Vec<usize> {
    let [m, s, v, _] = FOUR;
    let id = open_session(
        browser,
        phone,
        doc(
            "auction_game",
            json!({"stake": "0.50"}),
            &[m, s, v],
            json!([]),
        ),
    )
    .await;
    let rounds = [
        ("Q", [10, 9, 8]),
        ("K", [2, 10, 3]),
        ("A", [9, 8, 10]),
        ("J", [3, 2, 4]),
        ("Q", [8, 9, 2]),
        ("K", [9, 3, 2]),
        ("A", [8, 7, 9]),
        ("J", [4, 2, 3]),
    ];
    let mut per_round = Vec::new();
    let mut taps = Taps::new(phone);
    for (i, (item, bids)) in rounds.iter().enumerate() {
        let before = taps.count;
        taps.pick(&format!("rounds.{i}.item"), item).await;
        for (player, bid) in [m, s, v].iter().zip(bids) {
            taps.pick(&format!("rounds.{i}.bids.{player}"), &bid.to_string())
                .await;
        }
        per_round.push(taps.count - before);
    }
    taps.pick("rounds.8.item", "JOKER").await;
    assert_button_near(phone, "rounds.8.item").await;
    taps.enter("auction_game").await;
    let hand = last_hand(phone, id).await;
    assert_eq!(
        hand["rounds"][0]["bids"],
        json!({m: 10, s: 9, v: 8}),
        "{hand}"
    );
    assert_eq!(
        ledger(phone, id).await["balances"],
        json!({m: "-0.50", s: "-0.50", v: "1.00"})
    );
    per_round
}

/// The submit button is at most one screen (the phone's height) below the last field
/// filled, `name`.
async fn assert_button_near(phone: &WebDriver, name: &str) {
    let gap = phone
        .execute(
            "var f = document.querySelector('#next [name=\"' + arguments[0] + '\"]');\
             f = f.closest('fieldset') || f;\
             var b = document.querySelector('#next form.hand-form button[type=submit]');\
             return [b.getBoundingClientRect().top - f.getBoundingClientRect().bottom, innerHeight];",
            vec![json!(name)],
        )
        .await
        .unwrap()
        .json()
        .clone();
    println!(
        "auction_game: the button is {} px below the last field (screen {} px)",
        gap[0], gap[1]
    );
    assert!(
        gap[0].as_f64().unwrap() <= gap[1].as_f64().unwrap(),
        "the button is more than a screen below the last field: {gap}"
    );
}

/// A house game, Hearts at four (rules §1.12): Margaret 10, Salvatore 6, Vincenzo left
/// empty (0), Rosemary 10: 26, an agreed hand total; each adds his points to his total,
/// and no game ends, so no money moves.
pub async fn house_game(browser: &Browser, phone: &WebDriver) -> usize {
    let [m, s, v, r] = FOUR;
    let hearts = json!({"name": "Hearts", "winner": "low", "target": 100,
        "hand_totals": [26, 78], "stake": "0.05"});
    let id = open_session(browser, phone, doc("house_game", hearts, &FOUR, json!([]))).await;
    let mut taps = Taps::new(phone);
    taps.typed(&format!("points.{m}"), "10").await;
    taps.typed(&format!("points.{s}"), "6").await;
    taps.typed(&format!("points.{r}"), "10").await;
    taps.enter("house_game").await;
    assert_eq!(
        last_hand(phone, id).await,
        json!({"type": "hand", "points": {m: 10, s: 6, v: 0, r: 10}}),
        "the house game records the hand the form showed"
    );
    let scores = ledger(phone, id).await["scores"].clone();
    assert_eq!(scores, json!({m: 10, s: 6, v: 0, r: 10}), "{scores}");
    taps.count
}
