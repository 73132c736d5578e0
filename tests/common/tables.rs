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

/// The largest table of every registered game, a few hands each ([`super::every_game`]).
pub fn largest_tables() -> Vec<(&'static str, Value)> {
    super::every_game("largest table", written_largest_tables())
}

/// The largest tables as written here, by game.
fn written_largest_tables() -> Vec<(&'static str, Value)> {
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
            "house_game",
            doc(
                "house_game",
                json!({"name": "Oh Hell", "stake": "0.05"}),
                &TEN,
                json!([
                    {"type": "hand", "dealer": "Archibald", "points": {"Margaret": 12, "Salvatore": 3,
                     "Vincenzo": 0, "Rosemary": 11, "Josephine": 2, "Bartholomew": 13, "Guinevere": 1,
                     "Cornelius": 10, "Penelope": 0, "Archibald": 14}},
                    {"type": "hand", "dealer": "Margaret", "points": {"Margaret": 1, "Salvatore": 11,
                     "Vincenzo": 12, "Rosemary": 0, "Josephine": 10, "Bartholomew": 2, "Guinevere": 13,
                     "Cornelius": 0, "Penelope": 11, "Archibald": 3}},
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

/// Four real names of the longest kind a table has (8 to 10 letters).
pub const LONG_FOUR: [&str; 4] = ["Alessandra", "Salvatore", "Margaret", "Evangeline"];
/// Seven, for Pitch's largest table.
pub const LONG_SEVEN: [&str; 7] = [
    "Alessandra",
    "Salvatore",
    "Margaret",
    "Evangeline",
    "Vincenzo",
    "Rosemary",
    "Maximilian",
];
/// Ten, for poker's largest table; its first five are the five-handed table.
pub const LONG_TEN: [&str; 10] = [
    "Alessandra",
    "Salvatore",
    "Margaret",
    "Evangeline",
    "Vincenzo",
    "Rosemary",
    "Maximilian",
    "Jacqueline",
    "Konstantin",
    "Francesca",
];

/// Hand `i`'s dealer at a table of `seats` whose first hand Is dealt by the last seat (the
/// deal passes left, to the next seat).
fn dealer(seats: &[&'static str], i: usize) -> &'static str {
    seats[(i + seats.len() - 1) % seats.len()]
}

const TRUMPS: [&str; 4] = ["hearts", "spades", "clubs", "diamonds"];

/// A partnership side's tricks for hand `i`: the 250 trick points split unevenly.
fn tricks(i: usize) -> (i64, i64) {
    let ns = [170, 60, 130, 210, 90, 150, 40, 120][i % 8];
    (ns, 250 - ns)
}

/// The partnership games' hands: big melds, sets and 4-digit running scores.
fn partnership_hands(game: &str, n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let (ns, ew) = tricks(i);
            let (ns_meld, ew_meld) = (
                [320, 40, 150, 600, 20, 240, 80, 150][i % 8],
                [60, 250, 90, 40, 300, 20, 190, 80][i % 8],
            );
            let mut hand = json!({"type": "hand", "dealer": dealer(&LONG_FOUR, i),
                "trump": TRUMPS[i % 4]});
            match game {
                "partnership_pinochle" => {
                    hand["turn_up_dix"] = json!(false);
                    hand["dix_holders"] = json!([]);
                    hand["NS"] = side(ns_meld, ns);
                    hand["EW"] = side(ew_meld, ew);
                }
                "check_pinochle" => {
                    hand["bidder"] = json!(LONG_FOUR[i % 4]);
                    hand["bid"] = json!(250 + 10 * (i as i64 % 5));
                    hand["NS"] = json!({"meld": ns_meld, "tricks": ns});
                    hand["EW"] = json!({"meld": ew_meld, "tricks": ew});
                }
                _ => {
                    hand["bidder"] = json!(LONG_FOUR[i % 4]);
                    hand["bid"] = json!(250 + 10 * (i as i64 % 5));
                    hand["NS"] = side(ns_meld, ns);
                    hand["EW"] = side(ew_meld, ew);
                }
            }
            hand
        })
        .collect()
}

/// Every game at its largest table with the longest real names and a real evening's
/// numbers: several hands, players behind (negative totals), 4-digit scores where the game
/// runs that high, and poker's five-handed table as well as its ten ([`super::every_game`]).
pub fn real_evenings() -> Vec<(&'static str, Value)> {
    super::every_game("real evening", written_real_evenings())
}

/// The real evenings as written here, by game.
fn written_real_evenings() -> Vec<(&'static str, Value)> {
    let mut out = Vec::new();
    let outcomes = [
        "made",
        "failed",
        "made",
        "conceded_before_lead",
        "made",
        "made",
        "failed",
        "made",
    ];
    let hands: Vec<Value> = (0..8)
        .map(|i| {
            json!({"type": "hand", "dealer": dealer(&LONG_FOUR, i), "bidder": LONG_FOUR[i % 4],
            "bid": 300 + 50 * (i as i64 % 4), "trump": TRUMPS[i % 4], "outcome": outcomes[i]})
        })
        .collect();
    out.push((
        "auction_pinochle",
        doc(
            "auction_pinochle",
            json!({"stake": "0.25", "kitty": "pot"}),
            &LONG_FOUR,
            json!(hands),
        ),
    ));
    let hands: Vec<Value> = (0..8)
        .map(|i| {
            let s = &LONG_SEVEN;
            json!({"type": "hand", "dealer": dealer(s, i), "pitcher": s[i % 7], "bid": 2 + i as i64 % 3,
                "points": {"high": s[i % 7], "low": s[(i + 3) % 7], "jack": s[(i + 5) % 7], "game": s[(i + 1) % 7]}})
        })
        .collect();
    out.push((
        "auction_pitch",
        doc(
            "auction_pitch",
            json!({"stake": "0.25"}),
            &LONG_SEVEN,
            json!(hands),
        ),
    ));
    for game in [
        "partnership_pinochle",
        "partnership_auction_pinochle",
        "check_pinochle",
    ] {
        let stake = if game == "check_pinochle" {
            "0.25"
        } else {
            "1.00"
        };
        out.push((
            game,
            doc(
                game,
                json!({"stake": stake}),
                &LONG_FOUR,
                json!(partnership_hands(game, 8)),
            ),
        ));
    }
    let doubled = [
        "no",
        "doubled",
        "no",
        "redoubled",
        "no",
        "no",
        "doubled",
        "no",
    ];
    let hands: Vec<Value> = (0..8)
        .map(|i| json!({"type": "hand", "dealer": dealer(&LONG_FOUR, i), "bidder": LONG_FOUR[i % 4],
            "bid": 200 + 50 * (i as i64 % 3), "trump": TRUMPS[i % 4], "doubled": doubled[i], "outcome": outcomes[i].replace("conceded_before_lead", "failed")}))
        .collect();
    out.push((
        "contract_pinochle",
        doc(
            "contract_pinochle",
            json!({"stake": "1.00"}),
            &LONG_FOUR,
            json!(hands),
        ),
    ));
    let two = ["Alessandra", "Maximilian"];
    let hands: Vec<Value> = (0..8)
        .map(|i| {
            let (a, b) = tricks(i);
            let (ma, mb) = ([150, 40, 300, 80][i % 4], [60, 240, 20, 180][i % 4]);
            json!({"type": "hand", "dealer": dealer(&two, i), "turn_up_dix": i % 3 == 0,
                "melds": {"Alessandra": ma, "Maximilian": mb},
                "tricks": {"Alessandra": a, "Maximilian": b}})
        })
        .collect();
    out.push((
        "two_handed_pinochle",
        doc(
            "two_handed_pinochle",
            json!({"stake": "1.00"}),
            &two,
            json!(hands),
        ),
    ));
    for seats in [&LONG_TEN[..5], &LONG_TEN[..]] {
        out.push((
            "poker",
            doc(
                "poker",
                json!({"smallest_unit": "0.05"}),
                seats,
                json!(poker_hands(seats)),
            ),
        ));
    }
    // Hearts (rules §1.12): 26 a hand, one shot moon (78), low wins, to 100.
    let hearts: Vec<Value> = (0..8)
        .map(|i| {
            let [a, b, c, d] = LONG_FOUR;
            let points = match i % 4 {
                0 => json!({a: 10, b: 6, c: 0, d: 10}),
                1 => json!({a: 0, b: 13, c: 4, d: 9}),
                2 if i == 2 => json!({a: 26, b: 26, c: 0, d: 26}),
                _ => json!({a: 3, b: 3, c: 7, d: 13}),
            };
            json!({"type": "hand", "dealer": dealer(&LONG_FOUR, i), "points": points})
        })
        .collect();
    out.push((
        "house_game",
        doc(
            "house_game",
            json!({"name": "Hearts", "winner": "low", "target": 100, "hand_totals": [26, 78], "stake": "0.05"}),
            &LONG_FOUR,
            json!(hearts),
        ),
    ));
    let rounds: Vec<Value> = (0..3)
        .map(|i| {
            let [a, b, c, d] = LONG_FOUR;
            json!({"type": "hand", "final": {
                a: {"items": ["A", "K"], "spent": 20 + i}, b: {"items": ["Q", "J"], "spent": 12},
                c: {"items": ["A"], "spent": 9 + i}, d: {"items": [], "spent": 0}}})
        })
        .collect();
    out.push((
        "auction_game",
        doc(
            "auction_game",
            json!({"stake": "0.50"}),
            &LONG_FOUR,
            json!(rounds),
        ),
    ));
    out
}

/// Poker hands at `seats`: big pots (a player in for 37.50), one or two players to the
/// showdown, so some end well behind.
fn poker_hands(seats: &[&'static str]) -> Vec<Value> {
    (0..6)
        .map(|i| {
            let n = seats.len();
            let (w, x) = (seats[i % n], seats[(i + 2) % n]);
            let contributions: serde_json::Map<String, Value> = seats
                .iter()
                .map(|p| {
                    let amount = if *p == w || *p == x { "37.50" } else { "2.25" };
                    ((*p).to_string(), json!(amount))
                })
                .collect();
            let folded: Vec<&str> = seats
                .iter()
                .copied()
                .filter(|p| *p != w && *p != x)
                .collect();
            json!({"type": "hand", "dealer": dealer(seats, i), "contributions": contributions,
                "folded": folded, "all_in": [], "split": "high", "showdown": [[w], [x]]})
        })
        .collect()
}

/// A Hearts session as the preset makes it (rules §1.12: low wins, to 100, each hand 26 or
/// 78, 0.05 a point) at four `players`, each hand's points in seat order, then `more`.
pub fn hearts(players: [&str; 4], hands: &[[i64; 4]], more: &[Value]) -> Value {
    let mut events: Vec<Value> = hands
        .iter()
        .map(|h| {
            let points: serde_json::Map<String, Value> = players
                .iter()
                .zip(h)
                .map(|(p, n)| (p.to_string(), json!(n)))
                .collect();
            json!({"type": "hand", "points": points})
        })
        .collect();
    events.extend_from_slice(more);
    doc(
        "house_game",
        json!({"name": "Hearts", "winner": "low", "target": 100, "hand_totals": [26, 78],
            "stake": "0.05"}),
        &players,
        json!(events),
    )
}
