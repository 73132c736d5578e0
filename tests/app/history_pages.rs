//! Nights past: the club history, player pages, leaderboard, titles, archiving,
//! renames and merges over HTTP, with numbers worked out by hand from a small club: an
//! Auction Pinochle night with a kitty, an undone hand and a payment, and a Pitch night.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;
use scorekeeper::ids::ClubId;

use common::html::{
    count, has, has_parts, has_term, links_named, one_text, outer_html, parts, select_attr,
    select_text, texts, transfers,
};
use common::nights::{import_to_club, pinochle, pitch};
use common::{TestApp, person};
use scorekeeper::format::SessionDoc;
use scorekeeper::service::{self, Folds};
use serde_json::json;

/// Auction Pinochle, 0.05 a unit, Scarne's kitty (rules §1.1–1.3), Ann, Bob, Cy:
/// - opening ante 0.10 each (the settlement of a 250 bid): Ann, Bob, Cy −0.10, kitty 0.30;
/// - hand 1, Ann 350 hearts made: 4 units × 0.05 = 0.20 from each; she takes the kitty
///   (0.30) and everyone antes 0.10 again: Ann +0.60, Bob −0.30, Cy −0.30;
/// - hand 2, Bob 300 clubs failed: 3 units × 2 × 0.05 = 0.30 to each: Bob −0.60;
/// - hand 3, Cy 250 made (+0.20), then undone: nothing;
/// - close: the kitty's 0.30 shared, 0.10 each.
///
/// Net at play: Ann −0.10 + 0.60 + 0.30 + 0.10 = +0.90; Bob −0.10 − 0.30 − 0.60 + 0.10 =
/// −0.90; Cy −0.10 − 0.30 + 0.30 + 0.10 = 0.00. Bob then pays Ann 0.90: settled.
fn pinochle_night() -> SessionDoc {
    pinochle(
        "Cy",
        2,
        &[
            json!({ "type": "hand", "dealer": "Bob", "bidder": "Cy", "bid": 250, "trump": "diamonds", "outcome": "made" }),
            json!({ "type": "void", "event": 2, "reason": "wrong hand" }),
            json!({ "type": "close" }),
            json!({ "type": "payment", "from": "Bob", "to": "Ann", "amount": "0.90" }),
        ],
    )
}

/// A club with the two nights; its id, the login cookie and the two sessions' ids.
async fn club(app: &TestApp) -> (i64, String, i64, i64) {
    let (club, cookie) = app.new_club("Thursday").await;
    let a = import_to_club(app, club, &pinochle_night()).await;
    let b = import_to_club(app, club, &pitch("Ann", "Bob")).await;
    (club, cookie, a, b)
}

/// The `<li>` of session `id` in the history list.
fn entry(body: &str, id: i64) -> String {
    outer_html(body, &format!("li[data-session=\"{id}\"]"))
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("session {id} in {body}"))
}

/// The text of that entry, as a reader sees it.
fn entry_text(body: &str, id: i64) -> String {
    one_text(&entry(body, id), "li")
}

/// The club's leaderboard page as the holder of login `cookie` sees it.
async fn leaderboard(app: &TestApp, cookie: &str, club: impl std::fmt::Display) -> String {
    app.page(cookie, &format!("/clubs/{club}/leaderboard"))
        .await
}

/// Whether the leaderboard `board` has a row for `name` with the net `net` (written with
/// its currency, marked `sign`: "plus" or "minus") over `nights` nights (the made / bid
/// and games won that follow are not looked at).
fn ranks(board: &str, name: &str, sign: &str, net: &str, nights: &str) -> bool {
    parts(board, "tbody tr")
        .iter()
        .any(|row| row.len() >= 3 && row[..3] == [name, net, nights])
        && select_text(board, &format!("td.money.{sign}")).contains(&net.to_string())
}

#[tokio::test]
async fn the_history_lists_each_night_with_its_game_hands_status_and_results() {
    let app = TestApp::new().await;
    let (club, cookie, a, b) = club(&app).await;
    let body = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    // Newest first.
    assert!(
        body.find(&format!("data-session=\"{b}\"")).unwrap()
            < body.find(&format!("data-session=\"{a}\"")).unwrap()
    );
    let pinochle = entry(&body, a);
    assert!(pinochle.contains("Auction Pinochle"), "{pinochle}");
    // Hand 3 was undone: two hands stand.
    assert!(pinochle.contains("2 hands"), "{pinochle}");
    assert_eq!(
        select_text(&pinochle, "span.status"),
        ["settled"],
        "{pinochle}"
    );
    assert!(
        has_term(&pinochle, "dd.money.plus", "Ann", "$0.90"),
        "{pinochle}"
    );
    assert!(
        has_term(&pinochle, "dd.money.minus", "Bob", "−\u{2060}$0.90"),
        "{pinochle}"
    );
    assert!(
        has_term(&pinochle, "dd.money:not(.plus):not(.minus)", "Cy", "$0.00"),
        "{pinochle}"
    );
    let pitch = entry(&body, b);
    assert!(
        pitch.contains("Auction Pitch") && pitch.contains("4 hands"),
        "{pitch}"
    );
    assert_eq!(select_text(&pitch, "span.status"), ["closed"], "{pitch}");
    assert!(has_term(&pitch, "dd.money.plus", "Ann", "$2.80"), "{pitch}");
    assert!(
        has_term(&pitch, "dd.money.minus", "Dee", "−\u{2060}$1.20"),
        "{pitch}"
    );
    assert!(has(&pitch, "time[datetime]"), "{pitch}");

    // Filters: by game, by player, by date range.
    let games = app
        .page(
            &cookie,
            &format!("/clubs/{club}/history?game=auction_pitch"),
        )
        .await;
    assert!(
        has(&games, &format!("[data-session=\"{b}\"]"))
            && !has(&games, &format!("[data-session=\"{a}\"]"))
    );
    let cy = person(&body, "Cy");
    let only_cy = app
        .page(&cookie, &format!("/clubs/{club}/history?player={cy}"))
        .await;
    assert!(
        has(&only_cy, &format!("[data-session=\"{a}\"]"))
            && !has(&only_cy, &format!("[data-session=\"{b}\"]"))
    );
    let long_ago = app
        .page(
            &cookie,
            &format!("/clubs/{club}/history?from=2001-01-01&to=2001-12-31"),
        )
        .await;
    assert!(long_ago.contains("No sessions match"), "{long_ago}");
    let backwards = app
        .get_with(
            &format!("/clubs/{club}/history?from=2026-12-01&to=2026-11-01"),
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(backwards.status.as_u16(), 400, "{}", backwards.body);
    assert!(
        backwards
            .body
            .contains("the last day comes before the first day")
    );

    // Outsiders see nothing.
    let outsider = app.get(&format!("/clubs/{club}/history")).await;
    assert_eq!(outsider.status.as_u16(), 404);
}

#[tokio::test]
async fn a_title_names_a_night_and_archiving_hides_it_without_deleting_it() {
    let app = TestApp::new().await;
    let (club, cookie, a, _) = club(&app).await;
    app.post_form_with_ok(
        &format!("/clubs/{club}/sessions/{a}/title"),
        &[("title", "Thursday at Sal's")],
        &[("cookie", &cookie)],
    )
    .await;
    let body = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    assert!(
        entry_text(&body, a).contains("Thursday at Sal's"),
        "{}",
        entry(&body, a)
    );
    let archived = app
        .post_form_with(
            &format!("/clubs/{club}/sessions/{a}/archive"),
            &[("archived", "1")],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(archived.status.as_u16(), 303);
    let body = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    assert!(!has(&body, &format!("[data-session=\"{a}\"]")), "{body}");
    let shelf = app
        .page(&cookie, &format!("/clubs/{club}/history?archived=1"))
        .await;
    assert!(
        has_term(&entry(&shelf, a), "dd.money.plus", "Ann", "$0.90"),
        "{shelf}"
    );
    // The money is still there: the leaderboard counts the archived night.
    let board = leaderboard(&app, &cookie, club).await;
    assert!(ranks(&board, "Ann", "plus", "$3.70", "2"), "{board}");
}

#[tokio::test]
async fn a_player_page_adds_up_the_nights_and_the_leaderboard_ranks_them() {
    let app = TestApp::new().await;
    let (club, cookie, a, _) = club(&app).await;
    let body = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    let ann = person(&body, "Ann");
    let page_ann = app
        .page(&cookie, &format!("/clubs/{club}/players/{ann}"))
        .await;
    // 0.90 + 2.80; two sessions started the same day in no night: one evening (a
    // night is an evening); bids: the 350 and three Pitch 4s, all made; one Pitch game;
    // one kitty (the 350).
    for (id, value) in [
        ("net-all", "$3.70"),
        ("nights", "1"),
        ("sessions", "2"),
        ("bid", "4"),
        ("made", "4 (100%)"),
        ("set", "0"),
        ("won", "1"),
        ("kitties", "1"),
    ] {
        assert!(
            one_text(&page_ann, &format!("#{id}")) == value,
            "{id} {value}: {page_ann}"
        );
    }
    assert!(
        one_text(&page_ann, "dd#best").ends_with("Auction Pitch: $2.80")
            && one_text(&page_ann, "dd#best > span.money.plus:last-child") == "$2.80",
        "{page_ann}"
    );
    // The biggest night is the evening: both sessions, 0.90 + 2.80.
    assert!(
        one_text(&page_ann, "dd#best-night").ends_with("2 sessions: $3.70")
            && one_text(&page_ann, "dd#best-night > span.money.plus:last-child") == "$3.70",
        "{page_ann}"
    );
    assert!(
        has(
            &page_ann,
            "tr[data-band=\"350\"] > th[scope=row]:first-child"
        ) && has_parts(
            &page_ann,
            "tr[data-band=\"350\"]",
            &["350–399", "1", "1 (100%)"]
        ),
        "{page_ann}"
    );
    assert!(
        has_parts(&page_ann, "tr[data-band=\"4\"]", &["4", "3", "3 (100%)"]),
        "{page_ann}"
    );
    // The chart: two nights, cumulative 0.90 then 3.70, and the same in the table.
    assert!(has(&page_ann, "svg[viewBox=\"0 0 360 200\"]"), "{page_ann}");
    let cumulative = select_text(&page_ann, "td.money");
    assert!(
        cumulative.contains(&"$0.90".to_string()) && cumulative.contains(&"$3.70".to_string()),
        "{cumulative:?}"
    );
    let bob = person(&body, "Bob");
    let page_bob = app
        .page(&cookie, &format!("/clubs/{club}/players/{bob}"))
        .await;
    // −0.90 − 1.60; his 300 failed and his Pitch 3 was set.
    assert!(
        one_text(&page_bob, "#net-all") == "−\u{2060}$2.50",
        "{page_bob}"
    );
    // The minus sign never wraps onto a line of its own: the amount is one `.money`
    // element and every `.money`, not only the sheet's, is kept on one line.
    assert!(has(&page_bob, "dd.money.minus#net-all"), "{page_bob}");
    let css = app.get("/static/style.css").await.body;
    assert!(
        css.lines()
            .any(|l| l.starts_with(".money {") && l.contains("white-space: nowrap")),
        "{css}"
    );
    assert!(
        one_text(&page_bob, "#set") == "2" && one_text(&page_bob, "#made") == "0 (0%)",
        "{page_bob}"
    );
    let board = leaderboard(&app, &cookie, club).await;
    let ranked = select_text(&board, "th a");
    let order: Vec<usize> = ["Ann", "Cy", "Dee", "Bob"]
        .iter()
        .map(|n| ranked.iter().position(|r| r == n).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{board}");
    assert!(
        ranks(&board, "Dee", "minus", "−\u{2060}$1.20", "1"),
        "{board}"
    );
    // A date range with no nights nets nothing.
    let none = app
        .page(
            &cookie,
            &format!("/clubs/{club}/players/{ann}?from=2001-01-01&to=2001-01-31"),
        )
        .await;
    assert!(one_text(&none, "#net-range") == "$0.00", "{none}");
    // The session's own chart: balances hand by hand from its postings.
    let chart = app.page(&cookie, &format!("/sessions/{a}/chart")).await;
    // After the ante −0.10 each; after hand 1 Ann 0.50.
    assert!(
        has_parts(
            &chart,
            "tr",
            &["hand 1", "$0.50", "−\u{2060}$0.40", "−\u{2060}$0.40"]
        ),
        "{chart}"
    );
}

#[tokio::test]
async fn a_rename_shows_everywhere_and_a_merge_adds_the_nights_up() {
    let app = TestApp::new().await;
    let (club, cookie, a, b) = club(&app).await;
    let body = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    let (bob, cy, dee) = (
        person(&body, "Bob"),
        person(&body, "Cy"),
        person(&body, "Dee"),
    );
    app.post_form_with_ok(
        &format!("/clubs/{club}/players/{bob}/rename"),
        &[("name", "Robert")],
        &[("cookie", &cookie)],
    )
    .await;
    let body = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    assert!(
        has_term(
            &entry(&body, a),
            "dd.money.minus",
            "Robert",
            "−\u{2060}$0.90"
        ),
        "{body}"
    );
    assert!(
        !select_text(&body, "a").iter().any(|a| a == "Bob"),
        "{body}"
    );
    let robert = app
        .page(&cookie, &format!("/clubs/{club}/players/{bob}"))
        .await;
    assert_eq!(one_text(&robert, "h1"), "Robert");
    assert_eq!(one_text(&robert, "#net-all"), "−\u{2060}$2.50");
    // The session document keeps the name he sat under.
    let export = app
        .get_with(
            &format!("/api/v1/sessions/{a}/export"),
            &[("cookie", &cookie)],
        )
        .await;
    assert!(
        export.json()["players"] == json!(["Ann", "Bob", "Cy"]),
        "{}",
        export.body
    );
    // The Pitch sheet (closed, not paid: Bob owes Ann 1.60, Dee 1.20) shows Robert in the
    // sheet's head, the balances and the settle-up; "Mark paid" records the name he sat
    // under, and the payment reads under the new name.
    let sheet = app.page(&cookie, &format!("/sessions/{b}")).await;
    assert!(
        has_term(&sheet, "dd.money.minus", "Robert", "−\u{2060}$1.60")
            && transfers(&sheet).contains(&"Robert pays Ann $1.60".to_string())
            && sheet.contains("Robert pays Ann $1.60\nDee pays Ann $1.20")
            && select_attr(&sheet, "input[type=hidden][name=from]", "value")
                .contains(&"Bob".into())
            && !texts(&sheet).iter().any(|t| t == "Bob"),
        "{sheet}"
    );
    app.post_form_with_ok(
        &format!("/sessions/{b}/payments"),
        &[
            ("expected_events", "5"),
            ("from", "Bob"),
            ("to", "Ann"),
            ("amount", "1.60"),
        ],
        &[("cookie", &cookie)],
    )
    .await;
    let sheet = app.page(&cookie, &format!("/sessions/{b}")).await;
    assert!(
        has_term(&sheet, "dd.money:not(.plus):not(.minus)", "Robert", "$0.00")
            && sheet.contains("Dee pays Ann $1.20")
            && !sheet.contains("Bob"),
        "{sheet}"
    );
    let chart = app.page(&cookie, &format!("/sessions/{b}/chart")).await;
    assert!(
        texts(&chart).iter().any(|t| t.starts_with("Robert")) && !chart.contains("Bob"),
        "{chart}"
    );
    let club_page = app.page(&cookie, &format!("/clubs/{club}")).await;
    assert!(
        club_page.contains(&format!("Session {b}: Ann, Robert, Dee")),
        "{club_page}"
    );
    // The next session's form offers the roster under the names shown now.
    let form = app
        .page(&cookie, "/sessions/new?game=auction_pitch&last=1")
        .await;
    let offered = select_attr(&form, "option", "value");
    assert!(
        offered.contains(&"Robert".into())
            && !offered.contains(&"Bob".into())
            && form.contains("Same seats as last time: Ann, Robert, Dee"),
        "{form}"
    );
    // Another's name is refused, naming the field.
    let taken = app
        .post_form_with(
            &format!("/clubs/{club}/players/{bob}/rename"),
            &[("name", "ann")],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(taken.status.as_u16(), 422, "{}", taken.body);
    assert!(
        taken.body.contains("merge the two instead"),
        "{}",
        taken.body
    );

    // Dee is Cy under another spelling: merged, Cy has both nights, 0.00 − 1.20.
    let merged = app
        .post_form_with_ok(
            &format!("/clubs/{club}/players/{dee}/merge"),
            &[("into", &cy)],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(
        merged.location.as_deref(),
        Some(format!("/clubs/{club}/players/{cy}").as_str())
    );
    let page_cy = app
        .page(&cookie, &format!("/clubs/{club}/players/{cy}"))
        .await;
    assert!(
        one_text(&page_cy, "#net-all") == "−\u{2060}$1.20"
            && one_text(&page_cy, "#sessions") == "2"
            // Both sessions were started today: one evening.
            && one_text(&page_cy, "#nights") == "1",
        "{page_cy}"
    );
    let board = leaderboard(&app, &cookie, club).await;
    assert!(
        !select_text(&board, "th a").contains(&"Dee".to_string())
            && ranks(&board, "Cy", "minus", "−\u{2060}$1.20", "2"),
        "{board}"
    );
    // Merged spellings show one name: Dee sat at the Pitch table, which now shows Cy.
    let sheet = app.page(&cookie, &format!("/sessions/{b}")).await;
    assert!(
        transfers(&sheet).contains(&"Cy pays Ann $1.20".to_string())
            && !texts(&sheet).iter().any(|t| t == "Dee"),
        "{sheet}"
    );
    // Outsiders see nothing.
    let gone = app.get(&format!("/clubs/{club}/players/{cy}")).await;
    assert_eq!(gone.status.as_u16(), 404);
}

#[tokio::test]
async fn corrections_and_undos_recorded_later_keep_the_statistics_right() {
    let app = TestApp::new().await;
    let (club, cookie, _, _) = club(&app).await;
    let folds = Folds::default();
    // A third night, recorded event by event as at the table, then corrected and undone.
    let night: SessionDoc = serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": { "stake": "0.05" }, "players": ["Ann", "Bob", "Cy"], "events": []
    }))
    .unwrap();
    let id = service::import(&app.pool, &night, Some(ClubId(club)))
        .await
        .unwrap();
    let made = json!({ "type": "hand", "dealer": "Cy", "bidder": "Bob", "bid": 350, "trump": "spades", "outcome": "made" });
    service::record_event(&app.pool, &folds, id, made, None, None)
        .await
        .unwrap();
    let body = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    let bob = person(&body, "Bob");
    // 350 in spades made: 4 units × 2 (spades double) × 0.05 = 0.40 from each: +0.80.
    let page_bob = app
        .page(&cookie, &format!("/clubs/{club}/players/{bob}"))
        .await;
    assert!(
        one_text(&page_bob, "#net-all") == "−\u{2060}$1.70"
            && one_text(&page_bob, "#made") == "1 (33%)",
        "{page_bob}"
    );
    // Corrected to failed: 4 × 2 × 2 (double bete) × 0.05 = 0.80 to each: −1.60.
    let failed = json!({ "type": "hand", "dealer": "Cy", "bidder": "Bob", "bid": 350, "trump": "spades", "outcome": "failed" });
    let correction =
        json!({ "type": "correction", "event": 0, "replacement": failed, "reason": "miscounted" });
    service::record_event(&app.pool, &folds, id, correction, None, None)
        .await
        .unwrap();
    let page_bob = app
        .page(&cookie, &format!("/clubs/{club}/players/{bob}"))
        .await;
    // −2.50 − 1.60 = −4.10; three bids, none made, three set.
    assert!(
        one_text(&page_bob, "#net-all") == "−\u{2060}$4.10" && one_text(&page_bob, "#set") == "3",
        "{page_bob}"
    );
    let undo = json!({ "type": "void", "event": 0, "reason": "never happened" });
    service::record_event(&app.pool, &folds, id, undo, None, None)
        .await
        .unwrap();
    let page_bob = app
        .page(&cookie, &format!("/clubs/{club}/players/{bob}"))
        .await;
    assert!(
        one_text(&page_bob, "#net-all") == "−\u{2060}$2.50"
            && one_text(&page_bob, "#bid") == "2"
            && one_text(&page_bob, "#sessions") == "3"
            && one_text(&page_bob, "#nights") == "1",
        "{page_bob}"
    );
    let body = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    assert!(
        entry_text(&body, id.0).contains("0 hands")
            && select_text(&entry(&body, id.0), "span.status") == ["open"]
    );
}

#[tokio::test]
async fn sessions_recorded_before_the_history_are_filled_in_when_it_is_first_read() {
    let app = TestApp::new().await;
    let (club, cookie, a, _) = club(&app).await;
    // As the database stood before migration 0007: no facts for session a, which the
    // migration put on the backlog.
    for sql in [
        format!("DELETE FROM session_results WHERE session_id = {a}"),
        format!("DELETE FROM session_bids WHERE session_id = {a}"),
        format!("DELETE FROM session_status WHERE session_id = {a}"),
        format!("INSERT INTO history_backlog (session_id) VALUES ({a})"),
    ] {
        app.exec(&sql).await.unwrap();
    }
    let body = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    assert!(
        has_term(&entry(&body, a), "dd.money.plus", "Ann", "$0.90")
            && entry_text(&body, a).contains("settled"),
        "{body}"
    );
    let left: i64 = app.scalar("SELECT count(*) FROM history_backlog").await;
    assert_eq!(left, 0);
    let board = leaderboard(&app, &cookie, club).await;
    assert!(ranks(&board, "Ann", "plus", "$3.70", "2"), "{board}");
}

#[tokio::test]
async fn the_api_gives_the_same_numbers_with_money_as_strings() {
    let app = TestApp::new().await;
    let (club, cookie, a, b) = club(&app).await;
    let get = |uri: String| {
        let app = &app;
        let cookie = cookie.clone();
        async move {
            let reply = app.get_with(&uri, &[("cookie", &cookie)]).await;
            assert_eq!(reply.status.as_u16(), 200, "{uri}: {}", reply.body);
            reply.json()
        }
    };
    let history = get(format!("/api/v1/clubs/{club}/history")).await;
    let sessions = history["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    assert_eq!(sessions[0]["id"], json!(b));
    assert_eq!(sessions[1]["id"], json!(a));
    assert_eq!(sessions[1]["status"], "settled");
    assert_eq!(sessions[1]["hands"], 2);
    assert_eq!(sessions[1]["game_name"], "Auction Pinochle");
    assert_eq!(sessions[1]["results"][0]["name"], "Ann");
    assert_eq!(sessions[1]["results"][0]["net"], "0.90");
    assert_eq!(sessions[0]["results"][2]["net"], "-1.20");
    let ann = sessions[1]["results"][0]["person"].as_i64().unwrap();
    let player = get(format!("/api/v1/clubs/{club}/players/{ann}")).await;
    assert_eq!(player["all"]["net"], "3.70");
    // Two sessions of one day in no night: one night, two sessions.
    assert_eq!(player["all"]["sessions"], 2);
    assert_eq!(player["nights"], 1);
    assert!(player["all"].get("nights").is_none(), "{player}");
    assert_eq!(player["all"]["kitties_taken"], 1);
    assert_eq!(player["best_session"]["net"], "2.80");
    assert_eq!(player["recent_sessions"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        player["bids_by_band"],
        json!([{ "band": 4, "bids": 3, "made": 3 }, { "band": 350, "bids": 1, "made": 1 }])
    );
    let board = get(format!("/api/v1/clubs/{club}/leaderboard")).await;
    let nets: Vec<&str> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["net"].as_str().unwrap())
        .collect();
    assert_eq!(nets, ["3.70", "0.00", "-1.20", "-2.50"]);
    let bad = app
        .get_with(
            &format!("/api/v1/clubs/{club}/history?from=yesterday"),
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(bad.status.as_u16(), 400);
    assert_eq!(bad.json()["error"]["field"], "from");
    let outsider = app.get(&format!("/api/v1/clubs/{club}/leaderboard")).await;
    assert_eq!(outsider.status.as_u16(), 404);
}

#[tokio::test]
async fn the_history_comes_twenty_nights_to_a_page() {
    let app = TestApp::new().await;
    let (club, cookie, a, _) = club(&app).await;
    // 20 more Pitch nights: 22 in all, 21 of them Pitch.
    for _ in 0..20 {
        service::import(&app.pool, &pitch("Ann", "Bob"), Some(ClubId(club)))
            .await
            .unwrap();
    }
    let first = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    assert_eq!(count(&first, "[data-session]"), 20);
    assert!(
        !has(&first, &format!("[data-session=\"{a}\"]")),
        "the oldest is on page 2"
    );
    assert!(
        links_named(&first, "Older")
            .iter()
            .any(|href| href.ends_with("page=2"))
            && links_named(&first, "Newer").is_empty(),
        "{first}"
    );
    let second = app
        .page(&cookie, &format!("/clubs/{club}/history?page=2"))
        .await;
    assert_eq!(count(&second, "[data-session]"), 2);
    assert!(
        has(&second, &format!("[data-session=\"{a}\"]"))
            && !links_named(&second, "Newer").is_empty()
    );
    // Page links keep the filter.
    let pitch = app
        .page(
            &cookie,
            &format!("/clubs/{club}/history?game=auction_pitch"),
        )
        .await;
    assert_eq!(count(&pitch, "[data-session]"), 20);
    assert!(
        links_named(&pitch, "Older")
            .iter()
            .any(|href| href.ends_with("history?game=auction_pitch&page=2")),
        "{pitch}"
    );
    // A title is at most 80 characters; nothing is written otherwise.
    let long = "x".repeat(81);
    let refused = app
        .post_form_with(
            &format!("/clubs/{club}/sessions/{a}/title"),
            &[("title", &long)],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 400, "{}", refused.body);
    assert!(
        refused.body.contains("a title is at most 80 characters"),
        "{}",
        refused.body
    );
}

/// One count of hands everywhere: the Pinochle session dealt three hands and
/// the third was undone, so the club page and the history both say 2 hands; Pitch 4.
#[tokio::test]
async fn the_club_page_and_the_history_count_the_hands_that_stand() {
    let app = TestApp::new().await;
    let (club, cookie, a, b) = club(&app).await;
    let history = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    assert!(entry_text(&history, a).contains("· 2 hands ·"), "{history}");
    assert!(entry_text(&history, b).contains("· 4 hands ·"), "{history}");
    let page = app.page(&cookie, &format!("/clubs/{club}")).await;
    let line = |id: i64| {
        let start = page
            .find(&format!("href=\"/sessions/{id}\""))
            .unwrap_or_else(|| panic!("session {id} in {page}"));
        let end = page[start..].find("</li>").unwrap() + start;
        page[start..end].to_string()
    };
    assert!(line(a).contains("· 2 hands ·"), "{}", line(a));
    assert!(line(b).contains("· 4 hands ·"), "{}", line(b));
}

/// Moves session `id`'s start, and its history facts with it, to `at` (UTC, RFC 3339).
async fn started_at(app: &TestApp, id: i64, at: &str) {
    for table in ["sessions SET created_at", "session_results SET played_at"] {
        let key = if table.starts_with("sessions") {
            "id"
        } else {
            "session_id"
        };
        app.exec(&format!("UPDATE {table} = '{at}' WHERE {key} = {id}"))
            .await
            .unwrap();
    }
}

/// One evening of three sessions, two of them made a night and the last started after
/// midnight UTC in none, is one night played: one point on the chart, its date written
/// once, and the biggest night with all three sessions, its date on one line.
#[tokio::test]
async fn one_evening_is_one_night_played_and_one_point_on_the_chart() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    // Ann +2.80, −1.60 and +2.80 on the Thursday (+4.00); +2.80 a week later.
    let a = import_to_club(&app, club, &pitch("Ann", "Bob")).await;
    let b = import_to_club(&app, club, &pitch("Bob", "Ann")).await;
    let c = import_to_club(&app, club, &pitch("Ann", "Bob")).await;
    let d = import_to_club(&app, club, &pitch("Ann", "Bob")).await;
    for (id, at) in [
        (a, "2026-11-19T21:00:00Z"),
        (b, "2026-11-19T22:30:00Z"),
        (c, "2026-11-20T00:15:00Z"),
        (d, "2026-11-26T20:00:00Z"),
    ] {
        started_at(&app, id, at).await;
    }
    common::nights::make_night(&app, &cookie, club, &[a, b], "").await;
    let history = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    let ann = person(&history, "Ann");
    let page = app
        .page(&cookie, &format!("/clubs/{club}/players/{ann}"))
        .await;
    assert_eq!(one_text(&page, "#nights"), "2", "nights played");
    assert_eq!(one_text(&page, "#sessions"), "4", "sessions played");
    // One point per evening, each date written once along the bottom.
    assert_eq!(
        select_text(&page, ".history-chart svg text[font-size=\"10\"]"),
        ["2026-11-19", "2026-11-26"]
    );
    assert_eq!(
        select_text(&page, "table.chart-numbers tbody th"),
        ["2026-11-19", "2026-11-26"]
    );
    // The biggest night is the whole Thursday, its date (the night has no title of its
    // own) kept on one line.
    assert_eq!(
        one_text(&page, "#best-night"),
        "2026-11-19, 3 sessions: $4.00"
    );
    assert_eq!(select_text(&page, "#best-night a span.day"), ["2026-11-19"]);
}
