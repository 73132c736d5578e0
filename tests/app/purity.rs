//! The functional core stays pure: the rules engines, the ledger, money and the document
//! formats import no database, web framework, runtime, clock, randomness or file system.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::path::Path;

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

fn check(dir: &Path, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            check(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for word in FORBIDDEN {
                if text.contains(word) {
                    found.push(format!("{} uses {word}", path.display()));
                }
            }
        }
    }
}

#[test]
fn the_core_does_no_io() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for dir in ["rules", "ledger", "format", "session"] {
        check(&src.join(dir), &mut found);
    }
    let money = std::fs::read_to_string(src.join("money.rs")).unwrap();
    found.extend(
        FORBIDDEN
            .iter()
            .filter(|w| money.contains(*w))
            .map(|w| format!("money.rs uses {w}")),
    );
    assert!(found.is_empty(), "impure core:\n{}", found.join("\n"));
}
