//! House games through the real router (rules §1.12): the presets and a club's own games
//! on the new-session form, the hand form (numbers, a shot moon, game over, a refused sum),
//! the first screen's standing, history under the game's own name, and a night holding a
//! Hearts session and a pinochle session settled in one set of transfers that hledger
//! balances. Expected numbers are worked out here from the rules, not read from the output.

use crate::common;

use common::TestApp;
use common::html::has;
use common::nights::{import_to_club, make_night, pay_at_night, pinochle};
use common::pages::{club_ledger_of, ledger_of, post_hand, post_hand_ok, start_game};
use scorekeeper::format::SessionDoc;
use serde_json::{Value, json};

const FOUR: [&str; 4] = ["Ann", "Bob", "Cy", "Dee"];

/// The hand form as a phone posts it: the events seen, the dealer, each player's number.
fn hand(expected: usize, dealer: &str, points: [&str; 4]) -> Vec<(String, String)> {
    let mut form = vec![
        ("expected_events".to_string(), expected.to_string()),
        ("dealer".to_string(), dealer.to_string()),
    ];
    for (p, n) in FOUR.iter().zip(points) {
        form.push((format!("points.{p}"), n.to_string()));
    }
    form
}

/// Hearts as the preset fills it in, at 0.05 a point.
async fn hearts(app: &TestApp) -> (String, String) {
    start_game(
        app,
        "house_game",
        &FOUR,
        &[
            ("name", "Hearts"),
            ("winner", "low"),
            ("target", "100"),
            ("hand_totals", "26, 78"),
            ("settlement", "pairwise_difference"),
            ("stake", "0.05"),
            ("hands", ""),
            ("payouts", ""),
        ],
    )
    .await
}

/// The Hearts preset is one tap: its link fills in the agreements, which stay editable.
#[tokio::test]
async fn the_presets_fill_in_the_agreements_in_one_tap() {
    let app = TestApp::new().await;
    let form = app.get("/sessions/new?game=house_game").await.body;
    for preset in [
        "Gin Rummy",
        "Hearts",
        "Rummy 500",
        "Cribbage",
        "Golf",
        "Oh Hell",
    ] {
        assert!(
            form.contains(&format!("<b>{preset}</b>")),
            "{preset}: {form}"
        );
    }
    let link = common::html::select_attr(&form, "nav.presets a", "href")
        .into_iter()
        .find(|h| h.contains("Hearts"))
        .unwrap()
        .replace("&amp;", "&");
    let filled = app.get(&link).await.body;
    assert!(
        has(&filled, "input[name='a.name'][value='Hearts']"),
        "{filled}"
    );
    assert!(
        has(&filled, "input[name='a.target'][value='100']"),
        "{filled}"
    );
    assert!(
        has(&filled, "input[name='a.hand_totals'][value='26, 78']"),
        "{filled}"
    );
    assert!(
        has(
            &filled,
            "select[name='a.winner'] option[value='low'][selected]"
        ),
        "{filled}"
    );
}

/// A club's own house game is offered first, with its agreements, the next time.
#[tokio::test]
async fn a_clubs_own_house_game_is_offered_first_next_time() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let own: SessionDoc = serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "house_game", "currency": "USD",
        "agreements": {"name": "Spite and Malice", "target": 250, "stake": "0.10"},
        "players": ["Ann", "Bob"], "events": []
    }))
    .unwrap();
    import_to_club(&app, club, &own).await;
    let form = app.page(&cookie, "/sessions/new?game=house_game").await;
    let offered = common::html::select_text(&form, "nav.presets a b");
    assert_eq!(
        offered.first().map(String::as_str),
        Some("Spite and Malice"),
        "{offered:?}"
    );
    assert_eq!(
        offered.len(),
        7,
        "the club's own, then the six presets: {offered:?}"
    );
    let link = common::html::select_attr(&form, "nav.presets a", "href")[0].replace("&amp;", "&");
    let filled = app.page(&cookie, &link).await;
    assert!(
        has(&filled, "input[name='a.target'][value='250']"),
        "{filled}"
    );
    assert!(
        has(&filled, "input[name='a.stake'][value='0.10']"),
        "{filled}"
    );
}

/// HG-02's first two hands through the form, the second a shot moon in one tap; a hand of
/// 25 refused in the table's words with nothing written; the first screen names the
/// leader (lowest: Cy at 0) and what ending now would pay: totals Ann 36, Bob 32, Cy 0,
/// Dee 36, S = 104, nets 0.05 × (104 − 4s): −2.00, −1.20, +5.20, −2.00.
#[tokio::test]
async fn hearts_by_the_form_a_moon_in_one_tap_and_a_wrong_sum_refused() {
    let app = TestApp::new().await;
    let (sheet, id) = hearts(&app).await;
    post_hand_ok(&app, &sheet, &hand(0, "Ann", ["10", "6", "", "10"])).await;
    let mut moon = hand(1, "Bob", ["", "", "", ""]);
    moon.push(("moon".into(), "Cy".into()));
    moon.push(("moon_points".into(), "26".into()));
    post_hand_ok(&app, &sheet, &moon).await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(
        ledger["scores"],
        json!({"Ann": 36, "Bob": 32, "Cy": 0, "Dee": 36})
    );

    let refused = post_hand(&app, &sheet, &hand(2, "Cy", ["10", "5", "", "10"])).await;
    assert_eq!(refused.status.as_u16(), 422, "{}", refused.body);
    assert!(
        refused
            .body
            .contains("the points add up to 25, but every hand of Hearts adds up to 26 or 78"),
        "{}",
        refused.body
    );
    assert_eq!(
        ledger_of(&app, &id).await["events"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    let page = app.get(&sheet).await.body;
    assert!(has(&page, "li.leads"), "{page}");
    let leader = common::html::select_text(&page, "li.leads b");
    assert_eq!(leader.first().map(String::as_str), Some("Cy"), "{page}");
    assert!(
        page.contains(
            "Ending now pays: Ann −\u{2060}$2.00, Bob −\u{2060}$1.20, Cy +\u{2060}$5.20, Dee −\u{2060}$2.00"
        ),
        "{page}"
    );
    assert!(page.contains("64 to go to 100"), "{page}");
    // Low wins: the points a hand adds are a loss, coloured as one; nothing is a gain.
    let losses = common::html::select_text(&page, "#sheet td.points span.minus");
    assert!(losses.contains(&"+26".to_string()), "{losses:?}");
    assert!(
        common::html::select_text(&page, "#sheet td.points span.plus").is_empty(),
        "{page}"
    );
}

/// Game over from the form ends the game as it stands: Gin Rummy, Ann 40, Bob 25, 0.01 a
/// point pairwise: Bob pays 0.15; the game is Ann's.
#[tokio::test]
async fn game_over_from_the_form_settles_the_game_as_it_stands() {
    let app = TestApp::new().await;
    let (sheet, id) = start_game(
        &app,
        "house_game",
        &["Ann", "Bob"],
        &[("name", "Gin Rummy"), ("target", "100"), ("stake", "0.01")],
    )
    .await;
    let form = vec![
        ("expected_events".to_string(), "0".to_string()),
        ("dealer".to_string(), "Ann".to_string()),
        ("points.Ann".to_string(), "40".to_string()),
        ("points.Bob".to_string(), "25".to_string()),
    ];
    post_hand_ok(&app, &sheet, &form).await;
    let over = vec![
        ("expected_events".to_string(), "1".to_string()),
        ("game_over".to_string(), "true".to_string()),
    ];
    post_hand_ok(&app, &sheet, &over).await;
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["balances"], json!({"Ann": "0.15", "Bob": "-0.15"}));
    assert_eq!(ledger["games"][0]["winner"], "Ann");
    assert_eq!(ledger["games"][0]["decided_by"], "game_over");
}

/// HG-02 with Ann, Bob, Cy, Dee, closed: nets by the pairwise formula for low wins,
/// `0.05 × (S − 4s)` with totals 101, 78, 16, 39 and S = 234.
fn hearts_evening() -> (SessionDoc, [i64; 4]) {
    let hands = [
        [10, 6, 0, 10],
        [26, 26, 0, 26],
        [13, 0, 13, 0],
        [0, 20, 3, 3],
        [26, 0, 0, 0],
        [0, 26, 0, 0],
        [26, 0, 0, 0],
    ];
    let totals: Vec<i64> = (0..4).map(|i| hands.iter().map(|h| h[i]).sum()).collect();
    let sum: i64 = totals.iter().sum();
    let nets = [0, 1, 2, 3].map(|i| 5 * (sum - 4 * totals[i]));
    let doc = common::tables::hearts(FOUR, &hands, &[json!({"type": "close"})]);
    let doc = serde_json::from_value(doc).unwrap();
    (doc, nets)
}

/// A night of a Hearts session and a pinochle session settles both in one set of
/// transfers: each player's transfers net to his Hearts net (by the formula) plus his
/// pinochle net (that session's own ledger); paid, hledger balances the club journal to
/// zero. The history lists the Hearts session under its own name.
#[tokio::test]
async fn a_night_of_hearts_and_pinochle_settles_both_and_hledger_balances() {
    let app = TestApp::new().await;
    let (club, cookie) = app.new_club("Thursday").await;
    let (doc, hearts_nets) = hearts_evening();
    let hearts = import_to_club(&app, club, &doc).await;
    let pinochle_doc = pinochle("Dee", 2, &[json!({"type": "close"})]);
    let pinochle = import_to_club(&app, club, &pinochle_doc).await;
    let pinochle_ledger = club_ledger_of(&app, &pinochle, &cookie).await;
    let cents = |v: &Value| {
        scorekeeper::money::Money::parse(v.as_str().unwrap())
            .unwrap()
            .cents()
    };
    let mut owed: std::collections::BTreeMap<String, i64> = FOUR
        .iter()
        .map(|p| p.to_string())
        .zip(hearts_nets)
        .collect();
    for (p, m) in pinochle_ledger["balances"].as_object().unwrap() {
        *owed.entry(p.clone()).or_default() += cents(m);
    }
    let (location, night) = make_night(&app, &cookie, club, &[hearts, pinochle], "").await;
    let v = app
        .get_with(
            &format!("/api/v1/clubs/{club}/nights/{night}"),
            &[("cookie", &cookie)],
        )
        .await
        .json();
    let transfers = v["transfers"].as_array().unwrap().clone();
    let mut by_transfers: std::collections::BTreeMap<String, i64> = Default::default();
    for t in &transfers {
        let amount = cents(&t["amount"]);
        *by_transfers
            .entry(t["from"].as_str().unwrap().into())
            .or_default() -= amount;
        *by_transfers
            .entry(t["to"].as_str().unwrap().into())
            .or_default() += amount;
    }
    owed.retain(|_, c| *c != 0);
    by_transfers.retain(|_, c| *c != 0);
    assert_eq!(
        by_transfers, owed,
        "one set of transfers settles both sessions"
    );
    assert!(
        transfers.len() < owed.len(),
        "fewer transfers than people: {transfers:?}"
    );
    for (n, t) in transfers.iter().enumerate() {
        let (from, to, amount) = (&t["from"], &t["to"], &t["amount"]);
        pay_at_night(
            &app,
            &cookie,
            &location,
            [
                &n.to_string(),
                from.as_str().unwrap(),
                to.as_str().unwrap(),
                amount.as_str().unwrap(),
            ],
        )
        .await;
    }
    let journal = app
        .get_with(
            &format!("/api/v1/clubs/{club}/journal"),
            &[("cookie", &cookie)],
        )
        .await;
    assert_eq!(journal.status.as_u16(), 200, "{}", journal.body);
    if let Some(balances) = common::nights::hledger_balances(&journal.body, "hearts-night") {
        assert_eq!(balances, Default::default(), "hledger: everyone square");
    }
    // Another Hearts night and a Gin Rummy session (HG-01, Ann +0.65): Ann's page counts
    // her two Hearts sessions together, apart from Gin Rummy, each under its own name.
    import_to_club(&app, club, &doc).await;
    let gin: SessionDoc = serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "house_game", "currency": "USD",
        "agreements": {"name": "Gin Rummy", "stake": "0.01", "target": 100},
        "players": ["Ann", "Bob"],
        "events": [{"type": "hand", "points": {"Ann": 25}}, {"type": "hand", "points": {"Bob": 40}},
            {"type": "hand", "points": {"Ann": 80}}, {"type": "close"}]
    }))
    .unwrap();
    import_to_club(&app, club, &gin).await;
    let history = app.page(&cookie, &format!("/clubs/{club}/history")).await;
    let listed = common::html::select_text(&history, "ul.history");
    assert!(listed.iter().any(|l| l.contains("Gin Rummy")), "{history}");
    assert!(
        !listed.iter().any(|l| l.contains("House game")),
        "{history}"
    );
    let ann = common::person(&history, "Ann");
    let page = app
        .page(&cookie, &format!("/clubs/{club}/players/{ann}"))
        .await;
    let row = |game: &str| common::html::select_text(&page, &format!("tr[data-game='{game}'] td"));
    assert_eq!(
        row("Hearts")[..2],
        ["2".to_string(), "−\u{2060}$17.00".to_string()],
        "{page}"
    );
    assert_eq!(
        row("Gin Rummy")[..2],
        ["1".to_string(), "$0.65".to_string()],
        "{page}"
    );
    assert!(row("house_game").is_empty(), "{page}");
}
