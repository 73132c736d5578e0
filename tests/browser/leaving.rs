//! A phone that leaves the club keeps nothing of it. Logging out asks first while entries
//! made without Wi-Fi still wait, then forgets them with the pages kept; a new passphrase
//! set on another phone makes the pages kept unreadable as soon as the phone is back
//! online, so a phone passed round the table shows no club's sheets offline.

use std::time::Duration;

use crate::common;

use common::browser::{Browser, Wire, choose, fill, start_club, submit, wait_for};
use common::phones::{enter_hand, until};
use serde_json::{Value, json};
use thirtyfour::prelude::*;

/// Runs `script`, which sets `window.answer` once its promise settles, and waits until
/// that is `want`.
async fn settles(phone: &WebDriver, script: &str, want: Value, what: &str) {
    let run = format!("window.answer = undefined; {script}");
    phone.execute(&run, vec![]).await.unwrap();
    let read = "return window.answer === undefined ? null : window.answer;";
    until(phone, read, want, what).await;
}

/// The text of the dialog the page opens (after its own look at the queue), waiting up to
/// 5 s for it.
async fn dialog(phone: &WebDriver) -> String {
    for _ in 0..100 {
        if let Ok(text) = phone.get_alert_text().await {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no dialog within 5 s")
}

/// How many entries the phone's queue holds, of every session.
const WAITING: &str = "const o = indexedDB.open('scorekeeper-offline', 1); \
    o.onsuccess = () => { const n = o.result.transaction('queue').objectStore('queue').count(); \
    n.onsuccess = () => { window.answer = n.result; o.result.close(); }; };";

/// Whether the worker keeps a copy of any of the club's pages (its sheets, its page).
const CLUB_KEPT: &str = "caches.open('scorekeeper-pages-v1').then(c => c.keys()).then(k => { \
    window.answer = k.some(r => /\\/(sessions|clubs)\\//.test(new URL(r.url).pathname)); });";

#[tokio::test]
async fn logging_out_asks_before_dropping_waiting_entries_and_a_new_passphrase_forgets_the_pages() {
    let Some(browser) = Browser::start("leaving").await else {
        return;
    };
    let wifi = Wire::to(&browser.base).await;
    let (base, direct) = (wifi.base.clone(), browser.base.clone());
    let phone = browser.phone("leaving-phone").await;
    let other = browser.phone("leaving-other").await;
    let club = start_club(&phone, &base, "Cabin Rummy").await;
    phone
        .goto(format!("{base}/sessions/new?game=auction_pinochle"))
        .await
        .unwrap();
    for (field, value) in [("player_1", "Ann"), ("player_2", "Bob"), ("player_3", "Cy")] {
        fill(&phone, field, value).await;
    }
    fill(&phone, "a.stake", "0.05").await;
    choose(&phone, "a.kitty", "pot").await;
    submit(&phone, "form[action='/sessions'] button").await;
    wait_for(&phone, "Kitty rule 1", Duration::from_secs(5)).await;
    let sheet = phone.current_url().await.unwrap().path().to_string();
    enter_hand(&phone, "Cy", "Ann", "250", "hearts", "made").await;
    // Enter only starts the post: the sheet it answers with must have come before the
    // phone goes elsewhere, or its arrival takes the phone back to the sheet.
    let entered = "var e = document.querySelector(\"#next input[name='expected_events']\"); \
                   return e ? e.value : null;";
    until(
        &phone,
        entered,
        json!("1"),
        "the first hand is on the sheet",
    )
    .await;
    let runs = "return !!navigator.serviceWorker.controller;";
    until(
        &phone,
        runs,
        json!(true),
        "the service worker runs the sheet",
    )
    .await;
    let club_page = format!("{base}/clubs/{club}");
    phone.goto(&club_page).await.unwrap();
    wait_for(&phone, "Log out", Duration::from_secs(15)).await;
    phone.goto(format!("{base}{sheet}")).await.unwrap();
    wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;

    // A hand entered without Wi-Fi waits on the phone; the club page comes from its copy.
    wifi.cut();
    enter_hand(&phone, "Ann", "Bob", "300", "spades", "made").await;
    let queued = "return document.querySelectorAll('#sheet tr.queued').length;";
    until(&phone, queued, json!(1), "the hand waits on the sheet").await;
    phone.goto(&club_page).await.unwrap();
    wait_for(
        &phone,
        "offline: showing the page as of",
        Duration::from_secs(10),
    )
    .await;
    wifi.mend();

    // Log out asks first, counting what would be lost; "no" keeps everything.
    submit(&phone, "form[action='/logout'] button").await;
    let asked = dialog(&phone).await;
    assert!(
        asked.starts_with("1 entry made on this phone has not been sent yet; logging out drops it"),
        "{asked}"
    );
    phone.dismiss_alert().await.unwrap();
    settles(&phone, WAITING, json!(1), "the hand still waits after no").await;
    // "Yes": the queue is emptied, the club's pages forgotten, the login ended.
    submit(&phone, "form[action='/logout'] button").await;
    dialog(&phone).await;
    phone.accept_alert().await.unwrap();
    let home = format!("{base}/");
    for _ in 0..100 {
        if phone.current_url().await.unwrap().as_str() == home {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(phone.current_url().await.unwrap().as_str(), home);
    settles(&phone, WAITING, json!(0), "nothing waits after the logout").await;
    settles(&phone, CLUB_KEPT, json!(false), "no club page kept").await;

    // Back in, the sheet is kept again. Another phone sets a new passphrase.
    phone.goto(format!("{base}/login")).await.unwrap();
    fill(&phone, "name", "Cabin Rummy").await;
    fill(&phone, "passphrase", "seven of clubs").await;
    submit(&phone, "form[action='/login'] button").await;
    wait_for(&phone, "Log out", Duration::from_secs(5)).await;
    phone.goto(format!("{base}{sheet}")).await.unwrap();
    wait_for(&phone, "Score sheet", Duration::from_secs(5)).await;
    settles(&phone, CLUB_KEPT, json!(true), "the sheet is kept").await;
    other.goto(format!("{direct}/login")).await.unwrap();
    fill(&other, "name", "Cabin Rummy").await;
    fill(&other, "passphrase", "seven of clubs").await;
    submit(&other, "form[action='/login'] button").await;
    wait_for(&other, "Log out", Duration::from_secs(5)).await;
    other
        .goto(format!("{direct}/clubs/{club}/settings"))
        .await
        .unwrap();
    fill(&other, "current", "seven of clubs").await;
    fill(&other, "passphrase", "queen of spades").await;
    fill(&other, "again", "queen of spades").await;
    let change = format!("form[action='/clubs/{club}/passphrase'] button");
    submit(&other, &change).await;
    wait_for(&other, "The passphrase is changed", Duration::from_secs(5)).await;

    // The phone's next look at the sheet is refused, and every page it kept goes with it:
    // offline, the sheet is no longer there to read.
    phone.goto(format!("{base}{sheet}")).await.unwrap();
    settles(
        &phone,
        CLUB_KEPT,
        json!(false),
        "the pages kept are forgotten",
    )
    .await;
    wifi.cut();
    phone.goto(format!("{base}{sheet}")).await.unwrap();
    wait_for(
        &phone,
        "this page was not opened on this phone before",
        Duration::from_secs(10),
    )
    .await;
    wifi.mend();
    phone.quit().await.unwrap();
    other.quit().await.unwrap();
}
