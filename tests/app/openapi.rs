//! The OpenAPI document served at `/api/v1/openapi.json`: an OpenAPI 3.1 document whose
//! every `$ref` resolves, that describes every route the API serves, every error shape and
//! money as a string.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::pages::ledger_of;
use std::collections::BTreeSet;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use common::TestApp;
use serde_json::Value;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// Every `$ref` in `value`, with the JSON pointer it names.
fn refs(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => found.push(r.clone()),
                    _ => refs(v, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, found)),
        _ => {}
    }
}

async fn served_document(app: &TestApp) -> Value {
    let reply = app.get("/api/v1/openapi.json").await;
    assert_eq!(reply.status, StatusCode::OK);
    reply.json()
}

#[tokio::test]
async fn the_document_is_openapi_3_1_and_every_ref_resolves() {
    let app = TestApp::new().await;
    let doc = served_document(&app).await;
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3.1."),
        "{}",
        doc["openapi"]
    );
    assert_eq!(doc["info"]["title"], "Scorekeeper API");
    assert!(doc["info"]["version"].is_string());
    assert_eq!(doc["servers"][0]["url"], "/api/v1");
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 15, "{} paths", paths.len());
    let mut found = Vec::new();
    refs(&doc, &mut found);
    assert!(!found.is_empty());
    for r in &found {
        let pointer = r
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("{r} is not local"));
        assert!(doc.pointer(pointer).is_some(), "{r} does not resolve");
    }
    // Every operation answers something, and every answer has a description.
    for (path, item) in paths {
        for method in METHODS {
            if let Some(op) = item.get(method) {
                let responses = op["responses"].as_object().unwrap();
                assert!(!responses.is_empty(), "{method} {path} has no responses");
                for (status, r) in responses {
                    assert!(r["description"].is_string(), "{method} {path} {status}");
                }
            }
        }
    }
}

#[tokio::test]
async fn money_is_a_string_and_every_refusal_has_the_error_shape() {
    let app = TestApp::new().await;
    let doc = served_document(&app).await;
    let money = &doc["components"]["schemas"]["Money"];
    assert_eq!(money["type"], "string");
    assert_eq!(money["pattern"], r"^-?[0-9]+(\.[0-9]{1,2})?$");
    let ledger = &doc["components"]["schemas"]["LedgerDocument"]["properties"];
    assert_eq!(ledger["kitty"]["$ref"], "#/components/schemas/Money");
    assert_eq!(
        ledger["balances"]["additionalProperties"]["$ref"],
        "#/components/schemas/Money"
    );
    let error = &doc["components"]["schemas"]["ErrorDetail"];
    let required: BTreeSet<&str> = error["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(required, BTreeSet::from(["code", "message"]));
    let codes: BTreeSet<&str> = doc["components"]["schemas"]["ErrorCode"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for code in [
        "not_found",
        "refused",
        "bad_request",
        "conflict",
        "unauthorized",
        "forbidden",
        "too_many_requests",
        "internal",
    ] {
        assert!(codes.contains(code), "{code} missing from ErrorCode");
    }
    // Every 4xx answer of every operation is the error shape.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in METHODS {
            let Some(op) = item.get(method) else { continue };
            for (status, r) in op["responses"].as_object().unwrap() {
                if status.starts_with('4') || status.starts_with('5') {
                    assert_eq!(
                        r["content"]["application/json"]["schema"]["$ref"],
                        "#/components/schemas/ApiError",
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }
}

/// Every route the router serves is in the document: routes are registered only through
/// `.routes(routes!(handler))` from the handler's own annotation (a plain `.route(` in the
/// API's files would bypass the document, so it is refused here), and every documented
/// operation is served (the router answers it with something other than its bare 404/405).
#[tokio::test]
async fn every_route_is_described_and_every_description_is_served() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let mut sources = vec![dir.join("api.rs")];
    for entry in std::fs::read_dir(dir.join("api")).unwrap() {
        sources.push(entry.unwrap().path());
    }
    for file in &sources {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            assert!(
                !line.contains(".route(")
                    && !line.contains(".route_service(")
                    && !line.contains(".nest("),
                "{}:{}: register API routes with `.routes(routes!(handler))` so they are described: {line}",
                file.display(),
                n + 1
            );
        }
    }
    let app = TestApp::new().await;
    let doc = served_document(&app).await;
    let mut operations = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in METHODS {
            if item.get(method).is_none() {
                continue;
            }
            operations += 1;
            let uri = format!("/api/v1{}", path.replace("{id}", "999"));
            let request = Request::builder()
                .method(Method::from_bytes(method.to_uppercase().as_bytes()).unwrap())
                .uri(&uri)
                .header("content-type", "application/json")
                .body(Body::from("{}"))
                .unwrap();
            let reply = app.send(request).await;
            assert_ne!(
                reply.status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {uri}"
            );
            // The router's own 404 has an empty body; ours names what is missing.
            assert!(
                reply.status != StatusCode::NOT_FOUND
                    || serde_json::from_str::<serde_json::Value>(&reply.body)
                        .is_ok_and(|v| v["error"].is_object()),
                "{method} {uri} is documented but not served"
            );
        }
    }
    assert!(operations >= 16, "{operations} operations");
}

/// The property names of schema `name`, and those it requires.
fn properties(doc: &Value, name: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let schema = &doc["components"]["schemas"][name];
    let names = schema["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("{name}"))
        .keys()
        .cloned()
        .collect();
    let required = schema["required"]
        .as_array()
        .map(|r| r.iter().map(|v| v.as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    (names, required)
}

/// `value`'s keys are exactly what schema `name` describes: none undescribed, none required
/// missing.
fn described(doc: &Value, name: &str, value: &Value) {
    let (names, required) = properties(doc, name);
    let keys: BTreeSet<String> = value
        .as_object()
        .unwrap_or_else(|| panic!("{name}: {value}"))
        .keys()
        .cloned()
        .collect();
    assert!(
        keys.is_subset(&names),
        "{name}: undescribed {:?}",
        keys.difference(&names).collect::<Vec<_>>()
    );
    assert!(
        required.is_subset(&keys),
        "{name}: missing {:?}",
        required.difference(&keys).collect::<Vec<_>>()
    );
}

/// The hand-written body shapes match what the service really answers, so the description
/// cannot drift from the session and ledger documents.
#[tokio::test]
async fn the_described_shapes_are_the_real_answers() {
    let app = TestApp::new().await;
    let doc = served_document(&app).await;
    let created = app
        .post_json(
            "/api/v1/sessions",
            &serde_json::json!({ "game": "auction_pinochle", "players": ["Ann", "Bob", "Cy"],
                "agreements": { "stake": "0.05", "kitty": "pot" } }),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    let view = created.json();
    described(&doc, "SessionView", &view);
    described(&doc, "SessionDocument", &view["session"]);
    let id = view["id"].as_i64().unwrap();
    let recorded = app
        .post_json(
            &format!("/api/v1/sessions/{id}/events"),
            &serde_json::json!({ "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 350, "trump": "hearts", "outcome": "made" }),
        )
        .await;
    assert_eq!(recorded.status, StatusCode::CREATED, "{}", recorded.body);
    described(&doc, "Recorded", &recorded.json());
    described(&doc, "LedgerEntry", &recorded.json()["event"]);
    described(
        &doc,
        "Standing",
        &app.get(&format!("/api/v1/sessions/{id}/standing"))
            .await
            .json(),
    );
    let ledger = ledger_of(&app, &id).await;
    described(&doc, "LedgerDocument", &ledger);
    for entry in ledger["events"].as_array().unwrap() {
        described(&doc, "LedgerEntry", entry);
        for posting in entry["postings"].as_array().unwrap() {
            described(&doc, "PostingEntry", posting);
        }
    }
    for transfer in ledger["settlement"].as_array().unwrap() {
        described(&doc, "TransferEntry", transfer);
    }
    assert!(!ledger["settlement"].as_array().unwrap().is_empty());
    // Sessions without a club are listed to no one: the list needs a club's session.
    let club = app
        .post_json(
            "/api/v1/clubs",
            &serde_json::json!({ "name": "Listed", "passphrase": "seven of clubs" }),
        )
        .await
        .json();
    let bearer = format!("Bearer {}", club["token"].as_str().unwrap());
    let owned = app
        .send(
            axum::http::Request::post("/api/v1/sessions")
                .header("content-type", "application/json")
                .header("authorization", &bearer)
                .body(axum::body::Body::from(
                    serde_json::json!({ "game": "auction_pinochle", "players": ["Ann", "Bob", "Cy"],
                        "agreements": { "stake": "0.05" } })
                    .to_string(),
                ))
                .unwrap(),
        )
        .await;
    assert_eq!(owned.status, StatusCode::CREATED, "{}", owned.body);
    let list = app
        .get_with("/api/v1/sessions", &[("authorization", &bearer)])
        .await
        .json();
    described(&doc, "SessionList", &list);
    described(&doc, "SessionSummary", &list["sessions"][0]);
    let refused = app.get("/api/v1/sessions/999").await.json();
    described(&doc, "ApiError", &refused);
    described(&doc, "ErrorDetail", &refused["error"]);
}

/// A player's sessions and the night page are two shapes, so two schemas:
/// a player's `best_session` is described with the player's session (session, played_at,
/// net), not the night page's (title, transfers), and the night page keeps its own; issue
/// 22 point 6: a session is called a session, a night an evening.
#[tokio::test]
async fn a_players_session_and_the_night_page_are_two_schemas() {
    let app = TestApp::new().await;
    let doc = served_document(&app).await;
    let schemas = &doc["components"]["schemas"];
    let mut found = Vec::new();
    refs(
        &schemas["PlayerJson"]["properties"]["best_session"],
        &mut found,
    );
    let name = found
        .iter()
        .find_map(|r| r.strip_prefix("#/components/schemas/"))
        .expect("best_session refers to a schema")
        .to_string();
    assert_eq!(name, "PlayerSessionJson");
    for gone in ["best_night", "recent_nights"] {
        assert!(
            schemas["PlayerJson"]["properties"].get(gone).is_none(),
            "{gone}"
        );
    }
    let (player_night, _) = properties(&doc, &name);
    assert!(
        player_night.contains("played_at") && player_night.contains("session"),
        "{name}: {player_night:?}"
    );
    let (night_page, _) = properties(&doc, "NightJson");
    assert!(
        night_page.contains("transfers") && night_page.contains("title"),
        "{night_page:?}"
    );
}

/// Follows `schema` through one `$ref` to a component, if it is one.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => &doc["components"]["schemas"][r.trim_start_matches("#/components/schemas/")],
        None => schema,
    }
}

/// The request schemas are tight enough that a request generated from
/// the document can be valid: the games and event types are enums of what the service
/// keeps, names and passphrases have their lengths, currencies and money their patterns.
#[tokio::test]
async fn request_schemas_name_the_games_event_types_lengths_and_patterns() {
    let app = TestApp::new().await;
    let doc = served_document(&app).await;
    let schemas = &doc["components"]["schemas"];
    let create = &schemas["CreateSessionBody"]["properties"];
    let games: BTreeSet<&str> = resolve(&doc, &create["game"])["enum"]
        .as_array()
        .expect("game is an enum")
        .iter()
        .map(|g| g.as_str().unwrap())
        .collect();
    let kept: BTreeSet<&str> = scorekeeper::registry::GAMES
        .iter()
        .map(|r| r.game.id)
        .collect();
    assert_eq!(games, kept);
    assert!(games.contains("auction_pinochle") && games.contains("poker"));
    assert_eq!(create["players"]["minItems"], 2);
    let player = resolve(&doc, &create["players"]["items"]);
    assert_eq!(player["minLength"], 1);
    assert_eq!(player["maxLength"], 40);
    let currency = &create["currency"];
    let currency = currency["oneOf"]
        .as_array()
        .and_then(|o| o.iter().find(|s| s.get("$ref").is_some()))
        .unwrap_or(currency);
    assert_eq!(resolve(&doc, currency)["pattern"], "^[A-Z]{3}$");

    let event = &schemas["Event"];
    assert_eq!(event["required"], serde_json::json!(["type"]));
    let types: BTreeSet<&str> = event["properties"]["type"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    for kind in [
        "hand",
        "payment",
        "close",
        "void",
        "correction",
        "player_joins",
    ] {
        assert!(types.contains(kind), "{kind}");
    }
    // Every kind a registered game plays is listed, so a generated event can be any of them.
    for (game, players, agreements) in common::hands::games() {
        let doc = common::hands::session(game, players, &agreements, 0);
        let doc: scorekeeper::format::SessionDoc = serde_json::from_value(doc).unwrap();
        let fold = scorekeeper::format::start(&doc).unwrap();
        for kind in fold.engine().kinds() {
            assert!(
                types.contains(kind),
                "{game}'s {kind} is not in the document"
            );
        }
    }
    let record = &doc["paths"]["/sessions/{id}/events"]["post"]["requestBody"]["content"]["application/json"]
        ["schema"];
    assert_eq!(record["$ref"], "#/components/schemas/Event");
    let document = &schemas["SessionDocument"]["properties"];
    assert_eq!(
        resolve(&doc, &document["format"])["enum"],
        serde_json::json!(["scorekeeper/session@1"])
    );
    assert_eq!(
        document["events"]["items"]["$ref"],
        "#/components/schemas/Event"
    );

    let credentials = &schemas["CredentialsBody"]["properties"];
    assert_eq!(credentials["name"]["minLength"], 1);
    assert_eq!(credentials["name"]["maxLength"], 60);
    assert_eq!(credentials["passphrase"]["minLength"], 8);
    assert_eq!(
        schemas["GroupBody"]["properties"]["sessions"]["minItems"],
        1
    );
    // Every operation with a path id says the 400 a bad id gets.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let path_id = operation["parameters"]
                .as_array()
                .is_some_and(|ps| ps.iter().any(|p| p["in"] == "path"));
            if path_id {
                assert!(
                    operation["responses"].get("400").is_some(),
                    "{method} {path}"
                );
            }
        }
    }
    assert_eq!(schemas["Money"]["pattern"], r"^-?[0-9]+(\.[0-9]{1,2})?$");
}

/// The meld calculator: what it answers is what the document describes, an
/// impossible meld is the API's refusal naming `melds`, and a hand's `meld_detail` is kept
/// when it adds up to the meld typed and refused naming it when not.
#[tokio::test]
async fn the_meld_calculator_and_meld_detail_answer_as_described() {
    let app = TestApp::new().await;
    let doc = served_document(&app).await;
    // Scarne's 721-point hand (S000): 300 in trump, 100 aces, 80 pinochle = 480 meld.
    let taps = serde_json::json!({"game": "auction_pinochle", "trump": "diamonds",
        "melds": {"flush": 2, "aces_100": 1, "double_pinochle": 1}});
    let reply = app.post_json("/api/v1/meld", &taps).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let answer = reply.json();
    described(&doc, "MeldCount", &answer);
    described(&doc, "MeldLine", &answer["lines"][0]);
    assert_eq!(answer["total"], 480);
    assert_eq!(
        answer["words"],
        "2 × run 300 + 100 aces 100 + double pinochle 80 = 480"
    );
    let cards = serde_json::json!({"game": "auction_pinochle", "trump": "diamonds",
        "cards": "AD AD TD TD KD KD QD QD JD JD AC AS AH QS QS"});
    assert_eq!(
        app.post_json("/api/v1/meld", &cards).await.json()["total"],
        480
    );
    let three = serde_json::json!({"game": "two_handed_pinochle",
        "melds": {"pinochle": 1, "double_pinochle": 1}});
    let refused = app.post_json("/api/v1/meld", &three).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.json()["error"]["field"], "melds");
    let short = serde_json::json!({"game": "auction_pinochle", "trump": "spades",
        "melds": {"flush": 2}, "cards": "AS AS TS TS KS KS QS JS JS"});
    let refused = app.post_json("/api/v1/meld", &short).await.json();
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("2 × Q♠ (trump); the cards show 1"),
        "{refused}"
    );

    let created = app
        .post_json(
            "/api/v1/sessions",
            &serde_json::json!({ "game": "auction_pinochle",
            "players": ["Ann", "Bob", "Cy"], "agreements": { "stake": "0.05" } }),
        )
        .await
        .json();
    let id = created["id"].as_i64().unwrap();
    let token = created["write_token"].as_str().unwrap().to_string();
    let auth = format!("Bearer {token}");
    let hand = |meld: i64| {
        serde_json::json!({"type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 350,
            "trump": "hearts", "meld": meld, "counters": 100,
            "meld_detail": {"Ann": ["flush", "aces_100", "pinochle"]}})
    };
    let uri = format!("/api/v1/sessions/{id}/events");
    let wrong = app
        .post_json_with(&uri, &hand(300), &[("authorization", &auth)])
        .await;
    assert_eq!(
        wrong.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        wrong.body
    );
    assert!(
        wrong.json()["error"]["field"]
            .as_str()
            .unwrap()
            .contains("meld_detail")
    );
    assert!(
        wrong
            .body
            .contains("add up to 290, not the 300 typed as meld"),
        "{}",
        wrong.body
    );
    let right = app
        .post_json_with(&uri, &hand(290), &[("authorization", &auth)])
        .await;
    assert_eq!(right.status, StatusCode::CREATED, "{}", right.body);
    assert!(
        right
            .body
            .contains("Meld named: Ann run 150 + 100 aces 100 + pinochle 40 = 290."),
        "{}",
        right.body
    );
    let kept = app
        .get_with(
            &format!("/api/v1/sessions/{id}/export"),
            &[("authorization", &auth)],
        )
        .await
        .json();
    assert_eq!(
        kept["events"][0]["meld_detail"],
        serde_json::json!({"Ann": ["flush", "aces_100", "pinochle"]})
    );
}
