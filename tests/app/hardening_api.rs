//! Hostile and racing input through the JSON API (items 1–4 and the API part of
//! 8): every refusal is a 4xx in the `{"error": {"code", "message", "field"}}` shape and
//! writes nothing; two writers that saw the same sheet cannot both record; a reused
//! idempotency key with another body is refused.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use scorekeeper::ids::ClubId;

use axum::body::Body;
use axum::http::{Request, header};
use common::html::one_text;
use common::{Reply, TestApp, engines};
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
    let created = create_session(
        app,
        &bearer,
        json!({"game": "auction_pinochle", "players": ["A", "B", "C"],
               "agreements": {"stake": "0.05", "kitty": "pot", "hearts_triple": true}}),
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

/// `POST /api/v1/sessions` of `body` with the club's `bearer` token: a new session, or its
/// refusal.
async fn create_session(app: &TestApp, bearer: &str, body: Value) -> Reply {
    send(
        app,
        "POST",
        "/api/v1/sessions",
        bearer,
        &[],
        body.to_string(),
    )
    .await
}

/// The idempotency key both retry tests send with their first hand.
const KEY: [(&str, &str); 1] = [("idempotency-key", "hand-1")];

/// A club session whose first hand (C deals, A makes 300 in clubs) went in (201) under
/// [`KEY`]: the bearer, the session's id, its events address and that first answer.
async fn first_hand_under_key(app: &TestApp) -> (String, i64, String, Reply) {
    let (bearer, id) = club_session(app).await;
    let uri = format!("/api/v1/sessions/{id}/events");
    let first = send(app, "POST", &uri, &bearer, &KEY, hand("C").to_string()).await;
    assert_eq!(first.status.as_u16(), 201, "{}", first.body);
    (bearer, id, uri, first)
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

/// Once the disk has space again every kind of write is taken at once (201): each of
/// `writes` (its headers, its event) posted to `uri` in turn, then a new session.
async fn every_write_succeeds<const N: usize>(
    app: &TestApp,
    bearer: &str,
    uri: &str,
    writes: [(&[(&str, &str)], String); N],
) {
    for (headers, event) in writes {
        let reply = send(app, "POST", uri, bearer, headers, event).await;
        assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    }
    let session = json!({"game": "auction_pinochle", "players": ["A", "B", "C"],
                         "agreements": {"stake": "0.05"}});
    let path = "/api/v1/sessions";
    let created = send(app, "POST", path, bearer, &[], session.to_string()).await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
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
    let (bearer, id, uri, first) = first_hand_under_key(&app).await;
    let other = send(&app, "POST", &uri, &bearer, &KEY, hand("A").to_string()).await;
    let error = refusal(&other, 422);
    assert_eq!(error["field"], "Idempotency-Key");
    assert_eq!(event_count(&app, &bearer, id).await, 1, "nothing written");
    // The same key with the same event (keys in another order) is still the first answer.
    let same = json!({"outcome": "made", "trump": "clubs", "bid": 300, "bidder": "A", "dealer": "C", "type": "hand"});
    let retry = send(&app, "POST", &uri, &bearer, &KEY, same.to_string()).await;
    assert_eq!(retry.status.as_u16(), 200, "{}", retry.body);
    assert_eq!(retry.json()["event"], first.json()["event"]);
    assert_eq!(event_count(&app, &bearer, id).await, 1);
}

#[tokio::test]
async fn a_retry_after_later_events_answers_exactly_the_first_answer() {
    let app = TestApp::new().await;
    let (bearer, id, uri, first) = first_hand_under_key(&app).await;
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
    let retry = send(&app, "POST", &uri, &bearer, &KEY, hand("C").to_string()).await;
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
    let reply = create_session(
        &app,
        &bearer,
        json!({"game": "check_pinochle", "players": ["A", "B", "C", "D"],
               "opening_scores": {"NS": i64::MIN, "EW": 0}}),
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
        let reply = create_session(&app, &bearer, json!({"game": "auction_pinochle", "players": players, "agreements": {"stake": "0.05"}}))
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
    let reply = create_session(&app, &bearer, json!({"game": "auction_pinochle", "players": [" Rene\u{301} ", "B", "C"], "agreements": {"stake": "0.05"}}))
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

/// A test application over a database file of its own (a full disk needs a file: an
/// in-memory database has no disk), in a fresh folder under the system's temporary one.
async fn file_app(name: &str) -> TestApp {
    if engines::on_postgres() {
        return TestApp::new().await;
    }
    let dir = app_dir(name);
    let _ = std::fs::remove_dir_all(&dir);
    let url = format!("sqlite://{}", dir.join("scores.db").display());
    let pool = scorekeeper::store::open(&url).await.unwrap();
    TestApp {
        router: scorekeeper::web::app(scorekeeper::web::AppState::new(pool.clone())),
        pool,
        links: std::sync::Mutex::new(Vec::new()),
    }
}

fn app_dir(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("sk-{name}-{}", std::process::id()))
}

/// Lets the writer's database grow by no page (`PRAGMA max_page_count`, which answers
/// `SQLITE_FULL` as a full disk does), or by as many as it likes. On PostgreSQL, whose disk
/// is the server's, every new event is refused with the server's own error for a full
/// disk (SQLSTATE 53100, raised by a trigger), or no longer.
async fn disk_full(app: &TestApp, full: bool) {
    if engines::on_postgres() {
        // Deferred to COMMIT, as a full disk refuses the log's growth there.
        let statements: &[&str] = if full {
            &[
                "CREATE OR REPLACE FUNCTION sk_test_full() RETURNS trigger LANGUAGE plpgsql AS $$ \
                 BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' \
                 USING ERRCODE = 'disk_full'; END $$",
                "DROP TRIGGER IF EXISTS sk_test_full ON events",
                "CREATE CONSTRAINT TRIGGER sk_test_full AFTER INSERT ON events \
                 DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sk_test_full()",
            ]
        } else {
            &["DROP TRIGGER IF EXISTS sk_test_full ON events"]
        };
        for sql in statements {
            app.exec(sql).await.unwrap();
        }
        return;
    }
    let pages: i64 = sqlx::query_scalar("PRAGMA page_count")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let max = if full { pages } else { 1 << 30 };
    // A number this test computed, not input.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "PRAGMA max_page_count = {max}"
    )))
    .execute(&app.pool)
    .await
    .unwrap();
}

/// A 503 that names the disk and says when to try again.
fn disk_refusal(reply: &Reply) {
    let error = refusal(reply, 503);
    assert!(
        error["message"].as_str().unwrap().contains("disk"),
        "{error}"
    );
}

#[tokio::test]
async fn a_full_disk_is_503_naming_it_and_writes_succeed_again_once_space_is_back() {
    let app = file_app("disk-full").await;
    let (bearer, id) = club_session(&app).await;
    let uri = format!("/api/v1/sessions/{id}/events");
    let payment = |cents: usize| {
        let amount = format!("{}.{:02}", cents / 100, cents % 100);
        json!({"type": "payment", "from": "A", "to": "B", "amount": amount}).to_string()
    };
    disk_full(&app, true).await;
    let health = app.get("/healthz").await;
    // PostgreSQL's disk is the server's: its probe cannot see it, a write is refused.
    let probe_sees_the_disk = !engines::on_postgres();
    assert_eq!(
        health.status.as_u16() == 503,
        probe_sees_the_disk,
        "{}",
        health.body
    );
    // Plain records (the group commit) until one needs a page the disk has not got.
    let mut written = 0;
    loop {
        let reply = send(&app, "POST", &uri, &bearer, &[], payment(written + 1)).await;
        if reply.status.as_u16() == 201 {
            written += 1;
            assert!(written < 2000, "the database never grew");
            continue;
        }
        disk_refusal(&reply);
        break;
    }
    // A keyed record (a single transaction of the service) fails alike once it needs a
    // page: the free room a refused write leaves may take a few more first. The limit is
    // set again: the writer's connection may have been replaced after the refusal.
    disk_full(&app, true).await;
    let mut keys = 0;
    let refused_key = loop {
        let key = format!("full-{keys}");
        let reply = send(
            &app,
            "POST",
            &uri,
            &bearer,
            &[("idempotency-key", &key)],
            payment(9999),
        )
        .await;
        if reply.status.as_u16() == 201 {
            (written, keys) = (written + 1, keys + 1);
            assert!(keys < 2000, "the database never grew");
            continue;
        }
        disk_refusal(&reply);
        break key;
    };
    let key = [("idempotency-key", refused_key.as_str())];
    assert_eq!(event_count(&app, &bearer, id).await, written as u64);
    // Space is back: every kind of write succeeds at once, with no restart.
    disk_full(&app, false).await;
    let health = app.get("/healthz").await;
    assert_eq!(health.status.as_u16(), 200, "{}", health.body);
    let writes = [(&[][..], payment(1)), (&key[..], payment(9999))];
    every_write_succeeds(&app, &bearer, &uri, writes).await;
    let _ = std::fs::remove_dir_all(app_dir("disk-full"));
    assert_eq!(event_count(&app, &bearer, id).await, written as u64 + 2);
}

/// One name rule everywhere a person types a name or a title.
/// Look-alike (Cyrillic, struck through, small capitals) and invisible players beside the
/// real one, a look-alike newcomer, renames to NUL, a reserved name, an override, a filler
/// or a look-alike of another player, and
/// NUL in a session's or a night's title (form and API) are each a 4xx naming the field,
/// never a 500, and write nothing.
#[tokio::test]
async fn every_typed_name_and_title_follows_one_rule() {
    let app = TestApp::new().await;
    let (bearer, id) = club_session(&app).await;
    for other in [
        "Ann\u{34F}",
        "Ann\u{FE0F}",
        "\u{FF21}nn",
        "\u{410}nn",
        "\u{301}",
        "A\u{336}nn",
        "\u{1D00}nn",
    ] {
        let reply = create_session(
            &app,
            &bearer,
            json!({"game": "auction_pinochle", "players": ["Ann", other, "C"],
                   "agreements": {"stake": "0.05"}}),
        )
        .await;
        let error = refusal(&reply, 422);
        assert_eq!(error["field"], "players", "{other:?}");
    }
    // Cyrillic А beside the Latin A of the table: the newcomer is refused, named.
    let uri = format!("/api/v1/sessions/{id}/events");
    let joins = json!({"type": "player_joins", "player": "\u{410}"});
    let reply = send(&app, "POST", &uri, &bearer, &[], joins.to_string()).await;
    let error = refusal(&reply, 422);
    assert_eq!(error["field"], "player");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("and A look like one name"),
        "{error}"
    );
    assert_eq!(event_count(&app, &bearer, id).await, 0);

    let (club, cookie) = app.new_club("Names").await;
    let cookie = [("cookie", cookie.as_str())];
    let a = scorekeeper::service::import(
        &app.pool,
        &common::nights::pitch("Ann", "Bob"),
        Some(ClubId(club)),
    )
    .await
    .unwrap();
    let history = app
        .page(cookie[0].1, &format!("/clubs/{club}/history"))
        .await;
    let bob = common::person(&history, "Bob");
    let rename = format!("/clubs/{club}/players/{bob}/rename");
    for name in [
        "B\0b",
        "Kitty",
        "pot",
        "B\u{202E}ob",
        "\u{3164}",
        "Ann\u{200B}",
        "\u{410}nn",
        "A\u{336}nn",
        "\u{1D00}nn",
        "Dee",
    ] {
        let reply = app
            .post_form_with(&rename, &[("name", name)], &cookie)
            .await;
        assert!(
            matches!(reply.status.as_u16(), 400 | 422),
            "{name:?}: {} {}",
            reply.status,
            reply.body
        );
    }
    let history = app
        .page(cookie[0].1, &format!("/clubs/{club}/history"))
        .await;
    assert_eq!(common::person(&history, "Bob"), bob, "Bob is still Bob");
    // A new session of the club under a look-alike of Ann is refused as well.
    for name in ["A\u{336}nn", "\u{1D00}nn"] {
        let doc = common::nights::pitch(name, "Bob");
        let refused = scorekeeper::service::import(&app.pool, &doc, Some(ClubId(club))).await;
        assert!(
            matches!(&refused, Err(scorekeeper::error::AppError::Refused(r)) if r.field == "players"),
            "{name:?}: {refused:?}"
        );
    }
    // Titles: NUL is a 400 naming the title, on the session's form and the night's form
    // and API; nothing is kept.
    let title = format!("/clubs/{club}/sessions/{a}/title");
    let reply = app
        .post_form_with(&title, &[("title", "Thu\0rsday")], &cookie)
        .await;
    assert_eq!(reply.status.as_u16(), 400, "{}", reply.body);
    assert!(reply.body.contains("not U+0000"), "{}", reply.body);
    let night = app
        .post_form_with(
            &format!("/clubs/{club}/nights"),
            &[
                ("sessions", &a.to_string()),
                ("night", ""),
                ("title", "Fri\0day"),
            ],
            &cookie,
        )
        .await;
    assert_eq!(night.status.as_u16(), 400, "{}", night.body);
    let night = app
        .post_json_with(
            &format!("/api/v1/clubs/{club}/nights"),
            &json!({"sessions": [a], "title": "Fri\u{0}day"}),
            &cookie,
        )
        .await;
    let error = refusal(&night, 400);
    assert_eq!(error["field"], "title");
    let ok = app
        .post_json_with(
            &format!("/api/v1/clubs/{club}/nights"),
            &json!({"sessions": [a], "title": " Friday "}),
            &cookie,
        )
        .await;
    assert_eq!(ok.status.as_u16(), 201, "{}", ok.body);
    assert_eq!(ok.json()["title"], "Friday");
}

/// A tmpfs of 1 MiB mounted on `dir` for as long as it lives (unmounted on drop).
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    /// Mounts one, or `None` (with a note) where this user may not mount (not root).
    fn mount(dir: std::path::PathBuf) -> Option<Tmpfs> {
        let _ = std::fs::create_dir_all(&dir);
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            eprintln!(
                "note: cannot mount a tmpfs here (not root?); the full-disk-at-commit case is skipped"
            );
            return None;
        }
        Some(Tmpfs(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// Fills the file system of `dir` with one file: what is left is less than a page.
fn fill(dir: &std::path::Path) -> std::path::PathBuf {
    use std::io::Write;
    let path = dir.join("filler");
    let mut file = std::fs::File::create(&path).unwrap();
    let block = [0u8; 512];
    while file.write_all(&block).and_then(|()| file.flush()).is_ok() {}
    let _ = file.sync_all();
    path
}

/// The database on a 1 MiB tmpfs, the disk filled, so the
/// write-ahead log cannot grow at COMMIT (SQLite then rolls the transaction back itself);
/// the write is a 503 naming the disk, and once the filler is removed the next writes
/// (group commit, keyed, a new session) succeed with no restart. Before, every later write
/// was a 500 ("begin_with at non-zero transaction depth") until a restart.
#[tokio::test]
async fn a_disk_full_at_commit_leaves_the_writer_usable_once_space_is_back() {
    // On PostgreSQL the server's own full-disk error at COMMIT ([`disk_full`]'s deferred
    // trigger) stands for the tmpfs.
    let pg = engines::on_postgres();
    let tmpfs = match pg {
        true => None,
        false => match Tmpfs::mount(app_dir("tmpfs")) {
            Some(t) => Some(t),
            None => return,
        },
    };
    let app = match &tmpfs {
        None => TestApp::new().await,
        Some(tmpfs) => {
            let url = format!("sqlite://{}", tmpfs.0.join("scores.db").display());
            let pool = scorekeeper::store::open(&url).await.unwrap();
            TestApp {
                router: scorekeeper::web::app(scorekeeper::web::AppState::new(pool.clone())),
                pool,
                links: std::sync::Mutex::new(Vec::new()),
            }
        }
    };
    let (bearer, id) = club_session(&app).await;
    let uri = format!("/api/v1/sessions/{id}/events");
    let payment = json!({"type": "payment", "from": "A", "to": "B", "amount": "0.05"}).to_string();
    if pg {
        disk_full(&app, true).await;
    }
    let filler = tmpfs.as_ref().map(|t| fill(&t.0));
    let mut written = 0u64;
    let refused = loop {
        let reply = send(&app, "POST", &uri, &bearer, &[], payment.clone()).await;
        if reply.status.as_u16() != 201 {
            break reply;
        }
        written += 1;
        assert!(written < 500, "the disk never filled");
    };
    disk_refusal(&refused);
    let health = app.get("/healthz").await;
    assert_eq!(
        health.status.as_u16() == 503,
        !pg,
        "a full disk is no place to write (PostgreSQL's is the server's to see): {}",
        health.body
    );
    let keyed = [("idempotency-key", "tmpfs-1")];
    disk_refusal(&send(&app, "POST", &uri, &bearer, &keyed, payment.clone()).await);
    match filler {
        Some(filler) => std::fs::remove_file(filler).unwrap(),
        None => disk_full(&app, false).await,
    }
    let writes = [(&[][..], payment.clone()), (&keyed[..], payment.clone())];
    every_write_succeeds(&app, &bearer, &uri, writes).await;
    assert_eq!(event_count(&app, &bearer, id).await, written + 2);
    let health = app.get("/healthz").await;
    assert_eq!(health.status.as_u16(), 200, "{}", health.body);
    app.pool.close().await;
    drop(tmpfs);
}

/// A path id that is not a number is JSON under a JSON content type,
/// naming the route's field and the kind of id (club, night), not always "a session id".
#[tokio::test]
async fn a_bad_path_id_is_json_naming_its_kind() {
    use tower::ServiceExt;
    let app = TestApp::new().await;
    for (uri, field, kind) in [
        ("/api/v1/sessions/abc/ledger", "id", "a session id"),
        ("/api/v1/clubs/abc/history", "id", "a club id"),
        ("/api/v1/clubs/3/nights/abc", "nid", "a night id"),
        ("/api/v1/clubs/3/players/abc", "pid", "a player id"),
    ] {
        let response = app
            .router
            .clone()
            .oneshot(Request::get(uri).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 400, "{uri}");
        let content_type = response.headers()[header::CONTENT_TYPE].to_str().unwrap();
        assert_eq!(content_type, "application/json", "{uri}");
        let bytes = http_body_util::BodyExt::collect(response.into_body())
            .await
            .unwrap()
            .to_bytes();
        let error = serde_json::from_slice::<Value>(&bytes).unwrap()["error"].clone();
        assert_eq!(error["field"], field, "{uri}");
        assert!(
            error["message"].as_str().unwrap().starts_with(kind),
            "{uri}: {error}"
        );
    }
}

/// A name with a comma stays one name in the sessions list, and the
/// History page's title is its title, not its script tag.
#[tokio::test]
async fn a_name_with_a_comma_is_one_player_and_the_history_title_is_plain() {
    let app = TestApp::new().await;
    let (bearer, _) = club_session(&app).await;
    let created = create_session(
        &app,
        &bearer,
        json!({"game": "auction_pinochle", "players": ["Ann, Bob", "Cy", "Dee"],
               "agreements": {"stake": "0.05"}}),
    )
    .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let id = created.json()["id"].as_i64().unwrap();
    let list = send(&app, "GET", "/api/v1/sessions", &bearer, &[], String::new()).await;
    assert_eq!(list.status.as_u16(), 200, "{}", list.body);
    let listed = list.json()["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .cloned()
        .unwrap();
    assert_eq!(listed["players"], json!(["Ann, Bob", "Cy", "Dee"]));
    let (club, cookie) = app.new_club("Comma club").await;
    let history = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    assert!(
        one_text(&history, "title") == "History · Scorekeeper",
        "{}",
        &history[..history.len().min(600)]
    );
    assert_eq!(history.matches("/static/history.js").count(), 1);
}

/// A new session of a club may not seat a TR39 look-alike of
/// a player the club knows (Cyrillic А or fullwidth Ａ beside the club's A), refused
/// naming `players` with nothing written; the same name in other letter case is the same
/// person and sits down.
#[tokio::test]
async fn a_new_session_may_not_seat_a_look_alike_of_a_club_player() {
    let app = TestApp::new().await;
    let (bearer, _) = club_session(&app).await;
    let sessions = || async { app.scalar("SELECT count(*) FROM sessions").await };
    let new_session = |players: Value| {
        let body = json!({"game": "auction_pinochle", "players": players,
                          "agreements": {"stake": "0.05"}});
        create_session(&app, &bearer, body)
    };
    for look_alike in ["\u{410}", "\u{FF21}"] {
        let reply = new_session(json!([look_alike, "Dee", "Eve"])).await;
        let error = refusal(&reply, 422);
        assert_eq!(error["field"], "players", "{look_alike:?}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("looks like A, a player of the club"),
            "{error}"
        );
    }
    assert_eq!(sessions().await, 1, "the refusals wrote nothing");
    let same = new_session(json!(["a", "Dee", "Eve"])).await;
    assert_eq!(same.status.as_u16(), 201, "{}", same.body);
    assert_eq!(sessions().await, 2);
}
