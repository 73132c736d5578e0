//! Nights past, the gaps closed, in a real browser at phone width (390 px): a
//! hand recorded by tapping a renamed player's chip is recorded for that player under the
//! name he sat under, and a night's proposed transfer recorded with its own button, the
//! transfers shrinking as worked out by hand. Screenshots: `target/screenshots/`
//! `sheet-renamed-390.png`, `night-pay-390.png` and `night-pay-done-390.png`, for a person
//! to look at.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); skipped with a
//! note without them, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;
use scorekeeper::ids::ClubId;

use std::time::Duration;

use common::browser::{
    Browser, choose, fill, page_screenshot, scroll_width, section_screenshot, start_club, submit,
    text_of, wait_for,
};
use common::nights::pitch;
use scorekeeper::format::SessionDoc;
use serde_json::{Value, json};
use thirtyfour::By;

/// Bob of an open Auction Pinochle sheet (Ann, Bob, Cy; one hand, Cy dealt, Ann 350 made)
/// is renamed Robert. On the phone the bidder chips read Ann, Robert, Cy; tapping Robert
/// records Bob as the bidder, and the sheet's line reads Robert.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tapping_a_renamed_players_chip_records_the_hand_for_him() {
    let Some(browser) = Browser::start("names-chip").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("chip").await;
    let club = start_club(&phone, &base, "Renamers").await;
    let doc: SessionDoc = serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": { "stake": "0.05", "kitty": "pot" }, "players": ["Ann", "Bob", "Cy"],
        "events": [
            { "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 350, "trump": "hearts", "outcome": "made" }
        ]
    }))
    .unwrap();
    let id = scorekeeper::service::import(&browser.store, &doc, Some(ClubId(club)))
        .await
        .unwrap();
    let bob = scorekeeper::service::history::people(&browser.store, ClubId(club))
        .await
        .unwrap()
        .into_iter()
        .find(|p| p.display_name == "Bob")
        .unwrap();
    scorekeeper::service::history::rename(&browser.store, ClubId(club), bob.id, "Robert")
        .await
        .unwrap();

    phone.goto(format!("{base}/sessions/{id}")).await.unwrap();
    wait_for(&phone, "Next hand", Duration::from_secs(5)).await;
    let chips: Vec<String> = {
        let mut out = Vec::new();
        for chip in phone
            .find_all(By::Css("#next fieldset.chips input[name='bidder'] + span"))
            .await
            .unwrap()
        {
            out.push(chip.text().await.unwrap());
        }
        out
    };
    assert_eq!(chips, ["Ann", "Robert", "Cy"]);
    // The chip a player taps is the one that reads Robert.
    phone
        .find(By::XPath(
            "//section[@id='next']//input[@name='bidder']/following-sibling::span[.='Robert']/parent::label",
        ))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    fill(&phone, "bid", "300").await;
    choose(&phone, "trump", "clubs").await;
    choose(&phone, "outcome", "made").await;
    section_screenshot(&phone, "next", "sheet-renamed-390.png").await;
    assert!(scroll_width(&phone).await <= 390, "the sheet fits a phone");
    submit(&phone, "#next form.hand-form button[type='submit']").await;
    wait_for(&phone, "Undo last hand (hand 2)", Duration::from_secs(5)).await;
    let sheet = text_of(&phone, By::Css("#sheet tbody")).await;
    assert!(sheet.contains("Robert"), "{sheet}");

    // Either engine's store (SCOREKEEPER_TEST_ENGINE), so the SQL goes through the helper.
    let last_hand = format!(
        "SELECT body FROM events WHERE session_id = {id} AND kind = 'hand' ORDER BY seq DESC LIMIT 1"
    );
    let body = common::engines::text(&browser.store, &last_hand).await;
    let hand: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(hand["bidder"], "Bob", "{hand}");
    assert_eq!(hand["bid"], 300, "{hand}");
    let source = phone.source().await.unwrap();
    assert!(!source.contains(">Bob<"), "{source}");
    phone.quit().await.unwrap();
}

/// Two Pitch sessions with the seats swapped: Ann +2.80 − 1.60 = +1.20, Bob −1.60 + 2.80 =
/// +1.20, Dee −2.40, so Dee pays Ann 1.20 and Bob 1.20. Tapping the first transfer's
/// button records Dee → Ann 1.20: only Dee → Bob 1.20 is left. Then Dee hands Bob 0.50
/// through the free form (which starts on "Who pays"): Dee → Bob 0.70 is left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nights_transfer_is_recorded_with_its_own_button() {
    let Some(browser) = Browser::start("names-night-pay").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("pay").await;
    let club = start_club(&phone, &base, "Payers").await;
    let mut ids = Vec::new();
    for doc in [pitch("Ann", "Bob"), pitch("Bob", "Ann")] {
        ids.push(
            scorekeeper::service::import(&browser.store, &doc, Some(ClubId(club)))
                .await
                .unwrap(),
        );
    }
    let night =
        scorekeeper::service::nights::group(&browser.store, ClubId(club), None, "Friday", &ids)
            .await
            .unwrap();
    phone
        .goto(format!("{base}/clubs/{club}/nights/{night}"))
        .await
        .unwrap();
    wait_for(&phone, "To settle the night", Duration::from_secs(5)).await;
    let source = phone.source().await.unwrap();
    assert!(source.contains("Dee pays Ann $1.20"), "{source}");
    assert!(source.contains("Dee pays Bob $1.20"), "{source}");
    let payer = phone
        .find(By::Css("form.night-pay select[name='payer']"))
        .await
        .unwrap();
    assert_eq!(payer.value().await.unwrap().as_deref(), Some(""));
    assert!(scroll_width(&phone).await <= 390, "the night fits a phone");
    page_screenshot(&phone, "night-pay-390.png").await;
    // A 44 px target: a button, tapped on purpose.
    let button = phone
        .find(By::Css(
            "form.record-transfer:has(input[name='payee'][value='Ann']) button",
        ))
        .await
        .unwrap();
    let height: f64 = phone
        .execute(
            "return arguments[0].getBoundingClientRect().height;",
            vec![button.to_json().unwrap()],
        )
        .await
        .unwrap()
        .json()
        .as_f64()
        .unwrap();
    assert!(height >= 44.0, "the button is {height} px tall");
    button.click().await.unwrap();
    wait_for(&phone, "Payments tonight", Duration::from_secs(5)).await;
    let source = phone.source().await.unwrap();
    assert!(source.contains("Dee paid Ann $1.20"), "{source}");
    assert!(!source.contains("Dee pays Ann"), "{source}");
    assert!(source.contains("Dee pays Bob $1.20"), "{source}");

    choose(&phone, "payer", "Dee").await;
    choose(&phone, "payee", "Bob").await;
    fill(&phone, "amount", "0.50").await;
    submit(&phone, "form.night-pay button").await;
    wait_for(&phone, "Dee paid Bob $0.50", Duration::from_secs(5)).await;
    let source = phone.source().await.unwrap();
    assert!(source.contains("Dee pays Bob $0.70"), "{source}");
    assert!(scroll_width(&phone).await <= 390, "the night fits a phone");
    page_screenshot(&phone, "night-pay-done-390.png").await;
    phone.quit().await.unwrap();
}
