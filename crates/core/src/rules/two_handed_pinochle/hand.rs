//! One Two-handed Pinochle deal or declare-out, checked (rules §1.0, §1.9, S004):
//!
//! ```json
//! { "type": "hand", "dealer": "Bob", "turn_up_dix": true,
//!   "melds": { "Ann": 60, "Bob": 40 }, "tricks": { "Ann": 97, "Bob": 153 } }
//! { "type": "declare_out", "claimant": "Ann", "melds": { "Ann": 40 }, "tricks_so_far": 47 }
//! ```
//!
//! Melds are points (a shown dix counts 10), missing as 0. `tricks` are raw trick points of
//! both players, summing to 250; [`rounded`] counts them. `turn_up_dix` (default false)
//! gives the dealer 10.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::rules::partnership::ALL_TRICK_POINTS;
use crate::rules::{Field, RuleError, fields};

/// The most one player can meld in one deal, in points: 12 melds of at most 300, two dixes.
pub const MAX_MELD: i64 = 12 * 300 + 2 * 10;

/// A dix turned up as the trump card: 10 points to the dealer (S004 "Melding the dix").
pub const TURN_UP_DIX: i64 = 10;

/// Trick points counted in tens, 7 or more rounding up (rules §1.9: `10 × floor((raw + 3)
/// / 10)`; 87 → 90, 126 → 120, 127 → 130). `raw` is 0–250.
pub fn rounded(raw: i64) -> i64 {
    10 * (raw + 3).div_euclid(10)
}

/// The two players, in seat order; the index of a player is his seat (0 or 1).
pub type Players = [String; 2];

/// One played-out deal, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deal {
    /// The dealer's seat.
    pub dealer: usize,
    /// The dealer turned up a dix as the trump card.
    pub turn_up_dix: bool,
    /// Each player's melds, in points.
    pub melds: [i64; 2],
    /// Each player's raw trick points; they add up to 250.
    pub tricks: [i64; 2],
}

impl Deal {
    /// What the turned-up dix gives the player in `seat`: 10 to the dealer, else 0.
    pub fn dix(&self, seat: usize) -> i64 {
        if self.turn_up_dix && seat == self.dealer {
            TURN_UP_DIX
        } else {
            0
        }
    }

    /// What the deal adds to seat `seat`, in points: melds, rounded tricks, dix (rules §1.9).
    pub fn total(&self, seat: usize) -> i64 {
        let melds = self.melds.get(seat).copied().unwrap_or(0);
        let tricks = self.tricks.get(seat).copied().map_or(0, rounded);
        melds + tricks + self.dix(seat)
    }
}

/// A declare-out, checked (rules §1.9 "Declaring out", S004).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclareOut {
    /// The claimant's seat.
    pub claimant: usize,
    /// The melds each player had scored in this deal before the claim, in points.
    pub melds: [i64; 2],
    /// The claimant's raw trick points so far.
    pub tricks_so_far: i64,
}

/// A `hand` event as the session document writes it (and as the hand form builds it).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenDeal {
    /// Who dealt.
    pub dealer: String,
    /// The dealer turned up a dix as the trump card (default false).
    #[serde(default)]
    pub turn_up_dix: bool,
    /// Each player's melds, in points; a player left out melded nothing.
    #[serde(default)]
    pub melds: BTreeMap<String, i64>,
    /// Each player's raw trick points; both players, adding up to 250.
    pub tricks: BTreeMap<String, i64>,
}

/// A `declare_out` event as written (and as the hand form builds it).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenDeclare {
    /// Who declared out.
    pub claimant: String,
    /// The melds each player had scored in this deal before the claim, in points.
    #[serde(default)]
    pub melds: BTreeMap<String, i64>,
    /// The claimant's raw trick points so far.
    pub tricks_so_far: i64,
}

/// The seat of `name`, if he is one of the two players.
pub fn seat_of(players: &Players, name: &str) -> Option<usize> {
    players.iter().position(|p| p == name)
}

/// Reads and checks a `hand`. Errors name the field: `all_passed` (no bidding); `dealer`
/// not a player; `melds.Zed` / `tricks.Zed` not a player; a meld negative, not in tens or
/// over [`MAX_MELD`]; `tricks` missing, outside 0–250, 1 or 249 (no cards make 1), or not
/// summing to 250.
pub fn read_deal(event: &Map<String, Value>, players: &Players) -> Result<Deal, RuleError> {
    check_deal(written_deal(event)?, players)
}

/// Reads a `hand` as written, refusing `all_passed` by name (no bidding, rules §1.9).
pub fn written_deal(event: &Map<String, Value>) -> Result<WrittenDeal, RuleError> {
    fields::read_unbid(
        event,
        "Two-handed Pinochle has no bidding, so no deal is passed out: enter its melds and tricks",
        "rules §1.9",
    )
}

/// Checks a `hand` event already read into its written shape, as [`read_deal`] says.
pub fn check_deal(w: WrittenDeal, players: &Players) -> Result<Deal, RuleError> {
    let dealer = seat_of(players, &w.dealer).ok_or_else(|| {
        RuleError::new("dealer", format!("{} is not one of the players", w.dealer))
    })?;
    let melds = read_melds(&w.melds, players)?;
    let given = per_player(&w.tricks, players, "tricks")?;
    let mut tricks = [0; 2];
    for (seat, (slot, value)) in tricks.iter_mut().zip(given).enumerate() {
        let name = players.get(seat).map_or("", String::as_str);
        let field = Field::name("tricks").player(name);
        let raw = value.ok_or_else(|| {
            RuleError::new(
                &field,
                format!(
                    "enter {name}'s trick points (0 if he took none); both players' add up to 250"
                ),
            )
        })?;
        check_count(&field, raw)?;
        *slot = raw;
    }
    let [a, b] = tricks;
    if a + b != ALL_TRICK_POINTS {
        return Err(RuleError::new(
            "tricks",
            format!(
                "{} {a} + {} {b} = {}, but the trick points of a deal add up to exactly 250 with the last trick",
                players[0],
                players[1],
                a + b
            ),
        )
        .rule("rules §1.0"));
    }
    Ok(Deal {
        dealer,
        turn_up_dix: w.turn_up_dix,
        melds,
        tricks,
    })
}

/// Checks a `declare_out` as written (session-format). Errors name `claimant`, the melds, or
/// `tricks_so_far`.
pub fn check_declare_out(w: WrittenDeclare, players: &Players) -> Result<DeclareOut, RuleError> {
    let claimant = seat_of(players, &w.claimant).ok_or_else(|| {
        RuleError::new(
            "claimant",
            format!("{} is not one of the players", w.claimant),
        )
    })?;
    let melds = read_melds(&w.melds, players)?;
    check_count(&Field::name("tricks_so_far"), w.tricks_so_far)?;
    Ok(DeclareOut {
        claimant,
        melds,
        tricks_so_far: w.tricks_so_far,
    })
}

/// `{player: points}` by seat; a non-player is refused as `<field>.<name>`.
fn per_player(
    map: &BTreeMap<String, i64>,
    players: &Players,
    field: &str,
) -> Result<[Option<i64>; 2], RuleError> {
    let mut out = [None; 2];
    for (name, &value) in map {
        let seat = seat_of(players, name).ok_or_else(|| {
            RuleError::new(
                Field::name(field).player(name),
                format!("{name} is not one of the players"),
            )
        })?;
        if let Some(slot) = out.get_mut(seat) {
            *slot = Some(value);
        }
    }
    Ok(out)
}

/// Each player's melds (0 if absent): whole tens (rules §1.0), 0–[`MAX_MELD`].
fn read_melds(map: &BTreeMap<String, i64>, players: &Players) -> Result<[i64; 2], RuleError> {
    let given = per_player(map, players, "melds")?;
    let mut melds = [0; 2];
    for (seat, (slot, value)) in melds.iter_mut().zip(given).enumerate() {
        let points = value.unwrap_or(0);
        let field = Field::name("melds").player(players.get(seat).map_or("", String::as_str));
        if points < 0 {
            return Err(RuleError::new(
                field,
                format!("{points}: melds cannot be negative"),
            ));
        }
        if points % 10 != 0 {
            return Err(RuleError::new(
                field,
                format!(
                    "{points} is not a meld total: every meld and the dix are worth whole tens"
                ),
            )
            .rule("rules §1.0"));
        }
        if points > MAX_MELD {
            return Err(RuleError::new(
                field,
                format!(
                    "{points} is more than one player can meld in a deal: at most 12 melds of at most 300 and the two dix, {MAX_MELD}"
                ),
            )
            .rule("S004"));
        }
        *slot = points;
    }
    Ok(melds)
}

/// A raw trick count: 0–250, never 1 or 249 (S004: no cards are worth 1 point).
fn check_count(field: &Field, raw: i64) -> Result<(), RuleError> {
    if !(0..=ALL_TRICK_POINTS).contains(&raw) {
        return Err(RuleError::new(
            field,
            format!("{raw} is not a count of trick points: they run from 0 to 250"),
        )
        .rule("rules §1.0"));
    }
    if raw == 1 || raw == ALL_TRICK_POINTS - 1 {
        return Err(RuleError::new(
            field,
            format!(
                "no cards count {raw}: the smallest counter is a jack (2), so neither player can take 1 point or leave the other just 1"
            ),
        )
        .rule("rules §1.0, S004"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn players() -> Players {
        ["Ann".to_string(), "Bob".to_string()]
    }

    fn deal(v: Value) -> Result<Deal, RuleError> {
        read_deal(v.as_object().unwrap(), &players())
    }

    fn declare(v: Value) -> Result<DeclareOut, RuleError> {
        crate::rules::fields::read_event(v.as_object().unwrap())
            .and_then(|w| check_declare_out(w, &players()))
    }

    #[test]
    fn seven_or_more_rounds_up_as_s004_counts() {
        // S004's own examples: 87 → 90; 126 / 124 → 120 / 120; 125 / 125 → 120 / 120 (the
        // other 10 points are lost); 127 / 123 → 130 / 120.
        assert_eq!(rounded(87), 90);
        assert_eq!((rounded(126), rounded(124)), (120, 120));
        assert_eq!((rounded(125), rounded(125)), (120, 120));
        assert_eq!((rounded(127), rounded(123)), (130, 120));
        assert_eq!(
            (rounded(0), rounded(2), rounded(6), rounded(7)),
            (0, 0, 0, 10)
        );
        assert_eq!((rounded(246), rounded(247), rounded(250)), (240, 250, 250));
    }

    #[test]
    fn a_deal_adds_melds_rounded_tricks_and_the_dealers_dix() {
        // Bob deals and turns up the dix: Ann 60 + 97 → 100 = 160; Bob 40 + 153 → 150 + 10
        // = 200.
        let d = deal(json!({"type": "hand", "dealer": "Bob", "turn_up_dix": true,
            "melds": {"Ann": 60, "Bob": 40}, "tricks": {"Ann": 97, "Bob": 153}}))
        .unwrap();
        assert_eq!((d.total(0), d.total(1)), (160, 200));
        assert_eq!((d.dix(0), d.dix(1)), (0, 10));
        // Melds left out are 0; turn_up_dix defaults to false.
        let d = deal(json!({"type": "hand", "dealer": "Ann", "tricks": {"Ann": 125, "Bob": 125}}))
            .unwrap();
        assert_eq!((d.total(0), d.total(1)), (120, 120));
    }

    #[test]
    fn impossible_deals_are_refused_naming_the_field() {
        let field = |v: Value| deal(v).unwrap_err().field;
        let t = json!({"Ann": 100, "Bob": 150});
        assert_eq!(
            field(json!({"type": "hand", "dealer": "Cy", "tricks": t})),
            "dealer"
        );
        assert_eq!(
            field(json!({"type": "hand", "dealer": "Ann", "all_passed": true})),
            "all_passed"
        );
        assert_eq!(
            field(json!({"type": "hand", "dealer": "Ann", "melds": {"Cy": 20}, "tricks": t})),
            "melds.Cy"
        );
        for bad in [-10, 55, MAX_MELD + 10] {
            assert_eq!(
                field(json!({"type": "hand", "dealer": "Ann", "melds": {"Bob": bad}, "tricks": t})),
                "melds.Bob"
            );
        }
        assert_eq!(
            field(json!({"type": "hand", "dealer": "Ann", "tricks": {"Ann": 250}})),
            "tricks.Bob"
        );
        assert_eq!(
            field(json!({"type": "hand", "dealer": "Ann", "tricks": {"Ann": 100, "Bob": 140}})),
            "tricks"
        );
        assert_eq!(
            field(json!({"type": "hand", "dealer": "Ann", "tricks": {"Ann": 1, "Bob": 249}})),
            "tricks.Ann"
        );
        assert_eq!(
            field(json!({"type": "hand", "dealer": "Ann", "tricks": {"Ann": 260, "Bob": -10}})),
            "tricks.Ann"
        );
        assert_eq!(
            field(json!({"type": "hand", "dealer": "Ann", "tricks": t, "bid": 300})),
            "bid"
        );
        assert_eq!(
            field(json!({"type": "hand", "dealer": "Ann", "tricks": t, "turn_up_dix": "yes"})),
            "turn_up_dix"
        );
    }

    #[test]
    fn a_declare_out_reads_the_claimant_melds_and_partial_count() {
        let d = declare(json!({"type": "declare_out", "claimant": "Bob",
            "melds": {"Bob": 40}, "tricks_so_far": 47}))
        .unwrap();
        assert_eq!(d.claimant, 1);
        assert_eq!(d.melds, [0, 40]);
        assert_eq!(d.tricks_so_far, 47);
        let field = |v: Value| declare(v).unwrap_err().field;
        assert_eq!(
            field(json!({"type": "declare_out", "claimant": "Cy", "tricks_so_far": 40})),
            "claimant"
        );
        assert_eq!(
            field(json!({"type": "declare_out", "claimant": "Ann"})),
            "tricks_so_far"
        );
        assert_eq!(
            field(json!({"type": "declare_out", "claimant": "Ann", "tricks_so_far": 300})),
            "tricks_so_far"
        );
        assert_eq!(
            field(json!({"type": "declare_out", "claimant": "Ann", "tricks_so_far": 1})),
            "tricks_so_far"
        );
        assert_eq!(
            field(
                json!({"type": "declare_out", "claimant": "Ann", "tricks_so_far": 40, "melds": {"Ann": 15}})
            ),
            "melds.Ann"
        );
        assert_eq!(
            field(
                json!({"type": "declare_out", "claimant": "Ann", "tricks_so_far": 40, "dealer": "Ann"})
            ),
            "dealer"
        );
    }
}
