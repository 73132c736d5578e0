//! Exports over HTTP: a club with several games, a kitty and payments, exported as CSV, as
//! an hledger journal that Debian's `hledger` balances to the ledger's cent, and as a
//! whole-club JSON backup that imports into a new club with identical ledgers.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

pub(crate) mod streamed;

use std::collections::BTreeMap;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::html::{has, one_text, select_text};
use common::nights::{hledger_balances, seen_at};
use common::{Reply, TestApp, engines};
use scorekeeper::export::journal_account;
use scorekeeper::money::Money;
use serde_json::{Value, json};

async fn get(app: &TestApp, uri: &str, token: &str) -> Reply {
    app.get_with(uri, &[("authorization", &format!("Bearer {token}"))])
        .await
}

async fn post(app: &TestApp, uri: &str, token: Option<&str>, body: &Value) -> Reply {
    let mut request = Request::post(uri).header(header::CONTENT_TYPE, "application/json");
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    app.send(request.body(Body::from(body.to_string())).unwrap())
        .await
}

/// A club with three sessions: Auction Pinochle with a kitty pot, still open (the opening
/// ante, an all-pass, a failed 350 in hearts, a payment), Pitch (one hand: no money) and
/// poker (two hands and a payment). Returns the club's id, its token and the sessions' ids.
///
/// Worked by hand (rules §1.2, §1.11): the pinochle session is golden case KT-05 (Ann
/// −2.20, Bob +0.20, Mary Lou +0.20, kitty 1.80) and Ann hands Bob 0.20 (Ann −2.00, Bob
/// 0.00). Poker's first hand is golden case PK-01 (Ann −0.05, Bob −0.50, Dee −0.25, Eve
/// −0.50, Mary Lou +1.30); in the second Ann, Bob and Eve put in 1.00 each and Ann and Bob
/// split the 3.00 (Ann +0.50, Bob +0.50, Eve −1.00); then Eve hands Mary Lou 1.00 (Eve
/// −0.50, Mary Lou +0.30). Over the club: Ann −1.55, Bob 0.00, Dee −0.25, Eve −0.50, Mary
/// Lou +0.50, kitty +1.80.
async fn club(app: &TestApp, name: &str) -> (i64, String, Vec<i64>) {
    let reply = post(
        app,
        "/api/v1/clubs",
        None,
        &json!({ "name": name, "passphrase": "deal the cards" }),
    )
    .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let club = reply.json();
    let token = club["token"].as_str().unwrap().to_string();
    let documents = [
        json!({ "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
            "agreements": { "stake": "0.05", "kitty": "pot" },
            "players": ["Ann", "Bob", "Mary Lou"],
            "events": [
                { "type": "hand", "dealer": "Bob", "all_passed": true },
                { "type": "hand", "dealer": "Mary Lou", "bidder": "Ann", "bid": 350, "trump": "hearts", "outcome": "failed" },
                { "type": "payment", "from": "Ann", "to": "Bob", "amount": "0.20" }
            ] }),
        json!({ "format": "scorekeeper/session@1", "game": "auction_pitch",
            "agreements": { "stake": "0.10" }, "players": ["Ann", "Bob", "Dee", "Mary Lou"],
            "events": [
                { "type": "hand", "dealer": "Mary Lou", "pitcher": "Ann", "bid": 2,
                  "points": { "high": "Ann", "low": "Bob", "jack": "Dee", "game": "Ann" } }
            ] }),
        json!({ "format": "scorekeeper/session@1", "game": "poker",
            "agreements": { "smallest_unit": "0.05" }, "players": ["Ann", "Bob", "Dee", "Eve; Jr", "Mary Lou"],
            "events": [
                { "type": "hand", "dealer": "Mary Lou", "contributions": { "Ann": "0.05", "Bob": "0.50", "Dee": "0.25", "Eve; Jr": "0.50", "Mary Lou": "0.50" },
                  "folded": ["Ann", "Dee"], "all_in": [], "showdown": [["Mary Lou"], ["Eve; Jr"], ["Bob"]], "split": "high" },
                { "type": "hand", "dealer": "Ann", "contributions": { "Ann": "1.00", "Bob": "1.00", "Dee": "0.00", "Eve; Jr": "1.00", "Mary Lou": "0.00" },
                  "folded": ["Dee", "Mary Lou"], "all_in": [], "showdown": [["Ann", "Bob"], ["Eve; Jr"]], "split": "high" },
                { "type": "payment", "from": "Eve; Jr", "to": "Mary Lou", "amount": "1.00" }
            ] }),
    ];
    let mut ids = Vec::new();
    for doc in &documents {
        let reply = post(app, "/api/v1/sessions/import", Some(&token), doc).await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        ids.push(reply.json()["id"].as_i64().unwrap());
    }
    (club["id"].as_i64().unwrap(), token, ids)
}

/// The export (`scorekeeper/club@1`, through the API) of a new [`club`] called Thursday.
async fn thursday_export(app: &TestApp) -> Value {
    let (club_id, token, _) = club(app, "Thursday").await;
    get(app, &format!("/api/v1/clubs/{club_id}/export"), &token)
        .await
        .json()
}

async fn ledger(app: &TestApp, id: i64, token: &str) -> Value {
    let reply = get(app, &format!("/api/v1/sessions/{id}/ledger"), token).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.json()
}

/// Each journal account's balance summed over `ledgers`, in cents, zeros left out.
fn journal_balances(ledgers: &[Value]) -> BTreeMap<String, i64> {
    let mut sums = BTreeMap::new();
    for l in ledgers {
        for (account, amount) in l["balances"].as_object().unwrap() {
            let cents = Money::parse(amount.as_str().unwrap()).unwrap().cents();
            *sums.entry(journal_account(account)).or_insert(0) += cents;
        }
    }
    sums.retain(|_, cents| *cents != 0);
    sums
}

/// The club document `club` posted to the import API under the name `name` (else the
/// name it carries), with the passphrase "deal the cards": the answer as it came.
async fn import_as(app: &TestApp, name: Option<&str>, club: &Value) -> Reply {
    let mut body = json!({ "passphrase": "deal the cards", "club": club });
    if let Some(name) = name {
        body["name"] = json!(name);
    }
    post(app, "/api/v1/clubs/import", None, &body).await
}

/// Imports the club export `club` as a new club Friday ("deal the cards") through the API;
/// fails unless it is created (201). The answer: the new club's id, token and session ids.
async fn import_friday(app: &TestApp, club: &Value) -> Value {
    let reply = import_as(app, Some("Friday"), club).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.json()
}

#[tokio::test]
async fn hledger_balances_the_club_journal_exactly_as_the_ledgers() {
    let app = TestApp::new().await;
    let (club_id, token, ids) = club(&app, "Thursday").await;
    let mut ledgers = Vec::new();
    for id in &ids {
        ledgers.push(ledger(&app, *id, &token).await);
    }
    // The kitty holds money and payments were made, so the check has something to check.
    assert_eq!(ledgers[0]["balances"]["KITTY"], "1.80");
    assert_eq!(ledgers[0]["balances"]["Ann"], "-2.00");
    assert_eq!(ledgers[2]["balances"]["Eve; Jr"], "-0.50");
    let reply = get(&app, &format!("/api/v1/clubs/{club_id}/journal"), &token).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let events: usize = ledgers
        .iter()
        .map(|l| l["events"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        reply.body.matches(" * ").count(),
        events,
        "one transaction per event"
    );
    assert!(
        reply.body.contains("    players:Eve, Jr  $-1.00\n"),
        "{}",
        reply.body
    );
    let expected = journal_balances(&ledgers);
    let by_hand = BTreeMap::from([
        ("kitty".to_string(), 180),
        ("players:Ann".to_string(), -155),
        ("players:Dee".to_string(), -25),
        ("players:Eve, Jr".to_string(), -50),
        ("players:Mary Lou".to_string(), 50),
    ]);
    assert_eq!(expected, by_hand);
    let Some(club_balances) = hledger_balances(&reply.body, "club") else {
        return;
    };
    assert_eq!(club_balances, expected);
    // One session's journal balances to that session's ledger alone.
    let reply = get(
        &app,
        &format!("/api/v1/sessions/{}/journal", ids[0]),
        &token,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    let session = hledger_balances(&reply.body, "session").unwrap();
    assert_eq!(session, journal_balances(&ledgers[..1]));
}

#[tokio::test]
async fn csv_downloads_carry_every_posting_and_every_result() {
    let app = TestApp::new().await;
    let (club_id, token, ids) = club(&app, "Thursday").await;
    let kitty = ledger(&app, ids[0], &token).await;
    let reply = get(
        &app,
        &format!("/api/v1/sessions/{}/postings.csv", ids[0]),
        &token,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    let mut reader = csv::Reader::from_reader(reply.body.as_bytes());
    assert_eq!(
        reader.headers().unwrap(),
        vec![
            "event",
            "hand",
            "type",
            "recorded_at",
            "account",
            "amount",
            "explanation"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    // Every posting of the ledger is a row, the opening ante's first (no event index).
    let postings: usize = kitty["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["postings"].as_array().unwrap().len())
        .sum();
    assert_eq!(rows.len(), postings);
    assert_eq!(&rows[0][0], "");
    assert_eq!(&rows[0][2], "opening_ante");
    let mut by_account: BTreeMap<String, i64> = BTreeMap::new();
    for row in &rows {
        *by_account.entry(row[4].to_string()).or_default() +=
            Money::parse(&row[5]).unwrap().cents();
    }
    for (account, amount) in kitty["balances"].as_object().unwrap() {
        let cents = Money::parse(amount.as_str().unwrap()).unwrap().cents();
        assert_eq!(
            by_account.get(account).copied().unwrap_or(0),
            cents,
            "{account}"
        );
    }
    let payment: Vec<_> = rows.iter().filter(|r| &r[2] == "payment").collect();
    assert_eq!(payment.len(), 2);
    assert_eq!((&payment[0][0], &payment[0][1]), ("2", ""));
    let paid: BTreeMap<&str, &str> = payment.iter().map(|r| (&r[4], &r[5])).collect();
    assert_eq!(paid, BTreeMap::from([("Ann", "0.20"), ("Bob", "-0.20")]));
    let hand: Vec<_> = rows.iter().filter(|r| &r[0] == "1").collect();
    assert!(
        hand.iter().all(|r| &r[1] == "2"),
        "the failed 350 is the second hand"
    );

    let reply = get(
        &app,
        &format!("/api/v1/clubs/{club_id}/results.csv"),
        &token,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    let mut reader = csv::Reader::from_reader(reply.body.as_bytes());
    assert_eq!(
        reader.headers().unwrap(),
        vec!["session", "date", "game", "player", "net"]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let balances: usize = {
        let mut n = 0;
        for id in &ids {
            n += ledger(&app, *id, &token).await["balances"]
                .as_object()
                .unwrap()
                .len();
        }
        n
    };
    assert_eq!(rows.len(), balances);
    let poker = rows
        .iter()
        .find(|r| r[0] == ids[2].to_string() && &r[3] == "Eve; Jr")
        .unwrap();
    assert_eq!((&poker[2], &poker[4]), ("poker", "-0.50"));
    // Outsiders see nothing.
    assert_eq!(
        app.get(&format!("/api/v1/clubs/{club_id}/results.csv"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get(&format!("/api/v1/sessions/{}/postings.csv", ids[0]))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_club_export_imports_into_a_new_club_with_identical_ledgers() {
    let app = TestApp::new().await;
    let (club_id, token, ids) = club(&app, "Thursday").await;
    let reply = get(&app, &format!("/api/v1/clubs/{club_id}/export"), &token).await;
    assert_eq!(reply.status, StatusCode::OK);
    let export = reply.json();
    assert_eq!(export["format"], "scorekeeper/club@1");
    assert_eq!(export["name"], "Thursday");
    assert_eq!(export["sessions"].as_array().unwrap().len(), 3);
    assert!(
        export["players"]
            .as_array()
            .unwrap()
            .contains(&json!("Eve; Jr"))
    );

    // A taken name is refused, a broken session is refused by field, and nothing is written.
    let taken = import_as(&app, None, &export).await;
    assert_eq!(taken.status, StatusCode::BAD_REQUEST, "{}", taken.body);
    let mut broken = export.clone();
    broken["sessions"][1]["session"]["events"][0]["bid"] = json!(9);
    let refused = import_as(&app, Some("Friday"), &broken).await;
    assert_eq!(
        refused.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        refused.body
    );
    assert_eq!(
        refused.json()["error"]["field"],
        "sessions[1].session.events[0].bid"
    );
    let login = post(
        &app,
        "/api/v1/tokens",
        None,
        &json!({ "name": "Friday", "passphrase": "deal the cards" }),
    )
    .await;
    assert_eq!(
        login.status,
        StatusCode::UNAUTHORIZED,
        "no club Friday was created"
    );

    let imported = import_friday(&app, &export).await;
    let new_token = imported["token"].as_str().unwrap();
    let new_ids: Vec<i64> = imported["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(new_ids.len(), 3);
    for (old, new) in ids.iter().zip(&new_ids) {
        assert_ne!(old, new);
        assert_eq!(
            ledger(&app, *new, new_token).await,
            ledger(&app, *old, &token).await
        );
        // Times and explanations came along: the postings export is the same file.
        let a = get(
            &app,
            &format!("/api/v1/sessions/{old}/postings.csv"),
            &token,
        )
        .await
        .body;
        let b = get(
            &app,
            &format!("/api/v1/sessions/{new}/postings.csv"),
            new_token,
        )
        .await
        .body;
        assert_eq!(a, b);
    }
    // And the new club exports the same club under its new name.
    let again = get(
        &app,
        &format!("/api/v1/clubs/{}/export", imported["club_id"]),
        new_token,
    )
    .await
    .json();
    assert_eq!(again["sessions"], export["sessions"]);
    assert_eq!(again["players"], export["players"]);
    assert_eq!(again["name"], "Friday");
}

/// A `multipart/form-data` body of `fields` (name, file name or none, content).
fn multipart(fields: &[(&str, Option<&str>, &[u8])]) -> (String, Vec<u8>) {
    let boundary = "----scorekeeper-test-boundary";
    let mut body = Vec::new();
    for (name, file, content) in fields {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match file {
            Some(file) => body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{file}\"\r\nContent-Type: application/json\r\n\r\n").as_bytes(),
            ),
            None => body.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes()),
        }
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[tokio::test]
async fn the_pages_link_the_downloads_and_restore_a_club_from_its_backup_file() {
    let app = TestApp::new().await;
    let (club_id, token, ids) = club(&app, "Thursday").await;
    let sheet = get(&app, &format!("/sessions/{}", ids[0]), &token).await;
    assert_eq!(sheet.status, StatusCode::OK);
    for link in [
        format!("/api/v1/sessions/{}/postings.csv", ids[0]),
        format!("/api/v1/sessions/{}/journal", ids[0]),
    ] {
        assert!(
            has(&sheet.body, &format!("a[href=\"{link}\"][download]")),
            "{link}"
        );
        let download = get(&app, &link, &token).await;
        assert_eq!(download.status, StatusCode::OK, "{link}");
    }
    let page = get(&app, &format!("/clubs/{club_id}"), &token).await;
    assert_eq!(page.status, StatusCode::OK);
    for what in ["results.csv", "journal", "export"] {
        assert!(
            has(
                &page.body,
                &format!("a[href=\"/api/v1/clubs/{club_id}/{what}\"][download]")
            ),
            "{what}"
        );
    }
    let backup = get(&app, &format!("/api/v1/clubs/{club_id}/export"), &token)
        .await
        .body;
    assert!(has(
        &app.get("/clubs/new").await.body,
        "[href=\"/clubs/import\"]"
    ));
    assert_eq!(app.get("/clubs/import").await.status, StatusCode::OK);

    // A file that is not a backup is refused on the form, by name; nothing is created.
    let (content_type, body) = multipart(&[
        (
            "backup",
            Some("notes.json"),
            b"{\"format\": \"scorekeeper/session@1\"}",
        ),
        ("name", None, b"Friday"),
        ("passphrase", None, b"deal the cards"),
    ]);
    let send = |content_type: String, body: Vec<u8>| {
        Request::post("/clubs/import")
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .unwrap()
    };
    let refused = app.send(send(content_type, body)).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        select_text(&refused.body, "[role=alert]")
            .iter()
            .any(|alert| alert.starts_with("Backup: this is not a club's backup file")),
        "{}",
        refused.body
    );
    assert!(has(&refused.body, "[value=Friday]"));

    let (content_type, body) = multipart(&[
        ("backup", Some("club.json"), backup.as_bytes()),
        ("name", None, b"Friday"),
        ("passphrase", None, b"deal the cards"),
    ]);
    let restored = app.send(send(content_type, body)).await;
    assert_eq!(restored.status, StatusCode::SEE_OTHER, "{}", restored.body);
    let location = restored.location.unwrap();
    let cookie = restored.set_cookie.unwrap();
    let cookie = cookie.split(';').next().unwrap();
    let page = app.get_with(&location, &[("cookie", cookie)]).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(one_text(&page.body, "h1"), "Friday");
    assert_eq!(page.body.matches("<li><a href=\"/sessions/").count(), 3);
}

#[tokio::test]
async fn the_restore_page_names_the_hand_at_fault_in_player_words() {
    let app = TestApp::new().await;
    let mut backup = thursday_export(&app).await;
    backup["sessions"][0]["session"]["events"][1]["bid"] = json!(240);
    let (content_type, body) = multipart(&[
        ("backup", Some("club.json"), backup.to_string().as_bytes()),
        ("passphrase", None, b"deal the cards"),
        ("name", None, b"Friday"),
    ]);
    let refused = app
        .send(
            Request::post("/clubs/import")
                .header(header::CONTENT_TYPE, content_type)
                .body(Body::from(body))
                .unwrap(),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        select_text(&refused.body, "[role=alert]")
            .iter()
            .any(|alert| alert.starts_with("Backup file, session 1, event 2, Bid: 240")),
        "{}",
        refused.body
    );
}

/// The person ids of a club by name, from its leaderboard.
async fn people(app: &TestApp, club: i64, token: &str) -> BTreeMap<String, i64> {
    let board = get(app, &format!("/api/v1/clubs/{club}/leaderboard"), token)
        .await
        .json();
    board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["id"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// Everything the history pages read comes along: a title, an archived session, a rename
/// (Bob → Robert), a merge (Dee into Mary Lou) and a night of the Pitch and poker sessions
/// with a standing and a voided payment. The import restores them, and the new club's
/// export equals the old one's but for the name. An older export without them imports.
#[tokio::test]
async fn a_club_export_carries_titles_archives_people_and_nights() {
    let app = TestApp::new().await;
    let (club_id, token, ids) = club(&app, "Thursday").await;
    let auth = format!("Bearer {token}");
    let h = [("authorization", auth.as_str())];
    let form = |uri: String, fields: Vec<(&'static str, String)>| {
        let (app, h) = (&app, h);
        async move {
            let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let reply = app.post_form_with(&uri, &fields, &h).await;
            assert_eq!(reply.status.as_u16(), 303, "{uri}: {}", reply.body);
            reply
        }
    };
    form(
        format!("/clubs/{club_id}/sessions/{}/title", ids[0]),
        vec![("title", "Thursday at Sal's".into())],
    )
    .await;
    form(
        format!("/clubs/{club_id}/sessions/{}/archive", ids[1]),
        vec![("archived", "1".into())],
    )
    .await;
    let who = people(&app, club_id, &token).await;
    form(
        format!("/clubs/{club_id}/players/{}/rename", who["Bob"]),
        vec![("name", "Robert".into())],
    )
    .await;
    form(
        format!("/clubs/{club_id}/players/{}/merge", who["Dee"]),
        vec![("into", who["Mary Lou"].to_string())],
    )
    .await;
    let night = form(
        format!("/clubs/{club_id}/nights"),
        vec![
            ("sessions", ids[1].to_string()),
            ("sessions", ids[2].to_string()),
            ("title", "Pitch and poker".into()),
        ],
    )
    .await
    .location
    .unwrap();
    // Two payments, each posted having seen the ones before it; the second is voided.
    for (payer, payee, amount) in [("Ann", "Mary Lou", "0.30"), ("Eve; Jr", "Robert", "0.10")] {
        form(
            format!("{night}/payments"),
            vec![
                ("seen", seen_at(&app, &night, &h).await),
                ("payer", payer.into()),
                ("payee", payee.into()),
                ("amount", amount.into()),
            ],
        )
        .await;
    }
    let old_night_id: i64 = night.rsplit('/').next().unwrap().parse().unwrap();
    let night_doc = || async {
        get(
            &app,
            &format!("/api/v1/clubs/{club_id}/nights/{old_night_id}"),
            &token,
        )
        .await
        .json()
    };
    let second = night_doc().await["payments"][1]["id"].as_i64().unwrap();
    form(
        format!("{night}/payments/{second}/void"),
        vec![("reason", "wrong person".into())],
    )
    .await;
    let old_night: Value = night_doc().await;

    let export = get(&app, &format!("/api/v1/clubs/{club_id}/export"), &token)
        .await
        .json();
    assert_eq!(export["sessions"][0]["title"], "Thursday at Sal's");
    assert_eq!(export["sessions"][1]["archived"], true);
    assert_eq!(export["sessions"][2]["archived"], false);
    let robert = export["people"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["display_name"] == "Robert")
        .unwrap();
    // Bob sat under "Bob"; the night payment to Robert points that name at him too.
    assert_eq!(robert["names"], json!(["Bob", "Robert"]));
    let mary = export["people"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["display_name"] == "Mary Lou")
        .unwrap();
    assert_eq!(mary["names"], json!(["Dee", "Mary Lou"]));
    assert_eq!(export["nights"][0]["title"], "Pitch and poker");
    assert_eq!(export["nights"][0]["sessions"], json!([1, 2]));
    assert_eq!(export["nights"][0]["payments"][0]["amount"], "0.30");
    assert_eq!(
        export["nights"][0]["payments"][1]["void_reason"],
        "wrong person"
    );

    let imported = import_friday(&app, &export).await;
    let (new_club, new_token) = (
        imported["club_id"].as_i64().unwrap(),
        imported["token"].as_str().unwrap().to_string(),
    );
    let new_ids: Vec<i64> = imported["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    for (old, new) in ids.iter().zip(&new_ids) {
        assert_eq!(
            ledger(&app, *new, &new_token).await,
            ledger(&app, *old, &token).await
        );
    }
    let again = get(
        &app,
        &format!("/api/v1/clubs/{new_club}/export"),
        &new_token,
    )
    .await
    .json();
    for field in ["sessions", "players", "people", "nights"] {
        assert_eq!(again[field], export[field], "{field}");
    }
    // The history pages read the same: the leaderboard (one Mary Lou, Robert), the list
    // (archived session hidden, the title shown), the night worked out the same.
    let board = |club: i64, token: String| {
        let app = &app;
        async move {
            let mut b = get(app, &format!("/api/v1/clubs/{club}/leaderboard"), &token)
                .await
                .json();
            for p in b["players"].as_array_mut().unwrap() {
                p.as_object_mut().unwrap().remove("id");
            }
            b
        }
    };
    assert_eq!(
        board(new_club, new_token.clone()).await,
        board(club_id, token.clone()).await
    );
    let list = app
        .get_with(
            &format!("/clubs/{new_club}/history"),
            &[("authorization", &format!("Bearer {new_token}"))],
        )
        .await
        .body;
    assert!(
        list.contains("Thursday at Sal's")
            && !has(&list, &format!("[data-session=\"{}\"]", new_ids[1])),
        "{list}"
    );
    let new_night_id = again["nights"].as_array().unwrap().len() as i64;
    assert_eq!(new_night_id, 1);
    let mut new_night = Value::Null;
    for nid in 1..=3 {
        let r = get(
            &app,
            &format!("/api/v1/clubs/{new_club}/nights/{nid}"),
            &new_token,
        )
        .await;
        if r.status == StatusCode::OK {
            new_night = r.json();
        }
    }
    for field in ["net", "transfers"] {
        let strip = |v: &Value| {
            let mut v = v[field].clone();
            for t in v.as_array_mut().unwrap() {
                if let Some(behind) = t.get_mut("behind") {
                    for b in behind.as_array_mut().unwrap() {
                        b.as_object_mut().unwrap().remove("session");
                    }
                }
            }
            v
        };
        assert_eq!(strip(&new_night), strip(&old_night), "{field}");
    }
    assert_eq!(
        new_night["payments"][1]["voided_at"],
        old_night["payments"][1]["voided_at"]
    );

    // An older export, without titles, people or nights, still imports.
    let mut older = export.clone();
    for key in ["people", "nights"] {
        older.as_object_mut().unwrap().remove(key);
    }
    for s in older["sessions"].as_array_mut().unwrap() {
        let s = s.as_object_mut().unwrap();
        s.remove("title");
        s.remove("archived");
    }
    let reply = import_as(&app, Some("Saturday"), &older).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
}

/// All or nothing: a session that fails while it is written (here a trigger the test adds
/// refuses the seat of a player called Zed, in the middle session) leaves no club, no
/// session, no person and no night behind.
#[tokio::test]
async fn a_club_import_that_fails_midway_writes_nothing() {
    let app = TestApp::new().await;
    let mut export = thursday_export(&app).await;
    // Mary Lou is Zed in the middle session (Pitch); the rules are content with that.
    let pitch = export["sessions"][1]["session"]
        .to_string()
        .replace("Mary Lou", "Zed");
    export["sessions"][1]["session"] = serde_json::from_str(&pitch).unwrap();
    export["nights"] = json!([{ "title": "All three", "created_at": "2026-11-20T19:00:00Z",
        "sessions": [0, 1, 2], "payments": [] }]);
    let count = |sql: &'static str| {
        let app = &app;
        async move { app.scalar(sql).await }
    };
    let tables = [
        "SELECT COUNT(*) FROM clubs",
        "SELECT COUNT(*) FROM sessions",
        "SELECT COUNT(*) FROM events",
        "SELECT COUNT(*) FROM people",
        "SELECT COUNT(*) FROM nights",
        "SELECT COUNT(*) FROM access_tokens",
        "SELECT COUNT(*) FROM session_results",
    ];
    let mut before = Vec::new();
    for sql in tables {
        before.push(count(sql).await);
    }
    let trigger: &[&str] = if engines::on_postgres() {
        &[
            "CREATE FUNCTION no_zed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
             IF NEW.player = 'Zed' THEN RAISE EXCEPTION 'no seat for Zed'; END IF; \
             RETURN NEW; END $$",
            "CREATE TRIGGER no_zed BEFORE INSERT ON seats FOR EACH ROW EXECUTE FUNCTION no_zed()",
        ]
    } else {
        &[
            "CREATE TRIGGER no_zed BEFORE INSERT ON seats WHEN NEW.player = 'Zed' \
           BEGIN SELECT RAISE(ABORT, 'no seat for Zed'); END",
        ]
    };
    for sql in trigger {
        app.exec(sql).await.unwrap();
    }
    let reply = import_as(&app, Some("Friday"), &export).await;
    assert_eq!(
        reply.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{}",
        reply.body
    );
    let mut after = Vec::new();
    for sql in tables {
        after.push(count(sql).await);
    }
    assert_eq!(after, before);
    // Without the trigger the same export imports whole.
    let drop = match engines::on_postgres() {
        true => "DROP TRIGGER no_zed ON seats",
        false => "DROP TRIGGER no_zed",
    };
    app.exec(drop).await.unwrap();
    let reply = import_as(&app, Some("Friday"), &export).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    assert_eq!(count("SELECT COUNT(*) FROM sessions").await, before[1] + 3);
}

/// A club document may write its times with any RFC 3339 offset and with fractions of a
/// second (docs/session-format.md, "Times"): each is kept in UTC to the second, so the
/// stored text, the new club's export and API and the history's day filter read one instant
/// alike.
#[tokio::test]
async fn an_imported_club_keeps_its_times_in_utc_to_the_second() {
    let app = TestApp::new().await;
    let mut export = thursday_export(&app).await;
    // The pinochle session began at 00:30:00.750 on 21 November in Paris, 23:30 UTC on the
    // 20th; one of its events is written in New York's time.
    export["sessions"][0]["created_at"] = json!("2026-11-21T00:30:00.750+01:00");
    export["sessions"][0]["recorded_at"] = json!([
        "2026-11-21T00:45:10+01:00",
        "2026-11-20T18:50:00.5-05:00",
        "2026-11-20T23:59:59Z"
    ]);
    export["nights"] = json!([{ "title": "Late", "created_at": "2026-11-21T01:00:00+01:00",
        "sessions": [0], "payments": [{ "payer": "Ann", "payee": "Bob", "amount": "0.10",
        "recorded_at": "2026-11-21T01:05:00.999+01:00", "voided_at": "2026-11-21T01:06:00+01:00",
        "void_reason": "twice" }] }]);
    let imported = import_friday(&app, &export).await;
    let (club, token) = (
        imported["club_id"].as_i64().unwrap(),
        imported["token"].as_str().unwrap().to_string(),
    );
    let first = imported["sessions"][0].as_i64().unwrap();
    let stored = app
        .text(&format!(
            "SELECT created_at FROM sessions WHERE id = {first}"
        ))
        .await;
    assert_eq!(stored, "2026-11-20T23:30:00Z");
    let again = get(&app, &format!("/api/v1/clubs/{club}/export"), &token)
        .await
        .json();
    assert_eq!(again["sessions"][0]["created_at"], "2026-11-20T23:30:00Z");
    assert_eq!(
        again["sessions"][0]["recorded_at"],
        json!([
            "2026-11-20T23:45:10Z",
            "2026-11-20T23:50:00Z",
            "2026-11-20T23:59:59Z"
        ])
    );
    let night = &again["nights"][0];
    assert_eq!(night["created_at"], "2026-11-21T00:00:00Z");
    assert_eq!(night["payments"][0]["recorded_at"], "2026-11-21T00:05:00Z");
    assert_eq!(night["payments"][0]["voided_at"], "2026-11-21T00:06:00Z");
    let session = get(&app, &format!("/api/v1/sessions/{first}"), &token).await;
    assert_eq!(session.json()["created_at"], "2026-11-20T23:30:00Z");
    // The 20th, in UTC, holds the session Paris began on the 21st; the 21st does not.
    let day = |d: &'static str| {
        let (app, token) = (&app, token.clone());
        async move {
            let uri = format!("/api/v1/clubs/{club}/history?from={d}&to={d}");
            let page = get(app, &uri, &token).await.json();
            let ids: Vec<i64> = page["sessions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["id"].as_i64().unwrap())
                .collect();
            ids
        }
    };
    assert_eq!(day("2026-11-20").await, [first]);
    assert!(!day("2026-11-21").await.contains(&first));
}

/// Every text field of a club document is held to the rule its form or the API holds it
/// to: a NUL (alone or inside), a right-to-left override, and in a name a look-alike of Ann
/// (Cyrillic "А") are each refused 422 naming the field from the document's root, and
/// nothing is written; a text of a megabyte likewise, quoted back only in part. The same
/// document with its text intact imports.
#[tokio::test]
async fn a_club_import_holds_every_text_field_to_the_rules_of_its_form() {
    let app = TestApp::new().await;
    let mut export = thursday_export(&app).await;
    export["sessions"][0]["title"] = json!("Thursday at Sal's");
    export["nights"] = json!([{ "title": "Thursday", "created_at": "2026-11-20T19:00:00Z",
        "sessions": [0], "payments": [{ "payer": "Ann", "payee": "Bob", "amount": "1.00",
            "recorded_at": "2026-11-20T23:00:00Z", "voided_at": "2026-11-20T23:05:00Z",
            "void_reason": "the wrong pair" }] }]);
    let position = |list: &Value, name: &str| {
        let list = list.as_array().unwrap();
        let at = list
            .iter()
            .position(|v| v == name || v["display_name"] == name);
        at.unwrap_or_else(|| panic!("{name} in {list:?}"))
    };
    // Names after Ann's first place in the document: a look-alike of her there is refused.
    let roster = position(&export["players"], "Bob");
    assert!(roster > position(&export["players"], "Ann"));
    let seat = position(&export["sessions"][0]["session"]["players"], "Bob");
    let person = position(&export["people"], "Bob");
    let names = [
        format!("players[{roster}]"),
        format!("sessions[0].session.players[{seat}]"),
        format!("people[{person}].display_name"),
        format!("people[{person}].names[0]"),
        "nights[0].payments[0].payer".to_string(),
        "nights[0].payments[0].payee".to_string(),
    ];
    let texts = [
        "name",
        "sessions[0].title",
        "nights[0].title",
        "nights[0].payments[0].void_reason",
    ];
    let tables = [
        "SELECT COUNT(*) FROM clubs",
        "SELECT COUNT(*) FROM sessions",
        "SELECT COUNT(*) FROM people",
        "SELECT COUNT(*) FROM nights",
    ];
    let mut before = Vec::new();
    for sql in tables {
        before.push(app.scalar(sql).await);
    }
    let long = "x".repeat(1_000_000);
    let fields = names.iter().map(String::as_str).chain(texts);
    for field in fields {
        let mut bad = vec!["\u{0}", "a\u{0}b", "\u{202E}evil", long.as_str()];
        if names.iter().any(|n| n == field) {
            bad.push("\u{410}nn");
        }
        for text in bad {
            let mut doc = export.clone();
            *doc.pointer_mut(&pointer(field)).unwrap() = json!(text);
            let reply = import_as(&app, Some("Friday"), &doc).await;
            assert_eq!(
                reply.status.as_u16(),
                422,
                "{field} {text:?}: {}",
                reply.body
            );
            let refusal = reply.json()["error"].clone();
            assert_eq!(refusal["field"], field, "{text:?}: {refusal}");
            let message = refusal["message"].as_str().unwrap();
            assert!(message.len() < 400, "{field}: {} bytes", message.len());
        }
    }
    for (sql, was) in tables.iter().zip(&before) {
        assert_eq!(app.scalar(sql).await, *was, "{sql}");
    }
    let made = import_friday(&app, &export).await;
    let title: Value = get(
        &app,
        &format!("/api/v1/clubs/{}/export", made["club_id"]),
        made["token"].as_str().unwrap(),
    )
    .await
    .json();
    assert_eq!(title["sessions"][0]["title"], "Thursday at Sal's");
    assert_eq!(
        title["nights"][0]["payments"][0]["void_reason"],
        "the wrong pair"
    );
}

/// The JSON pointer of a refusal's field: `sessions[0].title` is `/sessions/0/title`.
fn pointer(field: &str) -> String {
    let parts = field.replace('[', ".").replace(']', "");
    parts.split('.').map(|p| format!("/{p}")).collect()
}

#[tokio::test]
async fn every_download_of_a_session_is_saved_as_a_file() {
    use tower::ServiceExt;
    let app = TestApp::new().await;
    let (_, token, ids) = club(&app, "Thursday").await;
    let id = ids[0];
    // The sheet's three download links: a phone saves each, it does not open it as text.
    for path in ["postings.csv", "journal", "export"] {
        let request = Request::get(format!("/api/v1/sessions/{id}/{path}"))
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap();
        let response = app.router.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let saved = response
            .headers()
            .get(header::CONTENT_DISPOSITION)
            .map(|v| v.to_str().unwrap().to_string());
        assert!(
            saved
                .as_deref()
                .is_some_and(|d| d.starts_with("attachment; filename=\"")),
            "{path}: {saved:?}"
        );
    }
}

/// `request` sent straight to the router: the status, `Retry-After` and body text.
async fn answer(app: &TestApp, request: Request<Body>) -> (StatusCode, Option<String>, String) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let response = app.router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let retry = response
        .headers()
        .get(header::RETRY_AFTER)
        .map(|v| v.to_str().unwrap().to_string());
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, retry, String::from_utf8(body.to_vec()).unwrap())
}

#[tokio::test]
async fn while_one_club_import_is_read_the_others_are_turned_away_unread() {
    use tower::ServiceExt;
    let app = TestApp::new().await;
    let export = thursday_export(&app).await;
    let import_body = |name: &str| {
        json!({ "name": name, "passphrase": "deal the cards", "club": export }).to_string()
    };
    let api_import = |body: Body| {
        Request::post("/api/v1/clubs/import")
            .header(header::CONTENT_TYPE, "application/json")
            .body(body)
            .unwrap()
    };

    // The first import's body comes in two parts. The channel holds one part, so the second
    // is taken only once the first was read: the import is under way.
    let first = import_body("Friday").into_bytes();
    let (half, rest) = first.split_at(first.len() / 2);
    let (sender, receiver) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(1);
    let stream = tokio_stream::wrappers::ReceiverStream::new(receiver);
    let reading = tokio::spawn(
        app.router
            .clone()
            .oneshot(api_import(Body::from_stream(stream))),
    );
    sender.send(Ok(half.to_vec())).await.unwrap();
    sender.send(Ok(rest.to_vec())).await.unwrap();

    // Meanwhile every other import, through the API or the restore page, is refused at once.
    for name in ["Saturday", "Sunday", "Monday"] {
        let (status, retry, body) = answer(&app, api_import(Body::from(import_body(name)))).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(retry.as_deref(), Some("10"));
        let code = serde_json::from_str::<Value>(&body).unwrap()["error"]["code"].clone();
        assert_eq!(code, "import_busy");
    }
    let backup = export.to_string();
    let (content_type, form) = multipart(&[
        ("backup", Some("club.json"), backup.as_bytes()),
        ("name", None, b"Tuesday"),
        ("passphrase", None, b"deal the cards"),
    ]);
    let page = Request::post("/clubs/import")
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(form))
        .unwrap();
    let (status, retry, _) = answer(&app, page).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(retry.as_deref(), Some("10"));

    // The import under way finishes; then the next one is taken.
    drop(sender);
    let done = reading.await.unwrap().unwrap();
    assert_eq!(done.status(), StatusCode::CREATED);
    let next = import_as(&app, Some("Saturday"), &export).await;
    assert_eq!(next.status, StatusCode::CREATED, "{}", next.body);
    let names = app.scalar("SELECT COUNT(*) FROM clubs").await;
    assert_eq!(
        names, 3,
        "Thursday, Friday and Saturday; none of the refused"
    );
}
