//! The store the library's tests write to: SQLite in memory, or with
//! `SCOREKEEPER_TEST_ENGINE=postgres` a new database on `SCOREKEEPER_TEST_DATABASE_URL`'s
//! server (as `tests/common/engines.rs`).

use std::sync::atomic::{AtomicU64, Ordering};

use super::WritePool;

/// A fresh, migrated store of the engine under test; panics when PostgreSQL is asked for
/// without a server, so such a run fails rather than pass on SQLite.
pub(crate) async fn fresh_store() -> WritePool {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let url = match std::env::var("SCOREKEEPER_TEST_ENGINE").as_deref() {
        Ok("postgres") => {
            let server = std::env::var("SCOREKEEPER_TEST_DATABASE_URL").expect(
                "SCOREKEEPER_TEST_ENGINE=postgres needs SCOREKEEPER_TEST_DATABASE_URL (see .ci/postgres)",
            );
            // This process's id keeps two runs on one server apart.
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let name = format!("sk_lib{n}_{}", std::process::id());
            super::postgres::fresh_database(&server, &name)
                .await
                .expect("a PostgreSQL test database")
        }
        _ => "sqlite::memory:".to_string(),
    };
    super::open(&url).await.expect("a fresh store")
}
