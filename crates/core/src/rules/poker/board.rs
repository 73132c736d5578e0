//! Community cards and the 8-or-better qualifier (session-format "Boards and qualifiers";
//! hand ranks rules §1.11, S004).
//!
//! `variant` says what a player's `cards` are:
//! - `own_cards` (default): his whole hand, five to seven cards, best five counting;
//! - `holdem`: 2 hole cards, best five of hole cards and board in any mix;
//! - `omaha`: 4 hole cards, **exactly two** with **exactly three** of the board, for high
//!   and low (four board hearts and one in hand is no flush).
//!
//! `board` holds 3–5 community cards (`"AH KD 7C 7S 2D"`): required when a board variant's
//! showdown is by cards, optional otherwise, refused under `own_cards`. A card twice,
//! board included, is refused.
//!
//! `eight_or_better` (default `false`): a low needs five different ranks of 8 or lower,
//! aces low; a pot without a qualifying low goes whole to the best high, per pot.

use serde::Deserialize;

use super::agreements::Agreements;
use super::cards::{self, Card, HandValue, Low, LowRule, Wild};
use crate::rules::RuleError;

/// What each player's `cards` are (agreement `variant`, session-format).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Each player's cards are his whole hand; no board (default).
    #[default]
    OwnCards,
    /// Texas Hold'em: 2 hole cards, the best five of hole cards and board.
    Holdem,
    /// Omaha: 4 hole cards, exactly two of them with exactly three of the board.
    Omaha,
}

impl Variant {
    /// How many hole cards each player shows; `None` under `own_cards` (five to seven).
    pub fn hole_cards(self) -> Option<usize> {
        match self {
            Variant::OwnCards => None,
            Variant::Holdem => Some(2),
            Variant::Omaha => Some(4),
        }
    }

    /// The variant in words for the sheet and for refusals.
    pub fn words(self) -> &'static str {
        match self {
            Variant::OwnCards => "each player's own cards",
            Variant::Holdem => "Hold'em: 2 hole cards, the best five with the board",
            Variant::Omaha => "Omaha: 4 hole cards, exactly two of them with three of the board",
        }
    }
}

/// A poker session as the table names it from its agreements: "Poker (own cards)",
/// "Hold'em", "Omaha", each with "8-or-better" when that low is played. Agreements that do
/// not read (the engine refuses them) are named by the game alone.
pub fn session_name(agreements: &serde_json::Map<String, serde_json::Value>) -> Option<String> {
    let field = |name: &str| agreements.get(name).cloned().unwrap_or_default();
    let variant: Option<Variant> = serde_json::from_value(field("variant")).ok();
    let name = match variant {
        None | Some(Variant::OwnCards) => "Poker (own cards)",
        Some(Variant::Holdem) => "Hold'em",
        Some(Variant::Omaha) => "Omaha",
    };
    Some(match field("eight_or_better").as_bool() {
        Some(true) => format!("{name} 8-or-better"),
        _ => name.to_string(),
    })
}

/// The fewest and the most community cards a board may have (session-format: 3–5).
pub const BOARD_CARDS: (usize, usize) = (3, 5);

/// Reads cards separated by blanks; a natural card twice is refused in words.
fn parse_cards(text: &str) -> Result<Vec<Card>, String> {
    let cards = text
        .split_whitespace()
        .map(Card::parse)
        .collect::<Result<Vec<_>, _>>()?;
    for (i, c) in cards.iter().enumerate() {
        if *c != Card::Joker && cards.iter().skip(i + 1).any(|d| d == c) {
            return Err(format!("{c} is written twice: a pack has one of each card"));
        }
    }
    Ok(cards)
}

/// Reads the `board` (3 to 5 cards, [`BOARD_CARDS`]). Errors say what is wrong in words.
pub fn parse_board(text: &str) -> Result<Vec<Card>, String> {
    let cards = parse_cards(text)?;
    let (fewest, most) = BOARD_CARDS;
    if !(fewest..=most).contains(&cards.len()) {
        return Err(format!(
            "a board is the flop, turn and river: {fewest} to {most} cards, and {} are written",
            cards.len()
        ));
    }
    Ok(cards)
}

/// Reads one player's `cards`: hole cards, or a whole hand under `own_cards`.
pub fn parse_player(text: &str, variant: Variant) -> Result<Vec<Card>, String> {
    let Some(hole) = variant.hole_cards() else {
        return cards::parse_hand(text);
    };
    let cards = parse_cards(text)?;
    if cards.len() != hole {
        return Err(format!(
            "{} deals {hole} hole cards to each player, and {} are written (the board is written once, in board)",
            if variant == Variant::Omaha {
                "Omaha"
            } else {
                "Hold'em"
            },
            cards.len()
        ));
    }
    Ok(cards)
}

/// Calls `visit` with every five-card choice `variant` allows.
pub fn each_choice(
    hole: &[Card],
    board: &[Card],
    variant: Variant,
    visit: &mut dyn FnMut(&[Card]),
) {
    if variant != Variant::Omaha {
        let all: Vec<Card> = hole.iter().chain(board).copied().collect();
        each_subset(&all, 5, &mut |five| visit(five));
        return;
    }
    each_subset(hole, 2, &mut |two| {
        each_subset(board, 3, &mut |three| {
            let five = [two[0], two[1], three[0], three[1], three[2]];
            visit(&five);
        });
    });
}

/// Calls `visit` with every choice of `k` of `cards` (none when there are fewer).
fn each_subset(cards: &[Card], k: usize, visit: &mut dyn FnMut(&[Card])) {
    fn go(
        cards: &[Card],
        k: usize,
        from: usize,
        acc: &mut Vec<Card>,
        visit: &mut dyn FnMut(&[Card]),
    ) {
        if acc.len() == k {
            visit(acc);
            return;
        }
        for i in from..cards.len() {
            if let Some(c) = cards.get(i) {
                acc.push(*c);
                go(cards, k, i + 1, acc, visit);
                acc.pop();
            }
        }
    }
    go(cards, k, 0, &mut Vec::with_capacity(k), visit);
}

/// The best high hand from `hole` and `board` under `variant` ([`cards::high`]).
pub fn high(hole: &[Card], board: &[Card], variant: Variant, wild: Wild) -> HandValue {
    let mut best: Option<HandValue> = None;
    each_choice(hole, board, variant, &mut |five| {
        let v = cards::high(five, wild);
        best = Some(best.map_or(v, |b| b.max(v)));
    });
    best.unwrap_or_else(|| cards::high(hole, wild))
}

/// The best low from `hole` and `board` under `variant` and `rule` ([`cards::low`]).
pub fn low(hole: &[Card], board: &[Card], variant: Variant, wild: Wild, rule: LowRule) -> Low {
    let mut best: Option<Low> = None;
    each_choice(hole, board, variant, &mut |five| {
        let v = cards::low(five, wild, rule);
        best = Some(best.map_or(v, |b| b.max(v)));
    });
    best.unwrap_or_else(|| cards::low(hole, wild, rule))
}

/// Whether a low qualifies under 8-or-better: five different ranks to 8, aces low.
pub fn eight_or_better(low: Low) -> bool {
    low.0.category() == cards::Category::HighCard
        && low.0.ranks().len() == 5
        && low.0.ranks().first().is_some_and(|top| *top <= 8)
}

/// Reads `board` under `variant` (session-format): 3–5 cards where allowed. Errors name `board`.
pub fn read(
    text: Option<&str>,
    agreements: &Agreements,
    from_cards: bool,
) -> Result<Vec<Card>, RuleError> {
    let variant = agreements.variant;
    let Some(text) = text else {
        if from_cards && variant != Variant::OwnCards {
            return Err(RuleError::new(
                "board",
                "the hole cards play with the board: write the board's cards (3 to 5, like \"AH KD 7C 7S 2D\")",
            )
            .rule("session-format"));
        }
        return Ok(Vec::new());
    };
    if variant == Variant::OwnCards {
        return Err(RuleError::new(
            "board",
            "this table plays each player's own cards (agreement variant: own_cards), so there is no board: clear it, or start the session as holdem or omaha",
        )
        .rule("session-format"));
    }
    let cards = parse_board(text).map_err(|m| RuleError::new("board", m))?;
    if cards.contains(&Card::Joker) && !agreements.wild.jokers {
        return Err(RuleError::new(
            "board",
            "a joker (JK) plays only when the table agrees jokers are wild (as agreed for wild cards)",
        ));
    }
    Ok(cards)
}

#[cfg(test)]
#[path = "board_tests.rs"]
mod tests;
