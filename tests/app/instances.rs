//! Issue 26 point 2: several instances on one PostgreSQL database. A change made through
//! one instance wakes the live sheets of that session on every other (`LISTEN`/`NOTIFY`,
//! `web::live`'s relay), and only those. Needs `SCOREKEEPER_TEST_DATABASE_URL` (required
//! under CI).

use std::time::Duration;

use crate::common;

use common::engines::postgres_database;
use scorekeeper::web::live::{CHANNEL, Watchers};
use tokio_stream::StreamExt;

/// Whether `sheet` is woken within `ms` milliseconds.
async fn woken(sheet: &mut scorekeeper::web::live::Watch, ms: u64) -> bool {
    tokio::time::timeout(Duration::from_millis(ms), sheet.next())
        .await
        .is_ok_and(|n| n.is_some())
}

#[tokio::test]
async fn a_change_on_one_instance_wakes_that_sessions_sheets_on_the_other() {
    let Some(url) = postgres_database("instances_live").await else {
        return;
    };
    let (one, two) = (Watchers::default(), Watchers::default());
    one.relay_through(&url).await.unwrap();
    two.relay_through(&url).await.unwrap();
    let mut on_two = two.watch(7).unwrap();
    let mut other_session = two.watch(8).unwrap();
    let mut on_one = one.watch(7).unwrap();

    one.changed(7);
    assert!(
        woken(&mut on_two, 2_000).await,
        "within 2 s on the other instance"
    );
    assert!(woken(&mut on_one, 2_000).await, "and on its own");
    assert!(
        !woken(&mut other_session, 300).await,
        "session 8 did not change"
    );
    // Its own notification comes back to instance one, and is not a second change.
    assert!(!woken(&mut on_one, 300).await, "woken once, not twice");

    // Another process (here: a plain connection) naming session 8 wakes its sheets too;
    // a payload that names no session is ignored.
    let pg = sqlx::PgPool::connect(&url).await.unwrap();
    for payload in ["someone-else 8", "nonsense"] {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(payload)
            .execute(&pg)
            .await
            .unwrap();
    }
    assert!(woken(&mut other_session, 2_000).await);
    assert!(
        !woken(&mut on_two, 300).await,
        "session 7 did not change again"
    );
    pg.close().await;
}
