//! At phone width in headless Chromium: the links page of a session without a club, a
//! looker opening its read link, and a club's settings page. Screenshots go to
//! `target/screenshots/` (`session-links-390.png`, `club-settings-390.png`).
//!
//! Needs Debian's `chromium` and `chromium-driver`; skipped with a note outside CI when
//! they are missing, a failure under CI.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{Browser, fill, screen_screenshot, scroll_width, submit, wait_for};
use thirtyfour::prelude::*;

#[tokio::test]
async fn the_links_page_and_the_club_settings_fit_a_phone() {
    let Some(browser) = Browser::start("ops-links").await else {
        return;
    };
    let base = browser.base.clone();
    let scorer = browser.phone("scorer").await;
    let looker = browser.phone("looker").await;

    scorer
        .goto(format!("{base}/sessions/new?game=auction_pinochle"))
        .await
        .unwrap();
    fill(&scorer, "player_1", "Ann").await;
    fill(&scorer, "player_2", "Bob").await;
    fill(&scorer, "player_3", "Cy").await;
    submit(&scorer, "form[action='/sessions'] button").await;
    wait_for(&scorer, "Enter the hand", Duration::from_secs(5)).await;
    let sheet = scorer.current_url().await.unwrap().to_string();

    scorer.goto(format!("{sheet}/links")).await.unwrap();
    wait_for(&scorer, "Lookers' link", Duration::from_secs(5)).await;
    scorer.find(By::Css("figure.qr svg")).await.unwrap();
    assert!(
        scroll_width(&scorer).await <= 390,
        "the links page fits 390 px"
    );
    screen_screenshot(&scorer, "session-links-390.png").await;
    let read_link = scorer
        .find(By::Id("read-link"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(read_link.contains("/link/"), "{read_link}");

    // Without the link the session is not open to the phone; with the lookers' link it is,
    // read-only.
    looker.goto(&sheet).await.unwrap();
    wait_for(&looker, "is not open to this phone", Duration::from_secs(5)).await;
    looker.goto(&read_link).await.unwrap();
    wait_for(&looker, "Ann", Duration::from_secs(5)).await;
    assert_eq!(looker.current_url().await.unwrap().to_string(), sheet);
    assert!(
        !looker.source().await.unwrap().contains("Enter the hand"),
        "a looker gets no hand form"
    );

    // A club's settings page.
    scorer.goto(format!("{base}/clubs/new")).await.unwrap();
    fill(&scorer, "name", "Settings Club").await;
    fill(&scorer, "passphrase", "seven of clubs").await;
    fill(&scorer, "again", "seven of clubs").await;
    submit(&scorer, "form[action='/clubs'] button").await;
    wait_for(&scorer, "Club settings", Duration::from_secs(5)).await;
    scorer
        .find(By::PartialLinkText("Club settings"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(&scorer, "Change the passphrase", Duration::from_secs(5)).await;
    assert!(
        scroll_width(&scorer).await <= 390,
        "the settings fit 390 px"
    );
    screen_screenshot(&scorer, "club-settings-390.png").await;
    // Ended here: a session left to the drop holds the suite two minutes.
    scorer.quit().await.unwrap();
    looker.quit().await.unwrap();
}
