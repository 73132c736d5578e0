//! The showdown of a poker hand (rules §1.11, §3 items 32–33, S004; session-format): tie
//! groups (`showdown`, `showdown_low`) or cards (with a board), read into ranks.

use serde_json::{Map, Value};

use super::agreements::{Agreements, OddChip};
use super::board;
use super::cards::{self, Card};
use super::hand::{Showdown, SplitKind, WrittenHand, seat_of};
use crate::rules::{Field, RuleError};

/// The showdown, by places or cards. Errors name `showdown`, `showdown_low` or `cards`.
pub(super) fn read_showdown(
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
            let (high, low) = read_places(w, groups, players, folded, left.len(), agreements)?;
            showdown.high = high;
            if let Some(low) = low {
                showdown.low = low;
            }
        }
        (None, Some(map)) => {
            if w.showdown_low.is_some() {
                return Err(RuleError::new(
                    "showdown_low",
                    "with the cards written the lows are ranked from them: clear the low places",
                ));
            }
            let seen = Seen {
                players,
                folded,
                board: &board,
            };
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

/// Tie groups of seats, best first.
type Places = Vec<Vec<usize>>;

/// A showdown by places: high, and low where a high-low hand between two or more needs it
/// (rules §1.11; a non-qualifying 8-or-better low has none). Places cannot decide a
/// highest-card odd chip. Errors name `showdown`, `showdown_low` or `cards`.
fn read_places(
    w: &WrittenHand,
    groups: &[Vec<String>],
    players: &[String],
    folded: &[bool],
    still_in: usize,
    agreements: &Agreements,
) -> Result<(Places, Option<Places>), RuleError> {
    let high = read_groups(groups, players, folded, "showdown", false)?;
    let low = match (&w.showdown_low, w.split) {
        (Some(low), _) => {
            let partial = agreements.eight_or_better;
            Some(read_groups(low, players, folded, "showdown_low", partial)?)
        }
        (None, SplitKind::HighLow) if still_in > 1 => {
            return Err(RuleError::new(
                "showdown_low",
                "a high-low hand needs the low showdown too (tie groups, best low first), or the cards",
            ));
        }
        (None, _) => None,
    };
    if agreements.odd_chip == OddChip::HighCardBySuit && still_in > 1 {
        return Err(RuleError::new(
            "cards",
            "the odd chip goes by the highest card by suit, so the showdown needs the cards",
        )
        .rule("session-format"));
    }
    Ok((high, low))
}

/// Tie groups of names to seats: each player still in once, no folded player.
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
            let seat = seat_of(players, name).ok_or_else(|| {
                RuleError::new(&at, format!("{name} is not seated at this table"))
            })?;
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
                format!(
                    "{p} is still in the hand and missing from the showdown: list every player who did not fold"
                ),
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

/// Reads every shown hand: all still in, none folded; no card twice; jokers only when wild.
fn read_shown(
    map: &Map<String, Value>,
    seen: &Seen<'_>,
    agreements: &Agreements,
) -> Result<Vec<(usize, Vec<Card>)>, RuleError> {
    let mut hands: Vec<(usize, Vec<Card>)> = Vec::new();
    let mut table: Vec<Card> = seen.board.to_vec();
    for (name, value) in map {
        let field = Field::name("cards").player(name);
        let seat = seat_of(seen.players, name)
            .ok_or_else(|| RuleError::new(&field, format!("{name} is not seated at this table")))?;
        if seen.folded.get(seat) == Some(&true) {
            return Err(RuleError::new(
                field,
                format!("{name} folded: a folded hand is not shown or ranked"),
            ));
        }
        let text = value.as_str().ok_or_else(|| {
            RuleError::new(
                &field,
                "write the cards as a string like \"KS KD KC 4C 8H\"",
            )
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
                    format!(
                        "{c} is on the board and in {name}'s cards: a pack has one of each card"
                    ),
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
                Field::name("cards").player(p),
                format!("{p} is still in the hand: write his cards"),
            ));
        }
    }
    Ok(hands)
}

/// Ranks the showdown from the cards with the board; non-qualifying lows are left out.
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

/// The lowest natural card by rank, then suit (♣ lowest), for a tied low half's odd chip
/// (RRP); the ace is 1 under `ace_to_five`, 14 under `deuce_to_seven`; jokers do not count.
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
