//! Partnership Pinochle (rules §1.5, S002): two partnerships, no bidding; the dealer turns
//! up trump, dixes score 10, a side's meld counts once it wins a trick, first to 1,000
//! wins. Both reaching it on one deal raise the target by 250 ([`settle::after_deal`]). A
//! player may declare out at any time: right wins the game for his side, wrong loses it.
//!
//! Each finished game is settled at once (session-format "Money in the partnership
//! games") and the next starts at 0; a game unfinished at `close` pays nothing.

pub mod agreements;
pub mod form;
pub mod hand;
pub mod meld;
pub mod settle;
pub mod sheet;

#[cfg(test)]
mod review_tests;
#[cfg(test)]
mod tests;

use serde_json::{Value, json};

use self::agreements::{Agreements, MAX_TARGET};
use self::hand::{Claim, SideScore, WrittenClaim, WrittenDeal};
use self::settle::AfterDeal;
use crate::rules::game::HandFormSpec;
use crate::rules::partnership::{self, PerSide, Seating, Side};
use crate::rules::typed::{self, Game};
use crate::rules::{
    Cell, Ctx, Field, GameInfo, Layout, Mark, Outcome, RuleError, SheetLine, Step, Table, Tally,
    Tone,
};

/// The registration of `partnership_pinochle`: four players, partners opposite (rules §1.5).
pub static GAME: GameInfo = GameInfo::typed::<PartnershipPinochle, form::Form>(
    ("partnership_pinochle", "Partnership Pinochle", "rules §1.5"),
    (partnership::PLAYERS, partnership::PLAYERS),
    form::AGREEMENTS,
)
.with_meld(&meld::MELD);

typed::events! {
    /// What happens in Partnership Pinochle besides a payment and the close.
    pub enum Event {
        /// A deal, played out (rules §1.5).
        "hand" => Hand(hand::WrittenDeal) by hand::written,
        /// A player declares his side out during a deal (rules §1.5 "Declaring out").
        "declare_out" => DeclareOut(hand::WrittenClaim),
    }
}

/// The engine of one Partnership Pinochle session: the game in progress and how many finished.
#[derive(Debug, Clone, PartialEq)]
pub struct PartnershipPinochle {
    agreements: Agreements,
    seating: Seating,
    scores: PerSide<i64>,
    /// The target in force, in points: raised each time both sides reach it (rules §1.5).
    target: i64,
    hands_this_game: usize,
    games: usize,
}

impl PartnershipPinochle {
    /// The agreements this session plays under.
    pub fn agreements(&self) -> &Agreements {
        &self.agreements
    }

    /// The target in force for the game in progress, in points.
    pub fn target(&self) -> i64 {
        self.target
    }

    /// The 1-based number of the game in progress.
    fn game_number(&self) -> usize {
        self.games + 1
    }

    /// Whether a game is in progress: a deal was scored or scores were carried in.
    fn in_progress(&self) -> bool {
        self.hands_this_game > 0 || self.scores != PerSide::default()
    }

    /// `scores_after`: `{"game": 1, "target": 1000, "scores": {"NS": 300, "EW": 170}}`, points.
    fn sheet_json(&self, scores: &PerSide<i64>, target: i64) -> Value {
        json!({ "game": self.game_number(), "target": target, "scores": scores.to_json() })
    }

    /// One deal: one side at the target wins, both raise it; a refusal changes nothing.
    fn hand(&mut self, ctx: &mut Ctx<'_>, event: WrittenDeal) -> Result<Outcome, RuleError> {
        let deal = hand::check(event, &self.seating)?;
        let scored = hand::score(&deal, &self.seating, &self.agreements);
        let scores = self.scores_after(&scored)?;
        let after = settle::after_deal(&scores, self.target, self.agreements.target_step)
            .ok_or_else(|| {
                RuleError::new(
                    "agreements.target_step",
                    "the raised target is beyond any real sheet",
                )
            })?;
        let mut why = format!(
            "{} → NS {}, EW {}",
            sheet::describe_deal(&deal, &scored),
            sheet::num(scores.ns),
            sheet::num(scores.ew)
        );
        let mut line = sheet::deal_line(&deal, &scored, &scores);
        let steps = sheet::deal_steps(&scored);
        ctx.table.dealt(&deal.dealer);
        match after {
            AfterDeal::PlayOn => {
                let after_json = self.sheet_json(&scores, self.target);
                self.scores = scores;
                self.hands_this_game += 1;
                Ok(Outcome {
                    scores_after: Some(after_json),
                    ..Outcome::new(Vec::new(), why, line).with_steps(steps)
                })
            }
            AfterDeal::Raised { target } => {
                why.push_str(&format!(
                    ". Both sides reach {} on this deal, so nobody wins yet: the game goes on to {}",
                    sheet::num(self.target),
                    sheet::num(target)
                ));
                line.marks.push(Mark::new(
                    format!(
                        "both passed {}: game now {}",
                        sheet::num(self.target),
                        sheet::num(target)
                    ),
                    Tone::Plain,
                ));
                let after_json = self.sheet_json(&scores, target);
                self.scores = scores;
                self.target = target;
                self.hands_this_game += 1;
                Ok(Outcome {
                    scores_after: Some(after_json),
                    ..Outcome::new(Vec::new(), why, line).with_steps(steps)
                })
            }
            AfterDeal::Won(winner) => Ok(self.won_at_target(winner, scores, (why, steps), line)),
        }
    }

    /// Both sides' scores after a deal (rules §1.5). Errors name a side past any sheet.
    fn scores_after(&self, scored: &PerSide<SideScore>) -> Result<PerSide<i64>, RuleError> {
        let mut scores = self.scores;
        for side in Side::BOTH {
            scores[side] = scores[side]
                .checked_add(scored[side].total)
                .filter(|s| *s <= i64::MAX / 4)
                .ok_or_else(|| {
                    RuleError::new(
                        side.name(),
                        "that score is beyond any real sheet; check the meld",
                    )
                })?;
        }
        Ok(scores)
    }

    /// `winner` alone reached the target (rules §1.5); then [`Self::finish`].
    fn won_at_target(
        &mut self,
        winner: Side,
        scores: PerSide<i64>,
        (mut why, steps): (String, Vec<Step>),
        line: SheetLine,
    ) -> Outcome {
        let raised = if self.target == self.agreements.target {
            String::new()
        } else {
            format!(", raised from {}", sheet::num(self.agreements.target))
        };
        let how = format!(
            "reached {} (game {}{raised})",
            sheet::num(scores[winner]),
            sheet::num(self.target)
        );
        why.push_str(&format!(
            ". {} {how} and win game {}",
            winner.name(),
            self.game_number()
        ));
        self.finish(winner, "target", how, scores, (why, steps), line)
    }

    /// One `declare_out`: right, the claimant's side wins; wrong, it loses (rules §1.5,
    /// S002, "Declaring out"). The claim ends the deal, so the deal passes on.
    fn declare_out(
        &mut self,
        ctx: &mut Ctx<'_>,
        event: WrittenClaim,
    ) -> Result<Outcome, RuleError> {
        let claim: Claim = hand::check_claim(event, &self.seating)?;
        let side = claim.side;
        let added = claim.counted_meld() + claim.tricks_so_far;
        let total = self.scores[side].checked_add(added).ok_or_else(|| {
            RuleError::new(
                "meld",
                "that score is beyond any real sheet; check the meld",
            )
        })?;
        let correct = total >= self.target;
        let winner = if correct { side } else { side.other() };
        let mut scores = self.scores;
        scores[side] = total;
        let sum = sheet::claim_sum(&claim, self.scores[side], total);
        let (decided_by, how) = if correct {
            (
                "declared_out",
                format!(
                    "{} declared out: {sum} ≥ {}",
                    claim.claimant,
                    sheet::num(self.target)
                ),
            )
        } else {
            (
                "wrong_declaration",
                format!(
                    "{} declared out wrongly: {sum} < {}, so {} lose",
                    claim.claimant,
                    sheet::num(self.target),
                    side.name()
                ),
            )
        };
        let why = format!(
            "{} declares out for {}: {sum}, game {}: the claim is {}, so {} win game {} (the opponents' score makes no difference)",
            claim.claimant,
            side.name(),
            sheet::num(self.target),
            if correct { "right" } else { "wrong" },
            winner.name(),
            self.game_number()
        );
        let line = sheet::claim_line(&claim, correct, added, &scores);
        let dealer = ctx
            .table
            .next_dealer()
            .map(String::from)
            .or_else(|| self.seating.players().first().cloned());
        if let Some(dealer) = dealer {
            ctx.table.dealt(&dealer);
        }
        let steps = vec![Step::Score {
            who: side.name().into(),
            sum: sum.clone(),
            total,
            tally: Tally::Points,
        }];
        Ok(self.finish(winner, decided_by, how, scores, (why, steps), line))
    }

    /// Ends the game with `winner`: settles, records, starts the next at 0.
    fn finish(
        &mut self,
        winner: Side,
        decided_by: &str,
        how: String,
        scores: PerSide<i64>,
        (why, mut steps): (String, Vec<Step>),
        line: SheetLine,
    ) -> Outcome {
        let (postings, paid, paid_steps) =
            partnership::pay_game(&self.seating, winner, self.agreements.stake);
        steps.extend(paid_steps);
        let mut after_json = self.sheet_json(&scores, self.target);
        after_json["game_over"] = json!({ "winner": winner.name(), "decided_by": decided_by });
        let (finished, end) =
            partnership::game_won(winner, decided_by, &scores, how, None, paid.clone());
        self.games += 1;
        self.scores = PerSide::default();
        self.target = self.agreements.target;
        self.hands_this_game = 0;
        Outcome {
            rules: vec!["rules §1.5".into()],
            postings: postings.into_vec(),
            scores_after: Some(after_json),
            explanation: format!("{why}; {paid}"),
            steps,
            line,
            finished: Some((finished, end)),
        }
    }

    /// The game in progress in words: "game 2 (NS 650, EW 420, game 1,000)".
    fn progress_words(&self) -> String {
        format!(
            "game {} (NS {}, EW {}, game {})",
            self.game_number(),
            sheet::num(self.scores.ns),
            sheet::num(self.scores.ew),
            sheet::num(self.target)
        )
    }
}

impl Game for PartnershipPinochle {
    type Agreements = Agreements;
    type Event = Event;
    const NAME: &'static str = "Partnership Pinochle";
    const ENTER: &'static str =
        "a hand, a declaring out, a payment or the close (partners stay seated for the whole game)";
    const RULE: Option<&'static str> = Some("rules §1.5");

    /// Starts a session. Errors name the field: agreements, `players`, or an opening score
    /// (`opening_scores.NS`) negative (rules §1.5), over [`MAX_TARGET`], or at the target
    /// while the other is under it (that game is over).
    ///
    /// Both at or over the target is carried in with the target raised as that deal raised
    /// it ([`settle::after_deal`]).
    fn new(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<PartnershipPinochle, RuleError> {
        let (seating, opening) = partnership::open(players, opening_scores, |field, score| {
            if !(0..=MAX_TARGET).contains(&score) {
                return Err(RuleError::new(
                    field,
                    format!(
                        "{score} is not a Partnership Pinochle score: scores start at 0 and only grow"
                    ),
                )
                .rule("rules §1.5"));
            }
            Ok(())
        })?;
        let target = match settle::after_deal(&opening, agreements.target, agreements.target_step) {
            Some(AfterDeal::PlayOn) => agreements.target,
            Some(AfterDeal::Raised { target }) => target,
            Some(AfterDeal::Won(side)) => {
                return Err(RuleError::new(
                    Field::name("opening_scores").side(side.name()),
                    format!(
                        "{} already reaches the game ({}) and {} do not, so that game is over, not in progress",
                        opening[side],
                        agreements.target,
                        side.other().name()
                    ),
                )
                .rule("rules §1.5"));
            }
            None => {
                return Err(RuleError::new(
                    "agreements.target_step",
                    "the raised target is beyond any real sheet",
                ));
            }
        };
        Ok(PartnershipPinochle {
            target,
            agreements,
            seating,
            scores: opening,
            hands_this_game: 0,
            games: 0,
        })
    }

    /// A declare-out ends its deal (rules §1.5), so it is numbered and undone as one.
    fn is_deal(&self, kind: &str) -> bool {
        matches!(kind, "hand" | "declare_out")
    }

    fn apply(&mut self, ctx: &mut Ctx<'_>, event: Event) -> Result<Outcome, RuleError> {
        match event {
            Event::Hand(deal) => self.hand(ctx, deal),
            Event::DeclareOut(claim) => self.declare_out(ctx, claim),
        }
    }

    /// A game unfinished at the close pays nothing (session-format).
    fn close(&mut self, _ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        if !self.in_progress() {
            return Ok(Outcome::new(
                Vec::new(),
                "The sitting is closed",
                SheetLine::titled("closed"),
            ));
        }
        let mut line = SheetLine::titled("closed");
        line.marks.push(Mark::new(
            format!("game {} unfinished: pays nothing", self.game_number()),
            Tone::Plain,
        ));
        line.cells = self.scores.running_cells(Tally::Points);
        Ok(Outcome {
            scores_after: Some(self.sheet_json(&self.scores, self.target)),
            rules: vec!["session-format: money in the partnership games".into()],
            ..Outcome::new(
                Vec::new(),
                format!(
                    "The sitting is closed with {} unfinished: it pays nothing",
                    self.progress_words()
                ),
                line,
            )
        })
    }

    fn scores(&self) -> Option<Value> {
        Some(self.scores.to_json())
    }

    /// One points column per side, NS first, headed by its players.
    fn layout(&self, _table: &Table) -> Layout {
        self.seating.layout(&[Tally::Points])
    }

    fn standing(&self) -> Vec<Cell> {
        self.scores.running_cells(Tally::Points)
    }

    fn start_line(&self) -> Option<SheetLine> {
        partnership::carried_in_line(self.scores != PerSide::default(), || self.standing())
    }

    fn settle_pairs(&self) -> Vec<(String, String)> {
        self.seating.opposite_pairs()
    }

    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        form::summary(&self.agreements, currency)
    }

    /// A game with a deal scored (or scores carried in) is unfinished and pays nothing.
    fn unfinished(&self) -> Option<String> {
        self.in_progress().then(|| {
            let words = self.progress_words();
            let mut chars = words.chars();
            let head: String = chars
                .next()
                .map(|c| c.to_uppercase().collect())
                .unwrap_or_default();
            format!(
                "{head}{} is unfinished: closing now pays nothing for it.",
                chars.as_str()
            )
        })
    }

    fn hand_form(&self, _table: &Table) -> HandFormSpec {
        form::offer(&self.seating, self.target, self.agreements.target)
    }
}
