//! Cards and the hand evaluator (rules §1.11 "Hand ranks", S004), pure and exact.
//!
//! Cards as the session document writes them: rank `2`–`9`, `T`, `J`, `Q`, `K`, `A` then
//! suit `S` `H` `D` `C` (`"KS"`, `"TD"`), `JK` a joker. A hand is five to seven cards; the
//! best five count.
//!
//! High hands: five of a kind (wild only) > straight flush > four of a kind > full house >
//! flush > straight > three of a kind > two pair > pair > high card; kickers break ties to
//! the last card. A-2-3-4-5 is the lowest straight, no wrap-around; suits never rank. Wild
//! cards stand for any card, even one already held (S004).
//!
//! Lows (`low`, for high-low pots): `ace_to_five` counts aces low and ignores straights and
//! flushes (5-4-3-2-A best); `deuce_to_seven` counts aces high and straights and flushes
//! against the hand (7-5-4-3-2 best). Wild cards take the best low value.

use std::cmp::Ordering;

use super::deck::rank_letter;
pub use super::deck::{Card, CardSuit, MAX_CARDS, Wild, parse_hand};

/// The kind of a high hand, lowest first (rules §1.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// No pair, no straight, no flush.
    HighCard,
    /// One pair.
    Pair,
    /// Two pairs.
    TwoPair,
    /// Three of a kind.
    Trips,
    /// Five in sequence (ace high or low, no wrap-around).
    Straight,
    /// Five of one suit.
    Flush,
    /// Three of a kind and a pair.
    FullHouse,
    /// Four of a kind.
    Quads,
    /// A straight in one suit (ace high: royal flush).
    StraightFlush,
    /// Five of a kind (wild cards only).
    FiveOfAKind,
}

impl Category {
    const BY_CODE: [Category; 10] = [
        Category::HighCard,
        Category::Pair,
        Category::TwoPair,
        Category::Trips,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::Quads,
        Category::StraightFlush,
        Category::FiveOfAKind,
    ];

    /// The category's name as players say it ("flush", "two pair").
    pub fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::Pair => "pair",
            Category::TwoPair => "two pair",
            Category::Trips => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::Quads => "four of a kind",
            Category::StraightFlush => "straight flush",
            Category::FiveOfAKind => "five of a kind",
        }
    }
}

/// A five-card value: category in bits 20–23, then four-bit tie-break ranks; bigger is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandValue(u32);

impl HandValue {
    /// The category of the hand.
    pub fn category(self) -> Category {
        Category::BY_CODE
            .get((self.0 >> 20) as usize)
            .copied()
            .unwrap_or(Category::HighCard)
    }

    /// The tie-break ranks (2–14, or 1 for an ace counted low), most significant first.
    pub fn ranks(self) -> Vec<u8> {
        (0..5)
            .map(|i| ((self.0 >> (16 - 4 * i)) & 0xF) as u8)
            .filter(|r| *r != 0)
            .collect()
    }

    /// The hand in words, after a possessive: "kings full of twos".
    pub fn describe(self) -> String {
        let r = self.ranks();
        let at = |i: usize| r.get(i).copied().unwrap_or(0);
        match self.category() {
            Category::FiveOfAKind => format!("five {}", plural(at(0))),
            Category::StraightFlush if at(0) == 14 => "royal flush".into(),
            Category::StraightFlush => format!("straight flush, {} high", name(at(0))),
            Category::Quads => format!("four {}", plural(at(0))),
            Category::FullHouse => format!("{} full of {}", plural(at(0)), plural(at(1))),
            Category::Flush => format!("flush, {} high", name(at(0))),
            Category::Straight if at(0) == 5 => "wheel (straight, five high)".into(),
            Category::Straight => format!("straight, {} high", name(at(0))),
            Category::Trips => format!("three {}", plural(at(0))),
            Category::TwoPair => format!("two pair, {} and {}", plural(at(0)), plural(at(1))),
            Category::Pair => format!("pair of {}", plural(at(0))),
            Category::HighCard => format!("{} high", name(at(0))),
        }
    }

    /// The cards as a low reads them, highest first ("7-5-4-3-A").
    pub fn run(self) -> String {
        self.ranks()
            .iter()
            .map(|r| rank_letter(*r).to_string())
            .collect::<Vec<_>>()
            .join("-")
    }
}

fn name(rank: u8) -> &'static str {
    match rank {
        1 | 14 => "ace",
        13 => "king",
        12 => "queen",
        11 => "jack",
        10 => "ten",
        9 => "nine",
        8 => "eight",
        7 => "seven",
        6 => "six",
        5 => "five",
        4 => "four",
        3 => "three",
        _ => "two",
    }
}

fn plural(rank: u8) -> &'static str {
    match rank {
        1 | 14 => "aces",
        13 => "kings",
        12 => "queens",
        11 => "jacks",
        10 => "tens",
        9 => "nines",
        8 => "eights",
        7 => "sevens",
        6 => "sixes",
        5 => "fives",
        4 => "fours",
        3 => "threes",
        _ => "twos",
    }
}

/// How straights count when valuing five ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Straights {
    /// High hands: A-K-Q-J-T down to the wheel 5-4-3-2-A.
    AceHighOrLow,
    /// Deuce-to-seven lows: the ace is high only, so A-2-3-4-5 is no straight.
    AceHighOnly,
    /// Ace-to-five lows: straights do not count.
    None,
}

/// Values five ranks (2–14; 1 for an ace counted low), all of one suit when `flush`.
fn value5(ranks: [u8; 5], flush: bool, straights: Straights) -> HandValue {
    let mut counts = [0u8; 15];
    for r in ranks {
        if let Some(c) = counts.get_mut(r as usize) {
            *c += 1;
        }
    }
    // Groups (count, rank), the biggest group first, higher rank first among equals.
    let mut groups = [(0u8, 0u8); 5];
    let mut n = 0;
    for r in (1..15u8).rev() {
        let c = counts.get(r as usize).copied().unwrap_or(0);
        if c > 0 {
            if let Some(g) = groups.get_mut(n) {
                *g = (c, r);
            }
            n += 1;
        }
    }
    let groups = &mut groups[..n.min(5)];
    groups.sort_by(|a, b| b.cmp(a));
    let first = groups.first().map_or(0, |g| g.0);
    let second = groups.get(1).map_or(0, |g| g.0);
    let top = groups.first().map_or(0, |g| g.1);
    let low = groups.last().map_or(0, |g| g.1);
    let distinct = n == 5;
    let straight_high = match straights {
        _ if !distinct => None,
        Straights::None => None,
        _ if top - low == 4 => Some(top),
        Straights::AceHighOrLow
            if top == 14 && groups.get(1).map(|g| g.1) == Some(5) && low == 2 =>
        {
            Some(5)
        }
        _ => None,
    };
    let (category, tiebreak): (u32, Vec<u8>) = if first == 5 {
        (9, vec![top])
    } else if let (Some(high), true) = (straight_high, flush) {
        (8, vec![high])
    } else if first == 4 {
        (7, groups.iter().map(|g| g.1).collect())
    } else if first == 3 && second == 2 {
        (6, groups.iter().map(|g| g.1).collect())
    } else if flush {
        let mut all = ranks;
        all.sort_by(|a, b| b.cmp(a));
        (5, all.to_vec())
    } else if let Some(high) = straight_high {
        (4, vec![high])
    } else if first == 3 {
        (3, groups.iter().map(|g| g.1).collect())
    } else if first == 2 && second == 2 {
        (2, groups.iter().map(|g| g.1).collect())
    } else if first == 2 {
        (1, groups.iter().map(|g| g.1).collect())
    } else {
        (0, groups.iter().map(|g| g.1).collect())
    };
    let mut v = category << 20;
    for (i, r) in tiebreak.iter().take(5).enumerate() {
        v |= u32::from(*r) << (16 - 4 * i);
    }
    HandValue(v)
}

/// The value of five natural cards, no wild card: the fast path (tests, benchmark).
pub fn value_of_five(cards: [(u8, CardSuit); 5]) -> HandValue {
    let flush = cards.iter().all(|c| c.1 == cards[0].1);
    value5(cards.map(|c| c.0), flush, Straights::AceHighOrLow)
}

/// A hand's low value under `low`, ordered so that bigger is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Low(pub HandValue);

impl Ord for Low {
    fn cmp(&self, other: &Low) -> Ordering {
        other.0.cmp(&self.0)
    }
}

impl PartialOrd for Low {
    fn partial_cmp(&self, other: &Low) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Low {
    /// The low in words: "7-5-4-3-A", with its pair or straight when it has one.
    pub fn describe(self) -> String {
        match self.0.category() {
            Category::HighCard => format!("{} low", self.0.run()),
            _ => format!("{} low ({})", self.0.run(), self.0.describe()),
        }
    }
}

/// How low hands are ranked (the `low` agreement).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LowRule {
    /// Aces low; straights and flushes do not count (default).
    #[default]
    AceToFive,
    /// Aces high only; straights and flushes count against the hand.
    DeuceToSeven,
}

/// The naturals of a five-card selection split from its wild cards.
struct Split {
    naturals: Vec<(u8, CardSuit)>,
    wilds: usize,
}

fn split(cards: &[Card], wild: Wild) -> Split {
    let mut naturals = Vec::with_capacity(5);
    let mut wilds = 0;
    for c in cards {
        match *c {
            c if wild.is_wild(c) => wilds += 1,
            Card::Natural { rank, suit } => naturals.push((rank, suit)),
            // A joker at a no-joker table is refused when read; here it would be lowest.
            Card::Joker => naturals.push((2, CardSuit::Clubs)),
        }
    }
    Split { naturals, wilds }
}

/// Calls `visit` with every non-decreasing rank list (2–14) for `wilds` wild cards.
fn each_wild_ranks(wilds: usize, visit: &mut dyn FnMut(&[u8])) {
    fn go(from: u8, left: usize, acc: &mut Vec<u8>, visit: &mut dyn FnMut(&[u8])) {
        if left == 0 {
            visit(acc);
            return;
        }
        for r in from..=14 {
            acc.push(r);
            go(r, left - 1, acc, visit);
            acc.pop();
        }
    }
    go(2, wilds, &mut Vec::with_capacity(wilds), visit);
}

fn ranks_of(naturals: &[(u8, CardSuit)], extra: &[u8]) -> [u8; 5] {
    let mut out = [0u8; 5];
    for (slot, r) in out
        .iter_mut()
        .zip(naturals.iter().map(|c| c.0).chain(extra.iter().copied()))
    {
        *slot = r;
    }
    out
}

/// The best high value of exactly five cards, wild cards standing for whatever is best.
fn high5(cards: &[Card], wild: Wild) -> HandValue {
    let s = split(cards, wild);
    let suited = s.naturals.windows(2).all(|w| w[0].1 == w[1].1);
    if s.wilds == 0 {
        return value5(ranks_of(&s.naturals, &[]), suited, Straights::AceHighOrLow);
    }
    // Five of a kind is the top hand: take it at once when the wild cards make one.
    let mut counts = [0usize; 15];
    for (r, _) in &s.naturals {
        if let Some(c) = counts.get_mut(*r as usize) {
            *c += 1;
        }
    }
    if let Some(r) = (2..=14u8)
        .rev()
        .find(|r| counts.get(*r as usize).copied().unwrap_or(0) + s.wilds >= 5)
    {
        return value5([r; 5], false, Straights::AceHighOrLow);
    }
    let mut best = HandValue(0);
    each_wild_ranks(s.wilds, &mut |extra| {
        // Wild cards take the naturals' common suit: a flush never lowers a hand.
        let v = value5(
            ranks_of(&s.naturals, extra),
            suited,
            Straights::AceHighOrLow,
        );
        best = best.max(v);
    });
    best
}

/// The best low value of exactly five cards under `rule`, wild cards at their best.
fn low5(cards: &[Card], wild: Wild, rule: LowRule) -> HandValue {
    let s = split(cards, wild);
    // A wild card can always spoil a flush, so only five suited naturals make one.
    let flush = s.wilds == 0 && s.naturals.windows(2).all(|w| w[0].1 == w[1].1);
    let value = |ranks: [u8; 5]| match rule {
        LowRule::AceToFive => value5(
            ranks.map(|r| if r == 14 { 1 } else { r }),
            false,
            Straights::None,
        ),
        LowRule::DeuceToSeven => value5(ranks, flush, Straights::AceHighOnly),
    };
    let mut best = HandValue(u32::MAX);
    each_wild_ranks(s.wilds, &mut |extra| {
        best = best.min(value(ranks_of(&s.naturals, extra)));
    });
    best
}

/// Calls `visit` with every choice of five of `cards` (one choice for a five-card hand).
fn each_five(cards: &[Card], visit: &mut dyn FnMut(&[Card])) {
    let n = cards.len();
    if n <= 5 {
        visit(cards);
        return;
    }
    let mut pick = [0usize, 1, 2, 3, 4];
    let mut chosen = [Card::Joker; 5];
    loop {
        for (slot, i) in chosen.iter_mut().zip(pick) {
            if let Some(c) = cards.get(i) {
                *slot = *c;
            }
        }
        visit(&chosen);
        // The next combination in lexicographic order.
        let Some(k) = (0..5).rev().find(|&k| pick[k] < n - 5 + k) else {
            return;
        };
        pick[k] += 1;
        for j in k + 1..5 {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// The value of a hand (five to seven cards, the best five counting) as a high hand.
pub fn high(cards: &[Card], wild: Wild) -> HandValue {
    let mut best = HandValue(0);
    each_five(cards, &mut |five| best = best.max(high5(five, wild)));
    best
}

/// The value of a hand (five to seven cards, the best five counting) as a low hand.
pub fn low(cards: &[Card], wild: Wild, rule: LowRule) -> Low {
    let mut best = HandValue(u32::MAX);
    each_five(cards, &mut |five| best = best.min(low5(five, wild, rule)));
    Low(best)
}

/// The highest natural card by rank, then suit, for `high_card_by_suit` (RRP, BARGE).
pub fn high_card(cards: &[Card]) -> Option<(u8, CardSuit)> {
    cards
        .iter()
        .filter_map(|c| match *c {
            Card::Natural { rank, suit } => Some((rank, suit)),
            Card::Joker => None,
        })
        .max()
}

/// A card by rank and suit, in words for the sheet ("the ace of spades").
pub fn card_words(card: (u8, CardSuit)) -> String {
    let suit = match card.1 {
        CardSuit::Spades => "spades",
        CardSuit::Hearts => "hearts",
        CardSuit::Diamonds => "diamonds",
        CardSuit::Clubs => "clubs",
    };
    format!("the {} of {suit}", name(card.0))
}

#[cfg(test)]
#[path = "cards_tests.rs"]
mod tests;
