//! Logins that back off without locking anyone out, club creation limited per address,
//! share links that write nothing on GET, passphrase and share-secret rotation, the purge
//! of expired tokens, one answer for unknown and known clubs, and `/healthz`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::net::SocketAddr;
use std::time::Instant;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, header};
use common::html::{select_text, texts};
use common::{Reply, TestApp};
use scorekeeper::service::clubs::RETRY_AFTER_SECS;
use serde_json::{Value, json};

/// A JSON POST as if from the client at `address` (the server inserts `ConnectInfo` for
/// each connection; `oneshot` has none, so the test does).
async fn post_from(app: &TestApp, address: &str, uri: &str, body: &Value) -> Reply {
    let mut request = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let address: SocketAddr = address.parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(address));
    app.send(request).await
}

async fn form_from(app: &TestApp, address: &str, uri: &str, fields: &[(&str, &str)]) -> Reply {
    let body = serde_html_form_encode(fields);
    let mut request = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap();
    let address: SocketAddr = address.parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(address));
    app.send(request).await
}

fn serde_html_form_encode(fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .map(|(k, v)| {
            let enc = |s: &str| {
                s.bytes()
                    .map(|b| match b {
                        b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
                        _ => format!("%{b:02X}"),
                    })
                    .collect::<String>()
            };
            format!("{}={}", enc(k), enc(v))
        })
        .collect::<Vec<_>>()
        .join("&")
}

fn cookie_of(reply: &Reply) -> String {
    reply
        .set_cookie
        .clone()
        .expect("a cookie")
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

async fn tokens_stored(app: &TestApp) -> i64 {
    app.scalar("SELECT count(*) FROM access_tokens").await
}

/// A club made through the API from `address`; its id, share secret and write token.
async fn api_club(app: &TestApp, address: &str, name: &str) -> (i64, String, String) {
    let created = post_from(
        app,
        address,
        "/api/v1/clubs",
        &json!({"name": name, "passphrase": "seven of clubs"}),
    )
    .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let body = created.json();
    (
        body["id"].as_i64().unwrap(),
        body["share_link"]
            .as_str()
            .unwrap()
            .trim_start_matches("/share/")
            .to_string(),
        body["token"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn the_right_passphrase_logs_in_after_50_wrong_ones_from_another_address() {
    let app = TestApp::new().await;
    api_club(&app, "10.0.0.1:5000", "Thursday").await;
    // The members' devices logged in before (so they are known to the club); right
    // passphrases spend none of the club's budget of 10 wrong guesses a minute.
    // Time starts before the first check drawn on the club's budget: the budget gains one
    // check every RETRY_AFTER_SECS (10 a minute), and so does the guesser's own limit, so
    // what the guesser may get is counted from the clock below, not from a hope that 50
    // answers come back within one refill (under load they do not).
    let started = Instant::now();
    let right = json!({"name": "Thursday", "passphrase": "seven of clubs"});
    assert_eq!(
        post_from(&app, "10.0.0.2:5000", "/api/v1/tokens", &right)
            .await
            .status
            .as_u16(),
        201
    );
    let phone = [("name", "thursday"), ("passphrase", "seven of clubs")];
    assert_eq!(
        form_from(&app, "[2001:db8:1:2::8]:5000", "/login", &phone)
            .await
            .status
            .as_u16(),
        303
    );
    // 50 wrong guesses, then on until the guesser's own limit refuses one, so that the
    // checks of the guessing address below start from a spent limit whatever the clock did.
    let mut statuses = Vec::new();
    loop {
        let reply = post_from(
            &app,
            "203.0.113.9:41000",
            "/api/v1/tokens",
            &json!({"name": "Thursday", "passphrase": "a wrong guess"}),
        )
        .await;
        statuses.push(reply.status.as_u16());
        if reply.status.as_u16() != 429 {
            continue;
        }
        let error = &reply.json()["error"];
        assert_eq!(error["code"], "too_many_requests");
        let by_address = error["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("too many attempts from this device"));
        if statuses.len() >= 50 && by_address {
            break;
        }
        assert!(
            statuses.len() < 100,
            "the guesser is never refused: {statuses:?}"
        );
    }
    let refills = usize::try_from(started.elapsed().as_secs() / RETRY_AFTER_SECS).unwrap();
    // The guesser gets the club's 10 wrong guesses (each one argon2 check), then is told
    // to back off (the club's budget, then its own 10 are spent), and gets one more answer
    // only for each check the budget has gained since (none when the run took under 6 s,
    // as it does on an idle machine: then exactly 10).
    let answered = statuses.iter().filter(|s| **s == 401).count();
    assert!(statuses[..10].iter().all(|s| *s == 401), "{statuses:?}");
    assert!(answered >= 10, "{statuses:?}");
    assert!(
        answered <= 10 + refills,
        "{answered} answers with {refills} refills: {statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        statuses.len() - answered
    );

    // The guessing address itself waits, even with the right passphrase, and is told how
    // long (checked right after its limit refused it, long before its next refill).
    let mut request = Request::post("/api/v1/tokens")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            json!({"name": "Thursday", "passphrase": "seven of clubs"}).to_string(),
        ))
        .unwrap();
    request.extensions_mut().insert(ConnectInfo(
        "203.0.113.9:41001".parse::<SocketAddr>().unwrap(),
    ));
    let response = tower::ServiceExt::oneshot(app.router.clone(), request)
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 429);
    assert_eq!(response.headers()[header::RETRY_AFTER], "6");

    // The login page says so in words.
    let page = form_from(
        &app,
        "203.0.113.9:41002",
        "/login",
        &[("name", "Thursday"), ("passphrase", "seven of clubs")],
    )
    .await;
    assert_eq!(page.status.as_u16(), 429);
    assert!(
        select_text(&page.body, "[role=alert]")
            .iter()
            .any(|alert| alert.starts_with("too many attempts from this device")),
        "{}",
        page.body
    );

    // A member at another address that logged in before is not locked out: through the
    // API and the form (another address of the phone's /64).
    let right = post_from(
        &app,
        "10.0.0.2:5001",
        "/api/v1/tokens",
        &json!({"name": "Thursday", "passphrase": "seven of clubs"}),
    )
    .await;
    assert_eq!(right.status.as_u16(), 201, "{}", right.body);
    let form = form_from(
        &app,
        "[2001:db8:1:2::7]:5002",
        "/login",
        &[("name", "thursday"), ("passphrase", "seven of clubs")],
    )
    .await;
    assert_eq!(form.status.as_u16(), 303, "{}", form.body);
}

#[tokio::test]
async fn club_creation_is_limited_per_address() {
    let app = TestApp::new().await;
    for n in 0..5 {
        api_club(&app, "198.51.100.4:1000", &format!("Club {n}")).await;
    }
    let mut request = Request::post("/api/v1/clubs")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            json!({"name": "Club 5", "passphrase": "seven of clubs"}).to_string(),
        ))
        .unwrap();
    request.extensions_mut().insert(ConnectInfo(
        "198.51.100.4:1001".parse::<SocketAddr>().unwrap(),
    ));
    let response = tower::ServiceExt::oneshot(app.router.clone(), request)
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 429);
    assert_eq!(response.headers()[header::RETRY_AFTER], "600");
    let clubs: i64 = app.scalar("SELECT count(*) FROM clubs").await;
    assert_eq!(clubs, 5, "the refused creation wrote nothing");
    // Another address creates its club.
    api_club(&app, "198.51.100.5:1000", "Club 5").await;
}

#[tokio::test]
async fn unknown_and_known_clubs_get_the_same_answer() {
    let app = TestApp::new().await;
    api_club(&app, "10.0.0.1:5000", "Known").await;
    let known = post_from(
        &app,
        "10.0.0.3:1",
        "/api/v1/tokens",
        &json!({"name": "Known", "passphrase": "not the passphrase"}),
    )
    .await;
    let unknown = post_from(
        &app,
        "10.0.0.4:1",
        "/api/v1/tokens",
        &json!({"name": "Nobody here", "passphrase": "not the passphrase"}),
    )
    .await;
    let huge = post_from(
        &app,
        "10.0.0.5:1",
        "/api/v1/tokens",
        &json!({"name": "x".repeat(100_000), "passphrase": "not the passphrase"}),
    )
    .await;
    assert_eq!(known.status.as_u16(), 401);
    assert_eq!(known.body, unknown.body);
    assert_eq!(known.status, unknown.status);
    assert_eq!(known.body, huge.body);
}

#[tokio::test]
async fn the_share_link_writes_nothing_and_keeps_a_members_write_login() {
    let app = TestApp::new().await;
    let (id, share, _) = api_club(&app, "10.0.0.1:5000", "Sharers").await;
    let member = form_from(
        &app,
        "10.0.0.1:5001",
        "/login",
        &[("name", "Sharers"), ("passphrase", "seven of clubs")],
    )
    .await;
    let member_cookie = cookie_of(&member);
    let before = tokens_stored(&app).await;

    // A visitor: the link lets them look; no token row is written, however often they open it.
    let opened = app.get(&format!("/share/{share}")).await;
    assert_eq!(opened.status.as_u16(), 303);
    let reader = cookie_of(&opened);
    for _ in 0..3 {
        app.get(&format!("/share/{share}")).await;
    }
    assert_eq!(tokens_stored(&app).await, before, "a GET writes no token");
    let page = app
        .get_with(&format!("/clubs/{id}"), &[("cookie", &reader)])
        .await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(page.body.contains("You are looking with the share link"));

    // A member who opens the link keeps the write login: no cookie is set.
    let again = app
        .get_with(&format!("/share/{share}"), &[("cookie", &member_cookie)])
        .await;
    assert_eq!(again.status.as_u16(), 303);
    assert!(again.set_cookie.is_none(), "{:?}", again.set_cookie);
    let page = app
        .get_with(&format!("/clubs/{id}"), &[("cookie", &member_cookie)])
        .await;
    assert!(page.body.contains("Club settings"), "still a writer");

    // A new share secret: the old link and the reader's cookie see nothing any more.
    let unticked = app
        .post_form_with(
            &format!("/clubs/{id}/share"),
            &[],
            &[("cookie", &member_cookie)],
        )
        .await;
    assert_eq!(unticked.status.as_u16(), 422, "Yes must be chosen");
    assert!(unticked.body.contains("the old share link stops working"));
    app.post_form_with_ok(
        &format!("/clubs/{id}/share"),
        &[("confirm", "yes")],
        &[("cookie", &member_cookie)],
    )
    .await;
    assert_eq!(
        app.get(&format!("/share/{share}")).await.status.as_u16(),
        404
    );
    let page = app
        .get_with(&format!("/clubs/{id}"), &[("cookie", &reader)])
        .await;
    assert_eq!(page.status.as_u16(), 404);
    let page = app
        .get_with(&format!("/clubs/{id}"), &[("cookie", &member_cookie)])
        .await;
    assert!(!page.body.contains(&share), "the page shows the new link");
    // A reader cannot rotate.
    let new_reader = {
        let link = page.body.split("/share/").nth(1).unwrap();
        let secret: String = link.chars().take_while(char::is_ascii_hexdigit).collect();
        cookie_of(&app.get(&format!("/share/{secret}")).await)
    };
    let refused = app
        .post_form_with(
            &format!("/clubs/{id}/share"),
            &[("confirm", "yes")],
            &[("cookie", &new_reader)],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 403);
}

#[tokio::test]
async fn a_new_passphrase_needs_the_old_one_and_ends_every_other_login() {
    let app = TestApp::new().await;
    let (id, _, api_token) = api_club(&app, "10.0.0.1:5000", "Rotators").await;
    let login = form_from(
        &app,
        "10.0.0.1:5001",
        "/login",
        &[("name", "Rotators"), ("passphrase", "seven of clubs")],
    )
    .await;
    let cookie = cookie_of(&login);
    let settings = app
        .get_with(&format!("/clubs/{id}/settings"), &[("cookie", &cookie)])
        .await;
    assert_eq!(settings.status.as_u16(), 200);
    assert_eq!(
        app.get(&format!("/clubs/{id}/settings"))
            .await
            .status
            .as_u16(),
        404,
        "outsiders see no settings"
    );

    let wrong = app
        .post_form_with(
            &format!("/clubs/{id}/passphrase"),
            &[
                ("current", "eight of clubs"),
                ("passphrase", "queen of spades"),
                ("again", "queen of spades"),
            ],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(wrong.status.as_u16(), 422);
    assert!(
        texts(&wrong.body)
            .iter()
            .any(|t| t.contains("Current: that is not the club's current passphrase")),
        "{}",
        wrong.body
    );
    let changed = app
        .post_form_with(
            &format!("/clubs/{id}/passphrase"),
            &[
                ("current", "seven of clubs"),
                ("passphrase", "queen of spades"),
                ("again", "queen of spades"),
            ],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(changed.status.as_u16(), 200, "{}", changed.body);
    assert!(changed.body.contains("The passphrase is changed"));
    let fresh = cookie_of(&changed);

    // The API token issued before the change no longer writes; the changer's new cookie does.
    let create = |auth: Option<String>| {
        let mut request =
            Request::post("/api/v1/sessions").header(header::CONTENT_TYPE, "application/json");
        if let Some(a) = auth {
            request = request.header(header::AUTHORIZATION, a);
        }
        request
            .body(Body::from(
                json!({"game": "auction_pinochle", "players": ["A", "B", "C"], "agreements": {"stake": "0.05"}})
                    .to_string(),
            ))
            .unwrap()
    };
    assert_eq!(
        app.send(create(Some(format!("Bearer {api_token}"))))
            .await
            .status
            .as_u16(),
        401
    );
    assert_eq!(
        app.get_with(&format!("/clubs/{id}"), &[("cookie", &fresh)])
            .await
            .status
            .as_u16(),
        200
    );
    let old = post_from(
        &app,
        "10.0.0.9:1",
        "/api/v1/tokens",
        &json!({"name": "Rotators", "passphrase": "seven of clubs"}),
    )
    .await;
    assert_eq!(old.status.as_u16(), 401);
    let new = post_from(
        &app,
        "10.0.0.9:2",
        "/api/v1/tokens",
        &json!({"name": "Rotators", "passphrase": "queen of spades"}),
    )
    .await;
    assert_eq!(new.status.as_u16(), 201);
}

#[tokio::test]
async fn expired_tokens_are_purged_on_login() {
    let app = TestApp::new().await;
    let (id, _, _) = api_club(&app, "10.0.0.1:5000", "Purgers").await;
    app.exec(&format!(
        "INSERT INTO access_tokens (token_hash, club_id, access, created_at, expires_at) \
         VALUES ('old', {id}, 'write', '2020-01-01T00:00:00Z', '2020-01-31T00:00:00Z')"
    ))
    .await
    .unwrap();
    let before = tokens_stored(&app).await;
    let login = post_from(
        &app,
        "10.0.0.1:5001",
        "/api/v1/tokens",
        &json!({"name": "Purgers", "passphrase": "seven of clubs"}),
    )
    .await;
    assert_eq!(login.status.as_u16(), 201);
    let expired: i64 = app
        .scalar("SELECT count(*) FROM access_tokens WHERE token_hash = 'old'")
        .await;
    assert_eq!(expired, 0);
    // One new token in, the expired one out.
    assert_eq!(tokens_stored(&app).await, before);
}

#[tokio::test]
async fn healthz_answers_200_while_the_database_answers_and_503_after() {
    let app = TestApp::new().await;
    let ok = app.get("/healthz").await;
    assert_eq!(ok.status.as_u16(), 200);
    assert_eq!(ok.json(), json!({"status": "ok"}));
    app.pool.close().await;
    let down = app.get("/healthz").await;
    assert_eq!(down.status.as_u16(), 503);
    let body = down.json();
    assert_eq!(body["status"], "unavailable", "{body}");
    assert!(
        body["cause"].as_str().is_some_and(|c| !c.is_empty()),
        "{body}"
    );
}

/// A wrong-passphrase login at `club` from `address`, straight to the router (so that many
/// can run at once); its status.
async fn guess(router: axum::Router, address: String, club: String) -> u16 {
    let mut request = Request::post("/api/v1/tokens")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            json!({"name": club, "passphrase": "a wrong guess"}).to_string(),
        ))
        .unwrap();
    let address: SocketAddr = address.parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(address));
    let response = tower::ServiceExt::oneshot(router, request).await.unwrap();
    response.status().as_u16()
}

/// Logs in to "Thursday" from `address` with `passphrase`: the status.
async fn log_in_from(router: axum::Router, address: String, passphrase: &str) -> u16 {
    let body = json!({"name": "Thursday", "passphrase": passphrase});
    let mut request = Request::post("/api/v1/tokens")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let address: SocketAddr = address.parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(address));
    let response = tower::ServiceExt::oneshot(router, request).await.unwrap();
    response.status().as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_table_logging_in_at_once_with_the_right_passphrase_all_get_in() {
    let app = TestApp::new().await;
    api_club(&app, "10.0.0.1:5000", "Thursday").await;
    // 32 members, each on his own phone, log in together with the default limits.
    let mut table = tokio::task::JoinSet::new();
    for n in 1..=32 {
        let router = app.router.clone();
        table.spawn(async move {
            log_in_from(router, format!("198.51.100.{n}:5000"), "seven of clubs").await
        });
    }
    let statuses = table.join_all().await;
    assert!(statuses.iter().all(|s| *s == 201), "{statuses:?}");
    // Wrong passphrases still spend the club's budget: ten are checked, then one more for
    // each the budget gains meanwhile (one every 6 s), and the rest are refused unchecked.
    let started = std::time::Instant::now();
    let mut wrong = Vec::new();
    for n in 1..=16 {
        let router = app.router.clone();
        wrong.push(log_in_from(router, format!("203.0.113.{n}:4000"), "six of clubs").await);
    }
    let gained = (started.elapsed().as_secs_f64() / 6.0).ceil() as usize;
    let checked = wrong.iter().filter(|&&s| s == 401).count();
    assert!(wrong[..10].iter().all(|s| *s == 401), "{wrong:?}");
    assert!(checked <= 10 + gained, "{checked} checked: {wrong:?}");
    assert!(wrong.contains(&429), "{wrong:?}");
}

#[tokio::test]
async fn a_clubs_budget_caps_guesses_from_32_addresses_and_a_known_member_still_gets_in() {
    let pool = crate::common::engines::fresh_pool().await;
    let limiter = std::sync::Arc::new(scorekeeper::service::clubs::LoginLimits::new());
    let state = scorekeeper::web::AppState {
        limiter: limiter.clone(),
        ..scorekeeper::web::AppState::new(pool.clone())
    };
    let app = TestApp {
        router: scorekeeper::web::app(state),
        pool,
        links: std::sync::Mutex::new(Vec::new()),
    };
    let right = json!({"name": "Thursday", "passphrase": "seven of clubs"});
    api_club(&app, "10.0.0.1:5000", "Thursday").await;
    // A member logged in from home last week: that address is known to the club.
    let earlier = post_from(&app, "10.0.0.2:5001", "/api/v1/tokens", &right).await;
    assert_eq!(earlier.status.as_u16(), 201, "{}", earlier.body);
    let before = limiter.checks();
    assert_eq!(before, 1);

    // 32 addresses guess at once, 3 times each, spelling the name several ways.
    let started = std::time::Instant::now();
    let mut attack = tokio::task::JoinSet::new();
    for n in 1..=32 {
        for round in 0..3 {
            let club = ["Thursday", "THURSDAY", " thursday "][round].to_string();
            attack.spawn(guess(
                app.router.clone(),
                format!("203.0.113.{n}:4{round}000"),
                club,
            ));
        }
    }
    let statuses = attack.join_all().await;
    // The budget gains one check every 6 seconds: the checks it could have gained while
    // the attack ran.
    let gained = (started.elapsed().as_secs_f64() / 6.0).ceil() as u64;
    let checked = limiter.checks() - before;
    let wrong = statuses.iter().filter(|s| **s == 401).count() as u64;
    let refused = statuses.iter().filter(|s| **s == 429).count() as u64;
    assert_eq!(wrong + refused, 96, "{statuses:?}");
    // Every answered guess was one check, and they were the budget's 10 wrong guesses
    // (plus what it gained meanwhile); the rest were refused unchecked. The member's right
    // passphrase spent none of it.
    assert_eq!(checked, wrong);
    assert!(wrong >= 10, "the budget's burst is answered: {wrong}");
    assert!(
        wrong <= 10 + gained,
        "{wrong} guesses checked in {:?}",
        started.elapsed()
    );

    // Whatever the budget gained since is spent too (a guess from a fresh address each),
    // so that the next attempts meet a spent budget.
    let mut drained = 0;
    for n in 33..40 {
        let status = guess(
            app.router.clone(),
            format!("203.0.113.{n}:4000"),
            "Thursday".into(),
        )
        .await;
        if status == 429 {
            break;
        }
        drained += 1;
    }
    assert!(drained <= gained + 1, "{drained} more checked");
    let drained_at = std::time::Instant::now();
    // The budget is spent: a right passphrase from a new address is refused like a wrong
    // one, unchecked (the refusal tells nothing about the passphrase).
    let checked = limiter.checks() - before;
    let new_address = post_from(&app, "198.51.100.7:5002", "/api/v1/tokens", &right).await;
    assert_eq!(new_address.status.as_u16(), 429, "{}", new_address.body);
    assert!(
        new_address.body.contains("too many wrong passphrases"),
        "{}",
        new_address.body
    );
    assert_eq!(limiter.checks() - before, checked, "nothing was checked");
    // The member at the known address gets in through the club's reserve, by the API and
    // by the login form.
    let member = post_from(&app, "10.0.0.2:5003", "/api/v1/tokens", &right).await;
    assert_eq!(member.status.as_u16(), 201, "{}", member.body);
    let form = form_from(
        &app,
        "10.0.0.2:5004",
        "/login",
        &[("name", "thursday"), ("passphrase", "seven of clubs")],
    )
    .await;
    assert_eq!(form.status.as_u16(), 303, "{}", form.body);
    // The guessers cannot draw on the 3 checks left in that reserve: of 6 more guesses
    // only those the budget gained since it was spent are checked (one every 6 seconds;
    // each guess now waits the club's back-off too).
    let mut late = Vec::new();
    for n in 40..46 {
        late.push(
            guess(
                app.router.clone(),
                format!("203.0.113.{n}:4000"),
                "Thursday".into(),
            )
            .await,
        );
    }
    let gained_late = (drained_at.elapsed().as_secs_f64() / 6.0).ceil() as usize;
    let checked_late = late.iter().filter(|s| **s == 401).count();
    assert!(
        checked_late <= gained_late,
        "{late:?} in {:?}",
        drained_at.elapsed()
    );
}

/// POST `/clubs` with a taken name is no oracle of which clubs exist.
/// The refusal names the field and says plainly that no club can be made under the name,
/// without saying that a club has it; and each probe spends the address's creation budget
/// as a creation does, so the sixth probe from one address is a 429 whatever the name.
#[tokio::test]
async fn a_taken_club_name_is_refused_without_telling_that_it_exists() {
    let app = TestApp::new().await;
    api_club(&app, "10.0.0.1:5000", "Known").await;
    for n in 0..5 {
        let probe = post_from(
            &app,
            "10.0.0.7:1",
            "/api/v1/clubs",
            &json!({"name": "Known", "passphrase": format!("guess number {n}")}),
        )
        .await;
        assert_eq!(probe.status.as_u16(), 400, "{}", probe.body);
        let error = &probe.json()["error"];
        assert_eq!(error["field"], "name");
        let message = error["message"].as_str().unwrap();
        assert!(
            message.contains("cannot be made under this name"),
            "{message}"
        );
        assert!(
            !message.contains("Known") && !message.contains("already"),
            "{message}"
        );
    }
    let sixth = post_from(
        &app,
        "10.0.0.7:2",
        "/api/v1/clubs",
        &json!({"name": "Free name", "passphrase": "seven of clubs"}),
    )
    .await;
    assert_eq!(sixth.status.as_u16(), 429, "{}", sixth.body);
    let clubs: i64 = app.scalar("SELECT count(*) FROM clubs").await;
    assert_eq!(clubs, 1, "no probe wrote a club");
    // The form says it as plainly, naming the field.
    let form = form_from(
        &app,
        "10.0.0.8:1",
        "/clubs",
        &[
            ("name", "Known"),
            ("passphrase", "seven of clubs"),
            ("again", "seven of clubs"),
        ],
    )
    .await;
    assert_eq!(form.status.as_u16(), 422, "{}", form.body);
    assert!(
        form.body.contains("cannot be made under this name"),
        "{}",
        form.body
    );
}
