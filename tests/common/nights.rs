//! The sessions the history and night tests share, worked out by hand once.

use scorekeeper::format::SessionDoc;
use serde_json::json;

/// Auction Pitch to 11, 0.10 a point of difference (rules §1.4), seats `a`, `b`, Dee, in
/// `currency` (ISO code): `a` makes 4 (4–0–0), `b` is set 3 while `a` takes High and Dee
/// Game (5, −3, 1), `a` makes 4 twice (13: out). `b` pays (13 − −3) × 0.10 = 1.60, Dee
/// (13 − 1) × 0.10 = 1.20: `a` +2.80. Closed, not paid.
pub fn pitch_in(a: &str, b: &str, currency: &str) -> SessionDoc {
    let all = json!({ "high": a, "low": a, "jack": a, "game": a });
    serde_json::from_value(json!({
        "format": "scorekeeper/session@1", "game": "auction_pitch", "currency": currency,
        "agreements": { "stake": "0.10", "target": 11 }, "players": [a, b, "Dee"],
        "events": [
            { "type": "hand", "dealer": "Dee", "pitcher": a, "bid": 4, "points": all },
            { "type": "hand", "dealer": a, "pitcher": b, "bid": 3, "points": { "high": a, "low": b, "jack": null, "game": "Dee" } },
            { "type": "hand", "dealer": b, "pitcher": a, "bid": 4, "points": all },
            { "type": "hand", "dealer": "Dee", "pitcher": a, "bid": 4, "points": all },
            { "type": "close" }
        ]
    }))
    .unwrap()
}

/// [`pitch_in`] dollars: `a` +2.80, `b` −1.60, Dee −1.20.
pub fn pitch(a: &str, b: &str) -> SessionDoc {
    pitch_in(a, b, "USD")
}
