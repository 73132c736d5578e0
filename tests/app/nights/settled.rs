//! A hand in one session of a night reaches the live sheets of
//! the night's other sessions, and a settled night is moved only by a new hand or a void,
//! never by putting a session with money in it or taking one out.

use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use scorekeeper::format::SessionDoc;
use serde_json::json;
use tower::ServiceExt;

use super::common::TestApp;
use super::common::nights::{import_to_club, pitch, seen_at};
use super::{api, statuses};

/// Auction Pitch, Ann, Bob and Dee at 0.10 a point, still open after one hand (Ann bids
/// 4 and takes all four: 4–0–0, no money until a game ends).
fn open_pitch() -> SessionDoc {
    let all = json!({ "high": "Ann", "low": "Ann", "jack": "Ann", "game": "Ann" });
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pitch", "currency": "USD",
        "agreements": { "stake": "0.10", "target": 11 }, "players": ["Ann", "Bob", "Dee"],
        "events": [{ "type": "hand", "dealer": "Dee", "pitcher": "Ann", "bid": 4, "points": all }]
    }))
    .unwrap()
}

/// The body of session `id`'s live sheet, opened with `cookie`.
async fn live(app: &TestApp, cookie: &str, id: i64) -> Body {
    let stream = app
        .router
        .clone()
        .oneshot(
            Request::get(format!("/sessions/{id}/live"))
                .header("cookie", cookie)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(stream.status().as_u16(), 200);
    stream.into_body()
}

/// Sessions `sessions` of `club` made a night; returns the night's page address.
async fn night_of(app: &TestApp, cookie: &str, club: i64, sessions: &[i64]) -> String {
    let ids: Vec<String> = sessions.iter().map(i64::to_string).collect();
    let fields: Vec<(&str, &str)> = ids.iter().map(|s| ("sessions", s.as_str())).collect();
    let made = app
        .post_form_with(
            &format!("/clubs/{club}/nights"),
            &fields,
            &[("cookie", cookie)],
        )
        .await;
    assert_eq!(made.status.as_u16(), 303, "{}", made.body);
    made.location.unwrap()
}

/// Session 1 (Pitch, closed: Ann +2.80, Bob −1.60, Dee −1.20) and session 2 (open, one
/// hand) make a night; session 3 is in no night. A hand entered on session 2's sheet
/// tells session 1's open sheet within a second (its settle-up is the night's), and
/// session 3's sheet hears nothing.
#[tokio::test]
async fn a_hand_in_one_session_reaches_the_live_sheets_of_the_whole_night() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let closed = import_to_club(&app, club, &pitch("Ann", "Bob")).await;
    let playing = import_to_club(&app, club, &open_pitch()).await;
    let outside = import_to_club(&app, club, &open_pitch()).await;
    night_of(&app, &cookie, club, &[closed, playing]).await;
    let mut in_night = live(&app, &cookie, closed).await;
    let mut elsewhere = live(&app, &cookie, outside).await;
    let hand = [
        ("expected_events", "1"),
        ("dealer", "Ann"),
        ("pitcher", "Bob"),
        ("bid", "2"),
        ("points.high", "Bob"),
        ("points.low", "Bob"),
        ("points.jack", "nobody"),
        ("points.game", "Dee"),
        ("revoke_by", ""),
    ];
    let entered = app
        .post_form_with(
            &format!("/sessions/{playing}/hands"),
            &hand,
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(entered.status.as_u16(), 303, "{}", entered.body);
    let frame = tokio::time::timeout(Duration::from_secs(1), in_night.frame())
        .await
        .expect("the night's other sheet hears of the hand within a second");
    let text = String::from_utf8(frame.unwrap().unwrap().into_data().unwrap().to_vec()).unwrap();
    assert!(text.contains("event: changed"), "{text}");
    assert!(text.contains(&format!("data: {closed}")), "{text}");
    let quiet = tokio::time::timeout(Duration::from_millis(300), elsewhere.frame()).await;
    assert!(
        quiet.is_err(),
        "a session outside the night heard: {quiet:?}"
    );
}

/// Sessions 1 and 2 (Pitch, mirrored seats) make a night that nets Ann +1.20, Bob +1.20,
/// Dee −2.40; Dee pays both and the night is settled. Session 3 (Ann +2.80, Bob −1.60,
/// Dee −1.20, unpaid) is refused the settled night, by the page and the API, naming its
/// money; taking session 1 out is refused too. A new session with no money yet joins and
/// the night stays settled.
#[tokio::test]
async fn a_settled_night_takes_no_session_with_money_in_it() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let c = &[("cookie", cookie.as_str())];
    let mut ids = Vec::new();
    for (a, b) in [("Ann", "Bob"), ("Bob", "Ann"), ("Ann", "Bob")] {
        ids.push(import_to_club(&app, club, &pitch(a, b)).await);
    }
    let location = night_of(&app, &cookie, club, &ids[..2]).await;
    let night: i64 = location.rsplit('/').next().unwrap().parse().unwrap();
    for payee in ["Ann", "Bob"] {
        let seen = seen_at(&app, &location, c).await;
        let paid = app
            .post_form_with(
                &format!("{location}/payments"),
                &[
                    ("payer", "Dee"),
                    ("payee", payee),
                    ("amount", "1.20"),
                    ("seen", &seen),
                ],
                c,
            )
            .await;
        assert_eq!(paid.status.as_u16(), 303, "{}", paid.body);
    }
    assert_eq!(
        statuses(&app, &cookie, club, &ids[..2]).await,
        ["settled", "settled"]
    );

    let third = ids[2].to_string();
    let night_field = night.to_string();
    let added = app
        .post_form_with(
            &format!("/clubs/{club}/nights"),
            &[
                ("night", night_field.as_str()),
                ("sessions", third.as_str()),
            ],
            c,
        )
        .await;
    assert_eq!(added.status.as_u16(), 409, "{}", added.body);
    let said = format!(
        "is settled: everyone is square. Session {third} (Auction Pitch) has money in it \
         (Ann +\u{2060}$2.80, Bob −\u{2060}$1.60, Dee −\u{2060}$1.20), so putting it in the \
         night would make the night owe again; only a new hand or a void does that."
    );
    assert!(added.body.contains(&said), "{}", added.body);
    let by_api = app
        .post_json_with(
            &format!("/api/v1/clubs/{club}/nights"),
            &json!({ "night": night, "sessions": [ids[2]] }),
            c,
        )
        .await;
    assert_eq!(by_api.status.as_u16(), 409, "{}", by_api.body);
    assert_eq!(
        by_api.json()["error"]["field"],
        "sessions",
        "{}",
        by_api.body
    );

    let out = app
        .post_form_with(&format!("{location}/sessions/{}/remove", ids[0]), &[], c)
        .await;
    assert_eq!(out.status.as_u16(), 409, "{}", out.body);
    assert!(
        out.body
            .contains("so taking it out of the night would make the night owe again"),
        "{}",
        out.body
    );
    let v = api(&app, &cookie, club, night).await;
    assert_eq!(v["sessions"], json!([ids[0], ids[1]]));
    assert_eq!(v["transfers"], json!([]));

    // A game just started has no money in it: it joins, and the night stays settled.
    let fresh = import_to_club(&app, club, &open_pitch()).await;
    let joined = app
        .post_form_with(
            &format!("/clubs/{club}/nights"),
            &[
                ("night", night_field.as_str()),
                ("sessions", &fresh.to_string()),
            ],
            c,
        )
        .await;
    assert_eq!(joined.status.as_u16(), 303, "{}", joined.body);
    let v = api(&app, &cookie, club, night).await;
    assert_eq!(v["sessions"], json!([ids[0], ids[1], fresh]));
    assert_eq!(v["transfers"], json!([]));
}
