//! Two service processes whose read connections go through Debian's PgBouncer in
//! transaction mode (`--read-url`; docs/postgres.md, "Behind PgBouncer"), the writers and
//! the relay on the server directly. Needs `SCOREKEEPER_TEST_DATABASE_URL` and
//! `/usr/sbin/pgbouncer`; under CI a missing one fails the test, elsewhere it is skipped
//! with a note.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use crate::instances::{Instance, ledgers_equal_replay, live_sheet_on_the_other, writer};
use common::engines::postgres_database;
use common::process::{free_port, new_club, new_session, request, serve};

/// Debian's PgBouncer (package `pgbouncer`), 1.18 on bookworm.
const PGBOUNCER: &str = "/usr/sbin/pgbouncer";

/// The variable naming another PgBouncer binary (`.ci/run` names a missing one to show
/// that CI then fails).
const PGBOUNCER_VAR: &str = "SCOREKEEPER_PGBOUNCER";

/// The PgBouncer binary to run: [`PGBOUNCER_VAR`]'s, or Debian's.
fn pgbouncer() -> PathBuf {
    std::env::var_os(PGBOUNCER_VAR).map_or_else(|| PathBuf::from(PGBOUNCER), PathBuf::from)
}

/// The server connections PgBouncer opens to the database at most: fewer than the two
/// instances' eight read connections, so that their transactions take turns on them.
const SERVER_CONNECTIONS: i64 = 2;

/// Whether PgBouncer is installed: a panic under CI when it is not (a green run means the
/// test ran), a note and `false` elsewhere.
fn pgbouncer_present() -> bool {
    let binary = pgbouncer();
    if binary.exists() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run the PgBouncer test: {} is missing (.ci/run installs pgbouncer)",
        binary.display()
    );
    eprintln!(
        "skipped: {} is missing (apt-get install pgbouncer)",
        binary.display()
    );
    false
}

/// A PgBouncer process and its folder; both gone when dropped.
struct Bouncer {
    child: Child,
    dir: PathBuf,
    port: u16,
    user: String,
}

impl Drop for Bouncer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Bouncer {
    /// The URL of the one database it serves.
    fn url(&self) -> String {
        format!("postgres://{}@127.0.0.1:{}/sk", self.user, self.port)
    }

    /// What it has logged so far.
    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("pgbouncer.log")).unwrap_or_default()
    }
}

/// The uid and gid of the `postgres` user (Debian's packages make it): PgBouncer refuses
/// to run as root.
fn postgres_user() -> (u32, u32) {
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap();
    let line = passwd
        .lines()
        .find(|l| l.starts_with("postgres:"))
        .expect("a postgres user (Debian's postgresql package makes it)");
    let fields: Vec<&str> = line.split(':').collect();
    (fields[2].parse().unwrap(), fields[3].parse().unwrap())
}

/// PgBouncer in transaction mode in front of the database `url` names (a
/// `postgres://USER@HOST:PORT/DATABASE` URL, trust authentication as `.ci/postgres`
/// makes), listening on 127.0.0.1, once it accepts connections.
async fn start_bouncer(url: &str) -> Bouncer {
    let (user, rest) = url["postgres://".len()..].split_once('@').unwrap();
    let (address, database) = rest.split_once('/').unwrap();
    let (host, server_port) = address.rsplit_once(':').unwrap();
    let port = free_port();
    let dir = std::env::temp_dir().join(format!("sk-pgbouncer-{port}"));
    std::fs::create_dir_all(&dir).unwrap();
    let users = dir.join("users.txt");
    std::fs::write(&users, format!("\"{user}\" \"\"\n")).unwrap();
    // sqlx sends `extra_float_digits` at start-up, which PgBouncer refuses unless told to
    // ignore it; the readers send no `options` (docs/postgres.md, "Behind PgBouncer").
    let ini = format!(
        "[databases]\nsk = host={host} port={server_port} dbname={database}\n\
         [pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n\
         auth_type = trust\nauth_file = {}\npool_mode = transaction\n\
         default_pool_size = {SERVER_CONNECTIONS}\nmax_client_conn = 100\n\
         ignore_startup_parameters = extra_float_digits\nlogfile = {}\n",
        users.display(),
        dir.join("pgbouncer.log").display()
    );
    let config = dir.join("pgbouncer.ini");
    std::fs::write(&config, ini).unwrap();
    let mut command = Command::new(pgbouncer());
    // Its log is the file's; it would also write every line to standard error.
    command
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if is_root() {
        let (uid, gid) = postgres_user();
        for path in [&dir, &users, &config] {
            std::os::unix::fs::chown(path, Some(uid), Some(gid)).unwrap();
        }
        command.uid(uid).gid(gid);
    }
    let bouncer = Bouncer {
        child: command.spawn().expect("pgbouncer starts"),
        dir,
        port,
        user: user.to_string(),
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "pgbouncer: {}", bouncer.log());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    bouncer
}

/// Whether this process runs as root (its files' owner is uid 0).
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self")
        .map(|m| m.uid() == 0)
        .unwrap_or(false)
}

/// A service on `url` sharing it with one other, reading through `read_url`.
async fn instance(url: &str, read_url: &str) -> Instance {
    let port = free_port();
    let options = ["--instances", "2", "--read-url", read_url];
    let child = serve(url, port, &options).await;
    Instance { port, child }
}

/// The standing of session `id` as read through `port`'s readers.
async fn standing(port: u16, token: &str, id: i64) -> serde_json::Value {
    let path = format!("/api/v1/sessions/{id}/standing");
    let (status, body) = request(port, "GET", &path, Some(token), None)
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// Two instances reading through PgBouncer in transaction mode, two server connections
/// for their eight readers: a live sheet on one sees a hand recorded on the other; four
/// sessions written at once through both have every hand, the standing the rules give read
/// alike through either, and every ledger equal to replay; PgBouncer served the readers.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_read_through_pgbouncer_in_transaction_mode() {
    let began = Instant::now();
    let Some(url) = postgres_database("pgbouncer_two").await else {
        return;
    };
    if !pgbouncer_present() {
        return;
    }
    let bouncer = start_bouncer(&url).await;
    let (one, two) = (
        instance(&url, &bouncer.url()).await,
        instance(&url, &bouncer.url()).await,
    );
    let token = new_club(one.port, "Behind the bouncer").await;
    live_sheet_on_the_other(&one, &two, &token).await;

    const HANDS: usize = 4;
    let mut ids = Vec::new();
    for n in 0..4 {
        ids.push(new_session([one.port, two.port][n % 2], &token).await);
    }
    let writers: Vec<_> = ids
        .iter()
        .map(|&id| tokio::spawn(writer([one.port, two.port], token.clone(), id, HANDS)))
        .collect();
    for w in writers {
        w.await.unwrap();
    }
    for &id in &ids {
        let (on_one, on_two) = (
            standing(one.port, &token, id).await,
            standing(two.port, &token, id).await,
        );
        assert_eq!(on_one, on_two, "session {id} read alike through either");
        // 4 hands of 300 made at a nickel: bidders B, C, A, B; each bidder takes 0.15
        // from each of the other two.
        assert_eq!(on_one["event_count"], HANDS, "session {id}");
        assert_eq!(
            on_one["balances"],
            serde_json::json!({"A": "-0.15", "B": "0.30", "C": "-0.15"}),
            "session {id}"
        );
    }
    let pg = sqlx::PgPool::connect(&url).await.unwrap();
    // Eight readers on two server connections: no reader reached the server directly.
    let readers: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
    )
    .bind(scorekeeper::store::postgres::READER_NAME)
    .fetch_one(&pg)
    .await
    .unwrap();
    assert!(
        (1..=SERVER_CONNECTIONS).contains(&readers),
        "{readers} reader backends"
    );
    assert_eq!(
        ledgers_equal_replay(&pg).await,
        5,
        "the 4 and the live sheet's: every ledger equals replay"
    );
    pg.close().await;

    let log = bouncer.log();
    assert!(
        log.matches("login attempt: db=sk").count() >= 2,
        "both instances' readers came through PgBouncer: {log}"
    );
    eprintln!("wall time {:?}", began.elapsed());
}

/// A reader through PgBouncer in transaction mode keeps what the direct path sets per
/// connection, now per lending: it refuses a write (25006) and waits at most 5 s for a lock;
/// and a lending whose statement failed (its transaction aborted) leaves the next lending
/// of the same connection working, statements with parameters included.
#[tokio::test]
async fn a_pooled_reader_is_read_only_and_survives_a_failed_statement() {
    let Some(url) = postgres_database("pgbouncer_reader").await else {
        return;
    };
    if !pgbouncer_present() {
        return;
    }
    let bouncer = start_bouncer(&url).await;
    let sizes = scorekeeper::store::PoolSettings {
        readers: 1,
        idle: Duration::from_secs(600),
    };
    let store = scorekeeper::store::open_reading_through(&url, Some(&bouncer.url()), sizes)
        .await
        .unwrap();
    for lending in 0..3_i64 {
        let scorekeeper::store::Pooled::Postgres(mut conn) =
            store.reader().acquire().await.unwrap()
        else {
            panic!("a PostgreSQL reader")
        };
        let show = |what: &'static str| sqlx::query_scalar::<_, String>(what);
        assert_eq!(
            show("SHOW transaction_read_only")
                .fetch_one(&mut *conn)
                .await
                .unwrap(),
            "on"
        );
        assert_eq!(
            show("SHOW lock_timeout")
                .fetch_one(&mut *conn)
                .await
                .unwrap(),
            "5s"
        );
        let echoed: i64 = sqlx::query_scalar("SELECT $1::BIGINT + 1")
            .bind(lending)
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(echoed, lending + 1, "lending {lending}");
        let refused = sqlx::query("INSERT INTO clubs (name) VALUES ($1)")
            .bind("written through a reader")
            .execute(&mut *conn)
            .await
            .unwrap_err();
        let code = refused.as_database_error().and_then(|e| e.code());
        assert_eq!(code.as_deref(), Some("25006"), "{refused}");
    }
    store.close().await;
}
