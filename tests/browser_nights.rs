//! Nights (issue 12 item 7) in a real browser at phone width (390 px): two Pitch sessions
//! ticked on the club's history and made one night, the night's page with its net and
//! transfers, and a payment recorded against it. Screenshot:
//! `target/screenshots/night-390.png`, for a person to look at.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); skipped with a
//! note without them, except under CI, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

mod common;

use std::time::Duration;

use common::browser::{Browser, choose, fill, screenshots, scroll_width, submit, wait_for};
use scorekeeper::format::SessionDoc;
use serde_json::json;

/// The Pitch session of `tests/nights.rs`: `a` +2.80, `b` −1.60, Dee −1.20.
fn pitch(a: &str, b: &str) -> SessionDoc {
    let all = json!({ "high": a, "low": a, "jack": a, "game": a });
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pitch", "currency": "USD",
        "agreements": { "stake": "0.10", "target": 11 }, "players": [a, b, "Dee"],
        "events": [
            { "type": "hand", "dealer": "Dee", "pitcher": a, "bid": 4, "points": all },
            { "type": "hand", "dealer": a, "pitcher": b, "bid": 3, "points": { "high": a, "low": b, "jack": null, "game": "Dee" } },
            { "type": "hand", "dealer": b, "pitcher": a, "bid": 4, "points": all },
            { "type": "hand", "dealer": "Dee", "pitcher": a, "bid": 4, "points": all },
            { "type": "close" }
        ]
    }))
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_night_is_made_and_settled_on_a_phone() {
    let Some(browser) = Browser::start("nights").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("night").await;
    let shots = screenshots();
    phone.goto(format!("{base}/clubs/new")).await.unwrap();
    fill(&phone, "name", "Thursday Nights").await;
    fill(&phone, "passphrase", "seven of clubs").await;
    fill(&phone, "again", "seven of clubs").await;
    submit(&phone, "form[action='/clubs'] button").await;
    wait_for(&phone, "Share link", Duration::from_secs(5)).await;
    let club_url = phone.current_url().await.unwrap().to_string();
    let club: i64 = club_url.rsplit('/').next().unwrap().parse().unwrap();
    for doc in [pitch("Ann", "Bob"), pitch("Bob", "Ann")] {
        scorekeeper::service::import(&browser.store, &doc, Some(club))
            .await
            .unwrap();
    }

    phone
        .goto(format!("{base}/clubs/{club}/history"))
        .await
        .unwrap();
    wait_for(&phone, "Make a night", Duration::from_secs(5)).await;
    assert!(
        scroll_width(&phone).await <= 390,
        "the history fits a phone"
    );
    for tick in phone
        .find_all(thirtyfour::By::Css("input[name='sessions']"))
        .await
        .unwrap()
    {
        tick.click().await.unwrap();
    }
    // The per-session title fields come first; this is the night's.
    phone
        .find(thirtyfour::By::Css("#make-night input[name='title']"))
        .await
        .unwrap()
        .send_keys("Thursday at Sal's")
        .await
        .unwrap();
    submit(&phone, "form#make-night button").await;
    wait_for(&phone, "To settle the night", Duration::from_secs(5)).await;
    // Ann +1.20, Bob +1.20, Dee −2.40: Dee pays each 1.20 (tests/nights.rs by hand).
    let source = phone.source().await.unwrap();
    assert!(source.contains("Dee pays Ann $1.20"), "{source}");
    assert!(source.contains("Dee pays Bob $1.20"), "{source}");
    assert!(scroll_width(&phone).await <= 390, "the night fits a phone");
    phone
        .screenshot(&shots.join("night-390.png"))
        .await
        .unwrap();

    choose(&phone, "payer", "Dee").await;
    choose(&phone, "payee", "Ann").await;
    fill(&phone, "amount", "1.20").await;
    submit(&phone, "form.night-pay button").await;
    wait_for(&phone, "Payments tonight", Duration::from_secs(5)).await;
    let source = phone.source().await.unwrap();
    assert!(!source.contains("Dee pays Ann"), "{source}");
    assert!(source.contains("Dee pays Bob $1.20"), "{source}");
    assert!(scroll_width(&phone).await <= 390, "the night fits a phone");
    phone
        .screenshot(&shots.join("night-paid-390.png"))
        .await
        .unwrap();

    // The next session's form offers to join tonight's night.
    phone
        .goto(format!("{base}/sessions/new?game=auction_pitch"))
        .await
        .unwrap();
    wait_for(&phone, "Join Thursday at Sal's", Duration::from_secs(5)).await;
    assert!(scroll_width(&phone).await <= 390, "the form fits a phone");
    let night = phone
        .find(thirtyfour::By::Css("fieldset.tonight"))
        .await
        .unwrap();
    night.scroll_into_view().await.unwrap();
    phone
        .screenshot(&shots.join("night-new-session-390.png"))
        .await
        .unwrap();
}
