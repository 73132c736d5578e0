//! Two-handed Pinochle (rules §1.9, S004): each for himself, melds scored as made, 10 for
//! a dix the dealer turns up, trick points counted in tens (7 or more rounds up).
//!
//! `mode`: a **match** to 1,000, raised by 250 whenever both reach it on one deal, which a
//! player may end by **declaring out**; or **single deals**, each a game (equal is a draw,
//! rules §3 item 29). The loser of a finished game pays the stake; draws and games
//! unfinished at the close pay nothing.

pub mod agreements;
mod deal;
mod declare;
pub mod form;
pub mod hand;
mod lines;
pub mod meld;

#[cfg(test)]
mod tests;

use serde_json::{Map, Value, json};

use self::agreements::{Agreements, MAX_TARGET, Mode};
use self::hand::{Players, WrittenDeal};
use crate::ledger::Postings;
use crate::rules::game::HandFormSpec;
use crate::rules::typed::{self, Game};
use crate::rules::{
    Cell, Column, Ctx, Field, FinishedGame, GameEnd, GameInfo, Layout, Outcome, RuleError,
    SheetLine, Step, Table, Tally,
};
// Points as a sheet writes them: "1,010", "−20".
use crate::rules::sheet::points as pts;

/// The registration of `two_handed_pinochle`: exactly two players (rules §1.9).
pub static GAME: GameInfo = GameInfo::typed::<TwoHanded, form::Form>(
    ("two_handed_pinochle", "Two-handed Pinochle", "rules §1.9"),
    (2, 2),
    form::AGREEMENTS,
)
.with_meld(&meld::MELD);

typed::events! {
    /// What happens in Two-handed Pinochle besides a payment and the close.
    pub enum Event {
        /// A deal, played out (rules §1.9).
        "hand" => Hand(hand::WrittenDeal) by hand::written_deal,
        /// A player declares himself out during a deal, in a match (rules §1.9).
        "declare_out" => DeclareOut(hand::WrittenDeclare),
    }
}

/// The largest score carried in, in points: far above any real sheet.
const MAX_OPENING: i64 = 10 * MAX_TARGET;

/// Where a match game stands after a deal (rules §1.9 "Game", S004).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Standing {
    /// Exactly one player has reached the target: he wins.
    Won(usize),
    /// Nobody won; the game goes on to `target` (raised while both had reached it).
    Goes { target: i64 },
}

/// Judges match scores: one alone at or over the target wins; both raise it to the first
/// `target + k × step` not both have reached (S004 "even if one has 1,130 and the other
/// 1,000"), and nobody wins on that deal. Errors: a target past the integers.
fn judge(scores: [i64; 2], target: i64, step: i64) -> Result<Standing, RuleError> {
    let [a, b] = scores;
    match (a >= target, b >= target) {
        (true, false) => Ok(Standing::Won(0)),
        (false, true) => Ok(Standing::Won(1)),
        (false, false) => Ok(Standing::Goes { target }),
        (true, true) => {
            let steps = (a.min(b) - target) / step.max(1) + 1;
            let target = steps
                .checked_mul(step)
                .and_then(|s| s.checked_add(target))
                .ok_or_else(|| RuleError::new("type", "the scores have grown past counting"))?;
            Ok(Standing::Goes { target })
        }
    }
}

/// The engine of one Two-handed Pinochle session: the game in progress and games finished.
#[derive(Debug, Clone, PartialEq)]
pub struct TwoHanded {
    agreements: Agreements,
    players: Players,
    scores: [i64; 2],
    target: i64,
    carried_in: Option<[i64; 2]>,
    deals_this_game: usize,
    games: usize,
}

impl TwoHanded {
    /// Starts a session for two `players` with the first game's `opening_scores`
    /// (`{"Ann": 850}`). Errors name the field: `players`; a score of a non-player, not a
    /// whole ten ≥ 0, any in `single_deal` mode, or one already won. Both at or over the
    /// target is a game gone on.
    pub fn start(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<TwoHanded, RuleError> {
        let players: Players = match players {
            [a, b] => [a.clone(), b.clone()],
            _ => {
                return Err(RuleError::new(
                    "players",
                    format!(
                        "Two-handed Pinochle is for exactly two players, and {} are listed",
                        players.len()
                    ),
                )
                .rule("rules §1.9"));
            }
        };
        let scores = read_opening(&agreements, &players, opening_scores)?;
        let target = match judge(scores, agreements.target, agreements.target_step)? {
            Standing::Goes { target } => target,
            Standing::Won(seat) => {
                let name = players.get(seat).map_or("", String::as_str);
                return Err(RuleError::new(
                    Field::name("opening_scores").player(name),
                    format!(
                        "{name} already has {} of the {} to win while the other player is under it, so that game is over, not in progress",
                        pts(scores.get(seat).copied().unwrap_or(0)),
                        pts(agreements.target)
                    ),
                )
                .rule("rules §1.9"));
            }
        };
        Ok(TwoHanded {
            agreements,
            players,
            scores,
            target,
            carried_in: (scores != [0, 0]).then_some(scores),
            deals_this_game: 0,
            games: 0,
        })
    }

    fn name(&self, seat: usize) -> &str {
        self.players.get(seat).map_or("", String::as_str)
    }

    /// The 1-based number of the game in progress.
    fn game_number(&self) -> usize {
        self.games + 1
    }

    /// `{"Ann": 850, "Bob": 700}` in seat order.
    fn scores_json(&self, scores: [i64; 2]) -> Value {
        let mut map = Map::new();
        for (seat, score) in scores.iter().enumerate() {
            map.insert(self.name(seat).to_string(), json!(score));
        }
        Value::Object(map)
    }

    fn cells(&self, added: Option<[i64; 2]>, scores: [i64; 2]) -> Vec<Cell> {
        (0..2)
            .map(|seat| {
                let running = scores.get(seat).copied().unwrap_or(0);
                match added.and_then(|a| a.get(seat).copied()) {
                    Some(add) => Cell::added(self.name(seat), Tally::Points, add, running),
                    None => Cell::running(self.name(seat), Tally::Points, running),
                }
            })
            .collect()
    }

    /// The loser pays the stake; a draw or zero stake pays nothing (session-format).
    fn settle(&self, winner: Option<usize>) -> (Postings, String, Vec<Step>) {
        let mut postings = Postings::new();
        let mut steps = Vec::new();
        let stake = self.agreements.stake;
        let words = match winner {
            None => "a draw: nobody pays".to_string(),
            Some(_) if stake.is_zero() => "points only: nobody pays".to_string(),
            Some(w) => {
                let (winner, loser) = (self.name(w), self.name(1 - w));
                postings.transfer(loser, winner, stake);
                steps.push(Step::Stake {
                    amount: stake,
                    per: "game won".into(),
                });
                steps.push(Step::Pays {
                    from: loser.to_string(),
                    to: winner.to_string(),
                    amount: stake,
                    why: format!("game {} lost", self.game_number()),
                });
                format!("{loser} pays {winner} {stake}, the stake per game won")
            }
        };
        (postings, words, steps)
    }

    /// Ends the game with `winner` (`None`: a draw): records, settles, starts the next at 0.
    fn finish(
        &mut self,
        winner: Option<usize>,
        decided_by: &str,
        how: String,
        scores: [i64; 2],
    ) -> (Postings, String, Vec<Step>, (FinishedGame, GameEnd)) {
        let (postings, words, steps) = self.settle(winner);
        let game = FinishedGame {
            winner: winner.map(|w| self.name(w).to_string()),
            decided_by: decided_by.to_string(),
            final_scores: self.scores_json(scores),
        };
        let end = GameEnd {
            winner: game.winner.clone(),
            at: winner.and_then(|w| scores.get(w).copied()),
            how,
            award: None,
            settlement: words.clone(),
            fresh: Vec::new(),
        };
        self.games += 1;
        self.scores = [0, 0];
        self.target = self.agreements.target;
        self.carried_in = None;
        self.deals_this_game = 0;
        (postings, words, steps, (game, end))
    }

    /// A played-out deal: scored, then judged by the mode. Nothing changes on error.
    fn deal(&mut self, ctx: &mut Ctx<'_>, event: WrittenDeal) -> Result<Outcome, RuleError> {
        let deal = hand::check_deal(event, &self.players)?;
        let added = [deal.total(0), deal.total(1)];
        let base = if self.agreements.mode == Mode::Match {
            self.scores
        } else {
            [0, 0]
        };
        let mut after = [0; 2];
        for (slot, (b, a)) in after.iter_mut().zip(base.iter().zip(added)) {
            *slot = b
                .checked_add(a)
                .ok_or_else(|| RuleError::new("type", "the scores have grown past counting"))?;
        }
        let dealt = deal::Dealt {
            after,
            why: self.deal_words(&deal, added, after),
            line: self.deal_line(&deal, added, after),
            steps: self.score_steps(&deal, added),
        };
        let outcome = match self.agreements.mode {
            Mode::SingleDeal => self.single_deal(dealt),
            Mode::Match => self.match_deal(dealt)?,
        };
        ctx.table.dealt(self.name(deal.dealer));
        Ok(outcome)
    }
}

/// Reads `opening_scores` (`{"Ann": 850}`): whole tens from 0 up (rules §1.9).
fn read_opening(
    agreements: &Agreements,
    players: &Players,
    value: Option<&Value>,
) -> Result<[i64; 2], RuleError> {
    let map = match value {
        None | Some(Value::Null) => return Ok([0, 0]),
        Some(Value::Object(m)) => m,
        Some(_) => {
            return Err(RuleError::new(
                "opening_scores",
                "write the scores carried in as {\"Ann\": 850, \"Bob\": 700}, or null",
            ));
        }
    };
    let mut scores = [0; 2];
    for (name, v) in map {
        let field = Field::name("opening_scores").player(name);
        let seat = hand::seat_of(players, name)
            .ok_or_else(|| RuleError::new(&field, format!("{name} is not one of the players")))?;
        let score = v.as_i64().ok_or_else(|| {
            RuleError::new(&field, format!("{v} is not a whole number of points"))
        })?;
        if !(0..=MAX_OPENING).contains(&score) || score % 10 != 0 {
            return Err(RuleError::new(
                field,
                format!(
                    "{score} is not a Two-handed score: scores start at 0 and grow by whole tens (melds, the dix and tricks counted in tens)"
                ),
            )
            .rule("rules §1.9"));
        }
        if agreements.mode == Mode::SingleDeal && score != 0 {
            return Err(RuleError::new(
                field,
                "when every deal is a game there is no score to carry in",
            )
            .rule("rules §1.9"));
        }
        if let Some(slot) = scores.get_mut(seat) {
            *slot = score;
        }
    }
    Ok(scores)
}

impl Game for TwoHanded {
    type Agreements = Agreements;
    type Event = Event;
    const NAME: &'static str = "Two-handed Pinochle";
    const ENTER: &'static str = "a hand, a declaring out, a payment or the close";
    const RULE: Option<&'static str> = Some("rules §1.9");

    fn new(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<TwoHanded, RuleError> {
        TwoHanded::start(agreements, players, opening_scores)
    }

    /// A declare-out ends its deal (rules §1.9), so it is numbered and undone as one.
    fn is_deal(&self, kind: &str) -> bool {
        matches!(kind, "hand" | "declare_out")
    }

    fn apply(&mut self, ctx: &mut Ctx<'_>, event: Event) -> Result<Outcome, RuleError> {
        match event {
            Event::Hand(deal) => self.deal(ctx, deal),
            Event::DeclareOut(claim) => self.declare_out(claim),
        }
    }

    /// Closing pays nothing more: a game in progress stays as it stands (session-format).
    fn close(&mut self, _ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        let words = match self.unfinished_scores() {
            Some(s) => format!(
                "The sitting is closed; game {} ({}) is unfinished and pays nothing",
                self.game_number(),
                self.scores_words(s)
            ),
            None => "The sitting is closed".to_string(),
        };
        Ok(Outcome {
            scores_after: Some(self.scores_json(self.scores)),
            ..Outcome::new(Vec::new(), words, SheetLine::titled("closed"))
        })
    }

    /// The running scores in seat order; 0 after a game ends and with single deals.
    fn scores(&self) -> Option<Value> {
        Some(self.scores_json(self.scores))
    }

    fn layout(&self, _table: &Table) -> Layout {
        Layout {
            columns: Column::per_player((0..2).map(|seat| self.name(seat)), Tally::Points),
        }
    }

    fn standing(&self) -> Vec<Cell> {
        self.cells(None, self.scores)
    }

    /// The first game's carried-in scores, with the target in force if both had passed it.
    fn start_line(&self) -> Option<SheetLine> {
        let carried = (self.games == 0).then_some(self.carried_in).flatten()?;
        let target = match judge(carried, self.agreements.target, self.agreements.target_step) {
            Ok(Standing::Goes { target }) => target,
            _ => self.agreements.target,
        };
        let title = if target == self.agreements.target {
            "carried in".to_string()
        } else {
            format!("carried in: game to {}", pts(target))
        };
        Some(SheetLine {
            cells: self.cells(None, carried),
            ..SheetLine::titled(title)
        })
    }

    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        form::summary(&self.agreements, currency)
    }

    /// A match game with a deal played or scores carried in is unfinished and pays nothing.
    fn unfinished(&self) -> Option<String> {
        let s = self.unfinished_scores()?;
        Some(format!(
            "Game {} is unfinished ({}): closing now pays nothing for it.",
            self.game_number(),
            self.scores_words(s)
        ))
    }

    fn hand_form(&self, _table: &Table) -> HandFormSpec {
        let note = (self.agreements.mode == Mode::Match && self.target != self.agreements.target)
            .then(|| {
                format!(
                    "Both passed {}: game {} is now played to {}.",
                    pts(self.agreements.target),
                    self.game_number(),
                    pts(self.target)
                )
            });
        form::offer(&self.players, self.agreements.mode, note)
    }
}

impl TwoHanded {
    /// The scores of a match game in progress (a deal played or scores carried in).
    fn unfinished_scores(&self) -> Option<[i64; 2]> {
        (self.agreements.mode == Mode::Match && (self.deals_this_game > 0 || self.scores != [0, 0]))
            .then_some(self.scores)
    }

    /// Scores `s` and the target in words: "Ann 850, Bob 700, game 1,000".
    fn scores_words(&self, s: [i64; 2]) -> String {
        format!(
            "{} {}, {} {}, game {}",
            self.name(0),
            pts(s[0]),
            self.name(1),
            pts(s[1]),
            pts(self.target)
        )
    }
}

#[cfg(test)]
mod review_tests;
