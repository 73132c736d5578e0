//! Nights past, the gaps closed over HTTP: a renamed player is *labelled* with
//! the new name on every form of the sheet while the forms still *send* the name he sat
//! under; a night keeps one currency (the form, the new-session form, the API and a club
//! import refuse a session in another); and each proposed transfer of a night can be
//! recorded as it stands, the free payment form starting with a real choice.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;
use scorekeeper::ids::ClubId;

use common::html::{
    self, form_values, has, one_text, outer_html, select_attr, select_text, selected, texts,
};
use common::nights::{assert_payment_refused, import_to_club, pinochle, pitch_in};
use common::pages::club_export_of;
use common::{TestApp, person};
use scorekeeper::format::SessionDoc;
use scorekeeper::service;
use serde_json::{Value, json};

/// Auction Pinochle, 0.05 a unit, Scarne's kitty (rules §1.1–1.3), Ann, Bob, Cy, still
/// open: one hand, Cy dealing, Ann 350 hearts made.
fn pinochle_open() -> SessionDoc {
    pinochle("Cy", 1, &[])
}

/// Every `(value, label)` of the options of the first `<select>` or `<datalist>` of
/// `html` that `css` picks.
fn options(html: &str, css: &str) -> Vec<(String, String)> {
    let list = outer_html(html, css)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{css} in {html}"));
    select_attr(&list, "option", "value")
        .into_iter()
        .zip(select_text(&list, "option"))
        .collect()
}

/// Every `(value, label)` of the first run of chips (radio buttons) called `name` in `html`.
fn chips(html: &str, name: &str) -> Vec<(String, String)> {
    html::chips(html, "", name)
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(v, l)| (v.to_string(), l.to_string()))
        .collect()
}

/// Bob, renamed Robert: every form of an open sheet labels him Robert and sends "Bob".
#[tokio::test]
async fn a_renamed_player_is_labelled_by_the_new_name_on_every_form_and_recorded_by_the_old() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let id = import_to_club(&app, club, &pinochle_open()).await;
    let two: SessionDoc = serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "two_handed_pinochle", "currency": "USD",
        "agreements": { "stake": "0.50" }, "players": ["Ann", "Bob"], "events": []
    }))
    .unwrap();
    let two = import_to_club(&app, club, &two).await;
    let history = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    let bob = person(&history, "Bob");
    app.post_form_with_ok(
        &format!("/clubs/{club}/players/{bob}/rename"),
        &[("name", "Robert")],
        &[("cookie", &cookie)],
    )
    .await;

    let sheet = app.page(&cookie, &format!("/sessions/{id}")).await;
    let seated = pairs(&[("Ann", "Ann"), ("Bob", "Robert"), ("Cy", "Cy")]);
    assert_eq!(options(&sheet, "select[name=dealer]"), seated);
    assert_eq!(chips(&sheet, "bidder"), seated);
    let mut or_none = pairs(&[("", "—")]);
    or_none.extend(seated.clone());
    assert_eq!(chips(&sheet, "renege_by"), or_none);
    // The table changes: the datalist of who may leave, and where a newcomer sits.
    assert_eq!(options(&sheet, "datalist#seated-players"), seated);
    let mut end = pairs(&[("", "the end of the table")]);
    end.extend(seated.clone());
    assert_eq!(chips(&sheet, "seat_after"), end);
    // Hand 1 was dealt by Cy, so Ann deals next: chosen by value, the name she sat under.
    assert!(
        selected(&sheet, "dealer").as_deref() == Some("Ann"),
        "{sheet}"
    );
    assert!(!texts(&sheet).iter().any(|t| t == "Bob"), "{sheet}");

    // A refused hand comes back with Robert's chip ticked, still sending "Bob".
    let refused = app
        .post_form_with(
            &format!("/sessions/{id}/hands"),
            &[
                ("expected_events", "1"),
                ("dealer", "Ann"),
                ("bidder", "Bob"),
                ("trump", "clubs"),
                ("outcome", "made"),
            ],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 422, "{}", refused.body);
    assert_eq!(chips(&refused.body, "bidder"), seated);
    assert!(
        one_text(
            &refused.body,
            "input[name=bidder][value=Bob][checked] + span"
        ) == "Robert",
        "{}",
        refused.body
    );

    // Tapping "Robert" sends "Bob": the session records the name he sat under.
    app.post_form_with_ok(
        &format!("/sessions/{id}/hands"),
        &[
            ("expected_events", "1"),
            ("dealer", "Ann"),
            ("bidder", "Bob"),
            ("bid", "300"),
            ("trump", "clubs"),
            ("outcome", "made"),
        ],
        &[("cookie", &cookie)],
    )
    .await;
    let export = club_export_of(&app, id, &cookie).await;
    assert_eq!(export["events"][1]["bidder"], "Bob");
    assert_eq!(export["players"], json!(["Ann", "Bob", "Cy"]));

    // Correcting that hand: the same labels, Bob's chip ticked under the name Robert.
    let correcting = app
        .page(&cookie, &format!("/sessions/{id}?correct=1"))
        .await;
    assert_eq!(html::chips(&correcting, "#correct", "bidder"), seated);
    assert!(
        one_text(
            &correcting,
            "#correct input[name=bidder][value=Bob][checked] + span"
        ) == "Robert",
        "{correcting}"
    );
    assert!(
        !texts(&correcting).iter().any(|t| t == "Bob"),
        "{correcting}"
    );

    // A game whose form lists the players from the engine: labels from the shown names,
    // field names and values from the recorded ones.
    let two = app.page(&cookie, &format!("/sessions/{two}")).await;
    assert!(
        select_text(&two, "legend").contains(&"Robert".to_string())
            && has(&two, "[name=\"melds.Bob\"]"),
        "{two}"
    );
    assert_eq!(
        chips(&two, "claimant"),
        pairs(&[
            ("", "played out"),
            ("Ann", "Ann declared out"),
            ("Bob", "Robert declared out")
        ])
    );
    assert!(
        !texts(&two).iter().any(|t| t == "Bob") && !two.contains("Bob declared"),
        "{two}"
    );
}

/// The Pitch sessions of one club: a night in dollars, one Pitch in euros titled
/// "Thursday's Pitch".
async fn pitch_club(app: &TestApp) -> (i64, String, i64, i64, i64) {
    let (club, cookie) = app.new_club("Thursday").await;
    let owner = Some(ClubId(club));
    let a = service::import(&app.pool, &pitch_in("Ann", "Bob", "USD"), owner)
        .await
        .unwrap()
        .0;
    let b = service::import(&app.pool, &pitch_in("Bob", "Ann", "USD"), owner)
        .await
        .unwrap()
        .0;
    let euro = service::import(&app.pool, &pitch_in("Ann", "Cy", "EUR"), owner)
        .await
        .unwrap()
        .0;
    let titled = app
        .post_form_with(
            &format!("/clubs/{club}/sessions/{euro}/title"),
            &[("title", "Thursday's Pitch")],
            &[("cookie", &cookie)],
        )
        .await;
    assert!(titled.status.is_redirection(), "{}", titled.body);
    (club, cookie, a, b, euro)
}

async fn night_count(app: &TestApp) -> i64 {
    app.scalar("SELECT count(*) FROM night_sessions").await
}

#[tokio::test]
async fn a_night_refuses_a_session_in_another_currency_and_writes_nothing() {
    let app = TestApp::new().await;
    let (club, cookie, a, b, euro) = pitch_club(&app).await;
    let words = "Thursday&#39;s Pitch is in € and this night is in $";
    // The history's form: a new night of a dollar and a euro session.
    let (sa, se) = (a.to_string(), euro.to_string());
    let refused = app
        .post_form_with(
            &format!("/clubs/{club}/nights"),
            &[("sessions", &sa), ("sessions", &se), ("title", "")],
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 409, "{}", refused.body);
    assert!(refused.body.contains(words), "{}", refused.body);
    assert!(
        refused
            .body
            .contains(&format!("as Session {a} (Auction Pitch) is")),
        "{}",
        refused.body
    );
    assert_eq!(night_count(&app).await, 0);

    // A dollar night made, then the euro session added to it: refused, nothing added.
    let made = app
        .post_form_with_ok(
            &format!("/clubs/{club}/nights"),
            &[("sessions", &sa), ("sessions", &b.to_string())],
            &[("cookie", &cookie)],
        )
        .await;
    let night: i64 = made
        .location
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let api = app
        .post_json_with(
            &format!("/api/v1/clubs/{club}/nights"),
            &json!({ "sessions": [euro], "night": night }),
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(api.status.as_u16(), 409, "{}", api.body);
    let refusal = api.json()["error"].clone();
    assert_eq!(refusal["field"], "sessions", "{refusal}");
    assert!(
        refusal["message"]
            .as_str()
            .unwrap()
            .starts_with("Thursday's Pitch is in € and this night is in $"),
        "{refusal}"
    );
    assert_eq!(night_count(&app).await, 2);

    // The new-session form joining the euro night with a dollar game: refused before the
    // session is made.
    let (euro_club, euro_cookie) = app.new_club("Euros").await;
    let euros = Some(ClubId(euro_club));
    let e1 = service::import(&app.pool, &pitch_in("Ann", "Bob", "EUR"), euros)
        .await
        .unwrap()
        .0;
    let sessions_before: i64 = app.scalar("SELECT count(*) FROM sessions").await;
    let joined = app
        .post_form_with(
            "/sessions",
            &[
                ("game", "auction_pitch"),
                ("player_0", "Ann"),
                ("player_1", "Bob"),
                ("player_2", "Dee"),
                ("night", &format!("with:{e1}")),
            ],
            &[("cookie", &euro_cookie)],
        )
        .await;
    assert_eq!(joined.status.as_u16(), 409, "{}", joined.body);
    assert!(
        joined
            .body
            .contains(&format!("The new Auction Pitch is in $ and this night is in €, as Session {e1} (Auction Pitch) is")),
        "{}",
        joined.body
    );
    let sessions_after: i64 = app.scalar("SELECT count(*) FROM sessions").await;
    assert_eq!(sessions_after, sessions_before);
    assert_eq!(night_count(&app).await, 2);

    // The API groups sessions of one currency: 201 with the night worked out (Ann +2.80
    // in the one dollar session left: Bob pays her 1.60 and Dee 1.20).
    let (solo_club, solo_cookie) = app.new_club("Solo").await;
    let solo_owner = Some(ClubId(solo_club));
    let solo = service::import(&app.pool, &pitch_in("Ann", "Bob", "USD"), solo_owner)
        .await
        .unwrap()
        .0;
    let made = app
        .post_json_with(
            &format!("/api/v1/clubs/{solo_club}/nights"),
            &json!({ "sessions": [solo], "title": "Friday" }),
            &[("cookie", &solo_cookie)],
        )
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let made = made.json();
    assert_eq!(made["title"], "Friday");
    assert_eq!(made["sessions"], json!([solo]));
    assert_eq!(
        made["net"],
        json!([
            { "name": "Ann", "net": "2.80" },
            { "name": "Bob", "net": "-1.60" },
            { "name": "Dee", "net": "-1.20" }
        ])
    );
}

#[tokio::test]
async fn a_club_import_refuses_a_night_of_two_currencies() {
    let app = TestApp::new().await;
    let (club, cookie, a, b, euro) = pitch_club(&app).await;
    app.post_form_with_ok(
        &format!("/clubs/{club}/nights"),
        &[("sessions", &a.to_string()), ("sessions", &b.to_string())],
        &[("cookie", &cookie)],
    )
    .await;
    let mut export: Value = app
        .get_with(
            &format!("/api/v1/clubs/{club}/export"),
            &[("cookie", &cookie)],
        )
        .await
        .json();
    // The euro session is the third of the export: put it in the night.
    let third = export["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["session"]["currency"] == "EUR")
        .unwrap();
    assert_eq!(third, 2, "sessions {a}, {b}, {euro} in order");
    export["nights"][0]["sessions"] = json!([0, 1, 2]);
    let before: i64 = app.scalar("SELECT count(*) FROM clubs").await;
    let reply = app
        .post_json(
            "/api/v1/clubs/import",
            &json!({ "name": "Copy", "passphrase": "seven of clubs", "club": export }),
        )
        .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    let refusal = reply.json()["error"].clone();
    assert_eq!(refusal["field"], "nights[0].sessions[2]", "{refusal}");
    assert_eq!(
        refusal["message"],
        "nights[0].sessions[2]: Thursday's Pitch (sessions[2]) is in € and this night is in $, \
         as sessions[0] \
         (Auction Pitch) is; a night settles up in one currency, so settle that session on \
         its own sheet"
    );
    let after: i64 = app.scalar("SELECT count(*) FROM clubs").await;
    assert_eq!(after, before);
}

/// Two Pitch sessions, the seats swapped: Ann +2.80 − 1.60 = +1.20, Bob −1.60 + 2.80 =
/// +1.20, Dee −1.20 − 1.20 = −2.40: Dee pays Ann 1.20 and Bob 1.20.
#[tokio::test]
async fn each_transfer_of_a_night_can_be_recorded_as_it_stands() {
    let app = TestApp::new().await;
    let (club, cookie, a, b, _) = pitch_club(&app).await;
    let made = app
        .post_form_with(
            &format!("/clubs/{club}/nights"),
            &[("sessions", &a.to_string()), ("sessions", &b.to_string())],
            &[("cookie", &cookie)],
        )
        .await;
    let url = made.location.unwrap();
    let night = app.page(&cookie, &url).await;
    // One button per transfer, posting it as it stands.
    let forms = outer_html(&night, "form");
    for to in ["Ann", "Bob"] {
        let posts = |form: &String| {
            [("payer", "Dee"), ("payee", to), ("amount", "1.20")]
                .iter()
                .all(|(name, value)| {
                    has(
                        form,
                        &format!("input[type=hidden][name={name}][value=\"{value}\"]"),
                    )
                })
        };
        assert!(forms.iter().any(posts), "{night}");
    }
    assert_eq!(
        select_text(&night, "button")
            .iter()
            .filter(|b| *b == "Record this payment")
            .count(),
        2
    );
    // The free form starts with a real choice, the players only (no kitty in this night).
    let payer = options(&night, "select[name=payer]");
    assert_eq!(
        payer,
        pairs(&[
            ("", "Who pays"),
            ("Ann", "Ann"),
            ("Bob", "Bob"),
            ("Dee", "Dee")
        ])
    );
    assert!(
        select_text(&night, "option[value=\"\"][selected][disabled]").contains(&"Who pays".into())
    );
    // A blank choice is refused by name, nothing written.
    let blank = [("payer", ""), ("payee", "Ann"), ("amount", "1.20")];
    assert_payment_refused(&app, &cookie, &url, &blank, 400, "choose who paid").await;
    // The transfer's own button: Dee → Ann 1.20 recorded, Dee still owes Bob 1.20.
    let seen = select_attr(&night, "input[type=hidden][name=seen]", "value");
    assert!(seen[0].starts_with("0:"), "{seen:?}: no payment yet");
    let tap = [
        ("seen", seen[0].as_str()),
        ("payer", "Dee"),
        ("payee", "Ann"),
        ("amount", "1.20"),
    ];
    app.post_form_with_ok(&format!("{url}/payments"), &tap, &[("cookie", &cookie)])
        .await;
    // A second tap of the same button (the page still saw no payment) records nothing.
    let again = app
        .post_form_with(&format!("{url}/payments"), &tap, &[("cookie", &cookie)])
        .await;
    assert_eq!(again.status.as_u16(), 409, "{}", again.body);
    assert!(
        again.body.contains("a payment was just recorded"),
        "{}",
        again.body
    );
    let payments: i64 = app.scalar("SELECT count(*) FROM night_payments").await;
    assert_eq!(payments, 1);
    let night = app.page(&cookie, &url).await;
    assert!(night.contains("Dee paid Ann $1.20"), "{night}");
    assert!(!night.contains("Dee pays Ann"), "{night}");
    assert!(night.contains("Dee pays Bob $1.20"), "{night}");
    assert_eq!(night.matches(">Record this payment</button>").count(), 1);
}

/// A night of one open Auction Pinochle session whose kitty holds 0.30 (0.05 a unit,
/// Scarne's kitty, rules §1.1–1.3): opening ante 0.10 each; Ann 350 made takes 0.20 from
/// each and the kitty, everyone antes again; Bob 300 failed pays 0.30 to each. Ann +0.80,
/// Bob −1.00, Cy −0.10, kitty +0.30; the night counts it as closed, the kitty shared 0.10
/// each: Ann +0.90, Bob −0.90, Cy 0.00. The kitty is no party: the menus offer the players
/// only, and the one transfer, Bob → Ann 0.90, has its button.
#[tokio::test]
async fn the_kitty_is_offered_only_where_it_is_a_party() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Kitty").await;
    let doc: SessionDoc = serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pinochle", "currency": "USD",
        "agreements": { "stake": "0.05", "kitty": "pot" }, "players": ["Ann", "Bob", "Cy"],
        "events": [
            { "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 350, "trump": "hearts", "outcome": "made" },
            { "type": "hand", "dealer": "Ann", "bidder": "Bob", "bid": 300, "trump": "clubs", "outcome": "failed" }
        ]
    }))
    .unwrap();
    let id = import_to_club(&app, club, &doc).await;
    let made = app
        .post_form_with(
            &format!("/clubs/{club}/nights"),
            &[("sessions", &id.to_string())],
            &[("cookie", &cookie)],
        )
        .await;
    let url = made.location.unwrap();
    let night = app.page(&cookie, &url).await;
    let who = pairs(&[
        ("", "Who pays"),
        ("Ann", "Ann"),
        ("Bob", "Bob"),
        ("Cy", "Cy"),
    ]);
    assert_eq!(options(&night, "select[name=payer]"), who);
    assert!(!has(&night, "[value=KITTY]"), "{night}");
    assert!(
        form_values(
            &night,
            "form:has(input[type=hidden][name=payer][value=Bob])"
        )
        .windows(3)
        .any(|w| w
            == [
                ("payer".to_string(), "Bob".to_string()),
                ("payee".to_string(), "Ann".to_string()),
                ("amount".to_string(), "0.90".to_string()),
            ]),
        "{night}"
    );
}
