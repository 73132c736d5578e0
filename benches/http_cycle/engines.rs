//! The engines' rows (docs/benchmark.md, "PostgreSQL beside SQLite"): the same club sessions served
//! from SQLite and from PostgreSQL, PostgreSQL by one instance and by two `scorekeeper
//! serve` processes on one database (`--instances 2`, the clients split between them). Per
//! engine and number of instances: the record rate alone at the most clients and the
//! longest history, and the record + `GET …/standing` cycle at the shortest and the longest
//! history, at the most clients. Every row's servers are started first and measured in
//! turns round after round, as the cycles of the main table are, so a disturbance of the
//! machine slows every engine alike.
//!
//! Each row has a database of its own, made before the clock: the sessions are imported
//! into one club of an SQLite database once per history length ([`super::club_database`]),
//! and each row gets a copy of it, a copy of the file for SQLite and `scorekeeper copy`
//! ([`scorekeeper::copy::copy`], every ledger checked against replay) into a new database
//! of the server for PostgreSQL; the databases made there are dropped at the end.
//!
//! Each row also charges its recorded hands with the CPU time used while its clients ran
//! ([`super::cpu`]): by the PostgreSQL server (its postmaster and every process of it, when
//! it runs on this machine) and by the row's `scorekeeper serve` processes. What the server
//! does meanwhile for no row (its checkpointer, autovacuum) falls on the row it happens in.

use std::path::Path;
use std::time::Duration;

use sqlx::{Connection, PgConnection};

use super::cpu::{self, Snapshot};
use super::{BUSY, Game, Plan, Read, Run, club_database, load, percentile, verdict};

/// The variable naming the PostgreSQL server the rows make their databases on, as a URL of
/// any database on it (`.ci/postgres start` prints one); `--postgres URL` wins over it.
pub const PG_URL: &str = "HTTP_CYCLE_PG_URL";

/// The one line printed instead of the PostgreSQL rows when no server is given.
pub const NOT_MEASURED: &str = "PostgreSQL rows not measured: no server given (--postgres URL or HTTP_CYCLE_PG_URL; `.ci/postgres start DIR PORT` prints one)";

/// The PostgreSQL server of the rows: `--postgres URL`, else [`PG_URL`]; `None` without.
pub fn postgres_server() -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--postgres")
        .and_then(|i| args.get(i + 1).cloned())
        .or_else(|| std::env::var(PG_URL).ok())
}

/// One row: its engine, number of instances, what its clients do, and what was measured.
struct Row {
    engine: &'static str,
    instances: usize,
    read: Read,
    /// The hands each client records per round.
    per_round: usize,
    run: Run,
    best: f64,
    times: Vec<Duration>,
    /// The hands recorded in the measured rounds, one per cycle.
    hands: usize,
    /// The CPU time the PostgreSQL server used while this row's clients ran.
    pg_cpu: Duration,
    /// The part of `pg_cpu` that served no client connection (background processes).
    pg_background: Duration,
    /// The CPU time this row's `scorekeeper serve` processes used while its clients ran.
    service_cpu: Duration,
}

impl Row {
    /// Charges the row with what its processes and the PostgreSQL server's (`postmaster`)
    /// used between `before` and `after`, a measured round of it.
    fn charge(&mut self, before: &Snapshot, after: &Snapshot, postmaster: Option<u32>) {
        let used = |pid: u32| after.tree(pid).saturating_sub(before.tree(pid));
        if let Some(pid) = postmaster.filter(|_| self.engine != "sqlite") {
            self.pg_cpu += used(pid);
            let background = after.background(pid);
            self.pg_background += background.saturating_sub(before.background(pid));
        }
        let run = &self.run;
        for server in std::iter::once(&run.server).chain(&run.twins) {
            self.service_cpu += used(server.child.id());
        }
    }

    /// `cpu` per recorded hand, in milliseconds.
    fn per_hand(&self, cpu: Duration) -> f64 {
        cpu.as_secs_f64() * 1000.0 / self.hands as f64
    }
}

/// The CPU a PostgreSQL server may spend on a recorded hand, in milliseconds: with the
/// service's own share, what lets one core of each carry the busiest club nights.
const PG_CPU_PER_HAND_MS: f64 = 0.5;

/// Measures and prints the rows: SQLite with one instance, and with a PostgreSQL server
/// ([`postgres_server`]) PostgreSQL with one and with two; without one, [`NOT_MEASURED`].
/// Returns the target line of PostgreSQL's CPU per hand when it was measured.
pub async fn rows(plan: &Plan) -> Option<String> {
    let game = plan
        .games
        .iter()
        .find(|g| g.id == "auction_pitch")
        .or(plan.games.first())
        .expect("a game to play");
    let server = postgres_server();
    println!(
        "engines: {} club sessions, {} clients split evenly between the instances, a database per row; per s the best of {} rounds ({RECORDS} records alone or {} record + standing cycles per client each), p50 over all rounds",
        game.id,
        plan.most_clients(),
        plan.rounds,
        plan.cycles
    );
    let mut postmaster = None;
    if let Some(server) = &server {
        println!("{}", raw_postgres(server).await);
        postmaster = postmaster_of(server).await;
        if postmaster.is_none() {
            println!("PostgreSQL's CPU not measured: its server runs on another machine");
        }
    }
    let mut setups = vec![("sqlite", 1)];
    if server.is_some() {
        setups.extend([("postgresql", 1), ("postgresql", 2)]);
    }
    let (mut rows, made) = start(plan, game, server.as_deref(), &setups).await;
    for _ in 0..plan.rounds {
        for row in rows.iter_mut() {
            let before = Snapshot::take();
            let (rate, times) = load(&mut row.run, row.per_round, row.read).await;
            row.charge(&before, &Snapshot::take(), postmaster);
            row.best = row.best.max(rate);
            row.hands += times.len();
            row.times.extend(times);
        }
    }
    print(&rows, plan.most_clients(), postmaster.is_some());
    let target = postmaster.and(target(&rows));
    drop(rows); // every server stopped, so their databases can go
    match &server {
        Some(server) => drop_databases(server, &made).await,
        None => println!("{NOT_MEASURED}"),
    }
    target
}

/// The PostgreSQL target's line: the CPU per hand of the 1-instance row that spent the
/// most, against [`PG_CPU_PER_HAND_MS`]; `None` without PostgreSQL rows.
fn target(rows: &[Row]) -> Option<String> {
    let row = rows
        .iter()
        .filter(|r| r.engine == "postgresql" && r.instances == 1)
        .max_by(|a, b| a.per_hand(a.pg_cpu).total_cmp(&b.per_hand(b.pg_cpu)))?;
    let ms = row.per_hand(row.pg_cpu);
    Some(format!(
        "{} PostgreSQL CPU per hand ≤ {PG_CPU_PER_HAND_MS} ms: {ms:.3} ms (1 instance, its costliest row: {} at {} hands)",
        verdict(ms <= PG_CPU_PER_HAND_MS),
        cycle_name(row.read),
        row.run.hands
    ))
}

/// The process id of the postmaster of the PostgreSQL `server`: the parent of a backend
/// of it, if that backend is a `postgres` process of this machine.
async fn postmaster_of(server: &str) -> Option<u32> {
    let mut conn = PgConnection::connect(server).await.unwrap();
    let backend: i32 = sqlx::query_scalar("SELECT pg_backend_pid()")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    // Read while the backend lives: it ends with the connection.
    let postmaster = cpu::parent_if(u32::try_from(backend).ok()?, "postgres");
    conn.close().await.unwrap();
    postmaster
}

/// Every row of `setups` (engine, instances) started: the record rate alone at the longest
/// history, the cycle at the shortest and the longest, each on its own copy of the club
/// database of its length; and the URLs of the databases made on the PostgreSQL `server`.
async fn start(
    plan: &Plan,
    game: &Game,
    server: Option<&str>,
    setups: &[(&'static str, usize)],
) -> (Vec<Row>, Vec<String>) {
    let (short, long, clients) = (plan.shortest(), plan.longest(), plan.most_clients());
    let mut templates = Vec::new();
    for hands in [short, long] {
        let tag = format!("engines-{hands}");
        templates.push((
            hands,
            club_database(&plan.dir, &tag, game, hands, clients).await,
        ));
    }
    let kinds = [
        (Read::Nothing, long),
        (Read::Standing, short),
        (Read::Standing, long),
    ];
    let (mut rows, mut made) = (Vec::new(), Vec::new());
    for &(engine, instances) in setups {
        for (read, hands) in kinds {
            let (_, (template, token, ids)) = templates.iter().find(|t| t.0 == hands).unwrap();
            let name = format!("{engine}{instances}_{}", rows.len());
            let url = match server.filter(|_| engine != "sqlite") {
                None => copy_file(&plan.dir, template, &name),
                Some(server) => copy_to_postgres(server, template, &name).await,
            };
            if engine != "sqlite" {
                made.push(url.clone());
            }
            let club = (url, token.clone(), ids.clone());
            rows.push(Row {
                engine,
                instances,
                read,
                per_round: if read == Read::Nothing {
                    RECORDS
                } else {
                    plan.cycles
                },
                run: Run::serve(game, hands, club, instances).await,
                best: 0.0,
                times: Vec::new(),
                hands: 0,
                pg_cpu: Duration::ZERO,
                pg_background: Duration::ZERO,
                service_cpu: Duration::ZERO,
            });
        }
    }
    (rows, made)
}

/// The records each client sends per round in a row of the record rate alone, as the main
/// record rates do.
const RECORDS: usize = 100;

/// What a row's clients do, as its line names it.
fn cycle_name(read: Read) -> &'static str {
    match read {
        Read::Nothing => "record alone",
        _ => "record + standing",
    }
}

/// Prints the rows under their header, and the busy answers if there were any; the
/// PostgreSQL server's CPU per hand if it was measured (`pg_cpu`).
fn print(rows: &[Row], clients: usize, pg_cpu: bool) {
    let busy = BUSY.swap(0, std::sync::atomic::Ordering::Relaxed);
    if busy > 0 {
        println!(
            "  {busy} requests answered 503 busy (reads left out of the times, records sent again)"
        );
    }
    println!(
        "{:>12} {:>9} {:>7} {:>7}  {:<18} {:>10} {:>9} {:>11} {:>9} {:>11}",
        "engine",
        "instances",
        "hands",
        "clients",
        "cycle",
        "per s",
        "p50 ms",
        "pg ms/hand",
        "of it bg",
        "svc ms/hand"
    );
    for row in rows {
        let mut times = row.times.clone();
        times.sort();
        let (pg, bg) = match row.engine {
            "postgresql" if pg_cpu => (
                format!("{:.3}", row.per_hand(row.pg_cpu)),
                format!("{:.3}", row.per_hand(row.pg_background)),
            ),
            _ => ("-".to_string(), "-".to_string()),
        };
        println!(
            "{:>12} {:>9} {:>7} {clients:>7}  {:<18} {:>10.1} {:>9.2} {pg:>11} {bg:>9} {:>11.3}",
            row.engine,
            row.instances,
            row.run.hands,
            cycle_name(row.read),
            row.best,
            percentile(&times, 0.5),
            row.per_hand(row.service_cpu),
        );
    }
    println!(
        "  pg ms/hand: CPU of the PostgreSQL server's processes per recorded hand, of it bg: of those serving no connection (autovacuum, checkpointer, WAL writer); svc ms/hand: of the row's scorekeeper processes (over the measured rounds)"
    );
}

/// A copy of the SQLite database `template` (`sqlite://PATH`, closed) in `dir` named after
/// `name`: its URL. The write-ahead log goes along if one was left.
fn copy_file(dir: &Path, template: &str, name: &str) -> String {
    let from = template.trim_start_matches("sqlite://");
    let to = dir.join(format!("{name}.db"));
    for suffix in ["", "-wal"] {
        let source = format!("{from}{suffix}");
        if Path::new(&source).exists() {
            std::fs::copy(&source, format!("{}{suffix}", to.display())).unwrap();
        }
    }
    format!("sqlite://{}", to.display())
}

/// A new database on the PostgreSQL `server` holding the SQLite database `template`, moved
/// by `scorekeeper copy` (ids kept, so the club's token and the sessions are the same): its
/// URL.
async fn copy_to_postgres(server: &str, template: &str, name: &str) -> String {
    let database = format!("bench_{name}_{}", std::process::id());
    let url = scorekeeper::store::postgres::fresh_database(server, &database)
        .await
        .unwrap_or_else(|e| panic!("a database on {server}: {e}"));
    scorekeeper::copy::copy(template, &url).await.unwrap();
    url
}

/// The databases `urls` dropped from `server`, their servers stopped.
async fn drop_databases(server: &str, urls: &[String]) {
    let mut admin = PgConnection::connect(server).await.unwrap();
    for url in urls {
        let name = url.rsplit('/').next().unwrap().split('?').next().unwrap();
        // A name this file made (`bench_…`, checked plain by `fresh_database`).
        let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(&mut admin)
            .await
            .unwrap();
    }
    admin.close().await.unwrap();
}

/// The raw rate of single-row commits on a new database of `server` (one `INSERT` per
/// transaction, one connection: what one commit costs there) and the server's durability
/// settings, as one line: beside SQLite's raw rate, it says what the rows' commits cost.
async fn raw_postgres(server: &str) -> String {
    let database = format!("bench_raw_{}", std::process::id());
    let url = scorekeeper::store::postgres::fresh_database(server, &database)
        .await
        .unwrap_or_else(|e| panic!("a database on {server}: {e}"));
    let mut conn = PgConnection::connect(&url).await.unwrap();
    let show = |setting: &'static str| format!("SELECT current_setting('{setting}')");
    let mut settings = Vec::new();
    for setting in ["server_version", "fsync", "synchronous_commit"] {
        let value: String = sqlx::query_scalar(sqlx::AssertSqlSafe(show(setting)))
            .fetch_one(&mut conn)
            .await
            .unwrap();
        settings.push(format!("{setting}={value}"));
    }
    sqlx::query(
        "CREATE TABLE t (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body TEXT NOT NULL)",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    let rate = commit_rate!(conn, "INSERT INTO t (body) VALUES ($1)", 2_000);
    drop_databases(server, &[url]).await;
    format!(
        "raw PostgreSQL: {rate:.0} single-row commits/s (one connection; {})",
        settings.join(", ")
    )
}
