//! Every worked case in `tests/fixtures/golden/<game>/` for each game the rules keep, through
//! `replay`: a fresh clone runs them all. Where the shared originals are beside the
//! repository (`../shared/golden`, always under CI) the fixtures are also checked to be the
//! very same cases, word for word but for the note.

use std::collections::BTreeMap;
use std::path::Path;

use scorekeeper_core::format::{SessionDoc, replay};
use scorekeeper_core::rules::GAMES;
use serde_json::Value;

use crate::fixtures::{
    case_files, cases, compare, fixtures, golden_dir_or_skip, originals_of, rejected_at,
    shared_golden, under_ci,
};

/// Every case of every game the rules keep.
fn every_case() -> Vec<crate::fixtures::Case> {
    cases(GAMES.iter().map(|g| g.id))
}

/// 70 cases on 2026-11-25; the count only grows (a case split in two keeps both halves).
const FEWEST_CASES: usize = 70;

#[test]
fn golden_cases_through_replay() {
    let cases = every_case();
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

/// Every game the rules keep has worked cases.
#[test]
fn every_game_has_worked_cases() {
    for game in GAMES {
        assert!(
            !case_files(&fixtures().join(game.id)).is_empty(),
            "{} has no golden cases in crates/core/tests/fixtures/golden/{}/",
            game.id,
            game.id
        );
    }
}

/// The in-repository fixtures are the shared worked cases, unchanged in every number, id,
/// event and expectation: only the `note` is ours (and differs, so none was copied by
/// mistake). Every shared case has its fixture and no fixture is without its original;
/// the house games' originals are `../shared/design/house-game-cases/`
/// ([`originals_of`]). Needs `../shared`; skipped outside CI when missing, a failure under
/// CI.
#[test]
fn the_fixtures_are_the_shared_cases_but_for_the_note() {
    let Some(shared) = shared_golden() else {
        return;
    };
    let read = |path: &Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let games = |root: &Path| -> Vec<String> {
        let mut games: Vec<String> = std::fs::read_dir(root)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        games.sort();
        games
    };
    let names = |dir: &Path| -> Vec<String> {
        let files = case_files(dir);
        files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    };
    let ours = games(&fixtures());
    for game in games(&shared) {
        assert!(
            ours.contains(&game),
            "{game}: shared cases without fixtures"
        );
    }
    let mut compared = 0;
    for game in &ours {
        let Some(originals) = golden_dir_or_skip(&originals_of(&shared, game), under_ci()) else {
            continue;
        };
        let mine = fixtures().join(game);
        assert_eq!(
            names(&mine),
            names(&originals),
            "{game}: the fixtures and the shared cases differ in files"
        );
        for name in names(&mine) {
            let (mut my_case, mut original) =
                (read(&mine.join(&name)), read(&originals.join(&name)));
            let (my_note, their_note) = (my_case["note"].take(), original["note"].take());
            assert_eq!(
                my_case, original,
                "{game}/{name}: differs from the shared case beyond its note"
            );
            assert!(
                my_note.as_str().is_some_and(|n| n.contains("rules §")),
                "{game}/{name}: the note names no rule"
            );
            assert_ne!(
                my_note, their_note,
                "{game}/{name}: the note is the shared one, not ours"
            );
            compared += 1;
        }
    }
    println!("{compared} fixtures match the shared cases but for the note");
}

/// The steps a player checks by hand agree with the money, for every event of every case
/// that stands: a kitty step's size moves by exactly what the event posts to the kitty, and
/// where an event's money is all payments between accounts (no kitty or shares step), the
/// payments net to exactly its postings, account by account.
#[test]
fn the_steps_explain_every_cent() {
    use scorekeeper_core::rules::Step;
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in every_case() {
        let Ok(doc) = serde_json::from_value::<SessionDoc>(case.session.clone()) else {
            continue;
        };
        let Ok(fold) = scorekeeper_core::format::replay::fold(&doc) else {
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
                        if moved != posted(scorekeeper_core::ledger::KITTY) {
                            failures.push(format!(
                                "{}: the kitty step moves {moved}, the postings {}",
                                case.id,
                                posted(scorekeeper_core::ledger::KITTY)
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

/// Under CI a missing golden folder fails the test that needs it (a green run means it
/// ran); outside CI it is skipped with a note.
#[test]
fn a_missing_golden_folder_fails_under_ci_and_is_skipped_outside() {
    let missing = Path::new("/nonexistent/scorekeeper-ci-check/golden");
    let under_ci = std::panic::catch_unwind(|| golden_dir_or_skip(missing, true));
    let message = *under_ci
        .expect_err("CI must fail")
        .downcast::<String>()
        .unwrap();
    assert!(message.contains("golden cases are missing"), "{message}");
    assert_eq!(golden_dir_or_skip(missing, false), None);
    // A folder that is there is used, CI or not.
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(golden_dir_or_skip(here, true).as_deref(), Some(here));
}
