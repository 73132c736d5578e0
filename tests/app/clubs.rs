//! Clubs and access: the passphrase writes, the share link only looks, outsiders see
//! nothing; cross-site posts, wrong passphrases, retries and live sheets.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, header};
use common::TestApp;
use common::html::{has, has_term, select_text, texts};
use common::pages::{ANN_BOB_CY, club_export_of, club_ledger_of};
use http_body_util::BodyExt;
use serde_json::json;
use tower::ServiceExt;

/// Creates a club through the form; returns its page and the login cookie ("name=value").
async fn club(app: &TestApp, name: &str) -> (String, String) {
    let reply = app
        .post_form_ok(
            "/clubs",
            &[
                ("name", name),
                ("passphrase", "seven of clubs"),
                ("again", "seven of clubs"),
            ],
        )
        .await;
    let cookie = reply.set_cookie.clone().expect("a login cookie");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    (
        reply.location.unwrap(),
        cookie.split(';').next().unwrap().to_string(),
    )
}

/// Posts the hand `form` to `sheet` with `cookie`: the status of the answer (303 when the
/// hand went in, 403 when that cookie may not write).
async fn hand_status(app: &TestApp, sheet: &str, form: &[(&str, &str)], cookie: &str) -> u16 {
    app.post_form_with(&format!("{sheet}/hands"), form, &[("cookie", cookie)])
        .await
        .status
        .as_u16()
}

async fn new_session(app: &TestApp, cookie: &str) -> String {
    let reply = app
        .post_form_with_ok("/sessions", &ANN_BOB_CY, &[("cookie", cookie)])
        .await;
    reply.location.unwrap()
}

const HAND: [(&str, &str); 6] = [
    ("expected_events", "0"),
    ("dealer", "Cy"),
    ("bidder", "Ann"),
    ("bid", "250"),
    ("trump", "hearts"),
    ("outcome", "made"),
];

#[tokio::test]
async fn the_passphrase_writes_the_share_link_looks_and_outsiders_see_nothing() {
    let app = TestApp::new().await;
    let (club_page, cookie) = club(&app, "Tuesday Pinochle").await;
    let page = app.get_with(&club_page, &[("cookie", &cookie)]).await;
    assert_eq!(page.status.as_u16(), 200);
    let share = page
        .body
        .split("/share/")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let sheet = new_session(&app, &cookie).await;
    let id = sheet.rsplit('/').next().unwrap().to_string();

    // Outsiders: the session, its ledger and the club are invisible, and nothing is listed.
    let outside = app.get(&sheet).await;
    assert_eq!(outside.status.as_u16(), 404);
    // The page says what opens it, with a link to log in, not "there is no session"…
    assert!(
        texts(&outside.body)
            .iter()
            .any(|t| t.contains("A club's session needs the club's login"))
            && has(&outside.body, "[href=\"/login\"]")
            && !outside.body.contains("there is no session"),
        "{}",
        outside.body
    );
    // …and says the same of a session that does not exist: nothing more is told.
    let nowhere = app.get("/sessions/987654").await;
    assert_eq!(nowhere.status.as_u16(), 404);
    assert_eq!(
        nowhere.body.replace("987654", "N"),
        outside
            .body
            .replace(&format!("Session {id} "), "Session N ")
    );
    assert_eq!(
        app.get(&format!("/api/v1/sessions/{id}/ledger"))
            .await
            .status
            .as_u16(),
        404
    );
    assert_eq!(app.get(&club_page).await.status.as_u16(), 404);
    assert!(
        !app.get("/")
            .await
            .body
            .contains(&format!("/sessions/{id}\""))
    );
    assert_eq!(
        app.get("/api/v1/sessions").await.json()["sessions"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    // …and cannot write: nothing recorded, and the answer is the one a
    // session that does not exist gets, 404, not a 401 that would tell the id is a club's.
    let form = app.post_form(&format!("{sheet}/hands"), &HAND).await;
    let form_nowhere = app.post_form("/sessions/987654/hands", &HAND).await;
    assert_eq!(form.status.as_u16(), 404);
    assert_eq!(form_nowhere.status.as_u16(), 404);
    let hand = json!({"type": "hand", "dealer": "Cy", "all_passed": true});
    let api = app
        .post_json(&format!("/api/v1/sessions/{id}/events"), &hand)
        .await;
    let api_nowhere = app.post_json("/api/v1/sessions/987654/events", &hand).await;
    assert_eq!(api.status.as_u16(), 404);
    assert_eq!(
        api.body.replace(&id.to_string(), "N"),
        api_nowhere.body.replace("987654", "N")
    );

    // The passphrase's cookie writes.
    assert_eq!(hand_status(&app, &sheet, &HAND, &cookie).await, 303);

    // The share link looks: it sets a read-only cookie; the sheet shows without forms and writes get 403.
    let opened = app.get(&format!("/share/{share}")).await;
    assert_eq!(opened.status.as_u16(), 303);
    let reader = opened.cookie();
    // A looker's club page offers "Log out" as a member's does (watcher_pages.rs).
    let looked = app.get_with(&club_page, &[("cookie", &reader)]).await;
    assert_eq!(looked.status.as_u16(), 200, "{}", looked.body);
    let page = app.get_with(&club_page, &[("cookie", &cookie)]).await.body;
    assert!(
        select_text(&page, "button")
            .iter()
            .any(|b| b.ends_with("Log out"))
    );
    let seen = app.get_with(&sheet, &[("cookie", &reader)]).await;
    assert_eq!(seen.status.as_u16(), 200);
    assert!(seen.body.contains("Ann bid 250 in hearts and made it"));
    assert!(
        !seen.body.contains("Enter the hand"),
        "no hand form for a reader"
    );
    let mut next = HAND;
    next[0] = ("expected_events", "1");
    assert_eq!(hand_status(&app, &sheet, &next, &reader).await, 403);
    let export = club_export_of(&app, id, &cookie).await;
    assert_eq!(
        export["events"].as_array().unwrap().len(),
        1,
        "only the passphrase's hand was recorded"
    );

    // Players keep their identity across the club's sessions: the club page nets them.
    let sheet2 = new_session(&app, &cookie).await;
    assert_eq!(hand_status(&app, &sheet2, &HAND, &cookie).await, 303);
    let page = app.get_with(&club_page, &[("cookie", &cookie)]).await;
    // Ann made 250 in hearts twice: +0.20 each time.
    assert!(
        has_term(&page.body, "dd.money.plus", "Ann", "$0.40"),
        "{}",
        page.body
    );
}

#[tokio::test]
async fn a_cross_site_form_post_is_refused_and_writes_nothing() {
    let app = TestApp::new().await;
    let (_, cookie) = club(&app, "Cross").await;
    let sheet = new_session(&app, &cookie).await;
    for headers in [
        vec![
            ("cookie", cookie.as_str()),
            ("origin", "http://evil.example"),
            ("host", "127.0.0.1:3000"),
        ],
        vec![
            ("cookie", cookie.as_str()),
            ("sec-fetch-site", "cross-site"),
        ],
    ] {
        let reply = app
            .post_form_with(&format!("{sheet}/hands"), &HAND, &headers)
            .await;
        assert_eq!(reply.status.as_u16(), 403, "{headers:?}");
    }
    // The same post from the page itself goes through.
    let same = app
        .post_form_with(
            &format!("{sheet}/hands"),
            &HAND,
            &[
                ("cookie", &cookie),
                ("origin", "http://127.0.0.1:3000"),
                ("host", "127.0.0.1:3000"),
                ("sec-fetch-site", "same-origin"),
            ],
        )
        .await;
    assert_eq!(same.status.as_u16(), 303);
    let id = sheet.rsplit('/').next().unwrap();
    let export = club_export_of(&app, id, &cookie).await;
    assert_eq!(export["events"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn wrong_passphrases_are_refused_and_rate_limited() {
    let app = TestApp::new().await;
    club(&app, "Limited").await;
    let wrong = app
        .post_form(
            "/login",
            &[("name", "Limited"), ("passphrase", "nine of hearts")],
        )
        .await;
    assert_eq!(wrong.status.as_u16(), 401);
    assert!(wrong.body.contains("do not match"));
    let right = app
        .post_form(
            "/login",
            &[("name", "limited"), ("passphrase", "seven of clubs")],
        )
        .await;
    assert_eq!(
        right.status.as_u16(),
        303,
        "names are matched regardless of case"
    );
    // Requests driven without a socket share one address; it has 10 attempts, then waits.
    let mut last = 0;
    for _ in 0..9 {
        last = app
            .post_form("/login", &[("name", "Limited"), ("passphrase", "guess")])
            .await
            .status
            .as_u16();
    }
    assert_eq!(
        last, 429,
        "10 attempts from one address, then one every 6 seconds"
    );
    let api = app
        .post_json(
            "/api/v1/tokens",
            &json!({"name": "Limited", "passphrase": "seven of clubs"}),
        )
        .await;
    assert_eq!(api.status.as_u16(), 429, "the API shares the limit");
    assert_eq!(api.json()["error"]["code"], "too_many_requests");
}

#[tokio::test]
async fn the_api_uses_bearer_tokens_and_idempotency_keys() {
    let app = TestApp::new().await;
    let created = app
        .post_json(
            "/api/v1/clubs",
            &json!({"name": "API club", "passphrase": "seven of clubs"}),
        )
        .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let token = created.json()["token"].as_str().unwrap().to_string();
    let share = created.json()["share_link"]
        .as_str()
        .unwrap()
        .trim_start_matches("/share/")
        .to_string();
    let bearer = format!("Bearer {token}");
    let session = app
        .send(
            Request::post("/api/v1/sessions")
                .header(header::CONTENT_TYPE, "application/json")
                .header(header::AUTHORIZATION, &bearer)
                .body(Body::from(json!({"game": "auction_pinochle", "players": ["A", "B", "C"], "agreements": {"stake": "0.05"}}).to_string()))
                .unwrap(),
        )
        .await;
    assert_eq!(session.status.as_u16(), 201, "{}", session.body);
    let id = session.json()["id"].as_i64().unwrap();
    let events = format!("/api/v1/sessions/{id}/events");
    let hand = json!({"type": "hand", "dealer": "C", "bidder": "A", "bid": 300, "trump": "clubs", "outcome": "made"});
    let post = |auth: Option<String>, key: Option<&'static str>| {
        let mut request =
            Request::post(events.clone()).header(header::CONTENT_TYPE, "application/json");
        if let Some(auth) = auth {
            request = request.header(header::AUTHORIZATION, auth);
        }
        if let Some(key) = key {
            request = request.header("idempotency-key", key);
        }
        request.body(Body::from(hand.to_string())).unwrap()
    };
    // Without a valid token the club's session answers as a missing one.
    assert_eq!(app.send(post(None, None)).await.status.as_u16(), 404);
    assert_eq!(
        app.send(post(Some("Bearer nonsense".into()), None))
            .await
            .status
            .as_u16(),
        404
    );
    assert_eq!(
        app.send(post(Some(format!("Bearer {share}")), None))
            .await
            .status
            .as_u16(),
        403
    );
    let first = app.send(post(Some(bearer.clone()), Some("hand-1"))).await;
    assert_eq!(first.status.as_u16(), 201, "{}", first.body);
    let retry = app.send(post(Some(bearer.clone()), Some("hand-1"))).await;
    assert_eq!(retry.status.as_u16(), 200, "a retry records nothing new");
    assert_eq!(retry.json()["event"], first.json()["event"]);
    let ledger = app
        .send(
            Request::get(format!("/api/v1/sessions/{id}/ledger"))
                .header(header::AUTHORIZATION, &bearer)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .json();
    assert_eq!(ledger["events"].as_array().unwrap().len(), 1, "one hand");
    assert_eq!(ledger["balances"]["A"], "0.30");
    // The share link's secret reads through the API too.
    let read = app
        .send(
            Request::get(format!("/api/v1/sessions/{id}"))
                .header(header::AUTHORIZATION, format!("Bearer {share}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(read.status.as_u16(), 200);
}

#[tokio::test]
async fn responses_carry_security_headers() {
    let app = TestApp::new().await;
    let response = app
        .router
        .clone()
        .oneshot(Request::get("/").body(Body::empty()).unwrap())
        .await
        .unwrap();
    let h = response.headers();
    assert_eq!(h["x-content-type-options"], "nosniff");
    assert_eq!(h["x-frame-options"], "DENY");
    assert_eq!(h["referrer-policy"], "same-origin");
    assert!(
        h["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("script-src 'self'")
    );
}

#[tokio::test]
async fn an_open_sheet_hears_about_a_hand_entered_elsewhere() {
    let app = TestApp::new().await;
    let (_, cookie) = club(&app, "Live").await;
    let sheet = new_session(&app, &cookie).await;
    let stream = app
        .router
        .clone()
        .oneshot(
            Request::get(format!("{sheet}/live"))
                .header("cookie", &cookie)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(stream.status().as_u16(), 200);
    assert!(
        stream.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let mut body = stream.into_body();
    assert_eq!(hand_status(&app, &sheet, &HAND, &cookie).await, 303);
    let frame = tokio::time::timeout(Duration::from_secs(1), body.frame())
        .await
        .expect("an event within a second");
    let bytes = frame.unwrap().unwrap().into_data().unwrap();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(text.contains("event: changed"), "{text}");
    // Outsiders cannot listen in.
    assert_eq!(app.get(&format!("{sheet}/live")).await.status.as_u16(), 404);
}

#[tokio::test]
async fn mark_paid_records_a_payment_after_the_close() {
    let app = TestApp::new().await;
    let (_, cookie) = club(&app, "Payers").await;
    let sheet = new_session(&app, &cookie).await;
    let id = sheet.rsplit('/').next().unwrap().to_string();
    assert_eq!(hand_status(&app, &sheet, &HAND, &cookie).await, 303);
    assert_eq!(
        app.post_form_with(
            &format!("{sheet}/close"),
            &[("expected_events", "1")],
            &[("cookie", &cookie)]
        )
        .await
        .status
        .as_u16(),
        303
    );
    let page = app.get_with(&sheet, &[("cookie", &cookie)]).await;
    assert!(page.body.contains("Mark paid"));
    // Ann made 250: Bob and Cy each owe her 0.10.
    app.post_form_with_ok(
        &format!("{sheet}/payments"),
        &[
            ("expected_events", "2"),
            ("from", "Bob"),
            ("to", "Ann"),
            ("amount", "0.10"),
        ],
        &[("cookie", &cookie)],
    )
    .await;
    let ledger = club_ledger_of(&app, id, &cookie).await;
    assert_eq!(ledger["balances"]["Bob"], "0.00");
    assert_eq!(ledger["balances"]["Ann"], "0.10");
    assert_eq!(
        ledger["settlement"],
        json!([{"from": "Cy", "to": "Ann", "amount": "0.10"}])
    );
}

/// Phones reach the laptop by its network address: with `--public-url` the share link and
/// its QR code use it, whatever address the keeper's browser used.
#[tokio::test]
async fn the_share_link_uses_the_public_url_and_comes_as_a_qr_code() {
    let mut app = TestApp::new().await;
    app.router = scorekeeper::web::app(
        scorekeeper::web::AppState::new(app.pool.clone())
            .with_public_url(Some("http://192.168.1.20:3000/".into())),
    );
    let (club_page, cookie) = club(&app, "Friday Pitch").await;
    let page = app.get_with(&club_page, &[("cookie", &cookie)]).await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(
        has(&page.body, "[value^=\"http://192.168.1.20:3000/share/\"]"),
        "{}",
        page.body
    );
    assert!(has(&page.body, "svg"), "the link as a QR code");
    assert!(has(&page.body, "[data-copy=share-link]"), "a copy button");
    let script = app.get("/static/copy.js").await;
    assert_eq!(script.status.as_u16(), 200);
}
