//! Partnership basics shared by the four-handed pinochle games (rules §1.5–1.8): sides,
//! the per-side hand input `{meld, tricks, won_trick}` and its checks, side scores, the
//! target. Each game decides what the numbers are worth. Pure.
//!
//! Seating (session-format): four players; seats 1 and 3 are `NS`, 2 and 4 `EW`, so
//! partners sit opposite (rules §1.5, S002/S003).

use std::fmt::Display;
use std::ops::{Index, IndexMut};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::ledger::Postings;
use crate::money::Money;
use crate::rules::game::{Choice, STAKE_DEFAULT};
use crate::rules::{
    AgreementSpec, Cell, Column, Field, Layout, RuleError, SheetLine, SpecKind, Step, Tally,
};

pub mod won;
pub mod written;

pub use self::won::game_won;
pub use self::written::{WrittenSide, form_tricks};

/// The trick points of one deal, last trick included (rules §1.0, S002/S004/PENGUIN).
pub const ALL_TRICK_POINTS: i64 = 250;

/// Players in a partnership game: always four (rules §1.5–1.8).
pub const PLAYERS: usize = 4;

/// A sanity ceiling on one side's meld in a deal, in points: catches a typed extra zero.
pub const MAX_MELD: i64 = 10_000;

/// A partnership: `NS` (seats 1 and 3) or `EW` (seats 2 and 4), as written in documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Side {
    /// North–South: the first and third players listed.
    NS,
    /// East–West: the second and fourth players listed.
    EW,
}

impl Side {
    /// Both sides in document order.
    pub const BOTH: [Side; 2] = [Side::NS, Side::EW];

    /// The side of 0-based seat `seat`: even `NS`, odd `EW` (session-format).
    pub fn of_seat(seat: usize) -> Side {
        if seat.is_multiple_of(2) {
            Side::NS
        } else {
            Side::EW
        }
    }

    /// The name used in documents and sentences: `"NS"` or `"EW"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::NS => "NS",
            Side::EW => "EW",
        }
    }

    /// The side named `name` (`"NS"`/`"EW"`, exact spelling), if any.
    pub fn from_name(name: &str) -> Option<Side> {
        match name {
            "NS" => Some(Side::NS),
            "EW" => Some(Side::EW),
            _ => None,
        }
    }

    /// The opposing partnership.
    pub fn other(self) -> Side {
        match self {
            Side::NS => Side::EW,
            Side::EW => Side::NS,
        }
    }
}

/// One value per side (points, checks, a hand's input), indexable by [`Side`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PerSide<T> {
    /// The `NS` value.
    pub ns: T,
    /// The `EW` value.
    pub ew: T,
}

impl<T> PerSide<T> {
    /// `ns` for `NS` and `ew` for `EW`.
    pub fn new(ns: T, ew: T) -> PerSide<T> {
        PerSide { ns, ew }
    }

    /// The value of each side computed by `f`.
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> PerSide<T> {
        PerSide {
            ns: f(Side::NS),
            ew: f(Side::EW),
        }
    }

    /// Each value mapped by `f`, which also sees the side.
    pub fn map<U>(&self, mut f: impl FnMut(Side, &T) -> U) -> PerSide<U> {
        PerSide {
            ns: f(Side::NS, &self.ns),
            ew: f(Side::EW, &self.ew),
        }
    }

    /// The values with the sides exchanged, as rotating the players by one seat does.
    pub fn swapped(self) -> PerSide<T> {
        PerSide {
            ns: self.ew,
            ew: self.ns,
        }
    }
}

impl<T> Index<Side> for PerSide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        match side {
            Side::NS => &self.ns,
            Side::EW => &self.ew,
        }
    }
}

impl<T> IndexMut<Side> for PerSide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::NS => &mut self.ns,
            Side::EW => &mut self.ew,
        }
    }
}

impl PerSide<i64> {
    /// Side totals as documents write them: `{"NS": 850, "EW": 700}` (points or checks).
    pub fn to_json(&self) -> Value {
        json!({ "NS": self.ns, "EW": self.ew })
    }

    /// Each side's running total as a cell, NS first; below zero is in the hole.
    pub fn running_cells(&self, tally: Tally) -> Vec<Cell> {
        Side::BOTH
            .iter()
            .map(|&side| Cell {
                in_hole: tally == Tally::Points && self[side] < 0,
                ..Cell::running(side.name(), tally, self[side])
            })
            .collect()
    }
}

/// The four players of a partnership game in seat order, clockwise (session-format).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seating {
    seats: [String; PLAYERS],
}

impl Seating {
    /// The sheet's columns: one group per side headed by its members, one column per tally.
    pub fn layout(&self, tallies: &[Tally]) -> Layout {
        let columns = Side::BOTH
            .iter()
            .flat_map(|&side| {
                tallies.iter().map(move |&tally| Column {
                    account: side.name().into(),
                    label: side.name().into(),
                    members: self.members(side).join(" & "),
                    tally,
                })
            })
            .collect();
        Layout { columns }
    }

    /// The seating of `players`. Errors (field `players`): not four, or a name twice.
    pub fn new(players: &[String]) -> Result<Seating, RuleError> {
        let seats: [String; PLAYERS] = players.to_vec().try_into().map_err(|_| {
            RuleError::new(
                "players",
                format!(
                    "a partnership game seats exactly 4 players, partners opposite, and {} are listed",
                    players.len()
                ),
            )
            .rule("rules §1.5–1.8")
        })?;
        for (i, name) in seats.iter().enumerate() {
            if seats[..i].contains(name) {
                return Err(RuleError::new("players", format!("{name} is listed twice")));
            }
        }
        Ok(Seating { seats })
    }

    /// The players in seat order.
    pub fn players(&self) -> &[String] {
        &self.seats
    }

    /// The 0-based seat of `name`, if seated.
    pub fn seat_of(&self, name: &str) -> Option<usize> {
        self.seats.iter().position(|s| s == name)
    }

    /// The side of `name`: seats 1 and 3 `NS`, 2 and 4 `EW`; `None` if not seated.
    pub fn side_of(&self, name: &str) -> Option<Side> {
        self.seat_of(name).map(Side::of_seat)
    }

    /// The two members of `side`, in seat order (`NS`: seats 1 and 3).
    pub fn members(&self, side: Side) -> [&str; 2] {
        let first = match side {
            Side::NS => 0,
            Side::EW => 1,
        };
        [&self.seats[first], &self.seats[first + 2]]
    }

    /// The partner of `name`: the player sitting opposite (two seats on).
    pub fn partner(&self, name: &str) -> Option<&str> {
        self.seat_of(name)
            .map(|i| self.seats[(i + 2) % PLAYERS].as_str())
    }

    /// Whom `name` settles with (BIC-CHK; rules §3 item 24): N↔E, S↔W (golden CK-09-a).
    pub fn opposite_number(&self, name: &str) -> Option<&str> {
        self.seat_of(name).map(|i| self.seats[i ^ 1].as_str())
    }

    /// The hand form's sides, NS first, labelled by members, `max` [`ALL_TRICK_POINTS`].
    pub fn side_choices(&self) -> Vec<Choice> {
        Side::BOTH
            .iter()
            .map(|&s| Choice {
                max: ALL_TRICK_POINTS,
                ..Choice::new(s.name(), self.members(s).join(" & "))
            })
            .collect()
    }

    /// Both pairs of opposite numbers ([`Seating::opposite_number`]).
    pub fn opposite_pairs(&self) -> Vec<(String, String)> {
        self.seats
            .chunks(2)
            .filter_map(|p| match p {
                [a, b] => Some((a.clone(), b.clone())),
                _ => None,
            })
            .collect()
    }
}

/// One side's result of a deal as entered at the table (rules §1.5–1.7 per-hand inputs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideHand {
    /// The side's melds added together, in points, before the trick rule.
    pub meld: i64,
    /// Trick points taken (counters plus 10 for the last trick), 0–250.
    pub tricks: i64,
    /// Whether the side won at least one trick (its meld counts only then).
    pub won_trick: bool,
}

impl SideHand {
    /// A side's input; `won_trick` omitted means "took any trick points".
    pub fn new(meld: i64, tricks: i64, won_trick: Option<bool>) -> SideHand {
        SideHand {
            meld,
            tricks,
            won_trick: won_trick.unwrap_or(tricks > 0),
        }
    }

    /// The meld that counts: all with a trick or when none is needed (rules §1.5, §1.7).
    pub fn counted_meld(&self, needs_trick: bool) -> i64 {
        if self.won_trick || !needs_trick {
            self.meld
        } else {
            0
        }
    }

    /// Counted meld plus trick points, in points.
    pub fn points(&self, meld_needs_trick: bool) -> i64 {
        self.counted_meld(meld_needs_trick) + self.tricks
    }
}

/// Checks both sides' input. Errors name the field (`NS.meld`, `EW.tricks`): meld negative,
/// not in tens or over [`MAX_MELD`]; tricks outside 0–250 or not summing to 250 (rules
/// §1.0); tricks without a trick; no side winning a trick.
pub fn check_hands(hands: &PerSide<SideHand>) -> Result<(), RuleError> {
    for side in Side::BOTH {
        let h = hands[side];
        let field = |f: &str| Field::of_side(side.name(), f);
        if h.meld < 0 {
            return Err(RuleError::new(
                field("meld"),
                format!("{} cannot be negative", h.meld),
            ));
        }
        if h.meld % 10 != 0 {
            return Err(RuleError::new(
                field("meld"),
                format!("{} is not a meld: melds count in tens", h.meld),
            )
            .rule("rules §1.0"));
        }
        if h.meld > MAX_MELD {
            return Err(RuleError::new(
                field("meld"),
                format!("{} is more than any deal can meld ({MAX_MELD})", h.meld),
            ));
        }
        if !(0..=ALL_TRICK_POINTS).contains(&h.tricks) {
            return Err(RuleError::new(
                field("tricks"),
                format!(
                    "{} is outside 0–250, the trick points in one deal",
                    h.tricks
                ),
            )
            .rule("rules §1.0"));
        }
        if h.tricks > 0 && !h.won_trick {
            return Err(RuleError::new(
                field("won_trick"),
                format!(
                    "{} took {} trick points, so it won a trick",
                    side.name(),
                    h.tricks
                ),
            ));
        }
    }
    let sum = hands.ns.tricks + hands.ew.tricks;
    if sum != ALL_TRICK_POINTS {
        return Err(RuleError::new(
            Field::of_side(Side::EW.name(), "tricks"),
            format!(
                "NS {} + EW {} = {sum} trick points; the sides take exactly 250 between them",
                hands.ns.tricks, hands.ew.tricks
            ),
        )
        .rule("rules §1.0"));
    }
    if !hands.ns.won_trick && !hands.ew.won_trick {
        return Err(RuleError::new(
            Field::of_side(Side::EW.name(), "won_trick"),
            "neither side won a trick, but each of the 12 tricks is won by someone",
        ));
    }
    Ok(())
}

/// The rest of 250 for the other side (rules §1.0). Errors name `{side}.tricks`.
pub fn rest_of_tricks(side: Side, tricks: i64) -> Result<i64, RuleError> {
    if (0..=ALL_TRICK_POINTS).contains(&tricks) {
        Ok(ALL_TRICK_POINTS - tricks)
    } else {
        Err(RuleError::new(
            Field::of_side(side.name(), "tricks"),
            format!("{tricks} is outside 0–250, the trick points in one deal"),
        )
        .rule("rules §1.0"))
    }
}

/// Who reached the target after a deal (rules §1.5–1.7 "first side to 1,000").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetReached {
    /// Nobody: play on.
    Neither,
    /// Exactly one side reached it.
    One(Side),
    /// Both reached it on one deal; each game has its own tie rule (§1.5, §1.6, §1.7).
    Both,
}

/// Compares side scores with `target` (points): a side has reached it at `score ≥ target`.
pub fn target_reached(scores: &PerSide<i64>, target: i64) -> TargetReached {
    match (scores.ns >= target, scores.ew >= target) {
        (false, false) => TargetReached::Neither,
        (true, false) => TargetReached::One(Side::NS),
        (false, true) => TargetReached::One(Side::EW),
        (true, true) => TargetReached::Both,
    }
}

/// Reads `opening_scores`: `null`, `{}` or `{"NS": 850, "EW": 700}` (points, missing 0).
pub fn read_opening_scores(value: Option<&Value>) -> Result<PerSide<i64>, RuleError> {
    let map = match value {
        None | Some(Value::Null) => return Ok(PerSide::default()),
        Some(Value::Object(m)) => m,
        Some(_) => {
            return Err(RuleError::new(
                "opening_scores",
                "a partnership game carries in side scores, like {\"NS\": 850, \"EW\": 700}",
            ));
        }
    };
    side_integers(map, "opening_scores")
}

/// Seats `players` and reads `opening_scores`, each side's checked by `check`.
pub fn open(
    players: &[String],
    opening_scores: Option<&Value>,
    mut check: impl FnMut(Field, i64) -> Result<(), RuleError>,
) -> Result<(Seating, PerSide<i64>), RuleError> {
    let seating = Seating::new(players)?;
    let opening = read_opening_scores(opening_scores)?;
    for side in Side::BOTH {
        check(
            Field::name("opening_scores").side(side.name()),
            opening[side],
        )?;
    }
    Ok((seating, opening))
}

fn side_integers(map: &Map<String, Value>, field: &str) -> Result<PerSide<i64>, RuleError> {
    let mut out = PerSide::default();
    for (key, v) in map {
        // A side's entry even when the key names no side, written exactly as sent.
        let entry = || Field::name(field).side(key);
        let side = Side::from_name(key).ok_or_else(|| {
            RuleError::new(
                entry(),
                "a partnership game keeps scores per side: use \"NS\" and \"EW\"",
            )
            .rule("session-format")
        })?;
        out[side] = v.as_i64().ok_or_else(|| {
            RuleError::new(entry(), format!("{v} is not a whole number of points"))
        })?;
    }
    Ok(out)
}

/// The money for a game `winner` won at `stake` per game (cents): losers pay opposite numbers.
pub fn pay_game(seating: &Seating, winner: Side, stake: Money) -> (Postings, String, Vec<Step>) {
    let mut postings = Postings::new();
    if stake.is_zero() {
        return (
            postings,
            "no stake: points only, nobody pays".into(),
            Vec::new(),
        );
    }
    let mut steps = vec![Step::Stake {
        amount: stake,
        per: "game".into(),
    }];
    let why = format!("the game won by {}", winner.name());
    let losers = winner.other();
    let paid = pay_opposite_numbers(seating, losers, stake, &why, (&mut postings, &mut steps));
    (
        postings,
        format!("{stake} a game each: {}", paid.join(", ")),
        steps,
    )
}

/// Each of `losers` pays his opposite number `amount` (rules §1.7 `per_player`).
pub fn pay_opposite_numbers(
    seating: &Seating,
    losers: Side,
    amount: Money,
    why: &str,
    (postings, steps): (&mut Postings, &mut Vec<Step>),
) -> Vec<String> {
    let mut paid = Vec::new();
    for loser in seating.members(losers) {
        let to = seating.opposite_number(loser).unwrap_or(loser);
        postings.transfer(loser, to, amount);
        paid.push(format!("{loser} pays {to} {amount}"));
        steps.push(Step::Pays {
            from: loser.to_string(),
            to: to.to_string(),
            amount,
            why: format!("{why}, to his opposite number"),
        });
    }
    paid
}

#[cfg(test)]
#[path = "partnership_tests.rs"]
mod tests;

/// The "carried in" first line holding `cells`, when scores were `carried` in.
pub fn carried_in_line(carried: bool, cells: impl FnOnce() -> Vec<Cell>) -> Option<SheetLine> {
    carried.then(|| SheetLine {
        cells: cells(),
        ..SheetLine::titled("carried in")
    })
}

/// The close button's warning: game `game` in progress pays nothing (session-format).
pub fn unfinished_words(game: usize, ns: impl Display, ew: impl Display) -> String {
    format!("Game {game} is unfinished (NS {ns}, EW {ew}): closing now pays nothing for it.")
}

/// The new-session form's per-game `stake` with the game's `help` (session-format).
pub const fn stake_per_game(help: &'static str) -> AgreementSpec {
    AgreementSpec {
        name: "stake",
        label: "Stake per game",
        kind: SpecKind::Money,
        default: STAKE_DEFAULT,
        help,
    }
}

/// The agreements summary's stake row, "none: points only" at zero.
pub fn stake_row(stake: Money, currency: &str) -> (String, String) {
    (
        "Stake".into(),
        if stake.is_zero() {
            "none: points only".to_string()
        } else {
            format!(
                "{} a game: each loser pays his opposite number",
                stake.shown(currency)
            )
        },
    )
}
