//! Hostile and racing input through the JSON API (issue 13, items 1–4 and the API part of
//! 8): every refusal is a 4xx in the `{"error": {"code", "message", "field"}}` shape and
//! writes nothing; two writers that saw the same sheet cannot both record; a reused
//! idempotency key with another body is refused.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use axum::body::Body;
use axum::http::{Request, header};
use common::{Reply, TestApp};
use serde_json::{Value, json};

/// A club's write token and a new Auction Pinochle session (A, B, C; 0.05 a unit, a pot
/// kitty, hearts triple) of that club.
async fn club_session(app: &TestApp) -> (String, i64) {
    let club = app
        .post_json(
            "/api/v1/clubs",
            &json!({"name": "Hardening club", "passphrase": "seven of clubs"}),
        )
        .await;
    assert_eq!(club.status.as_u16(), 201, "{}", club.body);
    let bearer = format!("Bearer {}", club.json()["token"].as_str().unwrap());
    let created = send(
        app,
        "POST",
        "/api/v1/sessions",
        &bearer,
        &[],
        json!({"game": "auction_pinochle", "players": ["A", "B", "C"],
               "agreements": {"stake": "0.05", "kitty": "pot", "hearts_triple": true}})
        .to_string(),
    )
    .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    (bearer, created.json()["id"].as_i64().unwrap())
}

async fn send(
    app: &TestApp,
    method: &str,
    uri: &str,
    bearer: &str,
    headers: &[(&str, &str)],
    body: String,
) -> Reply {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, bearer);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    app.send(request.body(Body::from(body)).unwrap()).await
}

async fn event_count(app: &TestApp, bearer: &str, id: i64) -> u64 {
    let reply = send(
        app,
        "GET",
        &format!("/api/v1/sessions/{id}/standing"),
        bearer,
        &[],
        String::new(),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.body);
    reply.json()["event_count"].as_u64().unwrap()
}

/// The refusal's `error` object, after checking it has a code and a message.
fn refusal(reply: &Reply, status: u16) -> Value {
    assert_eq!(reply.status.as_u16(), status, "{}", reply.body);
    let error = reply.json()["error"].clone();
    assert!(error["code"].is_string(), "{}", reply.body);
    assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(error.get("field").is_some(), "field is always present");
    error
}

fn hand(dealer: &str) -> Value {
    json!({"type": "hand", "dealer": dealer, "bidder": "A", "bid": 300, "trump": "clubs", "outcome": "made"})
}

#[tokio::test]
async fn two_writers_who_saw_the_same_sheet_record_once() {
    let app = TestApp::new().await;
    let (bearer, id) = club_session(&app).await;
    let uri = format!("/api/v1/sessions/{id}/events");
    let mut first = hand("C");
    first["expected_events"] = json!(0);
    let mut second = hand("C");
    second["expected_events"] = json!(0);
    let (a, b) = tokio::join!(
        send(&app, "POST", &uri, &bearer, &[], first.to_string()),
        send(&app, "POST", &uri, &bearer, &[], second.to_string()),
    );
    let mut statuses = [a.status.as_u16(), b.status.as_u16()];
    statuses.sort();
    assert_eq!(statuses, [201, 409], "{} / {}", a.body, b.body);
    let stale = if a.status.as_u16() == 409 { &a } else { &b };
    let error = refusal(stale, 409);
    assert_eq!(error["field"], "expected_events");
    assert!(error["message"].as_str().unwrap().contains("hand 1"));
    assert_eq!(event_count(&app, &bearer, id).await, 1);
    // The recorded event is the hand without the expectation.
    let export = send(
        &app,
        "GET",
        &format!("/api/v1/sessions/{id}/export"),
        &bearer,
        &[],
        String::new(),
    )
    .await;
    assert_eq!(export.json()["events"], json!([hand("C")]));
    // A writer who saw the new sheet records the next hand.
    let mut next = hand("A");
    next["expected_events"] = json!(1);
    let ok = send(&app, "POST", &uri, &bearer, &[], next.to_string()).await;
    assert_eq!(ok.status.as_u16(), 201, "{}", ok.body);
    let mut bad = hand("B");
    bad["expected_events"] = json!("two");
    let error = refusal(
        &send(&app, "POST", &uri, &bearer, &[], bad.to_string()).await,
        400,
    );
    assert_eq!(error["field"], "expected_events");
}

#[tokio::test]
async fn a_reused_idempotency_key_with_another_body_is_refused_and_records_nothing() {
    let app = TestApp::new().await;
    let (bearer, id) = club_session(&app).await;
    let uri = format!("/api/v1/sessions/{id}/events");
    let key = [("idempotency-key", "hand-1")];
    let first = send(&app, "POST", &uri, &bearer, &key, hand("C").to_string()).await;
    assert_eq!(first.status.as_u16(), 201, "{}", first.body);
    let other = send(&app, "POST", &uri, &bearer, &key, hand("A").to_string()).await;
    let error = refusal(&other, 422);
    assert_eq!(error["field"], "Idempotency-Key");
    assert_eq!(event_count(&app, &bearer, id).await, 1, "nothing written");
    // The same key with the same event (keys in another order) is still the first answer.
    let same = json!({"outcome": "made", "trump": "clubs", "bid": 300, "bidder": "A", "dealer": "C", "type": "hand"});
    let retry = send(&app, "POST", &uri, &bearer, &key, same.to_string()).await;
    assert_eq!(retry.status.as_u16(), 200, "{}", retry.body);
    assert_eq!(retry.json()["event"], first.json()["event"]);
    assert_eq!(event_count(&app, &bearer, id).await, 1);
}

#[tokio::test]
async fn a_retry_after_later_events_answers_exactly_the_first_answer() {
    let app = TestApp::new().await;
    let (bearer, id) = club_session(&app).await;
    let uri = format!("/api/v1/sessions/{id}/events");
    let key = [("idempotency-key", "hand-1")];
    let first = send(&app, "POST", &uri, &bearer, &key, hand("C").to_string()).await;
    assert_eq!(first.status.as_u16(), 201, "{}", first.body);
    // Opening ante 0.10 each into the kitty; A's 300 in clubs made: 3 units × 0.05 = 0.15
    // from B and from C. A −0.10 + 0.30 = +0.20; B and C −0.10 − 0.15 = −0.25; kitty 0.30.
    let answer = first.json();
    assert_eq!(answer["event_count"], 1);
    assert_eq!(answer["balances"]["A"], "0.20");
    assert_eq!(answer["balances"]["B"], "-0.25");
    let next = send(&app, "POST", &uri, &bearer, &[], hand("A").to_string()).await;
    assert_eq!(next.status.as_u16(), 201, "{}", next.body);
    assert_eq!(next.json()["balances"]["A"], "0.50", "A +0.30 again");
    // The retry of the first hand, after the second: the first answer, not today's.
    let retry = send(&app, "POST", &uri, &bearer, &key, hand("C").to_string()).await;
    assert_eq!(retry.status.as_u16(), 200, "{}", retry.body);
    assert_eq!(retry.json(), answer);
    assert_eq!(
        event_count(&app, &bearer, id).await,
        2,
        "nothing new written"
    );
}

#[tokio::test]
async fn overflowing_numbers_are_422_naming_event_and_field_and_write_nothing() {
    let app = TestApp::new().await;
    let (bearer, id) = club_session(&app).await;
    let uri = format!("/api/v1/sessions/{id}/events");
    for (field, value) in [
        ("bid", json!(1_000_000_000_000_000_000i64)),
        ("bid", json!(i64::MIN)),
        ("bid", json!(u64::MAX)),
        ("bid", json!(1e300)),
    ] {
        let mut event = hand("C");
        event[field] = value.clone();
        let reply = send(&app, "POST", &uri, &bearer, &[], event.to_string()).await;
        let error = refusal(&reply, 422);
        assert_eq!(error["field"], field, "{value}");
    }
    assert_eq!(event_count(&app, &bearer, id).await, 0);
    // Failed 350s in hearts triple the pot kitty each time: 0.05 the first hand, and the
    // kitty goes past ten billion long before the 37th hand; that hand is refused, with
    // the account named, instead of overflowing.
    let mut refused_at = None;
    for n in 0..37 {
        let dealer = ["A", "B", "C"][n % 3];
        let event = json!({"type": "hand", "dealer": dealer, "bidder": "A", "bid": 350, "trump": "hearts", "outcome": "failed"});
        let reply = send(&app, "POST", &uri, &bearer, &[], event.to_string()).await;
        if reply.status.as_u16() != 201 {
            let error = refusal(&reply, 422);
            assert!(
                error["field"].as_str().unwrap().starts_with("balances."),
                "{error}"
            );
            refused_at = Some(n);
            break;
        }
    }
    let refused_at = refused_at.expect("the kitty cannot grow forever");
    assert_eq!(event_count(&app, &bearer, id).await, refused_at as u64);
}

#[tokio::test]
async fn opening_scores_of_i64_min_are_refused() {
    let app = TestApp::new().await;
    let (bearer, _) = club_session(&app).await;
    let reply = send(
        &app,
        "POST",
        "/api/v1/sessions",
        &bearer,
        &[],
        json!({"game": "check_pinochle", "players": ["A", "B", "C", "D"],
               "opening_scores": {"NS": i64::MIN, "EW": 0}})
        .to_string(),
    )
    .await;
    let error = refusal(&reply, 422);
    assert_eq!(error["field"], "opening_scores.NS");
}

#[tokio::test]
async fn bad_names_are_4xx_naming_the_field() {
    let app = TestApp::new().await;
    let (bearer, _) = club_session(&app).await;
    for players in [
        json!(["A\u{0}", "B", "C"]),
        json!(["Ann", "Ann\u{200B}", "C"]),
        json!(["A", "B", "Kitty"]),
        json!(["Ann", "ANN", "C"]),
        json!(["A", "B", "x".repeat(41)]),
    ] {
        let reply = send(
            &app,
            "POST",
            "/api/v1/sessions",
            &bearer,
            &[],
            json!({"game": "auction_pinochle", "players": players, "agreements": {"stake": "0.05"}})
                .to_string(),
        )
        .await;
        let error = refusal(&reply, 422);
        assert_eq!(error["field"], "players", "{players}");
    }
    let club = app
        .post_json(
            "/api/v1/clubs",
            &json!({"name": "Tuesday\u{0}", "passphrase": "seven of clubs"}),
        )
        .await;
    let error = refusal(&club, 400);
    assert_eq!(error["field"], "name");
    // Spaces around a name and a decomposed accent are kept as the one name.
    let reply = send(
        &app,
        "POST",
        "/api/v1/sessions",
        &bearer,
        &[],
        json!({"game": "auction_pinochle", "players": [" Rene\u{301} ", "B", "C"], "agreements": {"stake": "0.05"}})
            .to_string(),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    assert_eq!(reply.json()["session"]["players"][0], "Ren\u{e9}");
}

#[tokio::test]
async fn money_strings_with_anything_but_digits_and_two_decimals_are_refused() {
    let app = TestApp::new().await;
    let (bearer, id) = club_session(&app).await;
    let uri = format!("/api/v1/sessions/{id}/events");
    for amount in ["5e-2", "0.055", "+1", " 1", "1,00", "0.050"] {
        let payment = json!({"type": "payment", "from": "A", "to": "B", "amount": amount});
        let reply = send(&app, "POST", &uri, &bearer, &[], payment.to_string()).await;
        let error = refusal(&reply, 422);
        assert_eq!(error["field"], "amount", "{amount:?}");
    }
    assert_eq!(event_count(&app, &bearer, id).await, 0);
    let payment = json!({"type": "payment", "from": "A", "to": "B", "amount": "0.05"});
    let reply = send(&app, "POST", &uri, &bearer, &[], payment.to_string()).await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    // The opening ante (a 250 bid's settlement, 2 units of 0.05) left A at -0.10; paying
    // 0.05 moves A toward zero.
    assert_eq!(reply.json()["balances"]["A"], "-0.05");
}

#[tokio::test]
async fn every_api_refusal_has_the_error_shape() {
    let app = TestApp::new().await;
    let (bearer, id) = club_session(&app).await;
    let get = async |uri: String| send(&app, "GET", &uri, &bearer, &[], String::new()).await;
    let error = refusal(&get("/api/v1/sessions/abc".into()).await, 400);
    assert_eq!(error["field"], "id");
    let error = refusal(&get("/api/v1/sessions/abc/ledger".into()).await, 400);
    assert_eq!(error["field"], "id");
    let error = refusal(&get("/api/v1/no/such/route".into()).await, 404);
    assert_eq!(error["code"], "not_found");
    let error = refusal(&get(format!("/api/v1/sessions/{}", id + 1000)).await, 404);
    assert_eq!(error["code"], "not_found");
    let wrong = send(
        &app,
        "DELETE",
        &format!("/api/v1/sessions/{id}"),
        &bearer,
        &[],
        String::new(),
    )
    .await;
    let error = refusal(&wrong, 405);
    assert_eq!(error["code"], "method_not_allowed");
    let uri = format!("/api/v1/sessions/{id}/events");
    let error = refusal(
        &send(&app, "POST", &uri, &bearer, &[], "{\"type\": ".into()).await,
        400,
    );
    assert_eq!(error["field"], "body");
    let huge = format!(
        "{{\"type\": \"payment\", \"note\": \"{}\"}}",
        "x".repeat(3 << 20)
    );
    let error = refusal(&send(&app, "POST", &uri, &bearer, &[], huge).await, 413);
    assert_eq!(error["code"], "payload_too_large");
    let plain = app
        .send(
            Request::post(uri.clone())
                .header(header::AUTHORIZATION, &bearer)
                .body(Body::from(hand("C").to_string()))
                .unwrap(),
        )
        .await;
    let error = refusal(&plain, 400);
    assert_eq!(error["field"], "body");
    assert!(error["message"].as_str().unwrap().contains("Content-Type"));
    assert_eq!(event_count(&app, &bearer, id).await, 0);
}
