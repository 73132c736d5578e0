//! Every golden case in `tests/fixtures/golden/<game>/` for each registered game, through
//! `replay` and through HTTP import → ledger: a fresh clone runs them all. Where the shared
//! originals are beside the project (`../shared/golden`, always under CI) the fixtures are
//! also checked to be the very same cases, word for word but for the note.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::pages::{export_of, ledger_of};
use std::collections::BTreeMap;

use common::{TestApp, golden_fixtures as fixtures, shared_golden};
use scorekeeper::format::{SessionDoc, replay};
use scorekeeper::money::Money;
use scorekeeper::registry;
use serde_json::Value;

struct Case {
    id: String,
    session: Value,
    expect: Value,
}

/// The case files of one game's folder, sorted by name (empty when there is no folder).
fn case_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn cases() -> Vec<Case> {
    let root = fixtures();
    let mut cases = Vec::new();
    for registration in registry::GAMES {
        for path in case_files(&root.join(registration.game.id)) {
            let case: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            cases.push(Case {
                id: case["id"].as_str().unwrap_or("?").to_string(),
                session: case["session"].clone(),
                expect: case["expect"].clone(),
            });
        }
    }
    cases
}

fn money(v: &Value) -> Option<Money> {
    match v {
        Value::String(s) => Money::parse(s).ok(),
        Value::Number(n) => Money::parse(&n.to_string()).ok(),
        _ => None,
    }
}

fn number(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

/// Compares the parts of a ledger that the case pins down; returns the differences.
fn compare(expect: &Value, ledger: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    type Normalise = fn(&Value) -> Option<String>;
    let maps: [(&str, Normalise); 3] = [
        ("balances", |v| money(v).map(|m| m.to_string())),
        ("scores", |v| number(v).map(|n| n.to_string())),
        ("checks", |v| number(v).map(|n| n.to_string())),
    ];
    for (key, norm) in maps {
        let Some(exp) = expect.get(key).and_then(Value::as_object) else {
            continue;
        };
        let empty = serde_json::Map::new();
        let act = ledger.get(key).and_then(Value::as_object).unwrap_or(&empty);
        let zero = |v: Option<&Value>| {
            v.and_then(norm)
                .unwrap_or_else(|| norm(&Value::from(0)).unwrap())
        };
        let names: BTreeMap<&String, ()> = exp.keys().chain(act.keys()).map(|k| (k, ())).collect();
        for name in names.keys() {
            let (e, a) = (zero(exp.get(*name)), zero(act.get(*name)));
            if e != a {
                diffs.push(format!("{key}.{name}: expected {e}, got {a}"));
            }
        }
    }
    if let Some(exp) = expect.get("games").and_then(Value::as_array) {
        let act = ledger
            .get("games")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let ew: Vec<&Value> = exp.iter().map(|g| &g["winner"]).collect();
        let aw: Vec<&Value> = act.iter().map(|g| &g["winner"]).collect();
        if ew != aw {
            diffs.push(format!("games: expected winners {ew:?}, got {aw:?}"));
        }
    }
    diffs
}

fn rejected_at(expect: &Value) -> Option<u64> {
    (expect.get("rejected") == Some(&Value::Bool(true))).then(|| {
        expect
            .get("event_index")
            .and_then(Value::as_u64)
            .unwrap_or(u64::MAX)
    })
}

/// 70 cases on 2026-11-25; the count only grows (a case split in two keeps both halves).
const FEWEST_CASES: usize = 70;

#[test]
fn golden_cases_through_replay() {
    let cases = cases();
    assert!(
        cases.len() >= FEWEST_CASES,
        "only {} golden cases found in {}",
        cases.len(),
        fixtures().display()
    );
    let mut failures = Vec::new();
    for case in &cases {
        let doc: Result<SessionDoc, _> = serde_json::from_value(case.session.clone());
        let result = doc
            .map_err(|e| e.to_string())
            .and_then(|d| replay(&d).map_err(|r| r.to_string()));
        match (rejected_at(&case.expect), result) {
            (Some(index), Err(message)) => {
                if !message.starts_with(&format!("event {index}:")) {
                    failures.push(format!(
                        "{}: refused, but not at event {index}: {message}",
                        case.id
                    ));
                }
            }
            (Some(index), Ok(_)) => {
                failures.push(format!("{}: expected a refusal at event {index}", case.id))
            }
            (None, Err(message)) => failures.push(format!("{}: refused: {message}", case.id)),
            (None, Ok(ledger)) => {
                let diffs = compare(&case.expect, &serde_json::to_value(&ledger).unwrap());
                if !diffs.is_empty() {
                    failures.push(format!("{}: {}", case.id, diffs.join("; ")));
                }
            }
        }
    }
    println!(
        "{} golden cases replayed, {} failed",
        cases.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "golden cases failed:\n{}",
        failures.join("\n")
    );
}

#[tokio::test]
async fn golden_cases_through_http_import_and_ledger() {
    let cases = cases();
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

/// A game is one rules module, one hand-form template and one registration line: every
/// registered game has its template on disk and golden cases in
/// `tests/fixtures/golden/<id>/`.
#[test]
fn every_registered_game_has_golden_cases_and_a_hand_form() {
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
    for registration in registry::GAMES {
        let id = registration.game.id;
        assert!(
            !case_files(&fixtures().join(id)).is_empty(),
            "{id} has no golden cases in tests/fixtures/golden/{id}/"
        );
    }
}

/// The in-repository fixtures are the shared worked cases, unchanged in every number, id,
/// event and expectation: only the `note` is ours (and differs, so none was copied by
/// mistake). Every shared case has its fixture and no fixture is without its original.
/// Needs `../shared/golden`; skipped outside CI when missing, a failure under CI.
#[test]
fn the_fixtures_are_the_shared_cases_but_for_the_note() {
    let Some(shared) = shared_golden() else {
        return;
    };
    let read = |path: &std::path::Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let names = |root: &std::path::Path| -> Vec<String> {
        let mut names = Vec::new();
        for game in std::fs::read_dir(root).unwrap().filter_map(Result::ok) {
            for file in case_files(&game.path()) {
                names.push(file.strip_prefix(root).unwrap().display().to_string());
            }
        }
        names.sort();
        names
    };
    let (ours, theirs) = (names(&fixtures()), names(&shared));
    assert_eq!(
        ours, theirs,
        "the fixtures and the shared cases differ in files"
    );
    for name in &ours {
        let (mut mine, mut original) = (read(&fixtures().join(name)), read(&shared.join(name)));
        let (my_note, their_note) = (mine["note"].take(), original["note"].take());
        assert_eq!(
            mine, original,
            "{name}: differs from the shared case beyond its note"
        );
        assert!(
            my_note.as_str().is_some_and(|n| n.contains("rules §")),
            "{name}: the note names no rule"
        );
        assert_ne!(
            my_note, their_note,
            "{name}: the note is the shared one, not ours"
        );
    }
    println!(
        "{} fixtures match the shared cases but for the note",
        ours.len()
    );
}

/// The steps a player checks by hand agree with the money, for every event of every case
/// that stands: a kitty step's size moves by exactly what the event posts to the kitty, and
/// where an event's money is all payments between accounts (no kitty or shares step), the
/// payments net to exactly its postings, account by account.
#[test]
fn the_steps_explain_every_cent() {
    use scorekeeper::rules::Step;
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in cases() {
        let Ok(doc) = serde_json::from_value::<SessionDoc>(case.session.clone()) else {
            continue;
        };
        let Ok(fold) = scorekeeper::format::replay::fold(&doc) else {
            continue;
        };
        for row in fold.rows() {
            if row.steps.is_empty() || row.amends.is_some() {
                continue;
            }
            checked += 1;
            let posted = |account: &str| -> i64 {
                row.postings
                    .iter()
                    .filter(|p| p.account == account)
                    .map(|p| p.amount.cents())
                    .sum()
            };
            let mut by_steps: BTreeMap<String, i64> = BTreeMap::new();
            let mut only_payments = true;
            for step in &row.steps {
                match step {
                    Step::Kitty { before, after, .. } => {
                        only_payments = false;
                        let moved = after.cents() - before.cents();
                        if moved != posted(scorekeeper::ledger::KITTY) {
                            failures.push(format!(
                                "{}: the kitty step moves {moved}, the postings {}",
                                case.id,
                                posted(scorekeeper::ledger::KITTY)
                            ));
                        }
                    }
                    Step::Shares { .. } => only_payments = false,
                    Step::Pays {
                        from, to, amount, ..
                    } => {
                        *by_steps.entry(from.clone()).or_default() -= amount.cents();
                        *by_steps.entry(to.clone()).or_default() += amount.cents();
                    }
                    _ => {}
                }
            }
            if only_payments {
                for p in &row.postings {
                    let stepped = by_steps.get(&p.account).copied().unwrap_or(0);
                    if stepped != p.amount.cents() {
                        failures.push(format!(
                            "{}: {} is posted {} but the steps say {stepped}: {:?}",
                            case.id,
                            p.account,
                            p.amount.cents(),
                            row.steps
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 20, "only {checked} events had steps to check");
}
