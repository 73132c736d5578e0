//! Auction Pitch (rules §1.4, S001) with the Smudge and count-down variants.
//!
//! Nothing is paid until a game ends: then the winner collects the difference in points ×
//! stake from every other player and the next game starts fresh.

pub mod agreements;
pub mod form;
pub mod game_end;
pub mod hand;
pub mod score;
pub mod to_make;

#[cfg(test)]
mod tests;

use serde_json::Value;

use self::agreements::{Agreements, MAX_POINTS};
use self::hand::{Deal, Point, WrittenHand};
use self::score::{Scores, num};
use crate::rules::typed::{self, Game};
use crate::rules::{
    Award, Cell, Column, Contract, Ctx, Field, FinishedGame, GameEnd, GameInfo, Layout, Mark,
    Outcome, RuleError, SheetLine, Table, Tally, Tone,
};

/// The registration of `auction_pitch`: 2 to 7 players, each for himself (rules §1.4, S001).
pub static GAME: GameInfo = GameInfo::typed::<AuctionPitch, form::Form>(
    ("auction_pitch", "Auction Pitch", "rules §1.4"),
    (2, 7),
    form::AGREEMENTS,
)
.with_to_make(to_make::to_make);

typed::events! {
    /// What happens in Auction Pitch besides a payment and the close: a hand.
    pub enum Event {
        /// A deal, played or passed out (rules §1.4).
        "hand" => Hand(hand::WrittenHand),
    }
}

/// The first game's scores from `opening_scores` (`{"Ann": 7}`). Errors name the entry
/// (`opening_scores.Zed`): not a player, out of ±[`MAX_POINTS`], or already out.
fn opening(
    agreements: &Agreements,
    players: &[String],
    opening_scores: Option<&Value>,
) -> Result<Scores, RuleError> {
    let mut scores = Scores::fresh(players, agreements.fresh_score());
    let written = match opening_scores {
        None | Some(Value::Null) => return Ok(scores),
        Some(Value::Object(m)) => m,
        Some(_) => {
            return Err(RuleError::new(
                "opening_scores",
                "write the scores carried in as {\"Ann\": 7}, or null",
            ));
        }
    };
    for (name, value) in written {
        let field = Field::name("opening_scores").player(name);
        if !players.contains(name) {
            return Err(RuleError::new(
                field,
                format!("{name} is not one of the players"),
            ));
        }
        let score = value
            .as_i64()
            .filter(|s| s.abs() <= MAX_POINTS)
            .ok_or_else(|| {
                RuleError::new(
                    &field,
                    format!("{value} is not a whole number of points within ±{MAX_POINTS}"),
                )
            })?;
        if agreements.is_out(score) {
            return Err(RuleError::new(
                field,
                format!(
                    "{} is already out (the game ends at {}), so that game is over, not in progress",
                    num(score),
                    agreements.goal()
                ),
            )
            .rule("rules §1.4"));
        }
        scores.set(name, score);
    }
    Ok(scores)
}

/// The engine of one Auction Pitch session: agreements and the game's running scores.
#[derive(Debug, Clone, PartialEq)]
pub struct AuctionPitch {
    agreements: Agreements,
    players: Vec<String>,
    scores: Scores,
    games: usize,
    dead_hand_last: bool,
}

impl AuctionPitch {
    /// The agreements this session plays under.
    pub fn agreements(&self) -> &Agreements {
        &self.agreements
    }

    /// One `hand`: scored, perhaps ending and settling the game. Nothing changes on error.
    fn hand(&mut self, ctx: &mut Ctx<'_>, event: WrittenHand) -> Result<Outcome, RuleError> {
        let c = match hand::check(event, ctx.table)? {
            Deal::AllPassed { dealer } => {
                ctx.table.dealt(&dealer);
                self.dead_hand_last = true;
                let line = SheetLine::titled(format!("all passed: {dealer} deals again"))
                    .dealt_by(&dealer);
                return Ok(Outcome {
                    scores_after: Some(self.scores.to_json()),
                    rules: vec!["rules §1.4".into()],
                    ..Outcome::new(
                        Vec::new(),
                        format!(
                            "All passed on {dealer}'s deal: a dead hand, no score; {dealer} deals again"
                        ),
                        line,
                    )
                });
            }
            Deal::Played(c) => c,
        };
        let scored = score::score_hand(&self.agreements, &self.players, &self.scores, &c);
        let order = ctx.table.from_left_of(&c.dealer);
        let win = game_end::decide(&self.agreements, &c, &scored, &order);
        let mut explanation = scored.explanation.clone();
        let mut postings = Vec::new();
        let mut steps = Vec::new();
        let line = self.hand_line(&c, &scored);
        let mut finished = None;
        match win {
            None => self.scores = scored.after.clone(),
            Some(win) => {
                let (paid, words, paid_steps) =
                    game_end::settle(&self.agreements, &scored.after, &win)?;
                postings = paid.into_vec();
                steps = paid_steps;
                explanation = format!("{explanation}. {words}");
                let game = FinishedGame {
                    winner: Some(win.winner.clone()),
                    decided_by: win.decided_by(&self.agreements),
                    final_scores: scored.after.to_json(),
                };
                let end = GameEnd {
                    winner: Some(win.winner.clone()),
                    at: Some(scored.after.get(&win.winner)),
                    how: decided_in_words(&game.decided_by, &win.winner),
                    award: None,
                    settlement: words,
                    fresh: self.fresh_cells(),
                };
                self.games += 1;
                finished = Some((game, end));
                self.scores = Scores::fresh(&self.players, self.agreements.fresh_score());
            }
        }
        ctx.table.dealt(&c.dealer);
        self.dead_hand_last = false;
        Ok(Outcome {
            rules: vec!["rules §1.4".into()],
            postings,
            scores_after: Some(scored.after.to_json()),
            explanation,
            steps,
            line,
            finished,
        })
    }

    /// The sheet's line for a played hand: pitcher, bid, takers, marks, running scores.
    fn hand_line(&self, c: &hand::Contract, scored: &score::Scored) -> SheetLine {
        let (result, tone, mark) = match &scored.parts.outcome {
            score::Outcome::Made => ("made".to_string(), Tone::Good, None),
            score::Outcome::SetBack => (
                "set back".to_string(),
                Tone::Bad,
                Some(format!("set back {}", c.bid)),
            ),
            score::Outcome::PitcherRevoked => (
                "revoked".to_string(),
                Tone::Bad,
                Some(format!("revoked, set back {}", c.bid)),
            ),
            score::Outcome::Revoked(who) => (
                "made".to_string(),
                Tone::Good,
                Some(format!("{who} revoked")),
            ),
        };
        let awards = Point::ORDER
            .into_iter()
            .map(|p| Award {
                to: c.points.taker(p).unwrap_or("—").to_string(),
                tally: Tally::Points,
                amount: 1,
                what: p.word().to_string(),
                short: p.word()[..1].to_string(),
            })
            .collect();
        let counts_down = self.agreements.counts_down();
        let cells = scored
            .after
            .iter()
            .map(|(p, s)| Cell {
                in_hole: !counts_down && s < 0,
                bidder: p == c.pitcher,
                ..Cell::running(p, Tally::Points, s)
            })
            .collect();
        SheetLine {
            dealer: Some(c.dealer.clone()),
            contract: Some(Contract {
                who: c.pitcher.clone(),
                side: None,
                bid: c.bid,
                trump: None,
                result,
                tone,
            }),
            title: None,
            marks: mark.map(|m| Mark::new(m, Tone::Bad)).into_iter().collect(),
            awards,
            details: Vec::new(),
            cells,
        }
    }

    /// The cells of scores `scores`, circled when in the hole (counting up).
    fn cells(&self, scores: &Scores) -> Vec<Cell> {
        let counts_down = self.agreements.counts_down();
        scores
            .iter()
            .map(|(p, s)| Cell {
                in_hole: !counts_down && s < 0,
                ..Cell::running(p, Tally::Points, s)
            })
            .collect()
    }

    /// The scores a new game starts from, when they are not zero (count-down).
    fn fresh_cells(&self) -> Vec<Cell> {
        let fresh = self.agreements.fresh_score();
        if fresh == 0 {
            return Vec::new();
        }
        self.cells(&Scores::fresh(&self.players, fresh))
    }
}

/// `decided_by` of the ledger's `games` in the table's words (rules §1.4 end of game).
pub fn decided_in_words(decided_by: &str, winner: &str) -> String {
    let counted = "counted High, Low, Jack, Game";
    match decided_by {
        "pitcher_out" => "pitcher went out".into(),
        "only_one_out" => "only one out".into(),
        "smudge" => "smudge: all four points in one hand".into(),
        "countdown" => "count-down: first to zero".into(),
        "count_order:revoke" => format!("{counted}: the revoke's bonus took {winner} out first"),
        other => match other.strip_prefix("count_order:") {
            Some(point) => {
                let word = Point::ORDER
                    .into_iter()
                    .find(|p| p.id() == point)
                    .map_or(point, |p| p.word());
                format!("{counted}: {word} took {winner} out first")
            }
            None => other.replace('_', " "),
        },
    }
}

impl Game for AuctionPitch {
    type Agreements = Agreements;
    type Event = Event;
    const NAME: &'static str = "Auction Pitch";
    const ENTER: &'static str = "a hand, a payment or the close";

    /// The agreements and the first game's `opening_scores`. Errors name the entry.
    fn new(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<AuctionPitch, RuleError> {
        let scores = opening(&agreements, players, opening_scores)?;
        Ok(AuctionPitch {
            agreements,
            players: players.to_vec(),
            scores,
            games: 0,
            dead_hand_last: false,
        })
    }

    /// After a dead hand the same dealer deals again (rules §1.4, S001); not enforced, as a
    /// misdeal passes the deal without an event.
    fn next_dealer(&self, table: &Table) -> Option<String> {
        if self.dead_hand_last {
            table.last_dealer().map(String::from)
        } else {
            table.next_dealer().map(String::from)
        }
    }

    fn apply(&mut self, ctx: &mut Ctx<'_>, event: Event) -> Result<Outcome, RuleError> {
        match event {
            Event::Hand(hand) => self.hand(ctx, hand),
        }
    }

    /// Closing pays nothing more: only a finished game is settled (rules §1.4).
    fn close(&mut self, _ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        let sheet: Vec<String> = self
            .scores
            .iter()
            .map(|(p, s)| format!("{p} {}", num(s)))
            .collect();
        Ok(Outcome {
            scores_after: Some(self.scores.to_json()),
            rules: vec!["rules §1.4".into()],
            ..Outcome::new(
                Vec::new(),
                format!(
                    "The sitting is closed; the game in progress ({}) is unfinished and settles nothing",
                    sheet.join(", ")
                ),
                SheetLine::titled("closed"),
            )
        })
    }

    fn layout(&self, _table: &Table) -> Layout {
        Layout {
            columns: Column::per_player(&self.players, Tally::Points),
        }
    }

    fn standing(&self) -> Vec<Cell> {
        self.cells(&self.scores)
    }

    /// The first game's start, when it is not all zeros (scores carried in, count-down).
    fn start_line(&self) -> Option<SheetLine> {
        if self.games == 0 && self.scores.iter().all(|(_, s)| s == 0) {
            return None;
        }
        Some(SheetLine {
            cells: self.standing(),
            ..SheetLine::titled("start")
        })
    }

    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        form::summary(&self.agreements, currency)
    }

    /// A game with hands played is unfinished at a close and settles nothing (rules §1.4).
    fn unfinished(&self) -> Option<String> {
        let fresh = self.agreements.fresh_score();
        if self.scores.iter().all(|(_, s)| s == fresh) {
            return None;
        }
        Some(format!(
            "Game {} is unfinished: closing now settles nothing for it.",
            self.games + 1
        ))
    }

    fn hand_form(&self, _table: &Table) -> crate::rules::game::HandFormSpec {
        form::offer()
    }

    /// The running scores, `{"A": 2, "B": 1, …}` in seat order; fresh after a game ends.
    fn scores(&self) -> Option<Value> {
        Some(self.scores.to_json())
    }
}
