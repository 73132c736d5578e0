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
//! community cards ([`board`]); with `eight_or_better` a low that does not qualify takes no
//! low half, and a `showdown_low` lists only the qualifying lows (session-format).

use serde::Deserialize;
use serde_json::{Map, Value};

use super::agreements::{Agreements, OddChip};
use super::betting;
use super::board;
use super::cards::{self, Card};
use crate::money::Money;
use crate::rules::{RuleError, fields};

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
    #[serde(default)]
    split: SplitKind,
    showdown: Option<Vec<Vec<String>>>,
    showdown_low: Option<Vec<Vec<String>>>,
    cards: Option<Map<String, Value>>,
    board: Option<String>,
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

pub(super) fn units(value: &Value, unit: Money, field: &str) -> Result<i64, RuleError> {
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
pub fn check(w: WrittenHand, players: &[String], agreements: &Agreements) -> Result<Hand, RuleError> {
    let n = players.len();
    let dealer = seat_of(players, &w.dealer).ok_or_else(|| {
        RuleError::new("dealer", format!("{} is not seated at this table", w.dealer))
    })?;
    let contributions = read_contributions(&w.contributions, players, agreements.unit)?;
    let folded = named_set(players, &w.folded, "folded")?;
    let all_in = named_set(players, &w.all_in, "all_in")?;
    for (seat, p) in players.iter().enumerate() {
        if folded.get(seat) == Some(&true) && all_in.get(seat) == Some(&true) {
            return Err(RuleError::new(
                "all_in",
                format!("{p} is listed as folded and as all-in: an all-in player stays in the hand"),
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
    check_contributions(players, &contributions, &folded, &all_in, agreements)?;
    let showdown = read_showdown(&w, players, &folded, &left, agreements)?;
    if let Some(rounds) = &w.rounds {
        betting::check_rounds(rounds, players, &contributions, &folded, &all_in, agreements)?;
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
        let field = format!("contributions.{name}");
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
                    format!("contributions.{p}"),
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
fn check_contributions(
    players: &[String],
    contributions: &[i64],
    folded: &[bool],
    all_in: &[bool],
    agreements: &Agreements,
) -> Result<(), RuleError> {
    let unit = agreements.unit;
    let max = contributions.iter().copied().max().unwrap_or(0);
    for seat in 0..players.len() {
        let name = players.get(seat).map_or("", String::as_str);
        let c = contributions.get(seat).copied().unwrap_or(0);
        let field = format!("contributions.{name}");
        let is_all_in = all_in.get(seat) == Some(&true);
        let is_folded = folded.get(seat) == Some(&true);
        if is_all_in && c == 0 {
            return Err(RuleError::new(
                field,
                format!("{name} is all-in with nothing put in: all-in means everything he had is in the pot"),
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

/// The showdown: tie groups (`showdown`, `showdown_low`) or the cards, checked against the
/// split and the agreements; with one player left he takes it all. Errors name
/// `showdown`, `showdown_low` or `cards`.
fn read_showdown(
    w: &WrittenHand,
    players: &[String],
    folded: &[bool],
    left: &[usize],
    agreements: &Agreements,
) -> Result<Showdown, RuleError> {
    let n = players.len();
    if w.showdown_low.is_some() && w.split != SplitKind::HighLow {
        return Err(RuleError::new(
            "showdown_low",
            "a low showdown belongs to a high-low hand: choose high-low, or clear the low places",
        ));
    }
    let mut showdown = Showdown {
        high_words: vec![None; n],
        low_words: vec![None; n],
        high_card: vec![None; n],
        low_card: vec![None; n],
        ..Showdown::default()
    };
    let board = board::read(w.board.as_deref(), agreements, w.cards.is_some())?;
    match (&w.showdown, &w.cards) {
        (Some(_), Some(_)) => {
            return Err(RuleError::new(
                "cards",
                "give the showdown either as tie groups or as cards, not both",
            ));
        }
        (Some(groups), None) => {
            showdown.high = read_groups(groups, players, folded, "showdown", false)?;
            match (&w.showdown_low, w.split) {
                (Some(low), _) => {
                    // Under 8-or-better a low that does not qualify has no low place.
                    let partial = agreements.eight_or_better;
                    showdown.low = read_groups(low, players, folded, "showdown_low", partial)?;
                }
                (None, SplitKind::HighLow) if left.len() > 1 => {
                    return Err(RuleError::new(
                        "showdown_low",
                        "a high-low hand needs the low showdown too (tie groups, best low first), or the cards",
                    ));
                }
                (None, _) => {}
            }
            if agreements.odd_chip == OddChip::HighCardBySuit && left.len() > 1 {
                return Err(RuleError::new(
                    "cards",
                    "the odd chip goes by the highest card by suit, so the showdown needs the cards",
                )
                .rule("session-format"));
            }
        }
        (None, Some(map)) => {
            if w.showdown_low.is_some() {
                return Err(RuleError::new(
                    "showdown_low",
                    "with the cards written the lows are ranked from them: clear the low places",
                ));
            }
            let seen = Seen { players, folded, board: &board };
            read_cards(map, &seen, agreements, w.split, &mut showdown)?;
        }
        (None, None) if left.len() > 1 => {
            return Err(RuleError::new(
                "showdown",
                "who won? Give the showdown (tie groups, best first) or the cards",
            ));
        }
        (None, None) => {
            showdown.high = vec![left.to_vec()];
            if w.split == SplitKind::HighLow {
                showdown.low = vec![left.to_vec()];
            }
        }
    }
    Ok(showdown)
}

/// Tie groups of names to seats: every player still in the hand exactly once (at most
/// once when `partial`: an 8-or-better low showdown lists only the lows that qualify), no
/// folded player, no empty group.
fn read_groups(
    groups: &[Vec<String>],
    players: &[String],
    folded: &[bool],
    field: &str,
    partial: bool,
) -> Result<Vec<Vec<usize>>, RuleError> {
    let mut seen = vec![false; players.len()];
    let mut out = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        if group.is_empty() {
            return Err(RuleError::new(
                format!("{field}[{g}]"),
                "an empty tie group: each group names the players who tie",
            ));
        }
        let mut seats = Vec::new();
        for (i, name) in group.iter().enumerate() {
            let at = format!("{field}[{g}][{i}]");
            let seat = seat_of(players, name)
                .ok_or_else(|| RuleError::new(&at, format!("{name} is not seated at this table")))?;
            if folded.get(seat) == Some(&true) {
                return Err(RuleError::new(
                    at,
                    format!("{name} folded: a folded hand has no place in the showdown"),
                ));
            }
            match seen.get_mut(seat) {
                Some(s) if *s => {
                    return Err(RuleError::new(at, format!("{name} is listed twice")));
                }
                Some(s) => *s = true,
                None => {}
            }
            seats.push(seat);
        }
        out.push(seats);
    }
    for (seat, p) in players.iter().enumerate() {
        if !partial && folded.get(seat) == Some(&false) && seen.get(seat) == Some(&false) {
            return Err(RuleError::new(
                field,
                format!("{p} is still in the hand and missing from the showdown: list every player who did not fold"),
            ));
        }
    }
    Ok(out)
}

/// Groups seats by a value, best (biggest) first; equal values tie.
fn rank_groups<T: Ord + Copy>(values: &[(usize, T)]) -> Vec<Vec<usize>> {
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut groups: Vec<(T, Vec<usize>)> = Vec::new();
    for (seat, v) in sorted {
        match groups.last_mut() {
            Some((last, g)) if *last == v => g.push(seat),
            _ => groups.push((v, vec![seat])),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// What the cards are checked against: the seating, who folded, and the board.
struct Seen<'a> {
    players: &'a [String],
    folded: &'a [bool],
    board: &'a [Card],
}

/// Reads every shown hand (`cards`): every player still in the hand shows his cards
/// ([`board::parse_player`]: five to seven, or the variant's hole cards), folded players
/// none; no card twice at the table, board included; jokers only when wild, at most two in
/// the pack.
fn read_shown(
    map: &Map<String, Value>,
    seen: &Seen<'_>,
    agreements: &Agreements,
) -> Result<Vec<(usize, Vec<Card>)>, RuleError> {
    let mut hands: Vec<(usize, Vec<Card>)> = Vec::new();
    let mut table: Vec<Card> = seen.board.to_vec();
    for (name, value) in map {
        let field = format!("cards.{name}");
        let seat = seat_of(seen.players, name)
            .ok_or_else(|| RuleError::new(&field, format!("{name} is not seated at this table")))?;
        if seen.folded.get(seat) == Some(&true) {
            return Err(RuleError::new(
                field,
                format!("{name} folded: a folded hand is not shown or ranked"),
            ));
        }
        let text = value.as_str().ok_or_else(|| {
            RuleError::new(&field, "write the cards as a string like \"KS KD KC 4C 8H\"")
        })?;
        let hand = board::parse_player(text, agreements.variant)
            .map_err(|m| RuleError::new(&field, format!("{name}: {m}")))?;
        for c in &hand {
            if *c == Card::Joker && !agreements.wild.jokers {
                return Err(RuleError::new(
                    field,
                    "a joker (JK) plays only when the table agrees jokers are wild (as agreed for wild cards)",
                ));
            }
            if *c != Card::Joker && seen.board.contains(c) {
                return Err(RuleError::new(
                    field,
                    format!("{c} is on the board and in {name}'s cards: a pack has one of each card"),
                ));
            }
            if *c != Card::Joker && table.contains(c) {
                return Err(RuleError::new(
                    field,
                    format!("{c} is in two hands: a pack has one of each card"),
                ));
            }
            table.push(*c);
        }
        if table.iter().filter(|c| **c == Card::Joker).count() > 2 {
            return Err(RuleError::new(
                field,
                "more than two jokers at the table: a pack has at most two",
            ));
        }
        hands.push((seat, hand));
    }
    for (seat, p) in seen.players.iter().enumerate() {
        if seen.folded.get(seat) == Some(&false) && !hands.iter().any(|(s, _)| *s == seat) {
            return Err(RuleError::new(
                format!("cards.{p}"),
                format!("{p} is still in the hand: write his cards"),
            ));
        }
    }
    Ok(hands)
}

/// Ranks the showdown from the cards ([`read_shown`]), each hand with the board as the
/// variant allows ([`board::high`], [`board::low`]). Under 8-or-better a low that does not
/// qualify is left out of the low groups, so it wins no low half. The odd chip's card by
/// suit is the player's own (hole) cards: the board is everyone's.
fn read_cards(
    map: &Map<String, Value>,
    seen: &Seen<'_>,
    agreements: &Agreements,
    split: SplitKind,
    showdown: &mut Showdown,
) -> Result<(), RuleError> {
    let hands = read_shown(map, seen, agreements)?;
    let (wild, variant, board) = (agreements.wild, agreements.variant, seen.board);
    let highs: Vec<(usize, cards::HandValue)> = hands
        .iter()
        .map(|(s, h)| (*s, board::high(h, board, variant, wild)))
        .collect();
    showdown.high = rank_groups(&highs);
    for (seat, v) in &highs {
        if let Some(slot) = showdown.high_words.get_mut(*seat) {
            *slot = Some(v.describe());
        }
    }
    for (seat, h) in &hands {
        if let Some(slot) = showdown.high_card.get_mut(*seat) {
            *slot = cards::high_card(h);
        }
    }
    if split == SplitKind::HighLow {
        let lows: Vec<(usize, cards::Low)> = hands
            .iter()
            .map(|(s, h)| (*s, board::low(h, board, variant, wild, agreements.low)))
            .collect();
        let qualifying: Vec<(usize, cards::Low)> = lows
            .iter()
            .copied()
            .filter(|(_, v)| !agreements.eight_or_better || board::eight_or_better(*v))
            .collect();
        showdown.low = rank_groups(&qualifying);
        for (seat, v) in &lows {
            if let Some(slot) = showdown.low_words.get_mut(*seat) {
                *slot = Some(if qualifying.iter().any(|(s, _)| s == seat) {
                    v.describe()
                } else {
                    format!("{} (not 8 or better)", v.describe())
                });
            }
        }
        for (seat, h) in &hands {
            if let Some(slot) = showdown.low_card.get_mut(*seat) {
                *slot = low_card(h, agreements.low);
            }
        }
    }
    Ok(())
}

/// The lowest natural card of a hand by rank, then suit (♣ lowest): who gets a tied low
/// half's odd chip under `high_card_by_suit` (RRP: "the lowest card by suit in all low
/// games"). The ace is rank 1 where aces play low (`ace_to_five`), 14 under
/// `deuce_to_seven`; jokers have no suit and do not count.
fn low_card(hand: &[cards::Card], rule: cards::LowRule) -> Option<(u8, cards::CardSuit)> {
    hand.iter()
        .filter_map(|c| match *c {
            cards::Card::Natural { rank: 14, suit } if rule == cards::LowRule::AceToFive => {
                Some((1, suit))
            }
            cards::Card::Natural { rank, suit } => Some((rank, suit)),
            cards::Card::Joker => None,
        })
        .min()
}
