//! The largest table of every game, a few hands each, with ordinary names (Margaret,
//! Salvatore, Vincenzo, Rosemary, …): the sessions the page tests at 390 px import.

use serde_json::{Value, json};

/// Four players with ordinary, longish names.
pub const FOUR: [&str; 4] = ["Margaret", "Salvatore", "Vincenzo", "Rosemary"];
/// Pitch's largest table.
pub const SEVEN: [&str; 7] = [
    "Margaret",
    "Salvatore",
    "Vincenzo",
    "Rosemary",
    "Josephine",
    "Bartholomew",
    "Guinevere",
];
/// Poker's largest table.
pub const TEN: [&str; 10] = [
    "Margaret",
    "Salvatore",
    "Vincenzo",
    "Rosemary",
    "Josephine",
    "Bartholomew",
    "Guinevere",
    "Cornelius",
    "Penelope",
    "Archibald",
];

/// A session document of `game` with these agreements, players and events.
pub fn doc(game: &str, agreements: Value, players: &[&str], events: Value) -> Value {
    json!({"format": "scorekeeper/session@1", "game": game, "currency": "USD",
        "agreements": agreements, "players": players, "events": events})
}

/// A partnership side's part of a deal: its meld and trick points.
pub fn side(meld: i64, tricks: i64) -> Value {
    json!({"meld": meld, "tricks": tricks, "won_trick": tricks > 0})
}

/// The largest table of every game, a few hands each.
pub fn largest_tables() -> Vec<(&'static str, Value)> {
    let [m, s, v, r] = FOUR;
    let pitch = |dealer: &str, pitcher: &str, bid: i64, took: [&str; 4]| {
        json!({"type": "hand", "dealer": dealer, "pitcher": pitcher, "bid": bid,
            "points": {"high": took[0], "low": took[1], "jack": took[2], "game": took[3]}})
    };
    let everyone = |amount: &str| -> Value {
        TEN.iter()
            .map(|p| ((*p).to_string(), json!(amount)))
            .collect::<serde_json::Map<String, Value>>()
            .into()
    };
    vec![
        (
            "auction_pinochle",
            doc(
                "auction_pinochle",
                json!({"stake": "0.05", "kitty": "pot"}),
                &FOUR,
                json!([
                    {"type": "hand", "dealer": r, "bidder": s, "bid": 300, "trump": "hearts", "outcome": "made"},
                    {"type": "hand", "dealer": m, "bidder": v, "bid": 350, "trump": "spades", "outcome": "failed"},
                    {"type": "hand", "dealer": s, "bidder": r, "bid": 260, "trump": "clubs", "outcome": "conceded_before_lead"},
                ]),
            ),
        ),
        (
            "auction_pitch",
            doc(
                "auction_pitch",
                json!({"stake": "0.05"}),
                &SEVEN,
                json!([
                    pitch(
                        "Guinevere",
                        "Margaret",
                        2,
                        ["Margaret", "Bartholomew", "Margaret", "Josephine"]
                    ),
                    pitch(
                        "Margaret",
                        "Bartholomew",
                        3,
                        ["Bartholomew", "Bartholomew", "Guinevere", "Bartholomew"]
                    ),
                    pitch(
                        "Salvatore",
                        "Josephine",
                        4,
                        ["Rosemary", "Josephine", "Josephine", "Vincenzo"]
                    ),
                ]),
            ),
        ),
        (
            "partnership_pinochle",
            doc(
                "partnership_pinochle",
                json!({"stake": "1.00"}),
                &FOUR,
                json!([
                    {"type": "hand", "dealer": r, "trump": "hearts", "turn_up_dix": false, "dix_holders": [m],
                     "NS": side(120, 150), "EW": side(60, 100)},
                    {"type": "hand", "dealer": m, "trump": "spades", "turn_up_dix": true, "dix_holders": [],
                     "NS": side(40, 90), "EW": side(200, 160)},
                ]),
            ),
        ),
        (
            "partnership_auction_pinochle",
            doc(
                "partnership_auction_pinochle",
                json!({"stake": "1.00"}),
                &FOUR,
                json!([
                    {"type": "hand", "dealer": r, "bidder": m, "bid": 250, "trump": "hearts",
                     "NS": side(120, 150), "EW": side(60, 100)},
                    {"type": "hand", "dealer": m, "bidder": s, "bid": 300, "trump": "clubs",
                     "NS": side(40, 120), "EW": side(100, 130)},
                ]),
            ),
        ),
        (
            "check_pinochle",
            doc(
                "check_pinochle",
                json!({"stake": "0.25"}),
                &FOUR,
                json!([
                    {"type": "hand", "dealer": r, "bidder": m, "bid": 250, "trump": "hearts",
                     "NS": {"meld": 120, "tricks": 150}, "EW": {"meld": 40, "tricks": 100}},
                    {"type": "hand", "dealer": m, "bidder": s, "bid": 300, "trump": "spades",
                     "NS": {"meld": 60, "tricks": 80}, "EW": {"meld": 150, "tricks": 170}},
                ]),
            ),
        ),
        (
            "contract_pinochle",
            doc(
                "contract_pinochle",
                json!({"stake": "1.00"}),
                &FOUR,
                json!([
                    {"type": "hand", "dealer": r, "bidder": m, "bid": 200, "trump": "hearts", "doubled": "no", "outcome": "made"},
                    {"type": "hand", "dealer": m, "bidder": v, "bid": 250, "trump": "spades", "doubled": "doubled", "outcome": "failed"},
                ]),
            ),
        ),
        (
            "two_handed_pinochle",
            doc(
                "two_handed_pinochle",
                json!({"stake": "1.00"}),
                &["Bartholomew", "Guinevere"],
                json!([
                    {"type": "hand", "dealer": "Guinevere", "turn_up_dix": false,
                     "melds": {"Bartholomew": 150, "Guinevere": 80}, "tricks": {"Bartholomew": 130, "Guinevere": 120}},
                    {"type": "hand", "dealer": "Bartholomew", "turn_up_dix": true,
                     "melds": {"Bartholomew": 40, "Guinevere": 300}, "tricks": {"Bartholomew": 90, "Guinevere": 160}},
                ]),
            ),
        ),
        (
            "poker",
            doc(
                "poker",
                json!({"smallest_unit": "0.05"}),
                &TEN,
                json!([
                    {"type": "hand", "dealer": "Archibald", "contributions": everyone("0.25"),
                     "folded": ["Vincenzo", "Rosemary", "Josephine", "Bartholomew", "Guinevere", "Cornelius", "Penelope", "Archibald"],
                     "all_in": [], "split": "high", "showdown": [["Margaret"], ["Salvatore"]]},
                    {"type": "hand", "dealer": "Margaret", "contributions": everyone("0.10"),
                     "folded": ["Margaret", "Salvatore", "Vincenzo", "Rosemary", "Josephine", "Bartholomew", "Guinevere", "Cornelius"],
                     "all_in": [], "split": "high", "showdown": [["Penelope", "Archibald"]]},
                ]),
            ),
        ),
        (
            "auction_game",
            doc(
                "auction_game",
                json!({"stake": "0.50"}),
                &FOUR,
                json!([
                    {"type": "hand", "final": {
                        m: {"items": ["A", "K"], "spent": 20}, s: {"items": ["Q", "J"], "spent": 12},
                        v: {"items": ["A"], "spent": 9}, r: {"items": [], "spent": 0}}},
                ]),
            ),
        ),
    ]
}
