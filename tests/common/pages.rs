//! What every game's page tests do the same way, through the forms as a phone does:
//! start a session from the new-session form, post a hand form, read the ledger and the
//! session document back.

use serde_json::Value;

use super::{Reply, TestApp};

/// Posts the new-session form `fields` (the game, `player_1`…, `a.<agreement>`…) and
/// follows nothing: the sheet's address the form redirects to and the session's id. Fails
/// unless the form is accepted (303).
pub async fn start_session(app: &TestApp, fields: &[(&str, &str)]) -> (String, String) {
    let reply = app.post_form("/sessions", fields).await;
    assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
    let sheet = reply.location.expect("redirect to the sheet");
    let id = sheet.rsplit('/').next().unwrap().to_string();
    (sheet, id)
}

/// Starts a session of `game` through the new-session form with `players` in seat order
/// (`player_1`, `player_2`, …) and the agreements `agreements` (each sent as
/// `a.<name>`): as [`start_session`], the sheet's address and the session's id.
pub async fn start_game(
    app: &TestApp,
    game: &str,
    players: &[&str],
    agreements: &[(&str, &str)],
) -> (String, String) {
    let seats: Vec<(String, &str)> = (1..)
        .zip(players)
        .map(|(n, p)| (format!("player_{n}"), *p))
        .collect();
    let terms: Vec<(String, &str)> = agreements
        .iter()
        .map(|(name, value)| (format!("a.{name}"), *value))
        .collect();
    let mut fields = vec![("game", game)];
    fields.extend(seats.iter().chain(&terms).map(|(k, v)| (k.as_str(), *v)));
    start_session(app, &fields).await
}

/// A form as a phone posts it, each field with its value.
pub fn form_of<const N: usize>(fields: [(&str, String); N]) -> Vec<(String, String)> {
    fields
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// The head every contract game's hand form starts with, as a phone posts it: the events
/// the sheet showed (`expected`), the dealer, the bidder, the bid (in points) and trump;
/// the game's own fields follow (`rest`).
pub fn contract_form<const N: usize>(
    (expected, dealer, bidder): (usize, &str, &str),
    (bid, trump): (i64, &str),
    rest: [(&str, String); N],
) -> Vec<(String, String)> {
    let mut form = form_of([
        ("expected_events", expected.to_string()),
        ("dealer", dealer.into()),
        ("bidder", bidder.into()),
        ("bid", bid.to_string()),
        ("trump", trump.into()),
    ]);
    form.extend(form_of(rest));
    form
}

/// The new-session form of the sessions most tests start from: Auction Pinochle, Ann, Bob
/// and Cy, 0.05 a unit (rules §1.1), the other agreements at their defaults.
pub const ANN_BOB_CY: [(&str, &str); 5] = [
    ("game", "auction_pinochle"),
    ("player_1", "Ann"),
    ("player_2", "Bob"),
    ("player_3", "Cy"),
    ("a.stake", "0.05"),
];

/// Posts a hand form (`form`, field and value) to the sheet at `sheet`.
pub async fn post_hand(app: &TestApp, sheet: &str, form: &[(String, String)]) -> Reply {
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    app.post_form(&format!("{sheet}/hands"), &fields).await
}

/// [`post_hand`], which must be taken: fails unless the answer is 303 back to the sheet.
pub async fn post_hand_ok(app: &TestApp, sheet: &str, form: &[(String, String)]) {
    let reply = post_hand(app, sheet, form).await;
    assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
}

/// The ledger document of session `id` (`GET /api/v1/sessions/{id}/ledger`).
pub async fn ledger_of(app: &TestApp, id: impl std::fmt::Display) -> Value {
    app.get(&format!("/api/v1/sessions/{id}/ledger"))
        .await
        .json()
}

/// The session document of session `id` (`GET /api/v1/sessions/{id}/export`).
pub async fn export_of(app: &TestApp, id: impl std::fmt::Display) -> Value {
    app.get(&format!("/api/v1/sessions/{id}/export"))
        .await
        .json()
}

/// [`export_of`] for a club's session, read with the club member's `cookie` (a club's
/// sessions are not public).
pub async fn club_export_of(app: &TestApp, id: impl std::fmt::Display, cookie: &str) -> Value {
    app.get_with(
        &format!("/api/v1/sessions/{id}/export"),
        &[("cookie", cookie)],
    )
    .await
    .json()
}

/// [`ledger_of`] for a club's session, read with the club member's `cookie`.
pub async fn club_ledger_of(app: &TestApp, id: impl std::fmt::Display, cookie: &str) -> Value {
    app.get_with(
        &format!("/api/v1/sessions/{id}/ledger"),
        &[("cookie", cookie)],
    )
    .await
    .json()
}

/// Imports the session document `doc` through the API (`POST /api/v1/sessions/import`),
/// which must take it (201); the new session's id.
pub async fn import_doc(app: &TestApp, doc: &Value) -> i64 {
    let reply = app.post_json("/api/v1/sessions/import", doc).await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    reply.json()["id"].as_i64().unwrap()
}
