//! Fast seating on the new-session form: a club's players are offered for every seat, and
//! the last table's seating is one tap away.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{has, select_attr};

/// The new-session form at `/sessions/new?{query}` as the club member with `cookie` sees it.
async fn new_session_form(app: &TestApp, query: &str, cookie: &str) -> String {
    app.get_with(&format!("/sessions/new?{query}"), &[("cookie", cookie)])
        .await
        .body
}

/// Starts an Auction Pinochle session (0.05) of `players` in seat order for the club member
/// with `cookie`; the sheet's address.
async fn start_pinochle(app: &TestApp, players: [&str; 3], cookie: &str) -> String {
    let reply = app
        .post_form_with_ok(
            "/sessions",
            &[
                ("game", "auction_pinochle"),
                ("player_1", players[0]),
                ("player_2", players[1]),
                ("player_3", players[2]),
                ("a.stake", "0.05"),
            ],
            &[("cookie", cookie)],
        )
        .await;
    reply.location.unwrap()
}

#[tokio::test]
async fn the_club_roster_and_the_last_seating_fill_the_seats() {
    let app = TestApp::new().await;
    let (_, cookie) = app.new_club("Friday Pinochle").await;
    let headers = [("cookie", cookie.as_str())];
    // Without a session yet, nothing to offer.
    let empty = new_session_form(&app, "game=auction_pinochle", &cookie).await;
    assert!(!empty.contains("Same seats as last time"));
    let sheet = start_pinochle(&app, ["Margaret", "Salvatore", "Vincenzo"], &cookie).await;
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

    let form = new_session_form(&app, "game=auction_pinochle", &cookie).await;
    for name in ["Margaret", "Salvatore", "Vincenzo"] {
        assert!(
            select_attr(&form, "option", "value").contains(&name.to_string()),
            "{name} is offered"
        );
    }
    assert!(has(&form, "[list=roster]"));
    assert!(form.contains("Same seats as last time: Margaret, Salvatore, Vincenzo"));
    // One tap: the seats come filled, in the same order.
    let filled = new_session_form(&app, "game=auction_pinochle&last=1", &cookie).await;
    assert!(has(&filled, "[name=player_1][value=Margaret]"), "{filled}");
    assert!(has(&filled, "[name=player_3][value=Vincenzo]"));
    // Another game's form offers the same table.
    let pitch = new_session_form(&app, "game=auction_pitch", &cookie).await;
    assert!(pitch.contains("Same seats as last time: Margaret, Salvatore, Vincenzo"));
    // A session started by mistake with three of the five and left without a hand is no
    // table to repeat: the offer stays the table that played.
    start_pinochle(&app, ["Tony", "Rosemary", "Margaret"], &cookie).await;
    let form = new_session_form(&app, "game=auction_pinochle", &cookie).await;
    assert!(
        form.contains("Same seats as last time: Margaret, Salvatore, Vincenzo"),
        "{form}"
    );
    // Outsiders see no roster.
    let outsider = app.get("/sessions/new?game=auction_pinochle").await.body;
    assert!(!outsider.contains("Margaret"));
}
