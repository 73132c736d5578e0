//! Long sessions of every game, hand after hand, as a club plays them: dealers in turn, the
//! bid going round, contracts made and set, kitties collected, games ending every dozen
//! hands or so in the games that have game ends. Shared by the cached-state tests and the
//! benchmark (`benches/http_cycle.rs`), which records the same hands over HTTP.

use serde_json::{Map, Value, json};

/// Four ordinary names, for the four-handed games.
pub const FOUR: [&str; 4] = ["Margaret", "Salvatore", "Vincenzo", "Rosemary"];
/// Five poker players.
pub const FIVE: [&str; 5] = ["Margaret", "Salvatore", "Vincenzo", "Rosemary", "Tony"];
/// The two of Two-handed Pinochle.
pub const TWO: [&str; 2] = ["Margaret", "Salvatore"];

/// The four trump suits, as the events name them.
pub const SUITS: [&str; 4] = ["spades", "hearts", "diamonds", "clubs"];
/// Every outcome of an Auction Pinochle contract, as its hand events name them.
// For the property tests' random hands; the benchmark, which includes this file, has none.
#[allow(dead_code)]
pub const OUTCOMES: [&str; 5] = [
    "made",
    "failed",
    "conceded_before_lead",
    "conceded_after_lead",
    "opponents_conceded",
];

/// Every registered game (`scorekeeper::rules::GAMES`, in its order) with the players and
/// agreements its long session is played with. Panics naming a registered game that has
/// none here, so a game added to the rules without its long session fails the suite.
pub fn games() -> Vec<(&'static str, &'static [&'static str], Value)> {
    scorekeeper::rules::GAMES
        .iter()
        .map(|g| {
            let (players, agreements) = table(g.id).unwrap_or_else(|| {
                panic!(
                    "{}: no long session in tests/common/hands.rs; add its players and \
                     agreements to `table` and its hands to `hand`",
                    g.id
                )
            });
            (g.id, players, agreements)
        })
        .collect()
}

/// The players and agreements of `game`'s long session, `None` for a game without one.
fn table(game: &str) -> Option<(&'static [&'static str], Value)> {
    Some(match game {
        "auction_pinochle" => (&FOUR, json!({"stake": "0.05", "kitty": "pot"})),
        "auction_pitch" => (&FOUR, json!({"stake": "0.05", "target": 11})),
        "check_pinochle" => (&FOUR, json!({"stake": "0.25"})),
        "partnership_pinochle" => (&FOUR, json!({"stake": "1.00"})),
        "partnership_auction_pinochle" => (&FOUR, json!({"stake": "1.00"})),
        "contract_pinochle" => (&FOUR, json!({"stake": "1.00"})),
        "two_handed_pinochle" => (&TWO, json!({"stake": "1.00"})),
        "poker" => (&FIVE, json!({"smallest_unit": "0.05"})),
        "auction_game" => (&FOUR, json!({"stake": "0.50"})),
        "house_game" => (
            &FOUR,
            json!({"name": "Hearts", "winner": "low", "target": 100, "hand_totals": [26, 78],
                "stake": "0.05"}),
        ),
        _ => return None,
    })
}

/// A partnership side's part of a deal: its meld and trick points.
fn side(meld: i64, tricks: i64) -> Value {
    json!({"meld": meld, "tricks": tricks, "won_trick": tricks > 0})
}

/// Hand `i` (from 0) of a long session of `game` at `players`: the dealer is the seat
/// before seat `i`, so dealing goes round clockwise from the last seat.
pub fn hand(game: &str, players: &[&str], i: usize) -> Value {
    let n = players.len();
    let dealer = players[(i + n - 1) % n];
    let left = players[i % n];
    let trump = SUITS[i % 4];
    // The bidder's side wins the larger share of the tricks, but every fourth hand.
    let bidder_ns = i.is_multiple_of(2);
    let good = i % 4 != 3;
    let (ns, ew) = if bidder_ns == good {
        (side(120, 150), side(60, 100))
    } else {
        (side(40, 90), side(100, 160))
    };
    match game {
        "auction_pinochle" => json!({"type": "hand", "dealer": dealer, "bidder": left,
            "bid": 250 + 10 * (i % 5), "trump": trump,
            "outcome": if good { "made" } else { "failed" }}),
        "auction_pitch" => {
            let other = players[(i + 1) % n];
            let points = if good {
                json!({"high": left, "low": left, "jack": left, "game": left})
            } else {
                json!({"high": left, "low": other, "jack": null, "game": other})
            };
            json!({"type": "hand", "dealer": dealer, "pitcher": left, "bid": 2 + i % 3,
                   "points": points})
        }
        "check_pinochle" => json!({"type": "hand", "dealer": dealer, "bidder": left,
            "bid": 250, "trump": trump,
            "NS": {"meld": ns["meld"], "tricks": ns["tricks"]},
            "EW": {"meld": ew["meld"], "tricks": ew["tricks"]}}),
        "partnership_pinochle" => json!({"type": "hand", "dealer": dealer, "trump": trump,
            "turn_up_dix": false, "dix_holders": [], "NS": ns, "EW": ew}),
        "partnership_auction_pinochle" => json!({"type": "hand", "dealer": dealer,
            "bidder": left, "bid": 250, "trump": trump, "NS": ns, "EW": ew}),
        "contract_pinochle" => json!({"type": "hand", "dealer": dealer, "bidder": left,
            "bid": 200 + 50 * (i % 3), "trump": trump, "doubled": "no",
            "outcome": if good { "made" } else { "failed" }}),
        "two_handed_pinochle" => {
            let (a, b) = (players[i % 2], players[(i + 1) % 2]);
            json!({"type": "hand", "dealer": dealer, "turn_up_dix": false,
                   "melds": {a: 150, b: 80}, "tricks": {a: 130, b: 120}})
        }
        "poker" => poker(players, dealer, i),
        "auction_game" => {
            let [a, b, c, d] = [0, 1, 2, 3].map(|k| players[(i + k) % n]);
            json!({"type": "hand", "final": {
                a: {"items": ["A", "K"], "spent": 20}, b: {"items": ["Q", "J"], "spent": 12},
                c: {"items": ["A"], "spent": 9}, d: {"items": [], "spent": 0}}})
        }
        // Hearts (rules §1.12): 26 a hand, moving round the table; a game ends at 100.
        "house_game" => {
            let [a, b, c, d] = [0, 1, 2, 3].map(|k| players[(i + k) % n]);
            json!({"type": "hand", "dealer": dealer, "points": {a: 13, b: 8, c: 5, d: 0}})
        }
        other => panic!("no long session for {other}"),
    }
}

/// A poker hand: everyone antes 0.25, all but two fold, one of them wins the showdown.
fn poker(players: &[&str], dealer: &str, i: usize) -> Value {
    let n = players.len();
    let (a, b) = (players[i % n], players[(i + 2) % n]);
    let contributions: Map<String, Value> = players
        .iter()
        .map(|p| ((*p).to_string(), json!("0.25")))
        .collect();
    let folded: Vec<&str> = players
        .iter()
        .copied()
        .filter(|p| *p != a && *p != b)
        .collect();
    json!({"type": "hand", "dealer": dealer, "contributions": contributions, "folded": folded,
           "all_in": [], "split": "high", "showdown": [[a], [b]]})
}

/// A session document of `game` at `players` with `agreements` and hands `0..hands`.
pub fn session(game: &str, players: &[&str], agreements: &Value, hands: usize) -> Value {
    json!({"format": "scorekeeper/session@1", "game": game, "currency": "USD",
        "agreements": agreements, "players": players,
        "events": (0..hands).map(|i| hand(game, players, i)).collect::<Vec<_>>()})
}
