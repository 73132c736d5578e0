//! The session downloads written as they are read (the document, the journal, the postings
//! CSV) are byte for byte what the builders of the whole answer write: every golden case
//! (`golden.rs` calls [`downloads_differ`]) and a club of every game, each session longer
//! than a page, with a correction, voids and a hand entered after an undo; and the chart's
//! points, folded a page at a time, are those of the session folded whole.

use crate::common;

use common::TestApp;
use common::hands;
use scorekeeper::export;
use scorekeeper::export::running::{RunningBalances, running_balances};
use scorekeeper::ids::{ClubId, SessionId};
use scorekeeper::service::clubs::{ClientKey, LoginLimits, create_club};
use scorekeeper::service::{self, Folds};
use serde_json::{Value, json};

/// What the builders of the whole answer write for session `id`: the document, the journal,
/// the postings CSV and the ledger (whole and after its first event).
async fn built(app: &TestApp, id: i64) -> [(&'static str, Vec<u8>); 5] {
    let folds = Folds::new(4);
    let id = SessionId(id);
    let record = export::club::session(app.pool.reader(), &folds, id)
        .await
        .unwrap();
    let ledger = |after| async move {
        let folds = Folds::new(4);
        let (_, json) = service::stored_ledger(app.pool.reader(), &folds, id, after)
            .await
            .unwrap()
            .expect("every entry is stored");
        json.into_bytes()
    };
    [
        ("ledger", ledger(None).await),
        ("ledger?after=1", ledger(Some(1)).await),
        ("export", serde_json::to_vec(&record.doc).unwrap()),
        (
            "journal",
            export::journal(std::slice::from_ref(&record)).into_bytes(),
        ),
        ("postings.csv", export::postings_csv(&record).unwrap()),
    ]
}

/// How session `id`'s downloads, read with `token` if given, differ from what the builders
/// write: one line per download that differs, none when all three are the same bytes.
pub(crate) async fn downloads_differ(app: &TestApp, id: i64, token: Option<&str>) -> Vec<String> {
    let bearer = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = bearer
        .as_deref()
        .map(|b| vec![("authorization", b)])
        .unwrap_or_default();
    let mut differ = Vec::new();
    for (path, want) in built(app, id).await {
        let reply = app
            .get_with(&format!("/api/v1/sessions/{id}/{path}"), &headers)
            .await;
        if reply.status != 200 || reply.body.as_bytes() != want.as_slice() {
            let want = String::from_utf8_lossy(&want);
            let at = reply
                .body
                .bytes()
                .zip(want.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(reply.body.len().min(want.len()));
            differ.push(format!(
                "session {id} {path}: {} and {} bytes, built {} bytes, first difference at {at}",
                reply.status,
                reply.body.len(),
                want.len()
            ));
        }
    }
    differ
}

/// A new club: its id and write token.
async fn club(app: &TestApp) -> (ClubId, String) {
    let (club, token) = create_club(
        &app.pool,
        &LoginLimits::new(),
        ClientKey::of(None),
        "Streamed",
        "a long enough passphrase",
    )
    .await
    .unwrap();
    (club.id, token)
}

#[tokio::test]
async fn a_store_error_midway_breaks_the_transfer_instead_of_ending_it() {
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let app = TestApp::new().await;
    let (game, players, agreements) = hands::games().remove(1);
    // Longer than a page (500 events): the body comes in two chunks at least.
    let doc = hands::session(game, players, &agreements, 700);
    let (club, token) = club(&app).await;
    let doc = serde_json::from_value(doc).unwrap();
    let id = service::import(&app.pool, &doc, Some(club)).await.unwrap();
    let request = Request::get(format!("/api/v1/sessions/{id}/journal"))
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), 200);
    let mut body = response.into_body();
    let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
    assert!(first.starts_with(export::JOURNAL_HEAD.as_bytes()));
    // The next page's read fails in the store: the body ends in an error, not early.
    app.exec("DROP TABLE ledger_entries").await.unwrap();
    let next = body.frame().await;
    assert!(matches!(next, Some(Err(_))), "the body went on: {next:?}");
}

/// The chart's points as they were computed from session `id` folded whole: a point at the
/// start and after every row that moved money, one series per player by name.
async fn charted_from_the_whole_fold(app: &TestApp, id: SessionId) -> RunningBalances {
    let loaded = service::load(app.pool.reader(), &Folds::new(4), id)
        .await
        .unwrap();
    let players: Vec<String> = (loaded.fold.balances().as_map().keys())
        .filter(|a| !scorekeeper::ledger::HOUSE.contains(&a.as_str()))
        .cloned()
        .collect();
    let mut labels = vec!["start".to_string()];
    let mut running = vec![0i64; players.len()];
    let mut series: Vec<Vec<i64>> = vec![vec![0]; players.len()];
    for row in loaded.fold.rows().iter().filter(|r| !r.postings.is_empty()) {
        labels.push(match (row.hand_number, row.index) {
            (Some(n), _) => format!("hand {n}"),
            (None, None) => "ante".into(),
            (None, Some(_)) => row.kind.words(),
        });
        for (i, p) in players.iter().enumerate() {
            let moved: i64 = (row.postings.iter())
                .filter(|q| &q.account == p)
                .map(|q| q.amount.cents())
                .sum();
            running[i] += moved;
            series[i].push(running[i]);
        }
    }
    RunningBalances {
        labels,
        series: players.into_iter().zip(series).collect(),
        currency: loaded.doc.currency.clone(),
    }
}

/// A session of `game` longer than a download's page (500 events): the hands of its long
/// session, then a correction, a void reaching back, an undo of the last hand, the hand
/// dealt again, and a payment.
fn long_session(game: &str, players: &[&str], agreements: &Value) -> Value {
    let hands_played = 520;
    let mut doc = hands::session(game, players, agreements, hands_played);
    let n = players.len();
    let events = doc["events"].as_array_mut().unwrap();
    // A replacement dealt by the same dealer: the hand four rounds later.
    events.push(json!({"type": "correction", "event": 10,
        "replacement": hands::hand(game, players, 10 + 4 * n), "reason": "misread"}));
    events.push(json!({"type": "void", "event": 2}));
    events.push(json!({"type": "void", "event": hands_played - 1}));
    events.push(hands::hand(game, players, hands_played - 1 + 4 * n));
    events.push(json!({"type": "payment", "from": players[0], "to": players[1], "amount": "1.25"}));
    doc
}

#[tokio::test]
async fn a_club_of_every_game_downloads_the_bytes_its_builders_write() {
    let app = TestApp::new().await;
    let (club, token) = club(&app).await;
    let mut differ = Vec::new();
    for (game, players, agreements) in hands::games() {
        let doc = serde_json::from_value(long_session(game, players, &agreements)).unwrap();
        let id = scorekeeper::service::import(&app.pool, &doc, Some(club))
            .await
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        differ.extend(downloads_differ(&app, id.0, Some(&token)).await);
        let chart = running_balances(app.pool.reader(), &Folds::new(4), id)
            .await
            .unwrap();
        if chart != charted_from_the_whole_fold(&app, id).await {
            differ.push(format!("{game}: the chart's points"));
        }
    }
    let sessions = export::club::club_sessions(app.pool.reader(), &Folds::new(4), club)
        .await
        .unwrap();
    let found = service::clubs::club(app.pool.reader(), club).await.unwrap();
    let whole = export::club::export_club(&app.pool, &Folds::new(4), &found)
        .await
        .unwrap();
    let built = [
        ("export", serde_json::to_vec(&whole).unwrap()),
        ("results.csv", export::results_csv(&sessions).unwrap()),
        ("journal", export::journal(&sessions).into_bytes()),
    ];
    for (path, want) in built {
        let uri = format!("/api/v1/clubs/{club}/{path}");
        let reply = app
            .get_with(&uri, &[("authorization", &format!("Bearer {token}"))])
            .await;
        if reply.body.as_bytes() != want.as_slice() {
            differ.push(format!("the club's {path}: {}", reply.status));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
