//! Cards as written (session-format, poker) and which are wild (rules §1.11, S004). The
//! evaluator is [`super::cards`].

use std::fmt;

/// A card suit, ordered ♣ < ♦ < ♥ < ♠ only for the odd chip (RRP), never for hands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CardSuit {
    /// ♣, lowest for the odd chip.
    Clubs,
    /// ♦
    Diamonds,
    /// ♥
    Hearts,
    /// ♠, highest for the odd chip.
    Spades,
}

impl CardSuit {
    /// The four suits, clubs first.
    pub const ALL: [CardSuit; 4] = [
        CardSuit::Clubs,
        CardSuit::Diamonds,
        CardSuit::Hearts,
        CardSuit::Spades,
    ];

    fn letter(self) -> char {
        match self {
            CardSuit::Clubs => 'C',
            CardSuit::Diamonds => 'D',
            CardSuit::Hearts => 'H',
            CardSuit::Spades => 'S',
        }
    }
}

/// One card: a natural card (rank 2–14, the ace 14) of a suit, or a joker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Card {
    /// A card of the 52-card pack: rank 2–14 (11 jack, 12 queen, 13 king, 14 ace).
    Natural {
        /// 2–14.
        rank: u8,
        /// Its suit.
        suit: CardSuit,
    },
    /// A joker (`JK`): wild when the table plays jokers wild, else not allowed.
    Joker,
}

impl Card {
    /// Reads one card (`"KS"`, `"TD"`, `"JK"`; any case). Errors say what a card looks like.
    pub fn parse(text: &str) -> Result<Card, String> {
        let upper = text.to_ascii_uppercase();
        if upper == "JK" {
            return Ok(Card::Joker);
        }
        let mut chars = upper.chars();
        let (Some(r), Some(s), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(format!(
                "\"{text}\" is not a card: write rank then suit, like \"KS\" or \"TD\", or JK for a joker"
            ));
        };
        let rank = match r {
            '2'..='9' => r as u8 - b'0',
            'T' => 10,
            'J' => 11,
            'Q' => 12,
            'K' => 13,
            'A' => 14,
            _ => {
                return Err(format!(
                    "\"{text}\" has no rank: ranks are 2–9, T, J, Q, K, A"
                ));
            }
        };
        let suit = match s {
            'S' => CardSuit::Spades,
            'H' => CardSuit::Hearts,
            'D' => CardSuit::Diamonds,
            'C' => CardSuit::Clubs,
            _ => return Err(format!("\"{text}\" has no suit: suits are S, H, D, C")),
        };
        Ok(Card::Natural { rank, suit })
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Joker => f.write_str("JK"),
            Card::Natural { rank, suit } => write!(f, "{}{}", rank_letter(*rank), suit.letter()),
        }
    }
}

/// The letter of `rank` as a card is written (`T` for 10, `A` for an ace high or low).
pub(super) fn rank_letter(rank: u8) -> char {
    match rank {
        10 => 'T',
        11 => 'J',
        12 => 'Q',
        13 => 'K',
        1 | 14 => 'A',
        r => (b'0' + r.min(9)) as char,
    }
}

/// Which cards are wild (the `wild` agreement: `[]`, `["jokers"]`, `["deuces"]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Wild {
    /// Jokers are in the pack and wild.
    pub jokers: bool,
    /// Every deuce is wild.
    pub deuces: bool,
}

impl Wild {
    /// Whether `card` is wild at this table.
    pub fn is_wild(self, card: Card) -> bool {
        match card {
            Card::Joker => self.jokers,
            Card::Natural { rank, .. } => self.deuces && rank == 2,
        }
    }
}

/// The most cards a player's hand may show (seven-card games); the best five count.
pub const MAX_CARDS: usize = 7;

/// Reads a hand of five to seven cards (`"KS KD KC 4C 8H"`). Errors in player words.
pub fn parse_hand(text: &str) -> Result<Vec<Card>, String> {
    let cards = text
        .split_whitespace()
        .map(Card::parse)
        .collect::<Result<Vec<_>, _>>()?;
    if !(5..=MAX_CARDS).contains(&cards.len()) {
        return Err(format!(
            "a poker hand is five cards (up to seven, the best five counting), and {} are written",
            cards.len()
        ));
    }
    for (i, c) in cards.iter().enumerate() {
        if *c != Card::Joker && cards.iter().skip(i + 1).any(|d| d == c) {
            return Err(format!("{c} is written twice: a pack has one of each card"));
        }
    }
    Ok(cards)
}
