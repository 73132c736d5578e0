//! The store's functions (sessions, events and postings, the sessions list, clubs, nights
//! and payments, the history and its facts) give the same answers on both engines: one scenario, worked by hand, run on a fresh SQLite database and on a fresh
//! PostgreSQL database (from `SCOREKEEPER_TEST_DATABASE_URL`; required under CI).

use crate::common;

use common::engines::postgres_database;
use scorekeeper::history::{FactsDelta, PlayerResult, SessionFacts};
use scorekeeper::ids::{ClubId, SessionId};
use scorekeeper::ledger::Posting;
use scorekeeper::money::Money;
use scorekeeper::store::history::{self, HistoryFilter};
use scorekeeper::store::{self, Connected, NewEvent, NewSession, clubs, nights};
use serde_json::Map;
use tokio_stream::StreamExt;

#[tokio::test]
async fn the_store_answers_the_same_on_both_engines() {
    let sqlite = store::open("sqlite::memory:").await.unwrap();
    let mut conn = sqlite.acquire().await.unwrap();
    scenario(&mut conn, "SQLite").await;
    let Some(url) = postgres_database("store_engines").await else {
        return;
    };
    let postgres = store::postgres::open_postgres(&url, 2).await.unwrap();
    let mut conn = postgres.acquire().await.unwrap();
    scenario(&mut conn, "PostgreSQL").await;
}

/// A hand with its postings, in cents, account by account.
fn hand<'a>(seq: i64, kind: &'a str, body: &'a str, postings: &'a [Posting]) -> NewEvent<'a> {
    NewEvent {
        seq,
        kind,
        body,
        explanation: "by hand",
        postings,
        recorded_at: at("2026-11-25T20:00:00Z"),
        entry: "{}",
    }
}

fn postings(amounts: &[(&str, i64)]) -> Vec<Posting> {
    amounts
        .iter()
        .map(|(who, cents)| Posting::new(*who, Money::from_cents(*cents)))
        .collect()
}

/// The instant `rfc3339` names.
fn at(rfc3339: &str) -> chrono::DateTime<chrono::Utc> {
    rfc3339.parse().unwrap()
}

/// A hearts session of Ann, Bob and Cy in club `club`, made at `created_at`: its id.
async fn insert_hearts(conn: &mut impl Connected, club: ClubId, created_at: &str) -> SessionId {
    let players = ["Ann".to_owned(), "Bob".to_owned(), "Cy".to_owned()];
    let agreements = Map::new();
    let new = NewSession {
        game: "hearts",
        currency: "USD",
        agreements: &agreements,
        opening_scores: None,
        players: &players,
        created_at: at(created_at),
        club_id: Some(club),
    };
    store::insert_session(conn, &new).await.unwrap()
}

async fn scenario(conn: &mut impl Connected, engine: &str) {
    // One club per name, whatever its case; found again in any case.
    let club = clubs::insert_club(
        conn,
        "Thursday Club",
        "hash",
        "share-1",
        at("2026-11-25T00:00:00Z"),
    )
    .await
    .unwrap()
    .unwrap();
    let again = clubs::insert_club(
        conn,
        "THURSDAY club",
        "hash",
        "share-2",
        at("2026-11-25T00:00:00Z"),
    );
    assert_eq!(again.await.unwrap(), None, "{engine}");
    let found = clubs::club_by_name(conn, "thursday CLUB").await.unwrap();
    assert_eq!(found.map(|c| c.id), Some(club), "{engine}");

    let id = insert_hearts(conn, club, "2026-11-25T20:00:00Z").await;
    let players = ["Ann", "Bob", "Cy"];
    assert_eq!(store::players(conn, id).await.unwrap(), players, "{engine}");
    // Read back as the instant written, from the TEXT column of either engine.
    let header = store::session(conn, id).await.unwrap().unwrap();
    assert_eq!(header.created_at, at("2026-11-25T20:00:00Z"), "{engine}");

    // Hand 1: Ann +2.50, Bob -1.00, Cy -1.50. Hand 2: Ann -0.50, Bob +0.50. Then hand 2
    // (event index 1, seq 2) is voided.
    let first = postings(&[("Ann", 250), ("Bob", -100), ("Cy", -150)]);
    let second = postings(&[("Ann", -50), ("Bob", 50)]);
    store::append_event(conn, id, &hand(1, "hand", "{}", &first))
        .await
        .unwrap();
    let recorded = store::recorded_since(conn, id, 0).await.unwrap();
    assert_eq!(recorded, [(1, at("2026-11-25T20:00:00Z"))], "{engine}");
    store::append_event(conn, id, &hand(2, "hand", "{}", &second))
        .await
        .unwrap();
    // Appending "after 1 event" when 2 are stored writes nothing.
    let void = hand(3, "void", r#"{"event":1}"#, &[]);
    let stale = store::append_event_after(conn, id, &void, 1).await.unwrap();
    assert_eq!(stale, None, "{engine}");
    assert_eq!(store::event_count(conn, id).await.unwrap(), 2, "{engine}");
    let fresh = store::append_event_after(conn, id, &void, 2).await.unwrap();
    assert!(fresh.is_some(), "{engine}");
    assert_eq!(store::event_count(conn, id).await.unwrap(), 3, "{engine}");

    // Ann 250 - 50 = 200, Bob -100 + 50 = -50, Cy -150: they sum to zero.
    let balances = store::balances(conn, id).await.unwrap();
    let expected = [("Ann", 200), ("Bob", -50), ("Cy", -150)].map(|(a, c)| (a.to_owned(), c));
    assert_eq!(balances, expected, "{engine}");
    let kinds: Vec<String> = store::events(conn, id)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(kinds, ["hand", "hand", "void"], "{engine}");
    let entries: Vec<_> = store::ledger_entries(conn, id, Some(1), 3)
        .collect::<Result<_, _>>()
        .await
        .unwrap();
    assert_eq!(entries, vec![Some("{}".to_owned()); 2], "{engine}");

    // The list: two hands dealt, one undone, so one stands; the names in seat order.
    let list = store::list_sessions(conn, club, None, 10).await.unwrap();
    assert_eq!(list.len(), 1, "{engine}");
    assert_eq!(list[0].names(), ["Ann", "Bob", "Cy"], "{engine}");
    assert_eq!((list[0].hands, list[0].closed), (1, false), "{engine}");
    let last = store::last_session(conn, club, "spades").await.unwrap();
    assert_eq!(last.map(|s| s.id), Some(id), "{engine}");

    clubs::add_player(conn, club, "Ann").await.unwrap();
    clubs::add_player(conn, club, "Cy").await.unwrap();
    let totals = clubs::player_totals(conn, club).await.unwrap();
    assert_eq!(
        totals,
        [("Ann".to_owned(), 200), ("Cy".to_owned(), -150)],
        "{engine}"
    );

    nights_and_payments(conn, club, id, engine).await;
    history_facts(conn, club, id, engine).await;
    tokens_and_links(conn, club, id, engine).await;
    names_and_differences(conn, club, id, engine).await;
}

async fn nights_and_payments(conn: &mut impl Connected, club: ClubId, id: SessionId, engine: &str) {
    let night = nights::create(conn, club, "At Sal's", at("2026-11-25T19:00:00Z"))
        .await
        .unwrap();
    nights::add_session(conn, night, id).await.unwrap();
    assert_eq!(
        nights::night_of_session(conn, id).await.unwrap(),
        Some(night)
    );
    let paid = nights::add_payment(conn, night, "Cy", "Ann", 150, at("2026-11-25T23:00:00Z"))
        .await
        .unwrap();
    let standing = nights::standing_payments(conn, club, Some(night))
        .await
        .unwrap();
    assert_eq!(standing.len(), 1, "{engine}");
    assert_eq!(
        (standing[0].2.as_str(), standing[0].5, standing[0].6),
        ("USD", 150, at("2026-11-25T23:00:00Z")),
        "{engine}"
    );
    let made = nights::night(conn, club, night).await.unwrap().unwrap();
    assert_eq!(made.created_at, at("2026-11-25T19:00:00Z"), "{engine}");
    let when = at("2026-11-25T23:05:00Z");
    assert!(
        nights::void_payment(conn, night, paid, when, "twice")
            .await
            .unwrap()
    );
    // A voided payment cannot be voided again, and no longer stands.
    assert!(
        !nights::void_payment(conn, night, paid, when, "twice")
            .await
            .unwrap()
    );
    let standing = nights::standing_payments(conn, club, None).await.unwrap();
    assert!(standing.is_empty(), "{engine}");
    let voided = nights::payments_of(conn, night).await.unwrap();
    assert_eq!(voided[0].voided_at, Some(when), "{engine}");
}

/// The session's facts as its fold would give them: one standing hand, not closed; Ann
/// +2.00 having bid once and made it (a bid of 350, band 350), Bob -0.50, Cy -1.50.
fn facts() -> SessionFacts {
    let ann = PlayerResult {
        player: "Ann".to_owned(),
        net_cents: 200,
        hands_bid: 1,
        hands_made: 1,
        bands: [(350, (1, 1))].into(),
        ..PlayerResult::default()
    };
    let result = |player: &str, net_cents| PlayerResult {
        player: player.to_owned(),
        net_cents,
        ..PlayerResult::default()
    };
    SessionFacts {
        hands: 1,
        closed: false,
        settled: false,
        players: vec![ann, result("Bob", -50), result("Cy", -150)],
    }
}

async fn history_facts(conn: &mut impl Connected, club: ClubId, id: SessionId, engine: &str) {
    let played = at("2026-11-25T20:00:00Z");
    history::replace_session_facts(conn, id, club, "hearts", played, &facts())
        .await
        .unwrap();
    assert_eq!(
        history::stored_facts(conn, id).await.unwrap(),
        facts(),
        "{engine}"
    );
    // "ann" is Ann whatever the case: the same person, not a new one.
    let ann = history::ensure_person(conn, club, "Ann").await.unwrap();
    assert_eq!(
        history::ensure_person(conn, club, "ann").await.unwrap(),
        ann
    );
    let people: Vec<String> = history::people(conn, club)
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.display_name)
        .collect();
    assert_eq!(people, ["Ann", "Bob", "Cy"], "{engine}");
    // The leaderboard from the totals the triggers keep: Ann first with +2.00 over one
    // night, her one bid made; Cy last.
    let board = history::leaderboard(conn, club).await.unwrap();
    let lines: Vec<_> = board
        .iter()
        .map(|l| (l.name.as_str(), l.nights, l.net_cents))
        .collect();
    assert_eq!(
        lines,
        [("Ann", 1, 200), ("Bob", 1, -50), ("Cy", 1, -150)],
        "{engine}"
    );
    assert_eq!(
        (board[0].hands_bid, board[0].hands_made),
        (1, 1),
        "{engine}"
    );
    assert_eq!(
        history::bands(conn, ann).await.unwrap(),
        [(350, 1, 1)],
        "{engine}"
    );

    // Listed, then archived: gone from the list and shown among the archived.
    let mut filter = HistoryFilter {
        person: Some(ann),
        ..HistoryFilter::default()
    };
    let listed = history::history(conn, club, &filter, 10, 0).await.unwrap();
    let seen: Vec<_> = listed
        .iter()
        .map(|r| (r.id, r.hands, r.archived, r.closed))
        .collect();
    assert_eq!(seen, [(id, 1, false, false)], "{engine}");
    // The bounds compare with the stored text as the times do: from the very second the
    // session was made, it is in (read back as that instant); before it, out.
    let made = at("2026-11-25T20:00:00Z");
    for (from, before, found) in [(Some(made), None, 1), (None, Some(made), 0)] {
        (filter.from, filter.before) = (from, before);
        let rows = history::history(conn, club, &filter, 10, 0).await.unwrap();
        let times: Vec<_> = rows.iter().map(|r| r.created_at).collect();
        assert_eq!(times, vec![made; found], "{engine}");
    }
    (filter.from, filter.before) = (None, None);
    history::set_archived(conn, id, true).await.unwrap();
    assert!(
        history::history(conn, club, &filter, 10, 0)
            .await
            .unwrap()
            .is_empty()
    );
    filter.archived = true;
    filter.game = Some("hearts".to_owned());
    let archived = history::history(conn, club, &filter, 10, 0).await.unwrap();
    assert_eq!(
        archived.iter().map(|r| r.archived).collect::<Vec<_>>(),
        [true]
    );
    let results = history::results_of(conn, &[id]).await.unwrap();
    let nets: Vec<_> = results
        .iter()
        .map(|r| (r.name.as_str(), r.net_cents))
        .collect();
    assert_eq!(nets, [("Ann", 200), ("Bob", -50), ("Cy", -150)], "{engine}");
    let played = nights::played_of(conn, club, ann).await.unwrap();
    let rows: Vec<_> = played
        .iter()
        .map(|p| (p.session_id, p.title.as_deref(), p.net_cents))
        .collect();
    assert_eq!(rows, [(id, Some("At Sal's"), 200)], "{engine}");
    assert_eq!(played[0].played_at, at("2026-11-25T20:00:00Z"), "{engine}");
}

async fn tokens_and_links(conn: &mut impl Connected, club: ClubId, id: SessionId, engine: &str) {
    let (soon, later) = (at("2026-11-26T00:00:00Z"), at("2026-12-25T00:00:00Z"));
    let made = at("2026-11-25T00:00:00Z");
    clubs::insert_token(conn, "r1", club, "read", made, soon)
        .await
        .unwrap();
    clubs::insert_token(conn, "w1", club, "write", made, later)
        .await
        .unwrap();
    let now = at("2026-11-25T21:00:00Z");
    let read = clubs::token(conn, "r1", now).await.unwrap();
    assert_eq!(read, Some((club, "read".to_owned())), "{engine}");
    // Past its expiry a token is not found, and the purge takes it (the write one stays).
    assert_eq!(
        clubs::token(conn, "r1", later).await.unwrap(),
        None,
        "{engine}"
    );
    // Another club's expired token is not the login's to purge: a login writes its own
    // club's rows only (docs/postgres.md, "Past one primary: sharding by club").
    let other = clubs::insert_club(conn, "Other Club", "phc", "share-other", made)
        .await
        .unwrap()
        .unwrap();
    clubs::insert_token(conn, "o1", other, "read", made, soon)
        .await
        .unwrap();
    assert_eq!(
        clubs::purge_expired_tokens(conn, club, soon).await.unwrap(),
        1,
        "{engine}"
    );
    let others = clubs::token(conn, "o1", made).await.unwrap();
    assert_eq!(others, Some((other, "read".to_owned())), "{engine}");
    // The service's hourly sweep takes it, and leaves the write token of the first club,
    // which has not expired.
    let swept = clubs::purge_every_clubs_expired_tokens(conn, soon).await;
    assert_eq!(swept.unwrap(), 1, "{engine}");
    assert_eq!(
        clubs::token(conn, "o1", made).await.unwrap(),
        None,
        "{engine}"
    );
    let write = clubs::token(conn, "w1", made).await.unwrap();
    assert_eq!(write, Some((club, "write".to_owned())), "{engine}");
    let writes = clubs::delete_club_tokens(conn, club, Some("read"))
        .await
        .unwrap();
    assert_eq!(writes, 0, "{engine}");
    assert_eq!(
        clubs::delete_club_tokens(conn, club, None).await.unwrap(),
        1
    );
    clubs::set_share_token(conn, club, "share-9").await.unwrap();
    let shared = clubs::club_by_share_token(conn, "share-9").await.unwrap();
    assert_eq!(shared.map(|c| c.name), Some("Thursday Club".to_owned()));
    assert_eq!(
        clubs::session_club(conn, id).await.unwrap(),
        Some(Some(club))
    );
    assert_eq!(
        clubs::session_club(conn, SessionId(id.0 + 1000))
            .await
            .unwrap(),
        None
    );
    let (w, r) = ("a".repeat(64), "b".repeat(64));
    clubs::insert_session_links(conn, id, &w, &r).await.unwrap();
    assert_eq!(clubs::session_links(conn, id).await.unwrap(), Some((w, r)));
}

async fn names_and_differences(
    conn: &mut impl Connected,
    club: ClubId,
    id: SessionId,
    engine: &str,
) {
    let ann = history::ensure_person(conn, club, "Ann").await.unwrap();
    history::rename(conn, ann, "Annie").await.unwrap();
    let renamed = history::renamed_for_session(conn, id).await.unwrap();
    let pairs = [("Ann", "Annie"), ("ann", "Annie")].map(|(a, b)| (a.to_owned(), b.to_owned()));
    assert_eq!(renamed, pairs, "{engine}");
    assert_eq!(history::renamed_in_club(conn, club).await.unwrap(), pairs);
    // Dee, who also sat as "D", merged into Annie: her names follow, she is gone.
    let names = ["D".to_owned(), "Dee".to_owned()];
    let dee = history::insert_person(conn, club, "Dee", &names)
        .await
        .unwrap();
    history::merge(conn, dee, ann).await.unwrap();
    let of_ann = history::names_of(conn, ann).await.unwrap();
    assert_eq!(of_ann, ["Ann", "D", "Dee", "ann"], "{engine}");
    assert_eq!(
        history::person(conn, club, dee)
            .await
            .unwrap()
            .map(|p| p.id),
        None
    );
    history::set_title(conn, id, Some("Finals")).await.unwrap();
    let meta = history::session_meta_of_club(conn, club).await.unwrap();
    assert_eq!(meta, [(id, Some("Finals".to_owned()), true)], "{engine}");
    assert_eq!(
        history::club_currency(conn, club).await.unwrap().as_deref(),
        Some("USD")
    );
    let best = history::best_night(conn, club, "Ann").await.unwrap();
    assert_eq!(best.map(|n| n.net_cents), Some(200), "{engine}");
    let (from, to) = (
        Some(at("2026-11-25T00:00:00Z")),
        Some(at("2026-11-26T00:00:00Z")),
    );
    assert_eq!(
        history::nights(conn, club, "Ann", from, to, 5)
            .await
            .unwrap()
            .len(),
        1
    );
    let none = history::nights(conn, club, "Ann", to, None, 5)
        .await
        .unwrap();
    assert!(none.is_empty(), "{engine}");

    // A later hand moves 0.25 from Cy to Bob: only Bob's and Cy's rows are written, and
    // the totals follow by difference: Bob -0.50 + 0.25 = -0.25, Cy -1.50 - 0.25 = -1.75.
    let mut after = facts();
    after.hands = 2;
    after.players[1].net_cents = -25;
    after.players[2].net_cents = -175;
    let delta = FactsDelta::between(&facts(), &after);
    assert_eq!(delta.results.len(), 2, "{engine}");
    let played = at("2026-11-25T20:00:00Z");
    history::apply_facts_delta(conn, id, club, "hearts", played, &delta)
        .await
        .unwrap();
    assert_eq!(
        history::stored_facts(conn, id).await.unwrap(),
        after,
        "{engine}"
    );
    let totals = history::player_totals_rows(conn, club).await.unwrap();
    let nets: Vec<_> = totals.iter().map(|t| (t.0.as_str(), t.2, t.3)).collect();
    assert_eq!(
        nets,
        [("Ann", 1, 200), ("Bob", 1, -25), ("Cy", 1, -175)],
        "{engine}"
    );

    // A later night of the same +2.00: the best night is the first one of that net, on
    // either engine, not whichever the database meets first.
    let later = "2026-11-26T20:00:00Z";
    let again = insert_hearts(conn, club, later).await;
    history::replace_session_facts(conn, again, club, "hearts", at(later), &facts())
        .await
        .unwrap();
    let best = history::best_night(conn, club, "Ann").await.unwrap();
    assert_eq!(best.map(|n| n.session_id), Some(id), "{engine}");
}
