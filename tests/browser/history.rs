//! Nights past in a real browser at phone width (390 px): the club history, filtered by
//! player and by game, a player's page with the chart of the nights, and a session's
//! balances chart, in light and dark mode. Screenshots go to
//! `target/screenshots/history-*.png` for a person to look at.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); skipped with a
//! note without them, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;
use scorekeeper::ids::ClubId;

use std::time::Duration;

use common::browser::{
    Browser, choose, dark_mode, link_fetch, screen_screenshot, scroll_width, start_club, submit,
    text_of, wait_for,
};
use common::nights::{pinochle, pitch};
use scorekeeper::format::SessionDoc;
use serde_json::json;
use thirtyfour::prelude::*;

/// The pinochle night of `tests/app/history_pages.rs`: Ann +0.90, Bob −0.90, Cy 0.00, settled.
fn pinochle_night() -> SessionDoc {
    pinochle(
        "Cy",
        2,
        &[
            json!({ "type": "close" }),
            json!({ "type": "payment", "from": "Bob", "to": "Ann", "amount": "0.90" }),
        ],
    )
}

/// The Pitch night of `tests/app/history_pages.rs` (`common::nights::pitch`): Ann +2.80,
/// Bob −1.60, Dee −1.20.
fn pitch_night() -> SessionDoc {
    pitch("Ann", "Bob")
}

async fn sessions_shown(driver: &WebDriver) -> usize {
    driver
        .find_all(By::Css("ul.history > li"))
        .await
        .unwrap()
        .len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_club_looks_back_on_a_phone() {
    let Some(browser) = Browser::start("history").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("historian").await;
    let club = start_club(&phone, &base, "Thursday Nights").await;
    scorekeeper::service::import(&browser.store, &pinochle_night(), Some(ClubId(club)))
        .await
        .unwrap();
    scorekeeper::service::import(&browser.store, &pitch_night(), Some(ClubId(club)))
        .await
        .unwrap();

    // From the club page to its history: both nights, newest first.
    phone.goto(format!("{base}/clubs/{club}")).await.unwrap();
    submit(&phone, "a[href$='/history']").await;
    wait_for(&phone, "Auction Pitch", Duration::from_secs(5)).await;
    assert_eq!(sessions_shown(&phone).await, 2);
    // The day is shown in the phone's own words and zone ("Tue, Nov 24, 2:40 PM"), not UTC.
    let when = text_of(&phone, By::Css("ul.history time")).await;
    assert!(!when.starts_with("20") && when.contains(':'), "{when}");
    assert!(
        scroll_width(&phone).await <= 390,
        "the history fits a phone"
    );
    screen_screenshot(&phone, "history-list-390.png").await;

    // Only Cy's nights: the pinochle one.
    submit(&phone, "details.filters > summary").await;
    choose(&phone, "player", &person(&phone, "Cy").await).await;
    let li = filter_to_one(&phone, "player=").await;
    assert!(
        li.contains("Auction Pinochle") && li.contains("settled"),
        "{li}"
    );
    screen_screenshot(&phone, "history-filtered-390.png").await;

    // Every player, Pitch only: the Pitch night, Ann up 2.80.
    choose(&phone, "player", "").await;
    choose(&phone, "game", "auction_pitch").await;
    let li = filter_to_one(&phone, "game=auction_pitch").await;
    assert!(
        li.contains("Ann") && li.contains("$2.80") && li.contains("closed"),
        "{li}"
    );

    // Ann's page: 0.90 + 2.80 = 3.70 over two nights, with the chart.
    submit(&phone, "ul.history a[href*='/players/']").await;
    wait_for(&phone, "Over the nights", Duration::from_secs(5)).await;
    let net = text_of(&phone, By::Id("net-all")).await;
    assert_eq!(net, "$3.70");
    let chart = phone.find(By::Css(".history-chart svg")).await.unwrap();
    let rect = chart.rect().await.unwrap();
    assert!(
        rect.width > 300.0 && rect.width <= 390.0,
        "the chart fills the phone: {rect:?}"
    );
    assert!(
        scroll_width(&phone).await <= 390,
        "the player page fits a phone"
    );
    screen_screenshot(&phone, "history-player-390.png").await;
    dark_mode(&phone, true).await;
    screen_screenshot(&phone, "history-player-dark-390.png").await;
    dark_mode(&phone, false).await;

    // A session's balances hand by hand.
    phone
        .goto(format!("{base}/sessions/1/chart"))
        .await
        .unwrap();
    wait_for(&phone, "Balances, hand by hand", Duration::from_secs(5)).await;
    assert!(scroll_width(&phone).await <= 390);
    screen_screenshot(&phone, "history-session-chart-390.png").await;

    // The club's downloads, through the club page's own links. The results CSV: the Pitch
    // night still owed (Ann +2.80, Bob −1.60, Dee −1.20 from the hands above), the pinochle
    // night paid off (Bob paid Ann the 0.90 he owed, so every balance is 0.00).
    phone.goto(format!("{base}/clubs/{club}")).await.unwrap();
    let (status, csv) = link_fetch(&phone, "results (CSV)").await;
    assert_eq!(status, 200, "{csv}");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "session,date,game,player,net");
    for (player, net) in [("Ann", "2.80"), ("Bob", "-1.60"), ("Dee", "-1.20")] {
        let row = format!(",auction_pitch,{player},{net}");
        assert!(
            rows.iter()
                .any(|r| r.starts_with("2,") && r.ends_with(&row)),
            "{row} in {csv}"
        );
    }
    let pinochle: Vec<_> = rows.iter().filter(|r| r.starts_with("1,")).collect();
    assert!(pinochle.len() >= 3, "{csv}");
    assert!(pinochle.iter().all(|r| r.ends_with(",0.00")), "{csv}");
    // The journal: a transaction per event, every player's account named.
    let (status, journal) = link_fetch(&phone, "journal (hledger)").await;
    assert_eq!(status, 200, "{journal}");
    for account in ["players:Ann", "players:Bob", "players:Cy", "players:Dee"] {
        assert!(journal.contains(account), "{account} in {journal}");
    }
    phone.quit().await.unwrap();
}

/// Applies the filters chosen (the address then holds `part`); exactly one night is left,
/// whose line it returns.
async fn filter_to_one(driver: &WebDriver, part: &str) -> String {
    submit(driver, "form.filters button").await;
    wait_for_url(driver, part).await;
    assert_eq!(sessions_shown(driver).await, 1);
    text_of(driver, By::Css("ul.history > li")).await
}

/// Waits (up to 5 s) until the address holds `part`: the filter form was submitted.
async fn wait_for_url(driver: &WebDriver, part: &str) {
    for _ in 0..100 {
        if driver.current_url().await.unwrap().as_str().contains(part) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the address never held {part}");
}

/// The person id the player filter offers for `name`.
async fn person(driver: &WebDriver, name: &str) -> String {
    for option in driver
        .find_all(By::Css("select[name='player'] option"))
        .await
        .unwrap()
    {
        if option.text().await.unwrap() == name {
            return option.value().await.unwrap().unwrap();
        }
    }
    panic!("{name} is not offered");
}

/// The leaderboard at 390 px with real long names: the page is no wider than the phone and
/// every column, "Games won" the last, is on the screen whole, not clipped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_fits_a_phone_with_long_names() {
    let Some(browser) = Browser::start("leaderboard").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("leader").await;
    let club = start_club(&phone, &base, "Thursday Nights").await;
    let (marie, bart) = (
        "Marie-Christine Vandenberghe",
        "Bartholomew Featherstonehaugh",
    );
    for doc in [
        common::nights::pitch_in(marie, bart, "USD"),
        common::nights::pitch_in(bart, marie, "USD"),
        common::nights::pitch_in("Anne-Sophie Oosterhuis", marie, "USD"),
    ] {
        scorekeeper::service::import(&browser.store, &doc, Some(ClubId(club)))
            .await
            .unwrap();
    }
    phone
        .goto(format!("{base}/clubs/{club}/leaderboard"))
        .await
        .unwrap();
    wait_for(&phone, "Vandenberghe", Duration::from_secs(5)).await;
    let width = scroll_width(&phone).await;
    let cut: serde_json::Value = common::browser::script_value(
        &phone,
        "var cut = [];\
         document.querySelectorAll('table.leaderboard th, table.leaderboard td').forEach(function (e) {\
           var r = e.getBoundingClientRect();\
           if (r.right > 390.5 || r.left < 0) cut.push(e.textContent.trim() + ' ' + r.left + '-' + r.right);\
         });\
         return cut;",
    )
    .await;
    screen_screenshot(&phone, "leaderboard-long-names-390.png").await;
    assert!(width <= 390, "the leaderboard is {width} px wide: {cut}");
    assert_eq!(cut, json!([]), "columns off the screen");
    assert!(
        text_of(&phone, By::Css("table.leaderboard thead"))
            .await
            .contains("Games won")
    );
    phone.quit().await.unwrap();
}

/// A player's biggest night on a 390 px phone: a night with no title of its own is linked
/// by its date, and the date stays on one line (it used to break at a hyphen).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_biggest_nights_date_stays_on_one_line() {
    let Some(browser) = Browser::start("biggest-night").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("player").await;
    let club = start_club(&phone, &base, "Thursday Nights").await;
    let mut sessions = Vec::new();
    for doc in [pitch("Ann", "Bob"), pitch("Ann", "Bob")] {
        let id = scorekeeper::service::import(&browser.store, &doc, Some(ClubId(club)))
            .await
            .unwrap();
        sessions.push(id);
    }
    scorekeeper::service::nights::group(&browser.store, ClubId(club), None, "", &sessions)
        .await
        .unwrap();
    phone
        .goto(format!("{base}/clubs/{club}/history"))
        .await
        .unwrap();
    wait_for(&phone, "Make a night", Duration::from_secs(5)).await;
    let ann = common::browser::script_value(
        &phone,
        "return [].find.call(document.querySelectorAll(\"a[href*='/players/']\"), function (a) { return a.textContent.trim() === 'Ann'; }).getAttribute('href');",
    )
    .await;
    phone
        .goto(format!("{base}{}", ann.as_str().unwrap()))
        .await
        .unwrap();
    wait_for(&phone, "Biggest night", Duration::from_secs(5)).await;
    // The lines the link's words take: one top per line box.
    let lines = common::browser::script_value(
        &phone,
        "var r = document.createRange(); r.selectNodeContents(document.querySelector('#best-night a'));\
         var tops = {}; [].forEach.call(r.getClientRects(), function (b) { if (b.width > 0) tops[Math.round(b.top)] = 1; });\
         return [Object.keys(tops).length, document.querySelector('#best-night a').textContent];",
    )
    .await;
    screen_screenshot(&phone, "history-biggest-night-390.png").await;
    assert_eq!(lines[0], json!(1), "the biggest night's link: {lines}");
    assert!(
        scroll_width(&phone).await <= 390,
        "the player page fits a phone"
    );
    phone.quit().await.unwrap();
}
