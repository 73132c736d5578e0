//! Nights past (issue 12): what a session as it stands says about each player — net money,
//! hands bid, made and set, games won, kitties taken — read from the engines' typed
//! results (the fold's [`SheetLine`](crate::rules::sheet::SheetLine) contracts and game
//! ends) and the postings, never from explanation sentences; and the charts drawn from
//! them. Pure: no I/O. The service writes these facts to the store after every recorded
//! event so the club's history, player pages and leaderboard read aggregates instead of
//! replaying every past session.

pub mod chart;
pub mod names;
pub mod night;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::ledger::HOUSE;
use crate::rules::sheet::{Step, Tone};
use crate::session::{Fold, Refusal};

/// One player's results in one session as it stands. Money in cents; counts are hands
/// or games.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerResult {
    /// The name the player sat under (the ledger account).
    pub player: String,
    /// Net money won or lost at play: the sum of the player's postings but payments (money
    /// handed over to settle), in cents.
    pub net_cents: i64,
    /// Hands this player bid (played the contract of) that still stand.
    pub hands_bid: i64,
    /// Of those, made.
    pub hands_made: i64,
    /// Of those, set back (bete, failed, conceded).
    pub hands_set: i64,
    /// Games won (for a side's win, both partners win it).
    pub games_won: i64,
    /// Made bids that took the kitty (a made contract whose reckoning applied a kitty
    /// rule).
    pub kitties_taken: i64,
    /// Bids by band: band → (bids, made). See [`band`].
    pub bands: BTreeMap<i64, (i64, i64)>,
}

/// What the history keeps of one session as it stands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionFacts {
    /// Hands dealt that still stand (an undone hand does not count).
    pub hands: i64,
    /// A `close` was recorded.
    pub closed: bool,
    /// Closed, and every balance (the kitty's too) is back at zero: every proposed
    /// transfer was paid.
    pub settled: bool,
    /// One entry per player who sat in the session, by name.
    pub players: Vec<PlayerResult>,
}

/// The band a bid falls in, for "how often does Vinnie make his 350s": bids of 100 and
/// more fall in their hundred rounded down to 50 (350 covers 350–399), smaller bids (Pitch's
/// 1–4) are their own band.
pub fn band(bid: i64) -> i64 {
    if bid >= 100 {
        bid - bid.rem_euclid(50)
    } else {
        bid
    }
}

/// The seat names of a side (`"NS"`: seats 1 and 3, `"EW"`: seats 2 and 4, by the session
/// format's bridge convention), or the name itself when it is a player.
fn members(winner: &str, players: &[String]) -> Vec<String> {
    let seats: &[usize] = match winner {
        "NS" => &[0, 2],
        "EW" => &[1, 3],
        _ => return vec![winner.to_string()],
    };
    seats
        .iter()
        .filter_map(|&s| players.get(s).cloned())
        .collect()
}

/// The facts of the session whose document header is `agreements`, `players` and
/// `opening_scores`, folded as `fold`. When an event was undone or corrected the hands are
/// read from the session as it now stands (its standing events folded afresh, which is how
/// the ledger itself finds a correction's difference); money always comes from `fold`'s
/// balances, the sum of every posting. Errors: the standing events no longer fold (they
/// did when recorded, so this means a bug).
pub fn session_facts(
    fold: &Fold,
    agreements: &Map<String, Value>,
    players: &[String],
    opening_scores: Option<&Value>,
) -> Result<SessionFacts, Refusal> {
    let amended = fold.rows().iter().any(|r| r.amends.is_some());
    let standing;
    let source = if amended {
        let last = fold.rows().iter().filter_map(|r| r.index).max();
        let mut fresh = Fold::start(fold.game(), agreements, players, opening_scores)?;
        let mut next = 0;
        for index in 0..last.map_or(0, |l| l + 1) {
            if let Some(event) = fold.standing_event(index) {
                fresh.apply(next, event)?;
                next += 1;
            }
        }
        standing = fresh;
        &standing
    } else {
        fold
    };
    let mut results: BTreeMap<String, PlayerResult> = fold
        .balances()
        .as_map()
        .keys()
        .filter(|account| !HOUSE.contains(&account.as_str()))
        .map(|account| {
            (
                account.clone(),
                PlayerResult {
                    player: account.clone(),
                    ..PlayerResult::default()
                },
            )
        })
        .collect();
    // A night's result is what the play won or lost: every posting but the money handed
    // over (payments, and the undoing of one), which only settles it.
    let payments: Vec<usize> = fold
        .rows()
        .iter()
        .filter(|r| r.kind == "payment")
        .filter_map(|r| r.index)
        .collect();
    for row in fold.rows() {
        let settling =
            row.kind == "payment" || row.amends.is_some_and(|a| payments.contains(&a.target));
        if settling {
            continue;
        }
        for p in &row.postings {
            if let Some(r) = results.get_mut(&p.account) {
                r.net_cents = r.net_cents.saturating_add(p.amount.cents());
            }
        }
    }
    let mut hands = 0;
    for row in source.rows() {
        if row.hand_number.is_some() {
            hands += 1;
        }
        if let Some(contract) = &row.line.contract
            && let Some(r) = results.get_mut(&contract.who)
        {
            let made = contract.tone == Tone::Good;
            r.hands_bid += 1;
            r.hands_made += i64::from(made);
            r.hands_set += i64::from(contract.tone == Tone::Bad);
            let entry = r.bands.entry(band(contract.bid)).or_default();
            entry.0 += 1;
            entry.1 += i64::from(made);
            // A made contract whose reckoning applies a kitty rule took the kitty: the only
            // kitty rule of a made bid is "the bidder takes the kitty" (rules §1.2 rule 3).
            // The postings alone cannot tell: the collected kitty nets against the re-ante
            // of the same hand.
            let kitty_paid_out = row
                .steps
                .iter()
                .any(|step| matches!(step, Step::Kitty { .. }));
            r.kitties_taken += i64::from(made && kitty_paid_out);
        }
        for end in &row.game_ends {
            if let Some(winner) = &end.finish.end.winner {
                for name in members(winner, players) {
                    if let Some(r) = results.get_mut(&name) {
                        r.games_won += 1;
                    }
                }
            }
        }
    }
    let closed = fold.closed_at().is_some();
    let settled = closed && fold.balances().as_map().values().all(|m| m.is_zero());
    Ok(SessionFacts {
        hands,
        closed,
        settled,
        players: results.into_values().collect(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::format::{SessionDoc, fold};
    use serde_json::json;

    fn doc(events: Value) -> SessionDoc {
        serde_json::from_value(json!({
            "format": "scorekeeper/session@1",
            "game": "auction_pinochle",
            "currency": "USD",
            "agreements": { "stake": "0.05", "kitty": "pot" },
            "players": ["Ann", "Bob", "Cy"],
            "events": events
        }))
        .unwrap()
    }

    fn facts(d: &SessionDoc) -> SessionFacts {
        let f = fold(d).unwrap();
        session_facts(&f, &d.agreements, &d.players, d.opening_scores.as_ref()).unwrap()
    }

    #[test]
    fn bands_round_down_to_fifty_from_one_hundred() {
        assert_eq!(band(350), 350);
        assert_eq!(band(390), 350);
        assert_eq!(band(300), 300);
        assert_eq!(band(4), 4);
    }

    #[test]
    fn a_voided_hand_leaves_the_facts_and_a_correction_replaces_them() {
        let made = json!({ "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 350, "trump": "hearts", "outcome": "made" });
        let failed = json!({ "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 350, "trump": "hearts", "outcome": "failed" });
        let plain = facts(&doc(json!([made.clone()])));
        let ann = &plain.players[0];
        assert_eq!(
            (
                ann.hands_bid,
                ann.hands_made,
                ann.hands_set,
                ann.kitties_taken
            ),
            (1, 1, 0, 1)
        );
        assert_eq!(plain.hands, 1);
        let voided = facts(&doc(json!([made.clone(), { "type": "void", "event": 0 }])));
        assert_eq!(voided.players[0].hands_bid, 0);
        assert_eq!(voided.hands, 0);
        let corrected = facts(&doc(
            json!([made, { "type": "correction", "event": 0, "replacement": failed }]),
        ));
        let ann = &corrected.players[0];
        assert_eq!(
            (
                ann.hands_bid,
                ann.hands_made,
                ann.hands_set,
                ann.kitties_taken
            ),
            (1, 0, 1, 0)
        );
        assert_eq!(ann.bands.get(&350), Some(&(1, 0)));
    }
}
