//! Fast seating on the new-session form: a club's players are offered for every seat, and
//! the last table's seating is one tap away.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{has, select_attr};

#[tokio::test]
async fn the_club_roster_and_the_last_seating_fill_the_seats() {
    let app = TestApp::new().await;
    let (_, cookie) = app.new_club("Friday Pinochle").await;
    let headers = [("cookie", cookie.as_str())];
    // Without a session yet, nothing to offer.
    let empty = app
        .get_with("/sessions/new?game=auction_pinochle", &headers)
        .await;
    assert!(!empty.body.contains("Same seats as last time"));
    let created = app
        .post_form_with_ok(
            "/sessions",
            &[
                ("game", "auction_pinochle"),
                ("player_1", "Margaret"),
                ("player_2", "Salvatore"),
                ("player_3", "Vincenzo"),
                ("a.stake", "0.05"),
            ],
            &headers,
        )
        .await;
    let sheet = created.location.unwrap();
    app.post_form_with_ok(
        &format!("{sheet}/hands"),
        &[
            ("expected_events", "0"),
            ("dealer", "Vincenzo"),
            ("bidder", "Margaret"),
            ("bid", "250"),
            ("trump", "hearts"),
            ("outcome", "made"),
        ],
        &headers,
    )
    .await;

    let form = app
        .get_with("/sessions/new?game=auction_pinochle", &headers)
        .await
        .body;
    for name in ["Margaret", "Salvatore", "Vincenzo"] {
        assert!(
            select_attr(&form, "option", "value").contains(&name.to_string()),
            "{name} is offered"
        );
    }
    assert!(has(&form, "[list=roster]"));
    assert!(form.contains("Same seats as last time: Margaret, Salvatore, Vincenzo"));
    // One tap: the seats come filled, in the same order.
    let filled = app
        .get_with("/sessions/new?game=auction_pinochle&last=1", &headers)
        .await
        .body;
    assert!(has(&filled, "[name=player_1][value=Margaret]"), "{filled}");
    assert!(has(&filled, "[name=player_3][value=Vincenzo]"));
    // Another game's form offers the same table.
    let pitch = app
        .get_with("/sessions/new?game=auction_pitch", &headers)
        .await
        .body;
    assert!(pitch.contains("Same seats as last time: Margaret, Salvatore, Vincenzo"));
    // A session started by mistake with three of the five and left without a hand is no
    // table to repeat: the offer stays the table that played.
    app.post_form_with_ok(
        "/sessions",
        &[
            ("game", "auction_pinochle"),
            ("player_1", "Tony"),
            ("player_2", "Rosemary"),
            ("player_3", "Margaret"),
            ("a.stake", "0.05"),
        ],
        &headers,
    )
    .await;
    let form = app
        .get_with("/sessions/new?game=auction_pinochle", &headers)
        .await
        .body;
    assert!(
        form.contains("Same seats as last time: Margaret, Salvatore, Vincenzo"),
        "{form}"
    );
    // Outsiders see no roster.
    let outsider = app.get("/sessions/new?game=auction_pinochle").await.body;
    assert!(!outsider.contains("Margaret"));
}
