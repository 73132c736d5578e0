//! Four instances on one database under a connection cap: the cap of a server started with
//! `max_connections=20`, emulated by a role whose `CONNECTION LIMIT` is what that leaves a
//! role that is not a superuser (20 less `superuser_reserved_connections`, 3), the
//! instances run as docs/postgres.md says for it (`--readers 1`: 4 × (1 + 3) = 16). Eight
//! writers spread over the four, a live sheet of each session open on another instance.
//! Under the load, as when other clients of the server take the rest of its connections,
//! the cap is squeezed to half what the instances hold and every connection of theirs cut;
//! given back; then squeezed to what they hold less the connections sending notifications,
//! which are cut for longer than a send waits, so notifications fail; given back as the load
//! stops. Then every instance answers a read and a write within 2 s of the load stopping,
//! and every sheet hears of its session's last hand (a failed notification is sent again).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::{Duration, Instant};

use super::{Post, Served, Tally, acknowledged_until, runs_here, served, until_acknowledged};
use crate::common;
use crate::instances::{events_stored, ledgers_equal_replay, open_live};
use common::engines::postgres_database;
use common::process::{Sent, exchange, hand, new_club, new_session};
use tokio::io::AsyncReadExt;

/// Connections the instances' role may hold: `max_connections=20` less the 3 reserved.
const LIMIT: u32 = 17;
/// Instances, and writers (each on its own session).
const INSTANCES: usize = 4;
const WRITERS: usize = 8;
/// When, within the load, the role's limit is squeezed and its connections cut (from,
/// until); when the connections sending notifications are cut, and for how long: longer
/// than a send waits for a connection (2 s, `web::live`'s relay), so that sends fail.
const CUT: (Duration, Duration) = (Duration::from_millis(800), Duration::from_millis(1_600));
const SENDERS: Duration = Duration::from_millis(2_400);
const SENDERS_OUT: Duration = Duration::from_millis(2_600);
/// The connections four instances hold in use: per instance its reader, its writer, its
/// listening and its sending connection.
const HELD: i64 = 16;
/// The squeezed cap: half the connections the four instances hold.
const SQUEEZE: u32 = 8;

/// Runs `sql` on `pg` as written (names made by the test, nothing from outside).
async fn run(pg: &sqlx::PgPool, sql: String) -> Result<(), sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .execute(pg)
        .await
        .map(|_| ())
}

/// A role capped at [`LIMIT`] connections owning the database at `url` (so it runs the
/// migrations): its URL of that database, and its name.
async fn capped_role(pg: &sqlx::PgPool, url: &str) -> (String, String) {
    let role = format!("sk_cap_{}", std::process::id());
    let database = url.rsplit('/').next().unwrap();
    run(pg, format!("DROP ROLE IF EXISTS {role}"))
        .await
        .unwrap();
    let create = format!("CREATE ROLE {role} LOGIN CONNECTION LIMIT {LIMIT}");
    run(pg, create).await.unwrap();
    let own = format!("ALTER DATABASE {database} OWNER TO {role}");
    run(pg, own).await.unwrap();
    run(pg, format!("GRANT ALL ON SCHEMA public TO {role}"))
        .await
        .unwrap();
    let (scheme, rest) = url.split_once("://").unwrap();
    let host_db = rest.split_once('@').map_or(rest, |(_, h)| h);
    (format!("{scheme}://{role}@{host_db}"), role)
}

/// The event count of session `id` read through `port` (again after a refusal), as a page
/// reads it when its sheet says the session changed; `None` if the instance gave no
/// answer (a fault, counted).
async fn event_count(port: u16, token: &str, id: i64, tally: &Tally) -> Option<i64> {
    let bearer = format!("Bearer {token}");
    let path = format!("/api/v1/sessions/{id}/standing");
    loop {
        let headers = [("Authorization", bearer.as_str())];
        let sent = Sent {
            headers: &headers,
            content_type: "application/json",
            body: b"",
        };
        let answer = exchange(port, "GET", &path, sent).await;
        if tally.counted(&answer, 200, &format!("GET {path}")) {
            let standing: serde_json::Value = serde_json::from_str(&answer.unwrap().body).unwrap();
            return standing["event_count"].as_i64();
        }
        if answer.is_err() || !tally.faults().is_empty() {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A live sheet of session `id` opened on `port`, kept as its page keeps it: at every
/// `changed` event the session's count is read again; the highest count read so far.
async fn open_sheet(port: u16, token: String, id: i64, tally: Arc<Tally>) -> Arc<AtomicI64> {
    let (mut sheet, seen) = open_live(port, &token, id).await;
    let mut seen = String::from_utf8_lossy(&seen).into_owned();
    let mut buf = [0u8; 4096];
    let count = Arc::new(AtomicI64::new(0));
    let read = count.clone();
    tokio::spawn(async move {
        loop {
            if let Some(at) = seen.find("event: changed") {
                seen.drain(..at + "event: changed".len());
                let Some(now) = event_count(port, &token, id, &tally).await else {
                    return;
                };
                read.fetch_max(now, Ordering::Relaxed);
                continue;
            }
            match sheet.read(&mut buf).await {
                Ok(n) if n > 0 => seen.push_str(&String::from_utf8_lossy(&buf[..n])),
                _ => return,
            }
        }
    });
    count
}

/// Hand `k` of session `id` through `port` with key `key`, sent until acknowledged.
fn api_hand(port: u16, token: &str, id: i64, k: usize, key: String) -> Post {
    Post {
        port,
        path: format!("/api/v1/sessions/{id}/events"),
        token: token.to_string(),
        key,
        content_type: "application/json",
        body: hand(k).to_string().into_bytes(),
        ok: 201,
    }
}

/// Writer `n`'s hands into session `id` until `stop`, hand k through instance
/// `(n + k) % 4` (each finds the session moved on by another): the hands acknowledged.
async fn writer(
    ports: Vec<u16>,
    token: String,
    (n, id): (usize, i64),
    stop: Arc<AtomicBool>,
    tally: Arc<Tally>,
) -> usize {
    acknowledged_until(&stop, &tally, |k| {
        let port = ports[(n + k) % ports.len()];
        api_hand(port, &token, id, k, format!("writer-{n}-hand-{k}"))
    })
    .await
}

/// Four instances on `url` as docs/postgres.md runs them under `max_connections=20`.
async fn four(url: &str) -> Vec<Served> {
    let options = ["--readers", "1", "--fold-cache", "1", "--instances", "4"];
    // The first runs the migrations; the others start together.
    let first = served(url, &options).await;
    let (b, c, d) = tokio::join!(
        served(url, &options),
        served(url, &options),
        served(url, &options)
    );
    vec![first, b, c, d]
}

/// Sets the role's connection limit to `limit` (`None`: as many as it holds less those
/// `cut`), then ends its connections whose last statement is like `cut` (`%`: all), so
/// the instances must connect again under the limit.
async fn set_cap(pg: &sqlx::PgPool, role: &str, limit: Option<u32>, cut: Option<&str>) {
    let limit = match limit {
        Some(limit) => i64::from(limit),
        None => {
            let sql = "SELECT COUNT(*) FROM pg_stat_activity WHERE usename = $1 \
                       AND query NOT LIKE $2";
            let held: i64 = sqlx::query_scalar(sql)
                .bind(role)
                .bind(cut.unwrap_or(""))
                .fetch_one(pg)
                .await
                .unwrap();
            held
        }
    };
    run(pg, format!("ALTER ROLE {role} CONNECTION LIMIT {limit}"))
        .await
        .unwrap();
    if let Some(cut) = cut {
        let sql = "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity \
                   WHERE usename = $1 AND query LIKE $2";
        sqlx::query(sql)
            .bind(role)
            .bind(cut)
            .execute(pg)
            .await
            .unwrap();
    }
}

/// What the load's other clients do to the server's connections: from [`CUT`] they hold
/// all but [`SQUEEZE`] of the role's, whose connections are all cut; then, once the limit
/// is given back and the instances hold all they use again (from [`SENDERS`], at most 8 s
/// in), all but those the instances hold besides their connections sending
/// notifications, which are cut, for [`SENDERS_OUT`]: longer than a send waits for a
/// connection, so sends fail, and the hands recorded meanwhile can be told to the other
/// instances only once the limit is given back, as the load stops. Returns the most
/// connections the role held at once.
async fn squeezes(pg: &sqlx::PgPool, role: &str) -> i64 {
    let (began, mut peak, mut step) = (Instant::now(), 0, 0);
    let mut senders_out = Instant::now();
    while step < 3 || senders_out.elapsed() < SENDERS_OUT {
        assert!(
            began.elapsed() < Duration::from_secs(8),
            "the instances held {peak} at most"
        );
        let sql = "SELECT COUNT(*) FROM pg_stat_activity WHERE usename = $1";
        let held: i64 = sqlx::query_scalar(sql)
            .bind(role)
            .fetch_one(pg)
            .await
            .unwrap();
        peak = peak.max(held);
        let at = began.elapsed();
        if step == 0 && at >= CUT.0 {
            set_cap(pg, role, Some(SQUEEZE), Some("%")).await;
            step = 1;
        } else if step == 1 && at >= CUT.1 {
            set_cap(pg, role, Some(LIMIT), None).await;
            step = 2;
        } else if step == 2 && at >= SENDERS && held == HELD {
            set_cap(pg, role, None, Some("%pg_notify%")).await;
            (step, senders_out) = (3, Instant::now());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    peak
}

/// The writers' load under [`squeezes`]: the hands each writer got acknowledged (all of
/// them once it stopped), the most connections the role held at once, and when the load
/// stopped (the limit given back).
async fn load(
    ports: &[u16],
    token: &str,
    ids: &[i64],
    (tally, pg, role): (&Arc<Tally>, &sqlx::PgPool, &str),
) -> (Vec<usize>, i64, Instant) {
    let stop = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(n, &id)| {
            let job = writer(
                ports.to_vec(),
                token.to_string(),
                (n, id),
                stop.clone(),
                tally.clone(),
            );
            tokio::spawn(job)
        })
        .collect();
    let peak = squeezes(pg, role).await;
    // The writers stop while no notification can be sent: their last hands are told only
    // once the limit is given back.
    stop.store(true, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(300)).await;
    set_cap(pg, role, Some(LIMIT), None).await;
    let stopped = Instant::now();
    let mut acknowledged = Vec::new();
    for w in writers {
        acknowledged.push(w.await.unwrap());
    }
    (acknowledged, peak, stopped)
}

/// Each instance `i` reads session `i`'s standing and records its next hand, at once: how
/// long after the load `stopped` each had done both.
async fn probes(
    ports: &[u16],
    token: &str,
    ids: &[i64],
    (next, stopped): (&[usize], Instant),
    tally: &Tally,
) -> Vec<Duration> {
    let answered = ports.iter().enumerate().map(|(i, &port)| async move {
        let post = api_hand(port, token, ids[i], next[i], format!("probe-{i}"));
        let (read, ()) = tokio::join!(
            event_count(port, token, ids[i], tally),
            until_acknowledged(&post, tally)
        );
        assert!(read.is_some(), "instance {i} read nothing");
        stopped.elapsed()
    });
    futures_util::future::join_all(answered).await
}

/// Whether every sheet's count reaches its session's within 5 s (a change that could not be
/// told is told again every second).
async fn heard(sheets: &[Arc<AtomicI64>], expected: &[i64]) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let now: Vec<i64> = sheets.iter().map(|s| s.load(Ordering::Relaxed)).collect();
        if now == expected {
            return true;
        }
        if Instant::now() > deadline {
            eprintln!("the sheets read {now:?}, the sessions hold {expected:?}");
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Gives the database back to the test's user and drops the role.
async fn drop_role(pg: &sqlx::PgPool, role: &str) {
    let sql =
        format!("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{role}'");
    let _ = run(pg, sql).await;
    let _ = run(pg, format!("REASSIGN OWNED BY {role} TO CURRENT_USER")).await;
    let _ = run(pg, format!("DROP OWNED BY {role}")).await;
    let _ = run(pg, format!("DROP ROLE IF EXISTS {role}")).await;
}

/// Four instances under the cap `max_connections=20` leaves them: every answer under load
/// a success or a 503 with `Retry-After`; within 2 s of the load stopping every instance
/// answers a read and records a hand; every live sheet hears of its session's last hand;
/// every hand is stored once and every ledger is replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn four_instances_under_a_connection_cap_answer_within_2_s_of_the_load_and_drop_no_change() {
    if !runs_here() {
        return;
    }
    let began = Instant::now();
    let url = postgres_database("pg_faults_cap").await.unwrap();
    let pg = sqlx::PgPool::connect(&url).await.unwrap();
    let (as_role, role) = capped_role(&pg, &url).await;
    let instances = four(&as_role).await;
    let ports: Vec<u16> = instances.iter().map(|i| i.port).collect();
    let token = new_club(ports[0], "Capped club").await;
    let (mut ids, mut sheets) = (Vec::new(), Vec::new());
    let tally = Arc::new(Tally::default());
    for n in 0..WRITERS {
        let id = new_session(ports[n % INSTANCES], &token).await;
        let on = ports[(n + 1) % INSTANCES];
        sheets.push(open_sheet(on, token.clone(), id, tally.clone()).await);
        ids.push(id);
    }
    let (acknowledged, peak, stopped) = load(&ports, &token, &ids, (&tally, &pg, &role)).await;
    let times = probes(&ports, &token, &ids, (&acknowledged, stopped), &tally).await;
    let expected: Vec<i64> = (0..WRITERS)
        .map(|n| (acknowledged[n] + usize::from(n < INSTANCES)) as i64)
        .collect();
    let all_heard = heard(&sheets, &expected).await;
    let heard_in = stopped.elapsed();
    eprintln!(
        "cap {LIMIT}, {SQUEEZE} from {:?} to {:?}, senders cut from {SENDERS:?} for {SENDERS_OUT:?}: hands {acknowledged:?}, answers {:?}, the role's connections at most {peak}, \
         the instances answered in {times:?} after the load, the sheets had heard by {heard_in:?}, {:?} in all",
        CUT.0,
        CUT.1,
        tally.statuses(),
        began.elapsed()
    );
    assert!(tally.faults().is_empty(), "{:#?}", tally.faults());
    assert!(
        peak > INSTANCES as i64 && peak <= i64::from(LIMIT),
        "they ran as the role"
    );
    assert!(
        times.iter().all(|t| *t <= Duration::from_secs(2)),
        "{times:?}"
    );
    assert!(all_heard, "a sheet missed its session's last change");
    for (n, &id) in ids.iter().enumerate() {
        let stored = events_stored(&pg, id).await;
        assert_eq!(stored, expected[n], "session {id}: every hand once");
    }
    let sessions = ledgers_equal_replay(&pg).await;
    assert_eq!(sessions, WRITERS, "every ledger equals replay");
    drop(instances);
    drop_role(&pg, &role).await;
    pg.close().await;
}
