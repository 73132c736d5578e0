//! One poker hand as entered at the table, checked against the rules (rules §1.11, §3 items
//! 32–33, S004) and the session format:
//!
//! ```json
//! { "type": "hand", "dealer": "You",
//!   "contributions": { "Alex": "0.05", "Brad": "0.50", "You": "0.50" },
//!   "folded": ["Alex"], "all_in": [], "split": "high",
//!   "showdown": [["You"], ["Brad"]] }
//! ```
//!
//! `contributions` lists every seated player (`"0.00"` for one who folded without paying),
//! each a whole number of `smallest_unit`s; `folded` and `all_in` name players; `split` is
//! `"high"` (default) or `"high_low"`; the showdown is `showdown` (tie groups, best first,
//! every player still in the hand exactly once; with `high_low` also `showdown_low`) or
//! `cards` (`{player: "KS KD KC 4C 8H"}`, every player still in the hand), and may be left
//! out only when one player is left. Optional `rounds`: the betting, checked against the
//! limits and the contributions ([`betting::check_rounds`]). With a board variant
//! (`variant: holdem | omaha`) `cards` are each player's hole cards and `board` the
//! community cards ([`super::board`]); with `eight_or_better` a low that does not qualify takes no
//! low half, and a `showdown_low` lists only the qualifying lows (session-format).

use serde::Deserialize;
use serde_json::{Map, Value};

use super::agreements::Agreements;
use super::betting::{self, InHand};
use super::cards;
use super::showdown::read_showdown;
use crate::money::Money;
use crate::rules::{Field, RuleError, fields};

/// How a pot is won (`split`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SplitKind {
    /// The best high hand takes the pot.
    #[default]
    High,
    /// Half to the best high hand (with the odd chip), half to the best low hand.
    HighLow,
}

/// A `hand` event exactly as the session document writes it (`docs/session-format.md`,
/// `poker`): what [`check`] checks.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenHand {
    #[serde(rename = "type")]
    _kind: String,
    dealer: String,
    contributions: Map<String, Value>,
    #[serde(default)]
    folded: Vec<String>,
    #[serde(default)]
    all_in: Vec<String>,
    /// High only, or high-low (read by [`super::showdown`] too).
    #[serde(default)]
    pub(super) split: SplitKind,
    /// High tie groups of names, best first.
    pub(super) showdown: Option<Vec<Vec<String>>>,
    /// Low tie groups of names, best low first (high-low only).
    pub(super) showdown_low: Option<Vec<Vec<String>>>,
    /// Each player's cards, as written.
    pub(super) cards: Option<Map<String, Value>>,
    /// The community cards of a board variant.
    pub(super) board: Option<String>,
    rounds: Option<Vec<Vec<Value>>>,
}

/// How the hands at the showdown rank: tie groups of seats, best first, for high and (in a
/// high-low hand) for low, each with the words that say why, and each seat's cards when
/// they were written.
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
    /// Per seat (high-low only): the lowest card by rank then suit, the ace ranked 1 under
    /// `low: ace_to_five`, when cards were written (RRP: a tied low half's odd chip goes to
    /// the lowest card by suit).
    pub low_card: Vec<Option<(u8, cards::CardSuit)>>,
}

/// One hand, checked. Money is in units (`smallest_unit`s); seats are indices into the
/// seating.
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

/// Reads and checks one `hand` event for `players` (seat order) under `agreements`.
///
/// Errors name the field and the rule: a dealer not seated; a contribution missing, for
/// someone not seated, below zero or not a whole number of units; a player both folded and
/// all-in; everybody folded; an all-in player who put nothing in; a player still in the
/// hand, not all-in, who put in less than the most anyone put in (he must call or fold);
/// a contribution below the ante by a player not all-in; a showdown missing, incomplete,
/// naming a folded player or a player twice; `showdown_low` without `high_low`; cards that
/// are not five to seven cards, a card twice at the table, a joker when jokers are not
/// wild; `high_card_by_suit` without cards; a pot nobody still in the hand can win; a
/// `board` under `own_cards`, missing with a board variant's cards, not 3 to 5 cards, or
/// sharing a card with a hand; hole cards not the variant's count (naming the player); and
/// every refusal of [`betting::check_rounds`].
pub fn read(
    event: &Map<String, Value>,
    players: &[String],
    agreements: &Agreements,
) -> Result<Hand, RuleError> {
    check(fields::read(event)?, players, agreements)
}

/// Checks a `hand` event already read into its written shape, as [`read`] says.
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

/// Each player's contribution in units of `unit`, every player's written. Errors name
/// `contributions.<player>`.
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

/// Every contribution against the hand: an all-in player put something in; a player still
/// in and not all-in put in the most anyone did (rules §1.11); one dealt in put in at least
/// the ante (S004). Errors name `contributions.<player>`.
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
