//! Two-handed Pinochle (rules §1.9, S004, the Hoyle/Bicycle-style text): two players, each
//! for himself, scoring melds as they are made, 10 for a dix turned up by the dealer, and
//! their trick points counted in tens with 7 or more rounding up.
//!
//! Two ways to play (`mode`): a **match** to 1,000 over a series of deals, which goes on to
//! 1,250, 1,500, … whenever both players reach the target after the same deal, however far
//! one is ahead, and which either player may end by **declaring out** during a deal; or
//! **single deals**, each deal a game won by the higher total (equal totals a draw, rules §3
//! item 29). Each finished game is settled at once: the loser pays the winner the stake;
//! nothing is paid for a draw or for a game unfinished at the close. The next deal after a
//! game starts a new game from 0 at the agreed target (`opening_scores` seed the first game
//! only). Modules: [`agreements`], [`hand`] (reading and checking a deal or a
//! declare-out), [`form`] (the pages' side).

pub mod agreements;
pub mod form;
pub mod hand;

#[cfg(test)]
mod tests;

use serde_json::{Map, Value, json};

use self::agreements::{Agreements, MAX_TARGET, Mode};
use self::hand::{Deal, Players, rounded};
use crate::ledger::Postings;
use crate::rules::game::HandFormSpec;
use crate::rules::{
    Award, Cell, Column, Ctx, Detail, Engine, FinishedGame, GameEnd, GameInfo, Layout, Mark,
    Outcome, RuleError, SheetLine, Step, Table, Tally, Tone,
};

/// The registration of `two_handed_pinochle`: exactly two players (rules §1.9).
pub static GAME: GameInfo = GameInfo {
    id: "two_handed_pinochle",
    name: "Two-handed Pinochle",
    rules: "rules §1.9",
    seats: (2, 2),
    agreements: form::AGREEMENTS,
    start,
    hand_from_form: crate::rules::hand_form::hand_event::<form::Form>,
};

fn start(
    agreements: &Map<String, Value>,
    players: &[String],
    opening_scores: Option<&Value>,
) -> Result<Box<dyn Engine>, RuleError> {
    Ok(Box::new(TwoHanded::new(
        agreements,
        players,
        opening_scores,
    )?))
}

/// The largest score carried in, in points: far above any real sheet.
const MAX_OPENING: i64 = 10 * MAX_TARGET;

/// Where a match game stands after a deal (rules §1.9 "Game", S004).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Standing {
    /// Exactly one player has reached the target: he wins.
    Won(usize),
    /// Nobody has won; the game is now played to `target` (raised by whole steps while both
    /// players had reached it).
    Goes { target: i64 },
}

/// Judges match scores against the target in force: one player at or over it and the other
/// under it wins; both at or over it send the game on to the first `target + k × step` that
/// not both have reached (1,000 → 1,250, "even if one has 1,130 and the other 1,000"; both
/// over 1,250 → 1,500, S004), and nobody wins on that deal. Errors: a target past the
/// integers (never at a real table).
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

/// Points as a sheet writes them: "1,010", "−20".
fn pts(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("−{out}") } else { out }
}

/// The engine of one Two-handed Pinochle session: the agreements, the two players, the
/// game in progress (scores and the target in force) and the games already finished.
#[derive(Debug, Clone)]
pub struct TwoHanded {
    agreements: Agreements,
    players: Players,
    scores: [i64; 2],
    target: i64,
    carried_in: Option<[i64; 2]>,
    deals_this_game: usize,
    /// How many games are finished (the fold keeps the games themselves, once).
    games: usize,
}

impl TwoHanded {
    /// Starts a session for `players` (exactly two, seat order) under `agreements`, with the
    /// first game's `opening_scores` (`{"Ann": 850}`, a missing player at 0). Errors name
    /// the field: the agreements (see [`Agreements::read`]); `players`; an opening score of
    /// someone else, not a whole ten from 0 up, any at all in `single_deal` mode (every deal
    /// is its own game), or one that already won (one player at or over the target, the
    /// other under it). Both at or over the target is a game gone on to the next step.
    pub fn new(
        agreements: &Map<String, Value>,
        players: &[String],
        opening_scores: Option<&Value>,
    ) -> Result<TwoHanded, RuleError> {
        let agreements = Agreements::read(agreements)?;
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
                    format!("opening_scores.{name}"),
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

    /// The game's payment: the loser pays the winner the stake; a draw or a points-only
    /// session pays nothing (session-format). Returns the postings, the words and the same
    /// as steps (the stake per game, the payment).
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

    /// Ends the game in progress with `winner` (`None`: a draw) at `scores`: records it,
    /// settles it, and starts the next game from 0 at the agreed target.
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
    fn deal(
        &mut self,
        ctx: &mut Ctx<'_>,
        event: &Map<String, Value>,
    ) -> Result<Outcome, RuleError> {
        let deal = hand::read_deal(event, &self.players)?;
        let added = [deal.total(0), deal.total(1)];
        let game = self.game_number();
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
        let score_steps = self.score_steps(&deal, added);
        let mut why = self.deal_words(&deal, added, after);
        let mut line = self.deal_line(&deal, added, after);
        let outcome = match self.agreements.mode {
            Mode::SingleDeal => {
                let [a, b] = after;
                let winner = match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                };
                let how = match winner {
                    Some(w) => format!(
                        "the higher total of the deal, {} to {}",
                        pts(after.get(w).copied().unwrap_or(0)),
                        pts(after.get(1 - w).copied().unwrap_or(0))
                    ),
                    None => {
                        line.marks.push(Mark::new("a draw", Tone::Plain));
                        format!("equal totals, {}: a draw", pts(a))
                    }
                };
                let decided_by = if winner.is_some() {
                    "single_deal"
                } else {
                    "single_deal_draw"
                };
                let (postings, words, paid, finished) = self.finish(winner, decided_by, how, after);
                why.push_str(&match winner {
                    Some(w) => format!(
                        ". Every deal is a game: {} wins game {game} with the higher total; {words}",
                        self.name(w)
                    ),
                    None => format!(
                        ". Every deal is a game: equal totals make game {game} a draw; {words}"
                    ),
                });
                Outcome {
                    rules: vec!["rules §1.9".into()],
                    postings: postings.into_vec(),
                    scores_after: Some(json!({ "game": game, "scores": self.scores_json(after) })),
                    explanation: why,
                    steps: [score_steps, paid].concat(),
                    line,
                    finished: Some(finished),
                }
            }
            Mode::Match => match judge(after, self.target, self.agreements.target_step)? {
                Standing::Won(w) => {
                    let how = format!(
                        "reached {} (game {}) with {} under it",
                        pts(after.get(w).copied().unwrap_or(0)),
                        pts(self.target),
                        self.name(1 - w)
                    );
                    why.push_str(&format!(
                        ". {} reaches {} (game {}) and {} has {}: {} wins game {game}",
                        self.name(w),
                        pts(after.get(w).copied().unwrap_or(0)),
                        pts(self.target),
                        self.name(1 - w),
                        pts(after.get(1 - w).copied().unwrap_or(0)),
                        self.name(w)
                    ));
                    let target = self.target;
                    let (postings, words, paid, finished) =
                        self.finish(Some(w), "target", how, after);
                    why.push_str(&format!("; {words}"));
                    Outcome {
                        rules: vec!["rules §1.9".into()],
                        postings: postings.into_vec(),
                        scores_after: Some(json!({
                            "game": game, "target": target, "scores": self.scores_json(after)
                        })),
                        explanation: why,
                        steps: [score_steps, paid].concat(),
                        line,
                        finished: Some(finished),
                    }
                }
                Standing::Goes { target } => {
                    if target != self.target {
                        why.push_str(&format!(
                            ". Both have {} or more ({} {}, {} {}): the game goes on to {}, however far one is ahead",
                            pts(self.target),
                            self.name(0),
                            pts(after[0]),
                            self.name(1),
                            pts(after[1]),
                            pts(target)
                        ));
                        line.marks.push(Mark::new(
                            format!("both past {}: game to {}", pts(self.target), pts(target)),
                            Tone::Plain,
                        ));
                    }
                    self.scores = after;
                    self.target = target;
                    self.deals_this_game += 1;
                    Outcome {
                        scores_after: Some(json!({
                            "game": game, "target": target, "scores": self.scores_json(after)
                        })),
                        ..Outcome::new(Vec::new(), why, line).with_steps(score_steps)
                    }
                }
            },
        };
        ctx.table.dealt(self.name(deal.dealer));
        Ok(outcome)
    }

    /// What the deal adds to each player as steps: "meld 60 + tricks 97 → 100" = 160.
    fn score_steps(&self, deal: &Deal, added: [i64; 2]) -> Vec<Step> {
        (0..2)
            .map(|seat| {
                let raw = deal.tricks.get(seat).copied().unwrap_or(0);
                let mut sum = format!(
                    "meld {} + tricks {raw}",
                    deal.melds.get(seat).copied().unwrap_or(0)
                );
                if rounded(raw) != raw {
                    sum.push_str(&format!(" → {}", rounded(raw)));
                }
                if deal.dix(seat) > 0 {
                    sum.push_str(&format!(" + dix turned up {}", deal.dix(seat)));
                }
                Step::Score {
                    who: self.name(seat).to_string(),
                    sum,
                    total: added.get(seat).copied().unwrap_or(0),
                    tally: Tally::Points,
                }
            })
            .collect()
    }

    /// The deal in words: "Bob dealt: Ann meld 60 + tricks 97 → 100 = +160 → 1,010; Bob
    /// meld 40 + tricks 153 → 150 + dix 10 = +200 → 890 (rules §1.9)".
    fn deal_words(&self, deal: &Deal, added: [i64; 2], after: [i64; 2]) -> String {
        let parts: Vec<String> = (0..2)
            .map(|seat| {
                let meld = deal.melds.get(seat).copied().unwrap_or(0);
                let raw = deal.tricks.get(seat).copied().unwrap_or(0);
                let dix = match deal.dix(seat) {
                    0 => String::new(),
                    d => format!(" + dix turned up {d}"),
                };
                let running = match self.agreements.mode {
                    Mode::Match => format!(" → {}", pts(after.get(seat).copied().unwrap_or(0))),
                    Mode::SingleDeal => String::new(),
                };
                let tricks = if rounded(raw) == raw {
                    format!("tricks {raw}")
                } else {
                    format!("tricks {raw} → {}", rounded(raw))
                };
                format!(
                    "{} meld {meld} + {tricks}{dix} = +{}{running}",
                    self.name(seat),
                    added.get(seat).copied().unwrap_or(0)
                )
            })
            .collect();
        format!(
            "{} dealt: {} (trick points in tens, 7 or more counts 10)",
            self.name(deal.dealer),
            parts.join("; ")
        )
    }

    /// The sheet's line for a deal: the dealer, a turned-up dix, each player's meld and
    /// tricks (raw → counted), and both scores.
    fn deal_line(&self, deal: &Deal, added: [i64; 2], after: [i64; 2]) -> SheetLine {
        let mut details = Vec::new();
        for seat in 0..2 {
            let account = self.name(seat).to_string();
            let raw = deal.tricks.get(seat).copied().unwrap_or(0);
            details.push(Detail {
                account: account.clone(),
                text: format!("meld {}", deal.melds.get(seat).copied().unwrap_or(0)),
                tone: Tone::Plain,
            });
            details.push(Detail {
                account,
                text: if rounded(raw) == raw {
                    format!("tricks {raw}")
                } else {
                    format!("tricks {raw} → {}", rounded(raw))
                },
                tone: Tone::Plain,
            });
        }
        let dealer = self.name(deal.dealer).to_string();
        let mut marks = Vec::new();
        let mut awards = Vec::new();
        if deal.turn_up_dix {
            marks.push(Mark::new("dix turned up", Tone::Plain));
            awards.push(Award {
                to: dealer.clone(),
                tally: Tally::Points,
                amount: hand::TURN_UP_DIX,
                what: "dix turned up".into(),
                short: String::new(),
            });
        }
        SheetLine {
            marks,
            awards,
            details,
            cells: self.cells(Some(added), after),
            ..SheetLine::titled("deal").dealt_by(dealer)
        }
    }

    /// A declare-out (match mode): the claimant's score with this deal's melds and his trick
    /// points so far (rounded by agreement) is checked against the target in force; at or
    /// over it he wins even if the other player has more, under it he loses (rules §1.9).
    fn declare_out(&mut self, event: &Map<String, Value>) -> Result<Outcome, RuleError> {
        if self.agreements.mode == Mode::SingleDeal {
            return Err(RuleError::new(
                "type",
                "declaring out belongs to a match: when every deal is a game there is nothing to declare out of",
            )
            .rule("rules §1.9, session-format"));
        }
        let d = hand::read_declare_out(event, &self.players)?;
        let (c, o) = (d.claimant, 1 - d.claimant);
        let counted = if self.agreements.round_partial_count {
            rounded(d.tricks_so_far)
        } else {
            d.tricks_so_far
        };
        let add = |seat: usize, extra: i64| -> Result<i64, RuleError> {
            let melds = d.melds.get(seat).copied().unwrap_or(0);
            self.scores
                .get(seat)
                .copied()
                .unwrap_or(0)
                .checked_add(melds)
                .and_then(|s| s.checked_add(extra))
                .ok_or_else(|| RuleError::new("type", "the scores have grown past counting"))
        };
        let mut after = [0; 2];
        if let Some(slot) = after.get_mut(c) {
            *slot = add(c, counted)?;
        }
        if let Some(slot) = after.get_mut(o) {
            *slot = add(o, 0)?;
        }
        let claimed = after.get(c).copied().unwrap_or(0);
        let target = self.target;
        let made = claimed >= target;
        let (claimant, other) = (self.name(c).to_string(), self.name(o).to_string());
        let rounding = match (
            self.agreements.round_partial_count,
            counted == d.tricks_so_far,
        ) {
            (_, true) => String::new(),
            (true, false) => format!(" → {counted}"),
            (false, false) => String::new(),
        };
        let before = self.scores.get(c).copied().unwrap_or(0);
        let claim_melds = d.melds.get(c).copied().unwrap_or(0);
        let mut why = format!(
            "{claimant} declared out: {} + meld {claim_melds} + tricks so far {}{rounding} = {} against the game of {}",
            pts(before),
            d.tricks_so_far,
            pts(claimed),
            pts(target)
        );
        if !self.agreements.round_partial_count {
            why.push_str(" (the partial count is not rounded, by agreement)");
        }
        let game = self.game_number();
        let (winner, decided_by, how) = if made {
            why.push_str(&format!(
                ": {claimant} is out and wins game {game}, whatever {other} has"
            ));
            (
                c,
                "declared_out",
                format!("declared out at {}", pts(claimed)),
            )
        } else {
            why.push_str(&format!(
                ": short of {}, so {claimant} loses and {other} wins game {game}",
                pts(target)
            ));
            (
                o,
                "declared_out_short",
                format!("{claimant} declared out short, at {}", pts(claimed)),
            )
        };
        let mut details = vec![
            Detail {
                account: claimant.clone(),
                text: format!("meld {claim_melds}"),
                tone: Tone::Plain,
            },
            Detail {
                account: claimant.clone(),
                text: format!("tricks so far {}{rounding}", d.tricks_so_far),
                tone: Tone::Plain,
            },
        ];
        let other_melds = d.melds.get(o).copied().unwrap_or(0);
        if other_melds > 0 {
            details.push(Detail {
                account: other.clone(),
                text: format!("meld {other_melds}"),
                tone: Tone::Plain,
            });
        }
        // The other player's column shows only his score unless he melded in this deal.
        let cells = (0..2)
            .map(|seat| {
                let running = after.get(seat).copied().unwrap_or(0);
                let name = self.name(seat);
                match (seat == c, other_melds) {
                    (true, _) => Cell::added(name, Tally::Points, claim_melds + counted, running),
                    (false, 0) => Cell::running(name, Tally::Points, running),
                    (false, m) => Cell::added(name, Tally::Points, m, running),
                }
            })
            .collect();
        let line = SheetLine {
            marks: vec![if made {
                Mark::new(format!("out at {}", pts(claimed)), Tone::Good)
            } else {
                Mark::new(
                    format!("short: {} of {}", pts(claimed), pts(target)),
                    Tone::Bad,
                )
            }],
            details,
            cells,
            ..SheetLine::titled(format!("{claimant} declared out"))
        };
        let (postings, words, paid, finished) = self.finish(Some(winner), decided_by, how, after);
        why.push_str(&format!("; {words}"));
        let score = Step::Score {
            who: claimant,
            sum: format!(
                "{} + meld {claim_melds} + tricks so far {}{rounding}",
                pts(before),
                d.tricks_so_far
            ),
            total: claimed,
            tally: Tally::Points,
        };
        Ok(Outcome {
            rules: vec!["rules §1.9".into()],
            postings: postings.into_vec(),
            scores_after: Some(json!({
                "game": game, "target": target, "scores": self.scores_json(after)
            })),
            explanation: why,
            steps: [vec![score], paid].concat(),
            line,
            finished: Some(finished),
        })
    }
}

/// Reads `opening_scores`: `null`, `{}` or `{"Ann": 850, "Bob": 700}`, a missing player at 0
/// (session-format). Scores only grow, by whole tens (melds, the dix and rounded tricks are
/// all tens, rules §1.9), so a carried-in score is a whole ten from 0 up.
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
        let field = format!("opening_scores.{name}");
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

impl Engine for TwoHanded {
    fn clone_box(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }

    /// A declare-out ends the deal it was made in (rules §1.9), so it is numbered and undone as
    /// one.
    fn is_deal(&self, kind: &str) -> bool {
        matches!(kind, "hand" | "declare_out")
    }

    fn apply(
        &mut self,
        ctx: &mut Ctx<'_>,
        kind: &str,
        event: &Map<String, Value>,
    ) -> Result<Outcome, RuleError> {
        match kind {
            "hand" => self.deal(ctx, event),
            "declare_out" => self.declare_out(event),
            other => Err(RuleError::new(
                "type",
                format!(
                    "\"{other}\" is not something that happens in Two-handed Pinochle: enter a hand, a declaring out, a payment or the close"
                ),
            )
            .rule("rules §1.9")),
        }
    }

    /// Closing pays nothing more: only a finished game is settled, so a game in progress is
    /// left as it stands on the sheet (session-format: "A game unfinished at close pays
    /// nothing").
    fn close(&mut self, _ctx: &mut Ctx<'_>) -> Result<Outcome, RuleError> {
        let words = match self.unfinished_scores() {
            Some(s) => format!(
                "The sitting is closed; game {} ({} {}, {} {}, game {}) is unfinished and pays nothing",
                self.game_number(),
                self.name(0),
                pts(s[0]),
                self.name(1),
                pts(s[1]),
                pts(self.target)
            ),
            None => "The sitting is closed".to_string(),
        };
        Ok(Outcome {
            scores_after: Some(self.scores_json(self.scores)),
            ..Outcome::new(Vec::new(), words, SheetLine::titled("closed"))
        })
    }

    /// The running scores of the game in progress, `{"Ann": 850, "Bob": 700}` in seat order;
    /// 0 each right after a game has ended, and always 0 with single deals (every deal is a
    /// finished game).
    fn scores(&self) -> Option<Value> {
        Some(self.scores_json(self.scores))
    }


    /// One points column per player, in seat order.
    fn layout(&self, _table: &Table) -> Layout {
        Layout {
            columns: (0..2)
                .map(|seat| Column {
                    account: self.name(seat).to_string(),
                    label: self.name(seat).to_string(),
                    members: String::new(),
                    tally: Tally::Points,
                })
                .collect(),
        }
    }

    fn standing(&self) -> Vec<Cell> {
        self.cells(None, self.scores)
    }

    /// The first game's scores carried in from a paper sheet, when there are any, with the
    /// target in force when they had both passed 1,000.
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

    /// A match game with a deal played or scores carried in is unfinished: closing pays
    /// nothing for it (session-format). Single deals are never left unfinished.
    fn unfinished(&self) -> Option<String> {
        let s = self.unfinished_scores()?;
        Some(format!(
            "Game {} is unfinished ({} {}, {} {}, game {}): closing now pays nothing for it.",
            self.game_number(),
            self.name(0),
            pts(s[0]),
            self.name(1),
            pts(s[1]),
            pts(self.target)
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
}

#[cfg(test)]
mod review_tests;
