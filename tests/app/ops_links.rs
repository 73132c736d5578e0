//! Sessions without a club are capability links: creating one answers a write link and a
//! read link (secrets stored hashed); no one lists them; reading needs either secret,
//! writing the write secret, by bearer token (API) or by the cookie the link sets (pages).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;
use scorekeeper::ids::SessionId;

use axum::body::Body;
use axum::http::{Request, Response, header};
use common::TestApp;
use common::html::has;
use common::pages::ANN_BOB_CY;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

/// One request straight to the router: no cookie jar, only the headers given.
/// Posts a hand (A deals, B bids) to `events` with the `authorization` header: the status
/// and the body of the answer.
async fn post_hand_with(app: &TestApp, events: &str, authorization: &str) -> (u16, String) {
    let (status, _, body) = raw(
        app,
        "POST",
        events,
        &[("authorization", authorization)],
        Some(hand("A", "B")),
    )
    .await;
    (status, body)
}

/// The sheet's links page as the browser holding `cookie` sees it, served as
/// `table.local:3000`: the status and the page.
async fn links_page(app: &TestApp, sheet: &str, cookie: &str) -> (u16, String) {
    let (status, _, page) = raw(
        app,
        "GET",
        &format!("{sheet}/links"),
        &[("cookie", cookie), ("host", "table.local:3000")],
        None,
    )
    .await;
    (status, page)
}

async fn raw(
    app: &TestApp,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (u16, Option<String>, String) {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = match body {
        Some(b) => request
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(b.to_string())),
        None => request.body(Body::empty()),
    }
    .unwrap();
    let response: Response<Body> = app.router.clone().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let cookie = response
        .headers()
        .get(header::SET_COOKIE)
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, cookie, String::from_utf8(bytes.to_vec()).unwrap())
}

fn hand(dealer: &str, bidder: &str) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": bidder, "bid": 300, "trump": "clubs", "outcome": "made"})
}

/// A new Auction Pinochle session made through the API without a club (201): the answer
/// (id, tokens, links) and the link cookie it sets.
async fn session_with_links(app: &TestApp) -> (Value, Option<String>) {
    let (status, cookie, body) = raw(
        app,
        "POST",
        "/api/v1/sessions",
        &[],
        Some(json!({"game": "auction_pinochle", "players": ["A", "B", "C"], "agreements": {"stake": "0.05"}})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    (serde_json::from_str(&body).unwrap(), cookie)
}

#[tokio::test]
async fn the_api_answers_links_and_only_their_secrets_read_and_write() {
    let app = TestApp::new().await;
    let (created, cookie) = session_with_links(&app).await;
    let id = created["id"].as_i64().unwrap();
    let write = created["write_token"].as_str().unwrap().to_string();
    let read = created["read_token"].as_str().unwrap().to_string();
    assert_eq!(write.len(), 64);
    assert_ne!(write, read);
    assert_eq!(
        created["links"]["write"],
        format!("/sessions/{id}/link/{write}")
    );
    assert_eq!(
        created["links"]["read"],
        format!("/sessions/{id}/link/{read}")
    );
    assert_eq!(cookie.unwrap(), format!("sk_link_{id}={write}"));
    // Only hashes are stored.
    let stored = scorekeeper::store::clubs::session_links(
        &mut app.pool.acquire().await.unwrap(),
        SessionId(id),
    )
    .await
    .unwrap()
    .expect("the session's links");
    assert!(stored.0 != write && stored.1 != read && stored.0.len() == 64);

    let show = format!("/api/v1/sessions/{id}");
    let events = format!("/api/v1/sessions/{id}/events");
    let bearer = |t: &str| format!("Bearer {t}");
    // Without a secret the session does not exist, for reading and for writing.
    assert_eq!(raw(&app, "GET", &show, &[], None).await.0, 404);
    assert_eq!(
        raw(&app, "POST", &events, &[], Some(hand("A", "B")))
            .await
            .0,
        404
    );
    let guess = bearer(&"0".repeat(64));
    assert_eq!(
        raw(&app, "GET", &show, &[("authorization", &guess)], None)
            .await
            .0,
        404
    );
    // The read secret reads and cannot write.
    let reader = bearer(&read);
    assert_eq!(
        raw(&app, "GET", &show, &[("authorization", &reader)], None)
            .await
            .0,
        200
    );
    let (status, body) = post_hand_with(&app, &events, &reader).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("read link"), "{body}");
    // The write secret writes.
    let writer = bearer(&write);
    let (status, body) = post_hand_with(&app, &events, &writer).await;
    assert_eq!(status, 201, "{body}");
    let export = raw(
        &app,
        "GET",
        &format!("/api/v1/sessions/{id}/export"),
        &[("authorization", &reader)],
        None,
    )
    .await;
    assert_eq!(export.0, 200);
    assert_eq!(
        serde_json::from_str::<Value>(&export.2).unwrap()["events"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // No one lists it, with or without its secrets.
    for headers in [vec![], vec![("authorization", writer.as_str())]] {
        let (_, _, list) = raw(&app, "GET", "/api/v1/sessions", &headers, None).await;
        assert_eq!(
            serde_json::from_str::<Value>(&list).unwrap()["sessions"],
            json!([])
        );
    }
    let (_, _, home) = raw(&app, "GET", "/", &[], None).await;
    assert!(!home.contains(&format!("/sessions/{id}\"")), "{home}");

    // Import answers links the same way.
    let doc = serde_json::from_str::<Value>(&export.2).unwrap();
    let (status, _, body) = raw(&app, "POST", "/api/v1/sessions/import", &[], Some(doc)).await;
    assert_eq!(status, 201, "{body}");
    let imported: Value = serde_json::from_str(&body).unwrap();
    let other = imported["id"].as_i64().unwrap();
    assert!(imported["write_token"].as_str().unwrap().len() == 64);
    // One session's secret opens no other.
    assert_eq!(
        raw(
            &app,
            "GET",
            &format!("/api/v1/sessions/{other}"),
            &[("authorization", &writer)],
            None
        )
        .await
        .0,
        404
    );
}

#[tokio::test]
async fn the_links_open_the_sheet_in_a_browser_and_a_read_link_keeps_a_write_login() {
    let app = TestApp::new().await;
    let (created, cookie) = session_with_links(&app).await;
    let id = created["id"].as_i64().unwrap();
    let read_link = created["links"]["read"].as_str().unwrap().to_string();
    let write_link = created["links"]["write"].as_str().unwrap().to_string();
    let writer_cookie = cookie.unwrap();
    let sheet = format!("/sessions/{id}");

    assert_eq!(raw(&app, "GET", &sheet, &[], None).await.0, 404);
    // A looker opens the read link: a cookie, then the sheet without the hand form.
    let (status, reader_cookie, _) = raw(&app, "GET", &read_link, &[], None).await;
    assert_eq!(status, 303);
    let reader_cookie = reader_cookie.unwrap();
    let (status, _, page) = raw(&app, "GET", &sheet, &[("cookie", &reader_cookie)], None).await;
    assert_eq!(status, 200);
    assert!(
        !page.contains("Enter the hand"),
        "no hand form for a looker"
    );
    assert!(
        !has(&page, &format!("[href=\"{sheet}/links\"]")),
        "a looker is not offered the write link's page"
    );
    let (status, _, _) = raw(
        &app,
        "POST",
        &format!("{sheet}/close"),
        &[
            ("cookie", &reader_cookie),
            ("content-type", "application/x-www-form-urlencoded"),
        ],
        None,
    )
    .await;
    assert_eq!(status, 403);
    // The scorer's browser opening the read link keeps the write link.
    let (status, kept, _) = raw(&app, "GET", &read_link, &[("cookie", &writer_cookie)], None).await;
    assert_eq!(status, 303);
    assert_eq!(kept, None, "no cookie replaces the write link");
    let (_, _, page) = raw(&app, "GET", &sheet, &[("cookie", &writer_cookie)], None).await;
    assert!(
        page.contains("Enter the hand"),
        "the scorer still enters hands"
    );
    // The scorer's sheet points to the page of links to pass on: nothing else knows them.
    assert!(
        has(&page, &format!("[href=\"{sheet}/links\"]")),
        "the sheet offers its links"
    );
    // The write link opened elsewhere gives that browser the form too.
    let (_, second_writer, _) = raw(&app, "GET", &write_link, &[], None).await;
    let (_, _, page) = raw(
        &app,
        "GET",
        &sheet,
        &[("cookie", &second_writer.unwrap())],
        None,
    )
    .await;
    assert!(page.contains("Enter the hand"));
    // The links page: both links for the scorer, the read link only for a looker.
    let (status, links) = links_page(&app, &sheet, &writer_cookie).await;
    assert_eq!(status, 200);
    assert!(
        links.contains(&format!("http://table.local:3000{write_link}")),
        "{links}"
    );
    assert!(
        links.contains(&format!("http://table.local:3000{read_link}")),
        "{links}"
    );
    let (_, links) = links_page(&app, &sheet, &reader_cookie).await;
    assert!(links.contains(&read_link) && !links.contains(&write_link));
    assert_eq!(
        raw(&app, "GET", &format!("{sheet}/links"), &[], None)
            .await
            .0,
        404
    );
    // A wrong secret opens nothing.
    let (status, cookie, _) = raw(
        &app,
        "GET",
        &format!("{sheet}/link/{}", "f".repeat(64)),
        &[],
        None,
    )
    .await;
    assert_eq!((status, cookie), (404, None));
}

#[tokio::test]
async fn the_new_session_form_keeps_the_write_link_in_the_browser() {
    let app = TestApp::new().await;
    let reply = app.post_form_ok("/sessions", &ANN_BOB_CY).await;
    let sheet = reply.location.unwrap();
    let id = sheet.rsplit('/').next().unwrap();
    let cookie = reply.set_cookie.unwrap();
    assert!(cookie.starts_with(&format!("sk_link_{id}=")), "{cookie}");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
    let pair = cookie.split(';').next().unwrap();
    let (status, _, page) = raw(&app, "GET", &sheet, &[("cookie", pair)], None).await;
    assert_eq!(status, 200);
    assert!(page.contains("Enter the hand"));
    assert_eq!(raw(&app, "GET", &sheet, &[], None).await.0, 404);
}

/// Opens session `id`'s live sheet with `cookie`; the response, its body the open stream.
async fn open_live(app: &TestApp, id: i64, cookie: &str) -> Response<Body> {
    let request = Request::get(format!("/sessions/{id}/live"))
        .header(header::COOKIE, cookie)
        .body(Body::empty())
        .unwrap();
    app.router.clone().oneshot(request).await.unwrap()
}

#[tokio::test]
async fn live_sheets_are_capped_per_session_and_overall_and_end_when_idle() {
    use scorekeeper::web::live::{LiveLimits, Watchers};
    use std::time::Duration;
    let pool = crate::common::engines::fresh_pool().await;
    let watchers = Watchers::new(LiveLimits {
        per_session: 2,
        overall: 3,
        idle: Duration::from_millis(400),
    });
    let state = scorekeeper::web::AppState {
        watchers: watchers.clone(),
        ..scorekeeper::web::AppState::new(pool.clone())
    };
    let app = TestApp {
        router: scorekeeper::web::app(state),
        pool,
        links: std::sync::Mutex::new(Vec::new()),
    };
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let (created, cookie) = session_with_links(&app).await;
        sessions.push((created["id"].as_i64().unwrap(), cookie.unwrap()));
    }
    let (one, one_cookie) = sessions[0].clone();
    let (two, two_cookie) = sessions[1].clone();
    let first = open_live(&app, one, &one_cookie).await;
    let second = open_live(&app, one, &one_cookie).await;
    assert_eq!(
        (first.status().as_u16(), second.status().as_u16()),
        (200, 200)
    );
    // A third sheet of session one is past its cap of 2.
    let third = open_live(&app, one, &one_cookie).await;
    assert_eq!(third.status().as_u16(), 503);
    assert_eq!(third.headers()[header::RETRY_AFTER], "30");
    let text = third.into_body().collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&text).contains("this session has as many live sheets"));
    // Another session can still be watched; then the overall cap of 3 is reached.
    let other = open_live(&app, two, &two_cookie).await;
    assert_eq!(other.status().as_u16(), 200);
    let over = open_live(&app, two, &two_cookie).await;
    assert_eq!(over.status().as_u16(), 503);
    assert_eq!(over.headers()[header::RETRY_AFTER], "30");
    assert_eq!(watchers.open(), 3);
    // Closing a sheet frees its place.
    drop(first);
    assert_eq!(watchers.open(), 2);
    let again = open_live(&app, one, &one_cookie).await;
    assert_eq!(again.status().as_u16(), 200);
    // Nothing changes for 400 ms: the stream ends by itself, well within 3 seconds, and
    // its place is free again.
    let started = std::time::Instant::now();
    let mut body = again.into_body();
    let end = tokio::time::timeout(Duration::from_secs(3), body.frame())
        .await
        .expect("the idle sheet ended");
    assert!(end.is_none(), "no event, only the end");
    assert!(started.elapsed() >= Duration::from_millis(350));
    drop(body);
    assert_eq!(watchers.open(), 2);
    drop((second, other));
    assert_eq!(watchers.open(), 0);
}
