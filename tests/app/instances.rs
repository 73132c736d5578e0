//! Several instances on one PostgreSQL database. A change made through
//! one instance wakes the live sheets of that session on every other (`LISTEN`/`NOTIFY`,
//! `web::live`'s relay), and only those; two service processes on one database share
//! live sheets, record every hand of eight writers once and keep one login budget. Needs `SCOREKEEPER_TEST_DATABASE_URL` (required
//! under CI).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::time::{Duration, Instant};

use crate::common;
use scorekeeper::ids::SessionId;

use common::engines::postgres_database;
use common::process::{free_port, hand, new_club, new_session, request, serve};
use scorekeeper::web::live::{Watchers, channel_of};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
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
    let mut on_two = two.watch(SessionId(7)).unwrap();
    let mut other_session = two.watch(SessionId(8)).unwrap();
    let mut on_one = one.watch(SessionId(7)).unwrap();
    // As the live sheet's route does: nothing sent from now on is missed.
    for (watchers, id) in [(&two, 7), (&two, 8), (&one, 7)] {
        assert!(
            watchers.relayed(SessionId(id)).await,
            "listening within 2 s"
        );
    }

    one.changed(SessionId(7));
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
            .bind(channel_of(SessionId(8)))
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

/// Whether `watchers` come to listen to exactly `channels` within 2 s.
async fn listening_to(watchers: &Watchers, channels: &[String]) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    while watchers.listened() != channels {
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    true
}

/// An instance listens only to the shards of the sessions it has sheets of: taken when the
/// first sheet of a shard opens, dropped when its last closes, while a change made on another
/// instance still reaches a sheet here.
#[tokio::test]
async fn an_instance_listens_only_to_the_shards_it_has_sheets_of() {
    let Some(url) = postgres_database("instances_shards").await else {
        return;
    };
    let (one, two) = (Watchers::default(), Watchers::default());
    one.relay_through(&url).await.unwrap();
    two.relay_through(&url).await.unwrap();
    assert!(two.listened().is_empty(), "no sheet, no channel");
    // 5 and 69 share shard 5; 6 is another.
    let (a, same_shard, other) = (SessionId(5), SessionId(69), SessionId(6));
    assert_eq!(channel_of(a), channel_of(same_shard));
    let mut sheet = two.watch(a).unwrap();
    let mut neighbour = two.watch(same_shard).unwrap();
    let on_one = one.watch(other).unwrap();
    assert!(two.relayed(a).await && one.relayed(other).await);
    assert_eq!(
        two.listened(),
        [channel_of(a)],
        "the shard of its sheets only"
    );
    assert_eq!(one.listened(), [channel_of(other)], "not the shard of 5");

    one.changed(a);
    assert!(
        woken(&mut sheet, 2_000).await,
        "a change on one reaches two"
    );
    assert!(!woken(&mut neighbour, 300).await, "69 did not change");
    assert_eq!(two.heard(), 1, "its one notification");
    assert_eq!(
        one.heard(),
        0,
        "one does not hear its own change of shard 5"
    );

    // One of the shard's two sessions closes: still listened; the other too: dropped.
    drop(neighbour);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(two.listened(), [channel_of(a)], "69 still shares the shard");
    drop(sheet);
    assert!(
        listening_to(&two, &[]).await,
        "its last sheet closed: {:?}",
        two.listened()
    );
    assert!(listening_to(&one, &[channel_of(other)]).await);
    // A change of shard 5 now reaches neither instance: sent (a plain listener hears it),
    // not received.
    let mut plain = sqlx::postgres::PgListener::connect(&url).await.unwrap();
    plain.listen(&channel_of(a)).await.unwrap();
    one.changed(a);
    let note = tokio::time::timeout(Duration::from_secs(2), plain.recv()).await;
    assert!(
        note.unwrap().unwrap().payload().ends_with(" 5"),
        "it was sent"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        (two.heard(), one.heard()),
        (1, 0),
        "nobody listens to shard 5"
    );
    // Opened again, taken again, and changes reach it.
    let mut again = two.watch(same_shard).unwrap();
    assert!(two.relayed(same_shard).await);
    one.changed(same_shard);
    assert!(woken(&mut again, 2_000).await);
    drop((again, on_one));
    assert!(listening_to(&one, &[]).await);
}

/// A lost listening connection is made again on the shards watched, and every sheet here
/// is woken once (what was sent meanwhile is unknown); changes reach it again after.
#[tokio::test]
async fn a_lost_listening_connection_listens_again_and_wakes_every_sheet() {
    let Some(url) = postgres_database("instances_relisten").await else {
        return;
    };
    let (one, two) = (Watchers::default(), Watchers::default());
    one.relay_through(&url).await.unwrap();
    two.relay_through(&url).await.unwrap();
    let mut sheet = two.watch(SessionId(3)).unwrap();
    let mut elsewhere = two.watch(SessionId(40)).unwrap();
    assert!(two.relayed(SessionId(3)).await && two.relayed(SessionId(40)).await);
    // The only connection whose last statement listened: two's.
    let pg = sqlx::PgPool::connect(&url).await.unwrap();
    let ended: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND query LIKE 'LISTEN%') AS t",
    )
    .fetch_one(&pg)
    .await
    .unwrap();
    assert_eq!(ended, 1);
    assert!(woken(&mut sheet, 3_000).await, "woken after the reconnect");
    assert!(woken(&mut elsewhere, 1_000).await, "every sheet");
    assert!(listening_to(&two, &[channel_of(SessionId(3)), channel_of(SessionId(40))]).await);
    one.changed(SessionId(3));
    assert!(woken(&mut sheet, 2_000).await, "changes reach it again");
    assert!(
        !woken(&mut elsewhere, 300).await,
        "and only its session's sheets"
    );
    pg.close().await;
}

/// A service process on `url` (PostgreSQL) sharing it with one other (`--instances 2`),
/// once `/healthz` answers 200; killed when dropped.
pub(crate) struct Instance {
    pub(crate) port: u16,
    pub(crate) child: std::process::Child,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn instance(url: &str) -> Instance {
    let port = free_port();
    let child = serve(url, port, &["--instances", "2"]).await;
    Instance { port, child }
}

/// Records `hands` hands in session `id`, hand k through `ports[k % 2]`: each instance
/// finds the session moved on by the other before every one of its writes.
pub(crate) async fn writer(ports: [u16; 2], token: String, id: i64, hands: usize) {
    let path = format!("/api/v1/sessions/{id}/events");
    for k in 0..hands {
        let port = ports[k % 2];
        loop {
            match request(port, "POST", &path, Some(&token), Some(&hand(k)))
                .await
                .unwrap()
            {
                (201, _) => break,
                // Busy (503): nothing written; the same hand again.
                (503, _) => tokio::time::sleep(Duration::from_millis(50)).await,
                (status, body) => panic!("session {id} hand {k} through {port}: {status} {body}"),
            }
        }
    }
}

/// Reads `sheet` (an open live sheet's connection) into `seen` until it holds `text`.
async fn read_until(sheet: &mut tokio::net::TcpStream, seen: &mut Vec<u8>, text: &str) {
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(seen).contains(text) {
        let n = sheet.read(&mut buf).await.unwrap();
        assert!(
            n > 0,
            "the live sheet closed: {}",
            String::from_utf8_lossy(seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
}

/// A live sheet of session `id` opened on `port` with `token`, answered 200: its
/// connection and what was read of it (the head, perhaps more).
pub(crate) async fn open_live(port: u16, token: &str, id: i64) -> (tokio::net::TcpStream, Vec<u8>) {
    let mut sheet = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let head = format!(
        "GET /sessions/{id}/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n"
    );
    sheet.write_all(head.as_bytes()).await.unwrap();
    let mut seen = Vec::new();
    read_until(&mut sheet, &mut seen, "\r\n\r\n").await;
    let answer = String::from_utf8_lossy(&seen).into_owned();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    (sheet, seen)
}

/// How many events session `id` holds in the database `pg`, the opening ante left out.
pub(crate) async fn events_stored(pg: &sqlx::PgPool, id: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM events WHERE session_id = $1 AND seq > 0")
        .bind(id)
        .fetch_one(pg)
        .await
        .unwrap()
}

/// How many sessions the database `pg` holds, each checked: its stored ledger entries
/// equal replay of its stored document (`copy::check_ledgers` panics otherwise).
pub(crate) async fn ledgers_equal_replay(pg: &sqlx::PgPool) -> usize {
    let mut conn = pg.acquire().await.unwrap();
    let (sessions, _) = scorekeeper::copy::check_ledgers(&mut *conn).await.unwrap();
    sessions
}

/// A hand recorded through `one` appears on a live sheet of its session opened on `two`
/// within 2 s.
pub(crate) async fn live_sheet_on_the_other(one: &Instance, two: &Instance, token: &str) {
    let id = new_session(one.port, token).await;
    let (mut sheet, mut seen) = open_live(two.port, token, id).await;
    let path = format!("/api/v1/sessions/{id}/events");
    let recorded = Instant::now();
    let (status, body) = request(one.port, "POST", &path, Some(token), Some(&hand(0)))
        .await
        .unwrap();
    assert_eq!(status, 201, "{body}");
    let told = read_until(&mut sheet, &mut seen, "event: changed");
    let told = tokio::time::timeout(Duration::from_secs(2), told).await;
    assert!(
        told.is_ok(),
        "no change on the other instance's sheet within 2 s"
    );
    eprintln!(
        "the other instance's sheet was told in {:?}",
        recorded.elapsed()
    );
}

/// 8 writers, each on its own session (made through either instance), every hand through
/// the instance the previous hand did not use: every hand is stored exactly once, and every
/// session's ledger equals replay of its document.
async fn eight_writers_across_both(one: &Instance, two: &Instance, token: &str, url: &str) {
    const HANDS: usize = 12;
    let mut ids = Vec::new();
    for n in 0..8 {
        let port = if n % 2 == 0 { one.port } else { two.port };
        ids.push(new_session(port, token).await);
    }
    let ports = [one.port, two.port];
    let writers: Vec<_> = ids
        .iter()
        .map(|&id| tokio::spawn(writer(ports, token.to_string(), id, HANDS)))
        .collect();
    for w in writers {
        w.await.unwrap();
    }
    let pg = sqlx::PgPool::connect(url).await.unwrap();
    for &sid in &ids {
        let stored = events_stored(&pg, sid).await;
        assert_eq!(stored, HANDS as i64, "session {sid}: every hand once");
    }
    // The 8 and the live sheet's session.
    assert_eq!(
        ledgers_equal_replay(&pg).await,
        9,
        "every session's ledger equals replay of its document"
    );
    pg.close().await;
}

/// Two service processes on one PostgreSQL database share live
/// sheets, record every hand once, and keep one login budget.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_on_one_database_share_sheets_hands_and_the_login_budget() {
    let Some(url) = postgres_database("instances_two").await else {
        return;
    };
    let (one, two) = (instance(&url).await, instance(&url).await);
    let token = new_club(one.port, "Two rooms").await;
    live_sheet_on_the_other(&one, &two, &token).await;
    eight_writers_across_both(&one, &two, &token, &url).await;

    // The login budget is not doubled: 10 checks a minute at a club in all. Each instance
    // checks 5 at once (and lets one address try 5 at once); wrong passphrases sent to both
    // in turn: 10 are checked (401), the 11th and 12th refused unchecked (429).
    let wrong = json!({"name": "Two rooms", "passphrase": "not the words"});
    let mut statuses = Vec::new();
    for n in 0..12 {
        let port = if n % 2 == 0 { one.port } else { two.port };
        statuses.push(
            request(port, "POST", "/api/v1/tokens", None, Some(&wrong))
                .await
                .unwrap()
                .0,
        );
    }
    let count = |status: u16| statuses.iter().filter(|&&s| s == status).count();
    assert_eq!((count(401), count(429)), (10, 2), "{statuses:?}");
}

/// Terminates the backend waiting on an advisory lock (a writer held up by the session's
/// lock) once there is one: whether one was.
async fn terminate_waiting_writer(pg: &sqlx::PgPool) -> bool {
    for _ in 0..200 {
        let terminated: bool = sqlx::query_scalar(
            "SELECT COALESCE(bool_or(pg_terminate_backend(pid)), false) FROM pg_stat_activity \
             WHERE datname = current_database() AND wait_event = 'advisory' \
             AND pid <> pg_backend_pid()",
        )
        .fetch_one(pg)
        .await
        .unwrap();
        if terminated {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

/// Holds session `id`'s advisory lock in a transaction of its own, so that a write of the
/// session waits for it inside the writer's transaction.
async fn hold_lock(pg: &sqlx::PgPool, id: i64) -> sqlx::Transaction<'static, sqlx::Postgres> {
    let mut holder = pg.begin().await.unwrap();
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(id)
        .execute(&mut *holder)
        .await
        .unwrap();
    holder
}

/// The writer's connection breaks (PostgreSQL terminates it) while a hand waits at the
/// start of its transaction: the hand goes again on a new connection, unseen; should that
/// one break too, the answer is a 503 naming the database, not a 500, and nothing is
/// stored. No restart is needed, nothing is doubled, and every ledger is replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_connection_broken_mid_write_is_sent_again_or_a_503_and_never_a_500() {
    let Some(url) = postgres_database("instances_broken").await else {
        return;
    };
    // One reader and a cache of one session: the smallest the settings allow still work.
    let port = free_port();
    let one = Instance {
        port,
        child: serve(&url, port, &["--readers", "1", "--fold-cache", "1"]).await,
    };
    let token = new_club(one.port, "Broken wire club").await;
    let id = new_session(one.port, &token).await;
    let path = format!("/api/v1/sessions/{id}/events");
    let send = |k: usize| {
        let (port, path, token) = (one.port, path.clone(), token.clone());
        tokio::spawn(
            async move { request(port, "POST", &path, Some(&token), Some(&hand(k))).await },
        )
    };
    assert_eq!(send(0).await.unwrap().unwrap().0, 201);
    let pg = sqlx::PgPool::connect(&url).await.unwrap();

    // Both the writer's connection and the new one break: 503, nothing stored.
    let holder = hold_lock(&pg, id).await;
    let waiting = send(1);
    assert!(terminate_waiting_writer(&pg).await, "the writer waited");
    assert!(
        terminate_waiting_writer(&pg).await,
        "it waited again, on a new connection"
    );
    let (status, body) = waiting.await.unwrap().unwrap();
    assert_eq!(status, 503, "{body}");
    let code = serde_json::from_str::<serde_json::Value>(&body).unwrap()["error"]["code"].clone();
    assert_eq!(code, json!("database_unavailable"), "{body}");
    holder.rollback().await.unwrap();

    // Only the writer's connection breaks: the hand goes in on a new one, unseen.
    let holder = hold_lock(&pg, id).await;
    let waiting = send(1);
    assert!(terminate_waiting_writer(&pg).await, "the writer waited");
    holder.rollback().await.unwrap();
    let (status, body) = waiting.await.unwrap().unwrap();
    assert_eq!(status, 201, "{body}");

    assert_eq!(
        events_stored(&pg, id).await,
        2,
        "the refused hand was not stored, the one sent again once"
    );
    let sessions = ledgers_equal_replay(&pg).await;
    assert_eq!(sessions, 1, "the ledger equals replay of its document");
    pg.close().await;
}

/// A change made while the instance cannot open a connection to send it (its role's
/// connection limit reached) reaches the other instance's sheets once a connection frees
/// up: the notification is sent again, not dropped.
#[tokio::test]
async fn a_notification_that_cannot_be_sent_yet_is_sent_once_a_connection_frees_up() {
    let Some(url) = postgres_database("instances_capped").await else {
        return;
    };
    let pg = sqlx::PgPool::connect(&url).await.unwrap();
    let role = format!("sk_capped_{}", std::process::id());
    for sql in [
        format!("DROP ROLE IF EXISTS {role}"),
        format!("CREATE ROLE {role} LOGIN"),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&pg)
            .await
            .unwrap();
    }
    // The same database as this role: postgres://user@host/db → postgres://role@host/db.
    let (scheme, rest) = url.split_once("://").unwrap();
    let host_db = rest.split_once('@').map_or(rest, |(_, h)| h);
    let as_role = format!("{scheme}://{role}@{host_db}");
    let (one, two) = (Watchers::default(), Watchers::default());
    one.relay_through(&as_role).await.unwrap();
    two.relay_through(&as_role).await.unwrap();
    let mut on_two = two.watch(SessionId(7)).unwrap();
    assert!(two.relayed(SessionId(7)).await);
    // Two listening connections are all the role may hold: instance one cannot send.
    let cap = format!("ALTER ROLE {role} CONNECTION LIMIT 2");
    sqlx::query(sqlx::AssertSqlSafe(cap))
        .execute(&pg)
        .await
        .unwrap();
    one.changed(SessionId(7));
    // Longer than the sender waits for a connection: its first try fails.
    assert!(
        !woken(&mut on_two, 3_000).await,
        "nothing can be sent while the role is at its limit"
    );
    let lift = format!("ALTER ROLE {role} CONNECTION LIMIT -1");
    sqlx::query(sqlx::AssertSqlSafe(lift))
        .execute(&pg)
        .await
        .unwrap();
    assert!(
        woken(&mut on_two, 5_000).await,
        "the change reaches the other instance once a connection is free"
    );
    drop((one, two, on_two));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let terminate =
        format!("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{role}'");
    sqlx::query(sqlx::AssertSqlSafe(terminate))
        .execute(&pg)
        .await
        .unwrap();
    let _ = sqlx::query(sqlx::AssertSqlSafe(format!("DROP ROLE IF EXISTS {role}")))
        .execute(&pg)
        .await;
    pg.close().await;
}
