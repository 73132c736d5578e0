//! One poker hand, checked (rules §1.11, §3 items 32–33, S004; session-format):
//!
//! ```json
//! { "type": "hand", "dealer": "You",
//!   "contributions": { "Alex": "0.05", "Brad": "0.50", "You": "0.50" },
//!   "folded": ["Alex"], "all_in": [], "split": "high",
//!   "showdown": [["You"], ["Brad"]] }
//! ```
//!
//! `contributions` lists every seated player in whole `smallest_unit`s; `split` is
//! `"high"` (default) or `"high_low"`. The showdown is `showdown` (tie groups, best first,
//! each player still in once; `showdown_low` too for high-low) or `cards` (`{player: "KS
//! KD KC 4C 8H"}`), omitted only when one player is left. Optional `rounds` is the betting
//! ([`betting::check_rounds`]). Board variants: `cards` are hole cards, `board` the
//! community cards ([`super::board`]); under `eight_or_better` `showdown_low` lists only
//! qualifying lows.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::agreements::Agreements;
use super::betting::{self, InHand};
use super::cards;
use super::showdown::read_showdown;
use crate::money::Money;
use crate::rules::{Field, RuleError};

/// How a pot is won (`split`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SplitKind {
    /// The best high hand takes the pot.
    #[default]
    High,
    /// Half to the best high hand (with the odd chip), half to the best low hand.
    HighLow,
}

/// A `hand` event as written (session-format `poker`), read from a document or made by the
/// hand form. Money stays as written (`"0.50"`) until [`check`] reads it in chips, so a
/// refusal names `contributions.<player>`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenHand {
    /// Who dealt.
    pub dealer: String,
    /// What each player put in, ante included, as money text.
    pub contributions: Map<String, Value>,
    /// Who folded.
    #[serde(default)]
    pub folded: Vec<String>,
    /// Who went all-in.
    #[serde(default)]
    pub all_in: Vec<String>,
    /// High only, or high-low (read by [`super::showdown`] too).
    #[serde(default)]
    pub split: SplitKind,
    /// High tie groups of names, best first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub showdown: Option<Vec<Vec<String>>>,
    /// Low tie groups of names, best low first (high-low only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub showdown_low: Option<Vec<Vec<String>>>,
    /// Each player's cards (hole cards under a board variant), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<Map<String, Value>>,
    /// The community cards of a board variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The betting rounds, when written ([`betting::check_rounds`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<Vec<Vec<Value>>>,
}

/// The showdown's ranking: high (and low) tie groups of seats, best first, with words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Showdown {
    /// High: tie groups of seats, best first.
    pub high: Vec<Vec<usize>>,
    /// Low (high-low only): tie groups of seats, best first.
    pub low: Vec<Vec<usize>>,
    /// Per seat: the high hand in words ("three kings"), when ranked from cards.
    pub high_words: Vec<Option<String>>,
    /// Per seat: the low hand in words ("7-5-4-3-2 low"), when ranked from cards.
    pub low_words: Vec<Option<String>>,
    /// Per seat: the highest card by rank then suit, when cards were written.
    pub high_card: Vec<Option<(u8, cards::CardSuit)>>,
    /// Per seat (high-low): the lowest card, for a tied low half's odd chip (RRP).
    pub low_card: Vec<Option<(u8, cards::CardSuit)>>,
}

/// One hand, checked. Money in units (`smallest_unit`s); seats index the seating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    /// The dealer's seat.
    pub dealer: usize,
    /// What each seat put in, in units.
    pub contributions: Vec<i64>,
    /// Per seat: folded.
    pub folded: Vec<bool>,
    /// Per seat: all-in.
    pub all_in: Vec<bool>,
    /// High only, or high-low.
    pub split: SplitKind,
    /// The ranking at the showdown (empty when one player is left).
    pub showdown: Showdown,
    /// Whether the showdown was ranked from cards.
    pub from_cards: bool,
}

pub(super) fn seat_of(players: &[String], name: &str) -> Option<usize> {
    players.iter().position(|p| p == name)
}

fn named_set(players: &[String], names: &[String], field: &str) -> Result<Vec<bool>, RuleError> {
    let mut set = vec![false; players.len()];
    for (i, name) in names.iter().enumerate() {
        let seat = seat_of(players, name).ok_or_else(|| {
            RuleError::new(
                format!("{field}[{i}]"),
                format!("{name} is not seated at this table"),
            )
        })?;
        if let Some(slot) = set.get_mut(seat) {
            if *slot {
                return Err(RuleError::new(
                    format!("{field}[{i}]"),
                    format!("{name} is listed twice"),
                ));
            }
            *slot = true;
        }
    }
    Ok(set)
}

pub(super) fn units(value: &Value, unit: Money, field: &Field) -> Result<i64, RuleError> {
    let money: Money = match value {
        Value::String(s) => Money::parse(s).map_err(|e| RuleError::new(field, e.to_string()))?,
        other => {
            return Err(RuleError::new(
                field,
                format!("{other} is not money: write it as a string like \"0.25\""),
            ));
        }
    };
    if money.cents() < 0 {
        return Err(RuleError::new(
            field,
            format!("{money} is below zero: nobody takes money out of the pot while betting"),
        ));
    }
    if money.cents() % unit.cents() != 0 {
        return Err(RuleError::new(
            field,
            format!("{money} is not a whole number of chips of {unit} (the smallest unit)"),
        ));
    }
    Ok(money.cents() / unit.cents())
}

pub(super) fn money(units: i64, unit: Money) -> Money {
    Money::from_cents(units.saturating_mul(unit.cents()))
}

/// Checks one `hand` as written for `players` (seat order) under `agreements`.
///
/// Errors name the field and rule: dealer not seated; a contribution missing, unseated,
/// negative or not whole units; folded and all-in; all folded; all-in with nothing in; a
/// player in, not all-in, short of the most put in; below the ante; a showdown missing,
/// incomplete, naming a folded player or one twice; `showdown_low` without `high_low`;
/// bad cards (count, duplicates, unwild jokers); `high_card_by_suit` without cards; a pot
/// nobody can win; a bad `board`; hole cards not the variant's count; and
/// [`betting::check_rounds`].
pub fn check(
    w: WrittenHand,
    players: &[String],
    agreements: &Agreements,
) -> Result<Hand, RuleError> {
    let n = players.len();
    let dealer = seat_of(players, &w.dealer).ok_or_else(|| {
        RuleError::new(
            "dealer",
            format!("{} is not seated at this table", w.dealer),
        )
    })?;
    let contributions = read_contributions(&w.contributions, players, agreements.unit)?;
    let folded = named_set(players, &w.folded, "folded")?;
    let all_in = named_set(players, &w.all_in, "all_in")?;
    for (seat, p) in players.iter().enumerate() {
        if folded.get(seat) == Some(&true) && all_in.get(seat) == Some(&true) {
            return Err(RuleError::new(
                "all_in",
                format!(
                    "{p} is listed as folded and as all-in: an all-in player stays in the hand"
                ),
            ));
        }
    }
    let left: Vec<usize> = (0..n).filter(|s| folded.get(*s) == Some(&false)).collect();
    if left.is_empty() {
        return Err(RuleError::new(
            "folded",
            "everybody folded: the last player left in the hand takes the pot without folding",
        ));
    }
    let in_hand = InHand {
        players,
        contributions: &contributions,
        folded: &folded,
        all_in: &all_in,
    };
    check_contributions(in_hand, agreements)?;
    let showdown = read_showdown(&w, players, &folded, &left, agreements)?;
    if let Some(rounds) = &w.rounds {
        betting::check_rounds(rounds, in_hand, agreements)?;
    }
    Ok(Hand {
        dealer,
        contributions,
        folded,
        all_in,
        split: w.split,
        showdown,
        from_cards: w.cards.is_some(),
    })
}

/// Each contribution in units of `unit`. Errors name `contributions.<player>`.
fn read_contributions(
    written: &Map<String, Value>,
    players: &[String],
    unit: Money,
) -> Result<Vec<i64>, RuleError> {
    let mut contributions = vec![None; players.len()];
    for (name, value) in written {
        let field = Field::name("contributions").player(name);
        let seat = seat_of(players, name)
            .ok_or_else(|| RuleError::new(&field, format!("{name} is not seated at this table")))?;
        let u = units(value, unit, &field)?;
        if let Some(slot) = contributions.get_mut(seat) {
            *slot = Some(u);
        }
    }
    contributions
        .iter()
        .zip(players)
        .map(|(c, p)| {
            c.ok_or_else(|| {
                RuleError::new(
                    Field::name("contributions").player(p),
                    format!("how much did {p} put in? Write \"0.00\" if he folded without paying"),
                )
                .rule("session-format")
            })
        })
        .collect()
}

/// Contributions against the hand: all-in put something in; a player in and not all-in
/// matched the most (rules §1.11); the dealt-in paid the ante (S004). Errors name
/// `contributions.<player>`.
fn check_contributions(hand: InHand<'_>, agreements: &Agreements) -> Result<(), RuleError> {
    let InHand {
        players,
        contributions,
        folded,
        all_in,
    } = hand;
    let unit = agreements.unit;
    let max = contributions.iter().copied().max().unwrap_or(0);
    for seat in 0..players.len() {
        let name = players.get(seat).map_or("", String::as_str);
        let c = contributions.get(seat).copied().unwrap_or(0);
        let field = Field::name("contributions").player(name);
        let is_all_in = all_in.get(seat) == Some(&true);
        let is_folded = folded.get(seat) == Some(&true);
        if is_all_in && c == 0 {
            return Err(RuleError::new(
                field,
                format!(
                    "{name} is all-in with nothing put in: all-in means everything he had is in the pot"
                ),
            ));
        }
        if !is_all_in && !is_folded && c < max {
            return Err(RuleError::new(
                field,
                format!(
                    "{name} is still in the hand and not all-in, so he called every bet and put in {}, the most anyone put in, not {} (a round ends when everyone has called or folded); tap all-in or folded, or correct the amount",
                    money(max, unit),
                    money(c, unit)
                ),
            )
            .rule("rules §1.11"));
        }
        if let Some(ante) = agreements.ante {
            let ante_units = ante.cents() / unit.cents();
            if !is_all_in && c > 0 && c < ante_units {
                return Err(RuleError::new(
                    field,
                    format!(
                        "{} is less than the ante of {ante} (everyone antes to be dealt in)",
                        money(c, unit)
                    ),
                )
                .rule("S004"));
            }
        }
    }
    Ok(())
}
