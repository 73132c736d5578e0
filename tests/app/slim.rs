//! Issue 21's last paths whose cost grew with the session: the Auction game's slimmed rows
//! and a session stored before its events had ledger entries (migration 0011).

use serde_json::{Value, json};

use crate::common::TestApp;
use crate::common::pages::ledger_of;

/// The Auction game's two-player rounds (the public case AU-04, rules §1.10): P1 takes the
/// first Q in overtime for 12, K for 10, A for 9, J for 4 (items 10, spent 35); P2 the
/// other four for 7 + 9 + 10 + 5 (items 10, spent 31): items tie, P2 spent less and wins.
/// `q2_by_p1`: P1 bids 8 on the second Q instead of 2, so P1 holds Q Q K A J (12) and P2
/// K A J (8): P1 wins on items.
fn auction_game(q2_by_p1: bool) -> Value {
    let q2 = if q2_by_p1 { 8 } else { 2 };
    json!({"type": "hand", "rounds": [
        {"item": "Q", "bids": {"P1": 7, "P2": 7}, "overtime": [{"P1": 5, "P2": 3}], "withdrawn": []},
        {"item": "Q", "bids": {"P1": q2, "P2": 7}, "overtime": [], "withdrawn": []},
        {"item": "K", "bids": {"P1": 10, "P2": 4}, "overtime": [], "withdrawn": []},
        {"item": "K", "bids": {"P1": 2, "P2": 9}, "overtime": [], "withdrawn": []},
        {"item": "A", "bids": {"P1": 9, "P2": 8}, "overtime": [], "withdrawn": []},
        {"item": "A", "bids": {"P1": 3, "P2": 10}, "overtime": [], "withdrawn": []},
        {"item": "J", "bids": {"P1": 4, "P2": 2}, "overtime": [], "withdrawn": []},
        {"item": "J", "bids": {"P1": 2, "P2": 5}, "overtime": [], "withdrawn": []}
    ]})
}

/// A slimmed row of the Auction game (a game ends every hand) keeps of its closing row only
/// the game's number, event and winner, yet a correction of the first game, in a fold slimmed
/// as it goes, strikes and shows anew that game alone, as the whole fold does (issue 21).
#[test]
fn a_slimmed_game_end_keeps_only_its_winner_and_still_tells_a_changed_game() {
    let game = scorekeeper::registry::game("auction_game").unwrap();
    let agreements = json!({ "stake": "0.50" }).as_object().unwrap().clone();
    let players = ["P1", "P2"].map(String::from);
    let correction = json!({"type": "correction", "event": 0,
        "replacement": auction_game(true), "reason": "P1 bid 8 on the second Q"});
    let events = [
        auction_game(false),
        auction_game(false),
        auction_game(false),
        correction,
    ];
    let mut whole = scorekeeper::session::Fold::start(game, &agreements, &players, None).unwrap();
    let mut slim = whole.clone();
    for (i, e) in events.iter().enumerate() {
        whole.apply(i, e).unwrap();
        slim.apply(i, e).unwrap();
        slim.slim_older(1);
    }
    // The row of event `i`.
    let at = |f: &scorekeeper::session::Fold, i: usize| {
        f.rows()
            .iter()
            .find(|r| r.index == Some(i))
            .unwrap()
            .clone()
    };
    // Game 2 (event 1) in a slimmed row: P2's win, nothing the sheet would show.
    let row = at(&slim, 1);
    let kept = &row.game_ends[0];
    assert_eq!((kept.number, kept.event), (2, 1));
    assert_eq!(kept.end.winner.as_deref(), Some("P2"));
    assert!(kept.end.how.is_empty() && kept.end.settlement.is_empty());
    assert!(kept.postings.is_empty());
    // The whole fold's row of game 2 shows how P2 won and the stake P1 pays.
    let row = at(&whole, 1);
    let shown = &row.game_ends[0];
    assert_eq!(shown.end.how, "items tied at 10, and spent the least, 31");
    let paid: Vec<i64> = shown.postings.iter().map(|p| p.amount.cents()).collect();
    assert_eq!(paid.iter().sum::<i64>(), 0);
    assert!(paid.contains(&50) && paid.contains(&-50));
    for f in [&whole, &slim] {
        // Game 1 now goes to P1 on items (12 against 8); games 2 and 3 stand as shown.
        let row = at(f, 3);
        let ends = &row.game_ends;
        assert_eq!(ends.len(), 1);
        assert_eq!(
            (ends[0].number, ends[0].end.winner.as_deref()),
            (1, Some("P1"))
        );
        assert_eq!(at(f, 0).game_ends[0].struck_by, Some((3, true)));
        assert!(at(f, 1).game_ends[0].struck_by.is_none());
        assert!(at(f, 2).game_ends[0].struck_by.is_none());
    }
}

/// Events of session `id` stored without their ledger entry.
async fn without_entry(app: &TestApp, id: i64) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM events e LEFT JOIN ledger_entries l ON l.event_id = e.id \
         WHERE e.session_id = ? AND l.event_id IS NULL",
    )
    .bind(id)
    .fetch_one(&app.pool)
    .await
    .unwrap()
}

/// Session `id` as if its events from seq 2 on were stored before migration 0011: their
/// entries taken away, with the append-only trigger lifted for that alone.
async fn forget_entries(app: &TestApp, id: i64) {
    let delete = format!(
        "DELETE FROM ledger_entries WHERE event_id IN \
         (SELECT id FROM events WHERE session_id = {id} AND seq >= 2)"
    );
    for sql in [
        "DROP TRIGGER ledger_entries_are_append_only_delete",
        delete.as_str(),
        "CREATE TRIGGER ledger_entries_are_append_only_delete BEFORE DELETE ON ledger_entries \
         BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a correction instead'); END",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
            .execute(&app.pool)
            .await
            .unwrap();
    }
}

/// The stored entry of session `id`'s event `seq`, as JSON.
async fn stored_entry(app: &TestApp, id: i64, seq: i64) -> Value {
    let text: String = sqlx::query_scalar(
        "SELECT l.entry FROM ledger_entries l JOIN events e ON e.id = l.event_id \
         WHERE e.session_id = ? AND e.seq = ?",
    )
    .bind(id)
    .bind(seq)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

#[tokio::test]
async fn a_ledger_stored_without_entries_is_backfilled_once_then_read_as_stored() {
    let app = TestApp::new().await;
    // Scarne's kitty as a pot: the opening ante is seq 0, the four hands seqs 1 to 4.
    let doc = json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": {"stake": "0.05", "kitty": "pot"}, "players": ["A", "B", "C"],
        "events": [
            {"type": "hand", "dealer": "B", "all_passed": true},
            {"type": "hand", "dealer": "C", "bidder": "A", "bid": 350, "trump": "hearts", "outcome": "failed"},
            {"type": "hand", "dealer": "A", "bidder": "C", "bid": 400, "trump": "spades", "outcome": "made"},
            {"type": "hand", "dealer": "B", "bidder": "B", "bid": 250, "trump": "clubs", "outcome": "made"}
        ]
    });
    let reply = app.post_json("/api/v1/sessions/import", &doc).await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    let id = reply.json()["id"].as_i64().unwrap();
    let as_stored = ledger_of(&app, id).await;
    let replayed =
        scorekeeper::format::replay(&serde_json::from_value(doc.clone()).unwrap()).unwrap();
    assert_eq!(serde_json::to_value(&replayed).unwrap(), as_stored);

    forget_entries(&app, id).await;
    assert_eq!(without_entry(&app, id).await, 3, "seqs 2, 3 and 4");
    // The first read folds the session, answers the same document and writes the entries.
    assert_eq!(ledger_of(&app, id).await, as_stored);
    assert_eq!(without_entry(&app, id).await, 0);
    for seq in 2..=4 {
        assert_eq!(
            stored_entry(&app, id, seq).await,
            as_stored["events"][seq as usize],
            "seq {seq}"
        );
    }
    // Later reads take the stored path and read the same, a tail too.
    assert_eq!(ledger_of(&app, id).await, as_stored);
    let tail = app
        .get(&format!("/api/v1/sessions/{id}/ledger?after=2"))
        .await
        .json();
    assert_eq!(tail["events"].as_array().unwrap().len(), 2);
    assert_eq!(tail["events"][0], as_stored["events"][3]);
    // The written entries are as append-only as any.
    assert!(
        sqlx::query("DELETE FROM ledger_entries")
            .execute(&app.pool)
            .await
            .is_err()
    );
}
