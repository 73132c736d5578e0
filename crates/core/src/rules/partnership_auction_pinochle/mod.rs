//! Partnership Auction Pinochle (rules §1.6, BIC-PAP) and Scarne's Aeroplane (S003) as the
//! `aeroplane` agreement: an auction from 100 (Aeroplane 250, two bids each); the bidders
//! score all they made or lose the bid, the opponents always score. First to 1,000 wins;
//! the bidders are counted first, so both never win; no declaring out (rules §3 item 27).
//!
//! Each game is settled at once (session-format "Money in the partnership games"); one
//! unfinished at the close pays nothing.

pub mod agreements;
pub mod auction;
pub mod form;
pub mod hand;
pub mod meld;
pub mod settle;

#[cfg(test)]
mod review_tests;
#[cfg(test)]
mod tests;

use serde_json::{Value, json};

use self::agreements::{Agreements, MAX_POINTS};
use self::hand::{Deal, Hand, Scored, WrittenHand};
use crate::rules::contract_head;
use crate::rules::partnership::{self, PerSide, Seating, Side};
use crate::rules::sheet::minus;
use crate::rules::typed::{self, Game};
use crate::rules::{
    Cell, Contract, Ctx, Detail, GameInfo, Layout, Mark, Outcome, RuleError, SheetLine, Step,
    Table, Tally, Tone,
};

/// The registration of `partnership_auction_pinochle`: four players (rules §1.6).
pub static GAME: GameInfo = GameInfo::typed::<PartnershipAuction, form::Form>(
    (
        "partnership_auction_pinochle",
        "Partnership Auction Pinochle",
        "rules §1.6",
    ),
    (partnership::PLAYERS, partnership::PLAYERS),
    form::AGREEMENTS,
)
.with_meld(&meld::MELD)
.with_to_make(crate::rules::to_make::side_meld_and_tricks);

typed::events! {
    /// What happens in Partnership Auction Pinochle besides a payment and the close.
    pub enum Event {
        /// A deal, bid and played or thrown in (rules §1.6).
        "hand" => Hand(hand::WrittenHand),
    }
}

/// The engine of one session: the game in progress and how many finished.
#[derive(Debug, Clone, PartialEq)]
pub struct PartnershipAuction {
    agreements: Agreements,
    seating: Seating,
    scores: PerSide<i64>,
    deals_this_game: usize,
    games: usize,
}

impl PartnershipAuction {
    /// The agreements this session plays under.
    pub fn agreements(&self) -> &Agreements {
        &self.agreements
    }

    /// The 1-based number of the game in progress.
    fn game_number(&self) -> usize {
        self.games + 1
    }

    /// Whether a game is under way: a deal recorded, or scores carried in.
    fn in_progress(&self) -> bool {
        self.deals_this_game > 0 || self.scores != PerSide::default()
    }

    /// One `hand`; a refusal leaves the engine untouched.
    fn hand(&mut self, ctx: &mut Ctx<'_>, event: WrittenHand) -> Result<Outcome, RuleError> {
        let hand = match hand::check(event, &self.seating, &self.agreements)? {
            Deal::AllPassed { dealer } => return Ok(self.all_passed(ctx, &dealer)),
            Deal::Played(hand) => hand,
        };
        let scored = hand::score(&hand);
        let scores = self.scores_after(&scored)?;
        let game = self.game_number();
        let line = hand_line(&hand, &scored, &scores);
        let mut why = format!(
            "{} → NS {}, EW {}",
            describe(&hand, &scored),
            minus(scores.ns),
            minus(scores.ew)
        );
        let mut steps = score_steps(&hand, &scored);
        ctx.table.dealt(&hand.dealer);
        let Some(end) = settle::game_end(&scores, self.agreements.target, hand.head.side) else {
            self.scores = scores;
            self.deals_this_game += 1;
            return Ok(Outcome {
                scores_after: Some(sheet(game, &scores)),
                ..Outcome::new(Vec::new(), why, line).with_steps(steps)
            });
        };
        let w = end.winner;
        let target = self.agreements.target;
        let (postings, paid, paid_steps) =
            partnership::pay_game(&self.seating, w, self.agreements.stake);
        steps.extend(paid_steps);
        let how = match end.decided_by {
            "bidders_counted_first" => format!(
                "both sides passed {target} (NS {}, EW {}): the bidding side is counted first and wins",
                minus(scores.ns),
                minus(scores.ew)
            ),
            _ => format!("reached {} (target {target})", minus(scores[w])),
        };
        why.push_str(&format!(". {} win game {game}: {how}; {paid}", w.name()));
        let mut after = sheet(game, &scores);
        after["game_over"] = json!({ "winner": w.name(), "decided_by": end.decided_by });
        let (finished, game_end) =
            partnership::game_won(w, end.decided_by, &scores, how, None, paid);
        self.games += 1;
        self.scores = PerSide::default();
        self.deals_this_game = 0;
        Ok(Outcome {
            rules: vec!["rules §1.6".into()],
            postings: postings.into_vec(),
            scores_after: Some(after),
            explanation: why,
            steps,
            line,
            finished: Some((finished, game_end)),
        })
    }

    /// Both sides' scores after a deal (rules §1.6), within a quarter of `i64` (error: `bid`).
    fn scores_after(&self, scored: &Scored) -> Result<PerSide<i64>, RuleError> {
        let mut scores = self.scores;
        for side in Side::BOTH {
            scores[side] = scores[side]
                .checked_add(scored.sides[side].points)
                .filter(|s| s.abs() <= i64::MAX / 4)
                .ok_or_else(|| {
                    RuleError::new(
                        "bid",
                        "the scores have grown beyond what the sheet can hold",
                    )
                })?;
        }
        Ok(scores)
    }

    /// All four passed: no score, and the deal passes to the left (session-format).
    fn all_passed(&mut self, ctx: &mut Ctx<'_>, dealer: &str) -> Outcome {
        ctx.table.dealt(dealer);
        self.deals_this_game += 1;
        let next = ctx.table.next_dealer().unwrap_or(dealer).to_string();
        Outcome {
            scores_after: Some(sheet(self.game_number(), &self.scores)),
            rules: vec!["rules §1.6".into()],
            ..Outcome::new(
                Vec::new(),
                format!("All four passed on {dealer}'s deal: no score; {next} deals next"),
                SheetLine::titled(format!("all passed: {next} deals next")).dealt_by(dealer),
            )
        }
    }
}

/// `scores_after`: `{"game": 1, "scores": {"NS": 340, "EW": 150}}`, plus `game_over`.
fn sheet(game: usize, scores: &PerSide<i64>) -> Value {
    json!({ "game": game, "scores": scores.to_json() })
}

/// A side's meld and tricks in words (`"meld 140 + tricks 200"`), or its meld lost.
fn side_words(hand: &Hand, side: Side) -> String {
    let h = hand.sides[side];
    if h.counted_meld(true) == h.meld {
        format!("meld {} + tricks {}", h.meld, h.tricks)
    } else {
        format!("tricks {}; meld {} lost without a trick", h.tricks, h.meld)
    }
}

/// The deal in words: "N bid 300 in hearts for NS and made it: NS +340 (…)" (rules §1.6).
pub fn describe(hand: &Hand, scored: &Scored) -> String {
    let b = hand.head.side;
    let contract = contract_head::words(&hand.head.bidder, hand.head.bid, hand.head.trump, b);
    let head = if scored.made {
        format!("{contract} and made it")
    } else {
        format!(
            "{contract} and fell short with {} ({})",
            scored.bidders_total,
            side_words(hand, b)
        )
    };
    let words = |side: Side| {
        let points = scored.sides[side].points;
        if side == b && !scored.made {
            format!("{} −{} (the bid is deducted)", side.name(), hand.head.bid)
        } else {
            format!("{} +{points} ({})", side.name(), side_words(hand, side))
        }
    };
    format!("{head}: {}; {}", words(b), words(b.other()))
}

/// Each side's score as steps, bidders first (rules §1.6).
fn score_steps(hand: &Hand, scored: &Scored) -> Vec<Step> {
    let b = hand.head.side;
    [b, b.other()]
        .into_iter()
        .map(|side| {
            let sum = if side == b && !scored.made {
                format!(
                    "bid {} deducted: made only {} ({})",
                    hand.head.bid,
                    scored.bidders_total,
                    side_words(hand, side)
                )
            } else {
                side_words(hand, side)
            };
            Step::Score {
                who: side.name().to_string(),
                sum,
                total: scored.sides[side].points,
                tally: Tally::Points,
            }
        })
        .collect()
}

/// The sheet's line for a played deal: contract, made or set, meld, tricks, points.
fn hand_line(hand: &Hand, scored: &Scored, scores: &PerSide<i64>) -> SheetLine {
    let b = hand.head.side;
    let mut marks = Vec::new();
    if let Some(calls) = hand.auction_calls {
        marks.push(Mark::new(
            format!("auction checked ({calls} calls)"),
            Tone::Plain,
        ));
    }
    for side in Side::BOTH {
        if scores[side] < 0 {
            marks.push(Mark::new(format!("{} in the hole", side.name()), Tone::Bad));
        }
    }
    let mut details = Vec::new();
    for side in Side::BOTH {
        let h = hand.sides[side];
        let note = |text: String, tone: Tone| Detail {
            account: side.name().into(),
            text,
            tone,
        };
        details.push(note(format!("meld {}", h.meld), Tone::Plain));
        details.push(note(format!("tricks {}", h.tricks), Tone::Plain));
        if side == b && !scored.made {
            details.push(note(
                format!("set back {}: meld and tricks lost", hand.head.bid),
                Tone::Bad,
            ));
        } else if scored.sides[side].meld_lost > 0 {
            details.push(note(
                format!("meld {} lost without a trick", scored.sides[side].meld_lost),
                Tone::Bad,
            ));
        }
    }
    let cells = Side::BOTH
        .iter()
        .map(|&side| Cell {
            in_hole: scores[side] < 0,
            bidder: side == b,
            ..Cell::added(
                side.name(),
                Tally::Points,
                scored.sides[side].points,
                scores[side],
            )
        })
        .collect();
    SheetLine {
        dealer: Some(hand.dealer.clone()),
        contract: Some(Contract {
            who: hand.head.bidder.clone(),
            side: Some(b.name().into()),
            bid: hand.head.bid,
            trump: Some(hand.head.trump),
            result: if scored.made { "made" } else { "set back" }.into(),
            tone: if scored.made { Tone::Good } else { Tone::Bad },
        }),
        title: None,
        marks,
        awards: Vec::new(),
        details,
        cells,
    }
}

impl Game for PartnershipAuction {
    type Agreements = Agreements;
    type Event = Event;
    const NAME: &'static str = "Partnership Auction Pinochle";
    const ENTER: &'static str =
        "a hand, a payment or the close (partners stay seated for the whole game)";
    const RULE: Option<&'static str> = Some("rules §1.6");

    /// Declaring out (a Partnership Pinochle event) is refused with the reason (BIC-PAP).
    fn unknown(kind: &str) -> RuleError {
        match kind {
            "declare_out" => RuleError::new(
                "type",
                "there is no declaring out in Partnership Auction Pinochle: the game ends when a side reaches the target after a deal, the bidders counted first",
            )
            .rule("rules §1.6, BIC-PAP"),
            other => typed::unknown_kind::<Self>(other),
        }
    }

    /// Starts a session. Errors name the field (`opening_scores.NS` out of range or won).
    fn new(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<PartnershipAuction, RuleError> {
        let (seating, opening) = partnership::open(players, opening_scores, |field, score| {
            if score.abs() > MAX_POINTS {
                return Err(RuleError::new(
                    field,
                    format!("{score} is not a score from a real sheet"),
                ));
            }
            if score >= agreements.target {
                return Err(RuleError::new(
                    field,
                    format!(
                        "{score} already reaches the target {}, so that game is over, not in progress",
                        agreements.target
                    ),
                )
                .rule("rules §1.6"));
            }
            Ok(())
        })?;
        Ok(PartnershipAuction {
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
        if !self.in_progress() {
            return Ok(Outcome::new(Vec::new(), "The sitting is closed", line));
        }
        Ok(Outcome {
            scores_after: Some(sheet(self.game_number(), &self.scores)),
            rules: vec!["session-format: money in the partnership games".into()],
            ..Outcome::new(
                Vec::new(),
                format!(
                    "The sitting is closed with game {} unfinished (NS {}, EW {}): it settles nothing",
                    self.game_number(),
                    minus(self.scores.ns),
                    minus(self.scores.ew)
                ),
                line,
            )
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
        let carried = self.scores != PerSide::default() && self.games == 0;
        partnership::carried_in_line(carried, || self.standing())
    }

    fn settle_pairs(&self) -> Vec<(String, String)> {
        self.seating.opposite_pairs()
    }

    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        form::summary(&self.agreements, currency)
    }

    fn unfinished(&self) -> Option<String> {
        self.in_progress().then(|| {
            partnership::unfinished_words(
                self.game_number(),
                minus(self.scores.ns),
                minus(self.scores.ew),
            )
        })
    }

    fn hand_form(&self, _table: &Table) -> crate::rules::game::HandFormSpec {
        form::offer(&self.seating, &self.agreements)
    }
}
