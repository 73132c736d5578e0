//! Player language on the pages, for every game through the real router:
//! a refused entry's message names the thing on the form in words a player reads, with no
//! field path, no `snake_case`, no JSON `true`/`false` and no rule citation (the citation
//! sits in the message's details); the sheet's rows carry no "rules §" outside their "why"
//! details; the agreements read money as every page writes it ("$0.05 a unit"); the session
//! lists name the game, not its id, with the sheet's time words.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::html::{bold_says, outer_html, select_text};
use common::{TestApp, golden_fixtures};
use scorekeeper::format::SessionDoc;
use scorekeeper::registry;

/// Starts a session of `game` with `players` from the new-session form, the agreements at
/// their defaults except `extra`, and returns the sheet's path.
async fn start(app: &TestApp, game: &str, players: &[&str], extra: &[(&str, &str)]) -> String {
    let mut form = vec![("game", game)];
    let seats: Vec<String> = (1..=players.len()).map(|i| format!("player_{i}")).collect();
    for (seat, name) in seats.iter().zip(players) {
        form.push((seat.as_str(), name));
    }
    form.extend_from_slice(extra);
    let reply = app.post_form("/sessions", &form).await;
    assert_eq!(reply.status.as_u16(), 303, "{game}: {}", reply.body);
    reply.location.expect("redirect to the sheet")
}

/// The refusal's message as the page shows it (the focused `#error` paragraph), and the
/// page's rule details when there is one.
fn refusal_of(page: &str) -> (String, Option<String>) {
    let open = "id=\"error\" tabindex=\"-1\" autofocus>";
    let start = page.find(open).expect("the refusal is shown") + open.len();
    let end = start + page[start..].find("</p>").expect("the message ends");
    let message = page[start..end].to_string();
    let rule = page[end..]
        .strip_prefix("</p><details class=\"why error-rule\"><summary>which rule</summary>")
        .and_then(|rest| rest.split_once("</details>"))
        .map(|(rule, _)| rule.to_string());
    (message, rule)
}

/// What a player must never read in a message: field paths (`NS.tricks`, `auction[6]`),
/// `snake_case`, JSON literals, and citations (they belong in the details).
fn developer_words(message: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    if message.contains("rules §") || message.contains('§') {
        found.push("a rule citation");
    }
    if message.contains('_') {
        found.push("an underscore");
    }
    let words: Vec<&str> = message
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.iter().any(|w| ["true", "false", "null"].contains(w)) {
        found.push("true, false or null");
    }
    let bytes = message.as_bytes();
    if bytes
        .windows(3)
        .any(|w| w[0].is_ascii_alphabetic() && w[1] == b'.' && w[2].is_ascii_alphabetic())
    {
        found.push("a dotted field path");
    }
    if message.contains('[') || message.contains('{') {
        found.push("document syntax");
    }
    found
}

/// Posts each refused hand form of one game and checks the page's message.
async fn refusals_read_as_player_words(
    game: &str,
    players: &[&str],
    forms: &[&[(&str, &str)]],
) -> Vec<(String, Option<String>)> {
    let app = TestApp::new().await;
    let sheet = start(&app, game, players, &[]).await;
    let mut seen = Vec::new();
    for form in forms {
        let mut fields = vec![("expected_events", "0")];
        fields.extend_from_slice(form);
        let reply = app.post_form(&format!("{sheet}/hands"), &fields).await;
        assert_eq!(
            reply.status.as_u16(),
            422,
            "{game} {form:?}: {}",
            reply.body
        );
        let (message, rule) = refusal_of(&reply.body);
        let bad = developer_words(&message);
        assert!(
            bad.is_empty(),
            "{game} {form:?}: the message {message:?} shows {bad:?}"
        );
        assert!(!message.is_empty(), "{game}: an empty message");
        eprintln!("{game}: {message} [{rule:?}]");
        seen.push((message, rule));
    }
    // Nothing was recorded.
    let export = app
        .get(&format!(
            "/api/v1/sessions/{}/export",
            sheet.rsplit('/').next().unwrap()
        ))
        .await
        .json();
    assert_eq!(
        export["events"].as_array().map(Vec::len),
        Some(0),
        "{export}"
    );
    seen
}

#[tokio::test]
async fn auction_pinochle_refusals_name_the_form_in_player_words() {
    let seen = refusals_read_as_player_words(
        "auction_pinochle",
        &["Ann", "Bob", "Cy"],
        &[
            &[
                ("dealer", "Cy"),
                ("bidder", "Ann"),
                ("bid", "240"),
                ("trump", "hearts"),
                ("outcome", "made"),
            ],
            &[
                ("dealer", "Cy"),
                ("bid", "300"),
                ("trump", "hearts"),
                ("outcome", "made"),
            ],
            &[
                ("dealer", "Cy"),
                ("all_passed", "true"),
                ("bidder", "Ann"),
                ("bid", "300"),
            ],
            &[
                ("dealer", "Cy"),
                ("bidder", "Ann"),
                ("bid", "300"),
                ("trump", "hearts"),
                ("outcome", "defender_renege"),
                ("renege_by", "Ann"),
            ],
        ],
    )
    .await;
    // A defender's renege entered against the bidder says so, not "Ann is not an active
    // opponent of Ann".
    assert!(
        seen[3].0.contains("Ann is the bidder, not a defender")
            && seen[3].0.contains("bidder reneged"),
        "{:?}",
        seen[3]
    );
    assert_eq!(seen[0].0, "Bid: 240 is below the minimum 250");
    assert_eq!(
        seen[0].1.as_deref(),
        Some("rules §1.1"),
        "the rule in the details"
    );
    assert!(seen[1].0.contains("Who won the bid?"), "{:?}", seen[1]);
    assert!(seen[1].0.contains("All passed"), "{:?}", seen[1]);
}

#[tokio::test]
async fn auction_pitch_refusals_name_the_form_in_player_words() {
    let seen = refusals_read_as_player_words(
        "auction_pitch",
        &["Ann", "Bob", "Cy"],
        &[
            &[("dealer", "Ann"), ("bid", "2")],
            &[
                ("dealer", "Ann"),
                ("pitcher", "Bob"),
                ("bid", "5"),
                ("points.high", "Bob"),
                ("points.low", "Cy"),
                ("points.jack", "nobody"),
                ("points.game", "Bob"),
            ],
            &[
                ("dealer", "Ann"),
                ("all_passed", "true"),
                ("pitcher", "Bob"),
                ("bid", "2"),
            ],
        ],
    )
    .await;
    assert!(seen[0].0.contains("All passed"), "{:?}", seen[0]);
    assert!(seen[1].0.starts_with("Bid: 5 "), "{:?}", seen[1]);
    assert!(
        seen[1]
            .1
            .as_deref()
            .is_some_and(|r| r.contains("rules §1.4")),
        "{:?}",
        seen[1]
    );
}

#[tokio::test]
async fn check_pinochle_refusals_name_the_form_in_player_words() {
    let seen = refusals_read_as_player_words(
        "check_pinochle",
        &["Ann", "Bob", "Cy", "Dee"],
        &[
            &[
                ("dealer", "Dee"),
                ("bidder", "Ann"),
                ("bid", "190"),
                ("trump", "hearts"),
                ("NS.tricks", "150"),
            ],
            &[("dealer", "Dee"), ("bid", "250"), ("trump", "hearts")],
        ],
    )
    .await;
    assert!(seen[0].0.starts_with("Bid: 190 "), "{:?}", seen[0]);
    assert!(
        seen[0].1.as_deref().is_some_and(|r| r.contains("§1.7")),
        "{:?}",
        seen[0]
    );
}

#[tokio::test]
async fn partnership_pinochle_refusals_name_the_form_in_player_words() {
    refusals_read_as_player_words(
        "partnership_pinochle",
        &["Ann", "Bob", "Cy", "Dee"],
        &[
            &[("dealer", "Dee"), ("trump", "hearts"), ("NS.tricks", "300")],
            &[("dealer", "Dee")],
        ],
    )
    .await;
}

#[tokio::test]
async fn partnership_auction_pinochle_refusals_name_the_form_in_player_words() {
    let seen = refusals_read_as_player_words(
        "partnership_auction_pinochle",
        &["Ann", "Bob", "Cy", "Dee"],
        &[
            &[
                ("dealer", "Dee"),
                ("bidder", "Ann"),
                ("bid", "95"),
                ("trump", "hearts"),
            ],
            &[("dealer", "Dee"), ("bid", "250"), ("trump", "hearts")],
            &[("dealer", "Dee"), ("all_passed", "true"), ("bid", "250")],
        ],
    )
    .await;
    assert!(
        seen[1].0.to_lowercase().contains("who won the bid?"),
        "{:?}",
        seen[1]
    );
}

#[tokio::test]
async fn contract_pinochle_refusals_name_the_form_in_player_words() {
    let seen = refusals_read_as_player_words(
        "contract_pinochle",
        &["Ann", "Bob", "Cy", "Dee"],
        &[
            &[
                ("dealer", "Dee"),
                ("bidder", "Ann"),
                ("bid", "90"),
                ("trump", "clubs"),
                ("doubled", "no"),
                ("outcome", "made"),
            ],
            &[
                ("dealer", "Dee"),
                ("bid", "250"),
                ("trump", "clubs"),
                ("doubled", "no"),
                ("outcome", "made"),
            ],
            &[
                ("dealer", "Dee"),
                ("bidder", "Ann"),
                ("bid", "250"),
                ("trump", "clubs"),
                ("doubled", "no"),
            ],
        ],
    )
    .await;
    assert_eq!(seen[0].1.as_deref(), Some("rules §1.8"), "{:?}", seen[0]);
}

#[tokio::test]
async fn two_handed_pinochle_refusals_name_the_form_in_player_words() {
    refusals_read_as_player_words(
        "two_handed_pinochle",
        &["Ann", "Bob"],
        &[
            &[("dealer", "Bob"), ("tricks.Ann", "300")],
            &[("dealer", "Bob")],
        ],
    )
    .await;
}

#[tokio::test]
async fn auction_game_refusals_name_the_form_in_player_words() {
    refusals_read_as_player_words("auction_game", &["Ann", "Bob"], &[&[], &[("how", "final")]])
        .await;
}

#[tokio::test]
async fn poker_refusals_name_the_form_in_player_words() {
    refusals_read_as_player_words(
        "poker",
        &["Ann", "Bob", "Cy"],
        &[
            &[("dealer", "Ann")],
            &[("dealer", "Ann"), ("put_in.Ann", "abc")],
        ],
    )
    .await;
}

/// Every game's sheet (its fullest golden case that stands): no row shows "rules §" on its
/// face; citations sit inside the rows' details.
#[tokio::test]
async fn sheet_rows_keep_their_citations_in_the_details() {
    let golden = golden_fixtures();
    for registration in registry::GAMES {
        let id = registration.game.id;
        let app = TestApp::new().await;
        let mut imported = 0;
        for entry in std::fs::read_dir(golden.join(id)).unwrap() {
            let path = entry.unwrap().path();
            let case: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let Ok(doc) = serde_json::from_value::<SessionDoc>(case["session"].clone()) else {
                continue;
            };
            let Ok(session) = scorekeeper::service::import(&app.pool, &doc, None).await else {
                continue;
            };
            imported += 1;
            let page = app.get(&format!("/sessions/{session}")).await;
            assert_eq!(page.status, 200, "{id}: {}", page.body);
            let rows = between(&page.body, "<table", "</table>");
            let face = without_details(rows);
            assert!(
                !face.contains("rules §"),
                "{id} {}: a row shows a citation on its face: {}",
                path.display(),
                context(&face, "rules §")
            );
            let settle = between(&page.body, "id=\"settle\"", "</section>");
            assert!(
                !without_details(settle).contains("rules §"),
                "{id}: the settle-up shows a citation on its face"
            );
            assert!(
                !page.body.contains(" USD"),
                "{id}: money reads with its symbol, not the code: {}",
                context(&page.body, " USD")
            );
        }
        assert!(imported > 0, "{id}: no golden case stands to show");
    }
}

/// The API keeps the contract's refusal: the event, the field, and the reason with its rule
/// cited after it, while the page shows the reason alone.
#[tokio::test]
async fn the_api_refusal_still_cites_the_rule() {
    let app = TestApp::new().await;
    let sheet = start(&app, "auction_pinochle", &["Ann", "Bob", "Cy"], &[]).await;
    let id = sheet.rsplit('/').next().unwrap();
    let reply = app
        .post_json(
            &format!("/api/v1/sessions/{id}/events"),
            &serde_json::json!({"type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 240,
                                "trump": "hearts", "outcome": "made"}),
        )
        .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    let error = &reply.json()["error"];
    assert_eq!(error["field"], "bid");
    assert_eq!(
        error["message"],
        "event 0: bid: 240 is below the minimum 250 (rules §1.1)"
    );
}

/// The agreements read money as every page writes it: "$0.05 a unit", never "0.05 USD a
/// unit" (nor "5¢ a unit", a second way to write it).
#[tokio::test]
async fn agreements_read_in_money_words() {
    let app = TestApp::new().await;
    let sheet = start(
        &app,
        "auction_pinochle",
        &["Ann", "Bob", "Cy"],
        &[("a.stake", "0.05")],
    )
    .await;
    let page = app.get(&sheet).await;
    assert!(page.body.contains("$0.05 a unit"), "{}", page.body);
    let sheet = start(
        &app,
        "contract_pinochle",
        &["A", "B", "C", "D"],
        &[("a.stake", "1.00")],
    )
    .await;
    let page = app.get(&sheet).await;
    assert!(page.body.contains("$1.00 a game"), "{}", page.body);
    let sheet = start(
        &app,
        "auction_pitch",
        &["A", "B", "C"],
        &[("a.stake", "0.10")],
    )
    .await;
    let page = app.get(&sheet).await;
    assert!(page.body.contains("$0.10 a point"), "{}", page.body);
}

/// The sessions list and the club page name each game as players do, with the sheet's time
/// words, never the game's id or a raw stored time.
#[tokio::test]
async fn the_session_lists_name_the_game() {
    let app = TestApp::new().await;
    let (club_id, cookie) = app.new_club("Thursday").await;
    let club_page = format!("/clubs/{club_id}");
    let cookie = cookie.as_str();
    for (game, players) in [
        ("check_pinochle", &["Ann", "Bob", "Cy", "Dee"][..]),
        ("auction_pitch", &["Ann", "Bob", "Cy"][..]),
    ] {
        let mut form = vec![("game", game)];
        let seats = ["player_1", "player_2", "player_3", "player_4"];
        form.extend(seats.iter().copied().zip(players.iter().copied()));
        let reply = app
            .post_form_with("/sessions", &form, &[("cookie", cookie)])
            .await;
        assert_eq!(reply.status.as_u16(), 303, "{game}: {}", reply.body);
    }
    for page in ["/", club_page.as_str()] {
        let list = app.get_with(page, &[("cookie", cookie)]).await;
        assert_eq!(list.status.as_u16(), 200, "{page}: {}", list.body);
        let sessions = outer_html(&list.body, "ul.sessions").concat();
        assert!(sessions.contains("Check Pinochle"), "{page}: {sessions}");
        assert!(sessions.contains("Auction Pitch"), "{page}: {sessions}");
        assert!(!sessions.contains("check_pinochle"), "{page}: {sessions}");
        assert!(!sessions.contains("auction_pitch"), "{page}: {sessions}");
        assert!(
            select_text(&sessions, "time")
                .iter()
                .any(|t| t.ends_with(" UTC")),
            "{page}: time words: {sessions}"
        );
        assert!(
            !select_text(&sessions, "time")
                .iter()
                .any(|t| t.ends_with('Z'))
                && !sessions.contains(":00+00:00"),
            "{page}: {sessions}"
        );
    }
}

/// The part of `page` from `start` to the next `end` (inclusive), or all of it.
fn between<'a>(page: &'a str, start: &str, end: &str) -> &'a str {
    let Some(from) = page.find(start) else {
        return "";
    };
    let to = page[from..]
        .find(end)
        .map_or(page.len(), |i| from + i + end.len());
    &page[from..to]
}

/// `html` with every `<details>…</details>` left out (nested ones included).
fn without_details(html: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut rest = html;
    while !rest.is_empty() {
        let open = rest.find("<details");
        let close = rest.find("</details>");
        match (open, close) {
            (Some(o), c) if c.is_none_or(|c| o < c) => {
                if depth == 0 {
                    out.push_str(&rest[..o]);
                }
                depth += 1;
                rest = &rest[o + "<details".len()..];
            }
            (_, Some(c)) => {
                if depth == 0 {
                    out.push_str(&rest[..c]);
                }
                depth = depth.saturating_sub(1);
                rest = &rest[c + "</details>".len()..];
            }
            _ => {
                if depth == 0 {
                    out.push_str(rest);
                }
                break;
            }
        }
    }
    out
}

/// A few lines around the first `needle` in `text`, for a failure message.
fn context(text: &str, needle: &str) -> String {
    let at = text.find(needle).unwrap_or(0);
    let from = text.floor_char_boundary(at.saturating_sub(200));
    let to = text.ceil_char_boundary((at + 200).min(text.len()));
    text[from..to].to_string()
}

/// The new-session form refused, for every game: an amount that is no amount, a negative
/// one, a number that is no number, a choice the menu does not offer, too few players, a
/// name twice. Each message names the
/// thing on the form by its label's words ("Stake: …"), never `agreements.stake`, and reads
/// as player words.
#[tokio::test]
async fn new_session_refusals_name_the_form_field() {
    let app = TestApp::new().await;
    let mut seen = Vec::new();
    for r in registry::GAMES {
        let game = r.game.id;
        let (fewest, _) = r.game.seats;
        let names = [
            "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo",
        ];
        let seats: Vec<(String, &str)> = (1..=fewest)
            .map(|i| (format!("player_{i}"), names[i - 1]))
            .collect();
        let mut bad: Vec<(String, Vec<(String, String)>)> = Vec::new();
        let mut labels = Vec::new();
        for spec in r.game.agreements {
            let field = format!("a.{}", spec.name);
            let values: &[&str] = match spec.kind {
                scorekeeper::rules::game::SpecKind::Money => &["abc", "-0.05"],
                scorekeeper::rules::game::SpecKind::Number => &["abc", "-5"],
                _ => &["no-such-choice"],
            };
            for v in values {
                bad.push((
                    format!("{} = {v}", spec.label),
                    vec![(field.clone(), (*v).to_string())],
                ));
                labels.push(format!("{} = {v}", spec.label));
            }
        }
        bad.push((
            "one player short".into(),
            vec![("player_1".into(), String::new())],
        ));
        bad.push((
            "a name twice".into(),
            vec![("player_2".into(), "Ann".into())],
        ));
        for (what, change) in bad {
            let mut form: Vec<(String, String)> = vec![("game".into(), game.into())];
            for (seat, name) in &seats {
                form.push((seat.clone(), (*name).to_string()));
            }
            // Words the table must write (a house game's name) are written.
            for spec in r.game.agreements {
                if matches!(spec.kind, scorekeeper::rules::game::SpecKind::Text) {
                    form.push((format!("a.{}", spec.name), "Our game".into()));
                }
            }
            for (k, v) in change {
                form.retain(|(f, _)| *f != k);
                form.push((k, v));
            }
            let form: Vec<(&str, &str)> =
                form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            let reply = app.post_form("/sessions", &form).await;
            if reply.status.as_u16() == 303 {
                println!("{game}: {what}: accepted");
                continue;
            }
            let (message, _) = refusal_of(&reply.body);
            let message = message.replace("&#39;", "'").replace("&#34;", "\"");
            println!("{game}: {what}: {message}");
            // An agreement is named as the form labels it: "Game (points): …".
            if labels.contains(&what) {
                let label = what.split(" = ").next().unwrap_or_default();
                assert!(
                    message.starts_with(&format!("{label}: ")),
                    "{game}: {what}: {message}"
                );
            }
            seen.push((game, what, message));
        }
    }
    let faults: Vec<String> = seen
        .iter()
        .filter(|(_, _, m)| !developer_words(m).is_empty() || m.contains("agreements"))
        .map(|(g, w, m)| format!("{g}: {w}: {m:?} has {:?}", developer_words(m)))
        .collect();
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// An Auction Pinochle bid that is set reads in the table's words on its row: "set: double
/// bete"; a throw-in before the lead "single bete", after it "double bete" (rules §1.1
/// settlement: 2 × single for failed and conceded after the lead, 1 × before it). The
/// session document keeps the outcome's id (`failed`).
#[tokio::test]
async fn a_set_auction_pinochle_bid_reads_double_bete() {
    let app = TestApp::new().await;
    let sheet = start(&app, "auction_pinochle", &["Ann", "Bob", "Cy"], &[]).await;
    let hands: [(&str, &str, &str); 3] = [
        ("Cy", "Ann", "failed"),
        ("Ann", "Bob", "conceded_before_lead"),
        ("Bob", "Cy", "conceded_after_lead"),
    ];
    for (i, (dealer, bidder, outcome)) in hands.iter().enumerate() {
        let expected = i.to_string();
        let reply = app
            .post_form(
                &format!("{sheet}/hands"),
                &[
                    ("expected_events", &expected),
                    ("dealer", dealer),
                    ("bidder", bidder),
                    ("bid", "300"),
                    ("trump", "clubs"),
                    ("outcome", outcome),
                ],
            )
            .await;
        assert_eq!(reply.status.as_u16(), 303, "{outcome}: {}", reply.body);
    }
    let page = app.get(&sheet).await.body;
    for (who, words) in [
        ("Ann", "set: double bete"),
        ("Bob", "conceded before the lead: single bete"),
        ("Cy", "conceded after the lead: double bete"),
    ] {
        let row = format!("{who} bid 300 ♣ {words}");
        assert!(bold_says(&page, who, &row), "{who}: {row} not in {page}");
        assert!(
            select_text(&page, "span.trump[title=clubs]").contains(&"♣".to_string())
                && select_text(&page, "span[class=\"result bad\"]").contains(&words.to_string()),
            "{who}: {words} not marked in {page}"
        );
    }
    // The form's chip says it the same way, and still sends the document's id.
    assert!(
        select_text(&page, "input[name=outcome][value=failed] + span") == ["set"],
        "the outcome chip for a bid that is not made reads \"set\": {page}"
    );
    let export = app
        .get(&format!(
            "/api/v1/sessions/{}/export",
            sheet.rsplit('/').next().unwrap()
        ))
        .await
        .json();
    assert_eq!(export["events"][0]["outcome"], "failed");
}
