//! Fuzzing the pure `replay` with whole session documents.
//!
//! Each case starts from one of the golden sessions (every game, real events) and
//! applies a handful of random mutations near the schema: a field of an event, the
//! agreements, a player's name or the opening scores replaced by a hostile value (huge and
//! extreme numbers, fractions, wrong types, invisible and look-alike names, odd money
//! strings); events duplicated, dropped, reordered or retyped; voids, corrections, payments
//! and closes added with random targets. Whatever comes out must hold:
//! - `replay` never panics;
//! - an accepted document's events each post a zero sum, and every balance is the sum of
//!   its account's postings;
//! - a refused one names an event index within the document, or a top-level field.
//!
//! Cases: `FUZZ_CASES` (default 256, so `cargo test` stays quick; `.ci/run` runs more for
//! about a minute). `FUZZ_SEED` fixes the random seed to replay a run.

use std::collections::BTreeMap;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use scorekeeper_core::format::{SessionDoc, replay};
use scorekeeper_core::rules::fields;
use serde_json::{Map, Value, json};

/// Every golden session, as JSON objects (the `session` of each case).
fn seeds() -> Option<Vec<Map<String, Value>>> {
    let dir = crate::fixtures::fixtures();
    let mut seeds = Vec::new();
    let mut games: Vec<_> = std::fs::read_dir(&dir).ok()?.flatten().collect();
    games.sort_by_key(|e| e.path());
    for game in games.iter().filter(|e| e.path().is_dir()) {
        let mut cases: Vec<_> = std::fs::read_dir(game.path()).ok()?.flatten().collect();
        cases.sort_by_key(|e| e.path());
        for case in cases {
            let text = std::fs::read_to_string(case.path()).ok()?;
            let value: Value = serde_json::from_str(&text).ok()?;
            if let Some(Value::Object(session)) = value.get("session") {
                seeds.push(session.clone());
            }
        }
    }
    Some(seeds)
}

/// A hostile value: extremes and near-limits of every kind the schema uses.
fn hostile() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop_oneof![
            Just(json!(i64::MAX)),
            Just(json!(i64::MIN)),
            Just(json!(u64::MAX)),
            Just(json!(1e300)),
            Just(json!(-1e300)),
            Just(json!(1_000_000_000)),
            Just(json!(1_000_000_001)),
            Just(json!(-1_000_000_000)),
            Just(json!(2.5)),
            Just(json!(0)),
            Just(json!(-1)),
            Just(json!(250)),
            Just(json!(1500)),
        ],
        (-2000i64..2000).prop_map(|n| json!(n)),
        (-1_000_000_000i64..=1_000_000_000).prop_map(|n| json!(n)),
        prop_oneof![
            Just(json!("0.05")),
            Just(json!("10000000000.00")),
            Just(json!("-10000000000.00")),
            Just(json!("5e-2")),
            Just(json!("0.055")),
            Just(json!("+1")),
            Just(json!(" 1")),
            Just(json!("1,00")),
            Just(json!("")),
            Just(json!("A")),
            Just(json!("KITTY")),
            Just(json!("pot")),
            Just(json!("A\u{0}")),
            Just(json!("A\u{200B}")),
            Just(json!("\u{202E}A")),
            Just(json!("Rene\u{301}")),
            Just(json!("x".repeat(41))),
            Just(json!("hearts")),
            Just(json!("made")),
            Just(json!("failed")),
            Just(json!("NS")),
            Just(json!("EW")),
        ],
        "\\PC{0,12}".prop_map(Value::String),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
        Just(json!([])),
        Just(json!({})),
        Just(json!(["A", "B"])),
        Just(json!({"A": 1, "B": -1})),
    ]
}

/// One mutation, chosen by `kind`, placed by `at`/`to` (reduced modulo the sizes), with
/// `value` where one is needed.
#[derive(Debug, Clone)]
struct Mutation {
    kind: u8,
    at: usize,
    to: usize,
    value: Value,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (0u8..16, any::<usize>(), any::<usize>(), hostile()).prop_map(|(kind, at, to, value)| {
        Mutation {
            kind,
            at,
            to,
            value,
        }
    })
}

/// A field of `object` chosen by `at` (or a new one called `extra`).
fn pick_key(object: &Map<String, Value>, at: usize) -> String {
    let keys: Vec<&String> = object.keys().collect();
    if keys.is_empty() || at % 8 == 7 {
        "extra".to_string()
    } else {
        keys[at % keys.len()].clone()
    }
}

fn player(doc: &Map<String, Value>, at: usize) -> Value {
    match doc.get("players") {
        Some(Value::Array(p)) if !p.is_empty() => p[at % p.len()].clone(),
        _ => json!("A"),
    }
}

fn apply(doc: &mut Map<String, Value>, m: &Mutation) {
    let events_len = doc
        .get("events")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let event_at = |n: usize| if events_len == 0 { 0 } else { n % events_len };
    let target = json!((m.to % (events_len + 3)) as i64 - 1);
    let payer = player(doc, m.at);
    let payee = player(doc, m.to);
    let events = doc
        .entry("events")
        .or_insert_with(|| json!([]))
        .as_array_mut();
    let Some(events) = events else {
        return;
    };
    match m.kind {
        // A field of an event: the most common, where the rules read.
        0..=3 if !events.is_empty() => {
            if let Some(Value::Object(event)) = events.get_mut(event_at(m.at)) {
                let key = pick_key(event, m.to);
                if key != "type" || m.to.is_multiple_of(5) {
                    event.insert(key, m.value.clone());
                }
            }
        }
        // An event again, as if entered twice, somewhere later.
        4 if !events.is_empty() => {
            let copy = events[event_at(m.at)].clone();
            let place = m.to % (events.len() + 1);
            events.insert(place, copy);
        }
        5 if !events.is_empty() => {
            events.remove(event_at(m.at));
        }
        6 if events.len() > 1 => {
            let (a, b) = (event_at(m.at), event_at(m.to));
            events.swap(a, b);
        }
        7 => events.push(json!({"type": "void", "event": target, "reason": "fuzz"})),
        8 if !events.is_empty() => {
            let mut replacement = events[event_at(m.at)].clone();
            if let Value::Object(r) = &mut replacement {
                let key = pick_key(r, m.to);
                if key != "type" {
                    r.insert(key, m.value.clone());
                }
            }
            events.push(json!({"type": "correction", "event": target,
                               "replacement": replacement, "reason": "fuzz"}));
        }
        9 => {
            let amount = if m.value.is_string() {
                m.value.clone()
            } else {
                json!(format!("{}.{:02}", m.at % 1000, m.to % 100))
            };
            events.push(json!({"type": "payment", "from": payer, "to": payee, "amount": amount}));
        }
        10 => events.push(json!({"type": "close"})),
        // The agreements.
        11 => {
            if let Some(Value::Object(agreements)) = doc.get_mut("agreements") {
                let key = pick_key(agreements, m.at);
                agreements.insert(key, m.value.clone());
            }
        }
        // A player's name.
        12 => {
            if let Some(Value::Array(players)) = doc.get_mut("players")
                && !players.is_empty()
            {
                let n = players.len();
                players[m.at % n] = m.value.clone();
            }
        }
        // The opening scores, per player or per side.
        13 => {
            let key = match m.at % 3 {
                0 => "NS".to_string(),
                1 => "EW".to_string(),
                _ => player(doc, m.to).as_str().unwrap_or("A").to_string(),
            };
            doc.insert("opening_scores".into(), json!({ key: m.value.clone() }));
        }
        // A number or amount of an event (or of the agreements) grown, so that documents
        // the rules accept carry large values into their arithmetic.
        14 | 15 => {
            let factor = [10i64, 100, 1000, 1_000_000, -1][m.to % 5];
            let object = if m.kind == 14 {
                let at = event_at(m.at);
                events.get_mut(at).and_then(Value::as_object_mut)
            } else {
                doc.get_mut("agreements").and_then(Value::as_object_mut)
            };
            if let Some(object) = object {
                for value in object.values_mut() {
                    grow(value, factor);
                }
            }
        }
        _ => {}
    }
}

/// Multiplies every whole number and money string in `value` by `factor`.
fn grow(value: &mut Value, factor: i64) {
    match value {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                *value = json!(i.saturating_mul(factor));
            }
        }
        Value::String(s) => {
            if let Ok(m) = s.parse::<scorekeeper_core::money::Money>() {
                *value = json!(
                    scorekeeper_core::money::Money::from_cents(m.cents().saturating_mul(factor))
                        .to_string()
                );
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| grow(v, factor)),
        Value::Object(map) => map.values_mut().for_each(|v| grow(v, factor)),
        _ => {}
    }
}

/// Replays `doc` as `scorekeeper replay` reads it and checks the outcome's invariants.
fn check(doc: &Map<String, Value>) -> Result<bool, TestCaseError> {
    let events = doc
        .get("events")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let parsed: SessionDoc = match fields::read(doc) {
        Ok(d) => d,
        Err(e) => {
            prop_assert!(!e.field.is_empty() || !e.message.is_empty());
            return Ok(false);
        }
    };
    match replay(&parsed) {
        Ok(ledger) => {
            let mut sums: BTreeMap<String, i64> = BTreeMap::new();
            for entry in &ledger.events {
                let sum: i128 = entry
                    .postings
                    .iter()
                    .map(|p| i128::from(p.amount.cents()))
                    .sum();
                prop_assert_eq!(sum, 0, "event {} posts {} cents", entry.seq, sum);
                for p in &entry.postings {
                    let total = sums.entry(p.account.clone()).or_insert(0);
                    *total = total.checked_add(p.amount.cents()).unwrap();
                }
            }
            // An account left out of the balances is at zero (a voided join's, say).
            for (account, total) in &sums {
                let balance = ledger.balances.get(account).map_or(0, |m| m.cents());
                prop_assert_eq!(balance, *total, "balance of {}", account);
            }
            for (account, balance) in &ledger.balances {
                prop_assert_eq!(
                    balance.cents(),
                    sums.get(account).copied().unwrap_or(0),
                    "balance of {}",
                    account
                );
            }
            Ok(true)
        }
        Err(refusal) => {
            match refusal.event_index {
                Some(i) => prop_assert!(i < events, "{refusal} names event {i} of {events}"),
                None => prop_assert!(!refusal.field.is_empty(), "{refusal} names no field"),
            }
            prop_assert!(!refusal.message.is_empty());
            Ok(false)
        }
    }
}

#[test]
fn replay_holds_on_arbitrary_session_documents() {
    let seeds = seeds().expect("tests/fixtures/golden reads as golden cases");
    assert!(
        !seeds.is_empty(),
        "no golden sessions in tests/fixtures/golden"
    );
    let cases: u32 = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256);
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        });
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let accepted = std::cell::Cell::new(0u32);
    let tried = std::cell::Cell::new(0u32);
    let strategy = (0..seeds.len(), proptest::collection::vec(mutation(), 1..5));
    let started = std::time::Instant::now();
    let result = runner.run(&strategy, |(which, mutations)| {
        let mut doc = seeds[which].clone();
        for m in &mutations {
            apply(&mut doc, m);
        }
        tried.set(tried.get() + 1);
        if check(&doc)? {
            accepted.set(accepted.get() + 1);
        }
        Ok(())
    });
    eprintln!(
        "fuzz_replay: seed {seed}, {} documents tried ({} accepted, the rest refused) from {} golden sessions in {:.1} s",
        tried.get(),
        accepted.get(),
        seeds.len(),
        started.elapsed().as_secs_f64()
    );
    if let Err(e) = result {
        panic!("seed {seed}: {e}");
    }
}
