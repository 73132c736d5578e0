//! Nights past: what a session as it stands says about each player (net money, hands bid,
//! made and set, games won, kitties taken), read from the engines' typed results and the
//! postings, never from sentences; and charts. Pure. The service stores these facts per
//! event so history pages read aggregates instead of replaying sessions.

pub mod chart;
pub mod names;
pub mod night;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::ledger::{Balances, HOUSE};
use crate::session::{Counted, EventKind, Fold, Refusal, Row, Tip};

/// One player's results in one session as it stands. Money in cents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerResult {
    /// The name the player sat under (the ledger account).
    pub player: String,
    /// Net won or lost at play, in cents: all postings but payments.
    pub net_cents: i64,
    /// Hands this player bid (played the contract of) that still stand.
    pub hands_bid: i64,
    /// Of those, made.
    pub hands_made: i64,
    /// Of those, set back (bete, failed, conceded).
    pub hands_set: i64,
    /// Games won (for a side's win, both partners win it).
    pub games_won: i64,
    /// Made bids that took the kitty (a kitty rule applied).
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
    /// Closed, and every balance (the kitty's too) is zero.
    pub settled: bool,
    /// One entry per player who sat in the session, by name.
    pub players: Vec<PlayerResult>,
}

/// The band of a bid, for "how often does Vinnie make his 350s": from 100 up, rounded down
/// to a multiple of 50 (350 covers 350–399); smaller bids (Pitch's 1–4) are their own.
pub fn band(bid: i64) -> i64 {
    if bid >= 100 {
        bid - bid.rem_euclid(50)
    } else {
        bid
    }
}

/// The members of side `winner` (`"NS"`: seats 1 and 3), or the player himself.
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

/// The facts of a session folded as `fold`. Errors: the standing events no longer fold (a bug).
pub fn session_facts(
    fold: &Fold,
    agreements: &Map<String, Value>,
    players: &[String],
    opening_scores: Option<&Value>,
) -> Result<SessionFacts, Refusal> {
    facts_of_fold(fold, (agreements, players, opening_scores), false)
}

/// [`session_facts`] with the standing events always replayed afresh, not counted as kept:
/// what the kept counts must equal.
#[cfg(test)]
pub(crate) fn session_facts_replayed(
    fold: &Fold,
    agreements: &Map<String, Value>,
    players: &[String],
) -> Result<SessionFacts, Refusal> {
    facts_of_fold(fold, (agreements, players, None), true)
}

/// [`session_facts`]; `replay`: fold the standing events afresh even without a `reopen`.
fn facts_of_fold(
    fold: &Fold,
    (agreements, players, opening_scores): (&Map<String, Value>, &[String], Option<&Value>),
    replay: bool,
) -> Result<SessionFacts, Refusal> {
    let amended = fold.rows().iter().any(|r| r.amends.is_some());
    let mut results = accounts(fold.balances(), BTreeMap::new());
    add_nets(&mut results, fold.rows());
    let mut hands = 0;
    if amended && (replay || fold.holds_reopen()) {
        let start = Fold::start(fold.game(), agreements, players, opening_scores)?;
        fold.for_each_afresh(start, |row| {
            hands += count_hand(&mut results, &Counted::of(row), players);
        })?;
    } else {
        // Each standing event keeps what a fresh fold counts of it; without an amendment
        // that is its own row.
        for counted in fold.counted() {
            hands += count_hand(&mut results, counted, players);
        }
    }
    let mut facts = SessionFacts {
        hands,
        players: results.into_values().collect(),
        ..SessionFacts::default()
    };
    facts.set_status(fold.closed_at().is_some(), fold.balances());
    Ok(facts)
}

/// What the rows of a tip's tail add to its session's facts ([`session_facts`] over the
/// tail alone): each player's net (cents) and counts, and the hands dealt that stand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TailFacts {
    hands: i64,
    results: BTreeMap<String, PlayerResult>,
}

/// The facts the rows of `tip`'s tail add, seated as `players`. An amendment within the
/// tail changes only these ([`SessionFacts::amended`]). Errors: the tail's standing events
/// no longer fold (a bug).
pub fn tail_facts(tip: &Tip, players: &[String]) -> Result<TailFacts, Refusal> {
    let tail = tip.tail();
    let mut results = accounts(tail.balances(), BTreeMap::new());
    add_nets(&mut results, tail.rows());
    let hands = tail
        .counted()
        .map(|counted| count_hand(&mut results, counted, players))
        .sum();
    Ok(TailFacts { hands, results })
}

impl PlayerResult {
    /// Adds `other`'s money and counts, taken `sign` times (1 or −1); bands left with no
    /// bid are dropped, as a fold never makes them.
    fn add(&mut self, other: &PlayerResult, sign: i64) {
        self.net_cents = self
            .net_cents
            .saturating_add(other.net_cents.saturating_mul(sign));
        self.hands_bid += other.hands_bid * sign;
        self.hands_made += other.hands_made * sign;
        self.hands_set += other.hands_set * sign;
        self.games_won += other.games_won * sign;
        self.kitties_taken += other.kitties_taken * sign;
        for (band, (bids, made)) in &other.bands {
            let entry = self.bands.entry(*band).or_default();
            entry.0 += bids * sign;
            entry.1 += made * sign;
        }
        self.bands.retain(|_, counts| *counts != (0, 0));
    }
}

/// `results` with an entry for every player's account among `balances` (not the house's).
fn accounts(
    balances: &Balances,
    mut results: BTreeMap<String, PlayerResult>,
) -> BTreeMap<String, PlayerResult> {
    for account in balances.as_map().keys() {
        if !HOUSE.contains(&account.as_str()) && !results.contains_key(account) {
            let fresh = PlayerResult {
                player: account.clone(),
                ..PlayerResult::default()
            };
            results.insert(account.clone(), fresh);
        }
    }
    results
}

/// Adds the postings of `rows` to each player's net: play's result only, so payments and
/// the undoing of a payment (which just settle it) are left out.
fn add_nets(results: &mut BTreeMap<String, PlayerResult>, rows: &[Row]) {
    let payments: Vec<usize> = rows
        .iter()
        .filter(|r| r.kind == EventKind::Payment)
        .filter_map(|r| r.index)
        .collect();
    for row in rows {
        if !row.amends.is_some_and(|a| payments.contains(&a.target)) {
            add_net(results, row);
        }
    }
}

/// Adds `row`'s postings to each player's net, unless it is a payment.
fn add_net(results: &mut BTreeMap<String, PlayerResult>, row: &Row) {
    if row.kind == EventKind::Payment {
        return;
    }
    for p in &row.postings {
        if let Some(r) = results.get_mut(&p.account) {
            r.net_cents = r.net_cents.saturating_add(p.amount.cents());
        }
    }
}

/// Counts `counted`'s contract and finished games for their winners; 1 for a hand dealt,
/// else 0.
fn count_hand(
    results: &mut BTreeMap<String, PlayerResult>,
    counted: &Counted,
    players: &[String],
) -> i64 {
    if let Some(taken) = &counted.contract
        && let Some(r) = results.get_mut(&taken.who)
    {
        r.hands_bid += 1;
        r.hands_made += i64::from(taken.made);
        r.hands_set += i64::from(taken.set);
        let entry = r.bands.entry(band(taken.bid)).or_default();
        entry.0 += 1;
        entry.1 += i64::from(taken.made);
        // A made bid applying a kitty rule took the kitty (rules §1.2 rule 3); postings can't tell.
        r.kitties_taken += i64::from(taken.made && taken.kitty);
    }
    for winner in &counted.winners {
        for name in members(winner, players) {
            if let Some(r) = results.get_mut(&name) {
                r.games_won += 1;
            }
        }
    }
    i64::from(counted.hand)
}

impl SessionFacts {
    /// The facts before the first event: empty results, plus the opening ante's money.
    pub fn opening(balances: &Balances, opening: Option<&Row>) -> SessionFacts {
        let mut results = accounts(balances, BTreeMap::new());
        if let Some(row) = opening.filter(|r| r.index.is_none()) {
            add_net(&mut results, row);
        }
        SessionFacts {
            players: results.into_values().collect(),
            ..SessionFacts::default()
        }
    }

    /// The facts after one more plain event, by its own difference ([`session_facts`] alike).
    pub fn add_plain(&mut self, row: &Row, players: &[String], balances: &Balances, closed: bool) {
        let known = std::mem::take(&mut self.players)
            .into_iter()
            .map(|r| (r.player.clone(), r))
            .collect();
        let mut results = accounts(balances, known);
        add_net(&mut results, row);
        self.hands += count_hand(&mut results, &Counted::of(row), players);
        self.players = results.into_values().collect();
        self.set_status(closed, balances);
    }

    /// The facts after an amendment within a tip's tail: its part `before` replaced by its
    /// part `after` ([`tail_facts`]), with the `balances` and close it left.
    pub fn amended(
        &mut self,
        (before, after): (&TailFacts, &TailFacts),
        balances: &Balances,
        closed: bool,
    ) {
        let known = std::mem::take(&mut self.players)
            .into_iter()
            .map(|r| (r.player.clone(), r))
            .collect();
        let mut results = accounts(balances, known);
        for (part, sign) in [(after, 1), (before, -1)] {
            for (player, result) in &part.results {
                if let Some(r) = results.get_mut(player) {
                    r.add(result, sign);
                }
            }
        }
        self.hands += after.hands - before.hands;
        self.players = results.into_values().collect();
        self.set_status(closed, balances);
    }

    /// Closed or not, and settled: closed with every balance (the kitty's too) at zero.
    fn set_status(&mut self, closed: bool, balances: &Balances) {
        self.closed = closed;
        self.settled = closed && balances.as_map().values().all(|m| m.is_zero());
    }
}

/// What changed between two versions of one session's facts: the rows the store rewrites.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FactsDelta {
    /// Hands, closed and settled, when any of them changed.
    pub status: Option<(i64, bool, bool)>,
    /// Each player whose result changed (bands aside), and whether he is new to it.
    pub results: Vec<(PlayerResult, bool)>,
    /// Each (player, band) whose bids changed: (player, band, bids, made).
    pub bids: Vec<(String, i64, i64, i64)>,
    /// Each (player, band) left with no bid (an amendment took them all).
    pub gone: Vec<(String, i64)>,
}

impl FactsDelta {
    /// The difference from `old` to `new` (a player who sat is never removed).
    pub fn between(old: &SessionFacts, new: &SessionFacts) -> FactsDelta {
        let mut delta = FactsDelta::default();
        if (old.hands, old.closed, old.settled) != (new.hands, new.closed, new.settled) {
            delta.status = Some((new.hands, new.closed, new.settled));
        }
        for result in &new.players {
            let before = old.players.iter().find(|r| r.player == result.player);
            let plain = |r: &PlayerResult| PlayerResult {
                bands: BTreeMap::new(),
                ..r.clone()
            };
            if before.map(plain) != Some(plain(result)) {
                delta.results.push((plain(result), before.is_none()));
            }
            for (band, counts) in &result.bands {
                if before.and_then(|b| b.bands.get(band)) != Some(counts) {
                    let (bids, made) = *counts;
                    delta.bids.push((result.player.clone(), *band, bids, made));
                }
            }
            // A band an amendment took every bid from is no longer kept.
            let gone = before
                .into_iter()
                .flat_map(|b| b.bands.keys())
                .filter(|band| !result.bands.contains_key(band));
            for band in gone {
                delta.gone.push((result.player.clone(), *band));
            }
        }
        delta
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.status.is_none()
            && self.results.is_empty()
            && self.bids.is_empty()
            && self.gone.is_empty()
    }
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
