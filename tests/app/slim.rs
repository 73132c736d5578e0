//! Paths whose cost used to grow with the session: the Auction game's slimmed rows,
//! a session stored before its events had ledger entries (migration 0011) and a club
//! session with a renamed player; and what the table noticed: hand forms that send what a
//! phone need not lay out, and a script loaded only where it is used.

use serde_json::{Value, json};

use crate::common::pages::{import_doc, ledger_of};
use crate::common::{TestApp, engines};
use scorekeeper::ids::SessionId;

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
/// as it goes, strikes and shows anew that game alone, as the whole fold does.
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
    assert_eq!(kept.winner.as_deref(), Some("P2"));
    assert!(kept.shown.is_none());
    // The whole fold's row of game 2 shows how P2 won and the stake P1 pays.
    let row = at(&whole, 1);
    let (end, payments) = row.game_ends[0].shown.as_deref().unwrap();
    assert_eq!(end.winner.as_deref(), Some("P2"));
    assert_eq!(end.how, "items tied at 10, and spent the least, 31");
    let paid: Vec<i64> = payments.iter().map(|p| p.amount.cents()).collect();
    assert_eq!(paid.iter().sum::<i64>(), 0);
    assert!(paid.contains(&50) && paid.contains(&-50));
    for f in [&whole, &slim] {
        // Game 1 now goes to P1 on items (12 against 8); games 2 and 3 stand as shown.
        let row = at(f, 3);
        let ends = &row.game_ends;
        assert_eq!(ends.len(), 1);
        assert_eq!((ends[0].number, ends[0].winner.as_deref()), (1, Some("P1")));
        assert_eq!(at(f, 0).game_ends[0].struck_by, Some((3, true)));
        assert!(at(f, 1).game_ends[0].struck_by.is_none());
        assert!(at(f, 2).game_ends[0].struck_by.is_none());
    }
}

/// Events of session `id` stored without their ledger entry.
async fn without_entry(app: &TestApp, id: i64) -> i64 {
    app.scalar(&format!(
        "SELECT count(*) FROM events e LEFT JOIN ledger_entries l ON l.event_id = e.id \
         WHERE e.session_id = {id} AND l.event_id IS NULL"
    ))
    .await
}

/// Session `id` as if its events from seq 2 on were stored before migration 0011: their
/// entries taken away, with the append-only trigger lifted for that alone.
async fn forget_entries(app: &TestApp, id: i64) {
    let delete = format!(
        "DELETE FROM ledger_entries WHERE event_id IN \
         (SELECT id FROM events WHERE session_id = {id} AND seq >= 2)"
    );
    let statements = if engines::on_postgres() {
        [
            "ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_are_append_only_delete",
            delete.as_str(),
            "ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_are_append_only_delete",
        ]
    } else {
        [
            "DROP TRIGGER ledger_entries_are_append_only_delete",
            delete.as_str(),
            "CREATE TRIGGER ledger_entries_are_append_only_delete BEFORE DELETE ON ledger_entries \
             BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a correction instead'); END",
        ]
    };
    for sql in statements {
        app.exec(sql).await.unwrap();
    }
}

/// The stored entry of session `id`'s event `seq`, as JSON.
async fn stored_entry(app: &TestApp, id: i64, seq: i64) -> Value {
    let text = app
        .text(&format!(
            "SELECT l.entry FROM ledger_entries l JOIN events e ON e.id = l.event_id \
             WHERE e.session_id = {id} AND e.seq = {seq}"
        ))
        .await;
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
    let id = import_doc(&app, &doc).await;
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
    assert!(app.exec("DELETE FROM ledger_entries").await.is_err());
}

/// At start the service backfills every session stored before ledger entries were kept,
/// so even the first read of its ledger is the stored one; sessions already whole are left.
#[tokio::test]
async fn the_start_backfills_the_entries_of_every_session_stored_without_them() {
    let app = TestApp::new().await;
    let doc = |dealer: &str| {
        json!({"format": "scorekeeper/session@1", "game": "auction_pitch", "currency": "USD",
        "agreements": {"stake": "0.05", "target": 11}, "players": ["A", "B", "C"],
        "events": [
            {"type": "hand", "dealer": dealer, "pitcher": "A", "bid": 2,
             "points": {"high": "A", "low": "B", "jack": null, "game": "A"}},
            {"type": "hand", "dealer": "A", "pitcher": "C", "bid": 3,
             "points": {"high": "C", "low": "C", "jack": "B", "game": "A"}},
            {"type": "void", "event": 1},
            {"type": "hand", "dealer": "A", "pitcher": "B", "bid": 4,
             "points": {"high": "B", "low": "B", "jack": "B", "game": "B"}}
        ]})
    };
    let (old, also_old, whole) = (
        import_doc(&app, &doc("B")).await,
        import_doc(&app, &doc("C")).await,
        import_doc(&app, &doc("B")).await,
    );
    let replayed = |dealer: &str| {
        let doc = serde_json::from_value(doc(dealer)).unwrap();
        serde_json::to_value(scorekeeper::format::replay(&doc).unwrap()).unwrap()
    };
    forget_entries(&app, old).await;
    forget_entries(&app, also_old).await;
    assert_eq!(without_entry(&app, old).await, 3, "seqs 2, 3 and 4");
    let folds = scorekeeper::service::Folds::default();
    let done = scorekeeper::service::backfill_all_entries(&app.pool, &folds).await;
    assert_eq!(done.unwrap(), (2, 6), "two sessions, three entries each");
    for (id, dealer) in [(old, "B"), (also_old, "C"), (whole, "B")] {
        assert_eq!(without_entry(&app, id).await, 0, "session {id}");
        for seq in 1..=4 {
            let ledger = replayed(dealer);
            let entry = ledger["events"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["seq"] == seq);
            assert_eq!(
                Some(&stored_entry(&app, id, seq).await),
                entry,
                "session {id}, seq {seq}"
            );
        }
    }
    // Nothing is left to do at the next start.
    let again = scorekeeper::service::backfill_all_entries(&app.pool, &folds).await;
    assert_eq!(again.unwrap(), (0, 0));
}

/// Lifts the append-only trigger of `table` for one `sql` statement, as only a test may.
async fn behind_the_triggers(app: &TestApp, table: &str, sql: &str) {
    let trigger = format!("{table}_are_append_only_update");
    let statements = if engines::on_postgres() {
        [
            format!("ALTER TABLE {table} DISABLE TRIGGER {trigger}"),
            sql.to_string(),
            format!("ALTER TABLE {table} ENABLE TRIGGER {trigger}"),
        ]
    } else {
        [
            format!("DROP TRIGGER {trigger}"),
            sql.to_string(),
            format!(
                "CREATE TRIGGER {trigger} BEFORE UPDATE ON {table} \
                 BEGIN SELECT RAISE(ABORT, '{table} are append-only'); END"
            ),
        ]
    };
    for sql in statements {
        app.exec(&sql).await.unwrap();
    }
}

/// The default sheet of club session `id` built from the session read and replayed in
/// full, as the sheet route built it for a renamed club before (and still does for every
/// line): the page the cached states must read as.
async fn whole_sheet(app: &TestApp, id: i64) -> String {
    use askama::Template;
    use scorekeeper::web::html::sheet::{Showing, sheet_page};
    let reader = app.pool.reader();
    let current = scorekeeper::service::load(
        reader,
        &scorekeeper::service::Folds::default(),
        SessionId(id),
    )
    .await
    .unwrap();
    let club_names = scorekeeper::service::history::renamed_for_session(reader, SessionId(id))
        .await
        .unwrap();
    let shown = scorekeeper::history::names::shown(&current.doc, &current.fold, &club_names);
    assert!(shown.is_some(), "Bob shows as Robert");
    let values = std::collections::HashMap::new();
    sheet_page(&Showing::of_loaded(&current, false), &values, None, true)
        .unwrap()
        .offering_links(false)
        .shown_as(&current, shown.as_ref(), &values)
        .unwrap()
        .render()
        .unwrap()
}

/// A hand entered through the sheet's form by the holder of `cookie`: `bidder` bids
/// `bid` in `trump` and makes it, `dealer` dealing, after `seen` events.
async fn made(app: &TestApp, cookie: &str, id: i64, seen: &str, hand: [&str; 4]) {
    let [dealer, bidder, bid, trump] = hand;
    let reply = app
        .post_form_with(
            &format!("/sessions/{id}/hands"),
            &[
                ("expected_events", seen),
                ("dealer", dealer),
                ("bidder", bidder),
                ("bid", bid),
                ("trump", trump),
                ("outcome", "made"),
            ],
            &[("cookie", cookie)],
        )
        .await;
    assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
}

/// Bob, renamed Robert by the club: the sheet a phone reloads after every hand comes from
/// the cached states (a whole read of the session, made impossible here, is never needed
/// again after the first), and reads exactly as the page built from the whole session.
#[tokio::test]
async fn a_renamed_clubs_sheet_comes_from_the_cached_state_and_reads_as_the_whole() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let doc = serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": { "stake": "0.05", "kitty": "pot" }, "players": ["Ann", "Bob", "Cy"],
        "events": [
            { "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 350, "trump": "hearts", "outcome": "made" }
        ]
    }))
    .unwrap();
    let id = crate::common::nights::import_to_club(&app, club, &doc).await;
    let history = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    let bob = crate::common::person(&history, "Bob");
    let renamed = app
        .post_form_with(
            &format!("/clubs/{club}/players/{bob}/rename"),
            &[("name", "Robert")],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(renamed.status.as_u16(), 303, "{}", renamed.body);
    let sheet = format!("/sessions/{id}");
    // The first view reads the session whole once; the next hand is caught up by itself.
    assert_eq!(app.page(&cookie, &sheet).await, whole_sheet(&app, id).await);
    made(&app, &cookie, id, "1", ["Ann", "Bob", "300", "clubs"]).await;
    let page = app.page(&cookie, &sheet).await;
    assert_eq!(page, whole_sheet(&app, id).await);
    assert!(page.contains("Robert") && !page.contains(">Bob<"), "{page}");

    // The first hand's stored body made unreadable: reading the session whole now fails.
    behind_the_triggers(
        &app,
        "events",
        &format!(
            "UPDATE events SET body = '{{\"type\": \"hand\", \"dealer\": \"Nobody\"}}' \
             WHERE session_id = {id} AND seq = 1"
        ),
    )
    .await;
    let reply = app
        .get_with(&format!("{sheet}?all"), &[("cookie", &cookie)])
        .await;
    assert_eq!(
        reply.status.as_u16(),
        500,
        "every line needs the whole session"
    );
    // The default sheet does not: the same page, and after another hand, that hand too.
    assert_eq!(app.page(&cookie, &sheet).await, page);
    made(&app, &cookie, id, "2", ["Bob", "Cy", "250", "diamonds"]).await;
    let page = app.page(&cookie, &sheet).await;
    assert!(page.contains("Undo last hand (hand 3)"), "{page}");
    assert!(!page.contains(">Bob<"), "{page}");
}

/// The sheet of a new `game` session at the new-session form's defaults, `players` seated,
/// as its scorer sees it.
async fn blank_sheet(app: &TestApp, game: &str, players: &[&str]) -> String {
    let form = app.get(&format!("/sessions/new?game={game}")).await;
    let mut fields =
        crate::common::html::form_values(&form.body, "main form[action=\"/sessions\"]");
    for (seat, name) in players.iter().enumerate() {
        let field = format!("player_{}", seat + 1);
        fields.iter_mut().find(|(k, _)| *k == field).unwrap().1 = (*name).to_string();
    }
    let fields: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let created = app.post_form("/sessions", &fields).await;
    assert_eq!(created.status.as_u16(), 303, "{game}: {}", created.body);
    app.get(created.location.as_deref().unwrap()).await.body
}

#[tokio::test]
async fn the_hand_forms_send_only_what_a_phone_lays_out_and_load_only_their_scripts() {
    use crate::common::html::{count, has, select_text};
    let app = TestApp::new().await;
    let four = ["P1", "P2", "P3", "P4"];
    // The Auction game at its largest table, four: each round's overtime (3 steps × 4
    // players × 10 chips, and who withdrew) is folded text until opened, so none of its
    // fields is an element.
    let page = blank_sheet(&app, "auction_game", &four).await;
    assert_eq!(
        count(
            &page,
            "form.auction-game-form details.overtime noscript.unfold"
        ),
        9
    );
    assert_eq!(count(&page, "input[name^=\"rounds.0.overtime\"]"), 0);
    assert_eq!(count(&page, "input[name^=\"rounds.8.withdrawn\"]"), 0);
    let folded = select_text(&page, "#round-8 noscript.unfold").concat();
    for p in four {
        // Step 3's "nothing" and cards 2 to 10, and "no" / "yes" for who withdrew.
        let add = format!("name=\"rounds.8.overtime.2.{p}\"");
        assert_eq!(folded.matches(&add).count(), 10, "{p}");
        let withdrew = format!("name=\"rounds.8.withdrawn.{p}\"");
        assert_eq!(folded.matches(&withdrew).count(), 2, "{p}");
    }
    // Each round's bids stay chips: 9 rounds × 4 players × (no bid + cards 2 to 10).
    assert_eq!(count(&page, "input[name*=\".bids.\"]"), 9 * 4 * 10);
    let elements = count(&page, "form.auction-game-form *");
    println!("{elements} elements in the Auction game's form");
    assert!(
        elements < 2_000,
        "{elements} elements in the Auction game's form"
    );
    // No meld here, so no meld calculator's script.
    assert!(!page.contains("/static/meld.js"));

    let six = ["P1", "P2", "P3", "P4", "P5", "P6"];
    // Poker: each player's low place is marked, so style.css shows it only for a high-low
    // pot; the places are still sent as before ("–" checked).
    let page = blank_sheet(&app, "poker", &six).await;
    assert_eq!(count(&page, "fieldset.low-place"), 6);
    assert_eq!(
        count(&page, "fieldset.low-place input[value=\"\"][checked]"),
        6
    );
    assert!(!page.contains("/static/meld.js"));

    // Auction Pinochle offers "Count meld": its sheet loads the calculator's script.
    let page = blank_sheet(&app, "auction_pinochle", &["Ann", "Bob", "Cy"]).await;
    assert!(has(&page, ".meld-calc"));
    assert!(has(&page, "script[src^=\"/static/meld.js?v=\"][defer]"));
}
