//! The cards behind the melds: which cards melds need, whether one 48-card deck (two of
//! each, rules §1.0) and one hand hold them, and the melds a hand shows. A card may serve
//! in one meld of each class, never two of the same class (S004 "Melding is subject to…"
//! rule 3), except a royal marriage grown into a run ([`MeldRules::royal_in_run`]).

use super::{Counted, Kind, MeldRules, Tapped, count};
use crate::rules::{RuleError, Suit};

/// The ranks of a pinochle deck, high to low (rules §1.0): A, 10, K, Q, J, 9.
const RANKS: [&str; 6] = ["A", "10", "K", "Q", "J", "9"];
const ACE: usize = 0;
const TEN: usize = 1;
const KING: usize = 2;
const QUEEN: usize = 3;
const JACK: usize = 4;
const NINE: usize = 5;
const SPADES: usize = 0;
const DIAMONDS: usize = 2;

/// One pinochle card: a rank (0 = A … 5 = 9) and a suit (in [`Suit::ALL`] order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    rank: usize,
    suit: usize,
}

impl Card {
    fn index(self) -> usize {
        self.suit * 6 + self.rank
    }
}

/// Reads cards (`"AD TD KD"`; `10` and ♠♥♦♣ too). Errors name `cards`: outside the 48-card
/// deck, three of one card (rules §1.0), or more than `hand`.
pub fn parse_cards(text: &str, hand: usize) -> Result<Vec<Card>, RuleError> {
    let mut cards = Vec::new();
    let mut held = [0u8; 24];
    for token in text.split([' ', ',', '\n', '\t']).filter(|t| !t.is_empty()) {
        let card = parse_one(token)?;
        held[card.index()] += 1;
        if held[card.index()] > 2 {
            return Err(RuleError::new(
                "cards",
                format!(
                    "{} is there three times; the deck has two of each card",
                    words(card)
                ),
            )
            .rule("rules §1.0"));
        }
        cards.push(card);
    }
    if cards.len() > hand {
        return Err(RuleError::new(
            "cards",
            format!(
                "{} cards are more than a hand holds here ({hand})",
                cards.len()
            ),
        )
        .rule("rules §1.0"));
    }
    Ok(cards)
}

fn parse_one(token: &str) -> Result<Card, RuleError> {
    let upper = token.to_uppercase();
    let mut chars: Vec<char> = upper.chars().collect();
    let refuse = || {
        RuleError::new(
            "cards",
            format!("\"{token}\" is not a pinochle card: write rank then suit, like \"KS\" or \"TD\" (ranks A, T, K, Q, J, 9)"),
        )
        .rule("rules §1.0")
    };
    let suit = match chars.pop().ok_or_else(refuse)? {
        'S' | '♠' => 0,
        'H' | '♥' => 1,
        'D' | '♦' => 2,
        'C' | '♣' => 3,
        _ => return Err(refuse()),
    };
    let rank = match chars.iter().collect::<String>().as_str() {
        "A" => ACE,
        "T" | "10" => TEN,
        "K" => KING,
        "Q" => QUEEN,
        "J" => JACK,
        "9" => NINE,
        _ => return Err(refuse()),
    };
    Ok(Card { rank, suit })
}

fn words(card: Card) -> String {
    format!("{}{}", RANKS[card.rank], Suit::ALL[card.suit].symbol())
}

/// The cards melds `n` need with `trump` and `m` plain marriages per suit, and who asks.
struct Demand {
    need: [u32; 24],
    by: [Vec<Kind>; 24],
}

fn demand(rules: &MeldRules, n: &[u32; 11], trump: usize, m: [u32; 4]) -> Demand {
    let mut classes = [[0u32; 3]; 24];
    let mut by: [Vec<Kind>; 24] = std::array::from_fn(|_| Vec::new());
    let mut add = |suit: usize, rank: usize, class: usize, k: u32, kind: Kind| {
        if k > 0 {
            classes[suit * 6 + rank][class] += k;
            by[suit * 6 + rank].push(kind);
        }
    };
    let get = |k: Kind| n[k as usize];
    let (runs, round) = (get(Kind::Flush), get(Kind::Roundhouse));
    let royals = get(Kind::RoyalMarriage);
    // A royal marriage grown into a run holds no K-Q of its own (Two-handed only); nor does
    // a roundhouse's K-Q of trump, which is a royal marriage too.
    let grown = if rules.royal_in_run { runs } else { 0 };
    let royal_extra = royals.saturating_sub(grown);
    let round_in_trump = round.saturating_sub(grown.saturating_sub(royals));
    for rank in [ACE, TEN, KING, QUEEN, JACK] {
        add(trump, rank, 0, runs, Kind::Flush);
    }
    for rank in [KING, QUEEN] {
        add(trump, rank, 0, royal_extra, Kind::RoyalMarriage);
        for (suit, marriages) in m.into_iter().enumerate() {
            let round = if suit == trump { round_in_trump } else { round };
            add(suit, rank, 0, round, Kind::Roundhouse);
            if suit != trump {
                add(suit, rank, 0, marriages, Kind::Marriage);
            }
        }
    }
    add(trump, NINE, 0, get(Kind::Dix), Kind::Dix);
    for (rank, kind) in [
        (ACE, Kind::Aces),
        (KING, Kind::Kings),
        (QUEEN, Kind::Queens),
        (JACK, Kind::Jacks),
    ] {
        for suit in 0..4 {
            add(suit, rank, 1, get(kind), kind);
            if matches!(kind, Kind::Kings | Kind::Queens) {
                add(suit, rank, 1, round, Kind::Roundhouse);
            }
        }
    }
    let pinochles = get(Kind::Pinochle) + 2 * get(Kind::DoublePinochle);
    add(SPADES, QUEEN, 2, pinochles, Kind::Pinochle);
    add(DIAMONDS, JACK, 2, pinochles, Kind::Pinochle);
    Demand {
        need: classes.map(|c| c.into_iter().max().unwrap_or(0)),
        by,
    }
}

/// Every way to share `marriages` plain marriages among the three plain suits of `trump`.
fn shares(marriages: u32, trump: usize) -> Vec<[u32; 4]> {
    let plain: Vec<usize> = (0..4).filter(|s| *s != trump).collect();
    let mut out = Vec::new();
    for a in 0..=marriages {
        for b in 0..=marriages - a {
            let mut m = [0; 4];
            m[plain[0]] = a;
            m[plain[1]] = b;
            m[plain[2]] = marriages - a - b;
            out.push(m);
        }
    }
    out
}

/// Every demand melds `n` can make: per trump and per sharing of the plain marriages.
fn demands(rules: &MeldRules, n: &[u32; 11], trump: Option<Suit>) -> Vec<(usize, Demand)> {
    let trumps: Vec<usize> = match trump {
        Some(t) => vec![suit_index(t)],
        None => (0..4).collect(),
    };
    trumps
        .into_iter()
        .flat_map(|t| {
            shares(n[Kind::Marriage as usize], t)
                .into_iter()
                .map(move |m| (t, demand(rules, n, t, m)))
        })
        .collect()
}

fn suit_index(suit: Suit) -> usize {
    Suit::ALL.iter().position(|s| *s == suit).unwrap_or(0)
}

/// Refuses melds `n` that one deck or one hand of the game cannot hold (see [`count`]).
pub(super) fn fits(rules: &MeldRules, n: &[u32; 11], trump: Option<Suit>) -> Result<(), RuleError> {
    let pinochles = n[Kind::Pinochle as usize] + 2 * n[Kind::DoublePinochle as usize];
    if pinochles > 2 {
        return Err(RuleError::new(
            "melds",
            format!("{pinochles} pinochles need {pinochles} queens of spades and {pinochles} jacks of diamonds; the deck has two of each"),
        )
        .rule("rules §1.0"));
    }
    let all = demands(rules, n, trump);
    let fitting = all.iter().filter(|(_, d)| d.need.iter().all(|k| *k <= 2));
    let Some(least) = fitting.map(|(_, d)| d.need.iter().sum::<u32>()).min() else {
        let (t, worst) = all
            .iter()
            .min_by_key(|(_, d)| d.need.iter().map(|k| k.saturating_sub(2)).sum::<u32>())
            .ok_or_else(|| RuleError::new("melds", "no trump fits"))?;
        return Err(short(
            rules,
            *t,
            worst,
            &[2; 24],
            trump.is_some(),
            "the deck has two of each card",
        ));
    };
    if least as usize > rules.hand {
        return Err(RuleError::new(
            "melds",
            format!(
                "these melds need at least {least} cards; a hand holds {} here",
                rules.hand
            ),
        )
        .rule(rules.rule));
    }
    Ok(())
}

/// The refusal for the first card `d` needs more of than `have`: which melds ask for it.
fn short(
    rules: &MeldRules,
    trump: usize,
    d: &Demand,
    have: &[u32; 24],
    known: bool,
    why: &str,
) -> RuleError {
    let Some(i) = (0..24).find(|i| d.need[*i] > have[*i]) else {
        return RuleError::new("melds", why.to_string());
    };
    let card = Card {
        rank: i % 6,
        suit: i / 6,
    };
    let name = if card.suit == trump && !known {
        format!("{} of trump", RANKS[card.rank])
    } else if card.suit == trump {
        format!("{} (trump)", words(card))
    } else {
        words(card)
    };
    let mut kinds = d.by[i].clone();
    kinds.sort();
    kinds.dedup();
    let melds: Vec<&str> = kinds.iter().map(|k| k.words()).collect();
    let mut message = format!("{} need {} × {name}; {why}", melds.join(" and "), d.need[i]);
    let both = d.by[i].contains(&Kind::Flush) && d.by[i].contains(&Kind::RoyalMarriage);
    if both && !rules.royal_in_run {
        message.push_str(" (a run's king and queen are not also a royal marriage: Scarne counts a double flush 300)");
    }
    RuleError::new("melds", message).rule(rules.rule)
}

/// The melds `cards` show with `trump`, scored by [`count`].
pub fn from_cards(rules: &MeldRules, cards: &[Card], trump: Suit) -> Result<Counted, RuleError> {
    let mut held = [0u32; 24];
    for c in cards {
        held[c.index()] += 1;
    }
    let t = suit_index(trump);
    let at = |suit: usize, rank: usize| held[suit * 6 + rank];
    let runs = [ACE, TEN, KING, QUEEN, JACK]
        .map(|r| at(t, r))
        .into_iter()
        .min()
        .unwrap_or(0);
    let pairs = |s: usize| at(s, KING).min(at(s, QUEEN));
    let royals = if rules.royal_in_run {
        pairs(t)
    } else {
        pairs(t) - runs
    };
    let marriages: u32 = (0..4).filter(|s| *s != t).map(pairs).sum();
    let around = |r: usize| (0..4).map(|s| at(s, r)).min().unwrap_or(0);
    // A roundhouse is a K-Q marriage in every suit, the trump one a royal marriage.
    let round = if rules.roundhouse {
        (0..4)
            .map(|s| if s == t { royals } else { pairs(s) })
            .min()
            .unwrap_or(0)
    } else {
        0
    };
    let mut tapped = vec![
        (Kind::Flush, runs),
        (Kind::RoyalMarriage, royals - round),
        (Kind::Marriage, marriages - 3 * round),
        (Kind::Aces, around(ACE)),
        (Kind::Kings, around(KING) - round),
        (Kind::Queens, around(QUEEN) - round),
        (Kind::Jacks, around(JACK)),
        (Kind::Roundhouse, round),
        (Kind::Pinochle, at(SPADES, QUEEN).min(at(DIAMONDS, JACK))),
    ];
    if rules.dix {
        tapped.push((Kind::Dix, at(t, NINE)));
    }
    count(rules, &tapped, Some(trump))
}

/// [`count`], checking `cards` hold the melds ("run need 2 × Q♦ (trump); the cards show 1").
pub fn with_cards(
    rules: &MeldRules,
    tapped: &Tapped,
    cards: &[Card],
    trump: Suit,
) -> Result<Counted, RuleError> {
    let counted = count(rules, tapped, Some(trump))?;
    let mut have = [0u32; 24];
    for c in cards {
        have[c.index()] += 1;
    }
    let n = super::totals(rules, tapped)?;
    let all = demands(rules, &n, Some(trump));
    if all
        .iter()
        .any(|(_, d)| (0..24).all(|i| d.need[i] <= have[i]))
    {
        return Ok(counted);
    }
    let (t, worst) = all
        .iter()
        .min_by_key(|(_, d)| {
            (0..24)
                .map(|i| d.need[i].saturating_sub(have[i]))
                .sum::<u32>()
        })
        .ok_or_else(|| RuleError::new("melds", "no trump fits"))?;
    let missing = (0..24)
        .find(|i| worst.need[*i] > have[*i])
        .map_or(0, |i| have[i]);
    Err(short(
        rules,
        *t,
        worst,
        &have,
        true,
        &format!("the cards show {missing}"),
    ))
}
