//! How one poker hand's pots are awarded (rules §1.11): each pot to the best eligible hand,
//! a high-low pot half to the best high (with the odd chip) and half to the best low, odd
//! chips by `odd_chip` ([`super::pots`]).

use super::hand::{Hand, SplitKind};
use super::{POT, Poker, pots};
use crate::ledger::Postings;
use crate::rules::{Detail, Mark, RuleError, Step, Tone};

/// What a hand's pots come to: each seat's winnings and the odd chips carried (units), and
/// what the sheet shows.
pub(super) struct Awarded {
    /// Each seat's winnings, in units.
    pub won: Vec<i64>,
    /// The odd chips left in `POT` for the next hand, in units.
    pub carried: i64,
    /// Who took each pot or half, for the sheet's row.
    pub marks: Vec<Mark>,
    /// The shares of each split pot.
    pub steps: Vec<Step>,
    /// One sentence a pot.
    pub sentences: Vec<String>,
}

impl Awarded {
    /// Nothing awarded yet among `seats`; with no pot at all the carried chips stay carried.
    pub fn new(seats: usize, no_pot: bool, carried_in: i64) -> Awarded {
        Awarded {
            won: vec![0; seats],
            carried: if no_pot { carried_in } else { 0 },
            marks: Vec::new(),
            steps: Vec::new(),
            sentences: Vec::new(),
        }
    }
}

impl Poker {
    /// The pots of `hand`, the carried odd chips in the main pot. Errors name `folded` when
    /// money above some level has nobody left to win it.
    pub(super) fn pots_of(&self, hand: &Hand) -> Result<Vec<pots::Pot>, RuleError> {
        let mut pots = pots::build(&hand.contributions, &hand.folded, &hand.all_in).map_err(
            |level| {
                RuleError::new(
                    "folded",
                    format!(
                        "the money above {} has nobody left in the hand to win it: someone who put that much in must still be in it",
                        self.money(level)
                    ),
                )
            },
        )?;
        let carried_in = self.carried;
        if pots.is_empty() && carried_in > 0 {
            // Nobody put anything in, but carried odd chips still make a pot the players
            // still in contest (session-format: "into the next hand's pot").
            pots.push(pots::Pot {
                amount: 0,
                level: 0,
                eligible: (0..self.players.len())
                    .filter(|s| hand.folded.get(*s) == Some(&false))
                    .collect(),
            });
        }
        if let Some(main) = pots.first_mut() {
            main.amount = main.amount.saturating_add(carried_in);
        }
        Ok(pots)
    }

    /// Awards pot `i` of `hand`, whole or in halves, into `awarded`.
    pub(super) fn award_pot(&self, hand: &Hand, i: usize, pot: &pots::Pot, awarded: &mut Awarded) {
        let label = if i == 0 {
            "main pot".to_string()
        } else {
            format!("side pot {i}")
        };
        // 8-or-better: no qualifying low, the high hand takes the pot (session-format).
        let low_in = hand
            .showdown
            .low
            .iter()
            .flatten()
            .any(|s| pot.eligible.contains(s));
        let no_low = hand.split == SplitKind::HighLow && pot.eligible.len() > 1 && !low_in;
        let halves: Vec<(Option<&str>, i64)> =
            if hand.split == SplitKind::HighLow && pot.eligible.len() > 1 && low_in {
                // High-low: the high half takes the odd chip (rules §1.11 step 4).
                let (high, low) = pots::halves(pot.amount);
                vec![(Some("high"), high), (Some("low"), low)]
            } else {
                vec![(None, pot.amount)]
            };
        // Who has had an odd chip from this pot: one each, both halves counted (RRP).
        let mut odd_in_pot: Vec<usize> = Vec::new();
        let mut pot_words = Vec::new();
        for (half, amount) in halves {
            let (text, winners) =
                self.award_half(hand, pot, half, amount, &mut odd_in_pot, awarded);
            pot_words.push(text);
            // Short marks for the row ("main pot high: Cy"); reasons are in the words.
            let taker = format!(
                "{label}{}: {}",
                half.map_or(String::new(), |h| format!(" {h}")),
                self.names(&winners)
            );
            awarded.marks.push(Mark::new(taker, Tone::Plain));
        }
        let eligible = self.names(&pot.eligible);
        let head = format!(
            "{label}, {}: {eligible} eligible{}",
            self.money(pot.amount),
            if no_low {
                "; no low is 8 or better, so the high hand takes it all"
            } else {
                ""
            }
        );
        let mut sentence = format!("{head}; {}", pot_words.join("; "));
        if let Some(first) = sentence.get(..1) {
            sentence = format!(
                "{}{}",
                first.to_uppercase(),
                sentence.get(1..).unwrap_or("")
            );
        }
        awarded.sentences.push(sentence);
    }

    /// Awards `amount` units of `pot` to its best eligible group; returns words and winners.
    fn award_half(
        &self,
        hand: &Hand,
        pot: &pots::Pot,
        half: Option<&str>,
        amount: i64,
        odd_in_pot: &mut Vec<usize>,
        awarded: &mut Awarded,
    ) -> (String, Vec<usize>) {
        let is_low = half == Some("low");
        let groups = if is_low {
            &hand.showdown.low
        } else {
            &hand.showdown.high
        };
        let (winners, why) = self.why(hand, groups, &pot.eligible, is_low);
        let division_chip = half.is_some() && pot.amount % 2 != 0;
        let (split, limited) =
            self.split_half(hand, &winners, amount, is_low, division_chip, odd_in_pot);
        for (seat, share) in &split.shares {
            if let Some(w) = awarded.won.get_mut(*seat) {
                *w = w.saturating_add(*share);
            }
        }
        awarded.carried = awarded.carried.saturating_add(split.carried);
        let half_words = half.map_or(String::new(), |h| {
            format!(" ({h} half {})", self.money(amount))
        });
        let shares = self.shares_words(&split, is_low, limited);
        let text = format!("{why} → {}{half_words}{shares}", self.names(&winners));
        // A split pot shows each share and who got the odd chip.
        if split.shares.len() > 1 {
            awarded.steps.push(self.shares_step(amount, &split));
        }
        (text, winners)
    }

    /// The money of `hand`: winnings less contributions, and what `POT` carries.
    pub(super) fn postings(&self, hand: &Hand, awarded: &Awarded, carried_in: i64) -> Postings {
        let mut postings = Postings::new();
        for seat in 0..self.players.len() {
            let net = awarded
                .won
                .get(seat)
                .copied()
                .unwrap_or(0)
                .saturating_sub(hand.contributions.get(seat).copied().unwrap_or(0));
            postings.credit(self.name(seat), self.money(net));
        }
        postings.credit(POT, self.money(awarded.carried.saturating_sub(carried_in)));
        postings
    }

    /// The row's details: who folded, and who went all-in for how much.
    pub(super) fn details(&self, hand: &Hand) -> Vec<Detail> {
        let mut details = Vec::new();
        for seat in 0..self.players.len() {
            let account = self.name(seat).to_string();
            if hand.folded.get(seat) == Some(&true) {
                details.push(Detail {
                    account,
                    text: "folded".into(),
                    tone: Tone::Plain,
                });
            } else if hand.all_in.get(seat) == Some(&true) {
                details.push(Detail {
                    account,
                    text: format!(
                        "all-in {}",
                        self.money(hand.contributions.get(seat).copied().unwrap_or(0))
                    ),
                    tone: Tone::Plain,
                });
            }
        }
        details
    }
}
