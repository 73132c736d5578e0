//! The Check Pinochle pages through the real router (rules §1.7): the new-session form, the
//! hand form, the score sheet and the ledger document agree. Expected numbers are worked
//! out here from the Hoyle column of the rules' check table, not read from the output.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed test should stop right there

use crate::common;

use common::TestApp;
use common::html::{bold_says, has, has_parts, select_attr, select_text, selected};
use common::pages::{contract_form, export_of, ledger_of, post_hand, post_hand_ok, start_game};
use serde_json::json;

/// Rules §1.7, Hoyle column: checks for making a bid, by band (lowest bid, checks).
const HOYLE_MAKE: [(i64, i64); 8] = [
    (200, 2),
    (250, 4),
    (300, 7),
    (350, 10),
    (400, 15),
    (450, 20),
    (500, 25),
    (550, 30),
];

/// Rules §1.7, Hoyle column: checks for one occurrence of each check-bearing meld.
fn meld_checks(meld: &str) -> i64 {
    match meld {
        "flush" | "aces_100" | "double_pinochle" => 2,
        "kings_80" | "queens_60" | "jacks_40" => 1,
        "roundhouse" => 5,
        other => panic!("{other} is not a check meld"),
    }
}

/// Checks for making `bid` (bids up to 590 only).
fn make(bid: i64) -> i64 {
    HOYLE_MAKE
        .iter()
        .rev()
        .find(|(low, _)| *low <= bid)
        .unwrap()
        .1
}

/// Checks for defeating `bid`: twice the making value (rules §1.7).
fn defeat(bid: i64) -> i64 {
    2 * make(bid)
}

/// Scarne's game award, the form's default (rules §1.7).
const SCARNE_GAME: i64 = 7;

const PLAYERS: [&str; 4] = ["Ann", "Bob", "Cy", "Dan"];

/// Creates Ann & Cy (NS) against Bob & Dan (EW) through the new-session form with its
/// defaults: 5¢ a check, Hoyle table, Scarne game award, 1,000, per player.
async fn new_session(app: &TestApp) -> (String, String) {
    start_game(
        app,
        "check_pinochle",
        &PLAYERS,
        &[
            ("stake", "0.05"),
            ("check_table", "hoyle"),
            ("game_award", "scarne"),
            ("target", "1000"),
            ("settlement", "per_player"),
            ("meld_needs_trick", "yes"),
            ("slam_and_count_cumulative", "yes"),
            ("roundhouse_includes_kings_queens_checks", "no"),
            ("unfinished_game", "settle"),
        ],
    )
    .await
}

/// One side's part of the hand form: meld, check melds (repeated for each occurrence),
/// tricks.
struct SideIn<'a> {
    meld: i64,
    checks: &'a [&'a str],
    tricks: i64,
}

/// The hand form as a phone would submit it: every check-meld count is sent, 0 by default.
fn hand_form(
    expected: usize,
    dealer: &str,
    bidder: &str,
    bid: i64,
    trump: &str,
    ns: &SideIn<'_>,
    ew: &SideIn<'_>,
) -> Vec<(String, String)> {
    let mut form = contract_form((expected, dealer, bidder), (bid, trump), []);
    for (name, side) in [("NS", ns), ("EW", ew)] {
        form.push((format!("{name}.meld"), side.meld.to_string()));
        form.push((format!("{name}.tricks"), side.tricks.to_string()));
        for meld in [
            "flush",
            "aces_100",
            "kings_80",
            "queens_60",
            "jacks_40",
            "double_pinochle",
            "roundhouse",
        ] {
            let n = side.checks.iter().filter(|m| **m == meld).count();
            form.push((format!("{name}.meld_checks.{meld}"), n.to_string()));
        }
    }
    form
}

/// A number as the sheet writes it: "−350" with a true minus sign.
fn shown(n: i64) -> String {
    if n < 0 {
        format!("−{}", -n)
    } else {
        n.to_string()
    }
}

#[tokio::test]
async fn ns_bid_350_and_fall_short_on_the_sheet_and_in_the_ledger() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app).await;
    // NS (Ann bids) 350 in hearts: meld 200 with a flush + tricks 120 = 320, short of 350.
    // EW meld 160 (100 aces + 60 queens) and take tricks 130.
    let ns = SideIn {
        meld: 200,
        checks: &["flush"],
        tricks: 120,
    };
    let ew = SideIn {
        meld: 160,
        checks: &["aces_100", "queens_60"],
        tricks: 130,
    };
    post_hand_ok(
        &app,
        &sheet,
        &hand_form(0, "Ann", "Ann", 350, "hearts", &ns, &ew),
    )
    .await;

    let ew_points = ew.meld + ew.tricks;
    let ew_checks = defeat(350) + meld_checks("aces_100") + meld_checks("queens_60");
    assert_eq!((ew_points, ew_checks), (290, 23), "worked out from §1.7");

    // The ledger document.
    let ledger = ledger_of(&app, &id).await;
    let after = &ledger["events"][0]["scores_after"];
    assert_eq!(after["scores"], json!({"NS": -350, "EW": ew_points}));
    assert_eq!(after["checks"], json!({"NS": 0, "EW": ew_checks}));
    assert_eq!(ledger["scores"], json!({"NS": -350, "EW": ew_points}));
    assert_eq!(ledger["checks"], json!({"NS": 0, "EW": ew_checks}));
    let explanation = ledger["events"][0]["explanation"].as_str().unwrap();
    assert!(explanation.contains("NS −350, no checks"), "{explanation}");

    // The sheet: NS at −350 with no checks, EW with their meld checks plus the defeat.
    let page = app.get(&sheet).await;
    assert_eq!(page.status.as_u16(), 200);
    let body = &page.body;
    assert_eq!(
        select_text(body, "span.result.bad"),
        ["set"],
        "the defeated bid is marked set on its row"
    );
    assert!(body.contains("NS in the hole"), "below zero after the hand");
    assert!(
        has_parts(
            body,
            "td.tally.points[data-account=NS]",
            &[shown(-350), shown(-350)]
        ),
        "NS points column: −350 on the hand, −350 running"
    );
    assert!(
        has(
            body,
            "td.tally.points[data-account=NS] span.minus + span.hole[title=\"in the hole\"]"
        ),
        "the running total is marked in the hole"
    );
    assert!(
        has_parts(body, "td.tally.checks[data-account=NS]", &["0", "0"]),
        "NS checks column: no checks"
    );
    // EW gained on the hand what they now stand at: "+n" on the hand, "n" running.
    for (column, gained) in [("points", ew_points), ("checks", ew_checks)] {
        assert!(
            has_parts(
                body,
                &format!("td.tally.{column}[data-account=EW]"),
                &[format!("+{gained}"), gained.to_string()]
            ),
            "EW {column} column"
        );
    }
    // Itemised: the defeat checks and each of EW's meld checks; NS's flush is cancelled.
    assert!(body.contains(&format!("+{} defeat 350–390", defeat(350))));
    assert!(body.contains(&format!("+{} 100 aces", meld_checks("aces_100"))));
    assert!(body.contains(&format!("+{} 60 queens", meld_checks("queens_60"))));
    assert!(body.contains("−350, no checks"));
    assert!(body.contains("flush cancelled"));
    assert!(body.contains("meld 200: flush"), "NS's meld is shown");
    assert!(body.contains("meld 160: 100 aces, 60 queens"));
    assert!(
        select_text(body, "th.head small").contains(&"Ann & Cy".to_string()),
        "the side names its players"
    );
    // The next dealer (Ann's left) is pre-selected.
    assert_eq!(
        selected(body, "dealer").as_deref(),
        Some("Bob"),
        "Bob deals next"
    );
}

#[tokio::test]
async fn tricks_that_do_not_make_250_are_refused_and_nothing_is_written() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app).await;
    let before = export_of(&app, &id).await;
    let ns = SideIn {
        meld: 100,
        checks: &["aces_100"],
        tricks: 120,
    };
    let ew = SideIn {
        meld: 60,
        checks: &[],
        tricks: 120,
    };
    let reply = post_hand(
        &app,
        &sheet,
        &hand_form(0, "Ann", "Bob", 250, "clubs", &ns, &ew),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 422, "{}", reply.body);
    assert!(
        reply
            .body
            .contains("EW tricks: NS 120 + EW 120 = 240 trick points"),
        "the message names the field: {}",
        reply.body
    );
    assert_eq!(
        select_attr(
            &reply.body,
            "input[name=\"EW.tricks\"][type=number][max=\"250\"][aria-invalid=true]",
            "value"
        ),
        ["120"],
        "the field is marked and its value kept: {}",
        reply.body
    );
    assert_eq!(
        select_attr(
            &reply.body,
            "input[name=\"NS.meld_checks.aces_100\"][type=number][max=\"2\"]",
            "value"
        ),
        ["1"],
        "the counts are kept"
    );
    let after = export_of(&app, &id).await;
    assert_eq!(before, after, "nothing was written");
    assert!(after["events"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn a_whole_game_to_1000_ends_with_the_winner_and_the_payments() {
    let app = TestApp::new().await;
    let (sheet, id) = new_session(&app).await;
    struct Deal<'a> {
        dealer: &'a str,
        bidder: &'a str,
        bid: i64,
        trump: &'a str,
        ns: SideIn<'a>,
        ew: SideIn<'a>,
    }
    let deals = [
        // Bob (EW) makes 250: 100 + 170 = 270.
        Deal {
            dealer: "Ann",
            bidder: "Bob",
            bid: 250,
            trump: "spades",
            ns: SideIn {
                meld: 60,
                checks: &["queens_60"],
                tricks: 80,
            },
            ew: SideIn {
                meld: 100,
                checks: &["aces_100"],
                tricks: 170,
            },
        },
        // Cy (NS) makes 300: 150 + 160 = 310.
        Deal {
            dealer: "Bob",
            bidder: "Cy",
            bid: 300,
            trump: "hearts",
            ns: SideIn {
                meld: 150,
                checks: &["flush"],
                tricks: 160,
            },
            ew: SideIn {
                meld: 40,
                checks: &["jacks_40"],
                tricks: 90,
            },
        },
        // Dan (EW) falls short of 350: 80 + 100 = 180.
        Deal {
            dealer: "Cy",
            bidder: "Dan",
            bid: 350,
            trump: "clubs",
            ns: SideIn {
                meld: 20,
                checks: &[],
                tricks: 150,
            },
            ew: SideIn {
                meld: 80,
                checks: &["kings_80"],
                tricks: 100,
            },
        },
        // Ann (NS) makes 400 with a roundhouse: 240 + 200 = 440, and NS pass 1,000.
        Deal {
            dealer: "Dan",
            bidder: "Ann",
            bid: 400,
            trump: "diamonds",
            ns: SideIn {
                meld: 240,
                checks: &["roundhouse"],
                tricks: 200,
            },
            ew: SideIn {
                meld: 0,
                checks: &[],
                tricks: 50,
            },
        },
    ];
    // Work the sheet out from §1.7: both sides score when the bid is made; a side that
    // falls short scores −bid and no checks, its opponents get the defeat checks.
    let mut points = [0i64, 0];
    let mut checks = [0i64, 0];
    for (i, d) in deals.iter().enumerate() {
        let bidding = if ["Ann", "Cy"].contains(&d.bidder) {
            0
        } else {
            1
        };
        let sides = [&d.ns, &d.ew];
        let made = sides[bidding].meld + sides[bidding].tricks >= d.bid;
        for s in 0..2 {
            let own: i64 = sides[s].checks.iter().map(|m| meld_checks(m)).sum();
            if s == bidding && !made {
                points[s] -= d.bid;
            } else {
                points[s] += sides[s].meld + sides[s].tricks;
                checks[s] += own;
                checks[s] += match (s == bidding, made) {
                    (true, _) => make(d.bid),
                    (false, false) => defeat(d.bid),
                    (false, true) => 0,
                };
            }
        }
        let reply = post_hand(
            &app,
            &sheet,
            &hand_form(i, d.dealer, d.bidder, d.bid, d.trump, &d.ns, &d.ew),
        )
        .await;
        assert_eq!(reply.status.as_u16(), 303, "hand {}: {}", i + 1, reply.body);
    }
    assert_eq!(points, [1060, 100], "NS pass 1,000 on the fourth hand");
    assert_eq!(checks, [50, 7]);
    checks[0] += SCARNE_GAME;
    let difference = checks[0] - checks[1];
    let each = format!("{}.{:02}", difference * 5 / 100, difference * 5 % 100);
    assert_eq!(each, "2.50");

    let ledger = ledger_of(&app, &id).await;
    assert_eq!(
        ledger["games"],
        json!([{"winner": "NS", "decided_by": "target", "final_scores": {"NS": points[0], "EW": points[1]}}])
    );
    let last = &ledger["events"][3];
    assert_eq!(
        last["scores_after"]["checks"],
        json!({"NS": checks[0], "EW": checks[1]})
    );
    // Per player: each EW player pays his opposite number (Bob → Ann, Dan → Cy).
    assert_eq!(ledger["balances"]["Ann"], each);
    assert_eq!(ledger["balances"]["Cy"], each);
    assert_eq!(ledger["balances"]["Bob"], format!("-{each}"));
    assert_eq!(ledger["balances"]["Dan"], format!("-{each}"));

    let page = app.get(&sheet).await;
    let body = &page.body;
    assert!(
        bold_says(body, "Game 1: NS wins", "Game 1: NS wins at"),
        "the game row names the winner"
    );
    assert!(body.contains(&format!("+{SCARNE_GAME} checks to NS: game award")));
    let payments = select_text(body, "li:has(> span.plus), li:has(> span.minus)");
    for (player, sign) in [("Ann", "+"), ("Bob", "−"), ("Cy", "+"), ("Dan", "−")] {
        assert!(
            payments.contains(&format!("{player} {sign}\u{2060}${each}")),
            "{player}'s payment is on the game row: {payments:?}"
        );
    }
    // The last hand shows its own checks, the game award on the game row.
    assert!(has_parts(
        body,
        "td.tally.checks",
        &[
            format!("+{}", make(400) + meld_checks("roundhouse")),
            (checks[0] - SCARNE_GAME).to_string()
        ]
    ));

    // A second game starts afresh at 0 points and 0 checks.
    let ns = SideIn {
        meld: 40,
        checks: &["jacks_40"],
        tricks: 100,
    };
    let ew = SideIn {
        meld: 100,
        checks: &["aces_100"],
        tricks: 150,
    };
    post_hand_ok(
        &app,
        &sheet,
        &hand_form(4, "Ann", "Bob", 250, "spades", &ns, &ew),
    )
    .await;
    let ew_checks = make(250) + meld_checks("aces_100");
    let ledger = ledger_of(&app, &id).await;
    assert_eq!(ledger["scores"], json!({"NS": 140, "EW": 250}));
    assert_eq!(ledger["checks"], json!({"NS": 1, "EW": ew_checks}));
    let body = app.get(&sheet).await.body;
    assert!(body.contains("Game 2 now"));
    assert!(
        has_parts(
            &body,
            "td.tally.checks[data-account=EW]",
            &[format!("+{ew_checks}"), ew_checks.to_string()]
        ),
        "EW's checks of game 2's first hand start from 0"
    );
}

#[tokio::test]
async fn the_new_session_form_shows_the_check_pinochle_defaults() {
    let app = TestApp::new().await;
    let list = app.get("/").await;
    assert!(list.body.contains("check_pinochle"), "the game is offered");
    let form = app.get("/sessions/new?game=check_pinochle").await;
    assert_eq!(form.status.as_u16(), 200);
    let body = &form.body;
    assert!(body.contains("New Check Pinochle session"));
    assert!(body.contains("rules §1.7"));
    assert_eq!(
        select_attr(body, "input[name=\"a.stake\"]", "value"),
        ["0.00"],
        "the rules' default: points only until the table agrees a stake (Scarne suggests 5¢)"
    );
    assert_eq!(
        select_attr(body, "input[name=\"a.target\"]", "value"),
        ["1000"]
    );
    for (field, option) in [
        ("check_table", "hoyle"),
        ("game_award", "scarne"),
        ("settlement", "per_player"),
        ("meld_needs_trick", "yes"),
        ("slam_and_count_cumulative", "yes"),
        ("roundhouse_includes_kings_queens_checks", "no"),
        ("unfinished_game", "settle"),
    ] {
        assert_eq!(
            selected(body, &format!("a.{field}")).as_deref(),
            Some(option),
            "{field} defaults to {option}"
        );
    }
    assert!(body.contains("Seat 4"), "four seats");
    assert!(!body.contains("Seat 5"));
}
