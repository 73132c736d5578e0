//! `scorekeeper copy --from sqlite://… --to postgres://…` moves a whole
//! database (open sessions of every game, a club with its history, a night and a
//! payment) into an empty PostgreSQL database, and every ledger there equals replay of the
//! session as it was entered. Needs `SCOREKEEPER_TEST_DATABASE_URL` (required under CI).

use crate::common;
use scorekeeper::ids::{NightId, SessionId};

use common::engines::postgres_database;
use common::nights::{make_night, pay_at_night, two_pitches};
use common::{TestApp, golden_fixtures};
use scorekeeper::format::{SessionDoc, replay};
use scorekeeper::store::{self, NewSession, nights};
use scorekeeper::web::{AppState, app};
use serde_json::{Map, Value};
use sqlx::PgPool;

/// Every golden case the rules accept, as (game, session document).
fn accepted_golden_sessions() -> Vec<(String, Value)> {
    let mut sessions = Vec::new();
    for registration in scorekeeper::registry::GAMES {
        let dir = golden_fixtures().join(registration.game.id);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for path in files {
            let case: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if case["expect"]["rejected"] != Value::Bool(true) {
                sessions.push((registration.game.id.to_string(), case["session"].clone()));
            }
        }
    }
    sessions
}

/// A service on a new SQLite file in the system's temporary folder: its URL and the app.
async fn app_on_file(name: &str) -> (String, TestApp) {
    let file = std::env::temp_dir().join(format!("sk-{name}-{}.db", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
    let url = format!("sqlite://{}", file.display());
    let pool = store::open(&url).await.unwrap();
    let app = TestApp {
        router: app(AppState::new(pool.clone())),
        pool,
        links: std::sync::Mutex::new(Vec::new()),
    };
    (url, app)
}

/// Each account's net in cents from the stored postings on PostgreSQL, zeros left out.
async fn pg_balances(pg: &PgPool, id: i64) -> Vec<(String, i64)> {
    let mut conn = pg.acquire().await.unwrap();
    let mut balances = store::balances(&mut conn, SessionId(id)).await.unwrap();
    balances.retain(|(_, cents)| *cents != 0);
    balances
}

/// Each account's net in cents by `replay` of `doc`, zeros left out.
fn replayed_balances(doc: &Value) -> Vec<(String, i64)> {
    let doc: SessionDoc = serde_json::from_value(doc.clone()).unwrap();
    let ledger = replay(&doc).unwrap();
    ledger
        .balances
        .iter()
        .map(|(account, money)| (account.clone(), money.cents()))
        .filter(|(_, cents)| *cents != 0)
        .collect()
}

/// What [`fill`] put in the source.
struct Filled {
    /// Every accepted golden case's session: its id and its document as entered.
    imported: Vec<(i64, Value)>,
    club: i64,
    /// The club's two Pitch sessions.
    pitches: (i64, i64),
    night: i64,
}

/// Open sessions of every game (every golden case the rules accept, imported), and a club
/// with its history: two Pitch sessions (Ann +2.80, Bob −1.60, Dee −1.20, then Bob +2.80,
/// Ann −1.60, Dee −1.20) grouped as one night, and Dee paying Ann 1.20 against it.
async fn fill(app: &TestApp) -> Filled {
    let golden = accepted_golden_sessions();
    let mut games: Vec<&str> = golden.iter().map(|(g, _)| g.as_str()).collect();
    games.dedup();
    assert_eq!(games.len(), scorekeeper::registry::GAMES.len(), "{games:?}");
    let mut imported = Vec::new();
    for (game, doc) in golden {
        let reply = app.post_json("/api/v1/sessions/import", &doc).await;
        assert_eq!(reply.status.as_u16(), 201, "{game}: {}", reply.body);
        imported.push((reply.json()["id"].as_i64().unwrap(), doc));
    }
    let (club, cookie) = app.new_club("Thursday Club").await;
    let (a, b) = two_pitches(app, club).await;
    let (night_page, night) = make_night(app, &cookie, club, &[a, b], "At Sal's").await;
    pay_at_night(app, &cookie, &night_page, ["0", "Dee", "Ann", "1.20"]).await;
    Filled {
        imported,
        club,
        pitches: (a, b),
        night,
    }
}

/// On PostgreSQL: the club's sessions by hand, the night's payment, and the totals the
/// target's triggers rebuilt (Ann +2.80 − 1.60 = +1.20 over two nights, Bob the same,
/// Dee −2.40).
async fn check_club(pg: &PgPool, filled: &Filled) {
    let cents = |v: &[(&str, i64)]| -> Vec<(String, i64)> {
        v.iter().map(|(n, c)| (n.to_string(), *c)).collect()
    };
    let (a, b) = filled.pitches;
    let want_a = cents(&[("Ann", 280), ("Bob", -160), ("Dee", -120)]);
    assert_eq!(pg_balances(pg, a).await, want_a);
    let want_b = cents(&[("Ann", -160), ("Bob", 280), ("Dee", -120)]);
    assert_eq!(pg_balances(pg, b).await, want_b);
    let mut conn = pg.acquire().await.unwrap();
    let payments = nights::payments_of(&mut conn, NightId(filled.night))
        .await
        .unwrap();
    assert_eq!(payments.len(), 1);
    let paid = &payments[0];
    assert_eq!((paid.payer.as_str(), paid.payee.as_str()), ("Dee", "Ann"));
    assert_eq!(paid.amount_cents, 120);
    let totals: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT player, nights, net_cents FROM player_totals WHERE club_id = $1 \
         AND game = 'auction_pitch' ORDER BY player",
    )
    .bind(filled.club)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    let expected = [("Ann", 2, 120), ("Bob", 2, 120), ("Dee", 2, -240)];
    let expected: Vec<(String, i64, i64)> = expected
        .iter()
        .map(|(p, n, c)| (p.to_string(), *n, *c))
        .collect();
    assert_eq!(totals, expected);
}

/// A session made on PostgreSQL after the copy: its id (the identity sequence's next).
async fn next_session_id(pg: &PgPool) -> i64 {
    let (players, agreements) = (["Ann".to_string(), "Bob".to_string()], Map::new());
    let new = NewSession {
        game: "two_handed_pinochle",
        currency: "USD",
        agreements: &agreements,
        opening_scores: None,
        players: &players,
        created_at: "2026-11-25T20:00:00Z".parse().unwrap(),
        club_id: None,
    };
    let mut conn = pg.acquire().await.unwrap();
    store::insert_session(&mut conn, &new).await.unwrap().0
}

#[tokio::test]
async fn a_whole_database_moves_to_postgresql_with_every_ledger_equal() {
    let Some(target) = postgres_database("copy_target").await else {
        return;
    };
    let (source, app) = app_on_file("copy-source").await;
    let filled = fill(&app).await;
    let copied = scorekeeper::copy::copy(&source, &target).await.unwrap();
    let sessions = filled.imported.len() + 2;
    assert_eq!(copied.rows("sessions"), i64::try_from(sessions).unwrap());
    assert_eq!(copied.sessions, sessions);
    assert_eq!(copied.rows("clubs"), 1);
    assert_eq!(copied.rows("nights"), 1);
    assert_eq!(copied.rows("night_payments"), 1);
    // Two sessions of three players each: six result rows of the club's history.
    assert_eq!(copied.rows("session_results"), 6);
    assert!(
        copied.rows("access_tokens") >= 1,
        "the club creator's login"
    );

    let pg = PgPool::connect(&target).await.unwrap();
    // Every open session's ledger on PostgreSQL is replay of the document as entered.
    for (id, doc) in &filled.imported {
        let replayed = replayed_balances(doc);
        assert_eq!(pg_balances(&pg, *id).await, replayed, "session {id}");
    }
    check_club(&pg, &filled).await;
    // The identity sequences moved past the copied ids: the next session is a new one.
    let last = filled.imported.iter().map(|(id, _)| *id).max().unwrap();
    let last = last.max(filled.pitches.1);
    assert_eq!(next_session_id(&pg).await, last + 1);
    pg.close().await;

    // The target is no longer empty: a second copy is refused, and nothing more written.
    let refused = scorekeeper::copy::copy(&source, &target).await.unwrap_err();
    assert!(
        refused.ends_with(
            "is not empty: its table clubs holds 1 row; copy into a new database (createdb)"
        ),
        "{refused}"
    );
}

/// The subcommand of the built binary: exit 0 and its summary on a fresh database; exit 1
/// and one line for a source that is not there.
#[tokio::test]
async fn the_copy_command_says_what_it_copied_and_checked() {
    let Some(target) = postgres_database("copy_command").await else {
        return;
    };
    let (source, app) = app_on_file("copy-command").await;
    let (club, _) = app.new_club("Friday Club").await;
    two_pitches(&app, club).await;
    let run = |from: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_scorekeeper"))
            .args(["copy", "--from", from, "--to", &target])
            .output()
            .unwrap()
    };
    let missing = run("sqlite:///nonexistent/sk.db");
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&missing.stderr),
        "scorekeeper copy: there is no database at /nonexistent/sk.db (--from)\n"
    );
    let done = run(&source);
    let out = String::from_utf8_lossy(&done.stdout);
    assert_eq!(
        done.status.code(),
        Some(0),
        "{out} {}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(
        out.contains(
            "every session's ledger equals replay of its export (2 sessions, 10 ledger entries)"
        ),
        "{out}"
    );
    assert!(
        out.contains("rows: clubs 1, club_players 3, sessions 2, seats 6, events 10,"),
        "{out}"
    );
}

/// A source whose stored ledger no longer equals replay (a posting moved by hand, past its
/// trigger: 1 cent from Bob to Ann at seq 4, the hand that ends the game and settles it:
/// Ann +2.81,
/// Bob −1.61, still summing to zero) is refused,
/// naming the session and seq, and the target keeps nothing.
#[tokio::test]
async fn a_ledger_that_differs_from_replay_is_refused_and_nothing_kept() {
    let Some(target) = postgres_database("copy_refused").await else {
        return;
    };
    let (source, app) = app_on_file("copy-refused").await;
    let (club, _) = app.new_club("Saturday Club").await;
    let (a, _) = two_pitches(&app, club).await;
    for sql in [
        "DROP TRIGGER postings_are_append_only_update",
        "UPDATE postings SET amount_cents = amount_cents + (CASE account WHEN 'Ann' THEN 1 ELSE -1 END) \
         WHERE account IN ('Ann', 'Bob') AND event_id = (SELECT id FROM events WHERE session_id = ? AND seq = 4)",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(a)
            .execute(
                app.pool
                    .sqlite()
                    .expect("the copy's source is an SQLite file"),
            )
            .await
            .unwrap();
    }
    let mut conn = app.pool.acquire().await.unwrap();
    let moved = store::balances(&mut conn, SessionId(a)).await.unwrap();
    assert_eq!(
        moved,
        [
            ("Ann".into(), 281),
            ("Bob".into(), -161),
            ("Dee".into(), -120)
        ]
    );
    drop(conn);
    let refused = scorekeeper::copy::copy(&source, &target).await.unwrap_err();
    assert!(
        refused.starts_with(&format!(
            "session {a}: the stored postings differ from replay of its export (from seq 4:"
        )),
        "{refused}"
    );
    let pg = PgPool::connect(&target).await.unwrap();
    for table in ["clubs", "sessions", "events", "postings", "player_totals"] {
        let sql = format!("SELECT COUNT(*) FROM {table}");
        let rows: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_one(&pg)
            .await
            .unwrap();
        assert_eq!(rows, 0, "{table}: nothing kept");
    }
    pg.close().await;
}
