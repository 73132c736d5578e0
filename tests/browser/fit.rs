//! Every game's sheet at its largest table, with ordinary names (Margaret, Salvatore,
//! Vincenzo, Rosemary, …), on a 390 px phone: no sideways scroll, neither of the page nor
//! hidden inside the sheet's box; a refused entry is focused and in the first screen with
//! the form's values kept; an entry lands on the latest row. Each game's sheet, form and
//! settle-up are written to `target/screenshots/<game>-fit-390.png`, `<game>-form-390.png`
//! and `<game>-settle-390.png` for a person to look at.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and is
//! skipped, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, assert_landed, choose, fill, page_screenshot, screen_screenshot, script_text,
    script_value, section_screenshot, submit, text_of, wait_for,
};
use common::tables::largest_tables;
use serde_json::json;
use thirtyfour::prelude::*;

/// A plain hand through the form, as `(field, value, is a select)`, for the games whose
/// own browser test does not enter one.
fn plain_hand(game: &str) -> Option<Vec<(&'static str, &'static str, bool)>> {
    match game {
        "auction_pitch" => Some(vec![
            ("pitcher", "Vincenzo", true),
            ("bid", "2", true),
            ("points.high", "Vincenzo", true),
            ("points.low", "Vincenzo", true),
            ("points.jack", "nobody", true),
            ("points.game", "Margaret", true),
        ]),
        "check_pinochle" => Some(vec![
            ("bidder", "Vincenzo", true),
            ("bid", "250", false),
            ("trump", "clubs", true),
            ("NS.meld", "100", false),
            ("NS.tricks", "150", false),
            ("EW.meld", "60", false),
        ]),
        "auction_pinochle" => Some(vec![
            ("bidder", "Margaret", true),
            ("bid", "300", false),
            ("trump", "diamonds", true),
            ("outcome", "made", true),
        ]),
        _ => None,
    }
}

/// Fails when the page, or anything in it that scrolls sideways, is wider than the phone.
async fn assert_fits(phone: &WebDriver, what: &str) {
    let widths = script_value(phone, "var wide = [];\
             document.querySelectorAll('*').forEach(function (e) {\
               var s = getComputedStyle(e);\
               if ((s.overflowX === 'auto' || s.overflowX === 'scroll' || s.overflowX === 'hidden')\
                   && e.scrollWidth > e.clientWidth + 1) wide.push(e.className + ' ' + e.scrollWidth + '>' + e.clientWidth);\
             });\
             return [document.documentElement.scrollWidth, wide];").await;
    let page = widths[0].as_i64().unwrap();
    assert!(
        page <= 390,
        "{what}: the page is {page} px wide on a 390 px phone"
    );
    assert_eq!(widths[1], json!([]), "{what}: a box scrolls sideways");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_games_largest_table_fits_a_phone() {
    let Some(browser) = Browser::start("fit").await else {
        return;
    };
    let (base, store) = (browser.base.clone(), browser.store.clone());
    let phone = browser.phone("fit").await;
    for (game, doc) in largest_tables() {
        let doc: scorekeeper::format::SessionDoc = serde_json::from_value(doc).unwrap();
        let id = scorekeeper::service::import(&store, &doc, None)
            .await
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        phone.goto(format!("{base}/sessions/{id}")).await.unwrap();
        wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;
        // The pictures first, so a sheet that does not fit can be seen.
        section_screenshot(&phone, "sheet", &format!("{game}-fit-390.png")).await;
        section_screenshot(&phone, "next", &format!("{game}-form-390.png")).await;
        section_screenshot(&phone, "settle", &format!("{game}-settle-390.png")).await;
        assert_fits(&phone, game).await;
        // Times read in the phone's own zone, not as stored in UTC.
        let started = text_of(&phone, By::Css("p.meta time")).await;
        assert!(
            !started.contains("UTC") && !started.is_empty(),
            "{game}: started {started}"
        );

        // The form sent as it stands (no bidder, no points): refused, and the refusal is
        // the focused element, in the first screen, announced.
        submit(&phone, "#next form.hand-form button[type=submit]").await;
        wait_for(&phone, "role=\"alert\"", Duration::from_secs(5)).await;
        // The page is read once loaded (its deferred script has run), within 2 s.
        let mut seen = json!(null);
        for _ in 0..40 {
            seen = script_value(&phone, "var e = document.getElementById('error'), r = e.getBoundingClientRect();\
                     return [document.activeElement === e, r.top >= -1 && r.bottom <= window.innerHeight + 1,\
                             e.textContent, document.readyState, r.top, window.scrollY];").await;
            if seen[0] == json!(true) && seen[1] == json!(true) && seen[3] == json!("complete") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(
            seen[0],
            json!(true),
            "{game}: the refusal has the focus ({seen})"
        );
        assert_eq!(
            seen[1],
            json!(true),
            "{game}: the refusal is in the first screen ({seen})"
        );
        // The message names the thing on the form in player words: no field path, no
        // snake_case, no JSON true/false, no citation (that sits in its details).
        let message = seen[2].as_str().unwrap_or_default();
        let dotted = message
            .as_bytes()
            .windows(3)
            .any(|w| w[0].is_ascii_alphabetic() && w[1] == b'.' && w[2].is_ascii_alphabetic());
        let json_words = message
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| ["true", "false", "null"].contains(&w));
        assert!(
            !message.is_empty()
                && !dotted
                && !json_words
                && !message.contains('_')
                && !message.contains("rules §")
                && !message.contains('['),
            "{game}: the refusal reads in player words: {message:?}"
        );
        // No row shows a rule's citation on its face: it sits in the row's "why" details.
        let faces = script_text(
            &phone,
            "return Array.from(document.querySelectorAll('#sheet tr')).map(function (tr) {\
                   var c = tr.cloneNode(true);\
                   c.querySelectorAll('details').forEach(function (d) { d.remove(); });\
                   return c.textContent; }).join('\\n');",
            Vec::new(),
        )
        .await;
        assert!(
            !faces.contains("rules §"),
            "{game}: a row shows a citation on its face: {faces}"
        );
        assert_fits(&phone, game).await;
        screen_screenshot(&phone, format!("{game}-refused-390.png")).await;
        // The refused form kept what was chosen: the dealer the sheet proposed (every game
        // with a dealer).
        for dealer in phone
            .find_all(By::Css("#next select[name='dealer']"))
            .await
            .unwrap()
        {
            let value = dealer.value().await.unwrap();
            assert!(
                value.is_some_and(|d| !d.is_empty()),
                "{game}: the dealer is kept"
            );
        }
        // A hand filled in and entered lands on the latest row (the games with a browser
        // test of their own check it there).
        if let Some(hand) = plain_hand(game) {
            for (name, value, select) in hand {
                if select {
                    choose(&phone, name, value).await;
                } else {
                    fill(&phone, name, value).await;
                }
            }
            submit(&phone, "#next form.hand-form button[type=submit]").await;
            assert_landed(&phone, game).await;
            assert_fits(&phone, game).await;
        }
    }
    phone.quit().await.unwrap();
}

/// Twenty hands of 4-handed auction pinochle at 5¢ with the kitty (the dealer sits out and
/// the deal passes left), bids from 250 to 350, a few set: a long evening's sheet.
fn twenty_hands() -> serde_json::Value {
    let seats = common::tables::FOUR;
    let trumps = ["hearts", "spades", "clubs", "diamonds"];
    let events: Vec<serde_json::Value> = (0..20)
        .map(|i| {
            let outcome = if i % 5 == 3 { "failed" } else { "made" };
            json!({"type": "hand", "dealer": seats[(i + 3) % 4], "bidder": seats[(i + 1) % 4],
                "bid": 250 + 20 * (i % 6), "trump": trumps[i % 4], "outcome": outcome})
        })
        .collect();
    common::tables::doc(
        "auction_pinochle",
        json!({"stake": "0.05", "kitty": "pot"}),
        &seats,
        json!(events),
    )
}

/// Where the watcher's standings and latest hand sit: `[standings top, standings bottom,
/// latest row top, latest row bottom, screen height, the latest row's number]`.
async fn first_screen(phone: &WebDriver) -> serde_json::Value {
    script_value(
        phone,
        "var now = document.getElementById('now').getBoundingClientRect();\
             var latest = document.getElementById('latest');\
             var r = latest.getBoundingClientRect();\
             return [now.top, now.bottom, r.top, r.bottom, window.innerHeight,\
                     latest.querySelector('td.num').textContent.trim()];",
    )
    .await
}

/// The bidder chips of the next-hand form that cannot be tapped.
async fn off_bidders(phone: &WebDriver) -> Vec<String> {
    let off = script_value(
        phone,
        "return Array.from(document.querySelectorAll('#next input[name=bidder]:disabled'))\
               .map(function (i) { return i.value; });",
    )
    .await;
    serde_json::from_value(off).unwrap()
}

/// The watcher's standings as `name → cents`, read from the words on the screen
/// ("Margaret −$0.70").
async fn standing_cents(phone: &WebDriver) -> std::collections::HashMap<String, i64> {
    let mut out = std::collections::HashMap::new();
    for li in phone
        .find_all(By::Css("#now ul.standings li"))
        .await
        .unwrap()
    {
        let name = li.find(By::Css("b")).await.unwrap().text().await.unwrap();
        let amount = li
            .find(By::Css(".money"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let negative = amount.starts_with('−');
        let digits: String = amount.chars().filter(char::is_ascii_digit).collect();
        let cents: i64 = digits.parse().unwrap();
        out.insert(name, if negative { -cents } else { cents });
    }
    out
}

/// Fails unless the standings and the latest hand (row `number`) are wholly on the first
/// screen.
fn assert_first_screen(seen: &serde_json::Value, number: &str, when: &str) {
    let at = |i: usize| seen[i].as_f64().unwrap();
    assert!(
        at(0) >= 0.0 && at(1) <= at(4),
        "{when}: the standings are not on the first screen ({seen})"
    );
    assert!(
        at(2) >= 0.0 && at(3) <= at(4),
        "{when}: the latest hand is not on the first screen ({seen})"
    );
    assert_eq!(seen[5], json!(number), "{when}: the latest row ({seen})");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watchers_phone_opens_on_the_standings_and_keeps_the_latest_hand_in_view() {
    let Some(browser) = Browser::start("watcher").await else {
        return;
    };
    let (base, store) = (browser.base.clone(), browser.store.clone());
    let doc: scorekeeper::format::SessionDoc = serde_json::from_value(twenty_hands()).unwrap();
    let (id, links) = scorekeeper::service::import_linked(&store, &doc)
        .await
        .unwrap();
    let watcher = browser.phone("watcher").await;
    watcher
        .goto(format!("{base}{}", links.read_path(id)))
        .await
        .unwrap();
    wait_for(&watcher, "Standings", Duration::from_secs(5)).await;
    // Who deals the 21st hand: the deal passes left from Margaret (hand 1 was Rosemary's),
    // so hand 21 is Rosemary's again.
    let deals = text_of(&watcher, By::Css("#now .deals")).await;
    assert!(deals.contains("Rosemary deals next"), "{deals}");
    // The kitty stands among the standings.
    let standings = text_of(&watcher, By::Css("#now ul.standings")).await;
    assert!(standings.contains("Kitty"), "{standings}");
    // The picture first, so a first screen that misses something can be seen.
    screen_screenshot(&watcher, "watcher-first-screen-390.png").await;
    page_screenshot(&watcher, "watcher-page-390.png").await;
    assert_first_screen(&first_screen(&watcher).await, "20", "opened");
    assert_fits(&watcher, "the watcher's sheet").await;
    let before = standing_cents(&watcher).await;
    // The whole sheet is a tap away.
    let earlier = text_of(&watcher, By::Css("#sheet a.earlier")).await;
    assert!(earlier.contains("19 earlier lines"), "{earlier}");

    // The scorekeeper's phone enters hand 21; the watcher's first screen follows it.
    let keeper = browser.phone("keeper").await;
    keeper
        .goto(format!("{base}{}", links.write_path(id)))
        .await
        .unwrap();
    wait_for(&keeper, "Next hand", Duration::from_secs(5)).await;
    // Four at the table: the dealer sits out (rules §1.1), so the proposed dealer's bidder
    // chip is off, and it follows the dealer menu.
    assert_eq!(off_bidders(&keeper).await, ["Rosemary"]);
    choose(&keeper, "dealer", "Salvatore").await;
    assert_eq!(off_bidders(&keeper).await, ["Salvatore"]);
    choose(&keeper, "dealer", "Rosemary").await;
    for (name, value, select) in plain_hand("auction_pinochle").unwrap() {
        if select {
            choose(&keeper, name, value).await;
        } else {
            fill(&keeper, name, value).await;
        }
    }
    submit(&keeper, "#next form.hand-form button[type=submit]").await;
    assert_landed(&keeper, "the keeper").await;
    let mut seen = json!(null);
    for _ in 0..100 {
        seen = first_screen(&watcher).await;
        if seen[5] == json!("21") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_first_screen(&seen, "21", "after a live update");
    // Hand 21, 300 in diamonds made: 3 units (standard table 300–340) × $0.05 = $0.15 from
    // each of the three others (the dealer included), so the standings move by that.
    let after = standing_cents(&watcher).await;
    for (player, moved) in [
        ("Margaret", 45),
        ("Salvatore", -15),
        ("Vincenzo", -15),
        ("Rosemary", -15),
        ("Kitty", 0),
    ] {
        assert_eq!(
            after[player] - before[player],
            moved,
            "{player}: {before:?} → {after:?}"
        );
    }
    let deals = text_of(&watcher, By::Css("#now .deals")).await;
    assert!(deals.contains("Margaret deals next"), "{deals}");
    screen_screenshot(&watcher, "watcher-after-update-390.png").await;
    keeper.quit().await.unwrap();
    watcher.quit().await.unwrap();
}

/// Fails when a cell of the sheet, or the sheet's box, shows less than it holds (a number
/// cut off inside its cell is as hidden as a column scrolled away).
async fn assert_no_cell_clipped(phone: &WebDriver, what: &str) {
    let clipped = script_value(phone, "var cut = [];\
             document.querySelectorAll('#sheet .sheet-wrap, #sheet table, #sheet th, #sheet td, #now li, #settle dd')\
               .forEach(function (e) {\
                 if (e.scrollWidth > e.clientWidth + 1) cut.push(e.tagName + ' ' + e.textContent.trim().slice(0, 30) + ' ' + e.scrollWidth + '>' + e.clientWidth);\
               });\
             return cut;").await;
    assert_eq!(clipped, json!([]), "{what}: a cell is clipped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_games_real_evening_with_the_longest_names_fits_a_phone_in_light_and_dark() {
    let Some(browser) = Browser::start("evening").await else {
        return;
    };
    let (base, store) = (browser.base.clone(), browser.store.clone());
    let phone = browser.phone("evening").await;
    for (game, doc) in common::tables::real_evenings() {
        let doc: scorekeeper::format::SessionDoc = serde_json::from_value(doc).unwrap();
        let seats = doc.players.len();
        let id = scorekeeper::service::import(&store, &doc, None)
            .await
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        // The scorekeeper's sheet and a watcher's (through the share link), whose first
        // screen carries the standings.
        let (watched, links) = scorekeeper::service::import_linked(&store, &doc)
            .await
            .unwrap();
        for dark in [false, true] {
            let scheme = if dark { "dark" } else { "light" };
            common::browser::dark_mode(&phone, dark).await;
            for (who, url) in [
                ("keeper", format!("{base}/sessions/{id}")),
                ("watcher", format!("{base}{}", links.read_path(watched))),
            ] {
                phone.goto(url).await.unwrap();
                wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;
                // The first screen as the phone shows it, and the whole sheet.
                screen_screenshot(
                    &phone,
                    format!("{game}-{seats}-{who}-first-390-{scheme}.png"),
                )
                .await;
                let name = format!("{game}-{seats}-{who}-sheet-390-{scheme}.png");
                section_screenshot(&phone, "sheet", &name).await;
                let what = format!("{game} ({seats} seats, {who}, {scheme})");
                assert_fits(&phone, &what).await;
                assert!(
                    common::browser::scroll_width(&phone).await <= 390,
                    "{what}: wider than the phone"
                );
                assert_no_cell_clipped(&phone, &what).await;
                // What a hand added and a circled (in the hole) total never share a line.
                let joined = script_value(
                    &phone,
                    "return Array.from(document.querySelectorAll('#sheet td.tally'))\
                         .filter(function (td) {\
                           var a = td.querySelector('span:not(.hole)'), h = td.querySelector('.hole');\
                           return a && h && h.getBoundingClientRect().top < a.getBoundingClientRect().bottom - 1;\
                         }).map(function (td) { return td.innerText; });",
                )
                .await;
                assert_eq!(
                    joined,
                    json!([]),
                    "{what}: an added value and a circled total share a line"
                );
                if who == "watcher" {
                    // Who is up is on the watcher's first screen in every game.
                    let seen = script_value(
                        &phone,
                        "var r = document.getElementById('now').getBoundingClientRect();\
                             return r.top >= 0 && r.bottom <= window.innerHeight;",
                    )
                    .await;
                    assert_eq!(
                        seen,
                        json!(true),
                        "{what}: the standings are off the first screen"
                    );
                    // And so is where the game stands: the leader's score by the rules.
                    if let Some((leader, points)) = leader(&doc) {
                        let seen = script_value(
                            &phone,
                            "var l = document.querySelector('#now ul.score li.leads');\
                                 if (!l) return null; var r = l.getBoundingClientRect();\
                                 return [l.innerText, r.bottom <= window.innerHeight];",
                        )
                        .await;
                        let text = seen[0].as_str().unwrap_or_default();
                        assert!(
                            text.contains(&leader) && text.contains(&format!("{points} points")),
                            "{what}: the watcher's first screen does not say {leader} leads \
                             with {points} points: {seen}"
                        );
                        assert_eq!(
                            seen[1],
                            json!(true),
                            "{what}: the score is below the first screen"
                        );
                    }
                    // And so is the latest hand the watcher is shown, whole: its words,
                    // numbers, details and explanation (a game's end box may follow).
                    let latest = script_value(
                        &phone,
                        "var why = document.querySelectorAll('#sheet tbody tr.why');\
                             var row = why[why.length - 1];\
                             return [row.getBoundingClientRect().bottom, window.innerHeight];",
                    )
                    .await;
                    assert!(
                        latest[0].as_f64().unwrap() <= latest[1].as_f64().unwrap(),
                        "{what}: the latest hand is below the first screen ({latest})"
                    );
                }
            }
        }
    }
    common::browser::dark_mode(&phone, false).await;
    phone.quit().await.unwrap();
}

/// The head that leads the game in progress in `doc` (a player, or a side's "NS"/"EW") and
/// its points in the sheet's words, by the rules' own standing; `None` for a game kept in
/// money only. Panics when all are level: each real evening ends mid-game.
fn leader(doc: &scorekeeper::format::SessionDoc) -> Option<(String, String)> {
    use scorekeeper::rules::Tally;
    let fold = scorekeeper::format::fold(doc).unwrap();
    let points: Vec<(String, i64)> = fold
        .engine()
        .standing()
        .into_iter()
        .filter(|c| c.tally == Tally::Points)
        .filter_map(|c| c.running.map(|n| (c.account, n)))
        .collect();
    let top = points.iter().map(|p| p.1).max()?;
    let bottom = points.iter().map(|p| p.1).min()?;
    let (account, n) = points
        .into_iter()
        .find(|p| p.1 == top)
        .filter(|_| top > bottom)?;
    Some((account, scorekeeper::rules::sheet::points(n)))
}

/// After an entry the phone lands on the latest row (`#latest`): the totals on that first
/// screen carry their players' (or sides') names, the same heads as the top of the sheet,
/// in every game with real names and a real evening's numbers (why 3: Pitch
/// showed "4 4 (−2) 4" there with no name in sight).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_screen_after_an_entry_names_every_total() {
    let Some(browser) = Browser::start("totals-named").await else {
        return;
    };
    let (base, store) = (browser.base.clone(), browser.store.clone());
    let phone = browser.phone("totals-named").await;
    for (game, doc) in common::tables::real_evenings() {
        let doc: scorekeeper::format::SessionDoc = serde_json::from_value(doc).unwrap();
        let seats = doc.players.len();
        let id = scorekeeper::service::import(&store, &doc, None)
            .await
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        phone
            .goto(format!("{base}/sessions/{id}#latest"))
            .await
            .unwrap();
        wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;
        assert_landed(&phone, game).await;
        screen_screenshot(&phone, format!("{game}-{seats}-after-entry-first-390.png")).await;
        // The heads at the top of the sheet, the heads over the totals, and whether the
        // heads and the totals over them are wholly on the screen.
        let seen = script_value(&phone, "function text(css) { return Array.from(document.querySelectorAll(css))\
                   .map(function (e) { return e.textContent.trim(); }); }\
                 function shown(css) { var e = document.querySelector(css); if (!e) return false;\
                   var r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }\
                 return [text('#sheet thead tr:first-child th.head'),\
                         text('#sheet tfoot tr.foot-heads .head'),\
                         shown('#sheet tfoot tr.foot-heads'), shown('#sheet tfoot tr.totals')];").await;
        let heads = seen[0].as_array().unwrap();
        assert!(heads.len() >= 2, "{game}: the sheet's heads ({seen})");
        assert_eq!(
            seen[1], seen[0],
            "{game}: the totals are named as the heads are"
        );
        assert_eq!(
            (&seen[2], &seen[3]),
            (&json!(true), &json!(true)),
            "{game} ({seats} seats): the named totals are on the first screen ({seen})"
        );
    }
    phone.quit().await.unwrap();
}
