//! CI strictness: under CI a missing Chromium fails the test that needs it (a green run
//! means it ran); outside CI it is skipped with a note (the core's tests check the same of
//! the shared golden cases).
//! `.ci/run` checks the same end to end by pointing `SCOREKEEPER_SHARED` and
//! `SCOREKEEPER_CHROMIUM` at missing paths and expecting `cargo test` to fail.
//!
//! The SQLite and PostgreSQL migrations give the schema the same meaning, checked
//! on a fresh database of each (PostgreSQL's from `SCOREKEEPER_TEST_DATABASE_URL`, which
//! `.ci/run` sets to a throw-away cluster; required under CI).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use std::path::Path;

use common::browser::tools_present_or_skip;
use common::engines::{Db, postgres_database};
use scorekeeper::store::postgres::Engine;

const MISSING: &str = "/nonexistent/scorekeeper-ci-check";

#[test]
fn a_missing_chromium_fails_under_ci_and_is_skipped_outside() {
    let missing = Path::new(MISSING);
    let present = Path::new(env!("CARGO_BIN_EXE_scorekeeper"));
    for (chromium, driver) in [(missing, present), (present, missing)] {
        let under_ci = std::panic::catch_unwind(|| tools_present_or_skip(chromium, driver, true));
        let message = *under_ci
            .expect_err("CI must fail")
            .downcast::<String>()
            .unwrap();
        assert!(message.contains("CI must install chromium"), "{message}");
        assert!(!tools_present_or_skip(chromium, driver, false));
    }
    assert!(tools_present_or_skip(present, present, true));
}

#[tokio::test]
async fn both_engines_migrations_give_the_schema_the_same_meaning() {
    let sqlite = Db::sqlite().await;
    schema_meaning(&sqlite).await;
    let Some(url) = postgres_database("schema_meaning").await else {
        return;
    };
    let postgres = Db::postgres(&url).await;
    schema_meaning(&postgres).await;
    // The same tables, each with the same columns in the same order and of the same types.
    let tables = sqlite.tables().await;
    assert_eq!(postgres.tables().await, tables);
    assert!(tables.len() >= 22, "{tables:?}");
    for table in &tables {
        assert_eq!(
            postgres.columns(table).await,
            sqlite.columns(table).await,
            "{table}"
        );
    }
    // Migrating again (a second instance starting) finds nothing to do.
    Db::postgres(&url).await;
}

#[test]
fn the_database_url_scheme_names_the_engine_and_nothing_else_is_taken() {
    assert_eq!(Engine::of("sqlite://data/sk.db"), Some(Engine::Sqlite));
    assert_eq!(Engine::of("sqlite::memory:"), Some(Engine::Sqlite));
    assert_eq!(Engine::of("postgres://u@h/db"), Some(Engine::Postgres));
    assert_eq!(
        Engine::of("postgresql://u@h:5433/db"),
        Some(Engine::Postgres)
    );
    for other in ["mysql://u@h/db", "data/sk.db", "postgres:db", ""] {
        assert_eq!(Engine::of(other), None, "{other}");
    }
}

/// What the schema means, asserted through the same SQL text on either engine.
async fn schema_meaning(db: &Db) {
    let name = db.name();
    for setup in [
        "INSERT INTO clubs (name, passphrase_hash, share_token, created_at) \
         VALUES ('Thursday', 'h', 's1', '2026-11-25T20:00:00Z')",
        "INSERT INTO sessions (game, currency, agreements, created_at, club_id) \
         VALUES ('auction-pitch', 'USD', '{}', '2026-11-25T20:00:00Z', 1)",
        "INSERT INTO sessions (game, currency, agreements, created_at, club_id) \
         VALUES ('auction-pitch', 'USD', '{}', '2026-11-26T20:00:00Z', 1)",
        "INSERT INTO seats (session_id, position, player) VALUES (1, 0, 'Ann'), (1, 1, 'Bob')",
        "INSERT INTO events (session_id, seq, kind, body, explanation, recorded_at) \
         VALUES (1, 1, 'hand', '{\"bid\": 2}', 'Ann made 2', '2026-11-25T20:05:00Z')",
        "INSERT INTO postings (event_id, account, amount_cents) \
         VALUES (1, 'Ann', 150), (1, 'Bob', -150)",
        "INSERT INTO ledger_entries (event_id, entry) VALUES (1, '{}')",
        "INSERT INTO people (club_id, display_name) VALUES (1, 'Ann')",
    ] {
        db.exec(setup)
            .await
            .unwrap_or_else(|e| panic!("{name}: {setup}: {e}"));
    }
    append_only(db).await;
    money_is_integer_cents(db).await;
    totals_follow_the_session_rows(db).await;
    // A club's name and a person's display name are one whatever their case; JSON is JSON.
    db.refused(
        "INSERT INTO clubs (name, passphrase_hash, share_token, created_at) \
         VALUES ('THURSDAY', 'h', 's2', 't')",
        "",
    )
    .await;
    db.refused(
        "INSERT INTO people (club_id, display_name) VALUES (1, 'ANN')",
        "",
    )
    .await;
    db.refused(
        "INSERT INTO events (session_id, seq, kind, body, explanation, recorded_at) \
         VALUES (1, 2, 'hand', '{nope', 'x', 't')",
        "",
    )
    .await;
    assert_eq!(db.ints("SELECT count(*) FROM clubs").await, [1], "{name}");
    assert_eq!(db.ints("SELECT count(*) FROM events").await, [1], "{name}");
}

/// Events, postings and ledger entries are never changed nor removed; seats never change.
async fn append_only(db: &Db) {
    for (sql, why) in [
        (
            "UPDATE events SET kind = 'void' WHERE id = 1",
            "events are append-only",
        ),
        ("DELETE FROM events WHERE id = 1", "events are append-only"),
        (
            "UPDATE postings SET amount_cents = 1 WHERE event_id = 1",
            "postings are append-only",
        ),
        (
            "DELETE FROM postings WHERE event_id = 1",
            "postings are append-only",
        ),
        (
            "UPDATE seats SET player = 'Cy' WHERE session_id = 1",
            "seats are append-only",
        ),
        (
            "UPDATE ledger_entries SET entry = '[]'",
            "ledger entries are append-only",
        ),
        (
            "DELETE FROM ledger_entries",
            "ledger entries are append-only",
        ),
    ] {
        db.refused(sql, why).await;
    }
    // Nothing moved: Ann's +150 and Bob's -150 still balance to zero.
    let sums =
        "SELECT count(*), CAST(SUM(amount_cents) AS BIGINT), MAX(amount_cents) FROM postings";
    assert_eq!(db.ints(sums).await, [2, 0, 150], "{}", db.name());
}

/// Amounts are whole cents in a 64-bit integer: no fraction of a cent, no zero posting, the
/// largest 64-bit amount kept exactly.
async fn money_is_integer_cents(db: &Db) {
    for table in [
        "postings",
        "session_results",
        "player_totals",
        "night_payments",
    ] {
        let columns = db.columns(table).await;
        let cents: Vec<&String> = columns.iter().filter(|c| c.contains("_cents:")).collect();
        assert!(!cents.is_empty(), "{}: {table} {columns:?}", db.name());
        assert!(
            cents.iter().all(|c| c.ends_with(":INTEGER")),
            "{}: {columns:?}",
            db.name()
        );
    }
    let posting = |amount: &str| {
        format!("INSERT INTO postings (event_id, account, amount_cents) VALUES (1, 'Cy', {amount})")
    };
    db.refused(&posting("'1.10'"), "").await;
    db.refused(&posting("0"), "").await;
    db.exec(&posting("9223372036854775807")).await.unwrap();
    let largest = "SELECT amount_cents FROM postings WHERE account = 'Cy'";
    assert_eq!(db.ints(largest).await, [i64::MAX], "{}", db.name());
}

/// The club totals follow the per-session rows as they are inserted, updated and deleted.
async fn totals_follow_the_session_rows(db: &Db) {
    let totals = "SELECT nights, net_cents, hands_bid, hands_made, hands_set, games_won, \
                  kitties_taken FROM player_totals WHERE club_id = 1 AND player = 'Ann'";
    let bids =
        "SELECT bids, made FROM bid_totals WHERE club_id = 1 AND player = 'Ann' AND band = 300";
    for sql in [
        "INSERT INTO session_results VALUES \
         (1, 1, 'Ann', 'auction-pitch', '2026-11-25', 250, 3, 2, 1, 1, 0)",
        "INSERT INTO session_results VALUES \
         (2, 1, 'Ann', 'auction-pitch', '2026-11-26', -75, 2, 2, 0, 0, 1)",
        "INSERT INTO session_bids VALUES (1, 1, 'Ann', 300, 2, 1), (2, 1, 'Ann', 300, 1, 1)",
    ] {
        db.exec(sql)
            .await
            .unwrap_or_else(|e| panic!("{}: {sql}: {e}", db.name()));
    }
    // Two nights: +2.50 and -0.75 is +1.75; 3 + 2 bid, 2 + 2 made.
    assert_eq!(
        db.ints(totals).await,
        [2, 175, 5, 4, 1, 1, 1],
        "{}",
        db.name()
    );
    assert_eq!(db.ints(bids).await, [3, 2], "{}", db.name());
    let change = "UPDATE session_results SET net_cents = 100, hands_made = 1 WHERE session_id = 2";
    db.exec(change).await.unwrap();
    db.exec("UPDATE session_bids SET made = 0 WHERE session_id = 2")
        .await
        .unwrap();
    // The second night now +1.00 with 1 made: +2.50 + 1.00 = +3.50, 2 + 1 made.
    assert_eq!(
        db.ints(totals).await,
        [2, 350, 5, 3, 1, 1, 1],
        "{}",
        db.name()
    );
    assert_eq!(db.ints(bids).await, [3, 1], "{}", db.name());
    db.exec("DELETE FROM session_results WHERE session_id = 1")
        .await
        .unwrap();
    db.exec("DELETE FROM session_bids WHERE session_id = 1")
        .await
        .unwrap();
    // Only the second night is left.
    assert_eq!(
        db.ints(totals).await,
        [1, 100, 2, 1, 0, 0, 1],
        "{}",
        db.name()
    );
    assert_eq!(db.ints(bids).await, [1, 0], "{}", db.name());
}
