//! Every worked case (`crates/core/tests/fixtures/golden/`) through HTTP import → ledger,
//! and the export of each replaying to the stored ledger; and every registered game has its
//! hand form. The cases through `replay` alone are the core's own tests.

use crate::common;

use common::TestApp;
use common::pages::{export_of, ledger_of};
use scorekeeper::format::replay;
use scorekeeper::registry;

/// From the service crate's folder to the repository's root.
const FROM_MANIFEST: &str = ".";

#[path = "../../crates/core/tests/cases/fixtures.rs"]
#[allow(dead_code)] // the core's own tests use the rest
mod fixtures;

use fixtures::{cases, compare, rejected_at};

#[tokio::test]
async fn golden_cases_through_http_import_and_ledger() {
    let cases = cases(registry::GAMES.iter().map(|r| r.game.id));
    let app = TestApp::new().await;
    let mut failures = Vec::new();
    for case in &cases {
        let reply = app
            .post_json("/api/v1/sessions/import", &case.session)
            .await;
        match rejected_at(&case.expect) {
            Some(index) => {
                let message = reply.json()["error"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                if reply.status.as_u16() != 422 || !message.starts_with(&format!("event {index}:"))
                {
                    failures.push(format!(
                        "{}: expected 422 at event {index}, got {} {message}",
                        case.id, reply.status
                    ));
                }
            }
            None => {
                if reply.status.as_u16() != 201 {
                    failures.push(format!(
                        "{}: import answered {}: {}",
                        case.id, reply.status, reply.body
                    ));
                    continue;
                }
                let id = reply.json()["id"].as_i64().unwrap();
                let ledger = ledger_of(&app, &id).await;
                let diffs = compare(&case.expect, &ledger);
                if !diffs.is_empty() {
                    failures.push(format!("{}: {}", case.id, diffs.join("; ")));
                }
                // Each download written as it is read is what its builder writes.
                failures.extend(crate::exports::streamed::downloads_differ(&app, id, None).await);
                // The export replays to the very ledger the store serves.
                let export = export_of(&app, &id).await;
                let replayed = replay(&serde_json::from_value(export).unwrap()).unwrap();
                if serde_json::to_value(&replayed).unwrap() != ledger {
                    failures.push(format!(
                        "{}: the stored ledger differs from replay of the export",
                        case.id
                    ));
                }
            }
        }
    }
    println!(
        "{} golden cases imported over HTTP, {} failed",
        cases.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "golden cases failed over HTTP:\n{}",
        failures.join("\n")
    );
}

/// A game is one rules module, one hand-form template and its registration: every
/// registered game has its template on disk (its worked cases are the core's test).
#[test]
fn every_registered_game_has_a_hand_form() {
    let templates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    for registration in registry::GAMES {
        let id = registration.game.id;
        assert_eq!(
            registration.template,
            format!("games/{id}/hand_form.html"),
            "{id}: the hand form lives in templates/games/{id}/"
        );
        assert!(
            templates.join(registration.template).is_file(),
            "{id}: no template {}",
            registration.template
        );
    }
}
