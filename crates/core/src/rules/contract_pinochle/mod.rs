//! Contract Pinochle (rules §1.8, S003): partnerships bid points and a suit, dealer first;
//! only one side scores a hand, the bid × 1, 2 or 4 (half when the contractors concede
//! before the lead); first to 3,000 wins. Each game is settled at once (session-format
//! "Money in the partnership games"); one unfinished at the close pays nothing.

pub mod agreements;
pub mod auction;
pub mod form;
pub mod hand;
pub mod meld;
pub mod to_make;

use serde_json::{Value, json};

use self::agreements::Agreements;
use self::hand::{Contract as Played, Deal, HandOutcome, Scored, WrittenHand};
use crate::ledger::Postings;
use crate::rules::game::HandFormSpec;
use crate::rules::partnership::{self, PerSide, Seating, Side};
use crate::rules::typed::{self, Game};
use crate::rules::{
    Award, Cell, Contract, Ctx, Detail, FinishedGame, GameEnd, GameInfo, Layout, Mark, Outcome,
    RuleError, SheetLine, Step, Table, Tally, Tone,
};

/// The registration of `contract_pinochle`: exactly four players (rules §1.8).
pub static GAME: GameInfo = GameInfo::typed::<ContractPinochle, form::Form>(
    ("contract_pinochle", "Contract Pinochle", "rules §1.8"),
    (partnership::PLAYERS, partnership::PLAYERS),
    form::AGREEMENTS,
)
.with_meld(&meld::MELD)
.with_to_make(to_make::to_make);

/// Every score is a sum of bids × 1, 2 or 4 and halves of them: a multiple of 5 (rules §1.8).
const SCORE_STEP: i64 = 5;

typed::events! {
    /// What happens in Contract Pinochle besides a payment and the close: a hand.
    pub enum Event {
        /// A deal, bid and played, conceded or thrown in (rules §1.8).
        "hand" => Hand(hand::WrittenHand),
    }
}

/// The engine of one Contract Pinochle session: the game in progress and how many finished.
#[derive(Debug, Clone, PartialEq)]
pub struct ContractPinochle {
    agreements: Agreements,
    seating: Seating,
    /// Points of the game in progress.
    scores: PerSide<i64>,
    /// Deals (played or thrown in) since the game in progress began.
    deals_this_game: usize,
    games: usize,
}

impl ContractPinochle {
    /// The agreements this session plays under.
    pub fn agreements(&self) -> &Agreements {
        &self.agreements
    }

    /// The 1-based number of the game in progress.
    fn game_number(&self) -> usize {
        self.games + 1
    }

    /// One `hand`; a refusal leaves the engine untouched.
    fn hand(&mut self, ctx: &mut Ctx<'_>, event: WrittenHand) -> Result<Outcome, RuleError> {
        let c = match hand::check(event, &self.seating, &self.agreements)? {
            Deal::AllPassed { dealer } => return Ok(self.all_passed(ctx, &dealer)),
            Deal::Played(c) => c,
        };
        let scored = hand::score(&c);
        let mut scores = self.scores;
        scores[scored.side] = scores[scored.side]
            .checked_add(scored.points)
            .ok_or_else(|| RuleError::new("bid", "the score is beyond what the sheet can hold"))?;
        let mut why = format!(
            "{} → NS {}, EW {}",
            describe(&c, &scored),
            scores.ns,
            scores.ew
        );
        let line = hand_line(&c, &scored, &scores);
        let mut steps = hand_steps(&c, &scored);
        let target = self.agreements.target;
        // Only the scoring side moves, and it was below the target: at most one side wins.
        if scores[scored.side] < target {
            ctx.table.dealt(&c.dealer);
            self.scores = scores;
            self.deals_this_game += 1;
            return Ok(Outcome {
                scores_after: Some(scores.to_json()),
                ..Outcome::new(Vec::new(), why, line).with_steps(steps)
            });
        }
        let winner = scored.side;
        let (postings, finished, end) = self.game_won(&scored, &scores, &mut steps, &mut why);
        ctx.table.dealt(&c.dealer);
        self.games += 1;
        self.scores = PerSide::default();
        self.deals_this_game = 0;
        let mut after = scores.to_json();
        after["game_over"] = json!({ "winner": winner.name(), "decided_by": "target" });
        Ok(Outcome {
            rules: vec!["rules §1.8".into()],
            postings: postings.into_vec(),
            scores_after: Some(after),
            explanation: why,
            steps,
            line,
            finished: Some((finished, end)),
        })
    }

    /// `scored.side` reaches the target (rules §1.8); call before the engine changes.
    fn game_won(
        &self,
        scored: &Scored,
        scores: &PerSide<i64>,
        steps: &mut Vec<Step>,
        why: &mut String,
    ) -> (Postings, FinishedGame, GameEnd) {
        let winner = scored.side;
        let game = self.game_number();
        let target = self.agreements.target;
        steps.push(Step::Score {
            who: winner.name().into(),
            sum: format!("{} + {}", self.scores[winner], scored.points),
            total: scores[winner],
            tally: Tally::Points,
        });
        let (postings, paid, paying) =
            partnership::pay_game(&self.seating, winner, self.agreements.stake);
        steps.extend(paying);
        why.push_str(&format!(
            ". {} reach {} (game {target}) and win game {game}: {paid}",
            winner.name(),
            scores[winner]
        ));
        let how = format!("reached {} (game {target})", scores[winner]);
        let (finished, end) = partnership::game_won(winner, "target", scores, how, None, paid);
        (postings, finished, end)
    }

    /// All four passed: no score; the dealer's left deals and bids next (rules §1.8).
    fn all_passed(&mut self, ctx: &mut Ctx<'_>, dealer: &str) -> Outcome {
        ctx.table.dealt(dealer);
        self.deals_this_game += 1;
        let next = ctx.table.next_dealer().unwrap_or(dealer).to_string();
        Outcome {
            scores_after: Some(self.scores.to_json()),
            rules: vec!["rules §1.8".into()],
            ..Outcome::new(
                Vec::new(),
                format!(
                    "All four passed on {dealer}'s deal: no score; {next} deals next and bids first"
                ),
                SheetLine::titled(format!("all passed: {next} deals and bids first"))
                    .dealt_by(dealer),
            )
        }
    }
}

/// The contract's result as the sheet writes it, with how it reads.
fn result_words(c: &Played) -> (String, Tone) {
    let tone = if c.result.contractors_score() {
        Tone::Good
    } else {
        Tone::Bad
    };
    (c.result.words().to_string(), tone)
}

/// The scoring side's award in the rule's terms: "250 × 2 doubled", "350 ÷ 2 conceded…".
fn award_words(c: &Played) -> String {
    let times = match c.doubled {
        hand::Doubled::No => format!("bid {}", c.bid),
        d => format!("bid {} × {} {}", c.bid, d.multiplier(), d.words()),
    };
    match c.result {
        HandOutcome::ConcededBeforeLead => format!("half of {times}, conceded before the lead"),
        HandOutcome::Made | HandOutcome::MadeOnMeld => format!("{times} made"),
        HandOutcome::OpponentsConceded => format!("{times}, opponents conceded"),
        HandOutcome::Failed => format!("{times} set"),
        HandOutcome::ConcededAfterLead => format!("{times}, conceded after the lead"),
    }
}

/// The hand's steps: the doubling's multiplier, if any, and the points (rules §1.8).
fn hand_steps(c: &Played, scored: &Scored) -> Vec<Step> {
    let mut steps = Vec::new();
    let d = c.doubled.multiplier();
    if d > 1 {
        steps.push(Step::Times {
            factor: d,
            why: format!("{} (rules §1.8)", c.doubled.words()),
        });
    }
    let sum = match c.result {
        HandOutcome::ConcededBeforeLead => {
            format!("bid {} × {d} ÷ 2, conceded before the lead", c.bid)
        }
        _ => format!("bid {} × {d}", c.bid),
    };
    steps.push(Step::Score {
        who: scored.side.name().into(),
        sum,
        total: scored.points,
        tally: Tally::Points,
    });
    steps
}

/// The sheet's line for a played hand: contract, result, doubling, award and points.
fn hand_line(c: &Played, scored: &Scored, scores: &PerSide<i64>) -> SheetLine {
    let (result, tone) = result_words(c);
    let mut marks = Vec::new();
    if c.doubled != hand::Doubled::No {
        marks.push(Mark::new(c.doubled.words(), Tone::Plain));
    }
    let mut details = Vec::new();
    if let Some(n) = c.auction_calls {
        details.push(Detail {
            account: c.side.name().into(),
            text: format!("auction of {n} calls checked"),
            tone: Tone::Plain,
        });
    }
    let cells = Side::BOTH
        .iter()
        .map(|&s| {
            let added = if s == scored.side { scored.points } else { 0 };
            Cell {
                bidder: s == c.side,
                ..Cell::added(s.name(), Tally::Points, added, scores[s])
            }
        })
        .collect();
    SheetLine {
        dealer: Some(c.dealer.clone()),
        contract: Some(Contract {
            who: c.bidder.clone(),
            side: Some(c.side.name().into()),
            bid: c.bid,
            trump: Some(c.trump),
            result,
            tone,
        }),
        title: None,
        marks,
        awards: vec![Award {
            to: scored.side.name().into(),
            tally: Tally::Points,
            amount: scored.points,
            what: award_words(c),
            short: String::new(),
        }],
        details,
        cells,
    }
}

/// The hand in words: "N bid 250 in hearts for NS, doubled, and made it: NS +500 (…)".
pub fn describe(c: &Played, scored: &Scored) -> String {
    let doubled = match c.doubled {
        hand::Doubled::No => String::new(),
        d => format!(", {},", d.words()),
    };
    let what = match c.result {
        HandOutcome::Made => "and made it".to_string(),
        HandOutcome::MadeOnMeld => "and made it on meld alone".to_string(),
        HandOutcome::Failed => "and failed".to_string(),
        HandOutcome::ConcededBeforeLead => "and conceded before the lead".to_string(),
        HandOutcome::ConcededAfterLead => "and conceded after the lead".to_string(),
        HandOutcome::OpponentsConceded => {
            format!("and {} conceded", c.side.other().name())
        }
    };
    let auction = match c.auction_calls {
        Some(n) => format!(" (auction of {n} calls checked)"),
        None => String::new(),
    };
    format!(
        "{} bid {} in {} for {}{doubled} {what}{auction}: {} +{} ({}); {} score nothing",
        c.bidder,
        c.bid,
        c.trump.name(),
        c.side.name(),
        scored.side.name(),
        scored.points,
        award_words(c),
        scored.side.other().name()
    )
}

impl Game for ContractPinochle {
    type Agreements = Agreements;
    type Event = Event;
    const NAME: &'static str = "Contract Pinochle";
    const ENTER: &'static str =
        "a hand, a payment or the close (partners stay seated for the whole game)";
    const RULE: Option<&'static str> = Some("rules §1.8");

    fn new(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<ContractPinochle, RuleError> {
        let (seating, opening) = partnership::open(players, opening_scores, |field, score| {
            if score < 0 {
                return Err(RuleError::new(
                    field,
                    format!(
                        "{score} is below zero, and no Contract Pinochle hand takes points away"
                    ),
                )
                .rule("rules §1.8"));
            }
            if score % SCORE_STEP != 0 {
                return Err(RuleError::new(
                    field,
                    format!(
                        "{score} is not a multiple of 5, and every score is (bids in tens, halved at most)"
                    ),
                )
                .rule("rules §1.8"));
            }
            if score >= agreements.target {
                return Err(RuleError::new(
                    field,
                    format!(
                        "{score} already reaches the game {}, so that game is over",
                        agreements.target
                    ),
                )
                .rule("rules §1.8"));
            }
            Ok(())
        })?;
        Ok(ContractPinochle {
            agreements,
            seating,
            scores: opening,
            deals_this_game: 0,
            games: 0,
        })
    }

    fn apply(&mut self, ctx: &mut Ctx<'_>, event: Event) -> Result<Outcome, RuleError> {
        match event {
            Event::Hand(hand) => self.hand(ctx, hand),
        }
    }

    /// A game open at the close pays nothing (session-format) and is not listed as finished.
    fn close(&mut self, _ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        let line = SheetLine::titled("closed");
        let why = match self.unfinished() {
            None => "The sitting is closed".to_string(),
            Some(_) => format!(
                "The sitting is closed with game {} unfinished (NS {}, EW {}): it pays nothing",
                self.game_number(),
                self.scores.ns,
                self.scores.ew
            ),
        };
        Ok(Outcome {
            scores_after: Some(self.scores.to_json()),
            rules: self
                .unfinished()
                .map(|_| "session-format: money in the partnership games".to_string())
                .into_iter()
                .collect(),
            ..Outcome::new(Vec::new(), why, line)
        })
    }

    fn scores(&self) -> Option<Value> {
        Some(self.scores.to_json())
    }

    fn layout(&self, _table: &Table) -> Layout {
        self.seating.layout(&[Tally::Points])
    }

    fn standing(&self) -> Vec<Cell> {
        self.scores.running_cells(Tally::Points)
    }

    fn start_line(&self) -> Option<SheetLine> {
        let carried = self.games == 0 && self.scores != PerSide::default();
        partnership::carried_in_line(carried, || self.standing())
    }

    fn settle_pairs(&self) -> Vec<(String, String)> {
        self.seating.opposite_pairs()
    }

    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        form::summary(&self.agreements, currency)
    }

    /// A game with a deal entered or scores carried in is unfinished and pays nothing.
    fn unfinished(&self) -> Option<String> {
        if self.deals_this_game == 0 && self.scores == PerSide::default() {
            return None;
        }
        Some(partnership::unfinished_words(
            self.game_number(),
            self.scores.ns,
            self.scores.ew,
        ))
    }

    fn hand_form(&self, _table: &Table) -> HandFormSpec {
        form::offer()
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod review_tests;
