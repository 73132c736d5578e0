//! House games (rules §1.12): any other card game a club plays, scored by points. The table
//! enters each player's points per hand; a game ends at the agreed `target`, after the
//! agreed number of `hands`, or by `game_over`, and is paid by the agreed `settlement`.
//! The next game starts from zero.

pub mod agreements;
pub mod form;
pub mod hand;
pub mod settle;

#[cfg(test)]
mod tests;

use serde_json::{Map, Value};

use self::agreements::{Agreements, RULE, Settlement, Winner};
use self::hand::{GameOver, WrittenHand};
use crate::rules::game::HandFormSpec;
use crate::rules::sheet::minus;
use crate::rules::typed::{self, Game};
use crate::rules::{
    Cell, Column, Ctx, FinishedGame, GameEnd, GameInfo, Layout, Outcome, RuleError, SheetLine,
    Table, Tally,
};

/// The registration of `house_game`: 2 to 10 players, each for himself (rules §1.12). A
/// session is named by its agreed `name` ("Hearts") wherever games are named.
pub static GAME: GameInfo = GameInfo::typed::<HouseGame, form::Form>(
    ("house_game", "House game", RULE),
    (2, 10),
    form::AGREEMENTS,
)
.with_variant_name(session_name)
.with_presets(form::PRESETS)
.counted_by_session_name();

/// A house game session's name: its agreed `name` ("Hearts"), `None` when not given.
pub fn session_name(agreements: &Map<String, Value>) -> Option<String> {
    agreements
        .get("name")
        .and_then(Value::as_str)
        .map(String::from)
}

typed::events! {
    /// What happens in a house game besides a payment and the close.
    pub enum Event {
        /// Each player's points of one hand (rules §1.12).
        "hand" => Hand(hand::WrittenHand),
        /// The table ends the game in progress now (rules §1.12).
        "game_over" => GameOver(hand::GameOver),
    }
}

/// The engine of one house game session: agreements and the game in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct HouseGame {
    agreements: Agreements,
    players: Vec<String>,
    /// The game in progress' totals, in points, seat order.
    totals: Vec<i64>,
    /// Hands played in the game in progress.
    hands: i64,
    /// Games finished.
    games: usize,
}

impl HouseGame {
    /// The agreements this session plays under.
    pub fn agreements(&self) -> &Agreements {
        &self.agreements
    }

    fn totals_json(&self, totals: &[i64]) -> Value {
        Value::Object(
            self.players
                .iter()
                .zip(totals)
                .map(|(p, t)| (p.clone(), Value::from(*t)))
                .collect(),
        )
    }

    /// The game in progress' totals by player, seat order, in points.
    fn named_totals(&self) -> Vec<(String, i64)> {
        self.players
            .iter()
            .cloned()
            .zip(self.totals.iter().copied())
            .collect()
    }

    fn cells(&self, totals: &[i64]) -> Vec<Cell> {
        self.players
            .iter()
            .zip(totals)
            .map(|(p, t)| Cell::running(p, Tally::Points, *t))
            .collect()
    }

    /// One `hand`: added to the totals, perhaps ending and paying the game.
    fn hand(&mut self, ctx: &mut Ctx<'_>, written: WrittenHand) -> Result<Outcome, RuleError> {
        let points = hand::check(&written, &self.players, ctx.table, &self.agreements)?;
        let after = hand::add(&self.totals, &points)?;
        let hands = self.hands + 1;
        let ended = self.agreements.ends(&after, hands);
        let mut fresh = self.clone();
        fresh.totals = after.clone();
        fresh.hands = hands;
        let mut table = ctx.table.clone();
        if let Some(dealer) = &written.dealer {
            table.dealt(dealer);
        }
        let finished = match ended {
            Some(how) => Some(fresh.finish(&table, how)?),
            None => None,
        };
        let words: Vec<String> = self
            .players
            .iter()
            .zip(&points)
            .map(|(p, n)| format!("{p} {}", minus(*n)))
            .collect();
        let line = SheetLine {
            dealer: written.dealer.clone(),
            cells: self
                .players
                .iter()
                .zip(points.iter().zip(&after))
                .map(|(p, (n, t))| Cell::added(p, Tally::Points, *n, *t))
                .collect(),
            ..SheetLine::default()
        };
        let mut outcome = Outcome::new(Vec::new(), format!("Points: {}", words.join(", ")), line);
        outcome.scores_after = Some(self.totals_json(&after));
        *ctx.table = table;
        *self = fresh;
        Ok(self.ended(outcome, finished).citing(RULE))
    }

    /// `outcome` carrying the game `finished` (its postings, words and steps), if any.
    fn ended(&self, mut outcome: Outcome, finished: Option<Finished>) -> Outcome {
        if let Some(f) = finished {
            outcome.postings = f.postings;
            outcome.explanation = format!("{}. {}", outcome.explanation, f.end.settlement);
            outcome.steps = f.steps;
            outcome.finished = Some((f.game, f.end));
        }
        outcome
    }

    /// Ends the game in progress `how` (`"target"`, `"hands"`, `"game_over"`): paid by the
    /// agreed settlement with odd cents from `table`'s last dealer's left; fresh totals.
    fn finish(&mut self, table: &Table, how: &str) -> Result<Finished, RuleError> {
        let totals = self.named_totals();
        let leftover = table.leftover_order();
        let settled = settle::settle(&self.agreements, &totals, &leftover)?;
        let game = FinishedGame {
            winner: settled.winner.clone(),
            decided_by: how.to_string(),
            final_scores: self.totals_json(&self.totals),
        };
        let best = settled.best.join(" and ");
        let at = totals.iter().find(|(p, _)| settled.best.contains(p));
        let reached = match how {
            "target" => "a total reached the target",
            "hands" => "the agreed hands were played",
            _ => "the table ended it",
        };
        // The sheet names a sole winner itself; a shared win is said here.
        let who = match &settled.winner {
            Some(_) => String::new(),
            None => format!("; {best} share the win"),
        };
        let end = GameEnd {
            winner: settled.winner.clone(),
            at: at.map(|(_, t)| *t),
            how: format!("{reached}{who}"),
            award: None,
            settlement: settled.words.clone(),
            fresh: Vec::new(),
        };
        self.totals = vec![0; self.players.len()];
        self.hands = 0;
        self.games += 1;
        Ok(Finished {
            postings: settled.postings.into_vec(),
            steps: settled.steps,
            game,
            end,
        })
    }

    /// `game_over`: ends the game in progress now; refused before its first hand.
    fn game_over(&mut self, ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        if self.hands == 0 {
            return Err(RuleError::new(
                "type",
                "no hand of this game has been entered yet, so there is no game to end",
            )
            .rule(RULE));
        }
        let mut fresh = self.clone();
        let after = self.totals.clone();
        let finished = fresh.finish(ctx.table, "game_over")?;
        let mut outcome = Outcome::new(
            Vec::new(),
            "The table ends the game here",
            SheetLine {
                cells: self.cells(&after),
                ..SheetLine::titled("game over")
            },
        );
        outcome.scores_after = Some(self.totals_json(&after));
        *self = fresh;
        Ok(self.ended(outcome, Some(finished)).citing(RULE))
    }
}

/// A finished game's money, steps and records.
struct Finished {
    postings: Vec<crate::ledger::Posting>,
    steps: Vec<crate::rules::Step>,
    game: FinishedGame,
    end: GameEnd,
}

impl Game for HouseGame {
    type Agreements = Agreements;
    type Event = Event;
    const NAME: &'static str = "a house game";
    const ENTER: &'static str = "a hand, game over, a payment or the close";

    /// Every total starts at zero: `opening_scores` must be `null` (rules §1.12). By-place
    /// payouts are one per player. Errors name the field.
    fn new(
        agreements: Agreements,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<HouseGame, RuleError> {
        if opening_scores.is_some_and(|o| !o.is_null()) {
            return Err(RuleError::new(
                "opening_scores",
                "a house game starts from zero: write null, and enter the points so far as a first hand",
            )
            .rule(RULE));
        }
        if agreements.settlement == Settlement::ByPlace && agreements.payouts.len() != players.len()
        {
            return Err(RuleError::new(
                "agreements.payouts",
                format!(
                    "{} amounts for {} players: give one amount per place, best first",
                    agreements.payouts.len(),
                    players.len()
                ),
            )
            .rule(RULE));
        }
        Ok(HouseGame {
            agreements,
            players: players.to_vec(),
            totals: vec![0; players.len()],
            hands: 0,
            games: 0,
        })
    }

    fn apply(&mut self, ctx: &mut Ctx<'_>, event: Event) -> Result<Outcome, RuleError> {
        match event {
            Event::Hand(hand) => self.hand(ctx, hand),
            Event::GameOver(GameOver {}) => self.game_over(ctx),
        }
    }

    /// Closing pays nothing more: a game unfinished at the close pays nothing (rules §1.12).
    fn close(&mut self, _ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        let words = match self.unfinished() {
            Some(_) => "The sitting is closed; the game in progress is unfinished and pays nothing",
            None => "The sitting is closed",
        };
        let mut outcome = Outcome::new(Vec::new(), words, SheetLine::titled("closed"));
        outcome.scores_after = Some(self.totals_json(&self.totals));
        Ok(outcome.citing(RULE))
    }

    fn layout(&self, _table: &Table) -> Layout {
        Layout {
            columns: Column::per_player(&self.players, Tally::Points),
        }
    }

    fn standing(&self) -> Vec<Cell> {
        self.cells(&self.totals)
    }

    fn agreements_summary(&self, currency: &str) -> Vec<(String, String)> {
        form::summary(&self.agreements, currency)
    }

    fn unfinished(&self) -> Option<String> {
        (self.hands > 0).then(|| {
            format!(
                "Game {} is unfinished: closing now pays nothing for it.",
                self.games + 1
            )
        })
    }

    fn hand_form(&self, _table: &Table) -> HandFormSpec {
        form::offer(self)
    }

    /// The agreed `name` ("Hearts").
    fn session_name(&self) -> Option<String> {
        Some(self.agreements.name.clone())
    }

    fn low_leads(&self) -> bool {
        self.agreements.winner == Winner::Low
    }

    /// Who leads, how far the target is or how many hands are left, and what each would
    /// get if the game ended now, odd cents from the dealer's left (rules §1.12).
    fn outlook(&self, table: &Table, currency: &str) -> Option<String> {
        let game_no = self.games + 1;
        if self.hands == 0 {
            return Some(format!("Game {game_no}: no hand yet."));
        }
        let totals = self.named_totals();
        let now = settle::settle(&self.agreements, &totals, &table.leftover_order()).ok()?;
        let leads = match &now.winner {
            Some(w) => format!("{w} leads"),
            None => format!("{} lead together", now.best.join(" and ")),
        };
        let mut parts = vec![format!("Game {game_no}, {} hands: {leads}", self.hands)];
        if let Some(target) = self.agreements.target {
            let top = self.totals.iter().max().copied().unwrap_or(0);
            parts.push(format!("{} to go to {target}", target.saturating_sub(top)));
        }
        if let Some(hands) = self.agreements.hands {
            parts.push(format!("{} hands left", hands.saturating_sub(self.hands)));
        }
        let money: Vec<String> = self
            .players
            .iter()
            .map(|p| format!("{p} {}", now.postings.net(p).shown_signed(currency)))
            .collect();
        Some(format!(
            "{}. Ending now pays: {}.",
            parts.join("; "),
            money.join(", ")
        ))
    }

    /// The running totals of the game in progress, `{"Al": 10, …}` in seat order.
    fn scores(&self) -> Option<Value> {
        Some(self.totals_json(&self.totals))
    }
}
