//! Auction Pitch (rules §1.4, Scarne S001) with the Smudge and count-down variants.
//!
//! Scores run from hand to hand; nothing is paid until a game ends. Then the winner
//! collects the difference in points times the stake from every other player, and the next
//! hand starts a new game with fresh scores. A session holds any number of games in a row;
//! the ledger nets them. Modules: [`agreements`] (table agreements), [`hand`] (reading and
//! checking a deal), [`score`] (what a hand does to the scores), [`game_end`] (who wins,
//! what is paid).

pub mod agreements;
pub mod game_end;
pub mod hand;
pub mod score;

#[cfg(test)]
mod tests;

use serde_json::{Map, Value};

use self::agreements::{Agreements, MAX_POINTS};
use self::hand::Deal;
use self::score::{Scores, num};
use crate::rules::{Ctx, Entry, FinishedGame, Game, GameTable, RuleError, Table};

/// The registration of `auction_pitch`: 2 to 7 players, each for himself (rules §1.4, S001).
pub static GAME: Game = Game {
    id: "auction_pitch",
    name: "Auction Pitch",
    rules: "rules §1.4",
    seats: (2, 7),
    start,
};

fn start(
    agreements: &Map<String, Value>,
    players: &[String],
    opening_scores: Option<&Value>,
) -> Result<Box<dyn GameTable>, RuleError> {
    Ok(Box::new(AuctionPitch::new(
        agreements,
        players,
        opening_scores,
    )?))
}

/// The first game's scores: `opening_scores` as carried in from a paper sheet
/// (`{"Ann": 7}`), a missing player at 0, or at `countdown_start` in count-down
/// (`design/session-format.md`). Errors name the entry (`opening_scores.Zed`): a name that
/// is not a player, a score that is not an integer within ±[`MAX_POINTS`], or one already
/// out (a game in progress has nobody at the target, or at zero counting down).
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
        let field = format!("opening_scores.{name}");
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
                    "{} is already out (the game ends at {}), so that game is over, not in progress (rules §1.4)",
                    num(score),
                    agreements.goal()
                ),
            ));
        }
        scores.set(name, score);
    }
    Ok(scores)
}

/// The engine of one Auction Pitch session: the agreements, the running scores of the game
/// in progress and every finished game.
pub struct AuctionPitch {
    agreements: Agreements,
    players: Vec<String>,
    scores: Scores,
    games: Vec<FinishedGame>,
    dead_hand_last: bool,
}

impl AuctionPitch {
    /// Starts a session: reads the agreements and the `opening_scores` of the first game
    /// for `players` (seat order). Errors name the field (`agreements.target`,
    /// `opening_scores.Zed`).
    pub fn new(
        agreements: &Map<String, Value>,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<AuctionPitch, RuleError> {
        let agreements = Agreements::read(agreements)?;
        let scores = opening(&agreements, players, opening_scores)?;
        Ok(AuctionPitch {
            agreements,
            players: players.to_vec(),
            scores,
            games: Vec::new(),
            dead_hand_last: false,
        })
    }

    /// The agreements this session plays under.
    pub fn agreements(&self) -> &Agreements {
        &self.agreements
    }

    /// One `hand` event: a dead hand changes nothing; a played hand is scored, and when it
    /// ends the game the game is settled and the scores start afresh. Nothing changes on
    /// error.
    fn hand(&mut self, ctx: &mut Ctx<'_>, event: &Map<String, Value>) -> Result<Entry, RuleError> {
        let c = match hand::read(event, ctx.table)? {
            Deal::AllPassed { dealer } => {
                ctx.table.dealt(&dealer);
                self.dead_hand_last = true;
                return Ok(Entry {
                    postings: Vec::new(),
                    scores_after: Some(self.scores.to_json()),
                    explanation: format!(
                        "All passed on {dealer}'s deal: a dead hand, no score; {dealer} deals again (rules §1.4)"
                    ),
                });
            }
            Deal::Played(c) => c,
        };
        let scored = score::score_hand(&self.agreements, &self.players, &self.scores, &c);
        let order = ctx.table.from_left_of(&c.dealer);
        let win = game_end::decide(&self.agreements, &c, &scored, &order);
        let mut explanation = scored.explanation.clone();
        let mut postings = Vec::new();
        match win {
            None => self.scores = scored.after.clone(),
            Some(win) => {
                let (paid, words) = game_end::settle(&self.agreements, &scored.after, &win)?;
                postings = paid.into_vec();
                explanation = format!("{explanation}. {words}");
                self.games.push(FinishedGame {
                    winner: Some(win.winner.clone()),
                    decided_by: win.decided_by(&self.agreements),
                    final_scores: scored.after.to_json(),
                });
                self.scores = Scores::fresh(&self.players, self.agreements.fresh_score());
            }
        }
        ctx.table.dealt(&c.dealer);
        self.dead_hand_last = false;
        Ok(Entry {
            postings,
            scores_after: Some(scored.after.to_json()),
            explanation,
        })
    }
}

impl GameTable for AuctionPitch {
    /// Who deals next: after a dead hand (all passed) the same dealer deals again (rules
    /// §1.4, S001); otherwise the player on the last dealer's left. `None` before the first
    /// hand. The rotation is not enforced on `hand` events, because a misdeal passes the
    /// deal to the left (S001) without an event that would show it.
    fn next_dealer(&self, table: &Table) -> Option<String> {
        if self.dead_hand_last {
            table.last_dealer().map(String::from)
        } else {
            table.next_dealer().map(String::from)
        }
    }

    fn apply(
        &mut self,
        ctx: &mut Ctx<'_>,
        kind: &str,
        event: &Map<String, Value>,
    ) -> Result<Entry, RuleError> {
        match kind {
            "hand" => self.hand(ctx, event),
            other => Err(RuleError::new(
                "type",
                format!("\"{other}\" is not an Auction Pitch event; use hand, payment or close"),
            )),
        }
    }

    /// Closing pays nothing more: only a finished game is settled (rules §1.4), so a game
    /// still in progress is left as it stands on the sheet.
    fn close(&mut self, _ctx: &mut Ctx<'_>) -> Result<Entry, RuleError> {
        let sheet: Vec<String> = self
            .scores
            .iter()
            .map(|(p, s)| format!("{p} {}", num(s)))
            .collect();
        Ok(Entry {
            postings: Vec::new(),
            scores_after: Some(self.scores.to_json()),
            explanation: format!(
                "The sitting is closed; the game in progress ({}) is unfinished and settles nothing (rules §1.4)",
                sheet.join(", ")
            ),
        })
    }

    /// The running scores of the game in progress, `{"A": 2, "B": 1, …}` in seat order;
    /// fresh scores right after a game has ended.
    fn scores(&self) -> Option<Value> {
        Some(self.scores.to_json())
    }

    fn games(&self) -> Vec<FinishedGame> {
        self.games.clone()
    }
}
