//! Each game played through its forms, game by game, in headless Chromium at 390 px on each game's
//! largest table (`common::tables`): Enter in the bid field records the hand the form shows
//! (never "all passed"); Enter in a correction's "Why" records the corrected hand the form
//! shows; the close asks first and then settles; only Auction Pinochle offers "Table
//! changes" (the contract's `player_joins` / `player_leaves`), and a newcomer joins through
//! it. (Refusals in the first screen, the 390 px fit and the screenshots of each game's
//! sheet, form and settle-up are `fit.rs`.)
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and is
//! skipped, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, assert_landed, choose, fill, script_text, script_value, scroll_width, submit,
    try_page_fetch, wait_for,
};
use common::entry::{events, open_session};
use common::tables::largest_tables;
use serde_json::{Value, json};
use thirtyfour::prelude::*;

const WAIT: Duration = Duration::from_secs(5);

/// One step on a form: type into a field, or choose a chip / menu value.
#[derive(Clone, Copy)]
enum Step {
    Type(&'static str, &'static str),
    Pick(&'static str, &'static str),
}

/// What the test does with one game.
struct Case {
    game: &'static str,
    /// A new hand through the next-hand form, the field Enter is pressed in (the bid where
    /// the game has one) and what the stored hand must then hold; `None` for the games
    /// whose form has no bid (they are covered by the correction below).
    new_hand: Option<(Vec<Step>, &'static str, Value)>,
    /// What is changed on the latest hand's correction form, and what the correction's
    /// replacement must then hold.
    fix: (Vec<Step>, Value),
    /// Text the latest hand's rows show after the correction, worked out by hand.
    fixed_row: Vec<&'static str>,
}

fn cases() -> Vec<Case> {
    use Step::{Pick, Type};
    vec![
        Case {
            game: "auction_pinochle",
            // 300 in diamonds made by Margaret, stake 0.05: 3 units (300–340, rule 1.1) ×
            // 0.05 = 0.15 from each of the three others.
            new_hand: Some((
                vec![
                    Pick("bidder", "Margaret"),
                    Type("bid", "300"),
                    Pick("trump", "diamonds"),
                    Pick("outcome", "made"),
                ],
                "bid",
                json!({"type": "hand", "bidder": "Margaret", "bid": 300, "trump": "diamonds", "outcome": "made"}),
            )),
            // It was Rosemary's bid: she collects the 0.15 from each instead.
            fix: (
                vec![Pick("bidder", "Rosemary")],
                json!({"bidder": "Rosemary", "bid": 300, "trump": "diamonds", "outcome": "made"}),
            ),
            // Margaret had +0.45, Rosemary −0.15; now Margaret −0.15, Rosemary +0.45.
            fixed_row: vec![
                "now Rosemary bid 300",
                "net change Margaret −\u{2060}$0.60, Rosemary +\u{2060}$0.60",
            ],
        },
        Case {
            game: "auction_pitch",
            new_hand: Some((
                vec![
                    Pick("pitcher", "Vincenzo"),
                    Pick("points.high", "Vincenzo"),
                    Pick("points.low", "Vincenzo"),
                    Pick("points.jack", "nobody"),
                    Pick("points.game", "Margaret"),
                    Pick("bid", "2"),
                ],
                "bid",
                json!({"type": "hand", "pitcher": "Vincenzo", "bid": 2,
                    "points": {"high": "Vincenzo", "low": "Vincenzo", "game": "Margaret"}}),
            )),
            fix: (
                vec![Pick("points.game", "Vincenzo")],
                json!({"pitcher": "Vincenzo", "bid": 2,
                    "points": {"high": "Vincenzo", "low": "Vincenzo", "game": "Vincenzo"}}),
            ),
            // High, Low and now Game: 3 points on a bid of 2.
            fixed_row: vec!["Vincenzo bid 2 and made it with High, Low and Game: +3"],
        },
        Case {
            game: "check_pinochle",
            new_hand: Some((
                vec![
                    Pick("bidder", "Vincenzo"),
                    Type("bid", "250"),
                    Pick("trump", "clubs"),
                    Type("NS.meld", "100"),
                    Type("NS.tricks", "150"),
                    Type("EW.meld", "60"),
                ],
                "bid",
                json!({"type": "hand", "bidder": "Vincenzo", "bid": 250, "trump": "clubs",
                    "NS": {"meld": 100, "tricks": 150}, "EW": {"meld": 60, "tricks": 100}}),
            )),
            fix: (
                vec![Type("bid", "260")],
                json!({"bidder": "Vincenzo", "bid": 260, "trump": "clubs"}),
            ),
            fixed_row: vec!["Vincenzo bid 260", "NS −260"],
        },
        Case {
            game: "partnership_auction_pinochle",
            new_hand: Some((
                vec![
                    Pick("bidder", "Margaret"),
                    Type("bid", "250"),
                    Pick("trump", "hearts"),
                    Type("NS.meld", "120"),
                    Type("NS.tricks", "150"),
                    Type("EW.meld", "60"),
                ],
                "bid",
                json!({"type": "hand", "bidder": "Margaret", "bid": 250, "trump": "hearts",
                    "NS": {"meld": 120, "tricks": 150}, "EW": {"meld": 60, "tricks": 100}}),
            )),
            fix: (
                vec![Pick("trump", "spades")],
                json!({"bidder": "Margaret", "bid": 250, "trump": "spades"}),
            ),
            fixed_row: vec!["bid 250 in spades", "NS +270 (meld 120 + tricks 150)"],
        },
        Case {
            game: "contract_pinochle",
            new_hand: Some((
                vec![
                    Pick("bidder", "Margaret"),
                    Type("bid", "200"),
                    Pick("trump", "hearts"),
                    Pick("doubled", "no"),
                    Pick("outcome", "made"),
                ],
                "bid",
                json!({"type": "hand", "bidder": "Margaret", "bid": 200, "trump": "hearts",
                    "doubled": "no", "outcome": "made"}),
            )),
            fix: (
                vec![Pick("outcome", "failed")],
                json!({"bidder": "Margaret", "bid": 200, "outcome": "failed"}),
            ),
            // Bid 200 set, not doubled: EW score the 200 (rules §1.7).
            fixed_row: vec!["Margaret bid 200 in hearts for NS and failed", "EW +200"],
        },
        Case {
            game: "partnership_pinochle",
            new_hand: Some((
                vec![
                    Pick("trump", "hearts"),
                    Type("NS.meld", "120"),
                    Type("EW.meld", "60"),
                    Type("NS.tricks", "150"),
                ],
                "NS.tricks",
                json!({"type": "hand", "trump": "hearts",
                    "NS": {"meld": 120, "tricks": 150}, "EW": {"meld": 60, "tricks": 100}}),
            )),
            // NS took 170, not 150: NS 120 + 170 = 290, EW 60 + 80 = 140.
            fix: (
                vec![Type("NS.tricks", "170"), Type("EW.tricks", "80")],
                json!({"trump": "hearts", "NS": {"meld": 120, "tricks": 170}, "EW": {"meld": 60, "tricks": 80}}),
            ),
            fixed_row: vec![
                "NS +290 (meld 120 + tricks 170)",
                "EW +140 (meld 60 + tricks 80)",
            ],
        },
        Case {
            game: "two_handed_pinochle",
            new_hand: Some((
                vec![
                    Type("melds.Bartholomew", "100"),
                    Type("melds.Guinevere", "50"),
                    Type("tricks.Bartholomew", "130"),
                ],
                "tricks.Bartholomew",
                json!({"type": "hand", "melds": {"Bartholomew": 100, "Guinevere": 50},
                    "tricks": {"Bartholomew": 130, "Guinevere": 120}}),
            )),
            fix: (
                vec![
                    Type("tricks.Bartholomew", "140"),
                    Type("tricks.Guinevere", "110"),
                ],
                json!({"melds": {"Bartholomew": 100, "Guinevere": 50},
                    "tricks": {"Bartholomew": 140, "Guinevere": 110}}),
            ),
            fixed_row: vec!["tricks 140 = +240", "tricks 110 = +160"],
        },
        Case {
            game: "poker",
            new_hand: None,
            // Hand 2 was split by Penelope and Archibald; Penelope won it alone.
            fix: (
                vec![Pick("place.Archibald", "2")],
                json!({"showdown": [["Penelope"], ["Archibald"]]}),
            ),
            fixed_row: vec!["net change Archibald −\u{2060}$0.50, Penelope +\u{2060}$0.50"],
        },
        Case {
            game: "house_game",
            // Oh Hell at ten: a new hand, Enter in the last number typed; then its
            // correction, Margaret 7 instead of 5: 12 + 1 + 7 = 20 (rules §1.12).
            new_hand: Some((
                vec![Type("points.Margaret", "5"), Type("points.Salvatore", "4")],
                "points.Salvatore",
                json!({"type": "hand", "points": {"Margaret": 5, "Salvatore": 4}}),
            )),
            fix: (
                vec![Type("points.Margaret", "7")],
                json!({"points": {"Margaret": 7, "Salvatore": 4}}),
            ),
            fixed_row: vec!["20"],
        },
        Case {
            game: "auction_game",
            new_hand: None,
            fix: (
                vec![Type("final.Vincenzo.spent", "10")],
                json!({"final": {"Vincenzo": {"spent": 10}}}),
            ),
            fixed_row: vec!["Vincenzo A = 4, spent 10", "no money changes"],
        },
    ]
}

/// Does every field of `part` appear, equal, in `whole` (objects compared field by field)?
fn holds(whole: &Value, part: &Value) -> bool {
    match (whole, part) {
        (Value::Object(w), Value::Object(p)) => {
            p.iter().all(|(k, v)| w.get(k).is_some_and(|x| holds(x, v)))
        }
        _ => whole == part,
    }
}

/// Carries out `steps` on the form under `scope` (`#next` or `#correct`).
async fn fill_in(phone: &WebDriver, scope: &str, steps: &[Step]) {
    for step in steps {
        match *step {
            Step::Type(name, text) => {
                let field = phone
                    .find(By::Css(format!("{scope} input[name='{name}']")))
                    .await
                    .unwrap_or_else(|e| panic!("{scope} {name}: {e}"));
                field.clear().await.unwrap();
                field.send_keys(text).await.unwrap();
            }
            Step::Pick(name, value) => {
                let selects = phone
                    .find_all(By::Css(format!("{scope} select[name='{name}']")))
                    .await
                    .unwrap();
                if let Some(select) = selects.first() {
                    thirtyfour::components::SelectElement::new(select)
                        .await
                        .unwrap()
                        .select_by_value(value)
                        .await
                        .unwrap_or_else(|e| panic!("{scope} {name}={value}: {e}"));
                } else if scope == "#next" {
                    choose(phone, name, value).await;
                } else {
                    let chip = phone
                        .find(By::Css(format!(
                            "{scope} label:has(> input[type=radio][name='{name}'][value='{value}'])"
                        )))
                        .await
                        .unwrap_or_else(|e| panic!("{scope} {name}={value}: {e}"));
                    common::browser::tap(phone, &chip).await.unwrap();
                }
            }
        }
    }
}

/// Presses Enter in the field `name` under `scope`.
async fn enter_in(phone: &WebDriver, scope: &str, name: &str) {
    phone
        .find(By::Css(format!("{scope} [name='{name}']")))
        .await
        .unwrap_or_else(|e| panic!("{scope} {name}: {e}"))
        .send_keys(Key::Enter)
        .await
        .unwrap();
}

/// Waits until the session holds `count` events; fails with the page's refusal otherwise.
async fn wait_for_events(phone: &WebDriver, id: i64, count: usize, what: &str) -> Vec<Value> {
    for _ in 0..100 {
        // The Enter just pressed navigates: a fetch from the page it leaves never answers,
        // so a script error here means "not yet", not a failure.
        if let Ok((200, text)) =
            try_page_fetch(phone, &format!("/api/v1/sessions/{id}/export")).await
        {
            let doc: Value = serde_json::from_str(&text).unwrap();
            let stored = doc["events"].as_array().unwrap().clone();
            if stored.len() >= count {
                return stored;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let refusal = script_value(
        phone,
        "var e = document.getElementById('error'); return e ? e.textContent : null;",
    )
    .await;
    panic!("{what}: nothing was recorded (refusal: {refusal})");
}

/// The text of the latest hand's rows: its entry, details, money and "why" rows.
async fn latest_rows(phone: &WebDriver) -> String {
    script_text(
        phone,
            "var e = document.getElementById('latest'), t = [];\
             if (e && e.classList.contains('hand-line')) { t.push(e.textContent); e = e.nextElementSibling; }\
             while (e) { t.push(e.textContent); e = e.nextElementSibling;\
               if (!e || (e.classList.contains('entry') && !e.classList.contains('note-line'))) break; }\
             return t.join(' | ');",
            Vec::new(),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_records_what_the_form_shows_and_the_close_asks_first_in_every_game() {
    let Some(browser) = Browser::start("done-when").await else {
        return;
    };
    let (base, store) = (browser.base.clone(), browser.store.clone());
    let phone = browser.phone("done-when").await;
    let tables = largest_tables();
    let mut cases = cases();
    assert_eq!(tables.len(), cases.len(), "every game has a case");
    for (game, doc) in tables {
        let at = cases.iter().position(|c| c.game == game);
        let case = cases.remove(at.unwrap_or_else(|| panic!("{game} has no case")));
        let doc: scorekeeper::format::SessionDoc = serde_json::from_value(doc).unwrap();
        let id = scorekeeper::service::import(&store, &doc, None)
            .await
            .unwrap_or_else(|e| panic!("{game}: {e}"))
            .0;
        phone.goto(format!("{base}/sessions/{id}")).await.unwrap();
        wait_for(&phone, "Score sheet", WAIT).await;
        let mut count = events(&phone, id).await.len();

        // Only Auction Pinochle's contract has joins and leaves: only its sheet offers them.
        let changes = phone
            .find_all(By::Css("details.table-changes"))
            .await
            .unwrap()
            .len();
        assert_eq!(
            changes,
            usize::from(game == "auction_pinochle"),
            "{game}: Table changes offered"
        );

        // Enter in the bid field (or, without a bid, the last field typed) records the hand
        // the form shows.
        if let Some((steps, field, expected)) = &case.new_hand {
            fill_in(&phone, "#next", steps).await;
            enter_in(&phone, "#next form.hand-form", field).await;
            let stored = wait_for_events(&phone, id, count + 1, game).await;
            let last = stored.last().unwrap();
            assert!(
                holds(last, expected) && last.get("all_passed").is_none(),
                "{game}: Enter in {field} recorded {last}, not {expected}"
            );
            count += 1;
            assert_landed(&phone, game).await;
        }

        // Enter in a correction's "Why" records the corrected hand the form shows.
        let links = phone.find_all(By::Css("a.correct")).await.unwrap();
        links
            .last()
            .expect("a hand to correct")
            .click()
            .await
            .unwrap();
        wait_for(&phone, "Correct hand", WAIT).await;
        let (steps, expected) = &case.fix;
        fill_in(&phone, "#correct", steps).await;
        let reason = "slip at the table";
        fill(&phone, "reason", reason).await;
        enter_in(&phone, "#correct form", "reason").await;
        let stored = wait_for_events(&phone, id, count + 1, game).await;
        let last = stored.last().unwrap();
        assert_eq!(last["type"], "correction", "{game}: {last}");
        assert_eq!(last["reason"], reason, "{game}: {last}");
        assert!(
            holds(&last["replacement"], expected),
            "{game}: Enter in the reason recorded {last}, not {expected}"
        );
        count += 1;
        wait_for(&phone, &format!("({reason})"), WAIT).await;
        let rows = latest_rows(&phone).await;
        println!("{game}: the corrected hand reads: {rows}");
        for text in &case.fixed_row {
            assert!(rows.contains(text), "{game}: {text:?} not in {rows}");
        }

        // The close asks first: its button is hidden until "Close the sitting…" is opened.
        phone.goto(format!("{base}/sessions/{id}")).await.unwrap();
        wait_for(&phone, "Score sheet", WAIT).await;
        let yes = phone
            .find(By::Css("form[action$='/close'] button"))
            .await
            .unwrap();
        assert!(
            !yes.is_displayed().await.unwrap(),
            "{game}: a one-tap close"
        );
        submit(&phone, "#close > summary").await;
        assert!(yes.is_displayed().await.unwrap(), "{game}: the close opens");
        assert_eq!(
            events(&phone, id).await.len(),
            count,
            "{game}: opening the close records nothing"
        );
        yes.click().await.unwrap();
        wait_for(&phone, "The sitting is closed.", WAIT).await;
        let stored = events(&phone, id).await;
        assert_eq!(stored.len(), count + 1, "{game}");
        assert_eq!(stored.last().unwrap()["type"], "close", "{game}");
    }

    // A newcomer joins a three-handed Auction Pinochle table through "Table changes":
    // Rosemary sits left of Vincenzo.
    let [m, s, v, _] = common::tables::FOUR;
    let doc = common::tables::doc(
        "auction_pinochle",
        json!({"stake": "0.05", "kitty": "pot"}),
        &[m, s, v],
        json!([{"type": "hand", "dealer": v, "bidder": m, "bid": 300, "trump": "hearts", "outcome": "made"}]),
    );
    let doc: scorekeeper::format::SessionDoc = serde_json::from_value(doc).unwrap();
    let id = scorekeeper::service::import(&store, &doc, None)
        .await
        .unwrap()
        .0;
    phone.goto(format!("{base}/sessions/{id}")).await.unwrap();
    wait_for(&phone, "Score sheet", WAIT).await;
    let count = events(&phone, id).await.len();
    submit(&phone, "details.table-changes > summary").await;
    fill_in(
        &phone,
        "details.table-changes",
        &[
            Step::Pick("change", "player_joins"),
            Step::Type("player", "Rosemary"),
            Step::Pick("seat_after", "Vincenzo"),
        ],
    )
    .await;
    submit(&phone, "details.table-changes button[type=submit]").await;
    let stored = wait_for_events(&phone, id, count + 1, "the join").await;
    assert_eq!(
        stored.last().unwrap(),
        &json!({"type": "player_joins", "player": "Rosemary", "seat_after": "Vincenzo"})
    );
    // Rosemary now has a column of her own and is offered as a bidder.
    wait_for(&phone, "Rosemary", WAIT).await;
    assert!(
        !phone
            .find_all(By::Css(
                "#next input[name='bidder'][value='Rosemary'], #next select[name='bidder'] option[value='Rosemary']"
            ))
            .await
            .unwrap()
            .is_empty(),
        "the newcomer can bid"
    );
    phone.quit().await.unwrap();
}

/// The what-if box of the next-hand form as shown: its text, empty while hidden.
async fn what_if_text(phone: &WebDriver) -> String {
    script_text(
        phone,
        "var b = document.querySelector('#next .what-if');\
             return b && getComputedStyle(b).display !== 'none' ? b.textContent : '';",
        Vec::new(),
    )
    .await
}

/// Waits until the what-if box shows `text`; returns the box's text.
async fn wait_for_what_if(phone: &WebDriver, text: &str) -> String {
    for _ in 0..100 {
        let shown = what_if_text(phone).await;
        if shown.contains(text) {
            return shown;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "the preview never showed {text:?}: {}",
        what_if_text(phone).await
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_preview_follows_the_bid_and_is_the_row_enter_records() {
    let Some(browser) = Browser::start("what-if").await else {
        return;
    };
    let phone = browser.phone("what-if").await;
    let [m, s, v, _] = common::tables::FOUR;
    let doc = common::tables::doc(
        "auction_pinochle",
        json!({"stake": "0.05", "kitty": "pot"}),
        &[m, s, v],
        json!([]),
    );
    let id = open_session(&browser, &phone, doc).await;
    let polite = phone
        .find(By::Css("#next form.hand-form .what-if"))
        .await
        .unwrap()
        .attr("aria-live")
        .await
        .unwrap();
    assert_eq!(polite.as_deref(), Some("polite"));
    assert_eq!(
        what_if_text(&phone).await.trim(),
        "The row this hand would add shows here as you fill in the form.",
        "no row before a field changes"
    );

    // 300 in hearts made (rules §1.1): 3 units × $0.05 = 0.15 from Margaret and from
    // Salvatore, +0.30 to Vincenzo; under 350 the kitty (0.30 from the opening ante) stays.
    let steps = [
        Step::Pick("bidder", v),
        Step::Type("bid", "300"),
        Step::Pick("trump", "hearts"),
        Step::Pick("outcome", "made"),
    ];
    fill_in(&phone, "#next", &steps).await;
    let at_300 = wait_for_what_if(&phone, "bid 300").await;
    // Every amount says its currency, the sheet's money columns too; the
    // word joiner between sign and symbol is left out of the comparison.
    assert!(
        at_300.replace('\u{2060}', "").contains("+$0.30"),
        "{at_300}"
    );
    assert!(
        at_300.contains("Vincenzo needs 300 in meld and counters to make 300"),
        "{at_300}"
    );

    // The bid goes to 400 with 308 in meld: 5 units × 0.05 = 0.25 from each, and a bid of
    // 350 or more made takes the kitty's 0.30 (rule 3), after which everyone antes 0.10
    // again: Vincenzo +0.50 +0.30 −0.10 = +0.70, the others −0.25 −0.10 = −0.35.
    fill_in(&phone, "#next", &[Step::Type("bid", "400")]).await;
    submit(&phone, "#next details > summary").await;
    fill_in(&phone, "#next", &[Step::Type("meld", "308")]).await;
    let at_400 = wait_for_what_if(&phone, "Vincenzo needs 92 in counters to make 400").await;
    let at_400 = if at_400.contains("bid 400") {
        at_400
    } else {
        wait_for_what_if(&phone, "bid 400").await
    };
    let joined = at_400.replace('\u{2060}', "");
    assert!(
        joined.contains("+$0.70") && joined.contains("−$0.35"),
        "{at_400}"
    );
    assert!(!at_400.contains("bid 300"), "{at_400}");
    let preview_rows: String = script_value(
        &phone,
        "return Array.from(document.querySelectorAll('#next .what-if tbody tr'))\
             .map(function (r) { return r.textContent; }).join(' | ');",
    )
    .await
    .as_str()
    .unwrap()
    .to_string();
    // The box fits the phone: nothing wider than 390 px, and it sits above the button.
    assert!(scroll_width(&phone).await <= 390, "the page fits 390 px");
    let above: bool = script_value(
        &phone,
        "var f = document.querySelector('#next form.hand-form');\
             var b = f.querySelector('.what-if'), s = f.querySelector('button[type=submit]');\
             return b.getBoundingClientRect().bottom <= s.getBoundingClientRect().top;",
    )
    .await
    .as_bool()
    .unwrap();
    assert!(above, "the preview sits above the submit button");
    common::browser::section_screenshot(&phone, "next", "what-if-auction-pinochle.png").await;

    // Enter records exactly that row.
    enter_in(&phone, "#next form.hand-form", "bid").await;
    wait_for_events(&phone, id, 1, "the previewed hand").await;
    wait_for(&phone, "Vincenzo</b> bid 400", WAIT).await;
    let recorded = latest_rows(&phone).await.replacen(" correct", "", 1);
    assert_eq!(recorded, preview_rows, "the recorded row is the preview's");

    // The widest would-be rows fit the phone as the sheet does: Pitch at seven and poker
    // at ten, with long names; nothing in the box scrolls sideways.
    for (game, doc) in largest_tables() {
        let seats: &[&str] = match game {
            "auction_pitch" => &common::tables::SEVEN,
            "poker" => &common::tables::TEN,
            _ => continue,
        };
        open_session(&browser, &phone, doc).await;
        if game == "auction_pitch" {
            for (name, value) in [
                ("pitcher", m),
                ("bid", "2"),
                ("points.high", m),
                ("points.low", m),
                ("points.jack", s),
                ("points.game", m),
            ] {
                choose(&phone, name, value).await;
            }
        } else {
            for (i, p) in seats.iter().enumerate() {
                choose(
                    &phone,
                    &format!("place.{p}"),
                    if i == 0 { "1" } else { "2" },
                )
                .await;
            }
        }
        let shown = wait_for_what_if(&phone, "If this goes in").await;
        let wide: Value = script_value(&phone, "var wide = [];\
                 document.querySelectorAll('.what-if, .what-if *').forEach(function (e) {\
                   if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')\
                     wide.push(e.className + ' ' + e.scrollWidth + '>' + e.clientWidth);\
                 });\
                 return [document.documentElement.scrollWidth, wide];").await;
        assert!(wide[0].as_i64().unwrap() <= 390, "{game}: {wide} {shown}");
        assert_eq!(wide[1], json!([]), "{game}: the preview scrolls sideways");
        common::browser::section_screenshot(&phone, "next", &format!("what-if-{game}.png")).await;
    }
    phone.quit().await.unwrap();
}
