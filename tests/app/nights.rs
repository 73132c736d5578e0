//! Nights over HTTP: two Pitch sessions of one evening made a night,
//! its net and transfers worked out by hand, a night payment that shrinks the transfers
//! and its void that brings them back, a session refused a second night, and another club
//! that cannot see the night; a night chosen on the new-session form, a session taken out
//! of a night, and a night with money still in an Auction Pinochle kitty.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;
#[path = "nights/settled.rs"]
mod settled;

use common::TestApp;
use common::html::{has, has_term, select_text, text_after};
use common::nights::{
    assert_payment_refused, import_to_club, make_night, pay_at_night, pinochle, pitch, seen_at,
    two_pitches,
};
use scorekeeper::format::SessionDoc;
use serde_json::{Value, json};

async fn api(app: &TestApp, cookie: &str, club: i64, night: i64) -> Value {
    let reply = app
        .get_with(
            &format!("/api/v1/clubs/{club}/nights/{night}"),
            &[("cookie", cookie)],
        )
        .await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.body);
    reply.json()
}

fn transfers(night: &Value) -> Vec<(String, String, String)> {
    let mut all: Vec<(String, String, String)> = night["transfers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["from"].as_str().unwrap().to_string(),
                t["to"].as_str().unwrap().to_string(),
                t["amount"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    all.sort();
    all
}

fn t(from: &str, to: &str, amount: &str) -> (String, String, String) {
    (from.into(), to.into(), amount.into())
}

/// Session 1: Ann +2.80, Bob −1.60, Dee −1.20. Session 2 (mirrored): Bob +2.80,
/// Ann −1.60, Dee −1.20. Alone they take two transfers each (four); the night nets
/// Ann +1.20, Bob +1.20, Dee −2.40 and takes two: Dee pays Ann 1.20 and Bob 1.20.
/// The transfer of the night `v` whose `side` ("from" or "to") is `name`.
fn transfer<'a>(v: &'a Value, side: &str, name: &str) -> &'a Value {
    v["transfers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x[side] == name)
        .unwrap_or_else(|| panic!("no transfer {side} {name}: {v}"))
}

#[tokio::test]
async fn a_night_nets_its_sessions_and_takes_payments_and_voids() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let (a, b) = two_pitches(&app, club).await;
    let (location, night) = make_night(&app, &cookie, club, &[a, b], "Thursday at Sal's").await;
    assert_eq!(location, format!("/clubs/{club}/nights/{night}"));

    let v = api(&app, &cookie, club, night).await;
    assert_eq!(v["title"], "Thursday at Sal's");
    assert_eq!(v["sessions"], json!([a, b]));
    assert_eq!(
        v["net"],
        json!([
            { "name": "Ann", "net": "1.20" },
            { "name": "Bob", "net": "1.20" },
            { "name": "Dee", "net": "-2.40" }
        ])
    );
    assert_eq!(
        transfers(&v),
        vec![t("Dee", "Ann", "1.20"), t("Dee", "Bob", "1.20")]
    );
    let to_ann = transfer(&v, "to", "Ann");
    assert_eq!(
        to_ann["behind"],
        json!([
            { "session": a, "game_name": "Auction Pitch", "payer": "-1.20", "payee": "2.80" },
            { "session": b, "game_name": "Auction Pitch", "payer": "-1.20", "payee": "-1.60" }
        ])
    );
    let page = app.get_with(&location, &[("cookie", &cookie)]).await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    assert!(page.body.contains("Dee pays Ann $1.20"), "{}", page.body);

    // A payment posted without `seen` (how many payments the page
    // showed) is refused naming it, nothing written: two such taps would record twice.
    for _ in 0..2 {
        let blind = [("payer", "Dee"), ("payee", "Ann"), ("amount", "1.20")];
        assert_payment_refused(&app, &cookie, &location, &blind, 400, "seen").await;
    }
    assert_eq!(api(&app, &cookie, club, night).await["payments"], json!([]));
    // Dee hands Ann 1.20 against the night: only Dee → Bob 1.20 is left.
    pay_at_night(&app, &cookie, &location, ["0", "Dee", "Ann", "1.20"]).await;
    let v = api(&app, &cookie, club, night).await;
    assert_eq!(transfers(&v), vec![t("Dee", "Bob", "1.20")]);
    assert_eq!(v["net"][0], json!({ "name": "Ann", "net": "0.00" }));
    assert_eq!(v["net"][2], json!({ "name": "Dee", "net": "-1.20" }));
    let payment = v["payments"][0]["id"].as_i64().unwrap();
    assert_eq!(v["payments"][0]["amount"], "1.20");

    // Refused payments name the field and write nothing.
    for (fields, field) in [
        (
            [("payer", "Dee"), ("payee", "Ann"), ("amount", "lots")],
            "amount",
        ),
        (
            [("payer", "Dee"), ("payee", "Ann"), ("amount", "0")],
            "amount",
        ),
        (
            [("payer", "Zed"), ("payee", "Ann"), ("amount", "1.00")],
            "payer",
        ),
    ] {
        assert_payment_refused(&app, &cookie, &location, &fields, 400, field).await;
    }
    assert_eq!(
        api(&app, &cookie, club, night).await["payments"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // Voided: kept, no longer counted, the two transfers are back.
    app.post_form_with_ok(
        &format!("{location}/payments/{payment}/void"),
        &[("reason", "wrong person")],
        &[("cookie", &cookie)],
    )
    .await;
    let v = api(&app, &cookie, club, night).await;
    assert_eq!(
        transfers(&v),
        vec![t("Dee", "Ann", "1.20"), t("Dee", "Bob", "1.20")]
    );
    assert_eq!(v["payments"][0]["void_reason"], "wrong person");
    assert!(v["payments"][0]["voided_at"].is_string());
    let again = app
        .post_form_with(
            &format!("{location}/payments/{payment}/void"),
            &[("reason", "twice")],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(again.status.as_u16(), 404, "{}", again.body);
}

#[tokio::test]
async fn a_session_is_in_one_night_only_and_other_clubs_cannot_see_it() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let (other, other_cookie) = app.new_club("Friday").await;
    let (a, b) = two_pitches(&app, club).await;
    let make = |sessions: Vec<i64>, cookie: String, club: i64| {
        let app = &app;
        async move {
            let ids: Vec<String> = sessions.iter().map(i64::to_string).collect();
            let fields: Vec<(&str, &str)> = ids.iter().map(|i| ("sessions", i.as_str())).collect();
            app.post_form_with(
                &format!("/clubs/{club}/nights"),
                &fields,
                &[("cookie", &cookie)],
            )
            .await
        }
    };
    let first = make(vec![a], cookie.clone(), club).await;
    assert_eq!(first.status.as_u16(), 303, "{}", first.body);
    let night: i64 = first
        .location
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // A blank title is the day's.
    assert!(
        api(&app, &cookie, club, night).await["title"]
            .as_str()
            .unwrap()
            .starts_with("Night of 20")
    );

    let second = make(vec![b, a], cookie.clone(), club).await;
    assert_eq!(second.status.as_u16(), 409, "{}", second.body);
    assert!(second.body.contains("one night only"), "{}", second.body);
    // Nothing written: b is in no night, so it can still be made one.
    let later = make(vec![b], cookie.clone(), club).await;
    assert_eq!(later.status.as_u16(), 303, "{}", later.body);
    assert_eq!(
        later.location.unwrap(),
        format!("/clubs/{club}/nights/{}", night + 1)
    );

    // Another club sees nothing, and cannot group this club's sessions.
    let foreign = app
        .get_with(
            &format!("/api/v1/clubs/{club}/nights/{night}"),
            &[("cookie", &other_cookie)],
        )
        .await;
    assert_eq!(foreign.status.as_u16(), 404, "{}", foreign.body);
    let foreign = app
        .get_with(
            &format!("/api/v1/clubs/{other}/nights/{night}"),
            &[("cookie", &other_cookie)],
        )
        .await;
    assert_eq!(foreign.status.as_u16(), 404, "{}", foreign.body);
    let foreign = make(vec![a], other_cookie.clone(), other).await;
    assert_eq!(foreign.status.as_u16(), 404, "{}", foreign.body);
    let none = make(vec![], cookie.clone(), club).await;
    assert_eq!(none.status.as_u16(), 400, "{}", none.body);
}

/// Auction Pinochle, 0.05 a unit, Scarne's kitty (rules §1.1–1.3), Ann, Bob, Cy, still open:
/// - opening ante 0.10 each: Ann, Bob, Cy −0.10, kitty +0.30;
/// - hand 1, Ann 350 hearts made: 4 units × 0.05 = 0.20 from each, she takes the kitty
///   (0.30) and everyone antes 0.10 again: Ann +0.60, Bob −0.30, Cy −0.30, kitty 0.30;
/// - hand 2, Bob 300 clubs failed: 3 units × 2 × 0.05 = 0.30 to each (no kitty under 350):
///   Bob −0.60, Ann +0.30, Cy +0.30.
///
/// Balances: Ann +0.80, Bob −1.00, Cy −0.10, kitty +0.30. Closing shares the kitty, 0.10
/// each (rules §1.2 rule 7): Ann +0.90, Bob −0.90, Cy 0.00.
fn pinochle_with_kitty() -> SessionDoc {
    pinochle("Cy", 2, &[])
}

fn nets(night: &Value) -> Vec<(String, String)> {
    night["net"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["name"].as_str().unwrap().to_string(),
                n["net"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn pair(name: &str, net: &str) -> (String, String) {
    (name.into(), net.into())
}

/// The kitty night: the open Pinochle session above counts as if closed (Ann +0.90, Bob
/// −0.90, Cy 0.00), the Pitch session `pitch("Cy", "Ann")` is closed (Cy +2.80, Ann −1.60,
/// Dee −1.20). Night: Ann 0.90 − 1.60 = −0.70, Bob −0.90, Cy 0.00 + 2.80 = +2.80, Dee
/// −1.20 (sum 0). Cy is the only one owed: three transfers, Ann 0.70, Bob 0.90, Dee 1.20,
/// and no one pays the kitty. Closing the Pinochle session shares the kitty just so: the
/// night does not change.
#[tokio::test]
async fn a_kitty_left_in_a_night_is_shared_as_its_close_would_share_it() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let pinochle = import_to_club(&app, club, &pinochle_with_kitty()).await;
    let pitch = import_to_club(&app, club, &pitch("Cy", "Ann")).await;
    let (location, night) = make_night(&app, &cookie, club, &[pinochle, pitch], "").await;
    let expected_nets = vec![
        pair("Ann", "-0.70"),
        pair("Bob", "-0.90"),
        pair("Cy", "2.80"),
        pair("Dee", "-1.20"),
    ];
    let expected_transfers = vec![
        t("Ann", "Cy", "0.70"),
        t("Bob", "Cy", "0.90"),
        t("Dee", "Cy", "1.20"),
    ];
    let open = api(&app, &cookie, club, night).await;
    assert_eq!(nets(&open), expected_nets);
    assert_eq!(transfers(&open), expected_transfers);
    let behind_bob = transfer(&open, "from", "Bob");
    assert_eq!(
        behind_bob["behind"],
        json!([
            { "session": pinochle, "game_name": "Auction Pinochle", "payer": "-0.90", "payee": "0.00" },
            { "session": pitch, "game_name": "Auction Pitch", "payer": "0.00", "payee": "2.80" }
        ])
    );
    let page = app.get_with(&location, &[("cookie", &cookie)]).await;
    assert!(
        select_text(&page.body, "a")
            .iter()
            .zip(text_after(&page.body, "a"))
            .any(|(link, after)| link == "Auction Pinochle" && after.starts_with(" (still open)"))
            && has_term(&page.body, "dd.money.minus", "Ann", "−\u{2060}$0.70")
            && page.body.contains("Bob pays Cy $0.90")
            && !page.body.contains("Kitty"),
        "{}",
        page.body
    );

    app.post_form_with_ok(
        &format!("/sessions/{pinochle}/close"),
        &[("expected_events", "2")],
        &[("cookie", &cookie)],
    )
    .await;
    let after = api(&app, &cookie, club, night).await;
    assert_eq!(nets(&after), expected_nets);
    assert_eq!(transfers(&after), expected_transfers);
    let page = app.get_with(&location, &[("cookie", &cookie)]).await;
    assert!(!page.body.contains("(still open)"), "{}", page.body);
}

/// The new-session form offers tonight's sessions: start a night with the one before, then
/// the next session joins that night. A choice that cannot be made is refused before the
/// session is made.
#[tokio::test]
async fn the_next_session_joins_tonights_night_from_its_form() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let first = import_to_club(&app, club, &pitch("Ann", "Bob")).await;
    let form = app
        .get_with("/sessions/new?game=auction_pitch", &[("cookie", &cookie)])
        .await;
    let offer = format!("Start a night with session {first} (Auction Pitch)");
    assert_eq!(
        select_text(&form.body, &format!("option[value=\"with:{first}\"]")),
        [offer.as_str()],
        "{}",
        form.body
    );
    let start = |night: String| {
        let (app, cookie) = (&app, cookie.clone());
        async move {
            app.post_form_with(
                "/sessions",
                &[
                    ("game", "auction_pitch"),
                    ("player_1", "Ann"),
                    ("player_2", "Bob"),
                    ("player_3", "Dee"),
                    ("a.stake", "0.10"),
                    ("night", &night),
                ],
                &[("cookie", &cookie)],
            )
            .await
        }
    };
    let second = start(format!("with:{first}")).await;
    assert_eq!(second.status.as_u16(), 303, "{}", second.body);
    let second: i64 = second
        .location
        .unwrap()
        .trim_start_matches("/sessions/")
        .parse()
        .unwrap();
    let form = app
        .get_with("/sessions/new?game=auction_pitch", &[("cookie", &cookie)])
        .await;
    let value = form
        .body
        .split("<option value=\"night:")
        .nth(1)
        .unwrap_or_else(|| panic!("a night offered in {}", form.body));
    let night: i64 = value.split('"').next().unwrap().parse().unwrap();
    assert_eq!(
        form.body
            .matches(&format!("value=\"night:{night}\""))
            .count(),
        1,
        "one offer per night: {}",
        form.body
    );
    let third = start(format!("night:{night}")).await;
    assert_eq!(third.status.as_u16(), 303, "{}", third.body);
    let third: i64 = third
        .location
        .unwrap()
        .trim_start_matches("/sessions/")
        .parse()
        .unwrap();
    let v = api(&app, &cookie, club, night).await;
    assert_eq!(v["sessions"], json!([first, second, third]));
    assert!(v["title"].as_str().unwrap().starts_with("Night of 20"));

    // Starting a night with a session already in one is refused, and no session is made.
    let refused = start(format!("with:{first}")).await;
    assert_eq!(refused.status.as_u16(), 409, "{}", refused.body);
    assert!(
        refused.body.contains("choose to join that night"),
        "{}",
        refused.body
    );
    let refused = start("night:999".into()).await;
    assert_eq!(refused.status.as_u16(), 404, "{}", refused.body);
    let sessions = app
        .get_with("/api/v1/sessions", &[("cookie", &cookie)])
        .await;
    assert_eq!(
        sessions.json()["sessions"].as_array().map(Vec::len),
        Some(3),
        "{}",
        sessions.body
    );
}

/// "Record this payment" on a page shown before a session was taken out of the night is
/// refused (409, nothing recorded): its amount was worked out with that session in. The
/// page shown after records the amount as it now stands.
#[tokio::test]
async fn a_payment_from_a_page_shown_before_a_session_left_the_night_is_refused() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let (a, b) = two_pitches(&app, club).await;
    let (location, night) = make_night(&app, &cookie, club, &[a, b], "").await;
    let before = seen_at(&app, &location, &[("cookie", &cookie)]).await;
    let taken = app
        .post_form_with(
            &format!("{location}/sessions/{b}/remove"),
            &[],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(taken.status.as_u16(), 303, "{}", taken.body);
    // Dee owed Bob 1.20 with both sessions in; with session 1 alone Bob owes Ann 1.60.
    let stale = [
        ("seen", before.as_str()),
        ("payer", "Dee"),
        ("payee", "Bob"),
        ("amount", "1.20"),
    ];
    let refused = app
        .post_form_with(
            &format!("{location}/payments"),
            &stale,
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 409, "{}", refused.body);
    assert!(
        refused
            .body
            .contains("the night changed since the page was shown"),
        "{}",
        refused.body
    );
    assert_eq!(api(&app, &cookie, club, night).await["payments"], json!([]));
    pay_at_night(&app, &cookie, &location, ["0", "Bob", "Ann", "1.60"]).await;
    let v = api(&app, &cookie, club, night).await;
    assert_eq!(transfers(&v), vec![t("Dee", "Ann", "1.20")]);
}

/// A session put in a night by mistake is taken out, while no payment stands against the
/// night: a payment refuses it with a clear message, its void lets it go.
#[tokio::test]
async fn a_session_is_taken_out_of_a_night_unless_a_payment_stands() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let (a, b) = two_pitches(&app, club).await;
    let (location, night) = make_night(&app, &cookie, club, &[a, b], "").await;
    pay_at_night(&app, &cookie, &location, ["0", "Dee", "Ann", "1.20"]).await;
    let out = format!("{location}/sessions/{b}/remove");
    let refused = app.post_form_with(&out, &[], &[("cookie", &cookie)]).await;
    assert_eq!(refused.status.as_u16(), 409, "{}", refused.body);
    assert!(
        refused
            .body
            .contains("payments are recorded against this night"),
        "{}",
        refused.body
    );
    assert_eq!(
        api(&app, &cookie, club, night).await["sessions"],
        json!([a, b])
    );
    let payment = api(&app, &cookie, club, night).await["payments"][0]["id"]
        .as_i64()
        .unwrap();
    app.post_form_with_ok(
        &format!("{location}/payments/{payment}/void"),
        &[("reason", "wrong night")],
        &[("cookie", &cookie)],
    )
    .await;
    let taken = app.post_form_with(&out, &[], &[("cookie", &cookie)]).await;
    assert_eq!(taken.status.as_u16(), 303, "{}", taken.body);
    // Session 1 alone: Ann +2.80, Bob −1.60, Dee −1.20; b is free for another night.
    let v = api(&app, &cookie, club, night).await;
    assert_eq!(v["sessions"], json!([a]));
    assert_eq!(
        transfers(&v),
        vec![t("Bob", "Ann", "1.60"), t("Dee", "Ann", "1.20")]
    );
    let again = app.post_form_with(&out, &[], &[("cookie", &cookie)]).await;
    assert_eq!(again.status.as_u16(), 404, "{}", again.body);
    app.post_form_with_ok(
        &format!("/clubs/{club}/nights"),
        &[("sessions", &b.to_string())],
        &[("cookie", &cookie)],
    )
    .await;
}

/// The history API's status of each of `sessions`.
async fn statuses(app: &TestApp, cookie: &str, club: i64, sessions: &[i64]) -> Vec<String> {
    let reply = app
        .get_with(
            &format!("/api/v1/clubs/{club}/history"),
            &[("cookie", cookie)],
        )
        .await;
    assert_eq!(reply.status.as_u16(), 200, "{}", reply.body);
    let v = reply.json();
    sessions
        .iter()
        .map(|id| {
            let entry = v["sessions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["id"] == *id)
                .unwrap_or_else(|| panic!("session {id} in {v}"));
            entry["status"].as_str().unwrap().to_string()
        })
        .collect()
}

/// The club journal's `hledger balance` and the results CSV's sums per player, in cents,
/// zeros left out (the journal's as `players:NAME`).
async fn exported(
    app: &TestApp,
    cookie: &str,
    club: i64,
) -> (Option<Vec<(String, i64)>>, Vec<(String, i64)>) {
    let journal = app
        .get_with(
            &format!("/api/v1/clubs/{club}/journal"),
            &[("cookie", cookie)],
        )
        .await;
    assert_eq!(journal.status.as_u16(), 200, "{}", journal.body);
    let csv = app
        .get_with(
            &format!("/api/v1/clubs/{club}/results.csv"),
            &[("cookie", cookie)],
        )
        .await;
    assert_eq!(csv.status.as_u16(), 200, "{}", csv.body);
    (
        common::nights::hledger_balances(&journal.body, "night-settles")
            .map(|b| b.into_iter().collect()),
        common::nights::csv_sums(&csv.body).into_iter().collect(),
    )
}

/// The night settles its sessions, worked by hand: sessions 1 (Ann +2.80, Bob −1.60, Dee −1.20) and 2
/// (Bob +2.80, Ann −1.60, Dee −1.20) make a night that nets Ann +1.20, Bob +1.20,
/// Dee −2.40. Each sheet shows the night's transfers (Dee pays Ann 1.20 and Bob 1.20), not
/// its own (Bob pays Ann 1.60); a session payment is refused; a payment marked on a sheet
/// is the night's; once both are paid every sheet, the history, the club journal
/// (`hledger balance`) and the results CSV say everyone is at zero and another payment is
/// refused; voiding Dee → Ann brings back the same debt everywhere: Dee −1.20, Ann +1.20.
#[tokio::test]
async fn a_night_settles_its_sessions_everywhere() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let (a, b) = two_pitches(&app, club).await;
    let c = &[("cookie", cookie.as_str())];
    let (location, night) = make_night(&app, &cookie, club, &[a, b], "").await;
    let sheet = app.page(&cookie, &format!("/sessions/{a}")).await;
    assert!(sheet.contains("The night settles this session"), "{sheet}");
    assert!(has(
        &sheet,
        &format!("[href=\"/clubs/{club}/nights/{night}\"]")
    ));
    assert!(sheet.contains("Yes: Dee paid Ann $1.20"), "{sheet}");
    assert!(sheet.contains("Yes: Dee paid Bob $1.20"), "{sheet}");
    assert!(
        !sheet.contains("Bob paid Ann"),
        "the session's own transfer: {sheet}"
    );
    assert_eq!(
        statuses(&app, &cookie, club, &[a, b]).await,
        ["closed", "closed"]
    );

    // A payment inside the session would be a second truth: refused, nothing written.
    let own = app
        .post_form_with(
            &format!("/sessions/{a}/payments"),
            &[("from", "Bob"), ("to", "Ann"), ("amount", "1.60")],
            c,
        )
        .await;
    assert_eq!(own.status.as_u16(), 409, "{}", own.body);
    assert!(
        own.body.contains("the night settles this session"),
        "{}",
        own.body
    );

    // "Mark paid" on session 1's sheet is a night payment, seen on session 2's sheet.
    let marked = app
        .post_form_with(
            &format!("{location}/payments"),
            &[
                ("payer", "Dee"),
                ("payee", "Ann"),
                ("amount", "1.20"),
                ("seen", &seen_at(&app, &location, c).await),
                ("back", &a.to_string()),
            ],
            c,
        )
        .await;
    assert_eq!(
        marked.location.as_deref(),
        Some(format!("/sessions/{a}#settle").as_str())
    );
    let other = app.page(&cookie, &format!("/sessions/{b}")).await;
    assert!(other.contains("Dee paid Ann $1.20"), "{other}");
    assert!(!other.contains("Yes: Dee paid Ann"), "{other}");
    pay_at_night(&app, &cookie, &location, ["1", "Dee", "Bob", "1.20"]).await;
    for s in [a, b] {
        let sheet = app.page(&cookie, &format!("/sessions/{s}")).await;
        assert!(
            sheet.contains("The night is settled: everyone is square."),
            "{sheet}"
        );
        assert!(!sheet.contains("Mark paid"), "{sheet}");
    }
    assert_eq!(
        statuses(&app, &cookie, club, &[a, b]).await,
        ["settled", "settled"]
    );
    let (journal, csv) = exported(&app, &cookie, club).await;
    if let Some(journal) = journal {
        assert_eq!(journal, vec![]);
    }
    assert_eq!(csv, vec![]);
    // Nothing but a hand or a void makes a settled night owe again.
    let again = [
        ("payer", "Ann"),
        ("payee", "Bob"),
        ("amount", "1.00"),
        ("seen", "2"),
    ];
    assert_payment_refused(
        &app,
        &cookie,
        &location,
        &again,
        409,
        "the night is settled",
    )
    .await;

    let first = api(&app, &cookie, club, night).await["payments"][0]["id"]
        .as_i64()
        .unwrap();
    app.post_form_with_ok(
        &format!("{location}/payments/{first}/void"),
        &[("reason", "bounced")],
        c,
    )
    .await;
    for s in [a, b] {
        let sheet = app.page(&cookie, &format!("/sessions/{s}")).await;
        assert!(sheet.contains("Yes: Dee paid Ann $1.20"), "{sheet}");
        assert!(!sheet.contains("Yes: Dee paid Bob"), "{sheet}");
    }
    assert_eq!(
        statuses(&app, &cookie, club, &[a, b]).await,
        ["closed", "closed"]
    );
    let owed = vec![("Ann".to_string(), 120), ("Dee".to_string(), -120)];
    let (journal, csv) = exported(&app, &cookie, club).await;
    if let Some(journal) = journal {
        assert_eq!(
            journal,
            vec![
                ("players:Ann".to_string(), 120),
                ("players:Dee".to_string(), -120)
            ]
        );
    }
    assert_eq!(csv, owed);
    // The session journal carries its night's payments too.
    let session_journal = app
        .get_with(&format!("/api/v1/sessions/{a}/journal"), c)
        .await;
    assert!(
        session_journal.body.contains("Dee paid Bob 1.20"),
        "{}",
        session_journal.body
    );
    assert!(
        !session_journal.body.contains("Dee paid Ann"),
        "voided: {}",
        session_journal.body
    );
}
