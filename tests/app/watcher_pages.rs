//! What a watcher (a lookers' link or a club's share link) sees of a session: the
//! standings and the latest hands as they now stand, through the real router.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{body_rows, cell_words, has, select_text};
use serde_json::{Value, json};

/// An Auction Pinochle hand: `dealer` deals, `bidder` bids 250 in hearts with `outcome`.
fn hand(dealer: &str, bidder: &str, outcome: &str) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": 250,
           "trump": "hearts", "outcome": outcome})
}

/// Imports a club-less session of `events`: its sheet's address and its lookers' link.
async fn session_of(app: &TestApp, events: Vec<Value>) -> (String, String) {
    let doc = json!({"format": "scorekeeper/session@1", "game": "auction_pinochle",
                     "agreements": {"stake": "0.05"}, "players": ["Ann", "Bob", "Cy"],
                     "events": events});
    let created = app.post_json("/api/v1/sessions/import", &doc).await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let created = created.json();
    let id = created["id"].as_i64().unwrap();
    let read = created["links"]["read"].as_str().unwrap().to_string();
    (format!("/sessions/{id}"), read)
}

/// The cookie a phone gets by opening the lookers' link `read` (it holds no other).
async fn looker(app: &TestApp, read: &str) -> String {
    let opened = app.get_with(read, &[("cookie", "none=0")]).await;
    assert_eq!(opened.status.as_u16(), 303, "{}", opened.body);
    opened.cookie()
}

/// The sheet's lines that carry a hand or its amendment (`tr.entry`), each as its number,
/// its words and its cells.
fn entry_lines(page: &str) -> Vec<String> {
    body_rows(page)
        .into_iter()
        .filter(|row| has(row, "tr.entry"))
        .map(|row| cell_words(&row, "tr").join(" "))
        .collect()
}

#[tokio::test]
async fn a_watcher_sees_the_latest_hands_as_they_stand_not_an_undo_and_a_correction() {
    let app = TestApp::new().await;
    // Hand 3 is corrected (Cy made it after all), then hand 4 is undone: the last two
    // lines of the sheet are the correction and the undo.
    let (sheet, read) = session_of(
        &app,
        vec![
            hand("Cy", "Ann", "made"),
            hand("Ann", "Bob", "made"),
            hand("Bob", "Cy", "failed"),
            hand("Cy", "Ann", "made"),
            json!({"type": "correction", "event": 2, "replacement": hand("Bob", "Cy", "made"),
                   "reason": "Cy made it"}),
            json!({"type": "void", "event": 3, "reason": "misdeal"}),
        ],
    )
    .await;
    let cookie = looker(&app, &read).await;
    let page = app.get_with(&sheet, &[("cookie", &cookie)]).await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    assert!(!page.body.contains("Enter the hand"), "a looker's page");

    // The two hands that count last: hand 2 as entered and hand 3 as corrected.
    let lines = entry_lines(&page.body);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(lines[0].starts_with("2 "), "hand 2: {lines:#?}");
    assert!(lines[1].contains("corrects hand 3"), "{lines:#?}");
    assert!(
        lines.iter().all(|l| !l.contains("undoes")),
        "no undo line: {lines:#?}"
    );
    assert!(!has(&page.body, "#sheet tr.struck"), "nothing struck");
    // Each line's money reads as on the whole sheet: the lines left out still count.
    let whole = app
        .get_with(&format!("{sheet}?all=1"), &[("cookie", &cookie)])
        .await;
    let whole = entry_lines(&whole.body);
    for line in &lines {
        assert!(whole.contains(line), "{line:?} is not on {whole:#?}");
    }
    // The rest of the sheet is a tap away, every line of it counted.
    let earlier = select_text(&page.body, "#sheet a.earlier");
    assert_eq!(earlier, ["The whole sheet: 4 earlier lines"]);
}

/// A share-link viewer's club page offers "Log out" where a member's does; it drops the
/// phone's cookie (and so the pages it kept) and leaves the club's link working.
#[tokio::test]
async fn a_share_link_viewer_can_log_out_and_the_link_still_opens() {
    let app = TestApp::new().await;
    let (club, member) = app.new_club("Thursday").await;
    let club_page = format!("/clubs/{club}");
    let page = app.page(&member, &club_page).await;
    let share = page
        .split("/share/")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let share = format!("/share/{share}");
    let reader = looker(&app, &share).await;
    let looked = app.page(&reader, &club_page).await;
    assert_eq!(
        select_text(&looked, "form[action=\"/logout\"] button"),
        ["Log out"]
    );
    let out = app
        .post_form_with("/logout", &[], &[("cookie", &reader)])
        .await;
    assert_eq!(out.status.as_u16(), 303, "{}", out.body);
    assert_eq!(out.location.as_deref(), Some("/"));
    let dropped = out.set_cookie.unwrap_or_default();
    assert!(
        dropped.starts_with("sk_session=;") && dropped.contains("Max-Age=0"),
        "the cookie is dropped: {dropped}"
    );
    // The link is not revoked: this phone (or any other) opens it again.
    let again = looker(&app, &share).await;
    assert_eq!(
        app.get_with(&club_page, &[("cookie", &again)])
            .await
            .status
            .as_u16(),
        200
    );
}
