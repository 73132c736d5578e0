//! Poker (rules §1.11, S004; pot splitting per RRP, PNEWS, BARGE, OCC; agreements §3 items
//! 32–33). 2–10 players; every hand settles on its own.
//!
//! A `hand` gives contributions, folds, all-ins and the showdown. The engine builds the
//! main and side pots ([`pots::build`]), gives each to the best eligible tie group (high-low:
//! half high with the odd chip, half low), splits ties in whole `smallest_unit`s
//! ([`pots::split`]). With `odd_chip: "carry"` odd chips wait in `POT` for the next hand;
//! the close shares out what remains (session-format).

pub mod agreements;
mod award;
pub mod betting;
pub mod board;
pub mod cards;
pub mod deck;
pub mod form;
pub mod hand;
pub mod pots;
mod showdown;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod review_tests;

use serde_json::Value;

use self::agreements::{Agreements, OddChip, OddChipHighLow, OddChipLowCard};
use self::hand::{Hand, SplitKind, WrittenHand};
use crate::ledger::Postings;
use crate::money::Money;
use crate::rules::fields;
use crate::rules::game::HandFormSpec;
use crate::rules::typed::{self, Game};
use crate::rules::{
    Column, Ctx, GameInfo, Layout, Outcome, RuleError, SheetLine, Step, Table, Tally,
};

pub use crate::ledger::POT;

/// The registration of `poker`: 2 to 10 players (session-format).
pub static GAME: GameInfo = GameInfo::typed::<Poker, form::Form>(
    ("poker", "Poker", "rules §1.11"),
    (2, 10),
    form::AGREEMENTS,
)
.with_variant_name(board::session_name);

typed::events! {
    /// What happens at a poker session besides a payment and the close: a hand.
    pub enum Event {
        /// One hand: what each player put in, the folds and the showdown (rules §1.11).
        "hand" => Hand(hand::WrittenHand),
    }
}

/// The engine of one poker session: agreements, seating, and odd chips carried in `POT` (units).
#[derive(Debug, Clone, PartialEq)]
pub struct Poker {
    agreements: Agreements,
    players: Vec<String>,
    carried: i64,
}

impl Poker {
    /// Starts a session. Errors name `players` (not 2–10, or `POT`) or `opening_scores`.
    pub fn start(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<Poker, RuleError> {
        if !(2..=10).contains(&players.len()) {
            return Err(RuleError::new(
                "players",
                format!(
                    "poker is for 2 to 10 players, and {} are listed",
                    players.len()
                ),
            )
            .rule("session-format"));
        }
        if players.iter().any(|p| p == POT) {
            return Err(RuleError::new(
                "players",
                format!("{POT} is the pot's account for carried odd chips, not a player's name"),
            ));
        }
        fields::no_opening_scores(
            opening_scores,
            "poker keeps no score to carry in: every hand settles its own pot",
            Some("rules §1.11"),
        )?;
        Ok(Poker {
            agreements,
            players: players.to_vec(),
            carried: 0,
        })
    }

    fn name(&self, seat: usize) -> &str {
        self.players.get(seat).map_or("", String::as_str)
    }

    fn money(&self, units: i64) -> Money {
        Money::from_cents(units.saturating_mul(self.agreements.unit.cents()))
    }

    /// The reckoning of `units` split: total, each share and the odd chips (rules §1.11, S004).
    fn shares_step(&self, units: i64, split: &pots::Split) -> Step {
        Step::Shares {
            total: self.money(units),
            shares: split
                .shares
                .iter()
                .map(|(s, u)| (self.name(*s).to_string(), self.money(*u)))
                .collect(),
            odd_cents: split
                .odd
                .iter()
                .map(|s| self.name(*s).to_string())
                .collect(),
        }
    }

    fn names(&self, seats: &[usize]) -> String {
        let names: Vec<&str> = seats.iter().map(|s| self.name(*s)).collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => (*one).to_string(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        }
    }

    /// `winners` in odd-chip order (rules §1.11 step 4): clockwise from the dealer's left,
    /// or by highest card by suit with `high_card_by_suit` (in a low half the lowest, RRP,
    /// unless `odd_chip_low_card: highest`).
    fn odd_chip_order(&self, hand: &Hand, winners: &[usize], low: bool) -> Vec<usize> {
        let n = self.players.len();
        let from_left = |s: &usize| (s + n - hand.dealer - 1) % n;
        let mut order = winners.to_vec();
        order.sort_by_key(from_left);
        if self.agreements.odd_chip == OddChip::HighCardBySuit {
            let by_lowest = low && self.agreements.odd_chip_low_card == OddChipLowCard::Lowest;
            let cards = if by_lowest {
                &hand.showdown.low_card
            } else {
                &hand.showdown.high_card
            };
            let card = |s: &usize| cards.get(*s).copied().flatten();
            // A hand of jokers alone has no card by suit and comes last either way.
            if by_lowest {
                order.sort_by_key(|s| (card(s).is_none(), card(s)));
            } else {
                order.sort_by_key(|s| std::cmp::Reverse(card(s)));
            }
        }
        order
    }

    /// Splits `amount` units among `winners`, odd chips in [`Self::odd_chip_order`] but
    /// first to those without one from this pot (RRP), unless `odd_chip_high_low:
    /// per_half`. `odd_in_pot` gathers who had one, including a lone high hand that took
    /// the division's chip (`division_chip`). Returns the split and whether the limit
    /// changed who got the odd chips.
    fn split_half(
        &self,
        hand: &Hand,
        winners: &[usize],
        amount: i64,
        low: bool,
        division_chip: bool,
        odd_in_pot: &mut Vec<usize>,
    ) -> (pots::Split, bool) {
        let mut order = self.odd_chip_order(hand, winners, low);
        let limited = self.agreements.odd_chip_high_low == OddChipHighLow::OnePerPot
            && pots::without_second_odd_chip(&mut order, odd_in_pot);
        let split = pots::split(amount, &order, self.agreements.odd_chip == OddChip::Carry);
        odd_in_pot.extend(&split.odd);
        if let ([lone], false, true) = (winners, low, division_chip) {
            odd_in_pot.push(*lone);
        }
        (split, limited)
    }

    /// A split's shares in words (": Ann 0.25, Bob 0.25; the odd chip Ann (…)").
    fn shares_words(&self, split: &pots::Split, low: bool, limited: bool) -> String {
        if split.shares.len() <= 1 {
            return String::new();
        }
        let each: Vec<String> = split
            .shares
            .iter()
            .map(|(s, u)| format!("{} {}", self.name(*s), self.money(*u)))
            .collect();
        let odd = if !split.odd.is_empty() {
            format!(
                "; the odd chip{} {} ({}{})",
                if split.odd.len() > 1 { "s" } else { "" },
                self.names(&split.odd),
                self.odd_chip_words(low),
                if limited {
                    "; one odd chip per player per pot, both halves counted"
                } else {
                    ""
                }
            )
        } else if split.carried > 0 {
            format!(
                "; {} odd stays in the pot for the next hand (odd_chip carry)",
                self.money(split.carried)
            )
        } else {
            String::new()
        };
        format!(": {}{odd}", each.join(", "))
    }

    /// The odd-chip rule in words for one half (a low half's: lowest card, RRP, unless agreed).
    fn odd_chip_words(&self, low: bool) -> &'static str {
        let a = &self.agreements;
        if low
            && a.odd_chip == OddChip::HighCardBySuit
            && a.odd_chip_low_card == OddChipLowCard::Lowest
        {
            "to the tied winner with the lowest card (♣ < ♦ < ♥ < ♠)"
        } else {
            a.odd_chip.words()
        }
    }

    /// What the showdown says of `seat`'s hand in the high (or low) half, if it was shown.
    fn shown(hand: &Hand, seat: usize, low: bool) -> Option<String> {
        let words = if low {
            &hand.showdown.low_words
        } else {
            &hand.showdown.high_words
        };
        words.get(seat).cloned().flatten()
    }

    /// "Ann's flush beats Bob's straight" ("on the kickers" when the words are equal).
    fn beats(&self, hand: &Hand, low: bool, winners: &[usize], beaten: usize) -> String {
        let first = winners.first().copied().unwrap_or(0);
        let (theirs, lost) = (
            Self::shown(hand, first, low),
            Self::shown(hand, beaten, low),
        );
        let kickers = if theirs == lost {
            " on the kickers"
        } else {
            ""
        };
        let (theirs, lost) = (theirs.unwrap_or_default(), lost.unwrap_or_default());
        let beaten = self.name(beaten);
        if winners.len() > 1 {
            let names = self.names(winners);
            format!("{names} tie with {theirs} beating {beaten}'s {lost}{kickers}")
        } else {
            let name = self.name(first);
            format!("{name}'s {theirs} beats {beaten}'s {lost}{kickers}")
        }
    }

    /// Why the best eligible group takes a pot (or a half), in the table's words.
    fn why(
        &self,
        hand: &Hand,
        groups: &[Vec<usize>],
        eligible: &[usize],
        low: bool,
    ) -> (Vec<usize>, String) {
        let in_pot = |g: &Vec<usize>| -> Vec<usize> {
            g.iter().copied().filter(|s| eligible.contains(s)).collect()
        };
        let mut ranked = groups.iter().map(in_pot).filter(|g| !g.is_empty());
        let winners = ranked.next().unwrap_or_default();
        let runner_up = ranked.next();
        let first = winners.first().copied().unwrap_or(0);
        let (names, shown) = (self.names(&winners), Self::shown(hand, first, low));
        let text = match (&runner_up, hand.from_cards) {
            _ if eligible.len() == 1 => format!("{} alone is in it", self.name(first)),
            (Some(next), true) => {
                self.beats(hand, low, &winners, next.first().copied().unwrap_or(0))
            }
            (Some(next), false) => {
                let half = if low { "low showdown" } else { "showdown" };
                let (ahead, them) = (self.names(next), self.name(first));
                if winners.len() > 1 {
                    format!("{names} tie, ahead of {ahead} in the {half}")
                } else {
                    format!("{them} is ahead of {ahead} in the {half}")
                }
            }
            // Only under 8-or-better can one hand be alone in its half with others eligible.
            (None, _) if winners.len() == 1 => format!(
                "{} has the only low of 8 or better{}",
                self.name(first),
                shown.map_or(String::new(), |w| format!(", {w}"))
            ),
            (None, true) => format!("{names} tie with {}", shown.unwrap_or_default()),
            (None, false) => format!("{names} tie"),
        };
        (winners, text)
    }

    /// A played hand: pots built, each won, odd chips handed out; nothing changes on error.
    fn hand(&mut self, ctx: &mut Ctx<'_>, event: WrittenHand) -> Result<Outcome, RuleError> {
        let hand = hand::check(event, &self.players, &self.agreements)?;
        let pots = self.pots_of(&hand)?;
        let carried_in = self.carried;
        let mut awarded = award::Awarded::new(self.players.len(), pots.is_empty(), carried_in);
        for (i, pot) in pots.iter().enumerate() {
            self.award_pot(&hand, i, pot, &mut awarded);
        }
        let postings = self.postings(&hand, &awarded, carried_in);
        let total: i64 = hand
            .contributions
            .iter()
            .sum::<i64>()
            .saturating_add(carried_in);
        let dealer = self.name(hand.dealer).to_string();
        let carried_words = if carried_in > 0 {
            format!(
                ", {} of it carried in the pot from the last hand",
                self.money(carried_in)
            )
        } else {
            String::new()
        };
        let split_words = match hand.split {
            SplitKind::High => "",
            SplitKind::HighLow => " high-low",
        };
        let explanation = format!(
            "{dealer} dealt;{split_words} pot {}{carried_words}. {}",
            self.money(total),
            awarded.sentences.join(". ")
        );
        let title = format!("pot {}", self.money(total));
        let line = SheetLine {
            marks: awarded.marks,
            details: self.details(&hand),
            ..SheetLine::titled(if hand.split == SplitKind::HighLow {
                format!("high-low {title}")
            } else {
                title
            })
            .dealt_by(dealer.clone())
        };
        self.carried = awarded.carried;
        ctx.table.dealt(&dealer);
        Ok(Outcome::new(postings.into_vec(), explanation, line)
            .with_steps(awarded.steps)
            .citing("rules §1.11"))
    }
}

impl Game for Poker {
    type Agreements = Agreements;
    type Event = Event;
    const NAME: &'static str = "poker";
    const ENTER: &'static str = "a hand, a payment or the close";
    const RULE: Option<&'static str> = Some("rules §1.11");

    fn new(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<Poker, RuleError> {
        Poker::start(agreements, players, opening_scores)
    }

    /// `POT` holds carried odd chips; cash into or out of it is a `payment` (session-format).
    fn house_accounts(&self) -> Vec<&'static str> {
        vec![POT]
    }

    fn apply(&mut self, ctx: &mut Ctx<'_>, event: Event) -> Result<Outcome, RuleError> {
        match event {
            Event::Hand(hand) => self.hand(ctx, hand),
        }
    }

    /// Closing shares out `POT`'s chips: whole units, leftovers from the last dealer's left.
    fn close(&mut self, ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        if self.carried == 0 {
            return Ok(Outcome::new(
                Vec::new(),
                "The sitting is closed",
                SheetLine::titled("closed"),
            ));
        }
        let order: Vec<String> = ctx
            .table
            .leftover_order()
            .iter()
            .map(|s| s.to_string())
            .collect();
        let seats: Vec<usize> = order
            .iter()
            .filter_map(|p| self.players.iter().position(|q| q == p))
            .collect();
        let split = pots::split(self.carried, &seats, false);
        let mut postings = Postings::new();
        for (seat, u) in &split.shares {
            postings.transfer(POT, self.name(*seat), self.money(*u));
        }
        let words = format!(
            "The sitting is closed; the {} left in the pot is shared out: {} (one chip each from the dealer's left)",
            self.money(self.carried),
            split
                .shares
                .iter()
                .filter(|(_, u)| *u > 0)
                .map(|(s, u)| format!("{} {}", self.name(*s), self.money(*u)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let step = self.shares_step(self.carried, &split);
        self.carried = 0;
        Ok(Outcome::new(
            postings.into_vec(),
            words,
            SheetLine::titled("closed: the pot shared out"),
        )
        .with_steps(vec![step])
        .citing("session-format: the remainder rule"))
    }

    /// One money column per player in seat order, and `POT` when chips are carried.
    fn layout(&self, table: &Table) -> Layout {
        let mut columns = Column::per_player(table.everyone(), Tally::Money);
        if self.agreements.odd_chip == OddChip::Carry {
            columns.push(Column::single(POT, "Pot (odd chips)", Tally::Money));
        }
        Layout { columns }
    }

    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        form::summary(&self.agreements, currency)
    }

    /// Odd chips still carried would be shared out by the close.
    fn unfinished(&self) -> Option<String> {
        (self.carried > 0).then(|| {
            format!(
                "{} of odd chips is carried in the pot: closing now shares it out one chip each from the dealer's left.",
                self.money(self.carried)
            )
        })
    }

    fn hand_form(&self, _table: &Table) -> HandFormSpec {
        form::offer(&self.players, &self.agreements)
    }
}
