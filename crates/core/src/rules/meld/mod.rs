//! The meld calculator: melds tapped (a meld and how many) or as cards, scored by one
//! game's table, each named, the impossible refused with the reason. Pure; serves
//! `POST /api/v1/meld`, the hand forms and `meld_detail` ([`detail`]).
//!
//! Values are rules §1.0's classes A, B and C (S004, S002, PENGUIN); each game's
//! differences are in [`MeldRules`]: double pinochle 80 in Scarne's games (S000; rules §3
//! item 30) but 300 in S002 and S004, and rules §1.5's partnership extras. Without an
//! extra, a meld held twice scores twice.

mod cards;
pub mod detail;
#[cfg(test)]
mod tests;

pub use cards::{Card, from_cards, parse_cards, with_cards};

use serde::Serialize;

use super::{RuleError, Suit};

/// A meld, by its id in documents and the API (check melds share `meld_checks` ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Class A: run (flush, sequence) A-10-K-Q-J of trump, 150.
    Flush,
    /// Class A: K-Q of trump, 40.
    RoyalMarriage,
    /// Class A: K-Q of a plain suit, 20.
    Marriage,
    /// Class A: the 9 of trump, 10.
    Dix,
    /// Class B: an ace of each suit, 100.
    Aces,
    /// Class B: a king of each suit, 80.
    Kings,
    /// Class B: a queen of each suit, 60.
    Queens,
    /// Class B: a jack of each suit, 40.
    Jacks,
    /// Class C: Q♠ + J♦, 40.
    Pinochle,
    /// Class C: both Q♠ and both J♦ (80 or 300 by game).
    DoublePinochle,
    /// Four kings and four queens of different suits (S003), 240: its parts (rules §1.0 [R]).
    Roundhouse,
}

impl Kind {
    /// Every meld in the order the calculator offers them.
    pub const ALL: [Kind; 11] = [
        Kind::Flush,
        Kind::RoyalMarriage,
        Kind::Marriage,
        Kind::Dix,
        Kind::Aces,
        Kind::Kings,
        Kind::Queens,
        Kind::Jacks,
        Kind::Pinochle,
        Kind::DoublePinochle,
        Kind::Roundhouse,
    ];

    /// The id in documents and the API (`"flush"`, `"aces_100"`).
    pub fn id(self) -> &'static str {
        match self {
            Kind::Flush => "flush",
            Kind::RoyalMarriage => "royal_marriage",
            Kind::Marriage => "marriage",
            Kind::Dix => "dix",
            Kind::Aces => "aces_100",
            Kind::Kings => "kings_80",
            Kind::Queens => "queens_60",
            Kind::Jacks => "jacks_40",
            Kind::Pinochle => "pinochle",
            Kind::DoublePinochle => "double_pinochle",
            Kind::Roundhouse => "roundhouse",
        }
    }

    /// The meld of id `id`, if there is one.
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// Its name as a player says it ("run", "100 aces").
    pub fn words(self) -> &'static str {
        match self {
            Kind::Flush => "run",
            Kind::RoyalMarriage => "royal marriage",
            Kind::Marriage => "marriage",
            Kind::Dix => "dix",
            Kind::Aces => "100 aces",
            Kind::Kings => "80 kings",
            Kind::Queens => "60 queens",
            Kind::Jacks => "40 jacks",
            Kind::Pinochle => "pinochle",
            Kind::DoublePinochle => "double pinochle",
            Kind::Roundhouse => "roundhouse",
        }
    }

    /// Its value shown once, in points (rules §1.0); a double pinochle's is the game's.
    fn single(self, rules: &MeldRules) -> i64 {
        match self {
            Kind::Flush => 150,
            Kind::RoyalMarriage | Kind::Pinochle | Kind::Jacks => 40,
            Kind::Marriage => 20,
            Kind::Dix => 10,
            Kind::Aces => 100,
            Kind::Kings => 80,
            Kind::Queens => 60,
            Kind::DoublePinochle => rules.double_pinochle,
            Kind::Roundhouse => 240,
        }
    }
}

/// One pinochle game's meld table, registered in [`GameInfo::meld`](super::GameInfo::meld).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeldRules {
    /// The game's id, as in [`GameInfo::id`](super::GameInfo::id).
    pub game: &'static str,
    /// A double pinochle, in points: 80 in Scarne's games, 300 in S002 and S004.
    pub double_pinochle: i64,
    /// Whether rules §1.5's partnership extras replace a meld held twice.
    pub extras: bool,
    /// The most cards one meld field is made of (12, 15 or 24 by game).
    pub hand: usize,
    /// Whether melds counted from cards name a roundhouse as one meld rather than its parts
    /// (the same 240 points): where it earns its own checks (Check Pinochle, rules §3 item
    /// 21).
    pub roundhouse: bool,
    /// Whether a run also counts its royal marriage: only in Two-handed, where a marriage
    /// melded first may grow into the run (S004 rule 3). Elsewhere all meld at once: Scarne
    /// counts a double flush "300 in trump" (S000), not 380.
    pub royal_in_run: bool,
    /// Whether the dix counts here (Partnership Pinochle enters it as `dix_holders`).
    pub dix: bool,
    /// Which meld fields the game's hand records, whose melds `meld_detail` names.
    pub fields: MeldFields,
    /// The rules the values follow, as cited.
    pub rule: &'static str,
}

/// Where a game's `hand` event records meld, for its `meld_detail` (session format).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeldFields {
    /// One `meld`, the bidder's own.
    Bidder,
    /// `NS.meld` and `EW.meld`: both partners' melds add up to the side's.
    Sides,
    /// `melds.<player>`: each player's own.
    Players,
    /// None: the hand records no meld, so it takes no `meld_detail`.
    Unrecorded,
}

impl MeldRules {
    /// The meld table game `id` registers; `None` without meld or for an unknown id.
    pub fn of(id: &str) -> Option<&'static MeldRules> {
        super::game(id).and_then(|g| g.meld)
    }
}

/// The meld table of every game that has one, in [`super::GAMES`] order.
pub fn games() -> impl Iterator<Item = &'static MeldRules> {
    super::GAMES.iter().filter_map(|g| g.meld)
}

/// How many of each meld a player shows: `(meld, count)`, repeated melds adding up.
pub type Tapped = [(Kind, u32)];

/// One scored meld: what it is called and its points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    /// The meld's id (`"flush"`; two pinochles are `"double_pinochle"`).
    pub meld: &'static str,
    /// How many were shown (2 for "double run" and "eight aces").
    pub count: u32,
    /// Its name with the game's value ("double run", "2 × 100 aces").
    pub name: String,
    /// Its points.
    pub points: i64,
}

/// The melds scored: each named, and their sum in points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Counted {
    /// One line per meld, in the calculator's order.
    pub lines: Vec<Line>,
    /// The sum of the lines, in points.
    pub total: i64,
}

impl Counted {
    /// The melds in words for a sheet row: "run 150 + 100 aces 100 = 250".
    pub fn words(&self) -> String {
        let parts: Vec<String> = self
            .lines
            .iter()
            .map(|l| format!("{} {}", l.name, l.points))
            .collect();
        match parts.len() {
            0 => "no meld".to_string(),
            1 => parts.join(""),
            _ => format!("{} = {}", parts.join(" + "), self.total),
        }
    }
}

/// The counts per meld of `tapped` (two pinochles are a double). Errors name `melds`.
fn totals(rules: &MeldRules, tapped: &Tapped) -> Result<[u32; 11], RuleError> {
    let mut n = [0u32; 11];
    for &(kind, count) in tapped {
        let slot = &mut n[kind as usize];
        *slot = slot
            .checked_add(count)
            .filter(|c| *c <= 12)
            .ok_or_else(|| {
                RuleError::new(
                    "melds",
                    format!("{count} × {} is more than a deck holds", kind.words()),
                )
                .rule("rules §1.0")
            })?;
    }
    if !rules.dix && n[Kind::Dix as usize] > 0 {
        return Err(RuleError::new(
            "melds",
            "the dix is not meld here: enter each dix held under dix holders",
        )
        .rule("rules §1.5"));
    }
    let pinochles = n[Kind::Pinochle as usize] + 2 * n[Kind::DoublePinochle as usize];
    n[Kind::Pinochle as usize] = pinochles % 2;
    n[Kind::DoublePinochle as usize] = pinochles / 2;
    Ok(n)
}

/// Scores `tapped` by the game's `rules`, each meld named, or refuses (field `melds`)
/// melds one deck and hand cannot hold: three pinochles, three runs, more cards than the
/// hand. With `trump` unknown, refused only if no trump allows them. Rules §1.0 and
/// [`MeldRules::rule`].
pub fn count(
    rules: &MeldRules,
    tapped: &Tapped,
    trump: Option<Suit>,
) -> Result<Counted, RuleError> {
    let n = totals(rules, tapped)?;
    cards::fits(rules, &n, trump)?;
    let mut lines = Vec::new();
    for kind in Kind::ALL {
        let count = n[kind as usize];
        if count > 0 {
            lines.push(line(rules, kind, count));
        }
    }
    let total = lines.iter().map(|l| l.points).sum();
    Ok(Counted { lines, total })
}

/// One meld shown `count` times: rules §1.5's extras where the game has them, else × count.
fn line(rules: &MeldRules, kind: Kind, count: u32) -> Line {
    let extra = match (rules.extras, count, kind) {
        (true, 2, Kind::Flush) => Some(("double run", 1500)),
        (true, 2, Kind::Aces) => Some(("eight aces", 1000)),
        (true, 2, Kind::Kings) => Some(("eight kings", 800)),
        (true, 2, Kind::Queens) => Some(("eight queens", 600)),
        (true, 2, Kind::Jacks) => Some(("eight jacks", 400)),
        _ => None,
    };
    let (name, points) = match extra {
        Some((name, points)) => (name.to_string(), points),
        None if count == 1 => (kind.words().to_string(), kind.single(rules)),
        None => (
            format!("{count} × {}", kind.words()),
            i64::from(count) * kind.single(rules),
        ),
    };
    Line {
        meld: kind.id(),
        count,
        name,
        points,
    }
}
