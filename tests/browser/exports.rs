//! The exports in a real browser at phone width (390 px): a club is restored from its
//! backup file through the restore page, its page and a sheet show the download links, and
//! the downloads the links point at answer with the club's data under the login cookie.
//! Screenshots go under `target/screenshots/`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use common::browser::{
    Browser, fill, link_fetch, page_fetch, screen_screenshot, scroll_width, sheet_screenshot,
    submit, wait_for,
};
use serde_json::json;
use thirtyfour::prelude::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_club_restored_from_its_backup_offers_its_downloads_at_phone_width() {
    let Some(browser) = Browser::start("exports").await else {
        return;
    };
    let base = browser.base.clone();
    let phone = browser.phone("restorer").await;
    // A backup with one Auction Pinochle night: golden case KT-05 (an all-pass, a failed 350
    // in hearts with the kitty pot) and a payment: Ann −2.00, Bob 0.00, Cy +0.20, kitty 1.80.
    let backup = json!({
        "format": "scorekeeper/club@1", "name": "Thursday", "players": ["Ann", "Bob", "Cy"],
        "sessions": [{ "created_at": "2026-11-19T19:30:00Z",
            "recorded_at": ["2026-11-19T19:41:00Z", "2026-11-19T19:52:00Z", "2026-11-19T23:05:00Z"],
            "session": { "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
                "agreements": { "stake": "0.05", "kitty": "pot" }, "players": ["Ann", "Bob", "Cy"],
                "opening_scores": null,
                "events": [
                    { "type": "hand", "dealer": "Bob", "all_passed": true },
                    { "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 350, "trump": "hearts", "outcome": "failed" },
                    { "type": "payment", "from": "Ann", "to": "Bob", "amount": "0.20" }
                ] } }]
    });
    let file = browser.work.join("thursday-backup.json");
    std::fs::write(&file, backup.to_string()).unwrap();

    phone.goto(format!("{base}/clubs/new")).await.unwrap();
    phone
        .find(By::Css("a[href='/clubs/import']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(&phone, "Restore a club", Duration::from_secs(10)).await;
    phone
        .find(By::Css("input[name='backup']"))
        .await
        .unwrap()
        .send_keys(file.display().to_string())
        .await
        .unwrap();
    fill(&phone, "name", "Thursday at Sal's").await;
    fill(&phone, "passphrase", "seven of clubs").await;
    assert!(scroll_width(&phone).await <= 390);
    screen_screenshot(&phone, "exports-restore-390.png").await;
    submit(&phone, "form[action='/clubs/import'] button").await;
    wait_for(&phone, "Thursday at Sal's", Duration::from_secs(10)).await;
    let club_url = phone.current_url().await.unwrap().to_string();
    let club_id = club_url.rsplit('/').next().unwrap().to_string();
    assert!(scroll_width(&phone).await <= 390);
    phone
        .find(By::Css("p.downloads"))
        .await
        .unwrap()
        .scroll_into_view()
        .await
        .unwrap();
    screen_screenshot(&phone, "exports-club-390.png").await;

    let (status, results) =
        page_fetch(&phone, &format!("/api/v1/clubs/{club_id}/results.csv")).await;
    assert_eq!(status, 200);
    let session_id: i64 = results
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        results,
        format!(
            "session,date,game,player,net\n\
             {session_id},2026-11-19,auction_pinochle,Ann,-2.00\n\
             {session_id},2026-11-19,auction_pinochle,Bob,0.00\n\
             {session_id},2026-11-19,auction_pinochle,Cy,0.20\n\
             {session_id},2026-11-19,auction_pinochle,KITTY,1.80\n"
        )
    );
    let (status, journal) = page_fetch(&phone, &format!("/api/v1/clubs/{club_id}/journal")).await;
    assert_eq!(status, 200);
    assert!(
        journal.contains("2026-11-19 * "),
        "the restored times date the transactions: {journal}"
    );

    phone
        .goto(format!("{base}/sessions/{session_id}"))
        .await
        .unwrap();
    wait_for(&phone, "postings (CSV)", Duration::from_secs(10)).await;
    assert!(scroll_width(&phone).await <= 390);
    let (status, postings) = link_fetch(&phone, "postings (CSV)").await;
    assert_eq!(status, 200);
    assert!(postings.starts_with("event,hand,type,recorded_at,account,amount,explanation\n"));
    assert!(
        postings.contains("2,,payment,2026-11-19T23:05:00Z,Ann,0.20,"),
        "{postings}"
    );
    assert_eq!(link_fetch(&phone, "journal (hledger)").await.0, 200);
    screen_screenshot(&phone, "exports-sheet-top-390.png").await;
    sheet_screenshot(&phone, "exports-sheet-390.png").await;
    phone.quit().await.unwrap();
}
