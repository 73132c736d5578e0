//! The worked cases kept in the repository, `crates/core/tests/fixtures/golden/<game>/*.json`:
//! the shared golden cases (`../shared/golden`) with their notes in our words. Read by this
//! crate's tests and, through `#[path]`, by the service's HTTP test of the same cases.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use scorekeeper_core::money::Money;
use serde_json::Value;

/// One worked case: its id, the session document and what its ledger must show.
pub struct Case {
    /// The case's id ("AP-03").
    pub id: String,
    /// The session document (`scorekeeper/session@1`).
    pub session: Value,
    /// The expected ledger parts: `balances`, `scores`, `checks`, `games`, or `rejected`
    /// with the refused `event_index`.
    pub expect: Value,
}

/// The repository's root folder, whichever crate's test reads this.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(super::FROM_MANIFEST)
}

/// The folder of the worked cases in the repository.
pub fn fixtures() -> PathBuf {
    root().join("crates/core/tests/fixtures/golden")
}

/// The folder of shared golden cases: `$SCOREKEEPER_SHARED/golden` when that variable is
/// set (CI uses it to prove that a missing folder fails), else `../shared/golden` beside
/// the repository. `None`, with a visible note, when it is missing outside CI; under CI
/// (`CI` set) a missing folder fails the test ([`golden_dir_or_skip`]).
pub fn shared_golden() -> Option<PathBuf> {
    let shared = std::env::var_os("SCOREKEEPER_SHARED")
        .map_or_else(|| root().join("../shared"), PathBuf::from);
    golden_dir_or_skip(&shared.join("golden"), under_ci())
}

/// Where the shared originals of game `id`'s cases are, `golden` being the shared golden
/// folder: `golden/<id>`, but for the house games, whose cases were worked out with their
/// design and are kept beside it (`design/house-game-cases/`).
pub fn originals_of(golden: &Path, id: &str) -> PathBuf {
    match id {
        "house_game" => golden.join("../design/house-game-cases"),
        _ => golden.join(id),
    }
}

/// Whether the tests run under CI (`CI` set), where nothing they need may be missing.
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// `dir` when it is a folder; otherwise a failure under CI (`ci`), never a silent pass,
/// and outside CI `None` with a note on standard error saying the golden cases are skipped.
pub fn golden_dir_or_skip(dir: &Path, ci: bool) -> Option<PathBuf> {
    if dir.is_dir() {
        return Some(dir.to_path_buf());
    }
    assert!(
        !ci,
        "CI is set and the shared golden cases are missing ({})",
        dir.display()
    );
    eprintln!(
        "note: {} is missing; the shared golden cases are skipped (CI has them)",
        dir.display()
    );
    None
}

/// The case files of one game's folder, sorted by name (empty when there is no folder).
pub fn case_files(dir: &Path) -> Vec<PathBuf> {
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

/// Every worked case of the games `ids`, game by game, each game's files by name.
pub fn cases<'a>(ids: impl IntoIterator<Item = &'a str>) -> Vec<Case> {
    let root = fixtures();
    let mut cases = Vec::new();
    for id in ids {
        for path in case_files(&root.join(id)) {
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
pub fn compare(expect: &Value, ledger: &Value) -> Vec<String> {
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

/// The event index a refused case must be refused at (`u64::MAX` when it names none).
pub fn rejected_at(expect: &Value) -> Option<u64> {
    (expect.get("rejected") == Some(&Value::Bool(true))).then(|| {
        expect
            .get("event_index")
            .and_then(Value::as_u64)
            .unwrap_or(u64::MAX)
    })
}
