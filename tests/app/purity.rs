//! The functional core stays pure: the rules engines, the ledger, money, the document
//! formats, the session fold, the history's pure parts and the registry import no
//! database, web framework, runtime, clock, randomness or file system, and nothing of the
//! shell (service, store, web, export). The ledger and money sit under the rules: they
//! name nothing of the rules, so the two do not depend on each other both ways.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::path::{Path, PathBuf};

const FORBIDDEN: [&str; 10] = [
    "sqlx",
    "axum",
    "tokio",
    "chrono",
    "rand::",
    "std::fs",
    "std::net",
    "SystemTime",
    "Instant::now",
    "std::env",
];

/// The shell's modules, which the core must not reach into.
const SHELL: [&str; 7] = [
    "crate::service",
    "crate::store",
    "crate::web",
    "crate::export",
    "crate::config",
    "crate::telemetry",
    "crate::error",
];

/// Every core module: its folders (whole) and its single files, under `src/`.
const CORE_DIRS: [&str; 5] = ["rules", "ledger", "format", "session", "history"];
const CORE_FILES: [&str; 3] = ["money.rs", "registry.rs", "game_list.rs"];

/// Every `.rs` file under `path` (or `path` itself when it is one).
fn files(path: &Path, found: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            files(&entry.unwrap().path(), found);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        found.push(path.to_path_buf());
    }
}

/// The files of `dirs` and `singles` under `src/`, each with its text; fails when one is
/// missing, so a renamed module cannot drop out of the check unseen.
fn sources(dirs: &[&str], singles: &[&str]) -> Vec<(PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for name in dirs.iter().chain(singles) {
        let path = src.join(name);
        assert!(
            path.exists(),
            "{} is gone: update the core list",
            path.display()
        );
        files(&path, &mut found);
    }
    found
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// `path uses word` for each of `words` the file's text names.
fn uses(sources: &[(PathBuf, String)], words: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (path, text) in sources {
        for word in words {
            if text.contains(word) {
                found.push(format!("{} uses {word}", path.display()));
            }
        }
    }
    found
}

#[test]
fn the_core_does_no_io() {
    let core = sources(&CORE_DIRS, &CORE_FILES);
    // Every folder holds files: an empty list would pass whatever the core did.
    assert!(core.len() > 40, "only {} core files found", core.len());
    let found = uses(&core, &FORBIDDEN);
    assert!(found.is_empty(), "impure core:\n{}", found.join("\n"));
}

#[test]
fn the_core_does_not_reach_into_the_shell() {
    let found = uses(&sources(&CORE_DIRS, &CORE_FILES), &SHELL);
    assert!(
        found.is_empty(),
        "core reaching into the shell:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_ledger_and_money_name_nothing_of_the_rules() {
    let found = uses(
        &sources(&["ledger"], &["money.rs"]),
        &["crate::rules", "rules::"],
    );
    assert!(
        found.is_empty(),
        "a rules <-> ledger cycle:\n{}",
        found.join("\n")
    );
}

/// The rules sit under the registry: they take the list of games from `game_list.rs`, not
/// from the registry, so the two do not depend on each other both ways.
#[test]
fn the_rules_name_nothing_of_the_registry() {
    let found = uses(
        &sources(&["rules"], &[]),
        &["crate::registry", "registry::"],
    );
    assert!(
        found.is_empty(),
        "a rules <-> registry cycle:\n{}",
        found.join("\n")
    );
}
